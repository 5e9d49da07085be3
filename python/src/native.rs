//! The games' native searches as plain functions: typed arguments in, dicts out. Each reads
//! its notation with the game module's own parser and reports a bad argument as `BadInput`
//! with the module's message.

use crate::engine::timeout_of;
use crate::errors::bad_input;
use crate::guard::guard;
use crate::interrupt::interruptible;
use kibitzer::games::{doudizhu, durak, mahjong, rummy, stud};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use std::time::Duration;

/// The longest `time_limit` a search takes: a day (a longer one is a slip, and a limit past
/// what a `Duration` holds would not be one).
const MAX_TIME_LIMIT_SECS: f64 = 86_400.0;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(stud_equity, m)?)?;
    m.add_function(wrap_pyfunction!(stud_describe, m)?)?;
    m.add_function(wrap_pyfunction!(doudizhu_solve, m)?)?;
    m.add_function(wrap_pyfunction!(doudizhu_plays, m)?)?;
    m.add_function(wrap_pyfunction!(doudizhu_solve3, m)?)?;
    m.add_function(wrap_pyfunction!(mahjong_analyse, m)?)?;
    m.add_function(wrap_pyfunction!(rummy_evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(durak_hand_value, m)?)?;
    Ok(())
}

/// Text or a list of texts, as one space-separated text.
fn text_of(v: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(s.to_cow()?.into_owned());
    }
    let mut parts = Vec::new();
    for item in v.try_iter()? {
        parts.push(item?.str()?.to_cow()?.into_owned());
    }
    Ok(parts.join(" "))
}

// ---- stud -------------------------------------------------------------------------------------

/// Known cards of a stud hand: `XX` (a hidden card) is left out, since every hand is completed
/// from the unseen cards anyway.
fn stud_cards(text: &str) -> PyResult<Vec<u8>> {
    let known: Vec<&str> = text
        .split([' ', ','])
        .filter(|t| !t.trim().is_empty() && !t.trim().eq_ignore_ascii_case("xx"))
        .collect();
    stud::parse_cards(&known.join(" ")).map_err(bad_input)
}

/// Five-card stud equity of `hand` against one to four opponents (each the cards it shows;
/// `XX` for a hole card may be written or left out), `dead` cards seen elsewhere. Exact when
/// the counting fits `budget` work units, else Monte Carlo over `samples` deals from `seed`.
///
/// >>> kibitzer.stud_equity("8S TD TS 8H 8C", "XX 3C 5D 4H 6H")["p_win"]
/// 1.0
#[pyfunction]
#[pyo3(signature = (hand, opponents, dead="", budget=50_000_000, samples=200_000, seed=1, *, timeout=None))]
#[allow(clippy::too_many_arguments)]
fn stud_equity<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    opponents: &Bound<'py, PyAny>,
    dead: &str,
    budget: u64,
    samples: u64,
    seed: u64,
    timeout: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    guard(|| {
        let timeout = timeout_of(timeout)?;
        let me = stud_cards(&text_of(hand)?)?;
        let seats: Vec<String> = if let Ok(s) = opponents.cast::<PyString>() {
            vec![s.to_cow()?.into_owned()]
        } else {
            opponents
                .try_iter()?
                .map(|o| o.and_then(|o| text_of(&o)))
                .collect::<PyResult<_>>()?
        };
        let opps = seats.iter().map(|t| stud_cards(t)).collect::<PyResult<Vec<_>>>()?;
        let dead = stud_cards(dead)?;
        if samples == 0 {
            return Err(bad_input(
                "samples must be at least 1: the Monte Carlo estimate needs a deal",
            ));
        }
        let situation = stud::Situation::new(me, opps, dead).map_err(bad_input)?;
        let (odds, timed_out) = interruptible(|| {
            Ok(py.detach(|| {
                let _deadline = kibitzer::with_deadline(timeout);
                (stud::equity(&situation, budget, samples, seed), kibitzer::expired())
            }))
        })?;
        let out = PyDict::new(py);
        out.set_item("wins", odds.wins)?;
        out.set_item("ties", odds.ties)?;
        out.set_item("losses", odds.losses)?;
        out.set_item("total", odds.total)?;
        out.set_item("ties_split", odds.ties_split.to_vec())?;
        out.set_item("p_win", odds.p_win)?;
        out.set_item("p_tie", odds.p_tie)?;
        out.set_item("p_loss", odds.p_loss)?;
        out.set_item("equity", odds.equity)?;
        out.set_item("std_error", odds.std_error)?;
        out.set_item("ci95", odds.ci95)?;
        out.set_item("exact", odds.exact)?;
        out.set_item("deals", odds.deals)?;
        out.set_item("timed_out", timed_out)?;
        Ok(out)
    })
}

