//! Expression evaluation. Integer arithmetic stays integral (`/` truncates toward zero, as the
//! rule sets' integer formulas expect); any decimal operand makes the result a decimal.

use crate::builtins::BuiltinError;
use crate::lang::ast::{BinaryOp, UnaryOp};
use crate::lang::ir::Expr;
use crate::value::{Value, MAX_LIST_LEN, MAX_TEXT_LEN};
use smallvec::SmallVec;
use std::borrow::Cow;
use std::cmp::Ordering;
use std::sync::Arc;
use thiserror::Error;

/// Why an expression could not be evaluated. Boxed, as `BuiltinError` is: a result then costs no
/// more than its value (a `Result<bool, EvalError>` comes back in registers), and errors are rare.
#[derive(Debug, Clone, PartialEq, Error)]
#[error(transparent)]
pub struct EvalError(Box<EvalFailure>);

/// What went wrong.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum EvalFailure {
    /// A built-in refused its arguments or failed.
    #[error(transparent)]
    Builtin(BuiltinError),
    /// A value of a type the operation does not take (the message names both).
    #[error("{0}")]
    Type(String),
    /// A division or remainder by zero, in the expression shown.
    #[error("division by zero in `{0}`")]
    DivisionByZero(String),
    /// Integer arithmetic past the 64-bit range, in the expression shown.
    #[error("integer overflow in `{0}`")]
    Overflow(String),
    /// A list indexed past its ends.
    #[error("index {index} is out of range for a list of {len}")]
    Index {
        /// The index asked for.
        index: i64,
        /// The list's length.
        len: usize,
    },
}

/// Constructors named after the failures they make (`EvalError::Type(message)`).
#[allow(non_snake_case)]
impl EvalError {
    pub(crate) fn Type(message: String) -> EvalError {
        EvalError(Box::new(EvalFailure::Type(message)))
    }

    pub(crate) fn DivisionByZero(expr: String) -> EvalError {
        EvalError(Box::new(EvalFailure::DivisionByZero(expr)))
    }

    pub(crate) fn Overflow(expr: String) -> EvalError {
        EvalError(Box::new(EvalFailure::Overflow(expr)))
    }

    pub(crate) fn index(index: i64, len: usize) -> EvalError {
        EvalError(Box::new(EvalFailure::Index { index, len }))
    }

    /// What went wrong.
    pub fn failure(&self) -> &EvalFailure {
        &self.0
    }
}

impl From<BuiltinError> for EvalError {
    fn from(e: BuiltinError) -> Self {
        EvalError(Box::new(EvalFailure::Builtin(e)))
    }
}

