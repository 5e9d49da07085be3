//! General card built-ins (rank, suit, counts by rank and suit, sorted and distinct ranks) and the
//! `card` / `cards` input types. They read the summary a [`Cards`] value carries, so each answers
//! in constant time. Ranks are integers 2..=14 (ace 14); suits are the letters "S" "H" "D" "C".

use super::core::int;
use super::registry::{BuiltinError, InputType, Intrinsic, Registry, Solutions, TypeArgs};
use crate::cards::{parse_card, parse_cards, Card, CardSpec, Cards, NotationError, Suit};
use crate::value::{Frozen, Shared, Value, ValueType as T};

/// One of the suit letters `S H D C` (index 0..4, clamped), shared: `suit` answers it for every
/// card of every hand, and a fresh string each time cost two allocations.
pub fn suit_letter(index: usize) -> Value {
    static LETTERS: std::sync::LazyLock<Frozen<[Value; 4]>> =
        std::sync::LazyLock::new(|| Frozen::new(["S", "H", "D", "C"].map(Value::fixed)));
    LETTERS[index.min(3)].clone()
}

/// One of the suit names `spades hearts diamonds clubs` (index 0..4, clamped), shared.
pub fn suit_name(index: usize) -> Value {
    static NAMES: std::sync::LazyLock<Frozen<[Value; 4]>> =
        std::sync::LazyLock::new(|| Frozen::new(["spades", "hearts", "diamonds", "clubs"].map(Value::fixed)));
    NAMES[index.min(3)].clone()
}

/// Registers the card built-ins and input types.
pub fn register(r: &mut Registry) {
    register_card_facts(r);
    register_rank_groups(r);
    register_counts(r);
    register_deck(r);
    register_inputs(r);
}

/// One card and a group: rank, suit, the visible cards and how many are hidden.
fn register_card_facts(r: &mut Registry) {
    let h = ("cards", T::Cards);
    r.func(
        "rank",
        &[("card", T::Card)],
        T::Int,
        "the rank 2..14 of a card (ace 14)",
        |a| Ok(Value::Int(card(a[0], "rank")?.rank() as i64)),
    );
    r.intrinsic_func(
        "suit",
        &[("card", T::Card)],
        T::Str,
        "the suit letter of a card: S, H, D or C",
        |a| Ok(suit_letter(card(a[0], "suit")?.suit().index() as usize)),
        Intrinsic::SuitLetter,
    );
    r.func("card_list", &[h], T::List, "the visible cards as a list", |a| {
        Ok(Value::list(
            cards(a[0], "card_list")?.cards().iter().map(|c| Value::Card(*c)),
        ))
    });
    r.func("card_count", &[h], T::Int, "how many cards are visible", |a| {
        Ok(Value::Int(cards(a[0], "card_count")?.len() as i64))
    });
    r.func("hidden_count", &[h], T::Int, "how many cards are hidden (XX)", |a| {
        Ok(Value::Int(cards(a[0], "hidden_count")?.hidden() as i64))
    });
}

/// Ranks as held: the ranks, their pattern, the ranks held a number of times.
fn register_rank_groups(r: &mut Registry) {
    let h = ("cards", T::Cards);
    r.func(
        "ranks",
        &[h],
        T::List,
        "the visible ranks, highest first, repeated as held",
        |a| {
            Ok(Value::list(
                cards(a[0], "ranks")?.ranks_desc().iter().map(|&r| Value::Int(r as i64)),
            ))
        },
    );
    r.func(
        "rank_pattern",
        &[h],
        T::List,
        "how often each held rank appears, largest first: [3, 2] for a full house",
        |a| {
            Ok(Value::list(
                cards(a[0], "rank_pattern")?
                    .rank_pattern()
                    .iter()
                    .map(|&n| Value::Int(n as i64)),
            ))
        },
    );
    r.function(
        "rank_held",
        &[h, ("times", T::Int)],
        &[T::Int],
        true,
        "each rank held exactly `times` times, highest first (one solution each)",
        |a, o| {
            let c = cards(a[0], "rank_held")?;
            let k = int(a[1], "rank_held", 2)?;
            if let Ok(k) = u8::try_from(k) {
                for r in c.ranks_held(k) {
                    o.push1(Value::Int(r as i64));
                }
            }
            Ok(())
        },
    );
    r.function(
        "rank_groups",
        &[h, ("at_least", T::Int)],
        &[T::Int, T::Int],
        true,
        "each rank held at least `at_least` times, with how many: the fewest first (pairs before \
         threes when at_least is 2), highest rank first within each (one solution each)",
        |a, o| {
            let c = cards(a[0], "rank_groups")?;
            // Counts above 255 cannot be held: no solution, as `rank_held` gives none.
            let least = u8::try_from(int(a[1], "rank_groups", 2)?.max(1)).unwrap_or(u8::MAX);
            let most = (2..15).map(|r| c.count_rank(r)).max().unwrap_or(0);
            for k in least..=most {
                for r in c.ranks_held(k) {
                    o.push1(Value::Int(r as i64));
                    o.push1(Value::Int(k as i64));
                }
            }
            Ok(())
        },
    );
    r.func(
        "ranks_held",
        &[h, ("times", T::Int)],
        T::List,
        "the list of ranks held exactly `times` times, highest first",
        |a| {
            let c = cards(a[0], "ranks_held")?;
            let k = int(a[1], "ranks_held", 2)?;
            let ranks: Vec<Value> = match u8::try_from(k) {
                Ok(k) => c.ranks_held(k).map(|r| Value::Int(r as i64)).collect(),
                Err(_) => Vec::new(),
            };
            Ok(Value::list(ranks))
        },
    );
}

