//! Shanten: the fewest tile exchanges from a winning hand, minus one (−1 = won, 0 = ready).
//!
//! Standard form: per-suit distance tables combined by min-plus over how the remaining sets and
//! the pair are spread over the suits. Called melds lower the sets still needed, and lower the
//! copies of their kinds still available: a suit touched by a meld is computed with those caps by
//! a small exact DP (`capped_suit_dist`) instead of the table, which assumes four copies.
//! Seven pairs (only without called melds): a quad counts as two pairs.

use super::meld::{meld_counts, Meld};
use super::tables::{tables, Dist, POW5, TARGETS};
use super::tile::{Counts, KINDS};

/// Suit keys (base-5 over ranks, counts clamped to 4) of m, p, s and honours.
#[inline]
pub(super) fn suit_keys(counts: &Counts) -> [u32; 4] {
    let k = suit_keys_and_sums(counts);
    [k[0].0, k[1].0, k[2].0, k[3].0]
}

/// (key, tile count) of each suit. Eight ranks at a time in a u64 (SWAR) when every count is at
/// most 4, which real hands always satisfy; otherwise rank by rank with counts clamped to 4.
#[inline(always)]
pub(super) fn suit_keys_and_sums(counts: &Counts) -> [(u32, u32); 4] {
    #[inline(always)]
    fn slow(c: &[u8]) -> (u32, u32) {
        let key = c.iter().rev().fold(0u32, |k, &x| k * 5 + x.min(4) as u32);
        (key, c.iter().map(|&x| x as u32).sum())
    }
    #[inline(always)]
    fn fast(c: &[u8]) -> (u32, u32) {
        let mut bytes = [0u8; 8];
        let n = c.len().min(8);
        bytes[..n].copy_from_slice(&c[..n]);
        let ninth = c.get(8).copied().unwrap_or(0);
        let x = u64::from_le_bytes(bytes);
        // every byte (and the ninth count) at most 4?
        if (x | x.wrapping_add(0x7B7B_7B7B_7B7B_7B7B)) & 0x8080_8080_8080_8080 != 0 || ninth > 4 {
            return slow(c);
        }
        let sum = (x.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32 + ninth as u32;
        let pairs = (x & 0x00FF_00FF_00FF_00FF) + 5 * ((x >> 8) & 0x00FF_00FF_00FF_00FF);
        let quads = (pairs & 0x0000_FFFF_0000_FFFF) + 25 * ((pairs >> 16) & 0x0000_FFFF_0000_FFFF);
        let eight = (quads & 0xFFFF_FFFF) + 625 * (quads >> 32);
        (eight as u32 + 390_625 * ninth as u32, sum)
    }
    [
        fast(&counts[0..9]),
        fast(&counts[9..18]),
        fast(&counts[18..27]),
        fast(&counts[27..34]),
    ]
}

/// Min-plus product of two suits' distances over (melds, pair). Entries stay small (at most
/// 14 from the tables, 60 for "impossible" from the capped DP), so plain adds cannot overflow.
///
/// On x86-64 all ten targets at once (`sse2::combine`: a turn decision makes some forty of
/// these); elsewhere, and as the tests' oracle, target by target.
#[inline(always)]
pub(super) fn combine(a: &Dist, b: &Dist) -> Dist {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: SSE2 is part of the x86-64 baseline, so every x86-64 CPU has it.
        unsafe { sse2::combine(a, b) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        combine_by_target(a, b)
    }
}

/// [`combine`] target by target.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn combine_by_target(a: &Dist, b: &Dist) -> Dist {
    let mut out = [0u8; TARGETS];
    for m in 0..5 {
        let mut no_pair = u8::MAX;
        let mut pair = u8::MAX;
        for ma in 0..=m {
            let mb = m - ma;
            no_pair = no_pair.min(a[2 * ma] + b[2 * mb]);
            pair = pair.min((a[2 * ma] + b[2 * mb + 1]).min(a[2 * ma + 1] + b[2 * mb]));
        }
        out[2 * m] = no_pair;
        out[2 * m + 1] = pair;
    }
    out
}

/// Only the (melds, 1 pair) entry of the combination: the last step of a shanten computation.
#[inline(always)]
pub(super) fn combine_final(a: &Dist, b: &Dist, melds: usize) -> u8 {
    let melds = melds.min(4);
    let mut best = u8::MAX;
    for ma in 0..=melds {
        let mb = melds - ma;
        best = best.min((a[2 * ma] + b[2 * mb + 1]).min(a[2 * ma + 1] + b[2 * mb]));
    }
    best
}

