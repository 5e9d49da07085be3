//! Sampled search: each candidate play tried on the same deals of the unseen cards, each deal
//! played out to the end by a fast policy, and the candidate's expected loss with its error bar.
//!
//! A playout scores 1 when this player ends as the durak, ½ for a draw, 0 otherwise. Every
//! candidate meets the same deals, so the difference between two candidates is measured with
//! less noise than either value (its standard error is what the tie-break with the hand value
//! uses). Deterministic: the deals come from a ChaCha8 stream seeded with the seed and the position.

use super::cards::{Card, CardSet, Suit};
use super::error::DurakError;
use super::game::{apply, Action, GameState, Outcome};
use super::world::World;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

/// How much a sampled search may spend.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleBudget {
    /// Deals to sample (each played out once per candidate).
    pub samples: usize,
    /// Seeds the stream of deals (mixed with the position), so the same question gets the same deals.
    pub seed: u64,
    /// Wall-clock cap; reached, the search keeps the deals played so far.
    pub time: Option<Duration>,
    /// The hand value's choice is kept while its loss is within this many standard errors of the
    /// best candidate's (the standard error of their paired difference).
    pub margin: f64,
}

/// One candidate's results over the deals.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The candidate play.
    pub action: Action,
    /// Deals the candidate was played out on.
    pub deals: usize,
    /// Games this player ended as the durak.
    pub durak: usize,
    /// Playouts that ended in a draw.
    pub draws: usize,
    /// Sum of the squared per-deal losses in half points (durak 2, draw 1), for the error bar.
    halves_sq: u64,
}

impl Estimate {
    fn halves(&self) -> u64 {
        2 * self.durak as u64 + self.draws as u64
    }

    /// Expected loss: durak 1, draw ½.
    pub fn loss(&self) -> f64 {
        self.halves() as f64 / (2.0 * self.deals.max(1) as f64)
    }

    /// Share of deals ending with this player the durak.
    pub fn durak_rate(&self) -> f64 {
        self.durak as f64 / self.deals.max(1) as f64
    }

    /// Half-width of the 95% interval of [`Estimate::loss`].
    pub fn error95(&self) -> f64 {
        let n = self.deals.max(1) as f64;
        let mean = self.halves() as f64 / n;
        let var = (self.halves_sq as f64 / n - mean * mean).max(0.0);
        1.96 * (var / n).sqrt() / 2.0
    }
}

/// The outcome of a sampled search.
#[derive(Clone, Debug, PartialEq)]
pub struct SampleAnswer {
    /// Every candidate, in legal order.
    pub estimates: Vec<Estimate>,
    /// The candidate with the lowest loss (ties: the earlier one).
    pub best: usize,
    /// The candidate played: the best, or the hand value's choice when within the margin.
    pub chosen: usize,
    /// The standard error of the chosen's loss minus the best's (0 when they are the same).
    pub gap_error: f64,
    /// Deals played (fewer than `samples` when the time cap was reached).
    pub deals: usize,
}

/// The sampled search of `world` for its player. `advice` is the hand value's choice, kept when
/// the search cannot tell it from the best. `None` when the position asks nothing of the player.
pub fn sampled_search(
    world: &World,
    advice: Option<Action>,
    budget: &SampleBudget,
) -> Result<Option<SampleAnswer>, DurakError> {
    world.check()?;
    let mut rng = ChaCha8Rng::seed_from_u64(budget.seed ^ world_hash(world));
    let mut order = Vec::with_capacity(52);
    let first = world.deal(&mut rng, &mut order)?;
    let candidates = world.candidates(&first);
    if candidates.is_empty() || budget.samples == 0 {
        return Ok(None);
    }
    let k = candidates.len();
    let mut estimates: Vec<Estimate> = candidates
        .iter()
        .map(|&action| Estimate {
            action,
            deals: 0,
            durak: 0,
            draws: 0,
            halves_sq: 0,
        })
        .collect();
    let mut losses: Vec<u8> = Vec::with_capacity(budget.samples.min(1 << 16) * k);
    let start = Instant::now();
    let mut deal = first;
    for s in 0..budget.samples {
        if s > 0 {
            if budget.time.is_some_and(|t| start.elapsed() >= t) || crate::budget::expired() {
                break;
            }
            deal = world.deal(&mut rng, &mut order)?;
        }
        for (e, &a) in estimates.iter_mut().zip(&candidates) {
            let mut st = deal.clone();
            let outcome = match apply(&mut st, 0, a) {
                Ok(()) => play_out(&mut st),
                Err(_) => Outcome::Aborted,
            };
            let halves = match outcome {
                Outcome::Durak(0) => 2u8,
                Outcome::Durak(_) => 0,
                Outcome::Draw | Outcome::Aborted => 1,
            };
            e.deals += 1;
            e.durak += usize::from(halves == 2);
            e.draws += usize::from(halves == 1);
            e.halves_sq += u64::from(halves * halves);
            losses.push(halves);
        }
    }
    let deals = estimates.first().map_or(0, |e| e.deals);
    let best = (0..k)
        .min_by(|&a, &b| estimates[a].halves().cmp(&estimates[b].halves()).then(a.cmp(&b)))
        .unwrap_or(0);
    let mut chosen = best;
    let mut gap_error = 0.0;
    if let Some(i) = advice.and_then(|a| candidates.iter().position(|c| *c == a)) {
        let (gap, se) = paired(&losses, k, i, best);
        if i != best && gap <= budget.margin * se {
            chosen = i;
            gap_error = se;
        } else if i != best {
            gap_error = se;
        }
    }
    Ok(Some(SampleAnswer {
        estimates,
        best,
        chosen,
        gap_error,
        deals,
    }))
}

