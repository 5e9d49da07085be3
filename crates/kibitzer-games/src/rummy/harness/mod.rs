//! rummy's benchmark (`kibitzer bench rummy`); rummy advises on one hand and has no arena.

mod native;
mod rules;

use crate::harness::Workload;

pub(super) const WORKLOAD: Workload = Workload {
    name: "rummy",
    about: "hands/s on random and island-heavy 15-card hands, the full-suit worst case, incremental \
            add/remove vs full re-solve, and the shipped rules per query",
    run: rules::run,
};
