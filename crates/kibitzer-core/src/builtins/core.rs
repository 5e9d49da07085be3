//! General built-ins: list operations and arithmetic helpers, and the plain input types
//! (int, decimal, string, symbol, bool, rank, ints).

use super::registry::{BuiltinError, InputType, Intrinsic, Registry, Solutions, TypeArgs};
use crate::cards::NotationError;
use crate::value::format::{format_template, format_value_within, Format};
use crate::value::{Value, ValueType as T, MAX_LIST_LEN, MAX_TEXT_LEN};
use std::borrow::Cow;
use std::cmp::Ordering;

/// Registers the general built-ins and input types.
pub fn register(r: &mut Registry) {
    register_list_reading(r);
    register_list_building(r);
    register_numbers(r);
    register_inputs(r);
}

/// Reading lists: length, sums, extremes, sorting, comparison.
fn register_list_reading(r: &mut Registry) {
    r.func(
        "len",
        &[("list", T::Any)],
        T::Int,
        "number of elements (visible cards of a card group)",
        |a| {
            let n = match &a[0] {
                Value::Str(s) => s.chars().count(),
                v => list(v, "len", 1)?.len(),
            };
            Ok(Value::Int(n as i64))
        },
    );
    r.func(
        "sum_of",
        &[("list", T::List)],
        T::Num,
        "sum of a list of numbers (an int if all are ints)",
        |a| {
            let items = list(a[0], "sum_of", 1)?;
            fold_numbers(&items, "sum_of", Value::Int(0), |x, y| x + y, |x, y| x.checked_add(y))
        },
    );
    r.func(
        "max_of",
        &[("list", T::List)],
        T::Any,
        "largest element of a non-empty list",
        |a| extreme(a[0], "max_of", Ordering::Greater),
    );
    r.func(
        "min_of",
        &[("list", T::List)],
        T::Any,
        "smallest element of a non-empty list",
        |a| extreme(a[0], "min_of", Ordering::Less),
    );
    r.func(
        "sort_desc",
        &[("list", T::List)],
        T::List,
        "the list sorted, largest first",
        |a| {
            let mut items = list(a[0], "sort_desc", 1)?.into_owned();
            items.sort_by(|x, y| y.compare(x).unwrap_or(Ordering::Equal));
            Ok(Value::list(items))
        },
    );
    r.func(
        "sort_asc",
        &[("list", T::List)],
        T::List,
        "the list sorted, smallest first",
        |a| {
            let mut items = list(a[0], "sort_asc", 1)?.into_owned();
            items.sort_by(|x, y| x.compare(y).unwrap_or(Ordering::Equal));
            Ok(Value::list(items))
        },
    );
    r.func(
        "lex_compare",
        &[("a", T::List), ("b", T::List)],
        T::Int,
        "compares two lists element by element: 1 if a is larger, -1 if smaller, 0 if equal",
        |a| {
            // Two lists (the usual case: Rule10–Rule15) compare in place, without copying them.
            if let (Value::List(_), Value::List(_)) = (&a[0], &a[1]) {
                return Ok(Value::Int(a[0].compare(a[1]).unwrap_or(Ordering::Equal) as i64));
            }
            let x = list(a[0], "lex_compare", 1)?;
            let y = list(a[1], "lex_compare", 2)?;
            let ord = Value::list(x.into_owned())
                .compare(&Value::list(y.into_owned()))
                .unwrap_or(Ordering::Equal);
            Ok(Value::Int(ord as i64))
        },
    );
}

