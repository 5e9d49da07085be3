//! `kibitzer test` and `kibitzer rules --source` as a rule author runs them: the binary alone.

use std::path::Path;
use std::process::{Command, Output};

fn kibitzer(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kibitzer"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

const SEED_CASE: &str = r#"# a comment the update keeps
rules = "stud"

[[case]]
name   = "seed example"
inputs = { hand = "8S 10D 10S 8H 8C", opponent = "XX 3C 5D 4H 6H" }
params = { bet_big_above = 0.7 }
expect = ['category(3, "full house")', 'advice("bet big")']
why_not = { Rule1 = "same_suit" }

[[case]]
name = "a straight"   # kept too
inputs = { hand = "2S 3D 4S 5H 6C" }
expect = ['category(5, "straight")']
exact = true

[[case]]
name = "a bad card"
inputs = { hand = "ZZ 3D" }
error = "rank"
"#;

#[test]
fn rules_source_prints_the_shipped_text_and_it_loads_on_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let out = kibitzer(&["rules", "stud", "--source"], dir.path());
    assert!(out.status.success(), "{}", text(&out));
    let src = String::from_utf8(out.stdout).unwrap();
    assert!(src.contains("ruleset stud") && src.contains("rule Rule18"));
    std::fs::write(dir.path().join("my.rules"), &src).unwrap();
    let check = kibitzer(&["check", "my.rules"], dir.path());
    assert!(check.status.success(), "{}", text(&check));
}

#[test]
fn passing_cases_exit_zero_and_are_listed_in_order() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.cases.toml"), SEED_CASE).unwrap();
    let out = kibitzer(&["test", "s.cases.toml"], dir.path());
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    let a = t.find("ok   seed example (s.cases.toml:5)").expect(&t);
    let b = t.find("ok   a straight (s.cases.toml:12)").expect(&t);
    let c = t.find("ok   a bad card (s.cases.toml:18)").expect(&t);
    assert!(a < b && b < c, "{t}");
    assert!(t.contains("3 passed, 0 failed"), "{t}");
}

#[test]
fn an_edited_rule_file_fails_with_the_case_located_and_diffed_then_update_rewrites_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.cases.toml"), SEED_CASE).unwrap();
    // Straights now beat full houses: the straight is category 3, the full house 5.
    let src = String::from_utf8(kibitzer(&["rules", "stud", "--source"], dir.path()).stdout).unwrap();
    let edited = src
        .replace(
            "assert category(3, \"full house\")",
            "assert category(5, \"full house\")",
        )
        .replace("assert category(5, \"straight\")", "assert category(3, \"straight\")");
    assert_ne!(edited, src, "the edit must change the rules");
    std::fs::write(dir.path().join("my.rules"), &edited).unwrap();
    let out = kibitzer(&["test", "s.cases.toml", "--rules", "my.rules"], dir.path());
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(t.contains("FAIL seed example (s.cases.toml:5)"), "{t}");
    assert!(t.contains("- category(3, \"full house\")"), "{t}");
    assert!(t.contains("+ category(5, \"full house\")"), "{t}");
    assert!(t.contains("FAIL a straight (s.cases.toml:12)"), "{t}");
    assert!(t.contains("1 passed, 2 failed"), "{t}");

    let up = kibitzer(&["test", "s.cases.toml", "--rules", "my.rules", "--update"], dir.path());
    assert_eq!(up.status.code(), Some(0), "{}", text(&up));
    let rewritten = std::fs::read_to_string(dir.path().join("s.cases.toml")).unwrap();
    assert!(rewritten.contains("# a comment the update keeps"), "{rewritten}");
    assert!(rewritten.contains("# kept too"), "{rewritten}");
    assert!(rewritten.contains("'category(3, \"straight\")'"), "{rewritten}");
    let again = kibitzer(&["test", "s.cases.toml", "--rules", "my.rules"], dir.path());
    assert_eq!(again.status.code(), Some(0), "{}", text(&again));
}

