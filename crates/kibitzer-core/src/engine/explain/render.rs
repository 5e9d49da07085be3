//! The full derivation as text: the inputs once at the top (or not at all), then each answer's
//! tree, every subtree printed once with a label (`[2]`) where later occurrences say `→ see [2]`.

use super::{AggregateGroup, Explanation, WhatIfExplanation, MAX_EXPLAIN_DEPTH};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

/// One explanation as text, the inputs it read shown where they are matched (`hand(…)  (input
/// hand)`).
pub fn render_tree(e: &Explanation) -> String {
    render(std::slice::from_ref(e), false, true)
}

/// Explanations of one answer (from `Explainer::explain_all`) as text: the inputs they read, once,
/// then each tree (what `ask --explain full` prints).
pub fn render_full(trees: &[Explanation]) -> String {
    render(trees, true, false)
}

/// Explanations of one answer as text without their inputs (what a case's golden file pins: the
/// case gives the inputs).
pub fn render_derivation(trees: &[Explanation]) -> String {
    render(trees, false, false)
}

fn render(trees: &[Explanation], header: bool, inline_inputs: bool) -> String {
    let mut inputs = Vec::new();
    let mut referred = HashSet::new();
    for t in trees {
        gather(t, &mut inputs, &mut referred);
    }
    let mut labels = HashMap::new();
    for t in trees {
        number(t, &referred, &mut labels);
    }
    let mut out = String::new();
    if header {
        for i in &inputs {
            let _ = writeln!(out, "input {i}");
        }
    }
    let r = Renderer { labels, inline_inputs };
    for t in trees {
        match (t.source, t.ref_id) {
            ("ref", Some(id)) => {
                let _ = writeln!(out, "{}  {}", t.fact, r.see(id));
            }
            _ => {
                let _ = writeln!(out, "{}", t.fact);
                r.children(t, "", &mut out);
            }
        }
    }
    out
}

/// The inputs a tree reads (in order, once each) and the numbers its references name.
fn gather(e: &Explanation, inputs: &mut Vec<String>, referred: &mut HashSet<u32>) {
    if e.source == "input" && !inputs.contains(&e.fact) {
        inputs.push(e.fact.clone());
    }
    if let Some(id) = e.ref_id {
        referred.insert(id);
    }
    for w in &e.whatifs {
        if let Some(id) = w.ref_id {
            referred.insert(id);
        }
        // A sub-query's inputs are its own, shown in its query line.
        let mut theirs = Vec::new();
        for c in &w.concluded {
            gather(c, &mut theirs, referred);
        }
    }
    for g in &e.aggregated {
        gather(&g.example, inputs, referred);
    }
    for p in &e.premises {
        gather(p, inputs, referred);
    }
}

/// Labels `[1]`, `[2]`, … for the referred-to nodes, in the order they are printed.
fn number(e: &Explanation, referred: &HashSet<u32>, labels: &mut HashMap<u32, usize>) {
    fn label(id: Option<u32>, referred: &HashSet<u32>, labels: &mut HashMap<u32, usize>) {
        if let Some(id) = id.filter(|id| referred.contains(id)) {
            let n = labels.len() + 1;
            labels.entry(id).or_insert(n);
        }
    }
    label(e.id, referred, labels);
    for w in &e.whatifs {
        label(w.id, referred, labels);
        for c in &w.concluded {
            number(c, referred, labels);
        }
    }
    for g in &e.aggregated {
        number(&g.example, referred, labels);
    }
    for p in &e.premises {
        number(p, referred, labels);
    }
}

struct Renderer {
    labels: HashMap<u32, usize>,
    /// Inputs under the rules that matched them, or (listed once elsewhere) not there.
    inline_inputs: bool,
}

