//! kibitzer's core: everything but the games. Values and cards are its leaves; the built-in
//! registry lets a game plug in its built-ins and input types; the language parses and checks a
//! rule file against a registry; the engine lowers a checked rule set into the program it runs,
//! runs it, explains it and answers what-ifs. The facade crate `kibitzer` is the API an embedder
//! uses; this crate's modules are public so that the games and the facade can build on them.
//!
//! Inside the crate the modules are layered too (leaves, `builtins`, `lang`, `engine`): each
//! imports only those before it, which the repository's `tests/architecture.rs` checks.

#![warn(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

pub mod budget;
pub mod builtins;
pub mod cards;
pub mod engine;
pub mod lang;
pub mod value;

use builtins::Registry;
use engine::program::Program;
use lang::diagnostics::Diagnostics;
use lang::IncludeReader;

/// The load pipeline: parse `text` (shown as `name`) and the files it includes, read through
/// `read_include`; check them against `registry` (`known_rulesets` are the names a what-if may
/// run); lower the checked rule set into the program the engine runs.
pub fn build(
    registry: &Registry,
    name: &str,
    text: &str,
    read_include: &IncludeReader<'_>,
    known_rulesets: &[String],
) -> Result<Program, Diagnostics> {
    let parsed = lang::parse(name, text, read_include)?;
    let checked = lang::check(parsed, registry, known_rulesets)?;
    Ok(engine::lower::lower(checked))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// Loads rule text against the general built-ins, with no includes: the engine's unit tests.
    pub(crate) fn load_text(name: &str, text: &str) -> Result<Arc<Program>, Diagnostics> {
        let no_includes = |_: &str, path: &str| Err(format!("no includes here: {path}"));
        build(&Registry::general(), name, text, &no_includes, &[]).map(Arc::new)
    }
}
