//! The chance to win within the draws left: the lookahead behind the strong player's discards and
//! calls.
//!
//! Model: the player's next `draws` draws come, without replacement, from the tiles it cannot see
//! (4 − own hand − own melds − seen, per kind: the wall and the opponent's hand alike). Policy:
//! a draw that completes the hand wins; a draw that lowers shanten is kept, and the discard that
//! keeps the lower shanten with the best chance goes; any other draw is discarded at once.
//!
//! Method: a search over the hands that policy reaches, memoised by hand, each hand valued for
//! every number of draws already made (the pool shrinks by one a draw). A ready hand's value is
//! exact: 1 − C(U − W, n) / C(U, n) for W live winning tiles out of U unseen, n draws. Further
//! hands are valued through their useful draws, whose live copies are the root's minus the copies
//! kept on the way: the copies drawn and thrown back are not tracked kind by kind, so above ready
//! the value is a close estimate (the tests bound its distance from the exact value). Past the
//! node budget a hand is valued by a cheaper estimate (s + 1 useful draws needed among the draws
//! left, each useful with the chance its live useful tiles give), so time and memory stay
//! bounded. No randomness: the same position always gives the same figures.

use rustc_hash::FxHashMap;

use super::call::{call_options, CallKind, CallOption};
use super::discard_probe::DrawnProbe;
use super::meld::Meld;
use super::shanten::Probe;
use super::tile::{Counts, Tile, KINDS};
use super::win::own_counts;

/// The most draws looked at (a two-player wall holds fewer).
pub const MAX_DRAWS: usize = 40;

/// A hand's chance to win, and how closely it was worked out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Chance {
    /// Probability of a win within the draws (0–1).
    pub p: f64,
    /// True when the hand is ready (the closed form) or won, or cannot win at all (0).
    pub exact: bool,
    /// True when every hand beneath it was searched, none valued by the cheaper estimate past the
    /// budget: then the figure is close to the exact chance (the tests bound the distance).
    pub searched: bool,
}

impl Chance {
    /// A chance worked out exactly.
    pub fn exactly(p: f64) -> Chance {
        Chance {
            p,
            exact: true,
            searched: true,
        }
    }
}

/// One search: the position's live tiles, the draws, the memo and the node budget. Hands of one
/// decision (every discard of a drawn hand) share it.
pub struct Lookahead<'m> {
    melds: &'m [Meld],
    /// Live copies per kind at the root (the wall and the opponent's hand).
    live: Counts,
    /// The concealed hand the live copies were counted against: copies of a kind held beyond it
    /// were drawn on the way and left the pool.
    base: Counts,
    /// Unseen tiles at the root.
    pool: u32,
    draws: usize,
    /// Hands whose useful draws may still be searched.
    budget: usize,
    /// Hands searched so far (the figure the budget bounds).
    pub expanded: usize,
    memo: FxHashMap<u128, usize>,
    values: Vec<Box<[f64]>>,
    /// Per value: no hand beneath it was valued by the cheaper estimate.
    searched: Vec<bool>,
    /// Per opponent turn (the one before each own draw) and kind, the chance its discard is
    /// that kind: a ready hand also wins on it. Empty: only own draws count.
    rons: Vec<[f64; KINDS]>,
}

/// A hand as one key: three bits a kind.
fn key(counts: &Counts) -> u128 {
    counts.iter().fold(0u128, |k, &c| (k << 3) | u128::from(c & 7))
}

/// Live copies of every kind: 4 − own (hand and melds) − seen, never below zero.
pub fn live_counts(hand: &Counts, melds: &[Meld], seen: &Counts) -> Counts {
    let own = own_counts(hand, melds);
    std::array::from_fn(|i| 4u8.saturating_sub(own[i].saturating_add(seen[i])))
}

