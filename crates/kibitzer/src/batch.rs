//! One row of `kibitzer batch` answered: a JSON object of inputs (with an optional `params`
//! object) in, the answer object out, the same for the CLI, Python and any embedder.

use crate::engine::explain::{ExplainLimits, Explainer};
use crate::engine::session::Session;
use crate::query::{answer_json, JsonParts, Query};
use serde_json::{json, Value as Json};

/// Answers one line of JSON as `kibitzer batch` does: `{"ruleset", "conclusions", "stats",
/// "stop"}`, or `{"error": …}` for an empty line, bad JSON, a bad input or a failed run.
pub fn answer_line(session: &mut Session, line: &str, explain: bool) -> Json {
    if line.trim().is_empty() {
        return json!({"error": "empty line"});
    }
    match serde_json::from_str::<Json>(line) {
        Ok(row) => answer_row(session, &row, explain),
        Err(e) => json!({"error": format!("not JSON: {e}")}),
    }
}

/// Answers one row already read: its inputs and parameters given to the session as a [`Query`]
/// (the session reset to the rule set's defaults) and run under the session's options (timeout,
/// firing limit); the answer in its compact JSON form ([`answer_json`]).
pub fn answer_row(session: &mut Session, row: &Json, explain: bool) -> Json {
    let Some(map) = row.as_object() else {
        return json!({"error": "expected a JSON object of inputs"});
    };
    let mut query = Query::new().options(session.options().clone());
    for (k, v) in map {
        if k != "params" {
            query.inputs.push((k.clone(), input_text(v)));
            continue;
        }
        let Some(params) = v.as_object() else {
            return json!({"error": "`params` must be an object"});
        };
        for (name, value) in params {
            let text = value.as_str().map_or_else(|| value.to_string(), str::to_string);
            query.params.push((name.clone(), text));
        }
    }
    let result = match query.run_in(session) {
        Ok(r) => r,
        Err(e) => return json!({"error": e.to_string()}),
    };
    let explanations = match explain {
        true => {
            let mut explainer = Explainer::new(session);
            session
                .conclusions()
                .iter()
                .map(|c| serde_json::to_value(explainer.explain(c.fact, ExplainLimits::default())).ok())
                .collect()
        }
        false => Vec::new(),
    };
    let parts = JsonParts {
        explanations,
        ..JsonParts::default()
    };
    answer_json(session, &result, &parts)
}

/// A JSON value as an input's text: a string as it is, an array's items joined by spaces (each
/// string as it is), anything else as JSON.
pub fn input_text(v: &Json) -> String {
    match v {
        Json::String(t) => t.clone(),
        Json::Array(items) => items
            .iter()
            .map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_string))
            .collect::<Vec<_>>()
            .join(" "),
        other => other.to_string(),
    }
}
