//! The values facts are made of. Small scalars are stored inline; strings, card groups and lists
//! are shared behind a count (`Text`; [`Shared`], atomic only where threads share the value), so
//! copying a binding never copies its payload.

use crate::cards::{Card, Cards};
use rustc_hash::FxHashMap;
use serde_json::Value as Json;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

pub mod format;
mod shared;
mod text;

pub use self::shared::{Constant, Frozen, Shared};
pub use self::text::Text;

/// Deepest nesting of lists a fact may hold (see [`Value::cells`]).
pub const MAX_VALUE_DEPTH: usize = 32;

/// Longest list a built-in makes (`concat`, `range`): growth past it is a runaway rule.
pub const MAX_LIST_LEN: usize = 1 << 20;

/// The most bytes a text made by `+` may hold: text that doubles in a loop stops here, not when
/// the process runs out of memory.
pub const MAX_TEXT_LEN: usize = 1 << 20;

/// A value in a fact, a binding or an expression.
///
/// The scalars come first: a value holds a shared part exactly when its variant is past `Card`, one
/// test where values are copied, dropped and weighed (2% of a durak hand value).
pub enum Value {
    /// A whole number.
    Int(i64),
    /// A decimal number.
    Num(f64),
    /// `true` or `false`.
    Bool(bool),
    /// One playing card.
    Card(Card),
    /// A string.
    Str(Text),
    /// A group of cards, hidden ones (`XX`) included.
    Cards(Shared<Cards>),
    /// A list of values.
    List(Shared<[Value]>),
}

impl Clone for Value {
    /// A copy of the value's 24 bytes as they are, its shared part (if any) counted once more.
    ///
    /// Why not derived: the derived copy rebuilds the value field by field, and for the small
    /// variants writes the payload as two overlapping four-byte pieces through the stack and
    /// reads them back, a store-forwarding stall on every copied binding.
    #[inline(always)]
    fn clone(&self) -> Value {
        match self {
            Value::Str(t) => {
                std::mem::forget(t.clone());
            }
            Value::Cards(c) => {
                std::mem::forget(c.clone());
            }
            Value::List(l) => {
                std::mem::forget(l.clone());
            }
            Value::Int(_) | Value::Num(_) | Value::Bool(_) | Value::Card(_) => {}
        }
        // Copied as three whole words (padding included, as possibly uninitialised bytes): read
        // as a `Value`, the compiler copies the tag and the bytes after it in overlapping pieces
        // through the stack, and the stall is back.
        // SAFETY: a bitwise copy of a valid value is a valid value (`MaybeUninit` carries the
        // padding bytes without reading them as numbers; the sizes are equal, checked at compile
        // time by `transmute`); the only parts it shares with `self` are the reference-counted
        // ones, whose count was raised above for the copy, by the clone forgotten above
        // (`Text::clone` raises the count of shared text and leaves fixed text alone,
        // `Shared::clone` raises the group's or list's count, and forgetting the clone keeps that
        // count for the copy).
        unsafe {
            let words = std::ptr::read(self as *const Value as *const std::mem::MaybeUninit<[u64; 3]>);
            std::mem::transmute::<std::mem::MaybeUninit<[u64; 3]>, Value>(words)
        }
    }
}

/// The type of a value, as rule files and built-in signatures name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValueType {
    /// A whole number (`int`).
    Int,
    /// A decimal number (`decimal`).
    Num,
    /// `true` or `false` (`bool`).
    Bool,
    /// A string (`string`).
    Str,
    /// One playing card (`card`).
    Card,
    /// A group of cards (`cards`).
    Cards,
    /// A list of values (`list`).
    List,
    /// Any type: used by generic built-ins (`len`, `in`).
    Any,
}

impl ValueType {
    /// The name used in messages and in `kibitzer rules`.
    pub fn name(self) -> &'static str {
        match self {
            ValueType::Int => "int",
            ValueType::Num => "decimal",
            ValueType::Bool => "bool",
            ValueType::Str => "string",
            ValueType::Card => "card",
            ValueType::Cards => "cards",
            ValueType::List => "list",
            ValueType::Any => "any",
        }
    }

    /// True if a value of type `actual` may be passed where `self` is expected.
    pub fn accepts(self, actual: ValueType) -> bool {
        self == ValueType::Any
            || actual == ValueType::Any
            || self == actual
            || (self == ValueType::Num && actual == ValueType::Int)
    }
}

