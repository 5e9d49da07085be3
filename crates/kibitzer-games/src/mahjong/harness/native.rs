//! `kibitzer bench mahjong`: win checks, shanten and waits per second on random and near-ready
//! hands, the strong player's decision time on real game positions, and arena games per second.

use std::hint::black_box;
use std::io::Write;
use std::time::Instant;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::mahjong::play_match;
use crate::mahjong::prepare_tables;
use crate::mahjong::shanten;
use crate::mahjong::{is_win, waits};
use crate::mahjong::{CallAction, Player, PlayerView, TurnAction};
use crate::mahjong::{Counts, Tile, KINDS, NO_TILES};
use crate::mahjong::{ReferencePlayer, StrongPlayer};

/// Sizes of one run.
struct Workload {
    hands: usize,
    rounds: usize,
    positions: usize,
    games: u32,
}

/// The full benchmark (a few seconds).
pub fn run_bench(out: &mut dyn Write) -> std::io::Result<()> {
    run(
        out,
        Workload {
            hands: 20_000,
            rounds: 50,
            positions: 2_000,
            games: 300,
        },
    )
}

/// A tiny version for smoke tests.
pub fn run_bench_quick(out: &mut dyn Write) -> std::io::Result<()> {
    run(
        out,
        Workload {
            hands: 500,
            rounds: 2,
            positions: 50,
            games: 4,
        },
    )
}

fn random_hand(rng: &mut ChaCha8Rng, size: usize) -> Counts {
    let mut wall: Vec<usize> = (0..KINDS).flat_map(|k| [k; 4]).collect();
    wall.shuffle(rng);
    let mut c = NO_TILES;
    for &k in &wall[..size] {
        c[k] += 1;
    }
    c
}

/// A winning hand with `swaps` tiles exchanged at random, `size` tiles (13 drops one more).
fn near_ready(rng: &mut ChaCha8Rng, size: usize, swaps: usize) -> Counts {
    loop {
        let mut c = NO_TILES;
        c[rng.random_range(0..KINDS)] += 2;
        for _ in 0..4 {
            let k = rng.random_range(0..KINDS);
            if k < 27 && k % 9 <= 6 && rng.random_bool(0.6) {
                for d in 0..3 {
                    c[k + d] += 1;
                }
            } else {
                c[k] += 3;
            }
        }
        for _ in 0..swaps + (14 - size) {
            let held: Vec<usize> = (0..KINDS).filter(|&i| c[i] > 0).collect();
            c[held[rng.random_range(0..held.len())]] -= 1;
            if crate::mahjong::tile_count(&c) < size {
                c[rng.random_range(0..KINDS)] += 1;
            }
        }
        while crate::mahjong::tile_count(&c) > size {
            let held: Vec<usize> = (0..KINDS).filter(|&i| c[i] > 0).collect();
            c[held[rng.random_range(0..held.len())]] -= 1;
        }
        if c.iter().all(|&x| x <= 4) && crate::mahjong::tile_count(&c) == size {
            return c;
        }
    }
}

fn per_second(count: usize, start: Instant) -> f64 {
    count as f64 / start.elapsed().as_secs_f64().max(1e-9)
}

/// Records the views a strong player decides on during real games.
struct Recorder {
    inner: StrongPlayer,
    views: Vec<PlayerView>,
    limit: usize,
}

impl Player for Recorder {
    fn name(&self) -> String {
        "strong".into()
    }
    fn on_draw(&mut self, view: &PlayerView) -> TurnAction {
        if self.views.len() < self.limit {
            self.views.push(view.clone());
        }
        self.inner.on_draw(view)
    }
    fn on_discard(&mut self, view: &PlayerView, offered: Tile) -> CallAction {
        self.inner.on_discard(view, offered)
    }
}

/// The sample hands: random and near-ready, 14 and 13 tiles, `w.hands` of each.
struct Hands {
    random14: Vec<Counts>,
    random13: Vec<Counts>,
    near14: Vec<Counts>,
    near13: Vec<Counts>,
}

/// The benchmark: tables, each measured phase, the published anchors, then the figures in one line.
fn run(out: &mut dyn Write, w: Workload) -> std::io::Result<()> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    writeln!(out, "mahjong bench: one thread, {cores} core(s) on this machine")?;
    let t = Instant::now();
    prepare_tables();
    writeln!(out, "tables built in {:.0} ms", t.elapsed().as_secs_f64() * 1e3)?;
    let hands = sample_hands(&w);
    let win_rate = win_checks(out, &w, &hands)?;
    let shanten_rate = shanten_rates(out, &w, &hands)?;
    let waits_rate = wait_rates(out, &w, &hands)?;
    let decision_us = decision_time(out, &w)?;
    let games_rate = arena(out, &w)?;
    // Published anchors (not run here: other languages and machines), for scale only; the Python
    // library runs beside kibitzer in benches/mahjong/run.sh.
    writeln!(
        out,
        "published anchors: mahjong-helper (Go) 84 ns per win check = {:.1}x slower, 1.76 µs per \
         shanten = {:.0}x slower; Python `mahjong` 25–37 k shanten/s (benches/mahjong/run.sh runs it \
         side by side)",
        win_rate * 84e-9,
        shanten_rate * 1.76e-6
    )?;
    writeln!(
        out,
        "win_checks_per_s={:.0} shanten_per_s={:.0} waits_per_s={:.0} decision_us={:.2} games_per_s={:.0}",
        win_rate, shanten_rate, waits_rate, decision_us, games_rate
    )
}

