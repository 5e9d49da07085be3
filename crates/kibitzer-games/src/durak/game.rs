//! The game of podkidnoy ("throw-in") Durak of `docs/durak.md`, with the transfer (perevodnoy) option:
//! the state, the legal moves and their effect.
//!
//! Turn protocol (the common rules are silent on simultaneity; play is strictly sequential):
//! * With the table empty the attacker leads one card.
//! * While an attack card is unbeaten and the defender has not said "take", the defender acts:
//!   beat any unbeaten card, take, or (option) transfer.
//! * Otherwise the attackers — every other player still in the game, in clockwise order from the
//!   bout's leader — may throw in one card of a rank on the table, or pass. A pass holds until the
//!   defender acts again (a beat can bring a new rank to the table).
//! * A player whose only legal action would be "pass" (no card of a table rank, or the limit
//!   reached) is skipped, and a defender who can neither beat nor transfer takes automatically:
//!   the engine never asks a question with one possible answer.
//! * When nobody can or will throw in, the bout ends: beaten → discard, the defender attacks next;
//!   taken → the defender picks up the table, the next player after him attacks. Refill to six
//!   from the stock in the order leader, the other attackers clockwise, the defender last. With
//!   the stock empty, players without cards leave; one left → the durak, none → a draw.
//!
//! Every misplay is rejected by [`apply`] with the state untouched.

use super::cards::{Card, CardSet, Deck, Suit};
use super::error::DurakError;
use super::view::{PlayerView, Role};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use smallvec::SmallVec;
use std::fmt;

/// Cards each player is dealt and refilled to.
pub const HAND_SIZE: usize = 6;

/// The rule options of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameOptions {
    /// 2..=6.
    pub players: usize,
    /// The deck the game is dealt from.
    pub deck: Deck,
    /// Perevodnoy: a defender may pass the attack on with a card of the attacked rank.
    pub transfer: bool,
    /// At most 5 attack cards in a bout until the first discard exists (`docs/durak.md` states it as
    /// the rule, so it is on by default).
    pub five_before_first_discard: bool,
    /// Budget: a game still running after this many actions ends as `Outcome::Aborted`.
    pub max_actions: u64,
}

impl Default for GameOptions {
    fn default() -> Self {
        GameOptions {
            players: 2,
            deck: Deck::Cards36,
            transfer: false,
            five_before_first_discard: true,
            max_actions: 20_000,
        }
    }
}

/// One move. `Attack` is both the lead and a throw-in; `Pass` ends one attacker's throwing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Plays a card to the table: the lead, or a throw-in.
    Attack(Card),
    /// An attacker stops throwing in (until the defender acts again).
    Pass,
    /// The defender beats the unbeaten attack card `attack` with `with`.
    Defend {
        /// The unbeaten attack card being beaten.
        attack: Card,
        /// The defender's card that beats it.
        with: Card,
    },
    /// The defender picks up every card on the table.
    Take,
    /// The defender passes the attack on to the next player with a card of the attacked rank (perevodnoy).
    Transfer(Card),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Attack(c) => write!(f, "attack {c}"),
            Action::Pass => write!(f, "pass"),
            Action::Defend { attack, with } => write!(f, "defend {attack} with {with}"),
            Action::Take => write!(f, "take"),
            Action::Transfer(c) => write!(f, "transfer {c}"),
        }
    }
}

/// One attack card and the card that beat it, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TablePair {
    /// The attack card.
    pub attack: Card,
    /// The card that beat it; `None` while it is unbeaten.
    pub defence: Option<Card>,
}

/// The canonical order of the cards on the table: by attack card, rank then suit (♠ ♥ ♦ ♣). The
/// order attack cards were played in changes nothing of the game, so a position is searched and
/// answered in this order whatever order it was typed in.
pub fn table_order(p: &TablePair) -> (u8, usize) {
    (p.attack.rank(), p.attack.suit().index())
}

