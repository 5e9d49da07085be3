//! Two rules that can both conclude an output declared `one` (or `exactly one`) for one input:
//! decided only where it is cheap and certain. A rule is read when its conditions are patterns
//! on inputs and tests of one input's value against constants (`total(?t)`, `?t >= 15`,
//! `?t in [2, 3]`, `dealer(14)`); each rule then admits a set of values per input, and two rules
//! overlap when, input by input, some value satisfies both. The values tried are the constants
//! the tests name and their neighbours, which is complete for such tests on integers, booleans
//! and strings. Anything else (a derived fact, a built-in, a parameter, a negation) leaves the
//! pair undecided and unwarned.

use super::ast::{Answers, BinaryOp, UnaryOp};
use super::ir::{Action, Cond, Expr, InputDecl, PatArg, RelId, RuleIr, Slot};
use crate::value::{Value, ValueType};

/// A rule's demands on the inputs: per input (by index), the tests its value must pass.
struct Demands<'a> {
    tests: Vec<(usize, Test<'a>)>,
}

/// One test on an input's value.
enum Test<'a> {
    /// The value equals this constant (a pattern's literal argument).
    Equals(&'a Value),
    /// This expression holds, `slots` standing for the input's value.
    Holds(&'a Expr, Vec<Slot>),
}

/// A pair of rules that can both conclude `rel`, with the input that shows it (`total=16`).
pub struct Overlap {
    pub first: usize,
    pub second: usize,
    pub rel: RelId,
    pub answers: Answers,
    pub witness: String,
}

/// Every pair of rules that assert different constant facts of an output declared `one` or
/// `exactly one` and can both fire for one input (see the module's comment).
pub fn overlaps(rules: &[RuleIr], inputs: &[InputDecl], answers: &[(RelId, Answers)]) -> Vec<Overlap> {
    let mut out = Vec::new();
    for &(rel, how) in answers {
        // A rule set that retracts or modifies the answer, or halts, may replace it: undecided.
        let replaced = rules.iter().any(|r| {
            r.actions.iter().any(|a| match a {
                Action::Retract { rel: x, .. } | Action::Modify { rel: x, .. } => *x == rel,
                Action::RetractFact { .. } | Action::Halt => true,
                Action::Assert { .. } => false,
            })
        });
        if replaced {
            continue;
        }
        let asserting: Vec<(usize, Vec<&Value>, Demands)> = rules
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                let fact = constant_fact(r, rel)?;
                Some((i, fact, demands(r, inputs)?))
            })
            .collect();
        for (a, (i, fact_i, di)) in asserting.iter().enumerate() {
            for (j, fact_j, dj) in &asserting[a + 1..] {
                let same_group = rules[*i].group.is_some() && rules[*i].group == rules[*j].group;
                let same_fact = fact_i.len() == fact_j.len() && fact_i.iter().zip(fact_j).all(|(x, y)| x == y);
                if same_group || same_fact {
                    continue;
                }
                if let Some(witness) = witness(di, dj, inputs) {
                    out.push(Overlap {
                        first: *i,
                        second: *j,
                        rel,
                        answers: how,
                        witness,
                    });
                }
            }
        }
    }
    out
}

/// The one fact of `rel` the rule asserts, when every argument is a constant.
fn constant_fact(r: &RuleIr, rel: RelId) -> Option<Vec<&Value>> {
    let mut facts = r.actions.iter().filter_map(|a| match a {
        Action::Assert { rel: x, args, .. } if *x == rel => Some(args),
        _ => None,
    });
    let args = facts.next()?;
    if facts.next().is_some() {
        return None;
    }
    args.iter()
        .map(|e| match e {
            Expr::Const(c) => Some(c.value()),
            _ => None,
        })
        .collect()
}

