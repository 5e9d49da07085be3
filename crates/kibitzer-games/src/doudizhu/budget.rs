//! Search limits and the answer a search gives.

use std::time::{Duration, Instant};

use super::play::Play;

/// Limits of one search. When a limit is hit the answer is [`Outcome::Unknown`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Most positions visited.
    pub max_nodes: u64,
    /// Most bytes for the transposition table (allocated lazily, grown by doubling).
    pub max_table_bytes: usize,
    /// Optional wall-clock limit.
    pub time_limit: Option<Duration>,
    /// Extra positions the principal line may cost once the outcome is proven: within it the
    /// winner's moves are the fastest wins and the loser's hold out longest; past it the line
    /// takes the first move in search order. 0 = always the first move in search order.
    pub line_nodes: u64,
}

impl Default for Budget {
    /// 200 million positions, a 1 GiB table, no time limit, 200,000 positions for the line.
    fn default() -> Budget {
        Budget {
            max_nodes: 200_000_000,
            max_table_bytes: 1 << 30,
            time_limit: None,
            line_nodes: 200_000,
        }
    }
}

/// Result for the side to move (in the three-player game: for its team).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move wins whatever the others do.
    Win,
    /// The other side can force a win.
    Lose,
    /// Not decided within the budget.
    Unknown,
}

impl Outcome {
    /// `win`, `lose` or `unknown`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Lose => "lose",
            Outcome::Unknown => "unknown",
        }
    }
}

/// What a solver answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// Win, lose, or unknown within the budget.
    pub outcome: Outcome,
    /// The recommended play: a winning one when winning; when losing, the one that holds
    /// out longest (see the module documentation). `None` with `pass == true` means
    /// "pass"; `None` with `pass == false` means no recommendation (unknown).
    pub best: Option<Play>,
    /// True when the recommended move is to pass.
    pub pass: bool,
    /// A principal line from the position, one entry per turn in turn order, `None` =
    /// pass. Empty when the outcome is unknown.
    pub line: Vec<Option<Play>>,
    /// Positions visited (all searches of this call together, the line's included).
    pub nodes: u64,
    /// Positions visited to prove the outcome (before the line was chosen).
    pub proof_nodes: u64,
    /// True when every move of the line was chosen by measuring (the winner fastest, the
    /// loser holding out longest); false when `line_nodes` ran out first and the rest of the
    /// line follows search order (so "holds out longest" is only the longest found).
    pub line_measured: bool,
}

/// Counts nodes and watches the clock; `exhausted` once a limit is hit.
pub(crate) struct Meter {
    pub nodes: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    pub exhausted: bool,
}

impl Meter {
    pub fn new(budget: &Budget) -> Meter {
        Meter {
            nodes: 0,
            max_nodes: budget.max_nodes,
            deadline: budget.time_limit.map(|d| Instant::now() + d),
            exhausted: false,
        }
    }

    /// Counts one node; false when the budget is spent.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            self.exhausted = true;
        } else if self.nodes & 1023 == 0 {
            // The search's own limit and the run's deadline (`crate::budget`), read once every
            // 1024 nodes: past either, the answer is "unknown".
            if self.deadline.is_some_and(|d| Instant::now() >= d) || crate::budget::expired() {
                self.exhausted = true;
            }
        }
        !self.exhausted
    }
}