/// The unbeaten attack card a defence answers first: the first in [`table_order`].
pub fn first_unbeaten(table: &[TablePair]) -> Option<Card> {
    table
        .iter()
        .filter(|p| p.defence.is_none())
        .min_by_key(|p| table_order(p))
        .map(|p| p.attack)
}

/// The unbeaten attack card a defence with `with` answers: the first in [`table_order`] that
/// `with` beats (a defence names its card; the card it beats follows from it).
pub fn target_of(table: &[TablePair], with: Card, trump: Suit) -> Option<Card> {
    table
        .iter()
        .filter(|p| p.defence.is_none() && with.beats(p.attack, trump))
        .min_by_key(|p| table_order(p))
        .map(|p| p.attack)
}

/// A position in the middle of a game as [`GameState::from_position`] takes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Every hand, by seat.
    pub hands: Vec<CardSet>,
    /// Bottom first (the next card drawn is the last).
    pub stock: Vec<Card>,
    /// The turned-up card that fixes the trump suit (drawn last).
    pub trump_card: Card,
    /// The discard pile: every card of the beaten bouts.
    pub discard: CardSet,
    /// The current bout's cards: each attack card with its defence, in the order played.
    pub table: Vec<TablePair>,
    /// The seat that led this bout.
    pub leader: usize,
    /// The main attacker's seat (the leader, or after a transfer the seat that transferred).
    pub attacker: usize,
    /// The defending seat.
    pub defender: usize,
    /// The defender's hand size when the bout began (the throw-in limit).
    pub defender_start: usize,
    /// The defender has declared that he takes.
    pub taking: bool,
    /// The attacker asked to throw in (those ahead of him count as having passed).
    pub to_throw: usize,
    /// Per seat, the cards the others know to be in that hand.
    pub public: Vec<CardSet>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This player was left holding cards: the fool.
    Durak(usize),
    /// Everyone went out together.
    Draw,
    /// The action budget ran out (see [`GameOptions::max_actions`]).
    Aborted,
}

/// The full state of a game (the referee's view: every hand is visible here; players get a
/// [`PlayerView`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameState {
    options: GameOptions,
    hands: SmallVec<[CardSet; 6]>,
    /// Bottom first: `pop` draws the top; the trump card is `stock[0]` until drawn.
    stock: Vec<Card>,
    trump_card: Card,
    discard: CardSet,
    out: u8,
    table: SmallVec<[TablePair; 6]>,
    /// The table's cards as a set, kept in step with `table`.
    table_set: CardSet,
    leader: usize,
    attacker: usize,
    defender: usize,
    defender_start: usize,
    taking: bool,
    passed: u8,
    discard_happened: bool,
    to_act: Option<usize>,
    outcome: Option<Outcome>,
    actions: u64,
    /// Per player, the cards everyone saw enter that hand (a taken table, the turned-up trump
    /// drawn last) and not yet played: what the other players know of it.
    public: SmallVec<[CardSet; 6]>,
}

fn illegal(player: usize, action: Action, reason: impl Into<String>) -> DurakError {
    DurakError::IllegalAction {
        player,
        action: action.to_string(),
        reason: reason.into(),
    }
}

impl GameState {
    /// A new game dealt from a deck shuffled by ChaCha8 with `seed`.
    pub fn new(options: &GameOptions, seed: u64) -> Result<GameState, DurakError> {
        check_table_size(options)?;
        let mut deck = [FALLBACK_CARD; 52];
        let mut len = 0;
        for c in options.deck.set().iter() {
            deck[len] = c;
            len += 1;
        }
        let order = &mut deck[..len];
        order.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
        Ok(GameState::deal(options, order))
    }