/// What the rule asks of the inputs, when its conditions are all of the shapes read here.
fn demands<'a>(r: &'a RuleIr, inputs: &[InputDecl]) -> Option<Demands<'a>> {
    let mut input_of: Vec<(Slot, usize)> = Vec::new();
    let mut tests = Vec::new();
    for at in &r.conds {
        match &at.cond {
            Cond::Pattern { rel, args } => {
                let input = inputs.iter().position(|d| d.rel == *rel)?;
                match args.as_slice() {
                    [PatArg::Var(s)] => match input_of.iter().find(|(x, _)| x == s) {
                        Some((_, other)) if *other != input => return None,
                        Some(_) => {}
                        None => input_of.push((*s, input)),
                    },
                    [PatArg::Expr(Expr::Const(c))] => tests.push((input, Test::Equals(c.value()))),
                    [PatArg::Wild] => {}
                    _ => return None,
                }
            }
            Cond::Test(e) => {
                let mut slots = Vec::new();
                vars(e, &mut slots)?;
                let mut of = slots
                    .iter()
                    .map(|s| input_of.iter().find(|(x, _)| x == s).map(|(_, i)| *i));
                let input = of.next()??;
                if !of.all(|i| i == Some(input)) {
                    return None;
                }
                tests.push((input, Test::Holds(e, slots)));
            }
            _ => return None,
        }
    }
    Some(Demands { tests })
}

/// The variables of a test made only of constants, variables, lists, comparisons, logic and
/// integer arithmetic; `None` for anything else.
fn vars(e: &Expr, out: &mut Vec<Slot>) -> Option<()> {
    match e {
        Expr::Const(_) => Some(()),
        Expr::Var(s) => {
            out.push(*s);
            Some(())
        }
        Expr::List(items) => items.iter().try_for_each(|i| vars(i, out)),
        Expr::Unary(_, x) => vars(x, out),
        Expr::Binary(_, a, b) => {
            vars(a, out)?;
            vars(b, out)
        }
        _ => None,
    }
}

/// The inputs that let both rules fire, as `name=value` (`total=16`), or `None` when some input
/// has no value both accept (or a test could not be judged).
fn witness(a: &Demands, b: &Demands, inputs: &[InputDecl]) -> Option<String> {
    let mut shown = Vec::new();
    for (k, decl) in inputs.iter().enumerate() {
        let tests: Vec<&Test> = a
            .tests
            .iter()
            .chain(&b.tests)
            .filter(|(i, _)| *i == k)
            .map(|(_, t)| t)
            .collect();
        if tests.is_empty() {
            continue;
        }
        let mut found = None;
        for v in candidates(&tests, decl) {
            let mut all = true;
            for t in &tests {
                if !passes(t, &v)? {
                    all = false;
                    break;
                }
            }
            if all {
                found = Some(v);
                break;
            }
        }
        shown.push(format!("{}={}", decl.name, show(&found?, decl)));
    }
    Some(shown.join(" "))
}

/// The values worth trying for an input: each constant its tests name, an integer's neighbours
/// too, within the input's range; and a value unlike any (a test of `!=` holds for it).
fn candidates(tests: &[&Test], decl: &InputDecl) -> Vec<Value> {
    let mut consts: Vec<&Value> = Vec::new();
    for t in tests {
        match t {
            Test::Equals(v) => consts.push(v),
            Test::Holds(e, _) => constants(e, &mut consts),
        }
    }
    let range = match (decl.type_name.as_str(), decl.type_args.positional.first()) {
        ("rank", _) => Some((2, 14)),
        ("int", Some(&(lo, hi))) => Some((lo, hi)),
        _ => None,
    };
    let mut out: Vec<Value> = Vec::new();
    match decl.value_type {
        ValueType::Int => {
            let mut ints: Vec<i64> = consts
                .iter()
                .filter_map(|v| match v {
                    Value::Int(n) => Some(*n),
                    _ => None,
                })
                .flat_map(|n| [n.saturating_sub(1), n, n.saturating_add(1)])
                .collect();
            ints.push(0);
            if let Some((lo, hi)) = range {
                ints.extend([lo, hi]);
                ints.retain(|n| (lo..=hi).contains(n));
            }
            ints.sort_unstable();
            ints.dedup();
            out.extend(ints.into_iter().map(Value::Int));
        }
        ValueType::Bool => out.extend([Value::Bool(false), Value::Bool(true)]),
        ValueType::Str => {
            out.extend(
                consts
                    .iter()
                    .filter(|v| matches!(v, Value::Str(_)))
                    .map(|v| (*v).clone()),
            );
            out.push(Value::str("\u{1}"));
        }
        _ => {}
    }
    out
}

