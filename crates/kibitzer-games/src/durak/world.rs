//! What one player knows of a durak position, and the deals consistent with it.
//!
//! Places are numbered from this player (0) clockwise, as the rules' `hands` input lists them.
//! Known to the player: the own hand, the table, the discard pile (`out`: beaten bouts are
//! discarded face up), the cards each opponent was seen to pick up and has not played since
//! (`known`), every hand size, the stock size and the turned-up trump card at the bottom of the
//! stock. Every other card ("unseen") lies in an opponent's unknown slots, in the stock, or, when
//! the discard pile was not given in full, in the discard pile; a sampled deal spreads the unseen
//! cards uniformly over those places.

use super::cards::{Card, CardSet, Deck, Suit};
use super::error::DurakError;
use super::game::{Action, GameOptions, GameState, Position, TablePair, HAND_SIZE};
use super::view::{PlayerView, Role};
use rand::seq::SliceRandom;
use rand::Rng;
use smallvec::SmallVec;

/// A position as one player sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct World {
    /// The deck in play.
    pub deck: Deck,
    /// The trump suit.
    pub trump: Suit,
    /// This player's hand.
    pub hand: CardSet,
    /// Every hand size, this player's first, then clockwise.
    pub sizes: SmallVec<[usize; 6]>,
    /// Per place, the cards known to be in that hand (place 0: empty).
    pub known: SmallVec<[CardSet; 6]>,
    /// The discard pile as far as it is known.
    pub out: CardSet,
    /// The cards on the table: attack cards in the order played, each with its defence if beaten.
    pub table: SmallVec<[TablePair; 6]>,
    /// Cards left in the stock.
    pub stock: usize,
    /// The turned-up trump card while it lies at the bottom of the stock.
    pub trump_card: Option<Card>,
    /// This player defends (else attacks: leads or throws in).
    pub defending: bool,
    /// The defender's place.
    pub defender: usize,
    /// How many more attack cards this bout may take.
    pub room: usize,
    /// The game allows transfers.
    pub perevodnoy: bool,
}

fn bad(input: &str, message: String) -> DurakError {
    DurakError::BadInput {
        input: input.to_string(),
        message,
    }
}

impl World {
    /// The world of an arena seat's view: only what the view holds.
    pub fn of_view(view: &PlayerView) -> World {
        let n = view.hand_sizes.len();
        let places: SmallVec<[usize; 6]> = (0..n)
            .map(|i| (view.me + i) % n)
            .filter(|&p| p == view.me || !view.out.get(p).copied().unwrap_or(false))
            .collect();
        let place_of = |seat: usize| places.iter().position(|&p| p == seat).unwrap_or(0);
        World {
            deck: view.options.deck,
            trump: view.trump,
            hand: view.hand,
            sizes: places
                .iter()
                .map(|&p| view.hand_sizes.get(p).copied().unwrap_or(0))
                .collect(),
            known: places
                .iter()
                .map(|&p| {
                    if p == view.me {
                        CardSet::EMPTY
                    } else {
                        view.known.get(p).copied().unwrap_or_default()
                    }
                })
                .collect(),
            out: view.discard_pile,
            table: {
                let mut t = view.table.clone();
                t.sort_by_key(super::game::table_order);
                t
            },
            stock: view.stock,
            trump_card: (view.stock > 0).then_some(view.trump_card),
            defending: view.role == Role::Defender,
            defender: place_of(view.defender),
            room: view.attack_limit.saturating_sub(view.table.len()),
            perevodnoy: view.options.transfer,
        }
    }

