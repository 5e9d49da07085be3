//! `evaluate`: the whole-hand answer, combined from independent islands.
//!
//! Islands never share a meld, a maximality condition or a touching pair (all of those need
//! adjacent or same-rank cards), so the hand's counts are the products of the island counts
//! (u128, saturating at `u128::MAX`, flagged by `saturated`) and its minima are the sums. An
//! island where no meld can form (the common case in a random hand) is answered without search.

use super::card::Card;
use super::grid::{islands, Placements};
use super::hand::Hand;
use super::jokers;
use super::meld::{card_points, Arrangement};
use super::options::{Options, DEFAULT_NODE_BUDGET};
use super::solver::{IslandSolver, Value};
use smallvec::SmallVec;

/// One island and its own answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IslandEval {
    /// The island's cards (a sub-hand).
    pub cards: Hand,
    /// Control points of the island, as a lane mask (see `control_points`).
    pub(super) control: u64,
    /// Counts and minima.
    pub value: Value,
    /// Whether any meld can be formed inside the island.
    pub meldable: bool,
    /// False when the island was too big for `options.node_budget`: its value is then
    /// "unknown" (counts 0, minima `u32::MAX`).
    pub exact: bool,
}

impl IslandEval {
    /// Solves one island (a joker-free sub-hand whose cells are connected).
    pub(super) fn solve(cards: Hand, options: &Options) -> IslandEval {
        let placements = Placements::of(&cards, options.ace_high);
        IslandEval::solve_with(cards, options, &placements)
    }

    /// Same, with the placements of the whole hand already computed (flags never cross
    /// islands: a run window or a set column lies inside one island).
    pub(super) fn solve_with(cards: Hand, options: &Options, hand: &Placements) -> IslandEval {
        let mask = cards.one;
        let meldable = (hand.run | hand.set) & mask != 0;
        let mut exact = true;
        let value = if meldable {
            plain_melds(&cards, hand, options.ace_high).unwrap_or_else(|| {
                // Cards with no flag are always dumped and touch nothing: solve the rest.
                let flagged = (hand.run | hand.set) & mask;
                let core = Hand::from_masks(flagged, cards.two & flagged, 0);
                let rest = Hand::from_masks(mask & !flagged, cards.two & !flagged, 0);
                let dump = Value::single(rest.len() as u32, lane_points(&rest));
                match solve_cached(&core, options) {
                    Some(v) => v.combine(dump),
                    None => {
                        exact = false;
                        Value::DEAD
                    }
                }
            })
        } else {
            Value::single(cards.len() as u32, lane_points(&cards))
        };
        IslandEval {
            cards,
            control: hand.run & hand.set & mask,
            value,
            meldable,
            exact,
        }
    }

    /// The control points (cards with more placements than copies), card order.
    pub fn control_points(&self) -> Vec<Card> {
        mask_cards(self.control)
    }

    /// Maximal arrangements of this island under the convention of `split_runs`.
    pub fn count(&self, split_runs: bool) -> u128 {
        if split_runs {
            self.value.split
        } else {
            self.value.merged
        }
    }

    /// The island's maximal arrangements (at most `limit` + 1, sorted by deadwood points,
    /// then cards, then meld order); `None` when the island is too big to list (unknown).
    pub fn arrangements(&self, options: &Options) -> Option<Vec<Arrangement>> {
        if !self.exact {
            return None;
        }
        let mut list = if self.meldable {
            IslandSolver::new(&self.cards, options.ace_high).enumerate(options.split_runs, options.list_limit)?
        } else {
            vec![all_dumped(&self.cards)]
        };
        sort_listing(&mut list, options);
        Some(list)
    }

