//! The `mahjong.*` built-ins and the `tiles` / `melds` input types: how rule files reach the native
//! analysis. Values: a tile is its canonical string (`"5m"`, `"E"`), a hand or any group of tiles a
//! list of them in kind order, a called meld its canonical string (`"123m"`, `"PPP"`, `"[CCCC]"`).

use std::fmt::Write as _;
use std::sync::OnceLock;

use crate::builtins::registry::{InputType, TypeArgs};
use crate::builtins::{BuiltinError, Registry, Solutions};
use crate::cards::NotationError;
use crate::value::{Frozen, Text, Value, ValueType as T};

use super::call::call_options;
use super::discard::{discard_options, discard_options_with, useful_draws, DiscardOption};
use super::error::MahjongError;
use super::lookahead::{call_chances, call_draws, discard_chances, draws_left, Chance};
use super::meld::{meld_counts, Meld, MeldKind};
use super::notation::{
    check_copies, format_tiles, hand_size, parse_meld, parse_melds, parse_tile, parse_tiles, HandSize,
};
use super::opponent::Read;
use super::players::{deal_in_chances, hidden_tiles};
use super::shanten::{shanten, shanten_seven_pairs, shanten_standard};
use super::split::{best_split, BlockKind, Split, TileShape};
use super::tile::{tile_count, tiles_of, Counts, Suit, Tile, HONOR_LETTERS, KINDS, NO_TILES};
use super::win::{is_win, waits, WinForm};

// ---- values ---------------------------------------------------------------------------------------

/// Every kind's canonical text, two bytes apart in kind order (an honour's second byte is a
/// space). A tile value's text points into this one string, so reading a tile value back is a
/// subtraction and a check (`made_tile`), not a parse: a turn decision reads some 600 of them.
/// A `static`, not a `const`: one address for the whole program.
static TILE_TEXTS: &str = "1m2m3m4m5m6m7m8m9m1p2p3p4p5p6p7p8p9p1s2s3s4s5s6s7s8s9sE S W N P F C ";

/// The canonical text of `t` inside `TILE_TEXTS`.
fn tile_text(t: Tile) -> &'static str {
    let at = 2 * t.index();
    let len = if t.suit() == Suit::Honor { 1 } else { 2 };
    TILE_TEXTS.get(at..at + len).unwrap_or("?")
}

/// A tile as a rule value: its canonical string (fixed text: copied with no count).
pub fn tile_value(t: Tile) -> Value {
    Value::Str(Text::fixed(tile_text(t)))
}

/// The tile whose text `s` is, when `tile_value` made it (it points into `TILE_TEXTS`).
#[inline]
fn made_tile(s: &Text) -> Option<Tile> {
    let s = s.as_str();
    let at = (s.as_ptr() as usize).wrapping_sub(TILE_TEXTS.as_ptr() as usize);
    // Numbered kinds (the first 27) are two bytes long, honours one.
    let len = if at < 2 * 27 { 2 } else { 1 };
    if at < 2 * KINDS && at.is_multiple_of(2) && s.len() == len {
        Tile::from_index(at / 2)
    } else {
        None
    }
}

/// The tile a string value names: the texts `tile_value` makes directly, any other through
/// `read_tile` (out of line: the common case stays a few instructions where it is used).
#[inline]
pub fn text_tile(s: &Text) -> Option<Tile> {
    match made_tile(s) {
        Some(t) => Some(t),
        None => read_other_tile(s),
    }
}

#[cold]
#[inline(never)]
fn read_other_tile(s: &Text) -> Option<Tile> {
    read_tile(s)
}

/// Tiles (any order) as a rule value: the list of their strings in kind order, written straight
/// into the shared list (a slice's iterator knows its length; a position's seen tiles are a
/// hundred strings).
pub fn tiles_value(counts: &Counts) -> Value {
    if counts.iter().any(|&c| c > 4) {
        // Not a real group of tiles (none has five of a kind), but listed as it is.
        return Value::list(tiles_of(counts).into_iter().map(tile_value));
    }
    let mut kinds = [Tile::ONE_MAN; 4 * KINDS];
    let mut n = 0;
    for t in Tile::all() {
        for _ in 0..counts[t.index()] {
            kinds[n] = t;
            n += 1;
        }
    }
    Value::list(kinds[..n].iter().map(|&t| tile_value(t)))
}

/// Some tiles as a list value, in the order given.
pub fn tile_list(tiles: &[Tile]) -> Value {
    Value::list(tiles.iter().map(|&t| tile_value(t)))
}

/// Melds as a rule value: the list of their canonical strings (each meld's text made once per
/// process: a player's melds are listed again at every decision).
pub fn melds_value(melds: &[Meld]) -> Value {
    static TEXTS: OnceLock<Frozen<Vec<Value>>> = OnceLock::new();
    let kinds = [MeldKind::Chow, MeldKind::Pong, MeldKind::Kong, MeldKind::ConcealedKong];
    let texts = TEXTS.get_or_init(|| {
        Frozen::new(
            kinds
                .iter()
                .flat_map(|&kind| {
                    Tile::all().map(move |tile| Value::Str(Text::interned(&Meld { kind, tile }.to_string())))
                })
                .collect(),
        )
    });
    Value::list(melds.iter().map(|m| {
        let kind = kinds.iter().position(|&k| k == m.kind).unwrap_or(0);
        texts
            .get(kind * KINDS + m.tile.index())
            .cloned()
            .unwrap_or_else(|| Value::str(&m.to_string()))
    }))
}

/// Reads one tile string: the canonical forms directly, anything else through the notation.
fn read_tile(s: &str) -> Option<Tile> {
    match s.as_bytes() {
        [d @ b'1'..=b'9', suit] => {
            let rank = d - b'0';
            match suit {
                b'm' => Tile::new(Suit::Man, rank),
                b'p' => Tile::new(Suit::Pin, rank),
                b's' => Tile::new(Suit::Sou, rank),
                _ => parse_tile(s).ok(),
            }
        }
        [c] => HONOR_LETTERS
            .iter()
            .position(|&h| h as u8 == *c)
            .and_then(|i| Tile::from_index(27 + i))
            .or_else(|| parse_tile(s).ok()),
        _ => parse_tile(s).ok(),
    }
}

