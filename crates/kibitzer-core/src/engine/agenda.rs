//! The agenda: activations waiting to fire, ordered by conflict resolution.
//!
//! Order (documented in docs/semantics.md): higher salience first; then, by the rule set's
//! strategy, the rule declared earlier in the file and the activation created earlier
//! (`file_order`), the activation created last (`depth`) or first (`breadth`). The order is
//! total and deterministic. Bindings and matched facts live in flat arenas reused across runs;
//! a firing's record points into them (`Session::record_and_act`), so an activation that fires
//! as it was stored is recorded with no copy (its slots in the arena become the record's).

use super::memory::FactId;
use crate::lang::ir::Strategy;
use crate::value::Value;

/// A rule with a full set of bindings from its join conditions.
#[derive(Debug, Clone)]
pub struct Activation {
    pub rule: u32,
    pub mask: u64,
    /// Where its bindings and matched facts are in the agenda's arenas (`Agenda::vars_at`).
    pub vars: (u32, u32),
    pub facts: (u32, u32),
    /// The standing activation this one brings back (`Session::wake`), or [`NOT_STANDING`].
    pub standing: u32,
}

/// `Activation::standing` of an activation made by a join.
pub const NOT_STANDING: u32 = u32::MAX;

/// The pending activations of one rule, oldest first: `items[head..]` are waiting.
#[derive(Debug, Default)]
struct Queue {
    items: Vec<u32>,
    head: usize,
}

/// The pending activations. The order of conflict resolution puts every activation of one rule
/// after those of the rules before it (salience, then place in the file) and, within a rule, in
/// the order made: so the agenda is a queue per rule, visited in the rules' fixed order, and a
/// bit per rule says which queues hold anything. A push appends and sets a bit; a pop finds the
/// first set bit and takes the oldest activation there (where a heap compared keys at every
/// level, both ways).
#[derive(Debug, Default)]
pub struct Agenda {
    acts: Vec<Activation>,
    values: Vec<Value>,
    facts: Vec<(u16, FactId)>,
    /// Each rule's place in conflict-resolution order (0 fires first): its own place in
    /// `file_order`; under `depth` and `breadth`, its salience level's, shared by the rules of
    /// equal salience.
    rank: Vec<u32>,
    /// Whether a queue gives its newest activation first (`depth`).
    newest_first: bool,
    /// By place: the rule's queue.
    queues: Vec<Queue>,
    /// By place: whether the queue holds a waiting activation, 64 places a word.
    waiting: Vec<u64>,
    pending: usize,
    /// Activations made this run before the last `compact` (which renumbers the waiting ones).
    compacted: usize,
    /// The arenas the last `compact` moved out of, emptied, for the next one to fill: a long run
    /// reuses the same memory instead of asking for fresh pages at every compaction.
    spare: (Vec<Activation>, Vec<Value>, Vec<(u16, FactId)>),
}

impl Agenda {
    /// An empty agenda for rules of these saliences (in the order of the file). `grouped`: per
    /// rule, whether it is in a first-match group: under `depth` and `breadth` such a rule gets
    /// a queue of its own, before the shared queue of its salience level, so that a group's
    /// rules come up in file order (under `file_order` every rule has its own queue already).
    pub fn new(saliences: &[i32], grouped: &[bool], strategy: Strategy) -> Agenda {
        let mut order: Vec<usize> = (0..saliences.len()).collect();
        // Higher salience first; the rule written first among equals (the sort is stable).
        order.sort_by_key(|&r| std::cmp::Reverse(saliences[r]));
        let mut rank = vec![0u32; saliences.len()];
        match strategy {
            Strategy::FileOrder => order.iter().enumerate().for_each(|(place, &r)| rank[r] = place as u32),
            _ => {
                let mut next = 0u32;
                for level in order.chunk_by(|&a, &b| saliences[a] == saliences[b]) {
                    let in_group = |r: usize| grouped.get(r).copied().unwrap_or(false);
                    for &r in level.iter().filter(|&&r| in_group(r)) {
                        rank[r] = next;
                        next += 1;
                    }
                    if level.iter().any(|&r| !in_group(r)) {
                        level.iter().filter(|&&r| !in_group(r)).for_each(|&r| rank[r] = next);
                        next += 1;
                    }
                }
            }
        }
        Agenda {
            rank,
            newest_first: strategy == Strategy::Depth,
            queues: (0..saliences.len()).map(|_| Queue::default()).collect(),
            waiting: vec![0; saliences.len().div_ceil(64)],
            ..Agenda::default()
        }
    }

