//! What one rule file declares and where it names each thing: relations (declared, asserted,
//! matched), parameters, constants, rules, built-ins and variables, read from its syntax tree. The
//! language server answers hover, definition, references, completion and outline from it.

use kibitzer::lang::ast::{AstAction, AstBindValue, AstCall, AstCondition, AstExpr, AstExprKind, AstItem, Ident};
use kibitzer::lang::source::Span;
use kibitzer::library::registry;

/// What a name names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Relation,
    Param,
    Const,
    Rule,
    /// A first-match group (`group NAME first`, `rule R in NAME`).
    Group,
    Builtin,
    /// A variable of the rule with this index in [`Index::rules`].
    Var(usize),
}

/// How a place uses the name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Where it is declared: `input`, `param`, `const`, a rule's name.
    Declared,
    /// Listed by `output`.
    Output,
    /// Asserted by a rule's action.
    Asserted,
    /// Retracted by a rule's action (`retract rel(…)`).
    Retracted,
    /// Matched by a rule's condition.
    Matched,
    /// Any other use: a parameter in an expression, a built-in called, a variable.
    Used,
}

/// One place a name is written.
#[derive(Debug, Clone)]
pub struct Occurrence {
    pub kind: Kind,
    pub name: String,
    pub role: Role,
    pub start: usize,
    pub end: usize,
    /// The rule it is written in (index in [`Index::rules`]).
    pub rule: Option<usize>,
}

/// A declaration other than a rule.
#[derive(Debug, Clone)]
pub struct Decl {
    pub kind: Kind,
    pub name: String,
    /// The declaration as written (`param keep_from = 10 in 2..14 "…"`), one line.
    pub text: String,
    /// The whole declaration.
    pub start: usize,
    pub end: usize,
}

/// A rule's head.
#[derive(Debug, Clone)]
pub struct RuleHead {
    pub name: String,
    pub title: Option<String>,
    pub salience: i32,
    pub start: usize,
    pub end: usize,
    pub name_start: usize,
    pub name_end: usize,
}

/// A rule file's names, as far as its syntax tree tells.
#[derive(Debug, Clone, Default)]
pub struct Index {
    pub occurrences: Vec<Occurrence>,
    pub decls: Vec<Decl>,
    pub rules: Vec<RuleHead>,
    /// `include "path"`: the path written and the whole line.
    pub includes: Vec<(String, usize, usize)>,
}

fn range(s: Span) -> (usize, usize) {
    (s.start as usize, s.end as usize)
}

