//! `examples/blackjack.rules` against basic strategy written as the usual printed charts (4 to 8
//! decks, the dealer stands on soft 17, double after split, no surrender): every two- and
//! three-card hand against every dealer card.

use kibitzer::{load_text, Session};

/// Columns: the dealer's 2, 3, 4, 5, 6, 7, 8, 9, 10, A. `H` hit, `S` stand, `D` double (else
/// hit), `Ds` double (else stand), `P` split.
const HARD: &[(u32, &str)] = &[
    (8, "H H H H H H H H H H"),
    (9, "H D D D D H H H H H"),
    (10, "D D D D D D D D H H"),
    (11, "D D D D D D D D D H"),
    (12, "H H S S S H H H H H"),
    (13, "S S S S S H H H H H"),
    (14, "S S S S S H H H H H"),
    (15, "S S S S S H H H H H"),
    (16, "S S S S S H H H H H"),
    (17, "S S S S S S S S S S"),
];
const SOFT: &[(u32, &str)] = &[
    (12, "H H H H H H H H H H"),
    (13, "H H H D D H H H H H"),
    (14, "H H H D D H H H H H"),
    (15, "H H D D D H H H H H"),
    (16, "H H D D D H H H H H"),
    (17, "H D D D D H H H H H"),
    (18, "S Ds Ds Ds Ds S S H H H"),
    (19, "S S S S S S S S S S"),
];
/// By the value of the paired card; `-` plays the hand by its total.
const PAIRS: &[(u32, &str)] = &[
    (2, "P P P P P P - - - -"),
    (3, "P P P P P P - - - -"),
    (4, "- - - P P - - - - -"),
    (5, "- - - - - - - - - -"),
    (6, "P P P P P - - - - -"),
    (7, "P P P P P P - - - -"),
    (8, "P P P P P P P P P P"),
    (9, "P P P P P - P P - -"),
    (10, "- - - - - - - - - -"),
    (11, "P P P P P P P P P P"),
];

const RANKS: [&str; 13] = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];

/// A rank's value: faces 10, an ace 11.
fn value(rank: &str) -> u32 {
    match rank {
        "A" => 11,
        "T" | "J" | "Q" | "K" => 10,
        n => n.parse().unwrap(),
    }
}

/// The chart's cell for a row key at or below `key` (a hard 5 plays as 8, a hard 20 as 17).
fn cell(chart: &[(u32, &str)], key: u32, column: usize) -> String {
    let key = key.clamp(chart[0].0, chart[chart.len() - 1].0);
    let row = chart.iter().find(|(k, _)| *k == key).unwrap().1;
    row.split_whitespace().nth(column).unwrap().to_string()
}

/// What the charts advise for these cards against the dealer's card.
fn oracle(cards: &[&str], dealer: &str) -> &'static str {
    let column = match value(dealer) {
        11 => 9,
        v => v as usize - 2,
    };
    let hard: u32 = cards.iter().map(|c| if *c == "A" { 1 } else { value(c) }).sum();
    let soft = cards.contains(&"A") && hard <= 11;
    let total = if soft { hard + 10 } else { hard };
    if total > 21 {
        return "bust";
    }
    let two = cards.len() == 2;
    if two && value(cards[0]) == value(cards[1]) && cell(PAIRS, value(cards[0]), column) == "P" {
        return "split";
    }
    let advice = match soft {
        true => cell(SOFT, total, column),
        false => cell(HARD, total, column),
    };
    match advice.as_str() {
        "H" => "hit",
        "S" => "stand",
        "D" if two => "double",
        "D" => "hit",
        "Ds" if two => "double",
        "Ds" => "stand",
        other => panic!("no advice `{other}`"),
    }
}

#[test]
fn the_example_plays_basic_strategy_for_every_two_and_three_card_hand() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/blackjack.rules")).unwrap();
    let mut s = Session::new(load_text("blackjack.rules", &text).unwrap());
    let suits = ["S", "H", "D"];
    let mut hands: Vec<Vec<&str>> = Vec::new();
    for (i, a) in RANKS.iter().enumerate() {
        for (j, b) in RANKS.iter().enumerate().skip(i) {
            hands.push(vec![a, b]);
            for c in &RANKS[j..] {
                hands.push(vec![a, b, c]);
            }
        }
    }
    let mut wrong = Vec::new();
    for cards in &hands {
        let hand: Vec<String> = cards.iter().zip(suits).map(|(r, s)| format!("{r}{s}")).collect();
        let hand = hand.join(" ");
        for dealer in RANKS {
            s.set_input_text("hand", &hand).unwrap();
            s.set_input_text("dealer", dealer).unwrap();
            s.run().unwrap();
            let got = s.first_fact_of("action").map(|a| a[0].to_string()).unwrap_or_default();
            let want = oracle(cards, dealer);
            if got != format!("\"{want}\"") {
                wrong.push(format!("{hand} against {dealer}: {got}, the chart says {want}"));
            }
        }
    }
    assert_eq!(hands.len(), 91 + 455);
    assert!(
        wrong.is_empty(),
        "{} of {} wrong:\n{}",
        wrong.len(),
        hands.len() * 13,
        wrong.join("\n")
    );
}
