//! ARCHITECTURE.md stays true: every file and folder of the repository is listed there (golden
//! files by their folder), and every path it lists exists.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Folders that are not part of the source: build output, version control, local tool state.
const SKIPPED: &[&str] = &[
    "target",
    ".git",
    ".idea",
    ".vscode",
    "fuzz/target",
    "proptest-regressions",
];

fn walk(root: &Path, rel: &Path, out: &mut BTreeSet<String>) {
    let Ok(entries) = std::fs::read_dir(root.join(rel)) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let path: PathBuf = rel.join(&name);
        let shown = path.to_string_lossy().replace('\\', "/");
        let skipped = SKIPPED.contains(&shown.as_str()) || SKIPPED.contains(&name.as_str());
        // Editor droppings and proptest's failure records are not part of the source either.
        if skipped || name.starts_with(".#") || name.ends_with('~') || name.ends_with(".proptest-regressions") {
            continue;
        }
        let is_dir = entry.file_type().map(|t| t.is_dir()).unwrap_or(false);
        // Golden answers are listed by folder: there is one per query and they come and go.
        let in_golden = shown.starts_with("tests/golden/") && shown.matches('/').count() >= 3;
        if !in_golden {
            out.insert(shown.clone());
        }
        if is_dir {
            walk(root, &path, out);
        }
    }
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
    let mut files = BTreeSet::new();
    walk(root, Path::new(""), &mut files);
    let missing: Vec<&String> = files.iter().filter(|f| !names.contains(*f)).collect();
    assert!(missing.is_empty(), "not in ARCHITECTURE.md: {missing:#?}");
    let stale: Vec<&String> = names.iter().filter(|n| !root.join(n).exists()).collect();
    assert!(stale.is_empty(), "listed in ARCHITECTURE.md but missing: {stale:#?}");
}

/// The layers, bottom up: what each part of the library may import (`crate::…` outside its unit
/// tests). The CLI is the binary's and imports the library by its public name only.
const LAYERS: &[(&str, &[&str])] = &[
    ("src/cards/", &["cards"]),
    ("src/budget.rs", &[]),
    ("src/value/", &["cards", "value"]),
    ("src/builtins/", &["cards", "value", "builtins", "budget"]),
    ("src/lang/", &["cards", "value", "builtins", "lang"]),
    (
        "src/engine/",
        &["cards", "value", "builtins", "lang", "engine", "budget"],
    ),
    (
        "src/games/",
        &["cards", "value", "builtins", "lang", "engine", "budget", "games"],
    ),
    (
        "src/harness/",
        &[
            "cards", "value", "builtins", "engine", "budget", "games", "harness", "library",
        ],
    ),
    (
        "src/library.rs",
        &["cards", "value", "builtins", "lang", "engine", "budget", "games"],
    ),
    ("src/batch.rs", &["engine", "value"]),
    (
        "src/cases.rs",
        &["cards", "value", "builtins", "lang", "engine", "budget", "library"],
    ),
    (
        "src/lib.rs",
        &[
            "cards", "value", "builtins", "lang", "engine", "budget", "games", "harness", "library", "cases", "batch",
        ],
    ),
    ("src/cli/", &["cli"]),
    ("src/main.rs", &["cli"]),
];

/// Every `crate::NAME` a file's code names before its unit tests, with the line.
fn crate_imports(text: &str) -> Vec<(usize, String)> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut out = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let line = line.split("//").next().unwrap_or("");
        for (at, _) in line.match_indices("crate::") {
            let name: String = line[at + 7..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            out.push((n + 1, name));
        }
    }
    out
}

#[test]
fn every_import_respects_the_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = BTreeSet::new();
    walk(root, Path::new("src"), &mut files);
    let mut broken = Vec::new();
    for file in files.iter().filter(|f| f.ends_with(".rs")) {
        let Some((_, allowed)) = LAYERS.iter().find(|(prefix, _)| file.starts_with(prefix)) else {
            broken.push(format!("{file}: in no layer of tests/architecture.rs"));
            continue;
        };
        let text = std::fs::read_to_string(root.join(file)).expect("a source file");
        for (line, name) in crate_imports(&text) {
            if !allowed.contains(&name.as_str()) {
                broken.push(format!("{file}:{line}: imports crate::{name}"));
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
    let text = "use crate::value::Value;\nfn f() { crate::engine::session::Session::new(p); }\n#[cfg(test)]\nmod t { use crate::library::x; }\n";
    let names: Vec<String> = crate_imports(text).into_iter().map(|(_, n)| n).collect();
    assert_eq!(names, ["value", "engine"]);
}
