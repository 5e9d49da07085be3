//! Durak as a step-by-step game for self-play: the library's engine (`GameState`, `legal_actions`,
//! `apply`) behind a Python class, actions as text (`attack 7S`, `defend 7S with 9S`, `take`,
//! `pass`, `transfer 7D`) or as numbers of a fixed encoding, and the library's players (native
//! and the rule AI) as agents.

use crate::engine::load_py;
use crate::errors::{self, bad_input};
use crate::guard::{guard, ThreadBound};
use kibitzer::games::durak::{
    self, apply, legal_actions, Action, Card, CardSet, Deck, GameOptions, GameState, Outcome, Player,
};
use kibitzer::ExplainLimits;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<DurakGame>()?;
    m.add_class::<DurakNativeAgent>()?;
    m.add_class::<DurakRulesAgent>()?;
    Ok(())
}

/// Card positions in the deck's own order, for the action and observation encodings.
struct Layout {
    cards: Vec<Card>,
    /// Position of each card by its global index (0..52); `usize::MAX` when not in the deck.
    position: [usize; 64],
}

impl Layout {
    fn of(deck: Deck) -> Layout {
        let cards = deck.cards();
        let mut position = [usize::MAX; 64];
        for (i, c) in cards.iter().enumerate() {
            if let Some(p) = position.get_mut(c.index() as usize) {
                *p = i;
            }
        }
        Layout { cards, position }
    }

    fn n(&self) -> usize {
        self.cards.len()
    }

    fn pos(&self, c: Card) -> usize {
        self.position.get(c.index() as usize).copied().unwrap_or(usize::MAX)
    }

    /// Attack `0..n`, transfer `n..2n`, defend `2n + a·n + w`, pass, take. (Every card of a game
    /// is in its deck; a card that were not would get a number past the end, never a panic.)
    fn encode(&self, a: Action) -> usize {
        let n = self.n();
        match a {
            Action::Attack(c) => self.pos(c),
            Action::Transfer(c) => n.saturating_add(self.pos(c)),
            Action::Defend { attack, with } => (2 * n)
                .saturating_add(self.pos(attack).saturating_mul(n))
                .saturating_add(self.pos(with)),
            Action::Pass => 2 * n + n * n,
            Action::Take => 2 * n + n * n + 1,
        }
    }

    fn actions(&self) -> usize {
        2 * self.n() + self.n() * self.n() + 2
    }
}

fn deck_of(size: usize) -> PyResult<Deck> {
    Deck::from_size(size).map_err(bad_input)
}

fn cards_list(set: CardSet) -> Vec<String> {
    set.iter().map(|c| c.to_string()).collect()
}

/// One durak game: the referee's full state, stepped one action at a time.
#[pyclass(module = "kibitzer")]
pub struct DurakGame {
    options: GameOptions,
    layout: Layout,
    state: Option<GameState>,
    seed: u64,
}

impl DurakGame {
    pub fn state(&self) -> PyResult<&GameState> {
        self.state
            .as_ref()
            .ok_or_else(|| bad_input("no game yet: call reset(seed) first"))
    }

    fn legal(&self) -> PyResult<Vec<Action>> {
        Ok(legal_actions(self.state()?))
    }

    /// The action named by text or by number, if legal now.
    fn read_action(&self, action: &Bound<'_, PyAny>) -> PyResult<Action> {
        let legal = self.legal()?;
        if let Ok(id) = action.extract::<usize>() {
            return legal
                .iter()
                .copied()
                .find(|a| self.layout.encode(*a) == id)
                .ok_or_else(|| bad_input(format!("action number {id} is not legal now")));
        }
        let text: String = action.extract()?;
        let wanted = normalise(&text);
        legal
            .iter()
            .copied()
            .find(|a| normalise(&a.to_string()) == wanted)
            .ok_or_else(|| {
                bad_input(format!(
                    "`{text}` is not legal now (legal: {})",
                    legal.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(", ")
                ))
            })
    }
}

/// Actions compared case-insensitively, `10` and `T` alike.
fn normalise(text: &str) -> String {
    text.trim().to_ascii_uppercase().replace("10", "T")
}

