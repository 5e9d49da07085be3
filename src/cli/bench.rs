//! `kibitzer bench WORKLOAD`: benchmarks that print their figures, the last line as NAME=VALUE.
//! Build in release mode (`cargo run --release -- bench classify`).

use super::fail;
use kibitzer::cards::{Card, Cards};
use kibitzer::library::load_shipped;
use kibitzer::value::{Shared, Value};
use kibitzer::Session;
use rayon::prelude::*;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// classify (all 2,598,960 stud hands through the rules), or a game's workload (`kibitzer bench
    /// list` lists them).
    workload: String,
    /// Extra NAME=VALUE settings for the workload.
    settings: Vec<String>,
    /// A smaller run for smoke tests (a sample of the work, figures not comparable).
    #[arg(long)]
    quick: bool,
    /// No progress on standard error.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(a: BenchArgs) -> i32 {
    let workloads = kibitzer::games::harness::workloads();
    if a.workload == "classify" {
        // `rules=PATH` times an edited copy of the stud rules (its counts are checked all the same).
        let rules = a.settings.iter().find_map(|s| s.strip_prefix("rules="));
        if let Some(other) = a.settings.iter().find(|s| !s.starts_with("rules=")) {
            return fail(format!("bench classify takes `rules=PATH` or nothing, not `{other}`"));
        }
        return classify(a.quick, rules, a.quiet);
    }
    if a.workload == "list" {
        println!("{:<16} all 2,598,960 stud hands through Rule1–Rule9", "classify");
        for w in &workloads {
            println!("{:<16} {}", w.name, w.about);
        }
        return 0;
    }
    let Some(w) = workloads.iter().find(|w| w.name == a.workload) else {
        let mut known = vec!["classify"];
        known.extend(workloads.iter().map(|w| w.name));
        return fail(format!(
            "unknown benchmark `{}` (known: {})",
            a.workload,
            known.join(", ")
        ));
    };
    let mut args = Vec::new();
    for s in &a.settings {
        match super::split_assignment(s) {
            Ok((k, v)) => args.push((k.to_string(), v.to_string())),
            Err(e) => return fail(e),
        }
    }
    let options = kibitzer::games::harness::BenchOptions {
        quick: a.quick,
        load: |name| kibitzer::load_any(name).map_err(|e| e.to_string()),
        args,
    };
    // A workload's lines come as its parts finish; between them a spinner on a terminal says
    // it is still running, and for how long.
    let bar = super::progress::spinner(a.quiet);
    bar.set_message(format!("bench {}", w.name));
    let mut print = |line: &str| super::progress::println_above(&bar, line);
    let result = (w.run)(&options, &mut print);
    bar.finish_and_clear();
    match result {
        Ok(()) => 0,
        Err(e) => fail(e),
    }
}

/// Category counts of every five-card hand, as the rules classify them.
pub const EXPECTED_COUNTS: [u64; 9] = [36, 624, 3744, 5112, 9180, 54912, 123552, 1098240, 1303560];

/// Classifies every hand whose first card is `first` (cards in increasing index order), with one
/// session reused across hands (a fresh working memory per hand), explanations recorded.
pub fn classify_from(session: &mut Session, first: u8, counts: &mut [u64; 9]) -> Result<u64, String> {
    let mut n = 0;
    // The input is named once, as an embedding program's hot loop would do.
    let hand = session.input_index("hand").map_err(|e| e.to_string())?;
    for b in first + 1..52 {
        for c in b + 1..52 {
            for d in c + 1..52 {
                for e in d + 1..52 {
                    let cards = [first, b, c, d, e].map(|i| Card::from_index(i).unwrap_or_else(|| unreachable!()));
                    session
                        .set_input_at(hand, Value::Cards(Shared::local(Cards::new(cards, 0))))
                        .map_err(|e| e.to_string())?;
                    session.run().map_err(|e| e.to_string())?;
                    let cat = session
                        .first_output_arg()
                        .and_then(Value::as_int)
                        .ok_or("no category")?;
                    let slot = counts.get_mut((cat - 1) as usize).ok_or("category out of range")?;
                    *slot += 1;
                    n += 1;
                }
            }
        }
    }
    Ok(n)
}

fn classify(quick: bool, rules: Option<&str>, quiet: bool) -> i32 {
    let program = match rules.map_or_else(|| load_shipped("stud"), kibitzer::library::load_any) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let firsts: Vec<u8> = if quick { vec![30, 40] } else { (0..48).collect() };
    let cores = rayon::current_num_threads();
    println!("classify: every five-card hand through the stud rules (the query asks for `category`: Rule1–Rule9 run), a fresh working memory per hand, explanations recorded ({} cores)", cores);

    // One step per first card, on one thread then on all cores.
    let bar = super::progress::bar(2 * firsts.len() as u64, "blocks of hands", quiet);
    let mut session = Session::new(program.clone());
    session.set_timed(false);
    session.set_goal(&["category"]);
    let mut counts = [0u64; 9];
    let t = Instant::now();
    let mut hands = 0;
    for &f in &firsts {
        match classify_from(&mut session, f, &mut counts) {
            Ok(n) => hands += n,
            Err(e) => return fail(e),
        }
        bar.inc(1);
    }
    let one = hands as f64 / t.elapsed().as_secs_f64();

    let t = Instant::now();
    let results: Vec<Result<(u64, [u64; 9]), String>> = firsts
        .par_iter()
        .map_init(
            || {
                let mut s = Session::new(program.clone());
                s.set_timed(false);
                s.set_goal(&["category"]);
                s
            },
            |s, &f| {
                let mut c = [0u64; 9];
                let counted = classify_from(s, f, &mut c).map(|n| (n, c));
                bar.inc(1);
                counted
            },
        )
        .collect();
    bar.finish_and_clear();
    let all_secs = t.elapsed().as_secs_f64();
    let mut par_counts = [0u64; 9];
    let mut par_hands = 0;
    for r in results {
        match r {
            Ok((n, c)) => {
                par_hands += n;
                for i in 0..9 {
                    par_counts[i] += c[i];
                }
            }
            Err(e) => return fail(e),
        }
    }
    let all = par_hands as f64 / all_secs;
    let names = [
        "straight flush",
        "four of a kind",
        "full house",
        "flush",
        "straight",
        "three of a kind",
        "two pair",
        "one pair",
        "high card",
    ];
    for i in 0..9 {
        println!(
            "  {:<16} {:>8}{}",
            names[i],
            counts[i],
            if quick || counts[i] == EXPECTED_COUNTS[i] {
                ""
            } else {
                "  WRONG"
            }
        );
    }
    let exact = counts == EXPECTED_COUNTS && par_counts == counts;
    println!("hands={hands} one thread: {one:.0} hands/s; {cores} cores: {all:.0} hands/s");
    if !quick && !exact {
        super::say("kibitzer: category counts differ from the exact ones");
        println!("counts_exact=false hands_per_s={one:.0} hands_per_s_all_cores={all:.0} cores={cores}");
        return super::EXIT_INTERNAL;
    }
    println!(
        "counts_exact={} hands={hands} hands_per_s={one:.0} hands_per_s_all_cores={all:.0} cores={cores}",
        if quick { "sample" } else { "true" }
    );
    0
}
