//! Strategy helpers for the rule set: which card to discard, whether to take the discard-pile
//! card, and whether the hand can go out.
//!
//! Conventions (the rules of the game leave them open): a discard is judged by the minimum deadwood points
//! of the hand left, then its minimum deadwood cards, then the near melds its best arrangement
//! keeps (pairs and run draws among the deadwood, see [`NearMelds`]), then the card worth more
//! points, then card order. Taking the discard-pile card (and discarding the best *other* card,
//! never a copy of the card just taken) is advised when the card joins a meld, or makes a pair
//! or run draw that leaves more near melds than now, without raising the deadwood; or when it
//! lowers the deadwood points by more than a margin. A hand can go out when every card is
//! melded, or when one final discard leaves every other card melded (the common rummy rule).

use super::card::{format_cards, Card};
use super::error::RummyError;
use super::evaluate::evaluate;
use super::hand::Hand;
use super::incremental::HandState;
use super::meld::{card_points, Arrangement};
use super::options::Options;
use std::cmp::Reverse;

/// The hand left after discarding `card`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiscardOption {
    /// The card discarded.
    pub card: Card,
    /// Fewest deadwood cards the hand left can have.
    pub min_cards: u32,
    /// Fewest deadwood points the hand left can have.
    pub min_points: u32,
}

/// One entry per distinct card of the hand, in card order.
pub fn discard_options(hand: &Hand, options: &Options) -> Vec<DiscardOption> {
    let mut state = HandState::new(*hand, *options);
    options_of(&mut state, None)
}

fn options_of(state: &mut HandState, except: Option<Card>) -> Vec<DiscardOption> {
    let mut out = Vec::new();
    for card in state.hand().distinct() {
        if Some(card) == except || state.remove(card).is_err() {
            continue;
        }
        let v = state.value();
        out.push(DiscardOption {
            card,
            min_cards: v.min_cards(),
            min_points: v.min_points(),
        });
        // Putting back a card just removed cannot fail.
        let _ = state.add(card);
    }
    out
}

/// Two-card partial melds among the deadwood of an arrangement: a pair (one rank in two suits)
/// or a run draw (one suit, adjacent ranks; K-A too when the ace is high). Jokers and cards of
/// the wild rank are left out: they join anything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NearMelds {
    /// Pairs: one rank in two suits.
    pub pairs: Vec<[Card; 2]>,
    /// Run draws: two adjacent ranks of one suit.
    pub draws: Vec<[Card; 2]>,
}

impl NearMelds {
    /// The pairs and run draws among the cards of `dump`.
    pub fn of(dump: &[Card], options: &Options) -> NearMelds {
        // present[suit] = bit per rank held in the dump (copies count once).
        let mut present = [0u16; 4];
        for c in dump {
            if let (Some(r), Some(s)) = (c.rank(), c.suit()) {
                if options.wild_rank != Some(r) {
                    present[s as usize] |= 1 << r;
                }
            }
        }
        let mut near = NearMelds::default();
        for r in 0..13u8 {
            let suits: Vec<u8> = (0..4u8).filter(|&s| present[s as usize] & (1 << r) != 0).collect();
            if let (Some(&a), Some(&b)) = (suits.first(), suits.get(1)) {
                if let (Some(x), Some(y)) = (Card::new(r, a), Card::new(r, b)) {
                    near.pairs.push([x, y]);
                }
            }
        }
        for s in 0..4u8 {
            let held = present[s as usize];
            let mut links: Vec<(u8, u8)> = (0..12u8).map(|r| (r, r + 1)).collect();
            if options.ace_high {
                links.push((12, 0));
            }
            for (lo, hi) in links {
                if held & (1 << lo) != 0 && held & (1 << hi) != 0 {
                    if let (Some(x), Some(y)) = (Card::new(lo, s), Card::new(hi, s)) {
                        near.draws.push([x, y]);
                    }
                }
            }
        }
        near
    }

    /// The near melds of a hand's best arrangement (none when it is unknown within budget).
    pub fn of_hand(hand: &Hand, options: &Options) -> NearMelds {
        best_arrangement(hand, options)
            .map(|a| NearMelds::of(&a.dump, options))
            .unwrap_or_default()
    }

    /// Number of pairs and run draws.
    pub fn count(&self) -> u32 {
        (self.pairs.len() + self.draws.len()) as u32
    }

    /// Whether `card` is part of a pair or run draw.
    pub fn involves(&self, card: Card) -> bool {
        self.pairs.iter().chain(&self.draws).any(|p| p.contains(&card))
    }