/// The category and deciding ranks of five stud cards.
///
/// >>> kibitzer.stud_describe("8S TD TS 8H 8C")["name"]
/// 'full house'
#[pyfunction]
fn stud_describe<'py>(py: Python<'py>, hand: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    guard(|| {
        let cards = stud_cards(&text_of(hand)?)?;
        let rank = stud::rank5_checked(&cards).map_err(bad_input)?;
        let d = stud::describe(rank);
        let out = PyDict::new(py);
        out.set_item("category", d.category)?;
        out.set_item("name", d.name)?;
        out.set_item("deciding_ranks", d.deciding_ranks.clone())?;
        out.set_item("rank", rank.value())?;
        out.set_item("text", d.to_string())?;
        Ok(out)
    })
}

// ---- dou dizhu --------------------------------------------------------------------------------

/// Solves a two-player dou dizhu endgame with both hands open: `me` to move, `last` the play
/// to answer ("" to lead). Returns the outcome for me (`win`, `lose`, `unknown` past the
/// budget), the play to make (`play`, `kind`; `pass` when passing), the principal `line`
/// (`"me: 3 4 5 6 7"`, `"enemy: pass"`, ...), and the positions searched (`nodes` to prove the
/// outcome, `line_nodes` to choose the line).
///
/// >>> kibitzer.doudizhu_solve("3 3 4 5 6 7 8", "9 9")["play"]
/// '3 4 5 6 7 8'
#[pyfunction]
#[pyo3(signature = (me, enemy, last="", variant="standard", *, max_nodes=200_000_000, table_mb=1024, line_nodes=200_000, time_limit=None, timeout=None, three_one=None, three_two=None, four_two=None, pair_chains=None, airplanes=None))]
#[allow(clippy::too_many_arguments)]
fn doudizhu_solve<'py>(
    py: Python<'py>,
    me: &str,
    enemy: &str,
    last: &str,
    variant: &str,
    max_nodes: u64,
    table_mb: usize,
    line_nodes: u64,
    time_limit: Option<f64>,
    timeout: Option<f64>,
    three_one: Option<bool>,
    three_two: Option<bool>,
    four_two: Option<bool>,
    pair_chains: Option<bool>,
    airplanes: Option<bool>,
) -> PyResult<Bound<'py, PyDict>> {
    guard(|| {
        let mut rules = doudizhu_rules(variant)?;
        for (switch, field) in [
            (three_one, &mut rules.three_one),
            (three_two, &mut rules.three_two),
            (four_two, &mut rules.four_two),
            (pair_chains, &mut rules.pair_chains),
            (airplanes, &mut rules.airplanes),
        ] {
            if let Some(on) = switch {
                *field = on;
            }
        }
        let mine = doudizhu::parse_hand(me).map_err(bad_input)?;
        let theirs = doudizhu::parse_hand(enemy).map_err(bad_input)?;
        let last = if last.trim().is_empty() || last.trim().eq_ignore_ascii_case("pass") {
            None
        } else {
            Some(doudizhu::parse_play(last, &rules).map_err(bad_input)?)
        };
        let time_limit = match time_limit {
            None => None,
            Some(s) if s.is_finite() && s > 0.0 && s <= MAX_TIME_LIMIT_SECS => Some(Duration::from_secs_f64(s)),
            Some(s) => {
                return Err(bad_input(format!(
                    "time_limit {s}: must be more than 0 and at most {MAX_TIME_LIMIT_SECS} seconds"
                )))
            }
        };
        let budget = doudizhu::Budget {
            max_nodes,
            max_table_bytes: table_mb.saturating_mul(1 << 20),
            time_limit,
            line_nodes,
        };
        let timeout = timeout_of(timeout)?;
        let (s, timed_out) = interruptible(|| {
            Ok(py.detach(|| {
                let _deadline = kibitzer::with_deadline(timeout);
                let s = doudizhu::solve(mine, theirs, last.as_ref(), &rules, &budget);
                // Cut short: the outcome unknown, or the line not measured to its end.
                let cut = kibitzer::expired();
                (s, cut)
            }))
        })?;
        let out = PyDict::new(py);
        out.set_item("outcome", s.outcome.as_str())?;
        let (play, kind) = play_and_kind(s.best.as_ref(), s.pass);
        out.set_item("play", play)?;
        out.set_item("kind", kind)?;
        out.set_item("pass", s.pass)?;
        let line = PyList::empty(py);
        for (i, turn) in s.line.iter().enumerate() {
            let who = if i % 2 == 0 { "me" } else { "enemy" };
            match turn {
                Some(p) => line.append(format!("{who}: {p}"))?,
                None => line.append(format!("{who}: pass"))?,
            }
        }
        out.set_item("line", line)?;
        out.set_item("nodes", s.proof_nodes)?;
        out.set_item("line_nodes", s.nodes.saturating_sub(s.proof_nodes))?;
        out.set_item("line_measured", s.line_measured)?;
        out.set_item("timed_out", timed_out)?;
        Ok(out)
    })
}

