//! stud's benchmark (`kibitzer bench stud-odds`); stud advises on one hand and has no arena.

mod native;
mod rules;

use crate::harness::Workload;

pub(super) const WORKLOAD: Workload = Workload {
    name: "stud-odds",
    about: "the stud example query through the rules; native evaluator over all hands; exact equity at streets 2-4",
    run: rules::run,
};
