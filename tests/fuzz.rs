//! Fuzzing: hostile rule files and card strings must never make
//! kibitzer panic or hang, and every notation error is one line that names a token or a count.
//!
//! - `rule_text_*`: arbitrary strings, token soups of the rule language and generated rules (some
//!   sensible, some not) into `load_text`; what loads is run.
//! - `mutated_shipped_*`: every shipped rule file with random deletions, duplications, insertions
//!   of tricky tokens (`?x`, `not`, `{`, `"`, huge numbers, unicode, ...), numbers replaced by edge
//!   values and rules spliced in from other files; when the result loads it is run on a valid input
//!   with a firing limit of 1000.
//! - `notation_*`: arbitrary strings into `parse_card`, `parse_cards` and the stud `hand` input;
//!   `shipped_inputs_*`: into every input of every shipped rule set.
//! - `hostile_rule_files_*`: large and odd files (a 1 MiB identifier, 3000 rules, ...).
//! - `cli_*`: the binary on bad inputs: exit code 2 and the exact message.
//!
//! The proptest targets use a fixed seed and 800–3000 cases each, so `cargo test` is quick (a few
//! seconds) and repeatable; the `#[ignore]`d `long_*` versions use a fresh seed and many more cases:
//! `cargo test --test fuzz -- --ignored long_` (the test profile keeps overflow checks on; set
//! `PROPTEST_CASES` to change the count). A case slower than `SLOW` fails as a hang, with its input.
//! Issues the fuzzers found stay pinned by regression tests: `parse_card_message_is_one_line`,
//! `deeply_nested_expressions_do_not_crash`, `doudizhu_huge_table_mb_is_refused_or_bounded`,
//! `cli_closed_stdout_is_not_an_internal_error`.

use expect_test::{expect, Expect};
use kibitzer::cards::CardSpec;
use kibitzer::library::{shipped_library, SHIPPED};
use kibitzer::{load_shipped, load_text, parse_card, parse_cards, RunError, RunOptions, Session};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use std::cell::Cell;
use std::process::Command;
use std::time::{Duration, Instant};

/// A single case slower than this counts as a hang.
const SLOW: Duration = Duration::from_secs(10);

// ---- the runner -------------------------------------------------------------------------------

