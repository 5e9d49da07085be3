//! Exact counting with two or more opponents holding unknown cards.
//!
//! Deals are enumerated seat by seat (me first), each rank updated incrementally through the
//! evaluator's states. As soon as a dealt opponent beats me, the remaining ways to finish the deal
//! are all losses and are counted by a product of binomials instead of being dealt. The last seat is
//! either dealt too (plain enumeration) or counted from a [`LastSeat`] index: for the cards D already
//! dealt and my rank r, the last opponent's completions disjoint from D with a rank below r are
//! `Σ_{S ⊆ D, |S| ≤ k} (−1)^|S| · #{B ⊇ S : s(B) < r}` (k = cards the last seat still needs), each
//! term a binary search in the sorted ranks of the completions containing S.

use super::combos::{binomial, SubsetIndexer};
use super::exact::{completions_by_rank, each_completion, Seat};
use super::odds::Tally;
use super::tables::Tables;

/// Deals of `available` cards to `seats` in turn.
pub(super) fn ways_to_complete(seats: &[Seat], available: usize) -> u64 {
    let mut left = available;
    let mut ways = 1u64;
    for seat in seats {
        ways = ways.saturating_mul(binomial(left, seat.missing));
        left = left.saturating_sub(seat.missing);
    }
    ways
}

/// The last seat's completions, grouped by every subset S of their cards (up to all of them): for
/// each S, the ranks of the completions containing S, ascending, in one flat array.
pub(super) struct LastSeat {
    indexer: SubsetIndexer,
    /// `ranks[starts[slot]..starts[slot + 1]]` belong to the subset in `slot`.
    starts: Vec<u32>,
    ranks: Vec<u16>,
    missing: usize,
}

impl LastSeat {
    /// Builds the index; completions are added in rank order, so every group comes out sorted.
    pub(super) fn build(t: &Tables, pool: &[u8], seat: Seat) -> LastSeat {
        let missing = seat.missing.min(5);
        let completions = completions_by_rank(t, pool, seat);
        let indexer = SubsetIndexer::new(pool.len(), missing);
        let mut starts = vec![0u32; indexer.slots() + 1];
        for c in &completions {
            for mask in 0u32..1 << missing {
                starts[indexer.slot(&c.members[..missing], mask) + 1] += 1;
            }
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        let mut fill = starts.clone();
        let mut ranks = vec![0u16; starts.last().copied().unwrap_or(0) as usize];
        for c in &completions {
            for mask in 0u32..1 << missing {
                let slot = indexer.slot(&c.members[..missing], mask);
                if let Some(entry) = ranks.get_mut(fill[slot] as usize) {
                    *entry = c.rank as u16;
                }
                fill[slot] += 1;
            }
        }
        LastSeat {
            indexer,
            starts,
            ranks,
            missing,
        }
    }

    /// Completions disjoint from the pool positions in `used`: (those ranked below `rank`, those
    /// ranked at most `rank`).
    fn count_disjoint(&self, used: u64, rank: u32) -> (u64, u64) {
        let mut dealt = [0u8; 64];
        let mut len = 0;
        for position in 0..64u8 {
            if used & (1 << position) != 0 {
                dealt[len] = position;
                len += 1;
            }
        }
        let (mut below, mut not_above) = (0i64, 0i64);
        self.indexer
            .for_each_subset(&dealt[..len], self.missing, &mut |slot, size| {
                let from = self.starts[slot] as usize;
                let to = self.starts[slot + 1] as usize;
                let group = &self.ranks[from..to];
                let sign = if size % 2 == 0 { 1 } else { -1 };
                below += sign * group.partition_point(|&r| u32::from(r) < rank) as i64;
                not_above += sign * group.partition_point(|&r| u32::from(r) <= rank) as i64;
            });
        (below.max(0) as u64, not_above.max(0) as u64)
    }
}

/// What stays fixed while dealing.
struct Deal<'a> {
    t: &'a Tables,
    pool: &'a [u8],
    /// Seats dealt card by card, me first.
    dealt: &'a [Seat],
    /// The counted last seat, if any.
    last: Option<&'a LastSeat>,
    /// `dealt` followed by the last seat: what remains to be dealt after each seat.
    all: Vec<Seat>,
    fixed: Option<(u32, usize)>,
}