    /// Number of places: the players still in the game, this player included.
    pub fn players(&self) -> usize {
        self.sizes.len()
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

    fn known_all(&self) -> CardSet {
        self.known.iter().fold(CardSet::EMPTY, |a, k| a.union(*k))
    }

    /// The cards this player has not seen: in unknown hand slots, the stock or the discard.
    pub fn unseen(&self) -> CardSet {
        let mut seen = self
            .hand
            .union(self.out)
            .union(self.table_cards())
            .union(self.known_all());
        if let Some(c) = self.trump_card {
            seen.insert(c);
        }
        CardSet(self.deck.set().bits() & !seen.bits())
    }

    /// Unknown places to fill: opponents' slots not known, and the stock above the trump card.
    pub fn slots(&self) -> usize {
        let hands: usize = (1..self.players())
            .map(|i| self.sizes[i].saturating_sub(self.known[i].len()))
            .sum();
        hands + self.stock - usize::from(self.trump_card.is_some() && self.stock > 0)
    }

    /// The opponent's whole hand when counting tells it: two players, the stock empty and every
    /// unseen card accounted for.
    pub fn opponent_by_counting(&self) -> Option<CardSet> {
        (self.players() == 2 && self.stock == 0 && self.unseen().len() == self.slots())
            .then(|| self.unseen().union(self.known[1]))
    }

    /// Checks what several inputs say together; each failure names the input to blame.
    pub fn check(&self) -> Result<(), DurakError> {
        let n = self.players();
        if !(2..=6).contains(&n) || self.known.len() != n {
            return Err(bad("hands", format!("{n} hand size(s): durak is played by 2 to 6")));
        }
        let mut seen = CardSet::EMPTY;
        let places: [(&str, CardSet); 3] = [("hand", self.hand), ("table", self.table_cards()), ("out", self.out)];
        for (input, set) in places
            .into_iter()
            .chain(self.known.iter().map(|k| ("known", *k)))
            .chain(self.trump_card.map(|c| ("trump_card", CardSet::EMPTY.with(c))))
        {
            if CardSet(set.bits() & !self.deck.set().bits()) != CardSet::EMPTY {
                return Err(bad(
                    input,
                    format!("{set}: not every card is in the {}-card deck", self.deck.size()),
                ));
            }
            let twice = set.intersection(seen);
            if let Some(c) = twice.iter().next() {
                return Err(bad(
                    input,
                    format!("{} is in `{input}` and in another place already", c.pretty()),
                ));
            }
            seen = seen.union(set);
        }
        if let Some(c) = self.trump_card {
            if c.suit() != self.trump {
                return Err(bad("trump_card", format!("{} is not of the trump suit", c.pretty())));
            }
        }
        for (i, k) in self.known.iter().enumerate().skip(1) {
            if k.len() > self.sizes[i] {
                return Err(bad(
                    "known",
                    format!(
                        "place {}: {} known cards in a hand of {}",
                        i + 1,
                        k.len(),
                        self.sizes[i]
                    ),
                ));
            }
        }
        if !self.known[0].is_empty() {
            return Err(bad("known", "place 1 is this player: the hand says it".to_string()));
        }
        if self.unseen().len() < self.slots() {
            return Err(bad(
                "out",
                format!(
                    "{} unseen card(s) cannot fill {} unknown place(s) (hands and stock)",
                    self.unseen().len(),
                    self.slots()
                ),
            ));
        }
        if self.defender >= n || (self.defending && self.defender != 0) || (!self.defending && self.defender == 0) {
            return Err(bad(
                "defender",
                format!("place {} cannot defend here", self.defender + 1),
            ));
        }
        Ok(())
    }

    /// The game options a search plays under (the 5-card limit until the first discard).
    pub fn options(&self) -> GameOptions {
        GameOptions {
            players: self.players(),
            deck: self.deck,
            transfer: self.perevodnoy,
            five_before_first_discard: true,
            max_actions: 4000,
        }
    }

    /// A full game state: the unseen cards dealt from `order` into the opponents' unknown slots,
    /// then the stock, the rest to the discard pile. `order` must hold exactly the unseen cards.
    pub fn state_from(&self, order: &[Card]) -> Result<GameState, DurakError> {
        let n = self.players();
        let mut rest = order.iter().copied();
        let mut hands = vec![self.hand];
        for i in 1..n {
            let mut h = self.known[i];
            for _ in 0..self.sizes[i].saturating_sub(self.known[i].len()) {
                h.insert(
                    rest.next()
                        .ok_or_else(|| bad("out", "too few unseen cards".to_string()))?,
                );
            }
            hands.push(h);
        }
        let mut stock: Vec<Card> = Vec::with_capacity(self.stock);
        if self.stock > 0 {
            if let Some(c) = self.trump_card {
                stock.push(c);
            }
            while stock.len() < self.stock {
                stock.push(
                    rest.next()
                        .ok_or_else(|| bad("out", "too few unseen cards".to_string()))?,
                );
            }
        }
        let mut discard = self.out;
        for c in rest {
            discard.insert(c);
        }
        let defender = self.defender;
        let attacker = if self.defending {
            n - 1
        } else if self.table.is_empty() {
            0
        } else {
            (defender + n - 1) % n
        };
        let defences = self.table.iter().filter(|p| p.defence.is_some()).count();
        let start = (self.table.len() + self.room)
            .min(hands[defender].len() + defences)
            .max(self.table.len());
        let trump_card = self
            .trump_card
            .or_else(|| self.deck.set().iter().find(|c| c.suit() == self.trump))
            .unwrap_or(Card::ACE_OF_SPADES);
        let public = (0..n).map(|i| self.known[i]).collect();
        let position = Position {
            hands,
            stock,
            trump_card,
            discard,
            table: self.table.to_vec(),
            leader: attacker,
            attacker,
            defender,
            defender_start: start.min(HAND_SIZE),
            taking: !self.defending && self.table.iter().any(|p| p.defence.is_none()),
            to_throw: if self.defending { attacker } else { 0 },
            public,
        };
        let mut state = GameState::from_position(&self.options(), &position)?;
        state.allow_actions(self.options().max_actions);
        Ok(state)
    }

    /// One deal consistent with what the player knows, drawn uniformly.
    pub fn deal(&self, rng: &mut impl Rng, buf: &mut Vec<Card>) -> Result<GameState, DurakError> {
        buf.clear();
        buf.extend(self.unseen().iter());
        buf.shuffle(rng);
        self.state_from(buf)
    }

    /// The plays this player chooses among: the legal actions, each card's defence against the
    /// unbeaten attack card it answers (`game::target_of`: which card to beat is part
    /// of the decision, one defence per card of the hand), and those only when every unbeaten
    /// card can be beaten. Empty when the position does not ask this player (nothing to throw
    /// in, say).
    pub fn candidates(&self, state: &GameState) -> Vec<Action> {
        if state.to_act() != Some(0) {
            return Vec::new();
        }
        let unbeaten: SmallVec<[Card; 6]> = self
            .table
            .iter()
            .filter(|p| p.defence.is_none())
            .map(|p| p.attack)
            .collect();
        // A defence that must fail is never better than taking at once.
        let can_defend = super::policy::can_beat_all(self.hand, &unbeaten, self.trump);
        super::game::legal_actions(state)
            .into_iter()
            .filter(|a| match a {
                Action::Defend { attack, with } => {
                    can_defend && super::game::target_of(&self.table, *with, self.trump) == Some(*attack)
                }
                _ => true,
            })
            .collect()
    }
}
