//! Win check (both forms) and waits of a waiting hand.

use serde::Serialize;

use super::meld::{meld_counts, Meld};
use super::shanten::{rank_weight, suit_keys_and_sums};
use super::tables::tables;
use super::tile::{tile_count, Counts, Tile, KINDS};

/// How a hand wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum WinForm {
    /// Four sets (sequences or triplets, called melds included) and a pair.
    Standard,
    /// Seven pairs, a quad counting as two; only with no called melds.
    SevenPairs,
}

impl WinForm {
    /// The name rule files use: `"standard"`, `"seven pairs"`.
    pub fn name(self) -> &'static str {
        match self {
            WinForm::Standard => "standard",
            WinForm::SevenPairs => "seven pairs",
        }
    }
}

/// Whether `counts` (14 − 3k tiles beside k called melds) is a win, and in which form. When both
/// forms fit (`112233m 445566m 77m`) the standard form is reported.
#[inline]
pub fn is_win(counts: &Counts, melds: &[Meld]) -> Option<WinForm> {
    if melds.len() > 4 {
        return None;
    }
    let packed = suit_keys_and_sums(counts);
    let sums = [packed[0].1, packed[1].1, packed[2].1, packed[3].1];
    if sums.iter().sum::<u32>() as usize + 3 * melds.len() != 14 {
        return None;
    }
    if standard_win(&packed) {
        Some(WinForm::Standard)
    } else if melds.is_empty() && sums.iter().all(|s| s % 2 == 0) && seven_pairs_win(counts) {
        Some(WinForm::SevenPairs)
    } else {
        None
    }
}

/// Every suit all sets, exactly one suit also holding the pair (size is the caller's concern).
#[inline(always)]
fn standard_win(packed: &[(u32, u32); 4]) -> bool {
    // Sizes first: no suit may be 1 mod 3 and exactly one may be 2 mod 3 — most hands stop here.
    let mut pairs = 0;
    for &(_, sum) in packed {
        match sum % 3 {
            1 => return false,
            2 => pairs += 1,
            _ => {}
        }
    }
    if pairs != 1 {
        return false;
    }
    let t = tables();
    t.number.complete(packed[0].0)
        && t.number.complete(packed[1].0)
        && t.number.complete(packed[2].0)
        && t.honor.complete(packed[3].0)
}

/// Seven pairs: every count 0, 2 or 4 and fourteen tiles.
#[inline]
fn seven_pairs_win(counts: &Counts) -> bool {
    tile_count(counts) == 14 && counts.iter().all(|&c| c == 0 || c == 2 || c == 4)
}

/// A winning kind of a waiting hand and how many copies of it are still unseen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Wait {
    /// The kind that completes the hand.
    pub tile: Tile,
    /// 4 − (own hand + own melds + visible); zero means the wait is dead.
    pub live: u8,
}

/// Every kind that completes a waiting hand (13 − 3k tiles) in either form, with its live count.
/// A kind whose four copies are all in the own hand or melds is not a wait (there is no fifth
/// copy); `visible` counts tiles seen elsewhere (discards, the opponent's melds).
pub fn waits(counts: &Counts, melds: &[Meld], visible: &Counts) -> Vec<Wait> {
    let mut out = Vec::new();
    if melds.len() > 4 || tile_count(counts) + 3 * melds.len() != 13 {
        return out;
    }
    let own = own_counts(counts, melds);
    let packed = suit_keys_and_sums(counts);
    let keys = [packed[0].0, packed[1].0, packed[2].0, packed[3].0];
    let sums = [packed[0].1, packed[1].1, packed[2].1, packed[3].1];
    let t = tables();
    let table = |s: usize| if s == 3 { &t.honor } else { &t.number };
    // Per suit as it is: complete (all sets, or sets and a pair) and holding the pair.
    let complete: [bool; 4] = std::array::from_fn(|s| sums[s] % 3 != 1 && table(s).complete(keys[s]));
    let pair: [u32; 4] = std::array::from_fn(|s| (sums[s] % 3 == 2) as u32);
    let pairs_total: u32 = pair.iter().sum();
    // Seven pairs: six pairs (quads count twice) and one odd kind, which is the only wait.
    let odd: Vec<usize> = (0..KINDS).filter(|&i| counts[i] % 2 == 1).collect();
    let pairs_wait = (melds.is_empty() && odd.len() == 1).then(|| odd[0]);
    for index in 0..KINDS {
        if own[index] >= 4 {
            continue;
        }
        let suit = suit_of(index);
        let others_complete = (0..4).all(|s| s == suit || complete[s]);
        let new_sum = sums[suit] + 1;
        let standard = others_complete
            && new_sum % 3 != 1
            && pairs_total - pair[suit] + (new_sum % 3 == 2) as u32 == 1
            && table(suit).complete(keys[suit] + rank_weight(index));
        if standard || pairs_wait == Some(index) {
            if let Some(tile) = Tile::from_index(index) {
                let seen = own[index] as u32 + visible[index] as u32;
                out.push(Wait {
                    tile,
                    live: 4u32.saturating_sub(seen) as u8,
                });
            }
        }
    }
    out
}

