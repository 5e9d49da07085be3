//! What the benchmarks behind `kibitzer bench` and the arenas behind `kibitzer play` are: each
//! game's `harness/` drives its native API and its shipped rule sets and reports lines (the command
//! prints them; the library never prints).

/// Where a benchmark or an arena writes its lines (the CLI prints them; a library never prints).
pub type Report<'a> = &'a mut dyn FnMut(&str);

/// Loads a rule set by shipped name or path for benchmarks and arenas (the CLI passes
/// `kibitzer::load_any`, its error as one line).
pub type Loader = fn(&str) -> Result<std::sync::Arc<crate::engine::program::Program>, String>;

/// Options of `kibitzer bench WORKLOAD`.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// A smaller run for smoke tests: a sample of the work, figures not comparable.
    pub quick: bool,
    /// Loads the rule sets the benchmark runs.
    pub load: Loader,
    /// Extra `NAME=VALUE` arguments after the workload name, for the workload to read.
    pub args: Vec<(String, String)>,
}

/// A named benchmark of `kibitzer bench`.
#[derive(Clone, Copy)]
pub struct Workload {
    /// What `kibitzer bench NAME` calls it.
    pub name: &'static str,
    /// One line on what it measures.
    pub about: &'static str,
    /// Runs the benchmark, reporting lines; the last line holds the figures as `NAME=VALUE`.
    pub run: fn(&BenchOptions, Report) -> Result<(), String>,
}

/// How the caller follows a match and ends it early, between games: the arena reports each
/// game finished, and plays no game after `stop` is set (nor after this thread's deadline).
#[derive(Clone, Default)]
pub struct Watch {
    /// Set (by a Ctrl-C handler, say) to end the match after the game being played: the figures
    /// are then for the games finished.
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Called after each game with the number of games finished so far.
    pub on_game: Option<OnGame>,
}

/// What a [`Watch`] calls after each game, with the number of games finished so far.
pub type OnGame = std::sync::Arc<dyn Fn(u64) + Send + Sync>;

impl Watch {
    /// True when no further game may start: `stop` is set or the `--timeout` ran out.
    pub(crate) fn stopped(&self) -> bool {
        let asked = self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
        asked || crate::budget::expired()
    }

    /// Tells the caller that `games` games are finished.
    pub(crate) fn finished(&self, games: u64) {
        if let Some(f) = &self.on_game {
            f(games);
        }
    }
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch")
            .field("stop", &self.stop)
            .field("on_game", &self.on_game.as_ref().map(|_| "Fn(u64)"))
            .finish()
    }
}

/// Options of `kibitzer play GAME`.
#[derive(Debug, Clone)]
pub struct PlayOptions {
    /// Loads the rule sets seats name.
    pub load: Loader,
    /// One entry per seat: a shipped rule set's name, a path to a `.rules` file, or a built-in
    /// player's name (`random`, `lowest`, …).
    pub seats: Vec<String>,
    /// How many games.
    pub games: u64,
    /// The seed of the first deal.
    pub seed: u64,
    /// Extra `NAME=VALUE` arguments for the arena to read.
    pub args: Vec<(String, String)>,
    /// Progress and early stop, between games.
    pub watch: Watch,
}

/// A self-play arena of `kibitzer play`.
#[derive(Clone, Copy)]
pub struct Arena {
    /// What `kibitzer play GAME` calls it.
    pub game: &'static str,
    /// One line on the game and its seats.
    pub about: &'static str,
    /// The built-in players a seat may name.
    pub players: &'static [&'static str],
    /// The shipped rule sets that play this game (a seat may also name a `.rules` path).
    pub rule_sets: &'static [&'static str],
    /// Plays the games, reporting lines: the match at once, then, after the games, the results
    /// (rates with 95% intervals under a line of column names) and the speed.
    pub run: fn(&PlayOptions, Report) -> Result<(), String>,
}

impl Arena {
    /// What a seat may name, for a message about a seat that names something else.
    pub fn seat_choices(&self) -> String {
        format!(
            "players: {}; rule sets: {}, or a path to a .rules file",
            self.players.join(", "),
            self.rule_sets.join(", ")
        )
    }
}

/// Every game's benchmarks.
pub fn workloads() -> Vec<Workload> {
    crate::ALL.iter().map(|g| g.workload).collect()
}

/// Every game's arena: durak and mahjong (stud, rummy and dou dizhu advise on one position and
/// play no games).
pub fn arenas() -> Vec<Arena> {
    crate::ALL.iter().filter_map(|g| g.arena).collect()
}

/// A count setting (`passes=N`, `runs=N`, `games=N`) read in its documented domain, so a slip
/// of the keyboard is an error before any work, not a run that never ends or cannot allocate.
pub(crate) fn count_setting(name: &str, text: &str, domain: std::ops::RangeInclusive<u64>) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if domain.contains(&n) => Ok(n),
        _ => Err(format!(
            "`{name}={text}`: expected a whole number from {} to {}",
            domain.start(),
            domain.end()
        )),
    }
}

/// The median and the 90th percentile of decision times (0 for none).
pub(crate) fn median_and_p90(times: &mut [f64]) -> (f64, f64) {
    times.sort_by(f64::total_cmp);
    let at = |q: f64| {
        times
            .get(((times.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    (at(0.5), at(0.9))
}

/// Sends whole lines written to it to a report, for the benchmarks that write to an `io::Write`.
pub(crate) struct LineReport<'a, 'b> {
    pub(crate) report: &'a mut Report<'b>,
    pub(crate) buffer: Vec<u8>,
}

impl std::io::Write for LineReport<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.buffer.extend_from_slice(buf);
        while let Some(i) = self.buffer.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.buffer.drain(..=i).collect();
            (self.report)(String::from_utf8_lossy(&line[..i]).as_ref());
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.buffer.is_empty() {
            let line = std::mem::take(&mut self.buffer);
            (self.report)(String::from_utf8_lossy(&line).as_ref());
        }
        Ok(())
    }
}
