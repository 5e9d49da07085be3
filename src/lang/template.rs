//! `because` templates: text with `{?var}` and `{param}` holes, each with an optional format
//! (`{?r:rank}` → `10`, `{?r:ranks}` → `tens`, `{?p:.2}` → `0.93`, `{?v:signed}` → `+600`,
//! `{?v:operand}` → `(−217)`).

use super::source::Span;
use crate::cards::card::{rank_label, rank_plural};
use crate::value::{format_decimal, Value};

/// How a hole is shown.
#[derive(Debug, Clone, PartialEq)]
pub enum Format {
    /// The value's people form (cards with suit symbols, strings unquoted).
    Plain,
    /// A rank number as `2`..`10`, `J`, `Q`, `K`, `A`.
    Rank,
    /// A rank number as a plural word: `tens`, `aces`.
    RankPlural,
    /// A number with exactly this many decimal places.
    Places(usize),
    /// A number with its sign always shown: `+600`, `−250`.
    Signed,
    /// A number that follows an operator in the text: negatives in parentheses, so that
    /// `{?a} − {?b:operand}` reads `1657 − (−217)`, never `1657 − -217`.
    Operand,
}

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
                Some("rank") => Some(Format::Rank),
                Some("ranks") => Some(Format::RankPlural),
                Some("signed") => Some(Format::Signed),
                Some("operand") => Some(Format::Operand),
                Some(f) => f
                    .strip_prefix('.')
                    .and_then(|n| n.parse::<usize>().ok())
                    .filter(|n| *n <= 12)
                    .map(Format::Places),
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

/// One value in one format.
pub fn format_value(v: &Value, f: &Format) -> String {
    match (f, v) {
        (Format::Rank, Value::Int(r)) => u8::try_from(*r).map_or_else(|_| r.to_string(), |r| rank_label(r).to_string()),
        (Format::RankPlural, Value::Int(r)) => {
            u8::try_from(*r).map_or_else(|_| r.to_string(), |r| rank_plural(r).to_string())
        }
        (Format::Rank | Format::RankPlural, Value::List(items)) => {
            items.iter().map(|x| format_value(x, f)).collect::<Vec<_>>().join(" ")
        }
        (Format::Places(n), v) if v.as_f64().is_some() => format!("{:.*}", n, v.as_f64().unwrap_or(0.0)),
        (Format::Signed, Value::Int(i)) => {
            if *i >= 0 {
                format!("+{i}")
            } else {
                format!("−{}", i.unsigned_abs())
            }
        }
        (Format::Signed, Value::Num(n)) => {
            let s = format_decimal(n.abs(), 4);
            if *n >= 0.0 {
                format!("+{s}")
            } else {
                format!("−{s}")
            }
        }
        (Format::Operand, Value::Int(i)) if *i < 0 => format!("(−{})", i.unsigned_abs()),
        (Format::Operand, Value::Num(n)) if *n < 0.0 => format!("(−{})", format_decimal(n.abs(), 4)),
        // Cards written as text by a game's own notation read as every other game's cards.
        (_, Value::Str(s)) => cards_in_text(s),
        (Format::Plain, Value::List(items)) => {
            format!(
                "[{}]",
                items.iter().map(|x| format_value(x, f)).collect::<Vec<_>>().join(", ")
            )
        }
        (_, v) => v.pretty(),
    }
}

/// Text made only of cards in letter notation (`KS`, `10D 3C`, `TH`), written with suit symbols
/// as every game prints its cards (`K♠`, `10♦ 3♣`); `None` for any other text.
pub fn card_symbols(s: &str) -> Option<String> {
    let mut out = Vec::new();
    for token in s.split_whitespace() {
        let suit = token.chars().last()?;
        let rank = &token[..token.len() - suit.len_utf8()];
        let rank = match rank {
            "T" => "10",
            "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "10" | "J" | "Q" | "K" | "A" => rank,
            _ => return None,
        };
        let suit = match suit {
            'S' => '♠',
            'H' => '♥',
            'D' => '♦',
            'C' => '♣',
            _ => return None,
        };
        out.push(format!("{rank}{suit}"));
    }
    (!out.is_empty()).then(|| out.join(" "))
}

/// Text with each word that is a card in letter notation (`[2H`, `3D,`) given its suit symbol.
pub fn cards_in_text(s: &str) -> String {
    let words: Vec<String> = s
        .split(' ')
        .map(|w| {
            let core = w.trim_start_matches(['[', '(']);
            let core = core.trim_end_matches([']', ')', ',', ':', ';', '.']);
            match card_symbols(core) {
                Some(card) if !core.is_empty() => w.replacen(core, &card, 1),
                _ => w.to_string(),
            }
        })
        .collect();
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_and_operand_formats() {
        assert_eq!(format_value(&Value::Int(600), &Format::Signed), "+600");
        assert_eq!(format_value(&Value::Int(-250), &Format::Signed), "−250");
        assert_eq!(format_value(&Value::Int(-217), &Format::Operand), "(−217)");
        assert_eq!(format_value(&Value::Int(217), &Format::Operand), "217");
        assert_eq!(format_value(&Value::Num(-0.5), &Format::Operand), "(−0.5)");
    }

    #[test]
    fn card_text_gets_suit_symbols() {
        assert_eq!(card_symbols("KS").as_deref(), Some("K♠"));
        assert_eq!(card_symbols("2H 3H TD 10C").as_deref(), Some("2♥ 3♥ 10♦ 10♣"));
        for other in ["", "H", "5m", "me: K", "AS and", "1X", "♠"] {
            assert_eq!(card_symbols(other), None, "{other}");
        }
        let meld = Value::str("2H 3H");
        assert_eq!(format_value(&meld, &Format::Plain), "2♥ 3♥");
        let said = Value::str("[2H 3H 4H] + [5D], unmelded 3D: AS and 5m");
        assert_eq!(
            format_value(&said, &Format::Plain),
            "[2♥ 3♥ 4♥] + [5♦], unmelded 3♦: A♠ and 5m"
        );
    }
}
