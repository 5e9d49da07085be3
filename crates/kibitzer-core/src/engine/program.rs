//! A rule set ready to run: the checked rule set (`lang::ir`) with each condition lowered to the
//! forms the matcher runs, plus the match plans `compile` adds.

use super::fast::Fast;
use super::numprog::NumProg;
use crate::builtins::Builtin;
use crate::lang::diagnostics::Diagnostic;
use crate::lang::ir;
use crate::lang::source::SourceMap;
use crate::value::{Constant, Value};
use std::sync::Arc;

pub use crate::lang::ir::RelId;
pub(crate) use crate::lang::ir::{
    Action, Expr, InputDecl, ParamDecl, ParamDomain, PatArg, Relation, Slot, WhatIfTarget,
};

/// How the matcher evaluates a condition: by walking its tree, or by a form decoded once at load
/// that reads its operands in place. A decoded form answers exactly as the tree does, or gives up
/// and leaves the condition to the tree (another type, a failing built-in).
#[derive(Clone, Default)]
pub(crate) enum Lowered {
    /// The condition's tree, evaluated as written.
    #[default]
    Tree,
    /// One of the commonest tests and bindings (`fast`).
    Fast(Fast),
    /// An arithmetic test or binding as a postfix program (`numprog`).
    Num(NumProg),
    /// An aggregate of a rule's conditions that reads no variable another condition of the
    /// rule binds: its value depends on working memory alone, so it is computed once for each
    /// state of memory (slot `n` of the session's memo), not again for every activation.
    Memo(u32),
}

impl Lowered {
    /// The recognised test or binding, if the condition has one.
    #[inline(always)]
    pub fn fast(&self) -> Option<Fast> {
        match self {
            Lowered::Fast(f) => Some(*f),
            _ => None,
        }
    }
}

/// A condition as the engine runs it.
pub(crate) type Cond = ir::Cond<Lowered>;
/// A lowered condition with its span.
pub(crate) type CondAt = ir::CondAt<Lowered>;
/// A rule as the engine runs it.
pub(crate) type RuleIr = ir::RuleIr<Lowered>;

/// How the engine matches one rule (built by `compile`).
#[derive(Debug, Clone, Default)]
pub(crate) struct RulePlan {
    /// Conditions checked while joining (patterns, tests, built-ins), as indices into `conds`.
    pub join: Vec<u16>,
    /// Conditions checked when the activation is selected (negations, aggregates and whatever
    /// depends on an aggregate's result), in the order written.
    pub select: Vec<u16>,
    /// For each join pattern: the order to evaluate the join when a new fact arrives there,
    /// with, per step, whether that step must skip the new fact (see `compile`).
    pub seeds: Vec<Seed>,
    /// Bindings only the `because` text reads (`?steps = mahjong.steps(?n)`), in the order
    /// written: left out of matching, computed from the firing's other bindings when an
    /// explanation is asked for (`Session::firing_vars`). A binding has exactly one value, so
    /// leaving it out changes no match; a run that is never explained never pays for its words.
    pub deferred: Vec<u16>,
    /// Variables a join pattern binds that nothing reads once the rule is selected — not the
    /// actions, not a negation or aggregate — as (slot, pattern condition, argument position):
    /// an activation keeps no copy of their values (for a card group or list, no shared count
    /// raised per activation and lowered at the next run). An explanation reads them back from
    /// the fact the firing matched there (`Session::firing_vars`), where the join read them. Only
    /// a variable written once, in one pattern, and bound nowhere else: its value is then that
    /// argument of that fact whichever pattern the join started from.
    pub restored: Vec<(Slot, u16, u16)>,
    /// The slots of `restored`, as bits.
    pub elided: u64,
    /// The relations the rule's negations and aggregates read that some action retracts from,
    /// and those that some action asserts into whose new facts can change a verdict (an
    /// aggregate's, or a negation's nested in a negation): a selected activation stands, and
    /// comes back when a fact of one of them is retracted or asserted (`Session::wake`).
    pub wake_on_retract: Vec<RelId>,
    pub wake_on_assert: Vec<RelId>,
    /// The rule has an aggregate: a fired activation comes back with new values (refraction
    /// is per value of its late bindings).
    pub refires: bool,
    /// The slots bound at selection (aggregate results and what depends on them).
    pub late: u64,
    /// The slots the join binds (or reads): those an activation has before selection.
    pub early: u64,
    /// The rule has an `assert logical`: each firing is a support (`Session::open_support`).
    pub logical: bool,
    /// Every action is a plain `assert` (no `logical`, no retract, modify or halt): a firing
    /// runs `Session::assert_plain`, which makes ready for nothing else (no support, no fact
    /// handles, one kind of action).
    pub plain: bool,
    /// The relations its selection reads that some action changes: a change there may end a
    /// support's match.
    pub support_rels: Vec<RelId>,
}

