//! A reference interpreter of the inference semantics (README "Inference semantics"), written for
//! clarity: it reads the rule text through the library's parser into the AST, resolves names
//! itself, and matches naively — every join is a depth-first search in the order written over the
//! whole working memory, with no index, no shared test, no pre-decoded form and no generated code.
//! Only the input declarations and parameter values come from the checked `Program`. Literals,
//! value equality and order and the general built-ins the generator writes (`abs`, `trunc`,
//! `range`) are its own; other built-ins are called through the registry.

mod builtins;

use kibitzer::lang::ast::*;
use kibitzer::{Builtin, Card, Cards, Program, Shared, Solutions, Suit, Value};
use std::cell::RefCell;
use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, HashMap};
use std::sync::Arc;

/// One step of a trace, in a form both sides can print.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A firing: the rule and its bindings (name = value, sorted by name).
    Fired(String, Vec<(String, String)>),
    Dropped(String),
    Retracted(usize),
    /// A logical fact retracted because no match that asserted it holds.
    Withdrawn(usize),
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum End {
    #[default]
    Quiescent,
    Halted,
    /// A condition or action failed: the rule and the message (without its location).
    InRule(String, String),
    FiringLimit,
    /// The bound on live facts.
    MemoryLimit,
    /// The bound on the value cells the live facts hold.
    CellLimit,
    MissingInput(String),
    /// An input the reference reads itself, refused: its name.
    BadInput(String),
    /// A parameter override refused: its name.
    BadParam(String),
    /// The engine's deadline passed (or its cancel hook asked it to stop); the reference has none.
    Timeout,
    /// A bound the reference does not model (the engine's on waiting activations): not compared.
    Unmodelled,
    /// An output declared `one` concluded twice, or one declared `exactly one` not at all: the
    /// message.
    Answers(String),
}

/// The bounds of a run: firings, live facts (`RunOptions::max_facts`), the value cells they hold
/// (`max_cells`) and the engine's bound on waiting activations (`max_activations`), which stops
/// the reference at twice as many, not compared.
#[derive(Clone, Copy)]
pub struct Limits {
    pub firings: u64,
    pub facts: u64,
    pub cells: u64,
    pub activations: u64,
}

/// Everything a run shows that the engine defines the same way.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Outcome {
    pub end: End,
    pub conclusions: Vec<String>,
    pub trace: Vec<Event>,
    pub fired: u64,
    pub facts: u64,
    pub activations: u64,
    pub dropped: u64,
}

/// A built-in: a general one computed by the reference (`builtins`), or a game's, called through
/// the library's registry (each game's built-ins are checked against its own oracle elsewhere).
#[derive(Clone)]
enum Callee {
    Own(String),
    Library(Arc<dyn Builtin>),
}

impl Callee {
    /// The built-in `name` is, with its number of parameters and whether it gives several
    /// solutions; `None` for a relation.
    fn of(name: &str) -> Option<(Callee, usize, bool)> {
        if let Some(s) = builtins::shape(name) {
            return Some((Callee::Own(name.to_string()), s.params, s.multi));
        }
        let b = kibitzer::library::registry().get(name)?;
        let sig = b.signature();
        Some((Callee::Library(b.clone()), sig.params.len(), sig.multi))
    }

    /// A call's arguments are its inputs only: all of them for a variadic built-in.
    fn takes_all(name: &str) -> bool {
        builtins::shape(name).is_some_and(|s| s.variadic)
            || kibitzer::library::registry()
                .get(name)
                .is_some_and(|b| b.signature().variadic)
    }
}

#[derive(Clone)]
enum Cond {
    /// Arguments as written: a variable binds or compares, `_` matches anything, any other
    /// expression must equal the argument.
    Pattern {
        rel: String,
        args: Vec<AstExpr>,
        /// `?f <- rel(…)`: the handle, bound to the matched fact's number.
        handle: Option<String>,
    },
    Test(AstExpr),
    /// Binds, or compares when the variable is already bound.
    Bind {
        var: String,
        expr: AstExpr,
    },
    /// Iterates: the checker makes `?x in list` a test when `?x` is bound where it is written.
    In {
        var: String,
        list: AstExpr,
    },
    /// A built-in with outputs; each solution is a match.
    CallOut {
        builtin: Callee,
        inputs: Vec<AstExpr>,
        outputs: Vec<AstExpr>,
    },
    Not(Vec<Cond>),
    Aggregate {
        op: AggregateOp,
        var: String,
        value: Option<AstExpr>,
        body: Vec<Cond>,
    },
    /// `whatif self(input: expr, …) yields rel(args)`: each fact of `rel` the sub-query
    /// concludes is a match of `args`.
    WhatIf {
        inputs: Vec<(String, AstExpr)>,
        rel: String,
        args: Vec<AstExpr>,
    },
}

struct Rule {
    name: String,
    salience: i32,
    /// Its first-match group (`in NAME`): once one rule of a group fires, no activation of the
    /// group's rules fires again in the run.
    group: Option<String>,
    conds: Vec<Cond>,
    /// Conditions matched when facts arrive, in the order written.
    join: Vec<usize>,
    /// Negations, aggregates and what uses their results: checked at selection, in order.
    select: Vec<usize>,
    /// Bindings nothing but an explanation reads: not made while matching.
    deferred: Vec<usize>,
    actions: Vec<AstAction>,
    /// Its fact handles (bound like variables, to fact numbers, but never shown).
    handles: Vec<String>,
    /// The relations its negations and aggregates read whose retraction may change its verdict,
    /// and those whose assertion may (read by an aggregate, or by a negation inside a negation).
    wake_on_retract: Vec<String>,
    wake_on_assert: Vec<String>,
    /// It has an aggregate: it may fire again when its late values change.
    refires: bool,
    /// The variables bound at selection.
    late: Vec<String>,
    /// It has an `assert logical`.
    logical: bool,
}

/// Which waiting activation of the highest salience fires first.
#[derive(Clone, Copy, PartialEq)]
enum Strategy {
    /// The rule written first, then the activation made first.
    FileOrder,
    /// The activation made last.
    Depth,
    /// The activation made first.
    Breadth,
}

/// A rule set ready for the reference run.
pub struct RefProgram {
    rules: Vec<Rule>,
    outputs: Vec<String>,
    /// Per output: `one`, `exactly one` or any number of answers.
    answers: Vec<Option<Answers>>,
    /// Name, type and default, as declared.
    inputs: Vec<(String, AstType, Option<Value>)>,
    /// Parameters and constants: name, value as written, and whether a query may override it.
    params: Vec<(String, Value, bool)>,
    program: Arc<Program>,
    strategy: Strategy,
}

type Env = Vec<(String, Value)>;

fn lookup<'a>(env: &'a Env, name: &str) -> Option<&'a Value> {
    env.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v)
}

fn err<T>(msg: impl Into<String>) -> Result<T, String> {
    Err(msg.into())
}

impl RefProgram {
    /// Resolves `text` (already loaded by the library as `program`, which reads the inputs of a
    /// game's types). `Err` names a construct the reference does not model.
    pub fn new(text: &str, program: Arc<Program>) -> Result<RefProgram, String> {
        RefProgram::with_includes(&[text], program)
    }