    /// `KS KD pair, 5H 6H run draw`, or `no pair or run draw`.
    pub fn words(&self) -> String {
        let pairs = self.pairs.iter().map(|p| format!("{} pair", format_cards(p)));
        let draws = self.draws.iter().map(|p| format!("{} run draw", format_cards(p)));
        let all: Vec<String> = pairs.chain(draws).collect();
        if all.is_empty() {
            "no pair or run draw".to_string()
        } else {
            all.join(", ")
        }
    }
}

fn best_arrangement(hand: &Hand, options: &Options) -> Option<Arrangement> {
    evaluate(hand, options).min_points_arrangement()
}

/// A discard with what it leaves, ranked among the hand's discards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankedDiscard {
    /// The card and the deadwood it leaves.
    pub option: DiscardOption,
    /// Deadwood points of the card itself.
    pub value: u32,
    /// The near melds the hand left keeps; worked out only for discards tied on points and
    /// cards with another one (where they decide), else `None`.
    pub near: Option<NearMelds>,
}

impl RankedDiscard {
    fn near_count(&self) -> u32 {
        self.near.as_ref().map_or(0, NearMelds::count)
    }

    fn key(&self) -> (u32, u32, Reverse<u32>, Reverse<u32>, Card) {
        (
            self.option.min_points,
            self.option.min_cards,
            Reverse(self.near_count()),
            Reverse(self.value),
            self.option.card,
        )
    }
}

/// What separates two ranked discards, the first of the comparison order that differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decider {
    /// Fewer deadwood points left.
    Points,
    /// Fewer deadwood cards left.
    Cards,
    /// More near melds kept.
    NearMelds,
    /// The card worth more points goes.
    Value,
    /// Card order (the two discards are otherwise equal).
    Order,
}

impl Decider {
    /// The first criterion on which `a` and `b` differ.
    pub fn between(a: &RankedDiscard, b: &RankedDiscard) -> Decider {
        if a.option.min_points != b.option.min_points {
            Decider::Points
        } else if a.option.min_cards != b.option.min_cards {
            Decider::Cards
        } else if a.near_count() != b.near_count() {
            Decider::NearMelds
        } else if a.value != b.value {
            Decider::Value
        } else {
            Decider::Order
        }
    }

    /// The criterion in words, e.g. `deadwood points`.
    pub fn words(self) -> &'static str {
        match self {
            Decider::Points => "deadwood points",
            Decider::Cards => "deadwood cards",
            Decider::NearMelds => "near melds kept",
            Decider::Value => "the card worth more",
            Decider::Order => "card order",
        }
    }
}

/// Every discard but copies of `except`, best first: fewest deadwood points left, then fewest
/// cards, then most near melds kept, then the card worth more (it would cost more if it stayed),
/// then card order.
pub fn ranked_discards(hand: &Hand, options: &Options, except: Option<Card>) -> Vec<RankedDiscard> {
    let mut state = HandState::new(*hand, *options);
    let list = options_of(&mut state, except);
    let mut ranked: Vec<RankedDiscard> = list
        .iter()
        .map(|d| {
            let tied = list
                .iter()
                .any(|o| o.card != d.card && (o.min_points, o.min_cards) == (d.min_points, d.min_cards));
            let near = tied.then(|| {
                let mut rest = *hand;
                // Removing a card the hand holds cannot fail.
                let _ = rest.remove(d.card);
                NearMelds::of_hand(&rest, options)
            });
            RankedDiscard {
                option: *d,
                value: card_points(d.card, options),
                near,
            }
        })
        .collect();
    ranked.sort_by_key(RankedDiscard::key);
    ranked
}

/// The discard ranked first by [`ranked_discards`].
pub fn best_discard(hand: &Hand, options: &Options) -> Option<DiscardOption> {
    ranked_discards(hand, options, None).first().map(|d| d.option)
}

/// Why the discard-pile card is worth taking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakeReason {
    /// It joins a meld of the best arrangement.
    Melds,
    /// It makes a pair or run draw, leaving more near melds than now.
    NearMeld,
    /// It lowers the deadwood points by more than the margin.
    Saves,
}

