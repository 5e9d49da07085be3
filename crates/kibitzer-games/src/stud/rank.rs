//! Hand strength values and their description for explanations.

use super::tables::{tables, CATEGORY_SHIFT};

/// Number of distinct hand strengths under this game's rules (ties included once).
pub const DISTINCT_RANKS: u16 = 6331;

/// First dense value of each category, weakest category (9, high card) first.
const CATEGORY_STARTS: [(u16, u8); 9] = [
    (0, 9),    // high card: 1278 = C(13,5) − 9 straights
    (1278, 8), // one pair: 13 × C(12,3)
    (4138, 7), // two pair: C(13,2) × 11
    (4996, 6), // three of a kind: the trip rank only
    (5009, 5), // straight: 6-high … ace-high
    (5018, 4), // flush: 1278
    (6296, 3), // full house: the trip rank only
    (6309, 2), // four of a kind: the quad rank only
    (6322, 1), // straight flush: 9
];

/// The strength of a five-card hand: bigger is better, equal is a tie.
///
/// Values are dense, `0..DISTINCT_RANKS`, so they double as indices (the equity sweep counts by them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct HandRank(pub(super) u16);

impl HandRank {
    /// The raw dense value.
    pub fn value(self) -> u16 {
        self.0
    }

    /// A rank from its raw dense value, if in range.
    pub fn from_value(value: u16) -> Option<HandRank> {
        (value < DISTINCT_RANKS).then_some(HandRank(value))
    }

    /// Category 1 (straight flush) ..= 9 (high card).
    pub fn category(self) -> u8 {
        CATEGORY_STARTS
            .iter()
            .rev()
            .find(|&&(start, _)| self.0 >= start)
            .map_or(9, |&(_, category)| category)
    }

    /// The category's name, e.g. "full house".
    pub fn category_name(self) -> &'static str {
        category_name(self.category())
    }
}

/// Name of category 1..=9 ("" for anything else).
pub fn category_name(category: u8) -> &'static str {
    match category {
        1 => "straight flush",
        2 => "four of a kind",
        3 => "full house",
        4 => "flush",
        5 => "straight",
        6 => "three of a kind",
        7 => "two pair",
        8 => "one pair",
        9 => "high card",
        _ => "",
    }
}

/// What decides a hand's strength: the category and the ranks compared, in comparison order.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct HandDescription {
    /// Category 1 (straight flush) ..= 9 (high card).
    pub category: u8,
    /// The category's name, e.g. `full house`.
    pub name: &'static str,
    /// Ranks 2..=14 in the order a showdown compares them: all five for straight flush, flush,
    /// straight and high card; the quad / trip rank alone for four of a kind, full house and three
    /// of a kind; high pair, low pair, kicker for two pair; pair then kickers for one pair.
    pub deciding_ranks: Vec<u8>,
}

/// Describes a rank for explanations.
pub fn describe(rank: HandRank) -> HandDescription {
    let key = tables().keys.get(usize::from(rank.0)).copied().unwrap_or(0);
    let category = rank.category();
    let wanted = match category {
        2 | 3 | 6 => 1,
        7 => 3,
        8 => 4,
        _ => 5,
    };
    let deciding_ranks = (0..wanted).map(|slot| ((key >> (16 - 4 * slot)) & 0xF) as u8).collect();
    debug_assert_eq!(10 - (key >> CATEGORY_SHIFT), u32::from(category));
    HandDescription {
        category,
        name: category_name(category),
        deciding_ranks,
    }
}

fn rank_word(rank: u8) -> String {
    match rank {
        11 => "J".to_string(),
        12 => "Q".to_string(),
        13 => "K".to_string(),
        14 => "A".to_string(),
        r => r.to_string(),
    }
}

impl std::fmt::Display for HandDescription {
    /// Reads as a player would say it, e.g. "full house, three 8s" or "two pair, Ks and 7s, kicker 4".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let words: Vec<String> = self.deciding_ranks.iter().map(|&r| rank_word(r)).collect();
        let first = words.first().cloned().unwrap_or_default();
        match self.category {
            2 => write!(f, "{}, four {first}s", self.name),
            3 | 6 => write!(f, "{}, three {first}s", self.name),
            1 | 5 => write!(f, "{}, {first} high", self.name),
            7 if words.len() == 3 => write!(f, "{}, {}s and {}s, kicker {}", self.name, words[0], words[1], words[2]),
            8 if !words.is_empty() => {
                write!(f, "{}, {first}s, kickers {}", self.name, words[1..].join(" "))
            }
            _ => write!(f, "{}, {}", self.name, words.join(" ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn category_boundaries_match_the_tables() {
        let keys = &tables().keys;
        for (value, key) in keys.iter().enumerate() {
            let category = HandRank(value as u16).category();
            assert_eq!(u32::from(category), 10 - (key >> CATEGORY_SHIFT), "{value}");
        }
        assert_eq!(HandRank::from_value(DISTINCT_RANKS), None);
        assert_eq!(HandRank::from_value(6330).map(|r| r.category()), Some(1));
    }

    #[test]
    fn descriptions_read_well() {
        let royal = describe(HandRank(6330));
        assert_eq!(royal.deciding_ranks, vec![14, 13, 12, 11, 10]);
        assert_eq!(royal.to_string(), "straight flush, A high");
        let worst = describe(HandRank(0));
        assert_eq!(worst.to_string(), "high card, 7 5 4 3 2");
    }
}
