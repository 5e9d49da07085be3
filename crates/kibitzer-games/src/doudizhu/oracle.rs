//! Test-only oracles written the plainest way: every sub-multiset of a hand classified
//! by a direct reading of the rules, and minimax without pruning or table.

use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::budget::{Budget, Outcome};
use super::hand::{Hand, RANKS};
use super::movegen::legal_leads;
use super::play::{classify, Play, PlayKind};
use super::rules::Rules;
use super::solver::solve;

/// (kind, chain length, main rank) of every reading of `c` as a play.
pub(crate) fn readings(c: &[u8; RANKS], r: &Rules) -> Vec<(PlayKind, u8, u8)> {
    let n: u8 = c.iter().sum();
    let mut out = Vec::new();
    let used: Vec<usize> = (0..RANKS).filter(|&i| c[i] > 0).collect();
    let chain_of = |k: u8| -> Option<(u8, u8)> {
        // All used ranks have exactly k cards, are consecutive and within 3..A.
        let lo = *used.first()?;
        let hi = *used.last()?;
        let ok = used.iter().all(|&i| c[i] == k) && hi - lo + 1 == used.len() && hi <= 11;
        ok.then_some((lo as u8, used.len() as u8))
    };
    if n == 1 {
        out.push((PlayKind::Single, 1, used[0] as u8));
    }
    if n == 2 && used.len() == 1 {
        out.push((PlayKind::Pair, 1, used[0] as u8));
    }
    if n == 2 && c[13] == 1 && c[14] == 1 {
        out.push((PlayKind::Rocket, 1, 13));
    }
    if n == 3 && used.len() == 1 {
        out.push((PlayKind::Trio, 1, used[0] as u8));
    }
    if n == 4 && used.len() == 1 {
        out.push((PlayKind::Bomb, 1, used[0] as u8));
    }
    for t in 0..RANKS {
        if c[t] == 3 && n == 4 && r.three_one {
            out.push((PlayKind::TrioSingle, 1, t as u8));
        }
        if c[t] == 3 && n == 5 && used.len() == 2 && r.three_two {
            out.push((PlayKind::TrioPair, 1, t as u8));
        }
        if c[t] == 4 && r.four_two {
            let rest: Vec<usize> = used.iter().copied().filter(|&i| i != t).collect();
            if n == 6 && !(c[13] == 1 && c[14] == 1) {
                out.push((PlayKind::FourTwoSingles, 1, t as u8));
            }
            if n == 8 && rest.len() == 2 && rest.iter().all(|&i| c[i] == 2) {
                out.push((PlayKind::FourTwoPairs, 1, t as u8));
            }
        }
    }
    if let Some((lo, len)) = chain_of(1) {
        if (5..=12).contains(&len) {
            out.push((PlayKind::Straight, len, lo));
        }
    }
    if let Some((lo, len)) = chain_of(2) {
        if (3..=10).contains(&len) && r.pair_chains {
            out.push((PlayKind::PairChain, len, lo));
        }
    }
    if let Some((lo, len)) = chain_of(3) {
        if (2..=6).contains(&len) && r.airplanes {
            out.push((PlayKind::Airplane, len, lo));
        }
    }
    if r.airplanes {
        for s in 0..12usize {
            for len in 2..=5usize {
                if s + len > 12 || (s..s + len).any(|i| c[i] != 3) {
                    continue;
                }
                let wing = |i: usize| if (s..s + len).contains(&i) { 0 } else { c[i] };
                let wings: u8 = (0..RANKS).map(wing).sum();
                let adjacent = |i: usize| (i + 1 == s || i == s + len) && i <= 11;
                let singles_ok =
                    (0..RANKS).all(|i| wing(i) <= if adjacent(i) { 2 } else { 3 }) && !(c[13] == 1 && c[14] == 1);
                if r.three_one && wings as usize == len && singles_ok {
                    out.push((PlayKind::AirplaneSingles, len as u8, s as u8));
                }
                let pair_ranks = (0..RANKS).filter(|&i| wing(i) > 0).count();
                let pairs_ok = (0..RANKS).all(|i| wing(i) == 0 || wing(i) == 2);
                if r.three_two && len <= 4 && pairs_ok && pair_ranks == len {
                    out.push((PlayKind::AirplanePairs, len as u8, s as u8));
                }
            }
        }
    }
    out
}