enum Item<'a> {
    Line(&'a str),
    Node(&'a Explanation),
    Group(&'a AggregateGroup),
    WhatIf(&'a WhatIfExplanation),
}

impl Renderer {
    fn see(&self, id: u32) -> String {
        match self.labels.get(&id) {
            Some(n) => format!("→ see [{n}]"),
            None => "→ see above".to_string(),
        }
    }

    fn label(&self, id: Option<u32>) -> String {
        id.and_then(|id| self.labels.get(&id))
            .map_or_else(String::new, |n| format!("[{n}] "))
    }

    /// The rule line under a fact, then its checks, what-ifs, aggregated groups and premises.
    fn children(&self, e: &Explanation, prefix: &str, out: &mut String) {
        let head = match e.source {
            "input" | "ref" => return,
            "elided" => format!("(derived by rules deeper than {MAX_EXPLAIN_DEPTH} levels: not shown)"),
            _ => {
                let mut head = format!("{}{}", self.label(e.id), e.rule.as_deref().unwrap_or("?"));
                if let Some(t) = &e.title {
                    let _ = write!(head, " \"{t}\"");
                }
                if let Some(b) = &e.because {
                    let _ = write!(head, ": {b}");
                }
                head
            }
        };
        let _ = writeln!(out, "{prefix}└─ {head}");
        let inner = format!("{prefix}   ");
        let modified = e.modified.as_ref().map(|old| format!("modifies {old}"));
        let logical = "asserted logically: withdrawn when this match no longer holds";
        let mut items: Vec<Item> = modified.iter().map(|m| Item::Line(m)).collect();
        if e.logical {
            items.push(Item::Line(logical));
        }
        let chosen = e.group.as_ref().map(|g| match e.passed_over.is_empty() {
            true => format!("first in group {g} to apply"),
            false => format!("first in group {g} to apply, over {}", e.passed_over.join(", ")),
        });
        items.extend(chosen.iter().map(|c| Item::Line(c)));
        items.extend(e.checks.iter().map(|c| Item::Line(c)));
        items.extend(e.whatifs.iter().map(Item::WhatIf));
        items.extend(e.aggregated.iter().map(Item::Group));
        // Inputs are listed once at the top (or not at all), not under every rule that reads them.
        items.extend(
            e.premises
                .iter()
                .filter(|p| self.inline_inputs || p.source != "input")
                .map(Item::Node),
        );
        let n = items.len();
        for (i, item) in items.into_iter().enumerate() {
            let (branch, cont) = if i + 1 == n {
                ("└─ ", "   ")
            } else {
                ("├─ ", "│  ")
            };
            let below = format!("{inner}{cont}");
            match item {
                Item::Line(l) => {
                    let _ = writeln!(out, "{inner}{branch}{l}");
                }
                Item::Node(p) => self.node(p, &format!("{inner}{branch}"), &below, out),
                Item::Group(g) => {
                    let more = if g.count > 1 { " and others like it" } else { "" };
                    let line = format!("{} × {}{more}", g.count, g.example.fact);
                    self.node_as(&g.example, &line, &format!("{inner}{branch}"), &below, out);
                }
                Item::WhatIf(w) => self.whatif(w, &format!("{inner}{branch}"), &below, out),
            }
        }
    }

    fn node(&self, e: &Explanation, first: &str, below: &str, out: &mut String) {
        self.node_as(e, &e.fact, first, below, out);
    }

    /// A node's line (`line`), or its reference, then what is under it.
    fn node_as(&self, e: &Explanation, line: &str, first: &str, below: &str, out: &mut String) {
        match (e.source, e.ref_id) {
            ("ref", Some(id)) => {
                let _ = writeln!(out, "{first}{line}  {}", self.see(id));
            }
            ("input", _) => {
                let tag = e.input.as_ref().map_or_else(String::new, |n| format!("  (input {n})"));
                let _ = writeln!(out, "{first}{line}{tag}");
            }
            _ => {
                let _ = writeln!(out, "{first}{line}");
                self.children(e, below, out);
            }
        }
    }

    fn whatif(&self, w: &WhatIfExplanation, first: &str, below: &str, out: &mut String) {
        if let Some(id) = w.ref_id {
            let _ = writeln!(out, "{first}{}  {}", w.query, self.see(id));
            return;
        }
        let _ = writeln!(out, "{first}{}{}", self.label(w.id), w.query);
        let m = w.concluded.len();
        for (j, c) in w.concluded.iter().enumerate() {
            let (b, cont) = if j + 1 == m {
                ("└─ ", "   ")
            } else {
                ("├─ ", "│  ")
            };
            self.node(c, &format!("{below}{b}"), &format!("{below}{cont}"), out);
        }
    }
}