impl Index {
    /// Indexes a rule file's text, or `None` when it does not parse.
    pub fn build(text: &str) -> Option<Index> {
        let ast = kibitzer::lang::syntax::parse_rules(0, text).ok()?;
        let mut ix = Index::default();
        let line = |s: Span| {
            text.get(s.start as usize..s.end as usize)
                .unwrap_or("")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        };
        // Relations are what inputs declare and rules assert; other calls are built-ins.
        let mut relations: Vec<String> = Vec::new();
        for item in &ast.items {
            match item {
                AstItem::Input(i) => relations.push(i.name.name.clone()),
                AstItem::Rule(r) => {
                    for a in &r.actions {
                        if let AstAction::Assert(c) | AstAction::AssertLogical(c) = a {
                            relations.push(c.name.name.clone());
                        }
                    }
                }
                _ => {}
            }
        }
        let mut names: Vec<(String, Kind)> = Vec::new();
        for item in &ast.items {
            match item {
                AstItem::Param(p) => names.push((p.name.name.clone(), Kind::Param)),
                AstItem::Const { name, .. } => names.push((name.name.clone(), Kind::Const)),
                _ => {}
            }
        }
        let mut w = Walker {
            ix: &mut ix,
            relations: &relations,
            names: &names,
            rule: None,
        };
        for item in &ast.items {
            match item {
                AstItem::RuleSet { .. } | AstItem::Strategy { .. } => {}
                AstItem::Group { name, span, .. } => {
                    w.ident(name, Kind::Group, Role::Declared);
                    let (s, e) = range(*span);
                    w.ix.decls.push(Decl {
                        kind: Kind::Group,
                        name: name.name.clone(),
                        text: line(*span),
                        start: s,
                        end: e,
                    });
                }
                AstItem::Include { path, span } => {
                    let (s, e) = range(*span);
                    w.ix.includes.push((path.clone(), s, e));
                }
                AstItem::Input(i) => {
                    w.ident(&i.name, Kind::Relation, Role::Declared);
                    let (s, e) = range(i.span);
                    w.ix.decls.push(Decl {
                        kind: Kind::Relation,
                        name: i.name.name.clone(),
                        text: line(i.span),
                        start: s,
                        end: e,
                    });
                }
                AstItem::Output { names, .. } => {
                    for n in names {
                        w.ident(n, Kind::Relation, Role::Output);
                    }
                }
                AstItem::Param(p) => {
                    w.ident(&p.name, Kind::Param, Role::Declared);
                    let (s, e) = range(p.span);
                    w.ix.decls.push(Decl {
                        kind: Kind::Param,
                        name: p.name.name.clone(),
                        text: line(p.span),
                        start: s,
                        end: e,
                    });
                }
                AstItem::Const { name, span, .. } => {
                    w.ident(name, Kind::Const, Role::Declared);
                    let (s, e) = range(*span);
                    let mut text = line(*span);
                    if text.chars().count() > 200 {
                        text = text.chars().take(200).collect::<String>() + "…";
                    }
                    w.ix.decls.push(Decl {
                        kind: Kind::Const,
                        name: name.name.clone(),
                        text,
                        start: s,
                        end: e,
                    });
                }
                AstItem::Rule(r) => {
                    let index = w.ix.rules.len();
                    let (s, e) = range(r.span);
                    let (ns, ne) = range(r.name.span);
                    w.ix.rules.push(RuleHead {
                        name: r.name.name.clone(),
                        title: r.title.clone(),
                        salience: r.salience,
                        start: s,
                        end: e,
                        name_start: ns,
                        name_end: ne,
                    });
                    w.rule = Some(index);
                    w.ident(&r.name, Kind::Rule, Role::Declared);
                    for g in &r.groups {
                        w.ident(g, Kind::Group, Role::Used);
                    }
                    for c in &r.conditions {
                        w.condition(c);
                    }
                    for a in &r.actions {
                        w.action(a);
                    }
                    w.rule = None;
                }
            }
        }
        Some(ix)
    }

    /// The name written at `offset`, if any.
    pub fn at(&self, offset: usize) -> Option<&Occurrence> {
        self.occurrences
            .iter()
            .filter(|o| o.start <= offset && offset <= o.end)
            .min_by_key(|o| o.end - o.start)
    }

    /// Every place the same thing as `o` is named.
    pub fn same<'a>(&'a self, o: &'a Occurrence) -> impl Iterator<Item = &'a Occurrence> + 'a {
        self.occurrences
            .iter()
            .filter(move |x| x.kind == o.kind && x.name == o.name)
    }

    /// The declaration of a parameter, constant or input relation.
    pub fn decl(&self, kind: Kind, name: &str) -> Option<&Decl> {
        self.decls.iter().find(|d| d.kind == kind && d.name == name)
    }

    /// The rule written around `offset`.
    pub fn rule_at(&self, offset: usize) -> Option<usize> {
        self.rules.iter().position(|r| r.start <= offset && offset <= r.end)
    }

    /// The names of the rules that use `name` (a relation) in `role`, each once, in file order.
    pub fn rules_with(&self, name: &str, role: Role) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for o in &self.occurrences {
            if o.kind == Kind::Relation && o.name == name && o.role == role {
                if let Some(r) = o.rule.and_then(|r| self.rules.get(r)) {
                    if !out.contains(&r.name.as_str()) {
                        out.push(&r.name);
                    }
                }
            }
        }
        out
    }
}

struct Walker<'a> {
    ix: &'a mut Index,
    relations: &'a [String],
    names: &'a [(String, Kind)],
    rule: Option<usize>,
}

