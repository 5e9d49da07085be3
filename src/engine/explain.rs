//! Explanations (SPEC §3.4): *how* a fact was concluded (a derivation tree with filled-in
//! `because` texts and every built-in call with its arguments and result), *why not* for a rule
//! that did not fire, and the *trace* of firings — each as a serialisable tree and as text.

use super::memory::{FactId, Origin};
use super::program::*;
use super::session::{RunError, Session, TraceEvent};
use crate::lang::ast::{AggregateOp, BinaryOp, UnaryOp};
use crate::value::Value;
use serde::Serialize;
use std::fmt::Write as _;

/// How a fact came to be.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Explanation {
    /// The fact, as `relation(arg, ...)`.
    pub fact: String,
    /// `"input"`, `"rule"`, `"seen"` (already explained higher in the tree), or `"elided"` (derived
    /// by a rule, deeper than [`MAX_EXPLAIN_DEPTH`] levels below the conclusion: not shown).
    pub source: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub because: Option<String>,
    /// The conditions that held, built-in calls with their results, in the order written.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<String>,
    /// The facts it matched, explained in turn.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub premises: Vec<Explanation>,
    /// Groups of aggregated facts: how many, and an example explained.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aggregated: Vec<AggregateGroup>,
    /// What-if sub-queries and how they concluded.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub whatifs: Vec<WhatIfExplanation>,
}

/// Aggregated facts with the same explanation, counted.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AggregateGroup {
    pub count: usize,
    pub example: Explanation,
}

/// One what-if sub-query in an explanation.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct WhatIfExplanation {
    pub query: String,
    pub concluded: Vec<Explanation>,
}

/// The deepest derivation an explanation shows: a chain of firings longer than this (a rule that
/// counts to five thousand one step at a time) is cut there with a note, so that building,
/// printing and serialising the tree never recurse deeper than this.
pub const MAX_EXPLAIN_DEPTH: usize = 48;

/// Limits that keep explanations readable and finite.
#[derive(Debug, Clone, Copy)]
pub struct ExplainLimits {
    /// How deep what-if sub-queries are expanded.
    pub whatif_depth: usize,
    /// Longest list shown in full (longer ones are abbreviated).
    pub list_items: usize,
}

impl Default for ExplainLimits {
    fn default() -> Self {
        ExplainLimits {
            whatif_depth: 1,
            list_items: 8,
        }
    }
}

impl Session {
    /// Explains a fact of the last run.
    pub fn explain(&mut self, fact: FactId, limits: ExplainLimits) -> Explanation {
        let mut seen = Vec::new();
        self.explain_inner(fact, limits, &mut seen, 0)
    }

