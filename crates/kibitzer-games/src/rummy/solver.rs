//! The exact joker-free solver of one island: the original method's DFS over control-point placements
//! with the row and column scans carried along the search.
//!
//! The search walks the island rank by rank (position 0 = low ace … 13 = high ace). At each
//! rank every card chooses how many copies go to runs, to sets and to the dump — a real choice
//! only for control points; a run-only card's split is decided by its row scan and a set-only
//! card's by its column scan, since (see `grid.rs`) such a card never interacts with the other
//! line. The column scan is a table lookup (`sets.rs`); each row scan is a tiny automaton whose
//! state is the start of the (at most two) runs open in that row, whether the previous card was
//! dumped, the current streak of dumped cards and, with `ace_high`, the copies of the ace
//! reserved for a Q-K-A run. The automaton enforces maximality (`docs/rummy.md`: no dumped card
//! extends a run, no three dumped cards in a row) and tracks touching runs, so one search counts
//! both conventions. Subtrees with equal (rank, row states) are memoised: the search is polynomial.

use super::card::{rank_points, Card};
use super::grid::{run_capable, set_capable};
use super::hand::Hand;
use super::meld::{Arrangement, Meld};
use super::sets::{decomposition_is_maximal, usage_index, SetTable};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// Counts and minima of one island (or of a whole hand when combined).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value {
    /// Maximal arrangements with touching runs merged (the default convention).
    pub merged: u128,
    /// Maximal arrangements with split forms counted separately (`split_runs`).
    pub split: u128,
    /// Fewest deadwood cards, then fewest points among those: `cards << 32 | points`.
    pub min_cp: u64,
    /// Fewest deadwood points, then fewest cards among those: `points << 32 | cards`.
    pub min_pc: u64,
}

impl Value {
    pub(super) const DEAD: Value = Value {
        merged: 0,
        split: 0,
        min_cp: u64::MAX,
        min_pc: u64::MAX,
    };
    pub(super) const DONE: Value = Value {
        merged: 1,
        split: 1,
        min_cp: 0,
        min_pc: 0,
    };

    /// A single arrangement with this deadwood.
    pub(super) fn single(cards: u32, points: u32) -> Value {
        Value {
            merged: 1,
            split: 1,
            min_cp: (cards as u64) << 32 | points as u64,
            min_pc: (points as u64) << 32 | cards as u64,
        }
    }

    /// The value of the other islands, given the whole (`self`) and one island's `part` (or
    /// of the rest of an island, given cards every arrangement dumps): minima subtract and
    /// counts divide. `None` when that is not exact: a minimum of
    /// either is "unknown" (`u32::MAX` cards), or a count of the whole saturated.
    pub(super) fn without(self, part: Value) -> Option<Value> {
        if self.min_cp == u64::MAX || part.min_cp == u64::MAX || self.min_pc == u64::MAX || part.min_pc == u64::MAX {
            return None;
        }
        let (merged, split) = if part.merged == 1 && part.split == 1 {
            (self.merged, self.split)
        } else {
            if part.merged == 0 || part.split == 0 || self.merged == u128::MAX || self.split == u128::MAX {
                return None;
            }
            (self.merged / part.merged, self.split / part.split)
        };
        Some(Value {
            merged,
            split,
            min_cp: self.min_cp.checked_sub(part.min_cp)?,
            min_pc: self.min_pc.checked_sub(part.min_pc)?,
        })
    }

    /// The fewest deadwood cards.
    pub fn min_cards(&self) -> u32 {
        (self.min_cp >> 32) as u32
    }

    /// The fewest deadwood points.
    pub fn min_points(&self) -> u32 {
        (self.min_pc >> 32) as u32
    }

    /// Disjoint union: counts multiply (saturating), minima add.
    pub(super) fn combine(self, other: Value) -> Value {
        if other.split == 1 && other.merged == 1 {
            // Most islands have one arrangement: skip the 128-bit products.
            return Value {
                min_cp: self.min_cp.saturating_add(other.min_cp),
                min_pc: self.min_pc.saturating_add(other.min_pc),
                ..self
            };
        }
        Value {
            merged: self.merged.saturating_mul(other.merged),
            split: self.split.saturating_mul(other.split),
            min_cp: self.min_cp.saturating_add(other.min_cp),
            min_pc: self.min_pc.saturating_add(other.min_pc),
        }
    }
}

const NONE: u8 = 0xFF;

/// Most states one sweep layer (or the backward memo) may hold: bounds memory to ~64 MB.
const MAX_LAYER: usize = 1 << 20;

/// One row's scan automaton state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Row {
    open: u8,
    start: [u8; 2],
    dump_prev: bool,
    streak: u8,
    high_use: u8,
    ace_dump: bool,
}

impl Row {
    fn pack(self) -> u32 {
        (self.open as u32)
            | (self.start[0] as u32 & 0xF) << 2
            | (self.start[1] as u32 & 0xF) << 7
            | (self.dump_prev as u32) << 12
            | (self.streak as u32) << 13
            | (self.high_use as u32) << 15
            | (self.ace_dump as u32) << 17
    }

    fn unpack(v: u32) -> Row {
        Row {
            open: (v & 3) as u8,
            start: [((v >> 2) & 0xF) as u8, ((v >> 7) & 0xF) as u8],
            dump_prev: (v >> 12) & 1 != 0,
            streak: ((v >> 13) & 3) as u8,
            high_use: ((v >> 15) & 3) as u8,
            ace_dump: (v >> 17) & 1 != 0,
        }
    }
}

const ROW_BITS: u32 = 18;

/// A packed row with its reserved high-ace copies and ace-dumped flag replaced.
fn with_ace(row: u32, high_use: u8, ace_dump: bool) -> u32 {
    (row & !(0b111 << 15)) | (high_use as u32) << 15 | (ace_dump as u32) << 17
}

fn key_of(p: u8, rows: &[Row; 4]) -> u128 {
    let mut key = p as u128;
    for (s, row) in rows.iter().enumerate() {
        key |= (row.pack() as u128) << (5 + ROW_BITS * s as u32);
    }
    key
}