impl Walker<'_> {
    fn push(&mut self, kind: Kind, name: &str, role: Role, span: Span) {
        let (start, end) = range(span);
        self.ix.occurrences.push(Occurrence {
            kind,
            name: name.to_string(),
            role,
            start,
            end,
            rule: self.rule,
        });
    }

    fn ident(&mut self, i: &Ident, kind: Kind, role: Role) {
        self.push(kind, &i.name, role, i.span);
    }

    /// A call in a condition: a relation matched, or a built-in called.
    fn call(&mut self, c: &AstCall, role: Role) {
        let is_relation = self.relations.contains(&c.name.name) || registry().get(&c.name.name).is_none();
        match is_relation {
            true => self.ident(&c.name, Kind::Relation, role),
            false => self.ident(&c.name, Kind::Builtin, Role::Used),
        }
        for a in &c.args {
            self.expr(a);
        }
    }

    fn condition(&mut self, c: &AstCondition) {
        match c {
            AstCondition::Expr(e) => self.expr_as(e, Role::Matched),
            AstCondition::Not { body, .. } => body.iter().for_each(|c| self.condition(c)),
            AstCondition::Bind { var, value, .. } => {
                self.var(&var.name, var.span);
                match value {
                    AstBindValue::Expr(e) => self.expr(e),
                    AstBindValue::Aggregate(a) => {
                        if let Some(v) = &a.value {
                            self.expr(v);
                        }
                        a.body.iter().for_each(|c| self.condition(c));
                    }
                }
            }
            AstCondition::Handle { var, pattern, .. } => {
                self.var(&var.name, var.span);
                self.call(pattern, Role::Matched);
            }
            AstCondition::WhatIf { inputs, pattern, .. } => {
                for (_, e) in inputs {
                    self.expr(e);
                }
                // The relation is the other rule set's: only its arguments are this file's.
                for a in &pattern.args {
                    self.expr(a);
                }
            }
        }
    }

    fn action(&mut self, a: &AstAction) {
        match a {
            AstAction::Assert(c) | AstAction::AssertLogical(c) => {
                self.ident(&c.name, Kind::Relation, Role::Asserted);
                c.args.iter().for_each(|e| self.expr(e));
            }
            AstAction::Retract(c) => {
                self.ident(&c.name, Kind::Relation, Role::Retracted);
                c.args.iter().for_each(|e| self.expr(e));
            }
            AstAction::RetractHandle(v) => self.var(&v.name, v.span),
            AstAction::Modify { handle, args, .. } => {
                self.var(&handle.name, handle.span);
                args.iter().for_each(|e| self.expr(e));
            }
            AstAction::Halt(_) => {}
        }
    }

    fn var(&mut self, name: &str, span: Span) {
        if let Some(r) = self.rule {
            self.push(Kind::Var(r), name, Role::Used, span);
        }
    }

    fn expr(&mut self, e: &AstExpr) {
        self.expr_as(e, Role::Used)
    }

    /// An expression; a call at its top is a pattern when `role` is `Matched`.
    fn expr_as(&mut self, e: &AstExpr, role: Role) {
        match &e.kind {
            AstExprKind::Literal(_) | AstExprKind::Wildcard => {}
            AstExprKind::Var(v) => self.var(v, e.span),
            AstExprKind::Name(n) => {
                if let Some((_, kind)) = self.names.iter().find(|(x, _)| x == n) {
                    self.push(*kind, n, Role::Used, e.span);
                }
            }
            AstExprKind::List(items) => items.iter().for_each(|i| self.expr(i)),
            AstExprKind::Call(c) => self.call(
                c,
                if role == Role::Matched {
                    Role::Matched
                } else {
                    Role::Used
                },
            ),
            AstExprKind::Unary(_, a) => self.expr(a),
            AstExprKind::Binary(_, a, b) | AstExprKind::Index(a, b) => {
                self.expr(a);
                self.expr(b);
            }
            AstExprKind::If(c, a, b) => [c, a, b].into_iter().for_each(|x| self.expr(x)),
        }
    }
}
