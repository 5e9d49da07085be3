//! How mahjong plugs into the engine and the CLI: its built-ins and input types, its benchmarks, its
//! arenas.

use crate::builtins::Registry;
use crate::games::{Arena, Workload};

/// Registers mahjong's built-ins and input types.
pub fn register(_registry: &mut Registry) {}

/// mahjong's benchmarks for `kibitzer bench`.
pub fn workloads() -> Vec<Workload> {
    Vec::new()
}

/// mahjong's arenas for `kibitzer play`.
pub fn arenas() -> Vec<Arena> {
    Vec::new()
}
