//! *Why not*: for a rule (by name or title) or for a move a rule could have concluded, the
//! condition that decided against it, with its numbers. A rule that was a candidate and lost
//! when its turn came is judged as of that moment (the session records the failed check), not
//! against the final memory, where a fact asserted afterwards would take the blame.

use super::verdict::MoveVerdict;
use super::Explainer;
use super::{show, ExplainLimits, LINE_LIMITS};
use crate::engine::memory::{FactId, Origin};
use crate::engine::program::*;
use crate::engine::session::{DropRecord, Ending, RunError, Session, TraceEvent};
use crate::engine::wording::{failed_condition, FailedCondition};
use crate::lang::template::card_symbols;
use crate::value::Value;
use serde::Serialize;
use std::fmt::Write as _;

/// Why a rule did not fire.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct WhyNot {
    /// The rule's name.
    pub rule: String,
    /// Its title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// How often it fired (a why-not of a rule that fired says so).
    pub fired: u64,
    /// The answer in one line.
    pub summary: String,
    /// How many conditions, in the order written, the best partial match satisfied.
    pub matched_conditions: usize,
    /// The condition that decided against it, when one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed: Option<FailedCondition>,
    /// The bindings of the best partial match (or of the activation that lost), `name = value`.
    pub bindings: Vec<String>,
    /// For a move: the decision's own verdict on it (its option beside the chosen one); `rule`
    /// is then the rule that concluded the decision.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<MoveVerdict>,
}

/// A why-not question that names nothing in the rule set, or a run that failed answering it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WhyNotError {
    /// Nothing in the rule set matches the question.
    #[error("no rule, rule title or concludable move matches `{query}`{}", did_you_mean(.suggestions))]
    Unknown {
        /// The question as asked.
        query: String,
        /// The closest rule names and titles.
        suggestions: Vec<String>,
    },
    /// The run the answer needs failed.
    #[error(transparent)]
    Run(#[from] RunError),
}

fn did_you_mean(s: &[String]) -> String {
    match s.is_empty() {
        true => String::new(),
        false => format!(
            "; did you mean {}?",
            s.iter().map(|x| format!("`{x}`")).collect::<Vec<_>>().join(", ")
        ),
    }
}

impl WhyNot {
    /// People's form.
    pub fn to_text(&self) -> String {
        if let Some(v) = &self.verdict {
            return v.to_text();
        }
        let mut s = self.summary.clone();
        if let Some(f) = &self.failed {
            let _ = write!(s, "\n  at {}", f.location);
            if !self.bindings.is_empty() {
                let _ = write!(s, "\n  with {}", self.bindings.join(", "));
            }
        }
        s
    }
}

