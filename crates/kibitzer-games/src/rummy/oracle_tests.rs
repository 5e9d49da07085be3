//! The module against the brute-force oracle on fixed and random hands.

use super::card::Card;
use super::evaluate::{evaluate, Evaluation};
use super::hand::Hand;
use super::options::Options;
use super::oracle;
use super::samples::{island_hand, random_hand};
use super::solver::IslandSolver;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn check(hand: &Hand, o: &Options) {
    let got = evaluate(hand, o);
    let want = oracle::solve(hand, o);
    let have = (
        got.value.merged,
        got.value.split,
        got.value.min_cards(),
        got.value.min_points(),
    );
    let expected = (want.merged, want.split, want.min_cards, want.min_points);
    assert_eq!(have, expected, "hand {hand} options {o:?}");
}

fn options(ace_high: bool) -> Options {
    Options {
        ace_high,
        ..Options::default()
    }
}

#[test]
fn demo_hand_island() {
    // The example of `docs/rummy.md`: 3 maximal arrangements, min deadwood 5 cards / 16 points.
    let hand = Hand::parse("2H3H4H5H4H5H6H3C3C3D3D4D").unwrap();
    let e = evaluate(&hand, &Options::default());
    assert_eq!(e.maximal_count(), 3);
    assert_eq!((e.min_deadwood_cards(), e.min_deadwood_points()), (5, 16));
    assert_eq!(
        e.min_points_arrangement().unwrap().to_string(),
        "[2H 3H 4H 5H] [4H 5H 6H] | dump: 3D 3D 4D 3C 3C"
    );
    let listed: Vec<String> = e.arrangements().map(|a| a.to_string()).collect();
    assert_eq!(
        listed,
        [
            "[2H 3H 4H 5H] [4H 5H 6H] | dump: 3D 3D 4D 3C 3C",
            "[4H 5H 6H] [3H 3D 3C] | dump: 2H 4H 5H 3D 4D 3C",
            "[2H 3H 4H 5H 6H] | dump: 4H 5H 3D 3D 4D 3C 3C",
        ]
    );
    check(&hand, &Options::default());
}

#[test]
fn random_hands_match_the_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    for i in 0..10_000 {
        let size = 3 + i % 18;
        let hand = random_hand(&mut rng, size);
        check(&hand, &options(i % 2 == 0));
    }
}

#[test]
fn island_hands_match_the_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(66);
    for i in 0..1_500 {
        let size = rng.random_range(5..=13);
        let hand = island_hand(&mut rng, size);
        check(&hand, &options(i % 2 == 1));
    }
}

#[test]
fn island_hands_up_to_fifteen() {
    let mut rng = ChaCha8Rng::seed_from_u64(666);
    for i in 0..300 {
        let hand = island_hand(&mut rng, 14 + i % 2);
        check(&hand, &options(i % 3 == 0));
    }
}

#[test]
fn joker_search_agrees_with_the_island_solver() {
    // The joker search also works on joker-free hands: a second, independent method.
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for i in 0..300 {
        let hand = if i % 2 == 0 {
            random_hand(&mut rng, 3 + i % 15)
        } else {
            island_hand(&mut rng, 4 + i % 8)
        };
        let o = options(i % 3 == 0);
        let fast = evaluate(&hand, &o).value;
        let slow = super::jokers::solve(&hand, &o, false, 0).value;
        assert_eq!(fast, slow, "hand {hand}");
    }
}

#[test]
fn jokers_match_the_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for i in 0..600 {
        let size = 3 + i % 10;
        let mut hand = if i % 2 == 0 {
            random_hand(&mut rng, size)
        } else {
            island_hand(&mut rng, size)
        };
        let jokers = 1 + i % 2;
        for _ in 0..jokers {
            hand.add(Card::JOKER).unwrap();
        }
        check(&hand, &options(i % 3 == 0));
    }
}

#[test]
fn wild_rank_matches_the_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for i in 0..300 {
        let size = 3 + i % 7;
        let hand = island_hand(&mut rng, size);
        // Declare a rank of the hand wild (sometimes none held: the plain path).
        let wild = hand.cards()[i % size].rank().unwrap_or(0);
        let o = Options {
            wild_rank: Some(wild),
            ace_high: i % 2 == 0,
            joker_points: 15,
            ..Options::default()
        };
        check(&hand, &o);
    }
}

