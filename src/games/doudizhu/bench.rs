//! Benchmark: the seed's puzzle under both rule sets, the published hard puzzle, and
//! random positions dealt from one shuffled deck at growing sizes.

use std::hint::black_box;
use std::io::Write;
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::budget::{Budget, Outcome};
use super::hand::{parse_hand, Hand};
use super::rules::Rules;
use super::solver::solve;

const P1_FARMER: &str = "3 3 3 3 4 5 6 7 T T A A A A";
const P1_LANDLORD: &str = "BJ RJ J J 9 9 9";
const HARD_ME: &str = "4 4 8 9 9 9 T J J Q Q A RJ";
const HARD_ENEMY: &str = "3 3 6 6 8 8 T A A 2 2 BJ";

const PUZZLE_RUNS: usize = 5;

fn hard_rules() -> Rules {
    Rules {
        pair_chains: false,
        airplanes: false,
        ..Rules::default()
    }
}

/// Solves once; returns (milliseconds, outcome, nodes).
fn timed(me: Hand, enemy: Hand, rules: &Rules, budget: &Budget) -> (f64, Outcome, u64) {
    let t = Instant::now();
    let s = black_box(solve(black_box(me), black_box(enemy), None, rules, budget));
    (t.elapsed().as_secs_f64() * 1e3, s.outcome, s.nodes)
}

fn puzzle(out: &mut dyn Write, name: &str, me: &str, enemy: &str, rules: &Rules) -> std::io::Result<f64> {
    let (me, enemy) = match (parse_hand(me), parse_hand(enemy)) {
        (Ok(a), Ok(b)) => (a, b),
        _ => return Ok(f64::NAN),
    };
    // Median of five runs: the first run also pays for cold caches and fresh pages.
    let mut runs: Vec<(f64, Outcome, u64)> = (0..PUZZLE_RUNS)
        .map(|_| timed(me, enemy, rules, &Budget::default()))
        .collect();
    runs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (ms, outcome, nodes) = runs[PUZZLE_RUNS / 2];
    let first = runs.iter().map(|r| r.0).fold(0.0, f64::max);
    writeln!(
        out,
        "{name}: {} in {ms:.3} ms median of {PUZZLE_RUNS} runs (slowest {first:.3} ms), \
         {nodes} nodes",
        outcome.as_str()
    )?;
    Ok(ms)
}

/// Median and maximum solve times of `count` random `size`v`size` deals (standard rules).
fn random_deals(out: &mut dyn Write, size: usize, count: usize, limit: Duration, seed: u64) -> std::io::Result<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut deck: Vec<u8> = (0..13u8).flat_map(|r| [r; 4]).collect();
    deck.extend([13, 14]);
    let budget = Budget {
        time_limit: Some(limit),
        ..Budget::default()
    };
    let mut times = Vec::with_capacity(count);
    let (mut wins, mut unknown) = (0, 0);
    for _ in 0..count {
        deck.shuffle(&mut rng);
        let hand = |cards: &[u8]| cards.iter().fold(Hand::EMPTY, |h, &r| h.with_added(r, 1));
        let me = hand(&deck[..size]);
        let enemy = hand(&deck[size..2 * size]);
        let (ms, outcome, _) = timed(me, enemy, &Rules::default(), &budget);
        match outcome {
            Outcome::Win => wins += 1,
            Outcome::Unknown => unknown += 1,
            Outcome::Lose => {}
        }
        times.push(ms);
    }
    times.sort_by(f64::total_cmp);
    let median = times.get(times.len() / 2).copied().unwrap_or(f64::NAN);
    let max = times.last().copied().unwrap_or(f64::NAN);
    let p90 = times.get(times.len() * 9 / 10).copied().unwrap_or(f64::NAN);
    writeln!(
        out,
        "{size}v{size}: {count} deals, median {median:.3} ms, p90 {p90:.3} ms, max {max:.3} ms, \
         {wins} won by the side to move, {unknown} unknown within {} ms",
        limit.as_millis()
    )?;
    Ok(median)
}

fn run(out: &mut dyn Write, quick: bool) -> std::io::Result<()> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    writeln!(out, "doudizhu endgame solver benchmark ({cores} cores)")?;
    let p1_seed = puzzle(out, "puzzle 1, seed rules", P1_FARMER, P1_LANDLORD, &Rules::seed())?;
    let p1_std = puzzle(
        out,
        "puzzle 1, standard rules",
        P1_FARMER,
        P1_LANDLORD,
        &Rules::default(),
    )?;
    let hard = puzzle(out, "hard puzzle", HARD_ME, HARD_ENEMY, &hard_rules())?;
    let plan: &[(usize, usize, u64)] = if quick {
        &[(5, 3, 200), (8, 2, 200)]
    } else {
        &[
            (5, 30, 2_000),
            (8, 30, 2_000),
            (10, 30, 2_000),
            (12, 30, 2_000),
            (14, 20, 3_000),
            (17, 15, 5_000),
        ]
    };
    let mut medians = Vec::new();
    for &(size, count, limit_ms) in plan {
        let m = random_deals(out, size, count, Duration::from_millis(limit_ms), 17)?;
        medians.push((size, m));
    }
    let median_of = |size: usize| medians.iter().find(|(s, _)| *s == size).map_or(f64::NAN, |(_, m)| *m);
    writeln!(
        out,
        "puzzle1_seed_ms={p1_seed:.3} puzzle1_std_ms={p1_std:.3} hard_puzzle_ms={hard:.3} \
         median_5v5_ms={:.3} median_8v8_ms={:.3} median_10v10_ms={:.3} median_12v12_ms={:.3} \
         median_14v14_ms={:.3} median_17v17_ms={:.3}",
        median_of(5),
        median_of(8),
        median_of(10),
        median_of(12),
        median_of(14),
        median_of(17)
    )
}

/// The full benchmark (about a minute or two in release mode).
pub fn run_bench(out: &mut dyn Write) -> std::io::Result<()> {
    run(out, false)
}

/// A tiny version for smoke tests.
pub fn run_bench_quick(out: &mut dyn Write) -> std::io::Result<()> {
    run(out, true)
}

#[cfg(test)]
mod tests {
    #[test]
    fn quick_bench_ends_with_the_figures() {
        let mut out = Vec::new();
        super::run_bench_quick(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let last = text.lines().last().unwrap();
        assert!(last.starts_with("puzzle1_seed_ms="), "{last}");
        assert!(last.contains("hard_puzzle_ms=") && last.contains("median_17v17_ms="));
    }
}
