//! Two-player mahjong as a step-by-step game. The library's engine (`mahjong::Game`) calls its
//! players; here it runs on a thread of its own with two seats that hand each decision over a
//! channel and wait for the answer, so Python steps the game one decision at a time. Every
//! action offered is one the engine accepts (the same checks, from the seat's view), so a game
//! stepped from `legal_actions()` has no misplay.

use crate::engine::load_py;
use crate::errors::{self, bad_input};
use crate::guard::{guard, ThreadBound};
use kibitzer::games::mahjong::{
    self, is_win, shanten, CallAction, Game, GameResult, Meld, Player, PlayerView, Tile, TurnAction, KINDS,
};
use kibitzer::ExplainLimits;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Mutex;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<MahjongGame>()?;
    m.add_class::<MahjongNativeAgent>()?;
    m.add_class::<MahjongRulesAgent>()?;
    Ok(())
}

/// A decision the engine asks a seat for.
#[derive(Clone)]
enum Ask {
    Turn(PlayerView),
    Call(PlayerView, Tile),
}

enum Reply {
    Turn(TurnAction),
    Call(CallAction),
}

enum Msg {
    Ask(usize, Ask),
    Over(GameResult),
}

/// A seat that hands its decisions to Python. When the Python side has gone (a new game was
/// dealt, or the object dropped) it answers with the engine's own fallbacks, so the orphaned
/// game runs out quickly and its thread ends.
struct ChannelSeat {
    seat: usize,
    asks: Sender<Msg>,
    replies: Receiver<Reply>,
}

impl ChannelSeat {
    fn ask(&mut self, ask: Ask) -> Option<Reply> {
        self.asks.send(Msg::Ask(self.seat, ask)).ok()?;
        self.replies.recv().ok()
    }
}

fn highest(view: &PlayerView) -> Tile {
    view.drawn
        .filter(|t| view.hand[t.index()] > 0)
        .or_else(|| (0..KINDS).rev().find(|&i| view.hand[i] > 0).and_then(Tile::from_index))
        .unwrap_or(Tile::ONE_MAN)
}

impl Player for ChannelSeat {
    fn name(&self) -> String {
        format!("python seat {}", self.seat)
    }

    fn on_draw(&mut self, view: &PlayerView) -> TurnAction {
        match self.ask(Ask::Turn(view.clone())) {
            Some(Reply::Turn(a)) => a,
            _ => TurnAction::Discard(highest(view)),
        }
    }

    fn on_discard(&mut self, view: &PlayerView, offered: Tile) -> CallAction {
        match self.ask(Ask::Call(view.clone(), offered)) {
            Some(Reply::Call(a)) => a,
            _ => CallAction::Pass,
        }
    }
}

