//! Dou dizhu endgame through the shipped rules: every rule of
//! `rules/doudizhu.rules` fired by some query, the kicker cases of the move set pinned with their
//! reasons, and the solver (alone and through the rules) against a plain minimax written here (no
//! pruning, no table) on random small positions. The explained answers to the original article's puzzles and
//! the hard puzzle are pinned in `rules/doudizhu.cases.toml`.

use kibitzer::games::doudizhu::{
    classify, legal_leads, legal_responses, parse_hand, parse_play, solve, Budget, Hand, Outcome, Play, PlayKind, Rules,
};
use kibitzer::Explainer;
use kibitzer::{load_shipped, Session};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::process::Command;

const P1_FARMER: &str = "3 3 3 3 4 5 6 7 T T A A A A";
const P1_LANDLORD: &str = "BJ RJ J J 9 9 9";
const P2_FARMER: &str = "8 8 9 9 T T Q Q Q K K K 2";
const P2_LANDLORD: &str = "J J A A";
const HARD_ME: &str = "4 4 8 9 9 9 T J J Q Q A RJ";
const HARD_ENEMY: &str = "3 3 6 6 8 8 T A A 2 2 BJ";

fn session() -> Session {
    Session::new(load_shipped("doudizhu").expect("the shipped doudizhu rules load"))
}

