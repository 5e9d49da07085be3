//! General card built-ins (rank, suit, counts by rank and suit, sorted and distinct ranks) and the
//! `card` / `cards` input types. They read the summary a [`Cards`] value carries, so each answers
//! in constant time. Ranks are integers 2..=14 (ace 14); suits are the letters "S" "H" "D" "C".

use super::core::{int, one};
use super::registry::{BuiltinError, InputType, Registry, Solutions, TypeArgs};
use crate::cards::{parse_card, parse_cards, Card, CardSpec, Cards, NotationError, Suit};
use crate::engine::value::{Value, ValueType as T};
use std::sync::Arc;

/// Registers the card built-ins and input types.
pub fn register(r: &mut Registry) {
    let h = ("cards", T::Cards);
    r.function("rank", &[("card", T::Card)], &[T::Int], false, "the rank 2..14 of a card (ace 14)", |a, o| {
        one(o, Value::Int(card(&a[0], "rank")?.rank() as i64))
    });
    r.function("suit", &[("card", T::Card)], &[T::Str], false, "the suit letter of a card: S, H, D or C", |a, o| {
        one(o, Value::str(&card(&a[0], "suit")?.suit().letter().to_string()))
    });
    r.function("card_list", &[h], &[T::List], false, "the visible cards as a list", |a, o| {
        one(o, Value::list(cards(&a[0], "card_list")?.cards().iter().map(|c| Value::Card(*c))))
    });
    r.function("card_count", &[h], &[T::Int], false, "how many cards are visible", |a, o| {
        one(o, Value::Int(cards(&a[0], "card_count")?.len() as i64))
    });
    r.function("hidden_count", &[h], &[T::Int], false, "how many cards are hidden (XX)", |a, o| {
        one(o, Value::Int(cards(&a[0], "hidden_count")?.hidden() as i64))
    });
    r.function("ranks", &[h], &[T::List], false, "the visible ranks, highest first, repeated as held", |a, o| {
        one(o, Value::list(cards(&a[0], "ranks")?.ranks_desc().iter().map(|&r| Value::Int(r as i64))))
    });
    r.function("rank_pattern", &[h], &[T::List], false, "how often each held rank appears, largest first: [3, 2] for a full house", |a, o| {
        one(o, Value::list(cards(&a[0], "rank_pattern")?.rank_pattern().iter().map(|&n| Value::Int(n as i64))))
    });
    r.function("rank_held", &[h, ("times", T::Int)], &[T::Int], true, "each rank held exactly `times` times, highest first (one solution each)", |a, o| {
        let c = cards(&a[0], "rank_held")?;
        let k = int(&a[1], "rank_held", 2)?;
        if let Ok(k) = u8::try_from(k) {
            for r in c.ranks_held(k) {
                o.push1(Value::Int(r as i64));
            }
        }
        Ok(())
    });
    r.function("ranks_held", &[h, ("times", T::Int)], &[T::List], false, "the list of ranks held exactly `times` times, highest first", |a, o| {
        let c = cards(&a[0], "ranks_held")?;
        let k = int(&a[1], "ranks_held", 2)?;
        let ranks: Vec<Value> = match u8::try_from(k) {
            Ok(k) => c.ranks_held(k).map(|r| Value::Int(r as i64)).collect(),
            Err(_) => Vec::new(),
        };
        one(o, Value::list(ranks))
    });
    r.function("count_rank", &[h, ("rank", T::Int)], &[T::Int], false, "how many visible cards have this rank", |a, o| {
        let c = cards(&a[0], "count_rank")?;
        let r = int(&a[1], "count_rank", 2)?;
        one(o, Value::Int(u8::try_from(r).map_or(0, |r| c.count_rank(r)) as i64))
    });
    r.function("count_suit", &[h, ("suit", T::Str)], &[T::Int], false, "how many visible cards have this suit (S, H, D, C)", |a, o| {
        let c = cards(&a[0], "count_suit")?;
        one(o, Value::Int(c.count_suit(suit(&a[1], "count_suit")?) as i64))
    });
    r.function("distinct_ranks", &[h], &[T::Int], false, "how many different ranks are visible", |a, o| {
        one(o, Value::Int(cards(&a[0], "distinct_ranks")?.distinct_ranks() as i64))
    });
    r.function("distinct_suits", &[h], &[T::Int], false, "how many different suits are visible", |a, o| {
        one(o, Value::Int(cards(&a[0], "distinct_suits")?.distinct_suits() as i64))
    });
    r.function("same_suit", &[h], &[T::Bool], false, "true when every visible card has one suit", |a, o| {
        one(o, Value::Bool(cards(&a[0], "same_suit")?.distinct_suits() == 1))
    });
    r.function("consecutive", &[h], &[T::Bool], false, "true when the visible ranks are all different and unbroken (ace high only: A-2-3-4-5 is not)", |a, o| {
        one(o, Value::Bool(cards(&a[0], "consecutive")?.consecutive()))
    });
    r.function("high_rank", &[h], &[T::Int], false, "the highest visible rank (0 if none)", |a, o| {
        one(o, Value::Int(cards(&a[0], "high_rank")?.ranks_desc().first().copied().unwrap_or(0) as i64))
    });
    r.function("suit_of_all", &[h], &[T::Str], true, "the suit all visible cards share (no solution if they differ)", |a, o| {
        let c = cards(&a[0], "suit_of_all")?;
        if c.distinct_suits() == 1 {
            if let Some(first) = c.cards().first() {
                o.push1(Value::str(&first.suit().letter().to_string()));
            }
        }
        Ok(())
    });
    r.function("unseen", &[("a", T::Cards), ("b", T::Cards)], &[T::List], false, "every card of the 52 in neither a nor b, in deck order", |a, o| {
        let mask = cards(&a[0], "unseen")?.mask() | cards(&a[1], "unseen")?.mask();
        one(o, Value::list(Card::deck().filter(|c| mask & (1u64 << c.index()) == 0).map(Value::Card)))
    });
    r.function("fill_hidden", &[h, ("card", T::Card)], &[T::Cards], false, "the cards with one hidden card replaced by `card`", |a, o| {
        let c = cards(&a[0], "fill_hidden")?;
        let k = card(&a[1], "fill_hidden")?;
        if c.hidden() == 0 {
            return Err(BuiltinError::failed("fill_hidden", format!("{c} has no hidden card")));
        }
        one(o, Value::Cards(Arc::new(c.with_hidden_filled(k))))
    });

    r.input_type(InputType {
        name: "card",
        keys: &[],
        max_positional: 0,
        value_type: T::Card,
        parse: |text, _, _| parse_card(text).map(Value::Card),
        doc: "one card: `8S`, `10♦`, `ah`",
    });
    r.input_type(InputType {
        name: "cards",
        keys: &["hidden", "copies"],
        max_positional: 1,
        value_type: T::Cards,
        parse: parse_cards_input,
        doc: "cards(N) or cards(MIN..MAX), options hidden: H (how many `XX`), copies: C (2 for a double deck)",
    });
}

