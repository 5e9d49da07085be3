//! The typed syntax tree of a rule file. Every node keeps its [`Span`] so that the checker, the
//! compiler and run-time errors can all point back into the rule file.

use super::source::Span;

/// A parsed rule file (one file; includes are resolved by the loader).
#[derive(Debug, Clone, Default)]
pub struct AstFile {
    pub items: Vec<AstItem>,
}

/// A top-level declaration.
#[derive(Debug, Clone)]
pub enum AstItem {
    RuleSet {
        name: Ident,
        description: Option<String>,
        span: Span,
    },
    Include {
        path: String,
        span: Span,
    },
    Input(AstInput),
    Output {
        names: Vec<Ident>,
        span: Span,
    },
    Param(AstParam),
    Const {
        name: Ident,
        value: AstLiteral,
        span: Span,
    },
    Rule(AstRule),
}

/// A name with its place in the source.
#[derive(Debug, Clone, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// `input hand: cards(5, hidden: 1) = "..."`
#[derive(Debug, Clone)]
pub struct AstInput {
    pub name: Ident,
    pub ty: AstType,
    pub default: Option<AstLiteral>,
    pub span: Span,
}

/// `cards(1..5, hidden: 1)`: a type name with positional or named integer ranges.
#[derive(Debug, Clone)]
pub struct AstType {
    pub name: Ident,
    pub args: Vec<AstTypeArg>,
    pub span: Span,
}

/// One argument of a type: `5`, `1..5`, `hidden: 1`.
#[derive(Debug, Clone)]
pub struct AstTypeArg {
    pub key: Option<Ident>,
    pub min: i64,
    pub max: i64,
    pub span: Span,
}

/// `param bet_big_above = 0.7 in 0.0..1.0 "why this value"`
#[derive(Debug, Clone)]
pub struct AstParam {
    pub name: Ident,
    pub value: AstLiteral,
    /// The values an override may take, if the rule file says.
    pub domain: Option<AstDomain>,
    pub doc: Option<String>,
    pub span: Span,
}

/// The values a parameter may take: `in 1..1000000` or `in ["rules", "native", "auto"]`.
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
    Int(i64),
    Num(f64),
    Str(String),
    Bool(bool),
    List(Vec<AstLiteral>),
}

/// `rule Name "title" salience N when ... then ... because "..." end`
#[derive(Debug, Clone)]
pub struct AstRule {
    pub name: Ident,
    pub title: Option<String>,
    pub salience: i32,
    pub conditions: Vec<AstCondition>,
    pub actions: Vec<AstAction>,
    pub because: Option<(String, Span)>,
    pub span: Span,
}

/// One condition of a `when` block.
#[derive(Debug, Clone)]
pub enum AstCondition {
    /// A bare expression: a fact pattern `hand(?h)`, a built-in predicate `flush(?h)`,
    /// a test `?p > 0.5`, or an iteration `?c in unseen(?a, ?b)`.
    Expr(AstExpr),
    /// `not pattern` or `not { conditions }`.
    Not { body: Vec<AstCondition>, span: Span },
    /// `?v = expr` or `?v = count { ... }`.
    Bind {
        var: Ident,
        value: AstBindValue,
        span: Span,
    },
    /// `whatif ruleset(input: expr, ...) yields relation(?a, ?b)`.
    WhatIf {
        ruleset: Ident,
        inputs: Vec<(Ident, AstExpr)>,
        pattern: AstCall,
        span: Span,
    },
}

impl AstCondition {
    /// Where the condition is written.
    pub fn span(&self) -> Span {
        match self {
            AstCondition::Expr(e) => e.span,
            AstCondition::Not { span, .. } | AstCondition::Bind { span, .. } | AstCondition::WhatIf { span, .. } => {
                *span
            }
        }
    }
}

/// The right-hand side of a binding.
#[derive(Debug, Clone)]
pub enum AstBindValue {
    Expr(AstExpr),
    Aggregate(AstAggregate),
}

/// `count { ... }`, `sum ?v { ... }`, `min expr { ... }`, `max expr { ... }`.
#[derive(Debug, Clone)]
pub struct AstAggregate {
    pub op: AggregateOp,
    pub value: Option<AstExpr>,
    pub body: Vec<AstCondition>,
    pub span: Span,
}

/// The four aggregate operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AggregateOp {
    Count,
    Sum,
    Min,
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
    Assert(AstCall),
    Retract(AstCall),
    Halt(Span),
}

/// `name(arg, ...)`, possibly namespaced (`rummy.combos`).
#[derive(Debug, Clone)]
pub struct AstCall {
    pub name: Ident,
    pub args: Vec<AstExpr>,
    pub span: Span,
}

/// An expression with its span.
#[derive(Debug, Clone)]
pub struct AstExpr {
    pub kind: AstExprKind,
    pub span: Span,
}

/// Expression forms.
#[derive(Debug, Clone)]
pub enum AstExprKind {
    Literal(AstLiteral),
    Var(String),
    Wildcard,
    /// A parameter or constant name.
    Name(String),
    List(Vec<AstExpr>),
    Call(AstCall),
    Unary(UnaryOp, Box<AstExpr>),
    Binary(BinaryOp, Box<AstExpr>, Box<AstExpr>),
    Index(Box<AstExpr>, Box<AstExpr>),
}

/// `-x`, `!x`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Not,
}

/// Binary operators, arithmetic, comparison and logic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    And,
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