/// Runs `test` on `cases` values of `strategy`: from a fixed seed, or a fresh one when `fresh`.
/// No regression files are written (failures print the minimal input instead).
fn fuzz<S: Strategy>(
    name: &str,
    cases: u32,
    fresh: bool,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S::Value: std::fmt::Debug,
{
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .filter(|_| fresh)
        .and_then(|c| c.parse().ok())
        .unwrap_or(cases);
    let config = Config {
        cases,
        failure_persistence: None,
        rng_seed: if fresh {
            RngSeed::Random
        } else {
            RngSeed::Fixed(0x6b69_6269_747a)
        },
        max_shrink_time: 60_000,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let slowest = std::cell::RefCell::new((Duration::ZERO, String::new()));
    let result = runner.run(&strategy, |v| {
        let shown = format!("{v:?}");
        let t = Instant::now();
        // A panic inside becomes a failing case (proptest catches it) and is shrunk.
        test(v)?;
        let took = t.elapsed();
        prop_assert!(took < SLOW, "took {took:?} (a hang?) on {shown}");
        if took > slowest.borrow().0 {
            *slowest.borrow_mut() = (took, shown);
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{name}: {e}");
    }
    let tried = TRIED.with(Cell::get);
    if tried > 0 {
        eprintln!(
            "{name}: {cases} cases; rule texts: {tried} tried, {} loaded, {} ran to a result",
            LOADED.with(Cell::get),
            RAN.with(Cell::get)
        );
    } else {
        eprintln!("{name}: {cases} cases");
    }
    let (took, shown) = slowest.into_inner();
    eprintln!(
        "{name}: slowest case {took:?}: {}",
        shown.chars().take(400).collect::<String>()
    );
}

// ---- rule text --------------------------------------------------------------------------------

/// Words, symbols and troublemakers of the rule language.
const TOKENS: &[&str] = &[
    "?x",
    "?h",
    "?",
    "not",
    "{",
    "}",
    "\"",
    "(",
    ")",
    "[",
    "]",
    ",",
    ":",
    "=",
    "==",
    "!=",
    "<",
    ">=",
    "!",
    "+",
    "-",
    "*",
    "/",
    "/ 0",
    "% 0",
    "..",
    "_",
    "#",
    "\n",
    "rule",
    "when",
    "then",
    "end",
    "because",
    "assert",
    "retract",
    "salience",
    "salience 99999999999999999999",
    "salience -99999999999999999999",
    "count {",
    "sum {",
    "min {",
    "max {",
    "or",
    "and",
    "in",
    "whatif",
    "yields",
    "self",
    "whatif self(hand: ?x) yields category(?a, ?b)",
    "ruleset",
    "input",
    "output",
    "param",
    "const",
    "cards(",
    "cards(5)",
    "cards(0..99999999999999999999)",
    "hidden:",
    "string",
    "99999999999999999999",
    "-9223372036854775808",
    "9223372036854775807",
    "1e309",
    "0.0",
    "1.5",
    "-0",
    "\"{?x}\"",
    "\"{\"",
    "\"}\"",
    "\"{?h:rank}\"",
    "\"{?h:.99999}\"",
    "\"{?x:ranks}\"",
    "\"\\\"",
    "\"\\u{110000}\"",
    "category(1, \"x\")",
    "hand(?h)",
    "hand(?h, ?h)",
    "card_count(?h)",
    "rank_held(?h, 2)",
    "high_rank(?h)",
    "stud.deals(?h, ?o, ?d, ?m, ?t)",
    "stud.deal_count(?h, ?o, ?d)",
    "lex_compare([?x], [])",
    "outcome[?x]",
    "outcome[99999999999]",
    "outcome[-1]",
    "len([])",
    "concat([], [])",
    "decimal(?x)",
    "-1",
    "0",
    "1",
    "255",
    "256",
    "65536",
    "4294967296",
    "-4294967296",
    "0.0000001",
    "\"native\"",
    "\"rules\"",
    "\"seed\"",
    "true",
    "halt",
    "é",
    "🂡",
    "♠",
    "\u{0}",
    "\u{202e}",
    "\u{feff}",
    "\r",
    "\t",
    "日本",
    "ǅ",
    "\u{10ffff}",
];

/// Numbers that put parameters, limits, arities and saliences at their edges.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "-1",
    "-0",
    "0.0",
    "0.5",
    "1.0",
    "52",
    "53",
    "99",
    "255",
    "256",
    "65535",
    "65536",
    "2147483647",
    "4294967296",
    "9223372036854775807",
    "99999999999999999999",
    "1e3",
];

/// A rule-file header, so that token soups get past the first line now and then.
const HEAD: &str = "ruleset t \"t\"\ninput hand: cards(1..5)\noutput category\n";

fn token_soup() -> impl Strategy<Value = String> {
    let tok = prop_oneof![
        8 => prop::sample::select(TOKENS).prop_map(str::to_string),
        2 => "[a-z_?][a-z0-9_.]{0,8}",
        1 => "\\PC{0,4}",
    ];
    (any::<bool>(), prop::collection::vec(tok, 0..60)).prop_map(|(head, toks)| {
        let body = toks.join(" ");
        if head {
            format!("{HEAD}{body}")
        } else {
            body
        }
    })
}

/// Conditions that make sense after the prelude `hand(?h) ?n = card_count(?h) ?l = ranks(?h)`
/// (each binds the other variables it uses), with division by zero, overflow, out-of-range indexes
/// and what-ifs on the rule set itself among them.
const CONDITIONS: &[&str] = &[
    "category(?a, ?b)",
    "not category(_, _)",
    "not { category(?a1, _) ?a1 > 2 }",
    "?n > 3",
    "?n == 5",
    "?r = rank_held(?h, 2)",
    "?r1 = rank_held(?h, 1) ?r1 > ?n",
    "?c = count { category(_, _) }",
    "?c1 = count { hand(_) }",
    "?s = sum ?a2 { category(?a2, _) }",
    "?m = max ?a3 { category(?a3, _) }",
    "?m1 = min ?n1 { hand(?h1) ?n1 = card_count(?h1) }",
    "?x = ?n / 0",
    "?x1 = ?n % 0",
    "?x2 = ?n * 9223372036854775807",
    "?x3 = -9223372036854775807 - ?n - 2",
    "?x4 = ?l[9]",
    "?x5 = ?l[-1]",
    "?x6 = ?l[?n]",
    "same_suit(?h)",
    "consecutive(?h)",
    "!consecutive(?h)",
    "?d = decimal(?n) / 0",
    "?d1 = decimal(?n) / 3",
    "whatif self(hand: ?h) yields category(?w, ?wn)",
    "whatif stud(hand: ?h) yields category(?v, ?vn)",
    "?x7 = len(?l)",
    "?n in [1, 2, 5]",
    "?q = concat(?l, ?l)",
    "lex_compare(?l, ?l) == 0",
    "?hi = high_rank(?h)",
    "distinct_suits(?h) > 1",
    "distinct_ranks(?h) == 5",
    "?e = [?n, ?l]",
    "?e1 = [?n][0]",
    "extra(?y)",
    "not extra(?n)",
];
/// Mistakes: unbound variables, unknown names and built-ins, wrong arity.
const MISTAKES: &[&str] = &[
    "?zz > 1",
    "no_such(?h)",
    "?x8 = no_such(?h)",
    "hand(?h, ?n)",
    "category(?a)",
    "p > 0",
    "?p = p * 2",
    "rank_held(?h)",
    "?b9 = \"x\" + ?n",
    "whatif nowhere(hand: ?h) yields category(?a, ?b)",
];
const ACTIONS: &[&str] = &[
    "assert category(?n, \"x\")",
    "assert category(1, \"y\")",
    "retract hand(?h)",
    "assert hand(?h)",
    "halt",
    "assert extra(?n)",
    "assert category(?n + 1, \"z\")",
    "assert category(?n / 0, \"z\")",
    "assert extra(?n + 1)",
    "retract extra(?n)",
    "assert category(?zz, \"unbound\")",
];
const BECAUSE: &[&str] = &[
    "",
    "because \"{?n}\"",
    "because \"{?h:rank}\"",
    "because \"{?l:ranks}\"",
    "because \"{?n:.3}\"",
    "because \"{?n:.99}\"",
    "because \"{?zz}\"",
    "because \"{\"",
    "because \"{p}\"",
    "because \"{?h:nope}\"",
];

fn rule_skeleton() -> impl Strategy<Value = String> {
    let condition = prop_oneof![
        12 => prop::sample::select(CONDITIONS),
        1 => prop::sample::select(MISTAKES),
    ];
    let rule = (
        -3i64..3,
        (0..6, prop::collection::vec(condition, 0..5)).prop_map(|(prelude, mut when)| {
            when.sort_unstable();
            when.dedup();
            if prelude > 0 || when.is_empty() {
                when.splice(0..0, ["hand(?h)", "?n = card_count(?h)", "?l = ranks(?h)"]);
            }
            when
        }),
        prop::collection::vec(prop::sample::select(ACTIONS), 1..3),
        prop::sample::select(BECAUSE),
    );
    (prop::collection::vec(rule, 1..4), any::<bool>()).prop_map(|(rules, param)| {
        let mut text = HEAD.to_string();
        if param {
            text.push_str("param p = 0.5 \"a parameter\"\n");
        }
        for (i, (salience, when, then, because)) in rules.into_iter().enumerate() {
            text.push_str(&format!(
                "rule R{i} \"r\" salience {}\nwhen\n    {}\nthen\n    {}\n{because}\nend\n",
                salience * 10,
                when.join("\n    "),
                then.join("\n    ")
            ));
        }
        text
    })
}

fn rule_text() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => any::<String>(),
        1 => "[ -~\n]{0,200}",
        4 => token_soup(),
        4 => rule_skeleton(),
    ]
}

/// Loads `text`; when it loads, runs it on a valid input with a small firing limit. Neither may
/// panic; errors are fine.
fn load_and_run(text: &str, variant: usize) {
    bump(&TRIED);
    if let Ok(program) = load_text("fuzz.rules", text) {
        bump(&LOADED);
        run_on_valid_input(program, variant);
    }
}

thread_local! {
    /// How many rule texts this test's thread tried, loaded, and ran to a result
    /// (`--nocapture` shows them).
    static TRIED: Cell<usize> = const { Cell::new(0) };
    static LOADED: Cell<usize> = const { Cell::new(0) };
    static RAN: Cell<usize> = const { Cell::new(0) };
}

fn bump(counter: &'static std::thread::LocalKey<Cell<usize>>) {
    counter.with(|c| c.set(c.get() + 1));
}

/// A valid value for each input the program declares, chosen by its name and type (the inputs of
/// the shipped rule sets); `variant` picks among the candidates. Run errors are fine; panics are not.
fn run_on_valid_input(program: std::sync::Arc<kibitzer::Program>, variant: usize) {
    // The type's name without its arguments (`cards` of `cards(0..52)`).
    let inputs: Vec<(String, String)> = program
        .inputs()
        .iter()
        .map(|d| {
            (
                d.name.to_string(),
                d.type_text.split('(').next().unwrap_or("").to_string(),
            )
        })
        .collect();
    // Known issue (see `doudizhu_huge_table_mb_is_refused_or_bounded`): not run again here, so
    // that the fuzzers look for new problems. Remove once fixed.
    if let Some(i) = program.param_index("table_mb") {
        if program.params()[i].value.as_int().is_some_and(|mb| mb > 1 << 20) {
            return;
        }
    }
    let mut s = Session::with_library(program, Some(shipped_library()), 0);
    s.set_options(RunOptions {
        firing_limit: 1000,
        trace: variant % 2 == 1,
        ..RunOptions::default()
    });
    for (name, ty) in &inputs {
        let candidates: &[&str] = match (name.as_str(), ty.as_str()) {
            ("hand", "cards") => &["8S TD TS 8H 8C", "AS 2S 3S 4S 5S", "8S TD TS"],
            // The odds: heads-up on the river (through the rules), earlier streets (native).
            ("opponent", "cards") if variant == 0 => &["XX 3C 5D 4H 6H"],
            ("opponent", "cards") if variant == 3 => &["XX XX 4H 6H"],
            ("opponent2", "cards") if variant == 3 => &["XX 2C"],
            (_, "cards") => &[],
            ("me", _) => &["3 4 5 6 7", "3 3 3 3 4", "9 9 RJ"],
            ("enemy", _) => &["RJ", "5 5 K"],
            ("last", _) => &["", "4"],
            _ => &["8S TD TS 8H 8C", "3 4 5", "1m 2m 3m", "", "1"],
        };
        let n = candidates.len();
        for k in 0..n {
            if s.set_input_text(name, candidates[(variant + k) % n]).is_ok() {
                break;
            }
        }
    }
    if variant == 3 {
        // Early streets: keep the native odds small so that the cases stay quick.
        for (k, v) in [
            ("samples", "500"),
            ("exact_budget", "20000"),
            ("rules_deal_limit", "50"),
        ] {
            let _ = s.set_param(k, v);
        }
    }
    if s.run().is_ok() {
        bump(&RAN);
    }
    let _ = s.conclusions();
}

// ---- mutated shipped rule files ---------------------------------------------------------------

/// One edit of a rule file, applied to its tokens.
#[derive(Debug, Clone)]
enum Edit {
    Delete(Index),
    DeleteRange(Index, usize),
    Duplicate(Index, usize),
    Insert(Index, &'static str),
    Replace(Index, &'static str),
    Swap(Index, Index),
    Move(Index, usize, Index),
    /// Drops one character inside a token (splits words, unbalances strings).
    Chop(Index, Index),
    /// A number of the file replaced (parameters, limits, arities, saliences).
    Number(Index, &'static str),
    /// Lines of another shipped file spliced in.
    SpliceLines(Index, Index, Index, usize),
    /// A whole `rule ... end` of another shipped file appended or inserted.
    SpliceRule(Index, Index, Index),
}

fn edit() -> impl Strategy<Value = Edit> {
    let tok = prop::sample::select(TOKENS);
    let i = any::<Index>;
    prop_oneof![
        3 => i().prop_map(Edit::Delete),
        2 => (i(), 1usize..40).prop_map(|(a, n)| Edit::DeleteRange(a, n)),
        2 => (i(), 1usize..40).prop_map(|(a, n)| Edit::Duplicate(a, n)),
        5 => (i(), tok.clone()).prop_map(|(a, t)| Edit::Insert(a, t)),
        3 => (i(), tok).prop_map(|(a, t)| Edit::Replace(a, t)),
        1 => (i(), i()).prop_map(|(a, b)| Edit::Swap(a, b)),
        1 => (i(), 1usize..30, i()).prop_map(|(a, n, b)| Edit::Move(a, n, b)),
        2 => (i(), i()).prop_map(|(a, b)| Edit::Chop(a, b)),
        3 => (i(), prop::sample::select(NUMBERS)).prop_map(|(a, n)| Edit::Number(a, n)),
        1 => (i(), i(), i(), 1usize..30).prop_map(|(f, a, b, n)| Edit::SpliceLines(f, a, b, n)),
        1 => (i(), i(), i()).prop_map(|(f, r, b)| Edit::SpliceRule(f, r, b)),
    ]
}

/// Splits rule text into words, single symbols and runs of white space (joined back, they give
/// the text unchanged).
fn tokens(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let class = |c: char| {
        if c.is_whitespace() {
            0
        } else if c.is_alphanumeric() || c == '_' || c == '?' || c == '.' {
            1
        } else {
            2
        }
    };
    let mut last = 3;
    for c in text.chars() {
        let k = class(c);
        match out.last_mut() {
            Some(t) if k == last && k != 2 => t.push(c),
            _ => out.push(c.to_string()),
        }
        last = k;
    }
    out
}

fn rule_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut cur: Option<String> = None;
    for line in text.lines() {
        if line.starts_with("rule ") {
            cur = Some(String::new());
        }
        if let Some(b) = cur.as_mut() {
            b.push_str(line);
            b.push('\n');
            if line.trim() == "end" {
                blocks.push(cur.take().unwrap_or_default());
            }
        }
    }
    blocks
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut t = tokens(text);
    for e in edits {
        let len = t.len().max(1);
        match e {
            Edit::Delete(a) => {
                if !t.is_empty() {
                    t.remove(a.index(len));
                }
            }
            Edit::DeleteRange(a, n) => {
                let a = a.index(len).min(t.len());
                let b = (a + n).min(t.len());
                t.drain(a..b);
            }
            Edit::Duplicate(a, n) => {
                let a = a.index(len).min(t.len());
                let b = (a + n).min(t.len());
                let copy: Vec<String> = t[a..b].to_vec();
                t.splice(b..b, copy);
            }
            Edit::Insert(a, tok) => {
                let a = a.index(len + 1).min(t.len());
                t.splice(a..a, [" ".to_string(), tok.to_string(), " ".to_string()]);
            }
            Edit::Replace(a, tok) => {
                if !t.is_empty() {
                    t[a.index(len)] = tok.to_string();
                }
            }
            Edit::Swap(a, b) => {
                if !t.is_empty() {
                    t.swap(a.index(len), b.index(len));
                }
            }
            Edit::Move(a, n, b) => {
                let a = a.index(len).min(t.len());
                let end = (a + n).min(t.len());
                let moved: Vec<String> = t.drain(a..end).collect();
                let b = b.index(t.len() + 1).min(t.len());
                t.splice(b..b, moved);
            }
            Edit::Chop(a, b) => {
                if !t.is_empty() {
                    let tok = &mut t[a.index(len)];
                    let chars: Vec<char> = tok.chars().collect();
                    let k = b.index(chars.len().max(1));
                    *tok = chars
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| *i != k)
                        .map(|(_, c)| c)
                        .collect();
                }
            }
            Edit::Number(a, n) => {
                let numbers: Vec<usize> = (0..t.len())
                    .filter(|&i| t[i].starts_with(|c: char| c.is_ascii_digit()))
                    .collect();
                if !numbers.is_empty() {
                    t[numbers[a.index(numbers.len())]] = n.to_string();
                }
            }
            Edit::SpliceLines(f, a, b, n) => {
                let other = SHIPPED[f.index(SHIPPED.len())].1;
                let lines: Vec<&str> = other.lines().collect();
                let a = a.index(lines.len().max(1)).min(lines.len());
                let end = (a + n).min(lines.len());
                let chunk = format!("\n{}\n", lines[a..end].join("\n"));
                let at = b.index(len + 1).min(t.len());
                t.insert(at, chunk);
            }
            Edit::SpliceRule(f, r, b) => {
                let blocks = rule_blocks(SHIPPED[f.index(SHIPPED.len())].1);
                if !blocks.is_empty() {
                    let block = format!("\n{}", blocks[r.index(blocks.len())]);
                    // At the end, or before a `rule` token.
                    let starts: Vec<usize> = (0..t.len()).filter(|&i| t[i] == "rule").collect();
                    let at = if starts.is_empty() || b.index(2) == 0 {
                        t.len()
                    } else {
                        starts[b.index(starts.len())]
                    };
                    t.insert(at, block);
                }
            }
        }
    }
    t.concat()
}

fn mutated_shipped() -> impl Strategy<Value = (usize, Vec<Edit>, usize)> {
    (0..SHIPPED.len(), prop::collection::vec(edit(), 1..5), 0usize..6)
}

fn mutated_case((file, edits, variant): (usize, Vec<Edit>, usize)) -> Result<(), TestCaseError> {
    let text = apply(SHIPPED[file].1, &edits);
    load_and_run(&text, variant);
    Ok(())
}

// ---- notation ---------------------------------------------------------------------------------

fn card_text() -> impl Strategy<Value = String> {
    let tok = prop_oneof![
        6 => "(10|1|[2-9TJQKAtjqkaXx0]){0,2}[SHDCshdc♠♥♦♣♤♡♢♧Xx]?",
        2 => "[0-9TJQKAXSHDCtjqkaxshdc♠♥♦♣]{0,12}",
        1 => "\\PC{0,3}",
        1 => prop::sample::select(&["XX", "10", "1", "0", "ⅩⅩ", "Ｔ", "\u{0}", "\u{2028}", "\u{85}", "\u{1b}[31m", "ǅ", "ß", "İ"][..])
            .prop_map(str::to_string),
    ];
    let sep = prop::sample::select(&[" ", ",", ", ", "", "\t", "\n", "  ", "\u{3000}"][..]);
    prop_oneof![
        5 => prop::collection::vec((tok, sep), 0..9)
            .prop_map(|v| v.into_iter().map(|(t, s)| format!("{t}{s}")).collect::<String>()),
        1 => any::<String>(),
    ]
}

/// One line, not empty, naming a token (in backquotes) or a count (a number).
fn check_message(what: &str, input: &str, msg: &str) -> Result<(), TestCaseError> {
    prop_assert!(!msg.trim().is_empty(), "{what}({input:?}): empty message");
    prop_assert!(
        !msg.contains(['\n', '\r', '\u{85}', '\u{2028}', '\u{2029}']),
        "{what}({input:?}): message is not one line: {msg:?}"
    );
    prop_assert!(
        msg.contains('`') || msg.chars().any(|c| c.is_ascii_digit()),
        "{what}({input:?}): message names no token or count: {msg:?}"
    );
    Ok(())
}

fn notation_case(text: String) -> Result<(), TestCaseError> {
    match parse_card(&text) {
        Ok(c) => {
            // The canonical spelling reads back as the same card.
            prop_assert_eq!(parse_card(&c.to_string()).ok(), Some(c));
        }
        // Known issue (see `parse_card_message_is_one_line`): `parse_card` quotes its whole
        // argument, line breaks included; a line break inside is let through here until fixed.
        Err(e) => check_message("parse_card", &one_line(&text), &one_line(&e.to_string()))?,
    }
    let specs = [
        CardSpec::default(),
        CardSpec {
            min: 5,
            max: 5,
            ..CardSpec::default()
        },
        CardSpec {
            min: 0,
            max: 5,
            hidden_min: 0,
            hidden_max: 5,
            copies: 1,
        },
        CardSpec {
            min: 1,
            max: 14,
            hidden_min: 0,
            hidden_max: 0,
            copies: 2,
        },
    ];
    for spec in &specs {
        match parse_cards(&text, spec, "hand") {
            Ok(cards) => {
                let again = parse_cards(&cards.to_string(), spec, "hand");
                prop_assert!(
                    again.is_ok(),
                    "{text:?} read as {cards} which does not read back: {again:?}"
                );
            }
            Err(e) => check_message("parse_cards", &text, &e.to_string())?,
        }
    }
    let stud = load_shipped("stud").map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut s = Session::new(stud);
    match s.set_input_text("hand", &text) {
        Ok(()) => {}
        Err(RunError::BadInput { source, .. }) => check_message("stud hand", &text, &source.to_string())?,
        Err(e) => prop_assert!(false, "stud hand({text:?}): unexpected error {e}"),
    }
    Ok(())
}

/// `s` with its line breaks shown as `⏎`.
fn one_line(s: &str) -> String {
    s.replace(['\n', '\r', '\u{85}', '\u{2028}', '\u{2029}'], "⏎")
}

/// Known issue, found by `notation_never_panics_and_names_the_token`: `parse_card("10 \n10 ")`
/// says "`10 \n10`: unknown suit  " over two lines (the token is the whole trimmed argument,
/// the line break included, and the "suit" is the blank after `10`). `parse_cards` is not affected:
/// it splits on white space first.
#[test]
fn parse_card_message_is_one_line() {
    for text in ["10 \n10 ", "8S\n9S", "A\r\nS"] {
        let msg = parse_card(text).unwrap_err().to_string();
        assert!(!msg.contains(['\n', '\r']), "parse_card({text:?}): {msg:?}");
    }
}

/// Every input of every shipped rule set (cards, dou dizhu hands and plays, tiles, strings), read
/// from arbitrary text: no panic; a refusal is one line, not empty.
fn shipped_inputs_case(text: String) -> Result<(), TestCaseError> {
    for name in kibitzer::library::shipped_names() {
        let program = load_shipped(&name).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let inputs: Vec<String> = program.input_names().map(String::from).collect();
        let mut s = Session::new(program);
        for input in inputs {
            if let Err(e) = s.set_input_text(&input, &text) {
                let msg = e.to_string();
                let shown = format!("{name}.{input}");
                prop_assert!(!msg.trim().is_empty(), "{shown}({text:?}): empty message");
                prop_assert!(
                    !one_line(&msg).contains('⏎') || one_line(&text).contains('⏎'),
                    "{shown}({text:?}): message is not one line: {msg:?}"
                );
            }
        }
    }
    Ok(())
}

fn any_notation() -> impl Strategy<Value = String> {
    let tok = prop_oneof![
        4 => card_text(),
        2 => "((10|[2-9TJQKAXBR])[JSHDC]?|BJ|RJ|[1-9][mpsz]|[ESWNPFC]){0,20}",
        1 => "[0-9mpszMPSZ ]{0,30}",
        1 => prop::sample::select(&["", "pass", "PASS", "BJ RJ", "2 2 2 2", "萬", "中", "🀄", "1m2m3m", "XX", "-1", "true"][..])
            .prop_map(str::to_string),
    ];
    prop::collection::vec(tok, 1..3).prop_map(|v| v.join(" "))
}

/// Known issue, found by `long_mutated_shipped_rules` (doudizhu.rules with `table_mb` set to
/// 9223372036854775807): `Table::new` (src/games/doudizhu/table.rs:62) doubles `max_slots` while
/// `max_slots * 2 * entry <= max_bytes`; for a huge `table_mb` the product overflows: "attempt to
/// multiply with overflow" with overflow checks (tests), an endless loop without them (release):
/// `kibitzer ask doudizhu me="3 3 4" enemy="5 5 K" --param table_mb=9223372036854775807` never ends
/// (`table_mb=17592186044416`, 2^64 bytes, too).
#[test]
fn doudizhu_huge_table_mb_is_refused_or_bounded() {
    for mb in ["9223372036854775807", "17592186044416"] {
        let mut s = Session::new(load_shipped("doudizhu").expect("doudizhu"));
        s.set_input_text("me", "3 3 4").expect("me");
        s.set_input_text("enemy", "5 5 K").expect("enemy");
        if s.set_param("table_mb", mb).is_ok() {
            let _ = s.run();
        }
    }
}

// ---- the proptest targets ---------------------------------------------------------------------

#[test]
fn rule_text_never_panics() {
    fuzz("rule_text", 3000, false, (rule_text(), 0usize..6), |(t, v)| {
        load_and_run(&t, v);
        Ok(())
    });
}

#[test]
fn mutated_shipped_rules_never_panic() {
    fuzz("mutated_shipped", 800, false, mutated_shipped(), mutated_case);
}

#[test]
fn notation_never_panics_and_names_the_token() {
    fuzz("notation", 3000, false, card_text(), notation_case);
}

#[test]
fn shipped_inputs_never_panic() {
    fuzz("shipped_inputs", 1500, false, any_notation(), shipped_inputs_case);
}

#[test]
#[ignore = "long fuzzing run: cargo test --test fuzz -- --ignored long_"]
fn long_shipped_inputs() {
    fuzz("shipped_inputs", 100_000, true, any_notation(), shipped_inputs_case);
}

#[test]
#[ignore = "long fuzzing run: cargo test --test fuzz -- --ignored long_"]
fn long_rule_text() {
    fuzz("rule_text", 100_000, true, (rule_text(), 0usize..6), |(t, v)| {
        load_and_run(&t, v);
        Ok(())
    });
}

#[test]
#[ignore = "long fuzzing run: cargo test --test fuzz -- --ignored long_"]
fn long_mutated_shipped_rules() {
    fuzz("mutated_shipped", 30_000, true, mutated_shipped(), mutated_case);
}

#[test]
#[ignore = "long fuzzing run: cargo test --test fuzz -- --ignored long_"]
fn long_notation() {
    fuzz("notation", 200_000, true, card_text(), notation_case);
}

/// Every shipped file loads unmutated, and the mutator with no edits gives the text back: the
/// mutated cases start from real rule files.
#[test]
fn mutator_starts_from_the_shipped_files() {
    for (name, text) in SHIPPED.iter() {
        assert_eq!(apply(text, &[]), *text, "{name}");
        assert!(load_text(name, text).is_ok(), "{name} does not load as text");
    }
    assert!(!rule_blocks(SHIPPED[0].1).is_empty());
}

/// Large and odd rule files that are still shallow: each loads or is refused quickly, and runs
/// when it loads.
#[test]
fn hostile_rule_files_load_or_fail_quickly() {
    let rule = |i: usize| {
        format!("rule R{i} \"r\" salience {i} when hand(?h) ?n = card_count(?h) ?n > {i} then assert category(?n, \"x\") end\n")
    };
    let many_rules: String = (0..3000).map(rule).collect();
    let many_conditions = format!(
        "rule A \"a\" when hand(?h) {} then assert category(1, \"x\") end\n",
        (0..3000)
            .map(|i| format!("?v{i} = card_count(?h) "))
            .collect::<String>()
    );
    let cases: Vec<(&str, String)> = vec![
        ("long identifier", format!("rule {} \"a\" when hand(?h) then assert category(1, \"x\") end", "a".repeat(1 << 20))),
        ("long string", format!("rule A \"{}\" when hand(?h) then assert category(1, \"x\") end", "é".repeat(1 << 19))),
        ("long comment", format!("# {}\n", "x".repeat(1 << 20))),
        ("many comment lines", "#\n".repeat(200_000)),
        ("many rules", many_rules),
        ("many conditions", many_conditions),
        ("unclosed string", "rule A \"a when hand(?h) then end".to_string()),
        ("huge salience", "rule A \"a\" salience 99999999999999999999999 when hand(?h) then assert category(1, \"x\") end".into()),
        ("huge numbers", "rule A \"a\" when hand(?h) ?x = 9223372036854775807 + 1 ?y = -9223372036854775808 / -1 ?z = 1 % 0 then assert category(?x, \"x\") assert category(?y, \"y\") assert category(?z, \"z\") end".into()),
        ("a loop", "rule A \"a\" when hand(?h) ?n = count { category(_, _) } then assert category(?n, \"x\") end".into()),
        ("retract everything", "rule A \"a\" when hand(?h) category(?a, ?b) then retract category(?a, ?b) retract hand(?h) end rule B \"b\" when hand(?h) then assert category(1, \"x\") end".into()),
        ("nul and bidi", "rule A\u{0} \"\u{202e}\" when hand(?h) then assert category(1, \"\u{0}\") end".into()),
        ("moderately nested", format!("rule A \"a\" when hand(?h) ?x = {}1{} then assert category(?x, \"x\") end", "(".repeat(40), ")".repeat(40))),
    ];
    for (what, body) in cases {
        let t = Instant::now();
        load_and_run(&format!("{HEAD}{body}"), 0);
        let took = t.elapsed();
        assert!(took < SLOW, "{what}: took {took:?}");
    }
}

/// Known issue, found while fuzzing: deeply nested expressions overflow the stack (the process
/// aborts with "has overflowed its stack", exit 134) instead of a "too deeply nested" error.
/// Run through the binary so that the crash does not take the test process down.
#[test]
fn deeply_nested_expressions_do_not_crash() {
    let dir = std::env::temp_dir().join(format!("kibitzer-fuzz-{}-deep", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut crashed = Vec::new();
    for (what, expr) in [
        ("parentheses", format!("{}1{}", "(".repeat(5000), ")".repeat(5000))),
        ("lists", format!("{}{}", "[".repeat(5000), "]".repeat(5000))),
        ("unary minus", format!("{}1", "-".repeat(100_000))),
        ("negation", format!("{}true", "!".repeat(100_000))),
        ("a sum", vec!["1"; 100_000].join("+")),
        ("indexing", format!("[1]{}", "[0]".repeat(100_000))),
    ] {
        let file = dir.join("deep.rules");
        let text = format!("{HEAD}rule A \"a\" when hand(?h) ?x = {expr} then assert category(?x, \"x\") end\n");
        std::fs::write(&file, text).expect("write");
        for args in [
            vec!["check", "deep.rules"],
            vec!["ask", "./deep.rules", "hand=8S TD TS 8H 8C"],
        ] {
            let o = kibitzer(&args, Some(&dir));
            if !matches!(o.code, Some(0..=2)) {
                crashed.push(format!(
                    "{what} ({}): exit {:?}: {}",
                    args[0],
                    o.code,
                    o.stderr.trim().replace('\n', " / ")
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(crashed.is_empty(), "{crashed:#?}");
}

// ---- the binary -------------------------------------------------------------------------------

struct Out {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn kibitzer(args: &[&str], dir: Option<&std::path::Path>) -> Out {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kibitzer"));
    cmd.args(args);
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let o = cmd.output().expect("run kibitzer");
    Out {
        code: o.status.code(),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

#[test]
fn cli_bad_card_strings_exit_2_with_one_line() {
    let hands = [
        "8S 8S 2C 3C 4C",
        "1X 2S 3S 4S 5S",
        "8X 2S 3S 4S 5S",
        "8S 9S 2C 3C 4C 5C",
        "",
        "XX 9S 2C 3C 4C",
        "8",
        "🂡 2S",
        "10",
        "2H3H4H5H6",
    ];
    let mut seen = String::new();
    for hand in hands {
        let arg = format!("hand={hand}");
        let o = kibitzer(&["ask", "stud", &arg], None);
        assert_eq!(o.code, Some(2), "hand={hand:?}: {}", o.stderr);
        assert_eq!(o.stderr.lines().count(), 1, "hand={hand:?}: {:?}", o.stderr);
        assert!(o.stderr.starts_with("kibitzer:"), "hand={hand:?}: {:?}", o.stderr);
        assert!(o.stdout.is_empty(), "hand={hand:?}: {:?}", o.stdout);
        seen.push_str(&format!("{hand:?} -> {}", o.stderr));
    }
    expect![[r#"
        "8S 8S 2C 3C 4C" -> kibitzer: input `hand`: 8S appears 2 times (the deck has 1)
        "1X 2S 3S 4S 5S" -> kibitzer: input `hand`: `1X`: unknown rank 1
        "8X 2S 3S 4S 5S" -> kibitzer: input `hand`: `8X`: unknown suit X
        "8S 9S 2C 3C 4C 5C" -> kibitzer: input `hand`: hand needs 1 to 5 cards, got 6
        "" -> kibitzer: input `hand`: hand needs 1 to 5 cards, got 0
        "XX 9S 2C 3C 4C" -> kibitzer: input `hand`: hand allows 0 hidden card(s) `XX`, got 1
        "8" -> kibitzer: input `hand`: `8`: missing suit
        "🂡 2S" -> kibitzer: input `hand`: `🂡`: unknown rank 
        "10" -> kibitzer: input `hand`: `10`: missing suit
        "2H3H4H5H6" -> kibitzer: input `hand`: `2H3H4H5H6`: missing suit
    "#]]
    .assert_eq(&seen);
}

fn check_file(name: &str, text: &str, expected_stderr: Expect) {
    let dir = std::env::temp_dir().join(format!("kibitzer-fuzz-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join(name), text).expect("write rule file");
    let o = kibitzer(&["check", name], Some(&dir));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(o.code, Some(2), "{}", o.stderr);
    assert!(o.stdout.is_empty(), "{:?}", o.stdout);
    expected_stderr.assert_eq(&o.stderr);
}

#[test]
fn cli_check_syntax_error() {
    check_file(
        "syntax.rules",
        "ruleset t \"t\"\ninput hand: cards(5)\noutput category\n\nrule A \"a\"\nwhen\n    hand(?h\nthen\n    assert category(1, \"x\")\nend\n",
        expect![[r#"
            syntax.rules:7:9: error: syntax error: this `(` is never closed (the parser stopped at `then` on line 8)
              |
            7 |     hand(?h
              |         ^
            syntax.rules: 1 error(s)
        "#]],
    );
}

#[test]
fn cli_check_unbound_variable() {
    check_file(
        "unbound.rules",
        "ruleset t \"t\"\ninput hand: cards(5)\noutput category\n\nrule A \"a\"\nwhen\n    hand(?h)\nthen\n    assert category(?n, \"x\")\nend\n",
        expect![[r#"
            unbound.rules:9:21: error: variable `?n` is used in `then` but never bound (bind it with a pattern or `?n = ...` first)
              |
            9 |     assert category(?n, "x")
              |                     ^^
            unbound.rules: 1 error(s)
        "#]],
    );
}

/// Known issue, found while fuzzing: when standard output is closed early (`kibitzer ask ... |
/// head -3`), `println!` panics ("failed printing to stdout: Broken pipe", src/cli/ask.rs), the
/// panic and its backtrace go to stderr and the exit code is 1 ("internal error").
#[test]
fn cli_closed_stdout_is_not_an_internal_error() {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let o = Command::new(env!("CARGO_BIN_EXE_kibitzer"))
        .args(["ask", "stud", "hand=8S TD TS 8H 8C"])
        .stdout(writer)
        .output()
        .expect("run kibitzer");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_ne!(o.status.code(), Some(1), "{stderr}");
}

/// `kibitzer check bad.rules 2>&1 | head -4`: with standard error a
/// closed pipe, `eprintln!` panicked and the exit code was 101 instead of the 2 the problems call
/// for. Every exit code must stay what it says when nobody reads the messages.
#[test]
fn cli_closed_stderr_keeps_the_exit_code() {
    let dir = std::env::temp_dir().join(format!("kibitzer-closed-stderr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let unbound = dir.join("unbound.rules");
    std::fs::write(
        &unbound,
        "ruleset x \"x\"\ninput hand: cards(5)\noutput category\nrule A \"a\"\nwhen\n    hand(?h)\nthen\n    assert category(?z)\nend\n",
    )
    .expect("write rules");
    let path = unbound.to_string_lossy().to_string();
    for (args, code) in [
        (vec!["check", path.as_str()], 2),
        (vec!["ask", "stud", "hand=8S TD TS 8H ZZ"], 2),
        (vec!["ask", "no_such_game", "hand=8S"], 2),
    ] {
        let (reader, writer) = std::io::pipe().expect("pipe");
        drop(reader);
        let o = Command::new(env!("CARGO_BIN_EXE_kibitzer"))
            .args(&args)
            .stderr(writer)
            .output()
            .expect("run kibitzer");
        assert_eq!(o.status.code(), Some(code), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cli_unknown_ruleset_exits_2() {
    let o = kibitzer(&["ask", "no_such_game", "hand=8S TD TS 8H 8C"], None);
    assert_eq!(o.code, Some(2), "{}", o.stderr);
    assert_eq!(o.stderr.lines().count(), 1, "{:?}", o.stderr);
    // The list of shipped rule sets grows with the games: pinned as `<shipped names>`.
    let shipped = kibitzer::library::shipped_names().join(", ");
    expect![[r#"
        kibitzer: unknown rule set `no_such_game` (shipped: <shipped names>; or give a path to a .rules file)
    "#]]
    .assert_eq(&o.stderr.replace(&shipped, "<shipped names>"));
}