    /// Resolves a main file and the files it includes, in the order their rules come (the main
    /// file's first, then each included file's in the order included).
    pub fn with_includes(texts: &[&str], program: Arc<Program>) -> Result<RefProgram, String> {
        let mut items = Vec::new();
        for (k, text) in texts.iter().enumerate() {
            let ast = kibitzer::lang::syntax::parse_rules(k as u32, text).map_err(|d| d.message.clone())?;
            items.extend(ast.items);
        }
        let mut rules_ast = Vec::new();
        let mut outputs = Vec::new();
        let mut answers = Vec::new();
        let mut relations: Vec<String> = Vec::new();
        let mut inputs = Vec::new();
        let mut params = Vec::new();
        let mut strategy = Strategy::FileOrder;
        for item in &items {
            match item {
                AstItem::Strategy { name, .. } => {
                    strategy = match name.name.as_str() {
                        "depth" => Strategy::Depth,
                        "breadth" => Strategy::Breadth,
                        _ => Strategy::FileOrder,
                    }
                }
                AstItem::Output { names, answers: a, .. } => {
                    outputs.extend(names.iter().map(|n| n.name.clone()));
                    answers.extend(a.iter().copied());
                }
                AstItem::Include { .. } => {}
                AstItem::Input(i) => {
                    relations.push(i.name.name.clone());
                    let default = i.default.as_ref().map(|d| match (i.ty.name.name.as_str(), literal(d)) {
                        ("decimal", Value::Int(n)) => Value::Num(n as f64),
                        (_, v) => v,
                    });
                    inputs.push((i.name.name.clone(), i.ty.clone(), default));
                }
                AstItem::Param(p) => params.push((p.name.name.clone(), literal(&p.value), true)),
                AstItem::Const { name, value, .. } => params.push((name.name.clone(), literal(value), false)),
                AstItem::Rule(r) => rules_ast.push(r.clone()),
                AstItem::Group { .. } => {}
                _ => {}
            }
        }
        for r in &rules_ast {
            for a in &r.actions {
                if let AstAction::Assert(c) | AstAction::AssertLogical(c) = a {
                    relations.push(c.name.name.clone());
                }
            }
        }
        let mut rules = Vec::new();
        for r in &rules_ast {
            let mut scope: Vec<String> = Vec::new();
            let conds = resolve_conds(&r.conditions, &mut scope)?;
            let deferred = explanation_only(&conds, &r.actions);
            let mut late: Vec<String> = Vec::new();
            let mut early: Vec<String> = Vec::new();
            let (mut join, mut select) = (Vec::new(), Vec::new());
            for (i, c) in conds.iter().enumerate() {
                if deferred.contains(&i) {
                    continue;
                }
                let mut uses = Vec::new();
                cond_vars(c, &mut uses);
                let is_late =
                    matches!(c, Cond::Not(_) | Cond::Aggregate { .. }) || uses.iter().any(|u| late.contains(u));
                if is_late {
                    // What it binds that the join conditions before it have not.
                    match c {
                        Cond::Not(_) => {}
                        Cond::Aggregate { var, .. } => late.push(var.clone()),
                        _ => late.extend(uses.into_iter().filter(|u| !early.contains(u))),
                    }
                    select.push(i);
                } else {
                    early.extend(uses);
                    join.push(i);
                }
            }
            let (mut wake_on_retract, mut wake_on_assert) = (Vec::new(), Vec::new());
            for c in &conds {
                match c {
                    Cond::Not(body) => {
                        pattern_relations(body, &mut wake_on_retract);
                        for inner in body {
                            if let Cond::Not(b) | Cond::Aggregate { body: b, .. } = inner {
                                pattern_relations(b, &mut wake_on_assert);
                            }
                        }
                    }
                    Cond::Aggregate { body, .. } => {
                        pattern_relations(body, &mut wake_on_retract);
                        pattern_relations(body, &mut wake_on_assert);
                    }
                    _ => {}
                }
            }
            let refires = conds.iter().any(|c| matches!(c, Cond::Aggregate { .. }));
            rules.push(Rule {
                name: r.name.name.clone(),
                salience: r.salience,
                group: r.groups.first().map(|g| g.name.clone()),
                conds,
                join,
                select,
                deferred,
                actions: r.actions.clone(),
                wake_on_retract,
                wake_on_assert,
                refires,
                late,
                logical: r.actions.iter().any(|a| matches!(a, AstAction::AssertLogical(_))),
                handles: r
                    .conditions
                    .iter()
                    .filter_map(|c| match c {
                        AstCondition::Handle { var, .. } => Some(var.name.clone()),
                        _ => None,
                    })
                    .collect(),
            });
        }
        let _ = relations;
        Ok(RefProgram {
            rules,
            outputs,
            answers,
            inputs,
            params,
            program,
            strategy,
        })
    }

