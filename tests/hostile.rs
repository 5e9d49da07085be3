//! Hostile inputs to the library: rule files and queries built to crash, exhaust or hang the
//! engine. Each must end with an answer, a located error or a budget stop, within its bounds.

use kibitzer::Explainer;
use kibitzer::{load_text, ExplainLimits, RunError, RunOptions, Session, StopReason};
use std::time::{Duration, Instant};

fn session(rules: &str, options: RunOptions) -> Session {
    let program = load_text("hostile.rules", rules).unwrap_or_else(|e| panic!("{e}"));
    let mut s = Session::new(program);
    s.set_options(options);
    s
}

/// Every conclusion explained, as text and as JSON, as `ask` and `batch` do.
fn explain_all(s: &mut Session) -> (String, String) {
    let mut text = String::new();
    let mut json = String::new();
    for c in s.conclusions() {
        let e = Explainer::new(s).explain(c.fact, ExplainLimits::default());
        text.push_str(&kibitzer::render_tree(&e));
        json.push_str(&serde_json::to_string(&e).expect("an explanation serialises"));
    }
    (text, json)
}

#[test]
fn a_derivation_thousands_of_firings_deep_is_explained_with_its_depth_cut() {
    let rules = "ruleset deep \"d\"\ninput n: int\noutput r\n\
                 rule Step when r(?k) ?k < 6000 then assert r(?k + 1) end\n\
                 rule Start when n(?n) then assert r(?n) end\n";
    let mut s = session(rules, RunOptions::default());
    s.set_input_text("n", "1").expect("n");
    assert_eq!(s.run().expect("runs").stop, StopReason::Quiescent);
    let last = s.conclusions().into_iter().last().expect("r(6000)");
    let e = Explainer::new(&s).explain(last.fact, ExplainLimits::default());
    let text = kibitzer::render_tree(&e);
    assert!(text.starts_with("r(6000)"), "{}", &text[..40]);
    assert!(text.contains("deeper than 48 levels: not shown"), "the cut is said");
    assert!(serde_json::to_string(&e).expect("json").contains("\"elided\""));
}

