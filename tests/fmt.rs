//! `kibitzer fmt`: the layout is idempotent and keeps the meaning (the same syntax tree and the same
//! checked rule set) on every rule file of the repository and on randomly re-laid-out and commented
//! copies of them; the shipped rule files are formatted; the command rewrites, checks with a diff,
//! and reports syntax errors at their position.

use kibitzer::lang::format_rules;
use kibitzer::lang::syntax::parse_rules;
use proptest::prelude::*;
use std::path::Path;
use std::process::Command;

mod tree;

const BIN: &str = env!("CARGO_BIN_EXE_kibitzer");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every rule file git tracks, as (path relative to the root, text).
fn rule_files() -> Vec<(String, String)> {
    tree::files(root())
        .into_iter()
        .filter(|p| p.ends_with(".rules"))
        .map(|p| {
            let text = std::fs::read_to_string(root().join(&p)).unwrap();
            (p, text)
        })
        .collect()
}

/// A debug dump with every `Span { … }` replaced by `Span`: positions move, nothing else may.
fn masked(debug: String) -> String {
    let mut out = String::with_capacity(debug.len());
    let mut rest = debug.as_str();
    while let Some(at) = rest.find("Span {") {
        out.push_str(&rest[..at]);
        out.push_str("Span");
        rest = &rest[at..];
        rest = &rest[rest.find('}').map_or(rest.len(), |e| e + 1)..];
    }
    out.push_str(rest);
    out
}

/// The syntax tree of a rule file, positions left out.
fn tree_of(text: &str) -> String {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    masked(format!("{:#?}", parse_rules(0, text).expect("parses")))
}

/// The checked rule set as the library describes it (rules, inputs, parameters, outputs,
/// warnings), positions left out; its includes read from `dir`.
fn checked(name: &str, text: &str, dir: &Path) -> String {
    let read = |_: &str, inc: &str| -> Result<(String, String), String> {
        let p = dir.join(inc);
        let t = std::fs::read_to_string(&p).map_err(|e| e.to_string())?;
        Ok((p.display().to_string(), t))
    };
    match kibitzer::library::Loader::new().text_with_includes(name, text, &read) {
        Ok(p) => masked(format!(
            "{} {:?} {:?} {:?} {:?} {:?} {:?}",
            p.name(),
            p.description(),
            p.rules(),
            p.inputs(),
            p.params(),
            p.outputs(),
            p.warnings().iter().map(|w| &w.message).collect::<Vec<_>>()
        )),
        Err(e) => masked(format!("{e:?}")),
    }
}

