//! `kibitzer diff`: what an edit changes. Both rule sets (or one rule set under two settings of its
//! parameters) answer the same positions (a JSON-lines corpus, or seeded random positions of the
//! game); how many answers changed per output relation, every changed position side by side (up to
//! `--limit`), and the rules whose firing counts changed.

use super::fail;
use kibitzer::cases::{self, Answer, Position};
use kibitzer::library::load_any;
use rayon::prelude::*;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// The rule set before the edit: a shipped name or a .rules file.
    a: String,
    /// The rule set after the edit.
    b: String,
    /// Positions as JSON lines (the `batch` input format); default: random positions of the game.
    #[arg(long, value_name = "FILE.jsonl")]
    corpus: Option<PathBuf>,
    /// Report as one JSON object.
    #[arg(long)]
    json: bool,
    /// Seed of the random positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many random positions (1 to 100,000).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=MAX_POSITIONS))]
    positions: u64,
    /// List at most N changed positions (default: every one).
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Set a parameter of A for every position: NAME=VALUE (repeatable).
    #[arg(long = "param-a", value_name = "NAME=VALUE")]
    param_a: Vec<String>,
    /// Set a parameter of B for every position: NAME=VALUE (repeatable).
    #[arg(long = "param-b", value_name = "NAME=VALUE")]
    param_b: Vec<String>,
    /// Compare only these relations (repeatable; `error` for the runs that failed).
    #[arg(long, value_name = "REL")]
    only: Vec<String>,
    /// Leave these relations out of the comparison (repeatable).
    #[arg(long, value_name = "REL")]
    ignore: Vec<String>,
    /// No progress bar on standard error.
    #[arg(long, short)]
    quiet: bool,
}

/// The most positions one diff answers (generated or read from a corpus): both answers of every
/// position are held until the report, so the count bounds the memory it takes.
const MAX_POSITIONS: u64 = 100_000;

pub fn run(a: DiffArgs) -> i32 {
    let (pa, pb) = match (load_any(&a.a), load_any(&a.b)) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(e), _) | (_, Err(e)) => return fail(e),
    };
    let (set_a, set_b) = match (
        settings(&a.param_a, &pa, "--param-a"),
        settings(&a.param_b, &pb, "--param-b"),
    ) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(e), _) | (_, Err(e)) => return fail(e),
    };
    let positions = match positions(&a, pa.name()) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let with = |p: &[(String, String)], set: &[(String, String)]| p.iter().chain(set).cloned().collect::<Vec<_>>();
    let kept = |l: &String| {
        let r = relation(l);
        (a.only.is_empty() || a.only.contains(&r)) && !a.ignore.contains(&r)
    };
    // The header at once (the answers of a large corpus take a while), then a bar on a terminal.
    if !a.json {
        let side = |name: &str, set: &[(String, String)]| match set.is_empty() {
            true => name.to_string(),
            false => format!(
                "{name} ({})",
                set.iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        };
        println!(
            "{} position(s); A = {}, B = {}",
            positions.len(),
            side(&a.a, &set_a),
            side(&a.b, &set_b)
        );
    }
    let bar = super::progress::bar(positions.len() as u64, "positions", a.quiet);
    let answers: Vec<(Answer, Answer)> = positions
        .par_iter()
        .map(|(i, p)| {
            let mut x = cases::answer(&pa, i, &with(p, &set_a));
            let mut y = cases::answer(&pb, i, &with(p, &set_b));
            x.lines.retain(kept);
            y.lines.retain(kept);
            bar.inc(1);
            (x, y)
        })
        .collect();
    bar.finish_and_clear();
    let changed = changed_relations(&answers);
    let fired = fired_changes(&answers);
    // Every position whose answer changed, in order, up to the limit.
    let listed: Vec<usize> = (0..answers.len())
        .filter(|&k| answers[k].0.lines != answers[k].1.lines)
        .collect();
    let shown = &listed[..a.limit.unwrap_or(usize::MAX).min(listed.len())];
    let relations_of = |k: usize| -> Vec<&str> {
        changed
            .iter()
            .filter(|(_, (_, ks))| ks.contains(&k))
            .map(|(r, _)| r.as_str())
            .collect()
    };
    let show_inputs = |k: usize| {
        let (i, p) = &positions[k];
        i.iter()
            .chain(p)
            .map(|(n, v)| format!("{n}={v:?}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    if a.json {
        let rels: serde_json::Map<String, serde_json::Value> = changed
            .iter()
            .map(|(r, (n, ks))| {
                let at: Vec<usize> = ks.iter().map(|k| k + 1).collect();
                (r.clone(), json!({"changed": n, "positions": at}))
            })
            .collect();
        let changes: Vec<_> = shown
            .iter()
            .map(|&k| {
                json!({"position": k + 1, "inputs": show_inputs(k), "relations": relations_of(k),
                       "a": answers[k].0.lines, "b": answers[k].1.lines})
            })
            .collect();
        let rules: serde_json::Map<String, serde_json::Value> = fired
            .iter()
            .map(|(n, (x, y))| (n.clone(), json!({"a": x, "b": y})))
            .collect();
        println!(
            "{}",
            json!({"positions": positions.len(), "relations": rels, "changed": listed.len(),
                   "listed": changes, "fired_changed": rules})
        );
        return 0;
    }
    if changed.is_empty() {
        println!("no answer changed");
    }
    for (r, (n, _)) in &changed {
        println!("{r}: {n} answer(s) changed");
    }
    for &k in shown {
        println!(
            "position {}: {} ({})",
            k + 1,
            show_inputs(k),
            relations_of(k).join(", ")
        );
        print_side_by_side(&answers[k].0, &answers[k].1);
    }
    if shown.len() < listed.len() {
        println!(
            "... and {} more changed position(s) (--limit {})",
            listed.len() - shown.len(),
            shown.len()
        );
    }
    if !fired.is_empty() {
        println!("rules whose firing counts changed (A → B):");
        for (n, (x, y)) in &fired {
            println!("  {n:<14} {x} → {y}");
        }
    }
    0
}

/// The corpus's positions, or the game's random ones.
fn positions(a: &DiffArgs, game: &str) -> Result<Vec<Position>, String> {
    let Some(path) = &a.corpus else {
        // In range by the option's parser, so it fits.
        let n = usize::try_from(a.positions).unwrap_or(0);
        return cases::random_positions(game, a.seed, n).ok_or_else(|| {
            format!(
                "no position generator for the game `{game}` (there is one for {}): give --corpus FILE.jsonl",
                cases::generated_games().join(", ")
            )
        });
    };
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let lines: Vec<(usize, &str)> = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).collect();
    if lines.len() as u64 > MAX_POSITIONS {
        return Err(format!(
            "{}: {} positions; a corpus holds 1 to {MAX_POSITIONS}",
            path.display(),
            lines.len()
        ));
    }
    lines
        .into_iter()
        .map(|(i, line)| cases::position_of_json(line).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1)))
        .collect()
}

