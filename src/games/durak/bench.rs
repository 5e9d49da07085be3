//! `run_bench`: native hand values/s, native decisions/s, native arena games/s.

use super::arena::play_match;
use super::cards::{CardSet, Deck, Suit};
use super::engine::{apply, legal_actions_into, Action, GameOptions, GameState};
use super::players::{Player, RandomPlayer, ReferencePlayer};
use super::policy::{decide, decide_action, ReferencePolicy};
use super::value::{hand_value, ValueModel, ValueParams};
use super::view::PlayerView;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::io::{self, Write};
use std::time::{Duration, Instant};

struct Sizes {
    min_time: Duration,
    games: usize,
    decision_games: usize,
}

/// Runs the native benchmark (hand values, decisions, arena games per second; one thread), report to `out`.
pub fn run_bench(out: &mut dyn Write) -> io::Result<()> {
    run(
        out,
        &Sizes {
            min_time: Duration::from_millis(700),
            games: 20_000,
            decision_games: 300,
        },
    )
}

/// [`run_bench`] with tiny sizes: a smoke run that checks the benchmark works, not its speed.
pub fn run_bench_quick(out: &mut dyn Write) -> io::Result<()> {
    run(
        out,
        &Sizes {
            min_time: Duration::from_millis(5),
            games: 50,
            decision_games: 5,
        },
    )
}

/// This process's CPU time (user + system) from `/proc/self/stat`, where that exists: with other
/// jobs sharing the cores, wall-clock rates understate the engine; CPU-time rates do not.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    // USER_HZ is 100 on every Linux.
    Some((utime + stime) / 100.0)
}

/// Runs `f` over and over until `min_time` has passed; returns calls per second.
fn rate(min_time: Duration, per_call: usize, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    let mut calls = 0usize;
    loop {
        f();
        calls += per_call;
        let t = start.elapsed();
        if t >= min_time {
            return calls as f64 / t.as_secs_f64();
        }
    }
}

fn sample_hands(count: usize) -> Vec<(CardSet, Suit, usize, usize)> {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let deck = Deck::Cards36.cards();
    (0..count)
        .map(|_| {
            let mut cards = deck.clone();
            cards.shuffle(&mut rng);
            let h = rng.random_range(0..=12usize);
            let hand = CardSet::from_cards(&cards[..h]);
            let trump = Suit::ALL[rng.random_range(0..4usize)];
            let stock = rng.random_range(0..=(36 - h).min(24));
            let others = rng.random_range(0..=(36 - h - stock).min(18));
            (hand, trump, stock, h + others)
        })
        .collect()
}

fn sample_decisions(games: usize) -> Vec<(PlayerView, Vec<Action>)> {
    let options = GameOptions::default();
    let policy = ReferencePolicy::default();
    let mut out = Vec::new();
    let mut legal = Vec::new();
    for g in 0..games {
        let Ok(mut state) = GameState::new(&options, g as u64) else {
            continue;
        };
        while let Some(p) = state.to_act() {
            legal_actions_into(&state, &mut legal);
            let view = state.view(p);
            let action = decide_action(&view, &legal, &policy);
            out.push((view, legal.clone()));
            if apply(&mut state, p, action).is_err() {
                break;
            }
        }
    }
    out
}

fn run(out: &mut dyn Write, sizes: &Sizes) -> io::Result<()> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    writeln!(out, "durak native bench (one thread; machine has {cores} cores)")?;

    let model = ValueModel::default();
    let params = ValueParams::default();
    let hands = sample_hands(4096);
    let hv = rate(sizes.min_time, hands.len(), || {
        for &(h, t, s, total) in &hands {
            black_box(model.total(black_box(h), t, s, total));
        }
    });
    let hand_vecs: Vec<_> = hands
        .iter()
        .map(|&(h, t, s, total)| (h.to_vec(), t, s, [h.len(), total - h.len()]))
        .collect();
    let explained = rate(sizes.min_time, hand_vecs.len(), || {
        for (h, t, s, sz) in &hand_vecs {
            black_box(hand_value(black_box(h), *t, *s, sz, &params));
        }
    });
    writeln!(out, "hand values (total only, tables): {hv:.0}/s")?;
    writeln!(out, "hand values (itemised breakdown): {explained:.0}/s")?;

    let policy = ReferencePolicy::default();
    let positions = sample_decisions(sizes.decision_games);
    let dps = rate(sizes.min_time, positions.len().max(1), || {
        for (view, legal) in &positions {
            black_box(decide_action(black_box(view), legal, &policy));
        }
    });
    let recorded = rate(sizes.min_time, positions.len().max(1), || {
        for (view, legal) in &positions {
            black_box(decide(black_box(view), legal, &policy));
        }
    });
    writeln!(
        out,
        "reference decisions: {dps:.0}/s (action only), {recorded:.0}/s (with every candidate's score) over {} positions",
        positions.len()
    )?;

    let options = GameOptions::default();
    let mut seats: Vec<Box<dyn Player>> = vec![
        Box::new(ReferencePlayer::default()),
        Box::new(ReferencePlayer::default()),
    ];
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    let stats = play_match(&mut seats, sizes.games, 1, &options).map_err(io::Error::other)?;
    let t = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds().zip(cpu_start).map(|(b, a)| b - a);
    let gps = stats.games as f64 / t;
    writeln!(
        out,
        "arena reference vs reference (2 players, 36 cards): {} games in {t:.3}s = {gps:.0} games/s, {:.1} actions/game",
        stats.games,
        stats.actions as f64 / stats.games.max(1) as f64
    )?;
    let mut randoms: Vec<Box<dyn Player>> = vec![Box::new(RandomPlayer::new(1)), Box::new(RandomPlayer::new(2))];
    let start = Instant::now();
    let rstats = play_match(&mut randoms, sizes.games, 1, &options).map_err(io::Error::other)?;
    let rgps = rstats.games as f64 / start.elapsed().as_secs_f64();
    writeln!(out, "arena random vs random: {rgps:.0} games/s")?;
    let cpu_gps = match cpu {
        Some(c) if c > 0.05 => {
            let r = stats.games as f64 / c;
            writeln!(
                out,
                "arena reference vs reference by CPU time: {c:.2}s CPU for {t:.2}s wall = {r:.0} games/s per busy core"
            )?;
            r
        }
        _ => gps,
    };
    writeln!(
        out,
        "hand_values_per_s={hv:.0} decisions_per_s={dps:.0} games_per_s={gps:.0} explained_hand_values_per_s={explained:.0} recorded_decisions_per_s={recorded:.0} random_games_per_s={rgps:.0} cpu_games_per_s={cpu_gps:.0} cores={cores}"
    )
}
