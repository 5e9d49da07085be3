//! `kibitzer lsp`: a language server for rule files over standard input and output (the Language
//! Server Protocol, JSON-RPC). Diagnostics are the checker's, as `kibitzer check` reports them,
//! each time a file is opened or changed; hover, definition, references, completion, the outline
//! and formatting come from the file's syntax tree ([`index`]), the built-in registry and
//! `kibitzer fmt`.

mod index;

use index::{Index, Kind, Occurrence, Role};
use kibitzer::lang::diagnostics::{Diagnostics, Severity};
use kibitzer::library::{load_text, registry, LoadError};
use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, Formatting, GotoDefinition, HoverRequest, References,
    Request as _,
};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionProviderCapability, CompletionItem,
    CompletionItemKind, CompletionOptions, CompletionParams, Diagnostic, DiagnosticSeverity, DocumentFormattingParams,
    DocumentSymbol, DocumentSymbolParams, DocumentSymbolResponse, GotoDefinitionParams, GotoDefinitionResponse, Hover,
    HoverContents, HoverParams, HoverProviderCapability, Location, MarkupContent, MarkupKind, OneOf, Position,
    PublishDiagnosticsParams, Range, ReferenceParams, ServerCapabilities, SymbolKind, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextEdit, Url, WorkspaceEdit,
};
use std::collections::HashMap;

#[derive(clap::Args, Debug)]
pub struct LspArgs {
    /// Accepted for editors that pass it; standard input and output are the only transport.
    #[arg(long, hide = true)]
    stdio: bool,
}

/// The words of the language, offered by completion.
const KEYWORDS: &[&str] = &[
    "ruleset", "include", "input", "output", "param", "const", "strategy", "rule", "salience", "when", "then",
    "because", "end", "not", "whatif", "yields", "assert", "retract", "modify", "halt", "and", "or", "in", "count",
    "sum", "min", "max", "true", "false", "logical", "group", "first", "if", "else",
];

/// One open rule file.
struct Doc {
    text: String,
    /// The index of the last text that parsed: while a line is half typed, the rest still resolves.
    index: Index,
}

pub fn run(_: LspArgs) -> i32 {
    let (connection, threads) = Connection::stdio();
    let capabilities = ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".into(), "?".into()]),
            ..CompletionOptions::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        ..ServerCapabilities::default()
    };
    let served = serde_json::to_value(capabilities)
        .map_err(|e| e.to_string())
        .and_then(|caps| connection.initialize(caps).map_err(|e| e.to_string()))
        .and_then(|_| serve(&connection));
    drop(connection);
    // Once the editor has shut the server down, it may close the pipes as it likes.
    let joined = threads.join().map_err(|e| e.to_string());
    let joined = if served.is_ok() { Ok(()) } else { joined };
    match served.and(joined) {
        Ok(()) => 0,
        Err(e) => super::fail(format_args!("language server: {e}")),
    }
}

fn serve(connection: &Connection) -> Result<(), String> {
    let mut docs: HashMap<Url, Doc> = HashMap::new();
    for message in &connection.receiver {
        match message {
            Message::Request(req) => {
                if req.method == lsp_types::request::Shutdown::METHOD {
                    let done = Response::new_ok(req.id, ());
                    connection
                        .sender
                        .send(Message::Response(done))
                        .map_err(|e| e.to_string())?;
                    // Then comes `exit`, or the editor closes the pipe: either ends the server.
                    let _ = connection.receiver.recv_timeout(std::time::Duration::from_secs(30));
                    return Ok(());
                }
                let response = answer(&docs, req);
                connection
                    .sender
                    .send(Message::Response(response))
                    .map_err(|e| e.to_string())?;
            }
            Message::Notification(n) => {
                if let Some(uri) = changed(&mut docs, n) {
                    let diagnostics = docs.get(&uri).map(|d| diagnose(&uri, &d.text)).unwrap_or_default();
                    let params = PublishDiagnosticsParams {
                        uri,
                        diagnostics,
                        version: None,
                    };
                    let note = Notification::new(PublishDiagnostics::METHOD.to_string(), params);
                    connection
                        .sender
                        .send(Message::Notification(note))
                        .map_err(|e| e.to_string())?;
                }
            }
            Message::Response(_) => {}
        }
    }
    Ok(())
}

