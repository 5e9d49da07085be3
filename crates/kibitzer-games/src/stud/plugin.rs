//! How stud plugs into the engine and the CLI: the `stud.*` built-ins the rule set calls for deals
//! and for the native fast path, and the `stud-odds` benchmark.
//!
//! The rules stay the source of truth: `rules/stud.rules` classifies and compares hands itself.
//! These built-ins only enumerate the ways unseen cards can fall (`stud.deals`), count them
//! (`stud.deal_count`), and answer through the native evaluator when a query asks for it or when
//! the deals are too many for the rules path (`stud.equity`, `stud.category`).

use super::{describe, equity, rank5, Situation, StudError};
use crate::builtins::{BuiltinError, Registry, Solutions};
use crate::cards::{Card, Cards};
use crate::value::{Shared, Value, ValueType as T};

/// Registers stud's built-ins.
pub fn register(r: &mut Registry) {
    register_decisions(r);
    let h = ("cards", T::Cards);
    r.func(
        "stud.deal_count",
        &[("mine", T::Cards), ("opponent", T::Cards), ("dead", T::Cards)],
        T::Int,
        "heads-up: how many ways the unseen cards can complete both hands to five cards",
        |a| {
            let (mine, opp) = (cards(a[0], "stud.deal_count", 1)?, cards(a[1], "stud.deal_count", 2)?);
            let dead = cards(a[2], "stud.deal_count", 3)?;
            let plan = DealPlan::new(mine, opp, dead, "stud.deal_count")?;
            Ok(Value::Int(i64::try_from(plan.count()).unwrap_or(i64::MAX)))
        },
    );
    r.function(
        "stud.deals",
        &[("mine", T::Cards), ("opponent", T::Cards), ("dead", T::Cards)],
        &[T::Cards, T::Cards],
        true,
        "heads-up: every completion of both hands from the unseen cards, one solution each (mine, theirs)",
        deals,
    );
    r.func(
        "stud.seated",
        &[("hands", T::List)],
        T::List,
        "the hands of the list that hold at least one card (shown or hidden): the opponents in the game",
        |a| match &a[0] {
            Value::List(items) => Ok(Value::list(
                items
                    .iter()
                    .filter(|v| matches!(v, Value::Cards(c) if c.len() + c.hidden() as usize > 0))
                    .cloned(),
            )),
            other => Err(BuiltinError::bad_argument("stud.seated", 1, "a list of hands", other)),
        },
    );
    r.function(
        "stud.category",
        &[h],
        &[T::Int, T::Str, T::Str],
        false,
        "native evaluator: category number, name and the deciding ranks in words (five visible cards)",
        |a, o| {
            let c = cards(a[0], "stud.category", 1)?;
            let idx = five(c, "stud.category")?;
            let d = describe(rank5(idx));
            o.push(&[
                Value::Int(d.category as i64),
                Value::str(d.name),
                Value::str(&d.to_string()),
            ]);
            Ok(())
        },
    );
    r.func(
        "stud.settings",
        &[("odds_path", T::Str), ("samples", T::Int)],
        T::Bool,
        "true when the odds settings mean something: `odds_path` rules, native or auto, `samples` at least 1 \
         (an error naming the setting otherwise)",
        |a| {
            const NAME: &str = "stud.settings";
            match &a[0] {
                Value::Str(p) if ODDS_PATHS.contains(&&**p) => {}
                other => {
                    return Err(BuiltinError::failed(
                        NAME,
                        format!("odds_path={}: must be one of {}", other.pretty(), ODDS_PATHS.join(", ")),
                    ))
                }
            }
            match &a[1] {
                Value::Int(n) if *n >= 1 => Ok(Value::Bool(true)),
                _ => Err(BuiltinError::failed(NAME, SAMPLES_AT_LEAST_ONE)),
            }
        },
    );
    r.function(
        "stud.equity",
        &[
            ("mine", T::Cards),
            ("opponents", T::List),
            ("dead", T::Cards),
            ("budget", T::Int),
            ("samples", T::Int),
            ("seed", T::Int),
            ("wheel", T::Bool),
        ],
        &[T::Int, T::Int, T::Int, T::Int, T::Num, T::Num, T::Str],
        false,
        "native odds (wins, ties, losses, deals counted, p(win), 95% half-width, method): exact when the \
         work is within budget, else Monte Carlo over `samples` deals seeded by `seed`; with `wheel`, \
         A-2-3-4-5 is a straight, 5 high",
        native_equity,
    );
    register_wheel(r);
}

