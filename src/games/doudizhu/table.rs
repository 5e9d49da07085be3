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

    /// Doubles the table; when the machine cannot give the memory, the table stays the size it
    /// is (entries get replaced instead) rather than aborting the process.
    fn grow(&mut self) {
        let want = self.slots.len() * 2;
        let mut bigger: Vec<Entry> = Vec::new();
        if bigger.try_reserve_exact(want).is_err() {
            self.max_slots = self.slots.len();
            return;
        }
        bigger.resize(want, Entry::default());
        let old = std::mem::replace(&mut self.slots, bigger);
        self.used = 0;
        for e in old.into_iter().filter(|e| e.value != 0) {
            self.insert(e);
        }
    }

    /// Bytes currently allocated.
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Entry>()
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
