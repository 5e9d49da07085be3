//! Test-only oracle written straight from the rules of the game, as plainly as possible:
//! sort, count, compare lists. Shares nothing with the fast path but the card layout.

use std::cmp::Ordering;

/// Rank 2..=14 and suit of a card index.
fn rank_and_suit(card: u8) -> (u8, u8) {
    (card / 4 + 2, card % 4)
}

/// Category (1 best … 9) and the ranks compared, in order.
pub(super) fn classify(hand: &[u8]) -> (u8, Vec<u8>) {
    let mut ranks: Vec<u8> = hand.iter().map(|&c| rank_and_suit(c).0).collect();
    ranks.sort();
    ranks.reverse();
    let first_suit = rank_and_suit(hand[0]).1;
    let same_suit = hand.iter().all(|&c| rank_and_suit(c).1 == first_suit);
    let mut all_different = true;
    for i in 0..ranks.len() {
        for j in 0..i {
            if ranks[i] == ranks[j] {
                all_different = false;
            }
        }
    }
    // Ace is high only: A-2-3-4-5 has a gap between A (14) and 5.
    let adjacent = all_different && ranks[0] - ranks[4] == 4;
    let how_many = |r: u8| ranks.iter().filter(|&&x| x == r).count();
    let with_count = |n: usize| -> Vec<u8> {
        let mut found: Vec<u8> = ranks.iter().copied().filter(|&r| how_many(r) == n).collect();
        found.dedup();
        found
    };
    let fours = with_count(4);
    let threes = with_count(3);
    let pairs = with_count(2);
    let singles = with_count(1);
    if same_suit && adjacent {
        return (1, ranks);
    }
    if fours.len() == 1 {
        return (2, fours);
    }
    if threes.len() == 1 && pairs.len() == 1 {
        return (3, threes);
    }
    if same_suit {
        return (4, ranks);
    }
    if adjacent {
        return (5, ranks);
    }
    if threes.len() == 1 {
        return (6, threes);
    }
    if pairs.len() == 2 {
        return (7, vec![pairs[0], pairs[1], singles[0]]);
    }
    if pairs.len() == 1 {
        let mut deciding = pairs.clone();
        deciding.extend(singles);
        return (8, deciding);
    }
    (9, ranks)
}

/// `Greater` when hand `a` beats hand `b`.
pub(super) fn compare(a: &[u8], b: &[u8]) -> Ordering {
    let (category_a, ranks_a) = classify(a);
    let (category_b, ranks_b) = classify(b);
    if category_a != category_b {
        // Smaller category number is better.
        return category_b.cmp(&category_a);
    }
    for i in 0..ranks_a.len() {
        if ranks_a[i] != ranks_b[i] {
            return ranks_a[i].cmp(&ranks_b[i]);
        }
    }
    Ordering::Equal
}

/// Every `k`-card subset of `deck`.
fn subsets(deck: &[u8], k: usize) -> Vec<Vec<u8>> {
    if k == 0 {
        return vec![vec![]];
    }
    let mut all = Vec::new();
    for i in 0..deck.len() {
        for mut rest in subsets(&deck[i + 1..], k - 1) {
            rest.insert(0, deck[i]);
            all.push(rest);
        }
    }
    all
}

/// Plain odds: every deal of the unseen cards to every player (me first), my hand compared with each
/// opponent's. Returns (wins, ties_split, losses).
pub(super) fn odds(me: &[u8], opponents: &[Vec<u8>], dead: &[u8]) -> (u64, [u64; 6], u64) {
    let mut deck: Vec<u8> = (0..52).collect();
    deck.retain(|c| !me.contains(c) && !dead.contains(c) && !opponents.iter().any(|o| o.contains(c)));
    let mut hands: Vec<Vec<u8>> = vec![me.to_vec()];
    hands.extend(opponents.iter().cloned());
    let mut result = (0, [0u64; 6], 0);
    deal(&hands, 0, &deck, &mut result);
    result
}

fn deal(hands: &[Vec<u8>], player: usize, deck: &[u8], result: &mut (u64, [u64; 6], u64)) {
    if player == hands.len() {
        let mut beaten = false;
        let mut equal = 0;
        for opponent in &hands[1..] {
            match compare(&hands[0], opponent) {
                Ordering::Less => beaten = true,
                Ordering::Equal => equal += 1,
                Ordering::Greater => {}
            }
        }
        if beaten {
            result.2 += 1;
        } else if equal > 0 {
            result.1[equal + 1] += 1;
        } else {
            result.0 += 1;
        }
        return;
    }
    for pick in subsets(deck, 5 - hands[player].len()) {
        let mut dealt = hands.to_vec();
        dealt[player].extend_from_slice(&pick);
        let rest: Vec<u8> = deck.iter().copied().filter(|c| !pick.contains(c)).collect();
        deal(&dealt, player + 1, &rest, result);
    }
}