/// Applies a notification to the open files; returns the file whose diagnostics are due.
fn changed(docs: &mut HashMap<Url, Doc>, n: Notification) -> Option<Url> {
    let mut set = |uri: Url, text: String| {
        let old = docs.remove(&uri).map(|d| d.index);
        let index = Index::build(&text).or(old).unwrap_or_default();
        docs.insert(uri.clone(), Doc { text, index });
        Some(uri)
    };
    match n.method.as_str() {
        DidOpenTextDocument::METHOD => {
            let p: lsp_types::DidOpenTextDocumentParams = serde_json::from_value(n.params).ok()?;
            set(p.text_document.uri, p.text_document.text)
        }
        DidChangeTextDocument::METHOD => {
            let p: lsp_types::DidChangeTextDocumentParams = serde_json::from_value(n.params).ok()?;
            // Full synchronisation: the last change holds the whole text.
            let text = p.content_changes.into_iter().last()?.text;
            set(p.text_document.uri, text)
        }
        DidSaveTextDocument::METHOD => {
            let p: lsp_types::DidSaveTextDocumentParams = serde_json::from_value(n.params).ok()?;
            // Files it includes may have changed: check again.
            docs.contains_key(&p.text_document.uri).then_some(p.text_document.uri)
        }
        DidCloseTextDocument::METHOD => {
            let p: lsp_types::DidCloseTextDocumentParams = serde_json::from_value(n.params).ok()?;
            docs.remove(&p.text_document.uri);
            None
        }
        _ => None,
    }
}

fn answer(docs: &HashMap<Url, Doc>, req: Request) -> Response {
    let id = req.id.clone();
    let result = match req.method.as_str() {
        HoverRequest::METHOD => parse::<HoverParams>(req).map(|p| {
            let at = &p.text_document_position_params;
            json(hover(docs.get(&at.text_document.uri), at.position))
        }),
        GotoDefinition::METHOD => parse::<GotoDefinitionParams>(req).map(|p| {
            let at = &p.text_document_position_params;
            json(definition(
                docs.get(&at.text_document.uri),
                &at.text_document.uri,
                at.position,
            ))
        }),
        References::METHOD => parse::<ReferenceParams>(req).map(|p| {
            let at = &p.text_document_position;
            let declared = p.context.include_declaration;
            json(references(
                docs.get(&at.text_document.uri),
                &at.text_document.uri,
                at.position,
                declared,
            ))
        }),
        Completion::METHOD => parse::<CompletionParams>(req).map(|p| {
            let at = &p.text_document_position;
            json(completion(docs.get(&at.text_document.uri), at.position))
        }),
        DocumentSymbolRequest::METHOD => {
            parse::<DocumentSymbolParams>(req).map(|p| json(outline(docs.get(&p.text_document.uri))))
        }
        Formatting::METHOD => {
            parse::<DocumentFormattingParams>(req).map(|p| json(format(docs.get(&p.text_document.uri))))
        }
        CodeActionRequest::METHOD => parse::<CodeActionParams>(req).map(|p| json(quick_fixes(&p))),
        _ => Err((
            lsp_server::ErrorCode::MethodNotFound,
            format!("unknown method {}", req.method),
        )),
    };
    match result {
        Ok(value) => Response::new_ok(id, value),
        Err((code, message)) => Response::new_err(id, code as i32, message),
    }
}

type Failed = (lsp_server::ErrorCode, String);

fn parse<P: serde::de::DeserializeOwned>(req: Request) -> Result<P, Failed> {
    serde_json::from_value(req.params).map_err(|e| (lsp_server::ErrorCode::InvalidParams, e.to_string()))
}

fn json(v: impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
}

/// A byte offset as an editor position: 0-based line, column in UTF-16 code units.
fn position(text: &str, offset: usize) -> Position {
    let offset = (0..=offset.min(text.len()))
        .rev()
        .find(|&o| text.is_char_boundary(o))
        .unwrap_or(0);
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col: usize = text[line_start..offset].chars().map(char::len_utf16).sum();
    Position::new(line as u32, col as u32)
}

/// An editor position as a byte offset (clamped to the text).
fn offset(text: &str, p: Position) -> usize {
    let mut line_start = 0;
    for _ in 0..p.line {
        match text[line_start..].find('\n') {
            Some(i) => line_start += i + 1,
            None => return text.len(),
        }
    }
    let mut units = 0;
    for (i, c) in text[line_start..].char_indices() {
        if units >= p.character as usize || c == '\n' {
            return line_start + i;
        }
        units += c.len_utf16();
    }
    text.len()
}

fn span_range(text: &str, start: usize, end: usize) -> Range {
    Range::new(position(text, start), position(text, end))
}

