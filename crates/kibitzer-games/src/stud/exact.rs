//! Exact equity: every deal of the unknown cards counted, never by comparing all pairs naively.
//!
//! Three methods, the cheapest applicable one chosen by an estimate of its work:
//! - **Heads-up sweep** (`sweep.rs`; one opponent with unknown cards, fully known opponents folded in
//!   as a fixed rank): each completion of each player evaluated once, disjointness of my completion
//!   and the opponent's handled by inclusion–exclusion over shared cards.
//! - **Indexed last opponent** (`multiway.rs`; two or more opponents with unknown cards): my
//!   completion and all opponents' but the last are dealt explicitly; the last opponent's
//!   completions are counted, not dealt, from a per-subset sorted index, again by
//!   inclusion–exclusion over the cards already dealt.
//! - **Plain enumeration** (`multiway.rs`): every deal, with incremental evaluation; the fallback when
//!   the index would take too much memory.
//!
//! All three count a lost deal as soon as a dealt opponent beats me (a product of binomials instead
//! of the remaining deals), and all are cross-checked against the test oracle and against each other.

use super::combos::binomial;
use super::eval::{step, walk};
use super::multiway::{enumerate_deals, LastSeat};
use super::odds::Odds;
use super::rank::DISTINCT_RANKS;
use super::situation::Situation;
use super::sweep::heads_up;
use super::tables::{tables_for, Tables};

/// Largest last-opponent index allowed (entries of 2 bytes: 32 MB).
const MAX_INDEX_ENTRIES: u128 = 1 << 24;

/// A player: the evaluator state of the known cards and the number of cards still to come.
#[derive(Clone, Copy, Debug)]
pub(super) struct Seat {
    pub(super) state: u32,
    pub(super) missing: usize,
}

/// The counting method chosen for a situation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    HeadsUp,
    IndexedLast,
    Enumerate,
}

/// How the exact count would be done, and what it would cost.
struct Plan {
    pool: Vec<u8>,
    /// Me first, then the opponents with unknown cards (most unknown cards last). For the heads-up
    /// sweep, exactly one opponent, who may have no unknown card.
    seats: Vec<Seat>,
    /// Best rank among the fully known opponents left out of `seats`, and how many hold it.
    fixed_best: Option<(u32, usize)>,
    method: Method,
    cost: u128,
}

/// Work units an exact answer for `situation` costs with the method [`equity_exact`] would use:
/// completions evaluated, counter touches and index look-ups, or deals for plain enumeration.
pub fn exact_cost(situation: &Situation) -> u128 {
    plan(situation).cost
}

/// Exact odds when [`exact_cost`] is within `budget`, else `None` (unknown within budget).
pub fn equity_exact(situation: &Situation, budget: u64) -> Option<Odds> {
    let plan = plan(situation);
    if plan.cost > u128::from(budget) {
        return None;
    }
    let t = tables_for(situation.wheel());
    let tally = match (plan.method, plan.seats.as_slice()) {
        (Method::HeadsUp, [me, opponent]) => heads_up(t, &plan.pool, *me, *opponent, plan.fixed_best),
        (Method::IndexedLast, [dealt @ .., last]) => {
            let index = LastSeat::build(t, &plan.pool, *last);
            enumerate_deals(t, &plan.pool, dealt, Some(&index), plan.fixed_best)
        }
        (_, seats) => enumerate_deals(t, &plan.pool, seats, None, plan.fixed_best),
    };
    Some(tally.into_odds(true, situation.deal_count()))
}

fn plan(situation: &Situation) -> Plan {
    let t = tables_for(situation.wheel());
    let pool = situation.unseen();
    let n = pool.len();
    let me = Seat {
        state: walk(t, situation.me()),
        missing: 5 - situation.me().len(),
    };
    let mut opponents: Vec<Seat> = situation
        .opponents()
        .iter()
        .map(|shown| Seat {
            state: walk(t, shown),
            missing: 5 - shown.len(),
        })
        .collect();
    opponents.sort_by_key(|seat| std::cmp::Reverse(seat.missing));
    let variable = opponents.iter().filter(|s| s.missing > 0).count().max(1);
    let fixed = opponents.split_off(variable.min(opponents.len()));
    let fixed_best = fixed.iter().map(|s| s.state).max().map(|best| {
        let holders = fixed.iter().filter(|s| s.state == best).count();
        (best, holders)
    });
    // Most unknown cards last: the last seat is the one counted rather than dealt.
    opponents.reverse();
    let mut seats = vec![me];
    seats.extend(opponents);

    let deals = situation.deal_count();
    let mut method = Method::Enumerate;
    let mut cost = deals;
    if let [me, opponent] = seats.as_slice() {
        method = Method::HeadsUp;
        cost = heads_up_cost(n, me.missing, opponent.missing);
    } else if let [dealt @ .., last] = seats.as_slice() {
        let entries = u128::from(binomial(n, last.missing)) << last.missing;
        let dealt_cards: usize = dealt.iter().map(|s| s.missing).sum();
        let subsets: u128 = (0..=last.missing).map(|j| u128::from(binomial(dealt_cards, j))).sum();
        let tuples = u128::from(super::multiway::ways_to_complete(dealt, n));
        let indexed = tuples * (1 + 2 * subsets) + entries * 2;
        if entries <= MAX_INDEX_ENTRIES && indexed < cost {
            method = Method::IndexedLast;
            cost = indexed;
        }
    }
    Plan {
        pool,
        seats,
        fixed_best,
        method,
        cost,
    }
}