    /// Everything the last run left to be seen, as text: its trace (when kept), every firing's
    /// rule, bindings and matched facts, every live fact, and each conclusion explained (what-ifs
    /// one level deep). Two runs that leave the same transcript decided alike in every respect a
    /// user can see: what generated joins are checked against the matcher with.
    pub fn transcript(&mut self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "trace: {:?}", self.trace());
        for i in 0.. {
            let Some(f) = self.firing(i).cloned() else { break };
            let (vars, mask) = self.firing_bindings(&f);
            let vars: Vec<String> = vars.iter().map(|v| v.to_string()).collect();
            let _ = writeln!(
                out,
                "firing {i}: rule {} mask {mask:#x} vars {vars:?} facts {:?}",
                f.rule,
                self.firing_facts(&f)
            );
        }
        let program = self.program().clone();
        for rel in &program.relations {
            for args in self.facts_of(&rel.name) {
                let args: Vec<String> = args.iter().map(|v| v.to_string()).collect();
                let _ = writeln!(out, "{}({})", rel.name, args.join(", "));
            }
        }
        let limits = ExplainLimits {
            whatif_depth: 1,
            ..ExplainLimits::default()
        };
        for c in self.conclusions() {
            let e = self.explain(c.fact, limits);
            out.push_str(&render_tree(&e));
        }
        out
    }

    /// A fact as the first line of its explanation, the way `ask` prints a conclusion.
    pub fn fact_line(&self, fact: FactId) -> String {
        self.fact_text(fact, ExplainLimits::default())
    }

    fn fact_text(&self, fact: FactId, limits: ExplainLimits) -> String {
        let f = self.mem.fact(fact);
        let name = &self.program().relations[f.rel as usize].name;
        let args: Vec<String> = self.mem.args_of(fact).iter().map(|v| show(v, limits)).collect();
        format!("{name}({})", args.join(", "))
    }

    fn explain_inner(
        &mut self,
        fact: FactId,
        limits: ExplainLimits,
        seen: &mut Vec<FactId>,
        depth: usize,
    ) -> Explanation {
        let prog = self.program().clone();
        let text = self.fact_text(fact, limits);
        let origin = self.mem.fact(fact).origin;
        let mut node = Explanation {
            fact: text,
            source: "input",
            input: None,
            rule: None,
            title: None,
            because: None,
            checks: Vec::new(),
            premises: Vec::new(),
            aggregated: Vec::new(),
            whatifs: Vec::new(),
        };
        match origin {
            Origin::Input(i) => {
                node.input = prog.inputs.get(i as usize).map(|d| d.name.clone());
            }
            Origin::Firing(fi) => {
                if seen.contains(&fact) {
                    node.source = "seen";
                    return node;
                }
                if depth >= MAX_EXPLAIN_DEPTH {
                    node.source = "elided";
                    return node;
                }
                seen.push(fact);
                let Some(firing) = self.firing(fi).cloned() else {
                    return node;
                };
                let rule = &prog.rules[firing.rule as usize];
                let (vars, mask) = self.firing_bindings(&firing);
                let vars = vars.into_owned();
                let facts = self.firing_facts(&firing).to_vec();
                node.source = "rule";
                node.rule = Some(rule.name.clone());
                node.title = rule.title.clone();
                node.because = rule.because.as_ref().map(|t| t.render(&vars, self.params()));
                for (ci, at) in rule.conds.iter().enumerate() {
                    let matched: Vec<FactId> = facts
                        .iter()
                        .filter(|(c, _)| *c as usize == ci)
                        .map(|(_, f)| *f)
                        .collect();
                    match &at.cond {
                        Cond::Pattern { .. } => {
                            for f in matched {
                                let child = self.explain_inner(f, limits, seen, depth + 1);
                                node.premises.push(child);
                            }
                        }
                        Cond::Aggregate { op, slot, value, .. } => {
                            let at = AggregateAt {
                                op: *op,
                                slot: *slot,
                                value: value.as_ref(),
                                span: at.span,
                            };
                            self.explain_aggregate(&mut node, at, rule, (&vars, mask), matched, limits, seen, depth);
                        }
                        Cond::WhatIf {
                            target,
                            inputs,
                            rel_name,
                            args,
                            ..
                        } => self.explain_whatif(&mut node, target, inputs, rel_name, args, &vars, limits),
                        other => {
                            if let Some(line) = check_line(other, &vars, self.params(), rule, limits, &prog, at) {
                                node.checks.push(line);
                            }
                        }
                    }
                }
            }
        }
        node
    }

    /// An aggregate's line (`?n = count { … } = 3`) and its facts, grouped by their explanation.
    #[allow(clippy::too_many_arguments)]
    fn explain_aggregate(
        &mut self,
        node: &mut Explanation,
        at: AggregateAt<'_>,
        rule: &RuleIr,
        (vars, mask): (&[Value], u64),
        matched: Vec<FactId>,
        limits: ExplainLimits,
        seen: &mut Vec<FactId>,
        depth: usize,
    ) {
        let prog = self.program().clone();
        let AggregateAt { op, slot, value, span } = at;
        let what = match (&op, value) {
            (AggregateOp::Count, _) => "count".to_string(),
            // The body's own variables (`?x` of `sum ?x { term(_, ?x) }`) hold
            // no value of this firing: they are shown by name.
            (op, Some(v)) => {
                let var = |s: u16| match s >= 64 || mask & (1u64 << s) != 0 {
                    true => show(&vars[s as usize], limits),
                    false => rule.var_names[s as usize].clone(),
                };
                format!("{} {}", op.keyword(), render_with(v, &var, self.params(), limits))
            }
            (op, None) => op.keyword().to_string(),
        };
        let src = prog.sources.text(span);
        let body = src.find('{').map_or(src, |i| &src[i..]);
        node.checks.push(format!(
            "{} = {what} {} = {}",
            rule.var_names[slot as usize],
            body.split_whitespace().collect::<Vec<_>>().join(" "),
            show(&vars[slot as usize], limits)
        ));
        // Group the aggregated facts by their explanation.
        let mut groups: Vec<(String, usize, FactId)> = Vec::new();
        for f in matched {
            let key = self.group_key(f);
            match groups.iter_mut().find(|g| g.0 == key) {
                Some(g) => g.1 += 1,
                None => groups.push((key, 1, f)),
            }
        }
        for (_, count, f) in groups {
            let example = self.explain_inner(f, limits, seen, depth + 1);
            node.aggregated.push(AggregateGroup { count, example });
        }
    }

    /// A what-if's line (the query and what it concluded) and, within the depth asked, the
    /// sub-query's own explanations.
    #[allow(clippy::too_many_arguments)]
    fn explain_whatif(
        &mut self,
        node: &mut Explanation,
        target: &WhatIfTarget,
        inputs: &[(String, Expr)],
        rel_name: &str,
        args: &[PatArg],
        vars: &[Value],
        limits: ExplainLimits,
    ) {
        let prog = self.program().clone();
        let mut calls = 0;
        let values: Vec<(String, Value)> = inputs
            .iter()
            .filter_map(|(n, e)| {
                super::eval::eval(e, vars, self.params(), &mut calls)
                    .ok()
                    .map(|v| (n.clone(), v))
            })
            .collect();
        let tname = match target {
            WhatIfTarget::SelfSet => prog.name.clone(),
            WhatIfTarget::Named(n) => n.clone(),
        };
        let query = format!(
            "what-if {tname}({})",
            values
                .iter()
                .map(|(n, v)| format!("{n}: {}", show(v, limits)))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let pattern: Vec<String> = args
            .iter()
            .map(|a| render_pat(a, vars, self.params(), limits))
            .collect();
        node.checks
            .push(format!("{query} concluded {rel_name}({})", pattern.join(", ")));
        if limits.whatif_depth > 0 {
            let params = self.params().to_vec();
            if let Ok(mut sub) = self.whatif.replay(target, &values, &prog, &params) {
                let sub_limits = ExplainLimits {
                    whatif_depth: limits.whatif_depth - 1,
                    ..limits
                };
                let concluded: Vec<Explanation> = sub
                    .conclusions()
                    .into_iter()
                    .filter(|c| c.relation == rel_name)
                    .map(|c| sub.explain(c.fact, sub_limits))
                    .collect();
                node.whatifs.push(WhatIfExplanation { query, concluded });
            }
        }
    }

    /// What makes two aggregated facts "the same story": their rule and `because` text.
    fn group_key(&self, fact: FactId) -> String {
        match self.mem.fact(fact).origin {
            Origin::Input(i) => format!("input {i}"),
            Origin::Firing(fi) => match self.firing(fi) {
                Some(f) => {
                    let rule = &self.program().rules[f.rule as usize];
                    let vars = self.firing_vars(f);
                    format!(
                        "{} {}",
                        rule.name,
                        rule.because
                            .as_ref()
                            .map(|t| t.render(&vars, self.params()))
                            .unwrap_or_default()
                    )
                }
                None => String::new(),
            },
        }
    }

    /// Why a rule did not fire (or how often it did), from the final working memory.
    pub fn why_not(&mut self, rule_name: &str) -> Result<WhyNot, RunError> {
        let prog = self.program().clone();
        let Some(ri) = prog.rule_index(rule_name) else {
            return Err(RunError::UnknownRule(rule_name.to_string()));
        };
        let rule = &prog.rules[ri];
        let fired = self.fired_count(ri);
        let (complete, deepest) = self.probe_rule(ri)?;
        let limits = ExplainLimits::default();
        let (failed_at, bindings) = match (&deepest, complete) {
            (_, true) => (None, Vec::new()),
            (Some((step, vars, mask)), false) => {
                let b = rule
                    .var_names
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| mask & (1u64 << i) != 0)
                    .map(|(i, n)| format!("{n} = {}", show(&vars[i], limits)))
                    .collect();
                (Some(*step), b)
            }
            (None, false) => (Some(0), Vec::new()),
        };
        let failed = failed_at.and_then(|i| rule.conds.get(i)).map(|c| {
            let l = prog.sources.locate(c.span);
            FailedCondition {
                index: failed_at.unwrap_or(0) + 1,
                condition: prog
                    .sources
                    .text(c.span)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" "),
                location: format!("{}:{}:{}", l.file, l.line, l.col),
                reason: match &c.cond {
                    Cond::Pattern { rel, .. } if self.mem.of_relation(*rel).iter().all(|f| !self.mem.is_alive(*f)) => {
                        format!("there is no `{}` fact at all", prog.relations[*rel as usize].name)
                    }
                    Cond::Pattern { .. } => "no fact matches it with these bindings".to_string(),
                    Cond::Not { .. } => "a matching fact exists".to_string(),
                    Cond::Test(_) => "it is false".to_string(),
                    _ => "it has no solution with these bindings".to_string(),
                },
            }
        });
        let summary = if fired > 0 {
            format!("{rule_name} fired {fired} time(s)")
        } else if complete {
            format!("{rule_name} did not fire, but all its conditions hold now (an activation was dropped when selected, or the run halted)")
        } else if let Some(f) = &failed {
            format!(
                "{rule_name} did not fire: condition {} `{}` fails ({})",
                f.index, f.condition, f.reason
            )
        } else {
            format!("{rule_name} did not fire")
        };
        Ok(WhyNot {
            rule: rule_name.to_string(),
            title: rule.title.clone(),
            fired,
            summary,
            matched_conditions: failed_at.unwrap_or(rule.conds.len()),
            failed,
            bindings,
        })
    }

    /// The trace of the last run as lines of text (run with `RunOptions::trace`).
    pub fn trace_text(&self) -> Vec<String> {
        let prog = self.program().clone();
        let limits = ExplainLimits {
            list_items: 6,
            ..ExplainLimits::default()
        };
        let mut out = Vec::new();
        let mut n = 0;
        for ev in self.trace() {
            match ev {
                TraceEvent::Fired { firing } => {
                    n += 1;
                    let Some(f) = self.firing(*firing) else { continue };
                    let rule = &prog.rules[f.rule as usize];
                    let (vars, mask) = self.firing_bindings(f);
                    let b: Vec<String> = rule
                        .var_names
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| mask & (1u64 << i) != 0)
                        .map(|(i, name)| format!("{name}={}", show(&vars[i], limits)))
                        .collect();
                    out.push(format!(
                        "FIRE {n:>4} {} (salience {}): {}",
                        rule.name,
                        rule.salience,
                        b.join(" ")
                    ));
                }
                TraceEvent::Dropped { rule, reason } => {
                    out.push(format!("DROP      {}: {reason}", prog.rules[*rule as usize].name));
                }
                TraceEvent::Retracted { fact, .. } => {
                    out.push(format!("RETRACT   {}", self.fact_text(*fact, limits)));
                }
            }
        }
        out
    }
}

