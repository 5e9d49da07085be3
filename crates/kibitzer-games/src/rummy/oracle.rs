//! Test-only brute force: list every valid meld of the hand plainly, take every multiset of
//! disjoint melds, and check maximality card by card. No islands, no flags, no
//! automata; jokers and wild cards handled by trying every reading of a meld.

use super::card::Card;
use super::hand::Hand;
use super::meld::card_points;
use super::options::Options;
use std::collections::BTreeSet;

/// What the oracle finds for a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OracleAnswer {
    pub merged: u128,
    pub split: u128,
    pub min_cards: u32,
    pub min_points: u32,
}

type Counts = [u8; 53];

fn counts_of(hand: &Hand) -> Counts {
    let mut c = [0u8; 53];
    for card in hand.cards() {
        c[card.index() as usize] += 1;
    }
    c
}

fn is_jokerlike(code: usize, o: &Options) -> bool {
    code == 52 || o.wild_rank == Some((code % 13) as u8)
}

/// Is this multiset of cards (codes) a run or set under some reading of its jokers?
pub fn valid_meld(cards: &[usize], o: &Options) -> bool {
    valid_as(cards, o, true) || valid_as(cards, o, false)
}

/// Validity as a run (`run = true`) or as a set.
pub fn valid_as(cards: &[usize], o: &Options, run: bool) -> bool {
    if cards.len() < 3 {
        return false;
    }
    let wilds: Vec<usize> = cards
        .iter()
        .copied()
        .filter(|&c| c != 52 && is_jokerlike(c, o))
        .collect();
    let printed = cards.iter().filter(|&&c| c == 52).count();
    let plain: Vec<usize> = cards.iter().copied().filter(|&c| !is_jokerlike(c, o)).collect();
    for choice in 0..(1u32 << wilds.len()) {
        let mut naturals = plain.clone();
        let mut jokers = printed;
        for (i, &w) in wilds.iter().enumerate() {
            if choice & (1 << i) != 0 {
                naturals.push(w);
            } else {
                jokers += 1;
            }
        }
        if naturals.is_empty() {
            continue;
        }
        let total = naturals.len() + jokers;
        if run {
            if run_reading(&naturals, total, o) {
                return true;
            }
        } else {
            let rank = naturals[0] % 13;
            let mut suits = BTreeSet::new();
            let ok = naturals.iter().all(|&c| c % 13 == rank && suits.insert(c / 13));
            if ok && (total == 3 || total == 4) {
                return true;
            }
        }
    }
    false
}

fn run_reading(naturals: &[usize], total: usize, o: &Options) -> bool {
    let suit = naturals[0] / 13;
    if naturals.iter().any(|&c| c / 13 != suit) || total > 13 {
        return false;
    }
    let top = if o.ace_high { 13 } else { 12 };
    let aces = naturals.iter().filter(|&&c| c % 13 == 0).count();
    // Each ace reads as position 0 or (ace-high) 13.
    for ace_high_pick in 0..(1u32 << aces) {
        let mut positions = Vec::new();
        let mut ai = 0;
        for &c in naturals {
            let r = c % 13;
            if r == 0 {
                positions.push(if ace_high_pick & (1 << ai) != 0 { 13 } else { 0 });
                ai += 1;
            } else {
                positions.push(r);
            }
        }
        if positions.contains(&13) && !o.ace_high {
            continue;
        }
        positions.sort();
        if positions.windows(2).any(|w| w[0] == w[1]) {
            continue;
        }
        // The same card twice (an ace low and high) is never one run.
        let mut cards_seen = naturals.to_vec();
        cards_seen.sort();
        if cards_seen.windows(2).any(|w| w[0] == w[1]) {
            continue;
        }
        let (lo, hi) = (positions[0], positions[positions.len() - 1]);
        for start in 0..=top {
            let end = start + total - 1;
            if end <= top && start <= lo && end >= hi {
                return true;
            }
        }
    }
    false
}

fn fits(meld: &[usize], avail: &Counts) -> bool {
    let mut need = [0u8; 53];
    for &c in meld {
        need[c] += 1;
    }
    need.iter().zip(avail.iter()).all(|(n, a)| n <= a)
}