    /// A new game from a prescribed deck order: cards are dealt one at a time round the table
    /// from `order[0]`; the rest is the stock, whose last card (`order`'s last) lies turned up at
    /// the bottom and fixes the trump. If the deal uses the whole deck, the last card dealt fixes
    /// the trump and stays in its owner's hand.
    pub fn with_deck_order(options: &GameOptions, order: &[Card]) -> Result<GameState, DurakError> {
        check_table_size(options)?;
        let deck = options.deck;
        let mut seen = CardSet::EMPTY;
        for &c in order {
            if !deck.contains(c) {
                return Err(DurakError::CardNotInDeck {
                    card: c.to_string(),
                    deck: deck.size(),
                });
            }
            if seen.contains(c) {
                return Err(DurakError::DuplicateCard(c.to_string()));
            }
            seen.insert(c);
        }
        if order.len() != deck.size() {
            return Err(DurakError::BadDeckOrder(format!(
                "{} cards given, the deck has {}",
                order.len(),
                deck.size()
            )));
        }
        Ok(GameState::deal(options, order))
    }

    /// Deals a checked order (see [`GameState::with_deck_order`]).
    fn deal(options: &GameOptions, order: &[Card]) -> GameState {
        let n = options.players;
        let trump_card = order.last().copied().unwrap_or(FALLBACK_CARD);
        let mut hands: SmallVec<[CardSet; 6]> = SmallVec::from_elem(CardSet::EMPTY, n);
        let dealt = (n * HAND_SIZE).min(order.len());
        for (i, &c) in order[..dealt].iter().enumerate() {
            hands[i % n].insert(c);
        }
        let mut stock: Vec<Card> = Vec::with_capacity(order.len() - dealt);
        stock.extend(order[dealt..].iter().rev());
        let trump = trump_card.suit();
        let first = first_attacker(&hands, trump);
        let defender = (first + 1) % n;
        let mut state = GameState {
            options: *options,
            defender_start: hands[defender].len(),
            hands,
            stock,
            trump_card,
            discard: CardSet::EMPTY,
            out: 0,
            table: SmallVec::new(),
            table_set: CardSet::EMPTY,
            leader: first,
            attacker: first,
            defender,
            taking: false,
            passed: 0,
            discard_happened: false,
            to_act: None,
            outcome: None,
            actions: 0,
            public: SmallVec::from_elem(CardSet::EMPTY, n),
        };
        state.settle();
        state
    }

    /// A position in the middle of a game, for searches: every hand, the stock (bottom first,
    /// the trump card at the bottom while it is in the stock), the discard pile, the table and
    /// the bout's roles. Attackers ahead of `to_throw` in throw-in order count as having passed,
    /// so that a throw-in position asks `to_throw`. Checked: every card once, in the deck.
    pub fn from_position(options: &GameOptions, position: &Position) -> Result<GameState, DurakError> {
        check_table_size(options)?;
        let n = options.players;
        let mut seen = CardSet::EMPTY;
        let tabled = position
            .table
            .iter()
            .flat_map(|p| std::iter::once(p.attack).chain(p.defence));
        let every = position
            .hands
            .iter()
            .flat_map(|h| h.iter())
            .chain(position.stock.iter().copied())
            .chain(position.discard.iter())
            .chain(tabled);
        for c in every {
            if !options.deck.contains(c) {
                return Err(DurakError::CardNotInDeck {
                    card: c.to_string(),
                    deck: options.deck.size(),
                });
            }
            if seen.contains(c) {
                return Err(DurakError::DuplicateCard(c.to_string()));
            }
            seen.insert(c);
        }
        let roles_ok = position.hands.len() == n
            && position.public.len() == n
            && position.table.len() <= 6
            && [position.leader, position.attacker, position.defender, position.to_throw]
                .iter()
                .all(|&p| p < n)
            && position.defender != position.attacker;
        if !roles_ok {
            return Err(DurakError::BadDeckOrder(
                "a position needs one hand per player and seats in range".to_string(),
            ));
        }
        let mut state = GameState {
            options: *options,
            hands: position.hands.iter().copied().collect(),
            stock: position.stock.clone(),
            trump_card: position.trump_card,
            discard: position.discard,
            out: 0,
            table: position.table.iter().copied().collect(),
            table_set: CardSet::EMPTY,
            leader: position.leader,
            attacker: position.attacker,
            defender: position.defender,
            defender_start: position.defender_start,
            taking: position.taking,
            passed: 0,
            discard_happened: !position.discard.is_empty(),
            to_act: None,
            outcome: None,
            actions: 0,
            public: position.public.iter().copied().collect(),
        };
        for pair in &position.table {
            state.table_set.insert(pair.attack);
            if let Some(d) = pair.defence {
                state.table_set.insert(d);
            }
        }
        if state.table.is_empty() {
            state.leader = state.attacker;
        }
        let ahead: SmallVec<[usize; 6]> = state
            .attackers_in_order()
            .take_while(|&q| q != position.to_throw)
            .collect();
        for q in ahead {
            state.passed |= 1 << q;
        }
        state.settle();
        Ok(state)
    }

