//! `kibitzer ask`: one query, answered with explanations (text) or SPEC §4.2 JSON.

use super::{fail, split_assignment};
use kibitzer::library::{load_ruleset, shipped_library, LoadOptions};
use kibitzer::{render_tree, ExplainLimits};
use kibitzer::{RunOptions, Session};
use serde_json::{json, Value as Json};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::time::Duration;

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
    /// Stop after this many seconds (decimal) with what was concluded so far, and exit 2.
    #[arg(long, value_name = "SECS", value_parser = super::parse_timeout)]
    timeout: Option<Duration>,
    /// Let includes come from this folder tree (default: the rule file's own folder).
    #[arg(long = "include-root", value_name = "DIR")]
    include_root: Option<PathBuf>,
}

pub fn run(a: AskArgs) -> i32 {
    let options = LoadOptions {
        include_root: a.include_root.clone(),
    };
    let program = match load_ruleset(&a.ruleset, a.rules.as_deref(), &options) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let mut s = Session::with_library(program.clone(), Some(shipped_library()), 0);
    s.set_options(RunOptions {
        firing_limit: a.max_firings,
        trace: a.trace,
        timeout: a.timeout,
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
    let result = match super::run_within(&mut s, a.timeout) {
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
    // Written at once and checked: a full disk is an error, a closed pipe a quiet end.
    let mut text = String::new();
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
            "ruleset": program.name(),
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
        let _ = writeln!(text, "{out}");
    } else {
        if conclusions.is_empty() {
            let _ = writeln!(text, "(no conclusion: no rule produced an output)");
        }
        for c in &conclusions {
            let _ = write!(text, "{}", render_tree(&s.explain(c.fact, limits)));
        }
        for w in &why_nots {
            let _ = writeln!(text, "why not {}: {}", w.rule, w.to_text());
        }
        if a.trace {
            let _ = writeln!(text, "trace:");
            for line in s.trace_text() {
                let _ = writeln!(text, "  {line}");
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
        let _ = writeln!(text, "{tail})");
    }
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        return super::write_failed(&e);
    }
    if let Some(note) = super::stop_note(result.stop) {
        if !a.json {
            super::say(note);
        }
        return super::EXIT_BAD_INPUT;
    }
    0
}
