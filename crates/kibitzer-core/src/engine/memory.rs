//! Working memory: a set of facts (asserting an existing fact adds nothing), stored flat, with a
//! list per relation and, once a relation grows, hash indexes for duplicate checks and for joins
//! on a bound argument. `reset` empties it but keeps every allocation for the next query.

use crate::lang::ir::RelId;
use crate::value::{Constant, Value};
use rustc_hash::{FxHashMap, FxHasher};
use smallvec::SmallVec;
use std::hash::{Hash, Hasher};

/// A fact's number in working memory; numbers grow with time, so a larger id is a newer fact.
pub type FactId = u32;

/// Where a fact came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The query's input number `i`.
    Input(u16),
    /// Asserted by firing number `i` of this run.
    Firing(u32),
}

/// One fact.
#[derive(Debug, Clone)]
pub struct Fact {
    pub rel: RelId,
    args_start: u32,
    args_len: u16,
    pub alive: bool,
    /// Whether `fp` holds the hash of the arguments. A fact is hashed once its relation holds
    /// two facts (the first when the second arrives): a relation of one fact — a hand, a
    /// category, every input — never pays for a hash.
    hashed: bool,
    pub origin: Origin,
    /// The hash of the arguments (when `hashed`): a duplicate check compares this number
    /// before any value, and the hash indexes are filled from it without hashing again.
    fp: u64,
}

/// What `Memory::lookup` found.
enum Lookup {
    /// The equal fact.
    Found(FactId),
    /// No equal live fact; the hash of the arguments when the relation is hashed.
    New(Option<u64>),
}

/// Relations smaller than this are scanned for joins on a bound argument; from this size on,
/// the argument positions joins probe get hash indexes (a scan compares values).
const INDEX_FROM: usize = 16;
/// Relations smaller than this are scanned for duplicates; from this size on, a map by hash
/// finds them. Later than the join indexes: the scan compares one stored hash per fact (a few
/// instructions each), while filling the map puts every fact into a table, which a relation
/// that stays small never pays back (a durak hand of ten cards or more has 16–20 terms: with the
/// map from 16 facts, and the terms indexed by value too, a hand value took 3% more instructions
/// and 9–10% more time).
const DEDUPE_FROM: usize = 48;

/// The facts of one session.
#[derive(Debug, Default)]
pub struct Memory {
    facts: Vec<Fact>,
    args: Vec<Value>,
    by_rel: Vec<Vec<FactId>>,
    /// Per relation of two facts or more: the hashes of the facts of `by_rel`, in its order (a
    /// duplicate check below `DEDUPE_FROM` scans these words, not the facts). Empty, or stale,
    /// while the relation holds one fact or none.
    fps: Vec<Vec<u64>>,
    /// Relations that received a fact since the last reset: only these need emptying, so a reset
    /// costs what the last query touched, not the size of the rule set.
    touched: Vec<RelId>,
    /// Per relation: whether its join indexes (`indexes`) are in use. The maps stay allocated
    /// across resets (emptied, not dropped), so a relation that grows past `INDEX_FROM` in
    /// every query does not rebuild its tables from scratch each time.
    indexed: Vec<bool>,
    /// Per relation: whether its duplicate map (`dedupe`) is in use (from `DEDUPE_FROM` facts).
    deduped: Vec<bool>,
    dedupe: Vec<FxHashMap<u64, SmallVec<[FactId; 2]>>>,
    /// Per relation: the argument positions patterns may probe, and their index.
    indexes: Vec<Vec<(u16, ValueIndex)>>,
    /// Whether a fact was retracted since the last reset: until one is, every fact is live and
    /// an activation's facts need no check before it fires.
    retracted: bool,
    /// Facts live now.
    live: usize,
    /// Facts freed by `compact_all` since the last reset (counted in `made`).
    freed: usize,
    /// Facts retracted since the last reset.
    retractions: usize,
    /// Resets so far (part of `version`).
    resets: usize,
    /// The fact and value storage the last `compact_all` moved out of, emptied, for the next to
    /// fill (a long run reuses its memory instead of asking for fresh pages each time).
    spare: (Vec<Fact>, Vec<Value>),
    /// Per relation: retracted facts still in its list (`by_rel`) and join indexes. Once they
    /// are as many as the live ones the relation is compacted, so scans and joins never walk more
    /// dead facts than live ones, and a long run of modifies does not slow down.
    dead: Vec<u32>,
    /// Per relation: retractions and resets so far. With the length of its list, a stamp that
    /// changes whenever its facts do (see `stamp`), at no cost to an insert.
    retracts: Vec<u32>,
}