impl Value {
    /// A string value.
    pub fn str(s: &str) -> Value {
        Value::Str(Text::from(s))
    }

    /// A string value whose text lives as long as the process: copied with no reference count.
    pub fn fixed(s: &'static str) -> Value {
        Value::Str(Text::fixed(s))
    }

    /// The memory a fact holding this value is charged, in cells: 1 for a scalar, a card group's
    /// cards, a string's length in 16-byte units, a list's elements in turn (plus one). `None`
    /// when lists nest deeper than `depth` (comparing, hashing, printing and dropping a value all
    /// recurse on its nesting, so a fact may not nest deeper than [`MAX_VALUE_DEPTH`]).
    #[inline(always)]
    pub fn cells(&self, depth: usize) -> Option<u64> {
        match self {
            Value::Int(_) | Value::Num(_) | Value::Bool(_) | Value::Card(_) => Some(1),
            _ => self.shared_cells(depth),
        }
    }

    /// [`Value::cells`] of a string, card group or list: out of line, so that weighing a scalar,
    /// the commonest argument of a fact, is one test where facts are stored.
    #[inline(never)]
    fn shared_cells(&self, depth: usize) -> Option<u64> {
        Some(match self {
            Value::Int(_) | Value::Num(_) | Value::Bool(_) | Value::Card(_) => 1,
            Value::Str(s) => 1 + s.len() as u64 / 16,
            Value::Cards(c) => 1 + c.len() as u64,
            Value::List(_) => {
                let mut steps = CELL_WALK_STEPS;
                match self.list_cells(depth, &mut steps) {
                    Some(n) => n,
                    // A list that holds shared lists many times over: each counted once per place
                    // it is held, but walked once.
                    None if steps == 0 => self.list_cells_shared(depth, &mut FxHashMap::default())?,
                    None => return None,
                }
            }
        })
    }

    /// [`Value::cells`] by a plain walk: `None` past `depth`, or (with `steps` at 0) once the walk
    /// has visited `steps` values.
    fn list_cells(&self, depth: usize, steps: &mut u32) -> Option<u64> {
        *steps = steps.checked_sub(1)?;
        match self {
            Value::List(items) => {
                let below = depth.checked_sub(1)?;
                let mut n = 1u64;
                for v in items.iter() {
                    n = n.saturating_add(v.list_cells(below, steps)?);
                }
                Some(n)
            }
            v => v.cells(depth),
        }
    }

    /// [`Value::cells`] walking each shared list once at each depth (`seen`: each list's count, by
    /// address and depth).
    fn list_cells_shared(&self, depth: usize, seen: &mut FxHashMap<(usize, usize), u64>) -> Option<u64> {
        match self {
            Value::List(items) => {
                if let Some(&n) = seen.get(&(Shared::addr(items), depth)) {
                    return Some(n);
                }
                let below = depth.checked_sub(1)?;
                let mut n = 1u64;
                for v in items.iter() {
                    n = n.saturating_add(v.list_cells_shared(below, seen)?);
                }
                seen.insert((Shared::addr(items), depth), n);
                Some(n)
            }
            v => v.cells(depth),
        }
    }

    /// A list value, local to this thread (`Shared`): what built-ins and rules make while a
    /// query runs. A value a `Program` keeps is made `frozen` first.
    pub fn list(items: impl IntoIterator<Item = Value>) -> Value {
        Value::List(Shared::local_slice(items))
    }

    /// The value with every card group and list in it frozen: fit for a `Program`, which the
    /// threads of `kibitzer batch` share.
    pub fn frozen(self) -> Value {
        self.freeze_in_place();
        self
    }

    fn freeze_in_place(&self) {
        match self {
            Value::Cards(c) => Shared::freeze(c),
            Value::List(items) => {
                Shared::freeze(items);
                items.iter().for_each(Value::freeze_in_place);
            }
            Value::Int(_) | Value::Num(_) | Value::Bool(_) | Value::Card(_) | Value::Str(_) => {}
        }
    }

    /// A copy made field by field: numbers are rebuilt from their payload, shared values cloned.
    ///
    /// Why not `clone`: for a value built moments ago (a built-in's answer, an array literal) the
    /// derived clone reads it back as one block, which stalls on store forwarding when its bytes
    /// were written piecewise — ~30 ns a copy on this machine, more than the work around it.
    #[inline(always)]
    pub fn fresh_copy(&self) -> Value {
        match self {
            Value::Int(i) => Value::Int(*i),
            // Out of line: inlined, the compiler merges the arms back into one block copy.
            other => other.clone_out_of_line(),
        }
    }