impl Explainer<'_> {
    /// Why a rule (named case-insensitively) did not fire, or how often it did.
    pub fn why_not(&mut self, rule_name: &str) -> Result<WhyNot, RunError> {
        let prog = self.session.program().clone();
        let ri = prog
            .rule_index(rule_name)
            .or_else(|| prog.rules.iter().position(|r| r.name.eq_ignore_ascii_case(rule_name)))
            .ok_or_else(|| RunError::UnknownRule(rule_name.to_string()))?;
        self.why_not_rule(ri)
    }

    /// Why not, as a player asks it: a rule's name or title, or a move or answer some rule could
    /// conclude (`pong`, `KS`, `discard(5m)`). A move among a decision's ranked options (or a
    /// move that is not, where a decision lists them) is answered by the decision's own verdict
    /// ([`MoveVerdict`]); otherwise each rule the question names is explained.
    pub fn why_not_query(&mut self, query: &str) -> Result<Vec<WhyNot>, WhyNotError> {
        self.why_not_query_with(query, false)
    }

    /// As [`Explainer::why_not_query`]; with `rule_level`, a move's verdict is followed by the
    /// why-not of each rule that could have concluded it.
    pub fn why_not_query_with(&mut self, query: &str, rule_level: bool) -> Result<Vec<WhyNot>, WhyNotError> {
        let prog = self.session.program().clone();
        let q = query.trim();
        // A rule's name first; then a move among the options (stud's advice `bet big` is also a
        // rule's title); then a title; then a move that is not among the options.
        let by_name: Vec<usize> = prog
            .rules
            .iter()
            .position(|r| r.name.eq_ignore_ascii_case(q))
            .into_iter()
            .collect();
        let named = match by_name.is_empty() {
            true => named_rules(&prog, q),
            false => by_name.clone(),
        };
        let rules = match named.is_empty() {
            true => resolve(self.session, &prog, q),
            false => named.clone(),
        };
        let verdict = match by_name.is_empty() {
            true => self
                .why_not_move(q, !rules.is_empty())
                .filter(|v| named.is_empty() || v.asked.is_some()),
            false => None,
        };
        if let Some(v) = verdict {
            let rule = self.deciding_rule(&v.decision);
            let mut out = vec![WhyNot {
                rule: rule.map_or_else(String::new, |i| prog.rules[i].name.clone()),
                title: rule.and_then(|i| prog.rules[i].title.clone()),
                fired: rule.map_or(0, |i| self.session.fired_count(i)),
                summary: v.to_text(),
                matched_conditions: 0,
                failed: None,
                bindings: Vec::new(),
                verdict: Some(v),
            }];
            if rule_level {
                for ri in rules {
                    out.push(self.why_not_rule(ri)?);
                }
            }
            return Ok(out);
        }
        if rules.is_empty() {
            return Err(WhyNotError::Unknown {
                query: q.to_string(),
                suggestions: suggestions(&prog, q),
            });
        }
        let mut out = Vec::new();
        for ri in rules {
            out.push(self.why_not_rule(ri)?);
        }
        Ok(out)
    }

    fn why_not_rule(&mut self, ri: usize) -> Result<WhyNot, RunError> {
        self.why_not_rule_at(ri, true)
    }

    /// `why_not_rule`; with `follow`, a condition that failed for want of any fact of
    /// its relation is followed one level, to the rule that would have asserted one.
    fn why_not_rule_at(&mut self, ri: usize, follow: bool) -> Result<WhyNot, RunError> {
        // Under the deadline of the run it asks about: past it, the rule is left undecided.
        let _deadline = crate::budget::with_deadline_at(self.session.deadline);
        let prog = self.session.program().clone();
        let rule = &prog.rules[ri];
        let name = &rule.name;
        let fired = self.session.fired_count(ri);
        let lost = self
            .session
            .drops
            .iter()
            .filter(|d| d.rule as usize == ri)
            .max_by_key(|d| d.seq)
            .cloned();
        if let (
            0,
            Some(DropRecord {
                group: Some(chosen),
                vars,
                mask,
                ..
            }),
        ) = (fired, &lost)
        {
            return Ok(WhyNot {
                rule: name.clone(),
                title: rule.title.clone(),
                fired,
                summary: self.session.group_reason(ri as u32, *chosen, name),
                matched_conditions: rule.conds.len(),
                failed: None,
                bindings: bindings(rule, vars, *mask),
                verdict: None,
            });
        }
        if let (0, Some(d)) = (fired, &lost) {
            let failed = d.cond.map(|c| {
                failed_condition(
                    &prog,
                    &self.session.mem,
                    rule,
                    c as usize,
                    (&d.vars, d.mask),
                    self.session.params(),
                )
            });
            let summary = match &failed {
                Some(f) => format!(
                    "{name} was a candidate but lost when its turn came: condition {} `{}` failed: {}",
                    f.index, f.condition, f.reason
                ),
                None => format!("{name} was a candidate but lost when its turn came"),
            };
            return Ok(WhyNot {
                rule: name.clone(),
                title: rule.title.clone(),
                fired,
                summary,
                matched_conditions: failed.as_ref().map_or(rule.conds.len(), |f| f.index - 1),
                failed,
                bindings: bindings(rule, &d.vars, d.mask),
                verdict: None,
            });
        }
        let probed = self.session.probe_rule(ri, &mut self.whatif, &mut self.memo);
        let (complete, deepest) = match probed {
            Err(RunError::Budget(stop)) => {
                return Ok(WhyNot {
                    rule: name.clone(),
                    title: rule.title.clone(),
                    fired,
                    summary: match fired {
                        0 => format!("{name} did not fire; why is not known: the search stopped ({stop})"),
                        _ => format!("{name} fired {fired} time(s)"),
                    },
                    matched_conditions: 0,
                    failed: None,
                    bindings: Vec::new(),
                    verdict: None,
                })
            }
            probed => probed?,
        };
        // Its group decided before it matched: its rules match nothing more once one fired.
        let decided = rule
            .group
            .and_then(|g| self.session.chosen.get(g as usize).copied().flatten());
        if let (0, true, Some(chosen)) = (fired, complete, decided) {
            let (vars, mask) = deepest.map(|(_, v, m)| (v, m)).unwrap_or_default();
            return Ok(WhyNot {
                rule: name.clone(),
                title: rule.title.clone(),
                fired,
                summary: self.session.group_reason(ri as u32, chosen, name),
                matched_conditions: rule.conds.len(),
                failed: None,
                bindings: bindings(rule, &vars, mask),
                verdict: None,
            });
        }
        let (failed_at, vars, mask) = match (deepest, complete) {
            (_, true) => (None, Vec::new(), 0),
            (Some((step, vars, mask)), false) => (Some(step), vars, mask),
            (None, false) => (Some(0), Vec::new(), 0),
        };
        let failed = failed_at
            .filter(|&i| i < rule.conds.len() && fired == 0)
            .map(|i| failed_condition(&prog, &self.session.mem, rule, i, (&vars, mask), self.session.params()));
        let summary = if fired > 0 {
            format!("{name} fired {fired} time(s){}", self.gone_conclusions(ri))
        } else if complete {
            format!("{name} did not fire, but all its conditions hold now (an activation was dropped when selected, or the run halted)")
        } else if let Some(f) = &failed {
            let producer = match follow {
                true => self.missing_fact_producer(ri, f.index - 1)?,
                false => String::new(),
            };
            format!(
                "{name} did not fire: condition {} `{}` fails: {}{producer}",
                f.index, f.condition, f.reason
            )
        } else {
            format!("{name} did not fire")
        };
        Ok(WhyNot {
            rule: name.clone(),
            title: rule.title.clone(),
            fired,
            summary,
            matched_conditions: failed_at.unwrap_or(rule.conds.len()),
            failed,
            bindings: match fired {
                0 => bindings(rule, &vars, mask),
                _ => Vec::new(),
            },
            verdict: None,
        })
    }

    /// For condition `ci` of rule `ri`, a pattern on a relation with no fact at all: the rule that
    /// would have asserted one and why it did not fire, as `; `equity` comes from Equity, which did
    /// not fire: …` (empty when the relation is an input's, or some rule asserting it fired).
    fn missing_fact_producer(&mut self, ri: usize, ci: usize) -> Result<String, RunError> {
        let prog = self.session.program().clone();
        let Some(Cond::Pattern { rel, .. }) = prog.rules[ri].conds.get(ci).map(|at| &at.cond) else {
            return Ok(String::new());
        };
        if self
            .session
            .mem
            .of_relation(*rel)
            .iter()
            .any(|f| self.session.mem.is_alive(*f))
        {
            return Ok(String::new());
        }
        let producers: Vec<usize> = (0..prog.rules.len())
            .filter(|&p| {
                p != ri
                    && prog.rules[p]
                        .actions
                        .iter()
                        .any(|a| matches!(a, Action::Assert { rel: r, .. } if r == rel))
            })
            .collect();
        if producers.is_empty() || producers.iter().any(|&p| self.session.fired_count(p) > 0) {
            return Ok(String::new());
        }
        let why = self.why_not_rule_at(producers[0], false)?;
        let others = match producers.len() {
            1 => String::new(),
            n => format!(" (one of {n} rules that assert it)"),
        };
        let name = &prog.relations[*rel as usize].name;
        let said = why
            .summary
            .strip_prefix(&format!("{} ", why.rule))
            .unwrap_or(&why.summary)
            .to_string();
        Ok(format!("; `{name}` comes from {}{others}, which {said}", why.rule))
    }

    /// What became of the facts rule `ri` asserted that are no longer there, as `; left(3) was
    /// withdrawn at firing 6 (Play): …` (empty when none went, or none were recorded).
    fn gone_conclusions(&self, ri: usize) -> String {
        let prog = self.session.program();
        let mut out = String::new();
        for id in 0..self.session.mem.made() as FactId {
            let f = self.session.mem.fact(id);
            let Origin::Firing(by) = f.origin else { continue };
            if f.alive || self.session.firing(by).is_none_or(|fr| fr.rule as usize != ri) {
                continue;
            }
            let Some(&(at, how)) = self.session.ended.get(&id) else {
                continue;
            };
            let who = self
                .session
                .firing(at)
                .map(|fr| prog.rules[fr.rule as usize].name.as_str())
                .unwrap_or("?");
            let text = self.fact_text(id, ExplainLimits::default());
            let n = at + 1;
            let _ = match how {
                Ending::Retracted => write!(out, "; {text} was retracted by {who} (firing {n})"),
                Ending::Modified(Some(new)) => {
                    let new = self.fact_text(new, ExplainLimits::default());
                    write!(out, "; {text} was modified into {new} by {who} (firing {n})")
                }
                Ending::Modified(None) => write!(out, "; {text} was modified by {who} (firing {n})"),
                Ending::Withdrawn => write!(
                    out,
                    "; {text} was withdrawn when {who} (firing {n}) ended the match that asserted it"
                ),
            };
        }
        out
    }

    /// The trace of the last run as lines of text (run with `RunOptions::trace`).
    pub fn trace_text(&self) -> Vec<String> {
        let prog = self.session.program().clone();
        let limits = ExplainLimits {
            list_items: 6,
            ..LINE_LIMITS
        };
        let mut out = Vec::new();
        let mut n = 0;
        for ev in self.session.trace() {
            match ev {
                TraceEvent::Fired { firing } => {
                    n += 1;
                    let Some(f) = self.session.firing(*firing) else {
                        continue;
                    };
                    let rule = &prog.rules[f.rule as usize];
                    let (vars, mask) = self.session.firing_bindings(f);
                    let b: Vec<String> = rule
                        .var_names
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| mask & (1u64 << i) != 0)
                        .map(|(i, name)| format!("{name}={}", show(&vars[i], limits)))
                        .collect();
                    out.push(format!(
                        "FIRE {n:>4} {} (salience {}): {}",
                        rule.name,
                        rule.salience,
                        b.join(" ")
                    ));
                }
                TraceEvent::Dropped { rule, reason } => {
                    out.push(format!("DROP      {}: {reason}", prog.rules[*rule as usize].name));
                }
                TraceEvent::Retracted { fact, .. } => {
                    out.push(format!("RETRACT   {}", self.fact_text(*fact, limits)));
                }
                TraceEvent::Withdrawn { fact, .. } => {
                    let f = self.fact_text(*fact, limits);
                    out.push(format!("WITHDRAW  {f}: no match that asserted it holds now"));
                }
                TraceEvent::Modified { old, new, .. } => {
                    let now = match new {
                        Some(f) => self.fact_text(*f, limits),
                        None => "(a fact already there)".to_string(),
                    };
                    out.push(format!("MODIFY    {} → {now}", self.fact_text(*old, limits)));
                }
            }
        }
        out
    }
}

