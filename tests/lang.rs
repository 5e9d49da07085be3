//! Parser and checker: every problem a rule author can make, pinned as the full rendered message
//! (`file:line:col`, the source line, a caret). `UPDATE_EXPECT=1 cargo test --test lang` re-pins.

use expect_test::{expect, Expect};

fn check(rules: &str, expected: Expect) {
    let text = match kibitzer::load_text("t.rules", rules) {
        Ok(p) => format!("loaded `{}` with {} warning(s)", p.name(), p.warnings().len()),
        Err(e) => e.to_string(),
    };
    expected.assert_eq(&text);
}

const HEAD: &str = "ruleset t \"t\"\ninput hand: cards(5)\noutput category\n";

#[test]
fn syntax_error_points_at_the_token() {
    check(
        &format!("{HEAD}rule A \"a\" when hand(?h) then assert category(1 \"x\") end\n"),
        expect![[r#"
            t.rules:4:49: error: syntax error: unexpected `"x")`; expected a comparison, an operator or something else
              |
            4 | rule A "a" when hand(?h) then assert category(1 "x") end
              |                                                 ^^^^"#]],
    );
}

#[test]
fn an_unclosed_parenthesis_is_shown_where_it_opens() {
    check(
        &format!("{HEAD}rule A \"a\" when hand(?h) then assert category(1, \"x\"\nend\n"),
        expect![[r#"
            t.rules:4:46: error: syntax error: this `(` is never closed (the parser stopped at `end` on line 5)
              |
            4 | rule A "a" when hand(?h) then assert category(1, "x"
              |                                              ^"#]],
    );
}

#[test]
fn a_parenthesis_closed_on_a_later_line_leaves_the_token_error() {
    check(
        &format!("{HEAD}rule A \"a\" when hand(?h) then assert category(\n  1,\n  \"x\" \"y\")\nend\n"),
        expect![[r#"
            t.rules:6:7: error: syntax error: unexpected `"y")`; expected a comparison, an operator or something else
              |
            6 |   "x" "y")
              |       ^^^^"#]],
    );
}

#[test]
fn a_misspelt_builtin_gets_the_nearest_name() {
    check(
        &format!("{HEAD}rule A \"a\" when hand(?h) ?n = card_cont(?h) then assert category(?n) end\n"),
        expect![[r#"
            t.rules:4:31: error: unknown built-in `card_cont` (did you mean `card_count`?)
              |
            4 | rule A "a" when hand(?h) ?n = card_cont(?h) then assert category(?n) end
              |                               ^^^^^^^^^
            t.rules:4:66: error: variable `?n` is used in `then` but never bound (bind it with a pattern or `?n = ...` first)
              |
            4 | rule A "a" when hand(?h) ?n = card_cont(?h) then assert category(?n) end
              |                                                                  ^^"#]],
    );
}

#[test]
fn unbound_variables_in_then_because_and_tests() {
    check(
        &format!("{HEAD}rule A \"a\" when hand(?h) ?q > 3 then assert category(1, ?z) because \"{{?w}}\" end\n"),
        expect![[r#"
            t.rules:4:26: error: variable `?q` is compared but never bound (bind it with a pattern or `?q = ...` first)
              |
            4 | rule A "a" when hand(?h) ?q > 3 then assert category(1, ?z) because "{?w}" end
              |                          ^^
            t.rules:4:57: error: variable `?z` is used in `then` but never bound (bind it with a pattern or `?z = ...` first)
              |
            4 | rule A "a" when hand(?h) ?q > 3 then assert category(1, ?z) because "{?w}" end
              |                                                         ^^
            t.rules:4:70: error: variable `?w` in the `because` text is never bound in `when`
              |
            4 | rule A "a" when hand(?h) ?q > 3 then assert category(1, ?z) because "{?w}" end
              |                                                                      ^^^^"#]],
    );
}

#[test]
fn unknown_relation_builtin_and_arity() {
    check(
        &format!("{HEAD}rule A \"a\" when hand(?h, 2) colour(?h) ?x = no_such(?h) then assert category(?x) end\n"),
        expect![[r#"
            t.rules:4:17: error: arity mismatch: `hand` has 1 argument(s), got 2
              |
            4 | rule A "a" when hand(?h, 2) colour(?h) ?x = no_such(?h) then assert category(?x) end
              |                 ^^^^^^^^^^^
            t.rules:4:29: error: unknown relation or built-in `colour` (no input declares it and no rule asserts it)
              |
            4 | rule A "a" when hand(?h, 2) colour(?h) ?x = no_such(?h) then assert category(?x) end
              |                             ^^^^^^
            t.rules:4:45: error: unknown built-in `no_such`
              |
            4 | rule A "a" when hand(?h, 2) colour(?h) ?x = no_such(?h) then assert category(?x) end
              |                                             ^^^^^^^
            t.rules:4:78: error: variable `?x` is used in `then` but never bound (bind it with a pattern or `?x = ...` first)
              |
            4 | rule A "a" when hand(?h, 2) colour(?h) ?x = no_such(?h) then assert category(?x) end
              |                                                                              ^^"#]],
    );
}

#[test]
fn duplicate_rule_names_and_bad_salience() {
    check(
        &format!(
            "{HEAD}rule A \"a\" when hand(?h) then assert category(1, \"x\") end\nrule A \"b\" salience 99999999999999999999 when hand(?h) then assert category(2, \"y\") end\n"
        ),
        expect![[r#"
            t.rules:5:21: error: integer `99999999999999999999` is out of range
              |
            5 | rule A "b" salience 99999999999999999999 when hand(?h) then assert category(2, "y") end
              |                     ^^^^^^^^^^^^^^^^^^^^"#]],
    );
}

#[test]
fn an_output_declared_exactly_one_that_no_rule_produces_is_an_error() {
    check(
        "ruleset t \"t\"\ninput hand: cards(5)\noutput category, note: exactly one\nrule A \"a\" when hand(?h) then assert category(1, \"x\") end\n",
        expect![[r#"
            t.rules:3:18: error: no rule produces output `note`, which is declared `exactly one`
              |
            3 | output category, note: exactly one
              |                  ^^^^"#]],
    );
}

#[test]
fn rules_nothing_feeds_can_never_fire_and_their_output_is_unreachable() {
    // B and C feed each other and nothing else produces `odds` or `advice`; no rule asserts `note`.
    check(
        "ruleset t \"t\"\ninput hand: cards(5)\noutput category, advice, note\nrule A \"a\" when hand(?h) then assert category(1, \"x\") end\nrule B \"b\" when odds(?p) then assert advice(?p) end\nrule C \"c\" when advice(?p) then assert odds(?p) end\n",
        expect![[r#"
            t.rules:3:18: error: unreachable output `advice`: every rule that asserts it can never fire
              |
            3 | output category, advice, note
              |                  ^^^^^^
            t.rules:3:26: warning: no rule produces output `note`
              |
            3 | output category, advice, note
              |                          ^^^^
            t.rules:5:1: warning: rule `B` can never fire: nothing produces `odds`
              |
            5 | rule B "b" when odds(?p) then assert advice(?p) end
              | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            t.rules:6:1: warning: rule `C` can never fire: nothing produces `advice`
              |
            6 | rule C "c" when advice(?p) then assert odds(?p) end
              | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"#]],
    );
}

#[test]
fn a_rule_with_errors_is_not_blamed_again_for_what_it_asserts() {
    // B's errors are reported; `advice`, which only B asserts, is not also reported as an output
    // nothing produces.
    check(
        "ruleset t \"t\"\ninput hand: cards(5)\noutput category, advice\nrule A \"a\" when hand(?h) then assert category(1, \"x\") end\nrule B \"b\" when odds(?p) then assert advice(?p) end\n",
        expect![[r#"
            t.rules:5:17: error: unknown relation or built-in `odds` (no input declares it and no rule asserts it)
              |
            5 | rule B "b" when odds(?p) then assert advice(?p) end
              |                 ^^^^
            t.rules:5:45: error: variable `?p` is used in `then` but never bound (bind it with a pattern or `?p = ...` first)
              |
            5 | rule B "b" when odds(?p) then assert advice(?p) end
              |                                             ^^"#]],
    );
}

#[test]
fn bad_input_type_and_parameter() {
    check(
        "ruleset t \"t\"\ninput hand: cardz(5)\nparam p = 0.5\noutput category\nrule A \"a\" when hand(?h) ?h > q then assert category(1, \"x\") end\n",
        expect![[r#"
            t.rules:2:13: error: unknown input type `cardz` (known: int, decimal, string, symbol, bool, rank, ints, card, cards, durak_suit, durak_sizes, durak_table, tiles, melds, rummy_hand, rummy_card, rummy_rank, ddz_hand, ddz_play)
              |
            2 | input hand: cardz(5)
              |             ^^^^^
            t.rules:5:17: error: unknown relation or built-in `hand` (no input declares it and no rule asserts it)
              |
            5 | rule A "a" when hand(?h) ?h > q then assert category(1, "x") end
              |                 ^^^^
            t.rules:5:26: error: variable `?h` is compared but never bound (bind it with a pattern or `?h = ...` first)
              |
            5 | rule A "a" when hand(?h) ?h > q then assert category(1, "x") end
              |                          ^^
            t.rules:5:31: error: unknown name `q` (not a parameter or constant; variables start with `?`)
              |
            5 | rule A "a" when hand(?h) ?h > q then assert category(1, "x") end
              |                               ^"#]],
    );
}

#[test]
fn missing_header_and_unterminated_string() {
    check(
        "rule A \"a when hand(?h) then end\n",
        expect![[r#"
        t.rules:1:8: error: syntax error: unexpected `"a`; expected `salience`, a string or something else
          |
        1 | rule A "a when hand(?h) then end
          |        ^^"#]],
    );
}

#[test]
fn parameter_overrides_are_checked() {
    let program = kibitzer::load_shipped("stud").expect("stud");
    let mut s = kibitzer::Session::new(program);
    let errors: Vec<String> = [("no_such", "1"), ("bet_big_above", "lots"), ("odds_path", "7")]
        .iter()
        .map(|(k, v)| match s.set_param(k, v) {
            Ok(()) => format!("{k}={v}: accepted"),
            Err(e) => format!("{k}={v}: {e}"),
        })
        .collect();
    expect![[r#"
        no_such=1: unknown parameter `no_such` (parameters of `stud`: bet_big_above, bet_above, fold_below, odds_path, rules_deal_limit, exact_budget, samples, seed, wheel)
        bet_big_above=lots: parameter `bet_big_above` is a number, got `lots`
        odds_path=7: parameter `odds_path` must be one of "rules", "native", "auto", got `7`"#]].assert_eq(&errors.join("\n"));
}

#[test]
fn firing_limit_names_the_looping_rules() {
    let program = kibitzer::load_text(
        "loop.rules",
        "ruleset t \"t\"\ninput n: int\noutput out\nrule Count \"count up\" when n(?n) ?k = ?n then assert n(?k + 1) end\nrule Out \"never\" salience -1 when n(1000000) then assert out(1) end\n",
    )
    .expect("loads");
    let mut s = kibitzer::Session::new(program);
    s.set_options(kibitzer::RunOptions {
        firing_limit: 500,
        trace: false,
        ..kibitzer::RunOptions::default()
    });
    s.set_input_text("n", "1").expect("n");
    let e = s.run().expect_err("the loop hits the limit");
    expect!["stopped after 500 firings: the rules keep firing, most often `Count` (500×) (a rule loop? if not, raise the firing limit, `max_firings`)"].assert_eq(&e.to_string());
}

#[test]
fn duplicate_rule_names() {
    check(
        &format!(
            "{HEAD}rule A \"a\" when hand(?h) then assert category(1, \"x\") end\nrule A \"b\" when hand(?h) then assert category(2, \"y\") end\n"
        ),
        expect![[r#"
            t.rules:5:6: error: duplicate rule name `A` (first defined at t.rules:4:6)
              |
            5 | rule A "b" when hand(?h) then assert category(2, "y") end
              |      ^"#]],
    );
}

#[test]
fn a_relation_asserted_but_never_matched_nor_output_is_a_warning_with_the_near_name() {
    check_warnings(
        &format!(
            "{HEAD}rule A \"a\" when hand(?h) then assert categroy(1, \"x\") end\n\
             rule B \"b\" when hand(?h) then assert category(2, \"y\") end\n"
        ),
        expect![[r#"
            t.rules:4:38: warning: `categroy` is asserted but no rule matches it and it is not an output (did you mean `category`?)
              |
            4 | rule A "a" when hand(?h) then assert categroy(1, "x") end
              |                                      ^^^^^^^^"#]],
    );
}

#[test]
fn a_pattern_on_a_misspelt_relation_names_the_near_one() {
    check_warnings(
        &format!(
            "{HEAD}rule A \"a\" when hand(?h) then assert ranked(1) end\n\
             rule B \"b\" when rankd(?r) then assert category(?r, \"y\") end\n"
        ),
        expect![[r#"
            t.rules:5:17: error: unknown relation or built-in `rankd` (did you mean `ranked`?)
              |
            5 | rule B "b" when rankd(?r) then assert category(?r, "y") end
              |                 ^^^^^
            t.rules:5:48: error: variable `?r` is used in `then` but never bound (bind it with a pattern or `?r = ...` first)
              |
            5 | rule B "b" when rankd(?r) then assert category(?r, "y") end
              |                                                ^^
            t.rules:4:38: warning: `ranked` is asserted but no rule matches it and it is not an output
              |
            4 | rule A "a" when hand(?h) then assert ranked(1) end
              |                                      ^^^^^^"#]],
    );
}

/// Loads `rules` and renders its warnings (or its errors).
fn check_warnings(rules: &str, expected: Expect) {
    let text = match kibitzer::load_text("t.rules", rules) {
        Ok(p) => p
            .warnings()
            .iter()
            .map(|w| w.render(p.sources()))
            .collect::<Vec<_>>()
            .join("\n"),
        Err(e) => e.to_string(),
    };
    expected.assert_eq(text.trim_end());
}

/// Loads `main.rules` with includes read from `files` (name, text).
fn load_with(files: &[(&str, &str)]) -> String {
    let reader = |_: &str, path: &str| -> Result<(String, String), String> {
        files
            .iter()
            .find(|(n, _)| *n == path)
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .ok_or_else(|| "no such file".to_string())
    };
    match kibitzer::library::Loader::new().text_with_includes("main.rules", files[0].1, &reader) {
        Ok(p) => format!("loaded `{}`", p.name()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn an_include_cycle_of_two_files_is_an_error_naming_the_chain() {
    let main = "ruleset t \"t\"\ninclude \"a.rules\"\ninput n: int\noutput r\n";
    let text = load_with(&[
        ("main.rules", main),
        ("a.rules", "include \"b.rules\"\n"),
        ("b.rules", "include \"a.rules\"\n"),
    ]);
    expect![[r#"
        b.rules:1:1: error: include cycle: main.rules → a.rules → b.rules → a.rules
          |
        1 | include "a.rules"
          | ^^^^^^^^^^^^^^^^^"#]]
    .assert_eq(&text);
    // Two files including a third is no cycle: it is read once.
    let diamond = "ruleset t \"t\"\ninclude \"a.rules\"\ninclude \"b.rules\"\ninput n: int\noutput r\n\
                   rule R \"r\" when n(?n) then assert r(?n) end\n";
    let shared = "include \"c.rules\"\n";
    let text = load_with(&[
        ("main.rules", diamond),
        ("a.rules", shared),
        ("b.rules", shared),
        ("c.rules", "# nothing\n"),
    ]);
    assert_eq!(text, "loaded `t`");
}

#[test]
fn a_byte_order_mark_at_the_start_of_a_rule_file_is_not_part_of_it() {
    let text = format!("\u{feff}{HEAD}rule A \"a\" when hand(?h) then assert category(1, \"x\") end\n");
    let program = kibitzer::load_text("t.rules", &text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(program.name(), "t");
}

#[test]
fn parameter_domains_are_checked_where_declared() {
    check(
        &format!(
            "{HEAD}param a = 5 in 10..1\nparam b = 0 in 1..9\nparam c = \"x\" in 1..9\n\
             param d = \"x\" in [\"y\", 3]\nparam e = 2 in [1, 2, 3]\n\
             rule A \"a\" when hand(?h) then assert category(1, \"x\") end\n"
        ),
        expect![[r#"
            t.rules:4:13: error: the range of `a` is empty: 10 is above 1
              |
            4 | param a = 5 in 10..1
              |             ^^^^^^^^
            t.rules:5:13: error: the default of `b`, 0, is not in 1..9
              |
            5 | param b = 0 in 1..9
              |             ^^^^^^^
            t.rules:6:15: error: `c` is not a number: give its values as a list, `in [...]`
              |
            6 | param c = "x" in 1..9
              |               ^^^^^^^
            t.rules:7:15: error: `d` is a string parameter, but its values list 3
              |
            7 | param d = "x" in ["y", 3]
              |               ^^^^^^^^^^^"#]],
    );
}

#[test]
fn parameter_overrides_outside_their_domain_are_refused_naming_it() {
    let rules = format!(
        "{HEAD}param n = 5 in 1..9\nparam p = 0.5 in 0.0..1.0\nparam path = \"auto\" in [\"auto\", \"native\"]\n\
         rule A \"a\" when hand(?h) then assert category(1, \"x\") end\n"
    );
    let program = kibitzer::load_text("t.rules", &rules).unwrap_or_else(|e| panic!("{e}"));
    let mut s = kibitzer::Session::new(program);
    let tried: Vec<String> = [
        ("n", "0"),
        ("n", "9"),
        ("p", "1.5"),
        ("path", "bogus"),
        ("path", "native"),
    ]
    .iter()
    .map(|(k, v)| match s.set_param(k, v) {
        Ok(()) => format!("{k}={v}: ok"),
        Err(e) => format!("{k}={v}: {e}"),
    })
    .collect();
    expect![[r#"
        n=0: parameter `n` must be within 1..9, got `0`
        n=9: ok
        p=1.5: parameter `p` must be within 0.0..1.0, got `1.5`
        path=bogus: parameter `path` must be one of "auto", "native", got `bogus`
        path=native: ok"#]]
    .assert_eq(&tried.join("\n"));
}

#[test]
fn input_domains_are_checked_against_the_type_where_declared() {
    check(
        "ruleset t \"t\"\noutput category\n\
         input a: string in 1..4 \"a seat\"\ninput b: int in [1, 2.5]\ninput c: int = 7 in 1..4\n\
         input d: int in 4..1\ninput e: decimal in [1, 2.5] \"fine\"\ninput f: string = \"x\" in [\"x\", \"y\"]\n\
         rule A \"a\" when a(?a) b(?b) c(?c) d(?d) e(?e) f(?f) then assert category(1) end\n",
        expect![[r#"
            t.rules:3:17: error: `a` is a string input, not a number: give its values as a list, `in [...]`
              |
            3 | input a: string in 1..4 "a seat"
              |                 ^^^^^^^
            t.rules:4:14: error: `b` is an int input, but its values list 2.5
              |
            4 | input b: int in [1, 2.5]
              |              ^^^^^^^^^^^
            t.rules:5:18: error: the default of `c`, 7, is not in 1..4
              |
            5 | input c: int = 7 in 1..4
              |                  ^^^^^^^
            t.rules:6:14: error: the range of `d` is empty: 4 is above 1
              |
            6 | input d: int in 4..1
              |              ^^^^^^^"#]],
    );
}

#[test]
fn input_values_outside_their_domain_are_refused_naming_the_input_value_and_domain() {
    let rules = "ruleset t \"t\"\ninput seat: int in 1..4 \"the seat to act\"\n\
                 input mode: string in [\"fast\", \"slow\"]\noutput category\n\
                 rule A \"a\" when seat(?s) mode(?m) then assert category(?s) end\n";
    let program = kibitzer::load_text("t.rules", rules).unwrap_or_else(|e| panic!("{e}"));
    let mut s = kibitzer::Session::new(program);
    let mut tried: Vec<String> = [("seat", "0"), ("seat", " 4"), ("mode", "quick"), ("mode", "slow")]
        .iter()
        .map(|(k, v)| match s.set_input_text(k, v) {
            Ok(()) => format!("{k}={v}: ok"),
            Err(e) => format!("{k}={v}: {e}"),
        })
        .collect();
    // A value given as a value (an embedder's, a what-if's) is held to the domain too.
    tried.push(match s.set_input("seat", kibitzer::Value::Int(5)) {
        Ok(()) => "seat=5: ok".to_string(),
        Err(e) => format!("seat=5: {e}"),
    });
    expect![[r#"
        seat=0: input `seat` must be within 1..4, got `0`
        seat= 4: ok
        mode=quick: input `mode` must be one of "fast", "slow", got `quick`
        mode=slow: ok
        seat=5: input `seat` must be within 1..4, got `5`"#]]
    .assert_eq(&tried.join("\n"));
}

/// A pattern joined to the rule's other patterns by no variable is a cross product, warned of;
/// joined by a variable (directly or through a binding), or of a one-fact relation, it is not.
#[test]
fn a_pattern_sharing_no_variable_with_the_others_is_a_cross_product_warning() {
    let head = "ruleset t \"t\"\ninput n: int\noutput c\n\
                rule M when n(?n) ?i = range(1, ?n) then assert a(?i) assert b(?i) end\n";
    check_warnings(
        &format!("{head}rule X when a(?x) b(?y) ?x < ?y then assert c(?x, ?y) end\n"),
        expect![[r#"
            t.rules:5:13: warning: `a(…)` shares no variable with the rule's other patterns: every `a` fact is matched with every combination of theirs (a cross product); join it by a variable, or check the rule is meant so
              |
            5 | rule X when a(?x) b(?y) ?x < ?y then assert c(?x, ?y) end
              |             ^^^^^"#]],
    );
    for joined in [
        "rule X when a(?x) b(?x) then assert c(?x, ?x) end\n",
        "rule X when a(?x) ?y = ?x + 1 b(?y) then assert c(?x, ?y) end\n",
        "rule X when n(?y) a(?x) b(?x) then assert c(?x, ?y) end\n",
    ] {
        check_warnings(&format!("{head}{joined}"), expect![[""]]);
    }
}

#[test]
fn syntax_errors_name_the_fix_for_the_common_mistakes() {
    let first_line = |rules: String| {
        let e = kibitzer::load_text("t.rules", &rules)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        e.lines().next().unwrap_or("").to_string()
    };
    for (body, hint) in [
        (
            "rule A when hand(?h) card_count(?h) = 5 then assert category(1) end",
            "to compare, write `==`",
        ),
        (
            "rule A when hand(?h) then assert category('x') end",
            "strings are written in double quotes",
        ),
        (
            "rule A when hand(?h) assert category(1) end",
            "rule `A` needs `then` before its actions",
        ),
        (
            "rule A when hand(?h) then assert category(1)\nrule B when hand(?h) then assert category(2) end",
            "rule `A` is still open: it needs `end`",
        ),
        (
            "rule A when hand(?h)\n",
            "rule `A` is still open: it needs `then` … `end`",
        ),
        (
            "rule A when hand(?h) then if len(?h) > 3 then assert category(1) end",
            "`if … then … else …` is an expression, usable where a value is",
        ),
        (
            "rule A when hand(?h) if len(?h) > 3 then assert category(1) end",
            "the `if` on line 4 starts an expression, `if … then … else …`, usable where a value is",
        ),
    ] {
        let message = first_line(format!("{HEAD}{body}"));
        assert!(
            message.contains("syntax error") && message.contains(hint),
            "{body}: {message}"
        );
    }
}

#[test]
fn an_if_that_chooses_what_a_rule_does_is_told_it_is_an_expression() {
    check(
        &format!("{HEAD}rule A\nwhen\n    hand(?h)\n    if len(?h) > 3\nthen\n    assert category(1)\nend\n"),
        expect![[r#"
            t.rules:9:5: error: syntax error: unexpected `assert`; expected an expression (the `if` on line 7 starts an expression, `if … then … else …`, usable where a value is: `?y = if ?x > 3 then 1 else 2`; to act only when something holds, write the test alone as a condition (`?x > 3`), or give each case its rule in a first-match group (`group NAME first`))
              |
            9 |     assert category(1)
              |     ^^^^^^"#]],
    );
    check(
        &format!("{HEAD}rule A\nwhen\n    hand(?h)\nthen\n    if len(?h) > 3 then assert category(1) else assert category(2) end\nend\n"),
        expect![[r#"
            t.rules:8:5: error: syntax error: unexpected `if`; expected `because`, an action (`assert`, `retract`, `modify`, `halt`) or something else (`if … then … else …` is an expression, usable where a value is: `assert a(if ?x > 3 then 1 else 2)`; to act only when something holds, write the test alone as a condition (`?x > 3`), or give each case its rule in a first-match group (`group NAME first`))
              |
            8 |     if len(?h) > 3 then assert category(1) else assert category(2) end
              |     ^^"#]],
    );
    // An `if` that has its `else` is an expression like any other, and a later mistake gets no hint.
    check(
        &format!(
            "{HEAD}rule A when hand(?h) ?n = if len(?h) > 3 then 1 else 2 then assert category(?n) asert x(1) end\n"
        ),
        expect![[r#"
            t.rules:4:81: error: syntax error: unexpected `asert`; expected `because`, an action (`assert`, `retract`, `modify`, `halt`) or something else
              |
            4 | rule A when hand(?h) ?n = if len(?h) > 3 then 1 else 2 then assert category(?n) asert x(1) end
              |                                                                                 ^^^^^"#]],
    );
}

#[test]
fn groups_are_declared_once_named_once_per_rule_and_share_one_salience() {
    check(
        &format!(
            "{HEAD}group chart first\ngroup chart first\ngroup other any\n\
             rule A in chart in other when hand(?h) then assert category(1) end\n\
             rule B in chrt when hand(?h) then assert category(2) end\n\
             rule C in chart salience 4 when hand(?h) then assert category(3) end\n\
             rule D in nowhere when hand(?h) then assert category(4) end\n"
        ),
        expect![[r#"
            t.rules:5:7: error: group `chart` is declared twice (first at t.rules:4:7)
              |
            5 | group chart first
              |       ^^^^^
            t.rules:6:13: error: unknown group policy `any`: write `group other first` (the first rule whose conditions hold fires)
              |
            6 | group other any
              |             ^^^
            t.rules:7:20: error: rule `A` is already in group `chart`; a rule belongs to one group
              |
            7 | rule A in chart in other when hand(?h) then assert category(1) end
              |                    ^^^^^
            t.rules:8:11: error: unknown group `chrt` (did you mean `chart`?)
              |
            8 | rule B in chrt when hand(?h) then assert category(2) end
              |           ^^^^
            t.rules:9:11: error: rule `C` has salience 4, but `A`, first in group `chart`, has 0: a group's rules share one salience (the group picks among them in file order)
              |
            9 | rule C in chart salience 4 when hand(?h) then assert category(3) end
              |           ^^^^^
            t.rules:10:11: error: unknown group `nowhere` (declare it: `group nowhere first`)
               |
            10 | rule D in nowhere when hand(?h) then assert category(4) end
               |           ^^^^^^^
            t.rules:6:7: warning: group `other` has no rule (put one in it with `rule NAME in other`)
              |
            6 | group other any
              |       ^^^^^"#]],
    );
}

#[test]
fn a_group_without_rules_is_a_warning() {
    check_warnings(
        &format!("{HEAD}group chart first\nrule A when hand(?h) then assert category(1) end\n"),
        expect![[r#"
            t.rules:4:7: warning: group `chart` has no rule (put one in it with `rule NAME in chart`)
              |
            4 | group chart first
              |       ^^^^^"#]],
    );
}

#[test]
fn two_rules_that_can_both_conclude_a_one_output_are_a_warning_with_the_input_that_shows_it() {
    check_warnings(
        "ruleset t \"t\"\ninput total: int(4..21)\ninput dealer: rank\noutput action: exactly one\n\
         group g first\n\
         rule A when total(?t) ?t >= 17 then assert action(\"stand\") end\n\
         rule B when total(?t) ?t <= 16 dealer(?d) ?d in [7, 8, 9, 10, 14] then assert action(\"hit\") end\n\
         rule C when total(?t) ?t <= 11 and ?t != 4 then assert action(\"double\") end\n\
         rule D in g when total(12) dealer(?d) ?d < 4 then assert action(\"hit\") end\n\
         rule E in g when total(12) then assert action(\"stand\") end\n\
         rule F when total(?t) ?t > 20 then assert action(\"stand\") end\n\
         rule G when total(?t) ?t == 20 not action(_) then assert action(\"x\") end\n",
        expect![[r#"
            t.rules:8:6: warning: rules `B` and `C` both conclude `action`, declared `exactly one`, for total=5 dealer=7: a query there stops with an error; make them exclusive, or put them in one first-match group
              |
            8 | rule C when total(?t) ?t <= 11 and ?t != 4 then assert action("double") end
              |      ^
            t.rules:10:6: warning: rules `B` and `E` both conclude `action`, declared `exactly one`, for total=12 dealer=7: a query there stops with an error; make them exclusive, or put them in one first-match group
               |
            10 | rule E in g when total(12) then assert action("stand") end
               |      ^"#]],
    );
}

#[test]
fn a_comparison_or_arithmetic_of_types_that_never_fit_is_an_error_naming_both() {
    check(
        "ruleset t \"t\"\ninput total: int\ninput name: string = \"x\"\nparam word = \"big\"\noutput said\n\
         rule A when total(?t) ?t > \"three\" then assert said(1) end\n\
         rule B when total(?t) ?s = \"soft \" + ?t then assert said(?s) end\n\
         rule C when name(?n) ?x = len(?n) * 2 ?n < ?x or ?t + word > 1 then assert said(2) end\n\
         rule D when total(?t) ?t == \"a\" ?u = str(?t) + \"!\" ?u != \"\" then assert said(?u) end\n",
        expect![[r#"
            t.rules:6:23: error: `>` cannot take an int and a string: this fails on every run
              |
            6 | rule A when total(?t) ?t > "three" then assert said(1) end
              |                       ^^^^^^^^^^^^^
            t.rules:7:28: error: `+` cannot take a string and an int: this fails on every run (text is joined only with text: `format("{} {}", a, b)` or `str(x)` makes text of a value)
              |
            7 | rule B when total(?t) ?s = "soft " + ?t then assert said(?s) end
              |                            ^^^^^^^^^^^^^
            t.rules:8:39: error: `<` cannot take a string and an int: this fails on every run
              |
            8 | rule C when name(?n) ?x = len(?n) * 2 ?n < ?x or ?t + word > 1 then assert said(2) end
              |                                       ^^^^^^^^
            t.rules:8:50: error: variable `?t` is compared but never bound (bind it with a pattern or `?t = ...` first)
              |
            8 | rule C when name(?n) ?x = len(?n) * 2 ?n < ?x or ?t + word > 1 then assert said(2) end
              |                                                  ^^"#]],
    );
}

/// A built-in given an argument whose type is certain (a literal, an input's variable, a
/// parameter, a built-in's declared result) that its signature does not accept; a variable whose
/// type depends on the data is left to the run.
#[test]
fn a_builtin_argument_of_a_type_that_never_fits_is_an_error_naming_the_position_and_both_types() {
    check(
        "ruleset t \"t\"\ninput hand: cards(5)\ninput total: int\ninput name: string = \"x\"\n\
         param word = \"big\"\noutput said\n\
         rule A when hand(?h) total(?t) ?r = rank(?t) then assert said(?r) end\n\
         rule B when name(?n) ?k = count_rank(?n, word) then assert said(?k) end\n\
         rule C when hand(?h) ?r = rank_held(?h, str(2)) then assert said(?r) end\n\
         rule D when total(?t) ?x = abs(\"-3\") ?y = abs(?t) then assert said(?y) end\n\
         rule E when hand(?h) said(?v) ?x = abs(?v) ?c = card_count(?h) then assert said(?c) end\n",
        expect![[r#"
            t.rules:7:42: error: `rank` expects its first argument `card` to be a card, got an int
              |
            7 | rule A when hand(?h) total(?t) ?r = rank(?t) then assert said(?r) end
              |                                          ^^
            t.rules:8:38: error: `count_rank` expects its first argument `cards` to be cards, got a string
              |
            8 | rule B when name(?n) ?k = count_rank(?n, word) then assert said(?k) end
              |                                      ^^
            t.rules:8:42: error: `count_rank` expects its second argument `rank` to be an int, got a string
              |
            8 | rule B when name(?n) ?k = count_rank(?n, word) then assert said(?k) end
              |                                          ^^^^
            t.rules:9:41: error: `rank_held` expects its second argument `times` to be an int, got a string
              |
            9 | rule C when hand(?h) ?r = rank_held(?h, str(2)) then assert said(?r) end
              |                                         ^^^^^^
            t.rules:10:32: error: `abs` expects its first argument `x` to be a decimal, got a string
               |
            10 | rule D when total(?t) ?x = abs("-3") ?y = abs(?t) then assert said(?y) end
               |                                ^^^^"#]],
    );
}

#[test]
fn a_group_without_its_policy_is_told_how_to_write_it() {
    check(
        &format!("{HEAD}group chart\nrule A in chart when hand(?h) then assert category(1) end\n"),
        expect![[r#"
            t.rules:5:1: error: syntax error: unexpected `rule`; expected a name (a group says how it picks: `group chart first`)
              |
            5 | rule A in chart when hand(?h) then assert category(1) end
              | ^^^^"#]],
    );
}