    fn machine(
        &self,
        params: Vec<(String, Value)>,
        limits: Limits,
        depth: usize,
        relevant: Option<(Vec<bool>, Vec<bool>)>,
    ) -> Machine<'_> {
        Machine {
            p: self,
            params,
            limits,
            answered: Vec::new(),
            facts: Vec::new(),
            agenda: BinaryHeap::new(),
            standing: Vec::new(),
            supports: Vec::new(),
            maintaining: false,
            seq: 0,
            chosen: Vec::new(),
            out: Outcome::default(),
            aggregates: RefCell::default(),
            inputs_end: 0,
            depth,
            relevant,
            whatifs: RefCell::default(),
        }
    }

    /// The rules that can contribute to relation `rel`: those that assert, retract or modify a
    /// needed relation (`rel`, then every relation a kept rule's conditions mention) or halt,
    /// with the other rules of a kept rule's group; and, per input, whether a kept rule reads it.
    fn relevant_to(&self, rel: &str) -> (Vec<bool>, Vec<bool>) {
        let mut needed = vec![rel.to_string()];
        let mut keep = vec![false; self.rules.len()];
        loop {
            let mut changed = false;
            for (i, rule) in self.rules.iter().enumerate() {
                if keep[i] {
                    continue;
                }
                let handle_rel = |h: &str| {
                    rule.conds.iter().find_map(|c| match c {
                        Cond::Pattern {
                            rel, handle: Some(n), ..
                        } if n == h => Some(rel.clone()),
                        _ => None,
                    })
                };
                let touches = rule.actions.iter().any(|a| match a {
                    AstAction::Assert(c) | AstAction::AssertLogical(c) | AstAction::Retract(c) => {
                        needed.contains(&c.name.name)
                    }
                    AstAction::RetractHandle(h) | AstAction::Modify { handle: h, .. } => {
                        handle_rel(&h.name).is_some_and(|r| needed.contains(&r))
                    }
                    AstAction::Halt(_) => true,
                });
                let grouped = rule.group.as_ref().is_some_and(|g| {
                    self.rules
                        .iter()
                        .zip(&keep)
                        .any(|(r, k)| *k && r.group.as_ref() == Some(g))
                });
                if touches || grouped {
                    keep[i] = true;
                    changed = true;
                    let mut read = Vec::new();
                    pattern_relations(&rule.conds, &mut read);
                    for r in read {
                        if !needed.contains(&r) {
                            needed.push(r);
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let mut read = Vec::new();
        for (rule, _) in self.rules.iter().zip(&keep).filter(|(_, k)| **k) {
            pattern_relations(&rule.conds, &mut read);
        }
        let inputs = self.inputs.iter().map(|(n, _, _)| read.contains(n)).collect();
        (keep, inputs)
    }

    /// The order rules are joined in when a fact arrives: as written, or last first under `depth`.
    fn join_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.rules.len()).collect();
        if self.strategy == Strategy::Depth {
            order.reverse();
        }
        order
    }

    /// Runs on inputs given as text (read per the declared input types).
    pub fn run(&self, given: &[(String, String)], firing_limit: u64) -> Outcome {
        self.run_with(
            given,
            &[],
            Limits {
                firings: firing_limit,
                facts: u64::MAX,
                cells: u64::MAX,
                activations: u64::MAX,
            },
        )
    }

    /// Runs with parameters overridden (`name`, value as text) and the given bounds.
    pub fn run_with(&self, given: &[(String, String)], overrides: &[(String, String)], limits: Limits) -> Outcome {
        let mut params: Vec<(String, Value)> = self.params.iter().map(|(n, v, _)| (n.clone(), v.clone())).collect();
        for (name, text) in overrides {
            let at = self.params.iter().position(|(n, _, may)| n == name && *may);
            let Some(at) = at else {
                return Outcome {
                    end: End::BadParam(name.clone()),
                    ..Outcome::default()
                };
            };
            let t = text.trim();
            let v = match &params[at].1 {
                Value::Int(_) => t.parse::<i64>().ok().map(Value::Int),
                Value::Num(_) => t.parse::<f64>().ok().filter(|n| n.is_finite()).map(Value::Num),
                Value::Bool(_) => match t {
                    "true" => Some(Value::Bool(true)),
                    "false" => Some(Value::Bool(false)),
                    _ => None,
                },
                Value::Str(_) => Some(Value::str(t)),
                _ => None,
            };
            match v {
                Some(v) => params[at].1 = v,
                None => {
                    return Outcome {
                        end: End::BadParam(name.clone()),
                        ..Outcome::default()
                    }
                }
            }
        }
        let mut m = self.machine(params, limits, 0, None);
        let mut end = m.run(given, limits.firings);
        if matches!(end, End::Quiescent | End::Halted) {
            let owed =
                self.outputs.iter().zip(&self.answers).find(|(o, a)| {
                    **a == Some(Answers::ExactlyOne) && !m.facts.iter().any(|f| f.alive && &f.rel == *o)
                });
            if let Some((o, _)) = owed {
                end = End::Answers(format!(
                    "no answer for `{o}`, which the rule set declares `exactly one`: no rule concluded it"
                ));
            }
        }
        m.out.end = end;
        for o in &self.outputs {
            for f in m.facts.iter().filter(|f| f.alive && &f.rel == o) {
                let args: Vec<String> = f.args.iter().map(|v| v.to_string()).collect();
                m.out.conclusions.push(format!("{o}({})", args.join(", ")));
            }
        }
        m.out
    }
}

/// The checker's reading of conditions: which call is a pattern, a test or a built-in with
/// outputs, and whether `?x in list` iterates, decided by what is bound where it is written.
fn resolve_conds(conds: &[AstCondition], scope: &mut Vec<String>) -> Result<Vec<Cond>, String> {
    let mut out = Vec::new();
    for c in conds {
        out.push(match c {
            AstCondition::Expr(e) => match &e.kind {
                AstExprKind::Call(call) => match Callee::of(&call.name.name) {
                    None => {
                        for a in &call.args {
                            if let AstExprKind::Var(v) = &a.kind {
                                bind_name(scope, v);
                            }
                        }
                        Cond::Pattern {
                            rel: call.name.name.clone(),
                            args: call.args.clone(),
                            handle: None,
                        }
                    }
                    Some((b, np, _)) => {
                        if call.args.len() == np || Callee::takes_all(&call.name.name) {
                            Cond::Test(e.clone())
                        } else {
                            for a in &call.args[np..] {
                                if let AstExprKind::Var(v) = &a.kind {
                                    bind_name(scope, v);
                                }
                            }
                            Cond::CallOut {
                                builtin: b,
                                inputs: call.args[..np].to_vec(),
                                outputs: call.args[np..].to_vec(),
                            }
                        }
                    }
                },
                AstExprKind::Binary(BinaryOp::In, lhs, rhs) => match &lhs.kind {
                    AstExprKind::Var(v) if !scope.contains(v) => {
                        bind_name(scope, v);
                        Cond::In {
                            var: v.clone(),
                            list: (**rhs).clone(),
                        }
                    }
                    _ => Cond::Test(e.clone()),
                },
                _ => Cond::Test(e.clone()),
            },
            AstCondition::Not { body, .. } => {
                let mut inner = scope.clone();
                Cond::Not(resolve_conds(body, &mut inner)?)
            }
            AstCondition::Bind { var, value, .. } => match value {
                AstBindValue::Expr(e) => {
                    let multi = match &e.kind {
                        AstExprKind::Call(call) => Callee::of(&call.name.name)
                            .filter(|(_, np, multi)| *multi && call.args.len() == *np)
                            .map(|(b, _, _)| b),
                        _ => None,
                    };
                    let cond = match (multi, &e.kind) {
                        (Some(b), AstExprKind::Call(call)) => Cond::CallOut {
                            builtin: b,
                            inputs: call.args.clone(),
                            outputs: vec![AstExpr {
                                kind: AstExprKind::Var(var.name.clone()),
                                span: var.span,
                            }],
                        },
                        _ => Cond::Bind {
                            var: var.name.clone(),
                            expr: e.clone(),
                        },
                    };
                    bind_name(scope, &var.name);
                    cond
                }
                AstBindValue::Aggregate(agg) => {
                    let mut inner = scope.clone();
                    let body = resolve_conds(&agg.body, &mut inner)?;
                    bind_name(scope, &var.name);
                    Cond::Aggregate {
                        op: agg.op,
                        var: var.name.clone(),
                        value: agg.value.clone(),
                        body,
                    }
                }
            },
            AstCondition::Handle { var, pattern, .. } => {
                for a in &pattern.args {
                    if let AstExprKind::Var(v) = &a.kind {
                        bind_name(scope, v);
                    }
                }
                Cond::Pattern {
                    rel: pattern.name.name.clone(),
                    args: pattern.args.clone(),
                    handle: Some(var.name.clone()),
                }
            }
            AstCondition::WhatIf {
                ruleset,
                inputs,
                pattern,
                ..
            } => {
                if ruleset.name != "self" {
                    return err("a what-if of another rule set");
                }
                for a in &pattern.args {
                    if let AstExprKind::Var(v) = &a.kind {
                        bind_name(scope, v);
                    }
                }
                Cond::WhatIf {
                    inputs: inputs.iter().map(|(n, e)| (n.name.clone(), e.clone())).collect(),
                    rel: pattern.name.name.clone(),
                    args: pattern.args.clone(),
                }
            }
        });
    }
    Ok(out)
}

/// The relations of every pattern in `conds`, nested bodies included.
fn pattern_relations(conds: &[Cond], out: &mut Vec<String>) {
    for c in conds {
        match c {
            Cond::Pattern { rel, .. } if !out.contains(rel) => out.push(rel.clone()),
            Cond::Not(body) | Cond::Aggregate { body, .. } => pattern_relations(body, out),
            _ => {}
        }
    }
}

/// The fact a handle names (bound when its pattern matched).
fn handle_of(env: &Env, name: &str) -> usize {
    match lookup(env, name) {
        Some(Value::Int(f)) => *f as usize,
        _ => panic!("handle {name} unbound: the checker accepted what the reference cannot run"),
    }
}

fn bind_name(scope: &mut Vec<String>, v: &str) {
    if !scope.iter().any(|s| s == v) {
        scope.push(v.to_string());
    }
}

fn expr_vars(e: &AstExpr, out: &mut Vec<String>) {
    match &e.kind {
        AstExprKind::Var(v) => out.push(v.clone()),
        AstExprKind::List(items) => items.iter().for_each(|i| expr_vars(i, out)),
        AstExprKind::Call(c) => c.args.iter().for_each(|i| expr_vars(i, out)),
        AstExprKind::Unary(_, x) => expr_vars(x, out),
        AstExprKind::Binary(_, a, b) | AstExprKind::Index(a, b) => {
            expr_vars(a, out);
            expr_vars(b, out);
        }
        AstExprKind::If(c, a, b) => [c, a, b].into_iter().for_each(|x| expr_vars(x, out)),
        AstExprKind::Literal(_) | AstExprKind::Wildcard | AstExprKind::Name(_) => {}
    }
}

/// Every variable a condition mentions (bodies included).
fn cond_vars(c: &Cond, out: &mut Vec<String>) {
    match c {
        Cond::Pattern { args, .. } => args.iter().for_each(|a| expr_vars(a, out)),
        Cond::Test(e) => expr_vars(e, out),
        Cond::Bind { var, expr } => {
            out.push(var.clone());
            expr_vars(expr, out);
        }
        Cond::In { var, list } => {
            out.push(var.clone());
            expr_vars(list, out);
        }
        Cond::CallOut { inputs, outputs, .. } => inputs.iter().chain(outputs).for_each(|a| expr_vars(a, out)),
        Cond::Not(body) => body.iter().for_each(|c| cond_vars(c, out)),
        Cond::Aggregate { var, value, body, .. } => {
            out.push(var.clone());
            if let Some(v) = value {
                expr_vars(v, out);
            }
            body.iter().for_each(|c| cond_vars(c, out));
        }
        Cond::WhatIf { inputs, args, .. } => {
            inputs.iter().for_each(|(_, e)| expr_vars(e, out));
            args.iter().for_each(|a| expr_vars(a, out));
        }
    }
}

/// `?v = expr` where no other condition and no action mentions `?v`.
fn explanation_only(conds: &[Cond], actions: &[AstAction]) -> Vec<usize> {
    let mut in_actions = Vec::new();
    for a in actions {
        match a {
            AstAction::Assert(c) | AstAction::AssertLogical(c) | AstAction::Retract(c) => {
                c.args.iter().for_each(|e| expr_vars(e, &mut in_actions))
            }
            AstAction::Modify { args, .. } => args.iter().for_each(|e| expr_vars(e, &mut in_actions)),
            AstAction::RetractHandle(_) | AstAction::Halt(_) => {}
        }
    }
    (0..conds.len())
        .filter(|&i| {
            let Cond::Bind { var, .. } = &conds[i] else {
                return false;
            };
            !in_actions.contains(var)
                && conds.iter().enumerate().all(|(j, c)| {
                    let mut vs = Vec::new();
                    cond_vars(c, &mut vs);
                    j == i || !vs.contains(var)
                })
        })
        .collect()
}

struct Fact {
    rel: String,
    args: Vec<Value>,
    alive: bool,
    /// Asserted logically (and never plainly): the supports that asserted it, one entry per
    /// assert.
    supports: Option<Vec<usize>>,
}

/// A firing of a rule with `assert logical`: what it asserted so lasts while its match holds.
struct Support {
    rule: usize,
    /// The bindings and facts of the activation before selection.
    env: Env,
    early: Vec<usize>,
    /// Every fact the firing matched.
    facts: Vec<usize>,
    /// The values of the late variables it fired with.
    late: Vec<Value>,
    supported: Vec<usize>,
    live: bool,
}

struct Activation {
    rule: usize,
    seq: u64,
    env: Env,
    facts: Vec<usize>,
    /// The standing activation it brings back.
    standing: Option<usize>,
}

/// An activation of a rule with a negation or aggregate, kept after its first selection to
/// come back when a fact its negations or aggregates read is asserted or retracted.
struct Standing {
    rule: usize,
    env: Env,
    facts: Vec<usize>,
    /// Its late values at each firing: it never fires twice with the same.
    fired: Vec<Vec<Value>>,
    queued: bool,
    live: bool,
}

/// What a search step says: go on looking, or stop (a selection found its first match).
#[derive(PartialEq)]
enum Flow {
    Continue,
    Stop,
}

/// A join's restriction: pattern `seed` matches only `fact`, patterns written before it never do.
#[derive(Clone, Copy)]
struct Seed {
    cond: usize,
    fact: usize,
}

struct Machine<'p> {
    p: &'p RefProgram,
    /// Parameter and constant values of this run.
    params: Vec<(String, Value)>,
    limits: Limits,
    /// Per output declared `one`: the rule that concluded its answer last.
    answered: Vec<(String, String)>,
    facts: Vec<Fact>,
    /// The waiting activations, the one conflict resolution picks on top (see `Machine::queue`).
    agenda: BinaryHeap<Reverse<Queued>>,
    /// Activations selected once, in the order first selected.
    standing: Vec<Standing>,
    supports: Vec<Support>,
    maintaining: bool,
    seq: u64,
    /// The groups a rule has fired in.
    chosen: Vec<String>,
    out: Outcome,
    /// The facts before this index are the inputs, which the bound on value cells does not count.
    inputs_end: usize,
    /// Aggregate results while the facts stay as they are, by the aggregate and the values of the
    /// outer variables it mentions: without it a join through an aggregate is cubic per cycle,
    /// and some generated cases took minutes. Cleared whenever a fact is asserted or dies.
    aggregates: RefCell<HashMap<(usize, String), Folded>>,
    /// How many what-ifs this run is inside (0 for the query itself).
    depth: usize,
    /// In a what-if's sub-query: the rules that can contribute to the relation it looks at, and
    /// the inputs they read (`RefProgram::relevant_to`). `None`: every rule, every input.
    relevant: Option<(Vec<bool>, Vec<bool>)>,
    /// The facts each what-if's sub-query concluded, by the condition and its input values: a
    /// query asks each hypothetical once.
    whatifs: RefCell<HashMap<(usize, String), Concluded>>,
}

/// The argument lists of the facts a sub-query concluded.
type Concluded = Vec<Vec<Value>>;

/// What-ifs nest at most this deep (docs/semantics.md, "What-if").
const WHATIF_DEPTH: usize = 6;

/// The messages by which a sub-query that stopped at a bound stops the query that asked it
/// (through the channel of rule errors, turned back into an end by `in_rule`).
const STOPPED_AT_FACTS: &str = "\u{1}facts";
const STOPPED_AT_CELLS: &str = "\u{1}cells";
const STOPPED_UNMODELLED: &str = "\u{1}unmodelled";

/// How a run ends after rule `rule` failed with message `m`: with the error, or, when `m` says
/// a what-if's sub-query stopped at a bound, at that bound.
fn in_rule(rule: &str, m: String) -> End {
    match m.as_str() {
        STOPPED_AT_FACTS => End::MemoryLimit,
        STOPPED_AT_CELLS => End::CellLimit,
        STOPPED_UNMODELLED => End::Unmodelled,
        _ => End::InRule(rule.to_string(), m),
    }
}

/// An aggregate's value (`None`: `min`/`max` of nothing) and the facts it counted.
type Folded = (Option<Value>, Vec<usize>);

type Sink<'s> = dyn FnMut(&Env, &[usize]) -> Flow + 's;

/// An activation with the key conflict resolution orders it by (smallest first).
struct Queued((i64, i64, i64, i64), Activation);

impl PartialEq for Queued {
    fn eq(&self, other: &Queued) -> bool {
        self.0 == other.0
    }
}
impl Eq for Queued {}
impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Queued) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Queued {
    fn cmp(&self, other: &Queued) -> Ordering {
        self.0.cmp(&other.0)
    }
}

