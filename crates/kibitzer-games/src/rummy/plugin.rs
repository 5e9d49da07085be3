//! How rummy plugs into the engine and the CLI: the `rummy.*` built-ins and the input types
//! `rules/rummy.rules` uses, and the `rummy` benchmark (`kibitzer bench rummy`).
//!
//! Values: a hand is a string in canonical notation (`2H 3H 4H 4H 5H JK`: the engine's card
//! values hold one deck without jokers, a rummy hand holds two decks and jokers); a card is a
//! string (`4H`, `JK`); a meld is a string (`2H 3H 4H 5H`); an arrangement is a list of meld
//! strings plus its dump as a list of card strings. The variant (`ace_high`, `split_runs`, the
//! wild rank, what a joker costs in the dump, the search budget) travels as one short string made
//! by `rummy.options`: `ace_low merged` by default, e.g. `ace_high split wild=7 joker=15`.
//!
//! Input types: `rummy_hand(MIN..MAX)` (the original notation `2H3H4H5H`, spaces, commas, `10H`/`TH`,
//! ♠♥♦♣, `JK`; at most two copies of a card and four jokers), `rummy_card` (one card or `JK`;
//! empty for "none") and `rummy_rank` (a rank `A 2..10 T J Q K`; empty for "none").

use super::card::{format_cards, Card, RANK_CHARS};
use super::error::RummyError;
use super::evaluate::{evaluate, Evaluation};
use super::hand::Hand;
use super::meld::{card_points, Arrangement};
use super::options::Options;
use super::strategy::{self, Decider, DiscardOption, NearMelds, RankedDiscard};
use crate::builtins::{BuiltinError, InputType, Registry, Solutions, TypeArgs};
use crate::cards::NotationError;
use crate::value::{Value, ValueType as T};
use std::cell::RefCell;
use std::rc::Rc;

/// Registers rummy's built-ins and input types.
pub fn register(r: &mut Registry) {
    register_inputs(r);
    register_minima(r);
    register_arrangements(r);
    register_advice(r);
    register_explained_choices(r);
    register_card_helpers(r);
}

/// The `rummy_hand`, `rummy_card` and `rummy_rank` input types.
fn register_inputs(r: &mut Registry) {
    r.input_type(InputType {
        name: "rummy_hand",
        keys: &[],
        max_positional: 1,
        value_type: T::Str,
        parse: parse_hand_input,
        doc: "a rummy hand from the double deck: `2H3H4H5H`, `2H 3H 10H`, `TH`, ♠♥♦♣, `JK` for a joker \
              (two copies of a card at most, four jokers); `rummy_hand(3..20)` bounds the size",
    });
    r.input_type(InputType {
        name: "rummy_card",
        keys: &[],
        max_positional: 0,
        value_type: T::Str,
        parse: parse_card_input,
        doc: "one rummy card (`4H`, `10S`, `JK`), or empty for none",
    });
    r.input_type(InputType {
        name: "rummy_rank",
        keys: &[],
        max_positional: 0,
        value_type: T::Str,
        parse: parse_rank_input,
        doc: "a rank `A 2..10 T J Q K` (the wild rank), or empty for none",
    });
}

