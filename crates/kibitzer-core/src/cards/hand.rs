//! A group of cards as rules see it (a hand, an upcard row, a meld), with its rank and suit
//! summary computed once, so the card built-ins answer in constant time however many rules ask.

use super::card::{Card, Suit};
use smallvec::SmallVec;
use std::fmt;

/// Cards in the order given, plus how many are hidden (`XX`), with precomputed counts.
/// Equality is on the cards in order and the hidden count (the summary follows from them).
#[derive(Clone)]
pub struct Cards {
    cards: SmallVec<[Card; 8]>,
    hidden: u8,
    rank_counts: [u8; 15],
    suit_counts: [u8; 4],
    /// Bit r set when rank r is held; `held[k]` when it is held exactly k times (k = 1..=4+).
    rank_mask: u16,
    held: [u16; 5],
    suit_mask: u8,
    /// Bit `i` set when the card of index `i` is among the visible cards: hashed by working
    /// memory and the what-if memo on every fact and sub-query that holds the group.
    card_mask: u64,
}

impl PartialEq for Cards {
    fn eq(&self, other: &Cards) -> bool {
        self.hidden == other.hidden && self.cards == other.cards
    }
}

impl Eq for Cards {}

impl std::hash::Hash for Cards {
    /// Working memory hashes facts on every insert: the set of cards (a bit mask) and the hidden
    /// count identify a hand well enough, at the cost of one word instead of the whole summary.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.mask() ^ (u64::from(self.hidden) << 56) ^ ((self.cards.len() as u64) << 60));
    }
}

impl Cards {
    /// Visible cards and a number of hidden ones.
    pub fn new(cards: impl IntoIterator<Item = Card>, hidden: u8) -> Cards {
        let cards: SmallVec<[Card; 8]> = cards.into_iter().collect();
        let mut rank_counts = [0u8; 15];
        let mut suit_counts = [0u8; 4];
        let mut held = [0u16; 5];
        let mut suit_mask = 0u8;
        let mut card_mask = 0u64;
        // One pass over the cards, without a branch: each card moves its rank's bit from the
        // count it had to the next (`held[0]` is never set). Every hand a query builds goes
        // through here (a classification's input, each odds deal).
        for c in &cards {
            let (r, s) = (c.rank() as usize, c.suit() as usize);
            let had = rank_counts[r];
            rank_counts[r] = had.saturating_add(1);
            suit_counts[s] = suit_counts[s].saturating_add(1);
            suit_mask |= 1 << s;
            card_mask |= 1u64 << c.index();
            let bit = 1u16 << r;
            held[usize::from(had).min(4)] &= !bit;
            held[(usize::from(had) + 1).min(4)] |= bit;
        }
        let rank_mask = held[1] | held[2] | held[3] | held[4];
        Cards {
            cards,
            hidden,
            rank_counts,
            suit_counts,
            rank_mask,
            held,
            suit_mask,
            card_mask,
        }
    }

    /// The visible cards, in the order given.
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// How many cards are hidden (`XX`).
    pub fn hidden(&self) -> u8 {
        self.hidden
    }

    /// Visible cards.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// True when no card is visible.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// How many visible cards have this rank (2..=14).
    pub fn count_rank(&self, rank: u8) -> u8 {
        self.rank_counts.get(rank as usize).copied().unwrap_or(0)
    }

    /// How many visible cards have this suit.
    pub fn count_suit(&self, suit: Suit) -> u8 {
        self.suit_counts[suit as usize]
    }

