//! Explanations: *how* a fact was concluded (a derivation tree with filled-in `because` texts
//! and every built-in call with its arguments and result, each subtree once and referred to
//! after), the player's view of the answers, *why not* for a rule or a move, and the *trace* of
//! firings — each as a serialisable structure and as text.

mod player;
mod render;
mod verdict;
mod whynot;

pub use super::wording::{show, ExplainLimits, FailedCondition};
pub use player::{answer_texts, display, render_answer, render_answers, Answer, Choice, OPTION_RELATION};
pub use render::{render_derivation, render_full, render_tree};
pub use verdict::MoveVerdict;
pub use whynot::{WhyNot, WhyNotError};

use super::matcher::AggMemo;
use super::memory::{FactId, Origin};
use super::program::*;
use super::session::{Session, WhatIfRunner};
use super::wording::{because_text, render, render_pat, render_with, show_line, Ps, LINE_LIMITS};
use crate::lang::ast::{AggregateOp, BinaryOp};
use crate::value::Value;
use serde::Serialize;
use std::collections::HashMap;
use std::fmt::Write as _;

/// How a fact came to be.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Explanation {
    /// The fact, as `relation(arg, ...)`.
    pub fact: String,
    /// `"input"`, `"rule"`, `"ref"` (explained before: see the node whose `id` is `ref`), or
    /// `"elided"` (derived by a rule, deeper than 48 levels below the
    /// conclusion: not shown).
    pub source: &'static str,
    /// A rule node's number, unique within one answer; a later `"ref"` node names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    /// For a `"ref"` node: the `id` of the node that explains it.
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub ref_id: Option<u32>,
    /// For an input: the input's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    /// For a rule node: the rule's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The rule's title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The rule's `because` text, filled in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub because: Option<String>,
    /// For a fact a rule's `modify` made: the fact it replaced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modified: Option<String>,
    /// Asserted with `assert logical`: it lasts while the rule's match holds.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub logical: bool,
    /// For a rule of a first-match group: the group, which chose this firing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// The group's other rules that would have applied, and lost to this firing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub passed_over: Vec<String>,
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
    /// How many facts.
    pub count: usize,
    /// One of them, explained.
    pub example: Explanation,
}

/// One what-if sub-query in an explanation.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct WhatIfExplanation {
    /// The sub-query: the rule set and its inputs.
    pub query: String,
    /// Its number; a later identical sub-query refers to it with `ref` and concludes nothing here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    /// For a repeated sub-query: the `id` of the first.
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub ref_id: Option<u32>,
    /// What it concluded, explained.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub concluded: Vec<Explanation>,
}

/// The deepest derivation an explanation shows: a chain of firings longer than this (a rule that
/// counts to five thousand one step at a time) is cut there with a note, so that building,
/// printing and serialising the tree never recurse deeper than this.
pub const MAX_EXPLAIN_DEPTH: usize = 48;

/// What has been explained so far in one answer: facts and what-if sub-queries with their node
/// numbers, so each is explained once and referred to after.
#[derive(Default)]
struct Explained {
    /// By firing: the facts one firing concluded share its explanation.
    firings: HashMap<u32, u32>,
    whatifs: HashMap<String, u32>,
    next_id: u32,
}

impl Explained {
    fn number(&mut self) -> u32 {
        self.next_id += 1;
        self.next_id
    }
}

/// The explanations of a finished run, read from the session that ran it: how a conclusion was
/// reached ([`Explainer::explain`]), the answers as a player reads them ([`Explainer::answers`]),
/// why a rule or a move did not fire ([`Explainer::why_not_query`]), the trace. It borrows the
/// session and changes nothing in it: the what-ifs an explanation runs again and the probes of a
/// why-not run on sub-sessions of its own.
pub struct Explainer<'s> {
    session: &'s Session,
    whatif: WhatIfRunner,
    memo: AggMemo,
}

impl<'s> Explainer<'s> {
    /// The explanations of `session`'s last run.
    pub fn new(session: &'s Session) -> Explainer<'s> {
        Explainer {
            session,
            whatif: session.whatif.detached(),
            memo: AggMemo::default(),
        }
    }

    /// The session explained.
    pub fn session(&self) -> &'s Session {
        self.session
    }
}

