//! Move generation: every play a hand can lead, every play that answers a given play.
//!
//! The kicker ("wing") rules are RLCard's (its action space is the reference move set):
//! - trio + single: any card of another rank; trio + pair: a pair of another rank;
//! - airplane single wings: cards of ranks outside the chain, at most three of one rank,
//!   at most two of a rank right next to the chain (three would extend it; `2` cannot
//!   extend a chain so it is exempt), never both jokers;
//! - airplane pair wings: pairs of distinct ranks outside the chain;
//! - four + two singles: two cards of other ranks (a pair is fine), never both jokers;
//! - four + two pairs: pairs of two distinct other ranks (a second four is not two pairs).
//!
//! Chain lengths follow RLCard too: straights 5–12, pair chains 3–10, bare airplanes 2–6,
//! airplanes with singles 2–5, with pairs 2–4 (no play has more than 20 cards).
//!
//! Internally generation is callback-driven (`FnMut(Play) -> bool`, `true` = stop) so the
//! solver can ask "is there any answer?" without building a list.

use super::hand::{Hand, ACE, BLACK_JOKER, RANKS, RED_JOKER};
use super::play::{Play, PlayKind};
use super::rules::Rules;

/// Every play `hand` may lead under `rules`, one per distinct set of cards (suits never
/// matter), in canonical order (type, chain length, main rank, cards). Passing is never
/// a lead, so it is not listed.
pub fn legal_leads(hand: Hand, rules: &Rules) -> Vec<Play> {
    let mut out = Vec::new();
    for_each_lead(hand, rules, &mut |p| {
        out.push(p);
        false
    });
    canonicalise(&mut out);
    out
}

/// Every play of `hand` that beats `last` (same type and chain length with a higher main
/// rank, any bomb on a non-bomb, a higher bomb on a bomb, the rocket on anything), in
/// canonical order. Passing is always also allowed and is NOT listed.
///
/// Answers of the same type are generated even if `rules` would not allow leading that
/// type: the play is already on the table.
pub fn legal_responses(hand: Hand, last: &Play, _rules: &Rules) -> Vec<Play> {
    let mut out = Vec::new();
    for_each_answer(hand, last, &mut |p| {
        out.push(p);
        false
    });
    canonicalise(&mut out);
    out
}

fn canonicalise(plays: &mut Vec<Play>) {
    plays.sort_by_key(|p| p.order_key());
    plays.dedup_by_key(|p| p.cards);
}

/// Calls `f` on every lead; returns true as soon as `f` asks to stop.
pub(crate) fn for_each_lead(hand: Hand, rules: &Rules, f: &mut impl FnMut(Play) -> bool) -> bool {
    let g = Gen::new(hand);
    g.singles(-1, f)
        || g.pairs(-1, f)
        || g.trios(-1, f)
        || (rules.three_one && g.trio_singles(-1, f))
        || (rules.three_two && g.trio_pairs(-1, f))
        // A chain of some length holds chains of every shorter length: stop at the first
        // length without one.
        || (5..=12).take_while(|&len| g.runs(1, len) != 0).any(|len| g.straights(len, -1, f))
        || (rules.pair_chains && (3..=10).take_while(|&len| g.runs(2, len) != 0).any(|len| g.pair_chains(len, -1, f)))
        || (rules.airplanes && (2..=6).take_while(|&len| g.runs(3, len) != 0).any(|len| g.airplanes(len, -1, f)))
        || (rules.airplanes
            && rules.three_one
            && (2..=5).take_while(|&len| g.runs(3, len) != 0).any(|len| g.airplane_singles(len, -1, f)))
        || (rules.airplanes
            && rules.three_two
            && (2..=4).take_while(|&len| g.runs(3, len) != 0).any(|len| g.airplane_pairs(len, -1, f)))
        || (rules.four_two && g.four_two_singles(-1, f))
        || (rules.four_two && g.four_two_pairs(-1, f))
        || g.bombs(-1, f)
        || g.rocket(f)
}

