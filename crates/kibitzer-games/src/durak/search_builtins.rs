//! The searches as built-ins: `durak.endgame` (the two-player endgame solved exactly) and
//! `durak.sample` (sampled deals, each candidate played out), both reading the position that
//! `durak.check` packs, plus `durak.defence_fails` (no defence of every card on the table).
//!
//! The packed position (a list of integers) carries what the player knows: see [`world_value`].

use super::cards::{Card as DCard, CardSet, Deck, Suit as DSuit};
use super::endgame::{solve, EndgameAnswer, EndgameBudget, Solved};
use super::error::DurakError;
use super::game::{Action, GameState, TablePair};
use super::sampled::{sampled_search, SampleAnswer, SampleBudget};
use super::world::World;
use crate::builtins::{BuiltinError, Registry, Solutions};
use crate::cards::{Card, Cards, Suit};
use crate::value::{Shared, Value, ValueType as T};
use smallvec::SmallVec;
use std::cell::RefCell;
use std::time::Duration;

/// The arguments `durak.sample` and `durak.sample_options` both take: the same deals for both.
const SAMPLE_PARAMS: &[(&str, T)] = &[
    ("position", T::List),
    ("advice", T::Str),
    ("advice_cards", T::Any),
    ("samples", T::Int),
    ("seed", T::Int),
    ("time_ms", T::Int),
    ("margin", T::Num),
];

/// Registers the search built-ins.
pub fn register(r: &mut Registry) {
    r.function(
        "durak.endgame",
        &[("position", T::List), ("max_nodes", T::Int), ("table_mb", T::Int)],
        &[T::Str, T::Str, T::Any, T::Str, T::Cards, T::Str, T::Str, T::Int],
        true,
        "solves a two-player position with the stock empty, the opponent's hand known by counting, no transfers: \
         outcome (win/lose/draw/unknown), the play's action and cards, the play in words, the opponent's \
         hand, the line in words, the verdict on the play in words (\"wins whatever they do, in 5 actions\"), positions searched; no solution when the \
         position is not such an endgame",
        endgame,
    );
    r.function(
        "durak.endgame_options",
        &[
            ("position", T::List),
            ("max_nodes", T::Int),
            ("table_mb", T::Int),
            ("kind", T::Str),
            ("cards", T::Any),
        ],
        &[T::Int, T::Any, T::Str],
        true,
        "every other candidate of a solved endgame (the play made is `kind`, `cards`) with its exact \
         result against the best replies, one solution each: rank (from 2: wins, then draws, then \
         losses), the play (`take`, `pass`, or its cards) and its result in words",
        endgame_options,
    );
    r.function(
        "durak.sample",
        SAMPLE_PARAMS,
        &[T::Str, T::Any, T::Str, T::Int, T::Int],
        true,
        "plays every candidate out on the same sampled deals of the unseen cards: the play chosen \
         (action, cards), the comparison in words, its expected loss in basis points (durak 1, draw ½), \
         deals played; the advised play is kept while within `margin` standard errors of the best; no \
         solution when the position asks nothing or samples is 0",
        sample,
    );
    r.function(
        "durak.sample_options",
        SAMPLE_PARAMS,
        &[T::Int, T::Any, T::Str],
        true,
        "the candidates of `durak.sample` (same arguments, same deals), one solution each: rank (1 = \
         the play chosen, then by loss), the play (`take`, `pass`, or its cards) and its loss rate with \
         the 95% error in words",
        sample_options,
    );
    r.function(
        "durak.defence_fails",
        &[("hand", T::Cards), ("table", T::List), ("trump", T::Str)],
        &[T::Str],
        true,
        "why the hand cannot beat every unbeaten card on the table, each with a card of its own; \
         no solution when it can",
        defence_fails,
    );
}

pub(crate) fn dcard(c: Card) -> Option<DCard> {
    DCard::new(c.rank(), DSuit::from_index(c.suit().index() as usize)?).ok()
}

fn ecard(c: DCard) -> Card {
    super::rules_ai::to_card(c)
}

fn dset(cards: &Cards) -> CardSet {
    let mut s = CardSet::EMPTY;
    for c in cards.cards().iter().filter_map(|c| dcard(*c)) {
        s.insert(c);
    }
    s
}

