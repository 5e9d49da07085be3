//! The hand value of `docs/durak.md` (the original function with its defects corrected).
//!
//! Two paths share the same per-term arithmetic: [`hand_value`] itemises every term with a label a
//! player can check by hand, and [`ValueModel::total`] (tables built once from the parameters) gives
//! the bare total fast enough for the decision policy and the arena. Each term is exact (integer
//! algebra on numerators and denominators) and truncated toward zero on its own: one term per card,
//! per rank held two or more times, per non-trump suit, plus the hand-size term.

use super::cards::{rank_pretty, Card, CardSet, Suit};
use super::error::DurakError;
use super::frac::Frac;

/// Every constant of the hand value. Rank values are in "units" (ace 6 … deuce −6), as the original code's
/// `relativeCardValue`; a card's term multiplies them by `rank_multiplier`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueParams {
    /// Value of ranks 2..=14 (index rank − 2): −6 … +6.
    pub rank_values: [i64; 13],
    /// 100: turns a rank value into points.
    pub rank_multiplier: i64,
    /// 1300: added to a trump card.
    pub trump_bonus: i64,
    /// 30000: the value of an empty hand with an empty stock.
    pub out_of_play: i64,
    /// [0, 0, 0.5, 0.75, 1.25]: factor for a rank held k times.
    pub same_rank_bonus: [Frac; 5],
    /// 100 by default; 1 reproduces the original code, which forgot the × 100.
    pub same_rank_bonus_scale: Frac,
    /// 1: the bonus uses max(rank value, this), so low pairs still earn something.
    pub same_rank_min_value: i64,
    /// 200: penalty per unit of relative deviation of a non-trump suit from the even split.
    pub suit_balance_penalty: Frac,
    /// 0.25: the share of the cards in play a hand "should" hold.
    pub hand_size_target: Frac,
    /// 600: scale of the hand-size term.
    pub hand_size_penalty: Frac,
    /// 10: the ratio used when no other card is in play.
    pub hand_size_empty_ratio: Frac,
}

impl Default for ValueParams {
    fn default() -> Self {
        ValueParams {
            rank_values: [-6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6],
            rank_multiplier: 100,
            trump_bonus: 1300,
            out_of_play: 30000,
            same_rank_bonus: [
                Frac::int(0),
                Frac::int(0),
                Frac::lit(1, 2),
                Frac::lit(3, 4),
                Frac::lit(5, 4),
            ],
            same_rank_bonus_scale: Frac::int(100),
            same_rank_min_value: 1,
            suit_balance_penalty: Frac::int(200),
            hand_size_target: Frac::lit(1, 4),
            hand_size_penalty: Frac::int(600),
            hand_size_empty_ratio: Frac::int(10),
        }
    }
}

/// Parameter names accepted by [`ValueParams::set`].
pub const VALUE_PARAM_NAMES: &[&str] = &[
    "rank_value_<R> (R = 2..9, T or 10, J, Q, K, A)",
    "rank_multiplier",
    "trump_bonus",
    "out_of_play",
    "same_rank_bonus_<K> (K = 0..4)",
    "same_rank_bonus_scale",
    "same_rank_min_value",
    "suit_balance_penalty",
    "hand_size_target",
    "hand_size_penalty",
    "hand_size_empty_ratio",
];

/// Largest magnitude accepted for any constant, so that the i128 term arithmetic stays exact.
const PARAM_LIMIT: i64 = 1_000_000_000;

impl ValueParams {
    /// The original code literally: the same-rank bonus without its × 100.
    pub fn original_literal() -> Self {
        ValueParams {
            same_rank_bonus_scale: Frac::int(1),
            ..ValueParams::default()
        }
    }

