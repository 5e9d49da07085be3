//! Problems found while loading a rule set, and their rendering as
//! `file:line:col: error: message`, the offending line and a caret under the culprit.

use super::source::{SourceMap, Span};
use std::fmt::Write as _;

/// How bad a problem is: errors stop the load, warnings do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The rule set cannot be loaded.
    Error,
    /// Worth a look, but the rule set loads.
    Warning,
}

/// One problem in a rule file.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// Whether it is an error or a warning.
    pub severity: Severity,
    /// What is wrong, in one line.
    pub message: String,
    /// Where in the rule file.
    pub span: Span,
}

impl Diagnostic {
    /// An error at `span`.
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span,
        }
    }

    /// A warning at `span`.
    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            message: message.into(),
            span,
        }
    }

    /// The full message: position, severity, text, the source line and a caret.
    pub fn render(&self, sources: &SourceMap) -> String {
        let loc = sources.locate(self.span);
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut out = format!("{}:{}:{}: {}: {}", loc.file, loc.line, loc.col, kind, self.message);
        if loc.line > 0 {
            let width = sources
                .text(self.span)
                .lines()
                .next()
                .map_or(1, |t| t.chars().count().max(1));
            let gutter = loc.line.to_string();
            let pad = " ".repeat(gutter.len());
            let _ = write!(
                out,
                "\n{pad} |\n{gutter} | {}\n{pad} | {}{}",
                loc.line_text,
                " ".repeat(loc.col.saturating_sub(1)),
                "^".repeat(width)
            );
        }
        out
    }
}

/// Every problem of one load, with the sources needed to render them.
#[derive(Debug, Clone, Default)]
pub struct Diagnostics {
    /// The problems, in the order found.
    pub items: Vec<Diagnostic>,
    /// The files their spans point into.
    pub sources: SourceMap,
}

impl Diagnostics {
    /// True if any problem is an error.
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(|d| d.severity == Severity::Error)
    }

    /// The errors only.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter().filter(|d| d.severity == Severity::Error)
    }

    /// The warnings only.
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter().filter(|d| d.severity == Severity::Warning)
    }

    /// All problems rendered, errors first, each in file order, separated by blank lines.
    pub fn render(&self) -> String {
        let mut sorted: Vec<&Diagnostic> = self.items.iter().collect();
        sorted.sort_by_key(|d| (d.severity, d.span.file, d.span.start));
        sorted
            .iter()
            .map(|d| d.render(&self.sources))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl std::fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render())
    }
}
