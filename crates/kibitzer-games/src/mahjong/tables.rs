//! Per-suit tables over every count vector of one suit (5^9 keys for a numbered suit, 5^7 for the
//! honours), built once at first use.
//!
//! For a suit's counts `h` and a target of `m` melds (0–4) plus `p` pairs (0–1) lying in that suit,
//! `dist[h][2m+p]` is the fewest tiles that must be added to `h` so that it contains such a target,
//! with no kind used more than four times. Shanten is then a min-plus combination over the suits
//! (see `shanten.rs`), which is exact: it is the definition of shanten (fewest exchanges to a
//! win), not a block-counting estimate, so isolated-tile shortages and quads held in hand come out
//! right by construction. A second, small bit table answers "is this suit fully made of sets
//! (with or without the one pair)" for the win check.

use std::sync::OnceLock;

/// Powers of five: the weight of each rank in a suit key.
pub(super) const POW5: [u32; 10] = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125];

/// Number of (melds, pair) targets per key: melds 0–4 × pair 0–1.
pub(super) const TARGETS: usize = 10;

/// Distance entries of one suit key, indexed by `2 * melds + pair`.
pub(super) type Dist = [u8; TARGETS];

/// Tables of one suit shape (numbered suit or honours).
pub(super) struct SuitTable {
    dist: Vec<Dist>,
    /// One bit per key: the counts are all sets (sum ≡ 0 mod 3) or all sets and one pair
    /// (sum ≡ 2 mod 3). The sum decides which, so one bit is enough.
    complete: Vec<u64>,
}

impl SuitTable {
    /// Distance entries for a suit key (keys come from counts clamped to 0–4, so always in range).
    #[inline]
    pub(super) fn dist(&self, key: u32) -> &Dist {
        &self.dist[key as usize]
    }

    /// Whether the suit is made only of sets, plus the one pair when its size is 2 mod 3.
    #[inline(always)]
    pub(super) fn complete(&self, key: u32) -> bool {
        let bit = key as usize;
        (self.complete[bit >> 6] >> (bit & 63)) & 1 == 1
    }

    /// Builds the tables for a suit of `len` ranks; `sequences` is false for the honours.
    fn build(len: usize, sequences: bool) -> SuitTable {
        let size = POW5[len] as usize;
        let most_sets = most_sets_contained(len, sequences);
        let dist = distances(len, &most_sets);
        let mut complete = vec![0u64; size.div_ceil(64)];
        let mut digits = vec![0u8; len];
        for (key, sets) in most_sets.iter().enumerate() {
            let sum: usize = digits.iter().map(|&d| d as usize).sum();
            if sum <= 14 {
                let all_sets = sum.is_multiple_of(3) && sets[0] as usize == sum / 3;
                let sets_and_pair = sum % 3 == 2 && sets[1] >= 0 && sets[1] as usize == (sum - 2) / 3;
                if all_sets || sets_and_pair {
                    complete[key >> 6] |= 1 << (key & 63);
                }
            }
            increment(&mut digits);
        }
        SuitTable { dist, complete }
    }
}

/// Odometer step over base-5 digits (lowest rank first).
fn increment(digits: &mut [u8]) {
    for d in digits.iter_mut() {
        if *d < 4 {
            *d += 1;
            return;
        }
        *d = 0;
    }
}