#[test]
fn full_heart_suit_plus_two_aces() {
    // The worst case (the full heart suit plus AS AC): pinned answers, also checked against the oracle.
    // Ace low: AH goes to the set (2..K run) or the A..K run (AS AC dumped); split forms of the
    // 2..K / A..K run make 47. Ace high adds Q-K-A endings (2..K+A is the A..K run itself).
    let hand = Hand::parse("AH2H3H4H5H6H7H8H9HTHJHQHKH AS AC").unwrap();
    for (ace_high, merged, split) in [(false, 2, 47), (true, 2, 74)] {
        let o = options(ace_high);
        let e = evaluate(&hand, &o);
        assert_eq!((e.value.merged, e.value.split), (merged, split));
        assert_eq!((e.min_deadwood_cards(), e.min_deadwood_points()), (0, 0));
        assert_eq!(
            e.min_points_arrangement().unwrap().to_string(),
            "[2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH] [AS AH AC] | dump: -"
        );
        check(&hand, &o);
        let listed = Evaluation::arrangements(&evaluate(&hand, &Options { split_runs: true, ..o })).count();
        assert_eq!(listed as u128, split);
    }
}

/// Long stretches of one or two suits with duplicates: runs that touch, overlap, and reach
/// both ends (the ace-high corner cases).
fn suit_hand(rng: &mut ChaCha8Rng, size: usize) -> Hand {
    let suits = rng.random_range(1..=2u8);
    let mut pool: Vec<Card> = Vec::new();
    for s in 0..suits {
        for r in 0..13 {
            let c = Card::new(r, s).unwrap();
            pool.push(c);
            pool.push(c);
        }
    }
    pool.shuffle(rng);
    pool.truncate(size);
    Hand::from_cards(&pool).unwrap()
}

#[test]
fn long_suits_match_the_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    for i in 0..400 {
        let size = rng.random_range(8..=15);
        let mut hand = suit_hand(&mut rng, size);
        if i % 4 == 0 {
            // Extra aces of other suits: the worst case's shape.
            let _ = hand.add(Card::new(0, 2).unwrap());
            let _ = hand.add(Card::new(0, 3).unwrap());
        }
        check(&hand, &options(i % 2 == 0));
    }
}

#[test]
fn split_runs_lists_the_split_forms() {
    // 2..7 of hearts: one merged run; split_runs adds 2-4 + 5-7.
    let hand = Hand::parse("2H 3H 4H 5H 6H 7H").unwrap();
    let merged: Vec<String> = evaluate(&hand, &Options::default())
        .arrangements()
        .map(|a| a.to_string())
        .collect();
    assert_eq!(merged, ["[2H 3H 4H 5H 6H 7H] | dump: -"]);
    let o = Options {
        split_runs: true,
        ..Options::default()
    };
    let split: Vec<String> = evaluate(&hand, &o).arrangements().map(|a| a.to_string()).collect();
    assert_eq!(
        split,
        ["[2H 3H 4H] [5H 6H 7H] | dump: -", "[2H 3H 4H 5H 6H 7H] | dump: -"]
    );
}

#[test]
fn listings_match_counts_on_random_hands() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for i in 0..300 {
        let hand = if i % 2 == 0 {
            island_hand(&mut rng, 6 + i % 9)
        } else {
            random_hand(&mut rng, 15)
        };
        for split_runs in [false, true] {
            let o = Options {
                split_runs,
                ace_high: i % 3 == 0,
                ..Options::default()
            };
            let e = evaluate(&hand, &o);
            let listed: Vec<_> = e.arrangements().collect();
            assert_eq!(listed.len() as u128, e.maximal_count(), "{hand}");
            // Every listed arrangement uses exactly the hand's cards, and they are distinct.
            let mut seen = std::collections::BTreeSet::new();
            for a in &listed {
                let mut cards: Vec<Card> = a.melds.iter().flat_map(|m| m.cards.clone()).collect();
                cards.extend(a.dump.iter().copied());
                cards.sort();
                assert_eq!(cards, hand.cards());
                assert!(seen.insert(a.clone()));
            }
            // The witnesses reach the minima.
            let w = e.min_points_arrangement().unwrap();
            assert_eq!(w.deadwood_points(&o), e.min_deadwood_points());
            let w = e.min_cards_arrangement().unwrap();
            assert_eq!(w.deadwood_cards(), e.min_deadwood_cards());
        }
    }
}

