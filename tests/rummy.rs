//! Rummy through the shipped rules (`docs/rummy.md`); the explained answers are pinned in
//! `rules/rummy.cases.toml`. Here: every rule exercised; the rules'
//! answers and decisions cross-checked against the native module (`evaluate`, `best_discard`,
//! `take_advice`, `go_out`) on random and island-heavy hands; notation errors; the JSON contract;
//! the benchmark's figure names. (The native module's own brute-force oracle tests live in
//! `src/games/rummy/oracle_tests.rs`.)

use kibitzer::games::rummy::{best_discard, evaluate, go_out, take_advice, Card, Hand, Options};
use kibitzer::games::rummy::{double_deck, island_hand, random_hand};
use kibitzer::{load_shipped, Session, Value};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

const DEMO_HAND: &str = "2H3H4H5H4H5H6H3C3C3D3D4D";
const FULL_SUIT: &str = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AS AC";

fn session() -> Session {
    Session::new(load_shipped("rummy").expect("the shipped rummy rules load"))
}

/// Runs a query (inputs and `--param` overrides) and returns every conclusion as `relation(args)`.
fn ask_in(s: &mut Session, inputs: &[(&str, &str)], params: &[(&str, &str)]) -> Vec<String> {
    s.reset();
    for (k, v) in params {
        s.set_param(k, v).unwrap_or_else(|e| panic!("--param {k}={v}: {e}"));
    }
    for (k, v) in inputs {
        s.set_input_text(k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
    }
    s.run().unwrap_or_else(|e| panic!("{inputs:?}: {e}"));
    s.conclusions().iter().map(|c| c.to_string()).collect()
}

fn ask(inputs: &[(&str, &str)], params: &[(&str, &str)]) -> Vec<String> {
    ask_in(&mut session(), inputs, params)
}

fn has(answer: &[String], fact: &str) -> bool {
    answer.iter().any(|c| c == fact)
}

// ---- the original write-up's demo island and the page's examples ---------------------------------------------

#[test]
fn demo_hand_through_the_cli_as_json() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kibitzer"))
        .args(["ask", "rummy", "--json", &format!("hand={DEMO_HAND}")])
        .output()
        .expect("the kibitzer binary runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(json["ruleset"], "rummy");
    let conclusions = json["conclusions"].as_array().expect("conclusions");
    let find = |rel: &str| {
        conclusions
            .iter()
            .find(|c| c["relation"] == rel)
            .map(|c| c["args"].clone())
            .unwrap_or_else(|| panic!("no {rel} in {json}"))
    };
    assert_eq!(find("deadwood"), serde_json::json!([5, 16]));
    assert_eq!(find("arrangements"), serde_json::json!([3]));
    assert_eq!(
        find("best"),
        serde_json::json!([["2H 3H 4H 5H", "4H 5H 6H"], ["3D", "3D", "4D", "3C", "3C"]])
    );
}

/// The four conventions (ace low / high × merged / split) count as the native module does.
#[test]
fn full_heart_suit_counts_agree_with_native() {
    for (ace_high, split_runs) in [
        ("false", "false"),
        ("false", "true"),
        ("true", "false"),
        ("true", "true"),
    ] {
        let answer = ask(
            &[("hand", FULL_SUIT), ("ace_high", ace_high), ("split_runs", split_runs)],
            &[],
        );
        let options = Options {
            ace_high: ace_high == "true",
            split_runs: split_runs == "true",
            ..Options::default()
        };
        let e = evaluate(&Hand::parse(FULL_SUIT).unwrap(), &options);
        assert!(
            has(&answer, &format!("arrangements({})", e.maximal_count())),
            "{ace_high}/{split_runs}: {answer:#?}"
        );
    }
}

// ---- the strategy -------------------------------------------------------------------------------

#[test]
fn wild_cards_agree_with_native() {
    // Twos wild: a dumped wild card costs joker_points.
    let inputs = [("hand", "2H 2S 4H 7S 7D KC"), ("wild", "2")];
    let answer = ask(&inputs, &[("joker_points", "15")]);
    let native = evaluate(
        &Hand::parse("2H 2S 4H 7S 7D KC").unwrap(),
        &Options {
            wild_rank: Some(1),
            joker_points: 15,
            ..Options::default()
        },
    );
    assert!(
        has(
            &answer,
            &format!(
                "deadwood({}, {})",
                native.min_deadwood_cards(),
                native.min_deadwood_points()
            )
        ),
        "{answer:#?}"
    );
}

#[test]
fn budget_size_and_listing_limits() {
    let answer = ask(&[("hand", DEMO_HAND)], &[("node_budget", "3")]);
    assert_eq!(
        answer,
        vec![
            r#"note("unknown within budget: the 12-card hand needs more than 3 search nodes (--param node_budget=N)")"#
        ]
    );
    let answer = ask(&[("hand", DEMO_HAND)], &[("strategy_limit", "5"), ("list_limit", "2")]);
    assert!(
        has(
            &answer,
            r#"note("no discard or draw advice for a 12-card hand (--param strategy_limit=12 or more)")"#
        ),
        "{answer:#?}"
    );
    assert!(has(
        &answer,
        r#"note("3 maximal arrangements; the first 2 are listed (--param list_limit=N for more)")"#
    ));
    assert_eq!(answer.iter().filter(|c| c.starts_with("arrangement(")).count(), 2);
    assert!(!answer.iter().any(|c| c.starts_with("discard(")));
}

/// The whole double deck: its counts and minima are exact (every card melds), but the search
/// that retraces a best arrangement runs out of memory. The answer must then be "unknown within
/// budget", never the minima next to an arrangement that leaves cards unmelded.
#[test]
fn a_best_arrangement_that_cannot_be_retraced_is_unknown_not_wrong() {
    let deck: String = double_deck().iter().map(|c| c.to_string()).collect();
    let answer = ask(&[("hand", &deck)], &[]);
    let deadwood: Vec<&String> = answer.iter().filter(|c| c.starts_with("deadwood(")).collect();
    let best: Vec<&String> = answer.iter().filter(|c| c.starts_with("best(")).collect();
    let unknown = answer.iter().any(|c| c.contains("unknown within budget"));
    if unknown {
        assert!(deadwood.is_empty() && best.is_empty(), "{answer:#?}");
        assert!(!answer.iter().any(|c| c.starts_with("arrangement(")), "{answer:#?}");
    } else {
        // Every card of a double deck melds: the best arrangement dumps nothing.
        assert_eq!(deadwood, [&"deadwood(0, 0)".to_string()], "{answer:#?}");
        assert_eq!(best.len(), 1, "{answer:#?}");
        assert!(best[0].ends_with(", [])"), "{answer:#?}");
    }
}

/// A search whose deadline has passed stops the island search and the joker search at once and
/// says "unknown within budget" instead of answering in full, and the cut answer is not
/// remembered for the next query of the same hand.
#[test]
fn a_passed_deadline_answers_unknown_within_budget() {
    use kibitzer::{Solutions, Value};
    let registry = kibitzer::library::registry();
    let call = |name: &str, args: &[Value], arity: usize| -> Vec<Value> {
        let mut out = Solutions::new(arity);
        let b = registry.get(name).expect("a rummy built-in");
        let args: Vec<&Value> = args.iter().collect();
        b.call(&args, &mut out).unwrap_or_else(|e| panic!("{name}: {e}"));
        out.row(0).to_vec()
    };
    let options = call(
        "rummy.options",
        &[
            Value::Bool(false),
            Value::Bool(false),
            Value::str(""),
            Value::Int(0),
            Value::Int(20_000_000),
        ],
        2,
    );
    let deck: String = double_deck().iter().step_by(2).map(|c| c.to_string()).collect();
    let jokers = "JK JK 2H 3H 4H 5H 6H 7H 8H 2S 3S 4S 5S 6S 2D 3D 4D 5D 9C 9D";
    for hand in [deck.as_str(), jokers] {
        let args = [Value::str(hand), options[0].clone()];
        let cut = {
            let _deadline = kibitzer::with_deadline(Some(std::time::Duration::ZERO));
            call("rummy.evaluate", &args, 4)
        };
        assert_eq!(cut[3].to_string(), "\"unknown within budget\"", "{hand}");
        let full = call("rummy.evaluate", &args, 4);
        assert_eq!(full[3].to_string(), "\"exact\"", "{hand}");
    }
}

/// A wild-rank hand whose joker search a short deadline cuts: the evaluation says unknown at
/// once, and listing its arrangements does not search again (which ran the whole node budget
/// with the deadline unseen, so that a shorter timeout made the answer slower).
#[test]
fn a_joker_search_cut_by_the_deadline_ends_at_once_and_is_not_searched_again() {
    let hand = Hand::parse("AH 2H 4H 5H 7H 8H TH JH KH AS 3S 4S 6S 7S 9S TS QS KS 2D 3D 7C JK").expect("hand");
    let options = Options {
        // Sevens wild (ranks count from the ace, 0).
        wild_rank: Some(6),
        node_budget: 100_000_000_000,
        ..Options::default()
    };
    let start = std::time::Instant::now();
    let e = {
        let _deadline = kibitzer::with_deadline(Some(std::time::Duration::from_millis(100)));
        evaluate(&hand, &options)
    };
    assert!(!e.exact);
    assert_eq!(e.arrangements().count(), 0);
    assert!(e.min_points_arrangement().is_none());
    assert!(
        start.elapsed() < std::time::Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}

/// Inputs or parameters as (name, text).
type Pairs<'a> = &'a [(&'a str, &'a str)];

// ---- every rule fires somewhere -----------------------------------------------------------------

#[test]
fn every_rule_is_exercised() {
    let cases: &[(Pairs, Pairs)] = &[
        (&[("hand", DEMO_HAND)], &[]),
        (&[("hand", DEMO_HAND)], &[("node_budget", "3")]),
        (&[("hand", DEMO_HAND)], &[("strategy_limit", "5"), ("list_limit", "2")]),
        (
            &[("hand", FULL_SUIT), ("ace_high", "true"), ("split_runs", "true")],
            &[],
        ),
        (&[("hand", "AS 2S 3S 3S 4S 5S AD 3D AC")], &[]),
        (&[("hand", "2H 3H 9S 9D KC"), ("discard_top", "4H")], &[]),
        (&[("hand", "2H 3H 9S 9D KC"), ("discard_top", "QC")], &[]),
        (&[("hand", "5H 6H 7S 7D 2C 3C 4C KS KD QH"), ("discard_top", "8S")], &[]),
        (&[("hand", "3S 4S 9H 9D 5C 6C 7C JD JH"), ("discard_top", "2H")], &[]),
        (&[("hand", "4H"), ("discard_top", "4H")], &[]),
        (&[("hand", "2H 3H 4H 5S 5D 5C")], &[]),
        (&[("hand", "2H 3H 4H 5S 5D 5C KD 3C")], &[("knock_limit", "10")]),
    ];
    let mut s = session();
    let names: Vec<String> = s.program().rule_names().map(String::from).collect();
    let mut fired = BTreeSet::new();
    for (inputs, params) in cases {
        ask_in(&mut s, inputs, params);
        for (i, name) in names.iter().enumerate() {
            if s.fired_count(i) > 0 {
                fired.insert(name.clone());
            }
        }
        // Parameters stay overridden in a session: put them back.
        for (k, _) in params.iter() {
            let default = match *k {
                "node_budget" => "20000000",
                "strategy_limit" => "40",
                "list_limit" => "10",
                "knock_limit" => "0",
                other => panic!("no default noted for {other}"),
            };
            s.set_param(k, default).unwrap();
        }
    }
    let missing: Vec<&String> = names.iter().filter(|n| !fired.contains(*n)).collect();
    assert!(missing.is_empty(), "rules never fired: {missing:?}");
}

// ---- the rules against the native module on random hands ---------------------------------------

fn card_text(card: Option<Card>) -> String {
    card.map(|c| c.to_string()).unwrap_or_default()
}

fn facts(s: &Session, relation: &str) -> Vec<Vec<Value>> {
    s.facts_of(relation)
}

fn text(v: &Value) -> String {
    match v {
        Value::Str(s) => s.to_string(),
        other => other.to_string(),
    }
}

/// A random hand: plain or island-heavy, sometimes with a joker (small hands only: the joker
/// search is the slow path).
fn some_hand(rng: &mut ChaCha8Rng, i: usize) -> Hand {
    let size = 3 + i % 14;
    let mut hand = if i.is_multiple_of(2) {
        random_hand(rng, size)
    } else {
        island_hand(rng, size)
    };
    if i % 7 == 3 && size <= 9 {
        let _ = hand.add(Card::JOKER);
    }
    hand
}

#[test]
fn rules_agree_with_the_native_module_on_random_hands() {
    let mut s = session();
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let deck = double_deck();
    let (mut takes, mut draws, mut outs) = (0, 0, 0);
    for i in 0..600 {
        let hand = some_hand(&mut rng, i);
        let ace_high = i.is_multiple_of(3);
        let wild = if i % 11 == 5 {
            Some(rng.random_range(0..13u8))
        } else {
            None
        };
        let options = Options {
            ace_high,
            wild_rank: wild,
            ..Options::default()
        };
        let wild_text = wild.map(|r| ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"][r as usize]);
        let hand_text = hand.to_string();
        let mut inputs = vec![
            ("hand", hand_text.as_str()),
            ("ace_high", if ace_high { "true" } else { "false" }),
        ];
        if let Some(w) = wild_text {
            inputs.push(("wild", w));
        }
        let why = format!("hand {hand_text} ace_high={ace_high} wild={wild:?}");

        // After the draw: evaluation, discard, declaration.
        ask_in(&mut s, &inputs, &[]);
        let e = evaluate(&hand, &options);
        assert_eq!(
            facts(&s, "deadwood"),
            vec![vec![
                Value::Int(e.min_deadwood_cards() as i64),
                Value::Int(e.min_deadwood_points() as i64)
            ]],
            "{why}"
        );
        assert_eq!(
            facts(&s, "arrangements"),
            vec![vec![Value::Int(e.maximal_count() as i64)]],
            "{why}"
        );
        let best = best_discard(&hand, &options).expect("a card to discard");
        let discard = facts(&s, "discard");
        assert_eq!(discard.len(), 1, "{why}");
        assert_eq!(text(&discard[0][0]), best.card.to_string(), "{why}");
        assert_eq!(discard[0][1], Value::Int(best.min_cards as i64), "{why}");
        assert_eq!(discard[0][2], Value::Int(best.min_points as i64), "{why}");
        let out = go_out(&hand, &options);
        let declare = facts(&s, "declare");
        assert_eq!(declare.len(), 1, "{why}: {declare:?}");
        if out.can_go_out() {
            outs += 1;
            assert_eq!(text(&declare[0][0]), "go out", "{why}");
            assert_eq!(text(&declare[0][1]), card_text(out.discard), "{why}");
        } else {
            assert_eq!(text(&declare[0][0]), "not yet", "{why}");
        }

        // Before the draw: take the discard-pile card or draw.
        let top = loop {
            let c = deck[rng.random_range(0..deck.len())];
            if hand.count(c) < 2 {
                break c;
            }
        };
        let top_text = top.to_string();
        inputs.push(("discard_top", top_text.as_str()));
        ask_in(&mut s, &inputs, &[]);
        let advice = take_advice(&hand, top, &options, 5).expect("top is no third copy");
        if advice.take {
            takes += 1;
            assert_eq!(
                facts(&s, "take"),
                vec![vec![Value::str(&top_text), Value::str(&card_text(advice.discard))]],
                "{why} top {top_text}"
            );
            assert_eq!(
                facts(&s, "discard"),
                vec![vec![
                    Value::str(&card_text(advice.discard)),
                    Value::Int(advice.after_cards as i64),
                    Value::Int(advice.after_points as i64)
                ]],
                "{why} top {top_text}"
            );
        } else {
            draws += 1;
            assert_eq!(
                facts(&s, "draw"),
                vec![vec![Value::str("stock")]],
                "{why} top {top_text}"
            );
            assert!(facts(&s, "take").is_empty(), "{why} top {top_text}");
        }
    }
    // The sample exercises every branch.
    assert!(
        takes > 20 && draws > 20 && outs > 3,
        "takes {takes}, draws {draws}, go-outs {outs}"
    );
}

// ---- notation -----------------------------------------------------------------------------------

#[test]
fn notation_errors_name_the_token() {
    let mut s = session();
    let err = |s: &mut Session, k: &str, v: &str| s.set_input_text(k, v).unwrap_err().to_string();
    assert!(err(&mut s, "hand", "2H 3X").contains("`3X`: unknown suit X"));
    assert!(err(&mut s, "hand", "2H 1H").contains("`1H`: unknown rank 1"));
    assert!(err(&mut s, "hand", "2H2H2H").contains("2H appears 3 times (the deck has 2)"));
    assert!(err(&mut s, "hand", "JK JK JK JK JK").contains("JK appears 5 times (the deck has 4)"));
    assert!(err(&mut s, "hand", "").contains("needs 1 to 108 cards, got 0"));
    assert!(err(&mut s, "discard_top", "4H 5H").contains("expected one card, got 2"));
    assert!(err(&mut s, "wild", "11").contains("not a rank"));
    // The original compact notation, 10 and suit symbols are read.
    s.set_input_text("hand", "10H J♥ q♥ 2h3h4h").unwrap();
    s.set_input_text("wild", "10").unwrap();
    s.set_input_text("discard_top", "jk").unwrap();
    s.run().unwrap();
    assert_eq!(
        facts(&s, "hand"),
        vec![vec![Value::str("2H 3H 4H TH JH QH")]],
        "the hand is stored in canonical order"
    );
}

#[test]
fn a_third_copy_on_the_discard_pile_is_refused() {
    let mut s = session();
    s.set_input_text("hand", "4H 4H 5S").unwrap();
    s.set_input_text("discard_top", "4H").unwrap();
    let e = s.run().unwrap_err().to_string();
    assert!(e.contains("4H appears more than twice"), "{e}");
}

// ---- benchmark ----------------------------------------------------------------------------------

#[test]
fn quick_bench_prints_the_figures() {
    let workloads = kibitzer::games::harness::workloads();
    let w = workloads.iter().find(|w| w.name == "rummy").expect("bench rummy");
    let mut lines = Vec::new();
    (w.run)(
        &kibitzer::games::harness::BenchOptions {
            load: |name| kibitzer::load_any(name).map_err(|e| e.to_string()),
            quick: true,
            args: Vec::new(),
        },
        &mut |l: &str| lines.push(l.to_string()),
    )
    .unwrap();
    let last = lines.last().expect("lines");
    for name in [
        "random_hands_per_s=",
        "island_hands_per_s=",
        "worst_ms=",
        "incremental_speedup=",
        "rules_queries_per_s=",
        "cores=",
    ] {
        assert!(last.contains(name), "{last}");
    }
}