/// For every key: the most sets (capped at 4) the counts contain without a pair `[0]` and with
/// exactly one pair `[1]` (−1 when no pair fits). Keys only decrease when tiles are removed, so one
/// ascending pass sees every sub-hand before the hand.
fn most_sets_contained(len: usize, sequences: bool) -> Vec<[i8; 2]> {
    let size = POW5[len] as usize;
    let mut best = vec![[0i8, -1i8]; size];
    let mut digits = vec![0u8; len];
    for key in 1..size {
        increment(&mut digits);
        let Some(low) = digits.iter().position(|&d| d > 0) else {
            continue;
        };
        let at = |k: usize| best[k];
        let lowest = POW5[low] as usize;
        // The lowest tile is either left over…
        let [mut no_pair, mut pair] = at(key - lowest);
        let mut take = |rest: [i8; 2]| {
            no_pair = no_pair.max((rest[0] + 1).min(4));
            if rest[1] >= 0 {
                pair = pair.max((rest[1] + 1).min(4));
            }
        };
        // …or starts a triplet…
        if digits[low] >= 3 {
            take(at(key - 3 * lowest));
        }
        // …or a sequence…
        if sequences && low + 2 < len && digits[low + 1] > 0 && digits[low + 2] > 0 {
            take(at(key - lowest - POW5[low + 1] as usize - POW5[low + 2] as usize));
        }
        // …or the pair.
        if digits[low] >= 2 {
            pair = pair.max(at(key - 2 * lowest)[0]);
        }
        best[key] = [no_pair, pair];
    }
    best
}

/// Fewest added tiles to contain each target. Adding one tile moves to a larger key, so one
/// descending pass has every successor ready: `d(h) = 0` if `h` contains the target, else
/// `1 + min d(h + one tile)` over kinds held fewer than four times.
fn distances(len: usize, most_sets: &[[i8; 2]]) -> Vec<Dist> {
    let size = POW5[len] as usize;
    let mut dist = vec![[u8::MAX; TARGETS]; size];
    let mut digits = vec![4u8; len];
    for key in (0..size).rev() {
        let mut nearest = [u8::MAX; TARGETS];
        for (rank, &d) in digits.iter().enumerate() {
            if d < 4 {
                let next = &dist[key + POW5[rank] as usize];
                for (n, &x) in nearest.iter_mut().zip(next.iter()) {
                    *n = (*n).min(x);
                }
            }
        }
        let sets = most_sets[key];
        let mut entry = [0u8; TARGETS];
        for (target, e) in entry.iter_mut().enumerate() {
            let (melds, pair) = ((target / 2) as i8, target % 2);
            if sets[pair] < melds {
                *e = nearest[target].saturating_add(1);
            }
        }
        dist[key] = entry;
        decrement(&mut digits);
    }
    dist
}

fn decrement(digits: &mut [u8]) {
    for d in digits.iter_mut() {
        if *d > 0 {
            *d -= 1;
            return;
        }
        *d = 4;
    }
}

/// The two tables, built together on first use (about a quarter of a second, 20 MB).
pub(super) struct Tables {
    /// Numbered suits (m, p, s share one table).
    pub(super) number: SuitTable,
    /// The seven honours.
    pub(super) honor: SuitTable,
}

/// The shared tables.
pub(super) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Tables {
        number: SuitTable::build(9, true),
        honor: SuitTable::build(7, false),
    })
}

/// Warms the tables up front (so a benchmark or a server does not pay for them on the first query).
pub fn prepare_tables() {
    let _ = tables();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(counts: &[u8]) -> u32 {
        counts.iter().enumerate().map(|(i, &c)| c as u32 * POW5[i]).sum()
    }

    #[test]
    fn small_suits_have_the_expected_distances() {
        let t = tables();
        // Empty suit: m melds + p pairs cost 3m + 2p tiles.
        assert_eq!(t.number.dist(0), &[0, 2, 3, 5, 6, 8, 9, 11, 12, 14]);
        // 1m 3m: one meld needs one tile (2m), a pair one (1m or 3m), both three (5 tiles from 2).
        let d = t.number.dist(key(&[1, 0, 1]));
        assert_eq!((d[2], d[1], d[3]), (1, 1, 3));
        // Four 1m: a pair or a triplet is there; triplet + pair needs two more (123m + 11m), so do two sets.
        let four = t.number.dist(key(&[4]));
        assert_eq!((four[1], four[2], four[3], four[4]), (0, 0, 2, 2));
        assert!(t.number.complete(key(&[3, 1, 1, 1])));
        assert!(!t.number.complete(key(&[3, 1, 0, 1])));
        assert!(t.number.complete(key(&[3, 1, 1])));
        assert!(t.honor.complete(key(&[3, 0, 2])));
        assert!(!t.honor.complete(key(&[1, 1, 1])));
    }
}