/// Draws the player still gets: its own turn's discard made, the wall alternates from the
/// opponent (`after_discard`), or it draws next.
pub fn draws_left(wall: i64, draws_next: bool) -> usize {
    let wall = wall.clamp(0, 2 * MAX_DRAWS as i64) as usize;
    if draws_next {
        wall.div_ceil(2)
    } else {
        wall / 2
    }
}

impl<'m> Lookahead<'m> {
    /// A search from the concealed tiles `base` (either size) beside `melds`, `seen` tiles seen
    /// elsewhere, `draws` draws to come, at most `budget` hands searched.
    pub fn new(base: &Counts, melds: &'m [Meld], seen: &Counts, draws: usize, budget: usize) -> Lookahead<'m> {
        let live = live_counts(base, melds, seen);
        Lookahead {
            melds,
            live,
            base: *base,
            pool: live.iter().map(|&c| u32::from(c)).sum(),
            draws: draws.min(MAX_DRAWS),
            budget,
            expanded: 0,
            memo: FxHashMap::default(),
            values: Vec::new(),
            searched: Vec::new(),
            rons: Vec::new(),
        }
    }

    /// The same search counting wins on the opponent's discards: `rons[j][k]`, the chance that
    /// its discard before the own draw `j` is kind `k` (a row of zeros where the own draw comes
    /// first).
    pub fn with_rons(mut self, rons: Vec<[f64; KINDS]>) -> Self {
        self.rons = rons;
        self
    }

    /// The chance that the opponent's discard before own draw `j` completes a ready hand
    /// waiting on `waits`.
    fn ron(&self, j: usize, waits: &[(usize, u32)]) -> f64 {
        self.rons
            .get(j)
            .map_or(0.0, |row| waits.iter().map(|&(i, _)| row[i]).sum::<f64>().min(1.0))
    }

    /// The draws looked at.
    pub fn draws(&self) -> usize {
        self.draws
    }

    /// Unseen tiles at the root.
    pub fn pool(&self) -> u32 {
        self.pool
    }

    /// Live copies of `kind` once the hand holds `counts`.
    fn live_at(&self, counts: &Counts, kind: usize) -> u32 {
        let drawn = counts[kind].saturating_sub(self.base[kind]);
        u32::from(self.live[kind].saturating_sub(drawn))
    }

    /// The chance that the waiting hand `counts` (13 − 3k tiles) wins within the draws.
    pub fn chance(&mut self, counts: &Counts) -> Chance {
        let probe = Probe::new(counts, self.melds);
        let at = self.value(counts, 0);
        let p = self.values[at][0];
        Chance {
            p,
            // A chance of zero is exact too: no sequence of draws wins.
            exact: (probe.shanten() <= 0 && self.rons.is_empty()) || p == 0.0,
            searched: self.searched[at],
        }
    }

    /// The best chance of a drawn hand (14 − 3k tiles) over its discards, and that discard.
    pub fn best_discard(&mut self, counts: &Counts) -> Option<(Tile, Chance)> {
        let mut best: Option<(Tile, Chance)> = None;
        for t in Tile::all() {
            if counts[t.index()] == 0 {
                continue;
            }
            let mut left = *counts;
            left[t.index()] -= 1;
            let c = self.chance(&left);
            if best.is_none_or(|(_, b)| c.p > b.p) {
                best = Some((t, c));
            }
        }
        best
    }

    /// The index of the value vector of `counts` (entry j: the chance with j draws made).
    /// `depth` bounds the recursion (a hand's shanten is at most 8, each level lowers it).
    fn value(&mut self, counts: &Counts, depth: usize) -> usize {
        let k = key(counts);
        if let Some(&at) = self.memo.get(&k) {
            return at;
        }
        let probe = Probe::new(counts, self.melds);
        let s = probe.shanten();
        // Useful kinds and their live copies now.
        let mut useful: Vec<(usize, u32)> = Vec::with_capacity(KINDS);
        for i in 0..KINDS {
            let l = self.live_at(counts, i);
            if l > 0 && probe.lowers(i) {
                useful.push((i, l));
            }
        }
        let n = self.draws;
        let mut v = vec![0.0; n + 1].into_boxed_slice();
        let mut searched = true;
        if s < 0 {
            v.fill(1.0);
            v[n] = 0.0;
        } else if s == 0 {
            let w: u32 = useful.iter().map(|&(_, l)| l).sum();
            for j in (0..n).rev() {
                let p = self.step(w, j);
                let r = self.ron(j, &useful);
                v[j] = r + (1.0 - r) * (p + (1.0 - p) * v[j + 1]);
            }
        } else if self.expanded >= self.budget || depth > 8 || self.past_deadline() {
            let w: u32 = useful.iter().map(|&(_, l)| l).sum();
            self.estimate(s, w, &mut v);
            searched = false;
        } else {
            self.expanded += 1;
            searched = self.search(counts, s, &useful, depth, &mut v);
        }
        let at = self.values.len();
        self.values.push(v);
        self.searched.push(searched);
        self.memo.insert(k, at);
        at
    }

    /// Whether the run's deadline has passed, looked at every 16 hands searched: past it, the
    /// budget shrinks to what was searched, so every hand left is valued by the estimate.
    fn past_deadline(&mut self) -> bool {
        if self.expanded.is_multiple_of(16) && crate::budget::expired() {
            self.budget = self.expanded;
            return true;
        }
        false
    }

    /// The chance that one draw, the `j`-th, is one of `w` given tiles.
    fn step(&self, w: u32, j: usize) -> f64 {
        let left = f64::from(self.pool) - j as f64;
        if left <= 0.0 {
            0.0
        } else {
            (f64::from(w) / left).min(1.0)
        }
    }

    /// Values of a hand `s` steps from ready through each useful draw and its best discard;
    /// whether every hand beneath was searched.
    fn search(&mut self, counts: &Counts, s: i8, useful: &[(usize, u32)], depth: usize, v: &mut [f64]) -> bool {
        let n = self.draws;
        let mut searched = true;
        // For each useful draw: its live copies and, per number of draws made after it, the best
        // chance over the discards that keep the lower shanten.
        let mut branches: Vec<(u32, Vec<f64>)> = Vec::with_capacity(useful.len());
        for &(t, live) in useful {
            let mut drawn = *counts;
            drawn[t] += 1;
            let probe = DrawnProbe::new(&drawn, self.melds);
            let mut after = vec![0.0f64; n + 1];
            for d in 0..KINDS {
                if drawn[d] == 0 || d == t || probe.discard(d).shanten() >= s {
                    continue;
                }
                let mut left = drawn;
                left[d] -= 1;
                let at = self.value(&left, depth + 1);
                searched &= self.searched[at];
                for (a, &x) in after.iter_mut().zip(self.values[at].iter()) {
                    *a = (*a).max(x);
                }
            }
            branches.push((live, after));
        }
        for j in (0..n).rev() {
            let left = f64::from(self.pool) - j as f64;
            if left <= 0.0 {
                v[j] = 0.0;
                continue;
            }
            let total: f64 = branches.iter().map(|(l, _)| f64::from(*l)).sum();
            // More useful copies than tiles left can only come from the untracked throw-backs.
            let scale = if total > left { left / total } else { 1.0 };
            let mut x = 0.0;
            for (l, after) in &branches {
                x += f64::from(*l) / left * scale * after[j + 1];
            }
            v[j] = x + (1.0 - total / left * scale) * v[j + 1];
        }
        searched
    }

    /// The cheaper estimate: s + 1 useful draws in turn, the first useful with the chance the
    /// hand's live useful tiles give, each later one with a share of them shrinking to the last
    /// (a hand nearer ready has fewer useful kinds).
    fn estimate(&self, s: i8, w: u32, v: &mut [f64]) {
        let n = self.draws;
        let stages = s.max(0) as usize + 1;
        // reach[i]: the chance of having made i useful draws; v[j] from the draws j..n.
        for (j, x) in v.iter_mut().enumerate() {
            let mut reach = [0.0f64; 10];
            reach[0] = 1.0;
            for draw in j..n {
                let left = f64::from(self.pool) - draw as f64;
                if left <= 0.0 {
                    break;
                }
                for i in (0..stages.min(9)).rev() {
                    let share = f64::from(w) * (stages - i) as f64 / stages as f64;
                    let r = (share / left).min(1.0);
                    let moved = reach[i] * r;
                    reach[i] -= moved;
                    reach[i + 1] += moved;
                }
            }
            *x = reach[stages.min(9)];
        }
    }
}

/// One discard of a drawn hand with its chance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DiscardChance {
    /// The kind discarded.
    pub tile: Tile,
    /// The chance to win within the draws after it.
    pub chance: Chance,
}

