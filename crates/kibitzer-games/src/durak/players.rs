//! Players: the trait a seat implements, and the three native players.

use super::error::DurakError;
use super::game::Action;
use super::policy::{decide_action, ReferencePolicy};
use super::view::PlayerView;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A seat at the table. `legal` is never empty when the engine asks; returning an action not in
/// `legal` is a misplay that the arena reports as an error.
pub trait Player {
    /// A short name for reports ("random", "lowest", "reference").
    fn name(&self) -> String;
    /// Chooses one of `legal` for the position `view` shows; an error when it cannot choose.
    fn act(&mut self, view: &PlayerView, legal: &[Action]) -> Result<Action, DurakError>;
}

fn no_action(view: &PlayerView) -> DurakError {
    DurakError::PlayerFailed {
        seat: view.me,
        message: "asked to act with no legal action".to_string(),
    }
}

/// Uniform over the legal actions, from its own seeded ChaCha8 stream.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: ChaCha8Rng,
}

impl RandomPlayer {
    /// A random player whose choices are fixed by `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn act(&mut self, view: &PlayerView, legal: &[Action]) -> Result<Action, DurakError> {
        if legal.is_empty() {
            return Err(no_action(view));
        }
        let i = self.rng.random_range(0..legal.len());
        legal.get(i).copied().ok_or_else(|| no_action(view))
    }
}

/// The "lowest card" heuristic: leads its lowest card (non-trumps before trumps, then rank);
/// throws in its lowest non-trump of a rank on the table whenever it has one (never a trump);
/// defends the first unbeaten attack card with its lowest beating card and takes when it cannot
/// beat it; never transfers.
#[derive(Clone, Debug, Default)]
pub struct LowestPlayer;

impl Player for LowestPlayer {
    fn name(&self) -> String {
        "lowest".to_string()
    }

    fn act(&mut self, view: &PlayerView, legal: &[Action]) -> Result<Action, DurakError> {
        let trump = view.trump;
        let defending = legal.iter().any(|a| matches!(a, Action::Take | Action::Defend { .. }));
        let chosen = if defending {
            let target = view.first_unbeaten();
            legal
                .iter()
                .filter_map(|a| match *a {
                    Action::Defend { attack, with } if Some(attack) == target => Some((with, *a)),
                    _ => None,
                })
                .min_by_key(|(with, _)| with.low_key(trump))
                .map(|(_, a)| a)
                .or_else(|| legal.iter().copied().find(|a| *a == Action::Take))
        } else {
            let leading = view.table.is_empty();
            legal
                .iter()
                .filter_map(|a| match *a {
                    Action::Attack(c) if leading || c.suit() != trump => Some((c, *a)),
                    _ => None,
                })
                .min_by_key(|(c, _)| c.low_key(trump))
                .map(|(_, a)| a)
                .or_else(|| legal.iter().copied().find(|a| *a == Action::Pass))
        };
        chosen.or_else(|| legal.first().copied()).ok_or_else(|| no_action(view))
    }
}

/// The reference policy ([`super::decide`]) as a player.
#[derive(Clone, Debug, Default)]
pub struct ReferencePlayer {
    policy: ReferencePolicy,
}

impl ReferencePlayer {
    /// A player that decides by `policy`.
    pub fn new(policy: ReferencePolicy) -> ReferencePlayer {
        ReferencePlayer { policy }
    }
}

impl Player for ReferencePlayer {
    fn name(&self) -> String {
        "reference".to_string()
    }

    fn act(&mut self, view: &PlayerView, legal: &[Action]) -> Result<Action, DurakError> {
        if legal.is_empty() {
            return Err(no_action(view));
        }
        Ok(decide_action(view, legal, &self.policy))
    }
}
