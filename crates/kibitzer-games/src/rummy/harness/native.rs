//! `run_bench`: hands per second on random and island-heavy 15-card hands, the worst case in
//! milliseconds, and incremental add/remove against a full re-solve.

use crate::rummy::card::Card;
use crate::rummy::evaluate::{evaluate, forget_islands};
use crate::rummy::hand::Hand;
use crate::rummy::incremental::HandState;
use crate::rummy::options::Options;
use crate::rummy::{double_deck, island_hand, random_hand, worst_hand};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::io::Write;
use std::time::Instant;

fn hands_per_s(hands: &[Hand], options: &Options, rounds: usize) -> f64 {
    rate(hands, options, rounds, false)
}

/// Hands per second; `cold` empties the island cache before every hand, to show what the
/// search alone costs.
fn rate(hands: &[Hand], options: &Options, rounds: usize, cold: bool) -> f64 {
    let start = Instant::now();
    let mut acc = 0u128;
    for _ in 0..rounds {
        for hand in hands {
            forget_if(cold);
            let e = evaluate(black_box(hand), options);
            acc = acc
                .wrapping_add(e.value.merged ^ e.value.split)
                .wrapping_add(e.value.min_cp as u128 ^ e.value.min_pc as u128);
        }
    }
    black_box(acc);
    (hands.len() * rounds) as f64 / start.elapsed().as_secs_f64()
}

struct Sizes {
    random: usize,
    island: usize,
    worst_reps: usize,
    incremental: usize,
    ai_hands: usize,
    /// Passes of the every-draw-and-discard measure (the median is reported).
    ai_passes: usize,
}

