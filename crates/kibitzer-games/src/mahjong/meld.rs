//! Called (and concealed-kong) melds: they sit beside the hand and count as complete sets.

use std::fmt;

use super::tile::{Counts, Tile, NO_TILES};

/// The shape of a called meld.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MeldKind {
    /// Three in a row of one numbered suit (吃); `tile` is the lowest.
    Chow,
    /// Three of a kind (碰).
    Pong,
    /// Four of a kind shown to the table (明杠), by a call or by adding to a pong.
    Kong,
    /// Four of a kind declared from the own hand (暗杠). Written in brackets, `[7777m]`.
    ConcealedKong,
}

/// A meld set aside from the hand. It counts as one of the four sets of a win.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Meld {
    /// Sequence, triplet or quad.
    pub kind: MeldKind,
    /// The kind of a triplet/quad, the lowest tile of a sequence.
    pub tile: Tile,
}

impl Meld {
    /// A chow starting at `lowest`, if the sequence exists (numbered suit, rank ≤ 7).
    pub fn chow(lowest: Tile) -> Option<Meld> {
        lowest.neighbour(2).map(|_| Meld {
            kind: MeldKind::Chow,
            tile: lowest,
        })
    }

    /// A pong of `tile`.
    pub fn pong(tile: Tile) -> Meld {
        Meld {
            kind: MeldKind::Pong,
            tile,
        }
    }

    /// An exposed kong of `tile`.
    pub fn kong(tile: Tile) -> Meld {
        Meld {
            kind: MeldKind::Kong,
            tile,
        }
    }

    /// A concealed kong of `tile`.
    pub fn concealed_kong(tile: Tile) -> Meld {
        Meld {
            kind: MeldKind::ConcealedKong,
            tile,
        }
    }

    /// The physical tiles of the meld.
    pub fn tiles(&self) -> Vec<Tile> {
        match self.kind {
            MeldKind::Chow => (0..3).filter_map(|k| self.tile.neighbour(k)).collect(),
            MeldKind::Pong => vec![self.tile; 3],
            MeldKind::Kong | MeldKind::ConcealedKong => vec![self.tile; 4],
        }
    }

    /// Whether the meld is a kong of either sort.
    pub fn is_kong(&self) -> bool {
        matches!(self.kind, MeldKind::Kong | MeldKind::ConcealedKong)
    }
}

/// Tiles used by the melds, as counts per kind.
pub fn meld_counts(melds: &[Meld]) -> Counts {
    let mut counts = NO_TILES;
    for meld in melds {
        for tile in meld.tiles() {
            counts[tile.index()] += 1;
        }
    }
    counts
}

impl serde::Serialize for Meld {
    /// A meld is its compact text in JSON answers: `"123m"`, `"[CCCC]"`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl fmt::Display for Meld {
    /// Compact form: `123m`, `777m`, `PPP`, `7777m`, `[CCCC]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tiles = self.tiles();
        let body = if self.tile.is_honor() {
            tiles.iter().map(|t| t.to_string()).collect::<String>()
        } else {
            let digits: String = tiles.iter().map(|t| t.rank().to_string()).collect();
            let suit = self.tile.to_string().chars().last().unwrap_or('m');
            format!("{digits}{suit}")
        };
        if self.kind == MeldKind::ConcealedKong {
            write!(f, "[{body}]")
        } else {
            write!(f, "{body}")
        }
    }
}