/// The file's problems, as `kibitzer check` finds them: the errors that stop it loading, or the
/// warnings of a file that loads. Problems in an included file are shown on its `include` line.
fn diagnose(uri: &Url, text: &str) -> Vec<Diagnostic> {
    let name = uri
        .to_file_path()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| uri.to_string());
    let problems: Diagnostics = match load_text(&name, text) {
        Ok(program) => Diagnostics {
            items: program.warnings().to_vec(),
            sources: program.sources().clone(),
        },
        Err(LoadError::Rules(d)) => d,
        Err(e) => {
            return vec![Diagnostic {
                range: Range::default(),
                severity: Some(DiagnosticSeverity::ERROR),
                source: Some("kibitzer".into()),
                message: e.to_string(),
                ..Diagnostic::default()
            }]
        }
    };
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    problems
        .items
        .iter()
        .map(|d| {
            let main = problems.sources.file(d.span.file).is_some_and(|f| f.name == name);
            let (range, message) = match main {
                true => (
                    span_range(text, d.span.start as usize + bom, d.span.end as usize + bom),
                    d.message.clone(),
                ),
                false => {
                    let loc = problems.sources.locate(d.span);
                    let message = format!("{}:{}:{}: {}", loc.file, loc.line, loc.col, d.message);
                    (Range::default(), message)
                }
            };
            Diagnostic {
                range,
                severity: Some(match d.severity {
                    Severity::Error => DiagnosticSeverity::ERROR,
                    Severity::Warning => DiagnosticSeverity::WARNING,
                }),
                source: Some("kibitzer".into()),
                message,
                ..Diagnostic::default()
            }
        })
        .collect()
}

/// A quick fix for each diagnostic that suggests a name: the name written there replaced.
fn quick_fixes(p: &CodeActionParams) -> Vec<CodeActionOrCommand> {
    let mut out = Vec::new();
    for d in &p.context.diagnostics {
        let Some(near) = d
            .message
            .split_once("(did you mean `")
            .and_then(|(_, rest)| rest.split_once("`?)"))
            .map(|(n, _)| n.to_string())
        else {
            continue;
        };
        let edit = TextEdit::new(d.range, near.clone());
        let changes = HashMap::from([(p.text_document.uri.clone(), vec![edit])]);
        out.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: format!("Replace with `{near}`"),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![d.clone()]),
            edit: Some(WorkspaceEdit::new(changes)),
            is_preferred: Some(true),
            ..CodeAction::default()
        }));
    }
    out
}

/// What the name under the cursor is, as Markdown.
fn hover(doc: Option<&Doc>, at: Position) -> Option<Hover> {
    let doc = doc?;
    let o = doc.index.at(offset(&doc.text, at))?;
    let ix = &doc.index;
    let text = match o.kind {
        Kind::Builtin => {
            let b = registry().get(&o.name)?;
            let s = b.signature();
            let params: Vec<String> = s.params.iter().map(|(n, t)| format!("{n}: {}", t.name())).collect();
            let outs: Vec<&str> = s.outputs.iter().map(|t| t.name()).collect();
            let several = if s.multi { " (several solutions)" } else { "" };
            format!(
                "```\n{}({}) -> {}\n```\nbuilt-in{several}: {}",
                s.name,
                params.join(", "),
                outs.join(", "),
                s.doc
            )
        }
        Kind::Param | Kind::Const => {
            let d = ix.decl(o.kind, &o.name)?;
            let mut t = format!("```kibitzer\n{}\n```", d.text);
            if o.kind == Kind::Param {
                t.push_str("\nparameter: `--param ");
                t.push_str(&o.name);
                t.push_str("=VALUE` overrides it for a run");
            } else {
                t.push_str("\nconstant");
            }
            t
        }
        Kind::Relation => relation_text(ix, &o.name),
        Kind::Group => {
            let mut t = match ix.decl(Kind::Group, &o.name) {
                Some(d) => format!("```kibitzer\n{}\n```\n", d.text),
                None => String::new(),
            };
            let members: Vec<String> = ix
                .occurrences
                .iter()
                .filter(|x| x.kind == Kind::Group && x.name == o.name && x.role == Role::Used)
                .filter_map(|x| x.rule.and_then(|r| ix.rules.get(r)))
                .map(|r| format!("`{}`", r.name))
                .collect();
            t.push_str(&format!(
                "first-match group `{}`: of its rules whose conditions hold, only the first in file order fires in a run\n\nrules: {}",
                o.name,
                match members.is_empty() {
                    true => "none".to_string(),
                    false => members.join(", "),
                }
            ));
            t
        }
        Kind::Rule => {
            let r = ix.rules.iter().find(|r| r.name == o.name)?;
            let title = r.title.as_deref().map(|t| format!(" \"{t}\"")).unwrap_or_default();
            let index = ix.rules.iter().position(|x| x.name == o.name);
            let rels = |role: Role| {
                let mut names: Vec<&str> = Vec::new();
                for x in ix
                    .occurrences
                    .iter()
                    .filter(|x| x.rule == index && x.role == role && x.kind == Kind::Relation)
                {
                    if !names.contains(&x.name.as_str()) {
                        names.push(&x.name);
                    }
                }
                names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
            };
            let mut t = format!("```kibitzer\nrule {}{title} salience {}\n```", r.name, r.salience);
            for (label, role) in [
                ("matches", Role::Matched),
                ("asserts", Role::Asserted),
                ("retracts", Role::Retracted),
            ] {
                let list = rels(role);
                if !list.is_empty() {
                    t.push_str(&format!("\n\n{label}: {list}"));
                }
            }
            t
        }
        Kind::Var(r) => {
            let rule = ix.rules.get(r)?;
            let uses = ix.same(o).count();
            format!("variable `{}` of rule `{}`, named {uses} time(s)", o.name, rule.name)
        }
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }),
        range: Some(span_range(&doc.text, o.start, o.end)),
    })
}