/// The meld search: options, minima, the best arrangement, the fewest cards.
fn register_minima(r: &mut Registry) {
    r.function(
        "rummy.options",
        &[
            ("ace_high", T::Bool),
            ("split_runs", T::Bool),
            ("wild_rank", T::Str),
            ("joker_points", T::Int),
            ("node_budget", T::Int),
        ],
        &[T::Str, T::Str],
        false,
        "the variant as one string for the other built-ins (`ace_low merged`), and in words",
        |a, o| {
            let name = "rummy.options";
            let ace_high = bool_arg(a[0], name, 1)?;
            let split_runs = bool_arg(a[1], name, 2)?;
            let wild_rank = match str_arg(a[2], name, 3)?.trim() {
                "" => None,
                text => Some(rank_of(text).ok_or_else(|| BuiltinError::failed(name, format!("`{text}`: not a rank")))?),
            };
            let joker_points = u32::try_from(int_arg(a[3], name, 4)?)
                .map_err(|_| BuiltinError::failed(name, "joker_points must be 0 or more"))?;
            let node_budget = u64::try_from(int_arg(a[4], name, 5)?)
                .map_err(|_| BuiltinError::failed(name, "node_budget must be 0 or more"))?;
            let options = Options {
                ace_high,
                split_runs,
                wild_rank,
                joker_points,
                node_budget,
                ..Options::default()
            };
            o.push(&[
                Value::str(&options_text(&options)),
                Value::str(&describe_options(&options)),
            ]);
            Ok(())
        },
    );
    r.function(
        "rummy.evaluate",
        &[("hand", T::Str), ("options", T::Str)],
        &[T::Int, T::Int, T::Int, T::Str],
        false,
        "maximal arrangements (under the variant's convention), fewest deadwood cards, fewest deadwood \
         points, and `exact` or `unknown within budget` (a count past 2^63 - 1 shows as 2^63 - 1)",
        |a, o| {
            let (hand, options) = hand_and_options(a, "rummy.evaluate")?;
            let e = evaluated(&hand, &options);
            o.push(&[
                Value::Int(count_int(e.eval.maximal_count())),
                Value::Int(i64::from(e.eval.min_deadwood_cards())),
                Value::Int(i64::from(e.eval.min_deadwood_points())),
                Value::str(status(&e)),
            ]);
            Ok(())
        },
    );
    r.function(
        "rummy.best",
        &[("hand", T::Str), ("options", T::Str)],
        &[T::List, T::List, T::Int, T::Int, T::Str],
        false,
        "an arrangement with the fewest deadwood points, then cards: melds, dump, deadwood cards and \
         points, and the arrangement in words",
        |a, o| {
            let (hand, options) = hand_and_options(a, "rummy.best")?;
            // No solution when the hand is unknown within budget: no arrangement is known best.
            if let Some(best) = &evaluated(&hand, &options).best {
                push_arrangement(o, best, &options, None);
            }
            Ok(())
        },
    );
    r.function(
        "rummy.fewest_cards",
        &[("hand", T::Str), ("options", T::Str)],
        &[T::List, T::List, T::Int, T::Int, T::Str],
        false,
        "an arrangement with the fewest deadwood cards, then points: melds, dump, deadwood cards and \
         points, and the arrangement in words",
        |a, o| {
            let (hand, options) = hand_and_options(a, "rummy.fewest_cards")?;
            if let Some(fewest) = evaluated(&hand, &options).eval.min_cards_arrangement() {
                push_arrangement(o, &fewest, &options, None);
            }
            Ok(())
        },
    );
}

/// Every arrangement of a hand, and its islands.
fn register_arrangements(r: &mut Registry) {
    r.function(
        "rummy.arrangements",
        &[("hand", T::Str), ("options", T::Str), ("limit", T::Int)],
        &[T::Int, T::List, T::List, T::Int, T::Int, T::Str],
        true,
        "the first `limit` maximal arrangements in canonical order (fewest deadwood points first), one \
         solution each: number (from 1), melds, dump, deadwood cards, points, in words",
        |a, o| {
            let (hand, mut options) = hand_and_options(a, "rummy.arrangements")?;
            let limit = usize::try_from(int_arg(a[2], "rummy.arrangements", 3)?).unwrap_or(0);
            // Each island's list is cut at `list_limit` before it is sorted: enumerate well past
            // `limit` so that the first `limit` are the best ones of the island.
            options.list_limit = limit.max(LISTING_POOL);
            for (i, arrangement) in evaluated(&hand, &options).eval.arrangements().take(limit).enumerate() {
                push_arrangement(o, &arrangement, &options, Some(i + 1));
            }
            Ok(())
        },
    );
    r.function(
        "rummy.islands",
        &[("hand", T::Str), ("options", T::Str)],
        &[T::Str, T::Int, T::Int, T::Int, T::Str, T::Str],
        true,
        "each island (cards linked by same suit and adjacent rank, or same rank), one solution each: \
         its cards, maximal arrangements, fewest deadwood cards and points, control points (`none` if \
         none), and `meldable`, `no meld` or `unknown within budget`",
        |a, o| {
            let (hand, options) = hand_and_options(a, "rummy.islands")?;
            let e = evaluated(&hand, &options);
            for island in &e.eval.islands {
                o.push(&[
                    Value::str(&island.cards.to_string()),
                    Value::Int(count_int(island.count(options.split_runs))),
                    Value::Int(i64::from(island.value.min_cards())),
                    Value::Int(i64::from(island.value.min_points())),
                    Value::str(&control_words(&island.control_points())),
                    Value::str(if !island.exact {
                        "unknown within budget"
                    } else if island.meldable {
                        "meldable"
                    } else {
                        "no meld"
                    }),
                ]);
            }
            Ok(())
        },
    );
}