/// Runs a query (inputs, then `--param` overrides) and returns every conclusion as `rel(args)`.
fn ask_in(s: &mut Session, inputs: &[(&str, &str)], params: &[(&str, &str)]) -> Vec<String> {
    s.reset();
    for (k, v) in params {
        s.set_param(k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
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

/// The rules of the decision that fired, in order (`MoveOptions`, which lists every move's
/// verdict after the decision, is tested on its own).
fn fired(inputs: &[(&str, &str)], params: &[(&str, &str)]) -> Vec<String> {
    let mut s = session();
    s.set_options(kibitzer::RunOptions {
        firing_limit: 10_000,
        trace: true,
        ..kibitzer::RunOptions::default()
    });
    ask_in(&mut s, inputs, params);
    Explainer::new(&s)
        .trace_text()
        .into_iter()
        .filter(|l| l.starts_with("FIRE"))
        .map(|l| l.split_whitespace().nth(2).unwrap_or("").to_string())
        .filter(|r| r != "MoveOptions")
        .collect()
}

#[test]
fn every_legal_move_gets_its_verdict_and_a_losing_one_its_refutation() {
    let inputs = [("me", "3 3 4 5"), ("enemy", "K 2")];
    let c = ask(&inputs, &[]);
    let options: Vec<&String> = c.iter().filter(|x| x.starts_with("option(")).collect();
    // The legal leads of 3 3 4 5: 3, 4, 5 and 3 3; the play chosen ranks first.
    assert_eq!(options.len(), 4, "{options:?}");
    assert!(
        has(
            &c,
            r#"option("play", 1, "3 3", "pair, lose: the enemy passes and still wins")"#
        ),
        "{c:?}"
    );
    assert!(
        has(
            &c,
            r#"option("play", 2, "3", "single, lose: the enemy answers K (single) and wins")"#
        ),
        "{c:?}"
    );
    // A won position: the winning move first, passing refuted by the enemy's lead.
    let c = ask(&[("me", "5 5 3 BJ RJ"), ("enemy", "4 4 6 7"), ("last", "4 4")], &[]);
    assert!(
        c.iter()
            .any(|x| x.starts_with(r#"option("play", 1, "5 5", "pair, win"#)),
        "{c:?}"
    );
    // No budget, no verdicts; a budget too small to decide leaves moves unknown.
    let c = ask(&inputs, &[("option_nodes", "0")]);
    assert!(!c.iter().any(|x| x.starts_with("option(")), "{c:?}");
    let c = ask(
        &[("me", P1_FARMER), ("enemy", P1_LANDLORD)],
        &[("option_nodes", "1"), ("variant", "seed")],
    );
    assert!(
        c.iter().any(|x| x.contains("unknown: the search budget ran out")),
        "{c:?}"
    );
}

fn has(conclusions: &[String], wanted: &str) -> bool {
    conclusions.iter().any(|c| c == wanted)
}

const SEED: &[(&str, &str)] = &[("variant", "seed")];
const HARD: &[(&str, &str)] = &[("pair_chains", "false"), ("airplanes", "false")];

// ---- every rule fires somewhere ------------------------------------------------------------------

#[test]
fn go_out_needs_no_search() {
    let inputs = [("me", "3 4 5 6 7"), ("enemy", "RJ")];
    assert_eq!(fired(&inputs, &[]), ["Deal", "GoOut"]);
    // Answering: the whole hand must beat the play on the table.
    let c = ask(&[("me", "Q Q Q 3"), ("enemy", "RJ"), ("last", "J J J 4")], &[]);
    assert!(has(&c, r#"play("3 Q Q Q", "trio with single")"#), "{c:?}");
    let f = fired(&[("me", "9 9 9 3"), ("enemy", "RJ"), ("last", "J J J 4")], &[]);
    assert!(!f.contains(&"GoOut".to_string()), "{f:?}");
}

#[test]
fn a_bomb_on_the_table_play_wins_and_cannot_be_answered() {
    let inputs = [("me", "3 3 3 3 4"), ("enemy", "A"), ("last", "2")];
    assert_eq!(
        fired(&inputs, &[]),
        ["Deal", "Solve", "Win", "Unanswerable", "WinningBomb"]
    );
}

#[test]
fn forced_pass_that_still_wins() {
    // Nothing beats the A; after the pass the enemy must lead 3 or Q and a K takes over.
    let inputs = [("me", "K K"), ("enemy", "3 Q"), ("last", "A")];
    assert_eq!(fired(&inputs, &[]), ["Deal", "Solve", "MustPass", "WinByPassing"]);
}

#[test]
fn passing_when_lost() {
    let inputs = [("me", "3 4"), ("enemy", "5"), ("last", "2")];
    assert_eq!(fired(&inputs, &[]), ["Deal", "Solve", "MustPass", "LoseByPassing"]);
    // The 2 could go on the K: the small joker beats it and A A goes out; passing loses as
    // fast. Both last four turns, and the play comes first in search order.
    let inputs = [("me", "3 2"), ("enemy", "A A BJ"), ("last", "K")];
    assert_eq!(fired(&inputs, &[]), ["Deal", "Solve", "HoldOut"]);
    assert!(has(&ask(&inputs, &[]), r#"play("2", "single")"#));
}

#[test]
fn a_hold_out_past_the_line_budget_is_only_the_longest_found() {
    // Puzzle 1 under the original rules: 200,000 line positions do not measure every line, so the
    // answer claims only the longest hold-out found; 5,000,000 prove the longest (24 turns, the
    // lone ace first).
    let inputs = [("me", P1_FARMER), ("enemy", P1_LANDLORD)];
    let f = fired(&inputs, SEED);
    assert!(
        f.contains(&"HoldOutFound".to_string()) && !f.contains(&"HoldOut".to_string()),
        "{f:?}"
    );
    let proven: Vec<(&str, &str)> = SEED.iter().copied().chain([("line_nodes", "5000000")]).collect();
    let f = fired(&inputs, &proven);
    assert!(
        f.contains(&"HoldOut".to_string()) && !f.contains(&"HoldOutFound".to_string()),
        "{f:?}"
    );
    let c = ask(&inputs, &proven);
    assert!(has(&c, r#"play("A", "single")"#), "{c:?}");
    let line = c.iter().find(|x| x.starts_with("line(")).expect("a line");
    assert_eq!(line.matches("\", \"").count() + 1, 24, "{line}");
    // Passing when lost, with no line measuring at all (`line_nodes=0`).
    let inputs = [("me", "3 4"), ("enemy", "5"), ("last", "2")];
    assert_eq!(
        fired(&inputs, &[("line_nodes", "0")]),
        ["Deal", "Solve", "MustPass", "LoseByPassingFound"]
    );
}

#[test]
fn hold_out_longest_when_lost() {
    // Any single of ours is beaten and the enemy's other single leaves: four turns. Leading
    // the pair 3 3 first (the enemy has no pair) makes it six.
    let inputs = [("me", "3 3 4 5"), ("enemy", "K 2")];
    let c = ask(&inputs, &[]);
    assert!(has(&c, r#"play("3 3", "pair")"#), "{c:?}");
    assert_eq!(fired(&inputs, &[]), ["Deal", "Solve", "HoldOut"]);
}

#[test]
fn the_enemy_bombs_are_named() {
    let inputs = [("me", "3 4 5"), ("enemy", "6 6 6 6 7")];
    let f = fired(&inputs, &[]);
    assert!(f.contains(&"EnemyBombs".to_string()), "{f:?}");
    let c = ask(&inputs, &[]);
    assert!(
        has(
            &c,
            r#"note("the enemy's bombs (6 6 6 6) take the lead back from any play but a higher bomb or the rocket")"#
        ),
        "{c:?}"
    );
}

#[test]
fn my_rocket_is_the_last_word() {
    // 5 5 cannot be beaten; then the 3, and the rocket wins back the lead if the enemy beats it.
    let inputs = [("me", "5 5 3 BJ RJ"), ("enemy", "4 4 6 7")];
    let f = fired(&inputs, &[]);
    assert!(f.contains(&"RocketEnds".to_string()), "{f:?}");
    assert!(has(&ask(&inputs, &[]), r#"outcome("win")"#));
}

#[test]
fn unknown_within_budget() {
    let inputs = [("me", HARD_ME), ("enemy", HARD_ENEMY)];
    let params = [("pair_chains", "false"), ("airplanes", "false"), ("max_nodes", "50")];
    assert_eq!(fired(&inputs, &params), ["Deal", "Solve", "Unknown"]);
    let c = ask(&inputs, &params);
    assert!(
        has(&c, r#"outcome("unknown")"#) && !c.iter().any(|x| x.starts_with("play(")),
        "{c:?}"
    );
}

/// A search whose deadline has passed stops at once with `unknown` and no play, and that cut
/// answer is not remembered for the next query of the same position; a run past its deadline
/// stops with no play either.
#[test]
fn a_passed_deadline_answers_unknown_and_is_not_remembered() {
    use kibitzer::{Solutions, Value};
    let solve = kibitzer::library::registry().get("doudizhu.solve").expect("the solver");
    let switches = Value::list([true, true, true, false, false].map(Value::Bool));
    let args = [
        Value::str(HARD_ME),
        Value::str(HARD_ENEMY),
        Value::str(""),
        switches,
        Value::str("standard"),
        Value::Int(200_000_000),
        Value::Int(1024),
        Value::Int(0),
    ];
    let mut out = Solutions::new(9);
    {
        let _deadline = kibitzer::with_deadline(Some(std::time::Duration::ZERO));
        let args: Vec<&Value> = args.iter().collect();
        solve.call(&args, &mut out).expect("an unknown answer, not an error");
    }
    assert_eq!(out.row(0)[0].to_string(), "\"unknown\"");
    // The limit that stopped it is named: the timeout, not the node budget it never reached.
    let why = out.row(0)[4].to_string();
    assert!(why.contains("stopped at the run's deadline (`timeout`) after"), "{why}");
    assert!(!why.contains("raise max_nodes"), "{why}");
    let inputs = [("me", HARD_ME), ("enemy", HARD_ENEMY)];
    let mut s = session();
    s.set_options(kibitzer::RunOptions {
        timeout: Some(std::time::Duration::ZERO),
        ..kibitzer::RunOptions::default()
    });
    let c = ask_in(&mut s, &inputs, HARD);
    assert!(!c.iter().any(|x| x.starts_with("play(")), "{c:?}");
    assert!(has(&ask(&inputs, HARD), r#"outcome("win")"#));
}

#[test]
fn legal_moves_are_listed_on_demand() {
    let inputs = [("me", "3 3 4 4 5 5 2"), ("enemy", "K"), ("last", "4 4")];
    let params = [("show_legal", "true")];
    let c = ask(&inputs, &params);
    let legal: Vec<&String> = c.iter().filter(|x| x.starts_with("legal(")).collect();
    assert_eq!(
        legal,
        [r#"legal("5 5", "pair")"#, r#"legal("pass", "pass")"#],
        "only 5 5 beats 4 4; passing is allowed"
    );
    let f = fired(&inputs, &params);
    assert!(f.contains(&"Legal".to_string()) && f.contains(&"LegalPass".to_string()));
    // Leading: every play of the hand, passing not allowed.
    let c = ask(&[("me", "3 3 4"), ("enemy", "K")], &params);
    let legal: Vec<&String> = c.iter().filter(|x| x.starts_with("legal(")).collect();
    assert_eq!(
        legal,
        [
            r#"legal("3", "single")"#,
            r#"legal("4", "single")"#,
            r#"legal("3 3", "pair")"#
        ]
    );
    // Off by default.
    assert!(!ask(&inputs, &[]).iter().any(|x| x.starts_with("legal(")));
}

#[test]
fn variants_change_the_legal_moves() {
    let inputs = [("me", "3 3 3 4 4"), ("enemy", "K")];
    // Standard: the whole hand is a trio with pair and goes out.
    assert!(has(&ask(&inputs, &[]), r#"play("3 3 3 4 4", "trio with pair")"#));
    for params in [vec![("three_two", "false")], vec![("variant", "seed")]] {
        let c = ask(&inputs, &params);
        assert!(!c.iter().any(|x| x.contains("trio with pair")), "{params:?}: {c:?}");
    }
}

// ---- errors ---------------------------------------------------------------------------------------

fn cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kibitzer"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bad_positions_are_one_line_errors() {
    let cases: &[(&[&str], &str)] = &[
        (&["me=3 3 X", "enemy=4"], "`X`: unknown rank"),
        (&["me=3 3 3 3 4", "enemy=3"], "`3`: a fifth copy of this rank"),
        (&["me=3 3", "enemy=4", "last=3 4"], "these cards do not form one play"),
        (&["me=BJ BJ", "enemy=4"], "a second joker"),
        (&["me=", "enemy=4"], "me needs 1 to 20 cards, got 0"),
        (
            &["me=3", "enemy=4", "--param", "variant=house"],
            "parameter `variant` must be one of \"standard\", \"original\", \"seed\", got `house`",
        ),
        (&["me=3", "enemy=4", "--param", "airplanes=sometimes"], "airplanes"),
    ];
    for (args, wanted) in cases {
        let mut all = vec!["ask", "doudizhu"];
        all.extend_from_slice(args);
        let (code, _, err) = cli(&all);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(wanted), "{args:?}: {err}");
    }
}

#[test]
fn json_answers_the_seed_puzzles() {
    let (code, out, err) = cli(&[
        "ask",
        "doudizhu",
        "--json",
        &format!("me={P2_FARMER}"),
        &format!("enemy={P2_LANDLORD}"),
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    let conclusions = v["conclusions"].as_array().expect("conclusions");
    let find = |rel: &str| {
        conclusions
            .iter()
            .find(|c| c["relation"] == rel)
            .map(|c| c["args"].clone())
    };
    assert_eq!(find("outcome"), Some(serde_json::json!(["win"])));
    let play = find("play").expect("a play");
    let cards = play[0].as_str().expect("cards");
    assert!(
        play[1]
            .as_str()
            .is_some_and(|k| k.contains("airplane") || k.contains("pair chain")),
        "{play}"
    );
    // The recommended play wins by force (checked by the plain minimax below).
    let me = parse_hand(P2_FARMER).unwrap();
    let enemy = parse_hand(P2_LANDLORD).unwrap();
    let p = parse_play(cards, &Rules::default()).unwrap();
    assert!(!plain_wins(enemy, minus(me, p.cards), Some(p), &Rules::default()));
    assert!(find("line").is_some_and(|l| l[0].as_array().is_some_and(|a| a.len() >= 3)));
    assert!(find("searched").is_some_and(|n| n[0].as_i64().is_some_and(|n| n > 0)));
}

// ---- the move set's kicker cases (RLCard's rules), each with its reason ---------------------------

fn kinds_of(hand: &str) -> Vec<(String, PlayKind)> {
    legal_leads(parse_hand(hand).unwrap(), &Rules::default())
        .into_iter()
        .map(|p| (p.to_string(), p.kind))
        .collect()
}

fn leads(hand: &str, kind: PlayKind) -> Vec<String> {
    kinds_of(hand)
        .into_iter()
        .filter(|(_, k)| *k == kind)
        .map(|(c, _)| c)
        .collect()
}

#[test]
fn kicker_cases() {
    // Airplane single wings never hold three of a rank next to the chain: 3 3 3 4 4 4 5 5 5 with
    // 6 6 6 as wings is the longer bare airplane, not an airplane with singles; two 5s next to the
    // chain are fine (a pair split as two wings).
    let w = leads("3 3 3 4 4 4 5 5 5 6 6 6", PlayKind::AirplaneSingles);
    assert!(!w.contains(&"3 3 3 4 4 4 5 5 5 6 6 6".to_string()), "{w:?}");
    assert!(leads("3 3 3 4 4 4 5 5", PlayKind::AirplaneSingles) == ["3 3 3 4 4 4 5 5"]);
    // ... and never the trio's own rank (that would be four of a rank among the cards).
    assert!(!leads("3 3 3 3 4 4 4 5", PlayKind::AirplaneSingles).contains(&"3 3 3 3 4 4 4 5".to_string()));
    // Both jokers never form the two single wings (they are the rocket).
    let w = leads("3 3 3 4 4 4 BJ RJ", PlayKind::AirplaneSingles);
    assert!(w.is_empty(), "{w:?}");
    // Four with two singles never takes both jokers either.
    let w = leads("5 5 5 5 BJ RJ", PlayKind::FourTwoSingles);
    assert!(w.is_empty(), "{w:?}");
    // ... but two singles of one rank (a pair split as two kickers) are fine.
    assert_eq!(leads("5 5 5 5 7 7", PlayKind::FourTwoSingles), ["5 5 5 5 7 7"]);
    // Four with two pairs needs two pairs of different ranks: 7 7 7 7 as two pairs is refused.
    assert!(leads("5 5 5 5 7 7 7 7", PlayKind::FourTwoPairs).is_empty());
    assert_eq!(leads("5 5 5 5 7 7 8 8", PlayKind::FourTwoPairs), ["5 5 5 5 7 7 8 8"]);
    // Airplane pair wings are pairs of distinct ranks.
    assert!(leads("3 3 3 4 4 4 9 9 9 9", PlayKind::AirplanePairs).is_empty());
    // Chains stop at the ace: 2 and the jokers never join a chain.
    assert!(leads("J Q K A 2", PlayKind::Straight).is_empty());
    assert!(leads("K K A A 2 2", PlayKind::PairChain).is_empty());
    // Answers: same type and length, higher; bombs and the rocket beat other types.
    let last = parse_play("3 4 5 6 7", &Rules::default()).unwrap();
    let answers: Vec<String> = legal_responses(parse_hand("4 5 6 7 8 9 9 9 9").unwrap(), &last, &Rules::default())
        .iter()
        .map(|p| p.to_string())
        .collect();
    assert_eq!(answers, ["4 5 6 7 8", "5 6 7 8 9", "9 9 9 9"]);
    // Classification picks the play the cards form under the rules in force.
    let cards = parse_hand("3 3 3 4 4").unwrap();
    assert_eq!(
        classify(cards, &Rules::default()).map(|p| p.kind),
        Some(PlayKind::TrioPair)
    );
    assert_eq!(classify(cards, &Rules::original()), None);
}

// ---- the solver against plain minimax --------------------------------------------------------------

fn minus(a: Hand, b: Hand) -> Hand {
    let (x, y) = (a.counts(), b.counts());
    let mut c = [0u8; 15];
    for i in 0..15 {
        c[i] = x[i] - y[i];
    }
    Hand::from_counts(&c).expect("a sub-hand")
}

/// Minimax with no pruning and no table: can the side to move force a win?
fn plain_wins(me: Hand, opp: Hand, last: Option<Play>, r: &Rules) -> bool {
    for p in legal_leads(me, r) {
        if last.is_some_and(|l| !p.beats(&l)) {
            continue;
        }
        let rest = minus(me, p.cards);
        if rest.is_empty() || !plain_wins(opp, rest, Some(p), r) {
            return true;
        }
    }
    last.is_some() && !plain_wins(opp, me, None, r)
}

fn hand_of(cards: &[u8]) -> Hand {
    let mut c = [0u8; 15];
    for &r in cards {
        c[r as usize] += 1;
    }
    Hand::from_counts(&c).expect("from one deck")
}

fn random_rules(rng: &mut ChaCha8Rng) -> Rules {
    if rng.random_bool(0.5) {
        return Rules::default();
    }
    Rules {
        three_one: rng.random_bool(0.5),
        three_two: rng.random_bool(0.5),
        four_two: rng.random_bool(0.5),
        pair_chains: rng.random_bool(0.5),
        airplanes: rng.random_bool(0.5),
    }
}

/// Hands of 1..=max cards from one deck; half the time a play of the rules in force to answer.
fn random_position(rng: &mut ChaCha8Rng, max: usize) -> (Hand, Hand, Option<Play>, Rules) {
    let r = random_rules(rng);
    let mut deck: Vec<u8> = (0..13u8).flat_map(|x| [x; 4]).collect();
    deck.extend([13, 14]);
    // Dense deals (few ranks) make bombs, chains and kickers common.
    if rng.random_bool(0.5) {
        let lo = rng.random_range(0..8u8);
        deck.retain(|&x| x >= lo && x < lo + 6 || x >= 12);
    }
    deck.shuffle(rng);
    let a = rng.random_range(1..=max);
    let b = rng.random_range(1..=max);
    let me = hand_of(&deck[..a]);
    let opp = hand_of(&deck[a..a + b]);
    let mut last = None;
    if rng.random_bool(0.5) {
        let n = rng.random_range(1..=5).min(deck.len() - a - b);
        let plays = legal_leads(hand_of(&deck[a + b..a + b + n]), &r);
        if !plays.is_empty() {
            last = Some(plays[rng.random_range(0..plays.len())]);
        }
    }
    (me, opp, last, r)
}

#[test]
fn solver_agrees_with_plain_minimax_on_2500_random_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut wins = 0;
    for i in 0..2500 {
        let (me, opp, last, r) = random_position(&mut rng, 6);
        let want = plain_wins(me, opp, last, &r);
        let got = solve(me, opp, last.as_ref(), &r, &Budget::default());
        assert_eq!(
            got.outcome,
            if want { Outcome::Win } else { Outcome::Lose },
            "case {i}: {me} vs {opp}, last {last:?}, {r:?}"
        );
        if want {
            wins += 1;
            // The recommended move wins by force.
            let ok = match got.best {
                None => {
                    assert!(got.pass && last.is_some(), "case {i}");
                    !plain_wins(opp, me, None, &r)
                }
                Some(p) => {
                    let rest = minus(me, p.cards);
                    rest.is_empty() || !plain_wins(opp, rest, Some(p), &r)
                }
            };
            assert!(ok, "case {i}: {me} vs {opp}: recommended {:?} does not win", got.best);
        } else {
            // A lost position still gets a legal recommendation.
            assert!(got.best.is_some() || got.pass, "case {i}");
        }
    }
    assert!((500..2000).contains(&wins), "a balanced sample: {wins} wins");
}

#[test]
fn the_rule_set_agrees_with_plain_minimax() {
    let mut rng = ChaCha8Rng::seed_from_u64(44);
    let mut s = session();
    for i in 0..300 {
        let (me, opp, last, r) = random_position(&mut rng, 5);
        let want = plain_wins(me, opp, last, &r);
        let flag = |b: bool| if b { "true" } else { "false" };
        let params = [
            ("three_one", flag(r.three_one)),
            ("three_two", flag(r.three_two)),
            ("four_two", flag(r.four_two)),
            ("pair_chains", flag(r.pair_chains)),
            ("airplanes", flag(r.airplanes)),
        ];
        let last_text = last.map_or(String::new(), |p| p.to_string());
        let (me_text, opp_text) = (me.to_string(), opp.to_string());
        let inputs = [
            ("me", me_text.as_str()),
            ("enemy", opp_text.as_str()),
            ("last", last_text.as_str()),
        ];
        let c = ask_in(&mut s, &inputs, &params);
        let outcome = if want {
            r#"outcome("win")"#
        } else {
            r#"outcome("lose")"#
        };
        assert!(has(&c, outcome), "case {i}: {inputs:?} {params:?}: {c:?}");
        assert_eq!(
            c.iter().filter(|x| x.starts_with("play(")).count(),
            1,
            "case {i}: {c:?}"
        );
    }
}
