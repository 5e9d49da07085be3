//! What a run takes and gives: its options and bounds, why it stopped, its counters, and the
//! errors a query can fail with, located in the rule files.

pub use super::eval::{EvalError, EvalFailure};
use super::program::Program;
use crate::cards::NotationError;
use std::sync::Arc;
use thiserror::Error;

/// Why a rule's condition or action failed ([`RunError::InRule`]).
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum RuleFailure {
    /// An expression or a built-in could not be evaluated: a division by zero, an overflow, an
    /// index out of range, a type, a built-in refusing its arguments ([`EvalError::failure`]).
    #[error(transparent)]
    Eval(EvalError),
    /// A what-if sub-query failed.
    #[error("what-if failed: {0}")]
    WhatIf(Arc<RunError>),
    /// `modify` of a fact the same firing already retracted.
    #[error("`modify` of a fact this firing already retracted")]
    ModifyRetracted,
}

impl From<EvalError> for RuleFailure {
    fn from(e: EvalError) -> RuleFailure {
        RuleFailure::Eval(e)
    }
}

/// A failure while running a query.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum RunError {
    /// A condition or action could not be evaluated.
    #[error("{location}: in rule `{rule}`: {failure}")]
    InRule {
        /// The rule's name.
        rule: String,
        /// Where the failing condition or action is written.
        location: RuleLocation,
        /// What went wrong.
        failure: RuleFailure,
    },
    /// The firing limit was reached: most likely rules that keep re-triggering each other.
    #[error("stopped after {limit} firings: the rules keep firing, most often {rules} (a rule loop? if not, raise the firing limit, `max_firings`)")]
    FiringLimit {
        /// The limit.
        limit: u64,
        /// The rules that fired most, with their counts.
        rules: String,
    },
    /// An input the rule set declares was not given and has no default.
    #[error("missing input `{0}`")]
    MissingInput(String),
    /// An input that could not be read.
    #[error("input `{name}`: {source}")]
    BadInput {
        /// The input.
        name: String,
        /// Why its text could not be read.
        #[source]
        source: NotationError,
    },
    /// Inputs that are each well formed but together describe an impossible position, as the
    /// game's built-ins found when they read them.
    #[error("input `{name}`: {message}")]
    BadPosition {
        /// The input named by the game's check.
        name: String,
        /// What is impossible.
        message: String,
    },
    /// A value for an input the rule set does not declare.
    #[error("`{name}` is not an input of `{ruleset}` (its inputs: {known})")]
    UnknownInput {
        /// The name given.
        name: String,
        /// The rule set asked.
        ruleset: String,
        /// Its inputs, listed.
        known: String,
    },
    /// An input value of the wrong type.
    #[error("input `{name}` must be {expected}, got {got}")]
    InputType {
        /// The input.
        name: String,
        /// The type it needs.
        expected: &'static str,
        /// The value given.
        got: String,
    },
    /// An input value outside the domain the rule set declares for it (`in 1..4`).
    #[error("input `{name}` must be {expected}, got `{got}`")]
    InputDomain {
        /// The input.
        name: String,
        /// Its domain, as what a value must be (`within 1..4`, `one of 1, 2`).
        expected: String,
        /// The value given, as written.
        got: String,
    },
    /// A parameter override of an unknown name or wrong type.
    #[error("{0}")]
    Param(String),
    /// A `whatif` naming a rule set that is not loaded.
    #[error("what-if: unknown rule set `{0}`")]
    UnknownRuleSet(String),
    /// What-ifs nested too deeply (a rule set asking itself forever).
    #[error("what-if queries nest deeper than {0} levels")]
    WhatIfDepth(usize),
    /// `why-not` of a rule the rule set does not have.
    #[error("no rule named `{0}`")]
    UnknownRule(String),
    /// A budget stopped a what-if sub-query: the asking run stops for the same reason, and
    /// reports it as its [`RunResult::stop`] rather than as an error.
    #[error("a what-if sub-query stopped: {0}")]
    Budget(StopReason),
    /// An output declared `one` or `exactly one` concluded twice, or `exactly one` not at all.
    #[error("{0}")]
    Answers(String),
    /// A fact whose lists nest deeper than [`crate::value::MAX_VALUE_DEPTH`].
    #[error("{location}: in rule `{rule}`: a value nests lists more than {depth} deep", depth = crate::value::MAX_VALUE_DEPTH)]
    TooDeep {
        /// The rule whose action made the value.
        rule: String,
        /// Where the action is written.
        location: RuleLocation,
    },
}

