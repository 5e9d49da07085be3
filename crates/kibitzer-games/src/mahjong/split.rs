//! The shape split (the reference bot's AnaTileType, made exact): the hand cut into sets, pairs, adjacent
//! partials (34), gapped partials (13) and singles.
//!
//! The reference bot cuts greedily in scan order and drops tiles held four times. Here every split is
//! considered (per suit, memoised on the counts left) and the one chosen minimises the classic
//! block count `8 − 2·sets − partials − head` (partials capped at the sets still missing, called
//! melds counted as sets); ties go to the split whose partial blocks wait on the most live tiles,
//! then to the first found (sets before pairs before partials, low tiles first). The block count is
//! an estimate used for shapes and the reference bot's scores; the exact shanten is `shanten()`.

use serde::Serialize;
use smallvec::SmallVec;

use super::meld::Meld;
use super::tile::{tile_count, tiles_of, Counts, Tile, KINDS};
use super::win::own_counts;

/// The kind of a block of a split.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum BlockKind {
    /// Three in a row (`tile` is the lowest).
    Sequence,
    /// Three of a kind.
    Triplet,
    /// Two of a kind.
    Pair,
    /// Two in a row, like 34 (`tile` is the lower).
    Adjacent,
    /// Two with a gap, like 13 (`tile` is the lower).
    Gapped,
    /// A tile in no block.
    Single,
}

/// One block of a split.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Block {
    /// What the block is.
    pub kind: BlockKind,
    /// Its lowest tile.
    pub tile: Tile,
}

impl Block {
    /// Tiles of the block.
    pub fn tiles(&self) -> SmallVec<[Tile; 3]> {
        let t = self.tile;
        let offsets: &[i8] = match self.kind {
            BlockKind::Sequence => &[0, 1, 2],
            BlockKind::Triplet => &[0, 0, 0],
            BlockKind::Pair => &[0, 0],
            BlockKind::Adjacent => &[0, 1],
            BlockKind::Gapped => &[0, 2],
            BlockKind::Single => &[0],
        };
        offsets
            .iter()
            .filter_map(|&o| t.neighbour(o).or((o == 0).then_some(t)))
            .collect()
    }

    /// Kinds that would turn this block into a set (pair → triplet, partial → sequence).
    pub fn completions(&self) -> SmallVec<[Tile; 2]> {
        let t = self.tile;
        match self.kind {
            BlockKind::Pair => smallvec::smallvec![t],
            BlockKind::Adjacent => [t.neighbour(-1), t.neighbour(2)].into_iter().flatten().collect(),
            BlockKind::Gapped => t.neighbour(1).into_iter().collect(),
            _ => SmallVec::new(),
        }
    }
}

/// What a tile is part of in the chosen split, in the reference bot's discard order (first = discard first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum TileShape {
    /// In no block.
    Single,
    /// In a gapped partial (13).
    Gapped,
    /// In an adjacent partial (34).
    Adjacent,
    /// In a pair.
    Pair,
    /// In a complete sequence or triplet.
    Set,
}

impl TileShape {
    /// The name rule files use.
    pub fn name(self) -> &'static str {
        match self {
            TileShape::Single => "single",
            TileShape::Gapped => "gapped",
            TileShape::Adjacent => "adjacent",
            TileShape::Pair => "pair",
            TileShape::Set => "set",
        }
    }
}

/// The shape counts the reference bot's call score reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct ShapeCounts {
    /// Sequences and triplets (called melds not included).
    pub sets: u8,
    /// Pairs.
    pub pairs: u8,
    /// Adjacent partials (34).
    pub adjacent: u8,
    /// Gapped partials (13).
    pub gapped: u8,
    /// Singles.
    pub singles: u8,
}

/// A split of a hand and its figures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Split {
    /// Blocks, in suit and rank order.
    pub blocks: Vec<Block>,
    /// `8 − 2·sets − partials − head`, with called melds counted as sets (an estimate).
    pub block_shanten: i8,
    /// Live tiles that complete a pair or partial of the split, summed over blocks.
    pub useful_live: u32,
    /// Block counts.
    pub shape: ShapeCounts,
}

