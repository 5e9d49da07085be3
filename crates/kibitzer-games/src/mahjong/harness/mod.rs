//! mahjong's benchmark (`kibitzer bench mahjong`) and arena (`kibitzer play mahjong`).

mod hands_file;
mod native;
mod rules;

use std::time::Instant;

use crate::harness::{Arena, BenchOptions, Loader, PlayOptions, Report, Watch, Workload};
use crate::mahjong::rule_player::RulePlayer;
use crate::mahjong::MatchStats;
use crate::mahjong::{Levers, LookaheadPlayer, Player, RandomPlayer, ReferencePlayer, StrongPlayer};
use native::{run_bench, run_bench_quick};

pub(super) const WORKLOAD: Workload = Workload {
    name: "mahjong",
    about: "win checks, shanten and waits per second (random and near-ready hands), decision time of the rule set and of the native player, arena games per second",
    run: bench,
};

pub(super) const ARENA: Arena = Arena {
    game: "mahjong",
    about: "two-player mahjong (64 tiles + flowers): seats are rule sets (mahjong, mahjong_reference or a .rules path) or native players (random, reference, strong, strong-plain, lookahead, lookahead-B-H, lookahead/LEVERS)",
    players: &["random", "reference", "strong", "strong-plain", "lookahead", "lookahead-B-H", "lookahead/LEVERS"],
    rule_sets: &["mahjong", "mahjong_reference"],
    run: arena,
};

/// A seat: native, or a rule set whose failed decisions are reported.
enum Seat {
    /// A native player.
    Native(Box<dyn Player>),
    /// A rule set.
    Rules(Box<RulePlayer>),
}

impl Seat {
    /// A seat by name: a native player, else a rule set (shipped name or path).
    fn by_name(name: &str, index: usize, seed: u64, load: Loader) -> Result<Seat, String> {
        Ok(match name {
            "random" => Seat::Native(Box::new(RandomPlayer::new(seed ^ (index as u64 + 1)))),
            // `seed` is the reference bot's former name, still read.
            "reference" | "seed" => Seat::Native(Box::new(ReferencePlayer::default())),
            "strong" => Seat::Native(Box::new(StrongPlayer::default())),
            "strong-plain" => Seat::Native(Box::new(StrongPlayer::plain())),
            "lookahead" => Seat::Native(Box::new(LookaheadPlayer::default())),
            levers if levers.starts_with("lookahead/") => {
                let levers = Levers::parse(&levers["lookahead/".len()..]).ok_or_else(|| {
                    format!(
                        "seat {}: `lookahead/LEVERS` takes levers joined by `+`: read, rons, rons-declared, rons-no-calls, hands, race, value, margin-X, or none",
                        index + 1
                    )
                })?;
                Seat::Native(Box::new(LookaheadPlayer {
                    levers,
                    ..LookaheadPlayer::default()
                }))
            }
            tuned if tuned.starts_with("lookahead-") => {
                // The ranges of `mahjong.rules`'s `budget` and `horizon` parameters.
                let bad = || {
                    format!(
                        "seat {}: `lookahead-B-H` takes a search budget B from 0 to 100000 and a horizon H from 1 to 68",
                        index + 1
                    )
                };
                let (b, h) = tuned["lookahead-".len()..].split_once('-').ok_or_else(bad)?;
                let in_range = |text: &str, range: std::ops::RangeInclusive<usize>| {
                    text.parse().ok().filter(|n| range.contains(n)).ok_or_else(bad)
                };
                Seat::Native(Box::new(LookaheadPlayer {
                    budget: in_range(b, 0..=100_000)?,
                    horizon: in_range(h, 1..=68)?,
                    ..LookaheadPlayer::default()
                }))
            }
            other => {
                let file = if other == "mahjong-reference" {
                    "mahjong_reference"
                } else {
                    other
                };
                let program = load(file).map_err(|e| {
                    if other.ends_with(".rules") || other.contains('/') {
                        format!("seat {}: {e}", index + 1)
                    } else {
                        format!(
                            "seat {}: no mahjong player `{other}` ({})",
                            index + 1,
                            ARENA.seat_choices()
                        )
                    }
                })?;
                if program.relation("discard").is_none() || program.relation("call").is_none() {
                    return Err(format!(
                        "seat {}: rule set `{}` concludes no `discard` and `call`: not a mahjong player ({})",
                        index + 1,
                        program.name(),
                        ARENA.seat_choices()
                    ));
                }
                Seat::Rules(Box::new(RulePlayer::new(other, program)))
            }
        })
    }

