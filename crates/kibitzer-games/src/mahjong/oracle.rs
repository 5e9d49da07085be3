//! Test-only brute-force oracle, written the plainest way, and the cross-checks against the
//! table-driven code.
//!
//! - win: recursive decomposition (lowest tile: triplet, sequence or pair) + seven pairs by counts;
//! - standard-form distance of a suit: every target (up to 4 sets + at most one pair) enumerated
//!   and compared tile by tile; suits combined by nested loops over how the sets are spread;
//! - seven pairs: a small knapsack over kinds (0, 1 or 2 pairs each);
//! - waits: brute win check of every drawable kind;
//! - for hands of 4–5 tiles beside three called melds: shanten by breadth-first search over
//!   actual tile exchanges, which checks the definition itself (caps from melds included).

use std::collections::{HashMap, HashSet};

use super::meld::{meld_counts, Meld};
use super::tile::{tile_count, Counts, KINDS};

/// Brute win check: called melds only change how many sets the concealed tiles must form.
pub(super) fn brute_is_win(counts: &Counts, melds: usize) -> bool {
    if tile_count(counts) + 3 * melds != 14 {
        return false;
    }
    let mut c = *counts;
    let seven = melds == 0 && counts.iter().all(|&x| x % 2 == 0);
    seven || decompose(&mut c, 4 - melds, true)
}

fn decompose(c: &mut Counts, sets: usize, pair: bool) -> bool {
    let Some(i) = (0..KINDS).find(|&i| c[i] > 0) else {
        return sets == 0 && !pair;
    };
    if pair && c[i] >= 2 {
        c[i] -= 2;
        let ok = decompose(c, sets, false);
        c[i] += 2;
        if ok {
            return true;
        }
    }
    if sets > 0 && c[i] >= 3 {
        c[i] -= 3;
        let ok = decompose(c, sets - 1, pair);
        c[i] += 3;
        if ok {
            return true;
        }
    }
    if sets > 0 && i < 27 && i % 9 <= 6 && c[i + 1] > 0 && c[i + 2] > 0 {
        for k in 0..3 {
            c[i + k] -= 1;
        }
        let ok = decompose(c, sets - 1, pair);
        for k in 0..3 {
            c[i + k] += 1;
        }
        if ok {
            return true;
        }
    }
    false
}

/// Brute waits: kinds (own count below 4) whose addition wins.
pub(super) fn brute_waits(counts: &Counts, melds: &[Meld]) -> Vec<usize> {
    let used = meld_counts(melds);
    (0..KINDS)
        .filter(|&i| counts[i] + used[i] < 4)
        .filter(|&i| {
            let mut c = *counts;
            c[i] += 1;
            brute_is_win(&c, melds.len())
        })
        .collect()
}

/// Brute distances of one suit: every target (up to four sets in non-decreasing block order, each
/// with or without one pair) is visited, except subtrees whose cost already reaches the best found
/// for every slot they could still improve (adding blocks never lowers the cost).
pub(super) fn brute_suit_dist(held: &[u8], caps: &[u8]) -> [u8; 10] {
    let len = held.len();
    let mut blocks: Vec<Vec<usize>> = (0..len).map(|r| vec![r, r, r]).collect();
    if len == 9 {
        blocks.extend((0..7).map(|r| vec![r, r + 1, r + 2]));
    }
    let mut best = [u8::MAX; 10];
    let mut used = vec![0u8; len];
    visit(&blocks, 0, 0, 0, &mut used, held, caps, &mut best);
    best
}

/// Tiles the target needs beyond the held ones, for `tiles` added to `used`; None past a cap.
fn add(used: &mut [u8], tiles: &[usize], held: &[u8], caps: &[u8]) -> Option<u8> {
    let mut extra = 0;
    for &r in tiles {
        used[r] += 1;
        if used[r] > held[r] {
            extra += 1;
        }
    }
    if tiles.iter().any(|&r| used[r] > caps[r]) {
        remove(used, tiles);
        return None;
    }
    Some(extra)
}

fn remove(used: &mut [u8], tiles: &[usize]) {
    for &r in tiles {
        used[r] -= 1;
    }
}