/// Distance arrays of the four suits of a hand, with caps from the called melds where they bite.
pub(super) fn suit_dists(counts: &Counts, melds: &[Meld]) -> [Dist; 4] {
    let t = tables();
    let keys = suit_keys(counts);
    let mut out = [
        *t.number.dist(keys[0]),
        *t.number.dist(keys[1]),
        *t.number.dist(keys[2]),
        *t.honor.dist(keys[3]),
    ];
    if !melds.is_empty() {
        let used = meld_counts(melds);
        for (suit, dist) in out.iter_mut().enumerate() {
            let range = suit_range(suit);
            if used[range.clone()].iter().any(|&u| u > 0) {
                let caps: Vec<u8> = used[range.clone()].iter().map(|&u| 4u8.saturating_sub(u)).collect();
                *dist = capped_suit_dist_cached(&counts[range], &caps, suit != 3, sets_needed(melds));
            }
        }
    }
    out
}

/// Sets still needed besides the called melds.
#[inline]
pub(super) fn sets_needed(melds: &[Meld]) -> usize {
    4usize.saturating_sub(melds.len())
}

/// Standard-form shanten from the four suit distance arrays.
#[inline]
pub(super) fn shanten_from_dists(d: &[Dist; 4], needed: usize) -> i8 {
    let ab = combine(&d[0], &d[1]);
    let abc = combine(&ab, &d[2]);
    combine_final(&abc, &d[3], needed) as i8 - 1
}

/// Shanten of the standard form (four sets and a pair, called melds counted). Works on a hand of
/// 13 − 3k tiles (waiting) or 14 − 3k (just drawn); counts above 4 are read as 4.
pub fn shanten_standard(counts: &Counts, melds: &[Meld]) -> i8 {
    if melds.is_empty() {
        return shanten_concealed(counts);
    }
    shanten_from_dists(&suit_dists(counts, melds), sets_needed(melds))
}

/// Standard-form shanten of a hand with no called melds: four table lookups and a min-plus fold.
#[inline]
pub fn shanten_concealed(counts: &Counts) -> i8 {
    let t = tables();
    let keys = suit_keys(counts);
    let ab = combine(t.number.dist(keys[0]), t.number.dist(keys[1]));
    let abc = combine(&ab, t.number.dist(keys[2]));
    combine_final(&abc, t.honor.dist(keys[3]), 4) as i8 - 1
}

/// Shanten of seven pairs, where four of a kind counts as two pairs. `None` with called melds
/// (the form needs all fourteen tiles concealed).
pub fn shanten_seven_pairs(counts: &Counts, melds: &[Meld]) -> Option<i8> {
    if !melds.is_empty() {
        return None;
    }
    // Pair slots worth two tiles (a pair, a second pair in a quad) and worth one (a single, the
    // odd tile of a triplet); the best seven slots cover the most of the 14 target tiles.
    let (full, half) = pair_slots(counts);
    Some(pairs_shanten(full, half))
}

/// Shanten: the minimum over the standard form and seven pairs (−1 = a won 14-tile hand).
pub fn shanten(counts: &Counts, melds: &[Meld]) -> i8 {
    let standard = shanten_standard(counts, melds);
    match shanten_seven_pairs(counts, melds) {
        Some(pairs) => standard.min(pairs),
        None => standard,
    }
}

/// Capped distances, memoised per thread: in a game the same suit shapes come back turn after
/// turn. Bounded (cleared when full), and a pure function of its key, so results never depend
/// on what was cached.
pub(super) fn capped_suit_dist_cached(held: &[u8], caps: &[u8], sequences: bool, max_sets: usize) -> Dist {
    capped_suit_dist_keyed(pack_suit(held), pack_suit(caps), held, caps, sequences, max_sets)
}

/// A suit's counts (clamped to 4) as a base-5 key, as `suit_keys` makes them.
pub(super) fn pack_suit(v: &[u8]) -> u32 {
    v.iter().rev().fold(0u32, |k, &c| k * 5 + c.min(4) as u32)
}

thread_local! {
    static CAPPED_MEMO: std::cell::RefCell<rustc_hash::FxHashMap<u64, Dist>> =
        std::cell::RefCell::new(rustc_hash::FxHashMap::default());
}

/// Empties this thread's capped-distance memo. The benchmarks do, before timing positions they
/// recorded by playing them, so no timed decision finds its distances already worked out.
pub fn forget_capped_memo() {
    CAPPED_MEMO.with(|m| m.borrow_mut().clear());
}

