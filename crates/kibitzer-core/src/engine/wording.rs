//! How the engine words what it saw: values, expressions with their values filled in, and why a
//! condition failed. Shared by the run's trace (written as the run goes) and the explanations.

use super::memory::Memory;
use super::program::*;
use crate::lang::ast::{BinaryOp, UnaryOp};
use crate::lang::template::{card_symbols, cards_in_text};
use crate::value::{Value, MAX_TEXT_LEN};
use serde::Serialize;
use std::fmt::Write as _;

/// A run's parameter values with their declarations: an explanation prints a list-valued
/// parameter or constant by its name (`hard_value[3]`), a scalar by its value.
#[derive(Clone, Copy)]
pub(crate) struct Ps<'a> {
    pub(crate) values: &'a [Value],
    pub(crate) decls: &'a [ParamDecl],
}

impl<'a> Ps<'a> {
    pub(crate) fn of(prog: &'a Program, values: &'a [Value]) -> Ps<'a> {
        Ps {
            values,
            decls: &prog.params,
        }
    }

    /// Parameter `i`'s name.
    pub(crate) fn name(&self, i: u16) -> &'a str {
        self.decls.get(i as usize).map_or("?", |d| d.name.as_str())
    }
}

/// Limits that keep explanations readable and finite.
#[derive(Debug, Clone, Copy)]
pub struct ExplainLimits {
    /// How deep what-if sub-queries are expanded.
    pub whatif_depth: usize,
    /// Longest list shown in full (longer ones are abbreviated).
    pub list_items: usize,
}

impl Default for ExplainLimits {
    /// What explanations show: every list whole.
    fn default() -> Self {
        ExplainLimits {
            whatif_depth: 1,
            list_items: usize::MAX,
        }
    }
}

/// The short form of a fact kept for conclusion lines (`fact_line`) and the trace.
pub(crate) const LINE_LIMITS: ExplainLimits = ExplainLimits {
    whatif_depth: 0,
    list_items: 8,
};

/// An expression with variables replaced by their values.
pub(crate) fn render(e: &Expr, vars: &[Value], params: Ps<'_>, limits: ExplainLimits) -> String {
    render_with(e, &|s| show(&vars[s as usize], limits), params, limits)
}

/// An expression with each variable shown as `var` says.
pub(crate) fn render_with(e: &Expr, var: &dyn Fn(u16) -> String, params: Ps<'_>, limits: ExplainLimits) -> String {
    let render = |x: &Expr| render_with(x, var, params, limits);
    match e {
        Expr::Const(v) => v.to_string(),
        Expr::Var(s) => var(*s),
        Expr::Param(i) => match params.values.get(*i as usize) {
            Some(v @ Value::List(_)) | Some(v @ Value::Cards(_)) => {
                let _ = v;
                params.name(*i).to_string()
            }
            Some(v) => show(v, limits),
            None => params.name(*i).to_string(),
        },
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
        Expr::If(c, a, b) => format!("(if {} then {} else {})", render(c), render(a), render(b)),
    }
}

pub(crate) fn render_pat(a: &PatArg, vars: &[Value], params: Ps<'_>, limits: ExplainLimits) -> String {
    match a {
        PatArg::Var(s) => show(&vars[*s as usize], limits),
        PatArg::Expr(e) => render(e, vars, params, limits),
        PatArg::Wild => "_".to_string(),
    }
}

/// A value for people as explanations show it: strings quoted, cards written as text shown with
/// suit symbols, lists longer than `limits.list_items` abbreviated.
pub fn show(v: &Value, limits: ExplainLimits) -> String {
    match v {
        Value::Str(s) => card_symbols(s).unwrap_or_else(|| format!("{:?}", cards_in_text(s))),
        Value::List(items) => show_list(items, limits, show),
        other => other.pretty(),
    }
}