    /// The rule options the game was started with.
    pub fn options(&self) -> &GameOptions {
        &self.options
    }

    /// Number of players dealt in (those who have left included).
    pub fn players(&self) -> usize {
        self.hands.len()
    }

    /// A player's hand (the referee sees everything).
    pub fn hand(&self, player: usize) -> CardSet {
        self.hands.get(player).copied().unwrap_or_default()
    }

    /// Every player's hand size, by seat.
    pub fn hand_sizes(&self) -> SmallVec<[usize; 6]> {
        self.hands.iter().map(|h| h.len()).collect()
    }

    /// The trump suit.
    pub fn trump(&self) -> Suit {
        self.trump_card.suit()
    }

    /// The card that fixed the trump (drawn last).
    pub fn trump_card(&self) -> Card {
        self.trump_card
    }

    /// The stock, bottom first (the next card drawn is the last element).
    pub fn stock(&self) -> &[Card] {
        &self.stock
    }

    /// The discard pile: every card of the beaten bouts.
    pub fn discard(&self) -> CardSet {
        self.discard
    }

    /// The current bout: each attack card with its defence, in the order played.
    pub fn table(&self) -> &[TablePair] {
        &self.table
    }

    /// Every card on the table, attacks and defences.
    pub fn table_cards(&self) -> CardSet {
        self.table_set
    }

    /// The player who led this bout (refill order starts here).
    pub fn leader(&self) -> usize {
        self.leader
    }

    /// The main attacker (the leader, or after a transfer the player who transferred).
    pub fn attacker(&self) -> usize {
        self.attacker
    }

    /// The defending seat in this bout.
    pub fn defender(&self) -> usize {
        self.defender
    }

    /// Has the defender declared that he takes?
    pub fn taking(&self) -> bool {
        self.taking
    }

    /// Has any bout been beaten yet (the five-card limit ends then)?
    pub fn discard_happened(&self) -> bool {
        self.discard_happened
    }

    /// Players who have left the game (stock empty and no cards).
    pub fn is_out(&self, player: usize) -> bool {
        player < 8 && self.out >> player & 1 == 1
    }

    /// Whose move it is; `None` once the game is over.
    pub fn to_act(&self) -> Option<usize> {
        self.to_act
    }

    /// How the game ended; `None` while it is running.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The cards of `player`'s hand that every player has seen enter it and not leave it.
    pub fn public_cards(&self, player: usize) -> CardSet {
        self.public.get(player).copied().unwrap_or_default()
    }

    /// Raises the action budget to `more` actions from now (a search's copy of a real game).
    pub fn allow_actions(&mut self, more: u64) {
        self.options.max_actions = self.actions.saturating_add(more);
    }

