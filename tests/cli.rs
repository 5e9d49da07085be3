//! The binary on hostile input, as a user runs it: `batch` streaming, per-line errors and line
//! counts, failed writes, `--timeout`, `check` on folders with symlinks and FIFOs, includes that
//! try to leave the rule set's folder or to quote a file that is not a rule file, `--rules` with
//! another rule set, byte-order marks, the `kibitzer:` every error starts with, and `play`: its first
//! line at once, Ctrl-C and SIGTERM, column names, a seat no player fills; `diff`'s header at once and
//! the long commands' progress, drawn on a terminal only (through `script`). Symlinks, FIFOs and
//! secrets are made at test time.
//! Every run is bounded by [`LIMIT`]: a hang fails the test instead of blocking it.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;
use tempfile::TempDir;
use wait_timeout::ChildExt;

const BIN: &str = env!("CARGO_BIN_EXE_kibitzer");
/// Longer than any run here takes in a debug build; reaching it means a hang.
const LIMIT: Duration = Duration::from_secs(60);
/// What no message may ever print: it stands in for a file outside the rule set's folder.
const SECRET: &str = "SECRET-7f3a";

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs the binary with `stdin` as its input (standard output to `stdout`, or captured).
fn run_to(args: &[&str], stdin: &[u8], stdout: Option<Stdio>) -> Run {
    let captured = stdout.is_none();
    let mut child = Command::new(BIN)
        .args(args)
        .env("KIBITZER_TEST_SECRET", SECRET)
        .stdin(Stdio::piped())
        .stdout(stdout.unwrap_or_else(Stdio::piped))
        .stderr(Stdio::piped())
        .spawn()
        .expect("start kibitzer");
    let mut input = child.stdin.take().expect("stdin");
    let bytes = stdin.to_vec();
    // A closed pipe here only means the command did not read its input.
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&bytes);
    });
    let out = child.stdout.take().map(drain);
    let err = drain(child.stderr.take().expect("stderr"));
    let code = finish(&mut child, args);
    let _ = feeder.join();
    let stdout = match out {
        Some(o) => o.join().expect("stdout reader"),
        None => String::new(),
    };
    assert!(captured || stdout.is_empty());
    Run {
        code,
        stdout,
        stderr: err.join().expect("stderr reader"),
    }
}

fn run(args: &[&str], stdin: &[u8]) -> Run {
    run_to(args, stdin, None)
}

fn drain(mut r: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = r.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// Waits at most [`LIMIT`] for the child; a hang kills it and fails.
fn finish(child: &mut Child, args: &[&str]) -> Option<i32> {
    match child.wait_timeout(LIMIT).expect("wait") {
        Some(status) => status.code(),
        None => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("kibitzer {args:?} ran past {LIMIT:?}");
        }
    }
}

fn tiny() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cli/tiny.rules")
}

fn tiny_text() -> String {
    std::fs::read_to_string(tiny()).expect("tiny.rules")
}

fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 temp path")
}

fn no_secret(r: &Run, what: &str) {
    assert!(
        !r.stdout.contains(SECRET) && !r.stderr.contains(SECRET),
        "{what}: the secret was printed:\n{}{}",
        r.stdout,
        r.stderr
    );
}

fn no_crash(r: &Run, what: &str) {
    assert!(
        !r.stderr.contains("panicked") && !r.stderr.contains("internal error"),
        "{what}: {}",
        r.stderr
    );
}

// ---- batch ------------------------------------------------------------------------------------

#[test]
fn batch_answers_the_first_line_before_the_input_ends() {
    let tiny = tiny();
    let mut child = Command::new(BIN)
        .args(["batch", s(&tiny), "--no-explain"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start kibitzer");
    let mut input = child.stdin.take().expect("stdin");
    let output = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = BufReader::new(output).lines();
        while let Some(Ok(line)) = lines.next() {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    for n in [3, 12] {
        input
            .write_all(format!("{{\"n\": {n}}}\n").as_bytes())
            .expect("write a line");
        input.flush().expect("flush");
        let answer = rx.recv_timeout(Duration::from_secs(30));
        let answer = answer.unwrap_or_else(|_| {
            let _ = child.kill();
            panic!("no answer to line {n} while standard input stays open");
        });
        assert!(answer.contains(&format!(",{n}]")), "{answer}");
    }
    drop(input);
    assert_eq!(finish(&mut child, &["batch"]), Some(0));
}

/// One output line per input line, in order, whatever the lines hold: blank, not JSON, not
/// UTF-8, CRLF endings, a byte-order mark first, no newline at the end.
#[test]
fn batch_keeps_line_count_and_order_on_hostile_lines() {
    let mut input = b"\xEF\xBB\xBF".to_vec();
    let total = 300;
    for i in 0..total {
        match i {
            _ if i % 7 == 3 => input.extend_from_slice(b"   "),
            _ if i % 11 == 5 => input.extend_from_slice(b"not json"),
            _ if i % 13 == 6 => input.extend_from_slice(b"{\"n\": \xFF\xFE}"),
            _ => input.extend_from_slice(format!("{{\"n\": {i}}}").as_bytes()),
        }
        if i + 1 < total {
            input.extend_from_slice(if i % 2 == 0 { b"\r\n" } else { b"\n" });
        }
    }
    let tiny = tiny();
    let r = run(&["batch", s(&tiny), "--no-explain"], &input);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), total, "{}", r.stdout);
    for (i, line) in lines.iter().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).expect("each answer is JSON");
        let error = v["error"].as_str().unwrap_or("");
        match i {
            _ if i % 7 == 3 => assert_eq!(error, "empty line", "line {i}"),
            _ if i % 11 == 5 => assert!(error.starts_with("not JSON"), "line {i}: {line}"),
            _ if i % 13 == 6 => assert!(error.contains("not UTF-8"), "line {i}: {line}"),
            _ => {
                let kind = if i > 9 { "big" } else { "small" };
                assert_eq!(v["conclusions"][0]["args"], serde_json::json!([kind, i]), "line {i}");
            }
        }
    }
}

