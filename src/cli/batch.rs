//! `kibitzer batch`: JSON lines in, JSON lines out, in input order, on all cores. Each line is
//! answered as soon as it and the lines before it are (a bounded window of lines in flight), so
//! it works line-in/line-out behind a pipe. A bad line yields `{"error": "..."}` on its line and
//! the run goes on: one output line per input line, always.

use super::fail;
use kibitzer::library::Loader;
use kibitzer::Program;
use kibitzer::RunOptions;
use serde_json::json;
use std::collections::BTreeMap;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct BatchArgs {
    /// A shipped rule set or a path to a .rules file.
    ruleset: String,
    /// Use this rule file instead of the shipped one (it must declare the same rule set).
    #[arg(long, value_name = "PATH")]
    rules: Option<PathBuf>,
    /// Leave explanations out of the answers (faster, smaller).
    #[arg(long = "no-explain")]
    no_explain: bool,
    /// Stop each line after this many seconds (decimal): its partial answer gets `"stop": "timeout"`.
    #[arg(long, value_name = "SECS", value_parser = super::parse_timeout)]
    timeout: Option<Duration>,
    /// Stop each line's run after this many firings (its answer is then that line's error).
    #[arg(long = "max-firings", default_value_t = 100_000, value_parser = super::max_firings())]
    max_firings: u64,
    /// Let includes come from this folder tree (default: the rule file's own folder).
    #[arg(long = "include-root", value_name = "DIR")]
    include_root: Option<PathBuf>,
    /// No count of the lines answered on standard error (shown only when standard error is a
    /// terminal and standard output is not).
    #[arg(long, short)]
    quiet: bool,
}

/// A longer input line is answered with an error instead of being held in memory.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What the writer receives for line `n`.
enum Done {
    /// The line's answer, and whether it was an internal error (a bug).
    Answer(String, bool),
    /// Standard input could not be read: the lines before are written, then the run ends.
    ReadError(String),
}

pub fn run(a: BatchArgs) -> i32 {
    let mut loader = Loader::new();
    if let Some(root) = &a.include_root {
        loader = loader.include_root(root);
    }
    let program = match loader.ruleset(&a.ruleset, a.rules.as_deref()) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    // Enough look-ahead to keep every core busy behind one slow line, and no more.
    let window = workers * 4;
    let (permit_tx, permit_rx) = sync_channel::<()>(window);
    for _ in 0..window {
        let _ = permit_tx.send(());
    }
    let (job_tx, job_rx) = sync_channel::<(u64, String)>(window);
    let (done_tx, done_rx) = channel::<(u64, Done)>();
    let job_rx = Arc::new(Mutex::new(job_rx));
    let settings = Settings {
        explain: !a.no_explain,
        timeout: a.timeout,
        max_firings: a.max_firings,
    };
    for _ in 0..workers {
        let (jobs, done, program) = (job_rx.clone(), done_tx.clone(), program.clone());
        std::thread::spawn(move || work(&program, settings, &jobs, &done));
    }
    std::thread::spawn(move || read_input(&permit_rx, &job_tx, &done_tx));
    // Answers on a terminal show the progress themselves; written to a file or a pipe, a count on
    // standard error does.
    let counter = super::progress::counter("lines answered", a.quiet || std::io::stdout().is_terminal());
    let code = write_answers(&done_rx, &permit_tx, &counter);
    counter.finish_and_clear();
    code
}

#[derive(Clone, Copy)]
struct Settings {
    explain: bool,
    timeout: Option<Duration>,
    max_firings: u64,
}