/// [`capped_suit_dist_cached`] for a caller that already holds both keys (`pack_suit` of `held`
/// and of `caps`): a probe asks hundreds of these with the same caps.
pub(super) fn capped_suit_dist_keyed(
    held_key: u32,
    caps_key: u32,
    held: &[u8],
    caps: &[u8],
    sequences: bool,
    max_sets: usize,
) -> Dist {
    // Keys are below 5^9 < 2^21.
    let max_sets = max_sets.min(4);
    let key = u64::from(held_key) | u64::from(caps_key) << 21 | u64::from(sequences) << 42 | (max_sets as u64) << 43;
    if let Some(d) = CAPPED_MEMO.with(|m| m.borrow().get(&key).copied()) {
        return d;
    }
    let d = capped_suit_dist(held, caps, sequences, max_sets);
    CAPPED_MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= 1 << 16 {
            m.clear();
        }
        m.insert(key, d);
    });
    d
}

/// Exact distance array of one suit when some kinds have fewer than four copies available.
/// A left-to-right DP over ranks whose state is the sequences still open (started one and two
/// ranks back), the sets placed (open sequences included) and whether the pair is placed.
///
/// Only targets of at most `max_sets` sets are worked out (the sets the hand still needs beside
/// its called melds); larger ones read as impossible (60). No shanten reads them: a min-plus fold
/// towards `max_sets` sets never takes more than `max_sets` from one suit.
///
/// On x86-64 the DP moves a state's whole distance array at once, through a fixed list of moves
/// per rank (`sse2::capped_suit_dist`: half the time, and a turn with called melds asks dozens of
/// these); elsewhere, and as the tests' oracle, it goes state by state.
pub(super) fn capped_suit_dist(held: &[u8], caps: &[u8], sequences: bool, max_sets: usize) -> Dist {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: SSE2 is part of the x86-64 baseline, so every x86-64 CPU has it.
        unsafe { sse2::capped_suit_dist(held, caps, sequences, max_sets) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        capped_suit_dist_by_state(held, caps, sequences, max_sets)
    }
}

/// [`capped_suit_dist`] state by state: the state is the sequences still open (started one and
/// two ranks back), the sets placed (open sequences included) and whether the pair is placed.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn capped_suit_dist_by_state(held: &[u8], caps: &[u8], sequences: bool, max_sets: usize) -> Dist {
    const INF: u8 = u8::MAX;
    let max_sets = max_sets.min(4);
    let len = held.len();
    // state index: ((open2 * 5 + open1) * 5 + sets) * 2 + pair
    let idx = |o2: usize, o1: usize, sets: usize, pair: usize| ((o2 * 5 + o1) * 5 + sets) * 2 + pair;
    let mut cost = [INF; 250];
    cost[idx(0, 0, 0, 0)] = 0;
    for (rank, &held_here) in held.iter().enumerate() {
        let mut next = [INF; 250];
        let cap = caps.get(rank).copied().unwrap_or(4).min(4) as usize;
        let have = held_here.min(4) as usize;
        let can_start = sequences && rank + 2 < len;
        // Open sequences count among the sets, so neither can exceed `max_sets`.
        for o2 in 0..=max_sets {
            for o1 in 0..=max_sets - o2 {
                // Sequences still open need a copy here each: past the cap, a dead end.
                if o2 + o1 > cap {
                    continue;
                }
                for sets in o2 + o1..=max_sets {
                    for pair in 0..2 {
                        let c = cost[idx(o2, o1, sets, pair)];
                        if c == INF {
                            continue;
                        }
                        let max_new = if can_start {
                            (max_sets - sets).min(cap - o2 - o1)
                        } else {
                            0
                        };
                        for new_seq in 0..=max_new {
                            for trip in 0..=1usize {
                                if sets + new_seq + trip > max_sets || o2 + o1 + new_seq + 3 * trip > cap {
                                    continue;
                                }
                                for new_pair in 0..=(1 - pair) {
                                    let need = o2 + o1 + new_seq + 3 * trip + 2 * new_pair;
                                    if need > cap {
                                        continue;
                                    }
                                    let add = need.saturating_sub(have) as u8;
                                    let to = idx(o1, new_seq, sets + new_seq + trip, pair + new_pair);
                                    next[to] = next[to].min(c.saturating_add(add));
                                }
                            }
                        }
                    }
                }
            }
        }
        cost = next;
    }
    let mut out = [INF; TARGETS];
    for sets in 0..5 {
        for pair in 0..2 {
            out[2 * sets + pair] = cost[idx(0, 0, sets, pair)];
        }
    }
    // Impossible targets read as 60: large, yet four of them still add up inside a u8.
    for v in out.iter_mut() {
        *v = (*v).min(60);
    }
    // "At least m sets" equals "exactly m" (drop sets), but keep the array monotone anyway.
    for sets in (0..4).rev() {
        for pair in 0..2 {
            out[2 * sets + pair] = out[2 * sets + pair].min(out[2 * (sets + 1) + pair]);
        }
    }
    out
}

