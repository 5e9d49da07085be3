//! Match plans: which conditions join when a fact arrives and which wait for selection, and the
//! join order for every positive pattern, so that asserting a fact only touches the rules whose
//! patterns can match it (incremental matching, no re-scan of every rule).
//!
//! Each tuple of facts is joined exactly once: when its newest fact `f` arrives, seeded at the
//! first pattern `f` matches. Patterns written before the seed therefore skip `f` itself
//! (they see only older facts); patterns after it may match `f` again.

use super::program::*;

/// Adds plans, triggers and the list of initial rules to a checked program.
pub fn compile(mut p: Program) -> Program {
    p.triggers = vec![Vec::new(); p.relations.len()];
    p.plans = Vec::with_capacity(p.rules.len());
    p.initial.clear();
    for (ri, rule) in p.rules.iter().enumerate() {
        let plan = plan_rule(rule);
        for (si, seed) in plan.seeds.iter().enumerate() {
            if let Cond::Pattern { rel, .. } = &rule.conds[seed.cond as usize].cond {
                p.triggers[*rel as usize].push((ri as u32, si as u16));
            }
        }
        if plan.seeds.is_empty() {
            p.initial.push(ri as u32);
        }
        p.plans.push(plan);
    }
    p
}

fn plan_rule(rule: &RuleIr) -> RulePlan {
    // Slots whose values exist only at selection time: aggregate results and what depends on them.
    let mut late: u64 = 0;
    let mut select = Vec::new();
    let mut join = Vec::new();
    for (i, c) in rule.conds.iter().enumerate() {
        let uses = cond_uses(&c.cond);
        let is_late = matches!(c.cond, Cond::Not { .. } | Cond::Aggregate { .. }) || uses & late != 0;
        if is_late {
            late |= cond_binds(&c.cond);
            select.push(i as u16);
        } else {
            join.push(i as u16);
        }
    }
    let mut seeds = Vec::new();
    for &j in &join {
        if matches!(rule.conds[j as usize].cond, Cond::Pattern { .. }) {
            let rest = join
                .iter()
                .filter(|&&k| k != j)
                .map(|&k| {
                    let skip_new = k < j && matches!(rule.conds[k as usize].cond, Cond::Pattern { .. });
                    (k, skip_new)
                })
                .collect();
            seeds.push(Seed { cond: j, rest });
        }
    }
    RulePlan { join, select, seeds }
}

fn bit(s: Slot) -> u64 {
    1u64.checked_shl(s as u32).unwrap_or(0)
}

/// Slots a condition reads or binds.
fn cond_uses(c: &Cond) -> u64 {
    let mut m = 0;
    match c {
        Cond::Pattern { args, .. } => args.iter().for_each(|a| m |= pat_slots(a)),
        Cond::Test(e) => m |= expr_slots(e),
        Cond::Bind { slot, expr } => m |= bit(*slot) | expr_slots(expr),
        Cond::In { slot, list } => m |= bit(*slot) | expr_slots(list),
        Cond::CallOut { inputs, outputs, .. } => {
            inputs.iter().for_each(|e| m |= expr_slots(e));
            outputs.iter().for_each(|a| m |= pat_slots(a));
        }
        Cond::Not { body } => body.iter().for_each(|c| m |= cond_uses(&c.cond)),
        Cond::Aggregate { slot, value, body, .. } => {
            m |= bit(*slot);
            if let Some(v) = value {
                m |= expr_slots(v);
            }
            body.iter().for_each(|c| m |= cond_uses(&c.cond));
        }
        Cond::WhatIf { inputs, args, .. } => {
            inputs.iter().for_each(|(_, e)| m |= expr_slots(e));
            args.iter().for_each(|a| m |= pat_slots(a));
        }
    }
    m
}

/// Slots a condition may bind for the conditions after it.
fn cond_binds(c: &Cond) -> u64 {
    match c {
        Cond::Not { .. } => 0,
        Cond::Aggregate { slot, .. } => bit(*slot),
        other => cond_uses(other),
    }
}

fn pat_slots(a: &PatArg) -> u64 {
    match a {
        PatArg::Var(s) => bit(*s),
        PatArg::Expr(e) => expr_slots(e),
        PatArg::Wild => 0,
    }
}

/// Slots an expression reads.
pub fn expr_slots(e: &Expr) -> u64 {
    match e {
        Expr::Const(_) | Expr::Param(_) => 0,
        Expr::Var(s) => bit(*s),
        Expr::List(items) => items.iter().fold(0, |m, i| m | expr_slots(i)),
        Expr::Call { args, .. } => args.iter().fold(0, |m, i| m | expr_slots(i)),
        Expr::Unary(_, x) => expr_slots(x),
        Expr::Binary(_, a, b) | Expr::Index(a, b) => expr_slots(a) | expr_slots(b),
    }
}
