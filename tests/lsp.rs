//! `kibitzer lsp` driven as an editor drives it: JSON-RPC messages over the binary's standard input
//! and output. A file with a mistake gets the checker's diagnostic and a quick fix; hover,
//! definition, references, completion, the outline and formatting answer on examples/pocket.rules.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

struct Server {
    child: Child,
    input: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kibitzer"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let mut output = BufReader::new(child.stdout.take().unwrap());
        let (send, messages) = channel();
        std::thread::spawn(move || loop {
            let mut length = 0;
            loop {
                let mut line = String::new();
                if output.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(n) = line.strip_prefix("Content-Length: ") {
                    length = n.parse().unwrap();
                }
            }
            let mut body = vec![0; length];
            if output.read_exact(&mut body).is_err() {
                return;
            }
            if send.send(serde_json::from_slice(&body).unwrap()).is_err() {
                return;
            }
        });
        let mut s = Server {
            child,
            input,
            messages,
            next_id: 0,
        };
        let init = s.request(
            "initialize",
            json!({"capabilities": {}, "processId": null, "rootUri": null}),
        );
        assert_eq!(init["capabilities"]["hoverProvider"], json!(true), "{init}");
        s.notify("initialized", json!({}));
        s
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.input, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.input.flush().unwrap();
    }

    fn next(&self) -> Value {
        self.messages
            .recv_timeout(Duration::from_secs(30))
            .expect("the server answers within 30 s")
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let m = self.next();
            if m["id"] == json!(id) {
                assert!(m.get("error").is_none(), "{m}");
                return m["result"].clone();
            }
        }
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next diagnostics published.
    fn diagnostics(&self) -> Value {
        loop {
            let m = self.next();
            if m["method"] == "textDocument/publishDiagnostics" {
                return m["params"].clone();
            }
        }
    }

    fn stop(mut self) {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }
}

fn pocket() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/pocket.rules")).unwrap()
}

/// The position (0-based line and column) of the `nth` occurrence of `needle`, plus `shift`.
fn at(text: &str, needle: &str, nth: usize, shift: usize) -> Value {
    let offset = text.match_indices(needle).nth(nth).expect(needle).0 + shift;
    let line = text[..offset].matches('\n').count();
    let col = offset - text[..offset].rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": col})
}

fn open(s: &mut Server, uri: &str, text: &str) -> Value {
    s.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "kibitzer", "version": 1, "text": text}}),
    );
    s.diagnostics()
}

#[test]
fn a_mistake_is_reported_where_it_is_with_a_quick_fix_and_cleared_when_mended() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pocket.rules");
    let uri = format!("file://{}", path.display());
    let bad = pocket().replace("max ?r { holds(_, ?r) }", "max ?r { hold(_, ?r) }");
    let mut s = Server::start();
    let d = open(&mut s, &uri, &bad);
    assert_eq!(d["uri"], json!(uri));
    let items = d["diagnostics"].as_array().unwrap();
    // The relation, and the variable it would have bound.
    assert_eq!(items.len(), 2, "{d}");
    let first = &items[0];
    assert_eq!(first["severity"], json!(1));
    let message = first["message"].as_str().unwrap();
    assert!(
        message.contains("`hold`") && message.contains("did you mean `holds`"),
        "{message}"
    );
    let start = at(&bad, "hold(", 0, 0);
    assert_eq!(first["range"]["start"], start, "{first}");
    assert_eq!(
        first["range"]["end"]["character"],
        json!(start["character"].as_i64().unwrap() + 4)
    );

    let fixes = s.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": first["range"], "context": {"diagnostics": [first]}}),
    );
    assert_eq!(fixes[0]["title"], "Replace with `holds`", "{fixes}");
    assert_eq!(fixes[0]["edit"]["changes"][&uri][0]["newText"], "holds");

    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": pocket()}]}),
    );
    assert_eq!(s.diagnostics()["diagnostics"], json!([]));
    s.stop();
}