/// Calls `f` on every play of `hand` that beats `last`; returns true when `f` stopped it.
pub(crate) fn for_each_answer(hand: Hand, last: &Play, f: &mut impl FnMut(Play) -> bool) -> bool {
    let g = Gen::new(hand);
    // `Play` fields are public: clamp nonsense values instead of trusting them.
    let above = i16::from(last.main_rank.min(RED_JOKER));
    let len = last.length.min(12);
    let same = match last.kind {
        PlayKind::Rocket => return false,
        PlayKind::Bomb => return g.bombs(above, f) || g.rocket(f),
        PlayKind::Single => g.singles(above, f),
        PlayKind::Pair => g.pairs(above, f),
        PlayKind::Trio => g.trios(above, f),
        PlayKind::TrioSingle => g.trio_singles(above, f),
        PlayKind::TrioPair => g.trio_pairs(above, f),
        PlayKind::Straight => g.straights(len, above, f),
        PlayKind::PairChain => g.pair_chains(len, above, f),
        PlayKind::Airplane => g.airplanes(len, above, f),
        PlayKind::AirplaneSingles => g.airplane_singles(len, above, f),
        PlayKind::AirplanePairs => g.airplane_pairs(len, above, f),
        PlayKind::FourTwoSingles => g.four_two_singles(above, f),
        PlayKind::FourTwoPairs => g.four_two_pairs(above, f),
    };
    same || g.bombs(-1, f) || g.rocket(f)
}

/// True when `hand` has at least one play beating `last`.
pub(crate) fn can_answer(hand: Hand, last: &Play) -> bool {
    // Fast paths: the rocket and bombs answer every non-bomb.
    let has_rocket = hand.count(BLACK_JOKER) == 1 && hand.count(RED_JOKER) == 1;
    match last.kind {
        PlayKind::Rocket => false,
        _ if has_rocket => true,
        PlayKind::Bomb => higher(hand.ranks_with_at_least(4), last.main_rank),
        _ if hand.ranks_with_at_least(4) != 0 => true,
        PlayKind::Single => higher(hand.ranks_with_at_least(1), last.main_rank),
        PlayKind::Pair => higher(hand.ranks_with_at_least(2), last.main_rank),
        PlayKind::Trio => higher(hand.ranks_with_at_least(3), last.main_rank),
        _ => for_each_answer(hand, last, &mut |_| true),
    }
}

/// The play made of the whole of `hand`, if there is one under `rules` (the side to move
/// wins at once by leading it). Only the types whose size can equal the hand's are tried.
pub(crate) fn whole_hand_play(hand: Hand, rules: &Rules) -> Option<Play> {
    let n = hand.len() as u8;
    let g = Gen::new(hand);
    let mut found = None;
    let mut take = |p: Play| {
        if p.cards == hand {
            found = Some(p);
            true
        } else {
            false
        }
    };
    let f = &mut take;
    let _ = match n {
        0 => false,
        1 => g.singles(-1, f),
        2 => g.pairs(-1, f) || g.rocket(f),
        3 => g.trios(-1, f),
        4 => g.bombs(-1, f) || (rules.three_one && g.trio_singles(-1, f)),
        5 => (rules.three_two && g.trio_pairs(-1, f)) || g.straights(5, -1, f),
        _ => {
            // Cheap shape tests first: most hands are no single play.
            let distinct = g.at_least[1].count_ones() as u8;
            let trios = g.at_least[3].count_ones() as u8;
            (distinct == n && n <= 12 && g.straights(n, -1, f))
                || (rules.pair_chains
                    && n.is_multiple_of(2)
                    && distinct == n / 2
                    && g.at_least[2] == g.at_least[1]
                    && (3..=10).contains(&(n / 2))
                    && g.pair_chains(n / 2, -1, f))
                || (rules.airplanes
                    && n.is_multiple_of(3)
                    && distinct == n / 3
                    && g.at_least[3] == g.at_least[1]
                    && n / 3 <= 6
                    && g.airplanes(n / 3, -1, f))
                || (rules.airplanes
                    && rules.three_one
                    && n.is_multiple_of(4)
                    && trios >= n / 4
                    && (2..=5).contains(&(n / 4))
                    && g.airplane_singles(n / 4, -1, f))
                || (rules.airplanes
                    && rules.three_two
                    && n.is_multiple_of(5)
                    && trios >= n / 5
                    && (2..=4).contains(&(n / 5))
                    && g.airplane_pairs(n / 5, -1, f))
                || (rules.four_two && n == 6 && g.at_least[4] != 0 && g.four_two_singles(-1, f))
                || (rules.four_two && n == 8 && g.at_least[4] != 0 && g.four_two_pairs(-1, f))
        }
    };
    found
}

/// True when `mask` has a rank above `rank`.
fn higher(mask: u16, rank: u8) -> bool {
    (u32::from(mask) >> (u32::from(rank.min(RED_JOKER)) + 1)) != 0
}

/// Masks of a hand's ranks by minimum count, computed once per generation.
struct Gen {
    hand: Hand,
    at_least: [u16; 5],
}

/// Ranks whose index exceeds `above` (-1 = all; `above` is at most 14).
#[inline]
fn above_mask(above: i16) -> u16 {
    !((1u32 << (above + 1)) - 1) as u16
}