fn bindings(rule: &RuleIr, vars: &[Value], mask: u64) -> Vec<String> {
    rule.var_names
        .iter()
        .enumerate()
        .filter(|(i, _)| *i < 64 && mask & (1u64 << i) != 0 && *i < vars.len())
        .map(|(i, n)| {
            format!(
                "{} = {}",
                n.trim_start_matches('?'),
                show(&vars[i], ExplainLimits::default())
            )
        })
        .collect()
}

/// The rules a why-not question names by name, else by title.
fn named_rules(prog: &Program, q: &str) -> Vec<usize> {
    let lower = q.to_lowercase();
    if let Some(i) = prog.rules.iter().position(|r| r.name.eq_ignore_ascii_case(q)) {
        return vec![i];
    }
    (0..prog.rules.len())
        .filter(|&i| prog.rules[i].title.as_ref().is_some_and(|t| t.to_lowercase() == lower))
        .collect()
}

/// The rules a why-not question names as a move: by a move their conclusion could make, then
/// by a title containing it.
fn resolve(s: &Session, prog: &Program, q: &str) -> Vec<usize> {
    let lower = q.to_lowercase();
    let moves = by_move(s, prog, q);
    if !moves.is_empty() {
        return moves;
    }
    (0..prog.rules.len())
        .filter(|&i| {
            prog.rules[i]
                .title
                .as_ref()
                .is_some_and(|t| !lower.is_empty() && t.to_lowercase().contains(&lower))
        })
        .collect()
}

