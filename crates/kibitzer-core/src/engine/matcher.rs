//! Matching conditions against working memory: a depth-first search over the conditions in a
//! given order, binding variables as it goes. Bound variables are tracked in a 64-bit mask that is
//! saved and restored around each choice, so the same code serves joins (seeded by a new fact),
//! selection-time checks, negation and aggregate bodies, why-not and explanations.

use super::eval::{contains, eval, eval_test, operand, with_borrowed, EvalError, Truth};
use super::memory::{FactId, Memory};
use super::numprog::{Num, Outcome};
use super::program::*;
use super::whatif::SubQueries;
use crate::builtins::Solutions;
use crate::lang::ast::AggregateOp;
use crate::value::Value;
use smallvec::SmallVec;

/// A failure while matching, at a condition.
#[derive(Debug)]
pub struct MatchError {
    pub span: crate::lang::source::Span,
    pub error: MatchErrorKind,
}

/// What went wrong.
#[derive(Debug)]
pub enum MatchErrorKind {
    Eval(EvalError),
    /// Shared, as `RuleFailure::WhatIf` keeps it: a context's drop of its failure slot stays a
    /// null check inline.
    WhatIf(std::sync::Arc<super::run::RunError>),
    /// A budget ran out in the middle of the search.
    Stopped(super::run::StopReason),
}

/// Whether a search should go on after a solution, or has failed.
///
/// One byte, returned in a register at every level of the search: a failure's error waits in
/// `Ctx::failure` (see `Ctx::fail`). A `Result<Flow, Box<MatchError>>` took two words, written
/// through memory by each callee and read back as one block by its caller, which stalled on
/// store forwarding at every return (a third of `solve`'s samples).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
    /// The search failed with the error in `Ctx::failure`; every level returns at once.
    Failed,
}

/// What matching needs to read (and the what-if runner, which it may drive).
pub struct Ctx<'a> {
    pub prog: &'a Program,
    pub mem: &'a Memory,
    pub params: &'a [Value],
    pub whatif: &'a mut dyn SubQueries,
    pub calls: u64,
    /// Why-not support: the deepest step reached and the frame there. Boxed, like `failure`:
    /// a context then drops with two null checks, inline, where its drop was a call.
    pub deepest: Option<Box<(usize, Vec<Value>, u64)>>,
    pub track_depth: bool,
    /// The error of a search that returned `Flow::Failed`.
    pub failure: Option<Box<MatchError>>,
    /// Where a selection keeps the values of aggregates that depend on memory alone
    /// (`Lowered::Memo`); without it, each is computed every time.
    pub memo: Option<&'a mut AggMemo>,
}

/// The values of the aggregates that depend on working memory alone, each with the memory's
/// version it was computed in. Between two firings, every activation of a rule with such an
/// aggregate selected asks for the same value: a rule whose activations grow with the square
/// of a relation would otherwise fold that relation once for each. A slot is filled when an
/// aggregate is asked for a second time in one version, so a run that asks once pays a compare.
#[derive(Default)]
pub struct AggMemo {
    slots: Vec<MemoSlot>,
}

#[derive(Default)]
struct MemoSlot {
    version: [usize; 4],
    done: Option<Folded>,
}

/// An aggregate's value (`None`: min or max over nothing) and the facts it was folded from.
type Folded = (Option<Value>, Vec<(u16, FactId)>);

impl AggMemo {
    /// A memo for a program with `slots` memo slots (`Program::memos`).
    pub fn new(slots: usize) -> AggMemo {
        AggMemo {
            slots: (0..slots).map(|_| MemoSlot::default()).collect(),
        }
    }

    /// The value in memo slot `id`, if computed in memory `version`; else whether (true) the
    /// value about to be computed is to be kept: the second time it is asked for there.
    fn look(&mut self, id: u32, version: [usize; 4]) -> Result<&Folded, bool> {
        let Some(slot) = self.slots.get_mut(id as usize) else {
            return Err(false);
        };
        if slot.version != version {
            slot.version = version;
            slot.done = None;
            return Err(false);
        }
        slot.done.as_ref().ok_or(true)
    }
}

impl<'a> Ctx<'a> {
    /// A context for one search: no calls counted yet, no depth tracked, no failure. Inlined:
    /// the per-fact join makes one for every new fact.
    #[inline(always)]
    pub fn new(prog: &'a Program, mem: &'a Memory, params: &'a [Value], whatif: &'a mut dyn SubQueries) -> Ctx<'a> {
        Ctx {
            prog,
            mem,
            params,
            whatif,
            calls: 0,
            deepest: None,
            track_depth: false,
            failure: None,
            memo: None,
        }
    }

    /// Keeps the error for the search's caller and says `Failed`.
    #[cold]
    #[inline(never)]
    pub fn fail(&mut self, e: Box<MatchError>) -> Flow {
        self.failure = Some(e);
        Flow::Failed
    }

    /// A search's outcome as a result: `Failed` gives its error back.
    #[inline(always)]
    pub fn outcome(&mut self, flow: Flow) -> MatchResult<Flow> {
        match flow {
            Flow::Failed => Err(self.failure.take().unwrap_or_else(|| {
                Box::new(MatchError {
                    span: Default::default(),
                    error: MatchErrorKind::Eval(EvalError::Type("a search failed without an error".into())),
                })
            })),
            f => Ok(f),
        }
    }
}

/// The state of one search: variable values, which are bound, which facts matched.
#[derive(Debug, Clone, Default)]
pub struct Frame {
    pub vars: Vec<Value>,
    pub mask: u64,
    /// The facts matched, with the condition each matched. A plain vector: the session's frames are
    /// reused, so it allocates once, and an inline one tested where it lived at every push.
    pub facts: Vec<(u16, FactId)>,
    /// The arguments of the last built-in called with outputs, kept between calls: the next call
    /// with the same shared values (the hand every rule of a classification asks about) finds them
    /// in place and copies nothing, which saves an atomic increment and decrement per argument.
    pub argv: Vec<Value>,
}

impl Frame {
    /// A frame for rules of at most `nvars` variables.
    pub fn with_vars(nvars: usize) -> Frame {
        Frame {
            vars: vec![Value::Int(0); nvars.max(1)],
            mask: 0,
            facts: Vec::new(),
            argv: Vec::new(),
        }
    }

    #[inline]
    fn bound(&self, s: Slot) -> bool {
        self.mask & (1u64 << s) != 0
    }

