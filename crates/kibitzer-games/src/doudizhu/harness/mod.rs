//! dou dizhu's benchmark (`kibitzer bench doudizhu`): the endgame solver; no arena.

mod native;

use crate::harness::{BenchOptions, LineReport, Report, Workload};
use std::io::Write;

pub(super) const WORKLOAD: Workload = Workload {
    name: "doudizhu",
    about:
        "endgame solver: the original article's puzzle 1 under both rule variants, the published hard puzzle, random \
            deals 5v5..17v17 (median, p90, max)",
    run,
};

fn run(options: &BenchOptions, mut report: Report) -> Result<(), String> {
    let mut w = LineReport {
        report: &mut report,
        buffer: Vec::new(),
    };
    let result = if options.quick {
        native::run_bench_quick(&mut w)
    } else {
        native::run_bench(&mut w)
    };
    w.flush().map_err(|e| e.to_string())?;
    result.map_err(|e| e.to_string())
}