fn bad_arg(name: &str, pos: usize, expected: &'static str, got: &Value) -> BuiltinError {
    BuiltinError::bad_argument(name, pos, expected, got)
}

fn failed(name: &str, e: impl std::fmt::Display) -> BuiltinError {
    BuiltinError::failed(name, e.to_string())
}

/// A list of tile strings (or one string in tile notation) as counts; at most four of a kind.
fn counts_arg(name: &str, pos: usize, v: &Value) -> Result<Counts, BuiltinError> {
    let mut c = NO_TILES;
    match v {
        Value::List(items) => {
            for item in items.iter() {
                let Value::Str(s) = item else {
                    return Err(bad_arg(name, pos, "a list of tiles", v));
                };
                let t = text_tile(s).ok_or_else(|| bad_arg(name, pos, "a list of tiles", item))?;
                c[t.index()] += 1;
                if c[t.index()] > 4 {
                    return Err(failed(
                        name,
                        MahjongError::TooManyCopies {
                            tile: t.to_string(),
                            count: c[t.index()] as usize,
                        },
                    ));
                }
            }
        }
        Value::Str(s) => {
            for t in parse_tiles(s).map_err(|e| failed(name, e))? {
                c[t.index()] += 1;
            }
            check_copies(&[&c]).map_err(|e| failed(name, e))?;
        }
        _ => return Err(bad_arg(name, pos, "a list of tiles", v)),
    }
    Ok(c)
}

/// A list of meld strings (or one string of melds) as melds.
fn melds_arg(name: &str, pos: usize, v: &Value) -> Result<Vec<Meld>, BuiltinError> {
    match v {
        Value::List(items) => {
            let mut out = Vec::with_capacity(items.len());
            for item in items.iter() {
                let Value::Str(s) = item else {
                    return Err(bad_arg(name, pos, "a list of melds", v));
                };
                out.push(parse_meld(s).map_err(|e| failed(name, e))?);
            }
            if out.len() > 4 {
                return Err(failed(name, MahjongError::TooManyMelds { count: out.len() }));
            }
            Ok(out)
        }
        Value::Str(s) => parse_melds(s).map_err(|e| failed(name, e)),
        _ => Err(bad_arg(name, pos, "a list of melds", v)),
    }
}

fn tile_arg(name: &str, pos: usize, v: &Value) -> Result<Tile, BuiltinError> {
    match v {
        Value::Str(s) => text_tile(s).ok_or_else(|| bad_arg(name, pos, "a tile", v)),
        Value::List(items) if items.len() == 1 => tile_arg(name, pos, &items[0]),
        _ => Err(bad_arg(name, pos, "a tile", v)),
    }
}

fn int_arg(name: &str, pos: usize, v: &Value) -> Result<i64, BuiltinError> {
    v.as_int().ok_or_else(|| bad_arg(name, pos, "an integer", v))
}

fn bool_arg(name: &str, pos: usize, v: &Value) -> Result<bool, BuiltinError> {
    v.as_bool().ok_or_else(|| bad_arg(name, pos, "true or false", v))
}

// ---- text -------------------------------------------------------------------------------------------

/// Where a tile sits in the best split, as words: `a single`, `in a gapped partial`, ….
pub fn shape_phrase(shape: TileShape) -> &'static str {
    match shape {
        TileShape::Single => "a single",
        TileShape::Gapped => "in a gapped partial",
        TileShape::Adjacent => "in an adjacent partial",
        TileShape::Pair => "in a pair",
        TileShape::Set => "in a set",
    }
}

/// `ready`, `won`, `2-shanten`.
pub fn steps(n: i64) -> String {
    match n {
        i64::MIN..=-1 => "won".to_string(),
        0 => "ready".to_string(),
        n => format!("{n}-shanten"),
    }
}

/// Tiles one by one, spaced: `3m 6m C`; `none` for no tiles.
pub fn spaced(tiles: &[Tile]) -> String {
    if tiles.is_empty() {
        return "none".to_string();
    }
    let mut s = String::new();
    for (i, t) in tiles.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{t}");
    }
    s
}

fn block_text(tiles: &[Tile]) -> String {
    format_tiles(tiles)
}

/// A split in words: `sets 123m 456m EEE; pair 99m; partials 78m 13m; singles 5m C`.
pub fn split_text(split: &Split, melds: &[Meld]) -> String {
    let mut parts: Vec<String> = Vec::new();
    if !melds.is_empty() {
        parts.push(format!(
            "called {}",
            melds.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
        ));
    }
    let group = |kinds: &[BlockKind]| -> Vec<String> {
        split
            .blocks
            .iter()
            .filter(|b| kinds.contains(&b.kind))
            .map(|b| block_text(&b.tiles()))
            .collect()
    };
    for (one, many, kinds) in [
        ("set", "sets", &[BlockKind::Sequence, BlockKind::Triplet][..]),
        ("pair", "pairs", &[BlockKind::Pair][..]),
        ("partial", "partials", &[BlockKind::Adjacent, BlockKind::Gapped][..]),
        ("single", "singles", &[BlockKind::Single][..]),
    ] {
        let g = group(kinds);
        if !g.is_empty() {
            parts.push(format!("{} {}", if g.len() == 1 { one } else { many }, g.join(" ")));
        }
    }
    if parts.is_empty() {
        "no tiles".to_string()
    } else {
        parts.join("; ")
    }
}

/// How a winning hand wins, in words: `123m 456m 789m EEE and the pair SS`.
pub fn win_text(counts: &Counts, melds: &[Meld], form: WinForm) -> String {
    match form {
        WinForm::SevenPairs => {
            let mut pairs = Vec::new();
            for t in Tile::all() {
                for _ in 0..counts[t.index()] / 2 {
                    pairs.push(block_text(&[t, t]));
                }
            }
            let quads: Vec<String> = Tile::all()
                .filter(|t| counts[t.index()] == 4)
                .map(|t| block_text(&[t; 4]))
                .collect();
            let mut s = format!("seven pairs {}", pairs.join(" "));
            if !quads.is_empty() {
                let _ = write!(s, " ({} counts as two pairs)", quads.join(", "));
            }
            s
        }
        WinForm::Standard => {
            let split = best_split(counts, melds, &NO_TILES);
            let mut sets: Vec<String> = melds.iter().map(|m| m.to_string()).collect();
            let mut pair = String::new();
            for b in &split.blocks {
                match b.kind {
                    BlockKind::Sequence | BlockKind::Triplet => sets.push(block_text(&b.tiles())),
                    BlockKind::Pair => pair = block_text(&b.tiles()),
                    _ => {}
                }
            }
            format!("{} and the pair {}", sets.join(" "), pair)
        }
    }
}

