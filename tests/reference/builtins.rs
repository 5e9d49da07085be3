//! The general built-ins (docs/language.md, "Built-ins"), written again here from their
//! documentation with the reference's own equality and order, so that a fault in the library's
//! versions shows as a difference. Error texts follow the library's wording (`name: why`), since
//! a run's error is compared word for word.

use super::{ordered, same};
use kibitzer::{Card, Cards, Suit, Value};
use std::cmp::Ordering;

/// Elements a built-in may make (`concat`, `range`): docs/semantics.md, "Stopping and limits".
const MAX_LIST: usize = 1 << 20;
/// The most bytes `str` and `format` make (docs/language.md).
const MAX_TEXT: usize = 1 << 20;

/// A general built-in's shape: how many parameters, one solution per match (`range`), and a last
/// parameter that repeats (`format`).
pub struct Shape {
    pub params: usize,
    pub multi: bool,
    pub variadic: bool,
}

/// The shape of the general built-in `name`, or `None` for a name the reference does not compute
/// (a game's built-in, or a relation).
pub fn shape(name: &str) -> Option<Shape> {
    let (params, multi, variadic) = match name {
        "len" | "sum_of" | "max_of" | "min_of" | "sort_desc" | "sort_asc" | "abs" | "trunc" | "floor" | "round"
        | "str" | "decimal" | "rank" | "suit" | "card_list" | "card_count" | "hidden_count" | "high_rank" => {
            (1, false, false)
        }
        "lex_compare" | "concat" | "remove" | "atan2" | "lesser" | "greater" | "count_suit" | "count_rank" => {
            (2, false, false)
        }
        "range" => (2, true, false),
        "format" => (2, false, true),
        _ => return None,
    };
    Some(Shape {
        params,
        multi,
        variadic,
    })
}

fn fail<T>(name: &str, why: impl std::fmt::Display) -> Result<T, String> {
    Err(format!("{name}: {why}"))
}

fn bad<T>(name: &str, position: usize, expected: &str, got: &Value) -> Result<T, String> {
    fail(name, format!("argument {position} should be {expected}, got {got}"))
}

/// A list's elements; a card group is the list of its visible cards.
fn items(v: &Value, name: &str, position: usize) -> Result<Vec<Value>, String> {
    match v {
        Value::List(xs) => Ok(xs.to_vec()),
        Value::Cards(c) => Ok(c.cards().iter().map(|c| Value::Card(*c)).collect()),
        _ => bad(name, position, "a list", v),
    }
}

fn number(v: &Value, name: &str, position: usize) -> Result<f64, String> {
    match v {
        Value::Int(i) => Ok(*i as f64),
        Value::Num(n) => Ok(*n),
        _ => bad(name, position, "a number", v),
    }
}

fn integer(v: &Value, name: &str, position: usize) -> Result<i64, String> {
    match v {
        Value::Int(i) => Ok(*i),
        _ => bad(name, position, "an integer", v),
    }
}

fn hand<'a>(v: &'a Value, name: &str) -> Result<&'a Cards, String> {
    match v {
        Value::Cards(c) => Ok(c),
        _ => bad(name, 1, "cards", v),
    }
}

fn card(v: &Value, name: &str) -> Result<Card, String> {
    match v {
        Value::Card(c) => Ok(*c),
        _ => bad(name, 1, "a card", v),
    }
}

/// A decimal made whole: a whole number is its own answer, exactly.
fn whole(v: &Value, name: &str, f: fn(f64) -> f64) -> Result<Value, String> {
    if let Value::Int(i) = v {
        return Ok(Value::Int(*i));
    }
    let x = f(number(v, name, 1)?);
    if x.is_finite() && x.abs() < 9.0e18 {
        Ok(Value::Int(x as i64))
    } else {
        fail(name, format!("{x} does not fit an integer"))
    }
}

/// The first of `xs` that no other beats in direction `want` (ties keep the earlier).
fn extreme(v: &Value, name: &str, want: Ordering) -> Result<Value, String> {
    let xs = items(v, name, 1)?;
    let Some(mut best) = xs.first().cloned() else {
        return fail(name, "the list is empty");
    };
    for x in &xs[1..] {
        if ordered(x, &best) == Some(want) {
            best = x.clone();
        }
    }
    Ok(best)
}