    /// A hash of everything the rest of the game depends on (not the action count, nor which
    /// defence lies on which attack card): positions a search reaches twice by different orders.
    pub fn search_key(&self) -> u64 {
        let mut h = 0x243f_6a88_85a3_08d3u64;
        let mut mix = |x: u64| {
            h = (h ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            h ^= h >> 29;
        };
        for hand in &self.hands {
            mix(hand.bits());
        }
        mix(self.table_set.bits());
        let unbeaten = self
            .table
            .iter()
            .filter(|p| p.defence.is_none())
            .fold(0u64, |m, p| m | 1 << p.attack.index());
        mix(unbeaten);
        mix(self.stock.len() as u64);
        let seats = [self.leader, self.attacker, self.defender, self.to_act.unwrap_or(7)];
        let roles = seats.iter().fold(0u64, |m, &p| m << 3 | (p as u64 & 7));
        mix(roles
            | (self.defender_start as u64) << 12
            | u64::from(self.taking) << 20
            | u64::from(self.passed) << 21
            | u64::from(self.out) << 29
            | u64::from(self.discard_happened) << 37);
        h
    }

    /// The same game with every card `player` has not seen dealt anew among the places it could
    /// be (opponents' hands outside their public cards, the stock above the turned-up trump):
    /// what the leak test compares `player`'s view against.
    #[cfg(test)]
    pub(crate) fn with_unseen_reshuffled(&self, player: usize, rng: &mut impl rand::Rng) -> GameState {
        let mut copy = self.clone();
        let mut pool: Vec<Card> = Vec::new();
        for q in (0..self.players()).filter(|&q| q != player) {
            let hidden = CardSet(self.hands[q].bits() & !self.public[q].bits());
            pool.extend(hidden.iter());
            copy.hands[q] = self.public[q];
        }
        let keep_bottom = usize::from(!self.stock.is_empty());
        pool.extend(self.stock.iter().skip(keep_bottom));
        pool.shuffle(rng);
        let mut rest = pool.into_iter();
        for q in (0..self.players()).filter(|&q| q != player) {
            let missing = self.hands[q].len() - copy.hands[q].len();
            for c in rest.by_ref().take(missing) {
                copy.hands[q].insert(c);
            }
        }
        copy.stock.truncate(keep_bottom);
        copy.stock.extend(rest);
        copy
    }

    /// Actions applied so far.
    pub fn actions(&self) -> u64 {
        self.actions
    }

    /// Maximum attack cards this bout: 6 (5 before the first discard, if that option is on), and
    /// never more than the defender held when the bout (or the last transfer) began.
    pub fn attack_limit(&self) -> usize {
        self.max_attacks().min(self.defender_start)
    }

    fn max_attacks(&self) -> usize {
        if self.options.five_before_first_discard && !self.discard_happened {
            5
        } else {
            6
        }
    }

    fn table_ranks(&self) -> u64 {
        self.table_cards().rank_mask()
    }

    fn has_unbeaten(&self) -> bool {
        self.table.iter().any(|p| p.defence.is_none())
    }

    fn next_in_game_after(&self, p: usize) -> usize {
        let n = self.players();
        for step in 1..=n {
            let q = (p + step) % n;
            if !self.is_out(q) {
                return q;
            }
        }
        p
    }

    /// The attackers in throw-in priority: clockwise from the leader, without the defender and
    /// the players who have left.
    fn attackers_in_order(&self) -> impl Iterator<Item = usize> + '_ {
        let n = self.players();
        (0..n)
            .map(move |i| (self.leader + i) % n)
            .filter(move |&q| q != self.defender && !self.is_out(q))
    }

    fn can_throw(&self, p: usize) -> bool {
        self.table.len() < self.attack_limit() && self.hand(p).rank_mask() & self.table_ranks() != 0
    }

    /// The player a transfer would pass the attack to, if a transfer with some card is possible
    /// at all (option on, nothing beaten yet, the receiver can hold the extra card).
    fn transfer_target(&self) -> Option<usize> {
        if !self.options.transfer || self.taking || self.table.is_empty() {
            return None;
        }
        if self.table.iter().any(|p| p.defence.is_some()) {
            return None;
        }
        let target = self.next_in_game_after(self.defender);
        let after = self.table.len() + 1;
        (target != self.defender && after <= self.max_attacks() && self.hand(target).len() >= after).then_some(target)
    }

