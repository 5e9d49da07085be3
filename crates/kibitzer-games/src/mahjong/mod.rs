//! Two-player mahjong (`docs/mahjong.md`): exact, table-driven hand analysis and a two-player arena.
//!
//! # Public API
//!
//! **Tiles and notation** — [`Tile`] (34 kinds, index 0..34: `1m`–`9m`, `1p`–`9p`, `1s`–`9s`,
//! `E S W N P F C`), hands as [`Counts`] (`[u8; 34]`), [`Meld`] / [`MeldKind`] for called melds.
//! [`parse_tiles`], [`parse_tile`], [`parse_counts`] (refuses a fifth copy), [`parse_melds`],
//! [`parse_meld`], [`check_copies`], [`hand_size`] / [`require_hand_size`] (13 − 3k waiting,
//! 14 − 3k drawn), [`format_counts`], [`format_tiles`], [`format_melds`]. Errors: [`MahjongError`],
//! every variant naming the offending token.
//!
//! Notation: digits collect until a suit letter (`123m55z`, `1112345678999m`); honours as letters
//! `E S W N P F C` (also `1z`–`7z` and 東南西北白發中); spaces and commas optional. A letter right
//! after digits is a suit (`5P` = 5p); alone it is an honour (`P` = white dragon). Canonical output
//! groups suits m, p, s, then honours as letters: `1111m EEESSSWWW`. Melds are groups separated by
//! spaces or commas: `123m` (chow), `777m` / `PPP` (pong), `7777m` (exposed kong), `[CCCC]`
//! (concealed kong), e.g. `melds="PPP 777m"`.
//!
//! **Analysis** (all exact; `melds` are the called melds, `visible` the tiles seen outside the own
//! hand and melds):
//! - [`is_win`] → `Option<`[`WinForm`]`>`: four sets + a pair with the called melds counted, or
//!   seven pairs (a quad counts as two pairs; only without called melds). Standard is reported
//!   when both fit.
//! - [`shanten_standard`], [`shanten_seven_pairs`] (`None` beside called melds), [`shanten`]
//!   (the minimum), [`shanten_concealed`] (fast path, no melds): −1 = won, 0 = ready. Defined as
//!   the fewest tile exchanges to a real winning hand, minus one: no kind beyond four copies,
//!   counting the called melds' copies, so `1111m EEESSSWWW` is 1-shanten, not ready.
//! - [`waits`] → [`Wait`]s: every kind completing a 13 − 3k hand in either form with its live
//!   count `4 − own − visible`; kinds whose four copies are all the player's own are not waits.
//! - [`best_split`] → [`Split`] of [`Block`]s ([`BlockKind`]: sequence, triplet, pair, adjacent,
//!   gapped, single), its [`ShapeCounts`] and [`TileShape`] per tile: the split minimising the
//!   block count, ties to the most live tiles completing its blocks.
//! - [`discard_options`] → [`DiscardOption`] per kind held: shanten after, useful kinds (live
//!   only) and their live tiles, waits when ready, the tile's shape. [`useful_draws`] for a
//!   waiting hand.
//! - [`call_options`] → [`CallAnalysis`]: win flag, current shape / score / shanten / live useful
//!   tiles, and per legal pong, kong, chow a [`CallOption`] with the shape after (singles, gapped,
//!   adjacent for the reference bot's 0.5/0.3/0.2 [`CallWeights`] score), shanten after and live useful
//!   tiles after its best discard.
//! - [`prepare_tables`] builds the tables up front (otherwise the first query does, ~0.1–0.3 s).
//!
//! **Arena** — [`Player`] (`on_draw` → [`TurnAction`], `on_discard` → [`CallAction`],
//! `start_game` to reseed), [`PlayerView`] (and `PlayerView::for_hand` for a lone hand), [`Game`] (one game: [`GameResult`], [`Outcome`],
//! [`Misplay`]), [`play_match`] → [`MatchStats`] (wins, self-drawn, draws, misplays, Wilson
//! intervals via [`wilson_interval`]). Native players: [`RandomPlayer`], [`ReferencePlayer`],
//! [`StrongPlayer`] (and their discard choices [`seed_discard`], [`strong_discard`]).
//!
//! **Rules** — [`rules_api`]: the `mahjong.*` built-ins and the `tiles` / `melds` input types the
//! rule sets `rules/mahjong.rules` (strong) and `rules/mahjong_reference.rules` (the reference bot) call;
//! [`rule_player`]: [`rule_player::RulePlayer`] (a rule set as an arena seat, one reused session)
//! and [`rule_player::TwinCheck`] (a native and a rule player deciding side by side);
//! [`plugin`]: registration. The benchmark and the arena (`kibitzer bench mahjong`, `kibitzer play
//! mahjong`) are the harness's; [`forget_capped_memo`] lets a benchmark time decisions cold.
//!
//! # Design decisions (where the rules of the game leave a choice)
//!
//! - **Tables.** Per suit shape (numbered: 5^9 keys; honours: 5^7), built once on first use with
//!   `OnceLock` (~20 MB): for each count vector and each target "m sets + p pairs" (m ≤ 4,
//!   p ≤ 1) the fewest tiles to add so the suit contains the target, never using a kind more than
//!   four times; plus one bit per key "all sets (and the pair when the size is 2 mod 3)". Built by
//!   one ascending pass (most sets contained) and one descending pass (distance = 1 + best
//!   neighbour). Shanten is a min-plus fold of the four suits; this is the definition of shanten,
//!   so isolated-tile shortages and quads come out right with no special cases.
//! - **Called melds** lower the sets needed and the copies left of their kinds. A suit touched by
//!   a meld is computed by a small exact DP over ranks with those caps (memoised per thread);
//!   untouched suits use the tables.
//! - **Seven pairs** needs 14 concealed tiles (no called melds); a quad is two pairs.
//! - **Junk input** never panics: counts above 4 are read as 4 by shanten and the win check;
//!   splits, discard and call options are not computed for more than 14 tiles or counts above 4
//!   (all singles / no options).
//! - **Split** minimises `8 − 2·sets − partials − head` (called melds are sets, partials capped at
//!   the sets missing), ties to the most live tiles completing pairs and partials, then the first
//!   found (sets before pairs before partials, low tiles first). A tile's shape is the weakest
//!   block it is in (single < gapped < adjacent < pair < set), the reference bot's discard order.
//! - **Useful draws** list kinds that lower shanten and still have a live copy; dead ones are left
//!   out (they cannot be drawn). Waits keep dead waits (live 0), as asked.
//! - **Arena rules.** 64 tiles (1m–9m and honours) + 8 flowers set aside and replaced from the back
//!   of the wall; dealer alternates per game; chows allowed (in two-player the opponent is always
//!   on your left); pong, exposed kong on a discard, concealed and added kongs with a replacement
//!   draw; no robbing a kong; the game is drawn when a draw is due and the wall is empty.
//!   Declaring ready is modelled (`TurnAction::DeclareReady`): the hand is then fixed (discard
//!   every drawn tile that does not win, calls only to win), which the engine enforces. Concealed
//!   kongs are shown to the opponent (its `visible` counts them). In a view, pin and bamboo count
//!   as fully visible so `4 − own − visible` is the live count. `PlayerView::opponent_safe` lists
//!   kinds shown not to complete a ready opponent's hand.
//! - **Misplays** (illegal actions) are recorded with seat, action and reason, and replaced by a
//!   fallback (discard the drawn tile or the highest tile; pass on a call): a buggy rule set
//!   cannot corrupt a game, and the match report shows the count and the first one.
//! - **Seed player ties**: among ready discards the highest tile; within a shape class the
//!   highest tile (the reference bot took the lowest tile of the highest block); among calls with equal
//!   scores kong, pong, then chows from the lowest; it calls when the best score is not worse
//!   than the current one (the reference bot's `<=`).

