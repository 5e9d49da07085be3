//! Random positions of the game for `kibitzer diff`: every one a valid input of its rule sets.

use crate::positions::{input, Rng};

/// Dou dizhu endgames small enough for the exact solver to answer at once: two to seven cards a
/// side, and sometimes a single or a pair of the other cards to answer; for `doudizhu_table`,
/// three hands (see [`table_inputs`]).
pub(crate) fn random_inputs(rng: &mut Rng, rule_set: &str) -> Vec<(String, String)> {
    use rand::Rng as _;
    let deck = shuffled_deck(rng);
    if rule_set == "doudizhu_table" {
        return table_inputs(rng, &deck);
    }
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

/// The 54 cards, shuffled.
fn shuffled_deck(rng: &mut Rng) -> Vec<&'static str> {
    use rand::seq::SliceRandom;
    let ranks = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2"];
    let mut deck: Vec<&str> = ranks.iter().flat_map(|r| [*r; 4]).collect();
    deck.extend(["BJ", "RJ"]);
    deck.shuffle(rng);
    deck
}

/// A three-player position near the end: one to six cards in each hand (so the solver answers at
/// once), a role for the seat to act, and sometimes a single of the other cards to answer, made by
/// the next seat or the one after.
fn table_inputs(rng: &mut Rng, deck: &[&str]) -> Vec<(String, String)> {
    use rand::Rng as _;
    let sizes = [
        rng.random_range(1..=6),
        rng.random_range(1..=6),
        rng.random_range(1..=6),
    ];
    let mut rest = deck;
    let mut p = Vec::new();
    for (name, n) in ["me", "next", "after"].into_iter().zip(sizes) {
        p.push(input(name, rest[..n].join(" ")));
        rest = &rest[n..];
    }
    p.push(input(
        "role",
        ["landlord", "down", "up"][rng.random_range(0..3)].to_string(),
    ));
    if rng.random_bool(0.5) {
        p.push(input("last", rest[0].to_string()));
        p.push(input("last_by", ["next", "after"][rng.random_range(0..2)].to_string()));
    }
    p
}
