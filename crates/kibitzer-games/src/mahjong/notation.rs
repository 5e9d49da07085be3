//! Reading and writing tiles, hands and melds (`docs/language.md`).
//!
//! Tiles: `1m`–`9m`, `1p`–`9p`, `1s`–`9s`, honours `E S W N P F C` (also `1z`–`7z` and 東南西北白發中).
//! Digits collect until a suit letter, so `123m55z` is 1m 2m 3m P P; spaces and commas are optional
//! between tiles. A letter right after digits is always a suit (`5P` is 5p); a letter with no digits
//! before it is an honour (`P` is the white dragon).
//!
//! Melds: groups separated by spaces or commas, each a sequence (`123m`), a triplet (`777m`, `PPP`),
//! an exposed quad (`7777m`) or a concealed quad in brackets (`[CCCC]`).
//! Canonical output: suits in the order m p s, honours last as letters, one space between suits:
//! `1112345678999m EEE`.

use super::error::MahjongError;
use super::meld::{meld_counts, Meld};
use super::tile::{tile_count, tiles_of, Counts, Suit, Tile, HONOR_LETTERS, KINDS, NO_TILES};

/// Reads a list of tiles in any accepted notation; no copy limit is checked here.
pub fn parse_tiles(text: &str) -> Result<Vec<Tile>, MahjongError> {
    let mut tiles = Vec::new();
    let mut digits = String::new();
    for ch in text.chars() {
        if ch.is_ascii_digit() {
            digits.push(ch);
            continue;
        }
        if ch.is_whitespace() || ch == ',' {
            if !digits.is_empty() {
                return Err(MahjongError::MissingSuit { token: digits });
            }
            continue;
        }
        if !digits.is_empty() {
            let suit = match ch.to_ascii_lowercase() {
                'm' => Suit::Man,
                'p' => Suit::Pin,
                's' => Suit::Sou,
                'z' => Suit::Honor,
                _ => {
                    return Err(MahjongError::UnknownTile {
                        token: format!("{digits}{ch}"),
                        reason: format!("unknown suit {ch}"),
                    })
                }
            };
            for d in digits.chars() {
                let rank = d as u8 - b'0';
                let tile = Tile::new(suit, rank).ok_or_else(|| MahjongError::UnknownTile {
                    token: format!("{d}{ch}"),
                    reason: if suit == Suit::Honor {
                        "honours are 1z–7z".to_string()
                    } else {
                        "ranks are 1–9".to_string()
                    },
                })?;
                tiles.push(tile);
            }
            digits.clear();
            continue;
        }
        tiles.push(honour_from_char(ch)?);
    }
    if !digits.is_empty() {
        return Err(MahjongError::MissingSuit { token: digits });
    }
    Ok(tiles)
}

fn honour_from_char(ch: char) -> Result<Tile, MahjongError> {
    let rank = match ch {
        '東' | '东' => 1,
        '南' => 2,
        '西' => 3,
        '北' => 4,
        '白' => 5,
        '發' | '发' => 6,
        '中' => 7,
        _ => match HONOR_LETTERS.iter().position(|&l| l == ch.to_ascii_uppercase()) {
            Some(p) => p as u8 + 1,
            None => {
                return Err(MahjongError::UnknownTile {
                    token: ch.to_string(),
                    reason: "not a tile letter (honours are E S W N P F C)".to_string(),
                })
            }
        },
    };
    Tile::new(Suit::Honor, rank).ok_or_else(|| MahjongError::UnknownTile {
        token: ch.to_string(),
        reason: "not an honour".to_string(),
    })
}

/// Reads one tile (`5m`, `E`, `3z`).
pub fn parse_tile(text: &str) -> Result<Tile, MahjongError> {
    let tiles = parse_tiles(text)?;
    match tiles.as_slice() {
        [tile] => Ok(*tile),
        _ => Err(MahjongError::UnknownTile {
            token: text.trim().to_string(),
            reason: format!("expected one tile, got {}", tiles.len()),
        }),
    }
}

/// Reads tiles into counts, refusing a fifth copy of any kind.
pub fn parse_counts(text: &str) -> Result<Counts, MahjongError> {
    let mut counts = NO_TILES;
    for tile in parse_tiles(text)? {
        counts[tile.index()] += 1;
        if counts[tile.index()] > 4 {
            return Err(too_many(tile, counts[tile.index()] as usize));
        }
    }
    Ok(counts)
}

