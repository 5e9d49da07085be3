//! Rummy hand evaluator (work in progress).
pub mod card;
pub mod error;
pub mod grid;
pub mod hand;
pub mod meld;
pub mod options;
mod sets;
mod solver;
