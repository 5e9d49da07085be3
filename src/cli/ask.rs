//! `kibitzer ask`: one query, answered with explanations (the player's view, the full
//! derivation, or none) as text, or as JSON (docs/explanations.md).

use super::{fail, split_assignment};
use kibitzer::library::Loader;
use kibitzer::query::{answer_json, JsonParts};
use kibitzer::WhyNot;
use kibitzer::{render_answer, render_answers, render_full, Answer, ExplainLimits, Explainer};
use kibitzer::{Query, RunOptions, RunResult};
use serde_json::json;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug, Clone)]
pub struct AskArgs {
    /// A shipped rule set (stud, ...) or a path to a .rules file.
    ruleset: String,
    /// Inputs as NAME=VALUE, e.g. hand="8S TD TS 8H 8C".
    inputs: Vec<String>,
    /// Override a parameter: --param bet_big_above=0.8 (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
    /// Answer as one JSON object (docs/explanations.md).
    #[arg(long)]
    json: bool,
    /// How answers are explained: short (each answer and its reason), full (the derivation), none.
    #[arg(long, value_enum, default_value_t = ExplainMode::Short)]
    explain: ExplainMode,
    /// Show the sequence of firings.
    #[arg(long)]
    trace: bool,
    /// Explain why a rule did not fire: its name or title, or a move it could have concluded.
    #[arg(long = "why-not", value_name = "RULE|TITLE|MOVE")]
    why_not: Vec<String>,
    /// Use this rule file instead of the shipped one.
    #[arg(long, value_name = "PATH")]
    rules: Option<PathBuf>,
    /// Stop with an error after this many firings.
    #[arg(long = "max-firings", default_value_t = 100_000, value_parser = super::max_firings())]
    max_firings: u64,
    /// Stop, with the conclusions so far, when more facts than this are live at once.
    #[arg(long = "max-facts", value_name = "N", default_value_t = RunOptions::default().max_facts, value_parser = super::max_firings())]
    max_facts: u64,
    /// Stop, with the conclusions so far, when more activations than this wait at once.
    #[arg(long = "max-activations", value_name = "N", default_value_t = RunOptions::default().max_activations, value_parser = super::max_firings())]
    max_activations: u64,
    /// Stop, with the conclusions so far, when the live facts hold more value cells than this.
    #[arg(long = "max-cells", value_name = "N", default_value_t = RunOptions::default().max_cells, value_parser = super::max_firings())]
    max_cells: u64,
    /// How deep to expand what-if sub-queries in explanations (0 to 6, the deepest what-ifs nest).
    #[arg(long = "whatif-depth", default_value_t = 1, value_parser = clap::value_parser!(u8).range(0..=6))]
    whatif_depth: u8,
    /// Stop after this many seconds (decimal) with what was concluded so far, and exit 2.
    #[arg(long, value_name = "SECS", value_parser = super::parse_timeout)]
    timeout: Option<Duration>,
    /// Let includes come from this folder tree (default: the rule file's own folder).
    #[arg(long = "include-root", value_name = "DIR")]
    include_root: Option<PathBuf>,
}