/// Counts, runs and suits of a group.
fn register_counts(r: &mut Registry) {
    let h = ("cards", T::Cards);
    r.func(
        "count_rank",
        &[h, ("rank", T::Int)],
        T::Int,
        "how many visible cards have this rank",
        |a| {
            let c = cards(a[0], "count_rank")?;
            let r = int(a[1], "count_rank", 2)?;
            Ok(Value::Int(u8::try_from(r).map_or(0, |r| c.count_rank(r)) as i64))
        },
    );
    r.func(
        "count_suit",
        &[h, ("suit", T::Str)],
        T::Int,
        "how many visible cards have this suit (S, H, D, C)",
        |a| {
            let c = cards(a[0], "count_suit")?;
            Ok(Value::Int(c.count_suit(suit(a[1], "count_suit")?) as i64))
        },
    );
    r.func(
        "distinct_ranks",
        &[h],
        T::Int,
        "how many different ranks are visible",
        |a| Ok(Value::Int(cards(a[0], "distinct_ranks")?.distinct_ranks() as i64)),
    );
    r.func(
        "distinct_suits",
        &[h],
        T::Int,
        "how many different suits are visible",
        |a| Ok(Value::Int(cards(a[0], "distinct_suits")?.distinct_suits() as i64)),
    );
    r.func(
        "same_suit",
        &[h],
        T::Bool,
        "true when every visible card has one suit",
        |a| Ok(Value::Bool(cards(a[0], "same_suit")?.distinct_suits() == 1)),
    );
    r.func(
        "consecutive",
        &[h],
        T::Bool,
        "true when the visible ranks are all different and unbroken (ace high only: A-2-3-4-5 is not)",
        |a| Ok(Value::Bool(cards(a[0], "consecutive")?.consecutive())),
    );
    r.func("high_rank", &[h], T::Int, "the highest visible rank (0 if none)", |a| {
        Ok(Value::Int(cards(a[0], "high_rank")?.high_rank() as i64))
    });
    r.function(
        "suit_of_all",
        &[h],
        &[T::Str],
        true,
        "the suit all visible cards share (no solution if they differ)",
        |a, o| {
            let c = cards(a[0], "suit_of_all")?;
            if c.distinct_suits() == 1 {
                if let Some(first) = c.cards().first() {
                    o.push1(suit_letter(first.suit().index() as usize));
                }
            }
            Ok(())
        },
    );
}

/// The rest of the deck: unseen cards and filling hidden ones.
fn register_deck(r: &mut Registry) {
    let h = ("cards", T::Cards);
    r.func(
        "unseen",
        &[("a", T::Cards), ("b", T::Cards)],
        T::List,
        "every card of the 52 in neither a nor b, in deck order",
        |a| {
            let mask = cards(a[0], "unseen")?.mask() | cards(a[1], "unseen")?.mask();
            Ok(Value::list(
                Card::deck()
                    .filter(|c| mask & (1u64 << c.index()) == 0)
                    .map(Value::Card),
            ))
        },
    );
    r.func(
        "fill_hidden",
        &[h, ("card", T::Card)],
        T::Cards,
        "the cards with one hidden card replaced by `card`",
        |a| {
            let c = cards(a[0], "fill_hidden")?;
            let k = card(a[1], "fill_hidden")?;
            if c.hidden() == 0 {
                return Err(BuiltinError::failed("fill_hidden", format!("{c} has no hidden card")));
            }
            Ok(Value::Cards(Shared::local(c.with_hidden_filled(k))))
        },
    );
}

/// The `card` and `cards` input types.
fn register_inputs(r: &mut Registry) {
    r.input_type(InputType {
        name: "card",
        keys: &[],
        max_positional: 0,
        value_type: T::Card,
        parse: |text, _, _| parse_card(text).map(Value::Card),
        doc: "one card: `8S`, `10♦`, `ah`",
    });
    r.input_type(InputType {
        name: "cards",
        keys: &["hidden", "copies"],
        max_positional: 1,
        value_type: T::Cards,
        parse: parse_cards_input,
        doc: "cards(N) or cards(MIN..MAX), options hidden: H (how many `XX`), copies: C (2 for a double deck)",
    });
}

