//! Reading cards as people write them (the notation of `README.md`): `8S`, `10d`, `T♦`, `XX`, separated by spaces or
//! commas or written together (`2H3H4H`). Every error names the token and why; nothing panics.

use super::card::{Card, Suit};
use super::hand::Cards;
use thiserror::Error;

/// Why a card string was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum NotationError {
    /// A rank that is not 2–10, T, J, Q, K, A.
    #[error("`{token}`: unknown rank {rank}")]
    UnknownRank {
        /// The card text as written.
        token: String,
        /// The rank part of it.
        rank: String,
    },
    /// A suit that is not S H D C or ♠ ♥ ♦ ♣.
    #[error("`{token}`: unknown suit {suit}")]
    UnknownSuit {
        /// The card text as written.
        token: String,
        /// The suit part of it.
        suit: String,
    },
    /// A rank with no suit after it.
    #[error("`{token}`: missing suit")]
    MissingSuit {
        /// The card text as written.
        token: String,
    },
    /// The same card more often than the deck holds it.
    #[error("{card} appears {times} times (the deck has {allowed})")]
    TooManyCopies {
        /// The card, in canonical notation.
        card: String,
        /// How often it was given.
        times: usize,
        /// How many copies the deck holds.
        allowed: usize,
    },
    /// Fewer or more cards than the input allows.
    #[error("{what} needs {expected} cards, got {got}")]
    WrongCount {
        /// The input's name.
        what: String,
        /// The count allowed, as text (`5`, `at least 2`, `2 to 5`).
        expected: String,
        /// The count given.
        got: usize,
    },
    /// `XX` where it is not allowed, or too many of them.
    #[error("{what} allows {allowed} hidden card(s) `XX`, got {got}")]
    TooManyHidden {
        /// The input's name.
        what: String,
        /// The number of hidden cards allowed, as text (`0`, `1 to 2`).
        allowed: String,
        /// The number given.
        got: usize,
    },
    /// A value that should be a number, a bool, …
    #[error("`{token}`: {why}")]
    BadValue {
        /// The value as written.
        token: String,
        /// Why it was refused.
        why: String,
    },
}

/// What a `cards(...)` input accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardSpec {
    /// The fewest cards allowed, hidden ones included.
    pub min: usize,
    /// The most cards allowed, hidden ones included.
    pub max: usize,
    /// The fewest hidden cards `XX` allowed.
    pub hidden_min: usize,
    /// The most hidden cards `XX` allowed.
    pub hidden_max: usize,
    /// Copies of each card in the deck: 1 for a single deck, 2 for rummy's double deck.
    pub copies: usize,
}

impl Default for CardSpec {
    fn default() -> Self {
        CardSpec {
            min: 0,
            max: usize::MAX,
            hidden_min: 0,
            hidden_max: 0,
            copies: 1,
        }
    }
}

/// Reads one card such as `8S`, `10♦`, `ah`.
pub fn parse_card(token: &str) -> Result<Card, NotationError> {
    let mut cards = Vec::new();
    let mut hidden = 0;
    let token = token.trim();
    if token.contains(char::is_whitespace) {
        // Shown escaped, so that the message stays on one line.
        return Err(NotationError::BadValue {
            token: token.escape_debug().to_string(),
            why: "expected exactly one card (white space inside)".into(),
        });
    }
    read_token(token, &mut cards, &mut hidden)?;
    match (cards.as_slice(), hidden) {
        ([c], 0) => Ok(*c),
        _ => Err(NotationError::BadValue {
            token: token.to_string(),
            why: "expected exactly one card".into(),
        }),
    }
}

/// Reads a list of cards and checks it against `spec`; `what` names the input in messages.
pub fn parse_cards(text: &str, spec: &CardSpec, what: &str) -> Result<Cards, NotationError> {
    let mut cards = Vec::new();
    let mut hidden = 0usize;
    for token in text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
    {
        read_token(token, &mut cards, &mut hidden)?;
    }
    let total = cards.len() + hidden;
    if total < spec.min || total > spec.max {
        let expected = if spec.min == spec.max {
            spec.min.to_string()
        } else if spec.max == usize::MAX {
            format!("at least {}", spec.min)
        } else {
            format!("{} to {}", spec.min, spec.max)
        };
        return Err(NotationError::WrongCount {
            what: what.to_string(),
            expected,
            got: total,
        });
    }
    if hidden < spec.hidden_min || hidden > spec.hidden_max {
        let allowed = if spec.hidden_min == spec.hidden_max {
            spec.hidden_min.to_string()
        } else {
            format!("{} to {}", spec.hidden_min, spec.hidden_max)
        };
        return Err(NotationError::TooManyHidden {
            what: what.to_string(),
            allowed,
            got: hidden,
        });
    }
    let mut counts = [0usize; 52];
    for c in &cards {
        counts[c.index() as usize] += 1;
        if counts[c.index() as usize] > spec.copies {
            return Err(NotationError::TooManyCopies {
                card: c.to_string(),
                times: counts[c.index() as usize],
                allowed: spec.copies,
            });
        }
    }
    Ok(Cards::new(cards, hidden.min(255) as u8))
}