impl Split {
    /// The weakest block a kind appears in (what discarding one copy would break).
    pub fn shape_of(&self, tile: Tile) -> Option<TileShape> {
        self.tile_shapes()[tile.index()]
    }

    /// [`Split::shape_of`] for every kind at once, in one pass over the blocks: a discard search
    /// asks it of every kind held.
    pub fn tile_shapes(&self) -> [Option<TileShape>; KINDS] {
        let mut shapes = [None; KINDS];
        for b in &self.blocks {
            let shape = match b.kind {
                BlockKind::Sequence | BlockKind::Triplet => TileShape::Set,
                BlockKind::Pair => TileShape::Pair,
                BlockKind::Adjacent => TileShape::Adjacent,
                BlockKind::Gapped => TileShape::Gapped,
                BlockKind::Single => TileShape::Single,
            };
            for t in b.tiles() {
                let slot: &mut Option<TileShape> = &mut shapes[t.index()];
                *slot = Some(slot.map_or(shape, |s| s.min(shape)));
            }
        }
        shapes
    }
}

/// At most 14 tiles and at most four of a kind: what the analysis functions accept.
pub(super) fn is_real_hand(counts: &Counts) -> bool {
    tile_count(counts) <= 14 && counts.iter().all(|&c| c <= 4)
}

/// Block-count estimate for `sets` (called included), `pairs` and `partials`.
pub(super) fn block_shanten(sets: u8, pairs: u8, partials: u8) -> i8 {
    let sets = sets.min(4) as i8;
    let mut best = i8::MAX;
    for head in 0..=(pairs.min(1) as i8) {
        let others = (pairs as i8 - head) + partials as i8;
        let room = 4 - sets;
        best = best.min(8 - 2 * sets - head - others.min(room));
    }
    best
}

/// Figures of a (partial) split: sets, pairs, partials and live tiles completing its blocks, one
/// 16-bit lane each of one word (every figure of a hand stays far below 2^15: at most 14 blocks,
/// at most 8 live tiles completing each), so that adding two and testing dominance are one
/// operation each: the search tests dominance millions of times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Figures(u64);

/// The top bit of each lane: a guard for the lane-wise comparison.
const LANE_TOPS: u64 = 0x8000_8000_8000_8000;

impl Figures {
    const NONE: Figures = Figures(0);

    fn new(sets: u8, pairs: u8, partials: u8, useful: u32) -> Figures {
        Figures(
            u64::from(sets) | u64::from(pairs) << 16 | u64::from(partials) << 32 | u64::from(useful.min(0x7FFF)) << 48,
        )
    }

    fn sets(self) -> u8 {
        self.0 as u8
    }

    fn pairs(self) -> u8 {
        (self.0 >> 16) as u8
    }

    fn partials(self) -> u8 {
        (self.0 >> 32) as u8
    }

    fn useful(self) -> u32 {
        (self.0 >> 48) as u32
    }

    fn plus(self, other: Figures) -> Figures {
        Figures(self.0 + other.0)
    }

    /// Whether every figure of `self` is at least the same figure of `other`. Each lane of `self`
    /// gets its top bit set before the subtraction; that bit survives in a lane exactly when
    /// `self`'s figure there is at least `other`'s, and no lane borrows from the next.
    fn covers(self, other: Figures) -> bool {
        ((self.0 | LANE_TOPS) - other.0) & LANE_TOPS == LANE_TOPS
    }
}

/// The Pareto front of a suit's splits. Small (a handful of entries), so it lives inline: the
/// search makes and copies thousands of them per hand, and a heap front cost more than the search.
type Front = SmallVec<[Figures; 8]>;

/// The blocks that may take a suit's lowest tile, each with the counts it leaves and what it adds.
type Options = SmallVec<[(Block, [u8; 9], Figures); 6]>;

