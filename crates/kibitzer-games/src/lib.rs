//! The games: each one's native searches wrapped as built-ins, its players, sample positions,
//! benchmarks and arena. The engine knows nothing of any game: a game plugs in through its
//! [`Game`] descriptor (its `GAME`, listed in [`ALL`]) — its built-ins and input types through the
//! registry (`plugin.rs`), its rule files and case suites in `rules/`, its benchmarks and arena in
//! its `harness/`.

#![warn(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

// The core's modules under the names this crate's paths use (`crate::engine::…`).
use kibitzer_core::{budget, builtins, cards, engine, value};

pub mod doudizhu;
pub mod durak;
pub mod harness;
pub mod mahjong;
pub mod positions;
pub mod rummy;
pub mod stud;

use crate::builtins::Registry;
use harness::{Arena, Workload};

/// One game, as the rest of kibitzer sees it: everything the loader, the case runner, `diff`,
/// `bench` and `play` need of it. Each game's folder defines its `GAME`; adding a game is its
/// folder and its line in [`ALL`].
#[derive(Clone, Copy)]
pub struct Game {
    /// Its name (`stud`).
    pub name: &'static str,
    /// Its shipped rule files, each a rule set: (file name, text). A rule set's name is its file
    /// name without `.rules`; the first is the game's own (`stud.rules`).
    pub rule_files: &'static [(&'static str, &'static str)],
    /// Its shipped case suites: (file name, text), named after the rule set they test.
    pub case_suites: &'static [(&'static str, &'static str)],
    /// The golden explanations its suites pin: (path as the suites name it, relative to `rules/`;
    /// text).
    pub golden: &'static [(&'static str, &'static str)],
    /// Registers its built-ins and input types.
    pub register: fn(&mut Registry),
    /// Seeded random inputs for one of its rule sets, by name: each valid for every rule set of the
    /// game that takes the same inputs (`kibitzer diff`).
    pub random_inputs: Option<fn(&mut positions::Rng, &str) -> positions::Inputs>,
    /// Its benchmarks (`kibitzer bench NAME`).
    pub workload: Workload,
    /// Its arena, for a game that is played through (`kibitzer play NAME`).
    pub arena: Option<Arena>,
}

/// Every game, in the order commands list them.
pub const ALL: &[Game] = &[stud::GAME, durak::GAME, mahjong::GAME, rummy::GAME, doudizhu::GAME];

/// Registers every game's built-ins and input types.
pub fn register_all(registry: &mut Registry) {
    for game in ALL {
        (game.register)(registry);
    }
}
