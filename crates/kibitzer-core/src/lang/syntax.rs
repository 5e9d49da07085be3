//! The pest parser wrapped: text in, [`AstFile`] or a syntax [`Diagnostic`] out. The pest-derived
//! types stay private to this file; only the AST leaves it.

use super::ast::*;
use super::diagnostics::Diagnostic;
use super::source::Span;
use pest::iterators::Pair;
use pest::Parser as _;

/// The generated parser and its `Rule` enum, kept in a private module so that neither is public.
mod generated {
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/kibitzer.pest"]
    pub(in crate::lang) struct RuleParser;
}

// The formatter (`format.rs`) reads the parse tree too, to keep every token as written.
pub(super) use generated::{Rule, RuleParser};

type P<'a> = Pair<'a, Rule>;

/// Keyword tokens carry no data; the builder skips them.
fn not_keyword(p: &P) -> bool {
    !matches!(
        p.as_rule(),
        Rule::kw_when
            | Rule::kw_then
            | Rule::kw_end
            | Rule::kw_not
            | Rule::kw_in
            | Rule::kw_whatif
            | Rule::kw_yields
            | Rule::kw_assert
            | Rule::kw_retract
            | Rule::kw_modify
            | Rule::kw_logical
            | Rule::kw_if
            | Rule::kw_else
            | Rule::kw_group
    )
}

/// Deepest nesting of parentheses, brackets and braces a rule file may use. The parser, the checker and
/// the evaluator all recurse on nesting, so an unbounded depth (`((((…1))))` five thousand deep)
/// would overflow the stack; no real rule comes near this.
pub const MAX_NESTING: usize = 64;

/// Longest chain of one kind of operator in one expression (`1+1+…`, `--…-x`, `l[0][0]…`). A chain
/// builds a tree as deep as it is long, so it is bounded like nesting is.
pub const MAX_CHAIN: usize = 256;

/// The deepest expression tree accepted (nesting and chains combined).
pub const MAX_EXPR_DEPTH: usize = 256;

/// Finds the first `(`, `[` or `{` nested deeper than [`MAX_NESTING`], outside strings and
/// comments, before pest (which recurses on nesting too) sees the text.
fn check_nesting(file: u32, text: &str) -> Result<(), Diagnostic> {
    let mut depth = 0usize;
    let mut chars = text.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '#' => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '"' => {
                while let Some((_, c)) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' | '\n' => break,
                        _ => {}
                    }
                }
            }
            '(' | '[' | '{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(Diagnostic::error(
                        Span::new(file, at, at + 1),
                        format!(
                            "nested too deeply: more than {MAX_NESTING} levels of parentheses, brackets and braces"
                        ),
                    ));
                }
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// Depth of an expression tree, giving up (returning `limit + 1`) past `limit`, so that the
/// measuring never recurses deeper than the limit itself.
fn expr_depth(e: &AstExpr, limit: usize) -> usize {
    if limit == 0 {
        return 1;
    }
    let below = |x: &AstExpr| expr_depth(x, limit - 1);
    1 + match &e.kind {
        AstExprKind::Binary(_, a, b) => below(a).max(below(b)),
        AstExprKind::Unary(_, a) => below(a),
        AstExprKind::Index(a, b) => below(a).max(below(b)),
        AstExprKind::If(c, a, b) => below(c).max(below(a)).max(below(b)),
        AstExprKind::List(items) => items.iter().map(below).max().unwrap_or(0),
        AstExprKind::Call(c) => c.args.iter().map(below).max().unwrap_or(0),
        _ => 0,
    }
}

/// Parses one rule file. `file` is the id of `text` in the caller's source map.
pub fn parse_rules(file: u32, text: &str) -> Result<AstFile, Diagnostic> {
    check_nesting(file, text)?;
    // Item by item: the parser's tokens for one item at a time, not for the whole file (ten
    // thousand rules would hold some 70 MB of them at once).
    let mut out = AstFile::default();
    let mut pos = 0;
    while RuleParser::parse(Rule::file_end, &text[pos..item_window(text, pos)]).is_err() {
        // Parsed within its window when it fills it exactly (each parse costs the parser a scan
        // of all the text it is given), else within the rest of the file.
        let parse = |end: usize| {
            RuleParser::parse(Rule::next_item, &text[pos..end])
                .ok()
                .and_then(|mut pairs| pairs.next())
                .and_then(|p| p.into_inner().next())
        };
        let window = item_window(text, pos);
        let item = parse(window)
            .filter(|item| RuleParser::parse(Rule::file_end, &text[pos + item.as_span().end()..window]).is_ok())
            .or_else(|| parse(text.len()));
        let Some(item) = item else {
            // The whole file's parse names what was expected as the grammar sees it there.
            return Err(match RuleParser::parse(Rule::file, text) {
                Err(e) => syntax_error(file, text, e),
                Ok(_) => Diagnostic::error(Span::new(file, pos, pos), "syntax error"),
            });
        };
        let end = pos + item.as_span().end();
        out.items.push(Builder { file, offset: pos }.item(item)?);
        pos = end;
    }
    Ok(out)
}