/// Evaluates `e` with the rule's variables and the session's parameters. Counts built-in calls.
#[inline]
pub fn eval(e: &Expr, vars: &[Value], params: &[Value], calls: &mut u64) -> Result<Value, EvalError> {
    Ok(match e {
        Expr::Const(v) => v.value().clone(),
        Expr::Var(s) => vars[*s as usize].clone(),
        Expr::Param(i) => params[*i as usize].clone(),
        Expr::List(items) => {
            // Built inline, then moved once into the shared list (a `Vec` would be a second
            // allocation).
            let mut out: SmallVec<[Value; 4]> = SmallVec::new();
            for i in items {
                out.push(operand(i, vars, params, calls)?.into_owned());
            }
            Value::list(out)
        }
        Expr::Call { builtin, args, direct } => {
            *calls += 1;
            // A single variable argument is passed in place, with no list to build.
            if let [Expr::Var(s)] = args.as_slice() {
                return Ok(call(builtin, *direct, std::slice::from_ref(&&vars[*s as usize]))?);
            }
            let mut computed: SmallVec<[Value; 4]> = SmallVec::new();
            for a in args.iter().filter(|a| !in_place(a)) {
                computed.push(eval(a, vars, params, calls)?);
            }
            with_args(args, vars, params, &computed, |argv| call(builtin, *direct, argv))?
        }
        Expr::Unary(op, x) => {
            let mut tentative = 0;
            if let Some(v) = pure_num(e, vars, params, &mut tentative) {
                *calls += tentative;
                return Ok(v.value());
            }
            let v = operand(x, vars, params, calls)?;
            match (op, &*v) {
                (UnaryOp::Neg, Value::Int(i)) => {
                    Value::Int(i.checked_neg().ok_or_else(|| EvalError::Overflow(format!("-{i}")))?)
                }
                (UnaryOp::Neg, Value::Num(n)) => Value::Num(-n),
                (UnaryOp::Not, Value::Bool(b)) => Value::Bool(!b),
                (UnaryOp::Neg, _) => return Err(EvalError::Type(format!("cannot negate {v}"))),
                (UnaryOp::Not, _) => return Err(EvalError::Type(format!("`!` needs true or false, got {v}"))),
            }
        }
        Expr::Binary(op, a, b) => {
            let mut tentative = 0;
            if let Some(v) = pure_num(e, vars, params, &mut tentative) {
                *calls += tentative;
                return Ok(v.value());
            }
            match op {
                BinaryOp::And | BinaryOp::Or => {
                    let l = truth(&*operand(a, vars, params, calls)?, op.symbol())?;
                    if (*op == BinaryOp::And && !l) || (*op == BinaryOp::Or && l) {
                        return Ok(Value::Bool(l));
                    }
                    return Ok(Value::Bool(truth(&*operand(b, vars, params, calls)?, op.symbol())?));
                }
                _ => {}
            }
            let l = operand(a, vars, params, calls)?;
            let r = operand(b, vars, params, calls)?;
            binary(*op, &l, &r)?
        }
        Expr::If(c, a, b) => match truth(&*operand(c, vars, params, calls)?, "if")? {
            true => eval(a, vars, params, calls)?,
            false => eval(b, vars, params, calls)?,
        },
        Expr::Index(l, i) => {
            let list = operand(l, vars, params, calls)?;
            let idx = operand(i, vars, params, calls)?;
            let Some(n) = idx.as_int() else {
                return Err(EvalError::Type(format!("an index must be an integer, got {idx}")));
            };
            // Index in place: copying the whole list to read one element is what this avoids.
            let len = match &*list {
                Value::List(items) => items.len(),
                Value::Cards(c) => c.cards().len(),
                _ => return Err(EvalError::Type(format!("cannot index into {list}"))),
            };
            let at = if n < 0 { len as i64 + n } else { n };
            let item = usize::try_from(at).ok().and_then(|a| match &*list {
                Value::List(items) => items.get(a).cloned(),
                Value::Cards(c) => c.cards().get(a).map(|c| Value::Card(*c)),
                _ => None,
            });
            item.ok_or_else(|| EvalError::index(n, len))?
        }
    })
}

/// Pushes the value of `e` onto `out` (a fact's or a built-in's arguments): a variable, constant
/// or parameter (most arguments) is copied straight in, anything else evaluated. Pushed here, not
/// returned: a copy passed back through a `Result` and moved again stalls on store forwarding
/// (see `pure_int`).
#[inline(always)]
pub fn push_value<S: ValueStack>(
    out: &mut S,
    e: &Expr,
    vars: &[Value],
    params: &[Value],
    calls: &mut u64,
) -> Result<(), EvalError> {
    match e {
        Expr::Var(s) => out.push_value(vars[*s as usize].clone()),
        Expr::Const(v) => out.push_value(v.value().clone()),
        Expr::Param(i) => out.push_value(params[*i as usize].clone()),
        _ => out.push_value(eval(e, vars, params, calls)?),
    }
    Ok(())
}

/// A list values are pushed onto in place: a built-in's arguments (inline) or working memory's
/// argument arena (`Memory::staging`).
pub trait ValueStack {
    fn push_value(&mut self, v: Value);
}

impl ValueStack for SmallVec<[Value; 4]> {
    #[inline(always)]
    fn push_value(&mut self, v: Value) {
        self.push(v);
    }
}

