//! The checked rule set: what the checker produces from the syntax tree, with every name resolved
//! to a number (relations, variables, parameters, built-ins) and conditions in the order written.
//! The engine lowers it into its run plan; nothing here runs.

use super::ast::{AggregateOp, BinaryOp, UnaryOp};
use super::diagnostics::Diagnostic;
use super::source::{SourceMap, Span};
use super::template::Template;
use crate::builtins::{Builtin, TypeArgs};
use crate::value::{Constant, Value, ValueType};
use std::sync::Arc;

/// A checked rule set.
pub(crate) struct RuleSet {
    pub name: String,
    pub description: Option<String>,
    pub inputs: Vec<InputDecl>,
    pub outputs: Vec<RelId>,
    /// The outputs declared `one` or `exactly one`.
    pub answers: Vec<(RelId, crate::lang::ast::Answers)>,
    pub relations: Vec<Relation>,
    pub params: Vec<ParamDecl>,
    pub rules: Vec<RuleIr>,
    /// The order among activations of equal salience (`strategy NAME`).
    pub strategy: Strategy,
    /// The first-match groups (`group NAME first`), numbered as `RuleIr::group` names them.
    pub groups: Vec<GroupDecl>,
    pub sources: SourceMap,
    /// The checker's warnings (a rule set with errors is never made).
    pub warnings: Vec<Diagnostic>,
}

/// The conflict-resolution strategy: which of the waiting activations of the highest salience
/// fires first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Strategy {
    /// The rule declared first, then the activation made first (the default).
    #[default]
    FileOrder,
    /// The activation made last, whatever its rule (CLIPS's default, `strategy depth`).
    Depth,
    /// The activation made first, whatever its rule (`strategy breadth`).
    Breadth,
}

impl Strategy {
    /// The strategy of this name as a rule file writes it.
    pub fn from_name(name: &str) -> Option<Strategy> {
        match name {
            "file_order" => Some(Strategy::FileOrder),
            "depth" => Some(Strategy::Depth),
            "breadth" => Some(Strategy::Breadth),
            _ => None,
        }
    }

    /// Its name as a rule file writes it.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::FileOrder => "file_order",
            Strategy::Depth => "depth",
            Strategy::Breadth => "breadth",
        }
    }
}

/// A first-match group: of its rules whose conditions hold, only the first fires in a run.
#[derive(Debug, Clone)]
pub struct GroupDecl {
    pub name: String,
    /// Where it is declared.
    pub span: Span,
}

/// Relation number within one program.
pub type RelId = u32;
/// Variable slot within one rule.
pub(crate) type Slot = u16;

/// A relation: facts of the same name and arity.
#[derive(Debug, Clone)]
pub(crate) struct Relation {
    pub name: String,
    pub arity: usize,
}

/// A declared input: becomes the fact `name(value)`.
#[derive(Debug, Clone)]
pub(crate) struct InputDecl {
    pub name: String,
    pub rel: RelId,
    pub type_name: String,
    pub type_args: TypeArgs,
    pub value_type: ValueType,
    /// Reads the input from text, per its type (from the registry).
    pub parse: crate::builtins::registry::InputParser,
    pub default: Option<Constant>,
    /// The values a query may give (`in 1..4`, `in ["a", "b"]`); `None`: any its type reads.
    pub domain: Option<ParamDomain>,
    pub doc: Option<String>,
}

/// A parameter (overridable) or constant (fixed).
#[derive(Debug, Clone)]
pub(crate) struct ParamDecl {
    pub name: String,
    pub value: Constant,
    /// The values an override may take (`in 1..1000000`, `in ["a", "b"]`); `None`: any of the
    /// default's type.
    pub domain: Option<ParamDomain>,
    pub doc: Option<String>,
    pub constant: bool,
}

/// The values a parameter or an input may take.
#[derive(Debug, Clone)]
pub(crate) enum ParamDomain {
    /// Numbers from the first to the second, both included.
    Range(Constant, Constant),
    /// One of these values.
    OneOf(Vec<Constant>),
}

impl ParamDomain {
    /// True when `v` is one of the values the domain allows.
    pub fn admits(&self, v: &Value) -> bool {
        match self {
            ParamDomain::Range(low, high) => {
                v.compare(low).is_some_and(|o| o.is_ge()) && v.compare(high).is_some_and(|o| o.is_le())
            }
            ParamDomain::OneOf(items) => items.iter().any(|i| i.loose_eq(v)),
        }
    }

    /// What a value must be, as a refusal says it: `within 1..4`, `one of 1, 2`.
    pub fn expected(&self) -> String {
        match self {
            ParamDomain::Range(..) => format!("within {self}"),
            ParamDomain::OneOf(_) => self.to_string(),
        }
    }
}

