//! Reading the reference bot from what it throws: which honours it cannot hold as singles, how
//! likely each kind is to come from its discards, and, once it has declared, the ready hands it
//! may hold (docs/mahjong.md, "Levers", measures each).
//!
//! Before it declares ready the reference bot discards by shape, the highest tile of the first
//! class present, singles first, honours above characters (`docs/mahjong.md`). So when its last
//! discard of its own choice was the honour `X`, every honour above `X` it still holds is a pair
//! or a set; when it was a character, every honour it holds is. Once it has declared, its hand is
//! fixed and it throws back every tile it draws: a uniform draw from the tiles left.

use std::cell::RefCell;
use std::rc::Rc;

use super::tile::{Counts, Tile, KINDS};

/// The first honour's kind index.
const HONOURS: usize = 27;

/// What the opponent's discards say about its concealed hand.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    /// The discard of its own choice the read rests on: its last before declaring (None: no
    /// such discard, nothing read).
    pub after: Option<Tile>,
    /// Honour kinds it holds as a pair or a set if at all, never as a single.
    pub no_single: [bool; KINDS],
    /// Whether it has declared ready: its hand has changed by one draw since `after` (the
    /// declaring turn's), and its discards since are thrown-back draws.
    pub declared: bool,
}

impl Read {
    /// The read from the opponent's discards on the table, in order, of which the first
    /// `ready_at` came up to its declaring ready (0: it has not declared).
    pub fn from_discards(discards: &[Tile], ready_at: usize, declared: bool) -> Read {
        let chosen = if declared {
            // The declaring discard is a choice among ready hands, not the shape order.
            &discards[..ready_at.saturating_sub(1).min(discards.len())]
        } else {
            discards
        };
        Read::after(chosen.last().copied(), declared)
    }

    /// The read from the opponent's last discard of its own choice (before declaring, if it
    /// has): the honours above it, or every honour after a character, are pairs or sets if held.
    pub fn after(last: Option<Tile>, declared: bool) -> Read {
        let mut no_single = [false; KINDS];
        if let Some(t) = last {
            let above = if t.is_honor() { t.index() + 1 } else { HONOURS };
            no_single[above..].fill(true);
        }
        Read {
            after: last,
            no_single,
            declared,
        }
    }

    /// No read: every kind may be held as a single.
    pub fn blind(declared: bool) -> Read {
        Read {
            after: None,
            no_single: [false; KINDS],
            declared,
        }
    }

    /// The honours the read clears, in tile order (for explanations).
    pub fn cleared(&self) -> Vec<Tile> {
        (HONOURS..KINDS)
            .filter(|&i| self.no_single[i])
            .filter_map(Tile::from_index)
            .collect()
    }

    /// The chance the opponent holds exactly one copy of kind `i` among its `hidden` concealed
    /// tiles, `unseen` copies of it among the `pool` tiles this seat cannot see. For an honour
    /// the read clears: zero before it declares; once declared, only if the declaring turn's draw
    /// was that kind.
    pub fn single(&self, i: usize, unseen: u8, pool: u32, hidden: u32) -> f64 {
        let p = exactly(1, unseen, pool, hidden);
        if !self.no_single[i] {
            p
        } else if self.declared && pool > 0 {
            p * f64::from(unseen) / f64::from(pool)
        } else {
            0.0
        }
    }