/// Shanten by form, in words, with a note on tiles held four times.
pub fn shanten_forms_text(counts: &Counts, melds: &[Meld]) -> String {
    let all = shanten(counts, melds);
    if all < 0 {
        let form = is_win(counts, melds).map_or("a win", |f| f.name());
        return format!("the tiles already win ({form})");
    }
    let standard = shanten_standard(counts, melds) as i64;
    let mut s = format!("four sets and a pair: {}", steps(standard));
    match shanten_seven_pairs(counts, melds) {
        Some(p) => {
            let _ = write!(s, "; seven pairs: {}", steps(p as i64));
        }
        None => s.push_str("; seven pairs impossible beside called melds"),
    }
    let quads: Vec<Tile> = Tile::all().filter(|t| counts[t.index()] == 4).collect();
    if !quads.is_empty() {
        let _ = write!(
            s,
            " ({} held four times: no fifth copy to draw)",
            quads.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ")
        );
    }
    s
}

// ---- input types --------------------------------------------------------------------------------------

fn notation_error(text: &str, e: MahjongError) -> NotationError {
    match e {
        MahjongError::UnknownTile { token, reason } => NotationError::BadValue {
            token,
            why: format!("unknown tile ({reason})"),
        },
        MahjongError::MissingSuit { token } => NotationError::BadValue {
            token,
            why: "digits without a suit letter (m, p, s or z)".into(),
        },
        MahjongError::TooManyCopies { tile, count } => NotationError::BadValue {
            token: tile,
            why: format!("appears {count} times (there are only 4)"),
        },
        MahjongError::BadMeld { token, reason } => NotationError::BadValue {
            token,
            why: format!("not a meld ({reason})"),
        },
        other => NotationError::BadValue {
            token: text.trim().to_string(),
            why: other.to_string(),
        },
    }
}

fn parse_tiles_input(text: &str, args: &TypeArgs, what: &str) -> Result<Value, NotationError> {
    let (min, max) = args.positional.first().copied().unwrap_or((0, 136));
    let tiles = parse_tiles(text).map_err(|e| notation_error(text, e))?;
    let mut c = NO_TILES;
    for t in &tiles {
        c[t.index()] += 1;
    }
    check_copies(&[&c]).map_err(|e| notation_error(text, e))?;
    let n = tiles.len() as i64;
    if n < min || n > max {
        let range = if min == max {
            format!("{min}")
        } else {
            format!("{min} to {max}")
        };
        return Err(NotationError::BadValue {
            token: text.trim().to_string(),
            why: format!("{what} takes {range} tiles, got {n}"),
        });
    }
    Ok(tiles_value(&c))
}

fn parse_melds_input(text: &str, _: &TypeArgs, _: &str) -> Result<Value, NotationError> {
    let melds = parse_melds(text).map_err(|e| notation_error(text, e))?;
    Ok(melds_value(&melds))
}

// ---- built-ins -------------------------------------------------------------------------------------------

const HAND: (&str, T) = ("hand", T::List);
const MELDS: (&str, T) = ("melds", T::List);
const VISIBLE: (&str, T) = ("visible", T::List);
const SEEN: (&str, T) = ("seen", T::List);
const TWO_PLAYER: (&str, T) = ("two_player", T::Bool);

fn hand_melds(name: &str, a: &[&Value]) -> Result<(Counts, Vec<Meld>), BuiltinError> {
    Ok((counts_arg(name, 1, a[0])?, melds_arg(name, 2, a[1])?))
}

fn hand_melds_visible(name: &str, a: &[&Value]) -> Result<(Counts, Vec<Meld>, Counts), BuiltinError> {
    Ok((
        counts_arg(name, 1, a[0])?,
        melds_arg(name, 2, a[1])?,
        counts_arg(name, 3, a[2])?,
    ))
}

/// True when no pin or bamboo tile is in any of `groups`: with the `two_player` switch on, a
/// two-player position, where only characters and honours are in play.
fn only_two_suits(groups: &[&Counts]) -> bool {
    groups.iter().all(|c| c[9..27].iter().all(|&n| n == 0))
}

/// Hand, melds, the tiles seen elsewhere and the `two_player` switch (arguments 1–4). In a
/// two-player position every pin and bamboo copy counts as seen (none is live); the rules' lists
/// leave them out, a position's seen list being a third as long without them.
fn hand_melds_seen(name: &str, a: &[&Value]) -> Result<(Counts, Vec<Meld>, Counts), BuiltinError> {
    let (hand, melds, mut seen) = hand_melds_visible(name, a)?;
    if bool_arg(name, 4, a[3])? && only_two_suits(&[&hand, &meld_counts(&melds), &seen]) {
        seen[9..27].fill(4);
    }
    Ok((hand, melds, seen))
}

/// A position read and checked: what `mahjong.deal` and `mahjong.about` both start from.
struct Position {
    hand: Counts,
    melds: Vec<Meld>,
    visible: Counts,
    offered: Counts,
    drawn: Counts,
    size: HandSize,
    /// Visible and offered tiles (pins and bamboo out of play are not listed: the built-ins that
    /// count live tiles add them, given `two_player`).
    seen: Counts,
    /// A two-player position: no pin or bamboo tile anywhere, so none is in play.
    only_two_suits: bool,
}