/// A move in game terms, for comparing: lowercase, cards with suit symbols, no quotes.
fn norm(s: &str) -> String {
    let s = s.trim().trim_matches('"').trim();
    card_symbols(&s.to_uppercase())
        .or_else(|| card_symbols(s))
        .unwrap_or_else(|| s.to_string())
        .to_lowercase()
}

/// The rules whose conclusion could be the move `q`: `rel(args)` or `rel` names the relation
/// (its arguments, when given, compared with the rule's literal ones); a bare value matches a
/// literal argument of a rule's conclusion, else any rule that concludes an answer with a
/// variable there (the value would be bound by the match).
fn by_move(s: &Session, prog: &Program, q: &str) -> Vec<usize> {
    let (rel, args): (Option<&str>, Vec<String>) = match q.split_once('(') {
        Some((r, rest)) if rest.trim_end().ends_with(')') => {
            let inner = rest.trim_end().trim_end_matches(')');
            let args = inner.split(',').map(norm).filter(|a| !a.is_empty()).collect();
            (Some(r.trim()), args)
        }
        _ => (None, vec![norm(q)]),
    };
    let is_rel = |name: &str| {
        rel.is_some_and(|r| r.eq_ignore_ascii_case(name)) || (rel.is_none() && name.eq_ignore_ascii_case(q))
    };
    let mut literal = Vec::new();
    let mut could = Vec::new();
    for (i, rule) in prog.rules.iter().enumerate() {
        for action in &rule.actions {
            let Action::Assert { rel: r, args: head, .. } = action else {
                continue;
            };
            let rname = &prog.relations[*r as usize].name;
            let output = prog.outputs.contains(r);
            if rel.is_some() && !is_rel(rname) {
                continue;
            }
            if rel.is_none() && is_rel(rname) {
                literal.push(i);
                continue;
            }
            let lits: Vec<String> = head
                .iter()
                .filter_map(|e| match e {
                    Expr::Const(v) => Some(norm(&v.pretty())),
                    _ => None,
                })
                .collect();
            let has_var = head.iter().any(|e| !matches!(e, Expr::Const(_)));
            if !args.is_empty() && args.iter().all(|a| lits.contains(a) || would_bind(s, rule, head, a)) {
                literal.push(i);
            } else if (output || rel.is_some()) && has_var && (rel.is_some() || looks_like_move(q)) {
                could.push(i);
            } else if rel.is_some() && args.is_empty() {
                literal.push(i);
            }
        }
    }
    let mut out = if literal.is_empty() { could } else { literal };
    if out.is_empty() && rel.is_none() {
        out = by_mention(prog, &norm(q));
    }
    out.dedup();
    out
}

