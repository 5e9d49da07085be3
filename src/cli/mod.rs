//! The command line (docs/cli.md): argument parsing and dispatch. Only this module prints or picks
//! exit codes: 0 answered, 2 bad input / bad rule file / bad usage, 1 internal error, 130 a `play`
//! match ended by Ctrl-C. Every error line starts with `kibitzer:` (rule-file diagnostics with their
//! `file:line:col`).

mod ask;
mod batch;
pub mod bench;
mod check;
mod diff;
mod fmt;
mod lsp;
mod play;
mod progress;
mod rules;
mod test;
mod watch;

use clap::{Parser, Subcommand};
use kibitzer::{MemoryBound, RunResult, StopReason};

/// Exit code for bad input, a bad rule file or bad usage.
pub const EXIT_BAD_INPUT: i32 = 2;
/// Exit code for an internal error.
pub const EXIT_INTERNAL: i32 = 1;

#[derive(Parser, Debug)]
#[command(
    name = "kibitzer",
    version,
    about = "A rule-driven expert system for card and tile games: it tells you what to play, and why."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Ask a rule set about a hand: `kibitzer ask stud hand="8S TD TS 8H 8C"`.
    Ask(ask::AskArgs),
    /// Check rule files (files or folders; default: the shipped rules).
    Check(check::CheckArgs),
    /// List rule sets, or one rule set's inputs, outputs, parameters and rules.
    Rules(rules::RulesArgs),
    /// Answer JSON lines from standard input (one object of inputs per line) on all cores.
    Batch(batch::BatchArgs),
    /// Run a benchmark; the last line holds the figures as NAME=VALUE.
    Bench(bench::BenchArgs),
    /// Self-play arena: seats are rule sets or built-in players; prints rates with 95% intervals.
    Play(play::PlayArgs),
    /// Run case files (golden tests of rule sets): `kibitzer test my.cases.toml`.
    Test(test::TestArgs),
    /// What an edit changes: two rule sets on the same positions, answers and firings compared.
    Diff(diff::DiffArgs),
    /// Lay rule files out in the one canonical layout (`--check`: only report, with a diff).
    Fmt(fmt::FmtArgs),
    /// Language server for rule files over standard input and output, for editors.
    Lsp(lsp::LspArgs),
    /// Answer a query again each time its rule file changes: `kibitzer watch my.rules hand=…`.
    Watch(watch::WatchArgs),
}

/// Runs the command line and returns the exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            return match e.kind() {
                // Written here, not by clap, so that a failed write (a full disk) is not exit 0.
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    let mut out = std::io::stdout().lock();
                    let text = e.render().to_string();
                    match std::io::Write::write_all(&mut out, text.as_bytes())
                        .and_then(|()| std::io::Write::flush(&mut out))
                    {
                        Ok(()) => 0,
                        Err(e) => write_failed(&e),
                    }
                }
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    let _ = e.print();
                    e.exit_code()
                }
                // A usage error, as every error: `kibitzer: …`, then clap's usage and hint.
                _ => {
                    let text = e.render().to_string();
                    say(format_args!(
                        "kibitzer: {}",
                        text.trim_end().strip_prefix("error: ").unwrap_or(text.trim_end())
                    ));
                    EXIT_BAD_INPUT
                }
            };
        }
    };
    quiet_on_stdout_failure();
    let result = std::panic::catch_unwind(|| match cli.command {
        Command::Ask(a) => ask::run(a),
        Command::Check(a) => check::run(a),
        Command::Rules(a) => rules::run(a),
        Command::Batch(a) => batch::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Play(a) => play::run(a),
        Command::Test(a) => test::run(a),
        Command::Diff(a) => diff::run(a),
        Command::Fmt(a) => fmt::run(a),
        Command::Lsp(a) => lsp::run(a),
        Command::Watch(a) => watch::run(a),
    });
    match result {
        // What is still buffered is written now, so a full disk is reported, not lost at exit.
        Ok(code) => match std::io::Write::flush(&mut std::io::stdout()) {
            Ok(()) => code,
            Err(e) => write_failed(&e).max(code),
        },
        Err(payload) if stdout_failure(payload.as_ref()) == Some(StdoutFailure::Closed) => 0,
        Err(payload) if stdout_failure(payload.as_ref()).is_some() => {
            let text = payload_text(payload.as_ref());
            let why = text.strip_prefix("failed printing to stdout: ").unwrap_or(text);
            say(format_args!("kibitzer: cannot write standard output: {why}"));
            EXIT_BAD_INPUT
        }
        Err(_) => {
            say("kibitzer: internal error (a bug: please report it with the command that caused it)");
            EXIT_INTERNAL
        }
    }
}

/// `println!` panics when it cannot write standard output: a closed pipe (Rust ignores SIGPIPE)
/// or a failed write (a full disk). That panic is how the commands that print line by line stop;
/// this hook keeps it from printing a panic message, [`main`] turns it into exit 0 (closed pipe)
/// or 2 with one line, and every other panic is reported as before.
fn quiet_on_stdout_failure() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if stdout_failure(info.payload()).is_none() {
            default(info);
        }
    }));
}