fn set_value(s: CardSet) -> Value {
    Value::Cards(Shared::local(Cards::new(s.iter().map(ecard), 0)))
}

/// The position packed for the searches: `[deck, trump, hand, out, stock, trump card or −1,
/// defending, defender, room, perevodnoy, players, sizes…, known…, (attack, defence or −1)…]`,
/// card sets as 52-bit masks.
pub(crate) fn world_value(w: &World) -> Value {
    let mut v: Vec<i64> = vec![
        w.deck.size() as i64,
        w.trump.index() as i64,
        w.hand.bits() as i64,
        w.out.bits() as i64,
        w.stock as i64,
        w.trump_card.map_or(-1, |c| i64::from(c.index())),
        i64::from(w.defending),
        w.defender as i64,
        w.room as i64,
        i64::from(w.perevodnoy),
        w.players() as i64,
    ];
    v.extend(w.sizes.iter().map(|s| *s as i64));
    v.extend(w.known.iter().map(|k| k.bits() as i64));
    for p in &w.table {
        v.push(i64::from(p.attack.index()));
        v.push(p.defence.map_or(-1, |d| i64::from(d.index())));
    }
    Value::list(v.into_iter().map(Value::Int))
}

/// Reads a packed position back; `None` for an empty list (no position to search).
pub(crate) fn world_arg(v: &Value, name: &str) -> Result<Option<World>, BuiltinError> {
    let bad = || BuiltinError::bad_argument(name, 1, "a position packed by durak.check", v);
    let Value::List(items) = v else {
        return Err(bad());
    };
    if items.is_empty() {
        return Ok(None);
    }
    let ints: Vec<i64> = items.iter().map(Value::as_int).collect::<Option<_>>().ok_or_else(bad)?;
    let at = |i: usize| ints.get(i).copied().ok_or_else(bad);
    let size = |i: usize| at(i).and_then(|x| usize::try_from(x).map_err(|_| bad()));
    let set = |i: usize| at(i).map(|x| CardSet(x as u64 & ((1u64 << 52) - 1)));
    let card = |x: i64| u32::try_from(x).ok().and_then(DCard::from_index);
    let n = size(10)?;
    if !(2..=6).contains(&n) {
        return Err(bad());
    }
    let mut table = SmallVec::new();
    let mut i = 11 + 2 * n;
    while i < ints.len() {
        let attack = card(at(i)?).ok_or_else(bad)?;
        let defence = match at(i + 1)? {
            -1 => None,
            x => Some(card(x).ok_or_else(bad)?),
        };
        table.push(TablePair { attack, defence });
        i += 2;
    }
    let w = World {
        deck: Deck::from_size(size(0)?).map_err(|_| bad())?,
        trump: DSuit::from_index(size(1)?).ok_or_else(bad)?,
        hand: set(2)?,
        out: set(3)?,
        stock: size(4)?,
        trump_card: card(at(5)?),
        defending: at(6)? != 0,
        defender: size(7)?,
        room: size(8)?,
        perevodnoy: at(9)? != 0,
        sizes: (0..n).map(|k| size(11 + k)).collect::<Result<_, _>>()?,
        known: (0..n).map(|k| set(11 + n + k)).collect::<Result<_, _>>()?,
        table,
    };
    w.check().map_err(|e| input_error(e, name))?;
    Ok(Some(w))
}

/// A contradiction between inputs is the user's bad input; anything else the built-in's failure.
pub(crate) fn input_error(e: DurakError, name: &str) -> BuiltinError {
    match e {
        DurakError::BadInput { input, message } => BuiltinError::input(&input, message),
        other => BuiltinError::failed(name, other.to_string()),
    }
}

fn int_arg(v: &Value, name: &str, pos: usize, lo: i64) -> Result<i64, BuiltinError> {
    v.as_int()
        .filter(|x| *x >= lo)
        .ok_or_else(|| BuiltinError::bad_argument(name, pos, "a non-negative integer", v))
}

