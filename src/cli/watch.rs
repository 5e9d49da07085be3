//! Watching files: `kibitzer watch` answers a query again each time its rule file (or a file it
//! includes) changes, and `kibitzer test --watch` reruns the case files a change affects. Files
//! are looked at every `--interval` milliseconds (modification time and size), which needs no
//! platform service and sees every kind of save.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

#[derive(clap::Args, Debug)]
pub struct WatchArgs {
    #[command(flatten)]
    ask: super::ask::AskArgs,
    #[command(flatten)]
    every: Every,
}

/// How often files are looked at, and when to stop.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct Every {
    /// How often to look at the files, in milliseconds (50 to 60,000).
    #[arg(long, value_name = "MS", default_value_t = 250, value_parser = clap::value_parser!(u64).range(50..=60_000))]
    pub interval: u64,
    /// Stop after this many runs (default: run until interrupted).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub runs: Option<u64>,
}

/// What a set of files looked like: each one's modification time and size (`None`: missing).
pub type Fingerprint = Vec<(PathBuf, Option<(SystemTime, u64)>)>;

pub fn fingerprint(files: &[PathBuf]) -> Fingerprint {
    files
        .iter()
        .map(|f| {
            let seen = std::fs::metadata(f)
                .ok()
                .and_then(|m| Some((m.modified().ok()?, m.len())));
            (f.clone(), seen)
        })
        .collect()
}

/// The files of a fingerprint that differ from an earlier one.
pub fn changed<'a>(before: &Fingerprint, now: &'a Fingerprint) -> Vec<&'a Path> {
    now.iter()
        .filter(|(f, seen)| !before.iter().any(|(g, was)| g == f && was == seen))
        .map(|(f, _)| f.as_path())
        .collect()
}

/// The files a rule file reads: itself and what it includes (as far as it loads).
pub fn rule_files(path: &Path) -> Vec<PathBuf> {
    let mut files = vec![path.to_path_buf()];
    if let Ok(p) = kibitzer::library::load_file(path) {
        let sources = p.sources();
        let mut id = 1;
        while let Some(f) = sources.file(id) {
            files.push(PathBuf::from(&f.name));
            id += 1;
        }
    }
    files
}

/// Runs `once` now, then again each time the files `watched` names change, until `every.runs`
/// runs are done (or forever). `once` is given the files that changed (none the first time) and
/// returns its exit code; the last run's is returned.
pub fn repeat(every: Every, watched: impl Fn() -> Vec<PathBuf>, mut once: impl FnMut(&[&Path]) -> i32) -> i32 {
    let mut files = watched();
    let mut before = fingerprint(&files);
    let mut code = once(&[]);
    let mut runs = 1;
    loop {
        if every.runs.is_some_and(|n| runs >= n) {
            return code;
        }
        std::thread::sleep(Duration::from_millis(every.interval));
        let now = fingerprint(&files);
        let differ = changed(&before, &now);
        if differ.is_empty() {
            continue;
        }
        let names: Vec<String> = differ.iter().map(|f| f.display().to_string()).collect();
        println!("\n── changed: {} ──", names.join(", "));
        code = once(&differ);
        runs += 1;
        // What the files include may have changed too.
        files = watched();
        before = fingerprint(&files);
        let _ = std::io::Write::flush(&mut std::io::stdout());
    }
}

pub fn run(a: WatchArgs) -> i32 {
    let Some(path) = a.ask.rule_file() else {
        return super::fail("watch needs a rule file to watch: a path to a .rules file, or --rules PATH");
    };
    super::say(format_args!("watching {} (Ctrl-C to stop)", path.display()));
    let ask = a.ask.clone();
    repeat(
        a.every,
        || rule_files(&path),
        |_| {
            let code = super::ask::run(ask.clone());
            let _ = std::io::Write::flush(&mut std::io::stdout());
            code
        },
    )
}
