//! Cards of the 104-card double deck plus printed jokers, and the original notation.
//!
//! A card is one byte: `suit * 13 + rank` (rank 0..=12 = A..K, suit 0..=3 = S H D C, the
//! order `docs/language.md` lists them), 52 is a printed joker `JK`. Card order (used for every
//! canonical listing) is therefore suit first, then rank, jokers last.

use super::error::RummyError;
use std::fmt;
use std::str::FromStr;

/// Rank letters in rank order A..K.
pub const RANK_CHARS: [char; 13] = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'];
/// Suit letters in suit order.
pub const SUIT_CHARS: [char; 4] = ['S', 'H', 'D', 'C'];

/// One card of the double deck, or a printed joker.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Card(u8);

impl Card {
    /// The printed joker.
    pub const JOKER: Card = Card(52);

    /// A natural card; `None` when rank > 12 or suit > 3.
    pub const fn new(rank: u8, suit: u8) -> Option<Card> {
        if rank < 13 && suit < 4 {
            Some(Card(suit * 13 + rank))
        } else {
            None
        }
    }

    /// The card with this index (0..=51 naturals, 52 joker).
    pub fn from_index(index: u8) -> Result<Card, RummyError> {
        if index <= 52 {
            Ok(Card(index))
        } else {
            Err(RummyError::BadCardIndex { index })
        }
    }

    /// 0..=51 for naturals, 52 for the joker.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Whether this is the printed joker.
    pub const fn is_joker(self) -> bool {
        self.0 == 52
    }

    /// Rank 0..=12 (A..K); `None` for the joker.
    pub const fn rank(self) -> Option<u8> {
        if self.0 < 52 {
            Some(self.0 % 13)
        } else {
            None
        }
    }

    /// Suit 0..=3 (S H D C); `None` for the joker.
    pub const fn suit(self) -> Option<u8> {
        if self.0 < 52 {
            Some(self.0 / 13)
        } else {
            None
        }
    }

    /// Deadwood value of a natural card: A 1, 2..10 face, J Q K 10 (jokers: see `Options`).
    pub const fn face_points(self) -> u32 {
        if self.0 < 52 {
            rank_points(self.0 % 13)
        } else {
            0
        }
    }

    /// Bit of this card in the module's 4 × 16 lane masks (suit lane, rank bit).
    pub(super) const fn lane_bit(self) -> u32 {
        (self.0 / 13) as u32 * 16 + (self.0 % 13) as u32
    }

    /// Inverse of `lane_bit` (only called with bits of natural cards).
    pub(super) const fn from_lane_bit(bit: u32) -> Card {
        Card(((bit / 16) * 13 + bit % 16) as u8)
    }
}

/// Points of a rank 0..=12.
pub const fn rank_points(rank: u8) -> u32 {
    if rank >= 9 {
        10
    } else {
        rank as u32 + 1
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.rank(), self.suit()) {
            (Some(r), Some(s)) => write!(f, "{}{}", RANK_CHARS[r as usize], SUIT_CHARS[s as usize]),
            _ => f.write_str("JK"),
        }
    }
}

impl FromStr for Card {
    type Err = RummyError;
    fn from_str(s: &str) -> Result<Card, RummyError> {
        let cards = parse_cards(s)?;
        match cards.as_slice() {
            [one] => Ok(*one),
            _ => Err(RummyError::UnknownRank {
                token: s.to_string(),
                rank: s.to_string(),
            }),
        }
    }
}

fn suit_of(c: char) -> Option<u8> {
    match c.to_ascii_uppercase() {
        'S' | '♠' | '♤' => Some(0),
        'H' | '♥' | '♡' => Some(1),
        'D' | '♦' | '♢' => Some(2),
        'C' | '♣' | '♧' => Some(3),
        _ => None,
    }
}

fn rank_of(c: char) -> Option<u8> {
    let c = c.to_ascii_uppercase();
    RANK_CHARS.iter().position(|&r| r == c).map(|r| r as u8)
}