    /// Binds `s` to a copy of `v`, unless the slot still holds that very value from an earlier
    /// match (the same hand seeds every rule in turn): then no copy and no release happen, which
    /// saves two atomic operations per shared value.
    #[inline(always)]
    pub fn bind_ref(&mut self, s: Slot, v: &Value) {
        let slot = &mut self.vars[s as usize];
        match v {
            // An integer is rebuilt from its payload (as `Value::fresh_copy` does): a built-in's
            // answer, bound moments after it was made, would stall a block copy.
            Value::Int(i) => *slot = Value::Int(*i),
            _ => {
                if !slot.same(v) {
                    *slot = v.clone();
                }
            }
        }
        self.mask |= 1u64 << s;
    }

    /// Binds `s` to a computed number, written straight into the slot: no `Value` is made aside
    /// and copied in.
    #[inline(always)]
    pub fn bind_num(&mut self, s: Slot, n: Num) {
        let slot = &mut self.vars[s as usize];
        match n {
            Num::Int(i) => *slot = Value::Int(i),
            Num::Dec(x) => *slot = Value::Num(x),
        }
        self.mask |= 1u64 << s;
    }

    #[inline]
    fn bind(&mut self, s: Slot, v: Value) {
        self.vars[s as usize] = v;
        self.mask |= 1u64 << s;
    }
}

impl Lowered {
    /// The condition decided by its decoded form: `Some(true)` when it holds (a binding made),
    /// `Some(false)` when it does not, `None` when the tree must decide. A slot bound before an
    /// arithmetic binding is compared by the tree, as `==` compares.
    #[inline(always)]
    fn run(&self, ctx: &mut Ctx<'_>, frame: &mut Frame) -> Option<bool> {
        match self {
            Lowered::Tree | Lowered::Memo(_) => None,
            Lowered::Fast(fast) => fast.run(ctx.mem, &mut frame.vars, &mut frame.mask, &mut ctx.calls),
            Lowered::Num(prog) if prog.binds().is_none_or(|s| !frame.bound(s)) => {
                match prog.run(&frame.vars, ctx.params, &mut ctx.calls)? {
                    Outcome::Test(t) => Some(t),
                    Outcome::Bound(slot, n) => {
                        frame.bind_num(slot, n);
                        Some(true)
                    }
                }
            }
            Lowered::Num(_) => None,
        }
    }
}

/// A sequence of conditions to match, each with the condition index recorded for matched facts
/// and whether it must skip the newly arrived fact.
pub trait Steps {
    fn count(&self) -> usize;
    fn step(&self, i: usize) -> (&CondAt, u16, bool);
    /// For a step the planner moved ahead of the order written: the steps from there on in the
    /// order written, where the search resumes if the step fails with an error.
    fn fallback(&self, _i: usize) -> Option<PlanSteps<'_>> {
        None
    }
    /// Whether step `i` has a [`Steps::fallback`] (checked inline before asking for it).
    #[inline]
    fn has_fallback(&self, _i: usize) -> bool {
        false
    }
    /// For the call at condition `cond`: the solutions of the very same call made before this
    /// join, when there are some to reuse.
    fn made_call(&self, _cond: u16) -> Option<&Solutions> {
        None
    }
    /// The seed's variables a pattern written before it binds first, as (slot, that pattern,
    /// argument position): see `Seed::written_first`.
    fn written_first(&self) -> &[(Slot, u16, u16)] {
        &[]
    }
}

/// A join plan: conditions by index, each with its skip flag, and the fallbacks of the steps the
/// planner moved (see `Seed::fallback`; empty when nothing moved).
pub struct PlanSteps<'a> {
    pub conds: &'a [CondAt],
    pub order: &'a [(u16, bool)],
    pub fallback: &'a [Vec<(u16, bool)>],
    /// A condition whose call was already made for this join, and its solutions.
    pub made: Option<(u16, &'a Solutions)>,
    /// See `Seed::written_first`.
    pub written_first: &'a [(Slot, u16, u16)],
}

impl Steps for PlanSteps<'_> {
    #[inline]
    fn count(&self) -> usize {
        self.order.len()
    }
    #[inline]
    fn step(&self, i: usize) -> (&CondAt, u16, bool) {
        let (c, skip) = self.order[i];
        (&self.conds[c as usize], c, skip)
    }
    #[inline]
    fn has_fallback(&self, i: usize) -> bool {
        self.fallback.get(i).is_some_and(|rest| !rest.is_empty())
    }
    fn fallback(&self, i: usize) -> Option<PlanSteps<'_>> {
        match self.fallback.get(i) {
            Some(rest) if !rest.is_empty() => Some(PlanSteps {
                conds: self.conds,
                order: rest,
                fallback: &[],
                made: self.made,
                written_first: self.written_first,
            }),
            _ => None,
        }
    }
    #[inline]
    fn made_call(&self, cond: u16) -> Option<&Solutions> {
        match self.made {
            Some((c, solutions)) if c == cond => Some(solutions),
            _ => None,
        }
    }
    #[inline]
    fn written_first(&self) -> &[(Slot, u16, u16)] {
        self.written_first
    }
}

/// Conditions by index (selection phase).
pub struct IndexSteps<'a> {
    pub conds: &'a [CondAt],
    pub order: &'a [u16],
}

impl Steps for IndexSteps<'_> {
    #[inline]
    fn count(&self) -> usize {
        self.order.len()
    }
    #[inline]
    fn step(&self, i: usize) -> (&CondAt, u16, bool) {
        let c = self.order[i];
        (&self.conds[c as usize], c, false)
    }
}

/// Every condition of a list, in order, facts recorded under one tag (a `not` or aggregate body).
pub struct BodySteps<'a> {
    pub conds: &'a [CondAt],
    pub tag: u16,
}

impl Steps for BodySteps<'_> {
    #[inline]
    fn count(&self) -> usize {
        self.conds.len()
    }
    #[inline]
    fn step(&self, i: usize) -> (&CondAt, u16, bool) {
        (&self.conds[i], self.tag, false)
    }
}

/// A failure boxed, so that results stay small on the hot path.
pub type MatchResult<T> = Result<T, Box<MatchError>>;

/// Called with each complete match. A sink that fails puts its error in the context
/// (`Ctx::failure`) and says `Failed`.
pub type Sink<'s> = dyn FnMut(&mut Ctx<'_>, &Frame) -> Flow + 's;

