//! Dou dizhu endgame (placeholder doc, rewritten at the end).
mod error;
mod hand;
mod movegen;
mod play;
mod rules;
#[cfg(test)]
mod rlcard_check;

pub use error::DoudizhuError;
pub use hand::{parse_hand, rank_name, Hand};
pub use movegen::{legal_leads, legal_responses};
pub use play::{classify, parse_play, Play, PlayKind};
pub use rules::Rules;
