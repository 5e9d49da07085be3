//! The shape split (the seed's AnaTileType, made exact): the hand cut into sets, pairs, adjacent
//! partials (34), gapped partials (13) and singles.
//!
//! The seed cuts greedily in scan order and drops tiles held four times. Here every split is
//! considered (per suit, memoised on the counts left) and the one chosen minimises the classic
//! block count `8 − 2·sets − partials − head` (partials capped at the sets still missing, called
//! melds counted as sets); ties go to the split whose partial blocks wait on the most live tiles,
//! then to the first found (sets before pairs before partials, low tiles first). The block count is
//! an estimate used for shapes and the seed's scores; the exact shanten is `shanten()`.

use rustc_hash::FxHashMap;
use serde::Serialize;
use smallvec::SmallVec;

use super::meld::Meld;
use super::tile::{tile_count, tiles_of, Counts, Tile};
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

/// What a tile is part of in the chosen split, in the seed's discard order (first = discard first).
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

/// The shape counts the seed's call score reads.
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
        self.blocks
            .iter()
            .filter(|b| b.tiles().contains(&tile))
            .map(|b| match b.kind {
                BlockKind::Sequence | BlockKind::Triplet => TileShape::Set,
                BlockKind::Pair => TileShape::Pair,
                BlockKind::Adjacent => TileShape::Adjacent,
                BlockKind::Gapped => TileShape::Gapped,
                BlockKind::Single => TileShape::Single,
            })
            .min()
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

/// Figures of a (partial) split: sets, pairs, partials and live tiles completing its blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Figures {
    sets: u8,
    pairs: u8,
    partials: u8,
    useful: u32,
}

impl Figures {
    const NONE: Figures = Figures {
        sets: 0,
        pairs: 0,
        partials: 0,
        useful: 0,
    };

    fn plus(self, other: Figures) -> Figures {
        Figures {
            sets: self.sets + other.sets,
            pairs: self.pairs + other.pairs,
            partials: self.partials + other.partials,
            useful: self.useful + other.useful,
        }
    }
}

/// Keeps the Pareto front over (sets, pairs, partials, useful): the block count never rises when
/// sets, pairs or partials grow, whatever the other suits add, so a dominated entry can never be
/// the best split nor win its tie-break. Among equal entries the first found stays.
fn keep_best(found: &mut Vec<Figures>, f: Figures) {
    let dominates = |a: &Figures, b: &Figures| {
        a.sets >= b.sets && a.pairs >= b.pairs && a.partials >= b.partials && a.useful >= b.useful
    };
    if found.iter().any(|q| dominates(q, &f)) {
        return;
    }
    found.retain(|q| !dominates(&f, q));
    found.push(f);
}

/// One suit of the hand being split: its first kind index, its counts and live tiles.
struct SuitSplitter<'a> {
    start: usize,
    len: usize,
    live: &'a Counts,
    memo: FxHashMap<[u8; 9], Vec<Figures>>,
}

