//! The two-player game engine (`docs/mahjong.md`).
//!
//! 16 kinds × 4 = 64 tiles and 8 flowers, shuffled with the game's seed. Draws come from the front
//! of the wall; flowers are set aside and replaced, like kong replacements, from the back. Each
//! player gets 13, the dealer draws first. On a discard the other player may win, pong, kong or
//! chow (two-player: the opponent is always on your left, so chows are allowed). Self-drawn wins,
//! concealed and added kongs (with a replacement draw) are allowed; no robbing of a kong. When a
//! draw is due and the wall is empty the game is drawn.
//!
//! An illegal action never corrupts the game: it is recorded as a [`Misplay`] (seat, action,
//! reason) and replaced by a fallback — discard the drawn tile (or the highest tile) on the own
//! turn, pass on a call.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::collections::VecDeque;

use super::meld::{Meld, MeldKind};
use super::player::{CallAction, Player, PlayerView, TurnAction};
use super::shanten::shanten;
use super::tile::{two_player_kinds, Counts, Tile, KINDS, NO_TILES};
use super::win::{is_win, WinForm};

/// A physical tile of the wall.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WallTile {
    Tile(Tile),
    Flower,
}

/// An illegal action, as recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Misplay {
    /// The seat that misplayed.
    pub seat: usize,
    /// The action as asked.
    pub action: String,
    /// Why it was refused.
    pub reason: String,
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Outcome {
    /// A seat won.
    Win {
        /// The winner.
        seat: usize,
        /// The winning form.
        form: WinForm,
        /// Whether by its own draw (otherwise on the opponent's discard).
        self_drawn: bool,
    },
    /// The wall ran out.
    Draw,
}

/// The result of one game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameResult {
    /// Win or draw.
    pub outcome: Outcome,
    /// Turns taken (discards made).
    pub turns: u32,
    /// Every illegal action, in order.
    pub misplays: Vec<Misplay>,
}

/// One game in progress.
pub struct Game {
    wall: VecDeque<WallTile>,
    hands: [Counts; 2],
    melds: [Vec<Meld>; 2],
    discards: [Vec<Tile>; 2],
    flowers: [u8; 2],
    ready: [bool; 2],
    /// Per seat: its discards on the table up to its declaring one (`PlayerView::opponent_ready_at`).
    ready_at: [usize; 2],
    /// Kinds shown not to complete each seat's ready hand (see `PlayerView::opponent_safe`).
    safe_vs: [Counts; 2],
    dealer: usize,
    can_chow: bool,
    misplays: Vec<Misplay>,
    turns: u32,
}

enum Step {
    /// The seat's turn goes on (after a draw: `drawn` is Some).
    Turn(usize, Option<Tile>),
    /// The game is over.
    Over(Outcome),
}

impl Game {
    /// A shuffled, dealt game. `dealer` is 0 or 1.
    pub fn new(seed: u64, dealer: usize) -> Game {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut tiles: Vec<WallTile> = two_player_kinds()
            .flat_map(|t| [WallTile::Tile(t); 4])
            .chain([WallTile::Flower; 8])
            .collect();
        tiles.shuffle(&mut rng);
        let mut game = Game {
            wall: tiles.into(),
            hands: [NO_TILES; 2],
            melds: [Vec::new(), Vec::new()],
            discards: [Vec::new(), Vec::new()],
            flowers: [0; 2],
            ready: [false; 2],
            ready_at: [0; 2],
            safe_vs: [NO_TILES; 2],
            dealer: dealer % 2,
            can_chow: true,
            misplays: Vec::new(),
            turns: 0,
        };
        for _ in 0..13 {
            for seat in [game.dealer, 1 - game.dealer] {
                // 72 tiles cover 26 dealt tiles and all 8 flowers, so the deal never runs dry.
                if let Some(t) = game.draw(seat, false) {
                    game.hands[seat][t.index()] += 1;
                }
            }
        }
        game
    }