/// A dou dizhu rule preset by name (`seed` is read as `original`).
fn doudizhu_rules(variant: &str) -> PyResult<doudizhu::Rules> {
    match variant {
        "standard" => Ok(doudizhu::Rules::standard()),
        "original" | "seed" => Ok(doudizhu::Rules::original()),
        other => Err(bad_input(format!("unknown variant `{other}` (standard or original)"))),
    }
}

/// The play to answer: None for "" or "pass".
fn doudizhu_last(last: &str, rules: &doudizhu::Rules) -> PyResult<Option<doudizhu::Play>> {
    if last.trim().is_empty() || last.trim().eq_ignore_ascii_case("pass") {
        return Ok(None);
    }
    doudizhu::parse_play(last, rules).map(Some).map_err(bad_input)
}

/// Every legal play of `hand`: its leads when `last` is empty, else its answers to `last`
/// (passing, always legal when answering, is not listed), as `(cards, kind)` pairs in the
/// solver's canonical order. With the whole deck as `hand` and no `last`, the list is every play
/// of the game: RLCard's move set under the standard rules.
#[pyfunction]
#[pyo3(signature = (hand, last="", variant="standard"))]
fn doudizhu_plays(hand: &str, last: &str, variant: &str) -> PyResult<Vec<(String, String)>> {
    guard(|| {
        let rules = doudizhu_rules(variant)?;
        let hand = doudizhu::parse_hand(hand).map_err(bad_input)?;
        let plays = match doudizhu_last(last, &rules)? {
            None => doudizhu::legal_leads(hand, &rules),
            Some(last) => doudizhu::legal_responses(hand, &last, &rules),
        };
        Ok(plays.iter().map(|p| (p.to_string(), p.name().to_string())).collect())
    })
}

