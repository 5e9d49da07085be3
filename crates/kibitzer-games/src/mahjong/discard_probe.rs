//! The question behind every discard option, asked of a hand that has just drawn (14 − 3k
//! tiles): "after discarding this kind, what is the shanten, and which draws lower it?".
//!
//! Asking it one discard at a time through [`Probe`](super::shanten::Probe) folds the four suit
//! distance arrays afresh for every discard (eight min-plus products each). A discard changes one
//! suit only, so [`DrawnProbe`] folds the whole hand's suits in pairs once and each discard then
//! costs four products. A draw then changes one suit of the 13 − 3k tiles left, and the question
//! is only whether the shanten drops, so the last min-plus step is folded into a ten-byte vector
//! per suit ([`Threshold`]) and each draw is one table lookup and a byte-parallel add.
//!
//! Suits whose copies are capped by called melds use the exact capped distances through the
//! per-thread memo of `shanten.rs`, keyed by the suit keys the probe already holds (the caps are
//! fixed for the hand, so their keys are packed once). The answers are exactly those of `Probe` (pinned by a
//! test over random hands with and without melds).

use super::meld::Meld;
use super::shanten::{
    capped_suit_dist_keyed, combine, combine_final, meld_caps, pack_suit, pair_slots, pairs_shanten, rank_weight,
    sets_needed, suit_keys, suit_range, table_dist,
};
use super::tables::{Dist, TARGETS};
use super::tile::Counts;
use super::win::suit_of;

/// The three suits other than `a`.
fn others3(a: usize) -> [usize; 3] {
    match a {
        0 => [1, 2, 3],
        1 => [0, 2, 3],
        2 => [0, 1, 3],
        _ => [0, 1, 2],
    }
}

/// The two suits other than the distinct suits `a` and `s`.
fn others2(a: usize, s: usize) -> [usize; 2] {
    let mut out = [0; 2];
    let mut n = 0;
    for x in 0..4 {
        if x != a && x != s && n < 2 {
            out[n] = x;
            n += 1;
        }
    }
    out
}

/// A drawn hand prepared for discard-then-draw questions.
pub(super) struct DrawnProbe {
    counts: Counts,
    keys: [u32; 4],
    /// Copies available per kind after the called melds.
    caps: Counts,
    capped: [bool; 4],
    dists: [Dist; 4],
    /// `pairs[a][b]`: min-plus product of suits `a` and `b` (a ≠ b).
    pairs: [[Dist; 4]; 4],
    /// `untouched[a]`: min-plus product of the three suits other than `a`.
    untouched: [Dist; 4],
    needed: usize,
    concealed: bool,
    /// Per suit, the key of its caps (for the capped-distance memo).
    caps_keys: [u32; 4],
}

/// The 13 − 3k tiles left after one discard, ready for draw questions.
pub(super) struct AfterDiscard {
    counts: Counts,
    keys: [u32; 4],
    shanten: i8,
    /// Per suit: the last min-plus step against the other three suits, with the "lower than
    /// now" threshold folded in (see [`Threshold`]).
    tests: [Threshold; 4],
    pair_slots: Option<(u32, u32)>,
}

/// `combine_final(rest, d, needed) <= now` for any ten-byte distance array `d`, as one add per
/// eight bytes: byte j holds `w_j + 127 − now`, where `combine_final` is `min_j (w_j + d_j)`.
/// A sum byte has its high bit clear exactly when `w_j + d_j <= now`. No byte carries: `w_j` is
/// clamped to 64 (any larger term exceeds every shanten), distances are at most 60, and
/// 64 + 60 + 127 < 256.
#[derive(Clone, Copy)]
struct Threshold {
    low: u64,
    high: u16,
}

