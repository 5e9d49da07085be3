//! Rule sets at the table: [`RulePlayer`] runs a mahjong rule set (`rules/mahjong.rules`,
//! `rules/mahjong_reference.rules` or an edited copy) through one reused [`Session`] per decision;
//! [`TwinCheck`] plays a native player and a rule player side by side and records every decision
//! where they differ (the proof that the native arena figures carry over to the rule sets).

use std::sync::Arc;

use crate::engine::program::Program;
use crate::engine::session::Session;
use crate::value::Value;

use super::opponent::Read;
use super::player::{CallAction, Player, PlayerView, TurnAction};
use super::rules_api::{melds_value, text_tile, tile_value, tiles_value};
use super::tile::{counts_of, Counts, Tile, KINDS};
use super::win::own_counts;

/// The relations a decision reads.
const DECISIONS: [&str; 5] = ["win", "kong", "discard", "ready", "call"];

/// A seat played by a rule set.
pub struct RulePlayer {
    name: String,
    session: Session,
    /// Where each of `INPUTS` is among the rule set's inputs (looked up once, not per decision).
    inputs: [Option<usize>; 14],
    /// The rule set's `two_player` parameter, if it has one.
    two_player_param: Option<usize>,
    /// Decisions the rules could not make (run errors, no decision): each replaced by a fallback.
    pub failures: u64,
    /// The first failure, for the report.
    pub first_failure: Option<String>,
}

/// The inputs a position gives, in this order (those after `drawn` only to rule sets that declare
/// them).
const INPUTS: [&str; 14] = [
    "hand",
    "melds",
    "visible",
    "offered",
    "drawn",
    "declared",
    "after_call",
    "wall",
    "chow",
    "opponent_ready",
    "safe",
    "opponent_melds",
    "opponent_discards",
    "opponent_before_ready",
];
/// The last of the inputs every mahjong rule set reads (`hand` … `drawn`).
const DRAWN: usize = 4;

impl RulePlayer {
    /// A player running `program`, named `name` in reports.
    pub fn new(name: &str, program: Arc<Program>) -> RulePlayer {
        let inputs = INPUTS.map(|n| program.input_index(n));
        let goals: Vec<&str> = DECISIONS
            .iter()
            .copied()
            .filter(|r| program.relation(r).is_some())
            .collect();
        let quiet = program.param_index("detail").is_some();
        let two_player_param = program.param_index("two_player");
        let mut session = Session::new(program);
        session.set_timed(false);
        session.set_goal(&goals);
        if quiet {
            // Shapes only where the decision needs them (the decision is the same either way).
            let _ = session.set_param("detail", "false");
        }
        RulePlayer {
            name: name.to_string(),
            session,
            inputs,
            two_player_param,
            failures: 0,
            first_failure: None,
        }
    }

    /// The session (to set parameters, or to explain the last decision).
    pub fn session(&mut self) -> &mut Session {
        &mut self.session
    }

