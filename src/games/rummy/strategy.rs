//! Strategy helpers for the rule set: which card to discard, whether to take the discard-pile
//! card, and whether the hand can go out.
//!
//! Conventions (the spec leaves them open): a discard is judged by the minimum deadwood points
//! of the hand left (then its minimum deadwood cards, then the card worth more points, then
//! card order); taking the discard-pile
//! card is advised when, after taking it and discarding the best *other* card (never a copy of
//! the card just taken), the minimum deadwood points are strictly lower than now; a hand can go
//! out when every card is melded, or when one final discard leaves every other card melded (the
//! common rummy rule).

use super::card::Card;
use super::error::RummyError;
use super::hand::Hand;
use super::incremental::HandState;
use super::options::Options;

/// The hand left after discarding `card`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiscardOption {
    pub card: Card,
    pub min_cards: u32,
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

/// Fewest deadwood points left, then fewest cards, then the card worth more (it would cost
/// more if it stayed), then card order.
fn best_of(list: &[DiscardOption], options: &Options) -> Option<DiscardOption> {
    list.iter()
        .min_by_key(|d| {
            (
                d.min_points,
                d.min_cards,
                std::cmp::Reverse(super::meld::card_points(d.card, options)),
                d.card,
            )
        })
        .copied()
}

/// The discard leaving the fewest deadwood points (then cards, then the card worth more, then
/// card order).
pub fn best_discard(hand: &Hand, options: &Options) -> Option<DiscardOption> {
    best_of(&discard_options(hand, options), options)
}

/// Whether to take the discard-pile card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TakeAdvice {
    pub take: bool,
    /// Minimum deadwood of the hand as it is.
    pub before_points: u32,
    pub before_cards: u32,
    /// Minimum deadwood after taking `top` and discarding `discard`.
    pub after_points: u32,
    pub after_cards: u32,
    pub discard: Option<Card>,
}

pub fn take_advice(hand: &Hand, top: Card, options: &Options) -> Result<TakeAdvice, RummyError> {
    let mut state = HandState::new(*hand, *options);
    let before = state.value();
    state.add(top)?;
    let best = best_of(&options_of(&mut state, Some(top)), options);
    let (after_points, after_cards, discard) = match best {
        Some(d) => (d.min_points, d.min_cards, Some(d.card)),
        None => (before.min_points(), before.min_cards(), None),
    };
    Ok(TakeAdvice {
        take: after_points < before.min_points(),
        before_points: before.min_points(),
        before_cards: before.min_cards(),
        after_points,
        after_cards,
        discard,
    })
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
    pub fn can_go_out(&self) -> bool {
        self.all_melded || self.discard.is_some()
    }
}

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
        let advice = take_advice(&hand, four_h, &Options::default()).unwrap();
        assert!(advice.take);
        assert_eq!(advice.discard.map(|c| c.to_string()).as_deref(), Some("KC"));
        assert_eq!((advice.before_points, advice.after_points), (33, 18));
        // QC melds nothing and is worth as much as KC: no gain, leave it.
        let queen_c = Card::new(11, 3).unwrap();
        assert!(!take_advice(&hand, queen_c, &Options::default()).unwrap().take);
        // 7C melds nothing either, but swapping it for KC lowers deadwood 33 -> 30.
        let seven_c = Card::new(6, 3).unwrap();
        assert_eq!(
            take_advice(&hand, seven_c, &Options::default()).unwrap().after_points,
            30
        );
    }
}
