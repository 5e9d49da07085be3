//! The inference semantics (docs/semantics.md), one test per feature, on small purpose-written rule sets.

use kibitzer::Explainer;
use kibitzer::{load_text, RunError, RunOptions, RunResult, Session, StopReason};

/// Loads `rules`, gives the inputs, runs, and returns the session.
fn run(rules: &str, inputs: &[(&str, &str)]) -> Result<Session, RunError> {
    let program = load_text("test.rules", rules).unwrap_or_else(|e| panic!("rules do not load:\n{e}"));
    let mut s = Session::new(program);
    s.set_options(RunOptions {
        firing_limit: 1000,
        trace: true,
        ..RunOptions::default()
    });
    for (k, v) in inputs {
        s.set_input_text(k, v)?;
    }
    s.run()?;
    Ok(s)
}

/// The output facts as `rel(args)` strings.
fn outputs(s: &Session) -> Vec<String> {
    s.conclusions()
        .iter()
        .map(|c| {
            format!(
                "{}({})",
                c.relation,
                c.args.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(", ")
            )
        })
        .collect()
}

/// The rules in firing order.
fn fired(s: &Session) -> Vec<String> {
    Explainer::new(s)
        .trace_text()
        .into_iter()
        .filter(|l| l.starts_with("FIRE"))
        .map(|l| l.split_whitespace().nth(2).unwrap_or("").to_string())
        .collect()
}

