//! `kibitzer play GAME --seats A,B --games N --seed S`: self-play arenas (durak, mahjong). A seat is a
//! rule set (shipped name or path) or a built-in player; the arena reports rates with 95% intervals.

use super::fail;
use kibitzer::harness::{arenas, PlayOptions};

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
    let options = PlayOptions {
        load: kibitzer::library::load_named,
        seats: a.seats,
        games: a.games,
        seed: a.seed,
        args,
    };
    let mut print = |line: &str| println!("{line}");
    let deadline = kibitzer::with_deadline(a.timeout);
    let result = (arena.run)(&options, &mut print);
    let stopped = a.timeout.is_some() && kibitzer::expired();
    drop(deadline);
    match result {
        Err(e) => fail(e),
        Ok(()) if stopped => {
            super::say("stopped: the --timeout ran out; the figures above are for the games played before it");
            super::EXIT_BAD_INPUT
        }
        Ok(()) => 0,
    }
}