#[allow(clippy::too_many_arguments)]
fn visit(
    blocks: &[Vec<usize>],
    from: usize,
    sets: usize,
    cost: u8,
    used: &mut Vec<u8>,
    held: &[u8],
    caps: &[u8],
    best: &mut [u8; 10],
) {
    best[2 * sets] = best[2 * sets].min(cost);
    for r in 0..held.len() {
        if let Some(extra) = add(used, &[r, r], held, caps) {
            best[2 * sets + 1] = best[2 * sets + 1].min(cost + extra);
            remove(used, &[r, r]);
        }
    }
    if sets == 4 {
        return;
    }
    for (b, block) in blocks.iter().enumerate().skip(from) {
        let bound = best[2 * (sets + 1)..].iter().copied().max().unwrap_or(u8::MAX);
        if let Some(extra) = add(used, block, held, caps) {
            if cost + extra < bound {
                visit(blocks, b, sets + 1, cost + extra, used, held, caps, best);
            }
            remove(used, block);
        }
    }
}

/// A memo of suit distances keyed by (held, caps), shared within one test.
#[derive(Default)]
pub(super) struct Oracle {
    memo: HashMap<(Vec<u8>, Vec<u8>), [u8; 10]>,
}

impl Oracle {
    fn suit(&mut self, held: &[u8], caps: &[u8]) -> [u8; 10] {
        let key = (held.to_vec(), caps.to_vec());
        if let Some(d) = self.memo.get(&key) {
            return *d;
        }
        let d = brute_suit_dist(held, caps);
        self.memo.insert(key, d);
        d
    }

    /// Standard-form shanten by brute force.
    pub(super) fn standard(&mut self, counts: &Counts, melds: &[Meld]) -> i8 {
        let used = meld_counts(melds);
        let caps: Vec<u8> = used.iter().map(|&u| 4u8.saturating_sub(u)).collect();
        let ranges = [0..9, 9..18, 18..27, 27..34];
        let d: Vec<[u8; 10]> = ranges
            .iter()
            .map(|r| self.suit(&counts[r.clone()], &caps[r.clone()]))
            .collect();
        let needed = 4 - melds.len();
        let mut best = u32::MAX;
        for m0 in 0..=needed {
            for m1 in 0..=needed - m0 {
                for m2 in 0..=needed - m0 - m1 {
                    let m3 = needed - m0 - m1 - m2;
                    let ms = [m0, m1, m2, m3];
                    for pair_suit in 0..4 {
                        let total: u32 = (0..4).map(|s| d[s][2 * ms[s] + (s == pair_suit) as usize] as u32).sum();
                        best = best.min(total);
                    }
                }
            }
        }
        best as i8 - 1
    }

    /// Shanten over both forms by brute force.
    pub(super) fn shanten(&mut self, counts: &Counts, melds: &[Meld]) -> i8 {
        let standard = self.standard(counts, melds);
        if melds.is_empty() {
            standard.min(brute_seven_pairs(counts))
        } else {
            standard
        }
    }
}

/// Seven pairs (quads count twice): knapsack over kinds of how many pairs each gives (0–2).
pub(super) fn brute_seven_pairs(counts: &Counts) -> i8 {
    let mut best = [u32::MAX; 8];
    best[0] = 0;
    for &c in counts.iter() {
        let mut next = best;
        for have in 0..8 {
            if best[have] == u32::MAX {
                continue;
            }
            for pairs in 1..=2usize {
                if have + pairs <= 7 {
                    let cost = (2 * pairs as u32).saturating_sub(c as u32);
                    next[have + pairs] = next[have + pairs].min(best[have] + cost);
                }
            }
        }
        best = next;
    }
    best[7] as i8 - 1
}