fn rows_of(key: u128) -> [Row; 4] {
    let mut rows = [Row::default(); 4];
    for (s, row) in rows.iter_mut().enumerate() {
        *row = Row::unpack(((key >> (5 + ROW_BITS * s as u32)) & ((1 << ROW_BITS) - 1)) as u32);
    }
    rows
}

/// The forward sweep's canonical form of a packed row at position `q`: a run already three
/// cards long behaves the same whatever its start (it may end at any later rank), so its start
/// is moved up to `q - 3` (`q - 4` for the first of two such runs that differ, keeping them
/// distinct and in order). Runs from the low ace or from the two keep their start when
/// `ace_high` (the A..K..A and 2..K+A rules at the high ace look at it); without `ace_high`
/// those rules never fire (the sweep stops at the king), so every start may move. Fewer
/// distinct states per layer, same counts and minima: the backward search (witnesses,
/// listings) keeps exact starts and must agree (tests).
fn canon_row(row: u32, q: u8, ace_high: bool) -> u32 {
    let open = row & 3;
    if open == 0 {
        return row;
    }
    let floor = if ace_high { 2 } else { 0 };
    let s0 = ((row >> 2) & 0xF) as u8;
    let with_starts = |a: u8, b: u8| (row & !(0xF << 2) & !(0xF << 7)) | (a as u32) << 2 | (b as u32) << 7;
    if open == 1 {
        if s0 >= floor && s0 + 3 < q {
            return with_starts(q - 3, 0);
        }
        return row;
    }
    let s1 = ((row >> 7) & 0xF) as u8;
    if s1 + 3 <= q {
        // Both runs are at least three long.
        if s0 == s1 {
            if s0 >= floor {
                return with_starts(q - 3, q - 3);
            }
        } else if s0 >= floor {
            return with_starts(q - 4, q - 3);
        } else if s1 >= floor {
            return with_starts(s0, q - 3);
        }
        return row;
    }
    if s0 + 3 <= q && s0 >= floor {
        return with_starts(q - 3, s1);
    }
    row
}

/// One row transition: the new state, whether it merges-convention-forbids (touching), and
/// the starts of the runs that ended at the previous position.
#[derive(Clone, Copy, Debug)]
struct RowMove {
    /// The new row state, packed (`Row::pack`).
    row: u32,
    touch: bool,
    ended: [u8; 2],
}

/// The row automaton: runs open before position `p` may end at `p - 1`, continue, and `u`
/// copies at `p` must be covered; `dumped` says whether a copy at `p` is dumped.
fn row_moves(st: Row, p: u8, u: u8, dumped: bool, out: &mut Moves) {
    out.len = 0;
    let subsets: &[u8] = match st.open {
        0 => &[0],
        1 => &[0, 1],
        _ if st.start[0] == st.start[1] => &[0, 1, 3],
        _ => &[0, 1, 2, 3],
    };
    let streak = if dumped { st.streak + 1 } else { 0 };
    if streak >= 3 {
        return;
    }
    'subset: for &sub in subsets {
        let mut ended = [NONE; 2];
        let mut kept = [0u8; 2];
        let mut kept_len = 0usize;
        for j in 0..st.open as usize {
            let start = st.start[j];
            if sub & (1 << j) != 0 {
                let end = p - 1;
                if end + 1 - start < 3 {
                    continue 'subset;
                }
                // A dumped card at `p` would extend this run (unless that makes A..K..A).
                if dumped && !(start == 0 && p == 13) {
                    continue 'subset;
                }
                // 2..K+A holds the same cards as A..K: only the ace-low form is kept.
                if start == 1 && end == 13 {
                    continue 'subset;
                }
                ended[if ended[0] == NONE { 0 } else { 1 }] = start;
            } else {
                if start == 0 && p == 13 {
                    continue 'subset;
                }
                if kept_len == 2 {
                    continue 'subset;
                }
                kept[kept_len] = start;
                kept_len += 1;
            }
        }
        if kept_len as u8 > u {
            continue;
        }
        let fresh = u - kept_len as u8;
        // A dumped card just before would extend a run starting here (a dumped low ace
        // before a run from 2 too: that run cannot reach the high ace, see above).
        if fresh > 0 && st.dump_prev {
            continue;
        }
        // Fresh runs start at `p`, after every kept one: the starts stay sorted.
        for _ in 0..fresh {
            if kept_len == 2 {
                continue 'subset;
            }
            kept[kept_len] = p;
            kept_len += 1;
        }
        let mut row = Row {
            open: kept_len as u8,
            dump_prev: dumped,
            streak,
            high_use: st.high_use,
            ace_dump: st.ace_dump,
            ..Row::default()
        };
        row.start[..kept_len].copy_from_slice(&kept[..kept_len]);
        out.push(RowMove {
            row: row.pack(),
            touch: sub != 0 && fresh > 0,
            ended,
        });
    }
}

/// Up to four row moves, inline.
#[derive(Clone, Copy, Debug)]
struct Moves {
    list: [RowMove; 4],
    len: u8,
}

impl Moves {
    const EMPTY: Moves = Moves {
        list: [RowMove {
            row: 0,
            touch: false,
            ended: [NONE; 2],
        }; 4],
        len: 0,
    };

    fn push(&mut self, m: RowMove) {
        if let Some(slot) = self.list.get_mut(self.len as usize) {
            *slot = m;
            self.len += 1;
        }
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn len(&self) -> usize {
        self.len as usize
    }

    fn as_slice(&self) -> &[RowMove] {
        &self.list[..self.len as usize]
    }

    fn iter_mut(&mut self) -> std::slice::IterMut<'_, RowMove> {
        self.list[..self.len as usize].iter_mut()
    }
}

impl std::ops::Index<usize> for Moves {
    type Output = RowMove;
    fn index(&self, i: usize) -> &RowMove {
        &self.as_slice()[i]
    }
}

/// The forward sweep's view of a row's moves: each next row packed (`Row::pack`, in the
/// sweep's canonical form) with the touch flag in bit 31. Half the size of [`Moves`]: the
/// sweep copies these into its row cache and keeps them in its memo, and only needs these two.
#[derive(Clone, Copy, Debug)]
struct SweepMoves {
    next: [u32; 4],
    len: u8,
}

/// The touch flag of a [`SweepMoves`] entry (rows use the low `ROW_BITS`).
const TOUCHES: u32 = 1 << 31;

