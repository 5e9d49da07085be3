//! Cards, suits, decks and card sets, with their text notation (`7S 10D TD A♠ kh`; see `docs/durak.md`).
//!
//! A card set is a 52-bit mask (bit = suit × 13 + rank − 2) because the engine and the hand-value
//! function spend their time on "does this hand hold a card of that rank/suit" questions, which a mask
//! answers with one `and`.

use super::error::DurakError;
use std::fmt;
use std::str::FromStr;

/// The four suits, in the fixed order ♠ ♥ ♦ ♣ used for every tie-break in this module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// ♠ (`S`).
    Spades = 0,
    /// ♥ (`H`).
    Hearts = 1,
    /// ♦ (`D`).
    Diamonds = 2,
    /// ♣ (`C`).
    Clubs = 3,
}

impl Suit {
    /// Every suit, in the order ♠ ♥ ♦ ♣.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The suit's place in [`Suit::ALL`]: 0 for ♠ … 3 for ♣.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The suit at place `i` of [`Suit::ALL`]; `None` above 3.
    pub fn from_index(i: usize) -> Option<Suit> {
        Suit::ALL.get(i).copied()
    }

    /// Canonical letter: `S H D C`.
    pub fn letter(self) -> char {
        ['S', 'H', 'D', 'C'][self.index()]
    }

    /// Pretty symbol: `♠ ♥ ♦ ♣`.
    pub fn symbol(self) -> char {
        ['♠', '♥', '♦', '♣'][self.index()]
    }

    /// English plural name, used in explanations ("clubs 3 vs 1.33 expected").
    pub fn name(self) -> &'static str {
        ["spades", "hearts", "diamonds", "clubs"][self.index()]
    }

    pub(crate) fn from_char(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'S' | '♠' | '♤' => Some(Suit::Spades),
            'H' | '♥' | '♡' => Some(Suit::Hearts),
            'D' | '♦' | '♢' => Some(Suit::Diamonds),
            'C' | '♣' | '♧' => Some(Suit::Clubs),
            _ => None,
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl FromStr for Suit {
    type Err = DurakError;
    fn from_str(s: &str) -> Result<Suit, DurakError> {
        let t = s.trim();
        let mut chars = t.chars();
        match (chars.next().and_then(Suit::from_char), chars.next()) {
            (Some(suit), None) => Ok(suit),
            _ => Err(DurakError::BadSuit(t.to_string())),
        }
    }
}

/// One card: rank 2..=14 (ace high) and suit. Ordered by rank, then suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card {
    rank: u8,
    suit: Suit,
}

impl Card {
    /// The ace of spades (A♠).
    pub const ACE_OF_SPADES: Card = Card {
        rank: 14,
        suit: Suit::Spades,
    };

    /// A card of rank 2..=14; any other rank is an error naming it.
    pub fn new(rank: u8, suit: Suit) -> Result<Card, DurakError> {
        if (2..=14).contains(&rank) {
            Ok(Card { rank, suit })
        } else {
            Err(DurakError::BadCard {
                token: format!("{rank}{}", suit.letter()),
                reason: format!("rank {rank} is not 2..14"),
            })
        }
    }

    /// The rank, 2..=14 (11 jack, 12 queen, 13 king, 14 ace).
    pub fn rank(self) -> u8 {
        self.rank
    }

    /// The card's suit.
    pub fn suit(self) -> Suit {
        self.suit
    }

    /// Bit index in a [`CardSet`]: suit × 13 + rank − 2.
    pub fn index(self) -> u32 {
        self.suit.index() as u32 * 13 + (self.rank as u32 - 2)
    }

    /// Inverse of [`Card::index`]; `None` above 51.
    pub fn from_index(i: u32) -> Option<Card> {
        let suit = Suit::from_index((i / 13) as usize)?;
        Some(Card {
            rank: (i % 13) as u8 + 2,
            suit,
        })
    }

    /// Does `self` beat `attack`? Same suit and higher rank, or a trump on a non-trump.
    pub fn beats(self, attack: Card, trump: Suit) -> bool {
        if self.suit == attack.suit {
            self.rank > attack.rank
        } else {
            self.suit == trump
        }
    }

    /// Every card that beats `self` when `trump` is trump, as a set (a mask, for the engine's
    /// "can the defender beat anything" questions).
    pub fn beaten_by(self, trump: Suit) -> CardSet {
        let above = (SUIT_MASK << (self.rank as u32 - 1)) & SUIT_MASK;
        let mut bits = above << (self.suit.index() * 13);
        if self.suit != trump {
            bits |= SUIT_MASK << (trump.index() * 13);
        }
        CardSet(bits)
    }