impl AskArgs {
    /// The rule file the query reads, when it is one on disk: `--rules`, or the rule set given as
    /// a path.
    pub fn rule_file(&self) -> Option<PathBuf> {
        let given = PathBuf::from(&self.ruleset);
        self.rules.clone().or_else(|| given.is_file().then_some(given))
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExplainMode {
    Short,
    Full,
    None,
}

pub fn run(a: AskArgs) -> i32 {
    // One deadline for the whole command: loading, the run, why-not and the explanations.
    let _deadline = kibitzer::with_deadline(a.timeout);
    let mut loader = Loader::new();
    if let Some(root) = &a.include_root {
        loader = loader.include_root(root);
    }
    let program = match loader.ruleset(&a.ruleset, a.rules.as_deref()) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let mut query = Query::new().options(RunOptions {
        firing_limit: a.max_firings,
        trace: a.trace,
        why_not: !a.why_not.is_empty(),
        timeout: a.timeout,
        max_facts: a.max_facts,
        max_activations: a.max_activations,
        max_cells: a.max_cells,
        // Unexplained answers need no record of the firings: memory then follows what is live.
        record: a.explain != ExplainMode::None,
    });
    for (assignments, into) in [(&a.params, &mut query.params), (&a.inputs, &mut query.inputs)] {
        for p in assignments {
            match split_assignment(p) {
                Ok((k, v)) => into.push((k.to_string(), v.to_string())),
                Err(e) => return fail(e),
            }
        }
    }
    let (s, result) = kibitzer::ask(&program, &query);
    let result = match result {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let limits = ExplainLimits {
        whatif_depth: usize::from(a.whatif_depth),
        ..ExplainLimits::default()
    };
    let mut explainer = Explainer::new(&s);
    let mut why_nots: Vec<WhyNot> = Vec::new();
    for q in &a.why_not {
        match explainer.why_not_query_with(q, a.explain == ExplainMode::Full) {
            // A rule asked for twice (by name and by title, say) is answered once.
            Ok(w) => {
                for w in w {
                    let seen = w.verdict.is_none() && why_nots.iter().any(|o| o.verdict.is_none() && o.rule == w.rule);
                    if !seen {
                        why_nots.push(w);
                    }
                }
            }
            Err(e) => return fail(e),
        }
    }
    // Written at once and checked: a full disk is an error, a closed pipe a quiet end.
    let mut text = match a.json {
        true => json_answer(&mut explainer, &result, &a, limits, &why_nots),
        false => text_answer(&mut explainer, &result, &a, limits, &why_nots),
    };
    if a.json {
        text.push('\n');
    }
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        return super::write_failed(&e);
    }
    if let Some(note) = super::stop_note(&result) {
        if !a.json {
            super::say(note);
        }
        return super::EXIT_BAD_INPUT;
    }
    // The run finished in time, but its why-not or explanations ran into the deadline.
    if a.timeout.is_some() && kibitzer::expired() {
        if !a.json {
            super::say("stopped: the --timeout ran out while explaining; the explanations above are partial");
        }
        return super::EXIT_BAD_INPUT;
    }
    0
}

/// The answer as one JSON object: the player's view (`answers`) beside each conclusion's full
/// derivation (`conclusions`, subtrees once, referred to by number after).
fn json_answer(
    explainer: &mut Explainer<'_>,
    result: &RunResult,
    a: &AskArgs,
    limits: ExplainLimits,
    why_nots: &[WhyNot],
) -> String {
    let s = explainer.session();
    let facts: Vec<_> = s.conclusions().iter().map(|c| c.fact).collect();
    let explanations = match a.explain {
        ExplainMode::None => Vec::new(),
        _ => explainer
            .explain_all(&facts, limits)
            .iter()
            .map(|t| Some(json!(t)))
            .collect(),
    };
    let parts = JsonParts {
        answers: true,
        explanations,
        all_stats: true,
    };
    let mut out = answer_json(s, result, &parts);
    if a.trace {
        out["trace"] = json!(explainer.trace_text());
    }
    if a.timeout.is_some() && kibitzer::expired() && !result.stop.is_budget() {
        out["explanations_partial"] = json!(true);
    }
    if !why_nots.is_empty() {
        out["why_not"] = json!(why_nots);
    }
    out.to_string()
}

/// The answer as text in the asked form, then why-nots, the trace and the run's figures.
fn text_answer(
    explainer: &mut Explainer<'_>,
    result: &RunResult,
    a: &AskArgs,
    limits: ExplainLimits,
    why_nots: &[WhyNot],
) -> String {
    let mut text = String::new();
    let conclusions = explainer.session().conclusions();
    if conclusions.is_empty() {
        let _ = writeln!(text, "(no conclusion: no rule produced an output)");
    }
    match a.explain {
        ExplainMode::Short => text.push_str(&render_answers(&explainer.answers())),
        ExplainMode::Full => {
            let facts: Vec<_> = conclusions.iter().map(|c| c.fact).collect();
            text.push_str(&render_full(&explainer.explain_all(&facts, limits)));
        }
        ExplainMode::None => {
            for answer in explainer.answers() {
                let bare = Answer {
                    rule: None,
                    options: Vec::new(),
                    ..answer
                };
                text.push_str(&render_answer(&bare));
            }
        }
    }
    for w in why_nots {
        if w.verdict.is_some() {
            let _ = writeln!(text, "{}", w.to_text());
            continue;
        }
        let title = w.title.as_ref().map_or_else(String::new, |t| format!(" \"{t}\""));
        let _ = writeln!(text, "why not {}{title}: {}", w.rule, w.to_text());
    }
    if a.trace {
        let _ = writeln!(text, "trace:");
        for line in explainer.trace_text() {
            let _ = writeln!(text, "  {line}");
        }
    }
    // The run's figures are for rule authors: with the derivation or the trace, not the player's view.
    if !(a.trace || matches!(a.explain, ExplainMode::Full)) {
        return text;
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
    text
}