#[test]
fn lists_nested_by_each_firing_stop_at_the_depth_bound_with_a_located_error() {
    let rules = "ruleset nest \"n\"\ninput n: int\noutput r\n\
                 rule Start when n(?n) then assert r([?n]) end\n\
                 rule Wrap when r(?l) then assert r([?l]) end\n";
    let mut s = session(rules, RunOptions::default());
    s.set_input_text("n", "1").expect("n");
    let err = s.run().expect_err("too deep");
    assert!(matches!(err, RunError::TooDeep { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        "hostile.rules:5:1: in rule `Wrap`: a value nests lists more than 32 deep"
    );
    explain_all(&mut s);
}

#[test]
fn a_list_grown_by_each_firing_stops_on_the_memory_bound_with_what_it_concluded() {
    let rules = "ruleset grow \"g\"\ninput n: int\noutput r\n\
                 rule Start when n(?n) then assert r([?n], 0) end\n\
                 rule Grow when r(?l, ?k) then assert r(concat(?l, [?k]), ?k + 1) end\n";
    let mut s = session(
        rules,
        RunOptions {
            max_cells: 1_000_000,
            ..RunOptions::default()
        },
    );
    s.set_input_text("n", "1").expect("n");
    let result = s.run().expect("a budget stop is an answer");
    assert_eq!(result.stop, StopReason::MemoryLimit);
    // 1 + 2 + … + k cells stay under a million up to k ≈ 1,400.
    assert!((1_000..2_000).contains(&result.stats.fired), "{}", result.stats.fired);
    assert_eq!(s.conclusions().len() as u64, result.stats.fired);
}

#[test]
fn a_rule_with_no_pattern_that_matches_10_to_the_12_times_stops_at_the_activation_bound() {
    let rules = "ruleset pairs \"p\"\noutput r\n\
                 rule Pairs when ?x = range(0, 1000000), ?y = range(0, 1000000) then assert r(?x, ?y) end\n";
    let mut s = session(rules, RunOptions::default());
    let result = s.run().expect("a budget stop is an answer");
    assert_eq!(result.stop, StopReason::MemoryLimit);
    assert_eq!(result.bound, Some(kibitzer::MemoryBound::Activations));
    assert_eq!(result.stats.fired, 0);
}

#[test]
fn a_what_if_sub_query_keeps_the_asking_runs_firing_limit() {
    let rules = "ruleset loopy \"l\"\ninput n: int\noutput r\noutput c\n\
                 rule Start when n(?n) then assert c(0) end\n\
                 rule Count when n(?n), ?n > 0, c(?k) then assert c(?k + 1) end\n\
                 rule Ask when n(0), ?i = range(1, 1000), whatif self(n: ?i) yields c(?k), ?k > 5 then assert r(?i) end\n";
    let mut s = session(
        rules,
        RunOptions {
            firing_limit: 50,
            ..RunOptions::default()
        },
    );
    s.set_input_text("n", "0").expect("n");
    let error = s.run().expect_err("the sub-query loops");
    assert!(
        error.to_string().contains("what-if failed: stopped after 50 firings"),
        "{error}"
    );
    let kibitzer::RunError::InRule {
        rule,
        failure: kibitzer::RuleFailure::WhatIf(inner),
        ..
    } = error
    else {
        panic!("not a what-if failure: {error:?}");
    };
    assert_eq!(rule, "Ask");
    assert!(
        matches!(*inner, kibitzer::RunError::FiringLimit { limit: 50, .. }),
        "{inner:?}"
    );
}

#[test]
fn a_rule_that_divides_by_zero_fails_with_a_typed_cause() {
    let rules = "ruleset div \"d\"\ninput n: int\noutput r\n\
                 rule Div when n(?n) then assert r(10 / ?n) end\n";
    let mut s = session(rules, RunOptions::default());
    s.set_input_text("n", "0").expect("n");
    let error = s.run().expect_err("a division by zero");
    let kibitzer::RunError::InRule {
        failure: kibitzer::RuleFailure::Eval(cause),
        ..
    } = &error
    else {
        panic!("not an evaluation failure: {error:?}");
    };
    assert!(
        matches!(cause.failure(), kibitzer::EvalFailure::DivisionByZero(_)),
        "{cause:?}"
    );
    assert!(
        error
            .to_string()
            .ends_with("in rule `Div`: division by zero in `10 / 0`"),
        "{error}"
    );
}

#[test]
fn doubling_a_list_is_refused_by_the_built_in_before_it_is_made() {
    let rules = "ruleset double \"d\"\ninput n: int\noutput r\n\
                 rule Start when n(?n) then assert r([?n]) end\n\
                 rule Double when r(?l) then assert r(concat(?l, ?l)) end\n";
    let mut s = session(
        rules,
        RunOptions {
            max_cells: u64::MAX,
            ..RunOptions::default()
        },
    );
    s.set_input_text("n", "1").expect("n");
    let err = s.run().expect_err("concat refuses");
    assert!(err.to_string().contains("more than 1048576 elements"), "{err}");
}

/// A list that holds one list twice, thirty times over: 2^30 elements written out, but only 31
/// lists in memory.
const SHARED_DOUBLING: &str = "ruleset share \"s\"\ninput n: int\noutput r, shown\n\
                               rule Start when n(?n) then assert l([?n], 0) end\n\
                               rule Double when l(?x, ?k) ?k < 30 then assert l([?x, ?x], ?k + 1) end\n\
                               rule Show when l(?x, 30) then assert shown(THEN) end\n\
                               rule Keep when l(?x, 30) then assert r(len(?x)) because \"keeps {?x}\" end\n";

#[test]
fn text_of_a_list_shared_many_times_over_is_refused_in_bounded_time() {
    for (call, word) in [("str(?x)", "str"), ("format(\"{}\", ?x)", "format")] {
        let mut s = session(
            &SHARED_DOUBLING.replace("THEN", call),
            RunOptions {
                max_cells: u64::MAX,
                ..RunOptions::default()
            },
        );
        s.set_input_text("n", "1").expect("n");
        let t = Instant::now();
        let err = s.run().expect_err("the text is refused");
        assert!(
            err.to_string()
                .contains(&format!("{word}: the text would be longer than 1048576 bytes")),
            "{err}"
        );
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    }
    // Shown, it reads as a note: the explanation of a conclusion that binds it is made at once.
    let mut s = session(
        &SHARED_DOUBLING.replace("rule Show when l(?x, 30) then assert shown(THEN) end\n", ""),
        RunOptions {
            max_cells: u64::MAX,
            ..RunOptions::default()
        },
    );
    s.set_input_text("n", "1").expect("n");
    s.run().expect("runs");
    let t = Instant::now();
    let (text, _) = explain_all(&mut s);
    let note = "[a list of 2 values, longer than 1048576 bytes as text]";
    assert!(text.contains(&format!("keeps {note}")), "{text}");
    assert!(text.contains(&format!("l({note}, 30)")), "{text}");
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
}

#[test]
fn a_rule_loop_without_a_firing_limit_stops_on_the_clock() {
    let rules = "ruleset spin \"s\"\ninput n: int\noutput r\n\
                 rule Start when n(?n) then assert c(0) end\n\
                 rule Spin when c(?k) then retract c(?k) assert c(?k + 1) end\n";
    let mut s = session(
        rules,
        RunOptions {
            firing_limit: u64::MAX,
            timeout: Some(Duration::from_millis(200)),
            ..RunOptions::default()
        },
    );
    s.set_input_text("n", "1").expect("n");
    let start = Instant::now();
    let result = s.run().expect("a budget stop is an answer");
    assert_eq!(result.stop, StopReason::Timeout);
    assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    assert!(result.stats.fired > 100);
}

#[test]
fn a_join_that_multiplies_activations_stops_on_the_activation_bound() {
    let rules = "ruleset join \"j\"\ninput n: int\noutput r\n\
                 rule Make when n(?n) ?i = range(1, ?n) then assert v(?i) end\n\
                 rule Triple when v(?a) v(?b) v(?c) then assert r(?a + ?b + ?c) end\n";
    let mut s = session(
        rules,
        RunOptions {
            max_activations: 100_000,
            ..RunOptions::default()
        },
    );
    s.set_input_text("n", "500").expect("n");
    let result = s.run().expect("a budget stop is an answer");
    assert_eq!(result.stop, StopReason::MemoryLimit);
    assert!(
        result.stats.activations <= 100_001 + 500,
        "{}",
        result.stats.activations
    );
}

#[test]
fn a_budget_that_stops_a_what_if_stops_the_run_that_asked() {
    let rules = "ruleset ask \"a\"\ninput n: int\noutput r\n\
                 rule Start when n(?n) ?n == 1 then assert c(0) end\n\
                 rule Spin when c(?k) ?i = range(1, 20000) ?i == 20000 then assert c(?k + 1) end\n\
                 rule Ask when n(?n) ?n == 0 whatif self(n: 1) yields c(?x) then assert r(?x) end\n";
    let mut s = session(
        rules,
        RunOptions {
            timeout: Some(Duration::from_millis(200)),
            ..RunOptions::default()
        },
    );
    s.set_input_text("n", "0").expect("n");
    let result = s.run().expect("a budget stop is an answer");
    assert_eq!(result.stop, StopReason::Timeout);
    assert!(s.conclusions().is_empty());
}

#[test]
fn braces_nested_ten_thousand_deep_are_a_located_syntax_error() {
    let n = 10_000;
    let rules = format!(
        "ruleset b \"b\"\ninput n: int\noutput r\nrule A when n(?n) {}r(1){} then assert r(1) end\n",
        "not { ".repeat(n),
        " }".repeat(n)
    );
    let err = load_text("b.rules", &rules).expect_err("too deep");
    let first = err.to_string().lines().next().unwrap_or_default().to_string();
    assert_eq!(
        first,
        "b.rules:4:407: error: nested too deeply: more than 64 levels of parentheses, brackets and braces"
    );
}

#[test]
fn a_join_that_tries_billions_of_combinations_and_fires_nothing_stops_on_the_clock() {
    let rules = "ruleset sift \"s\"\ninput n: int\noutput r\n\
                 rule Make when n(?n) ?i = range(1, ?n) then assert v(?i) end\n\
                 rule Sift when v(?a) v(?b) v(?c) ?a + ?b + ?c < 0 then assert r(?a) end\n\
                 rule Loop when n(?n) ?l = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] ?a in ?l ?b in ?l ?c in ?l ?d in ?l \
                 ?e in ?l ?f in ?l ?g in ?l ?h in ?l ?i in ?l ?j in ?l ?a + ?b + ?c + ?d + ?e + ?f + ?g + ?h + ?i + ?j < 0 then assert r(?a) end\n";
    for n in ["3000", "1"] {
        let mut s = session(
            rules,
            RunOptions {
                timeout: Some(Duration::from_millis(300)),
                ..RunOptions::default()
            },
        );
        s.set_input_text("n", n).expect("n");
        let start = Instant::now();
        let result = s.run().expect("a budget stop is an answer");
        assert_eq!(result.stop, StopReason::Timeout, "n = {n}");
        assert!(start.elapsed() < Duration::from_secs(3), "{:?}", start.elapsed());
    }
}

/// Game inputs and parameters outside what the game allows are refused before the rules run,
/// naming the input or parameter and its range.
#[test]
fn out_of_range_game_inputs_and_parameters_are_bad_inputs_in_game_terms() {
    let mahjong = kibitzer::library::load_shipped("mahjong").expect("mahjong");
    for (input, value, says) in [
        ("wall", "-5", "wall must be from 0 to 136"),
        ("wall", "137", "wall must be from 0 to 136"),
        ("opponent_melds", "99", "opponent_melds must be from 0 to 4"),
        ("opponent_melds", "-1", "opponent_melds must be from 0 to 4"),
    ] {
        let mut s = Session::new(mahjong.clone());
        let err = s.set_input_text(input, value).expect_err(input).to_string();
        assert!(err.contains(says) && err.contains(value), "{input}={value}: {err}");
    }
    let seed = kibitzer::library::load_shipped("mahjong_reference").expect("mahjong_reference");
    let err = Session::new(seed)
        .set_input_text("wall", "-5")
        .expect_err("wall")
        .to_string();
    assert!(err.contains("wall must be from 0 to 136"), "{err}");
    for (param, value) in [("horizon", "-1"), ("horizon", "0"), ("horizon", "69"), ("budget", "-1")] {
        let mut s = Session::new(mahjong.clone());
        let err = s.set_param(param, value).expect_err(param).to_string();
        assert!(err.contains(param), "{param}={value}: {err}");
    }
    let durak = kibitzer::library::load_shipped("durak").expect("durak");
    // A turned-up card of another suit than the trump, whatever the stock.
    for stock in ["0", "12"] {
        let mut s = Session::new(durak.clone());
        for (k, v) in [
            ("hand", "AS 9D 7C"),
            ("trump", "D"),
            ("stock", stock),
            ("hands", "3,3"),
            ("trump_card", "7S"),
        ] {
            s.set_input_text(k, v).expect(k);
        }
        let err = s.run().expect_err("a trump card of another suit").to_string();
        assert!(
            err.contains("trump_card") && err.contains("not of the trump suit"),
            "stock={stock}: {err}"
        );
    }
}

/// A path a case file names resolves inside its folder tree: a golden file elsewhere is a located
/// error when the file is read, before anything runs.
#[test]
fn a_case_file_names_no_path_outside_its_folder() {
    let dir = tempfile::tempdir().expect("temp dir");
    let case = |golden: &str| {
        format!("rules = \"stud\"\n[[case]]\nname = \"c\"\ninputs = {{ hand = \"2S 3D 4S 5H 6C\" }}\nexplanation = {golden:?}\n")
    };
    for (golden, says) in [
        ("/etc/passwd", "not absolute"),
        ("../x.txt", "resolves to"),
        ("../../../../../../etc/passwd", "resolves to"),
    ] {
        let err = kibitzer::cases::parse("c.cases.toml", &case(golden), Some(dir.path().to_path_buf()))
            .expect_err(golden)
            .to_string();
        assert!(err.starts_with("c.cases.toml:5:15: explanation "), "{golden}: {err}");
        assert!(err.contains(says), "{golden}: {err}");
    }
    let ok = kibitzer::cases::parse("c.cases.toml", &case("golden/x.txt"), Some(dir.path().to_path_buf()));
    assert!(ok.is_ok(), "{:?}", ok.err());
}

// ---- one deadline: why-not, explanations, loading --------------------------------------------

/// A rule whose join (400 × 400 facts) matches nothing: the run tries it once, and a why-not
/// asked after the run's deadline has passed may not search it again on a budget of its own.
const NEVER: &str = "ruleset never \"n\"\ninput n: int\noutput r, done\n\
                     rule Make when n(?n) ?i = range(1, ?n) then assert v(?i) end\n\
                     rule Never when v(?a) v(?b) ?a + ?b < 0 then assert r(?a) end\n\
                     rule Done when n(?n) then assert done(?n) end\n";

#[test]
fn a_why_not_asked_after_the_deadline_passed_is_not_searched_again() {
    let options = RunOptions {
        why_not: true,
        timeout: Some(Duration::from_millis(400)),
        ..RunOptions::default()
    };
    let mut s = session(NEVER, options.clone());
    s.set_input_text("n", "400").expect("n");
    assert_eq!(s.run().expect("run").stop, StopReason::Quiescent);
    // Within the deadline the join is searched and the failing condition named.
    let w = Explainer::new(&s).why_not("Never").expect("why-not");
    assert!(w.summary.contains("condition 3"), "{}", w.summary);
    std::thread::sleep(Duration::from_millis(450));
    let w = Explainer::new(&s).why_not("Never").expect("why-not");
    assert!(
        w.summary.contains("why is not known") && w.summary.contains("timeout"),
        "{}",
        w.summary
    );
    assert!(w.failed.is_none());
    // A run without a timeout has no deadline for its why-not either.
    let mut s = session(
        NEVER,
        RunOptions {
            timeout: None,
            ..options
        },
    );
    s.set_input_text("n", "400").expect("n");
    s.run().expect("run");
    std::thread::sleep(Duration::from_millis(50));
    assert!(Explainer::new(&s)
        .why_not("Never")
        .expect("why-not")
        .summary
        .contains("condition 3"));
}

#[test]
fn an_explanation_built_after_the_deadline_replays_no_what_if() {
    let rules = "ruleset ask \"a\"\ninput n: int\noutput r\n\
                 rule Sub when n(?n) ?n > 0 then assert r(?n) end\n\
                 rule Top when n(?n) ?n == 0 whatif self(n: 1) yields r(?x) then assert r(?x + 1) end\n";
    let mut s = session(
        rules,
        RunOptions {
            timeout: Some(Duration::from_millis(300)),
            ..RunOptions::default()
        },
    );
    s.set_input_text("n", "0").expect("n");
    assert_eq!(s.run().expect("run").stop, StopReason::Quiescent);
    let fact = s.conclusions()[0].fact;
    let limits = ExplainLimits {
        whatif_depth: 1,
        ..ExplainLimits::default()
    };
    assert_eq!(
        Explainer::new(&s).explain(fact, limits).whatifs.len(),
        1,
        "within the deadline the what-if is replayed"
    );
    std::thread::sleep(Duration::from_millis(350));
    let late = Explainer::new(&s).explain(fact, limits);
    assert!(late.whatifs.is_empty(), "{late:?}");
    assert!(
        late.checks.iter().any(|c| c.contains("concluded r(")),
        "{:?}",
        late.checks
    );
}

/// A rule of `n` conditions of one kind after `x(?a)`.
fn long_rule(n: usize, condition: impl Fn(usize) -> String) -> String {
    let mut text = String::from("ruleset long \"l\"\ninput x: int\noutput y\nrule R when x(?a)\n");
    for i in 0..n {
        text.push_str(&condition(i));
        text.push('\n');
    }
    text.push_str("then assert y(?a) end\n");
    text
}

#[test]
fn a_rule_of_ten_thousand_conditions_loads_in_well_under_a_second() {
    type Condition = fn(usize) -> String;
    let kinds: [(&str, Condition); 5] = [
        ("tests", |i| format!("?a >= {}", -(i as i64))),
        ("negations", |i| format!("not y({i})")),
        ("memberships", |i| format!("?a in [1, 2, {i}]")),
        ("bindings", |i| format!("?b{} = ?a + {i}", i % 40)),
        ("aggregates", |i| format!("?s{i} = count {{ y(?a) }}")),
    ];
    for (what, condition) in kinds {
        let text = long_rule(10_000, condition);
        let start = Instant::now();
        let loaded = load_text("long.rules", &text);
        let took = start.elapsed();
        // A generous bound for a debug build on a loaded machine; a release build takes ~0.1 s.
        assert!(took < Duration::from_secs(3), "{what}: {took:?}");
        match what {
            // `?b0` bound again is the checker's to judge; only the time matters here.
            "bindings" => {}
            "aggregates" => {
                let e = loaded.err().map(|e| e.to_string()).unwrap_or_default();
                assert!(e.contains("more than 64 variables"), "{e}");
            }
            _ => assert!(loaded.is_ok(), "{what}: {:?}", loaded.err().map(|e| e.to_string())),
        }
    }
}

#[test]
fn a_rule_joining_more_than_64_patterns_is_a_located_error() {
    let text = long_rule(64, |_| "x(?a)".to_string());
    let e = load_text("long.rules", &text)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        e.contains("long.rules:4:6") && e.contains("joins 65 patterns, more than 64"),
        "{e}"
    );
    assert!(load_text("long.rules", &long_rule(63, |_| "x(?a)".to_string())).is_ok());
    // Patterns inside `not` and aggregates are not joined: they do not count.
    assert!(load_text("long.rules", &long_rule(2000, |i| format!("not y({i})"))).is_ok());
}

#[test]
fn loading_past_the_deadline_stops_with_a_located_error() {
    let text = long_rule(10, |i| format!("?a >= {i}"));
    let _deadline = kibitzer::with_deadline(Some(Duration::ZERO));
    let e = load_text("late.rules", &text)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        e.contains("late.rules:4:6") && e.contains("deadline (`timeout`)"),
        "{e}"
    );
    // A shipped rule set is compiled whatever the deadline (once, and kept for every run).
    let shipped = kibitzer::library::load_shipped("doudizhu");
    assert!(shipped.is_ok(), "{:?}", shipped.err().map(|e| e.to_string()));
}