    /// Per opponent turn `j` (0 = its next) and kind, the chance that its discard is that kind,
    /// from the copies `unseen` by this seat (`pool` in all) and its `hidden` concealed tiles.
    /// Declared: a uniform draw thrown back. Not declared: each honour it may hold as a single
    /// comes out once, after the higher ones it may hold; the rest of each turn's discard is
    /// spread over the characters by their unseen copies.
    pub fn throw_chances(&self, unseen: &Counts, pool: u32, hidden: u32, turns: usize) -> Vec<[f64; KINDS]> {
        let mut at = vec![[0.0; KINDS]; turns];
        if pool == 0 {
            return at;
        }
        if self.declared {
            for row in at.iter_mut() {
                for (x, &u) in row.iter_mut().zip(unseen) {
                    *x = f64::from(u) / f64::from(pool);
                }
            }
            return at;
        }
        // The honour singles queue up, the highest first, one a turn: honour `i` takes the
        // part of [before, before + p) that falls in turn j's [j, j + 1).
        let mut before = 0.0f64;
        for i in (HONOURS..KINDS).rev() {
            let p = self.single(i, unseen[i], pool, hidden);
            for (j, row) in at.iter_mut().enumerate() {
                let (lo, hi) = (j as f64, j as f64 + 1.0);
                row[i] = ((before + p).min(hi) - before.max(lo)).max(0.0);
            }
            before += p;
        }
        let suited: u32 = unseen[..HONOURS].iter().map(|&u| u32::from(u)).sum();
        if suited > 0 {
            for row in at.iter_mut() {
                let rest = (1.0 - row[HONOURS..].iter().sum::<f64>()).max(0.0);
                for i in 0..HONOURS {
                    row[i] = rest * f64::from(unseen[i]) / f64::from(suited);
                }
            }
        }
        at
    }
}

/// How much of its weight a ready hand keeps per winning kind the opponent discarded itself
/// before declaring: it rarely waits on a tile it let go.
const OWN_DISCARD_FACTOR: f64 = 0.01;

/// One ready hand the declared opponent may hold: its concealed tiles and winning kinds.
#[derive(Clone, Copy)]
struct ReadyHand {
    counts: Counts,
    waits: u64,
}

/// The ready hands of `hidden` concealed tiles made of at most `unseen` copies a kind, each
/// once with every winning kind its splits give (four sets and a single, or three sets, a pair
/// and a partial or a second pair; seven pairs when no meld was called).
fn ready_hands(unseen: &Counts, hidden: usize) -> Vec<ReadyHand> {
    if hidden % 3 != 1 {
        return Vec::new();
    }
    let mut blocks: Vec<[u8; KINDS]> = Vec::new();
    for i in 0..KINDS {
        let mut b = [0; KINDS];
        if unseen[i] >= 3 {
            b[i] = 3;
            blocks.push(b);
        }
        if i < HONOURS && i % 9 <= 6 && unseen[i] > 0 && unseen[i + 1] > 0 && unseen[i + 2] > 0 {
            let mut b = [0; KINDS];
            b[i..i + 3].fill(1);
            blocks.push(b);
        }
    }
    let mut found: rustc_hash::FxHashMap<u128, ReadyHand> = rustc_hash::FxHashMap::default();
    let mut add = |counts: &Counts, waits: u64| {
        let waits = waits & !held_all(counts);
        if waits == 0 {
            return;
        }
        found
            .entry(key(counts))
            .and_modify(|h| h.waits |= waits)
            .or_insert(ReadyHand { counts: *counts, waits });
    };
    let sets = (hidden - 1) / 3;
    let mut counts = [0u8; KINDS];
    // Depth-first over multisets of sets, in block order, `left` still to place.
    fn walk(
        blocks: &[[u8; KINDS]],
        unseen: &Counts,
        counts: &mut Counts,
        from: usize,
        left: usize,
        add: &mut dyn FnMut(&Counts, u64),
    ) {
        if left == 0 {
            // Four sets (of `sets`) and a single: the single waits.
            for s in 0..KINDS {
                if counts[s] < unseen[s] {
                    counts[s] += 1;
                    add(counts, 1 << s);
                    counts[s] -= 1;
                }
            }
            return;
        }
        if left == 1 {
            // The last set's place holds a pair and a partial (or a second pair).
            for p in 0..KINDS {
                if counts[p] + 2 > unseen[p] {
                    continue;
                }
                counts[p] += 2;
                for a in 0..KINDS {
                    // A second pair: both pairs wait.
                    if a > p && counts[a] + 2 <= unseen[a] {
                        counts[a] += 2;
                        add(counts, (1 << p) | (1 << a));
                        counts[a] -= 2;
                    }
                    if a >= HONOURS || a % 9 == 8 || counts[a] >= unseen[a] {
                        continue;
                    }
                    counts[a] += 1;
                    // Adjacent: the tiles either side; gapped: the one between.
                    if counts[a + 1] < unseen[a + 1] {
                        counts[a + 1] += 1;
                        let mut w = 0u64;
                        if a % 9 > 0 {
                            w |= 1 << (a - 1);
                        }
                        if a % 9 < 7 {
                            w |= 1 << (a + 2);
                        }
                        add(counts, w);
                        counts[a + 1] -= 1;
                    }
                    if a % 9 <= 6 && counts[a + 2] < unseen[a + 2] {
                        counts[a + 2] += 1;
                        add(counts, 1 << (a + 1));
                        counts[a + 2] -= 1;
                    }
                    counts[a] -= 1;
                }
                counts[p] -= 2;
            }
        }
        for (b, block) in blocks.iter().enumerate().skip(from) {
            if (0..KINDS).any(|i| counts[i] + block[i] > unseen[i]) {
                continue;
            }
            for i in 0..KINDS {
                counts[i] += block[i];
            }
            walk(blocks, unseen, counts, b, left - 1, add);
            for i in 0..KINDS {
                counts[i] -= block[i];
            }
        }
    }
    walk(&blocks, unseen, &mut counts, 0, sets, &mut add);
    if hidden == 13 {
        // Seven pairs: six pairs (four of a kind counts as two) and one odd kind, which waits.
        fn pairs(unseen: &Counts, counts: &mut Counts, from: usize, left: usize, add: &mut dyn FnMut(&Counts, u64)) {
            if left == 0 {
                for s in 0..KINDS {
                    if counts[s] < unseen[s] && counts[s] <= 2 {
                        counts[s] += 1;
                        add(counts, 1 << s);
                        counts[s] -= 1;
                    }
                }
                return;
            }
            for k in from..KINDS {
                if counts[k] + 2 <= unseen[k] {
                    counts[k] += 2;
                    pairs(unseen, counts, k, left - 1, add);
                    counts[k] -= 2;
                }
            }
        }
        pairs(unseen, &mut [0; KINDS], 0, 6, &mut add);
    }
    found.into_values().collect()
}

