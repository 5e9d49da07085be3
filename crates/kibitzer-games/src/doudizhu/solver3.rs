//! Three-player open-hand endgame: the landlord against two cooperating farmers.
//!
//! Turn order is landlord → down farmer → up farmer → landlord. A play stands until both
//! other players pass; its owner then leads. The farmers win when either of them empties
//! their hand first. The search is the two-player one's AND/OR search over (three hands,
//! side to move, play to answer and its owner) with the same bounded table, immediate-win
//! check and move ordering (plays leaving the mover's hand quickest first, passing after
//! plain answers, bombs last). The recommended move of a lost position is the first move
//! in search order (no "hold out longest" measure here).

use super::budget::{Budget, Meter, Outcome, Solution};
use super::hand::Hand;
use super::movegen::{for_each_answer, for_each_lead, whole_hand_play};
use super::play::Play;
use super::rules::Rules;
use super::table::{Key, Table};
use super::turns::Turns;

/// A seat at the three-player table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Seat {
    /// The landlord, alone against the farmers.
    Landlord,
    /// The farmer who plays right after the landlord.
    DownFarmer,
    /// The farmer who plays right before the landlord.
    UpFarmer,
}

impl Seat {
    fn index(self) -> usize {
        match self {
            Seat::Landlord => 0,
            Seat::DownFarmer => 1,
            Seat::UpFarmer => 2,
        }
    }
}

const MAX_LINE: usize = 150;

/// Solves the three-player endgame. `hands` are indexed landlord, down farmer, up farmer;
/// `last` is the play to answer and who made it (`None`: `to_move` leads). The outcome is
/// for the team of `to_move`; the line lists the turns in order from `to_move`.
pub fn solve3(
    hands: &[Hand; 3],
    to_move: Seat,
    last: Option<(Seat, &Play)>,
    rules: &Rules,
    budget: &Budget,
) -> Solution {
    let mover = to_move.index();
    let mut s = Solver3 {
        rules,
        table: Table::new(budget.max_table_bytes),
        meter: Meter::new(budget),
        turns: Turns::default(),
    };
    let mut state = State {
        hands: *hands,
        mover,
        last: last.and_then(|(owner, p)| (owner.index() != mover).then_some((*p, owner.index()))),
    };
    if let Some(done) = (0..3).find(|&i| hands[i].is_empty()) {
        let won = same_team(done, mover);
        return Solution {
            outcome: if won { Outcome::Win } else { Outcome::Lose },
            best: None,
            pass: false,
            line: Vec::new(),
            nodes: 0,
            proof_nodes: 0,
            line_measured: false,
        };
    }
    let Some(wins) = s.wins(&state) else {
        return Solution {
            outcome: Outcome::Unknown,
            best: None,
            pass: false,
            line: Vec::new(),
            nodes: s.meter.nodes,
            proof_nodes: s.meter.nodes,
            line_measured: false,
        };
    };
    let proof_nodes = s.meter.nodes;
    // Principal line: every side plays its first move that keeps its proven result.
    let mut line = Vec::new();
    while line.len() < MAX_LINE {
        let Some(v) = s.wins(&state) else { break };
        let moves = s.moves(&state);
        let mut chosen = None;
        for m in &moves {
            let (child, over) = state.after(m.as_ref());
            let keeps = match over {
                Some(team_won) => team_won == v,
                None => match s.wins(&child) {
                    Some(cv) => (cv == same_team(child.mover, state.mover)) == v,
                    None => break,
                },
            };
            if keeps {
                chosen = Some((*m, child, over.is_some()));
                break;
            }
        }
        let Some((m, child, over)) = chosen else {
            break;
        };
        line.push(m);
        if over {
            break;
        }
        state = child;
    }
    let first = line.first().copied();
    Solution {
        outcome: if wins { Outcome::Win } else { Outcome::Lose },
        best: first.flatten(),
        pass: matches!(first, Some(None)),
        line,
        nodes: s.meter.nodes,
        proof_nodes,
        // Each side's first move that keeps its result: not measured for length.
        line_measured: false,
    }
}

fn same_team(a: usize, b: usize) -> bool {
    (a == 0) == (b == 0)
}

#[derive(Clone, Copy)]
struct State {
    hands: [Hand; 3],
    mover: usize,
    /// The play to answer and its owner (never the mover).
    last: Option<(Play, usize)>,
}

impl State {
    /// The position after `m` (`None` = pass), or which result ends the game: `Some(true)`
    /// when the mover's team has just won.
    fn after(&self, m: Option<&Play>) -> (State, Option<bool>) {
        let next = (self.mover + 1) % 3;
        match m {
            None => {
                let last = self.last.filter(|&(_, owner)| owner != next);
                (
                    State {
                        hands: self.hands,
                        mover: next,
                        last,
                    },
                    None,
                )
            }
            Some(p) => {
                let mut hands = self.hands;
                hands[self.mover] = hands[self.mover].minus(p.cards);
                let over = hands[self.mover].is_empty().then_some(true);
                (
                    State {
                        hands,
                        mover: next,
                        last: Some((*p, self.mover)),
                    },
                    over,
                )
            }
        }
    }