/// What taking the discard-pile card would do, and the advice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakeAdvice {
    /// Whether taking the card is advised.
    pub take: bool,
    /// Why taking it is advised (`None` when it is not).
    pub reason: Option<TakeReason>,
    /// Minimum deadwood of the hand as it is.
    pub before_points: u32,
    /// Minimum deadwood cards of the hand as it is.
    pub before_cards: u32,
    /// Minimum deadwood after taking `top` and discarding `discard`.
    pub after_points: u32,
    /// Minimum deadwood cards after taking `top` and discarding `discard`.
    pub after_cards: u32,
    /// The card to discard after taking `top` (`None` when there is nothing else to discard).
    pub discard: Option<Card>,
    /// `top` is melded in the best arrangement after the swap (more copies of it than before).
    pub top_melds: bool,
    /// `top` is part of a pair or run draw among the deadwood after the swap.
    pub top_near: bool,
    /// Pairs and run draws among the deadwood as the hand is.
    pub near_before: u32,
    /// Pairs and run draws among the deadwood after the swap.
    pub near_after: u32,
    /// What `top` does, in words: `4H joins [2H 3H 4H]`, `9S makes 9S 9D pair`.
    pub uses: String,
}

/// Copies of `card` melded in the hand's best arrangement.
fn melded_copies(hand: &Hand, best: Option<&Arrangement>, card: Card) -> usize {
    let dumped = best.map_or(hand.count(card) as usize, |a| {
        a.dump.iter().filter(|&&c| c == card).count()
    });
    (hand.count(card) as usize).saturating_sub(dumped)
}

/// Take `top` when it joins a meld or makes a new near meld without raising the deadwood
/// points, or when it lowers them by more than `margin`; the discard after taking is the best
/// other card by [`ranked_discards`].
pub fn take_advice(hand: &Hand, top: Card, options: &Options, margin: u32) -> Result<TakeAdvice, RummyError> {
    let before = HandState::new(*hand, *options).value();
    let mut with = *hand;
    with.add(top)?;
    let best_now = best_arrangement(hand, options);
    let near_before = best_now.as_ref().map_or(0, |a| NearMelds::of(&a.dump, options).count());
    let mut advice = TakeAdvice {
        take: false,
        reason: None,
        before_points: before.min_points(),
        before_cards: before.min_cards(),
        after_points: before.min_points(),
        after_cards: before.min_cards(),
        discard: None,
        top_melds: false,
        top_near: false,
        near_before,
        near_after: near_before,
        uses: format!("{top} cannot be kept: nothing else to discard"),
    };
    let Some(first) = ranked_discards(&with, options, Some(top)).into_iter().next() else {
        return Ok(advice);
    };
    let mut rest = with;
    rest.remove(first.option.card)?;
    let best_after = best_arrangement(&rest, options);
    let near_after = best_after
        .as_ref()
        .map(|a| NearMelds::of(&a.dump, options))
        .unwrap_or_default();
    advice.discard = Some(first.option.card);
    advice.after_points = first.option.min_points;
    advice.after_cards = first.option.min_cards;
    advice.top_melds = melded_copies(&rest, best_after.as_ref(), top) > melded_copies(hand, best_now.as_ref(), top);
    advice.top_near = near_after.involves(top);
    advice.near_after = near_after.count();
    advice.uses = uses_words(
        top,
        best_after.as_ref(),
        &near_after,
        advice.top_melds,
        (hand, first.option.card),
        options,
    );
    let no_worse = advice.after_points <= advice.before_points;
    advice.reason = if advice.top_melds && no_worse {
        Some(TakeReason::Melds)
    } else if advice.top_near && advice.near_after > advice.near_before && no_worse {
        Some(TakeReason::NearMeld)
    } else if advice.before_points > advice.after_points.saturating_add(margin) {
        Some(TakeReason::Saves)
    } else {
        None
    };
    advice.take = advice.reason.is_some();
    Ok(advice)
}

/// What `top` does after the swap, in words. A claim about the hand ("makes no pair") is
/// checked against the hand's own cards: a pair or run draw `top` would make with a card of the
/// hand is named, with why it does not count after the swap (the discard breaks it, or its
/// partner stays melded).
fn uses_words(
    top: Card,
    best: Option<&Arrangement>,
    near: &NearMelds,
    melds: bool,
    (hand, discard): (&Hand, Card),
    options: &Options,
) -> String {
    if melds {
        if let Some(meld) = best.and_then(|a| a.melds.iter().find(|m| m.cards.contains(&top))) {
            return format!("{top} joins [{meld}]");
        }
    }
    let mine: Vec<String> = near
        .pairs
        .iter()
        .map(|p| format!("{} pair", format_cards(p)))
        .chain(near.draws.iter().map(|p| format!("{} run draw", format_cards(p))))
        .filter(|w| w.split(' ').any(|c| c == top.to_string()))
        .collect();
    if !mine.is_empty() {
        return format!("{top} makes {}", mine.join(", "));
    }
    let partners = partners_of(top, hand, options);
    if partners.is_empty() {
        let wild = hand
            .cards()
            .iter()
            .any(|c| c.is_joker() || c.rank() == options.wild_rank && c.rank().is_some());
        return match wild {
            false => format!("{top} melds with nothing and makes no pair or run draw"),
            true => format!("{top} makes no pair or run draw with a natural card of the hand"),
        };
    }
    let words = partners
        .iter()
        .map(|(c, pair)| match pair {
            true => format!("{} pair", format_cards(&[top, *c])),
            false => format!("{} run draw", format_cards(&[top, *c])),
        })
        .collect::<Vec<_>>()
        .join(", ");
    match partners.iter().any(|(c, _)| *c == discard) && hand.count(discard) == 1 {
        true => format!("{top} would make {words} with the hand, but the discard after taking it is {discard}"),
        false => format!("{top} would make {words} with the hand, but those cards stay melded"),
    }
}

