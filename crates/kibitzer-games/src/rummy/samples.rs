//! Sample hands for tests and benchmarks: random deals from the double deck, island-heavy hands
//! (many near-melds, the solver's hard case) and the worst case.

use super::card::Card;
use super::hand::Hand;
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The 104 cards of the double deck.
pub fn double_deck() -> Vec<Card> {
    (0..52u8)
        .filter_map(|i| Card::from_index(i).ok())
        .flat_map(|c| [c, c])
        .collect()
}

/// A hand of `size` cards dealt from a shuffled double deck.
pub fn random_hand(rng: &mut ChaCha8Rng, size: usize) -> Hand {
    let mut deck = double_deck();
    deck.shuffle(rng);
    deck.truncate(size);
    // At most two copies of each card by construction.
    Hand::from_cards(&deck).unwrap_or_default()
}

/// An island-heavy hand: up to `size` cards from both copies of 2–4 suits × a window of 3–7
/// ranks (fewer when the window holds fewer cards), topped up from the rest of the deck.
pub fn island_hand(rng: &mut ChaCha8Rng, size: usize) -> Hand {
    let suits = rng.random_range(2..=4usize);
    let width = rng.random_range(3..=7u8);
    let low = rng.random_range(0..=(13 - width));
    let mut order = [0u8, 1, 2, 3];
    order.shuffle(rng);
    let mut pool: Vec<Card> = Vec::new();
    for &s in &order[..suits] {
        for r in low..low + width {
            if let Some(c) = Card::new(r, s) {
                pool.push(c);
                pool.push(c);
            }
        }
    }
    pool.shuffle(rng);
    pool.truncate(size);
    let mut hand = Hand::from_cards(&pool).unwrap_or_default();
    let mut rest = double_deck();
    rest.shuffle(rng);
    for c in rest {
        if hand.len() >= size {
            break;
        }
        let _ = hand.add(c);
    }
    hand
}

/// The worst case: the full heart suit plus AS AC.
pub fn worst_hand() -> Hand {
    Hand::parse("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AS AC").unwrap_or_default()
}