/// Keeps the Pareto front over (sets, pairs, partials, useful): the block count never rises when
/// sets, pairs or partials grow, whatever the other suits add, so a dominated entry can never be
/// the best split nor win its tie-break. Among equal entries the first found stays.
fn keep_best(found: &mut Front, f: Figures) {
    if found.iter().any(|q| dominates(q, &f)) {
        return;
    }
    found.retain(|q| !dominates(&f, q));
    found.push(f);
}

fn dominates(a: &Figures, b: &Figures) -> bool {
    a.covers(*b)
}

/// One suit of the hand being split: its first kind index, its counts and live tiles.
struct SuitSplitter<'a> {
    start: usize,
    len: usize,
    live: &'a Counts,
    /// Place value of each rank in `memo`'s index: the counts left are a sub-multiset of the
    /// suit's, so they number densely in mixed radix (each rank's count + 1).
    radix: [u32; 9],
    /// Per counts left, the place of their front in `fronts` (`u32::MAX`: not yet worked out).
    memo: Vec<u32>,
    fronts: Vec<Front>,
}

impl SuitSplitter<'_> {
    /// Blocks that may take the lowest tile left, with what they add to the figures.
    fn options(&self, counts: &[u8; 9]) -> Options {
        let mut out = Options::new();
        let Some(low) = (0..self.len).find(|&r| counts[r] > 0) else {
            return out;
        };
        let Some(tile) = Tile::from_index(self.start + low) else {
            return out;
        };
        let numbered = self.start < 27;
        let fits = |offset: usize| numbered && low + offset < self.len && counts[low + offset] > 0;
        let mut add = |kind: BlockKind, offsets: &[usize]| {
            let mut rest = *counts;
            for &o in offsets {
                rest[low + o] -= 1;
            }
            let block = Block { kind, tile };
            let useful = block.completions().iter().map(|t| self.live[t.index()] as u32).sum();
            let f = match kind {
                BlockKind::Triplet | BlockKind::Sequence => Figures::new(1, 0, 0, useful),
                BlockKind::Pair => Figures::new(0, 1, 0, useful),
                BlockKind::Adjacent | BlockKind::Gapped => Figures::new(0, 0, 1, useful),
                BlockKind::Single => Figures::new(0, 0, 0, useful),
            };
            out.push((block, rest, f));
        };
        if counts[low] >= 3 {
            add(BlockKind::Triplet, &[0, 0, 0]);
        }
        if fits(1) && fits(2) {
            add(BlockKind::Sequence, &[0, 1, 2]);
        }
        if counts[low] >= 2 {
            add(BlockKind::Pair, &[0, 0]);
        }
        if fits(1) {
            add(BlockKind::Adjacent, &[0, 1]);
        }
        if fits(2) {
            add(BlockKind::Gapped, &[0, 2]);
        }
        add(BlockKind::Single, &[0]);
        out
    }

    /// Pareto-best figures of every split of `counts` (memoised on the counts left): the place
    /// of the front in `fronts`, so no front is copied to be read.
    fn figures(&mut self, counts: [u8; 9]) -> usize {
        let key = counts
            .iter()
            .zip(&self.radix)
            .map(|(&c, &r)| u32::from(c) * r)
            .sum::<u32>() as usize;
        if let Some(&at) = self.memo.get(key).filter(|&&at| at != u32::MAX) {
            return at as usize;
        }
        let options = self.options(&counts);
        let mut found = Front::new();
        if options.is_empty() {
            found.push(Figures::NONE);
        }
        for (_, rest, add) in options {
            let at = self.figures(rest);
            for j in 0..self.fronts[at].len() {
                keep_best(&mut found, self.fronts[at][j].plus(add));
            }
        }
        self.fronts.push(found);
        let at = self.fronts.len() - 1;
        if let Some(slot) = self.memo.get_mut(key) {
            *slot = at as u32;
        }
        at
    }

    /// The blocks of a split with exactly the figures `want` (found by `figures`).
    fn blocks(&mut self, counts: [u8; 9], want: Figures, out: &mut Vec<Block>) {
        for (block, rest, add) in self.options(&counts) {
            let Some(need) = minus(want, add) else {
                continue;
            };
            let at = self.figures(rest);
            if self.fronts[at].contains(&need) {
                out.push(block);
                self.blocks(rest, need, out);
                return;
            }
        }
    }
}

