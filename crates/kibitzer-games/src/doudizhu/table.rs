//! A bounded transposition table of proven results.
//!
//! Open addressing in buckets of four slots. The table starts small and doubles while it
//! fills, up to a byte cap; once at the cap a new result replaces the entry of its bucket
//! that cost the least work to prove, so memory never exceeds the cap and the expensive
//! proofs stay.

/// Exact key of a position: up to three packed hands and a small "who moves / what to
/// answer" code. Two-player searches leave `c` at 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Key {
    pub a: u64,
    pub b: u64,
    pub c: u64,
    pub meta: u32,
}

/// One slot: the key's fields flattened so that the flags fill the key's padding (32 bytes,
/// a bucket of four = two cache lines).
#[derive(Clone, Copy, Default)]
struct Entry {
    a: u64,
    b: u64,
    c: u64,
    meta: u32,
    /// 0 = empty slot, 1 = side to move loses, 2 = side to move wins.
    value: u8,
    /// log2 of the nodes spent proving the value (replacement priority).
    work: u8,
}

impl Entry {
    #[inline]
    fn holds(&self, key: &Key) -> bool {
        self.a == key.a && self.b == key.b && self.c == key.c && self.meta == key.meta
    }

    fn key(&self) -> Key {
        Key {
            a: self.a,
            b: self.b,
            c: self.c,
            meta: self.meta,
        }
    }
}

const BUCKET: usize = 4;
const INITIAL_SLOTS: usize = 1 << 12;
/// However much memory `table_mb` offers, the table stops at 2^34 entries; and it grows only as
/// the search fills it, so a generous bound costs nothing on small positions.
const MAX_SLOTS: usize = 1 << 34;

pub(crate) struct Table {
    slots: Vec<Entry>,
    used: usize,
    max_slots: usize,
    /// Most bytes of entries allocated at any one time.
    peak: usize,
}

impl Table {
    /// A table that never holds more than `max_bytes` of entries (at least one bucket).
    pub fn new(max_bytes: usize) -> Table {
        let entry = std::mem::size_of::<Entry>();
        let mut max_slots = BUCKET;
        while max_slots < MAX_SLOTS && max_slots.saturating_mul(2).saturating_mul(entry) <= max_bytes {
            max_slots *= 2;
        }
        Table {
            slots: Vec::new(),
            used: 0,
            max_slots,
            peak: 0,
        }
    }

    fn index(&self, key: &Key) -> usize {
        let mut h = key.a.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h = (h ^ key.b).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        h = (h ^ key.c ^ (u64::from(key.meta) << 40)).wrapping_mul(0x1656_67B1_9E37_79F9);
        h ^= h >> 29;
        (h as usize) & (self.slots.len() - 1) & !(BUCKET - 1)
    }

    /// The stored result for `key`: `Some(true)` = the side to move wins.
    pub fn get(&self, key: &Key) -> Option<bool> {
        if self.slots.is_empty() {
            return None;
        }
        let i = self.index(key);
        self.slots[i..i + BUCKET]
            .iter()
            .find(|e| e.value != 0 && e.holds(key))
            .map(|e| e.value == 2)
    }

    /// Records a proven result; `nodes` is the work it took.
    pub fn put(&mut self, key: Key, wins: bool, nodes: u64) {
        if self.slots.is_empty() {
            self.slots = vec![Entry::default(); INITIAL_SLOTS.min(self.max_slots)];
            self.peak = self.slots.len() * std::mem::size_of::<Entry>();
        } else if self.used * 4 >= self.slots.len() * 3 && self.slots.len() < self.max_slots {
            self.grow();
        }
        let entry = Entry {
            a: key.a,
            b: key.b,
            c: key.c,
            meta: key.meta,
            value: if wins { 2 } else { 1 },
            work: (64 - nodes.leading_zeros()) as u8,
        };
        self.insert(entry);
    }