/// A value as case files write it: strings quoted as they are, long lists abbreviated.
pub(crate) fn show_line(v: &Value, limits: ExplainLimits) -> String {
    match v {
        Value::Str(s) => format!("{s:?}"),
        Value::List(items) => show_list(items, limits, show_line),
        other => other.pretty(),
    }
}

fn show_list(items: &[Value], limits: ExplainLimits, each: fn(&Value, ExplainLimits) -> String) -> String {
    let shown = match items.len() > limits.list_items {
        true => &items[..limits.list_items.min(4)],
        false => items,
    };
    if crate::value::texts_longer_than(shown, MAX_TEXT_LEN) {
        return crate::value::too_long_note(items.len());
    }
    if items.len() > limits.list_items {
        let head: Vec<String> = items
            .iter()
            .take(limits.list_items.min(4))
            .map(|x| each(x, limits))
            .collect();
        return format!("[{}, … {} items]", head.join(", "), items.len());
    }
    let all: Vec<String> = items.iter().map(|x| each(x, limits)).collect();
    format!("[{}]", all.join(", "))
}

/// A `because` text filled with a firing's values, its expression holes computed (one that fails
/// shows `?`).
pub(crate) fn because_text(t: &crate::lang::template::Template, vars: &[Value], params: &[Value]) -> String {
    t.render(vars, params, &|e| super::eval::eval(e, vars, params, &mut 0).ok())
}

/// The condition that decided against the rule.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FailedCondition {
    /// 1-based, in the order written.
    pub index: usize,
    /// The condition as written.
    pub condition: String,
    /// Where: `file:line:col`.
    pub location: String,
    /// Why it failed, with the values it compared (`gap 1885 ≥ limit 1200`).
    pub reason: String,
}

/// The trace's line for an activation that lost when selected: the check that failed, with its
/// numbers (the same a why-not gives).
pub(crate) fn drop_reason(
    prog: &Program,
    mem: &Memory,
    rule: u32,
    cond: Option<u16>,
    (vars, mask): (&[Value], u64),
    params: &[Value],
) -> String {
    let rule = &prog.rules[rule as usize];
    match cond {
        Some(c) => {
            let f = failed_condition(prog, mem, rule, c as usize, (vars, mask), params);
            format!("condition {} `{}` failed: {}", f.index, f.condition, f.reason)
        }
        None => "its conditions no longer hold".to_string(),
    }
}

/// Condition `ci` of `rule` and why it failed with these bindings.
pub(crate) fn failed_condition(
    prog: &Program,
    mem: &Memory,
    rule: &RuleIr,
    ci: usize,
    (vars, mask): (&[Value], u64),
    params: &[Value],
) -> FailedCondition {
    let at = &rule.conds[ci];
    let l = prog.sources.locate(at.span);
    FailedCondition {
        index: ci + 1,
        condition: one_line(prog.sources.text(at.span)),
        location: format!("{}:{}:{}", l.file, l.line, l.col),
        reason: deciding(prog, mem, rule, &at.cond, (vars, mask), params),
    }
}