/// Searches `steps[i..]`; calls `sink` with every complete match. `new_fact` is the fact that
/// started the join (skipped by steps flagged so). Returns `Stop` if the sink stopped the search,
/// `Failed` with the error in `ctx.failure` (`Ctx::outcome` makes it a result).
///
/// Generic over the step list (not `dyn`): the step lookup runs at every level of every join, and
/// static dispatch lets it inline.
pub fn solve<S: Steps + ?Sized>(
    ctx: &mut Ctx<'_>,
    steps: &S,
    mut i: usize,
    new_fact: FactId,
    frame: &mut Frame,
    sink: &mut Sink<'_>,
) -> Flow {
    // Tests and bindings, the commonest steps, leave no choice behind: they run in this loop, one
    // after another, without a recursive call each (a call per step cost more than most tests).
    // Only a step that can match several ways (a pattern, a built-in with outputs, `in`) or that
    // searches a body of its own (`not`, aggregates, what-ifs) recurses, in a function of its
    // own so that this frame stays small. The bits the loop's bindings set are cleared on the
    // way out, as every caller expects. So does a pattern on a relation of one fact (every input):
    // it leaves no choice either, and its fact is unrecorded from the frame on the way out.
    let saved = frame.mask;
    // Facts of one-fact patterns matched in this loop, to unrecord on the way out (a count kept
    // in a register: most searches match none, and reading the list's length costs more).
    let mut matched_here = 0u32;
    let flow = loop {
        if ctx.track_depth {
            track_depth(ctx, i, frame);
        }
        if i == steps.count() {
            break sink(ctx, frame);
        }
        let step = steps.step(i);
        let (at, _, _) = step;
        match at.low.run(ctx, frame) {
            Some(true) => {
                i += 1;
                continue;
            }
            Some(false) => break failed_moved(ctx, steps, i, new_fact, frame, sink),
            None => {}
        }
        match &at.cond {
            Cond::Test(e) => match eval_test(e, &frame.vars, ctx.params, &mut ctx.calls) {
                Ok(Truth::Bool(true)) => i += 1,
                Ok(Truth::Bool(false)) => break failed_moved(ctx, steps, i, new_fact, frame, sink),
                Ok(Truth::Other(other)) => {
                    let e = EvalError::Type(format!("a condition must be true or false, got {other}"));
                    break failed_check(ctx, steps, i, new_fact, frame, sink, at, e);
                }
                Err(e) => break failed_check(ctx, steps, i, new_fact, frame, sink, at, e),
            },
            Cond::Bind { slot, expr } => match eval(expr, &frame.vars, ctx.params, &mut ctx.calls) {
                Ok(v) => {
                    if frame.bound(*slot) {
                        if !frame.vars[*slot as usize].loose_eq(&v) {
                            break failed_moved(ctx, steps, i, new_fact, frame, sink);
                        }
                    } else {
                        frame.bind(*slot, v);
                    }
                    i += 1;
                }
                Err(e) => break failed_check(ctx, steps, i, new_fact, frame, sink, at, e),
            },
            // The fact that started the join, matched again where its pattern is written (see
            // `Seed::taken`): it is the first fact recorded, under this condition.
            Cond::Pattern { args, .. } if step.2 && frame.facts.first().is_some_and(|&(c, _)| c == step.1) => {
                let mem = ctx.mem;
                match match_args(ctx, args, mem.args_of(new_fact), frame) {
                    Ok(true) => i += 1,
                    Ok(false) => break Flow::Continue,
                    Err(e) => break ctx.fail(eval_error(at, e)),
                }
            }
            Cond::Pattern { rel, args } if step.2 && steps.written_first().iter().any(|w| w.1 == step.1) => {
                break solve_pattern(ctx, steps, i, new_fact, frame, sink, step, *rel, args)
            }
            Cond::Pattern { rel, args } => match only_fact(ctx, frame, step, *rel, args, new_fact) {
                OnlyFact::Matched => {
                    matched_here += 1;
                    i += 1;
                }
                OnlyFact::Several => break solve_pattern(ctx, steps, i, new_fact, frame, sink, step, *rel, args),
                OnlyFact::Fails => break Flow::Continue,
                OnlyFact::Failed => break Flow::Failed,
            },
            _ => break solve_other(ctx, steps, i, new_fact, frame, sink, step),
        }
    };
    frame.mask = saved;
    for _ in 0..matched_here {
        frame.facts.pop();
    }
    flow
}

/// What `only_fact` found.
enum OnlyFact {
    /// The relation's one fact matched (and is recorded in the frame's facts).
    Matched,
    /// It did not: no match.
    Fails,
    /// The relation has no fact or several: the step is a search of its own.
    Several,
    /// Matching raised an error (in `ctx.failure`).
    Failed,
}

/// A pattern step on a relation of one fact (every input): matched in place, with no
/// search of its own. Out of line, so that `solve`'s frame stays small for the steps that need
/// none of this.
#[inline(never)]
fn only_fact(
    ctx: &mut Ctx<'_>,
    frame: &mut Frame,
    (at, idx, skip_new): (&CondAt, u16, bool),
    rel: RelId,
    args: &[PatArg],
    new_fact: FactId,
) -> OnlyFact {
    let mem = ctx.mem;
    // An empty relation goes the general way too: a pattern's expression is evaluated (and may
    // fail) even when there is no fact to compare it with.
    let &[f] = mem.of_relation(rel) else {
        return OnlyFact::Several;
    };
    if (skip_new && f == new_fact) || !mem.is_alive(f) {
        return OnlyFact::Fails;
    }
    match match_args(ctx, args, mem.args_of(f), frame) {
        Ok(true) => {
            frame.facts.push((idx, f));
            OnlyFact::Matched
        }
        Ok(false) => OnlyFact::Fails,
        Err(e) => {
            ctx.fail(eval_error(at, e));
            OnlyFact::Failed
        }
    }
}

/// A test or binding failed with an error. Where the planner had moved it ahead of the order
/// written, the search resumes in that order from here (the error then surfaces only if, and as
/// often as, the order written reaches it); otherwise the error stands.
#[cold]
#[inline(never)]
#[allow(clippy::too_many_arguments)] // the recursion's state, passed through as `solve` has it
fn failed_check<S: Steps + ?Sized>(
    ctx: &mut Ctx<'_>,
    steps: &S,
    i: usize,
    new_fact: FactId,
    frame: &mut Frame,
    sink: &mut Sink<'_>,
    at: &CondAt,
    e: EvalError,
) -> Flow {
    match steps.fallback(i) {
        Some(written) => solve(ctx, &written, 0, new_fact, frame, sink),
        None => ctx.fail(eval_error(at, e)),
    }
}

