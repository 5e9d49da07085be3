//! Arithmetic conditions compiled to a flat postfix program when a rule set is loaded:
//! `?v = -trunc(suit_balance_penalty * abs(3 * ?c - ?n) / ?n)`, `?n = card_count(?h) -
//! count_suit(?h, ?t)`, `?rv = rank_values[?r - 2]`, `count_rank(?on, rank(?c)) > 0`.
//!
//! Why: the tree walker (`eval::pure_num`) pays a recursive call per node, and hands every
//! intermediate number back through memory as an `Option`; a durak hand value evaluated about
//! twenty such expressions, ~600 instructions each for the longest. Here the nodes are a list of
//! steps run in one loop over a small stack of numbers. How the numbers are kept matters more
//! than how many instructions run: an array of `Num` enums writes and reads back each number as
//! a block, which stalls on store forwarding; see `NumProg::compute`.
//!
//! The program computes exactly what `pure_num` computes, with the same arithmetic (integers stay
//! integral, checked, `/` truncating toward zero; any decimal operand makes a decimal), and gives
//! up in the same cases — a value of another type, a zero divisor, an overflow, a failing
//! built-in, an index out of range — by answering [`None`]: the caller then evaluates the
//! condition the general way, which gives the same value or raises the same error. Built-ins
//! with a plain function are pure, so one called here before giving up and called again by the
//! general path answers the same. `tests` checks the two against each other on random trees.

pub use super::eval::Num;
use super::eval::{answer, arith, compare_ints, neg, with_borrowed};
use crate::builtins::registry::{Intrinsic, OneFn};
use crate::lang::ast::{BinaryOp, UnaryOp};
use crate::lang::ir::{Cond, Expr, Slot};
use crate::value::{Constant, Value, ValueType};
use std::mem::ManuallyDrop;

/// The deepest stack a program may need; deeper expressions are left to the tree walker.
const STACK: usize = 12;
/// The most arguments a compiled built-in call may take.
const MAX_ARGS: usize = 4;

/// Where a value read in place comes from.
#[derive(Clone)]
enum Src {
    Var(Slot),
    Param(u16),
    Const(Constant),
}

impl Src {
    fn of(e: &Expr) -> Option<Src> {
        Some(match e {
            Expr::Var(s) => Src::Var(*s),
            Expr::Param(i) => Src::Param(*i),
            Expr::Const(v) => Src::Const(v.clone()),
            _ => return None,
        })
    }

    #[inline(always)]
    fn read<'a>(&'a self, vars: &'a [Value], params: &'a [Value]) -> &'a Value {
        match self {
            Src::Var(s) => &vars[*s as usize],
            Src::Param(i) => &params[*i as usize],
            Src::Const(v) => v,
        }
    }
}

/// A built-in argument: read in place, or the next number computed on the stack.
#[derive(Clone)]
enum Arg {
    Read(Src),
    Computed,
}

/// One step of a program.
#[derive(Clone)]
enum Op {
    /// Push a number read from a variable, a parameter or a constant.
    Push(Src),
    /// Pop two numbers, push their sum, difference, product, quotient or remainder.
    Arith(BinaryOp),
    /// Pop a number and push it combined with one read in place (`?v * rank_multiplier`): a
    /// push and an `Arith` in one step, one dispatch fewer.
    ArithWith(BinaryOp, Src),
    Neg,
    /// Call a built-in with one variable: its answer, a number, is pushed.
    CallVar {
        f: OneFn,
        slot: Slot,
    },
    /// Call a built-in; its computed arguments are popped (in order), its answer pushed.
    Call {
        f: OneFn,
        args: Box<[Arg]>,
        computed: u8,
    },
    /// Pop an index, push that element of a list read in place (negative: from the end).
    Index(Src),
    /// A built-in computed here, on numbers popped from the stack: no call, no `Value`s.
    Native(Native),
}

/// Built-ins of numbers a program computes itself (`abs(3 * ?c - ?n)`, `trunc(…)`,
/// `greater(?rv, 1)`): those that declare the [`Intrinsic`], which promises that they answer
/// numbers exactly as it is computed here (the tests hold the standard ones to it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Native {
    Abs,
    Trunc,
    Greater,
    Lesser,
}