    fn transfer_rank(&self) -> Option<u8> {
        self.table.first().map(|p| p.attack.rank())
    }

    fn defender_can_beat_something(&self) -> bool {
        let hand = self.hand(self.defender);
        let trump = self.trump();
        self.table
            .iter()
            .filter(|p| p.defence.is_none())
            .any(|p| p.attack.beaten_by(trump).intersects(hand))
    }

    fn defender_can_transfer(&self) -> bool {
        match (self.transfer_target(), self.transfer_rank()) {
            (Some(_), Some(rank)) => self.hand(self.defender).count_rank(rank) > 0,
            _ => false,
        }
    }

    /// Moves the game on to the next real decision, resolving forced moves and bout ends.
    fn settle(&mut self) {
        loop {
            if self.outcome.is_some() {
                self.to_act = None;
                return;
            }
            if self.table.is_empty() {
                self.to_act = Some(self.attacker);
                return;
            }
            if !self.taking && self.has_unbeaten() {
                if self.defender_can_beat_something() || self.defender_can_transfer() {
                    self.to_act = Some(self.defender);
                    return;
                }
                self.taking = true;
                self.passed = 0;
                continue;
            }
            let passed = self.passed;
            let next = self
                .attackers_in_order()
                .find(|&q| passed >> q & 1 == 0 && self.can_throw(q));
            if let Some(q) = next {
                self.to_act = Some(q);
                return;
            }
            self.end_bout();
        }
    }

    fn end_bout(&mut self) {
        let table = self.table_cards();
        let taken = self.taking;
        if taken {
            self.hands[self.defender] = self.hands[self.defender].union(table);
            self.public[self.defender] = self.public[self.defender].union(table);
        } else {
            self.discard = self.discard.union(table);
            self.discard_happened = true;
        }
        self.table.clear();
        self.table_set = CardSet::EMPTY;
        // Refill: the leader and the other attackers clockwise, the defender last.
        let order: SmallVec<[usize; 6]> = self.attackers_in_order().collect();
        for p in order.into_iter().chain(std::iter::once(self.defender)) {
            let missing = HAND_SIZE.saturating_sub(self.hands[p].len());
            for _ in 0..missing {
                match self.stock.pop() {
                    Some(c) => {
                        self.hands[p].insert(c);
                        // The turned-up card is drawn last, in sight of everyone.
                        if self.stock.is_empty() && c == self.trump_card {
                            self.public[p].insert(c);
                        }
                    }
                    None => break,
                }
            }
        }
        if self.stock.is_empty() {
            for p in 0..self.players() {
                if self.hands[p].is_empty() {
                    self.out |= 1 << p;
                }
            }
        }
        let mut left = (0..self.players()).filter(|&p| !self.is_out(p));
        let (first, second) = (left.next(), left.next());
        match (first, second) {
            (None, _) => {
                self.outcome = Some(Outcome::Draw);
                return;
            }
            (Some(p), None) => {
                self.outcome = Some(Outcome::Durak(p));
                return;
            }
            _ => {}
        }
        self.attacker = if !taken && !self.is_out(self.defender) {
            self.defender
        } else {
            self.next_in_game_after(self.defender)
        };
        self.leader = self.attacker;
        self.defender = self.next_in_game_after(self.attacker);
        self.defender_start = self.hands[self.defender].len();
        self.taking = false;
        self.passed = 0;
    }

    /// What `player` may see: own hand, the table, sizes, counts — never another hand.
    pub fn view(&self, player: usize) -> PlayerView {
        let role = if player == self.defender {
            Role::Defender
        } else if self.table.is_empty() && player == self.attacker {
            Role::Leader
        } else {
            Role::Thrower
        };
        PlayerView {
            me: player,
            role,
            hand: self.hand(player),
            trump: self.trump(),
            trump_card: self.trump_card,
            table: self.table.clone(),
            stock: self.stock.len(),
            hand_sizes: self.hand_sizes(),
            out: (0..self.players()).map(|p| self.is_out(p)).collect(),
            discard: self.discard.len(),
            discard_pile: self.discard,
            known: (0..self.players())
                .map(|q| {
                    if q == player {
                        CardSet::EMPTY
                    } else {
                        self.public_cards(q)
                    }
                })
                .collect(),
            leader: self.leader,
            attacker: self.attacker,
            defender: self.defender,
            defender_taking: self.taking,
            attack_limit: self.attack_limit(),
            options: self.options,
        }
    }
}