#[test]
fn batch_answers_an_overlong_line_with_an_error_and_goes_on() {
    let mut input = vec![b'x'; 3 << 20];
    input.extend_from_slice(b"\n{\"n\": 4}\n");
    let tiny = tiny();
    let r = run(&["batch", s(&tiny), "--no-explain"], &input);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].contains("longer than"), "{}", lines[0]);
    assert!(lines[1].contains(r#"["small",4]"#), "{}", lines[1]);
}

#[test]
fn batch_stays_quiet_when_its_reader_goes_away() {
    let tiny = tiny();
    let mut child = Command::new(BIN)
        .args(["batch", s(&tiny), "--no-explain"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start kibitzer");
    let mut input = child.stdin.take().expect("stdin");
    std::thread::spawn(move || {
        for i in 0..200_000 {
            if writeln!(input, "{{\"n\": {i}}}").is_err() {
                return;
            }
        }
    });
    let mut first = String::new();
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    out.read_line(&mut first).expect("first answer");
    assert!(first.contains(r#"["small",0]"#), "{first}");
    drop(out);
    let err = drain(child.stderr.take().expect("stderr"));
    assert_eq!(finish(&mut child, &["batch"]), Some(0));
    assert_eq!(err.join().expect("stderr"), "");
}

// ---- write errors -----------------------------------------------------------------------------

#[test]
fn a_failed_write_is_one_line_and_exit_2_for_every_command() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    let tiny = tiny();
    let cases: [(&[&str], &[u8]); 7] = [
        (&["rules", "stud", "--source"], b""),
        (&["ask", "stud", "hand=8S TD TS 8H 8C"], b""),
        (&["ask", "stud", "--json", "hand=8S TD TS 8H 8C"], b""),
        (&["batch", s(&tiny)], b"{\"n\": 1}\n{\"n\": 2}\n"),
        (&["check", s(&tiny)], b""),
        (&["rules", "stud"], b""),
        (&["play", "durak", "--seats", "random,random", "--games", "5"], b""),
    ];
    for (args, stdin) in cases {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let r = run_to(args, stdin, Some(Stdio::from(full)));
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        no_crash(&r, &format!("{args:?}"));
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains("cannot write standard output"),
            "{args:?}: {}",
            r.stderr
        );
    }
}

// ---- --timeout --------------------------------------------------------------------------------

#[test]
fn ask_past_its_timeout_prints_what_it_has_and_why_it_stopped() {
    let tiny = tiny();
    let spin = tiny.with_file_name("spin.rules");
    let endless = ["--max-firings", "1000000000000", "--timeout", "0.3"];
    let r = run(&[&["ask", s(&spin), "n=3"][..], &endless].concat(), b"");
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stdout.contains("verdict: small, 3\n"), "{}", r.stdout);
    assert!(r.stderr.contains("stopped: the --timeout ran out"), "{}", r.stderr);
    let r = run(&[&["ask", s(&spin), "n=3", "--json"][..], &endless].concat(), b"");
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON");
    assert_eq!(v["stop"], "timeout");
    assert_eq!(v["conclusions"][0]["args"][1], 3, "{v}");
    let r = run(&["ask", s(&tiny), "n=3", "--timeout", "30"], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

/// Each game's most expensive documented input (its search parameters at the top of their
/// domains) under `--timeout 1` ends within a second and a little, naming the timeout when it
/// cut the run short. Measured by hand with a release build: every one ends in 1.00–1.02 s.
#[test]
fn every_games_most_expensive_input_ends_at_its_timeout() {
    let inputs: [&[&str]; 6] = [
        &[
            "stud",
            "hand=8S TD TS",
            "opponent=XX 3C 5D",
            "opponent2=XX 4C 6D",
            "opponent3=XX 9C",
            "opponent4=XX 2H",
            "--param",
            "exact_budget=0",
            "--param",
            "samples=1000000000",
        ],
        &[
            "durak",
            "hand=6S 7S KH AD 9C TC",
            "trump=H",
            "stock=12",
            "hands=6 6",
            "role=attack",
            "--param",
            "samples=100000",
            "--param",
            "endgame_nodes=1000000000",
            "--param",
            "endgame_table_mb=4096",
        ],
        &[
            "mahjong",
            "hand=147m 258p 369s ESWNC",
            "wall=136",
            "--param",
            "budget=100000",
            "--param",
            "horizon=68",
        ],
        &[
            "rummy",
            "hand=AH 2H 4H 5H 7H 8H TH JH KH AS 3S 4S 6S 7S 9S TS QS KS 2D 3D 7C JK",
            "wild=7",
            "--param",
            "node_budget=100000000000",
        ],
        &[
            "rummy",
            "hand=AH 2H 4H 5H 7H 8H TH JH KH AS 3S 4S 6S 7S 9S TS QS KS 2D 3D 7C JK",
            "wild=7",
        ],
        &[
            "doudizhu",
            "me=3 3 4 5 6 7 8 9 10 J Q K A 2 2 BJ RJ",
            "enemy=3 4 4 5 5 6 7 7 8 9 9 10 J Q K A A",
            "--param",
            "max_nodes=100000000000",
            "--param",
            "option_nodes=100000000000",
            "--param",
            "line_nodes=100000000000",
            "--param",
            "table_mb=65536",
        ],
    ];
    for input in inputs {
        let args = [&["ask"][..], input, &["--timeout", "1", "--explain", "none"]].concat();
        let start = std::time::Instant::now();
        let r = run(&args, b"");
        let took = start.elapsed();
        // Generous for a debug build on a machine shared with other work.
        assert!(took < Duration::from_secs(4), "{input:?}: {took:?}");
        match r.code {
            Some(2) => assert!(
                r.stderr.contains("stopped: the --timeout ran out"),
                "{input:?}: {}",
                r.stderr
            ),
            // A faster machine may answer within the second: then it says nothing of a stop.
            Some(0) => assert!(
                took < Duration::from_millis(1200) && r.stderr.is_empty(),
                "{input:?}: {}",
                r.stderr
            ),
            code => panic!("{input:?}: exit {code:?}: {}", r.stderr),
        }
    }
}

#[test]
fn batch_lines_past_their_timeout_get_their_stop_and_the_run_goes_on() {
    let spin = tiny().with_file_name("spin.rules");
    let r = run(
        &[
            "batch",
            s(&spin),
            "--no-explain",
            "--max-firings",
            "1000000000000",
            "--timeout",
            "0.2",
        ],
        b"{\"n\": 1}\n{\"n\": 20}\n",
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let lines: Vec<serde_json::Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(lines.len(), 2);
    for (v, n) in lines.iter().zip([1, 20]) {
        assert_eq!(v["stop"], "timeout", "{v}");
        assert_eq!(v["conclusions"][0]["args"][1], n, "{v}");
    }
}

#[test]
fn play_stops_between_games_at_its_timeout() {
    let r = run(
        &[
            "play",
            "durak",
            "--seats",
            "random,random",
            "--games",
            "1000000000",
            "--timeout",
            "0.5",
        ],
        b"",
    );
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("stopped: the --timeout ran out"), "{}", r.stderr);
    let played = games_played(&r.stdout);
    assert!(played > 0 && played < 1_000_000_000, "{}", r.stdout);
}

/// A rule seat whose decision the deadline cuts short ends the match with the games finished
/// and their figures, not with an error about the plays the rules gave.
#[test]
fn play_with_rule_seats_stops_at_its_timeout_with_the_figures_of_the_games_finished() {
    for (game, seats) in [("durak", "durak,durak"), ("mahjong", "mahjong,mahjong")] {
        let mut played = Vec::new();
        for timeout in ["0.7", "1.3"] {
            let args = [
                "play",
                game,
                "--seats",
                seats,
                "--games",
                "1000000000",
                "--timeout",
                timeout,
            ];
            let r = run(&args, b"");
            assert_eq!(r.code, Some(2), "{game}: {}", r.stderr);
            assert!(
                r.stderr.contains("stopped: the --timeout ran out"),
                "{game}: {}",
                r.stderr
            );
            assert!(
                !r.stderr.contains("plays") && !r.stderr.contains("failed"),
                "{game}: {}",
                r.stderr
            );
            if game == "durak" {
                played.push(games_played(&r.stdout));
            } else {
                assert!(r.stdout.contains("games"), "{}", r.stdout);
            }
        }
        assert!(played.iter().all(|&n| n < 1_000_000_000), "{played:?}");
    }
}

/// The games a durak match played, from its last line of figures (`games=N …`).
fn games_played(stdout: &str) -> u64 {
    stdout
        .lines()
        .last()
        .and_then(|l| l.strip_prefix("games="))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no figures line: {stdout}"))
}

/// Starts a long durak match, reads its first line, sends `signal` a second later, and returns
/// the first line, the exit code, the rest of standard output, and standard error.
#[cfg(unix)]
fn play_until(signal: &str) -> (String, Option<i32>, String, String) {
    let args = ["play", "durak", "--seats", "durak,durak", "--games", "100000"];
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start kibitzer");
    let out = child.stdout.take().expect("stdout");
    let err = drain(child.stderr.take().expect("stderr"));
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut out = BufReader::new(out);
        let mut first = String::new();
        let _ = out.read_line(&mut first);
        let _ = tx.send(first);
        let mut rest = String::new();
        let _ = out.read_to_string(&mut rest);
        rest
    });
    let Ok(first) = rx.recv_timeout(LIMIT) else {
        let _ = child.kill();
        panic!("no first line within {LIMIT:?}");
    };
    assert!(child.try_wait().expect("wait").is_none(), "the match ended early");
    std::thread::sleep(Duration::from_secs(1));
    let sent = Command::new("kill").args([signal, &child.id().to_string()]).status();
    assert!(sent.is_ok_and(|s| s.success()), "kill {signal}");
    let code = finish(&mut child, &args);
    let rest = reader.join().expect("stdout reader");
    (first, code, rest, err.join().expect("stderr reader"))
}

#[cfg(unix)]
#[test]
fn play_prints_its_first_line_at_once_and_ctrl_c_prints_the_games_finished() {
    for signal in ["-INT", "-TERM"] {
        let (first, code, rest, stderr) = play_until(signal);
        assert!(first.starts_with("durak: 100000 games, 2 players"), "{signal}: {first}");
        assert_eq!(code, Some(130), "{signal}: {stderr}");
        let played = games_played(&rest);
        assert!(played > 0 && played < 100_000, "{signal}: {rest}");
        assert!(rest.contains("seat 1 durak "), "{signal}: {rest}");
        let said =
            format!("stopped: interrupted after {played} of 100000 games; the figures above are for those {played}");
        assert!(stderr.contains(&said), "{signal}: {stderr}");
        // Standard error is no terminal here: no progress bar.
        assert_eq!(stderr.lines().count(), 1, "{signal}: {stderr}");
    }
}

#[test]
fn play_puts_column_names_above_the_result_rows() {
    for (game, seats) in [("durak", "random,lowest"), ("mahjong", "random,strong")] {
        let r = run(&["play", game, "--seats", seats, "--games", "4", "--quiet"], b"");
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        let lines: Vec<&str> = r.stdout.lines().collect();
        let at = lines.iter().position(|l| l.starts_with("seat 1 ")).expect("a seat row");
        assert!(lines[at - 1].starts_with("seat   player"), "{}", r.stdout);
        assert!(lines[at + 1].starts_with("seat 2 "), "{}", r.stdout);
    }
}

#[test]
fn a_seat_no_player_fills_lists_the_games_players_and_rule_sets() {
    for (game, seats, players, rule_sets) in [
        (
            "durak",
            "durak,nobody",
            "players: random, lowest, reference",
            "rule sets: durak, or a path",
        ),
        (
            "durak",
            "stud,random",
            "players: random, lowest, reference",
            "rule sets: durak, or a path",
        ),
        (
            "mahjong",
            "nobody,seed",
            "players: random, reference, strong",
            "rule sets: mahjong, mahjong_reference, or a path",
        ),
        (
            "mahjong",
            "rummy,seed",
            "players: random, reference, strong",
            "rule sets: mahjong, mahjong_reference, or a path",
        ),
    ] {
        let r = run(&["play", game, "--seats", seats, "--games", "1"], b"");
        assert_eq!(r.code, Some(2), "{seats}: {}", r.stderr);
        assert_eq!(r.stdout, "", "{seats}");
        assert!(r.stderr.starts_with("kibitzer: seat "), "{seats}: {}", r.stderr);
        assert!(
            r.stderr.contains(players) && r.stderr.contains(rule_sets),
            "{seats}: {}",
            r.stderr
        );
        assert!(
            !r.stderr.contains("doudizhu"),
            "{seats}: another game's rule sets: {}",
            r.stderr
        );
    }
}

#[test]
fn every_error_starts_with_kibitzer() {
    for args in [
        &["check", "nosuch.rules"][..],
        &["check", "nosuch"],
        &["ask", "nosuch.rules", "hand=8S"],
        &["ask", "stud", "hand=8S 1X"],
        &["ask"],
        &["ask", "stud", "--explain", "everything"],
        &["nosuch"],
        &["rules", "nosuch"],
        &["test", "nosuch.cases.toml"],
        &["batch", "nosuch"],
        &["diff", "stud", "nosuch"],
        &["bench", "nosuch"],
        &["play", "nosuch"],
        &["play", "durak", "--seats", "durak"],
    ] {
        let r = run(args, b"");
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        no_crash(&r, &format!("{args:?}"));
        assert!(r.stderr.starts_with("kibitzer: "), "{args:?}: {}", r.stderr);
    }
    // A missing rule file is one line: no count of errors after it.
    let r = run(&["check", "nosuch.rules"], b"");
    assert_eq!(
        r.stderr,
        "kibitzer: cannot read nosuch.rules: No such file or directory (os error 2)\n"
    );
}

#[test]
fn bad_timeouts_are_usage_errors_naming_the_value() {
    for bad in ["0", "-1", "abc", "NaN", "inf", "1e400", ""] {
        for cmd in [
            &["ask", "stud", "hand=8S TD TS 8H 8C"][..],
            &["batch", "stud"],
            &["play", "durak"],
        ] {
            let flag = format!("--timeout={bad}");
            let mut args = cmd.to_vec();
            args.push(&flag);
            let r = run(&args, b"");
            assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
            no_crash(&r, bad);
            assert!(r.stderr.contains(&format!("`{bad}`")), "{args:?}: {}", r.stderr);
        }
    }
}

// ---- check on folders -------------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn check_walks_a_folder_once_without_following_symlinked_folders() {
    use std::os::unix::fs::symlink;
    let dir = TempDir::new().expect("temp dir");
    let root = dir.path();
    std::fs::create_dir(root.join("sub")).expect("sub");
    std::fs::copy(tiny(), root.join("a.rules")).expect("a");
    std::fs::copy(tiny(), root.join("sub/b.rules")).expect("b");
    symlink("/", root.join("slash")).expect("link to /");
    symlink("..", root.join("sub/up")).expect("link to the parent");
    symlink("a.rules", root.join("same.rules")).expect("link to a file");
    let r = run(&["check", s(root)], b"");
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert_eq!(
        r.stdout.lines().filter(|l| l.starts_with("ok: ")).count(),
        2,
        "{}",
        r.stdout
    );
}

#[cfg(unix)]
#[test]
fn check_refuses_a_fifo_instead_of_waiting_on_it() {
    let dir = TempDir::new().expect("temp dir");
    let fifo = dir.path().join("pipe.rules");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return;
    }
    let r = run(&["check", s(dir.path())], b"");
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("not a regular file"), "{}", r.stderr);
}