#[test]
fn a_golden_explanation_is_written_by_update_and_then_compared() {
    let dir = tempfile::tempdir().unwrap();
    let case = "rules = \"stud\"\n[[case]]\nname = \"pinned\"\ninputs = { hand = \"2S 3D 4S 5H 6C\" }\nexplanation = \"golden/straight.txt\"\n";
    std::fs::write(dir.path().join("g.cases.toml"), case).unwrap();
    let first = kibitzer(&["test", "g.cases.toml"], dir.path());
    assert_eq!(first.status.code(), Some(1), "{}", text(&first));
    assert!(text(&first).contains("golden file golden/straight.txt is missing"));
    // `--update` writes into folders that exist; it creates none.
    std::fs::create_dir(dir.path().join("golden")).unwrap();
    let up = kibitzer(&["test", "g.cases.toml", "--update"], dir.path());
    assert_eq!(up.status.code(), Some(0), "{}", text(&up));
    let golden = std::fs::read_to_string(dir.path().join("golden/straight.txt")).unwrap();
    assert!(golden.starts_with("category(5, \"straight\")\n└─ Rule5"), "{golden}");
    assert_eq!(kibitzer(&["test", "g.cases.toml"], dir.path()).status.code(), Some(0));
    std::fs::write(dir.path().join("golden/straight.txt"), golden.replace("Rule5", "Rule9")).unwrap();
    let out = kibitzer(&["test", "g.cases.toml"], dir.path());
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(t.contains("-└─ Rule9") && t.contains("+└─ Rule5"), "{t}");
}

#[test]
fn a_why_not_that_fired_or_says_otherwise_fails() {
    let dir = tempfile::tempdir().unwrap();
    let case = "rules = \"stud\"\n[[case]]\nname = \"w\"\ninputs = { hand = \"2S 3D 4S 5H 6C\" }\nwhy_not = { Rule5 = \"x\", Rule1 = \"no such words\" }\n";
    std::fs::write(dir.path().join("w.cases.toml"), case).unwrap();
    let out = kibitzer(&["test", "w.cases.toml"], dir.path());
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(
        t.contains("why not Rule5") && t.contains("Rule5 fired 1 time(s)"),
        "{t}"
    );
    assert!(t.contains("why not Rule1") && t.contains("Rule1 did not fire"), "{t}");
}

#[test]
fn a_malformed_case_file_exits_two_with_a_located_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = "rules = \"stud\"\n[[case]]\nname = \"x\"\ninputz = { hand = \"2S\" }\n";
    std::fs::write(dir.path().join("bad.cases.toml"), bad).unwrap();
    let out = kibitzer(&["test", "."], dir.path());
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    let first = t.lines().next().unwrap_or("");
    assert!(first.starts_with("./bad.cases.toml:4:1: "), "{t}");
    assert!(first.contains("inputz"), "{t}");

    std::fs::write(dir.path().join("bad.cases.toml"), "rules = \"stud\"\n[[case]\n").unwrap();
    let out = kibitzer(&["test", "bad.cases.toml"], dir.path());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).starts_with("bad.cases.toml:2:"), "{}", text(&out));
}