/// An action as the rules' play: (action name, cards).
fn play_of(a: Action, state: &GameState) -> (&'static str, Value) {
    let one = |c: DCard| Value::list([Value::Card(ecard(c))]);
    match a {
        Action::Attack(c) if state.table().is_empty() => ("attack", one(c)),
        Action::Attack(c) => ("throw in", one(c)),
        Action::Pass => ("pass", Value::list([])),
        Action::Take => ("take", set_value(state.table_cards())),
        Action::Defend { with, .. } => ("defend", one(with)),
        Action::Transfer(c) => ("transfer", one(c)),
    }
}

/// An action in words, as the player who makes it: "lead 6♦", "beat 7♠ with 9♠", "take".
fn doing(a: Action, state: &GameState) -> String {
    match a {
        Action::Attack(c) if state.table().is_empty() => format!("lead {}", c.pretty()),
        Action::Attack(c) => format!("throw in {}", c.pretty()),
        Action::Pass => "pass".to_string(),
        Action::Take => "take".to_string(),
        Action::Defend { attack, with } => format!("beat {} with {}", attack.pretty(), with.pretty()),
        Action::Transfer(c) => format!("transfer with {}", c.pretty()),
    }
}

/// The line in words: "I lead 6♦, they take; I lead 7♦, …" (a semicolon between bouts; a take
/// the engine plays by itself, when nothing beats the card, is said too).
fn line_words(state: &GameState, line: &[(usize, Action)]) -> String {
    let who = |p: usize| if p == 0 { "I" } else { "they" };
    let mut st = state.clone();
    let mut out = String::new();
    for (i, &(p, a)) in line.iter().enumerate() {
        if i > 0 {
            out.push_str(if st.table().is_empty() { "; " } else { ", " });
        }
        out.push_str(who(p));
        out.push(' ');
        out.push_str(&doing(a, &st));
        let defender = st.defender();
        let mut on_table = st.table_cards();
        if let Action::Attack(c) | Action::Defend { with: c, .. } | Action::Transfer(c) = a {
            on_table.insert(c);
        }
        if super::game::apply(&mut st, p, a).is_err() {
            break;
        }
        let taken = st.table().is_empty() && !on_table.is_empty() && on_table.bits() & !st.hand(defender).bits() == 0;
        if taken && a != Action::Take {
            out.push_str(&format!(", {} take", who(defender)));
        }
    }
    if st.is_over() {
        out.push_str(match st.outcome() {
            Some(super::game::Outcome::Durak(0)) => ": I am the durak",
            Some(super::game::Outcome::Durak(_)) => ": they are the durak",
            _ => ": a draw",
        });
    } else if !line.is_empty() {
        out.push_str(", …");
    }
    out
}

thread_local! {
    /// The last endgame answers (the explanation asks again for what the decision asked).
    static SOLVED: RefCell<Vec<(u64, EndgameAnswer)>> = const { RefCell::new(Vec::new()) };
}

fn endgame(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    const NAME: &str = "durak.endgame";
    let Some(world) = world_arg(a[0], NAME)? else {
        return Ok(());
    };
    let max_nodes = int_arg(a[1], NAME, 2, 0)? as u64;
    let table_mb = int_arg(a[2], NAME, 3, 1)?.min(4096) as usize;
    // With transfers two players can pass the same cards back and forth for ever: not a finite
    // game to solve; the sampled search decides there.
    let Some(opponent) = world.opponent_by_counting().filter(|_| !world.perevodnoy) else {
        return Ok(());
    };
    let state = world
        .state_from(&world.unseen().to_vec())
        .map_err(|e| input_error(e, NAME))?;
    if state.to_act() != Some(0) || world.candidates(&state).is_empty() {
        return Ok(());
    }
    let key = super::sampled::world_hash(&world) ^ max_nodes.rotate_left(17) ^ (table_mb as u64).rotate_left(41);
    let cached = SOLVED.with(|c| c.borrow().iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone()));
    let answer = match cached {
        Some(v) => v,
        None => {
            let budget = EndgameBudget {
                max_nodes,
                table_entries: (table_mb << 20) / 16,
                line_len: 24,
            };
            let v = solve(&state, 0, &budget);
            if v.outcome != Solved::Unknown {
                SOLVED.with(|c| {
                    let mut c = c.borrow_mut();
                    if c.len() >= 4 {
                        c.remove(0);
                    }
                    c.push((key, v.clone()));
                });
            }
            v
        }
    };
    let Some(best) = answer.best else {
        out.push(&[
            Value::fixed("unknown"),
            Value::fixed("none"),
            Value::list([]),
            Value::fixed("no play found"),
            set_value(opponent),
            Value::fixed(""),
            Value::fixed(""),
            Value::Int(answer.nodes as i64),
        ]);
        return Ok(());
    };
    let (kind, cards) = play_of(best, &state);
    let words = doing(best, &state);
    let verb = if state.table().is_empty() { "leading" } else { "playing" };
    out.push(&[
        Value::fixed(answer.outcome.word()),
        Value::fixed(kind),
        cards,
        Value::str(&format!("{verb} {}", words.trim_start_matches("lead "))),
        set_value(opponent),
        Value::str(&line_words(&state, &answer.line)),
        Value::str(&verdict(&answer)),
        Value::Int(answer.nodes as i64),
    ]);
    Ok(())
}