/// Retracted facts a relation may keep in its lists before they are compacted (below this, a
/// compaction costs more than the scans it saves).
const COMPACT_FROM: u32 = 16;

/// Facts of one relation by the hash of the value at one argument position (most values pick
/// out a few facts: kept inline, no allocation per value). Keyed by the hash, not the value: no
/// copy of a shared value (and no reference count) per fact filed; a rare collision only adds a
/// candidate, which the caller compares anyway.
type ValueIndex = FxHashMap<u64, SmallVec<[FactId; 4]>>;

impl Memory {
    /// An empty memory; `probed[rel]` lists the argument positions joins may look up by value.
    pub fn new(probed: Vec<Vec<u16>>) -> Memory {
        let relations = probed.len();
        Memory {
            by_rel: vec![Vec::new(); relations],
            fps: vec![Vec::new(); relations],
            dead: vec![0; relations],
            retracts: vec![0; relations],
            indexed: vec![false; relations],
            deduped: vec![false; relations],
            dedupe: vec![FxHashMap::default(); relations],
            indexes: probed
                .into_iter()
                .map(|ps| ps.into_iter().map(|p| (p, ValueIndex::default())).collect())
                .collect(),
            ..Memory::default()
        }
    }

    /// Empties the memory, keeping its allocations.
    pub fn reset(&mut self) {
        self.resets += 1;
        self.facts.clear();
        self.args.clear();
        self.retracted = false;
        self.live = 0;
        self.freed = 0;
        self.retractions = 0;
        for r in self.touched.drain(..) {
            let r = r as usize;
            self.by_rel[r].clear();
            self.fps[r].clear();
            self.dead[r] = 0;
            self.retracts[r] = self.retracts[r].wrapping_add(1);
            if std::mem::take(&mut self.deduped[r]) {
                self.dedupe[r].clear();
            }
            if std::mem::take(&mut self.indexed[r]) {
                for (_, ix) in self.indexes[r].iter_mut() {
                    ix.clear();
                }
            }
        }
    }

    /// Adds a fact unless an equal live one exists; returns the new id, or `None` if it existed.
    pub fn insert(&mut self, rel: RelId, args: &[Value], origin: Origin) -> Option<FactId> {
        let Lookup::New(hash) = self.lookup(rel, args) else {
            return None;
        };
        self.args.extend_from_slice(args);
        Some(self.commit(rel, args.len(), origin, hash))
    }

    /// Where a fact's arguments are built in place (see `insert_staged`): values pushed here are
    /// never copied again, which matters because a value read back as a block moments after it
    /// was written piecewise stalls the CPU (store forwarding).
    pub fn staging(&mut self) -> &mut Vec<Value> {
        &mut self.args
    }

    /// Adds the fact whose `n` arguments were just pushed onto `staging()`, unless an equal live
    /// fact exists (then the staged values are dropped): the new id, or `None`.
    pub fn insert_staged(&mut self, rel: RelId, n: usize, origin: Origin) -> Option<FactId> {
        let start = self.args.len().saturating_sub(n);
        let Lookup::New(hash) = self.lookup(rel, &self.args[start..]) else {
            self.args.truncate(start);
            return None;
        };
        Some(self.commit(rel, self.args.len() - start, origin, hash))
    }

    /// The live fact equal to the last `n` values pushed onto `staging()`, if there is one.
    pub fn find_staged(&self, rel: RelId, n: usize) -> Option<FactId> {
        match self.lookup(rel, &self.args[self.args.len().saturating_sub(n)..]) {
            Lookup::Found(f) => Some(f),
            Lookup::New(_) => None,
        }
    }

    /// Drops values pushed onto `staging()` for a fact that will not be added.
    pub fn unstage(&mut self, n: usize) {
        self.args.truncate(self.args.len().saturating_sub(n));
    }

