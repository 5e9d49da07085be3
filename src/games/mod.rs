//! Each game's native search, wrapped as built-ins. The engine knows nothing of any game: a game
//! plugs in here, through the registry, and through its rule file in `rules/`.

pub mod doudizhu;
pub mod durak;
pub mod mahjong;
pub mod rummy;
pub mod stud;

use crate::builtins::Registry;

/// Registers every game's built-ins and input types.
pub fn register_all(_registry: &mut Registry) {}