/// Reads one whitespace-free token, which may hold several cards written together.
fn read_token(token: &str, cards: &mut Vec<Card>, hidden: &mut usize) -> Result<(), NotationError> {
    let chars: Vec<char> = token.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].eq_ignore_ascii_case(&'x') && chars.get(i + 1).is_some_and(|c| c.eq_ignore_ascii_case(&'x')) {
            *hidden += 1;
            i += 2;
            continue;
        }
        let (rank, used) = match (chars[i], chars.get(i + 1)) {
            ('1', Some('0')) => (10, 2),
            (c, _) => match c.to_ascii_uppercase() {
                d @ '2'..='9' => (d as u8 - b'0', 1),
                'T' => (10, 1),
                'J' => (11, 1),
                'Q' => (12, 1),
                'K' => (13, 1),
                'A' => (14, 1),
                _ => {
                    return Err(NotationError::UnknownRank {
                        token: token.to_string(),
                        rank: chars[i..]
                            .iter()
                            .take_while(|c| c.is_alphanumeric())
                            .take(2)
                            .collect::<String>()
                            .chars()
                            .next()
                            .map_or_else(String::new, |c| c.to_string()),
                    })
                }
            },
        };
        i += used;
        let Some(&s) = chars.get(i) else {
            return Err(NotationError::MissingSuit {
                token: token.to_string(),
            });
        };
        let suit = match s.to_ascii_uppercase() {
            'S' | '♠' | '♤' => Suit::Spades,
            'H' | '♥' | '♡' => Suit::Hearts,
            'D' | '♦' | '♢' => Suit::Diamonds,
            'C' | '♣' | '♧' => Suit::Clubs,
            other => {
                return Err(NotationError::UnknownSuit {
                    token: token.to_string(),
                    suit: other.to_string(),
                })
            }
        };
        i += 1;
        if let Some(card) = Card::new(rank, suit) {
            cards.push(card);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn five() -> CardSpec {
        CardSpec {
            min: 5,
            max: 5,
            ..CardSpec::default()
        }
    }

    #[test]
    fn reads_every_spelling() {
        let c = parse_cards("8S 10d, t♦ ah 2c", &five(), "hand");
        // 10d and t♦ are the same card: refused below; here check the spelling variety separately.
        assert!(matches!(c, Err(NotationError::TooManyCopies { .. })));
        let c = parse_cards("8S 10d qh ah 2♣", &five(), "hand").unwrap();
        assert_eq!(c.to_string(), "8S TD QH AH 2C");
        let c = parse_cards("2H3H4H5H10H", &five(), "hand").unwrap();
        assert_eq!(c.to_string(), "2H 3H 4H 5H TH");
    }

    #[test]
    fn errors_name_the_token() {
        let e = parse_cards("1X 2S", &CardSpec::default(), "hand").unwrap_err();
        assert_eq!(e.to_string(), "`1X`: unknown rank 1");
        let e = parse_cards("8X", &CardSpec::default(), "hand").unwrap_err();
        assert_eq!(e.to_string(), "`8X`: unknown suit X");
        let e = parse_cards("8S 8S 2C 3C 4C", &five(), "hand").unwrap_err();
        assert_eq!(e.to_string(), "8S appears 2 times (the deck has 1)");
        let e = parse_cards("8S 9S 2C 3C", &five(), "stud").unwrap_err();
        assert_eq!(e.to_string(), "stud needs 5 cards, got 4");
        let e = parse_cards("XX 9S 2C 3C 4C", &five(), "hand").unwrap_err();
        assert_eq!(e.to_string(), "hand allows 0 hidden card(s) `XX`, got 1");
        let e = parse_cards("8", &CardSpec::default(), "hand").unwrap_err();
        assert_eq!(e.to_string(), "`8`: missing suit");
    }

    #[test]
    fn hidden_cards() {
        let spec = CardSpec {
            min: 5,
            max: 5,
            hidden_min: 1,
            hidden_max: 1,
            copies: 1,
        };
        let c = parse_cards("XX 3C 5D 4H 6H", &spec, "opponent").unwrap();
        assert_eq!(c.hidden(), 1);
        assert_eq!(c.to_string(), "XX 3C 5D 4H 6H");
        assert_eq!(c.pretty(), "XX 3♣ 5♦ 4♥ 6♥");
    }

    #[test]
    fn an_empty_group_reads_no_cards_for_people() {
        let open = CardSpec::default();
        let empty = parse_cards("", &open, "dead").unwrap();
        assert_eq!(
            (empty.to_string(), empty.pretty()),
            (String::new(), "no cards".to_string())
        );
        let hidden = CardSpec {
            hidden_max: 1,
            ..CardSpec::default()
        };
        assert_eq!(parse_cards("XX", &hidden, "opponent").unwrap().pretty(), "XX");
    }
}
