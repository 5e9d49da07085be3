//! Incremental evaluation: a hand whose per-island answers are cached, so adding or removing
//! a card re-solves only the island(s) that card touches (the original method's motivation: an AI that
//! tries every draw and every discard).
//!
//! `add` merges the islands touching the new card (same suit ±1, K-A when the ace is high, or
//! the same rank) into one and solves it; `remove` re-solves the card's island, split into its
//! new components. Hands with jokers or wild cards fall back to a full evaluation (a joker
//! touches every island).

use super::card::{rank_points, Card};
use super::error::RummyError;
use super::evaluate::{evaluate, lane_points, Evaluation, IslandEval};
use super::grid::{islands_by_fill, rank_column, run_capable, set_capable};
use super::hand::Hand;
use super::options::Options;
use super::solver::Value;
use smallvec::SmallVec;

/// Room kept for the islands a change pushes next to those it hides (removing a card splits
/// its island into a few; more only costs a reallocation).
const SPARE_ISLANDS: usize = 4;

/// A hand plus its cached island answers.
#[derive(Clone, Debug)]
pub struct HandState {
    hand: Hand,
    options: Options,
    /// In no particular order (`evaluation` sorts them). A change hides the islands it
    /// replaces (`hidden`) and pushes the new ones at the end, so that undoing it is a
    /// truncate: an AI trying every draw and discard copies no island back and forth. The
    /// hidden ones are dropped when the next change starts. On the heap (not inline): an AI
    /// keeps many states, and a small state keeps each change's memory traffic low.
    islands: Vec<IslandEval>,
    /// Indices in `islands` of the islands the last change replaced (at most the six a card
    /// touches, on top of at most 52 live islands: a `u64` holds them).
    hidden: u64,
    /// Set instead of `islands` while the hand needs the joker search.
    joker: Option<Box<Evaluation>>,
    /// One level of undo: the last card added (true) or removed (false), if the islands
    /// below can restore the state before it.
    undo: Option<(Card, bool)>,
    /// How many islands the last change pushed at the end of `islands`.
    undo_inserted: usize,
    /// Counts and minima of the live islands, kept current by every change (folded in the
    /// same pass that finds the touched islands), and their value before the last change.
    value: Value,
    undo_value: Value,
    /// The last change, when it was a card that can join no meld (`is_inert`) and its
    /// islands are not yet rebuilt: such a card changes no placement, so the hand's value only
    /// gains or loses its deadwood, and `value` is already current. The islands are rebuilt by
    /// the next change that does not undo it (`commit`), or in a copy by `evaluation`: an AI
    /// that tries a card and takes it back never pays for them.
    pending: Option<(Card, bool)>,
    /// Islands solved since creation (the bench and tests read it).
    pub islands_solved: u64,
}

impl HandState {
    /// Evaluates `hand` under `options` once; later changes re-solve only the islands they touch.
    pub fn new(hand: Hand, options: Options) -> HandState {
        let mut state = HandState {
            hand,
            options,
            islands: Vec::new(),
            joker: None,
            hidden: 0,
            undo: None,
            undo_inserted: 0,
            value: Value::DONE,
            undo_value: Value::DONE,
            pending: None,
            islands_solved: 0,
        };
        state.full();
        state
    }

    fn full(&mut self) {
        self.undo = None;
        self.pending = None;
        let e = evaluate(&self.hand, &self.options);
        self.islands_solved += e.islands.len() as u64;
        self.islands.clear();
        self.hidden = 0;
        self.value = e.value;
        if e.joker_mode {
            self.joker = Some(Box::new(e));
        } else {
            // Room for a change's new islands next to the ones it hides (no reallocation
            // on an AI's first trial).
            self.islands.reserve(e.islands.len() + SPARE_ISLANDS);
            self.islands.extend(e.islands);
            self.joker = None;
        }
    }

    /// The current hand.
    pub fn hand(&self) -> &Hand {
        &self.hand
    }

    /// The options the hand is evaluated under.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Counts and minima of the current hand.
    pub fn value(&self) -> Value {
        match &self.joker {
            Some(e) => e.value,
            None => self.value,
        }
    }

    /// The islands of the current hand.
    fn live(&self) -> impl Iterator<Item = &IslandEval> {
        let hidden = self.hidden;
        self.islands
            .iter()
            .enumerate()
            .filter(move |(k, _)| hidden >> k & 1 == 0)
            .map(|(_, i)| i)
    }