#[test]
fn json_and_junit_report_the_same_outcomes() {
    let dir = tempfile::tempdir().unwrap();
    let case = SEED_CASE.replace("category(5, \"straight\")", "category(9, \"high card\")");
    std::fs::write(dir.path().join("s.cases.toml"), case).unwrap();
    let out = kibitzer(&["test", "s.cases.toml", "--format", "json"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["passed"], 2);
    assert_eq!(v["failed"], 1);
    assert_eq!(v["cases"][1]["name"], "a straight");
    assert_eq!(v["cases"][1]["line"], 12);
    assert_eq!(v["cases"][1]["passed"], false);
    let out = kibitzer(&["test", "s.cases.toml", "--format", "junit"], dir.path());
    let x = String::from_utf8_lossy(&out.stdout);
    assert!(
        x.contains(r#"<testsuites name="kibitzer" tests="3" failures="1">"#),
        "{x}"
    );
    assert!(
        x.contains(r#"<testcase name="a straight" classname="stud" file="s.cases.toml" line="12">"#),
        "{x}"
    );
    assert!(x.contains("+ category(5, &quot;straight&quot;)"), "{x}");
}

#[test]
fn the_shipped_suites_pass_and_fire_every_rule() {
    let dir = tempfile::tempdir().unwrap();
    let out = kibitzer(&["test", "--coverage", "--min-coverage", "100"], dir.path());
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    for set in kibitzer::library::shipped_names() {
        let line = t
            .lines()
            .find(|l| l.starts_with(&format!("coverage of {set} (")))
            .expect(&t);
        assert!(line.ends_with("(100.0%)"), "{line}");
    }
    let suites = kibitzer::cases::SHIPPED_CASES.len();
    assert!(t.contains(&format!(" 0 failed ({suites} case file(s))")), "{t}");
}

#[test]
fn an_edited_copy_of_a_shipped_suite_fails_with_the_case_named() {
    let dir = tempfile::tempdir().unwrap();
    let shipped = include_str!("../rules/stud.cases.toml");
    let edited = shipped.replace("'category(5, \"straight\")'", "'category(6, \"straight\")'");
    assert_ne!(edited, shipped);
    // Where it sits in a checkout: its golden files are named `../tests/golden/…`, outside its
    // folder, so the tree they may come from is widened to the checkout's.
    std::fs::create_dir(dir.path().join("rules")).unwrap();
    std::fs::write(dir.path().join("rules/stud.cases.toml"), &edited).unwrap();
    let out = kibitzer(&["test", "rules/stud.cases.toml"], dir.path());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("--include-root"), "{}", text(&out));
    let out = kibitzer(&["test", "rules/stud.cases.toml", "--include-root", "."], dir.path());
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    let line = shipped
        .lines()
        .position(|l| l.starts_with("name") && l.contains("\"straight\""))
        .unwrap()
        + 1;
    assert!(
        t.contains(&format!("FAIL straight (rules/stud.cases.toml:{line})")),
        "{t}"
    );
    assert!(
        t.contains("- category(6, \"straight\")") && t.contains("+ category(5, \"straight\")"),
        "{t}"
    );
}

#[test]
fn diff_reports_the_answers_an_edit_changes() {
    let dir = tempfile::tempdir().unwrap();
    let src = String::from_utf8(kibitzer(&["rules", "stud", "--source"], dir.path()).stdout).unwrap();
    let edited = src.replace(
        "assert category(3, \"full house\")",
        "assert category(5, \"full house\")",
    );
    std::fs::write(dir.path().join("my.rules"), edited).unwrap();
    std::fs::write(
        dir.path().join("c.jsonl"),
        "{\"hand\":\"8S 10D 10S 8H 8C\"}\n{\"hand\":\"2S 5H 9D JC KS\"}\n",
    )
    .unwrap();
    let out = kibitzer(&["diff", "stud", "my.rules", "--corpus", "c.jsonl"], dir.path());
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(t.contains("category: 1 answer(s) changed"), "{t}");
    assert!(
        t.contains("category(3, \"full house\")") && t.contains("category(5, \"full house\")"),
        "{t}"
    );
    let same = kibitzer(&["diff", "durak", "durak", "--positions", "20"], dir.path());
    assert!(text(&same).contains("no answer changed"), "{}", text(&same));
    std::fs::write(dir.path().join("tiny.rules"), TINY).unwrap();
    let none = kibitzer(&["diff", "tiny.rules", "tiny.rules"], dir.path());
    assert_eq!(none.status.code(), Some(2), "{}", text(&none));
    assert!(
        text(&none).contains("no position generator for the game `tiny`"),
        "{}",
        text(&none)
    );
}

const TINY: &str = r#"ruleset tiny "says whether n is big"
input n: int
output verdict
rule Big "big" when n(?n) ?n > 9 ?n > -1000 ?m = ?n + 1 then assert verdict("big", ?m) end
rule Small "small" when n(?n) ?n <= 9 then assert verdict("small", ?n) end
"#;

#[test]
fn coverage_lists_a_test_that_never_fails_and_not_the_bindings() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tiny.rules"), TINY).unwrap();
    let cases = "rules = \"tiny.rules\"\n[[case]]\nname = \"big\"\ninputs = { n = 20 }\nexpect = ['verdict(\"big\", 21)']\n[[case]]\nname = \"small\"\ninputs = { n = 3 }\nexpect = ['verdict(\"small\", 3)']\n";
    std::fs::write(dir.path().join("t.cases.toml"), cases).unwrap();
    let out = kibitzer(&["test", "t.cases.toml", "--coverage"], dir.path());
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(t.contains("2/2 rules fired (100.0%)"), "{t}");
    let listed: Vec<&str> = t.lines().filter(|l| l.starts_with("    ")).map(str::trim).collect();
    // `?n > -1000` holds for every n a case gives: it is listed. `?n > 9` stopped Big for n = 3,
    // `?n <= 9` stopped Small for n = 20; the pattern of a fresh variable and the binding cannot
    // stop a rule.
    assert!(listed.contains(&"Big condition 3: ?n > -1000"), "{t}");
    assert!(!t.contains("?n > 9") && !t.contains("?n <= 9"), "{t}");
    assert!(!t.contains("?m = ?n + 1") && !t.contains("condition 1: n(?n)"), "{t}");
    let json = kibitzer(&["test", "t.cases.toml", "--coverage", "--format", "json"], dir.path());
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let big = &v["coverage"][0]["per_rule"][0];
    assert_eq!(big["rule"], "Big");
    assert_eq!(big["never_decided"][0]["text"], "?n > -1000", "{v}");
}

#[test]
fn every_game_has_a_seeded_generator_of_valid_positions() {
    use kibitzer::cases::{answer, generated_games, random_positions};
    for game in kibitzer::library::shipped_names() {
        let game = game.as_str();
        assert!(generated_games().contains(&game), "{game}");
        let a = random_positions(game, 7, 60).expect(game);
        let b = random_positions(game, 7, 60).expect(game);
        let c = random_positions(game, 8, 60).expect(game);
        assert_eq!(a, b, "{game}: the same seed must give the same positions");
        assert_ne!(a, c, "{game}: another seed must give other positions");
        let program = kibitzer::load_shipped(game).unwrap();
        for (inputs, params) in &a {
            let got = answer(&program, inputs, params);
            assert!(!got.lines.is_empty(), "{game}: no answer to {inputs:?}");
            assert!(
                got.lines.iter().all(|l| !l.starts_with("error:")),
                "{game}: {inputs:?} is not a valid position: {:?}",
                got.lines
            );
        }
    }
    assert!(random_positions("tiny", 1, 1).is_none());
}

#[test]
fn diff_compares_the_two_mahjong_bots_on_generated_positions() {
    let dir = tempfile::tempdir().unwrap();
    let out = kibitzer(
        &[
            "diff",
            "mahjong",
            "mahjong_reference",
            "--positions",
            "40",
            "--seed",
            "3",
        ],
        dir.path(),
    );
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(
        t.starts_with("40 position(s); A = mahjong, B = mahjong_reference"),
        "{t}"
    );
    assert!(!t.contains("error"), "{t}");
    for game in ["rummy", "doudizhu", "mahjong"] {
        let same = kibitzer(&["diff", game, game, "--positions", "30"], dir.path());
        assert!(text(&same).contains("no answer changed"), "{game}: {}", text(&same));
    }
}

/// A suite of `examples/pocket.rules` in a subfolder: a table case, a focused case with comments,
/// an exact one and one with `absent`.
const POCKET_CASES: &str = r#"rules = "pocket.rules"

[[case]]
name   = "groups"   # one row per hand
expect = ["keep(true)"]
rows = [
    { name = "trips", inputs = { hand = "QS QH QD 4C" }, expect = ['holds("trips", 12)'] },
    { name = "low pair", inputs = { hand = "5S 5H 9D 2C" }, expect = ["keep(false)"] },
    { inputs = { hand = "AS AH" } },
]

[[case]]
name   = "a low pair"
inputs = { hand = "5S 5H 9D 2C" }
expect = [
    'holds("pair", 5)',   # the pair
    'keep(false)',  # dropped
]
absent = ["holds(\"trips\", 5)"]

[[case]]
name   = "all of it"
inputs = { hand = "QS QH QD 4C 4S" }
expect = ['holds("trips", 12)', 'holds("pair", 4)', 'keep(true)']
exact = true

[[case]]
name   = "never kept"
inputs = { hand = "2S 3H" }
absent = ["keep(true)", "holds"]
"#;

fn pocket_suite() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("suites/pocket");
    std::fs::create_dir_all(&sub).unwrap();
    let rules = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/pocket.rules")).unwrap();
    std::fs::write(sub.join("pocket.rules"), rules).unwrap();
    std::fs::write(sub.join("p.cases.toml"), POCKET_CASES).unwrap();
    dir
}

