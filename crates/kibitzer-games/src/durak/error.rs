//! The module's single error type: every variant names the offending token or value, so a caller can
//! print it as a one-line message.

use thiserror::Error;

/// Everything that can go wrong in the Durak module: bad notation, bad options, misplays.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum DurakError {
    /// A card token that cannot be read.
    #[error("`{token}`: {reason}")]
    BadCard {
        /// The token as given.
        token: String,
        /// Why it cannot be read.
        reason: String,
    },
    /// A card listed twice in one hand or list.
    #[error("{0} appears twice")]
    DuplicateCard(String),
    /// A card that the chosen deck does not contain (e.g. `2S` in the 36-card deck).
    #[error("{card} is not in the {deck}-card deck")]
    CardNotInDeck {
        /// The card, as written.
        card: String,
        /// The deck size in cards (24, 32, 36 or 52).
        deck: usize,
    },
    /// A deck size other than 24, 32, 36 or 52.
    #[error("`{0}`: unknown deck (24, 32, 36 or 52 cards)")]
    BadDeck(String),
    /// A suit token that cannot be read.
    #[error("`{0}`: unknown suit (S, H, D, C or ♠ ♥ ♦ ♣)")]
    BadSuit(String),
    /// A number token that cannot be read (stock size, hand sizes, parameters).
    #[error("`{token}`: {reason}")]
    BadNumber {
        /// The token as given.
        token: String,
        /// Why it cannot be read.
        reason: String,
    },
    /// A player count outside 2..=6.
    #[error("{0} players: Durak is played by 2 to 6")]
    BadPlayerCount(usize),
    /// More players than the deck can deal six cards to.
    #[error("{players} players need {needed} cards but the {deck}-card deck has only {deck}")]
    DeckTooSmall {
        /// The player count asked for.
        players: usize,
        /// Cards needed to deal six to every player.
        needed: usize,
        /// The deck size in cards.
        deck: usize,
    },
    /// A prescribed deck order that is not a permutation of the deck.
    #[error("deck order: {0}")]
    BadDeckOrder(String),
    /// A parameter name or value that cannot be used.
    #[error("parameter `{name}`: {reason}")]
    BadParam {
        /// The parameter's name.
        name: String,
        /// Why the name or the value cannot be used.
        reason: String,
    },
    /// An action after the game has ended.
    #[error("the game is over")]
    GameOver,
    /// An action by a player whose turn it is not.
    #[error("player {player} cannot act now: it is player {expected}'s turn")]
    NotYourTurn {
        /// The player who tried to act.
        player: usize,
        /// The player whose turn it is.
        expected: usize,
    },
    /// A misplay: the action is not legal in this position (the state is left unchanged).
    #[error("player {player}: `{action}` is illegal: {reason}")]
    IllegalAction {
        /// The player who tried the action.
        player: usize,
        /// The action, as text.
        action: String,
        /// Why it is illegal in this position.
        reason: String,
    },
    /// Inputs of a position that contradict each other; `input` names the one to blame.
    #[error("input `{input}`: {message}")]
    BadInput {
        /// The input to blame (e.g. `out`, `known`).
        input: String,
        /// What is wrong with it.
        message: String,
    },
    /// A seat's player could not choose an action (e.g. a rule set failed).
    #[error("seat {seat}: {message}")]
    PlayerFailed {
        /// The seat whose player failed.
        seat: usize,
        /// What went wrong.
        message: String,
    },
}