/// Every discard of a drawn hand (14 − 3k tiles) with its chance, in kind order; and the hands
/// searched. With `rons` (`Lookahead::with_rons`: the opponent's discard comes before each own
/// draw) the chance counts wins on its discards too.
pub fn discard_chances(
    counts: &Counts,
    melds: &[Meld],
    seen: &Counts,
    draws: usize,
    budget: usize,
    rons: Vec<[f64; KINDS]>,
) -> (Vec<DiscardChance>, usize) {
    let mut search = Lookahead::new(counts, melds, seen, draws, budget).with_rons(rons);
    let mut out = Vec::new();
    for tile in Tile::all() {
        if counts[tile.index()] == 0 {
            continue;
        }
        let mut left = *counts;
        left[tile.index()] -= 1;
        out.push(DiscardChance {
            tile,
            chance: search.chance(&left),
        });
    }
    (out, search.expanded)
}

/// A legal call with its chance: the call's figures, then the chance to win within the draws
/// after it and the discard that gives it (none after a kong: its replacement draw comes first).
#[derive(Debug, Clone, PartialEq)]
pub struct CallChance {
    /// The call and its shanten, live tiles and the reference bot's shape counts.
    pub option: CallOption,
    /// The chance after the call (and its best discard).
    pub chance: Chance,
    /// The discard that gives that chance.
    pub discard: Option<Tile>,
}