    fn insert(&mut self, entry: Entry) {
        let key = entry.key();
        let i = self.index(&key);
        let bucket = &mut self.slots[i..i + BUCKET];
        if let Some(slot) = bucket.iter_mut().find(|e| e.value == 0 || e.holds(&key)) {
            if slot.value == 0 {
                self.used += 1;
            }
            *slot = entry;
            return;
        }
        if let Some(victim) = bucket.iter_mut().min_by_key(|e| e.work) {
            if victim.work <= entry.work {
                *victim = entry;
            }
        }
    }

    /// Doubles the table in place; when the machine cannot give the memory, the table stays the
    /// size it is (entries get replaced instead) rather than aborting the process. In place, so
    /// that the old and the new table never exist together: the cap bounds the peak too.
    fn grow(&mut self) {
        let old = self.slots.len();
        if self.slots.try_reserve_exact(old).is_err() {
            self.max_slots = old;
            return;
        }
        self.slots.resize(old * 2, Entry::default());
        self.peak = self.peak.max(self.slots.capacity() * std::mem::size_of::<Entry>());
        // An entry of bucket `i` belongs to bucket `i` or `i + old` now (one more hash bit):
        // the upper bucket is empty and takes at most the four entries of the lower one.
        for i in (0..old).step_by(BUCKET) {
            let mut kept = 0;
            let mut moved = 0;
            for j in 0..BUCKET {
                let e = self.slots[i + j];
                if e.value == 0 {
                    continue;
                }
                self.slots[i + j] = Entry::default();
                if self.index(&e.key()) == i {
                    self.slots[i + kept] = e;
                    kept += 1;
                } else {
                    self.slots[i + old + moved] = e;
                    moved += 1;
                }
            }
        }
    }

    /// Bytes currently allocated.
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Entry>()
    }

    /// Most bytes allocated at any one time (read by the tests of the memory bound).
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn peak_bytes(&self) -> usize {
        self.peak
    }
}

/// Two-player position packed in 16 bytes: both hands with their joker nibbles squeezed
/// to one bit each (a hand holds at most one of each joker), which frees the top ten bits
/// of each word for the play-to-answer code, the result and the work.
#[derive(Clone, Copy, Default)]
struct PairSlot {
    /// Packed mover's hand | answer code bits 0..10 << 54. Never 0 when used: the mover
    /// always holds a card.
    a: u64,
    /// Packed other hand | answer code bits 10..13 << 54 | result << 57 | work << 58.
    b: u64,
}

/// Bits of `PairSlot::b` that belong to the key.
const PAIR_KEY_B: u64 = (1 << 57) - 1;
const PAIR_WIN: u64 = 1 << 57;
const PAIR_WORK_SHIFT: u32 = 58;

/// A bucket is one cache line, so a probe costs at most one miss.
#[derive(Clone, Copy, Default)]
#[repr(align(64))]
struct PairBucket([PairSlot; 4]);

/// Ranks `3`..`2`: thirteen nibbles.
const PLAIN_RANKS: u64 = (1 << 52) - 1;

/// A hand in 54 bits: the thirteen plain nibbles, then one bit per joker. Exact for every
/// hand with at most one of each joker (see [`pair_key_fits`]).
#[inline]
fn squeeze(hand: u64) -> u64 {
    (hand & PLAIN_RANKS) | ((hand >> 52) & 1) << 52 | ((hand >> 56) & 1) << 53
}

/// True when `hand` can be a [`PairTable`] key (at most one of each joker, as in any real deck).
pub(crate) fn pair_key_fits(hand: u64) -> bool {
    (hand >> 52) & 0xF <= 1 && (hand >> 56) & 0xF <= 1 && hand >> 60 == 0
}

/// Key of a two-player position: (mover's hand, other hand, 13-bit answer code) packed in
/// two words. The caller guarantees [`pair_key_fits`] for both hands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PairKey {
    a: u64,
    b: u64,
}

impl PairKey {
    #[inline]
    pub fn new(me: u64, opp: u64, code: u16) -> PairKey {
        let code = u64::from(code & 0x1FFF);
        PairKey {
            a: squeeze(me) | (code & 0x3FF) << 54,
            b: squeeze(opp) | (code >> 10) << 54,
        }
    }
}