fn minus(a: Figures, b: Figures) -> Option<Figures> {
    a.covers(b).then(|| Figures(a.0 - b.0))
}

/// The split of `counts` (beside `melds`) that minimises the block-count shanten; ties go to the
/// most live tiles completing its pairs and partials. `visible` holds tiles seen elsewhere.
///
/// Only real hands are split: with more than 14 tiles or a count above 4 every tile is reported
/// as a single (the search would otherwise grow with the junk).
pub fn best_split(counts: &Counts, melds: &[Meld], visible: &Counts) -> Split {
    if !is_real_hand(counts) {
        let blocks: Vec<Block> = tiles_of(counts)
            .into_iter()
            .map(|tile| Block {
                kind: BlockKind::Single,
                tile,
            })
            .collect();
        return Split {
            shape: ShapeCounts {
                singles: blocks.len().min(u8::MAX as usize) as u8,
                ..ShapeCounts::default()
            },
            blocks,
            block_shanten: 8,
            useful_live: 0,
        };
    }
    let own = own_counts(counts, melds);
    let mut live = [0u8; 34];
    for (i, l) in live.iter_mut().enumerate() {
        *l = 4u8.saturating_sub(own[i].saturating_add(visible[i]));
    }
    let mut suits: SmallVec<[(SuitSplitter, [u8; 9], Front); 4]> = SmallVec::new();
    for (start, len) in [(0, 9), (9, 9), (18, 9), (27, 7)] {
        let mut suit = [0u8; 9];
        for r in 0..len {
            suit[r] = counts[start + r].min(4);
        }
        if suit.iter().all(|&c| c == 0) {
            continue;
        }
        let mut radix = [0u32; 9];
        let mut size = 1u32;
        for (r, &c) in suit.iter().enumerate() {
            radix[r] = size;
            size *= u32::from(c) + 1;
        }
        let mut splitter = SuitSplitter {
            start,
            len,
            live: &live,
            radix,
            // At most 3,888 entries (14 tiles as five pairs and four singles).
            memo: vec![u32::MAX; size as usize],
            // Room for the states of a suit of a few tiles without growing.
            fronts: Vec::with_capacity(64),
        };
        let at = splitter.figures(suit);
        let figures = splitter.fronts[at].clone();
        suits.push((splitter, suit, figures));
    }
    // Combine the suits, remembering which entry of each suit made each combined figure (entry
    // `picks[k]` of the k-th suit present).
    let called = Figures::new(melds.len().min(4) as u8, 0, 0, 0);
    type Combined = SmallVec<[(Figures, [u8; 4]); 16]>;
    let mut combined: Combined = smallvec::smallvec![(called, [0u8; 4])];
    for (k, (_, _, figures)) in suits.iter().enumerate() {
        let mut next = Combined::new();
        for (a, picks) in &combined {
            for (i, b) in figures.iter().enumerate() {
                let f = a.plus(*b);
                if next.iter().any(|(q, _)| dominates(q, &f)) {
                    continue;
                }
                next.retain(|(q, _)| !dominates(&f, q));
                let mut p = *picks;
                p[k] = i.min(u8::MAX as usize) as u8;
                next.push((f, p));
            }
        }
        combined = next;
    }
    let mut best: Option<(i8, &(Figures, [u8; 4]))> = None;
    for entry in &combined {
        let f = entry.0;
        let s = block_shanten(f.sets(), f.pairs(), f.partials());
        let better = match best {
            None => true,
            Some((bs, (bf, _))) => s < bs || (s == bs && f.useful() > bf.useful()),
        };
        if better {
            best = Some((s, entry));
        }
    }
    let (block_shanten, useful_live, picks) = match best {
        Some((s, (f, picks))) => (s, f.useful(), Some(*picks)),
        None => (8, 0, None),
    };
    let mut blocks = Vec::new();
    if let Some(picks) = picks {
        for ((splitter, suit, figures), &pick) in suits.iter_mut().zip(picks.iter()) {
            if let Some(&want) = figures.get(usize::from(pick)) {
                splitter.blocks(*suit, want, &mut blocks);
            }
        }
    }
    let mut shape = ShapeCounts::default();
    for b in &blocks {
        match b.kind {
            BlockKind::Sequence | BlockKind::Triplet => shape.sets += 1,
            BlockKind::Pair => shape.pairs += 1,
            BlockKind::Adjacent => shape.adjacent += 1,
            BlockKind::Gapped => shape.gapped += 1,
            BlockKind::Single => shape.singles += 1,
        }
    }
    Split {
        blocks,
        block_shanten,
        useful_live,
        shape,
    }
}