    fn set_view(&mut self, view: &PlayerView, offered: Option<Tile>) -> Result<(), String> {
        let mut visible = view.visible;
        if let Some(t) = offered {
            visible[t.index()] = visible[t.index()].saturating_sub(1);
        }
        let s = &mut self.session;
        if self
            .two_player_param
            .is_some_and(|i| matches!(s.params().get(i), Some(Value::Bool(true))))
            && out_of_play(view, &visible)
        {
            // The table marks pins and bamboo as seen (out of play); with `two_player` on, the
            // rules infer that from their absence, so the position's list is a third as long.
            visible[9..27].fill(0);
        }
        let one = |t: Option<Tile>| Value::list(t.map(tile_value));
        let values = [
            tiles_value(&view.hand),
            melds_value(&view.melds),
            tiles_value(&visible),
            one(offered),
            one(if offered.is_some() { None } else { view.drawn }),
            Value::Bool(view.ready),
            Value::Bool(offered.is_none() && view.drawn.is_none()),
            Value::Int(view.wall_remaining as i64),
            Value::Bool(view.can_chow),
            Value::Bool(view.opponent_ready),
            tiles_value(&view.opponent_safe),
            Value::Int(view.opponent_melds.len() as i64),
            tiles_value(&counts_of(&view.opponent_discards)),
            one(before_ready(view)),
        ];
        for (k, value) in values.into_iter().enumerate() {
            let given = match self.inputs[k] {
                Some(i) => s.set_input_at(i, value),
                // The first five every mahjong rule set reads: asked by name, for the error.
                None if k <= DRAWN => s.set_input(INPUTS[k], value),
                None => Ok(()),
            };
            given.map_err(|e| e.to_string())?;
        }
        let result = s.run().map_err(|e| e.to_string())?;
        // A run its budget cut short decided nothing: say which budget, not "no discard".
        if result.stop.is_budget() {
            return Err(format!("the rules stopped before deciding: {}", result.stop));
        }
        Ok(())
    }

    fn first_tile(&self, relation: &str) -> Option<Tile> {
        let v = self.session.first_fact_of(relation)?.first()?;
        match v {
            Value::Str(s) => text_tile(s),
            Value::List(items) => match items.first() {
                Some(Value::Str(s)) => text_tile(s),
                _ => None,
            },
            _ => None,
        }
    }

    /// True if the rules concluded a fact of `relation`.
    fn concluded(&self, relation: &str) -> bool {
        self.session.first_fact_of(relation).is_some()
    }

    /// The turn decision of the rules (an error if they made none).
    pub fn decide_turn(&mut self, view: &PlayerView) -> Result<TurnAction, String> {
        self.set_view(view, None)?;
        if self.concluded("win") {
            return Ok(TurnAction::Win);
        }
        if let Some(t) = self.first_tile("kong") {
            return Ok(TurnAction::Kong(t));
        }
        let Some(t) = self.first_tile("discard") else {
            return Err("the rules chose no discard".to_string());
        };
        if self.concluded("ready") {
            Ok(TurnAction::DeclareReady(t))
        } else {
            Ok(TurnAction::Discard(t))
        }
    }

    /// The call decision of the rules on `offered` (an error if they made none).
    pub fn decide_call(&mut self, view: &PlayerView, offered: Tile) -> Result<CallAction, String> {
        self.set_view(view, Some(offered))?;
        if self.concluded("win") {
            return Ok(CallAction::Win);
        }
        let Some(call) = self.session.first_fact_of("call") else {
            return Err("the rules made no call decision".to_string());
        };
        let kind = match call.first() {
            Some(Value::Str(k)) => k.to_string(),
            _ => String::new(),
        };
        let lowest = match call.get(1) {
            Some(Value::List(items)) => items.iter().find_map(|v| match v {
                Value::Str(s) => text_tile(s),
                _ => None,
            }),
            _ => None,
        };
        match (kind.as_str(), lowest) {
            ("pass", _) => Ok(CallAction::Pass),
            ("pong", _) => Ok(CallAction::Pong),
            ("kong", _) => Ok(CallAction::Kong),
            ("chow", Some(t)) => Ok(CallAction::Chow(t)),
            _ => Err(format!("unknown call decision {kind:?}")),
        }
    }

    fn failed(&mut self, what: String) {
        self.failures += 1;
        if self.first_failure.is_none() {
            self.first_failure = Some(what);
        }
    }
}

/// Pins and bamboo out of play at a two-player table: every copy marked seen, none held or called.
/// The opponent's last discard before the one it declared ready with (what the honour read
/// rests on), if it has declared and that discard is still on the table.
fn before_ready(view: &PlayerView) -> Option<Tile> {
    Read::from_discards(&view.opponent_discards, view.opponent_ready_at, view.opponent_ready)
        .after
        .filter(|_| view.opponent_ready)
}

