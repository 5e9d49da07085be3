//! The canonical layout of rule files (`kibitzer fmt`): text in, text out, the meaning unchanged.
//!
//! Formatting works on the pest parse tree, not the AST, so that every token is reproduced as
//! written (numbers, strings, parentheses). Comments are not in the tree: they are found by a
//! scan of the text and put back where they were, before the declaration, condition or action
//! they preceded, or at the end of the line they ended. A node with a comment inside it, or of a
//! shape this file does not know (a construct newer than it), is reproduced as written.
//!
//! The layout: one declaration per line, `input`/`output`/`param`/`const` keywords padded to one
//! width, the names (and parameter values) of consecutive declarations of one kind aligned; rules
//! as `rule NAME "title" salience N`, `when`, a condition per line indented four spaces, `then`, an
//! action per line, `because`, `end`, with one blank line around each rule; single spaces around
//! binary operators, none inside brackets; at most one blank line where the author left some. A
//! list, call or `{ … }` block written over several lines gets one item per line; one written on
//! one line stays on one line. Long lines are not wrapped.

use super::diagnostics::{Diagnostic, Diagnostics};
use super::source::{SourceMap, Span};
use super::syntax::{self, Rule, RuleParser};
use pest::iterators::Pair;
use pest::Parser as _;

type P<'a> = Pair<'a, Rule>;

/// One level of indentation.
const INDENT: usize = 4;

/// Values longer than this take no part in aligning the parameter values around them.
const ALIGN_VALUE_MAX: usize = 16;

/// Formats the text of one rule file (`name` is used in messages). A file that does not parse is
/// returned as its syntax error. The result parses to the same syntax tree as `text`, and
/// formatting it again changes nothing.
pub fn format_rules(name: &str, text: &str) -> Result<String, Diagnostics> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text).replace("\r\n", "\n");
    let fail = |d: Diagnostic| {
        let mut sources = SourceMap::default();
        sources.add(name, text.clone());
        Diagnostics {
            items: vec![d],
            sources,
        }
    };
    // The AST builder bounds nesting and chains before anything here recurses on them.
    syntax::parse_rules(0, &text).map_err(fail)?;
    let file = RuleParser::parse(Rule::file, &text)
        .ok()
        .and_then(|mut pairs| pairs.next())
        .ok_or_else(|| fail(Diagnostic::error(Span::new(0, 0, 0), "syntax error")))?;
    let mut f = Formatter {
        text: &text,
        comments: find_comments(&text),
        next: 0,
        out: String::new(),
        last_end: 0,
        force_blank: false,
    };
    f.file(file);
    Ok(f.finish())
}

/// A `#` comment: its byte range.
struct Comment {
    start: usize,
    end: usize,
}

/// Every comment of `text`, in order: `#` outside a string, to the end of its line.
fn find_comments(text: &str) -> Vec<Comment> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'#' => {
                let end = text[i..].find('\n').map_or(text.len(), |n| i + n);
                out.push(Comment { start: i, end });
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// How a top-level declaration is laid out: aligned declarations keep their columns apart so
/// that a run of them can be padded to common widths.
enum Decl {
    /// `input  NAME: TYPE = DEFAULT` (the part after the colon in `rest`).
    Input { name: String, rest: String },
    /// `param  NAME = VALUE  DOMAIN "doc"` (`rest` may be empty).
    Param { name: String, value: String, rest: String },
    /// `const  NAME = VALUE`.
    Const { name: String, value: String },
    /// Anything else, as it is printed.
    Plain(String),
}

impl Decl {
    fn kind(&self) -> u8 {
        match self {
            Decl::Input { .. } => 1,
            Decl::Param { .. } => 2,
            Decl::Const { .. } => 3,
            Decl::Plain(_) => 0,
        }
    }

    fn multi_line(&self) -> bool {
        match self {
            Decl::Input { rest, .. } | Decl::Const { value: rest, .. } => rest.contains('\n'),
            Decl::Param { value, rest, .. } => value.contains('\n') || rest.contains('\n'),
            Decl::Plain(t) => t.contains('\n'),
        }
    }

    fn name_len(&self) -> usize {
        match self {
            Decl::Input { name, .. } => name.chars().count() + 1,
            Decl::Param { name, .. } | Decl::Const { name, .. } => name.chars().count(),
            Decl::Plain(_) => 0,
        }
    }

    /// The line(s), names padded to `name_w` and parameter values to `value_w`.
    fn render(&self, name_w: usize, value_w: usize) -> String {
        match self {
            Decl::Input { name, rest } => format!("input  {:<name_w$} {rest}", format!("{name}:")),
            Decl::Param { name, value, rest } if rest.is_empty() => format!("param  {name:<name_w$} = {value}"),
            Decl::Param { name, value, rest } => format!("param  {name:<name_w$} = {value:<value_w$}  {rest}"),
            Decl::Const { name, value } => format!("const  {name:<name_w$} = {value}"),
            Decl::Plain(t) => t.clone(),
        }
    }
}

struct Formatter<'t> {
    text: &'t str,
    comments: Vec<Comment>,
    /// The first comment not yet written.
    next: usize,
    out: String,
    /// Where in the source the last thing written ended.
    last_end: usize,
    /// A blank line is due before the next thing written (around a rule).
    force_blank: bool,
}