    /// Records the fact whose `n` arguments were just appended to `self.args`; `hash` is their
    /// hash when `lookup` computed it.
    fn commit(&mut self, rel: RelId, n: usize, origin: Origin, hash: Option<u64>) -> FactId {
        let r = rel as usize;
        let start = self.args.len() - n;
        let id = self.facts.len() as FactId;
        let before = self.by_rel[r].len();
        // The first fact of a relation is not hashed; from the second on every fact is (and the
        // first then too), so a duplicate check compares fingerprints before values.
        let fp = match (before, hash) {
            (0, _) => 0,
            (_, Some(h)) => h,
            (_, None) => hash_args(&self.args[start..]),
        };
        self.facts.push(Fact {
            rel,
            args_start: start as u32,
            args_len: n as u16,
            alive: true,
            hashed: before > 0,
            origin,
            fp,
        });
        if before == 0 {
            self.touched.push(rel);
        } else {
            if before == 1 {
                let first = self.by_rel[r][0] as usize;
                if !self.facts[first].hashed {
                    let f = &self.facts[first];
                    let h = hash_args(&self.args[f.args_start as usize..f.args_start as usize + f.args_len as usize]);
                    let f = &mut self.facts[first];
                    f.fp = h;
                    f.hashed = true;
                }
                self.fps[r].clear();
                self.fps[r].push(self.facts[first].fp);
            }
            self.fps[r].push(fp);
        }
        self.by_rel[r].push(id);
        self.live += 1;

        let len = self.by_rel[r].len();
        if len >= DEDUPE_FROM {
            self.file_for_dedupe(r, id, fp);
        }
        if len >= INDEX_FROM && !self.indexes[r].is_empty() {
            self.file_for_joins(r, id);
        }
        id
    }

    /// Files a new fact of a relation of `DEDUPE_FROM` facts or more in its duplicate map, which
    /// the fact that reaches that size first fills from the facts so far (every one of them
    /// hashed already; `reset` emptied the map, or it was never used). Out of line: most
    /// relations never get here, and with the map code inlined in `commit` a durak hand value ran
    /// ~370 more instructions (callgrind), about 30 an insert.
    #[inline(never)]
    fn file_for_dedupe(&mut self, r: usize, id: FactId, fp: u64) {
        if self.deduped[r] {
            self.dedupe[r].entry(fp).or_default().push(id);
            return;
        }
        self.deduped[r] = true;
        let (facts, by_rel) = (&self.facts, &self.by_rel[r]);
        let map = &mut self.dedupe[r];
        for &f in by_rel {
            let fact = &facts[f as usize];
            if fact.alive {
                map.entry(fact.fp).or_default().push(f);
            }
        }
    }

    /// Files a new fact of a relation of `INDEX_FROM` facts or more in the indexes of the
    /// positions joins look up, filling them first from the facts so far (as above).
    #[inline(never)]
    fn file_for_joins(&mut self, r: usize, id: FactId) {
        let (facts, args_all) = (&self.facts, &self.args);
        let filed: &[FactId] = if self.indexed[r] {
            std::slice::from_ref(&self.by_rel[r][self.by_rel[r].len() - 1])
        } else {
            &self.by_rel[r]
        };
        debug_assert_eq!(filed.last(), Some(&id));
        self.indexed[r] = true;
        for (pos, index) in self.indexes[r].iter_mut() {
            for &f in filed {
                let fact = &facts[f as usize];
                if *pos < fact.args_len {
                    let v = &args_all[fact.args_start as usize + *pos as usize];
                    index.entry(hash_value(v)).or_default().push(f);
                }
            }
        }
    }

    /// The live fact equal to `rel(args)`, if any.
    pub fn find(&self, rel: RelId, args: &[Value]) -> Option<FactId> {
        match self.lookup(rel, args) {
            Lookup::Found(f) => Some(f),
            Lookup::New(_) => None,
        }
    }

    /// The live fact equal to `rel(args)`, or, when there is none, the hash of the arguments
    /// when it was computed (so the new fact is hashed once, for the check and the filing).
    fn lookup(&self, rel: RelId, args: &[Value]) -> Lookup {
        let r = rel as usize;
        let Some(&deduped) = self.deduped.get(r) else {
            return Lookup::New(None);
        };
        let equal = |f: FactId| self.facts[f as usize].alive && self.args_of(f) == args;
        if deduped {
            let hash = hash_args(args);
            return match self.dedupe[r]
                .get(&hash)
                .and_then(|ids| ids.iter().copied().find(|&f| equal(f)))
            {
                Some(f) => Lookup::Found(f),
                None => Lookup::New(Some(hash)),
            };
        }
        match self.by_rel[r].as_slice() {
            [] => Lookup::New(None),
            // One fact, perhaps not hashed: one comparison.
            &[f] => match equal(f) {
                true => Lookup::Found(f),
                false => Lookup::New(None),
            },
            // Two or more: every one hashed; values are compared only where the hashes agree.
            ids => {
                let hash = hash_args(args);
                debug_assert_eq!(self.fps[r].len(), ids.len());
                let found = self.fps[r]
                    .iter()
                    .zip(ids)
                    .filter(|&(&fp, _)| fp == hash)
                    .map(|(_, &f)| f)
                    .find(|&f| equal(f));
                match found {
                    Some(f) => Lookup::Found(f),
                    None => Lookup::New(Some(hash)),
                }
            }
        }
    }

