//! The module's single error type: every variant names the offending token or value.

use thiserror::Error;

/// Everything that can go wrong when reading dou dizhu notation or setting up a position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum DoudizhuError {
    /// A token that is not a rank (`3`..`9`, `T`/`10`, `J`, `Q`, `K`, `A`, `2`, `BJ`, `RJ`).
    #[error("`{0}`: unknown rank")]
    UnknownRank(String),
    /// A fifth copy of a rank in one hand (or in two hands dealt from one deck).
    #[error("`{0}`: a fifth copy of this rank (a deck has four)")]
    FifthCopy(String),
    /// A second small or big joker (a deck has one of each).
    #[error("`{0}`: a second joker of this colour (a deck has one)")]
    DuplicateJoker(String),
    /// The cards do not form one play allowed by the rules in force.
    #[error("`{0}`: not a legal play under these rules")]
    NotAPlay(String),
    /// A play to answer that the answering side cannot see as legal (e.g. empty).
    #[error("`{0}`: the play to answer is empty")]
    EmptyPlay(String),
}