impl ValueStack for Vec<Value> {
    #[inline(always)]
    fn push_value(&mut self, v: Value) {
        self.push(v);
    }
}

/// Evaluates `e` without copying when it names a value that already exists (a constant, a bound
/// variable, a parameter): comparisons and pattern checks only read their operands, and copying a
/// shared value costs an atomic increment and decrement.
#[inline]
pub fn operand<'a>(
    e: &'a Expr,
    vars: &'a [Value],
    params: &'a [Value],
    calls: &mut u64,
) -> Result<Cow<'a, Value>, EvalError> {
    Ok(match e {
        Expr::Const(v) => Cow::Borrowed(v),
        Expr::Var(s) => Cow::Borrowed(&vars[*s as usize]),
        Expr::Param(i) => Cow::Borrowed(&params[*i as usize]),
        // `card_count(?h)`: the commonest call, answered without entering `eval`.
        Expr::Call { builtin, args, direct } if matches!(args.as_slice(), [Expr::Var(_)]) => {
            let [Expr::Var(s)] = args.as_slice() else {
                unreachable!("guarded by the match arm")
            };
            *calls += 1;
            Cow::Owned(call(builtin, *direct, std::slice::from_ref(&&vars[*s as usize]))?)
        }
        other => Cow::Owned(eval(other, vars, params, calls)?),
    })
}

/// Calls a single-valued built-in: through its plain function when the compiler found one.
#[inline]
fn call(
    builtin: &Arc<dyn crate::builtins::Builtin>,
    direct: Option<crate::builtins::registry::OneFn>,
    args: &[&Value],
) -> Result<Value, BuiltinError> {
    match direct {
        Some(f) => f(args),
        None => builtin.call_one(args),
    }
}

/// Whether a built-in's argument names a value that already exists (a variable, a parameter, a
/// constant), which the call borrows where it is; any other argument is computed for the call.
#[inline(always)]
fn in_place(e: &Expr) -> bool {
    matches!(e, Expr::Var(_) | Expr::Param(_) | Expr::Const(_))
}

/// Calls `f` with a call's arguments, in order, as a built-in takes them: each one [`in_place`]
/// borrowed where it is, the others from `computed`, which holds their values in order. Borrowed,
/// not copied: a copy of a list or card group would raise its shared count, and drop it again,
/// only for the built-in to read it.
#[inline(always)]
fn with_args<'a, R>(
    args: &'a [Expr],
    vars: &'a [Value],
    params: &'a [Value],
    computed: &'a [Value],
    f: impl FnOnce(&[&Value]) -> R,
) -> R {
    let mut computed = computed.iter();
    let read = |a: &'a Expr| match a {
        Expr::Var(s) => Some(&vars[*s as usize]),
        Expr::Param(i) => Some(&params[*i as usize]),
        Expr::Const(v) => Some(v.value()),
        _ => computed.next(),
    };
    with_borrowed(args, read, f).unwrap_or_else(|| unreachable!("one computed value per argument not in place"))
}

/// A built-in's answer as a number, read in place.
#[inline(always)]
pub fn answer(r: &Result<Value, crate::builtins::BuiltinError>) -> Option<Num> {
    match r {
        Ok(v) => Num::of(v),
        Err(_) => None,
    }
}

/// Calls `f` with `read` of each of `items`, in order: a built-in's arguments borrowed from
/// wherever they are. Up to four are an array of exactly their number on the stack (no vector to
/// make, grow or free, no slot written twice), more a vector. `None`, without the call, if `read`
/// finds no value for one.
#[inline(always)]
pub(crate) fn with_borrowed<'a, T, R>(
    items: &'a [T],
    mut read: impl FnMut(&'a T) -> Option<&'a Value>,
    f: impl FnOnce(&[&Value]) -> R,
) -> Option<R> {
    Some(match items {
        [] => f(&[]),
        [a] => f(&[read(a)?]),
        [a, b] => f(&[read(a)?, read(b)?]),
        [a, b, c] => f(&[read(a)?, read(b)?, read(c)?]),
        [a, b, c, d] => f(&[read(a)?, read(b)?, read(c)?, read(d)?]),
        _ => f(&items.iter().map(read).collect::<Option<Vec<_>>>()?),
    })
}