/// The built-ins a table that plays the wheel needs: A-2-3-4-5 as a straight, 5 high, the lowest.
fn register_wheel(r: &mut Registry) {
    // One argument and a plain function each: the engine tests `stud.in_sequence(?h)` once per
    // hand for Rule1 and Rule5, in place of `consecutive(?h)`, so the wheel costs a
    // classification nothing; the parameter is read only for hands in sequence.
    r.func(
        "stud.in_sequence",
        &[("cards", T::Cards)],
        T::Bool,
        "true when the visible cards are five different ranks in sequence, the ace high (10-J-Q-K-A) \
         or low (A-2-3-4-5, the wheel); never a wrap-around such as J-Q-K-A-2",
        |a| {
            let c = cards(a[0], "stud.in_sequence", 1)?;
            Ok(Value::Bool(c.len() == 5 && (c.consecutive() || is_wheel(c))))
        },
    );
    r.func(
        "stud.is_wheel",
        &[("cards", T::Cards)],
        T::Bool,
        "true when the visible cards are exactly A 2 3 4 5, any suits (the wheel)",
        |a| Ok(Value::Bool(is_wheel(cards(a[0], "stud.is_wheel", 1)?))),
    );
    r.func(
        "stud.straight_high",
        &[("cards", T::Cards)],
        T::Int,
        "the top rank of a straight: 5 for A-2-3-4-5 (the wheel), else the highest visible rank",
        |a| {
            let c = cards(a[0], "stud.straight_high", 1)?;
            Ok(Value::Int(if is_wheel(c) { 5 } else { i64::from(c.high_rank()) }))
        },
    );
    r.func(
        "stud.showdown_ranks",
        &[("cards", T::Cards), ("wheel", T::Bool)],
        T::List,
        "the visible ranks, highest first, as a showdown compares them: with `wheel`, A-2-3-4-5 \
         reads 5 4 3 2 1 (the ace low)",
        |a| {
            let c = cards(a[0], "stud.showdown_ranks", 1)?;
            let wheel = match &a[1] {
                Value::Bool(b) => *b,
                other => {
                    return Err(BuiltinError::bad_argument(
                        "stud.showdown_ranks",
                        2,
                        "true or false",
                        other,
                    ))
                }
            };
            let ranks: Vec<i64> = match wheel && is_wheel(c) {
                true => vec![5, 4, 3, 2, 1],
                false => c.ranks_desc().iter().map(|&r| i64::from(r)).collect(),
            };
            Ok(Value::list(ranks.into_iter().map(Value::Int)))
        },
    );
}

/// Exactly A 2 3 4 5 visible, no card hidden.
fn is_wheel(c: &Cards) -> bool {
    const A_TO_5: u16 = 1 << 14 | 1 << 2 | 1 << 3 | 1 << 4 | 1 << 5;
    c.len() == 5 && c.rank_mask() == A_TO_5 && c.hidden() == 0
}

