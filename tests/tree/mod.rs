//! The repository's files as the checks over the whole tree see them: the files git tracks, so
//! that a user's own files (a virtual environment, notes, scratch rule files) never fail a test.
//! Where git or the checkout is missing (a source archive), every file under the root instead.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// Folders that are not part of the source when the tree is walked: build output, version
/// control, local tool state.
const SKIPPED: &[&str] = &["target", ".git", ".idea", ".vscode", "fuzz/target", "node_modules"];

/// The repository's files under `root`, as paths relative to it with `/` between folders, in
/// order: the files git tracks that exist, else (no git, or no checkout) every file found.
pub fn files(root: &Path) -> BTreeSet<String> {
    tracked(root).unwrap_or_else(|| {
        let mut out = BTreeSet::new();
        walk(root, Path::new(""), &mut out);
        out
    })
}

/// The files git tracks under `root` that exist (a deleted file not yet committed is gone),
/// or `None` when git cannot list them.
fn tracked(root: &Path) -> Option<BTreeSet<String>> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["ls-files", "-z", "--cached", "--", "."])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    Some(
        text.split('\0')
            .filter(|p| !p.is_empty() && root.join(p).is_file())
            .map(str::to_string)
            .collect(),
    )
}

fn walk(root: &Path, rel: &Path, out: &mut BTreeSet<String>) {
    let Ok(entries) = std::fs::read_dir(root.join(rel)) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let path = rel.join(&name);
        let shown = path.to_string_lossy().replace('\\', "/");
        let skipped = SKIPPED.contains(&shown.as_str()) || SKIPPED.contains(&name.as_str());
        // Editor droppings are not part of the source either.
        if skipped || name.starts_with(".#") || name.ends_with('~') {
            continue;
        }
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            walk(root, &path, out);
        } else {
            out.insert(shown);
        }
    }
}

/// Every folder that holds one of `files`, at any depth (`a/b/c.rs` gives `a` and `a/b`).
#[allow(dead_code)] // tests/docs.rs lists files only
pub fn folders(files: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for f in files {
        let mut at = f.as_str();
        while let Some((parent, _)) = at.rsplit_once('/') {
            out.insert(parent.to_string());
            at = parent;
        }
    }
    out
}
