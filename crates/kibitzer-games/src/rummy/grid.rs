//! The original method's grid analysis: placement flags per card, control points and islands.
//!
//! Flags (the original method's byte): bit 0 = the card lies in a window of three consecutive present
//! cards of its suit (it can join a run), bit 1 = a second copy can join a run too, bit 2 = its
//! rank is held in at least three suits (it can join a set), bit 3 = a second copy can join a
//! set too. Bits 1 and 3 are the cheap over-approximation "a second copy exists and bit 0 / bit
//! 2 is set": it never hides a placement, and with it the original method's rule "more placements than
//! copies" picks exactly the cards that must choose between a run and a set.

use super::hand::Hand;
use petgraph::unionfind::UnionFind;
use smallvec::SmallVec;

/// Flag bit: the card can join a run.
#[cfg(test)]
const FLAG_RUN: u8 = 1;
/// Flag bit: a second copy of the card can join a run too.
#[cfg(test)]
const FLAG_RUN2: u8 = 2;
/// Flag bit: the card can join a set (its rank is held in at least three suits).
#[cfg(test)]
const FLAG_SET: u8 = 4;
/// Flag bit: a second copy of the card can join a set too.
#[cfg(test)]
const FLAG_SET2: u8 = 8;

const LANE: u64 = 0x1FFF;

/// Lane mask of all cells of one rank (bit `rank` of every suit lane).
pub(super) const fn rank_column(rank: u32) -> u64 {
    0x0001_0001_0001_0001u64 << rank
}

/// Cells that can join a run, as a lane mask, and the high-ace cells (bit 13 of a lane) that
/// can end a Q-K-A run.
pub(super) fn run_capable(one: u64, ace_high: bool) -> (u64, u64) {
    let mut cells = 0u64;
    let mut high = 0u64;
    for suit in 0..4 {
        let mut lane = (one >> (16 * suit)) & LANE;
        if ace_high {
            lane |= (lane & 1) << 13;
        }
        let w = lane & (lane >> 1) & (lane >> 2);
        let cap = w | (w << 1) | (w << 2);
        cells |= (cap & LANE) << (16 * suit);
        if cap & (1 << 13) != 0 {
            cells |= 1u64 << (16 * suit);
            high |= 1u64 << (16 * suit + 13);
        }
    }
    (cells, high)
}

/// Cells whose rank is held in at least three suits.
pub(super) fn set_capable(one: u64) -> u64 {
    let a = one & 0xFFFF;
    let b = (one >> 16) & 0xFFFF;
    let c = (one >> 32) & 0xFFFF;
    let d = (one >> 48) & 0xFFFF;
    let three = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d);
    let spread = three | (three << 16) | (three << 32) | (three << 48);
    spread & one
}

/// Per-cell flags and control points of a hand (or of one island of it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Placements {
    /// Lane mask of the cells that can join a run.
    pub run: u64,
    /// Lane mask of the cells whose second copy can join a run.
    pub run2: u64,
    /// Lane mask of the cells that can join a set.
    pub set: u64,
    /// Lane mask of the cells whose second copy can join a set.
    pub set2: u64,
}

impl Placements {
    /// The placements of a hand's cards, a high ace ending a Q-K-A run when `ace_high`.
    pub fn of(hand: &Hand, ace_high: bool) -> Placements {
        let (run, _) = run_capable(hand.one, ace_high);
        let set = set_capable(hand.one);
        Placements {
            run,
            run2: run & hand.two,
            set,
            set2: set & hand.two,
        }
    }

    /// The original method's flag byte of the cell at lane bit `bit` (the tests' spelt-out rule).
    #[cfg(test)]
    fn flags_at(&self, bit: u32) -> u8 {
        let m = 1u64 << bit;
        let flag = |mask: u64, bit: u8| if mask & m != 0 { bit } else { 0 };
        flag(self.run, FLAG_RUN) | flag(self.run2, FLAG_RUN2) | flag(self.set, FLAG_SET) | flag(self.set2, FLAG_SET2)
    }