/// The kinds whose four copies are all in `counts`: no fifth completes the hand.
fn held_all(counts: &Counts) -> u64 {
    (0..KINDS).filter(|&i| counts[i] >= 4).fold(0, |m, i| m | (1 << i))
}

fn key(counts: &Counts) -> u128 {
    counts.iter().fold(0u128, |k, &c| (k << 3) | u128::from(c & 7))
}

/// C(n, r) for the few copies of a kind.
fn choose(n: u8, r: u8) -> f64 {
    if r > n {
        return 0.0;
    }
    (0..r).fold(1.0, |x, k| x * f64::from(n - k) / f64::from(k + 1))
}

/// The ready hands last enumerated, with the concealed count and the copies they were made of.
struct ReadyCache {
    hidden: usize,
    made_of: Counts,
    hands: Rc<Vec<ReadyHand>>,
}

thread_local! {
    /// In one game the unseen copies only shrink, so a later ask reweights the same list: a hand
    /// that no longer fits weighs zero.
    static READY: RefCell<Option<ReadyCache>> = const { RefCell::new(None) };
}

/// The ready hands for `unseen` and `hidden`, from the last list when it covers them.
fn ready_hands_for(unseen: &Counts, hidden: usize) -> Rc<Vec<ReadyHand>> {
    READY.with(|cell| {
        let mut cell = cell.borrow_mut();
        if let Some(c) = cell.as_ref() {
            if c.hidden == hidden && (0..KINDS).all(|i| unseen[i] <= c.made_of[i]) {
                return c.hands.clone();
            }
        }
        let hands = Rc::new(ready_hands(unseen, hidden));
        *cell = Some(ReadyCache {
            hidden,
            made_of: *unseen,
            hands: hands.clone(),
        });
        hands
    })
}

