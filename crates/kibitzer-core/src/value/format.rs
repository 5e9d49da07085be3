//! Values as text for people: the formats of `because` holes and of `format(…)` (`{:rank}` → `10`,
//! `{:ranks}` → `tens`, `{:.2}` → `0.93`, `{:signed}` → `+600`, `{:operand}` → `(−217)`, `{:raw}`
//! → text as it is), and cards written in letter notation shown with suit symbols.

use super::{format_decimal, Value, MAX_TEXT_LEN};
use crate::cards::card::{rank_label, rank_plural};

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
    /// The value's text as it is: a string unchanged (a word in card letters, `7C`, keeps its
    /// letters), a list as `[a, b]` of such texts.
    Raw,
}

impl Format {
    /// The format a spec names (`rank`, `ranks`, `signed`, `operand`, `.N` for N ≤ 12 places).
    pub fn parse(spec: &str) -> Option<Format> {
        match spec {
            "rank" => Some(Format::Rank),
            "ranks" => Some(Format::RankPlural),
            "signed" => Some(Format::Signed),
            "operand" => Some(Format::Operand),
            "raw" => Some(Format::Raw),
            f => f
                .strip_prefix('.')
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|n| *n <= 12)
                .map(Format::Places),
        }
    }
}

/// `template` with each `{}` or `{:spec}` filled by the next of `args` in that format; `{{` and
/// `}}` stand for braces. An error names what is wrong: an unclosed or unknown hole, too few or
/// too many values; and a text longer than [`MAX_TEXT_LEN`] bytes is refused, once the template
/// is known to be well formed. The values may be given owned or borrowed (a built-in's arguments).
pub fn format_template<V: std::borrow::Borrow<Value>>(template: &str, args: &[V]) -> Result<String, String> {
    let mut out = String::new();
    // Past the limit nothing more is written, but the template is still read to its end.
    let mut over = false;
    let mut next = 0;
    let mut chars = template.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '{' if chars.peek().map(|&(_, d)| d) == Some('{') => {
                chars.next();
                out.push('{');
            }
            '}' if chars.peek().map(|&(_, d)| d) == Some('}') => {
                chars.next();
                out.push('}');
            }
            '{' => {
                let rest = &template[i + 1..];
                let close = rest.find('}').ok_or("a `{` without its `}`")?;
                let inner = &rest[..close];
                let format = match inner.strip_prefix(':') {
                    _ if inner.is_empty() => Format::Plain,
                    Some(spec) => Format::parse(spec.trim()).ok_or_else(|| {
                        format!("unknown format `{spec}` (use rank, ranks, signed, operand, raw or .N)")
                    })?,
                    None => return Err(format!("`{{{inner}}}`: a hole is `{{}}` or `{{:format}}`")),
                };
                let v = args
                    .get(next)
                    .ok_or_else(|| format!("the template has more holes than the {} value(s) given", args.len()))?;
                if !over {
                    match format_value_within(v.borrow(), &format, MAX_TEXT_LEN.saturating_sub(out.len())) {
                        Some(text) => out.push_str(&text),
                        None => over = true,
                    }
                }
                next += 1;
                for _ in 0..inner.chars().count() + 1 {
                    chars.next();
                }
            }
            '}' => return Err("a `}` without its `{` (write `}}` for a brace)".into()),
            c => out.push(c),
        }
    }
    if next < args.len() {
        return Err(format!(
            "{} value(s) given for {next} hole(s) in the template",
            args.len()
        ));
    }
    if over || out.len() > MAX_TEXT_LEN {
        return Err(format!("the text would be longer than {MAX_TEXT_LEN} bytes"));
    }
    Ok(out)
}

/// One value in one format. A list whose text would pass [`MAX_TEXT_LEN`] bytes (one shared list
/// held many times over, made by doubling in a loop) shows as a short note instead, made in
/// bounded time.
pub fn format_value(v: &Value, f: &Format) -> String {
    format_value_within(v, f, MAX_TEXT_LEN).unwrap_or_else(|| {
        super::too_long_note(match v {
            Value::List(items) => items.len(),
            _ => 1,
        })
    })
}