fn parse_cards_input(text: &str, args: &TypeArgs, what: &str) -> Result<Value, NotationError> {
    let (min, max) = args.positional.first().copied().unwrap_or((0, i64::MAX));
    let (hmin, hmax) = args.named("hidden").unwrap_or((0, 0));
    let (_, copies) = args.named("copies").unwrap_or((1, 1));
    let spec = CardSpec {
        min: min.max(0) as usize,
        max: usize::try_from(max).unwrap_or(usize::MAX),
        hidden_min: hmin.max(0) as usize,
        hidden_max: hmax.max(0) as usize,
        copies: copies.max(1) as usize,
    };
    parse_cards(text, &spec, what).map(|c| Value::Cards(Arc::new(c)))
}

fn cards<'a>(v: &'a Value, builtin: &str) -> Result<&'a Cards, BuiltinError> {
    match v {
        Value::Cards(c) => Ok(c),
        other => Err(BuiltinError::BadArgument {
            builtin: builtin.to_string(),
            position: 1,
            expected: "cards",
            got: other.to_string(),
        }),
    }
}

fn card(v: &Value, builtin: &str) -> Result<Card, BuiltinError> {
    match v {
        Value::Card(c) => Ok(*c),
        other => Err(BuiltinError::BadArgument {
            builtin: builtin.to_string(),
            position: 1,
            expected: "a card",
            got: other.to_string(),
        }),
    }
}

fn suit(v: &Value, builtin: &str) -> Result<Suit, BuiltinError> {
    if let Value::Str(s) = v {
        for suit in Suit::ALL {
            if s.eq_ignore_ascii_case(&suit.letter().to_string()) || s.as_ref() == suit.symbol().to_string() {
                return Ok(suit);
            }
        }
    }
    Err(BuiltinError::BadArgument {
        builtin: builtin.to_string(),
        position: 2,
        expected: "a suit letter S, H, D or C",
        got: v.to_string(),
    })
}

/// Used by `Solutions`-style helpers elsewhere; keeps the signature import alive for games.
#[allow(dead_code)]
fn _assert_solutions(_: &mut Solutions) {}