/// A test or binding found false. Where the planner had moved it ahead of the order written, the
/// steps it moved ahead of run as written, so that an error they raise surfaces as the order
/// written raises it (the test, at its own place, again lets no match through). Checked inline:
/// a failed test is the commonest end of a join, and most steps were not moved.
#[inline(always)]
fn failed_moved<S: Steps + ?Sized>(
    ctx: &mut Ctx<'_>,
    steps: &S,
    i: usize,
    new_fact: FactId,
    frame: &mut Frame,
    sink: &mut Sink<'_>,
) -> Flow {
    match steps.has_fallback(i) {
        false => Flow::Continue,
        true => run_as_written(ctx, steps, i, new_fact, frame, sink),
    }
}

#[cold]
#[inline(never)]
fn run_as_written<S: Steps + ?Sized>(
    ctx: &mut Ctx<'_>,
    steps: &S,
    i: usize,
    new_fact: FactId,
    frame: &mut Frame,
    sink: &mut Sink<'_>,
) -> Flow {
    match steps.fallback(i) {
        Some(written) => solve(ctx, &written, 0, new_fact, frame, sink),
        None => Flow::Continue,
    }
}

/// Why-not support: remembers the deepest step reached and the frame there.
#[cold]
#[inline(never)]
fn track_depth(ctx: &mut Ctx<'_>, i: usize, frame: &Frame) {
    let better = ctx.deepest.as_ref().is_none_or(|d| i > d.0);
    if better {
        ctx.deepest = Some(Box::new((i, frame.vars.clone(), frame.mask)));
    }
}

/// The error that stops a search whose deadline has passed.
#[cold]
fn timed_out(at: &CondAt) -> Box<MatchError> {
    Box::new(MatchError {
        span: at.span,
        error: MatchErrorKind::Stopped(super::run::StopReason::Timeout),
    })
}

/// An evaluation failure at a condition (out of line: errors are rare).
#[cold]
#[inline(never)]
pub fn eval_error(at: &CondAt, e: EvalError) -> Box<MatchError> {
    Box::new(MatchError {
        span: at.span,
        error: MatchErrorKind::Eval(e),
    })
}

/// A pattern step: each live fact of the relation (through an index when an argument is known).
#[allow(clippy::too_many_arguments)] // the recursion's state, passed through as `solve` has it
#[inline(never)]
fn solve_pattern<S: Steps + ?Sized>(
    ctx: &mut Ctx<'_>,
    steps: &S,
    i: usize,
    new_fact: FactId,
    frame: &mut Frame,
    sink: &mut Sink<'_>,
    (at, idx, skip_new): (&CondAt, u16, bool),
    rel: RelId,
    args: &[PatArg],
) -> Flow {
    let skip = if skip_new { new_fact } else { FactId::MAX };
    let first = match skip_new {
        true => steps.written_first(),
        false => &[],
    };
    each_match(ctx, frame, at, idx, rel, args, skip, |ctx, frame| {
        if !first.iter().any(|w| w.1 == idx) {
            return solve(ctx, steps, i + 1, new_fact, frame, sink);
        }
        // The values of the order written: from this pattern, not from the fact that started the
        // join (`1` and `1.0` match each other), for the steps after it and the activation.
        let Some(&(_, fact)) = frame.facts.last() else {
            return solve(ctx, steps, i + 1, new_fact, frame, sink);
        };
        let mut kept = Vec::new();
        for &(s, _, pos) in first.iter().filter(|w| w.1 == idx) {
            let v = ctx.mem.args_of(fact)[pos as usize].clone();
            kept.push((s, std::mem::replace(&mut frame.vars[s as usize], v)));
        }
        let flow = solve(ctx, steps, i + 1, new_fact, frame, sink);
        for (s, v) in kept {
            frame.vars[s as usize] = v;
        }
        flow
    })
}

/// The facts a pattern step tries: the fewest that an index on an argument whose value is known
/// offers (a constant such as `"L"` may pick out most of a relation, a bound variable a few),
/// else every fact of the relation. Every list is in the relation's order, so the matches and
/// their order do not depend on the index chosen.
fn pattern_facts<'m>(ctx: &mut Ctx<'m>, frame: &Frame, rel: RelId, args: &[PatArg]) -> Result<&'m [FactId], EvalError> {
    let mem = ctx.mem;
    let mut best: Option<&'m [FactId]> = None;
    for (pos, a) in args.iter().enumerate() {
        let probe = match a {
            PatArg::Var(s) if frame.bound(*s) => mem.candidates(rel, pos, &frame.vars[*s as usize]),
            // A computed argument of a pattern matched at selection may read a variable the
            // pattern itself binds: no value to look up by until the match binds it.
            PatArg::Expr(e) if !matches!(e, Expr::Const(_)) && super::compile::expr_slots(e) & !frame.mask != 0 => {
                continue
            }
            // A value that cannot be computed is no key: the facts compared one by one raise the
            // error only if one gets as far as that argument, as the order written does.
            PatArg::Expr(e) => match operand(e, &frame.vars, ctx.params, &mut ctx.calls) {
                Ok(v) => mem.candidates(rel, pos, &v),
                Err(_) => continue,
            },
            _ => continue,
        };
        if let Some(ids) = probe {
            if best.is_none_or(|b| ids.len() < b.len()) {
                best = Some(ids);
                if ids.len() <= 1 {
                    break;
                }
            }
        }
    }
    Ok(best.unwrap_or_else(|| mem.of_relation(rel)))
}