/// The join order for one positive pattern receiving a new fact.
#[derive(Debug, Clone)]
pub(crate) struct Seed {
    pub cond: u16,
    pub rest: Vec<(u16, bool)>,
    /// Per step of `rest`: empty, or, for a test or binding the planner moved ahead of a pattern
    /// or built-in it does not depend on, the steps from there on in the order written. An error
    /// in a moved step resumes the search in that order, so that it surfaces exactly when (and
    /// as often as) the order written would have reached it.
    pub fallback: Vec<Vec<(u16, bool)>>,
    /// Whether `rest` reorders the patterns written (see `compile::reorder_patterns`): the
    /// matches are then put back in the order the written join makes them.
    pub reordered: bool,
    /// For a reordered join: the variables to take, after a match, from the pattern written
    /// first to bind them, as (slot, condition, argument position).
    pub rebind: Vec<(Slot, u16, u16)>,
    /// The seed's variables a step written before it binds first (an `in`, a binding, a
    /// built-in's outputs): the fact leaves them unbound, and `rest` matches it again where it is
    /// written (the step `(cond, true)`), so that the matches, their values and any error are
    /// those of the order written.
    pub taken: u64,
    /// The seed's variables a pattern written before it binds first, as (slot, that pattern,
    /// argument position): when that pattern matches, the variable takes its fact's value, as in
    /// the order written (`1` and `1.0` match each other, and show and compute differently).
    pub written_first: Vec<(Slot, u16, u16)>,
}

/// A rule pattern that a new fact of one relation starts a join at (a seed), with what the
/// per-fact loop checks before joining it, kept together in the relation's list so that a rule
/// ruled out by its first checks costs a few word operations.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Trigger {
    pub rule: u32,
    /// The seed's index in the rule's plan.
    pub seed: u16,
    /// The checks of the new fact's own arguments this seed's join starts with, as bits of the
    /// relation's `shared_tests`: checked once per new fact for every rule that starts with them,
    /// and a rule whose fact fails one is not joined at all. They are what the seed pattern itself
    /// requires (a constant argument, a repeated variable; the join still matches the whole
    /// pattern), then the first `prefix_steps` steps of the seed's `rest`: tests that read only
    /// variables the pattern binds. Pure, so they run in the order of their bits, and the first
    /// that fails stops the others.
    pub prefix: u64,
    /// How many steps of `rest` the prefix checked: when all its checks passed, the join starts
    /// after them (when one is undecided, at the start, as written).
    pub prefix_steps: u16,
    /// When the step after the prefix is a built-in with outputs whose arguments come from the new
    /// fact alone: its index into the relation's `shared_calls`. Called once per new fact for all
    /// the rules that call it so (even for one: a rule it gives no solution is then not joined at
    /// all), the others are joined from its solutions on.
    pub first_call: Option<u16>,
    /// A later condition of the join (its index) that makes the very same call as `first_call`
    /// (same built-in, same arguments from the same fact): it goes through the solutions already
    /// made instead of calling again.
    pub again: Option<u16>,
    /// When the join's first step after the prefix is a pattern of constants and `_` only (a
    /// phase such as `stage("labeling")`): its index into `Program::gates`. While no fact
    /// matches it the rule cannot match, and the loop skips the seed without joining it.
    pub gate: Option<u32>,
}

/// A relation's seeds by the constant they require at one argument position, for a relation
/// many rules start from with different constants there (`v(1)`, `v(2)`, … in 10,000 rules): a
/// new fact visits only the seeds its value can match, in the order of the relation's list.
#[derive(Debug, Clone)]
pub(crate) struct TriggerIndex {
    pub pos: u16,
    /// The seeds (indices into the relation's triggers, ascending) by the hash of the constant
    /// at `pos`, for the constants compared exactly (not numbers with a fraction or lists).
    pub by_value: rustc_hash::FxHashMap<u64, Vec<u32>>,
    /// The other seeds: any argument there but such a constant.
    pub others: Vec<u32>,
}