#[pymethods]
impl DurakGame {
    #[new]
    #[pyo3(signature = (players=2, deck=36, transfer=false, max_actions=20_000))]
    fn new(players: usize, deck: usize, transfer: bool, max_actions: u64) -> PyResult<DurakGame> {
        guard(|| {
            let options = GameOptions {
                players,
                deck: deck_of(deck)?,
                transfer,
                max_actions,
                ..GameOptions::default()
            };
            if !(2..=6).contains(&players) || players * durak::HAND_SIZE > options.deck.size() {
                return Err(bad_input(format!(
                    "{players} players with a {deck}-card deck: durak is played by 2 to 6, six cards each"
                )));
            }
            Ok(DurakGame {
                layout: Layout::of(options.deck),
                options,
                state: None,
                seed: 0,
            })
        })
    }

    /// Deals a new game shuffled by `seed`.
    #[pyo3(signature = (seed=0))]
    fn reset(&mut self, seed: u64) -> PyResult<()> {
        guard(|| {
            self.state = Some(GameState::new(&self.options, seed).map_err(bad_input)?);
            self.seed = seed;
            Ok(())
        })
    }

    #[getter]
    fn players(&self) -> usize {
        self.options.players
    }

    /// Size of the fixed action encoding (attack, transfer, defend pairs, pass, take).
    #[getter]
    fn action_count(&self) -> usize {
        self.layout.actions()
    }

    /// The deck's cards in encoding order.
    #[getter]
    fn deck(&self) -> Vec<String> {
        self.layout.cards.iter().map(|c| c.to_string()).collect()
    }

    /// The seat to act, or None when the game is over.
    fn to_act(&self) -> PyResult<Option<usize>> {
        guard(|| Ok(self.state()?.to_act()))
    }

    fn is_over(&self) -> PyResult<bool> {
        guard(|| Ok(self.state()?.is_over()))
    }

    /// The legal actions of the seat to act, as text, in the engine's order.
    fn legal_actions(&self) -> PyResult<Vec<String>> {
        guard(|| Ok(self.legal()?.iter().map(|a| a.to_string()).collect()))
    }

    /// The legal actions as numbers of the fixed encoding (for action masks).
    fn legal_ids(&self) -> PyResult<Vec<usize>> {
        guard(|| Ok(self.legal()?.iter().map(|a| self.layout.encode(*a)).collect()))
    }

    /// The text of action number `id` (legal or not).
    fn action_text(&self, id: usize) -> PyResult<String> {
        guard(|| {
            let n = self.layout.n();
            let card = |i: usize| {
                self.layout
                    .cards
                    .get(i)
                    .copied()
                    .ok_or_else(|| bad_input(format!("action number {id} is out of range")))
            };
            let a = if id < n {
                Action::Attack(card(id)?)
            } else if id < 2 * n {
                Action::Transfer(card(id - n)?)
            } else if id < 2 * n + n * n {
                let k = id - 2 * n;
                Action::Defend {
                    attack: card(k / n)?,
                    with: card(k % n)?,
                }
            } else if id == 2 * n + n * n {
                Action::Pass
            } else if id == 2 * n + n * n + 1 {
                Action::Take
            } else {
                return Err(bad_input(format!("action number {id} is out of range")));
            };
            Ok(a.to_string())
        })
    }

    /// Plays an action (text or number) for the seat to act; an illegal one is refused with
    /// `BadInput` and the game is unchanged.
    fn step(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        guard(|| {
            let a = self.read_action(action)?;
            let state = self
                .state
                .as_mut()
                .ok_or_else(|| bad_input("no game yet: call reset(seed) first"))?;
            let player = state.to_act().ok_or_else(|| bad_input("the game is over"))?;
            apply(state, player, a).map_err(bad_input)
        })
    }