    /// Marks a fact as retracted. Returns false if it was not live.
    pub fn retract(&mut self, id: FactId) -> bool {
        let Some(f) = self.facts.get(id as usize) else {
            return false;
        };
        if !f.alive {
            return false;
        }
        let rel = f.rel as usize;
        let h = match f.hashed {
            true => f.fp,
            false => hash_args(self.args_of(id)),
        };
        self.facts[id as usize].alive = false;
        self.retracted = true;
        self.live -= 1;
        self.retractions += 1;
        if self.deduped.get(rel) == Some(&true) {
            if let Some(ids) = self.dedupe[rel].get_mut(&h) {
                ids.retain(|x| *x != id);
            }
        }
        self.dead[rel] += 1;
        self.retracts[rel] = self.retracts[rel].wrapping_add(1);
        if self.dead[rel] >= COMPACT_FROM && self.dead[rel] as usize * 2 >= self.by_rel[rel].len() {
            self.compact(rel);
        }
        true
    }

    /// Drops the retracted facts from a relation's list and join indexes (keeping the order of
    /// the live ones: joins see facts oldest first).
    #[cold]
    fn compact(&mut self, rel: usize) {
        let facts = &self.facts;
        self.by_rel[rel].retain(|&f| facts[f as usize].alive);
        self.fps[rel].clear();
        self.fps[rel].extend(self.by_rel[rel].iter().map(|&f| facts[f as usize].fp));
        if self.indexed[rel] {
            for (_, index) in self.indexes[rel].iter_mut() {
                index.retain(|_, ids| {
                    ids.retain(|f| facts[*f as usize].alive);
                    !ids.is_empty()
                });
            }
        }
        self.dead[rel] = 0;
        self.below_thresholds(rel);
    }

    /// A relation compacted below the size its maps start at stops using them: `commit` files a
    /// new fact in them only from that size on.
    fn below_thresholds(&mut self, rel: usize) {
        let len = self.by_rel[rel].len();
        if len < DEDUPE_FROM && std::mem::take(&mut self.deduped[rel]) {
            self.dedupe[rel].clear();
        }
        if len < INDEX_FROM && std::mem::take(&mut self.indexed[rel]) {
            for (_, index) in self.indexes[rel].iter_mut() {
                index.clear();
            }
        }
    }

    /// Facts live now.
    pub fn live(&self) -> usize {
        self.live
    }

    /// Facts retracted since the last reset.
    pub fn retractions(&self) -> usize {
        self.retractions
    }

    /// Retracted facts still stored.
    pub fn garbage(&self) -> usize {
        self.facts.len() - self.live
    }