fn chain_mask(start: u8, len: u8) -> u16 {
    ((1u16 << len) - 1) << start
}

impl Gen {
    fn new(hand: Hand) -> Gen {
        Gen {
            hand,
            at_least: [
                0,
                hand.ranks_with_at_least(1),
                hand.ranks_with_at_least(2),
                hand.ranks_with_at_least(3),
                hand.ranks_with_at_least(4),
            ],
        }
    }

    /// Ranks with at least `k` cards whose index exceeds `above` (-1 = all).
    fn ranks(&self, k: usize, above: i16) -> impl Iterator<Item = u8> {
        BitIter(self.at_least[k] & above_mask(above))
    }

    fn simple(&self, k: u8, kind: PlayKind, above: i16, f: &mut impl FnMut(Play) -> bool) -> bool {
        self.ranks(usize::from(k), above).any(|r| {
            f(Play {
                kind,
                main_rank: r,
                length: 1,
                cards: Hand::EMPTY.with_added(r, k),
            })
        })
    }

    fn singles(&self, above: i16, f: &mut impl FnMut(Play) -> bool) -> bool {
        self.simple(1, PlayKind::Single, above, f)
    }

    fn pairs(&self, above: i16, f: &mut impl FnMut(Play) -> bool) -> bool {
        self.simple(2, PlayKind::Pair, above, f)
    }

    fn trios(&self, above: i16, f: &mut impl FnMut(Play) -> bool) -> bool {
        self.simple(3, PlayKind::Trio, above, f)
    }

    fn bombs(&self, above: i16, f: &mut impl FnMut(Play) -> bool) -> bool {
        self.simple(4, PlayKind::Bomb, above, f)
    }

    fn rocket(&self, f: &mut impl FnMut(Play) -> bool) -> bool {
        if self.hand.count(BLACK_JOKER) == 1 && self.hand.count(RED_JOKER) == 1 {
            return f(Play {
                kind: PlayKind::Rocket,
                main_rank: BLACK_JOKER,
                length: 1,
                cards: Hand::EMPTY.with_added(BLACK_JOKER, 1).with_added(RED_JOKER, 1),
            });
        }
        false
    }

    fn trio_singles(&self, above: i16, f: &mut impl FnMut(Play) -> bool) -> bool {
        self.ranks(3, above).any(|t| {
            let trio = Hand::EMPTY.with_added(t, 3);
            BitIter(self.at_least[1] & !(1 << t)).any(|s| {
                f(Play {
                    kind: PlayKind::TrioSingle,
                    main_rank: t,
                    length: 1,
                    cards: trio.with_added(s, 1),
                })
            })
        })
    }

    fn trio_pairs(&self, above: i16, f: &mut impl FnMut(Play) -> bool) -> bool {
        self.ranks(3, above).any(|t| {
            let trio = Hand::EMPTY.with_added(t, 3);
            BitIter(self.at_least[2] & !(1 << t)).any(|p| {
                f(Play {
                    kind: PlayKind::TrioPair,
                    main_rank: t,
                    length: 1,
                    cards: trio.with_added(p, 2),
                })
            })
        })
    }

    /// Start ranks of the chains of `len` consecutive ranks (within `3`..`A`) with at
    /// least `k` cards each: bit s set when ranks s..s+len all qualify.
    #[inline]
    fn runs(&self, k: usize, len: u8) -> u16 {
        let within = self.at_least[k] & 0x0FFF;
        if !(1..=12).contains(&len) {
            return 0;
        }
        (1..len).fold(within, |acc, i| acc & (within >> i))
    }

    /// Chains of `len` consecutive ranks (within `3`..`A`) with at least `k` cards each,
    /// starting above `above`, lowest first.
    #[inline]
    fn chains(&self, k: usize, len: u8, above: i16) -> BitIter {
        BitIter(self.runs(k, len) & above_mask(above))
    }

    /// `per_rank` cards of each rank start..start+len (a chain: `len` ≤ 12, within `3`..`A`).
    #[inline]
    fn chain_cards(start: u8, len: u8, per_rank: u8) -> Hand {
        // `len` nibbles of one, times the count, moved to the start rank.
        let ones = ((1u64 << (4 * u32::from(len))) - 1) / 15;
        Hand((u64::from(per_rank) * ones) << (4 * u32::from(start)))
    }

    fn straights(&self, len: u8, above: i16, f: &mut impl FnMut(Play) -> bool) -> bool {
        self.chain_plays(1, len, PlayKind::Straight, above, f)
    }

