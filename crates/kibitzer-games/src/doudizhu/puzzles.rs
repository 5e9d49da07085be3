//! Test-only: the original article's puzzles and the published hard puzzle.

use super::budget::{Budget, Outcome};
use super::hand::{parse_hand, Hand};
use super::oracle::brute_leads;
use super::play::Play;
use super::play::PlayKind;
use super::rules::Rules;
use super::solver::solve;

pub(crate) const P1_FARMER: &str = "3 3 3 3 4 5 6 7 T T A A A A";
pub(crate) const P1_LANDLORD: &str = "BJ RJ J J 9 9 9";
pub(crate) const P2_FARMER: &str = "8 8 9 9 T T Q Q Q K K K 2";
pub(crate) const P2_LANDLORD: &str = "J J A A";
pub(crate) const HARD_ME: &str = "4 4 8 9 9 9 T J J Q Q A RJ";
pub(crate) const HARD_ENEMY: &str = "3 3 6 6 8 8 T A A 2 2 BJ";

/// The hard puzzle's rules: trio+pair on, no pair chains, no airplanes.
pub(crate) fn hard_rules() -> Rules {
    Rules {
        three_one: true,
        three_two: true,
        four_two: true,
        pair_chains: false,
        airplanes: false,
    }
}

fn run(me: &str, enemy: &str, rules: &Rules) -> super::budget::Solution {
    solve(
        parse_hand(me).unwrap(),
        parse_hand(enemy).unwrap(),
        None,
        rules,
        &Budget::default(),
    )
}

#[test]
fn puzzle1_original_rules_the_farmer_loses() {
    // The original article's conclusion.
    let s = run(P1_FARMER, P1_LANDLORD, &Rules::original());
    assert_eq!(s.outcome, Outcome::Lose);
    assert!(s.best.is_some());
}

#[test]
fn puzzle1_standard_rules_the_farmer_still_loses() {
    // Unpublished before: with trio+pair allowed the landlord answers any lead with the
    // rocket, the farmer must pass, and 9 9 9 J J leaves in one play. Every farmer lead
    // loses in four plies. Cross-checked by the memoised plain minimax below.
    let s = run(P1_FARMER, P1_LANDLORD, &Rules::default());
    assert_eq!(s.outcome, Outcome::Lose, "line {:?}", s.line);
    let line: Vec<String> = s
        .line
        .iter()
        .map(|m| m.map_or("pass".into(), |p| p.to_string()))
        .collect();
    assert_eq!(line[1..], ["BJ RJ", "pass", "9 9 9 J J"]);
}

type Memo = std::collections::HashMap<(u64, u64, Option<(u8, u8, u8)>), bool>;

/// The original article's memoised minimax, over the brute-force move lists: independent of the
/// solver's move generation, pruning and table.
fn memo_wins(me: Hand, opp: Hand, last: Option<Play>, r: &Rules, memo: &mut Memo) -> bool {
    let k = (
        me.bits(),
        opp.bits(),
        last.map(|l| (l.kind.index(), l.length, l.main_rank)),
    );
    if let Some(&v) = memo.get(&k) {
        return v;
    }
    let mut v = false;
    for p in brute_leads(me, r) {
        if last.is_some_and(|l| !p.beats(&l)) {
            continue;
        }
        let rest = Hand(me.bits() - p.cards.bits());
        if rest.is_empty() || !memo_wins(opp, rest, Some(p), r, memo) {
            v = true;
            break;
        }
    }
    if !v && last.is_some() {
        v = !memo_wins(opp, me, None, r, memo);
    }
    memo.insert(k, v);
    v
}

#[test]
fn puzzle1_memoised_plain_minimax_agrees() {
    let me = parse_hand(P1_FARMER).unwrap();
    let opp = parse_hand(P1_LANDLORD).unwrap();
    for rules in [Rules::original(), Rules::default()] {
        let mut memo = std::collections::HashMap::new();
        assert!(!memo_wins(me, opp, None, &rules, &mut memo), "{rules:?}");
    }
}

#[test]
fn puzzle2_original_rules_without_trio_single_the_farmer_loses() {
    let rules = Rules {
        three_one: false,
        ..Rules::original()
    };
    assert_eq!(run(P2_FARMER, P2_LANDLORD, &rules).outcome, Outcome::Lose);
}

#[test]
fn puzzle2_standard_rules_the_farmer_wins() {
    // 8899TT (pair chain), QQQKKK (airplane), then 2: the landlord has no bomb.
    let s = run(P2_FARMER, P2_LANDLORD, &Rules::default());
    assert_eq!(s.outcome, Outcome::Win);
    let best = s.best.unwrap();
    assert!(
        matches!(
            best.kind,
            PlayKind::PairChain | PlayKind::Airplane | PlayKind::AirplaneSingles | PlayKind::AirplanePairs
        ),
        "{best}"
    );
    assert!(s.line.len() >= 3);
}

#[test]
fn hard_puzzle_is_a_win() {
    let s = run(HARD_ME, HARD_ENEMY, &hard_rules());
    assert_eq!(s.outcome, Outcome::Win);
}