fn read_position(name: &str, a: &[&Value]) -> Result<Position, BuiltinError> {
    let (hand, melds, visible) = hand_melds_visible(name, a)?;
    let offered = counts_arg(name, 4, a[3])?;
    let drawn = counts_arg(name, 5, a[4])?;
    let own_melds = meld_counts(&melds);
    // An impossible position is the query's fault, named by the input to look at.
    check_copies(&[&hand, &own_melds, &visible, &offered]).map_err(|e| BuiltinError::input("hand", e.to_string()))?;
    let size = hand_size(&hand, melds.len()).map_err(|e| BuiltinError::input("hand", e.to_string()))?;
    let n_offered = tile_count(&offered);
    let n_drawn = tile_count(&drawn);
    if n_offered > 1 || n_drawn > 1 {
        let input = if n_offered > 1 { "offered" } else { "drawn" };
        return Err(BuiltinError::input(input, "at most one offered and one drawn tile"));
    }
    if n_offered == 1 && size != HandSize::Waiting {
        return Err(BuiltinError::input(
            "offered",
            format!(
                "a tile is offered to a hand of {} tiles: a call needs the waiting hand ({})",
                tile_count(&hand),
                13 - 3 * melds.len()
            ),
        ));
    }
    if n_drawn == 1 {
        if size != HandSize::Drawn {
            return Err(BuiltinError::input(
                "drawn",
                "a drawn tile is given but the hand has not drawn (13 − 3 per meld tiles)",
            ));
        }
        if let Some(d) = (0..KINDS).find(|&i| drawn[i] > 0) {
            if hand[d] == 0 {
                return Err(BuiltinError::input(
                    "drawn",
                    format!("the drawn tile {} is not in the hand", tiles_of(&drawn)[0]),
                ));
            }
        }
    }
    let mut seen = visible;
    for i in 0..KINDS {
        seen[i] += offered[i];
    }
    let only_two_suits = bool_arg(name, 6, a[5])? && only_two_suits(&[&hand, &own_melds, &seen]);
    Ok(Position {
        hand,
        melds,
        visible,
        offered,
        drawn,
        size,
        seen,
        only_two_suits,
    })
}

fn deal(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    let p = read_position("mahjong.deal", a)?;
    let size = match p.size {
        HandSize::Waiting => "waiting",
        HandSize::Drawn => "drawn",
    };
    out.push(&[Value::fixed(size), tiles_value(&p.seen)]);
    Ok(())
}

/// The position in words. Apart from `mahjong.deal` so that a rule reading it only in its
/// explanation has it made only when the explanation is asked for.
fn mj_about(a: &[&Value]) -> Result<Value, BuiltinError> {
    let p = read_position("mahjong.about", a)?;
    let mut about = format!(
        "{} tiles in hand: {}",
        tile_count(&p.hand),
        format_tiles(&tiles_of(&p.hand))
    );
    if !p.melds.is_empty() {
        let _ = write!(
            about,
            "; called {}",
            p.melds.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
        );
    }
    let seen = tile_count(&p.visible);
    if seen > 0 {
        let _ = write!(about, "; {seen} tiles seen elsewhere");
    }
    if tile_count(&p.drawn) == 1 {
        let _ = write!(about, "; just drew {}", tiles_of(&p.drawn)[0]);
    }
    if tile_count(&p.offered) == 1 {
        let _ = write!(about, "; the opponent discards {}", tiles_of(&p.offered)[0]);
    }
    if p.only_two_suits {
        about.push_str("; two-player: only characters and honours are in play");
    }
    Ok(Value::str(&about))
}

fn mj_shanten(a: &[&Value]) -> Result<Value, BuiltinError> {
    let (hand, melds) = hand_melds("mahjong.shanten", a)?;
    Ok(Value::Int(shanten(&hand, &melds) as i64))
}

fn mj_shanten_forms(a: &[&Value]) -> Result<Value, BuiltinError> {
    let (hand, melds) = hand_melds("mahjong.shanten_forms", a)?;
    Ok(Value::str(&shanten_forms_text(&hand, &melds)))
}

fn mj_steps(a: &[&Value]) -> Result<Value, BuiltinError> {
    Ok(Value::str(&steps(int_arg("mahjong.steps", 1, a[0])?)))
}

fn mj_text(a: &[&Value]) -> Result<Value, BuiltinError> {
    let c = counts_arg("mahjong.text", 1, a[0])?;
    Ok(Value::str(&spaced(&tiles_of(&c))))
}

fn mj_is_win(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    let (hand, melds) = hand_melds("mahjong.is_win", a)?;
    if let Some(form) = is_win(&hand, &melds) {
        out.push(&[Value::fixed(form.name())]);
    }
    Ok(())
}

/// The winning hand in words. Apart from `mahjong.is_win` (it costs a best split, a dozen times
/// the win check), so that a rule reading it only in its explanation has it made only then.
fn mj_win_text(a: &[&Value]) -> Result<Value, BuiltinError> {
    let (hand, melds) = hand_melds("mahjong.win_text", a)?;
    Ok(is_win(&hand, &melds).map_or_else(|| Value::fixed(""), |form| Value::str(&win_text(&hand, &melds, form))))
}

fn mj_waits(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    let (hand, melds, visible) = hand_melds_seen("mahjong.waits", a)?;
    for w in waits(&hand, &melds, &visible) {
        let mut won = hand;
        won[w.tile.index()] += 1;
        let how = is_win(&won, &melds).map_or_else(String::new, |f| win_text(&won, &melds, f));
        out.push(&[tile_value(w.tile), Value::Int(w.live as i64), Value::str(&how)]);
    }
    Ok(())
}

fn mj_wait_tiles(a: &[&Value]) -> Result<Value, BuiltinError> {
    let (hand, melds, visible) = hand_melds_seen("mahjong.wait_tiles", a)?;
    let tiles: Vec<Tile> = waits(&hand, &melds, &visible).iter().map(|w| w.tile).collect();
    Ok(tile_list(&tiles))
}

fn mj_useful(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    let (hand, melds, visible) = hand_melds_seen("mahjong.useful", a)?;
    let (_, useful) = useful_draws(&hand, &melds, &visible);
    let tiles: Vec<Tile> = useful.iter().map(|&(t, _)| t).collect();
    let live: i64 = useful.iter().map(|&(_, l)| l as i64).sum();
    out.push(&[tile_list(&tiles), Value::Int(live)]);
    Ok(())
}