fn out_of_play(view: &PlayerView, visible: &Counts) -> bool {
    let own = own_counts(&view.hand, &view.melds);
    (9..27).all(|i| visible[i] == 4 && own[i] == 0)
}

/// The highest tile held (the fallback discard).
fn highest(view: &PlayerView) -> Tile {
    (0..KINDS)
        .rev()
        .find(|&i| view.hand[i] > 0)
        .and_then(Tile::from_index)
        .unwrap_or(Tile::ONE_MAN)
}

impl Player for RulePlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn on_draw(&mut self, view: &PlayerView) -> TurnAction {
        match self.decide_turn(view) {
            Ok(a) => a,
            Err(e) => {
                self.failed(e);
                TurnAction::Discard(view.drawn.unwrap_or_else(|| highest(view)))
            }
        }
    }

    fn on_discard(&mut self, view: &PlayerView, offered: Tile) -> CallAction {
        match self.decide_call(view, offered) {
            Ok(a) => a,
            Err(e) => {
                self.failed(e);
                CallAction::Pass
            }
        }
    }
}

/// A native player and a rule player deciding every position together; the native decision is
/// played, every difference is counted.
pub struct TwinCheck<P: Player> {
    /// The native player (its decisions are played).
    pub native: P,
    /// The rule player checked against it.
    pub rules: RulePlayer,
    /// Decisions compared.
    pub decisions: u64,
    /// Decisions that differed.
    pub mismatches: u64,
    /// The first few differences, described.
    pub examples: Vec<String>,
}

impl<P: Player> TwinCheck<P> {
    /// Checks `rules` against `native`.
    pub fn new(native: P, rules: RulePlayer) -> TwinCheck<P> {
        TwinCheck {
            native,
            rules,
            decisions: 0,
            mismatches: 0,
            examples: Vec::new(),
        }
    }

    fn record(&mut self, same: bool, describe: impl FnOnce() -> String) {
        self.decisions += 1;
        if !same {
            self.mismatches += 1;
            if self.examples.len() < 5 {
                self.examples.push(describe());
            }
        }
    }
}

fn describe(view: &PlayerView, offered: Option<Tile>) -> String {
    use super::notation::{format_counts, format_melds};
    let mut s = format!("hand {}", format_counts(&view.hand));
    if !view.melds.is_empty() {
        s.push_str(&format!(" melds {}", format_melds(&view.melds)));
    }
    let mut visible = view.visible;
    for k in &mut visible[9..27] {
        *k = 0;
    }
    s.push_str(&format!(" visible {}", format_counts(&visible)));
    if let Some(d) = view.drawn {
        s.push_str(&format!(" drawn {d}"));
    }
    if let Some(o) = offered {
        s.push_str(&format!(" offered {o}"));
    }
    if view.ready {
        s.push_str(" declared");
    }
    s.push_str(&format!(" wall {}", view.wall_remaining));
    s
}

impl<P: Player> Player for TwinCheck<P> {
    fn name(&self) -> String {
        self.native.name()
    }

    fn start_game(&mut self, seat: usize, seed: u64) {
        self.native.start_game(seat, seed);
        self.rules.start_game(seat, seed);
    }

    fn on_draw(&mut self, view: &PlayerView) -> TurnAction {
        let n = self.native.on_draw(view);
        let r = self.rules.decide_turn(view);
        self.record(r.as_ref() == Ok(&n), || {
            format!("{}: native {n:?}, rules {r:?}", describe(view, None))
        });
        n
    }

    fn on_discard(&mut self, view: &PlayerView, offered: Tile) -> CallAction {
        let n = self.native.on_discard(view, offered);
        let r = self.rules.decide_call(view, offered);
        self.record(r.as_ref() == Ok(&n), || {
            format!("{}: native {n:?}, rules {r:?}", describe(view, Some(offered)))
        });
        n
    }
}
