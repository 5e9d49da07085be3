//! How durak plugs into the engine and the CLI: its built-ins and input types (for
//! `rules/durak.rules`), its benchmark (`kibitzer bench durak`) and its arena (`kibitzer play durak`).
//!
//! Input types: `durak_suit` (the trump: `D`, `♦`, `diamonds`), `durak_sizes` (every player's
//! hand size, this player's first: `6,6,5`) and `durak_table` (the table: attack cards in the order
//! played, each followed by `/` and the card that beat it: `7S/9S 7D`). Built-ins `durak.*` answer
//! the questions about cards and the table that the decision rules ask (what beats what, the first
//! unbeaten card, a hand without a card or with the table added) and check a position.

use super::cards::{Card as DCard, Deck, Suit as DSuit};
use crate::builtins::{BuiltinError, InputType, Registry, Solutions, TypeArgs};
use crate::cards::{parse_card, Card, Cards, NotationError, Suit};
use crate::value::{Shared, Value, ValueType as T};

/// Registers durak's built-ins and input types.
pub fn register(r: &mut Registry) {
    register_inputs(r);
    super::search_builtins::register(r);
    register_words(r);
    register_cards(r);
    register_table(r);
}

/// The input types `durak_suit`, `durak_sizes` and `durak_table`.
fn register_inputs(r: &mut Registry) {
    r.input_type(InputType {
        name: "durak_suit",
        keys: &[],
        max_positional: 0,
        value_type: T::Str,
        parse: parse_suit_input,
        doc: "a suit (the trump): S H D C, ♠ ♥ ♦ ♣ or spades, hearts, diamonds, clubs",
    });
    r.input_type(InputType {
        name: "durak_sizes",
        keys: &[],
        max_positional: 0,
        value_type: T::List,
        parse: parse_sizes_input,
        doc: "every player's hand size, this player's first: `6,6,5` (whole numbers 0..52)",
    });
    r.input_type(InputType {
        name: "durak_table",
        keys: &[],
        max_positional: 0,
        value_type: T::List,
        parse: parse_table_input,
        doc: "the durak table: attack cards in the order played, a beaten one followed by `/` and its beater: `7S/9S 7D`",
    });
}

/// Names: a card's rank value, a suit's name.
fn register_words(r: &mut Registry) {
    r.func(
        "durak.rank_value",
        &[("values", T::List), ("card", T::Card)],
        T::Int,
        "the card's rank value: entry rank − 2 of the list of values of the ranks 2..A (`rank_values`)",
        |a| {
            let Value::List(values) = &a[0] else {
                return Err(BuiltinError::bad_argument(
                    "durak.rank_value",
                    1,
                    "a list of 13 integers",
                    &a[0],
                ));
            };
            let c = card_arg(a[1], "durak.rank_value", 2)?;
            match values.get(c.rank() as usize - 2) {
                Some(Value::Int(v)) => Ok(Value::Int(*v)),
                _ => Err(BuiltinError::failed(
                    "durak.rank_value",
                    format!("no integer value for rank {} in {}", c.rank(), a[0]),
                )),
            }
        },
    );
    r.func(
        "durak.suit_name",
        &[("suit", T::Str)],
        T::Str,
        "the suit's English name: spades, hearts, diamonds, clubs",
        |a| {
            Ok(crate::builtins::cards::suit_name(
                suit_arg(a[0], "durak.suit_name", 1)?.index() as usize,
            ))
        },
    );
}