impl SweepMoves {
    const EMPTY: SweepMoves = SweepMoves { next: [0; 4], len: 0 };

    fn of(moves: &Moves, ace_high: bool, q: u8) -> SweepMoves {
        let mut out = SweepMoves::EMPTY;
        for (slot, m) in out.next.iter_mut().zip(moves.as_slice()) {
            *slot = canon_row(m.row, q, ace_high) | if m.touch { TOUCHES } else { 0 };
        }
        out.len = moves.len;
        out
    }
}

/// A distinct row of a sweep layer and its moves per (copies covered, dumped?) slot, filled
/// lazily (`computed` bit per slot).
#[derive(Clone, Copy, Debug)]
struct RowEntry {
    row: u32,
    computed: u8,
    moves: [SweepMoves; 6],
}

/// One choice of a cell at a rank: copies to low runs, to a high-ace run, to sets, dumped.
#[derive(Clone, Copy, Debug, Default)]
struct CellChoice {
    low: u8,
    high: u8,
    set: u8,
    dump: u8,
}

/// An edge of the search from one rank to the next.
#[derive(Clone, Copy, Debug)]
struct Edge {
    next: u128,
    factor: u8,
    touch: bool,
    dump_cards: u32,
    dump_points: u32,
    usage: usize,
    dump_mask: u8,
    dumps: [u8; 4],
    ended: [[u8; 2]; 4],
}

/// One way a whole column (rank) splits its copies, valid for the set table.
#[derive(Clone, Copy, Debug, Default)]
struct ColumnOption {
    low: [u8; 4],
    high: [u8; 4],
    dumped: u8,
    factor: u8,
    cards: u32,
    /// The row slot (copies covered × 2 + dumped?) each suit needs, suit 0 in the top byte:
    /// options are sorted by it (see `IslandSolver::sweep`).
    slots: u32,
}

/// A layer of the forward sweep: distinct row-state keys with their accumulated values.
#[derive(Default)]
struct Layer {
    entries: Vec<(u128, Value)>,
    index: FxHashMap<u128, usize>,
}

impl Layer {
    fn clear(&mut self) {
        self.entries.clear();
        self.index.clear();
    }

    fn push(&mut self, key: u128, value: Value) {
        self.entries.push((key, value));
    }

    fn add(&mut self, key: u128, v: Value) {
        let slot = if self.entries.len() <= 24 {
            self.entries.iter().position(|(k, _)| *k == key)
        } else {
            if self.index.is_empty() {
                for (i, (k, _)) in self.entries.iter().enumerate() {
                    self.index.insert(*k, i);
                }
            }
            self.index.get(&key).copied()
        };
        match slot {
            Some(i) => {
                let e = &mut self.entries[i].1;
                e.merged = e.merged.saturating_add(v.merged);
                e.split = e.split.saturating_add(v.split);
                e.min_cp = e.min_cp.min(v.min_cp);
                e.min_pc = e.min_pc.min(v.min_pc);
            }
            None => {
                if !self.index.is_empty() {
                    self.index.insert(key, self.entries.len());
                }
                self.entries.push((key, v));
            }
        }
    }
}

/// Every valid split of a column of this shape (bits per suit: copies, run-capable,
/// high-ace-capable; bit 16: set-capable).
fn column_options_of(shape: u32) -> Box<[ColumnOption]> {
    let table = SetTable::get();
    let mut out: Vec<ColumnOption> = Vec::new();
    let mut copies = [0u8; 4];
    let mut set_max = [0u8; 4];
    let mut low_max = [0u8; 4];
    let mut high_max = [0u8; 4];
    for s in 0..4 {
        let bits = (shape >> (4 * s)) & 0xF;
        let c = (bits & 3) as u8;
        copies[s] = c;
        if bits & 4 != 0 {
            low_max[s] = c;
        }
        if bits & 8 != 0 {
            high_max[s] = c;
        }
        if shape & (1 << 16) != 0 {
            set_max[s] = c;
        }
    }
    let mut usage = [0u8; 4];
    loop {
        let usage_ix = usage_index(usage);
        if table.splittable(usage_ix) {
            // Runs: low and high-ace copies per suit within what sets left.
            let mut low = [0u8; 4];
            let mut high = [0u8; 4];
            'runs: loop {
                let mut opt = ColumnOption::default();
                for s in 0..4 {
                    let dump = copies[s] - usage[s] - low[s] - high[s];
                    if dump > 0 {
                        opt.dumped |= 1 << s;
                    }
                    opt.cards += dump as u32;
                }
                opt.factor = table.count(usage_ix, opt.dumped);
                if opt.factor > 0 {
                    opt.low = low;
                    opt.high = high;
                    out.push(opt);
                }
                // Next (low, high) combination, suit by suit.
                for s in 0..4 {
                    let room = copies[s] - usage[s];
                    if high[s] < high_max[s].min(room - low[s]) {
                        high[s] += 1;
                        continue 'runs;
                    }
                    high[s] = 0;
                    if low[s] < low_max[s].min(room) {
                        low[s] += 1;
                        continue 'runs;
                    }
                    low[s] = 0;
                }
                break;
            }
        }
        let mut carried = true;
        for s in 0..4 {
            if usage[s] < set_max[s] {
                usage[s] += 1;
                carried = false;
                break;
            }
            usage[s] = 0;
        }
        if carried {
            break;
        }
    }
    for opt in &mut out {
        opt.slots = (0..4).fold(0u32, |acc, s| {
            acc << 8 | u32::from(opt.low[s] * 2 + u8::from(opt.dumped & (1 << s) != 0))
        });
    }
    out.sort_by_key(|o| o.slots);
    out.into_boxed_slice()
}

/// Slots of the sweep's row-move table ([`Scratch::row_moves`]; a power of two; ~150 KB).
const MOVE_SLOTS: usize = 4096;