impl Native {
    /// The native form of a call with `arity` arguments of a built-in that declares `intrinsic`.
    fn of(intrinsic: Option<Intrinsic>, arity: usize) -> Option<Native> {
        Some(match (intrinsic?, arity) {
            (Intrinsic::Abs, 1) => Native::Abs,
            (Intrinsic::Trunc, 1) => Native::Trunc,
            (Intrinsic::Greater, 2) => Native::Greater,
            (Intrinsic::Lesser, 2) => Native::Lesser,
            _ => return None,
        })
    }

    /// Whether it takes two numbers (else one).
    #[inline(always)]
    fn binary(self) -> bool {
        matches!(self, Native::Greater | Native::Lesser)
    }

    /// The answer for the arguments `x, y` (`y` alone for one taking one); `None` where the
    /// built-in fails. Numbers in, a number out, and no stack: a stack passed by reference would
    /// keep the program loop's stack depth in memory, and every push and pop would wait on the
    /// store before it (see `NumProg::compute`). Out of line, so that the program loop stays small
    /// for the programs that compute none.
    #[inline(never)]
    pub fn apply(self, x: Num, y: Num) -> Option<Num> {
        Some(match self {
            Native::Abs => match y {
                Num::Int(i) => Num::Int(i.checked_abs()?),
                Num::Dec(x) => Num::Dec(x.abs()),
            },
            // As the built-in computes it, without the library call `f64::trunc` is on this
            // target: an integer is its own answer, and a bounded finite decimal converted to an
            // integer is truncated toward zero by the conversion itself.
            Native::Trunc => {
                let x = match y {
                    Num::Int(i) => return Some(Num::Int(i)),
                    Num::Dec(x) => x,
                };
                if !(x.is_finite() && x.abs() < 9.0e18) {
                    return None;
                }
                Num::Int(x as i64)
            }
            Native::Greater | Native::Lesser => {
                let (a, b) = (x, y);
                let order = match (a, b) {
                    (Num::Int(x), Num::Int(y)) => Some(y.cmp(&x)),
                    _ => b.to_f64().partial_cmp(&a.to_f64()),
                };
                let wanted = match self {
                    Native::Greater => std::cmp::Ordering::Greater,
                    _ => std::cmp::Ordering::Less,
                };
                if order == Some(wanted) {
                    b
                } else {
                    a
                }
            }
        })
    }
}

/// What a program's result is used for.
#[derive(Clone, Copy)]
enum End {
    /// `?slot = expr`: the number is bound.
    Bind(Slot),
    /// `a OP b`, both integers: true or false.
    Compare(BinaryOp),
}

/// A compiled arithmetic condition.
#[derive(Clone)]
pub struct NumProg {
    ops: Box<[Op]>,
    end: End,
    /// The built-ins a complete run calls (all of them: arithmetic does not branch).
    calls: u64,
    /// The slot a binding binds (0 for a test, unused).
    slot: Slot,
}

const RAW_NONE: u64 = 0;
const RAW_FALSE: u64 = 1;
const RAW_TRUE: u64 = 2;
const RAW_INT: u64 = 3;
const RAW_DEC: u64 = 4;

/// What a program run decided.
pub enum Outcome {
    /// The test passed or failed.
    Test(bool),
    /// The number to bind.
    Bound(Slot, Num),
}

impl NumProg {
    /// The compiled form of a test or binding, if it is arithmetic throughout.
    pub fn of<L>(cond: &Cond<L>) -> Option<NumProg> {
        let mut b = Builder::default();
        let end = match cond {
            Cond::Bind { slot, expr } => {
                // A built-in or an index on its own is compiled only when its answer is declared
                // a number: `?name = durak.suit_name(?s)` would give up at every run.
                let numeric = match expr {
                    Expr::Call { builtin, .. } => matches!(
                        builtin.signature().outputs.as_slice(),
                        [ValueType::Int | ValueType::Num]
                    ),
                    Expr::Binary(..) | Expr::Unary(UnaryOp::Neg, _) | Expr::Index(..) => true,
                    _ => false,
                };
                if !numeric {
                    return None;
                }
                b.expr(expr)?;
                End::Bind(*slot)
            }
            Cond::Test(Expr::Binary(op, l, r))
                if matches!(
                    op,
                    BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
                ) =>
            {
                // The commonest comparisons have their own fast forms (`fast`); this is for
                // those that compute a side (`?loss < throw_base - throw_per_stock * ?r`,
                // `count_rank(?on, rank(?c)) > 0`). Two values read as they are may well be
                // texts (`?s != ?t`): those are left to the general comparison.
                let computed = |e: &Expr| !matches!(e, Expr::Var(_) | Expr::Param(_) | Expr::Const(_));
                if !computed(l) && !computed(r) {
                    return None;
                }
                b.expr(l)?;
                b.expr(r)?;
                End::Compare(*op)
            }
            _ => return None,
        };
        Some(NumProg {
            ops: b.ops.into_boxed_slice(),
            slot: match end {
                End::Bind(slot) => slot,
                End::Compare(_) => 0,
            },
            end,
            calls: b.calls,
        })
    }