impl Machine<'_> {
    /// Adds an activation to the agenda. Highest salience first, then by the strategy: the rule
    /// written first and the activation made first, the activation made last, or the activation
    /// made first; under `depth` and `breadth` a group's rules come first at their salience, in
    /// file order. Every key is distinct (it holds the activation's number).
    /// Whether rule `ri` runs: every rule does, but in a sub-query only the relevant ones.
    fn runs(&self, ri: usize) -> bool {
        self.relevant.as_ref().is_none_or(|(rules, _)| rules[ri])
    }

    /// The facts of `rel` a what-if's sub-query on `given` concludes, or why it concluded none
    /// (an error, as the asking rule's; or a bound it stopped at, which stops the asker too).
    fn sub_query(&self, given: &[(String, Value)], rel: &str) -> Result<Vec<Vec<Value>>, String> {
        if self.depth >= WHATIF_DEPTH {
            return err(format!(
                "what-if failed: what-if queries nest deeper than {WHATIF_DEPTH} levels"
            ));
        }
        let relevant = self.p.relevant_to(rel);
        let mut sub = self
            .p
            .machine(self.params.clone(), self.limits, self.depth + 1, Some(relevant));
        match sub.run_values(given, self.limits.firings) {
            End::Quiescent | End::Halted => Ok(sub
                .facts
                .iter()
                .filter(|f| f.alive && f.rel == rel)
                .map(|f| f.args.clone())
                .collect()),
            End::InRule(r, m) => err(format!("what-if failed: in rule `{r}`: {m}")),
            End::FiringLimit => err("what-if failed: firing limit"),
            End::MissingInput(n) => err(format!("what-if failed: missing input `{n}`")),
            End::Answers(m) => err(format!("what-if failed: {m}")),
            End::MemoryLimit => err(STOPPED_AT_FACTS),
            End::CellLimit => err(STOPPED_AT_CELLS),
            End::Unmodelled => err(STOPPED_UNMODELLED),
            other => panic!("a sub-query the generator does not write ended {other:?}"),
        }
    }

    fn queue(&mut self, a: Activation) {
        let p = self.p;
        let salience = -i64::from(p.rules[a.rule].salience);
        let grouped = p.rules[a.rule].group.is_some();
        let seq = a.seq as i64;
        let key = match (p.strategy, grouped) {
            (Strategy::FileOrder, _) => (salience, 0, a.rule as i64, seq),
            (Strategy::Depth, true) => (salience, 0, a.rule as i64, -seq),
            (Strategy::Breadth, true) => (salience, 0, a.rule as i64, seq),
            (Strategy::Depth, false) => (salience, 1, -seq, 0),
            (Strategy::Breadth, false) => (salience, 1, seq, 0),
        };
        self.agenda.push(Reverse(Queued(key, a)));
    }

    fn run(&mut self, given: &[(String, String)], limit: u64) -> End {
        let p = self.p;
        let mut values = Vec::new();
        for (name, ty, _) in p.inputs.iter() {
            if let Some((_, text)) = given.iter().find(|(n, _)| n == name) {
                values.push((
                    name.clone(),
                    match read_input(ty, text) {
                        Some(v) => v,
                        None => match p.program.parse_input(name, text) {
                            Some(Ok(v)) => v,
                            Some(Err(e)) => return End::BadInput(format!("{name}: {e}")),
                            None => panic!("no input {name}"),
                        },
                    },
                ));
            }
        }
        self.run_values(&values, limit)
    }

    /// `run` with the inputs given as values (the others take their defaults).
    fn run_values(&mut self, given: &[(String, Value)], limit: u64) -> End {
        let p = self.p;
        for (k, (name, _, default)) in p.inputs.iter().enumerate() {
            let value = match given.iter().find(|(n, _)| n == name) {
                Some((_, v)) => v.clone(),
                None => match default {
                    Some(v) => v.clone(),
                    None => return End::MissingInput(name.clone()),
                },
            };
            // In a sub-query, an input no rule run reads is not asserted.
            if self.relevant.as_ref().is_some_and(|(_, read)| !read[k]) {
                continue;
            }
            if let Some(f) = self.insert(name, vec![value]) {
                if let Err(e) = self.on_new_fact(f) {
                    return e;
                }
            }
        }
        self.inputs_end = self.facts.len();
        // Under `depth`, the rules made ready at one moment are joined last first, so that the rule
        // declared first fires first.
        let order = p.join_order();
        for &ri in &order {
            let rule = &p.rules[ri];
            if !self.runs(ri) {
                continue;
            }
            let has_pattern = rule.join.iter().any(|&c| matches!(rule.conds[c], Cond::Pattern { .. }));
            if !has_pattern {
                if let Err(e) = self.join(ri, None) {
                    return e;
                }
            }
        }
        loop {
            let Some(Reverse(Queued(_, act))) = self.agenda.pop() else {
                return End::Quiescent;
            };
            if self.out.fired >= limit {
                return End::FiringLimit;
            }
            let rule = &p.rules[act.rule];
            if act.facts.iter().any(|&f| !self.facts[f].alive) {
                self.drop_activation(act.rule);
                continue;
            }
            let mut env = act.env.clone();
            let mut facts = act.facts.clone();
            if !rule.select.is_empty() {
                let mut found: Option<(Env, Vec<usize>)> = None;
                let mut sink = |e: &Env, f: &[usize]| {
                    found = Some((e.clone(), f.to_vec()));
                    Flow::Stop
                };
                let mut scratch_env = env.clone();
                let mut scratch_facts = facts.clone();
                let searched = self.solve(
                    &rule.conds,
                    &rule.select,
                    0,
                    None,
                    &mut scratch_env,
                    &mut scratch_facts,
                    &mut sink,
                );
                if let Err(m) = searched {
                    return in_rule(&rule.name, m);
                }
                let stands = !rule.wake_on_retract.is_empty() || !rule.wake_on_assert.is_empty();
                match found {
                    Some((e, f)) => {
                        env = e;
                        facts = f;
                        if stands && self.stand(&act, Some(&env)) {
                            self.drop_activation(act.rule);
                            continue;
                        }
                    }
                    None => {
                        self.drop_activation(act.rule);
                        if stands {
                            self.stand(&act, None);
                        }
                        continue;
                    }
                }
            }
            if let Some(g) = &rule.group {
                if self.chosen.contains(g) {
                    self.drop_activation(act.rule);
                    continue;
                }
                self.chosen.push(g.clone());
            }
            self.out.fired += 1;
            self.out
                .trace
                .push(Event::Fired(rule.name.clone(), self.shown_bindings(rule, &env)));
            let support = rule.logical.then(|| {
                self.supports.push(Support {
                    rule: act.rule,
                    env: act.env.clone(),
                    early: act.facts.clone(),
                    facts,
                    late: rule.late.iter().filter_map(|n| lookup(&env, n).cloned()).collect(),
                    supported: Vec::new(),
                    live: true,
                });
                self.supports.len() - 1
            });
            match self.act(act.rule, &env, support) {
                Ok(true) => return End::Halted,
                Ok(false) => {}
                Err(e) => return e,
            }
        }
    }

    /// Notes the selection of an activation of a rule with a negation or aggregate: `fired` its
    /// bindings when it fires. True when it fired with the same late values before.
    fn stand(&mut self, act: &Activation, fired: Option<&Env>) -> bool {
        let rule = &self.p.rules[act.rule];
        let values = |env: &Env| -> Vec<Value> { rule.late.iter().filter_map(|n| lookup(env, n).cloned()).collect() };
        if let Some(at) = act.standing {
            let s = &mut self.standing[at];
            s.queued = false;
            let Some(env) = fired else { return false };
            let v = values(env);
            if s.fired.contains(&v) {
                return true;
            }
            s.fired.push(v);
            if !rule.refires {
                s.live = false;
            }
            return false;
        }
        if fired.is_some() && !rule.refires {
            return false;
        }
        self.standing.push(Standing {
            rule: act.rule,
            env: act.env.clone(),
            facts: act.facts.clone(),
            fired: fired.map(|e| vec![values(e)]).unwrap_or_default(),
            queued: false,
            live: true,
        });
        false
    }

    /// A fact of `rel` asserted (`asserted`) or retracted: the standing activations whose
    /// verdict it may change come back, in the order first selected, if their facts are live.
    fn wake(&mut self, rel: &str, asserted: bool) {
        self.aggregates.get_mut().clear();
        let p = self.p;
        for at in 0..self.standing.len() {
            let s = &self.standing[at];
            let rule = &p.rules[s.rule];
            let list = if asserted {
                &rule.wake_on_assert
            } else {
                &rule.wake_on_retract
            };
            if !s.live || s.queued || !list.iter().any(|r| r == rel) {
                continue;
            }
            if rule.group.as_ref().is_some_and(|g| self.chosen.contains(g)) {
                self.standing[at].live = false;
                continue;
            }
            if !s.facts.iter().all(|&f| self.facts[f].alive) {
                self.standing[at].live = false;
                continue;
            }
            self.seq += 1;
            self.out.activations += 1;
            let back = Activation {
                rule: s.rule,
                seq: self.seq,
                env: s.env.clone(),
                facts: s.facts.clone(),
                standing: Some(at),
            };
            self.standing[at].queued = true;
            self.queue(back);
        }
    }

    /// After a change to working memory: while some live support (first made first) no longer
    /// holds, withdraw it; a logical fact left with no support is retracted.
    fn maintain(&mut self) -> Result<(), End> {
        if self.maintaining {
            return Ok(());
        }
        self.maintaining = true;
        let result = self.withdraw_broken();
        self.maintaining = false;
        result
    }

    fn withdraw_broken(&mut self) -> Result<(), End> {
        loop {
            let mut broken = None;
            for i in 0..self.supports.len() {
                if self.supports[i].live && !self.holds(i)? {
                    broken = Some(i);
                    break;
                }
            }
            let Some(i) = broken else { return Ok(()) };
            self.supports[i].live = false;
            for f in std::mem::take(&mut self.supports[i].supported) {
                let Some(list) = &mut self.facts[f].supports else {
                    continue;
                };
                if let Some(k) = list.iter().position(|&s| s == i) {
                    list.remove(k);
                }
                if list.is_empty() && self.facts[f].alive {
                    self.facts[f].alive = false;
                    self.out.trace.push(Event::Withdrawn(f));
                    let rel = self.facts[f].rel.clone();
                    self.wake(&rel, false);
                }
            }
        }
    }

    /// A support holds while every fact its firing matched is live and its selection conditions
    /// are satisfied again with the same late values.
    fn holds(&self, i: usize) -> Result<bool, End> {
        let s = &self.supports[i];
        if s.facts.iter().any(|&f| !self.facts[f].alive) {
            return Ok(false);
        }
        let rule = &self.p.rules[s.rule];
        if rule.select.is_empty() {
            return Ok(true);
        }
        let mut same = false;
        let mut sink = |e: &Env, _: &[usize]| {
            let late: Vec<Value> = rule.late.iter().filter_map(|n| lookup(e, n).cloned()).collect();
            if late == s.late {
                same = true;
                Flow::Stop
            } else {
                Flow::Continue
            }
        };
        let mut env = s.env.clone();
        let mut facts = s.early.clone();
        self.solve(&rule.conds, &rule.select, 0, None, &mut env, &mut facts, &mut sink)
            .map_err(|m| in_rule(&rule.name, m))?;
        Ok(same)
    }

    fn drop_activation(&mut self, rule: usize) {
        self.out.dropped += 1;
        self.out.trace.push(Event::Dropped(self.p.rules[rule].name.clone()));
    }

    /// The firing's bindings, the explanation-only ones computed from the others.
    fn shown_bindings(&self, rule: &Rule, env: &Env) -> Vec<(String, String)> {
        let mut env = env.clone();
        for &c in &rule.deferred {
            if let Cond::Bind { var, expr } = &rule.conds[c] {
                let v = self
                    .eval(expr, &env)
                    .unwrap_or_else(|e| Value::str(&format!("(error: {e})")));
                env.push((var.clone(), v));
            }
        }
        let mut shown: Vec<(String, String)> = Vec::new();
        for (n, v) in env.iter().rev() {
            if !shown.iter().any(|(m, _)| m == n) && !rule.handles.contains(n) {
                shown.push((n.clone(), v.to_string()));
            }
        }
        shown.sort();
        shown
    }

    /// A fact a firing added: within the bound on live facts, and a second answer of an output
    /// declared `one` (while the first is live) stops the run.
    fn admit(&mut self, ri: usize, f: usize) -> Result<(), End> {
        if self.limits.cells != u64::MAX {
            // Counted down from one past the bound: a list shared many times over is not walked
            // further than that.
            let mut left = self.limits.cells + 1;
            let made = self.facts.iter().skip(self.inputs_end).filter(|x| x.alive);
            for v in made.flat_map(|x| x.args.iter()) {
                count_cells(v, &mut left);
            }
            if left == 0 {
                return Err(End::CellLimit);
            }
        }
        let live = self.facts.iter().filter(|x| x.alive).count() as u64;
        if live > self.limits.facts {
            return Err(End::MemoryLimit);
        }
        let rel = self.facts[f].rel.clone();
        let declared = self.p.outputs.iter().position(|o| *o == rel);
        if declared
            .and_then(|k| self.p.answers.get(k).copied().flatten())
            .is_none()
        {
            return Ok(());
        }
        let shown = |m: &Self, g: usize| {
            let args: Vec<String> = m.facts[g].args.iter().map(|v| v.to_string()).collect();
            format!("{rel}({})", args.join(", "))
        };
        let rule = self.p.rules[ri].name.clone();
        let earlier = (0..self.facts.len()).find(|&g| g != f && self.facts[g].alive && self.facts[g].rel == rel);
        let by = self.answered.iter().position(|(r, _)| *r == rel);
        if let (Some(first), Some(by)) = (earlier, by) {
            return Err(End::Answers(format!(
                "two answers for `{rel}`, which the rule set declares `one`: {} by rule `{}`, then {} by rule `{rule}`",
                shown(self, first),
                self.answered[by].1,
                shown(self, f)
            )));
        }
        match by {
            Some(i) => self.answered[i].1 = rule,
            None => self.answered.push((rel, rule)),
        }
        Ok(())
    }

    fn insert(&mut self, rel: &str, args: Vec<Value>) -> Option<usize> {
        if self.facts.iter().any(|f| f.alive && f.rel == rel && f.args == args) {
            return None;
        }
        self.aggregates.get_mut().clear();
        self.facts.push(Fact {
            rel: rel.to_string(),
            args,
            alive: true,
            supports: None,
        });
        self.out.facts += 1;
        Some(self.facts.len() - 1)
    }

    /// A new fact joins every rule with a pattern on its relation, once per such pattern (in
    /// rule order, then pattern order), if it passes what that pattern alone requires.
    fn on_new_fact(&mut self, f: usize) -> Result<(), End> {
        let p = self.p;
        for ri in p.join_order() {
            let rule = &p.rules[ri];
            // A decided group's rules match nothing more: none of theirs could fire.
            if !self.runs(ri) || rule.group.as_ref().is_some_and(|g| self.chosen.contains(g)) {
                continue;
            }
            let mut patterns = rule.join.clone();
            if p.strategy == Strategy::Depth {
                patterns.reverse();
            }
            for &c in &patterns {
                let Cond::Pattern { rel, args, .. } = &rule.conds[c] else {
                    continue;
                };
                if *rel != self.facts[f].rel || !own_checks(args, &self.facts[f].args) {
                    continue;
                }
                self.join(ri, Some(Seed { cond: c, fact: f }))?;
            }
        }
        Ok(())
    }

    fn join(&mut self, ri: usize, seed: Option<Seed>) -> Result<(), End> {
        let rule = &self.p.rules[ri];
        let mut made: Vec<(Env, Vec<usize>)> = Vec::new();
        let mut sink = |e: &Env, f: &[usize]| {
            made.push((e.clone(), f.to_vec()));
            Flow::Continue
        };
        let searched = self.solve(
            &rule.conds,
            &rule.join,
            0,
            seed,
            &mut Vec::new(),
            &mut Vec::new(),
            &mut sink,
        );
        searched.map_err(|m| in_rule(&rule.name, m))?;
        // Past the engine's bound on waiting activations, with a margin: such a case is not
        // compared (see `MAX_ACTIVATIONS` in tests/differential.rs).
        if (self.agenda.len() + made.len()) as u64 > self.limits.activations.saturating_mul(2) {
            return Err(End::Unmodelled);
        }
        for (env, facts) in made {
            self.seq += 1;
            self.out.activations += 1;
            self.queue(Activation {
                rule: ri,
                seq: self.seq,
                env,
                facts,
                standing: None,
            });
        }
        Ok(())
    }

    /// Runs the actions; true on `halt`.
    fn act(&mut self, ri: usize, env: &Env, support: Option<usize>) -> Result<bool, End> {
        let rule = &self.p.rules[ri];
        let fail = |m: String| in_rule(&rule.name, m);
        for a in &rule.actions {
            match a {
                AstAction::Assert(call) | AstAction::AssertLogical(call) => {
                    let mut args = Vec::new();
                    for e in &call.args {
                        args.push(self.eval(e, env).map_err(fail)?);
                    }
                    if args.iter().any(|v| nesting(v) > 32) {
                        return Err(fail(TOO_DEEP.to_string()));
                    }
                    let by = match a {
                        AstAction::AssertLogical(_) => support,
                        _ => None,
                    };
                    if by.is_some_and(|s| !self.supports[s].live) {
                        continue;
                    }
                    let rel = &call.name.name;
                    let existing = self
                        .facts
                        .iter()
                        .position(|f| f.alive && f.rel == *rel && f.args == args);
                    if let Some(f) = existing {
                        match by {
                            None => self.facts[f].supports = None,
                            Some(s) => {
                                if let Some(list) = &mut self.facts[f].supports {
                                    list.push(s);
                                    self.supports[s].supported.push(f);
                                }
                            }
                        }
                        continue;
                    }
                    if let Some(f) = self.insert(rel, args) {
                        self.admit(ri, f)?;
                        if let Some(s) = by {
                            self.facts[f].supports = Some(vec![s]);
                            self.supports[s].supported.push(f);
                        }
                        self.on_new_fact(f)?;
                        self.wake(rel, true);
                        self.maintain()?;
                    }
                }
                AstAction::Retract(call) => {
                    for f in 0..self.facts.len() {
                        if !self.facts[f].alive || self.facts[f].rel != call.name.name {
                            continue;
                        }
                        let mut scratch = env.clone();
                        let args = self.facts[f].args.clone();
                        if self.facts[f].alive && self.match_args(&call.args, &args, &mut scratch).map_err(fail)? {
                            self.facts[f].alive = false;
                            self.out.trace.push(Event::Retracted(f));
                            self.wake(&call.name.name, false);
                            self.maintain()?;
                        }
                    }
                }
                AstAction::RetractHandle(h) => {
                    let f = handle_of(env, &h.name);
                    if self.facts[f].alive {
                        self.facts[f].alive = false;
                        self.out.trace.push(Event::Retracted(f));
                        let rel = self.facts[f].rel.clone();
                        self.wake(&rel, false);
                        self.maintain()?;
                    }
                }
                AstAction::Modify {
                    handle, args: given, ..
                } => {
                    let f = handle_of(env, &handle.name);
                    if !self.facts[f].alive {
                        return Err(fail("`modify` of a fact this firing already retracted".to_string()));
                    }
                    let mut args = Vec::new();
                    for (k, e) in given.iter().enumerate() {
                        args.push(match e.kind {
                            AstExprKind::Wildcard => self.facts[f].args[k].clone(),
                            _ => self.eval(e, env).map_err(fail)?,
                        });
                    }
                    self.facts[f].alive = false;
                    self.out.trace.push(Event::Retracted(f));
                    let rel = self.facts[f].rel.clone();
                    self.wake(&rel, false);
                    self.maintain()?;
                    if args.iter().any(|v| nesting(v) > 32) {
                        return Err(fail(TOO_DEEP.to_string()));
                    }
                    if let Some(new) = self.insert(&rel, args) {
                        self.admit(ri, new)?;
                        self.on_new_fact(new)?;
                        self.wake(&rel, true);
                        self.maintain()?;
                    }
                }
                AstAction::Halt(_) => return Ok(true),
            }
        }
        Ok(false)
    }

    /// Depth-first search of `order[i..]` over the live facts, in the order written.
    #[allow(clippy::too_many_arguments)] // the search's state, passed down as it is
    fn solve(
        &self,
        conds: &[Cond],
        order: &[usize],
        i: usize,
        seed: Option<Seed>,
        env: &mut Env,
        facts: &mut Vec<usize>,
        sink: &mut Sink<'_>,
    ) -> Result<Flow, String> {
        let Some(&c) = order.get(i) else {
            return Ok(sink(env, facts));
        };
        let depth = env.len();
        let next = |m: &Self, env: &mut Env, facts: &mut Vec<usize>, sink: &mut Sink<'_>| {
            m.solve(conds, order, i + 1, seed, env, facts, sink)
        };
        let flow = match &conds[c] {
            Cond::Pattern { rel, args, handle } => {
                let mut flow = Flow::Continue;
                for f in 0..self.facts.len() {
                    let fact = &self.facts[f];
                    if !fact.alive || &fact.rel != rel {
                        continue;
                    }
                    match seed {
                        Some(s) if s.cond == c && s.fact != f => continue,
                        Some(s) if c < s.cond && s.fact == f => continue,
                        _ => {}
                    }
                    if self.match_pattern(args, &fact.args, env)? {
                        if let Some(h) = handle {
                            env.push((h.clone(), Value::Int(f as i64)));
                        }
                        facts.push(f);
                        flow = next(self, env, facts, sink)?;
                        facts.pop();
                    }
                    env.truncate(depth);
                    if flow == Flow::Stop {
                        break;
                    }
                }
                flow
            }
            Cond::Test(e) => match self.eval_test(e, env)? {
                true => next(self, env, facts, sink)?,
                false => Flow::Continue,
            },
            Cond::Bind { var, expr } => {
                let v = self.eval(expr, env)?;
                match lookup(env, var) {
                    Some(old) if !same(old, &v) => Flow::Continue,
                    Some(_) => next(self, env, facts, sink)?,
                    None => {
                        env.push((var.clone(), v));
                        next(self, env, facts, sink)?
                    }
                }
            }
            Cond::In { var, list } => {
                let l = self.eval(list, env)?;
                let Some(items) = l.elements() else {
                    return err(format!("`in` needs a list on its right, got {l}"));
                };
                let mut flow = Flow::Continue;
                for item in items {
                    env.push((var.clone(), item));
                    flow = next(self, env, facts, sink)?;
                    env.truncate(depth);
                    if flow == Flow::Stop {
                        break;
                    }
                }
                flow
            }
            Cond::CallOut {
                builtin,
                inputs,
                outputs,
            } => {
                let mut argv = Vec::new();
                for a in inputs {
                    argv.push(self.eval(a, env)?);
                }
                let rows = call_builtin(builtin, &argv, outputs.len())?;
                self.each_row(&rows, (outputs, false), env, facts, sink, next)?
            }
            Cond::Not(body) => {
                let order: Vec<usize> = (0..body.len()).collect();
                let mut any = false;
                let mut stop = |_: &Env, _: &[usize]| {
                    any = true;
                    Flow::Stop
                };
                let mut body_facts = facts.clone();
                self.solve(body, &order, 0, None, env, &mut body_facts, &mut stop)?;
                env.truncate(depth);
                if any {
                    Flow::Continue
                } else {
                    next(self, env, facts, sink)?
                }
            }
            Cond::Aggregate { op, var, value, body } => {
                let mut mentioned = Vec::new();
                cond_vars(&conds[c], &mut mentioned);
                let mut key = String::new();
                for v in &mentioned {
                    if let Some(x) = lookup(env, v) {
                        key.push_str(&format!("{v}={x:?};"));
                    }
                }
                let key = (&conds[c] as *const Cond as usize, key);
                let known = self.aggregates.borrow().get(&key).cloned();
                let (result, counted) = match known {
                    Some(r) => r,
                    None => {
                        let r = self.aggregate(*op, value.as_ref(), body, env, facts)?;
                        self.aggregates.borrow_mut().insert(key, r.clone());
                        r
                    }
                };
                match result {
                    None => Flow::Continue,
                    Some(v) => {
                        env.push((var.clone(), v));
                        let before = facts.len();
                        facts.extend(counted);
                        let flow = next(self, env, facts, sink)?;
                        facts.truncate(before);
                        flow
                    }
                }
            }
            Cond::WhatIf { inputs, rel, args } => {
                let mut given = Vec::new();
                for (name, e) in inputs {
                    given.push((name.clone(), self.eval(e, env)?));
                }
                let key = (&conds[c] as *const Cond as usize, format!("{given:?}"));
                let known = self.whatifs.borrow().get(&key).cloned();
                let found = match known {
                    Some(found) => found,
                    None => {
                        let found = self.sub_query(&given, rel)?;
                        self.whatifs.borrow_mut().insert(key, found.clone());
                        found
                    }
                };
                let rows: Concluded = found.into_iter().filter(|v| v.len() == args.len()).collect();
                // Matched as a pattern is: its computed arguments last.
                self.each_row(&rows, (args, true), env, facts, sink, next)?
            }
        };
        env.truncate(depth);
        Ok(flow)
    }

    /// Goes on (`next`) with each row that `args` match (as a built-in's outputs, or with
    /// `as_pattern` as a pattern's arguments), until the search stops.
    fn each_row(
        &self,
        rows: &[Vec<Value>],
        (args, as_pattern): (&[AstExpr], bool),
        env: &mut Env,
        facts: &mut Vec<usize>,
        sink: &mut Sink<'_>,
        next: impl Fn(&Self, &mut Env, &mut Vec<usize>, &mut Sink<'_>) -> Result<Flow, String>,
    ) -> Result<Flow, String> {
        let depth = env.len();
        let mut flow = Flow::Continue;
        for row in rows {
            let matched = match as_pattern {
                true => self.match_pattern(args, row, env)?,
                false => self.match_args(args, row, env)?,
            };
            if matched {
                flow = next(self, env, facts, sink)?;
            }
            env.truncate(depth);
            if flow == Flow::Stop {
                break;
            }
        }
        Ok(flow)
    }

    /// An aggregate's value over its body's matches under `env` (`None`: no value, as `min` or
    /// `max` of nothing), and the facts it counted.
    fn aggregate(
        &self,
        op: AggregateOp,
        value: Option<&AstExpr>,
        body: &[Cond],
        env: &mut Env,
        facts: &[usize],
    ) -> Result<Folded, String> {
        let depth = env.len();
        let order: Vec<usize> = (0..body.len()).collect();
        let mut values: Vec<Result<Value, String>> = Vec::new();
        let mut counted: Vec<usize> = Vec::new();
        let base = facts.len();
        let mut each = |e: &Env, f: &[usize]| {
            counted.extend_from_slice(&f[base..]);
            values.push(match value {
                Some(v) => self.eval(v, e),
                None => Ok(Value::Int(0)),
            });
            // The fold stops at the first value that cannot be computed.
            match values.last() {
                Some(Err(_)) => Flow::Stop,
                _ => Flow::Continue,
            }
        };
        let mut body_facts = facts.to_vec();
        self.solve(body, &order, 0, None, env, &mut body_facts, &mut each)?;
        env.truncate(depth);
        let mut acc: Option<Value> = None;
        for v in &values {
            let x = v.clone()?;
            acc = Some(match (acc, op) {
                (None, _) => x,
                (Some(a), AggregateOp::Sum) => binary(BinaryOp::Add, &a, &x)?,
                (Some(a), AggregateOp::Min) => {
                    if ordered(&x, &a) == Some(Ordering::Less) {
                        x
                    } else {
                        a
                    }
                }
                (Some(a), _) => {
                    if ordered(&x, &a) == Some(Ordering::Greater) {
                        x
                    } else {
                        a
                    }
                }
            });
        }
        let result = match op {
            AggregateOp::Count => Some(Value::Int(values.len() as i64)),
            AggregateOp::Sum => Some(acc.unwrap_or(Value::Int(0))),
            _ => acc,
        };
        Ok((result, counted))
    }

    /// Matches a pattern's arguments against a fact's values: variables, `_` and literals left
    /// to right, then the computed arguments, as a test after the pattern (docs/semantics.md,
    /// "Computed pattern arguments"): one that cannot be computed fails only a fact that matches
    /// otherwise.
    fn match_pattern(&self, args: &[AstExpr], values: &[Value], env: &mut Env) -> Result<bool, String> {
        let computed = |a: &AstExpr| {
            !matches!(
                a.kind,
                AstExprKind::Var(_) | AstExprKind::Wildcard | AstExprKind::Literal(_)
            )
        };
        for (a, v) in args.iter().zip(values) {
            if !computed(a) && !self.match_args(std::slice::from_ref(a), std::slice::from_ref(v), env)? {
                return Ok(false);
            }
        }
        for (a, v) in args.iter().zip(values) {
            if computed(a) && !same(&self.eval(a, env)?, v) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Matches a pattern's arguments (or a call's outputs) left to right against values.
    fn match_args(&self, args: &[AstExpr], values: &[Value], env: &mut Env) -> Result<bool, String> {
        for (a, v) in args.iter().zip(values) {
            match &a.kind {
                AstExprKind::Wildcard => {}
                AstExprKind::Var(name) => match lookup(env, name) {
                    Some(old) => {
                        if !same(old, v) {
                            return Ok(false);
                        }
                    }
                    None => env.push((name.clone(), v.clone())),
                },
                _ => {
                    if !same(&self.eval(a, env)?, v) {
                        return Ok(false);
                    }
                }
            }
        }
        Ok(true)
    }

    fn eval_test(&self, e: &AstExpr, env: &Env) -> Result<bool, String> {
        match self.eval(e, env)? {
            Value::Bool(b) => Ok(b),
            other => err(format!("a condition must be true or false, got {other}")),
        }
    }

    fn eval(&self, e: &AstExpr, env: &Env) -> Result<Value, String> {
        Ok(match &e.kind {
            AstExprKind::Literal(l) => literal(l),
            AstExprKind::Var(v) => match lookup(env, v) {
                Some(x) => x.clone(),
                None => panic!("variable {v} read before it is bound (the checker should have refused it)"),
            },
            AstExprKind::Wildcard => panic!("`_` in an expression"),
            AstExprKind::Name(n) => match self.params.iter().find(|(m, _)| m == n) {
                Some((_, v)) => v.clone(),
                None => panic!("unknown name {n}"),
            },
            AstExprKind::List(items) => {
                let mut out = Vec::new();
                for i in items {
                    out.push(self.eval(i, env)?);
                }
                Value::list(out)
            }
            AstExprKind::Call(call) => {
                let Some((b, _, _)) = Callee::of(&call.name.name) else {
                    panic!("unknown built-in {}", call.name.name)
                };
                let mut argv = Vec::new();
                for a in &call.args {
                    argv.push(self.eval(a, env)?);
                }
                let rows = call_builtin(&b, &argv, 1)?;
                let Some(row) = rows.first() else {
                    return err(format!("{}: gave no value for these arguments", call.name.name));
                };
                row[0].clone()
            }
            AstExprKind::Unary(op, x) => {
                let v = self.eval(x, env)?;
                match (op, &v) {
                    (UnaryOp::Neg, Value::Int(i)) => match i.checked_neg() {
                        Some(n) => Value::Int(n),
                        None => return err(format!("integer overflow in `-{i}`")),
                    },
                    (UnaryOp::Neg, Value::Num(n)) => Value::Num(-n),
                    (UnaryOp::Not, Value::Bool(b)) => Value::Bool(!b),
                    (UnaryOp::Neg, _) => return err(format!("cannot negate {v}")),
                    (UnaryOp::Not, _) => return err(format!("`!` needs true or false, got {v}")),
                }
            }
            AstExprKind::Binary(op @ (BinaryOp::And | BinaryOp::Or), a, b) => {
                let l = truth(&self.eval(a, env)?, op.symbol())?;
                if (*op == BinaryOp::And && !l) || (*op == BinaryOp::Or && l) {
                    return Ok(Value::Bool(l));
                }
                Value::Bool(truth(&self.eval(b, env)?, op.symbol())?)
            }
            AstExprKind::Binary(op, a, b) => {
                let l = self.eval(a, env)?;
                let r = self.eval(b, env)?;
                binary(*op, &l, &r)?
            }
            // Only the branch the condition picks is computed.
            AstExprKind::If(c, a, b) => match truth(&self.eval(c, env)?, "if")? {
                true => self.eval(a, env)?,
                false => self.eval(b, env)?,
            },
            AstExprKind::Index(l, i) => {
                let list = self.eval(l, env)?;
                let idx = self.eval(i, env)?;
                let Value::Int(n) = idx else {
                    return err(format!("an index must be an integer, got {idx}"));
                };
                let items = match &list {
                    Value::List(_) | Value::Cards(_) => list.elements().unwrap_or_default(),
                    _ => return err(format!("cannot index into {list}")),
                };
                let at = if n < 0 { items.len() as i64 + n } else { n };
                match usize::try_from(at).ok().and_then(|a| items.get(a)) {
                    Some(v) => v.clone(),
                    None => return err(format!("index {n} is out of range for a list of {}", items.len())),
                }
            }
        })
    }
}

/// What a pattern alone requires of a fact: its literal arguments, and a variable written twice.
fn own_checks(args: &[AstExpr], values: &[Value]) -> bool {
    for (k, (a, v)) in args.iter().zip(values).enumerate() {
        match &a.kind {
            AstExprKind::Literal(l) if !same(&literal(l), v) => return false,
            AstExprKind::Var(name) => {
                let first = args
                    .iter()
                    .position(|b| matches!(&b.kind, AstExprKind::Var(m) if m == name));
                if let Some(j) = first.filter(|&j| j < k) {
                    if !same(&values[j], v) {
                        return false;
                    }
                }
            }
            _ => {}
        }
    }
    true
}

fn truth(v: &Value, op: &str) -> Result<bool, String> {
    match v {
        Value::Bool(b) => Ok(*b),
        _ => err(format!("`{op}` needs true or false, got {v}")),
    }
}

/// A binary operator on two values: integers stay integral (checked; `/` truncates toward
/// zero), a decimal operand makes a decimal, `==` compares numbers by value.
fn binary(op: BinaryOp, l: &Value, r: &Value) -> Result<Value, String> {
    use BinaryOp::*;
    let text = || format!("{l} {} {r}", op.symbol());
    Ok(match op {
        Eq => Value::Bool(same(l, r)),
        Ne => Value::Bool(!same(l, r)),
        Lt | Le | Gt | Ge => {
            let Some(ord) = ordered(l, r) else {
                return err(format!("cannot compare {l} with {r}"));
            };
            Value::Bool(match op {
                Lt => ord == Ordering::Less,
                Le => ord != Ordering::Greater,
                Gt => ord == Ordering::Greater,
                _ => ord != Ordering::Less,
            })
        }
        In => {
            let found = match r {
                Value::List(_) | Value::Cards(_) => r.elements().unwrap_or_default().iter().any(|v| same(v, l)),
                Value::Str(s) => matches!(l, Value::Str(x) if s.contains(x.as_ref())),
                _ => return err(format!("`in` needs a list on its right, got {r}")),
            };
            Value::Bool(found)
        }
        Add | Sub | Mul | Div | Rem => match (l, r) {
            (Value::Int(a), Value::Int(b)) => {
                if matches!(op, Div | Rem) && *b == 0 {
                    return err(format!("division by zero in `{}`", text()));
                }
                let v = match op {
                    Add => a.checked_add(*b),
                    Sub => a.checked_sub(*b),
                    Mul => a.checked_mul(*b),
                    Div => a.checked_div(*b),
                    _ => a.checked_rem(*b),
                };
                match v {
                    Some(v) => Value::Int(v),
                    None => return err(format!("integer overflow in `{}`", text())),
                }
            }
            // Both at most 2^20: bytes of text, elements of a list (docs/semantics.md, "Stopping
            // and limits").
            (Value::Str(a), Value::Str(b)) if op == Add => {
                if a.len() + b.len() > 1 << 20 {
                    return err("`+` would make a text of more than 1048576 bytes");
                }
                Value::str(&format!("{a}{b}"))
            }
            (Value::List(_), Value::List(_)) if op == Add => {
                let mut items = l.elements().unwrap_or_default();
                items.extend(r.elements().unwrap_or_default());
                if items.len() > 1 << 20 {
                    return err("`+` would make a list of more than 1048576 elements");
                }
                Value::list(items)
            }
            _ => {
                let (Some(a), Some(b)) = (l.as_f64(), r.as_f64()) else {
                    return err(format!("`{}` needs numbers: {}", op.symbol(), text()));
                };
                if matches!(op, Div | Rem) && b == 0.0 {
                    return err(format!("division by zero in `{}`", text()));
                }
                Value::Num(match op {
                    Add => a + b,
                    Sub => a - b,
                    Mul => a * b,
                    Div => a / b,
                    _ => a % b,
                })
            }
        },
        And | Or => unreachable!("`and` and `or` are evaluated lazily by the caller"),
    })
}

/// A literal's value, read here from the syntax tree rather than by the checker.
fn literal(l: &AstLiteral) -> Value {
    match l {
        AstLiteral::Int(i) => Value::Int(*i),
        AstLiteral::Num(n) => Value::Num(*n),
        AstLiteral::Str(s) => Value::str(s),
        AstLiteral::Bool(b) => Value::Bool(*b),
        AstLiteral::List(items) => Value::list(items.iter().map(literal).collect::<Vec<_>>()),
    }
}

/// Equality as rules see it (docs/language.md), written here rather than taken from the library:
/// a whole number equals a decimal of the same value, a decimal equals a decimal of the same bits,
/// lists are equal element by element, other values only to values of their own kind.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Int(x), Value::Num(y)) | (Value::Num(y), Value::Int(x)) => *x as f64 == *y,
        (Value::Num(x), Value::Num(y)) => x.to_bits() == y.to_bits(),
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Str(x), Value::Str(y)) => {
            let (x, y): (&str, &str) = (x.as_ref(), y.as_ref());
            x == y
        }
        (Value::Card(x), Value::Card(y)) => x == y,
        (Value::Cards(x), Value::Cards(y)) => x.hidden() == y.hidden() && x.cards() == y.cards(),
        (Value::List(x), Value::List(y)) => x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| same(p, q)),
        _ => false,
    }
}

