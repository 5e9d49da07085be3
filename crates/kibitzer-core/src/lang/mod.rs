//! The rule language: source files, the pest parser, the typed AST, the checker, templates and
//! diagnostics. `parse` reads a rule file and its includes, `check` resolves and checks them into
//! the checked rule set of `ir`; the engine lowers that into what it runs. Public here: the syntax
//! tree, [`diagnostics`] and [`syntax::parse_rules`].

pub mod ast;
pub(crate) mod check;
pub mod diagnostics;
pub mod format;
pub(crate) mod ir;
pub(crate) mod overlap;
pub mod source;
pub mod syntax;
pub(crate) mod template;

pub use check::literal_value;
pub use format::format_rules;

use crate::builtins::Registry;
use diagnostics::{Diagnostic, Diagnostics};
use source::SourceMap;

/// Reads an included file: given the including file's name and the path written in `include`,
/// returns the included file's display name and text, or why it cannot be read.
pub type IncludeReader<'a> = dyn Fn(&str, &str) -> Result<(String, String), String> + 'a;

/// How deep includes may nest (a cycle is reported before this matters).
const MAX_INCLUDE_DEPTH: usize = 16;

/// The files of one rule set, parsed: the main file first, then the files it includes.
pub(crate) struct Parsed {
    files: Vec<ast::AstFile>,
    sources: SourceMap,
}

/// Parses `text` (shown as `name` in messages) and the files it includes, read through
/// `read_include`; every syntax error and unreadable include is reported.
pub(crate) fn parse(name: &str, text: &str, read_include: &IncludeReader<'_>) -> Result<Parsed, Diagnostics> {
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
    match errors.is_empty() {
        true => Ok(Parsed { files, sources }),
        false => Err(Diagnostics { items: errors, sources }),
    }
}

/// Checks parsed files against the built-ins of `registry`, resolving every name.
/// `known_rulesets` are the names a `whatif` may refer to besides the rule set itself.
pub(crate) fn check(
    parsed: Parsed,
    registry: &Registry,
    known_rulesets: &[String],
) -> Result<ir::RuleSet, Diagnostics> {
    check::check(check::CheckInput {
        files: parsed.files,
        sources: parsed.sources,
        registry,
        known_rulesets,
    })
    .map_err(|(items, sources)| Diagnostics { items, sources })
}