/// The declared opponent's waits read from the ready hands it may hold: per kind, the chance it
/// completes the hand. Each hand of its `hidden` concealed tiles drawn from the `unseen` copies
/// is weighed by the ways to draw it (the product of C(unseen, held) over kinds); a hand that
/// waits on a kind shown `safe` is ruled out; one waiting on a kind it discarded `before`
/// declaring keeps `OWN_DISCARD_FACTOR` of its weight for each; one holding a single honour the
/// read clears keeps the chance the declaring turn's draw was that honour. None when no hand
/// fits (then the caller estimates).
pub fn declared_waits(
    unseen: &Counts,
    hidden: u32,
    safe: &Counts,
    before: &Counts,
    read: &Read,
) -> Option<[f64; KINDS]> {
    let pool: u32 = unseen.iter().map(|&u| u32::from(u)).sum();
    let hands = ready_hands_for(unseen, hidden as usize);
    let safe_mask = (0..KINDS).filter(|&i| safe[i] > 0).fold(0u64, |m, i| m | (1 << i));
    let mut p = [0.0; KINDS];
    let mut total = 0.0;
    for h in hands.iter() {
        if h.waits & safe_mask != 0 {
            continue;
        }
        let mut w = 1.0;
        for i in 0..KINDS {
            if h.counts[i] > 0 {
                w *= choose(unseen[i], h.counts[i]);
                if h.counts[i] == 1 && read.no_single[i] && pool > 0 {
                    w *= f64::from(unseen[i]) / f64::from(pool);
                }
                if h.waits & (1 << i) != 0 && before[i] > 0 {
                    w *= OWN_DISCARD_FACTOR;
                }
            } else if h.waits & (1 << i) != 0 && before[i] > 0 {
                w *= OWN_DISCARD_FACTOR;
            }
        }
        if w == 0.0 {
            continue;
        }
        total += w;
        let mut m = h.waits;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            p[i] += w;
            m &= m - 1;
        }
    }
    if total <= 0.0 {
        return None;
    }
    for x in p.iter_mut() {
        *x /= total;
    }
    Some(p)
}

/// The hypergeometric chance that `hidden` tiles drawn from `pool` hold exactly `k` of the
/// `unseen` copies of a kind.
pub fn exactly(k: u32, unseen: u8, pool: u32, hidden: u32) -> f64 {
    let u = u32::from(unseen);
    if k > u || k > hidden || hidden > pool || hidden - k > pool - u {
        return 0.0;
    }
    let ln_choose = |n: u32, r: u32| -> f64 { ln_fact(n) - ln_fact(r) - ln_fact(n - r) };
    (ln_choose(u, k) + ln_choose(pool - u, hidden - k) - ln_choose(pool, hidden)).exp()
}

fn ln_fact(n: u32) -> f64 {
    (2..=n).map(|x| f64::from(x).ln()).sum()
}

#[cfg(test)]
mod tests {
    use super::super::notation::parse_tile;
    use super::*;

    fn tiles(s: &str) -> Vec<Tile> {
        s.split_whitespace().map(|t| parse_tile(t).unwrap()).collect()
    }

    #[test]
    fn an_honour_thrown_as_a_single_clears_the_honours_above_it() {
        // Its last discard was P: F and C can only be pairs or sets.
        let read = Read::from_discards(&tiles("C N P"), 0, false);
        assert_eq!(read.after, parse_tile("P").ok());
        let cleared: Vec<String> = read.cleared().iter().map(|t| t.to_string()).collect();
        assert_eq!(cleared, ["F", "C"]);
        assert_eq!(read.single(parse_tile("F").unwrap().index(), 3, 60, 13), 0.0);
        assert!(read.single(parse_tile("N").unwrap().index(), 3, 60, 13) > 0.2);
        // A character thrown: no honour is held as a single.
        assert_eq!(Read::from_discards(&tiles("C 9m"), 0, false).cleared().len(), 7);
        // Declared with its third discard: the read rests on the second, and the declaring
        // turn's draw may have brought a single.
        let read = Read::from_discards(&tiles("C P 5m 2m"), 3, true);
        assert_eq!(read.after, parse_tile("P").ok());
        let f = read.single(parse_tile("F").unwrap().index(), 3, 60, 13);
        assert!(f > 0.0 && f < 0.05, "{f}");
        // Nothing to read before its first discard, or when it declared with it.
        assert_eq!(Read::from_discards(&[], 0, false).after, None);
        assert_eq!(Read::from_discards(&tiles("C 2m"), 1, true).after, None);
    }