/// One move of the capped DP at a rank: from open sequences `from` = 5·o2 + o1 to `to` =
/// 5·o1 + new, placing `sets` sets (new sequences and a triplet), the pair when `pair`, and
/// needing `need` copies of the rank.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[derive(Clone, Copy)]
struct DpStep {
    from: u8,
    to: u8,
    sets: u8,
    pair: bool,
    need: u8,
}

/// The DP's moves at a rank with `cap` copies available (0–4), sequences startable or not,
/// towards targets of at most `max_sets` sets (open sequences count among them, so states with
/// more open are never entered): worked out once, the same for every hand.
///
/// Ordered by (sets placed, pair placed), with where each of the ten groups starts
/// (group `2·sets + pair`; entry 10 is the end): a group's moves all shift alike, so the SSE2 DP
/// runs each group as a loop of its own, with its shifts fixed.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn dp_step_groups(cap: usize, can_start: bool, max_sets: usize) -> &'static (Vec<DpStep>, [u16; 11]) {
    static GROUPS: std::sync::OnceLock<Vec<(Vec<DpStep>, [u16; 11])>> = std::sync::OnceLock::new();
    let all = GROUPS.get_or_init(|| {
        dp_step_lists()
            .into_iter()
            .map(|mut steps| {
                steps.sort_by_key(|s| 2 * s.sets + u8::from(s.pair));
                let mut bounds = [0u16; 11];
                for (g, bound) in bounds.iter_mut().enumerate() {
                    *bound = steps
                        .iter()
                        .filter(|s| usize::from(2 * s.sets + u8::from(s.pair)) < g)
                        .count() as u16;
                }
                (steps, bounds)
            })
            .collect()
    });
    &all[(2 * cap.min(4) + usize::from(can_start)) * 5 + max_sets.min(4)]
}

/// Every step list, indexed as `dp_step_groups` reads them.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn dp_step_lists() -> Vec<Vec<DpStep>> {
    {
        let mut all = Vec::new();
        for (cap, can_start, max_sets) in (0..=4usize).flat_map(|c| {
            [false, true]
                .into_iter()
                .flat_map(move |s| (0..=4usize).map(move |m| (c, s, m)))
        }) {
            let mut steps = Vec::new();
            for o2 in 0..=cap.min(max_sets) {
                for o1 in 0..=cap.min(max_sets) - o2 {
                    let open = o2 + o1;
                    let room = cap - open;
                    for new_seq in 0..=if can_start { room } else { 0 } {
                        for trip in 0..=usize::from(room >= new_seq + 3) {
                            for pair in [false, true] {
                                let need = open + new_seq + 3 * trip + 2 * usize::from(pair);
                                if need <= cap && o1 + new_seq <= max_sets && new_seq + trip <= max_sets {
                                    steps.push(DpStep {
                                        from: (5 * o2 + o1) as u8,
                                        to: (5 * o1 + new_seq) as u8,
                                        sets: (new_seq + trip) as u8,
                                        pair,
                                        need: need as u8,
                                    });
                                }
                            }
                        }
                    }
                }
            }
            all.push(steps);
        }
        all
    }
}

/// The capped DP with each open-sequence state's whole distance array in one SSE2 register:
/// lane `2m + p` is the fewest tiles to add for `m` sets and `p` pairs so far (255: unreachable;
/// lanes past four sets fall off the end unread). Placing sets moves lanes up by whole bytes,
/// placing the pair moves the pairless lanes up by one, and a step is a saturating add and a
/// minimum.
#[cfg(target_arch = "x86_64")]
mod sse2 {
    use super::super::tables::{Dist, TARGETS};
    use std::arch::x86_64::*;

