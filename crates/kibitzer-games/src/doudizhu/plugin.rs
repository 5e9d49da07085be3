//! How doudizhu plugs into the engine and the CLI: the `doudizhu.*` built-ins the rule set
//! (`rules/doudizhu.rules`) calls, the input types `ddz_hand` and `ddz_play`, and the `doudizhu`
//! benchmark.
//!
//! Hands and plays travel through the engine as strings in canonical notation (`3 3 3 4`,
//! `BJ RJ`); the play on the table is the empty string when the side to move leads. The rule
//! variants reach every built-in as two arguments: the list of the five switches
//! `[three_one, three_two, four_two, pair_chains, airplanes]` and the preset name (`standard` or
//! `seed`); a switch can only turn a combination off (the preset `seed` already turns trio+pair,
//! pair chains and airplanes off).

use std::sync::{Arc, Mutex};

use super::budget::{Budget, Outcome, Solution};
use super::hand::{parse_hand, Hand};
use super::movegen::{can_answer, legal_leads, legal_responses, whole_hand_play};
use super::play::{classify, Play};
use super::rules::Rules;
use super::solver::solve;
use super::solver3::{solve3, Seat};
use super::verdicts::{move_verdicts, MoveVerdict};
use crate::builtins::{BuiltinError, InputType, Registry, Solutions, TypeArgs};
use crate::cards::NotationError;
use crate::value::{Value, ValueType as T};

/// Registers doudizhu's built-ins and input types.
pub fn register(r: &mut Registry) {
    register_inputs(r);
    register_search(r);
    register_plays(r);
    register_table(r);
}

