//! The two-player endgame solved exactly: once the stock is empty both hands are known, and
//! alpha-beta over the engine's own move rules finds the best play and its line.
//!
//! Values are for player `me`: a win (the other is the durak) in d actions is `WIN − d`, a loss
//! in d actions `−(WIN − d)`, a draw 0, so the maximum wins fastest and loses slowest. A value
//! is relative to its position (a child's value moves one step toward 0 on its way up), which
//! keeps transposition-table entries valid wherever the position recurs. The table is an array
//! reused by every search on the thread that starts small and doubles as it fills, up to the
//! caller's bound; memory it cannot have leaves it as it is (a smaller cache), and the node count
//! and the run's deadline bound the time, and the game's own finiteness (plus a ply limit)
//! bounds the recursion. Without transfers the game is finite: a taken bout shrinks the
//! attacker's hand, a beaten one the cards in play. With transfers it is not (two players can
//! pass the same cards back and forth), and a search that reaches the ply limit stops unknown.

use super::cards::Card;
use super::game::{apply, legal_actions_into, Action, GameState, Outcome};
use std::cell::RefCell;

/// A win this many actions from the end scores `WIN − actions`.
pub const WIN: i32 = 100_000;
const INF: i32 = WIN + 1;
/// Deeper than any two-player endgame of 52 cards (every action plays a card, takes or passes).
const MAX_PLY: u32 = 600;

/// The solved result for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solved {
    /// The player to move wins: the other player ends as the durak.
    Win,
    /// The player to move loses: it ends as the durak.
    Lose,
    /// Both players go out together.
    Draw,
    /// The node budget or the deadline ran out.
    Unknown,
}

impl Solved {
    /// The result as a word: `win`, `lose`, `draw` or `unknown`.
    pub fn word(self) -> &'static str {
        match self {
            Solved::Win => "win",
            Solved::Lose => "lose",
            Solved::Draw => "draw",
            Solved::Unknown => "unknown",
        }
    }
}

/// What an endgame search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndgameAnswer {
    /// The proven result for the player to move, or [`Solved::Unknown`].
    pub outcome: Solved,
    /// The value of the position (see `measured`); 0 when unknown.
    pub value: i32,
    /// The play that achieves the result; `None` when the search found none (budget out, or not this player's move).
    pub best: Option<Action>,
    /// The principal line from the position: (player, action), best play first.
    pub line: Vec<(usize, Action)>,
    /// Actions to the end along the line, when `measured`.
    pub plies: u32,
    /// The distance search finished: the play is the fastest win or the slowest loss, `value`
    /// is ±(100,000 − plies) and `plies` counts the line. Otherwise only the outcome is proven
    /// (`value` is −1, 0 or 1) and the play is one that achieves it.
    pub measured: bool,
    /// Positions visited by both searches together.
    pub nodes: u64,
}

/// Bounds of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndgameBudget {
    /// Positions each of the two searches may visit.
    pub max_nodes: u64,
    /// The most transposition-table entries (16 bytes each); the table grows to it as needed.
    pub table_entries: usize,
    /// Longest principal line reported.
    pub line_len: usize,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    value: i32,
    /// 0 empty, 1 exact, 2 lower bound, 3 upper bound.
    bound: u8,
    /// The best move found, as an index into the legal moves (255: none).
    best: u8,
    /// The search that wrote it: older entries count as empty, so a new search needs no clearing.
    generation: u16,
}

thread_local! {
    static TABLE: RefCell<(Vec<Entry>, u16)> = const { RefCell::new((Vec::new(), 0)) };
}

/// Entries a new table starts with (64 KiB): most endgames never fill it.
const FIRST_ENTRIES: usize = 1 << 12;

/// A win or loss seen one action earlier.
fn shift(v: i32) -> i32 {
    v - v.signum()
}

/// The window a child is searched with, so that `shift` of its value lands in the parent's.
fn unshift(v: i32) -> i32 {
    (v + v.signum()).clamp(-INF, INF)
}

