//! What a seat sees and may do: the `Player` trait the arena drives. Rule-set players (written by
//! the engine's side) implement the same trait as the native ones.

use serde::Serialize;

use super::meld::Meld;
use super::tile::{Counts, Tile};

/// What a player may do on its own turn (after a draw, a replacement draw, or a pong/chow).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum TurnAction {
    /// Declare a self-drawn win (only right after a draw).
    Win,
    /// Discard one tile of this kind.
    Discard(Tile),
    /// Discard and declare ready (报听): legal only if the hand is then ready; from then on the
    /// player must discard every drawn tile that does not win, and may not call except to win.
    DeclareReady(Tile),
    /// Concealed kong (four in hand) or added kong (a pong plus the fourth tile); a replacement
    /// tile is drawn from the end of the wall and the turn goes on.
    Kong(Tile),
}

/// What a player may do when the opponent discards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum CallAction {
    /// Win on the discard.
    Win,
    /// Make a triplet with two held tiles, then discard.
    Pong,
    /// Make a quad with three held tiles, draw a replacement, then discard.
    Kong,
    /// Make the sequence whose lowest tile is given, then discard.
    Chow(Tile),
    /// Let it go.
    Pass,
}

/// Everything one seat can see. `visible` counts the tiles this seat knows are not drawable:
/// both discard piles, the opponent's melds (concealed kongs are shown in this arena) and, for the
/// kinds not in play (pin and bamboo in two-player mahjong), all four copies — so
/// `4 − own − visible` is exactly the live count.
#[derive(Debug, Clone)]
pub struct PlayerView {
    /// This seat (0 or 1).
    pub seat: usize,
    /// Whether this seat dealt this game.
    pub dealer: bool,
    /// The concealed hand (13 − 3k tiles, or 14 − 3k on the own turn).
    pub hand: Counts,
    /// The tile just drawn, if the turn began with a draw (not after a pong or chow).
    pub drawn: Option<Tile>,
    /// Own melds.
    pub melds: Vec<Meld>,
    /// The opponent's melds.
    pub opponent_melds: Vec<Meld>,
    /// Own discards still on the table (claimed ones are in the opponent's melds).
    pub own_discards: Vec<Tile>,
    /// The opponent's discards still on the table.
    pub opponent_discards: Vec<Tile>,
    /// How many of `opponent_discards` came up to its declaring ready, the declaring discard
    /// included (0: it has not declared). The ones before were chosen by its discard policy;
    /// the ones after are drawn tiles it threw back.
    pub opponent_ready_at: usize,
    /// Tiles known not to be drawable (see above).
    pub visible: Counts,
    /// Tiles left to draw.
    pub wall_remaining: usize,
    /// Whether this seat has declared ready.
    pub ready: bool,
    /// Whether the opponent has declared ready.
    pub opponent_ready: bool,
    /// Whether chows are allowed.
    pub can_chow: bool,
    /// Kinds known not to complete the opponent's hand: once it has declared ready its hand is
    /// fixed, so every tile it discarded since (a draw that did not win) and every tile this seat
    /// discarded since that it did not win on. All zero while the opponent is not ready. (Assumes
    /// players always take a win, as every built-in player does.)
    pub opponent_safe: Counts,
}

impl PlayerView {
    /// A view of a lone hand (for queries and tests): seat 0, no discards, nothing ready, the
    /// given melds and visible tiles, chows allowed, `wall_remaining` 20.
    pub fn for_hand(hand: Counts, melds: Vec<Meld>, visible: Counts, drawn: Option<Tile>) -> Self {
        PlayerView {
            seat: 0,
            dealer: true,
            hand,
            drawn,
            melds,
            opponent_melds: Vec::new(),
            own_discards: Vec::new(),
            opponent_discards: Vec::new(),
            opponent_ready_at: 0,
            visible,
            wall_remaining: 20,
            ready: false,
            opponent_ready: false,
            can_chow: true,
            opponent_safe: [0; 34],
        }
    }
}

/// A seat at the table. Implementations must be deterministic given the seed of `start_game`.
pub trait Player {
    /// Short name for reports.
    fn name(&self) -> String;

    /// Called before each game with this game's seed (reseed any randomness here).
    fn start_game(&mut self, _seat: usize, _seed: u64) {}

    /// The own turn: win, discard (maybe declaring ready) or kong.
    fn on_draw(&mut self, view: &PlayerView) -> TurnAction;

    /// The opponent discarded `offered` (already in `view.opponent_discards` and `view.visible`).
    fn on_discard(&mut self, view: &PlayerView, offered: Tile) -> CallAction;
}
