//! The native evaluator: five table loads per hand, or one per hand inside a nested enumeration.

use super::cards::DECK_SIZE;
use super::error::StudError;
use super::rank::HandRank;
use super::tables::{tables, tables_for, Tables, ROW};
use std::cmp::Ordering;

/// Strength of five cards (any order).
///
/// Needs five distinct indices below 52 (see [`rank5_checked`]); anything else gives an unspecified
/// rank, never a panic.
pub fn rank5(cards: [u8; 5]) -> HandRank {
    let t = tables();
    let mut state = t.root;
    for card in cards {
        state = step(t, state, card);
    }
    HandRank(state as u16)
}

/// [`rank5`] for user input: exactly five distinct cards of the deck.
pub fn rank5_checked(cards: &[u8]) -> Result<HandRank, StudError> {
    let hand: [u8; 5] = cards.try_into().map_err(|_| StudError::HandSize(cards.len()))?;
    for (i, &card) in hand.iter().enumerate() {
        if usize::from(card) >= DECK_SIZE {
            return Err(StudError::CardIndex(card));
        }
        if hand[..i].contains(&card) {
            return Err(StudError::DuplicateCard(super::cards::card_name(card)));
        }
    }
    Ok(rank5(hand))
}

/// Compares two hands as a showdown does: `Greater` when `a` wins, `Equal` for a tie.
pub fn compare(a: [u8; 5], b: [u8; 5]) -> Ordering {
    rank5(a).cmp(&rank5(b))
}

/// [`compare`] at a table whose rules count A-2-3-4-5 as a straight, 5 high, or not (`wheel`).
pub fn compare_at(a: [u8; 5], b: [u8; 5], wheel: bool) -> Ordering {
    let t = tables_for(wheel);
    walk(t, &a).cmp(&walk(t, &b))
}

/// One transition: the state (row offset) after adding `card`; after the fifth card, the dense rank.
#[inline(always)]
pub(super) fn step(t: &Tables, state: u32, card: u8) -> u32 {
    let card = usize::from(card).min(ROW - 1);
    t.next.get(state as usize + card).copied().unwrap_or(0)
}

/// The state after a partial hand (at most five cards).
pub(super) fn walk(t: &Tables, cards: &[u8]) -> u32 {
    cards.iter().fold(t.root, |state, &card| step(t, state, card))
}

#[cfg(test)]
mod tests {
    use super::super::cards::parse_cards;
    use super::*;

    fn rank_of(text: &str) -> HandRank {
        let cards = parse_cards(text).unwrap_or_default();
        rank5_checked(&cards).unwrap_or(HandRank(0))
    }

    #[test]
    fn order_does_not_matter() {
        let a = rank_of("8S TD TS 8H 8C");
        assert_eq!(a, rank_of("TD 8C TS 8H 8S"));
        assert_eq!(a.category(), 3);
    }

    #[test]
    fn checked_rejects_bad_hands() {
        assert_eq!(rank5_checked(&[1, 2, 3]), Err(StudError::HandSize(3)));
        assert_eq!(rank5_checked(&[1, 2, 3, 4, 60]), Err(StudError::CardIndex(60)));
        assert!(matches!(
            rank5_checked(&[1, 2, 3, 4, 4]),
            Err(StudError::DuplicateCard(_))
        ));
        // Unchecked bad input must not panic.
        let _ = rank5([0, 0, 0, 0, 0]);
        let _ = rank5([255, 255, 52, 53, 0]);
        let _ = super::super::rank::describe(rank5([0, 0, 0, 0, 0]));
    }
}