fn mj_discards(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    const N: &str = "mahjong.discards";
    let (hand, melds, visible) = hand_melds_seen(N, a)?;
    let detail = bool_arg(N, 5, a[4])?;
    let options = if detail {
        discard_options(&hand, &melds, &visible)
    } else {
        // Only what the strong decision needs: shapes when the best (shanten, live tiles) is tied;
        // no waits.
        let mut options = discard_options_with(&hand, &melds, &visible, None, false);
        let key = |o: &DiscardOption| (o.shanten_after, std::cmp::Reverse(o.useful_live));
        if let Some(top) = options.iter().map(key).min() {
            if options.iter().filter(|o| key(o) == top).count() > 1 {
                let shapes = best_split(&hand, &melds, &visible).tile_shapes();
                for o in options.iter_mut() {
                    o.shape = shapes[o.tile.index()].unwrap_or(TileShape::Single);
                }
            }
        }
        options
    };
    // Most options wait on nothing (and none does without `detail`): one empty list for them all.
    let no_waits = Value::list([]);
    for o in options {
        let wait_list = o.waits;
        let wait_tiles = if wait_list.is_empty() {
            no_waits.clone()
        } else {
            tile_list(&wait_list.iter().map(|w| w.tile).collect::<Vec<_>>())
        };
        let wait_live: i64 = wait_list.iter().map(|w| w.live as i64).sum();
        out.push(&[
            tile_value(o.tile),
            Value::Int(o.tile.index() as i64),
            Value::Int(o.shanten_after as i64),
            Value::Int(o.useful_live as i64),
            tile_list(&o.useful_kinds),
            Value::fixed(shape_phrase(o.shape)),
            Value::Int(o.shape as i64),
            wait_tiles,
            Value::Int(wait_live),
        ]);
    }
    Ok(())
}

fn mj_calls(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    const N: &str = "mahjong.calls";
    let (hand, melds, seen) = hand_melds_seen(N, a)?;
    let offered = tile_arg(N, 5, a[4])?;
    let can_chow = bool_arg(N, 6, a[5])?;
    let analysis = call_options(&hand, &melds, offered, can_chow, &seen);
    for (order, o) in analysis.options.iter().enumerate() {
        out.push(&[
            Value::str(o.kind.name()),
            Value::str(&o.meld.to_string()),
            tile_list(&o.meld.tiles()),
            tile_list(&o.from_hand),
            Value::Int(order as i64),
            Value::Int(o.shape.singles as i64),
            Value::Int(o.shape.gapped as i64),
            Value::Int(o.shape.adjacent as i64),
            Value::Int(o.shanten_after as i64),
            Value::Int(o.useful_live_after as i64),
            Value::str(&o.best_discard.map_or_else(
                || "before its replacement draw".to_string(),
                |t| format!("after discarding {t}"),
            )),
        ]);
    }
    Ok(())
}

fn mj_shape(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    let (hand, melds, visible) = hand_melds_seen("mahjong.shape", a)?;
    let split = best_split(&hand, &melds, &visible);
    out.push(&[
        Value::Int(split.shape.singles as i64),
        Value::Int(split.shape.gapped as i64),
        Value::Int(split.shape.adjacent as i64),
        Value::str(&split_text(&split, &melds)),
    ]);
    Ok(())
}

fn mj_kongs(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    let (hand, melds) = hand_melds("mahjong.kongs", a)?;
    if melds.len() >= 4 {
        return Ok(());
    }
    for tile in Tile::all() {
        let i = tile.index();
        let concealed = hand[i] == 4;
        let added = hand[i] >= 1 && melds.contains(&Meld::pong(tile));
        if !concealed && !added {
            continue;
        }
        let mut h = hand;
        let mut m = melds.clone();
        if concealed {
            h[i] = 0;
            m.push(Meld::concealed_kong(tile));
        } else {
            h[i] -= 1;
            if let Some(p) = m.iter_mut().find(|x| **x == Meld::pong(tile)) {
                p.kind = MeldKind::Kong;
            }
        }
        out.push(&[
            tile_value(tile),
            Value::Int(i as i64),
            Value::str(if concealed { "concealed" } else { "added" }),
            Value::Int(shanten(&h, &m) as i64),
        ]);
    }
    Ok(())
}

fn mj_deal_in(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    const N: &str = "mahjong.deal_in";
    let (hand, melds, seen) = hand_melds_seen(N, a)?;
    let ready = bool_arg(N, 5, a[4])?;
    let safe = counts_arg(N, 6, a[5])?;
    let thrown = counts_arg(N, 7, a[6])?;
    let before = tiles_of(&counts_arg(N, 8, a[7])?);
    let called = usize_arg(N, 9, a[8])?;
    let tile = tile_arg(N, 10, a[9])?;
    let read = Read::after(before.first().copied(), true);
    let p = if ready && safe[tile.index()] == 0 {
        deal_in_chances(&hand, &melds, &seen, &safe, &thrown, hidden_tiles(called), &read)[tile.index()]
    } else {
        0.0
    };
    let why = if !ready {
        "the opponent has not declared ready: no discard can deal in".to_string()
    } else if safe[tile.index()] > 0 {
        format!(
            "{tile} is safe: the opponent's hand is fixed since it declared ready, and {tile} did not win for it since"
        )
    } else if p <= 0.0 {
        format!("{tile} is safe: no copy of it and no sequence wait on it is left for the opponent to hold")
    } else if thrown[tile.index()] > 0 {
        let about = if p < 0.005 {
            "under 1%".to_string()
        } else {
            format!("about {}", percent(p))
        };
        format!("{tile} deals in {about}: the opponent discarded {tile} itself, and a ready hand rarely waits on its own discards")
    } else {
        format!(
            "{tile} deals in about {} of the time (the ready opponent's likely waits, from the copies unseen)",
            percent(p)
        )
    };
    let cleared = read.cleared();
    let why = match read.after {
        Some(last) if p > 0.0 && cleared.contains(&tile) => format!(
            "{why}: it threw {last} as a single before declaring, so {} {} pairs or sets if it holds them",
            and_list(&cleared),
            if cleared.len() == 1 { "is" } else { "are" }
        ),
        _ => why,
    };
    out.push(&[Value::Num(p), Value::str(&why)]);
    Ok(())
}

fn mj_highest(a: &[&Value]) -> Result<Value, BuiltinError> {
    let hand = counts_arg("mahjong.highest", 1, a[0])?;
    let t = (0..KINDS)
        .rev()
        .find(|&i| hand[i] > 0)
        .and_then(Tile::from_index)
        .unwrap_or(Tile::ONE_MAN);
    Ok(tile_value(t))
}

fn usize_arg(name: &str, pos: usize, v: &Value) -> Result<usize, BuiltinError> {
    let n = int_arg(name, pos, v)?;
    usize::try_from(n).map_err(|_| bad_arg(name, pos, "a count of zero or more", v))
}

