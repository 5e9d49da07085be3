//! Test oracles written the simplest way: the hand value (`docs/durak.md`) term by term with a naive exact
//! fraction, and the legal moves straight from the rules' wording.

use super::cards::{Card, Suit};
use super::game::{Action, GameState};
use super::value::ValueParams;

/// A naive fraction: reduced after every operation, denominator positive.
#[derive(Clone, Copy, Debug)]
struct Q {
    n: i128,
    d: i128,
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a.abs().max(1)
    } else {
        gcd(b, a % b)
    }
}

impl Q {
    fn new(n: i128, d: i128) -> Q {
        let g = gcd(n, d);
        let s = if d < 0 { -1 } else { 1 };
        Q {
            n: s * n / g,
            d: s * d / g,
        }
    }
    fn int(n: i64) -> Q {
        Q::new(n as i128, 1)
    }
    fn frac(f: super::frac::Frac) -> Q {
        Q::new(f.num() as i128, f.den() as i128)
    }
    fn add(self, o: Q) -> Q {
        Q::new(self.n * o.d + o.n * self.d, self.d * o.d)
    }
    fn sub(self, o: Q) -> Q {
        Q::new(self.n * o.d - o.n * self.d, self.d * o.d)
    }
    fn mul(self, o: Q) -> Q {
        Q::new(self.n * o.n, self.d * o.d)
    }
    fn div(self, o: Q) -> Q {
        Q::new(self.n * o.d, self.d * o.n)
    }
    fn abs(self) -> Q {
        Q::new(self.n.abs(), self.d)
    }
    /// Toward zero, done by hand on the absolute value.
    fn trunc(self) -> i64 {
        let whole = self.n.abs() / self.d;
        (if self.n < 0 { -whole } else { whole }) as i64
    }
}

/// The hand value's terms as `docs/durak.md` lists them, literally. `hand` has no duplicates.
pub fn hand_value(hand: &[Card], trump: Suit, stock: usize, sizes: &[usize], p: &ValueParams) -> i64 {
    if stock == 0 && hand.is_empty() {
        return p.out_of_play;
    }
    let rank_value = |r: u8| p.rank_values[r as usize - 2];
    let mut total = 0i64;
    for c in hand {
        let mut t = Q::int(rank_value(c.rank())).mul(Q::int(p.rank_multiplier));
        if c.suit() == trump {
            t = t.add(Q::int(p.trump_bonus));
        }
        total += t.trunc();
    }
    for rank in 2..=14u8 {
        let k = hand.iter().filter(|c| c.rank() == rank).count();
        if k >= 2 {
            let v = Q::int(rank_value(rank).max(p.same_rank_min_value));
            total += v
                .mul(Q::frac(p.same_rank_bonus[k]))
                .mul(Q::frac(p.same_rank_bonus_scale))
                .trunc();
        }
    }
    let non_trumps = hand.iter().filter(|c| c.suit() != trump).count();
    if non_trumps > 0 {
        let a = Q::int(non_trumps as i64).div(Q::int(3));
        for suit in Suit::ALL {
            if suit == trump {
                continue;
            }
            let count = hand.iter().filter(|c| c.suit() == suit).count();
            let dev = Q::int(count as i64).sub(a).abs().div(a);
            total += Q::int(0).sub(Q::frac(p.suit_balance_penalty).mul(dev)).trunc();
        }
    }
    let in_play = stock as i64 + sizes.iter().sum::<usize>() as i64 - hand.len() as i64;
    let ratio = if in_play > 0 {
        Q::int(hand.len() as i64).div(Q::int(in_play))
    } else {
        Q::frac(p.hand_size_empty_ratio)
    };
    total += Q::frac(p.hand_size_target)
        .sub(ratio)
        .mul(Q::frac(p.hand_size_penalty))
        .trunc();
    total
}

/// The legal actions from the rules' wording, as a sorted list (for set comparison).
pub fn legal(state: &GameState) -> Vec<String> {
    let mut out = Vec::new();
    let Some(p) = state.to_act() else {
        return out;
    };
    let hand: Vec<Card> = state.hand(p).to_vec();
    let trump = state.trump();
    let table = state.table();
    if table.is_empty() {
        out.extend(hand.iter().map(|c| Action::Attack(*c).to_string()));
    } else if p == state.defender() && !state.taking() {
        for pair in table.iter().filter(|t| t.defence.is_none()) {
            for &c in &hand {
                let beats = (c.suit() == pair.attack.suit() && c.rank() > pair.attack.rank())
                    || (c.suit() == trump && pair.attack.suit() != trump);
                if beats {
                    out.push(
                        Action::Defend {
                            attack: pair.attack,
                            with: c,
                        }
                        .to_string(),
                    );
                }
            }
        }
        let n = state.players();
        let receiver = (1..n).map(|i| (state.defender() + i) % n).find(|&q| !state.is_out(q));
        let cap = if state.options().five_before_first_discard && !state.discard_happened() {
            5
        } else {
            6
        };
        let nothing_beaten = table.iter().all(|t| t.defence.is_none());
        if let Some(q) = receiver {
            if state.options().transfer && nothing_beaten && table.len() < cap && state.hand(q).len() > table.len() {
                for &c in &hand {
                    if c.rank() == table[0].attack.rank() {
                        out.push(Action::Transfer(c).to_string());
                    }
                }
            }
        }
        out.push(Action::Take.to_string());
    } else {
        let on_table: Vec<u8> = table
            .iter()
            .flat_map(|t| std::iter::once(t.attack).chain(t.defence))
            .map(|c| c.rank())
            .collect();
        if table.len() < state.attack_limit() {
            for &c in &hand {
                if on_table.contains(&c.rank()) {
                    out.push(Action::Attack(c).to_string());
                }
            }
        }
        out.push(Action::Pass.to_string());
    }
    out.sort();
    out
}

