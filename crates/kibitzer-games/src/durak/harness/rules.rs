//! `kibitzer bench durak`: the rule set's speed — hand values/s through the rules (explanations
//! recorded, one reused session), rule-AI decisions/s, arena games/s with the rule AI in every
//! seat — each beside the native anchor (the same work in compiled Rust) on the same inputs.

use crate::durak::play_match;
use crate::durak::PlayerView;
use crate::durak::ValueModel;
use crate::durak::{cards_value, to_card, RulePlayer, RuleValuer};
use crate::durak::{decide_action, ReferencePolicy};
use crate::durak::{sample_hands, sample_positions};
use crate::durak::{Action, GameOptions};
use crate::durak::{CardSet, Suit};
use crate::durak::{Player, RandomPlayer, ReferencePlayer};
use crate::engine::program::Program;
use crate::harness::{BenchOptions, Report};
use crate::value::Value;
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn rate(min_time: Duration, per_call: usize, mut f: impl FnMut() -> Result<(), String>) -> Result<f64, String> {
    let start = Instant::now();
    let mut calls = 0usize;
    loop {
        f()?;
        calls += per_call;
        let t = start.elapsed();
        if t >= min_time {
            return Ok(calls as f64 / t.as_secs_f64());
        }
    }
}

/// The median and 90th percentile of one decision's wall time, in seconds, each position timed
/// on its own.
fn decision_times(player: &mut RulePlayer, positions: &[(PlayerView, Vec<Action>)]) -> Result<(f64, f64), String> {
    let mut times: Vec<f64> = Vec::with_capacity(positions.len());
    for (view, legal) in positions {
        let start = Instant::now();
        black_box(player.decide(view, legal).map_err(|e| e.to_string())?);
        times.push(start.elapsed().as_secs_f64());
    }
    Ok(crate::harness::median_and_p90(&mut times))
}

/// The `durak` workload: hand values, decisions and whole games, then the figures in one line.
pub fn run(opts: &BenchOptions, report: Report) -> Result<(), String> {
    let quick = opts.quick;
    let min_time = Duration::from_millis(if quick { 100 } else { 1500 });
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let program = match opts.args.iter().find(|(k, _)| k == "rules") {
        Some((_, path)) => (opts.load)(path),
        None => (opts.load)("durak"),
    }
    .map_err(|e| e.to_string())?;
    report(&format!(
        "durak: rules/durak.rules through one reused session on one thread, explanations recorded ({cores} cores)"
    ));
    let Some((hv, native)) = hand_values(opts, &program, min_time, report)? else {
        return Ok(());
    };
    let options = GameOptions::default();
    let (dps, native_dps, median, p90) = decisions(&program, quick, min_time, &options, report)?;
    let (gps, native_gps, random_gps) = whole_games(&program, quick, &options, report)?;
    report(&format!(
        "hand_values_per_s={hv:.0} decisions_per_s={dps:.0} games_per_s={gps:.0} decision_median_ms={:.3} decision_p90_ms={:.3} native_hand_values_per_s={native:.0} native_decisions_per_s={native_dps:.0} native_games_per_s={native_gps:.0} random_games_per_s={random_gps:.0} cores={cores}",
        median * 1e3,
        p90 * 1e3
    ));
    Ok(())
}

/// Hand values per second through the rules and natively, on random hands: `None` when the run
/// was one of the phase's own modes (`write-sample=PATH`, `passes=N`, `only=values`), whose
/// line is then reported.
fn hand_values(
    opts: &BenchOptions,
    program: &Arc<Program>,
    min_time: Duration,
    report: Report,
) -> Result<Option<(f64, f64)>, String> {
    let hands = sample_hands(if opts.quick { 512 } else { 4096 }, 7);
    let inputs: Vec<(Value, Suit, usize, Value)> = hands
        .iter()
        .map(|(h, t, s, sz)| {
            (
                cards_value(*h),
                *t,
                *s,
                Value::list(sz.iter().map(|x| Value::Int(*x as i64))),
            )
        })
        .collect();
    let mut valuer = RuleValuer::new(program.clone());
    // `write-sample=PATH`: the hands timed here, with the rules' value of each, for another engine
    // to run the same work (benches/clips/durak.sh).
    if let Some((_, path)) = opts.args.iter().find(|(k, _)| k == "write-sample") {
        write_sample(path, &hands, &inputs, &mut valuer, report)?;
        return Ok(None);
    }
    let mut checksum = 0i64;
    let mut pass = || {
        for (h, t, s, sz) in &inputs {
            checksum = checksum.wrapping_add(valuer.value(h, *t, *s, sz).map_err(|e| e.to_string())?);
        }
        Ok(())
    };
    // `passes=N`: exactly N passes over the hands, for instruction counts that compare run to run.
    if let Some((_, n)) = opts.args.iter().find(|(k, _)| k == "passes") {
        let n = crate::harness::count_setting("passes", n, 1..=100_000)? as usize;
        let start = Instant::now();
        for _ in 0..n {
            pass()?;
        }
        let hv = (n * inputs.len()) as f64 / start.elapsed().as_secs_f64();
        report(&format!(
            "hand_values={} hand_values_per_s={hv:.0} checksum={checksum}",
            n * inputs.len()
        ));
        return Ok(None);
    }
    let hv = rate(min_time, inputs.len(), pass)?;
    black_box(checksum);
    if opts.args.iter().any(|(k, v)| k == "only" && v == "values") {
        report(&format!("hand_values_per_s={hv:.0} checksum={checksum}"));
        return Ok(None);
    }
    let model = ValueModel::default();
    let native = rate(min_time, hands.len(), || {
        for (h, t, s, sz) in &hands {
            black_box(model.total(black_box(*h), *t, *s, sz.iter().sum()));
        }
        Ok(())
    })?;
    report(&format!(
        "hand values through the rules: {hv:.0}/s (native tables: {native:.0}/s, {:.0}× faster) over {} random hands of 0–12 cards",
        native / hv.max(1.0),
        hands.len()
    ));
    Ok(Some((hv, native)))
}