/// An aggregate condition, as the explanation reads it.
struct AggregateAt<'a> {
    op: AggregateOp,
    slot: u16,
    value: Option<&'a Expr>,
    span: crate::lang::source::Span,
}

/// Why a rule did not fire.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct WhyNot {
    pub rule: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub fired: u64,
    pub summary: String,
    /// How many conditions, in the order written, the best partial match satisfied.
    pub matched_conditions: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed: Option<FailedCondition>,
    /// The bindings of the best partial match.
    pub bindings: Vec<String>,
}

/// The first condition the best partial match could not satisfy.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FailedCondition {
    /// 1-based, in the order written.
    pub index: usize,
    pub condition: String,
    pub location: String,
    pub reason: String,
}

impl WhyNot {
    /// People's form.
    pub fn to_text(&self) -> String {
        let mut s = self.summary.clone();
        if let Some(f) = &self.failed {
            let _ = write!(s, "\n  at {}", f.location);
            if !self.bindings.is_empty() {
                let _ = write!(s, "\n  best partial match: {}", self.bindings.join(", "));
            }
        }
        s
    }
}

/// A one-line account of a non-pattern condition with the firing's bindings.
fn check_line(
    c: &Cond,
    vars: &[Value],
    params: &[Value],
    rule: &RuleIr,
    limits: ExplainLimits,
    prog: &Program,
    at: &CondAt,
) -> Option<String> {
    Some(match c {
        Cond::Test(e) => format!("{} ✓", render_test(e, vars, params, limits)),
        Cond::Bind { slot, expr } => format!(
            "{} = {}{}",
            rule.var_names[*slot as usize],
            render(expr, vars, params, limits),
            if matches!(expr, Expr::Call { .. } | Expr::Binary(..) | Expr::Index(..)) {
                format!(" = {}", show(&vars[*slot as usize], limits))
            } else {
                String::new()
            }
        ),
        Cond::In { slot, list } => format!(
            "{} = {} from {}",
            rule.var_names[*slot as usize],
            show(&vars[*slot as usize], limits),
            render(list, vars, params, limits)
        ),
        Cond::CallOut {
            builtin,
            inputs,
            outputs,
        } => {
            let args: Vec<String> = inputs.iter().map(|e| render(e, vars, params, limits)).collect();
            let outs: Vec<String> = outputs
                .iter()
                .map(|o| match o {
                    PatArg::Var(s) => format!("{} = {}", rule.var_names[*s as usize], show(&vars[*s as usize], limits)),
                    other => render_pat(other, vars, params, limits),
                })
                .collect();
            format!(
                "{}({}) → {}",
                builtin.signature().name,
                args.join(", "),
                outs.join(", ")
            )
        }
        Cond::Not { .. } => {
            let src = prog
                .sources
                .text(at.span)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            format!("{src}: no such fact")
        }
        _ => return None,
    })
}