    /// The slot a binding binds (`None` for a test).
    pub fn binds(&self) -> Option<Slot> {
        match self.end {
            End::Bind(slot) => Some(slot),
            End::Compare(_) => None,
        }
    }

    /// Runs the program; `None` when the general evaluator must decide (see the module's notes).
    /// The built-ins called are added to `calls` only on success.
    #[inline(always)]
    pub fn run(&self, vars: &[Value], params: &[Value], calls: &mut u64) -> Option<Outcome> {
        let (kind, bits) = self.run_raw(vars, params, calls);
        match kind {
            RAW_FALSE => Some(Outcome::Test(false)),
            RAW_TRUE => Some(Outcome::Test(true)),
            RAW_INT => Some(Outcome::Bound(self.slot, Num::Int(bits as i64))),
            RAW_DEC => Some(Outcome::Bound(self.slot, Num::Dec(f64::from_bits(bits)))),
            _ => None,
        }
    }

    /// The run itself, its answer as two words (what it is, and a number's bits): returned in
    /// registers, where an `Option<Outcome>` went through memory and stalled the caller reading
    /// it back (store forwarding).
    #[inline(never)]
    fn run_raw(&self, vars: &[Value], params: &[Value], calls: &mut u64) -> (u64, u64) {
        match self.compute(vars, params, calls) {
            Some(Outcome::Test(false)) => (RAW_FALSE, 0),
            Some(Outcome::Test(true)) => (RAW_TRUE, 0),
            Some(Outcome::Bound(_, Num::Int(i))) => (RAW_INT, i as u64),
            Some(Outcome::Bound(_, Num::Dec(x))) => (RAW_DEC, x.to_bits()),
            None => (RAW_NONE, 0),
        }
    }