#[test]
fn jokers_fill_gaps_and_sets() {
    // 4H JK 6H is one run (JK = 5H); 9S 9D JK a set; both melded.
    let hand = Hand::parse("4H JK 6H 9S 9D JK").unwrap();
    let e = evaluate(&hand, &Options::default());
    assert!(e.joker_mode && e.exact);
    assert_eq!(e.min_deadwood_cards(), 0);
    check(&hand, &Options::default());
    // A declared wild rank: 2s stand in for anything.
    let hand = Hand::parse("4H 2C 6H KS").unwrap();
    let o = Options {
        wild_rank: Some(1),
        ..Options::default()
    };
    let e = evaluate(&hand, &o);
    assert_eq!((e.min_deadwood_cards(), e.min_deadwood_points()), (1, 10));
    check(&hand, &o);
}

#[test]
fn joker_budget_gives_unknown_not_a_hang() {
    let hand = Hand::parse("JK JK JK JK 2H 3H 4H 5H 6H 7H 8H 9H 2S 3S 4S 5S 2D 3D 4D 5D").unwrap();
    let o = Options {
        node_budget: 10_000,
        ..Options::default()
    };
    let e = evaluate(&hand, &o);
    assert!(!e.exact);
}

#[test]
fn empty_and_tiny_hands() {
    let e = evaluate(&Hand::new(), &Options::default());
    assert_eq!((e.maximal_count(), e.min_deadwood_cards()), (1, 0));
    assert_eq!(e.arrangements().count(), 1);
    let e = evaluate(&Hand::parse("KD").unwrap(), &Options::default());
    assert_eq!((e.maximal_count(), e.min_deadwood_points()), (1, 10));
}

#[test]
fn huge_hands_answer_or_say_unknown() {
    // Big joker-free hands are solved exactly; the whole double deck (one island of 104
    // cards) runs past the default budget and says so instead of hanging.
    let all = super::samples::double_deck();
    let half = Hand::from_cards(&all[..52]).unwrap();
    let e = evaluate(&half, &Options::default());
    assert!(e.exact);
    assert_eq!((e.value.merged, e.value.split, e.min_deadwood_cards()), (1, 160_000, 0));
    let o = Options {
        node_budget: 200_000,
        ..Options::default()
    };
    let e = evaluate(&Hand::from_cards(&all).unwrap(), &o);
    assert!(!e.exact);
    assert!(e.arrangements().truncated);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..20 {
        let h = random_hand(&mut rng, 40);
        assert!(evaluate(&h, &options(true)).exact);
    }
}

/// The per-thread island cache returns what a fresh search returns, for the island itself
/// and for the same island with its suits permuted (the signature sorts the suits).
#[test]
fn island_cache_agrees_with_a_fresh_search() {
    use super::evaluate::{island_signature, solve_through_cache, solve_uncached};
    use super::grid::{islands, Placements};
    let mut rng = ChaCha8Rng::seed_from_u64(61);
    for i in 0..4_000 {
        let hand = if i % 2 == 0 {
            random_hand(&mut rng, 10 + i % 12)
        } else {
            island_hand(&mut rng, 8 + i % 10)
        };
        let o = options(i % 3 == 0);
        let p = Placements::of(&hand, o.ace_high);
        for mask in islands(hand.one, o.ace_high) {
            let flagged = (p.run | p.set) & mask;
            if flagged == 0 {
                continue;
            }
            let core = Hand::from_masks(flagged, hand.two & flagged, 0);
            let fresh = solve_uncached(&core, &o);
            assert_eq!(solve_through_cache(&core, &o), fresh, "{core}");
            assert_eq!(solve_through_cache(&core, &o), fresh, "{core} (second look)");
            // Suits rotated: same signature, same answer.
            let rot = |m: u64| m.rotate_left(16);
            let turned = Hand::from_masks(rot(core.one), rot(core.two), 0);
            assert_eq!(
                island_signature(&turned, o.ace_high),
                island_signature(&core, o.ace_high)
            );
            assert_eq!(solve_uncached(&turned, &o), fresh, "{turned}");
        }
    }
}