/// Shanten by breadth-first search over real exchanges, for tiny hands (4 or 5 tiles beside 3
/// melds): the number of (discard, draw) steps to a win, minus one. No step may create a fifth copy.
pub(super) fn bfs_shanten(counts: &Counts, melds: &[Meld]) -> i8 {
    let used = meld_counts(melds);
    let k = melds.len();
    let drawn = tile_count(counts) + 3 * k == 14;
    // A waiting hand first draws one tile; then count exchanges of the 14-tile hand.
    let starts: Vec<Counts> = if drawn {
        vec![*counts]
    } else {
        (0..KINDS)
            .filter(|&i| counts[i] + used[i] < 4)
            .map(|i| {
                let mut c = *counts;
                c[i] += 1;
                c
            })
            .collect()
    };
    let mut frontier: HashSet<Counts> = starts.into_iter().collect();
    let mut seen = frontier.clone();
    for steps in 0..8i8 {
        if frontier.iter().any(|c| brute_is_win(c, k)) {
            return if drawn { steps - 1 } else { steps };
        }
        let mut next = HashSet::new();
        for hand in &frontier {
            for out in (0..KINDS).filter(|&i| hand[i] > 0) {
                for inn in (0..KINDS).filter(|&i| i != out && hand[i] + used[i] < 4) {
                    let mut c = *hand;
                    c[out] -= 1;
                    c[inn] += 1;
                    if seen.insert(c) {
                        next.insert(c);
                    }
                }
            }
        }
        frontier = next;
    }
    i8::MAX
}

#[cfg(test)]
mod cross_checks {
    use super::super::meld::Meld;
    use super::super::shanten::{shanten, shanten_standard};
    use super::super::tile::{Tile, NO_TILES};
    use super::super::win::{is_win, waits};
    use super::*;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn wait_indices(counts: &Counts, melds: &[Meld]) -> Vec<usize> {
        waits(counts, melds, &NO_TILES).iter().map(|w| w.tile.index()).collect()
    }

    /// Every single-suit hand of `size` tiles (counts 0–4 over 1m–9m), visited in order.
    fn for_each_single_suit(size: usize, mut f: impl FnMut(&Counts)) -> usize {
        let mut counts = NO_TILES;
        fn rec(rank: usize, left: usize, c: &mut Counts, f: &mut dyn FnMut(&Counts), n: &mut usize) {
            if rank == 9 {
                if left == 0 {
                    f(c);
                    *n += 1;
                }
                return;
            }
            for k in 0..=left.min(4) {
                c[rank] = k as u8;
                rec(rank + 1, left - k, c, f, n);
            }
            c[rank] = 0;
        }
        let mut n = 0;
        rec(0, size, &mut counts, &mut f, &mut n);
        n
    }

    #[test]
    fn every_single_suit_14_tile_hand_wins_like_the_oracle() {
        let mut wins = 0;
        let n = for_each_single_suit(14, |c| {
            let fast = is_win(c, &[]).is_some();
            assert_eq!(fast, brute_is_win(c, 0), "{c:?}");
            wins += fast as usize;
        });
        assert_eq!(n, 118_800);
        assert!(wins > 1000, "{wins}");
    }

    #[test]
    fn every_single_suit_13_tile_hand_waits_and_shanten_like_the_oracle() {
        let mut oracle = Oracle::default();
        let n = for_each_single_suit(13, |c| {
            assert_eq!(wait_indices(c, &[]), brute_waits(c, &[]), "{c:?}");
            assert_eq!(shanten(c, &[]), oracle.shanten(c, &[]), "{c:?}");
        });
        assert_eq!(n, 93_600);
    }

    #[test]
    fn every_single_suit_14_tile_hand_has_the_oracle_shanten() {
        let mut oracle = Oracle::default();
        let n = for_each_single_suit(14, |c| {
            assert_eq!(shanten(c, &[]), oracle.shanten(c, &[]), "{c:?}");
        });
        assert_eq!(n, 118_800);
    }

    /// A random hand drawn from a full set of tiles of the given kinds.
    fn random_hand(rng: &mut ChaCha8Rng, kinds: &[usize], size: usize) -> Counts {
        let mut wall: Vec<usize> = kinds.iter().flat_map(|&k| [k; 4]).collect();
        wall.shuffle(rng);
        let mut c = NO_TILES;
        for &k in &wall[..size] {
            c[k] += 1;
        }
        c
    }