/// Cards: a hand without a card or joined with another, what beats what, the tie-break order.
fn register_cards(r: &mut Registry) {
    r.func(
        "durak.without",
        &[("cards", T::Cards), ("card", T::Card)],
        T::Cards,
        "the cards without this card",
        |a| {
            let h = cards_arg(a[0], "durak.without", 1)?;
            let c = card_arg(a[1], "durak.without", 2)?;
            Ok(Value::Cards(Shared::local(Cards::new(
                h.cards().iter().copied().filter(|x| *x != c),
                0,
            ))))
        },
    );
    r.func(
        "durak.union",
        &[("a", T::Cards), ("b", T::Cards)],
        T::Cards,
        "the cards of a, then those of b not in a",
        |a| {
            let x = cards_arg(a[0], "durak.union", 1)?;
            let y = cards_arg(a[1], "durak.union", 2)?;
            let mask = x.mask();
            Ok(Value::Cards(Shared::local(Cards::new(
                x.cards()
                    .iter()
                    .copied()
                    .chain(y.cards().iter().copied().filter(|c| mask >> c.index() & 1 == 0)),
                0,
            ))))
        },
    );
    r.func(
        "durak.beats",
        &[("card", T::Card), ("attack", T::Card), ("trump", T::Str)],
        T::Bool,
        "true when `card` beats `attack`: same suit and higher rank, or a trump on a non-trump",
        |a| {
            let c = card_arg(a[0], "durak.beats", 1)?;
            let x = card_arg(a[1], "durak.beats", 2)?;
            let t = suit_arg(a[2], "durak.beats", 3)?;
            Ok(Value::Bool(if c.suit() == x.suit() {
                c.rank() > x.rank()
            } else {
                c.suit() == t
            }))
        },
    );
    r.func(
        "durak.low_order",
        &[("card", T::Card), ("trump", T::Str)],
        T::Int,
        "the card's place in the tie-break order, lowest first: non-trumps before trumps, then rank, then suit ♠ ♥ ♦ ♣ (0..103)",
        |a| {
            let c = card_arg(a[0], "durak.low_order", 1)?;
            let t = suit_arg(a[1], "durak.low_order", 2)?;
            Ok(Value::Int(low_order(c, t)))
        },
    );
}

/// The table and the position: its cards, its attacks beaten or not, and `durak.check`.
fn register_table(r: &mut Registry) {
    r.func(
        "durak.table_cards",
        &[("table", T::List)],
        T::Cards,
        "every card on the table (attack and defence cards)",
        |a| {
            let t = table_arg(a[0], "durak.table_cards")?;
            Ok(Value::Cards(Shared::local(Cards::new(
                t.iter().flat_map(|(x, d)| std::iter::once(*x).chain(*d)),
                0,
            ))))
        },
    );
    r.func(
        "durak.attacks",
        &[("table", T::List)],
        T::Int,
        "how many attack cards are on the table",
        |a| Ok(Value::Int(table_arg(a[0], "durak.attacks")?.len() as i64)),
    );
    r.func(
        "durak.beaten",
        &[("table", T::List)],
        T::Int,
        "how many attack cards on the table are beaten",
        |a| {
            Ok(Value::Int(
                table_arg(a[0], "durak.beaten")?
                    .iter()
                    .filter(|(_, d)| d.is_some())
                    .count() as i64,
            ))
        },
    );
    r.function(
        "durak.unbeaten",
        &[("table", T::List)],
        &[T::Card],
        // Several-valued (here: none or one), so that a defence rule on a table with nothing left
        // to beat simply does not match; `NothingToDefend` says so.
        true,
        "the attack card not yet beaten that a defence answers first: the lowest by rank, then suit \
         ♠ ♥ ♦ ♣, whatever order the table was typed in (no solution when every card is beaten)",
        |a, out| {
            let table = table_arg(a[0], "durak.unbeaten")?;
            let first = table
                .iter()
                .filter(|(_, d)| d.is_none())
                .min_by_key(|(x, _)| (x.rank(), x.suit().index()));
            if let Some((x, _)) = first {
                out.push1(Value::Card(*x));
            }
            Ok(())
        },
    );
    r.function(
        "durak.check",
        &[
            ("hand", T::Cards),
            ("table", T::List),
            ("trump", T::Str),
            ("deck", T::Int),
            ("stock", T::Int),
            ("hands", T::List),
            ("room", T::Int),
            ("out", T::Cards),
            ("known", T::Str),
            ("trump_card", T::Cards),
            ("defender", T::Int),
            ("perevodnoy", T::Bool),
            ("role", T::Str),
        ],
        &[T::Str, T::List],
        false,
        "checks a position (every card in the deck, none twice, defences beat their attack cards, sizes \
         and room possible, the discard pile and known cards consistent; an impossible one is a bad input \
         naming the input); yields it in words, and packed for `durak.endgame` / `durak.sample` (an \
         empty list without hand sizes)",
        check,
    );
}