/// An expression written alone (a `because` hole's), whose text starts at `offset` in `file`.
pub fn parse_expr(file: u32, text: &str, offset: usize) -> Result<AstExpr, Diagnostic> {
    check_nesting(file, text)?;
    let expr = RuleParser::parse(Rule::expr_only, text)
        .ok()
        .and_then(|mut pairs| pairs.next())
        .and_then(|p| p.into_inner().next())
        .ok_or_else(|| {
            Diagnostic::error(
                Span::new(file, offset, offset + text.len()),
                format!("`{text}` is not an expression"),
            )
        })?;
    Builder { file, offset }.expr(expr)
}

/// Where the item starting at or after `pos` (past space and comments) ends as far as its
/// words show: after the `end` of a rule, else before the next word that starts an item (outside
/// strings and comments), else at the end of the text. `parse_rules` checks the parse fills it.
fn item_window(text: &str, pos: usize) -> usize {
    const STARTS: [&str; 9] = [
        "ruleset", "include", "input", "output", "param", "const", "strategy", "group", "rule",
    ];
    let bytes = text.as_bytes();
    let word_char = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'.';
    let mut i = pos;
    let mut first: Option<&str> = None;
    while i < bytes.len() {
        match bytes[i] {
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b if word_char(b) => {
                let start = i;
                while i < bytes.len() && word_char(bytes[i]) {
                    i += 1;
                }
                let word = &text[start..i];
                match first {
                    None => first = Some(word),
                    Some("rule") if word == "end" => return i,
                    Some("rule") => {}
                    Some(_) if STARTS.contains(&word) => return start,
                    Some(_) => {}
                }
            }
            _ => i += 1,
        }
    }
    text.len()
}

fn syntax_error(file: u32, text: &str, e: pest::error::Error<Rule>) -> Diagnostic {
    let pos = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let rest = text.get(pos..).unwrap_or("");
    let token: String = rest.chars().take_while(|c| !c.is_whitespace()).take(24).collect();
    let end = pos + token.len().max(1);
    // A bracket opened on an earlier line and never closed: the parser only notices at the next
    // line (often the rule's `end`), so the mistake is shown where the bracket opens.
    if let Some(open) = unclosed_bracket(text, pos) {
        let line = |at: usize| text[..at].matches('\n').count() + 1;
        if line(open) < line(pos) {
            let bracket = &text[open..open + 1];
            let stopped = if token.is_empty() {
                "the end of the file".to_string()
            } else {
                format!("`{token}` on line {}", line(pos))
            };
            return Diagnostic::error(
                Span::new(file, open, open + 1),
                format!("syntax error: this `{bracket}` is never closed (the parser stopped at {stopped})"),
            );
        }
    }
    let expected = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => describe_expected(positives),
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    let found = if token.is_empty() {
        "end of file".to_string()
    } else {
        format!("`{token}`")
    };
    let hint = fix_hint(text, pos, &token)
        .map(|h| format!(" ({h})"))
        .unwrap_or_default();
    Diagnostic::error(
        Span::new(file, pos, end.min(text.len()).max(pos)),
        format!("syntax error: unexpected {found}; expected {expected}{hint}"),
    )
}

/// The fix for the commonest mistakes at a syntax error: a single-quoted string, `=` to compare,
/// a rule left open by a missing `then` or `end`, a group without its policy.
fn fix_hint(text: &str, pos: usize, token: &str) -> Option<String> {
    if token.starts_with('\'') {
        return Some("strings are written in double quotes: \"…\"".into());
    }
    // `group NAME` without its policy: the next item is where the parser stops.
    let last_line = text[..pos].trim_end().rsplit('\n').next().unwrap_or("");
    if let ["group", name] = last_line.split_whitespace().collect::<Vec<_>>().as_slice() {
        return Some(format!("a group says how it picks: `group {name} first`"));
    }
    if token.starts_with('=') && !token.starts_with("==") {
        return Some("to compare, write `==`; `=` binds a variable: `?x = …`".into());
    }
    let word: String = token
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    // The last rule opened before here.
    let before = &text[..pos];
    let line_start = |i: usize| before[..i].rsplit('\n').next().is_some_and(|l| l.trim().is_empty());
    let rule_at = before.rmatch_indices("rule ").map(|(i, _)| i).find(|&i| line_start(i));
    // `if` where an expression cannot be (an action), or an `if` with no `else` that a condition
    // starts with: the parser stops at the action after it.
    if word == "if" {
        return Some(format!(
            "`if … then … else …` is an expression, usable where a value is: `assert a(if ?x > 3 then 1 else 2)`; {IF_INSTEAD}"
        ));
    }
    if let Some(line) = rule_at.and_then(|at| open_if(text, at, pos)) {
        return Some(format!(
            "the `if` on line {line} starts an expression, `if … then … else …`, usable where a value is: `?y = if ?x > 3 then 1 else 2`; {IF_INSTEAD}"
        ));
    }
    let action = matches!(word.as_str(), "assert" | "retract" | "modify" | "halt");
    if token.is_empty() || word == "rule" || action {
        // The rule, if its `end` was never reached.
        let at = rule_at?;
        let name: String = before[at + 5..]
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let body = &before[at..];
        let has = |w: &str| {
            body.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|x| x == w)
        };
        return Some(match (has("then"), action) {
            (false, true) => format!("rule `{name}` needs `then` before its actions"),
            (true, true) => return None,
            (true, false) => format!("rule `{name}` is still open: it needs `end`"),
            (false, false) => format!("rule `{name}` is still open: it needs `then` … `end`"),
        });
    }
    None
}