/// A relation: where it is declared, which rules assert it and which match it.
fn relation_text(ix: &Index, name: &str) -> String {
    let mut t = format!("relation `{name}`");
    if let Some(d) = ix.decl(Kind::Relation, name) {
        t.push_str(&format!("\n```kibitzer\n{}\n```", d.text));
    }
    if ix.occurrences.iter().any(|o| o.name == name && o.role == Role::Output) {
        t.push_str("\n\nan output: a run answers with it");
    }
    let list = |names: Vec<&str>| match names.is_empty() {
        true => "none".to_string(),
        false => names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", "),
    };
    let asserted = ix.rules_with(name, Role::Asserted);
    let producers = match (ix.decl(Kind::Relation, name).is_some(), asserted.is_empty()) {
        (true, true) => "the input".to_string(),
        (true, false) => format!("the input, {}", list(asserted)),
        (false, _) => list(asserted),
    };
    t.push_str(&format!("\n\nproduced by: {producers}"));
    t.push_str(&format!("\n\nmatched by: {}", list(ix.rules_with(name, Role::Matched))));
    let retracted = ix.rules_with(name, Role::Retracted);
    if !retracted.is_empty() {
        t.push_str(&format!("\n\nretracted by: {}", list(retracted)));
    }
    t
}

/// Where the name under the cursor is defined: a relation's `input` or `output` declaration and
/// the rules that assert it; a parameter's or constant's declaration; a rule's head; a variable's first use; an
/// included file.
fn definition(doc: Option<&Doc>, uri: &Url, at: Position) -> Option<GotoDefinitionResponse> {
    let doc = doc?;
    let off = offset(&doc.text, at);
    let ix = &doc.index;
    let here = |s: usize, e: usize| Location::new(uri.clone(), span_range(&doc.text, s, e));
    let Some(o) = ix.at(off) else {
        // An `include` line: the file it names.
        let (path, _, _) = ix.includes.iter().find(|(_, s, e)| *s <= off && off <= *e)?;
        let base = uri.to_file_path().ok()?;
        let target = base.parent()?.join(path);
        let target = Url::from_file_path(std::fs::canonicalize(&target).unwrap_or(target)).ok()?;
        return Some(GotoDefinitionResponse::Scalar(Location::new(target, Range::default())));
    };
    let places: Vec<Location> = match o.kind {
        Kind::Relation => ix
            .same(o)
            .filter(|x| matches!(x.role, Role::Declared | Role::Output | Role::Asserted))
            .map(|x| here(x.start, x.end))
            .collect(),
        Kind::Var(_) => ix.same(o).take(1).map(|x| here(x.start, x.end)).collect(),
        Kind::Builtin => return None,
        _ => ix
            .same(o)
            .filter(|x| x.role == Role::Declared)
            .map(|x| here(x.start, x.end))
            .collect(),
    };
    match places.len() {
        0 => None,
        1 => places.into_iter().next().map(GotoDefinitionResponse::Scalar),
        _ => Some(GotoDefinitionResponse::Array(places)),
    }
}

fn references(doc: Option<&Doc>, uri: &Url, at: Position, declared: bool) -> Option<Vec<Location>> {
    let doc = doc?;
    let o: &Occurrence = doc.index.at(offset(&doc.text, at))?;
    Some(
        doc.index
            .same(o)
            .filter(|x| declared || x.role != Role::Declared)
            .map(|x| Location::new(uri.clone(), span_range(&doc.text, x.start, x.end)))
            .collect(),
    )
}

