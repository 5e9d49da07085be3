//! Rummy hand evaluator (`docs/rummy.md`): the original method's island / control-point method as a
//! native module, with exact counts of maximal arrangements, deadwood minima, incremental
//! updates, ace-high runs, jokers and strategy helpers. Pure Rust, no dependency on the engine.
//!
//! # Public API
//! - Cards: [`Card`] (rank 0..=12 = A..K, suit 0..=3 = S H D C, index `suit * 13 + rank`,
//!   52 = printed joker `JK`), [`parse_cards`], [`format_cards`], [`Hand`] (the 4 × 13 count
//!   grid of the 104-card double deck: ≤ 2 copies of a card, ≤ 4 jokers; `Hand::parse`
//!   accepts the original notation `2H3H4H5H`, `10H`/`TH`, spaces, commas, ♠♥♦♣, any case).
//! - [`Options`]: `ace_high`, `split_runs`, `wild_rank`, `joker_points`, `list_limit`,
//!   `node_budget`.
//! - [`evaluate()`]`(&Hand, &Options) -> `[`Evaluation`]: islands ([`IslandEval`]: cards,
//!   control points, counts, minima), whole-hand [`Value`] (`merged` and `split` counts,
//!   `min_cards()`, `min_points()`), `maximal_count()` under the options' convention,
//!   `min_cards_arrangement()` / `min_points_arrangement()` witnesses, `arrangements()` (a lazy
//!   listing), `exact` (false = "unknown within budget").
//! - [`Arrangement`], [`Meld`], [`MeldKind`].
//! - Incremental: [`HandState`] (`new`, `add`, `remove`, `value`, `evaluation`).
//! - Strategy: [`discard_options`], [`ranked_discards`], [`best_discard`], [`take_advice`], [`go_out`].
//! - [`RummyError`]; sample hands for tests and benchmarks: [`random_hand`], [`island_hand`],
//!   [`worst_hand`], [`double_deck`].
//! - [`plugin`]: the `rummy.*` built-ins and input types of `rules/rummy.rules`.
//!
//! # Decisions where the rules of the game leave a choice
//! - Card order (canonical listings): suit S H D C, then rank A..K, jokers last. Printing:
//!   `TS`, `8H`, `JK`; hands and dumps space-separated.
//! - A meld is identified by its cards (copies are interchangeable), so an arrangement is a
//!   multiset of card multisets. With `ace_high`, A..K and 2..K+A are the same 13 cards and
//!   count once; no run holds the same ace twice (no 14-card A..K..A) and none wraps (K-A-2).
//! - Maximal: no dumped card can be added to a meld of the arrangement keeping it
//!   valid, and no meld can be formed from the dump alone. Merged convention (default): only
//!   arrangements in which no two runs could be joined into one run (for natural runs: no two
//!   runs of one suit touch, i.e. one ends at r and the other starts at r + 1). Every split
//!   form of a maximal arrangement merges into a maximal arrangement with the same dump, so
//!   this is exactly "split forms shown merged". `split_runs = true` counts all maximal ones.
//! - Counts are `u128`, saturating at `u128::MAX` (`Evaluation::saturated`). Minima are over
//!   all arrangements (a minimum is always reached by a maximal one); the points witness has
//!   the fewest points and then the fewest cards ("best"), the cards witness the reverse.
//! - Listing order: each island's maximal arrangements sorted by deadwood points, then
//!   deadwood cards, then meld order (runs by suit, start, length; then sets by rank); the
//!   hand's listing is the product of the island lists, first island varying slowest, islands
//!   ordered by their lowest card. Each island list is capped at `list_limit` (+1 to detect
//!   the cut, reported by `ArrangementIter::truncated`); counts are always exact.
//! - Flags: bit 0 run, bit 1 second run, bit 2 set, bit 3 second set; bits 1/3 are set when a
//!   second copy exists, so "more placements than copies" = "can go to a run or to a set".
//! - Islands (petgraph union-find): same suit adjacent ranks (K-A too with `ace_high`), or same
//!   rank in any suits. Islands never share a meld, a maximality condition or a touching pair,
//!   so whole-hand counts are products and minima sums.
//! - The island search ("DFS over control-point placements, leaves scanned along rows and
//!   columns") walks the island rank by rank; control points choose run / set / dump copies,
//!   other cards are settled by their single line's scan; row scans are small automata and
//!   the column scan a precomputed table; equal (rank, row states) branches are merged, so
//!   the search is polynomial in the island's width. Hands of 3–40 cards solve in well under
//!   a millisecond; a monster island (e.g. the whole double deck) passes `node_budget`
//!   (states × column options) or 2^20 states per layer and is reported "unknown within
//!   budget" (`IslandEval::exact` / `Evaluation::exact` false, counts 0, minima `u32::MAX`,
//!   no listing). Common shapes (single-copy run stretches, single-copy sets) are answered in
//!   closed form, and cards with no flag (always dumped) are left out of the search.
//! - Speed (figures in `docs/rummy.md`): the forward sweep keeps rows in a canonical form (a run three
//!   cards long forgets its start), reuses per-thread buffers, memoises column splits by column
//!   shape and row moves by row; solved islands are kept in a small per-thread direct-mapped
//!   cache keyed by the island's suit-sorted count grid (suits are interchangeable; ranks are
//!   not, points depend on them). Results never depend on the caches (tests compare).
//! - [`HandState`] keeps one level of undo: removing the card just added (or adding back the
//!   card just removed) restores the cached islands without solving anything — the
//!   make/unmake pattern of an AI trying every draw and every discard. A card that can join
//!   no meld only changes the deadwood: the value is updated at once and the islands are
//!   rebuilt at the next change that does not undo it (or in a copy, by `evaluation`).
//! - Jokers: a printed joker or a card of `wild_rank` stands for any missing card of a run or
//!   set; a meld needs at least one card read as itself; a meld may hold more jokers than
//!   naturals. Dumped jokers and wild cards score `joker_points` (default 0). A joker joins
//!   every island, so such hands are one island solved by an owner-ordered enumeration of
//!   meld multisets (`node_budget`, default 20,000,000 nodes; past it `exact = false`).
//! - Strategy: see `strategy.rs` (discard by fewest remaining deadwood points, then cards,
//!   then the card worth more;
//!   take the discard-pile card when it strictly lowers the minimum deadwood points after the
//!   best other discard; go out when all cards meld, or all but one final discard).
mod card;
mod error;
mod evaluate;
mod grid;
mod hand;
mod incremental;
mod jokers;
mod meld;
mod options;
pub mod plugin;
mod samples;
mod sets;
mod solver;
mod strategy;

