//! Lowering: the checked rule set (`lang::ir`) into the program the engine runs. Each condition
//! gets the form the matcher evaluates it by (`fast`, `numprog`, or the tree itself), then
//! `compile` adds the match plans.

use super::fast::Fast;
use super::numprog::NumProg;
use super::program::{Cond, CondAt, Lowered, Program, RuleIr};
use crate::lang::ir;

/// The program of a checked rule set, with its match plans.
pub fn lower(rs: ir::RuleSet) -> Program {
    let mut memos = 0;
    let rules = rs
        .rules
        .into_iter()
        .map(|r| RuleIr {
            name: r.name,
            title: r.title,
            salience: r.salience,
            conds: mark_memos(lower_conds(r.conds), r.var_names.len(), &mut memos),
            actions: r.actions,
            because: r.because,
            var_names: r.var_names,
            span: r.span,
            handles: r.handles,
            group: r.group,
        })
        .collect::<Vec<_>>();
    let plans = super::compile::compile(&rules, rs.relations.len(), &rs.inputs, rs.strategy);
    Program {
        name: rs.name,
        description: rs.description,
        inputs: rs.inputs,
        outputs: rs.outputs,
        answers: {
            let mut per_relation = vec![None; rs.relations.len()];
            rs.answers.iter().for_each(|&(r, a)| per_relation[r as usize] = Some(a));
            per_relation
        },
        relations: rs.relations,
        params: rs.params,
        rules,
        strategy: rs.strategy,
        groups: rs.groups,
        matching: plans,
        sources: rs.sources,
        warnings: rs.warnings,
        memos,
    }
}

/// Gives each aggregate among a rule's conditions that shares no variable with the others a
/// memo slot (`Lowered::Memo`), numbered from `next` on.
fn mark_memos(mut conds: Vec<CondAt>, nvars: usize, next: &mut u32) -> Vec<CondAt> {
    // Slots past 64 have no bit in a mask: such a rule's aggregates are computed every time.
    if nvars > 64 {
        return conds;
    }
    let uses: Vec<u64> = conds.iter().map(|c| super::compile::cond_uses(&c.cond)).collect();
    for (i, at) in conds.iter_mut().enumerate() {
        let Cond::Aggregate { slot, .. } = &at.cond else {
            continue;
        };
        let own = uses[i] & !(1u64 << slot);
        let others = uses
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .fold(0, |m, (_, u)| m | u);
        if own & others == 0 && matches!(at.low, Lowered::Tree) {
            at.low = Lowered::Memo(*next);
            *next += 1;
        }
    }
    conds
}

fn lower_conds(conds: Vec<ir::CondAt>) -> Vec<CondAt> {
    conds.into_iter().map(lower_cond).collect()
}

/// A condition with its bodies lowered first, then its own form: the fast form where one applies
/// (quickest), else the arithmetic program, else the tree.
fn lower_cond(at: ir::CondAt) -> CondAt {
    let cond = match at.cond {
        ir::Cond::Pattern { rel, args } => Cond::Pattern { rel, args },
        ir::Cond::Test(e) => Cond::Test(e),
        ir::Cond::Bind { slot, expr } => Cond::Bind { slot, expr },
        ir::Cond::In { slot, list } => Cond::In { slot, list },
        ir::Cond::CallOut {
            builtin,
            inputs,
            outputs,
        } => Cond::CallOut {
            builtin,
            inputs,
            outputs,
        },
        ir::Cond::Not { body } => Cond::Not {
            body: lower_conds(body),
        },
        ir::Cond::Aggregate { op, slot, value, body } => Cond::Aggregate {
            op,
            slot,
            value,
            body: lower_conds(body),
        },
        ir::Cond::WhatIf {
            target,
            inputs,
            rel_name,
            args,
            site,
        } => Cond::WhatIf {
            target,
            inputs,
            rel_name,
            args,
            site,
        },
    };
    let low = Fast::of(&cond)
        .map(Lowered::Fast)
        .or_else(|| NumProg::of(&cond).map(Lowered::Num))
        .unwrap_or_default();
    CondAt {
        cond,
        span: at.span,
        low,
    }
}