/// Order as rules see it: numbers by value (whole numbers exactly), strings, booleans and cards in
/// their natural order, lists lexicographically then by length; none between other kinds.
fn ordered(a: &Value, b: &Value) -> Option<Ordering> {
    let number = |v: &Value| match v {
        Value::Int(i) => Some(*i as f64),
        Value::Num(n) => Some(*n),
        _ => None,
    };
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
        (Value::Str(x), Value::Str(y)) => {
            let (x, y): (&str, &str) = (x.as_ref(), y.as_ref());
            Some(x.cmp(y))
        }
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        (Value::Card(x), Value::Card(y)) => Some(x.cmp(y)),
        (Value::List(x), Value::List(y)) => {
            for (p, q) in x.iter().zip(y.iter()) {
                match ordered(p, q)? {
                    Ordering::Equal => continue,
                    o => return Some(o),
                }
            }
            Some(x.len().cmp(&y.len()))
        }
        _ => number(a)?.partial_cmp(&number(b)?),
    }
}

/// A built-in's solutions: a general one computed here, a game's through the registry.
fn call_builtin(builtin: &Callee, args: &[Value], outputs: usize) -> Result<Vec<Vec<Value>>, String> {
    match builtin {
        Callee::Own(name) => builtins::call(name, args),
        Callee::Library(b) => {
            let mut sols = Solutions::new(outputs);
            let args: Vec<&Value> = args.iter().collect();
            b.call(&args, &mut sols).map_err(|e| e.to_string())?;
            Ok((0..sols.len()).map(|k| sols.row(k).to_vec()).collect())
        }
    }
}