#[derive(Debug, PartialEq, Eq)]
enum StdoutFailure {
    /// The reader went away (`kibitzer ... | head`): what it wanted, it got. Not an error.
    Closed,
    /// Any other write error: the output is lost, so the run failed.
    Failed,
}

fn payload_text(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("")
}

fn stdout_failure(payload: &(dyn std::any::Any + Send)) -> Option<StdoutFailure> {
    let text = payload_text(payload);
    match text.starts_with("failed printing to stdout") {
        false => None,
        true if text.contains("Broken pipe") => Some(StdoutFailure::Closed),
        true => Some(StdoutFailure::Failed),
    }
}

/// The exit code for a failed write to standard output: 0 for a closed pipe (quietly), else 2
/// with the reason on one line.
pub(crate) fn write_failed(e: &std::io::Error) -> i32 {
    use std::sync::atomic::{AtomicBool, Ordering};
    // The bytes that failed stay buffered and fail again at the final flush: said once.
    static SAID: AtomicBool = AtomicBool::new(false);
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return 0;
    }
    if SAID.swap(true, Ordering::Relaxed) {
        return EXIT_BAD_INPUT;
    }
    say(format_args!("kibitzer: cannot write standard output: {e}"));
    EXIT_BAD_INPUT
}

/// Why `--timeout` was refused.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TimeoutError {
    #[error("`{0}`: expected a number of seconds, e.g. 2.5")]
    NotANumber(String),
    #[error("`{0}`: the timeout must be more than 0 seconds")]
    NotPositive(String),
    #[error("`{0}`: too long a timeout")]
    TooLong(String),
}

/// Parses `--timeout SECS` (decimal seconds).
pub(crate) fn parse_timeout(s: &str) -> Result<std::time::Duration, TimeoutError> {
    let secs: f64 = s.trim().parse().map_err(|_| TimeoutError::NotANumber(s.to_string()))?;
    if secs.is_nan() || secs <= 0.0 {
        return Err(TimeoutError::NotPositive(s.to_string()));
    }
    std::time::Duration::try_from_secs_f64(secs).map_err(|_| TimeoutError::TooLong(s.to_string()))
}

/// `--max-firings N`: 1 to 10^15 firings (a limit only: with `--timeout` a run may be let go on
/// until the clock stops it).
pub(crate) fn max_firings() -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(1..=1_000_000_000_000_000)
}

/// The line that says why a run stopped early (text output), or `None` when it finished.
pub(crate) fn stop_note(result: &RunResult) -> Option<String> {
    let limit = match (result.stop, result.bound) {
        (StopReason::Quiescent | StopReason::Halted, _) => return None,
        (StopReason::Timeout, _) => "the --timeout ran out".to_string(),
        (StopReason::MemoryLimit, Some(bound)) => {
            let (what, option) = match bound {
                MemoryBound::Facts => ("live facts", "--max-facts"),
                MemoryBound::Cells => ("value cells", "--max-cells"),
                MemoryBound::Activations => ("waiting activations", "--max-activations"),
            };
            format!("working memory reached its limit of {what} (raise it with {option})")
        }
        (StopReason::MemoryLimit, None) => "working memory reached its limit".to_string(),
    };
    Some(format!("stopped: {limit}; the conclusions above are partial"))
}

/// Writes a line to standard error. A failed write is ignored, unlike `eprintln!`, which panics
/// when standard error is a closed pipe (`kibitzer check x.rules 2>&1 | head -1`) and would turn
/// the exit code the problems call for into an internal error.
pub(crate) fn say(text: impl std::fmt::Display) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{}", cli_words(&text.to_string()));
}

/// The settings the library's messages name, and the command's options that set them.
const OPTIONS: &[(&str, &str)] = &[
    ("`max_firings`", "--max-firings"),
    ("`include_root`", "--include-root DIR"),
    ("`timeout`", "--timeout"),
];

/// A library message as the command says it: each setting it names given as the option.
pub(crate) fn cli_words(message: &str) -> String {
    OPTIONS
        .iter()
        .fold(message.to_string(), |m, (setting, option)| m.replace(setting, option))
}

/// Prints a problem as one line per problem on stderr and returns exit code 2.
pub(crate) fn fail(message: impl std::fmt::Display) -> i32 {
    let text = cli_words(&message.to_string());
    if text.lines().count() > 1 {
        // Rendered diagnostics: `file:line:col: error: …`, the source line and a caret, as is.
        say(text.trim_end());
    } else {
        say(format_args!("kibitzer: {text}"));
    }
    EXIT_BAD_INPUT
}

/// Splits `NAME=VALUE` (the value may itself contain `=`).
pub(crate) fn split_assignment(s: &str) -> Result<(&str, &str), String> {
    s.split_once('=')
        .filter(|(k, _)| !k.trim().is_empty())
        .map(|(k, v)| (k.trim(), v))
        .ok_or_else(|| format!("`{s}`: expected NAME=VALUE"))
}