/// A pattern of constants and `_` only that seeds' joins start with (see `Trigger::gate`):
/// whether some live fact matches it is worked out again only when its relation changes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Gate {
    pub rel: RelId,
    /// The constant arguments, by position.
    pub consts: Vec<(u16, Constant)>,
}

/// A built-in with outputs that rules' joins call first, on the new fact's arguments
/// (`rank_held(?h, 2)` in Rule7 and Rule8).
#[derive(Clone)]
pub(crate) struct SharedCall {
    pub builtin: Arc<dyn Builtin>,
    pub args: Vec<SharedArg>,
    /// Values per solution (the outputs the call binds).
    pub arity: usize,
}

/// An argument of a shared call.
#[derive(Clone, PartialEq)]
pub(crate) enum SharedArg {
    /// The new fact's argument at this position.
    Fact(u16),
    Const(Constant),
    Param(u16),
}

impl SharedCall {
    /// True if both call the same built-in with the same arguments.
    pub fn same(&self, other: &SharedCall) -> bool {
        std::ptr::addr_eq(Arc::as_ptr(&self.builtin), Arc::as_ptr(&other.builtin))
            && self.args == other.args
            && self.arity == other.arity
    }
}

/// A test on one argument of a new fact, which several rules' joins may start with
/// (`card_count(?h) == 5` in five of the nine stud rules, the constant `7` of
/// `showdown(?m, 7, _, ?t, 7, _)`).
#[derive(Clone)]
pub(crate) struct SharedTest {
    /// The argument of the fact the test reads.
    pub pos: u16,
    pub check: SharedCheck,
}

impl SharedTest {
    /// The test's outcome on a new fact's arguments: `None` when the fast form cannot tell
    /// (another type, a failing built-in), and the join then decides as it always does.
    /// Built-ins called are counted.
    #[inline]
    pub fn outcome(&self, values: &[crate::value::Value], calls: &mut u64) -> Option<bool> {
        let v = values.get(self.pos as usize)?;
        match self.check {
            // As the pattern compares them: the constant, or the argument where the pattern
            // first binds the variable, against this one.
            SharedCheck::EqConst(ref k) => Some(k.loose_eq(v)),
            SharedCheck::SameAs(first) => Some(values.get(first as usize)?.loose_eq(v)),
            SharedCheck::Test(test) => test.test_value(v, calls),
        }
    }
}

/// What a shared test checks: what the seed pattern itself requires of the argument, or a test of
/// one variable the join starts with, in its fast form.
#[derive(Clone)]
pub(crate) enum SharedCheck {
    /// The pattern has a constant here (`showdown(?m, 2, _, ?t, 2, _)`).
    EqConst(Box<Constant>),
    /// The pattern repeats a variable here that it first binds at argument `.0`
    /// (`showdown(?m, ?a, ?an, ?t, ?a, _)`).
    SameAs(u16),
    /// `f(x) OP k`, `f(x)`, `!f(x)` or `x OP k` (see [`Fast::test_value`]).
    Test(Fast),
}

impl SharedCheck {
    /// True if both are the same test (the same plain function, comparison and constant; the
    /// same constant, structurally; the same first argument).
    pub fn same(&self, other: &SharedCheck) -> bool {
        match (self, other) {
            (SharedCheck::Test(a), SharedCheck::Test(b)) => a.same_test(b),
            (SharedCheck::EqConst(a), SharedCheck::EqConst(b)) => a == b,
            (SharedCheck::SameAs(a), SharedCheck::SameAs(b)) => a == b,
            _ => false,
        }
    }
}

/// Most shared tests, and most shared calls, per relation: a new fact's join keeps which it ran
/// and what they said as bits of one word each. Beyond that, a test or call is simply left to
/// each rule's join (as when it is not shared at all).
pub(crate) const MAX_SHARED: usize = 64;