    #[target_feature(enable = "sse2")]
    pub(super) fn capped_suit_dist(held: &[u8], caps: &[u8], sequences: bool, max_sets: usize) -> Dist {
        // Moves only reach states with o2 + o1 <= max_sets, whose index 5·o2 + o1 is at most
        // 5·max_sets: the arrays copied rank by rank are no longer than that (a hand with called
        // melds, the only one capped, needs at most three sets more).
        match max_sets {
            0..=2 => dist_with_states::<11>(held, caps, sequences, max_sets),
            3 => dist_with_states::<16>(held, caps, sequences, max_sets),
            _ => dist_with_states::<25>(held, caps, sequences, max_sets),
        }
    }

    #[inline]
    #[target_feature(enable = "sse2")]
    fn dist_with_states<const STATES: usize>(held: &[u8], caps: &[u8], sequences: bool, max_sets: usize) -> Dist {
        let max_sets = max_sets.min(4);
        let len = held.len();
        let none = _mm_set1_epi8(-1);
        // cost[5 * o2 + o1]: sequences opened two ranks back (o2) and one rank back (o1).
        let mut cost = [none; STATES];
        cost[0] = _mm_insert_epi16::<0>(none, 0xFF00);
        for (rank, &held_here) in held.iter().enumerate() {
            let mut next = [none; STATES];
            let cap = caps.get(rank).copied().unwrap_or(4).min(4) as usize;
            let have = held_here.min(4);
            let can_start = sequences && rank + 2 < len;
            // The same steps for every rank with these copies: no branch depends on the costs.
            // Tiles to add for a move needing `need` copies: need − have, at most four.
            let adds: [__m128i; 5] = std::array::from_fn(|need| _mm_set1_epi8((need as u8).saturating_sub(have) as i8));
            let (steps, bounds) = super::dp_step_groups(cap, can_start, max_sets);
            macro_rules! group {
                ($group:literal, $shift:literal, $pair:literal) => {
                    let range = usize::from(bounds[$group])..usize::from(bounds[$group + 1]);
                    for step in steps.get(range).unwrap_or(&[]) {
                        let from = cost[step.from as usize];
                        let moved = if $pair { with_pair(from) } else { from };
                        let placed = if $shift == 0 {
                            moved
                        } else {
                            _mm_or_si128(
                                _mm_slli_si128::<$shift>(moved),
                                _mm_srli_si128::<{ 16 - $shift }>(none),
                            )
                        };
                        let to = &mut next[step.to as usize];
                        *to = _mm_min_epu8(
                            *to,
                            _mm_adds_epu8(placed, adds[usize::from(step.need.min(4))]),
                        );
                    }
                };
            }
            group!(0, 0, false);
            group!(1, 0, true);
            group!(2, 2, false);
            group!(3, 2, true);
            group!(4, 4, false);
            group!(5, 4, true);
            group!(6, 6, false);
            group!(7, 6, true);
            group!(8, 8, false);
            group!(9, 8, true);
            cost = next;
        }
        let mut last = [0u8; 16];
        // SAFETY: `last` is 16 writable bytes; the store has no alignment requirement.
        unsafe { _mm_storeu_si128(last.as_mut_ptr().cast(), cost[0]) };
        let mut out = [60u8; TARGETS];
        for sets in 0..=max_sets {
            for pair in 0..2 {
                out[2 * sets + pair] = last[2 * sets + pair].min(60);
            }
        }
        // "At least m sets" equals "exactly m" (drop sets), but keep the array monotone anyway.
        for sets in (0..4).rev() {
            for pair in 0..2 {
                out[2 * sets + pair] = out[2 * sets + pair].min(out[2 * (sets + 1) + pair]);
            }
        }
        out
    }

