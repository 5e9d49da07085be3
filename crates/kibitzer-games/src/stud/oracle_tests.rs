//! The fast path against the oracle: every hand, a million pairs, hundreds of equity situations.

use super::allhands::{category_counts, rank_checksum};
use super::cards::parse_cards;
use super::oracle;
use super::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cmp::Ordering;

fn cards(text: &str) -> Vec<u8> {
    parse_cards(text).unwrap_or_default()
}

fn hand(text: &str) -> [u8; 5] {
    cards(text).try_into().unwrap_or([0; 5])
}

fn situation(me: &str, opponents: &[&str], dead: &str) -> Situation {
    let opponents = opponents.iter().map(|o| cards(o)).collect();
    Situation::new(cards(me), opponents, cards(dead)).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn exhaustive_category_counts() {
    let counts = category_counts();
    assert_eq!(counts, [0, 36, 624, 3744, 5112, 9180, 54912, 123552, 1098240, 1303560]);
}

#[test]
fn every_hand_agrees_with_the_oracle() {
    let mut checksum = 0u64;
    let mut hands = 0u64;
    for a in 0..52u8 {
        for b in a + 1..52 {
            for c in b + 1..52 {
                for d in c + 1..52 {
                    for e in d + 1..52 {
                        let cards = [a, b, c, d, e];
                        let rank = rank5(cards);
                        let description = describe(rank);
                        let (category, deciding) = oracle::classify(&cards);
                        assert_eq!(
                            (description.category, &description.deciding_ranks),
                            (category, &deciding),
                            "{}",
                            cards_text(&cards)
                        );
                        checksum += u64::from(rank.value());
                        hands += 1;
                    }
                }
            }
        }
    }
    // The one-load-per-hand enumeration gives the very same ranks.
    assert_eq!(rank_checksum(), (checksum, hands));
}

#[test]
fn ranks_are_in_the_oracle_order() {
    // Describing consecutive ranks must give strictly increasing hands by the oracle's comparison.
    let key = |v: u16| {
        let d = describe(HandRank(v));
        (std::cmp::Reverse(d.category), d.deciding_ranks)
    };
    for v in 1..DISTINCT_RANKS {
        assert_eq!(key(v - 1).cmp(&key(v)), Ordering::Less, "rank {v}");
    }
}

#[test]
fn a_million_random_pairs_compare_like_the_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(20260101);
    let mut deck: Vec<u8> = (0..52).collect();
    for _ in 0..1_000_000 {
        deck.partial_shuffle(&mut rng, 10);
        let a: [u8; 5] = [deck[0], deck[1], deck[2], deck[3], deck[4]];
        let b: [u8; 5] = [deck[5], deck[6], deck[7], deck[8], deck[9]];
        assert_eq!(
            compare(a, b),
            oracle::compare(&a, &b),
            "{} vs {}",
            cards_text(&a),
            cards_text(&b)
        );
    }
}

