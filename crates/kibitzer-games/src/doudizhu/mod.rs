//! Dou dizhu endgame: notation, rule variants, complete move generation and open-hand
//! solvers for two players and for the three-player game (landlord against two farmers).
//!
//! # Public API
//! - [`Hand`] (rank counts packed 4 bits × 15 ranks in a `u64`), [`parse_hand`] (ranks
//!   `3`..`9`, `T`/`10`, `J Q K A 2`, `BJ`/`RJ` (or `B`/`R`), case-insensitive, spaces or
//!   commas optional, suits after a rank ignored: `3S`, `10h`), canonical printing in
//!   ascending ranks (`3 3 3 4`, `BJ RJ`), [`rank_name`].
//! - [`Rules`]: `three_one, three_two, four_two, pair_chains, airplanes`;
//!   `Rules::default()` = standard (all on), `Rules::original()` = the original repository's.
//! - [`Play`] `{ kind, main_rank, length, cards }`, [`PlayKind`] with `name()` ("trio with
//!   single", "airplane with pairs", ...), `Play::beats`, Display = the cards;
//!   [`parse_play`] / [`classify`] read a set of cards as one play.
//! - [`legal_leads`]`(hand, &rules)`, [`legal_responses`]`(hand, &last, &rules)`: one play
//!   per distinct set of cards, canonical order (type, chain length, main rank, cards);
//!   passing is never listed (it is always allowed when answering, never when leading).
//! - [`solve`]`(me, enemy, last, &rules, &budget) -> Solution` (two players),
//!   [`solve3`]`(&[landlord, down, up], to_move: Seat, last: Option<(Seat, &Play)>, &rules,
//!   &budget) -> Solution` ([`Seat`]: `Landlord`, `DownFarmer`, `UpFarmer`).
//!   [`Solution`] `{ outcome: Win|Lose|Unknown, best, pass, line, nodes }`, [`Budget`]
//!   `{ max_nodes, max_table_bytes, time_limit, line_nodes }` (default 200 M nodes, 1 GiB,
//!   no time, 200,000 nodes for the line).
//! - Errors: [`DoudizhuError`].
//!
//! # Decisions where the rules of the game leave a choice
//! - Move set = RLCard's (27,471 plays on a full deck, checked), including its kicker
//!   rules: airplane single wings never hold four of one rank, a trio's rank, three of a
//!   rank next to the chain (`2` excepted: it cannot extend a chain) or both jokers; pair
//!   wings are distinct ranks; four with two singles never takes both jokers (a pair is
//!   fine); four with two pairs needs two distinct pair ranks. Chain caps: straights
//!   5–12, pair chains 3–10, airplanes 2–6 bare, 2–5 with singles, 2–4 with pairs (never
//!   above 20 cards).
//! - `main_rank` of a chain is its lowest rank; plays compare by (type, length, main rank).
//! - Airplanes with wings need `airplanes` AND `three_one` (single wings) / `three_two`
//!   (pair wings). `four_two` covers both four+two forms. Answers of the same type as the
//!   play on the table are generated whatever the toggles (the play is already there).
//! - Solver: see `solver.rs`. The recommended move of a won position is the fastest win
//!   and that of a lost position holds out longest (most plies, turns and passes included,
//!   before the winner empties its hand, the winner finishing fastest and the loser lasting
//!   longest), measured within `Budget::line_nodes` extra positions (default 200,000; 0 =
//!   no measuring), else the first move of the right value in search order.
//! - `Solution.best == None && pass` means "pass"; the line lists every turn including
//!   forced passes (`None`).
//! - Outcome is for the side to move (three players: for its team). Budgets give
//!   `Outcome::Unknown` with no move and an empty line.
mod budget;
mod error;
mod hand;
mod harness;
mod movegen;
#[cfg(test)]
mod oracle;
mod play;
pub mod plugin;
mod positions;
#[cfg(test)]
mod puzzles;
#[cfg(test)]
mod rlcard_check;
mod rules;
mod solver;
mod solver3;
mod table;
mod turns;
mod verdicts;

/// The dou dizhu endgame as the rest of kibitzer sees it (see [`crate::Game`]).
pub const GAME: crate::Game = crate::Game {
    name: "doudizhu",
    rule_files: &[
        ("doudizhu.rules", include_str!("../../rules/doudizhu.rules")),
        ("doudizhu_table.rules", include_str!("../../rules/doudizhu_table.rules")),
    ],
    case_suites: &[
        ("doudizhu.cases.toml", include_str!("../../rules/doudizhu.cases.toml")),
        (
            "doudizhu_table.cases.toml",
            include_str!("../../rules/doudizhu_table.cases.toml"),
        ),
    ],
    golden: &[
        (
            "../tests/golden/doudizhu/go_out.txt",
            include_str!("../../tests/golden/doudizhu/go_out.txt"),
        ),
        (
            "../tests/golden/doudizhu/bomb_answer.txt",
            include_str!("../../tests/golden/doudizhu/bomb_answer.txt"),
        ),
        (
            "../tests/golden/doudizhu/must_pass.txt",
            include_str!("../../tests/golden/doudizhu/must_pass.txt"),
        ),
        (
            "../tests/golden/doudizhu/puzzle1_original.txt",
            include_str!("../../tests/golden/doudizhu/puzzle1_original.txt"),
        ),
        (
            "../tests/golden/doudizhu/puzzle1_standard.txt",
            include_str!("../../tests/golden/doudizhu/puzzle1_standard.txt"),
        ),
        (
            "../tests/golden/doudizhu/puzzle2_standard.txt",
            include_str!("../../tests/golden/doudizhu/puzzle2_standard.txt"),
        ),
        (
            "../tests/golden/doudizhu/puzzle2_original.txt",
            include_str!("../../tests/golden/doudizhu/puzzle2_original.txt"),
        ),
        (
            "../tests/golden/doudizhu/hard_puzzle.txt",
            include_str!("../../tests/golden/doudizhu/hard_puzzle.txt"),
        ),
        (
            "../tests/golden/doudizhu/table_endgame.txt",
            include_str!("../../tests/golden/doudizhu/table_endgame.txt"),
        ),
    ],
    register: plugin::register,
    random_inputs: Some(positions::random_inputs),
    workload: harness::WORKLOAD,
    arena: None,
};

pub use budget::{Budget, Outcome, Solution};
pub use error::DoudizhuError;
pub use hand::{parse_hand, rank_name, Hand, RANKS};
pub use movegen::{legal_leads, legal_responses};
pub use play::{classify, parse_play, Play, PlayKind};
pub use rules::Rules;
pub use solver::solve;
pub use solver3::{solve3, Seat};
pub use verdicts::{move_verdicts, MoveVerdict};
