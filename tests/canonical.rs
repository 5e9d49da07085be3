//! A position's answer does not depend on the order its cards are typed in: random positions of
//! every game, their card lists typed in shuffled orders, answered alike (the conclusions, with
//! the cards inside each one compared as a set where the answer lists the hand back in the
//! order typed). Durak defences face two or three unbeaten attack cards, so that the order of the
//! table matters to the search's deals and to which card is beaten.

use kibitzer::cases::{answer, random_positions, Position};
use kibitzer::load_shipped;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Each conclusion as its sorted words: the same cards listed in another order read the same,
/// while any other change (a card, a number, a word) does not.
fn normalised(lines: &[String]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = lines
        .iter()
        .map(|l| {
            let mut w: Vec<String> = l
                .split(|c: char| c.is_whitespace() || matches!(c, ',' | ':' | ';' | '[' | ']' | '(' | ')' | '"'))
                .filter(|t| !t.is_empty())
                .map(str::to_string)
                .collect();
            w.sort();
            w
        })
        .collect();
    out.sort();
    out
}

/// The position with the cards of each named input typed in a shuffled order.
fn shuffled(p: &Position, names: &[&str], rng: &mut ChaCha8Rng) -> Position {
    let inputs =
        p.0.iter()
            .map(|(k, v)| match names.contains(&k.as_str()) {
                true => {
                    let mut t: Vec<&str> = v.split_whitespace().collect();
                    t.shuffle(rng);
                    (k.clone(), t.join(" "))
                }
                false => (k.clone(), v.clone()),
            })
            .collect();
    (inputs, p.1.clone())
}

fn same_answers(game: &str, positions: &[Position], names: &[&str]) {
    let program = load_shipped(game).expect("a shipped rule set");
    let mut rng = ChaCha8Rng::seed_from_u64(56);
    let mut compared = 0;
    for p in positions {
        let first = answer(&program, &p.0, &p.1);
        let other = shuffled(p, names, &mut rng);
        if other == *p {
            continue;
        }
        let second = answer(&program, &other.0, &other.1);
        assert_eq!(
            normalised(&first.lines),
            normalised(&second.lines),
            "{game}: {:?} and {:?} answered differently:\n{:#?}\n{:#?}",
            p.0,
            other.0,
            first.lines,
            second.lines
        );
        compared += 1;
    }
    assert!(
        compared * 2 >= positions.len(),
        "{game}: most positions typed in another order"
    );
}

#[test]
fn stud_hands_in_any_order() {
    let ps = random_positions("stud", 1, 12).expect("stud positions");
    same_answers("stud", &ps, &["hand"]);
}

#[test]
fn rummy_hands_in_any_order() {
    let ps = random_positions("rummy", 2, 16).expect("rummy positions");
    same_answers("rummy", &ps, &["hand"]);
}

#[test]
fn mahjong_hands_in_any_order() {
    let ps = random_positions("mahjong", 3, 16).expect("mahjong positions");
    same_answers("mahjong", &ps, &["hand", "visible"]);
}

#[test]
fn doudizhu_hands_in_any_order() {
    let ps = random_positions("doudizhu", 4, 16).expect("dou dizhu positions");
    same_answers("doudizhu", &ps, &["me", "enemy"]);
}

/// Durak: random hands and leads from the shared generator, and defences against two or three
/// unbeaten cards, sampled search on.
#[test]
fn durak_positions_and_tables_in_any_order() {
    let mut ps = random_positions("durak", 5, 10).expect("durak positions");
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let ranks = ["6", "7", "8", "9", "T", "J", "Q", "K", "A"];
    let suits = ["S", "H", "D", "C"];
    for _ in 0..10 {
        let mut deck: Vec<String> = suits
            .iter()
            .flat_map(|s| ranks.iter().map(move |r| format!("{r}{s}")))
            .collect();
        deck.shuffle(&mut rng);
        let attacks = rng.random_range(2..=3);
        let trump = suits[rng.random_range(0..4)];
        ps.push((
            vec![
                ("hand".into(), deck[..6].join(" ")),
                ("trump".into(), trump.into()),
                ("stock".into(), rng.random_range(0..=18).to_string()),
                ("hands".into(), "6,6".into()),
                ("role".into(), "defend".into()),
                ("table".into(), deck[6..6 + attacks].join(" ")),
            ],
            Vec::new(),
        ));
    }
    same_answers("durak", &ps, &["hand", "table"]);
}

/// The case of the report: the same three attack cards in two orders.
#[test]
fn durak_defence_against_8d_10s_8c_in_either_order() {
    let program = load_shipped("durak").expect("durak");
    let ask = |table: &str| {
        let inputs: Vec<(String, String)> = [
            ("hand", "9D TD JS QS KC 6H"),
            ("trump", "H"),
            ("stock", "10"),
            ("hands", "6,6"),
            ("role", "defend"),
            ("table", table),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        answer(&program, &inputs, &[]).lines
    };
    let (a, b) = (ask("8D TS 8C"), ask("8C 8D TS"));
    assert_eq!(a, b);
    assert!(a.iter().any(|l| l.starts_with("play(\"defend\"")), "{a:?}");
}
