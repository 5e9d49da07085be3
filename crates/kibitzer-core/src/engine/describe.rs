//! What a loaded rule set declares, for the people and programs using it: its inputs, outputs,
//! parameters and rules as `kibitzer rules NAME` lists them, and its checker warnings located in
//! the rule files.

use super::program::Program;
use crate::cards::NotationError;
use crate::lang::diagnostics::Diagnostic;
use crate::lang::ir::{Cond, PatArg, Slot};
use crate::lang::source::SourceMap;
use crate::value::Value;

/// A declared input.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct InputInfo<'a> {
    /// The input's name (`hand`).
    pub name: &'a str,
    /// Its type as written, with its arguments (`cards(5)`, `int`).
    pub type_text: String,
    /// Its default, when the input is optional.
    pub default: Option<&'a Value>,
    /// The values a query may give, when the rule file says, as a refusal words it
    /// (`within 1..4`, `one of fast, slow`).
    pub domain: Option<String>,
    /// Its description, when the rule file gives one.
    pub doc: Option<&'a str>,
}

/// A parameter or constant.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ParamInfo<'a> {
    /// Its name.
    pub name: &'a str,
    /// True for a constant, which `--param` cannot override.
    pub constant: bool,
    /// The value the rule file gives it.
    pub value: &'a Value,
    /// Its description, when the rule file gives one.
    pub doc: Option<&'a str>,
}

/// A rule.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RuleInfo<'a> {
    /// Its name.
    pub name: &'a str,
    /// Its salience (higher fires first).
    pub salience: i32,
    /// Its title, when it has one.
    pub title: Option<&'a str>,
    /// Its variables' names by slot, as a firing's bindings are numbered.
    pub vars: &'a [String],
    /// The first-match group it is in (`in NAME`).
    pub group: Option<&'a str>,
}

impl Program {
    /// The source text of a rule's conditions, in the order written (none for a rule it lacks).
    pub fn condition_texts(&self, rule: usize) -> Vec<&str> {
        self.rules
            .get(rule)
            .map(|r| r.conds.iter().map(|c| self.sources.text(c.span).trim_end()).collect())
            .unwrap_or_default()
    }

    /// Per condition of a rule (in the order written): whether it can reject a match that reached it.
    /// Tests, negations, what a multi-solution built-in may not solve, and comparisons can; so can a
    /// pattern with a constant, a repeated variable or a variable already bound (a join). A pattern of
    /// fresh variables only fails when its relation is empty and a binding (`?n = len(?l)`, an
    /// aggregate into a fresh variable) always holds: reporting those would bury the ones that matter.
    pub fn could_decide(&self, rule: usize) -> Vec<bool> {
        let Some(rule) = self.rules.get(rule) else {
            return Vec::new();
        };
        let mut bound = std::collections::HashSet::new();
        let mut out = Vec::with_capacity(rule.conds.len());
        for c in &rule.conds {
            let filters = |args: &[PatArg], bound: &mut std::collections::HashSet<Slot>| {
                let mut seen = std::collections::HashSet::new();
                let mut decides = false;
                for a in args {
                    match a {
                        PatArg::Expr(_) => decides = true,
                        PatArg::Var(s) => decides |= bound.contains(s) || !seen.insert(*s),
                        PatArg::Wild => {}
                    }
                }
                bound.extend(seen);
                decides
            };
            out.push(match &c.cond {
                Cond::Pattern { args, .. } | Cond::WhatIf { args, .. } => filters(args, &mut bound),
                Cond::Test(_) | Cond::Not { .. } | Cond::CallOut { .. } => {
                    if let Cond::CallOut { outputs, .. } = &c.cond {
                        filters(outputs, &mut bound);
                    }
                    true
                }
                Cond::Bind { slot, .. } | Cond::In { slot, .. } | Cond::Aggregate { slot, .. } => !bound.insert(*slot),
            });
        }
        out
    }

    /// The rule set's name, as its `ruleset` line declares it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its one-line description.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// Its inputs, in the order declared (the order a run inserts them).
    pub fn inputs(&self) -> Vec<InputInfo<'_>> {
        self.inputs
            .iter()
            .map(|i| {
                let args: Vec<String> = i
                    .type_args
                    .positional
                    .iter()
                    .map(|(a, b)| if a == b { a.to_string() } else { format!("{a}..{b}") })
                    .chain(i.type_args.named.iter().map(|(k, (a, b))| match a == b {
                        true => format!("{k}: {a}"),
                        false => format!("{k}: {a}..{b}"),
                    }))
                    .collect();
                let type_text = match args.is_empty() {
                    true => i.type_name.clone(),
                    false => format!("{}({})", i.type_name, args.join(", ")),
                };
                InputInfo {
                    name: &i.name,
                    type_text,
                    default: i.default.as_ref().map(|d| d.value()),
                    domain: i.domain.as_ref().map(|d| d.expected()),
                    doc: i.doc.as_deref(),
                }
            })
            .collect()
    }

    /// Reads a value of input `name` from text per its type, as `Session::set_input_text` does
    /// before it checks the input's domain.
    /// `None` when there is no such input.
    pub fn parse_input(&self, name: &str, text: &str) -> Option<Result<Value, NotationError>> {
        let d = self.inputs.iter().find(|d| d.name == name)?;
        Some((d.parse)(text, &d.type_args, name))
    }

    /// The names of its inputs, in the order declared.
    pub fn input_names(&self) -> impl Iterator<Item = &str> {
        self.inputs.iter().map(|d| d.name.as_str())
    }

    /// Its output relations with their arities, in the order declared.
    pub fn outputs(&self) -> Vec<(&str, usize)> {
        self.outputs
            .iter()
            .filter_map(|o| self.relations.get(*o as usize))
            .map(|r| (r.name.as_str(), r.arity))
            .collect()
    }

    /// Its parameters and constants, in the order declared.
    pub fn params(&self) -> Vec<ParamInfo<'_>> {
        self.params
            .iter()
            .map(|p| ParamInfo {
                name: &p.name,
                constant: p.constant,
                value: p.value.value(),
                doc: p.doc.as_deref(),
            })
            .collect()
    }

    /// The conflict-resolution strategy it declares (`file_order`, `depth` or `breadth`).
    pub fn strategy(&self) -> &'static str {
        self.strategy.name()
    }

    /// Its rules, in the order written.
    pub fn rules(&self) -> Vec<RuleInfo<'_>> {
        self.rules
            .iter()
            .map(|r| RuleInfo {
                name: &r.name,
                salience: r.salience,
                title: r.title.as_deref(),
                vars: &r.var_names,
                group: r
                    .group
                    .and_then(|g| self.groups.get(g as usize))
                    .map(|g| g.name.as_str()),
            })
            .collect()
    }

    /// The names of its rules in the order written; a rule's position is its index for
    /// [`Session::fired_count`](crate::engine::session::Session::fired_count).
    pub fn rule_names(&self) -> impl Iterator<Item = &str> {
        self.rules.iter().map(|r| r.name.as_str())
    }

    /// Warnings the checker found in the rule files.
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
    }

    /// The text of its rule files, which its diagnostics point into
    /// ([`Diagnostic::render`](crate::lang::diagnostics::Diagnostic::render)).
    pub fn sources(&self) -> &SourceMap {
        &self.sources
    }
}
