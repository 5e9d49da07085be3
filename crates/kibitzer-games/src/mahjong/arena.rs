//! Matches between two seats: many games with alternating dealer, and their statistics.

use serde::Serialize;

use super::game::{Game, Outcome};
use super::player::Player;

/// Results of a match.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchStats {
    /// Names of the two seats.
    pub names: [String; 2],
    /// Games played.
    pub games: u32,
    /// Wins per seat.
    pub wins: [u32; 2],
    /// Of which self-drawn.
    pub self_drawn: [u32; 2],
    /// Exhaustive draws.
    pub draws: u32,
    /// Illegal actions per seat (each replaced by a fallback).
    pub misplays: [u32; 2],
    /// The first illegal action, for diagnosis.
    pub first_misplay: Option<String>,
    /// Discards made over all games.
    pub turns: u64,
}

impl MatchStats {
    /// Seat's wins over all games, with its 95% Wilson interval.
    pub fn win_rate(&self, seat: usize) -> (f64, f64, f64) {
        let w = self.wins[seat % 2];
        let (lo, hi) = wilson_interval(w as u64, self.games as u64);
        (ratio(w as u64, self.games as u64), lo, hi)
    }

    /// Seat 0's share of the decided games (draws left out), with its 95% Wilson interval:
    /// "seat 0 beats seat 1" when the lower bound is above 0.5.
    pub fn decisive_share(&self) -> (f64, f64, f64) {
        let decided = (self.wins[0] + self.wins[1]) as u64;
        let (lo, hi) = wilson_interval(self.wins[0] as u64, decided);
        (ratio(self.wins[0] as u64, decided), lo, hi)
    }

    /// Human lines: one per seat, draws, the head-to-head share.
    pub fn report(&self) -> String {
        let mut out = String::new();
        for seat in 0..2 {
            let (r, lo, hi) = self.win_rate(seat);
            out.push_str(&format!(
                "seat {} {:<8} wins {:>6} ({:.1}%, 95% CI {:.1}–{:.1}%), self-drawn {}, misplays {}\n",
                seat + 1,
                self.names[seat],
                self.wins[seat],
                100.0 * r,
                100.0 * lo,
                100.0 * hi,
                self.self_drawn[seat],
                self.misplays[seat]
            ));
        }
        let (s, lo, hi) = self.decisive_share();
        out.push_str(&format!(
            "draws {} of {} games; {} takes {:.1}% of decided games (95% CI {:.1}–{:.1}%)\n",
            self.draws,
            self.games,
            self.names[0],
            100.0 * s,
            100.0 * lo,
            100.0 * hi
        ));
        out
    }
}

fn ratio(k: u64, n: u64) -> f64 {
    if n == 0 {
        0.0
    } else {
        k as f64 / n as f64
    }
}

/// 95% Wilson score interval of `successes` out of `trials` ((0, 1) when there are no trials).
pub fn wilson_interval(successes: u64, trials: u64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = trials as f64;
    let p = successes.min(trials) as f64 / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n) + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// SplitMix64: spreads the match seed into one independent seed per game.
