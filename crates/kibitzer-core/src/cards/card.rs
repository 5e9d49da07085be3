//! A single card of the 52-card deck, packed in one byte.

use std::fmt;

/// The four suits, in the order spades, hearts, diamonds, clubs (the notation's `S H D C`, see
/// `README.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// Spades: `S` or `♠`.
    Spades,
    /// Hearts: `H` or `♥`.
    Hearts,
    /// Diamonds: `D` or `♦`.
    Diamonds,
    /// Clubs: `C` or `♣`.
    Clubs,
}

impl Suit {
    /// All suits in canonical order.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// 0..4 in canonical order.
    pub fn index(self) -> u8 {
        self as u8
    }

    /// The suit with this index (0..4), if any.
    pub fn from_index(i: u8) -> Option<Suit> {
        Suit::ALL.get(i as usize).copied()
    }

    /// `S`, `H`, `D`, `C`.
    pub fn letter(self) -> char {
        ['S', 'H', 'D', 'C'][self as usize]
    }

    /// `♠`, `♥`, `♦`, `♣`.
    pub fn symbol(self) -> char {
        ['♠', '♥', '♦', '♣'][self as usize]
    }

    /// `spades`, `hearts`, `diamonds`, `clubs`.
    pub fn name(self) -> &'static str {
        ["spades", "hearts", "diamonds", "clubs"][self as usize]
    }
}

/// A card: rank 2..=14 (ace high) and suit, packed as `(rank - 2) * 4 + suit`, so cards sort by rank
/// first and the 52 cards are the bytes 0..52.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The card of this rank (2..=14) and suit, if the rank is valid.
    pub fn new(rank: u8, suit: Suit) -> Option<Card> {
        (2..=14).contains(&rank).then(|| Card((rank - 2) * 4 + suit.index()))
    }

    /// The card with this deck index (0..52), if valid.
    pub fn from_index(i: u8) -> Option<Card> {
        (i < 52).then_some(Card(i))
    }

    /// 0..52.
    pub fn index(self) -> u8 {
        self.0
    }

    /// 2..=14; the ace is 14.
    pub fn rank(self) -> u8 {
        self.0 / 4 + 2
    }

    /// The suit.
    pub fn suit(self) -> Suit {
        Suit::ALL[(self.0 % 4) as usize]
    }

    /// Every card of the deck, in index order.
    pub fn deck() -> impl Iterator<Item = Card> {
        (0..52).map(Card)
    }

    /// `8♠`, `10♦`: the form shown to people.
    pub fn pretty(self) -> String {
        format!("{}{}", rank_label(self.rank()), self.suit().symbol())
    }
}

/// `2`..`10`, `J`, `Q`, `K`, `A` (people's form; `10`, not `T`).
pub fn rank_label(rank: u8) -> &'static str {
    const LABELS: [&str; 13] = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
    LABELS.get((rank as usize).wrapping_sub(2)).copied().unwrap_or("?")
}

/// `2`..`9`, `T`, `J`, `Q`, `K`, `A` (the canonical, one-letter form).
pub fn rank_letter(rank: u8) -> char {
    b"23456789TJQKA"
        .get((rank as usize).wrapping_sub(2))
        .map_or('?', |b| *b as char)
}

/// `twos` … `tens`, `jacks`, `queens`, `kings`, `aces`.
pub fn rank_plural(rank: u8) -> &'static str {
    const NAMES: [&str; 13] = [
        "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks", "queens", "kings",
        "aces",
    ];
    NAMES.get((rank as usize).wrapping_sub(2)).copied().unwrap_or("?")
}

impl fmt::Display for Card {
    /// The canonical form: `8S`, `TD`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", rank_letter(self.rank()), self.suit().letter())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
