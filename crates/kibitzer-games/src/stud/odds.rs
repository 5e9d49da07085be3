//! The answer of an equity computation.

/// Wins, ties and losses of me against the table over the deals of the unknown cards.
///
/// Multiway: a **win** is a deal where my hand beats every opponent's strictly; a **tie** one where
/// no opponent beats me but at least one equals me (the pot is split between the equal best hands);
/// a **loss** any other deal.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Odds {
    /// Deals I win outright.
    pub wins: u64,
    /// Deals where I share the best hand.
    pub ties: u64,
    /// Deals where someone beats me.
    pub losses: u64,
    /// Deals counted: all of them when exact, the samples for Monte Carlo.
    pub total: u64,
    /// `ties_split[n]`: tie deals where the pot is shared by n players (n = 2..=5).
    pub ties_split: [u64; 6],
    /// Share of deals won: `wins / total`.
    pub p_win: f64,
    /// Share of deals tied: `ties / total`.
    pub p_tie: f64,
    /// Share of deals lost: `losses / total`.
    pub p_loss: f64,
    /// Expected share of the pot: `(wins + Σ ties_split[n] / n) / total`.
    pub equity: f64,
    /// Standard error of `p_win` (0 when exact).
    pub std_error: f64,
    /// Half-width of the 95% interval of `p_win`: 1.96 × std_error, at least 3 / samples (the
    /// rule of three, for p near 0 or 1); 0 when exact.
    pub ci95: f64,
    /// Whether every deal was counted (no sampling).
    pub exact: bool,
    /// Number of distinct deals of the unknown cards (the population; saturating).
    pub deals: u128,
}

/// Raw counts gathered by the counting methods.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Tally {
    pub(super) wins: u64,
    pub(super) losses: u64,
    pub(super) ties_split: [u64; 6],
}

impl Tally {
    pub(super) fn ties(&self) -> u64 {
        self.ties_split.iter().sum()
    }

    /// Records one deal given my rank, the best opponent rank and how many opponents hold it.
    #[inline]
    pub(super) fn record(&mut self, mine: u32, best_opponent: u32, opponents_at_best: usize) {
        match mine.cmp(&best_opponent) {
            std::cmp::Ordering::Greater => self.wins += 1,
            std::cmp::Ordering::Equal => self.ties_split[(opponents_at_best + 1).min(5)] += 1,
            std::cmp::Ordering::Less => self.losses += 1,
        }
    }

    /// Turns counts into odds; Monte Carlo passes `exact = false` to get error bars.
    pub(super) fn into_odds(self, exact: bool, deals: u128) -> Odds {
        let ties = self.ties();
        let total = self.wins + ties + self.losses;
        let n = total.max(1) as f64;
        let p_win = self.wins as f64 / n;
        let shared: f64 = self
            .ties_split
            .iter()
            .enumerate()
            .skip(2)
            .map(|(players, &count)| count as f64 / players as f64)
            .sum();
        let std_error = if exact { 0.0 } else { (p_win * (1.0 - p_win) / n).sqrt() };
        // At p = 0 or 1 the normal interval collapses; the rule of three (3/n) keeps it honest.
        let ci95 = if exact { 0.0 } else { (1.96 * std_error).max(3.0 / n) };
        Odds {
            wins: self.wins,
            ties,
            losses: self.losses,
            total,
            ties_split: self.ties_split,
            p_win,
            p_tie: ties as f64 / n,
            p_loss: self.losses as f64 / n,
            equity: (self.wins as f64 + shared) / n,
            std_error,
            ci95,
            exact,
            deals,
        }
    }
}