/// An input of a general type read from its text (docs/language.md, "Types"); `None` for a type
/// the reference does not read itself (a game's), and for text a general type refuses.
fn read_input(ty: &AstType, text: &str) -> Option<Value> {
    let t = text.trim();
    let range = ty.args.iter().find(|a| a.key.is_none()).map(|a| (a.min, a.max));
    let within = |n: i64| range.is_none_or(|(lo, hi)| (lo..=hi).contains(&n));
    match ty.name.name.as_str() {
        "int" => t.parse::<i64>().ok().filter(|n| within(*n)).map(Value::Int),
        "decimal" => t.parse::<f64>().ok().filter(|n| n.is_finite()).map(Value::Num),
        "string" => Some(Value::str(text)),
        "bool" => match t.to_ascii_lowercase().as_str() {
            "true" | "yes" | "1" => Some(Value::Bool(true)),
            "false" | "no" | "0" => Some(Value::Bool(false)),
            _ => None,
        },
        "ints" => {
            let items: Option<Vec<Value>> = t
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|w| !w.is_empty())
                .map(|w| w.parse::<i64>().ok().map(Value::Int))
                .collect();
            items.filter(|xs| within(xs.len() as i64)).map(Value::list)
        }
        "cards" => {
            let (mut cards, mut hidden) = (Vec::new(), 0u8);
            for w in t
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|w| !w.is_empty())
            {
                if w.eq_ignore_ascii_case("XX") {
                    hidden += 1;
                    continue;
                }
                let c = read_card(w)?;
                if cards.contains(&c) {
                    return None;
                }
                cards.push(c);
            }
            let n = cards.len() as i64 + i64::from(hidden);
            let hidden_ok = ty
                .args
                .iter()
                .find(|a| a.key.as_ref().is_some_and(|k| k.name == "hidden"))
                .map_or(hidden == 0, |a| i64::from(hidden) <= a.max);
            (within(n) && hidden_ok).then(|| Value::Cards(Shared::new(Cards::new(cards, hidden))))
        }
        _ => None,
    }
}