/// `row_moves` with the next rows in the sweep's canonical form (`canon_row`), memoised.
///
/// `memo` is the sweep's row-move table ([`Scratch::row_moves`]): the same few rows recur
/// across layers and islands, so a direct-mapped table (key + 1 stored, 0 = empty) answers
/// nearly every lookup.
fn sweep_moves(memo: &mut Vec<(u32, SweepMoves)>, row: u32, p: u8, u: u8, dumped: bool, ace_high: bool) -> SweepMoves {
    let key = row
        | (p as u32) << ROW_BITS
        | (u as u32) << (ROW_BITS + 4)
        | (dumped as u32) << (ROW_BITS + 6)
        | (ace_high as u32) << (ROW_BITS + 7);
    let compute = || {
        let mut moves = Moves::EMPTY;
        row_moves(Row::unpack(row), p, u, dumped, &mut moves);
        SweepMoves::of(&moves, ace_high, p + 1)
    };
    let slot = (key.wrapping_mul(0x9E37_79B9) >> (32 - MOVE_SLOTS.trailing_zeros())) as usize;
    if memo.is_empty() {
        memo.resize(MOVE_SLOTS, (0, SweepMoves::EMPTY));
    }
    match memo.get_mut(slot) {
        Some(entry) if entry.0 == key + 1 => entry.1,
        Some(entry) => {
            *entry = (key + 1, compute());
            entry.1
        }
        None => compute(),
    }
}

/// The forward sweep's buffers, kept per thread so that a solve allocates nothing once warm.
#[derive(Default)]
struct Scratch {
    layers: [Layer; 2],
    /// The distinct rows of the current layer (any suit) with their moves.
    row_cache: Vec<RowEntry>,
    /// Entries of `row_cache` in use in the current layer (the rest are stale, kept to be
    /// overwritten rather than rebuilt).
    row_used: usize,
    /// The row moves by (row, position, copies covered, dumped?, ace convention), kept
    /// across solves (in the scratch rather than a thread-local of its own: the sweep
    /// looks it up in its inner loop, and a thread-local access there cost 18% of it).
    row_moves: Vec<(u32, SweepMoves)>,
    /// The column plans by (column shape, suits of the island): a few dozen ever occur.
    column_plans: FxHashMap<u64, ColumnPlan>,
}

/// Every valid split of a column of one shape, sorted by the row slot each suit needs, with
/// per option and suit depth the next option whose slots differ up to that depth (a slot with
/// no row move skips every option sharing that prefix at once). Built once per shape and
/// island suits, shared by every rank and every solve: the sweep's per-rank setup is a lookup.
struct ColumnPlan {
    options: Box<[ColumnOption]>,
    skip: Box<[[u16; 4]]>,
}

/// The plan of a position past the last rank: one option that covers nothing.
const END_OPTIONS: [ColumnOption; 1] = [ColumnOption {
    low: [0; 4],
    high: [0; 4],
    dumped: 0,
    factor: 1,
    cards: 0,
    slots: 0,
}];
const END_SKIP: [[u16; 4]; 1] = [[1; 4]];

/// Entries a thread keeps after a solve (a monster island may grow a layer to `MAX_LAYER`).
const KEEP_ENTRIES: usize = 1 << 12;

impl Scratch {
    fn trim(&mut self) {
        for layer in &mut self.layers {
            if layer.entries.capacity() > KEEP_ENTRIES {
                layer.entries = Vec::new();
                layer.index = FxHashMap::default();
            }
        }
    }
}

/// One rank of the forward sweep ([`IslandSolver::sweep`]): what every state of its layer shares.
#[derive(Clone, Copy)]
struct RankStep<'a> {
    /// The position (rank) swept.
    p: u8,
    /// Past the island's last rank: rows only end their runs.
    sentinel: bool,
    ace_high: bool,
    /// At the low ace with `ace_high`: each option also reserves copies for a Q-K-A run.
    ace_split: bool,
    /// The points of a card dumped at this rank.
    points: u32,
    /// The suits whose rows the sweep scans.
    act: &'a [usize],
    options: &'a [ColumnOption],
    skip: &'a [[u16; 4]],
}