fn render_test(e: &Expr, vars: &[Value], params: &[Value], limits: ExplainLimits) -> String {
    match e {
        Expr::Binary(op, a, b) if !matches!(op, BinaryOp::And | BinaryOp::Or) => {
            format!(
                "{} {} {}",
                render_side(a, vars, params, limits),
                op.symbol(),
                render_side(b, vars, params, limits)
            )
        }
        Expr::Call { .. } => render_side(e, vars, params, limits),
        other => render(other, vars, params, limits),
    }
}

/// A comparison side: a call is shown with its result, a parameter with its value.
fn render_side(e: &Expr, vars: &[Value], params: &[Value], limits: ExplainLimits) -> String {
    let mut calls = 0;
    match e {
        Expr::Call { .. } | Expr::Binary(..) => match super::eval::eval(e, vars, params, &mut calls) {
            Ok(v) => format!("{} = {}", render(e, vars, params, limits), show(&v, limits)),
            Err(_) => render(e, vars, params, limits),
        },
        _ => render(e, vars, params, limits),
    }
}

/// An expression with variables replaced by their values.
fn render(e: &Expr, vars: &[Value], params: &[Value], limits: ExplainLimits) -> String {
    render_with(e, &|s| show(&vars[s as usize], limits), params, limits)
}

