//! `kibitzer play durak --seats durak,random --games N --seed S`: whole games between the rule AI
//! (a seat named `durak`, or a path to an edited `.rules` file), the native players `random`,
//! `lowest` and `reference`; per-seat durak rates with Wilson 95% intervals, draws, games/s.

use crate::durak::{wilson, Deck, GameOptions, MatchStats, RulePlayer};
use crate::durak::{LowestPlayer, Player, RandomPlayer, ReferencePlayer};
use crate::harness::{Loader, PlayOptions, Report, Watch};
use std::time::Instant;

/// The built-in players a seat may name.
pub(super) const PLAYERS: &[&str] = &["random", "lowest", "reference"];

/// Builds the player of one seat.
pub fn seat_player(
    name: &str,
    seat: usize,
    seed: u64,
    params: &[(String, String)],
    load: Loader,
) -> Result<Box<dyn Player>, String> {
    let choices = || super::ARENA.seat_choices();
    Ok(match name {
        "random" => Box::new(RandomPlayer::new(seed.wrapping_mul(31).wrapping_add(seat as u64 + 1))),
        "lowest" => Box::new(LowestPlayer),
        "reference" => Box::new(ReferencePlayer::default()),
        other => {
            let program = load(other).map_err(|e| {
                if other.ends_with(".rules") || other.contains('/') {
                    format!("seat {}: `{other}`: {e}", seat + 1)
                } else {
                    format!("seat {}: no durak player `{other}` ({})", seat + 1, choices())
                }
            })?;
            if program.relation("play").is_none() {
                return Err(format!(
                    "seat {}: rule set `{other}` has no `play` output: not a durak player ({})",
                    seat + 1,
                    choices()
                ));
            }
            let mut player = RulePlayer::new(program, other).keep_records(false);
            for (k, v) in params {
                player.session().set_param(k, v).map_err(|e| {
                    format!("setting {k}={v} (not a game setting: deck, transfer, five_before_first_discard): {e}")
                })?;
            }
            Box::new(player)
        }
    })
}

/// Plays the match with `watch` between games: each game finished is reported, and no game
/// starts once the caller or the `--timeout` stops the match.
fn play_watched(
    seats: &mut [Box<dyn Player>],
    games: usize,
    seed: u64,
    options: &GameOptions,
    watch: &Watch,
) -> Result<MatchStats, String> {
    let games = if watch.stopped() { 0 } else { games };
    let mut between = |done: u64| {
        watch.finished(done);
        !watch.stopped()
    };
    crate::durak::play_match_between(seats, games, seed, options, &mut between).map_err(|e| e.to_string())
}

/// Splits the arena settings into game options and rule-set parameters (any other `NAME=VALUE`,
/// given to every rule-AI seat as `--param NAME=VALUE`).
fn options(args: &[(String, String)]) -> Result<(GameOptions, Vec<(String, String)>), String> {
    let mut params = Vec::new();
    let mut o = GameOptions::default();
    let flag = |k: &str, v: &str| match v {
        "true" | "on" | "yes" | "1" => Ok(true),
        "false" | "off" | "no" | "0" => Ok(false),
        _ => Err(format!("{k}={v}: expected true or false")),
    };
    for (k, v) in args {
        match k.as_str() {
            "deck" => {
                o.deck = v
                    .parse::<usize>()
                    .ok()
                    .and_then(|n| Deck::from_size(n).ok())
                    .ok_or_else(|| format!("deck={v}: 24, 32, 36 or 52"))?
            }
            "transfer" => o.transfer = flag(k, v)?,
            "five_before_first_discard" => o.five_before_first_discard = flag(k, v)?,
            _ => params.push((k.clone(), v.clone())),
        }
    }
    Ok((o, params))
}

