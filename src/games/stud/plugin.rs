//! How stud plugs into the engine and the CLI: its built-ins and input types, its benchmarks, its
//! arenas.

use crate::builtins::Registry;
use crate::games::{Arena, Workload};

/// Registers stud's built-ins and input types.
pub fn register(_registry: &mut Registry) {}

/// stud's benchmarks for `kibitzer bench`.
pub fn workloads() -> Vec<Workload> {
    Vec::new()
}

/// stud's arenas for `kibitzer play`.
pub fn arenas() -> Vec<Arena> {
    Vec::new()
}