#[test]
fn a_folder_is_searched_with_its_subfolders_and_each_row_of_a_table_is_a_case() {
    let dir = pocket_suite();
    let out = kibitzer(&["test", "."], dir.path());
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert_eq!(
        t,
        "ok   groups [trips] (./suites/pocket/p.cases.toml:7)\n\
         ok   groups [low pair] (./suites/pocket/p.cases.toml:8)\n\
         ok   groups [3] (./suites/pocket/p.cases.toml:9)\n\
         ok   a low pair (./suites/pocket/p.cases.toml:13)\n\
         ok   all of it (./suites/pocket/p.cases.toml:22)\n\
         ok   never kept (./suites/pocket/p.cases.toml:28)\n\
         6 passed, 0 failed (1 case file(s))\n"
    );
}

#[test]
fn k_runs_the_cases_whose_name_contains_the_pattern() {
    let dir = pocket_suite();
    let out = kibitzer(&["test", "suites", "-k", "PAIR", "-k", "never"], dir.path());
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(t.contains("ok   groups [low pair]") && t.contains("ok   a low pair") && t.contains("ok   never kept"));
    assert!(!t.contains("trips") && !t.contains("all of it"), "{t}");
    assert!(t.ends_with("3 passed, 0 failed (1 case file(s))\n"), "{t}");
    let none = kibitzer(&["test", "suites", "-k", "flush"], dir.path());
    assert_eq!(none.status.code(), Some(2));
    assert_eq!(text(&none), "kibitzer: no case's name contains \"flush\"\n");
}

