//! The module's single error type: every variant names the offending token or value, so a caller can
//! print it as a one-line message.

use thiserror::Error;

/// Everything that can go wrong in the Durak module: bad notation, bad options, misplays.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DurakError {
    /// A card token that cannot be read.
    #[error("`{token}`: {reason}")]
    BadCard { token: String, reason: String },
    /// A card listed twice in one hand or list.
    #[error("{0} appears twice")]
    DuplicateCard(String),
    /// A card that the chosen deck does not contain (e.g. `2S` in the 36-card deck).
    #[error("{card} is not in the {deck}-card deck")]
    CardNotInDeck { card: String, deck: usize },
    /// A deck size other than 24, 32, 36 or 52.
    #[error("`{0}`: unknown deck (24, 32, 36 or 52 cards)")]
    BadDeck(String),
    /// A suit token that cannot be read.
    #[error("`{0}`: unknown suit (S, H, D, C or ♠ ♥ ♦ ♣)")]
    BadSuit(String),
    /// A number token that cannot be read (stock size, hand sizes, parameters).
    #[error("`{token}`: {reason}")]
    BadNumber { token: String, reason: String },
    /// A player count outside 2..=6.
    #[error("{0} players: Durak is played by 2 to 6")]
    BadPlayerCount(usize),
    /// More players than the deck can deal six cards to.
    #[error("{players} players need {needed} cards but the {deck}-card deck has only {deck}")]
    DeckTooSmall { players: usize, needed: usize, deck: usize },
    /// A prescribed deck order that is not a permutation of the deck.
    #[error("deck order: {0}")]
    BadDeckOrder(String),
    /// A parameter name or value that cannot be used.
    #[error("parameter `{name}`: {reason}")]
    BadParam { name: String, reason: String },
    /// An action after the game has ended.
    #[error("the game is over")]
    GameOver,
    /// An action by a player whose turn it is not.
    #[error("player {player} cannot act now: it is player {expected}'s turn")]
    NotYourTurn { player: usize, expected: usize },
    /// A misplay: the action is not legal in this position (the state is left unchanged).
    #[error("player {player}: `{action}` is illegal: {reason}")]
    IllegalAction {
        player: usize,
        action: String,
        reason: String,
    },
    /// Inputs of a position that contradict each other; `input` names the one to blame.
    #[error("input `{input}`: {message}")]
    BadInput { input: String, message: String },
    /// A seat's player could not choose an action (e.g. a rule set failed).
    #[error("seat {seat}: {message}")]
    PlayerFailed { seat: usize, message: String },
}