    /// An arrangement reaching the island's minimum; `None` when the island was too big to
    /// solve or to retrace (then no arrangement is known to reach it).
    fn witness(&self, options: &Options, by_points: bool) -> Option<Arrangement> {
        if !self.exact {
            return None;
        }
        if !self.meldable {
            return Some(all_dumped(&self.cards));
        }
        let mut solver = IslandSolver::new(&self.cards, options.ace_high);
        let w = solver.witness(by_points);
        if solver.overflow {
            return None;
        }
        Some(w.unwrap_or_else(|| all_dumped(&self.cards)))
    }
}

/// Slots of the per-thread island cache (a power of two; 64 bytes each, ~1 MB).
const CACHE_SLOTS: usize = 16384;

/// One cache slot, one cache line: the island's signature with the cache generation it was
/// stored in (in the signature's unused top bits), and its value. A probe touches one line.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct CacheSlot {
    key: u128,
    value: Value,
}

/// Bits of a signature (4 × 26 lane bits and the ace bit); the generation sits above them.
const SIGNATURE_BITS: u32 = 105;

thread_local! {
    /// Recently solved islands by signature. Islands repeat a lot (a random hand's solver
    /// islands are small: a run with a doubled card, a set that shares a card with a run), and
    /// every AI trial (each draw, each discard) re-evaluates islands it has seen, so a
    /// direct-mapped table answers most of them without a search. Per thread: no locking.
    /// 16,384 slots: an AI trying every draw and discard meets ~1.2 new islands per hand
    /// that need the search, and 4,096 slots lost half of them to collisions.
    static ISLAND_CACHE: std::cell::RefCell<Vec<CacheSlot>> = const { std::cell::RefCell::new(Vec::new()) };
    /// Slots stored under another generation are empty (`forget_islands`).
    static CACHE_GENERATION: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Empties this thread's island cache at once (a new generation): the benchmark's worst case
/// evaluates one hand over and over and must time the search, not the cache.
pub fn forget_islands() {
    CACHE_GENERATION.with(|g| g.set(g.get().wrapping_add(1)));
}

/// The island's signature: per suit the 13-bit lanes of first and second copies, sorted
/// (a suit permutation changes neither counts nor minima: sets treat suits alike and runs
/// stay in their suit), plus the ace convention. Never 0 for a non-empty island.
pub(super) fn island_signature(core: &Hand, ace_high: bool) -> u128 {
    let mut lanes = [0u32; 4];
    for (s, lane) in lanes.iter_mut().enumerate() {
        let one = ((core.one >> (16 * s)) & 0x1FFF) as u32;
        let two = ((core.two >> (16 * s)) & 0x1FFF) as u32;
        *lane = one | two << 13;
    }
    lanes.sort_unstable();
    lanes.iter().fold(u128::from(ace_high), |acc, &l| acc << 26 | l as u128)
}

/// `IslandSolver::solve` through the per-thread cache. Only solves under the default
/// `node_budget` use it (a caller's own budget always searches afresh, so a smaller budget
/// never reuses a larger one's answer), and only answers found within the budget are kept.
fn solve_cached(core: &Hand, options: &Options) -> Option<Value> {
    let budget = options.node_budget;
    if budget != DEFAULT_NODE_BUDGET {
        return IslandSolver::new(core, options.ace_high).solve(budget);
    }
    let signature = island_signature(core, options.ace_high);
    let folded = (signature as u64) ^ ((signature >> 64) as u64);
    let slot = (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - CACHE_SLOTS.trailing_zeros())) as usize;
    // Generations wrap after 2^23 `forget_islands` calls: an entry that old may answer
    // again, which is harmless (the signature alone decides the value).
    let generation = CACHE_GENERATION.with(|g| g.get()) & ((1 << (128 - SIGNATURE_BITS)) - 1);
    let key = signature | u128::from(generation) << SIGNATURE_BITS;
    let hit = ISLAND_CACHE.with(|cache| {
        let cache = cache.try_borrow().ok()?;
        cache.get(slot).and_then(|e| (e.key == key).then_some(e.value))
    });
    if hit.is_some() {
        return hit;
    }
    let value = IslandSolver::new(core, options.ace_high).solve(budget)?;
    ISLAND_CACHE.with(|cache| {
        let Ok(mut cache) = cache.try_borrow_mut() else {
            return;
        };
        if cache.is_empty() {
            cache.resize(
                CACHE_SLOTS,
                CacheSlot {
                    key: 0,
                    value: Value::DEAD,
                },
            );
        }
        if let Some(entry) = cache.get_mut(slot) {
            *entry = CacheSlot { key, value };
        }
    });
    Some(value)
}