    fn player(&mut self) -> &mut dyn Player {
        match self {
            Seat::Native(p) => p.as_mut(),
            Seat::Rules(r) => r.as_mut(),
        }
    }
}

fn arena(opts: &PlayOptions, report: Report) -> Result<(), String> {
    let names: Vec<String> = if opts.seats.is_empty() {
        vec!["mahjong".to_string(), "mahjong_reference".to_string()]
    } else {
        opts.seats.clone()
    };
    if names.len() != 2 {
        return Err(format!("two-player mahjong needs exactly 2 seats, got {}", names.len()));
    }
    if let Some((k, _)) = opts.args.first() {
        return Err(format!("the mahjong arena takes no setting `{k}`"));
    }
    let games = u32::try_from(opts.games).map_err(|_| format!("--games {} is too many", opts.games))?;
    let mut a = Seat::by_name(&names[0], 0, opts.seed, opts.load)?;
    let mut b = Seat::by_name(&names[1], 1, opts.seed, opts.load)?;
    report(&format!(
        "mahjong arena: {} vs {}, {} games, seed {}, dealer alternates",
        names[0], names[1], games, opts.seed
    ));
    let start = Instant::now();
    let stats = play_watched([a.player(), b.player()], games, opts.seed, &opts.watch);
    let secs = start.elapsed().as_secs_f64();
    // The games played: fewer than asked when the match was stopped.
    let games = stats.games;
    let width = names.iter().map(|s| s.len()).max().unwrap_or(0).max(6);
    report(&format!(
        "{:<6} {:<width$}  {:>6}  {:>6}  {:<14}  {:>10}  {:>8}",
        "seat", "player", "wins", "rate", "95% CI", "self-drawn", "misplays"
    ));
    for (i, name) in names.iter().enumerate() {
        let (rate, lo, hi) = stats.win_rate(i);
        report(&format!(
            "seat {} {:<width$}  {:>6}  {:>5.1}%  {:<14}  {:>10}  {:>8}",
            i + 1,
            name,
            stats.wins[i],
            100.0 * rate,
            format!("[{:.1}%, {:.1}%]", 100.0 * lo, 100.0 * hi),
            stats.self_drawn[i],
            stats.misplays[i]
        ));
    }
    let (share, lo, hi) = stats.decisive_share();
    report(&format!(
        "draws {} of {} games; {} takes {:.1}% of decided games (95% CI {:.1}–{:.1}%)",
        stats.draws,
        games,
        names[0],
        100.0 * share,
        100.0 * lo,
        100.0 * hi
    ));
    if let Some(m) = &stats.first_misplay {
        report(&format!("first misplay (replaced by a fallback): {m}"));
    }
    for (i, s) in [&a, &b].into_iter().enumerate() {
        if let Seat::Rules(r) = s {
            if r.failures > 0 {
                report(&format!(
                    "seat {} {}: {} decision(s) the rules could not make (fallback played), first: {}",
                    i + 1,
                    names[i],
                    r.failures,
                    r.first_failure.as_deref().unwrap_or("")
                ));
            }
        }
    }
    let per_game = stats.turns as f64 / f64::from(games.max(1));
    report(&format!(
        "{:.1} discards per game; {:.0} games/s ({:.2} s)",
        per_game,
        f64::from(games) / secs.max(1e-9),
        secs
    ));
    Ok(())
}

/// Plays the match with `watch` between games: each game finished is reported, and no game
/// starts once the caller or the `--timeout` stops the match.
fn play_watched(seats: [&mut dyn Player; 2], games: u32, seed: u64, watch: &Watch) -> MatchStats {
    let games = if watch.stopped() { 0 } else { games };
    let mut between = |done: u64| {
        watch.finished(done);
        !watch.stopped()
    };
    crate::mahjong::play_match_between(seats, games, seed, &mut between)
}