impl SuitSplitter<'_> {
    /// Blocks that may take the lowest tile left, with what they add to the figures.
    fn options(&self, counts: &[u8; 9]) -> Vec<(Block, [u8; 9], Figures)> {
        let Some(low) = (0..self.len).find(|&r| counts[r] > 0) else {
            return Vec::new();
        };
        let Some(tile) = Tile::from_index(self.start + low) else {
            return Vec::new();
        };
        let numbered = self.start < 27;
        let fits = |offset: usize| numbered && low + offset < self.len && counts[low + offset] > 0;
        let mut shapes: Vec<(BlockKind, &[usize])> = Vec::with_capacity(6);
        if counts[low] >= 3 {
            shapes.push((BlockKind::Triplet, &[0, 0, 0]));
        }
        if fits(1) && fits(2) {
            shapes.push((BlockKind::Sequence, &[0, 1, 2]));
        }
        if counts[low] >= 2 {
            shapes.push((BlockKind::Pair, &[0, 0]));
        }
        if fits(1) {
            shapes.push((BlockKind::Adjacent, &[0, 1]));
        }
        if fits(2) {
            shapes.push((BlockKind::Gapped, &[0, 2]));
        }
        shapes.push((BlockKind::Single, &[0]));
        shapes
            .into_iter()
            .map(|(kind, offsets)| {
                let mut rest = *counts;
                for &o in offsets {
                    rest[low + o] -= 1;
                }
                let block = Block { kind, tile };
                let mut f = Figures::NONE;
                match kind {
                    BlockKind::Triplet | BlockKind::Sequence => f.sets = 1,
                    BlockKind::Pair => f.pairs = 1,
                    BlockKind::Adjacent | BlockKind::Gapped => f.partials = 1,
                    BlockKind::Single => {}
                }
                f.useful = block.completions().iter().map(|t| self.live[t.index()] as u32).sum();
                (block, rest, f)
            })
            .collect()
    }

    /// Pareto-best figures of every split of `counts` (memoised on the counts left).
    fn figures(&mut self, counts: [u8; 9]) -> Vec<Figures> {
        if let Some(found) = self.memo.get(&counts) {
            return found.clone();
        }
        let options = self.options(&counts);
        let mut found = Vec::new();
        if options.is_empty() {
            found.push(Figures::NONE);
        }
        for (_, rest, add) in options {
            for f in self.figures(rest) {
                keep_best(&mut found, f.plus(add));
            }
        }
        self.memo.insert(counts, found.clone());
        found
    }

    /// The blocks of a split with exactly the figures `want` (found by `figures`).
    fn blocks(&mut self, counts: [u8; 9], want: Figures, out: &mut Vec<Block>) {
        for (block, rest, add) in self.options(&counts) {
            let Some(need) = minus(want, add) else {
                continue;
            };
            if self.figures(rest).contains(&need) {
                out.push(block);
                self.blocks(rest, need, out);
                return;
            }
        }
    }
}

fn minus(a: Figures, b: Figures) -> Option<Figures> {
    Some(Figures {
        sets: a.sets.checked_sub(b.sets)?,
        pairs: a.pairs.checked_sub(b.pairs)?,
        partials: a.partials.checked_sub(b.partials)?,
        useful: a.useful.checked_sub(b.useful)?,
    })
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
    let mut suits: Vec<(SuitSplitter, [u8; 9], Vec<Figures>)> = Vec::new();
    for (start, len) in [(0, 9), (9, 9), (18, 9), (27, 7)] {
        let mut suit = [0u8; 9];
        for r in 0..len {
            suit[r] = counts[start + r].min(4);
        }
        if suit.iter().all(|&c| c == 0) {
            continue;
        }
        let mut splitter = SuitSplitter {
            start,
            len,
            live: &live,
            memo: FxHashMap::default(),
        };
        let figures = splitter.figures(suit);
        suits.push((splitter, suit, figures));
    }
    // Combine the suits, remembering which entry of each suit made each combined figure.
    let called = Figures {
        sets: melds.len().min(4) as u8,
        ..Figures::NONE
    };
    let mut combined: Vec<(Figures, Vec<usize>)> = vec![(called, Vec::new())];
    for (_, _, figures) in &suits {
        let mut next: Vec<(Figures, Vec<usize>)> = Vec::new();
        for (a, picks) in &combined {
            for (i, b) in figures.iter().enumerate() {
                let f = a.plus(*b);
                let dominates = |x: &Figures, y: &Figures| {
                    x.sets >= y.sets && x.pairs >= y.pairs && x.partials >= y.partials && x.useful >= y.useful
                };
                if next.iter().any(|(q, _)| dominates(q, &f)) {
                    continue;
                }
                next.retain(|(q, _)| !dominates(&f, q));
                let mut p = picks.clone();
                p.push(i);
                next.push((f, p));
            }
        }
        combined = next;
    }
    let mut best: Option<(i8, &(Figures, Vec<usize>))> = None;
    for entry in &combined {
        let f = entry.0;
        let s = block_shanten(f.sets, f.pairs, f.partials);
        let better = match best {
            None => true,
            Some((bs, (bf, _))) => s < bs || (s == bs && f.useful > bf.useful),
        };
        if better {
            best = Some((s, entry));
        }
    }
    let (block_shanten, useful_live, picks) = match best {
        Some((s, (f, picks))) => (s, f.useful, picks.clone()),
        None => (8, 0, Vec::new()),
    };
    let mut blocks = Vec::new();
    for ((splitter, suit, figures), pick) in suits.iter_mut().zip(picks) {
        if let Some(&want) = figures.get(pick) {
            splitter.blocks(*suit, want, &mut blocks);
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
    fn splits_minimise_the_block_count() {
        // The seed's greedy scan takes 123m first and then sees 1m 2m 3m 4m as 123 + single. Here
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
}
