//! Explanations as a player and a program read them: the player's view by default (short, no
//! engine noise, nothing cut), the full derivation with each subtree once, the answers alone,
//! why-not by name, title or move judged when the rule lost, and the JSON structure.

use serde_json::Value as Json;
use std::collections::HashMap;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_kibitzer");
const OPTIONS: &str = "tests/fixtures/explain/options.rules";

const STUD_EXAMPLE: &[&str] = &["stud", "hand=8S 10D 10S 8H 8C", "opponent=XX 3C 5D 4H 6H"];
const DURAK_DEFEND: &[&str] = &[
    "durak",
    "hand=7C 8D 9C JD AH",
    "trump=H",
    "stock=20",
    "hands=5,6",
    "role=defend",
    "table=6S",
    "--param",
    "samples=0",
];

/// Real queries of each shipped game, from their case files.
const GAMES: &[&[&str]] = &[
    STUD_EXAMPLE,
    &[
        "durak",
        "hand=6S 6H KD AH 9C",
        "trump=H",
        "stock=10",
        "hands=5,6",
        "role=attack",
        "--param",
        "samples=0",
    ],
    &["rummy", "hand=2H3H4H5H4H5H6H3C3C3D3D4D"],
    &["mahjong", "hand=1112345678999m"],
    &["doudizhu", "me=3 3 3 3 4", "enemy=A", "last=2"],
];

