//! Tile kinds: 34 of them, numbered 0..34 (1m–9m, 1p–9p, 1s–9s, then E S W N P F C).

use std::fmt;

/// Number of tile kinds.
pub const KINDS: usize = 34;

/// A hand (or any multiset of tiles) as a count per kind.
pub type Counts = [u8; KINDS];

/// An empty multiset, handy for `visible` when nothing has been seen.
pub const NO_TILES: Counts = [0; KINDS];

/// The three numbered suits and the honours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// Characters 萬, written `m`.
    Man,
    /// Dots 筒, written `p`.
    Pin,
    /// Bamboo 條, written `s`.
    Sou,
    /// Winds and dragons, written as letters or `1z`–`7z`.
    Honor,
}

/// Letters of the honours in kind order (`1z`…`7z`).
pub const HONOR_LETTERS: [char; 7] = ['E', 'S', 'W', 'N', 'P', 'F', 'C'];

/// One tile kind. The index orders tiles the way the reference bot does: characters low, honours high,
/// so "the highest tile" of the reference bot's discard rule is the largest index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(u8);

impl Tile {
    /// 1m, the lowest kind.
    pub const ONE_MAN: Tile = Tile(0);

    /// The kind with this index, if it is below 34.
    pub fn from_index(index: usize) -> Option<Tile> {
        (index < KINDS).then_some(Tile(index as u8))
    }

    /// A numbered tile (`rank` 1–9) or an honour (`rank` 1–7 for E S W N P F C).
    pub fn new(suit: Suit, rank: u8) -> Option<Tile> {
        let (base, max) = match suit {
            Suit::Man => (0, 9),
            Suit::Pin => (9, 9),
            Suit::Sou => (18, 9),
            Suit::Honor => (27, 7),
        };
        if (1..=max).contains(&rank) {
            Some(Tile(base + rank - 1))
        } else {
            None
        }
    }

    /// Index 0..34, usable into [`Counts`].
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The suit of the tile.
    pub fn suit(self) -> Suit {
        match self.0 {
            0..=8 => Suit::Man,
            9..=17 => Suit::Pin,
            18..=26 => Suit::Sou,
            _ => Suit::Honor,
        }
    }

    /// 1–9 for numbered tiles, 1–7 for honours.
    pub fn rank(self) -> u8 {
        if self.0 >= 27 {
            self.0 - 26
        } else {
            self.0 % 9 + 1
        }
    }

    /// Whether the tile is a wind or a dragon.
    pub fn is_honor(self) -> bool {
        self.0 >= 27
    }

    /// The tile `offset` ranks away in the same numbered suit, if there is one.
    pub fn neighbour(self, offset: i8) -> Option<Tile> {
        if self.is_honor() {
            return None;
        }
        let rank = self.rank() as i8 + offset;
        if (1..=9).contains(&rank) {
            Some(Tile((self.0 as i8 + offset) as u8))
        } else {
            None
        }
    }

    /// All 34 kinds in index order.
    pub fn all() -> impl Iterator<Item = Tile> {
        (0..KINDS as u8).map(Tile)
    }
}

impl fmt::Display for Tile {
    /// Canonical form: `5m`, `9p`, `1s`, `E`, `C`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.suit() {
            Suit::Man => write!(f, "{}m", self.rank()),
            Suit::Pin => write!(f, "{}p", self.rank()),
            Suit::Sou => write!(f, "{}s", self.rank()),
            Suit::Honor => write!(f, "{}", HONOR_LETTERS[(self.0 - 27) as usize]),
        }
    }
}

impl serde::Serialize for Tile {
    /// A tile is its canonical string in JSON answers (`docs/explanations.md`): `"5m"`, `"E"`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// The 16 kinds of two-player mahjong: characters 1–9 and the seven honours.
pub fn two_player_kinds() -> impl Iterator<Item = Tile> {
    (0..9u8).chain(27..34u8).map(Tile)
}

/// Total number of tiles in a multiset.
pub fn tile_count(counts: &Counts) -> usize {
    counts.iter().map(|&c| c as usize).sum()
}

/// The tiles of a multiset in index order, each repeated by its count.
pub fn tiles_of(counts: &Counts) -> Vec<Tile> {
    let mut tiles = Vec::with_capacity(tile_count(counts));
    for (index, &count) in counts.iter().enumerate() {
        for _ in 0..count {
            tiles.push(Tile(index as u8));
        }
    }
    tiles
}

/// Counts of a list of tiles (no copy limit checked).
pub fn counts_of(tiles: &[Tile]) -> Counts {
    let mut counts = NO_TILES;
    for tile in tiles {
        counts[tile.index()] = counts[tile.index()].saturating_add(1);
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_suits_and_names_round_trip() {
        let five_pin = Tile::new(Suit::Pin, 5).unwrap();
        assert_eq!(five_pin.index(), 13);
        assert_eq!(five_pin.to_string(), "5p");
        assert_eq!(Tile::new(Suit::Honor, 7).unwrap().to_string(), "C");
        assert_eq!(Tile::new(Suit::Honor, 8), None);
        assert_eq!(Tile::new(Suit::Man, 0), None);
        // 9m has no right neighbour; honours have none at all.
        assert_eq!(Tile::new(Suit::Man, 9).unwrap().neighbour(1), None);
        assert_eq!(Tile::from_index(27).unwrap().neighbour(1), None);
        assert_eq!(two_player_kinds().count(), 16);
    }
}