    /// Forgets everything, keeping allocations.
    pub fn reset(&mut self) {
        self.compacted = 0;
        self.acts.clear();
        self.values.clear();
        self.facts.clear();
        for (w, word) in self.waiting.iter_mut().enumerate() {
            let mut bits = std::mem::take(word);
            while bits != 0 {
                let q = &mut self.queues[w * 64 + bits.trailing_zeros() as usize];
                q.items.clear();
                q.head = 0;
                bits &= bits - 1;
            }
        }
        self.pending = 0;
    }

    /// Adds an activation. `elided`: bound slots nothing reads after selection
    /// (`RulePlan::elided`), kept as placeholders.
    #[inline(always)]
    pub fn push(&mut self, rule: u32, mask: u64, elided: u64, vars: &[Value], facts: &[(u16, FactId)]) {
        self.push_standing(rule, mask, elided, vars, facts, NOT_STANDING);
    }

    /// Adds an activation that brings back standing activation `standing`.
    #[inline(always)]
    pub fn push_standing(
        &mut self,
        rule: u32,
        mask: u64,
        elided: u64,
        vars: &[Value],
        facts: &[(u16, FactId)],
        standing: u32,
    ) {
        let seq = self.acts.len() as u32;
        let v0 = self.values.len() as u32;
        // Only bound slots are copied: an unbound slot holds a stale value of an earlier match,
        // which nothing reads (the mask says unbound), so a placeholder costs no reference count;
        // nor does an elided one, which nothing reads either.
        // Each slot is written once, in place, by the branch that makes it (a placeholder, or a
        // copy as three words, see `Value::clone`): neither value goes through the stack (which
        // stalled on store forwarding), and no slot is written twice (placeholders first and
        // kept values over them cost 3% of a durak hand value).
        let keep = mask & !elided;
        self.values.reserve(vars.len());
        for (i, (slot, v)) in self.values.spare_capacity_mut().iter_mut().zip(vars).enumerate() {
            if i >= 64 || keep & (1u64 << i) != 0 {
                slot.write(v.clone());
            } else {
                slot.write(Value::Int(0));
            }
        }
        // SAFETY: the `vars.len()` slots after the old length were written just above (the
        // reservation guarantees that many spare slots).
        unsafe { self.values.set_len(v0 as usize + vars.len()) };
        let f0 = self.facts.len() as u32;
        self.facts.extend_from_slice(facts);
        self.acts.push(Activation {
            rule,
            mask,
            vars: (v0, self.values.len() as u32),
            facts: (f0, self.facts.len() as u32),
            standing,
        });
        let place = self.rank[rule as usize] as usize;
        self.queues[place].items.push(seq);
        self.waiting[place / 64] |= 1u64 << (place % 64);
        self.pending += 1;
    }

    /// Takes the activation conflict resolution selects.
    pub fn pop(&mut self) -> Option<Activation> {
        let w = self.waiting.iter().position(|&word| word != 0)?;
        let place = w * 64 + self.waiting[w].trailing_zeros() as usize;
        let q = &mut self.queues[place];
        let seq = match self.newest_first {
            true => q.items.pop().unwrap_or_default(),
            false => {
                q.head += 1;
                q.items[q.head - 1]
            }
        };
        if q.head == q.items.len() {
            q.items.clear();
            q.head = 0;
            self.waiting[w] &= !(1u64 << (place % 64));
        }
        self.pending -= 1;
        self.acts.get(seq as usize).cloned()
    }

    /// Appends a firing's bindings (moved out of `vars`, placeholders left behind) and matched
    /// facts (in the order matched) to the arenas: the record of a firing whose bindings were
    /// made again at selection. Returns the two ranges.
    #[inline]
    pub fn record(&mut self, vars: &mut [Value], facts: &[(u16, FactId)]) -> ((u32, u32), (u32, u32)) {
        let v0 = self.values.len() as u32;
        self.values.reserve(vars.len());
        for v in vars.iter_mut() {
            self.values.push(std::mem::replace(v, Value::Int(0)));
        }
        let f0 = self.facts.len() as u32;
        self.facts.extend_from_slice(facts);
        ((v0, self.values.len() as u32), (f0, self.facts.len() as u32))
    }

