//! Nested enumeration of all 2,598,960 hands, one table load per hand: the state of each prefix is
//! computed in the outer loops, the innermost loop reads the row of the four-card prefix.

use super::rank::{HandRank, DISTINCT_RANKS};
use super::tables::{tables, Tables, ROW};

/// Calls `visit(row)` with, for each four-card prefix `a < b < c < d`, the final ranks of the hands
/// completed by each card `e > d` (the slice `row[d + 1..]` of that prefix's row).
pub(super) fn for_each_final_row(t: &Tables, mut visit: impl FnMut(&[u32])) {
    let next = &t.next;
    let at = |state: u32, card: usize| next.get(state as usize + card).copied().unwrap_or(0);
    for a in 0..ROW - 4 {
        let sa = at(t.root, a);
        for b in a + 1..ROW - 3 {
            let sb = at(sa, b);
            for c in b + 1..ROW - 2 {
                let sc = at(sb, c);
                for d in c + 1..ROW - 1 {
                    let sd = at(sc, d) as usize;
                    visit(next.get(sd + d + 1..sd + ROW).unwrap_or(&[]));
                }
            }
        }
    }
}

/// Ranks all 2,598,960 hands: the sum of their ranks and the number of hands (a checksum the
/// optimiser cannot skip).
pub fn rank_checksum() -> (u64, u64) {
    let t = tables();
    let (mut sum, mut hands) = (0u64, 0u64);
    for_each_final_row(t, |row| {
        sum += row.iter().map(|&v| u64::from(v)).sum::<u64>();
        hands += row.len() as u64;
    });
    (sum, hands)
}

/// Hands per category over all 2,598,960 hands: `counts[c]` for category c = 1..=9 (index 0
/// unused).
pub fn category_counts() -> [u64; 10] {
    let t = tables();
    let category_of: Vec<u8> = (0..DISTINCT_RANKS).map(|v| HandRank(v).category()).collect();
    // Four interleaved histograms, so consecutive hands of one category do not wait on each other.
    let mut lanes = [[0u64; 10]; 4];
    for_each_final_row(t, |row| {
        for (i, &v) in row.iter().enumerate() {
            let category = category_of.get(v as usize).copied().unwrap_or(0);
            lanes[i % 4][usize::from(category)] += 1;
        }
    });
    std::array::from_fn(|category| lanes.iter().map(|lane| lane[category]).sum())
}
