//! `kibitzer rules`: what rule sets there are, and what each takes, gives and contains.

use super::fail;
use kibitzer::library::{load_any, registry, shipped_names};

#[derive(clap::Args, Debug)]
pub struct RulesArgs {
    /// A rule set to describe (default: list them all).
    ruleset: Option<String>,
    /// List the built-ins rule files may call, and the input types.
    #[arg(long)]
    builtins: bool,
    /// Print the rule set's text, its included files inlined, to start an edited copy from.
    #[arg(long)]
    source: bool,
}

pub fn run(a: RulesArgs) -> i32 {
    if a.builtins {
        println!("input types:");
        for t in registry().input_types() {
            println!("  {:<10} {}", t.name, t.doc);
        }
        println!("built-ins:");
        for b in registry().builtins() {
            let s = b.signature();
            let mut params: Vec<String> = s.params.iter().map(|(n, t)| format!("{n}: {}", t.name())).collect();
            if let (true, Some(last)) = (s.variadic, params.last_mut()) {
                last.push('…');
            }
            let outs: Vec<&str> = s.outputs.iter().map(|t| t.name()).collect();
            println!(
                "  {}({}) -> {}{}  {}",
                s.name,
                params.join(", "),
                outs.join(", "),
                if s.multi { " (several)" } else { "" },
                s.doc
            );
        }
        return 0;
    }
    let Some(name) = a.ruleset else {
        for n in shipped_names() {
            match load_any(&n) {
                Ok(p) => println!("{:<14} {}", p.name(), p.description().unwrap_or("")),
                Err(e) => return fail(e),
            }
        }
        return 0;
    };
    if a.source {
        return match kibitzer::cases::rule_source(&name) {
            Ok(text) => {
                print!("{text}");
                0
            }
            Err(e) => fail(e),
        };
    }
    let p = match load_any(&name) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    println!("{} — {}", p.name(), p.description().unwrap_or(""));
    println!("inputs:");
    for i in p.inputs() {
        let default = i.default.map(|d| format!(" = {d}")).unwrap_or_default();
        let domain = i.domain.as_ref().map(|d| format!(", {d}")).unwrap_or_default();
        let doc = i.doc.map(|d| format!("  # {d}")).unwrap_or_default();
        println!("  {}: {}{default}{domain}{doc}", i.name, i.type_text);
    }
    let outs: Vec<String> = p
        .outputs()
        .iter()
        .map(|(name, arity)| format!("{name}/{arity}"))
        .collect();
    println!("outputs: {}", outs.join(", "));
    let params = p.params();
    if !params.is_empty() {
        println!("parameters and constants:");
        for q in &params {
            println!(
                "  {} {} = {}{}",
                if q.constant { "const" } else { "param" },
                q.name,
                q.value,
                q.doc.map(|d| format!("  # {d}")).unwrap_or_default()
            );
        }
    }
    // Only a strategy other than the default is worth a line.
    if p.strategy() != "file_order" {
        println!("strategy: {}", p.strategy());
    }
    println!("rules:");
    for r in p.rules() {
        let group = r.group.map(|g| format!("  (group {g})")).unwrap_or_default();
        println!(
            "  {:<12} salience {:>4}  {}{group}",
            r.name,
            r.salience,
            r.title.unwrap_or("")
        );
    }
    0
}