/// A word the rule file uses for a move (`pong` in "makes no pong"): the rules that conclude a
/// relation some mentioning rule concludes, with a variable where the move would go.
fn by_mention(prog: &Program, word: &str) -> Vec<usize> {
    let mentions = |text: &str| {
        let text = text.to_lowercase();
        text.match_indices(word).any(|(i, _)| {
            let before = text[..i].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
            let after = text[i + word.len()..]
                .chars()
                .next()
                .is_none_or(|c| !c.is_alphanumeric());
            before && after
        })
    };
    let heads = |rule: &RuleIr| -> Vec<(RelId, bool)> {
        rule.actions
            .iter()
            .filter_map(|a| match a {
                Action::Assert { rel, args, .. } => Some((*rel, args.iter().any(|e| !matches!(e, Expr::Const(_))))),
                _ => None,
            })
            .collect()
    };
    if word.is_empty() {
        return Vec::new();
    }
    let rels: Vec<RelId> = prog
        .rules
        .iter()
        .filter(|r| mentions(prog.sources.text(r.span)))
        .flat_map(|r| heads(r).into_iter().map(|(rel, _)| rel))
        .filter(|rel| prog.outputs.contains(rel))
        .collect();
    (0..prog.rules.len())
        .filter(|&i| {
            heads(&prog.rules[i])
                .iter()
                .any(|(rel, var)| *var && rels.contains(rel))
        })
        .collect()
}