    /// A winning 14-tile hand, then `swaps` random exchanges: lots of near-ready shapes.
    fn near_win(rng: &mut ChaCha8Rng, kinds: &[usize], swaps: usize) -> Counts {
        loop {
            let mut c = NO_TILES;
            let mut ok = true;
            let pair = kinds[rng.random_range(0..kinds.len())];
            c[pair] += 2;
            for _ in 0..4 {
                let k = kinds[rng.random_range(0..kinds.len())];
                if k < 27 && k % 9 <= 6 && rng.random_bool(0.6) && kinds.contains(&(k + 2)) {
                    for d in 0..3 {
                        c[k + d] += 1;
                    }
                } else {
                    c[k] += 3;
                }
            }
            for _ in 0..swaps {
                let out: Vec<usize> = (0..KINDS).filter(|&i| c[i] > 0).collect();
                let o = out[rng.random_range(0..out.len())];
                let i = kinds[rng.random_range(0..kinds.len())];
                c[o] -= 1;
                c[i] += 1;
            }
            ok &= c.iter().all(|&x| x <= 4);
            if ok {
                return c;
            }
        }
    }

    #[test]
    fn random_hands_of_all_34_kinds_match_the_oracle() {
        let all: Vec<usize> = (0..KINDS).collect();
        let two: Vec<usize> = (0..9).chain(27..34).collect();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut oracle = Oracle::default();
        let (mut checked, mut wins, mut ready) = (0, 0, 0);
        for round in 0..100_000 {
            let kinds = if round % 4 == 3 { &two } else { &all };
            let c14 = if round % 2 == 0 {
                random_hand(&mut rng, kinds, 14)
            } else {
                near_win(&mut rng, kinds, round % 3)
            };
            let fast = is_win(&c14, &[]).is_some();
            assert_eq!(fast, brute_is_win(&c14, 0), "{c14:?}");
            wins += fast as usize;
            assert_eq!(shanten(&c14, &[]), oracle.shanten(&c14, &[]), "{c14:?}");
            // drop one tile for a 13-tile hand
            let held: Vec<usize> = (0..KINDS).filter(|&i| c14[i] > 0).collect();
            let mut c13 = c14;
            c13[held[rng.random_range(0..held.len())]] -= 1;
            let s13 = shanten(&c13, &[]);
            assert_eq!(s13, oracle.shanten(&c13, &[]), "{c13:?}");
            let w = wait_indices(&c13, &[]);
            assert_eq!(w, brute_waits(&c13, &[]), "{c13:?}");
            // Ready exactly when a real (not fifth-copy) wait exists.
            assert_eq!(s13 == 0, !w.is_empty(), "{c13:?}");
            ready += (s13 == 0) as usize;
            checked += 1;
        }
        assert_eq!(checked, 100_000);
        assert!(wins > 5_000 && ready > 10_000, "wins {wins} ready {ready}");
    }

    fn random_melds(rng: &mut ChaCha8Rng, n: usize) -> Vec<Meld> {
        let mut melds = Vec::new();
        while melds.len() < n {
            let index = rng.random_range(0..KINDS);
            let tile = Tile::from_index(index).unwrap();
            let meld = match rng.random_range(0..4) {
                0 => Meld::chow(tile),
                1 => Some(Meld::kong(tile)),
                _ => Some(Meld::pong(tile)),
            };
            if let Some(m) = meld {
                let mut all = melds.clone();
                all.push(m);
                if meld_counts(&all).iter().all(|&c| c <= 4) {
                    melds = all;
                }
            }
        }
        melds
    }

    /// A hand of `size` tiles that fits beside the melds (no fifth copies), biased towards the
    /// meld kinds so the copy caps matter.
    fn hand_beside(rng: &mut ChaCha8Rng, melds: &[Meld], size: usize) -> Counts {
        let used = meld_counts(melds);
        let near: Vec<usize> = (0..KINDS)
            .filter(|&i| used[i] > 0)
            .flat_map(|i| [i.saturating_sub(1), i, (i + 1).min(33)])
            .collect();
        let mut c = NO_TILES;
        while tile_count(&c) < size {
            let i = if rng.random_bool(0.5) && !near.is_empty() {
                near[rng.random_range(0..near.len())]
            } else {
                rng.random_range(0..KINDS)
            };
            if c[i] + used[i] < 4 {
                c[i] += 1;
            }
        }
        c
    }