impl std::fmt::Display for ParamDomain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamDomain::Range(low, high) => write!(f, "{low}..{high}"),
            ParamDomain::OneOf(items) => {
                let items: Vec<String> = items.iter().map(|v| v.to_string()).collect();
                write!(f, "one of {}", items.join(", "))
            }
        }
    }
}

/// An expression with names resolved.
#[derive(Clone)]
pub(crate) enum Expr {
    Const(Constant),
    Var(Slot),
    Param(u16),
    List(Vec<Expr>),
    /// `direct`: the built-in's plain function when it has one (`Builtin::direct`), called
    /// without dynamic dispatch; the same answers as `builtin.call_one`.
    Call {
        builtin: Arc<dyn Builtin>,
        args: Vec<Expr>,
        direct: Option<crate::builtins::registry::OneFn>,
    },
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    Index(Box<Expr>, Box<Expr>),
    /// `if c then a else b`: only the branch taken is computed.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
}

/// An argument position of a pattern.
#[derive(Clone)]
pub(crate) enum PatArg {
    /// Binds the variable, or compares with it when already bound.
    Var(Slot),
    /// Must equal the value of the expression.
    Expr(Expr),
    /// `_`: anything.
    Wild,
}

/// Whose rules a what-if runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum WhatIfTarget {
    /// The rule set itself (its name, as loaded, possibly an edited copy).
    SelfSet,
    /// Another rule set, found by name in the library.
    Named(String),
}

/// One condition of a rule. `L` is what the engine's lowering adds to each condition (nothing,
/// as the checker leaves it).
#[derive(Clone)]
pub(crate) enum Cond<L = ()> {
    Pattern {
        rel: RelId,
        args: Vec<PatArg>,
    },
    Test(Expr),
    /// `?v = expr`: binds, or compares when `?v` is already bound.
    Bind {
        slot: Slot,
        expr: Expr,
    },
    /// `?v in list`: iterates when `?v` is unbound, tests membership otherwise.
    In {
        slot: Slot,
        list: Expr,
    },
    /// A built-in with output positions: `rank_held(?h, 3, ?r)`, or `?r = rank_held(?h, 3)` for a
    /// multi-solution built-in. Each solution is a match.
    CallOut {
        builtin: Arc<dyn Builtin>,
        inputs: Vec<Expr>,
        outputs: Vec<PatArg>,
    },
    Not {
        body: Vec<CondAt<L>>,
    },
    Aggregate {
        op: AggregateOp,
        slot: Slot,
        value: Option<Expr>,
        body: Vec<CondAt<L>>,
    },
    WhatIf {
        target: WhatIfTarget,
        inputs: Vec<(String, Expr)>,
        rel_name: String,
        args: Vec<PatArg>,
        /// This condition's number among the rule set's `whatif`s: what-if runners resolve a
        /// site once (the rule set, its rules relevant to `rel_name`, the input slots) and key
        /// their memo by it.
        site: u32,
    },
}

/// A condition, where it is written, and what lowering added to it.
#[derive(Clone)]
pub(crate) struct CondAt<L = ()> {
    pub cond: Cond<L>,
    pub span: Span,
    pub low: L,
}

/// An action of a rule.
#[derive(Clone)]
pub(crate) enum Action {
    /// `logical`: the fact lasts while the firing's match holds (see docs/semantics.md).
    Assert {
        rel: RelId,
        args: Vec<Expr>,
        logical: bool,
    },
    Retract {
        rel: RelId,
        args: Vec<PatArg>,
    },
    /// `retract ?f`: the fact the rule's condition `cond` matched.
    RetractFact {
        cond: u16,
    },
    /// `modify ?f (…)`: the fact condition `cond` matched (of relation `rel`) replaced by
    /// `rel(args)`, a `None` argument keeping the old value.
    Modify {
        cond: u16,
        rel: RelId,
        args: Vec<Option<Expr>>,
    },
    Halt,
}

/// A rule with names resolved.
#[derive(Clone)]
pub(crate) struct RuleIr<L = ()> {
    pub name: String,
    pub title: Option<String>,
    pub salience: i32,
    pub conds: Vec<CondAt<L>>,
    pub actions: Vec<Action>,
    pub because: Option<Template>,
    pub var_names: Vec<String>,
    pub span: Span,
    /// Whether an action names a matched fact by its handle (`retract ?f`, `modify ?f`).
    pub handles: bool,
    /// The first-match group it belongs to (`in NAME`), by number in `RuleSet::groups`.
    pub group: Option<u32>,
}
