//! The commonest tests and bindings, recognised once when a rule set is loaded and then evaluated
//! in place: `card_count(?h) == 5`, `same_suit(?h)`, `!consecutive(?h)`, `?high > ?low`,
//! `?n > 0`, `?high = high_rank(?h)`, `not category(_, _)`.
//!
//! Why: the general evaluator hands every operand back as a `Result<Cow<Value>, _>` through
//! memory, and copying those enums costs store-forwarding stalls on every operand — a test such as
//! `1 == 1` took ~25 ns, more than the built-in it calls. A recognised step reads its variable in
//! place, calls the built-in's plain function, and looks at the answer where it lies.
//!
//! A fast step never decides anything the general path would decide differently: whenever a value
//! is not of the expected type (or a built-in fails), it answers [`None`] and the caller evaluates
//! the condition the general way, which gives the same value or the same error. A built-in called
//! on the fast path before falling back is not counted twice (built-ins with a plain function are
//! pure, so calling one again gives the same answer).

use super::eval::compare_ints;
use super::memory::Memory;
use crate::builtins::registry::{Intrinsic, OneFn};
use crate::lang::ast::{BinaryOp, UnaryOp};
use crate::lang::ir::{Cond, Expr, PatArg, RelId, Slot};
use crate::value::Value;

/// A recognised test or binding.
#[derive(Clone, Copy)]
pub enum Fast {
    /// `f(?arg) OP k`: a single-valued built-in of one variable against an integer constant.
    CallCmpInt { f: OneFn, arg: Slot, cmp: BinaryOp, k: i64 },
    /// `f(?arg)` or `!f(?arg)`: a single-valued built-in answering true or false.
    CallTruth { f: OneFn, arg: Slot, negate: bool },
    /// `f(?arg) == ?b` or `f(?arg) != ?b`: a single-valued built-in against a variable of any
    /// type (`suit(?c) != ?t`), compared as the general `==` compares.
    CallEqVar { f: OneFn, arg: Slot, b: Slot, negate: bool },
    /// `suit(?card) == ?b` or `!=`: the card's suit letter against a variable, compared without
    /// making the letter (durak's `suit(?c) != ?t`, on every card of every hand, twice).
    SuitEqVar { card: Slot, b: Slot, negate: bool },
    /// `?a OP ?b`: two variables holding integers, or of any type for `==` and `!=`.
    VarCmpVar { a: Slot, b: Slot, cmp: BinaryOp },
    /// `?a OP k`: a variable holding an integer against an integer constant.
    VarCmpInt { a: Slot, cmp: BinaryOp, k: i64 },
    /// `?a OP j or ?b OP k` (or `and`): two of those, the second read only when the first does
    /// not decide (`?r > 0 or ?n > 0`).
    EitherCmpInt {
        a: Slot,
        cmp_a: BinaryOp,
        j: i64,
        b: Slot,
        cmp_b: BinaryOp,
        k: i64,
        and: bool,
    },
    /// `?v = f(?arg)` with `?v` not yet bound.
    BindCall { slot: Slot, f: OneFn, arg: Slot },
    /// `not r(_, …, _)`: no live fact of `r` at all (nothing to bind or compare).
    NoFact { rel: RelId },
}

