//! Rummy hand evaluator (work in progress).
pub mod card;
pub mod error;
pub mod evaluate;
pub mod grid;
pub mod hand;
mod jokers;
pub mod meld;
pub mod options;
mod sets;
mod solver;

#[cfg(test)]
mod oracle;
#[cfg(test)]
mod oracle_tests;

pub use card::{format_cards, parse_cards, Card};
pub use error::RummyError;
pub use evaluate::{evaluate, ArrangementIter, Evaluation, IslandEval};
pub use hand::Hand;
pub use meld::{Arrangement, Meld, MeldKind};
pub use options::Options;
pub use solver::Value;