/// Reads standard input line by line; a line waits for a permit (a free place in the window).
/// Lines that cannot be answered (not UTF-8, too long) go straight to the writer.
fn read_input(permits: &Receiver<()>, jobs: &SyncSender<(u64, String)>, done: &Sender<(u64, Done)>) {
    let mut input = std::io::stdin().lock();
    let mut buf = Vec::new();
    for n in 0u64.. {
        if permits.recv().is_err() {
            return;
        }
        let too_long = match read_line(&mut input, &mut buf) {
            Ok(Some(too_long)) => too_long,
            Ok(None) => return,
            Err(e) => {
                let _ = done.send((n, Done::ReadError(format!("reading standard input: {e}"))));
                return;
            }
        };
        let mut line: &[u8] = &buf;
        if n == 0 {
            line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        }
        let error = if too_long {
            Some(format!("line longer than {} MiB", MAX_LINE_BYTES >> 20))
        } else {
            match std::str::from_utf8(line) {
                Ok(text) => {
                    if jobs.send((n, text.to_string())).is_err() {
                        return;
                    }
                    None
                }
                // The column, not the bytes: the line may hold anything.
                Err(e) => Some(format!(
                    "line is not UTF-8 (invalid byte at column {})",
                    e.valid_up_to() + 1
                )),
            }
        };
        if let Some(message) = error {
            let answer = json!({ "error": message }).to_string();
            if done.send((n, Done::Answer(answer, false))).is_err() {
                return;
            }
        }
    }
}

/// Reads one line into `buf` without its `\n` or `\r\n`, keeping at most [`MAX_LINE_BYTES`] of
/// it. `None` at the end of input; `Some(true)` when the line was longer than that.
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
    buf.clear();
    let (mut any, mut too_long) = (false, false);
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (part, used, ended) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        let room = (MAX_LINE_BYTES + 1).saturating_sub(buf.len());
        buf.extend_from_slice(&part[..part.len().min(room)]);
        too_long |= buf.len() > MAX_LINE_BYTES;
        input.consume(used);
        if ended {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Some(too_long))
}

/// A worker: one session for its lines; a line that panics gets an error object and a fresh
/// session, and the run goes on (exit 1 at the end).
fn work(program: &Arc<Program>, settings: Settings, jobs: &Mutex<Receiver<(u64, String)>>, done: &Sender<(u64, Done)>) {
    let new_session = || {
        let mut s = kibitzer::query::session(program);
        s.set_options(RunOptions {
            timeout: settings.timeout,
            firing_limit: settings.max_firings,
            ..RunOptions::default()
        });
        s
    };
    let mut session = new_session();
    loop {
        let job = match jobs.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => return,
        };
        let Ok((n, line)) = job else {
            return;
        };
        let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            kibitzer::batch::answer_line(&mut session, &line, settings.explain).to_string()
        }));
        let done_line = match answered {
            Ok(text) => Done::Answer(text, false),
            Err(_) => {
                session = new_session();
                let text = json!({"error": "internal error (a bug: please report this line)"}).to_string();
                Done::Answer(text, true)
            }
        };
        if done.send((n, done_line)).is_err() {
            return;
        }
    }
}

/// Writes the answers in input order as they come, flushing whenever the next one is not ready
/// yet (so a reader waiting on a line gets it at once, and a busy run writes in large blocks).
fn write_answers(done: &Receiver<(u64, Done)>, permits: &SyncSender<()>, counter: &indicatif::ProgressBar) -> i32 {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut pending: BTreeMap<u64, Done> = BTreeMap::new();
    let mut next = 0u64;
    let mut code = 0;
    loop {
        while let Some(d) = pending.remove(&next) {
            match d {
                Done::Answer(text, internal) => {
                    if let Err(e) = writeln!(out, "{text}") {
                        return super::write_failed(&e);
                    }
                    if internal {
                        code = super::EXIT_INTERNAL;
                    }
                }
                Done::ReadError(why) => {
                    if let Err(e) = out.flush() {
                        return super::write_failed(&e);
                    }
                    return fail(why);
                }
            }
            next += 1;
            counter.inc(1);
            let _ = permits.send(());
        }
        let arrived = match done.try_recv() {
            Ok(d) => Some(d),
            Err(TryRecvError::Empty) => {
                if let Err(e) = out.flush() {
                    return super::write_failed(&e);
                }
                done.recv().ok()
            }
            Err(TryRecvError::Disconnected) => None,
        };
        match arrived {
            Some((n, d)) => {
                pending.insert(n, d);
            }
            None => break,
        }
    }
    match out.flush() {
        Ok(()) => code,
        Err(e) => super::write_failed(&e),
    }
}