fn endgame_options(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    const NAME: &str = "durak.endgame_options";
    let Some(world) = world_arg(a[0], NAME)? else {
        return Ok(());
    };
    let max_nodes = int_arg(a[1], NAME, 2, 0)? as u64;
    let table_mb = int_arg(a[2], NAME, 3, 1)?.min(4096) as usize;
    if world.opponent_by_counting().is_none() || world.perevodnoy {
        return Ok(());
    }
    let state = world
        .state_from(&world.unseen().to_vec())
        .map_err(|e| input_error(e, NAME))?;
    let played = advice_action(a[3], a[4], &world);
    let candidates = world.candidates(&state);
    let budget = EndgameBudget {
        max_nodes,
        table_entries: (table_mb << 20) / 16,
        line_len: 0,
    };
    let mut results: Vec<(Action, Solved)> = super::endgame::solve_moves(&state, 0, &budget)
        .into_iter()
        .filter(|(m, _)| candidates.contains(m) && Some(*m) != played)
        .collect();
    let order = |s: Solved| match s {
        Solved::Win => 0,
        Solved::Draw => 1,
        Solved::Lose => 2,
        Solved::Unknown => 3,
    };
    results.sort_by_key(|(_, s)| order(*s));
    for (rank, (m, s)) in results.iter().enumerate() {
        let (kind, cards) = play_of(*m, &state);
        let choice = match kind {
            "take" | "pass" => Value::fixed(kind),
            _ => cards,
        };
        let words = match s {
            Solved::Win => "wins whatever they do (exact: the endgame solved)",
            Solved::Draw => "draws at best against their best replies (exact: the endgame solved)",
            Solved::Lose => "loses against their best replies (exact: the endgame solved)",
            Solved::Unknown => "not solved within the node budget (endgame_nodes)",
        };
        out.push(&[
            Value::Int(rank as i64 + 2),
            choice,
            Value::str(&format!("{}: {words}", doing(*m, &state))),
        ]);
    }
    Ok(())
}

/// What the solved play achieves, in words.
fn verdict(answer: &EndgameAnswer) -> String {
    match (answer.outcome, answer.measured) {
        (Solved::Win, true) => format!("wins whatever they do, in {} actions", answer.plies),
        (Solved::Win, false) => "wins whatever they do (the fastest win was not found within the budget)".to_string(),
        (Solved::Draw, _) => "draws".to_string(),
        (Solved::Lose, true) => format!("holds out longest, {} actions", answer.plies),
        (Solved::Lose, false) => {
            "loses like every play (the longest resistance was not found within the budget)".to_string()
        }
        (Solved::Unknown, _) => "is not proven".to_string(),
    }
}

/// The rules' play read back as an action of the position.
fn advice_action(kind: &Value, cards: &Value, world: &World) -> Option<Action> {
    let Value::Str(kind) = kind else {
        return None;
    };
    let first = match cards {
        Value::List(items) => match items.first() {
            Some(Value::Card(c)) => dcard(*c),
            _ => None,
        },
        Value::Cards(c) => c.cards().first().copied().and_then(dcard),
        Value::Card(c) => dcard(*c),
        _ => None,
    };
    Some(match &**kind {
        "attack" | "throw in" => Action::Attack(first?),
        "pass" => Action::Pass,
        "take" => Action::Take,
        "transfer" => Action::Transfer(first?),
        "defend" => Action::Defend {
            attack: super::game::target_of(&world.table, first?, world.trump)?,
            with: first?,
        },
        _ => return None,
    })
}