    #[test]
    fn random_hands_beside_called_melds_match_the_oracle() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut oracle = Oracle::default();
        for round in 0..20_000 {
            let k = 1 + round % 4;
            let melds = random_melds(&mut rng, k);
            let size = 14 - 3 * k - (round / 4) % 2;
            let c = hand_beside(&mut rng, &melds, size);
            assert_eq!(
                shanten_standard(&c, &melds),
                oracle.standard(&c, &melds),
                "{c:?} {melds:?}"
            );
            if size == 13 - 3 * k {
                assert_eq!(wait_indices(&c, &melds), brute_waits(&c, &melds), "{c:?} {melds:?}");
            } else {
                assert_eq!(is_win(&c, &melds).is_some(), brute_is_win(&c, k), "{c:?}");
            }
        }
    }

    /// Every discard option's useful draws against a search: each kind with a live copy (after
    /// the discard, which counts as seen) whose draw lowers the shanten.
    #[test]
    fn discard_options_list_the_draws_a_search_finds() {
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        for round in 0..3_000 {
            let k = round % 3;
            let melds = random_melds(&mut rng, k);
            let c = hand_beside(&mut rng, &melds, 14 - 3 * k);
            let own = super::super::win::own_counts(&c, &melds);
            let mut visible = NO_TILES;
            for _ in 0..rng.random_range(0..30) {
                let i = rng.random_range(0..KINDS);
                if own[i] + visible[i] < 4 {
                    visible[i] += 1;
                }
            }
            for o in super::super::discard::discard_options(&c, &melds, &visible) {
                let d = o.tile.index();
                let mut after = c;
                after[d] -= 1;
                let now = shanten(&after, &melds);
                assert_eq!(o.shanten_after, now, "{c:?} {melds:?} discard {d}");
                let (mut kinds, mut live) = (Vec::new(), 0u32);
                for t in 0..KINDS {
                    let copies = 4u8.saturating_sub(own[t] - u8::from(t == d) + visible[t] + u8::from(t == d));
                    let mut drawn = after;
                    drawn[t] += 1;
                    if copies > 0 && shanten(&drawn, &melds) < now {
                        kinds.push(t);
                        live += u32::from(copies);
                    }
                }
                let listed: Vec<usize> = o.useful_kinds.iter().map(|t| t.index()).collect();
                assert_eq!(
                    (listed, o.useful_live),
                    (kinds, live),
                    "{c:?} {melds:?} {visible:?} discard {d}"
                );
            }
        }
    }

    #[test]
    fn tiny_hands_match_a_search_over_real_exchanges() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for round in 0..300 {
            let melds = random_melds(&mut rng, 3);
            let size = if round % 2 == 0 { 4 } else { 5 };
            let c = hand_beside(&mut rng, &melds, size);
            assert_eq!(shanten_standard(&c, &melds), bfs_shanten(&c, &melds), "{c:?} {melds:?}");
        }
    }

    /// Every 14-tile hand over the 16 two-player kinds (57,103,816 hands): the table win check
    /// against the recursive oracle (about 5 s).
    #[test]
    fn every_two_player_14_tile_hand_wins_like_the_oracle() {
        let kinds: Vec<usize> = (0..9).chain(27..34).collect();
        let mut counts = NO_TILES;
        let mut seen = 0u64;
        let mut wins = 0u64;
        fn rec(k: usize, left: usize, kinds: &[usize], c: &mut Counts, seen: &mut u64, wins: &mut u64) {
            if k == kinds.len() {
                if left == 0 {
                    let fast = is_win(c, &[]).is_some();
                    assert_eq!(fast, brute_is_win(c, 0), "{c:?}");
                    *seen += 1;
                    *wins += fast as u64;
                }
                return;
            }
            // prune: the kinds left can hold at most 4 each
            if left > 4 * (kinds.len() - k) {
                return;
            }
            for n in 0..=left.min(4) {
                c[kinds[k]] = n as u8;
                rec(k + 1, left - n, kinds, c, seen, wins);
            }
            c[kinds[k]] = 0;
        }
        rec(0, 14, &kinds, &mut counts, &mut seen, &mut wins);
        assert_eq!(seen, 57_103_816);
        eprintln!("{seen} hands, {wins} wins");
    }

    /// Every 13-tile hand over the 16 two-player kinds (29,695,056 hands): waits and shanten
    /// against the oracle. A few minutes; run with `--ignored`.
    #[test]
    #[ignore]
    fn every_two_player_13_tile_hand_waits_and_shanten_like_the_oracle() {
        let kinds: Vec<usize> = (0..9).chain(27..34).collect();
        let mut oracle = Oracle::default();
        let mut counts = NO_TILES;
        let mut seen = 0u64;
        let mut ready = 0u64;
        #[allow(clippy::too_many_arguments)]
        fn rec(
            k: usize,
            left: usize,
            kinds: &[usize],
            c: &mut Counts,
            oracle: &mut Oracle,
            seen: &mut u64,
            ready: &mut u64,
        ) {
            if k == kinds.len() {
                if left == 0 {
                    let w = waits(c, &[], &NO_TILES);
                    let fast: Vec<usize> = w.iter().map(|w| w.tile.index()).collect();
                    assert_eq!(fast, brute_waits(c, &[]), "{c:?}");
                    assert_eq!(shanten(c, &[]), oracle.shanten(c, &[]), "{c:?}");
                    *seen += 1;
                    *ready += !fast.is_empty() as u64;
                }
                return;
            }
            if left > 4 * (kinds.len() - k) {
                return;
            }
            for n in 0..=left.min(4) {
                c[kinds[k]] = n as u8;
                rec(k + 1, left - n, kinds, c, oracle, seen, ready);
            }
            c[kinds[k]] = 0;
        }
        rec(0, 13, &kinds, &mut counts, &mut oracle, &mut seen, &mut ready);
        assert_eq!(seen, 29_695_056);
        eprintln!("{seen} hands, {ready} ready");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// Nothing panics on any counts (sizes, fifth copies and all) or meld list.
        #[test]
        fn analysis_never_panics(
            raw in proptest::collection::vec(0u8..7, KINDS),
            picks in proptest::collection::vec(0usize..34, 0..16),
            junk in proptest::prelude::any::<bool>(),
            meld_picks in proptest::collection::vec((0usize..34, 0u8..4), 0..6),
        ) {
            let mut counts = NO_TILES;
            if junk {
                counts.copy_from_slice(&raw);
            } else {
                for &i in &picks {
                    counts[i] += 1;
                }
            }
            let melds: Vec<Meld> = meld_picks
                .iter()
                .filter_map(|&(i, k)| {
                    let t = Tile::from_index(i)?;
                    match k {
                        0 => Meld::chow(t),
                        1 => Some(Meld::pong(t)),
                        2 => Some(Meld::kong(t)),
                        _ => Some(Meld::concealed_kong(t)),
                    }
                })
                .collect();
            let _ = shanten(&counts, &melds);
            let _ = is_win(&counts, &melds);
            let _ = waits(&counts, &melds, &counts);
            let _ = super::super::split::best_split(&counts, &melds, &NO_TILES);
            let _ = super::super::discard::discard_options(&counts, &melds, &NO_TILES);
            if let Some(t) = Tile::from_index(raw[0] as usize) {
                let _ = super::super::call::call_options(&counts, &melds, t, true, &NO_TILES);
            }
        }

        /// The notation readers return an error, never a panic, on any text.
        #[test]
        fn notation_never_panics(text in "[0-9mpszESWNPFC\\[\\], xX白中]{0,24}") {
            let _ = super::super::notation::parse_counts(&text);
            let _ = super::super::notation::parse_melds(&text);
            let _ = super::super::notation::parse_tile(&text);
        }
    }
}