fn ask(args: &[&str], more: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .arg("ask")
        .args(args)
        .args(more)
        .output()
        .expect("run kibitzer");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn ask_ok(args: &[&str], more: &[&str]) -> String {
    let (code, out, err) = ask(args, more);
    assert_eq!(code, 0, "{args:?} {more:?}: {err}");
    out
}

#[test]
fn the_stud_seed_answer_fits_in_fifteen_lines() {
    let out = ask_ok(STUD_EXAMPLE, &[]);
    assert!(out.lines().count() <= 15, "{out}");
    for answer in ["category: 3, full house", "odds: 43, 0, 0, 1.0", "advice: bet big"] {
        assert!(out.lines().any(|l| l == answer), "{answer} missing in\n{out}");
    }
    assert!(
        out.contains("why: bet big — equity 1.0000 (43 wins, 0 ties, 0 losses) is above bet_big_above 0.7"),
        "{out}"
    );
}

#[test]
fn the_player_view_shows_no_engine_noise_and_cuts_nothing() {
    for q in GAMES {
        let out = ask_ok(q, &[]);
        assert!(!out.contains('?'), "{q:?}: a variable or unknown in\n{out}");
        assert!(!out.contains(" items]"), "{q:?}: a list cut short in\n{out}");
        assert!(!out.contains("(input "), "{q:?}: input echoed in\n{out}");
        assert!(
            out.lines().all(|l| l.chars().count() <= 100),
            "{q:?}: an unwrapped line in\n{out}"
        );
    }
    // Mahjong's nine waits, all of them (the conclusion line of a case file abbreviates them).
    let out = ask_ok(GAMES[3], &[]);
    assert!(out.contains("waits: [1m, 2m, 3m, 4m, 5m, 6m, 7m, 8m, 9m], 23"), "{out}");
}

#[test]
fn cards_look_the_same_in_every_game() {
    let rummy = ask_ok(GAMES[2], &[]);
    assert!(rummy.contains("discard: 4♦, 4, 12"), "{rummy}");
    assert!(rummy.contains("[2♥ 3♥ 4♥ 5♥] + [4♥ 5♥ 6♥]"), "{rummy}");
    assert!(!rummy.contains("4D"), "{rummy}");
    let durak = ask_ok(GAMES[1], &[]);
    assert!(durak.contains("play: attack, 6♠\n"), "{durak}");
}

#[test]
fn options_are_grouped_under_their_decision_by_rank() {
    let out = ask_ok(&[OPTIONS, "n=3"], &[]);
    let lines: Vec<&str> = out.lines().collect();
    let at = lines.iter().position(|l| *l == "discard: K♠").expect("the decision");
    assert_eq!(
        lines[at + 1],
        "  why: discard the loosest card — the king of spades joins no meld (Choose)"
    );
    // The runner-up with its numbers; the chosen one is the answer, the rest are counted.
    assert_eq!(
        lines[at + 2],
        "  runner-up: 5♥ — keeps the run 3♥ 4♥: 5 points (and 1 more option)"
    );
    let full = ask_ok(&[OPTIONS, "n=3"], &["--json"]);
    for choice in ["K♠", "5♥", "2♣ 3♣"] {
        assert!(
            full.contains(&format!("\"choice\":\"{choice}\"")),
            "{choice} missing in\n{full}"
        );
    }
    assert!(
        !out.lines().any(|l| l.starts_with("option")),
        "options are not answers of their own:\n{out}"
    );
    // A long answer wraps onto continuation lines, every item kept.
    let spread: String = lines
        .iter()
        .skip_while(|l| !l.starts_with("spread:"))
        .take(2)
        .copied()
        .collect();
    for n in 2..=40 {
        assert!(
            spread.contains(&format!("{n},")) || spread.contains(&format!("{n}]")),
            "{n} lost: {spread}"
        );
    }
}

#[test]
fn explain_none_prints_the_answers_alone() {
    let out = ask_ok(STUD_EXAMPLE, &["--explain", "none"]);
    let answers: Vec<&str> = out.lines().filter(|l| !l.starts_with('(')).collect();
    assert_eq!(
        answers,
        [
            "category: 3, full house",
            "odds: 43, 0, 0, 1.0",
            "odds_basis: exact: every showdown decided by Rule1–Rule15, 0",
            "equity: 1.0",
            "outs: no cards, no cards",
            "advice: bet big"
        ]
    );
}

/// The label (`[n]`) and the text of each rule line of a full view.
fn rule_lines(out: &str) -> Vec<String> {
    out.lines()
        .filter_map(|l| l.split_once("└─ ").map(|(_, r)| r.to_string()))
        .collect()
}

#[test]
fn the_full_view_prints_each_subtree_once() {
    for q in [STUD_EXAMPLE, GAMES[2], DURAK_DEFEND] {
        let out = ask_ok(q, &["--explain", "full"]);
        assert!(!out.contains("explained above"), "{out}");
        assert!(!out.contains("(input "), "{out}");
        // Every label is printed once, before every reference to it.
        let mut printed: HashMap<String, usize> = HashMap::new();
        for (i, line) in out.lines().enumerate() {
            if let Some(rest) = line.split("→ see [").nth(1) {
                let n = rest.trim_end_matches(']');
                let at = printed
                    .get(n)
                    .unwrap_or_else(|| panic!("[{n}] referred to before it is printed:\n{out}"));
                assert!(*at < i);
            } else if let Some((n, _)) = line.split("─ [").nth(1).and_then(|r| r.split_once("] ")) {
                if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) {
                    assert!(
                        printed.insert(n.to_string(), i).is_none(),
                        "[{n}] printed twice:\n{out}"
                    );
                }
            }
        }
        // No whole what-if expansion is printed twice.
        let whatifs: Vec<&str> = out
            .lines()
            .filter(|l| l.contains("what-if") && !l.contains("→ see"))
            .collect();
        let mut seen = std::collections::HashSet::new();
        for w in &whatifs {
            let text = w.split("what-if").nth(1).unwrap_or_default();
            assert!(seen.insert(text), "what-if expanded twice: {text}\n{out}");
        }
    }
    let stud = ask_ok(STUD_EXAMPLE, &["--explain", "full"]);
    assert!(stud.lines().count() < 130, "{stud}");
    assert!(stud.starts_with("input hand(8♠ 10♦ 10♠ 8♥ 8♣)\n"), "{stud}");
    assert!(
        stud.contains("odds_basis(\"exact: every showdown decided by Rule1–Rule15\", 0)  → see [1]"),
        "{stud}"
    );
    assert_eq!(
        rule_lines(&stud)
            .iter()
            .filter(|l| l.contains("Odds \"count the showdowns\""))
            .count(),
        1
    );
}