thread_local! {
    /// The last sampled search (by its arguments): the options of a decision read the very
    /// deals the decision was made on, even under a time cap.
    static SAMPLED: RefCell<Option<(u64, std::rc::Rc<SampleAnswer>)>> = const { RefCell::new(None) };
}

/// A sampled search's answer, the position's state and the hand value's advice.
type Sampled = (std::rc::Rc<SampleAnswer>, GameState, Option<Action>);

/// The sampled search of `durak.sample` and `durak.sample_options`; `None` when the position
/// asks nothing.
fn sampled(a: &[&Value], name: &str) -> Result<Option<Sampled>, BuiltinError> {
    let Some(world) = world_arg(a[0], name)? else {
        return Ok(None);
    };
    let samples = int_arg(a[3], name, 4, 0)?.min(1_000_000) as usize;
    let seed = a[4]
        .as_int()
        .ok_or_else(|| BuiltinError::bad_argument(name, 5, "an integer", &a[4]))?;
    let time_ms = int_arg(a[5], name, 6, 0)? as u64;
    let margin = match &a[6] {
        Value::Int(x) => *x as f64,
        other => other
            .to_string()
            .parse::<f64>()
            .map_err(|_| BuiltinError::bad_argument(name, 7, "a number", other))?,
    };
    let budget = SampleBudget {
        samples,
        seed: seed as u64,
        time: (time_ms > 0).then(|| Duration::from_millis(time_ms)),
        margin: margin.max(0.0),
    };
    let advice = advice_action(a[1], a[2], &world);
    let key = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        a[..7].hash(&mut h);
        h.finish()
    };
    let remembered = SAMPLED.with(|m| m.borrow().as_ref().filter(|(k, _)| *k == key).map(|(_, v)| v.clone()));
    let answer = match remembered {
        Some(answer) => answer,
        None => {
            let Some(answer) = sampled_search(&world, advice, &budget).map_err(|e| input_error(e, name))? else {
                return Ok(None);
            };
            let answer = std::rc::Rc::new(answer);
            SAMPLED.with(|m| *m.borrow_mut() = Some((key, answer.clone())));
            answer
        }
    };
    let state = world
        .state_from(&world.unseen().to_vec())
        .map_err(|e| input_error(e, name))?;
    Ok(Some((answer, state, advice)))
}

fn sample(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    const NAME: &str = "durak.sample";
    let Some((answer, state, advice)) = sampled(a, NAME)? else {
        return Ok(());
    };
    let Some(chosen) = answer.estimates.get(answer.chosen) else {
        return Ok(());
    };
    let (kind, cards) = play_of(chosen.action, &state);
    out.push(&[
        Value::fixed(kind),
        cards,
        Value::str(&sample_words(&answer, &state, advice)),
        Value::Int((chosen.loss() * 10_000.0).round() as i64),
        Value::Int(answer.deals as i64),
    ]);
    Ok(())
}

fn sample_options(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    const NAME: &str = "durak.sample_options";
    let Some((answer, state, advice)) = sampled(a, NAME)? else {
        return Ok(());
    };
    let mut ranked: Vec<usize> = (0..answer.estimates.len()).collect();
    // The play chosen first, then by loss (ties: legal order).
    ranked.sort_by(|&x, &y| {
        (x != answer.chosen)
            .cmp(&(y != answer.chosen))
            .then(answer.estimates[x].loss().total_cmp(&answer.estimates[y].loss()))
            .then(x.cmp(&y))
    });
    for (rank, &i) in ranked.iter().enumerate() {
        let e = &answer.estimates[i];
        let (kind, cards) = play_of(e.action, &state);
        let choice = match kind {
            "take" | "pass" => Value::fixed(kind),
            _ => cards,
        };
        let mut words = format!(
            "{}: loses {} ± {} over {} sampled deals played out lowest card first by every seat (durak {}, draws {}; a draw counts half)",
            doing(e.action, &state),
            pct(e.loss()),
            pct(e.error95()),
            e.deals,
            e.durak,
            e.draws
        );
        if i == answer.best && i != answer.chosen {
            words.push_str("; the least loss, but the hand value's choice is within the margin");
        } else if Some(e.action) == advice && i != answer.chosen {
            words.push_str(&format!(
                "; the hand value's choice, {} standard errors worse",
                fmt_se(&answer, e.action)
            ));
        }
        out.push(&[Value::Int(rank as i64 + 1), choice, Value::str(&words)]);
    }
    Ok(())
}

