//! The command line (SPEC §4.1): argument parsing and dispatch. Only this module prints or picks
//! exit codes: 0 answered, 2 bad input / bad rule file / bad usage, 1 internal error.

mod ask;
mod batch;
pub mod bench;
mod check;
mod compile;
mod diff;
mod play;
mod rules;
mod test;

use clap::{Parser, Subcommand};

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
    /// Print a rule set's joins as Rust source (the generated module a game builds in).
    Compile(compile::CompileArgs),
    /// Self-play arena: seats are rule sets or built-in players; prints rates with 95% intervals.
    Play(play::PlayArgs),
    /// Run case files (golden tests of rule sets): `kibitzer test my.cases.toml`.
    Test(test::TestArgs),
    /// What an edit changes: two rule sets on the same positions, answers and firings compared.
    Diff(diff::DiffArgs),
}

/// Runs the command line and returns the exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => 0,
                _ => EXIT_BAD_INPUT,
            };
            let _ = e.print();
            return code;
        }
    };
    quiet_on_closed_stdout();
    let result = std::panic::catch_unwind(|| match cli.command {
        Command::Ask(a) => ask::run(a),
        Command::Check(a) => check::run(a),
        Command::Rules(a) => rules::run(a),
        Command::Batch(a) => batch::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Play(a) => play::run(a),
        Command::Compile(a) => compile::run(a),
        Command::Test(a) => test::run(a),
        Command::Diff(a) => diff::run(a),
    });
    match result {
        Ok(code) => code,
        // The reader went away (`kibitzer ... | head`): what it wanted, it got. Not an error.
        Err(payload) if is_closed_stdout(payload.as_ref()) => 0,
        Err(_) => {
            say("kibitzer: internal error (a bug: please report it with the command that caused it)");
            EXIT_INTERNAL
        }
    }
}

/// `println!` panics when standard output is a closed pipe (Rust ignores SIGPIPE). That panic is
/// how the CLI stops early when its reader has gone; this hook keeps it from printing a panic
/// message, and every other panic is reported as before.
fn quiet_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !is_closed_stdout(info.payload()) {
            default(info);
        }
    }));
}

fn is_closed_stdout(payload: &(dyn std::any::Any + Send)) -> bool {
    let text = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("");
    text.starts_with("failed printing to stdout") && text.contains("Broken pipe")
}

/// Writes a line to standard error. A failed write is ignored, unlike `eprintln!`, which panics
/// when standard error is a closed pipe (`kibitzer check x.rules 2>&1 | head -1`) and would turn
/// the exit code the problems call for into an internal error.
pub(crate) fn say(text: impl std::fmt::Display) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// Prints a problem as one line per problem on stderr and returns exit code 2.
pub(crate) fn fail(message: impl std::fmt::Display) -> i32 {
    let text = message.to_string();
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
