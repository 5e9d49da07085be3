//! ARCHITECTURE.md stays true: every file and folder of the repository is listed there (golden
//! files by their folder), and every path it lists exists. The repository is what git tracks
//! (`tests/tree/`), so a user's own untracked files never fail these checks.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

mod tree;

/// The paths the map must list: the repository's files (those git tracks, see `tests/tree/`) and
/// their folders, without proptest's failure records, and golden answers by their folder only
/// (there is one per query and they come and go).
fn map_entries(root: &Path) -> BTreeSet<String> {
    let files = tree::files(root);
    let mut out = BTreeSet::new();
    for path in files.iter().chain(tree::folders(&files).iter()) {
        let name = path.rsplit('/').next().unwrap_or(path);
        let recorded = path.starts_with("proptest-regressions") || name.ends_with(".proptest-regressions");
        let golden = "crates/kibitzer-games/tests/golden/";
        let in_golden = path.starts_with(golden) && path[golden.len()..].contains('/');
        if !recorded && !in_golden {
            out.insert(path.clone());
        }
    }
    out
}

/// The paths the map lists: the first `code` span of each `- ` item and of each heading.
fn listed(map: &str) -> BTreeSet<String> {
    map.lines()
        .filter_map(|l| {
            l.strip_prefix("- `")
                .or_else(|| l.trim_start_matches('#').strip_prefix(" `"))
        })
        .filter_map(|l| l.split('`').next())
        .map(|p| p.trim_end_matches('/').to_string())
        .collect()
}

#[test]
fn every_file_is_in_the_architecture_map_and_every_entry_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let map = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let names = listed(&map);
    let files = map_entries(root);
    let missing: Vec<&String> = files.iter().filter(|f| !names.contains(*f)).collect();
    assert!(missing.is_empty(), "not in ARCHITECTURE.md: {missing:#?}");
    let stale: Vec<&String> = names.iter().filter(|n| !root.join(n).exists()).collect();
    assert!(stale.is_empty(), "listed in ARCHITECTURE.md but missing: {stale:#?}");
}

/// Where the core crate's code is. The crates themselves are layers the compiler keeps (each
/// depends only on the crates below it: core, games, the facade, the command); inside the core
/// the modules are layered too, which this file checks.
const CORE: &str = "crates/kibitzer-core/src/";

/// The core's layers, bottom up: what each of its modules may import (`crate::…` outside its unit
/// tests).
const LAYERS: &[(&str, &[&str])] = &[
    ("cards/", &["cards"]),
    ("budget.rs", &[]),
    ("value/", &["cards", "value"]),
    ("builtins/", &["cards", "value", "builtins", "budget"]),
    ("lang/", &["cards", "value", "builtins", "lang", "budget"]),
    ("engine/", &["cards", "value", "builtins", "lang", "engine", "budget"]),
    ("lib.rs", &["cards", "value", "builtins", "lang", "engine", "budget"]),
];

/// The code of a file without its unit tests: each `#[cfg(test)] mod … { … }` (to its matching
/// brace) and each other item marked `#[cfg(test)]` (its line) blanked, lines kept in place.
fn without_tests(text: &str) -> String {
    let mut out: Vec<String> = text.lines().map(str::to_string).collect();
    let mut i = 0;
    while i < out.len() {
        if out[i].trim() != "#[cfg(test)]" {
            i += 1;
            continue;
        }
        out[i].clear();
        let Some(item) = (i + 1..out.len()).find(|&k| !out[k].trim().is_empty()) else {
            break;
        };
        if !out[item].trim_start().starts_with("mod ") || !out[item].contains('{') {
            out[item].clear();
            i = item + 1;
            continue;
        }
        let mut depth = 0i32;
        let mut k = item;
        while k < out.len() {
            depth += out[k].matches('{').count() as i32 - out[k].matches('}').count() as i32;
            out[k].clear();
            k += 1;
            if depth <= 0 {
                break;
            }
        }
        i = k;
    }
    out.join("\n")
}

/// The module path of a core source file, given from the crate's `src/` (`engine/explain/verdict.rs`
/// → engine, explain, verdict).
fn module_path(file: &str) -> Vec<String> {
    let rel = file.trim_end_matches(".rs");
    let mut parts: Vec<String> = rel.split('/').map(str::to_string).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        parts.pop();
    }
    parts
}