/// The two-player solver's table: like [`Table`] (bounded, grows by doubling, keeps the
/// costliest proofs) but with 16-byte entries in cache-line buckets: the search probes the
/// table for every move of every position (enhanced transposition cutoff), so the probe's
/// memory traffic is most of its cost.
pub(crate) struct PairTable {
    buckets: Vec<PairBucket>,
    used: usize,
    max_buckets: usize,
    /// Most bytes of buckets allocated at any one time.
    peak: usize,
}

const PAIR_INITIAL_BUCKETS: usize = 1 << 12;

impl PairTable {
    /// A table that never holds more than `max_bytes` of entries (at least one bucket).
    pub fn new(max_bytes: usize) -> PairTable {
        let bucket = std::mem::size_of::<PairBucket>();
        let mut max_buckets = 1;
        while max_buckets < MAX_SLOTS / BUCKET && max_buckets.saturating_mul(2).saturating_mul(bucket) <= max_bytes {
            max_buckets *= 2;
        }
        PairTable {
            buckets: Vec::new(),
            used: 0,
            max_buckets,
            peak: 0,
        }
    }

    #[inline]
    fn index(&self, a: u64, b: u64) -> usize {
        // The answer code and the jokers sit in the top bits: fold them down first, since a
        // product's low bits never see its operands' high bits.
        let mut h = (a ^ a >> 37).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h = (h ^ b ^ b >> 41).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        h ^= h >> 32;
        (h as usize) & (self.buckets.len() - 1)
    }

    /// The stored result for `key`: `Some(true)` = the side to move wins.
    #[inline]
    pub fn get(&self, key: &PairKey) -> Option<bool> {
        if self.buckets.is_empty() {
            return None;
        }
        let bucket = &self.buckets[self.index(key.a, key.b)];
        bucket
            .0
            .iter()
            .find(|e| e.a == key.a && e.b & PAIR_KEY_B == key.b)
            .map(|e| e.b & PAIR_WIN != 0)
    }

    /// Records a proven result; `nodes` is the work it took.
    pub fn put(&mut self, key: PairKey, wins: bool, nodes: u64) {
        if self.buckets.is_empty() {
            self.buckets = vec![PairBucket::default(); PAIR_INITIAL_BUCKETS.min(self.max_buckets)];
            self.peak = self.buckets.len() * std::mem::size_of::<PairBucket>();
        } else if self.used * 4 >= self.buckets.len() * BUCKET * 3 && self.buckets.len() < self.max_buckets {
            self.grow();
        }
        let work = u64::from((64 - nodes.leading_zeros()).min(63));
        let slot = PairSlot {
            a: key.a,
            b: key.b | if wins { PAIR_WIN } else { 0 } | work << PAIR_WORK_SHIFT,
        };
        if !self.insert(slot, false) {
            if self.used * 2 >= self.buckets.len() * BUCKET && self.buckets.len() < self.max_buckets {
                // A full bucket in a half-full table: grow rather than forget a proof.
                self.grow();
            }
            self.insert(slot, true);
        }
    }

    /// Stores `slot` in a free or matching place of its bucket; with `replace`, a full
    /// bucket loses its cheapest entry if that cost no more. False when nothing was stored.
    fn insert(&mut self, slot: PairSlot, replace: bool) -> bool {
        let i = self.index(slot.a, slot.b & PAIR_KEY_B);
        let bucket = &mut self.buckets[i].0;
        if let Some(e) = bucket
            .iter_mut()
            .find(|e| e.a == 0 || (e.a == slot.a && e.b & PAIR_KEY_B == slot.b & PAIR_KEY_B))
        {
            if e.a == 0 {
                self.used += 1;
            }
            *e = slot;
            return true;
        }
        if !replace {
            return false;
        }
        if let Some(victim) = bucket.iter_mut().min_by_key(|e| e.b >> PAIR_WORK_SHIFT) {
            if victim.b >> PAIR_WORK_SHIFT <= slot.b >> PAIR_WORK_SHIFT {
                *victim = slot;
                return true;
            }
        }
        false
    }