/// Strategy, the native answers: every discard with what it leaves, the best discard, whether
/// to take the discard-pile card.
fn register_advice(r: &mut Registry) {
    r.function(
        "rummy.discards",
        &[("hand", T::Str), ("options", T::Str)],
        &[T::Str, T::Int, T::Int, T::Int, T::Int],
        true,
        "every distinct card of the hand, one solution each: the card, its place in card order, its \
         deadwood points, and the fewest deadwood cards and points of the hand left without it",
        |a, o| {
            let (hand, options) = hand_and_options(a, "rummy.discards")?;
            for d in discards_of(&hand, &options).iter() {
                o.push(&[
                    Value::str(&d.card.to_string()),
                    Value::Int(i64::from(d.card.index())),
                    Value::Int(i64::from(card_points(d.card, &options))),
                    Value::Int(i64::from(d.min_cards)),
                    Value::Int(i64::from(d.min_points)),
                ]);
            }
            Ok(())
        },
    );
    r.function(
        "rummy.best_discard",
        &[("hand", T::Str), ("options", T::Str)],
        &[T::Str, T::Int, T::Int],
        false,
        "native strategy: the discard leaving the fewest deadwood points (then cards, then the higher \
         card, then card order), with the deadwood cards and points left; fails on an empty hand",
        |a, o| {
            let (hand, options) = hand_and_options(a, "rummy.best_discard")?;
            if let Some(d) = strategy::best_discard(&hand, &options) {
                o.push(&[
                    Value::str(&d.card.to_string()),
                    Value::Int(i64::from(d.min_cards)),
                    Value::Int(i64::from(d.min_points)),
                ]);
            }
            Ok(())
        },
    );
    r.function(
        "rummy.take_advice",
        &[
            ("hand", T::Str),
            ("top", T::Str),
            ("options", T::Str),
            ("margin", T::Int),
        ],
        &[T::Bool, T::Str, T::Int, T::Int],
        false,
        "native strategy: take the discard-pile card? (it joins a meld or makes a new pair or run draw \
         without raising the deadwood, or saves more than `margin` points), the card to discard after \
         taking it (empty if none), deadwood points before and after",
        |a, o| {
            let name = "rummy.take_advice";
            let hand = hand_arg(a[0], name, 1)?;
            let top = card_arg(a[1], name, 2)?;
            let options = options_arg(a[2], name, 3)?;
            let margin = u32::try_from(int_arg(a[3], name, 4)?.max(0)).unwrap_or(u32::MAX);
            let advice = strategy::take_advice(&hand, top, &options, margin).map_err(|e| fail(name, e))?;
            o.push(&[
                Value::Bool(advice.take),
                Value::str(&advice.discard.map(|c| c.to_string()).unwrap_or_default()),
                Value::Int(i64::from(advice.before_points)),
                Value::Int(i64::from(advice.after_points)),
            ]);
            Ok(())
        },
    );
}

