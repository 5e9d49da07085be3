//! Exact equity: every deal of the unknown cards counted, never by comparing all pairs naively.
//!
//! **Heads-up** (at most one opponent with unknown cards; fully known opponents are folded in as a
//! fixed rank) uses a sweep. Every completion A of my hand and every completion B of the opponent's
//! is evaluated once; both lists are sorted by rank (counting sort on the dense ranks). Walking my
//! completions in rank order while adding the opponent's completions to counters, the number of B
//! with a smaller (or not greater) rank that are DISJOINT from A is found by inclusion–exclusion over
//! the subsets S of A:
//!
//! `#{B : B ∩ A = ∅, s(B) < r} = Σ_{S ⊆ A} (−1)^|S| · #{B ⊇ S : s(B) < r}`,
//!
//! where each `#{B ⊇ S}` is a counter indexed by S (combinatorial number system), bumped for every
//! subset of each B as it is added. Subsets larger than `min(|A|, |B|)` contain no B and are skipped.
//! Work: `#B · 2^|B| + #A · 2^|A|` counter touches instead of `#A · #B` showdowns (second street:
//! 3.4 M instead of 3.0 × 10⁹).
//!
//! **Multiway** (two or more opponents with unknown cards) enumerates the deals themselves, each
//! player's rank updated incrementally through the evaluator's states, so the cost is one table load
//! per card dealt at the innermost level; as soon as a dealt opponent beats me, the remaining ways to
//! finish the deal are counted as losses by a product of binomials instead of being dealt. The
//! budget charges the full deal count, so it is conservative; it keeps multiway to late streets.

use super::combos::{binomial, SubsetIndexer};
use super::eval::{step, walk};
use super::odds::{Odds, Tally};
use super::rank::DISTINCT_RANKS;
use super::situation::Situation;
use super::tables::{tables, Tables};

/// How the exact count would be done, and what it would cost.
struct Plan {
    pool: Vec<u8>,
    me: Seat,
    /// Opponents with unknown cards (heads-up sweep: exactly one, possibly with none unknown).
    variable: Vec<Seat>,
    /// Best rank among the fully known opponents left out of `variable`, and how many hold it.
    fixed_best: Option<(u32, usize)>,
    cost: u128,
}

/// A player: the evaluator state of the known cards and the number of cards still to come.
#[derive(Clone, Copy)]
struct Seat {
    state: u32,
    missing: usize,
}

/// Work units an exact answer for `situation` costs: for the sweep, completions evaluated plus counter
/// touches; for multiway enumeration, the number of deals. Compare with the `budget` of
/// [`equity_exact`].
pub fn exact_cost(situation: &Situation) -> u128 {
    plan(situation).cost
}

/// Exact odds when [`exact_cost`] is within `budget`, else `None` (unknown within budget).
pub fn equity_exact(situation: &Situation, budget: u64) -> Option<Odds> {
    let plan = plan(situation);
    if plan.cost > u128::from(budget) {
        return None;
    }
    let t = tables();
    let tally = match plan.variable.as_slice() {
        [opponent] => sweep(t, &plan.pool, plan.me, *opponent, plan.fixed_best),
        variable => {
            let mut seats = vec![plan.me];
            seats.extend_from_slice(variable);
            let mut tally = Tally::default();
            let mut ranks = [0u32; 5];
            enumerate(
                t,
                &plan.pool,
                &seats,
                0,
                0,
                &mut ranks,
                plan.fixed_best,
                &mut tally,
            );
            tally
        }
    };
    Some(tally.into_odds(true, situation.deal_count()))
}

