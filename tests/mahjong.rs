//! Two-player mahjong through the shipped rule sets (docs/mahjong.md): the traps, every
//! rule of both rule sets exercised, both rule sets making exactly the decisions of their native
//! twins (on real game positions and on random hands), bad input refused with clear errors, the
//! arena and the benchmark reporting their figures. The explained answers are pinned in
//! `rules/mahjong.cases.toml` and `rules/mahjong_reference.cases.toml`.

use kibitzer::games::harness::{arenas, workloads, BenchOptions, PlayOptions};
use kibitzer::games::mahjong::rule_player::{RulePlayer, TwinCheck};
use kibitzer::games::mahjong::{
    is_win, parse_counts, parse_tile, play_match, shanten, Counts, Levers, LookaheadPlayer, Meld, Player, PlayerView,
    ReferencePlayer, StrongPlayer, Tile, KINDS,
};
use kibitzer::{load_shipped, Session};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

fn session(ruleset: &str) -> Session {
    Session::new(load_shipped(ruleset).expect("the shipped mahjong rules load"))
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

fn answer(ruleset: &str, inputs: &[(&str, &str)]) -> Vec<String> {
    ask(&mut session(ruleset), inputs)
}

fn the(answer: &[String], relation: &str) -> String {
    answer
        .iter()
        .find(|c| c.starts_with(&format!("{relation}(")))
        .cloned()
        .unwrap_or_else(|| panic!("no {relation} in {answer:?}"))
}

// ---- the traps -------------------------------------------------------------------------------------

#[test]
fn the_traps_answer_right() {
    for ruleset in ["mahjong", "mahjong_reference"] {
        let a = answer(ruleset, &[("hand", "1112345678999m")]);
        assert_eq!(
            the(&a, "waits"),
            r#"waits(["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m"], 23)"#
        );
        assert_eq!(the(&a, "shanten"), "shanten(0)");
        // The fifth 1m does not exist: no wait, and the hand is 1-shanten.
        let a = answer(ruleset, &[("hand", "1111m EEESSSWWW")]);
        assert_eq!(the(&a, "waits"), "waits([], 0)");
        assert_eq!(the(&a, "shanten"), "shanten(1)");
        let a = answer(ruleset, &[("hand", "123456789m CCCC")]);
        assert_eq!(the(&a, "waits"), "waits([], 0)");
        // The reference bot's greedy split sees only 1m; both 1m and 4m win.
        let a = answer(ruleset, &[("hand", "1122334m EEESSS")]);
        assert_eq!(the(&a, "waits"), r#"waits(["1m", "4m"], 5)"#);
        let a = answer(ruleset, &[("hand", "1111m 2255m EESSPP"), ("drawn", "P")]);
        assert_eq!(the(&a, "win"), r#"win("seven pairs")"#);
        assert_eq!(the(&a, "shanten"), "shanten(-1)");
    }
}

#[test]
fn answers_read_well() {
    let a = answer("mahjong", &[("hand", "1122334m EEESSS C"), ("drawn", "C")]);
    assert_eq!(the(&a, "discard"), r#"discard("C")"#);
    let a = answer("mahjong_reference", &[("hand", "1122334m EEESSS C"), ("drawn", "C")]);
    assert_eq!(the(&a, "discard"), r#"discard("C")"#);
    assert_eq!(the(&a, "ready"), r#"ready(["1m", "4m"])"#);
    let a = answer("mahjong", &[("hand", "123m 456m 789m EE S N"), ("offered", "E")]);
    assert_eq!(the(&a, "call"), r#"call("pong", ["E", "E", "E"])"#);
    let a = answer("mahjong", &[("hand", "123m 456m 789m EE S N"), ("offered", "C")]);
    assert_eq!(the(&a, "call"), r#"call("pass", [])"#);
    let a = answer("mahjong", &[("hand", "1122334m EEESSS"), ("offered", "4m")]);
    assert_eq!(the(&a, "win"), r#"win("standard")"#);
    // Compact and 1z–7z forms are the same hand.
    let b = answer("mahjong", &[("hand", "1122334m111222z"), ("offered", "4m")]);
    assert_eq!(a, b);
}

// ---- bad input ---------------------------------------------------------------------------------------

fn error_of(ruleset: &str, inputs: &[(&str, &str)]) -> String {
    let mut s = session(ruleset);
    for (k, v) in inputs {
        if let Err(e) = s.set_input_text(k, v) {
            return e.to_string();
        }
    }
    match s.run() {
        Ok(_) => panic!("{inputs:?} was accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_input_is_refused_by_name() {
    let e = error_of("mahjong", &[("hand", "11111m EEESSSWW")]);
    assert!(e.contains("`1m`: appears 5 times (there are only 4)"), "{e}");
    let e = error_of("mahjong", &[("hand", "123m 1x")]);
    assert!(e.contains("`1x`: unknown tile"), "{e}");
    let e = error_of("mahjong", &[("hand", "123m 456m")]);
    assert!(e.contains("needs 13 or 14 tiles, got 6"), "{e}");
    let e = error_of("mahjong", &[("hand", "1111m EEESSSWWW"), ("visible", "1m")]);
    assert!(e.contains("1m appears 5 times"), "{e}");
    let e = error_of("mahjong", &[("hand", "1122334m EEESSS C"), ("offered", "C")]);
    assert!(e.contains("a call needs the waiting hand"), "{e}");
    let e = error_of("mahjong", &[("hand", "123m PPP"), ("melds", "PPP 12m")]);
    assert!(e.contains("`12m`: not a meld"), "{e}");
    let e = error_of("mahjong", &[("hand", "1122334m EEESSS C"), ("drawn", "9m")]);
    assert!(e.contains("the drawn tile 9m is not in the hand"), "{e}");
}

// ---- every rule exercised -------------------------------------------------------------------------------

/// The positions strong and seed players decide on in real games.
struct Recorder<P: Player> {
    inner: P,
    turns: Vec<PlayerView>,
    calls: Vec<(PlayerView, Tile)>,
}

impl<P: Player> Player for Recorder<P> {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn on_draw(&mut self, view: &PlayerView) -> kibitzer::games::mahjong::TurnAction {
        self.turns.push(view.clone());
        self.inner.on_draw(view)
    }
    fn on_discard(&mut self, view: &PlayerView, offered: Tile) -> kibitzer::games::mahjong::CallAction {
        self.calls.push((view.clone(), offered));
        self.inner.on_discard(view, offered)
    }
}

fn fired_rules(s: &Session, into: &mut BTreeSet<String>) {
    for (i, r) in s.program().rule_names().enumerate() {
        if s.fired_count(i) > 0 {
            into.insert(r.to_string());
        }
    }
}

#[test]
fn every_rule_fires_somewhere() {
    let queries: Vec<Vec<(&str, &str)>> = vec![
        vec![("hand", "1112345678999m")],
        vec![("hand", "1111m EEESSSWWW")],
        vec![("hand", "1111m 2255m EESSPP"), ("drawn", "P")],
        vec![("hand", "1122334m EEESSS"), ("offered", "4m")],
        vec![("hand", "1122334m EEESSS C"), ("drawn", "C")],
        vec![("hand", "123m 456m 789m EE SS C"), ("drawn", "C")],
        vec![("hand", "123m 456m 789m EEE S C"), ("drawn", "C")],
        vec![("hand", "EE"), ("melds", "123m 456m 789m SSS"), ("after_call", "true")],
        vec![("hand", "1111m 234m 567m EE SC"), ("drawn", "C")],
        vec![("hand", "123m 456m 789m EE S N"), ("offered", "E")],
        vec![("hand", "123m 456m 789m EE S N"), ("offered", "1m")],
        vec![("hand", "123m 456m 789m EE S N"), ("offered", "C")],
        vec![
            ("hand", "123m 456m 789m EE S N"),
            ("offered", "E"),
            ("declared", "true"),
        ],
        vec![("hand", "1122334m EEESSS 9m"), ("drawn", "9m"), ("declared", "true")],
        vec![
            ("hand", "1122334m EEESSS 9m"),
            ("declared", "true"),
            ("after_call", "true"),
        ],
        vec![("hand", "123m 456m 78m 9m 11m N C P"), ("drawn", "P")],
        vec![("hand", "13m 57m 99m EE SS NN WW"), ("drawn", "W")],
        vec![("hand", "11223345679m EE"), ("offered", "E")],
        vec![("hand", "123m 456m 789m EE SS C"), ("drawn", "C"), ("wall", "0")],
        vec![("hand", "1122334m EEESSS C"), ("drawn", "C"), ("wall", "0")],
        // A declared-ready opponent: the deal-in chances decide between equal chances.
        vec![
            ("hand", "1122334m EEESSS C"),
            ("drawn", "C"),
            ("visible", "4m 4m 4m"),
            ("opponent_ready", "true"),
            ("safe", "C"),
        ],
        // No chance to win before the wall ends against a ready opponent: fold.
        vec![
            ("hand", "111m 23m 456m 79m E C NN"),
            ("drawn", "N"),
            ("wall", "2"),
            ("visible", "E C"),
            ("opponent_ready", "true"),
            ("opponent_discards", "E"),
        ],
        // The same with no discard of its own: E is no safer than C.
        vec![
            ("hand", "111m 23m 456m 79m E C NN"),
            ("drawn", "N"),
            ("wall", "2"),
            ("visible", "E C"),
            ("opponent_ready", "true"),
        ],
        vec![("hand", "E"), ("melds", "123m 456m 789m SSS"), ("offered", "C")],
        vec![
            ("hand", "CC"),
            ("melds", "123m 456m 789m SSS"),
            ("drawn", "C"),
            ("after_call", "true"),
        ],
    ];
    for ruleset in ["mahjong", "mahjong_reference"] {
        let program = load_shipped(ruleset).unwrap();
        let mut fired = BTreeSet::new();
        for q in &queries {
            let mut s = Session::new(program.clone());
            s.reset();
            let mut ok = true;
            for (k, v) in q {
                // Inputs one rule set lacks (declared, after_call) are skipped there.
                if program.input_names().any(|d| d == *k) {
                    ok &= s.set_input_text(k, v).is_ok();
                }
            }
            assert!(ok, "{q:?}");
            s.run().unwrap_or_else(|e| panic!("{ruleset} {q:?}: {e}"));
            fired_rules(&s, &mut fired);
        }
        // Game positions reach the shape orders and the rarer calls.
        let mut rec = Recorder {
            inner: ReferencePlayer::default(),
            turns: Vec::new(),
            calls: Vec::new(),
        };
        let mut other = StrongPlayer::plain();
        play_match([&mut rec, &mut other], 40, 3);
        let mut player = RulePlayer::new(ruleset, program.clone());
        let _ = player.session().set_param("detail", "true");
        for v in &rec.turns {
            player.decide_turn(v).unwrap();
            fired_rules(player.session(), &mut fired);
        }
        for (v, t) in &rec.calls {
            player.decide_call(v, *t).unwrap();
            fired_rules(player.session(), &mut fired);
        }
        let all: BTreeSet<String> = program.rule_names().map(String::from).collect();
        let missing: Vec<&String> = all.difference(&fired).collect();
        assert!(missing.is_empty(), "{ruleset}: rules that never fired: {missing:?}");
    }
}

// ---- the rule sets are their native twins --------------------------------------------------------------

#[test]
fn rule_sets_decide_as_their_native_twins_in_games() {
    let strong = load_shipped("mahjong").unwrap();
    let seed = load_shipped("mahjong_reference").unwrap();
    let mut a = TwinCheck::new(LookaheadPlayer::default(), RulePlayer::new("mahjong", strong));
    let mut b = TwinCheck::new(ReferencePlayer::default(), RulePlayer::new("mahjong_reference", seed));
    let stats = play_match([&mut a, &mut b], 150, 2024);
    assert_eq!(stats.misplays, [0, 0], "{:?}", stats.first_misplay);
    for t in [
        (a.decisions, a.mismatches, &a.examples),
        (b.decisions, b.mismatches, &b.examples),
    ] {
        assert!(t.0 > 2000, "only {} decisions", t.0);
        assert_eq!(t.1, 0, "{:?}", t.2);
    }
}

/// A random position: `size` tiles from the 64-tile two-player set, some more seen elsewhere.
fn random_position(rng: &mut ChaCha8Rng, size: usize) -> (Counts, Counts, Tile) {
    let mut wall: Vec<usize> = (0..9).chain(27..34).flat_map(|k| [k; 4]).collect();
    wall.shuffle(rng);
    let mut hand = [0u8; KINDS];
    for &k in &wall[..size] {
        hand[k] += 1;
    }
    let mut visible = [0u8; KINDS];
    for k in &mut visible[9..27] {
        *k = 4;
    }
    let seen = rng.random_range(0..20);
    for &k in &wall[size..size + seen] {
        visible[k] += 1;
    }
    let extra = Tile::from_index(wall[size + seen]).unwrap();
    (hand, visible, extra)
}

#[test]
fn rule_sets_decide_as_their_native_twins_on_random_hands() {
    let strong = load_shipped("mahjong").unwrap();
    let seed = load_shipped("mahjong_reference").unwrap();
    let mut rules_strong = RulePlayer::new("mahjong", strong);
    let mut rules_seed = RulePlayer::new("mahjong_reference", seed);
    let mut native_strong = LookaheadPlayer::default();
    let mut native_seed = ReferencePlayer::default();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for i in 0..1500 {
        // Turns: 14 tiles, the last one drawn.
        let (hand, visible, _) = random_position(&mut rng, 14);
        let drawn = (0..KINDS).rev().find(|&k| hand[k] > 0).and_then(Tile::from_index);
        let view = PlayerView::for_hand(hand, Vec::new(), visible, drawn);
        assert_eq!(
            rules_strong.decide_turn(&view),
            Ok(native_strong.on_draw(&view)),
            "strong {i}"
        );
        assert_eq!(
            rules_seed.decide_turn(&view),
            Ok(native_seed.on_draw(&view)),
            "seed {i}"
        );
        // Calls: 13 tiles and an offered tile (already among the visible ones, as in a game).
        let (hand, mut visible, offered) = random_position(&mut rng, 13);
        visible[offered.index()] += 1;
        let view = PlayerView::for_hand(hand, Vec::new(), visible, None);
        assert_eq!(
            rules_strong.decide_call(&view, offered),
            Ok(native_strong.on_discard(&view, offered)),
            "strong call {i}"
        );
        assert_eq!(
            rules_seed.decide_call(&view, offered),
            Ok(native_seed.on_discard(&view, offered)),
            "seed call {i}"
        );
    }
}

/// Against a declared opponent, on short walls where many hands cannot win in time: the rules and
/// the native twin make the same discard, and some of those discards are folds that give up a step.
#[test]
fn the_fold_is_decided_alike_by_the_rules_and_the_native_twin() {
    let mut rules = RulePlayer::new("mahjong", load_shipped("mahjong").unwrap());
    let mut native = LookaheadPlayer::default();
    let mut blind = LookaheadPlayer {
        levers: Levers::none(),
        ..LookaheadPlayer::default()
    };
    let mut rng = ChaCha8Rng::seed_from_u64(56);
    let mut folds_a_step = 0;
    let mut read_decided = 0;
    for i in 0..400 {
        let (hand, visible, _) = random_position(&mut rng, 14);
        let drawn = (0..KINDS).rev().find(|&k| hand[k] > 0).and_then(Tile::from_index);
        let mut view = PlayerView::for_hand(hand, Vec::new(), visible, drawn);
        view.wall_remaining = rng.random_range(0..8);
        view.opponent_ready = true;
        // The opponent's own discards: some of the seen characters and honours.
        for k in (0..9).chain(27..34) {
            if visible[k] > 0 && rng.random_bool(0.3) {
                view.opponent_discards.push(Tile::from_index(k).unwrap());
            }
        }
        // In some order, declared with one of them: the honour read rests on the one before.
        view.opponent_discards.shuffle(&mut rng);
        view.opponent_ready_at = rng.random_range(0..=view.opponent_discards.len());
        let decided = native.on_draw(&view);
        assert_eq!(rules.decide_turn(&view), Ok(decided), "{i}");
        if blind.on_draw(&view) != decided {
            read_decided += 1;
        }
        if let kibitzer::games::mahjong::TurnAction::Discard(t) = decided {
            let mut left = hand;
            left[t.index()] -= 1;
            let best = (0..KINDS)
                .filter(|&k| hand[k] > 0)
                .map(|k| {
                    let mut h = hand;
                    h[k] -= 1;
                    shanten(&h, &[])
                })
                .min()
                .unwrap();
            if shanten(&left, &[]) > best {
                folds_a_step += 1;
            }
        }
    }
    assert!(folds_a_step >= 5, "{folds_a_step} folds that give up a step");
    assert!(read_decided >= 3, "the honour read changed {read_decided} discards");
}

#[test]
fn a_hand_from_the_notation_and_the_native_twins_agree() {
    // The trap hands, as views, through both paths.
    let mut rules_seed = RulePlayer::new("mahjong_reference", load_shipped("mahjong_reference").unwrap());
    let mut native = ReferencePlayer::default();
    let view = PlayerView::for_hand(
        parse_counts("1122334m EEESSS C").unwrap(),
        Vec::new(),
        [0; KINDS],
        Some(parse_tile("C").unwrap()),
    );
    assert_eq!(rules_seed.decide_turn(&view), Ok(native.on_draw(&view)));
}

// ---- arena and benchmark -----------------------------------------------------------------------------------

fn run_arena(seats: &[&str], games: u64) -> Result<Vec<String>, String> {
    let all = arenas();
    let arena = all.iter().find(|a| a.game == "mahjong").expect("a mahjong arena");
    let mut lines = Vec::new();
    let opts = PlayOptions {
        load: |name| kibitzer::load_any(name).map_err(|e| e.to_string()),
        seats: seats.iter().map(|s| s.to_string()).collect(),
        games,
        seed: 9,
        args: Vec::new(),
        watch: Default::default(),
    };
    (arena.run)(&opts, &mut |l: &str| lines.push(l.to_string()))?;
    Ok(lines)
}

#[test]
fn the_reference_bots_former_names_are_read_but_not_listed() {
    let hand = [("hand", "1122334m EEESSS C"), ("drawn", "C")];
    let now = answer("mahjong_reference", &hand);
    for former in ["mahjong_seed", "mahjong-seed"] {
        assert_eq!(answer(former, &hand), now, "{former}");
    }
    let seat = run_arena(&["mahjong-seed", "reference"], 4).unwrap().join("\n");
    assert!(seat.contains("seat 1 mahjong-seed"), "{seat}");
    assert!(!kibitzer::library::shipped_names().iter().any(|n| n.contains("seed")));
    let err = run_arena(&["mahjong", "nosuch"], 1).unwrap_err();
    assert!(err.contains("mahjong_reference") && !err.contains("seed"), "{err}");
}

#[test]
fn the_arena_reports_rates_with_intervals() {
    let lines = run_arena(&["mahjong", "mahjong-reference"], 30).unwrap();
    let text = lines.join("\n");
    assert!(text.contains("seat 1 mahjong"), "{text}");
    assert!(text.contains("95% CI"), "{text}");
    assert!(text.contains("games/s"), "{text}");
    // Under the column names, one row per seat: its figures, the misplays last.
    let header = lines
        .iter()
        .position(|l| l.starts_with("seat   player"))
        .expect("column names");
    assert!(lines[header].ends_with("misplays"), "{text}");
    assert!(
        lines[header + 1].ends_with(" 0") && lines[header + 2].ends_with(" 0"),
        "{text}"
    );
    // The rule seats play exactly as their native twins: same deals, same results.
    let native = run_arena(&["lookahead", "reference"], 30).unwrap();
    let wins = |ls: &[String]| -> Vec<String> {
        ls.iter()
            .filter(|l| l.starts_with("seat 1 ") || l.starts_with("seat 2 ") || l.starts_with("draws"))
            .map(|l| {
                // The figures without the seat's name (the third word).
                let mut words: Vec<&str> = l.split_whitespace().collect();
                words.remove(2);
                words.join(" ")
            })
            .map(|l| l.split(" games;").next().unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(wins(&lines), wins(&native));
    let e = run_arena(&["mahjong", "nobody"], 2).unwrap_err();
    assert!(e.contains("no mahjong player `nobody`"), "{e}");
    assert!(e.contains("players: random, reference, strong"), "{e}");
    let e = run_arena(&["mahjong"], 2).unwrap_err();
    assert!(e.contains("exactly 2 seats"), "{e}");
    let e = run_arena(&["stud", "seed"], 2).unwrap_err();
    assert!(e.contains("not a mahjong player"), "{e}");
    assert!(run_arena(&["random", "strong"], 4).is_ok());
    // The reference bot's former name is still read.
    assert!(run_arena(&["seed", "random"], 2).is_ok());
}

#[test]
fn the_quick_bench_ends_with_the_figures() {
    let all = workloads();
    let w = all.iter().find(|w| w.name == "mahjong").expect("a mahjong workload");
    let mut lines = Vec::new();
    (w.run)(
        &BenchOptions {
            load: |name| kibitzer::load_any(name).map_err(|e| e.to_string()),
            quick: true,
            args: Vec::new(),
        },
        &mut |l: &str| lines.push(l.to_string()),
    )
    .unwrap();
    let last = lines.last().unwrap();
    for name in [
        "win_checks_per_s=",
        "shanten_per_s=",
        "waits_per_s=",
        "decision_us=",
        "native_decision_us=",
        "games_per_s=",
        "rule_games_per_s=",
        "decision_median_ms=",
        "decision_p90_ms=",
        "cores=2",
    ] {
        assert!(last.contains(name), "{last}");
    }
}

/// `only=rules rules=PATH` times a copy of the rule file instead of the shipped one: a copy runs,
/// a broken copy is refused with its file's name, and `rules=` without `only=rules`, or an unknown
/// setting, is refused by name.
#[test]
fn the_rule_bench_times_an_edited_copy() {
    let all = workloads();
    let w = all.iter().find(|w| w.name == "mahjong").expect("a mahjong workload");
    let bench = |args: &[(&str, &str)]| {
        let mut lines = Vec::new();
        let r = (w.run)(
            &BenchOptions {
                load: |name| kibitzer::load_any(name).map_err(|e| e.to_string()),
                quick: true,
                args: args.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            },
            &mut |l: &str| lines.push(l.to_string()),
        );
        r.map(|()| lines)
    };
    let dir = std::env::temp_dir().join(format!("kibitzer-mj-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shipped = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/rules/mahjong.rules")).unwrap();
    let same = dir.join("same.rules");
    std::fs::write(&same, &shipped).unwrap();
    let lines = bench(&[("only", "rules"), ("rules", same.to_str().unwrap())]).unwrap();
    assert!(lines.last().unwrap().starts_with("decision_us="), "{lines:?}");
    let bad = dir.join("bad.rules");
    std::fs::write(&bad, shipped.replace("rule Deal", "rule Deal(")).unwrap();
    let e = bench(&[("only", "rules"), ("rules", bad.to_str().unwrap())]).unwrap_err();
    assert!(e.contains("bad.rules"), "{e}");
    let e = bench(&[("rules", same.to_str().unwrap())]).unwrap_err();
    assert!(e.contains("only=rules"), "{e}");
    let e = bench(&[("only", "rules"), ("speed", "1")]).unwrap_err();
    assert!(e.contains("`speed`"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn impossible_positions_are_bad_inputs_naming_the_input() {
    let cases: &[(&[(&str, &str)], &str)] = &[
        (
            &[("hand", "11223345679m EE"), ("melds", "123m 456m 789m EEE")],
            "input `hand`: E appears 5 times",
        ),
        (&[("hand", "1112m"), ("melds", "123m")], "input `hand`:"),
        (
            &[("hand", "11223345679m EEE"), ("offered", "E")],
            "input `offered`: a tile is offered",
        ),
        (&[("hand", "11223345679m EE"), ("drawn", "E")], "input `drawn`:"),
    ];
    for (inputs, wanted) in cases {
        let mut s = kibitzer::Session::new(kibitzer::load_shipped("mahjong").expect("mahjong"));
        for (k, v) in *inputs {
            s.set_input_text(k, v).expect("well-formed input");
        }
        let err = s.run().expect_err("impossible");
        assert!(matches!(err, kibitzer::RunError::BadPosition { .. }), "{err}");
        assert!(err.to_string().starts_with(wanted), "{inputs:?}: {err}");
    }
}

// ---- the lookahead's decisions ----------------------------------------------------------------------

/// A call that keeps the hand ready but widens its wait is made: the brief's hand, its mirror image
/// with another honour, and the first with one winning tile already seen.
#[test]
fn a_call_that_widens_the_wait_is_made() {
    for (hand, offered, visible) in [
        ("11223345679m EE", "E", ""),
        ("13456778899m PP", "P", ""),
        ("11223345679m EE", "E", "1m"),
    ] {
        let a = answer("mahjong", &[("hand", hand), ("offered", offered), ("visible", visible)]);
        assert_eq!(
            the(&a, "call"),
            format!(r#"call("pong", ["{offered}", "{offered}", "{offered}"])"#),
            "{hand}"
        );
        assert_eq!(the(&a, "shanten"), "shanten(0)");
        // Both alternatives are listed, the pong first.
        assert!(a.iter().any(|c| c.starts_with(r#"option("call", 1, "pong""#)), "{a:?}");
        assert!(a.iter().any(|c| c.starts_with(r#"option("call", 2, "pass""#)), "{a:?}");
    }
    // Without a pair to pong, the same shape passes.
    let a = answer("mahjong", &[("hand", "11223345679m ES"), ("offered", "E")]);
    assert_eq!(the(&a, "call"), r#"call("pass", [])"#);
}

/// Every discard is listed once as an option, ranked 1, 2, … in the rules' order, rank 1 the
/// discard made.
#[test]
fn every_discard_is_an_option_ranked_from_the_chosen_one() {
    let a = answer("mahjong", &[("hand", "1122334m EEESSS C"), ("drawn", "C")]);
    let options: Vec<&String> = a.iter().filter(|c| c.starts_with(r#"option("discard""#)).collect();
    assert_eq!(options.len(), 7, "{options:?}");
    for r in 1..=7 {
        assert!(
            options
                .iter()
                .any(|o| o.starts_with(&format!(r#"option("discard", {r}, "#))),
            "{options:?}"
        );
    }
    assert!(
        options.iter().any(|o| o.starts_with(r#"option("discard", 1, "C""#)),
        "{options:?}"
    );
    assert_eq!(the(&a, "discard"), r#"discard("C")"#);
}

/// The rule seat decides from what a player sees: the same hand, melds, seen tiles, drawn tile and
/// wall give the same decision whatever else the table's view holds.
#[test]
fn the_rule_seat_decides_from_what_the_player_sees() {
    let mut rec = Recorder {
        inner: ReferencePlayer::default(),
        turns: Vec::new(),
        calls: Vec::new(),
    };
    let mut other = StrongPlayer::plain();
    play_match([&mut rec, &mut other], 20, 17);
    let mut player = RulePlayer::new("mahjong", load_shipped("mahjong").unwrap());
    let bare = |v: &PlayerView| {
        let mut b = PlayerView::for_hand(v.hand, v.melds.clone(), v.visible, v.drawn);
        b.wall_remaining = v.wall_remaining;
        b
    };
    for v in &rec.turns {
        let d = player.decide_turn(v);
        assert_eq!(d, player.decide_turn(&bare(v)));
        assert_eq!(d, player.decide_turn(v), "deterministic");
    }
    for (v, t) in &rec.calls {
        let d = player.decide_call(v, *t);
        assert_eq!(d, player.decide_call(&bare(v), *t));
    }
}

/// A chance to win says what it is: a ready hand's is exact and printed bare; above ready it is
/// "an estimated" figure when searched, and not shown when left in part to the rough estimate.
#[test]
fn a_chance_above_ready_is_labelled_an_estimate() {
    let far = answer(
        "mahjong",
        &[("hand", "13m 57m 99m EE SS NN W 2m"), ("drawn", "2m"), ("wall", "30")],
    );
    let options: Vec<&String> = far.iter().filter(|l| l.starts_with("option(\"discard\"")).collect();
    assert!(!options.is_empty(), "{far:?}");
    for o in &options {
        assert!(o.contains("2-shanten") || o.contains("3-shanten"), "{o}");
        assert!(
            o.contains("wins within 6 draws an estimated ") || o.contains("wins within 6 draws an unshown share"),
            "{o}"
        );
    }
    let ready = answer(
        "mahjong",
        &[("hand", "1122334m EEESSS C"), ("drawn", "C"), ("visible", "4m 4m 4m")],
    );
    let options: Vec<&String> = ready.iter().filter(|l| l.contains("ready, waits")).collect();
    assert!(!options.is_empty(), "{ready:?}");
    for o in options {
        assert!(!o.contains("estimated"), "{o}");
    }
}

// ---- the chance figures against an independent simulation ------------------------------------------

/// The chance that `hand` (13 − 3k concealed tiles beside `melds`) wins within `draws` draws from
/// the tiles unseen (`4 − own − seen` a kind), by simulation: each draw at random without
/// replacement; a win ends it; a draw that lowers shanten is kept, with the discard that keeps the
/// lower shanten and the most live useful tiles after it; any other draw is thrown back.
fn simulated_chance(hand: &Counts, melds: &[Meld], seen: &Counts, draws: usize, games: u32, seed: u64) -> f64 {
    let mut pool: Vec<usize> = Vec::new();
    for k in 0..KINDS {
        let own = hand[k] as usize
            + melds.iter().flat_map(|m| m.tiles()).filter(|t| t.index() == k).count()
            + seen[k] as usize;
        pool.extend(std::iter::repeat_n(k, 4usize.saturating_sub(own)));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut wins = 0u32;
    for _ in 0..games {
        pool.shuffle(&mut rng);
        let mut h = *hand;
        let mut s = shanten(&h, melds);
        // Live copies as the player counts them: the unseen ones not drawn yet.
        let mut live = [0u8; KINDS];
        for &k in &pool {
            live[k] += 1;
        }
        for &t in pool.iter().take(draws) {
            live[t] -= 1;
            h[t] += 1;
            if is_win(&h, melds).is_some() {
                wins += 1;
                break;
            }
            let mut best: Option<(usize, u32)> = None;
            for d in 0..KINDS {
                if h[d] == 0 || d == t {
                    continue;
                }
                h[d] -= 1;
                let after = shanten(&h, melds);
                if after < s {
                    let useful = live_useful(&mut h, melds, &live, after);
                    if best.is_none_or(|(_, b)| useful > b) {
                        best = Some((d, useful));
                    }
                }
                h[d] += 1;
            }
            match best {
                Some((d, _)) => {
                    h[d] -= 1;
                    s = shanten(&h, melds);
                }
                None => h[t] -= 1,
            }
        }
    }
    f64::from(wins) / f64::from(games)
}

/// Live copies of the kinds whose draw lowers the shanten `s` of the waiting hand `h`.
fn live_useful(h: &mut Counts, melds: &[Meld], live: &Counts, s: i8) -> u32 {
    let mut n = 0;
    for u in 0..KINDS {
        if live[u] == 0 {
            continue;
        }
        h[u] += 1;
        if shanten(h, melds) < s {
            n += u32::from(live[u]);
        }
        h[u] -= 1;
    }
    n
}

/// The documented positions that show a chance (docs/mahjong.md, `rules/mahjong.cases.toml`):
/// hand, drawn tile or offered tile, tiles seen, wall.
const SHOWN_CHANCES: &[(&str, &str, &str, &str, i64)] = &[
    ("1122334m EEESSS C", "C", "", "", 20),
    ("123m 456m 789m EE SS C", "C", "", "", 20),
    ("123m 456m 789m EEE S C", "C", "", "", 20),
    ("123m 456m 78m 9m 11m N C P", "P", "", "", 20),
    ("13m 57m 99m EE SS NN WW", "W", "", "", 20),
    ("P P 1m 2p E 3s 4m 1p 7p 2m 3s 6p 2p 6m", "6m", "", "", 20),
    ("1122334m EEESSS C", "C", "", "4m 4m 4m", 20),
    ("13m 57m 99m EE SS NN W 2m", "2m", "", "", 30),
    ("1122334m EEESSS C", "C", "", "", 0),
    ("111m 23m 456m 79m E C NN", "N", "", "E C", 2),
    ("1122334m EEESSS", "", "4m", "", 20),
    ("123m 456m 789m EE S N", "", "E", "", 20),
    ("123m 456m 789m EE S N", "", "1m", "", 20),
    ("123m 456m 789m EE S N", "", "C", "", 20),
    ("123m 456m 789m EE S N", "", "S", "", 20),
    ("11223345679m EE", "", "E", "", 20),
    ("13456778899m PP", "", "P", "", 20),
    ("11223345679m EE", "", "1m", "", 20),
];

/// Every chance the rules show on a documented position is within 2 points of a simulation of
/// 20,000 deals of the same model (a different method: sampled draws, a greedy keep-and-discard
/// policy); a chance left in part to the rough estimate is not shown as a figure.
#[test]
fn the_documented_chances_agree_with_a_simulation() {
    use kibitzer::games::mahjong::lookahead::{call_chances, call_draws, discard_chances, draws_left, Chance};
    let percent = |p: f64| format!("{:.0}%", 100.0 * p);
    let (mut shown, mut hidden) = (0, 0);
    let mut check = |what: &str, c: &Chance, text: &str, hand: &Counts, melds: &[Meld], seen: &Counts, draws: usize| {
        if !(c.exact || c.searched) {
            assert!(text.contains("an unshown share"), "{what}: {text}");
            hidden += 1;
            return;
        }
        assert!(
            text.contains(&percent(c.p)) && !text.contains("unshown"),
            "{what}: {text}"
        );
        let sim = simulated_chance(hand, melds, seen, draws, 20_000, 3);
        assert!(
            (c.p - sim).abs() <= 0.02,
            "{what}: shown {:.4}, simulated {sim:.4}",
            c.p
        );
        shown += 1;
    };
    for &(hand_text, drawn, offered, visible, wall) in SHOWN_CHANCES {
        let hand = parse_counts(hand_text).unwrap();
        let mut seen = parse_counts(visible).unwrap_or([0; KINDS]);
        if !hand_text.contains('p') && !hand_text.contains('s') {
            // Two-player: with no pin or bamboo in the position, none is ever live.
            seen[9..27].fill(4);
        }
        let wall_text = wall.to_string();
        let mut inputs = vec![("hand", hand_text), ("visible", visible), ("wall", wall_text.as_str())];
        if !drawn.is_empty() {
            inputs.push(("drawn", drawn));
        }
        if !offered.is_empty() {
            inputs.push(("offered", offered));
        }
        let answer = answer("mahjong", &inputs);
        let option = |choice: &str| -> String {
            answer
                .iter()
                .find(|o| o.starts_with("option(") && o.contains(&format!(", \"{choice}\", ")))
                .cloned()
                .unwrap_or_else(|| panic!("{hand_text}: no option {choice} in {answer:?}"))
        };
        if offered.is_empty() {
            let draws = draws_left(wall, false).min(6);
            let (chances, _) = discard_chances(&hand, &[], &seen, draws, 20, Vec::new());
            for d in chances {
                // The discard goes to the table: seen from then on.
                let (mut left, mut table) = (hand, seen);
                left[d.tile.index()] -= 1;
                table[d.tile.index()] += 1;
                let what = format!("{hand_text} discard {}", d.tile);
                check(
                    &what,
                    &d.chance,
                    &option(&d.tile.to_string()),
                    &left,
                    &[],
                    &table,
                    draws,
                );
            }
        } else {
            let t = parse_tile(offered).unwrap();
            seen[t.index()] += 1;
            let draws = call_draws(wall, 6);
            let c = call_chances(&hand, &[], t, true, &seen, draws, 20, Vec::new());
            if c.wins {
                continue;
            }
            check(
                &format!("{hand_text} pass on {offered}"),
                &c.pass,
                &option("pass"),
                &hand,
                &[],
                &seen,
                draws.0,
            );
            let mut after = seen;
            after[t.index()] -= 1;
            for call in &c.calls {
                let mut rest = hand;
                for x in &call.option.from_hand {
                    rest[x.index()] -= 1;
                }
                let melds = [call.option.meld];
                let mut table = after;
                let n = match call.discard {
                    Some(d) => {
                        rest[d.index()] -= 1;
                        table[d.index()] += 1;
                        draws.1
                    }
                    None => draws.0,
                };
                let text = answer
                    .iter()
                    .find(|o| o.contains(&format!("{} {}:", call.option.kind.name(), call.option.meld)))
                    .cloned()
                    .unwrap_or_default();
                let what = format!("{hand_text} {} on {offered}", call.option.meld);
                check(&what, &call.chance, &text, &rest, &melds, &table, n);
            }
        }
    }
    assert!(shown >= 60 && hidden >= 5, "{shown} shown, {hidden} hidden");
}