/// The built-ins behind the advice's alternatives and outs.
fn register_decisions(r: &mut Registry) {
    r.function(
        "stud.outs",
        &[
            ("mine", T::Cards),
            ("opponent", T::Cards),
            ("dead", T::Cards),
            ("wheel", T::Bool),
        ],
        &[T::Cards, T::Cards, T::Int, T::Int, T::Int],
        false,
        "when exactly one card is still to come: the unseen cards that give the opponent the win, \
         those that tie, how many of each, and how many cards are unseen; no solution otherwise \
         (with `wheel`, A-2-3-4-5 is a straight, 5 high)",
        |a, o| {
            const NAME: &str = "stud.outs";
            let (mine, theirs) = (cards(a[0], NAME, 1)?, cards(a[1], NAME, 2)?);
            let plan = DealPlan::new(mine, theirs, cards(a[2], NAME, 3)?, NAME)?;
            if plan.need_mine + plan.need_theirs != 1 {
                return Ok(());
            }
            let wheel = match &a[3] {
                Value::Bool(b) => *b,
                other => return Err(BuiltinError::bad_argument(NAME, 4, "true or false", other)),
            };
            let (beat, tie) = one_card_outs(mine, theirs, &plan.unseen, wheel)?;
            let (nb, nt) = (beat.len() as i64, tie.len() as i64);
            o.push(&[
                Value::Cards(Shared::local(Cards::new(beat, 0))),
                Value::Cards(Shared::local(Cards::new(tie, 0))),
                Value::Int(nb),
                Value::Int(nt),
                Value::Int(plan.unseen.len() as i64),
            ]);
            Ok(())
        },
    );
    r.function(
        "stud.advice_bands",
        &[
            ("equity", T::Num),
            ("fold_below", T::Num),
            ("bet_above", T::Num),
            ("bet_big_above", T::Num),
            ("chosen", T::Str),
        ],
        &[T::Int, T::Str, T::Str],
        true,
        "each advice with the equity it needs, one solution each: rank (1 = `chosen`, then the others \
         nearest to the equity first), the advice, and its band and the gap in words",
        |a, o| {
            const NAME: &str = "stud.advice_bands";
            let num = |i: usize| {
                a[i].as_f64()
                    .ok_or_else(|| BuiltinError::bad_argument(NAME, i + 1, "a number", &a[i]))
            };
            let chosen = match &a[4] {
                Value::Str(s) => s.to_string(),
                other => return Err(BuiltinError::bad_argument(NAME, 5, "a string", other)),
            };
            for (rank, name, words) in advice_bands(num(0)?, num(1)?, num(2)?, num(3)?, &chosen) {
                o.push(&[Value::Int(rank as i64), Value::fixed(name), Value::str(&words)]);
            }
            Ok(())
        },
    );
}

/// With one card to come: the unseen cards with which the opponent wins, and those that tie.
fn one_card_outs(
    mine: &Cards,
    theirs: &Cards,
    unseen: &[Card],
    wheel: bool,
) -> Result<(Vec<Card>, Vec<Card>), BuiltinError> {
    let (mut beat, mut tie) = (Vec::new(), Vec::new());
    let five_of = |base: &Cards, extra: Option<Card>| -> Result<[u8; 5], BuiltinError> {
        let mut idx: Vec<u8> = base.cards().iter().map(|c| c.index()).collect();
        idx.extend(extra.map(|c| c.index()));
        <[u8; 5]>::try_from(idx.as_slice())
            .map_err(|_| BuiltinError::failed("stud.outs", "a hand that is not five cards"))
    };
    for &c in unseen {
        let (m, t) = if mine.len() < 5 {
            (five_of(mine, Some(c))?, five_of(theirs, None)?)
        } else {
            (five_of(mine, None)?, five_of(theirs, Some(c))?)
        };
        match super::eval::compare_at(m, t, wheel) {
            std::cmp::Ordering::Less => beat.push(c),
            std::cmp::Ordering::Equal => tie.push(c),
            std::cmp::Ordering::Greater => {}
        }
    }
    Ok((beat, tie))
}

/// The four advices and their equity bands, best advice first: bet big above `big`, bet above
/// `bet`, either from `fold` to `bet`, fold below `fold`.
const ADVICES: [&str; 4] = ["bet big", "bet", "either", "fold"];