    /// Sets one constant by name from its text (`100`, `0.75`, `1/4`); integers where the original code has
    /// integers. The names are the rule file's parameter names (see [`VALUE_PARAM_NAMES`]).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), DurakError> {
        let bad = |reason: String| DurakError::BadParam {
            name: name.to_string(),
            reason,
        };
        let frac = Frac::parse(value).map_err(|e| bad(e.to_string()))?;
        if frac.num().abs() > PARAM_LIMIT || frac.den() > PARAM_LIMIT {
            return Err(bad(format!("`{value}` is out of range (±{PARAM_LIMIT})")));
        }
        let int = || {
            if frac.den() == 1 {
                Ok(frac.num())
            } else {
                Err(bad(format!("`{value}` must be an integer")))
            }
        };
        if let Some(rank_text) = name.strip_prefix("rank_value_") {
            let rank = match rank_text.to_ascii_uppercase().as_str() {
                "T" | "10" => 10,
                "J" => 11,
                "Q" => 12,
                "K" => 13,
                "A" => 14,
                d if d.len() == 1 && ("2"..="9").contains(&d) => d.as_bytes()[0] - b'0',
                _ => return Err(bad(format!("unknown rank `{rank_text}`"))),
            };
            self.rank_values[rank as usize - 2] = int()?;
            return Ok(());
        }
        if let Some(k_text) = name.strip_prefix("same_rank_bonus_") {
            if k_text != "scale" {
                let k: usize = k_text
                    .parse()
                    .ok()
                    .filter(|k| *k <= 4)
                    .ok_or_else(|| bad(format!("unknown count `{k_text}` (0..4)")))?;
                self.same_rank_bonus[k] = frac;
                return Ok(());
            }
        }
        match name {
            "rank_multiplier" => self.rank_multiplier = int()?,
            "trump_bonus" => self.trump_bonus = int()?,
            "out_of_play" => self.out_of_play = int()?,
            "same_rank_bonus_scale" => self.same_rank_bonus_scale = frac,
            "same_rank_min_value" => self.same_rank_min_value = int()?,
            "suit_balance_penalty" => self.suit_balance_penalty = frac,
            "hand_size_target" => self.hand_size_target = frac,
            "hand_size_penalty" => self.hand_size_penalty = frac,
            "hand_size_empty_ratio" => self.hand_size_empty_ratio = frac,
            _ => return Err(bad("unknown parameter".to_string())),
        }
        Ok(())
    }
}

/// Reads every player's hand size, this player's first: `6,6,5` or `6 6 5`.
pub fn parse_hand_sizes(s: &str) -> Result<Vec<usize>, DurakError> {
    let sizes: Result<Vec<usize>, DurakError> = s
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<usize>()
                .ok()
                .filter(|n| *n <= 52)
                .ok_or_else(|| DurakError::BadNumber {
                    token: t.to_string(),
                    reason: "a hand size is a whole number 0..52".to_string(),
                })
        })
        .collect();
    let sizes = sizes?;
    if sizes.is_empty() {
        return Err(DurakError::BadNumber {
            token: s.trim().to_string(),
            reason: "no hand sizes given".to_string(),
        });
    }
    Ok(sizes)
}

/// What a term is about, for callers that compare breakdowns without parsing labels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TermKind {
    /// The out-of-play term (`OutOfPlay`): empty hand, empty stock.
    OutOfPlay,
    /// One card's term (`CardValue`, `TrumpValue`): its rank value, plus the trump bonus if a trump.
    Card(Card),
    /// The same-rank bonus (`SameRank`): a rank held `count` ≥ 2 times.
    SameRank {
        /// The rank (2..=14).
        rank: u8,
        /// How many cards of that rank the hand holds (2..=4).
        count: usize,
    },
    /// The suit balance (`SuitBalance`): one non-trump suit held `count` times.
    SuitBalance {
        /// The suit.
        suit: Suit,
        /// How many cards of that suit the hand holds.
        count: usize,
    },
    /// The hand-size term (`HandSize`, `HandSizeAlone`).
    HandSize,
}

/// One line of the breakdown: `label` is checkable by hand, `value` is the truncated integer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    /// Which term this is.
    pub kind: TermKind,
    /// The term in words, with its numbers (e.g. `hearts 1 vs 1.33 expected: −50`).
    pub label: String,
    /// The term's points, truncated toward zero.
    pub value: i64,
}

/// A hand's value with its itemised breakdown; `total` is the sum of the terms' values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandValue {
    /// The hand value: the sum of the terms' values.
    pub total: i64,
    /// The terms, one per line of the breakdown.
    pub terms: Vec<Term>,
}

