//! Everything a rule set needs to choose a discard: per kind held, the shanten after discarding
//! it, the useful draws then (kinds that lower shanten and still have a live copy), their live
//! count, the waits if it leaves the hand ready, and the tile's shape in the hand's best split.

use serde::Serialize;

use super::discard_probe::DrawnProbe;
use super::meld::Meld;
use super::shanten::Probe;
use super::split::{best_split, is_real_hand, Split, TileShape};
use super::tile::{Counts, Tile, KINDS};
use super::win::{own_counts, waits, Wait};

/// One candidate discard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiscardOption {
    /// The kind discarded.
    pub tile: Tile,
    /// Shanten of the 13 − 3k tiles left (both forms; 0 = ready).
    pub shanten_after: i8,
    /// Kinds whose draw would lower that shanten and that still have a live copy.
    pub useful_kinds: Vec<Tile>,
    /// Live copies of those kinds (the discarded tile counts as seen).
    pub useful_live: u32,
    /// When ready: every winning kind with its live count (dead waits included, live 0).
    pub waits: Vec<Wait>,
    /// The tile's place in the 14-tile hand's best split (the reference bot's discard order).
    pub shape: TileShape,
}

/// Discard options of a hand that has just drawn (14 − 3k tiles), one per kind held, in kind
/// order. `visible` counts tiles seen outside the own hand and melds. Empty for junk (more than 14
/// tiles or a count above 4).
pub fn discard_options(counts: &Counts, melds: &[Meld], visible: &Counts) -> Vec<DiscardOption> {
    if !is_real_hand(counts) {
        return Vec::new();
    }
    let split = best_split(counts, melds, visible);
    discard_options_with(counts, melds, visible, Some(&split), true)
}

/// The options with shapes from `split` (all `Single` when none is given) and the waits of ready
/// options only when asked: a player that decides by shanten and live tiles first skips both.
pub(super) fn discard_options_with(
    counts: &Counts,
    melds: &[Meld],
    visible: &Counts,
    split: Option<&Split>,
    with_waits: bool,
) -> Vec<DiscardOption> {
    let mut out = Vec::with_capacity(counts.iter().filter(|&&c| c > 0).count());
    let probe = DrawnProbe::new(counts, melds);
    let own_whole = own_counts(counts, melds);
    let shapes = split.map(Split::tile_shapes);
    // A discard moves one copy of its kind from the own tiles to the seen ones, so no kind's live
    // count changes: the kinds with a live copy are found once for every discard.
    let live = live_draws(&own_whole, visible, |_| true);
    for tile in Tile::all() {
        let d = tile.index();
        if counts[d] == 0 {
            continue;
        }
        let left = probe.discard(d);
        let shanten_after = left.shanten();
        let mut seen = *visible;
        seen[d] = seen[d].saturating_add(1);
        let mut useful_kinds = Vec::with_capacity(live.len());
        let mut useful_live = 0;
        for &(t, copies) in &live {
            if probe.lowers(&left, t.index()) {
                useful_kinds.push(t);
                useful_live += u32::from(copies);
            }
        }
        let ready_waits = if shanten_after == 0 && with_waits {
            let mut after = *counts;
            after[d] -= 1;
            waits(&after, melds, &seen)
        } else {
            Vec::new()
        };
        out.push(DiscardOption {
            tile,
            shanten_after,
            useful_kinds,
            useful_live,
            waits: ready_waits,
            shape: shapes.and_then(|s| s[d]).unwrap_or(TileShape::Single),
        });
    }
    out
}

/// Shanten of a waiting hand and its useful draws (kind, live copies), live copies only.
pub fn useful_draws(counts: &Counts, melds: &[Meld], visible: &Counts) -> (i8, Vec<(Tile, u8)>) {
    let probe = Probe::new(counts, melds);
    let own = own_counts(counts, melds);
    (probe.shanten(), live_draws(&own, visible, |index| probe.lowers(index)))
}

/// The kinds with a live copy (not all four in `own` hand and melds and `seen`) whose draw
/// `lowers` the shanten, with their live copies.
fn live_draws(own: &Counts, seen: &Counts, lowers: impl Fn(usize) -> bool) -> Vec<(Tile, u8)> {
    // Room for every kind at once, not grown push by push.
    let mut useful = Vec::with_capacity(KINDS);
    for (index, (&own, &seen)) in own.iter().zip(seen).enumerate() {
        let live = 4u8.saturating_sub(own.saturating_add(seen));
        if live == 0 || own >= 4 || !lowers(index) {
            continue;
        }
        if let Some(tile) = Tile::from_index(index) {
            useful.push((tile, live));
        }
    }
    useful
}

#[cfg(test)]
mod tests {
    use super::super::notation::{format_tiles, parse_counts, parse_tile};
    use super::super::tile::NO_TILES;
    use super::*;

    #[test]
    fn discarding_the_single_keeps_the_hand_ready() {
        let counts = parse_counts("1122334m EEESSS C").unwrap();
        let options = discard_options(&counts, &[], &NO_TILES);
        let c = options.iter().find(|o| o.tile == parse_tile("C").unwrap()).unwrap();
        assert_eq!(c.shanten_after, 0);
        assert_eq!(format_tiles(&c.useful_kinds), "14m");
        assert_eq!(c.useful_live, 2 + 3);
        assert_eq!(c.waits.len(), 2);
        assert_eq!(c.shape, TileShape::Single);
        let one = options.iter().find(|o| o.tile.index() == 0).unwrap();
        // Dropping 1m leaves 123 234 EEE SSS + C: ready on C alone (three live).
        assert_eq!(one.shanten_after, 0);
        assert_eq!(format_tiles(&one.useful_kinds), "C");
        assert_eq!(one.useful_live, 3);
        assert_eq!(one.shape, TileShape::Pair);
    }
}