/// How the engine matches a rule set's rules: what `compile::compile` makes of them, kept in
/// the [`Program`] (`Program::matching`).
pub(crate) struct Plans {
    /// Each rule's plan, in rule order.
    pub plans: Vec<RulePlan>,
    /// For each relation, the seeds a new fact of it starts, in rule order.
    pub triggers: Vec<Vec<Trigger>>,
    /// For each input (in declaration order, the order a run inserts them), the seeds its fact
    /// starts while the inputs go in: its relation's, less those of rules that also read a later
    /// input or a relation no input holds. Such a seed would find no fact of that later input, so
    /// it would join nothing, and the later input's own seed makes the very same matches; and no
    /// rule has fired yet while the inputs go in, so a derived relation has no fact to join (its
    /// own facts seed the rule when they come).
    pub input_triggers: Vec<Vec<Trigger>>,
    /// For each relation, the tests on a new fact's arguments its seeds start with (see
    /// `Trigger::prefix`), at most [`MAX_SHARED`].
    pub shared_tests: Vec<Vec<SharedTest>>,
    /// For each relation, the built-ins its seeds call first (see `Trigger::first_call`), at most
    /// [`MAX_SHARED`].
    pub shared_calls: Vec<Vec<SharedCall>>,
    /// The patterns seeds are gated on (see `Trigger::gate`), each once.
    pub gates: Vec<Gate>,
    /// Per relation: its seeds by a constant they require, when many do (see `TriggerIndex`).
    pub trigger_index: Vec<Option<TriggerIndex>>,
    /// Rules with no positive pattern: matched once at the start of a run.
    pub initial: Vec<u32>,
    /// For each relation, the argument positions a run may look up by value: the ones working
    /// memory keeps join indexes for (see `compile::probed_positions`).
    pub probed: Vec<Vec<u16>>,
}

/// A rule set ready to run.
pub struct Program {
    pub(crate) name: String,
    pub(crate) description: Option<String>,
    pub(crate) inputs: Vec<InputDecl>,
    pub(crate) outputs: Vec<RelId>,
    /// Per relation: how many facts a query may conclude, for an output declared `one` or
    /// `exactly one`.
    pub(crate) answers: Vec<Option<crate::lang::ast::Answers>>,
    pub(crate) relations: Vec<Relation>,
    pub(crate) params: Vec<ParamDecl>,
    pub(crate) rules: Vec<RuleIr>,
    /// The order among activations of equal salience.
    pub(crate) strategy: crate::lang::ir::Strategy,
    /// The first-match groups; empty for a rule set without any, whose runs never look at them.
    pub(crate) groups: Vec<crate::lang::ir::GroupDecl>,
    /// How the rules are matched: each rule's plan and what a new fact of each relation starts.
    pub(crate) matching: Plans,
    pub(crate) sources: SourceMap,
    pub(crate) warnings: Vec<Diagnostic>,
    /// How many aggregates have a memo slot (`Lowered::Memo`).
    pub(crate) memos: u32,
}

/// Threads share a program: it holds only constants (`Constant`), never a query's values.
const _: fn() = || {
    fn shared_by_threads<T: Send + Sync>() {}
    shared_by_threads::<Program>();
};

impl Program {
    /// The relation of this name.
    pub fn relation(&self, name: &str) -> Option<RelId> {
        self.relations.iter().position(|r| r.name == name).map(|i| i as RelId)
    }

    /// The rule of this name.
    pub fn rule_index(&self, name: &str) -> Option<usize> {
        self.rules.iter().position(|r| r.name == name)
    }

    /// The input of this name (its position among the inputs a session is given).
    pub fn input_index(&self, name: &str) -> Option<usize> {
        self.inputs.iter().position(|d| d.name == name)
    }

    /// The parameter of this name.
    pub fn param_index(&self, name: &str) -> Option<usize> {
        self.params.iter().position(|p| p.name == name)
    }

    /// Which rules can matter to facts of `rel`: the rules that assert or retract a relation in
    /// the closure of `rel` under "is asserted by a rule whose conditions mention". A what-if that
    /// only looks at `rel` runs just these rules (the others cannot change what it sees), and
    /// rules that can halt the run are always kept, as are the rules of a kept rule's group.
    pub fn relevant_to(&self, rel: RelId) -> Vec<bool> {
        let mut needed = vec![false; self.relations.len()];
        let mut keep = vec![false; self.rules.len()];
        if let Some(n) = needed.get_mut(rel as usize) {
            *n = true;
        }
        loop {
            let mut changed = false;
            for (i, rule) in self.rules.iter().enumerate() {
                if keep[i] {
                    continue;
                }
                let touches = rule.actions.iter().any(|a| match a {
                    Action::Assert { rel, .. } | Action::Retract { rel, .. } | Action::Modify { rel, .. } => {
                        needed[*rel as usize]
                    }
                    Action::RetractFact { cond } => match rule.conds.get(*cond as usize).map(|c| &c.cond) {
                        Some(Cond::Pattern { rel, .. }) => needed[*rel as usize],
                        _ => false,
                    },
                    Action::Halt => true,
                });
                // A rule of a kept rule's group decides whether that rule may fire.
                let grouped =
                    |g: Option<u32>| g.is_some() && self.rules.iter().zip(&keep).any(|(r, k)| *k && r.group == g);
                if touches || grouped(rule.group) {
                    keep[i] = true;
                    changed = true;
                    mentions(&rule.conds, &mut |r| needed[r as usize] = true);
                }
            }
            if !changed {
                return keep;
            }
        }
    }

