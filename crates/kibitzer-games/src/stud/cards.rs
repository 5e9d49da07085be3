//! Card indices and their notation.
//!
//! A card is a `u8` index `rank_index * 4 + suit` where `rank_index = rank - 2` (0 = deuce … 12 = ace)
//! and suit 0 = ♠ S, 1 = ♥ H, 2 = ♦ D, 3 = ♣ C. Ranks are spelled 2..=14 (J 11, Q 12, K 13, A 14).
//! Rank-major order keeps the four cards of a rank adjacent, which the evaluator tables rely on only
//! through `card_rank` / `card_suit`, so the layout is a documented convention, not a hidden one.

use super::error::StudError;

/// Number of cards in the deck.
pub const DECK_SIZE: usize = 52;
/// Suit letters in index order.
pub const SUIT_LETTERS: [char; 4] = ['S', 'H', 'D', 'C'];
/// Rank letters for ranks 2..=14, index `rank - 2`.
pub const RANK_LETTERS: [char; 13] = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];

/// The index of the card of `rank` (2..=14) and `suit` (0..=3).
pub fn card_index(rank: u8, suit: u8) -> Result<u8, StudError> {
    if !(2..=14).contains(&rank) {
        return Err(StudError::Rank(rank));
    }
    if suit > 3 {
        return Err(StudError::Suit(suit));
    }
    Ok((rank - 2) * 4 + suit)
}

/// Rank 2..=14 of a card index (meaningless but harmless for indices ≥ 52).
pub fn card_rank(card: u8) -> u8 {
    (card / 4).saturating_add(2)
}

/// Suit 0..=3 of a card index.
pub fn card_suit(card: u8) -> u8 {
    card % 4
}

/// Checks that a card index is in the deck.
pub fn check_card(card: u8) -> Result<u8, StudError> {
    if usize::from(card) < DECK_SIZE {
        Ok(card)
    } else {
        Err(StudError::CardIndex(card))
    }
}

/// Canonical two-letter name, e.g. `TS`, `8H`; `??` for an index outside the deck.
pub fn card_name(card: u8) -> String {
    if usize::from(card) >= DECK_SIZE {
        return "??".to_string();
    }
    let rank = RANK_LETTERS[usize::from(card / 4)];
    let suit = SUIT_LETTERS[usize::from(card % 4)];
    format!("{rank}{suit}")
}

/// Names of several cards separated by spaces.
pub fn cards_text(cards: &[u8]) -> String {
    cards.iter().map(|&c| card_name(c)).collect::<Vec<_>>().join(" ")
}

/// Parses one card: rank `2`–`9`, `T`/`10`, `J`, `Q`, `K`, `A`, then suit `S H D C` or `♠ ♥ ♦ ♣`;
/// case-insensitive. (The engine has the full notation reader; this one serves the native API.)
pub fn parse_card(token: &str) -> Result<u8, StudError> {
    let bad = |reason| StudError::BadCard {
        token: token.to_string(),
        reason,
    };
    let mut chars: Vec<char> = token.trim().chars().collect();
    let suit_char = chars.pop().ok_or_else(|| bad("empty card"))?;
    let suit = match suit_char.to_ascii_uppercase() {
        'S' | '♠' => 0,
        'H' | '♥' => 1,
        'D' | '♦' => 2,
        'C' | '♣' => 3,
        _ => return Err(bad("unknown suit")),
    };
    let rank_text: String = chars.iter().map(|c| c.to_ascii_uppercase()).collect();
    let rank = match rank_text.as_str() {
        "10" | "T" => 10,
        "J" => 11,
        "Q" => 12,
        "K" => 13,
        "A" => 14,
        "" => return Err(bad("missing rank")),
        single => match single.parse::<u8>() {
            Ok(r) if (2..=9).contains(&r) && single.len() == 1 => r,
            _ => return Err(bad("unknown rank")),
        },
    };
    card_index(rank, suit)
}

/// Parses cards separated by spaces or commas; a card given twice is an error.
pub fn parse_cards(text: &str) -> Result<Vec<u8>, StudError> {
    let mut cards = Vec::new();
    for token in text.split([' ', ',']).filter(|t| !t.trim().is_empty()) {
        let card = parse_card(token)?;
        if cards.contains(&card) {
            return Err(StudError::DuplicateCard(card_name(card)));
        }
        cards.push(card);
    }
    Ok(cards)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_rank_major_with_deuce_first() {
        assert_eq!(card_index(2, 0), Ok(0));
        assert_eq!(card_index(14, 3), Ok(51));
        assert_eq!(card_index(10, 2), Ok(34));
        for card in 0..52u8 {
            assert_eq!(card_index(card_rank(card), card_suit(card)), Ok(card));
            assert_eq!(parse_card(&card_name(card)), Ok(card));
        }
    }

    #[test]
    fn notation_accepts_ten_symbols_and_lower_case() {
        assert_eq!(parse_card("10d"), parse_card("TD"));
        assert_eq!(parse_card("a♠"), card_index(14, 0));
        assert_eq!(
            parse_cards("8S, TD TS 8H 8C").map(|c| cards_text(&c)),
            Ok("8S TD TS 8H 8C".to_string())
        );
    }

    #[test]
    fn bad_cards_are_named() {
        assert!(matches!(parse_card("1X"), Err(StudError::BadCard { .. })));
        assert!(matches!(parse_card("11S"), Err(StudError::BadCard { .. })));
        assert!(matches!(parse_card(""), Err(StudError::BadCard { .. })));
        assert!(matches!(parse_card("XX"), Err(StudError::BadCard { .. })));
        assert_eq!(parse_cards("8S 8s"), Err(StudError::DuplicateCard("8S".to_string())));
        assert_eq!(card_index(15, 0), Err(StudError::Rank(15)));
        assert_eq!(card_index(5, 4), Err(StudError::Suit(4)));
        assert_eq!(check_card(52), Err(StudError::CardIndex(52)));
        assert_eq!(card_name(200), "??");
    }
}
