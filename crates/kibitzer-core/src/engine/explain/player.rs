//! The player's view of an answer: each conclusion in game terms with the reason that decided
//! it (the concluding rule's title and `because` text), and the alternatives a rule set ranked
//! beside it (`option(DECISION, RANK, CHOICE, SUMMARY, …)` facts, grouped under DECISION).

use super::Explainer;
use super::{ExplainLimits, Origin};
use crate::engine::memory::FactId;
use crate::engine::session::Conclusion;
use crate::lang::template::{card_symbols, cards_in_text};
use crate::value::Value;
use serde::Serialize;
use serde_json::Value as Json;

/// The output relation whose facts are alternatives to another answer, not answers of their own.
pub const OPTION_RELATION: &str = "option";

/// Where the player's view wraps a long line (continuation lines are indented).
const WIDTH: usize = 100;

/// One answer as a player reads it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Answer {
    /// The output relation.
    pub relation: String,
    /// The arguments as JSON: numbers as numbers, cards and tiles as strings (several cards as
    /// an array of them).
    pub args: Vec<Json>,
    /// The answer in game terms: `advice: bet big`.
    pub text: String,
    /// The fact as the full derivation writes it: `advice("bet big")`.
    #[serde(rename = "fact")]
    pub fact_text: String,
    /// The rule that concluded it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// That rule's title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Its `because` text, filled in: the deciding reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub because: Option<String>,
    /// The ranked alternatives for this decision, best first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<Choice>,
    /// The conclusion's fact (none for a decision known only by its options).
    #[serde(skip)]
    pub fact: Option<FactId>,
}

/// One ranked alternative of a decision.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Choice {
    /// 1 for the chosen one, 2 for the runner-up, ….
    pub rank: i64,
    /// The move in game terms, and as a value (`["2♣", "3♣"]` for several cards).
    pub choice: String,
    /// The same move as a JSON value.
    pub value: Json,
    /// Its numbers, in words.
    pub summary: String,
    /// Any further arguments of the `option` fact (numbers for programs).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<Json>,
}

impl Explainer<'_> {
    /// The last run's answers as a player reads them, options grouped under their decisions.
    pub fn answers(&self) -> Vec<Answer> {
        let mut answers = Vec::new();
        let mut options: Vec<(String, Choice)> = Vec::new();
        for c in self.session.conclusions() {
            match as_option(&c) {
                Some(o) => options.push(o),
                None => answers.push(self.answer(&c)),
            }
        }
        options.sort_by_key(|(_, o)| o.rank);
        for (decision, choice) in options {
            let at = match answers.iter().position(|a| a.relation == decision) {
                Some(i) => i,
                None => {
                    answers.push(Answer {
                        relation: decision.clone(),
                        args: Vec::new(),
                        text: format!("{decision}: the options"),
                        fact_text: String::new(),
                        rule: None,
                        title: None,
                        because: None,
                        options: Vec::new(),
                        fact: None,
                    });
                    answers.len() - 1
                }
            };
            answers[at].options.push(choice);
        }
        answers
    }

    fn answer(&self, c: &Conclusion) -> Answer {
        let args: Vec<String> = c.args.iter().map(display).collect();
        let text = match args.is_empty() {
            true => c.relation.clone(),
            false => format!("{}: {}", c.relation, args.join(", ")),
        };
        let mut a = Answer {
            relation: c.relation.clone(),
            args: c.args.iter().map(value_json).collect(),
            text,
            fact_text: self.fact_text(c.fact, ExplainLimits::default()),
            rule: None,
            title: None,
            because: None,
            options: Vec::new(),
            fact: Some(c.fact),
        };
        if let Origin::Firing(fi) = self.session.mem.fact(c.fact).origin {
            if let Some(f) = self.session.firing(fi) {
                let rule = &self.session.program().rules[f.rule as usize];
                let vars = self.session.firing_vars(f);
                a.rule = Some(rule.name.clone());
                a.title = rule.title.clone();
                a.because = rule
                    .because
                    .as_ref()
                    .map(|t| super::because_text(t, &vars, self.session.params()));
            }
        }
        a
    }
}

/// An `option(DECISION, RANK, CHOICE, SUMMARY, …)` conclusion, or `None` for any other.
fn as_option(c: &Conclusion) -> Option<(String, Choice)> {
    if c.relation != OPTION_RELATION || c.args.len() < 4 {
        return None;
    }
    let (Value::Str(decision), Value::Int(rank)) = (&c.args[0], &c.args[1]) else {
        return None;
    };
    Some((
        decision.to_string(),
        Choice {
            rank: *rank,
            choice: display(&c.args[2]),
            value: value_json(&c.args[2]),
            summary: display(&c.args[3]),
            extra: c.args[4..].iter().map(value_json).collect(),
        },
    ))
}