    /// Turns chows off (they are on by default).
    pub fn without_chows(mut self) -> Game {
        self.can_chow = false;
        self
    }

    /// Draws for `seat` from the front (or the back for a replacement), setting flowers aside.
    /// None when the wall is empty.
    fn draw(&mut self, seat: usize, replacement: bool) -> Option<Tile> {
        let mut from_back = replacement;
        loop {
            let next = if from_back {
                self.wall.pop_back()
            } else {
                self.wall.pop_front()
            }?;
            match next {
                WallTile::Tile(t) => return Some(t),
                WallTile::Flower => {
                    self.flowers[seat] += 1;
                    from_back = true;
                }
            }
        }
    }

    /// What `seat` sees.
    pub fn view(&self, seat: usize, drawn: Option<Tile>) -> PlayerView {
        let other = 1 - seat;
        let mut visible = NO_TILES;
        for t in self.discards[0].iter().chain(self.discards[1].iter()) {
            visible[t.index()] += 1;
        }
        for m in &self.melds[other] {
            for t in m.tiles() {
                visible[t.index()] += 1;
            }
        }
        for (i, v) in visible.iter_mut().enumerate() {
            if (9..27).contains(&i) {
                *v = 4;
            }
        }
        PlayerView {
            seat,
            dealer: seat == self.dealer,
            hand: self.hands[seat],
            drawn,
            melds: self.melds[seat].clone(),
            opponent_melds: self.melds[other].clone(),
            own_discards: self.discards[seat].clone(),
            opponent_discards: self.discards[other].clone(),
            opponent_ready_at: self.ready_at[other],
            visible,
            wall_remaining: self.wall.len(),
            ready: self.ready[seat],
            opponent_ready: self.ready[other],
            can_chow: self.can_chow,
            opponent_safe: self.safe_vs[other],
        }
    }

    fn misplay(&mut self, seat: usize, action: String, reason: &str) {
        self.misplays.push(Misplay {
            seat,
            action,
            reason: reason.to_string(),
        });
    }

    /// Plays the game to its end.
    pub fn play(mut self, seats: &mut [&mut dyn Player; 2]) -> GameResult {
        let first = self.draw(self.dealer, false);
        let mut step = match first {
            Some(t) => {
                self.hands[self.dealer][t.index()] += 1;
                Step::Turn(self.dealer, Some(t))
            }
            None => Step::Over(Outcome::Draw),
        };
        // Every pass through the loop draws a tile or adds a meld, so it ends; the cap is a guard.
        for _ in 0..1000 {
            #[cfg(test)]
            self.check_conservation();
            step = match step {
                Step::Over(outcome) => {
                    return GameResult {
                        outcome,
                        turns: self.turns,
                        misplays: self.misplays,
                    }
                }
                Step::Turn(seat, drawn) => self.turn(seats, seat, drawn),
            };
        }
        GameResult {
            outcome: Outcome::Draw,
            turns: self.turns,
            misplays: self.misplays,
        }
    }

    fn turn(&mut self, seats: &mut [&mut dyn Player; 2], seat: usize, drawn: Option<Tile>) -> Step {
        let view = self.view(seat, drawn);
        let action = seats[seat].on_draw(&view);
        let discard = match self.check_turn(seat, drawn, action) {
            Ok(TurnAction::Win) => {
                let form = is_win(&self.hands[seat], &self.melds[seat]).unwrap_or(WinForm::Standard);
                return Step::Over(Outcome::Win {
                    seat,
                    form,
                    self_drawn: true,
                });
            }
            Ok(TurnAction::Kong(t)) => return self.self_kong(seat, t),
            Ok(TurnAction::Discard(t)) => {
                if self.ready[seat] {
                    self.safe_vs[seat][t.index()] = 1;
                }
                t
            }
            Ok(TurnAction::DeclareReady(t)) => {
                self.ready[seat] = true;
                t
            }
            Err(reason) => {
                self.misplay(seat, format!("{action:?}"), &reason);
                self.fallback_discard(seat, drawn)
            }
        };
        self.hands[seat][discard.index()] -= 1;
        self.discards[seat].push(discard);
        if self.ready[seat] && self.ready_at[seat] == 0 {
            self.ready_at[seat] = self.discards[seat].len();
        }
        self.turns += 1;
        self.offer(seats, seat, discard)
    }