/// The value of a condition: true or false, or (an error for the caller to report) anything else.
pub enum Truth {
    Bool(bool),
    Other(Value),
}

/// Evaluates a test condition. Comparisons, `and`, `or` and `!` answer a bool directly, without
/// building a `Value` per step; anything else is evaluated as an expression. Same results and
/// errors as `eval` followed by a check for a bool.
pub fn eval_test(e: &Expr, vars: &[Value], params: &[Value], calls: &mut u64) -> Result<Truth, EvalError> {
    use BinaryOp::*;
    match e {
        Expr::Binary(op @ (Eq | Ne | Lt | Le | Gt | Ge), a, b) => {
            let mut tentative = 0;
            if let Some(x) = pure_int(a, vars, params, &mut tentative) {
                if let Some(y) = pure_int(b, vars, params, &mut tentative) {
                    *calls += tentative;
                    return Ok(Truth::Bool(compare_ints(*op, x, y)));
                }
            }
            let l = operand(a, vars, params, calls)?;
            let r = operand(b, vars, params, calls)?;
            match (&*l, &*r) {
                (Value::Int(x), Value::Int(y)) => Ok(Truth::Bool(compare_ints(*op, *x, *y))),
                _ => Ok(truth_of(binary(*op, &l, &r)?)),
            }
        }
        Expr::Binary(op @ (And | Or), a, b) => {
            // Each side is itself a test: evaluated as one, so `?r > 0 or ?n > 0` builds no value.
            let side = |t: Truth| match t {
                Truth::Bool(b) => Ok(b),
                Truth::Other(v) => truth(&v, op.symbol()),
            };
            let l = side(eval_test(a, vars, params, calls)?)?;
            if (*op == And && !l) || (*op == Or && l) {
                return Ok(Truth::Bool(l));
            }
            Ok(Truth::Bool(side(eval_test(b, vars, params, calls)?)?))
        }
        Expr::Unary(UnaryOp::Not, x) => match &*operand(x, vars, params, calls)? {
            Value::Bool(b) => Ok(Truth::Bool(!b)),
            v => Err(EvalError::Type(format!("`!` needs true or false, got {v}"))),
        },
        other => Ok(truth_of(operand(other, vars, params, calls)?.into_owned())),
    }
}

/// A number computed in registers: an integer, or a decimal once any operand is one (shared
/// with the compiled programs of `numprog`, which compute the same arithmetic).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    Int(i64),
    Dec(f64),
}

impl Num {
    /// The number a value holds, if it holds one.
    #[inline(always)]
    pub fn of(v: &Value) -> Option<Num> {
        match v {
            Value::Int(i) => Some(Num::Int(*i)),
            Value::Num(x) => Some(Num::Dec(*x)),
            _ => None,
        }
    }

    #[inline(always)]
    pub(crate) fn to_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Dec(x) => x,
        }
    }

    /// The number as a value.
    #[inline(always)]
    pub fn value(self) -> Value {
        match self {
            Num::Int(i) => Value::Int(i),
            Num::Dec(x) => Value::Num(x),
        }
    }
}

/// `x OP y` for `OP` one of `+ - * / %` (callers check; another is taken as `%`) with the rule
/// language's arithmetic: integers stay integral (checked, `/` truncating toward zero), any
/// decimal operand makes a decimal. `None` for an overflow or a zero divisor: the general path's
/// error to raise.
#[inline(always)]
pub fn arith(op: BinaryOp, x: Num, y: Num) -> Option<Num> {
    use BinaryOp::*;
    if let (Num::Int(x), Num::Int(y)) = (x, y) {
        return match op {
            Add => x.checked_add(y),
            Sub => x.checked_sub(y),
            Mul => x.checked_mul(y),
            Div => x.checked_div(y),
            _ => x.checked_rem(y),
        }
        .map(Num::Int);
    }
    let (x, y) = (x.to_f64(), y.to_f64());
    Some(Num::Dec(match op {
        Add => x + y,
        Sub => x - y,
        Mul => x * y,
        Div if y != 0.0 => x / y,
        Rem if y != 0.0 => x % y,
        _ => return None,
    }))
}