fn too_many(tile: Tile, count: usize) -> MahjongError {
    MahjongError::TooManyCopies {
        tile: tile.to_string(),
        count,
    }
}

/// Reads called melds (`"PPP 777m 123m [CCCC]"`); at most four.
pub fn parse_melds(text: &str) -> Result<Vec<Meld>, MahjongError> {
    let mut melds = Vec::new();
    for group in text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|g| !g.is_empty())
    {
        melds.push(parse_meld(group)?);
    }
    if melds.len() > 4 {
        return Err(MahjongError::TooManyMelds { count: melds.len() });
    }
    check_copies(&[&meld_counts(&melds)])?;
    Ok(melds)
}

/// Reads one meld group.
pub fn parse_meld(group: &str) -> Result<Meld, MahjongError> {
    let bad = |reason: &str| MahjongError::BadMeld {
        token: group.to_string(),
        reason: reason.to_string(),
    };
    let (concealed, body) = match group.strip_prefix('[') {
        Some(rest) => (
            true,
            rest.strip_suffix(']').ok_or_else(|| bad("missing closing bracket"))?,
        ),
        None => (false, group),
    };
    let mut tiles = parse_tiles(body)?;
    tiles.sort();
    let same = tiles.windows(2).all(|w| w[0] == w[1]);
    match (tiles.len(), same, concealed) {
        (4, true, true) => Ok(Meld::concealed_kong(tiles[0])),
        (_, _, true) => Err(bad("only a quad can be concealed")),
        (4, true, false) => Ok(Meld::kong(tiles[0])),
        (3, true, false) => Ok(Meld::pong(tiles[0])),
        (3, false, false) => {
            let run = tiles[0].neighbour(1) == Some(tiles[1]) && tiles[0].neighbour(2) == Some(tiles[2]);
            match Meld::chow(tiles[0]) {
                Some(meld) if run => Ok(meld),
                _ => Err(bad("three tiles must be equal or consecutive in one numbered suit")),
            }
        }
        (n, _, _) => Err(bad(&format!("a meld has 3 or 4 tiles, got {n}"))),
    }
}

/// Fails if the parts together hold more than four copies of a kind.
pub fn check_copies(parts: &[&Counts]) -> Result<(), MahjongError> {
    for index in 0..KINDS {
        let total: usize = parts.iter().map(|p| p[index] as usize).sum();
        if total > 4 {
            let tile = Tile::from_index(index).ok_or_else(|| too_many_index(index))?;
            return Err(too_many(tile, total));
        }
    }
    Ok(())
}

fn too_many_index(index: usize) -> MahjongError {
    MahjongError::UnknownTile {
        token: index.to_string(),
        reason: "kind index out of range".to_string(),
    }
}

/// Whether a hand is waiting (13 − 3 per meld tiles) or has just drawn (14 − 3 per meld).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandSize {
    /// 13 − 3k tiles: between turns, waiting for a draw or a discard.
    Waiting,
    /// 14 − 3k tiles: after a draw or a call, about to discard or win.
    Drawn,
}

/// The size class of a hand with `melds` called melds, or an error naming the sizes accepted.
pub fn hand_size(counts: &Counts, melds: usize) -> Result<HandSize, MahjongError> {
    let got = tile_count(counts);
    let waiting = 13usize.checked_sub(3 * melds);
    match waiting {
        None => Err(MahjongError::TooManyMelds { count: melds }),
        Some(w) if got == w => Ok(HandSize::Waiting),
        Some(w) if got == w + 1 => Ok(HandSize::Drawn),
        Some(w) => Err(MahjongError::WrongHandSize {
            expected: format!("{} or {}", w, w + 1),
            got,
            melds,
        }),
    }
}

