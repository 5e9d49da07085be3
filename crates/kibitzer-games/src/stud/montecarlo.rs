//! Monte Carlo equity for situations too large to count: random deals of the unseen cards.

use super::eval::{step, walk};
use super::odds::{Odds, Tally};
use super::situation::Situation;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Odds over `samples` (at least 1) random deals drawn with `ChaCha8Rng` seeded by `seed`; the same
/// seed gives the same answer. `std_error` / `ci95` bound `p_win`. Once the run's deadline has
/// passed (`crate::budget`, read every 4096 deals) it stops with the deals drawn so far, which
/// `Odds::total` counts and the error bar follows.
pub fn equity_monte_carlo(situation: &Situation, samples: u64, seed: u64) -> Odds {
    let t = super::tables::tables_for(situation.wheel());
    let mut pool = situation.unseen();
    let seats: Vec<(u32, usize)> = std::iter::once(situation.me())
        .chain(situation.opponents().iter().map(Vec::as_slice))
        .map(|known| (walk(t, known), 5 - known.len()))
        .collect();
    let needed: usize = seats.iter().map(|s| s.1).sum::<usize>().min(pool.len());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut tally = Tally::default();
    for n in 0..samples.max(1) {
        if n & 0xFFF == 0xFFF && crate::budget::expired() {
            break;
        }
        // Partial Fisher–Yates: the first `needed` cards become a uniform random draw.
        for i in 0..needed {
            let j = rng.random_range(i..pool.len());
            pool.swap(i, j);
        }
        let mut dealt = pool.iter();
        let mut ranks = [0u32; 5];
        for (rank, &(state, missing)) in ranks.iter_mut().zip(&seats) {
            *rank = dealt.by_ref().take(missing).fold(state, |s, &card| step(t, s, card));
        }
        let opponents = &ranks[1..seats.len()];
        let best = opponents.iter().copied().max().unwrap_or(0);
        let holders = opponents.iter().filter(|&&r| r == best).count();
        tally.record(ranks[0], best, holders);
    }
    tally.into_odds(false, situation.deal_count())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_passed_deadline_stops_the_estimate_with_the_deals_drawn() {
        // Two cards of mine against two opponents showing one each: far too many deals to count.
        let situation = Situation::new(vec![51, 37], vec![vec![36], vec![20]], Vec::new()).expect("a position");
        let _deadline = crate::budget::with_deadline(Some(std::time::Duration::ZERO));
        let odds = equity_monte_carlo(&situation, 1_000_000_000, 1);
        assert_eq!(odds.total, 4095, "stopped at the first look at the clock");
    }
}
