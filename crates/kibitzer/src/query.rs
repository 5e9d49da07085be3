//! One question to a rule set, asked one way by every front end: `kibitzer ask`, `batch` rows,
//! case files, `diff` and Python all build a [`Query`] (inputs and parameter overrides as text,
//! the run's options), give it to a session that reaches the shipped rule sets for what-ifs, and
//! read the answer; [`answer_json`] is the one JSON form of that answer.

use crate::engine::explain::Explainer;
use crate::engine::program::Program;
use crate::engine::session::{RunError, RunOptions, RunResult, Session};
use crate::library::shipped_library;
use serde_json::{json, Value as Json};
use std::sync::Arc;

/// Inputs and parameter overrides as text, and the options of the run that answers them.
///
/// ```
/// use kibitzer::{ask, load_shipped, Query};
///
/// let stud = load_shipped("stud").unwrap();
/// let query = Query::new().input("hand", "8S TD TS 8H 8C").param("bet_big_above", "0.8");
/// let (session, result) = ask(&stud, &query);
/// result.unwrap();
/// assert_eq!(session.conclusions()[0].to_string(), r#"category(3, "full house")"#);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Query {
    /// Inputs by name, as text (`hand` = `8S TD TS 8H 8C`), given in this order.
    pub inputs: Vec<(String, String)>,
    /// Parameter overrides by name, as text, given before the inputs.
    pub params: Vec<(String, String)>,
    /// The run's options: budgets, trace, why-not recording.
    pub options: RunOptions,
}

impl Query {
    /// A query with no input, no override and the default options.
    pub fn new() -> Query {
        Query::default()
    }

    /// This query with one more input.
    pub fn input(mut self, name: impl Into<String>, text: impl Into<String>) -> Query {
        self.inputs.push((name.into(), text.into()));
        self
    }

    /// This query with one more parameter override.
    pub fn param(mut self, name: impl Into<String>, text: impl Into<String>) -> Query {
        self.params.push((name.into(), text.into()));
        self
    }

    /// This query run with `options`.
    pub fn options(mut self, options: RunOptions) -> Query {
        self.options = options;
        self
    }

    /// Gives this query to `session`: its facts and parameters back to the rule set's, its options
    /// set, then each override and each input; the first that is refused is the error.
    pub fn give_to(&self, session: &mut Session) -> Result<(), RunError> {
        session.reset();
        session.reset_params();
        session.set_options(self.options.clone());
        for (name, text) in &self.params {
            session.set_param(name, text)?;
        }
        for (name, text) in &self.inputs {
            session.set_input_text(name, text)?;
        }
        Ok(())
    }

    /// Gives this query to `session` and runs it.
    pub fn run_in(&self, session: &mut Session) -> Result<RunResult, RunError> {
        self.give_to(session)?;
        session.run()
    }
}

/// A session over `program` whose what-ifs reach the shipped rule sets: the session every front
/// end asks in (reuse it for the next query: [`Query::give_to`] resets it).
pub fn session(program: &Arc<Program>) -> Session {
    Session::with_library(program.clone(), Some(shipped_library()), 0)
}

/// Asks `program` one query in a new session: the session, holding the conclusions, their
/// explanations and the run's figures, and how the run ended.
pub fn ask(program: &Arc<Program>, query: &Query) -> (Session, Result<RunResult, RunError>) {
    let mut s = session(program);
    let result = query.run_in(&mut s);
    (s, result)
}

/// What [`answer_json`] puts in an answer beside the conclusions.
#[derive(Debug, Clone, Default)]
pub struct JsonParts {
    /// The player's view (`answers`: each answer in game terms, its rule and reason).
    pub answers: bool,
    /// Per conclusion, in order, its explanation (none where `None` or missing).
    pub explanations: Vec<Option<Json>>,
    /// Every counter of the run in `stats`, not only `fired` and `micros`.
    pub all_stats: bool,
}

/// The one JSON form of an answer: `{"ruleset", "answers"?, "conclusions", "stats", "stop"}`, each
/// conclusion `{"relation", "args", "explanation"?}`. `kibitzer ask --json` and Python's `ask`
/// give it with the player's view and every counter; a `batch` row gives it compact.
pub fn answer_json(session: &Session, result: &RunResult, parts: &JsonParts) -> Json {
    let conclusions: Vec<Json> = session
        .conclusions()
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut o = json!({
                "relation": c.relation,
                "args": c.args.iter().map(|v| v.to_json()).collect::<Vec<_>>(),
            });
            if let Some(Some(e)) = parts.explanations.get(i) {
                o["explanation"] = e.clone();
            }
            o
        })
        .collect();
    let stats = match parts.all_stats {
        true => json!(result.stats),
        false => json!({"fired": result.stats.fired, "micros": result.stats.micros}),
    };
    let mut out = json!({
        "ruleset": session.program().name(),
        "conclusions": conclusions,
        "stats": stats,
        "stop": result.stop,
    });
    if parts.answers {
        out["answers"] = json!(Explainer::new(session).answers());
    }
    out
}