/// The three-player open-hand endgame, the landlord against two cooperating farmers: `landlord`,
/// `down` (the farmer after the landlord) and `up` (the farmer before), `to_move` one of
/// `"landlord"`, `"down"`, `"up"`, and `last` the play to answer with `last_by` its owner (empty:
/// `to_move` leads). Answers `outcome` (for the side of `to_move`: `"win"`, `"lose"` or
/// `"unknown"` within the budget), `play` (the cards, `"pass"`, or None), `kind` and `nodes`.
#[pyfunction]
#[pyo3(signature = (landlord, down, up, to_move="landlord", last="", last_by=None, variant="standard", *, max_nodes=20_000_000, table_mb=256, timeout=None))]
#[allow(clippy::too_many_arguments)]
fn doudizhu_solve3<'py>(
    py: Python<'py>,
    landlord: &str,
    down: &str,
    up: &str,
    to_move: &str,
    last: &str,
    last_by: Option<&str>,
    variant: &str,
    max_nodes: u64,
    table_mb: usize,
    timeout: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    guard(|| {
        let rules = doudizhu_rules(variant)?;
        let seat = |name: &str| match name {
            "landlord" => Ok(doudizhu::Seat::Landlord),
            "down" => Ok(doudizhu::Seat::DownFarmer),
            "up" => Ok(doudizhu::Seat::UpFarmer),
            other => Err(bad_input(format!("seat `{other}`: landlord, down or up"))),
        };
        let hands = [landlord, down, up]
            .map(|h| doudizhu::parse_hand(h).map_err(bad_input))
            .into_iter()
            .collect::<PyResult<Vec<_>>>()?;
        let hands = [hands[0], hands[1], hands[2]];
        let mut all = doudizhu::Hand::default();
        for h in hands {
            all = all
                .checked_union(h)
                .map_err(|_| bad_input("the three hands hold more of a card than one deck has"))?;
        }
        let to_move = seat(to_move)?;
        let last = doudizhu_last(last, &rules)?;
        let last_by = match (&last, last_by) {
            (None, _) => None,
            (Some(_), Some(by)) => Some(seat(by)?),
            (Some(_), None) => return Err(bad_input("`last` needs `last_by`: who made that play")),
        };
        let budget = doudizhu::Budget {
            max_nodes,
            max_table_bytes: table_mb.saturating_mul(1 << 20),
            time_limit: None,
            line_nodes: 0,
        };
        let timeout = timeout_of(timeout)?;
        let s = interruptible(|| {
            Ok(py.detach(|| {
                let _deadline = kibitzer::with_deadline(timeout);
                let last = last.as_ref().zip(last_by).map(|(p, by)| (by, p));
                doudizhu::solve3(&hands, to_move, last, &rules, &budget)
            }))
        })?;
        let out = PyDict::new(py);
        out.set_item("outcome", s.outcome.as_str())?;
        let (play, kind) = play_and_kind(s.best.as_ref(), s.pass);
        out.set_item("play", play)?;
        out.set_item("kind", kind)?;
        out.set_item("nodes", s.nodes)?;
        Ok(out)
    })
}

// ---- mahjong ----------------------------------------------------------------------------------

fn tile_names(tiles: impl IntoIterator<Item = mahjong::Tile>) -> Vec<String> {
    tiles.into_iter().map(|t| t.to_string()).collect()
}

/// Shanten, win, waits and useful draws of a mahjong hand: `hand` (13 − 3k tiles waiting, or
/// 14 − 3k just drawn), called `melds`, tiles `visible` elsewhere. With `two_player` (the
/// default, as the rule sets) and no pin or bamboo tile anywhere, those suits are out of play.
/// `waits` (for a waiting hand) and `useful` (kinds whose draw lowers the shanten) carry live
/// counts.
///
/// >>> kibitzer.mahjong_analyse("123m456m789m EE SS")["waits"]
/// [{'tile': 'E', 'live': 2}, {'tile': 'S', 'live': 2}]
#[pyfunction]
#[pyo3(signature = (hand, melds="", visible="", two_player=true))]
fn mahjong_analyse<'py>(
    py: Python<'py>,
    hand: &str,
    melds: &str,
    visible: &str,
    two_player: bool,
) -> PyResult<Bound<'py, PyDict>> {
    guard(|| {
        let counts = mahjong::parse_counts(hand).map_err(bad_input)?;
        let called = mahjong::parse_melds(melds).map_err(bad_input)?;
        let mut seen = mahjong::parse_counts(visible).map_err(bad_input)?;
        let own_melds = mahjong::meld_counts(&called);
        mahjong::check_copies(&[&counts, &own_melds, &seen]).map_err(bad_input)?;
        let size = mahjong::hand_size(&counts, called.len()).map_err(bad_input)?;
        let untouched = |c: &mahjong::Counts| c[9..27].iter().all(|&n| n == 0);
        if two_player && untouched(&counts) && untouched(&own_melds) && untouched(&seen) {
            seen[9..27].fill(4);
        }
        let out = PyDict::new(py);
        out.set_item("shanten", mahjong::shanten(&counts, &called))?;
        out.set_item("shanten_standard", mahjong::shanten_standard(&counts, &called))?;
        out.set_item("shanten_seven_pairs", mahjong::shanten_seven_pairs(&counts, &called))?;
        let drawn = matches!(size, mahjong::HandSize::Drawn);
        out.set_item("drawn", drawn)?;
        let win = mahjong::is_win(&counts, &called).map(|f| match f {
            mahjong::WinForm::Standard => "standard",
            mahjong::WinForm::SevenPairs => "seven pairs",
        });
        out.set_item("win", win)?;
        let waits = PyList::empty(py);
        let useful = PyList::empty(py);
        if !drawn {
            for w in mahjong::waits(&counts, &called, &seen) {
                let d = PyDict::new(py);
                d.set_item("tile", w.tile.to_string())?;
                d.set_item("live", w.live)?;
                waits.append(d)?;
            }
            let (_, draws) = mahjong::useful_draws(&counts, &called, &seen);
            for (t, live) in draws {
                let d = PyDict::new(py);
                d.set_item("tile", t.to_string())?;
                d.set_item("live", live)?;
                useful.append(d)?;
            }
        }
        out.set_item("waits", waits)?;
        out.set_item("useful", useful)?;
        let discards = PyList::empty(py);
        if drawn {
            for o in mahjong::discard_options(&counts, &called, &seen) {
                let d = PyDict::new(py);
                d.set_item("tile", o.tile.to_string())?;
                d.set_item("shanten_after", o.shanten_after)?;
                d.set_item("useful", tile_names(o.useful_kinds.iter().copied()))?;
                d.set_item("useful_live", o.useful_live)?;
                d.set_item("waits", tile_names(o.waits.iter().map(|w| w.tile)))?;
                discards.append(d)?;
            }
        }
        out.set_item("discards", discards)?;
        Ok(out)
    })
}