fn plan(situation: &Situation) -> Plan {
    let t = tables();
    let pool = situation.unseen();
    let me = Seat {
        state: walk(t, situation.me()),
        missing: 5 - situation.me().len(),
    };
    let mut seats: Vec<Seat> = situation
        .opponents()
        .iter()
        .map(|shown| Seat {
            state: walk(t, shown),
            missing: 5 - shown.len(),
        })
        .collect();
    // The opponent with most unknown cards goes first: with a single such opponent, the sweep.
    seats.sort_by_key(|seat| std::cmp::Reverse(seat.missing));
    let split = if seats.get(1).is_some_and(|s| s.missing > 0) {
        seats.iter().filter(|s| s.missing > 0).count()
    } else {
        1
    };
    let fixed = seats.split_off(split.min(seats.len()));
    let fixed_best = fixed.iter().map(|s| s.state).max().map(|best| {
        let holders = fixed.iter().filter(|s| s.state == best).count();
        (best, holders)
    });
    let n = pool.len();
    let cost = if let [opponent] = seats.as_slice() {
        let (m, o) = (me.missing, opponent.missing);
        let j = m.min(o);
        let subsets = |size: usize| (0..=j).map(|i| binomial(size, i)).sum::<u64>();
        let mine = u128::from(binomial(n, m));
        let theirs = u128::from(binomial(n, o));
        let slots: u128 = (0..=j).map(|i| u128::from(binomial(n, i))).sum();
        mine * (1 + 2 * u128::from(subsets(m))) + theirs * (1 + u128::from(subsets(o))) + slots
    } else {
        situation.deal_count()
    };
    Plan {
        pool,
        me,
        variable: seats,
        fixed_best,
        cost,
    }
}

/// A completion: its rank and the pool positions (ascending) of the cards it adds.
#[derive(Clone, Copy)]
struct Completion {
    rank: u32,
    members: [u8; 5],
}

/// Calls `visit(rank_or_state, positions)` for every way to add `left` cards of `pool` (positions
/// not in `used`, ascending) to a hand in `state`.
#[allow(clippy::too_many_arguments)]
fn each_completion(
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
        each_completion(
            t,
            pool,
            used,
            next,
            position + 1,
            left - 1,
            chosen,
            depth + 1,
            visit,
        );
    }
}