/// Limits and recording options of a run.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Stop with [`RunError::FiringLimit`] after this many firings.
    pub firing_limit: u64,
    /// Record every firing and dropped activation for `--trace`.
    pub trace: bool,
    /// Record, for each activation that loses at selection, the condition that failed and its
    /// values, so that `Explainer::why_not` judges a rule as of the moment it lost. Without it
    /// (and without `trace`) a why-not judges against the final memory; it costs a second look
    /// at each lost activation.
    pub why_not: bool,
    /// Wall-clock budget of the run, what-if sub-queries and native searches included: past it
    /// the run stops with [`StopReason::Timeout`] and the conclusions it has. `None`: no limit.
    pub timeout: Option<std::time::Duration>,
    /// Most live facts working memory may hold; past it the run stops with
    /// [`StopReason::MemoryLimit`].
    pub max_facts: u64,
    /// Most value cells (a number, a card or a list element each) the live facts may hold in
    /// all; past it the run stops with [`StopReason::MemoryLimit`].
    pub max_cells: u64,
    /// Most activations that may wait on the agenda at once; past it the run stops with
    /// [`StopReason::MemoryLimit`].
    pub max_activations: u64,
    /// Keep each firing's record (its rule, bindings and matched facts), which explanations,
    /// why-not and the trace read. On by default. Off, a run keeps nothing of what it has done:
    /// its memory follows the facts and activations live now, not the firings so far, and its
    /// conclusions cannot be explained.
    pub record: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            firing_limit: 100_000,
            trace: false,
            why_not: false,
            timeout: None,
            max_facts: 1_000_000,
            max_cells: 8_000_000,
            max_activations: 1_000_000,
            record: true,
        }
    }
}

/// Which bound of [`RunOptions`] stopped a run with [`StopReason::MemoryLimit`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MemoryBound {
    /// [`RunOptions::max_facts`]: live facts.
    Facts,
    /// [`RunOptions::max_cells`]: value cells of the live facts.
    Cells,
    /// [`RunOptions::max_activations`]: activations waiting on the agenda.
    Activations,
}

impl MemoryBound {
    /// The option of [`RunOptions`] that sets this bound.
    pub fn option(self) -> &'static str {
        match self {
            MemoryBound::Facts => "max_facts",
            MemoryBound::Cells => "max_cells",
            MemoryBound::Activations => "max_activations",
        }
    }
}

/// Why a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The agenda is empty: nothing more can fire.
    Quiescent,
    /// A rule executed `halt`.
    Halted,
    /// The wall-clock budget ran out ([`RunOptions::timeout`]); the conclusions are partial.
    Timeout,
    /// Working memory or the agenda reached a bound of [`RunOptions`] (`max_facts`, `max_cells`,
    /// `max_activations`); the conclusions are partial.
    MemoryLimit,
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StopReason::Quiescent => "quiescent",
            StopReason::Halted => "halted",
            StopReason::Timeout => "timeout",
            StopReason::MemoryLimit => "memory_limit",
        })
    }
}

impl StopReason {
    /// True when a budget cut the run short, so its conclusions may be incomplete.
    pub fn is_budget(self) -> bool {
        matches!(self, StopReason::Timeout | StopReason::MemoryLimit)
    }
}

/// Counters of one run.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Stats {
    /// Rules fired.
    pub fired: u64,
    /// Activations made (complete matches of a rule's join conditions).
    pub activations: u64,
    /// Activations that did not fire: a condition checked at selection failed.
    pub dropped: u64,
    /// Facts asserted, inputs included.
    pub facts: u64,
    /// Built-in calls.
    pub builtin_calls: u64,
    /// What-if sub-queries asked.
    pub whatif_asked: u64,
    /// Of those, answered from the memo of earlier ones.
    pub whatif_memo_hits: u64,
    /// Rules fired inside what-if sub-queries.
    pub whatif_fired: u64,
    /// Wall time of the run, in microseconds.
    pub micros: u64,
}

/// The end of a run.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RunResult {
    /// Why the run stopped.
    pub stop: StopReason,
    /// Its counters.
    pub stats: Stats,
    /// With [`StopReason::MemoryLimit`]: the bound reached.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound: Option<MemoryBound>,
}

/// Where in the rule files a failure happened.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RuleLocation {
    /// The rule file, as it was loaded.
    pub file: String,
    /// The line, from 1.
    pub line: usize,
    /// The column in characters, from 1.
    pub col: usize,
}

impl std::fmt::Display for RuleLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// The location of a span in a program's sources.
pub fn location(prog: &Program, span: crate::lang::source::Span) -> RuleLocation {
    let l = prog.sources.locate(span);
    RuleLocation {
        file: l.file.to_string(),
        line: l.line,
        col: l.col,
    }
}
