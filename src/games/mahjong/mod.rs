//! Two-player mahjong (placeholder doc, rewritten at the end).

mod call;
mod discard;
mod error;
#[cfg(test)]
mod oracle;
mod meld;
mod notation;
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