fn sat(x: i128) -> i64 {
    x.clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

fn mul(a: i128, b: i128) -> i128 {
    a.saturating_mul(b)
}

/// Exact `num/den` truncated toward zero (i128 division truncates); `den` is never 0 here.
fn trunc(num: i128, den: i128) -> i64 {
    if den == 0 {
        return 0;
    }
    sat(num / den)
}

/// "+600", "−100" (with a real minus sign, as the labels are for people), "+0".
pub fn signed(x: i64) -> String {
    if x < 0 {
        format!("−{}", x.unsigned_abs())
    } else {
        format!("+{x}")
    }
}

/// A rank value or a plain integer as shown inside a formula: "−1", "6".
fn plain(x: i64) -> String {
    if x < 0 {
        format!("−{}", x.unsigned_abs())
    } else {
        x.to_string()
    }
}

fn plain_frac(f: Frac) -> String {
    let s = f.to_string();
    match s.strip_prefix('-') {
        Some(rest) => format!("−{rest}"),
        None => s,
    }
}

fn rank_value(rank: u8, p: &ValueParams) -> i64 {
    p.rank_values.get((rank as usize).wrapping_sub(2)).copied().unwrap_or(0)
}

/// A card's term, split as (rank part, trump part).
fn rank_parts(rank: u8, is_trump: bool, p: &ValueParams) -> (i64, i64) {
    let base = sat(mul(rank_value(rank, p) as i128, p.rank_multiplier as i128));
    (base, if is_trump { p.trump_bonus } else { 0 })
}

fn card_parts(card: Card, trump: Suit, p: &ValueParams) -> (i64, i64) {
    rank_parts(card.rank(), card.suit() == trump, p)
}

/// The same-rank bonus: max(rank value, min) × bonus[k] × scale, truncated.
pub(super) fn same_rank_points(rank: u8, count: usize, p: &ValueParams) -> i64 {
    let v = rank_value(rank, p).max(p.same_rank_min_value) as i128;
    let b = p.same_rank_bonus[count.min(4)];
    let s = p.same_rank_bonus_scale;
    trunc(
        mul(mul(v, b.num() as i128), s.num() as i128),
        mul(b.den() as i128, s.den() as i128),
    )
}

/// The suit balance of one suit: −P × |count − n/3| / (n/3) = −P × |3·count − n| / n, truncated; `n` > 0.
pub(super) fn suit_balance_points(count: usize, non_trumps: usize, p: &ValueParams) -> i64 {
    let pen = p.suit_balance_penalty;
    let dev = (3 * count as i128 - non_trumps as i128).abs();
    -trunc(mul(pen.num() as i128, dev), mul(pen.den() as i128, non_trumps as i128))
}

/// The hand-size term: (target − ratio) × penalty, ratio = h / in_play, or the empty ratio when `in_play` ≤ 0.
pub(super) fn hand_size_points(h: usize, in_play: i64, p: &ValueParams) -> i64 {
    let t = p.hand_size_target;
    let m = p.hand_size_penalty;
    // ratio as a fraction rn/rd
    let (rn, rd) = if in_play > 0 {
        (h as i128, in_play as i128)
    } else {
        let e = p.hand_size_empty_ratio;
        (e.num() as i128, e.den() as i128)
    };
    let diff_num = mul(t.num() as i128, rd) - mul(rn, t.den() as i128);
    let diff_den = mul(t.den() as i128, rd);
    trunc(mul(diff_num, m.num() as i128), mul(diff_den, m.den() as i128))
}

/// Other cards in play: stock + every hand size − |H| (the hand-size term's "others"). May be ≤ 0 for hypothetical
/// hands that include table cards; every value ≤ 0 counts as "nothing else in play".
pub(super) fn cards_in_play(h: usize, stock: usize, sizes_total: usize) -> i64 {
    (stock as i64)
        .saturating_add(sizes_total as i64)
        .saturating_sub(h as i64)
}

fn count_word(k: usize) -> String {
    match k {
        2 => "two".to_string(),
        3 => "three".to_string(),
        4 => "four".to_string(),
        other => other.to_string(),
    }
}

fn rank_plural(rank: u8) -> String {
    match rank {
        11 => "jacks".to_string(),
        12 => "queens".to_string(),
        13 => "kings".to_string(),
        14 => "aces".to_string(),
        r => format!("{}s", rank_pretty(r)),
    }
}

/// n/3 as a person writes it: "2", "1.33", "2.67".
fn third(n: usize) -> String {
    if n.is_multiple_of(3) {
        (n / 3).to_string()
    } else {
        let hundredths = (n * 100 + 1) / 3;
        format!("{}.{:02}", hundredths / 100, hundredths % 100)
    }
}

/// The hand value of `docs/durak.md` with its itemised breakdown.
///
/// `stock` is R, the cards left in the stock; `hand_sizes` are every player's hand sizes (this
/// player's first; only their sum matters). The hand is a set: a card listed twice counts once.
/// Terms come in this order: cards (in the given order), same-rank bonuses (ranks ascending),
/// suit balance (♠ ♥ ♦ ♣ without the trump), hand size.
pub fn hand_value(hand: &[Card], trump: Suit, stock: usize, hand_sizes: &[usize], params: &ValueParams) -> HandValue {
    let mut set = CardSet::EMPTY;
    let mut cards = Vec::with_capacity(hand.len());
    for &c in hand {
        if !set.contains(c) {
            set.insert(c);
            cards.push(c);
        }
    }
    let h = cards.len();
    let mut terms = Vec::new();
    if stock == 0 && h == 0 {
        terms.push(Term {
            kind: TermKind::OutOfPlay,
            label: format!("out of play (hand and stock empty): {}", signed(params.out_of_play)),
            value: params.out_of_play,
        });
        return HandValue {
            total: params.out_of_play,
            terms,
        };
    }
    for &c in &cards {
        let (base, bonus) = card_parts(c, trump, params);
        let label = if c.suit() == trump {
            format!("trump {} {} {}", c.pretty(), signed(base), signed(bonus))
        } else {
            format!("{} {}", c.pretty(), signed(base))
        };
        terms.push(Term {
            kind: TermKind::Card(c),
            label,
            value: base.saturating_add(bonus),
        });
    }
    for rank in 2..=14u8 {
        let k = set.count_rank(rank);
        if k < 2 {
            continue;
        }
        let v = rank_value(rank, params);
        let floor = params.same_rank_min_value;
        let shown_v = if v < floor {
            format!("max({}, {})", plain(v), plain(floor))
        } else {
            plain(v)
        };
        let value = same_rank_points(rank, k, params);
        terms.push(Term {
            kind: TermKind::SameRank { rank, count: k },
            label: format!(
                "{} {}: bonus {} × {} × {} = {}",
                count_word(k),
                rank_plural(rank),
                shown_v,
                plain_frac(params.same_rank_bonus[k.min(4)]),
                plain_frac(params.same_rank_bonus_scale),
                signed(value)
            ),
            value,
        });
    }
    let non_trumps = h - set.count_suit(trump);
    if non_trumps > 0 {
        for suit in Suit::ALL.into_iter().filter(|s| *s != trump) {
            let count = set.count_suit(suit);
            let value = suit_balance_points(count, non_trumps, params);
            terms.push(Term {
                kind: TermKind::SuitBalance { suit, count },
                label: format!(
                    "{} {} vs {} expected: {}",
                    suit.name(),
                    count,
                    third(non_trumps),
                    if value == 0 { "0".to_string() } else { signed(value) }
                ),
                value,
            });
        }
    }
    let sizes_total = hand_sizes.iter().fold(0usize, |acc, s| acc.saturating_add(*s));
    let in_play = cards_in_play(h, stock, sizes_total);
    let value = hand_size_points(h, in_play, params);
    let t = plain_frac(params.hand_size_target);
    let m = plain_frac(params.hand_size_penalty);
    let label = if in_play > 0 {
        format!(
            "hand size: {h} cards, {in_play} others in play: ({t} − {h}/{in_play}) × {m} = {}",
            signed(value)
        )
    } else {
        format!(
            "hand size: {h} cards, nothing else in play: ({t} − {}) × {m} = {}",
            plain_frac(params.hand_size_empty_ratio),
            signed(value)
        )
    };
    terms.push(Term {
        kind: TermKind::HandSize,
        label,
        value,
    });
    let total = terms.iter().fold(0i64, |acc, t| acc.saturating_add(t.value));
    HandValue { total, terms }
}

/// Largest "other cards in play" count kept in the hand-size table; larger counts (only from
/// hypothetical inputs) are computed directly.
const IN_PLAY_TABLE: usize = 64;

/// Table entries are clamped to ±2^40 so that summing at most 60 of them can never overflow; with
/// constants inside the ±10^9 that [`ValueParams::set`] accepts no entry comes near the clamp.
const ENTRY_LIMIT: i64 = 1 << 40;

fn clamp_entry(x: i64) -> i64 {
    x.clamp(-ENTRY_LIMIT, ENTRY_LIMIT)
}

/// The hand value compiled for speed: per-term tables built once from [`ValueParams`].
///
/// A suit's 13 rank bits are split into a low 7-bit and a high 6-bit half; each half's table
/// entry packs (sum of the cards' rank points) × 256 + (number of cards), so adding entries gives
/// both the points and the lengths without a popcount (the target may lack the instruction).
#[derive(Clone, Debug)]
pub struct ValueModel {
    params: ValueParams,
    suit_lo: [i64; 128],
    suit_hi: [i64; 64],
    trump_bonus: i64,
    out_of_play: i64,
    same_rank: [[i64; 5]; 13],
    /// index non_trumps × 14 + count
    suit_balance: Vec<i64>,
    /// index h × (IN_PLAY_TABLE + 1) + in_play, in_play 0 meaning "nothing else in play"
    hand_size: Vec<i64>,
}

impl Default for ValueModel {
    fn default() -> Self {
        ValueModel::new(ValueParams::default())
    }
}

impl ValueModel {
    /// A model for `params`, its lookup tables computed once here.
    pub fn new(params: ValueParams) -> ValueModel {
        let rank_points: Vec<i64> = (2..=14u8)
            .map(|r| clamp_entry(rank_parts(r, false, &params).0))
            .collect();
        let packed = |bits: usize, offset: usize| -> i64 {
            let mut sum = 0i64;
            let mut count = 0i64;
            for i in 0..7 {
                if bits >> i & 1 == 1 {
                    sum += rank_points.get(i + offset).copied().unwrap_or(0);
                    count += 1;
                }
            }
            sum * 256 + count
        };
        let mut suit_lo = [0i64; 128];
        for (b, slot) in suit_lo.iter_mut().enumerate() {
            *slot = packed(b, 0);
        }
        let mut suit_hi = [0i64; 64];
        for (b, slot) in suit_hi.iter_mut().enumerate() {
            *slot = packed(b, 7);
        }
        let mut same_rank = [[0i64; 5]; 13];
        for (r, row) in same_rank.iter_mut().enumerate() {
            for (k, slot) in row.iter_mut().enumerate() {
                if k >= 2 {
                    *slot = clamp_entry(same_rank_points(r as u8 + 2, k, &params));
                }
            }
        }
        let mut suit_balance = vec![0i64; 53 * 14];
        for n in 1..=52 {
            for c in 0..14 {
                suit_balance[n * 14 + c] = clamp_entry(suit_balance_points(c, n, &params));
            }
        }
        let mut hand_size = vec![0i64; 53 * (IN_PLAY_TABLE + 1)];
        for h in 0..=52 {
            for ip in 0..=IN_PLAY_TABLE {
                hand_size[h * (IN_PLAY_TABLE + 1) + ip] = clamp_entry(hand_size_points(h, ip as i64, &params));
            }
        }
        ValueModel {
            trump_bonus: clamp_entry(params.trump_bonus),
            out_of_play: params.out_of_play,
            params,
            suit_lo,
            suit_hi,
            same_rank,
            suit_balance,
            hand_size,
        }
    }

    /// The parameters the model was built with.
    pub fn params(&self) -> &ValueParams {
        &self.params
    }

    /// The itemised value (same as [`hand_value`] with this model's parameters).
    pub fn explain(&self, hand: &[Card], trump: Suit, stock: usize, hand_sizes: &[usize]) -> HandValue {
        hand_value(hand, trump, stock, hand_sizes, &self.params)
    }

    /// The total only; `sizes_total` is the sum of every player's hand size (this player's
    /// included). Equal to [`hand_value`]'s total whenever no term exceeds ±2^40.
    #[inline]
    pub fn total(&self, hand: CardSet, trump: Suit, stock: usize, sizes_total: usize) -> i64 {
        let bits = hand.bits();
        let s = [
            bits & 0x1fff,
            bits >> 13 & 0x1fff,
            bits >> 26 & 0x1fff,
            bits >> 39 & 0x1fff,
        ];
        let t = trump.index() & 3;
        let mut packed = [0i64; 4];
        for i in 0..4 {
            packed[i] = self.suit_lo[(s[i] & 127) as usize] + self.suit_hi[(s[i] >> 7 & 63) as usize];
        }
        let len = |e: i64| (e & 255) as usize;
        let trump_len = len(packed[t]);
        let h = len(packed[0]) + len(packed[1]) + len(packed[2]) + len(packed[3]);
        if stock == 0 && h == 0 {
            return self.out_of_play;
        }
        // Σ entries = (Σ points) × 256 + h with 0 ≤ h < 256, so an arithmetic shift recovers Σ points.
        let sum_packed = packed[0] + packed[1] + packed[2] + packed[3];
        let mut total = (sum_packed >> 8) + self.trump_bonus * trump_len as i64;
        let mut pairs = (s[0] & s[1]) | (s[0] & s[2]) | (s[0] & s[3]) | (s[1] & s[2]);
        pairs |= (s[1] & s[3]) | (s[2] & s[3]);
        while pairs != 0 {
            let r = pairs.trailing_zeros();
            pairs &= pairs - 1;
            let k = ((s[0] >> r) & 1) + ((s[1] >> r) & 1) + ((s[2] >> r) & 1) + ((s[3] >> r) & 1);
            total += self.same_rank[(r as usize).min(12)][(k as usize).min(4)];
        }
        let non_trumps = h - trump_len;
        if non_trumps > 0 {
            let row = non_trumps.min(52) * 14;
            for (i, e) in packed.iter().enumerate() {
                if i != t {
                    total += self.suit_balance[row + len(*e).min(13)];
                }
            }
        }
        let in_play = cards_in_play(h, stock, sizes_total);
        let hs = if in_play <= 0 {
            self.hand_size[h.min(52) * (IN_PLAY_TABLE + 1)]
        } else if in_play as usize <= IN_PLAY_TABLE {
            self.hand_size[h.min(52) * (IN_PLAY_TABLE + 1) + in_play as usize]
        } else {
            clamp_entry(hand_size_points(h, in_play, &self.params))
        };
        total + hs
    }
}

#[cfg(test)]
mod tests {
    use super::super::cards::parse_cards;
    use super::*;

    fn value(hand: &str, trump: Suit, stock: usize, sizes: &[usize], p: &ValueParams) -> HandValue {
        let cards = parse_cards(hand).unwrap();
        let v = hand_value(&cards, trump, stock, sizes, p);
        // Every case also checks the fast path and that the breakdown sums to the total.
        let model = ValueModel::new(p.clone());
        let total: i64 = sizes.iter().sum::<usize>() as i64;
        assert_eq!(
            model.total(CardSet::from_cards(&cards), trump, stock, total as usize),
            v.total
        );
        assert_eq!(v.terms.iter().map(|t| t.value).sum::<i64>(), v.total);
        v
    }

    fn labels(v: &HandValue) -> Vec<String> {
        v.terms.iter().map(|t| t.label.clone()).collect()
    }

    #[test]
    fn empty_hand_with_empty_stock_is_out_of_play() {
        let v = value("", Suit::Hearts, 0, &[0, 5], &ValueParams::default());
        assert_eq!(v.total, 30000);
        assert_eq!(labels(&v), ["out of play (hand and stock empty): +30000"]);
        // With cards left in the stock an empty hand is only worth the hand-size term:
        // in play = 4 + 5 − 0 = 9, (0.25 − 0/9) × 600 = 150.
        let v = value("", Suit::Hearts, 4, &[0, 5], &ValueParams::default());
        assert_eq!(v.total, 150);
    }

    #[test]
    fn all_non_trumps_in_one_suit() {
        // 6♠ 7♠ 9♠, trump ♥: cards −200 −100 +100; a = 1; spades |3−1|/1 → −400, diamonds and
        // clubs |0−1|/1 → −200 each; in play = 10 + 9 − 3 = 16: (1/4 − 3/16) × 600 = 37.5 → 37.
        let v = value("6S 7S 9S", Suit::Hearts, 10, &[3, 6], &ValueParams::default());
        assert_eq!(
            labels(&v),
            [
                "6♠ −200",
                "7♠ −100",
                "9♠ +100",
                "spades 3 vs 1 expected: −400",
                "diamonds 0 vs 1 expected: −200",
                "clubs 0 vs 1 expected: −200",
                "hand size: 3 cards, 16 others in play: (0.25 − 3/16) × 600 = +37",
            ]
        );
        assert_eq!(v.total, -963);
    }

    #[test]
    fn four_of_a_kind_and_the_original_scale() {
        // Q♠ Q♥ Q♦ Q♣, trump ♦: 4 × 400 + 1300; bonus 4 × 1.25 × 100 = 500; each non-trump suit
        // holds 1 = a; in play = 0 + 7 − 4 = 3: (1/4 − 4/3) × 600 = −650.
        let v = value("QS QH QD QC", Suit::Diamonds, 0, &[4, 3], &ValueParams::default());
        assert_eq!(v.total, 2900 + 500 - 650);
        assert!(labels(&v).contains(&"trump Q♦ +400 +1300".to_string()));
        assert!(labels(&v).contains(&"four queens: bonus 4 × 1.25 × 100 = +500".to_string()));
        assert!(labels(&v).contains(&"spades 1 vs 1 expected: 0".to_string()));
        // The original code literally: 4 × 1.25 = 5 points.
        let v = value(
            "QS QH QD QC",
            Suit::Diamonds,
            0,
            &[4, 3],
            &ValueParams::original_literal(),
        );
        assert_eq!(v.total, 2900 + 5 - 650);
    }

    #[test]
    fn three_of_a_kind_truncates_with_scale_one() {
        // Three 9s: max(1, 1) × 0.75 × 1 = 0.75 → 0 with the original scale; × 100 → 75.
        let lit = value(
            "9S 9H 9C",
            Suit::Diamonds,
            20,
            &[3, 6],
            &ValueParams::original_literal(),
        );
        let spec = value("9S 9H 9C", Suit::Diamonds, 20, &[3, 6], &ValueParams::default());
        assert_eq!(spec.total - lit.total, 75);
        // Three 7s use max(−1, 1).
        let v = value("7S 7H 7C", Suit::Diamonds, 20, &[3, 6], &ValueParams::default());
        assert!(labels(&v).contains(&"three 7s: bonus max(−1, 1) × 0.75 × 100 = +75".to_string()));
    }

    #[test]
    fn fifty_two_card_deck_low_ranks() {
        // 2♠ 2♥ 3♦ A♣, trump ♣: −600 −600 −500 +600+1300; two 2s: max(−6,1) × 0.5 × 100 = 50;
        // suits 1,1,1 = a; in play = 20 + 16 − 4 = 32: (1/4 − 4/32) × 600 = 75.
        let v = value("2S 2H 3D AC", Suit::Clubs, 20, &[4, 6, 6], &ValueParams::default());
        // cards −600 −600 −500 +1900 = 200.
        assert_eq!(v.total, 200 + 50 + 75);
    }

    #[test]
    fn thirty_six_card_deck_hand() {
        // 6♠ 6♦ 10♥ K♣ A♦ 9♥, trump ♥ (36 cards, start of a 2-player game: stock 24, hands 6,6):
        // cards −200 −200 +1500 +500 +600 +1400 = 3600; two 6s: max(−2,1) × 0.5 × 100 = 50;
        // non-trumps 4, a = 4/3: spades 1 → −50, diamonds 2 → −100, clubs 1 → −50;
        // in play = 24 + 12 − 6 = 30: (1/4 − 6/30) × 600 = 30.
        let v = value("6S 6D 10H KC AD 9H", Suit::Hearts, 24, &[6, 6], &ValueParams::default());
        assert_eq!(v.total, 3600 + 50 - 200 + 30);
        assert!(labels(&v).contains(&"trump 10♥ +200 +1300".to_string()));
        assert!(labels(&v).contains(&"diamonds 2 vs 1.33 expected: −100".to_string()));
    }

    #[test]
    fn the_briefs_example_suit_line() {
        // 7♣ 8♣ 9♣ K♠, trump ♥: a = 4/3; clubs |3 − 4/3| / (4/3) = 5/4 → −250.
        let v = value("7C 8C 9C KS", Suit::Hearts, 12, &[4, 6], &ValueParams::default());
        assert!(labels(&v).contains(&"clubs 3 vs 1.33 expected: −250".to_string()));
        // cards 500; suits −50 −200 −250; in play 18: (1/4 − 4/18) × 600 = 16.67 → 16.
        let (cards, suits, size) = (500, -500, 16);
        assert_eq!(v.total, cards + suits + size);
    }

    #[test]
    fn each_suit_term_is_truncated_on_its_own() {
        // 7 non-trumps, a = 7/3: counts 3, 2, 2 → 400/7 = 57.1, 200/7 = 28.6, 28.6 → −57 −28 −28
        // (truncating the sum instead would give −114).
        let v = value(
            "6S 7S 8S 6H 7H 6C 7C",
            Suit::Diamonds,
            0,
            &[7, 30],
            &ValueParams::default(),
        );
        let suit_sum: i64 = v
            .terms
            .iter()
            .filter(|t| matches!(t.kind, TermKind::SuitBalance { .. }))
            .map(|t| t.value)
            .sum();
        assert_eq!(suit_sum, -113);
    }

    #[test]
    fn negative_terms_truncate_toward_zero() {
        // h = 5, in play = 7: (1/4 − 5/7) × 600 = −278.57 → −278, not −279.
        assert_eq!(hand_size_points(5, 7, &ValueParams::default()), -278);
    }

    #[test]
    fn all_trumps_has_no_suit_terms_and_nothing_else_in_play_uses_ratio_ten() {
        // 6♦ 7♦ trump ♦, stock 0, other hands empty: in play 0 → (0.25 − 10) × 600 = −5850.
        let v = value("6D 7D", Suit::Diamonds, 0, &[2, 0], &ValueParams::default());
        assert_eq!(
            labels(&v),
            [
                "trump 6♦ −200 +1300",
                "trump 7♦ −100 +1300",
                "hand size: 2 cards, nothing else in play: (0.25 − 10) × 600 = −5850",
            ]
        );
        assert_eq!(v.total, 1100 + 1200 - 5850);
    }

    #[test]
    fn hand_sizes_parse() {
        assert_eq!(parse_hand_sizes("6,6,5").unwrap(), [6, 6, 5]);
        assert_eq!(parse_hand_sizes(" 6 0 ").unwrap(), [6, 0]);
        assert_eq!(
            parse_hand_sizes("6,x").unwrap_err().to_string(),
            "`x`: a hand size is a whole number 0..52"
        );
        assert!(parse_hand_sizes("").is_err());
        assert!(parse_hand_sizes("99").is_err());
    }

    #[test]
    fn params_by_name() {
        let mut p = ValueParams::default();
        p.set("same_rank_bonus_scale", "1").unwrap();
        assert_eq!(p, ValueParams::original_literal());
        p.set("rank_value_A", "7").unwrap();
        p.set("rank_value_10", "3").unwrap();
        p.set("same_rank_bonus_3", "0.8").unwrap();
        assert_eq!(p.rank_values[12], 7);
        assert_eq!(p.rank_values[8], 3);
        assert_eq!(p.same_rank_bonus[3], Frac::lit(4, 5));
        assert!(p.set("trump_bonus", "0.5").is_err());
        assert!(p.set("nonsense", "1").is_err());
        assert!(p.set("rank_value_1", "1").is_err());
        assert!(p.set("same_rank_bonus_7", "1").is_err());
        assert!(p.set("trump_bonus", "99999999999").is_err());
    }
}