    #[inline(never)]
    fn clone_out_of_line(&self) -> Value {
        self.clone()
    }

    /// This value's type.
    pub fn ty(&self) -> ValueType {
        match self {
            Value::Int(_) => ValueType::Int,
            Value::Num(_) => ValueType::Num,
            Value::Bool(_) => ValueType::Bool,
            Value::Str(_) => ValueType::Str,
            Value::Card(_) => ValueType::Card,
            Value::Cards(_) => ValueType::Cards,
            Value::List(_) => ValueType::List,
        }
    }

    /// The number, if this is an int or a decimal.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Num(n) => Some(*n),
            _ => None,
        }
    }

    /// The integer, if this is an int.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The truth value, if this is a bool.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The elements, if this is a list; a card group counts as the list of its visible cards.
    pub fn elements(&self) -> Option<Vec<Value>> {
        match self {
            Value::List(items) => Some(items.to_vec()),
            Value::Cards(c) => Some(c.cards().iter().map(|c| Value::Card(*c)).collect()),
            _ => None,
        }
    }

    /// True if every card group and list in the value is frozen (`Shared`): only such a value
    /// may be read by several threads.
    pub fn is_frozen(&self) -> bool {
        match self {
            Value::Cards(c) => Shared::is_frozen(c),
            Value::List(items) => Shared::is_frozen(items) && items.iter().all(Value::is_frozen),
            Value::Int(_) | Value::Num(_) | Value::Bool(_) | Value::Card(_) | Value::Str(_) => true,
        }
    }

    /// True if both are the same value in memory (the same scalar bits or the same shared
    /// payload): a cheap sufficient test for equality, used to skip copies.
    pub fn same(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Num(a), Value::Num(b)) => a.to_bits() == b.to_bits(),
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Card(a), Value::Card(b)) => a == b,
            (Value::Str(a), Value::Str(b)) => Text::ptr_eq(a, b),
            (Value::Cards(a), Value::Cards(b)) => Shared::ptr_eq(a, b),
            (Value::List(a), Value::List(b)) => Shared::ptr_eq(a, b),
            _ => false,
        }
    }

    /// Equality as rules see it: numbers compare by value (`1 == 1.0`), everything else structurally.
    pub fn loose_eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Int(a), Value::Num(b)) | (Value::Num(b), Value::Int(a)) => (*a as f64) == *b,
            // One shared list (a fact's argument bound and matched again) equals itself: every
            // element is `loose_eq` to itself, a decimal NaN included (its bits are equal).
            (Value::List(a), Value::List(b)) => {
                Shared::ptr_eq(a, b) || (a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.loose_eq(y)))
            }
            _ => self == other,
        }
    }

    /// Ordering as rules see it: numbers by value, strings and cards in their natural order,
    /// lists lexicographically. `None` for values of different kinds.
    pub fn compare(&self, other: &Value) -> Option<Ordering> {
        match (self, other) {
            (Value::Int(a), Value::Int(b)) => Some(a.cmp(b)),
            (a, b) if a.as_f64().is_some() && b.as_f64().is_some() => a.as_f64()?.partial_cmp(&b.as_f64()?),
            (Value::Str(a), Value::Str(b)) => Some(a.cmp(b)),
            (Value::Bool(a), Value::Bool(b)) => Some(a.cmp(b)),
            (Value::Card(a), Value::Card(b)) => Some(a.cmp(b)),
            (Value::List(a), Value::List(b)) => {
                for (x, y) in a.iter().zip(b.iter()) {
                    match x.compare(y)? {
                        Ordering::Equal => continue,
                        o => return Some(o),
                    }
                }
                Some(a.len().cmp(&b.len()))
            }
            _ => None,
        }
    }

    /// The JSON form `ask --json` prints (`README.md`): numbers, strings, a card as its canonical
    /// string, lists as arrays; a list too long to write out as the string its text shows
    /// ([`Value::too_long_to_show`]).
    pub fn to_json(&self) -> Json {
        if let Some(short) = self.too_long_to_show() {
            return Json::String(short);
        }
        self.to_json_within()
    }

    /// [`Value::to_json`] of a value known to be short enough (nested lists are not weighed again).
    fn to_json_within(&self) -> Json {
        match self {
            Value::Int(i) => Json::from(*i),
            Value::Num(n) => serde_json::Number::from_f64(*n).map_or(Json::Null, Json::Number),
            Value::Bool(b) => Json::Bool(*b),
            Value::Str(s) => Json::String(s.to_string()),
            Value::Card(c) => Json::String(c.to_string()),
            Value::Cards(c) => Json::Array(
                (0..c.hidden())
                    .map(|_| Json::String("XX".into()))
                    .chain(c.cards().iter().map(|c| Json::String(c.to_string())))
                    .collect(),
            ),
            Value::List(items) => Json::Array(items.iter().map(Value::to_json_within).collect()),
        }
    }

    /// The form shown to people in explanations: cards with suit symbols, strings unquoted,
    /// decimals with up to four places.
    pub fn pretty(&self) -> String {
        self.too_long_to_show().unwrap_or_else(|| self.pretty_within())
    }

    /// [`Value::pretty`] of a value known to be short enough.
    fn pretty_within(&self) -> String {
        match self {
            Value::Str(s) => s.to_string(),
            Value::Card(c) => c.pretty(),
            Value::Cards(c) => c.pretty(),
            Value::Num(n) => format_decimal(*n, 4),
            Value::List(_) => {
                let mut out = String::new();
                format::write_pretty(&mut out, self, usize::MAX);
                out
            }
            other => other.to_string(),
        }
    }
}