    /// Frees the storage of every retracted fact: the live ones are renumbered in their order
    /// (so a newer fact still has a larger id), and the returned table maps an old id to its new
    /// one (`FactId::MAX` for a retracted fact). Whoever holds fact ids must renumber them.
    pub fn compact_all(&mut self) -> Vec<FactId> {
        self.freed += self.facts.len() - self.live;
        let mut remap = vec![FactId::MAX; self.facts.len()];
        let (spare_facts, spare_args) = std::mem::take(&mut self.spare);
        let mut old_facts = std::mem::replace(&mut self.facts, spare_facts);
        let mut old_args = std::mem::replace(&mut self.args, spare_args);
        for (id, f) in old_facts.drain(..).enumerate() {
            if !f.alive {
                continue;
            }
            let start = self.args.len() as u32;
            let (a0, n) = (f.args_start as usize, f.args_len as usize);
            for v in &mut old_args[a0..a0 + n] {
                self.args.push(std::mem::replace(v, Value::Int(0)));
            }
            remap[id] = self.facts.len() as FactId;
            self.facts.push(Fact { args_start: start, ..f });
        }
        old_args.clear();
        self.spare = (old_facts, old_args);
        let map = |f: &mut FactId| *f = remap[*f as usize];
        // A relation emptied by a compaction is listed again by its next fact.
        self.touched.sort_unstable();
        self.touched.dedup();
        for t in 0..self.touched.len() {
            let r = self.touched[t] as usize;
            self.by_rel[r].retain(|&f| remap[f as usize] != FactId::MAX);
            self.by_rel[r].iter_mut().for_each(map);
            let facts = &self.facts;
            self.fps[r].clear();
            self.fps[r].extend(self.by_rel[r].iter().map(|&f| facts[f as usize].fp));
            self.dead[r] = 0;
            // Its list may be shorter now: a new stamp (see `stamp`).
            self.retracts[r] = self.retracts[r].wrapping_add(1);
            for ids in self.dedupe[r].values_mut() {
                ids.retain(|f| remap[*f as usize] != FactId::MAX);
                ids.iter_mut().for_each(map);
            }
            for (_, index) in self.indexes[r].iter_mut() {
                index.retain(|_, ids| {
                    ids.retain(|f| remap[*f as usize] != FactId::MAX);
                    ids.iter_mut().for_each(map);
                    !ids.is_empty()
                });
            }
            self.below_thresholds(r);
        }
        remap
    }

    /// The fact with this id.
    pub fn fact(&self, id: FactId) -> &Fact {
        &self.facts[id as usize]
    }

    /// Whether any fact was retracted since the last reset.
    pub fn retracted_any(&self) -> bool {
        self.retracted
    }

    /// True if the fact exists and is live.
    pub fn is_alive(&self, id: FactId) -> bool {
        self.facts.get(id as usize).is_some_and(|f| f.alive)
    }

    /// The arguments of a fact.
    pub fn args_of(&self, id: FactId) -> &[Value] {
        let f = &self.facts[id as usize];
        &self.args[f.args_start as usize..f.args_start as usize + f.args_len as usize]
    }

    /// The facts of a relation, oldest first: every live one, and retracted ones not yet compacted
    /// away (at most as many as the live ones, plus a few).
    pub fn of_relation(&self, rel: RelId) -> &[FactId] {
        self.by_rel.get(rel as usize).map_or(&[], |v| v.as_slice())
    }

    /// The facts of `rel` whose argument `pos` may equal `value`: an index lookup once the
    /// relation is large, `None` (scan them all) otherwise. Callers still compare.
    pub fn candidates(&self, rel: RelId, pos: usize, value: &Value) -> Option<&[FactId]> {
        if matches!(value, Value::Num(_) | Value::List(_)) {
            return None;
        }
        if self.indexed.get(rel as usize) != Some(&true) {
            return None;
        }
        let (_, index) = self.indexes[rel as usize].iter().find(|(p, _)| *p as usize == pos)?;
        Some(index.get(&hash_value(value)).map_or(&[], |v| v.as_slice()))
    }

    /// A value that differs whenever `rel`'s live facts may have changed since it was taken: an
    /// insert lengthens its list, and only a retraction or a reset (which count) shortens it.
    pub fn stamp(&self, rel: RelId) -> (u32, u32) {
        let r = rel as usize;
        (self.by_rel[r].len() as u32, self.retracts[r])
    }

    /// Whether a live fact of `rel` has these constants at these positions.
    pub fn any_with(&self, rel: RelId, consts: &[(u16, Constant)]) -> bool {
        let ids = consts
            .iter()
            .find_map(|(pos, k)| self.candidates(rel, *pos as usize, k))
            .unwrap_or_else(|| self.of_relation(rel));
        ids.iter().any(|&f| {
            let args = self.args_of(f);
            self.facts[f as usize].alive
                && consts
                    .iter()
                    .all(|(pos, k)| args.get(*pos as usize).is_none_or(|v| k.loose_eq(v)))
        })
    }

    /// A value that differs whenever the live facts, or the ids of any, may have changed since
    /// it was taken: inserts and retractions count, a compaction frees, a reset starts anew.
    pub fn version(&self) -> [usize; 4] {
        [self.resets, self.freed, self.facts.len(), self.retractions]
    }

    /// Facts asserted since the last reset, retracted ones included.
    pub fn made(&self) -> usize {
        self.freed + self.facts.len()
    }
}