#[test]
fn absent_fails_a_case_that_concludes_what_it_names() {
    let dir = pocket_suite();
    let file = dir.path().join("suites/pocket/p.cases.toml");
    let text_before = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text_before.replace("absent = [\"keep(true)\", \"holds\"]", "absent = [\"keep\"]"),
    )
    .unwrap();
    let out = kibitzer(&["test", "suites", "-k", "never"], dir.path());
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(
        t.contains("FAIL never kept (suites/pocket/p.cases.toml:28)\n  concluded, but the case says it must not be:\n    keep(false)\n"),
        "{t}"
    );
    // `--update` accepts answers, not assertions: it stays a failure.
    let up = kibitzer(&["test", "suites", "-k", "never", "--update"], dir.path());
    assert_eq!(up.status.code(), Some(1), "{}", text(&up));
}

#[test]
fn update_edits_only_the_changed_lines_and_lists_the_cases() {
    let dir = pocket_suite();
    let sub = dir.path().join("suites/pocket");
    // Keep from a rank above any: every hand is dropped.
    let rules = std::fs::read_to_string(sub.join("pocket.rules")).unwrap();
    std::fs::write(
        sub.join("pocket.rules"),
        rules.replace("keep_from = 10 ", "keep_from = 14 "),
    )
    .unwrap();
    std::fs::write(
        sub.join("p.cases.toml"),
        POCKET_CASES.replace("'keep(false)',  # dropped", "'keep(true)',  # kept"),
    )
    .unwrap();
    let out = kibitzer(&["test", "suites", "--update"], dir.path());
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(
        t.contains("updated a low pair (suites/pocket/p.cases.toml:13)\n"),
        "{t}"
    );
    assert!(t.contains("updated all of it (suites/pocket/p.cases.toml:22)\n"), "{t}");
    assert!(t.contains("updated 2 case(s) in suites/pocket/p.cases.toml\n"), "{t}");
    let after = std::fs::read_to_string(sub.join("p.cases.toml")).unwrap();
    // The focused case keeps its comments and its untouched line's quoting; the changed line is
    // replaced where it was.
    assert!(
        after.contains("expect = [\n    'holds(\"pair\", 5)',   # the pair\n    \"keep(false)\",  # kept\n]\n"),
        "{after}"
    );
    // The exact case: every conclusion, the unchanged ones as they were.
    assert!(
        after.contains("expect = ['holds(\"trips\", 12)', 'holds(\"pair\", 4)', \"keep(false)\"]\nexact = true"),
        "{after}"
    );
    // The table's third row (AS AH: aces are 14) still passes: it is not touched.
    assert!(after.contains("    { inputs = { hand = \"AS AH\" } },\n"), "{after}");
    let again = kibitzer(&["test", "suites"], dir.path());
    assert_eq!(again.status.code(), Some(0), "{}", text(&again));
}

#[test]
fn update_gives_a_table_row_its_own_expect() {
    let dir = pocket_suite();
    let sub = dir.path().join("suites/pocket");
    let rules = std::fs::read_to_string(sub.join("pocket.rules")).unwrap();
    std::fs::write(sub.join("pocket.rules"), rules.replace("in 2..14", "in 2..15")).unwrap();
    let cases = POCKET_CASES.replace(
        "{ inputs = { hand = \"AS AH\" } }",
        "{ inputs = { hand = \"AS AH\" }, params = { keep_from = 15 } }",
    );
    std::fs::write(sub.join("p.cases.toml"), cases).unwrap();
    let out = kibitzer(&["test", "suites", "-k", "groups", "--update"], dir.path());
    assert!(
        text(&out).contains("updated groups [3] (suites/pocket/p.cases.toml:9)"),
        "{}",
        text(&out)
    );
    let after = std::fs::read_to_string(sub.join("p.cases.toml")).unwrap();
    assert!(
        after.contains("{ inputs = { hand = \"AS AH\" }, params = { keep_from = 15 }, expect = [\"keep(false)\"] }"),
        "{after}"
    );
    assert!(after.contains("expect = [\"keep(true)\"]\nrows = ["), "{after}");
}