/// A call decision judged by the lookahead.
#[derive(Debug, Clone, PartialEq)]
pub struct CallChances {
    /// The offered tile completes the hand.
    pub wins: bool,
    /// Shanten as it is.
    pub shanten: i8,
    /// Live useful tiles as it is.
    pub useful_live: u32,
    /// The chance when passing (the next draw is the player's).
    pub pass: Chance,
    /// Draws counted when passing, and after a pong or chow (the call takes the turn's draw).
    pub draws: (usize, usize),
    /// Every legal call (kong only with a tile left on the wall).
    pub calls: Vec<CallChance>,
    /// Hands searched in all.
    pub expanded: usize,
}

/// The draws a call decision looks at: when passing (the player draws next) and after a pong or
/// chow (the call takes the turn's draw), `wall` tiles left, at most `horizon`.
pub fn call_draws(wall: i64, horizon: usize) -> (usize, usize) {
    (
        draws_left(wall, true).min(horizon),
        draws_left(wall, false).min(horizon),
    )
}

/// The calls on `offered` for a waiting hand, each judged by its chance to win; `seen` holds the
/// offered tile; `draws` from `call_draws` (no kong when no draw is left: it needs a
/// replacement). With `rons` as for [`discard_chances`] (the opponent's discard before each own
/// draw after a discard of the player's) the chance counts wins on its discards too; passing and
/// a kong draw first.
#[allow(clippy::too_many_arguments)]
pub fn call_chances(
    counts: &Counts,
    melds: &[Meld],
    offered: Tile,
    can_chow: bool,
    seen: &Counts,
    draws: (usize, usize),
    budget: usize,
    rons: Vec<[f64; KINDS]>,
) -> CallChances {
    let analysis = call_options(counts, melds, offered, can_chow, seen);
    // Where the own draw comes first, the opponent's discards move one draw later.
    let draw_first: Vec<[f64; KINDS]> = if rons.is_empty() {
        Vec::new()
    } else {
        std::iter::once([0.0; KINDS]).chain(rons.iter().copied()).collect()
    };
    let mut pass_search = Lookahead::new(counts, melds, seen, draws.0, budget).with_rons(draw_first.clone());
    let pass = pass_search.chance(counts);
    let mut expanded = pass_search.expanded;
    // After a call the offered tile is in the own meld.
    let mut after = *seen;
    after[offered.index()] = after[offered.index()].saturating_sub(1);
    let mut calls = Vec::new();
    for option in analysis.options {
        if option.kind == CallKind::Kong && draws.0 == 0 {
            continue;
        }
        let mut rest = *counts;
        for t in &option.from_hand {
            rest[t.index()] = rest[t.index()].saturating_sub(1);
        }
        let mut new_melds = melds.to_vec();
        new_melds.push(option.meld);
        let (chance, discard) = if option.kind == CallKind::Kong {
            let mut search = Lookahead::new(&rest, &new_melds, &after, draws.0, budget).with_rons(draw_first.clone());
            let c = search.chance(&rest);
            expanded += search.expanded;
            (c, None)
        } else {
            let mut search = Lookahead::new(&rest, &new_melds, &after, draws.1, budget).with_rons(rons.clone());
            let best = search.best_discard(&rest);
            expanded += search.expanded;
            match best {
                Some((t, c)) => (c, Some(t)),
                None => (Chance::exactly(0.0), None),
            }
        };
        calls.push(CallChance {
            option,
            chance,
            discard,
        });
    }
    CallChances {
        wins: analysis.wins,
        shanten: analysis.current_shanten,
        useful_live: analysis.current_useful_live,
        pass,
        draws,
        calls,
        expanded,
    }
}