/// Every play of `hand` found by trying each of its sub-multisets.
pub(crate) fn brute_leads(hand: Hand, r: &Rules) -> Vec<Play> {
    let full = hand.counts();
    let mut out = Vec::new();
    let mut cur = [0u8; RANKS];
    fn rec(i: usize, full: &[u8; RANKS], cur: &mut [u8; RANKS], r: &Rules, out: &mut Vec<Play>) {
        if i == RANKS {
            if cur.iter().any(|&x| x > 0) {
                for (kind, length, main_rank) in readings(cur, r) {
                    let cards = Hand::from_counts(cur).unwrap();
                    out.push(Play {
                        kind,
                        main_rank,
                        length,
                        cards,
                    });
                }
            }
            return;
        }
        for k in 0..=full[i] {
            cur[i] = k;
            rec(i + 1, full, cur, r, out);
        }
        cur[i] = 0;
    }
    rec(0, &full, &mut cur, r, &mut out);
    out
}

fn plain_beats(a: &Play, b: &Play) -> bool {
    use PlayKind::*;
    match (a.kind, b.kind) {
        (_, Rocket) => false,
        (Rocket, _) => true,
        (Bomb, Bomb) => a.main_rank > b.main_rank,
        (Bomb, _) => true,
        _ => a.kind == b.kind && a.length == b.length && a.main_rank > b.main_rank,
    }
}

/// Minimax without pruning or memory: can the side to move force a win?
pub(crate) fn plain_wins(me: Hand, opp: Hand, last: Option<Play>, r: &Rules) -> bool {
    let plays = brute_leads(me, r);
    let mut options: Vec<Option<Play>> = plays
        .into_iter()
        .filter(|p| last.is_none_or(|l| plain_beats(p, &l)))
        .map(Some)
        .collect();
    if last.is_some() {
        options.push(None);
    }
    options.into_iter().any(|m| match m {
        None => !plain_wins(opp, me, None, r),
        Some(p) => {
            let rest = Hand(me.bits() - p.cards.bits());
            rest.is_empty() || !plain_wins(opp, rest, Some(p), r)
        }
    })
}

pub(crate) fn deck() -> Vec<u8> {
    let mut d: Vec<u8> = (0..13u8).flat_map(|r| [r; 4]).collect();
    d.push(13);
    d.push(14);
    d
}

pub(crate) fn hand_of(cards: &[u8]) -> Hand {
    cards.iter().fold(Hand::EMPTY, |h, &r| h.with_added(r, 1))
}

pub(crate) fn random_rules(rng: &mut ChaCha8Rng) -> Rules {
    Rules {
        three_one: rng.random_bool(0.7),
        three_two: rng.random_bool(0.7),
        four_two: rng.random_bool(0.7),
        pair_chains: rng.random_bool(0.7),
        airplanes: rng.random_bool(0.7),
    }
}

fn sorted(mut v: Vec<Play>) -> Vec<(u8, u8, u8, u64)> {
    let mut keys: Vec<_> = v.drain(..).map(|p| p.order_key()).collect();
    keys.sort_unstable();
    keys
}

fn check_leads(hand: Hand, r: &Rules) {
    let brute = brute_leads(hand, r);
    let mut cards: Vec<u64> = brute.iter().map(|p| p.cards.bits()).collect();
    cards.sort_unstable();
    let before = cards.len();
    cards.dedup();
    assert_eq!(before, cards.len(), "two readings of one card set in {hand}");
    assert_eq!(sorted(brute.clone()), sorted(legal_leads(hand, r)), "{hand} {r:?}");
    for p in brute {
        assert_eq!(classify(p.cards, r), Some(p), "classify {p}");
    }
}

#[test]
fn leads_equal_brute_force_on_fixed_seeds() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for size in 1..=20usize {
        for _ in 0..6 {
            let mut d = deck();
            d.shuffle(&mut rng);
            let r = if rng.random_bool(0.5) {
                Rules::default()
            } else {
                random_rules(&mut rng)
            };
            check_leads(hand_of(&d[..size]), &r);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]
    #[test]
    fn leads_equal_brute_force(seed in any::<u64>(), size in 0usize..=20, dense in any::<bool>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut d = deck();
        if dense {
            // Few ranks, many copies: airplanes, bombs and wings.
            let lo = rng.random_range(0..7u8);
            d.retain(|&r| (lo..lo + 6).contains(&r) || r >= 12);
        }
        d.shuffle(&mut rng);
        let r = random_rules(&mut rng);
        check_leads(hand_of(&d[..size.min(d.len())]), &r);
        check_leads(hand_of(&d[..size.min(d.len())]), &Rules::default());
    }
}

