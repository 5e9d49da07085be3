//! Five-card stud, native path (`docs/stud.md`): hand evaluation, comparison and equity, without rules.
//!
//! The rules in `rules/stud.rules` are the source of truth; this module is the fast path that is
//! proven to give the same answers (tests here check it against a plainly written oracle; the
//! engine's tests check it against the rules).
//!
//! # Public API
//! - Cards: `u8` indices `(rank − 2) * 4 + suit` (0 = 2♠ … 51 = A♣; suits 0 S, 1 H, 2 D, 3 C) —
//!   [`card_index`], [`card_rank`], [`card_suit`], [`check_card`], [`card_name`], [`cards_text`],
//!   [`parse_card`], [`parse_cards`].
//! - [`rank5`]`([u8; 5]) -> `[`HandRank`] (bigger is better, equal is a tie), [`rank5_checked`],
//!   [`HandRank::category`] 1..=9, [`describe`] → [`HandDescription`] (category, name, the deciding
//!   ranks in comparison order; `Display` reads "two pair, Ks and 7s, kicker 4"), [`compare`], and
//!   [`compare_at`] for a table that counts A-2-3-4-5 as a straight (the wheel).
//! - [`Situation`] (me 1..=5 known cards, 1..=4 opponents each showing 0..=5, dead cards; with
//!   [`Situation::with_wheel`], A-2-3-4-5 a straight, 5 high) and
//!   [`Odds`]; [`equity_exact`], [`exact_cost`], [`equity_monte_carlo`], [`equity`].
//! - All hands: [`category_counts`], [`rank_checksum`]; errors: [`StudError`].
//!
//! # Decisions where the rules of the game leave a choice
//! - **Ties follow the rules of the game literally**: four of a kind, full house and three of a kind are decided
//!   by the quad / trip rank alone, so `7777K` and `7777Q` (impossible in one deck) are equal ranks.
//!   There are 6,331 distinct ranks; [`HandRank`] is the dense index of a rank in strength order.
//! - **Evaluator**: a state machine over (multiset of ranks so far, common suit so far) with one row
//!   of 52 entries per state (6,735 states, 1.4 MB, built at first use): five loads per hand, one in
//!   the innermost loop of a nested enumeration. Duplicate or out-of-range cards give an unspecified
//!   rank, never a panic ([`rank5_checked`] rejects them).
//! - **Multiway outcome**: win = I beat every opponent strictly; tie = nobody beats me and at least
//!   one opponent equals me; loss otherwise. [`Odds::ties_split`] counts ties by the number of players
//!   sharing the pot and [`Odds::equity`] is the expected pot share.
//! - **Streets**: street k of heads-up five-card stud = I know my k cards, the opponent shows k − 1
//!   upcards and hides the hole card; every card not yet dealt is unknown. Any mix is accepted.
//! - **Exact counting** (see `exact.rs`): heads-up by a sweep over each player's completions sorted by
//!   rank with inclusion–exclusion over shared cards (each completion evaluated once); with two or
//!   more opponents holding unknown cards, all seats but the last are dealt and the last is counted
//!   from a per-subset sorted index by the same inclusion–exclusion (or, when that index would
//!   exceed 32 MB, every deal is enumerated). A deal where a dealt opponent already beats me is
//!   counted as a loss with all its continuations at once. The `budget` of [`equity_exact`] is in
//!   work units ([`exact_cost`]): evaluations, counter touches and index look-ups, or deals for
//!   plain enumeration. Over budget → `None`; [`equity`] then falls back to Monte Carlo.
//! - **Monte Carlo**: `ChaCha8Rng` seeded by the caller; the 95% half-width of `p_win` is
//!   1.96 × its standard error, at least 3 / samples (rule of three when p is 0 or 1).

mod allhands;
mod cards;
mod combos;
mod error;
mod eval;
mod exact;
mod montecarlo;
mod multiway;
mod odds;
pub mod plugin;
mod rank;
mod situation;
mod sweep;
mod tables;

