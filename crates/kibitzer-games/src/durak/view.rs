//! What one player may see when asked to act. A plain owned struct, so callers (the rule-driven
//! player, tests, the CLI's `ask`) can also build one by hand for a position that never occurred.

use super::cards::{Card, CardSet, Suit};
use super::game::{GameOptions, TablePair};
use smallvec::SmallVec;

/// The player's part in the current bout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Leads the next bout (the table is empty).
    Leader,
    /// An attacker during a bout: may throw in or pass.
    Thrower,
    /// The defender.
    Defender,
}

/// Public information plus the player's own hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerView {
    /// This player's seat.
    pub me: usize,
    /// The player's part in the current bout.
    pub role: Role,
    /// The player's own hand.
    pub hand: CardSet,
    /// The trump suit.
    pub trump: Suit,
    /// The turned-up card under the stock (known to all, even once drawn).
    pub trump_card: Card,
    /// Attack cards in the order played, each with its defence if beaten.
    pub table: SmallVec<[TablePair; 6]>,
    /// Cards left in the stock (R in the hand value of `docs/durak.md`).
    pub stock: usize,
    /// Every seat's hand size, by seat.
    pub hand_sizes: SmallVec<[usize; 6]>,
    /// Which seats have left the game.
    pub out: SmallVec<[bool; 6]>,
    /// Cards in the discard pile.
    pub discard: usize,
    /// The discard pile itself: beaten bouts are discarded face up, so every player saw them.
    pub discard_pile: CardSet,
    /// Per seat, the cards of that hand this player has seen enter it (a taken table, the
    /// turned-up trump drawn last) and not yet seen played; empty for this player's own seat.
    pub known: SmallVec<[CardSet; 6]>,
    /// The player who led this bout.
    pub leader: usize,
    /// The main attacker.
    pub attacker: usize,
    /// The defending seat.
    pub defender: usize,
    /// The defender has declared that he takes.
    pub defender_taking: bool,
    /// Attack cards this bout may reach.
    pub attack_limit: usize,
    /// The game's rule options.
    pub options: GameOptions,
}

impl PlayerView {
    /// Sum of every hand size (this player's included), the form the hand value needs.
    pub fn hand_sizes_total(&self) -> usize {
        self.hand_sizes.iter().fold(0usize, |acc, s| acc.saturating_add(*s))
    }

    /// Hand sizes with this player's first, then the others clockwise (the rules' `hands` input).
    pub fn hand_sizes_me_first(&self) -> Vec<usize> {
        let n = self.hand_sizes.len();
        (0..n)
            .filter_map(|i| self.hand_sizes.get((self.me + i) % n).copied())
            .collect()
    }

    /// Every card on the table.
    pub fn table_cards(&self) -> CardSet {
        let mut s = CardSet::EMPTY;
        for p in &self.table {
            s.insert(p.attack);
            if let Some(d) = p.defence {
                s.insert(d);
            }
        }
        s
    }

    /// The unbeaten attack card a defence answers first (`game::first_unbeaten`: in
    /// the table's canonical order, not the order played).
    pub fn first_unbeaten(&self) -> Option<Card> {
        super::game::first_unbeaten(&self.table)
    }
}