// ---- includes and the files a message may quote -----------------------------------------------

/// A rule set's folder `tree/` beside `outside/`, which holds a "secret" on its first line.
struct Layout {
    dir: TempDir,
}

impl Layout {
    fn new() -> Layout {
        let dir = TempDir::new().expect("temp dir");
        let root = dir.path();
        std::fs::create_dir(root.join("tree")).expect("tree");
        std::fs::create_dir(root.join("outside")).expect("outside");
        let secret = format!("{SECRET} is not a rule\n");
        std::fs::write(root.join("outside/secret.rules"), &secret).expect("secret.rules");
        std::fs::write(root.join("outside/secret.txt"), &secret).expect("secret.txt");
        std::fs::write(root.join("tree/notes.txt"), &secret).expect("notes.txt");
        std::fs::write(
            root.join("outside/extra.rules"),
            "rule Extra \"extra\" when n(?n) ?n > 100 then assert verdict(\"huge\", ?n) end\n",
        )
        .expect("extra.rules");
        Layout { dir }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// `tree/NAME.rules`: the tiny rule set plus `include "WHAT"`.
    fn including(&self, name: &str, what: &str) -> PathBuf {
        let p = self.path(&format!("tree/{name}.rules"));
        std::fs::write(&p, format!("{}include \"{what}\"\n", tiny_text())).expect("write");
        p
    }
}

#[cfg(unix)]
#[test]
fn includes_cannot_leave_the_folder_or_read_what_is_not_a_rule_file() {
    use std::os::unix::fs::symlink;
    let l = Layout::new();
    symlink(l.path("outside/secret.rules"), l.path("tree/link.rules")).expect("link");
    symlink("/proc/self/environ", l.path("tree/env.rules")).expect("link");
    let secret_abs = l.path("outside/secret.rules");
    let cases = [
        ("up", "../outside/secret.rules".to_string(), "resolves outside"),
        ("absolute", s(&secret_abs).to_string(), "absolute path"),
        ("through_a_link", "link.rules".to_string(), "resolves outside"),
        ("not_rules", "notes.txt".to_string(), "only .rules files"),
        ("environ", "env.rules".to_string(), "resolves outside"),
    ];
    for (name, what, why) in cases {
        let main = l.including(name, &what);
        for args in [vec!["check", s(&main)], vec!["ask", s(&main), "n=1"]] {
            let r = run(&args, b"");
            assert_eq!(r.code, Some(2), "{name}: {}", r.stderr);
            no_secret(&r, name);
            no_crash(&r, name);
            assert!(r.stderr.contains(why), "{name}: {}", r.stderr);
        }
    }
}

#[test]
fn include_root_lets_includes_come_from_a_wider_folder() {
    let l = Layout::new();
    let main = l.including("wide", "../outside/extra.rules");
    let r = run(&["ask", s(&main), "n=200"], b"");
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    let root = l.path("");
    let r = run(&["ask", s(&main), "n=200", "--include-root", s(&root)], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.contains("verdict: huge, 200\n"), "{}", r.stdout);
    let r = run(&["check", s(&main), "--include-root", s(&root)], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let batch = run(
        &["batch", s(&main), "--no-explain", "--include-root", s(&root)],
        b"{\"n\": 200}\n",
    );
    assert!(batch.stdout.contains("huge"), "{}{}", batch.stdout, batch.stderr);
}

#[cfg(unix)]
#[test]
fn a_file_that_is_not_a_rule_file_is_never_quoted() {
    use std::os::unix::fs::symlink;
    let l = Layout::new();
    symlink(l.path("outside/secret.txt"), l.path("tree/disguised.rules")).expect("link");
    let txt = l.path("outside/secret.txt");
    let disguised = l.path("tree/disguised.rules");
    let runs = [
        vec!["check", s(&txt)],
        vec!["check", s(&disguised)],
        vec!["ask", s(&txt), "n=1"],
        vec!["ask", s(&disguised), "n=1"],
        vec!["ask", "stud", "--rules", s(&txt), "hand=8S TD TS 8H 8C"],
        vec!["batch", "stud", "--rules", s(&disguised)],
        vec!["rules", s(&txt)],
        vec!["rules", s(&disguised)],
    ];
    for args in runs {
        let r = run(&args, b"{}\n");
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        no_secret(&r, &format!("{args:?}"));
        assert!(r.stderr.contains("not a rule file"), "{args:?}: {}", r.stderr);
    }
    // A rule file's own syntax errors are still quoted with their line.
    let own = l.path("outside/secret.rules");
    let r = run(&["check", s(&own)], b"");
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains(SECRET), "{}", r.stderr);
}

/// The same file reached by two spellings is one file, so a cycle through it is recognised.
#[test]
fn an_include_cycle_names_each_file_once() {
    let dir = TempDir::new().expect("temp dir");
    let a = dir.path().join("a.rules");
    std::fs::write(&a, format!("{}include \"b.rules\"\n", tiny_text())).expect("a");
    std::fs::write(dir.path().join("b.rules"), "include \"./sub/../a.rules\"\n").expect("b");
    std::fs::create_dir(dir.path().join("sub")).expect("sub");
    let r = run(&["check", s(&a)], b"");
    no_crash(&r, "cycle");
    // Read again under another name, a.rules would nest until the depth limit.
    assert!(!r.stderr.contains("nest too deeply"), "{}", r.stderr);
    let first = r.stderr.lines().next().unwrap_or_default();
    assert!(first.contains("include cycle"), "{}", r.stderr);
    assert!(
        !first.contains("sub/.."),
        "a file named by a spelling, not by itself:\n{}",
        r.stderr
    );
}

// ---- --rules with another rule set, byte-order marks ------------------------------------------

#[test]
fn rules_file_must_declare_the_rule_set_asked_for() {
    let dir = TempDir::new().expect("temp dir");
    let copy = dir.path().join("my-stud.rules");
    let stud = kibitzer::library::shipped_text("stud.rules").expect("shipped stud");
    std::fs::write(&copy, stud).expect("copy");
    let hand = "hand=8S TD TS 8H 8C";
    let r = run(&["ask", "durak", "--rules", s(&copy), hand], b"");
    assert_eq!(r.code, Some(2), "{}", r.stdout);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("declares rule set `stud`, not `durak`"),
        "{}",
        r.stderr
    );
    let r = run(
        &["batch", "durak", "--rules", s(&copy)],
        b"{\"hand\": \"8S TD TS 8H 8C\"}\n",
    );
    assert_eq!(r.code, Some(2));
    assert_eq!(r.stdout, "");
    assert!(
        r.stderr.contains("declares rule set `stud`, not `durak`"),
        "{}",
        r.stderr
    );
    let r = run(&["ask", "stud", "--rules", s(&copy), hand], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.contains("full house"), "{}", r.stdout);
}

