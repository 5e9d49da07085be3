//! `kibitzer batch`: JSON lines in, JSON lines out, in input order, on all cores. A bad line yields
//! `{"error": "..."}` on its line and the run goes on.

use super::fail;
use crate::engine::explain::ExplainLimits;
use crate::engine::session::Session;
use crate::library::{load_any, load_file, shipped_library};
use crate::Program;
use rayon::prelude::*;
use serde_json::{json, Value as Json};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub struct BatchArgs {
    /// A shipped rule set or a path to a .rules file.
    ruleset: String,
    /// Use this rule file instead of the shipped one.
    #[arg(long, value_name = "PATH")]
    rules: Option<PathBuf>,
    /// Leave explanations out of the answers (faster, smaller).
    #[arg(long = "no-explain")]
    no_explain: bool,
}

const CHUNK: usize = 4096;

pub fn run(a: BatchArgs) -> i32 {
    let program = match &a.rules {
        Some(p) => load_file(p),
        None => load_any(&a.ruleset),
    };
    let program = match program {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    loop {
        let mut chunk = Vec::with_capacity(CHUNK);
        for line in lines.by_ref().take(CHUNK) {
            match line {
                Ok(l) => chunk.push(l),
                Err(e) => return fail(format!("reading standard input: {e}")),
            }
        }
        if chunk.is_empty() {
            break;
        }
        let answers: Vec<String> = chunk
            .par_iter()
            .map_init(
                || Session::with_library(program.clone(), Some(shipped_library()), 0),
                |s, line| answer(s, &program, line, !a.no_explain).to_string(),
            )
            .collect();
        for ans in answers {
            if writeln!(out, "{ans}").is_err() {
                return 0;
            }
        }
    }
    let _ = out.flush();
    0
}

/// One line's answer (or its error object).
fn answer(s: &mut Session, program: &Arc<Program>, line: &str, explain: bool) -> Json {
    if line.trim().is_empty() {
        return json!({"error": "empty line"});
    }
    let obj: Json = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => return json!({"error": format!("not JSON: {e}")}),
    };
    let Some(map) = obj.as_object() else {
        return json!({"error": "expected a JSON object of inputs"});
    };
    s.reset();
    s.set_param_values(program.default_params());
    for (k, v) in map {
        if k == "params" {
            let Some(ps) = v.as_object() else {
                return json!({"error": "`params` must be an object"});
            };
            for (pk, pv) in ps {
                let text = match pv {
                    Json::String(t) => t.clone(),
                    other => other.to_string(),
                };
                if let Err(e) = s.set_param(pk, &text) {
                    return json!({"error": e.to_string()});
                }
            }
            continue;
        }
        let text = match v {
            Json::String(t) => t.clone(),
            Json::Array(items) => items
                .iter()
                .map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_string))
                .collect::<Vec<_>>()
                .join(" "),
            other => other.to_string(),
        };
        if let Err(e) = s.set_input_text(k, &text) {
            return json!({"error": e.to_string()});
        }
    }
    let result = match s.run() {
        Ok(r) => r,
        Err(e) => return json!({"error": e.to_string()}),
    };
    let conclusions: Vec<Json> = s
        .conclusions()
        .iter()
        .map(|c| {
            let mut o = json!({
                "relation": c.relation,
                "args": c.args.iter().map(|v| v.to_json()).collect::<Vec<_>>(),
            });
            if explain {
                o["explanation"] = json!(s.explain(c.fact, ExplainLimits::default()));
            }
            o
        })
        .collect();
    json!({"ruleset": program.name, "conclusions": conclusions, "stats": {"fired": result.stats.fired, "micros": result.stats.micros}})
}