impl RankStep<'_> {
    /// The entries of one state's scanned rows in the layer's row cache, adding those missing.
    #[inline]
    fn cached_rows(&self, key: u128, row_cache: &mut Vec<RowEntry>, row_used: &mut usize) -> [usize; 4] {
        let mut entry_of = [0usize; 4];
        for (i, &s) in self.act.iter().enumerate() {
            let row = ((key >> (ROW_BITS * s as u32)) & ((1 << ROW_BITS) - 1)) as u32;
            // One cache for every suit: moves do not depend on the suit.
            entry_of[i] = match row_cache[..*row_used].iter().position(|e| e.row == row) {
                Some(j) => j,
                None => {
                    // Stale moves stay until their slot is computed (`computed`).
                    match row_cache.get_mut(*row_used) {
                        Some(e) => {
                            e.row = row;
                            e.computed = 0;
                        }
                        None => row_cache.push(RowEntry {
                            row,
                            computed: 0,
                            moves: [SweepMoves::EMPTY; 6],
                        }),
                    }
                    *row_used += 1;
                    *row_used - 1
                }
            };
        }
        entry_of
    }

    /// Adds to `next` every successor of one state (rows at `entry_of`, its `value`) under each
    /// column option whose row moves all exist.
    #[inline]
    fn expand(
        &self,
        value: Value,
        entry_of: &[usize; 4],
        row_cache: &mut [RowEntry],
        row_moves: &mut Vec<(u32, SweepMoves)>,
        next: &mut Layer,
    ) {
        let mut j = 0usize;
        while j < self.options.len() {
            let opt = &self.options[j];
            let pick_of = match self.slots_of(opt, entry_of, row_cache, row_moves) {
                Ok(pick_of) => pick_of,
                Err(d) => {
                    // Every option with the same slots up to suit `d` dies here too.
                    j = self.skip[j][d] as usize;
                    continue;
                }
            };
            j += 1;
            self.successors(opt, value, entry_of, &pick_of, row_cache, next);
        }
    }

    /// The row-move slot each scanned row takes under `opt` (its moves computed if new), or the
    /// index of the first scanned row with no move (the option dies there).
    #[inline]
    fn slots_of(
        &self,
        opt: &ColumnOption,
        entry_of: &[usize; 4],
        row_cache: &mut [RowEntry],
        row_moves: &mut Vec<(u32, SweepMoves)>,
    ) -> Result<[usize; 4], usize> {
        let mut pick_of = [0usize; 4];
        for (i, &s) in self.act.iter().enumerate() {
            let entry = &mut row_cache[entry_of[i]];
            let (u, dumped) = if self.sentinel {
                (0, false)
            } else if self.p == 13 {
                let r = Row::unpack(entry.row);
                (r.high_use, r.ace_dump)
            } else {
                (opt.low[s], opt.dumped & (1 << s) != 0)
            };
            let slot = (u as usize) * 2 + dumped as usize;
            let bit = 1u8 << slot;
            if entry.computed & bit == 0 {
                entry.computed |= bit;
                entry.moves[slot] = sweep_moves(row_moves, entry.row, self.p, u, dumped, self.ace_high);
            }
            if entry.moves[slot].len == 0 {
                return Err(i);
            }
            pick_of[i] = slot;
        }
        Ok(pick_of)
    }

    /// Adds to `next` the state's successors under `opt`: every combination of the rows' moves
    /// (slots `pick_of`), with the option's count factor and dumped points.
    #[inline]
    fn successors(
        &self,
        opt: &ColumnOption,
        value: Value,
        entry_of: &[usize; 4],
        pick_of: &[usize; 4],
        row_cache: &[RowEntry],
        next: &mut Layer,
    ) {
        let here = Value::single(opt.cards, opt.cards * self.points);
        let f = opt.factor as u128;
        let (split, merged) = if f == 1 {
            (value.split, value.merged)
        } else {
            (value.split.saturating_mul(f), value.merged.saturating_mul(f))
        };
        let mut mv = [0usize; 4];
        loop {
            let mut next_key = 0u128;
            let mut touch = false;
            for (i, &s) in self.act.iter().enumerate() {
                let m = row_cache[entry_of[i]].moves[pick_of[i]].next[mv[i]];
                let row = if self.ace_split {
                    with_ace(m & !TOUCHES, opt.high[s], opt.dumped & (1 << s) != 0)
                } else {
                    m & !TOUCHES
                };
                next_key |= (row as u128) << (ROW_BITS * s as u32);
                touch |= m & TOUCHES != 0;
            }
            let add = Value {
                merged: if touch { 0 } else { merged },
                split,
                min_cp: value.min_cp + here.min_cp,
                min_pc: value.min_pc + here.min_pc,
            };
            next.add(next_key, add);
            let mut carry = true;
            for (i, digit) in mv.iter_mut().enumerate().take(self.act.len()) {
                *digit += 1;
                if *digit < row_cache[entry_of[i]].moves[pick_of[i]].len as usize {
                    carry = false;
                    break;
                }
                *digit = 0;
            }
            if carry {
                break;
            }
        }
    }
}

