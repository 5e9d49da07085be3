//! One play (a combination put on the table), its type and how plays compare.

use std::fmt;

use super::error::DoudizhuError;
use super::hand::{parse_hand, Hand};
use super::movegen::whole_hand_play;
use super::rules::Rules;

/// The combination types of `docs/doudizhu.md`, in the canonical order used when listing plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PlayKind {
    /// One card.
    Single,
    /// Two cards of one rank.
    Pair,
    /// Three cards of one rank.
    Trio,
    /// A trio and one other card.
    TrioSingle,
    /// A trio and a pair of another rank.
    TrioPair,
    /// Five to twelve consecutive singles within `3`..`A`.
    Straight,
    /// Three to ten consecutive pairs within `3`..`A`.
    PairChain,
    /// Two to six consecutive trios within `3`..`A`, no wings.
    Airplane,
    /// Two to five consecutive trios with one single wing per trio.
    AirplaneSingles,
    /// Two to four consecutive trios with one pair wing per trio.
    AirplanePairs,
    /// Four of a rank with two single cards.
    FourTwoSingles,
    /// Four of a rank with two pairs of two other ranks.
    FourTwoPairs,
    /// Four of a rank alone: beats any non-bomb.
    Bomb,
    /// Both jokers: beats everything.
    Rocket,
}

impl PlayKind {
    /// Every kind, in canonical order.
    pub const ALL: [PlayKind; 14] = [
        PlayKind::Single,
        PlayKind::Pair,
        PlayKind::Trio,
        PlayKind::TrioSingle,
        PlayKind::TrioPair,
        PlayKind::Straight,
        PlayKind::PairChain,
        PlayKind::Airplane,
        PlayKind::AirplaneSingles,
        PlayKind::AirplanePairs,
        PlayKind::FourTwoSingles,
        PlayKind::FourTwoPairs,
        PlayKind::Bomb,
        PlayKind::Rocket,
    ];

    /// Human name, e.g. "trio with single", "airplane with pairs".
    pub fn name(self) -> &'static str {
        match self {
            PlayKind::Single => "single",
            PlayKind::Pair => "pair",
            PlayKind::Trio => "trio",
            PlayKind::TrioSingle => "trio with single",
            PlayKind::TrioPair => "trio with pair",
            PlayKind::Straight => "straight",
            PlayKind::PairChain => "pair chain",
            PlayKind::Airplane => "airplane",
            PlayKind::AirplaneSingles => "airplane with singles",
            PlayKind::AirplanePairs => "airplane with pairs",
            PlayKind::FourTwoSingles => "four with two singles",
            PlayKind::FourTwoPairs => "four with two pairs",
            PlayKind::Bomb => "bomb",
            PlayKind::Rocket => "rocket",
        }
    }

    /// Bombs and the rocket beat plays of other types.
    pub fn is_bomb_like(self) -> bool {
        matches!(self, PlayKind::Bomb | PlayKind::Rocket)
    }

    /// Dense index (position in [`PlayKind::ALL`]).
    pub fn index(self) -> u8 {
        self as u8
    }
}

impl fmt::Display for PlayKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One play. `main_rank` is the rank that decides comparisons (the lowest rank of a chain,
/// the trio's or the four's rank); `length` is the number of ranks in the chain (1 for
/// non-chains); `cards` are the cards put down.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Play {
    /// Combination type.
    pub kind: PlayKind,
    /// Rank index that is compared (0 = `3` ... 14 = `RJ`).
    pub main_rank: u8,
    /// Chain length in ranks (1 when the type is not a chain).
    pub length: u8,
    /// The cards, packed like a hand.
    pub cards: Hand,
}

impl Play {
    /// Human name of the play's type.
    pub fn name(&self) -> &'static str {
        self.kind.name()
    }

    /// Number of cards put down.
    pub fn card_count(&self) -> u32 {
        self.cards.len()
    }

    /// True when `self` may be played on top of `other`.
    pub fn beats(&self, other: &Play) -> bool {
        match (self.kind, other.kind) {
            (_, PlayKind::Rocket) => false,
            (PlayKind::Rocket, _) => true,
            (PlayKind::Bomb, PlayKind::Bomb) => self.main_rank > other.main_rank,
            (PlayKind::Bomb, _) => true,
            (a, b) => a == b && self.length == other.length && self.main_rank > other.main_rank,
        }
    }

    /// What an answer depends on (type, length, main rank) in 13 bits, never 0: a
    /// transposition-table key for "the play to answer".
    pub(crate) fn answer_code(&self) -> u16 {
        1 | (u16::from(self.kind.index()) << 1)
            | (u16::from(self.length & 0xF) << 5)
            | (u16::from(self.main_rank & 0xF) << 9)
    }

    /// Canonical listing order: type, length, main rank, then cards.
    pub(crate) fn order_key(&self) -> (u8, u8, u8, u64) {
        (self.kind.index(), self.length, self.main_rank, self.cards.bits())
    }
}

impl fmt::Display for Play {
    /// The cards in ascending rank order, e.g. `3 3 3 4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.cards.fmt(f)
    }
}

/// Reads the cards of one play (hand notation) and tells which play they form under `rules`.
pub fn parse_play(text: &str, rules: &Rules) -> Result<Play, DoudizhuError> {
    let cards = parse_hand(text)?;
    if cards.is_empty() {
        return Err(DoudizhuError::EmptyPlay(text.to_string()));
    }
    classify(cards, rules).ok_or_else(|| DoudizhuError::NotAPlay(text.trim().to_string()))
}

/// The play made of exactly `cards`, if those cards form one under `rules`.
pub fn classify(cards: Hand, rules: &Rules) -> Option<Play> {
    whole_hand_play(cards, rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_and_names() {
        let r = Rules::default();
        let p = parse_play("3 4 4 4", &r).unwrap();
        assert_eq!(p.kind, PlayKind::TrioSingle);
        assert_eq!(p.main_rank, 1);
        assert_eq!(p.name(), "trio with single");
        assert_eq!(p.to_string(), "3 4 4 4");
        let a = parse_play("33344455 66 77", &r).unwrap_err();
        assert!(matches!(a, DoudizhuError::NotAPlay(_)));
        let b = parse_play("333444 5566", &r).unwrap();
        assert_eq!(b.name(), "airplane with pairs");
        assert_eq!(parse_play("rj bj", &r).unwrap().kind, PlayKind::Rocket);
        // Trio+pair is off in the original rules.
        assert!(parse_play("33344", &Rules::original()).is_err());
    }

    #[test]
    fn comparison() {
        let r = Rules::default();
        let p = |s: &str| parse_play(s, &r).unwrap();
        assert!(p("4").beats(&p("3")));
        assert!(!p("3").beats(&p("3")));
        assert!(!p("4 4").beats(&p("3")));
        assert!(p("3333").beats(&p("2 2")));
        assert!(p("4444").beats(&p("3333")));
        assert!(p("BJ RJ").beats(&p("2222")));
        assert!(!p("2222").beats(&p("BJ RJ")));
        // Straights compare only at equal length.
        assert!(!p("45678 9").beats(&p("34567")));
        assert!(p("45678").beats(&p("34567")));
    }
}