/// The names that fit where the cursor is: the rule's variables after a `?`, else relations,
/// parameters, constants, built-ins and keywords.
fn completion(doc: Option<&Doc>, at: Position) -> Vec<CompletionItem> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut add = |label: String, kind: CompletionItemKind, detail: Option<String>| {
        if seen.insert(label.clone()) {
            out.push(CompletionItem {
                label,
                kind: Some(kind),
                detail,
                ..CompletionItem::default()
            });
        }
    };
    if let Some(doc) = doc {
        let off = offset(&doc.text, at);
        let ix = &doc.index;
        let before = doc.text[..off].chars().last();
        if let Some(r) = ix.rule_at(off) {
            for o in ix.occurrences.iter().filter(|o| o.kind == Kind::Var(r)) {
                add(o.name.clone(), CompletionItemKind::VARIABLE, None);
            }
        }
        if before == Some('?') {
            return out;
        }
        for o in &ix.occurrences {
            match o.kind {
                Kind::Relation => add(o.name.clone(), CompletionItemKind::STRUCT, Some("relation".into())),
                Kind::Param | Kind::Const => {
                    let d = ix.decl(o.kind, &o.name).map(|d| d.text.clone());
                    add(o.name.clone(), CompletionItemKind::CONSTANT, d)
                }
                Kind::Group => add(
                    o.name.clone(),
                    CompletionItemKind::MODULE,
                    Some("first-match group".into()),
                ),
                _ => {}
            }
        }
    }
    for b in registry().builtins() {
        let s = b.signature();
        let params: Vec<String> = s.params.iter().map(|(n, t)| format!("{n}: {}", t.name())).collect();
        add(
            s.name.clone(),
            CompletionItemKind::FUNCTION,
            Some(format!("{}({}) — {}", s.name, params.join(", "), s.doc)),
        );
    }
    for k in KEYWORDS {
        add(k.to_string(), CompletionItemKind::KEYWORD, None);
    }
    out
}

/// The outline: declarations and rules in file order.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must be written, though no one reads it.
fn outline(doc: Option<&Doc>) -> Option<DocumentSymbolResponse> {
    let doc = doc?;
    let ix = &doc.index;
    let mut items: Vec<(usize, DocumentSymbol)> = Vec::new();
    let symbol =
        |name: String, detail: Option<String>, kind, s: usize, e: usize, ns: usize, ne: usize| DocumentSymbol {
            name,
            detail,
            kind,
            tags: None,
            deprecated: None,
            range: span_range(&doc.text, s, e),
            selection_range: span_range(&doc.text, ns, ne),
            children: None,
        };
    for d in &ix.decls {
        let kind = match d.kind {
            Kind::Relation => SymbolKind::STRUCT,
            Kind::Group => SymbolKind::NAMESPACE,
            _ => SymbolKind::CONSTANT,
        };
        let name_at = ix
            .occurrences
            .iter()
            .find(|o| o.kind == d.kind && o.name == d.name && o.role == Role::Declared)
            .map_or((d.start, d.end), |o| (o.start, o.end));
        let s = symbol(
            d.name.clone(),
            Some(d.text.clone()),
            kind,
            d.start,
            d.end,
            name_at.0,
            name_at.1,
        );
        items.push((d.start, s));
    }
    for r in &ix.rules {
        let detail = format!(
            "salience {}{}",
            r.salience,
            r.title.as_deref().map(|t| format!(" — {t}")).unwrap_or_default()
        );
        let s = symbol(
            r.name.clone(),
            Some(detail),
            SymbolKind::FUNCTION,
            r.start,
            r.end,
            r.name_start,
            r.name_end,
        );
        items.push((r.start, s));
    }
    items.sort_by_key(|(at, _)| *at);
    Some(DocumentSymbolResponse::Nested(
        items.into_iter().map(|(_, s)| s).collect(),
    ))
}

/// The whole file in `kibitzer fmt`'s layout, as one edit (none when it is formatted already, or
/// does not parse).
fn format(doc: Option<&Doc>) -> Option<Vec<TextEdit>> {
    let doc = doc?;
    let formatted = kibitzer::lang::format_rules("buffer", &doc.text).ok()?;
    if formatted == doc.text {
        return Some(Vec::new());
    }
    let end = position(&doc.text, doc.text.len());
    Some(vec![TextEdit::new(Range::new(Position::new(0, 0), end), formatted)])
}