/// An expression with each variable shown as `var` says.
fn render_with(e: &Expr, var: &dyn Fn(u16) -> String, params: &[Value], limits: ExplainLimits) -> String {
    let render = |x: &Expr| render_with(x, var, params, limits);
    match e {
        Expr::Const(v) => v.to_string(),
        Expr::Var(s) => var(*s),
        Expr::Param(i) => show(&params[*i as usize], limits),
        Expr::List(items) => format!("[{}]", items.iter().map(render).collect::<Vec<_>>().join(", ")),
        Expr::Call { builtin, args, .. } => format!(
            "{}({})",
            builtin.signature().name,
            args.iter().map(render).collect::<Vec<_>>().join(", ")
        ),
        Expr::Unary(UnaryOp::Neg, x) => format!("-{}", render(x)),
        Expr::Unary(UnaryOp::Not, x) => format!("!{}", render(x)),
        Expr::Binary(op, a, b) => format!("({} {} {})", render(a), op.symbol(), render(b)),
        Expr::Index(l, i) => format!("{}[{}]", render(l), render(i)),
    }
}

fn render_pat(a: &PatArg, vars: &[Value], params: &[Value], limits: ExplainLimits) -> String {
    match a {
        PatArg::Var(s) => show(&vars[*s as usize], limits),
        PatArg::Expr(e) => render(e, vars, params, limits),
        PatArg::Wild => "_".to_string(),
    }
}

