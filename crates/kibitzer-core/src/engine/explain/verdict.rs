//! *Why not* a move, from the decision's own verdicts: when a rule set ranks its candidates as
//! `option(DECISION, RANK, CHOICE, SUMMARY, …)` facts, the asked move's option is the answer —
//! its verdict and numbers beside the chosen move's, and the rule that decided. A move that is
//! not among the candidates is said to be so, with what the position shows about it.

use super::player::{display, wrap, Answer, Choice};
use super::Explainer;
use crate::lang::template::card_symbols;
use serde::Serialize;

/// How many lines a verdict takes at most, as text.
const MAX_LINES: usize = 6;

/// The answer to "why not MOVE?" drawn from a decision's ranked options.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct MoveVerdict {
    /// The move as asked.
    pub query: String,
    /// The decision it belongs to (the option facts' first argument).
    pub decision: String,
    /// How many candidates the rules weighed for that decision.
    pub weighed: usize,
    /// The asked move's option (none: it is not among the candidates).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub asked: Option<Choice>,
    /// The chosen move's option (rank 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chosen: Option<Choice>,
    /// The runner-up, when the asked move is the chosen one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runner_up: Option<Choice>,
    /// The rule that concluded the decision, with its title and `because` text: what decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<String>,
    /// For a move not among the candidates: what the position shows about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_weighed: Option<String>,
}

impl MoveVerdict {
    /// The verdict as at most six lines of text (without a final newline).
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let head = match (&self.asked, &self.not_weighed) {
            (Some(a), _) if a.rank == 1 => format!(
                "why not {}: it is the choice for {}: {}",
                self.query,
                self.decision,
                summary(a)
            ),
            (Some(a), _) => {
                // The move as the options write it, when that is not how it was asked.
                let named = match tokens(&a.choice) == tokens(&self.query) && a.choice == self.query {
                    true => String::new(),
                    false => format!("{} ", a.choice),
                };
                format!(
                    "why not {}: {named}ranks {} of {} for {}: {}",
                    self.query,
                    ordinal(a.rank),
                    self.weighed,
                    self.decision,
                    summary(a)
                )
            }
            (None, Some(why)) => format!("why not {}: {why}", self.query),
            (None, None) => format!(
                "why not {0}: {0} is not among the moves weighed for {1}",
                self.query, self.decision
            ),
        };
        wrap(&head, "", "    ", &mut out);
        let other = match &self.asked {
            Some(a) if a.rank == 1 => self.runner_up.as_ref().map(|r| ("runner-up", r)),
            _ => self.chosen.as_ref().map(|c| ("chosen", c)),
        };
        if let Some((label, c)) = other {
            wrap(
                &format!("{label}: {} — {}", c.choice, summary(c)),
                "  ",
                "      ",
                &mut out,
            );
        }
        if let Some(d) = self.decided_by.as_ref().filter(|_| self.asked.is_some()) {
            let mut line = String::new();
            wrap(&format!("decided by: {d}"), "  ", "      ", &mut line);
            if out.lines().count() + line.lines().count() <= MAX_LINES {
                out.push_str(&line);
            } else if let Some(short) = d.split(" — ").next().filter(|s| s.len() < d.len()) {
                // The title alone (and the rule's name) when its reason would run past six lines.
                let rule = d.rsplit_once(" (").map_or("", |(_, r)| r);
                let short = match rule.is_empty() {
                    true => short.to_string(),
                    false => format!("{short} ({rule}"),
                };
                wrap(&format!("decided by: {short}"), "  ", "      ", &mut out);
            }
        }
        let lines: Vec<&str> = out.lines().take(MAX_LINES).collect();
        lines.join("\n")
    }
}

/// An option's summary without the move repeated at its start.
fn summary(c: &Choice) -> &str {
    c.summary.strip_prefix(&format!("{}: ", c.choice)).unwrap_or(&c.summary)
}

fn ordinal(n: i64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// A move's words as a sorted list of canonical tokens: cards with suit symbols and `10`, ranks
/// `T` as `10`, everything lowercase; order and case do not matter.
fn tokens(s: &str) -> Vec<String> {
    let mut out: Vec<String> = s
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '[' | ']' | '"'))
        .filter(|t| !t.is_empty())
        .map(|t| {
            let t = card_symbols(&t.to_uppercase())
                .or_else(|| card_symbols(t))
                .unwrap_or_else(|| t.to_string());
            match t.as_str() {
                "T" | "t" => "10".to_string(),
                _ => t.to_lowercase(),
            }
        })
        .collect();
    out.sort();
    out
}

/// Whether `want`'s tokens are all in `have` (as a multiset).
fn holds(have: &[String], want: &[String]) -> bool {
    let mut have = have.to_vec();
    want.iter().all(|w| match have.iter().position(|h| h == w) {
        Some(i) => {
            have.swap_remove(i);
            true
        }
        None => false,
    })
}

