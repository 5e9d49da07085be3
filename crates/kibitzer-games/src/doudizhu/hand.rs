//! A hand as packed rank counts, its notation reader and its canonical printing.
//!
//! Suits never matter in dou dizhu, so a hand is just how many cards of each of the
//! 15 ranks it holds: 4 bits per rank in one `u64` (rank 0 = `3` in the low nibble,
//! ..., 11 = `A`, 12 = `2`, 13 = `BJ`, 14 = `RJ`). Adding and removing plays are then
//! plain integer additions and subtractions, and a hand is a cheap hash key.

use std::fmt;

use super::error::DoudizhuError;

/// Number of ranks: `3 4 5 6 7 8 9 T J Q K A 2 BJ RJ`.
pub const RANKS: usize = 15;
/// Rank index of the `A` (the highest rank a chain may reach).
pub const ACE: u8 = 11;
/// Rank index of the small (black) joker.
pub const BLACK_JOKER: u8 = 13;
/// Rank index of the big (red) joker.
pub const RED_JOKER: u8 = 14;

/// The high bit of every nibble: used to compare all counts at once.
pub(crate) const HIGH_BITS: u64 = 0x0888_8888_8888_8888;
/// One in every nibble.
pub(crate) const ONES: u64 = 0x0111_1111_1111_1111;

const RANK_NAMES: [&str; RANKS] = [
    "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "BJ", "RJ",
];

/// A multiset of ranks (a player's cards, or the cards of one play).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hand(pub(crate) u64);

impl Hand {
    /// The empty hand.
    pub const EMPTY: Hand = Hand(0);

    /// The packed counts (4 bits per rank, rank 0 lowest).
    pub fn bits(self) -> u64 {
        self.0
    }

    /// Builds a hand from per-rank counts; `None` if a count is impossible.
    pub fn from_counts(counts: &[u8; RANKS]) -> Option<Hand> {
        let mut bits = 0u64;
        for (rank, &count) in counts.iter().enumerate() {
            if count > max_copies(rank as u8) {
                return None;
            }
            bits |= u64::from(count) << (4 * rank);
        }
        Some(Hand(bits))
    }

    /// How many cards of `rank` (0..15) the hand holds; 0 for any other index.
    #[inline]
    pub fn count(self, rank: u8) -> u8 {
        if usize::from(rank) >= RANKS {
            return 0;
        }
        ((self.0 >> (4 * u32::from(rank))) & 0xF) as u8
    }

    /// Per-rank counts, lowest rank first.
    pub fn counts(self) -> [u8; RANKS] {
        let mut out = [0u8; RANKS];
        for (rank, slot) in out.iter_mut().enumerate() {
            *slot = self.count(rank as u8);
        }
        out
    }