mod harness;
#[cfg(test)]
mod oracle;
#[cfg(test)]
mod oracle_tests;
mod positions;

/// Rummy as the rest of kibitzer sees it (see [`crate::Game`]).
pub const GAME: crate::Game = crate::Game {
    name: "rummy",
    rule_files: &[("rummy.rules", include_str!("../../rules/rummy.rules"))],
    case_suites: &[("rummy.cases.toml", include_str!("../../rules/rummy.cases.toml"))],
    golden: &[
        (
            "../tests/golden/rummy/original_demo.txt",
            include_str!("../../tests/golden/rummy/original_demo.txt"),
        ),
        (
            "../tests/golden/rummy/deadwood_apart.txt",
            include_str!("../../tests/golden/rummy/deadwood_apart.txt"),
        ),
        (
            "../tests/golden/rummy/take.txt",
            include_str!("../../tests/golden/rummy/take.txt"),
        ),
        (
            "../tests/golden/rummy/draw.txt",
            include_str!("../../tests/golden/rummy/draw.txt"),
        ),
        (
            "../tests/golden/rummy/knock.txt",
            include_str!("../../tests/golden/rummy/knock.txt"),
        ),
        (
            "../tests/golden/rummy/full_suit.txt",
            include_str!("../../tests/golden/rummy/full_suit.txt"),
        ),
        (
            "../tests/golden/rummy/go_out.txt",
            include_str!("../../tests/golden/rummy/go_out.txt"),
        ),
        (
            "../tests/golden/rummy/jokers.txt",
            include_str!("../../tests/golden/rummy/jokers.txt"),
        ),
        (
            "../tests/golden/rummy/draw_margin.txt",
            include_str!("../../tests/golden/rummy/draw_margin.txt"),
        ),
        (
            "../tests/golden/rummy/take_near.txt",
            include_str!("../../tests/golden/rummy/take_near.txt"),
        ),
        (
            "../tests/golden/rummy/tie_near.txt",
            include_str!("../../tests/golden/rummy/tie_near.txt"),
        ),
    ],
    register: plugin::register,
    random_inputs: Some(positions::random_inputs),
    workload: harness::WORKLOAD,
    arena: None,
};

pub use card::{format_cards, parse_cards, Card};
pub use error::RummyError;
pub use evaluate::{evaluate, ArrangementIter, Evaluation, IslandEval};
pub use hand::Hand;
pub use incremental::HandState;
pub use meld::{Arrangement, Meld, MeldKind};
pub use options::Options;
pub use samples::{double_deck, island_hand, random_hand, worst_hand};
pub use solver::Value;
pub use strategy::{
    best_discard, discard_options, go_out, ranked_discards, take_advice, Decider, DiscardOption, GoOut, NearMelds,
    RankedDiscard, TakeAdvice, TakeReason,
};