/// Non-trumps before trumps, then rank, then suit ♠ ♥ ♦ ♣: the order of [`DCard::low_key`].
pub(crate) fn low_order(c: Card, trump: Suit) -> i64 {
    i64::from(c.suit() == trump) * 52 + i64::from(c.rank() - 2) * 4 + i64::from(c.suit().index())
}

fn bad(token: &str, why: impl Into<String>) -> NotationError {
    NotationError::BadValue {
        token: token.to_string(),
        why: why.into(),
    }
}

/// Reads a suit: a letter, a symbol or an English name.
pub(crate) fn read_suit(text: &str) -> Result<Suit, NotationError> {
    // One character, the usual form (the `trump` input, and the trump the rules pass on for every
    // candidate card): read without the lower-cased copy the names need.
    let mut chars = text.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        if let Some(suit) = DSuit::from_char(c).and_then(|d| Suit::from_index(d.index() as u8)) {
            return Ok(suit);
        }
    }
    read_suit_in_full(text)
}

/// A suit as text, every form: a letter in either case, a symbol, an English name, padded.
fn read_suit_in_full(text: &str) -> Result<Suit, NotationError> {
    let t = text.trim();
    let lower = t.to_lowercase();
    let by_name = ["spades", "hearts", "diamonds", "clubs"]
        .iter()
        .position(|n| *n == lower || n.trim_end_matches('s') == lower);
    if let Some(i) = by_name {
        return Suit::from_index(i as u8).ok_or_else(|| bad(t, "unknown suit"));
    }
    match t.parse::<DSuit>() {
        Ok(s) => Suit::from_index(s.index() as u8).ok_or_else(|| bad(t, "unknown suit")),
        Err(_) => Err(bad(
            t,
            "unknown suit (S, H, D, C, ♠ ♥ ♦ ♣ or spades, hearts, diamonds, clubs)",
        )),
    }
}

fn parse_suit_input(text: &str, _: &TypeArgs, _: &str) -> Result<Value, NotationError> {
    Ok(crate::builtins::cards::suit_letter(read_suit(text)?.index() as usize))
}

fn parse_sizes_input(text: &str, _: &TypeArgs, _: &str) -> Result<Value, NotationError> {
    if text.trim().is_empty() {
        return Ok(Value::list([]));
    }
    let sizes = super::value::parse_hand_sizes(text).map_err(|e| match e {
        super::DurakError::BadNumber { token, reason } => bad(&token, reason),
        other => bad(text, other.to_string()),
    })?;
    // One size alone (one player) is refused by `durak.check` when the query runs, so that
    // sessions fed with generated sizes fail as a run, not while they set inputs.
    if sizes.len() > 6 {
        return Err(bad(
            text,
            format!("{} hand sizes: durak is played by 2 to 6", sizes.len()),
        ));
    }
    Ok(Value::list(sizes.into_iter().map(|s| Value::Int(s as i64))))
}