/// The natural cards of `hand` that make a pair (true) or a run draw (false) with `top`, as
/// [`NearMelds`] counts them (the wild rank left out), each once.
fn partners_of(top: Card, hand: &Hand, options: &Options) -> Vec<(Card, bool)> {
    let (Some(tr), Some(ts)) = (top.rank(), top.suit()) else {
        return Vec::new();
    };
    if options.wild_rank == Some(tr) {
        return Vec::new();
    }
    let adjacent = |a: u8, b: u8| a.abs_diff(b) == 1 || options.ace_high && a.min(b) == 0 && a.max(b) == 12;
    hand.distinct()
        .into_iter()
        .filter_map(|c| {
            let (r, s) = (c.rank()?, c.suit()?);
            if options.wild_rank == Some(r) {
                return None;
            }
            match (r == tr && s != ts, s == ts && adjacent(r, tr)) {
                (true, _) => Some((c, true)),
                (_, true) => Some((c, false)),
                _ => None,
            }
        })
        .collect()
}

/// Whether (and how) the hand can go out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoOut {
    /// Every card can be melded as the hand stands.
    pub all_melded: bool,
    /// A card whose discard leaves every other card melded (the highest-points one).
    pub discard: Option<Card>,
}

impl GoOut {
    /// Whether the hand can go out now or after one discard.
    pub fn can_go_out(&self) -> bool {
        self.all_melded || self.discard.is_some()
    }
}

