//! Stud through the shipped rules (`docs/stud.md`): hand-made edge cases, all 2,598,960 hands against
//! the native evaluator, showdowns and odds against an oracle written here from the showdown rules,
//! and an edited rule file changing the odds. The explained answers are pinned in `rules/stud.cases.toml`.

use kibitzer::games::stud;
use kibitzer::{load_shipped, load_text, Session};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

const RANKS: &[u8] = b"23456789TJQKA";
const SUITS: &[u8] = b"SHDC";

/// `index = (rank − 2) * 4 + suit`, as the engine and the native module number cards.
fn name(i: u8) -> String {
    format!("{}{}", RANKS[(i / 4) as usize] as char, SUITS[(i % 4) as usize] as char)
}

fn names(cards: &[u8]) -> String {
    cards.iter().map(|&c| name(c)).collect::<Vec<_>>().join(" ")
}

fn session() -> Session {
    Session::new(load_shipped("stud").expect("the shipped stud rules load"))
}

/// Runs a query and returns every conclusion as `relation(args)`.
fn ask(s: &mut Session, inputs: &[(&str, &str)]) -> Vec<String> {
    s.reset();
    for (k, v) in inputs {
        s.set_input_text(k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
    }
    s.run().unwrap_or_else(|e| panic!("{inputs:?}: {e}"));
    s.conclusions().iter().map(|c| c.to_string()).collect()
}

fn category_of(s: &mut Session, hand: &str) -> String {
    ask(s, &[("hand", hand)]).join(" ")
}

// ---- an oracle written here, independent of the rules and of the native evaluator ----

/// (category 1..=9, deciding ranks in comparison order). Smaller category is better.
fn oracle(cards: &[u8; 5]) -> (u8, Vec<u8>) {
    let mut ranks: Vec<u8> = cards.iter().map(|c| c / 4 + 2).collect();
    ranks.sort_unstable_by(|a, b| b.cmp(a));
    let flush = cards.iter().all(|c| c % 4 == cards[0] % 4);
    let mut distinct = ranks.clone();
    distinct.dedup();
    let straight = distinct.len() == 5 && ranks[0] - ranks[4] == 4;
    let count = |r: u8| ranks.iter().filter(|&&x| x == r).count();
    let held = |k: usize| -> Vec<u8> { distinct.iter().copied().filter(|&r| count(r) == k).collect() };
    let mut pattern: Vec<usize> = distinct.iter().map(|&r| count(r)).collect();
    pattern.sort_unstable_by(|a, b| b.cmp(a));
    match (flush, straight, pattern.as_slice()) {
        (true, true, _) => (1, ranks),
        (_, _, [4, 1]) => (2, held(4)),
        (_, _, [3, 2]) => (3, held(3)),
        (true, false, _) => (4, ranks),
        (false, true, _) => (5, ranks),
        (_, _, [3, 1, 1]) => (6, held(3)),
        (_, _, [2, 2, 1]) => (7, [held(2), held(1)].concat()),
        (_, _, [2, 1, 1, 1]) => (8, [held(2), held(1)].concat()),
        _ => (9, ranks),
    }
}

/// 1 if a beats b, 0 on a tie, -1 if b wins.
fn oracle_compare(a: &[u8; 5], b: &[u8; 5]) -> i32 {
    let (ca, ka) = oracle(a);
    let (cb, kb) = oracle(b);
    match cb.cmp(&ca).then(ka.cmp(&kb)) {
        std::cmp::Ordering::Greater => 1,
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Less => -1,
    }
}

// ---- advice -------------------------------------------------------------------------------------

#[test]
fn exactly_one_advice_and_thresholds_are_parameters() {
    let mut s = session();
    let advice = |s: &mut Session, hand: &str, opp: &str| -> Vec<String> {
        ask(s, &[("hand", hand), ("opponent", opp)])
            .into_iter()
            .filter(|c| c.starts_with("advice"))
            .collect()
    };
    assert_eq!(
        advice(&mut s, "2S 3H 5D 7C 9S", "XX KC KD KH 4H"),
        [r#"advice("fold")"#]
    );
    assert_eq!(advice(&mut s, "AS KD QH 7C 4S", "XX XX JC 9D 6H"), [r#"advice("bet")"#]);
    assert_eq!(
        advice(&mut s, "8S TD TS 8H 8C", "XX 3C 5D 4H 6H"),
        [r#"advice("bet big")"#]
    );
    // Equity 1.0 is not above 1.0: with the threshold raised, the advice changes.
    s.set_param("bet_big_above", "1.0")
        .expect("bet_big_above is a parameter");
    assert_eq!(advice(&mut s, "8S TD TS 8H 8C", "XX 3C 5D 4H 6H"), [r#"advice("bet")"#]);
    s.set_param("bet_above", "1.0").expect("bet_above is a parameter");
    assert_eq!(
        advice(&mut s, "8S TD TS 8H 8C", "XX 3C 5D 4H 6H"),
        [r#"advice("either")"#]
    );
}

// ---- hand-made edge cases -----------------------------------------------------------------------

#[test]
fn wheels_and_wraparounds_are_not_straights() {
    let mut s = session();
    // A-2-3-4-5 is ace high, and the answer says why.
    assert_eq!(
        category_of(&mut s, "AS 2H 3D 4C 5S"),
        r#"category(9, "high card") note("A-2-3-4-5 is not a straight in these rules: the ace counts high only (wheel = false)")"#
    );
    assert_eq!(
        category_of(&mut s, "AH 2H 3H 4H 5H"),
        r#"category(4, "flush") note("A-2-3-4-5 is not a straight in these rules: the ace counts high only (wheel = false)")"#
    );
    assert_eq!(category_of(&mut s, "JS QH KD AC 2S"), r#"category(9, "high card")"#);
    assert_eq!(category_of(&mut s, "JD QD KD AD 2D"), r#"category(4, "flush")"#);
    assert_eq!(
        category_of(&mut s, "TS JS QS KS AS"),
        r#"category(1, "straight flush")"#
    );
    assert_eq!(category_of(&mut s, "TS JH QS KS AS"), r#"category(5, "straight")"#);
}

/// One showdown through Rule1–Rule15: my five cards against the opponent's five, all shown.
fn showdown(s: &mut Session, mine: &str, theirs: &str) -> String {
    let answer = ask(s, &[("hand", mine), ("opponent", theirs)]);
    let odds = answer
        .iter()
        .find(|c| c.starts_with("odds("))
        .cloned()
        .unwrap_or_default();
    match odds.as_str() {
        "odds(1, 0, 0, 1.0)" => "win".into(),
        "odds(0, 1, 0, 0.0)" => "tie".into(),
        "odds(0, 0, 1, 0.0)" => "loss".into(),
        other => panic!("{mine} vs {theirs}: {other}"),
    }
}

#[test]
fn ties_are_ties_and_suits_never_break_them() {
    let mut s = session();
    // Same two pair, same kicker.
    assert_eq!(showdown(&mut s, "KS KH 7D 7C 4S", "KD KC 7S 7H 4H"), "tie");
    // Same high cards in other suits.
    assert_eq!(showdown(&mut s, "AS JH 9D 6C 3S", "AH JS 9C 6D 3H"), "tie");
    // Trips decide a full house, whatever the pair.
    assert_eq!(showdown(&mut s, "9S 9H 9D 2C 2S", "8S 8H 8D AC AS"), "win");
    // Two pair: higher pair, then lower pair, then kicker.
    assert_eq!(showdown(&mut s, "KS KH 7D 7C 4S", "KD KC 7S 7H 5H"), "loss");
    assert_eq!(showdown(&mut s, "KS KH 8D 8C 2S", "KD KC 7S 7H AH"), "win");
    // One pair: the pair, then the kickers high to low.
    assert_eq!(showdown(&mut s, "5S 5H AD 9C 3S", "5D 5C AH 9S 2H"), "win");
    // Straights compare from the top; different categories: the better wins.
    assert_eq!(showdown(&mut s, "6S 7H 8D 9C TS", "5D 6C 7S 8H 9H"), "win");
    assert_eq!(showdown(&mut s, "2S 2H 2D 3C 4S", "AD KD QD JD 9D"), "loss");
    // Quads by the quad rank.
    assert_eq!(showdown(&mut s, "3S 3H 3D 3C 4S", "2D 2C 2H 2S AH"), "win");
}

fn index(card: &str) -> u8 {
    let b = card.as_bytes();
    let r = RANKS.iter().position(|&x| x == b[0]).expect("rank") as u8;
    let su = SUITS.iter().position(|&x| x == b[1]).expect("suit") as u8;
    r * 4 + su
}

#[test]
fn a_hidden_five_does_not_make_a_wheel() {
    let mut s = session();
    // The opponent shows A-2-3-4: a 5 in the hole gives him high card, not a straight, so my pair
    // of sixes wins those four deals too.
    let mine: Vec<u8> = ["6S", "6H", "KD", "QC", "JS"].iter().map(|c| index(c)).collect();
    let shown: Vec<u8> = ["AH", "2D", "3C", "4S"].iter().map(|c| index(c)).collect();
    let mine: [u8; 5] = mine.try_into().expect("five");
    let (w, t, l) = oracle_odds(&mine, &shown, 1);
    let answer = ask(&mut s, &[("hand", "6S 6H KD QC JS"), ("opponent", "XX AH 2D 3C 4S")]);
    let p = w as f64 / (w + t + l) as f64;
    assert!(
        answer.contains(&format!("odds({w}, {t}, {l}, {})", kibitzer::Value::Num(p))),
        "{answer:?}"
    );
    // A deuce, three or four in the hole pairs him below my sixes; only the three aces left beat me.
    assert_eq!((w, t, l), (40, 0, 3));
}

// ---- rules against the native evaluator ---------------------------------------------------------

#[test]
fn all_hands_rules_agree_with_native_and_exact_counts() {
    let program = load_shipped("stud").expect("stud loads");
    let results: Vec<([u64; 9], Vec<String>)> = (0u8..48)
        .into_par_iter()
        .map_init(
            || {
                let mut s = Session::new(program.clone());
                s.set_goal(&["category"]);
                s
            },
            |s, a| {
                let mut counts = [0u64; 9];
                let mut mismatches = Vec::new();
                for b in a + 1..52 {
                    for c in b + 1..52 {
                        for d in c + 1..52 {
                            for e in d + 1..52 {
                                let hand = [a, b, c, d, e];
                                let cards =
                                    kibitzer::Cards::new(hand.iter().filter_map(|&i| kibitzer::Card::from_index(i)), 0);
                                s.set_input("hand", kibitzer::Value::Cards(kibitzer::Shared::local(cards)))
                                    .expect("hand");
                                s.run().expect("runs");
                                let cat = s.first_output_arg().and_then(|v| v.as_int()).unwrap_or(0);
                                let native = stud::rank5(hand).category() as i64;
                                if cat != native && mismatches.len() < 5 {
                                    mismatches.push(format!("{}: rules {cat}, native {native}", names(&hand)));
                                }
                                if let Some(slot) = counts.get_mut((cat - 1) as usize) {
                                    *slot += 1;
                                }
                            }
                        }
                    }
                }
                (counts, mismatches)
            },
        )
        .collect();
    let mut counts = [0u64; 9];
    let mut mismatches = Vec::new();
    for (c, m) in results {
        for i in 0..9 {
            counts[i] += c[i];
        }
        mismatches.extend(m);
    }
    assert!(mismatches.is_empty(), "{mismatches:?}");
    assert_eq!(counts, [36, 624, 3744, 5112, 9180, 54912, 123552, 1098240, 1303560]);
}

fn random_pairs(n: usize, seed: u64) -> Vec<([u8; 5], [u8; 5])> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut deck: Vec<u8> = (0..52).collect();
    (0..n)
        .map(|_| {
            deck.shuffle(&mut rng);
            (
                [deck[0], deck[1], deck[2], deck[3], deck[4]],
                [deck[5], deck[6], deck[7], deck[8], deck[9]],
            )
        })
        .collect()
}

fn check_pairs(n: usize) {
    let mut s = session();
    for (a, b) in random_pairs(n, 7) {
        let rules = showdown(&mut s, &names(&a), &names(&b));
        let native = match stud::compare(a, b) {
            std::cmp::Ordering::Greater => "win",
            std::cmp::Ordering::Equal => "tie",
            std::cmp::Ordering::Less => "loss",
        };
        let spec = ["loss", "tie", "win"][(oracle_compare(&a, &b) + 1) as usize];
        assert_eq!((rules.as_str(), native), (spec, spec), "{} vs {}", names(&a), names(&b));
    }
}

#[test]
fn random_showdowns_rules_native_and_oracle_agree() {
    check_pairs(3_000);
}

/// ≥ 1,000,000 random disjoint pairs (minutes in the test profile):
/// `cargo test --release --test stud -- --ignored`.
#[test]
#[ignore]
fn a_million_random_showdowns_agree() {
    check_pairs(1_000_000);
}

// ---- odds against a brute-force oracle ----------------------------------------------------------

/// Every completion of the opponent's `hidden` hole cards from the unseen cards, decided by the
/// oracle: (wins, ties, losses).
fn oracle_odds(mine: &[u8; 5], shown: &[u8], hidden: usize) -> (u64, u64, u64) {
    let unseen: Vec<u8> = (0..52).filter(|c| !mine.contains(c) && !shown.contains(c)).collect();
    let (mut w, mut t, mut l) = (0, 0, 0);
    let mut tally = |extra: &[u8]| {
        let mut theirs = [0u8; 5];
        for (slot, c) in theirs.iter_mut().zip(shown.iter().chain(extra)) {
            *slot = *c;
        }
        match oracle_compare(mine, &theirs) {
            1 => w += 1,
            0 => t += 1,
            _ => l += 1,
        }
    };
    if hidden == 1 {
        for &x in &unseen {
            tally(&[x]);
        }
    } else {
        for i in 0..unseen.len() {
            for j in i + 1..unseen.len() {
                tally(&[unseen[i], unseen[j]]);
            }
        }
    }
    (w, t, l)
}

#[test]
fn odds_through_the_rules_match_the_oracle_on_random_deals() {
    let mut s = session();
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut deck: Vec<u8> = (0..52).collect();
    for case in 0..220 {
        deck.shuffle(&mut rng);
        let mine = [deck[0], deck[1], deck[2], deck[3], deck[4]];
        let hidden = if case % 10 == 0 { 2 } else { 1 };
        let shown = &deck[5..10 - hidden];
        let opponent = format!("{} {}", vec!["XX"; hidden].join(" "), names(shown));
        let answer = ask(&mut s, &[("hand", &names(&mine)), ("opponent", &opponent)]);
        let (w, t, l) = oracle_odds(&mine, shown, hidden);
        let p = w as f64 / (w + t + l) as f64;
        let expected = format!("odds({w}, {t}, {l}, {})", kibitzer::Value::Num(p));
        let got = answer
            .iter()
            .find(|c| c.starts_with("odds("))
            .cloned()
            .unwrap_or_default();
        assert_eq!(got, expected, "{} against {opponent}", names(&mine));
    }
}

#[test]
fn native_path_agrees_with_the_rules_path() {
    let mut s = session();
    let q = [("hand", "AS AD KS KD 2C"), ("opponent", "XX XX 7C 8C 9C")];
    let rules = ask(&mut s, &q);
    s.set_param("odds_path", "native").expect("odds_path is a parameter");
    let native = ask(&mut s, &q);
    let odds = |a: &[String]| a.iter().find(|c| c.starts_with("odds(")).cloned();
    assert_eq!(odds(&rules), odds(&native));
    assert!(native.iter().any(|c| c.contains("native evaluator")), "{native:?}");
    assert!(rules.iter().any(|c| c.contains("Rule1–Rule15")), "{rules:?}");
}

#[test]
fn early_streets_and_multiway_answer_with_their_method() {
    let mut s = session();
    let heads_up = ask(&mut s, &[("hand", "AS KD"), ("opponent", "XX QH")]);
    assert!(
        heads_up.contains(&"odds(1932001906, 185166, 1074333368, 0.6426)".to_string()),
        "{heads_up:?}"
    );
    let three = ask(
        &mut s,
        &[("hand", "AS KD"), ("opponent", "XX QH"), ("opponent2", "XX 7C")],
    );
    let basis = three
        .iter()
        .find(|c| c.starts_with("odds_basis"))
        .cloned()
        .unwrap_or_default();
    assert!(basis.contains("Monte Carlo") && basis.contains("seed 1"), "{basis}");
}

#[test]
fn editing_a_rule_changes_the_odds() {
    let original = kibitzer::library::shipped_text("stud.rules").expect("shipped");
    // A rule author decides straights outrank full houses (category 2).
    let edited = original.replace(r#"assert category(5, "straight")"#, r#"assert category(2, "straight")"#);
    assert_ne!(original, edited);
    let mut s = Session::new(load_text("edited-stud.rules", &edited).expect("the edited copy loads"));
    let answer = ask(&mut s, &[("hand", "8S TD TS 8H 8C"), ("opponent", "XX 3C 5D 4H 6H")]);
    assert!(answer.contains(&"odds(35, 0, 8, 0.814)".to_string()), "{answer:?}");
}

/// The error a query ends with, as text (and whether the run reports it as a bad position).
fn refused(inputs: &[(&str, &str)], params: &[(&str, &str)]) -> (String, bool) {
    refused_by(session(), inputs, params)
}

/// The same with another rule set's session.
fn refused_by(mut s: Session, inputs: &[(&str, &str)], params: &[(&str, &str)]) -> (String, bool) {
    for (k, v) in params {
        s.set_param(k, v).unwrap_or_else(|e| panic!("--param {k}={v}: {e}"));
    }
    for (k, v) in inputs {
        s.set_input_text(k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
    }
    match s.run() {
        Ok(_) => panic!("{inputs:?} {params:?} answered: {:?}", s.conclusions()),
        Err(e) => (e.to_string(), matches!(e, kibitzer::RunError::BadPosition { .. })),
    }
}

/// Settings that mean nothing are refused by name: by the parameters' domains when overridden,
/// and by the built-ins in a copy of the rules without them, on the rules path and the native
/// path alike, instead of an estimate from one random deal or a silent fall-back to `auto`.
#[test]
fn odds_settings_that_mean_nothing_are_refused() {
    let mut s = session();
    let e = s.set_param("samples", "0").expect_err("outside the domain");
    assert_eq!(
        e.to_string(),
        "parameter `samples` must be within 1..1000000000, got `0`"
    );
    let e = s.set_param("odds_path", "bogus").expect_err("outside the domain");
    assert!(
        e.to_string().contains(r#"must be one of "rules", "native", "auto""#),
        "{e}"
    );
    let original = kibitzer::library::shipped_text("stud.rules").expect("shipped");
    let open = original
        .replace("in 1..1000000000 ", "")
        .replace(r#"in ["rules", "native", "auto"] "#, "");
    assert_ne!(original, open);
    let program = load_text("open-stud.rules", &open).expect("the copy loads");
    let refused =
        |inputs: &[(&str, &str)], params: &[(&str, &str)]| refused_by(Session::new(program.clone()), inputs, params);
    for inputs in [
        &[("hand", "AS KD QH JC 9S"), ("opponent", "XX QD 8C 7C 2H")][..],
        &[("hand", "AS KD"), ("opponent", "XX QH"), ("opponent2", "XX 7C")][..],
        &[("hand", "7S 7D"), ("opponent", "XX 2H")][..],
    ] {
        let (e, _) = refused(inputs, &[("samples", "0")]);
        assert!(e.contains("samples must be at least 1"), "{e}");
        let (e, _) = refused(inputs, &[("odds_path", "bogus")]);
        assert!(
            e.contains("odds_path=bogus") && e.contains("rules, native, auto"),
            "{e}"
        );
    }
}

/// Dead cards that leave too few unseen cards to finish the hands are a bad `dead` input, on
/// both odds paths, not a division by zero inside a rule.
#[test]
fn dead_cards_that_leave_no_deal_are_a_bad_input() {
    let all: Vec<String> = (0..52u8).map(name).collect();
    let dead_but = |keep: &[&str]| -> String {
        all.iter()
            .filter(|c| !keep.contains(&c.as_str()))
            .cloned()
            .collect::<Vec<_>>()
            .join(" ")
    };
    // Heads-up, rules path: 2 + 1 known cards, 7 to deal, 4 unseen.
    let dead = dead_but(&["AS", "KD", "QH", "2C", "3C", "4C", "5C"]);
    for params in [&[][..], &[("odds_path", "native")][..]] {
        let (e, bad) = refused(&[("hand", "AS KD"), ("opponent", "QH"), ("dead", &dead)], params);
        assert!(bad && e.starts_with("input `dead`"), "{params:?}: {e}");
    }
}

/// A run past its deadline stops before it answers, Monte Carlo or not (the estimate's own stop
/// at the deadline is tested in `src/games/stud/montecarlo.rs`).
#[test]
fn a_run_past_its_deadline_stops_with_no_answer() {
    let mut s = session();
    s.set_options(kibitzer::RunOptions {
        timeout: Some(std::time::Duration::ZERO),
        ..kibitzer::RunOptions::default()
    });
    s.set_input_text("hand", "AS KD").expect("hand");
    s.set_input_text("opponent", "XX QH").expect("opponent");
    let result = s.run().expect("a budget stop is an answer");
    assert_eq!(result.stop, kibitzer::StopReason::Timeout);
    assert!(s.conclusions().is_empty());
}

// ---- a table that plays the wheel ---------------------------------------------------------------

/// The oracle at a table that counts A-2-3-4-5 as a straight, 5 high.
fn oracle_wheel(cards: &[u8; 5]) -> (u8, Vec<u8>) {
    let mut ranks: Vec<u8> = cards.iter().map(|c| c / 4 + 2).collect();
    ranks.sort_unstable_by(|a, b| b.cmp(a));
    if ranks == [14, 5, 4, 3, 2] {
        let flush = cards.iter().all(|c| c % 4 == cards[0] % 4);
        return (if flush { 1 } else { 5 }, vec![5, 4, 3, 2, 1]);
    }
    oracle(cards)
}

/// The native evaluator at a table that plays the wheel (`Situation::with_wheel`): A-2-3-4-5 a
/// straight, 5 high, the lowest; its exact odds match an independent oracle on random deals rich in
/// aces and low cards, and without the wheel they match the plain oracle.
#[test]
fn the_native_evaluator_plays_the_wheel_when_asked() {
    use kibitzer::games::stud::{equity_exact, Situation};
    let mut rng = ChaCha8Rng::seed_from_u64(56);
    let low: Vec<u8> = (0..52).filter(|c| c / 4 + 2 <= 6 || c / 4 + 2 == 14).collect();
    let mut wheels = 0;
    for case in 0..200 {
        let mut deck = low.clone();
        deck.shuffle(&mut rng);
        let mine = [deck[0], deck[1], deck[2], deck[3], deck[4]];
        let shown = [deck[5], deck[6], deck[7], deck[8]];
        for wheel in [true, false] {
            let classify = |c: &[u8; 5]| if wheel { oracle_wheel(c) } else { oracle(c) };
            let (mut w, mut t, mut l) = (0u64, 0u64, 0u64);
            for x in (0..52u8).filter(|c| !mine.contains(c) && !shown.contains(c)) {
                let theirs = [x, shown[0], shown[1], shown[2], shown[3]];
                let ((ca, ka), (cb, kb)) = (classify(&mine), classify(&theirs));
                match cb.cmp(&ca).then(ka.cmp(&kb)) {
                    std::cmp::Ordering::Greater => w += 1,
                    std::cmp::Ordering::Equal => t += 1,
                    std::cmp::Ordering::Less => l += 1,
                }
            }
            let situation = Situation::new(mine.to_vec(), vec![shown.to_vec()], Vec::new())
                .expect("a position")
                .with_wheel(wheel);
            let odds = equity_exact(&situation, u64::MAX).expect("exact");
            assert_eq!(
                (odds.wins, odds.ties, odds.losses),
                (w, t, l),
                "case {case}, wheel {wheel}: {}",
                names(&mine)
            );
        }
        wheels += usize::from(oracle_wheel(&mine).1 == [5, 4, 3, 2, 1]);
    }
    assert!(wheels > 0, "some hands are wheels");
}

fn wheel_session() -> Session {
    let mut s = session();
    s.set_param("wheel", "true").expect("wheel is a parameter");
    s
}

/// With `wheel = true` the rules classify every one of the 1,024 A-2-3-4-5 hands as the oracle
/// does (4 straight flushes, 1,020 straights) and say no note; other hands are unchanged.
#[test]
fn the_rules_play_the_wheel_when_asked() {
    let (mut plain, mut wheel) = (session(), wheel_session());
    let aces_to_fives: Vec<Vec<u8>> = [14u8, 2, 3, 4, 5]
        .iter()
        .map(|&r| (0..4).map(|suit| (r - 2) * 4 + suit).collect())
        .collect();
    let mut counts = [0usize; 10];
    for pick in 0..1024usize {
        let hand: [u8; 5] = std::array::from_fn(|i| aces_to_fives[i][(pick >> (2 * i)) & 3]);
        let text = names(&hand);
        let (cat, _) = oracle_wheel(&hand);
        let name = if cat == 1 { "straight flush" } else { "straight" };
        assert_eq!(
            category_of(&mut wheel, &text),
            format!("category({cat}, \"{name}\")"),
            "{text}"
        );
        let (cat, _) = oracle(&hand);
        assert!(
            category_of(&mut plain, &text).starts_with(&format!("category({cat}, ")),
            "{text}"
        );
        counts[usize::from(oracle_wheel(&hand).0)] += 1;
    }
    assert_eq!((counts[1], counts[5]), (4, 1020));
    assert_eq!(category_of(&mut wheel, "JS QH KD AC 2S"), r#"category(9, "high card")"#);
    assert_eq!(category_of(&mut wheel, "2S 3H 4D 5C 6S"), r#"category(5, "straight")"#);
    assert_eq!(category_of(&mut wheel, "AS 2S 3S 4S 6S"), r#"category(4, "flush")"#);
}

/// Showdowns and odds at a table that plays the wheel: the rules (Rule1–Rule15) agree
/// with the oracle on deals rich in aces and low cards, and the native path agrees with the rules.
#[test]
fn wheel_showdowns_and_odds_agree_with_the_oracle_and_the_native_path() {
    let mut s = wheel_session();
    let mut rng = ChaCha8Rng::seed_from_u64(57);
    let low: Vec<u8> = (0..52).filter(|c| c / 4 + 2 <= 6 || c / 4 + 2 == 14).collect();
    let mut wheels = 0;
    for case in 0..150 {
        let mut deck = low.clone();
        deck.shuffle(&mut rng);
        let mine = [deck[0], deck[1], deck[2], deck[3], deck[4]];
        let theirs = [deck[5], deck[6], deck[7], deck[8], deck[9]];
        let ((ca, ka), (cb, kb)) = (oracle_wheel(&mine), oracle_wheel(&theirs));
        let expected = match cb.cmp(&ca).then(ka.cmp(&kb)) {
            std::cmp::Ordering::Greater => "win",
            std::cmp::Ordering::Equal => "tie",
            std::cmp::Ordering::Less => "loss",
        };
        assert_eq!(
            showdown(&mut s, &names(&mine), &names(&theirs)),
            expected,
            "case {case}: {} against {}",
            names(&mine),
            names(&theirs)
        );
        wheels += usize::from(ka == [5, 4, 3, 2, 1]) + usize::from(kb == [5, 4, 3, 2, 1]);
        // One card to come for me: the odds and outs through the rules, then natively.
        let q = [("hand", names(&mine[..4])), ("opponent", names(&theirs))];
        let q: Vec<(&str, &str)> = q.iter().map(|(k, v)| (*k, v.as_str())).collect();
        s.set_param("odds_path", "rules").expect("odds_path");
        let rules = ask(&mut s, &q);
        s.set_param("odds_path", "native").expect("odds_path");
        let native = ask(&mut s, &q);
        s.set_param("odds_path", "auto").expect("odds_path");
        let odds = |a: &[String]| a.iter().find(|c| c.starts_with("odds(")).cloned();
        assert_eq!(odds(&rules), odds(&native), "case {case}");
        assert!(rules.iter().any(|c| c.starts_with("outs(")), "case {case}: {rules:?}");
    }
    assert!(wheels >= 5, "only {wheels} wheels in the showdowns");
}

#[test]
fn a_card_in_two_places_is_the_inputs_mistake_in_game_terms() {
    let mut s = session();
    for (inputs, message) in [
        (
            &[("hand", "8S TD TS 8H 8C"), ("opponent", "XX 3C 8S 4H 6H")][..],
            "input `hand`: 8S is in both the hand and an opponent's cards: a card is in one place only",
        ),
        (
            &[("hand", "8S TD TS 8H 8C"), ("opponent", "XX 3C 8S TD 6H")],
            "input `hand`: 8S TD are in both the hand and an opponent's cards: a card is in one place only",
        ),
        (
            &[("hand", "8S TD TS 8H"), ("opponent", "XX 3C 5S"), ("dead", "8H 2C")],
            "input `dead`: 8H is dead and also in a hand: a card is in one place only",
        ),
    ] {
        s.reset();
        for (k, v) in inputs {
            s.set_input_text(k, v).expect("each input is well formed");
        }
        let e = s.run().expect_err("an impossible position");
        assert_eq!(e.to_string(), message);
        assert!(matches!(e, kibitzer::RunError::BadPosition { .. }), "{e:?}");
    }
}
