//! The agenda: activations waiting to fire, ordered by conflict resolution.
//!
//! Order (documented in the README): higher salience first; then the rule declared earlier in the
//! file; then the activation created earlier. Every key is a number, so the order is total and
//! deterministic. Bindings and matched facts live in flat arenas reused across runs; a firing's
//! record points into them (`Session::record_and_act`), so an activation that fires as it was
//! stored is recorded with no copy (its slots in the arena become the record's).

use super::memory::FactId;
use super::value::Value;
use std::collections::BinaryHeap;

/// A rule with a full set of bindings from its join conditions.
#[derive(Debug, Clone)]
pub struct Activation {
    pub rule: u32,
    pub seq: u32,
    pub mask: u64,
    /// Where its bindings and matched facts are in the agenda's arenas (`Agenda::vars_at`).
    pub vars: (u32, u32),
    pub facts: (u32, u32),
}

/// The conflict-resolution order packed into one number, largest first: salience (offset to be
/// unsigned) in the top 32 bits, then the rule's number and the activation's number, each
/// complemented so that the smaller comes first. One integer comparison per heap step, where a
/// tuple compared field by field; the activation's number is read back from the low bits.
type Key = u128;

fn key(salience: i32, rule: u32, seq: u32) -> Key {
    let salience = (i64::from(salience) - i64::from(i32::MIN)) as u128;
    (salience << 64) | (u128::from(!rule) << 32) | u128::from(!seq)
}

fn seq_of(key: Key) -> u32 {
    !(key as u32)
}

/// The pending activations.
#[derive(Debug, Default)]
pub struct Agenda {
    acts: Vec<Activation>,
    values: Vec<Value>,
    facts: Vec<(u16, FactId)>,
    heap: BinaryHeap<Key>,
}

impl Agenda {
    /// Forgets everything, keeping allocations.
    pub fn reset(&mut self) {
        self.acts.clear();
        self.values.clear();
        self.facts.clear();
        self.heap.clear();
    }

    /// Adds an activation. `elided`: bound slots nothing reads after selection
    /// (`RulePlan::elided`), kept as placeholders.
    pub fn push(&mut self, rule: u32, salience: i32, mask: u64, elided: u64, vars: &[Value], facts: &[(u16, FactId)]) {
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
            seq,
            mask,
            vars: (v0, self.values.len() as u32),
            facts: (f0, self.facts.len() as u32),
        });
        self.heap.push(key(salience, rule, seq));
    }

    /// Takes the activation conflict resolution selects.
    pub fn pop(&mut self) -> Option<Activation> {
        let i = seq_of(self.heap.pop()?);
        self.acts.get(i as usize).cloned()
    }

    /// Appends a firing's bindings (moved out of `vars`, placeholders left behind) and matched
    /// facts (in the order matched) to the arenas: the record of a firing whose bindings were
    /// made again at selection. Returns the two ranges.
    pub fn record(&mut self, vars: &mut [Value], facts: &[(u16, FactId)]) -> ((u32, u32), (u32, u32)) {
        let v0 = self.values.len() as u32;
        self.values
            .extend(vars.iter_mut().map(|v| std::mem::replace(v, Value::Int(0))));
        let f0 = self.facts.len() as u32;
        self.facts.extend_from_slice(facts);
        ((v0, self.values.len() as u32), (f0, self.facts.len() as u32))
    }

    /// The bindings stored at `range` (an activation's, or a record's from `record`).
    pub fn vars_at(&self, range: (u32, u32)) -> &[Value] {
        self.values.get(range.0 as usize..range.1 as usize).unwrap_or(&[])
    }

    /// The matched facts stored at `range`.
    pub fn facts_at(&self, range: (u32, u32)) -> &[(u16, FactId)] {
        self.facts.get(range.0 as usize..range.1 as usize).unwrap_or(&[])
    }

    /// The bindings of an activation, to be swapped out when it fires: each activation is popped
    /// once, so its stored values can be moved instead of copied (no reference-count traffic).
    pub fn vars_mut(&mut self, a: &Activation) -> &mut [Value] {
        &mut self.values[a.vars.0 as usize..a.vars.1 as usize]
    }

    /// The facts an activation matched, with the index of the condition each matched.
    pub fn facts(&self, a: &Activation) -> &[(u16, FactId)] {
        &self.facts[a.facts.0 as usize..a.facts.1 as usize]
    }

    /// Activations created so far in this run.
    pub fn created(&self) -> usize {
        self.acts.len()
    }

    /// Activations still waiting.
    pub fn pending(&self) -> usize {
        self.heap.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The packed key orders as the documented rule: salience (any i32) high first, then the
    /// rule declared first, then the activation created first.
    #[test]
    fn the_packed_key_orders_as_conflict_resolution() {
        let saliences = [i32::MIN, -20, -1, 0, 1, 90, i32::MAX];
        let numbers = [0u32, 1, 7, u32::MAX - 1];
        let mut all = Vec::new();
        for &s in &saliences {
            for &r in &numbers {
                for &q in &numbers {
                    all.push((s, r, q));
                }
            }
        }
        for &(s1, r1, q1) in &all {
            assert_eq!(seq_of(key(s1, r1, q1)), q1);
            for &(s2, r2, q2) in &all {
                let expected = s1.cmp(&s2).then(r2.cmp(&r1)).then(q2.cmp(&q1));
                assert_eq!(
                    key(s1, r1, q1).cmp(&key(s2, r2, q2)),
                    expected,
                    "{s1} {r1} {q1} vs {s2} {r2} {q2}"
                );
            }
        }
    }
}