mod arena;
mod call;
mod discard;
mod discard_probe;
mod error;
mod game;
mod harness;
pub mod lookahead;
mod meld;
mod notation;
mod opponent;
#[cfg(test)]
mod oracle;
mod player;
mod players;
pub mod plugin;
mod positions;
pub mod rule_player;
pub mod rules_api;
mod shanten;
mod split;
mod tables;
mod tile;
mod win;

/// Two-player mahjong as the rest of kibitzer sees it (see [`crate::Game`]).
pub const GAME: crate::Game = crate::Game {
    name: "mahjong",
    rule_files: &[
        ("mahjong.rules", include_str!("../../rules/mahjong.rules")),
        (
            "mahjong_reference.rules",
            include_str!("../../rules/mahjong_reference.rules"),
        ),
    ],
    case_suites: &[
        ("mahjong.cases.toml", include_str!("../../rules/mahjong.cases.toml")),
        (
            "mahjong_reference.cases.toml",
            include_str!("../../rules/mahjong_reference.cases.toml"),
        ),
    ],
    golden: &[
        (
            "../tests/golden/mahjong/nine_gates.txt",
            include_str!("../../tests/golden/mahjong/nine_gates.txt"),
        ),
        (
            "../tests/golden/mahjong/no_fifth_one.txt",
            include_str!("../../tests/golden/mahjong/no_fifth_one.txt"),
        ),
        (
            "../tests/golden/mahjong/seven_pairs.txt",
            include_str!("../../tests/golden/mahjong/seven_pairs.txt"),
        ),
        (
            "../tests/golden/mahjong/most_live_tiles.txt",
            include_str!("../../tests/golden/mahjong/most_live_tiles.txt"),
        ),
        (
            "../tests/golden/mahjong/only_red_leaves_ready.txt",
            include_str!("../../tests/golden/mahjong/only_red_leaves_ready.txt"),
        ),
        (
            "../tests/golden/mahjong/tie_on_height.txt",
            include_str!("../../tests/golden/mahjong/tie_on_height.txt"),
        ),
        (
            "../tests/golden/mahjong/fold_no_chance.txt",
            include_str!("../../tests/golden/mahjong/fold_no_chance.txt"),
        ),
        (
            "../tests/golden/mahjong/own_discard_safe.txt",
            include_str!("../../tests/golden/mahjong/own_discard_safe.txt"),
        ),
        (
            "../tests/golden/mahjong/honour_read.txt",
            include_str!("../../tests/golden/mahjong/honour_read.txt"),
        ),
        (
            "../tests/golden/mahjong/after_four_calls.txt",
            include_str!("../../tests/golden/mahjong/after_four_calls.txt"),
        ),
        (
            "../tests/golden/mahjong/call_east.txt",
            include_str!("../../tests/golden/mahjong/call_east.txt"),
        ),
        (
            "../tests/golden/mahjong/call_one.txt",
            include_str!("../../tests/golden/mahjong/call_one.txt"),
        ),
        (
            "../tests/golden/mahjong/call_red.txt",
            include_str!("../../tests/golden/mahjong/call_red.txt"),
        ),
        (
            "../tests/golden/mahjong/no_fifth_red.txt",
            include_str!("../../tests/golden/mahjong/no_fifth_red.txt"),
        ),
        (
            "../tests/golden/mahjong/wait_one_four.txt",
            include_str!("../../tests/golden/mahjong/wait_one_four.txt"),
        ),
        (
            "../tests/golden/mahjong/seen_fours.txt",
            include_str!("../../tests/golden/mahjong/seen_fours.txt"),
        ),
        (
            "../tests/golden/mahjong/call_south.txt",
            include_str!("../../tests/golden/mahjong/call_south.txt"),
        ),
        (
            "../tests/golden/mahjong/reference_ready_on_red.txt",
            include_str!("../../tests/golden/mahjong/reference_ready_on_red.txt"),
        ),
        (
            "../tests/golden/mahjong/reference_call_east.txt",
            include_str!("../../tests/golden/mahjong/reference_call_east.txt"),
        ),
        (
            "../tests/golden/mahjong/reference_call_one.txt",
            include_str!("../../tests/golden/mahjong/reference_call_one.txt"),
        ),
        (
            "../tests/golden/mahjong/reference_call_red.txt",
            include_str!("../../tests/golden/mahjong/reference_call_red.txt"),
        ),
        (
            "../tests/golden/mahjong/reference_broken_run.txt",
            include_str!("../../tests/golden/mahjong/reference_broken_run.txt"),
        ),
        (
            "../tests/golden/mahjong/reference_pairs.txt",
            include_str!("../../tests/golden/mahjong/reference_pairs.txt"),
        ),
        (
            "../tests/golden/mahjong/reference_call_south.txt",
            include_str!("../../tests/golden/mahjong/reference_call_south.txt"),
        ),
        (
            "../tests/golden/mahjong/reference_declared_pass.txt",
            include_str!("../../tests/golden/mahjong/reference_declared_pass.txt"),
        ),
        (
            "../tests/golden/mahjong/reference_declared_throw.txt",
            include_str!("../../tests/golden/mahjong/reference_declared_throw.txt"),
        ),
        (
            "../tests/golden/mahjong/lookahead_discard.txt",
            include_str!("../../tests/golden/mahjong/lookahead_discard.txt"),
        ),
        (
            "../tests/golden/mahjong/call_widens_wait.txt",
            include_str!("../../tests/golden/mahjong/call_widens_wait.txt"),
        ),
    ],
    register: plugin::register,
    random_inputs: Some(positions::random_inputs),
    workload: harness::WORKLOAD,
    arena: Some(harness::ARENA),
};