/// What to write instead of an `if` that chooses what a rule does.
const IF_INSTEAD: &str = "to act only when something holds, write the test alone as a condition (`?x > 3`), or give each case its rule in a first-match group (`group NAME first`)";

/// The line of the last `if` between `from` and `pos` that no `else` follows (outside strings and
/// comments), if any.
fn open_if(text: &str, from: usize, pos: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut open: Vec<usize> = Vec::new();
    let mut i = from;
    while i < pos {
        match bytes[i] {
            b'#' => {
                while i < pos && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' => {
                i += 1;
                while i < pos && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            c if c.is_ascii_alphanumeric() || c == b'_' || c == b'?' => {
                let start = i;
                while i < pos && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'?') {
                    i += 1;
                }
                match &text[start..i] {
                    "if" => open.push(start),
                    "else" => {
                        open.pop();
                    }
                    _ => {}
                }
            }
            _ => i += 1,
        }
    }
    open.last().map(|&at| text[..at].matches('\n').count() + 1)
}

/// The innermost `(` or `[` open at `pos` that is not closed before the item ends (a line that
/// starts with `end` or with a word that starts an item), outside strings and comments.
fn unclosed_bracket(text: &str, pos: usize) -> Option<usize> {
    const STARTS: [&str; 10] = [
        "ruleset", "include", "input", "output", "param", "const", "strategy", "group", "rule", "end",
    ];
    let bytes = text.as_bytes();
    let mut open: Vec<usize> = Vec::new();
    let mut i = 0;
    // Before `pos`: the brackets open there. After it: whether the innermost closes in its item.
    let mut innermost: Option<(usize, usize)> = None;
    while i < bytes.len() {
        if i >= pos && innermost.is_none() {
            innermost = Some((*open.last()?, open.len()));
        }
        match bytes[i] {
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' | b'[' => open.push(i),
            b')' | b']' => {
                open.pop();
                if let Some((_, depth)) = innermost {
                    if open.len() < depth {
                        return None;
                    }
                }
            }
            b'\n' if innermost.is_some() => {
                let next = text[i + 1..].trim_start_matches([' ', '\t']);
                let word: String = next
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if STARTS.contains(&word.as_str()) {
                    break;
                }
            }
            _ => {}
        }
        i += 1;
    }
    match innermost {
        Some((at, _)) => Some(at),
        None => open.last().copied(),
    }
}

fn describe_expected(rules: &[Rule]) -> String {
    let mut names: Vec<&str> = rules.iter().map(|r| rule_name(*r)).collect();
    names.sort_unstable();
    names.dedup();
    match names.len() {
        0 => "something else".to_string(),
        1 => names[0].to_string(),
        _ => {
            let last = names.pop().unwrap_or_default();
            format!("{} or {}", names.join(", "), last)
        }
    }
}

fn rule_name(which: Rule) -> &'static str {
    match which {
        Rule::EOI => "end of file",
        Rule::ruleset_decl => "`ruleset`",
        Rule::include_decl => "`include`",
        Rule::input_decl => "`input`",
        Rule::output_decl => "`output`",
        Rule::param_decl => "`param`",
        Rule::const_decl => "`const`",
        Rule::domain => "a domain (`in LOW..HIGH`, `in [...]`)",
        Rule::input_default => "a default (`= VALUE`)",
        Rule::rule => "`rule`",
        Rule::salience => "`salience`",
        Rule::because => "`because`",
        Rule::condition | Rule::not_cond | Rule::whatif_cond | Rule::binding | Rule::handle_cond => "a condition",
        Rule::action | Rule::assert_action | Rule::retract_action | Rule::modify_action | Rule::halt_action => {
            "an action (`assert`, `retract`, `modify`, `halt`)"
        }
        Rule::strategy_decl => "`strategy`",
        Rule::group_decl => "`group`",
        Rule::in_group => "`in GROUP`",
        Rule::expr
        | Rule::or_expr
        | Rule::and_expr
        | Rule::cmp_expr
        | Rule::add_expr
        | Rule::mul_expr
        | Rule::unary
        | Rule::postfix
        | Rule::primary => "an expression",
        Rule::cmp_op => "a comparison",
        Rule::add_op | Rule::mul_op | Rule::op_and | Rule::op_or => "an operator",
        Rule::call => "a call",
        Rule::var => "a variable `?name`",
        Rule::ident | Rule::ident_raw | Rule::qualified | Rule::name => "a name",
        Rule::string => "a string",
        Rule::int | Rule::signed_int | Rule::int_range => "an integer",
        Rule::decimal => "a number",
        Rule::literal => "a literal",
        Rule::type_expr => "a type",
        Rule::named_arg => "`input: value`",
        Rule::aggregate | Rule::agg_op | Rule::agg_value => "an aggregate",
        _ => "something else",
    }
}