#[test]
fn edge_cases() {
    let category = |text: &str| rank5(hand(text)).category();
    // Ace is high only: A2345 is no straight; suited it is a flush.
    assert_eq!(category("AS 2S 3S 4S 5S"), 4);
    assert_eq!(category("AS 2D 3S 4S 5S"), 9);
    // No wrap-around: J-Q-K-A-2.
    assert_eq!(category("JS QD KS AS 2S"), 9);
    assert_eq!(category("JS QS KS AS 2S"), 4);
    // The lowest straight is 2-6; the highest is T-A.
    assert_eq!(category("2S 3D 4S 5S 6S"), 5);
    assert_eq!(category("TS JD QS KS AS"), 5);
    // Royal flush: the best hand there is.
    let royal = rank5(hand("TS JS QS KS AS"));
    assert_eq!(royal.category(), 1);
    assert_eq!(royal.value(), DISTINCT_RANKS - 1);
    assert_eq!(describe(royal).to_string(), "straight flush, A high");
    // Ties: same two pair and kicker in other suits; same high cards in other suits.
    let tie = |a: &str, b: &str| compare(hand(a), hand(b));
    assert_eq!(tie("KS KD 7S 7H 4C", "KH KC 7D 7C 4D"), Ordering::Equal);
    assert_eq!(tie("KS KD 7S 7H 4C", "KH KC 7D 7C 3D"), Ordering::Greater);
    assert_eq!(tie("AS JD 9S 5H 3C", "AH JC 9D 5C 3D"), Ordering::Equal);
    assert_eq!(tie("AS JD 9S 5H 3C", "AH JC 9D 5C 2D"), Ordering::Greater);
    // The trip rank decides a full house, whatever the pair.
    assert_eq!(tie("8S 8D 8C 2S 2D", "7S 7D 7C AS AD"), Ordering::Greater);
    // Flushes and straights compare high to low; a suit never breaks a tie.
    assert_eq!(tie("AS KS 9S 5S 3S", "AH KH 9H 5H 3H"), Ordering::Equal);
    assert_eq!(tie("3S 4D 5S 6S 7S", "2H 3H 4D 5H 6H"), Ordering::Greater);
    assert_eq!(
        describe(rank5(hand("KS KD 7S 7H 4C"))).to_string(),
        "two pair, Ks and 7s, kicker 4"
    );
    assert_eq!(
        describe(rank5(hand("8S TD TS 8H 8C"))).to_string(),
        "full house, three 8s"
    );
}

#[test]
fn original_example() {
    let s = situation("8S TD TS 8H 8C", &["3C 5D 4H 6H"], "");
    let odds = equity_exact(&s, 1_000);
    let odds = odds.unwrap_or_else(|| panic!("within budget"));
    assert_eq!((odds.wins, odds.ties, odds.losses, odds.total), (43, 0, 0, 43));
    assert_eq!((odds.p_win, odds.exact, odds.deals), (1.0, true, 43));
    assert_eq!(rank5(hand("8S TD TS 8H 8C")).category(), 3);
}

#[test]
fn opponent_showing_a_2_3_4_has_no_straight() {
    // A hidden 5 gives A-2-3-4-5: high card, not a straight, so my two pair wins every deal.
    assert_eq!(rank5(hand("5C AH 2D 3C 4S")).category(), 9);
    let s = situation("6S 6D 9C 9H KS", &["AH 2D 3C 4S"], "");
    let odds = equity_exact(&s, 1_000).unwrap_or_else(|| panic!("within budget"));
    assert_eq!((odds.wins, odds.ties, odds.losses), (43, 0, 0));
    // With a pair of kings I lose only to the three aces; were A-2-3-4-5 a straight, the four
    // fives would beat me too.
    let s = situation("KS KD 9C 7H 6S", &["AH 2D 3C 4S"], "");
    let odds = equity_exact(&s, 1_000).unwrap_or_else(|| panic!("within budget"));
    assert_eq!((odds.wins, odds.ties, odds.losses), (40, 0, 3));
}

/// A random situation of 2–5 players, shrunk with dead cards until it has at most `max_deals`.
fn random_situation(rng: &mut ChaCha8Rng, max_deals: u128) -> Situation {
    loop {
        let players = [2, 2, 2, 3, 3, 4, 5][rng.random_range(0..7)];
        let mut deck: Vec<u8> = (0..52).collect();
        deck.shuffle(rng);
        let mut next = deck.into_iter();
        let mine: Vec<u8> = next.by_ref().take(rng.random_range(1..=5)).collect();
        let opponents: Vec<Vec<u8>> = (1..players)
            .map(|_| {
                let shown = rng.random_range(0..=5);
                next.by_ref().take(shown).collect()
            })
            .collect();
        let mut dead = Vec::new();
        while let Ok(s) = Situation::new(mine.clone(), opponents.clone(), dead.clone()) {
            if s.deal_count() <= max_deals {
                return s;
            }
            match next.next() {
                Some(card) => dead.push(card),
                None => break,
            }
        }
    }
}

