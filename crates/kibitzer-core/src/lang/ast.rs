//! The typed syntax tree of a rule file. Every node keeps its [`Span`] so that the checker, the
//! compiler and run-time errors can all point back into the rule file.
//!
//! Its enums are exhaustive on purpose: a tool that reads rule files (the reference interpreter
//! among the tests) must fail to compile when the language gains a form, not skip it.

use super::source::Span;

/// A parsed rule file (one file; includes are resolved by the loader).
#[derive(Debug, Clone, Default)]
pub struct AstFile {
    /// Its declarations and rules, in the order written.
    pub items: Vec<AstItem>,
}

/// A top-level declaration.
#[derive(Debug, Clone)]
pub enum AstItem {
    /// `ruleset name "description"`.
    RuleSet {
        /// The rule set's name.
        name: Ident,
        /// Its one-line description.
        description: Option<String>,
        /// The whole line.
        span: Span,
    },
    /// `include "path.rules"`.
    Include {
        /// The path as written, relative to the including file.
        path: String,
        /// The whole line.
        span: Span,
    },
    /// `input name: type = default`.
    Input(AstInput),
    /// `output a, b: one`: the relations a run answers with.
    Output {
        /// The relations named.
        names: Vec<Ident>,
        /// Per name: how many facts a query may conclude (`None`: any number).
        answers: Vec<Option<Answers>>,
        /// The whole line.
        span: Span,
    },
    /// `param name = value`.
    Param(AstParam),
    /// `const name = value`: a named value no override can change.
    Const {
        /// Its name.
        name: Ident,
        /// Its value.
        value: AstLiteral,
        /// The whole line.
        span: Span,
    },
    /// `strategy depth`: the conflict-resolution order among activations of equal salience.
    Strategy {
        /// The strategy named.
        name: Ident,
        /// The whole line.
        span: Span,
    },
    /// `group NAME first`: a first-match group (its rules name it with `in NAME`).
    Group {
        /// The group's name.
        name: Ident,
        /// How it picks among its rules (`first`, the one policy there is).
        policy: Ident,
        /// The whole line.
        span: Span,
    },
    /// A rule.
    Rule(AstRule),
}

/// A name with its place in the source.
#[derive(Debug, Clone, PartialEq)]
pub struct Ident {
    /// The name as written.
    pub name: String,
    /// Where.
    pub span: Span,
}

/// `input hand: cards(5, hidden: 1) = "..."`, `input seat: int in 1..4 "the seat to act"`
#[derive(Debug, Clone)]
pub struct AstInput {
    /// The input's name.
    pub name: Ident,
    /// Its type.
    pub ty: AstType,
    /// Its default, which makes it optional.
    pub default: Option<AstLiteral>,
    /// The values a query may give, if the rule file says.
    pub domain: Option<AstDomain>,
    /// Its description.
    pub doc: Option<String>,
    /// The whole declaration.
    pub span: Span,
}

/// `cards(1..5, hidden: 1)`: a type name with positional or named integer ranges.
#[derive(Debug, Clone)]
pub struct AstType {
    /// The type's name (`cards`, `int`, or one a game registers).
    pub name: Ident,
    /// Its arguments, in the order written.
    pub args: Vec<AstTypeArg>,
    /// The whole type.
    pub span: Span,
}

/// One argument of a type: `5`, `1..5`, `hidden: 1`.
#[derive(Debug, Clone)]
pub struct AstTypeArg {
    /// The name of a named argument (`hidden`).
    pub key: Option<Ident>,
    /// The least value (`1` of `1..5`; both ends are `5` for `5`).
    pub min: i64,
    /// The greatest value.
    pub max: i64,
    /// Where.
    pub span: Span,
}

/// `param bet_big_above = 0.7 in 0.0..1.0 "why this value"`
#[derive(Debug, Clone)]
pub struct AstParam {
    /// Its name.
    pub name: Ident,
    /// Its default value.
    pub value: AstLiteral,
    /// The values an override may take, if the rule file says.
    pub domain: Option<AstDomain>,
    /// Its description.
    pub doc: Option<String>,
    /// The whole declaration.
    pub span: Span,
}

/// The values a parameter or input may take: `in 1..1000000` or `in ["rules", "native", "auto"]`.
#[derive(Debug, Clone)]
pub enum AstDomain {
    /// From the first number to the second, both included.
    Range(AstLiteral, AstLiteral, Span),
    /// One of the values listed.
    OneOf(Vec<AstLiteral>, Span),
}

/// A literal in a declaration: number, string, bool or a list of literals.
#[derive(Debug, Clone, PartialEq)]
pub enum AstLiteral {
    /// `42`.
    Int(i64),
    /// `0.7`.
    Num(f64),
    /// `"bet big"`.
    Str(String),
    /// `true`, `false`.
    Bool(bool),
    /// `[1, 2, 3]`.
    List(Vec<AstLiteral>),
}

/// `rule Name "title" salience N when ... then ... because "..." end`
#[derive(Debug, Clone)]
pub struct AstRule {
    /// Its name.
    pub name: Ident,
    /// Its title, in game terms.
    pub title: Option<String>,
    /// The groups it names with `in NAME` (the checker allows one).
    pub groups: Vec<Ident>,
    /// Higher fires first (0 when not written).
    pub salience: i32,
    /// The `when` block.
    pub conditions: Vec<AstCondition>,
    /// The `then` block.
    pub actions: Vec<AstAction>,
    /// The `because` template and where it is written.
    pub because: Option<(String, Span)>,
    /// The whole rule.
    pub span: Span,
}