/// The counts summed and the minima taken over a sweep's last layer.
fn layer_total(layer: &Layer) -> Value {
    let mut total = Value::DEAD;
    for &(_, v) in layer.entries.iter() {
        total.merged = total.merged.saturating_add(v.merged);
        total.split = total.split.saturating_add(v.split);
        total.min_cp = total.min_cp.min(v.min_cp);
        total.min_pc = total.min_pc.min(v.min_pc);
    }
    total
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// Solver of one joker-free island.
pub(super) struct IslandSolver {
    counts: [[u8; 13]; 4],
    runcap: [u16; 4],
    setcap: u16,
    rows: u8,
    lo: u8,
    hi: u8,
    ace_high: bool,
    memo: FxHashMap<u128, Value>,
    /// The backward memo hit `MAX_LAYER` or the run's deadline passed: the memo holds
    /// wrong values, so no witness or listing of this solver may be trusted.
    pub(super) overflow: bool,
}

impl IslandSolver {
    /// `hand` must hold the cards of one island (no jokers); any joker-free hand works too.
    pub(super) fn new(hand: &Hand, ace_high: bool) -> IslandSolver {
        let (run, high) = run_capable(hand.one, ace_high);
        let set = set_capable(hand.one);
        let mut counts = [[0u8; 13]; 4];
        let mut runcap = [0u16; 4];
        let mut rows = 0u8;
        let mut lo = 13u8;
        let mut hi = 0u8;
        for (s, row) in counts.iter_mut().enumerate() {
            let lane = (hand.one >> (16 * s)) & 0x1FFF;
            let lane2 = (hand.two >> (16 * s)) & 0x1FFF;
            if lane != 0 {
                rows |= 1 << s;
                lo = lo.min(lane.trailing_zeros() as u8);
                hi = hi.max(63 - lane.leading_zeros() as u8);
            }
            for (k, c) in row.iter_mut().enumerate() {
                *c = ((lane >> k) & 1) as u8 + ((lane2 >> k) & 1) as u8;
            }
            runcap[s] = ((run >> (16 * s)) & 0x1FFF) as u16 | ((high >> (16 * s)) & 0x2000) as u16;
            if runcap[s] & 0x2000 != 0 {
                hi = 13;
            }
        }
        let setcap = ((set | set >> 16 | set >> 32 | set >> 48) & 0x1FFF) as u16;
        IslandSolver {
            counts,
            runcap,
            setcap,
            rows,
            lo,
            hi,
            ace_high,
            memo: FxHashMap::default(),
            overflow: false,
        }
    }

    fn root(&self) -> u128 {
        key_of(self.lo, &[Row::default(); 4])
    }

    /// The ways rank `p` can split its copies that the set table accepts: first the copies
    /// given to sets (pruned unless they split into sets), then runs, the rest dumped.
    ///
    /// The list depends only on the column's shape (copies per suit and which lines each suit
    /// may join), not on the rank, so it is built once per shape and thread and reused (the
    /// enumeration walks up to 81 set usages × 81 run splits; a sweep needs it at every rank).
    /// The column plan at rank `p` from `memo` ([`Scratch::column_plans`]); `act` lists the
    /// suits whose rows the sweep scans (the skips depend on them), `act_mask` the same as
    /// bits.
    fn column_plan<'m>(
        &self,
        p: u8,
        act: &[usize],
        act_mask: u8,
        memo: &'m mut FxHashMap<u64, ColumnPlan>,
    ) -> &'m ColumnPlan {
        let k = p as usize;
        let mut shape = u32::from(self.setcap & (1 << p) != 0) << 16;
        for s in 0..4 {
            let c = self.counts[s][k] as u32;
            let run = u32::from(self.runcap[s] & (1 << p) != 0);
            let high = u32::from(p == 0 && self.runcap[s] & 0x2000 != 0);
            shape |= (c | run << 2 | high << 3) << (4 * s);
        }
        let key = u64::from(shape) | u64::from(act_mask) << 32;
        memo.entry(key).or_insert_with(|| {
            let options = column_options_of(shape);
            let mut skip = vec![[0u16; 4]; options.len()];
            for j in (0..options.len()).rev() {
                for (d, &s) in act.iter().enumerate() {
                    // Slots of suits 0..=s (suits absent from the island are always 0; those
                    // of a suit the sweep does not scan only make the skip shorter: an option
                    // that dies at suit `s` takes with it every option sharing the slots of
                    // the scanned suits up to `s`, a superset of those compared here).
                    let shift = 8 * (3 - s as u32);
                    let same = j + 1 < options.len() && (options[j + 1].slots ^ options[j].slots) >> shift == 0;
                    skip[j][d] = if same { skip[j + 1][d] } else { (j + 1) as u16 };
                }
            }
            ColumnPlan {
                options,
                skip: skip.into_boxed_slice(),
            }
        })
    }

    fn cell_choices(&self, s: usize, p: u8) -> SmallVec<[CellChoice; 8]> {
        let mut out = SmallVec::new();
        let k = p as usize;
        let c = self.counts[s][k];
        let low_max = if self.runcap[s] & (1 << p) != 0 { c } else { 0 };
        let high_max = if p == 0 && self.runcap[s] & 0x2000 != 0 { c } else { 0 };
        let set_max = if self.setcap & (1 << p) != 0 { c } else { 0 };
        for low in 0..=low_max {
            for high in 0..=high_max.min(c - low) {
                for set in 0..=set_max.min(c - low - high) {
                    out.push(CellChoice {
                        low,
                        high,
                        set,
                        dump: c - low - high - set,
                    });
                }
            }
        }
        out
    }

    /// Per-row choices at position `p` for the rows `rows` of a node (one that covers nothing
    /// for a row absent from the island or past the last rank; at the high ace, the copies the
    /// row reserved).
    #[inline]
    fn row_choices(&self, p: u8, rows: &[Row; 4]) -> [SmallVec<[CellChoice; 8]>; 4] {
        let sentinel = p == self.hi + 1;
        let mut choices: [SmallVec<[CellChoice; 8]>; 4] = Default::default();
        for (s, list) in choices.iter_mut().enumerate() {
            if self.rows & (1 << s) == 0 || sentinel {
                list.push(CellChoice::default());
            } else if p <= 12 {
                *list = self.cell_choices(s, p);
            } else if p == 13 {
                list.push(CellChoice {
                    low: rows[s].high_use,
                    ..CellChoice::default()
                });
            } else {
                list.push(CellChoice::default());
            }
        }
        choices
    }

    /// Every edge out of node `key`, in a fixed order (rows S H D C, fewer run copies first).
    fn edges(&self, key: u128) -> SmallVec<[Edge; 16]> {
        let p = (key & 0x1F) as u8;
        let rows = rows_of(key);
        let mut out = SmallVec::new();
        let table = SetTable::get();
        let sentinel = p == self.hi + 1;
        let column = !sentinel && p <= 12;
        let choices = self.row_choices(p, &rows);
        let mut pick = [0usize; 4];
        loop {
            let cell = |s: usize| choices[s][pick[s]];
            let mut usage = [0u8; 4];
            let mut dump_mask = 0u8;
            let mut dumps = [0u8; 4];
            for s in 0..4 {
                usage[s] = cell(s).set;
                dumps[s] = cell(s).dump;
                if cell(s).dump > 0 {
                    dump_mask |= 1 << s;
                }
            }
            let usage_ix = usage_index(usage);
            let factor = if column { table.count(usage_ix, dump_mask) } else { 1 };
            if factor > 0 {
                let mut moves: [Moves; 4] = [Moves::EMPTY; 4];
                let mut dead = false;
                for s in 0..4 {
                    if self.rows & (1 << s) == 0 {
                        moves[s].push(RowMove {
                            row: rows[s].pack(),
                            touch: false,
                            ended: [NONE; 2],
                        });
                        continue;
                    }
                    let dumped = if p == 13 && !sentinel {
                        rows[s].ace_dump
                    } else {
                        cell(s).dump > 0
                    };
                    row_moves(rows[s], p, cell(s).low, dumped, &mut moves[s]);
                    if p == 0 && self.ace_high && !sentinel {
                        for m in moves[s].iter_mut() {
                            m.row = with_ace(m.row, cell(s).high, cell(s).dump > 0);
                        }
                    }
                    if moves[s].is_empty() {
                        dead = true;
                        break;
                    }
                }
                if !dead {
                    let (dump_cards, dump_points) = if column {
                        let n: u32 = dumps.iter().map(|&d| d as u32).sum();
                        (n, n * rank_points(p))
                    } else {
                        (0, 0)
                    };
                    let mut mv = [0usize; 4];
                    loop {
                        let mut next_rows = [Row::default(); 4];
                        let mut touch = false;
                        let mut ended = [[NONE; 2]; 4];
                        for s in 0..4 {
                            let m = moves[s][mv[s]];
                            next_rows[s] = Row::unpack(m.row);
                            touch |= m.touch;
                            ended[s] = m.ended;
                        }
                        out.push(Edge {
                            next: key_of(p + 1, &next_rows),
                            factor,
                            touch,
                            dump_cards,
                            dump_points,
                            usage: usage_ix,
                            dump_mask,
                            dumps: if column { dumps } else { [0; 4] },
                            ended,
                        });
                        if !advance(&mut mv, |s| moves[s].len()) {
                            break;
                        }
                    }
                }
            }
            if !advance(&mut pick, |s| choices[s].len()) {
                break;
            }
        }
        out
    }

    fn is_end(&self, key: u128) -> bool {
        (key & 0x1F) as u8 > self.hi + 1
    }

    /// Counts and minima of the island, by a forward sweep over the ranks (the hot path:
    /// no memo table, layers of (row states, value) merged by linear search).
    /// `None` when the work (states × column options) passes `budget` or a layer passes
    /// `MAX_LAYER` states: "unknown within budget" (only for huge hands, e.g. a whole deck).
    pub(super) fn solve(&mut self, budget: u64) -> Option<Value> {
        SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut scratch) => {
                let answer = self.sweep(&mut scratch, budget);
                scratch.trim();
                answer
            }
            // Not reentrant in practice; a fresh scratch keeps it panic-free regardless.
            Err(_) => self.sweep(&mut Scratch::default(), budget),
        })
    }

    /// The forward sweep of [`IslandSolver::solve`]: one layer of row states per rank, each
    /// state expanded by every column option of the rank ([`RankStep`]), the last layer summed.
    fn sweep(&self, scratch: &mut Scratch, budget: u64) -> Option<Value> {
        let Scratch {
            layers,
            row_cache,
            row_used,
            row_moves,
            column_plans,
        } = scratch;
        let mut work = 0u64;
        layers[0].clear();
        layers[0].push(key_of(self.lo, &[Row::default(); 4]) >> 5, Value::DONE);
        let mut cur = 0usize;
        let (act, n_act, act_mask) = self.scanned_rows();
        let act = &act[..n_act];
        for p in self.lo..=self.hi + 1 {
            let sentinel = p == self.hi + 1;
            let column = !sentinel && p <= 12;
            // The column options at this rank, shared by every state of the layer (see
            // `ColumnPlan`); their dumped cards score this rank's points.
            let (options, skip, points): (&[ColumnOption], &[[u16; 4]], u32) = if column {
                let plan = self.column_plan(p, act, act_mask, column_plans);
                (&plan.options, &plan.skip, rank_points(p))
            } else {
                (&END_OPTIONS, &END_SKIP, 0)
            };
            let (left, right) = layers.split_at_mut(1);
            let (layer, next) = if cur == 0 {
                (&left[0], &mut right[0])
            } else {
                (&right[0], &mut left[0])
            };
            next.clear();
            work += (layer.entries.len() * options.len()) as u64;
            if work > budget {
                return None;
            }
            let step = RankStep {
                p,
                sentinel,
                ace_high: self.ace_high,
                ace_split: p == 0 && self.ace_high && !sentinel,
                points,
                act,
                options,
                skip,
            };
            *row_used = 0;
            for (n, &(key, value)) in layer.entries.iter().enumerate() {
                // The run's deadline, read once every 4096 states: past it, "unknown".
                if n & 0xFFF == 0xFFF && crate::budget::expired() {
                    return None;
                }
                let entry_of = step.cached_rows(key, row_cache, row_used);
                step.expand(value, &entry_of, row_cache, row_moves, next);
            }
            cur ^= 1;
            if layers[cur].entries.len() > MAX_LAYER {
                return None;
            }
        }
        Some(layer_total(&layers[cur]))
    }

    /// The rows the sweep scans (suits, count, mask): those with a run-capable card.
    ///
    /// A row without one never holds a run, so its automaton has one move whatever the column
    /// options do (no run to open, end or extend, and three dumped cards in a row would be a run
    /// window): its state only records its dumps, which nothing reads. Leaving it out skips its
    /// lookups and merges the states that differ only there (a set-only card dumped or not). Its
    /// cards still choose sets or the dump in the column options.
    #[inline]
    fn scanned_rows(&self) -> ([usize; 4], usize, u8) {
        let mut act = [0usize; 4];
        let mut n_act = 0usize;
        let mut act_mask = 0u8;
        for s in 0..4 {
            if self.rows & (1 << s) != 0 && self.runcap[s] != 0 {
                act[n_act] = s;
                n_act += 1;
                act_mask |= 1 << s;
            }
        }
        (act, n_act, act_mask)
    }

    /// Counts and minima by the memoised backward search (used to steer witnesses and
    /// listings; must equal `solve`).
    #[cfg(test)]
    pub(super) fn solve_backward(&mut self) -> Value {
        let root = self.root();
        self.value(root)
    }

    fn value(&mut self, key: u128) -> Value {
        if self.is_end(key) {
            return Value::DONE;
        }
        if let Some(v) = self.memo.get(&key) {
            return *v;
        }
        // Memo full, or out of time (the clock read once every 4096 new states): the island
        // is too big to list or witness; callers read `overflow` and answer "unknown".
        if self.overflow
            || self.memo.len() >= MAX_LAYER
            || (self.memo.len() & 0xFFF == 0xFFF && crate::budget::expired())
        {
            self.overflow = true;
            return Value::DEAD;
        }
        let mut acc = Value::DEAD;
        for e in self.edges(key) {
            let child = self.value(e.next);
            if child.split == 0 {
                continue;
            }
            let f = e.factor as u128;
            acc.split = acc.split.saturating_add(child.split.saturating_mul(f));
            if !e.touch {
                acc.merged = acc.merged.saturating_add(child.merged.saturating_mul(f));
            }
            let here = Value::single(e.dump_cards, e.dump_points);
            acc.min_cp = acc.min_cp.min(child.min_cp + here.min_cp);
            acc.min_pc = acc.min_pc.min(child.min_pc + here.min_pc);
        }
        self.memo.insert(key, acc);
        acc
    }

    /// An arrangement reaching the minimum deadwood cards (`by_points = false`) or points.
    /// `None` when the island has none, or when the memo overflowed (see `overflow`).
    pub(super) fn witness(&mut self, by_points: bool) -> Option<Arrangement> {
        let root = self.root();
        if self.value(root).split == 0 || self.overflow {
            return None;
        }
        let mut path = Vec::new();
        let mut key = root;
        while !self.is_end(key) {
            let mut best: Option<(u64, Edge)> = None;
            for e in self.edges(key) {
                let child = self.value(e.next);
                if child.split == 0 {
                    continue;
                }
                let here = Value::single(e.dump_cards, e.dump_points);
                let score = if by_points {
                    child.min_pc + here.min_pc
                } else {
                    child.min_cp + here.min_cp
                };
                if best.is_none_or(|(b, _)| score < b) {
                    best = Some((score, e));
                }
            }
            let (_, e) = best?;
            path.push((key, e, 0usize));
            key = e.next;
        }
        if self.overflow {
            return None;
        }
        Some(self.build(&path))
    }

    /// Every maximal arrangement under the convention, at most `limit` (+1 to detect more);
    /// `None` when the memo overflowed (the list would miss arrangements).
    pub(super) fn enumerate(&mut self, split_runs: bool, limit: usize) -> Option<Vec<Arrangement>> {
        let mut out = Vec::new();
        let root = self.root();
        let mut path = Vec::new();
        self.walk(root, split_runs, limit, &mut path, &mut out);
        (!self.overflow).then_some(out)
    }

    fn walk(
        &mut self,
        key: u128,
        split_runs: bool,
        limit: usize,
        path: &mut Vec<(u128, Edge, usize)>,
        out: &mut Vec<Arrangement>,
    ) {
        if out.len() > limit {
            return;
        }
        if self.is_end(key) {
            out.push(self.build(path));
            return;
        }
        for e in self.edges(key) {
            if !split_runs && e.touch {
                continue;
            }
            let child = self.value(e.next);
            let alive = if split_runs { child.split } else { child.merged };
            if alive == 0 {
                continue;
            }
            let p = (key & 0x1F) as u8;
            let decomps: Vec<usize> = if p <= 12 {
                let table = SetTable::get();
                table
                    .decompositions(e.usage)
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| decomposition_is_maximal(d, e.dump_mask))
                    .map(|(i, _)| i)
                    .collect()
            } else {
                vec![0]
            };
            for d in decomps {
                path.push((key, e, d));
                self.walk(e.next, split_runs, limit, path, out);
                path.pop();
                if out.len() > limit {
                    return;
                }
            }
        }
    }

    /// Turns a search path into melds and dump.
    fn build(&self, path: &[(u128, Edge, usize)]) -> Arrangement {
        let table = SetTable::get();
        let mut arr = Arrangement::default();
        for &(key, e, decomp) in path {
            let p = (key & 0x1F) as u8;
            for s in 0..4u8 {
                for &start in &e.ended[s as usize] {
                    if start != NONE {
                        arr.melds.push(Meld::run(s, start, p - 1));
                    }
                }
                if p <= 12 {
                    if let Some(card) = Card::new(p, s) {
                        for _ in 0..e.dumps[s as usize] {
                            arr.dump.push(card);
                        }
                    }
                }
            }
            if p <= 12 {
                let valid: Vec<&Vec<u8>> = table
                    .decompositions(e.usage)
                    .iter()
                    .filter(|d| decomposition_is_maximal(d, e.dump_mask))
                    .collect();
                let chosen = table
                    .decompositions(e.usage)
                    .get(decomp)
                    .or_else(|| valid.first().copied());
                if let Some(sets) = chosen {
                    for &mask in sets {
                        arr.melds.push(Meld::set(p, mask));
                    }
                }
            }
        }
        arr.canonicalize();
        arr
    }
}

