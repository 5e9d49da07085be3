//! Random positions of the game for `kibitzer diff`: every one a valid input of its rule sets.

use crate::positions::{input, Rng};

/// The 64 tiles of two-player mahjong (characters and honours), shuffled.
fn mahjong_wall(rng: &mut Rng) -> Vec<String> {
    use rand::seq::SliceRandom;
    let kinds = (1..=9)
        .map(|r| format!("{r}m"))
        .chain(["E", "S", "W", "N", "P", "F", "C"].map(String::from));
    let mut wall: Vec<String> = kinds.flat_map(|k| std::iter::repeat_n(k, 4)).collect();
    wall.shuffle(rng);
    wall
}

/// A hand of 13 − 3k tiles after k called melds, with tiles seen elsewhere; either just drawn (one
/// more tile, the drawn one last) or facing the opponent's discard.
pub(crate) fn random_inputs(rng: &mut Rng, _rule_set: &str) -> Vec<(String, String)> {
    use rand::Rng as _;
    let mut wall = mahjong_wall(rng);
    let mut melds = Vec::new();
    for _ in 0..rng.random_range(0..=2) {
        // A pung of the first kind of which the wall still has three copies, taken from it.
        let Some(kind) = wall
            .iter()
            .find(|k| wall.iter().filter(|t| t == k).count() >= 3)
            .cloned()
        else {
            break;
        };
        for _ in 0..3 {
            if let Some(i) = wall.iter().position(|t| *t == kind) {
                wall.remove(i);
            }
        }
        melds.push(if kind.len() == 2 {
            format!("{0}{0}{0}m", &kind[..1])
        } else {
            kind.repeat(3)
        });
    }
    let size = 13 - 3 * melds.len();
    let hand: Vec<String> = wall.drain(..size).collect();
    let seen = rng.random_range(0..=8);
    let visible: Vec<String> = wall.drain(..seen).collect();
    let mut p = vec![input("melds", melds.join(" ")), input("visible", visible.join(" "))];
    let other = wall.remove(0);
    if rng.random_bool(0.5) {
        p.push(input("hand", format!("{} {other}", hand.join(" "))));
        p.push(input("drawn", other));
    } else {
        p.push(input("hand", hand.join(" ")));
        p.push(input("offered", other));
    }
    p
}