impl Value {
    /// Whether the value written as text takes more than `limit` characters. A list that holds
    /// one shared list many times (made by doubling in a loop) is walked only until the count
    /// passes `limit`, not flattened.
    pub fn text_longer_than(&self, limit: usize) -> bool {
        let mut left = limit;
        text_exhausts(self, &mut left)
    }

    /// What a list too long to write out shows instead (`None` for any other value): an
    /// explanation or a listing stays readable and is made in bounded time.
    pub fn too_long_to_show(&self) -> Option<String> {
        match self {
            Value::List(items) if self.text_longer_than(MAX_TEXT_LEN) => Some(too_long_note(items.len())),
            _ => None,
        }
    }
}

/// A decimal with at most `places` places, trailing zeros kept to one (`1.0`, `0.2791`).
pub fn format_decimal(n: f64, places: usize) -> String {
    if !n.is_finite() {
        return n.to_string();
    }
    let s = format!("{n:.places$}");
    if s.contains('.') {
        let t = s.trim_end_matches('0');
        if t.ends_with('.') {
            format!("{t}0")
        } else {
            t.to_string()
        }
    } else {
        s
    }
}

impl PartialEq for Value {
    /// Structural equality (a decimal equals only a decimal with the same bits): the identity of
    /// facts in working memory.
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Num(a), Value::Num(b)) => a.to_bits() == b.to_bits(),
            (Value::Bool(a), Value::Bool(b)) => a == b,
            // One shared value (a literal's string, a hand bound in several places) is itself.
            (Value::Str(a), Value::Str(b)) => a == b,
            (Value::Card(a), Value::Card(b)) => a == b,
            (Value::Cards(a), Value::Cards(b)) => a == b,
            (Value::List(a), Value::List(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for Value {}

/// Whether the values of a list, written as its text, take more than `limit` characters.
pub fn texts_longer_than(items: &[Value], limit: usize) -> bool {
    let mut left = limit;
    items.iter().any(|x| text_exhausts(x, &mut left))
}

/// What a list of `n` values too long to write out shows instead.
pub fn too_long_note(n: usize) -> String {
    format!("[a list of {n} values, longer than {MAX_TEXT_LEN} bytes as text]")
}

/// Counts `v`'s text length off `left`; true once it passes.
fn text_exhausts(v: &Value, left: &mut usize) -> bool {
    let own = match v {
        Value::List(items) => {
            if items.iter().any(|x| text_exhausts(x, left)) {
                return true;
            }
            2 * items.len() + 1
        }
        Value::Str(s) => s.len() + 2,
        Value::Cards(c) => 3 * c.len() + 2,
        _ => 1,
    };
    match left.checked_sub(own) {
        Some(l) => {
            *left = l;
            false
        }
        None => true,
    }
}

/// How many values of a list (nested ones included) its hash reads: a list holding one shared
/// list many times over would otherwise be hashed element by element, flattened. Equal lists
/// read the same first values, so equal lists still hash alike.
const HASHED_VALUES: u32 = 64;

/// How many values [`Value::cells`] visits plainly before it counts each shared list once.
const CELL_WALK_STEPS: u32 = 4096;

/// A list's hash, reading at most [`HASHED_VALUES`] values. Out of line: `Value::hash` is inlined
/// where facts are looked up, and most of what is hashed there is no list.
#[inline(never)]
fn hash_list_bounded<H: Hasher>(items: &[Value], state: &mut H) {
    let mut budget = HASHED_VALUES;
    hash_list(items, state, &mut budget);
}

fn hash_list<H: Hasher>(items: &[Value], state: &mut H, budget: &mut u32) {
    items.len().hash(state);
    for v in items {
        let Some(left) = budget.checked_sub(1) else {
            return;
        };
        *budget = left;
        match v {
            Value::List(inner) => {
                std::mem::discriminant(v).hash(state);
                hash_list(inner, state, budget);
            }
            v => v.hash(state),
        }
    }
}

impl Hash for Value {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            Value::Int(i) => i.hash(state),
            Value::Num(n) => n.to_bits().hash(state),
            Value::Bool(b) => b.hash(state),
            Value::Str(s) => s.hash(state),
            Value::Card(c) => c.hash(state),
            Value::Cards(c) => c.hash(state),
            Value::List(items) => hash_list_bounded(items, state),
        }
    }
}