/// The uncached solve (tests compare it with the cached one).
#[cfg(test)]
pub(super) fn solve_uncached(core: &Hand, options: &Options) -> Option<Value> {
    IslandSolver::new(core, options.ace_high).solve(options.node_budget)
}

/// Same through the cache.
#[cfg(test)]
pub(super) fn solve_through_cache(core: &Hand, options: &Options) -> Option<Value> {
    solve_cached(core, options)
}

/// Compositions of n into parts of at least 3 (the split forms of an n-card run).
const SPLIT_FORMS: [u128; 14] = [1, 0, 0, 1, 1, 1, 2, 3, 4, 6, 9, 13, 19, 28];

/// The common islands of a random hand answered in closed form, or `None` for the solver.
///
/// A card with no flag (no run window, rank in fewer than three suits) is always dumped and
/// touches no maximality condition, so it only adds deadwood. If the flagged cards are single
/// copies that can only form runs (no set flag), each stretch of consecutive flagged cards is
/// one run (any dumped card of it would extend a neighbour or leave three dumped in a row), and
/// its split forms are the compositions of its length into parts ≥ 3. If they can only form
/// sets, each column of 3–4 single suits is one set.
fn plain_melds(cards: &Hand, hand: &Placements, ace_high: bool) -> Option<Value> {
    let mask = cards.one;
    let flagged = (hand.run | hand.set) & mask;
    if flagged & cards.two != 0 || (ace_high && flagged & super::grid::rank_column(0) != 0) {
        return None;
    }
    let rest = Hand::from_masks(mask & !flagged, cards.two & !flagged, 0);
    let dump = Value::single(rest.len() as u32, lane_points(&rest));
    let runs = hand.run & flagged;
    let sets = hand.set & flagged;
    if sets == 0 {
        let mut split = 1u128;
        let mut bits = runs;
        while bits != 0 {
            let low = bits & bits.wrapping_neg();
            // The stretch of consecutive bits starting at `low` (lanes are 16 wide, runs
            // never reach bit 13, so a stretch never crosses lanes).
            let stretch = (bits + low) & !bits;
            let len = (stretch.trailing_zeros() - low.trailing_zeros()) as usize;
            split = split.saturating_mul(*SPLIT_FORMS.get(len)?);
            bits &= !(stretch - low);
        }
        return Some(Value {
            merged: dump.merged,
            split,
            ..dump
        });
    }
    if runs == 0 {
        return Some(dump);
    }
    None
}

pub(super) fn sort_listing(list: &mut [Arrangement], options: &Options) {
    list.sort_by(|a, b| {
        (a.deadwood_points(options), a.deadwood_cards(), a).cmp(&(b.deadwood_points(options), b.deadwood_cards(), b))
    });
}

fn all_dumped(hand: &Hand) -> Arrangement {
    Arrangement {
        melds: Vec::new(),
        dump: hand.cards(),
    }
}

fn mask_cards(mask: u64) -> Vec<Card> {
    let mut out = Vec::new();
    let mut bits = mask;
    while bits != 0 {
        out.push(Card::from_lane_bit(bits.trailing_zeros()));
        bits &= bits - 1;
    }
    out
}