#[test]
fn a_byte_order_mark_before_a_rule_file_is_ignored() {
    let dir = TempDir::new().expect("temp dir");
    let main = dir.path().join("bom.rules");
    std::fs::write(&main, format!("\u{feff}{}", tiny_text())).expect("write");
    let r = run(&["check", s(&main)], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let r = run(&["ask", s(&main), "n=12"], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.contains("verdict: big, 12\n"), "{}", r.stdout);
}

// ---- version and help -------------------------------------------------------------------------

#[test]
fn version_and_help_to_a_full_disk_fail_with_one_line() {
    let r = run(&["--version"], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.starts_with("kibitzer "), "{}", r.stdout);
    if !Path::new("/dev/full").exists() {
        return;
    }
    for args in [&["--version"][..], &["--help"], &["ask", "--help"], &["help", "test"]] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let r = run_to(args, b"", Some(Stdio::from(full)));
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        no_crash(&r, &format!("{args:?}"));
        assert!(
            r.stderr.starts_with("kibitzer: cannot write standard output"),
            "{args:?}: {}",
            r.stderr
        );
    }
}

// ---- counts -----------------------------------------------------------------------------------

#[test]
fn counts_outside_their_domain_are_usage_errors_naming_the_option_and_domain() {
    let huge = "18446744073709551615";
    // (arguments, the option or setting the error must name, the range it must give)
    let cases: [(&[&str], &str, &str); 16] = [
        (
            &["diff", "stud", "stud", "--positions", huge],
            "--positions",
            "1..=100000",
        ),
        (
            &["diff", "stud", "stud", "--positions", "1000000000"],
            "--positions",
            "1..=100000",
        ),
        (
            &["diff", "stud", "stud", "--positions", "0"],
            "--positions",
            "1..=100000",
        ),
        (
            &["play", "durak", "--seats", "random,random", "--games", "0"],
            "--games",
            "1..=4294967295",
        ),
        (
            &["play", "durak", "--seats", "random,random", "--games", huge],
            "--games",
            "1..=4294967295",
        ),
        (
            &["ask", "stud", "hand=8S TD TS 8H 8C", "--max-firings", "0"],
            "--max-firings",
            "1..=1000000000000000",
        ),
        (
            &["batch", "stud", "--max-firings", huge],
            "--max-firings",
            "1..=1000000000000000",
        ),
        (
            &["ask", "stud", "hand=8S TD TS 8H 8C", "--whatif-depth", "7"],
            "--whatif-depth",
            "0..=6",
        ),
        (&["test", "--min-coverage", "101"], "--min-coverage", "0 to 100"),
        (&["test", "--min-coverage", "NaN"], "--min-coverage", "0 to 100"),
        (&["bench", "stud-odds", "runs=0"], "runs=0", "1 to 1000000"),
        (
            &["bench", "mahjong", "only=rules", "games=-1"],
            "games=-1",
            "0 to 100000",
        ),
        (
            &["play", "mahjong", "--seats", "lookahead-999999999-6,random"],
            "lookahead-B-H",
            "0 to 100000",
        ),
        (
            &["play", "mahjong", "--seats", "lookahead-20-0,random"],
            "lookahead-B-H",
            "1 to 68",
        ),
        (
            &["play", "mahjong", "--seats", "lookahead/read+peek,random"],
            "lookahead/LEVERS",
            "margin-X",
        ),
        (
            &["play", "mahjong", "--seats", "lookahead/margin--1,random"],
            "lookahead/LEVERS",
            "margin-X",
        ),
    ];
    for (args, option, domain) in cases {
        let r = run(args, b"");
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        no_crash(&r, &format!("{args:?}"));
        assert!(
            r.stderr.contains(option) && r.stderr.contains(domain),
            "{args:?}: {}",
            r.stderr
        );
    }
}