/// Every top-level module a file's code names outside its unit tests, with the line: each
/// `crate::NAME`, and each `super::…` path that climbs to the crate root (`super::super::NAME`
/// from `engine/explain/verdict.rs` names `NAME`).
fn crate_imports(file: &str, text: &str) -> Vec<(usize, String)> {
    let up_to_root = module_path(file).len();
    rooted_paths(text)
        .into_iter()
        .filter(|(_, ups, _)| *ups == 0 || *ups >= up_to_root)
        .map(|(line, _, rest)| (line, word(&rest)))
        .collect()
}

/// The paths a file's code names outside its unit tests that start at the crate (`crate::REST`,
/// as 0 and REST) or climb (`super::super::REST`, as 2 and REST), with their lines.
fn rooted_paths(text: &str) -> Vec<(usize, usize, String)> {
    let code = without_tests(text);
    let mut out = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let line = line.split("//").next().unwrap_or("");
        for (at, _) in line.match_indices("crate::") {
            if at > 0 && line[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            out.push((n + 1, 0, line[at + 7..].to_string()));
        }
        for (at, _) in line.match_indices("super::") {
            if at > 0 && line[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let mut rest = &line[at..];
            let mut ups = 0;
            while let Some(r) = rest.strip_prefix("super::") {
                ups += 1;
                rest = r;
            }
            out.push((n + 1, ups, rest.to_string()));
        }
    }
    out
}

/// The name a path starts with.
fn word(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

#[test]
fn every_import_respects_the_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut broken = Vec::new();
    for path in tree::files(root).iter().filter(|f| f.ends_with(".rs")) {
        let Some(file) = path.strip_prefix(CORE) else {
            continue;
        };
        let Some((_, allowed)) = LAYERS.iter().find(|(prefix, _)| file.starts_with(prefix)) else {
            broken.push(format!("{path}: in no layer of tests/architecture.rs"));
            continue;
        };
        let text = std::fs::read_to_string(root.join(path)).expect("a source file");
        for (line, name) in crate_imports(file, &text) {
            if !allowed.contains(&name.as_str()) {
                broken.push(format!("{path}:{line}: imports crate::{name}"));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "imports across the layers (see ARCHITECTURE.md):\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_layer_check_sees_an_import_that_breaks_a_layer() {
    let text = "use crate::value::Value;\nfn f() { crate::engine::session::Session::new(p); }\n#[cfg(test)]\nmod t {\n    use crate::library::x;\n}\nfn g() { crate::games::x(); }\n#[cfg(test)]\nuse crate::cli::y;\n";
    let names: Vec<String> = crate_imports("value/x.rs", text).into_iter().map(|(_, n)| n).collect();
    // Code after a unit-test module is read too; the tests themselves are not.
    assert_eq!(names, ["value", "engine", "games"]);
    // A `super::` path that climbs to the crate root names a top-level module; one that stays
    // inside the file's own layer does not.
    let text = "use super::super::super::games::x;\nuse super::memory::Memory;\nuse super::super::explain::y;\n";
    let names: Vec<String> = crate_imports("engine/explain/verdict.rs", text)
        .into_iter()
        .map(|(_, n)| n)
        .collect();
    assert_eq!(names, ["games"]);
    let names: Vec<String> = crate_imports("engine/explain/mod.rs", "use super::super::cli::x;\n")
        .into_iter()
        .map(|(_, n)| n)
        .collect();
    assert_eq!(names, ["cli"]);
}

/// The engine's modules a file of the engine names outside its unit tests, with the line: each
/// `crate::engine::NAME`, and each `super::` path that climbs to the engine (`super::NAME` from
/// `engine/session.rs`, `super::super::NAME` from `engine/explain/whynot.rs`).
fn engine_imports(file: &str, text: &str) -> Vec<(usize, String)> {
    let up_to_engine = module_path(file).len() - 1;
    rooted_paths(text)
        .into_iter()
        .filter_map(|(line, ups, rest)| match ups {
            0 => rest.strip_prefix("engine::").map(|r| (line, word(r))),
            _ => (ups == up_to_engine).then(|| (line, word(&rest))),
        })
        .collect()
}

/// A cycle in `graph` (module → the modules it imports), as the modules along it, if any.
fn find_cycle(graph: &std::collections::BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    // Depth-first, each module's state: absent (not seen), on the current path, or done.
    fn visit(
        m: &str,
        graph: &std::collections::BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == m) {
            let mut cycle = path[at..].to_vec();
            cycle.push(m.to_string());
            return Some(cycle);
        }
        if done.contains(m) {
            return None;
        }
        path.push(m.to_string());
        for next in graph.get(m).into_iter().flatten() {
            if let Some(c) = visit(next, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(m.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|m| visit(m, graph, &mut Vec::new(), &mut done))
}

/// The engine's modules (`engine/explain/` is one) import one another without a cycle: the
/// engine reads as a pipeline, each module over those below it.
#[test]
fn the_engine_modules_import_one_another_without_a_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut graph = std::collections::BTreeMap::<String, BTreeSet<String>>::new();
    for path in tree::files(root).iter().filter(|f| f.ends_with(".rs")) {
        let Some(file) = path.strip_prefix(CORE).filter(|f| f.starts_with("engine/")) else {
            continue;
        };
        let Some(module) = module_path(file).get(1).cloned() else {
            continue;
        };
        let text = std::fs::read_to_string(root.join(path)).expect("a source file");
        let names = graph.entry(module.clone()).or_default();
        for (_, name) in engine_imports(file, &text) {
            if name != module {
                names.insert(name);
            }
        }
    }
    assert!(graph.len() > 10 && graph["session"].contains("matcher"), "{graph:?}");
    if let Some(cycle) = find_cycle(&graph) {
        panic!("the engine's modules import in a cycle: {}", cycle.join(" → "));
    }
}

#[test]
fn the_cycle_check_sees_a_cycle_through_a_nested_module() {
    let imports =
        |file: &str, text: &str| -> Vec<String> { engine_imports(file, text).into_iter().map(|(_, n)| n).collect() };
    assert_eq!(
        imports(
            "engine/session.rs",
            "use super::matcher::Ctx;\nuse crate::value::Value;\n"
        ),
        ["matcher"]
    );
    assert_eq!(
        imports(
            "engine/explain/whynot.rs",
            "use super::Explainer;\nuse super::super::session::Session;\nfn f() { crate::engine::wording::show(v) }\n"
        ),
        ["session", "wording"]
    );
    let graph = [
        ("session", "matcher"),
        ("matcher", "explain"),
        ("explain", "session"),
        ("wording", "program"),
    ]
    .into_iter()
    .fold(
        std::collections::BTreeMap::<String, BTreeSet<String>>::new(),
        |mut g, (a, b)| {
            g.entry(a.to_string()).or_default().insert(b.to_string());
            g
        },
    );
    assert_eq!(
        find_cycle(&graph).expect("a cycle").join(" → "),
        "explain → session → matcher → explain"
    );
}

#[test]
fn a_stray_untracked_file_is_not_listed_and_a_tree_without_git_is_walked() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let root = dir.path();
    std::fs::create_dir_all(root.join("src/deep")).unwrap();
    std::fs::create_dir_all(root.join(".venv/bin")).unwrap();
    for f in [
        "README.md",
        "src/deep/a.rs",
        "notes.txt",
        ".venv/bin/python",
        "src/scratch.rules",
    ] {
        std::fs::write(root.join(f), "x").unwrap();
    }
    // Without a checkout every file counts.
    let walked = tree::files(root);
    assert!(
        walked.contains("notes.txt") && walked.contains("src/deep/a.rs"),
        "{walked:?}"
    );
    // In a checkout only what git tracks does; a tracked file deleted since is gone.
    let git = |args: &[&str]| {
        let ok = Command::new("git").arg("-C").arg(root).args(args).output();
        ok.is_ok_and(|o| o.status.success())
    };
    if !git(&["init", "-q"]) {
        eprintln!("git is not available: the walk above is what the checks use");
        return;
    }
    std::fs::write(root.join("gone.rs"), "x").unwrap();
    assert!(git(&["add", "README.md", "src/deep/a.rs", "gone.rs"]));
    std::fs::remove_file(root.join("gone.rs")).unwrap();
    let listed = tree::files(root);
    assert_eq!(
        listed.iter().map(String::as_str).collect::<Vec<_>>(),
        ["README.md", "src/deep/a.rs"]
    );
    assert_eq!(
        tree::folders(&listed).iter().map(String::as_str).collect::<Vec<_>>(),
        ["src", "src/deep"]
    );
}