impl Explainer<'_> {
    /// Explains a fact of the last run.
    pub fn explain(&mut self, fact: FactId, limits: ExplainLimits) -> Explanation {
        self.explain_all(&[fact], limits)
            .pop()
            .unwrap_or_else(|| Explanation::stub(String::new(), "input"))
    }

    /// Explains several facts of the last run as one answer: a subtree explained under one
    /// is a reference (`"ref"`) under the others.
    pub fn explain_all(&mut self, facts: &[FactId], limits: ExplainLimits) -> Vec<Explanation> {
        let mut done = Explained::default();
        facts
            .iter()
            .map(|&f| self.explain_inner(f, limits, &mut done, 0))
            .collect()
    }

    /// Everything the last run left to be seen, as text: its trace (when kept), every firing's
    /// rule, bindings and matched facts, every live fact, and each conclusion explained (what-ifs
    /// one level deep). Two runs that leave the same transcript decided alike in every respect a
    /// user can see: what generated joins are checked against the matcher with.
    pub fn transcript(&mut self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "trace: {:?}", self.session.trace());
        for i in 0.. {
            let Some(f) = self.session.firing(i).cloned() else {
                break;
            };
            let (vars, mask) = self.session.firing_bindings(&f);
            let vars: Vec<String> = vars.iter().map(|v| v.to_string()).collect();
            let _ = writeln!(
                out,
                "firing {i}: rule {} mask {mask:#x} vars {vars:?} facts {:?}",
                f.rule,
                self.session.firing_facts(&f)
            );
        }
        let program = self.session.program().clone();
        for rel in &program.relations {
            for args in self.session.facts_of(&rel.name) {
                let args: Vec<String> = args.iter().map(|v| v.to_string()).collect();
                let _ = writeln!(out, "{}({})", rel.name, args.join(", "));
            }
        }
        let facts: Vec<FactId> = self.session.conclusions().iter().map(|c| c.fact).collect();
        let explained = self.explain_all(&facts, ExplainLimits::default());
        out.push_str(&render_full(&explained));
        out
    }

    /// A fact as a rule file would write it, long lists abbreviated: what case files expect.
    pub fn fact_line(&self, fact: FactId) -> String {
        let f = self.session.mem.fact(fact);
        let name = &self.session.program().relations[f.rel as usize].name;
        let args: Vec<String> = self
            .session
            .mem
            .args_of(fact)
            .iter()
            .map(|v| show_line(v, LINE_LIMITS))
            .collect();
        format!("{name}({})", args.join(", "))
    }

    fn fact_text(&self, fact: FactId, limits: ExplainLimits) -> String {
        let f = self.session.mem.fact(fact);
        let name = &self.session.program().relations[f.rel as usize].name;
        let args: Vec<String> = self.session.mem.args_of(fact).iter().map(|v| show(v, limits)).collect();
        format!("{name}({})", args.join(", "))
    }

    fn explain_inner(
        &mut self,
        fact: FactId,
        limits: ExplainLimits,
        done: &mut Explained,
        depth: usize,
    ) -> Explanation {
        let prog = self.session.program().clone();
        let mut node = Explanation::stub(self.fact_text(fact, limits), "input");
        let fi = match self.session.mem.fact(fact).origin {
            Origin::Input(i) => {
                node.input = prog.inputs.get(i as usize).map(|d| d.name.clone());
                return node;
            }
            Origin::Firing(fi) => fi,
        };
        if let Some(&id) = done.firings.get(&fi) {
            node.source = "ref";
            node.ref_id = Some(id);
            node.rule = self
                .session
                .firing(fi)
                .map(|f| prog.rules[f.rule as usize].name.clone());
            return node;
        }
        if depth >= MAX_EXPLAIN_DEPTH {
            node.source = "elided";
            return node;
        }
        let Some(firing) = self.session.firing(fi).cloned() else {
            return node;
        };
        let id = done.number();
        done.firings.insert(fi, id);
        let rule = &prog.rules[firing.rule as usize];
        let (vars, mask) = self.session.firing_bindings(&firing);
        let vars = vars.into_owned();
        let facts = self.session.firing_facts(&firing).to_vec();
        node.source = "rule";
        node.id = Some(id);
        node.rule = Some(rule.name.clone());
        node.title = rule.title.clone();
        if let Some(g) = rule.group.and_then(|g| prog.groups.get(g as usize)) {
            node.group = Some(g.name.clone());
            for d in &self.session.drops {
                let name = &prog.rules[d.rule as usize].name;
                if d.group == Some((firing.rule, fi)) && !node.passed_over.contains(name) {
                    node.passed_over.push(name.clone());
                }
            }
        }
        node.because = rule
            .because
            .as_ref()
            .map(|t| because_text(t, &vars, self.session.params()));
        let rel = self.session.mem.fact(fact).rel;
        for a in &rule.actions {
            match a {
                Action::Modify { cond, rel: r, .. } if *r == rel && node.modified.is_none() => {
                    let old = facts.iter().find(|(c, _)| c == cond).map(|(_, f)| *f);
                    node.modified = old.map(|f| self.fact_text(f, limits));
                }
                Action::Assert {
                    rel: r, logical: true, ..
                } if *r == rel => node.logical = true,
                _ => {}
            }
        }
        let matched = |ci: usize| -> Vec<FactId> {
            facts
                .iter()
                .filter(|(c, _)| *c as usize == ci)
                .map(|(_, f)| *f)
                .collect()
        };
        // Built in the order the text shows them (checks, what-ifs, aggregates, premises), so
        // that a subtree is explained where it is first printed and referred to after.
        for at in &rule.conds {
            if let Cond::Aggregate { op, slot, value, .. } = &at.cond {
                let agg = AggregateAt {
                    op: *op,
                    slot: *slot,
                    value: value.as_ref(),
                    span: at.span,
                };
                node.checks.push(self.aggregate_line(agg, rule, (&vars, mask), limits));
            } else if let (Cond::WhatIf { .. }, 0) = (&at.cond, limits.whatif_depth) {
                // Not expanded: one line, in the order written.
                self.whatif_at(&mut node, at, &vars, limits, done);
            } else if let Some(line) = check_line(
                &at.cond,
                &vars,
                Ps::of(&prog, self.session.params()),
                rule,
                limits,
                &prog,
                at,
            ) {
                node.checks.push(line);
            }
        }
        if limits.whatif_depth > 0 {
            for at in &rule.conds {
                self.whatif_at(&mut node, at, &vars, limits, done);
            }
        }
        for (ci, at) in rule.conds.iter().enumerate() {
            if let Cond::Aggregate { .. } = &at.cond {
                self.explain_aggregate(&mut node, matched(ci), limits, done, depth);
            }
        }
        for (ci, at) in rule.conds.iter().enumerate() {
            if let Cond::Pattern { .. } = &at.cond {
                for f in matched(ci) {
                    let child = self.explain_inner(f, limits, done, depth + 1);
                    node.premises.push(child);
                }
            }
        }
        node
    }

    /// An aggregate's line: `?n = count { … } = 3`.
    fn aggregate_line(
        &self,
        at: AggregateAt<'_>,
        rule: &RuleIr,
        (vars, mask): (&[Value], u64),
        limits: ExplainLimits,
    ) -> String {
        let prog = self.session.program();
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
                format!(
                    "{} {}",
                    op.keyword(),
                    render_with(v, &var, Ps::of(prog, self.session.params()), limits)
                )
            }
            (op, None) => op.keyword().to_string(),
        };
        let src = prog.sources.text(span);
        let body = src.find('{').map_or(src, |i| &src[i..]);
        format!(
            "{} = {what} {} = {}",
            rule.var_names[slot as usize],
            body.split_whitespace().collect::<Vec<_>>().join(" "),
            show(&vars[slot as usize], limits)
        )
    }

    /// An aggregate's facts, grouped by their explanation, one example of each explained.
    fn explain_aggregate(
        &mut self,
        node: &mut Explanation,
        matched: Vec<FactId>,
        limits: ExplainLimits,
        done: &mut Explained,
        depth: usize,
    ) {
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
            let example = self.explain_inner(f, limits, done, depth + 1);
            node.aggregated.push(AggregateGroup { count, example });
        }
    }

    /// The what-if of condition `at`, if it is one (see `explain_whatif`).
    fn whatif_at(
        &mut self,
        node: &mut Explanation,
        at: &CondAt,
        vars: &[Value],
        limits: ExplainLimits,
        done: &mut Explained,
    ) {
        if let Cond::WhatIf {
            target,
            inputs,
            rel_name,
            args,
            ..
        } = &at.cond
        {
            let site = WhatIfSite {
                target,
                inputs,
                rel_name,
                args,
            };
            self.explain_whatif(node, site, vars, limits, done);
        }
    }

    /// A what-if's line (the query and what it concluded) and, within the depth asked, the
    /// sub-query's own explanations (once per distinct sub-query: later ones refer to it).
    fn explain_whatif(
        &mut self,
        node: &mut Explanation,
        site: WhatIfSite<'_>,
        vars: &[Value],
        limits: ExplainLimits,
        done: &mut Explained,
    ) {
        let prog = self.session.program().clone();
        let mut calls = 0;
        let values: Vec<(String, Value)> = site
            .inputs
            .iter()
            .filter_map(|(n, e)| {
                super::eval::eval(e, vars, self.session.params(), &mut calls)
                    .ok()
                    .map(|v| (n.clone(), v))
            })
            .collect();
        let tname = match site.target {
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
        let pattern: Vec<String> = site
            .args
            .iter()
            .map(|a| render_pat(a, vars, Ps::of(self.session.program(), self.session.params()), limits))
            .collect();
        let line = format!("{query} concluded {}({})", site.rel_name, pattern.join(", "));
        if limits.whatif_depth == 0 {
            node.checks.push(line);
            return;
        }
        let key = format!("{query} {}", site.rel_name);
        if let Some(&id) = done.whatifs.get(&key) {
            node.whatifs.push(WhatIfExplanation {
                query: line,
                id: None,
                ref_id: Some(id),
                concluded: Vec::new(),
            });
            return;
        }
        let params = self.session.params().to_vec();
        // Replayed under the deadline of the run it explains, not with a budget of its own.
        let deadline = crate::budget::with_deadline_at(self.session.deadline);
        let replayed = self.whatif.replay(site.target, &values, &prog, &params);
        drop(deadline);
        let Ok(sub) = replayed else {
            node.checks.push(line);
            return;
        };
        let id = done.number();
        done.whatifs.insert(key, id);
        let sub_limits = ExplainLimits {
            whatif_depth: limits.whatif_depth - 1,
            ..limits
        };
        // The sub-query's facts are its own: numbered on, but not confused with this run's.
        let outer = std::mem::take(&mut done.firings);
        let concluded: Vec<Explanation> = sub
            .conclusions()
            .into_iter()
            .filter(|c| c.relation == site.rel_name)
            .map(|c| Explainer::new(&sub).explain_inner(c.fact, sub_limits, done, 0))
            .collect();
        done.firings = outer;
        node.whatifs.push(WhatIfExplanation {
            query: line,
            id: Some(id),
            ref_id: None,
            concluded,
        });
    }

    /// What makes two aggregated facts "the same story": their rule and `because` text.
    fn group_key(&self, fact: FactId) -> String {
        match self.session.mem.fact(fact).origin {
            Origin::Input(i) => format!("input {i}"),
            Origin::Firing(fi) => match self.session.firing(fi) {
                Some(f) => {
                    let rule = &self.session.program().rules[f.rule as usize];
                    let vars = self.session.firing_vars(f);
                    format!(
                        "{} {}",
                        rule.name,
                        rule.because
                            .as_ref()
                            .map(|t| because_text(t, &vars, self.session.params()))
                            .unwrap_or_default()
                    )
                }
                None => String::new(),
            },
        }
    }
}