/// The argument list `first` followed by the rule variant's two (`switches`, `variant`).
fn with_variant(first: &[(&'static str, T)]) -> Vec<(&'static str, T)> {
    let variant = [("switches", T::List), ("variant", T::Str)];
    first.iter().chain(variant.iter()).copied().collect()
}

/// The input types `ddz_hand` and `ddz_play`.
fn register_inputs(r: &mut Registry) {
    r.input_type(InputType {
        name: "ddz_hand",
        keys: &[],
        max_positional: 1,
        value_type: T::Str,
        parse: parse_hand_input,
        doc: "a dou dizhu hand: ranks 3-9 T J Q K A 2, jokers BJ RJ (suits ignored); ddz_hand(MIN..MAX) cards",
    });
    r.input_type(InputType {
        name: "ddz_play",
        keys: &[],
        max_positional: 0,
        value_type: T::Str,
        parse: parse_play_input,
        doc: "the dou dizhu play on the table (cards forming one play), or empty / `pass` / `-` for none",
    });
}

/// The position and its search: checking a deal, the whole hand as one play, the endgame
/// solver and every move's verdict.
fn register_search(r: &mut Registry) {
    r.function(
        "doudizhu.deal",
        &with_variant(&[("me", T::Str), ("enemy", T::Str), ("last", T::Str)]),
        &[T::Str, T::Int],
        false,
        "checks that both hands and the play on the table come from one deck and the play is legal; \
         yields the rules in words and the number of cards in play",
        deal,
    );
    r.function(
        "doudizhu.one_play",
        &with_variant(&[("hand", T::Str), ("last", T::Str)]),
        &[T::Str],
        false,
        "the type of play the whole hand forms, if it is one play that may be put on the table \
         (leading, or beating `last`); no solution otherwise",
        one_play,
    );
    r.function(
        "doudizhu.solve",
        &[
            ("me", T::Str),
            ("enemy", T::Str),
            ("last", T::Str),
            ("switches", T::List),
            ("variant", T::Str),
            ("max_nodes", T::Int),
            ("table_mb", T::Int),
            ("line_nodes", T::Int),
        ],
        &[T::Str, T::Str, T::Str, T::List, T::Str, T::Int, T::Int, T::Int, T::Bool],
        false,
        "solves the open-hand endgame, me to move (budgets: positions, table MiB, extra positions to measure \
         the line): outcome (win/lose/unknown), the play (cards or `pass`), its \
         type, the principal line (list), the line in words, its number of turns, positions searched for the \
         proof, more positions searched to choose the line, whether the line was measured to the end (false: \
         the extra positions ran out and \"longest\" means the longest found)",
        solve_builtin,
    );
    r.function(
        "doudizhu.move_verdicts",
        &[
            ("me", T::Str),
            ("enemy", T::Str),
            ("last", T::Str),
            ("switches", T::List),
            ("variant", T::Str),
            ("max_nodes", T::Int),
            ("table_mb", T::Int),
            ("chosen", T::Str),
        ],
        &[T::Int, T::Str, T::Str, T::Str, T::Str, T::Str],
        true,
        "every legal move of the side to move, one solution each: rank (1 = `chosen`, then winning \
         moves, unknown ones, losing ones, in move order), the cards (or `pass`), the type, the verdict \
         (win/lose/unknown), the enemy's winning reply to a losing move (cards, `pass`, or empty), and \
         the verdict in words; all the searches share the `max_nodes` budget, past it a move is unknown",
        move_verdicts_builtin,
    );
}

/// Plays and cards: the legal plays of a hand, a play's type, the answers to a play, the bombs
/// held, plays in words.
fn register_plays(r: &mut Registry) {
    r.function(
        "doudizhu.plays",
        &with_variant(&[("hand", T::Str), ("last", T::Str)]),
        &[T::Str, T::Str],
        true,
        "every legal play of the hand (leading when `last` is empty, else beating it), one solution per \
         distinct set of cards: (cards, type); passing is not listed",
        plays,
    );
    r.function(
        "doudizhu.classify",
        &with_variant(&[("cards", T::Str)]),
        &[T::Str],
        false,
        "the type of play the cards form under the rules (`trio with pair`, `airplane`, ...); no solution \
         when they form none",
        classify_builtin,
    );
    r.func(
        "doudizhu.answers",
        &[("hand", T::Str), ("play", T::Str)],
        T::Int,
        "how many distinct plays of the hand beat the play (bombs and the rocket included, passing not)",
        answers,
    );
    r.func(
        "doudizhu.bombs",
        &[("hand", T::Str)],
        T::List,
        "the bombs (four of a rank) and the rocket the hand holds, as a list of plays",
        bombs,
    );
    r.func(
        "doudizhu.join",
        &[("plays", T::List)],
        T::Str,
        "a list of plays in words: `3 3 3 3`, `3 3 3 3 and 4 4 4 4`, `a, b and c`",
        join,
    );
}

/// The three-player game (`rules/doudizhu_table.rules`): a seat's position read from its own
/// hand and the two after it, the three-player solver, and the lowest play.
fn register_table(r: &mut Registry) {
    let position = [
        ("me", T::Str),
        ("next", T::Str),
        ("after", T::Str),
        ("role", T::Str),
        ("last", T::Str),
        ("last_by", T::Str),
    ];
    r.function(
        "doudizhu.table",
        &with_variant(&position),
        &[T::Str, T::Int],
        false,
        "checks a three-player position: my hand, the next seat's and the one after (in turn order), \
         my role (`landlord`, `down` or `up`), the play on the table and who made it (`next`, \
         `after`, or `none`); the hands come from one deck and the play is legal; yields the rules \
         in words and the number of cards left in the three hands",
        table,
    );
    let mut solve_args = with_variant(&position);
    solve_args.extend([("max_nodes", T::Int), ("table_mb", T::Int)]);
    r.function(
        "doudizhu.solve3",
        &solve_args,
        &[T::Str, T::Str, T::Str, T::Int],
        false,
        "solves the three-player open-hand endgame, me to move (landlord against the two farmers): \
         the outcome for my side (win/lose/unknown past `max_nodes` positions), the play (cards or \
         `pass`), its type, and the positions searched",
        solve3_builtin,
    );
    r.function(
        "doudizhu.lowest_play",
        &with_variant(&[("hand", T::Str), ("last", T::Str)]),
        &[T::Str, T::Str],
        false,
        "the lowest legal play (leading when `last` is empty, else beating it): the lowest rank, then \
         the most cards; no bomb or rocket while another play goes, and none at all to answer a play \
         (no solution then); (cards, type)",
        lowest_play,
    );
}

/// A three-player position as the table built-ins read it: the hands by seat (landlord, down,
/// up), who is to move, and the play to answer with its owner.
struct TableArgs {
    hands: [Hand; 3],
    to_move: Seat,
    last: Option<(Seat, Play)>,
    rules: Rules,
}

fn table_args(a: &[&Value], b: &str) -> Result<TableArgs, BuiltinError> {
    let mine = [hand_arg(a[0], b, 1)?, hand_arg(a[1], b, 2)?, hand_arg(a[2], b, 3)?];
    let rules = rules_arg(a[6], a[7], b, 7)?;
    // Seats in turn order from the landlord; `me` is `offset` seats after the landlord.
    let (to_move, offset) = match text(a[3], b, 4)? {
        "landlord" => (Seat::Landlord, 0),
        "down" => (Seat::DownFarmer, 1),
        "up" => (Seat::UpFarmer, 2),
        other => {
            return Err(BuiltinError::input(
                "role",
                format!("`{other}` is not a seat at the table: landlord, down or up"),
            ))
        }
    };
    let seats = [Seat::Landlord, Seat::DownFarmer, Seat::UpFarmer];
    let mut hands = [Hand::EMPTY; 3];
    for (i, h) in mine.into_iter().enumerate() {
        hands[(offset + i) % 3] = h;
    }
    let last = match (last_arg(a[4], &rules, b, 5)?, text(a[5], b, 6)?) {
        (None, _) => None,
        (Some(p), "next") => Some((seats[(offset + 1) % 3], p)),
        (Some(p), "after") => Some((seats[(offset + 2) % 3], p)),
        (Some(_), other) => {
            return Err(BuiltinError::input(
                "last_by",
                format!("`{other}`: the play on the table was made by `next` or `after`"),
            ))
        }
    };
    let mut all = last.map_or(Hand::EMPTY, |(_, p)| p.cards);
    for h in hands {
        all = all
            .checked_union(h)
            .map_err(|e| BuiltinError::input("me", format!("the three hands and the play on the table: {e}")))?;
    }
    if hands.iter().any(|h| h.is_empty()) {
        return Err(BuiltinError::input("me", "a hand is empty: the game is over"));
    }
    Ok(TableArgs {
        hands,
        to_move,
        last,
        rules,
    })
}

fn table(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    let t = table_args(a, "doudizhu.table")?;
    let left: u32 = t.hands.iter().map(|h| h.len()).sum();
    out.push(&[Value::str(&describe_rules(&t.rules)), Value::Int(i64::from(left))]);
    Ok(())
}

fn solve3_builtin(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    const B: &str = "doudizhu.solve3";
    let t = table_args(a, B)?;
    let positive = |i: usize, what: &'static str| {
        a[i].as_int()
            .filter(|n| *n > 0)
            .ok_or_else(|| BuiltinError::bad_argument(B, i + 1, what, &a[i]))
    };
    let max_nodes = positive(8, "a positive integer")?;
    let table_mb = positive(9, "a positive integer (MiB)")?;
    let budget = budget_of(max_nodes, table_mb, 0);
    let last = t.last.as_ref().map(|(by, p)| (*by, p));
    let s = solve3(&t.hands, t.to_move, last, &t.rules, &budget);
    let (cards, kind) = match (&s.best, s.pass) {
        (Some(p), _) => (p.to_string(), p.name()),
        (None, true) => ("pass".to_string(), "pass"),
        (None, false) => (String::new(), ""),
    };
    out.push(&[
        Value::fixed(s.outcome.as_str()),
        Value::str(&cards),
        Value::str(kind),
        Value::Int(i64::try_from(s.nodes).unwrap_or(i64::MAX)),
    ]);
    Ok(())
}

fn lowest_play(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    let (list, lead) = legal_after(a, "doudizhu.lowest_play")?;
    let lowest_rank = |p: &Play| (0..15u8).find(|&r| p.cards.count(r) > 0).unwrap_or(15);
    let key = |p: &&Play| (lowest_rank(p), std::cmp::Reverse(p.card_count()));
    let plain = list.iter().filter(|p| !p.kind.is_bomb_like()).min_by_key(key);
    let chosen = match (plain, lead) {
        (Some(p), _) => Some(p),
        // Leading with nothing but bombs: the lowest of them. Answering: keep them.
        (None, true) => list.iter().min_by_key(key),
        (None, false) => None,
    };
    if let Some(p) = chosen {
        out.push(&[Value::str(&p.to_string()), Value::str(p.name())]);
    }
    Ok(())
}

// ---- input types -----------------------------------------------------------------------------

fn bad(token: &str, why: impl Into<String>) -> NotationError {
    NotationError::BadValue {
        token: token.trim().to_string(),
        why: why.into(),
    }
}

fn parse_hand_input(text: &str, args: &TypeArgs, what: &str) -> Result<Value, NotationError> {
    let hand = parse_hand(text).map_err(|e| bad(text, e.to_string()))?;
    if let Some(&(lo, hi)) = args.positional.first() {
        let n = i64::from(hand.len());
        if n < lo || n > hi {
            return Err(NotationError::WrongCount {
                what: what.to_string(),
                expected: if lo == hi {
                    lo.to_string()
                } else {
                    format!("{lo} to {hi}")
                },
                got: hand.len() as usize,
            });
        }
    }
    Ok(Value::str(&hand.to_string()))
}

fn parse_play_input(text: &str, _: &TypeArgs, _: &str) -> Result<Value, NotationError> {
    let t = text.trim();
    if t.is_empty() || t == "-" || t.eq_ignore_ascii_case("pass") || t.eq_ignore_ascii_case("none") {
        return Ok(Value::str(""));
    }
    let hand = parse_hand(t).map_err(|e| bad(t, e.to_string()))?;
    // The play is already on the table: any combination of the full (standard) move set.
    if classify(hand, &Rules::default()).is_none() {
        return Err(bad(t, "these cards do not form one play"));
    }
    Ok(Value::str(&hand.to_string()))
}

// ---- argument readers -------------------------------------------------------------------------

fn text<'a>(v: &'a Value, builtin: &str, position: usize) -> Result<&'a str, BuiltinError> {
    match v {
        Value::Str(s) => Ok(s),
        other => Err(BuiltinError::bad_argument(builtin, position, "a string", other)),
    }
}