/// Strategy, the choices the rules explain: the discards ranked with the near melds they keep,
/// what taking the discard-pile card would do, going out.
fn register_explained_choices(r: &mut Registry) {
    r.function(
        "rummy.ranked_discards",
        &[("hand", T::Str), ("options", T::Str), ("except", T::Str)],
        &[T::Int, T::Str, T::Int, T::Int, T::Int, T::Str, T::Str],
        true,
        "every distinct card of the hand but `except` (empty: none), best discard first, one solution \
         each: rank (from 1), the card, the fewest deadwood cards and points left without it, the near \
         melds kept (counted where a tie on points and cards needs them, else 0) and in words, and how \
         it compares with the next discard (for rank 1) or with the first (for the others)",
        |a, o| {
            let name = "rummy.ranked_discards";
            let (hand, options) = hand_and_options(a, name)?;
            let except = match str_arg(a[2], name, 3)?.trim() {
                "" => None,
                _ => Some(card_arg(a[2], name, 3)?),
            };
            let ranked = ranked_of(&hand, &options);
            let ranked: Vec<&RankedDiscard> = ranked.iter().filter(|d| Some(d.option.card) != except).collect();
            for (i, d) in ranked.iter().enumerate() {
                let other = if i == 0 { ranked.get(1) } else { ranked.first() };
                o.push(&[
                    Value::Int(i as i64 + 1),
                    Value::str(&d.option.card.to_string()),
                    Value::Int(i64::from(d.option.min_cards)),
                    Value::Int(i64::from(d.option.min_points)),
                    Value::Int(i64::from(d.near.as_ref().map_or(0, NearMelds::count))),
                    Value::str(&d.near.as_ref().map(NearMelds::words).unwrap_or_default()),
                    Value::str(
                        &other
                            .map(|b| versus_words(d, b, i == 0))
                            .unwrap_or_else(|| "the only card to discard".to_string()),
                    ),
                ]);
            }
            Ok(())
        },
    );
    r.function(
        "rummy.take_option",
        &[("hand", T::Str), ("top", T::Str), ("options", T::Str)],
        &[T::Str, T::Int, T::Int, T::Bool, T::Bool, T::Int, T::Int, T::Str],
        false,
        "what taking the discard-pile card would do: the best other card to discard then, the fewest \
         deadwood cards and points left, whether the card joins a meld, whether it makes a pair or run \
         draw, the near melds now and after, and what the card does in words; no solution when nothing \
         but copies of it could be discarded",
        |a, o| {
            let name = "rummy.take_option";
            let hand = hand_arg(a[0], name, 1)?;
            let top = card_arg(a[1], name, 2)?;
            let options = options_arg(a[2], name, 3)?;
            let t = strategy::take_advice(&hand, top, &options, u32::MAX).map_err(|e| fail(name, e))?;
            if let Some(card) = t.discard {
                o.push(&[
                    Value::str(&card.to_string()),
                    Value::Int(i64::from(t.after_cards)),
                    Value::Int(i64::from(t.after_points)),
                    Value::Bool(t.top_melds),
                    Value::Bool(t.top_near),
                    Value::Int(i64::from(t.near_before)),
                    Value::Int(i64::from(t.near_after)),
                    Value::str(&t.uses),
                ]);
            }
            Ok(())
        },
    );
    r.function(
        "rummy.go_out",
        &[("hand", T::Str), ("options", T::Str)],
        &[T::Bool, T::Bool, T::Str],
        false,
        "native strategy: can the hand go out, does every card meld as it stands, and the final discard \
         that leaves every other card melded (the highest-points one; empty if none)",
        |a, o| {
            let (hand, options) = hand_and_options(a, "rummy.go_out")?;
            let g = strategy::go_out(&hand, &options);
            o.push(&[
                Value::Bool(g.can_go_out()),
                Value::Bool(g.all_melded),
                Value::str(&g.discard.map(|c| c.to_string()).unwrap_or_default()),
            ]);
            Ok(())
        },
    );
}

