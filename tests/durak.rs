//! Durak through the shipped rules (docs/durak.md): each hand-value term pinned by hand-computed
//! cases, the rules against the native hand value on random hands and against the native decision
//! policy in real positions, every rule exercised, the arena. The explained answers are pinned by
//! `rules/durak.cases.toml`.

use kibitzer::games::durak::{
    self, decide, hand_value, parse_cards, sample_hands, sample_positions, Action, GameOptions, ReferencePolicy,
    RulePlayer, RuleValuer, Suit, ValueParams,
};
use kibitzer::games::harness::{arenas, PlayOptions};
use kibitzer::Explainer;
use kibitzer::{load_shipped, ExplainLimits, Session};
use std::collections::BTreeMap;

fn session() -> Session {
    Session::new(load_shipped("durak").expect("the shipped durak rules load"))
}

/// Runs a query; returns the session for inspection.
fn run(inputs: &[(&str, &str)], params: &[(&str, &str)]) -> Session {
    let mut s = session();
    for (k, v) in params {
        s.set_param(k, v).unwrap_or_else(|e| panic!("--param {k}={v}: {e}"));
    }
    for (k, v) in inputs {
        s.set_input_text(k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
    }
    s.run().unwrap_or_else(|e| panic!("{inputs:?}: {e}"));
    s
}

/// The hand value and its terms' `because` lines (from the `term` facts' explanations).
fn value_and_terms(inputs: &[(&str, &str)], params: &[(&str, &str)]) -> (i64, Vec<String>) {
    let s = run(inputs, params);
    let c = s.conclusions();
    let hv = c
        .iter()
        .find(|c| c.relation == "hand_value")
        .unwrap_or_else(|| panic!("no hand_value for {inputs:?}"));
    let v = hv.args[0].as_int().expect("an integer value");
    let e = Explainer::new(&s).explain(hv.fact, ExplainLimits::default());
    let terms = e.aggregated.iter().filter_map(|g| g.example.because.clone()).collect();
    (v, terms)
}

fn value(inputs: &[(&str, &str)]) -> i64 {
    value_and_terms(inputs, &[]).0
}

#[test]
fn out_of_play_empty_hand_and_empty_stock() {
    let (v, terms) = value_and_terms(&[("hand", ""), ("trump", "D"), ("stock", "0"), ("hands", "0,4")], &[]);
    assert_eq!(v, 30000);
    assert_eq!(terms, ["hand and stock empty: out of play +30000"]);
    // With cards left in the stock an empty hand is valued normally: only the hand-size term,
    // (0.25 − 0/16) × 600 = 150.
    let (v, terms) = value_and_terms(&[("hand", ""), ("trump", "D"), ("stock", "10"), ("hands", "0,6")], &[]);
    assert_eq!(v, 150);
    assert_eq!(terms, ["0 cards, 16 others in play: (0.25 − 0/16) × 600 = +150"]);
    // An empty hand while another player still holds cards, stock empty: out of play too.
    assert_eq!(value(&[("hand", ""), ("trump", "S"), ("hands", "0,3")]), 30000);
}

#[test]
fn card_values_and_trump_bonus() {
    // Ranks: A +600 … 8 0 … 6 −200; a trump adds 1300. Suits: 2 non-trumps (♠, ♣), a = 2/3:
    // ♠ 1: −200 × |3 − 2| / 2 = −100; ♥ 0: −200; ♣ 1: −100. Size: 4 of 4 + 12 + 10 − 4 = 22 →
    // (0.25 − 4/22) × 600 = 40.9 → 40.
    let (v, terms) = value_and_terms(
        &[
            ("hand", "AS 8H 6H 7C"),
            ("trump", "H"),
            ("stock", "12"),
            ("hands", "4,10"),
        ],
        &[],
    );
    assert_eq!(
        terms,
        [
            "A♠ +600",
            "7♣ −100",
            "trump 8♥ +0 +1300",
            "trump 6♥ −200 +1300",
            "spades 1 vs 0.67 expected: −100",
            "diamonds 0 vs 0.67 expected: −200",
            "clubs 1 vs 0.67 expected: −100",
            "4 cards, 22 others in play: (0.25 − 4/22) × 600 = +40",
        ]
    );
    assert_eq!(v, 600 - 100 + 1300 + 1100 - 100 - 200 - 100 + 40);
}

#[test]
fn all_non_trumps_in_one_suit() {
    // 6♠ 7♠ 8♠, trump ♥: cards −300; a = 1: ♠ 3 → −400, ♦ 0 → −200, ♣ 0 → −200; size: 3 others
    // in play (stock 0, sizes 3 + 3 − 3): (0.25 − 1) × 600 = −450.
    let (v, terms) = value_and_terms(&[("hand", "6S 7S 8S"), ("trump", "H"), ("hands", "3,3")], &[]);
    assert_eq!(v, -300 - 800 - 450);
    assert!(
        terms.contains(&"spades 3 vs 1.00 expected: −400".to_string()),
        "{terms:?}"
    );
    assert!(
        terms.contains(&"diamonds 0 vs 1.00 expected: −200".to_string()),
        "{terms:?}"
    );
    // Only trumps: no suit terms at all.
    let (_, terms) = value_and_terms(
        &[("hand", "6H 7H"), ("trump", "H"), ("stock", "5"), ("hands", "2,6")],
        &[],
    );
    assert!(!terms.iter().any(|t| t.contains("expected")), "{terms:?}");
}

#[test]
fn four_of_a_kind_and_the_original_literal_scale() {
    // 7♠ 7♥ 7♦ 7♣, trump ♦: cards −100 × 3 + 1200; four sevens: max(−1, 1) × 1.25 × 100 = 125;
    // suits a = 1, each 1: 0; size: 4 of 4 others → (0.25 − 1) × 600 = −450.
    let inputs = [("hand", "7S 7H 7D 7C"), ("trump", "D"), ("hands", "4,4")];
    let (v, terms) = value_and_terms(&inputs, &[]);
    assert!(
        terms.contains(&"four sevens: bonus max(-1, 1) × 1.25 × 100 = +125".to_string()),
        "{terms:?}"
    );
    assert_eq!(v, 900 + 125 - 450);
    // The original code forgot the × 100: 1.25 → 1.
    let (v, terms) = value_and_terms(&inputs, &[("same_rank_bonus_scale", "1")]);
    assert!(
        terms.contains(&"four sevens: bonus max(-1, 1) × 1.25 × 1 = +1".to_string()),
        "{terms:?}"
    );
    assert_eq!(v, 900 + 1 - 450);
    // Three aces: 6 × 0.75 × 100 = 450.
    let (_, terms) = value_and_terms(
        &[("hand", "AS AH AC"), ("trump", "D"), ("stock", "9"), ("hands", "3,6")],
        &[],
    );
    assert!(
        terms.contains(&"three aces: bonus max(6, 1) × 0.75 × 100 = +450".to_string()),
        "{terms:?}"
    );
}

#[test]
fn thirds_are_exact() {
    // 7 non-trumps, a = 7/3: ♠ 3 → −200 × 2/7 = −57.14 → −57; ♥ 2 → −28.57 → −28; ♦ 2 → −28.
    let (_, terms) = value_and_terms(
        &[
            ("hand", "6S 7S 8S 9H TH 6D 7D"),
            ("trump", "C"),
            ("stock", "4"),
            ("hands", "7,6"),
        ],
        &[],
    );
    assert!(
        terms.contains(&"spades 3 vs 2.33 expected: −57".to_string()),
        "{terms:?}"
    );
    assert!(
        terms.contains(&"hearts 2 vs 2.33 expected: −28".to_string()),
        "{terms:?}"
    );
}

#[test]
fn decks_of_36_and_52() {
    // 52 cards: 2♠ 2♥ A♠, trump ♣: cards −600 − 600 + 600; two deuces: max(−6, 1) × 0.5 × 100 = 50;
    // a = 1: ♠ 2 → −200, ♥ 1 → 0, ♦ 0 → −200; size: 3 of 20 + 9 − 3 = 26 → 3.5 × 600 / 26 = 80.
    let (v, terms) = value_and_terms(
        &[
            ("hand", "2S 2H AS"),
            ("trump", "C"),
            ("stock", "20"),
            ("hands", "3,6"),
            ("deck", "52"),
        ],
        &[],
    );
    assert!(
        terms.contains(&"two twos: bonus max(-6, 1) × 0.5 × 100 = +50".to_string()) || v == -870,
        "{terms:?}"
    );
    assert_eq!(v, -600 + 50 - 400 + 80);
    // The same hand in the 36-card deck is refused, naming the card.
    let mut s = session();
    for (k, v) in [("hand", "2S 2H AS"), ("trump", "C"), ("stock", "20"), ("hands", "3,6")] {
        s.set_input_text(k, v).unwrap();
    }
    let err = s.run().unwrap_err().to_string();
    assert!(
        err.contains("2♠ (hand) is not in the 36-card deck (ranks 6 to A)"),
        "{err}"
    );
    // 36 cards, a normal hand: matches the native function.
    let native = hand_value(
        &parse_cards("6S 9D QD KH AC").unwrap(),
        Suit::Diamonds,
        12,
        &[5, 6, 5],
        &ValueParams::default(),
    );
    assert_eq!(
        value(&[
            ("hand", "6S 9D QD KH AC"),
            ("trump", "D"),
            ("stock", "12"),
            ("hands", "5,6,5")
        ]),
        native.total
    );
}

#[test]
fn nothing_else_in_play_uses_the_ratio_10() {
    // A hypothetical hand bigger than everything in play: (0.25 − 10) × 600 = −5850.
    let (_, terms) = value_and_terms(&[("hand", "6S 7S"), ("trump", "H"), ("hands", "2,0")], &[]);
    assert!(
        terms.contains(&"2 cards, nothing else in play: (0.25 − 10) × 600 = −5850".to_string()),
        "{terms:?}"
    );
}

#[test]
fn bad_inputs_are_clear_errors() {
    let mut s = session();
    let e = s.set_input_text("trump", "X").unwrap_err().to_string();
    assert!(e.contains("unknown suit"), "{e}");
    let e = s.set_input_text("hands", "6,-1").unwrap_err().to_string();
    assert!(e.contains("-1"), "{e}");
    let e = s.set_input_text("table", "7S/9S/TS").unwrap_err().to_string();
    assert!(e.contains("one attack card"), "{e}");
    let e = s.set_input_text("table", "7S/9S 9S").unwrap_err().to_string();
    assert!(e.contains("9S appears 2 times"), "{e}");
    for (k, v) in [
        ("hand", "7S 8H"),
        ("trump", "D"),
        ("table", "7C/6C"),
        ("stock", "3"),
        ("hands", "2,2"),
    ] {
        s.set_input_text(k, v).unwrap();
    }
    let e = s.run().unwrap_err().to_string();
    assert!(e.contains("6♣ does not beat 7♣"), "{e}");
    let mut s = session();
    for (k, v) in [
        ("hand", "7S 8H"),
        ("trump", "D"),
        ("table", "7S"),
        ("stock", "3"),
        ("hands", "2,2"),
    ] {
        s.set_input_text(k, v).unwrap();
    }
    let e = s.run().unwrap_err().to_string();
    assert!(e.contains("7♠ is both in the hand and on the table"), "{e}");
}

/// A query's inputs as (name, text).
type Inputs<'a> = &'a [(&'a str, &'a str)];

/// The error a query ends with: (the run's message, whether it is reported as a bad position).
fn refused(inputs: &[(&str, &str)]) -> (String, bool) {
    let mut s = session();
    for (k, v) in inputs {
        s.set_input_text(k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
    }
    match s.run() {
        Ok(_) => panic!("{inputs:?} answered: {:?}", s.conclusions()),
        Err(e) => (e.to_string(), matches!(e, kibitzer::RunError::BadPosition { .. })),
    }
}

/// Positions no durak game can reach are refused as a bad input naming the input to blame,
/// whatever the role: a hand larger or smaller than its stated size, more cards than the deck,
/// a stock, deck or room out of range, too many players for the deck.
#[test]
fn impossible_positions_are_bad_inputs_naming_the_input() {
    let six = "6S 7S 8S 9S TS JS";
    let cases: &[(Inputs, &str, &str)] = &[
        (
            &[("hand", six), ("trump", "H"), ("hands", "2,3"), ("stock", "5")],
            "hands",
            "holds 6 card(s)",
        ),
        (
            &[("hand", "6S 7S"), ("trump", "H"), ("hands", "6,6"), ("stock", "5")],
            "hands",
            "holds 2 card(s)",
        ),
        (&[("hand", six), ("trump", "H"), ("stock", "-3")], "stock", "-3"),
        (&[("hand", six), ("trump", "H"), ("stock", "37")], "stock", "37"),
        (
            &[("hand", six), ("trump", "H"), ("hands", "6,6,6,6"), ("stock", "13")],
            "hands",
            "more than the 36-card deck",
        ),
        (&[("hand", six), ("trump", "H"), ("deck", "-36")], "deck", "-36"),
        (
            &[
                ("hand", six),
                ("trump", "H"),
                ("role", "attack"),
                ("table", "7H"),
                ("room", "-1"),
            ],
            "room",
            "-1",
        ),
        (
            &[
                ("hand", six),
                ("trump", "H"),
                ("role", "attack"),
                ("table", "7H 7D"),
                ("room", "7"),
            ],
            "room",
            "0 to 6",
        ),
        (
            &[("hand", six), ("trump", "H"), ("role", "defend"), ("table", "2H")],
            "table",
            "not in the 36-card deck",
        ),
    ];
    for (inputs, blamed, says) in cases {
        let (e, bad) = refused(inputs);
        assert!(bad && e.starts_with(&format!("input `{blamed}`")), "{inputs:?}: {e}");
        assert!(e.contains(says), "{inputs:?}: {e}");
    }
    // Six players do fit a 36-card deck; the same deal in a 24-card deck does not.
    let high = "9S TS JS QS KS AS";
    let (e, bad) = refused(&[("hand", high), ("trump", "H"), ("hands", "6,6,6,6,6,6"), ("deck", "24")]);
    assert!(bad && e.contains("6 players need 36 cards"), "{e}");
    // More than six players is refused as soon as `hands` is read; one player when the query runs.
    let e = session()
        .set_input_text("hands", "6,6,6,6,6,6,6")
        .unwrap_err()
        .to_string();
    assert!(e.contains("durak is played by 2 to 6"), "{e}");
    let (e, bad) = refused(&[("hand", six), ("trump", "H"), ("hands", "6")]);
    assert!(
        bad && e.starts_with("input `hands`") && e.contains("durak is played by 2 to 6"),
        "{e}"
    );
    // A consistent position still answers, and its value does not depend on a mis-stated size.
    assert_eq!(
        value(&[("hand", six), ("trump", "H"), ("hands", "6,6"), ("stock", "5")]),
        value(&[("hand", six), ("trump", "H"), ("hands", "6,3,3"), ("stock", "5")]),
    );
}

/// Rules against the native hand value: identical totals on random hands, for the defaults, the
/// original code's literal scale and other parameter sets.
#[test]
fn rules_equal_native_on_random_hands() {
    let program = load_shipped("durak").unwrap();
    let variants: [(&[(&str, &str)], ValueParams); 3] = [
        (&[], ValueParams::default()),
        (&[("same_rank_bonus_scale", "1")], ValueParams::original_literal()),
        (
            &[
                ("trump_bonus", "1000"),
                ("hand_size_target", "0.375"),
                ("suit_balance_penalty", "150"),
                ("same_rank_bonus", "[0, 0, 0.25, 1.5, 2]"),
                ("same_rank_min_value", "2"),
                ("hand_size_empty_ratio", "4"),
            ],
            {
                let mut p = ValueParams::default();
                for (k, v) in [
                    ("trump_bonus", "1000"),
                    ("hand_size_target", "0.375"),
                    ("suit_balance_penalty", "150"),
                    ("same_rank_bonus_2", "0.25"),
                    ("same_rank_bonus_3", "1.5"),
                    ("same_rank_bonus_4", "2"),
                    ("same_rank_min_value", "2"),
                    ("hand_size_empty_ratio", "4"),
                ] {
                    p.set(k, v).unwrap();
                }
                p
            },
        ),
    ];
    for (i, (overrides, params)) in variants.iter().enumerate() {
        let mut valuer = RuleValuer::new(program.clone());
        for (k, v) in *overrides {
            valuer.session().set_param(k, v).unwrap();
        }
        for (hand, trump, stock, sizes) in sample_hands(1500, 11 + i as u64) {
            let native = hand_value(&hand.to_vec(), trump, stock, &sizes, params);
            let rules = valuer.value_of(hand, trump, stock, &sizes).unwrap();
            assert_eq!(
                rules, native.total,
                "variant {i}: hand {hand} trump {trump} stock {stock} sizes {sizes:?}: native terms {:?}",
                native.terms
            );
        }
    }
}

/// Every hand of 0..=3 cards from the 36-card deck under one trump, against the native value
/// (four of a kind, empty hands and empty stocks included).
#[test]
fn rules_equal_native_on_small_hands() {
    let program = load_shipped("durak").unwrap();
    let mut valuer = RuleValuer::new(program);
    let deck = durak::Deck::Cards36.cards();
    let mut checked = 0;
    for a in 0..=deck.len() {
        for b in a..=deck.len() {
            if b == a && a < deck.len() {
                continue;
            }
            let mut hand = durak::CardSet::EMPTY;
            for i in [a, b] {
                if let Some(c) = deck.get(i) {
                    hand.insert(*c);
                }
            }
            for (stock, sizes) in [(0usize, vec![hand.len(), 2]), (7, vec![hand.len(), 6, 5])] {
                let native = hand_value(&hand.to_vec(), Suit::Clubs, stock, &sizes, &ValueParams::default());
                assert_eq!(valuer.value_of(hand, Suit::Clubs, stock, &sizes).unwrap(), native.total);
                checked += 1;
            }
        }
    }
    assert!(checked > 1300);
}

/// Without search (`samples=0`, `endgame_nodes=0`) the rule AI's decisions equal the native
/// reference policy's in positions from real games (two to four players, with and without
/// transfers), with or without firing records; only the recording player can explain its decision.
#[test]
fn rule_decisions_equal_the_native_policy() {
    let program = load_shipped("durak").unwrap();
    let policy = ReferencePolicy::default();
    let mut player = RulePlayer::new(program.clone(), "durak");
    let mut arena_seat = RulePlayer::new(program, "durak").keep_records(false);
    for p in [&mut player, &mut arena_seat] {
        p.session().set_param("samples", "0").unwrap();
        p.session().set_param("endgame_nodes", "0").unwrap();
    }
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for options in [
        GameOptions::default(),
        GameOptions {
            players: 3,
            transfer: true,
            ..GameOptions::default()
        },
        GameOptions {
            players: 4,
            deck: durak::Deck::Cards52,
            ..GameOptions::default()
        },
    ] {
        for (view, legal) in sample_positions(4, &options) {
            let native = decide(&view, &legal, &policy);
            let rules = player.decide(&view, &legal).unwrap();
            assert_eq!(rules, native.action, "view {view:?}\n{}", native.explain());
            assert_eq!(arena_seat.decide(&view, &legal).unwrap(), rules, "view {view:?}");
            assert!(player.session().firing(0).is_some());
            assert!(
                arena_seat.session().firing(0).is_none(),
                "an arena seat keeps no records"
            );
            *kinds
                .entry(match rules {
                    Action::Attack(_) if view.table.is_empty() => "lead",
                    Action::Attack(_) => "throw in",
                    Action::Pass => "pass",
                    Action::Defend { .. } => "defend",
                    Action::Take => "take",
                    Action::Transfer(_) => "transfer",
                })
                .or_default() += 1;
        }
    }
    for k in ["lead", "throw in", "pass", "defend", "take"] {
        assert!(kinds.get(k).copied().unwrap_or(0) > 0, "no `{k}` among {kinds:?}");
    }
}

/// A rule set that concludes two plays, or has no `play` at all, is a clear error of the player,
/// not a move.
#[test]
fn a_player_whose_rules_give_no_single_play_fails() {
    let shipped = include_str!("../rules/durak.rules");
    let two = format!(
        "{shipped}\nrule AlsoPass \"a second play\" salience -10 when role(\"attack\") then assert play(\"pass\", []) end\n"
    );
    // Every `play` renamed: the rule set concludes its moves under another name.
    let none = shipped
        .replace("output hand_value, play, note", "output hand_value, chosen, note")
        .replace(" play(", " chosen(");
    let (view, legal) = sample_positions(2, &GameOptions::default())
        .into_iter()
        .find(|(v, _)| v.table.is_empty())
        .expect("a lead among the positions");
    let mut player = RulePlayer::new(kibitzer::load_text("two", &two).unwrap(), "two");
    let err = player.decide(&view, &legal).unwrap_err().to_string();
    assert!(err.contains("the rules gave 2 plays"), "{err}");
    let mut player = RulePlayer::new(kibitzer::load_text("none", &none).unwrap(), "none");
    let err = player.decide(&view, &legal).unwrap_err().to_string();
    assert!(err.contains("the rules gave 0 plays"), "{err}");
    let mut player = RulePlayer::new(load_shipped("durak").unwrap(), "durak");
    assert!(player.decide(&view, &legal).is_ok());
}

/// A rule set without one of the valuer's inputs is an error naming it, not a value.
#[test]
fn a_valuer_whose_rules_lack_an_input_names_it() {
    let without = r#"ruleset counts "a hand value that ignores the hand sizes"
        input hand: cards(0..52)
        input trump: durak_suit
        input stock: int = 0
        output hand_value
        rule Count "the cards and the stock" when hand(?h) stock(?r) then assert hand_value(card_count(?h) + ?r) end"#;
    let mut valuer = RuleValuer::new(kibitzer::load_text("counts", without).unwrap());
    let hand = durak::CardSet::from_cards(&parse_cards("AS 9D").unwrap());
    let err = valuer
        .value_of(hand, Suit::Diamonds, 12, &[2, 6])
        .unwrap_err()
        .to_string();
    assert!(err.contains("hands"), "{err}");
}

/// Every rule of the rule file fires in some query above or here.
#[test]
fn every_rule_fires_somewhere() {
    let queries: Vec<Vec<(&str, &str)>> = vec![
        vec![("hand", ""), ("trump", "D"), ("hands", "0,3")],
        vec![
            ("hand", "AS 9D 7C 7H KC 6D"),
            ("trump", "D"),
            ("stock", "12"),
            ("hands", "6,6,5"),
        ],
        vec![("hand", "6S 7S"), ("trump", "H"), ("hands", "2,0")],
        vec![
            ("hand", "6S 6H KD AH 9C"),
            ("trump", "H"),
            ("stock", "10"),
            ("hands", "5,6"),
            ("role", "attack"),
        ],
        vec![
            ("hand", "9C 6D 7D"),
            ("trump", "H"),
            ("hands", "3,5"),
            ("role", "attack"),
            ("table", "9S/JS"),
        ],
        vec![
            ("hand", "9H 6D 7C"),
            ("trump", "H"),
            ("stock", "20"),
            ("hands", "3,5"),
            ("role", "attack"),
            ("table", "9S/JS"),
        ],
        vec![
            ("hand", "6D 7C"),
            ("trump", "H"),
            ("stock", "20"),
            ("hands", "2,5"),
            ("role", "attack"),
            ("table", "9S/JS"),
        ],
        vec![
            ("hand", "9S QH 6D"),
            ("trump", "H"),
            ("stock", "12"),
            ("hands", "3,6"),
            ("role", "defend"),
            ("table", "7S"),
        ],
        vec![
            ("hand", "6S 7D 8C AH"),
            ("trump", "H"),
            ("stock", "20"),
            ("hands", "4,6"),
            ("role", "defend"),
            ("table", "7S"),
        ],
        vec![
            ("hand", "6S 7D 8C AH"),
            ("trump", "H"),
            ("stock", "0"),
            ("hands", "4,6"),
            ("role", "defend"),
            ("table", "KS"),
        ],
        vec![
            ("hand", "6S 7D 8C 9D TC AH"),
            ("trump", "H"),
            ("stock", "0"),
            ("hands", "6,6"),
            ("role", "defend"),
            ("table", "KS"),
        ],
        vec![
            ("hand", "6S 7D 8C"),
            ("trump", "H"),
            ("stock", "5"),
            ("hands", "3,6"),
            ("role", "defend"),
            ("table", "AS"),
        ],
        vec![
            ("hand", "AS KS QS 6H 7H 8D"),
            ("trump", "C"),
            ("stock", "10"),
            ("hands", "6,6"),
            ("role", "defend"),
            ("table", "9S 9D"),
        ],
        vec![
            ("hand", "7H 9C KD"),
            ("trump", "S"),
            ("stock", "10"),
            ("hands", "3,6,6"),
            ("role", "defend"),
            ("table", "7C"),
            ("transfer", "true"),
        ],
        vec![("hand", "7H"), ("trump", "S"), ("hands", "1,1"), ("role", "oops")],
        vec![
            ("hand", "7H"),
            ("trump", "S"),
            ("hands", "1,1"),
            ("role", "defend"),
            ("table", "6H/8H"),
        ],
        vec![
            ("hand", "9S 8C TC QC"),
            ("trump", "H"),
            ("stock", "15"),
            ("hands", "4,6"),
            ("role", "defend"),
            ("table", "7S 7D"),
        ],
    ];
    let mut fired: BTreeMap<String, u64> = BTreeMap::new();
    let searched: Vec<Vec<(&str, &str)>> = vec![
        endgame_query("TS TD AH", "JS QC KD"),
        endgame_query("9S", "TS"),
        endgame_query("9S 9D", "AH"),
        vec![
            ("hand", "9S 8C TC QC"),
            ("trump", "H"),
            ("stock", "15"),
            ("hands", "4,6"),
            ("role", "defend"),
            ("table", "7S"),
        ],
    ];
    let all: Vec<(Inputs, Inputs)> = queries
        .iter()
        .map(|q| (q.as_slice(), &[("samples", "0")][..]))
        .chain(searched.iter().map(|q| (q.as_slice(), &[][..])))
        .chain(std::iter::once((queries[7].as_slice(), &[][..])))
        .collect();
    for (q, params) in all {
        let s = run(q, params);
        for (i, r) in s.program().rule_names().enumerate() {
            *fired.entry(r.to_string()).or_default() += s.fired_count(i);
        }
    }
    let never: Vec<&String> = fired.iter().filter(|(_, n)| **n == 0).map(|(r, _)| r).collect();
    assert!(never.is_empty(), "rules that never fired: {never:?}");
}

#[test]
fn arena_smoke() {
    let arena = arenas().into_iter().find(|a| a.game == "durak").expect("a durak arena");
    let mut lines = Vec::new();
    let opts = PlayOptions {
        load: |name| kibitzer::load_any(name).map_err(|e| e.to_string()),
        seats: vec!["durak".into(), "random".into(), "lowest".into()],
        games: 12,
        seed: 5,
        args: vec![("transfer".into(), "true".into())],
        watch: Default::default(),
    };
    (arena.run)(&opts, &mut |l: &str| lines.push(l.to_string())).unwrap();
    assert!(
        lines[0].starts_with("durak: 12 games, 3 players, 36-card deck, transfer on"),
        "{lines:?}"
    );
    assert!(lines[1].starts_with("seat   player"), "{lines:?}");
    assert!(lines[2].starts_with("seat 1 durak"), "{lines:?}");
    assert!(lines.last().unwrap().contains("games_per_s="), "{lines:?}");
    // Same seed, same games.
    let mut again = Vec::new();
    (arena.run)(&opts, &mut |l: &str| again.push(l.to_string())).unwrap();
    assert_eq!(lines[..4], again[..4]);
    // Bad seats and settings are errors, not panics.
    let bad = PlayOptions {
        load: |name| kibitzer::load_any(name).map_err(|e| e.to_string()),
        seats: vec!["durak".into(), "nobody".into()],
        games: 1,
        seed: 1,
        args: vec![],
        watch: Default::default(),
    };
    assert!((arena.run)(&bad, &mut |_| {}).is_err());
    let bad = PlayOptions {
        load: |name| kibitzer::load_any(name).map_err(|e| e.to_string()),
        seats: vec!["durak".into()],
        games: 1,
        seed: 1,
        args: vec![],
        watch: Default::default(),
    };
    assert!((arena.run)(&bad, &mut |_| {}).is_err());
}

/// Runs `kibitzer bench durak --quick` with these settings; its last line.
fn bench_last_line(args: &[(&str, &str)]) -> Result<String, String> {
    let w = kibitzer::games::harness::workloads()
        .into_iter()
        .find(|w| w.name == "durak")
        .expect("a durak workload");
    let mut last = String::new();
    (w.run)(
        &kibitzer::games::harness::BenchOptions {
            load: |name| kibitzer::load_any(name).map_err(|e| e.to_string()),
            quick: true,
            args: args.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        },
        &mut |l: &str| last = l.to_string(),
    )?;
    Ok(last)
}

#[test]
fn bench_quick_runs() {
    let last = bench_last_line(&[]).unwrap_or_else(|e| panic!("{e}"));
    for name in ["hand_values_per_s=", "decisions_per_s=", "games_per_s=", "cores="] {
        assert!(last.contains(name), "{last}");
    }
}

/// `passes=N` values the sample exactly N times (for instruction counts that compare), and a
/// count that is not a number is an error, not a default.
#[test]
fn bench_passes_value_the_sample_exactly_so_often() {
    let last = bench_last_line(&[("passes", "2")]).unwrap_or_else(|e| panic!("{e}"));
    assert!(last.starts_with("hand_values=1024 hand_values_per_s="), "{last}");
    let err = bench_last_line(&[("passes", "two")]).err().unwrap_or_default();
    assert!(err.contains("passes=two"), "{err}");
}

/// `write-sample=PATH` writes the hands the benchmark times, one per line, with the rules' value:
/// each value equal to the native hand value of the very cards, trump, stock and sizes written
/// (what another engine reading the file must reproduce), and a path that cannot be written is
/// an error.
#[test]
fn bench_writes_its_sample_for_other_engines() {
    let path = std::env::temp_dir().join(format!("kibitzer-durak-sample-{}.txt", std::process::id()));
    let p = path.to_string_lossy().to_string();
    let last = bench_last_line(&[("write-sample", &p)]).unwrap_or_else(|e| panic!("{e}"));
    assert!(last.starts_with("sample_hands=512 checksum="), "{last}");
    let text = std::fs::read_to_string(&path).expect("the sample file");
    let _ = std::fs::remove_file(&path);
    let model = durak::ValueModel::default();
    let mut lines = 0;
    for line in text.lines().filter(|l| !l.starts_with(';')) {
        let f: Vec<&str> = line.split(' ').collect();
        let num = |i: usize| f[i].parse::<usize>().unwrap_or_else(|_| panic!("{line}"));
        let n = num(4);
        assert_eq!(f.len(), 5 + n, "{line}");
        let trump = *Suit::ALL
            .iter()
            .find(|s| s.letter().to_string() == f[1])
            .expect("a suit letter");
        let cards: Vec<durak::Card> = (0..n)
            .map(|k| {
                let id = num(5 + k);
                durak::Card::new(2 + (id / 4) as u8, Suit::ALL[id % 4]).expect("a card")
            })
            .collect();
        let want = model.total(durak::CardSet::from_cards(&cards), trump, num(2), num(3));
        assert_eq!(f[0].parse::<i64>().ok(), Some(want), "{line}");
        lines += 1;
    }
    assert_eq!(lines, 512);
    let bad = bench_last_line(&[("write-sample", "/nonexistent-dir/x.txt")])
        .err()
        .unwrap_or_default();
    assert!(bad.contains("write-sample=/nonexistent-dir/x.txt"), "{bad}");
}

/// A defender asked with nothing left to beat (an empty table, or every attack card beaten) gets
/// a note saying so and no play, not an error from deep inside a defence rule.
#[test]
fn nothing_to_defend_is_a_note_not_an_error() {
    for table in ["", "7S/9S", "7S/9S 8S/TS"] {
        let s = run(
            &[
                ("hand", "AS 6D"),
                ("trump", "D"),
                ("hands", "2,3"),
                ("role", "defend"),
                ("table", table),
            ],
            &[],
        );
        assert_eq!(
            s.facts_of("note"),
            vec![vec![kibitzer::Value::fixed(
                "nothing to defend: no attack card on the table is unbeaten"
            )]],
            "{table}"
        );
        assert!(s.facts_of("play").is_empty(), "{table}");
    }
    // With an unbeaten card the note does not appear.
    let s = run(
        &[
            ("hand", "AS 6D"),
            ("trump", "D"),
            ("hands", "2,3"),
            ("role", "defend"),
            ("table", "7S/9S 8S"),
        ],
        &[],
    );
    assert!(s.facts_of("note").is_empty());
    assert_eq!(s.facts_of("play").len(), 1);
}

/// Every card of a 24-card deck not named: the discard pile of an endgame in which only these
/// hands are left.
fn rest_of_24(cards: &[&str]) -> String {
    let named: Vec<String> = cards.iter().flat_map(|c| c.split(' ')).map(str::to_string).collect();
    let mut out = Vec::new();
    for s in ["S", "H", "D", "C"] {
        for r in ["9", "T", "J", "Q", "K", "A"] {
            let c = format!("{r}{s}");
            if !named.contains(&c) {
                out.push(c);
            }
        }
    }
    out.join(" ")
}

/// A two-player endgame (24 cards, trump ♥, stock empty, every other card out): I lead.
fn endgame_query(mine: &'static str, theirs: &'static str) -> Vec<(&'static str, &'static str)> {
    let out: &'static str = Box::leak(rest_of_24(&[mine, theirs]).into_boxed_str());
    let sizes: &'static str =
        Box::leak(format!("{},{}", mine.split(' ').count(), theirs.split(' ').count()).into_boxed_str());
    vec![
        ("hand", mine),
        ("trump", "H"),
        ("deck", "24"),
        ("stock", "0"),
        ("hands", sizes),
        ("role", "attack"),
        ("out", out),
    ]
}

/// The play of a query, as text.
fn play_of(inputs: &[(&str, &str)], params: &[(&str, &str)]) -> String {
    let s = run(inputs, params);
    let plays = s.facts_of("play");
    assert_eq!(plays.len(), 1, "{inputs:?}: {plays:?}");
    let kind = match &plays[0][0] {
        kibitzer::Value::Str(k) => k.to_string(),
        other => other.to_string(),
    };
    format!("{kind}({})", plays[0][1])
}

/// A defender takes when the hand cannot beat every unbeaten card with a card of its own — a
/// card nothing beats, or two cards only one card beats — with or without search, in random
/// positions of that kind; when each card can be beaten, the defence is still considered.
#[test]
fn a_defence_that_must_fail_is_a_take() {
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(21);
    let deck = durak::Deck::Cards36.cards();
    let trump = Suit::Hearts;
    let (mut fails, mut holds) = (0, 0);
    for _ in 0..300 {
        let mut cards = deck.clone();
        cards.shuffle(&mut rng);
        let hand = durak::CardSet::from_cards(&cards[..rng.random_range(2..=6)]);
        let attacks: Vec<durak::Card> = cards[6..6 + rng.random_range(2..=3)].to_vec();
        let must_fail = !can_beat_each(hand, &attacks, trump);
        let hand_text = durak::format_cards(&hand.to_vec());
        let table = durak::format_cards(&attacks);
        let sizes = format!("{},6", hand.len());
        let inputs = [
            ("hand", hand_text.as_str()),
            ("trump", "H"),
            ("stock", "10"),
            ("hands", sizes.as_str()),
            ("role", "defend"),
            ("table", table.as_str()),
        ];
        let any_beater = attacks.iter().take(1).any(|a| hand.iter().any(|c| c.beats(*a, trump)));
        for params in [&[("samples", "0")][..], &[("samples", "16")][..]] {
            let play = play_of(&inputs, params);
            if must_fail {
                assert!(play.starts_with("take("), "{inputs:?} {params:?}: {play}");
            }
        }
        if must_fail && any_beater {
            fails += 1;
        } else if !must_fail {
            holds += 1;
        }
    }
    assert!(fails > 30 && holds > 10, "{fails} {holds}");
}

/// The oracle of the test above, the simplest way: every assignment of distinct hand cards.
fn can_beat_each(hand: durak::CardSet, attacks: &[durak::Card], trump: Suit) -> bool {
    match attacks.split_first() {
        None => true,
        Some((a, rest)) => hand
            .iter()
            .filter(|c| c.beats(*a, trump))
            .any(|c| can_beat_each(hand.without(c), rest, trump)),
    }
}

/// A position, the input its refusal blames and what the message says.
type Refusal<'a> = (Vec<(&'a str, &'a str)>, &'a str, &'a str);

/// The discard pile and the known cards are checked with the rest of the position: a card in
/// two places, a known card for a place that does not exist, more cards seen than can be.
#[test]
fn out_and_known_cards_are_checked() {
    let base = [("trump", "H"), ("stock", "5"), ("hands", "3,6"), ("role", "attack")];
    let with = |extra: &[(&'static str, &'static str)]| -> Vec<(&'static str, &'static str)> {
        let mut v: Vec<(&str, &str)> = base.to_vec();
        v.extend_from_slice(extra);
        v
    };
    let cases: Vec<Refusal> = vec![
        (with(&[("hand", "7S 8S 9S"), ("out", "7S KD")]), "out", "7♠"),
        (with(&[("hand", "7S 8S 9S"), ("known", "2:8S")]), "known", "8♠"),
        (with(&[("hand", "7S 8S 9S"), ("known", "3:KD")]), "known", "place 3"),
        (
            with(&[("hand", "7S 8S 9S"), ("known", "2:KD AD QD JD TD 9D 8D")]),
            "known",
            "7 known cards",
        ),
        (
            with(&[("hand", "7S 8S 9S"), ("trump_card", "6S")]),
            "trump_card",
            "not of the trump suit",
        ),
        (
            with(&[
                ("hand", "7S 8S 9S"),
                (
                    "out",
                    "6S 6D 6C 7D 7C 8D 8C 9D 9C TS TD TC JS JD JC QS QD QC KS KD KC AS AD AC",
                ),
            ]),
            "out",
            "unseen",
        ),
    ];
    for (inputs, blamed, says) in cases {
        let (e, bad) = refused(&inputs);
        assert!(bad && e.starts_with(&format!("input `{blamed}`")), "{inputs:?}: {e}");
        assert!(e.contains(says), "{inputs:?}: {e}");
    }
    for (known, says) in [("1:7S", "2 to 6"), ("7S 8S", "colon"), ("2:7S 7S", "7S")] {
        let (e, bad) = refused(&with(&[("hand", "9S"), ("hands", "1,6"), ("known", known)]));
        assert!(
            bad && e.starts_with("input `known`") && e.contains(says),
            "{known}: {e}"
        );
    }
}

/// The endgame rules play a won endgame's fastest win, a drawn one's draw and a lost one's
/// longest resistance, and say the line; without the discard pile the opponent's hand is not
/// known and the solver stays out.
#[test]
fn endgames_are_solved_and_explained() {
    let params: [(&str, &str); 0] = [];
    let win = endgame_query("TS TD AH", "JS QC KD");
    assert_eq!(play_of(&win, &params), "attack([AH])");
    let draw = endgame_query("9S", "TS");
    assert_eq!(play_of(&draw, &params), "attack([9S])");
    let loss = endgame_query("9S 9D", "AH");
    let s = run(&loss, &params);
    assert_eq!(s.facts_of("solved")[0][0], kibitzer::Value::fixed("lose"));
    let unknown: Vec<(&str, &str)> = win.iter().filter(|(k, _)| *k != "out").copied().collect();
    let s = run(&unknown, &params);
    assert!(s.facts_of("solved").is_empty());
    assert_eq!(s.facts_of("play").len(), 1);
}
