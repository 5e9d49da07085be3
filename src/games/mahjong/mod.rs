//! Two-player mahjong (placeholder doc, rewritten at the end).

mod arena;
mod bench;
mod call;
mod discard;
mod error;
mod game;
#[cfg(test)]
mod oracle;
mod meld;
mod notation;
mod player;
mod players;
mod shanten;
mod split;
mod tables;
mod tile;
mod win;

pub use error::MahjongError;
pub use meld::{meld_counts, Meld, MeldKind};
pub use notation::{
    check_copies, format_counts, format_melds, format_tiles, hand_size, parse_counts, parse_meld,
    parse_melds, parse_tile, parse_tiles, require_hand_size, HandSize,
};
pub use shanten::{shanten, shanten_concealed, shanten_seven_pairs, shanten_standard};
pub use tables::prepare_tables;
pub use tile::{
    counts_of, tile_count, tiles_of, two_player_kinds, Counts, Suit, Tile, HONOR_LETTERS, KINDS,
    NO_TILES,
};
pub use win::{is_win, waits, Wait, WinForm};
pub use split::{best_split, Block, BlockKind, ShapeCounts, Split, TileShape};
pub use call::{call_options, CallAnalysis, CallKind, CallOption, CallWeights};
pub use discard::{discard_options, useful_draws, DiscardOption};
pub use arena::{play_match, wilson_interval, MatchStats};
pub use game::{Game, GameResult, Misplay, Outcome};
pub use player::{CallAction, Player, PlayerView, TurnAction};
pub use players::{seed_discard, strong_discard, RandomPlayer, SeedPlayer, StrongPlayer};
pub use bench::{run_bench, run_bench_quick};