    /// Drops the islands the last change replaced (its undo is no longer possible), after
    /// rebuilding the islands of a pending inert change (`pending`) with the hand as that
    /// change left it: call before the hand changes again.
    fn commit(&mut self) {
        self.undo = None;
        if let Some((card, added)) = self.pending.take() {
            // The value already counts the change: only the islands are rebuilt.
            if added {
                self.place_added(card.lane_bit());
            } else if let Some(pos) = self.island_of(card) {
                self.place_removed(pos, card);
            } else {
                // Unreachable (the card was in the hand): rebuild everything.
                self.full();
                return;
            }
        }
        if self.hidden != 0 {
            let hidden = self.hidden;
            let mut k = 0;
            self.islands.retain(|_| {
                k += 1;
                hidden >> (k - 1) & 1 == 0
            });
            self.hidden = 0;
        }
    }

    /// The full `Evaluation` of the current hand (no re-solving), islands in the order
    /// [`evaluate`] lists them (by lowest card).
    pub fn evaluation(&self) -> Evaluation {
        if self.pending.is_some() {
            let mut built = self.clone();
            built.commit();
            return built.evaluation();
        }
        match &self.joker {
            Some(e) => (**e).clone(),
            None => {
                let mut islands: SmallVec<[IslandEval; 8]> = self.live().copied().collect();
                // Islands are disjoint, so an island's lowest cell names it.
                islands.sort_unstable_by_key(|i| i.cards.one.trailing_zeros());
                Evaluation::from_islands(self.hand, self.options, islands)
            }
        }
    }

    /// Restores the islands saved by the previous operation if it was the inverse of this
    /// one (`added` says whether that operation added `card`).
    fn try_undo(&mut self, card: Card, added: bool) -> bool {
        if self.undo.take() != Some((card, added)) {
            return false;
        }
        let kept = self.islands.len().saturating_sub(self.undo_inserted);
        self.islands.truncate(kept);
        self.hidden = 0;
        self.pending = None;
        self.value = self.undo_value;
        true
    }

    /// Adds a card; re-solves only the island it joins (nothing at all when it puts back the
    /// card just removed, or when it can join no meld).
    pub fn add(&mut self, card: Card) -> Result<(), RummyError> {
        let bit = card.lane_bit();
        // The checks below read the hand as it will be, without copying it (a copy written
        // field by field and read back whole stalls on the store).
        if card.is_joker() || self.hand.count(card) == 2 || self.wild_after(self.hand.one | 1u64 << bit) {
            // A joker, or the refused third copy (`Hand::add` says why, changing nothing).
            self.hand.add(card)?;
            self.full();
            return Ok(());
        }
        if self.try_undo(card, false) {
            self.put(bit);
            return Ok(());
        }
        // Before the hand changes: a pending change is rebuilt with the hand it left.
        self.commit();
        self.put(bit);
        self.undo_value = self.value;
        self.undo = Some((card, true));
        // Every island exact (an unknown one makes the minima `u64::MAX`) and the card
        // inert: the islands it links keep their answers and it is dumped, so the hand's
        // value gains its deadwood; the islands wait (`pending`).
        if self.value.min_cp != u64::MAX && is_inert(self.hand.one, bit, self.options.ace_high) {
            self.value = self.value.combine(Value::single(1, rank_points((bit % 16) as u8)));
            self.pending = Some((card, true));
            self.undo_inserted = 0;
            return Ok(());
        }
        self.value = self.place_added(bit);
        self.undo_inserted = 1;
        Ok(())
    }