mod harness;
#[cfg(test)]
mod oracle;
#[cfg(test)]
mod oracle_tests;
mod positions;

/// Five-card stud as the rest of kibitzer sees it (see [`crate::Game`]).
pub const GAME: crate::Game = crate::Game {
    name: "stud",
    rule_files: &[("stud.rules", include_str!("../../rules/stud.rules"))],
    case_suites: &[("stud.cases.toml", include_str!("../../rules/stud.cases.toml"))],
    golden: &[
        (
            "../tests/golden/stud/original_example.txt",
            include_str!("../../tests/golden/stud/original_example.txt"),
        ),
        (
            "../tests/golden/stud/ties_half.txt",
            include_str!("../../tests/golden/stud/ties_half.txt"),
        ),
        (
            "../tests/golden/stud/outs.txt",
            include_str!("../../tests/golden/stud/outs.txt"),
        ),
        (
            "../tests/golden/stud/wheel_straight.txt",
            include_str!("../../tests/golden/stud/wheel_straight.txt"),
        ),
        (
            "../tests/golden/stud/wheel_straight_flush.txt",
            include_str!("../../tests/golden/stud/wheel_straight_flush.txt"),
        ),
        (
            "../tests/golden/stud/straight_flush.txt",
            include_str!("../../tests/golden/stud/straight_flush.txt"),
        ),
        (
            "../tests/golden/stud/royal_flush.txt",
            include_str!("../../tests/golden/stud/royal_flush.txt"),
        ),
        (
            "../tests/golden/stud/four_of_a_kind.txt",
            include_str!("../../tests/golden/stud/four_of_a_kind.txt"),
        ),
        (
            "../tests/golden/stud/flush.txt",
            include_str!("../../tests/golden/stud/flush.txt"),
        ),
        (
            "../tests/golden/stud/straight.txt",
            include_str!("../../tests/golden/stud/straight.txt"),
        ),
        (
            "../tests/golden/stud/three_of_a_kind.txt",
            include_str!("../../tests/golden/stud/three_of_a_kind.txt"),
        ),
        (
            "../tests/golden/stud/two_pair.txt",
            include_str!("../../tests/golden/stud/two_pair.txt"),
        ),
        (
            "../tests/golden/stud/one_pair.txt",
            include_str!("../../tests/golden/stud/one_pair.txt"),
        ),
        (
            "../tests/golden/stud/high_card.txt",
            include_str!("../../tests/golden/stud/high_card.txt"),
        ),
        (
            "../tests/golden/stud/advice_fold.txt",
            include_str!("../../tests/golden/stud/advice_fold.txt"),
        ),
        (
            "../tests/golden/stud/advice_either.txt",
            include_str!("../../tests/golden/stud/advice_either.txt"),
        ),
    ],
    register: plugin::register,
    random_inputs: Some(positions::random_inputs),
    workload: harness::WORKLOAD,
    arena: None,
};

pub use allhands::{category_counts, rank_checksum};
pub use cards::{
    card_index, card_name, card_rank, card_suit, cards_text, check_card, parse_card, parse_cards, DECK_SIZE,
    RANK_LETTERS, SUIT_LETTERS,
};
pub use error::StudError;
pub use eval::{compare, compare_at, rank5, rank5_checked};
pub use exact::{equity_exact, exact_cost};
pub use montecarlo::equity_monte_carlo;
pub use odds::Odds;
pub use rank::{category_name, describe, HandDescription, HandRank, DISTINCT_RANKS};
pub use situation::{Situation, HAND_SIZE};

/// Builds the hand evaluator's tables now rather than at their first use.
pub fn prepare_tables() {
    tables::tables();
}

/// Exact odds when within `budget` work units (see [`exact_cost`]), else Monte Carlo over `samples`
/// deals seeded by `seed`; [`Odds::exact`] says which.
pub fn equity(situation: &Situation, budget: u64, samples: u64, seed: u64) -> Odds {
    equity_exact(situation, budget).unwrap_or_else(|| equity_monte_carlo(situation, samples, seed))
}
