//! The one error type of the stud module: every variant carries the offending value.

/// Everything that can be wrong with a card, a hand or a situation handed to this module.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StudError {
    #[error("card index {0} is out of range (0..52)")]
    CardIndex(u8),
    #[error("rank {0} is out of range (2..=14)")]
    Rank(u8),
    #[error("suit {0} is out of range (0..=3)")]
    Suit(u8),
    #[error("`{token}`: {reason}")]
    BadCard { token: String, reason: &'static str },
    #[error("{0} appears twice")]
    DuplicateCard(String),
    #[error("a stud hand has 5 cards, got {0}")]
    HandSize(usize),
    #[error("I must know 1 to 5 of my own cards, got {0}")]
    MyCardCount(usize),
    #[error("opponent {opponent} shows {count} cards; at most 5")]
    OpponentCardCount { opponent: usize, count: usize },
    #[error("stud is played by 2 to 5 players, got {0}")]
    PlayerCount(usize),
    #[error("{needed} cards must still be dealt but only {unseen} are unseen")]
    NotEnoughCards { needed: usize, unseen: usize },
}