#[test]
fn why_not_by_title_by_move_and_by_name_in_any_case() {
    let hand = ["stud", "hand=8S 10D 10S 8H 8C"];
    let out = ask_ok(&hand, &["--why-not", "flush"]);
    assert!(
        out.contains("why not Rule4 \"flush\": Rule4 did not fire: condition 3 `same_suit(?h)` fails"),
        "{out}"
    );
    let out = ask_ok(&hand, &["--why-not", "rule16"]);
    assert!(out.contains("why not Rule16 \"bet big\""), "{out}");
    let out = ask_ok(&hand, &["--why-not", "advice(fold)"]);
    assert!(out.contains("why not Rule17 \"fold\""), "{out}");
    let out = ask_ok(&[OPTIONS, "n=0"], &["--why-not", "KS"]);
    assert!(
        out.contains(
            "why not Choose \"discard the loosest card\": Choose did not fire: condition 2 `?n > 0` fails: n 0 ≤ 0"
        ),
        "{out}"
    );
    // A word the rules use for a move, not among the decision's options: not legal here; the
    // rules that could conclude it under `--explain full`.
    let mahjong = ["mahjong", "hand=123m 456m 789m EE S N", "offered=1m"];
    let out = ask_ok(&mahjong, &["--why-not", "pong", "--explain", "none"]);
    assert!(
        out.contains("why not pong: not among the moves the rules weighed for call: chow, pass"),
        "{out}"
    );
    assert!(!out.contains("CallCloser"), "{out}");
    let out = ask_ok(&mahjong, &["--why-not", "pong", "--explain", "full"]);
    assert!(
        out.contains("why not CallCloser \"call: it brings the hand closer\": CallCloser was a candidate but lost when its turn came: condition 5"),
        "{out}"
    );
}