/// Odometer step over `pick` with per-digit sizes; false when it wrapped around.
fn advance(pick: &mut [usize; 4], size: impl Fn(usize) -> usize) -> bool {
    for (s, digit) in pick.iter_mut().enumerate() {
        *digit += 1;
        if *digit < size(s) {
            return true;
        }
        *digit = 0;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn value(merged: u128, split: u128, cards: u32, points: u32) -> Value {
        Value {
            merged,
            split,
            ..Value::single(cards, points)
        }
    }

    proptest! {
        /// Taking an island back out of a combined value gives the rest again.
        #[test]
        fn without_undoes_combine(
            a in (1u128..1 << 40, 1u128..1 << 40, 0u32..60, 0u32..600),
            b in (1u128..1 << 40, 1u128..1 << 40, 0u32..60, 0u32..600),
        ) {
            let (a, b) = (value(a.0, a.0 + a.1, a.2, a.3), value(b.0, b.0 + b.1, b.2, b.3));
            prop_assert_eq!(a.combine(b).without(b), Some(a));
            prop_assert_eq!(a.combine(b).without(a), Some(b));
        }
    }

    #[test]
    fn without_refuses_what_it_cannot_undo() {
        let big = value(u128::MAX / 3, u128::MAX / 3, 4, 20);
        let three = value(3, 5, 1, 5);
        // The product saturated: the rest's count is lost.
        assert_eq!(big.combine(three).without(three), None);
        // An island beyond the budget has no minimum.
        assert_eq!(three.combine(Value::DEAD).without(Value::DEAD), None);
        assert_eq!(Value::DEAD.without(three), None);
    }

    fn solve(text: &str, ace_high: bool) -> Value {
        IslandSolver::new(&Hand::parse(text).unwrap(), ace_high)
            .solve(u64::MAX)
            .unwrap()
    }

    #[test]
    fn demo_hand_island() {
        // The demo island of `docs/rummy.md`: 3 maximal arrangements, min deadwood 5 cards / 16 points.
        let v = solve("2H3H4H5H4H5H6H3C3C3D3D4D", false);
        assert_eq!(
            IslandSolver::new(&Hand::parse("2H3H4H").unwrap(), false).solve(10),
            None
        );
        let hand = Hand::parse("2H3H4H5H4H5H6H3C3C3D3D4D").unwrap();
        assert_eq!(IslandSolver::new(&hand, false).solve_backward(), v);
        assert_eq!((v.merged, v.split, v.min_cards(), v.min_points()), (3, 3, 5, 16));
    }

    #[test]
    fn split_forms_of_a_long_run() {
        // 2..7 of hearts: merged one run; split adds 2-4 + 5-7.
        let v = solve("2H3H4H5H6H7H", false);
        assert_eq!((v.merged, v.split, v.min_cards()), (1, 2, 0));
        // Q-K-A is a run only when the ace is high.
        assert_eq!(solve("QHKHAH", false).min_cards(), 3);
        assert_eq!(solve("QHKHAH", true).min_cards(), 0);
    }

    #[test]
    fn witness_reaches_minimum() {
        let hand = Hand::parse("2H3H4H5H4H5H6H3C3C3D3D4D").unwrap();
        let mut solver = IslandSolver::new(&hand, false);
        let w = solver.witness(true).unwrap();
        assert_eq!(w.to_string(), "[2H 3H 4H 5H] [4H 5H 6H] | dump: 3D 3D 4D 3C 3C");
        let all = solver.enumerate(false, 100).unwrap();
        assert_eq!(all.len(), 3);
    }
}