fn run(out: &mut dyn Write, sizes: Sizes) -> std::io::Result<()> {
    let options = Options::default();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    writeln!(out, "rummy bench: one thread, machine has {cores} cores")?;
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let random: Vec<Hand> = (0..sizes.random).map(|_| random_hand(&mut rng, 15)).collect();
    let island: Vec<Hand> = (0..sizes.island).map(|_| island_hand(&mut rng, 15)).collect();

    // Warm-up (tables, caches, clock) before timing.
    hands_per_s(&random[..random.len().min(20_000)], &options, 1);
    let random_rate = hands_per_s(&random, &options, 2);
    writeln!(
        out,
        "random 15-card hands: {random_rate:.0} hands/s (full answer: both counts, both minima)"
    )?;
    let island_rate = hands_per_s(&island, &options, 2);
    writeln!(out, "island-heavy 15-card hands: {island_rate:.0} hands/s")?;
    let random_cold = rate(&random, &options, 1, true);
    let island_cold = rate(&island, &options, 1, true);
    writeln!(
        out,
        "without the island cache (emptied before every hand): random {random_cold:.0} hands/s, island-heavy {island_cold:.0} hands/s"
    )?;

    let worst = worst_hand();
    let mut worst_ms = 0.0f64;
    for ace_high in [false, true] {
        let o = Options { ace_high, ..options };
        let start = Instant::now();
        for _ in 0..sizes.worst_reps {
            // Each repetition searches afresh: the island cache would answer a repeated hand.
            forget_islands();
            black_box(evaluate(black_box(&worst), &o));
        }
        let ms = start.elapsed().as_secs_f64() * 1000.0 / sizes.worst_reps as f64;
        let e = evaluate(&worst, &o);
        writeln!(
            out,
            "worst case {worst} (ace_high={ace_high}): {ms:.4} ms, merged={} split={}",
            e.value.merged, e.value.split
        )?;
        worst_ms = worst_ms.max(ms);
    }

    // Incremental, the AI's pattern: on one hand, try every draw (add, read, take back) and
    // every discard (remove, read, put back), against evaluating each tried hand from scratch.
    // Repeated, the sides one after the other each time, and the median repetition reported:
    // this machine's speed drifts by 10–30% over seconds, and a single pass can catch one
    // side in a slow spell.
    let ai_hands = &random[..sizes.ai_hands.min(random.len())];
    let mut passes: Vec<(f64, f64, usize)> = (0..sizes.ai_passes.max(1))
        .map(|_| every_draw_and_discard(ai_hands, &options, false))
        .collect();
    passes.sort_by(|a, b| (a.1 / a.0.max(1e-12)).total_cmp(&(b.1 / b.0.max(1e-12))));
    let all: Vec<String> = passes.iter().map(|p| format!("{:.2}", p.1 / p.0.max(1e-12))).collect();
    let (ai_inc, ai_full, trials) = passes[passes.len() / 2];
    let speedup = ai_full / ai_inc.max(1e-12);
    writeln!(
        out,
        "incremental, every draw and discard tried on one hand: {:.0} ns per trial, full re-solve: {:.0} ns, speedup {speedup:.2} ({} hands, {trials} trials; median of {} passes: {})",
        ai_inc * 1e9 / trials.max(1) as f64,
        ai_full * 1e9 / trials.max(1) as f64,
        ai_hands.len(),
        passes.len(),
        all.join(" ")
    )?;
    let (cold_inc, cold_full, _) = every_draw_and_discard(ai_hands, &options, true);
    let speedup_uncached = cold_full / cold_inc.max(1e-12);
    writeln!(
        out,
        "  the same with the island cache emptied before every trial (search only): {:.0} ns per trial, full re-solve: {:.0} ns, speedup {speedup_uncached:.2}",
        cold_inc * 1e9 / trials.max(1) as f64,
        cold_full * 1e9 / trials.max(1) as f64,
    )?;

    // One trial per state, states not in cache: add a card, read, remove it again, against
    // evaluating both hands from scratch.
    let deck = double_deck();
    let hands = &random[..sizes.incremental.min(random.len())];
    let draws: Vec<Card> = (0..hands.len())
        .map(|_| deck[rng.random_range(0..deck.len())])
        .collect();
    let (inc, full) = incremental_vs_full(hands, &draws, &options);
    let one_trial = full / inc.max(1e-12);
    writeln!(
        out,
        "incremental, one draw trial per hand (add, read, remove; {} states): {:.0} ns, full re-solve of both hands: {:.0} ns, speedup {one_trial:.2}",
        hands.len(),
        inc * 1e9 / hands.len() as f64,
        full * 1e9 / hands.len() as f64,
    )?;
    // Without the undo shortcut: add, then remove a different card (both re-solve).
    let (inc2, full2) = add_then_remove_other(hands, &draws, &options);
    writeln!(
        out,
        "incremental add + remove of another card (no undo): {:.0} ns, full re-solve: {:.0} ns, speedup {:.2}",
        inc2 * 1e9 / hands.len() as f64,
        full2 * 1e9 / hands.len() as f64,
        full2 / inc2.max(1e-12)
    )?;
    writeln!(
        out,
        "random_hands_per_s={random_rate:.0} island_hands_per_s={island_rate:.0} worst_ms={worst_ms:.4} incremental_speedup={speedup:.2} incremental_speedup_one_trial={one_trial:.2} incremental_speedup_uncached={speedup_uncached:.2} incremental_speedup_no_undo={:.2} random_hands_per_s_uncached={random_cold:.0} island_hands_per_s_uncached={island_cold:.0}",
        full2 / inc2.max(1e-12)
    )
}

/// Empties the island cache when timing the search alone.
fn forget_if(cold: bool) {
    if cold {
        forget_islands();
    }
}

/// Seconds for (every draw and every discard tried incrementally on one state per hand; the
/// same tried hands evaluated from scratch), and the number of trials.
/// `cold` empties the island cache before every trial on both sides (the search alone).
fn every_draw_and_discard(hands: &[Hand], options: &Options, cold: bool) -> (f64, f64, usize) {
    let kinds: Vec<Card> = (0..52u8).filter_map(|i| Card::from_index(i).ok()).collect();
    let mut acc = 0u128;
    let mut trials = 0usize;
    // Each side starts from an empty island cache, so that neither reuses the islands the
    // other solved (run one after the other, the full side would find every tried island
    // already solved by the incremental side).
    forget_islands();
    let start = Instant::now();
    for hand in hands {
        let mut state = HandState::new(*hand, *options);
        for &card in &kinds {
            forget_if(cold);
            if state.add(card).is_ok() {
                acc = acc.wrapping_add(state.value().split);
                let _ = state.remove(card);
                trials += 1;
            }
        }
        for card in hand.cards() {
            forget_if(cold);
            if state.remove(card).is_ok() {
                acc = acc.wrapping_add(state.value().split);
                let _ = state.add(card);
                trials += 1;
            }
        }
    }
    black_box(acc);
    let incremental = start.elapsed().as_secs_f64();
    forget_islands();
    let start = Instant::now();
    for hand in hands {
        // The untouched hand is solved once, as the incremental side's `new` does.
        acc = acc.wrapping_add(evaluate(black_box(hand), options).value.split);
        for &card in &kinds {
            forget_if(cold);
            let mut tried = *hand;
            if tried.add(card).is_ok() {
                acc = acc.wrapping_add(evaluate(black_box(&tried), options).value.split);
            }
        }
        for card in hand.cards() {
            forget_if(cold);
            let mut tried = *hand;
            if tried.remove(card).is_ok() {
                acc = acc.wrapping_add(evaluate(black_box(&tried), options).value.split);
            }
        }
    }
    black_box(acc);
    (incremental, start.elapsed().as_secs_f64(), trials)
}

