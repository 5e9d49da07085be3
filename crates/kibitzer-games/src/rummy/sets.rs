//! The column scan: how one rank's set usage splits into sets, precomputed once.
//!
//! A column state is the number of copies of each suit given to sets (0..=2 per suit, base-3
//! index) and the mask of suits with a dumped copy. Its count is the number of multisets of sets
//! (3 or 4 distinct suits) using exactly those copies such that no dumped card completes a set
//! of three (maximality); a column whose dump holds three suits is a dumped set: count 0.

use std::sync::OnceLock;

/// Base-3 index of a per-suit usage vector.
pub(super) fn usage_index(usage: [u8; 4]) -> usize {
    usage.iter().rev().fold(0usize, |acc, &u| acc * 3 + u as usize)
}

pub(super) struct SetTable {
    /// decompositions[usage] = every multiset of suit masks (sorted) summing to `usage`.
    decompositions: Vec<Vec<Vec<u8>>>,
    /// counts[usage * 16 + dump_mask] = maximal decompositions.
    counts: Vec<u8>,
}

const SET_MASKS: [u8; 5] = [0b0111, 0b1011, 0b1101, 0b1110, 0b1111];

fn usage_of(masks: &[u8]) -> [u8; 4] {
    let mut usage = [0u8; 4];
    for m in masks {
        for (s, u) in usage.iter_mut().enumerate() {
            *u += (m >> s) & 1;
        }
    }
    usage
}

fn grow(from: usize, current: &mut Vec<u8>, out: &mut [Vec<Vec<u8>>]) {
    let usage = usage_of(current);
    if usage.iter().any(|&u| u > 2) {
        return;
    }
    out[usage_index(usage)].push(current.clone());
    for (i, &mask) in SET_MASKS.iter().enumerate().skip(from) {
        current.push(mask);
        grow(i, current, out);
        current.pop();
    }
}

/// Whether no dumped suit completes a three-card set of the decomposition.
pub(super) fn decomposition_is_maximal(sets: &[u8], dump_mask: u8) -> bool {
    sets.iter().all(|&m| m.count_ones() == 4 || (!m & 0xF) & dump_mask == 0)
}

impl SetTable {
    fn build() -> SetTable {
        let mut decompositions = vec![Vec::new(); 81];
        grow(0, &mut Vec::new(), &mut decompositions);
        let mut counts = vec![0u8; 81 * 16];
        for (usage, list) in decompositions.iter().enumerate() {
            for dump in 0..16u8 {
                if dump.count_ones() >= 3 {
                    continue;
                }
                counts[usage * 16 + dump as usize] =
                    list.iter().filter(|d| decomposition_is_maximal(d, dump)).count() as u8;
            }
        }
        SetTable { decompositions, counts }
    }

    pub(super) fn get() -> &'static SetTable {
        static TABLE: OnceLock<SetTable> = OnceLock::new();
        TABLE.get_or_init(SetTable::build)
    }

    #[inline]
    pub(super) fn count(&self, usage: usize, dump_mask: u8) -> u8 {
        self.counts.get(usage * 16 + dump_mask as usize).copied().unwrap_or(0)
    }

    /// Whether this usage splits into sets at all (the empty usage does).
    #[inline]
    pub(super) fn splittable(&self, usage: usize) -> bool {
        self.decompositions.get(usage).is_some_and(|d| !d.is_empty())
    }

    pub(super) fn decompositions(&self, usage: usize) -> &[Vec<u8>] {
        self.decompositions.get(usage).map(|v| v.as_slice()).unwrap_or(&[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_columns() {
        let t = SetTable::get();
        // No usage: the empty decomposition, fine unless three suits are dumped.
        assert_eq!(t.count(0, 0b0011), 1);
        assert_eq!(t.count(0, 0b0111), 0);
        // S H D once: one set; dumping C would complete it.
        assert_eq!(t.count(usage_index([1, 1, 1, 0]), 0), 1);
        assert_eq!(t.count(usage_index([1, 1, 1, 0]), 0b1000), 0);
        // All suits twice: two sets of four only.
        assert_eq!(t.decompositions(usage_index([2, 2, 2, 2])).len(), 1);
        // S H twice, D C once: {S H D} + {S H C}.
        assert_eq!(t.count(usage_index([2, 2, 1, 1]), 0), 1);
        // Usage that cannot be split into sets.
        assert_eq!(t.count(usage_index([1, 1, 0, 0]), 0), 0);
        assert_eq!(t.count(usage_index([2, 1, 1, 1]), 0), 0);
    }
}
