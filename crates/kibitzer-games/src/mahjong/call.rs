//! Calls on the opponent's discard: every legal pong, kong and chow with the reference bot's shape counts
//! (for its 0.5 × singles + 0.3 × gapped + 0.2 × adjacent score) and the exact figures a stronger
//! player wants (shanten after the call, live useful tiles after the best discard).

use serde::Serialize;

use super::discard::{discard_options_with, useful_draws};
use super::meld::Meld;
use super::split::{best_split, is_real_hand, ShapeCounts};
use super::tile::{Counts, Tile};
use super::win::is_win;

/// Which call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum CallKind {
    /// Three of a kind with the discard.
    Pong,
    /// Four of a kind with the discard (a replacement tile is drawn next).
    Kong,
    /// A sequence with the discard (two-player: always allowed, the opponent is on your left).
    Chow,
}

impl CallKind {
    /// The name rule files use.
    pub fn name(self) -> &'static str {
        match self {
            CallKind::Pong => "pong",
            CallKind::Kong => "kong",
            CallKind::Chow => "chow",
        }
    }
}

/// Weights of the reference bot's call score (lower is better). Defaults 0.5 / 0.3 / 0.2.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CallWeights {
    /// Per single.
    pub single: f64,
    /// Per gapped partial.
    pub gapped: f64,
    /// Per adjacent partial.
    pub adjacent: f64,
}

impl Default for CallWeights {
    fn default() -> Self {
        CallWeights {
            single: 0.5,
            gapped: 0.3,
            adjacent: 0.2,
        }
    }
}

impl CallWeights {
    /// The reference bot's score of a shape: weighted count of loose blocks.
    pub fn score(&self, shape: &ShapeCounts) -> f64 {
        self.single * shape.singles as f64 + self.gapped * shape.gapped as f64 + self.adjacent * shape.adjacent as f64
    }
}

/// One legal call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CallOption {
    /// Pong, kong or chow.
    pub kind: CallKind,
    /// The meld the call makes (the discard included).
    pub meld: Meld,
    /// The tiles taken from the hand.
    pub from_hand: Vec<Tile>,
    /// Shape of the hand left after the call (best split).
    pub shape: ShapeCounts,
    /// The reference bot's score of that shape with default weights.
    pub score: f64,
    /// Exact shanten after the call (after the best discard for pong/chow).
    pub shanten_after: i8,
    /// Live useful tiles after the call and its best discard.
    pub useful_live_after: u32,
    /// The discard that gives those figures (none after a kong: a replacement draw comes first).
    pub best_discard: Option<Tile>,
}

/// The current hand's figures and every legal call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CallAnalysis {
    /// Whether the discard completes the hand (a win beats every call).
    pub wins: bool,
    /// Shape of the hand as it is (13 − 3k tiles).
    pub current_shape: ShapeCounts,
    /// The reference bot's score of the current shape with default weights.
    pub current_score: f64,
    /// Exact shanten as it is.
    pub current_shanten: i8,
    /// Live useful tiles as it is.
    pub current_useful_live: u32,
    /// Legal calls: kong, pong, then chows from the lowest.
    pub options: Vec<CallOption>,
}