fn parse_cards_input(text: &str, args: &TypeArgs, what: &str) -> Result<Value, NotationError> {
    let (min, max) = args.positional.first().copied().unwrap_or((0, i64::MAX));
    let (hmin, hmax) = args.named("hidden").unwrap_or((0, 0));
    let (_, copies) = args.named("copies").unwrap_or((1, 1));
    let spec = CardSpec {
        min: min.max(0) as usize,
        max: usize::try_from(max).unwrap_or(usize::MAX),
        hidden_min: hmin.max(0) as usize,
        hidden_max: hmax.max(0) as usize,
        copies: copies.max(1) as usize,
    };
    parse_cards(text, &spec, what).map(|c| Value::Cards(Shared::new(c)))
}

#[inline]
fn cards<'a>(v: &'a Value, builtin: &str) -> Result<&'a Cards, BuiltinError> {
    match v {
        Value::Cards(c) => Ok(c),
        other => Err(BuiltinError::bad_argument(builtin, 1, "cards", other)),
    }
}

fn card(v: &Value, builtin: &str) -> Result<Card, BuiltinError> {
    match v {
        Value::Card(c) => Ok(*c),
        other => Err(BuiltinError::bad_argument(builtin, 1, "a card", other)),
    }
}

/// A suit argument: its letter in either case, or its symbol. Compared as characters: this runs
/// on every `count_suit` (three or four times per durak hand value), and building each candidate
/// as a string took eight allocations a call.
fn suit(v: &Value, builtin: &str) -> Result<Suit, BuiltinError> {
    if let Value::Str(s) = v {
        let mut chars = s.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            for suit in Suit::ALL {
                if c.eq_ignore_ascii_case(&suit.letter()) || c == suit.symbol() {
                    return Ok(suit);
                }
            }
        }
    }
    Err(BuiltinError::bad_argument(builtin, 2, "a suit letter S, H, D or C", v))
}

/// Used by `Solutions`-style helpers elsewhere; keeps the signature import alive for games.
#[allow(dead_code)]
fn _assert_solutions(_: &mut Solutions) {}

#[cfg(test)]
mod tests {
    use super::*;

    /// A suit is its letter in either case or its symbol, and nothing longer or shorter.
    #[test]
    fn a_suit_argument_is_a_letter_or_a_symbol() {
        for (text, want) in [
            ("S", Some(Suit::Spades)),
            ("h", Some(Suit::Hearts)),
            ("♦", Some(Suit::Diamonds)),
            ("C", Some(Suit::Clubs)),
            ("SS", None),
            ("", None),
            ("♠♠", None),
            ("X", None),
            ("spades", None),
        ] {
            assert_eq!(suit(&Value::str(text), "count_suit").ok(), want, "{text:?}");
        }
        assert!(suit(&Value::Int(1), "count_suit").is_err());
    }

    /// `rank_groups(h, least)` gives what `rank_held(h, k)` gives for k = least, least + 1, …,
    /// in that order, each rank with its k: checked on hands of up to 16 cards from two decks
    /// (so a rank can be held up to eight times) and thresholds from −1 to 9.
    #[test]
    fn rank_groups_is_rank_held_for_every_count_from_the_threshold_up() {
        use proptest::prelude::*;
        let reg = crate::builtins::registry::Registry::general();
        let (Some(groups), Some(held)) = (reg.get("rank_groups"), reg.get("rank_held")) else {
            panic!("rank_groups and rank_held are standard built-ins");
        };
        let mut runner = proptest::test_runner::TestRunner::default();
        let strategy = (proptest::collection::vec(0u8..52, 0..16), -1i64..10);
        runner
            .run(&strategy, |(ids, least)| {
                let hand = Value::Cards(Shared::new(Cards::new(
                    ids.iter().filter_map(|&i| Card::from_index(i)),
                    0,
                )));
                let mut want = Vec::new();
                for k in least.max(1)..=8 {
                    let mut out = Solutions::new(1);
                    held.call(&[&hand, &Value::Int(k)], &mut out)
                        .map_err(|e| TestCaseError::fail(e.to_string()))?;
                    for i in 0..out.len() {
                        want.push(vec![out.row(i)[0].clone(), Value::Int(k)]);
                    }
                }
                let mut out = Solutions::new(2);
                groups
                    .call(&[&hand, &Value::Int(least)], &mut out)
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                let got: Vec<Vec<Value>> = (0..out.len()).map(|i| out.row(i).to_vec()).collect();
                prop_assert_eq!(got, want);
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{e}"));
    }
}