/// Building lists: concatenation, removal, ranges.
fn register_list_building(r: &mut Registry) {
    r.func(
        "concat",
        &[("a", T::List), ("b", T::List)],
        T::List,
        "the elements of a then those of b",
        |a| {
            let (first, second) = (list(a[0], "concat", 1)?, list(a[1], "concat", 2)?);
            if first.len() + second.len() > MAX_LIST_LEN {
                return Err(BuiltinError::failed(
                    "concat",
                    format!("the list would hold more than {MAX_LIST_LEN} elements"),
                ));
            }
            let mut x = first.into_owned();
            x.extend_from_slice(&second);
            Ok(Value::list(x))
        },
    );
    r.func(
        "remove",
        &[("list", T::List), ("item", T::Any)],
        T::List,
        "the list without the first element equal to item",
        |a| {
            let mut x = list(a[0], "remove", 1)?.into_owned();
            if let Some(i) = x.iter().position(|v| v.loose_eq(a[1])) {
                x.remove(i);
            }
            Ok(Value::list(x))
        },
    );
    r.function(
        "range",
        &[("from", T::Int), ("to", T::Int)],
        &[T::Int],
        true,
        "every integer from..=to, one solution each",
        |a, o| {
            let from = int(a[0], "range", 1)?;
            let to = int(a[1], "range", 2)?;
            if to.saturating_sub(from) > 1_000_000 {
                return Err(BuiltinError::failed("range", "more than a million values"));
            }
            for i in from..=to {
                o.push1(Value::Int(i));
            }
            Ok(())
        },
    );
}

/// Numbers: absolute value, rounding, the lesser and greater of two.
fn register_numbers(r: &mut Registry) {
    r.intrinsic_func(
        "abs",
        &[("x", T::Num)],
        T::Num,
        "absolute value",
        |a| {
            Ok(match &a[0] {
                Value::Int(i) => Value::Int(i.checked_abs().ok_or_else(|| BuiltinError::failed("abs", "overflow"))?),
                v => Value::Num(num(v, "abs", 1)?.abs()),
            })
        },
        Intrinsic::Abs,
    );
    r.intrinsic_func(
        "trunc",
        &[("x", T::Num)],
        T::Int,
        "the integer part, rounding toward zero",
        |a| whole(a[0], "trunc", f64::trunc),
        Intrinsic::Trunc,
    );
    r.func(
        "floor",
        &[("x", T::Num)],
        T::Int,
        "the largest integer not above x",
        |a| whole(a[0], "floor", f64::floor),
    );
    r.func(
        "round",
        &[("x", T::Num)],
        T::Int,
        "the nearest integer (halves away from zero)",
        |a| whole(a[0], "round", f64::round),
    );
    r.func(
        "atan2",
        &[("y", T::Num), ("x", T::Num)],
        T::Num,
        "the angle of the point (x, y) from the x axis, in radians, -π..π",
        |a| Ok(Value::Num(num(a[0], "atan2", 1)?.atan2(num(a[1], "atan2", 2)?))),
    );
    r.func(
        "str",
        &[("x", T::Any)],
        T::Str,
        "the value as text, as a `because` hole shows it: `str(17)` is \"17\"",
        |a| match format_value_within(a[0], &Format::Plain, MAX_TEXT_LEN) {
            Some(text) => Ok(Value::str(&text)),
            None => Err(BuiltinError::failed(
                "str",
                format!("the text would be longer than {MAX_TEXT_LEN} bytes"),
            )),
        },
    );
    r.variadic_func(
        "format",
        &[("template", T::Str), ("values", T::Any)],
        T::Str,
        "text with each `{}` or `{:format}` filled by the next value: `format(\"soft {}\", 17)`",
        |a| {
            let Value::Str(t) = &a[0] else {
                return Err(BuiltinError::failed("format", "the template must be a string"));
            };
            format_template(t, &a[1..])
                .map(|s| Value::str(&s))
                .map_err(|e| BuiltinError::failed("format", e))
        },
    );
    r.func(
        "decimal",
        &[("x", T::Num)],
        T::Num,
        "the number as a decimal (so that / does not truncate)",
        |a| Ok(Value::Num(num(a[0], "decimal", 1)?)),
    );
    r.intrinsic_func(
        "lesser",
        &[("a", T::Any), ("b", T::Any)],
        T::Any,
        "the smaller of two values",
        |a| {
            Ok(if a[1].compare(a[0]) == Some(Ordering::Less) {
                a[1].clone()
            } else {
                a[0].clone()
            })
        },
        Intrinsic::Lesser,
    );
}