    /// Pretty form with the suit symbol and `10` spelled out: `10♠`.
    pub fn pretty(self) -> String {
        format!("{}{}", rank_pretty(self.rank), self.suit.symbol())
    }

    /// The tie-break key shared by every player and the policy: non-trumps before trumps, then rank,
    /// then suit ♠ ♥ ♦ ♣ — "the lowest card" is the minimum of this key.
    pub fn low_key(self, trump: Suit) -> (bool, u8, Suit) {
        (self.suit == trump, self.rank, self.suit)
    }
}

/// Canonical rank character: `2`–`9`, `T`, `J`, `Q`, `K`, `A`.
pub fn rank_char(rank: u8) -> char {
    match rank {
        10 => 'T',
        11 => 'J',
        12 => 'Q',
        13 => 'K',
        14 => 'A',
        r => char::from(b'0' + r.min(9)),
    }
}

/// Rank as a player writes it: `2`–`10`, `J`, `Q`, `K`, `A`.
pub fn rank_pretty(rank: u8) -> String {
    if rank == 10 {
        "10".to_string()
    } else {
        rank_char(rank).to_string()
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", rank_char(self.rank), self.suit.letter())
    }
}

impl FromStr for Card {
    type Err = DurakError;
    fn from_str(s: &str) -> Result<Card, DurakError> {
        let cards = parse_cards(s)?;
        match cards.as_slice() {
            [one] => Ok(*one),
            _ => Err(DurakError::BadCard {
                token: s.trim().to_string(),
                reason: format!("expected one card, found {}", cards.len()),
            }),
        }
    }
}

/// Reads one rank at the front of `chars`; returns the rank and how many chars it used.
fn read_rank(chars: &[char]) -> Result<(u8, usize), String> {
    let first = match chars.first() {
        Some(c) => c.to_ascii_uppercase(),
        None => return Err("missing rank".to_string()),
    };
    if first == '1' {
        return if chars.get(1) == Some(&'0') {
            Ok((10, 2))
        } else {
            Err("unknown rank 1 (write 10 or T)".to_string())
        };
    }
    let rank = match first {
        '2'..='9' => first as u8 - b'0',
        'T' => 10,
        'J' => 11,
        'Q' => 12,
        'K' => 13,
        'A' => 14,
        other => return Err(format!("unknown rank {other}")),
    };
    Ok((rank, 1))
}

/// Reads one token that may hold several cards written together (`7S8D`, `10H`).
fn parse_token(token: &str, out: &mut Vec<Card>) -> Result<(), DurakError> {
    let chars: Vec<char> = token.chars().collect();
    let bad = |reason: String| DurakError::BadCard {
        token: token.to_string(),
        reason,
    };
    let mut i = 0;
    while i < chars.len() {
        let (rank, used) = read_rank(&chars[i..]).map_err(bad)?;
        i += used;
        let suit = match chars.get(i) {
            None => return Err(bad("missing suit".to_string())),
            Some(&c) => Suit::from_char(c).ok_or_else(|| bad(format!("unknown suit {c}")))?,
        };
        i += 1;
        out.push(Card { rank, suit });
    }
    Ok(())
}

/// Parses a list of cards separated by spaces or commas (or written together), case-insensitive,
/// `10`/`T`, letters or suit symbols. Duplicates are an error naming the card.
pub fn parse_cards(s: &str) -> Result<Vec<Card>, DurakError> {
    let mut out = Vec::new();
    for token in s
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
    {
        parse_token(token, &mut out)?;
    }
    let mut seen = CardSet::EMPTY;
    for &c in &out {
        if seen.contains(c) {
            return Err(DurakError::DuplicateCard(c.to_string()));
        }
        seen.insert(c);
    }
    Ok(out)
}

/// [`parse_cards`] plus a check that every card belongs to `deck`.
pub fn parse_cards_in_deck(s: &str, deck: Deck) -> Result<Vec<Card>, DurakError> {
    let cards = parse_cards(s)?;
    if let Some(c) = cards.iter().find(|c| !deck.contains(**c)) {
        return Err(DurakError::CardNotInDeck {
            card: c.to_string(),
            deck: deck.size(),
        });
    }
    Ok(cards)
}

/// Canonical list: `7S TD AH`.
pub fn format_cards(cards: &[Card]) -> String {
    let parts: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
    parts.join(" ")
}

/// Pretty list: `7♠ 10♦ A♥`.
pub fn pretty_cards(cards: &[Card]) -> String {
    let parts: Vec<String> = cards.iter().map(|c| c.pretty()).collect();
    parts.join(" ")
}