/// The `durak` arena.
pub fn run(opts: &PlayOptions, report: Report) -> Result<(), String> {
    let n = opts.seats.len();
    if !(2..=6).contains(&n) {
        return Err(format!("durak needs 2 to 6 seats, got {n} (e.g. --seats durak,random)"));
    }
    let (options, params) = options(&opts.args)?;
    if n * 6 > options.deck.size() {
        return Err(format!(
            "{n} players need {} cards; the {}-card deck is too small",
            n * 6,
            options.deck.size()
        ));
    }
    let mut seats = opts
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| seat_player(s.trim(), i, opts.seed, &params, opts.load))
        .collect::<Result<Vec<_>, _>>()?;
    let games = usize::try_from(opts.games).map_err(|_| "too many games".to_string())?;
    let shown: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    report(&format!(
        "durak: {} games, {} players, {}-card deck{}{}, seed {}{}, positions rotate every game",
        games,
        n,
        options.deck.size(),
        if options.transfer { ", transfer on" } else { "" },
        if options.five_before_first_discard {
            ""
        } else {
            ", no 5-card limit before the first discard"
        },
        opts.seed,
        if shown.is_empty() {
            String::new()
        } else {
            format!(", rule parameters {}", shown.join(" "))
        }
    ));
    let start = Instant::now();
    let stats = play_watched(&mut seats, games, opts.seed, &options, &opts.watch)?;
    let secs = start.elapsed().as_secs_f64();
    let width = opts.seats.iter().map(|s| s.len()).max().unwrap_or(0).max(6);
    report(&format!(
        "{:<6} {:<width$}  {:>14}  {:>7}  95% CI",
        "seat", "player", "durak (lost)", "rate"
    ));
    for (i, name) in opts.seats.iter().enumerate() {
        let (lo, hi) = stats.durak_interval(i);
        let lost = format!("{} of {}", stats.durak.get(i).copied().unwrap_or(0), stats.games);
        report(&format!(
            "seat {:<1} {:<width$}  {:>14}  {:>6.2}%  [{:.2}%, {:.2}%]",
            i + 1,
            name,
            lost,
            100.0 * stats.durak_rate(i),
            100.0 * lo,
            100.0 * hi
        ));
    }
    let (dlo, dhi) = wilson(stats.draws, stats.games);
    report(&format!(
        "draws {} = {:.2}% [{:.2}%, {:.2}%], aborted {}",
        stats.draws,
        100.0 * stats.draws as f64 / stats.games.max(1) as f64,
        100.0 * dlo,
        100.0 * dhi,
        stats.aborted
    ));
    let rates: Vec<String> = (0..n)
        .map(|i| {
            let (_, hi) = stats.durak_interval(i);
            format!(
                "seat{}_durak_rate={:.4} seat{}_durak_hi={:.4}",
                i + 1,
                stats.durak_rate(i),
                i + 1,
                hi
            )
        })
        .collect();
    report(&format!(
        "games={} {} draws={} games_per_s={:.0} actions_per_game={:.1}",
        stats.games,
        rates.join(" "),
        stats.draws,
        stats.games as f64 / secs.max(1e-9),
        stats.actions as f64 / stats.games.max(1) as f64
    ));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::sync::Arc;

    fn seats() -> Vec<Box<dyn Player>> {
        vec![
            Box::new(RandomPlayer::new(3)),
            Box::new(LowestPlayer),
            Box::new(ReferencePlayer::default()),
        ]
    }

    #[test]
    fn the_watched_match_plays_the_games_play_match_plays() {
        let options = GameOptions::default();
        for seed in [1, 7] {
            let native = crate::durak::play_match(&mut seats(), 30, seed, &options).unwrap();
            let watched = play_watched(&mut seats(), 30, seed, &options, &Watch::default()).unwrap();
            assert_eq!(native, watched);
        }
    }

    #[test]
    fn a_stop_ends_the_match_after_the_game_being_played() {
        let stop = Arc::new(AtomicBool::new(false));
        let seen = Arc::new(AtomicU64::new(0));
        let (flag, count) = (stop.clone(), seen.clone());
        let watch = Watch {
            stop: Some(stop),
            on_game: Some(Arc::new(move |done| {
                count.store(done, Ordering::Relaxed);
                if done == 4 {
                    flag.store(true, Ordering::Relaxed);
                }
            })),
        };
        let options = GameOptions::default();
        let stats = play_watched(&mut seats(), 30, 1, &options, &watch).unwrap();
        assert_eq!((stats.games, seen.load(Ordering::Relaxed)), (4, 4));
        let first4 = crate::durak::play_match(&mut seats(), 4, 1, &options).unwrap();
        assert_eq!(stats, first4);
    }
}