    /// Number of cards.
    #[inline]
    pub fn len(self) -> u32 {
        // Sum of nibbles: fold pairs of nibbles into bytes, then sum bytes by multiplication.
        let bytes = (self.0 & 0x0F0F_0F0F_0F0F_0F0F) + ((self.0 >> 4) & 0x0F0F_0F0F_0F0F_0F0F);
        (bytes.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
    }

    /// True when the hand holds no card.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when every card of `other` is in `self` (with multiplicity).
    #[inline]
    pub fn contains(self, other: Hand) -> bool {
        ((self.0 | HIGH_BITS).wrapping_sub(other.0) & HIGH_BITS) == HIGH_BITS
    }

    /// The hand without the cards of `other`; the caller guarantees `self.contains(other)`.
    #[inline]
    pub(crate) fn minus(self, other: Hand) -> Hand {
        Hand(self.0 - other.0)
    }

    /// The union of two hands, or an error naming the first rank that would exceed a deck.
    pub fn checked_union(self, other: Hand) -> Result<Hand, DoudizhuError> {
        let mut counts = self.counts();
        for (rank, slot) in counts.iter_mut().enumerate() {
            *slot += other.count(rank as u8);
            if *slot > max_copies(rank as u8) {
                let name = rank_name(rank as u8).to_string();
                return Err(if rank as u8 >= BLACK_JOKER {
                    DoudizhuError::DuplicateJoker(name)
                } else {
                    DoudizhuError::FifthCopy(name)
                });
            }
        }
        Ok(Hand::from_counts(&counts).unwrap_or_default())
    }

    /// The hand with `n` more cards of `rank` (no validity check: internal use).
    #[inline]
    pub(crate) fn with_added(self, rank: u8, n: u8) -> Hand {
        Hand(self.0 + (u64::from(n) << (4 * u32::from(rank))))
    }

    /// Bit `r` set when rank `r` has at least `k` cards (k in 1..=4).
    #[inline]
    pub(crate) fn ranks_with_at_least(self, k: u8) -> u16 {
        let probe = (self.0 + u64::from(8 - k) * ONES) & HIGH_BITS;
        compress_high_bits(probe)
    }
}

/// Gathers bit 4r+3 of `x` into bit r of the result (branch-free: the move generator asks
/// for these masks at every position).
#[inline]
fn compress_high_bits(x: u64) -> u16 {
    // Bit r at 4r, then fold neighbours together: 2 bits per byte, 4 per 16 bits, 8 per
    // 32 bits, 16 in all.
    let mut x = (x >> 3) & 0x1111_1111_1111_1111;
    x = (x | x >> 3) & 0x0303_0303_0303_0303;
    x = (x | x >> 6) & 0x000F_000F_000F_000F;
    x = (x | x >> 12) & 0x0000_00FF_0000_00FF;
    x = (x | x >> 24) & 0xFFFF;
    x as u16
}

/// The most copies of `rank` a deck holds.
pub(crate) fn max_copies(rank: u8) -> u8 {
    if rank >= BLACK_JOKER {
        1
    } else {
        4
    }
}

/// Canonical name of a rank index (`T` for ten, `BJ`/`RJ` for the jokers).
pub fn rank_name(rank: u8) -> &'static str {
    RANK_NAMES.get(usize::from(rank)).copied().unwrap_or("?")
}

impl fmt::Display for Hand {
    /// Ascending ranks separated by spaces, e.g. `3 3 3 4` or `BJ RJ`; empty hand prints nothing.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for rank in 0..RANKS as u8 {
            for _ in 0..self.count(rank) {
                if !first {
                    f.write_str(" ")?;
                }
                f.write_str(rank_name(rank))?;
                first = false;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hand({self})")
    }
}

impl std::str::FromStr for Hand {
    type Err = DoudizhuError;
    fn from_str(s: &str) -> Result<Hand, DoudizhuError> {
        parse_hand(s)
    }
}

/// Reads a hand: ranks `3`..`9`, `T` or `10`, `J Q K A 2`, jokers `BJ`/`RJ` (also `B`/`R`),
/// case-insensitive, separated by spaces or commas or written together (`33345`), with an
/// optional suit after a rank (`3S`, `10h`, `3♠`) that is ignored.
pub fn parse_hand(text: &str) -> Result<Hand, DoudizhuError> {
    let chars: Vec<char> = text.chars().collect();
    let mut counts = [0u8; RANKS];
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() || c == ',' {
            i += 1;
            continue;
        }
        let start = i;
        let upper = c.to_ascii_uppercase();
        let next = chars.get(i + 1).map(|n| n.to_ascii_uppercase());
        let rank = match (upper, next) {
            ('B', Some('J')) | ('R', Some('J')) => {
                i += 2;
                Some(if upper == 'B' { BLACK_JOKER } else { RED_JOKER })
            }
            ('B', _) | ('R', _) => {
                i += 1;
                Some(if upper == 'B' { BLACK_JOKER } else { RED_JOKER })
            }
            ('1', Some('0')) => {
                i += 2;
                Some(7)
            }
            _ => {
                i += 1;
                rank_of_char(upper)
            }
        };
        let Some(rank) = rank else {
            let token: String = chars[start..=start].iter().collect();
            return Err(DoudizhuError::UnknownRank(token));
        };
        // An optional suit letter or symbol right after a plain rank.
        if rank < BLACK_JOKER {
            if let Some(s) = chars.get(i) {
                if matches!(s.to_ascii_uppercase(), 'S' | 'H' | 'D' | 'C' | '♠' | '♥' | '♦' | '♣') {
                    i += 1;
                }
            }
        }
        let token: String = chars[start..i].iter().collect();
        let slot = &mut counts[usize::from(rank)];
        *slot += 1;
        if *slot > max_copies(rank) {
            return Err(if rank >= BLACK_JOKER {
                DoudizhuError::DuplicateJoker(token)
            } else {
                DoudizhuError::FifthCopy(token)
            });
        }
    }
    Ok(Hand::from_counts(&counts).unwrap_or_default())
}