fn hash_args(args: &[Value]) -> u64 {
    let mut h = FxHasher::default();
    args.hash(&mut h);
    h.finish()
}

/// The key an argument is indexed by: numbers that rules find equal (`1` and `1.0`, `0.0` and
/// `-0.0`, integers past 2^53 and the decimal they round to) share one, so that a lookup by one
/// finds facts holding the other.
pub(crate) fn hash_value(v: &Value) -> u64 {
    const PAST: f64 = 9_223_372_036_854_775_808.0;
    let mut h = FxHasher::default();
    match v {
        Value::Int(i) if i.unsigned_abs() > 1 << 53 => Value::Int(*i as f64 as i64).hash(&mut h),
        Value::Num(x) if x.fract() == 0.0 && x.abs() <= PAST => Value::Int(*x as i64).hash(&mut h),
        v => v.hash(&mut h),
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Card, Cards};
    use crate::value::Shared;
    use proptest::prelude::*;

    /// A small domain of values with near misses: equal values built apart (strings, lists, card
    /// groups), values that print alike but differ (0.0 and -0.0, 1 and 1.0), empty ones.
    fn value(k: u8) -> Value {
        let card = |i: u8| Card::from_index(i).unwrap_or_else(|| unreachable!());
        match k % 12 {
            0 => Value::Int(0),
            1 => Value::Int(1),
            2 => Value::Num(1.0),
            3 => Value::Num(0.0),
            4 => Value::Num(-0.0),
            5 => Value::str("a"),
            6 => Value::str("ab"),
            7 => Value::Card(card(5)),
            8 => Value::Cards(Shared::local(Cards::new([card(5), card(9)], 0))),
            9 => Value::Cards(Shared::new(Cards::new([card(9), card(5)], 0))),
            10 => Value::list([Value::Int(1), Value::Int(2)]),
            _ => Value::list([]),
        }
    }

    proptest! {
        /// The memory is a set per relation, through the small-relation scan and the hash
        /// indexes alike: an insert adds a fact exactly when no equal live one exists, `find`
        /// finds exactly the live equal fact, a retracted fact can come back, and the join index
        /// offers every live fact with the value looked up.
        #[test]
        fn the_memory_is_a_set_of_facts(
            ops in proptest::collection::vec((0u8..2, 0u8..12, 0u8..12, any::<bool>(), 0u8..24), 0..400),
            span in 2u8..13,
        ) {
            let mut mem = Memory::new(vec![vec![0], vec![]]);
            let mut model: Vec<(RelId, Vec<Value>, FactId)> = Vec::new();
            for round in 0..2 {
                for (rel, a, b, retract, compact) in &ops {
                    // Now and then every retracted fact is freed and the live ones renumbered.
                    if *compact == 0 {
                        let remap = mem.compact_all();
                        for (_, _, id) in model.iter_mut() {
                            *id = remap[*id as usize];
                        }
                        prop_assert_eq!(mem.garbage(), 0);
                    }
                    prop_assert_eq!(mem.live(), model.len());
                    let (rel, args) = (*rel as RelId, vec![value(*a % span), value(*b % span)]);
                    let live = model.iter().find(|(r, x, _)| *r == rel && *x == args).map(|(_, _, id)| *id);
                    prop_assert_eq!(mem.find(rel, &args), live, "round {}", round);
                    // Where relation 0 is indexed by its first argument, the candidates for a
                    // value include every live fact holding it there.
                    for k in 0..12 {
                        let v = value(k);
                        if let Some(ids) = mem.candidates(0, 0, &v) {
                            for (_, x, id) in model.iter().filter(|(r, x, _)| *r == 0 && x[0] == v) {
                                prop_assert!(ids.contains(id), "{:?} missing for {:?}", x, v);
                            }
                        }
                    }
                    match (live, *retract) {
                        (Some(id), true) => {
                            prop_assert!(mem.retract(id));
                            model.retain(|(_, _, f)| *f != id);
                        }
                        (Some(_), false) => prop_assert_eq!(mem.insert(rel, &args, Origin::Input(0)), None),
                        (None, _) => {
                            let id = mem.insert(rel, &args, Origin::Input(0));
                            prop_assert!(id.is_some());
                            model.push((rel, args, id.unwrap_or_default()));
                        }
                    }
                }
                mem.reset();
                model.clear();
            }
        }
    }
}