    /// The min-plus product of two distance arrays: for each entry (m, p) of `a`, `b` moved up
    /// by m sets (and, when p is 1, only `b`'s pairless entries, moved up by the pair too) plus
    /// that entry, the minimum kept lane by lane. The lanes shifted in read as unreachable.
    #[inline]
    #[target_feature(enable = "sse2")]
    pub(super) fn combine(a: &Dist, b: &Dist) -> Dist {
        let mut bytes = [u8::MAX; 16];
        bytes[..TARGETS].copy_from_slice(b);
        // SAFETY: `bytes` is 16 readable bytes; the load has no alignment requirement.
        let b = unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) };
        let ones = _mm_set1_epi8(-1);
        // `b` with its pair entries unreachable: what an entry of `a` that has the pair meets.
        let pairless = _mm_or_si128(b, _mm_set1_epi16(0xFF00u16 as i16));
        let at = |x: u8| _mm_set1_epi8(x as i8);
        macro_rules! shifted {
            ($x:expr, $by:literal) => {
                _mm_or_si128(_mm_slli_si128::<$by>($x), _mm_srli_si128::<{ 16 - $by }>(ones))
            };
        }
        let mut out = _mm_adds_epu8(b, at(a[0]));
        out = _mm_min_epu8(out, _mm_adds_epu8(shifted!(pairless, 1), at(a[1])));
        out = _mm_min_epu8(out, _mm_adds_epu8(shifted!(b, 2), at(a[2])));
        out = _mm_min_epu8(out, _mm_adds_epu8(shifted!(pairless, 3), at(a[3])));
        out = _mm_min_epu8(out, _mm_adds_epu8(shifted!(b, 4), at(a[4])));
        out = _mm_min_epu8(out, _mm_adds_epu8(shifted!(pairless, 5), at(a[5])));
        out = _mm_min_epu8(out, _mm_adds_epu8(shifted!(b, 6), at(a[6])));
        out = _mm_min_epu8(out, _mm_adds_epu8(shifted!(pairless, 7), at(a[7])));
        out = _mm_min_epu8(out, _mm_adds_epu8(shifted!(b, 8), at(a[8])));
        out = _mm_min_epu8(out, _mm_adds_epu8(shifted!(pairless, 9), at(a[9])));
        let mut result = [0u8; 16];
        // SAFETY: `result` is 16 writable bytes; the store has no alignment requirement.
        unsafe { _mm_storeu_si128(result.as_mut_ptr().cast(), out) };
        let mut dist = [0u8; TARGETS];
        dist.copy_from_slice(&result[..TARGETS]);
        dist
    }

    /// Every pairless target with the pair placed: lane `2m` moves to `2m + 1`; lanes that
    /// already hold the pair have nowhere to go.
    #[inline]
    #[target_feature(enable = "sse2")]
    fn with_pair(x: __m128i) -> __m128i {
        let even = _mm_set1_epi16(0x00FF);
        _mm_or_si128(_mm_slli_si128::<1>(_mm_and_si128(x, even)), even)
    }
}

/// The table distances of suit `suit` (0–2 numbered, 3 honours) for a suit key.
#[inline]
pub(super) fn table_dist(suit: usize, key: u32) -> &'static Dist {
    let t = tables();
    if suit == 3 {
        t.honor.dist(key)
    } else {
        t.number.dist(key)
    }
}

/// The kinds of suit `suit` (0–2 numbered, 3 honours).
#[inline]
pub(super) fn suit_range(suit: usize) -> std::ops::Range<usize> {
    suit * 9..(suit * 9 + if suit == 3 { 7 } else { 9 })
}

/// Key of one rank added to a suit key.
#[inline]
pub(super) fn rank_weight(index: usize) -> u32 {
    if index >= 27 {
        POW5[index - 27]
    } else {
        POW5[index % 9]
    }
}

/// Copies of each kind the called melds leave (4 where no meld touches the kind), and which
/// suits that caps.
pub(super) fn meld_caps(melds: &[Meld]) -> (Counts, [bool; 4]) {
    let used = meld_counts(melds);
    let mut caps = [4u8; KINDS];
    let mut capped = [false; 4];
    for i in 0..KINDS {
        caps[i] = 4u8.saturating_sub(used[i]);
        if used[i] > 0 {
            capped[(i / 9).min(3)] = true;
        }
    }
    (caps, capped)
}

/// A hand prepared for many "what if one more tile" shanten questions: the other three suits are
/// folded once, so each question costs one table lookup and a short min-plus.
pub(super) struct Probe {
    counts: Counts,
    keys: [u32; 4],
    /// Copies available per kind after the called melds (4 where no meld touches the kind).
    caps: Counts,
    capped: [bool; 4],
    rest: [Dist; 4],
    needed: usize,
    pairs_slots: Option<(u32, u32)>,
    standard: i8,
}

impl Probe {
    pub(super) fn new(counts: &Counts, melds: &[Meld]) -> Probe {
        let dists = suit_dists(counts, melds);
        let (caps, capped) = meld_caps(melds);
        let rest = [
            combine(&combine(&dists[1], &dists[2]), &dists[3]),
            combine(&combine(&dists[0], &dists[2]), &dists[3]),
            combine(&combine(&dists[0], &dists[1]), &dists[3]),
            combine(&combine(&dists[0], &dists[1]), &dists[2]),
        ];
        let needed = sets_needed(melds);
        let standard = combine_final(&rest[3], &dists[3], needed) as i8 - 1;
        let pairs_slots = melds.is_empty().then(|| pair_slots(counts));
        Probe {
            counts: *counts,
            keys: suit_keys(counts),
            caps,
            capped,
            rest,
            needed,
            pairs_slots,
            standard,
        }
    }

