//! The evaluator's lookup tables, built once at first use.
//!
//! A hand is evaluated by walking a small state machine: a state is "the ranks seen so far (a multiset)
//! and whether all cards so far share one suit (which)". Each state owns a row of 52 entries; the entry
//! for card `c` is the row offset of the state after adding `c`, and in the rows of four-card states it
//! is the final [`HandRank`](super::rank::HandRank) value instead. There are 6,735 states (about 1.4 MB),
//! so one hand costs five dependent loads, and a nested enumeration that keeps the state of each prefix
//! costs ONE load per hand in its innermost loop.
//!
//! Row 0 is a sink for impossible sequences (a rank seen five times, which only duplicate cards give):
//! all its entries are 0, so it leads back to itself and ends as the weakest rank; nothing panics.
//!
//! Final values are dense: the strength keys of all 6,331 distinct outcomes (under this game's
//! tie rules) are sorted and numbered, so a rank doubles as an index for counting sorts.

use std::collections::HashMap;
use std::sync::OnceLock;

/// Entries per state row: one per card.
pub(super) const ROW: usize = 52;

/// The built tables.
pub(super) struct Tables {
    /// Row-major transitions; see the module doc.
    pub(super) next: Vec<u32>,
    /// Offset of the row of the empty hand.
    pub(super) root: u32,
    /// Packed strength key of each dense rank value, ascending (see [`packed_key`]).
    pub(super) keys: Vec<u32>,
}

/// The tables, built on first use (the ace high only: A-2-3-4-5 is no straight).
pub(super) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| build(false))
}

/// The tables of a table's rules: with `wheel`, A-2-3-4-5 is a straight, 5 high (the lowest);
/// built on first use. The same number of distinct strengths either way (one high card and one
/// flush become a straight and a straight flush).
pub(super) fn tables_for(wheel: bool) -> &'static Tables {
    static WHEEL: OnceLock<Tables> = OnceLock::new();
    match wheel {
        false => tables(),
        true => WHEEL.get_or_init(|| build(true)),
    }
}

/// Suit marker of a state whose cards do not all share one suit.
const MIXED: u8 = 4;
/// Suit marker of the empty state.
const EMPTY: u8 = 5;

/// A state: rank counts packed 3 bits per rank index, and the common suit (or `MIXED` / `EMPTY`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct StateKey {
    counts: u64,
    suit: u8,
}

impl StateKey {
    fn count(self, rank_index: usize) -> u64 {
        (self.counts >> (3 * rank_index)) & 7
    }

    /// The state after one more card, or `None` when the rank would appear a fifth time.
    fn add(self, card: usize) -> Option<StateKey> {
        let rank_index = card / 4;
        let suit = (card % 4) as u8;
        if self.count(rank_index) >= 4 {
            return None;
        }
        // Two cards of one rank differ in suit (only duplicate cards could say otherwise), so a
        // repeated rank ends any flush; this keeps duplicate-card states out of the table.
        let suit = match self.suit {
            _ if self.count(rank_index) > 0 => MIXED,
            EMPTY => suit,
            same if same == suit => suit,
            _ => MIXED,
        };
        Some(StateKey {
            counts: self.counts + (1 << (3 * rank_index)),
            suit,
        })
    }

    fn rank_counts(self) -> [u8; 13] {
        let mut counts = [0u8; 13];
        for (rank_index, count) in counts.iter_mut().enumerate() {
            *count = self.count(rank_index) as u8;
        }
        counts
    }
}

fn build(wheel: bool) -> Tables {
    // Row 0: the sink. Row 1: the empty hand.
    let mut next = vec![0u32; 2 * ROW];
    let mut level: Vec<(StateKey, usize)> = vec![(StateKey { counts: 0, suit: EMPTY }, 1)];
    for cards_held in 0..5 {
        let mut ids: HashMap<StateKey, usize> = HashMap::new();
        let mut next_level = Vec::new();
        for &(state, row) in &level {
            for card in 0..ROW {
                let Some(after) = state.add(card) else {
                    continue; // stays 0: the sink
                };
                let entry = if cards_held == 4 {
                    packed_key_with(&after.rank_counts(), after.suit != MIXED, wheel)
                } else {
                    let id = *ids.entry(after).or_insert_with(|| {
                        let id = next.len() / ROW;
                        next.extend(std::iter::repeat_n(0, ROW));
                        next_level.push((after, id));
                        id
                    });
                    (id * ROW) as u32
                };
                next[row * ROW + card] = entry;
            }
        }
        if cards_held < 4 {
            level = next_level;
        }
    }
    // `level` now holds the four-card states whose rows carry packed keys: make them dense.
    let mut keys: Vec<u32> = level
        .iter()
        .flat_map(|&(_, row)| next[row * ROW..(row + 1) * ROW].iter().copied())
        .filter(|&key| key != 0)
        .collect();
    keys.sort_unstable();
    keys.dedup();
    for &(_, row) in &level {
        for entry in &mut next[row * ROW..(row + 1) * ROW] {
            if *entry != 0 {
                *entry = keys.binary_search(entry).unwrap_or(0) as u32;
            }
        }
    }
    Tables {
        next,
        root: ROW as u32,
        keys,
    }
}