/// A hand with or without a card, its words, size and points.
fn register_card_helpers(r: &mut Registry) {
    r.func(
        "rummy.with",
        &[("hand", T::Str), ("card", T::Str)],
        T::Str,
        "the hand with one more copy of the card",
        |a| {
            let mut hand = hand_arg(a[0], "rummy.with", 1)?;
            hand.add(card_arg(a[1], "rummy.with", 2)?)
                .map_err(|e| fail("rummy.with", e))?;
            Ok(Value::str(&hand.to_string()))
        },
    );
    r.func(
        "rummy.without",
        &[("hand", T::Str), ("card", T::Str)],
        T::Str,
        "the hand with one copy of the card less",
        |a| {
            let mut hand = hand_arg(a[0], "rummy.without", 1)?;
            hand.remove(card_arg(a[1], "rummy.without", 2)?)
                .map_err(|e| fail("rummy.without", e))?;
            Ok(Value::str(&hand.to_string()))
        },
    );
    r.func(
        "rummy.size",
        &[("hand", T::Str)],
        T::Int,
        "the number of cards in the hand, jokers included",
        |a| Ok(Value::Int(hand_arg(a[0], "rummy.size", 1)?.len() as i64)),
    );
    r.func(
        "rummy.points",
        &[("card", T::Str), ("options", T::Str)],
        T::Int,
        "deadwood points of a card: A 1, 2-10 face, J Q K 10, a joker or wild card as the variant says",
        |a| {
            let card = card_arg(a[0], "rummy.points", 1)?;
            let options = options_arg(a[1], "rummy.points", 2)?;
            Ok(Value::Int(i64::from(card_points(card, &options))))
        },
    );
}

/// How many arrangements of an island `rummy.arrangements` enumerates before sorting (the listing
/// is in canonical order among these; counts are always exact).
pub const LISTING_POOL: usize = 5000;

// ---- memo: the rules ask about the same hand several times in one query ----------------------

/// Entries kept per thread by each memo (the hand, its hand minus a card, its hand plus one).
const MEMO_SIZE: usize = 8;

/// A most-recently-used list of answers by (hand, variant).
type Memo<T> = RefCell<Vec<((Hand, Options), Rc<T>)>>;

thread_local! {
    static EVALUATIONS: Memo<Evaluated> = const { RefCell::new(Vec::new()) };
    static DISCARDS: Memo<Vec<DiscardOption>> = const { RefCell::new(Vec::new()) };
    static RANKED: Memo<Vec<RankedDiscard>> = const { RefCell::new(Vec::new()) };
}

/// Looks `key` up in a small most-recently-used list, computing and inserting it when absent.
fn memo<T>(table: &'static std::thread::LocalKey<Memo<T>>, key: (Hand, Options), compute: impl FnOnce() -> T) -> Rc<T> {
    if let Some(found) = table.with(|t| {
        let mut t = t.borrow_mut();
        let i = t.iter().position(|(k, _)| *k == key)?;
        let entry = t.remove(i);
        let value = Rc::clone(&entry.1);
        t.insert(0, entry);
        Some(value)
    }) {
        return found;
    }
    let value = Rc::new(compute());
    // Past the run's deadline the answer may have been cut short: it serves this query only.
    if crate::budget::expired() {
        return value;
    }
    table.with(|t| {
        let mut t = t.borrow_mut();
        t.insert(0, (key, Rc::clone(&value)));
        t.truncate(MEMO_SIZE);
    });
    value
}

/// An evaluation with its best arrangement.
struct Evaluated {
    eval: Evaluation,
    /// The fewest-points arrangement; `None` when it could not be retraced within the search's
    /// memory or time, which makes the whole answer "unknown within budget": the minima alone
    /// would then be reported next to an arrangement that does not reach them.
    best: Option<Arrangement>,
}

/// `evaluate` and its best arrangement (every exact answer of the rules shows it, so it is
/// found once here), remembered for the last few hands of this thread.
fn evaluated(hand: &Hand, options: &Options) -> Rc<Evaluated> {
    memo(&EVALUATIONS, (*hand, *options), || {
        let eval = evaluate(hand, options);
        let best = eval.min_points_arrangement();
        Evaluated { eval, best }
    })
}

