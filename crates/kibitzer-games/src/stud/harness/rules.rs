//! `kibitzer bench stud-odds`: the stud example query through the rules (43 what-if showdowns, explanations
//! recorded), then the native evaluator's figures (all hands, exact equity at streets 2–4).

use crate::engine::session::Session;
use crate::harness::{BenchOptions, Report};
use std::time::Instant;

/// The example query: my full house against `XX 3C 5D 4H 6H`.
pub const EXAMPLE_HAND: &str = "8S TD TS 8H 8C";
pub const EXAMPLE_OPPONENT: &str = "XX 3C 5D 4H 6H";

/// Runs the benchmark.
pub fn run(options: &BenchOptions, report: Report) -> Result<(), String> {
    // Read before any work, so that a bad count is the first thing said.
    let setting = |name: &str| options.args.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    let runs = match setting("runs") {
        Some(n) => crate::harness::count_setting("runs", n, 1..=1_000_000)? as usize,
        None if options.quick => 50,
        None => 2000,
    };
    // `rules=PATH` times an edited copy of the rule set instead of the shipped one.
    let program = match options.args.iter().find(|(k, _)| k == "rules") {
        Some((_, path)) => (options.load)(path),
        None => (options.load)("stud"),
    }
    .map_err(|e| e.to_string())?;
    let mut session = Session::new(program);
    session.set_timed(false);
    session
        .set_input_text("hand", EXAMPLE_HAND)
        .map_err(|e| e.to_string())?;
    session
        .set_input_text("opponent", EXAMPLE_OPPONENT)
        .map_err(|e| e.to_string())?;
    let result = session.run().map_err(|e| e.to_string())?;
    let answer: Vec<String> = session.conclusions().iter().map(|c| c.to_string()).collect();
    report(&format!(
        "example query: {} ({} firings, {} what-if sub-queries)",
        answer.join(", "),
        result.stats.fired,
        result.stats.whatif_asked
    ));
    if !answer.iter().any(|c| c == "odds(43, 0, 0, 1.0)") {
        return Err(format!("the example query answered {answer:?}"));
    }
    // Each run starts from a fresh working memory and an empty what-if memo: the whole query.
    let mut times = Vec::with_capacity(runs.max(1));
    for _ in 0..runs {
        let t = Instant::now();
        session.run().map_err(|e| e.to_string())?;
        times.push(t.elapsed().as_secs_f64() * 1e6);
    }
    times.sort_by(f64::total_cmp);
    let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
    let best = times.first().copied().unwrap_or(0.0);
    report(&format!(
        "example query through the rules: median {median:.1} µs, best {best:.1} µs over {runs} runs (one thread)"
    ));

    if setting("native") == Some("no") {
        report(&format!("example_query_us={median:.1}"));
        return Ok(());
    }
    let mut out = Vec::new();
    let native = if options.quick {
        super::native::run_bench_quick(&mut out)
    } else {
        super::native::run_bench(&mut out)
    };
    native.map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&out);
    let mut last = String::new();
    for line in text.lines() {
        report(line);
        last = line.to_string();
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cores = if last.contains("cores=") {
        String::new()
    } else {
        format!(" cores={cores}")
    };
    report(&format!("example_query_us={median:.1} {last}{cores}"));
    Ok(())
}