    /// What `player` (default: the seat to act) sees: own hand, trump, table, counts.
    #[pyo3(signature = (player=None))]
    fn observation<'py>(&self, py: Python<'py>, player: Option<usize>) -> PyResult<Bound<'py, PyDict>> {
        guard(|| {
            let state = self.state()?;
            let p = match player.or(state.to_act()) {
                Some(p) if p < state.players() => p,
                _ => return Err(bad_input("no player to observe: the game is over (name a seat)")),
            };
            let v = state.view(p);
            let d = PyDict::new(py);
            d.set_item("player", v.me)?;
            d.set_item(
                "role",
                match v.role {
                    durak::Role::Leader => "leader",
                    durak::Role::Thrower => "thrower",
                    durak::Role::Defender => "defender",
                },
            )?;
            d.set_item("hand", cards_list(v.hand))?;
            d.set_item("trump", v.trump.letter().to_string())?;
            d.set_item("trump_card", v.trump_card.to_string())?;
            let table = PyList::empty(py);
            for pair in &v.table {
                table.append((pair.attack.to_string(), pair.defence.map(|c| c.to_string())))?;
            }
            d.set_item("table", table)?;
            d.set_item("stock", v.stock)?;
            d.set_item("hand_sizes", v.hand_sizes.to_vec())?;
            d.set_item("out", v.out.to_vec())?;
            d.set_item("discard", v.discard)?;
            d.set_item("leader", v.leader)?;
            d.set_item("attacker", v.attacker)?;
            d.set_item("defender", v.defender)?;
            d.set_item("defender_taking", v.defender_taking)?;
            d.set_item("attack_limit", v.attack_limit)?;
            Ok(d)
        })
    }

    /// The observation of `player` as numbers: own hand, table attack cards, table defence
    /// cards (one slot per card of the deck each), the trump suit (4), then the stock, the
    /// discard pile and each seat's hand size (relative to this seat), all over the deck size,
    /// and the role (leader, thrower, defender).
    fn observation_vector(&self, player: usize) -> PyResult<Vec<f32>> {
        guard(|| {
            let state = self.state()?;
            if player >= state.players() {
                return Err(bad_input(format!("no seat {player}")));
            }
            let v = state.view(player);
            let n = self.layout.n();
            let mut out = vec![0f32; 3 * n + 4 + 2 + 6 + 3];
            for c in v.hand.iter() {
                if let Some(x) = out.get_mut(self.layout.pos(c)) {
                    *x = 1.0;
                }
            }
            for pair in &v.table {
                if let Some(x) = out.get_mut(n.saturating_add(self.layout.pos(pair.attack))) {
                    *x = 1.0;
                }
                if let Some(d) = pair.defence {
                    if let Some(x) = out.get_mut((2 * n).saturating_add(self.layout.pos(d))) {
                        *x = 1.0;
                    }
                }
            }
            let base = 3 * n;
            out[base + v.trump.index()] = 1.0;
            let size = n as f32;
            out[base + 4] = v.stock as f32 / size;
            out[base + 5] = v.discard as f32 / size;
            let seats = v.hand_sizes.len();
            for k in 0..seats.min(6) {
                out[base + 6 + k] = v.hand_sizes[(player + k) % seats] as f32 / size;
            }
            let role = match v.role {
                durak::Role::Leader => 0,
                durak::Role::Thrower => 1,
                durak::Role::Defender => 2,
            };
            out[base + 12 + role] = 1.0;
            Ok(out)
        })
    }

    /// Length of `observation_vector`.
    #[getter]
    fn observation_size(&self) -> usize {
        3 * self.layout.n() + 15
    }

    /// None while the game runs; else `{"durak": seat or None, "draw": bool, "aborted": bool,
    /// "rewards": [...]}` (the durak −1, the others share +1; a draw or an aborted game 0).
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        guard(|| {
            let state = self.state()?;
            let Some(outcome) = state.outcome() else {
                return Ok(None);
            };
            let n = state.players();
            let d = PyDict::new(py);
            let mut rewards = vec![0f64; n];
            match outcome {
                Outcome::Durak(loser) => {
                    for (p, r) in rewards.iter_mut().enumerate() {
                        *r = if p == loser { -1.0 } else { 1.0 / (n - 1) as f64 };
                    }
                    d.set_item("durak", loser)?;
                    d.set_item("draw", false)?;
                    d.set_item("aborted", false)?;
                }
                Outcome::Draw => {
                    d.set_item("durak", py.None())?;
                    d.set_item("draw", true)?;
                    d.set_item("aborted", false)?;
                }
                Outcome::Aborted => {
                    d.set_item("durak", py.None())?;
                    d.set_item("draw", false)?;
                    d.set_item("aborted", true)?;
                }
            }
            d.set_item("rewards", rewards)?;
            d.set_item("actions", state.actions())?;
            Ok(Some(d))
        })
    }

    /// The referee's view (every hand, the stock and the discard pile): for tests and
    /// debugging, not for agents.
    fn full_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        guard(|| {
            let state = self.state()?;
            let d = PyDict::new(py);
            let hands: Vec<Vec<String>> = (0..state.players()).map(|p| cards_list(state.hand(p))).collect();
            d.set_item("hands", hands)?;
            d.set_item("stock", state.stock().iter().map(|c| c.to_string()).collect::<Vec<_>>())?;
            d.set_item("discard", cards_list(state.discard()))?;
            d.set_item("table", cards_list(state.table_cards()))?;
            d.set_item("trump_card", state.trump_card().to_string())?;
            d.set_item("out", (0..state.players()).map(|p| state.is_out(p)).collect::<Vec<_>>())?;
            d.set_item("seed", self.seed)?;
            Ok(d)
        })
    }
}

