//! How rummy plugs into the engine and the CLI: its built-ins and input types, its benchmarks, its
//! arenas.

use crate::builtins::Registry;
use crate::games::{Arena, Workload};

/// Registers rummy's built-ins and input types.
pub fn register(_registry: &mut Registry) {}

/// rummy's benchmarks for `kibitzer bench`.
pub fn workloads() -> Vec<Workload> {
    Vec::new()
}

/// rummy's arenas for `kibitzer play`.
pub fn arenas() -> Vec<Arena> {
    Vec::new()
}