/// Checks that a hand has exactly the size class `want` for its melds.
pub fn require_hand_size(counts: &Counts, melds: usize, want: HandSize) -> Result<(), MahjongError> {
    let got = tile_count(counts);
    let waiting = 13usize
        .checked_sub(3 * melds)
        .ok_or(MahjongError::TooManyMelds { count: melds })?;
    let expected = match want {
        HandSize::Waiting => waiting,
        HandSize::Drawn => waiting + 1,
    };
    if got == expected {
        Ok(())
    } else {
        Err(MahjongError::WrongHandSize {
            expected: expected.to_string(),
            got,
            melds,
        })
    }
}

/// Canonical text of a multiset: `123m 55p EEE`.
pub fn format_counts(counts: &Counts) -> String {
    format_tiles(&tiles_of(counts))
}

/// Canonical text of tiles (sorted by kind).
pub fn format_tiles(tiles: &[Tile]) -> String {
    let mut sorted = tiles.to_vec();
    sorted.sort();
    let mut groups: Vec<String> = Vec::new();
    for (suit, letter) in [(Suit::Man, 'm'), (Suit::Pin, 'p'), (Suit::Sou, 's')] {
        let digits: String = sorted
            .iter()
            .filter(|t| t.suit() == suit)
            .map(|t| char::from(b'0' + t.rank()))
            .collect();
        if !digits.is_empty() {
            groups.push(format!("{digits}{letter}"));
        }
    }
    let honours: String = sorted.iter().filter(|t| t.is_honor()).map(|t| t.to_string()).collect();
    if !honours.is_empty() {
        groups.push(honours);
    }
    groups.join(" ")
}

/// Canonical text of melds: `123m PPP [CCCC]`.
pub fn format_melds(melds: &[Meld]) -> String {
    melds.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::super::meld::MeldKind;
    use super::*;

    #[test]
    fn compact_and_spaced_forms_agree() {
        let a = parse_counts("123m55z").unwrap();
        let b = parse_counts("1m 2m 3m P P").unwrap();
        let c = parse_counts("1m,2m,3m,白,5z").unwrap();
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_eq!(format_counts(&a), "123m PP");
        assert_eq!(
            format_counts(&parse_counts("1111m EEESSSWWW").unwrap()),
            "1111m EEESSSWWW"
        );
        assert_eq!(format_counts(&parse_counts("9s1p 5P C 4z").unwrap()), "15p 9s NC");
    }

    #[test]
    fn errors_name_the_token() {
        let e = parse_tiles("12m 1x").unwrap_err();
        assert_eq!(e.to_string(), "`1x`: unknown tile (unknown suit x)");
        assert_eq!(
            parse_tiles("0m").unwrap_err().to_string(),
            "`0m`: unknown tile (ranks are 1–9)"
        );
        assert_eq!(
            parse_tiles("8z").unwrap_err().to_string(),
            "`8z`: unknown tile (honours are 1z–7z)"
        );
        assert!(matches!(parse_tiles("123"), Err(MahjongError::MissingSuit { token }) if token == "123"));
        assert!(matches!(parse_tiles("Q"), Err(MahjongError::UnknownTile { token, .. }) if token == "Q"));
        assert_eq!(
            parse_counts("11111m").unwrap_err().to_string(),
            "1m appears 5 times (there are only 4)"
        );
    }

    #[test]
    fn melds_parse_print_and_refuse_junk() {
        let melds = parse_melds("PPP 777m, 123m [CCCC]").unwrap();
        assert_eq!(format_melds(&melds), "PPP 777m 123m [CCCC]");
        assert_eq!(melds[2].kind, MeldKind::Chow);
        assert!(parse_melds("124m").is_err());
        assert!(parse_melds("89m1p").is_err());
        assert!(parse_melds("EEE EEE").is_err());
        assert!(parse_melds("[EEE]").is_err());
        assert!(parse_melds("EEE SSS WWW NNN PPP").is_err());
    }

    #[test]
    fn hand_sizes_follow_the_melds() {
        let thirteen = parse_counts("1112345678999m").unwrap();
        assert_eq!(tile_count(&thirteen), 13);
        assert_eq!(hand_size(&thirteen, 0), Ok(HandSize::Waiting));
        assert_eq!(
            hand_size(&thirteen, 1).unwrap_err().to_string(),
            "a hand with 1 called meld(s) needs 10 or 11 tiles, got 13"
        );
        assert!(require_hand_size(&thirteen, 0, HandSize::Drawn).is_err());
    }
}