#[test]
fn exact_equity_matches_the_oracle_on_random_situations() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut methods = std::collections::BTreeMap::new();
    for case in 0..240 {
        let s = random_situation(&mut rng, 6_000);
        let fast = equity_exact(&s, u64::MAX).unwrap_or_else(|| panic!("no budget limit"));
        let (wins, ties_split, losses) = oracle::odds(s.me(), s.opponents(), s.dead());
        assert_eq!(
            (fast.wins, fast.ties_split, fast.losses),
            (wins, ties_split, losses),
            "case {case}: {s:?}"
        );
        assert_eq!(u128::from(fast.total), s.deal_count(), "case {case}");
        // Plain enumeration is the fallback method: it must agree too.
        assert_eq!(
            Some(super::exact::equity_by_enumeration(&s)),
            equity_exact(&s, u64::MAX)
        );
        *methods.entry(super::exact::method_name(&s)).or_insert(0) += 1;
        // The indexed method too, wherever it applies, even when enumeration is cheaper.
        if let Some(indexed) = super::exact::equity_by_index(&s) {
            assert_eq!(Some(indexed), equity_exact(&s, u64::MAX), "case {case}");
            *methods.entry("indexed (forced)").or_insert(0) += 1;
        }
    }
    // Every method was exercised.
    for method in ["heads-up", "indexed (forced)", "enumerate"] {
        assert!(methods.get(method).copied().unwrap_or(0) >= 10, "{methods:?}");
    }
}

#[test]
fn sweep_matches_enumeration_on_the_full_third_street() {
    // 13.7 M deals: the sweep (inclusion–exclusion) and plain enumeration must agree to the deal.
    let s = situation("AS KD 7C", &["QH QC"], "");
    let sweep = equity_exact(&s, u64::MAX);
    let enumeration = super::exact::equity_by_enumeration(&s);
    assert_eq!(sweep, Some(enumeration));
}

#[test]
fn indexed_last_opponent_matches_enumeration() {
    // Three players at fourth street (25.5 M deals), four at fifth street, four at fourth street
    // on a 16-card remainder (7.2 M deals).
    for s in [
        situation("AS KD 7C 7S", &["QH QC 2D", "JS TS 9S"], ""),
        situation("AS KD 7C 7S 2C", &["QH QC 2D 5S", "JS TS 9S 8S", "4C 4D 6H 9H"], ""),
        situation(
            "5S 6S 7D 8D",
            &["AS 2H 3H", "KD KH 9C", "3C 4C TD"],
            "2S 2D 2C 3S 3D 4S 4H 4D 5H 5D 5C 6H 6D 6C 7S 7H 7C 8S 8H 8C 9S 9H 9D",
        ),
    ] {
        assert_eq!(super::exact::method_name(&s), "indexed", "{s:?}");
        let plain = super::exact::equity_by_enumeration(&s);
        assert_eq!(equity_exact(&s, u64::MAX), Some(plain), "{s:?}");
    }
}

#[test]
fn early_streets_with_dead_cards_match_the_oracle() {
    // Deep inclusion–exclusion (shared subsets of size 2..4) on small decks.
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for (known, unseen) in [(1usize, 11usize), (2, 12), (3, 14), (1, 10), (2, 11)] {
        let mut deck: Vec<u8> = (0..52).collect();
        deck.shuffle(&mut rng);
        let me = deck[..known].to_vec();
        let opponent = deck[known..2 * known - 1].to_vec();
        let dead = deck[2 * known - 1..52 - unseen].to_vec();
        let s = Situation::new(me, vec![opponent], dead).unwrap_or_else(|e| panic!("{e}"));
        let fast = equity_exact(&s, u64::MAX).unwrap_or_else(|| panic!("no budget limit"));
        let (wins, ties_split, losses) = oracle::odds(s.me(), s.opponents(), s.dead());
        assert_eq!((fast.wins, fast.ties_split, fast.losses), (wins, ties_split, losses));
    }
}