/// Calls `then` with each live fact of `rel` (but `skip`) that matches `args`, the fact recorded
/// in the frame's facts under `tag` meanwhile; stops when it says so. A join's pattern step, and a
/// one-pattern aggregate body folded without a join.
#[allow(clippy::too_many_arguments)] // a pattern step's state
#[inline(always)]
fn each_match(
    ctx: &mut Ctx<'_>,
    frame: &mut Frame,
    at: &CondAt,
    tag: u16,
    rel: RelId,
    args: &[PatArg],
    skip: FactId,
    mut then: impl FnMut(&mut Ctx<'_>, &mut Frame) -> Flow,
) -> Flow {
    let mem = ctx.mem;
    let facts = match pattern_facts(ctx, frame, rel, args) {
        Ok(facts) => facts,
        Err(e) => return ctx.fail(eval_error(at, e)),
    };
    if crate::budget::charge(facts.len()) {
        return ctx.fail(timed_out(at));
    }
    for &f in facts {
        if f == skip || !mem.is_alive(f) {
            continue;
        }
        let saved = frame.mask;
        match match_args(ctx, args, mem.args_of(f), frame) {
            Ok(true) => {
                frame.facts.push((tag, f));
                let flow = then(ctx, frame);
                frame.facts.pop();
                if flow != Flow::Continue {
                    frame.mask = saved;
                    return flow;
                }
            }
            Ok(false) => {}
            Err(e) => return ctx.fail(eval_error(at, e)),
        }
        frame.mask = saved;
    }
    Flow::Continue
}

/// `sum ?x { r(_, …, ?x, …, _) }` — one pattern of wildcards and one unbound variable, the
/// value summed — over facts whose column holds integers only, with no overflow: the total, each
/// live fact recorded in the frame's facts under `tag` as the general fold records them (same
/// facts, same order, same total). `None` (and nothing recorded) for any other aggregate, or when
/// a value is not an integer or the total overflows: the general fold then decides, and raises
/// what it raises.
fn int_column_sum(
    mem: &Memory,
    frame: &mut Frame,
    op: AggregateOp,
    value: Option<&Expr>,
    body: &[CondAt],
    tag: u16,
) -> Option<i64> {
    let (
        AggregateOp::Sum,
        Some(&Expr::Var(x)),
        [CondAt {
            cond: Cond::Pattern { rel, args },
            ..
        }],
    ) = (op, value, body)
    else {
        return None;
    };
    if frame.bound(x) {
        return None;
    }
    let mut column = None;
    for (pos, a) in args.iter().enumerate() {
        match a {
            PatArg::Wild => {}
            PatArg::Var(s) if *s == x && column.is_none() => column = Some(pos),
            _ => return None,
        }
    }
    let column = column?;
    let depth = frame.facts.len();
    let mut total: i64 = 0;
    for &f in mem.of_relation(*rel) {
        if !mem.is_alive(f) {
            continue;
        }
        let sum = match mem.args_of(f).get(column) {
            Some(Value::Int(q)) => total.checked_add(*q),
            _ => None,
        };
        let Some(sum) = sum else {
            frame.facts.truncate(depth);
            return None;
        };
        total = sum;
        frame.facts.push((tag, f));
    }
    Some(total)
}

/// Whether a live fact of `rel` matches the pattern `args` under the frame's bindings (the body
/// of a one-pattern `not`, at `at`). Bindings the pattern makes are undone before returning.
fn any_fact_matches(
    ctx: &mut Ctx<'_>,
    frame: &mut Frame,
    at: &CondAt,
    rel: RelId,
    args: &[PatArg],
) -> MatchResult<bool> {
    let mem = ctx.mem;
    let facts = pattern_facts(ctx, frame, rel, args).map_err(|e| eval_error(at, e))?;
    let saved = frame.mask;
    for &f in facts {
        if !mem.is_alive(f) {
            continue;
        }
        let matched = match_args(ctx, args, mem.args_of(f), frame);
        frame.mask = saved;
        if matched.map_err(|e| eval_error(at, e))? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The value of a step's `Result`, or the search fails with its error (kept in the context).
macro_rules! or_fail {
    ($ctx:expr, $result:expr) => {
        match $result {
            Ok(v) => v,
            Err(e) => return $ctx.fail(e),
        }
    };
}

/// The rarer steps: `in`, built-ins with outputs, `not`, aggregates and what-ifs.
#[inline(never)]
fn solve_other<S: Steps + ?Sized>(
    ctx: &mut Ctx<'_>,
    steps: &S,
    i: usize,
    new_fact: FactId,
    frame: &mut Frame,
    sink: &mut Sink<'_>,
    (at, idx, _): (&CondAt, u16, bool),
) -> Flow {
    match &at.cond {
        Cond::In { slot, list } => solve_in(ctx, steps, i, new_fact, frame, sink, at, *slot, list),
        Cond::CallOut {
            builtin,
            inputs,
            outputs,
        } => {
            if let Some(made) = steps.made_call(idx) {
                return solve_solutions(ctx, steps, i + 1, new_fact, frame, sink, at, outputs, made);
            }
            let mut sols = Solutions::new(outputs.len());
            or_fail!(ctx, make_call(ctx, frame, at, builtin.as_ref(), inputs, &mut sols));
            solve_solutions(ctx, steps, i + 1, new_fact, frame, sink, at, outputs, &sols)
        }
        Cond::Not { body } => solve_not(ctx, steps, i, new_fact, frame, sink, idx, body),
        Cond::Aggregate { op, slot, value, body } => {
            let agg = (*op, *slot, value.as_ref(), &body[..]);
            solve_aggregate(ctx, steps, i, new_fact, frame, sink, at, idx, agg)
        }
        Cond::WhatIf {
            target,
            inputs,
            rel_name,
            args,
            site,
        } => solve_whatif(
            ctx,
            steps,
            i,
            new_fact,
            frame,
            sink,
            at,
            (target, inputs, rel_name, args, *site),
        ),
        Cond::Pattern { .. } | Cond::Test(_) | Cond::Bind { .. } => {
            unreachable!("`solve` handles patterns, tests and bindings itself")
        }
    }
}

/// A what-if condition's parts: the rule set, its inputs, the relation and pattern asked, the site.
type WhatIfSite<'a> = (&'a WhatIfTarget, &'a [(String, Expr)], &'a str, &'a [PatArg], u32);

/// `?x in list`: a membership test when `?x` is bound, else a loop binding each element.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn solve_in<S: Steps + ?Sized>(
    ctx: &mut Ctx<'_>,
    steps: &S,
    i: usize,
    new_fact: FactId,
    frame: &mut Frame,
    sink: &mut Sink<'_>,
    at: &CondAt,
    slot: Slot,
    list: &Expr,
) -> Flow {
    let err = |e: EvalError| eval_error(at, e);
    let l = or_fail!(ctx, operand(list, &frame.vars, ctx.params, &mut ctx.calls).map_err(err));
    if frame.bound(slot) {
        let has = contains(&l, &frame.vars[slot as usize])
            .ok_or_else(|| err(EvalError::Type(format!("`in` needs a list on its right, got {l}"))));
        return if or_fail!(ctx, has) {
            solve(ctx, steps, i + 1, new_fact, frame, sink)
        } else {
            Flow::Continue
        };
    }
    // The list is held by one shared handle while its elements are bound one by one: no
    // vector of copies per `in` (the list may live in the frame the loop rebinds).
    let Some(items) = Items::of(&l) else {
        return ctx.fail(err(EvalError::Type(format!("`in` needs a list on its right, got {l}"))));
    };
    drop(l);
    if crate::budget::charge(items.len()) {
        return ctx.fail(timed_out(at));
    }
    let saved = frame.mask;
    // A recognised test right after the `in` (`suit(?c) != ?t`) is run here for each
    // element: one it rejects costs no search of the rest. Not while why-not tracks the
    // deepest step reached, which that test's step would be.
    let next = i + 1;
    let filter = match ctx.track_depth || next >= steps.count() {
        true => None,
        false => steps.step(next).0.low.fast(),
    };
    for k in 0..items.len() {
        items.bind(frame, slot, k);
        let mut from = next;
        if let Some(fast) = filter {
            match fast.run(ctx.mem, &mut frame.vars, &mut frame.mask, &mut ctx.calls) {
                Some(false) => {
                    frame.mask = saved;
                    continue;
                }
                Some(true) => from = next + 1,
                None => {}
            }
        }
        let flow = solve(ctx, steps, from, new_fact, frame, sink);
        frame.mask = saved;
        if flow != Flow::Continue {
            return flow;
        }
    }
    Flow::Continue
}

/// `not { … }`: the rest of the join only when the body has no match.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn solve_not<S: Steps + ?Sized>(
    ctx: &mut Ctx<'_>,
    steps: &S,
    i: usize,
    new_fact: FactId,
    frame: &mut Frame,
    sink: &mut Sink<'_>,
    idx: u16,
    body: &[CondAt],
) -> Flow {
    // The commonest negation, one pattern (`not category(_, _)`): its facts are tried in
    // place, without a search of its own; a search would find the same first match.
    if let [CondAt {
        cond: Cond::Pattern { rel, args },
        ..
    }] = body
    {
        return if or_fail!(ctx, any_fact_matches(ctx, frame, &body[0], *rel, args)) {
            Flow::Continue
        } else {
            solve(ctx, steps, i + 1, new_fact, frame, sink)
        };
    }
    let saved = frame.mask;
    let depth = frame.facts.len();
    let was = ctx.track_depth;
    ctx.track_depth = false;
    let found = solve(
        ctx,
        &BodySteps { conds: body, tag: idx },
        0,
        FactId::MAX,
        frame,
        &mut |_, _| Flow::Stop,
    );
    ctx.track_depth = was;
    frame.mask = saved;
    frame.facts.truncate(depth);
    match found {
        Flow::Failed => Flow::Failed,
        Flow::Stop => Flow::Continue,
        Flow::Continue => solve(ctx, steps, i + 1, new_fact, frame, sink),
    }
}

/// An aggregate: the body's matches folded into one value, bound before the rest of the join.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn solve_aggregate<S: Steps + ?Sized>(
    ctx: &mut Ctx<'_>,
    steps: &S,
    i: usize,
    new_fact: FactId,
    frame: &mut Frame,
    sink: &mut Sink<'_>,
    at: &CondAt,
    idx: u16,
    (op, slot, value, body): (AggregateOp, Slot, Option<&Expr>, &[CondAt]),
) -> Flow {
    let err = |e: EvalError| eval_error(at, e);
    let saved = frame.mask;
    let depth = frame.facts.len();
    let mut keep = None;
    if let (Lowered::Memo(id), Some(memo)) = (&at.low, ctx.memo.as_deref_mut()) {
        match memo.look(*id, ctx.mem.version()) {
            Ok((v, facts)) => {
                let Some(v) = v.clone() else {
                    return Flow::Continue;
                };
                frame.bind(slot, v);
                frame.facts.extend_from_slice(facts);
                let flow = solve(ctx, steps, i + 1, new_fact, frame, sink);
                frame.facts.truncate(depth);
                frame.mask = saved;
                return flow;
            }
            Err(true) => keep = Some(*id),
            Err(false) => {}
        }
    }
    // The commonest aggregate, an integer sum of one column (`sum ?x { term(_, ?x) }`),
    // is read straight off the facts: nothing is bound per fact.
    if let Some(total) = int_column_sum(ctx.mem, frame, op, value, body, idx) {
        if let Some(id) = keep {
            // The facts it summed are in the frame already, past `depth`.
            remember(ctx, id, Some(Value::Int(total)), &frame.facts[depth..]);
        }
        frame.bind(slot, Value::Int(total));
        let flow = solve(ctx, steps, i + 1, new_fact, frame, sink);
        frame.facts.truncate(depth);
        frame.mask = saved;
        return flow;
    }
    let mut fold = Fold::new(op);
    // Room for the terms of a hand value (13 or so) without a heap allocation per fold.
    let mut contributing: SmallVec<[(u16, FactId); 32]> = SmallVec::new();
    let was = ctx.track_depth;
    ctx.track_depth = false;
    let mut add_value = |ctx: &mut Ctx<'_>, fr: &Frame| -> MatchResult<Flow> {
        // Pushed one by one: a one-pattern body adds one fact, and `extend`'s reservation
        // cost more than the push.
        for &f in &fr.facts[depth..] {
            contributing.push(f);
        }
        match value {
            None => fold.count += 1,
            // The commonest value, `sum ?x { … }`: read in place.
            Some(Expr::Var(s)) => fold.add(fr.vars[*s as usize].clone()).map_err(err)?,
            Some(v) => fold
                .add(eval(v, &fr.vars, ctx.params, &mut ctx.calls).map_err(err)?)
                .map_err(err)?,
        }
        Ok(Flow::Continue)
    };
    let mut add = |ctx: &mut Ctx<'_>, fr: &Frame| -> Flow {
        match add_value(ctx, fr) {
            Ok(flow) => flow,
            Err(e) => ctx.fail(e),
        }
    };
    let result = match body {
        // One pattern: its facts are visited here, without a join (the same facts in the
        // same order as the join would give).
        [only @ CondAt {
            cond: Cond::Pattern { rel, args },
            ..
        }] => each_match(ctx, frame, only, idx, *rel, args, FactId::MAX, |ctx, fr| add(ctx, fr)),
        _ => solve(
            ctx,
            &BodySteps { conds: body, tag: idx },
            0,
            FactId::MAX,
            frame,
            &mut add,
        ),
    };
    ctx.track_depth = was;
    frame.mask = saved;
    frame.facts.truncate(depth);
    if result == Flow::Failed {
        return Flow::Failed;
    }
    let folded = fold.finish();
    if let Some(id) = keep {
        remember(ctx, id, folded.clone(), &contributing);
    }
    // min/max over nothing has no value: the condition fails.
    let Some(v) = folded else {
        return Flow::Continue;
    };
    frame.bind(slot, v);
    // Pushed one by one: `extend_from_slice` is an out-of-line call here.
    for &f in &contributing {
        frame.facts.push(f);
    }
    let flow = solve(ctx, steps, i + 1, new_fact, frame, sink);
    frame.facts.truncate(depth);
    frame.mask = saved;
    flow
}