/// A random small position: hands of 1–`max` cards from one deck, maybe a play to answer.
pub(crate) fn random_position(rng: &mut ChaCha8Rng, max: usize) -> (Hand, Hand, Option<Play>, Rules) {
    let r = random_rules(rng);
    let mut d = deck();
    d.shuffle(rng);
    let a = rng.random_range(1..=max);
    let b = rng.random_range(1..=max);
    let me = hand_of(&d[..a]);
    let opp = hand_of(&d[a..a + b]);
    let mut last = None;
    if rng.random_bool(0.5) {
        let c = rng.random_range(1..=6);
        let leads = legal_leads(hand_of(&d[a + b..a + b + c]), &r);
        if !leads.is_empty() {
            last = Some(leads[rng.random_range(0..leads.len())]);
        }
    }
    (me, opp, last, r)
}

#[test]
fn solver_agrees_with_plain_minimax() {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    for i in 0..2200 {
        let (me, opp, last, r) = random_position(&mut rng, 6);
        let want = plain_wins(me, opp, last, &r);
        let got = solve(me, opp, last.as_ref(), &r, &Budget::default());
        let expect = if want { Outcome::Win } else { Outcome::Lose };
        assert_eq!(got.outcome, expect, "case {i}: {me} vs {opp} last {last:?} {r:?}");
        // The recommended move must itself be winning when the position is won.
        if want {
            let first = got.line.first().copied().flatten();
            let v = match first {
                None => !plain_wins(opp, me, None, &r),
                Some(p) => {
                    let rest = Hand(me.bits() - p.cards.bits());
                    rest.is_empty() || !plain_wins(opp, rest, Some(p), &r)
                }
            };
            assert!(v, "case {i}: recommended move {first:?} does not win");
        }
    }
}

/// Three-player minimax without table: does the team of `mover` win? `last` = play to
/// answer and its owner (never `mover`). Seats: 0 landlord, 1 down farmer, 2 up farmer.
pub(crate) fn plain_wins3(hands: [Hand; 3], mover: usize, last: Option<(Play, usize)>, r: &Rules) -> bool {
    let team = |s: usize| s == 0;
    let next = (mover + 1) % 3;
    let mut options: Vec<Option<Play>> = brute_leads(hands[mover], r)
        .into_iter()
        .filter(|p| last.is_none_or(|(l, _)| plain_beats(p, &l)))
        .map(Some)
        .collect();
    if last.is_some() {
        options.push(None);
    }
    options.into_iter().any(|m| match m {
        None => {
            let l = last.filter(|&(_, o)| o != next);
            plain_wins3(hands, next, l, r) == (team(next) == team(mover))
        }
        Some(p) => {
            let mut h = hands;
            h[mover] = Hand(h[mover].bits() - p.cards.bits());
            h[mover].is_empty() || plain_wins3(h, next, Some((p, mover)), r) == (team(next) == team(mover))
        }
    })
}

#[test]
fn three_player_solver_agrees_with_plain_minimax() {
    use super::solver3::{solve3, Seat};
    let seats = [Seat::Landlord, Seat::DownFarmer, Seat::UpFarmer];
    let mut rng = ChaCha8Rng::seed_from_u64(33);
    for i in 0..400 {
        let r = random_rules(&mut rng);
        let mut d = deck();
        d.shuffle(&mut rng);
        let sizes = [
            rng.random_range(1..=4usize),
            rng.random_range(1..=4usize),
            rng.random_range(1..=4usize),
        ];
        let h0 = hand_of(&d[..sizes[0]]);
        let h1 = hand_of(&d[sizes[0]..sizes[0] + sizes[1]]);
        let h2 = hand_of(&d[sizes[0] + sizes[1]..sizes[0] + sizes[1] + sizes[2]]);
        let hands = [h0, h1, h2];
        let mover = rng.random_range(0..3usize);
        let mut last = None;
        if rng.random_bool(0.5) {
            let owner = (mover + rng.random_range(1..3usize)) % 3;
            let leads = legal_leads(hand_of(&d[40..44]), &r);
            if !leads.is_empty() {
                last = Some((leads[rng.random_range(0..leads.len())], owner));
            }
        }
        let want = plain_wins3(hands, mover, last, &r);
        let got = solve3(
            &hands,
            seats[mover],
            last.as_ref().map(|(p, o)| (seats[*o], p)),
            &r,
            &Budget::default(),
        );
        let expect = if want { Outcome::Win } else { Outcome::Lose };
        assert_eq!(got.outcome, expect, "case {i}: {hands:?} mover {mover} last {last:?}");
    }
}