    /// Replaces the islands a card just added at `bit` touches by the island they make with
    /// it (hidden, pushed at the end) and returns the hand's new value.
    fn place_added(&mut self, bit: u32) -> Value {
        let near = self.neighbourhood(bit);
        // The touched islands, found without a branch per island (which one touches the
        // card is a coin toss for the branch predictor).
        let mut mask = 1u64 << bit;
        let mut touched = 0u64;
        for (k, island) in self.islands.iter().enumerate() {
            let hit = u64::from(island.cards.one & near != 0);
            touched |= hit << k;
            mask |= island.cards.one & hit.wrapping_neg();
        }
        self.hidden = touched;
        let mut joined = Joined::default();
        let mut bits = touched;
        while bits != 0 {
            joined.take(&self.islands[bits.trailing_zeros() as usize]);
            bits &= bits - 1;
        }
        let rest = self
            .value
            .without(joined.value)
            .unwrap_or_else(|| self.live().fold(Value::DONE, |acc, i| acc.combine(i.value)));
        let value = if joined.exact && is_inert(self.hand.one, bit, self.options.ace_high) {
            // The card can join no meld, and (see `is_inert`) gave no other card a
            // placement: the islands it links keep their answers, and it is dumped.
            let island = IslandEval {
                cards: Hand::from_masks(mask, self.hand.two & mask, 0),
                control: joined.control,
                value: joined.value.combine(Value::single(1, rank_points((bit % 16) as u8))),
                meldable: joined.meldable,
                exact: true,
            };
            self.islands.push(island);
            island.value
        } else {
            self.insert(mask)
        };
        rest.combine(value)
    }

    /// Removes a card; re-solves only its island (split into its new components).
    pub fn remove(&mut self, card: Card) -> Result<(), RummyError> {
        let card_bit = card.lane_bit();
        // The cells once a natural card went (read only after `is_joker`: a joker has no cell).
        let one_after = || {
            if self.hand.two >> card_bit & 1 != 0 {
                self.hand.one
            } else {
                self.hand.one & !(1u64 << card_bit)
            }
        };
        if card.is_joker() || self.joker.is_some() || self.hand.count(card) == 0 || self.wild_after(one_after()) {
            // A joker, the joker search before or after, or a card not held (`Hand::remove`
            // says why, changing nothing).
            self.hand.remove(card)?;
            self.full();
            return Ok(());
        }
        if self.try_undo(card, true) {
            self.take(card_bit);
            return Ok(());
        }
        // Before the hand changes: a pending change is rebuilt with the hand it left.
        self.commit();
        // Inert in the hand before the removal (the card's lane and rank lie in its island).
        let inert = is_inert(self.hand.one, card_bit, self.options.ace_high);
        self.take(card_bit);
        let Some(pos) = self.island_of(card) else {
            self.full();
            return Ok(());
        };
        self.undo_value = self.value;
        self.undo = Some((card, false));
        // Every island exact and the card inert: it was dumped in every arrangement and gave
        // no card a placement, so the hand's value loses its deadwood; the islands wait.
        let dumped = Value::single(1, rank_points((card_bit % 16) as u8));
        if inert && self.value.min_cp != u64::MAX {
            if let Some(value) = self.value.without(dumped) {
                self.value = value;
                self.pending = Some((card, false));
                self.undo_inserted = 0;
                return Ok(());
            }
        }
        let rest = match self.value.without(self.islands[pos].value) {
            Some(rest) => rest,
            None => {
                let all = self.islands.iter().enumerate().filter(|&(k, _)| k != pos);
                all.fold(Value::DONE, |acc, (_, i)| acc.combine(i.value))
            }
        };
        self.value = rest.combine(self.place_removed(pos, card));
        Ok(())
    }

    /// The index of the live island holding `card`'s cell.
    fn island_of(&self, card: Card) -> Option<usize> {
        let bit = 1u64 << card.lane_bit();
        let hidden = self.hidden;
        (0..self.islands.len()).find(|&k| hidden >> k & 1 == 0 && self.islands[k].cards.one & bit != 0)
    }