/// `-x` (`None` on an overflow).
#[inline(always)]
pub fn neg(x: Num) -> Option<Num> {
    match x {
        Num::Int(i) => i.checked_neg().map(Num::Int),
        Num::Dec(x) => Some(Num::Dec(-x)),
    }
}

/// The value of an integer expression (see [`pure_num`]), `None` for a decimal one too.
#[inline]
fn pure_int(e: &Expr, vars: &[Value], params: &[Value], calls: &mut u64) -> Option<i64> {
    match pure_num(e, vars, params, calls)? {
        Num::Int(i) => Some(i),
        Num::Dec(_) => None,
    }
}

/// The value of an arithmetic expression — numeric constants, variables and parameters holding
/// numbers, `+ - * / %`, negation, a numeric element of a list (`rank_values[?r - 2]`) and
/// built-ins with a plain function answering a number (`abs(3 * ?c - ?n)`,
/// `trunc(?f * 100)`, `durak.rank_value(rank_values, ?c)`) — computed in registers, with the
/// general path's arithmetic: integers stay integral (checked, `/` truncating toward zero), and
/// any decimal operand makes the result a decimal. `None` for any other shape or type, a zero
/// divisor, an overflow or a failing built-in: the general path then evaluates it, and gives the
/// same value or raises the same error (built-ins with a plain function are pure: calling one
/// again gives the same answer). The built-ins called are added to `calls`; callers count them
/// only when the whole expression succeeds, so a fall-back counts no call twice.
///
/// Why: the general path hands each operand back as a `Result<Cow<Value>>` through memory, and
/// those copies stall on store forwarding; `?v + trump_bonus` or `3 * ?c - ?n` need none of it.
/// Decimals are here too so that a decimal expression does not first fail here at every level
/// of its tree before the general path takes it.
#[inline]
fn pure_num(e: &Expr, vars: &[Value], params: &[Value], calls: &mut u64) -> Option<Num> {
    let v = match e {
        Expr::Const(v) => v,
        Expr::Var(s) => &vars[*s as usize],
        Expr::Param(i) => &params[*i as usize],
        Expr::Binary(op, a, b) => {
            use BinaryOp::*;
            if !matches!(op, Add | Sub | Mul | Div | Rem) {
                return None;
            }
            let x = pure_num(a, vars, params, calls)?;
            let y = pure_num(b, vars, params, calls)?;
            return arith(*op, x, y);
        }
        Expr::Unary(UnaryOp::Neg, x) => return neg(pure_num(x, vars, params, calls)?),
        Expr::Call {
            direct: Some(f), args, ..
        } => return num_call(*f, args, vars, params, calls),
        Expr::Index(list, i) => {
            let items = match &**list {
                Expr::Var(s) => &vars[*s as usize],
                Expr::Param(p) => &params[*p as usize],
                Expr::Const(v) => v,
                _ => return None,
            };
            let Value::List(items) = items else {
                return None;
            };
            let Num::Int(n) = pure_num(i, vars, params, calls)? else {
                return None;
            };
            let at = if n < 0 { (items.len() as i64).checked_add(n)? } else { n };
            return Num::of(items.get(usize::try_from(at).ok()?)?);
        }
        _ => return None,
    };
    Num::of(v)
}