/// One call: its solutions, one row of `outputs` values each.
pub fn call(name: &str, a: &[Value]) -> Result<Vec<Vec<Value>>, String> {
    let one = |v: Value| Ok(vec![vec![v]]);
    match name {
        "len" => match &a[0] {
            Value::Str(s) => one(Value::Int(s.chars().count() as i64)),
            v => one(Value::Int(items(v, name, 1)?.len() as i64)),
        },
        "sum_of" => {
            // Integers add exactly; past the integer range, and with any decimal, as decimals.
            let mut acc = Value::Int(0);
            for (i, x) in items(&a[0], name, 1)?.iter().enumerate() {
                acc = match (&acc, x) {
                    (Value::Int(p), Value::Int(q)) => match p.checked_add(*q) {
                        Some(s) => Value::Int(s),
                        None => Value::Num(*p as f64 + *q as f64),
                    },
                    (p, q) => Value::Num(number(p, name, i + 1)? + number(q, name, i + 1)?),
                };
            }
            one(acc)
        }
        "max_of" => one(extreme(&a[0], name, Ordering::Greater)?),
        "min_of" => one(extreme(&a[0], name, Ordering::Less)?),
        "sort_asc" | "sort_desc" => {
            let mut xs = items(&a[0], name, 1)?;
            // Stable: equal elements (and those of kinds that do not compare) keep their order.
            if name == "sort_asc" {
                xs.sort_by(|x, y| ordered(x, y).unwrap_or(Ordering::Equal));
            } else {
                xs.sort_by(|x, y| ordered(y, x).unwrap_or(Ordering::Equal));
            }
            one(Value::list(xs))
        }
        "lex_compare" => {
            let x = Value::list(items(&a[0], name, 1)?);
            let y = Value::list(items(&a[1], name, 2)?);
            one(Value::Int(match ordered(&x, &y) {
                Some(Ordering::Less) => -1,
                Some(Ordering::Greater) => 1,
                _ => 0,
            }))
        }
        "concat" => {
            let mut x = items(&a[0], name, 1)?;
            let y = items(&a[1], name, 2)?;
            if x.len() + y.len() > MAX_LIST {
                return fail(name, format!("the list would hold more than {MAX_LIST} elements"));
            }
            x.extend(y);
            one(Value::list(x))
        }
        "remove" => {
            let mut x = items(&a[0], name, 1)?;
            if let Some(i) = x.iter().position(|v| same(v, &a[1])) {
                x.remove(i);
            }
            one(Value::list(x))
        }
        "range" => {
            let (from, to) = (integer(&a[0], name, 1)?, integer(&a[1], name, 2)?);
            if to.saturating_sub(from) > 1_000_000 {
                return fail(name, "more than a million values");
            }
            Ok((from..=to).map(|i| vec![Value::Int(i)]).collect())
        }
        "abs" => match &a[0] {
            Value::Int(i) => match i.checked_abs() {
                Some(v) => one(Value::Int(v)),
                None => fail(name, "overflow"),
            },
            v => one(Value::Num(number(v, name, 1)?.abs())),
        },
        "trunc" => one(whole(&a[0], name, f64::trunc)?),
        "floor" => one(whole(&a[0], name, f64::floor)?),
        "round" => one(whole(&a[0], name, f64::round)?),
        "atan2" => one(Value::Num(number(&a[0], name, 1)?.atan2(number(&a[1], name, 2)?))),
        "decimal" => one(Value::Num(number(&a[0], name, 1)?)),
        "lesser" => one(if ordered(&a[1], &a[0]) == Some(Ordering::Less) {
            a[1].clone()
        } else {
            a[0].clone()
        }),
        "greater" => one(if ordered(&a[1], &a[0]) == Some(Ordering::Greater) {
            a[1].clone()
        } else {
            a[0].clone()
        }),
        "str" => match shown(&a[0], &Hole::Plain) {
            s if s.len() > MAX_TEXT => fail(name, format!("the text would be longer than {MAX_TEXT} bytes")),
            s => one(Value::str(&s)),
        },
        "format" => {
            let Value::Str(t) = &a[0] else {
                return fail(name, "the template must be a string");
            };
            match fill(t, &a[1..]) {
                Ok(s) if s.len() > MAX_TEXT => fail(name, format!("the text would be longer than {MAX_TEXT} bytes")),
                Ok(s) => one(Value::str(&s)),
                Err(why) => fail(name, why),
            }
        }
        "rank" => one(Value::Int(i64::from(card(&a[0], name)?.rank()))),
        "suit" => one(Value::str(&card(&a[0], name)?.suit().letter().to_string())),
        "card_list" => one(Value::list(hand(&a[0], name)?.cards().iter().map(|c| Value::Card(*c)))),
        "card_count" => one(Value::Int(hand(&a[0], name)?.cards().len() as i64)),
        "hidden_count" => one(Value::Int(i64::from(hand(&a[0], name)?.hidden()))),
        "high_rank" => one(Value::Int(
            hand(&a[0], name)?
                .cards()
                .iter()
                .map(|c| i64::from(c.rank()))
                .max()
                .unwrap_or(0),
        )),
        "count_rank" => {
            let r = integer(&a[1], name, 2)?;
            let n = hand(&a[0], name)?
                .cards()
                .iter()
                .filter(|c| i64::from(c.rank()) == r)
                .count();
            one(Value::Int(n as i64))
        }
        "count_suit" => {
            let Value::Str(s) = &a[1] else {
                return bad(name, 2, "a suit letter", &a[1]);
            };
            let s: &str = s.as_ref();
            let n = hand(&a[0], name)?
                .cards()
                .iter()
                .filter(|c| c.suit().letter().to_string() == s)
                .count();
            one(Value::Int(n as i64))
        }
        _ => unreachable!("`shape` names every built-in computed here"),
    }
}

