//! The searches against oracles: the endgame solver against plain minimax, the sampled search's
//! estimates against exact expectations over every deal, and the arena view against peeking.

use super::cards::{Card, CardSet, Deck};
use super::endgame::{brute_force, solve, table_len, EndgameBudget, Solved, WIN};
use super::game::{
    apply, legal_actions, legal_actions_into, Action, GameOptions, GameState, Outcome, Position, TablePair,
};
use super::players::{Player, ReferencePlayer};
use super::sampled::{fast_action, play_out, sampled_search, SampleBudget};
use super::world::World;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use smallvec::smallvec;

/// A two-player position with the stock empty: `mine` and `theirs` dealt from a shuffled
/// 24-card deck, the rest discarded; player 0 leads, or defends a lead of player 1.
fn small_endgame(rng: &mut ChaCha8Rng) -> Option<GameState> {
    let mut deck = Deck::Cards24.cards();
    deck.shuffle(rng);
    let (a, b) = (rng.random_range(1..=4usize), rng.random_range(1..=4usize));
    let mine = CardSet::from_cards(&deck[..a]);
    let theirs = CardSet::from_cards(&deck[a..a + b]);
    let discard = CardSet::from_cards(&deck[a + b..]);
    let i_lead = rng.random_bool(0.5);
    let (attacker, defender) = if i_lead { (0, 1) } else { (1, 0) };
    let options = GameOptions::default();
    let position = Position {
        hands: vec![mine, theirs],
        stock: Vec::new(),
        trump_card: deck[23],
        discard,
        table: Vec::new(),
        leader: attacker,
        attacker,
        defender,
        defender_start: if i_lead { b } else { a },
        taking: false,
        to_throw: attacker,
        public: vec![CardSet::EMPTY; 2],
    };
    let mut state = GameState::from_position(&options, &position).ok()?;
    state.allow_actions(10_000);
    if !i_lead {
        let lead = *legal_actions(&state).choose(rng)?;
        apply(&mut state, 1, lead).ok()?;
    }
    (state.to_act() == Some(0)).then_some(state)
}

/// The solver's value equals plain minimax on hundreds of small endgames, and its move reaches
/// that value.
#[test]
fn the_endgame_solver_equals_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(44);
    let budget = EndgameBudget {
        max_nodes: 10_000_000,
        table_entries: 1 << 12,
        line_len: 40,
    };
    let (mut checked, mut wins, mut losses, mut draws) = (0, 0, 0, 0);
    for i in 0..500 {
        let Some(state) = small_endgame(&mut rng) else {
            continue;
        };
        let exact = brute_force(&state, 0, 0);
        let answer = solve(&state, 0, &budget);
        assert!(answer.measured, "position {i}");
        assert_eq!(answer.value, exact, "position {i}: {state:?}");
        let best = answer.best.expect("a move");
        let mut child = state.clone();
        apply(&mut child, 0, best).unwrap();
        let v = brute_force(&child, 0, 1);
        assert_eq!(
            v - v.signum(),
            exact,
            "position {i}: the chosen move does not reach the value"
        );
        match answer.outcome {
            Solved::Win => wins += 1,
            Solved::Lose => losses += 1,
            Solved::Draw => draws += 1,
            Solved::Unknown => panic!("position {i}: unknown with a large budget"),
        }
        // The line is played out to the end and ends as the value says.
        let mut st = state.clone();
        for (p, a) in &answer.line {
            apply(&mut st, *p, *a).unwrap();
        }
        if st.is_over() {
            let expected = match exact {
                0 => Outcome::Draw,
                v if v > 0 => Outcome::Durak(1),
                _ => Outcome::Durak(0),
            };
            assert_eq!(st.outcome(), Some(expected), "position {i}");
            if exact != 0 {
                assert_eq!(answer.line.len() as u32, answer.plies, "position {i}");
            }
        }
        checked += 1;
    }
    assert!(
        checked > 300 && wins > 20 && losses > 20 && draws > 5,
        "{checked} {wins} {losses} {draws}"
    );
}

/// A solver with too few nodes says it does not know, rather than guessing.
#[test]
fn the_endgame_solver_stops_at_its_budget() {
    let state = big_endgame();
    let budget = EndgameBudget {
        max_nodes: 50,
        table_entries: 1024,
        line_len: 10,
    };
    let answer = solve(&state, 0, &budget);
    assert_eq!(answer.outcome, Solved::Unknown);
    assert!(answer.nodes <= 51);
}

/// A 12-against-12 endgame of the 36-card deck: far more positions than a small table holds.
fn big_endgame() -> GameState {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut deck = Deck::Cards36.cards();
    deck.shuffle(&mut rng);
    let position = Position {
        hands: vec![CardSet::from_cards(&deck[..12]), CardSet::from_cards(&deck[12..24])],
        stock: Vec::new(),
        trump_card: deck[35],
        discard: CardSet::from_cards(&deck[24..]),
        table: Vec::new(),
        leader: 0,
        attacker: 0,
        defender: 1,
        defender_start: 12,
        taking: false,
        to_throw: 0,
        public: vec![CardSet::EMPTY; 2],
    };
    GameState::from_position(&GameOptions::default(), &position).unwrap()
}