fn rank_of_char(c: char) -> Option<u8> {
    Some(match c {
        '3'..='9' => c as u8 - b'3',
        'T' => 7,
        'J' => 8,
        'Q' => 9,
        'K' => 10,
        'A' => 11,
        '2' => 12,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_puzzle_hands_and_prints_them_canonically() {
        let h = parse_hand("3 3 3 3 4 5 6 7 T T A A A A").unwrap();
        assert_eq!(h.len(), 14);
        assert_eq!(h.count(0), 4);
        assert_eq!(h.to_string(), "3 3 3 3 4 5 6 7 T T A A A A");
        let j = parse_hand("RJ,bj").unwrap();
        assert_eq!(j.to_string(), "BJ RJ");
    }

    #[test]
    fn accepts_ten_suits_and_no_separators() {
        // `10` is the ten, suits are ignored, cards may be written together.
        let h = parse_hand("10h 3S3s4♠ qK a2").unwrap();
        assert_eq!(h.to_string(), "3 3 4 T Q K A 2");
    }

    #[test]
    fn errors_name_the_token() {
        assert_eq!(parse_hand("3 X"), Err(DoudizhuError::UnknownRank("X".into())));
        assert_eq!(parse_hand("3 3 3 3 3H"), Err(DoudizhuError::FifthCopy("3H".into())));
        assert_eq!(parse_hand("BJ bj"), Err(DoudizhuError::DuplicateJoker("bj".into())));
    }

    #[test]
    fn containment_and_rank_masks() {
        let h = parse_hand("3 3 3 4 4 RJ").unwrap();
        assert!(h.contains(parse_hand("3 3 4").unwrap()));
        assert!(!h.contains(parse_hand("3 3 3 3").unwrap()));
        assert!(!h.contains(parse_hand("BJ").unwrap()));
        assert_eq!(h.ranks_with_at_least(1), 0b100_0000_0000_0011);
        assert_eq!(h.ranks_with_at_least(2), 0b11);
        assert_eq!(h.ranks_with_at_least(3), 0b1);
    }

    #[test]
    fn rank_masks_match_a_plain_count() {
        let h = parse_hand("3 4 4 5 5 5 6 6 6 6 8 T T 2 2 2 2 BJ RJ").unwrap();
        for k in 1..=4u8 {
            let plain = (0..RANKS as u8)
                .filter(|&r| h.count(r) >= k)
                .fold(0u16, |m, r| m | 1 << r);
            assert_eq!(h.ranks_with_at_least(k), plain, "k = {k}");
        }
    }

    #[test]
    fn union_detects_a_fifth_copy() {
        let a = parse_hand("3 3 3").unwrap();
        let b = parse_hand("3 3").unwrap();
        assert_eq!(a.checked_union(b), Err(DoudizhuError::FifthCopy("3".into())));
    }
}

#[cfg(test)]
mod fuzz {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, .. ProptestConfig::default() })]
        #[test]
        fn parser_never_panics_and_round_trips(text in "[0-9TJQKAtjqkaBRbrSHDCshdc ,♠♥XZ]{0,30}") {
            if let Ok(hand) = parse_hand(&text) {
                prop_assert_eq!(parse_hand(&hand.to_string()), Ok(hand));
            }
        }
    }
}