#[test]
fn monte_carlo_lands_within_its_error_bar() {
    let cases = [
        situation("AS KD 7C 7S", &["QH QC 2D"], ""),
        situation("9S 9D", &["KC"], ""),
        situation("AS KD 7C 7S 2C", &["QH QC 2D", "JS TS"], ""),
        situation("5H 6H 7H 8H 9C", &["AS 4D 4C", "KS KD TD"], "2C 3C"),
    ];
    for (i, s) in cases.iter().enumerate() {
        let exact = equity_exact(s, u64::MAX).unwrap_or_else(|| panic!("exact {i}"));
        let sampled = equity_monte_carlo(s, 20_000, 42 + i as u64);
        assert!(!sampled.exact && sampled.total == 20_000);
        assert!(
            (sampled.p_win - exact.p_win).abs() <= sampled.ci95,
            "case {i}: {} vs {} ± {}",
            sampled.p_win,
            exact.p_win,
            sampled.ci95
        );
        assert_eq!(sampled, equity_monte_carlo(s, 20_000, 42 + i as u64));
    }
}

#[test]
fn budget_decides_between_exact_and_sampling() {
    let s = situation("AS KD", &["QH"], "");
    assert_eq!(equity_exact(&s, 1_000), None);
    assert!(exact_cost(&s) > 1_000);
    let odds = equity(&s, 1_000, 2_000, 1);
    assert!(!odds.exact && odds.total == 2_000 && odds.ci95 > 0.0);
    assert_eq!(odds.deals, 18_424 * 163_185);
    let exact = equity(&s, u64::MAX, 2_000, 1);
    assert!(exact.exact && u128::from(exact.total) == exact.deals);
    // First street, five players: far too many deals for any budget, sampling answers.
    let s = situation("AS", &["", "", "", ""], "");
    assert_eq!(equity_exact(&s, 1 << 40), None);
    let sampled = equity(&s, 1 << 30, 1_000, 3);
    assert_eq!(sampled.total, 1_000);
    assert!(sampled.equity > 0.0 && sampled.equity < 1.0);
}

#[test]
fn multiway_ties_split_the_pot() {
    // Everyone holds a royal-less broadway straight: a three-way tie in every deal.
    let s = situation("AS KD QC JH TS", &["AD KC QH JS TD", "AC KH QS JD TC"], "");
    let odds = equity_exact(&s, 10).unwrap_or_else(|| panic!("one deal"));
    assert_eq!((odds.ties_split[3], odds.total), (1, 1));
    assert!((odds.equity - 1.0 / 3.0).abs() < 1e-12);
}

mod properties {
    use super::super::oracle;
    use super::super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Any input: validation or an answer whose counts add up; never a panic.
        #[test]
        fn any_situation_is_answered_or_rejected(
            me in proptest::collection::vec(0u8..60, 0..7),
            opponents in proptest::collection::vec(proptest::collection::vec(0u8..60, 0..7), 0..6),
            dead in proptest::collection::vec(0u8..60, 0..12),
            seed in any::<u64>(),
        ) {
            if let Ok(s) = Situation::new(me, opponents, dead) {
                let odds = equity(&s, 20_000, 50, seed);
                prop_assert_eq!(odds.wins + odds.ties + odds.losses, odds.total);
                if odds.exact {
                    prop_assert_eq!(u128::from(odds.total), odds.deals);
                } else {
                    prop_assert_eq!(odds.total, 50);
                }
                prop_assert!((0.0..=1.0).contains(&odds.equity));
            }
        }

        /// Any five distinct cards in any order: the oracle's category and deciding ranks.
        #[test]
        fn any_hand_in_any_order(cards in proptest::sample::subsequence((0u8..52).collect::<Vec<_>>(), 5).prop_shuffle()) {
            let hand: [u8; 5] = [cards[0], cards[1], cards[2], cards[3], cards[4]];
            let d = describe(rank5(hand));
            prop_assert_eq!((d.category, d.deciding_ranks), oracle::classify(&hand));
            prop_assert_eq!(rank5_checked(&cards), Ok(rank5(hand)));
        }

        /// Garbage hands are rejected by the checked evaluator and harmless to the unchecked one.
        #[test]
        fn garbage_hands_do_not_panic(cards in proptest::collection::vec(any::<u8>(), 0..8)) {
            let _ = rank5_checked(&cards);
            if let Ok(hand) = <[u8; 5]>::try_from(cards.as_slice()) {
                let rank = rank5(hand);
                prop_assert!(rank.value() < DISTINCT_RANKS);
                let _ = describe(rank).to_string();
            }
        }
    }
}
