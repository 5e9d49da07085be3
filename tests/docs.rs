//! The documentation stays true to the product.
//!
//! - Every ```console block of README.md and the manual's pages (`TESTED_PAGES`) runs, through
//!   trycmd: `$ kibitzer …` lines, an optional `? CODE` line for the exit code, then the expected
//!   output (standard output and standard error together), where `...` on its own line stands for any
//!   lines and `[..]` for any text within a line. trycmd cannot give a command standard input, nor
//!   run cargo, so a block whose command pipes text in (`$ echo '…' | kibitzer batch …`) or runs the
//!   binary through cargo (`$ cargo run --release -- ask …`, the README's first command) is marked
//!   ```console,ignore for trycmd and run here with the binary the tests built, with the same
//!   conventions. Snapshots are refreshed with `TRYCMD=overwrite cargo test --test docs` (then
//!   review the diff: elisions may need restoring).
//! - docs/tutorial.md runs as a reader follows it: its steps in order, in an empty folder.
//! - README.md opens with what works on a fresh clone: `cargo run --release -- …`, then `cargo test`.
//! - Every other fenced block that runs commands (```sh) holds install or test steps only.
//! - The README's Rust example is `examples/embed.rs` (which `cargo test` builds), and
//!   docs/language.md shows `examples/pocket.rules` as it is.
//! - README.md stays a front door (at most 16 KB), and README.md, ARCHITECTURE.md and every page of
//!   docs/ speak about the product, not about the work that made it: no references to a
//!   specification document, to tracker issues or to work sessions.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod tree;

const BIN: &str = env!("CARGO_BIN_EXE_kibitzer");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The pages whose commands are tested: every fenced block in them is a ```console block that runs,
/// or a block of another language (```text, ```rules, ```toml, ```rust, ```python; ```sh only for
/// installing and testing). A page joins this list once its blocks are labelled so: trycmd reads a
/// bare ``` fence as a block of commands.
const TESTED_PAGES: &[&str] = &[
    "README.md",
    "docs/cli.md",
    "docs/testing.md",
    "docs/editors.md",
    "docs/language.md",
    "docs/semantics.md",
    "docs/explanations.md",
    "docs/performance.md",
    "docs/python.md",
    "docs/stud.md",
    "docs/durak.md",
    "docs/mahjong.md",
    "docs/rummy.md",
    "docs/doudizhu.md",
    TUTORIAL,
    "docs/errors.md",
    "docs/faq.md",
    "docs/glossary.md",
];

/// The rule author's tutorial: its steps run in order, in an empty folder.
const TUTORIAL: &str = "docs/tutorial.md";

/// README.md and every page of docs/ (those git tracks, see `tests/tree/`), as paths relative to
/// the repository root.
fn pages() -> Vec<String> {
    let mut pages = vec!["README.md".to_string()];
    pages.extend(tree::files(root()).into_iter().filter(|p| {
        p.strip_prefix("docs/")
            .is_some_and(|n| !n.contains('/') && n.ends_with(".md"))
    }));
    pages
}

#[test]
fn documented_commands_run_as_shown() {
    let cases = trycmd::TestCases::new();
    cases.register_bin("kibitzer", PathBuf::from(BIN));
    for page in TESTED_PAGES {
        cases.case(root().join(page));
    }
}

/// A fenced block: its info string, the line it starts on, and its lines.
struct Block {
    info: String,
    line: usize,
    lines: Vec<String>,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut current: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        let fence = line.starts_with("```");
        match (&mut current, fence) {
            (None, true) => {
                current = Some(Block {
                    info: line.trim_start_matches('`').trim().to_string(),
                    line: i + 1,
                    lines: vec![],
                })
            }
            (Some(_), true) => out.push(current.take().unwrap()),
            (Some(b), false) => b.lines.push(line.to_string()),
            (None, false) => {}
        }
    }
    out
}

