//! The rule language: source files, the pest parser, the typed AST, the checker, templates and
//! diagnostics. [`load`] is the whole front end: parse → resolve includes → check → compile.

pub mod ast;
pub mod check;
pub mod diagnostics;
pub mod source;
pub mod syntax;
pub mod template;

use crate::builtins::Registry;
use crate::engine::program::Program;
use diagnostics::{Diagnostic, Diagnostics};
use source::SourceMap;

/// Reads an included file: given the including file's name and the path written in `include`,
/// returns the included file's display name and text, or why it cannot be read.
pub type IncludeReader<'a> = dyn Fn(&str, &str) -> Result<(String, String), String> + 'a;

/// How deep includes may nest (a cycle is reported before this matters).
const MAX_INCLUDE_DEPTH: usize = 16;

/// Loads one rule set: parses `text` (shown as `name` in messages), follows its includes through
/// `read_include`, checks everything against `registry`, and compiles the match plans.
/// `known_rulesets` are the names a `whatif` may refer to besides the rule set itself.
pub fn load(
    name: &str,
    text: &str,
    read_include: &IncludeReader<'_>,
    registry: &Registry,
    known_rulesets: &[String],
) -> Result<Program, Diagnostics> {
    let mut sources = SourceMap::default();
    let mut files = Vec::new();
    let mut errors = Vec::new();
    // Each file to read with the chain of files that include it: a file met again on its own
    // chain is a cycle; met again elsewhere (two files including a third), it is read once.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut stack = vec![(name.to_string(), text.to_string(), Vec::<String>::new())];
    let mut seen: Vec<String> = Vec::new();
    while let Some((fname, ftext, chain)) = stack.pop() {
        if seen.contains(&fname) {
            continue;
        }
        seen.push(fname.clone());
        let id = sources.add(fname.clone(), ftext);
        let Some(file) = sources.file(id).map(|f| f.text.clone()) else {
            continue;
        };
        let ast = match syntax::parse_rules(id, &file) {
            Ok(ast) => ast,
            Err(d) => {
                errors.push(d);
                continue;
            }
        };
        let mut below = chain.clone();
        below.push(fname.clone());
        for item in &ast.items {
            let ast::AstItem::Include { path, span } = item else {
                continue;
            };
            if below.len() > MAX_INCLUDE_DEPTH {
                errors.push(Diagnostic::error(*span, "includes nest too deeply"));
                continue;
            }
            match read_include(&fname, path) {
                Ok((n, _)) if below.contains(&n) => {
                    let message = match n == fname {
                        true => format!("`{path}` includes itself"),
                        false => format!("include cycle: {} → {n}", below.join(" → ")),
                    };
                    errors.push(Diagnostic::error(*span, message));
                }
                Ok((n, t)) => {
                    let t = t.strip_prefix('\u{feff}').map(str::to_string).unwrap_or(t);
                    stack.push((n, t, below.clone()));
                }
                Err(why) => errors.push(Diagnostic::error(*span, format!("cannot include `{path}`: {why}"))),
            }
        }
        files.push(ast);
    }
    if !errors.is_empty() {
        return Err(Diagnostics { items: errors, sources });
    }
    match check::check(check::CheckInput {
        files,
        sources,
        registry,
        known_rulesets,
    }) {
        Ok(program) => Ok(crate::engine::compile::compile(program)),
        Err((items, sources)) => Err(Diagnostics { items, sources }),
    }
}