fn is_separator(c: char) -> bool {
    c.is_whitespace() || c == ',' || c == ';'
}

/// Reads cards in the original notation: `2H3H4H`, `10H` or `TH`, `JK` for a joker, spaces or
/// commas allowed, case-insensitive. Copies are not limited here (see `Hand::from_cards`).
pub fn parse_cards(text: &str) -> Result<Vec<Card>, RummyError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if is_separator(c) {
            i += 1;
            continue;
        }
        let next = chars.get(i + 1).copied();
        if c.eq_ignore_ascii_case(&'J') && next.is_some_and(|n| n.eq_ignore_ascii_case(&'K')) {
            out.push(Card::JOKER);
            i += 2;
            continue;
        }
        let (rank, rank_len) = if c == '1' && next == Some('0') {
            (Some(9), 2)
        } else {
            (rank_of(c), 1)
        };
        // The token as written, for error messages only.
        let token = || -> String { chars[i..(i + rank_len + 1).min(chars.len())].iter().collect() };
        let Some(rank) = rank else {
            return Err(RummyError::UnknownRank {
                token: token(),
                rank: c.to_string(),
            });
        };
        let Some(&suit_char) = chars.get(i + rank_len) else {
            return Err(RummyError::MissingSuit { token: token() });
        };
        if is_separator(suit_char) {
            return Err(RummyError::MissingSuit {
                token: chars[i..i + rank_len].iter().collect(),
            });
        }
        let Some(suit) = suit_of(suit_char) else {
            return Err(RummyError::UnknownSuit {
                token: token(),
                suit: suit_char.to_string(),
            });
        };
        out.push(Card(suit * 13 + rank));
        i += rank_len + 1;
    }
    Ok(out)
}

/// Canonical printing: cards separated by one space, e.g. `TS 8H JK`.
pub fn format_cards(cards: &[Card]) -> String {
    let parts: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_seed_notation() {
        let cards = parse_cards("2H3H4H5H4H5H6H3C3C3D3D4D").unwrap();
        assert_eq!(cards.len(), 12);
        assert_eq!(format_cards(&cards[..3]), "2H 3H 4H");
        let cards = parse_cards("10h, th ;JK  as k♣").unwrap();
        assert_eq!(format_cards(&cards), "TH TH JK AS KC");
    }

    #[test]
    fn errors_name_the_token() {
        assert_eq!(parse_cards("2H 1X").unwrap_err().to_string(), "`1X`: unknown rank 1");
        assert_eq!(parse_cards("2H 8Z").unwrap_err().to_string(), "`8Z`: unknown suit Z");
        assert_eq!(parse_cards("2H 8").unwrap_err().to_string(), "`8`: missing suit");
        assert!(parse_cards("").unwrap().is_empty());
    }

    #[test]
    fn card_order_and_points() {
        let ace_s = Card::new(0, 0).unwrap();
        let king_c = Card::new(12, 3).unwrap();
        assert!(ace_s < king_c && king_c < Card::JOKER);
        assert_eq!(ace_s.face_points(), 1);
        assert_eq!(king_c.face_points(), 10);
        assert_eq!(Card::new(9, 1).unwrap().to_string(), "TH");
        assert_eq!(Card::from_lane_bit(king_c.lane_bit()), king_c);
    }
}

#[cfg(test)]
mod fuzz {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// Any text: parsed or refused with an error, never a panic; what parses prints back
        /// to the same cards.
        #[test]
        fn parser_never_panics(text in "[0-9AaTtJjQqKkSsHhDdCc♠♥♦♣XxZ ,;]{0,24}") {
            if let Ok(cards) = parse_cards(&text) {
                let again = parse_cards(&format_cards(&cards)).unwrap();
                prop_assert_eq!(again, cards);
            }
        }

        #[test]
        fn any_unicode_is_safe(text in "\\PC{0,16}") {
            let _ = parse_cards(&text);
            let _ = super::super::hand::Hand::parse(&text);
        }
    }
}
