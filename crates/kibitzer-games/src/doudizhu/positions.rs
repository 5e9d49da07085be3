//! Random positions of the game for `kibitzer diff`: every one a valid input of its rule sets.

use crate::positions::{input, Rng};

/// Dou dizhu endgames small enough for the exact solver to answer at once: two to seven cards a
/// side, and sometimes a single or a pair of the other cards to answer.
pub(crate) fn random_inputs(rng: &mut Rng) -> Vec<(String, String)> {
    use rand::seq::SliceRandom;
    use rand::Rng as _;
    let ranks = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2"];
    let mut deck: Vec<&str> = ranks.iter().flat_map(|r| [*r; 4]).collect();
    deck.extend(["BJ", "RJ"]);
    deck.shuffle(rng);
    let (a, b) = (rng.random_range(2..=7), rng.random_range(2..=7));
    let mut p = vec![
        input("me", deck[..a].join(" ")),
        input("enemy", deck[a..a + b].join(" ")),
    ];
    let rest = &deck[a + b..];
    if rng.random_bool(0.5) {
        let first = rest[0];
        let pair = rng.random_bool(0.4) && first.len() == 1 && rest[1..].contains(&first);
        p.push(input(
            "last",
            if pair {
                format!("{first} {first}")
            } else {
                first.to_string()
            },
        ));
    }
    p
}