impl fmt::Display for Value {
    /// The canonical form used in fact listings: `3`, `0.7`, `"full house"`, `8S`, `[8S TD]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.too_long_to_show() {
            Some(short) => f.write_str(&short),
            None => self.write_canonical(f),
        }
    }
}

impl Value {
    /// The canonical form of a value known to be short enough (nested lists are not weighed again).
    fn write_canonical(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Num(n) => f.write_str(&format_decimal(*n, 4)),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Str(s) => write!(f, "{s:?}"),
            Value::Card(c) => write!(f, "{c}"),
            Value::Cards(c) => write!(f, "[{c}]"),
            Value::List(items) => {
                f.write_str("[")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    v.write_canonical(f)?;
                }
                f.write_str("]")
            }
        }
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A copy of every kind of value equals the original, and shared parts count each copy once
    /// and are freed with the last (the copy is made word by word, not field by field).
    #[test]
    fn a_copy_of_any_value_equals_it_and_counts_its_shared_part() {
        let card = Card::from_index(7).unwrap_or_else(|| unreachable!("a card"));
        let cards = Shared::local(Cards::new([card], 0));
        let frozen = Shared::new(Cards::new([card, card], 1));
        let watch_cards = cards.clone();
        let watch_frozen = frozen.clone();
        let list = Shared::local_slice([Value::Int(1), Value::str("x")]);
        let watch_list = list.clone();
        let text: std::sync::Arc<str> = std::sync::Arc::from("shared text");
        let watch_text = std::sync::Arc::downgrade(&text);
        let values = vec![
            Value::Int(-5),
            Value::Num(2.5),
            Value::Bool(true),
            Value::Card(card),
            Value::fixed("fixed"),
            Value::Str(Text::shared(text)),
            Value::Cards(cards),
            Value::List(list),
            Value::Cards(frozen),
        ];
        let copies: Vec<Value> = values.iter().map(Value::clone).collect();
        let more: Vec<Value> = copies.iter().map(Value::clone).collect();
        for (v, c) in values.iter().zip(&copies) {
            assert_eq!(v, c);
            assert_eq!(v.to_string(), c.to_string());
        }
        assert_eq!((Shared::count(&watch_cards), Shared::count(&watch_frozen)), (4, 4));
        assert_eq!(Shared::count(&watch_list), 4);
        assert_eq!(watch_text.strong_count(), 3);
        drop(values);
        drop(copies);
        assert_eq!((Shared::count(&watch_cards), Shared::count(&watch_frozen)), (2, 2));
        assert_eq!(Shared::count(&watch_list), 2);
        assert_eq!(more[6], Value::Cards(Shared::new(Cards::new([card], 0))));
        drop(more);
        assert_eq!((Shared::count(&watch_cards), Shared::count(&watch_frozen)), (1, 1));
        assert_eq!(Shared::count(&watch_list), 1);
        assert!(watch_text.upgrade().is_none());
    }
}
