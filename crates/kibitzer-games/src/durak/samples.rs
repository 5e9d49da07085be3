//! Sample positions for tests and benchmarks: random hands with a stock and hand sizes that fit,
//! and the positions met in seeded games between reference players.

use super::cards::{CardSet, Deck, Suit};
use super::game::{apply, legal_actions_into, Action, GameOptions, GameState};
use super::policy::{decide_action, ReferencePolicy};
use super::view::PlayerView;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Random hands of 0..=12 cards from the 36-card deck with a stock and hand sizes that fit:
/// (hand, trump, stock, every hand size with this one first).
pub fn sample_hands(count: usize, seed: u64) -> Vec<(CardSet, Suit, usize, Vec<usize>)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let deck = Deck::Cards36.cards();
    (0..count)
        .map(|_| {
            let mut cards = deck.clone();
            cards.shuffle(&mut rng);
            let h = rng.random_range(0..=12usize);
            let hand = CardSet::from_cards(&cards[..h]);
            let trump = Suit::ALL[rng.random_range(0..4usize)];
            let stock = rng.random_range(0..=(36 - h).min(24));
            let others = rng.random_range(0..=(36 - h - stock).min(18));
            // Two players at least (an opponent may hold nothing): durak needs two.
            let mut sizes = vec![h];
            let split = if others > 0 { rng.random_range(0..=others) } else { 0 };
            sizes.push(split);
            if others > split {
                sizes.push(others - split);
            }
            (hand, trump, stock, sizes)
        })
        .collect()
}

/// Positions where a player had a real choice, from reference-vs-reference games.
pub fn sample_positions(games: usize, options: &GameOptions) -> Vec<(PlayerView, Vec<Action>)> {
    let policy = ReferencePolicy::default();
    let mut out = Vec::new();
    let mut legal = Vec::new();
    for g in 0..games {
        let Ok(mut state) = GameState::new(options, 1000 + g as u64) else {
            continue;
        };
        while let Some(p) = state.to_act() {
            legal_actions_into(&state, &mut legal);
            let view = state.view(p);
            let action = decide_action(&view, &legal, &policy);
            out.push((view, legal.clone()));
            if apply(&mut state, p, action).is_err() {
                break;
            }
        }
    }
    out
}
