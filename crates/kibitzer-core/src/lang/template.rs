//! `because` templates: text with `{?var}`, `{param}` and `{expression}` holes, each with an
//! optional format (`{?r:rank}` → `10`, `{?r:ranks}` → `tens`, `{?p:.2}` → `0.93`, `{?v:signed}`
//! → `+600`, `{?v:operand}` → `(−217)`, `{names[?i]}`, `{?shape[0]:rank}`).

use super::ir::Expr;
use super::source::Span;
pub use crate::value::format::{card_symbols, cards_in_text, format_value, Format};
use crate::value::Value;

/// What a hole refers to.
#[derive(Debug, Clone, PartialEq)]
pub enum Hole {
    Var(u16),
    Param(u16),
    /// An expression (`{names[?i]}`): its index in `Template::exprs`.
    Expr(u16),
}

/// A piece of a template.
#[derive(Debug, Clone)]
pub enum Piece {
    Text(String),
    Hole(Hole, Format),
}

/// A parsed template.
#[derive(Clone)]
pub struct Template {
    pub pieces: Vec<Piece>,
    /// The expression holes' text and place, in order, for the checker to read.
    pub sources: Vec<(String, Span)>,
    /// The expression holes, checked (filled by the checker from `sources`).
    pub exprs: Vec<Expr>,
}

impl std::fmt::Debug for Template {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Template")
            .field("pieces", &self.pieces)
            .field("exprs", &self.exprs.len())
            .finish()
    }
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
        let mut sources = Vec::new();
        let mut errors = Vec::new();
        let mut rest = text;
        let mut offset = 0usize;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                pieces.push(Piece::Text(rest[..open].to_string()));
            }
            let Some((close, colon)) = hole_end(&rest[open..]) else {
                errors.push(TemplateError {
                    message: "`{` without a closing `}`".into(),
                    span: span.sub(offset + open, offset + rest.len()),
                });
                rest = "";
                break;
            };
            let inner = &rest[open + 1..open + close];
            let hole_span = span.sub(offset + open, offset + open + close + 1);
            let (name, fmt) = match colon {
                Some(c) => (inner[..c - 1].trim(), Some(inner[c..].trim())),
                None => (inner.trim(), None),
            };
            let format = match fmt {
                None => Some(Format::Plain),
                Some(f) => Format::parse(f),
            };
            let simple = name.strip_prefix('?').unwrap_or(name);
            let simple = !simple.is_empty() && simple.chars().all(|c| c.is_alphanumeric() || c == '_');
            let hole = if !simple {
                sources.push((name.to_string(), hole_span));
                Ok(Hole::Expr(sources.len() as u16 - 1))
            } else if name.starts_with('?') {
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
                        "unknown format `{}` (use rank, ranks, signed, operand, raw or .N)",
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
            Ok(Template {
                pieces,
                sources,
                exprs: Vec::new(),
            })
        } else {
            Err(errors)
        }
    }

    /// Fills the holes; `eval` computes an expression hole (`None` when it fails: shown `?`).
    pub fn render(&self, vars: &[Value], params: &[Value], eval: &dyn Fn(&Expr) -> Option<Value>) -> String {
        let mut out = String::new();
        for p in &self.pieces {
            match p {
                Piece::Text(t) => out.push_str(t),
                Piece::Hole(h, f) => {
                    let computed;
                    let v = match h {
                        Hole::Var(s) => vars.get(*s as usize),
                        Hole::Param(i) => params.get(*i as usize),
                        Hole::Expr(i) => {
                            computed = self.exprs.get(*i as usize).and_then(eval);
                            computed.as_ref()
                        }
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

/// Where the hole opening `text` ends (its `}` outside strings and brackets) and, when a format
/// follows it, the place after its last `:` outside strings and brackets: `{names[?i]:rank}`,
/// `{format("{}:{}", ?a, ?b)}`.
fn hole_end(text: &str) -> Option<(usize, Option<usize>)> {
    let (mut depth, mut quoted, mut escaped, mut colon) = (0i32, false, false, None);
    for (i, c) in text.char_indices().skip(1) {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            _ if quoted => {}
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ':' if depth == 0 => colon = Some(i),
            '}' if depth <= 0 => return Some((i, colon)),
            _ => {}
        }
    }
    None
}