/// Exact tally of a multiway situation: `dealt` seats (me first) are dealt, `last` (if given) is
/// counted from its index; `fixed` is the best rank of fully known opponents and how many hold it.
pub(super) fn enumerate_deals(
    t: &Tables,
    pool: &[u8],
    dealt: &[Seat],
    last: Option<&LastSeat>,
    fixed: Option<(u32, usize)>,
) -> Tally {
    let mut all = dealt.to_vec();
    if let Some(index) = last {
        all.push(Seat {
            state: 0,
            missing: index.missing,
        });
    }
    let deal = Deal {
        t,
        pool,
        dealt,
        last,
        all,
        fixed,
    };
    let mut tally = Tally::default();
    let mut ranks = [0u32; 5];
    deal_from(&deal, 0, 0, &mut ranks, &mut tally);
    tally
}

fn deal_from(deal: &Deal, seat: usize, used: u64, ranks: &mut [u32; 5], tally: &mut Tally) {
    let available = |used: u64| deal.pool.len() - used.count_ones() as usize;
    let Some(current) = deal.dealt.get(seat) else {
        finish(deal, used, ranks, tally);
        return;
    };
    if seat == 1 && deal.fixed.is_some_and(|(best, _)| best > ranks[0]) {
        tally.losses += ways_to_complete(&deal.all[1..], available(used));
        return;
    }
    let mut chosen = [0u8; 5];
    each_completion(
        deal.t,
        deal.pool,
        used,
        current.state,
        0,
        current.missing,
        &mut chosen,
        0,
        &mut |rank, members| {
            let now_used = members.iter().fold(used, |u, &p| u | (1 << p));
            if seat > 0 && rank > ranks[0] {
                // Already beaten: every way to finish the deal is a loss; count them, don't deal them.
                tally.losses += ways_to_complete(&deal.all[seat + 1..], available(now_used));
                return;
            }
            if let Some(slot) = ranks.get_mut(seat) {
                *slot = rank;
            }
            deal_from(deal, seat + 1, now_used, ranks, tally);
        },
    );
}

/// All dealt seats have their ranks: record the deal, or count the last seat's completions.
fn finish(deal: &Deal, used: u64, ranks: &[u32; 5], tally: &mut Tally) {
    let mine = ranks[0];
    let opponents = &ranks[1..deal.dealt.len().clamp(1, 5)];
    let best = opponents.iter().copied().chain(deal.fixed.map(|f| f.0)).max();
    let mut holders = best.map_or(0, |b| opponents.iter().filter(|&&r| r == b).count());
    if let (Some(best), Some((rank, count))) = (best, deal.fixed) {
        if rank == best {
            holders += count;
        }
    }
    let Some(index) = deal.last else {
        match best {
            Some(best) => tally.record(mine, best, holders),
            None => tally.wins += 1,
        }
        return;
    };
    let total = binomial(deal.pool.len() - used.count_ones() as usize, index.missing);
    let (below, not_above) = index.count_disjoint(used, mine);
    let equal = not_above - below;
    let beaten_by_last = total - not_above;
    match best {
        Some(best) if best > mine => tally.losses += total,
        Some(best) if best == mine => {
            tally.ties_split[(1 + holders).min(5)] += below;
            tally.ties_split[(2 + holders).min(5)] += equal;
            tally.losses += beaten_by_last;
        }
        _ => {
            tally.wins += below;
            tally.ties_split[2] += equal;
            tally.losses += beaten_by_last;
        }
    }
}