/// The four deck sizes (24, 32, 36, 52 cards); each holds every suit from its lowest rank up to the ace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Deck {
    /// 9..A
    Cards24,
    /// 7..A
    Cards32,
    /// 6..A, the default.
    #[default]
    Cards36,
    /// 2..A, the original deck.
    Cards52,
}

impl Deck {
    /// Number of cards in the deck: 24, 32, 36 or 52.
    pub fn size(self) -> usize {
        (15 - self.lowest_rank() as usize) * 4
    }

    /// The deck's lowest rank (9, 7, 6 or 2); every suit runs from it up to the ace.
    pub fn lowest_rank(self) -> u8 {
        match self {
            Deck::Cards24 => 9,
            Deck::Cards32 => 7,
            Deck::Cards36 => 6,
            Deck::Cards52 => 2,
        }
    }

    /// The deck of `size` cards; any size other than 24, 32, 36 or 52 is an error.
    pub fn from_size(size: usize) -> Result<Deck, DurakError> {
        match size {
            24 => Ok(Deck::Cards24),
            32 => Ok(Deck::Cards32),
            36 => Ok(Deck::Cards36),
            52 => Ok(Deck::Cards52),
            other => Err(DurakError::BadDeck(other.to_string())),
        }
    }

    /// Whether the deck holds `card` (its rank is at least the deck's lowest).
    pub fn contains(self, card: Card) -> bool {
        card.rank >= self.lowest_rank()
    }

    /// Every card of the deck in ascending card-index order (♠ low to high, then ♥, ♦, ♣).
    pub fn cards(self) -> Vec<Card> {
        self.set().iter().collect()
    }

    /// The deck as a card set.
    pub fn set(self) -> CardSet {
        let low = self.lowest_rank() as u32 - 2;
        let suit_bits: u64 = ((1u64 << 13) - 1) & !((1u64 << low) - 1);
        CardSet(suit_bits | suit_bits << 13 | suit_bits << 26 | suit_bits << 39)
    }
}

impl FromStr for Deck {
    type Err = DurakError;
    fn from_str(s: &str) -> Result<Deck, DurakError> {
        let t = s.trim();
        t.parse::<usize>()
            .map_err(|_| DurakError::BadDeck(t.to_string()))
            .and_then(Deck::from_size)
            .map_err(|_| DurakError::BadDeck(t.to_string()))
    }
}

/// A set of cards as a 52-bit mask. Iteration is in ascending card index (suit-major).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CardSet(pub u64);

const SUIT_MASK: u64 = (1 << 13) - 1;

impl CardSet {
    /// The set with no cards.
    pub const EMPTY: CardSet = CardSet(0);

    /// The set of the given cards (a card listed twice counts once).
    pub fn from_cards(cards: &[Card]) -> CardSet {
        let mut s = CardSet::EMPTY;
        for &c in cards {
            s.insert(c);
        }
        s
    }

    /// The raw 52-bit mask (bit = suit × 13 + rank − 2).
    pub fn bits(self) -> u64 {
        self.0
    }

    /// Whether the set holds `c`.
    pub fn contains(self, c: Card) -> bool {
        self.0 >> c.index() & 1 == 1
    }

    /// Adds `c` to the set.
    pub fn insert(&mut self, c: Card) {
        self.0 |= 1 << c.index();
    }

    /// Removes `c` from the set.
    pub fn remove(&mut self, c: Card) {
        self.0 &= !(1 << c.index());
    }

    /// A copy of the set with `c` added.
    pub fn with(self, c: Card) -> CardSet {
        CardSet(self.0 | 1 << c.index())
    }

    /// A copy of the set with `c` removed.
    pub fn without(self, c: Card) -> CardSet {
        CardSet(self.0 & !(1 << c.index()))
    }

