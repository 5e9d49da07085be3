//! Every legal move of the side to move with its verdict under best play and, for a losing
//! move, the enemy's reply that wins: the two-player solver asked once per move, all the
//! moves sharing one node budget (past it, the remaining moves are unknown).

use super::budget::{Budget, Outcome};
use super::hand::Hand;
use super::movegen::{legal_leads, legal_responses};
use super::play::Play;
use super::rules::Rules;
use super::solver::solve;

/// One legal move and what it leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveVerdict {
    /// The play; `None` = pass.
    pub play: Option<Play>,
    /// For the side to move, after this move, under best play by both.
    pub outcome: Outcome,
    /// For a losing move, the enemy's winning reply (`Some(None)` = the enemy passes).
    pub refutation: Option<Option<Play>>,
    /// The play empties the hand: it wins at once.
    pub goes_out: bool,
}

/// Every legal move of `me` (leading when `last` is `None`, else each answer and passing), in
/// move-generation order, with its verdict. `budget.max_nodes` bounds all the searches together.
pub fn move_verdicts(me: Hand, enemy: Hand, last: Option<&Play>, rules: &Rules, budget: &Budget) -> Vec<MoveVerdict> {
    let mut moves: Vec<Option<Play>> = match last {
        None => legal_leads(me, rules).into_iter().map(Some).collect(),
        Some(l) => legal_responses(me, l, rules).into_iter().map(Some).collect(),
    };
    if last.is_some() {
        moves.push(None);
    }
    let mut left = budget.max_nodes;
    moves
        .into_iter()
        .map(|m| {
            // The enemy moves next, answering the play (or leading after a pass).
            let other = m.map_or(me, |p| Hand(me.bits() - p.cards.bits()));
            let mut v = MoveVerdict {
                play: m,
                outcome: Outcome::Unknown,
                refutation: None,
                goes_out: other.is_empty(),
            };
            if v.goes_out {
                v.outcome = Outcome::Win;
                return v;
            }
            if left == 0 {
                return v;
            }
            let limits = Budget {
                max_nodes: left,
                line_nodes: 0,
                ..*budget
            };
            let s = solve(enemy, other, m.as_ref(), rules, &limits);
            left = left.saturating_sub(s.nodes);
            match s.outcome {
                Outcome::Win => {
                    v.outcome = Outcome::Lose;
                    v.refutation = if s.pass { Some(None) } else { s.best.map(Some) };
                }
                Outcome::Lose => v.outcome = Outcome::Win,
                Outcome::Unknown => left = 0,
            }
            v
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::oracle::{plain_wins, random_position};
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn every_verdict_and_refutation_agrees_with_plain_minimax() {
        let mut rng = ChaCha8Rng::seed_from_u64(77);
        let mut losing = 0;
        for i in 0..600 {
            let (me, opp, last, r) = random_position(&mut rng, 6);
            let verdicts = move_verdicts(me, opp, last.as_ref(), &r, &Budget::default());
            let legal = match last {
                None => legal_leads(me, &r).len(),
                Some(l) => legal_responses(me, &l, &r).len() + 1,
            };
            assert_eq!(verdicts.len(), legal, "case {i}");
            for v in &verdicts {
                let (after, wins) = match v.play {
                    None => (me, !plain_wins(opp, me, None, &r)),
                    Some(p) => {
                        let rest = Hand(me.bits() - p.cards.bits());
                        (rest, rest.is_empty() || !plain_wins(opp, rest, Some(p), &r))
                    }
                };
                let want = if wins { Outcome::Win } else { Outcome::Lose };
                assert_eq!(
                    v.outcome, want,
                    "case {i}: {me} vs {opp} last {last:?}, move {:?}",
                    v.play
                );
                match v.refutation {
                    None => assert!(wins, "case {i}: a losing move without its refutation"),
                    Some(reply) => {
                        losing += 1;
                        // The reply wins for the enemy: after it, I cannot force a win.
                        let refutes = match reply {
                            None => !plain_wins(after, opp, None, &r),
                            Some(q) => {
                                let theirs = Hand(opp.bits() - q.cards.bits());
                                assert!(v.play.is_none_or(|p| q.beats(&p)), "case {i}: {q:?} is no answer");
                                theirs.is_empty() || !plain_wins(after, theirs, Some(q), &r)
                            }
                        };
                        assert!(refutes, "case {i}: {reply:?} does not refute {:?}", v.play);
                    }
                }
            }
        }
        assert!(losing > 100, "the sample holds losing moves: {losing}");
    }

    #[test]
    fn a_spent_budget_leaves_the_rest_unknown() {
        let me = super::super::hand::parse_hand("3 4 5 6 7 9 9 J J K").expect("hand");
        let enemy = super::super::hand::parse_hand("8 8 T T Q Q A A 2").expect("hand");
        let tight = Budget {
            max_nodes: 5,
            ..Budget::default()
        };
        let verdicts = move_verdicts(me, enemy, None, &Rules::standard(), &tight);
        assert!(verdicts.iter().any(|v| v.outcome == Outcome::Unknown));
        let full = move_verdicts(me, enemy, None, &Rules::standard(), &Budget::default());
        assert_eq!(full.len(), verdicts.len());
        assert!(full.iter().all(|v| v.outcome != Outcome::Unknown));
    }
}