/// Bits of the category strength (10 − category) in a packed key.
pub(super) const CATEGORY_SHIFT: u32 = 20;

/// Packed strength of a five-card hand given its rank counts and whether it is one suit:
/// `(10 − category) << 20` followed by the deciding ranks (2..=14) in 4-bit fields, most significant
/// first, exactly those a showdown compares (so equal keys are ties).
#[cfg(test)]
pub(super) fn packed_key(counts: &[u8; 13], one_suit: bool) -> u32 {
    packed_key_with(counts, one_suit, false)
}

/// [`packed_key`], with `wheel`: A-2-3-4-5 a straight whose ranks compare as 5 4 3 2 1.
fn packed_key_with(counts: &[u8; 13], one_suit: bool, wheel: bool) -> u32 {
    // Ranks grouped by multiplicity, larger groups first, higher ranks first within a group.
    let mut groups: Vec<(u8, u8)> = (0..13u8)
        .rev()
        .filter(|&i| counts[usize::from(i)] > 0)
        .map(|i| (counts[usize::from(i)], i + 2))
        .collect();
    groups.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    let shape: Vec<u8> = groups.iter().map(|g| g.0).collect();
    let mut ranks_high_to_low: Vec<u8> = groups.iter().map(|g| g.1).collect();
    let is_wheel = wheel && ranks_high_to_low == [14, 5, 4, 3, 2];
    if is_wheel {
        ranks_high_to_low = vec![5, 4, 3, 2, 1];
    }
    let consecutive = shape.len() == 5 && (is_wheel || ranks_high_to_low[0] - ranks_high_to_low[4] == 4);
    let (category, deciding): (u32, &[u8]) = match (shape.as_slice(), consecutive, one_suit) {
        (_, true, true) => (1, &ranks_high_to_low),
        ([4, 1], _, _) => (2, &ranks_high_to_low[..1]),
        ([3, 2], _, _) => (3, &ranks_high_to_low[..1]),
        (_, _, true) => (4, &ranks_high_to_low),
        (_, true, false) => (5, &ranks_high_to_low),
        ([3, 1, 1], _, _) => (6, &ranks_high_to_low[..1]),
        ([2, 2, 1], _, _) => (7, &ranks_high_to_low),
        ([2, 1, 1, 1], _, _) => (8, &ranks_high_to_low),
        _ => (9, &ranks_high_to_low),
    };
    let mut key = (10 - category) << CATEGORY_SHIFT;
    for (slot, &rank) in deciding.iter().enumerate() {
        key |= u32::from(rank) << (16 - 4 * slot as u32);
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_machine_has_the_expected_size() {
        let t = tables();
        // 1 sink + 1 + 52 + 403 + 1599 + 4680 states (multisets × common-suit options).
        assert_eq!(t.next.len() / ROW, 1 + 1 + 52 + 403 + 1599 + 4680);
        assert_eq!(t.keys.len(), 6331);
    }

    #[test]
    fn packed_keys_hold_only_the_deciding_ranks() {
        let mut counts = [0u8; 13];
        counts[6] = 3; // three 8s
        counts[8] = 2; // two tens
        assert_eq!(packed_key(&counts, false), (7 << 20) | (8 << 16));
        let mut counts = [0u8; 13];
        for i in [12, 0, 1, 2, 3] {
            counts[i] = 1; // A 2 3 4 5: not a straight
        }
        assert_eq!(packed_key(&counts, true) >> 20, 6, "suited A2345 is a flush");
        assert_eq!(packed_key(&counts, false) >> 20, 1, "offsuit A2345 is high card");
        assert_eq!(
            packed_key_with(&counts, true, true) >> 20,
            9,
            "with the wheel, a straight flush"
        );
        assert_eq!(
            packed_key_with(&counts, false, true) >> 20,
            5,
            "with the wheel, a straight"
        );
    }

    #[test]
    fn the_wheel_tables_rank_a_to_5_below_the_six_high_straight() {
        let plain = tables();
        let wheel = tables_for(true);
        assert_eq!(wheel.keys.len(), plain.keys.len(), "as many distinct strengths");
        let rank = |t: &Tables, cards: [u8; 5]| cards.iter().fold(t.root, |s, &c| super::super::eval::step(t, s, c));
        // Card index = (rank − 2) × 4 + suit: A♠ 2♥ 3♦ 4♣ 5♠, 2♥ 3♦ 4♣ 5♠ 6♥, A♠ K♠ Q♥ J♦ 9♣, 7♠ 7♥ 7♦ K♣ 2♠.
        let wheel_hand = [48, 1, 6, 11, 12];
        let six_high = [1, 6, 11, 12, 17];
        let ace_high = [48, 44, 41, 38, 31];
        let trips = [20, 21, 22, 47, 0];
        assert!(rank(wheel, wheel_hand) < rank(wheel, six_high));
        assert!(rank(wheel, wheel_hand) > rank(wheel, trips));
        assert!(
            rank(plain, wheel_hand) < rank(plain, ace_high),
            "without the wheel: A 5 4 3 2 high card"
        );
    }
}
