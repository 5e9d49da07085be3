//! Fewest leads that empty a hand: the solvers' move-ordering measure.

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use super::hand::Hand;
use super::movegen::for_each_lead;
use super::rules::Rules;

/// Entries kept before falling back to a cheap estimate (bounds memory on huge hands).
const MEMO_CAP: usize = 1 << 20;

/// Memo of [`Turns::of`] per hand.
#[derive(Default)]
pub(crate) struct Turns {
    memo: FxHashMap<u64, u8>,
}

impl Turns {
    /// A memo with room for a small endgame's hands, so that it does not rehash while it fills.
    pub fn with_room() -> Turns {
        Turns {
            memo: FxHashMap::with_capacity_and_hasher(8192, Default::default()),
        }
    }

    /// Fewest plays that empty `hand` if it always had the lead. Only plays holding the
    /// hand's lowest card are tried, since some play of every partition holds it. Once
    /// the memo is full, new hands get the number of distinct ranks (an upper bound).
    pub fn of(&mut self, hand: Hand, rules: &Rules) -> u8 {
        if hand.is_empty() {
            return 0;
        }
        if let Some(&t) = self.memo.get(&hand.bits()) {
            return t;
        }
        if self.memo.len() >= MEMO_CAP {
            return hand.ranks_with_at_least(1).count_ones() as u8;
        }
        let lowest = (hand.bits().trailing_zeros() / 4) as u8;
        // On the stack: this runs for every new hand the search meets.
        let mut plays: SmallVec<[Hand; 32]> = SmallVec::new();
        for_each_lead(hand, rules, &mut |p| {
            if p.cards.count(lowest) > 0 {
                plays.push(p.cards);
            }
            false
        });
        let mut best = u8::MAX;
        for cards in plays {
            best = best.min(1 + self.of(hand.minus(cards), rules));
            if best == 1 {
                break;
            }
        }
        self.memo.insert(hand.bits(), best);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::super::hand::parse_hand;
    use super::*;

    #[test]
    fn counts_plays() {
        let mut t = Turns::default();
        let r = Rules::default();
        // 3 4 5 6 7 is one straight; the 9 9 pair is a second play.
        assert_eq!(t.of(parse_hand("3 4 5 6 7 9 9").unwrap(), &r), 2);
        // Trio with single makes 3 3 3 K one play.
        assert_eq!(t.of(parse_hand("3 3 3 K").unwrap(), &r), 1);
        // (A memo belongs to one rule set: a fresh one for other rules.)
        assert_eq!(
            Turns::default().of(parse_hand("3 3 3 K").unwrap(), &Rules { three_one: false, ..r }),
            2
        );
    }
}