/// Tiles in words: `C`, `F and C`, `P, F and C`.
fn and_list(tiles: &[Tile]) -> String {
    let names: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A chance in words: `41%`.
pub fn percent(p: f64) -> String {
    format!("{:.0}%", 100.0 * p)
}

/// How closely a chance was worked out, as the rules see it: 2 exact (a ready hand, or no way
/// to win), 1 searched (every hand beneath searched: close to exact), 0 past the search's budget
/// (valued in part by the cheaper estimate, which can run several times too high).
pub fn chance_how(c: &Chance) -> i64 {
    match (c.exact, c.searched) {
        (true, _) => 2,
        (false, true) => 1,
        (false, false) => 0,
    }
}

/// A chance to win as a figure that says what it is: exact bare (`41%`), a searched chance as
/// an estimate (`an estimated 41%`), and one left in part to the cheaper estimate not at all:
/// it ranks the alternatives, but as a probability it can be several times too high.
pub fn chance_words(p: f64, how: i64) -> String {
    match how {
        2.. => percent(p),
        1 => format!("an estimated {}", percent(p)),
        _ => "an unshown share (a rough estimate past the search's budget)".to_string(),
    }
}

/// One option's numbers in a line: chance, shanten, useful tiles or waits with live counts.
fn option_summary(c: &Chance, draws: usize, shanten: i64, live: u32, useful: &[Tile]) -> String {
    let tiles = if useful.is_empty() {
        "none".to_string()
    } else {
        spaced(useful)
    };
    let what = if shanten == 0 { "waits" } else { "useful" };
    format!(
        "wins within {} {}; {}, {what} {tiles} ({live} live)",
        draws_words(draws as i64),
        chance_words(c.p, chance_how(c)),
        steps(shanten)
    )
}

/// A number of draws in words: `1 draw`, `6 draws`.
pub fn draws_words(n: i64) -> String {
    match n {
        1 => "1 draw".to_string(),
        _ => format!("{n} draws"),
    }
}

fn mj_draws(a: &[&Value]) -> Result<Value, BuiltinError> {
    Ok(Value::str(&draws_words(int_arg("mahjong.draws", 1, a[0])?)))
}

fn mj_percent(a: &[&Value]) -> Result<Value, BuiltinError> {
    let p = a[0]
        .as_f64()
        .ok_or_else(|| bad_arg("mahjong.percent", 1, "a number", a[0]))?;
    Ok(Value::str(&percent(p)))
}

fn mj_chance(a: &[&Value]) -> Result<Value, BuiltinError> {
    let p = a[0]
        .as_f64()
        .ok_or_else(|| bad_arg("mahjong.chance", 1, "a number", a[0]))?;
    let how = int_arg("mahjong.chance", 2, a[1])?;
    Ok(Value::str(&chance_words(p, how)))
}

fn mj_lookahead(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    const N: &str = "mahjong.lookahead";
    let (hand, melds, seen) = hand_melds_seen(N, a)?;
    let wall = int_arg(N, 5, a[4])?;
    let horizon = usize_arg(N, 6, a[5])?;
    let budget = usize_arg(N, 7, a[6])?;
    let draws = draws_left(wall, false).min(horizon);
    let options = discard_options(&hand, &melds, &seen);
    let (chances, _) = discard_chances(&hand, &melds, &seen, draws, budget, Vec::new());
    for (o, c) in options.iter().zip(&chances) {
        let p = c.chance.p;
        out.push(&[
            tile_value(o.tile),
            Value::Int(o.tile.index() as i64),
            Value::Num(p),
            Value::Int(draws as i64),
            Value::Int(o.shanten_after as i64),
            Value::Int(o.useful_live as i64),
            tile_list(&o.useful_kinds),
            Value::fixed(shape_phrase(o.shape)),
            Value::Int(o.shape as i64),
            Value::Int(chance_how(&c.chance)),
            Value::str(&option_summary(
                &c.chance,
                draws,
                o.shanten_after as i64,
                o.useful_live,
                &o.useful_kinds,
            )),
        ]);
    }
    Ok(())
}

fn mj_call_lookahead(a: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
    const N: &str = "mahjong.call_lookahead";
    let (hand, melds, seen) = hand_melds_seen(N, a)?;
    let offered = tile_arg(N, 5, a[4])?;
    let can_chow = bool_arg(N, 6, a[5])?;
    let wall = int_arg(N, 7, a[6])?;
    let horizon = usize_arg(N, 8, a[7])?;
    let budget = usize_arg(N, 9, a[8])?;
    let c = call_chances(
        &hand,
        &melds,
        offered,
        can_chow,
        &seen,
        call_draws(wall, horizon),
        budget,
        Vec::new(),
    );
    let split = best_split(&hand, &melds, &seen);
    let (_, useful) = useful_draws(&hand, &melds, &seen);
    let kinds: Vec<Tile> = useful.iter().map(|&(t, _)| t).collect();
    out.push(&[
        Value::fixed("pass"),
        Value::fixed(""),
        Value::list([]),
        Value::Int(-1),
        Value::Num(c.pass.p),
        Value::Int(c.draws.0 as i64),
        Value::Int(c.shanten as i64),
        Value::Int(c.useful_live as i64),
        Value::Int(split.shape.singles as i64),
        Value::Int(split.shape.gapped as i64),
        Value::Int(split.shape.adjacent as i64),
        Value::Int(chance_how(&c.pass)),
        Value::str(&option_summary(
            &c.pass,
            c.draws.0,
            c.shanten as i64,
            c.useful_live,
            &kinds,
        )),
    ]);
    for (order, call) in c.calls.iter().enumerate() {
        let o = &call.option;
        let draws = if call.discard.is_some() { c.draws.1 } else { c.draws.0 };
        let mut summary = format!(
            "{} {}: wins within {} {}; {} with {} live useful tiles",
            o.kind.name(),
            o.meld,
            draws_words(draws as i64),
            chance_words(call.chance.p, chance_how(&call.chance)),
            steps(o.shanten_after as i64),
            o.useful_live_after
        );
        if let Some(d) = call.discard {
            let _ = write!(summary, " after discarding {d}");
        }
        out.push(&[
            Value::str(o.kind.name()),
            Value::str(&o.meld.to_string()),
            tile_list(&o.meld.tiles()),
            Value::Int(order as i64),
            Value::Num(call.chance.p),
            Value::Int(draws as i64),
            Value::Int(o.shanten_after as i64),
            Value::Int(o.useful_live_after as i64),
            Value::Int(o.shape.singles as i64),
            Value::Int(o.shape.gapped as i64),
            Value::Int(o.shape.adjacent as i64),
            Value::Int(chance_how(&call.chance)),
            Value::str(&summary),
        ]);
    }
    Ok(())
}

/// Registers the `mahjong.*` built-ins and the `tiles` and `melds` input types.
pub fn register(r: &mut Registry) {
    register_inputs(r);
    register_hand(r);
    register_choices(r);
    register_lookahead(r);
}

/// The lookahead: discards and calls judged by the chance to win within the draws left.
fn register_lookahead(r: &mut Registry) {
    const LOOK: [(&str, T); 3] = [("wall", T::Int), ("horizon", T::Int), ("budget", T::Int)];
    r.function(
        "mahjong.lookahead",
        &[HAND, MELDS, SEEN, TWO_PLAYER, LOOK[0], LOOK[1], LOOK[2]],
        &[T::Str, T::Int, T::Num, T::Int, T::Int, T::Int, T::List, T::Str, T::Int, T::Int, T::Str],
        true,
        "one solution per kind held of a drawn hand: tile, kind index, the chance to win within the draws left after it (wall / 2, at most horizon; drawing from the unseen tiles, see docs/mahjong.md), those draws, shanten after, live useful tiles, useful kinds, where it sits in the best split, shape rank 0–4, how closely the chance was worked out (2 exact, 1 searched, 0 in part a rough estimate past the budget), a summary line; at most budget hands searched per judged hand",
        mj_lookahead,
    );
    r.function(
        "mahjong.call_lookahead",
        &[
            HAND,
            MELDS,
            SEEN,
            TWO_PLAYER,
            ("offered", T::Str),
            ("chow", T::Bool),
            LOOK[0],
            LOOK[1],
            LOOK[2],
        ],
        &[T::Str, T::Str, T::List, T::Int, T::Num, T::Int, T::Int, T::Int, T::Int, T::Int, T::Int, T::Int, T::Str],
        true,
        "\"pass\" and every legal call on the offered tile (seen includes it): kind, meld (\"\" for pass), its tiles, order (kong, pong, chows low first; pass −1), the chance to win within the draws left (a pong or chow takes the turn's draw), those draws, shanten after, live useful tiles after, singles, gapped, adjacent left, how closely the chance was worked out (as mahjong.lookahead's), a summary line",
        mj_call_lookahead,
    );
    r.func(
        "mahjong.draws",
        &[("n", T::Int)],
        T::Str,
        "a number of draws in words: `1 draw`, `6 draws`",
        mj_draws,
    );
    r.func(
        "mahjong.percent",
        &[("chance", T::Num)],
        T::Str,
        "a chance as a whole percentage: `41%`",
        mj_percent,
    );
    r.func(
        "mahjong.chance",
        &[("chance", T::Num), ("how", T::Int)],
        T::Str,
        "a chance to win as a whole percentage that says what it is, by how closely it was worked out \
         (mahjong.lookahead's how): exact bare (2: `41%`), searched as an estimate (1: `an estimated 41%`), \
         and not shown when in part a rough estimate past the search's budget (0)",
        mj_chance,
    );
}

/// The `tiles` and `melds` input types.
fn register_inputs(r: &mut Registry) {
    r.input_type(InputType {
        name: "tiles",
        keys: &[],
        max_positional: 1,
        value_type: T::List,
        parse: parse_tiles_input,
        doc: "mahjong tiles(N) or tiles(MIN..MAX): `1122334m EEESSS`, `123m55z`, `1m,2m,E` (at most 4 of a kind)",
    });
    r.input_type(InputType {
        name: "melds",
        keys: &[],
        max_positional: 0,
        value_type: T::List,
        parse: parse_melds_input,
        doc: "called mahjong melds: `123m PPP 7777m [CCCC]` (chow, pong, kong, concealed kong)",
    });
}

/// The hand: its deal, shanten, steps, text, wins and waits.
fn register_hand(r: &mut Registry) {
    r.function(
        "mahjong.deal",
        &[HAND, MELDS, VISIBLE, ("offered", T::List), ("drawn", T::List), ("two_player", T::Bool)],
        &[T::Str, T::List],
        false,
        "checks a position (no fifth copy anywhere, hand size for the melds); gives \"waiting\" or \"drawn\" and the tiles seen (visible + offered); the built-ins that count live tiles take the same `two_player` switch (with no pin or bamboo tile anywhere, none is in play)",
        deal,
    );
    r.func(
        "mahjong.about",
        &[
            HAND,
            MELDS,
            VISIBLE,
            ("offered", T::List),
            ("drawn", T::List),
            ("two_player", T::Bool),
        ],
        T::Str,
        "the position `mahjong.deal` checks, in words",
        mj_about,
    );
    r.func(
        "mahjong.shanten",
        &[HAND, MELDS],
        T::Int,
        "shanten, the minimum of four-sets-and-a-pair and seven pairs (−1 won, 0 ready)",
        mj_shanten,
    );
    r.func(
        "mahjong.shanten_forms",
        &[HAND, MELDS],
        T::Str,
        "shanten per winning form, in words",
        mj_shanten_forms,
    );
    r.func(
        "mahjong.steps",
        &[("shanten", T::Int)],
        T::Str,
        "a shanten in words: won, ready, N-shanten",
        mj_steps,
    );
    r.func(
        "mahjong.text",
        &[("tiles", T::List)],
        T::Str,
        "tiles spaced in kind order (`3m 6m C`), `none` for none",
        mj_text,
    );
    r.function(
        "mahjong.is_win",
        &[HAND, MELDS],
        &[T::Str],
        false,
        "the winning form (\"standard\" or \"seven pairs\"); no solution if it does not win",
        mj_is_win,
    );
    r.func(
        "mahjong.win_text",
        &[HAND, MELDS],
        T::Str,
        "a winning hand's sets and pair in words (empty if it does not win)",
        mj_win_text,
    );
    r.function(
        "mahjong.waits",
        &[HAND, MELDS, SEEN, TWO_PLAYER],
        &[T::Str, T::Int, T::Str],
        true,
        "one solution per winning kind of a waiting hand: tile, live copies, the completed hand in words",
        mj_waits,
    );
    r.func(
        "mahjong.wait_tiles",
        &[HAND, MELDS, SEEN, TWO_PLAYER],
        T::List,
        "the winning kinds of a waiting hand (both forms; kinds whose four copies are all own are not waits)",
        mj_wait_tiles,
    );
}

/// The choices: useful tiles, discards and calls.
fn register_choices(r: &mut Registry) {
    r.function(
        "mahjong.useful",
        &[HAND, MELDS, SEEN, TWO_PLAYER],
        &[T::List, T::Int],
        false,
        "the kinds whose draw lowers shanten (live ones only) and their live copies",
        mj_useful,
    );
    r.function(
        "mahjong.discards",
        &[HAND, MELDS, SEEN, TWO_PLAYER, ("detail", T::Bool)],
        &[T::Str, T::Int, T::Int, T::Int, T::List, T::Str, T::Int, T::List, T::Int],
        true,
        "one solution per kind held: tile, kind index, shanten after, live useful tiles, useful kinds, where it sits in the best split (`a single`, `in a gapped partial`, …), shape rank 0–4, waits if ready, their live copies; with detail false the shapes are computed only when the best (shanten, live tiles) is tied (all `a single` otherwise) and no waits",
        mj_discards,
    );
    r.function(
        "mahjong.calls",
        &[HAND, MELDS, SEEN, TWO_PLAYER, ("offered", T::Str), ("chow", T::Bool)],
        &[T::Str, T::Str, T::List, T::List, T::Int, T::Int, T::Int, T::Int, T::Int, T::Int, T::Str],
        true,
        "one solution per legal call on the offered tile (seen includes it): kind, meld, its tiles, tiles from hand, order (kong, pong, chows low first), singles, gapped, adjacent left, shanten after, live useful tiles after, the best discard in words",
        mj_calls,
    );
    r.function(
        "mahjong.shape",
        &[HAND, MELDS, SEEN, TWO_PLAYER],
        &[T::Int, T::Int, T::Int, T::Str],
        false,
        "the best split's singles, gapped and adjacent partials, and the split in words",
        mj_shape,
    );
    r.function(
        "mahjong.kongs",
        &[HAND, MELDS],
        &[T::Str, T::Int, T::Str, T::Int],
        true,
        "one solution per kong the own turn allows: tile, kind index, concealed or added, shanten after",
        mj_kongs,
    );
    r.function(
        "mahjong.deal_in",
        &[
            HAND,
            MELDS,
            SEEN,
            TWO_PLAYER,
            ("ready", T::Bool),
            ("safe", T::List),
            ("thrown", T::List),
            ("before_ready", T::List),
            ("opponent_melds", T::Int),
            ("tile", T::Str),
        ],
        &[T::Num, T::Str],
        false,
        "the chance that discarding tile completes the opponent's hand, and why: 0 unless ready (it has declared ready); 0 for tiles in safe (shown not to win for it since) and kinds it cannot wait on; else an estimate from the copies unseen, nearly 0 for kinds in thrown (its own discards); before_ready (its last discard before the declaring one, or none) clears the honours above it, or every honour after a character, of being held as singles (docs/mahjong.md)",
        mj_deal_in,
    );
    r.func(
        "mahjong.highest",
        &[HAND],
        T::Str,
        "the highest tile held (honours above numbers)",
        mj_highest,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tile_value_is_its_canonical_text_and_reads_back_by_address_or_by_text() {
        for t in Tile::all() {
            let Value::Str(made) = tile_value(t) else {
                panic!("{t}: not a string value");
            };
            assert_eq!(made.as_str(), t.to_string());
            assert_eq!(made_tile(&made), Some(t), "{t}: made by tile_value");
            // The same text made elsewhere (a rule literal, an input) is read by its text.
            for other in [Text::from(made.as_str()), Text::interned(made.as_str())] {
                assert_eq!(made_tile(&other), None, "{t}: not made by tile_value");
                assert_eq!(text_tile(&other), Some(t));
            }
        }
        // Pieces of the table that are no tile's text are not read as tiles.
        for (at, len) in [
            (1, 2),
            (0, 1),
            (54, 2),
            (1, 1),
            (55, 1),
            (66, 2),
            (67, 1),
            (68, 0),
            (2, 3),
        ] {
            if let Some(piece) = TILE_TEXTS.get(at..at + len) {
                let text = Text::fixed(piece);
                assert_eq!(made_tile(&text), None, "{piece:?} at {at}");
                assert_eq!(text_tile(&text), read_tile(piece), "{piece:?} at {at}");
            }
        }
        assert_eq!(text_tile(&Text::from("5z")), Tile::from_index(31));
        assert_eq!(text_tile(&Text::from("m5")), None);
    }

    #[test]
    fn every_meld_is_listed_as_its_canonical_text() {
        let melds: Vec<Meld> = Tile::all()
            .flat_map(|t| {
                [
                    Meld::chow(t),
                    Some(Meld::pong(t)),
                    Some(Meld::kong(t)),
                    Some(Meld::concealed_kong(t)),
                ]
            })
            .flatten()
            .collect();
        assert_eq!(melds.len(), 21 + 3 * KINDS);
        let Value::List(listed) = melds_value(&melds) else {
            panic!("not a list");
        };
        let texts: Vec<String> = listed.iter().map(|v| v.to_string()).collect();
        let expected: Vec<String> = melds.iter().map(|m| format!("{:?}", m.to_string())).collect();
        assert_eq!(texts, expected);
        assert_eq!(
            melds_arg("m", 1, &melds_value(&melds[..4])).ok(),
            Some(melds[..4].to_vec())
        );
    }

    #[test]
    fn a_list_of_tiles_reads_back_to_the_counts_it_was_made_from() {
        let counts: Counts = std::array::from_fn(|i| (i * 7 % 5) as u8);
        let list = tiles_value(&counts);
        assert_eq!(counts_arg("t", 1, &list).ok(), Some(counts));
        let mut five = NO_TILES;
        five[3] = 5;
        five[30] = 4;
        let Value::List(items) = tiles_value(&five) else {
            panic!("not a list");
        };
        assert_eq!(items.len(), 9, "every copy is listed, even a fifth");
    }
}