    /// The bindings stored at `range` (an activation's, or a record's from `record`).
    pub fn vars_at(&self, range: (u32, u32)) -> &[Value] {
        self.values.get(range.0 as usize..range.1 as usize).unwrap_or(&[])
    }

    /// The matched facts stored at `range` (an activation's, or a record's), with the index of
    /// the condition each matched.
    pub fn facts_at(&self, range: (u32, u32)) -> &[(u16, FactId)] {
        self.facts.get(range.0 as usize..range.1 as usize).unwrap_or(&[])
    }

    /// The bindings of an activation, to be swapped out when it fires: each activation is popped
    /// once, so its stored values can be moved instead of copied (no reference-count traffic).
    pub fn vars_mut(&mut self, a: &Activation) -> &mut [Value] {
        &mut self.values[a.vars.0 as usize..a.vars.1 as usize]
    }

    /// Activations created so far in this run.
    pub fn created(&self) -> usize {
        self.compacted + self.acts.len()
    }

    /// Activations stored that no longer wait (fired or dropped), whose slots `compact` frees.
    pub fn garbage(&self) -> usize {
        self.acts.len() - self.pending
    }

    /// Keeps only the waiting activations that `keep` accepts (by their facts), in their order,
    /// with their facts renumbered by `remap` (a retracted fact becomes `FactId::MAX`, which is
    /// never live) and their standing activations by `restand`; returns how many waiting ones it
    /// let go. Only for a run that keeps no firing records: a record points into the arenas this
    /// rebuilds (see `compact_keeping`).
    pub fn compact(
        &mut self,
        keep: impl Fn(&[(u16, FactId)]) -> bool,
        remap: impl Fn(FactId) -> FactId,
        restand: impl Fn(u32) -> u32,
    ) -> usize {
        self.compact_keeping(keep, remap, restand, std::iter::empty())
    }

