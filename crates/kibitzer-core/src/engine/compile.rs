//! Match plans: which conditions join when a fact arrives and which wait for selection, and the
//! join order for every positive pattern, so that asserting a fact only touches the rules whose
//! patterns can match it (incremental matching, no re-scan of every rule).
//!
//! Each tuple of facts is joined exactly once: when its newest fact `f` arrives, seeded at the
//! first pattern `f` matches. Patterns written before the seed therefore skip `f` itself
//! (they see only older facts); patterns after it may match `f` again.

use super::program::*;
use crate::lang::ir::{InputDecl, Strategy};
use crate::value::Value;

/// The plans, triggers and initial rules of lowered `rules` over `nrel` relations, the inputs
/// `inputs` and conflict strategy `strategy`.
pub(super) fn compile(rules: &[RuleIr], nrel: usize, inputs: &[InputDecl], strategy: Strategy) -> Plans {
    let mut p = Plans {
        triggers: vec![Vec::new(); nrel],
        shared_tests: vec![Vec::new(); nrel],
        shared_calls: vec![Vec::new(); nrel],
        plans: Vec::with_capacity(rules.len()),
        initial: Vec::new(),
        input_triggers: Vec::new(),
        gates: Vec::new(),
        trigger_index: Vec::new(),
        probed: Vec::new(),
    };
    // Per relation: one more than the index of the input that holds it (0 for a derived one).
    let mut input_rank = vec![0u16; nrel];
    for (i, d) in inputs.iter().enumerate() {
        input_rank[d.rel as usize] = i as u16 + 1;
    }
    // Per relation: whether some action retracts its facts, and whether some action asserts
    // them (only then can a negation or aggregate on it change its verdict after a selection,
    // see `RulePlan::wake_on_retract`).
    let mut retracted = vec![false; nrel];
    let mut asserted = vec![false; nrel];
    for rule in rules {
        for a in &rule.actions {
            let rel = match a {
                Action::Retract { rel, .. } => Some(*rel),
                Action::Modify { rel, .. } => {
                    asserted[*rel as usize] = true;
                    Some(*rel)
                }
                Action::RetractFact { cond } => match rule.conds.get(*cond as usize).map(|c| &c.cond) {
                    Some(Cond::Pattern { rel, .. }) => Some(*rel),
                    _ => None,
                },
                // A logical fact is retracted when its support goes.
                Action::Assert { rel, logical, .. } => {
                    asserted[*rel as usize] = true;
                    logical.then_some(*rel)
                }
                Action::Halt => None,
            };
            if let Some(r) = rel {
                retracted[r as usize] = true;
            }
        }
    }
    // Per rule: how many inputs must be in before it can match (see `Program::input_triggers`).
    let mut waits_for = Vec::with_capacity(rules.len());
    // The gates so far by their text, so that a rule set of many phases interns each in O(1).
    let mut gate_ids: rustc_hash::FxHashMap<String, u32> = Default::default();
    for (ri, rule) in rules.iter().enumerate() {
        let plan = plan_rule(rule, &retracted, &asserted);
        // A derived relation (rank 0) has no fact until a rule fires: never, while the inputs go in.
        let after = plan
            .seeds
            .iter()
            .filter_map(|seed| match &rule.conds[seed.cond as usize].cond {
                Cond::Pattern { rel, .. } => Some(match input_rank[*rel as usize] {
                    0 => u16::MAX,
                    rank => rank,
                }),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        waits_for.push(after);
        for (si, seed) in plan.seeds.iter().enumerate() {
            if let Cond::Pattern { rel, args } = &rule.conds[seed.cond as usize].cond {
                // What the fact alone decides: the variables left to an earlier step are not its.
                let own: Vec<PatArg>;
                let args = match seed.taken {
                    0 => args,
                    taken => {
                        own = args
                            .iter()
                            .map(|a| match a {
                                PatArg::Var(s) if taken & bit(*s) != 0 => PatArg::Wild,
                                a => a.clone(),
                            })
                            .collect();
                        &own
                    }
                };
                let shared = &mut p.shared_tests[*rel as usize];
                let tests = shared_prefix(rule, args, &seed.rest, shared);
                let prefix_steps = tests.len() as u16;
                let prefix = pattern_checks(args, shared)
                    .into_iter()
                    .chain(tests)
                    .fold(0u64, |bits, t| bits | 1 << t);
                let calls = &mut p.shared_calls[*rel as usize];
                let first = seed
                    .rest
                    .get(prefix_steps as usize)
                    .and_then(|&(c, _)| shared_call(&rule.conds[c as usize].cond, args))
                    .and_then(|call| intern(calls, call, SharedCall::same));
                // A later step making the very same call (Rule7's second `rank_held(?h, 2)`).
                let again = first.and_then(|f| {
                    seed.rest[prefix_steps as usize + 1..].iter().find_map(|&(c, _)| {
                        shared_call(&rule.conds[c as usize].cond, args)
                            .is_some_and(|call| call.same(&calls[f as usize]))
                            .then_some(c)
                    })
                });
                let gate = seed
                    .rest
                    .get(prefix_steps as usize)
                    .and_then(|&(c, _)| gate_of(&rule.conds[c as usize].cond, *rel, args))
                    .map(|g| {
                        *gate_ids.entry(format!("{g:?}")).or_insert_with(|| {
                            p.gates.push(g);
                            (p.gates.len() - 1) as u32
                        })
                    });
                p.triggers[*rel as usize].push(Trigger {
                    rule: ri as u32,
                    seed: si as u16,
                    prefix,
                    prefix_steps,
                    first_call: first,
                    again,
                    gate,
                });
            }
        }
        if plan.seeds.is_empty() {
            p.initial.push(ri as u32);
        }
        p.plans.push(plan);
    }
    p.input_triggers = inputs
        .iter()
        .enumerate()
        .map(|(i, d)| {
            p.triggers[d.rel as usize]
                .iter()
                .filter(|t| {
                    let seed = &p.plans[t.rule as usize].seeds[t.seed as usize];
                    waits_for[t.rule as usize] <= i as u16 + 1
                        || fails_before_a_missing_fact(&rules[t.rule as usize], seed, &input_rank, i as u16 + 1)
                })
                .copied()
                .collect()
        })
        .collect();
    keep_wakes_that_can_happen(&mut p.plans, rules, nrel);
    p.probed = probed_positions(rules, &p.plans, nrel);
    // Under `depth` the newest activation fires first: the rules a fact makes ready are joined last
    // rule first, so that of those the rule declared first fires first (as in CLIPS).
    if strategy == Strategy::Depth {
        p.triggers.iter_mut().for_each(|t| t.reverse());
        p.input_triggers.iter_mut().for_each(|t| t.reverse());
        p.initial.reverse();
    }
    p.trigger_index = (0..nrel).map(|r| trigger_index(&p, rules, r)).collect();
    p
}

/// Narrows each rule's wake lists to the relations some rule can still write once an activation
/// of it is selected. Every activation of higher salience has fired by then, so only rules of its
/// salience or lower can fire next, and then the rules the facts they write can activate, and so on:
/// a relation only rules above that closure write never changes afterwards, and an activation need
/// not stand for it (the durak hand value's sum over `term`, written at salience 90 and summed at
/// 10, stood in every run). The closure grows with the salience, so one pass over the levels,
/// lowest first, computes it for all. A logical assertion can be retracted by the support it loses
/// whatever rule caused it: then every wake is kept.
fn keep_wakes_that_can_happen(plans: &mut [RulePlan], rules: &[RuleIr], nrel: usize) {
    let logical = rules.iter().any(|r| {
        r.actions
            .iter()
            .any(|a| matches!(a, Action::Assert { logical: true, .. }))
    });
    if logical
        || plans
            .iter()
            .all(|pl| pl.wake_on_retract.is_empty() && pl.wake_on_assert.is_empty())
    {
        return;
    }
    // The rules each relation's changes can activate or wake: those that mention it anywhere.
    let mut readers: Vec<Vec<u32>> = vec![Vec::new(); nrel];
    for (ri, rule) in rules.iter().enumerate() {
        super::program::mentions(&rule.conds, &mut |r| {
            let list = &mut readers[r as usize];
            if list.last() != Some(&(ri as u32)) {
                list.push(ri as u32);
            }
        });
    }
    let mut by_salience: Vec<u32> = (0..rules.len() as u32).collect();
    by_salience.sort_by_key(|&r| rules[r as usize].salience);
    let (mut asserted, mut retracted) = (vec![false; nrel], vec![false; nrel]);
    let mut in_closure = vec![false; rules.len()];
    let mut work: Vec<u32> = Vec::new();
    for level in by_salience.chunk_by(|&a, &b| rules[a as usize].salience == rules[b as usize].salience) {
        work.extend(level.iter().copied().filter(|&r| !in_closure[r as usize]));
        level.iter().for_each(|&r| in_closure[r as usize] = true);
        while let Some(r) = work.pop() {
            let rule = &rules[r as usize];
            for a in &rule.actions {
                let (rel, assert, retract) = match a {
                    Action::Assert { rel, .. } => (*rel, true, false),
                    Action::Modify { rel, .. } => (*rel, true, true),
                    Action::Retract { rel, .. } => (*rel, false, true),
                    Action::RetractFact { cond } => match rule.conds.get(*cond as usize).map(|c| &c.cond) {
                        Some(Cond::Pattern { rel, .. }) => (*rel, false, true),
                        _ => continue,
                    },
                    Action::Halt => continue,
                };
                let new = (assert && !asserted[rel as usize]) || (retract && !retracted[rel as usize]);
                asserted[rel as usize] |= assert;
                retracted[rel as usize] |= retract;
                if new {
                    for &q in &readers[rel as usize] {
                        if !in_closure[q as usize] {
                            in_closure[q as usize] = true;
                            work.push(q);
                        }
                    }
                }
            }
        }
        for &r in level {
            let plan = &mut plans[r as usize];
            plan.wake_on_retract.retain(|&rel| retracted[rel as usize]);
            plan.wake_on_assert.retain(|&rel| asserted[rel as usize]);
        }
    }
}

/// A relation's seeds from this many on are indexed by a constant they require, when at least
/// half of them require one at the same position (below, the word checks of the plain loop cost
/// less than a lookup).
const INDEX_TRIGGERS_FROM: usize = 16;

/// Whether a value is compared by `==` alone (`loose_eq` on anything else is equality), so that
/// equal hashes find every seed it can match.
fn exact_key(v: &Value) -> bool {
    !matches!(v, Value::Num(_) | Value::List(_))
}

fn trigger_index(p: &Plans, rules: &[RuleIr], rel: usize) -> Option<TriggerIndex> {
    let triggers = &p.triggers[rel];
    if triggers.len() < INDEX_TRIGGERS_FROM {
        return None;
    }
    let seed_args = |t: &Trigger| match &rules[t.rule as usize].conds
        [p.plans[t.rule as usize].seeds[t.seed as usize].cond as usize]
        .cond
    {
        Cond::Pattern { args, .. } => args.as_slice(),
        _ => &[],
    };
    let constant_at = |t: &Trigger, pos: usize| match seed_args(t).get(pos) {
        Some(PatArg::Expr(Expr::Const(k))) if exact_key(k) => Some(k.value()),
        _ => None,
    };
    let arity = triggers.iter().map(|t| seed_args(t).len()).max()?;
    let (pos, count) = (0..arity)
        .map(|pos| (pos, triggers.iter().filter(|t| constant_at(t, pos).is_some()).count()))
        .max_by_key(|&(pos, n)| (n, std::cmp::Reverse(pos)))?;
    if count * 2 < triggers.len() {
        return None;
    }
    let mut index = TriggerIndex {
        pos: pos as u16,
        by_value: Default::default(),
        others: Vec::new(),
    };
    for (i, t) in triggers.iter().enumerate() {
        match constant_at(t, pos) {
            Some(k) => index
                .by_value
                .entry(super::memory::hash_value(k))
                .or_default()
                .push(i as u32),
            None => index.others.push(i as u32),
        }
    }
    Some(index)
}

/// The shared form of a built-in with outputs whose arguments are the seed pattern's variables
/// (by the fact's argument positions), constants or parameters.
fn shared_call(cond: &Cond, seed_args: &[PatArg]) -> Option<SharedCall> {
    let Cond::CallOut {
        builtin,
        inputs,
        outputs,
    } = cond
    else {
        return None;
    };
    let args = inputs
        .iter()
        .map(|e| match e {
            Expr::Var(slot) => arg_position(seed_args, *slot).map(SharedArg::Fact),
            Expr::Const(v) => Some(SharedArg::Const(v.clone())),
            Expr::Param(i) => Some(SharedArg::Param(*i)),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    Some(SharedCall {
        builtin: builtin.clone(),
        args,
        arity: outputs.len(),
    })
}

/// The bindings of `rule` that nothing but its `because` text reads: `?v = expr` where no other
/// condition and no action mentions `?v`.
fn explanation_only(rule: &RuleIr) -> Vec<u16> {
    let mut action_slots = 0;
    for a in &rule.actions {
        match a {
            Action::Assert { args, .. } => args.iter().for_each(|e| action_slots |= expr_slots(e)),
            Action::Retract { args, .. } => args.iter().for_each(|a| action_slots |= pat_slots(a)),
            Action::Modify { args, .. } => args.iter().flatten().for_each(|e| action_slots |= expr_slots(e)),
            Action::RetractFact { .. } | Action::Halt => {}
        }
    }
    // Per variable: how many conditions use it (one pass, so that a long rule costs no square).
    let uses: Vec<u64> = rule.conds.iter().map(|c| cond_uses(&c.cond)).collect();
    let mut users = [0usize; 64];
    for u in &uses {
        for (slot, n) in users.iter_mut().enumerate() {
            *n += usize::from(u & (1 << slot) != 0);
        }
    }
    (0..rule.conds.len())
        .filter(|&i| {
            let Cond::Bind { slot, .. } = &rule.conds[i].cond else {
                return false;
            };
            let own = bit(*slot);
            // No condition but this one uses it.
            own != 0
                && action_slots & own == 0
                && users[own.trailing_zeros() as usize] == usize::from(uses[i] & own != 0)
        })
        .map(|i| i as u16)
        .collect()
}

fn plan_rule(rule: &RuleIr, retracted: &[bool], asserted: &[bool]) -> RulePlan {
    let deferred = explanation_only(rule);
    // Slots whose values exist only at selection time: aggregate results and what depends on them.
    let mut late: u64 = 0;
    // Slots the join conditions seen so far bind (or read).
    let mut early: u64 = 0;
    let mut select = Vec::new();
    let mut join = Vec::new();
    let mut is_deferred = vec![false; rule.conds.len()];
    deferred.iter().for_each(|&i| is_deferred[i as usize] = true);
    for (i, c) in rule.conds.iter().enumerate() {
        if is_deferred[i] {
            continue;
        }
        let uses = cond_uses(&c.cond);
        let is_late = matches!(c.cond, Cond::Not { .. } | Cond::Aggregate { .. }) || uses & late != 0;
        if is_late {
            // What it binds that the join has not: a test after an aggregate makes nothing late.
            late |= cond_binds(&c.cond) & !early;
            select.push(i as u16);
        } else {
            early |= uses;
            join.push(i as u16);
        }
    }
    let mut seeds = Vec::new();
    for &j in &join {
        if let Cond::Pattern { args, .. } = &rule.conds[j as usize].cond {
            let taken = taken_before(rule, &join, j) & args.iter().fold(0, |m, a| m | pat_slots(a));
            let written: Vec<(u16, bool)> = join
                .iter()
                .filter(|&&k| k != j || taken != 0)
                .map(|&k| {
                    let skip_new = k < j && matches!(rule.conds[k as usize].cond, Cond::Pattern { .. });
                    // The seed itself, matched again where written (see `Seed::taken`).
                    (k, skip_new || k == j)
                })
                .collect();
            let seed_binds = args.iter().fold(0, |m, a| m | pat_slots(a)) & !taken;
            let planned = reorder_patterns(rule, seed_binds, &written);
            let mut rebind = planned
                .as_ref()
                .map(|order| rebinding(rule, j, &written, order))
                .unwrap_or_default();
            let (rest, fallback) = hoist_checks(rule, seed_binds, planned.as_deref().unwrap_or(&written));
            let mut written_first = bound_by_a_pattern_before(rule, &join, j, seed_binds);
            // A reordered join takes them after the match, with the others it rebinds.
            if planned.is_some() {
                for w in written_first.drain(..) {
                    if !rebind.iter().any(|r| r.0 == w.0) {
                        rebind.push(w);
                    }
                }
            }
            seeds.push(Seed {
                cond: j,
                rest,
                fallback,
                reordered: planned.is_some(),
                rebind,
                taken,
                written_first,
            });
        }
    }
    let restored = restorable(rule, &join, &select);
    // What a selection reads of working memory: a retraction can make a negation hold or change
    // an aggregate, an assertion can change an aggregate or a negation nested in a negation.
    let (mut wake_on_retract, mut wake_on_assert) = (Vec::new(), Vec::new());
    let mut note = |r: RelId, on_assert: bool| {
        if retracted[r as usize] && !wake_on_retract.contains(&r) {
            wake_on_retract.push(r);
        }
        if on_assert && asserted[r as usize] && !wake_on_assert.contains(&r) {
            wake_on_assert.push(r);
        }
    };
    for c in &rule.conds {
        match &c.cond {
            Cond::Not { body } => {
                for inner in body {
                    match &inner.cond {
                        Cond::Pattern { rel, .. } => note(*rel, false),
                        Cond::Not { body } | Cond::Aggregate { body, .. } => {
                            super::program::mentions(body, &mut |r| note(r, true))
                        }
                        _ => {}
                    }
                }
            }
            Cond::Aggregate { body, .. } => super::program::mentions(body, &mut |r| note(r, true)),
            _ => {}
        }
    }
    let refires = rule.conds.iter().any(|c| matches!(c.cond, Cond::Aggregate { .. }));
    let logical = rule
        .actions
        .iter()
        .any(|a| matches!(a, Action::Assert { logical: true, .. }));
    let plain = rule
        .actions
        .iter()
        .all(|a| matches!(a, Action::Assert { logical: false, .. }));
    let mut support_rels = Vec::new();
    if logical {
        for &c in &select {
            let one = std::slice::from_ref(&rule.conds[c as usize]);
            super::program::mentions(one, &mut |r| {
                if (retracted[r as usize] || asserted[r as usize]) && !support_rels.contains(&r) {
                    support_rels.push(r);
                }
            });
        }
    }
    RulePlan {
        wake_on_retract,
        wake_on_assert,
        refires,
        late,
        early,
        logical,
        plain,
        support_rels,
        join,
        select,
        seeds,
        deferred,
        elided: restored.iter().fold(0, |m, &(slot, _, _)| m | bit(slot)),
        restored,
    }
}

/// The variables an activation need not keep (see `RulePlan::restored`): written once in all the
/// rule's conditions, as an argument of a join pattern, and read neither by the actions nor by a
/// condition checked at selection.
fn restorable(rule: &RuleIr, join: &[u16], select: &[u16]) -> Vec<(Slot, u16, u16)> {
    let mut read_late = select
        .iter()
        .fold(0, |m, &c| m | cond_uses(&rule.conds[c as usize].cond));
    for a in &rule.actions {
        match a {
            Action::Assert { args, .. } => args.iter().for_each(|e| read_late |= expr_slots(e)),
            Action::Retract { args, .. } => args.iter().for_each(|a| read_late |= pat_slots(a)),
            Action::Modify { args, .. } => args.iter().flatten().for_each(|e| read_late |= expr_slots(e)),
            Action::RetractFact { .. } | Action::Halt => {}
        }
    }
    // Slots some condition binds (or may bind) other than as a join pattern's argument.
    let mut bound_elsewhere = 0;
    // How many join pattern arguments are each slot, bare.
    let mut written = [0u8; 64];
    for (i, at) in rule.conds.iter().enumerate() {
        match &at.cond {
            Cond::Pattern { args, .. } if join.contains(&(i as u16)) => {
                for a in args {
                    match a {
                        PatArg::Var(s) if (*s as usize) < 64 => {
                            written[*s as usize] = written[*s as usize].saturating_add(1)
                        }
                        other => bound_elsewhere |= pat_slots(other),
                    }
                }
            }
            Cond::Test(_) => {}
            Cond::Bind { slot, .. } | Cond::In { slot, .. } => bound_elsewhere |= bit(*slot),
            Cond::CallOut { outputs, .. } => outputs.iter().for_each(|a| bound_elsewhere |= pat_slots(a)),
            Cond::WhatIf { args, .. } => args.iter().for_each(|a| bound_elsewhere |= pat_slots(a)),
            other => bound_elsewhere |= cond_binds(other),
        }
    }
    let mut out = Vec::new();
    for &c in join {
        let Cond::Pattern { args, .. } = &rule.conds[c as usize].cond else {
            continue;
        };
        for (pos, a) in args.iter().enumerate() {
            if let PatArg::Var(s) = a {
                let own = bit(*s);
                if own != 0 && written[*s as usize] == 1 && (bound_elsewhere | read_late) & own == 0 {
                    out.push((*s, c, pos as u16));
                }
            }
        }
    }
    out
}

/// The tests a seed's join starts with that read a single variable the seed pattern binds from
/// one of its own arguments, added to (or found in) the relation's shared tests. Only the leading
/// tests: a later one may be reached only through a step that can fail with an error first.
fn shared_prefix(rule: &RuleIr, seed_args: &[PatArg], rest: &[Step], shared: &mut Vec<SharedTest>) -> Vec<u16> {
    let mut prefix = Vec::new();
    for &(c, _) in rest {
        let cond = &rule.conds[c as usize];
        if !matches!(cond.cond, Cond::Test(_)) {
            break;
        }
        let Some((slot, test)) = cond.low.fast().and_then(|f| Some((f.one_var()?, f))) else {
            break;
        };
        let check = SharedCheck::Test(test);
        let Some(pos) = arg_position(seed_args, slot) else {
            break;
        };
        let Some(t) = intern(shared, SharedTest { pos, check }, |a, b| {
            a.pos == b.pos && a.check.same(&b.check)
        }) else {
            break;
        };
        prefix.push(t);
    }
    prefix
}

/// What the seed pattern requires of a fact's arguments on its own, added to (or found in) the
/// relation's shared tests: each constant argument, and each repeat of a variable the pattern
/// binds at an earlier argument. (Other expressions may read parameters or fail; the join
/// evaluates them.)
fn pattern_checks(seed_args: &[PatArg], shared: &mut Vec<SharedTest>) -> Vec<u16> {
    let mut checks = Vec::new();
    for (pos, a) in seed_args.iter().enumerate() {
        let check = match a {
            PatArg::Expr(Expr::Const(k)) => SharedCheck::EqConst(Box::new(k.clone())),
            PatArg::Var(s) => match arg_position(seed_args, *s) {
                Some(first) if (first as usize) < pos => SharedCheck::SameAs(first),
                _ => continue,
            },
            _ => continue,
        };
        let pos = pos as u16;
        // Past the cap a check is simply left to the join, which matches the whole pattern.
        checks.extend(intern(shared, SharedTest { pos, check }, |a, b| {
            a.pos == b.pos && a.check.same(&b.check)
        }));
    }
    checks
}

/// The position of the seed pattern's argument that binds `slot`, if one does.
fn arg_position(seed_args: &[PatArg], slot: Slot) -> Option<u16> {
    seed_args
        .iter()
        .position(|a| matches!(a, PatArg::Var(s) if *s == slot))
        .map(|p| p as u16)
}

/// The index of an item equal to `item` in `list` (by `same`), adding it when there is none;
/// `None` when the list already holds [`MAX_SHARED`] others (what a new fact ran is kept as bits
/// of one word).
/// The gate a seed's join may start with (see `Trigger::gate`): `step`, when it is a pattern of
/// constants and `_` only, of another relation than the seed's (whose new fact it might have to
/// skip), and the seed's own match cannot fail with an error (so skipping it skips nothing the
/// join would have raised).
fn gate_of(step: &Cond, seed_rel: RelId, seed_args: &[PatArg]) -> Option<Gate> {
    let Cond::Pattern { rel, args } = step else {
        return None;
    };
    let plain = |a: &PatArg| matches!(a, PatArg::Wild | PatArg::Var(_) | PatArg::Expr(Expr::Const(_)));
    if *rel == seed_rel || !seed_args.iter().all(plain) {
        return None;
    }
    let mut consts = Vec::new();
    for (pos, a) in args.iter().enumerate() {
        match a {
            PatArg::Wild => {}
            PatArg::Expr(Expr::Const(k)) => consts.push((pos as u16, k.clone())),
            _ => return None,
        }
    }
    Some(Gate { rel: *rel, consts })
}

fn intern<T>(list: &mut Vec<T>, item: T, same: impl Fn(&T, &T) -> bool) -> Option<u16> {
    match list.iter().position(|known| same(known, &item)) {
        Some(i) => Some(i as u16),
        None if list.len() < MAX_SHARED => {
            list.push(item);
            Some((list.len() - 1) as u16)
        }
        None => None,
    }
}

/// A join step: a condition's index and whether it skips the fact that started the join.
type Step = (u16, bool);

/// The join of a seed with its patterns reordered so that each one, where it can, shares a
/// variable with what is matched before it (a lookup by value instead of a scan of the relation
/// per partial match), or `None` when the order written is kept: it already does, or the rule has
/// steps other than patterns and equality tests. Those tests cannot fail with an error and bind
/// nothing, so the matches are the same in any order; the session puts them back in the order the
/// written join makes them and rebinds each variable from the pattern written first (see
/// `Seed::rebind`), so nothing of the new order shows.
fn reorder_patterns(rule: &RuleIr, seed_binds: u64, written: &[Step]) -> Option<Vec<Step>> {
    let is_pattern = |&(k, _): &Step| matches!(rule.conds[k as usize].cond, Cond::Pattern { .. });
    let patterns: Vec<Step> = written.iter().copied().filter(is_pattern).collect();
    if patterns.len() < 2 {
        return None;
    }
    let checks: Vec<Step> = written.iter().copied().filter(|s| !is_pattern(s)).collect();
    if !checks
        .iter()
        .all(|&(k, _)| matches!(&rule.conds[k as usize].cond, Cond::Test(e) if equality_only(e)))
    {
        return None;
    }
    let mut order = Vec::with_capacity(written.len());
    let mut bound = seed_binds;
    // The patterns not placed yet (taken ones become `None`), from the first one left on.
    let mut left: Vec<Option<Step>> = patterns.into_iter().map(Some).collect();
    let mut first = 0;
    let mut checks_placed = 0;
    while first < left.len() {
        let uses = |s: &Option<Step>| s.map(|(k, _)| cond_uses(&rule.conds[k as usize].cond));
        // First a pattern with nothing left to bind (`stage("labeling")`, a fact looked up whole),
        // then one that shares a variable, else the next written.
        let checks_only = |s: &Option<Step>| uses(s).is_some_and(|u| u & !bound == 0);
        let shares = |s: &Option<Step>| uses(s).is_some_and(|u| u & bound != 0);
        let next = left[first..]
            .iter()
            .position(checks_only)
            .or_else(|| left[first..].iter().position(shares))
            .map_or(first, |p| first + p);
        let Some(step) = left[next].take() else { break };
        while first < left.len() && left[first].is_none() {
            first += 1;
        }
        bound |= cond_binds(&rule.conds[step.0 as usize].cond);
        order.push(step);
        // The checks whose variables are all bound now, in the order written.
        while let Some(&(k, s)) = checks.get(checks_placed) {
            let needs = cond_uses(&rule.conds[k as usize].cond);
            if needs & bound != needs {
                break;
            }
            order.push((k, s));
            checks_placed += 1;
        }
    }
    order.extend_from_slice(&checks[checks_placed..]);
    (order != written).then_some(order)
}

/// Of the variables `seed` binds, those a pattern written before condition `j` binds first, as
/// (slot, that pattern, argument position).
fn bound_by_a_pattern_before(rule: &RuleIr, join: &[u16], j: u16, seed: u64) -> Vec<(Slot, u16, u16)> {
    let (mut bound, mut out) = (0u64, Vec::new());
    for &k in join.iter().filter(|&&k| k < j) {
        let c = &rule.conds[k as usize].cond;
        if let Cond::Pattern { args, .. } = c {
            for (pos, a) in args.iter().enumerate() {
                if let PatArg::Var(s) = a {
                    if seed & bound & bit(*s) == 0
                        && seed & bit(*s) != 0
                        && !out.iter().any(|o: &(Slot, u16, u16)| o.0 == *s)
                    {
                        out.push((*s, k, pos as u16));
                    }
                }
            }
        }
        bound |= cond_binds(c);
    }
    out
}

/// The variables a join step written before condition `j` binds first, other than a pattern (an
/// `in`, a binding, a built-in's outputs, a what-if): a join started at `j` leaves them to that
/// step, as the order written does.
fn taken_before(rule: &RuleIr, join: &[u16], j: u16) -> u64 {
    let (mut bound, mut taken) = (0u64, 0u64);
    for &k in join.iter().filter(|&&k| k < j) {
        let c = &rule.conds[k as usize].cond;
        let binds = cond_binds(c) & !bound;
        if !matches!(c, Cond::Pattern { .. } | Cond::Test(_)) {
            taken |= binds;
        }
        bound |= binds;
    }
    taken
}

/// Whether the join of `seed`, started by the input of rank `rank` while the inputs go in, can
/// fail with an error before it reaches a pattern with no fact yet (a derived relation's, a later
/// input's). Such a join must run, so that the error is raised where the order written raises
/// it; a join that can only reach that pattern finds nothing and is left to the later fact.
fn fails_before_a_missing_fact(rule: &RuleIr, seed: &Seed, input_rank: &[u16], rank: u16) -> bool {
    for &(k, _) in &seed.rest {
        match &rule.conds[k as usize].cond {
            Cond::Pattern { rel, args } => {
                let r = input_rank[*rel as usize];
                if r == 0 || r > rank {
                    return false;
                }
                let fallible = |a: &PatArg| matches!(a, PatArg::Expr(e) if !matches!(e, Expr::Const(_)));
                if args.iter().any(fallible) {
                    return true;
                }
            }
            Cond::Test(e) if equality_only(e) => {}
            _ => return true,
        }
    }
    false
}

/// A test that cannot fail with an error: `==`, `!=`, `and`, `or` and `!` over variables,
/// parameters and constants.
fn equality_only(e: &Expr) -> bool {
    use crate::lang::ast::{BinaryOp, UnaryOp};
    let operand = |e: &Expr| matches!(e, Expr::Var(_) | Expr::Const(_) | Expr::Param(_));
    match e {
        Expr::Binary(BinaryOp::Eq | BinaryOp::Ne, a, b) => operand(a) && operand(b),
        Expr::Binary(BinaryOp::And | BinaryOp::Or, a, b) => equality_only(a) && equality_only(b),
        Expr::Unary(UnaryOp::Not, a) => equality_only(a),
        _ => false,
    }
}

/// The variables whose first binding pattern differs between the order written and `order`, as
/// (slot, the pattern written first to bind it, its argument position): a match of the
/// reordered join takes each such value from that pattern's fact, as the written join would.
fn rebinding(rule: &RuleIr, seed: u16, written: &[Step], order: &[Step]) -> Vec<(Slot, u16, u16)> {
    let first_binders = |steps: &[Step]| {
        let mut at: Vec<(Slot, u16, u16)> = Vec::new();
        for k in std::iter::once(seed).chain(steps.iter().map(|&(k, _)| k)) {
            let Cond::Pattern { args, .. } = &rule.conds[k as usize].cond else {
                continue;
            };
            for (pos, a) in args.iter().enumerate() {
                if let PatArg::Var(s) = a {
                    if !at.iter().any(|(t, _, _)| t == s) {
                        at.push((*s, k, pos as u16));
                    }
                }
            }
        }
        at
    };
    let reordered = first_binders(order);
    first_binders(written)
        .into_iter()
        .filter(|b| !reordered.contains(b))
        .collect()
}

/// True for the steps the planner may move earlier: a test or a binding has one outcome, so
/// moving it ahead of a step that can match several ways (a built-in with outputs, `in`, a
/// what-if) whose variables it does not read checks it once instead of once per match.
fn is_check(c: &Cond) -> bool {
    matches!(c, Cond::Test(_) | Cond::Bind { .. })
}

/// Orders a join: each test or binding as soon as the variables it reads (or binds) are bound,
/// but never ahead of a test or binding written before it (a guard such as `?n > 0` stays ahead
/// of the division it protects), nor ahead of a pattern: while a rule's facts arrive one by one,
/// a pattern often has nothing to match yet, and a check moved ahead of it would be computed for
/// nothing at every arrival. The other steps keep their order, so the matches and their order
/// are those of the order written. Returns the order and, per moved step, the rest of the steps
/// in the order written (see `Seed::fallback`).
fn hoist_checks(rule: &RuleIr, seed_binds: u64, written: &[Step]) -> (Vec<Step>, Vec<Vec<Step>>) {
    let mut order: Vec<(u16, bool)> = Vec::with_capacity(written.len());
    // bound_before[p]: the variables bound before step p of `order`.
    let mut bound_before: Vec<u64> = vec![seed_binds];
    // The position after the last check placed (checks keep their written order).
    let mut last_check_end = 0;
    for &(k, skip) in written {
        let c = &rule.conds[k as usize].cond;
        let at = if is_check(c) {
            let needs = cond_uses(c);
            // Earliest position p ≥ last_check_end with every needed variable bound before it;
            // the variables a binding binds count as needed, so it never moves ahead of a step
            // that binds them too.
            let own = match c {
                Cond::Bind { slot, .. } => bit(*slot),
                _ => 0,
            };
            let needs_bound = needs & !own;
            // A step that uses `own` would have seen it bound in the order written only if it
            // came after: this binding must stay after the last such step.
            let after_users = match own {
                0 => 0,
                _ => order
                    .iter()
                    .rposition(|&(m, _)| cond_uses(&rule.conds[m as usize].cond) & own != 0)
                    .map_or(0, |q| q + 1),
            };
            (last_check_end.max(after_users)..=order.len())
                .find(|&p| bound_before[p] & needs_bound == needs_bound)
                .unwrap_or(order.len())
        } else {
            order.len()
        };
        order.insert(at, (k, skip));
        if is_check(c) || matches!(c, Cond::Pattern { .. }) {
            last_check_end = at + 1;
        }
        // Only the positions from the insertion on change.
        bound_before.truncate(at + 1);
        let mut m = bound_before[at];
        for &(s, _) in &order[at..] {
            m |= cond_binds(&rule.conds[s as usize].cond);
            bound_before.push(m);
        }
    }
    let mut written_at = vec![usize::MAX; rule.conds.len()];
    for (i, &(w, _)) in written.iter().enumerate() {
        written_at[w as usize] = i;
    }
    let position_written = |k: u16| written_at[k as usize];
    // earliest_after[p]: the earliest written position among the steps after p in `order`.
    let mut earliest_after = vec![usize::MAX; order.len() + 1];
    for p in (0..order.len()).rev() {
        earliest_after[p] = earliest_after[p + 1].min(position_written(order[p].0));
    }
    let fallback: Vec<Vec<Step>> = order
        .iter()
        .enumerate()
        .map(|(p, &(k, _))| {
            // Moved: some step after it in `order` was written before it.
            let moved = earliest_after[p + 1] < position_written(k);
            if !moved {
                return Vec::new();
            }
            let mut tail: Vec<(u16, bool)> = order[p..].to_vec();
            tail.sort_by_key(|&(m, _)| position_written(m));
            tail
        })
        .collect();
    // None moved: no fallbacks at all (the matcher reads a missing one as none).
    let fallback = match fallback.iter().all(Vec::is_empty) {
        true => Vec::new(),
        false => fallback,
    };
    (order, fallback)
}

/// Per relation, the argument positions a run may look up by value (`Memory::new`).
///
/// Only positions a run can look up are indexed: patterns a join iterates (every join pattern
/// of a rule with several, as each seeds the others), patterns checked at selection, and the
/// bodies of `not` and aggregates. A rule's only pattern is always matched as the seed, fact by
/// fact, so indexing it would cost every insert for nothing. (Why-not and explanations scan where
/// there is no index: same answers, rarely run.)
fn probed_positions(rules: &[RuleIr], plans: &[RulePlan], nrel: usize) -> Vec<Vec<u16>> {
    let mut probed: Vec<Vec<u16>> = vec![Vec::new(); nrel];
    for (r, plan) in rules.iter().zip(plans) {
        let joined = plan.seeds.len() > 1;
        let uses: Vec<u64> = r.conds.iter().map(|c| cond_uses(&c.cond)).collect();
        let others_of = all_but(&uses);
        let mut selected = vec![false; r.conds.len()];
        plan.select.iter().for_each(|&i| selected[i as usize] = true);
        for (i, c) in r.conds.iter().enumerate() {
            let iterated = match c.cond {
                Cond::Pattern { .. } => joined || selected[i],
                Cond::Not { .. } | Cond::Aggregate { .. } => true,
                _ => false,
            };
            if iterated {
                // The slots the rule's other conditions use: only those can be bound when
                // this pattern is matched (in any join order).
                let others = others_of[i];
                collect_probes(std::slice::from_ref(c), others, &mut probed);
            }
        }
    }
    probed
}

/// Records, per relation, the argument positions a pattern of `conds` may look up by value: a
/// position holding an expression, or a variable that something else may have bound first
/// (`others`: the slots used outside these conditions). A variable only one pattern mentions is
/// always bound by that pattern, never looked up: `sum ?x { term(_, ?x) }` needs no index of
/// the terms by value, which every term asserted would pay for.
fn collect_probes(conds: &[CondAt], others: u64, probed: &mut [Vec<u16>]) {
    let uses: Vec<u64> = match conds.len() {
        1 => vec![0],
        _ => conds.iter().map(|c| cond_uses(&c.cond)).collect(),
    };
    let fellows = all_but(&uses);
    for (k, c) in conds.iter().enumerate() {
        // The conditions beside this one (in a body, its fellows) may bind a variable first too.
        let outside = others | fellows[k];
        match &c.cond {
            Cond::Pattern { rel, args } => {
                for (i, a) in args.iter().enumerate() {
                    let looked_up = match a {
                        PatArg::Wild => false,
                        PatArg::Var(s) => *s >= 64 || outside & (1u64 << s) != 0,
                        PatArg::Expr(_) => true,
                    };
                    if looked_up && !probed[*rel as usize].contains(&(i as u16)) {
                        probed[*rel as usize].push(i as u16);
                    }
                }
            }
            Cond::Not { body } | Cond::Aggregate { body, .. } => collect_probes(body, outside, probed),
            _ => {}
        }
    }
}

/// Per entry `k` of `uses`: the slots of every entry but the `k`th (from prefix and suffix
/// unions, so that a long rule costs no square).
fn all_but(uses: &[u64]) -> Vec<u64> {
    let mut after = vec![0u64; uses.len() + 1];
    for k in (0..uses.len()).rev() {
        after[k] = after[k + 1] | uses[k];
    }
    let mut before = 0u64;
    let mut out = Vec::with_capacity(uses.len());
    for (k, u) in uses.iter().enumerate() {
        out.push(before | after[k + 1]);
        before |= u;
    }
    out
}

fn bit(s: Slot) -> u64 {
    1u64.checked_shl(s as u32).unwrap_or(0)
}

/// Slots a condition reads or binds.
pub(super) fn cond_uses(c: &Cond) -> u64 {
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
        Expr::If(c, a, b) => expr_slots(c) | expr_slots(a) | expr_slots(b),
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::load_text;

    /// Firings through `Session::assert_plain` against the general path (`act`, every rule's
    /// `plain` flag off): the same trace, conclusions and end, on rule sets that reach what the
    /// plain path must still do (duplicates, `one` answers, the fact and cell bounds, aggregates
    /// and negations woken by its facts) beside rules it leaves to `act`.
    #[test]
    fn plain_assert_firings_run_as_the_general_path_does() {
        use crate::engine::session::{RunOptions, Session};
        use proptest::prelude::*;
        const RULES: &str = r#"ruleset t "t"
            input n: int
            input xs: ints
            output total, big: one, seen, note
            rule Each "each" when xs(?l), ?x in ?l then assert seen(?x % 5) assert term(?x) end
            rule Sum "sum" when ?s = sum ?t { term(?t) } then assert total(?s) end
            rule Big "big" when n(?n), seen(?v), ?v > ?n, not big(_) then assert big(?v) end
            rule Cut "cut" when ?h <- seen(0), n(?n), ?n < 0 then retract ?h end
            rule Mark "mark" salience 5 when seen(?v), not big(?v) then assert logical note(?v) end
            rule Note "note" salience 3 when seen(?v), ?v > 2 then assert note(?v) end"#;
        let run = |plain: bool, n: i64, xs: &[i64], max_facts: u64, max_cells: u64| {
            let mut p = load_text("t", RULES).unwrap();
            let plans = &mut std::sync::Arc::get_mut(&mut p).expect("unshared").matching.plans;
            assert!(plans.iter().any(|pl| pl.plain) && plans.iter().any(|pl| !pl.plain));
            if !plain {
                plans.iter_mut().for_each(|pl| pl.plain = false);
            }
            let mut s = Session::new(p);
            s.set_options(RunOptions {
                trace: true,
                max_facts,
                max_cells,
                ..RunOptions::default()
            });
            s.set_input_text("n", &n.to_string()).unwrap();
            let list: Vec<String> = xs.iter().map(i64::to_string).collect();
            s.set_input_text("xs", &list.join(",")).unwrap();
            let end = match s.run() {
                Ok(r) => format!("{:?} {:?} {:?}", r.stop, r.bound, r.stats.fired),
                Err(e) => e.to_string(),
            };
            let conclusions: Vec<String> = s.conclusions().iter().map(|c| c.to_string()).collect();
            let trace: Vec<String> = s
                .trace()
                .iter()
                .map(|e| match e {
                    crate::engine::session::TraceEvent::Fired { firing } => {
                        let f = s.firing(*firing).expect("recorded");
                        format!("{} {:?}", f.rule, s.firing_bindings(f).0)
                    }
                    other => format!("{other:?}"),
                })
                .collect();
            (end, trace, conclusions)
        };
        proptest!(ProptestConfig::with_cases(300), |(
            n in -3i64..8,
            xs in proptest::collection::vec(-20i64..20, 0..12),
            max_facts in 3u64..40,
            max_cells in 3u64..60,
        )| {
            prop_assert_eq!(run(true, n, &xs, max_facts, max_cells), run(false, n, &xs, max_facts, max_cells));
        });
    }

    /// While the inputs go in, a rule is seeded by its last input only, and not at all when it
    /// also reads a derived relation (no rule has fired yet, so that join would find nothing);
    /// the derived facts seed it when they come, and it still fires.
    #[test]
    fn inputs_seed_only_the_rules_they_can_complete() {
        let program = load_text(
            "t",
            r#"ruleset t "t"
            input a: int
            input b: int
            output c, d
            rule Both "reads both inputs" when a(?x) b(?y) then assert c(?x + ?y) end
            rule Derived "reads an input and a derived fact" when a(?x) c(?z) then assert d(?x * ?z) end"#,
        )
        .unwrap();
        let seeded = |input: usize| -> Vec<&str> {
            program.matching.input_triggers[input]
                .iter()
                .map(|t| program.rules[t.rule as usize].name.as_str())
                .collect()
        };
        assert_eq!(
            seeded(0),
            Vec::<&str>::new(),
            "`a` comes before `b`, and `c` is derived"
        );
        assert_eq!(seeded(1), ["Both"]);
        let a = program.relation("a").unwrap();
        let by_a: Vec<&str> = program.matching.triggers[a as usize]
            .iter()
            .map(|t| program.rules[t.rule as usize].name.as_str())
            .collect();
        assert_eq!(by_a, ["Both", "Derived"], "a fact of `a` asserted by a rule seeds both");
        let mut session = crate::engine::session::Session::new(program.clone());
        session.set_input_text("a", "2").unwrap();
        session.set_input_text("b", "3").unwrap();
        session.run().unwrap();
        assert_eq!(session.facts_of("d"), [vec![crate::value::Value::Int(10)]]);
    }

    /// A sum over facts only rules of higher salience write does not stand (nothing can change
    /// it once it is selected); one that a rule of its salience or lower writes, directly or
    /// through the facts it makes, does, and fires again with each new total.
    #[test]
    fn an_aggregate_stands_only_for_facts_a_later_firing_can_write() {
        let program = load_text(
            "t",
            r#"ruleset t "t"
            input a: int
            output total, late_total, echo
            rule Term "high" salience 9 when a(?x) then assert term(?x) end
            rule Total "sums term" salience 1 when ?t = sum ?v { term(?v) } then assert total(?t) end
            rule Echo "copies the total" salience 0 when total(?t) then assert echo(?t) end
            rule Early "writes late terms" salience 9 when echo(?t) ?t < 10 then assert late(?t + 5) end
            rule LateTotal "sums late" salience 1 when ?t = sum ?v { late(?v) } then assert late_total(?t) end"#,
        )
        .unwrap();
        let wakes = |name: &str| {
            let r = program.rules.iter().position(|r| r.name == name).unwrap();
            program.matching.plans[r].wake_on_assert.len()
        };
        assert_eq!(wakes("Total"), 0, "only `Term`, at salience 9, writes `term`");
        assert_eq!(
            wakes("LateTotal"),
            1,
            "`Echo` (salience 0) makes the facts `Early` writes `late` from"
        );
        let mut session = crate::engine::session::Session::new(program.clone());
        session.set_input_text("a", "2").unwrap();
        session.run().unwrap();
        let ints = |v: &[i64]| v.iter().map(|&i| vec![crate::value::Value::Int(i)]).collect::<Vec<_>>();
        assert_eq!(session.facts_of("total"), ints(&[2]));
        assert_eq!(session.facts_of("late_total"), ints(&[0, 7]));
    }

    /// A position is indexed only where a join can look it up: a constant, or a variable that
    /// another condition may bind first; a variable only its own pattern mentions (an aggregate's
    /// or a `not`'s own) is always bound there, and indexing it would cost every insert.
    #[test]
    fn only_positions_a_join_can_look_up_are_indexed() {
        let program = load_text(
            "t",
            r#"ruleset t "t"
            input a: int
            output total, lonely, d
            rule Make "makes the facts" when a(?x) then
                assert term("x", ?x) assert mark(?x, 1, 2) assert pair(?x, ?x) assert d(?x, 3, 7)
            end
            rule Sum "sums terms" when a(?x) ?v = sum ?t { term(_, ?t) } then assert total(?v) end
            rule Lonely "nothing names ?x" when a(?x) not mark(?x, _, ?z) then assert lonely(?x) end
            rule Pair "joins two patterns" when pair(?p, ?q) d(?q, ?w, 7) then assert d(?p, ?w, 1) end"#,
        )
        .unwrap();
        let probed = &program.matching.probed;
        let at = |rel: &str| {
            let mut p = probed[program.relation(rel).unwrap() as usize].clone();
            p.sort();
            p
        };
        assert_eq!(at("term"), Vec::<u16>::new(), "`?t` is the aggregate's own");
        assert_eq!(at("mark"), [0], "`?x` is bound outside the `not`, `?z` only there");
        assert_eq!(at("pair"), [1], "`?q` is shared with `d`, `?p` is not");
        assert_eq!(at("d"), [0, 2], "`?q` shared, `7` a constant, `?w` its own");
    }
}