/// A value for people, long lists abbreviated.
pub fn show(v: &Value, limits: ExplainLimits) -> String {
    match v {
        Value::List(items) if items.len() > limits.list_items => {
            let head: Vec<String> = items
                .iter()
                .take(limits.list_items.min(4))
                .map(|x| show(x, limits))
                .collect();
            format!("[{}, … {} items]", head.join(", "), items.len())
        }
        // Items through `show` too: a string reads quoted whether or not its list was cut short.
        Value::List(items) => {
            let all: Vec<String> = items.iter().map(|x| show(x, limits)).collect();
            format!("[{}]", all.join(", "))
        }
        Value::Str(s) => format!("{s:?}"),
        other => other.pretty(),
    }
}

/// An explanation as an indented tree of text.
pub fn render_tree(e: &Explanation) -> String {
    let mut out = String::new();
    out.push_str(&e.fact);
    out.push('\n');
    render_children(e, "", &mut out);
    out
}

fn render_children(e: &Explanation, prefix: &str, out: &mut String) {
    let mut lines: Vec<(String, Option<&Explanation>, Vec<&WhatIfExplanation>)> = Vec::new();
    match e.source {
        "input" => {
            return;
        }
        "seen" => {
            lines.push(("(explained above)".to_string(), None, Vec::new()));
        }
        "elided" => {
            let note = format!("(derived by rules deeper than {MAX_EXPLAIN_DEPTH} levels: not shown)");
            lines.push((note, None, Vec::new()));
        }
        _ => {
            let mut head = e.rule.as_deref().unwrap_or("?").to_string();
            if let Some(t) = &e.title {
                let _ = write!(head, " \"{t}\"");
            }
            if let Some(b) = &e.because {
                let _ = write!(head, ": {b}");
            }
            lines.push((head, None, Vec::new()));
        }
    }
    for (text, _, _) in &lines {
        let _ = writeln!(out, "{prefix}└─ {text}");
    }
    let inner = format!("{prefix}   ");
    let mut items: Vec<Item> = Vec::new();
    for c in &e.checks {
        items.push(Item::Line(c.clone()));
    }
    for w in &e.whatifs {
        items.push(Item::WhatIf(w));
    }
    for g in &e.aggregated {
        items.push(Item::Group(g));
    }
    for p in &e.premises {
        items.push(Item::Node(p));
    }
    let n = items.len();
    for (i, item) in items.into_iter().enumerate() {
        let last = i + 1 == n;
        let (branch, cont) = if last { ("└─ ", "   ") } else { ("├─ ", "│  ") };
        match item {
            Item::Line(l) => {
                let _ = writeln!(out, "{inner}{branch}{l}");
            }
            Item::Node(p) => {
                let tag = match (p.source, &p.input) {
                    ("input", Some(name)) => format!("  (input {name})"),
                    _ => String::new(),
                };
                let _ = writeln!(out, "{inner}{branch}{}{tag}", p.fact);
                render_children(p, &format!("{inner}{cont}"), out);
            }
            Item::Group(g) => {
                let _ = writeln!(
                    out,
                    "{inner}{branch}{} × {}{}",
                    g.count,
                    g.example.fact,
                    if g.count > 1 { " and others like it" } else { "" }
                );
                render_children(&g.example, &format!("{inner}{cont}"), out);
            }
            Item::WhatIf(w) => {
                let _ = writeln!(out, "{inner}{branch}{}", w.query);
                let sub = format!("{inner}{cont}");
                let m = w.concluded.len();
                for (j, c) in w.concluded.iter().enumerate() {
                    let (b2, c2) = if j + 1 == m {
                        ("└─ ", "   ")
                    } else {
                        ("├─ ", "│  ")
                    };
                    let _ = writeln!(out, "{sub}{b2}{}", c.fact);
                    render_children(c, &format!("{sub}{c2}"), out);
                }
            }
        }
    }
}

enum Item<'a> {
    Line(String),
    Node(&'a Explanation),
    Group(&'a AggregateGroup),
    WhatIf(&'a WhatIfExplanation),
}