    /// `compact`, keeping as well the bindings and facts at the given ranges (firing records,
    /// each a range of bindings and one of facts, disjoint from the others and from any waiting
    /// activation's), which are moved and set to their new places.
    pub fn compact_keeping<'r>(
        &mut self,
        keep: impl Fn(&[(u16, FactId)]) -> bool,
        remap: impl Fn(FactId) -> FactId,
        restand: impl Fn(u32) -> u32,
        records: impl Iterator<Item = (&'r mut (u32, u32), &'r mut (u32, u32))>,
    ) -> usize {
        let mut let_go = 0;
        let (mut acts, mut values, mut facts) = std::mem::take(&mut self.spare);
        for (vars, fs) in records {
            let v0 = values.len() as u32;
            let old = self
                .values
                .get_mut(vars.0 as usize..vars.1 as usize)
                .unwrap_or_default();
            values.extend(old.iter_mut().map(|v| std::mem::replace(v, Value::Int(0))));
            *vars = (v0, values.len() as u32);
            let f0 = facts.len() as u32;
            let old = self.facts.get(fs.0 as usize..fs.1 as usize).unwrap_or_default();
            facts.extend(old.iter().map(|&(c, f)| (c, remap(f))));
            *fs = (f0, facts.len() as u32);
        }
        for (w, word) in self.waiting.iter().enumerate() {
            let mut bits = *word;
            while bits != 0 {
                let q = &mut self.queues[w * 64 + bits.trailing_zeros() as usize];
                bits &= bits - 1;
                let waiting: Vec<u32> = q.items.drain(q.head..).collect();
                q.items.clear();
                q.head = 0;
                for seq in waiting {
                    let a = &self.acts[seq as usize];
                    if !keep(&self.facts[a.facts.0 as usize..a.facts.1 as usize]) {
                        let_go += 1;
                        continue;
                    }
                    let v0 = values.len() as u32;
                    for v in &mut self.values[a.vars.0 as usize..a.vars.1 as usize] {
                        values.push(std::mem::replace(v, Value::Int(0)));
                    }
                    let f0 = facts.len() as u32;
                    for &(c, f) in &self.facts[a.facts.0 as usize..a.facts.1 as usize] {
                        facts.push((c, remap(f)));
                    }
                    q.items.push(acts.len() as u32);
                    acts.push(Activation {
                        rule: a.rule,
                        mask: a.mask,
                        vars: (v0, values.len() as u32),
                        facts: (f0, facts.len() as u32),
                        standing: match a.standing {
                            NOT_STANDING => NOT_STANDING,
                            s => restand(s),
                        },
                    });
                }
            }
        }
        self.compacted += self.acts.len() - acts.len();
        self.pending -= let_go;
        for (w, word) in self.waiting.iter_mut().enumerate() {
            let mut bits = *word;
            while bits != 0 {
                let place = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if self.queues[place].items.is_empty() {
                    *word &= !(1u64 << (place % 64));
                }
            }
        }
        let mut old = (
            std::mem::replace(&mut self.acts, acts),
            std::mem::replace(&mut self.values, values),
            std::mem::replace(&mut self.facts, facts),
        );
        old.0.clear();
        old.1.clear();
        old.2.clear();
        self.spare = old;
        let_go
    }

    /// Activations still waiting.
    pub fn pending(&self) -> usize {
        self.pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::ir::Strategy;
    use proptest::prelude::*;

    proptest! {
        /// Pushes and pops interleaved in any way select, at every pop, the waiting activation
        /// the documented order puts first: salience high first, then by the strategy the rule
        /// declared first and the activation created first (`file_order`), the activation
        /// created last (`depth`) or first (`breadth`); under `depth` and `breadth`, the rules
        /// of first-match groups before the others of their salience, in file order (a model
        /// kept as a plain list, searched in full).
        #[test]
        fn pops_follow_conflict_resolution(
            saliences in proptest::collection::vec(prop_oneof![Just(i32::MIN), -3..3i32, Just(i32::MAX)], 1..70),
            grouped in proptest::collection::vec(any::<bool>(), 0..70),
            script in proptest::collection::vec((any::<bool>(), 0..1000usize), 0..200),
            runs in 1..3usize,
            strategy in prop_oneof![Just(Strategy::FileOrder), Just(Strategy::Depth), Just(Strategy::Breadth)],
        ) {
            let mut agenda = Agenda::new(&saliences, &grouped, strategy);
            let in_group = |r: u32| grouped.get(r as usize).copied().unwrap_or(false);
            for _ in 0..runs {
                agenda.reset();
                let mut model: Vec<(i32, u32, u32)> = Vec::new();
                let mut made = 0u32;
                for &(push, pick) in &script {
                    if push {
                        let rule = (pick % saliences.len()) as u32;
                        agenda.push(rule, u64::from(made), 0, &[], &[]);
                        model.push((saliences[rule as usize], rule, made));
                        made += 1;
                    } else {
                        let best = model
                            .iter()
                            .enumerate()
                            .max_by(|(_, a), (_, b)| {
                                let by_salience = a.0.cmp(&b.0);
                                let (ga, gb) = (in_group(a.1), in_group(b.1));
                                let by_group = match (strategy, ga, gb) {
                                    (Strategy::FileOrder, ..) => std::cmp::Ordering::Equal,
                                    (_, true, true) => b.1.cmp(&a.1),
                                    _ => ga.cmp(&gb),
                                };
                                match strategy {
                                    Strategy::FileOrder => by_salience.then(b.1.cmp(&a.1)).then(b.2.cmp(&a.2)),
                                    Strategy::Depth => by_salience.then(by_group).then(a.2.cmp(&b.2)),
                                    Strategy::Breadth => by_salience.then(by_group).then(b.2.cmp(&a.2)),
                                }
                            })
                            .map(|(i, _)| i);
                        let popped = agenda.pop().map(|a| (a.rule, a.mask));
                        let expected = best.map(|i| model.remove(i)).map(|(_, r, q)| (r, u64::from(q)));
                        prop_assert_eq!(popped, expected);
                    }
                    prop_assert_eq!(agenda.pending(), model.len());
                }
            }
        }
    }
}