/// `strategy::discard_options`, remembered for the last few hands of this thread.
fn discards_of(hand: &Hand, options: &Options) -> Rc<Vec<DiscardOption>> {
    memo(&DISCARDS, (*hand, *options), || {
        strategy::discard_options(hand, options)
    })
}

/// `strategy::ranked_discards`, remembered for the last few hands of this thread.
fn ranked_of(hand: &Hand, options: &Options) -> Rc<Vec<RankedDiscard>> {
    memo(&RANKED, (*hand, *options), || {
        strategy::ranked_discards(hand, options, None)
    })
}

/// How discard `a` compares with `b`: `first` when `a` is ranked first and `b` second
/// ("ahead of KS on near melds kept: 2 against 1"), else `b` is the first.
fn versus_words(a: &RankedDiscard, b: &RankedDiscard, first: bool) -> String {
    let decider = Decider::between(a, b);
    let (x, y) = (&a.option, &b.option);
    let near = |d: &RankedDiscard| d.near.as_ref().map_or(0, NearMelds::count);
    let numbers = match decider {
        Decider::Points => format!("{} points against {}", x.min_points, y.min_points),
        Decider::Cards => format!(
            "{} cards against {}, both {} points",
            x.min_cards, y.min_cards, x.min_points
        ),
        Decider::NearMelds => {
            let kept = |d: &RankedDiscard| d.near.as_ref().map(NearMelds::words).unwrap_or_default();
            format!(
                "tied on {} points in {} cards; near melds {} ({}) against {} ({})",
                x.min_points,
                x.min_cards,
                near(a),
                kept(a),
                near(b),
                kept(b)
            )
        }
        Decider::Value => format!(
            "tied on {} points in {} cards and {} near melds; the card is worth {} against {}",
            x.min_points,
            x.min_cards,
            near(a),
            a.value,
            b.value
        ),
        Decider::Order => format!(
            "tied on {} points in {} cards, {} near melds, {} points each; card order",
            x.min_points,
            x.min_cards,
            near(a),
            a.value
        ),
    };
    let relation = if first { "ahead of" } else { "behind" };
    format!("{relation} {} by {} ({numbers})", y.card, decider.words())
}

// ---- values ---------------------------------------------------------------------------------

/// The variant as the short string the built-ins read back (`ace_low merged`, `ace_high split
/// wild=7 joker=15 budget=1000`); defaults of joker points and budget are left out.
pub fn options_text(options: &Options) -> String {
    let mut parts = vec![
        if options.ace_high { "ace_high" } else { "ace_low" }.to_string(),
        if options.split_runs { "split" } else { "merged" }.to_string(),
    ];
    if let Some(rank) = options.wild_rank {
        parts.push(format!("wild={}", RANK_CHARS[rank as usize]));
    }
    let default = Options::default();
    if options.joker_points != default.joker_points {
        parts.push(format!("joker={}", options.joker_points));
    }
    if options.node_budget != default.node_budget {
        parts.push(format!("budget={}", options.node_budget));
    }
    parts.join(" ")
}

/// Reads `options_text` back.
pub fn parse_options(text: &str) -> Result<Options, String> {
    let mut options = Options::default();
    for word in text.split_whitespace() {
        match word.split_once('=') {
            None => match word {
                "ace_low" => options.ace_high = false,
                "ace_high" => options.ace_high = true,
                "merged" => options.split_runs = false,
                "split" => options.split_runs = true,
                _ => return Err(format!("`{word}`: unknown variant word")),
            },
            Some(("wild", rank)) => {
                options.wild_rank = Some(rank_of(rank).ok_or_else(|| format!("`{word}`: not a rank"))?);
            }
            Some(("joker", n)) => options.joker_points = n.parse().map_err(|_| format!("`{word}`: not a number"))?,
            Some(("budget", n)) => options.node_budget = n.parse().map_err(|_| format!("`{word}`: not a number"))?,
            Some(_) => return Err(format!("`{word}`: unknown variant setting")),
        }
    }
    Ok(options)
}