/// Each advice ranked for `equity`: `chosen` first, then by how far the equity is from the
/// advice's band (nearest first, ties in the order of [`ADVICES`]), with the band in words.
fn advice_bands(equity: f64, fold: f64, bet: f64, big: f64, chosen: &str) -> Vec<(usize, &'static str, String)> {
    let bands = [(big, f64::INFINITY), (bet, big), (fold, bet), (f64::NEG_INFINITY, fold)];
    let f = |x: f64| crate::value::format_decimal(x, 4);
    let mut rows: Vec<(f64, usize, String)> = ADVICES
        .iter()
        .zip(bands)
        .enumerate()
        .map(|(i, (name, (lo, hi)))| {
            let band = match i {
                0 => format!("needs equity above {}", f(lo)),
                2 => format!("needs equity from {} to {}", f(lo), f(hi)),
                3 => format!("needs equity below {}", f(hi)),
                _ => format!("needs equity above {} up to {}", f(lo), f(hi)),
            };
            let gap = if equity < lo {
                lo - equity
            } else if equity > hi {
                equity - hi
            } else {
                0.0
            };
            // `either` is said as the poker actions it stands for.
            let label = match *name {
                "either" => "check or call",
                other => other,
            };
            let words = if *name == chosen {
                format!("{label}: {band}; equity {} is in it", f(equity))
            } else if equity < lo {
                format!("{label}: {band}; equity {} is {} short", f(equity), f(gap))
            } else {
                format!("{label}: {band}; equity {} is {} over", f(equity), f(gap))
            };
            (if *name == chosen { -1.0 } else { gap }, i, words)
        })
        .collect();
    rows.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
    rows.into_iter()
        .enumerate()
        .map(|(rank, (_, i, words))| (rank + 1, ADVICES[i], words))
        .collect()
}

/// The values of the `odds_path` parameter.
const ODDS_PATHS: [&str; 3] = ["rules", "native", "auto"];

const SAMPLES_AT_LEAST_ONE: &str = "samples must be at least 1: the Monte Carlo estimate needs a deal";

fn cards<'a>(v: &'a Value, builtin: &str, position: usize) -> Result<&'a Cards, BuiltinError> {
    match v {
        Value::Cards(c) => Ok(c),
        other => Err(BuiltinError::bad_argument(builtin, position, "cards", other)),
    }
}

fn five(c: &Cards, builtin: &str) -> Result<[u8; 5], BuiltinError> {
    match c.cards() {
        [a, b, d, e, f] if c.hidden() == 0 => Ok([a.index(), b.index(), d.index(), e.index(), f.index()]),
        _ => Err(BuiltinError::failed(
            builtin,
            format!("needs five visible cards, got {c}"),
        )),
    }
}

/// The unseen cards and how many each side still needs.
struct DealPlan {
    unseen: Vec<Card>,
    need_mine: usize,
    need_theirs: usize,
}

impl DealPlan {
    fn new(mine: &Cards, theirs: &Cards, dead: &Cards, name: &str) -> Result<DealPlan, BuiltinError> {
        let fail = |m: String| Err(BuiltinError::failed(name, m));
        if mine.hidden() > 0 {
            return fail("my hand cannot hold hidden cards".into());
        }
        if mine.len() > 5 || theirs.len() + theirs.hidden() as usize > 5 {
            return fail("a stud hand has at most five cards".into());
        }
        // A card in two places is the position's mistake, reported as the inputs' (in game terms).
        let listed = |of: &Cards, mask: u64| {
            let cards: Vec<String> = of
                .cards()
                .iter()
                .filter(|c| mask & (1u64 << c.index()) != 0)
                .map(|c| c.to_string())
                .collect();
            cards.join(" ")
        };
        let shared = mine.mask() & theirs.mask();
        if shared != 0 {
            let (cards, many) = (listed(mine, shared), shared.count_ones() > 1);
            let what = if many { "are" } else { "is" };
            return Err(BuiltinError::input(
                "hand",
                format!("{cards} {what} in both the hand and an opponent's cards: a card is in one place only"),
            ));
        }
        let dead_shared = (mine.mask() | theirs.mask()) & dead.mask();
        if dead_shared != 0 {
            let cards = listed(dead, dead_shared);
            return Err(BuiltinError::input(
                "dead",
                format!("{cards} is dead and also in a hand: a card is in one place only"),
            ));
        }
        let seen = mine.mask() | theirs.mask() | dead.mask();
        let plan = DealPlan {
            unseen: Card::deck().filter(|c| seen & (1u64 << c.index()) == 0).collect(),
            need_mine: 5 - mine.len(),
            need_theirs: 5 - theirs.len(),
        };
        let needed = plan.need_mine + plan.need_theirs;
        if needed > plan.unseen.len() {
            // Hands hold at most ten cards: only dead cards can leave too few to deal.
            return Err(BuiltinError::input(
                "dead",
                format!(
                    "{} dead cards leave {} unseen, but {needed} must still be dealt",
                    dead.len(),
                    plan.unseen.len()
                ),
            ));
        }
        Ok(plan)
    }

