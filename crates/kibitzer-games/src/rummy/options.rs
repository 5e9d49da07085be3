//! Options of an evaluation (what the rules of the game leave to the variant).

use super::error::RummyError;

/// Variant and output options. `Default` is the game of `docs/rummy.md`: ace low only, touching runs
/// merged, no wild rank, jokers worth 0 deadwood points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// Q-K-A runs allowed (the ace is low or high, never both in one run: no K-A-2 wrap and no
    /// 14-card A..K..A run, since that would hold the same ace twice).
    pub ace_high: bool,
    /// Count and list split forms of touching runs (2-3-4 + 5-6-7 besides 2..7) as distinct.
    pub split_runs: bool,
    /// A declared wild rank (0..=12): its cards may stand for any missing card of a meld, or
    /// be used as themselves.
    pub wild_rank: Option<u8>,
    /// Deadwood points of a printed joker or a wild card left in the dump.
    pub joker_points: u32,
    /// Most arrangements materialised by a listing (counts are always exact).
    pub list_limit: usize,
    /// Work budget: nodes of the joker search, states × column options of one island solve.
    pub node_budget: u64,
}

/// The default `node_budget` (the island cache serves solves under this budget only).
pub const DEFAULT_NODE_BUDGET: u64 = 20_000_000;

impl Default for Options {
    fn default() -> Self {
        Options {
            ace_high: false,
            split_runs: false,
            wild_rank: None,
            joker_points: 0,
            list_limit: 1000,
            node_budget: DEFAULT_NODE_BUDGET,
        }
    }
}

impl Options {
    /// Checks the values a user can set from the outside.
    pub fn validate(&self) -> Result<(), RummyError> {
        match self.wild_rank {
            Some(rank) if rank > 12 => Err(RummyError::BadWildRank { rank }),
            _ => Ok(()),
        }
    }
}