/// Work of the heads-up sweep: completions plus counter touches.
fn heads_up_cost(n: usize, m: usize, o: usize) -> u128 {
    let j = m.min(o);
    let subsets = |size: usize| u128::from((0..=j).map(|i| binomial(size, i)).sum::<u64>());
    let mine = u128::from(binomial(n, m));
    let theirs = u128::from(binomial(n, o));
    let slots: u128 = (0..=j).map(|i| u128::from(binomial(n, i))).sum();
    mine * (1 + 2 * subsets(m)) + theirs * (1 + subsets(o)) + slots
}

/// A completion: its rank and the pool positions (ascending) of the cards it adds.
#[derive(Clone, Copy)]
pub(super) struct Completion {
    pub(super) rank: u32,
    pub(super) members: [u8; 5],
}

/// Calls `visit(rank_or_state, positions)` for every way to add `left` cards of `pool` (positions
/// not in `used`, ascending) to a hand in `state`.
#[allow(clippy::too_many_arguments)]
pub(super) fn each_completion(
    t: &Tables,
    pool: &[u8],
    used: u64,
    state: u32,
    first: usize,
    left: usize,
    chosen: &mut [u8; 5],
    depth: usize,
    visit: &mut dyn FnMut(u32, &[u8]),
) {
    if left == 0 {
        visit(state, &chosen[..depth.min(5)]);
        return;
    }
    if depth >= 5 {
        return;
    }
    for (position, &card) in pool.iter().enumerate().skip(first) {
        if pool.len() - position < left {
            break;
        }
        if used & (1 << position) != 0 {
            continue;
        }
        chosen[depth] = position as u8;
        let next = step(t, state, card);
        each_completion(t, pool, used, next, position + 1, left - 1, chosen, depth + 1, visit);
    }
}

/// All completions of a seat, sorted by rank: counted per rank in a first pass, placed in a second
/// (evaluation is cheaper than holding a second copy of millions of completions).
pub(super) fn completions_by_rank(t: &Tables, pool: &[u8], seat: Seat) -> Vec<Completion> {
    let mut chosen = [0u8; 5];
    let count = binomial(pool.len(), seat.missing) as usize;
    let mut visit_all = |visit: &mut dyn FnMut(u32, &[u8])| {
        each_completion(t, pool, 0, seat.state, 0, seat.missing, &mut chosen, 0, visit);
    };
    let completion = |rank: u32, members: &[u8]| {
        let mut packed = [0u8; 5];
        packed[..members.len()].copy_from_slice(members);
        Completion { rank, members: packed }
    };
    if count < 1024 {
        // Few completions (late streets): a comparison sort beats clearing thousands of buckets.
        let mut all = Vec::with_capacity(count);
        visit_all(&mut |rank, members| all.push(completion(rank, members)));
        all.sort_unstable_by_key(|c| c.rank);
        return all;
    }
    let buckets = usize::from(DISTINCT_RANKS);
    let mut starts = vec![0usize; buckets + 1];
    visit_all(&mut |rank, _| starts[(rank as usize).min(buckets - 1) + 1] += 1);
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    let mut sorted = vec![completion(0, &[]); count];
    visit_all(&mut |rank, members| {
        let bucket = (rank as usize).min(buckets - 1);
        if let Some(slot) = sorted.get_mut(starts[bucket]) {
            *slot = completion(rank, members);
        }
        starts[bucket] += 1;
    });
    sorted
}

/// Test hook: plain enumeration of any situation (heads-up included), to cross-check the other
/// methods against a different exact one.
#[cfg(test)]
pub(super) fn equity_by_enumeration(situation: &Situation) -> Odds {
    let t = tables_for(situation.wheel());
    let pool = situation.unseen();
    let seats: Vec<Seat> = std::iter::once(situation.me())
        .chain(situation.opponents().iter().map(Vec::as_slice))
        .map(|known| Seat {
            state: walk(t, known),
            missing: 5 - known.len(),
        })
        .collect();
    enumerate_deals(t, &pool, &seats, None, None).into_odds(true, situation.deal_count())
}

/// Test hook: the indexed-last-opponent method forced, where it applies (two or more opponents
/// with unknown cards).
#[cfg(test)]
pub(super) fn equity_by_index(situation: &Situation) -> Option<Odds> {
    let plan = plan(situation);
    let [dealt @ .., last] = plan.seats.as_slice() else {
        return None;
    };
    if dealt.len() < 2 {
        return None;
    }
    let t = tables_for(situation.wheel());
    let index = LastSeat::build(t, &plan.pool, *last);
    let tally = enumerate_deals(t, &plan.pool, dealt, Some(&index), plan.fixed_best);
    Some(tally.into_odds(true, situation.deal_count()))
}

/// Test hook: the method the plan picks.
#[cfg(test)]
pub(super) fn method_name(situation: &Situation) -> &'static str {
    match plan(situation).method {
        Method::HeadsUp => "heads-up",
        Method::IndexedLast => "indexed",
        Method::Enumerate => "enumerate",
    }
}