/// Never used: stands in where a card is needed before real ones are placed (all decks are
/// non-empty, so the real deal always overwrites it).
const FALLBACK_CARD: Card = Card::ACE_OF_SPADES;

/// 2..=6 players, and enough cards to deal six to each.
fn check_table_size(options: &GameOptions) -> Result<(), DurakError> {
    let n = options.players;
    if !(2..=6).contains(&n) {
        return Err(DurakError::BadPlayerCount(n));
    }
    let size = options.deck.size();
    if n * HAND_SIZE > size {
        return Err(DurakError::DeckTooSmall {
            players: n,
            needed: n * HAND_SIZE,
            deck: size,
        });
    }
    Ok(())
}

/// First attacker: the holder of the lowest trump; if nobody holds a trump, the holder of the
/// lowest card (rank, then suit ♠ ♥ ♦ ♣).
fn first_attacker(hands: &[CardSet], trump: Suit) -> usize {
    let lowest = |pick: &dyn Fn(CardSet) -> Option<Card>| {
        hands
            .iter()
            .enumerate()
            .filter_map(|(p, h)| pick(*h).map(|c| (c, p)))
            .min()
            .map(|(_, p)| p)
    };
    lowest(&|h: CardSet| h.iter().filter(|c| c.suit() == trump).min())
        .or_else(|| lowest(&|h: CardSet| h.iter().min()))
        .unwrap_or(0)
}

/// Every legal action of the player to act, in a fixed order (cards by ascending index).
pub fn legal_actions(state: &GameState) -> Vec<Action> {
    let mut out = Vec::new();
    legal_actions_into(state, &mut out);
    out
}

/// [`legal_actions`] into a reused buffer (cleared first).
pub fn legal_actions_into(state: &GameState, out: &mut Vec<Action>) {
    out.clear();
    let Some(p) = state.to_act else {
        return;
    };
    let hand = state.hand(p);
    if state.table.is_empty() {
        out.extend(hand.iter().map(Action::Attack));
        return;
    }
    if p == state.defender && !state.taking {
        let trump = state.trump();
        for pair in state.table.iter().filter(|t| t.defence.is_none()) {
            for c in hand.intersection(pair.attack.beaten_by(trump)).iter() {
                out.push(Action::Defend {
                    attack: pair.attack,
                    with: c,
                });
            }
        }
        if state.transfer_target().is_some() {
            if let Some(rank) = state.transfer_rank() {
                out.extend(hand.iter().filter(|c| c.rank() == rank).map(Action::Transfer));
            }
        }
        out.push(Action::Take);
        return;
    }
    if state.table.len() < state.attack_limit() {
        let ranks = state.table_ranks();
        out.extend(
            hand.iter()
                .filter(|c| ranks >> (c.rank() - 2) & 1 == 1)
                .map(Action::Attack),
        );
    }
    out.push(Action::Pass);
}