    /// For each input: whether a rule marked in `rules` (a `relevant_to` mask) reads it. A run
    /// restricted to those rules need not assert the others.
    pub fn inputs_read_by(&self, rules: &[bool]) -> Vec<bool> {
        let mut read = vec![false; self.relations.len()];
        for (rule, _) in self.rules.iter().zip(rules).filter(|(_, keep)| **keep) {
            mentions(&rule.conds, &mut |r| read[r as usize] = true);
        }
        self.inputs.iter().map(|d| read[d.rel as usize]).collect()
    }

    /// Calls `f` with every value the program holds as written in the rule file: input defaults,
    /// parameters, and the constants in the rules' conditions and actions (the pre-decoded and
    /// shared forms copy these). All are frozen: each is held as a `value::Constant`, which is
    /// what makes a `Program` `Send + Sync` (checked at compile time above).
    pub fn each_kept_value(&self, f: &mut dyn FnMut(&Value)) {
        fn expr(e: &Expr, f: &mut dyn FnMut(&Value)) {
            match e {
                Expr::Const(v) => f(v),
                Expr::Var(_) | Expr::Param(_) => {}
                Expr::List(items) | Expr::Call { args: items, .. } => items.iter().for_each(|e| expr(e, f)),
                Expr::Unary(_, a) => expr(a, f),
                Expr::Binary(_, a, b) | Expr::Index(a, b) => {
                    expr(a, f);
                    expr(b, f);
                }
                Expr::If(c, a, b) => [c, a, b].into_iter().for_each(|e| expr(e, f)),
            }
        }
        fn args(list: &[PatArg], f: &mut dyn FnMut(&Value)) {
            for a in list {
                if let PatArg::Expr(e) = a {
                    expr(e, f);
                }
            }
        }
        fn conds(list: &[CondAt], f: &mut dyn FnMut(&Value)) {
            for c in list {
                match &c.cond {
                    Cond::Pattern { args: a, .. } => args(a, f),
                    Cond::Test(e) | Cond::Bind { expr: e, .. } | Cond::In { list: e, .. } => expr(e, f),
                    Cond::CallOut { inputs, outputs, .. } => {
                        inputs.iter().for_each(|e| expr(e, f));
                        args(outputs, f);
                    }
                    Cond::Not { body } => conds(body, f),
                    Cond::Aggregate { value, body, .. } => {
                        value.iter().for_each(|e| expr(e, f));
                        conds(body, f);
                    }
                    Cond::WhatIf { inputs, args: a, .. } => {
                        inputs.iter().for_each(|(_, e)| expr(e, f));
                        args(a, f);
                    }
                }
            }
        }
        self.inputs
            .iter()
            .filter_map(|i| i.default.as_deref())
            .for_each(&mut *f);
        self.params.iter().for_each(|p| f(&p.value));
        for rule in &self.rules {
            conds(&rule.conds, f);
            for a in &rule.actions {
                match a {
                    Action::Assert { args: e, .. } => e.iter().for_each(|e| expr(e, f)),
                    Action::Retract { args: a, .. } => args(a, f),
                    Action::Modify { args: a, .. } => a.iter().flatten().for_each(|e| expr(e, f)),
                    Action::RetractFact { .. } | Action::Halt => {}
                }
            }
        }
    }

    /// The default value of every parameter, indexed as [`Program::param_index`] numbers them.
    pub fn default_params(&self) -> Vec<Value> {
        self.params.iter().map(|p| p.value.value().clone()).collect()
    }
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Program({}, {} rules)", self.name, self.rules.len())
    }
}

/// Calls `f` with the relation of every pattern of `conds`, `not` and aggregate bodies included.
pub(super) fn mentions(conds: &[CondAt], f: &mut impl FnMut(RelId)) {
    for c in conds {
        match &c.cond {
            Cond::Pattern { rel, .. } => f(*rel),
            Cond::Not { body } | Cond::Aggregate { body, .. } => mentions(body, f),
            _ => {}
        }
    }
}