/// The decisions of `docs/durak.md` written plainly on top of the oracle hand value (lists, not masks).
pub fn decide(
    view: &super::view::PlayerView,
    legal: &[Action],
    vp: &ValueParams,
    dp: &super::policy::DecisionParams,
) -> Action {
    let trump = view.trump;
    let stock = view.stock;
    let sizes: Vec<usize> = view.hand_sizes.to_vec();
    let hand: Vec<Card> = view.hand.to_vec();
    let val = |cards: &[Card]| hand_value(cards, trump, stock, &sizes, vp);
    let without = |c: Card| -> Vec<Card> { hand.iter().copied().filter(|x| *x != c).collect() };
    let current = val(&hand);
    let r = stock as i64;
    // Highest score, ties to the lowest card.
    let pick = |cands: Vec<(i64, i64, Card, Action)>| {
        cands
            .into_iter()
            .min_by_key(|(score, _, card, _)| (-score, card.low_key(trump)))
    };
    let table: Vec<Card> = view
        .table
        .iter()
        .flat_map(|t| std::iter::once(t.attack).chain(t.defence))
        .collect();
    if legal
        .iter()
        .any(|a| matches!(a, Action::Take | Action::Defend { .. } | Action::Transfer(_)))
    {
        let transfers: Vec<_> = legal
            .iter()
            .filter_map(|a| match *a {
                Action::Transfer(c) => {
                    let v = val(&without(c));
                    Some((v, v, c, *a))
                }
                _ => None,
            })
            .collect();
        if let Some((_, after, _, a)) = pick(transfers) {
            if current - after < dp.transfer_max_loss {
                return a;
            }
        }
        let unbeaten: Vec<Card> = view
            .table
            .iter()
            .filter(|t| t.defence.is_none())
            .map(|t| t.attack)
            .collect();
        if !beats_each(&hand, &unbeaten, view.trump) {
            return Action::Take;
        }
        // The unbeaten card answered first: the lowest by rank, then suit, whatever the order played.
        let target = view
            .table
            .iter()
            .filter(|t| t.defence.is_none())
            .min_by_key(|t| (t.attack.rank(), t.attack.suit().index()))
            .map(|t| t.attack);
        let defences: Vec<_> = legal
            .iter()
            .filter_map(|a| match *a {
                Action::Defend { attack, with } if Some(attack) == target => {
                    let after = val(&without(with));
                    let on_table = table.iter().any(|t| t.rank() == with.rank());
                    let bonus = if on_table { dp.defend_table_rank_bonus } else { 0 };
                    Some((after + bonus, after, with, *a))
                }
                _ => None,
            })
            .collect();
        let mut with_table = hand.clone();
        with_table.extend(table.iter().copied());
        let take_value = val(&with_table);
        if let Some((score, _, _, a)) = pick(defences) {
            if current - score < dp.defend_max_loss
                || take_value - score < dp.take_base - dp.take_per_stock * r
                || (stock == 0 && dp.defend_when_stock_empty)
            {
                return a;
            }
        }
        return Action::Take;
    }
    let attacks: Vec<_> = legal
        .iter()
        .filter_map(|a| match *a {
            Action::Attack(c) => {
                let after = val(&without(c));
                let k = hand.iter().filter(|x| x.rank() == c.rank()).count();
                let bonus = Q::frac(dp.lead_rank_bonus[k])
                    .mul(Q::int(vp.rank_values[c.rank() as usize - 2]))
                    .mul(Q::int(dp.lead_rank_scale))
                    .trunc();
                Some((after + bonus, after, c, *a))
            }
            _ => None,
        })
        .collect();
    let best = pick(attacks);
    if view.table.is_empty() {
        return best.map_or(legal[0], |b| b.3);
    }
    match best {
        Some((score, after, _, a)) => {
            let kept = if dp.throw_compare_with_bonus { score } else { after };
            if current - kept < dp.throw_base - dp.throw_per_stock * r {
                a
            } else {
                Action::Pass
            }
        }
        None => Action::Pass,
    }
}

/// Can each attack card be beaten by a hand card of its own? Every assignment tried in turn.
fn beats_each(hand: &[Card], attacks: &[Card], trump: Suit) -> bool {
    let Some((first, rest)) = attacks.split_first() else {
        return true;
    };
    (0..hand.len()).any(|i| {
        let mut others = hand.to_vec();
        let c = others.remove(i);
        c.beats(*first, trump) && beats_each(&others, rest, trump)
    })
}