    /// Shanten of the hand itself (both forms).
    pub(super) fn shanten(&self) -> i8 {
        match self.pairs_slots {
            Some((full, half)) => self.standard.min(pairs_shanten(full, half)),
            None => self.standard,
        }
    }

    /// Whether adding one tile of kind `index` lowers the shanten. In a suit capped by called
    /// melds the table's distances (a lower bound: caps only take targets away) settle most
    /// draws before the exact DP is asked.
    pub(super) fn lowers(&self, index: usize) -> bool {
        let now = self.shanten();
        let suit = (index / 9).min(3);
        if self.capped[suit] && self.counts[index] < 4 {
            let bound = table_dist(suit, self.keys[suit] + rank_weight(index));
            // Capped means called melds, so seven pairs is out: the standard form decides.
            if combine_final(&self.rest[suit], bound, self.needed) as i8 > now {
                return false;
            }
        }
        self.shanten_with(index) < now
    }

    /// Shanten after adding one tile of kind `index` (which must have a copy left).
    pub(super) fn shanten_with(&self, index: usize) -> i8 {
        let suit = (index / 9).min(3);
        let dist = if self.capped[suit] {
            let range = suit_range(suit);
            let mut held = self.counts;
            held[index] = held[index].saturating_add(1);
            capped_suit_dist_cached(&held[range.clone()], &self.caps[range], suit != 3, self.needed)
        } else {
            if self.counts[index] >= 4 {
                return self.shanten();
            }
            *table_dist(suit, self.keys[suit] + rank_weight(index))
        };
        let standard = combine_final(&self.rest[suit], &dist, self.needed) as i8 - 1;
        match self.pairs_slots {
            Some((mut full, mut half)) => {
                match self.counts[index] {
                    0 | 2 => half += 1,
                    1 | 3 => {
                        half = half.saturating_sub(1);
                        full += 1;
                    }
                    _ => {}
                }
                standard.min(pairs_shanten(full, half))
            }
            None => standard,
        }
    }
}

/// Seven-pairs slots: worth two tiles (a pair, the second pair of a quad) and worth one (a
/// single, the odd tile of a triplet).
#[inline]
pub(super) fn pair_slots(counts: &Counts) -> (u32, u32) {
    let (mut full, mut half) = (0u32, 0u32);
    for &c in counts.iter() {
        let c = c.min(4) as u32;
        full += (c >> 1) & 1 | (c >> 2) << 1;
        half += c & 1;
    }
    (full, half)
}

#[inline]
pub(super) fn pairs_shanten(full: u32, half: u32) -> i8 {
    let full = full.min(7);
    let covered = 2 * full + half.min(7 - full);
    13 - covered as i8
}