fn terminal(outcome: Outcome, me: usize) -> i32 {
    match outcome {
        Outcome::Durak(p) if p == me => -WIN,
        Outcome::Durak(_) => WIN,
        Outcome::Draw | Outcome::Aborted => 0,
    }
}

struct Search<'t> {
    table: &'t mut Vec<Entry>,
    /// The most entries the table may grow to.
    max_entries: usize,
    /// Entries written into an empty or stale slot since the table last grew.
    filled: usize,
    generation: u16,
    /// Values scored by distance (win fast, lose slowly); else win/draw/loss only (1, 0, −1),
    /// which prunes far more and proves the outcome first.
    distance: bool,
    me: usize,
    nodes: u64,
    max_nodes: u64,
    stopped: bool,
}

impl Search<'_> {
    fn slot(&self, key: u64) -> usize {
        (key as usize) % self.table.len().max(1)
    }

    /// Stores an entry; past half full, the table doubles (up to its bound).
    fn store(&mut self, e: Entry) {
        let slot = self.slot(e.key);
        let generation = self.generation;
        if let Some(old) = self.table.get_mut(slot) {
            if old.bound == 0 || old.generation != generation {
                self.filled += 1;
            }
            *old = e;
        }
        if self.filled * 2 > self.table.len() && self.table.len() < self.max_entries {
            self.grow();
        }
    }

    /// Doubles the table and files the current search's entries again. Memory that cannot be
    /// had (`try_reserve`) stops the growth there: the search goes on with the table it has.
    fn grow(&mut self) {
        let len = self.table.len().saturating_mul(2).min(self.max_entries);
        let mut bigger: Vec<Entry> = Vec::new();
        if bigger.try_reserve_exact(len).is_err() {
            self.max_entries = self.table.len();
            return;
        }
        bigger.resize(len, Entry::default());
        let generation = self.generation;
        self.filled = 0;
        for e in self.table.iter().filter(|e| e.bound != 0 && e.generation == generation) {
            let slot = (e.key as usize) % len;
            self.filled += usize::from(bigger[slot].bound == 0);
            bigger[slot] = *e;
        }
        *self.table = bigger;
    }

    fn moves(state: &GameState) -> Vec<Action> {
        let mut out = Vec::new();
        legal_actions_into(state, &mut out);
        let trump = state.trump();
        let low = |c: Card| i32::from(c.suit() == trump) * 64 + i32::from(c.rank());
        out.sort_by_key(|a| match *a {
            Action::Attack(c) | Action::Transfer(c) | Action::Defend { with: c, .. } => low(c),
            Action::Pass | Action::Take => 1000,
        });
        out
    }

    fn up(&self, v: i32) -> i32 {
        if self.distance {
            shift(v)
        } else {
            v
        }
    }

    fn down(&self, v: i32) -> i32 {
        if self.distance {
            unshift(v)
        } else {
            v
        }
    }

    fn end(&self, state: &GameState) -> i32 {
        let v = state.outcome().map_or(0, |o| terminal(o, self.me));
        if self.distance {
            v
        } else {
            v.signum()
        }
    }

    /// The widest window of the mode.
    fn window(&self) -> (i32, i32) {
        if self.distance {
            (-INF, INF)
        } else {
            (-1, 1)
        }
    }

    fn value(&mut self, state: &GameState, alpha: i32, beta: i32, ply: u32) -> i32 {
        let Some(p) = state.to_act() else {
            return self.end(state);
        };
        self.nodes += 1;
        if self.nodes > self.max_nodes || ply > MAX_PLY || (self.nodes & 1023 == 0 && crate::budget::expired()) {
            self.stopped = true;
            return 0;
        }
        let key = state.search_key();
        let (mut alpha, mut beta) = (alpha, beta);
        let mut first = 255u8;
        let generation = self.generation;
        if let Some(e) = self
            .table
            .get(self.slot(key))
            .filter(|e| e.bound != 0 && e.key == key && e.generation == generation)
        {
            first = e.best;
            match e.bound {
                1 => return e.value,
                2 => alpha = alpha.max(e.value),
                _ => beta = beta.min(e.value),
            }
            if alpha >= beta {
                return e.value;
            }
        }
        let (a0, b0) = (alpha, beta);
        let moves = Self::moves(state);
        let maximising = p == self.me;
        let mut best = if maximising { -INF } else { INF };
        let mut best_index = 255u8;
        let order = (first as usize).min(moves.len());
        let indices = std::iter::once(order)
            .filter(|&i| i < moves.len())
            .chain((0..moves.len()).filter(|&i| i != order));
        for i in indices {
            let mut child = state.clone();
            if apply(&mut child, p, moves[i]).is_err() {
                continue;
            }
            let (lo, hi) = (self.down(alpha), self.down(beta));
            let v = self.value(&child, lo, hi, ply + 1);
            let v = self.up(v);
            if self.stopped {
                return 0;
            }
            if (maximising && v > best) || (!maximising && v < best) {
                best = v;
                best_index = i as u8;
            }
            if maximising {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= a0 {
            3
        } else if best >= b0 {
            2
        } else {
            1
        };
        // The slot is found again: the table may have grown while the children were searched.
        self.store(Entry {
            key,
            value: best,
            bound,
            best: best_index,
            generation,
        });
        best
    }

    /// The best move for the player to act and its exact value (ties: the earlier move in
    /// search order); `None` when stopped or without a move.
    fn best(&mut self, state: &GameState, p: usize) -> Option<(Action, i32)> {
        let maximising = p == self.me;
        let (mut alpha, mut beta) = self.window();
        let mut best: Option<(Action, i32)> = None;
        for m in Self::moves(state) {
            let mut child = state.clone();
            if apply(&mut child, p, m).is_err() {
                continue;
            }
            let (lo, hi) = (self.down(alpha), self.down(beta));
            let v = self.value(&child, lo, hi, 1);
            let v = self.up(v);
            if self.stopped {
                return None;
            }
            let better = best.is_none_or(|(_, b)| if maximising { v > b } else { v < b });
            if better {
                best = Some((m, v));
                if maximising {
                    alpha = v;
                } else {
                    beta = v;
                }
            }
            if !self.distance && (alpha >= 1 || beta <= -1) {
                break;
            }
        }
        best
    }
}

/// Solves `state` (any player count; the searches are exact only when every hand is known, as
/// in a two-player game with the stock empty) for player `me`, who must be the one to act.
pub fn solve(state: &GameState, me: usize, budget: &EndgameBudget) -> EndgameAnswer {
    let mut answer = EndgameAnswer {
        outcome: Solved::Unknown,
        value: 0,
        best: None,
        line: Vec::new(),
        plies: 0,
        measured: false,
        nodes: 0,
    };
    if state.to_act() != Some(me) {
        return answer;
    }
    with_search(me, budget, |search| search_both(search, state, budget, &mut answer));
    answer
}

/// Each of the moves of the player to act (`me`), in search order, with its exact result
/// (win, draw or loss against the best replies), sharing the node budget; a move the budget or
/// the deadline left unsearched is [`Solved::Unknown`]. Empty when `me` is not to act.
pub fn solve_moves(state: &GameState, me: usize, budget: &EndgameBudget) -> Vec<(Action, Solved)> {
    if state.to_act() != Some(me) {
        return Vec::new();
    }
    let moves = Search::moves(state);
    let mut out: Vec<(Action, Solved)> = moves.iter().map(|&m| (m, Solved::Unknown)).collect();
    with_search(me, budget, |search| {
        for (m, result) in out.iter_mut() {
            let mut child = state.clone();
            if apply(&mut child, me, *m).is_err() {
                continue;
            }
            // The full window: each move's own value, not only whether it beats the best so far.
            let v = search.value(&child, -1, 1, 1);
            if search.stopped {
                break;
            }
            *result = match v {
                0 => Solved::Draw,
                v if v > 0 => Solved::Win,
                _ => Solved::Lose,
            };
        }
    });
    out
}

/// Runs `f` on a search over this thread's transposition table, (re)made to the budget's size
/// (nothing runs when not even a small table can be had, as when the node budget runs out).
fn with_search(me: usize, budget: &EndgameBudget, f: impl FnOnce(&mut Search<'_>)) {
    TABLE.with(|t| {
        let Ok(mut guard) = t.try_borrow_mut() else {
            return;
        };
        let (table, generation) = &mut *guard;
        let max_entries = budget.table_entries.max(1);
        if table.len() > max_entries || *generation > u16::MAX - 4 {
            *table = Vec::new();
            *generation = 0;
        }
        if table.is_empty() {
            let first = FIRST_ENTRIES.min(max_entries);
            if table.try_reserve_exact(first).is_err() {
                return;
            }
            table.resize(first, Entry::default());
        }
        let mut search = Search {
            table,
            max_entries,
            filled: 0,
            generation: *generation + 1,
            distance: false,
            me,
            nodes: 0,
            max_nodes: budget.max_nodes,
            stopped: false,
        };
        f(&mut search);
        *generation = search.generation;
    });
}

/// First the outcome (win/draw/loss, cheap), then with as many nodes again the fastest win or
/// slowest loss; if that runs out, the proven outcome's play stands, unmeasured.
fn search_both(search: &mut Search<'_>, state: &GameState, budget: &EndgameBudget, answer: &mut EndgameAnswer) {
    let me = search.me;
    let Some((best, value)) = search.best(state, me) else {
        answer.nodes = search.nodes;
        return;
    };
    answer.best = Some(best);
    answer.value = value;
    answer.outcome = match value {
        0 => Solved::Draw,
        v if v > 0 => Solved::Win,
        _ => Solved::Lose,
    };
    let proven = search.nodes;
    search.generation += 1;
    search.distance = true;
    search.max_nodes = proven.saturating_add(budget.max_nodes);
    if let Some((fast, v)) = search.best(state, me).filter(|(_, v)| v.signum() == value.signum()) {
        answer.best = Some(fast);
        answer.value = v;
        answer.measured = true;
        answer.plies = if v == 0 { 0 } else { (WIN - v.abs()) as u32 };
        answer.line = principal_line(search, state, fast, budget.line_len);
    } else {
        search.generation += 1;
        search.distance = false;
        search.stopped = false;
        search.max_nodes = search.nodes.saturating_add(budget.max_nodes);
        answer.line = principal_line(search, state, best, budget.line_len);
    }
    answer.nodes = search.nodes;
}

/// The line from `state`: `first`, then each player's best reply in turn.
fn principal_line(search: &mut Search<'_>, state: &GameState, first: Action, len: usize) -> Vec<(usize, Action)> {
    let mut line = Vec::new();
    let mut st = state.clone();
    let mut next = Some(first);
    while let (Some(a), Some(p)) = (next, st.to_act()) {
        if line.len() >= len || apply(&mut st, p, a).is_err() {
            break;
        }
        line.push((p, a));
        next = st.to_act().and_then(|q| search.best(&st, q).map(|(m, _)| m));
    }
    line
}

/// The length of this thread's table now (tests watch it grow).
#[cfg(test)]
pub fn table_len() -> usize {
    TABLE.with(|t| t.borrow().0.len())
}

/// Plain minimax without table or pruning: the oracle the solver is tested against.
#[cfg(test)]
pub fn brute_force(state: &GameState, me: usize, ply: u32) -> i32 {
    let Some(p) = state.to_act() else {
        return state.outcome().map_or(0, |o| terminal(o, me));
    };
    assert!(ply < MAX_PLY, "the game should end");
    let values = super::game::legal_actions(state).into_iter().map(|m| {
        let mut child = state.clone();
        apply(&mut child, p, m).expect("a legal move applies");
        shift(brute_force(&child, me, ply + 1))
    });
    if p == me {
        values.max().unwrap_or(0)
    } else {
        values.min().unwrap_or(0)
    }
}