/// Whether the hand can go out as it stands, or by which discard.
pub fn go_out(hand: &Hand, options: &Options) -> GoOut {
    let mut state = HandState::new(*hand, *options);
    let all_melded = state.value().min_cards() == 0;
    let discard = options_of(&mut state, None)
        .into_iter()
        .filter(|d| d.min_cards == 0)
        .max_by_key(|d| (super::meld::card_points(d.card, options), std::cmp::Reverse(d.card)))
        .map(|d| d.card);
    GoOut { all_melded, discard }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discard_the_loose_high_card() {
        // 2H3H4H is a run, 5S5D5C a set; KD is loose: discarding it leaves deadwood 0.
        let hand = Hand::parse("2H 3H 4H 5S 5D 5C KD").unwrap();
        let best = best_discard(&hand, &Options::default()).unwrap();
        assert_eq!(best.card.to_string(), "KD");
        assert_eq!((best.min_cards, best.min_points), (0, 0));
        let out = go_out(&hand, &Options::default());
        assert!(!out.all_melded && out.can_go_out());
        assert_eq!(out.discard.map(|c| c.to_string()).as_deref(), Some("KD"));
    }

    #[test]
    fn take_a_card_that_completes_a_run() {
        let hand = Hand::parse("2H 3H 9S 9D KC").unwrap();
        let four_h = Card::new(3, 1).unwrap();
        let advice = take_advice(&hand, four_h, &Options::default(), 0).unwrap();
        assert!(advice.take);
        assert_eq!(advice.discard.map(|c| c.to_string()).as_deref(), Some("KC"));
        assert_eq!((advice.before_points, advice.after_points), (33, 18));
        // QC melds nothing and is worth as much as KC: no gain, leave it.
        let queen_c = Card::new(11, 3).unwrap();
        assert!(!take_advice(&hand, queen_c, &Options::default(), 0).unwrap().take);
        // 7C melds nothing either, but swapping it for KC lowers deadwood 33 -> 30.
        let seven_c = Card::new(6, 3).unwrap();
        assert_eq!(
            take_advice(&hand, seven_c, &Options::default(), 0)
                .unwrap()
                .after_points,
            30
        );
    }
    /// Each claim `take_advice` makes about the hand holds of the hand's own cards, on random
    /// hands: "makes no pair or run draw" only when no card of the hand pairs or draws with the
    /// card taken; "would make X pair" names a card the hand holds; "joins [meld]" a meld holding it.
    #[test]
    fn take_words_are_true_of_the_hand() {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(56);
        let deck: Vec<Card> = (0..52u8).filter_map(|i| Card::from_index(i).ok()).collect();
        let mut checked = [0usize; 3];
        for _ in 0..400 {
            let mut cards = deck.clone();
            cards.shuffle(&mut rng);
            let hand = Hand::from_cards(&cards[..7]).unwrap();
            let top = cards[7];
            let advice = take_advice(&hand, top, &Options::default(), 5).unwrap();
            let pairs_or_draws = partners_of(top, &hand, &Options::default());
            let w = &advice.uses;
            if w.contains("makes no pair or run draw") {
                checked[0] += 1;
                assert!(pairs_or_draws.is_empty(), "{hand:?} + {top}: {w}");
            } else if w.contains(" would make ") {
                checked[1] += 1;
                assert!(!pairs_or_draws.is_empty(), "{w}");
                for (c, _) in &pairs_or_draws {
                    assert!(hand.count(*c) > 0 && w.contains(&c.to_string()), "{w}");
                }
            } else if w.contains(" joins [") {
                checked[2] += 1;
                let meld = w.split(" joins [").nth(1).unwrap_or("");
                assert!(meld.contains(&top.to_string()), "{w}");
            }
        }
        assert!(
            checked.iter().all(|&n| n > 0),
            "every kind of sentence met: {checked:?}"
        );
    }

    #[test]
    fn a_king_taken_to_throw_the_other_king_is_not_said_to_pair_nothing() {
        // Taking KD then throwing KH (the most points) leaves KD alone: the words say why.
        let hand = Hand::parse("KH 2S 3S 4S 7C 8C 9C").unwrap();
        let king_d = Card::new(12, 2).unwrap();
        let advice = take_advice(&hand, king_d, &Options::default(), 5).unwrap();
        assert!(!advice.uses.contains("no pair"), "{}", advice.uses);
    }

    #[test]
    fn a_tie_on_deadwood_goes_to_the_discard_keeping_near_melds() {
        // KS and QH both leave 31 points in 4 cards; without QH the KS KD pair stays.
        let hand = Hand::parse("5H 6H 7H 7S 7D 2C 3C 4C KS KD QH").unwrap();
        let ranked = ranked_discards(&hand, &Options::default(), None);
        let (first, second) = (&ranked[0], &ranked[1]);
        assert_eq!(first.option.card.to_string(), "QH");
        assert_eq!((first.option.min_cards, first.option.min_points), (4, 31));
        assert_eq!((second.option.min_cards, second.option.min_points), (4, 31));
        assert_eq!(Decider::between(first, second), Decider::NearMelds);
        assert_eq!(
            first.near.as_ref().map(NearMelds::words).as_deref(),
            Some("KS KD pair, 5H 6H run draw")
        );
    }

    #[test]
    fn a_card_that_melds_with_nothing_and_saves_a_point_is_left() {
        let hand = Hand::parse("5H 6H 7S 7D 2C 3C 4C KS KD QH").unwrap();
        let nine_s = Card::new(8, 0).unwrap();
        let advice = take_advice(&hand, nine_s, &Options::default(), 5).unwrap();
        assert!(!advice.take && advice.reason.is_none());
        assert!(!advice.top_melds && !advice.top_near);
        assert_eq!((advice.before_points, advice.after_points), (55, 54));
        assert_eq!((advice.near_before, advice.near_after), (3, 3));
        // A margin of 0 takes it for the point it saves.
        assert_eq!(
            take_advice(&hand, nine_s, &Options::default(), 0).unwrap().reason,
            Some(TakeReason::Saves)
        );
        // The eight of spades makes a 7S 8S run draw: four near melds instead of three.
        let eight_s = Card::new(7, 0).unwrap();
        let advice = take_advice(&hand, eight_s, &Options::default(), 5).unwrap();
        assert_eq!(advice.reason, Some(TakeReason::NearMeld), "{advice:?}");
        // The four of hearts joins 5H 6H.
        let four_h = Card::new(3, 1).unwrap();
        let advice = take_advice(&hand, four_h, &Options::default(), 5).unwrap();
        assert_eq!(advice.reason, Some(TakeReason::Melds));
        assert_eq!(advice.uses, "4H joins [4H 5H 6H]");
    }
}
