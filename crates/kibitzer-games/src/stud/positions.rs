//! Random positions of the game for `kibitzer diff`: every one a valid input of its rule sets.

use crate::positions::{input, shuffled_deck, Rng, RANKS};

/// Five cards against an opponent showing four, one hidden.
pub(crate) fn random_inputs(rng: &mut Rng, _rule_set: &str) -> Vec<(String, String)> {
    let d = shuffled_deck(rng, &RANKS);
    vec![
        input("hand", d[..5].join(" ")),
        input("opponent", format!("XX {}", d[5..9].join(" "))),
    ]
}