    /// The cards in either set.
    pub fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    /// The cards in both sets.
    pub fn intersection(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    /// Whether the two sets share any card.
    pub fn intersects(self, other: CardSet) -> bool {
        self.0 & other.0 != 0
    }

    /// How many cards the set holds.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set holds no card.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The 13-bit rank mask of one suit (bit = rank − 2).
    pub fn suit_bits(self, suit: Suit) -> u64 {
        self.0 >> (suit.index() * 13) & SUIT_MASK
    }

    /// How many cards of `suit` the set holds.
    pub fn count_suit(self, suit: Suit) -> usize {
        self.suit_bits(suit).count_ones() as usize
    }

    /// Ranks present in any suit (bit = rank − 2).
    pub fn rank_mask(self) -> u64 {
        (self.0 | self.0 >> 13 | self.0 >> 26 | self.0 >> 39) & SUIT_MASK
    }

    /// How many cards of `rank` the set holds.
    pub fn count_rank(self, rank: u8) -> usize {
        const SPREAD: u64 = 1 | 1 << 13 | 1 << 26 | 1 << 39;
        (self.0 >> (rank as u32 - 2) & SPREAD).count_ones() as usize
    }

    /// The cards in ascending card index (♠ low to high, then ♥, ♦, ♣).
    pub fn iter(self) -> CardIter {
        CardIter(self.0)
    }

    /// The cards as a vector, in ascending card index.
    pub fn to_vec(self) -> Vec<Card> {
        self.iter().collect()
    }
}

/// Iterator over a [`CardSet`], ascending card index.
pub struct CardIter(u64);

impl Iterator for CardIter {
    type Item = Card;
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Card::from_index(i)
    }
}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", format_cards(&self.to_vec()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn parses_every_notation() {
        // Letters, `10` and `T`, symbols, lower case, commas, written together.
        let cards = parse_cards("7S, 10d td? ").unwrap_err();
        assert_eq!(cards.to_string(), "`td?`: unknown rank ?");
        let cards = parse_cards("7s,10D  A♠ kh").unwrap();
        assert_eq!(format_cards(&cards), "7S TD AS KH");
        assert_eq!(pretty_cards(&cards), "7♠ 10♦ A♠ K♥");
        let together = parse_cards("2H3H10H").unwrap();
        assert_eq!(format_cards(&together), "2H 3H TH");
    }

    #[test]
    fn errors_name_the_token() {
        assert_eq!(
            parse_cards("7S 1X").unwrap_err().to_string(),
            "`1X`: unknown rank 1 (write 10 or T)"
        );
        assert_eq!(parse_cards("7X").unwrap_err().to_string(), "`7X`: unknown suit X");
        assert_eq!(parse_cards("Q").unwrap_err().to_string(), "`Q`: missing suit");
        assert_eq!(parse_cards("7S 8D 7s").unwrap_err().to_string(), "7S appears twice");
        assert_eq!(
            parse_cards_in_deck("2S", Deck::Cards36).unwrap_err().to_string(),
            "2S is not in the 36-card deck"
        );
        assert!("".parse::<Card>().is_err());
        assert!("7S8S".parse::<Card>().is_err());
    }

    #[test]
    fn decks_have_the_right_cards() {
        for (deck, size, low) in [
            (Deck::Cards24, 24, "9S"),
            (Deck::Cards32, 32, "7S"),
            (Deck::Cards36, 36, "6S"),
            (Deck::Cards52, 52, "2S"),
        ] {
            let cards = deck.cards();
            assert_eq!(cards.len(), size);
            assert_eq!(deck.size(), size);
            assert_eq!(cards[0], c(low));
            assert!(cards.contains(&c("AC")));
            assert_eq!(deck.set().len(), size);
            assert_eq!(size.to_string().parse::<Deck>().unwrap(), deck);
        }
        assert!("40".parse::<Deck>().is_err());
    }

    #[test]
    fn card_set_counts() {
        let s = CardSet::from_cards(&parse_cards("7S 7H 7C 9D AS").unwrap());
        assert_eq!(s.len(), 5);
        assert_eq!(s.count_rank(7), 3);
        assert_eq!(s.count_rank(14), 1);
        assert_eq!(s.count_suit(Suit::Spades), 2);
        assert_eq!(s.rank_mask(), 1 << 5 | 1 << 7 | 1 << 12);
        for i in 0..52 {
            let card = Card::from_index(i).unwrap();
            assert_eq!(card.index(), i);
        }
        assert!(Card::from_index(52).is_none());
    }

    #[test]
    fn beating() {
        // Same suit higher wins; any trump beats any non-trump; off-suit non-trump never beats.
        assert!(c("9S").beats(c("7S"), Suit::Hearts));
        assert!(!c("7S").beats(c("9S"), Suit::Hearts));
        assert!(c("6H").beats(c("AS"), Suit::Hearts));
        assert!(!c("AS").beats(c("6H"), Suit::Hearts));
        assert!(!c("AD").beats(c("6S"), Suit::Hearts));
        // The mask agrees with `beats` on every pair.
        for a in Deck::Cards52.cards() {
            for trump in Suit::ALL {
                let mask = a.beaten_by(trump);
                for d in Deck::Cards52.cards() {
                    assert_eq!(mask.contains(d), d.beats(a, trump), "{d} on {a}");
                }
            }
        }
    }
}