impl Threshold {
    fn new(rest: &Dist, needed: usize, now: i8) -> Threshold {
        let needed = needed.min(4);
        // A shanten below −1 does not exist: with `now` < 0 no byte may ever be reached.
        let (bias, live) = if now < 0 {
            (127, false)
        } else {
            (127 - now.min(63) as u8, true)
        };
        let mut w = [64u8; TARGETS];
        for mb in (0..=needed).filter(|_| live) {
            let ma = needed - mb;
            w[2 * mb + 1] = rest[2 * ma].min(64);
            w[2 * mb] = rest[2 * ma + 1].min(64);
        }
        let mut bytes = [0u8; TARGETS];
        for (b, &x) in bytes.iter_mut().zip(&w) {
            *b = x + bias;
        }
        let mut low = [0u8; 8];
        low.copy_from_slice(&bytes[..8]);
        Threshold {
            low: u64::from_le_bytes(low),
            high: u16::from_le_bytes([bytes[8], bytes[9]]),
        }
    }

    /// Whether the suit distances `d` bring the standard form to `now` or below.
    #[inline(always)]
    fn reached(&self, d: &Dist) -> bool {
        let mut low = [0u8; 8];
        low.copy_from_slice(&d[..8]);
        let sum_low = self.low + u64::from_le_bytes(low);
        let sum_high = self.high + u16::from_le_bytes([d[8], d[9]]);
        (!sum_low & 0x8080_8080_8080_8080) != 0 || (!sum_high & 0x8080) != 0
    }
}

impl DrawnProbe {
    pub(super) fn new(counts: &Counts, melds: &[Meld]) -> DrawnProbe {
        let (caps, capped) = meld_caps(melds);
        let mut probe = DrawnProbe {
            counts: *counts,
            keys: suit_keys(counts),
            caps,
            capped,
            dists: [[0; TARGETS]; 4],
            pairs: [[[0; TARGETS]; 4]; 4],
            untouched: [[0; TARGETS]; 4],
            needed: sets_needed(melds),
            concealed: melds.is_empty(),
            caps_keys: [0, 1, 2, 3].map(|s| pack_suit(&caps[suit_range(s)])),
        };
        for s in 0..4 {
            let key = probe.keys[s];
            probe.dists[s] = probe.suit_dist(s, counts, key);
        }
        for a in 0..4 {
            for b in a + 1..4 {
                let p = combine(&probe.dists[a], &probe.dists[b]);
                probe.pairs[a][b] = p;
                probe.pairs[b][a] = p;
            }
        }
        // The three suits a discard from suit a leaves alone, folded: (b, c) paired, then e.
        for a in 0..4 {
            let [b, c, e] = others3(a);
            probe.untouched[a] = combine(&probe.pairs[b][c], &probe.dists[e]);
        }
        probe
    }

    /// Distances of suit `s` of `counts`, whose key in that suit is `key`.
    fn suit_dist(&self, s: usize, counts: &Counts, key: u32) -> Dist {
        if !self.capped[s] {
            return *table_dist(s, key);
        }
        let range = suit_range(s);
        capped_suit_dist_keyed(
            key,
            self.caps_keys[s],
            &counts[range.clone()],
            &self.caps[range],
            s != 3,
            self.needed,
        )
    }

    /// The hand after discarding one tile of kind `d` (which must be held).
    pub(super) fn discard(&self, d: usize) -> AfterDiscard {
        let a = suit_of(d);
        let mut counts = self.counts;
        counts[d] = counts[d].saturating_sub(1);
        let mut keys = self.keys;
        if self.counts[d] > 0 && self.counts[d] <= 4 {
            keys[a] -= rank_weight(d);
        }
        let dist_a = self.suit_dist(a, &counts, keys[a]);
        // rest[s]: every suit but s, with suit a's distances after the discard.
        let mut rest = [[0u8; TARGETS]; 4];
        for (s, r) in rest.iter_mut().enumerate() {
            *r = if s == a {
                self.untouched[a]
            } else {
                let [b, c] = others2(a, s);
                combine(&self.pairs[b][c], &dist_a)
            };
        }
        let standard = combine_final(&rest[a], &dist_a, self.needed) as i8 - 1;
        let pair_slots = self.concealed.then(|| pair_slots(&counts));
        let shanten = match pair_slots {
            Some((full, half)) => standard.min(pairs_shanten(full, half)),
            None => standard,
        };
        let tests = [0, 1, 2, 3].map(|s| Threshold::new(&rest[s], self.needed, shanten));
        AfterDiscard {
            counts,
            keys,
            shanten,
            tests,
            pair_slots,
        }
    }