/// One condition of a `when` block.
#[derive(Debug, Clone)]
pub enum AstCondition {
    /// A bare expression: a fact pattern `hand(?h)`, a built-in predicate `flush(?h)`,
    /// a test `?p > 0.5`, or an iteration `?c in unseen(?a, ?b)`.
    Expr(AstExpr),
    /// `not pattern` or `not { conditions }`.
    Not {
        /// The conditions that must have no match.
        body: Vec<AstCondition>,
        /// The whole condition.
        span: Span,
    },
    /// `?v = expr` or `?v = count { ... }`.
    Bind {
        /// The variable bound (or compared, when already bound).
        var: Ident,
        /// What it is bound to.
        value: AstBindValue,
        /// The whole condition.
        span: Span,
    },
    /// `?f <- relation(…)`: a pattern whose matched fact `?f` names, for `retract ?f` and
    /// `modify ?f (…)`.
    Handle {
        /// The handle (`?f`).
        var: Ident,
        /// The pattern.
        pattern: AstCall,
        /// The whole condition.
        span: Span,
    },
    /// `whatif ruleset(input: expr, ...) yields relation(?a, ?b)`.
    WhatIf {
        /// The rule set run (`self` or another's name).
        ruleset: Ident,
        /// The inputs given to it.
        inputs: Vec<(Ident, AstExpr)>,
        /// The pattern its conclusions are matched against.
        pattern: AstCall,
        /// The whole condition.
        span: Span,
    },
}

impl AstCondition {
    /// Where the condition is written.
    pub fn span(&self) -> Span {
        match self {
            AstCondition::Expr(e) => e.span,
            AstCondition::Not { span, .. }
            | AstCondition::Bind { span, .. }
            | AstCondition::Handle { span, .. }
            | AstCondition::WhatIf { span, .. } => *span,
        }
    }
}

/// The right-hand side of a binding.
#[derive(Debug, Clone)]
pub enum AstBindValue {
    /// `?v = expr`.
    Expr(AstExpr),
    /// `?v = count { … }` and the other aggregates.
    Aggregate(AstAggregate),
}

/// `count { ... }`, `sum ?v { ... }`, `min expr { ... }`, `max expr { ... }`.
#[derive(Debug, Clone)]
pub struct AstAggregate {
    /// Which aggregate.
    pub op: AggregateOp,
    /// What `sum`, `min` and `max` range over (none for `count`).
    pub value: Option<AstExpr>,
    /// The conditions whose matches are aggregated.
    pub body: Vec<AstCondition>,
    /// The whole aggregate.
    pub span: Span,
}

/// The four aggregate operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AggregateOp {
    /// The number of matches.
    Count,
    /// The sum of the value over the matches.
    Sum,
    /// The least value.
    Min,
    /// The greatest value.
    Max,
}

impl AggregateOp {
    /// The keyword as written in rule files.
    pub fn keyword(self) -> &'static str {
        match self {
            AggregateOp::Count => "count",
            AggregateOp::Sum => "sum",
            AggregateOp::Min => "min",
            AggregateOp::Max => "max",
        }
    }
}

/// An action of a `then` block.
#[derive(Debug, Clone)]
pub enum AstAction {
    /// `assert fact(…)`.
    Assert(AstCall),
    /// `assert logical fact(…)`: the fact lasts while the firing's match holds.
    AssertLogical(AstCall),
    /// `retract fact(…)`.
    Retract(AstCall),
    /// `retract ?f`: the fact a handle names.
    RetractHandle(Ident),
    /// `modify ?f (e1, _, e3)`: the fact `?f` names replaced by one of the same relation with
    /// these arguments, `_` keeping the old value.
    Modify {
        /// The handle.
        handle: Ident,
        /// The new arguments (`_` where kept).
        args: Vec<AstExpr>,
        /// The whole action.
        span: Span,
    },
    /// `halt`: the run stops after this firing.
    Halt(Span),
}

/// `name(arg, ...)`, possibly namespaced (`rummy.combos`).
#[derive(Debug, Clone)]
pub struct AstCall {
    /// The relation or built-in named.
    pub name: Ident,
    /// Its arguments.
    pub args: Vec<AstExpr>,
    /// The whole call.
    pub span: Span,
}

/// An expression with its span.
#[derive(Debug, Clone)]
pub struct AstExpr {
    /// Its form.
    pub kind: AstExprKind,
    /// Where.
    pub span: Span,
}

/// Expression forms.
#[derive(Debug, Clone)]
pub enum AstExprKind {
    /// A literal.
    Literal(AstLiteral),
    /// `?name` (the name without its `?`).
    Var(String),
    /// `_`: any value, bound to nothing.
    Wildcard,
    /// A parameter or constant name.
    Name(String),
    /// `[a, b]`.
    List(Vec<AstExpr>),
    /// A fact pattern or a built-in call.
    Call(AstCall),
    /// `-x`, `!x`.
    Unary(UnaryOp, Box<AstExpr>),
    /// `a + b`, `a < b`, `a and b`, ….
    Binary(BinaryOp, Box<AstExpr>, Box<AstExpr>),
    /// `list[i]`.
    Index(Box<AstExpr>, Box<AstExpr>),
    /// `if c then a else b`.
    If(Box<AstExpr>, Box<AstExpr>, Box<AstExpr>),
}

/// How many facts of an output a query may conclude (`output action: one`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answers {
    /// `one`: at most one.
    One,
    /// `exactly one`.
    ExactlyOne,
}

/// `-x`, `!x`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    /// `-`.
    Neg,
    /// `!`.
    Not,
}

/// Binary operators, arithmetic, comparison and logic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/` (integers truncate toward zero).
    Div,
    /// `%`.
    Rem,
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `in` (membership in a list).
    In,
    /// `and`.
    And,
    /// `or`.
    Or,
}

impl BinaryOp {
    /// The operator as written in rule files.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::In => "in",
            BinaryOp::And => "and",
            BinaryOp::Or => "or",
        }
    }
}