/// The variant in words, for explanations.
fn describe_options(options: &Options) -> String {
    let mut parts = vec![
        if options.ace_high {
            "ace low or high (A-2-3, Q-K-A; never K-A-2)"
        } else {
            "ace low only (A-2-3, not Q-K-A)"
        }
        .to_string(),
        if options.split_runs {
            "touching runs also split"
        } else {
            "touching runs merged"
        }
        .to_string(),
    ];
    match options.wild_rank {
        Some(rank) => parts.push(format!("{}s wild", rank_word(rank))),
        None => parts.push("no wild rank".to_string()),
    }
    parts.push(format!("unmelded jokers score {}", options.joker_points));
    if options.node_budget != Options::default().node_budget {
        parts.push(format!("search budget {} nodes", options.node_budget));
    }
    parts.join("; ")
}

fn rank_word(rank: u8) -> String {
    match rank {
        0 => "A".to_string(),
        9 => "10".to_string(),
        r => RANK_CHARS[r as usize].to_string(),
    }
}

/// A rank written `A 2..9 10 T J Q K` (any case).
fn rank_of(text: &str) -> Option<u8> {
    let t = text.trim().to_ascii_uppercase();
    if t == "10" {
        return Some(9);
    }
    let mut chars = t.chars();
    let c = chars.next()?;
    if chars.next().is_some() {
        return None;
    }
    RANK_CHARS.iter().position(|&r| r == c).map(|r| r as u8)
}

fn control_words(cards: &[Card]) -> String {
    if cards.is_empty() {
        "none".to_string()
    } else {
        format_cards(cards)
    }
}

/// Counts past `i64::MAX` (only with enormous hands) are shown as `i64::MAX`.
fn count_int(count: u128) -> i64 {
    i64::try_from(count).unwrap_or(i64::MAX)
}

fn status(e: &Evaluated) -> &'static str {
    if !e.eval.exact || e.best.is_none() {
        "unknown within budget"
    } else {
        "exact"
    }
}

/// One arrangement as a solution row: [number], melds, dump, cards, points, words.
fn push_arrangement(o: &mut Solutions, a: &Arrangement, options: &Options, number: Option<usize>) {
    let melds = Value::list(a.melds.iter().map(|m| Value::str(&m.to_string())));
    let dump = Value::list(a.dump.iter().map(|c| Value::str(&c.to_string())));
    let words = arrangement_words(a);
    let cards = Value::Int(i64::from(a.deadwood_cards()));
    let points = Value::Int(i64::from(a.deadwood_points(options)));
    match number {
        Some(n) => o.push(&[Value::Int(n as i64), melds, dump, cards, points, Value::str(&words)]),
        None => o.push(&[melds, dump, cards, points, Value::str(&words)]),
    }
}

/// `[2H 3H 4H 5H] + [4H 5H 6H], unmelded 3D 3D 4D 3C 3C`.
pub fn arrangement_words(a: &Arrangement) -> String {
    let melds = if a.melds.is_empty() {
        "no meld".to_string()
    } else {
        a.melds.iter().map(|m| format!("[{m}]")).collect::<Vec<_>>().join(" + ")
    };
    let dump = if a.dump.is_empty() {
        "nothing unmelded".to_string()
    } else {
        format!("unmelded {}", format_cards(&a.dump))
    };
    format!("{melds}, {dump}")
}

// ---- arguments --------------------------------------------------------------------------------

fn fail(builtin: &str, e: impl std::fmt::Display) -> BuiltinError {
    BuiltinError::failed(builtin, e.to_string())
}

fn str_arg<'a>(v: &'a Value, builtin: &str, position: usize) -> Result<&'a str, BuiltinError> {
    match v {
        Value::Str(s) => Ok(s),
        other => Err(BuiltinError::bad_argument(builtin, position, "a string", other)),
    }
}

