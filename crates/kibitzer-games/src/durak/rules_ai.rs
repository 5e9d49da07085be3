//! The rule-driven side of durak: `rules/durak.rules` run through a reused [`Session`] — the hand
//! value by the rules ([`RuleValuer`]) and the rule AI as an arena player ([`RulePlayer`]).

use super::cards::{Card as DCard, CardSet, Suit as DSuit};
use super::error::DurakError;
use super::game::Action;
use super::players::Player;
use super::view::{PlayerView, Role};
use crate::cards::{Card, Cards, Suit};
use crate::engine::program::{Program, RelId};
use crate::engine::session::Session;
use crate::value::{Shared, Value};
use std::sync::Arc;

/// The engine's card for a durak card.
pub fn to_card(c: DCard) -> Card {
    let suit = Suit::from_index(c.suit().index() as u8).unwrap_or(Suit::Spades);
    Card::new(c.rank(), suit).unwrap_or_else(unreachable_card)
}

#[cold]
fn unreachable_card() -> Card {
    // Durak cards always have ranks 2..=14, which the engine's cards accept.
    Card::from_index(0).unwrap_or_else(|| unreachable!())
}

/// The durak card for an engine card.
pub fn from_card(c: Card) -> Option<DCard> {
    let suit = DSuit::from_index(c.suit().index() as usize)?;
    DCard::new(c.rank(), suit).ok()
}

/// A card set as the engine's card group (cards in index order).
pub fn cards_value(set: CardSet) -> Value {
    Value::Cards(Shared::local(Cards::new(set.iter().map(to_card), 0)))
}

fn suit_value(s: DSuit) -> Value {
    crate::builtins::cards::suit_letter(s.index())
}

fn sizes_value(sizes: &[usize]) -> Value {
    Value::list(sizes.iter().map(|s| Value::Int(*s as i64)))
}

fn run_error(e: impl std::fmt::Display) -> DurakError {
    DurakError::PlayerFailed {
        seat: 0,
        message: e.to_string(),
    }
}

/// The hand value through the rules, one reused [`Session`] (explanations recorded as always).
pub struct RuleValuer {
    session: Session,
    /// The input numbers of `VALUE_INPUTS` (see `input_slots`).
    slots: Option<[usize; 4]>,
}

impl RuleValuer {
    /// A valuer running `program` (the shipped `durak` rule set or an edited copy).
    pub fn new(program: Arc<Program>) -> RuleValuer {
        let mut session = Session::new(program);
        session.set_timed(false);
        session.set_goal(&["hand_value"]);
        let slots = input_slots(&session, VALUE_INPUTS);
        RuleValuer { session, slots }
    }

    /// The session, e.g. to set parameters or to explain the last run.
    pub fn session(&mut self) -> &mut Session {
        &mut self.session
    }

    /// `hand_value` of the rules for this hand (`sizes`: every hand size, this player's first).
    pub fn value(&mut self, hand: &Value, trump: DSuit, stock: usize, sizes: &Value) -> Result<i64, DurakError> {
        let s = &mut self.session;
        let values = [hand.clone(), suit_value(trump), Value::Int(stock as i64), sizes.clone()];
        set_inputs(s, self.slots, VALUE_INPUTS, values)?;
        s.run().map_err(run_error)?;
        s.first_output_arg()
            .and_then(Value::as_int)
            .ok_or_else(|| run_error("the rules gave no hand_value"))
    }

    /// Same, from a card set and plain sizes.
    pub fn value_of(&mut self, hand: CardSet, trump: DSuit, stock: usize, sizes: &[usize]) -> Result<i64, DurakError> {
        self.value(&cards_value(hand), trump, stock, &sizes_value(sizes))
    }
}

/// The inputs of a hand value, in `RuleValuer::value`'s order.
const VALUE_INPUTS: [&str; 4] = ["hand", "trump", "stock", "hands"];

/// The names `decision_inputs` gives, in its order.
const DECISION_INPUTS: [&str; 8] = ["hand", "trump", "stock", "hands", "role", "table", "room", "transfer"];

/// What the player has seen, given to rule sets that declare these inputs (an edited rule file
/// written before them still plays).
const SEEN_INPUTS: [&str; 6] = ["out", "known", "trump_card", "defender", "perevodnoy", "deck"];

