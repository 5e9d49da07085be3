//! Hands with jokers (printed `JK` or cards of a declared wild rank).
//!
//! A joker can stand for any missing card of any run or set, so it joins every island: the
//! original method's island split does not apply and the row automaton of `solver.rs` (which knows where
//! each run starts) cannot tell that `4H JK JK` read as 2-3-4, 3-4-5 or a set of fours is one
//! meld. Here a meld is a multiset of cards that has at least one valid reading (at least one
//! card read as itself), and the arrangements are enumerated by owner: the smallest card of
//! every meld owns it, and at each card in card order the search picks the multiset of melds
//! that card owns, the remaining copies going to the dump. Every arrangement is reached once.
//! Maximality is then checked on the multisets: no meld in the dump, no dumped card whose
//! addition leaves a meld valid, and (merged convention) no two melds whose union is a run.
//! The search has a node budget; past it the answer is marked inexact.

use super::card::Card;
use super::hand::Hand;
use super::meld::{card_points, Arrangement, Meld, MeldKind};
use super::options::Options;
use super::solver::Value;
use rustc_hash::FxHashSet;

type Counts = [u8; 53];

fn jokerlike(code: u8, o: &Options) -> bool {
    code == 52 || o.wild_rank == Some(code % 13)
}

/// Is the multiset (sorted codes) a valid run?
pub(super) fn is_run(cards: &[u8], o: &Options) -> bool {
    let n = cards.len();
    if !(3..=13).contains(&n) {
        return false;
    }
    let plain: Vec<u8> = cards.iter().copied().filter(|&c| !jokerlike(c, o)).collect();
    if plain.is_empty() {
        // A wild card reads as itself; the rest fill the run around it.
        return cards.iter().any(|&c| c != 52);
    }
    let suit = plain[0] / 13;
    if plain.iter().any(|&c| c / 13 != suit) || plain.windows(2).any(|w| w[0] == w[1]) {
        return false;
    }
    let mut ranks: Vec<u8> = plain.iter().map(|&c| c % 13).collect();
    ranks.sort_unstable();
    let fits = |lo: u8, hi: u8, top: u8| hi - lo < n as u8 && (n as u8) <= top + 1;
    // Ace low: positions are the ranks.
    if fits(ranks[0], ranks[ranks.len() - 1], 12) {
        return true;
    }
    // Ace high: the ace moves to 13 (only one ace can be in `plain`, duplicates are refused).
    if o.ace_high && ranks[0] == 0 {
        let lo = ranks.get(1).copied().unwrap_or(13);
        return fits(lo, 13, 13);
    }
    false
}

/// Is the multiset a valid set?
pub(super) fn is_set(cards: &[u8], o: &Options) -> bool {
    let n = cards.len();
    if !(3..=4).contains(&n) {
        return false;
    }
    let plain: Vec<u8> = cards.iter().copied().filter(|&c| !jokerlike(c, o)).collect();
    if plain.is_empty() {
        return cards.iter().any(|&c| c != 52);
    }
    let rank = plain[0] % 13;
    let mut suits = 0u8;
    for &c in &plain {
        if c % 13 != rank || suits & (1 << (c / 13)) != 0 {
            return false;
        }
        suits |= 1 << (c / 13);
    }
    true
}

pub(super) fn is_meld(cards: &[u8], o: &Options) -> bool {
    is_run(cards, o) || is_set(cards, o)
}

fn fits(meld: &[u8], avail: &Counts) -> bool {
    let mut i = 0;
    while i < meld.len() {
        let c = meld[i];
        let mut j = i;
        while j < meld.len() && meld[j] == c {
            j += 1;
        }
        if avail[c as usize] < (j - i) as u8 {
            return false;
        }
        i = j;
    }
    true
}

/// Every multiset of `k` joker-like cards drawable from `avail`.
fn joker_multisets(kinds: &[u8], avail: &Counts, k: usize) -> Vec<Vec<u8>> {
    fn go(kinds: &[u8], avail: &Counts, k: usize, cur: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if k == 0 {
            out.push(cur.clone());
            return;
        }
        for (i, &kind) in kinds.iter().enumerate() {
            let used = cur.iter().filter(|&&c| c == kind).count() as u8;
            if used < avail[kind as usize] {
                cur.push(kind);
                go(&kinds[i..], avail, k - 1, cur, out);
                cur.pop();
            }
        }
    }
    let mut out = Vec::new();
    go(kinds, avail, k, &mut Vec::new(), &mut out);
    out
}

