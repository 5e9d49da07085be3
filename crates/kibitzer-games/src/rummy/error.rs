//! The one error type of the rummy module: every variant names the offending token or value.

use thiserror::Error;

/// Everything that can go wrong when reading or changing a rummy hand.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum RummyError {
    /// A token whose rank part is not `A 2..9 T 10 J Q K` (the token is quoted as written).
    #[error("`{token}`: unknown rank {rank}")]
    UnknownRank {
        /// The whole token as written.
        token: String,
        /// The rank part that was not understood.
        rank: String,
    },
    /// A token whose suit part is not `S H D C` / `♠ ♥ ♦ ♣`.
    #[error("`{token}`: unknown suit {suit}")]
    UnknownSuit {
        /// The whole token as written.
        token: String,
        /// The suit part that was not understood.
        suit: String,
    },
    /// A rank with no suit after it (end of input or a separator).
    #[error("`{token}`: missing suit")]
    MissingSuit {
        /// The token as written, a rank alone.
        token: String,
    },
    /// The double deck holds only two copies of each card.
    #[error("{card} appears more than twice (the double deck has two copies)")]
    TooManyCopies {
        /// The card given a third time, in canonical notation.
        card: String,
    },
    /// At most four printed jokers (two per deck).
    #[error("{count} jokers: the double deck has at most 4")]
    TooManyJokers {
        /// How many printed jokers were given.
        count: usize,
    },
    /// `remove` of a card the hand does not hold.
    #[error("{card} is not in the hand")]
    NotInHand {
        /// The card asked for, in canonical notation.
        card: String,
    },
    /// A wild rank outside A..K.
    #[error("wild rank {rank} is out of range (0..=12 for A..K)")]
    BadWildRank {
        /// The rank index given.
        rank: u8,
    },
    /// A card index outside 0..=52.
    #[error("card index {index} is out of range")]
    BadCardIndex {
        /// The index given.
        index: u8,
    },
}