/// All completions of a seat, sorted by rank: counted per rank in a first pass, placed in a second
/// (evaluation is cheaper than holding a second copy of millions of completions).
fn completions_by_rank(t: &Tables, pool: &[u8], seat: Seat) -> Vec<Completion> {
    let mut chosen = [0u8; 5];
    let count = binomial(pool.len(), seat.missing) as usize;
    let mut visit_all = |visit: &mut dyn FnMut(u32, &[u8])| {
        each_completion(
            t,
            pool,
            0,
            seat.state,
            0,
            seat.missing,
            &mut chosen,
            0,
            visit,
        );
    };
    let completion = |rank: u32, members: &[u8]| {
        let mut packed = [0u8; 5];
        packed[..members.len()].copy_from_slice(members);
        Completion {
            rank,
            members: packed,
        }
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

/// Subset masks of a `size`-element set with at most `max` members, with the inclusion–exclusion sign.
fn masks(size: usize, max: usize) -> Vec<(u32, i64)> {
    (0u32..1 << size)
        .filter(|m| m.count_ones() as usize <= max)
        .map(|m| (m, if m.count_ones() % 2 == 0 { 1 } else { -1 }))
        .collect()
}

/// The heads-up sweep described in the module doc.
fn sweep(t: &Tables, pool: &[u8], me: Seat, opponent: Seat, fixed: Option<(u32, usize)>) -> Tally {
    let (m, o) = (me.missing, opponent.missing);
    let j = m.min(o);
    let indexer = SubsetIndexer::new(pool.len(), j);
    let mine_masks = masks(m, j);
    let their_masks: Vec<u32> = masks(o, j).into_iter().map(|(mask, _)| mask).collect();
    let mine = completions_by_rank(t, pool, me);
    let theirs = completions_by_rank(t, pool, opponent);
    let disjoint = binomial(pool.len() - m, o);
    let mut counters = vec![0u32; indexer.slots()];
    let count_disjoint = |counters: &[u32], a: &Completion| -> u64 {
        let members = &a.members[..m];
        let signed: i64 = mine_masks
            .iter()
            .map(|&(mask, sign)| sign * i64::from(counters[indexer.slot(members, mask)]))
            .sum();
        signed.max(0) as u64
    };
    let mut tally = Tally::default();
    let mut below = Vec::new();
    let (mut a, mut b) = (0, 0);
    while a < mine.len() {
        let rank = mine[a].rank;
        let group_end = a + mine[a..].iter().take_while(|c| c.rank == rank).count();
        let add_up_to = |b: &mut usize, counters: &mut [u32], inclusive: bool| {
            while let Some(c) = theirs.get(*b) {
                if c.rank > rank || (c.rank == rank && !inclusive) {
                    break;
                }
                for &mask in &their_masks {
                    counters[indexer.slot(&c.members[..o], mask)] += 1;
                }
                *b += 1;
            }
        };
        add_up_to(&mut b, &mut counters, false);
        below.clear();
        below.extend(
            mine[a..group_end]
                .iter()
                .map(|c| count_disjoint(&counters, c)),
        );
        add_up_to(&mut b, &mut counters, true);
        for (completion, &less) in mine[a..group_end].iter().zip(&below) {
            let not_greater = count_disjoint(&counters, completion);
            let equal = not_greater - less;
            let beaten_by_opponent = disjoint - not_greater;
            match fixed {
                Some((best, _)) if rank < best => tally.losses += disjoint,
                Some((best, holders)) if rank == best => {
                    tally.ties_split[(1 + holders).min(5)] += less;
                    tally.ties_split[(2 + holders).min(5)] += equal;
                    tally.losses += beaten_by_opponent;
                }
                _ => {
                    tally.wins += less;
                    tally.ties_split[2] += equal;
                    tally.losses += beaten_by_opponent;
                }
            }
        }
        a = group_end;
    }
    tally
}

/// Multiway: deals enumerated seat by seat, ranks kept in `ranks[seat]`.
#[allow(clippy::too_many_arguments)]
fn enumerate(
    t: &Tables,
    pool: &[u8],
    seats: &[Seat],
    seat: usize,
    used: u64,
    ranks: &mut [u32; 5],
    fixed: Option<(u32, usize)>,
    tally: &mut Tally,
) {
    let Some(current) = seats.get(seat) else {
        let opponents = &ranks[1..seats.len().min(5)];
        let best = opponents.iter().copied().chain(fixed.map(|f| f.0)).max();
        let Some(best) = best else {
            tally.wins += 1;
            return;
        };
        let mut holders = opponents.iter().filter(|&&r| r == best).count();
        if let Some((rank, count)) = fixed {
            if rank == best {
                holders += count;
            }
        }
        tally.record(ranks[0], best, holders);
        return;
    };
    if seat == 1 && fixed.is_some_and(|(best, _)| best > ranks[0]) {
        let available = pool.len() - used.count_ones() as usize;
        tally.losses += ways_to_complete(&seats[1..], available);
        return;
    }
    let mut chosen = [0u8; 5];
    let missing = current.missing;
    each_completion(
        t,
        pool,
        used,
        current.state,
        0,
        missing,
        &mut chosen,
        0,
        &mut |rank, members| {
            let now_used = members.iter().fold(used, |u, &p| u | (1 << p));
            if seat > 0 && rank > ranks[0] {
                // Already beaten: every way to finish the deal is a loss; count them, don't deal them.
                let available = pool.len() - now_used.count_ones() as usize;
                tally.losses += ways_to_complete(&seats[seat + 1..], available);
                return;
            }
            if let Some(slot) = ranks.get_mut(seat) {
                *slot = rank;
            }
            enumerate(t, pool, seats, seat + 1, now_used, ranks, fixed, tally);
        },
    );
}

/// Deals of `available` cards to `seats` in turn.
fn ways_to_complete(seats: &[Seat], available: usize) -> u64 {
    let mut left = available;
    let mut ways = 1u64;
    for seat in seats {
        ways = ways.saturating_mul(binomial(left, seat.missing));
        left = left.saturating_sub(seat.missing);
    }
    ways
}

/// Test hook: the multiway enumeration applied to any situation (heads-up included), to cross-check
/// the sweep against a different exact method.
#[cfg(test)]
pub(super) fn equity_by_enumeration(situation: &Situation) -> Odds {
    let t = tables();
    let pool = situation.unseen();
    let seats: Vec<Seat> = std::iter::once(situation.me())
        .chain(situation.opponents().iter().map(Vec::as_slice))
        .map(|known| Seat {
            state: walk(t, known),
            missing: 5 - known.len(),
        })
        .collect();
    let mut tally = Tally::default();
    let mut ranks = [0u32; 5];
    enumerate(t, &pool, &seats, 0, 0, &mut ranks, None, &mut tally);
    tally.into_odds(true, situation.deal_count())
}