#[test]
fn a_table_case_is_checked_like_a_case() {
    let dir = pocket_suite();
    let file = dir.path().join("suites/pocket/p.cases.toml");
    for (bad, why) in [
        (
            "rows = [\n",
            "p.cases.toml:4:10: a table case needs at least one row in `rows`",
        ),
        (
            "rows = [\n    { colour = \"red\" },\n",
            "p.cases.toml:7:7: unknown field `colour`",
        ),
    ] {
        let body = if bad.contains("colour") {
            POCKET_CASES.replacen("rows = [\n", bad, 1)
        } else {
            POCKET_CASES.replacen(
                "rows = [\n    { name = \"trips\", inputs = { hand = \"QS QH QD 4C\" }, expect = ['holds(\"trips\", 12)'] },\n    { name = \"low pair\", inputs = { hand = \"5S 5H 9D 2C\" }, expect = [\"keep(false)\"] },\n    { inputs = { hand = \"AS AH\" } },\n]",
                "rows = [\n]",
                1,
            )
        };
        std::fs::write(&file, body).unwrap();
        let out = kibitzer(&["test", "suites"], dir.path());
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        assert!(text(&out).contains(why), "{}", text(&out));
    }
}

#[test]
fn diff_compares_two_settings_of_one_rule_set_and_lists_every_changed_position() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "diff",
        "stud",
        "stud",
        "--positions",
        "40",
        "--param-b",
        "fold_below=0.45",
    ];
    let out = kibitzer(&args, dir.path());
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(
        t.starts_with("40 position(s); A = stud, B = stud (fold_below=0.45)\n"),
        "{t}"
    );
    // Every advice option names its thresholds: every position's `option` answer changed.
    assert!(t.contains("option: 40 answer(s) changed\n"), "{t}");
    assert_eq!(t.matches("\nposition ").count(), 40, "{t}");
    assert!(
        t.contains("needs equity below 0.3;") && t.contains("needs equity below 0.45;"),
        "{t}"
    );

    let limited = text(&kibitzer(&[&args[..], &["--limit", "2"]].concat(), dir.path()));
    assert_eq!(limited.matches("\nposition ").count(), 2, "{limited}");
    assert!(
        limited.contains("... and 38 more changed position(s) (--limit 2)\n"),
        "{limited}"
    );

    let only = text(&kibitzer(&[&args[..], &["--only", "category"]].concat(), dir.path()));
    assert!(only.contains("no answer changed"), "{only}");
    let ignored = text(&kibitzer(
        &[&args[..], &["--ignore", "option", "--json"]].concat(),
        dir.path(),
    ));
    let v: serde_json::Value = serde_json::from_str(&ignored).unwrap();
    assert!(v["relations"].get("option").is_none(), "{v}");
    assert_eq!(v["changed"], v["listed"].as_array().unwrap().len(), "{v}");
    for l in v["listed"].as_array().unwrap() {
        assert_eq!(l["relations"], serde_json::json!(["advice"]), "{l}");
    }

    let bad = kibitzer(&["diff", "stud", "stud", "--param-a", "fold=1"], dir.path());
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(text(&bad), "kibitzer: --param-a fold: `stud` has no parameter `fold`\n");
}

#[test]
fn an_edited_copy_runs_against_its_own_shipped_suite_only() {
    let dir = tempfile::tempdir().unwrap();
    let src = String::from_utf8(kibitzer(&["rules", "stud", "--source"], dir.path()).stdout).unwrap();
    std::fs::write(dir.path().join("my-stud.rules"), &src).unwrap();
    let out = kibitzer(&["test", "--rules", "my-stud.rules"], dir.path());
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(t.contains("(<shipped>/stud.cases.toml:"), "{t}");
    assert!(!t.contains("durak.cases.toml"), "another game's suite ran: {t}");
    assert!(t.contains(" passed, 0 failed (1 case file(s))"), "{t}");

    // A rule set with no shipped suite: said, with the suites there are.
    let pocket = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/pocket.rules");
    std::fs::copy(pocket, dir.path().join("pocket.rules")).unwrap();
    let out = kibitzer(&["test", "--rules", "pocket.rules"], dir.path());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "kibitzer: pocket.rules declares rule set `pocket`, which has no shipped suite (suites: stud, durak, mahjong, \
         mahjong_reference, rummy, doudizhu, doudizhu_table): name its case files\n"
    );
}

