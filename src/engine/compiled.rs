//! Joins compiled ahead of time: Rust source generated from a rule set's match plans
//! (`engine::codegen`), built into the binary, and used in place of the matcher for the joins a
//! new fact starts.
//!
//! Why: the matcher interprets a plan step by step — a dispatch per step, a recursive call per
//! choice, an arithmetic program run op by op — and for a small join those are most of its
//! cost. Generated code is the same search written out: the steps in order, the arithmetic in
//! locals, the `in` loops as loops.
//!
//! It never decides anything the matcher would decide differently. Each step is either the
//! matcher's own pre-decoded form run in place ([`Fast`](super::fast::Fast)), the arithmetic
//! program's ops written out with the same helpers ([`NumProg::emit`](super::numprog::NumProg)),
//! a pattern on a relation of one fact, or an `in` over a list; wherever a value is not what the
//! fast form expects (a decimal, an overflow, a relation of several facts, an error to raise),
//! the generated code hands the search to the matcher at that very step with the frame as the
//! matcher would have it, and the matcher finishes it. Steps of any other kind are handed over
//! the same way.
//!
//! Generated code is tied to the program it was generated from: it is attached to a loaded
//! program only when generating code for that program now gives the same text (a digest of it),
//! so an edited rule file simply runs on the matcher until its code is generated again.

use super::eval::EvalError;
use super::matcher::{self, Ctx, Flow, Frame, PlanSteps, Sink, Steps};
use super::memory::FactId;
use super::program::{Cond, Program};
use super::value::Value;
use crate::builtins::registry::{OneFn, Solutions};

/// What generated code reads: the search's state, the plan it stands for (to hand over to the
/// matcher), and the built-ins and constants its text refers to by number.
pub struct Join<'j, 'c> {
    pub ctx: &'j mut Ctx<'c>,
    pub frame: &'j mut Frame,
    pub steps: &'j PlanSteps<'j>,
    pub new_fact: FactId,
    pub sink: &'j mut Sink<'j>,
    pub fns: &'j [OneFn],
    pub consts: &'j [Value],
    /// The solutions of the seed's first call when it was made ahead of the join, for every
    /// rule that starts with it (`Trigger::first_call`): the condition and its solutions.
    pub first: Option<(u16, &'j Solutions)>,
}

impl<'j> Join<'j, '_> {
    /// The solutions of condition `c`'s call when they were made before this join (ahead of
    /// it, or for an earlier step making the very same call).
    #[inline(always)]
    pub fn made(&self, c: u16) -> Option<&'j Solutions> {
        match self.first {
            Some((first, sols)) if first == c => Some(sols),
            _ => {
                let steps: &'j PlanSteps<'j> = self.steps;
                steps.made_call(c)
            }
        }
    }
}

/// A generated join: the seed's steps from `start` (the matcher's `solve` from that step).
pub type JoinFn = for<'j, 'c> fn(&mut Join<'j, 'c>, usize) -> Flow;

/// Generated code as a game registers it: the rule set's name, the digest of the text it was
/// generated as, and a join per (rule, seed).
#[derive(Clone, Copy)]
pub struct CompiledRules {
    pub ruleset: &'static str,
    pub digest: u64,
    pub joins: &'static [(u32, u16, JoinFn)],
}

/// Generated joins attached to a program: by rule and seed, with the built-ins and constants
/// the code refers to, taken from the program itself.
pub struct CompiledJoins {
    by_rule: Vec<Vec<Option<JoinFn>>>,
    pub fns: Vec<OneFn>,
    pub consts: Vec<Value>,
}

impl CompiledJoins {
    /// The generated join for `rule`'s seed `seed`, if there is one.
    #[inline]
    pub fn join(&self, rule: u32, seed: u16) -> Option<JoinFn> {
        *self.by_rule.get(rule as usize)?.get(seed as usize)?
    }
}

/// Attaches `code` to `prog` if it was generated from a program like it (the same digest);
/// returns whether it did.
pub fn attach(prog: &mut Program, code: &CompiledRules) -> bool {
    if code.ruleset != prog.name {
        return false;
    }
    let generated = super::codegen::generate(prog);
    if generated.digest != code.digest {
        return false;
    }
    let mut by_rule: Vec<Vec<Option<JoinFn>>> = prog.plans.iter().map(|p| vec![None; p.seeds.len()]).collect();
    for &(rule, seed, f) in code.joins {
        let Some(slot) = by_rule.get_mut(rule as usize).and_then(|s| s.get_mut(seed as usize)) else {
            return false;
        };
        *slot = Some(f);
    }
    prog.compiled = Some(Box::new(CompiledJoins {
        by_rule,
        fns: generated.tables.fns,
        consts: generated.tables.consts,
    }));
    true
}

/// Hands the search to the matcher at step `k` of the seed's plan, with the frame as it is.
#[inline(never)]
pub fn interpret(j: &mut Join<'_, '_>, k: usize) -> Flow {
    matcher::solve(j.ctx, j.steps, k, j.new_fact, j.frame, j.sink)
}

/// Makes the call of condition `c` (a built-in with outputs) as the matcher's step makes it, its
/// solutions into `sols`. False when it fails: the calls it counted are taken back, and the
/// caller hands the step to the matcher, which makes the call again and raises the error.
#[inline(never)]
pub fn call(j: &mut Join<'_, '_>, c: u16, sols: &mut Solutions) -> bool {
    let conds = j.steps.conds;
    let Some(at) = conds.get(c as usize) else {
        return false;
    };
    let Cond::CallOut {
        builtin,
        inputs,
        outputs,
    } = &at.cond
    else {
        return false;
    };
    sols.reset(outputs.len());
    let before = j.ctx.calls;
    match matcher::make_call(j.ctx, j.frame, at, builtin.as_ref(), inputs, sols) {
        Ok(()) => true,
        Err(_) => {
            j.ctx.calls = before;
            false
        }
    }
}

/// Matches solution `row` of condition `c`'s call against its outputs, as the matcher does.
#[inline(never)]
pub fn outputs_match(j: &mut Join<'_, '_>, c: u16, row: &[Value]) -> Result<bool, EvalError> {
    let conds = j.steps.conds;
    match conds.get(c as usize).map(|at| &at.cond) {
        Some(Cond::CallOut { outputs, .. }) => matcher::match_args(j.ctx, outputs, row, j.frame),
        _ => Ok(false),
    }
}

/// The search fails with `e` at condition `c`, as the matcher's step fails.
#[cold]
#[inline(never)]
pub fn fail_at(j: &mut Join<'_, '_>, c: u16, e: EvalError) -> Flow {
    let conds = j.steps.conds;
    match conds.get(c as usize) {
        Some(at) => j.ctx.fail(matcher::eval_error(at, e)),
        None => Flow::Failed,
    }
}

/// What generated code names.
pub mod prelude {
    pub use super::super::eval::{arith, compare_ints, neg, Num};
    pub use super::super::fast::Fast;
    pub use super::super::matcher::{Flow, Items};
    pub use super::super::numprog::{answer, call_lent, Lent, Native};
    pub use super::super::value::Value;
    pub use super::{call, fail_at, interpret, outputs_match, Join, JoinFn};
    pub use crate::builtins::registry::Solutions;
    pub use crate::lang::ast::BinaryOp;
}