/// The input number of each name, looked up once for a [`Session`]'s lifetime (looking them up per
/// query would compare the names as strings every time); `None` when the rule set lacks one.
fn input_slots<const N: usize>(session: &Session, names: [&str; N]) -> Option<[usize; N]> {
    let mut slots = [0; N];
    for (slot, name) in slots.iter_mut().zip(names) {
        *slot = session.input_index(name).ok()?;
    }
    Some(slots)
}

/// Gives the inputs by number, or by name when a slot is missing (which reports the missing input).
fn set_inputs<const N: usize>(
    s: &mut Session,
    slots: Option<[usize; N]>,
    names: [&str; N],
    values: [Value; N],
) -> Result<(), DurakError> {
    match slots {
        Some(slots) => {
            for (slot, v) in slots.into_iter().zip(values) {
                s.set_input_at(slot, v).map_err(run_error)?;
            }
        }
        None => {
            for (name, v) in names.into_iter().zip(values) {
                s.set_input(name, v).map_err(run_error)?;
            }
        }
    }
    Ok(())
}

/// The inputs of a decision query for a player's view: hand, trump, stock, hands (this player's
/// first, players still in the game only), role, table, room, transfer, and what the player has
/// seen: the discard pile (`out`), the cards known in opponents' hands (`known`), the trump card
/// under the stock, the defender's place, whether the game allows transfers, and the deck.
pub fn decision_inputs(view: &PlayerView, legal: &[Action]) -> Vec<(&'static str, Value)> {
    DECISION_INPUTS
        .into_iter()
        .chain(SEEN_INPUTS)
        .zip(decision_values(view, legal))
        .collect()
}

/// The values of `decision_inputs`, in its order.
fn decision_values(view: &PlayerView, legal: &[Action]) -> [Value; 14] {
    let n = view.hand_sizes.len();
    let places: Vec<usize> = (0..n)
        .map(|i| (view.me + i) % n)
        .filter(|&p| p == view.me || !view.out.get(p).copied().unwrap_or(false))
        .collect();
    let sizes: Vec<usize> = places.iter().filter_map(|&p| view.hand_sizes.get(p).copied()).collect();
    let known: Vec<String> = places
        .iter()
        .enumerate()
        .skip(1)
        .filter_map(|(i, &p)| {
            let k = view.known.get(p).copied().unwrap_or_default();
            (!k.is_empty()).then(|| format!("{}:{k}", i + 1))
        })
        .collect();
    let known = Value::str(&known.join("; "));
    let defender = places
        .iter()
        .position(|&p| p == view.defender)
        .map_or(0, |i| i as i64 + 1);
    let trump_card = if view.stock > 0 {
        CardSet::EMPTY.with(view.trump_card)
    } else {
        CardSet::EMPTY
    };
    let table: Vec<(Card, Option<Card>)> = view
        .table
        .iter()
        .map(|p| (to_card(p.attack), p.defence.map(to_card)))
        .collect();
    let role = match view.role {
        Role::Defender => "defend",
        Role::Leader | Role::Thrower => "attack",
    };
    let room = view.attack_limit.saturating_sub(view.table.len());
    let transfer = legal.iter().any(|a| matches!(a, Action::Transfer(_)));
    [
        cards_value(view.hand),
        suit_value(view.trump),
        Value::Int(view.stock as i64),
        sizes_value(&sizes),
        Value::fixed(role),
        super::plugin::table_value(&table),
        Value::Int(room as i64),
        Value::Bool(transfer),
        cards_value(view.discard_pile),
        known,
        cards_value(trump_card),
        Value::Int(defender),
        Value::Bool(view.options.transfer),
        Value::Int(view.options.deck.size() as i64),
    ]
}

