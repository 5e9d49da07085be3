//! Random positions of the game for `kibitzer diff`: every one a valid input of its rule sets.

use crate::positions::{input, shuffled_deck, Rng, RANKS};

/// Five to ten cards of the double deck (two jokers in it), sometimes a card on the discard pile,
/// and the game's conventions drawn at random.
pub(crate) fn random_inputs(rng: &mut Rng, _rule_set: &str) -> Vec<(String, String)> {
    use rand::seq::SliceRandom;
    use rand::Rng as _;
    let mut deck = [shuffled_deck(rng, &RANKS), shuffled_deck(rng, &RANKS)].concat();
    deck.extend(["JK".to_string(), "JK".to_string()]);
    deck.shuffle(rng);
    let size = rng.random_range(5..=10);
    let mut p = vec![
        input("hand", deck[..size].join(" ")),
        input("ace_high", rng.random_bool(0.3).to_string()),
        input("split_runs", rng.random_bool(0.3).to_string()),
    ];
    // The pile's card is one of those not in the hand: never a third copy, never a joker.
    if let Some(top) = deck[size..]
        .iter()
        .find(|c| *c != "JK")
        .filter(|_| rng.random_bool(0.5))
    {
        p.push(input("discard_top", top.clone()));
    }
    if rng.random_bool(0.2) {
        p.push(input("wild", RANKS[rng.random_range(0..RANKS.len())].to_string()));
    }
    p
}