    /// Every hand of `hidden` tiles within `unseen`, by brute force.
    fn every_hand(unseen: &Counts, hidden: usize, from: usize, hand: &mut Counts, out: &mut Vec<Counts>) {
        if hidden == 0 {
            out.push(*hand);
            return;
        }
        for i in from..KINDS {
            if hand[i] < unseen[i] {
                hand[i] += 1;
                every_hand(unseen, hidden - 1, i, hand, out);
                hand[i] -= 1;
            }
        }
    }

    #[test]
    fn the_declared_read_matches_every_ready_hand_weighed_by_brute_force() {
        use super::super::meld::Meld;
        use super::super::win::waits;
        let mut rng_state = 7u64;
        let mut next = || {
            rng_state = rng_state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (rng_state >> 33) as usize
        };
        for round in 0..16 {
            // A few copies of characters and honours unseen; pins called (out of the way). A
            // whole concealed hand (seven pairs too) from eight kinds, to keep brute force short.
            let mut unseen = [0u8; KINDS];
            let hidden = [4, 7, 13, 13][round % 4];
            for i in (0..9).chain(27..34) {
                if hidden < 13 || (3..7).contains(&i) || i >= 30 {
                    unseen[i] = (next() % 5) as u8;
                }
            }
            let melds: Vec<Meld> = (0..(13 - hidden) / 3)
                .map(|k| Meld::pong(Tile::from_index(9 + 2 * k).unwrap()))
                .collect();
            let mut safe = [0u8; KINDS];
            safe[next() % 9] = 1;
            let mut before = [0u8; KINDS];
            before[27 + next() % 7] = 1;
            let read = Read::after(Tile::from_index(27 + next() % 7), true);
            let mut hands = Vec::new();
            every_hand(&unseen, hidden, 0, &mut [0; KINDS], &mut hands);
            let pool: u32 = unseen.iter().map(|&u| u32::from(u)).sum();
            let mut want = [0.0; KINDS];
            let mut total = 0.0;
            for h in &hands {
                let w: Vec<usize> = waits(h, &melds, &[0; KINDS]).iter().map(|w| w.tile.index()).collect();
                if w.is_empty() || w.iter().any(|&i| safe[i] > 0) {
                    continue;
                }
                let mut weight = 1.0;
                for i in 0..KINDS {
                    weight *= choose(unseen[i], h[i]);
                    if h[i] == 1 && read.no_single[i] {
                        weight *= f64::from(unseen[i]) / f64::from(pool);
                    }
                    if before[i] > 0 && w.contains(&i) {
                        weight *= OWN_DISCARD_FACTOR;
                    }
                }
                total += weight;
                for &i in &w {
                    want[i] += weight;
                }
            }
            let got = declared_waits(&unseen, hidden as u32, &safe, &before, &read);
            if total == 0.0 {
                assert!(got.is_none(), "round {round}");
                continue;
            }
            let got = got.unwrap();
            for i in 0..KINDS {
                assert!(
                    (got[i] - want[i] / total).abs() < 1e-9,
                    "round {round}, kind {i}: {} against {}",
                    got[i],
                    want[i] / total
                );
            }
        }
    }

    #[test]
    fn hypergeometric_chances_add_up() {
        let total: f64 = (0..=4).map(|k| exactly(k, 4, 50, 13)).sum();
        assert!((total - 1.0).abs() < 1e-9, "{total}");
        assert_eq!(exactly(2, 1, 50, 13), 0.0);
    }

    #[test]
    fn its_discards_are_a_distribution_each_turn() {
        let mut unseen = [0u8; KINDS];
        unseen[..9].fill(3);
        unseen[27..].fill(2);
        let pool: u32 = unseen.iter().map(|&u| u32::from(u)).sum();
        let reads = [
            Read::from_discards(&[], 0, false),
            Read::from_discards(&tiles("P"), 0, false),
            Read::from_discards(&tiles("P 3m"), 2, true),
        ];
        for read in reads {
            for row in read.throw_chances(&unseen, pool, 13, 6) {
                let sum: f64 = row.iter().sum();
                assert!((sum - 1.0).abs() < 1e-9, "{sum}");
            }
        }
        // The honours it may hold as singles come out first, the highest first.
        let rows = Read::from_discards(&[], 0, false).throw_chances(&unseen, pool, 13, 6);
        assert!(rows[0][33] > rows[0][27]);
    }
}
