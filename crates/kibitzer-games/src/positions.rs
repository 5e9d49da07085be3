//! What the games' random positions share: the card notation's suits and ranks, a shuffled deck,
//! and the generator's type. Each game's `positions.rs` makes its own positions from these.

/// The generator every game's positions are drawn with (seeded: `kibitzer diff --seed`).
pub type Rng = rand_chacha::ChaCha8Rng;

/// A game's random position: its inputs by name, as text.
pub type Inputs = Vec<(String, String)>;

/// One input by name, as text.
pub(crate) fn input(name: &str, value: String) -> (String, String) {
    (name.to_string(), value)
}

pub(crate) const SUITS: [&str; 4] = ["S", "H", "D", "C"];
pub(crate) const RANKS: [&str; 13] = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];

/// A shuffled deck of the given ranks in the four suits.
pub(crate) fn shuffled_deck(rng: &mut Rng, ranks: &[&str]) -> Vec<String> {
    use rand::seq::SliceRandom;
    let mut d: Vec<String> = SUITS
        .iter()
        .flat_map(|s| ranks.iter().map(move |r| format!("{r}{s}")))
        .collect();
    d.shuffle(rng);
    d
}
