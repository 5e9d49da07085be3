//! Generated joins (`engine::compiled`, `engine::codegen`): the shipped durak and stud modules
//! are the code their rules generate now, durak's is in use, and every query runs with it exactly
//! as on the matcher alone — the same facts, the same firings with the same bindings and matched facts, the same
//! statistics (activations, dropped ones, built-in calls, what-ifs), the same explanations and
//! the same errors — on random hands, positions and parameters, including parameters that make
//! the generated arithmetic hand its step back to the matcher (decimals, overflows, a failing
//! built-in).

use expect_test::expect_file;
use kibitzer::games::durak::{sample_hands, sample_positions, GameOptions, RulePlayer, Suit};
use kibitzer::library::{registry, shipped_names};
use kibitzer::{load_shipped, Program, RunOptions, Session};
use proptest::prelude::*;
use std::fmt::Write;
use std::sync::Arc;

const DURAK: &str = include_str!("../rules/durak.rules");
const STUD: &str = include_str!("../rules/stud.rules");

/// Durak's rule text loaded with or without the binary's generated joins.
fn load(text: &str, compiled: bool) -> Arc<Program> {
    load_as("durak", text, compiled)
}

/// `text` loaded as the shipped rule file `name` with or without the binary's generated joins.
fn load_as(name: &str, text: &str, compiled: bool) -> Arc<Program> {
    let reg = match compiled {
        true => registry().clone(),
        false => registry().clone().without_compiled(),
    };
    let no_includes = |_: &str, p: &str| -> Result<(String, String), String> { Err(format!("no include {p}")) };
    let file = format!("<shipped>/{name}.rules");
    let program =
        kibitzer::lang::load(&file, text, &no_includes, &reg, &shipped_names()).unwrap_or_else(|e| panic!("{e}"));
    Arc::new(program)
}

/// The shipped durak rules with generated joins, and on the matcher alone.
fn both() -> (Arc<Program>, Arc<Program>) {
    both_of("durak", DURAK)
}

/// A shipped rule set with its generated joins, and on the matcher alone.
fn both_of(name: &str, text: &str) -> (Arc<Program>, Arc<Program>) {
    let compiled = load_shipped(name).expect("the shipped rules load");
    assert!(
        compiled.compiled.is_some(),
        "the shipped {name} rules run their generated joins"
    );
    let plain = load_as(name, text, false);
    assert!(plain.compiled.is_none());
    (compiled, plain)
}

/// Everything a run leaves to be seen: its result or error, statistics, trace, every firing's
/// rule, bindings and matched facts, every fact, and the explanation of every conclusion.
fn snapshot(s: &mut Session, result: Option<Result<kibitzer::RunResult, kibitzer::RunError>>) -> String {
    let mut out = String::new();
    let result = match result {
        Some(Ok(mut r)) => {
            r.stats.micros = 0;
            format!("{r:?}")
        }
        Some(Err(e)) => return format!("error: {e}"),
        None => "(run by a player)".to_string(),
    };
    let _ = writeln!(out, "{result}");
    out.push_str(&s.transcript());
    out
}