// ---- a rule file given through a link ---------------------------------------------------------

#[cfg(unix)]
#[test]
fn a_linked_rule_file_is_named_as_given_and_its_includes_where_they_are() {
    use std::os::unix::fs::symlink;
    let l = Layout::new();
    std::fs::write(
        l.path("outside/real.rules"),
        "ruleset r \"r\"\ninput n: int\noutput x\ninclude \"part.rules\"\nrule A when n(?n) then assert x(?q) end\n",
    )
    .expect("real.rules");
    std::fs::write(
        l.path("outside/part.rules"),
        "rule B when n(?n) then assert x(?p) end\n",
    )
    .expect("part");
    symlink(l.path("outside/real.rules"), l.path("tree/link.rules")).expect("link");
    let link = l.path("tree/link.rules");
    let r = run(&["check", s(&link)], b"");
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    let named: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.contains(": error: "))
        .map(|l| l.split(':').next().unwrap_or(""))
        .collect();
    assert_eq!(named.len(), 2, "{}", r.stderr);
    for file in named {
        assert!(
            Path::new(file).exists(),
            "a message names `{file}`, which does not exist:\n{}",
            r.stderr
        );
    }
    assert!(r.stderr.contains(&format!("{}:5:", s(&link))), "{}", r.stderr);
    // A link to a file that is not there names where it leads.
    symlink(l.path("outside/gone.rules"), l.path("tree/dangling.rules")).expect("link");
    let r = run(&["check", s(&l.path("tree/dangling.rules"))], b"");
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(
        r.stderr.contains("dangling.rules (→ ") && r.stderr.contains("gone.rules"),
        "{}",
        r.stderr
    );
}