/// Own hand plus own melds.
pub(super) fn own_counts(counts: &Counts, melds: &[Meld]) -> Counts {
    let mut own = meld_counts(melds);
    for (o, &c) in own.iter_mut().zip(counts.iter()) {
        *o = o.saturating_add(c);
    }
    own
}

#[inline]
pub(super) fn suit_of(index: usize) -> usize {
    (index / 9).min(3)
}

#[cfg(test)]
mod tests {
    use super::super::notation::{format_tiles, parse_counts, parse_melds};
    use super::super::tile::NO_TILES;
    use super::*;

    fn wait_text(hand: &str) -> String {
        let w = waits(&parse_counts(hand).unwrap(), &[], &NO_TILES);
        format_tiles(&w.iter().map(|w| w.tile).collect::<Vec<_>>())
    }

    #[test]
    fn the_traps() {
        // Nine gates: every 1m–9m completes it.
        assert_eq!(wait_text("1112345678999m"), "123456789m");
        // 1111m + three honour triplets: only a fifth 1m would pair the single — no wait.
        assert_eq!(wait_text("1111m EEESSSWWW"), "");
        // Same with CCCC beside a full straight.
        assert_eq!(wait_text("123456789m CCCC"), "");
        // 1122334m: 11 + 22 33 4 → 1m/4m (112233 + 44 pair via 4m; 123 123 + 34 waits 2m/5m? no)
        assert_eq!(wait_text("1122334m EEESSS"), "14m");
        let seven = parse_counts("1111m 2255m EESSPP").unwrap();
        assert_eq!(is_win(&seven, &[]), Some(WinForm::SevenPairs));
    }

    #[test]
    fn win_forms_and_called_melds() {
        let both = parse_counts("11223344556677m").unwrap();
        assert_eq!(is_win(&both, &[]), Some(WinForm::Standard));
        let melds = parse_melds("PPP 777m").unwrap();
        assert_eq!(
            is_win(&parse_counts("123m 456m EE").unwrap(), &melds),
            Some(WinForm::Standard)
        );
        // Seven pairs are not possible beside called melds.
        assert_eq!(
            is_win(
                &parse_counts("11m 22m 33m 44m").unwrap(),
                &parse_melds("PPP EEE").unwrap()
            ),
            Some(WinForm::Standard)
        );
        assert_eq!(
            is_win(
                &parse_counts("11m 22m 44m 55m").unwrap(),
                &parse_melds("PPP EEE").unwrap()
            ),
            None
        );
        // Four suits each with a pair: 14 tiles ≡ 2 (mod 3) but four pairs is not a win.
        assert_eq!(is_win(&parse_counts("11m 11p 11s EE 234567m").unwrap(), &[]), None);
        // Live counts subtract own tiles and visible ones.
        let mut visible = NO_TILES;
        visible[3] = 2; // two 4m seen
        let w = waits(&parse_counts("1122334m EEESSS").unwrap(), &[], &visible);
        assert_eq!(
            w.iter().map(|w| (w.tile.to_string(), w.live)).collect::<Vec<_>>(),
            vec![("1m".to_string(), 2), ("4m".to_string(), 1)]
        );
    }
}