/// Keeps an aggregate's value in memo slot `id` (for the memory version `look` noted).
#[cold]
fn remember(ctx: &mut Ctx<'_>, id: u32, value: Option<Value>, facts: &[(u16, FactId)]) {
    if let Some(slot) = ctx.memo.as_deref_mut().and_then(|m| m.slots.get_mut(id as usize)) {
        slot.done = Some((value, facts.to_vec()));
    }
}

/// An aggregate's value so far.
struct Fold {
    op: AggregateOp,
    count: i64,
    acc: Option<Value>,
    /// A sum while every value so far is an integer and the total fits: kept in a register (a
    /// value folded through memory stalled on store forwarding at every term), and handed to
    /// `acc` as it is the moment a value is not an integer or would overflow.
    int_sum: Option<i64>,
}

impl Fold {
    fn new(op: AggregateOp) -> Fold {
        Fold {
            op,
            count: 0,
            acc: None,
            int_sum: None,
        }
    }

    /// Folds in one match's value.
    #[inline(always)]
    fn add(&mut self, x: Value) -> Result<(), EvalError> {
        self.count += 1;
        if matches!(self.op, AggregateOp::Sum) && self.acc.is_none() {
            if let Value::Int(q) = x {
                if let Some(total) = self.int_sum.map_or(Some(q), |p| p.checked_add(q)) {
                    self.int_sum = Some(total);
                    return Ok(());
                }
            }
            // Not an integer, or the total would overflow: the general fold goes on from the
            // total so far (and raises the overflow).
            self.acc = self.int_sum.take().map(Value::Int);
        }
        self.acc = Some(match (self.acc.take(), self.op) {
            (None, _) => x,
            (Some(a), AggregateOp::Sum) => super::eval::binary(crate::lang::ast::BinaryOp::Add, &a, &x)?,
            (Some(a), AggregateOp::Min) if x.compare(&a) == Some(std::cmp::Ordering::Less) => x,
            (Some(a), AggregateOp::Max) if x.compare(&a) == Some(std::cmp::Ordering::Greater) => x,
            (Some(a), _) => a,
        });
        Ok(())
    }

