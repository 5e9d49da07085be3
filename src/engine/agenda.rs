//! The agenda: activations waiting to fire, ordered by conflict resolution.
//!
//! Order (documented in the README): higher salience first; then the rule declared earlier in the
//! file; then the activation created earlier. Every key is a number, so the order is total and
//! deterministic. Bindings and matched facts live in flat arenas reused across runs.

use super::memory::FactId;
use super::value::Value;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A rule with a full set of bindings from its join conditions.
#[derive(Debug, Clone)]
pub struct Activation {
    pub rule: u32,
    pub seq: u32,
    pub mask: u64,
    vars: (u32, u32),
    facts: (u32, u32),
}

type Key = (i32, Reverse<u32>, Reverse<u32>, u32);

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

    /// Adds an activation.
    pub fn push(&mut self, rule: u32, salience: i32, mask: u64, vars: &[Value], facts: &[(u16, FactId)]) {
        let seq = self.acts.len() as u32;
        let v0 = self.values.len() as u32;
        // Only bound slots are copied: an unbound slot holds a stale value of an earlier match,
        // which nothing reads (the mask says unbound), so a placeholder costs no reference count.
        self.values.extend(vars.iter().enumerate().map(|(i, v)| {
            if i >= 64 || mask & (1u64 << i) != 0 {
                v.clone()
            } else {
                Value::Int(0)
            }
        }));
        let f0 = self.facts.len() as u32;
        self.facts.extend_from_slice(facts);
        self.acts.push(Activation {
            rule,
            seq,
            mask,
            vars: (v0, self.values.len() as u32),
            facts: (f0, self.facts.len() as u32),
        });
        self.heap.push((salience, Reverse(rule), Reverse(seq), seq));
    }

    /// Takes the activation conflict resolution selects.
    pub fn pop(&mut self) -> Option<Activation> {
        let (_, _, _, i) = self.heap.pop()?;
        self.acts.get(i as usize).cloned()
    }

    /// The bindings of an activation.
    pub fn vars(&self, a: &Activation) -> &[Value] {
        &self.values[a.vars.0 as usize..a.vars.1 as usize]
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