/// Every valid meld the hand can supply, as sorted code lists.
fn candidate_melds(counts: &Counts, o: &Options) -> Vec<Vec<u8>> {
    let kinds: Vec<u8> = (0..53u8)
        .filter(|&c| counts[c as usize] > 0 && jokerlike(c, o))
        .collect();
    let jokers: usize = kinds.iter().map(|&k| counts[k as usize] as usize).sum();
    let mut cores: Vec<Vec<u8>> = vec![Vec::new()];
    // Set cores: plain cards of one rank, distinct suits.
    for rank in 0..13u8 {
        for mask in 1..16u8 {
            let core: Vec<u8> = (0..4u8)
                .filter(|s| mask & (1 << s) != 0)
                .map(|s| s * 13 + rank)
                .collect();
            if core.len() <= 4 && core.iter().all(|&c| counts[c as usize] > 0 && !jokerlike(c, o)) {
                cores.push(core);
            }
        }
    }
    // Run cores: plain cards of one suit whose gaps the jokers can fill; positions are the
    // ranks, and in a second pass (ace high) the ace sits at 13.
    for suit in 0..4u8 {
        for high in [false, true] {
            if high && !o.ace_high {
                continue;
            }
            let present: Vec<(u8, u8)> = (0..13u8)
                .map(|r| suit * 13 + r)
                .filter(|&c| counts[c as usize] > 0 && !jokerlike(c, o))
                .map(|c| (if high && c % 13 == 0 { 13 } else { c % 13 }, c))
                .filter(|&(pos, _)| !(high && pos == 0))
                .collect::<Vec<_>>();
            let mut present = present;
            present.sort_unstable();
            for first in 0..present.len() {
                let mut stack = vec![vec![present[first]]];
                while let Some(core) = stack.pop() {
                    cores.push(core.iter().map(|&(_, c)| c).collect());
                    let (last, _) = core[core.len() - 1];
                    for &next in present.iter().filter(|&&(p, _)| p > last) {
                        let span = (next.0 - core[0].0) as usize + 1;
                        if span <= 13 && span <= core.len() + 1 + jokers {
                            let mut bigger = core.clone();
                            bigger.push(next);
                            stack.push(bigger);
                        }
                    }
                }
            }
        }
    }
    let mut found: FxHashSet<Vec<u8>> = FxHashSet::default();
    for core in cores {
        let lo = 3usize.saturating_sub(core.len());
        let hi = jokers.min(13usize.saturating_sub(core.len()));
        for k in lo..=hi {
            for fill in joker_multisets(&kinds, counts, k) {
                let mut meld = core.clone();
                meld.extend(fill);
                meld.sort_unstable();
                if fits(&meld, counts) && is_meld(&meld, o) {
                    found.insert(meld);
                }
            }
        }
    }
    let mut out: Vec<Vec<u8>> = found.into_iter().collect();
    out.sort();
    out
}

/// What the joker search returns.
pub(super) struct JokerAnswer {
    pub value: Value,
    pub exact: bool,
    pub min_cards_witness: Option<Arrangement>,
    pub min_points_witness: Option<Arrangement>,
    pub listing: Vec<Arrangement>,
}

struct Search<'a> {
    o: &'a Options,
    melds: Vec<Vec<u8>>,
    owned: Vec<Vec<usize>>,
    avail: Counts,
    chosen: Vec<usize>,
    nodes: u64,
    /// The node count at which the clock is read next (a leaf adds several nodes at once, so a
    /// test of the count's low bits could step over every multiple and never read it).
    next_look: u64,
    exact: bool,
    list_split: bool,
    list_limit: usize,
    answer: JokerAnswer,
}

/// Solves a whole hand that holds jokers or wild cards.
pub(super) fn solve(hand: &Hand, o: &Options, list_split: bool, list_limit: usize) -> JokerAnswer {
    let mut counts = [0u8; 53];
    for card in hand.cards() {
        counts[card.index() as usize] += 1;
    }
    let melds = candidate_melds(&counts, o);
    let mut owned = vec![Vec::new(); 53];
    for (i, m) in melds.iter().enumerate() {
        owned[m[0] as usize].push(i);
    }
    let mut search = Search {
        o,
        melds,
        owned,
        avail: counts,
        chosen: Vec::new(),
        nodes: 0,
        next_look: LOOK_EVERY,
        exact: true,
        list_split,
        list_limit,
        answer: JokerAnswer {
            value: Value::DEAD,
            exact: true,
            min_cards_witness: None,
            min_points_witness: None,
            listing: Vec::new(),
        },
    };
    search.card(0);
    search.answer.exact = search.exact;
    search.answer.listing.sort_by(|a, b| {
        (a.deadwood_points(o), a.deadwood_cards(), a).cmp(&(b.deadwood_points(o), b.deadwood_cards(), b))
    });
    search.answer
}