// ---- paths named by case files ----------------------------------------------------------------

/// `tree/NAME.cases.toml`: one stud case pinning the explanation file `golden`.
fn case_file(l: &Layout, name: &str, golden: &str) -> PathBuf {
    let p = l.path(&format!("tree/{name}.cases.toml"));
    let text = format!(
        "rules = \"stud\"\n[[case]]\nname = \"pinned\"\ninputs = {{ hand = \"2S 3D 4S 5H 6C\" }}\nexplanation = {golden:?}\n"
    );
    std::fs::write(&p, text).expect("case file");
    p
}

#[cfg(unix)]
#[test]
fn a_case_file_reads_and_writes_only_inside_its_folder_tree() {
    use std::os::unix::fs::symlink;
    let l = Layout::new();
    symlink(l.path("outside/secret.txt"), l.path("tree/link.txt")).expect("link");
    symlink(l.path("outside"), l.path("tree/out")).expect("folder link");
    let secret_abs = l.path("outside/secret.txt");
    let cases = [
        ("up", "../outside/secret.txt".to_string(), "resolves to"),
        ("absolute", s(&secret_abs).to_string(), "not absolute"),
        ("etc", "/etc/passwd".to_string(), "not absolute"),
        ("through_a_link", "link.txt".to_string(), "resolves to"),
        ("through_a_folder_link", "out/new.txt".to_string(), "resolves to"),
        ("a_new_file_outside", "../outside/new/x.txt".to_string(), "resolves to"),
        ("a_folder", ".".to_string(), "not a regular file"),
    ];
    for (name, golden, why) in cases {
        let file = case_file(&l, name, &golden);
        for update in [false, true] {
            let mut args = vec!["test", s(&file)];
            if update {
                args.push("--update");
            }
            let r = run(&args, b"");
            assert_eq!(r.code, Some(2), "{name}: {}", r.stderr);
            no_secret(&r, name);
            no_crash(&r, name);
            assert!(
                r.stderr.contains(&format!("explanation {golden:?}")),
                "{name}: {}",
                r.stderr
            );
            assert!(r.stderr.contains(why), "{name}: {}", r.stderr);
        }
    }
    assert!(!l.path("outside/new.txt").exists() && !l.path("outside/new").exists());
    assert_eq!(
        std::fs::read_to_string(&secret_abs).expect("secret"),
        format!("{SECRET} is not a rule\n")
    );
    // A rule file named outside is refused the same way.
    let p = l.path("tree/rules.cases.toml");
    std::fs::write(&p, "rules = \"../outside/secret.rules\"\n").expect("case file");
    let r = run(&["test", s(&p)], b"");
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    no_secret(&r, "rules");
    assert!(
        r.stderr.contains("rules \"../outside/secret.rules\": it resolves to"),
        "{}",
        r.stderr
    );
}