/// Plays `action` for `player`. A misplay is an error naming the action and why; the state is
/// then unchanged.
pub fn apply(state: &mut GameState, player: usize, action: Action) -> Result<(), DurakError> {
    if state.outcome.is_some() {
        return Err(DurakError::GameOver);
    }
    let expected = state.to_act.unwrap_or(usize::MAX);
    if player != expected {
        return Err(DurakError::NotYourTurn { player, expected });
    }
    check(state, player, action)?;
    let p = player;
    if let Action::Attack(c) | Action::Transfer(c) | Action::Defend { with: c, .. } = action {
        state.public[p].remove(c);
    }
    match action {
        Action::Attack(c) => {
            state.hands[p].remove(c);
            state.table_set.insert(c);
            state.table.push(TablePair {
                attack: c,
                defence: None,
            });
        }
        Action::Pass => state.passed |= 1 << p,
        Action::Defend { attack, with } => {
            state.hands[p].remove(with);
            state.table_set.insert(with);
            if let Some(pair) = state
                .table
                .iter_mut()
                .find(|t| t.attack == attack && t.defence.is_none())
            {
                pair.defence = Some(with);
            }
            state.passed = 0;
        }
        Action::Take => {
            state.taking = true;
            state.passed = 0;
        }
        Action::Transfer(c) => {
            let target = state.transfer_target().unwrap_or(p);
            state.hands[p].remove(c);
            state.table_set.insert(c);
            state.table.push(TablePair {
                attack: c,
                defence: None,
            });
            state.attacker = p;
            state.defender = target;
            state.defender_start = state.hands[target].len();
            state.passed = 0;
        }
    }
    state.actions += 1;
    if state.actions >= state.options.max_actions {
        state.outcome = Some(Outcome::Aborted);
    }
    state.settle();
    Ok(())
}

/// Validates `action` for the player to act, without changing anything.
fn check(state: &GameState, p: usize, action: Action) -> Result<(), DurakError> {
    let hand = state.hand(p);
    let not_held = |c: Card| illegal(p, action, format!("{c} is not in your hand"));
    let is_defender = p == state.defender && !state.table.is_empty() && !state.taking;
    match action {
        Action::Attack(c) => {
            if !hand.contains(c) {
                return Err(not_held(c));
            }
            if state.table.is_empty() {
                return Ok(());
            }
            if is_defender {
                return Err(illegal(p, action, "you are defending"));
            }
            if p == state.defender {
                return Err(illegal(p, action, "the defender cannot throw in"));
            }
            let limit = state.attack_limit();
            if state.table.len() >= limit {
                return Err(illegal(
                    p,
                    action,
                    format!("the bout already has {limit} attack cards (its limit)"),
                ));
            }
            if state.table_ranks() >> (c.rank() - 2) & 1 == 0 {
                return Err(illegal(
                    p,
                    action,
                    format!("no card of rank {} is on the table", c.rank()),
                ));
            }
            Ok(())
        }
        Action::Pass => {
            if state.table.is_empty() {
                Err(illegal(p, action, "you lead this bout: play a card"))
            } else if is_defender {
                Err(illegal(p, action, "you are defending: beat or take"))
            } else {
                Ok(())
            }
        }
        Action::Defend { attack, with } => {
            if !is_defender {
                return Err(illegal(p, action, "you are not defending"));
            }
            if !hand.contains(with) {
                return Err(not_held(with));
            }
            if !state.table.iter().any(|t| t.attack == attack && t.defence.is_none()) {
                return Err(illegal(p, action, format!("{attack} is not an unbeaten attack card")));
            }
            if !with.beats(attack, state.trump()) {
                return Err(illegal(p, action, format!("{with} does not beat {attack}")));
            }
            Ok(())
        }
        Action::Take => {
            if is_defender {
                Ok(())
            } else {
                Err(illegal(p, action, "only the defender can take"))
            }
        }
        Action::Transfer(c) => {
            if !is_defender {
                return Err(illegal(p, action, "you are not defending"));
            }
            if !state.options.transfer {
                return Err(illegal(p, action, "transfer is not allowed in this game"));
            }
            if !hand.contains(c) {
                return Err(not_held(c));
            }
            if state.transfer_rank() != Some(c.rank()) {
                return Err(illegal(p, action, "a transfer needs a card of the attacked rank"));
            }
            if state.transfer_target().is_none() {
                return Err(illegal(
                    p,
                    action,
                    "no transfer now (a card is beaten, or the next player cannot hold the attack)",
                ));
            }
            Ok(())
        }
    }
}