    /// The fallback discard: the drawn tile if still held, else the highest tile.
    fn fallback_discard(&self, seat: usize, drawn: Option<Tile>) -> Tile {
        if let Some(t) = drawn.filter(|t| self.hands[seat][t.index()] > 0) {
            return t;
        }
        (0..KINDS)
            .rev()
            .find(|&i| self.hands[seat][i] > 0)
            .and_then(Tile::from_index)
            .or(drawn)
            .unwrap_or(Tile::ONE_MAN)
    }

    fn check_turn(&self, seat: usize, drawn: Option<Tile>, action: TurnAction) -> Result<TurnAction, String> {
        let hand = &self.hands[seat];
        match action {
            TurnAction::Win => {
                if drawn.is_none() {
                    return Err("no self-drawn win without a draw".into());
                }
                if is_win(hand, &self.melds[seat]).is_none() {
                    return Err("the hand is not a win".into());
                }
            }
            TurnAction::Discard(t) | TurnAction::DeclareReady(t) => {
                if hand[t.index()] == 0 {
                    return Err(format!("{t} is not in the hand"));
                }
                if self.ready[seat] && Some(t) != drawn {
                    return Err("a ready hand must discard the drawn tile".into());
                }
                if let TurnAction::DeclareReady(_) = action {
                    if self.ready[seat] {
                        return Err("already ready".into());
                    }
                    let mut after = *hand;
                    after[t.index()] -= 1;
                    if shanten(&after, &self.melds[seat]) != 0 {
                        return Err(format!("discarding {t} does not leave the hand ready"));
                    }
                }
            }
            TurnAction::Kong(t) => {
                if self.ready[seat] {
                    return Err("no kong after declaring ready".into());
                }
                if self.wall.is_empty() {
                    return Err("no replacement tile left".into());
                }
                let concealed = hand[t.index()] == 4;
                let added = hand[t.index()] >= 1 && self.melds[seat].contains(&Meld::pong(t));
                if !concealed && !added {
                    return Err(format!("no kong of {t} possible"));
                }
            }
        }
        Ok(action)
    }

    fn self_kong(&mut self, seat: usize, t: Tile) -> Step {
        if self.hands[seat][t.index()] == 4 {
            self.hands[seat][t.index()] = 0;
            self.melds[seat].push(Meld::concealed_kong(t));
        } else {
            self.hands[seat][t.index()] -= 1;
            if let Some(m) = self.melds[seat].iter_mut().find(|m| **m == Meld::pong(t)) {
                m.kind = MeldKind::Kong;
            }
        }
        self.replacement(seat)
    }

    fn replacement(&mut self, seat: usize) -> Step {
        match self.draw(seat, true) {
            Some(r) => {
                self.hands[seat][r.index()] += 1;
                Step::Turn(seat, Some(r))
            }
            None => Step::Over(Outcome::Draw),
        }
    }