fn constants<'a>(e: &'a Expr, out: &mut Vec<&'a Value>) {
    match e {
        Expr::Const(c) => match c.value() {
            Value::List(items) => out.extend(items.iter()),
            v => out.push(v),
        },
        Expr::List(items) => items.iter().for_each(|i| constants(i, out)),
        Expr::Unary(_, x) => constants(x, out),
        Expr::Binary(_, a, b) => {
            constants(a, out);
            constants(b, out);
        }
        _ => {}
    }
}

/// Whether the input's value `v` passes the test; `None` when it cannot be told here.
fn passes(t: &Test, v: &Value) -> Option<bool> {
    match t {
        Test::Equals(c) => Some(c.loose_eq(v)),
        Test::Holds(e, slots) => match eval(e, slots, v)? {
            Value::Bool(b) => Some(b),
            _ => None,
        },
    }
}

fn eval(e: &Expr, slots: &[Slot], v: &Value) -> Option<Value> {
    Some(match e {
        Expr::Const(c) => c.value().clone(),
        Expr::Var(s) if slots.contains(s) => v.clone(),
        Expr::List(items) => Value::list(items.iter().map(|i| eval(i, slots, v)).collect::<Option<Vec<_>>>()?),
        Expr::Unary(UnaryOp::Not, x) => match eval(x, slots, v)? {
            Value::Bool(b) => Value::Bool(!b),
            _ => return None,
        },
        Expr::Unary(UnaryOp::Neg, x) => match eval(x, slots, v)? {
            Value::Int(n) => Value::Int(n.checked_neg()?),
            _ => return None,
        },
        Expr::Binary(op, a, b) => {
            let (x, y) = (eval(a, slots, v)?, eval(b, slots, v)?);
            match (op, &x, &y) {
                (BinaryOp::And | BinaryOp::Or, Value::Bool(p), Value::Bool(q)) => {
                    Value::Bool(if *op == BinaryOp::And { *p && *q } else { *p || *q })
                }
                (BinaryOp::Eq, ..) => Value::Bool(x.loose_eq(&y)),
                (BinaryOp::Ne, ..) => Value::Bool(!x.loose_eq(&y)),
                (BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge, Value::Int(_), Value::Int(_)) => {
                    let o = x.compare(&y)?;
                    Value::Bool(match op {
                        BinaryOp::Lt => o.is_lt(),
                        BinaryOp::Le => o.is_le(),
                        BinaryOp::Gt => o.is_gt(),
                        _ => o.is_ge(),
                    })
                }
                (BinaryOp::In, _, Value::List(items)) => Value::Bool(items.iter().any(|i| i.loose_eq(&x))),
                (BinaryOp::Add, Value::Int(p), Value::Int(q)) => Value::Int(p.checked_add(*q)?),
                (BinaryOp::Sub, Value::Int(p), Value::Int(q)) => Value::Int(p.checked_sub(*q)?),
                (BinaryOp::Mul, Value::Int(p), Value::Int(q)) => Value::Int(p.checked_mul(*q)?),
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// An input's value as a query would give it.
fn show(v: &Value, decl: &InputDecl) -> String {
    match (decl.type_name.as_str(), v) {
        ("rank", Value::Int(n)) => match n {
            11 => "J".into(),
            12 => "Q".into(),
            13 => "K".into(),
            14 => "A".into(),
            n => n.to_string(),
        },
        (_, Value::Str(s)) => format!("{:?}", s.as_str()),
        _ => v.to_string(),
    }
}