#[test]
fn update_creates_no_folder_and_include_root_widens_the_tree() {
    let l = Layout::new();
    let file = case_file(&l, "g", "golden/straight.txt");
    let r = run(&["test", s(&file), "--update"], b"");
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("creates no folder"), "{}", r.stderr);
    assert!(!l.path("tree/golden").exists());
    // Beside the case file, or in a folder that exists.
    std::fs::create_dir(l.path("tree/golden")).expect("golden");
    let r = run(&["test", s(&file), "--update"], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(l.path("tree/golden/straight.txt").is_file());
    // Another folder of a wider tree, with --include-root.
    let wide = case_file(&l, "wide", "../outside/straight.txt");
    let root = l.path("");
    let r = run(&["test", s(&wide), "--update", "--include-root", s(&root)], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let r = run(&["test", s(&wide), "--include-root", s(&root)], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(l.path("outside/straight.txt").is_file());
}

// ---- memory -----------------------------------------------------------------------------------

/// The durak endgame's table grows as the search needs it, so its largest setting is no
/// up-front allocation that a machine with less memory refuses (an abort).
#[cfg(unix)]
#[test]
fn the_largest_endgame_table_setting_answers_within_three_gib_of_address_space() {
    let (hand, opponent) = (["AH", "TS", "TD", "6C"], ["JS", "KD", "QC"]);
    let out: Vec<String> = "SHDC"
        .chars()
        .flat_map(|suit| "6789TJQKA".chars().map(move |rank| format!("{rank}{suit}")))
        .filter(|c| !hand.contains(&c.as_str()) && !opponent.contains(&c.as_str()))
        .collect();
    let args = [
        "ask".to_string(),
        "durak".into(),
        format!("hand={}", hand.join(" ")),
        "trump=H".into(),
        "stock=0".into(),
        "hands=4,3".into(),
        "role=attack".into(),
        format!("out={}", out.join(" ")),
        "--param".into(),
        "endgame_table_mb=4096".into(),
        "--explain".into(),
        "none".into(),
    ];
    let output = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 3000000 && exec \"$0\" \"$@\"")
        .arg(BIN)
        .args(&args)
        .output()
        .expect("run sh");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("play: attack"), "{stdout}{stderr}");
    // In `batch`, the lines after it are answered too.
    let row = serde_json::json!({
        "hand": hand.join(" "), "trump": "H", "stock": 0, "hands": "4,3", "role": "attack",
        "out": out.join(" "), "params": {"endgame_table_mb": 4096},
    });
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 3000000 && exec \"$0\" \"$@\"")
        .arg(BIN)
        .args(["batch", "durak", "--no-explain"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sh");
    let lines = format!("{row}\n{row}\n{{\"hand\": \"6S\", \"trump\": \"H\"}}\n");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(lines.as_bytes())
        .expect("write");
    let output = child.wait_with_output().expect("batch");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        stdout.lines().count(),
        3,
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.lines().take(2).all(|l| l.contains("attack")), "{stdout}");
}