fn game_seed(seed: u64, game: u64) -> u64 {
    let mut z = seed.wrapping_add(game.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays `games` games; the dealer alternates (seat 0 deals the even games). Deterministic in
/// `seed`: game `g` is dealt from its own seed, so results do not depend on earlier games.
pub fn play_match(seats: [&mut dyn Player; 2], games: u32, seed: u64) -> MatchStats {
    play_match_between(seats, games, seed, &mut |_| true)
}

/// [`play_match`], calling `between` after each game with the number of games finished: it
/// returns false to end the match there (a caller showing progress, or stopped by the user).
pub fn play_match_between(
    seats: [&mut dyn Player; 2],
    games: u32,
    seed: u64,
    between: &mut dyn FnMut(u64) -> bool,
) -> MatchStats {
    let [a, b] = seats;
    let mut seats: [&mut dyn Player; 2] = [a, b];
    let mut stats = MatchStats {
        names: [seats[0].name(), seats[1].name()],
        games,
        wins: [0; 2],
        self_drawn: [0; 2],
        draws: 0,
        misplays: [0; 2],
        first_misplay: None,
        turns: 0,
    };
    for g in 0..games as u64 {
        // A `--timeout` ends the match between games; `stats.games` counts those played.
        if crate::budget::expired() {
            stats.games = g as u32;
            break;
        }
        let s = game_seed(seed, g);
        for (i, seat) in seats.iter_mut().enumerate() {
            seat.start_game(i, s);
        }
        let result = Game::new(s, (g % 2) as usize).play(&mut seats);
        // A game the deadline cut short is not counted: the match ends with the games finished.
        if crate::budget::expired() {
            stats.games = g as u32;
            break;
        }
        stats.turns += result.turns as u64;
        for m in &result.misplays {
            stats.misplays[m.seat % 2] += 1;
            if stats.first_misplay.is_none() {
                stats.first_misplay = Some(format!("game {g}: seat {} {}: {}", m.seat + 1, m.action, m.reason));
            }
        }
        match result.outcome {
            Outcome::Win { seat, self_drawn, .. } => {
                stats.wins[seat % 2] += 1;
                stats.self_drawn[seat % 2] += self_drawn as u32;
            }
            Outcome::Draw => stats.draws += 1,
        }
        if !between(g + 1) {
            stats.games = (g + 1) as u32;
            break;
        }
    }
    stats
}

#[cfg(test)]
mod tests {
    use super::super::players::{RandomPlayer, ReferencePlayer, StrongPlayer};
    use super::*;

    #[test]
    fn wilson_matches_known_values() {
        let (lo, hi) = wilson_interval(50, 100);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3, "{lo} {hi}");
        assert_eq!(wilson_interval(0, 0), (0.0, 1.0));
        let (lo, _) = wilson_interval(0, 10);
        assert_eq!(lo, 0.0);
    }

    #[test]
    fn matches_are_deterministic_and_conserve_tiles() {
        // Conservation is asserted inside the engine after every step in test builds.
        let run = || {
            let mut a = ReferencePlayer::default();
            let mut b = RandomPlayer::new(1);
            play_match([&mut a, &mut b], 60, 42)
        };
        let first = run();
        assert_eq!(first, run());
        assert_eq!(first.misplays, [0, 0], "{:?}", first.first_misplay);
        assert_eq!(first.wins[0] + first.wins[1] + first.draws, 60);
    }

    #[test]
    fn strong_beats_seed_and_both_beat_random() {
        let mut strong = StrongPlayer::default();
        let mut seed = ReferencePlayer::default();
        let mut random = RandomPlayer::new(7);
        let sv = play_match([&mut strong, &mut seed], 2000, 11);
        eprintln!("{}", sv.report());
        assert_eq!(sv.misplays, [0, 0], "{:?}", sv.first_misplay);
        assert!(sv.decisive_share().1 > 0.5, "{}", sv.report());
        let sr = play_match([&mut strong, &mut random], 200, 2);
        eprintln!("{}", sr.report());
        assert!(sr.decisive_share().1 > 0.5, "{}", sr.report());
        let dr = play_match([&mut seed, &mut random], 200, 3);
        eprintln!("{}", dr.report());
        assert!(dr.decisive_share().1 > 0.5, "{}", dr.report());
    }

    #[test]
    #[ignore]
    fn compare_strong_variants() {
        for (policy, fold_at, defense) in [(0, 2, 0), (0, 2, 1), (0, 2, 2), (1, 2, 1)] {
            let mut strong = StrongPlayer {
                call_policy: policy,
                fold_at,
                defense,
                ..StrongPlayer::default()
            };
            let mut seed = ReferencePlayer::default();
            let sv = play_match([&mut strong, &mut seed], 2000, 11);
            eprintln!(
                "policy {policy} fold {fold_at} defense {defense} turns/game {:.1}\n{}",
                sv.turns as f64 / sv.games as f64,
                sv.report()
            );
        }
    }
}
