//! A hand as the original method's 4 × 13 count grid, stored as two 64-bit lane masks (one 16-bit lane
//! per suit, bit = rank): `one` holds the cells with at least one copy, `two` those with two.

use super::card::{parse_cards, Card};
use super::error::RummyError;
use std::fmt;

/// Printed jokers allowed in one hand (two per deck).
pub const MAX_JOKERS: u8 = 4;

/// A multiset of cards from the double deck (≤ 2 copies of a card, ≤ 4 jokers).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Hand {
    pub(super) one: u64,
    pub(super) two: u64,
    pub(super) jokers: u8,
}

impl Hand {
    /// The empty hand.
    pub const fn new() -> Hand {
        Hand {
            one: 0,
            two: 0,
            jokers: 0,
        }
    }

    /// Builds a hand, refusing a third copy of a card or a fifth joker.
    pub fn from_cards(cards: &[Card]) -> Result<Hand, RummyError> {
        let mut hand = Hand::new();
        for &card in cards {
            hand.add(card)?;
        }
        Ok(hand)
    }

    /// Parses the original notation (see `parse_cards`) into a hand.
    pub fn parse(text: &str) -> Result<Hand, RummyError> {
        Hand::from_cards(&parse_cards(text)?)
    }

    pub(super) const fn from_masks(one: u64, two: u64, jokers: u8) -> Hand {
        Hand { one, two, jokers }
    }

    /// Copies of `card` held (0..=2, jokers 0..=4).
    pub fn count(&self, card: Card) -> u8 {
        if card.is_joker() {
            return self.jokers;
        }
        let bit = 1u64 << card.lane_bit();
        u8::from(self.one & bit != 0) + u8::from(self.two & bit != 0)
    }

    /// Adds one copy of `card`, refusing a third copy or a fifth joker.
    pub fn add(&mut self, card: Card) -> Result<(), RummyError> {
        if card.is_joker() {
            if self.jokers >= MAX_JOKERS {
                return Err(RummyError::TooManyJokers {
                    count: self.jokers as usize + 1,
                });
            }
            self.jokers += 1;
            return Ok(());
        }
        let bit = 1u64 << card.lane_bit();
        if self.two & bit != 0 {
            return Err(RummyError::TooManyCopies { card: card.to_string() });
        }
        if self.one & bit != 0 {
            self.two |= bit;
        } else {
            self.one |= bit;
        }
        Ok(())
    }

    /// Removes one copy of `card`, refusing a card the hand does not hold.
    pub fn remove(&mut self, card: Card) -> Result<(), RummyError> {
        if card.is_joker() {
            if self.jokers == 0 {
                return Err(RummyError::NotInHand { card: card.to_string() });
            }
            self.jokers -= 1;
            return Ok(());
        }
        let bit = 1u64 << card.lane_bit();
        if self.two & bit != 0 {
            self.two &= !bit;
        } else if self.one & bit != 0 {
            self.one &= !bit;
        } else {
            return Err(RummyError::NotInHand { card: card.to_string() });
        }
        Ok(())
    }

    /// Number of cards, jokers included.
    pub fn len(&self) -> usize {
        (self.one.count_ones() + self.two.count_ones()) as usize + self.jokers as usize
    }

    /// Whether the hand holds no card.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Lane mask of the cells held at least once (bit `16 * suit + rank`).
    pub fn one_mask(&self) -> u64 {
        self.one
    }

    /// Printed jokers held.
    pub fn jokers(&self) -> u8 {
        self.jokers
    }

    /// The cards in canonical order (suit S H D C, then rank A..K, jokers last).
    pub fn cards(&self) -> Vec<Card> {
        let mut out = Vec::with_capacity(self.len());
        let mut bits = self.one;
        while bits != 0 {
            let bit = bits.trailing_zeros();
            bits &= bits - 1;
            let card = Card::from_lane_bit(bit);
            out.push(card);
            if self.two & (1u64 << bit) != 0 {
                out.push(card);
            }
        }
        out.extend(std::iter::repeat_n(Card::JOKER, self.jokers as usize));
        out
    }

    /// Distinct cards held, canonical order.
    pub fn distinct(&self) -> Vec<Card> {
        let mut out = self.cards();
        out.dedup();
        out
    }

    /// Sum of the face points of the natural cards.
    pub fn face_points(&self) -> u32 {
        self.cards().iter().map(|c| c.face_points()).sum()
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&super::card::format_cards(&self.cards()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn third_copy_and_fifth_joker_are_refused() {
        assert_eq!(
            Hand::parse("2H 2H 2h").unwrap_err().to_string(),
            "2H appears more than twice (the double deck has two copies)"
        );
        assert!(Hand::parse("JK JK JK JK").is_ok());
        assert!(matches!(
            Hand::parse("JK JK JK JK JK"),
            Err(RummyError::TooManyJokers { count: 5 })
        ));
    }

    #[test]
    fn add_remove_round_trip() {
        let mut hand = Hand::parse("KC 2H 2H JK AS").unwrap();
        assert_eq!(hand.to_string(), "AS 2H 2H KC JK");
        assert_eq!(hand.len(), 5);
        let two_h = Card::new(1, 1).unwrap();
        hand.remove(two_h).unwrap();
        assert_eq!(hand.count(two_h), 1);
        hand.remove(two_h).unwrap();
        assert!(hand.remove(two_h).is_err());
        assert_eq!(hand.to_string(), "AS KC JK");
    }
}
