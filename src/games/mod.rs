//! Each game's native search, wrapped as built-ins. The engine knows nothing of any game: a game
//! plugs in here — its built-ins and input types through the registry, its benchmarks and arenas
//! through the tables below — and through its rule file in `rules/`. Each game's `plugin.rs` is the
//! whole of its contact surface with the engine and the CLI.

pub mod doudizhu;
pub mod durak;
pub mod mahjong;
pub mod rummy;
pub mod stud;

use crate::builtins::Registry;

/// Registers every game's built-ins and input types.
pub fn register_all(registry: &mut Registry) {
    stud::plugin::register(registry);
    durak::plugin::register(registry);
    mahjong::plugin::register(registry);
    rummy::plugin::register(registry);
    doudizhu::plugin::register(registry);
}

/// Where a benchmark or an arena writes its lines (the CLI prints them; a library never prints).
pub type Report<'a> = &'a mut dyn FnMut(&str);

/// Loads a rule set by shipped name or path, for benchmarks and arenas (the library's loader,
/// passed down: games sit below the library that assembles them).
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
pub struct Workload {
    /// What `kibitzer bench NAME` calls it.
    pub name: &'static str,
    /// One line on what it measures.
    pub about: &'static str,
    /// Runs the benchmark, reporting lines; the last line holds the figures as `NAME=VALUE`.
    pub run: fn(&BenchOptions, Report) -> Result<(), String>,
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
}

/// A self-play arena of `kibitzer play`.
pub struct Arena {
    /// What `kibitzer play GAME` calls it.
    pub game: &'static str,
    /// One line on the game and its seats.
    pub about: &'static str,
    /// Plays the games, reporting lines (rates with 95% intervals).
    pub run: fn(&PlayOptions, Report) -> Result<(), String>,
}

/// Every game's benchmarks.
pub fn workloads() -> Vec<Workload> {
    let mut all = Vec::new();
    all.extend(stud::plugin::workloads());
    all.extend(durak::plugin::workloads());
    all.extend(mahjong::plugin::workloads());
    all.extend(rummy::plugin::workloads());
    all.extend(doudizhu::plugin::workloads());
    all
}

/// Every game's arenas.
pub fn arenas() -> Vec<Arena> {
    let mut all = Vec::new();
    all.extend(stud::plugin::arenas());
    all.extend(durak::plugin::arenas());
    all.extend(mahjong::plugin::arenas());
    all.extend(rummy::plugin::arenas());
    all.extend(doudizhu::plugin::arenas());
    all
}
