//! `kibitzer watch` and `kibitzer test --watch`: a query answered again, and the affected case files
//! run again, when a file changes; a file that stops checking shows its diagnostic, and the watch
//! goes on. Each run is bounded by `--runs`, and the child is killed if it outlives the test.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// A child process killed when the test ends, passed or failed.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The child's standard output and error, line by line, through a channel.
fn spawn(args: &[&str], dir: &Path) -> (Guard, Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kibitzer"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (send, lines) = channel();
    for stream in [
        Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
        Box::new(child.stderr.take().unwrap()),
    ] {
        let send = send.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    return;
                }
            }
        });
    }
    (Guard(child), lines)
}

/// Reads lines until one contains `want`; returns what was read.
fn until(lines: &Receiver<String>, want: &str) -> String {
    let mut seen = String::new();
    loop {
        match lines.recv_timeout(Duration::from_secs(30)) {
            Ok(l) => {
                seen.push_str(&l);
                seen.push('\n');
                if l.contains(want) {
                    return seen;
                }
            }
            Err(_) => panic!("no line with {want:?} within 30 s; read:\n{seen}"),
        }
    }
}

/// Rewrites a file so that its size changes too (a modification time may not, within a tick).
fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from));
    std::fs::write(path, text.replace(from, to)).unwrap();
}

fn pocket_in(dir: &Path) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    for f in ["pocket.rules", "pocket.cases.toml"] {
        std::fs::copy(root.join(f), dir.join(f)).unwrap();
    }
}

#[test]
fn watch_answers_again_after_each_change_and_shows_a_mistake() {
    let dir = tempfile::tempdir().unwrap();
    pocket_in(dir.path());
    let (mut child, lines) = spawn(
        &[
            "watch",
            "pocket.rules",
            "hand=QS QH 4D",
            "--runs",
            "3",
            "--interval",
            "50",
        ],
        dir.path(),
    );
    until(&lines, "keep: true");
    let rules = dir.path().join("pocket.rules");
    edit(&rules, "keep_from = 10 ", "keep_from = 13  ");
    let second = until(&lines, "keep: false");
    assert!(second.contains("── changed: pocket.rules ──"), "{second}");
    edit(&rules, "keep_from = 13  ", "keep_from = 1x ");
    let third = until(&lines, "error: syntax error");
    assert!(third.contains("pocket.rules:7:"), "{third}");
    let status = child.0.wait().unwrap();
    assert_eq!(
        status.code(),
        Some(2),
        "the last run's exit code: the rule file does not load"
    );
}

#[test]
fn test_watch_reruns_the_case_files_a_change_affects() {
    let dir = tempfile::tempdir().unwrap();
    pocket_in(dir.path());
    let (mut child, lines) = spawn(
        &[
            "test",
            "pocket.cases.toml",
            "--watch",
            "--runs",
            "2",
            "--interval",
            "50",
        ],
        dir.path(),
    );
    until(&lines, "7 passed, 0 failed");
    edit(&dir.path().join("pocket.rules"), "keep_from = 10 ", "keep_from = 13  ");
    let second = until(&lines, "failed (1 case file(s))");
    assert!(
        second.contains("── changed: ") && second.contains("pocket.rules ──"),
        "{second}"
    );
    assert!(
        second.contains("FAIL a lower bar keeps it") || second.contains("FAIL"),
        "{second}"
    );
    let status = child.0.wait().unwrap();
    assert_eq!(status.code(), Some(1));
}

#[test]
fn watch_needs_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_kibitzer"))
        .args(["watch", "stud", "hand=8S TD TS 8H 8C", "--runs", "1"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "kibitzer: watch needs a rule file to watch: a path to a .rules file, or --rules PATH\n"
    );
}