    /// The aggregate's value; `None` for the min or max of nothing.
    fn finish(self) -> Option<Value> {
        match self.op {
            AggregateOp::Count => Some(Value::Int(self.count)),
            AggregateOp::Sum => Some(self.acc.unwrap_or(Value::Int(self.int_sum.unwrap_or(0)))),
            _ => self.acc,
        }
    }
}

/// `whatif`: the sub-query's conclusions of the relation asked, each matched against the pattern.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn solve_whatif<S: Steps + ?Sized>(
    ctx: &mut Ctx<'_>,
    steps: &S,
    i: usize,
    new_fact: FactId,
    frame: &mut Frame,
    sink: &mut Sink<'_>,
    at: &CondAt,
    (target, inputs, rel_name, args, site): WhatIfSite<'_>,
) -> Flow {
    let err = |e: EvalError| eval_error(at, e);
    let mut values: SmallVec<[(&str, Value); 2]> = SmallVec::with_capacity(inputs.len());
    for (name, e) in inputs {
        values.push((
            name.as_str(),
            or_fail!(ctx, eval(e, &frame.vars, ctx.params, &mut ctx.calls).map_err(err)),
        ));
    }
    let asked = ctx.whatif.run(site, target, rel_name, &values, ctx.prog, ctx.params);
    let outcome = or_fail!(
        ctx,
        asked.map_err(|e| {
            Box::new(MatchError {
                span: at.span,
                error: MatchErrorKind::WhatIf(std::sync::Arc::new(e)),
            })
        })
    );
    for (rel, fact_args) in outcome.facts.iter() {
        if **rel != *rel_name || fact_args.len() != args.len() {
            continue;
        }
        let saved = frame.mask;
        if or_fail!(ctx, match_args(ctx, args, fact_args, frame).map_err(err)) {
            let flow = solve(ctx, steps, i + 1, new_fact, frame, sink);
            if flow != Flow::Continue {
                frame.mask = saved;
                return flow;
            }
        }
        frame.mask = saved;
    }
    Flow::Continue
}

/// A built-in's solutions (made at step `next - 1`, or ahead of the join for every rule that
/// calls it the same way): each binds or checks `outputs` and the search goes on at `next`.
#[allow(clippy::too_many_arguments)] // the recursion's state, passed through as `solve` has it
pub fn solve_solutions<S: Steps + ?Sized>(
    ctx: &mut Ctx<'_>,
    steps: &S,
    next: usize,
    new_fact: FactId,
    frame: &mut Frame,
    sink: &mut Sink<'_>,
    at: &CondAt,
    outputs: &[PatArg],
    sols: &Solutions,
) -> Flow {
    if crate::budget::charge(sols.len()) {
        return ctx.fail(timed_out(at));
    }
    for k in 0..sols.len() {
        let saved = frame.mask;
        match match_args(ctx, outputs, sols.row(k), frame) {
            Ok(true) => {
                let flow = solve(ctx, steps, next, new_fact, frame, sink);
                if flow != Flow::Continue {
                    frame.mask = saved;
                    return flow;
                }
            }
            Ok(false) => {}
            Err(e) => return ctx.fail(eval_error(at, e)),
        }
        frame.mask = saved;
    }
    Flow::Continue
}