/// Mean and standard error of candidate `a`'s loss minus `b`'s over the same deals.
fn paired(losses: &[u8], k: usize, a: usize, b: usize) -> (f64, f64) {
    let rows = losses.chunks_exact(k);
    let n = rows.len().max(1) as f64;
    let (mut sum, mut sq) = (0.0, 0.0);
    for row in rows {
        let d = (f64::from(row[a]) - f64::from(row[b])) / 2.0;
        sum += d;
        sq += d * d;
    }
    let mean = sum / n;
    let var = (sq / n - mean * mean).max(0.0);
    (mean, (var / n).sqrt())
}

/// Plays a game to its end with [`fast_action`] in every seat.
pub fn play_out(state: &mut GameState) -> Outcome {
    while let Some(p) = state.to_act() {
        if apply(state, p, fast_action(state, p)).is_err() {
            return Outcome::Aborted;
        }
    }
    state.outcome().unwrap_or(Outcome::Aborted)
}

/// The lowest card of a set: non-trumps first, then rank, then suit.
fn lowest(set: CardSet, trump: Suit) -> Option<Card> {
    set.iter().min_by_key(|c| (c.suit() == trump, c.rank(), c.suit()))
}

/// The playout policy, "the lowest card", read straight off the hand and the table: lead the
/// lowest card; throw in the lowest non-trump of a rank on the table (never a trump); beat the
/// first unbeaten card with the lowest card that does; take when nothing does; never transfer.
pub fn fast_action(state: &GameState, p: usize) -> Action {
    let trump = state.trump();
    let hand = state.hand(p);
    let table = state.table();
    if table.is_empty() {
        return lowest(hand, trump).map_or(Action::Pass, Action::Attack);
    }
    if p == state.defender() && !state.taking() {
        let Some(target) = table.iter().find(|t| t.defence.is_none()).map(|t| t.attack) else {
            return Action::Take;
        };
        return lowest(target.beaten_by(trump).intersection(hand), trump)
            .map_or(Action::Take, |with| Action::Defend { attack: target, with });
    }
    if table.len() >= state.attack_limit() {
        return Action::Pass;
    }
    let ranks = state.table_cards().rank_mask();
    let throwable = hand
        .iter()
        .filter(|c| c.suit() != trump && ranks >> (c.rank() - 2) & 1 == 1);
    throwable
        .min_by_key(|c| (c.rank(), c.suit()))
        .map_or(Action::Pass, Action::Attack)
}

/// A hash of everything the player knows, so that each position draws its own deals.
pub(crate) fn world_hash(w: &World) -> u64 {
    let mut h = 0x9e37_79b9_7f4a_7c15u64;
    let mut mix = |x: u64| {
        h = (h ^ x).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h ^= h >> 31;
    };
    mix(w.hand.bits());
    mix(w.out.bits());
    mix(w.table_cards().bits());
    mix(w.stock as u64);
    mix(w.trump.index() as u64);
    for (s, k) in w.sizes.iter().zip(&w.known) {
        mix(*s as u64);
        mix(k.bits());
    }
    let mut table = w.table.clone();
    table.sort_by_key(super::game::table_order);
    for p in &table {
        mix(u64::from(p.attack.index()) << 8 | p.defence.map_or(255, |d| u64::from(d.index())));
    }
    mix(u64::from(w.defending) | (w.defender as u64) << 1 | (w.room as u64) << 4);
    h
}