/// A move among a decision's options is answered from them, in every game: its verdict beside
/// the chosen move's and what decided, in at most six lines; a move the hand cannot make is not
/// legal, naming what the hand lacks.
#[test]
fn why_not_a_move_answers_from_the_decisions_verdicts_in_every_game() {
    let cases: &[(&[&str], &str, &str)] = &[
        (
            &["doudizhu", "me=3 3 3 3 4 5 6 7 T T A A A A", "enemy=BJ RJ J J 9 9 9"],
            "A A A A",
            "why not A A A A: ranks 67th of 67 for play: bomb, lose: the enemy answers BJ RJ (rocket) and wins",
        ),
        (
            &["mahjong", "hand=11223345679m EE", "offered=E"],
            "pass",
            "why not pass: ranks 2nd of 2 for call: wins within 6 draws 41%",
        ),
        (
            &["rummy", "hand=2H 3H 9S 9D KC", "discard_top=QC"],
            "QC",
            "why not QC: take ranks 2nd of 2 for draw: take Q♣, discard K♣",
        ),
        (
            DURAK_DEFEND,
            "KH",
            "why not KH: not a legal move for play: there is no K♥ in `hand`",
        ),
        (
            &["stud", "hand=AS KD QH 7C 4S", "opponent=XX XX JC 9D 6H"],
            "bet big",
            "why not bet big: ranks 3rd of 4 for advice: needs equity above 0.7; equity 0.5814 is 0.1186",
        ),
    ];
    for (query, asked, head) in cases {
        let out = ask_ok(query, &["--why-not", asked, "--explain", "none"]);
        let why: Vec<&str> = out.lines().skip_while(|l| !l.starts_with("why not")).collect();
        assert!(
            why.join(" ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .contains(head),
            "{out}"
        );
        assert!((2..=6).contains(&why.len()), "two to six lines: {out}");
        assert!(why.iter().any(|l| l.starts_with("  chosen: ")), "{out}");
        // No rule-level paragraph in the short form.
        assert!(
            !out.contains(" did not fire") && !out.contains("lost when its turn came"),
            "{out}"
        );
    }
}

/// Why-not prints conditions as written (parentheses kept, located at their first character),
/// a parameter tested alone by its name and value, a constant by its name with the value it gave,
/// and a rule asked for by name and by title once.
#[test]
fn why_not_renders_conditions_as_their_author_wrote_them() {
    const RENDER: &str = "tests/fixtures/explain/render.rules";
    let why = [
        "--why-not",
        "Range",
        "--why-not",
        "Bracketed",
        "--why-not",
        "Hit",
        "--why-not",
        "hit soft",
    ];
    let out = ask_ok(
        &[RENDER, "n=3"],
        &[&why[..], &["--why-not", "Big", "--explain", "none"]].concat(),
    );
    assert!(
        out.contains("condition 2 `?x == 10 or (?x > 20 and ?x < 30)` fails"),
        "{out}"
    );
    assert!(
        out.contains("condition 2 `(?x > 20 and ?x < 30) or ?x == 10` fails"),
        "{out}"
    );
    assert!(
        out.contains("render.rules:18:5"),
        "the column of the opening parenthesis: {out}"
    );
    assert!(
        out.contains("condition 2 `h17` fails: the parameter h17 is false"),
        "{out}"
    );
    assert!(!out.contains("false is false"), "{out}");
    assert!(out.contains("fails: hard_value[3] = 3 ≤ 9"), "{out}");
    assert!(
        !out.contains("[0, 0, 2"),
        "the constant by its name, not its list: {out}"
    );
    assert_eq!(
        out.matches("why not Hit ").count(),
        1,
        "asked by name and title, answered once: {out}"
    );
    // The full derivation names the constant too.
    let out = ask_ok(&[RENDER, "n=13"], &["--explain", "full"]);
    assert!(out.contains("hard_value[13] = 10 > 9 ✓"), "{out}");
}

/// A template's article agrees with the word the rules put after it ("a kong (concealed)", never
/// "an concealed kong").
#[test]
fn a_kong_is_announced_with_the_right_article() {
    let out = ask_ok(&["mahjong", "hand=1111m 234m 567m EE SC", "drawn=C"], &[]);
    assert!(out.contains("a kong of 1m (concealed)"), "{out}");
    assert!(!out.contains("an concealed"), "{out}");
}

/// A condition that failed for want of any fact of its relation is followed one level, to the
/// rule that would have asserted one and the condition that stopped it there.
#[test]
fn a_missing_fact_is_traced_to_the_rule_that_would_have_asserted_it() {
    let out = ask_ok(&["stud", "hand=AS KD"], &["--why-not", "Rule16", "--explain", "none"]);
    assert!(
        out.contains("condition 1 `equity(?e)` fails: there is no `equity` fact at all; `equity` comes from Equity, which did not fire: condition 1 `odds(?w, ?t, ?l, _)` fails: there is no `odds` fact at all"),
        "{out}"
    );
}

#[test]
fn an_unknown_why_not_gets_suggestions() {
    let (code, out, err) = ask(&["stud", "hand=8S 10D 10S 8H 8C"], &["--why-not", "flsh"]);
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains("no rule, rule title or concludable move matches `flsh`; did you mean `flush`"),
        "{err}"
    );
    let (_, _, err) = ask(&["stud", "hand=8S 10D 10S 8H 8C"], &["--why-not", "Rule61"]);
    assert!(err.contains("did you mean `Rule1`, `Rule11`, `Rule6`?"), "{err}");
}

#[test]
fn a_rule_that_lost_is_judged_by_the_check_that_decided_then() {
    let out = ask_ok(DURAK_DEFEND, &["--why-not", "DefendRatherThanTake", "--trace"]);
    let why = out
        .lines()
        .find(|l| l.starts_with("why not DefendRatherThanTake"))
        .expect("the why-not");
    assert!(
        why.contains("lost when its turn came: condition 9 `?gap < ?limit` failed: gap 1885 ≥ limit 1200"),
        "{why}"
    );
    assert!(!why.contains("not advice"), "{why}");
    let drop = out
        .lines()
        .find(|l| l.contains("DROP      DefendRatherThanTake"))
        .expect("the drop");
    assert!(drop.contains("`?gap < ?limit` failed: gap 1885 ≥ limit 1200"), "{drop}");
    assert!(
        out.contains("take_base - take_per_stock * r = (2000 - (40 * 20))"),
        "{out}"
    );
}