/// A card in letter notation: rank `2`..`9`, `T` or `10`, `J`, `Q`, `K`, `A`, then the suit.
fn read_card(w: &str) -> Option<Card> {
    let up = w.to_ascii_uppercase();
    let suit = match up.chars().last()? {
        'S' => Suit::Spades,
        'H' => Suit::Hearts,
        'D' => Suit::Diamonds,
        'C' => Suit::Clubs,
        _ => return None,
    };
    let rank = match &up[..up.len() - 1] {
        "A" => 14,
        "K" => 13,
        "Q" => 12,
        "J" => 11,
        "T" | "10" => 10,
        r => r.parse::<u8>().ok().filter(|r| (2..=9).contains(r))?,
    };
    Card::new(rank, suit)
}

/// Facts nest lists at most 32 deep (docs/semantics.md, "Stopping and limits").
const TOO_DEEP: &str = "a value nests lists more than 32 deep";

/// How deep lists nest in a value: 0 for a scalar, 1 for a list of scalars.
/// The value cells a value holds (docs/semantics.md, "Limits and budgets"): one for a number,
/// truth value or card; text one more per 16 bytes; a card group one more per card; a list one
/// and its elements'.
/// Takes them off `left`, stopping at 0.
fn count_cells(v: &Value, left: &mut u64) {
    let own = match v {
        Value::Str(s) => 1 + s.len() as u64 / 16,
        Value::Cards(c) => 1 + c.len() as u64,
        _ => 1,
    };
    *left = left.saturating_sub(own);
    if let Value::List(items) = v {
        for x in items.iter() {
            if *left == 0 {
                return;
            }
            count_cells(x, left);
        }
    }
}

fn nesting(v: &Value) -> usize {
    match v {
        Value::List(items) => 1 + items.iter().map(nesting).max().unwrap_or(0),
        _ => 0,
    }
}