/// The table is not allocated whole: it starts small and grows as the search fills it, never past
/// its bound, so a bound larger than memory (or than the address space) is no abort, and the
/// answer is the one a fixed table gives.
#[test]
fn the_endgame_table_grows_as_needed_within_its_bound() {
    let state = big_endgame();
    let budget = |table_entries| EndgameBudget {
        max_nodes: 300_000,
        table_entries,
        line_len: 10,
    };
    let unbounded = solve(&state, 0, &budget(usize::MAX));
    let grown = table_len();
    assert!(grown > 1 << 12, "the table stayed at {grown} entries");
    let bounded = solve(&state, 0, &budget(10_000));
    assert!(table_len() <= 10_000, "{} entries", table_len());
    let fixed = solve(&state, 0, &budget(grown));
    for a in [&unbounded, &bounded] {
        if a.outcome != Solved::Unknown && fixed.outcome != Solved::Unknown {
            assert_eq!(a.outcome, fixed.outcome);
        }
    }
}

/// A small hidden-information position: 24 cards, two players, a short stock.
fn small_world(rng: &mut ChaCha8Rng) -> World {
    let mut deck = Deck::Cards24.cards();
    deck.shuffle(rng);
    let stock = rng.random_range(2..=3usize);
    let theirs = rng.random_range(2..=4usize);
    let trump_card = deck[23];
    let hand = CardSet::from_cards(&deck[..3]);
    let out = CardSet::from_cards(&deck[3 + theirs + stock - 1..23]);
    let defending = rng.random_bool(0.5);
    let table = if defending {
        // The opponent led a card of their own: it comes out of the unseen pool.
        smallvec![TablePair {
            attack: deck[3],
            defence: None
        }]
    } else {
        smallvec![]
    };
    World {
        deck: Deck::Cards24,
        trump: trump_card.suit(),
        hand,
        sizes: smallvec![3, theirs - usize::from(defending)],
        known: smallvec![CardSet::EMPTY, CardSet::EMPTY],
        out,
        table,
        stock,
        trump_card: Some(trump_card),
        defending,
        defender: usize::from(!defending),
        room: 6,
        perevodnoy: false,
    }
}

/// Every order of the unseen cards (each equally likely): the exact expected loss of each
/// candidate under the playout policy.
fn exact_losses(world: &World, candidates: &[Action]) -> Vec<f64> {
    let unseen = world.unseen().to_vec();
    let mut totals = vec![0.0; candidates.len()];
    let mut orders = 0usize;
    permutations(&unseen, &mut |order| {
        let state = world.state_from(order).unwrap();
        for (t, a) in totals.iter_mut().zip(candidates) {
            let mut st = state.clone();
            apply(&mut st, 0, *a).unwrap();
            *t += match play_out(&mut st) {
                Outcome::Durak(0) => 1.0,
                Outcome::Durak(_) => 0.0,
                _ => 0.5,
            };
        }
        orders += 1;
    });
    totals.into_iter().map(|t| t / orders as f64).collect()
}

fn permutations(items: &[Card], f: &mut dyn FnMut(&[Card])) {
    fn go(v: &mut Vec<Card>, k: usize, f: &mut dyn FnMut(&[Card])) {
        if k == v.len() {
            f(v);
            return;
        }
        for i in k..v.len() {
            v.swap(k, i);
            go(v, k + 1, f);
            v.swap(k, i);
        }
    }
    go(&mut items.to_vec(), 0, f);
}

/// Sampled estimates agree with the exact expectation over every deal within their error bars
/// (4 standard errors), candidate by candidate, on small positions; and the same question gives
/// the same answer.
#[test]
fn sampled_estimates_match_exact_expectations() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let budget = SampleBudget {
        samples: 3000,
        seed: 9,
        time: None,
        margin: 0.0,
    };
    let mut compared = 0;
    let mut spread = 0;
    for _ in 0..40 {
        let world = small_world(&mut rng);
        world.check().unwrap();
        let Some(answer) = sampled_search(&world, None, &budget).unwrap() else {
            continue;
        };
        let candidates: Vec<Action> = answer.estimates.iter().map(|e| e.action).collect();
        let exact = exact_losses(&world, &candidates);
        for (e, x) in answer.estimates.iter().zip(&exact) {
            let se = (e.error95() / 1.96).max(0.004);
            assert!(
                (e.loss() - x).abs() <= 4.0 * se,
                "{:?}: sampled {} exact {x} se {se}",
                e.action,
                e.loss()
            );
            compared += 1;
            spread += usize::from(*x > 0.05 && *x < 0.95);
        }
        assert_eq!(sampled_search(&world, None, &budget).unwrap(), Some(answer));
    }
    assert!(compared > 60 && spread > 20, "{compared} {spread}");
}