/// A value in game terms: text unquoted, cards with suit symbols, a list of cards as a hand, every
/// list whole.
pub fn display(v: &Value) -> String {
    match v {
        Value::Str(s) => cards_in_text(s),
        // Cards read as a hand, as a card group does: `9♠ 9♦`.
        Value::List(items) if !items.is_empty() && items.iter().all(|i| matches!(i, Value::Card(_))) => {
            items.iter().map(display).collect::<Vec<_>>().join(" ")
        }
        Value::List(items) => format!("[{}]", items.iter().map(display).collect::<Vec<_>>().join(", ")),
        other => super::show(other, ExplainLimits::default()),
    }
}

/// A value as JSON for programs: numbers as numbers, cards and tiles as strings, several cards
/// (a card group, or a game's text of several cards) as an array of them.
pub fn value_json(v: &Value) -> Json {
    match v {
        Value::Str(s) => match card_symbols(s) {
            Some(cards) if cards.contains(' ') => {
                Json::Array(cards.split(' ').map(|c| Json::String(c.into())).collect())
            }
            Some(card) => Json::String(card),
            None => Json::String(s.to_string()),
        },
        Value::List(items) => Json::Array(items.iter().map(value_json).collect()),
        other => other.to_json(),
    }
}

/// The player's view as text: per answer, its line, the reason, then its options by rank.
/// Answers one rule concluded together share their reason, given once after them.
pub fn render_answers(answers: &[Answer]) -> String {
    answer_texts(answers).concat()
}

/// Each answer's part of [`render_answers`], in order.
pub fn answer_texts(answers: &[Answer]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, a) in answers.iter().enumerate() {
        let shared = answers.get(i + 1).is_some_and(|next| {
            a.options.is_empty() && a.rule.is_some() && (&next.rule, &next.because) == (&a.rule, &a.because)
        });
        match shared {
            true => {
                let mut line = String::new();
                wrap(&a.text, "", "    ", &mut line);
                out.push(line);
            }
            false => out.push(render_answer(a)),
        }
    }
    out
}

/// One answer of the player's view (see [`render_answers`]).
pub fn render_answer(a: &Answer) -> String {
    let mut out = String::new();
    wrap(&a.text, "", "    ", &mut out);
    let reason = match (&a.title, &a.because) {
        (Some(t), Some(b)) => format!("{t} — {b}"),
        (Some(t), None) => t.clone(),
        (None, Some(b)) => b.clone(),
        (None, None) => String::new(),
    };
    if let Some(rule) = &a.rule {
        let line = match reason.is_empty() {
            true => format!("why: {rule}"),
            false => format!("why: {reason} ({rule})"),
        };
        wrap(&line, "  ", "      ", &mut out);
    }
    // The runner-up (rank 1 is the answer itself); the rest are counted, and all are in
    // `--explain full` and `--json`.
    let others: Vec<&Choice> = a.options.iter().filter(|o| o.rank > 1).collect();
    if let Some(o) = others.first() {
        let summary = o.summary.strip_prefix(&format!("{}: ", o.choice)).unwrap_or(&o.summary);
        let mut line = match summary.is_empty() {
            true => format!("runner-up: {}", o.choice),
            false => format!("runner-up: {} — {summary}", o.choice),
        };
        match others.len() {
            0 | 1 => {}
            2 => line.push_str(" (and 1 more option)"),
            n => line.push_str(&format!(" (and {} more options)", n - 1)),
        }
        wrap(&line, "  ", "      ", &mut out);
    }
    out
}

/// Appends `text` as lines of at most [`WIDTH`] characters, broken at spaces: the first line
/// after `first`, the others after `rest`. Nothing is cut.
pub(crate) fn wrap(text: &str, first: &str, rest: &str, out: &mut String) {
    let mut line = first.to_string();
    let mut empty = true;
    for word in text.split(' ') {
        let len = line.chars().count() + 1 + word.chars().count();
        if !empty && len > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = rest.to_string();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_wrap_without_losing_a_word() {
        let words: Vec<String> = (0..60).map(|i| format!("w{i}")).collect();
        let mut out = String::new();
        wrap(&words.join(" "), "", "    ", &mut out);
        assert!(out.lines().count() > 1);
        assert!(out.lines().all(|l| l.chars().count() <= WIDTH));
        let back: Vec<&str> = out.split_whitespace().collect();
        assert_eq!(back, words.iter().map(String::as_str).collect::<Vec<_>>());
    }

    #[test]
    fn cards_as_text_become_arrays_of_cards() {
        assert_eq!(value_json(&Value::str("2H 3H")), serde_json::json!(["2♥", "3♥"]));
        assert_eq!(value_json(&Value::str("KS")), serde_json::json!("K♠"));
        assert_eq!(value_json(&Value::str("5m")), serde_json::json!("5m"));
        assert_eq!(display(&Value::list([Value::str("1m"), Value::Int(2)])), "[1m, 2]");
    }

    #[test]
    fn a_list_of_cards_reads_as_a_hand() {
        let card = |t| Value::Card(crate::cards::parse_card(t).unwrap());
        let list = Value::list([card("9S"), card("9D")]);
        assert_eq!(display(&list), "9♠ 9♦");
        assert_eq!(display(&Value::list([])), "[]");
    }
}