/// An aggregate condition, as the explanation reads it.
struct AggregateAt<'a> {
    op: AggregateOp,
    slot: u16,
    value: Option<&'a Expr>,
    span: crate::lang::source::Span,
}

/// A what-if condition, as the explanation reads it.
struct WhatIfSite<'a> {
    target: &'a WhatIfTarget,
    inputs: &'a [(String, Expr)],
    rel_name: &'a str,
    args: &'a [PatArg],
}

impl Explanation {
    fn stub(fact: String, source: &'static str) -> Explanation {
        Explanation {
            fact,
            source,
            id: None,
            ref_id: None,
            input: None,
            rule: None,
            title: None,
            because: None,
            modified: None,
            logical: false,
            group: None,
            passed_over: Vec::new(),
            checks: Vec::new(),
            premises: Vec::new(),
            aggregated: Vec::new(),
            whatifs: Vec::new(),
        }
    }
}

/// Whether a bound expression computes its value (then shown after it), rather than naming it.
fn computed(expr: &Expr) -> bool {
    match expr {
        Expr::Call { .. } | Expr::Binary(..) | Expr::Index(..) | Expr::If(..) => true,
        Expr::Unary(_, inner) => !matches!(**inner, Expr::Const(_)),
        Expr::Const(_) | Expr::Var(_) | Expr::Param(_) | Expr::List(_) => false,
    }
}

/// A one-line account of a non-pattern condition with the firing's bindings.
fn check_line(
    c: &Cond,
    vars: &[Value],
    params: Ps<'_>,
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
            if computed(expr) {
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

fn render_test(e: &Expr, vars: &[Value], params: Ps<'_>, limits: ExplainLimits) -> String {
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
fn render_side(e: &Expr, vars: &[Value], params: Ps<'_>, limits: ExplainLimits) -> String {
    let mut calls = 0;
    match e {
        Expr::Call { .. } | Expr::Binary(..) | Expr::Index(..) | Expr::If(..) => {
            match super::eval::eval(e, vars, params.values, &mut calls) {
                Ok(v) => format!("{} = {}", render(e, vars, params, limits), show(&v, limits)),
                Err(_) => render(e, vars, params, limits),
            }
        }
        _ => render(e, vars, params, limits),
    }
}