#[cfg(test)]
mod tests {
    use super::super::notation::parse_counts;
    use super::super::shanten::shanten;
    use super::super::win::is_win;
    use super::*;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use std::collections::HashMap;

    /// The exact chance by brute force over every draw sequence from the live multiset (without
    /// replacement), the player seeing each draw: a win ends it, a draw that lowers shanten is kept
    /// with the best discard that keeps the lower shanten, any other draw is thrown back.
    fn oracle(hand: &Counts, live: &Counts, k: usize, memo: &mut HashMap<(Counts, Counts, usize), f64>) -> f64 {
        if k == 0 {
            return 0.0;
        }
        if let Some(&v) = memo.get(&(*hand, *live, k)) {
            return v;
        }
        let pool: u32 = live.iter().map(|&c| u32::from(c)).sum();
        let s = shanten(hand, &[]);
        let mut v = 0.0;
        for t in 0..KINDS {
            if live[t] == 0 {
                continue;
            }
            let p = f64::from(live[t]) / f64::from(pool);
            let mut rest = *live;
            rest[t] -= 1;
            let mut drawn = *hand;
            drawn[t] += 1;
            let value = if is_win(&drawn, &[]).is_some() {
                1.0
            } else if shanten(&drawn, &[]) < s || (0..KINDS).any(|d| lowered(&drawn, d, s)) {
                (0..KINDS)
                    .filter(|&d| d != t && lowered(&drawn, d, s))
                    .map(|d| {
                        let mut left = drawn;
                        left[d] -= 1;
                        oracle(&left, &rest, k - 1, memo)
                    })
                    .fold(0.0, f64::max)
            } else {
                oracle(hand, &rest, k - 1, memo)
            };
            v += p * value;
        }
        memo.insert((*hand, *live, k), v);
        v
    }