/// Formats `text`, asserting the result formats to itself and parses to the same tree.
fn formatted_and_sound(name: &str, text: &str) -> String {
    let once = format_rules(name, text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let twice = format_rules(name, &once).unwrap_or_else(|e| panic!("{name}, formatted: {e}\n{once}"));
    assert_eq!(once, twice, "{name}: formatting the formatted file changed it");
    assert_eq!(
        tree_of(text),
        tree_of(&once),
        "{name}: the syntax tree changed:\n{once}"
    );
    once
}

#[test]
fn every_rule_file_formats_idempotently_to_the_same_tree_and_rule_set() {
    let files = rule_files();
    assert!(files.len() > 20, "{}", files.len());
    for (path, text) in &files {
        let once = formatted_and_sound(path, text);
        // Data files are included by another file: their checked form is their includer's.
        let dir = root().join(path).parent().unwrap().to_path_buf();
        if !path.contains("/data/") {
            assert_eq!(checked(path, text, &dir), checked(path, &once, &dir), "{path}");
        }
    }
}

#[test]
fn the_shipped_rule_files_are_formatted() {
    let shipped = ["rules/", "examples/", "benches/"];
    for (path, text) in rule_files() {
        if shipped.iter().any(|s| path.starts_with(s)) {
            let once = format_rules(&path, &text).unwrap();
            assert!(once == text, "{path} is not formatted: run `kibitzer fmt {path}`");
        }
    }
}

#[test]
fn comments_stay_where_they_were() {
    let text = "# heading\n\nruleset x   # the name\ninput  hand: cards(1..5)   # cards\ninput n : int\n\n\n\n# a rule\nrule A when hand(?h) # first\n  # the negation\n  not { a(?h) , b(?h) } then assert  x( 1+2 *3 , [1,2]) end # done\n# the end\n";
    let out = formatted_and_sound("t.rules", text);
    expect_test::expect![[r#"
        # heading

        ruleset x # the name
        input  hand: cards(1..5) # cards
        input  n:    int

        # a rule
        rule A
        when
            hand(?h) # first
            # the negation
            not { a(?h), b(?h) }
        then
            assert x(1 + 2 * 3, [1, 2])
        end # done
        # the end
    "#]]
    .assert_eq(&out);
}

#[test]
fn parameters_align_in_runs_and_long_values_stand_apart() {
    let text = "ruleset x\nparam a = 1 in 0..9 \"one\"\nparam longer_name = \"text\" \"two\"\nparam table = [1, 2, 3, 4, 5, 6, 7, 8, 9] \"three\"\n\nparam z = true\nconst k = 3\nconst kk = [\n  1, 2,\n  3]\n";
    let out = formatted_and_sound("t.rules", text);
    expect_test::expect![[r#"
        ruleset x
        param  a           = 1       in 0..9 "one"
        param  longer_name = "text"  "two"
        param  table       = [1, 2, 3, 4, 5, 6, 7, 8, 9]  "three"

        param  z = true
        const  k = 3
        const  kk = [
            1,
            2,
            3
        ]
    "#]]
    .assert_eq(&out);
}

#[test]
fn inputs_keep_their_defaults_domains_and_descriptions() {
    let text = "ruleset x\ninput seat : int in 1..4   \"the seat to act\"\ninput mode: string = \"fast\" in [ \"fast\",\"slow\" ]\ninput n: int \"how many\"\ninput w: decimal=0.5 in 0.0..1.0\noutput o\n";
    let out = formatted_and_sound("t.rules", text);
    expect_test::expect![[r#"
        ruleset x
        input  seat: int in 1..4 "the seat to act"
        input  mode: string = "fast" in ["fast", "slow"]
        input  n:    int "how many"
        input  w:    decimal = 0.5 in 0.0..1.0
        output o
    "#]]
    .assert_eq(&out);
    let dir = std::env::temp_dir();
    let (before, after) = (checked("t.rules", text, &dir), checked("t.rules", &out, &dir));
    assert!(
        before.contains("within 1..4") && before.contains("the seat to act"),
        "{before}"
    );
    assert_eq!(before, after);
}

#[test]
fn a_comment_inside_an_expression_keeps_it_as_written() {
    let text = "ruleset x\ninput n: int\noutput o\nrule A\nwhen\n  n(?n)\n  ?m = ?n +   # plus one\n       1\nthen\n  assert   o(?m)\nend\n";
    let out = formatted_and_sound("t.rules", text);
    expect_test::expect![[r#"
        ruleset x
        input  n: int
        output o

        rule A
        when
            n(?n)
            ?m = ?n +   # plus one
               1
        then
            assert o(?m)
        end
    "#]]
    .assert_eq(&out);
}

#[test]
fn every_condition_and_action_form_is_laid_out() {
    let text = r#"ruleset x "t"
include "other.rules"
strategy depth
input h: cards(0..5, hidden: 0..5) = ""
output a, b
rule R "title" salience -5
when
  ?f <- a(?x, _)
  whatif x(hand: ?x,n:1) yields b(?y)
  ?s = sum ?v { a(?v, _), ?v > 0 }
  ?m = -(?s + 1) * 2 % 3
  !(?m in [1,2]) or ?m >= 1 and ?x[0][1] != "a\"b"
then
  retract ?f
  retract a(1, 2)
  modify ?f (?x, _)
  assert   logical  b( ?x )
  halt
because "{?x}"
end
"#;
    let out = formatted_and_sound("t.rules", text);
    expect_test::expect![[r#"
        ruleset x "t"
        include "other.rules"
        strategy depth
        input  h: cards(0..5, hidden: 0..5) = ""
        output a, b

        rule R "title" salience -5
        when
            ?f <- a(?x, _)
            whatif x(hand: ?x, n: 1) yields b(?y)
            ?s = sum ?v { a(?v, _), ?v > 0 }
            ?m = -(?s + 1) * 2 % 3
            !(?m in [1, 2]) or ?m >= 1 and ?x[0][1] != "a\"b"
        then
            retract ?f
            retract a(1, 2)
            modify ?f (?x, _)
            assert logical b(?x)
            halt
        because "{?x}"
        end
    "#]]
    .assert_eq(&out);
}

#[test]
fn odd_inputs_format_without_failing() {
    for text in [
        "",
        "\n\n",
        "# only a comment",
        "\u{feff}ruleset x\r\ninput n: int\r\n",
        "ruleset x rule A when then end",
    ] {
        formatted_and_sound("t.rules", text);
    }
    assert_eq!(format_rules("t.rules", "\n\n").unwrap(), "");
    let e = format_rules("t.rules", "ruleset x\nrule A when then\n").unwrap_err();
    assert!(
        e.render()
            .starts_with("t.rules:3:1: error: syntax error: unexpected end of file"),
        "{e}"
    );
}

/// A shipped rule file relaid at random: line breaks and spaces between tokens, and comments
/// added at the end of lines and on lines of their own.
fn relaid(text: &str, choices: &[u8]) -> String {
    let mut out = String::new();
    let mut k = 0;
    let mut next = || {
        k += 1;
        choices[k % choices.len()]
    };
    let mut in_string = false;
    let mut in_comment = false;
    for ch in text.chars() {
        match ch {
            '"' if !in_comment => in_string = !in_string,
            '#' if !in_string => in_comment = true,
            '\n' => {
                in_comment = false;
                in_string = false;
                match next() % 6 {
                    0 => out.push_str(" # note"),
                    1 => out.push_str("\n\n# between\n"),
                    _ => {}
                }
            }
            ' ' if !in_string && !in_comment => {
                match next() % 5 {
                    0 => out.push_str("  "),
                    1 => out.push('\n'),
                    _ => out.push(' '),
                }
                continue;
            }
            _ => {}
        }
        out.push(ch);
    }
    out
}

/// Found by the test below: a comment at the end of each line of a first-match table, then
/// formatted twice.
#[test]
fn a_rule_file_with_a_comment_on_every_line_formats_idempotently() {
    for path in ["examples/blackjack.rules", "rules/stud.rules", "rules/durak.rules"] {
        let text = std::fs::read_to_string(root().join(path)).unwrap();
        formatted_and_sound(path, &relaid(&text, &[132]));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn relaid_rule_files_format_soundly(which in 0usize..64, choices in prop::collection::vec(any::<u8>(), 1..64)) {
        let files: Vec<(String, String)> = rule_files().into_iter().filter(|(p, _)| !p.contains("/data/")).collect();
        let (path, text) = &files[which % files.len()];
        let text = relaid(text, &choices);
        // A relaid file that no longer parses (a comment ate a token) tells nothing.
        if parse_rules(0, &text).is_ok() {
            formatted_and_sound(path, &text);
        }
    }
}

/// A shipped rule file mutated as the fuzzer mutates it: lines dropped, repeated or swapped, and
/// characters deleted.
fn mutated(text: &str, choices: &[u8]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for (k, c) in choices.iter().enumerate() {
        if lines.is_empty() {
            break;
        }
        let at = (usize::from(*c) * 7919 + k * 104_729) % lines.len();
        match c % 4 {
            0 => {
                lines.remove(at);
            }
            1 => {
                let l = lines[at].clone();
                lines.insert(at, l);
            }
            2 => {
                let next = (at + 1) % lines.len();
                lines.swap(at, next);
            }
            _ => {
                let l = &mut lines[at];
                if let Some((i, _)) = l.char_indices().nth(usize::from(*c) % l.chars().count().max(1)) {
                    l.remove(i);
                }
            }
        }
    }
    lines.join("\n")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    #[test]
    fn mutated_rule_files_that_parse_format_soundly(which in 0usize..64, choices in prop::collection::vec(any::<u8>(), 1..6)) {
        let files: Vec<(String, String)> = rule_files().into_iter().filter(|(p, _)| !p.contains("/data/")).collect();
        let (path, text) = &files[which % files.len()];
        let text = mutated(text, &choices);
        if parse_rules(0, &text).is_ok() {
            formatted_and_sound(path, &text);
        }
    }
}

fn kibitzer(args: &[&str], dir: &Path) -> (i32, String, String) {
    let out = Command::new(BIN).args(args).current_dir(dir).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn the_command_checks_rewrites_and_reports() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("sub")).unwrap();
    let messy = "ruleset m\ninput n : int\noutput o\nrule A when n(?n) then assert o(?n) end\n";
    std::fs::write(d.join("sub/m.rules"), messy).unwrap();
    std::fs::write(d.join("ok.rules"), format_rules("ok", messy).unwrap()).unwrap();

    let (code, out, err) = kibitzer(&["fmt", "--check", "."], d);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.starts_with("--- ./sub/m.rules\n+++ ./sub/m.rules (formatted)\n"),
        "{out}"
    );
    assert!(
        out.contains("-rule A when n(?n) then assert o(?n) end\n+\n+rule A\n+when\n"),
        "{out}"
    );
    assert_eq!(err, "1 file(s) not formatted (`kibitzer fmt PATH` rewrites them)\n");
    assert_eq!(std::fs::read_to_string(d.join("sub/m.rules")).unwrap(), messy);

    let (code, out, _) = kibitzer(&["fmt", "."], d);
    assert_eq!((code, out.as_str()), (0, "formatted ./sub/m.rules\n"));
    let (code, out, err) = kibitzer(&["fmt", "--check", "."], d);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));

    std::fs::write(d.join("bad.rules"), "ruleset b\nrule A when then\n").unwrap();
    let (code, _, err) = kibitzer(&["fmt", "bad.rules"], d);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("bad.rules:3:1: error: syntax error: unexpected end of file"),
        "{err}"
    );
}

#[test]
fn the_command_formats_standard_input() {
    let mut child = Command::new(BIN)
        .args(["fmt"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"ruleset s\ninput n:int\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "ruleset s\ninput  n: int\n");
    assert!(out.status.success());
}

#[test]
fn a_rule_head_puts_its_group_before_its_salience() {
    let text = "ruleset t \"t\"\ninput n: int\noutput a\ngroup  g   first\n\
                rule R \"r\" salience 5   in g when n(?n) then assert a(?n) end\n";
    let once = formatted_and_sound("t.rules", text);
    assert!(once.contains("group g first\n"), "{once}");
    assert!(once.contains("rule R \"r\" in g salience 5\nwhen\n"), "{once}");
}