// ---- rules --source ---------------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn rules_source_prints_only_rule_files_of_the_folder_tree() {
    use std::os::unix::fs::symlink;
    let l = Layout::new();
    symlink(l.path("outside/secret.txt"), l.path("tree/disguised.rules")).expect("link");
    let escaping = l.including("escaping", "../outside/secret.txt");
    let txt = l.path("outside/secret.txt");
    for file in [&txt, &l.path("tree/disguised.rules"), &escaping] {
        let r = run(&["rules", s(file), "--source"], b"");
        assert_eq!(r.code, Some(2), "{file:?}: {}{}", r.stdout, r.stderr);
        no_secret(&r, &format!("{file:?}"));
    }
    // An include is read relative to the file that includes it, as the load reads it.
    std::fs::create_dir(l.path("tree/sub")).expect("sub");
    std::fs::write(l.path("tree/sub/part.rules"), "include \"../leaf.rules\"\n").expect("part");
    std::fs::write(l.path("tree/leaf.rules"), "# the leaf\n").expect("leaf");
    let main = l.including("nested", "sub/part.rules");
    let r = run(&["rules", s(&main), "--source"], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.contains("# the leaf\n"), "{}", r.stdout);
}

/// Runs `command` (a shell command line) with a terminal as its standard error, through
/// util-linux's `script`, and returns what the terminal received; `None` where `script` is missing.
#[cfg(unix)]
fn on_a_terminal(command: &str) -> Option<String> {
    let out = Command::new("script")
        .args(["-q", "-e", "-c", command, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .ok()?;
    assert!(
        out.status.success(),
        "{command}: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[cfg(unix)]
#[test]
fn long_commands_show_progress_on_a_terminal_only_and_not_with_quiet() {
    let dir = TempDir::new().expect("temp dir");
    let lines = dir.path().join("lines.jsonl");
    std::fs::write(&lines, "{\"hand\": \"8S TD TS 8H 8C\"}\n".repeat(200)).expect("write");
    let lines = lines.display();
    for (args, shown) in [
        ("diff stud stud --positions 30".to_string(), "/30 positions"),
        ("test".to_string(), " cases, "),
        ("bench rummy --quick".to_string(), "elapsed bench rummy"),
        (format!("batch stud --no-explain < {lines}"), "lines answered"),
    ] {
        // Standard output to a file: the progress is all the terminal sees.
        let Some(seen) = on_a_terminal(&format!("{BIN} {args} > /dev/null")) else {
            eprintln!("no `script` here: progress on a terminal not checked");
            return;
        };
        assert!(seen.contains(shown), "{args}: no progress on the terminal: {seen:?}");
        let quiet = on_a_terminal(&format!("{BIN} {args} --quiet > /dev/null")).unwrap_or_default();
        assert_eq!(quiet, "", "{args} --quiet");
        // No terminal: nothing on standard error.
        let words: Vec<String> = args
            .split(" < ")
            .next()
            .unwrap_or("")
            .split(' ')
            .map(String::from)
            .collect();
        let input = std::fs::read(dir.path().join("lines.jsonl")).expect("read");
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let r = run(&words, if args.starts_with("batch") { &input } else { b"" });
        assert_eq!(r.stderr, "", "{args}: standard error is no terminal");
    }
}

#[test]
fn diff_prints_its_header_before_the_answers() {
    let mut child = Command::new(BIN)
        .args(["diff", "durak", "durak", "--positions", "2000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start kibitzer");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    out.read_line(&mut first).expect("first line");
    let still_running = child.try_wait().expect("wait").is_none();
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(first, "2000 position(s); A = durak, B = durak\n");
    assert!(still_running, "the header came only at the end");
}

/// A fragment (no `ruleset` header) is checked through the rule sets that include it: those
/// given, else those in its folder; one that nothing includes is named, not parsed alone.
#[test]
fn check_reads_a_fragment_through_the_rule_set_that_includes_it() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let main = dir.path().join("main.rules");
    let part = dir.path().join("part.rules");
    std::fs::write(
        &main,
        "ruleset m \"m\"\ninclude \"part.rules\"\ninput n: int\noutput y\n",
    )
    .unwrap();
    std::fs::write(&part, "rule A when n(?n) then assert y(?n) end\n").unwrap();
    let folder = dir.path().to_str().unwrap();
    for target in [folder, part.to_str().unwrap()] {
        let r = run(&["check", target], b"");
        assert_eq!(r.code, Some(0), "{target}: {}{}", r.stdout, r.stderr);
        assert!(r.stdout.contains("main.rules: rule set `m`, 1 rules"), "{}", r.stdout);
        assert!(!r.stderr.contains("error"), "{}", r.stderr);
    }
    // Named alone from its own folder.
    let alone = Command::new(BIN)
        .args(["check", "part.rules"])
        .current_dir(dir.path())
        .output()
        .expect("start kibitzer");
    let said = String::from_utf8_lossy(&alone.stdout);
    assert_eq!(
        alone.status.code(),
        Some(0),
        "{said}{}",
        String::from_utf8_lossy(&alone.stderr)
    );
    assert!(said.contains("main.rules: rule set `m`, 1 rules"), "{said}");
    std::fs::remove_file(&main).unwrap();
    let r = run(&["check", part.to_str().unwrap()], b"");
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr
            .contains("no `ruleset` header, and no rule set in its folder includes it"),
        "{}",
        r.stderr
    );
}