/// A caller's own budget never takes an answer from the cache: an island solved under the
/// default budget is still "unknown" under a budget too small for it.
#[test]
fn a_small_budget_never_reuses_a_cached_answer() {
    let hand = Hand::parse("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AS AC").unwrap();
    assert!(evaluate(&hand, &options(true)).exact);
    let tight = Options {
        node_budget: 10,
        ..options(true)
    };
    assert!(!evaluate(&hand, &tight).exact);
    // And the default budget still answers (from the cache or afresh).
    assert!(evaluate(&hand, &options(true)).exact);
}

/// The forward sweep (canonical row states) and the backward search (exact starts, used for
/// witnesses and listings) agree on island-heavy and long-suit hands, both ace conventions.
#[test]
fn forward_sweep_matches_backward_search() {
    let mut rng = ChaCha8Rng::seed_from_u64(62);
    for i in 0..1_500 {
        let hand = if i % 2 == 0 {
            island_hand(&mut rng, 6 + i % 14)
        } else {
            suit_hand(&mut rng, 6 + i % 12)
        };
        for ace_high in [false, true] {
            let forward = IslandSolver::new(&hand, ace_high).solve(u64::MAX);
            let backward = IslandSolver::new(&hand, ace_high).solve_backward();
            assert_eq!(forward, Some(backward), "{hand} ace_high={ace_high}");
        }
    }
}

/// Rows without a run-capable card are left out of the forward sweep (their cards only go to
/// sets or the dump): hands made of one or two run rows crossed by set columns whose other
/// suits hold no run (doubled cards, aces both ways, no run row at all), checked against the
/// oracle and the backward search.
#[test]
fn set_only_rows_left_out_of_the_sweep() {
    for text in [
        "5S 5H 5H 5D 5D",
        "5S 5S 5H 5D 5C 5C",
        "5S 4H 5H 6H 7H 8H 5D",
        "5S 5S 4H 5H 5H 6H 7H 5D 5C",
        "AS AH 2H 3H AD AC QH KH",
        "3S 3S 3H 3H 4H 5H 3D 6D 7D 8D 8S 8C",
        "9H 9H TH JH 6D 6D 7D 8D 9D 9S 9C",
    ] {
        let hand = Hand::parse(text).unwrap();
        for ace_high in [false, true] {
            oracle_and_both_searches(&hand, ace_high);
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(64);
    for i in 0..3_000 {
        // A run row of 3–6 cards in one suit, and 1–3 columns crossing it held in the
        // other suits (one or two copies), some cards of the row doubled.
        let suit = rng.random_range(0..4u8);
        let len = rng.random_range(3..=6u8);
        let low = rng.random_range(0..=(13 - len));
        let mut hand = Hand::new();
        for r in low..low + len {
            if let Some(c) = Card::new(r, suit) {
                let _ = hand.add(c);
                if rng.random_bool(0.3) {
                    let _ = hand.add(c);
                }
            }
        }
        for _ in 0..rng.random_range(1..=3) {
            let r = rng.random_range(low..low + len);
            for s in (0..4u8).filter(|&s| s != suit) {
                if let Some(c) = Card::new(r, s) {
                    for _ in 0..rng.random_range(0..=2) {
                        let _ = hand.add(c);
                    }
                }
            }
        }
        oracle_and_both_searches(&hand, i % 2 == 1);
    }
}

/// The hand against the oracle, and the forward search against the backward one.
fn oracle_and_both_searches(hand: &Hand, ace_high: bool) {
    check(hand, &options(ace_high));
    let forward = IslandSolver::new(hand, ace_high).solve(u64::MAX);
    assert_eq!(
        forward,
        Some(IslandSolver::new(hand, ace_high).solve_backward()),
        "{hand}"
    );
}