/// Whether a variable of the rule's conclusion could hold `want`: some live fact a pattern of
/// the rule binds that variable from holds it there.
fn would_bind(s: &Session, rule: &RuleIr, head: &[Expr], want: &str) -> bool {
    head.iter().any(|e| {
        let Expr::Var(slot) = e else { return false };
        rule.conds.iter().any(|at| {
            let Cond::Pattern { rel, args } = &at.cond else {
                return false;
            };
            args.iter().enumerate().any(|(p, a)| {
                matches!(a, PatArg::Var(v) if v == slot)
                    && s.mem.of_relation(*rel).iter().any(|&f| {
                        s.mem.is_alive(f)
                            && s.mem
                                .args_of(f)
                                .get(p)
                                .is_some_and(|v| norm(&super::display(v)) == want)
                    })
            })
        })
    })
}

/// A bare value a variable could hold: cards or tiles (`KS`, `T T T T`, `5m`), not a word.
fn looks_like_move(q: &str) -> bool {
    card_symbols(&q.to_uppercase()).is_some()
        || q.split_whitespace()
            .all(|t| t.len() <= 3 && t.chars().any(|c| c.is_ascii_digit() || c.is_ascii_uppercase()))
}

/// The closest rule names and titles to an unknown name.
fn suggestions(prog: &Program, q: &str) -> Vec<String> {
    let q = q.to_lowercase();
    let mut names: Vec<(usize, String)> = Vec::new();
    for r in &prog.rules {
        names.push((distance(&q, &r.name.to_lowercase()), r.name.clone()));
        if let Some(t) = &r.title {
            names.push((distance(&q, &t.to_lowercase()), t.clone()));
        }
    }
    names.sort();
    names.dedup_by(|a, b| a.1 == b.1);
    let limit = (q.chars().count() / 2).max(3);
    names
        .into_iter()
        .filter(|(d, _)| *d <= limit)
        .take(3)
        .map(|(_, n)| n)
        .collect()
}

/// Levenshtein distance over characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance() {
        assert_eq!(distance("flsh", "flush"), 1);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("rule16", "rule16"), 0);
    }

    #[test]
    fn moves_compare_in_game_terms() {
        assert_eq!(norm("KS"), norm("k♠"));
        assert_eq!(norm("\"Pong\""), "pong");
    }
}
