//! `run_bench`: the native evaluator over all hands, exact heads-up equity by street, the example query.

use crate::stud::equity_exact;
use crate::stud::parse_cards;
use crate::stud::Odds;
use crate::stud::Situation;
use crate::stud::{category_counts, prepare_tables, rank_checksum};
use std::hint::black_box;
use std::io::{self, Write};
use std::time::Instant;

/// The streets timed: street k = I know my k cards, the opponent shows k − 1 upcards and hides one.
const STREETS: [(&str, &str, &str); 3] = [
    ("street2", "AS KD", "QH"),
    ("street3", "AS KD 7C", "QH QC"),
    ("street4", "AS KD 7C 7S", "QH QC 2D"),
];

/// The example query's position: my full house against an open straight draw.
const EXAMPLE: (&str, &str) = ("8S TD TS 8H 8C", "3C 5D 4H 6H");

fn situation(me: &str, opponent: &str) -> io::Result<Situation> {
    let bad = |e: crate::stud::StudError| io::Error::new(io::ErrorKind::InvalidInput, e.to_string());
    let me = parse_cards(me).map_err(bad)?;
    let opponent = parse_cards(opponent).map_err(bad)?;
    Situation::new(me, vec![opponent], vec![]).map_err(bad)
}

/// Best (smallest) seconds per call of `work` over `reps` calls after one warm-up call: the machine
/// is shared, and the minimum is the figure least disturbed by other processes.
fn time_best<T>(reps: u32, mut work: impl FnMut() -> T) -> f64 {
    black_box(work());
    (0..reps.max(1))
        .map(|_| {
            let start = Instant::now();
            black_box(work());
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Mean seconds per call for calls too short to time one by one.
fn time_mean<T>(reps: u32, mut work: impl FnMut() -> T) -> f64 {
    black_box(work());
    let start = Instant::now();
    for _ in 0..reps {
        black_box(work());
    }
    start.elapsed().as_secs_f64() / f64::from(reps.max(1))
}

fn run(out: &mut dyn Write, passes: u32, equity_reps: u32) -> io::Result<()> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    writeln!(out, "stud native bench (one thread; machine has {cores} cores)")?;
    let start = Instant::now();
    prepare_tables();
    writeln!(out, "tables built in {:.1} ms", start.elapsed().as_secs_f64() * 1e3)?;

    let counts = category_counts();
    let names = crate::stud::category_name;
    for (category, count) in counts.iter().enumerate().skip(1) {
        writeln!(out, "  {category} {:<16} {count}", names(category as u8))?;
    }
    let seconds = time_best(passes, || black_box(rank_checksum()));
    let (_, hands) = rank_checksum();
    let hands_per_s = hands as f64 / seconds;
    writeln!(
        out,
        "evaluator: {hands} hands in {:.2} ms per pass ({:.0} M hands/s)",
        seconds * 1e3,
        hands_per_s / 1e6
    )?;
    let histogram_s = time_best(passes, || black_box(category_counts()));
    let histogram_per_s = hands as f64 / histogram_s;
    writeln!(
        out,
        "evaluator + category histogram (no vectorised sum): {:.0} M hands/s",
        histogram_per_s / 1e6
    )?;

    let mut street_ms = Vec::new();
    for (name, me, opponent) in STREETS {
        let s = situation(me, opponent)?;
        let reps = match name {
            "street2" => equity_reps,
            "street3" => equity_reps * 5,
            _ => equity_reps * 50,
        };
        let ms = time_best(reps, || equity_exact(black_box(&s), u64::MAX)) * 1e3;
        let odds = equity_exact(&s, u64::MAX);
        writeln!(
            out,
            "{name}: me {me} vs XX {opponent}: {} in {ms:.3} ms",
            odds_text(odds.as_ref())
        )?;
        street_ms.push(ms);
    }

    // Street 1 (my one card against a hidden hand) only once: 75 M counter touches.
    let (first_me, first_opponent) = ("AS", "");
    let s = situation(first_me, first_opponent)?;
    let started = Instant::now();
    let odds = equity_exact(&s, u64::MAX);
    let street1_ms = started.elapsed().as_secs_f64() * 1e3;
    writeln!(
        out,
        "street1: me {first_me} vs a hidden hand: {} in {street1_ms:.1} ms",
        odds_text(odds.as_ref())
    )?;

    // Three players at fourth street: enumeration with early counting of lost deals.
    let bad = |e: crate::stud::StudError| io::Error::new(io::ErrorKind::InvalidInput, e.to_string());
    let three = Situation::new(
        parse_cards("AS KD 7C 7S").map_err(bad)?,
        vec![
            parse_cards("QH QC 2D").map_err(bad)?,
            parse_cards("JS TS 9S").map_err(bad)?,
        ],
        vec![],
    )
    .map_err(bad)?;
    let started = Instant::now();
    let odds = equity_exact(&three, u64::MAX);
    let three_ms = started.elapsed().as_secs_f64() * 1e3;
    writeln!(
        out,
        "3 players, street 4: me AS KD 7C 7S vs XX QH QC 2D, XX JS TS 9S: {} in {three_ms:.1} ms",
        odds_text(odds.as_ref())
    )?;

    let example_us = time_mean(equity_reps * 200, || {
        situation(EXAMPLE.0, EXAMPLE.1)
            .ok()
            .and_then(|s| equity_exact(&s, u64::MAX))
    }) * 1e6;
    let example_odds = situation(EXAMPLE.0, EXAMPLE.1)
        .ok()
        .and_then(|s| equity_exact(&s, u64::MAX));
    writeln!(
        out,
        "example query: me {} vs XX {}: {} in {example_us:.2} µs (cards parsed too)",
        EXAMPLE.0,
        EXAMPLE.1,
        odds_text(example_odds.as_ref())
    )?;
    writeln!(
        out,
        "cores={cores} native_hands_per_s={hands_per_s:.0} native_histogram_hands_per_s={histogram_per_s:.0} street1_ms={street1_ms:.1} street2_ms={:.3} street3_ms={:.3} street4_ms={:.4} three_players_street4_ms={three_ms:.1} example_native_us={example_us:.2}",
        street_ms[0], street_ms[1], street_ms[2]
    )
}

fn odds_text(odds: Option<&Odds>) -> String {
    match odds {
        Some(o) => format!(
            "{} wins, {} ties, {} losses of {} (p_win {:.4})",
            o.wins, o.ties, o.losses, o.total, o.p_win
        ),
        None => "over budget".to_string(),
    }
}

/// The full benchmark; last line `NAME=VALUE …`.
pub fn run_bench(out: &mut dyn Write) -> io::Result<()> {
    run(out, 10, 10)
}

/// A tiny version of [`run_bench`] for smoke tests (same output shape).
pub fn run_bench_quick(out: &mut dyn Write) -> io::Result<()> {
    run(out, 1, 1)
}

#[cfg(test)]
mod tests {
    #[test]
    fn quick_bench_ends_with_the_figures() {
        let mut out = Vec::new();
        assert!(super::run_bench_quick(&mut out).is_ok());
        let text = String::from_utf8(out).unwrap_or_default();
        let last = text.lines().last().unwrap_or_default();
        for name in [
            "native_hands_per_s=",
            "street2_ms=",
            "street3_ms=",
            "street4_ms=",
            "example_native_us=",
        ] {
            assert!(last.contains(name), "{name} missing from {last}");
        }
        assert!(text.contains("43 wins, 0 ties, 0 losses of 43"), "{text}");
    }
}
