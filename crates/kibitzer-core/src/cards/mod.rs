//! Playing cards and their notation (`README.md`): the types every card game shares.
//! Tiles and dou dizhu ranks live with their games' native modules.

pub mod card;
mod hand;
mod notation;

pub use card::{Card, Suit};
pub use hand::Cards;
pub use notation::{parse_card, parse_cards, CardSpec, NotationError};