/// Seconds for (add a draw then remove one of the original cards, incrementally; the same
/// two hands evaluated from scratch).
fn add_then_remove_other(hands: &[Hand], draws: &[Card], options: &Options) -> (f64, f64) {
    let mut states: Vec<HandState> = hands.iter().map(|h| HandState::new(*h, *options)).collect();
    let firsts: Vec<Card> = hands
        .iter()
        .map(|h| h.cards().first().copied().unwrap_or(Card::JOKER))
        .collect();
    forget_islands();
    let start = Instant::now();
    let mut acc = 0u128;
    for ((state, &draw), &first) in states.iter_mut().zip(draws).zip(&firsts) {
        if state.add(draw).is_ok() {
            acc = acc.wrapping_add(state.value().split);
        }
        if state.remove(first).is_ok() {
            acc = acc.wrapping_add(state.value().split);
        }
    }
    black_box(acc);
    let incremental = start.elapsed().as_secs_f64();
    forget_islands();
    let start = Instant::now();
    for ((hand, &draw), &first) in hands.iter().zip(draws).zip(&firsts) {
        let mut h = *hand;
        if h.add(draw).is_ok() {
            acc = acc.wrapping_add(evaluate(black_box(&h), options).value.split);
        }
        if h.remove(first).is_ok() {
            acc = acc.wrapping_add(evaluate(black_box(&h), options).value.split);
        }
    }
    black_box(acc);
    (incremental, start.elapsed().as_secs_f64())
}

/// Seconds for (incremental add+remove over all hands, full re-solves of the same hands).
fn incremental_vs_full(hands: &[Hand], draws: &[Card], options: &Options) -> (f64, f64) {
    let mut states: Vec<HandState> = hands.iter().map(|h| HandState::new(*h, *options)).collect();
    forget_islands();
    let start = Instant::now();
    let mut acc = 0u128;
    for (state, &draw) in states.iter_mut().zip(draws) {
        if state.add(draw).is_ok() {
            acc = acc.wrapping_add(state.value().split);
            let _ = state.remove(draw);
        }
        acc = acc.wrapping_add(state.value().split);
    }
    black_box(acc);
    let incremental = start.elapsed().as_secs_f64();
    forget_islands();
    let start = Instant::now();
    for (hand, &draw) in hands.iter().zip(draws) {
        let mut bigger = *hand;
        if bigger.add(draw).is_ok() {
            acc = acc.wrapping_add(evaluate(black_box(&bigger), options).value.split);
        }
        acc = acc.wrapping_add(evaluate(black_box(hand), options).value.split);
    }
    black_box(acc);
    (incremental, start.elapsed().as_secs_f64())
}

/// The full benchmark (a few seconds in release mode).
pub fn run_bench(out: &mut dyn Write) -> std::io::Result<()> {
    run(
        out,
        Sizes {
            random: 200_000,
            island: 50_000,
            worst_reps: 2_000,
            incremental: 100_000,
            ai_hands: 5_000,
            ai_passes: 5,
        },
    )
}

/// A tiny version for smoke tests.
pub fn run_bench_quick(out: &mut dyn Write) -> std::io::Result<()> {
    run(
        out,
        Sizes {
            random: 500,
            island: 100,
            worst_reps: 5,
            incremental: 200,
            ai_hands: 20,
            ai_passes: 1,
        },
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn quick_bench_ends_with_the_figures() {
        let mut buf = Vec::new();
        super::run_bench_quick(&mut buf).unwrap();
        let text = String::from_utf8(buf).unwrap();
        let last = text.lines().last().unwrap();
        for name in [
            "random_hands_per_s=",
            "island_hands_per_s=",
            "worst_ms=",
            "incremental_speedup=",
        ] {
            assert!(last.contains(name), "{last}");
        }
    }
}
