//! `because` templates: text with `{?var}` and `{param}` holes, each with an optional format
//! (`{?r:rank}` → `10`, `{?r:ranks}` → `tens`, `{?p:.2}` → `0.93`, `{?v:signed}` → `+600`,
//! `{?v:operand}` → `(−217)`).

use super::source::Span;
pub use crate::value::format::{card_symbols, cards_in_text, format_value, Format};
use crate::value::Value;

/// What a hole refers to.
#[derive(Debug, Clone, PartialEq)]
pub enum Hole {
    Var(u16),
    Param(u16),
}

/// A piece of a template.
#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    Text(String),
    Hole(Hole, Format),
}

/// A parsed template.
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    pub pieces: Vec<Piece>,
}

/// A hole that could not be resolved, with its place in the string.
#[derive(Debug, Clone, PartialEq)]
pub struct TemplateError {
    pub message: String,
    pub span: Span,
}

impl Template {
    /// Parses `text` (whose characters start at `span`), resolving names with the callbacks.
    pub fn parse(
        text: &str,
        span: Span,
        var: &mut dyn FnMut(&str) -> Option<u16>,
        param: &dyn Fn(&str) -> Option<u16>,
    ) -> Result<Template, Vec<TemplateError>> {
        let mut pieces = Vec::new();
        let mut errors = Vec::new();
        let mut rest = text;
        let mut offset = 0usize;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                pieces.push(Piece::Text(rest[..open].to_string()));
            }
            let Some(close) = rest[open..].find('}') else {
                errors.push(TemplateError {
                    message: "`{` without a closing `}`".into(),
                    span: span.sub(offset + open, offset + rest.len()),
                });
                rest = "";
                break;
            };
            let inner = &rest[open + 1..open + close];
            let hole_span = span.sub(offset + open, offset + open + close + 1);
            let (name, fmt) = match inner.split_once(':') {
                Some((n, f)) => (n.trim(), Some(f.trim())),
                None => (inner.trim(), None),
            };
            let format = match fmt {
                None => Some(Format::Plain),
                Some(f) => Format::parse(f),
            };
            let hole = if name.starts_with('?') {
                var(name)
                    .map(Hole::Var)
                    .ok_or_else(|| format!("variable `{name}` in the `because` text is never bound in `when`"))
            } else {
                param(name)
                    .map(Hole::Param)
                    .ok_or_else(|| format!("unknown parameter or constant `{name}` in the `because` text"))
            };
            match (hole, format) {
                (Ok(h), Some(f)) => pieces.push(Piece::Hole(h, f)),
                (Err(message), _) => errors.push(TemplateError {
                    message,
                    span: hole_span,
                }),
                (_, None) => errors.push(TemplateError {
                    message: format!(
                        "unknown format `{}` (use rank, ranks, signed, operand or .N)",
                        fmt.unwrap_or("")
                    ),
                    span: hole_span,
                }),
            }
            offset += open + close + 1;
            rest = &rest[open + close + 1..];
        }
        if !rest.is_empty() {
            pieces.push(Piece::Text(rest.to_string()));
        }
        if errors.is_empty() {
            Ok(Template { pieces })
        } else {
            Err(errors)
        }
    }

    /// Fills the holes.
    pub fn render(&self, vars: &[Value], params: &[Value]) -> String {
        let mut out = String::new();
        for p in &self.pieces {
            match p {
                Piece::Text(t) => out.push_str(t),
                Piece::Hole(h, f) => {
                    let v = match h {
                        Hole::Var(s) => vars.get(*s as usize),
                        Hole::Param(i) => params.get(*i as usize),
                    };
                    match v {
                        Some(v) => out.push_str(&format_value(v, f)),
                        None => out.push('?'),
                    }
                }
            }
        }
        out
    }
}