    fn count(&self) -> u128 {
        let n = self.unseen.len() as u128;
        choose(n, self.need_mine as u128) * choose(n - self.need_mine as u128, self.need_theirs as u128)
    }
}

fn choose(n: u128, k: u128) -> u128 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u128, |acc, i| acc * (n - i) / (i + 1))
}

/// Calls `f` with every k-subset of `items` (indices ascending), skipping `taken`.
fn subsets(items: &[Card], k: usize, taken: u64, f: &mut dyn FnMut(&[Card])) {
    fn go(items: &[Card], k: usize, start: usize, taken: u64, acc: &mut Vec<Card>, f: &mut dyn FnMut(&[Card])) {
        if acc.len() == k {
            f(acc);
            return;
        }
        for i in start..items.len() {
            if taken & (1u64 << items[i].index()) != 0 {
                continue;
            }
            acc.push(items[i]);
            go(items, k, i + 1, taken, acc, f);
            acc.pop();
        }
    }
    go(items, k, 0, taken, &mut Vec::with_capacity(k), f);
}

/// Upper bound on the deals `stud.deals` lists in one call: beyond it the rules path is not the
/// right tool, and the rule set routes the query to `stud.equity`.
const MAX_LISTED_DEALS: u128 = 2_000_000;

fn deals(a: &[&Value], o: &mut Solutions) -> Result<(), BuiltinError> {
    let (mine, theirs) = (cards(a[0], "stud.deals", 1)?, cards(a[1], "stud.deals", 2)?);
    let dead = cards(a[2], "stud.deals", 3)?;
    let plan = DealPlan::new(mine, theirs, dead, "stud.deals")?;
    if plan.count() > MAX_LISTED_DEALS {
        return Err(BuiltinError::failed(
            "stud.deals",
            format!(
                "{} deals is more than the {MAX_LISTED_DEALS} this built-in lists",
                plan.count()
            ),
        ));
    }
    let visible_theirs: Vec<Card> = theirs.cards().to_vec();
    subsets(&plan.unseen, plan.need_mine, 0, &mut |extra_mine| {
        let my_hand = Value::Cards(Shared::local(Cards::new(
            mine.cards().iter().chain(extra_mine).copied(),
            0,
        )));
        let taken = extra_mine.iter().fold(0u64, |m, c| m | 1u64 << c.index());
        subsets(&plan.unseen, plan.need_theirs, taken, &mut |extra_theirs| {
            let their_hand = Cards::new(visible_theirs.iter().chain(extra_theirs).copied(), 0);
            o.push(&[my_hand.clone(), Value::Cards(Shared::local(their_hand))]);
        });
    });
    Ok(())
}