// ---- rummy ------------------------------------------------------------------------------------

/// A rank as rummy reads it: `A`, `2`..`10` (or `T`), `J`, `Q`, `K`, or 0..=12 (A..K).
fn rummy_rank(v: &Bound<'_, PyAny>) -> PyResult<u8> {
    if let Ok(n) = v.extract::<u8>() {
        return if n <= 12 {
            Ok(n)
        } else {
            Err(bad_input(format!("wild rank {n}: 0..12 (A..K)")))
        };
    }
    let text: String = v.extract()?;
    let t = text.trim().to_ascii_uppercase();
    let rank = match t.as_str() {
        "A" => 0,
        "T" | "10" => 9,
        "J" => 10,
        "Q" => 11,
        "K" => 12,
        d => match d.parse::<u8>() {
            Ok(n) if (2..=9).contains(&n) => n - 1,
            _ => return Err(bad_input(format!("`{text}`: not a rank (A, 2..10, J, Q, K)"))),
        },
    };
    Ok(rank)
}

fn arrangement_dict<'py>(
    py: Python<'py>,
    a: &rummy::Arrangement,
    options: &rummy::Options,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let melds: Vec<String> = a.melds.iter().map(|m| rummy::format_cards(&m.cards)).collect();
    let kinds: Vec<&str> = a
        .melds
        .iter()
        .map(|m| match m.kind {
            rummy::MeldKind::Run => "run",
            rummy::MeldKind::Set => "set",
        })
        .collect();
    d.set_item("melds", melds)?;
    d.set_item("kinds", kinds)?;
    d.set_item(
        "dump",
        a.dump.iter().map(|c| rummy::format_cards(&[*c])).collect::<Vec<_>>(),
    )?;
    d.set_item("deadwood_cards", a.deadwood_cards())?;
    d.set_item("deadwood_points", a.deadwood_points(options))?;
    Ok(d)
}