#[cfg(test)]
mod tests {
    use super::super::notation::parse_counts;
    use super::super::tile::NO_TILES;
    use super::*;

    fn split_text(hand: &str) -> (String, i8) {
        let s = best_split(&parse_counts(hand).unwrap(), &[], &NO_TILES);
        let text = s
            .blocks
            .iter()
            .map(|b| {
                let tiles: String = b.tiles().iter().map(|t| t.to_string()).collect();
                format!("{:?}:{tiles}", b.kind)
            })
            .collect::<Vec<_>>()
            .join(" ");
        (text, s.block_shanten)
    }

    #[test]
    fn every_kinds_shape_is_its_weakest_block() {
        for hand in [
            "1122334m EEESSS C",
            "1111m 2345m 79m EES",
            "13579m 2468m EE",
            "123456789m 11p 5s P",
        ] {
            let split = best_split(&parse_counts(hand).unwrap(), &[], &NO_TILES);
            let shapes = split.tile_shapes();
            for tile in Tile::all() {
                let weakest = split
                    .blocks
                    .iter()
                    .filter(|b| b.tiles().contains(&tile))
                    .map(|b| match b.kind {
                        BlockKind::Sequence | BlockKind::Triplet => TileShape::Set,
                        BlockKind::Pair => TileShape::Pair,
                        BlockKind::Adjacent => TileShape::Adjacent,
                        BlockKind::Gapped => TileShape::Gapped,
                        BlockKind::Single => TileShape::Single,
                    })
                    .min();
                assert_eq!(shapes[tile.index()], weakest, "{hand}: {tile}");
                assert_eq!(split.shape_of(tile), weakest);
            }
        }
    }

    #[test]
    fn splits_minimise_the_block_count() {
        // The reference bot's greedy scan takes 123m first and then sees 1m 2m 3m 4m as 123 + single. Here
        // 123 123 + 4m and 11 234 23 both count 0; the second waits on more live tiles (1m, 4m).
        let (text, s) = split_text("1122334m EEESSS");
        assert_eq!(s, 0);
        assert_eq!(text, "Pair:1m1m Sequence:2m3m4m Adjacent:2m3m Triplet:EEE Triplet:SSS");
        // Four of a kind is not dropped: 1111m is a triplet plus a single (or two pairs).
        let (text, s) = split_text("1111m EEESSSWWW");
        assert_eq!(s, 0);
        assert!(text.contains("Triplet:1m1m1m"), "{text}");
        assert_eq!(split_text("19m 19p 19s ESWNPFC").1, 8);
    }

    #[test]
    fn ties_go_to_live_tiles_and_shapes_are_reported() {
        // 2m3m (waits 1m/4m, 8 live) beats 2m4m (waits 3m, 4 live) when one tile must be a single.
        let counts = parse_counts("234m").unwrap();
        let s = best_split(&counts, &[], &NO_TILES);
        assert_eq!(s.shape.sets, 1);
        let counts = parse_counts("2m 3m 5m").unwrap();
        let s = best_split(&counts, &[], &NO_TILES);
        assert_eq!(s.shape_of(Tile::from_index(1).unwrap()), Some(TileShape::Adjacent));
        assert_eq!(s.shape_of(Tile::from_index(4).unwrap()), Some(TileShape::Single));
        assert_eq!(block_shanten(4, 1, 0), -1);
        assert_eq!(block_shanten(3, 2, 0), 0);
    }