impl Formatter<'_> {
    fn finish(mut self) -> String {
        let end = self.text.len();
        self.leading(end, 0, true);
        let mut out: String = self.out.lines().map(|l| l.trim_end().to_string() + "\n").collect();
        while out.ends_with("\n\n") {
            out.pop();
        }
        if out.trim().is_empty() {
            out.clear();
        }
        out
    }

    /// A blank line, if the source has one between the last thing written and `at` (or one is due).
    fn blank_before(&mut self, at: usize, allowed: bool) {
        let gap = self.text.get(self.last_end..at).unwrap_or("");
        let blank = self.force_blank || (allowed && gap.matches('\n').count() >= 2);
        if blank && !self.out.is_empty() && !self.out.ends_with("\n\n") {
            self.out.push('\n');
        }
        self.force_blank = false;
    }

    /// The comments before `upto`, each on its own line at `indent`.
    fn leading(&mut self, upto: usize, indent: usize, blank_ok: bool) {
        while let Some(c) = self.comments.get(self.next).filter(|c| c.start < upto) {
            let (start, end) = (c.start, c.end);
            self.next += 1;
            self.blank_before(start, blank_ok);
            self.out.push_str(&" ".repeat(indent));
            self.out.push_str(&self.text[start..end]);
            self.out.push('\n');
            self.last_end = end;
        }
    }

    /// Where a node really ends: pest lets a node that ends in an optional part (`input x: int`
    /// without a default, `a == b` without the comparison) take the white space and comments after
    /// it into its span.
    fn end(&self, p: &P) -> usize {
        let start = p.as_span().start();
        let mut end = p.as_span().end();
        loop {
            let trimmed = start + self.text[start..end].trim_end().len();
            // The last comment starting before `trimmed`: does `trimmed` fall at its end?
            let k = self.comments.partition_point(|c| c.start < trimmed);
            match k.checked_sub(1).map(|k| &self.comments[k]) {
                Some(c) if c.start >= start && trimmed <= c.end => end = c.start,
                _ => return trimmed,
            }
        }
    }

    /// Whether a comment lies inside `start..end`.
    fn has_comment(&self, start: usize, end: usize) -> bool {
        self.comments[self.next..]
            .iter()
            .take_while(|c| c.start < end)
            .any(|c| c.start >= start)
    }

    /// Writes one line-starting piece of the source (`start..end`): the comments before it, then
    /// `formatted` at `indent`, or the source as written when a comment is inside it or it has no
    /// formatted form, then a comment that ends its last line.
    fn piece(&mut self, start: usize, end: usize, indent: usize, blank_ok: bool, formatted: Option<String>) {
        self.leading(start, indent, blank_ok);
        self.blank_before(start, blank_ok);
        let text = match self.has_comment(start, end) {
            true => None,
            false => formatted,
        };
        let text = text.unwrap_or_else(|| {
            while self.comments.get(self.next).is_some_and(|c| c.start < end) {
                self.next += 1;
            }
            self.text[start..end].to_string()
        });
        self.out.push_str(&" ".repeat(indent));
        self.out.push_str(&text);
        self.last_end = end;
        if let Some(c) = self.comments.get(self.next) {
            // Only the last piece before a comment on its line takes it.
            if c.start >= end && self.text[end..c.start].trim().is_empty() && !self.text[end..c.start].contains('\n') {
                self.out.push(' ');
                self.out.push_str(&self.text[c.start..c.end]);
                self.last_end = c.end;
                self.next += 1;
            }
        }
        self.out.push('\n');
    }

    fn file(&mut self, file: P) {
        let items: Vec<P> = file.into_inner().filter(|p| p.as_rule() != Rule::EOI).collect();
        let decls: Vec<Option<Decl>> = items
            .iter()
            .map(|p| match p.as_rule() {
                Rule::rule => None,
                _ => Some(
                    self.decl(p.clone())
                        .unwrap_or_else(|| Decl::Plain(p.as_str().to_string())),
                ),
            })
            .collect();
        let widths = self.run_widths(&items, &decls);
        let mut prev_rule = false;
        for ((item, decl), (name_w, value_w)) in items.into_iter().zip(&decls).zip(widths) {
            let span = item.as_span();
            let is_rule = decl.is_none();
            if (is_rule || prev_rule) && !self.out.is_empty() {
                self.force_blank = true;
            }
            prev_rule = is_rule;
            match decl {
                None => self.rule(item),
                Some(d) => self.piece(span.start(), self.end(&item), 0, true, Some(d.render(name_w, value_w))),
            }
        }
    }

    /// Per item: the widths its run of aligned declarations pads names and values to.
    fn run_widths(&self, items: &[P], decls: &[Option<Decl>]) -> Vec<(usize, usize)> {
        let mut widths = vec![(0, 0); items.len()];
        let alignable = |i: usize| {
            let (s, e) = (items[i].as_span().start(), self.end(&items[i]));
            decls[i]
                .as_ref()
                .filter(|d| d.kind() != 0 && !d.multi_line() && !self.has_comment(s, e))
        };
        let mut i = 0;
        while i < items.len() {
            let Some(first) = alignable(i) else {
                i += 1;
                continue;
            };
            let mut j = i + 1;
            while j < items.len() {
                let joined = alignable(j).is_some_and(|d| d.kind() == first.kind()) && {
                    let (a, b) = (self.end(&items[j - 1]), items[j].as_span().start());
                    // One line break: a comment between them can only end the first one's line.
                    self.text[a..b].matches('\n').count() == 1
                };
                if !joined {
                    break;
                }
                j += 1;
            }
            let run: Vec<&Decl> = (i..j).filter_map(|k| decls[k].as_ref()).collect();
            let name_w = run.iter().map(|d| d.name_len()).max().unwrap_or(0);
            let value_w = run
                .iter()
                .filter_map(|d| match d {
                    Decl::Param { value, .. } => Some(value.chars().count()).filter(|n| *n <= ALIGN_VALUE_MAX),
                    _ => None,
                })
                .max()
                .unwrap_or(0);
            for w in &mut widths[i..j] {
                *w = (name_w, value_w);
            }
            i = j;
        }
        widths
    }

    /// A declaration other than a rule, or `None` for a shape not known here.
    fn decl(&self, p: P) -> Option<Decl> {
        let kind = p.as_rule();
        let parts: Vec<P> = p.into_inner().collect();
        let is = |i: usize, r: Rule| parts.get(i).is_some_and(|p| p.as_rule() == r);
        Some(match kind {
            Rule::ruleset_decl if is(0, Rule::ident) && parts.len() <= 2 => Decl::Plain(
                std::iter::once("ruleset")
                    .chain(parts.iter().map(|p| p.as_str()))
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            Rule::include_decl if parts.len() == 1 => Decl::Plain(format!("include {}", parts[0].as_str())),
            Rule::strategy_decl if parts.len() == 1 => Decl::Plain(format!("strategy {}", parts[0].as_str())),
            Rule::group_decl if parts.len() == 3 && is(1, Rule::ident) && is(2, Rule::ident) => {
                Decl::Plain(format!("group {} {}", parts[1].as_str(), parts[2].as_str()))
            }
            // Each output as its name, then `: one` / `: exactly one` when it says so.
            Rule::output_decl if parts.iter().all(|p| p.as_rule() == Rule::output_item) => Decl::Plain(format!(
                "output {}",
                parts
                    .iter()
                    .map(|p| {
                        let words: Vec<&str> = p.clone().into_inner().map(|w| w.as_str()).collect();
                        let answers = p
                            .clone()
                            .into_inner()
                            .nth(1)
                            .map(|a| a.into_inner().map(|w| w.as_str()).collect::<Vec<_>>().join(" "));
                        match answers {
                            Some(a) => format!("{}: {a}", words[0]),
                            None => words[0].to_string(),
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            Rule::input_decl if is(0, Rule::ident) && is(1, Rule::type_expr) => {
                let mut rest = type_text(&parts[1])?;
                for part in &parts[2..] {
                    match part.as_rule() {
                        Rule::input_default => {
                            let value = part.clone().into_inner().next()?;
                            rest = format!("{rest} = {}", self.expr(value, 0));
                        }
                        Rule::domain => rest = format!("{rest} {}", self.domain(part.clone())?),
                        Rule::string => rest = format!("{rest} {}", part.as_str()),
                        _ => return None,
                    }
                }
                Decl::Input {
                    name: parts[0].as_str().to_string(),
                    rest,
                }
            }
            Rule::param_decl if is(0, Rule::ident) && parts.len() >= 2 => {
                let mut rest = Vec::new();
                for part in &parts[2..] {
                    match part.as_rule() {
                        Rule::domain => rest.push(self.domain(part.clone())?),
                        Rule::string => rest.push(part.as_str().to_string()),
                        _ => return None,
                    }
                }
                Decl::Param {
                    name: parts[0].as_str().to_string(),
                    value: self.expr(parts[1].clone(), 0),
                    rest: rest.join(" "),
                }
            }
            Rule::const_decl if is(0, Rule::ident) && parts.len() == 2 => Decl::Const {
                name: parts[0].as_str().to_string(),
                value: self.expr(parts[1].clone(), 0),
            },
            _ => return None,
        })
    }

    /// `in LOW..HIGH` or `in [ … ]`.
    fn domain(&self, p: P) -> Option<String> {
        let parts: Vec<P> = p.into_inner().filter(|p| p.as_rule() != Rule::kw_in).collect();
        match parts.as_slice() {
            [b] if b.as_rule() == Rule::bounds => {
                let ends: Vec<&str> = b.clone().into_inner().map(|n| n.as_str()).collect();
                match ends.as_slice() {
                    [lo, hi] => Some(format!("in {lo}..{hi}")),
                    _ => None,
                }
            }
            [l] if l.as_rule() == Rule::list => Some(format!("in {}", self.expr(l.clone(), 0))),
            _ => None,
        }
    }

    fn rule(&mut self, p: P) {
        let span = p.as_span();
        let rule_end = self.end(&p);
        let parts: Vec<P> = p.into_inner().collect();
        let when = parts.iter().position(|p| p.as_rule() == Rule::kw_when);
        let then = parts.iter().position(|p| p.as_rule() == Rule::kw_then);
        let (Some(when), Some(then)) = (when, then) else {
            self.piece(span.start(), rule_end, 0, true, None);
            return;
        };
        // The head: `rule NAME "title" salience N`.
        let head_end = parts[..when].last().map_or(span.start(), |p| self.end(p));
        let head = &parts[..when];
        let head_text = (|| {
            let mut words = vec!["rule".to_string()];
            // The group before the salience, whichever the author wrote first.
            let mut salience = None;
            for part in head {
                match part.as_rule() {
                    Rule::ident | Rule::string => words.push(part.as_str().to_string()),
                    Rule::in_group => {
                        let g = part.clone().into_inner().find(|p| p.as_rule() == Rule::ident)?;
                        words.push(format!("in {}", g.as_str()));
                    }
                    Rule::salience => {
                        let n = part.clone().into_inner().next()?;
                        salience = Some(format!("salience {}", n.as_str()));
                    }
                    _ => return None,
                }
            }
            words.extend(salience);
            Some(words.join(" "))
        })();
        self.piece(span.start(), head_end, 0, true, head_text);
        let mut first = true;
        for (i, part) in parts.iter().enumerate().skip(when) {
            let s = part.as_span();
            let (start, end) = (s.start(), self.end(part));
            match part.as_rule() {
                Rule::kw_when | Rule::kw_then | Rule::kw_end => {
                    first = true;
                    self.piece(start, end, 0, false, Some(part.as_str().to_string()));
                }
                Rule::because => {
                    let text = part
                        .clone()
                        .into_inner()
                        .next()
                        .map(|s| format!("because {}", s.as_str()));
                    self.piece(start, end, 0, false, text);
                }
                _ => {
                    let blank_ok = !first;
                    first = false;
                    let text = match i < then {
                        true => Some(self.condition(part.clone(), INDENT)),
                        false => self.action(part.clone(), INDENT),
                    };
                    self.piece(start, end, INDENT, blank_ok, text);
                }
            }
        }
    }

    /// A condition at `indent` (the column its line starts at).
    fn condition(&self, p: P, indent: usize) -> String {
        let text = p.as_str();
        let kind = p.as_rule();
        let parts: Vec<P> = p.into_inner().collect();
        let shown = match kind {
            Rule::handle_cond => match parts.as_slice() {
                [v, c] => Some(format!("{} <- {}", v.as_str(), self.expr(c.clone(), indent))),
                _ => None,
            },
            Rule::not_cond => match parts.as_slice() {
                [_, c] if c.as_rule() == Rule::call => Some(format!("not {}", self.expr(c.clone(), indent))),
                [_, body @ ..] => Some(format!("not {}", self.block(body, text.contains('\n'), indent))),
                _ => None,
            },
            Rule::whatif_cond => self.whatif(&parts, indent),
            Rule::binding => match parts.as_slice() {
                [v, value] if value.as_rule() == Rule::aggregate => self
                    .aggregate(value.clone(), indent)
                    .map(|a| format!("{} = {a}", v.as_str())),
                [v, value] => Some(format!("{} = {}", v.as_str(), self.expr(value.clone(), indent))),
                _ => None,
            },
            _ => return self.expr_parts(kind, text, parts, indent),
        };
        shown.unwrap_or_else(|| text.trim_end().to_string())
    }

    /// `{ a, b }` on one line, or one condition per line.
    fn block(&self, body: &[P], multi_line: bool, indent: usize) -> String {
        if body.is_empty() {
            return "{ }".to_string();
        }
        if !multi_line {
            let items: Vec<String> = body.iter().map(|c| self.condition(c.clone(), indent)).collect();
            return format!("{{ {} }}", items.join(", "));
        }
        let inner = indent + INDENT;
        let mut s = "{\n".to_string();
        for c in body {
            s.push_str(&" ".repeat(inner));
            s.push_str(&self.condition(c.clone(), inner));
            s.push('\n');
        }
        s.push_str(&" ".repeat(indent));
        s.push('}');
        s
    }

    /// `count { … }`, `sum ?x { … }`.
    fn aggregate(&self, p: P, indent: usize) -> Option<String> {
        let multi = p.as_str().contains('\n');
        let parts: Vec<P> = p.into_inner().collect();
        let op = parts.first().filter(|o| o.as_rule() == Rule::agg_op)?.as_str();
        let (value, body) = match parts.get(1) {
            Some(v) if v.as_rule() == Rule::agg_value => {
                let e = v.clone().into_inner().next()?;
                (format!(" {}", self.expr(e, indent)), &parts[2..])
            }
            _ => (String::new(), &parts[1..]),
        };
        Some(format!("{op}{value} {}", self.block(body, multi, indent)))
    }

    /// `whatif NAME(input: value, …) yields rel(…)`.
    fn whatif(&self, parts: &[P], indent: usize) -> Option<String> {
        let [kw, name, rest @ ..] = parts else {
            return None;
        };
        let [args @ .., yields, call] = rest else {
            return None;
        };
        let ok =
            kw.as_rule() == Rule::kw_whatif && yields.as_rule() == Rule::kw_yields && name.as_rule() == Rule::ident;
        if !ok || call.as_rule() != Rule::call {
            return None;
        }
        let mut named = Vec::new();
        for a in args {
            let kv: Vec<P> = a.clone().into_inner().collect();
            match kv.as_slice() {
                [k, v] if a.as_rule() == Rule::named_arg => {
                    named.push(format!("{}: {}", k.as_str(), self.expr(v.clone(), indent)))
                }
                _ => return None,
            }
        }
        Some(format!(
            "whatif {}({}) yields {}",
            name.as_str(),
            named.join(", "),
            self.expr(call.clone(), indent)
        ))
    }

    /// An action at `indent`, or `None` for a shape not known here.
    fn action(&self, p: P, indent: usize) -> Option<String> {
        let kind = p.as_rule();
        let text = p.as_str();
        let parts: Vec<P> = p.into_inner().collect();
        let rules: Vec<Rule> = parts.iter().map(|p| p.as_rule()).collect();
        match (kind, rules.as_slice()) {
            (Rule::assert_action, [Rule::kw_assert, Rule::call]) => {
                Some(format!("assert {}", self.expr(parts[1].clone(), indent)))
            }
            (Rule::assert_action, [Rule::kw_assert, Rule::kw_logical, Rule::call]) => {
                Some(format!("assert logical {}", self.expr(parts[2].clone(), indent)))
            }
            (Rule::retract_action, [Rule::kw_retract, Rule::call | Rule::var]) => {
                Some(format!("retract {}", self.expr(parts[1].clone(), indent)))
            }
            (Rule::modify_action, [Rule::kw_modify, Rule::var, ..]) if rules[2..].iter().all(|r| *r == Rule::expr) => {
                let args = self.items(&parts[2..], "(", ")", args_multi_line(text), indent);
                Some(format!("modify {} {args}", parts[1].as_str()))
            }
            (Rule::halt_action, []) => Some("halt".to_string()),
            _ => None,
        }
    }

    /// An expression (or any value node) at `indent`.
    fn expr(&self, p: P, indent: usize) -> String {
        let kind = p.as_rule();
        let text = p.as_str();
        self.expr_parts(kind, text, p.into_inner().collect(), indent)
    }

    fn expr_parts(&self, kind: Rule, text: &str, parts: Vec<P>, indent: usize) -> String {
        match kind {
            Rule::expr | Rule::or_expr | Rule::and_expr | Rule::cmp_expr | Rule::add_expr | Rule::mul_expr => parts
                .into_iter()
                .map(|p| self.expr(p, indent))
                .collect::<Vec<_>>()
                .join(" "),
            Rule::unary => parts.into_iter().map(|p| self.expr(p, indent)).collect(),
            Rule::postfix => {
                let mut s = String::new();
                for p in parts {
                    match p.as_rule() {
                        Rule::expr => s.push_str(&format!("({})", self.expr(p, indent))),
                        Rule::index => {
                            let inner: Vec<String> = p.into_inner().map(|e| self.expr(e, indent)).collect();
                            s.push_str(&format!("[{}]", inner.join("")));
                        }
                        _ => s.push_str(&self.expr(p, indent)),
                    }
                }
                s
            }
            Rule::call if parts.first().is_some_and(|q| q.as_rule() == Rule::qualified) => {
                let name = parts[0].as_str();
                format!(
                    "{name}{}",
                    self.items(&parts[1..], "(", ")", args_multi_line(text), indent)
                )
            }
            Rule::list => self.items(&parts, "[", "]", text.contains('\n'), indent),
            // Built from its parts: its own text may run on over a comment after it (pest gives
            // the last operand the white space and comments after it).
            Rule::if_expr => {
                let e: Vec<String> = parts
                    .into_iter()
                    .filter(|p| p.as_rule() == Rule::expr)
                    .map(|p| self.expr(p, indent))
                    .collect();
                match e.as_slice() {
                    [c, a, b] => format!("if {c} then {a} else {b}"),
                    _ => text.trim_end().to_string(),
                }
            }
            _ => text.trim_end().to_string(),
        }
    }

    /// Items between brackets, on one line, or one per line indented one level deeper.
    fn items(&self, items: &[P], open: &str, close: &str, multi_line: bool, indent: usize) -> String {
        if !multi_line || items.is_empty() {
            let shown: Vec<String> = items.iter().map(|e| self.expr(e.clone(), indent)).collect();
            return format!("{open}{}{close}", shown.join(", "));
        }
        let inner = indent + INDENT;
        let mut s = format!("{open}\n");
        for (k, e) in items.iter().enumerate() {
            s.push_str(&" ".repeat(inner));
            s.push_str(&self.expr(e.clone(), inner));
            if k + 1 < items.len() {
                s.push(',');
            }
            s.push('\n');
        }
        s.push_str(&" ".repeat(indent));
        s.push_str(close);
        s
    }
}

/// Whether a call's (or `modify`'s) arguments are written over several lines: a line break after
/// its opening parenthesis.
fn args_multi_line(text: &str) -> bool {
    text.find('(').is_some_and(|at| text[at..].contains('\n'))
}

/// A type as written: `cards(0..5, hidden: 0..5)`.
fn type_text(p: &P) -> Option<String> {
    let mut parts = p.clone().into_inner();
    let name = parts
        .next()
        .filter(|n| n.as_rule() == Rule::ident)?
        .as_str()
        .to_string();
    let mut args = Vec::new();
    for arg in parts {
        let mut text = String::new();
        for part in arg.into_inner() {
            match part.as_rule() {
                Rule::ident => text.push_str(&format!("{}: ", part.as_str())),
                Rule::int_range => {
                    let ints: Vec<&str> = part.into_inner().map(|i| i.as_str()).collect();
                    text.push_str(&ints.join(".."));
                }
                _ => return None,
            }
        }
        args.push(text);
    }
    Some(match args.is_empty() {
        true => name,
        false => format!("{name}({})", args.join(", ")),
    })
}