/// The legal actions of a decision, as the engine checks them.
fn legal(ask: &Ask) -> Vec<Action> {
    let mut out = Vec::new();
    match ask {
        Ask::Turn(v) => {
            if v.drawn.is_some() && is_win(&v.hand, &v.melds).is_some() {
                out.push(Action::Turn(TurnAction::Win));
            }
            for i in 0..KINDS {
                let Some(t) = Tile::from_index(i) else { continue };
                if v.hand[i] == 0 {
                    continue;
                }
                if v.ready {
                    if Some(t) == v.drawn {
                        out.push(Action::Turn(TurnAction::Discard(t)));
                    }
                    continue;
                }
                out.push(Action::Turn(TurnAction::Discard(t)));
                let mut after = v.hand;
                after[i] -= 1;
                if shanten(&after, &v.melds) == 0 {
                    out.push(Action::Turn(TurnAction::DeclareReady(t)));
                }
                let added = v.melds.contains(&Meld::pong(t));
                if v.wall_remaining > 0 && (v.hand[i] == 4 || added) {
                    out.push(Action::Turn(TurnAction::Kong(t)));
                }
            }
        }
        Ask::Call(v, t) => {
            let i = t.index();
            let mut won = v.hand;
            won[i] += 1;
            if is_win(&won, &v.melds).is_some() {
                out.push(Action::Call(CallAction::Win));
            }
            if !v.ready && v.melds.len() < 4 {
                if v.hand[i] >= 2 {
                    out.push(Action::Call(CallAction::Pong));
                }
                if v.hand[i] >= 3 && v.wall_remaining > 0 {
                    out.push(Action::Call(CallAction::Kong));
                }
                if v.can_chow {
                    for back in 0..3 {
                        let Some(low) = i.checked_sub(back).and_then(Tile::from_index) else {
                            continue;
                        };
                        let Some(meld) = Meld::chow(low) else { continue };
                        let tiles = meld.tiles();
                        if !tiles.contains(t) {
                            continue;
                        }
                        let mut need = v.hand;
                        let mut skipped = false;
                        let mut ok = true;
                        for x in tiles {
                            if x == *t && !skipped {
                                skipped = true;
                                continue;
                            }
                            if need[x.index()] == 0 {
                                ok = false;
                                break;
                            }
                            need[x.index()] -= 1;
                        }
                        if ok {
                            out.push(Action::Call(CallAction::Chow(low)));
                        }
                    }
                }
            }
            out.push(Action::Call(CallAction::Pass));
        }
    }
    out
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Action {
    Turn(TurnAction),
    Call(CallAction),
}

/// Discard `0..34`, declare ready `34..68`, own kong `68..102`, chow by lowest tile
/// `102..136`, then win, pong, kong on a discard, pass.
const ACTIONS: usize = 4 * KINDS + 4;

fn encode(a: Action) -> usize {
    match a {
        Action::Turn(TurnAction::Discard(t)) => t.index(),
        Action::Turn(TurnAction::DeclareReady(t)) => KINDS + t.index(),
        Action::Turn(TurnAction::Kong(t)) => 2 * KINDS + t.index(),
        Action::Call(CallAction::Chow(t)) => 3 * KINDS + t.index(),
        Action::Turn(TurnAction::Win) | Action::Call(CallAction::Win) => 4 * KINDS,
        Action::Call(CallAction::Pong) => 4 * KINDS + 1,
        Action::Call(CallAction::Kong) => 4 * KINDS + 2,
        Action::Call(CallAction::Pass) => 4 * KINDS + 3,
    }
}

fn text(a: Action) -> String {
    match a {
        Action::Turn(TurnAction::Discard(t)) => format!("discard {t}"),
        Action::Turn(TurnAction::DeclareReady(t)) => format!("ready {t}"),
        Action::Turn(TurnAction::Kong(t)) => format!("kong {t}"),
        Action::Turn(TurnAction::Win) | Action::Call(CallAction::Win) => "win".to_string(),
        Action::Call(CallAction::Chow(t)) => format!("chow {t}"),
        Action::Call(CallAction::Pong) => "pong".to_string(),
        Action::Call(CallAction::Kong) => "kong".to_string(),
        Action::Call(CallAction::Pass) => "pass".to_string(),
    }
}

/// The channels of the game in progress.
struct Live {
    msgs: Receiver<Msg>,
    replies: [Sender<Reply>; 2],
}

/// One two-player mahjong game stepped decision by decision.
#[pyclass(module = "kibitzer")]
pub struct MahjongGame {
    live: Mutex<Option<Live>>,
    pending: Option<(usize, Ask)>,
    result: Option<GameResult>,
    chow: bool,
    seed: u64,
    decisions: u64,
}

impl MahjongGame {
    fn pending(&self) -> PyResult<&(usize, Ask)> {
        self.pending.as_ref().ok_or_else(|| {
            if self.result.is_some() {
                bad_input("the game is over")
            } else {
                bad_input("no game yet: call reset(seed) first")
            }
        })
    }

    /// Waits for the engine's next question or the end of the game.
    fn advance(&mut self) -> PyResult<()> {
        let msg = {
            let guard = self
                .live
                .lock()
                .map_err(|_| errors::KibitzerError::new_err("the game thread failed"))?;
            let live = guard
                .as_ref()
                .ok_or_else(|| bad_input("no game yet: call reset(seed) first"))?;
            live.msgs.recv()
        };
        match msg {
            Ok(Msg::Ask(seat, ask)) => {
                self.pending = Some((seat, ask));
            }
            Ok(Msg::Over(result)) => {
                self.pending = None;
                self.result = Some(result);
            }
            Err(_) => {
                self.pending = None;
                return Err(errors::KibitzerError::new_err(
                    "internal error: the game ended without a result (a bug: please report it with the seed)",
                ));
            }
        }
        Ok(())
    }

    fn read_action(&self, action: &Bound<'_, PyAny>) -> PyResult<Action> {
        let (_, ask) = self.pending()?;
        let legal = legal(ask);
        if let Ok(id) = action.extract::<usize>() {
            return legal
                .iter()
                .copied()
                .find(|a| encode(*a) == id)
                .ok_or_else(|| bad_input(format!("action number {id} is not legal now")));
        }
        let wanted: String = action.extract()?;
        let wanted_norm = wanted.trim().to_string();
        legal
            .iter()
            .copied()
            .find(|a| text(*a).eq_ignore_ascii_case(&wanted_norm))
            .ok_or_else(|| {
                bad_input(format!(
                    "`{wanted}` is not legal now (legal: {})",
                    legal.iter().map(|a| text(*a)).collect::<Vec<_>>().join(", ")
                ))
            })
    }

    pub fn view_and_offer(&self) -> PyResult<(PlayerView, Option<Tile>)> {
        let (_, ask) = self.pending()?;
        Ok(match ask {
            Ask::Turn(v) => (v.clone(), None),
            Ask::Call(v, t) => (v.clone(), Some(*t)),
        })
    }
}

fn counts_tiles(c: &mahjong::Counts) -> String {
    mahjong::format_counts(c)
}

#[pymethods]
impl MahjongGame {
    #[new]
    #[pyo3(signature = (chow=true))]
    fn new(chow: bool) -> MahjongGame {
        MahjongGame {
            live: Mutex::new(None),
            pending: None,
            result: None,
            chow,
            seed: 0,
            decisions: 0,
        }
    }

    /// Deals a new game shuffled by `seed`; `dealer` (0 or 1) draws first. A game in progress
    /// is abandoned.
    #[pyo3(signature = (seed=0, dealer=0))]
    fn reset(&mut self, seed: u64, dealer: usize) -> PyResult<()> {
        guard(|| {
            let (msg_tx, msg_rx) = channel();
            let (r0_tx, r0_rx) = channel();
            let (r1_tx, r1_rx) = channel();
            let mut game = Game::new(seed, dealer % 2);
            if !self.chow {
                game = game.without_chows();
            }
            let over_tx = msg_tx.clone();
            let mut seats = [
                ChannelSeat {
                    seat: 0,
                    asks: msg_tx.clone(),
                    replies: r0_rx,
                },
                ChannelSeat {
                    seat: 1,
                    asks: msg_tx,
                    replies: r1_rx,
                },
            ];
            std::thread::Builder::new()
                .name("kibitzer-mahjong".to_string())
                .spawn(move || {
                    let [a, b] = &mut seats;
                    let result = game.play(&mut [a as &mut dyn Player, b as &mut dyn Player]);
                    let _ = over_tx.send(Msg::Over(result));
                })
                .map_err(|e| errors::KibitzerError::new_err(format!("cannot start the game thread: {e}")))?;
            {
                let mut guard = self
                    .live
                    .lock()
                    .map_err(|_| errors::KibitzerError::new_err("the game thread failed"))?;
                *guard = Some(Live {
                    msgs: msg_rx,
                    replies: [r0_tx, r1_tx],
                });
            }
            self.pending = None;
            self.result = None;
            self.seed = seed;
            self.decisions = 0;
            self.advance()
        })
    }

    #[getter]
    fn players(&self) -> usize {
        2
    }

    #[getter]
    fn action_count(&self) -> usize {
        ACTIONS
    }

    /// The seat to decide, or None when the game is over.
    fn to_act(&self) -> Option<usize> {
        self.pending.as_ref().map(|(s, _)| *s)
    }

    fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// `"turn"` (own turn: discard, declare ready, kong or win) or `"call"` (the opponent's
    /// discard: win, pong, kong, chow or pass); None when over.
    fn phase(&self) -> Option<&'static str> {
        self.pending.as_ref().map(|(_, a)| match a {
            Ask::Turn(_) => "turn",
            Ask::Call(..) => "call",
        })
    }

    fn legal_actions(&self) -> PyResult<Vec<String>> {
        guard(|| {
            let (_, ask) = self.pending()?;
            Ok(legal(ask).into_iter().map(text).collect())
        })
    }

    fn legal_ids(&self) -> PyResult<Vec<usize>> {
        guard(|| {
            let (_, ask) = self.pending()?;
            Ok(legal(ask).into_iter().map(encode).collect())
        })
    }

    /// Answers the pending decision (text or number) and runs the engine to the next one.
    fn step(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        guard(|| {
            let a = self.read_action(action)?;
            let (seat, _) = *self.pending()?;
            let reply = match a {
                Action::Turn(t) => Reply::Turn(t),
                Action::Call(c) => Reply::Call(c),
            };
            {
                let guard = self
                    .live
                    .lock()
                    .map_err(|_| errors::KibitzerError::new_err("the game thread failed"))?;
                let live = guard
                    .as_ref()
                    .ok_or_else(|| bad_input("no game yet: call reset(seed) first"))?;
                live.replies[seat]
                    .send(reply)
                    .map_err(|_| errors::KibitzerError::new_err("internal error: the game thread is gone"))?;
            }
            self.decisions += 1;
            self.advance()
        })
    }

    /// What the seat to decide sees (only that seat: the engine shows a seat its view when it
    /// asks it to decide).
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        guard(|| {
            let (v, offered) = self.view_and_offer()?;
            let d = PyDict::new(py);
            d.set_item("player", v.seat)?;
            d.set_item("phase", if offered.is_some() { "call" } else { "turn" })?;
            d.set_item("dealer", v.dealer)?;
            d.set_item("hand", counts_tiles(&v.hand))?;
            d.set_item("drawn", v.drawn.map(|t| t.to_string()))?;
            d.set_item("offered", offered.map(|t| t.to_string()))?;
            d.set_item("melds", mahjong::format_melds(&v.melds))?;
            d.set_item("opponent_melds", mahjong::format_melds(&v.opponent_melds))?;
            d.set_item("discards", mahjong::format_tiles(&v.own_discards))?;
            d.set_item("opponent_discards", mahjong::format_tiles(&v.opponent_discards))?;
            d.set_item("wall", v.wall_remaining)?;
            d.set_item("ready", v.ready)?;
            d.set_item("opponent_ready", v.opponent_ready)?;
            d.set_item("shanten", shanten(&v.hand, &v.melds))?;
            let tiles = |c: &mahjong::Counts| c.to_vec();
            d.set_item("hand_counts", tiles(&v.hand))?;
            d.set_item("meld_counts", tiles(&mahjong::meld_counts(&v.melds)).to_vec())?;
            d.set_item(
                "opponent_meld_counts",
                tiles(&mahjong::meld_counts(&v.opponent_melds)).to_vec(),
            )?;
            let discards = |ts: &[Tile]| {
                let mut c = [0u8; KINDS];
                for t in ts {
                    c[t.index()] += 1;
                }
                c.to_vec()
            };
            d.set_item("discard_counts", discards(&v.own_discards))?;
            d.set_item("opponent_discard_counts", discards(&v.opponent_discards))?;
            Ok(d)
        })
    }

    /// The observation as numbers: hand, own melds, opponent's melds, own and opponent's
    /// discards (34 counts each, over 4), the drawn and the offered tile (34 each), then the
    /// wall over 64, ready, opponent ready, dealer, and the phase (turn, call).
    fn observation_vector(&self) -> PyResult<Vec<f32>> {
        guard(|| {
            let (v, offered) = self.view_and_offer()?;
            let mut out = vec![0f32; 7 * KINDS + 6];
            let mut put = |block: usize, counts: &[u8]| {
                for (i, &n) in counts.iter().enumerate().take(KINDS) {
                    out[block * KINDS + i] = f32::from(n) / 4.0;
                }
            };
            put(0, &v.hand);
            put(1, &mahjong::meld_counts(&v.melds));
            put(2, &mahjong::meld_counts(&v.opponent_melds));
            let mut own = [0u8; KINDS];
            for t in &v.own_discards {
                own[t.index()] += 1;
            }
            put(3, &own);
            let mut theirs = [0u8; KINDS];
            for t in &v.opponent_discards {
                theirs[t.index()] += 1;
            }
            put(4, &theirs);
            if let Some(t) = v.drawn {
                out[5 * KINDS + t.index()] = 1.0;
            }
            if let Some(t) = offered {
                out[6 * KINDS + t.index()] = 1.0;
            }
            let base = 7 * KINDS;
            out[base] = v.wall_remaining as f32 / 64.0;
            out[base + 1] = f32::from(u8::from(v.ready));
            out[base + 2] = f32::from(u8::from(v.opponent_ready));
            out[base + 3] = f32::from(u8::from(v.dealer));
            out[base + 4 + usize::from(offered.is_some())] = 1.0;
            Ok(out)
        })
    }

    #[getter]
    fn observation_size(&self) -> usize {
        7 * KINDS + 6
    }

    /// The text of action number `id`.
    #[staticmethod]
    fn action_text(id: usize) -> PyResult<String> {
        guard(|| {
            let tile =
                |i: usize| Tile::from_index(i).ok_or_else(|| bad_input(format!("action number {id} is out of range")));
            let a = match id {
                i if i < KINDS => Action::Turn(TurnAction::Discard(tile(i)?)),
                i if i < 2 * KINDS => Action::Turn(TurnAction::DeclareReady(tile(i - KINDS)?)),
                i if i < 3 * KINDS => Action::Turn(TurnAction::Kong(tile(i - 2 * KINDS)?)),
                i if i < 4 * KINDS => Action::Call(CallAction::Chow(tile(i - 3 * KINDS)?)),
                i if i == 4 * KINDS => Action::Turn(TurnAction::Win),
                i if i == 4 * KINDS + 1 => Action::Call(CallAction::Pong),
                i if i == 4 * KINDS + 2 => Action::Call(CallAction::Kong),
                i if i == 4 * KINDS + 3 => Action::Call(CallAction::Pass),
                _ => return Err(bad_input(format!("action number {id} is out of range"))),
            };
            Ok(text(a))
        })
    }

    /// None while the game runs; else `{"winner": seat or None, "form", "self_drawn",
    /// "turns", "misplays", "rewards"}` (the winner +1, the other −1; a draw 0).
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        guard(|| {
            let Some(r) = &self.result else {
                return Ok(None);
            };
            let d = PyDict::new(py);
            match r.outcome {
                mahjong::Outcome::Win { seat, form, self_drawn } => {
                    d.set_item("winner", seat)?;
                    d.set_item(
                        "form",
                        match form {
                            mahjong::WinForm::Standard => "standard",
                            mahjong::WinForm::SevenPairs => "seven pairs",
                        },
                    )?;
                    d.set_item("self_drawn", self_drawn)?;
                    let mut rewards = [-1.0f64; 2];
                    rewards[seat % 2] = 1.0;
                    d.set_item("rewards", rewards.to_vec())?;
                }
                mahjong::Outcome::Draw => {
                    d.set_item("winner", py.None())?;
                    d.set_item("form", py.None())?;
                    d.set_item("self_drawn", false)?;
                    d.set_item("rewards", vec![0.0f64, 0.0])?;
                }
            }
            d.set_item("turns", r.turns)?;
            let misplays: Vec<(usize, String, String)> = r
                .misplays
                .iter()
                .map(|m| (m.seat, m.action.clone(), m.reason.clone()))
                .collect();
            d.set_item("misplays", misplays)?;
            d.set_item("decisions", self.decisions)?;
            Ok(Some(d))
        })
    }
}