/// A native durak player (`random`, `lowest`, `reference`) as an agent.
#[pyclass(module = "kibitzer")]
pub struct DurakNativeAgent {
    name: String,
    player: std::sync::Mutex<Box<dyn Player + Send>>,
}

#[pymethods]
impl DurakNativeAgent {
    #[new]
    #[pyo3(signature = (name, seed=0))]
    fn new(name: &str, seed: u64) -> PyResult<DurakNativeAgent> {
        guard(|| {
            let player: Box<dyn Player + Send> = match name {
                "random" => Box::new(durak::RandomPlayer::new(seed)),
                "lowest" => Box::new(durak::LowestPlayer),
                "reference" => Box::new(durak::ReferencePlayer::default()),
                other => {
                    return Err(bad_input(format!(
                        "unknown durak player `{other}` (random, lowest, reference)"
                    )))
                }
            };
            Ok(DurakNativeAgent {
                name: name.to_string(),
                player: std::sync::Mutex::new(player),
            })
        })
    }

    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }

    /// The player's action for the seat to act, as text.
    fn act(&self, game: PyRef<'_, DurakGame>) -> PyResult<String> {
        guard(|| {
            let state = game.state()?;
            let p = state.to_act().ok_or_else(|| bad_input("the game is over"))?;
            let legal = legal_actions(state);
            let mut player = self
                .player
                .lock()
                .map_err(|_| errors::KibitzerError::new_err("the player failed earlier"))?;
            let a = player.act(&state.view(p), &legal).map_err(bad_input)?;
            Ok(a.to_string())
        })
    }
}

/// The rule AI (`rules/durak.rules`, or a file in its place) as an agent; each decision is one
/// run of the rules, explained on request.
#[pyclass(module = "kibitzer")]
pub struct DurakRulesAgent {
    /// Kept on the thread that made the agent (see `guard::ThreadBound`).
    player: ThreadBound<durak::RulePlayer>,
}

#[pymethods]
impl DurakRulesAgent {
    #[new]
    #[pyo3(signature = (rules=None, params=None))]
    fn new(py: Python<'_>, rules: Option<&str>, params: Option<&Bound<'_, PyDict>>) -> PyResult<DurakRulesAgent> {
        guard(|| {
            let program = load_py(py, "durak", rules, None)?;
            let mut player = durak::RulePlayer::new(program, "rules");
            crate::convert::set_params(player.session(), params)?;
            Ok(DurakRulesAgent {
                player: ThreadBound::new(player, "DurakRulesAgent"),
            })
        })
    }

    #[getter]
    fn name(&self) -> String {
        "rules".to_string()
    }

    /// The rules' action for the seat to act, as text; with `explain`, also the explanation of
    /// the decision (`"short"`, `"full"` or `"text"`), as `(action, explanation)`.
    #[pyo3(signature = (game, explain=None))]
    fn act<'py>(
        &mut self,
        py: Python<'py>,
        game: PyRef<'py, DurakGame>,
        explain: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.player.with(|player| {
            let state = game.state()?;
            let p = state.to_act().ok_or_else(|| bad_input("the game is over"))?;
            let legal = legal_actions(state);
            let view = state.view(p);
            let a = player
                .decide(&view, &legal)
                .map_err(|e| errors::BadRules::new_err(e.to_string()))?;
            if !legal.contains(&a) {
                return Err(errors::BadRules::new_err(format!(
                    "the rules chose `{a}`, which is not legal here"
                )));
            }
            let text = a.to_string();
            let mode = match explain {
                None => return Ok(text.into_pyobject(py)?.into_any()),
                Some(e) => crate::engine::explain_mode(Some(e))?,
            };
            let e = crate::engine::explain_relation(py, player.session(), "play", mode, ExplainLimits::default())?;
            Ok((text, e).into_pyobject(py)?.into_any())
        })
    }
}