/// Runs one query on both programs and returns the two snapshots.
fn run_both(
    programs: &(Arc<Program>, Arc<Program>),
    inputs: &[(&str, String)],
    params: &[(&str, &str)],
) -> [String; 2] {
    [&programs.0, &programs.1].map(|p| {
        let mut s = Session::new(p.clone());
        s.set_options(RunOptions {
            trace: true,
            ..RunOptions::default()
        });
        for (k, v) in params {
            s.set_param(k, v).unwrap_or_else(|e| panic!("--param {k}={v}: {e}"));
        }
        for (k, v) in inputs {
            s.set_input_text(k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
        }
        let result = s.run();
        snapshot(&mut s, Some(result))
    })
}

/// Parameter sets: the defaults, the seed's literal code, decimals that are not sums of powers of two,
/// an overflow in a trump's total, a rank value that is not a number (a failing built-in), and
/// zeros.
const PARAMS: &[&[(&str, &str)]] = &[
    &[],
    &[("same_rank_bonus_scale", "1")],
    &[
        ("hand_size_target", "0.3"),
        ("same_rank_bonus", "[0, 0, 0.1, 0.7, 1.3]"),
    ],
    &[("trump_bonus", "9223372036854775000")],
    &[("rank_values", "[-6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6.5]")],
    &[
        ("suit_balance_penalty", "0"),
        ("hand_size_target", "1"),
        ("rank_multiplier", "0"),
    ],
    &[
        ("hand_size_penalty", "-4611686018427387904"),
        ("suit_balance_penalty", "9223372036854775807"),
    ],
];

fn hand_inputs(hand: &str, trump: Suit, stock: usize, sizes: &[usize]) -> Vec<(&'static str, String)> {
    vec![
        ("hand", hand.to_string()),
        ("trump", trump.letter().to_string()),
        ("stock", stock.to_string()),
        (
            "hands",
            sizes.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(","),
        ),
    ]
}

/// The module built into the binary is the one the shipped rules generate: after a rule edit this
/// shows the new code as a diff (`UPDATE_EXPECT=1 cargo test` writes it), and until then the
/// rules run on the matcher alone (the digest no longer matches).
#[test]
fn the_modules_are_generated_from_the_shipped_rules() {
    let generated = kibitzer::engine::codegen::generate(&load(DURAK, false));
    expect_file!["../src/games/durak/compiled.rs"].assert_eq(&generated.text);
    assert!(generated.joins >= 10, "{} joins", generated.joins);
    let generated = kibitzer::engine::codegen::generate(&load_as("stud", STUD, false));
    expect_file!["../src/games/stud/compiled.rs"].assert_eq(&generated.text);
    assert!(generated.joins >= 10, "{} joins", generated.joins);
    // Stud's module is built into the library's own tests only (`games::stud`): there it is
    // checked against the matcher.
    assert!(load_shipped("durak").unwrap().compiled.is_some());
}

/// Hand values on random hands under every parameter set: identical runs.
#[test]
fn hand_values_run_as_on_the_matcher() {
    let programs = both();
    let mut errors = 0;
    for (i, params) in PARAMS.iter().enumerate() {
        for (hand, trump, stock, sizes) in sample_hands(300, 40 + i as u64) {
            let inputs = hand_inputs(&hand.to_string(), trump, stock, &sizes);
            let [compiled, plain] = run_both(&programs, &inputs, params);
            assert_eq!(compiled, plain, "params {params:?} inputs {inputs:?}");
            errors += usize::from(compiled.starts_with("error"));
        }
    }
    // The overflow and the failing built-in do raise errors (on hands with a trump, with a
    // card of the bad rank): the hand-over path is exercised, not only the fast one.
    assert!(errors > 100, "{errors} errors");
}

/// Attack, throw-in, defence, take and transfer decisions in positions from real games, with
/// their what-ifs: identical runs, and the players decide alike.
#[test]
fn decisions_run_as_on_the_matcher() {
    let (compiled, plain) = both();
    let mut with = RulePlayer::new(compiled, "durak");
    let mut without = RulePlayer::new(plain, "durak");
    let mut positions = 0;
    for options in [
        GameOptions::default(),
        GameOptions {
            players: 3,
            transfer: true,
            ..GameOptions::default()
        },
    ] {
        for (view, legal) in sample_positions(3, &options) {
            let a = with.decide(&view, &legal).map_err(|e| e.to_string());
            let b = without.decide(&view, &legal).map_err(|e| e.to_string());
            assert_eq!(a, b, "view {view:?}");
            assert_eq!(
                snapshot(with.session(), None),
                snapshot(without.session(), None),
                "view {view:?}"
            );
            positions += 1;
        }
    }
    assert!(positions > 100, "{positions} positions");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Any hand of up to 16 distinct cards of the 52-card deck, any trump, stock and hand sizes,
    /// any parameter set: identical runs.
    #[test]
    fn any_hand_runs_as_on_the_matcher(
        cards in proptest::sample::subsequence((0usize..52).collect::<Vec<_>>(), 0..=16),
        trump in 0usize..4,
        stock in 0usize..30,
        others in proptest::collection::vec(0usize..12, 0..4),
        params in 0..PARAMS.len(),
    ) {
        let programs = both();
        let ranks = "23456789TJQKA";
        let hand: Vec<String> = cards
            .iter()
            .map(|i| format!("{}{}", &ranks[i / 4..i / 4 + 1], ["S", "H", "D", "C"][i % 4]))
            .collect();
        let mut sizes = vec![hand.len()];
        sizes.extend(others);
        let trump = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs][trump];
        let mut inputs = hand_inputs(&hand.join(" "), trump, stock, &sizes);
        inputs.push(("deck", "52".to_string()));
        let [compiled, plain] = run_both(&programs, &inputs, PARAMS[params]);
        prop_assert_eq!(compiled, plain);
    }
}

/// Code generated from other rules is not attached: a rule set whose rules differ (one constant
/// changed) runs on the matcher, and answers by its own rules.
#[test]
fn code_from_other_rules_is_not_used() {
    let edited = DURAK.replacen("?total = ?v + trump_bonus", "?total = ?v + trump_bonus + 1", 1);
    assert_ne!(edited, DURAK);
    let program = load(&edited, true);
    assert!(
        program.compiled.is_none(),
        "the edited rules must not run the shipped code"
    );
    let mut s = Session::new(program);
    for (k, v) in hand_inputs("9D 7C", Suit::Diamonds, 12, &[2, 6]) {
        s.set_input_text(k, &v).unwrap();
    }
    s.run().unwrap();
    let shipped = run_both(&both(), &hand_inputs("9D 7C", Suit::Diamonds, 12, &[2, 6]), &[]);
    let value = |text: &str| text.lines().find(|l| l.starts_with("hand_value(")).map(str::to_string);
    let edited_value = s.facts_of("hand_value")[0][0].as_int().unwrap();
    let shipped_value: i64 = value(&shipped[0])
        .and_then(|l| l.trim_start_matches("hand_value(").trim_end_matches(')').parse().ok())
        .unwrap();
    assert_eq!(edited_value, shipped_value + 1);
    // A rule set of another name does not take durak's code either.
    let renamed = DURAK.replacen("ruleset durak ", "ruleset durak2 ", 1);
    assert!(load(&renamed, true).compiled.is_none());
}