/// [`format_value`] when its text is at most `limit` bytes long, else `None` (found as soon as
/// the text written passes `limit`: a huge shared list is never written out).
pub fn format_value_within(v: &Value, f: &Format, limit: usize) -> Option<String> {
    let mut out = String::new();
    write_value(&mut out, v, f, limit).then_some(out)
}

/// Writes `v` in format `f` after `out`; false as soon as `out` passes `limit` bytes.
fn write_value(out: &mut String, v: &Value, f: &Format, limit: usize) -> bool {
    match (f, v) {
        (Format::Rank | Format::RankPlural, Value::List(items)) => {
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                if !write_value(out, x, f, limit) {
                    return false;
                }
            }
        }
        (Format::Plain, Value::List(items)) => {
            out.push('[');
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                if !write_value(out, x, f, limit) {
                    return false;
                }
            }
            out.push(']');
        }
        // Other formats show a list as `Value::pretty` does, and `raw` any value.
        (_, Value::List(_)) | (Format::Raw, _) => return write_pretty(out, v, limit),
        (f, v) => out.push_str(&scalar_text(v, f)),
    }
    out.len() <= limit
}

/// Writes `v` as [`Value::pretty`] shows it after `out`; false as soon as `out` passes `limit`.
pub(crate) fn write_pretty(out: &mut String, v: &Value, limit: usize) -> bool {
    match v {
        Value::List(items) => {
            out.push('[');
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                if !write_pretty(out, x, limit) {
                    return false;
                }
            }
            out.push(']');
        }
        v => out.push_str(&v.pretty()),
    }
    out.len() <= limit
}

/// One value that is not a list, in one format.
fn scalar_text(v: &Value, f: &Format) -> String {
    match (f, v) {
        // A number that is no rank (2..14) shows as the number, whatever its size.
        (Format::Rank, Value::Int(r @ 2..=14)) => rank_label(*r as u8).to_string(),
        (Format::RankPlural, Value::Int(r @ 2..=14)) => rank_plural(*r as u8).to_string(),
        (Format::Rank | Format::RankPlural, Value::Int(r)) => r.to_string(),
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
    fn raw_keeps_text_in_card_letters_as_it_is() {
        let text = Value::str("take 7C, discard KC");
        assert_eq!(format_value(&text, &Format::Plain), "take 7♣, discard K♣");
        assert_eq!(format_value(&text, &Format::Raw), "take 7C, discard KC");
        let list = Value::list(vec![Value::str("2H 3H"), Value::Int(-4)]);
        assert_eq!(format_value(&list, &Format::Raw), "[2H 3H, -4]");
        assert_eq!(
            format_template("{:raw} {}", &[Value::str("TH"), Value::str("TH")]).unwrap(),
            "TH 10♥"
        );
    }

    #[test]
    fn a_number_that_is_no_rank_shows_as_the_number() {
        for (r, want) in [(0, "0"), (1, "1"), (15, "15"), (300, "300"), (-2, "-2")] {
            assert_eq!(format_value(&Value::Int(r), &Format::Rank), want);
            assert_eq!(format_value(&Value::Int(r), &Format::RankPlural), want);
        }
        assert_eq!(format_value(&Value::Int(14), &Format::Rank), "A");
        assert_eq!(format_value(&Value::Int(10), &Format::RankPlural), "tens");
    }

    #[test]
    fn templates_fill_holes_in_order_with_their_formats() {
        let args = [Value::Int(10), Value::Num(0.9251), Value::Int(-3), Value::str("KS")];
        assert_eq!(
            format_template("{:ranks} at {:.2}, {:signed} {}", &args).as_deref(),
            Ok("tens at 0.93, −3 K♠")
        );
        assert_eq!(format_template("{{}} {}", &[Value::Int(1)]).as_deref(), Ok("{} 1"));
        assert_eq!(format_template("soft {}", &[Value::Int(17)]).as_deref(), Ok("soft 17"));
        for (t, n) in [("{}", 0), ("{", 1), ("}", 0), ("{:bold}", 1), ("{x}", 1), ("x", 1)] {
            let args = vec![Value::Int(1); n];
            assert!(format_template(t, &args).is_err(), "{t} with {n}");
        }
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