fn pct(x: f64) -> String {
    format!("{:.0}%", 100.0 * x)
}

/// "take: loses 22% ± 3%, beat 7♠ with A♦: loses 31% ± 3% (400 sampled deals, a draw counts
/// half); take loses least".
fn sample_words(answer: &SampleAnswer, state: &GameState, advice: Option<Action>) -> String {
    let mut ranked: Vec<usize> = (0..answer.estimates.len()).collect();
    ranked.sort_by(|&x, &y| {
        answer.estimates[x]
            .loss()
            .total_cmp(&answer.estimates[y].loss())
            .then(x.cmp(&y))
    });
    let listed: Vec<String> = ranked
        .iter()
        .map(|&i| {
            let e = &answer.estimates[i];
            format!(
                "{}: loses {} ± {}",
                doing(e.action, state),
                pct(e.loss()),
                pct(e.error95())
            )
        })
        .collect();
    let best = &answer.estimates[answer.best];
    let verdict = if answer.chosen == answer.best {
        let beaten = advice.filter(|a| *a != best.action).map(|a| {
            format!(
                " (the hand value's {} is {} standard errors worse)",
                doing(a, state),
                fmt_se(answer, a)
            )
        });
        format!(
            "{} loses least{}",
            doing(best.action, state),
            beaten.unwrap_or_default()
        )
    } else {
        let c = &answer.estimates[answer.chosen];
        format!(
            "the hand value's {} is within {} standard errors of the best, {}: keep it",
            doing(c.action, state),
            fmt_se(answer, c.action),
            doing(best.action, state)
        )
    };
    format!(
        "{} ({} sampled deals, each played out with the lowest card by every seat; a draw counts half); {verdict}",
        listed.join(", "),
        answer.deals
    )
}

/// How many standard errors of the paired difference separate `a` from the best.
fn fmt_se(answer: &SampleAnswer, a: Action) -> String {
    let Some(e) = answer.estimates.iter().find(|e| e.action == a) else {
        return "?".to_string();
    };
    let gap = e.loss() - answer.estimates[answer.best].loss();
    if answer.gap_error <= 0.0 {
        return if gap <= 0.0 {
            "0".to_string()
        } else {
            "many".to_string()
        };
    }
    format!("{:.1}", gap / answer.gap_error)
}

fn defence_fails(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    const NAME: &str = "durak.defence_fails";
    let Value::Cards(hand) = &a[0] else {
        return Err(BuiltinError::bad_argument(NAME, 1, "cards", &a[0]));
    };
    let table = super::plugin::table_pairs(a[1], NAME)?;
    let Value::Str(t) = &a[2] else {
        return Err(BuiltinError::bad_argument(NAME, 3, "a suit letter", &a[2]));
    };
    let trump = super::plugin::read_suit(t)
        .ok()
        .and_then(|s: Suit| DSuit::from_index(s.index() as usize))
        .ok_or_else(|| BuiltinError::bad_argument(NAME, 3, "a suit letter", &a[2]))?;
    let hand = dset(hand);
    let unbeaten: SmallVec<[DCard; 6]> = table
        .iter()
        .filter(|(_, d)| d.is_none())
        .filter_map(|(x, _)| dcard(*x))
        .collect();
    if super::policy::can_beat_all(hand, &unbeaten, trump) {
        return Ok(());
    }
    let why = match unbeaten.iter().find(|x| !x.beaten_by(trump).intersects(hand)) {
        Some(x) => format!("nothing in the hand beats {}", x.pretty()),
        None => format!(
            "the hand cannot beat {} with a card each",
            unbeaten.iter().map(|c| c.pretty()).collect::<Vec<_>>().join(" ")
        ),
    };
    out.push1(Value::str(&why));
    Ok(())
}