    /// Ranks held exactly `k` times, highest first.
    pub fn ranks_held(&self, k: u8) -> impl Iterator<Item = u8> + '_ {
        let mut m: u16 = match k {
            1..=3 => self.held[k as usize],
            _ => (2..15usize)
                .filter(|&r| self.rank_counts[r] == k)
                .fold(0, |m, r| m | 1 << r),
        };
        std::iter::from_fn(move || {
            if m == 0 {
                return None;
            }
            let r = 15 - m.leading_zeros() as u8;
            m &= !(1 << r);
            Some(r)
        })
    }

    /// The visible ranks as bits: bit `r` set when rank `r` (2..=14) is held.
    pub fn rank_mask(&self) -> u16 {
        self.rank_mask
    }

    /// Distinct ranks among the visible cards.
    pub fn distinct_ranks(&self) -> usize {
        self.rank_mask.count_ones() as usize
    }

    /// Distinct suits among the visible cards.
    pub fn distinct_suits(&self) -> usize {
        self.suit_mask.count_ones() as usize
    }

    /// True when the visible ranks are all different and form an unbroken sequence (ace high only:
    /// A-2-3-4-5 is not a sequence, nor is any wrap-around).
    pub fn consecutive(&self) -> bool {
        let n = self.cards.len();
        if n == 0 || self.distinct_ranks() != n {
            return false;
        }
        let run = self.rank_mask >> self.rank_mask.trailing_zeros();
        run == (1u16 << n) - 1
    }

    /// The highest visible rank, 0 if none.
    pub fn high_rank(&self) -> u8 {
        if self.rank_mask == 0 {
            0
        } else {
            15 - self.rank_mask.leading_zeros() as u8
        }
    }

    /// Visible ranks, highest first, repeated as held.
    pub fn ranks_desc(&self) -> SmallVec<[u8; 8]> {
        let mut out = SmallVec::new();
        for r in (2..=14u8).rev() {
            for _ in 0..self.rank_counts[r as usize] {
                out.push(r);
            }
        }
        out
    }

    /// The rank-count pattern, largest first: `[3, 2]` for a full house.
    pub fn rank_pattern(&self) -> SmallVec<[u8; 8]> {
        let mut p: SmallVec<[u8; 8]> = self.rank_counts.iter().copied().filter(|&n| n > 0).collect();
        p.sort_unstable_by(|a, b| b.cmp(a));
        p
    }

    /// True if a card appears more than once.
    pub fn has_duplicates(&self) -> bool {
        let mut seen = 0u64;
        for c in &self.cards {
            let bit = 1u64 << c.index();
            if seen & bit != 0 {
                return true;
            }
            seen |= bit;
        }
        false
    }

    /// A bit set of the visible cards (bit i = card index i).
    pub fn mask(&self) -> u64 {
        self.card_mask
    }

    /// These cards with one hidden card replaced by `card`.
    pub fn with_hidden_filled(&self, card: Card) -> Cards {
        let mut cards = self.cards.clone();
        cards.push(card);
        Cards::new(cards, self.hidden.saturating_sub(1))
    }

    /// People's form: `XX 8♠ 10♦`; an empty group reads `no cards` (an explanation line such as
    /// `hand()` or `card_count() = 0` would leave a reader wondering what is missing).
    pub fn pretty(&self) -> String {
        if self.hidden == 0 && self.cards.is_empty() {
            return "no cards".to_string();
        }
        let mut parts: Vec<String> = (0..self.hidden).map(|_| "XX".to_string()).collect();
        parts.extend(self.cards.iter().map(|c| c.pretty()));
        parts.join(" ")
    }
}

impl fmt::Display for Cards {
    /// The canonical form: `XX 8S TD`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for _ in 0..self.hidden {
            if !first {
                f.write_str(" ")?;
            }
            f.write_str("XX")?;
            first = false;
        }
        for c in &self.cards {
            if !first {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
            first = false;
        }
        Ok(())
    }
}

impl fmt::Debug for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cards({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The summary made in one pass equals counting the cards one question at a time
        /// (repeated cards included: a group may hold a card twice).
        #[test]
        fn summary_matches_counting(indexes in proptest::collection::vec(0u8..52, 0..10)) {
            let cards: Vec<Card> = indexes.iter().filter_map(|&i| Card::from_index(i)).collect();
            let group = Cards::new(cards.iter().copied(), 0);
            let rank_count = |r: u8| cards.iter().filter(|c| c.rank() == r).count();
            for r in 2..=14u8 {
                prop_assert_eq!(group.count_rank(r) as usize, rank_count(r));
            }
            for s in Suit::ALL {
                prop_assert_eq!(group.count_suit(s) as usize, cards.iter().filter(|c| c.suit() == s).count());
            }
            for k in 1..=4u8 {
                let want: Vec<u8> = (2..=14u8).rev().filter(|&r| rank_count(r) == k as usize).collect();
                prop_assert_eq!(group.ranks_held(k).collect::<Vec<_>>(), want);
            }
            prop_assert_eq!(group.distinct_ranks(), (2..=14u8).filter(|&r| rank_count(r) > 0).count());
            prop_assert_eq!(
                group.distinct_suits(),
                Suit::ALL.iter().filter(|&&s| cards.iter().any(|c| c.suit() == s)).count()
            );
        }
    }
}