struct Builder {
    file: u32,
    /// Where in the file the text parsed starts (spans are the file's).
    offset: usize,
}

impl Builder {
    fn span(&self, p: &P) -> Span {
        let s = p.as_span();
        Span::new(self.file, self.offset + s.start(), self.offset + s.end())
    }

    fn ident(&self, p: P) -> Ident {
        Ident {
            span: self.span(&p),
            name: p.as_str().to_string(),
        }
    }

    /// A `?name` token as written (with its `?`, as bindings keep it).
    fn var(&self, p: &P) -> Ident {
        Ident {
            span: self.span(p),
            name: p.as_str().to_string(),
        }
    }

    fn err(&self, p: &P, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.span(p), msg)
    }

    fn too_long(&self, at: &P) -> Diagnostic {
        self.err(
            at,
            format!("expression too long: more than {MAX_CHAIN} operators in a row"),
        )
    }

    fn item(&self, p: P) -> Result<AstItem, Diagnostic> {
        let span = self.span(&p);
        let kind = p.as_rule();
        let mut inner = p.into_inner().filter(not_keyword);
        Ok(match kind {
            Rule::ruleset_decl => {
                let name = self.ident(next(&mut inner, span)?);
                let description = inner.next().map(|s| self.string(&s)).transpose()?;
                AstItem::RuleSet {
                    name,
                    description,
                    span,
                }
            }
            Rule::include_decl => {
                let s = next(&mut inner, span)?;
                AstItem::Include {
                    path: self.string(&s)?,
                    span,
                }
            }
            Rule::input_decl => {
                let name = self.ident(next(&mut inner, span)?);
                let ty = self.type_expr(next(&mut inner, span)?)?;
                let (mut default, mut domain, mut doc) = (None, None, None);
                for part in inner {
                    match part.as_rule() {
                        Rule::input_default => default = Some(self.literal(next(&mut part.into_inner(), span)?)?),
                        Rule::domain => domain = Some(self.domain(part, span)?),
                        _ => doc = Some(self.string(&part)?),
                    }
                }
                AstItem::Input(AstInput {
                    name,
                    ty,
                    default,
                    domain,
                    doc,
                    span,
                })
            }
            Rule::output_decl => {
                let (mut names, mut answers) = (Vec::new(), Vec::new());
                for item in inner {
                    let mut parts = item.into_inner();
                    names.push(self.ident(next(&mut parts, span)?));
                    answers.push(parts.next().map(|a| match a.into_inner().count() {
                        2 => Answers::ExactlyOne,
                        _ => Answers::One,
                    }));
                }
                AstItem::Output { names, answers, span }
            }
            Rule::param_decl => {
                let name = self.ident(next(&mut inner, span)?);
                let value = self.literal(next(&mut inner, span)?)?;
                let mut domain = None;
                let mut doc = None;
                for part in inner {
                    match part.as_rule() {
                        Rule::domain => domain = Some(self.domain(part, span)?),
                        _ => doc = Some(self.string(&part)?),
                    }
                }
                AstItem::Param(AstParam {
                    name,
                    value,
                    domain,
                    doc,
                    span,
                })
            }
            Rule::const_decl => {
                let name = self.ident(next(&mut inner, span)?);
                let value = self.literal(next(&mut inner, span)?)?;
                AstItem::Const { name, value, span }
            }
            Rule::strategy_decl => AstItem::Strategy {
                name: self.ident(next(&mut inner, span)?),
                span,
            },
            Rule::group_decl => {
                let name = self.ident(next(&mut inner, span)?);
                let policy = self.ident(next(&mut inner, span)?);
                AstItem::Group { name, policy, span }
            }
            Rule::rule => AstItem::Rule(self.rule(inner, span)?),
            _ => return Err(Diagnostic::error(span, "unexpected declaration")),
        })
    }

    fn type_expr(&self, p: P) -> Result<AstType, Diagnostic> {
        let span = self.span(&p);
        let mut inner = p.into_inner().filter(not_keyword);
        let name = self.ident(next(&mut inner, span)?);
        let mut args = Vec::new();
        for arg in inner {
            let aspan = self.span(&arg);
            let mut key = None;
            let mut range = None;
            for part in arg.into_inner().filter(not_keyword) {
                match part.as_rule() {
                    Rule::ident => key = Some(self.ident(part)),
                    Rule::int_range => {
                        let mut ints = part.into_inner().filter(not_keyword);
                        let lo = self.int(&next(&mut ints, aspan)?)?;
                        let hi = match ints.next() {
                            Some(h) => self.int(&h)?,
                            None => lo,
                        };
                        range = Some((lo, hi));
                    }
                    _ => {}
                }
            }
            let (min, max) = range.ok_or_else(|| Diagnostic::error(aspan, "missing number"))?;
            args.push(AstTypeArg {
                key,
                min,
                max,
                span: aspan,
            });
        }
        Ok(AstType { name, args, span })
    }

    fn rule<'a>(&self, inner: impl Iterator<Item = P<'a>>, span: Span) -> Result<AstRule, Diagnostic> {
        let mut name = None;
        let mut title = None;
        let mut salience = 0;
        let mut groups = Vec::new();
        let mut conditions = Vec::new();
        let mut actions = Vec::new();
        let mut because = None;
        for part in inner {
            match part.as_rule() {
                Rule::ident => name = Some(self.ident(part)),
                Rule::string => title = Some(self.string(&part)?),
                Rule::in_group => {
                    let g = next(&mut part.into_inner().filter(not_keyword), span)?;
                    groups.push(self.ident(g));
                }
                Rule::salience => {
                    let n = next(&mut part.clone().into_inner().filter(not_keyword), span)?;
                    let v = self.int(&n)?;
                    salience = i32::try_from(v).map_err(|_| self.err(&n, format!("salience `{v}` is out of range")))?;
                }
                Rule::because => {
                    let s = next(&mut part.into_inner().filter(not_keyword), span)?;
                    let text = self.string(&s)?;
                    let sspan = self.span(&s);
                    // Point inside the quotes so `{...}` errors land on the right column.
                    because = Some((text, sspan.sub(1, (sspan.end - sspan.start) as usize)));
                }
                Rule::assert_action => {
                    let logical = part.clone().into_inner().any(|p| p.as_rule() == Rule::kw_logical);
                    let c = next(&mut part.into_inner().filter(not_keyword), span)?;
                    let call = self.call(c)?;
                    actions.push(match logical {
                        true => AstAction::AssertLogical(call),
                        false => AstAction::Assert(call),
                    });
                }
                Rule::retract_action => {
                    let c = next(&mut part.into_inner().filter(not_keyword), span)?;
                    actions.push(match c.as_rule() {
                        Rule::var => AstAction::RetractHandle(self.var(&c)),
                        _ => AstAction::Retract(self.call(c)?),
                    });
                }
                Rule::modify_action => {
                    let mspan = self.span(&part);
                    let mut inner = part.into_inner().filter(not_keyword);
                    let handle = self.var(&next(&mut inner, mspan)?);
                    let args = inner.map(|e| self.expr(e)).collect::<Result<Vec<_>, _>>()?;
                    actions.push(AstAction::Modify {
                        handle,
                        args,
                        span: mspan,
                    });
                }
                Rule::halt_action => actions.push(AstAction::Halt(self.span(&part))),
                _ => conditions.push(self.condition(part)?),
            }
        }
        Ok(AstRule {
            name: name.ok_or_else(|| Diagnostic::error(span, "rule without a name"))?,
            title,
            groups,
            salience,
            conditions,
            actions,
            because,
            span,
        })
    }

    fn condition(&self, p: P) -> Result<AstCondition, Diagnostic> {
        let span = self.span(&p);
        match p.as_rule() {
            Rule::not_cond => {
                let mut body = Vec::new();
                for c in p.into_inner().filter(not_keyword) {
                    if c.as_rule() == Rule::call {
                        let call = self.call(c)?;
                        let cspan = call.span;
                        body.push(AstCondition::Expr(AstExpr {
                            kind: AstExprKind::Call(call),
                            span: cspan,
                        }));
                    } else {
                        body.push(self.condition(c)?);
                    }
                }
                Ok(AstCondition::Not { body, span })
            }
            Rule::whatif_cond => {
                let mut inner = p.into_inner().filter(not_keyword);
                let ruleset = self.ident(next(&mut inner, span)?);
                let mut inputs = Vec::new();
                let mut pattern = None;
                for part in inner {
                    match part.as_rule() {
                        Rule::named_arg => {
                            let mut kv = part.into_inner().filter(not_keyword);
                            let k = self.ident(next(&mut kv, span)?);
                            let v = self.expr(next(&mut kv, span)?)?;
                            inputs.push((k, v));
                        }
                        Rule::call => pattern = Some(self.call(part)?),
                        _ => {}
                    }
                }
                Ok(AstCondition::WhatIf {
                    ruleset,
                    inputs,
                    pattern: pattern.ok_or_else(|| Diagnostic::error(span, "whatif without `yields`"))?,
                    span,
                })
            }
            Rule::handle_cond => {
                let mut inner = p.into_inner().filter(not_keyword);
                let var = self.var(&next(&mut inner, span)?);
                let pattern = self.call(next(&mut inner, span)?)?;
                Ok(AstCondition::Handle { var, pattern, span })
            }
            Rule::binding => {
                let mut inner = p.into_inner().filter(not_keyword);
                let v = next(&mut inner, span)?;
                let var = Ident {
                    span: self.span(&v),
                    name: v.as_str().to_string(),
                };
                let rhs = next(&mut inner, span)?;
                let value = if rhs.as_rule() == Rule::aggregate {
                    AstBindValue::Aggregate(self.aggregate(rhs)?)
                } else {
                    AstBindValue::Expr(self.expr(rhs)?)
                };
                Ok(AstCondition::Bind { var, value, span })
            }
            Rule::expr => Ok(AstCondition::Expr(self.expr(p)?)),
            _ => Err(Diagnostic::error(span, "unexpected condition")),
        }
    }

    fn aggregate(&self, p: P) -> Result<AstAggregate, Diagnostic> {
        let span = self.span(&p);
        let mut op = AggregateOp::Count;
        let mut value = None;
        let mut body = Vec::new();
        for part in p.into_inner().filter(not_keyword) {
            match part.as_rule() {
                Rule::agg_op => {
                    op = match part.as_str().trim() {
                        "sum" => AggregateOp::Sum,
                        "min" => AggregateOp::Min,
                        "max" => AggregateOp::Max,
                        _ => AggregateOp::Count,
                    }
                }
                Rule::agg_value => {
                    let part_span = self.span(&part);
                    let expr = next(&mut part.into_inner().filter(not_keyword), part_span)?;
                    value = Some(self.expr(expr)?);
                }
                _ => body.push(self.condition(part)?),
            }
        }
        Ok(AstAggregate { op, value, body, span })
    }

    fn call(&self, p: P) -> Result<AstCall, Diagnostic> {
        let span = self.span(&p);
        let mut inner = p.into_inner().filter(not_keyword);
        let name = self.ident(next(&mut inner, span)?);
        let args = inner.map(|a| self.expr(a)).collect::<Result<_, _>>()?;
        Ok(AstCall { name, args, span })
    }

    fn expr(&self, p: P) -> Result<AstExpr, Diagnostic> {
        let span = self.span(&p);
        match p.as_rule() {
            Rule::expr => {
                let inner = next(&mut p.into_inner().filter(not_keyword), span)?;
                let e = self.expr(inner)?;
                if expr_depth(&e, MAX_EXPR_DEPTH) > MAX_EXPR_DEPTH {
                    return Err(Diagnostic::error(
                        span,
                        format!("expression nested too deeply: more than {MAX_EXPR_DEPTH} levels"),
                    ));
                }
                Ok(e)
            }
            Rule::or_expr | Rule::and_expr | Rule::add_expr | Rule::mul_expr | Rule::cmp_expr => {
                self.binary_chain(p, span)
            }
            Rule::unary => self.unary(p, span),
            Rule::if_expr => {
                let mut parts = p.into_inner().filter(not_keyword);
                let mut part =
                    || -> Result<Box<AstExpr>, Diagnostic> { Ok(Box::new(self.expr(next(&mut parts, span)?)?)) };
                let (c, a, b) = (part()?, part()?, part()?);
                Ok(AstExpr {
                    kind: AstExprKind::If(c, a, b),
                    span,
                })
            }
            Rule::postfix => self.postfix(p, span),
            Rule::list => {
                let items = p
                    .into_inner()
                    .filter(not_keyword)
                    .map(|e| self.expr(e))
                    .collect::<Result<_, _>>()?;
                Ok(AstExpr {
                    kind: AstExprKind::List(items),
                    span,
                })
            }
            Rule::call => Ok(AstExpr {
                kind: AstExprKind::Call(self.call(p)?),
                span,
            }),
            Rule::var => Ok(AstExpr {
                kind: AstExprKind::Var(p.as_str().to_string()),
                span,
            }),
            Rule::wildcard => Ok(AstExpr {
                kind: AstExprKind::Wildcard,
                span,
            }),
            Rule::name => Ok(AstExpr {
                kind: AstExprKind::Name(p.as_str().to_string()),
                span,
            }),
            Rule::decimal | Rule::int | Rule::string | Rule::boolean => Ok(AstExpr {
                kind: AstExprKind::Literal(self.literal(p)?),
                span,
            }),
            _ => Err(self.err(&p, "unexpected expression")),
        }
    }

    /// `a OP b OP c …`, left-associative, at most `MAX_CHAIN` links.
    /// The span of each link runs from the first operand's text to the last's, parentheses
    /// around an operand included (an operand's own node spans what is inside them).
    fn binary_chain(&self, p: P, span: Span) -> Result<AstExpr, Diagnostic> {
        let mut inner = p.into_inner().filter(not_keyword);
        let first = next(&mut inner, span)?;
        let start = self.span(&first).start;
        let mut acc = self.expr(first)?;
        let mut links = 0;
        while let Some(op) = inner.next() {
            links += 1;
            if links > MAX_CHAIN {
                return Err(self.too_long(&op));
            }
            let rhs = next(&mut inner, span)?;
            let end = self.span(&rhs).end;
            let rhs = self.expr(rhs)?;
            let Some(bop) = binary_op(op.as_str().trim()) else {
                return Err(self.err(&op, format!("unknown operator `{}`", op.as_str().trim())));
            };
            let s = Span {
                file: self.file,
                start,
                end,
            };
            acc = AstExpr {
                kind: AstExprKind::Binary(bop, Box::new(acc), Box::new(rhs)),
                span: s,
            };
        }
        Ok(acc)
    }

    /// `-x`, `!x`, `- -x`: the operators apply from the innermost out.
    fn unary(&self, p: P, span: Span) -> Result<AstExpr, Diagnostic> {
        let parts: Vec<P> = p.into_inner().filter(not_keyword).collect();
        if parts.len() > MAX_CHAIN {
            return Err(Diagnostic::error(
                span,
                format!("expression too long: more than {MAX_CHAIN} operators in a row"),
            ));
        }
        let mut iter = parts.into_iter().rev();
        let last = iter.next().ok_or_else(|| Diagnostic::error(span, "empty expression"))?;
        let mut acc = self.expr(last)?;
        for op in iter {
            let op = if op.as_str() == "-" { UnaryOp::Neg } else { UnaryOp::Not };
            acc = AstExpr {
                kind: AstExprKind::Unary(op, Box::new(acc)),
                span,
            };
        }
        Ok(acc)
    }

    /// `x[i][j] …`, at most `MAX_CHAIN` indexes.
    fn postfix(&self, p: P, span: Span) -> Result<AstExpr, Diagnostic> {
        let mut inner = p.into_inner().filter(not_keyword);
        let mut acc = self.expr(next(&mut inner, span)?)?;
        for (n, idx) in inner.enumerate() {
            if n >= MAX_CHAIN {
                return Err(self.too_long(&idx));
            }
            let i = self.expr(next(&mut idx.into_inner().filter(not_keyword), span)?)?;
            acc = AstExpr {
                kind: AstExprKind::Index(Box::new(acc), Box::new(i)),
                span,
            };
        }
        Ok(acc)
    }

    fn literal(&self, p: P) -> Result<AstLiteral, Diagnostic> {
        match p.as_rule() {
            Rule::int => Ok(AstLiteral::Int(self.int(&p)?)),
            Rule::decimal => p
                .as_str()
                .parse::<f64>()
                .map(AstLiteral::Num)
                .map_err(|_| self.err(&p, format!("`{}` is not a number", p.as_str()))),
            Rule::string => Ok(AstLiteral::Str(self.string(&p)?)),
            Rule::boolean => Ok(AstLiteral::Bool(p.as_str() == "true")),
            Rule::list => p
                .into_inner()
                .filter(not_keyword)
                .map(|e| self.const_expr(e))
                .collect::<Result<_, _>>()
                .map(AstLiteral::List),
            _ => Err(self.err(&p, "expected a literal")),
        }
    }

    /// `in LOW..HIGH` or `in [A, B, …]` after a parameter's default.
    fn domain(&self, p: P, span: Span) -> Result<AstDomain, Diagnostic> {
        let at = self.span(&p);
        let Some(inner) = p.into_inner().find(not_keyword) else {
            return Err(Diagnostic::error(span, "expected a range or a list after `in`"));
        };
        match inner.as_rule() {
            Rule::bounds => {
                let mut ends = inner.into_inner();
                let low = self.literal(next(&mut ends, at)?)?;
                let high = self.literal(next(&mut ends, at)?)?;
                Ok(AstDomain::Range(low, high, at))
            }
            _ => match self.literal(inner)? {
                AstLiteral::List(items) => Ok(AstDomain::OneOf(items, at)),
                _ => Err(Diagnostic::error(at, "expected a range or a list after `in`")),
            },
        }
    }

    /// A list element in a declaration: must reduce to a literal.
    fn const_expr(&self, p: P) -> Result<AstLiteral, Diagnostic> {
        let e = self.expr(p)?;
        literal_of(&e).ok_or_else(|| Diagnostic::error(e.span, "expected a literal value here"))
    }

    fn int(&self, p: &P) -> Result<i64, Diagnostic> {
        p.as_str()
            .parse::<i64>()
            .map_err(|_| self.err(p, format!("integer `{}` is out of range", p.as_str())))
    }

    fn string(&self, p: &P) -> Result<String, Diagnostic> {
        let raw = p.as_str();
        let inner = raw.strip_prefix('"').and_then(|s| s.strip_suffix('"')).unwrap_or(raw);
        let mut out = String::with_capacity(inner.len());
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                match chars.next() {
                    Some('n') => out.push('\n'),
                    Some('t') => out.push('\t'),
                    Some('"') => out.push('"'),
                    Some('\\') => out.push('\\'),
                    Some(other) => return Err(self.err(p, format!("unknown escape `\\{other}` in string"))),
                    None => {}
                }
            } else {
                out.push(c);
            }
        }
        Ok(out)
    }
}