    fn key(&self) -> Key {
        let (code, owner) = self
            .last
            .map_or((0, 3), |(p, o)| (u32::from(p.answer_code()), o as u32));
        Key {
            a: self.hands[0].bits(),
            b: self.hands[1].bits(),
            c: self.hands[2].bits(),
            meta: self.mover as u32 | (owner << 2) | (code << 4),
        }
    }
}

struct Solver3<'r> {
    rules: &'r Rules,
    table: Table,
    meter: Meter,
    turns: Turns,
}

impl Solver3<'_> {
    /// Moves of the mover, ordered; `None` = pass.
    fn moves(&mut self, st: &State) -> Vec<Option<Play>> {
        let me = st.hands[st.mover];
        let mut plays = Vec::new();
        let mut push = |p: Play| {
            plays.push(p);
            false
        };
        match st.last {
            None => for_each_lead(me, self.rules, &mut push),
            Some((l, _)) => for_each_answer(me, &l, &mut push),
        };
        let mut keyed: Vec<(u32, Option<Play>)> = plays
            .into_iter()
            .map(|p| {
                let class = if p.kind.is_bomb_like() { 3 } else { 1 };
                let t = u32::from(self.turns.of(me.minus(p.cards), self.rules));
                let fewer = 20u32.saturating_sub(p.cards.len());
                (
                    (class << 24) | (t << 16) | (fewer << 8) | u32::from(p.main_rank),
                    Some(p),
                )
            })
            .collect();
        if st.last.is_some() {
            keyed.push((2 << 24, None));
        }
        keyed.sort_by_key(|&(k, _)| k);
        keyed.into_iter().map(|(_, m)| m).collect()
    }

    /// Does the mover's team win? `None` when the budget ran out.
    fn wins(&mut self, st: &State) -> Option<bool> {
        if !self.meter.tick() {
            return None;
        }
        let me = st.hands[st.mover];
        if let Some(w) = whole_hand_play(me, self.rules) {
            if st.last.is_none_or(|(l, _)| w.beats(&l)) {
                return Some(true);
            }
        }
        let key = st.key();
        if let Some(v) = self.table.get(&key) {
            return Some(v);
        }
        let start = self.meter.nodes;
        let mut result = false;
        for m in self.moves(st) {
            let (child, over) = st.after(m.as_ref());
            let v = match over {
                Some(won) => won,
                None => self.wins(&child)? == same_team(child.mover, st.mover),
            };
            if v {
                result = true;
                break;
            }
        }
        self.table.put(key, result, self.meter.nodes - start);
        Some(result)
    }
}

#[cfg(test)]
mod tests {
    use super::super::hand::parse_hand;
    use super::*;

    fn h(s: &str) -> Hand {
        parse_hand(s).unwrap()
    }

    #[test]
    fn farmers_cooperate() {
        // The down farmer leads a small single so that its partner's 2 (which the
        // landlord's K cannot beat) goes out: the farmers win although neither leader
        // could win alone against the K.
        let hands = [h("K"), h("3 4"), h("2")];
        let s = solve3(&hands, Seat::DownFarmer, None, &Rules::default(), &Budget::default());
        assert_eq!(s.outcome, Outcome::Win);
        let line: Vec<String> = s
            .line
            .iter()
            .map(|m| m.map_or("pass".into(), |p| p.to_string()))
            .collect();
        assert_eq!(line.last().map(String::as_str), Some("2"), "{line:?}");
    }

    #[test]
    fn landlord_goes_out_with_an_unanswerable_pair() {
        let hands = [h("3 3"), h("4"), h("5")];
        let s = solve3(&hands, Seat::Landlord, None, &Rules::default(), &Budget::default());
        assert_eq!(s.outcome, Outcome::Win);
        assert_eq!(s.best.map(|p| p.to_string()), Some("3 3".into()));
    }

    #[test]
    fn passing_to_the_partner() {
        // The landlord led 5; the down farmer (next) cannot beat it and passes, then
        // the up farmer beats it with the 2 and goes out.
        let r = Rules::default();
        let five = super::super::play::parse_play("5", &r).unwrap();
        let hands = [h("6"), h("4"), h("2")];
        let s = solve3(
            &hands,
            Seat::DownFarmer,
            Some((Seat::Landlord, &five)),
            &r,
            &Budget::default(),
        );
        assert_eq!(s.outcome, Outcome::Win);
        assert!(s.pass);
    }
}