    #[inline(always)]
    fn compute(&self, vars: &[Value], params: &[Value], calls: &mut u64) -> Option<Outcome> {
        // The numbers computed: each one's bits in a word, whether it is a decimal in a bit of
        // `decimal`. Not an array of `Num`: a number is written and read back moments later,
        // and a two-field enum copied as one block stalled on store forwarding. The depth and
        // the mask are plain locals, and nothing takes the stack by reference (a built-in's
        // call gets the words it reads, `Native::apply` numbers): a stack struct passed by
        // reference kept them in memory, and every push and pop waited on the store of the one
        // before (a fifth of this loop's time samples sat on reloads of the depth).
        let mut bits = [0u64; STACK];
        let mut decimal: u32 = 0;
        let mut len: usize = 0;
        macro_rules! push {
            ($n:expr) => {{
                let n: Num = $n;
                match n {
                    Num::Int(i) => {
                        bits[len] = i as u64;
                        decimal &= !(1 << len);
                    }
                    Num::Dec(x) => {
                        bits[len] = x.to_bits();
                        decimal |= 1 << len;
                    }
                }
                len += 1;
            }};
        }
        macro_rules! pop {
            () => {{
                len -= 1;
                num_at(bits[len], decimal >> len & 1 != 0)
            }};
        }
        for op in self.ops.iter() {
            match op {
                Op::Push(src) => push!(Num::of(src.read(vars, params))?),
                Op::Arith(op) => {
                    let y = pop!();
                    let x = pop!();
                    push!(arith(*op, x, y)?);
                }
                Op::ArithWith(op, src) => {
                    let y = Num::of(src.read(vars, params))?;
                    let x = pop!();
                    push!(arith(*op, x, y)?);
                }
                Op::Neg => {
                    let x = neg(pop!())?;
                    push!(x);
                }
                Op::CallVar { f, slot } => {
                    push!(answer(&f(std::slice::from_ref(&&vars[*slot as usize])))?);
                }
                Op::Call { f, args, computed } => {
                    let base = len - *computed as usize;
                    let answer = call(*f, args, &bits[base..len], decimal >> base, vars, params)?;
                    len = base;
                    push!(answer);
                }
                Op::Native(native) => {
                    let y = pop!();
                    let x = if native.binary() { pop!() } else { Num::Int(0) };
                    push!(native.apply(x, y)?);
                }
                Op::Index(list) => {
                    let Value::List(items) = list.read(vars, params) else {
                        return None;
                    };
                    let Num::Int(n) = pop!() else {
                        return None;
                    };
                    let at = if n < 0 { (items.len() as i64).checked_add(n)? } else { n };
                    push!(Num::of(items.get(usize::try_from(at).ok()?)?)?);
                }
            }
        }
        let first = num_at(bits[0], decimal & 1 != 0);
        let outcome = match self.end {
            End::Bind(slot) => Outcome::Bound(slot, first),
            End::Compare(op) => match (first, num_at(bits[1], decimal >> 1 & 1 != 0)) {
                (Num::Int(x), Num::Int(y)) => Outcome::Test(compare_ints(op, x, y)),
                // Decimals compare the general way (which also orders them).
                _ => return None,
            },
        };
        *calls += self.calls;
        Some(outcome)
    }
}

/// A number from its bits and whether it is a decimal.
#[inline(always)]
fn num_at(bits: u64, decimal: bool) -> Num {
    match decimal {
        false => Num::Int(bits as i64),
        true => Num::Dec(f64::from_bits(bits)),
    }
}

/// A built-in called with its arguments borrowed where they are and the numbers computed for it.
///
/// The answer is read where the built-in wrote it: moved as a `Value` (or a `Result`), the
/// compiler copies an enum in overlapping pieces through the stack, and reading them back stalls
/// on store forwarding. Out of line, so that the program loop stays small.
#[inline(never)]
fn call(f: OneFn, args: &[Arg], computed: &[u64], decimal: u32, vars: &[Value], params: &[Value]) -> Option<Num> {
    // The computed numbers as values. A number holds nothing shared, so they are not dropped
    // (dropping them would test each one's kind).
    let mut numbers = [const { ManuallyDrop::new(Value::Int(0)) }; MAX_ARGS];
    for (k, (slot, &bits)) in numbers.iter_mut().zip(computed).enumerate() {
        *slot = ManuallyDrop::new(num_at(bits, decimal >> k & 1 != 0).value());
    }
    let mut next = numbers.iter().take(computed.len());
    // The answer is read inside the closure, where the built-in wrote it, not moved out of it.
    with_borrowed(
        args,
        |a| match a {
            Arg::Read(src) => Some(src.read(vars, params)),
            Arg::Computed => next.next().map(|v| &**v),
        },
        |argv| answer(&f(argv)),
    )
    .flatten()
}

#[derive(Default)]
struct Builder {
    ops: Vec<Op>,
    depth: usize,
    calls: u64,
}

/// A number the program can push as it is: a numeric constant, a variable or a parameter.
fn num_leaf(e: &Expr) -> bool {
    match e {
        Expr::Const(k) => matches!(k.value(), Value::Int(_) | Value::Num(_)),
        Expr::Var(_) | Expr::Param(_) => true,
        _ => false,
    }
}

impl Builder {
    fn push(&mut self, op: Op, change: isize) -> Option<()> {
        self.depth = self.depth.checked_add_signed(change)?;
        if self.depth > STACK {
            return None;
        }
        self.ops.push(op);
        Some(())
    }