#[test]
fn salience_orders_firings() {
    let s = run(
        r#"ruleset t "t"
        input n: int
        output log
        rule Low "low" salience 1 when n(?n) then assert log("low") end
        rule High "high" salience 9 when n(?n) then assert log("high") end
        rule Mid "mid" when n(?n) then assert log("mid") end"#,
        &[("n", "1")],
    )
    .unwrap();
    // No salience means 0, so Mid (0) comes after Low (1).
    assert_eq!(fired(&s), ["High", "Low", "Mid"]);
    assert_eq!(outputs(&s), [r#"log("high")"#, r#"log("low")"#, r#"log("mid")"#]);
}

#[test]
fn equal_salience_fires_in_rule_order_then_activation_order() {
    let s = run(
        r#"ruleset t "t"
        input xs: ints
        output seen
        rule B "second rule" when xs(?l) ?x in ?l then assert seen("B", ?x) end
        rule A "first? no: declared after B" when xs(?l) ?x in ?l then assert seen("A", ?x) end"#,
        &[("xs", "3,1,2")],
    )
    .unwrap();
    // Rule order (B before A), then the order the activations were created (list order).
    assert_eq!(fired(&s), ["B", "B", "B", "A", "A", "A"]);
    assert_eq!(
        outputs(&s),
        [
            r#"seen("B", 3)"#,
            r#"seen("B", 1)"#,
            r#"seen("B", 2)"#,
            r#"seen("A", 3)"#,
            r#"seen("A", 1)"#,
            r#"seen("A", 2)"#
        ]
    );
}

#[test]
fn refraction_fires_an_activation_once() {
    // The rule's own assertion matches nothing new, and its activation never fires twice, so the
    // run ends instead of looping.
    let s = run(
        r#"ruleset t "t"
        input n: int
        output seen
        rule Once "once" when n(?n) then assert seen(?n) end"#,
        &[("n", "5")],
    )
    .unwrap();
    assert_eq!(fired(&s), ["Once"]);
}

#[test]
fn facts_are_a_set() {
    let s = run(
        r#"ruleset t "t"
        input xs: ints
        output seen
        rule Copy "copy" when xs(?l) ?x in ?l then assert seen(?x) end"#,
        &[("xs", "4,4,4")],
    )
    .unwrap();
    assert_eq!(fired(&s).len(), 3);
    assert_eq!(outputs(&s), ["seen(4)"]);
}

#[test]
fn negation_is_checked_when_the_activation_is_selected() {
    // Both rules are activated by n(1). High fires first and asserts done; Default's `not done`
    // held when it was activated but fails when selected, so it is dropped.
    let s = run(
        r#"ruleset t "t"
        input n: int
        output done
        rule High "high" salience 10 when n(?n) then assert done("high") end
        rule Default "default" when n(?n) not done(_) then assert done("default") end"#,
        &[("n", "1")],
    )
    .unwrap();
    assert_eq!(outputs(&s), [r#"done("high")"#]);
    assert!(Explainer::new(&s)
        .trace_text()
        .iter()
        .any(|l| l.starts_with("DROP") && l.contains("Default")));
}

#[test]
fn a_negation_of_wildcards_ignores_retracted_facts() {
    // `not tmp(_)` needs no binding or comparison: any live fact refutes it, and the only one
    // was retracted before After is selected.
    let s = run(
        r#"ruleset t "t"
        input n: int
        output kept
        rule Make "make" salience 10 when n(?n) then assert tmp(?n) end
        rule Drop "drop" salience 5 when tmp(?x) then retract tmp(?x) end
        rule After "after" salience 1 when n(?n) not tmp(_) then assert kept(?n) end"#,
        &[("n", "1")],
    )
    .unwrap();
    assert_eq!(outputs(&s), ["kept(1)"]);
    assert_eq!(fired(&s), ["Make", "Drop", "After"]);
}

#[test]
fn a_one_pattern_negation_sees_bound_variables_expressions_and_its_own_variables() {
    // `Odd` keeps the items with no successor among the items (`not item(?x + 1)`), `Lonely` the
    // ones not paired with themselves through a local variable (`not pair(?x, ?y)` with ?y free
    // binds nothing outside), and `Kept` those without a `drop` of the same value (bound ?x).
    let s = run(
        r#"ruleset t "t"
        input xs: ints
        output last, lonely, kept
        rule Item "item" salience 10 when xs(?l) ?x in ?l then assert item(?x) end
        rule Pair "pair" salience 10 when xs(?l) ?x in ?l ?x > 4 then assert pair(?x, 0) end
        rule Drop "drop" salience 10 when xs(?l) ?x in ?l ?x == 2 then assert drop(?x) end
        rule Odd "no successor" when item(?x) not item(?x + 1) then assert last(?x) end
        rule Lonely "unpaired" when item(?x) not pair(?x, ?y) then assert lonely(?x) end
        rule Kept "kept" when item(?x) not drop(?x) then assert kept(?x) end"#,
        &[("xs", "1,2,3,5,6")],
    )
    .unwrap();
    let mut got = outputs(&s);
    got.sort();
    assert_eq!(
        got,
        [
            "kept(1)",
            "kept(3)",
            "kept(5)",
            "kept(6)",
            "last(3)",
            "last(6)",
            "lonely(1)",
            "lonely(2)",
            "lonely(3)"
        ]
    );
}

#[test]
fn constants_and_repeated_variables_in_a_pattern_select_the_facts_it_matches() {
    // The engine checks what a pattern requires of a new fact on its own (constants, a repeated
    // variable) once per fact for all the rules that require the same: `A` and `C` ask different
    // constants at the same place, `B` the same constant elsewhere; `H` and `I` repeat different
    // variables at the same place. Numbers compare as the
    // pattern compares them: the constant 1 matches the decimal 1.0 (`F`), and so does a
    // variable bound to 2 against 2.0 (`G`).
    let s = run(
        r#"ruleset t "t"
        input xs: ints
        output hit
        rule Pair "pairs" salience 10 when xs(?l) ?a in ?l ?b in ?l then assert pair(?a, ?b) end
        rule Half "halves" salience 10 when xs(?l) ?a in ?l then assert half(decimal(?a) / 2) end
        rule Mixed "mixed" salience 10 when xs(?l) ?a in ?l then assert mixed(?a, decimal(?a)) end
        rule A "first is 2" when pair(2, ?b) ?b > 2 then assert hit("A", ?b) end
        rule B "second is 2" when pair(?a, 2) then assert hit("B", ?a) end
        rule C "first is 3" when pair(3, ?b) ?b < 2 then assert hit("C", ?b) end
        rule D "twice the same" when pair(?a, ?a) then assert hit("D", ?a) end
        rule F "one half of two" when half(1) then assert hit("F", 0) end
        rule G "an int and its decimal" when mixed(?a, ?a) then assert hit("G", ?a) end
        rule Tri "triples" salience 10 when xs(?l) ?a in ?l ?b in ?l ?b > ?a then assert tri(?a, ?b, ?b) end
        rule H "last is first" when tri(?x, _, ?x) then assert hit("H", ?x) end
        rule I "last is second" when tri(?x, ?y, ?y) ?x == 2 then assert hit("I", ?y) end"#,
        &[("xs", "1,2,3")],
    )
    .unwrap();
    let mut got = outputs(&s);
    got.sort();
    assert_eq!(
        got,
        [
            r#"hit("A", 3)"#,
            r#"hit("B", 1)"#,
            r#"hit("B", 2)"#,
            r#"hit("B", 3)"#,
            r#"hit("C", 1)"#,
            r#"hit("D", 1)"#,
            r#"hit("D", 2)"#,
            r#"hit("D", 3)"#,
            r#"hit("F", 0)"#,
            r#"hit("G", 1)"#,
            r#"hit("G", 2)"#,
            r#"hit("G", 3)"#,
            r#"hit("I", 3)"#,
        ]
    );
}

#[test]
fn an_error_in_a_negated_pattern_is_reported_at_that_pattern() {
    let program = load_text(
        "t.rules",
        r#"ruleset t "t"
input n: int
output out
rule Seen "seen" salience 10 when n(?n) then assert seen(?n) end
rule Div "div"
when
    n(?n)
    not seen(10 / ?n)
then
    assert out(?n)
end"#,
    )
    .unwrap();
    let mut s = Session::new(program);
    s.set_input_text("n", "0").unwrap();
    let e = s.run().unwrap_err().to_string();
    assert!(e.contains("t.rules:8:9") && e.contains("Div"), "{e}");
}

#[test]
fn aggregates_count_sum_min_max() {
    let s = run(
        r#"ruleset t "t"
        input xs: ints
        output stat
        rule Item "item" salience 10 when xs(?l) ?x in ?l then assert item(?x) end
        rule Stats "stats"
        when
            xs(_)
            ?n = count { item(_) }
            ?s = sum ?x { item(?x) }
            ?lo = min ?x { item(?x) }
            ?hi = max ?x { item(?x), ?x < 9 }
        then assert stat(?n, ?s, ?lo, ?hi)
        end"#,
        &[("xs", "5,2,9,7")],
    )
    .unwrap();
    assert_eq!(outputs(&s), ["stat(4, 23, 2, 7)"]);
}

/// A one-pattern aggregate is folded without a join: a bound or constant argument still selects
/// its facts, integers stay exact, a decimal turns the sum decimal, and an overflow is an error
/// that names the rule.
#[test]
fn one_pattern_aggregates_select_fold_and_overflow_as_joins_do() {
    let rules = r#"ruleset t "t"
        input xs: ints
        input k: int = 1
        output stat
        rule Item "item" salience 10 when xs(?l) ?x in ?l then assert item(?x % 2, ?x) end
        rule Half "half" salience 10 when xs(?l) ?x in ?l ?x > 5 then assert part(?x / 2.0) end
        rule Stats "stats"
        when
            k(?k)
            ?odd = sum ?x { item(?k, ?x) }
            ?even = count { item(0, _) }
            ?top = max ?x { item(_, ?x) }
            ?mixed = sum ?y { part(?y) }
        then assert stat(?odd, ?even, ?top, ?mixed)
        end"#;
    let s = run(rules, &[("xs", "5,2,9,7,4")]).unwrap();
    assert_eq!(outputs(&s), ["stat(21, 2, 9, 8.0)"]);
    let Err(e) = run(rules, &[("xs", "9223372036854775807,1")]) else {
        panic!("an overflowing sum must fail");
    };
    let e = e.to_string();
    assert!(e.contains("Stats") && e.contains("overflow"), "{e}");
}

/// An aggregate's line in an explanation shows the expression it folds as written (`?x`: the body's
/// own variable has no value in the firing), a variable bound outside the body by its value, and
/// the result.
#[test]
fn an_aggregate_is_explained_with_its_own_variables_by_name() {
    let s = run(
        r#"ruleset t "t"
        input xs: ints
        input k: int = 10
        output total
        rule Item "item" salience 10 when xs(?l) ?x in ?l then assert item(?x) end
        rule Total "total"
        when
            k(?k)
            ?t = sum ?x * ?k { item(?x) }
        then assert total(?t)
        end"#,
        &[("xs", "5,2,9")],
    )
    .unwrap();
    assert_eq!(outputs(&s), ["total(160)"]);
    let fact = s.conclusions()[0].fact;
    let text = kibitzer::render_tree(&Explainer::new(&s).explain(fact, kibitzer::ExplainLimits::default()));
    assert!(text.contains("?t = sum (?x * 10) { item(?x) } = 160"), "{text}");
}

#[test]
fn multi_solution_builtins_make_one_activation_each() {
    let s = run(
        r#"ruleset t "t"
        input hand: cards(5)
        output pair
        rule Pair "pairs" when hand(?h) ?r = rank_held(?h, 2) then assert pair(?r) end"#,
        &[("hand", "8S 8H KD KC 2S")],
    )
    .unwrap();
    assert_eq!(outputs(&s), ["pair(13)", "pair(8)"]);
}

#[test]
fn builtin_output_arguments_bind_or_check() {
    let s = run(
        r#"ruleset t "t"
        input hand: cards(5)
        output kings, eights
        rule K "kings" when hand(?h) rank_held(?h, 2, 13) then assert kings(true) end
        rule E "eights" when hand(?h) rank_held(?h, 2, ?r) ?r < 10 then assert eights(?r) end"#,
        &[("hand", "8S 8H KD KC 2S")],
    )
    .unwrap();
    assert_eq!(outputs(&s), ["kings(true)", "eights(8)"]);
}

#[test]
fn the_firing_limit_names_the_looping_rules() {
    let err = run(
        r#"ruleset t "t"
        input n: int
        output count
        rule Up "counts for ever" when count(?c) then assert count(?c + 1) end
        rule Start "start" when n(?n) then assert count(?n) end"#,
        &[("n", "0")],
    )
    .err()
    .unwrap();
    assert_eq!(
        err.to_string(),
        "stopped after 1000 firings: the rules keep firing, most often `Up` (999×), `Start` (1×) (a rule loop? if not, raise the firing limit, `max_firings`)"
    );
}

#[test]
fn retract_and_halt() {
    let s = run(
        r#"ruleset t "t"
        input xs: ints
        output left
        rule Item "item" salience 10 when xs(?l) ?x in ?l then assert left(?x) end
        rule DropOdd "drop odd" salience 5 when left(?x) ?x % 2 == 1 then retract left(?x) end
        rule Stop "stop" salience 1 when left(?x) ?x > 100 then halt end
        rule Never "after halt" salience 0 when left(_) then assert left(0) end"#,
        &[("xs", "1,2,3,4,200")],
    )
    .unwrap();
    assert_eq!(outputs(&s), ["left(2)", "left(4)", "left(200)"]);
    let program = s.program().clone();
    let mut again = Session::new(program);
    again.set_input_text("xs", "1,2,3,4,200").unwrap();
    assert_eq!(again.run().unwrap().stop, StopReason::Halted);
}

/// An activation whose fact is retracted before it is selected never fires (and is counted as
/// dropped); one whose facts all live fires, in the same run, before and after retractions.
#[test]
fn an_activation_of_a_retracted_fact_is_dropped() {
    let program = load_text(
        "test.rules",
        r#"ruleset t "t"
        input xs: ints
        output kept
        rule Item "item" salience 10 when xs(?l) ?x in ?l then assert left(?x) end
        rule DropOdd "drop odd" salience 5 when left(?x) ?x % 2 == 1 then retract left(?x) end
        rule Keep "keep" salience 1 when left(?x) then assert kept(?x) end"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut s = Session::new(program);
    for _ in 0..2 {
        s.set_input_text("xs", "1,2,3,4").unwrap_or_else(|e| panic!("{e}"));
        let r = s.run().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(outputs(&s), ["kept(2)", "kept(4)"]);
        assert_eq!(r.stats.dropped, 2, "Keep's activations for 1 and 3");
    }
    // A run without retractions after one with them: nothing is dropped.
    s.set_input_text("xs", "2,4,6").unwrap_or_else(|e| panic!("{e}"));
    let r = s.run().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(outputs(&s), ["kept(2)", "kept(4)", "kept(6)"]);
    assert_eq!(r.stats.dropped, 0);
}

#[test]
fn join_on_a_shared_variable_uses_each_pair_once() {
    // a(x) and b(x) pairs: every matching pair once, whichever fact arrives last.
    let s = run(
        r#"ruleset t "t"
        input xs: ints
        input ys: ints
        output both
        rule A "a" salience 9 when xs(?l) ?x in ?l then assert a(?x) end
        rule B "b" salience 9 when ys(?l) ?y in ?l then assert b(?y) end
        rule Both "both" when a(?v) b(?v) then assert both(?v) end
        rule Twice "same relation twice" when a(?p) a(?q) ?p < ?q then assert pair(?p, ?q) end"#,
        &[
            ("xs", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"),
            ("ys", "3,5,7,40"),
        ],
    )
    .unwrap();
    assert_eq!(outputs(&s), ["both(3)", "both(5)", "both(7)"]);
    assert_eq!(s.facts_of("pair").len(), 190, "C(20, 2) pairs, each once");
    assert_eq!(fired(&s).iter().filter(|r| *r == "Twice").count(), 190);
}

#[test]
fn same_rules_same_input_same_output_byte_for_byte() {
    let rules = std::fs::read_to_string("rules/stud.rules").unwrap();
    let program = load_text("rules/stud.rules", &rules).unwrap();
    let render = |hand: &str| {
        let mut s = Session::new(program.clone());
        s.set_input_text("hand", hand).unwrap();
        s.run().unwrap();
        let c = s.conclusions();
        let e = Explainer::new(&s).explain(c[0].fact, Default::default());
        serde_json::to_string(&e).unwrap()
    };
    for hand in ["8S TD TS 8H 8C", "AS 2S 3S 4S 5S", "2C 3D 4H 5S 6C"] {
        assert_eq!(render(hand), render(hand));
    }
}

#[test]
fn what_if_runs_the_rule_set_on_a_hypothetical_input() {
    let s = run(
        r#"ruleset t "t"
        input n: int
        output square, sum_of_squares
        rule Square "square" when n(?n) then assert square(?n * ?n) end
        rule Sum "squares of 1..n-1 through what-if on smaller n"
        when
            n(?n)
            ?n > 1
            ?k = range(1, ?n - 1)
            whatif t(n: ?k) yields square(?sq)
        then assert part(?k, ?sq)
        end
        rule Total "total" salience -1 when n(?n) ?n > 1 ?t = sum ?s { part(_, ?s) } then assert sum_of_squares(?t + ?n * ?n) end"#,
        &[("n", "4")],
    )
    .unwrap();
    assert_eq!(outputs(&s), ["square(16)", "sum_of_squares(30)"]);
}

#[test]
fn what_if_sites_asking_the_same_inputs_keep_their_own_answers() {
    // Two `whatif`s give the same input and look at different relations; a third gives a
    // value of the wrong type. Each site's sub-queries are remembered apart (by site), so the
    // second never sees the first's outcome, and the type error names the input as
    // `set_input` would.
    let s = run(
        r#"ruleset t "t"
        input n: int
        output square, cube, both
        rule Square "square" when n(?n) then assert square(?n * ?n) end
        rule Cube "cube" when n(?n) then assert cube(?n * ?n * ?n) end
        rule Both "both, for smaller n"
        when
            n(?n)
            ?n > 1
            ?k = range(1, ?n - 1)
            whatif t(n: ?k) yields square(?s)
            whatif t(n: ?k) yields cube(?c)
        then assert both(?k, ?s, ?c)
        end"#,
        &[("n", "3")],
    )
    .unwrap();
    assert_eq!(outputs(&s), ["square(9)", "cube(27)", "both(1, 1, 1)", "both(2, 4, 8)"]);
    let err = run(
        r#"ruleset t "t"
        input n: int
        output r
        rule Square "square" when n(?n) then assert r(?n * ?n) end
        rule Wrong "a string for n" when n(?n) ?n > 0 whatif t(n: "two") yields r(?x) then assert r(?x) end"#,
        &[("n", "1")],
    )
    .err()
    .unwrap();
    assert!(err.to_string().contains("input `n` must be int"), "{err}");
}

#[test]
fn what_if_nesting_is_bounded() {
    let err = run(
        r#"ruleset t "t"
        input n: int
        output r
        rule Deeper "asks itself forever" when n(?n) whatif t(n: ?n + 1) yields r(?x) then assert r(?x) end"#,
        &[("n", "0")],
    )
    .err()
    .unwrap();
    assert!(err.to_string().contains("nest deeper than 6 levels"), "{err}");
}

#[test]
fn runtime_errors_point_at_the_condition() {
    let err = run(
        r#"ruleset t "t"
        input n: int
        output r
        rule Div "divides"
        when
            n(?n)
            ?q = 10 / ?n
        then assert r(?q) end"#,
        &[("n", "0")],
    )
    .err()
    .unwrap();
    assert_eq!(
        err.to_string(),
        "test.rules:7:13: in rule `Div`: division by zero in `10 / 0`"
    );
}

#[test]
fn inputs_and_parameters_are_checked() {
    let rules = r#"ruleset t "t"
        input n: int
        output r
        param limit = 0.5
        rule R "r" when n(?n) ?n > limit then assert r(?n) end"#;
    let program = load_text("t.rules", rules).unwrap();
    let mut s = Session::new(program);
    assert_eq!(
        s.set_input_text("m", "1").unwrap_err().to_string(),
        "`m` is not an input of `t` (its inputs: n)"
    );
    assert_eq!(
        s.set_input_text("n", "x").unwrap_err().to_string(),
        "input `n`: `x`: not an integer"
    );
    assert_eq!(
        s.set_param("limt", "1").unwrap_err().to_string(),
        "unknown parameter `limt` (parameters of `t`: limit)"
    );
    assert_eq!(
        s.set_param("limit", "high").unwrap_err().to_string(),
        "parameter `limit` is a number, got `high`"
    );
    assert_eq!(s.run().unwrap_err().to_string(), "missing input `n`");
    s.set_param("limit", "3").unwrap();
    s.set_input_text("n", "2").unwrap();
    s.run().unwrap();
    assert!(s.conclusions().is_empty());
}

/// Three rules, each concluding its own relation: `twice` reads `a`, `plus` reads `a` and `b`,
/// `echo` reads `b`.
const GOAL_RULES: &str = r#"ruleset g "goal"
input  a: int
input  b: int = 0
output twice, plus, echo
rule Twice "twice"
when
    a(?x)
then
    assert twice(?x * 2)
end
rule Plus "plus"
when
    a(?x)
    b(?y)
then
    assert plus(?x + ?y)
end
rule Echo "echo"
when
    b(?y)
then
    assert echo(?y)
end
"#;

/// A run restricted to a goal asserts only the inputs that the rules it runs read; the answer for
/// the goal is the full run's, and a missing input is still an error.
#[test]
fn a_goal_skips_inputs_no_relevant_rule_reads() {
    let program = load_text("goal.rules", GOAL_RULES).unwrap_or_else(|e| panic!("{e}"));
    let mut s = Session::new(program);
    s.set_input_text("a", "4").unwrap_or_else(|e| panic!("{e}"));
    s.run().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(outputs(&s), ["twice(8)", "plus(4)", "echo(0)"]);
    assert_eq!(s.facts_of("b").len(), 1);

    s.set_goal(&["twice"]);
    s.run().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(outputs(&s), ["twice(8)"]);
    assert_eq!(s.facts_of("a").len(), 1);
    assert!(
        s.facts_of("b").is_empty(),
        "no rule that can conclude `twice` reads `b`"
    );

    s.set_goal(&["plus"]);
    s.run().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(outputs(&s), ["plus(4)"]);
    assert_eq!(s.facts_of("b").len(), 1);

    s.set_goal(&["twice"]);
    s.reset();
    assert!(matches!(s.run(), Err(RunError::MissingInput(name)) if name == "a"));
}

/// Goals that change between runs each get their own inputs, even when the mask of the goal last
/// run is freed and the next goal's mask is allocated in its place.
#[test]
fn changing_goals_never_reuse_another_goals_inputs() {
    let program = load_text("goal.rules", GOAL_RULES).unwrap_or_else(|e| panic!("{e}"));
    let mut s = Session::new(program);
    s.set_input_text("a", "4").unwrap_or_else(|e| panic!("{e}"));
    s.set_input_text("b", "3").unwrap_or_else(|e| panic!("{e}"));
    for round in 0..100 {
        s.set_goal(&["twice"]);
        s.run().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(outputs(&s), ["twice(8)"], "round {round}");
        // Set but never run: the mask of `twice` is freed here, and `echo`'s may take its place.
        s.set_goal(&["plus"]);
        s.set_goal(&["echo"]);
        s.run().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(outputs(&s), ["echo(3)"], "round {round}");
    }
}

const HOISTED_RULES: &str = r#"ruleset h "hoisting"
input  n: int
input  m: int
output r
rule Each "each k, with a check that does not depend on k"
when
    n(?n)
    m(?m)
    ?k = range(1, ?m)
    abs(?n) > 0
    ?q = 10 / ?n
then
    assert r(?k, ?q)
end
"#;

/// A test or binding that does not read what a built-in with outputs binds is checked once, ahead
/// of it, not once per solution; the matches and their order are those of the order written.
#[test]
fn checks_move_ahead_of_the_solutions_they_do_not_depend_on() {
    let program = load_text("hoist.rules", HOISTED_RULES).unwrap_or_else(|e| panic!("{e}"));
    let mut s = Session::new(program);
    s.set_input_text("n", "5").unwrap_or_else(|e| panic!("{e}"));
    s.set_input_text("m", "3").unwrap_or_else(|e| panic!("{e}"));
    let result = s.run().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(outputs(&s), ["r(1, 2)", "r(2, 2)", "r(3, 2)"]);
    // `range` once and `abs` once (in the order written `abs` would run once per k: 4 calls).
    assert_eq!(result.stats.builtin_calls, 2);

    s.set_input_text("n", "-5").unwrap_or_else(|e| panic!("{e}"));
    s.set_input_text("m", "0").unwrap_or_else(|e| panic!("{e}"));
    let result = s.run().unwrap_or_else(|e| panic!("{e}"));
    assert!(outputs(&s).is_empty());
    assert_eq!(result.stats.builtin_calls, 2);
}

/// A moved check that fails with an error resumes the search in the order written: the error
/// surfaces only where the order written would reach it (here: only when `range` has solutions).
#[test]
fn a_moved_check_errs_only_where_the_order_written_would() {
    let rules = HOISTED_RULES.replace("    abs(?n) > 0\n", "");
    let program = load_text("hoist.rules", &rules).unwrap_or_else(|e| panic!("{e}"));
    let mut s = Session::new(program);
    s.set_input_text("n", "0").unwrap_or_else(|e| panic!("{e}"));
    s.set_input_text("m", "0").unwrap_or_else(|e| panic!("{e}"));
    s.run()
        .unwrap_or_else(|e| panic!("no k, so `10 / ?n` is never reached: {e}"));
    assert!(outputs(&s).is_empty());

    s.set_input_text("m", "2").unwrap_or_else(|e| panic!("{e}"));
    let err = s.run().err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err.contains("division by zero in `10 / 0`"), "{err}");
}

const BECAUSE_ONLY_RULES: &str = r#"ruleset b "because-only bindings"
input  n: int
output r
rule R "r"
when
    n(?n)
    ?size = abs(?n)
    ?tenth = 10 / ?n
then
    assert r(?n)
because "size {?size}, a tenth {?tenth}"
end
"#;

/// A binding only the `because` text reads is not made during the run: it is computed when the
/// firing is explained (here: its trace line), from the other bindings.
#[test]
fn bindings_only_the_explanation_reads_are_made_when_explained() {
    let mut s = run(BECAUSE_ONLY_RULES, &[("n", "-5")]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(outputs(&s), ["r(-5)"]);
    let result = s.run().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(result.stats.builtin_calls, 0, "`abs` is not called by the run");
    let trace = Explainer::new(&s).trace_text().join("\n");
    assert!(trace.contains("?size=5") && trace.contains("?tenth=-2"), "{trace}");

    // A failing one does not stop the run; the explanation says what went wrong in its place.
    let s = run(BECAUSE_ONLY_RULES, &[("n", "0")]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(outputs(&s), ["r(0)"]);
    let trace = Explainer::new(&s).trace_text().join("\n");
    assert!(trace.contains("(error: division by zero in `10 / 0`)"), "{trace}");
}

const SHARED_TEST_RULES: &str = r#"ruleset s "shared tests"
input  n: int = 0
input  x: decimal = 0.5
output a, b, c
rule A "a"
when
    n(?n)
    abs(?n) > 3
then
    assert a(?n)
end
rule B "b, the same first test"
when
    n(?v)
    abs(?v) > 3
    ?v < 100
then
    assert b(?v)
end
rule C "c, a test that can fail with an error"
when
    x(?x)
    trunc(?x) > 0
then
    assert c(?x)
end
"#;

/// A test several rules start with, on the new fact's own argument, runs once per fact: a rule
/// whose first test fails is not joined at all, and one whose tests pass is joined after them. A test
/// the fast form cannot decide (here a failing built-in) is left to the join, which raises the
/// error where it always did.
#[test]
fn a_first_test_that_rules_share_runs_once_per_fact() {
    let program = load_text("shared.rules", SHARED_TEST_RULES).unwrap_or_else(|e| panic!("{e}"));
    let mut s = Session::new(program);
    // `abs` once for both rules (each rule alone would call it: 2), `trunc` once for C.
    assert_eq!(run_with(&mut s, "n", "1"), Ok((vec![], 2)));
    // The shared run only: both joins start after the test that passed.
    assert_eq!(run_with(&mut s, "n", "-5"), Ok((strings(&["a(-5)", "b(-5)"]), 1 + 1)));
    let err = run_with(&mut s, "x", "1e300").expect_err("trunc(1e300) should fail");
    assert!(err.contains("trunc") && err.contains("`C`"), "{err}");
}

/// Sets one input, runs the session again, and gives its outputs and the built-in calls it made
/// (or the error, as text).
fn run_with(s: &mut Session, input: &str, value: &str) -> Result<(Vec<String>, u64), String> {
    s.set_input_text(input, value).map_err(|e| e.to_string())?;
    let result = s.run().map_err(|e| e.to_string())?;
    Ok((outputs(s), result.stats.builtin_calls))
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|i| i.to_string()).collect()
}

const SHARED_CALL_RULES: &str = r#"ruleset s "shared calls"
input  n: int = 0
output a, b, c
rule A "a"
when
    n(?n)
    ?k = range(1, ?n)
    ?k > 1
then
    assert a(?k)
end
rule B "b, the same first call"
when
    n(?m)
    ?j = range(1, ?m)
then
    assert b(?j)
end
rule C "c, a call no other rule makes"
when
    n(?n)
    ?i = range(0, ?n)
then
    assert c(?i)
end
"#;

/// A built-in with outputs that several rules call first on a new fact's arguments is called
/// once for all of them; each rule is joined from its solutions as its own call would join it, a
/// rule it gives no solution is not joined, and a failing call is left to the joins, which raise
/// the error in order.
#[test]
fn a_first_call_that_rules_share_runs_once_per_fact() {
    let program = load_text("shared.rules", SHARED_CALL_RULES).unwrap_or_else(|e| panic!("{e}"));
    let mut s = Session::new(program);
    // `range(1, 3)` once for A and B, `range(0, 3)` for C.
    let all = ["a(2)", "a(3)", "b(1)", "b(2)", "b(3)", "c(0)", "c(1)", "c(2)", "c(3)"];
    assert_eq!(run_with(&mut s, "n", "3"), Ok((strings(&all), 2)));
    assert_eq!(run_with(&mut s, "n", "0"), Ok((strings(&["c(0)"]), 2)));
    let err = run_with(&mut s, "n", "5000000").expect_err("range over five million values should fail");
    assert!(err.contains("more than a million") && err.contains("`A`"), "{err}");
}

/// A new fact keeps what its shared tests and calls said as bits of one word: a relation with more
/// than 64 of either leaves the rest to each rule's join, with the same answers.
#[test]
fn more_shared_tests_and_calls_than_a_word_holds_give_the_same_answers() {
    let mut rules = String::from("ruleset s \"many\"\ninput n: int\noutput hit, got\n");
    for k in 0..70 {
        rules += &format!("rule T{k} \"t\" when n(?n) ?n != {k} then assert hit({k}) end\n");
        rules += &format!("rule C{k} \"c\" when n(?n) ?j = range(?n, {k}) then assert got({k}, ?j) end\n");
    }
    let program = load_text("many.rules", &rules).unwrap_or_else(|e| panic!("{e}"));
    let mut s = Session::new(program);
    let (out, calls) = run_with(&mut s, "n", "66").unwrap_or_else(|e| panic!("{e}"));
    let hits: Vec<String> = (0..70).filter(|&k| k != 66).map(|k| format!("hit({k})")).collect();
    let mut got = Vec::new();
    for k in 66..70 {
        got.extend((66..=k).map(|j| format!("got({k}, {j})")));
    }
    assert_eq!(out, [hits, got].concat());
    // Each `range` once: 64 shared, six made by their own joins.
    assert_eq!(calls, 70);
}

/// A join that makes its first call again later, with the same arguments from the same fact
/// (Rule7's two `rank_held(?h, 2)`), goes through the solutions already made: the same matches,
/// one call in all.
#[test]
fn a_call_repeated_in_a_join_reuses_the_first_calls_solutions() {
    let rules = r#"ruleset s "repeated call"
input  n: int = 0
output pair
rule P "two values in order"
when
    n(?n)
    ?a = range(1, ?n)
    ?b = range(1, ?n)
    ?a < ?b
then
    assert pair(?a, ?b)
end
"#;
    let program = load_text("again.rules", rules).unwrap_or_else(|e| panic!("{e}"));
    let mut s = Session::new(program);
    let pairs = ["pair(1, 2)", "pair(1, 3)", "pair(2, 3)"];
    assert_eq!(run_with(&mut s, "n", "3"), Ok((strings(&pairs), 1)));
    assert_eq!(run_with(&mut s, "n", "0"), Ok((vec![], 1)));
}

/// While the inputs go in, a rule is joined only once the last input it reads is in, when a join
/// seeded by an earlier input would reach the later one's pattern with nothing that can fail
/// before it: it would find nothing. The same matches, in the same order, with no check made for
/// nothing: `abs` runs once, not once per input the rule reads. A check written before the later
/// input's pattern is made when the earlier input arrives, since it may fail there.
#[test]
fn a_rule_is_joined_once_the_last_input_it_reads_is_in() {
    let rules = r#"ruleset w "waits for its inputs"
input  a: int
input  b: int
input  c: int = 0
output r
rule R "r"
when
    a(?x)
    b(?y)
    abs(?x) > 0
    ?k = range(1, ?y)
then
    assert r(?x, ?k)
end
rule Late "an input read before the rule's other patterns"
when
    c(?z)
    a(?x)
    ?x + ?z > 100
then
    assert r(?z, ?x)
end
"#;
    let program = load_text("w.rules", rules).unwrap_or_else(|e| panic!("{e}"));
    let mut s = Session::new(program);
    s.set_input_text("a", "-4").unwrap_or_else(|e| panic!("{e}"));
    s.set_input_text("b", "3").unwrap_or_else(|e| panic!("{e}"));
    s.set_input_text("c", "200").unwrap_or_else(|e| panic!("{e}"));
    let result = s.run().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(outputs(&s), ["r(-4, 1)", "r(-4, 2)", "r(-4, 3)", "r(200, -4)"]);
    // `abs` once and `range` once: the join seeded by `a` alone (before `b` was in) is not made.
    assert_eq!(result.stats.builtin_calls, 2);
    assert_eq!(result.stats.activations, 4);
    let written_first = rules.replace("    b(?y)\n    abs(?x) > 0\n", "    abs(?x) > 0\n    b(?y)\n");
    let program = load_text("w.rules", &written_first).unwrap_or_else(|e| panic!("{e}"));
    let mut s = Session::new(program);
    s.set_input_text("a", "-4").unwrap_or_else(|e| panic!("{e}"));
    s.set_input_text("b", "3").unwrap_or_else(|e| panic!("{e}"));
    s.set_input_text("c", "200").unwrap_or_else(|e| panic!("{e}"));
    let result = s.run().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(outputs(&s), ["r(-4, 1)", "r(-4, 2)", "r(-4, 3)", "r(200, -4)"]);
    assert_eq!(result.stats.builtin_calls, 3);
}

/// A variable only a pattern binds and only the join reads is not kept by the activation, yet its
/// firing shows it: in the trace, in the `because` text and in the bindings, read back from the
/// fact matched. A variable written in two patterns is kept, and shows the same.
#[test]
fn a_pattern_binding_the_actions_do_not_read_is_shown_from_its_fact() {
    let s = run(
        r#"ruleset e "elided bindings"
input  h: cards
input  n: int
input  pair: ints = "1,1"
input  m: int = 4
output r, done
rule R "r"
when
    h(?h)
    n(?n)
    ?k = card_count(?h) + ?n
then
    assert r(?k)
because "{?h} and {?n}: {?k}"
end
rule Twice "twice"
when
    pair(?p)
    n(?m)
    m(?m)
    r(?q)
    ?q > ?m
then
    assert done(?q + 1)
because "{?p} {?m}"
end
"#,
        &[("h", "AS KD 2C"), ("n", "4")],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(outputs(&s), ["r(7)", "done(8)"]);
    let trace = Explainer::new(&s).trace_text().join("\n");
    assert!(trace.contains("?h=A♠ K♦ 2♣ ?n=4 ?k=7"), "{trace}");
    assert!(trace.contains("?p=[1, 1] ?m=4 ?q=7"), "{trace}");
    let fact = s.conclusions()[0].fact;
    let text = kibitzer::render_tree(&Explainer::new(&s).explain(fact, kibitzer::ExplainLimits::default()));
    assert!(text.contains("A♠ K♦ 2♣ and 4: 7"), "{text}");
    let firing = s.firing(0).unwrap_or_else(|| panic!("a firing"));
    let vars: Vec<String> = s.firing_vars(firing).iter().map(|v| v.to_string()).collect();
    assert_eq!(vars, ["[AS KD 2C]", "4", "7"]);
}

/// Threads share a compiled rule set (`kibitzer batch`), so every card group and list it keeps
/// must be counted atomically (frozen), while the lists a run makes are local to its thread.
#[test]
fn every_list_and_card_group_a_rule_set_keeps_is_frozen_and_a_runs_own_are_not() {
    let rules = r#"
ruleset t "t"
input  hand: cards(0..5) = "AS KS"
input  n: int = 0
output out, pair
param  weights = [1, [2, 3]]
const  names = ["a", "b"]
rule A "a"
when
    hand(?h)
    n(?n)
    ?n in [0, 1]
    [?n, 2] != [[5]]
    ?w = weights[1]
then
    assert out([?n, ?w], names)
    assert pair([?n, 1])
because "{?n}"
end
"#;
    let mut programs = vec![load_text("t.rules", rules).unwrap_or_else(|e| panic!("{e}"))];
    for name in kibitzer::library::shipped_names() {
        programs.push(kibitzer::load_shipped(&name).unwrap_or_else(|e| panic!("{name}: {e}")));
    }
    for p in &programs {
        let (mut lists, mut groups, mut unfrozen) = (0, 0, Vec::new());
        p.each_kept_value(&mut |v| {
            lists += matches!(v, kibitzer::Value::List(_)) as usize;
            groups += matches!(v, kibitzer::Value::Cards(_)) as usize;
            if !v.is_frozen() {
                unfrozen.push(v.to_string());
            }
        });
        assert!(unfrozen.is_empty(), "{}: {unfrozen:?}", p.name());
        if p.name() == "t" {
            // The parameter and the constant (its use in `out`); the default hand. List literals
            // in rules are built as they run (`[?n, 2]`), the constant ones too (`[0, 1]`).
            assert_eq!((lists, groups), (2, 1));
        }
    }
    let mut s = Session::new(programs[0].clone());
    s.run().expect("runs");
    let made = s.facts_of("pair");
    assert_eq!(made.len(), 1);
    assert!(!made[0][0].is_frozen(), "a list a rule makes is local to its thread");
}

/// `sum ?x { item(_, ?x) }` (summed straight off the facts) against the same sum written
/// `sum ?x + 0 { … }` (the general fold): the same total or the same failure, over integers near
/// the overflow, decimals mixed in, and facts retracted before the sum; and the summed facts are
/// the explanation's, in order.
mod column_sums {
    use super::*;
    use proptest::prelude::*;

    /// Read straight off the facts.
    const FAST: &str = "sum ?x { item(_, ?x) }";
    /// The same sum, folded the general way (its value is not a bare variable).
    const GENERAL: &str = "sum ?x + 0 { item(_, ?x) }";

    /// A rule set whose rule `Sum` concludes `total(?t)` with `?t = SUM` over `item` facts.
    fn rules(sum: &str) -> String {
        format!(
            r#"ruleset t "t"
        input xs: ints
        input drop: ints = ""
        input halves: bool = false
        output total
        rule Item "item" salience 10 when xs(?l) ?x in ?l then assert item(?x % 3, ?x) end
        rule Half "half" salience 10 when halves(true) xs(?l) ?x in ?l then assert item(7, ?x / 2.0) end
        rule Drop "drop" salience 5 when drop(?d) ?x in ?d then retract item(_, ?x) end
        rule Sum "sum" when xs(_) ?t = {sum} then assert total(?t) end"#
        )
    }

    /// The outputs of `rules(sum)` on these inputs, or its error.
    fn totals(sum: &str, xs: &[i64], drop: &[i64], halves: bool) -> Result<Vec<String>, String> {
        let list = |v: &[i64]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",");
        let halves = halves.to_string();
        run(
            &rules(sum),
            &[("xs", &list(xs)), ("drop", &list(drop)), ("halves", &halves)],
        )
        .map(|s| outputs(&s))
        .map_err(|e| e.to_string())
    }

    proptest! {
        #[test]
        fn fast_and_general_sums_agree(
            xs in prop::collection::vec(prop_oneof![-50i64..50, Just(i64::MAX), Just(i64::MIN), Just(i64::MAX / 2 + 1)], 0..8),
            drop in prop::collection::vec(-50i64..50, 0..3),
            halves in any::<bool>(),
        ) {
            let fast = totals(FAST, &xs, &drop, halves);
            prop_assert_eq!(&fast, &totals(GENERAL, &xs, &drop, halves));
            if let Ok(out) = &fast {
                prop_assert_eq!(out.len(), 1, "{:?}", out);
            }
        }
    }

    #[test]
    fn fixed_cases() {
        let ok =
            |xs: &[i64], drop: &[i64], halves: bool| totals(FAST, xs, drop, halves).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ok(&[5, 2, 9], &[], false), ["total(16)"]);
        assert_eq!(ok(&[], &[], false), ["total(0)"]);
        assert_eq!(ok(&[5, 2, 9], &[2], false), ["total(14)"]);
        assert_eq!(ok(&[5, 3], &[], true), ["total(12.0)"]);
        let e = totals(FAST, &[i64::MAX, 1], &[], false).unwrap_err();
        assert!(e.contains("overflow") && e.contains("`Sum`"), "{e}");
        assert_eq!(totals(GENERAL, &[i64::MAX, 1], &[], false), Err(e));
        // No overflow once the large one is gone.
        assert_eq!(ok(&[i64::MAX, 1], &[1], false), [format!("total({})", i64::MAX)]);
    }

    /// The facts summed are the firing's, in the order asserted, without the retracted one.
    #[test]
    fn the_explanation_lists_the_summed_facts() {
        let s = run(&rules(FAST), &[("xs", "5,2,9"), ("drop", "2")]).unwrap_or_else(|e| panic!("{e}"));
        let fact = s.conclusions()[0].fact;
        let text = kibitzer::render_tree(&Explainer::new(&s).explain(fact, kibitzer::ExplainLimits::default()));
        // Alike facts are shown once with their count: two, the first `item(2, 5)`.
        assert!(text.contains("├─ 2 × item(2, 5) and others like it"), "{text}");
    }
}

#[test]
fn a_rule_waiting_on_a_phase_fact_matches_only_while_the_phase_holds() {
    // `seen` starts its join from `item` with the constant pattern `phase("b")`: the engine skips
    // it without joining while no such fact exists, and must notice the phase arriving and going.
    let rules = r#"ruleset t "t"
        input n: int
        output got
        rule start salience 10 when n(?n) then assert phase("a") assert item(?n) end
        rule to_b salience -1 when ?p <- phase("a") then modify ?p ("b") end
        rule seen when item(?x) phase("b") then assert got(?x) end
        rule grow when phase("b") n(?n) item(?x) ?x < ?n + 2 then assert item(?x + 1) end
        rule to_c salience -5 when ?p <- phase("b") then modify ?p ("c") end
        rule late when phase("c") then assert item(100) end"#;
    let mut s = run(rules, &[("n", "1")]).unwrap();
    assert_eq!(outputs(&s), ["got(1)", "got(2)", "got(3)"]);
    // The same session again: a new query starts from an empty memory of the same shape.
    for n in [5, 1] {
        s.set_input_text("n", &n.to_string()).unwrap();
        s.run().unwrap();
        let want: Vec<String> = (n..n + 3).map(|x| format!("got({x})")).collect();
        assert_eq!(outputs(&s), want);
    }
}

#[test]
fn if_picks_one_branch_and_text_is_made_by_str_and_format() {
    let rules = r#"ruleset t "t"
        input n: int
        output said
        rule Say when
            n(?n)
            ?d = 10 / (if ?n == 0 then 1 else ?n)
            ?t = if ?n > 16 then "hard " + str(?n) else if ?n == 0 then "zero" else format("soft {:signed}", ?n)
        then assert said(?t, ?d, format("{:.2} of {:ranks} {{ok}}", ?d / 3.0, 10)) end"#;
    let cases = [
        ("17", r#"said("hard 17", 0, "0.00 of tens {ok}")"#),
        ("0", r#"said("zero", 10, "3.33 of tens {ok}")"#),
        ("5", r#"said("soft +5", 2, "0.67 of tens {ok}")"#),
    ];
    for (n, want) in cases {
        let s = run(rules, &[("n", n)]).unwrap();
        assert_eq!(outputs(&s), [want], "n = {n}");
    }
    // A condition that is not true or false is an error where it is computed.
    let bad = r#"ruleset t "t"
        input n: int
        output said
        rule Say when n(?n) ?t = if ?n then 1 else 2 then assert said(?t) end"#;
    let e = run(bad, &[("n", "1")]).err().expect("an error").to_string();
    assert!(e.contains("`if` needs true or false"), "{e}");
}

#[test]
fn a_format_template_written_in_the_rule_is_checked_at_load() {
    for (template, values, why) in [
        ("{} and {}", "?n", "more holes"),
        ("{}", "?n, ?n", "2 value(s) given for 1 hole"),
        ("{:bold}", "?n", "unknown format `bold`"),
        ("{", "?n", "without its `}`"),
    ] {
        let text = format!(
            "ruleset t \"t\"\ninput n: int\noutput said\nrule Say when n(?n) then assert said(format(\"{template}\", {values})) end\n"
        );
        let e = load_text("t.rules", &text).expect_err("refused").to_string();
        assert!(e.contains(why) && e.contains("t.rules:4:"), "{template}: {e}");
    }
}

#[test]
fn an_output_declared_one_stops_the_run_at_a_second_answer() {
    let rules = r#"ruleset t "t"
        input total: int
        output action: one, shown: exactly one
        rule Split when total(?t) ?t == 16 then assert action("split") end
        rule Surrender when total(?t) ?t >= 15 then assert action("surrender") end
        rule Again when total(?t) ?t >= 15 then assert action("surrender") end
        rule Show when total(?t) ?t > 0 then assert shown(?t) end
        rule Undo salience -5 when total(20) ?a <- action("surrender") then retract ?a end
        rule Stand salience -9 when total(20) not action(_) then assert action("stand") end"#;
    // The same fact twice is one answer; a retracted answer may be replaced.
    let s = run(rules, &[("total", "15")]).unwrap();
    assert_eq!(outputs(&s), [r#"action("surrender")"#, "shown(15)"]);
    let s = run(rules, &[("total", "20")]).unwrap();
    assert_eq!(outputs(&s), [r#"action("stand")"#, "shown(20)"]);
    let e = run(rules, &[("total", "16")]).err().expect("two answers").to_string();
    assert_eq!(
        e,
        "two answers for `action`, which the rule set declares `one`: action(\"split\") by rule `Split`, \
         then action(\"surrender\") by rule `Surrender`"
    );
    let e = run(rules, &[("total", "0")]).err().expect("no answer").to_string();
    assert!(e.starts_with("no answer for `shown`"), "{e}");
}

#[test]
fn a_because_hole_may_hold_any_expression() {
    let rules = r#"ruleset t "t"
        input n: int
        const names = ["zero", "one", "two", "three"]
        output said
        rule Say when n(?n) ?l = [?n, ?n + 10] then assert said(?n)
        because "{names[?n]}, {?l[1]:rank}, {format(\"{}:{:signed}\", ?n, -?n)}, {if ?n > 1 then \"many\" else \"few\"}" end"#;
    let because = |n: &str| {
        Explainer::new(&run(rules, &[("n", n)]).unwrap()).answers()[0]
            .because
            .clone()
    };
    assert_eq!(because("2").as_deref(), Some("two, Q, 2:−2, many"));
    // A hole that cannot be computed for these values shows `?`; a number that is no rank, itself.
    assert_eq!(because("7").as_deref(), Some("?, 17, 7:−7, many"));
    // A hole reading a variable the rule does not bind is refused at load, where it is written.
    let e = load_text("t.rules", &rules.replace("names[?n]", "names[?m]"))
        .expect_err("refused")
        .to_string();
    assert!(
        e.contains("`?m` is used in the `because` text but never bound") && e.contains("t.rules:6:"),
        "{e}"
    );
}

#[test]
fn a_rank_input_reads_a_rank_without_a_suit() {
    let rules = r#"ruleset t "t"
        input dealer: rank
        output up
        rule Up when dealer(?d) then assert up(?d) end"#;
    for (text, rank) in [("A", 14), ("k", 13), ("T", 10), ("10", 10), ("2", 2)] {
        let s = run(rules, &[("dealer", text)]).unwrap();
        assert_eq!(outputs(&s), [format!("up({rank})")], "{text}");
    }
    for bad in ["1", "11", "AS", ""] {
        let e = run(rules, &[("dealer", bad)])
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains("not a rank"), "{bad}: {e}");
    }
}

const CHART: &str = r#"ruleset t "t"
    input n: int
    output action: one
    group chart first
    rule Big "big" in chart when n(?n) ?n > 10 then assert action("big") because "{?n} > 10" end
    rule Mid "mid" in chart when n(?n) ?n > 5 then assert action("mid") because "{?n} > 5" end
    rule Small "small" in chart when n(?n) then assert action("small") end"#;

#[test]
fn a_first_match_group_fires_the_first_of_its_rules_that_holds() {
    for (n, answer) in [("12", "big"), ("7", "mid"), ("1", "small")] {
        let s = run(CHART, &[("n", n)]).unwrap();
        assert_eq!(outputs(&s), [format!("action(\"{answer}\")")], "n={n}");
        assert_eq!(fired(&s).len(), 1, "n={n}");
    }
    // Under every strategy, whatever the salience of the group's level.
    for strategy in ["depth", "breadth", "file_order"] {
        let rules = CHART.replace("group chart first", &format!("group chart first\nstrategy {strategy}"));
        let s = run(&rules, &[("n", "12")]).unwrap();
        assert_eq!(outputs(&s), ["action(\"big\")"], "{strategy}");
    }
    let s = run(CHART, &[("n", "12")]).unwrap();
    let drops: Vec<String> = Explainer::new(&s)
        .trace_text()
        .into_iter()
        .filter(|l| l.starts_with("DROP"))
        .collect();
    assert_eq!(
        drops,
        [
            "DROP      Mid: it would apply, but the earlier Big in group chart was chosen: big — 12 > 10",
            "DROP      Small: it would apply, but the earlier Big in group chart was chosen: big — 12 > 10",
        ]
    );
}

#[test]
fn a_group_decides_once_a_run_for_every_match_and_every_later_activation() {
    // `Each` matches every card; `Late` matches a fact a later rule asserts. Only the first
    // activation of the group fires: the group is one decision per query.
    let rules = r#"ruleset t "t"
        input hand: cards(1..5)
        output picked, seen
        group pick first
        rule Each "each card" in pick when hand(?h) ?c in card_list(?h) then assert picked(?c) end
        rule Late "late" in pick when seen(?x) then assert picked(?x) end
        rule Other "not in the group" when hand(?h) ?c in card_list(?h) then assert seen(rank(?c)) end"#;
    let s = run(rules, &[("hand", "KS 7H 2D")]).unwrap();
    let picked: Vec<String> = outputs(&s).into_iter().filter(|o| o.starts_with("picked")).collect();
    assert_eq!(picked, ["picked(KS)"]);
    assert_eq!(fired(&s), ["Each", "Other", "Other", "Other"]);
}

#[test]
fn a_group_rule_whose_negation_fails_at_selection_leaves_the_choice_to_the_next() {
    let rules = r#"ruleset t "t"
        input n: int
        output action, flag
        group chart first
        rule Flag "flag" salience 5 when n(?n) ?n > 3 then assert flag(?n) end
        rule Unflagged "unflagged" in chart when n(?n) not flag(_) then assert action("a") end
        rule Rest "rest" in chart when n(?n) then assert action("b") end"#;
    let s = run(rules, &[("n", "5")]).unwrap();
    assert_eq!(outputs(&s), ["action(\"b\")", "flag(5)"]);
    let s = run(rules, &[("n", "1")]).unwrap();
    assert_eq!(outputs(&s), ["action(\"a\")"]);
}

/// A session of `rules` run on input `n`, recording what a why-not reads.
fn judged(rules: &str, n: &str) -> (Session, RunResult) {
    let program = load_text("t.rules", rules).unwrap();
    let mut s = Session::new(program);
    s.set_options(RunOptions {
        why_not: true,
        ..RunOptions::default()
    });
    s.set_input_text("n", n).unwrap();
    let r = s.run().unwrap();
    (s, r)
}

#[test]
fn why_not_a_rule_that_lost_to_its_group_names_the_rule_chosen_and_its_reason() {
    let (s, _) = judged(CHART, "7");
    let w = Explainer::new(&s).why_not("Small").unwrap();
    assert_eq!(
        w.summary,
        "Small would apply, but the earlier Mid in group chart was chosen: mid — 7 > 5"
    );
    assert_eq!(w.bindings, ["n = 7"]);
    let w = Explainer::new(&s).why_not("Big").unwrap();
    assert!(
        w.summary.starts_with("Big did not fire: condition 2 `?n > 10` fails"),
        "{}",
        w.summary
    );
}

#[test]
fn a_value_an_activation_fired_with_before_is_named_once_in_its_drop() {
    let rules = r#"ruleset t "t"
        input xs: ints
        output r1
        rule R1 when xs(?l) ?x in ?l ?s = sum ?v { r0(?v, _) } then
            retract r0(_, _)
            assert logical r0(?x * ?s, -4)
        end"#;
    let s = run(rules, &[("xs", "-1,15")]).unwrap();
    let trace = Explainer::new(&s).trace_text();
    assert!(
        trace.iter().any(|l| l.ends_with("R1: it fired with ?s=0 already")),
        "{trace:#?}"
    );
}

#[test]
fn a_decided_group_matches_no_new_fact() {
    // `Pairs` is in a group that decides at its first firing; `Grow` then adds 200 `seen`
    // facts. Matching them would make a pair for every two (20,000 activations), each dropped.
    let rules = r#"ruleset t "t"
        input n: int
        output pair, seen
        group g first
        rule Grow "grow" when n(?n) ?c = count { seen(_) } ?c < ?n then assert seen(?c) end
        rule Pairs "pairs" in g salience 10 when seen(?a) seen(?b) then assert pair(?a, ?b) end"#;
    let (s, r) = judged(rules, "200");
    assert_eq!(r.stats.fired, 201);
    assert!(r.stats.activations < 1_000, "{} activations", r.stats.activations);
    let w = Explainer::new(&s).why_not("Pairs").unwrap();
    assert_eq!(w.summary, "Pairs fired 1 time(s)");
    let rules = rules
        .replace(
            r#"rule Pairs "pairs" in g"#,
            r#"rule First "first" in g salience 10 when seen(0) then assert pair(0, 0) end rule Pairs "pairs" in g"#,
        )
        .replace("seen(?a) seen(?b)", "seen(?a) seen(?b) ?a > 0");
    let (s, _) = judged(&rules, "3");
    // Its activations were never made, but the why-not still names the rule its group chose.
    let w = Explainer::new(&s).why_not("Pairs").unwrap();
    assert_eq!(
        w.summary,
        "Pairs would apply, but the earlier First in group g was chosen: first"
    );
}

#[test]
fn an_aggregate_of_memory_alone_is_folded_once_for_each_state_of_memory() {
    // Each new item brings back every `Best` activation (its aggregate reads items); between
    // two firings they all ask for the same maximum, which is folded at most twice.
    let rules = r#"ruleset t "t"
        input n: int
        output best
        rule Next salience -1 when n(?n) ?c = count { item(_) } ?c < ?n then assert item(?c * 7 % 1000) end
        rule Best when item(?a) ?m = max abs(?v) { item(?v) } ?a == ?m then assert best(?a) end"#;
    let s = run(rules, &[("n", "120")]).unwrap();
    assert_eq!(outputs(&s).len(), 120);
    // Every `Best` firing binds the maximum it compared with (the records survive the
    // compactions of the agenda a run with records makes).
    let best: Vec<String> = Explainer::new(&s)
        .trace_text()
        .into_iter()
        .filter(|l| l.contains(" Best "))
        .collect();
    assert!(!best.is_empty());
    for line in best {
        let a = line.split("?a=").nth(1).and_then(|t| t.split_whitespace().next());
        let m = line.split("?m=").nth(1).and_then(|t| t.split_whitespace().next());
        assert_eq!(a, m, "{line}");
    }
    let program = load_text("t.rules", rules).unwrap();
    let mut s = Session::new(program);
    s.set_input_text("n", "120").unwrap();
    let r = s.run().unwrap();
    // Folded for every activation, the maximum would cost 120^3/6 (288,000) calls of `abs`.
    assert!(r.stats.builtin_calls < 40_000, "{} calls", r.stats.builtin_calls);
}

#[test]
fn the_explanation_of_a_groups_choice_names_the_group_and_the_rules_it_won_over() {
    let s = run(CHART, &[("n", "12")]).unwrap();
    let fact = s.conclusions()[0].fact;
    let e = Explainer::new(&s).explain(fact, Default::default());
    assert_eq!(e.rule.as_deref(), Some("Big"));
    assert_eq!(e.group.as_deref(), Some("chart"));
    assert_eq!(e.passed_over, ["Mid", "Small"]);
    let s = run(CHART, &[("n", "1")]).unwrap();
    let s = s;
    let fact = s.conclusions()[0].fact;
    let e = Explainer::new(&s).explain(fact, Default::default());
    assert_eq!((e.group.as_deref(), e.passed_over.len()), (Some("chart"), 0));
}