    /// Replaces island `pos`, which held `card` (just removed from the hand), by its new
    /// components (the old one hidden, the new ones pushed at the end) and returns their
    /// combined value.
    fn place_removed(&mut self, pos: usize, card: Card) -> Value {
        let old = self.islands[pos];
        self.hidden = 1 << pos;
        let left = old.cards.one & self.hand.one;
        let card_bit = card.lane_bit();
        // Whether the card went without changing any placement, so that the cards left keep
        // their flags and the island's answer only loses the card's deadwood.
        let inert = old.exact && is_inert(old.cards.one, card_bit, self.options.ace_high);
        self.undo_inserted = 0;
        let mut total = Value::DONE;
        if left == 0 {
            // A lone card went: nothing to re-solve.
        } else if left == old.cards.one {
            // A second copy went: same cells, new counts.
            let fewer = old.value.without(Value::single(1, rank_points((card_bit % 16) as u8)));
            total = match fewer {
                Some(value) if inert => {
                    let cards = Hand::from_masks(left, self.hand.two & left, 0);
                    self.islands.push(IslandEval { cards, value, ..old });
                    value
                }
                _ => self.insert(left),
            };
            self.undo_inserted = 1;
        } else {
            let parts = islands_by_fill(left, self.options.ace_high);
            let flagged = if inert {
                placed_cells(left, self.options.ace_high)
            } else {
                0
            };
            // When one part holds every card with a placement, it keeps the old answer less
            // the cards that left it (the card removed and the other parts, all dumped).
            let mut cores = parts.iter().filter(|&&part| part & flagged != 0);
            let core = match (cores.next(), cores.next()) {
                (Some(&core), None) => {
                    let gone = Hand::from_masks(old.cards.one & !core, old.cards.two & !core, 0);
                    let dumped = Value::single(gone.len() as u32, lane_points(&gone));
                    old.value.without(dumped).map(|value| (core, value))
                }
                _ => None,
            };
            for &part in &parts {
                let cards = Hand::from_masks(part, self.hand.two & part, 0);
                let value = if inert && part & flagged == 0 {
                    let value = Value::single(cards.len() as u32, lane_points(&cards));
                    self.islands.push(IslandEval {
                        cards,
                        control: 0,
                        value,
                        meldable: false,
                        exact: true,
                    });
                    value
                } else if let Some((_, value)) = core.filter(|&(core, _)| core == part) {
                    self.islands.push(IslandEval { cards, value, ..old });
                    value
                } else {
                    self.insert(part)
                };
                total = total.combine(value);
                self.undo_inserted += 1;
            }
        }
        total
    }

    /// Adds a copy of the natural card at lane bit `bit`, known to be held at most once
    /// (`Hand::add` without its checks and error, which `add` made already).
    fn put(&mut self, bit: u32) {
        let m = 1u64 << bit;
        if self.hand.one & m != 0 {
            self.hand.two |= m;
        } else {
            self.hand.one |= m;
        }
    }

    /// Removes a copy of the natural card at lane bit `bit`, known to be held.
    fn take(&mut self, bit: u32) {
        let m = 1u64 << bit;
        if self.hand.two & m != 0 {
            self.hand.two &= !m;
        } else {
            self.hand.one &= !m;
        }
    }

    /// Whether the hand needs the joker search once its cells are `one` (`needs_joker_search`
    /// for a natural card added or removed: the printed jokers do not change).
    fn wild_after(&self, one: u64) -> bool {
        self.hand.jokers > 0 || self.options.wild_rank.is_some_and(|r| one & rank_column(r as u32) != 0)
    }

    /// Cells whose island a card at `bit` joins: itself, its suit neighbours, its rank.
    fn neighbourhood(&self, bit: u32) -> u64 {
        let rank = bit % 16;
        let base = bit - rank;
        let mut near = rank_column(rank);
        if rank > 0 {
            near |= 1u64 << (bit - 1);
        }
        if rank < 12 {
            near |= 1u64 << (bit + 1);
        }
        if self.options.ace_high {
            if rank == 0 {
                near |= 1u64 << (base + 12);
            }
            if rank == 12 {
                near |= 1u64 << base;
            }
        }
        near
    }

    /// Solves the island of cells `mask`, pushes it at the end and returns its value.
    fn insert(&mut self, mask: u64) -> Value {
        let cards = Hand::from_masks(mask, self.hand.two & mask, 0);
        let island = IslandEval::solve(cards, &self.options);
        self.islands_solved += 1;
        self.islands.push(island);
        island.value
    }
}

/// What the islands a new card links bring to the island it makes.
struct Joined {
    value: Value,
    control: u64,
    meldable: bool,
    exact: bool,
}

impl Default for Joined {
    fn default() -> Joined {
        Joined {
            value: Value::DONE,
            control: 0,
            meldable: false,
            exact: true,
        }
    }
}

impl Joined {
    fn take(&mut self, island: &IslandEval) {
        self.value = self.value.combine(island.value);
        self.control |= island.control;
        self.meldable |= island.meldable;
        self.exact &= island.exact;
    }
}

/// Cells of `one` that can join a run or a set.
fn placed_cells(one: u64, ace_high: bool) -> u64 {
    run_capable(one, ace_high).0 | set_capable(one)
}