#[test]
fn a_cancel_hook_stops_a_run_as_its_deadline_would() {
    let mut s = session(
        "ruleset spin \"s\"\ninput n: int\noutput c\n\
         rule Count when c(?k) then assert c(?k + 1) end\n\
         rule Start when n(?n) then assert c(?n) end\n",
        RunOptions {
            firing_limit: u64::MAX,
            ..RunOptions::default()
        },
    );
    s.set_input_text("n", "0").expect("n");
    fn after_a_moment() -> bool {
        thread_local!(static START: Instant = Instant::now());
        START.with(|s| s.elapsed() > Duration::from_millis(200))
    }
    let start = Instant::now();
    let result = {
        let _cancel = kibitzer::with_cancel(after_a_moment);
        s.run().expect("a stop is an answer")
    };
    assert_eq!(result.stop, StopReason::Timeout);
    assert!(start.elapsed() < Duration::from_secs(3), "{:?}", start.elapsed());
    assert!(result.stats.fired > 0);
}

/// `trunc`, `floor` and `round` of a whole number past 2^53 give it back exactly (through a
/// decimal they lost its last digits; the differential test's own `trunc` found it).
#[test]
fn a_whole_number_past_two_to_the_53_is_its_own_trunc_floor_and_round() {
    let rules = "ruleset whole \"w\"\ninput n: int\noutput r\n\
                 rule R when n(?n) ?t = trunc(?n) ?f = floor(?n) ?o = round(?n) ?u = trunc(?n + 0) \
                 then assert r(?t, ?f, ?o, ?u) end\n";
    let mut s = session(rules, RunOptions::default());
    s.set_input_text("n", "9007199254740993").expect("n");
    s.run().expect("run");
    let r = &s.conclusions()[0];
    let n = kibitzer::Value::Int(9_007_199_254_740_993);
    assert!(r.args.iter().all(|v| *v == n), "{:?}", r.args);
}