impl Drop for MahjongGame {
    fn drop(&mut self) {
        // Closing the channels lets an unfinished game run out on fallbacks and its thread end.
        if let Ok(mut g) = self.live.lock() {
            g.take();
        }
    }
}

fn action_of_turn(a: TurnAction) -> String {
    text(Action::Turn(a))
}

fn action_of_call(a: CallAction) -> String {
    text(Action::Call(a))
}

/// A native mahjong player (`random`, `seed`, `strong`) as an agent.
#[pyclass(module = "kibitzer")]
pub struct MahjongNativeAgent {
    name: String,
    player: Mutex<Box<dyn Player + Send>>,
}

#[pymethods]
impl MahjongNativeAgent {
    #[new]
    #[pyo3(signature = (name, seed=0))]
    fn new(name: &str, seed: u64) -> PyResult<MahjongNativeAgent> {
        guard(|| {
            let player: Box<dyn Player + Send> = match name {
                "random" => Box::new(mahjong::RandomPlayer::new(seed)),
                "reference" | "seed" => Box::new(mahjong::ReferencePlayer::default()),
                "strong" => Box::new(mahjong::StrongPlayer::default()),
                other => {
                    return Err(bad_input(format!(
                        "unknown mahjong player `{other}` (random, reference, strong)"
                    )))
                }
            };
            Ok(MahjongNativeAgent {
                name: name.to_string(),
                player: Mutex::new(player),
            })
        })
    }

    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }

    fn act(&self, game: PyRef<'_, MahjongGame>) -> PyResult<String> {
        guard(|| {
            let (view, offered) = game.view_and_offer()?;
            let mut p = self
                .player
                .lock()
                .map_err(|_| errors::KibitzerError::new_err("the player failed earlier"))?;
            Ok(match offered {
                None => action_of_turn(p.on_draw(&view)),
                Some(t) => action_of_call(p.on_discard(&view, t)),
            })
        })
    }
}