#[test]
fn a_shipped_rule_set_name_runs_its_suite() {
    let dir = tempfile::tempdir().unwrap();
    for (name, file) in [
        ("stud", "stud"),
        ("mahjong-reference", "mahjong_reference"),
        // The reference bot's former names, still read.
        ("mahjong-seed", "mahjong_reference"),
        ("mahjong_seed", "mahjong_reference"),
        ("doudizhu", "doudizhu"),
    ] {
        let out = kibitzer(&["test", name], dir.path());
        let t = text(&out);
        assert_eq!(out.status.code(), Some(0), "{name}: {t}");
        assert!(t.contains(&format!("(<shipped>/{file}.cases.toml:")), "{name}: {t}");
        assert!(t.contains(" passed, 0 failed (1 case file(s))"), "{name}: {t}");
    }
    // A file of that name is read as the file it is.
    std::fs::write(dir.path().join("stud"), "not toml [").unwrap();
    let out = kibitzer(&["test", "stud"], dir.path());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    // Neither a file nor a shipped name: the missing file is named.
    let out = kibitzer(&["test", "nosuch"], dir.path());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("nosuch"), "{}", text(&out));
}

#[test]
fn a_rule_file_given_as_a_case_file_says_what_runs_it() {
    let dir = tempfile::tempdir().unwrap();
    let src = String::from_utf8(kibitzer(&["rules", "stud", "--source"], dir.path()).stdout).unwrap();
    std::fs::write(dir.path().join("my-stud.rules"), &src).unwrap();
    let out = kibitzer(&["test", "my-stud.rules"], dir.path());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "kibitzer: my-stud.rules is a rule file: `kibitzer test` runs case files (*.cases.toml); to run the \
         shipped suite of the rule set it declares against it: kibitzer test --rules my-stud.rules\n"
    );
}

/// A game is its descriptor: a toy game written as a `Game` — a built-in, a rule file, a case
/// suite, a position generator and a benchmark — gives the loader, the case runner, `diff` and
/// `bench` all they need of it, with nothing else edited (the shipped games are this and a line in
/// `games::ALL`).
#[test]
fn a_toy_game_plugs_in_through_its_descriptor_alone() {
    use kibitzer::games::harness::{BenchOptions, Workload};
    use kibitzer::games::{positions::Rng, Game};
    use kibitzer::value::{Value, ValueType};
    use rand::Rng as _;

    fn register(r: &mut kibitzer::Registry) {
        r.func(
            "coin.double",
            &[("n", ValueType::Int)],
            ValueType::Int,
            "twice n",
            |a| match a[0] {
                Value::Int(n) => Ok(Value::Int(n.saturating_mul(2))),
                _ => Ok(Value::Int(0)),
            },
        );
    }
    fn random_inputs(rng: &mut Rng, _rule_set: &str) -> Vec<(String, String)> {
        vec![("stake".to_string(), rng.random_range(1..100).to_string())]
    }
    fn bench(_: &BenchOptions, report: &mut dyn FnMut(&str)) -> Result<(), String> {
        report("doubled=1");
        Ok(())
    }
    const RULES: &str = "ruleset coin \"a toy game: a stake paid double\"\ninput stake: int\noutput payout\n\
                         rule Pay \"pay double\" when stake(?s) then assert payout(coin.double(?s)) end\n";
    const CASES: &str = "rules = \"coin\"\n[[case]]\nname = \"a stake of 21\"\ninputs = { stake = \"21\" }\n\
                         expect = ['payout(42)']\nexact = true\n";
    let toy = Game {
        name: "coin",
        rule_files: &[("coin.rules", RULES)],
        case_suites: &[("coin.cases.toml", CASES)],
        golden: &[],
        register,
        random_inputs: Some(random_inputs),
        workload: Workload {
            name: "coin",
            about: "doubles a stake",
            run: bench,
        },
        arena: None,
    };

    let mut registry = kibitzer::library::standard_registry();
    (toy.register)(&mut registry);
    let (file, text) = toy.rule_files[0];
    let program = kibitzer::library::Loader::new()
        .registry(&registry)
        .text(file, text)
        .expect("the toy rules load");

    let (suite, text) = toy.case_suites[0];
    let cases = kibitzer::cases::parse(suite, text, None).expect("the toy suite parses");
    let outcome = kibitzer::cases::run_case(&program, &cases, 0, false);
    assert!(outcome.failures.is_empty(), "{:?} {:?}", outcome.failures, outcome.got);
    assert_eq!(outcome.got, ["payout(42)"]);

    let mut rng = <Rng as rand::SeedableRng>::seed_from_u64(1);
    let inputs = (toy.random_inputs.expect("a generator"))(&mut rng, "coin");
    let got = kibitzer::cases::answer(&program, &inputs, &[]);
    let stake: i64 = inputs[0].1.parse().unwrap();
    assert_eq!(got.lines, [format!("payout({})", 2 * stake)]);

    let mut lines = Vec::new();
    let options = BenchOptions {
        quick: true,
        load: |name| kibitzer::load_any(name).map_err(|e| e.to_string()),
        args: Vec::new(),
    };
    (toy.workload.run)(&options, &mut |l| lines.push(l.to_string())).unwrap();
    assert_eq!(lines, ["doubled=1"]);
}