/// Calls on `offered` for a waiting hand (13 − 3k tiles). `visible` counts tiles seen outside the
/// own hand and melds, the offered discard included; `can_chow` is false where chows are off.
pub fn call_options(counts: &Counts, melds: &[Meld], offered: Tile, can_chow: bool, visible: &Counts) -> CallAnalysis {
    let weights = CallWeights::default();
    let o = offered.index();
    let mut with_offer = *counts;
    with_offer[o] = with_offer[o].saturating_add(1);
    let wins = is_win(&with_offer, melds).is_some();
    let current = best_split(counts, melds, visible);
    let (current_shanten, useful) = useful_draws(counts, melds, visible);
    // After a call the offered tile is in the own meld, no longer among the visible ones.
    let mut seen = *visible;
    seen[o] = seen[o].saturating_sub(1);
    let mut options = Vec::new();
    if melds.len() < 4 && is_real_hand(counts) {
        let mut candidates: Vec<(CallKind, Meld, Vec<Tile>)> = Vec::new();
        if counts[o] >= 3 {
            candidates.push((CallKind::Kong, Meld::kong(offered), vec![offered; 3]));
        }
        if counts[o] >= 2 {
            candidates.push((CallKind::Pong, Meld::pong(offered), vec![offered; 2]));
        }
        if can_chow {
            for low in [-2i8, -1, 0] {
                let Some(start) = offered.neighbour(low) else {
                    continue;
                };
                let Some(meld) = Meld::chow(start) else {
                    continue;
                };
                let from_hand: Vec<Tile> = meld.tiles().into_iter().filter(|&t| t != offered).collect();
                if from_hand.len() == 2 && from_hand.iter().all(|t| counts[t.index()] > 0) {
                    candidates.push((CallKind::Chow, meld, from_hand));
                }
            }
        }
        for (kind, meld, from_hand) in candidates {
            let mut rest = *counts;
            for t in &from_hand {
                rest[t.index()] -= 1;
            }
            let mut new_melds = melds.to_vec();
            new_melds.push(meld);
            let shape = best_split(&rest, &new_melds, &seen).shape;
            let (shanten_after, useful_live_after, best_discard) = if kind == CallKind::Kong {
                let (s, u) = useful_draws(&rest, &new_melds, &seen);
                (s, u.iter().map(|&(_, l)| l as u32).sum(), None)
            } else {
                // Only shanten and live tiles rank the discards here: no shapes, no waits.
                let best = discard_options_with(&rest, &new_melds, &seen, None, false)
                    .into_iter()
                    .min_by_key(|d| (d.shanten_after, std::cmp::Reverse(d.useful_live)));
                match best {
                    Some(d) => (d.shanten_after, d.useful_live, Some(d.tile)),
                    None => (i8::MAX, 0, None),
                }
            };
            options.push(CallOption {
                kind,
                meld,
                from_hand,
                score: weights.score(&shape),
                shape,
                shanten_after,
                useful_live_after,
                best_discard,
            });
        }
    }
    CallAnalysis {
        wins,
        current_shape: current.shape,
        current_score: weights.score(&current.shape),
        current_shanten,
        current_useful_live: useful.iter().map(|&(_, l)| l as u32).sum(),
        options,
    }
}

#[cfg(test)]
mod tests {
    use super::super::notation::{parse_counts, parse_tile};
    use super::super::tile::NO_TILES;
    use super::*;

    #[test]
    fn pong_kong_and_chows_are_offered_with_their_figures() {
        let counts = parse_counts("234m 555m 78m EE CC S").unwrap();
        let mut visible = NO_TILES;
        let five = parse_tile("5m").unwrap();
        visible[five.index()] = 1;
        let a = call_options(&counts, &[], five, true, &visible);
        let kinds: Vec<CallKind> = a.options.iter().map(|o| o.kind).collect();
        // 5m: kong and pong of the three held, chow 345m with the held 3m 4m.
        assert_eq!(kinds, vec![CallKind::Kong, CallKind::Pong, CallKind::Chow]);
        assert!(!a.wins);
        // Chows on 6m: 456m, 567m and 678m all have their two other tiles in hand.
        let six = parse_tile("6m").unwrap();
        let b = call_options(&counts, &[], six, true, &NO_TILES);
        let chows: Vec<String> = b.options.iter().map(|o| o.meld.to_string()).collect();
        assert_eq!(chows, vec!["456m", "567m", "678m"]);
        assert!(call_options(&counts, &[], six, false, &NO_TILES).options.is_empty());
        // E completes nothing yet, pong of E is offered; the win on a discard is flagged.
        let ready = parse_counts("234m 555m 789m EEE C").unwrap();
        assert!(call_options(&ready, &[], parse_tile("C").unwrap(), true, &NO_TILES).wins);
    }
}
