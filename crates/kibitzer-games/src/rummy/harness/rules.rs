//! `kibitzer bench rummy`: the native module's figures (`native.rs`: random and island-heavy
//! 15-card hands, the full-suit worst case, incremental add/remove against a full re-solve),
//! then whole queries through the shipped rule set (evaluation, best arrangement, listing,
//! discard advice), and the figures on the last line.

use super::native::{run_bench, run_bench_quick};
use crate::engine::session::Session;
use crate::harness::{BenchOptions, Report};
use crate::rummy::random_hand;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// Runs the benchmark; the last line holds `random_hands_per_s island_hands_per_s worst_ms
/// incremental_speedup` (the native figures), then `rules_queries_per_s` and `cores`.
pub fn run(options: &BenchOptions, report: Report) -> Result<(), String> {
    let mut out = Vec::new();
    if options.quick {
        run_bench_quick(&mut out)
    } else {
        run_bench(&mut out)
    }
    .map_err(|e| e.to_string())?;
    let text = String::from_utf8(out).map_err(|e| e.to_string())?;
    let lines: Vec<&str> = text.lines().collect();
    let Some((figures, rest)) = lines.split_last() else {
        return Err("the native benchmark printed nothing".to_string());
    };
    for line in rest {
        report(line);
    }

    // `rules=PATH` times an edited copy of the rummy rules on the same hands.
    let rules = options
        .args
        .iter()
        .find(|(k, _)| k == "rules")
        .map_or("rummy", |(_, path)| path.as_str());
    let program = (options.load)(rules)?;
    let mut session = Session::new(program);
    session.set_timed(false);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let queries = if options.quick { 200 } else { 20_000 };
    let hands: Vec<String> = (0..queries).map(|_| random_hand(&mut rng, 15).to_string()).collect();
    let mut conclusions = 0usize;
    let start = Instant::now();
    for hand in &hands {
        session.reset();
        session.set_input_text("hand", hand).map_err(|e| e.to_string())?;
        session.run().map_err(|e| format!("{hand}: {e}"))?;
        conclusions += session.conclusions().len();
    }
    let secs = start.elapsed().as_secs_f64();
    let rate = queries as f64 / secs.max(1e-12);
    report(&format!(
        "whole queries through rules/rummy.rules (deadwood, arrangements, best, listing, islands, discard, \
         declare) on random 15-card hands: {rate:.0} queries/s, {:.1} µs each, {:.1} conclusions per query",
        secs * 1e6 / queries as f64,
        conclusions as f64 / queries as f64
    ));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    report(&format!("{figures} rules_queries_per_s={rate:.0} cores={cores}"));
    Ok(())
}