/// Calls the built-in of a step with outputs (`at`) on the values of `inputs`, its solutions into
/// `sols`: the call a join's step makes (generated joins make it through here too).
pub fn make_call(
    ctx: &mut Ctx<'_>,
    frame: &mut Frame,
    at: &CondAt,
    builtin: &dyn crate::builtins::Builtin,
    inputs: &[Expr],
    sols: &mut Solutions,
) -> MatchResult<()> {
    // A plain loop: collecting through `Result` adapters costs more than the call itself.
    let mut argv = std::mem::take(&mut frame.argv);
    for (k, a) in inputs.iter().enumerate() {
        let set = set_arg(&mut argv, k, a, &frame.vars, ctx.params, &mut ctx.calls);
        if let Err(e) = set {
            frame.argv = argv;
            return Err(eval_error(at, e));
        }
    }
    ctx.calls += 1;
    let called = with_borrowed(&argv[..inputs.len()], Some, |args| builtin.call(args, sols))
        .unwrap_or_else(|| unreachable!("every argument is set"));
    frame.argv = argv;
    called.map_err(|e| eval_error(at, EvalError::from(e)))
}

/// Sets argument `k` of a call to the value of `e`, leaving a shared value in place when the slot
/// already holds that very value.
#[inline]
fn set_arg(
    argv: &mut Vec<Value>,
    k: usize,
    e: &Expr,
    vars: &[Value],
    params: &[Value],
    calls: &mut u64,
) -> Result<(), EvalError> {
    let v = match e {
        Expr::Var(s) => &vars[*s as usize],
        Expr::Const(v) => v,
        Expr::Param(i) => &params[*i as usize],
        _ => {
            let v = eval(e, vars, params, calls)?;
            match argv.get_mut(k) {
                Some(slot) => *slot = v,
                None => argv.push(v),
            }
            return Ok(());
        }
    };
    put_arg(argv, k, v);
    Ok(())
}

/// Makes argument `k` of a call a copy of `v`, leaving a shared value in place when the slot
/// already holds that very value (the same hand in call after call: no reference count touched).
#[inline(always)]
fn put_arg(argv: &mut Vec<Value>, k: usize, v: &Value) {
    // The two commonest cases in place (an integer over an integer, the very value again); the
    // rest, which may drop a shared value or grow the vector, out of line.
    let done = match (argv.get_mut(k), v) {
        (Some(Value::Int(slot)), Value::Int(i)) => {
            *slot = *i;
            true
        }
        (Some(slot), v) => slot.same(v),
        (None, _) => false,
    };
    if !done {
        put_arg_slow(argv, k, v);
    }
}

/// [`put_arg`] for any slot and value.
#[inline(never)]
fn put_arg_slow(argv: &mut Vec<Value>, k: usize, v: &Value) {
    match argv.get_mut(k) {
        Some(slot) => *slot = v.clone(),
        None => argv.push(v.clone()),
    }
}

/// The elements an unbound `?v in list` iterates over, as `Value::elements` lists them.
pub enum Items {
    List(crate::value::Shared<[Value]>),
    Cards(crate::value::Shared<crate::cards::Cards>),
}

impl Items {
    /// The elements of a list or card group, held by one shared handle (`None` for any other value).
    #[inline(always)]
    pub fn of(v: &Value) -> Option<Items> {
        match v {
            Value::List(items) => Some(Items::List(items.clone())),
            Value::Cards(c) => Some(Items::Cards(c.clone())),
            _ => None,
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Items::List(items) => items.len(),
            Items::Cards(c) => c.cards().len(),
        }
    }

    /// Binds slot `s` to element `k` (`k < len()`), written straight into the slot: made aside
    /// and passed to `Frame::bind`, the value was read back as a block moments after it was
    /// written piecewise, a store-forwarding stall that held half of `bind`'s time.
    #[inline(always)]
    pub fn bind(&self, frame: &mut Frame, s: Slot, k: usize) {
        match self {
            Items::List(items) => frame.bind_ref(s, &items[k]),
            Items::Cards(c) => {
                frame.vars[s as usize] = Value::Card(c.cards()[k]);
                frame.mask |= 1u64 << s;
            }
        }
    }
}

/// Matches pattern arguments against values, binding unbound variables. On failure the caller
/// restores the mask. Computed arguments are compared last, once the others match, as a test
/// after the pattern would (docs/semantics.md, "Computed pattern arguments"): one that cannot be
/// computed is an error only for a fact that matches otherwise.
pub fn match_args(ctx: &mut Ctx<'_>, args: &[PatArg], values: &[Value], frame: &mut Frame) -> Result<bool, EvalError> {
    // The computed arguments met, one bit each (past the 64th, all from there on): the second
    // pass visits only them, not the whole pattern again.
    let mut computed = 0u64;
    for (i, (a, v)) in args.iter().zip(values).enumerate() {
        match a {
            PatArg::Wild => {}
            PatArg::Var(s) => {
                if frame.bound(*s) {
                    if !frame.vars[*s as usize].loose_eq(v) {
                        return Ok(false);
                    }
                } else {
                    frame.bind_ref(*s, v);
                }
            }
            // A constant (`role("defend")`, `candidate("attack", …)`) is compared in place.
            PatArg::Expr(Expr::Const(k)) => {
                if !k.loose_eq(v) {
                    return Ok(false);
                }
            }
            PatArg::Expr(_) => computed |= 1u64 << i.min(63),
        }
    }
    while computed != 0 {
        let i = computed.trailing_zeros() as usize;
        computed &= computed - 1;
        let last = if i == 63 { args.len() } else { i + 1 };
        for (a, v) in args.iter().zip(values).take(last).skip(i) {
            if let PatArg::Expr(e) = a {
                if !matches!(e, Expr::Const(_)) && !operand(e, &frame.vars, ctx.params, &mut ctx.calls)?.loose_eq(v) {
                    return Ok(false);
                }
            }
        }
    }
    Ok(true)
}

/// Matches one pattern against one given fact (the seed of a join).
pub fn match_fact(ctx: &mut Ctx<'_>, args: &[PatArg], fact: FactId, frame: &mut Frame) -> Result<bool, EvalError> {
    let mem = ctx.mem;
    match_args(ctx, args, mem.args_of(fact), frame)
}