#[test]
fn hover_definition_references_completion_outline_and_formatting() {
    let text = pocket();
    let uri = "file:///nowhere/pocket.rules";
    let mut s = Server::start();
    open(&mut s, uri, &text);
    let doc = json!({"uri": uri});
    let hover = |s: &mut Server, needle: &str, nth: usize| {
        let h = s.request(
            "textDocument/hover",
            json!({"textDocument": doc, "position": at(&text, needle, nth, 1)}),
        );
        h["contents"]["value"].as_str().unwrap_or("").to_string()
    };

    let param = hover(&mut s, "keep_from", 1);
    assert!(param.contains("param keep_from = 10 in 2..14"), "{param}");
    let relation = hover(&mut s, "holds(_, ?r)", 0);
    assert!(relation.contains("relation `holds`"), "{relation}");
    assert!(relation.contains("an output"), "{relation}");
    assert!(relation.contains("produced by: `Trips`, `Pair`"), "{relation}");
    assert!(relation.contains("matched by: `Keep`"), "{relation}");
    let builtin = hover(&mut s, "rank_held", 0);
    assert!(builtin.starts_with("```\nrank_held("), "{builtin}");
    let rule = hover(&mut s, "Keep ", 0);
    assert!(
        rule.contains("rule Keep \"keep: a high enough group\" salience 0"),
        "{rule}"
    );
    assert!(
        rule.contains("matches: `holds`") && rule.contains("asserts: `keep`"),
        "{rule}"
    );
    let input = hover(&mut s, "hand(?h)", 0);
    assert!(
        input.contains("input hand: cards(2..7)") && input.contains("produced by: the input"),
        "{input}"
    );

    // Definition of `holds` where Keep matches it: `output` and the two rules that assert it.
    let def = s.request(
        "textDocument/definition",
        json!({"textDocument": doc, "position": at(&text, "holds(_, ?r)", 0, 1)}),
    );
    let lines: Vec<i64> = def
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["range"]["start"]["line"].as_i64().unwrap())
        .collect();
    let line_of = |needle: &str, n: usize| at(&text, needle, n, 0)["line"].as_i64().unwrap();
    assert_eq!(
        lines,
        [
            line_of("output holds", 0),
            line_of("assert holds", 0),
            line_of("assert holds", 1)
        ],
        "{def}"
    );
    let def = s.request(
        "textDocument/definition",
        json!({"textDocument": doc, "position": at(&text, "keep_from", 1, 0)}),
    );
    assert_eq!(def["range"]["start"], at(&text, "keep_from", 0, 0), "{def}");

    let refs = s.request(
        "textDocument/references",
        json!({"textDocument": doc, "position": at(&text, "keep(", 0, 1), "context": {"includeDeclaration": true}}),
    );
    // `output holds, keep`, Keep's and Drop's asserts, Drop's `not keep(_)`.
    assert_eq!(refs.as_array().unwrap().len(), 4, "{refs}");

    let items = s.request(
        "textDocument/completion",
        json!({"textDocument": doc, "position": at(&text, "?best >=", 0, 0)}),
    );
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["label"].as_str())
        .collect();
    for want in ["holds", "keep_from", "rank_held", "card_count", "when", "?best", "?r"] {
        assert!(labels.contains(&want), "{want} not in {labels:?}");
    }

    let outline = s.request("textDocument/documentSymbol", json!({"textDocument": doc}));
    let names: Vec<&str> = outline
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["name"].as_str())
        .collect();
    assert_eq!(names, ["hand", "keep_from", "Trips", "Pair", "Keep", "Drop"]);

    let edits = s.request(
        "textDocument/formatting",
        json!({"textDocument": doc, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    assert_eq!(edits, json!([]), "a formatted file needs no edit");
    let messy = text.replace("    hand(?h)\n", "  hand( ?h )\n");
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": messy}]}),
    );
    let edits = s.request(
        "textDocument/formatting",
        json!({"textDocument": doc, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    assert_eq!(edits[0]["newText"], json!(text), "{edits}");
    s.stop();
}

#[test]
fn an_include_is_followed_and_its_problems_shown_on_the_including_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("data.rules"),
        "const  limit = 3\nconst  broken = [1, \n",
    )
    .unwrap();
    let main = "ruleset m\ninclude \"data.rules\"\ninput  n: int\noutput big\n\nrule Big\nwhen\n    n(?n)\n    ?n > limit\nthen\n    assert big(?n)\nend\n";
    let path = dir.path().join("main.rules");
    std::fs::write(&path, main).unwrap();
    let uri = format!("file://{}", path.display());
    let mut s = Server::start();
    let d = open(&mut s, &uri, main);
    let items = d["diagnostics"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{d}");
    let message = items[0]["message"].as_str().unwrap();
    assert!(
        message.ends_with(
            "data.rules:2:17: syntax error: this `[` is never closed (the parser stopped at the end of the file)"
        ),
        "{message}"
    );
    assert_eq!(items[0]["range"]["start"], json!({"line": 0, "character": 0}));

    let def = s.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": uri}, "position": {"line": 1, "character": 3}}),
    );
    let target = def["uri"].as_str().unwrap();
    assert!(
        target.starts_with("file://") && target.ends_with("/data.rules"),
        "{def}"
    );
    s.stop();
}

#[test]
fn an_input_is_hovered_with_its_domain_and_description() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/one.rules")).unwrap();
    let uri = "file:///nowhere/one.rules";
    let mut s = Server::start();
    open(&mut s, uri, &text);
    let h = s.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": at(&text, "total(?t)", 0, 1)}),
    );
    let hover = h["contents"]["value"].as_str().unwrap_or("").to_string();
    assert!(
        hover.contains("input total: int in 4..21 \"the hand's total\"") && hover.contains("produced by: the input"),
        "{hover}"
    );
    s.stop();
}

#[test]
fn a_group_is_hovered_with_its_rules_and_its_name_goes_to_its_declaration() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/blackjack.rules")).unwrap();
    let uri = "file:///nowhere/blackjack.rules";
    let mut s = Server::start();
    open(&mut s, uri, &text);
    let doc = json!({"uri": uri});
    let h = s.request(
        "textDocument/hover",
        json!({"textDocument": doc, "position": at(&text, "in play", 1, 4)}),
    );
    let hover = h["contents"]["value"].as_str().unwrap_or("").to_string();
    assert!(
        hover.contains("group play first") && hover.contains("first-match group `play`"),
        "{hover}"
    );
    assert!(hover.contains("rules: `Bust`, `SplitAlways`"), "{hover}");
    let d = s.request(
        "textDocument/definition",
        json!({"textDocument": doc, "position": at(&text, "in play", 3, 4)}),
    );
    assert_eq!(d["range"]["start"], at(&text, "group play", 0, 6), "{d}");
    let c = s.request(
        "textDocument/completion",
        json!({"textDocument": doc, "position": at(&text, "in play", 0, 3)}),
    );
    let labels: Vec<&str> = c
        .as_array()
        .map_or(Vec::new(), |a| a.iter().filter_map(|i| i["label"].as_str()).collect());
    assert!(labels.contains(&"play") && labels.contains(&"group"), "{c}");
    s.stop();
}