    fn offer(&mut self, seats: &mut [&mut dyn Player; 2], from: usize, t: Tile) -> Step {
        let to = 1 - from;
        let view = self.view(to, None);
        let action = seats[to].on_discard(&view, t);
        match self.check_call(to, t, action) {
            Ok(CallAction::Win) => {
                let mut hand = self.hands[to];
                hand[t.index()] += 1;
                let form = is_win(&hand, &self.melds[to]).unwrap_or(WinForm::Standard);
                return Step::Over(Outcome::Win {
                    seat: to,
                    form,
                    self_drawn: false,
                });
            }
            Ok(CallAction::Pass) => {
                if self.ready[to] {
                    self.safe_vs[to][t.index()] = 1;
                }
            }
            Ok(call) => {
                self.discards[from].pop();
                // A claimed declaring discard leaves the table: the count shrinks with it.
                self.ready_at[from] = self.ready_at[from].min(self.discards[from].len());
                let (meld, used): (Meld, Vec<Tile>) = match call {
                    CallAction::Pong => (Meld::pong(t), vec![t; 2]),
                    CallAction::Kong => (Meld::kong(t), vec![t; 3]),
                    CallAction::Chow(low) => match Meld::chow(low) {
                        Some(m) => (m, m.tiles().into_iter().filter(|&x| x != t).collect()),
                        None => (Meld::pong(t), vec![t; 2]),
                    },
                    CallAction::Win | CallAction::Pass => (Meld::pong(t), Vec::new()),
                };
                for u in used {
                    self.hands[to][u.index()] -= 1;
                }
                self.melds[to].push(meld);
                if call == CallAction::Kong {
                    return self.replacement(to);
                }
                return Step::Turn(to, None);
            }
            Err(reason) => self.misplay(to, format!("{action:?}"), &reason),
        }
        match self.draw(to, false) {
            Some(d) => {
                self.hands[to][d.index()] += 1;
                Step::Turn(to, Some(d))
            }
            None => Step::Over(Outcome::Draw),
        }
    }

    fn check_call(&self, seat: usize, t: Tile, action: CallAction) -> Result<CallAction, String> {
        let hand = &self.hands[seat];
        let held = hand[t.index()];
        let calls_left = self.melds[seat].len() < 4;
        if !matches!(action, CallAction::Win | CallAction::Pass) && self.ready[seat] {
            return Err("a ready hand may only win or pass".into());
        }
        match action {
            CallAction::Pass => {}
            CallAction::Win => {
                let mut h = *hand;
                h[t.index()] += 1;
                if is_win(&h, &self.melds[seat]).is_none() {
                    return Err(format!("{t} does not complete the hand"));
                }
            }
            CallAction::Pong if held >= 2 && calls_left => {}
            CallAction::Kong if held >= 3 && calls_left && !self.wall.is_empty() => {}
            CallAction::Chow(low) if self.can_chow && calls_left => {
                let meld = Meld::chow(low).ok_or(format!("no sequence starts at {low}"))?;
                let tiles = meld.tiles();
                if !tiles.contains(&t) {
                    return Err(format!("{meld} does not use {t}"));
                }
                let mut need = *hand;
                let mut skipped = false;
                for x in tiles {
                    if x == t && !skipped {
                        skipped = true;
                        continue;
                    }
                    if need[x.index()] == 0 {
                        return Err(format!("{x} is not in the hand for {meld}"));
                    }
                    need[x.index()] -= 1;
                }
            }
            other => return Err(format!("{other:?} of {t} is not possible")),
        }
        Ok(action)
    }

    /// Every kind has its four copies somewhere, and all eight flowers are accounted for.
    #[cfg(test)]
    fn check_conservation(&self) {
        let mut total = NO_TILES;
        let mut flowers = self.flowers[0] as usize + self.flowers[1] as usize;
        for w in &self.wall {
            match w {
                WallTile::Tile(t) => total[t.index()] += 1,
                WallTile::Flower => flowers += 1,
            }
        }
        for seat in 0..2 {
            for (t, &h) in total.iter_mut().zip(self.hands[seat].iter()) {
                *t += h;
            }
            for m in &self.melds[seat] {
                for t in m.tiles() {
                    total[t.index()] += 1;
                }
            }
            for t in &self.discards[seat] {
                total[t.index()] += 1;
            }
        }
        for t in two_player_kinds() {
            assert_eq!(total[t.index()], 4, "{t} not conserved");
        }
        assert_eq!(super::tile::tile_count(&total), 64);
        assert_eq!(flowers, 8);
    }
}