/// The plain input types.
fn register_inputs(r: &mut Registry) {
    r.intrinsic_func(
        "greater",
        &[("a", T::Any), ("b", T::Any)],
        T::Any,
        "the larger of two values",
        |a| {
            Ok(if a[1].compare(a[0]) == Some(Ordering::Greater) {
                a[1].clone()
            } else {
                a[0].clone()
            })
        },
        Intrinsic::Greater,
    );

    for (name, value_type, doc, parse) in [
        (
            "int",
            T::Int,
            "an integer: `12`, `-3`; `int(LOW..HIGH)` takes only LOW to HIGH",
            parse_int as super::registry::InputParser,
        ),
        ("decimal", T::Num, "a number: `0.75`", parse_decimal),
        ("string", T::Str, "any text", parse_string),
        ("symbol", T::Str, "a word: letters, digits, `_`, `-`", parse_symbol),
        ("bool", T::Bool, "`true` or `false`", parse_bool),
        (
            "rank",
            T::Int,
            "a card rank without a suit: `2`..`10` (or `T`), `J`, `Q`, `K`, `A`, as its number 2..14",
            parse_rank,
        ),
        (
            "ints",
            T::List,
            "integers separated by commas or spaces: `6,6,5`",
            parse_ints,
        ),
    ] {
        r.input_type(InputType {
            name,
            keys: &[],
            max_positional: if name == "ints" || name == "int" { 1 } else { 0 },
            value_type,
            parse,
            doc,
        });
    }
}

fn parse_int(text: &str, args: &TypeArgs, what: &str) -> Result<Value, NotationError> {
    let n = text.trim().parse::<i64>().map_err(|_| bad(text, "not an integer"))?;
    // `int(LOW..HIGH)`: a count the game bounds (tiles in the wall, melds), refused before rules run.
    match args.positional.first() {
        Some(&(lo, hi)) if !(lo..=hi).contains(&n) => Err(bad(text, &format!("{what} must be from {lo} to {hi}"))),
        _ => Ok(Value::Int(n)),
    }
}

fn parse_decimal(text: &str, _: &TypeArgs, _: &str) -> Result<Value, NotationError> {
    match text.trim().parse::<f64>() {
        Ok(n) if n.is_finite() => Ok(Value::Num(n)),
        _ => Err(bad(text, "not a number")),
    }
}

fn parse_string(text: &str, _: &TypeArgs, _: &str) -> Result<Value, NotationError> {
    Ok(Value::str(text))
}

fn parse_symbol(text: &str, _: &TypeArgs, _: &str) -> Result<Value, NotationError> {
    let t = text.trim();
    if !t.is_empty() && t.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-') {
        Ok(Value::str(t))
    } else {
        Err(bad(text, "not a symbol (letters, digits, `_`, `-`)"))
    }
}

fn parse_rank(text: &str, _: &TypeArgs, _: &str) -> Result<Value, NotationError> {
    let r = match text.trim().to_ascii_uppercase().as_str() {
        "A" => 14,
        "K" => 13,
        "Q" => 12,
        "J" => 11,
        "T" | "10" => 10,
        n => match n.parse::<i64>() {
            Ok(n @ 2..=9) => n,
            _ => return Err(bad(text, "not a rank (2..10 or T, J, Q, K, A)")),
        },
    };
    Ok(Value::Int(r))
}

fn parse_bool(text: &str, _: &TypeArgs, _: &str) -> Result<Value, NotationError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "1" => Ok(Value::Bool(true)),
        "false" | "no" | "0" => Ok(Value::Bool(false)),
        _ => Err(bad(text, "not true or false")),
    }
}

fn parse_ints(text: &str, args: &TypeArgs, what: &str) -> Result<Value, NotationError> {
    let items = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| t.parse::<i64>().map(Value::Int).map_err(|_| bad(t, "not an integer")))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(&(lo, hi)) = args.positional.first() {
        if (items.len() as i64) < lo || (items.len() as i64) > hi {
            return Err(NotationError::WrongCount {
                what: what.to_string(),
                expected: if lo == hi {
                    lo.to_string()
                } else {
                    format!("{lo} to {hi}")
                },
                got: items.len(),
            });
        }
    }
    Ok(Value::list(items))
}

fn bad(token: &str, why: &str) -> NotationError {
    NotationError::BadValue {
        token: token.to_string(),
        why: why.to_string(),
    }
}

