//! `kibitzer play GAME --seats A,B --games N --seed S`: self-play arenas (durak, mahjong). A seat is a
//! rule set (shipped name or path) or a built-in player; the arena reports rates with 95% intervals.
//!
//! The first line is printed before the first game. On a terminal a progress bar runs on standard
//! error (not with `--quiet`, nor when standard error is not a terminal). Ctrl-C (or SIGTERM)
//! ends the match after the game being played: the figures of the games finished are printed,
//! then how many, and the exit code is [`EXIT_INTERRUPTED`]; a second Ctrl-C ends it at once.

use super::fail;
use indicatif::ProgressDrawTarget;
use kibitzer::games::harness::{arenas, PlayOptions, Watch};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// Exit code of a match ended by Ctrl-C or SIGTERM (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: i32 = 130;

#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// The game (`kibitzer play list` lists the arenas).
    game: String,
    /// Extra NAME=VALUE settings for the arena.
    settings: Vec<String>,
    /// Comma-separated seats: rule sets or built-in players (random, lowest, …).
    #[arg(long, value_delimiter = ',')]
    seats: Vec<String>,
    /// Number of games (1 to 4,294,967,295; with `--timeout`, as many as fit).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=u64::from(u32::MAX)))]
    games: u64,
    /// Seed of the deals (the same seed plays the same games).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop starting games after this many seconds (decimal): the figures are for the games
    /// played, and the exit code is 2.
    #[arg(long, value_name = "SECS", value_parser = super::parse_timeout)]
    timeout: Option<std::time::Duration>,
    /// No progress bar on standard error.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(a: PlayArgs) -> i32 {
    let all = arenas();
    if a.game == "list" {
        for arena in &all {
            println!("{:<10} {}", arena.game, arena.about);
        }
        return 0;
    }
    let Some(arena) = all.iter().find(|x| x.game == a.game) else {
        let known: Vec<&str> = all.iter().map(|x| x.game).collect();
        return fail(format!("no arena for `{}` (arenas: {})", a.game, known.join(", ")));
    };
    let mut args = Vec::new();
    for s in &a.settings {
        match super::split_assignment(s) {
            Ok((k, v)) => args.push((k.to_string(), v.to_string())),
            Err(e) => return fail(e),
        }
    }
    let bar = super::progress::bar(a.games, "games", a.quiet);
    let stop = Arc::new(AtomicBool::new(false));
    let (asked, shown) = (stop.clone(), bar.clone());
    // The handler sets the flag the arena polls between games and takes the bar away (the
    // terminal's `^C` would leave it behind); a second signal, while the game being played
    // finishes, ends the process at once.
    let handler = ctrlc::set_handler(move || {
        if asked.swap(true, Ordering::Relaxed) {
            std::process::exit(EXIT_INTERRUPTED);
        }
        shown.finish_and_clear();
        shown.set_draw_target(ProgressDrawTarget::hidden());
    });
    if let Err(e) = handler {
        super::say(format_args!("kibitzer: Ctrl-C will end the match at once: {e}"));
    }
    let finished = Arc::new(AtomicU64::new(0));
    let (count, ticks) = (finished.clone(), bar.clone());
    let options = PlayOptions {
        load: |name| kibitzer::load_any(name).map_err(|e| e.to_string()),
        seats: a.seats,
        games: a.games,
        seed: a.seed,
        args,
        watch: Watch {
            stop: Some(stop.clone()),
            on_game: Some(Arc::new(move |done| {
                count.store(done, Ordering::Relaxed);
                ticks.set_position(done);
            })),
        },
    };
    // Lines go to standard output with the bar out of the way.
    let mut print = |line: &str| bar.suspend(|| println!("{line}"));
    let deadline = kibitzer::with_deadline(a.timeout);
    let result = (arena.run)(&options, &mut print);
    let timed_out = a.timeout.is_some() && kibitzer::expired();
    drop(deadline);
    bar.finish_and_clear();
    match result {
        Err(e) => fail(e),
        Ok(()) if stop.load(Ordering::Relaxed) => {
            let done = finished.load(Ordering::Relaxed);
            super::say(format_args!(
                "stopped: interrupted after {done} of {} games; the figures above are for those {done}",
                a.games
            ));
            EXIT_INTERRUPTED
        }
        Ok(()) if timed_out => {
            super::say("stopped: the --timeout ran out; the figures above are for the games played before it");
            super::EXIT_BAD_INPUT
        }
        Ok(()) => 0,
    }
}
