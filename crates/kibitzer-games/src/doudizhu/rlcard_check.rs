//! Test-only: the move generator against reference move sets produced by RLCard
//! (tests/fixtures/doudizhu/gen_rlcard.py).

use super::hand::{parse_hand, Hand, RANKS};
use super::movegen::{legal_leads, legal_responses};
use super::play::{classify, Play, PlayKind};
use super::rules::Rules;

const FIXTURE: &str = include_str!("../../../../tests/fixtures/doudizhu/rlcard_moves.txt");

/// RLCard's compact notation: ascending ranks, `B`/`R` for the jokers.
fn rlcard_cards(hand: Hand) -> String {
    const CHARS: &[u8; RANKS] = b"3456789TJQKA2BR";
    let mut s = String::new();
    for (rank, &c) in CHARS.iter().enumerate() {
        for _ in 0..hand.count(rank as u8) {
            s.push(c as char);
        }
    }
    s
}

/// RLCard's type name of a play.
fn rlcard_type(p: &Play) -> String {
    let l = p.length;
    match p.kind {
        PlayKind::Single => "solo".into(),
        PlayKind::Pair => "pair".into(),
        PlayKind::Trio => "trio".into(),
        PlayKind::TrioSingle => "trio_solo".into(),
        PlayKind::TrioPair => "trio_pair".into(),
        PlayKind::Straight => format!("solo_chain_{l}"),
        PlayKind::PairChain => format!("pair_chain_{l}"),
        PlayKind::Airplane => format!("trio_chain_{l}"),
        PlayKind::AirplaneSingles => format!("trio_solo_chain_{l}"),
        PlayKind::AirplanePairs => format!("trio_pair_chain_{l}"),
        PlayKind::FourTwoSingles => "four_two_solo".into(),
        PlayKind::FourTwoPairs => "four_two_pair".into(),
        PlayKind::Bomb => "bomb".into(),
        PlayKind::Rocket => "rocket".into(),
    }
}

fn fnv(plays: &[Play]) -> String {
    let mut strings: Vec<String> = plays
        .iter()
        .map(|p| format!("{}:{}", rlcard_cards(p.cards), rlcard_type(p)))
        .collect();
    strings.sort();
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for s in strings {
        for b in s.bytes().chain(std::iter::once(b'\n')) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01B3);
        }
    }
    format!("{h:016x}")
}

#[test]
fn leads_and_answers_equal_rlcard() {
    let rules = Rules::default();
    let mut cases = 0;
    for line in FIXTURE.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        match f.as_slice() {
            ["leads", hand, count, hash] => {
                let plays = legal_leads(parse_hand(hand).expect(hand), &rules);
                assert_eq!(plays.len().to_string(), *count, "leads of {hand}");
                assert_eq!(fnv(&plays), *hash, "leads of {hand}");
            }
            ["answers", hand, last, count, hash] => {
                let last = classify(parse_hand(last).unwrap(), &rules).unwrap();
                let plays = legal_responses(parse_hand(hand).unwrap(), &last, &rules);
                assert_eq!(plays.len().to_string(), *count, "answers of {hand} to {last}");
                assert_eq!(fnv(&plays), *hash, "answers of {hand} to {last}");
            }
            _ => panic!("bad fixture line {line}"),
        }
        cases += 1;
    }
    assert_eq!(cases, 510);
}