/// Every valid meld (as a sorted multiset of codes) that the hand can supply.
pub fn all_melds(hand: &Hand, o: &Options) -> Vec<Vec<usize>> {
    let counts = counts_of(hand);
    let jokerlike: Vec<usize> = (0..53).filter(|&c| counts[c] > 0 && is_jokerlike(c, o)).collect();
    let joker_total: usize = jokerlike.iter().map(|&c| counts[c] as usize).sum();
    let mut found = BTreeSet::new();
    // Shapes: for every run interval / set suit-subset, the naturals it uses; missing slots
    // are jokers, filled by every multiset of joker-like cards.
    let mut shapes: Vec<Vec<Option<usize>>> = Vec::new();
    let top = if o.ace_high { 13 } else { 12 };
    for suit in 0..4 {
        for start in 0..=top {
            for len in 3..=13usize {
                let end = start + len - 1;
                if end > top {
                    break;
                }
                shapes.push((start..=end).map(|p| Some(suit * 13 + p % 13)).collect());
            }
        }
    }
    for rank in 0..13 {
        for mask in 1..16u32 {
            if mask.count_ones() >= 3 {
                shapes.push(
                    (0..4)
                        .filter(|s| mask & (1 << s) != 0)
                        .map(|s| Some(s * 13 + rank))
                        .collect(),
                );
            }
        }
        for mask in 1..16u32 {
            // Sets with jokers: fewer suits named, jokers for the rest.
            if mask.count_ones() < 3 {
                for extra in (3 - mask.count_ones() as usize)..=(4 - mask.count_ones() as usize) {
                    let mut shape: Vec<Option<usize>> = (0..4)
                        .filter(|s| mask & (1 << s) != 0)
                        .map(|s| Some(s * 13 + rank))
                        .collect();
                    shape.extend(std::iter::repeat_n(None, extra));
                    shapes.push(shape);
                }
            }
        }
    }
    for shape in shapes {
        // Absent cards must be jokers; present ones may be read as jokers too.
        let forced = shape.iter().filter(|s| s.is_none_or(|c| counts[c] == 0)).count();
        if forced > joker_total {
            continue;
        }
        let present: Vec<usize> = shape.iter().filter_map(|s| *s).filter(|&c| counts[c] > 0).collect();
        for as_jokers in subsets_up_to(present.len(), joker_total - forced) {
            let naturals: Vec<usize> = present
                .iter()
                .enumerate()
                .filter(|(i, _)| !as_jokers.contains(i))
                .map(|(_, &c)| c)
                .collect();
            if naturals.is_empty() {
                continue;
            }
            for fill in joker_fills(&jokerlike, forced + as_jokers.len()) {
                let mut meld = naturals.clone();
                meld.extend(fill);
                meld.sort();
                if fits(&meld, &counts) && valid_meld(&meld, o) {
                    found.insert(meld);
                }
            }
        }
    }
    found.into_iter().collect()
}

fn subsets_up_to(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new()];
    let mut frontier = vec![Vec::new()];
    for _ in 0..k {
        let mut next = Vec::new();
        for set in &frontier {
            let from = set.last().map_or(0, |&l: &usize| l + 1);
            for i in from..n {
                let mut bigger = set.clone();
                bigger.push(i);
                next.push(bigger);
            }
        }
        out.extend(next.iter().cloned());
        frontier = next;
    }
    out
}

fn joker_fills(kinds: &[usize], j: usize) -> Vec<Vec<usize>> {
    if j == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, &k) in kinds.iter().enumerate() {
        for mut rest in joker_fills(&kinds[i..], j - 1) {
            rest.push(k);
            out.push(rest);
        }
    }
    out
}

/// Brute-force answer for a hand.
pub fn solve(hand: &Hand, o: &Options) -> OracleAnswer {
    let melds = all_melds(hand, o);
    let counts = counts_of(hand);
    let mut ans = OracleAnswer {
        merged: 0,
        split: 0,
        min_cards: u32::MAX,
        min_points: u32::MAX,
    };
    let mut chosen: Vec<usize> = Vec::new();
    let mut avail = counts;
    recurse(0, &melds, &mut avail, &mut chosen, o, &mut ans);
    ans
}

fn recurse(
    i: usize,
    melds: &[Vec<usize>],
    avail: &mut Counts,
    chosen: &mut Vec<usize>,
    o: &Options,
    ans: &mut OracleAnswer,
) {
    if i == melds.len() {
        judge(melds, avail, chosen, o, ans);
        return;
    }
    recurse(i + 1, melds, avail, chosen, o, ans);
    let mut taken = 0;
    while fits(&melds[i], avail) {
        for &c in &melds[i] {
            avail[c] -= 1;
        }
        chosen.push(i);
        taken += 1;
        recurse(i + 1, melds, avail, chosen, o, ans);
    }
    for _ in 0..taken {
        chosen.pop();
        for &c in &melds[i] {
            avail[c] += 1;
        }
    }
}

fn judge(melds: &[Vec<usize>], dump: &Counts, chosen: &[usize], o: &Options, ans: &mut OracleAnswer) {
    // The dump must hold no meld.
    if melds.iter().any(|m| fits(m, dump)) {
        return;
    }
    // No dumped card may extend a chosen meld.
    for &m in chosen {
        for (c, &n) in dump.iter().enumerate() {
            if n > 0 {
                let mut bigger = melds[m].clone();
                bigger.push(c);
                bigger.sort();
                if valid_meld(&bigger, o) {
                    return;
                }
            }
        }
    }
    let cards: u32 = dump.iter().map(|&n| n as u32).sum();
    let points: u32 = (0..53)
        .map(|c| {
            let card = Card::from_index(c as u8).unwrap_or(Card::JOKER);
            dump[c] as u32 * card_points(card, o)
        })
        .sum();
    ans.split += 1;
    let mut touching = false;
    for (a, &x) in chosen.iter().enumerate() {
        for &y in &chosen[a + 1..] {
            let mut union = melds[x].clone();
            union.extend(melds[y].iter().copied());
            union.sort();
            if valid_as(&union, o, true) {
                touching = true;
            }
        }
    }
    if !touching {
        ans.merged += 1;
    }
    ans.min_cards = ans.min_cards.min(cards);
    ans.min_points = ans.min_points.min(points);
}