    /// Appends the steps that push the value of `e` (the shapes `pure_num` computes).
    fn expr(&mut self, e: &Expr) -> Option<()> {
        match e {
            leaf if num_leaf(leaf) => self.push(Op::Push(Src::of(e)?), 1),
            Expr::Binary(
                op @ (BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem),
                a,
                b,
            ) => {
                self.expr(a)?;
                match &**b {
                    leaf if num_leaf(leaf) => self.push(Op::ArithWith(*op, Src::of(b)?), 0),
                    _ => {
                        self.expr(b)?;
                        self.push(Op::Arith(*op), -1)
                    }
                }
            }
            Expr::Unary(UnaryOp::Neg, x) => {
                self.expr(x)?;
                self.push(Op::Neg, 0)
            }
            Expr::Call {
                builtin,
                direct: Some(f),
                args,
            } => {
                self.calls += 1;
                if let Some(native) = Native::of(builtin.intrinsic(), args.len()) {
                    for a in args {
                        self.expr(a)?;
                    }
                    return self.push(Op::Native(native), 1 - args.len() as isize);
                }
                if let [Expr::Var(slot)] = args.as_slice() {
                    return self.push(Op::CallVar { f: *f, slot: *slot }, 1);
                }
                if args.len() > MAX_ARGS {
                    return None;
                }
                let mut computed = 0u8;
                let mut kinds = Vec::with_capacity(args.len());
                for a in args {
                    match Src::of(a) {
                        Some(src) => kinds.push(Arg::Read(src)),
                        None => {
                            self.expr(a)?;
                            computed += 1;
                            kinds.push(Arg::Computed);
                        }
                    }
                }
                self.push(
                    Op::Call {
                        f: *f,
                        args: kinds.into_boxed_slice(),
                        computed,
                    },
                    1 - computed as isize,
                )
            }
            Expr::Index(list, i) => {
                let list = Src::of(list)?;
                self.expr(i)?;
                self.push(Op::Index(list), 0)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtins::registry::Registry;
    /// A condition as the checker leaves it, which is what `NumProg::of` reads.
    type Cond = crate::lang::ir::Cond;
    use crate::engine::eval::{eval, eval_test, Truth};
    use proptest::prelude::*;

    /// Variables 0–4: an integer, a decimal, a text, a list of numbers, and an integer that may
    /// be zero or huge; parameters 0–1: an integer and a list.
    fn call(name: &str, args: Vec<Expr>) -> Expr {
        let reg = Registry::general();
        let builtin = reg.get(name).unwrap_or_else(|| panic!("{name}")).clone();
        let direct = builtin.direct();
        Expr::Call { builtin, args, direct }
    }

    /// An expression tree as proptest shows it (`Expr` has no `Debug`).
    #[derive(Debug, Clone)]
    enum T {
        Var(u16),
        Param(u16),
        Int(i64),
        Dec(i64),
        Text,
        Bin(BinaryOp, Box<T>, Box<T>),
        Neg(Box<T>),
        Call(&'static str, Vec<T>),
        Index(bool, Box<T>),
    }

    impl T {
        fn expr(&self) -> Expr {
            match self {
                T::Var(s) => Expr::Var(*s),
                T::Param(p) => Expr::Param(*p),
                T::Int(k) => Expr::Const(Constant::new(Value::Int(*k))),
                T::Dec(k) => Expr::Const(Constant::new(Value::Num(*k as f64 / 4.0))),
                T::Text => Expr::Const(Constant::new(Value::str("x"))),
                T::Bin(op, a, b) => Expr::Binary(*op, Box::new(a.expr()), Box::new(b.expr())),
                T::Neg(x) => Expr::Unary(UnaryOp::Neg, Box::new(x.expr())),
                T::Call(name, args) => call(name, args.iter().map(T::expr).collect()),
                T::Index(param, i) => Expr::Index(
                    Box::new(if *param { Expr::Param(1) } else { Expr::Var(3) }),
                    Box::new(i.expr()),
                ),
            }
        }
    }

    fn leaf() -> impl Strategy<Value = T> {
        // Mostly numbers, so that whole trees compute; a text, a list or a comparison now and
        // then, where a program must give up.
        prop_oneof![
            6 => prop_oneof![Just(0u16), Just(1), Just(4)].prop_map(T::Var),
            1 => prop_oneof![Just(2u16), Just(3)].prop_map(T::Var),
            3 => Just(T::Param(0)),
            1 => Just(T::Param(1)),
            6 => (-4i64..9).prop_map(T::Int),
            6 => (-4i64..9).prop_map(T::Dec),
            1 => Just(T::Text),
        ]
    }

    fn tree() -> impl Strategy<Value = T> {
        leaf().prop_recursive(5, 40, 3, |inner| {
            let op = prop_oneof![
                Just(BinaryOp::Add),
                Just(BinaryOp::Sub),
                Just(BinaryOp::Mul),
                Just(BinaryOp::Div),
                Just(BinaryOp::Rem),
            ];
            prop_oneof![
                6 => (op, inner.clone(), inner.clone()).prop_map(|(op, a, b)| T::Bin(op, Box::new(a), Box::new(b))),
                1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| T::Bin(BinaryOp::Lt, Box::new(a), Box::new(b))),
                1 => inner.clone().prop_map(|x| T::Neg(Box::new(x))),
                1 => inner.clone().prop_map(|x| T::Call("abs", vec![x])),
                1 => inner.clone().prop_map(|x| T::Call("trunc", vec![x])),
                1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| T::Call("greater", vec![a, b])),
                1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| T::Call("lesser", vec![a, b])),
                1 => (any::<bool>(), inner.clone()).prop_map(|(p, i)| T::Index(p, Box::new(i))),
            ]
        })
    }

    fn values() -> impl Strategy<Value = (Vec<Value>, Vec<Value>)> {
        (
            -20i64..20,
            -8i64..8,
            prop_oneof![Just(0i64), Just(i64::MAX), Just(i64::MIN), -3i64..3],
            proptest::collection::vec(-5i64..5, 0..4),
        )
            .prop_map(|(a, d, z, l)| {
                let list = Value::list(l.iter().enumerate().map(|(k, x)| {
                    if k == 1 {
                        Value::Num(*x as f64 / 2.0)
                    } else {
                        Value::Int(*x)
                    }
                }));
                let vars = vec![
                    Value::Int(a),
                    Value::Num(d as f64 / 4.0),
                    Value::str("t"),
                    list,
                    Value::Int(z),
                ];
                let params = vec![Value::Int(a + 1), Value::list([3, -1, 7].map(Value::Int))];
                (vars, params)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// Wherever a program answers, the general evaluator gives the same value (a binding)
        /// or the same truth (a comparison) and counts the same built-in calls.
        #[test]
        fn a_program_answers_as_the_general_evaluator(e in tree(), f in tree(), (vars, params) in values()) {
            let (e, f) = (e.expr(), f.expr());
            let bind = Cond::Bind { slot: 9, expr: e.clone() };
            if let Some(prog) = NumProg::of(&bind) {
                let mut calls = 0;
                if let Some(Outcome::Bound(slot, n)) = prog.run(&vars, &params, &mut calls) {
                    prop_assert_eq!(slot, 9);
                    let mut general_calls = 0;
                    let v = eval(&e, &vars, &params, &mut general_calls);
                    prop_assert_eq!(v, Ok(n.value()));
                    prop_assert_eq!(calls, general_calls);
                } else {
                    prop_assert_eq!(calls, 0);
                }
            }
            let test = Expr::Binary(BinaryOp::Le, Box::new(e), Box::new(f));
            if let Some(prog) = NumProg::of(&Cond::Test(test.clone())) {
                let mut calls = 0;
                if let Some(Outcome::Test(b)) = prog.run(&vars, &params, &mut calls) {
                    let mut general_calls = 0;
                    let t = eval_test(&test, &vars, &params, &mut general_calls);
                    prop_assert!(matches!(t, Ok(Truth::Bool(g)) if g == b));
                    prop_assert_eq!(calls, general_calls);
                }
            }
        }
    }

    /// Whether `f` answers every probe (numbers at the edges of integers and decimals, in every
    /// pair for two arguments) as `native` computes it, failing where it gives up.
    fn answers_like(native: Native, f: OneFn) -> bool {
        let ints = [
            0,
            1,
            -1,
            7,
            -7,
            (1 << 53) + 1,
            -(1 << 53) - 1,
            i64::MAX,
            i64::MIN,
            9_000_000_000_000_000_000,
        ];
        let decs = [
            0.0,
            -0.0,
            0.5,
            -0.5,
            2.75,
            -2.75,
            8.9e18,
            1e19,
            -1e19,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        let probes: Vec<Num> = ints.map(Num::Int).into_iter().chain(decs.map(Num::Dec)).collect();
        let value = |n: Num| match n {
            Num::Int(i) => Value::Int(i),
            Num::Dec(x) => Value::Num(x),
        };
        let same = |called: Result<Value, crate::builtins::BuiltinError>, mine: Option<Num>| match (called, mine) {
            (Ok(v), Some(n)) => match (Num::of(&v), n) {
                (Some(Num::Int(a)), Num::Int(b)) => a == b,
                (Some(Num::Dec(a)), Num::Dec(b)) => a.to_bits() == b.to_bits(),
                _ => false,
            },
            (Err(_), None) => true,
            _ => false,
        };
        match native.binary() {
            false => probes
                .iter()
                .all(|&x| same(f(&[&value(x)]), native.apply(Num::Int(0), x))),
            true => probes.iter().all(|&x| {
                probes
                    .iter()
                    .all(|&y| same(f(&[&value(x), &value(y)]), native.apply(x, y)))
            }),
        }
    }

    /// The standard `abs`, `trunc`, `greater` and `lesser` declare their intrinsic and answer
    /// as the program computes it; `round`, which answers like `trunc` on integers only, does not.
    #[test]
    fn the_standard_intrinsics_answer_as_computed() {
        let reg = Registry::general();
        for (name, arity, native) in [
            ("abs", 1, Native::Abs),
            ("trunc", 1, Native::Trunc),
            ("greater", 2, Native::Greater),
            ("lesser", 2, Native::Lesser),
        ] {
            let b = reg.get(name).unwrap_or_else(|| panic!("{name}"));
            assert_eq!(Native::of(b.intrinsic(), arity), Some(native), "{name}");
            assert_eq!(Native::of(b.intrinsic(), arity + 1), None, "{name}");
            let f = b.direct().unwrap_or_else(|| panic!("{name} has a plain function"));
            assert!(answers_like(native, f), "{name}");
        }
        let round = reg.get("round").unwrap_or_else(|| unreachable!());
        assert_eq!(round.intrinsic(), None);
        let f = round.direct().unwrap_or_else(|| unreachable!());
        assert!(!answers_like(Native::Trunc, f));
    }

    /// The shapes compiled, and those left alone.
    #[test]
    fn compiles_arithmetic_only() {
        let arith = Expr::Binary(
            BinaryOp::Mul,
            Box::new(Expr::Var(0)),
            Box::new(Expr::Const(Constant::new(Value::Int(3)))),
        );
        assert!(NumProg::of(&Cond::Bind {
            slot: 1,
            expr: arith.clone()
        })
        .is_some());
        // A built-in answering a text is not compiled on its own...
        let name = Expr::Call {
            builtin: Registry::general()
                .get("lesser")
                .unwrap_or_else(|| unreachable!())
                .clone(),
            args: vec![Expr::Var(0), Expr::Var(1)],
            direct: None,
        };
        assert!(
            NumProg::of(&Cond::Bind { slot: 1, expr: name }).is_none(),
            "no plain function"
        );
        // ...nor a value read as it is, nor a comparison of two values read as they are.
        assert!(NumProg::of(&Cond::Bind {
            slot: 1,
            expr: Expr::Var(0)
        })
        .is_none());
        let plain = Expr::Binary(BinaryOp::Ne, Box::new(Expr::Var(0)), Box::new(Expr::Var(1)));
        assert!(NumProg::of(&Cond::Test(plain)).is_none());
        let computed = Expr::Binary(BinaryOp::Lt, Box::new(arith), Box::new(Expr::Var(1)));
        assert!(NumProg::of(&Cond::Test(computed)).is_some());
        // A program stops where the general evaluator raises an error: division by zero.
        let div = Expr::Binary(
            BinaryOp::Div,
            Box::new(Expr::Var(0)),
            Box::new(Expr::Const(Constant::new(Value::Int(0)))),
        );
        let prog = NumProg::of(&Cond::Bind { slot: 1, expr: div }).unwrap_or_else(|| unreachable!());
        assert!(prog.run(&[Value::Int(4)], &[], &mut 0).is_none());
    }
}
