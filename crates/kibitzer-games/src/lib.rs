//! Each game's native search, wrapped as built-ins. The engine knows nothing of any game: a game
//! plugs in here — its built-ins and input types through the registry, its benchmarks and arenas
//! through the tables below — and through its rule file in `rules/`. Each game's `plugin.rs` is the
//! whole of its contact surface with the engine and the CLI.

#![warn(missing_docs)]

// The core's modules under the names this crate's paths use (`crate::engine::…`).
use kibitzer_core::{budget, builtins, cards, engine, value};

pub mod doudizhu;
pub mod durak;
pub mod mahjong;
pub mod rummy;
pub mod stud;

use crate::builtins::Registry;

/// Registers every game's built-ins and input types.
pub fn register_all(registry: &mut Registry) {
    stud::plugin::register(registry);
    durak::plugin::register(registry);
    mahjong::plugin::register(registry);
    rummy::plugin::register(registry);
    doudizhu::plugin::register(registry);
}