/// How a hole shows its value (docs/language.md, "`because` templates").
enum Hole {
    Plain,
    Rank,
    Ranks,
    Places(usize),
    Signed,
    Operand,
    /// The value's text as it is: no suit symbols for card words in text.
    Raw,
}

const LABELS: [&str; 13] = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const PLURALS: [&str; 13] = [
    "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks", "queens", "kings",
    "aces",
];

/// A decimal with at most four places, at least one (`1.0`, `0.2791`).
fn decimal(n: f64) -> String {
    if !n.is_finite() {
        return n.to_string();
    }
    let s = format!("{n:.4}");
    let t = s.trim_end_matches('0');
    if t.ends_with('.') {
        format!("{t}0")
    } else {
        t.to_string()
    }
}

fn card_pretty(c: Card) -> String {
    let suit = match c.suit() {
        Suit::Spades => '♠',
        Suit::Hearts => '♥',
        Suit::Diamonds => '♦',
        Suit::Clubs => '♣',
    };
    format!("{}{suit}", LABELS[usize::from(c.rank()) - 2])
}

/// A word of text that is cards in letter notation (`KS`, `TD`), with suit symbols.
fn card_word(w: &str) -> Option<String> {
    let mut out = Vec::new();
    for token in w.split_whitespace() {
        let mut chars = token.chars();
        let suit = match chars.next_back()? {
            'S' => '♠',
            'H' => '♥',
            'D' => '♦',
            'C' => '♣',
            _ => return None,
        };
        let rank = match chars.as_str() {
            "T" => "10",
            r if LABELS.contains(&r) => r,
            _ => return None,
        };
        out.push(format!("{rank}{suit}"));
    }
    (!out.is_empty()).then(|| out.join(" "))
}