/// Points of every 13-bit set of ranks (one lane), built at compile time.
const LANE_POINTS: [u16; 8192] = {
    let mut table = [0u16; 8192];
    let mut lane = 0;
    while lane < 8192 {
        let mut total = 0u16;
        let mut r = 0;
        while r < 13 {
            if lane & (1 << r) != 0 {
                total += if r >= 9 { 10 } else { r as u16 + 1 };
            }
            r += 1;
        }
        table[lane] = total;
        lane += 1;
    }
    table
};

/// Face points of a joker-free hand, straight from the lane masks.
pub(super) fn lane_points(hand: &Hand) -> u32 {
    let mut total = 0u32;
    for mask in [hand.one, hand.two] {
        for lane in 0..4 {
            total += LANE_POINTS[((mask >> (16 * lane)) & 0x1FFF) as usize] as u32;
        }
    }
    total
}

/// The answer for a whole hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The hand evaluated.
    pub hand: Hand,
    /// The options it was evaluated under.
    pub options: Options,
    /// Islands in order of their lowest card. With jokers or wild cards the hand is one island.
    pub islands: SmallVec<[IslandEval; 8]>,
    /// Counts and minima of the whole hand.
    pub value: Value,
    /// False when the joker search or an island solve hit `options.node_budget` ("unknown
    /// within budget": the joker search's counts are then lower bounds and its minima upper
    /// bounds; an unsolved island makes the counts 0 and the minima `u32::MAX`).
    pub exact: bool,
    /// True when a count reached `u128::MAX` (saturated).
    pub saturated: bool,
    /// Whether the joker search was used.
    pub joker_mode: bool,
}

/// Whether the hand holds jokers or wild cards (then the joker search is used).
pub(super) fn needs_joker_search(hand: &Hand, options: &Options) -> bool {
    hand.jokers > 0
        || options
            .wild_rank
            .is_some_and(|r| hand.one & super::grid::rank_column(r as u32) != 0)
}

/// Evaluates a hand: islands, control points, maximal-arrangement counts and minima.
pub fn evaluate(hand: &Hand, options: &Options) -> Evaluation {
    if needs_joker_search(hand, options) {
        let answer = jokers::solve(hand, options, options.split_runs, 0);
        let island_cards = Hand::from_masks(hand.one, hand.two, hand.jokers);
        let placements = Placements::of(&island_cards, options.ace_high);
        let mut islands = SmallVec::new();
        islands.push(IslandEval {
            cards: island_cards,
            control: placements.control_points(&island_cards),
            value: answer.value,
            meldable: true,
            exact: answer.exact,
        });
        return Evaluation {
            hand: *hand,
            options: *options,
            islands,
            value: answer.value,
            exact: answer.exact,
            saturated: answer.value.split == u128::MAX,
            joker_mode: true,
        };
    }
    let placements = Placements::of(hand, options.ace_high);
    let mut list: SmallVec<[IslandEval; 8]> = SmallVec::new();
    for mask in islands(hand.one, options.ace_high) {
        let cards = Hand::from_masks(mask, hand.two & mask, 0);
        list.push(IslandEval::solve_with(cards, options, &placements));
    }
    Evaluation::from_islands(*hand, *options, list)
}

impl Evaluation {
    pub(super) fn from_islands(hand: Hand, options: Options, islands: SmallVec<[IslandEval; 8]>) -> Evaluation {
        let value = islands.iter().fold(Value::DONE, |acc, i| acc.combine(i.value));
        let exact = islands.iter().all(|i| i.exact);
        Evaluation {
            hand,
            options,
            islands,
            value,
            exact,
            saturated: value.split == u128::MAX || value.merged == u128::MAX,
            joker_mode: false,
        }
    }

    /// Maximal arrangements under the options' convention.
    pub fn maximal_count(&self) -> u128 {
        if self.options.split_runs {
            self.value.split
        } else {
            self.value.merged
        }
    }

    /// Fewest deadwood cards any arrangement leaves.
    pub fn min_deadwood_cards(&self) -> u32 {
        self.value.min_cards()
    }