/// Reads `7S/9S 7D`: attack cards in order, a beaten one written `attack/defence`.
pub(crate) fn read_table(text: &str) -> Result<Vec<(Card, Option<Card>)>, NotationError> {
    let mut out: Vec<(Card, Option<Card>)> = Vec::new();
    let mut seen = 0u64;
    let mut note = |c: Card| -> Result<Card, NotationError> {
        if seen >> c.index() & 1 == 1 {
            return Err(NotationError::TooManyCopies {
                card: c.to_string(),
                times: 2,
                allowed: 1,
            });
        }
        seen |= 1 << c.index();
        Ok(c)
    };
    for token in text
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter(|t| !t.is_empty())
    {
        let mut parts = token.split('/');
        let attack = parts.next().unwrap_or_default();
        let defence = parts.next();
        if parts.next().is_some() {
            return Err(bad(token, "one attack card and at most one defence: `7S/9S`"));
        }
        let a = note(parse_card(attack)?)?;
        let d = match defence {
            Some(d) if !d.is_empty() => Some(note(parse_card(d)?)?),
            Some(_) => return Err(bad(token, "nothing after `/`: write the card that beat it, or no `/`")),
            None => None,
        };
        out.push((a, d));
    }
    if out.len() > 6 {
        return Err(bad(text, format!("{} attack cards: a bout holds at most 6", out.len())));
    }
    Ok(out)
}

fn parse_table_input(text: &str, _: &TypeArgs, _: &str) -> Result<Value, NotationError> {
    Ok(table_value(&read_table(text)?))
}

/// The table as rules see it: a list of `[attack]` or `[attack, defence]` lists.
pub(crate) fn table_value(table: &[(Card, Option<Card>)]) -> Value {
    Value::list(table.iter().map(|(a, d)| match d {
        Some(d) => Value::list([Value::Card(*a), Value::Card(*d)]),
        None => Value::list([Value::Card(*a)]),
    }))
}

fn cards_arg<'a>(v: &'a Value, name: &str, pos: usize) -> Result<&'a Cards, BuiltinError> {
    match v {
        Value::Cards(c) => Ok(c),
        other => Err(BuiltinError::bad_argument(name, pos, "cards", other)),
    }
}

fn card_arg(v: &Value, name: &str, pos: usize) -> Result<Card, BuiltinError> {
    match v {
        Value::Card(c) => Ok(*c),
        other => Err(BuiltinError::bad_argument(name, pos, "a card", other)),
    }
}

fn suit_arg(v: &Value, name: &str, pos: usize) -> Result<Suit, BuiltinError> {
    match v {
        Value::Str(s) => read_suit(s).map_err(|e| BuiltinError::failed(name, e.to_string())),
        other => Err(BuiltinError::bad_argument(name, pos, "a suit letter", other)),
    }
}

pub(crate) fn table_pairs(v: &Value, name: &str) -> Result<Vec<(Card, Option<Card>)>, BuiltinError> {
    table_arg(v, name)
}

fn table_arg(v: &Value, name: &str) -> Result<Vec<(Card, Option<Card>)>, BuiltinError> {
    let Value::List(items) = v else {
        return Err(BuiltinError::bad_argument(name, 1, "a table", v));
    };
    let mut out = Vec::with_capacity(items.len());
    for item in items.iter() {
        match item {
            Value::List(pair) => match &pair[..] {
                [Value::Card(a)] => out.push((*a, None)),
                [Value::Card(a), Value::Card(d)] => out.push((*a, Some(*d))),
                _ => return Err(BuiltinError::bad_argument(name, 1, "a table", v)),
            },
            _ => return Err(BuiltinError::bad_argument(name, 1, "a table", v)),
        }
    }
    Ok(out)
}

fn to_dcard(c: Card) -> Option<DCard> {
    let s = DSuit::from_index(c.suit().index() as usize)?;
    DCard::new(c.rank(), s).ok()
}