/// A built-in with a plain function called for a numeric answer (see `pure_num`). Its
/// arguments: a variable, parameter or constant is borrowed where it is, any other argument must
/// itself be an arithmetic expression.
#[inline(never)]
fn num_call(
    f: crate::builtins::registry::OneFn,
    args: &[Expr],
    vars: &[Value],
    params: &[Value],
    calls: &mut u64,
) -> Option<Num> {
    // Each answer is read where the built-in wrote it (see `answer`).
    let n = match args {
        [Expr::Var(s)] => answer(&f(std::slice::from_ref(&&vars[*s as usize]))),
        _ => {
            let mut computed: SmallVec<[Value; 4]> = SmallVec::new();
            for a in args.iter().filter(|a| !in_place(a)) {
                computed.push(pure_num(a, vars, params, calls)?.value());
            }
            with_args(args, vars, params, &computed, |argv| answer(&f(argv)))
        }
    }?;
    *calls += 1;
    Some(n)
}

/// `x OP y` for a comparison operator (`==` `!=` `<` `<=` `>` `>=`; any other is false).
#[inline(always)]
pub fn compare_ints(op: BinaryOp, x: i64, y: i64) -> bool {
    match op {
        BinaryOp::Eq => x == y,
        BinaryOp::Ne => x != y,
        BinaryOp::Lt => x < y,
        BinaryOp::Le => x <= y,
        BinaryOp::Gt => x > y,
        BinaryOp::Ge => x >= y,
        _ => false,
    }
}

fn truth_of(v: Value) -> Truth {
    match v {
        Value::Bool(b) => Truth::Bool(b),
        other => Truth::Other(other),
    }
}

fn truth(v: &Value, op: &str) -> Result<bool, EvalError> {
    v.as_bool()
        .ok_or_else(|| EvalError::Type(format!("`{op}` needs true or false, got {v}")))
}

/// Applies a binary operator to two values.
pub fn binary(op: BinaryOp, l: &Value, r: &Value) -> Result<Value, EvalError> {
    use BinaryOp::*;
    let text = || format!("{l} {} {r}", op.symbol());
    Ok(match op {
        Eq => Value::Bool(l.loose_eq(r)),
        Ne => Value::Bool(!l.loose_eq(r)),
        Lt | Le | Gt | Ge => {
            let ord = l
                .compare(r)
                .ok_or_else(|| EvalError::Type(format!("cannot compare {l} with {r}")))?;
            Value::Bool(match op {
                Lt => ord == Ordering::Less,
                Le => ord != Ordering::Greater,
                Gt => ord == Ordering::Greater,
                _ => ord != Ordering::Less,
            })
        }
        In => Value::Bool(
            contains(r, l).ok_or_else(|| EvalError::Type(format!("`in` needs a list on its right, got {r}")))?,
        ),
        Add | Sub | Mul | Div | Rem => match (l, r) {
            (Value::Int(a), Value::Int(b)) => {
                let v = match op {
                    Add => a.checked_add(*b),
                    Sub => a.checked_sub(*b),
                    Mul => a.checked_mul(*b),
                    Div | Rem if *b == 0 => return Err(EvalError::DivisionByZero(text())),
                    Div => a.checked_div(*b),
                    _ => a.checked_rem(*b),
                };
                Value::Int(v.ok_or_else(|| EvalError::Overflow(text()))?)
            }
            (Value::Str(a), Value::Str(b)) if op == Add => {
                if a.len() + b.len() > MAX_TEXT_LEN {
                    return Err(EvalError::Type(format!(
                        "`+` would make a text of more than {MAX_TEXT_LEN} bytes"
                    )));
                }
                Value::str(&format!("{a}{b}"))
            }
            (Value::List(a), Value::List(b)) if op == Add => {
                if a.len() + b.len() > MAX_LIST_LEN {
                    return Err(EvalError::Type(format!(
                        "`+` would make a list of more than {MAX_LIST_LEN} elements"
                    )));
                }
                Value::list(a.iter().chain(b.iter()).cloned())
            }
            _ => {
                let (Some(a), Some(b)) = (l.as_f64(), r.as_f64()) else {
                    return Err(EvalError::Type(format!("`{}` needs numbers: {}", op.symbol(), text())));
                };
                if matches!(op, Div | Rem) && b == 0.0 {
                    return Err(EvalError::DivisionByZero(text()));
                }
                Value::Num(match op {
                    Add => a + b,
                    Sub => a - b,
                    Mul => a * b,
                    Div => a / b,
                    _ => a % b,
                })
            }
        },
        And | Or => Value::Bool(
            truth(l, op.symbol())? && truth(r, op.symbol())? || (op == Or && (truth(l, "or")? || truth(r, "or")?)),
        ),
    })
}