fn bench(opts: &BenchOptions, report: Report) -> Result<(), String> {
    // `only=rules`: the rule side alone (decision times, rule-vs-rule games), for rule authors
    // timing an edit and for profiling the engine without the native tables' share.
    // `hands=FILE [results=OUT]`: shanten of the hands in FILE, for another implementation timed
    // and checked on the same hands (benches/mahjong/run.sh).
    let setting = |name: &str| opts.args.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    if let Some(path) = setting("hands") {
        if let Some((k, _)) = opts.args.iter().find(|(k, _)| k != "hands" && k != "results") {
            return Err(format!(
                "with `hands=` the mahjong bench takes only `results=`, not `{k}`"
            ));
        }
        for line in hands_file::run(path, setting("results"))? {
            report(&line);
        }
        return Ok(());
    }
    // `only=rules rules=PATH`: the rule side with an edited copy of `mahjong.rules`; `games=N`: the
    // rule-vs-rule match's length (0: decisions only, for a profiler).
    let mut rules_only = false;
    let mut edited = None;
    let mut match_games = None;
    for (k, v) in &opts.args {
        match (k.as_str(), v.as_str()) {
            ("only", "rules") => rules_only = true,
            ("rules", path) => edited = Some(path),
            ("games", n) => {
                match_games = Some(crate::harness::count_setting("games", n, 0..=100_000)? as u32);
            }
            _ => {
                return Err(format!(
                "the mahjong bench takes `only=rules [rules=PATH] [games=N]` or `hands=FILE [results=OUT]`, not `{k}`"
            ))
            }
        }
    }
    if (edited.is_some() || match_games.is_some()) && !rules_only {
        return Err("`rules=PATH` and `games=N` are for the rule side: give them with `only=rules`".into());
    }
    if rules_only {
        let (positions, games) = if opts.quick { (60, 6) } else { (2000, 200) };
        let games = match_games.unwrap_or(games);
        let rules = rules::measure(positions, games, edited, opts.load)?;
        for l in &rules.lines {
            report(l);
        }
        report(&format!(
            "decision_us={:.2} call_decision_us={:.2} rule_games_per_s={:.0} decision_median_ms={:.3} decision_p90_ms={:.3}",
            rules.decision_us, rules.call_decision_us, rules.games_per_s, rules.decision_ms.0, rules.decision_ms.1
        ));
        return Ok(());
    }
    let mut buf = Vec::new();
    if opts.quick {
        run_bench_quick(&mut buf)
    } else {
        run_bench(&mut buf)
    }
    .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&buf).to_string();
    let mut lines: Vec<&str> = text.lines().collect();
    let native_figures = lines.pop().unwrap_or("").to_string();
    for l in lines {
        report(l);
    }
    let (positions, games) = if opts.quick { (60, 6) } else { (2000, 200) };
    let rules = rules::measure(positions, games, None, opts.load)?;
    for l in &rules.lines {
        report(l);
    }
    // The native line's decision_us becomes native_decision_us; decision_us is the rule set's.
    let mut figures = Vec::new();
    for pair in native_figures.split_whitespace() {
        match pair.split_once('=') {
            Some(("decision_us", v)) => {
                figures.push(format!("decision_us={:.2}", rules.decision_us));
                figures.push(format!("native_decision_us={v}"));
            }
            _ => figures.push(pair.to_string()),
        }
    }
    figures.push(format!("call_decision_us={:.2}", rules.call_decision_us));
    figures.push(format!("rule_games_per_s={:.0}", rules.games_per_s));
    figures.push(format!("decision_median_ms={:.3}", rules.decision_ms.0));
    figures.push(format!("decision_p90_ms={:.3}", rules.decision_ms.1));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    figures.push(format!("cores={cores}"));
    report(&figures.join(" "));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mahjong::play_match;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    #[test]
    fn the_watched_match_plays_the_games_play_match_plays() {
        for seed in [3, 11] {
            let (mut a, mut b) = (ReferencePlayer::default(), RandomPlayer::new(5));
            let native = play_match([&mut a, &mut b], 24, seed);
            let (mut a, mut b) = (ReferencePlayer::default(), RandomPlayer::new(5));
            let watched = play_watched([&mut a, &mut b], 24, seed, &Watch::default());
            assert_eq!(native, watched);
        }
    }

    #[test]
    fn a_stop_ends_the_match_after_the_game_being_played() {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let watch = Watch {
            stop: Some(stop),
            on_game: Some(Arc::new(move |done| flag.store(done == 3, Ordering::Relaxed))),
        };
        let (mut a, mut b) = (ReferencePlayer::default(), RandomPlayer::new(5));
        let stats = play_watched([&mut a, &mut b], 24, 3, &watch);
        let (mut a, mut b) = (ReferencePlayer::default(), RandomPlayer::new(5));
        assert_eq!(stats, play_match([&mut a, &mut b], 3, 3));
    }
}