    fn pair_chains(&self, len: u8, above: i16, f: &mut impl FnMut(Play) -> bool) -> bool {
        self.chain_plays(2, len, PlayKind::PairChain, above, f)
    }

    fn airplanes(&self, len: u8, above: i16, f: &mut impl FnMut(Play) -> bool) -> bool {
        self.chain_plays(3, len, PlayKind::Airplane, above, f)
    }

    fn chain_plays(&self, k: u8, len: u8, kind: PlayKind, above: i16, f: &mut impl FnMut(Play) -> bool) -> bool {
        self.chains(usize::from(k), len, above).any(|s| {
            f(Play {
                kind,
                main_rank: s,
                length: len,
                cards: Self::chain_cards(s, len, k),
            })
        })
    }

    fn airplane_singles(&self, len: u8, above: i16, f: &mut impl FnMut(Play) -> bool) -> bool {
        self.chains(3, len, above).any(|s| {
            let body = Self::chain_cards(s, len, 3);
            let mut caps = [0u8; RANKS];
            for (r, cap) in caps.iter_mut().enumerate() {
                let r = r as u8;
                if r >= s && r < s + len {
                    continue;
                }
                // A third card next to the chain would make it a longer chain; the `2`
                // cannot extend a chain.
                let adjacent = (r + 1 == s || r == s + len) && r <= ACE;
                let limit = if adjacent { 2 } else { 3 };
                *cap = self.hand.count(r).min(limit);
            }
            let make = |wings: Hand| Play {
                kind: PlayKind::AirplaneSingles,
                main_rank: s,
                length: len,
                cards: Hand(body.0 + wings.0),
            };
            single_wings(&caps, len, &mut |w| f(make(w)))
        })
    }

    fn airplane_pairs(&self, len: u8, above: i16, f: &mut impl FnMut(Play) -> bool) -> bool {
        self.chains(3, len, above).any(|s| {
            let body = Self::chain_cards(s, len, 3);
            let candidates = self.at_least[2] & !chain_mask(s, len);
            pair_wings(candidates, len, &mut |w| {
                f(Play {
                    kind: PlayKind::AirplanePairs,
                    main_rank: s,
                    length: len,
                    cards: Hand(body.0 + w.0),
                })
            })
        })
    }

    fn four_two_singles(&self, above: i16, f: &mut impl FnMut(Play) -> bool) -> bool {
        self.ranks(4, above).any(|q| {
            let four = Hand::EMPTY.with_added(q, 4);
            let mut caps = [0u8; RANKS];
            for (r, cap) in caps.iter_mut().enumerate() {
                if r as u8 != q {
                    *cap = self.hand.count(r as u8).min(3);
                }
            }
            single_wings(&caps, 2, &mut |w| {
                f(Play {
                    kind: PlayKind::FourTwoSingles,
                    main_rank: q,
                    length: 1,
                    cards: Hand(four.0 + w.0),
                })
            })
        })
    }

    fn four_two_pairs(&self, above: i16, f: &mut impl FnMut(Play) -> bool) -> bool {
        self.ranks(4, above).any(|q| {
            let four = Hand::EMPTY.with_added(q, 4);
            pair_wings(self.at_least[2] & !(1 << q), 2, &mut |w| {
                f(Play {
                    kind: PlayKind::FourTwoPairs,
                    main_rank: q,
                    length: 1,
                    cards: Hand(four.0 + w.0),
                })
            })
        })
    }
}

/// Every multiset of `size` cards with at most `caps[r]` of rank r, never both jokers.
fn single_wings(caps: &[u8; RANKS], size: u8, f: &mut impl FnMut(Hand) -> bool) -> bool {
    fn rec(caps: &[u8; RANKS], rank: usize, left: u8, acc: Hand, f: &mut impl FnMut(Hand) -> bool) -> bool {
        if left == 0 {
            let both_jokers = acc.count(BLACK_JOKER) == 1 && acc.count(RED_JOKER) == 1;
            return !both_jokers && f(acc);
        }
        if rank >= RANKS {
            return false;
        }
        let most = caps[rank].min(left);
        (0..=most)
            .rev()
            .any(|take| rec(caps, rank + 1, left - take, acc.with_added(rank as u8, take), f))
    }
    rec(caps, 0, size, Hand::EMPTY, f)
}