    fn lowered(drawn: &Counts, d: usize, s: i8) -> bool {
        if drawn[d] == 0 {
            return false;
        }
        let mut left = *drawn;
        left[d] -= 1;
        shanten(&left, &[]) < s
    }

    /// A small position: 13 tiles of characters and honours, all but `live_tiles` of the rest seen.
    fn small_position(rng: &mut ChaCha8Rng, live_tiles: usize) -> (Counts, Counts) {
        let mut wall: Vec<usize> = (0..9).chain(27..34).flat_map(|k| [k; 4]).collect();
        wall.shuffle(rng);
        let mut hand = [0u8; KINDS];
        for &k in &wall[..13] {
            hand[k] += 1;
        }
        let mut seen = [4u8; KINDS];
        for k in (0..9).chain(27..34) {
            seen[k] = 4 - hand[k];
        }
        for &k in &wall[13..13 + live_tiles] {
            seen[k] -= 1;
        }
        (hand, seen)
    }

    /// The ready hands among `tries` small positions (10 tiles live) from `seed`.
    fn small_ready_positions(seed: u64, tries: usize) -> Vec<(Counts, Counts)> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..tries)
            .map(|_| small_position(&mut rng, 10))
            .filter(|(hand, _)| shanten(hand, &[]) == 0)
            .collect()
    }

    #[test]
    fn wins_on_the_opponents_discards_add_to_a_ready_hands_own_draws() {
        let mut checked = 0;
        for (hand, seen) in small_ready_positions(8, 20000) {
            // Its discards come from the copies unseen: only live waits.
            let live = live_counts(&hand, &[], &seen);
            let waits: Vec<usize> = (0..KINDS)
                .filter(|&i| {
                    let mut h = hand;
                    h[i] += 1;
                    live[i] > 0 && is_win(&h, &[]).is_some()
                })
                .collect();
            if waits.is_empty() {
                continue;
            }
            // Each of the opponent's discards is a winning kind with chance r, split over the waits.
            let r = 0.05 * (1 + checked % 4) as f64;
            let mut row = [0.0; KINDS];
            for &i in &waits {
                row[i] = r / waits.len() as f64;
            }
            for k in 1..=4 {
                let own = Lookahead::new(&hand, &[], &seen, k, 50).chance(&hand).p;
                let mut search = Lookahead::new(&hand, &[], &seen, k, 50).with_rons(vec![row; k]);
                let c = search.chance(&hand);
                // No win: no winning discard on any of its k turns, and no winning own draw.
                let want = 1.0 - (1.0 - r).powi(k as i32) * (1.0 - own);
                assert!(!c.exact || c.p == 0.0);
                assert!((c.p - want).abs() < 1e-12, "{hand:?} k={k}: {} vs {want}", c.p);
                // With no chance on its discards the figure is the own draws' alone.
                let none = Lookahead::new(&hand, &[], &seen, k, 50)
                    .with_rons(vec![[0.0; KINDS]; k])
                    .chance(&hand)
                    .p;
                assert_eq!(none, own);
            }
            checked += 1;
        }
        assert!(checked >= 10, "only {checked} ready hands");
    }

    #[test]
    fn a_ready_hand_is_exact_against_every_draw_sequence() {
        let mut checked = 0;
        for (hand, seen) in small_ready_positions(7, 4000) {
            let live = live_counts(&hand, &[], &seen);
            for k in 1..=4 {
                let mut search = Lookahead::new(&hand, &[], &seen, k, 50);
                let c = search.chance(&hand);
                let exact = oracle(&hand, &live, k, &mut HashMap::new());
                assert!(c.exact);
                assert!((c.p - exact).abs() < 1e-12, "{hand:?} k={k}: {} vs {exact}", c.p);
            }
            checked += 1;
        }
        assert!(checked >= 10, "only {checked} ready hands");
    }

    #[test]
    fn hands_further_out_stay_close_to_the_exact_chance() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let (mut checked, mut worst) = (0, 0.0f64);
        for _ in 0..600 {
            let (hand, seen) = small_position(&mut rng, 9);
            let s = shanten(&hand, &[]);
            if !(1..=2).contains(&s) {
                continue;
            }
            let live = live_counts(&hand, &[], &seen);
            let k = 3 + (checked % 2);
            let mut search = Lookahead::new(&hand, &[], &seen, k, 10_000);
            let c = search.chance(&hand);
            let exact = oracle(&hand, &live, k, &mut HashMap::new());
            worst = worst.max((c.p - exact).abs());
            assert!((c.p - exact).abs() <= 0.08, "{hand:?} k={k}: {} vs {exact}", c.p);
            checked += 1;
            if checked == 40 {
                break;
            }
        }
        assert!(checked >= 20, "only {checked} hands");
        assert!(worst > 0.0 || checked > 0);
    }

    #[test]
    fn the_same_position_gives_the_same_figures_and_the_budget_holds() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for _ in 0..60 {
            let mut wall: Vec<usize> = (0..9).chain(27..34).flat_map(|k| [k; 4]).collect();
            wall.shuffle(&mut rng);
            let mut hand = [0u8; KINDS];
            for &k in &wall[..14] {
                hand[k] += 1;
            }
            let mut seen = [0u8; KINDS];
            seen[9..27].fill(4);
            for &k in &wall[14..14 + rng.random_range(0..20)] {
                seen[k] += 1;
            }
            for budget in [0, 5, 20] {
                let (a, used) = discard_chances(&hand, &[], &seen, 6, budget, Vec::new());
                let (b, _) = discard_chances(&hand, &[], &seen, 6, budget, Vec::new());
                assert_eq!(a, b);
                assert!(used <= budget, "{used} hands searched, budget {budget}");
                assert!(a.iter().all(|d| (0.0..=1.0).contains(&d.chance.p)));
            }
        }
    }

    #[test]
    fn past_the_deadline_no_hand_is_searched_in_depth_whatever_the_budget() {
        let hand = parse_counts("147m 258m 369m ESWNC").unwrap();
        let mut seen = [0u8; KINDS];
        seen[9..27].fill(4);
        let (_, searched) = discard_chances(&hand, &[], &seen, 30, 200, Vec::new());
        assert!(searched > 16, "{searched}");
        let _deadline = crate::budget::with_deadline(Some(std::time::Duration::ZERO));
        let (cut, searched) = discard_chances(&hand, &[], &seen, 30, 100_000, Vec::new());
        assert_eq!(searched, 0);
        assert!(cut.iter().all(|d| (0.0..=1.0).contains(&d.chance.p)));
    }

    #[test]
    fn a_wider_wait_has_the_better_chance() {
        // Ready on 8m alone (4 live) against ready on 1m 4m 7m after pong E (8 live).
        let hand = parse_counts("11223345679m EE").unwrap();
        let offered = Tile::from_index(27).unwrap();
        let mut seen = [0u8; KINDS];
        seen[9..27].fill(4);
        seen[27] = 1;
        let c = call_chances(&hand, &[], offered, true, &seen, call_draws(20, 6), 20, Vec::new());
        let pong = c.calls.iter().find(|x| x.option.kind == CallKind::Pong).unwrap();
        assert_eq!((c.shanten, c.useful_live), (0, 4));
        assert_eq!((pong.option.shanten_after, pong.option.useful_live_after), (0, 8));
        assert!(pong.chance.p > c.pass.p);
    }

    #[test]
    fn draws_split_the_wall_between_the_players() {
        assert_eq!(draws_left(9, true), 5);
        assert_eq!(draws_left(9, false), 4);
        assert_eq!(draws_left(-3, true), 0);
        assert_eq!(draws_left(1000, false), MAX_DRAWS);
    }
}