/// A parameter setting for one side: each `NAME=VALUE` names a parameter of its rule set.
fn settings(given: &[String], p: &kibitzer::Program, option: &str) -> Result<Vec<(String, String)>, String> {
    given
        .iter()
        .map(|s| {
            let (k, v) = super::split_assignment(s).map_err(|e| format!("{option} {e}"))?;
            match p.params().iter().find(|q| q.name == k) {
                Some(q) if q.constant => Err(format!("{option} {k}: `{k}` is a constant of `{}`", p.name())),
                Some(_) => Ok((k.to_string(), v.to_string())),
                None => Err(format!("{option} {k}: `{}` has no parameter `{k}`", p.name())),
            }
        })
        .collect()
}

/// The relation of an answer line (the text before `(`; `error` for a run's error).
fn relation(l: &str) -> String {
    if l.starts_with("error: ") {
        return "error".to_string();
    }
    l.split('(')
        .next()
        .unwrap_or(l)
        .trim_end_matches(|c: char| c == ':' || c.is_whitespace())
        .to_string()
}

/// Per relation: how many positions' answers changed, and which.
fn changed_relations(answers: &[(Answer, Answer)]) -> BTreeMap<String, (usize, Vec<usize>)> {
    let mut changed: BTreeMap<String, (usize, Vec<usize>)> = BTreeMap::new();
    for (k, (x, y)) in answers.iter().enumerate() {
        let mut rels: Vec<String> = x.lines.iter().chain(&y.lines).map(|l| relation(l)).collect();
        rels.sort();
        rels.dedup();
        for r in rels {
            let of = |ans: &Answer| {
                ans.lines
                    .iter()
                    .filter(|l| relation(l) == r)
                    .cloned()
                    .collect::<Vec<_>>()
            };
            if of(x) != of(y) {
                let e = changed.entry(r).or_default();
                e.0 += 1;
                e.1.push(k);
            }
        }
    }
    changed
}

/// Per rule whose firing count differs: its firings over all positions under A and under B.
fn fired_changes(answers: &[(Answer, Answer)]) -> BTreeMap<String, (u64, u64)> {
    let mut fired: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    for (x, y) in answers {
        for (n, c) in &x.fired {
            fired.entry(n.clone()).or_default().0 += c;
        }
        for (n, c) in &y.fired {
            fired.entry(n.clone()).or_default().1 += c;
        }
    }
    fired.retain(|_, (x, y)| x != y);
    fired
}

/// Two answers line by line, `|` marking the lines that differ.
fn print_side_by_side(x: &Answer, y: &Answer) {
    let width = x.lines.iter().map(|l| l.chars().count()).max().unwrap_or(0).max(1);
    for j in 0..x.lines.len().max(y.lines.len()) {
        let l = x.lines.get(j).map_or("", String::as_str);
        let rr = y.lines.get(j).map_or("", String::as_str);
        let mark = if l == rr { " " } else { "|" };
        println!("    {l:<width$}  {mark}  {rr}");
    }
}