/// The deals drawn for a position never contradict what the player knows: the own hand, the
/// known cards in place, the sizes, the trump card at the bottom of the stock.
#[test]
fn deals_respect_what_is_known() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut legal = Vec::new();
    for g in 0..30 {
        let mut state = GameState::new(&GameOptions::default(), g).unwrap();
        let mut players = [ReferencePlayer::default(), ReferencePlayer::default()];
        while let Some(p) = state.to_act() {
            let view = state.view(p);
            let world = World::of_view(&view);
            world.check().unwrap();
            let mut buf = Vec::new();
            let deal = world.deal(&mut rng, &mut buf).unwrap();
            assert_eq!(deal.hand(0), view.hand);
            let other = 1 - p;
            let known = view.known[other];
            assert!(known.bits() & !deal.hand(1).bits() == 0);
            assert_eq!(deal.hand(1).len(), view.hand_sizes[other]);
            assert_eq!(deal.stock().len(), view.stock);
            if view.stock > 0 {
                assert_eq!(deal.stock()[0], view.trump_card);
            }
            legal_actions_into(&state, &mut legal);
            let a = players[p].act(&view, &legal).unwrap();
            apply(&mut state, p, a).unwrap();
        }
    }
}

/// No information leak: at every decision of real games, the acting seat's view (and what the
/// rules are given) is the same whatever the cards it has not seen, and the publicly known cards
/// really are in their hands. A view that showed an opponent's hidden card would differ between
/// the game and its reshuffled copy.
#[test]
fn a_seat_sees_nothing_it_should_not() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let mut legal = Vec::new();
    let (mut checked, mut differed, mut known_seen) = (0, 0, 0);
    for g in 0..40 {
        let options = GameOptions {
            players: 2 + (g % 3) as usize,
            ..GameOptions::default()
        };
        let mut state = GameState::new(&options, 100 + g).unwrap();
        let mut players: Vec<ReferencePlayer> = (0..options.players).map(|_| ReferencePlayer::default()).collect();
        while let Some(p) = state.to_act() {
            for q in 0..state.players() {
                assert!(
                    state.public_cards(q).bits() & !state.hand(q).bits() == 0,
                    "public cards of {q} not in hand"
                );
            }
            legal_actions_into(&state, &mut legal);
            let view = state.view(p);
            let swapped = state.with_unseen_reshuffled(p, &mut rng);
            differed += usize::from((0..state.players()).any(|q| swapped.hand(q) != state.hand(q)));
            assert_eq!(swapped.view(p), view, "game {g}: the view depends on unseen cards");
            assert_eq!(
                super::rules_ai::decision_inputs(&swapped.view(p), &legal),
                super::rules_ai::decision_inputs(&view, &legal)
            );
            known_seen += usize::from(view.known.iter().any(|k| !k.is_empty()));
            checked += 1;
            let a = players[p].act(&view, &legal).unwrap();
            apply(&mut state, p, a).unwrap();
        }
    }
    assert!(
        checked > 1000 && differed * 2 > checked && known_seen > 100,
        "{checked} {differed} {known_seen}"
    );
}

/// The playout policy only ever plays legal moves and games end.
#[test]
fn playouts_are_legal_and_end() {
    let mut legal = Vec::new();
    for g in 0..200 {
        let options = GameOptions {
            players: 2 + (g % 5) as usize,
            transfer: g % 2 == 0,
            ..GameOptions::default()
        };
        let mut state = GameState::new(&options, g).unwrap();
        while let Some(p) = state.to_act() {
            legal_actions_into(&state, &mut legal);
            let a = fast_action(&state, p);
            assert!(legal.contains(&a), "{a} not legal");
            apply(&mut state, p, a).unwrap();
        }
        assert_ne!(state.outcome(), Some(Outcome::Aborted));
    }
}

/// A won endgame's value is a win reached fastest: no legal first move wins sooner.
#[test]
fn wins_are_fastest_and_losses_slowest() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let budget = EndgameBudget {
        max_nodes: 10_000_000,
        table_entries: 1 << 12,
        line_len: 40,
    };
    let mut seen = 0;
    for _ in 0..200 {
        let Some(state) = small_endgame(&mut rng) else {
            continue;
        };
        let answer = solve(&state, 0, &budget);
        let children: Vec<i32> = legal_actions(&state)
            .into_iter()
            .map(|m| {
                let mut c = state.clone();
                apply(&mut c, 0, m).unwrap();
                let v = brute_force(&c, 0, 1);
                v - v.signum()
            })
            .collect();
        assert_eq!(children.iter().copied().max(), Some(answer.value));
        if answer.value != 0 {
            assert_eq!(answer.plies as i32, WIN - answer.value.abs());
            seen += 1;
        }
    }
    assert!(seen > 50);
}