fn hand_arg(v: &Value, builtin: &str, position: usize) -> Result<Hand, BuiltinError> {
    let s = text(v, builtin, position)?;
    parse_hand(s).map_err(|e| BuiltinError::failed(builtin, e.to_string()))
}

/// The rules in force: the preset, with the switches that are off turned off.
fn rules_arg(switches: &Value, variant: &Value, builtin: &str, position: usize) -> Result<Rules, BuiltinError> {
    let base = match text(variant, builtin, position + 1)? {
        "standard" => Rules::standard(),
        // `seed` is the preset's former name, still read.
        "original" | "seed" => Rules::original(),
        other => {
            return Err(BuiltinError::failed(
                builtin,
                format!("variant `{other}`: expected `standard` or `original`"),
            ))
        }
    };
    let flags: Vec<bool> = match switches {
        Value::List(items) if items.len() == 5 => items
            .iter()
            .map(|v| v.as_bool())
            .collect::<Option<Vec<bool>>>()
            .ok_or_else(|| BuiltinError::bad_argument(builtin, position, "five bools", switches))?,
        other => return Err(BuiltinError::bad_argument(builtin, position, "five bools", other)),
    };
    Ok(Rules {
        three_one: base.three_one && flags[0],
        three_two: base.three_two && flags[1],
        four_two: base.four_two && flags[2],
        pair_chains: base.pair_chains && flags[3],
        airplanes: base.airplanes && flags[4],
    })
}