fn bool_arg(v: &Value, builtin: &str, position: usize) -> Result<bool, BuiltinError> {
    v.as_bool()
        .ok_or_else(|| BuiltinError::bad_argument(builtin, position, "true or false", v))
}

fn int_arg(v: &Value, builtin: &str, position: usize) -> Result<i64, BuiltinError> {
    v.as_int()
        .ok_or_else(|| BuiltinError::bad_argument(builtin, position, "an integer", v))
}

fn hand_arg(v: &Value, builtin: &str, position: usize) -> Result<Hand, BuiltinError> {
    Hand::parse(str_arg(v, builtin, position)?).map_err(|e| fail(builtin, e))
}

fn card_arg(v: &Value, builtin: &str, position: usize) -> Result<Card, BuiltinError> {
    let text = str_arg(v, builtin, position)?;
    text.parse::<Card>()
        .map_err(|_| BuiltinError::failed(builtin, format!("`{text}`: not one card")))
}

fn options_arg(v: &Value, builtin: &str, position: usize) -> Result<Options, BuiltinError> {
    parse_options(str_arg(v, builtin, position)?).map_err(|e| BuiltinError::failed(builtin, e))
}

fn hand_and_options(a: &[&Value], builtin: &str) -> Result<(Hand, Options), BuiltinError> {
    Ok((hand_arg(a[0], builtin, 1)?, options_arg(a[1], builtin, 2)?))
}

// ---- input types ------------------------------------------------------------------------------

fn notation(e: RummyError) -> NotationError {
    match e {
        RummyError::UnknownRank { token, rank } => NotationError::UnknownRank { token, rank },
        RummyError::UnknownSuit { token, suit } => NotationError::UnknownSuit { token, suit },
        RummyError::MissingSuit { token } => NotationError::MissingSuit { token },
        RummyError::TooManyCopies { card } => NotationError::BadValue {
            token: card,
            why: "appears more than twice (the double deck has two copies)".to_string(),
        },
        other => NotationError::BadValue {
            token: String::new(),
            why: other.to_string(),
        },
    }
}

fn parse_hand_input(text: &str, args: &TypeArgs, what: &str) -> Result<Value, NotationError> {
    let hand = Hand::parse(text).map_err(|e| match e {
        RummyError::TooManyJokers { count } => NotationError::TooManyCopies {
            card: "JK".to_string(),
            times: count,
            allowed: 4,
        },
        RummyError::TooManyCopies { card } => NotationError::TooManyCopies {
            times: super::card::parse_cards(text)
                .map(|cards| cards.iter().filter(|c| c.to_string() == card).count())
                .unwrap_or(3),
            card,
            allowed: 2,
        },
        other => notation(other),
    })?;
    if let Some(&(lo, hi)) = args.positional.first() {
        let n = hand.len() as i64;
        if n < lo || n > hi {
            return Err(NotationError::WrongCount {
                what: what.to_string(),
                expected: if lo == hi {
                    lo.to_string()
                } else {
                    format!("{lo} to {hi}")
                },
                got: hand.len(),
            });
        }
    }
    Ok(Value::str(&hand.to_string()))
}

fn parse_card_input(text: &str, _: &TypeArgs, _: &str) -> Result<Value, NotationError> {
    if text.trim().is_empty() {
        return Ok(Value::str(""));
    }
    let cards = super::card::parse_cards(text).map_err(notation)?;
    match cards.as_slice() {
        [card] => Ok(Value::str(&card.to_string())),
        _ => Err(NotationError::BadValue {
            token: text.to_string(),
            why: format!("expected one card, got {}", cards.len()),
        }),
    }
}

fn parse_rank_input(text: &str, _: &TypeArgs, _: &str) -> Result<Value, NotationError> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(Value::str(""));
    }
    match rank_of(t) {
        Some(rank) => Ok(Value::str(&rank_word(rank))),
        None => Err(NotationError::BadValue {
            token: text.to_string(),
            why: "not a rank (A, 2-10, T, J, Q, K)".to_string(),
        }),
    }
}