/// `item in container`: `None` if the container is not a list or card group.
pub fn contains(container: &Value, item: &Value) -> Option<bool> {
    match container {
        Value::List(items) => Some(items.iter().any(|v| v.loose_eq(item))),
        Value::Cards(c) => Some(matches!(item, Value::Card(k) if c.cards().contains(k))),
        Value::Str(s) => match item {
            Value::Str(x) => Some(s.contains(x.as_ref())),
            _ => Some(false),
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::program::Cond;
    use crate::tests::load_text;

    /// Integer and decimal expressions with calls and list elements, evaluated in registers, give
    /// the values, errors and built-in call counts the general path gives — including the fall-backs (a
    /// decimal answer, a zero divisor, an index out of range), which count no call twice (the
    /// failing `abs` is counted once, as the general path counts a call it enters).
    #[test]
    fn integer_expressions_with_calls_and_elements_answer_as_the_general_path() {
        let prog = load_text(
            "t.rules",
            r#"ruleset t "t"
input c: int
input n: int
input l: ints
input x: decimal
output out
rule R "r"
when
    c(?c)
    n(?n)
    l(?l)
    x(?x)
    ?a = abs(3 * ?c - ?n)
    ?b = -trunc(200 * abs(3 * ?c - ?n) / ?n)
    ?d = ?l[?c - 2]
    ?e = ?l[?c + 5]
    ?f = abs(?c / (?n - 7)) + 1
    ?g = abs(1) + abs(?x)
    ?h = abs(?c) + abs(?l[0] - ?n) * greater(?c, ?n)
    ?i = -abs(?x)
    ?j = trunc((0.25 * ?n - ?c) * 600 / ?n)
    ?k = ?x / (?c - 1)
    ?m = -?x * 2 % 2 + ?l[0] / 4
    ?o = abs(?x * -2) + decimal(?n) / 2
then
    assert out(?a)
end
"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let rule = &prog.rules[0];
        let slot = |name: &str| {
            rule.var_names
                .iter()
                .position(|n| n == name)
                .unwrap_or_else(|| panic!("{name}"))
        };
        let mut vars = vec![Value::Int(0); rule.var_names.len()];
        vars[slot("?c")] = Value::Int(1);
        vars[slot("?n")] = Value::Int(7);
        vars[slot("?l")] = Value::list([10, 20, 30].map(Value::Int));
        vars[slot("?x")] = Value::Num(2.5);
        let mut got = Vec::new();
        for c in &rule.conds {
            let Cond::Bind { expr, .. } = &c.cond else { continue };
            let mut calls = 0;
            let answer = match eval(expr, &vars, &[], &mut calls) {
                Ok(v) => v.to_string(),
                Err(e) => format!("error: {e}"),
            };
            got.push(format!("{answer} ({calls} calls)"));
        }
        assert_eq!(
            got,
            [
                "4 (1 calls)",
                "-114 (2 calls)",
                "30 (0 calls)",
                "error: index 6 is out of range for a list of 3 (0 calls)",
                "error: division by zero in `1 / 0` (1 calls)",
                "3.5 (2 calls)",
                "22 (3 calls)",
                "-2.5 (1 calls)",
                "64 (1 calls)",
                "error: division by zero in `2.5 / 0` (0 calls)",
                "1.0 (0 calls)",
                "8.5 (2 calls)",
            ]
        );
    }
}