/// The play on the table (`None` when empty): classified under the rules in force, or under
/// the standard rules when the variant does not know it (it is on the table already).
fn last_arg(v: &Value, rules: &Rules, builtin: &str, position: usize) -> Result<Option<Play>, BuiltinError> {
    let cards = hand_arg(v, builtin, position)?;
    if cards.is_empty() {
        return Ok(None);
    }
    classify(cards, rules)
        .or_else(|| classify(cards, &Rules::default()))
        .map(Some)
        .ok_or_else(|| BuiltinError::failed(builtin, format!("`{cards}` is not one play")))
}

/// The rules in words, for explanations.
pub fn describe_rules(r: &Rules) -> String {
    if *r == Rules::standard() {
        return "standard rules".into();
    }
    if *r == Rules::original() {
        return "the original rules (no trio with pair, no pair chains, no airplanes)".into();
    }
    let off: Vec<&str> = [
        (r.three_one, "trio with single"),
        (r.three_two, "trio with pair"),
        (r.four_two, "four with two"),
        (r.pair_chains, "pair chains"),
        (r.airplanes, "airplanes"),
    ]
    .iter()
    .filter(|(on, _)| !on)
    .map(|(_, name)| *name)
    .collect();
    format!("rules without {}", join_and(&off))
}

fn join_and(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

// ---- built-ins --------------------------------------------------------------------------------

fn deal(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    const B: &str = "doudizhu.deal";
    let me = hand_arg(a[0], B, 1)?;
    let enemy = hand_arg(a[1], B, 2)?;
    let rules = rules_arg(a[3], a[4], B, 4)?;
    let last = last_arg(a[2], &rules, B, 3)?;
    if me.is_empty() || enemy.is_empty() {
        return Err(BuiltinError::failed(B, "both sides need at least one card"));
    }
    let table = last.map_or(Hand::EMPTY, |p| p.cards);
    let all = me
        .checked_union(enemy)
        .and_then(|h| h.checked_union(table))
        .map_err(|e| BuiltinError::failed(B, format!("my hand, the enemy's and the play on the table: {e}")))?;
    out.push(&[Value::str(&describe_rules(&rules)), Value::Int(i64::from(all.len()))]);
    Ok(())
}

fn one_play(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    const B: &str = "doudizhu.one_play";
    let hand = hand_arg(a[0], B, 1)?;
    let rules = rules_arg(a[2], a[3], B, 3)?;
    let last = last_arg(a[1], &rules, B, 2)?;
    if hand.is_empty() {
        return Ok(());
    }
    let play = match last {
        None => whole_hand_play(hand, &rules),
        // Answering: the whole hand as a play of the table's type, a bomb or the rocket.
        Some(l) => legal_responses(hand, &l, &rules).into_iter().find(|p| p.cards == hand),
    };
    if let Some(p) = play {
        out.push(&[Value::str(p.name())]);
    }
    Ok(())
}

/// The legal plays of hand `a[0]` after play `a[1]` under the rules `a[2]`, `a[3]`, and whether
/// they lead (no play to answer): the arguments `doudizhu.plays` and `doudizhu.lowest_play` share.
fn legal_after(a: &[&Value], b: &str) -> Result<(Vec<Play>, bool), BuiltinError> {
    let hand = hand_arg(a[0], b, 1)?;
    let rules = rules_arg(a[2], a[3], b, 3)?;
    Ok(match last_arg(a[1], &rules, b, 2)? {
        None => (legal_leads(hand, &rules), true),
        Some(l) => (legal_responses(hand, &l, &rules), false),
    })
}

fn plays(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    let (list, _) = legal_after(a, "doudizhu.plays")?;
    for p in list {
        out.push(&[Value::str(&p.to_string()), Value::str(p.name())]);
    }
    Ok(())
}

/// The position and search budget both searching built-ins take first: my hand, the enemy's, the
/// play to answer, the two rule switches, the node budget and the table's size in MiB.
struct SearchArgs {
    me: Hand,
    enemy: Hand,
    last: Option<Play>,
    rules: Rules,
    max_nodes: i64,
    table_mb: i64,
}

fn search_args(a: &[&Value], b: &str) -> Result<SearchArgs, BuiltinError> {
    let me = hand_arg(a[0], b, 1)?;
    let enemy = hand_arg(a[1], b, 2)?;
    let rules = rules_arg(a[3], a[4], b, 4)?;
    let last = last_arg(a[2], &rules, b, 3)?;
    let max_nodes = a[5]
        .as_int()
        .filter(|n| *n > 0)
        .ok_or_else(|| BuiltinError::bad_argument(b, 6, "a positive integer", &a[5]))?;
    let table_mb = a[6]
        .as_int()
        .filter(|n| *n > 0)
        .ok_or_else(|| BuiltinError::bad_argument(b, 7, "a positive integer (MiB)", &a[6]))?;
    Ok(SearchArgs {
        me,
        enemy,
        last,
        rules,
        max_nodes,
        table_mb,
    })
}

/// A search budget from the built-ins' arguments (already checked positive, or non-negative).
fn budget_of(max_nodes: i64, table_mb: i64, line_nodes: u64) -> Budget {
    Budget {
        max_nodes: max_nodes as u64,
        max_table_bytes: usize::try_from(table_mb).unwrap_or(usize::MAX).saturating_mul(1 << 20),
        time_limit: None,
        line_nodes,
    }
}

fn move_verdicts_builtin(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    const B: &str = "doudizhu.move_verdicts";
    let SearchArgs {
        me,
        enemy,
        last,
        rules,
        max_nodes,
        table_mb,
    } = search_args(a, B)?;
    let chosen = text(a[7], B, 8)?;
    let budget = budget_of(max_nodes, table_mb, Budget::default().line_nodes);
    let verdicts = move_verdicts(me, enemy, last.as_ref(), &rules, &budget);
    let name = |p: &Option<Play>| p.map_or_else(|| "pass".to_string(), |p| p.to_string());
    let class = |v: &MoveVerdict| match v.outcome {
        _ if name(&v.play) == chosen => 0,
        Outcome::Win => 1,
        Outcome::Unknown => 2,
        Outcome::Lose => 3,
    };
    let mut order: Vec<usize> = (0..verdicts.len()).collect();
    order.sort_by_key(|&i| (class(&verdicts[i]), i));
    for (rank, &i) in order.iter().enumerate() {
        let v = &verdicts[i];
        let kind = v.play.map_or("pass", |p| p.name());
        let reply = v.refutation.map(|r| name(&r)).unwrap_or_default();
        let words = match (v.outcome, v.refutation) {
            _ if v.goes_out => "win: it empties my hand".to_string(),
            (Outcome::Win, _) => "win: the enemy cannot stop it".to_string(),
            (Outcome::Lose, Some(None)) => "lose: the enemy passes and still wins".to_string(),
            (Outcome::Lose, Some(Some(q))) if v.play.is_none() => {
                format!("lose: the enemy leads {q} ({}) and wins", q.name())
            }
            (Outcome::Lose, Some(Some(q))) => format!("lose: the enemy answers {q} ({}) and wins", q.name()),
            (Outcome::Lose, None) => "lose: the enemy wins".to_string(),
            (Outcome::Unknown, _) => {
                "unknown: the search budget ran out (raise the parameter option_nodes)".to_string()
            }
        };
        out.push(&[
            Value::Int(rank as i64 + 1),
            Value::str(&name(&v.play)),
            Value::fixed(kind),
            Value::fixed(v.outcome.as_str()),
            Value::str(&reply),
            Value::str(&words),
        ]);
    }
    Ok(())
}

fn classify_builtin(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    const B: &str = "doudizhu.classify";
    let cards = hand_arg(a[0], B, 1)?;
    let rules = rules_arg(a[1], a[2], B, 2)?;
    if let Some(p) = classify(cards, &rules) {
        out.push(&[Value::str(p.name())]);
    }
    Ok(())
}

fn answers(a: &[&Value]) -> Result<Value, BuiltinError> {
    const B: &str = "doudizhu.answers";
    let hand = hand_arg(a[0], B, 1)?;
    let Some(play) = last_arg(a[1], &Rules::default(), B, 2)? else {
        return Ok(Value::Int(0));
    };
    if !can_answer(hand, &play) {
        return Ok(Value::Int(0));
    }
    Ok(Value::Int(legal_responses(hand, &play, &Rules::default()).len() as i64))
}

fn bombs(a: &[&Value]) -> Result<Value, BuiltinError> {
    const B: &str = "doudizhu.bombs";
    let hand = hand_arg(a[0], B, 1)?;
    let list = legal_leads(hand, &Rules::default())
        .into_iter()
        .filter(|p| p.kind.is_bomb_like())
        .map(|p| Value::str(&p.to_string()));
    Ok(Value::list(list))
}

fn join(a: &[&Value]) -> Result<Value, BuiltinError> {
    const B: &str = "doudizhu.join";
    let items: Vec<&str> = match &a[0] {
        Value::List(items) => items
            .iter()
            .map(|v| match v {
                Value::Str(s) => Ok(&**s),
                other => Err(BuiltinError::bad_argument(B, 1, "a list of strings", other)),
            })
            .collect::<Result<_, _>>()?,
        other => return Err(BuiltinError::bad_argument(B, 1, "a list of strings", other)),
    };
    Ok(Value::str(&match items.as_slice() {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }))
}

/// One solve's answer as the built-in yields it.
#[derive(Clone)]
struct Answer {
    outcome: &'static str,
    cards: String,
    kind: String,
    line: Vec<String>,
    words: String,
    turns: i64,
    nodes: i64,
    line_nodes: i64,
    measured: bool,
}

type CacheKey = (u64, u64, u64, Rules, i64, i64, i64);

/// Recent solves: the engine may call a built-in again for the same arguments (matching, then
/// explaining), and a solve can take a while. Bounded: cleared when full.
static CACHE: Mutex<Vec<(CacheKey, Arc<Answer>)>> = Mutex::new(Vec::new());
const CACHE_ENTRIES: usize = 32;

fn solve_builtin(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    const B: &str = "doudizhu.solve";
    let SearchArgs {
        me,
        enemy,
        last,
        rules,
        max_nodes,
        table_mb,
    } = search_args(a, B)?;
    let line_nodes = a[7]
        .as_int()
        .filter(|n| *n >= 0)
        .ok_or_else(|| BuiltinError::bad_argument(B, 8, "a non-negative integer", &a[7]))?;
    let key: CacheKey = (
        me.bits(),
        enemy.bits(),
        last.map_or(0, |p| p.cards.bits()),
        rules,
        max_nodes,
        table_mb,
        line_nodes,
    );
    let cached = CACHE
        .lock()
        .ok()
        .and_then(|c| c.iter().find(|(k, _)| *k == key).map(|(_, v)| Arc::clone(v)));
    let answer = match cached {
        Some(v) => v,
        None => {
            let budget = budget_of(max_nodes, table_mb, line_nodes as u64);
            let s = solve(me, enemy, last.as_ref(), &rules, &budget);
            // An answer cut short by the run's deadline serves this query only.
            let cut = s.outcome == Outcome::Unknown && crate::budget::expired();
            let mut answer = answer_of(&s, me, enemy);
            if s.outcome == Outcome::Unknown {
                // The limit that stopped it, named: the run's deadline, or the node budget.
                answer.words = match cut {
                    true => format!(
                        "the search stopped at the run's deadline (`timeout`) after {} positions (max_nodes {max_nodes} not reached), \
                         before proving a win or a loss: a longer --timeout may decide it",
                        s.nodes
                    ),
                    false => format!(
                        "the search stopped at its node budget, max_nodes {max_nodes} positions, before proving a \
                         win or a loss: raise max_nodes (--param max_nodes=...)"
                    ),
                };
            }
            let v = Arc::new(answer);
            if let Ok(mut c) = CACHE
                .lock()
                .map_err(|_| ())
                .and_then(|c| if cut { Err(()) } else { Ok(c) })
            {
                if c.len() >= CACHE_ENTRIES {
                    c.clear();
                }
                c.push((key, Arc::clone(&v)));
            }
            v
        }
    };
    out.push(&[
        Value::str(answer.outcome),
        Value::str(&answer.cards),
        Value::str(&answer.kind),
        Value::list(answer.line.iter().map(|s| Value::str(s))),
        Value::str(&answer.words),
        Value::Int(answer.turns),
        Value::Int(answer.nodes),
        Value::Int(answer.line_nodes),
        Value::Bool(answer.measured),
    ]);
    Ok(())
}

fn answer_of(s: &Solution, me: Hand, enemy: Hand) -> Answer {
    let (cards, kind) = match (&s.best, s.pass) {
        (Some(p), _) => (p.to_string(), p.name().to_string()),
        (None, true) => ("pass".to_string(), "pass".to_string()),
        (None, false) => (String::new(), String::new()),
    };
    let (line, words) = narrate(&s.line, me, enemy);
    Answer {
        outcome: s.outcome.as_str(),
        cards,
        kind,
        line,
        words,
        turns: s.line.len() as i64,
        nodes: i64::try_from(s.proof_nodes).unwrap_or(i64::MAX),
        line_nodes: i64::try_from(s.nodes - s.proof_nodes).unwrap_or(i64::MAX),
        measured: s.line_measured,
    }
}

/// The principal line as a list (`me: 3 3 3 4`, `enemy: pass`) and in words.
fn narrate(line: &[Option<Play>], me: Hand, enemy: Hand) -> (Vec<String>, String) {
    let mut hands = [me, enemy];
    let mut list = Vec::with_capacity(line.len());
    let mut words = Vec::with_capacity(line.len());
    for (i, turn) in line.iter().enumerate() {
        let side = i % 2;
        let (who, verb_play, verb_pass) = if side == 0 {
            ("me", "I play", "I pass")
        } else {
            ("enemy", "the enemy plays", "the enemy passes")
        };
        match turn {
            None => {
                list.push(format!("{who}: pass"));
                words.push(verb_pass.to_string());
            }
            Some(p) => {
                list.push(format!("{who}: {p}"));
                hands[side] = if hands[side].contains(p.cards) {
                    hands[side].minus(p.cards)
                } else {
                    hands[side]
                };
                let out = if hands[side].is_empty() {
                    if side == 0 {
                        " and go out"
                    } else {
                        " and goes out"
                    }
                } else {
                    ""
                };
                words.push(format!("{verb_play} {p} ({}){out}", p.name()));
            }
        }
    }
    let text = if words.is_empty() {
        "no line (not decided)".to_string()
    } else {
        words.join(", ")
    };
    (list, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn switches(on: bool) -> Value {
        Value::list((0..5).map(|_| Value::Bool(on)))
    }

    #[test]
    fn rules_are_the_preset_and_the_switches() {
        let r = rules_arg(&switches(true), &Value::str("seed"), "t", 1).unwrap();
        assert_eq!(r, Rules::original());
        let r = rules_arg(&switches(false), &Value::str("standard"), "t", 1).unwrap();
        assert!(!r.three_one && !r.airplanes);
        assert_eq!(
            describe_rules(&r),
            "rules without trio with single, trio with pair, four with two, pair chains or airplanes"
        );
        assert!(rules_arg(&switches(true), &Value::str("house"), "t", 1).is_err());
    }

    #[test]
    fn the_line_is_told_in_words() {
        let r = Rules::default();
        let me = parse_hand("3 4").unwrap();
        let enemy = parse_hand("5").unwrap();
        let last = classify(parse_hand("2").unwrap(), &r);
        let s = solve(me, enemy, last.as_ref(), &r, &Budget::default());
        let a = answer_of(&s, me, enemy);
        assert_eq!(a.outcome, "lose");
        assert_eq!(a.cards, "pass");
        assert_eq!(a.line, ["me: pass", "enemy: 5"]);
        assert_eq!(a.words, "I pass, the enemy plays 5 (single) and goes out");
    }
}
