//! The module's one error type: every variant names the offending token or value.

use thiserror::Error;

/// Everything that can go wrong when reading tiles, melds and hands.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum MahjongError {
    /// A token that is not a tile (`1X`, `0m`, `8z`, `Q`).
    #[error("`{token}`: unknown tile ({reason})")]
    UnknownTile {
        /// The token as written.
        token: String,
        /// Why it is not a tile.
        reason: String,
    },
    /// Digits with no suit letter after them (`123`).
    #[error("`{token}`: digits without a suit letter (m, p, s or z)")]
    MissingSuit {
        /// The dangling digits.
        token: String,
    },
    /// More than four copies of one kind among the tiles given together.
    #[error("{tile} appears {count} times (there are only 4)")]
    TooManyCopies {
        /// The tile in canonical form.
        tile: String,
        /// How many copies were given.
        count: usize,
    },
    /// A hand whose size does not fit the number of called melds.
    #[error("a hand with {melds} called meld(s) needs {expected} tiles, got {got}")]
    WrongHandSize {
        /// Accepted size(s), e.g. "13 or 14".
        expected: String,
        /// Tiles given.
        got: usize,
        /// Called melds given.
        melds: usize,
    },
    /// A called-meld group that is neither a sequence, a triplet nor a quad.
    #[error("`{token}`: not a meld ({reason})")]
    BadMeld {
        /// The group as written.
        token: String,
        /// Why it was refused.
        reason: String,
    },
    /// More than four called melds.
    #[error("{count} called melds given, at most 4 are possible")]
    TooManyMelds {
        /// Melds given.
        count: usize,
    },
}