impl Fast {
    /// The fast form of a condition, if it has one.
    pub fn of<L>(cond: &Cond<L>) -> Option<Fast> {
        match cond {
            Cond::Test(e) => Fast::of_test(e),
            Cond::Bind { slot, expr } => {
                let (f, arg) = direct_call(expr)?;
                Some(Fast::BindCall { slot: *slot, f, arg })
            }
            Cond::Not { body } => match &body[..] {
                [at] => match &at.cond {
                    Cond::Pattern { rel, args } if args.iter().all(|a| matches!(a, PatArg::Wild)) => {
                        Some(Fast::NoFact { rel: *rel })
                    }
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    fn of_test(e: &Expr) -> Option<Fast> {
        match e {
            Expr::Binary(op @ (BinaryOp::Or | BinaryOp::And), l, r) => {
                let (Some(Fast::VarCmpInt { a, cmp: cmp_a, k: j }), Some(Fast::VarCmpInt { a: b, cmp: cmp_b, k })) =
                    (Fast::of_test(l), Fast::of_test(r))
                else {
                    return None;
                };
                Some(Fast::EitherCmpInt {
                    a,
                    cmp_a,
                    j,
                    b,
                    cmp_b,
                    k,
                    and: *op == BinaryOp::And,
                })
            }
            Expr::Binary(op, a, b) => {
                use BinaryOp::*;
                let cmp = *op;
                if !matches!(cmp, Eq | Ne | Lt | Le | Gt | Ge) {
                    return None;
                }
                match (&**a, &**b) {
                    (Expr::Var(a), Expr::Var(b)) => Some(Fast::VarCmpVar { a: *a, b: *b, cmp }),
                    (call, Expr::Var(b)) if matches!(cmp, Eq | Ne) => {
                        let (f, arg) = direct_call(call)?;
                        if matches!(call, Expr::Call { builtin, .. } if builtin.intrinsic() == Some(Intrinsic::SuitLetter))
                        {
                            return Some(Fast::SuitEqVar {
                                card: arg,
                                b: *b,
                                negate: cmp == Ne,
                            });
                        }
                        Some(Fast::CallEqVar {
                            f,
                            arg,
                            b: *b,
                            negate: cmp == Ne,
                        })
                    }
                    (Expr::Var(a), Expr::Const(k)) if matches!(k.value(), Value::Int(_)) => Some(Fast::VarCmpInt {
                        a: *a,
                        cmp,
                        k: k.as_int()?,
                    }),
                    (call, Expr::Const(k)) if matches!(k.value(), Value::Int(_)) => {
                        let (f, arg) = direct_call(call)?;
                        Some(Fast::CallCmpInt {
                            f,
                            arg,
                            cmp,
                            k: k.as_int()?,
                        })
                    }
                    _ => None,
                }
            }
            Expr::Unary(UnaryOp::Not, x) => {
                let (f, arg) = direct_call(x)?;
                Some(Fast::CallTruth { f, arg, negate: true })
            }
            call => {
                let (f, arg) = direct_call(call)?;
                Some(Fast::CallTruth { f, arg, negate: false })
            }
        }
    }

    /// A test of one variable (`f(?x) OP k`, `f(?x)`, `?x OP k`) decided on `v`, the variable's
    /// value: `run` on a binding, and the shared tests on a new fact's argument before any
    /// binding. `None` for the other forms, or when the general evaluator must decide.
    #[inline(always)]
    pub fn test_value(&self, v: &Value, calls: &mut u64) -> Option<bool> {
        match *self {
            Fast::CallCmpInt { f, cmp, k, .. } => match f(std::slice::from_ref(&v)) {
                Ok(Value::Int(n)) => {
                    *calls += 1;
                    Some(compare_ints(cmp, n, k))
                }
                _ => None,
            },
            Fast::CallTruth { f, negate, .. } => match f(std::slice::from_ref(&v)) {
                Ok(Value::Bool(b)) => {
                    *calls += 1;
                    Some(b != negate)
                }
                _ => None,
            },
            Fast::VarCmpInt { cmp, k, .. } => match v {
                Value::Int(x) => Some(compare_ints(cmp, *x, k)),
                _ => None,
            },
            _ => None,
        }
    }

    /// The variable a test of one variable reads.
    pub fn one_var(&self) -> Option<Slot> {
        match *self {
            Fast::CallCmpInt { arg, .. } | Fast::CallTruth { arg, .. } | Fast::VarCmpInt { a: arg, .. } => Some(arg),
            _ => None,
        }
    }

    /// True if both test their one variable the same way (the same plain function, comparison
    /// and constant), whichever variable each reads.
    pub fn same_test(&self, other: &Fast) -> bool {
        match (*self, *other) {
            (
                Fast::CallCmpInt { f, cmp, k, .. },
                Fast::CallCmpInt {
                    f: g, cmp: c2, k: k2, ..
                },
            ) => std::ptr::fn_addr_eq(f, g) && cmp == c2 && k == k2,
            (Fast::CallTruth { f, negate, .. }, Fast::CallTruth { f: g, negate: n2, .. }) => {
                std::ptr::fn_addr_eq(f, g) && negate == n2
            }
            (Fast::VarCmpInt { cmp, k, .. }, Fast::VarCmpInt { cmp: c2, k: k2, .. }) => cmp == c2 && k == k2,
            _ => false,
        }
    }

    /// Runs the step: `Some(true)` passes (a binding made), `Some(false)` fails, `None` leaves the
    /// condition to the general evaluator (nothing bound, the call count as it was).
    #[inline(always)]
    pub fn run(&self, mem: &Memory, vars: &mut [Value], mask: &mut u64, calls: &mut u64) -> Option<bool> {
        match *self {
            Fast::NoFact { rel } => Some(!mem.of_relation(rel).iter().any(|&f| mem.is_alive(f))),
            Fast::CallCmpInt { arg, .. } | Fast::CallTruth { arg, .. } | Fast::VarCmpInt { a: arg, .. } => {
                self.test_value(&vars[arg as usize], calls)
            }
            Fast::CallEqVar { f, arg, b, negate } => match f(std::slice::from_ref(&&vars[arg as usize])) {
                Ok(v) => {
                    *calls += 1;
                    Some(v.loose_eq(&vars[b as usize]) != negate)
                }
                Err(_) => None,
            },
            // As `suit` answers (its letter `S H D C`) and `==` compares two texts: the same
            // bytes. Anything but a card against a text goes the general way.
            Fast::SuitEqVar { card, b, negate } => match (&vars[card as usize], &vars[b as usize]) {
                (Value::Card(c), Value::Str(t)) => {
                    *calls += 1;
                    Some((t.as_bytes() == [c.suit().letter() as u8]) != negate)
                }
                _ => None,
            },
            Fast::VarCmpVar { a, b, cmp } => match (&vars[a as usize], &vars[b as usize]) {
                (Value::Int(x), Value::Int(y)) => Some(compare_ints(cmp, *x, *y)),
                // `==` and `!=` hold or fail between any two values (`binary` compares them so):
                // `?s != ?t` on two suits is decided here.
                (x, y) if cmp == BinaryOp::Eq => Some(x.loose_eq(y)),
                (x, y) if cmp == BinaryOp::Ne => Some(!x.loose_eq(y)),
                _ => None,
            },
            // As the general `or` and `and`: the first side decides when it can; the second is
            // read only when it must be (and any value but an integer goes the general way).
            Fast::EitherCmpInt {
                a,
                cmp_a,
                j,
                b,
                cmp_b,
                k,
                and,
            } => {
                let Value::Int(x) = vars[a as usize] else {
                    return None;
                };
                let first = compare_ints(cmp_a, x, j);
                if first != and {
                    return Some(first);
                }
                match vars[b as usize] {
                    Value::Int(y) => Some(compare_ints(cmp_b, y, k)),
                    _ => None,
                }
            }
            Fast::BindCall { slot, f, arg } => {
                if *mask & (1u64 << slot) != 0 {
                    return None;
                }
                match f(std::slice::from_ref(&&vars[arg as usize])) {
                    Ok(v) => {
                        *calls += 1;
                        vars[slot as usize] = v;
                        *mask |= 1u64 << slot;
                        Some(true)
                    }
                    Err(_) => None,
                }
            }
        }
    }
}

/// `f(?arg)`: a single-valued built-in with a plain function, called on one variable.
fn direct_call(e: &Expr) -> Option<(OneFn, Slot)> {
    match e {
        Expr::Call {
            args, direct: Some(f), ..
        } => match args.as_slice() {
            [Expr::Var(s)] => Some((*f, *s)),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Card;
    use crate::tests::load_text;

    /// The fast forms each rule's conditions got, in order (`-` for none).
    fn shapes(text: &str) -> Vec<String> {
        let prog = load_text("t.rules", text).unwrap_or_else(|e| panic!("{e}"));
        prog.rules[0]
            .conds
            .iter()
            .map(|c| match c.low.fast() {
                None => "-".to_string(),
                Some(Fast::CallCmpInt { cmp, k, .. }) => format!("call {cmp:?} {k}"),
                Some(Fast::CallTruth { negate, .. }) => format!("truth negate={negate}"),
                Some(Fast::CallEqVar { negate, .. }) => format!("call eq var negate={negate}"),
                Some(Fast::SuitEqVar { negate, .. }) => format!("suit eq var negate={negate}"),
                Some(Fast::VarCmpVar { cmp, .. }) => format!("var {cmp:?} var"),
                Some(Fast::VarCmpInt { cmp, k, .. }) => format!("var {cmp:?} {k}"),
                Some(Fast::EitherCmpInt { and, .. }) => format!("either and={and}"),
                Some(Fast::BindCall { .. }) => "bind call".to_string(),
                Some(Fast::NoFact { .. }) => "no fact".to_string(),
            })
            .collect()
    }

    #[test]
    fn recognises_the_common_shapes_and_only_those() {
        let got = shapes(
            r#"ruleset t "t"
input hand: cards(1..5)
output out
rule R "r"
when
    hand(?h)
    card_count(?h) == 5
    same_suit(?h)
    !consecutive(?h)
    ?a = high_rank(?h)
    ?b = card_count(?h)
    ?a > ?b
    ?a >= 3
    card_count(?h) + 1 > 2
    5 == card_count(?h)
    ?c = card_list(?h)[0]
    ?d = rank_held(?h, 2)
    card_count(?h) != ?a
    card_count(?h) == ?b
    card_count(?h) < ?b
    suit(?c) != ?b
    suit(?c) == ?b
    ?a > 0 or ?b > 0
    ?a >= 1 and ?b != 2
    ?a > 0 or ?b > ?a
    not out(_)
    not out(?a)
    not { out(_), ?a > 1 }
then
    assert out(?a)
end
"#,
        );
        assert_eq!(
            got,
            [
                "-",
                "call Eq 5",
                "truth negate=false",
                "truth negate=true",
                "bind call",
                "bind call",
                "var Gt var",
                "var Ge 3",
                "-",
                "-",
                "-",
                "-",
                "call eq var negate=true",
                "call eq var negate=false",
                "-",
                "suit eq var negate=true",
                "suit eq var negate=false",
                "either and=false",
                "either and=true",
                "-",
                "no fact",
                "-",
                "-"
            ]
        );
    }

    /// Every fast outcome equals the general evaluator's, including the fall-backs.
    #[test]
    fn fast_steps_agree_with_the_general_evaluator() {
        use crate::engine::eval::{eval_test, Truth};
        let prog = load_text(
            "t.rules",
            r#"ruleset t "t"
input hand: cards(0..5)
output out
rule R "r"
when
    hand(?h)
    ?a = card_count(?h)
    ?b = card_count(?h)
    card_count(?h) == 5
    card_count(?h) != 5
    card_count(?h) < 3
    card_count(?h) <= 3
    card_count(?h) > 3
    card_count(?h) >= 3
    same_suit(?h)
    !same_suit(?h)
    ?a > ?b
    ?a <= ?b
    ?a == ?b
    ?a != ?b
    ?a == 2
    ?a != 2
    card_count(?h) == ?a
    card_count(?h) != ?b
    ?a > 2 or ?b > 2
    ?a > 2 and ?b > 2
    ?a == 3 or ?b != 3
then
    assert out(1)
end
"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let hands = ["", "2H", "2H 3H 4H", "2H 3H 4H 5H 6H", "2H 3S 4H 5H 9D"];
        let values = [
            Value::Int(1),
            Value::Int(2),
            Value::Int(3),
            Value::Num(2.0),
            Value::str("x"),
        ];
        let rule = &prog.rules[0];
        let mem = crate::engine::memory::Memory::new(vec![Vec::new(); prog.relations.len()]);
        let (h, a, b) = (0u16, 1u16, 2u16);
        let slot = |name: &str| rule.var_names.iter().position(|n| n == name).map(|p| p as u16);
        assert_eq!((slot("?h"), slot("?a"), slot("?b")), (Some(h), Some(a), Some(b)));
        for text in hands {
            let cards = crate::cards::parse_cards(text, &crate::cards::CardSpec::default(), "hand")
                .unwrap_or_else(|e| panic!("{e}"));
            for x in &values {
                for y in &values {
                    let mut vars = vec![
                        Value::Cards(crate::value::Shared::new(cards.clone())),
                        x.clone(),
                        y.clone(),
                    ];
                    for c in &rule.conds[3..] {
                        let Cond::Test(e) = &c.cond else { unreachable!() };
                        let general = match eval_test(e, &vars, &[], &mut 0) {
                            Ok(Truth::Bool(t)) => Some(t),
                            _ => None,
                        };
                        let mut mask = 0b111;
                        let mut calls = 0;
                        let fast = c.low.fast().and_then(|f| f.run(&mem, &mut vars, &mut mask, &mut calls));
                        if let Some(t) = fast {
                            assert_eq!(Some(t), general, "{text} {x} {y}");
                        } else {
                            assert_eq!(calls, 0, "a fall-back counts no call");
                        }
                        assert_eq!(mask, 0b111);
                    }
                }
            }
        }
    }

    /// `suit(?c) == ?t` and `!=` decided in place agree with the general evaluator for every card
    /// against texts (each letter, lower case, a symbol, longer) and other kinds, and fall back
    /// (counting no call) whenever `?c` is not a card.
    #[test]
    fn the_suit_test_agrees_with_the_general_evaluator() {
        use crate::engine::eval::{eval_test, Truth};
        let prog = load_text(
            "t.rules",
            r#"ruleset t "t"
input c: card
input t: string
output out
rule R "r"
when
    c(?c)
    t(?t)
    suit(?c) == ?t
    suit(?c) != ?t
then
    assert out(1)
end
"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let rule = &prog.rules[0];
        assert!(rule.conds[2..]
            .iter()
            .all(|c| matches!(c.low.fast(), Some(Fast::SuitEqVar { .. }))));
        let mem = crate::engine::memory::Memory::new(vec![Vec::new(); prog.relations.len()]);
        let mut cards: Vec<Value> = (0..52).filter_map(Card::from_index).map(Value::Card).collect();
        cards.extend([Value::Int(3), Value::str("S")]);
        let others = ["S", "H", "D", "C", "s", "♠", "SS", ""]
            .map(Value::str)
            .into_iter()
            .chain([
                Value::fixed("D"),
                Value::Int(0),
                Value::Card(Card::from_index(0).expect("a card")),
            ]);
        let others: Vec<Value> = others.collect();
        let mut decided = 0;
        for c in &cards {
            for t in &others {
                for cond in &rule.conds[2..] {
                    let Cond::Test(e) = &cond.cond else { unreachable!() };
                    let mut vars = vec![c.clone(), t.clone()];
                    let general = match eval_test(e, &vars, &[], &mut 0) {
                        Ok(Truth::Bool(b)) => Some(b),
                        _ => None,
                    };
                    let (mut mask, mut calls) = (0b11, 0);
                    match cond
                        .low
                        .fast()
                        .and_then(|f| f.run(&mem, &mut vars, &mut mask, &mut calls))
                    {
                        Some(b) => {
                            assert_eq!(Some(b), general, "{c} {t}");
                            assert_eq!(calls, 1);
                            decided += 1;
                        }
                        None => {
                            assert!(!matches!(c, Value::Card(_)) || !matches!(t, Value::Str(_)), "{c} {t}");
                            assert_eq!(calls, 0, "a fall-back counts no call");
                        }
                    }
                }
            }
        }
        assert_eq!(decided, 52 * 9 * 2);
    }
    /// The standard `suit` declares the suit-letter intrinsic and answers each card's letter, as
    /// `SuitEqVar` compares it.
    #[test]
    fn the_standard_suit_answers_its_letter() {
        let reg = crate::builtins::Registry::general();
        let suit = reg.get("suit").unwrap_or_else(|| unreachable!());
        assert_eq!(suit.intrinsic(), Some(Intrinsic::SuitLetter));
        let f = suit.direct().unwrap_or_else(|| unreachable!());
        for i in 0..52 {
            let c = Card::from_index(i).unwrap_or_else(|| unreachable!());
            assert!(matches!(f(&[&Value::Card(c)]), Ok(Value::Str(t)) if t.as_bytes() == [c.suit().letter() as u8]));
        }
    }
}