/// The commands of a ```console block: each `$ ` line, the exit code its `? CODE` line gives (0
/// without one), and the output lines after it (trailing empty lines left out).
fn steps(page: &str, block: &Block) -> Vec<(String, i32, Vec<String>)> {
    let mut out = Vec::new();
    let mut lines = block.lines.iter().peekable();
    while let Some(line) = lines.next() {
        let Some(command) = line.strip_prefix("$ ") else {
            panic!("{page}:{}: expected a `$ ` line, got {line:?}", block.line);
        };
        let mut code = 0;
        if let Some(status) = lines.peek().and_then(|l| l.strip_prefix("? ")) {
            code = status.trim().parse().expect("`? CODE`");
            lines.next();
        }
        let mut expected = Vec::new();
        while let Some(l) = lines.peek() {
            if l.starts_with("$ ") {
                break;
            }
            expected.push(lines.next().unwrap().clone());
        }
        while expected.last().is_some_and(|l| l.is_empty()) {
            expected.pop();
        }
        out.push((command.to_string(), code, expected));
    }
    out
}

/// Does `line` match `pattern`, where `[..]` in the pattern stands for any text?
fn line_matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !line.starts_with(first) || !line[first.len()..].ends_with(last) || line.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &line[first.len()..line.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Do the output lines match the expected ones, where a line `...` stands for any lines?
fn lines_match(expected: &[String], got: &[&str]) -> bool {
    match expected.first() {
        None => got.is_empty(),
        Some(e) if e == "..." => (0..=got.len()).any(|skip| lines_match(&expected[1..], &got[skip..])),
        Some(e) => !got.is_empty() && line_matches(e, got[0]) && lines_match(&expected[1..], &got[1..]),
    }
}

/// Splits a command line into words as a shell does for the commands shown: spaces separate words,
/// except within '…' or "…", and the quotes go.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// Runs a command trycmd cannot: `echo 'TEXT' | kibitzer ARGS…` (TEXT on standard input) or
/// `cargo run --release -- ARGS…` (the binary the tests built, as cargo would run it), returning
/// the exit code and the output.
fn run_shown(command: &str) -> (i32, String) {
    let (input, args) = match command.split_once(" | ") {
        Some((echo, kibitzer)) => {
            let input = echo.strip_prefix("echo ").expect("`echo '…' | kibitzer …`");
            let mut args = shell_words(kibitzer);
            assert_eq!(args.remove(0), "kibitzer", "{command}");
            (Some(input.trim().trim_matches('\'').to_string()), args)
        }
        None => {
            let args = command
                .strip_prefix("cargo run --release -- ")
                .unwrap_or_else(|| panic!("`{command}`: trycmd runs this; mark the block ```console"));
            (None, shell_words(args))
        }
    };
    let mut child = Command::new(BIN)
        .args(&args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kibitzer");
    let mut stdin = child.stdin.take().unwrap();
    if let Some(input) = input {
        writeln!(stdin, "{input}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn the_shell_words_are_split_as_a_shell_splits_them() {
    assert_eq!(
        shell_words(r#"ask stud hand="8S 10D" --why-not 'Rule 1' x"#),
        ["ask", "stud", "hand=8S 10D", "--why-not", "Rule 1", "x"]
    );
    assert_eq!(shell_words("a ''  b"), ["a", "", "b"]);
}

#[test]
fn the_readme_opens_with_what_works_on_a_fresh_clone() {
    let readme = read("README.md");
    let all = blocks(&readme);
    let (first, second) = (&all[0], &all[1]);
    assert_eq!(
        first.info, "console,ignore",
        "README.md:{}: the first block",
        first.line
    );
    assert!(
        first.lines[0].starts_with("$ cargo run --release -- ask "),
        "README.md:{}: the first command runs the example through cargo, as a fresh clone can",
        first.line
    );
    assert_eq!(
        (second.info.as_str(), second.lines.join("\n").trim()),
        ("sh", "cargo test"),
        "README.md:{}: the second block runs the tests",
        second.line
    );
}

#[test]
fn documented_pipes_and_cargo_runs_run_as_shown() {
    let mut ran = 0;
    // The tutorial's commands run in a folder of their own, in order (see below).
    for page in TESTED_PAGES.iter().filter(|p| **p != TUTORIAL) {
        for block in blocks(&read(page)) {
            if block.info != "console,ignore" {
                continue;
            }
            for (command, code, expected) in steps(page, &block) {
                let command = command.as_str();
                let (status, output) = run_shown(command);
                let got: Vec<&str> = output.lines().collect();
                assert_eq!(
                    status, code,
                    "{page}:{}: `{command}` exited {status}:\n{output}",
                    block.line
                );
                assert!(
                    lines_match(&expected, &got),
                    "{page}:{}: `{command}` printed\n{output}\nexpected\n{}",
                    block.line,
                    expected.join("\n")
                );
                ran += 1;
            }
        }
    }
    assert!(ran > 1, "no piped example or cargo run found");
}

#[test]
fn the_pipe_matcher_elides_as_trycmd_does() {
    assert!(line_matches("a[..]c", "abbbc"));
    assert!(line_matches("{\"micros\":[..]},\"stop\"", "{\"micros\":12},\"stop\""));
    assert!(!line_matches("a[..]c", "abd"));
    assert!(!line_matches("ab[..]ba", "aba"));
    let got = ["one", "two", "three", "four"];
    assert!(lines_match(&["one".into(), "...".into(), "four".into()], &got));
    assert!(lines_match(&["...".into()], &got));
    assert!(!lines_match(&["one".into(), "four".into()], &got));
}

/// The first word of every command a ```sh block may hold: installing, building the Python
/// package, running the tests.
const SETUP_COMMANDS: &[&str] = &[
    "cargo install",
    "cargo package",
    "cargo test",
    "pip install",
    "python -m venv",
    ".venv/bin/pip install",
    ".venv/bin/maturin build",
    "maturin build",
];

#[test]
fn other_shell_blocks_only_install_or_test() {
    for page in TESTED_PAGES {
        for block in blocks(&read(page)) {
            let shell = matches!(block.info.split(',').next().unwrap_or(""), "sh" | "bash" | "shell" | "");
            if !shell {
                continue;
            }
            for line in block
                .lines
                .iter()
                .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            {
                assert!(
                    SETUP_COMMANDS.iter().any(|c| line.starts_with(c)),
                    "{page}:{}: `{line}` is a command no test runs: show it as a ```console block with its output",
                    block.line
                );
            }
        }
    }
}

#[test]
fn the_readme_rust_example_is_the_embed_example() {
    let readme = read("README.md");
    let rust: Vec<Block> = blocks(&readme).into_iter().filter(|b| b.info == "rust").collect();
    assert!(!rust.is_empty(), "README.md has no Rust example");
    let example = read("examples/embed.rs");
    for block in rust {
        let code = block.lines.join("\n");
        assert!(
            example.contains(&code),
            "README.md:{}: the Rust block differs from examples/embed.rs",
            block.line
        );
    }
}

#[test]
fn the_language_page_shows_the_example_rule_set_as_it_is() {
    let page = read("docs/language.md");
    let rules = read("examples/pocket.rules");
    assert!(
        page.contains(&format!("```rules\n{rules}```")),
        "docs/language.md no longer shows examples/pocket.rules as it is"
    );
}

#[test]
fn the_readme_is_a_front_door() {
    let size = read("README.md").len();
    assert!(
        size <= 16 * 1024,
        "README.md is {size} bytes: at most 16 KB; move the detail into docs/"
    );
}

const ORDINALS: &[&str] = &[
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
    "thirtieth",
    "fortieth",
];

/// Words that, before "session", make it a session of work rather than the API's `Session`.
const WORK_SESSION: &[&str] = &[
    "this", "that", "last", "next", "previous", "earlier", "later", "working", "work", "every",
];

/// Where `text` speaks about the work rather than the product: a specification document (`SPEC`,
/// `§`), tracker issues (`issue 7`, `issue #7`, `the issue`), work sessions (`the twelfth session`,
/// `this session`, `earlier sessions`). The API's sessions (`Session`, `a reused session`, `one
/// session per thread`) are not.
fn chronicle_words(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    if text.contains('§') {
        found.push("§".to_string());
    }
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '#' || c == '\''))
        .filter(|w| !w.is_empty())
        .collect();
    for (i, w) in words.iter().enumerate() {
        let prev = if i > 0 {
            words[i - 1].to_lowercase()
        } else {
            String::new()
        };
        let next = words.get(i + 1).copied().unwrap_or("");
        if *w == "SPEC" {
            found.push("SPEC".to_string());
        }
        let lower = w.to_lowercase();
        if matches!(lower.trim_end_matches("'s"), "issue" | "issues") {
            let numbered = next.starts_with('#') || next.chars().next().is_some_and(|c| c.is_ascii_digit());
            if numbered || prev == "the" || prev == "this" || prev == "an" {
                found.push(format!("{prev} {w} {next}"));
            }
        }
        let session = matches!(lower.trim_end_matches("'s"), "session" | "sessions" | "sessions'");
        if session && *w != "Session" {
            let ordinal = ORDINALS.iter().any(|o| prev == *o || prev.ends_with(&format!("-{o}")));
            if ordinal || WORK_SESSION.contains(&prev.as_str()) {
                found.push(format!("{prev} {w}"));
            }
        }
    }
    found
}

#[test]
fn the_chronicle_check_tells_work_from_the_api() {
    for bad in [
        "measured by the twelfth session",
        "the twenty-third session's final code",
        "see SPEC §4.2",
        "what issue 7 asks",
        "as issue #3 says",
        "the issue's CLIPS anchor",
        "this session built it",
        "earlier sessions",
    ] {
        assert!(!chronicle_words(bad).is_empty(), "not caught: {bad}");
    }
    for good in [
        "a `Session` runs one query; `Session::new(program)`",
        "runs them in a reused session per thread",
        "one session per thread, as `batch` does",
        "what-if sub-queries run pooled sessions",
        "the spec of a position, a specification",
        "a session's inputs",
    ] {
        assert!(
            chronicle_words(good).is_empty(),
            "false positive: {good}: {:?}",
            chronicle_words(good)
        );
    }
}

#[test]
fn the_pages_speak_about_the_product() {
    let mut pages = pages();
    pages.push("ARCHITECTURE.md".to_string());
    let mut problems = Vec::new();
    for page in pages {
        for (i, line) in read(&page).lines().enumerate() {
            for word in chronicle_words(line) {
                problems.push(format!("{page}:{}: {word}", i + 1));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "pages that speak about the work, not the product:\n{}",
        problems.join("\n")
    );
}

/// The tutorial as a reader follows it, in an empty folder: each ```toml block that starts with
/// `# FILE` is saved as FILE when the reader reaches it, and each ```console,ignore block's
/// commands run in order through `sh` (redirections and `sed` included) with the binary the tests
/// built first on the `PATH`, each printing what the page shows.
#[cfg(unix)]
#[test]
fn the_tutorial_runs_step_by_step() {
    let dir = tempfile::tempdir().expect("a folder for the tutorial");
    let bin_dir = Path::new(BIN).parent().expect("the binary's folder");
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default());
    let (mut commands, mut files) = (0, 0);
    for block in blocks(&read(TUTORIAL)) {
        if block.info == "toml" {
            if let Some(name) = block.lines.first().and_then(|l| l.strip_prefix("# ")) {
                std::fs::write(dir.path().join(name.trim()), block.lines.join("\n") + "\n").expect("save the file");
                files += 1;
            }
            continue;
        }
        if block.info != "console,ignore" {
            continue;
        }
        for (command, code, expected) in steps(TUTORIAL, &block) {
            let out = Command::new("sh")
                .args(["-c", &command])
                .current_dir(dir.path())
                .env("PATH", &path)
                .output()
                .expect("run sh");
            let output = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
            let got: Vec<&str> = output.lines().collect();
            assert_eq!(
                out.status.code(),
                Some(code),
                "{TUTORIAL}:{}: `{command}` printed\n{output}",
                block.line
            );
            assert!(
                lines_match(&expected, &got),
                "{TUTORIAL}:{}: `{command}` printed\n{output}\nexpected\n{}",
                block.line,
                expected.join("\n")
            );
            commands += 1;
        }
    }
    assert!(commands >= 8 && files >= 1, "the tutorial lost its steps");
    // The edit took: the copy differs from the shipped text in the one line changed.
    let edited = std::fs::read_to_string(dir.path().join("my-stud.rules")).expect("the copy");
    assert!(
        edited.contains("bet_big_above    = 0.6 "),
        "the tutorial's edit did not apply"
    );
}