/// Whether the cell at `bit` of `one` (present) can join no meld. Such a cell gives no other
/// cell a placement either: a run window through it would place it, and so would a rank held
/// in three suits. So adding or removing it changes no flag, and every arrangement dumps it:
/// an island's answer gains or loses exactly its deadwood. (`placed_cells` for one cell: its
/// suit's lane and its rank only.)
fn is_inert(one: u64, bit: u32, ace_high: bool) -> bool {
    let rank = bit % 16;
    // The rank held in three suits or more (bit by bit: no popcount instruction here).
    let column = (one >> rank) & 0x0001_0001_0001_0001;
    let (a, b, c, d) = (column & 1, column >> 16 & 1, column >> 32 & 1, column >> 48);
    if a & b & (c | d) | c & d & (a | b) != 0 {
        return false;
    }
    let mut lane = (one >> (bit - rank)) & 0x1FFF;
    if ace_high {
        lane |= (lane & 1) << 13;
    }
    let window = lane & (lane >> 1) & (lane >> 2);
    let runs = window | (window << 1) | (window << 2);
    let high = ace_high && rank == 0 && runs & (1 << 13) != 0;
    runs & (1 << rank) == 0 && !high
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn card(i: u8) -> Card {
        Card::from_index(i % 53).unwrap_or(Card::JOKER)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// After any sequence of adds and removes, the cached state equals a full re-solve.
        #[test]
        fn incremental_equals_full(
            start in proptest::collection::vec(0u8..52, 0..16),
            ops in proptest::collection::vec((any::<bool>(), 0u8..60), 1..30),
            ace_high in any::<bool>(),
            split_runs in any::<bool>(),
        ) {
            let options = Options { ace_high, split_runs, ..Options::default() };
            let mut hand = Hand::new();
            for i in start {
                let _ = hand.add(card(i));
            }
            let mut state = HandState::new(hand, options);
            for (add, i) in ops {
                // Indices ≥ 52 are jokers now and then (the fallback path); odd indices are
                // undone at once (the make/unmake pattern).
                let c = if i >= 58 { Card::JOKER } else { card(i % 52) };
                let done = if add { state.add(c) } else { state.remove(c) };
                if done.is_ok() && i % 2 == 1 {
                    let full = evaluate(state.hand(), &options);
                    prop_assert_eq!(state.value(), full.value);
                    let _ = if add { state.remove(c) } else { state.add(c) };
                }
                let full = evaluate(state.hand(), &options);
                prop_assert_eq!(state.value(), full.value);
                prop_assert_eq!(state.evaluation().islands, full.islands);
            }
        }
    }

    proptest! {
        /// The one-cell test agrees with the whole-hand flags.
        #[test]
        fn inert_means_no_placement(one in any::<u64>(), pick in any::<u32>(), ace_high in any::<bool>()) {
            let one = one & 0x1FFF_1FFF_1FFF_1FFF;
            prop_assume!(one != 0);
            let bits: Vec<u32> = (0..64).filter(|b| one >> b & 1 == 1).collect();
            let bit = bits[pick as usize % bits.len()];
            prop_assert_eq!(is_inert(one, bit, ace_high), placed_cells(one, ace_high) & (1u64 << bit) == 0);
        }
    }

    #[test]
    fn an_inert_card_is_added_and_removed_without_a_search() {
        // 4S joins 2H 3H 4H through its rank and 5S through its suit, and can join no meld.
        let hand = Hand::parse("2H 3H 4H 5S 9C").unwrap();
        let mut state = HandState::new(hand, Options::default());
        let before = state.islands_solved;
        let four = Card::new(3, 0).unwrap();
        let nine = Card::new(8, 3).unwrap();
        // A second copy of 9C, then 4S; each change commits the one before, so the removals
        // below take the fast paths rather than the undo: a second copy going, and an island
        // splitting into one with melds and one without.
        state.add(nine).unwrap();
        state.add(four).unwrap();
        assert_eq!(state.islands_solved, before);
        assert_eq!(state.evaluation(), evaluate(state.hand(), state.options()));
        state.remove(nine).unwrap();
        assert_eq!(state.evaluation(), evaluate(state.hand(), state.options()));
        state.add(Card::new(12, 2).unwrap()).unwrap();
        state.remove(four).unwrap();
        assert_eq!(state.islands_solved, before);
        assert_eq!(state.evaluation(), evaluate(state.hand(), state.options()));
        assert_eq!(state.value().min_cards(), 3);
    }

    /// A card that can join no meld waits (`pending`): its islands are rebuilt by the next
    /// change, with the hand that change found, or in a copy by `evaluation`. Each step is
    /// checked against a full solve, and none of them searches.
    #[test]
    fn a_pending_inert_change_is_rebuilt_by_the_next_one() {
        let parse = |t: &str| Hand::parse(t).unwrap().cards()[0];
        for ace_high in [false, true] {
            let options = Options {
                ace_high,
                ..Options::default()
            };
            let mut state = HandState::new(Hand::parse("2H 3H 4H 9C KD").unwrap(), options);
            let before = state.islands_solved;
            let check = |state: &HandState| {
                let full = evaluate(state.hand(), state.options());
                assert_eq!(state.value(), full.value, "{}", state.hand());
                assert_eq!(state.evaluation(), full, "{}", state.hand());
            };
            // 4S again (a second copy of a pending card), then 5S next to it: each rebuilds
            // the one before with the hand it left.
            for text in ["4S", "4S", "5S", "TC"] {
                state.add(parse(text)).unwrap();
                assert!(state.pending.is_some(), "{text}");
                check(&state);
            }
            // Removing pending or settled inert cards, then adding another.
            for text in ["4S", "9C", "TC"] {
                state.remove(parse(text)).unwrap();
                assert!(state.pending.is_some(), "{text}");
                check(&state);
            }
            state.add(parse("KC")).unwrap();
            check(&state);
            assert_eq!(state.islands_solved, before);
            // 4D makes rank 4 a set with 4H 4S: not inert, so the pending KC is rebuilt and
            // the island searched (or found in the cache).
            state.add(parse("4D")).unwrap();
            assert!(state.pending.is_none());
            check(&state);
            // Undo of a pending change restores the value and leaves nothing pending.
            state.add(parse("8C")).unwrap();
            state.remove(parse("8C")).unwrap();
            assert!(state.pending.is_none());
            check(&state);
            // A joker after a pending change: the full evaluation takes over.
            state.add(parse("8C")).unwrap();
            state.add(Card::JOKER).unwrap();
            check(&state);
            state.remove(Card::JOKER).unwrap();
            check(&state);
        }
    }

    /// Refused changes leave the state as it was (the checks read the hand without changing
    /// it first).
    #[test]
    fn refused_changes_change_nothing() {
        let hand = Hand::parse("2H 2H 3H 4H 9C").unwrap();
        let mut state = HandState::new(hand, Options::default());
        let two = Card::new(1, 1).unwrap();
        let value = state.value();
        assert!(state.add(two).is_err());
        assert!(state.remove(Card::new(5, 0).unwrap()).is_err());
        assert!(state.remove(Card::JOKER).is_err());
        assert_eq!(*state.hand(), hand);
        assert_eq!(state.value(), value);
        assert_eq!(state.evaluation(), evaluate(&hand, &Options::default()));
        // A wild rank: adding a card of it switches to the joker search and back.
        let options = Options {
            wild_rank: Some(6),
            ..Options::default()
        };
        let mut state = HandState::new(hand, options);
        let seven = Card::new(6, 2).unwrap();
        state.add(seven).unwrap();
        assert_eq!(state.value(), evaluate(state.hand(), &options).value);
        state.remove(seven).unwrap();
        assert_eq!(state.evaluation(), evaluate(&hand, &options));
    }

    #[test]
    fn add_touches_only_its_island() {
        let hand = Hand::parse("2H 3H 9S 9D KC").unwrap();
        let mut state = HandState::new(hand, Options::default());
        let before = state.islands_solved;
        state.add(Card::new(3, 1).unwrap()).unwrap(); // 4H joins 2H 3H
        assert_eq!(state.islands_solved, before + 1);
        assert_eq!(state.value().min_cards(), 3);
        state.remove(Card::new(2, 1).unwrap()).unwrap(); // 3H out: 2H and 4H split
        assert_eq!(state.islands_solved, before + 3);
        // Make/unmake: putting 3H back restores the saved islands without solving.
        state.add(Card::new(2, 1).unwrap()).unwrap();
        assert_eq!(state.islands_solved, before + 3);
        assert_eq!(state.value(), evaluate(state.hand(), state.options()).value);
        assert_eq!(state.value(), evaluate(state.hand(), state.options()).value);
    }
}