#[cfg(test)]
mod tests {
    use super::super::notation::{parse_counts, parse_melds};
    use super::*;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]
        #[test]
        fn the_min_plus_product_agrees_with_the_target_by_target_one(
            a in proptest::array::uniform10(0u8..=60),
            b in proptest::array::uniform10(0u8..=60),
        ) {
            proptest::prop_assert_eq!(combine(&a, &b), combine_by_target(&a, &b));
        }

        #[test]
        fn the_capped_dp_agrees_with_the_state_by_state_one(
            held in proptest::collection::vec(0u8..=4, 9),
            caps in proptest::collection::vec(0u8..=4, 9),
            honours in proptest::bool::ANY,
            max_sets in 0usize..=5,
        ) {
            let len = if honours { 7 } else { 9 };
            let held: Vec<u8> = held[..len].iter().zip(&caps).map(|(&h, &c)| h.min(c)).collect();
            let caps = &caps[..len];
            proptest::prop_assert_eq!(
                capped_suit_dist(&held, caps, !honours, max_sets),
                capped_suit_dist_by_state(&held, caps, !honours, max_sets)
            );
        }
    }

    #[test]
    fn the_capped_dp_agrees_on_every_held_count_of_a_capped_suit() {
        // Every held vector of a 9-rank suit with at most 14 tiles, under a pong, a kong and a
        // chow's caps, for every sets limit a hand can have beside its melds.
        let cap_sets: [[u8; 9]; 3] = [
            [4, 4, 1, 4, 4, 4, 4, 4, 4],
            [4, 4, 4, 4, 0, 4, 4, 4, 4],
            [3, 3, 3, 4, 4, 4, 4, 4, 4],
        ];
        let mut held = [0u8; 9];
        let mut checked = 0;
        for key in 0..5u32.pow(9) {
            let mut k = key;
            for h in held.iter_mut() {
                *h = (k % 5) as u8;
                k /= 5;
            }
            if held.iter().map(|&h| h as u32).sum::<u32>() > 11 || key % 7 != 0 {
                continue;
            }
            for caps in &cap_sets {
                if held.iter().zip(caps).any(|(h, c)| h > c) {
                    continue;
                }
                for max_sets in 1..=3 {
                    assert_eq!(
                        capped_suit_dist(&held, caps, true, max_sets),
                        capped_suit_dist_by_state(&held, caps, true, max_sets),
                        "{held:?} {caps:?} {max_sets}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 50_000, "{checked}");
    }

    fn sh(text: &str) -> i8 {
        shanten(&parse_counts(text).unwrap(), &[])
    }

    #[test]
    fn packed_keys_match_the_plain_ones() {
        let mut counts = [0u8; KINDS];
        for (i, c) in counts.iter_mut().enumerate() {
            *c = ((i * 7 + 3) % 5) as u8;
        }
        let plain = |c: &[u8]| c.iter().rev().fold(0u32, |k, &x| k * 5 + x.min(4) as u32);
        let got = suit_keys_and_sums(&counts);
        for (suit, range) in [0..9, 9..18, 18..27, 27..34].into_iter().enumerate() {
            let sum: u32 = counts[range.clone()].iter().map(|&x| x as u32).sum();
            assert_eq!(got[suit], (plain(&counts[range]), sum));
        }
        counts[30] = 9; // junk: clamped in the key, counted in the sum
        assert_eq!(suit_keys_and_sums(&counts)[3].0, plain(&counts[27..34]));
    }

    #[test]
    fn known_shanten_values() {
        assert_eq!(sh("1112345678999m"), 0); // nine-gates: ready on all nine
        assert_eq!(sh("11123456789999m"), -1);
        assert_eq!(sh("1111m 2255m EESSPP"), -1); // seven pairs with a quad
        assert_eq!(sh("1111m EEESSSWWW"), 1); // the fifth 1m does not exist
        assert_eq!(sh("123456789m CCCC"), 1); // the fifth C does not exist
        assert_eq!(sh("1122334m EEESSS"), 0);
        // Knitted singles: 8 for the standard form, 6 for seven pairs.
        assert_eq!(sh("147m 258p 369s ESWN"), 6);
        assert_eq!(shanten_standard(&parse_counts("147m 258p 369s ESWN").unwrap(), &[]), 8);
        // Thirteen distinct honours-and-terminals: 6 for seven pairs, 8 for standard.
        assert_eq!(sh("19m 19p 19s ESWNPFC"), 6);
    }

    #[test]
    fn the_probe_agrees_with_direct_computation() {
        let melds = parse_melds("111m").unwrap();
        for (hand, called) in [("1122334m EEESS", &[][..]), ("2m 456m 789m EE", &melds[..])] {
            let counts = parse_counts(hand).unwrap();
            let probe = Probe::new(&counts, called);
            assert_eq!(probe.shanten(), shanten(&counts, called));
            for i in 0..KINDS {
                if counts[i] < 4 {
                    let mut more = counts;
                    more[i] += 1;
                    assert_eq!(probe.shanten_with(i), shanten(&more, called), "{hand} + {i}");
                    let lower = shanten(&more, called) < shanten(&counts, called);
                    assert_eq!(probe.lowers(i), lower, "{hand} + {i}");
                }
            }
        }
    }

    #[test]
    fn called_melds_lower_the_sets_needed_and_the_copies() {
        let melds = parse_melds("111m").unwrap();
        // 23m + three sets + EE beside a called 111m: ready (on 4m, and the last 1m).
        let ready = parse_counts("23m 456m 789m EE").unwrap();
        assert_eq!(shanten(&ready, &melds), 0);
        // A lone 1m beside a called 111m cannot be paired: the fifth 1m does not exist.
        let lone = parse_counts("1m 456m 789m EEE").unwrap();
        assert_eq!(shanten(&lone, &melds), 1);
        assert_eq!(shanten(&lone, &parse_melds("999m").unwrap()), 0);
    }
}