/// Reads the rules' `play(ACTION, CARDS)` as an engine action.
pub fn action_of(kind: &str, cards: &Value, view: &PlayerView) -> Result<Action, DurakError> {
    let first = match cards {
        Value::Cards(c) => c.cards().first().copied().and_then(from_card),
        Value::List(items) => match items.first() {
            Some(Value::Card(c)) => from_card(*c),
            _ => None,
        },
        Value::Card(c) => from_card(*c),
        _ => None,
    };
    let need = || run_error(format!("the rules' play `{kind}` names no card"));
    Ok(match kind {
        "attack" | "throw in" => Action::Attack(first.ok_or_else(need)?),
        "pass" => Action::Pass,
        "take" => Action::Take,
        "transfer" => Action::Transfer(first.ok_or_else(need)?),
        "defend" => {
            let with = first.ok_or_else(need)?;
            Action::Defend {
                attack: super::game::target_of(&view.table, with, view.trump)
                    .ok_or_else(|| run_error("the rules defend with a card that beats no unbeaten attack card"))?,
                with,
            }
        }
        other => return Err(run_error(format!("the rules' play `{other}` is not an action"))),
    })
}

/// The rule AI as an arena player: each decision is one run of the rule set (one reused [`Session`];
/// the candidates' values come from what-if sub-queries of the same rules).
pub struct RulePlayer {
    session: Session,
    name: String,
    /// The input numbers of `DECISION_INPUTS` (see `input_slots`).
    slots: Option<[usize; 8]>,
    /// The input numbers of `SEEN_INPUTS`, for those the rule set declares.
    seen: [Option<usize>; 6],
    /// The relation `play`, looked up once.
    play: Option<RelId>,
}

impl RulePlayer {
    /// A player running `program` (a loaded durak rule set), named `name` in match reports.
    pub fn new(program: Arc<Program>, name: &str) -> RulePlayer {
        let mut session = Session::new(program);
        session.set_timed(false);
        session.set_goal(&["play"]);
        let slots = input_slots(&session, DECISION_INPUTS);
        let seen = SEEN_INPUTS.map(|n| session.input_index(n).ok());
        let play = session.program().relation("play");
        RulePlayer {
            session,
            name: name.to_string(),
            slots,
            seen,
            play,
        }
    }

    /// The session, e.g. to set parameters.
    pub fn session(&mut self) -> &mut Session {
        &mut self.session
    }

    /// Whether each decision keeps its firing records, so that `session()` can explain it (on by
    /// default). An arena seat turns them off: nobody asks it why, and `kibitzer ask durak` with
    /// the same position explains the same decision (runs are deterministic).
    pub fn keep_records(mut self, on: bool) -> RulePlayer {
        self.session.set_recording(on);
        self
    }

    /// The rules' decision for this view (not checked against `legal`).
    pub fn decide(&mut self, view: &PlayerView, legal: &[Action]) -> Result<Action, DurakError> {
        let s = &mut self.session;
        let [hand, trump, stock, hands, role, table, room, transfer, seen @ ..] = decision_values(view, legal);
        set_inputs(
            s,
            self.slots,
            DECISION_INPUTS,
            [hand, trump, stock, hands, role, table, room, transfer],
        )?;
        for (slot, v) in self.seen.iter().zip(seen) {
            if let Some(slot) = slot {
                s.set_input_at(*slot, v).map_err(run_error)?;
            }
        }
        let result = s.run().map_err(run_error)?;
        // A run its budget cut short decided nothing: say which budget, not "0 plays".
        if result.stop.is_budget() {
            return Err(run_error(format!("the rules stopped before deciding: {}", result.stop)));
        }
        // The one play, read where it lies (no copy of the facts, no name looked up).
        let mut plays = 0;
        let mut chosen = Err(run_error("the rules' play has no action name"));
        if let Some(rel) = self.play {
            s.for_each_fact(rel, |args| {
                plays += 1;
                if let (1, Some(Value::Str(kind))) = (plays, args.first()) {
                    chosen = action_of(kind, args.get(1).unwrap_or(&Value::Int(0)), view);
                }
            });
        }
        if plays != 1 {
            return Err(run_error(format!(
                "the rules gave {plays} plays for {}",
                super::cards::format_cards(&view.hand.to_vec())
            )));
        }
        chosen
    }
}

impl Player for RulePlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn act(&mut self, view: &PlayerView, legal: &[Action]) -> Result<Action, DurakError> {
        let a = self.decide(view, legal).map_err(|e| DurakError::PlayerFailed {
            seat: view.me,
            message: e.to_string(),
        })?;
        if legal.contains(&a) {
            Ok(a)
        } else {
            Err(DurakError::PlayerFailed {
                seat: view.me,
                message: format!("the rules chose `{a}`, which is not legal here"),
            })
        }
    }
}