/// Checks a position once per query: each fact in the words of the input it blames, reported
/// by the run as a bad input (`input `hands`: …`). What one input alone decides is checked where
/// it is read (`durak_sizes`, `durak_table`); this is what several inputs decide together.
fn check(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    const NAME: &str = "durak.check";
    let hand = cards_arg(a[0], NAME, 1)?;
    let table = table_arg(a[1], NAME)?;
    let trump = suit_arg(a[2], NAME, 3)?;
    let int = |i: usize| {
        a[i].as_int()
            .ok_or_else(|| BuiltinError::bad_argument(NAME, i + 1, "an integer", &a[i]))
    };
    let (deck_size, stock, room) = (int(3)?, int(4)?, int(6)?);
    let deck = usize::try_from(deck_size)
        .ok()
        .and_then(|n| Deck::from_size(n).ok())
        .ok_or_else(|| BuiltinError::input("deck", format!("{deck_size}: a durak deck has 24, 32, 36 or 52 cards")))?;
    check_cards(hand, &table, trump, deck)?;
    check_stock_and_room(stock, room, deck)?;
    let Value::List(sizes) = &a[5] else {
        return Err(BuiltinError::bad_argument(NAME, 6, "a list of hand sizes", &a[5]));
    };
    let on_table = table.iter().map(|(_, d)| 1 + i64::from(d.is_some())).sum::<i64>();
    let in_hands = check_sizes(hand, sizes, deck)?;
    let total = stock + in_hands + on_table;
    if total > deck.size() as i64 {
        return Err(BuiltinError::input(
            if sizes.is_empty() { "stock" } else { "hands" },
            format!(
                "{stock} in the stock, {in_hands} in the hands and {on_table} on the table: more than the {}-card deck",
                deck.size()
            ),
        ));
    }
    let world = world_of(a, deck, &table, &sizes[..])?;
    out.push(&[
        Value::str(&format!(
            "{}-card deck, trump {}, {} in the stock",
            deck.size(),
            trump.symbol(),
            stock
        )),
        world,
    ]);
    Ok(())
}

/// The hand's and the table's cards: each in the deck, none twice, each defence beating its
/// attack card.
fn check_cards(hand: &Cards, table: &[(Card, Option<Card>)], trump: Suit, deck: Deck) -> Result<(), BuiltinError> {
    let mut seen = 0u64;
    let all = hand.cards().iter().map(|c| (*c, "hand")).chain(
        table
            .iter()
            .flat_map(|(x, d)| std::iter::once((*x, "table")).chain(d.map(|d| (d, "table")))),
    );
    for (c, place) in all {
        if to_dcard(c).is_none_or(|d| !deck.contains(d)) {
            return Err(BuiltinError::input(
                place,
                format!(
                    "{} ({place}) is not in the {}-card deck (ranks {} to A)",
                    c.pretty(),
                    deck.size(),
                    super::cards::rank_pretty(deck.lowest_rank())
                ),
            ));
        }
        if seen >> c.index() & 1 == 1 {
            return Err(BuiltinError::input(
                "table",
                format!("{} is both in the hand and on the table", c.pretty()),
            ));
        }
        seen |= 1 << c.index();
    }
    for (x, d) in table {
        if let Some(d) = d {
            let beats = if d.suit() == x.suit() {
                d.rank() > x.rank()
            } else {
                d.suit() == trump
            };
            if !beats {
                return Err(BuiltinError::input(
                    "table",
                    format!("{} does not beat {} (trump {})", d.pretty(), x.pretty(), trump.symbol()),
                ));
            }
        }
    }
    Ok(())
}

/// The stock within the deck and the room within a bout.
fn check_stock_and_room(stock: i64, room: i64, deck: Deck) -> Result<(), BuiltinError> {
    if stock < 0 || stock as usize > deck.size() {
        return Err(BuiltinError::input(
            "stock",
            format!("{stock}: the stock holds 0 to {} cards", deck.size()),
        ));
    }
    // A bout takes at most six attack cards. The room is not tied to the table's cards: its
    // default (6) stands for "no limit known" whatever the table holds.
    if !(0..=6).contains(&room) {
        return Err(BuiltinError::input(
            "room",
            format!("{room}: a bout takes 0 to 6 more attack cards"),
        ));
    }
    Ok(())
}