/// Deals the sample hands from one seeded generator, in a fixed order.
fn sample_hands(w: &Workload) -> Hands {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let random14: Vec<Counts> = (0..w.hands).map(|_| random_hand(&mut rng, 14)).collect();
    let random13: Vec<Counts> = (0..w.hands).map(|_| random_hand(&mut rng, 13)).collect();
    let near14: Vec<Counts> = (0..w.hands).map(|i| near_ready(&mut rng, 14, i % 2)).collect();
    let near13: Vec<Counts> = (0..w.hands).map(|_| near_ready(&mut rng, 13, 0)).collect();
    Hands {
        random14,
        random13,
        near14,
        near13,
    }
}

/// Win checks per second on 14-tile hands, random and near-ready: reports each, returns the lower.
fn win_checks(out: &mut dyn Write, w: &Workload, hands: &Hands) -> std::io::Result<f64> {
    let mut figures = Vec::new();
    for (label, hands) in [("random", &hands.random14), ("near-ready", &hands.near14)] {
        let start = Instant::now();
        let mut wins = 0usize;
        for _ in 0..w.rounds {
            for h in hands.iter() {
                wins += is_win(black_box(h), &[]).is_some() as usize;
            }
        }
        let rate = per_second(w.rounds * hands.len(), start);
        writeln!(
            out,
            "win check, {label} 14-tile hands: {:.1} M/s ({} wins per round)",
            rate / 1e6,
            wins / w.rounds.max(1)
        )?;
        figures.push(rate);
    }
    Ok(figures.iter().cloned().fold(f64::INFINITY, f64::min))
}

/// Shanten (both forms) per second on each sample: reports each, returns the lowest.
fn shanten_rates(out: &mut dyn Write, w: &Workload, hands: &Hands) -> std::io::Result<f64> {
    let mut shanten_rates = Vec::new();
    for (label, hands) in [
        ("random 14", &hands.random14),
        ("random 13", &hands.random13),
        ("near-ready 14", &hands.near14),
        ("near-ready 13", &hands.near13),
    ] {
        let start = Instant::now();
        let mut sum = 0i64;
        for _ in 0..w.rounds {
            for h in hands.iter() {
                sum += shanten(black_box(h), &[]) as i64;
            }
        }
        let rate = per_second(w.rounds * hands.len(), start);
        writeln!(
            out,
            "shanten (both forms), {label}-tile hands: {:.2} M/s (mean {:.2})",
            rate / 1e6,
            sum as f64 / (w.rounds * hands.len()).max(1) as f64
        )?;
        shanten_rates.push(rate);
    }
    Ok(shanten_rates.iter().cloned().fold(f64::INFINITY, f64::min))
}

/// Waits per second on 13-tile hands, random and near-ready: reports each, returns the lower.
fn wait_rates(out: &mut dyn Write, w: &Workload, hands: &Hands) -> std::io::Result<f64> {
    let mut wait_rates = Vec::new();
    for (label, hands) in [("random", &hands.random13), ("near-ready", &hands.near13)] {
        let start = Instant::now();
        let mut n = 0usize;
        for _ in 0..w.rounds {
            for h in hands.iter() {
                n += waits(black_box(h), &[], &NO_TILES).len();
            }
        }
        let rate = per_second(w.rounds * hands.len(), start);
        writeln!(
            out,
            "waits, {label} 13-tile hands: {:.2} M/s ({:.2} waits per hand)",
            rate / 1e6,
            n as f64 / (w.rounds * hands.len()).max(1) as f64
        )?;
        wait_rates.push(rate);
    }
    Ok(wait_rates.iter().cloned().fold(f64::INFINITY, f64::min))
}

/// The strong player's turn decision time in µs, on positions from real games of the strong player against the reference bot.
fn decision_time(out: &mut dyn Write, w: &Workload) -> std::io::Result<f64> {
    let mut recorder = Recorder {
        inner: StrongPlayer::default(),
        views: Vec::new(),
        limit: w.positions,
    };
    let mut seed = ReferencePlayer::default();
    let mut g = 0;
    while recorder.views.len() < w.positions && g < 10_000 {
        play_match([&mut recorder, &mut seed], 1, 77 + g);
        g += 1;
    }
    let views = std::mem::take(&mut recorder.views);
    let mut strong = StrongPlayer::default();
    // Recording played these positions: start from an empty capped-distance memo.
    crate::mahjong::forget_capped_memo();
    let start = Instant::now();
    let reps = (w.rounds / 10).max(1);
    for _ in 0..reps {
        for v in &views {
            black_box(strong.on_draw(black_box(v)));
        }
    }
    let decision_us = start.elapsed().as_secs_f64() * 1e6 / (reps * views.len()).max(1) as f64;
    writeln!(
        out,
        "strong player's turn decision (discard/kong/win) on {} game positions: {:.2} µs",
        views.len(),
        decision_us
    )?;
    Ok(decision_us)
}

/// Arena games per second, strong against seed, with the match's report.
fn arena(out: &mut dyn Write, w: &Workload) -> std::io::Result<f64> {
    let mut strong = StrongPlayer::default();
    let mut seed = ReferencePlayer::default();
    let start = Instant::now();
    let stats = play_match([&mut strong, &mut seed], w.games, 5);
    let games_rate = per_second(w.games as usize, start);
    writeln!(
        out,
        "arena strong vs seed: {:.0} games/s over {} games",
        games_rate, w.games
    )?;
    write!(out, "{}", stats.report())?;
    Ok(games_rate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quick_bench_ends_with_the_figures() {
        let mut buf = Vec::new();
        run_bench_quick(&mut buf).unwrap();
        let text = String::from_utf8(buf).unwrap();
        let last = text.lines().last().unwrap();
        for name in [
            "win_checks_per_s=",
            "shanten_per_s=",
            "waits_per_s=",
            "decision_us=",
            "games_per_s=",
        ] {
            assert!(last.contains(name), "{last}");
        }
    }
}