/// Every choice of `size` distinct ranks from `candidates`, one pair of each.
fn pair_wings(candidates: u16, size: u8, f: &mut impl FnMut(Hand) -> bool) -> bool {
    fn rec(cands: u16, left: u8, acc: Hand, f: &mut impl FnMut(Hand) -> bool) -> bool {
        if left == 0 {
            return f(acc);
        }
        if (cands.count_ones() as u8) < left {
            return false;
        }
        BitIter(cands).any(|r| {
            let rest = cands & !((2u32 << r) - 1) as u16;
            rec(rest, left - 1, acc.with_added(r, 2), f)
        })
    }
    rec(candidates, size, Hand::EMPTY, f)
}

/// Iterates the set bits of a rank mask, lowest first.
struct BitIter(u16);

impl Iterator for BitIter {
    type Item = u8;
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let r = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(r)
    }
}

#[cfg(test)]
mod tests {
    use super::super::hand::parse_hand;
    use super::super::play::parse_play;
    use super::*;

    fn leads(s: &str) -> Vec<String> {
        legal_leads(parse_hand(s).unwrap(), &Rules::default())
            .iter()
            .map(|p| p.to_string())
            .collect()
    }

    fn has(s: &str, play: &str) -> bool {
        let want = parse_hand(play).unwrap().to_string();
        leads(s).contains(&want)
    }

    #[test]
    fn full_deck_has_rlcards_27471_plays() {
        // RLCard's action space: 27,472 entries including pass.
        let deck = parse_hand("3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222 BJ RJ").unwrap();
        assert_eq!(legal_leads(deck, &Rules::default()).len(), 27_471);
    }

    #[test]
    fn wings_next_to_the_chain() {
        // Two 5s next to 333444 are two single wings, not a trio extending the chain.
        assert!(has("333444555", "33344455"));
        // Three 6s right after 333444555 would extend the chain: the cards are only a
        // bare airplane of four trios, never "three trios with wings 6 6 6".
        let four_trios = parse_play("333444555666", &Rules::default()).unwrap();
        assert_eq!((four_trios.kind, four_trios.length), (PlayKind::Airplane, 4));
        // Three 7s one step away may be the three wings.
        assert!(has("333444555777", "333444555777"));
        // ... but a trio of 2s next to a chain ending at A is fine (2 cannot chain).
        assert!(has("QQQKKKAAA222", "QQQKKKAAA222"));
    }

    #[test]
    fn both_jokers_are_never_two_single_kickers() {
        // RLCard: the rocket is not split into two wings.
        assert!(!has("333444 BJ RJ", "333444 BJ RJ"));
        assert!(!has("3333 BJ RJ", "3333 BJ RJ"));
        assert!(has("3333 2 RJ", "3333 2 RJ"));
        // A trio takes one joker as its single.
        assert!(has("333 RJ", "333 RJ"));
    }

    #[test]
    fn a_four_is_not_two_pair_kickers() {
        // Four + two pairs needs two distinct pair ranks.
        assert!(!has("3333 5555", "3333 5555"));
        assert!(has("3333 5555 66", "3333 55 66"));
        // A pair may be the two single kickers of a four.
        assert!(has("3333 55", "3333 55"));
        // Airplane pair wings are distinct ranks too.
        assert!(!has("333444 5555", "333444 5555"));
        // Never four of a rank among single wings.
        assert!(!has("333444555666 7777", "333444555666 7777"));
    }

    #[test]
    fn answers() {
        let hand = parse_hand("4 4 5 5 5 6 7 8 9 2222").unwrap();
        let last = parse_play("3 3 3 4", &Rules::default()).unwrap();
        let got: Vec<String> = legal_responses(hand, &last, &Rules::default())
            .iter()
            .map(|p| p.to_string())
            .collect();
        assert_eq!(
            got,
            [
                "4 5 5 5", "5 5 5 6", "5 5 5 7", "5 5 5 8", "5 5 5 9", "5 5 5 2", "4 2 2 2", "5 2 2 2", "6 2 2 2",
                "7 2 2 2", "8 2 2 2", "9 2 2 2", "2 2 2 2"
            ]
        );
    }
}

#[cfg(test)]
mod robustness {
    use super::super::hand::parse_hand;
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]
        /// `Play` has public fields: answering a nonsense play must not panic.
        #[test]
        fn nonsense_plays_never_panic(kind in 0usize..14, main_rank in any::<u8>(), length in any::<u8>()) {
            let hand = parse_hand("3 3 3 3 4 4 4 5 5 5 6 6 7 8 9 T J Q K A 2 BJ RJ").unwrap();
            let last = Play { kind: PlayKind::ALL[kind], main_rank, length, cards: Hand::EMPTY };
            let _ = legal_responses(hand, &last, &Rules::default());
            let _ = can_answer(hand, &last);
        }
    }
}