    /// Whether drawing a tile of kind `index` lowers the shanten of `after`.
    pub(super) fn lowers(&self, after: &AfterDiscard, index: usize) -> bool {
        let held = after.counts[index];
        if held >= 4 {
            return false;
        }
        if let Some((mut full, mut half)) = after.pair_slots {
            if held & 1 == 1 {
                half = half.saturating_sub(1);
                full += 1;
            } else {
                half += 1;
            }
            if pairs_shanten(full, half) < after.shanten {
                return true;
            }
        }
        let s = suit_of(index);
        let key = after.keys[s] + rank_weight(index);
        let uncapped = table_dist(s, key);
        let test = &after.tests[s];
        // Caps only take targets away, so the capped distances are never below the table's:
        // when the table's do not reach, neither do the capped ones (most draws stop here, and
        // the exact DP runs only for the draws that may help).
        if !test.reached(uncapped) || !self.capped[s] {
            return test.reached(uncapped);
        }
        let mut counts = after.counts;
        counts[index] += 1;
        test.reached(&self.suit_dist(s, &counts, key))
    }
}

impl AfterDiscard {
    /// Shanten of the tiles left (both forms).
    pub(super) fn shanten(&self) -> i8 {
        self.shanten
    }
}

#[cfg(test)]
mod tests {
    use super::super::meld::meld_counts;
    use super::super::notation::parse_melds;
    use super::super::shanten::Probe;
    use super::super::tile::KINDS;
    use super::*;
    use proptest::prelude::*;

    /// Every discard and every draw of `counts` (a drawn hand) asked both ways.
    fn agree(counts: &Counts, melds: &[Meld]) {
        let drawn = DrawnProbe::new(counts, melds);
        for d in 0..KINDS {
            if counts[d] == 0 {
                continue;
            }
            let after = drawn.discard(d);
            let mut left = *counts;
            left[d] -= 1;
            let probe = Probe::new(&left, melds);
            let now = probe.shanten();
            assert_eq!(after.shanten(), now, "discard {d} of {counts:?}");
            for (i, &held) in left.iter().enumerate() {
                if held >= 4 {
                    assert!(!drawn.lowers(&after, i));
                    continue;
                }
                assert_eq!(
                    drawn.lowers(&after, i),
                    probe.shanten_with(i) < now,
                    "discard {d}, draw {i} of {counts:?} with {} meld(s)",
                    melds.len()
                );
            }
        }
    }

    /// A random drawn hand of `14 − 3 × melds` tiles from the copies the melds leave.
    fn hand(seed: u64, melds: &[Meld]) -> Counts {
        let used = meld_counts(melds);
        let mut pool: Vec<usize> = (0..KINDS)
            .flat_map(|k| std::iter::repeat_n(k, 4 - used[k] as usize))
            .collect();
        let mut x = seed | 1;
        let mut counts = [0u8; KINDS];
        for _ in 0..14 - 3 * melds.len() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let k = pool.swap_remove((x % pool.len() as u64) as usize);
            counts[k] += 1;
        }
        counts
    }

    #[test]
    fn fixed_hands_agree_with_the_probe() {
        let none: &[Meld] = &[];
        for (text, melds) in [
            ("1112345678999m E", ""),
            ("1111m 2222m 3333m EE", ""),
            ("123456789m EEEE C", ""),
            ("1122334455667m 7m", ""),
            ("2m 456m 789m EE 3m", "111m"),
            ("5m 55p EE", "111m 222p 333s"),
            ("EE", "EEEE SSS WWW NNN"),
        ] {
            let counts = super::super::notation::parse_counts(text).unwrap();
            let melds = if melds.is_empty() {
                none.to_vec()
            } else {
                parse_melds(melds).unwrap()
            };
            agree(&counts, &melds);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn random_hands_agree_with_the_probe(seed in any::<u64>(), meld_pick in 0usize..6) {
            let meld_sets = ["", "111m", "234p", "555s 678m", "EEEE", "123m 456m 789m"];
            let text = meld_sets[meld_pick];
            let melds = if text.is_empty() { Vec::new() } else { parse_melds(text).unwrap() };
            agree(&hand(seed, &melds), &melds);
        }
    }
}
