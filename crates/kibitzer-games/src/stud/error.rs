//! The one error type of the stud module: every variant carries the offending value.

/// Everything that can be wrong with a card, a hand or a situation handed to this module.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StudError {
    /// A card index outside 0..52; holds the index given.
    #[error("card index {0} is out of range (0..52)")]
    CardIndex(u8),
    /// A rank outside 2..=14 (ace high); holds the rank given.
    #[error("rank {0} is out of range (2..=14)")]
    Rank(u8),
    /// A suit outside 0..=3; holds the suit given.
    #[error("suit {0} is out of range (0..=3)")]
    Suit(u8),
    /// A token that is not a card in the notation of `docs/language.md`.
    #[error("`{token}`: {reason}")]
    BadCard {
        /// The token as written.
        token: String,
        /// Why it is not a card (empty, unknown rank, unknown suit).
        reason: &'static str,
    },
    /// A card given twice; holds the card's name.
    #[error("{0} appears twice")]
    DuplicateCard(String),
    /// A hand to rank that does not have 5 cards; holds the number given.
    #[error("a stud hand has 5 cards, got {0}")]
    HandSize(usize),
    /// My own cards are not 1 to 5; holds the number given.
    #[error("I must know 1 to 5 of my own cards, got {0}")]
    MyCardCount(usize),
    /// An opponent shows more than 5 cards.
    #[error("opponent {opponent} shows {count} cards; at most 5")]
    OpponentCardCount {
        /// Which opponent, counted from 1.
        opponent: usize,
        /// How many cards that opponent shows.
        count: usize,
    },
    /// Not 2 to 5 players at the table; holds the number of players, me included.
    #[error("stud is played by 2 to 5 players, got {0}")]
    PlayerCount(usize),
    /// The unseen cards cannot complete every hand.
    #[error("{needed} cards must still be dealt but only {unseen} are unseen")]
    NotEnoughCards {
        /// Cards still to deal to complete every hand.
        needed: usize,
        /// Cards neither held, shown nor dead.
        unseen: usize,
    },
}