    /// Control points: cells with more placements than copies. With the placements above that is
    /// exactly the cells that can go to a run or to a set.
    pub fn control_points(&self, hand: &Hand) -> u64 {
        self.run & self.set & hand.one
    }

    /// The original method's rule spelt out cell by cell (checks `control_points`).
    #[cfg(test)]
    fn control_points_by_count(&self, hand: &Hand) -> u64 {
        let mut out = 0u64;
        let mut bits = hand.one;
        while bits != 0 {
            let bit = bits.trailing_zeros();
            bits &= bits - 1;
            let copies = 1 + u32::from(hand.two & (1u64 << bit) != 0);
            if self.flags_at(bit).count_ones() > copies {
                out |= 1u64 << bit;
            }
        }
        out
    }
}

/// Islands of the grid: connected components of the present cells, where cells touch when
/// they are of one suit and adjacent ranks (K-A too when `ace_high`) or of one rank. Listed by
/// their lowest card.
///
/// A stretch of consecutive ranks of one suit is connected by construction, so the stretches
/// (found with bit tricks) are the union-find's nodes and petgraph's `UnionFind` joins those
/// sharing a rank (and, with `ace_high`, a suit's A and K stretches): a random hand has about
/// ten stretches and a handful of unions, which keeps this off the hot path's profile.
pub fn islands(one: u64, ace_high: bool) -> SmallVec<[u64; 16]> {
    let mut out: SmallVec<[u64; 16]> = SmallVec::new();
    if one == 0 {
        return out;
    }
    // Lanes are 13 bits wide inside 16, so a shift never joins two suits.
    let starts = one & !(one << 1);
    // Stretch index of a present cell: stretch starts at or below it, minus one.
    let stretch_of = |bit: u32| ((starts & (u64::MAX >> (63 - bit))).count_ones() - 1) as u8;
    let mut uf: UnionFind<u8> = UnionFind::new(starts.count_ones() as usize);
    let mut ranks = (one | one >> 16 | one >> 32 | one >> 48) & LANE;
    while ranks != 0 {
        let rank = ranks.trailing_zeros();
        ranks &= ranks - 1;
        let column = one & rank_column(rank);
        if column.count_ones() < 2 {
            continue;
        }
        let first = stretch_of(column.trailing_zeros());
        let mut rest = column & (column - 1);
        while rest != 0 {
            uf.union(first, stretch_of(rest.trailing_zeros()));
            rest &= rest - 1;
        }
    }
    if ace_high {
        let mut wrap = one & rank_column(0) & ((one & rank_column(12)) >> 12);
        while wrap != 0 {
            let b = wrap.trailing_zeros();
            wrap &= wrap - 1;
            uf.union(stretch_of(b), stretch_of(b + 12));
        }
    }
    // Stretches in card order; an island is listed where its first stretch is met.
    let mut root_slot = [u8::MAX; 64];
    let mut bits = starts;
    let mut index = 0u8;
    while bits != 0 {
        let low = bits & bits.wrapping_neg();
        bits &= bits - 1;
        // The stretch from `low` up: adding `low` carries through it to the first absent cell.
        let stretch = ((one.wrapping_add(low)) & !one).wrapping_sub(low);
        let root = uf.find(index) as usize;
        index += 1;
        match root_slot.get_mut(root) {
            Some(slot) if *slot != u8::MAX => {
                if let Some(island) = out.get_mut(*slot as usize) {
                    *island |= stretch;
                }
            }
            Some(slot) => {
                *slot = out.len() as u8;
                out.push(stretch);
            }
            None => out.push(stretch),
        }
    }
    out
}
/// The islands of `one` when they are known to be few and small: a bitwise flood fill from
/// each island's lowest cell (no allocation). Incremental removes split one island with it;
/// [`islands`] (the union-find) serves whole hands. Same order: by lowest cell.
pub fn islands_by_fill(one: u64, ace_high: bool) -> SmallVec<[u64; 16]> {
    let mut out: SmallVec<[u64; 16]> = SmallVec::new();
    let mut left = one;
    while left != 0 {
        let mut island = left & left.wrapping_neg();
        loop {
            // Suit neighbours (a shift into a lane's unused bits is masked off by `one`),
            // every cell of the same ranks, and the A–K link when the ace is high.
            let ranks = (island | island >> 16 | island >> 32 | island >> 48) & LANE;
            let mut grown = island | island << 1 | island >> 1 | (ranks * rank_column(0));
            if ace_high {
                grown |= (island & rank_column(0)) << 12 | (island & rank_column(12)) >> 12;
            }
            grown &= one;
            if grown == island {
                break;
            }
            island = grown;
        }
        out.push(island);
        left &= !island;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use petgraph::algo::connected_components;
    use petgraph::graphmap::UnGraphMap;

    fn lane_islands_by_graph(one: u64, ace_high: bool) -> usize {
        let mut g: UnGraphMap<u32, (), rustc_hash::FxBuildHasher> = UnGraphMap::default();
        let cells: Vec<u32> = (0..64).filter(|b| one & (1u64 << b) != 0).collect();
        for &a in &cells {
            g.add_node(a);
            for &b in &cells {
                let same_rank = a % 16 == b % 16;
                let adjacent = a / 16 == b / 16 && (a.abs_diff(b) == 1 || (ace_high && a.abs_diff(b) == 12));
                if a < b && (same_rank || adjacent) {
                    g.add_edge(a, b, ());
                }
            }
        }
        connected_components(&g)
    }

    #[test]
    fn islands_match_a_plain_graph() {
        // The original write-up's "hand A" plus KH AH (joined to the hearts only when the ace is high).
        let hand = Hand::parse("JC 3H 4H JD 3D 5H 9D 2H 6H 3C 4H 3D 4D 5H QD 3C KH AH").unwrap();
        for ace_high in [false, true] {
            let got = islands(hand.one, ace_high);
            assert_eq!(got.len(), lane_islands_by_graph(hand.one, ace_high));
            let union = got.iter().fold(0, |a, b| a | b);
            assert_eq!(union, hand.one);
        }
    }

    fn touching(a: u32, b: u32, ace_high: bool) -> bool {
        a % 16 == b % 16 || (a / 16 == b / 16 && (a.abs_diff(b) == 1 || (ace_high && a.abs_diff(b) == 12)))
    }

    #[test]
    fn islands_are_the_components_on_random_masks() {
        // Same number of components as the plain graph and no edge between two islands:
        // then every island is exactly one component.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for i in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let one = x & (x >> 3) & 0x1FFF_1FFF_1FFF_1FFF;
            let ace_high = i % 2 == 0;
            let got = islands(one, ace_high);
            assert_eq!(got.len(), lane_islands_by_graph(one, ace_high), "{one:x}");
            // The flood fill (incremental removes) finds the same islands in the same order.
            assert_eq!(islands_by_fill(one, ace_high), got, "{one:x}");
            assert_eq!(got.iter().fold(0, |a, b| a | b), one);
            for (i, &p) in got.iter().enumerate() {
                for &q in &got[i + 1..] {
                    for a in (0..64).filter(|b| p & (1u64 << b) != 0) {
                        for b in (0..64).filter(|b| q & (1u64 << b) != 0) {
                            assert!(!touching(a, b, ace_high), "{one:x}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn demo_hand_flags() {
        // 3H can go to a run or to the set 3H 3C 3D: the original method's control point.
        let hand = Hand::parse("2H3H4H5H4H5H6H3C3C3D3D4D").unwrap();
        let p = Placements::of(&hand, false);
        let three_h = 16 + 2;
        assert_eq!(p.flags_at(three_h), FLAG_RUN | FLAG_SET);
        assert_eq!(p.control_points(&hand), 1u64 << three_h);
        let big = Hand::parse("2H3H4H4H5H6H 3S3S3D3C4S4D4C 5S5D5C 5H").unwrap();
        let q = Placements::of(&big, true);
        assert_eq!(q.control_points(&big), q.control_points_by_count(&big));
        let four_h = 16 + 3;
        assert_eq!(p.flags_at(four_h), FLAG_RUN | FLAG_RUN2);
    }
}
