//! One row of `kibitzer batch` answered: a JSON object of inputs (with an optional `params`
//! object) in, the answer object out, the same for the CLI, Python and any embedder.

use crate::engine::explain::ExplainLimits;
use crate::engine::session::Session;
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

/// Answers one row already read: the session is reset to the rule set's defaults, given the
/// row's inputs and parameters, and run under its own options (timeout, firing limit).
pub fn answer_row(session: &mut Session, row: &Json, explain: bool) -> Json {
    let Some(map) = row.as_object() else {
        return json!({"error": "expected a JSON object of inputs"});
    };
    session.reset();
    session.reset_params();
    for (k, v) in map {
        let given = if k == "params" {
            let Some(params) = v.as_object() else {
                return json!({"error": "`params` must be an object"});
            };
            params.iter().try_for_each(|(name, value)| {
                let text = value.as_str().map_or_else(|| value.to_string(), str::to_string);
                session.set_param(name, &text).map_err(|e| e.to_string())
            })
        } else {
            session.set_input_text(k, &input_text(v)).map_err(|e| e.to_string())
        };
        if let Err(e) = given {
            return json!({"error": e});
        }
    }
    let result = match session.run() {
        Ok(r) => r,
        Err(e) => return json!({"error": e.to_string()}),
    };
    let conclusions: Vec<Json> = session
        .conclusions()
        .iter()
        .map(|c| {
            let mut o = json!({
                "relation": c.relation,
                "args": c.args.iter().map(|v| v.to_json()).collect::<Vec<_>>(),
            });
            if explain {
                o["explanation"] =
                    serde_json::to_value(session.explain(c.fact, ExplainLimits::default())).unwrap_or(Json::Null);
            }
            o
        })
        .collect();
    json!({
        "ruleset": session.program().name(),
        "conclusions": conclusions,
        "stats": {"fired": result.stats.fired, "micros": result.stats.micros},
        "stop": result.stop,
    })
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
