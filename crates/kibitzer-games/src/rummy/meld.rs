//! Melds and arrangements as the user sees them, with their canonical order.
//!
//! Canonical order of melds inside an arrangement: runs before sets; runs by suit (S H D C),
//! then lowest position (ace-low = 0 … ace-high = 13), then length; sets by rank, then by their
//! cards; joker melds compare by their card lists. The dump is listed in card order.

use super::card::{format_cards, Card};
use super::options::Options;
use std::cmp::Ordering;
use std::fmt;

/// Run or set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MeldKind {
    /// Three or more consecutive cards of one suit.
    Run,
    /// Three or more cards of one rank in different suits.
    Set,
}

/// One meld: its kind and its cards (a run low to high, an ace-high ace last; jokers last).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Meld {
    /// Run or set.
    pub kind: MeldKind,
    /// The meld's cards, in the order described above.
    pub cards: Vec<Card>,
    /// Position of the lowest natural card of a run (0 = low ace … 13 = high ace); the rank
    /// of a set; used for ordering only.
    pub(super) key: u8,
}

impl Meld {
    /// A natural run of `suit` over positions `start..=end` (13 = high ace).
    pub(super) fn run(suit: u8, start: u8, end: u8) -> Meld {
        let cards = (start..=end).filter_map(|p| Card::new(p % 13, suit)).collect();
        Meld {
            kind: MeldKind::Run,
            cards,
            key: start,
        }
    }

    /// A natural set of `rank` in the suits of `suit_mask`.
    pub(super) fn set(rank: u8, suit_mask: u8) -> Meld {
        let cards = (0..4u8)
            .filter(|s| suit_mask & (1 << s) != 0)
            .filter_map(|s| Card::new(rank, s))
            .collect();
        Meld {
            kind: MeldKind::Set,
            cards,
            key: rank,
        }
    }

    /// A meld given by its cards (joker search); cards sorted canonically.
    pub(super) fn from_cards(kind: MeldKind, mut cards: Vec<Card>) -> Meld {
        cards.sort();
        let key = cards.iter().filter_map(|c| c.rank()).min().unwrap_or(u8::MAX);
        Meld { kind, cards, key }
    }

    fn suit_key(&self) -> u8 {
        self.cards.iter().find_map(|c| c.suit()).unwrap_or(4)
    }

    /// Number of cards in the meld.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Whether the meld has no card.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }
}

impl Ord for Meld {
    fn cmp(&self, other: &Self) -> Ordering {
        let left = match self.kind {
            MeldKind::Run => (self.kind, self.suit_key(), self.key),
            MeldKind::Set => (self.kind, self.key, 0),
        };
        let right = match other.kind {
            MeldKind::Run => (other.kind, other.suit_key(), other.key),
            MeldKind::Set => (other.kind, other.key, 0),
        };
        left.cmp(&right)
            .then_with(|| self.cards.len().cmp(&other.cards.len()))
            .then_with(|| self.cards.cmp(&other.cards))
    }
}

impl PartialOrd for Meld {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Meld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_cards(&self.cards))
    }
}

/// Disjoint melds taken from a hand, and the rest (the dump, i.e. the deadwood).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Arrangement {
    /// The melds, in canonical order.
    pub melds: Vec<Meld>,
    /// The cards left out of every meld, in card order.
    pub dump: Vec<Card>,
}

impl Arrangement {
    /// Puts melds and dump in canonical order.
    pub fn canonicalize(&mut self) {
        self.melds.sort();
        self.dump.sort();
    }

    /// Deadwood cards.
    pub fn deadwood_cards(&self) -> u32 {
        self.dump.len() as u32
    }

    /// Deadwood points (jokers and wild cards count `options.joker_points`).
    pub fn deadwood_points(&self, options: &Options) -> u32 {
        self.dump.iter().map(|&c| card_points(c, options)).sum()
    }

    /// Appends another (disjoint) arrangement, keeping canonical order.
    pub fn merge(&mut self, other: &Arrangement) {
        self.melds.extend(other.melds.iter().cloned());
        self.dump.extend(other.dump.iter().copied());
        self.canonicalize();
    }
}

impl Ord for Arrangement {
    fn cmp(&self, other: &Self) -> Ordering {
        self.melds.cmp(&other.melds).then_with(|| self.dump.cmp(&other.dump))
    }
}

impl PartialOrd for Arrangement {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Arrangement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let melds: Vec<String> = self.melds.iter().map(|m| format!("[{m}]")).collect();
        write!(
            f,
            "{} | dump: {}",
            if melds.is_empty() {
                "-".to_string()
            } else {
                melds.join(" ")
            },
            if self.dump.is_empty() {
                "-".to_string()
            } else {
                format_cards(&self.dump)
            }
        )
    }
}

/// Deadwood points of one card under the options (jokers and wild cards: `joker_points`).
pub fn card_points(card: Card, options: &Options) -> u32 {
    match card.rank() {
        None => options.joker_points,
        Some(r) if options.wild_rank == Some(r) => options.joker_points,
        Some(_) => card.face_points(),
    }
}