pub(crate) fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Why a condition failed, in its own terms: a comparison with both sides' values and the
/// opposite operator (`gap 1885 ≥ limit 1200`), then where its computed values came from.
fn deciding(
    prog: &Program,
    mem: &Memory,
    rule: &RuleIr,
    cond: &Cond,
    (vars, mask): (&[Value], u64),
    params: &[Value],
) -> String {
    let bound = |s: u16| s < 64 && mask & (1u64 << s) != 0 && (s as usize) < vars.len();
    match cond {
        Cond::Test(Expr::Binary(op, a, b)) if negated(*op).is_some() => {
            let side = |e: &Expr| -> String {
                match e {
                    Expr::Var(s) if bound(*s) => {
                        format!(
                            "{} {}",
                            rule.var_names[*s as usize].trim_start_matches('?'),
                            show(&vars[*s as usize], ExplainLimits::default())
                        )
                    }
                    Expr::Param(i) => format!(
                        "{} {}",
                        prog.params.get(*i as usize).map_or("?", |p| p.name.as_str()),
                        params
                            .get(*i as usize)
                            .map_or_else(String::new, |v| show(v, ExplainLimits::default()))
                    ),
                    Expr::Const(v) => show(v, ExplainLimits::default()),
                    other => {
                        let mut calls = 0;
                        let text = render(other, vars, Ps::of(prog, params), ExplainLimits::default());
                        match super::eval::eval(other, vars, params, &mut calls) {
                            Ok(v) => format!("{text} = {}", show(&v, ExplainLimits::default())),
                            Err(_) => text,
                        }
                    }
                }
            };
            let mut s = format!("{} {} {}", side(a), negated(*op).unwrap_or("!"), side(b));
            let origins = origins(prog, rule, &[a, b], vars, mask, params);
            if !origins.is_empty() {
                let _ = write!(s, " (where {})", origins.join("; "));
            }
            s
        }
        // A parameter or constant tested on its own: its name and value, not `false is false`.
        Cond::Test(Expr::Param(i)) => {
            let what = match prog.params.get(*i as usize).is_some_and(|p| p.constant) {
                true => "the constant",
                false => "the parameter",
            };
            let value = params
                .get(*i as usize)
                .map_or_else(String::new, |v| show(v, ExplainLimits::default()));
            format!("{what} {} is {value}", Ps::of(prog, params).name(*i))
        }
        Cond::Test(Expr::Var(s)) if bound(*s) => format!(
            "{} is {}",
            rule.var_names[*s as usize].trim_start_matches('?'),
            show(&vars[*s as usize], ExplainLimits::default())
        ),
        Cond::Test(e) => format!(
            "{} is false",
            render(e, vars, Ps::of(prog, params), ExplainLimits::default())
        ),
        Cond::Pattern { rel, .. } if mem.of_relation(*rel).iter().all(|f| !mem.is_alive(*f)) => {
            format!("there is no `{}` fact at all", prog.relations[*rel as usize].name)
        }
        Cond::Pattern { .. } => "no fact matches it with these bindings".to_string(),
        Cond::Not { .. } => "a matching fact exists".to_string(),
        Cond::Aggregate { .. } => "no fact to aggregate with these bindings".to_string(),
        _ => "it has no solution with these bindings".to_string(),
    }
}

/// For the variables a comparison reads that the rule computed (`?gap = ?tv - ?score`): how,
/// with the values (`gap = tv - score = (1846 - -39)`).
fn origins(prog: &Program, rule: &RuleIr, sides: &[&Expr], vars: &[Value], mask: u64, params: &[Value]) -> Vec<String> {
    let mut out = Vec::new();
    for side in sides {
        let Expr::Var(s) = side else { continue };
        if *s >= 64 || mask & (1u64 << s) == 0 {
            continue;
        }
        for at in &rule.conds {
            if let Cond::Bind { slot, expr } = &at.cond {
                if slot == s && !matches!(expr, Expr::Const(_) | Expr::Var(_)) {
                    let written = one_line(prog.sources.text(at.span)).replace('?', "");
                    out.push(format!(
                        "{written} = {}",
                        render(expr, vars, Ps::of(prog, params), ExplainLimits::default())
                    ));
                }
            }
        }
    }
    out
}

/// The comparison that holds when `op` fails.
fn negated(op: BinaryOp) -> Option<&'static str> {
    Some(match op {
        BinaryOp::Lt => "≥",
        BinaryOp::Le => ">",
        BinaryOp::Gt => "≤",
        BinaryOp::Ge => "<",
        BinaryOp::Eq => "≠",
        BinaryOp::Ne => "=",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_comparison_reads_as_its_opposite() {
        assert_eq!(negated(BinaryOp::Lt), Some("≥"));
        assert_eq!(negated(BinaryOp::Ne), Some("="));
        assert_eq!(negated(BinaryOp::And), None);
    }
}