/// The hand sizes: whole numbers, this player's first matching the hand, 2 to 6 players the
/// deck can deal to (or none given); the cards they hold together.
fn check_sizes(hand: &Cards, sizes: &[Value], deck: Deck) -> Result<i64, BuiltinError> {
    let mut in_hands = 0i64;
    for (i, v) in sizes.iter().enumerate() {
        let n = v
            .as_int()
            .filter(|n| *n >= 0)
            .ok_or_else(|| BuiltinError::input("hands", format!("{v}: a hand size is a whole number")))?;
        if i == 0 && n != hand.len() as i64 {
            return Err(BuiltinError::input(
                "hands",
                format!(
                    "this player's size is {n} (the first), but the hand holds {} card(s)",
                    hand.len()
                ),
            ));
        }
        in_hands += n;
    }
    if !sizes.is_empty() {
        let players = sizes.len();
        if !(2..=6).contains(&players) {
            return Err(BuiltinError::input(
                "hands",
                format!("{players} hand size(s): durak is played by 2 to 6"),
            ));
        }
        if players * 6 > deck.size() {
            return Err(BuiltinError::input(
                "hands",
                format!(
                    "{players} players need {} cards for the deal: more than the {}-card deck",
                    players * 6,
                    deck.size()
                ),
            ));
        }
    }
    Ok(in_hands)
}

/// What the player knows, checked and packed for the searches (an empty list without sizes).
fn world_of(a: &[&Value], deck: Deck, table: &[(Card, Option<Card>)], sizes: &[Value]) -> Result<Value, BuiltinError> {
    const NAME: &str = "durak.check";
    if sizes.is_empty() {
        return Ok(Value::list([]));
    }
    let set = |i: usize, input: &str| -> Result<super::cards::CardSet, BuiltinError> {
        let cards = cards_arg(a[i], NAME, i + 1)?;
        let mut s = super::cards::CardSet::EMPTY;
        for c in cards.cards() {
            let d = to_dcard(*c).filter(|d| deck.contains(*d)).ok_or_else(|| {
                BuiltinError::input(input, format!("{} is not in the {}-card deck", c.pretty(), deck.size()))
            })?;
            s.insert(d);
        }
        Ok(s)
    };
    let n = sizes.len();
    let mut known: smallvec::SmallVec<[super::cards::CardSet; 6]> =
        smallvec::smallvec![super::cards::CardSet::EMPTY; n];
    let text = match &a[8] {
        Value::Str(t) => t.to_string(),
        other => return Err(BuiltinError::bad_argument(NAME, 9, "known cards as text", other)),
    };
    for (place, cards) in read_known(&text).map_err(|e| BuiltinError::input("known", e.to_string()))? {
        let slot = usize::try_from(place - 1)
            .ok()
            .filter(|p| (1..n).contains(p))
            .ok_or_else(|| {
                BuiltinError::input(
                    "known",
                    format!("place {place}: opponents are places 2 to {n} of `hands`"),
                )
            })?;
        let group = Value::Cards(Shared::local(Cards::new(cards, 0)));
        known[slot] = known[slot].union(set_of(&group, deck)?);
    }
    let role = match &a[12] {
        Value::Str(s) => s.to_string(),
        _ => String::new(),
    };
    let defending = role == "defend";
    let defender = match a[10].as_int() {
        Some(0) | None => usize::from(!defending),
        Some(p) => usize::try_from(p - 1)
            .ok()
            .filter(|p| *p < n)
            .ok_or_else(|| BuiltinError::input("defender", format!("{p}: a place in `hands`, 1 to {n}")))?,
    };
    let trump =
        super::cards::Suit::from_index(suit_arg(a[2], NAME, 3)?.index() as usize).unwrap_or(super::cards::Suit::Spades);
    let trump_card = set(9, "trump_card")?.iter().next();
    // Checked here as well as by the world: with the stock empty the card is dropped below, and
    // a card that contradicts the trump is a bad position whatever the stock.
    if let Some(c) = trump_card.filter(|c| c.suit() != trump) {
        return Err(BuiltinError::input(
            "trump_card",
            format!("{} is not of the trump suit", c.pretty()),
        ));
    }
    let stock = a[4].as_int().unwrap_or(0).max(0) as usize;
    let world = super::world::World {
        deck,
        trump,
        hand: set(0, "hand")?,
        sizes: sizes.iter().map(|v| v.as_int().unwrap_or(0).max(0) as usize).collect(),
        known,
        out: set(7, "out")?,
        table: {
            let mut t: smallvec::SmallVec<[super::game::TablePair; 6]> = table
                .iter()
                .filter_map(|(x, d)| {
                    Some(super::game::TablePair {
                        attack: to_dcard(*x)?,
                        defence: d.and_then(to_dcard),
                    })
                })
                .collect();
            t.sort_by_key(super::game::table_order);
            t
        },
        stock,
        trump_card: trump_card.filter(|_| stock > 0),
        defending,
        defender,
        room: a[6].as_int().unwrap_or(0).max(0) as usize,
        perevodnoy: matches!(a[11], Value::Bool(true)),
    };
    world
        .check()
        .map_err(|e| super::search_builtins::input_error(e, NAME))?;
    Ok(super::search_builtins::world_value(&world))
}