/// `kibitzer ask --json` answers in the library's one JSON form: what `kibitzer::ask` and
/// `query::answer_json` give for the same query (the run's duration aside).
#[test]
fn the_command_answers_in_the_librarys_json_form() {
    use kibitzer::query::{answer_json, JsonParts};
    use kibitzer::{Query, RunOptions};
    let dir = tempfile::tempdir().unwrap();
    let (hand, opponent) = ("8S 10D 10S 8H 8C", "XX 3C 5D 4H 6H");
    let out = kibitzer(
        &[
            "ask",
            "stud",
            &format!("hand={hand}"),
            &format!("opponent={opponent}"),
            "--param",
            "bet_big_above=0.8",
            "--json",
            "--explain",
            "none",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let mut cli: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");

    let query = Query::new()
        .input("hand", hand)
        .input("opponent", opponent)
        .param("bet_big_above", "0.8")
        .options(RunOptions {
            record: false,
            ..RunOptions::default()
        });
    let (session, result) = kibitzer::ask(&kibitzer::load_shipped("stud").unwrap(), &query);
    let parts = JsonParts {
        answers: true,
        all_stats: true,
        ..JsonParts::default()
    };
    let mut lib = answer_json(&session, &result.unwrap(), &parts);
    for answer in [&mut cli, &mut lib] {
        answer["stats"]["micros"] = serde_json::Value::Null;
    }
    assert_eq!(cli, lib);
    assert_eq!(lib["conclusions"].as_array().map(Vec::len), Some(10), "{lib}");
}

#[test]
fn a_case_whose_answer_breaks_an_outputs_cardinality_fails() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("c.rules"),
        "ruleset c \"c\"\ninput total: int\noutput action: one, shown: exactly one\n\
         rule Split when total(16) then assert action(\"split\") end\n\
         rule Surrender when total(?t) ?t >= 15 then assert action(\"surrender\") end\n\
         rule Show when total(?t) ?t > 0 then assert shown(?t) end\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("c.cases.toml"),
        "rules = \"c.rules\"\n\n\
         [[case]]\nname = \"two answers\"\ninputs = { total = 16 }\nexpect = ['action(\"split\")']\n\n\
         [[case]]\nname = \"no answer\"\ninputs = { total = 0 }\nabsent = ['action']\n\n\
         [[case]]\nname = \"one answer\"\ninputs = { total = 15 }\nexpect = ['action(\"surrender\")', 'shown(15)']\nexact = true\n",
    )
    .unwrap();
    let out = kibitzer(&["test", "c.cases.toml"], dir.path());
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(
        t.contains("FAIL two answers (c.cases.toml:4)\n  error: two answers for `action`, which the rule set declares `one`: action(\"split\") by rule `Split`, then action(\"surrender\") by rule `Surrender`"),
        "{t}"
    );
    assert!(
        t.contains("FAIL no answer (c.cases.toml:9)\n  error: no answer for `shown`"),
        "{t}"
    );
    assert!(t.contains("ok   one answer") && t.contains("1 passed, 2 failed"), "{t}");
}