/// Nodes between two reads of the clock.
const LOOK_EVERY: u64 = 4096;

impl Search<'_> {
    fn card(&mut self, x: usize) {
        self.nodes += 1;
        // The clock is read once every 4096 nodes: the run's deadline stops the search like
        // the node budget does (the answer is then "unknown within budget").
        if self.nodes > self.o.node_budget || (self.nodes >= self.next_look && self.past_deadline()) {
            self.exact = false;
            return;
        }
        if x == 53 {
            self.leaf();
            return;
        }
        self.owned_from(x, 0);
    }

    /// Reads the clock (every [`LOOK_EVERY`] nodes): true once the run's deadline has passed.
    #[cold]
    fn past_deadline(&mut self) -> bool {
        self.next_look = self.nodes + LOOK_EVERY;
        crate::budget::expired()
    }

    /// Picks melds owned by card `x`, from position `from` of its list, then moves on.
    fn owned_from(&mut self, x: usize, from: usize) {
        if !self.exact {
            return;
        }
        // Stop picking: the rest of `x` is dumped (kept in `avail`, read by `leaf`).
        self.card(x + 1);
        let list = self.owned[x].clone();
        for (i, &m) in list.iter().enumerate().skip(from) {
            if fits(&self.melds[m], &self.avail) {
                for &c in &self.melds[m] {
                    self.avail[c as usize] -= 1;
                }
                self.chosen.push(m);
                self.owned_from(x, i);
                self.chosen.pop();
                for &c in &self.melds[m] {
                    self.avail[c as usize] += 1;
                }
            }
        }
    }

    fn leaf(&mut self) {
        // A leaf scans every candidate meld: charge that work to the budget.
        self.nodes += self.melds.len() as u64 / 8;
        let dump = self.avail;
        let o = self.o;
        if self.melds.iter().any(|m| fits(m, &dump)) {
            return;
        }
        for &m in &self.chosen {
            for c in 0..53u8 {
                if dump[c as usize] > 0 {
                    let mut bigger = self.melds[m].clone();
                    bigger.push(c);
                    bigger.sort_unstable();
                    if is_meld(&bigger, o) {
                        return;
                    }
                }
            }
        }
        let mut touching = false;
        'pairs: for (i, &a) in self.chosen.iter().enumerate() {
            for &b in &self.chosen[i + 1..] {
                let mut union = self.melds[a].clone();
                union.extend(self.melds[b].iter().copied());
                union.sort_unstable();
                if is_run(&union, o) {
                    touching = true;
                    break 'pairs;
                }
            }
        }
        let mut cards = 0u32;
        let mut points = 0u32;
        for (c, &n) in dump.iter().enumerate() {
            let card = Card::from_index(c as u8).unwrap_or(Card::JOKER);
            cards += n as u32;
            points += n as u32 * card_points(card, o);
        }
        let here = Value::single(cards, points);
        let v = &mut self.answer.value;
        v.split = v.split.saturating_add(1);
        if !touching {
            v.merged = v.merged.saturating_add(1);
        }
        let better_cards = here.min_cp < v.min_cp;
        let better_points = here.min_pc < v.min_pc;
        v.min_cp = v.min_cp.min(here.min_cp);
        v.min_pc = v.min_pc.min(here.min_pc);
        let listed = self.list_split || !touching;
        if better_cards || better_points || (listed && self.answer.listing.len() <= self.list_limit) {
            let arr = self.arrangement(&dump);
            if better_cards {
                self.answer.min_cards_witness = Some(arr.clone());
            }
            if better_points {
                self.answer.min_points_witness = Some(arr.clone());
            }
            if listed && self.answer.listing.len() <= self.list_limit {
                self.answer.listing.push(arr);
            }
        }
    }

    fn arrangement(&self, dump: &Counts) -> Arrangement {
        let mut arr = Arrangement::default();
        for &m in &self.chosen {
            let cards: Vec<Card> = self.melds[m]
                .iter()
                .map(|&c| Card::from_index(c).unwrap_or(Card::JOKER))
                .collect();
            let kind = if is_run(&self.melds[m], self.o) {
                MeldKind::Run
            } else {
                MeldKind::Set
            };
            arr.melds.push(Meld::from_cards(kind, cards));
        }
        for (c, &n) in dump.iter().enumerate() {
            let card = Card::from_index(c as u8).unwrap_or(Card::JOKER);
            arr.dump.extend(std::iter::repeat_n(card, n as usize));
        }
        arr.canonicalize();
        arr
    }
}