pub use arena::{play_match, play_match_between, wilson_interval, MatchStats};
pub use call::{call_options, CallAnalysis, CallKind, CallOption, CallWeights};
pub use discard::{discard_options, useful_draws, DiscardOption};
pub use error::MahjongError;
pub use game::{Game, GameResult, Misplay, Outcome};
pub use meld::{meld_counts, Meld, MeldKind};
pub use notation::{
    check_copies, format_counts, format_melds, format_tiles, hand_size, parse_counts, parse_meld, parse_melds,
    parse_tile, parse_tiles, require_hand_size, HandSize,
};
pub use player::{CallAction, Player, PlayerView, TurnAction};
pub use players::{
    deal_in_chances, folds, hidden_tiles, lookahead_call, lookahead_discard, seed_discard, strong_discard, Levers,
    LookaheadPlayer, RandomPlayer, ReferencePlayer, StrongPlayer, LOOKAHEAD_BUDGET, LOOKAHEAD_HORIZON,
};
pub use shanten::{forget_capped_memo, shanten, shanten_concealed, shanten_seven_pairs, shanten_standard};
pub use split::{best_split, Block, BlockKind, ShapeCounts, Split, TileShape};
pub use tables::prepare_tables;
pub use tile::{counts_of, tile_count, tiles_of, two_player_kinds, Counts, Suit, Tile, HONOR_LETTERS, KINDS, NO_TILES};
pub use win::{is_win, waits, Wait, WinForm};