impl Explainer<'_> {
    /// Why not the move `query`, from the decision's ranked `option` facts of the last run: the
    /// asked move's verdict beside the chosen one's, or, for a move no option names, that it was
    /// not among the candidates. `None` when no decision lists options, or `query` is no move
    /// (cards or tiles, or a word some rule could conclude: `concludable`).
    pub(crate) fn why_not_move(&self, query: &str, concludable: bool) -> Option<MoveVerdict> {
        let q = tokens(query);
        if q.is_empty() {
            return None;
        }
        let answers = self.answers();
        // Decisions the rules concluded, with their options (options alone decide nothing).
        let decisions: Vec<&Answer> = answers
            .iter()
            .filter(|a| !a.options.is_empty() && a.fact.is_some())
            .collect();
        if decisions.is_empty() {
            return None;
        }
        let verdict = |a: &Answer, asked: Option<&Choice>, not_weighed: Option<String>| MoveVerdict {
            query: query.trim().to_string(),
            decision: a.relation.clone(),
            weighed: a.options.len(),
            asked: asked.cloned(),
            chosen: a.options.iter().find(|o| o.rank == 1).cloned(),
            runner_up: asked
                .filter(|o| o.rank == 1)
                .and_then(|_| a.options.iter().filter(|o| o.rank > 1).min_by_key(|o| o.rank).cloned()),
            decided_by: decided_by(a),
            not_weighed,
        };
        // The move as an option's choice; then as the move an option's summary begins with
        // (`take Q♣, discard K♣: …` for `QC`).
        for a in &decisions {
            if let Some(o) = a.options.iter().find(|o| tokens(&o.choice) == q) {
                return Some(verdict(a, Some(o), None));
            }
        }
        for a in &decisions {
            let named = a.options.iter().find(|o| {
                let head = o.summary.split(':').next().unwrap_or("");
                holds(&tokens(head), &q) && !holds(&q, &tokens(&o.choice))
            });
            if let Some(o) = named {
                return Some(verdict(a, Some(o), None));
            }
        }
        // Not a candidate: a move made of cards or tiles, or a word some rule could conclude.
        if !(looks_like_cards(query) || concludable) {
            return None;
        }
        let a = decisions[0];
        let hand = self.first_input_tokens();
        let missing: Vec<&String> = {
            let mut have = hand.clone().unwrap_or_default();
            q.iter()
                .filter(|t| match have.iter().position(|h| h == *t) {
                    Some(i) => {
                        have.swap_remove(i);
                        false
                    }
                    None => true,
                })
                .collect()
        };
        let name = self
            .session
            .program()
            .inputs
            .first()
            .map_or("hand", |d| d.name.as_str());
        let weighed: Vec<String> = a.options.iter().take(8).map(|o| o.choice.clone()).collect();
        let more = match a.options.len() > weighed.len() {
            true => format!(", … ({} in all)", a.options.len()),
            false => String::new(),
        };
        let why = if hand.is_some() && looks_like_cards(query) && !missing.is_empty() {
            let shown: Vec<String> = missing.iter().map(|t| upper_tile(t)).collect();
            format!(
                "not a legal move for {}: there is no {} in `{name}`",
                a.relation,
                shown.join(" ")
            )
        } else {
            format!(
                "not among the moves the rules weighed for {}: {}{more}",
                a.relation,
                weighed.join(", ")
            )
        };
        Some(verdict(a, None, Some(why)))
    }

    /// The rule that concluded `decision`'s answer.
    pub(crate) fn deciding_rule(&self, decision: &str) -> Option<usize> {
        let answers = self.answers();
        let name = answers.iter().find(|a| a.relation == decision)?.rule.as_ref()?;
        self.session.program().rules.iter().position(|r| &r.name == name)
    }

    /// The first input's value as move tokens (the hand, in every shipped rule set), when given.
    fn first_input_tokens(&self) -> Option<Vec<String>> {
        Some(tokens(&display(self.session.input_value(0)?)))
    }
}

/// A token as a player writes it: `k♥` → `K♥`, `5m` stays.
fn upper_tile(t: &str) -> String {
    match t.chars().last() {
        Some('♠' | '♥' | '♦' | '♣') => t.to_uppercase(),
        _ if t.len() == 1 => t.to_uppercase(),
        _ => t.to_string(),
    }
}

/// Cards, tiles or ranks (`KH`, `A A A A`, `5m`, `E`), not a word.
fn looks_like_cards(q: &str) -> bool {
    let q = q.trim().trim_matches('"');
    card_symbols(&q.to_uppercase()).is_some()
        || q.split_whitespace().all(|t| {
            t.chars().count() <= 3
                && (t.chars().any(|c| c.is_ascii_digit()) || t.chars().all(|c| c.is_ascii_uppercase()))
        }) && !q.is_empty()
}

/// The decision's concluding rule as "title — because (Rule)".
fn decided_by(a: &Answer) -> Option<String> {
    let rule = a.rule.as_ref()?;
    let reason = match (&a.title, &a.because) {
        (Some(t), Some(b)) => format!("{t} — {b}"),
        (Some(t), None) => t.clone(),
        (None, Some(b)) => b.clone(),
        (None, None) => return Some(rule.clone()),
    };
    Some(format!("{reason} ({rule})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_compare_as_token_sets() {
        assert_eq!(tokens("8D 8C"), tokens("8c 8d"));
        assert_eq!(tokens("T T A"), tokens("A 10 10"));
        assert_eq!(tokens("[9♠]"), tokens("9S"));
        assert_ne!(tokens("A A A A"), tokens("3 3 T T A A A A"));
        assert!(holds(&tokens("3 3 T T A A A A"), &tokens("A A A A")));
        assert!(!holds(&tokens("3 A"), &tokens("A A")));
    }

    #[test]
    fn ordinals() {
        assert_eq!(ordinal(2), "2nd");
        assert_eq!(ordinal(11), "11th");
        assert_eq!(ordinal(23), "23rd");
    }

    #[test]
    fn cards_and_tiles_are_moves_words_are_not() {
        assert!(looks_like_cards("KH"));
        assert!(looks_like_cards("A A A A"));
        assert!(looks_like_cards("5m"));
        assert!(!looks_like_cards("pong"));
        assert!(!looks_like_cards(""));
    }
}
