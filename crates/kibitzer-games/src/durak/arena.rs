//! Whole games between players, and match statistics with Wilson intervals.

use super::error::DurakError;
use super::game::{apply, legal_actions_into, GameOptions, GameState, Outcome};
use super::players::Player;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The result of a match, by seat (index into the `seats` given to [`play_match`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchStats {
    /// Games played (fewer than asked when a `--timeout` ended the match).
    pub games: usize,
    /// Games each seat ended as the durak.
    pub durak: Vec<usize>,
    /// Games that ended in a draw (everyone went out together).
    pub draws: usize,
    /// Games stopped by the action budget.
    pub aborted: usize,
    /// Actions played over the match (decisions actually asked of players).
    pub actions: u64,
}

impl MatchStats {
    /// Share of games `seat` lost (was the durak).
    pub fn durak_rate(&self, seat: usize) -> f64 {
        let d = self.durak.get(seat).copied().unwrap_or(0);
        if self.games == 0 {
            0.0
        } else {
            d as f64 / self.games as f64
        }
    }

    /// Wilson 95% interval of `seat`'s durak rate.
    pub fn durak_interval(&self, seat: usize) -> (f64, f64) {
        wilson(self.durak.get(seat).copied().unwrap_or(0), self.games)
    }
}

/// Wilson score 95% interval (z = 1.96) for `successes` out of `trials`; (0, 1) when no trials.
pub fn wilson(successes: usize, trials: usize) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = trials as f64;
    let p = successes.min(trials) as f64 / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Plays one game to the end. `seat_at[position]` is the index into `seats` of the player at
/// that position. Returns the outcome by position.
pub fn play_game(
    state: &mut GameState,
    seats: &mut [Box<dyn Player>],
    seat_at: &[usize],
) -> Result<Outcome, DurakError> {
    let mut legal = Vec::with_capacity(64);
    while let Some(pos) = state.to_act() {
        legal_actions_into(state, &mut legal);
        let seat = seat_at.get(pos).copied().unwrap_or(pos);
        let player = seats.get_mut(seat).ok_or(DurakError::PlayerFailed {
            seat,
            message: "no player in this seat".to_string(),
        })?;
        let view = state.view(pos);
        let action = player.act(&view, &legal)?;
        apply(state, pos, action).map_err(|e| DurakError::PlayerFailed {
            seat,
            message: format!("{} misplayed: {e}", player.name()),
        })?;
    }
    state.outcome().ok_or(DurakError::GameOver)
}

/// Plays `games` games among `seats` (one per player; the player count is `seats.len()`,
/// `options.players` is ignored). Positions rotate each game (seat s sits at position
/// (s + g) mod n in game g) so no seat keeps a positional edge; each deal is shuffled from a
/// ChaCha8 stream seeded with `seed`. Same seats, seed and options ⇒ same statistics.
pub fn play_match(
    seats: &mut [Box<dyn Player>],
    games: usize,
    seed: u64,
    options: &GameOptions,
) -> Result<MatchStats, DurakError> {
    play_match_between(seats, games, seed, options, &mut |_| true)
}

/// [`play_match`], calling `between` after each game with the number of games finished: it
/// returns false to end the match there (a caller showing progress, or stopped by the user).
pub fn play_match_between(
    seats: &mut [Box<dyn Player>],
    games: usize,
    seed: u64,
    options: &GameOptions,
    between: &mut dyn FnMut(u64) -> bool,
) -> Result<MatchStats, DurakError> {
    let n = seats.len();
    let opts = GameOptions { players: n, ..*options };
    let mut stats = MatchStats {
        games: 0,
        durak: vec![0; n],
        draws: 0,
        aborted: 0,
        actions: 0,
    };
    let mut deals = ChaCha8Rng::seed_from_u64(seed);
    let mut seat_at = vec![0usize; n];
    for g in 0..games {
        // A `--timeout` ends the match between games; `stats.games` counts those played.
        if crate::budget::expired() {
            break;
        }
        let mut state = GameState::new(&opts, deals.next_u64())?;
        for (pos, slot) in seat_at.iter_mut().enumerate() {
            *slot = (pos + n - g % n) % n;
        }
        let outcome = play_game(&mut state, seats, &seat_at);
        // A game the deadline cut short is not counted: the match ends with the games finished.
        if crate::budget::expired() {
            break;
        }
        let outcome = outcome?;
        stats.games += 1;
        stats.actions += state.actions();
        match outcome {
            Outcome::Durak(pos) => {
                if let Some(d) = seat_at.get(pos).and_then(|s| stats.durak.get_mut(*s)) {
                    *d += 1;
                }
            }
            Outcome::Draw => stats.draws += 1,
            Outcome::Aborted => stats.aborted += 1,
        }
        if !between(stats.games as u64) {
            break;
        }
    }
    Ok(stats)
}