fn set_of(v: &Value, deck: Deck) -> Result<super::cards::CardSet, BuiltinError> {
    let Value::Cards(cards) = v else {
        return Err(BuiltinError::bad_argument("durak.check", 9, "cards", v));
    };
    let mut s = super::cards::CardSet::EMPTY;
    for c in cards.cards() {
        let d = to_dcard(*c).filter(|d| deck.contains(*d)).ok_or_else(|| {
            BuiltinError::input(
                "known",
                format!("{} is not in the {}-card deck", c.pretty(), deck.size()),
            )
        })?;
        s.insert(d);
    }
    Ok(s)
}

/// Reads `2:7S 7D; 3:AH`: cards known to be in opponents' hands, by place in `hands`.
fn read_known(text: &str) -> Result<Vec<(i64, Vec<Card>)>, NotationError> {
    let mut out = Vec::new();
    for part in text.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        let (place, cards) = part
            .split_once(':')
            .ok_or_else(|| bad(part, "write the place in `hands`, a colon and the cards: `2:7S 7D`"))?;
        let place: i64 = place
            .trim()
            .parse()
            .ok()
            .filter(|p| (2..=6).contains(p))
            .ok_or_else(|| bad(place.trim(), "an opponent's place in `hands`: 2 to 6"))?;
        let mut group = Vec::new();
        for token in cards
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
        {
            let c = parse_card(token)?;
            if group.contains(&c) {
                return Err(NotationError::TooManyCopies {
                    card: c.to_string(),
                    times: 2,
                    allowed: 1,
                });
            }
            group.push(c);
        }
        out.push((place, group));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A suit is read alike with and without the one-character shortcut, and a suit argument
    /// exactly as the suit input: letters in either case, symbols, names, padding and rubbish.
    #[test]
    fn a_suit_argument_reads_as_the_suit_input() {
        for text in [
            "S", "h", "D", "c", "♠", "♡", "♦", "♧", " S", "S ", "spades", "Heart", "x", "", "SS", "7", "ß",
        ] {
            let arg = suit_arg(&Value::str(text), "t", 1).ok();
            let input = read_suit(text).ok();
            let in_full = read_suit_in_full(text).ok();
            assert_eq!(arg, input, "{text:?}");
            assert_eq!(input, in_full, "{text:?}");
        }
    }
}