/// Evaluates a rummy hand exactly: the fewest deadwood cards and points over every
/// arrangement, the number of maximal arrangements, the best arrangement (fewest points, then
/// fewest cards) and the maximal ones listed (at most `list_limit` per island).
///
/// >>> kibitzer.rummy_evaluate("2H 3H 4H 5H 7S 7D 7C 9D KD")["best"]["melds"]
/// ['2H 3H 4H 5H', '7S 7D 7C']
#[pyfunction]
#[pyo3(signature = (hand, *, ace_high=false, split_runs=false, wild=None, joker_points=0, list_limit=10, node_budget=20_000_000, timeout=None))]
#[allow(clippy::too_many_arguments)]
fn rummy_evaluate<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    ace_high: bool,
    split_runs: bool,
    wild: Option<&Bound<'py, PyAny>>,
    joker_points: u32,
    list_limit: usize,
    node_budget: u64,
    timeout: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    guard(|| {
        let timeout = timeout_of(timeout)?;
        let cards = rummy::Hand::parse(&text_of(hand)?).map_err(bad_input)?;
        let options = rummy::Options {
            ace_high,
            split_runs,
            wild_rank: wild.map(rummy_rank).transpose()?,
            joker_points,
            list_limit,
            node_budget,
        };
        options.validate().map_err(bad_input)?;
        let (e, timed_out) = interruptible(|| {
            Ok(py.detach(|| {
                let _deadline = kibitzer::with_deadline(timeout);
                let e = rummy::evaluate(&cards, &options);
                let cut = !e.exact && kibitzer::expired();
                (e, cut)
            }))
        })?;
        let out = PyDict::new(py);
        out.set_item("exact", e.exact)?;
        out.set_item("min_deadwood_cards", e.exact.then(|| e.min_deadwood_cards()))?;
        out.set_item("min_deadwood_points", e.exact.then(|| e.min_deadwood_points()))?;
        out.set_item("arrangements", e.maximal_count())?;
        out.set_item("saturated", e.saturated)?;
        out.set_item(
            "control_points",
            e.control_points()
                .iter()
                .map(|c| rummy::format_cards(&[*c]))
                .collect::<Vec<_>>(),
        )?;
        match e.min_points_arrangement() {
            Some(a) => out.set_item("best", arrangement_dict(py, &a, &options)?)?,
            None => out.set_item("best", py.None())?,
        }
        let listed = PyList::empty(py);
        let mut iter = e.arrangements();
        for a in iter.by_ref().take(list_limit.max(1)) {
            listed.append(arrangement_dict(py, &a, &options)?)?;
        }
        out.set_item("listed", listed)?;
        out.set_item("timed_out", timed_out)?;
        Ok(out)
    })
}

// ---- durak ------------------------------------------------------------------------------------

/// The durak hand value (docs/durak.md) with its itemised terms: `hand`, the `trump` suit, cards
/// left in the `stock`, and every player's hand size (`hands`, this player's first). `params`
/// overrides the value's scalar parameters (`trump_bonus`, `rank_value_A`, `same_rank_bonus_2`,
/// ...: the names `ValueParams` reads).
///
/// >>> kibitzer.durak_hand_value("6S 7S KH AD 9C", "H", stock=10, hands="5 6")["total"]
/// 1963
#[pyfunction]
#[pyo3(signature = (hand, trump, stock=0, hands=None, params=None))]
fn durak_hand_value<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    trump: &str,
    stock: usize,
    hands: Option<&Bound<'py, PyAny>>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    guard(|| {
        let cards = durak::parse_cards(&text_of(hand)?).map_err(bad_input)?;
        let trump: durak::Suit = trump.parse().map_err(bad_input)?;
        let sizes_text = match hands {
            None => String::new(),
            Some(h) => match h.extract::<Vec<usize>>() {
                Ok(v) => v.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(" "),
                Err(_) => text_of(h)?,
            },
        };
        let sizes = if sizes_text.trim().is_empty() {
            Vec::new()
        } else {
            durak::parse_hand_sizes(&sizes_text).map_err(bad_input)?
        };
        let mut value_params = durak::ValueParams::default();
        if let Some(p) = params {
            for (k, v) in p.iter() {
                let name: String = k.extract()?;
                let text = crate::convert::py_input_text(&v)?;
                value_params.set(&name, &text).map_err(bad_input)?;
            }
        }
        let v = durak::hand_value(&cards, trump, stock, &sizes, &value_params);
        let out = PyDict::new(py);
        out.set_item("total", v.total)?;
        let terms = PyList::empty(py);
        for t in &v.terms {
            let d = PyDict::new(py);
            d.set_item("label", &t.label)?;
            d.set_item("value", t.value)?;
            d.set_item(
                "kind",
                match t.kind {
                    durak::TermKind::OutOfPlay => "out of play",
                    durak::TermKind::Card(_) => "card",
                    durak::TermKind::SameRank { .. } => "same rank",
                    durak::TermKind::SuitBalance { .. } => "suit balance",
                    durak::TermKind::HandSize => "hand size",
                },
            )?;
            terms.append(d)?;
        }
        out.set_item("terms", terms)?;
        Ok(out)
    })
}

/// A solver's chosen play and its type as Python sees them: the cards and type, `pass` twice, or
/// none when there is no play.
fn play_and_kind(best: Option<&doudizhu::Play>, pass: bool) -> (Option<String>, Option<String>) {
    match (best, pass) {
        (Some(p), _) => (Some(p.to_string()), Some(p.name().to_string())),
        (None, true) => (Some("pass".to_string()), Some("pass".to_string())),
        (None, false) => (None, None),
    }
}
