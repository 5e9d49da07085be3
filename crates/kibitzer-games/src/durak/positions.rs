//! Random positions of the game for `kibitzer diff`: every one a valid input of its rule sets.

use crate::positions::{input, shuffled_deck, Rng, RANKS, SUITS};

/// A 36-card deck: the value of a hand of six, or a decision to attack or defend.
pub(crate) fn random_inputs(rng: &mut Rng, _rule_set: &str) -> Vec<(String, String)> {
    use rand::Rng as _;
    let d = shuffled_deck(rng, &RANKS[4..]);
    let trump = SUITS[rng.random_range(0..4)].to_string();
    let role = ["value", "attack", "defend"][rng.random_range(0..3)];
    // The deck holds the stock, the two hands of six and the card on the table.
    let table = usize::from(role == "defend");
    let mut p = vec![
        input("hand", d[..6].join(" ")),
        input("trump", trump),
        input("stock", rng.random_range(0..=24 - table).to_string()),
        input("hands", "6,6".to_string()),
        input("role", role.to_string()),
    ];
    if table == 1 {
        p.push(input("table", d[6].clone()));
    }
    p
}
