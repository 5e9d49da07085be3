//! A stud situation: what I know, what each opponent shows, what else has been seen.

use super::cards::{card_name, check_card, DECK_SIZE};
use super::error::StudError;

/// Cards a player ends with.
pub const HAND_SIZE: usize = 5;

/// A validated situation for 2–5 players.
///
/// Every player ends with five cards; the cards not given (my unknown cards, each opponent's hole
/// card and undealt streets) are drawn from the unseen cards: the deck minus my cards, every shown
/// card and `dead` (cards seen elsewhere, e.g. folded upcards).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Situation {
    me: Vec<u8>,
    opponents: Vec<Vec<u8>>,
    dead: Vec<u8>,
    /// A-2-3-4-5 counts as a straight, 5 high (see [`Situation::with_wheel`]).
    wheel: bool,
}

impl Situation {
    /// Checks counts (me 1..=5, each opponent 0..=5, 1..=4 opponents), indices and duplicates, and
    /// that enough unseen cards remain to complete every hand.
    pub fn new(me: Vec<u8>, opponents: Vec<Vec<u8>>, dead: Vec<u8>) -> Result<Situation, StudError> {
        if me.is_empty() || me.len() > HAND_SIZE {
            return Err(StudError::MyCardCount(me.len()));
        }
        if opponents.is_empty() || opponents.len() > 4 {
            return Err(StudError::PlayerCount(opponents.len() + 1));
        }
        for (i, shown) in opponents.iter().enumerate() {
            if shown.len() > HAND_SIZE {
                return Err(StudError::OpponentCardCount {
                    opponent: i + 1,
                    count: shown.len(),
                });
            }
        }
        let mut seen = [false; DECK_SIZE];
        let all = me.iter().chain(opponents.iter().flatten()).chain(&dead);
        for &card in all {
            let card = usize::from(check_card(card)?);
            if seen[card] {
                return Err(StudError::DuplicateCard(card_name(card as u8)));
            }
            seen[card] = true;
        }
        let situation = Situation {
            me,
            opponents,
            dead,
            wheel: false,
        };
        let needed = situation.missing_cards();
        let unseen = situation.unseen().len();
        if needed > unseen {
            return Err(StudError::NotEnoughCards { needed, unseen });
        }
        Ok(situation)
    }

    /// My known cards.
    /// The same situation at a table that counts A-2-3-4-5 as a straight, 5 high (the wheel), or
    /// not (the default: the ace is high only).
    pub fn with_wheel(mut self, wheel: bool) -> Situation {
        self.wheel = wheel;
        self
    }

    /// Whether A-2-3-4-5 counts as a straight.
    pub fn wheel(&self) -> bool {
        self.wheel
    }

    /// My cards.
    pub fn me(&self) -> &[u8] {
        &self.me
    }

    /// The cards each opponent shows.
    pub fn opponents(&self) -> &[Vec<u8>] {
        &self.opponents
    }

    /// Other seen cards.
    pub fn dead(&self) -> &[u8] {
        &self.dead
    }

    /// Players at the table, me included.
    pub fn players(&self) -> usize {
        self.opponents.len() + 1
    }

    /// The unseen cards, ascending.
    pub fn unseen(&self) -> Vec<u8> {
        let mut seen = [false; DECK_SIZE];
        for &card in self.me.iter().chain(self.opponents.iter().flatten()) {
            seen[usize::from(card)] = true;
        }
        for &card in &self.dead {
            seen[usize::from(card)] = true;
        }
        (0..DECK_SIZE as u8).filter(|&c| !seen[usize::from(c)]).collect()
    }

    /// How many cards each player still needs, me first.
    pub fn missing_per_player(&self) -> Vec<usize> {
        std::iter::once(&self.me)
            .chain(&self.opponents)
            .map(|cards| HAND_SIZE - cards.len())
            .collect()
    }

    /// Cards still to be dealt in all.
    pub fn missing_cards(&self) -> usize {
        self.missing_per_player().iter().sum()
    }

    /// Number of distinct deals of the unknown cards (saturating at `u128::MAX`).
    pub fn deal_count(&self) -> u128 {
        let mut remaining = self.unseen().len();
        let mut deals: u128 = 1;
        for missing in self.missing_per_player() {
            let ways = u128::from(super::combos::binomial(remaining, missing));
            deals = deals.saturating_mul(ways);
            remaining = remaining.saturating_sub(missing);
        }
        deals
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_names_the_problem() {
        assert_eq!(
            Situation::new(vec![], vec![vec![]], vec![]),
            Err(StudError::MyCardCount(0))
        );
        assert_eq!(Situation::new(vec![1], vec![], vec![]), Err(StudError::PlayerCount(1)));
        assert_eq!(
            Situation::new(vec![1], vec![vec![]; 5], vec![]),
            Err(StudError::PlayerCount(6))
        );
        assert_eq!(
            Situation::new(vec![1], vec![vec![2, 3, 4, 5, 6, 7]], vec![]),
            Err(StudError::OpponentCardCount { opponent: 1, count: 6 })
        );
        assert_eq!(
            Situation::new(vec![1], vec![vec![1]], vec![]),
            Err(StudError::DuplicateCard("2H".to_string()))
        );
        assert_eq!(
            Situation::new(vec![52], vec![vec![]], vec![]),
            Err(StudError::CardIndex(52))
        );
        let dead: Vec<u8> = (5..50).collect();
        assert_eq!(
            Situation::new(vec![0], vec![vec![1]], dead),
            Err(StudError::NotEnoughCards { needed: 8, unseen: 5 })
        );
    }

    #[test]
    fn second_street_deal_count() {
        // Me 2 known, opponent 1 up: C(49,3) × C(46,4) ≈ 3.0e9 showdowns.
        let s = Situation::new(vec![0, 5], vec![vec![9]], vec![]);
        assert_eq!(s.map(|s| s.deal_count()), Ok(18_424 * 163_185));
    }
}