fn native_equity(a: &[&Value], o: &mut Solutions) -> Result<(), BuiltinError> {
    const NAME: &str = "stud.equity";
    let me: Vec<u8> = cards(a[0], NAME, 1)?.cards().iter().map(|c| c.index()).collect();
    let opponents: Vec<Vec<u8>> = match &a[1] {
        Value::List(items) => items
            .iter()
            .map(|v| cards(v, NAME, 2).map(|c| c.cards().iter().map(|c| c.index()).collect()))
            .collect::<Result<_, _>>()?,
        other => return Err(BuiltinError::bad_argument(NAME, 2, "a list of hands", other)),
    };
    let dead: Vec<u8> = cards(a[2], NAME, 3)?.cards().iter().map(|c| c.index()).collect();
    let int_arg = |i: usize| match &a[i] {
        Value::Int(n) if *n >= 0 => Ok(*n as u64),
        other => Err(BuiltinError::bad_argument(NAME, i + 1, "a non-negative integer", other)),
    };
    let (budget, samples, seed) = (int_arg(3)?, int_arg(4)?, int_arg(5)?);
    let wheel = match &a[6] {
        Value::Bool(b) => *b,
        other => return Err(BuiltinError::bad_argument(NAME, 7, "true or false", other)),
    };
    if samples == 0 {
        return Err(BuiltinError::failed(NAME, SAMPLES_AT_LEAST_ONE));
    }
    let situation = Situation::new(me, opponents, dead)
        .map_err(|e| match e {
            // Hands hold at most 25 cards: only dead cards can leave too few to deal.
            StudError::NotEnoughCards { .. } => BuiltinError::input("dead", e.to_string()),
            e => BuiltinError::failed(NAME, e.to_string()),
        })?
        .with_wheel(wheel);
    let odds = equity(&situation, budget, samples, seed);
    let method = if odds.exact {
        format!("exact, every one of the {} deals, native evaluator", odds.total)
    } else if odds.total < samples {
        format!(
            "Monte Carlo, {} random deals of {} (seed {seed}; stopped at the time limit before {samples}), native evaluator; 95% within ± {:.4}",
            odds.total, odds.deals, odds.ci95
        )
    } else {
        format!(
            "Monte Carlo, {} random deals of {} (seed {seed}), native evaluator; 95% within ± {:.4}",
            odds.total, odds.deals, odds.ci95
        )
    };
    let as_int = |n: u64| Value::Int(i64::try_from(n).unwrap_or(i64::MAX));
    o.push(&[
        as_int(odds.wins),
        as_int(odds.ties),
        as_int(odds.losses),
        as_int(odds.total),
        Value::Num(odds.p_win),
        Value::Num(odds.ci95),
        Value::str(&method),
    ]);
    Ok(())
}

#[cfg(test)]
mod decision_tests {
    use super::*;

    #[test]
    fn the_chosen_advice_ranks_first_then_the_nearest_band() {
        let rows = advice_bands(0.6426, 0.3, 0.5, 0.7, "bet");
        let names: Vec<&str> = rows.iter().map(|r| r.1).collect();
        assert_eq!(names, ["bet", "bet big", "either", "fold"]);
        assert_eq!(
            rows[1].2,
            "bet big: needs equity above 0.7; equity 0.6426 is 0.0574 short"
        );
        assert_eq!(rows[3].2, "fold: needs equity below 0.3; equity 0.6426 is 0.3426 over");
    }

    #[test]
    fn outs_with_one_card_to_come_match_the_oracle() {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let deck: Vec<Card> = Card::deck().collect();
        for round in 0..200 {
            let mut d = deck.clone();
            d.shuffle(&mut rng);
            // Either side may be the one still to draw.
            let (short, full) = (
                Cards::new(d[0..4].iter().copied(), 0),
                Cards::new(d[4..9].iter().copied(), 0),
            );
            let (mine, theirs) = if round % 2 == 0 { (full, short) } else { (short, full) };
            let unseen: Vec<Card> = d[9..].to_vec();
            let (beat, tie) = one_card_outs(&mine, &theirs, &unseen, false).expect("five cards each");
            for &c in &unseen {
                let idx = |h: &Cards| {
                    let mut v: Vec<u8> = h.cards().iter().map(|x| x.index()).collect();
                    if v.len() < 5 {
                        v.push(c.index());
                    }
                    v
                };
                let want = super::super::oracle::compare(&idx(&mine), &idx(&theirs));
                assert_eq!(
                    beat.contains(&c),
                    want == std::cmp::Ordering::Less,
                    "{mine} v {theirs} + {c}"
                );
                assert_eq!(
                    tie.contains(&c),
                    want == std::cmp::Ordering::Equal,
                    "{mine} v {theirs} + {c}"
                );
            }
        }
    }
}
