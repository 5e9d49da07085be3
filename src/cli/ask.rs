//! `kibitzer ask`: one query, answered with explanations (text) or SPEC §4.2 JSON.

use super::{fail, split_assignment};
use crate::engine::explain::{render_tree, ExplainLimits};
use crate::engine::session::{RunOptions, Session};
use crate::library::{load_any, load_file, shipped_library};
use serde_json::{json, Value as Json};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct AskArgs {
    /// A shipped rule set (stud, ...) or a path to a .rules file.
    ruleset: String,
    /// Inputs as NAME=VALUE, e.g. hand="8S TD TS 8H 8C".
    inputs: Vec<String>,
    /// Override a parameter: --param bet_big_above=0.8 (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
    /// Answer as one JSON object (SPEC §4.2).
    #[arg(long)]
    json: bool,
    /// Show the sequence of firings.
    #[arg(long)]
    trace: bool,
    /// Explain why this rule did not fire.
    #[arg(long = "why-not", value_name = "RULE")]
    why_not: Vec<String>,
    /// Use this rule file instead of the shipped one.
    #[arg(long, value_name = "PATH")]
    rules: Option<PathBuf>,
    /// Stop with an error after this many firings.
    #[arg(long = "max-firings", default_value_t = 100_000)]
    max_firings: u64,
    /// How deep to expand what-if sub-queries in explanations.
    #[arg(long = "whatif-depth", default_value_t = 1)]
    whatif_depth: usize,
}

pub fn run(a: AskArgs) -> i32 {
    let program = match &a.rules {
        Some(p) => load_file(p),
        None => load_any(&a.ruleset),
    };
    let program = match program {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let mut s = Session::with_library(program.clone(), Some(shipped_library()), 0);
    s.set_options(RunOptions {
        firing_limit: a.max_firings,
        trace: a.trace,
        ..RunOptions::default()
    });
    for p in &a.params {
        let r = split_assignment(p)
            .map_err(|e| e.to_string())
            .and_then(|(k, v)| s.set_param(k, v).map_err(|e| e.to_string()));
        if let Err(e) = r {
            return fail(e);
        }
    }
    for i in &a.inputs {
        let r = split_assignment(i)
            .map_err(|e| e.to_string())
            .and_then(|(k, v)| s.set_input_text(k, v).map_err(|e| e.to_string()));
        if let Err(e) = r {
            return fail(e);
        }
    }
    let result = match s.run() {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let limits = ExplainLimits {
        whatif_depth: a.whatif_depth,
        ..ExplainLimits::default()
    };
    let conclusions = s.conclusions();
    let mut why_nots = Vec::new();
    for r in &a.why_not {
        match s.why_not(r) {
            Ok(w) => why_nots.push(w),
            Err(e) => return fail(e),
        }
    }
    if a.json {
        let items: Vec<Json> = conclusions
            .iter()
            .map(|c| {
                json!({
                    "relation": c.relation,
                    "args": c.args.iter().map(|v| v.to_json()).collect::<Vec<_>>(),
                    "explanation": s.explain(c.fact, limits),
                })
            })
            .collect();
        let mut out = json!({
            "ruleset": program.name,
            "conclusions": items,
            "stats": result.stats,
            "stop": result.stop,
        });
        if a.trace {
            out["trace"] = json!(s.trace_text());
        }
        if !why_nots.is_empty() {
            out["why_not"] = json!(why_nots);
        }
        println!("{out}");
    } else {
        if conclusions.is_empty() {
            println!("(no conclusion: no rule produced an output)");
        }
        for c in &conclusions {
            print!("{}", render_tree(&s.explain(c.fact, limits)));
        }
        for w in &why_nots {
            println!("why not {}: {}", w.rule, w.to_text());
        }
        if a.trace {
            println!("trace:");
            for line in s.trace_text() {
                println!("  {line}");
            }
        }
        let st = &result.stats;
        let mut tail = format!(
            "({} firing(s), {} activation(s), {} µs",
            st.fired, st.activations, st.micros
        );
        if st.whatif_asked > 0 {
            tail.push_str(&format!(
                ", {} what-if sub-queries with {} firings",
                st.whatif_asked, st.whatif_fired
            ));
        }
        println!("{tail})");
    }
    0
}