/// A constant expression as a literal (`-1`, `[0, 0.5]`), if it is one.
pub fn literal_of(e: &AstExpr) -> Option<AstLiteral> {
    match &e.kind {
        AstExprKind::Literal(l) => Some(l.clone()),
        AstExprKind::Unary(UnaryOp::Neg, inner) => match literal_of(inner)? {
            AstLiteral::Int(i) => Some(AstLiteral::Int(i.checked_neg()?)),
            AstLiteral::Num(n) => Some(AstLiteral::Num(-n)),
            _ => None,
        },
        AstExprKind::List(items) => items
            .iter()
            .map(literal_of)
            .collect::<Option<Vec<_>>>()
            .map(AstLiteral::List),
        _ => None,
    }
}

fn next<'a>(it: &mut impl Iterator<Item = P<'a>>, span: Span) -> Result<P<'a>, Diagnostic> {
    it.next().ok_or_else(|| Diagnostic::error(span, "incomplete construct"))
}

/// The binary operator written `text`.
fn binary_op(text: &str) -> Option<BinaryOp> {
    Some(match text {
        "or" => BinaryOp::Or,
        "and" => BinaryOp::And,
        "+" => BinaryOp::Add,
        "-" => BinaryOp::Sub,
        "*" => BinaryOp::Mul,
        "/" => BinaryOp::Div,
        "%" => BinaryOp::Rem,
        "==" => BinaryOp::Eq,
        "!=" => BinaryOp::Ne,
        "<" => BinaryOp::Lt,
        "<=" => BinaryOp::Le,
        ">" => BinaryOp::Gt,
        ">=" => BinaryOp::Ge,
        "in" => BinaryOp::In,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole file in one parse, as the grammar's `file` rule reads it.
    fn parse_whole(text: &str) -> Result<AstFile, Diagnostic> {
        check_nesting(0, text)?;
        let pairs = RuleParser::parse(Rule::file, text).map_err(|e| syntax_error(0, text, e))?;
        let mut out = AstFile::default();
        let b = Builder { file: 0, offset: 0 };
        for pair in pairs.flatten().take(1) {
            for item in pair.into_inner().filter(not_keyword) {
                if item.as_rule() != Rule::EOI {
                    out.items.push(b.item(item)?);
                }
            }
        }
        Ok(out)
    }

    fn same(text: &str) {
        let by_item = format!("{:?}", parse_rules(0, text));
        let whole = format!("{:?}", parse_whole(text));
        assert_eq!(by_item, whole, "{text}");
    }

    /// Reading item by item gives the whole file's parse: the shipped rules and examples, and
    /// layouts that could mislead the window an item is parsed in.
    #[test]
    fn item_by_item_reads_as_the_whole_file_does() {
        for dir in ["rules", "examples"] {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(dir);
            for entry in std::fs::read_dir(path).expect("the folder is there").flatten() {
                let text = std::fs::read_to_string(entry.path()).expect("readable");
                same(&text);
            }
        }
        let tricky = [
            "ruleset t \"a rule that ends\" input input: int output output, input\n\
             rule R \"end rule input\" when input(?x) # end rule\n then assert output(?x) end",
            "ruleset t\ninput n: int = 3 output a, b rule A when n(?x) then assert a(?x) end rule B when a(?x) then assert b(?x) end",
            "ruleset t\noutput a,\nrule A when then end",
            "ruleset t\nparam p = 3 in 1..5 \"an end\" const c = [1, 2]\nstrategy depth\n# trailing\n",
            "ruleset t\nrule A when x(\"end\") then assert y(stud.rule) end",
            "ruleset t\nrule A when x(1) then assert y(1)",
            "ruleset t\n)",
            "",
            "# only a comment",
        ];
        for text in tricky {
            same(text);
        }
    }
}