/// `write-sample=PATH`: writes the hands with the rules' value of each to `path` and reports
/// their count and checksum.
fn write_sample(
    path: &str,
    hands: &[(CardSet, Suit, usize, Vec<usize>)],
    inputs: &[(Value, Suit, usize, Value)],
    valuer: &mut RuleValuer,
    report: Report,
) -> Result<(), String> {
    let mut text = String::from("; EXPECTED TRUMP STOCK SIZES_SUM N CARD1 .. CARDN (cards 0..51: rank 2 + id div 4, suit S H D C by id mod 4)\n");
    let mut sum = 0i64;
    for ((hand, trump, stock, sizes), (h, _, _, sz)) in hands.iter().zip(inputs) {
        let v = valuer.value(h, *trump, *stock, sz).map_err(|e| e.to_string())?;
        sum = sum.wrapping_add(v);
        text.push_str(&format!(
            "{v} {} {stock} {} {}",
            trump.letter(),
            sizes.iter().sum::<usize>(),
            hand.len()
        ));
        for c in hand.iter() {
            text.push_str(&format!(" {}", to_card(c).index()));
        }
        text.push('\n');
    }
    std::fs::write(path, text).map_err(|e| format!("write-sample={path}: {e}"))?;
    report(&format!("sample_hands={} checksum={sum} path={path}", hands.len()));
    Ok(())
}

/// Decisions per second through the rules and natively on positions from real games, and the
/// median and 90th percentile of one decision's time: (rules, native, median s, p90 s).
fn decisions(
    program: &Arc<Program>,
    quick: bool,
    min_time: Duration,
    options: &GameOptions,
    report: Report,
) -> Result<(f64, f64, f64, f64), String> {
    let positions = sample_positions(if quick { 3 } else { 40 }, options);
    let mut player = RulePlayer::new(program.clone(), "durak");
    let dps = rate(min_time, positions.len().max(1), || {
        for (view, legal) in &positions {
            black_box(player.decide(view, legal).map_err(|e| e.to_string())?);
        }
        Ok(())
    })?;
    let (median, p90) = decision_times(&mut player, &positions)?;
    report(&format!(
        "decision time through the rules with the default search budget: median {:.3} ms, 90th percentile {:.3} ms over {} positions",
        median * 1e3,
        p90 * 1e3,
        positions.len()
    ));
    let policy = ReferencePolicy::default();
    let native_dps = rate(min_time, positions.len().max(1), || {
        for (view, legal) in &positions {
            black_box(decide_action(black_box(view), legal, &policy));
        }
        Ok(())
    })?;
    report(&format!(
        "decisions through the rules (what-if on every candidate): {dps:.0}/s (native: {native_dps:.0}/s, {:.0}× faster) over {} positions",
        native_dps / dps.max(1.0),
        positions.len()
    ));
    Ok((dps, native_dps, median, p90))
}

/// Arena games per second: the rule AI in both seats, the native reference players, random
/// players: (rules, native, random).
fn whole_games(
    program: &Arc<Program>,
    quick: bool,
    options: &GameOptions,
    report: Report,
) -> Result<(f64, f64, f64), String> {
    let games = if quick { 4 } else { 100 };
    let mut seats: Vec<Box<dyn Player>> = vec![
        Box::new(RulePlayer::new(program.clone(), "durak").keep_records(false)),
        Box::new(RulePlayer::new(program.clone(), "durak").keep_records(false)),
    ];
    let start = Instant::now();
    let stats = play_match(&mut seats, games, 1, options).map_err(|e| e.to_string())?;
    let t = start.elapsed().as_secs_f64();
    let gps = stats.games as f64 / t;
    let mut native_seats: Vec<Box<dyn Player>> = vec![
        Box::new(ReferencePlayer::default()),
        Box::new(ReferencePlayer::default()),
    ];
    let start = Instant::now();
    let nstats = play_match(&mut native_seats, games, 1, options).map_err(|e| e.to_string())?;
    let native_gps = nstats.games as f64 / start.elapsed().as_secs_f64();
    report(&format!(
        "arena, rule AI in both seats (2 players, 36 cards): {} games in {t:.2}s = {gps:.0} games/s, {:.1} actions/game (native reference players: {native_gps:.0} games/s)",
        stats.games,
        stats.actions as f64 / stats.games.max(1) as f64
    ));
    let mut random: Vec<Box<dyn Player>> = vec![Box::new(RandomPlayer::new(1)), Box::new(RandomPlayer::new(2))];
    let start = Instant::now();
    play_match(&mut random, games, 1, options).map_err(|e| e.to_string())?;
    let random_gps = games as f64 / start.elapsed().as_secs_f64();
    Ok((gps, native_gps, random_gps))
}