fn json_of(args: &[&str], more: &[&str]) -> Json {
    let out = ask_ok(args, &[more, &["--json"]].concat());
    serde_json::from_str(&out).expect("one JSON object")
}

/// Every node id of a tree, and every reference.
fn ids(e: &Json, found: &mut Vec<u64>, refs: &mut Vec<u64>) {
    if let Some(id) = e.get("id").and_then(Json::as_u64) {
        found.push(id);
    }
    if let Some(r) = e.get("ref").and_then(Json::as_u64) {
        refs.push(r);
        assert!(found.contains(&r), "ref {r} before its node");
    }
    // In the order the text prints them: what-ifs, aggregated groups, premises.
    for w in e.get("whatifs").and_then(Json::as_array).into_iter().flatten() {
        ids(w, found, refs);
        for c in w.get("concluded").and_then(Json::as_array).into_iter().flatten() {
            ids(c, found, refs);
        }
    }
    for g in e.get("aggregated").and_then(Json::as_array).into_iter().flatten() {
        ids(&g["example"], found, refs);
    }
    for p in e.get("premises").and_then(Json::as_array).into_iter().flatten() {
        ids(p, found, refs);
    }
}

#[test]
fn json_gives_the_player_view_beside_the_tree_with_references() {
    let j = json_of(STUD_EXAMPLE, &[]);
    let answers = j["answers"].as_array().expect("answers");
    let advice = answers.iter().find(|a| a["relation"] == "advice").expect("advice");
    assert_eq!(advice["text"], "advice: bet big");
    assert_eq!(advice["rule"], "Rule16");
    assert_eq!(
        advice["because"],
        "equity 1.0000 (43 wins, 0 ties, 0 losses) is above bet_big_above 0.7; a plain bet needs only above 0.5"
    );
    let category = answers.iter().find(|a| a["relation"] == "category").expect("category");
    assert_eq!(category["args"], serde_json::json!([3, "full house"]));
    let (mut found, mut refs) = (Vec::new(), Vec::new());
    for c in j["conclusions"].as_array().expect("conclusions") {
        ids(&c["explanation"], &mut found, &mut refs);
    }
    let unique: std::collections::HashSet<_> = found.iter().collect();
    assert_eq!(unique.len(), found.len(), "an id used twice");
    assert!(!refs.is_empty(), "odds_basis refers to the odds explanation");
    // Cards as arrays of strings, numbers as numbers.
    let hand = &j["conclusions"][0]["explanation"]["premises"];
    assert!(hand.is_array());
    let rummy = json_of(GAMES[2], &[]);
    let best = rummy["answers"]
        .as_array()
        .expect("answers")
        .iter()
        .find(|a| a["relation"] == "best")
        .cloned();
    assert_eq!(
        best.expect("best")["args"][0][0],
        serde_json::json!(["2♥", "3♥", "4♥", "5♥"])
    );
    let none = json_of(STUD_EXAMPLE, &["--explain", "none"]);
    assert!(none["conclusions"][0].get("explanation").is_none());
    let options = json_of(&[OPTIONS, "n=3"], &[]);
    let discard = &options["answers"][0];
    assert_eq!(discard["options"][2]["value"], serde_json::json!(["2♣", "3♣"]));
    assert_eq!(discard["options"][1]["rank"], 2);
    assert_eq!(discard["options"][1]["extra"], serde_json::json!([3]));
}

#[test]
fn json_why_not_and_trace_stay() {
    let j = json_of(DURAK_DEFEND, &["--why-not", "defendratherthantake", "--trace"]);
    let w = &j["why_not"][0];
    assert_eq!(w["rule"], "DefendRatherThanTake");
    assert_eq!(w["failed"]["index"], 9);
    assert!(w["failed"]["reason"]
        .as_str()
        .unwrap_or_default()
        .starts_with("gap 1885 ≥ limit 1200"));
    assert!(j["trace"].as_array().is_some_and(|t| !t.is_empty()));
}