    /// Doubles the table in place (see [`Table::grow`]): the old and the new table never exist
    /// together, so the cap bounds the peak too.
    fn grow(&mut self) {
        let old = self.buckets.len();
        if self.buckets.try_reserve_exact(old).is_err() {
            self.max_buckets = old;
            return;
        }
        self.buckets.resize(old * 2, PairBucket::default());
        self.peak = self
            .peak
            .max(self.buckets.capacity() * std::mem::size_of::<PairBucket>());
        // An entry of bucket `i` belongs to bucket `i` or `i + old` now (one more hash bit).
        for i in 0..old {
            let entries = self.buckets[i].0;
            let (mut kept, mut moved) = (0, 0);
            let (mut low, mut high) = ([PairSlot::default(); BUCKET], [PairSlot::default(); BUCKET]);
            for e in entries.into_iter().filter(|e| e.a != 0) {
                if self.index(e.a, e.b & PAIR_KEY_B) == i {
                    low[kept] = e;
                    kept += 1;
                } else {
                    high[moved] = e;
                    moved += 1;
                }
            }
            self.buckets[i].0 = low;
            self.buckets[i + old].0 = high;
        }
    }

    /// Bytes currently allocated.
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<PairBucket>()
    }

    /// Most bytes allocated at any one time (read by the tests of the memory bound).
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn peak_bytes(&self) -> usize {
        self.peak
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_is_two_cache_lines() {
        assert_eq!(std::mem::size_of::<Entry>() * BUCKET, 128);
    }

    #[test]
    fn a_pair_bucket_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<PairBucket>(), 64);
        assert_eq!(std::mem::align_of::<PairBucket>(), 64);
    }

    #[test]
    fn pair_table_stores_exactly_and_stays_within_its_cap() {
        let mut t = PairTable::new(64 * 1024);
        // Hands differing only in a joker or in the top plain rank must stay apart.
        let bj = 1u64 << 52;
        let rj = 1u64 << 56;
        let two = 4u64 << 48;
        for (i, me) in [1u64, bj, rj, bj | rj, two, two | rj].into_iter().enumerate() {
            for code in [0u16, 1, 0x1FFF, 0x400] {
                t.put(PairKey::new(me, rj, code), (i + usize::from(code)) % 2 == 0, 5);
            }
        }
        for (i, me) in [1u64, bj, rj, bj | rj, two, two | rj].into_iter().enumerate() {
            for code in [0u16, 1, 0x1FFF, 0x400] {
                assert_eq!(
                    t.get(&PairKey::new(me, rj, code)),
                    Some((i + usize::from(code)) % 2 == 0)
                );
                assert_eq!(t.get(&PairKey::new(me, bj, code)), None);
            }
        }
        for i in 1..100_000u64 {
            t.put(PairKey::new(i, i * 7, 3), i % 2 == 0, i);
        }
        assert!(t.bytes() <= 64 * 1024);
        assert!(t.peak_bytes() <= 64 * 1024, "peak {}", t.peak_bytes());
        assert_eq!(t.get(&PairKey::new(99_999, 99_999 * 7, 3)), Some(false));
        assert!(pair_key_fits(bj | rj | two) && !pair_key_fits(2 << 52));
    }

    #[test]
    fn stores_and_stays_within_its_cap() {
        let mut t = Table::new(64 * 1024);
        for i in 0..100_000u64 {
            t.put(
                Key {
                    a: i,
                    b: i * 7,
                    c: 0,
                    meta: 3,
                },
                i % 2 == 0,
                i,
            );
        }
        assert!(t.bytes() <= 64 * 1024);
        assert!(t.peak_bytes() <= 64 * 1024, "peak {}", t.peak_bytes());
        let last = Key {
            a: 99_999,
            b: 99_999 * 7,
            c: 0,
            meta: 3,
        };
        assert_eq!(t.get(&last), Some(false));
        assert_eq!(t.get(&Key::default()), None);
    }
}