/// The elements of a list (or the cards of a card group), or a typed argument error.
/// Borrowed when it is a list (no copy for a built-in that only reads it: `sum_of` of the hand
/// sizes, once per durak hand value, allocated one); a card group's cards are made.
pub fn list<'v>(v: &'v Value, builtin: &str, position: usize) -> Result<Cow<'v, [Value]>, BuiltinError> {
    match v {
        Value::List(items) => Ok(Cow::Borrowed(&items[..])),
        _ => v
            .elements()
            .map(Cow::Owned)
            .ok_or_else(|| BuiltinError::bad_argument(builtin, position, "a list", v)),
    }
}

/// The integer argument, or a typed argument error.
pub fn int(v: &Value, builtin: &str, position: usize) -> Result<i64, BuiltinError> {
    v.as_int()
        .ok_or_else(|| BuiltinError::bad_argument(builtin, position, "an integer", v))
}

/// The numeric argument, or a typed argument error.
pub fn num(v: &Value, builtin: &str, position: usize) -> Result<f64, BuiltinError> {
    v.as_f64()
        .ok_or_else(|| BuiltinError::bad_argument(builtin, position, "a number", v))
}

/// A number made whole by `f` (truncation, floor, rounding): a whole number is its own answer,
/// exactly, however large (through a decimal it would lose its last digits past 2^53).
fn whole(v: &Value, builtin: &str, f: fn(f64) -> f64) -> Result<Value, BuiltinError> {
    match v {
        Value::Int(i) => Ok(Value::Int(*i)),
        v => to_int(f(num(v, builtin, 1)?), builtin),
    }
}

fn to_int(x: f64, builtin: &str) -> Result<Value, BuiltinError> {
    if x.is_finite() && x.abs() < 9.0e18 {
        Ok(Value::Int(x as i64))
    } else {
        Err(BuiltinError::failed(builtin, format!("{x} does not fit an integer")))
    }
}

fn fold_numbers(
    items: &[Value],
    builtin: &str,
    zero: Value,
    fadd: fn(f64, f64) -> f64,
    iadd: fn(i64, i64) -> Option<i64>,
) -> Result<Value, BuiltinError> {
    let mut acc = zero;
    for (i, v) in items.iter().enumerate() {
        acc = match (&acc, v) {
            (Value::Int(a), Value::Int(b)) => match iadd(*a, *b) {
                Some(s) => Value::Int(s),
                None => Value::Num(fadd(*a as f64, *b as f64)),
            },
            (a, b) => Value::Num(fadd(num(a, builtin, i + 1)?, num(b, builtin, i + 1)?)),
        };
    }
    Ok(acc)
}

fn extreme(v: &Value, builtin: &str, want: Ordering) -> Result<Value, BuiltinError> {
    let items = list(v, builtin, 1)?;
    let mut it = items.iter();
    let first = it
        .next()
        .ok_or_else(|| BuiltinError::failed(builtin, "the list is empty"))?;
    Ok(it
        .fold(first, |best, x| if x.compare(best) == Some(want) { x } else { best })
        .clone())
}

/// Convenience for built-ins that return one value.
pub fn one(o: &mut Solutions, v: Value) -> Result<(), BuiltinError> {
    o.push1(v);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    /// `atan2(y, x)` is the direction of (x, y): on the axes, between them and behind, from ints
    /// or decimals.
    #[test]
    fn atan2_gives_the_direction_of_a_point() {
        let r = Registry::general();
        let atan2 = r.get("atan2").expect("atan2 is registered");
        let call = |y: Value, x: Value| match atan2.call_one(&[&y, &x]) {
            Ok(Value::Num(a)) => a,
            other => panic!("atan2 gave {other:?}"),
        };
        for (y, x, want) in [
            (0, 1, 0.0),
            (1, 0, PI / 2.0),
            (0, -1, PI),
            (-1, 0, -PI / 2.0),
            (1, 1, PI / 4.0),
            (-3, -3, -3.0 * PI / 4.0),
        ] {
            let got = call(Value::Int(y), Value::Int(x));
            assert!((got - want).abs() < 1e-12, "atan2({y}, {x}) = {got}, want {want}");
        }
        assert_eq!(call(Value::Num(2.5), Value::Num(2.5)), PI / 4.0);
        assert!(atan2.call_one(&[&Value::str("a"), &Value::Int(1)]).is_err());
    }
}