    /// Fewest deadwood points any arrangement leaves.
    pub fn min_deadwood_points(&self) -> u32 {
        self.value.min_points()
    }

    /// All control points of the hand, card order.
    pub fn control_points(&self) -> Vec<Card> {
        mask_cards(self.islands.iter().fold(0, |acc, i| acc | i.control))
    }

    /// An arrangement with the fewest deadwood cards (then fewest points); `None` when the
    /// hand is "unknown within budget" (no arrangement is then known to be the fewest).
    pub fn min_cards_arrangement(&self) -> Option<Arrangement> {
        self.witness(false)
    }

    /// An arrangement with the fewest deadwood points (then fewest cards): the "best" one;
    /// `None` when the hand is "unknown within budget".
    pub fn min_points_arrangement(&self) -> Option<Arrangement> {
        self.witness(true)
    }

    fn witness(&self, by_points: bool) -> Option<Arrangement> {
        if !self.exact {
            return None;
        }
        if self.joker_mode {
            let answer = jokers::solve(&self.hand, &self.options, self.options.split_runs, 0);
            if !answer.exact {
                return None;
            }
            let w = if by_points {
                answer.min_points_witness
            } else {
                answer.min_cards_witness
            };
            return Some(w.unwrap_or_else(|| all_dumped(&self.hand)));
        }
        let mut out = Arrangement::default();
        for island in &self.islands {
            out.merge(&island.witness(&self.options, by_points)?);
        }
        Some(out)
    }

    /// Lazily lists the maximal arrangements under the options' convention: the product of
    /// the islands' sorted lists, first island varying slowest. Each island list holds at most
    /// `options.list_limit + 1` entries; `ArrangementIter::truncated` says whether one was cut.
    pub fn arrangements(&self) -> ArrangementIter {
        let (lists, known): (Vec<Vec<Arrangement>>, bool) = if self.joker_mode && !self.exact {
            // Unknown within budget: searching again for a listing would take as long once more.
            (vec![Vec::new()], false)
        } else if self.joker_mode {
            let answer = jokers::solve(
                &self.hand,
                &self.options,
                self.options.split_runs,
                self.options.list_limit,
            );
            (vec![answer.listing], answer.exact)
        } else {
            // An island too big to list makes the whole listing unknown: list nothing.
            match self.islands.iter().map(|i| i.arrangements(&self.options)).collect() {
                Some(lists) => (lists, true),
                None => (vec![Vec::new()], false),
            }
        };
        let truncated = !self.exact || !known || lists.iter().any(|l| l.len() > self.options.list_limit);
        let done = lists.iter().any(|l| l.is_empty());
        ArrangementIter {
            indices: vec![0; lists.len()],
            lists,
            done,
            truncated,
        }
    }

    /// Deadwood points of a card under these options.
    pub fn points_of(&self, card: Card) -> u32 {
        card_points(card, &self.options)
    }
}

/// Lazy product of per-island arrangement lists.
pub struct ArrangementIter {
    lists: Vec<Vec<Arrangement>>,
    indices: Vec<usize>,
    done: bool,
    /// Some island had more maximal arrangements than the listing limit.
    pub truncated: bool,
}

impl Iterator for ArrangementIter {
    type Item = Arrangement;

    fn next(&mut self) -> Option<Arrangement> {
        if self.done {
            return None;
        }
        let mut out = Arrangement::default();
        for (list, &i) in self.lists.iter().zip(&self.indices) {
            let part = list.get(i)?;
            out.melds.extend(part.melds.iter().cloned());
            out.dump.extend(part.dump.iter().copied());
        }
        out.canonicalize();
        // Advance the odometer: last island fastest.
        self.done = true;
        for pos in (0..self.indices.len()).rev() {
            self.indices[pos] += 1;
            if self.indices[pos] < self.lists[pos].len() {
                self.done = false;
                break;
            }
            self.indices[pos] = 0;
        }
        Some(out)
    }
}