    /// Every split of `counts`, by brute force (no memo, no front): the best block count and,
    /// among splits with it, the most live tiles their pairs and partials wait on.
    fn brute_best(
        counts: &mut Counts,
        live: &Counts,
        sets: u8,
        pairs: u8,
        partials: u8,
        useful: u32,
        best: &mut (i8, u32),
    ) {
        let Some(low) = (0..34).find(|&i| counts[i] > 0) else {
            let s = block_shanten(sets, pairs, partials);
            if s < best.0 || (s == best.0 && useful > best.1) {
                *best = (s, useful);
            }
            return;
        };
        let numbered = low < 27;
        let fits = |c: &Counts, o: usize| numbered && low % 9 + o < 9 && c[low + o] > 0;
        let live_of = |i: Option<usize>| i.map_or(0, |i| u32::from(live[i]));
        let above = |o: usize| (numbered && low % 9 + o < 9).then_some(low + o);
        let below = (numbered && low % 9 > 0).then(|| low - 1);
        let mut take = |c: &mut Counts, offs: &[usize], add: (u8, u8, u8, u32)| {
            for &o in offs {
                c[low + o] -= 1;
            }
            brute_best(
                c,
                live,
                sets + add.0,
                pairs + add.1,
                partials + add.2,
                useful + add.3,
                best,
            );
            for &o in offs {
                c[low + o] += 1;
            }
        };
        if counts[low] >= 3 {
            take(counts, &[0, 0, 0], (1, 0, 0, 0));
        }
        if fits(counts, 1) && fits(counts, 2) {
            take(counts, &[0, 1, 2], (1, 0, 0, 0));
        }
        if counts[low] >= 2 {
            take(counts, &[0, 0], (0, 1, 0, live_of(Some(low))));
        }
        if fits(counts, 1) {
            take(counts, &[0, 1], (0, 0, 1, live_of(below) + live_of(above(2))));
        }
        if fits(counts, 2) {
            take(counts, &[0, 2], (0, 0, 1, live_of(above(1))));
        }
        take(counts, &[0], (0, 0, 0, 0));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]

        /// The memoised Pareto search finds the brute force's best block count and live tiles,
        /// and its blocks are exactly the hand's tiles with those figures.
        #[test]
        fn the_split_matches_a_brute_force_search(
            picks in proptest::collection::vec(0usize..31, 1..=14),
            seen in proptest::collection::vec(0usize..34, 0..20),
            melds in 0usize..3,
        ) {
            let mut counts: Counts = [0; 34];
            for &k in picks.iter().take(14 - 3 * melds.min(4)) {
                if counts[k] < 4 {
                    counts[k] += 1;
                }
            }
            let mut visible: Counts = [0; 34];
            for &k in &seen {
                if counts[k] + visible[k] < 4 {
                    visible[k] += 1;
                }
            }
            // Called pongs of the last honours, which the hand itself never holds.
            let called: Vec<Meld> = (0..melds).filter_map(|i| Tile::from_index(33 - i)).map(Meld::pong).collect();
            let own = own_counts(&counts, &called);
            let mut live: Counts = [0; 34];
            for i in 0..34 {
                live[i] = 4u8.saturating_sub(own[i].saturating_add(visible[i]));
            }
            let split = best_split(&counts, &called, &visible);
            let mut best = (i8::MAX, 0);
            brute_best(&mut counts.clone(), &live, called.len() as u8, 0, 0, 0, &mut best);
            proptest::prop_assert_eq!((split.block_shanten, split.useful_live), best);
            let mut used: Counts = [0; 34];
            for b in &split.blocks {
                for t in b.tiles() {
                    used[t.index()] += 1;
                }
            }
            proptest::prop_assert_eq!(used, counts);
        }
    }
}