/// A mahjong rule set (`mahjong`, the strong bot, or `mahjong-reference`) as an agent, its decisions
/// explained on request.
#[pyclass(module = "kibitzer")]
pub struct MahjongRulesAgent {
    /// Kept on the thread that made the agent (see `guard::ThreadBound`).
    player: ThreadBound<mahjong::rule_player::RulePlayer>,
}

#[pymethods]
impl MahjongRulesAgent {
    #[new]
    #[pyo3(signature = (ruleset="mahjong", rules=None, params=None))]
    fn new(
        py: Python<'_>,
        ruleset: &str,
        rules: Option<&str>,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<MahjongRulesAgent> {
        guard(|| {
            let program = load_py(py, ruleset, rules, None)?;
            let mut player = mahjong::rule_player::RulePlayer::new(ruleset, program);
            crate::convert::set_params(player.session(), params)?;
            Ok(MahjongRulesAgent {
                player: ThreadBound::new(player, "MahjongRulesAgent"),
            })
        })
    }

    #[getter]
    fn name(&self) -> String {
        "rules".to_string()
    }

    /// The rules' action, as text; with `explain` also the explanation of the decision, as
    /// `(action, explanation)`.
    #[pyo3(signature = (game, explain=None))]
    fn act<'py>(
        &mut self,
        py: Python<'py>,
        game: PyRef<'py, MahjongGame>,
        explain: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.player.with(|player| {
            let (view, offered) = game.view_and_offer()?;
            let (action, relation) = match offered {
                None => {
                    let a = player.decide_turn(&view).map_err(errors::BadRules::new_err)?;
                    let rel = match a {
                        TurnAction::Win => "win",
                        TurnAction::Kong(_) => "kong",
                        TurnAction::Discard(_) | TurnAction::DeclareReady(_) => "discard",
                    };
                    (action_of_turn(a), rel)
                }
                Some(t) => {
                    let a = player.decide_call(&view, t).map_err(errors::BadRules::new_err)?;
                    let rel = if a == CallAction::Win { "win" } else { "call" };
                    (action_of_call(a), rel)
                }
            };
            let mode = match explain {
                None => return Ok(action.into_pyobject(py)?.into_any()),
                Some(e) => crate::engine::explain_mode(Some(e))?,
            };
            let e = crate::engine::explain_relation(py, player.session(), relation, mode, ExplainLimits::default())?;
            Ok((action, e).into_pyobject(py)?.into_any())
        })
    }
}