/// Text as a hole shows it: each word that is a card (brackets and punctuation around it kept)
/// gets its suit symbol.
fn text(s: &str) -> String {
    s.split(' ')
        .map(|w| {
            let core = w
                .trim_start_matches(['[', '('])
                .trim_end_matches([']', ')', ',', ':', ';', '.']);
            match card_word(core) {
                Some(c) => w.replacen(core, &c, 1),
                None => w.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The people form of a value: strings unquoted, cards with symbols, decimals to four places.
fn pretty(v: &Value) -> String {
    match v {
        Value::Str(s) => s.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Num(n) => decimal(*n),
        Value::Bool(b) => b.to_string(),
        Value::Card(c) => card_pretty(*c),
        Value::Cards(h) if h.hidden() == 0 && h.cards().is_empty() => "no cards".to_string(),
        Value::Cards(h) => {
            let mut parts: Vec<String> = (0..h.hidden()).map(|_| "XX".to_string()).collect();
            parts.extend(h.cards().iter().map(|c| card_pretty(*c)));
            parts.join(" ")
        }
        Value::List(xs) => format!("[{}]", xs.iter().map(pretty).collect::<Vec<_>>().join(", ")),
    }
}

fn shown(v: &Value, hole: &Hole) -> String {
    let rank = |r: i64, names: &[&str; 13]| match r {
        2..=14 => names[(r - 2) as usize].to_string(),
        _ => r.to_string(),
    };
    match (hole, v) {
        (Hole::Rank, Value::Int(r)) => rank(*r, &LABELS),
        (Hole::Ranks, Value::Int(r)) => rank(*r, &PLURALS),
        (Hole::Rank | Hole::Ranks, Value::List(xs)) => xs.iter().map(|x| shown(x, hole)).collect::<Vec<_>>().join(" "),
        (Hole::Places(n), Value::Int(i)) => format!("{:.*}", n, *i as f64),
        (Hole::Places(n), Value::Num(x)) => format!("{x:.n$}"),
        (Hole::Signed, Value::Int(i)) if *i >= 0 => format!("+{i}"),
        (Hole::Signed, Value::Int(i)) => format!("−{}", i.unsigned_abs()),
        (Hole::Signed, Value::Num(x)) if *x >= 0.0 => format!("+{}", decimal(*x)),
        (Hole::Signed, Value::Num(x)) => format!("−{}", decimal(-x)),
        (Hole::Operand, Value::Int(i)) if *i < 0 => format!("(−{})", i.unsigned_abs()),
        (Hole::Operand, Value::Num(x)) if *x < 0.0 => format!("(−{})", decimal(-x)),
        (Hole::Raw, v) => pretty(v),
        (_, Value::Str(s)) => text(s),
        (Hole::Plain, Value::List(xs)) => {
            format!("[{}]", xs.iter().map(|x| shown(x, hole)).collect::<Vec<_>>().join(", "))
        }
        (_, v) => pretty(v),
    }
}

/// A template filled in order (`{}`, `{:spec}`, `{{`, `}}`).
fn fill(t: &str, values: &[Value]) -> Result<String, String> {
    let mut out = String::new();
    let mut used = 0;
    let mut rest = t;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with("{{") || rest.starts_with("}}") {
            out.push(c);
            rest = &rest[2..];
            continue;
        }
        match c {
            '{' => {
                let Some(close) = rest.find('}') else {
                    return Err("a `{` without its `}`".into());
                };
                let inner = &rest[1..close];
                let hole = if inner.is_empty() {
                    Hole::Plain
                } else if let Some(spec) = inner.strip_prefix(':') {
                    match spec.trim() {
                        "rank" => Hole::Rank,
                        "ranks" => Hole::Ranks,
                        "signed" => Hole::Signed,
                        "operand" => Hole::Operand,
                        "raw" => Hole::Raw,
                        s => match s.strip_prefix('.').and_then(|n| n.parse::<usize>().ok()) {
                            Some(n) if n <= 12 => Hole::Places(n),
                            _ => {
                                return Err(format!(
                                    "unknown format `{spec}` (use rank, ranks, signed, operand, raw or .N)"
                                ))
                            }
                        },
                    }
                } else {
                    return Err(format!("`{{{inner}}}`: a hole is `{{}}` or `{{:format}}`"));
                };
                let Some(v) = values.get(used) else {
                    return Err(format!(
                        "the template has more holes than the {} value(s) given",
                        values.len()
                    ));
                };
                out.push_str(&shown(v, &hole));
                used += 1;
                rest = &rest[close + 1..];
            }
            '}' => return Err("a `}` without its `{` (write `}}` for a brace)".into()),
            c => {
                out.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    if used < values.len() {
        return Err(format!(
            "{} value(s) given for {used} hole(s) in the template",
            values.len()
        ));
    }
    Ok(out)
}
