//! Stud's generated joins (built into the library's own tests only) against the matcher: the
//! category rules, the comparison and the odds by what-if leave the same transcript either way
//! (`Session::transcript`), with the same statistics.

use crate::builtins::Registry;
use crate::engine::program::Program;
use crate::engine::session::{RunOptions, Session};
use crate::library::{load_shipped, registry, shipped_names};
use proptest::prelude::*;
use std::sync::Arc;

const STUD: &str = include_str!("../../../rules/stud.rules");

/// The shipped stud rules with their generated joins, and on the matcher alone.
fn both() -> [Arc<Program>; 2] {
    let compiled = load_shipped("stud").expect("the shipped stud rules load");
    assert!(
        compiled.compiled.is_some(),
        "in the library's tests stud runs its generated joins"
    );
    let reg: Registry = registry().clone().without_compiled();
    let no_includes = |_: &str, p: &str| -> Result<(String, String), String> { Err(format!("no include {p}")) };
    let plain = crate::lang::load("<shipped>/stud.rules", STUD, &no_includes, &reg, &shipped_names())
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(plain.compiled.is_none());
    [compiled, Arc::new(plain)]
}

/// One query on both programs: the result (statistics, timing left out) and the transcript.
fn run_both(programs: &[Arc<Program>; 2], hand: &str, opponent: &str) -> [String; 2] {
    programs.clone().map(|p| {
        let mut s = Session::new(p);
        s.set_options(RunOptions {
            trace: true,
            ..RunOptions::default()
        });
        s.set_input_text("hand", hand).unwrap_or_else(|e| panic!("{hand}: {e}"));
        if !opponent.is_empty() {
            s.set_input_text("opponent", opponent)
                .unwrap_or_else(|e| panic!("{opponent}: {e}"));
        }
        match s.run() {
            Ok(mut r) => {
                r.stats.micros = 0;
                format!("{r:?}\n{}", s.transcript())
            }
            Err(e) => format!("error: {e}"),
        }
    })
}

#[test]
fn stud_queries_run_as_on_the_matcher() {
    let programs = both();
    for (hand, opponent) in [
        ("8S TD TS 8H 8C", "XX 3C 5D 4H 6H"),
        ("2S 3H 5D 7C 9S", "XX KC KD KH 4H"),
        ("AS KD QH 7C 4S", "XX XX JC 9D 6H"),
        ("6S 6H KD QC JS", "XX AH 2D 3C 4S"),
        ("AS KD", "XX QH"),
        ("AS 2S 3S 4S 5S", ""),
        ("AS AD KS KD 2C", "XX XX 7C 8C 9C"),
        ("9C", "XX XX"),
    ] {
        let [compiled, plain] = run_both(&programs, hand, opponent);
        assert_eq!(compiled, plain, "hand={hand} opponent={opponent}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Any hand of one to five cards, against an opponent showing up to four of the others behind
    /// one hidden card (or none): identical runs.
    #[test]
    fn any_stud_hand_runs_as_on_the_matcher(
        cards in proptest::sample::subsequence((0usize..52).collect::<Vec<_>>(), 1..=9),
        mine in 1usize..=5,
    ) {
        let programs = both();
        let ranks = "23456789TJQKA";
        let name = |i: &usize| format!("{}{}", &ranks[i / 4..i / 4 + 1], ["S", "H", "D", "C"][i % 4]);
        let mine = mine.min(cards.len());
        let hand: Vec<String> = cards[..mine].iter().map(name).collect();
        let theirs: Vec<String> = cards[mine..].iter().take(4).map(name).collect();
        let opponent = match theirs.is_empty() {
            true => String::new(),
            false => format!("XX {}", theirs.join(" ")),
        };
        let [compiled, plain] = run_both(&programs, &hand.join(" "), &opponent);
        prop_assert_eq!(compiled, plain);
    }
}
