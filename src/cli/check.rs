//! `kibitzer check`: load rule files and report every problem with `file:line:col`.

use kibitzer::library::{load_shipped, shipped_names, LoadError, Loader};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Rule files or folders of them (default: the shipped rule sets).
    paths: Vec<PathBuf>,
    /// Let includes come from this folder tree (default: each file's own folder).
    #[arg(long = "include-root", value_name = "DIR")]
    include_root: Option<PathBuf>,
}

pub fn run(a: CheckArgs) -> i32 {
    let mut failed = false;
    let mut report = |label: String, r: Result<std::sync::Arc<kibitzer::Program>, LoadError>| match r {
        Ok(p) => {
            for w in p.warnings() {
                super::say(w.render(p.sources()));
            }
            println!("ok: {label}: rule set `{}`, {} rules", p.name(), p.rules().len());
        }
        Err(LoadError::Rules(d)) => {
            failed = true;
            // Diagnostics begin with their position (`file:line:col: error: …`), then a count.
            super::say(&d);
            super::say(format_args!("{label}: {} error(s)", d.errors().count()));
        }
        Err(e) => {
            failed = true;
            super::say(format_args!("kibitzer: {e}"));
        }
    };
    if a.paths.is_empty() {
        for name in shipped_names() {
            report(format!("<shipped>/{name}.rules"), load_shipped(&name));
        }
    } else {
        let mut files = Vec::new();
        let mut seen = HashSet::new();
        for p in &a.paths {
            collect(p, &mut files, &mut seen);
        }
        let mut loader = Loader::new();
        if let Some(root) = &a.include_root {
            loader = loader.include_root(root);
        }
        if files.is_empty() {
            super::say("kibitzer: no .rules files found");
            return super::EXIT_BAD_INPUT;
        }
        // A fragment (no `ruleset` header) is checked as part of the rule sets that include it:
        // those given, else those in its own folder.
        let canonical = |f: &Path| std::fs::canonicalize(f).unwrap_or_else(|_| f.to_path_buf());
        let (mains, fragments): (Vec<PathBuf>, Vec<PathBuf>) = files.into_iter().partition(|f| !is_fragment(f));
        let mut checked: Vec<PathBuf> = mains.clone();
        for frag in &fragments {
            let target = canonical(frag);
            let given: Vec<&PathBuf> = mains.iter().filter(|m| includes(m).contains(&target)).collect();
            if !given.is_empty() {
                continue;
            }
            let mut near = Vec::new();
            // `part.rules` alone has the empty path as its parent: the current folder.
            let folder = frag
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
            collect(&folder, &mut near, &mut HashSet::new());
            let includers: Vec<PathBuf> = near
                .into_iter()
                .filter(|m| !is_fragment(m) && includes(m).contains(&target))
                .collect();
            if includers.is_empty() {
                // Read alone, so that its own mistakes still show, with what it lacks said first.
                super::say(format_args!(
                    "kibitzer: {}: no `ruleset` header, and no rule set in its folder includes it: check the rule set that includes it",
                    frag.display()
                ));
                checked.push(frag.clone());
            }
            for m in includers {
                if !checked.iter().any(|c| canonical(c) == canonical(&m)) {
                    checked.push(m);
                }
            }
        }
        for f in checked {
            report(f.display().to_string(), loader.file(&f));
        }
    }
    if failed {
        super::EXIT_BAD_INPUT
    } else {
        0
    }
}

/// The `.rules` files under `p`, each once. Symlinked folders are not followed (a link to `/`
/// or to an ancestor would walk out of the tree or loop); a file reached twice is listed once.
pub(super) fn collect(p: &Path, out: &mut Vec<PathBuf>, seen: &mut HashSet<PathBuf>) {
    let mut add = |f: &Path| {
        let key = std::fs::canonicalize(f).unwrap_or_else(|_| f.to_path_buf());
        if seen.insert(key) {
            out.push(f.to_path_buf());
        }
    };
    if !p.is_dir() {
        add(p);
        return;
    }
    let walk = walkdir::WalkDir::new(p).follow_links(false).sort_by_file_name();
    for entry in walk {
        let entry = match entry {
            Ok(e) => e,
            // An unreadable folder is named and skipped; the files that can be read are checked.
            Err(e) => {
                super::say(format_args!("kibitzer: {e}"));
                continue;
            }
        };
        let is_rules = entry.path().extension().is_some_and(|x| x == "rules");
        if is_rules && !entry.path().is_dir() {
            add(entry.path());
        }
    }
}

/// The text of a plain `.rules` file of a readable size, else `None` (anything else, a FIFO or a
/// device included, is left to the loader, which refuses it without reading it).
fn rules_text(f: &Path) -> Option<String> {
    let real = std::fs::canonicalize(f).ok()?;
    let meta = std::fs::metadata(&real).ok()?;
    let plain = meta.is_file() && meta.len() <= 64 << 20 && real.extension().is_some_and(|x| x == "rules");
    plain.then(|| std::fs::read_to_string(f).ok()).flatten()
}

/// Whether a rule file is a fragment: no line of it starts the `ruleset` declaration.
fn is_fragment(f: &Path) -> bool {
    rules_text(f).is_some_and(|text| {
        !text.lines().any(|l| {
            let l = l.trim_start_matches('\u{feff}').trim_start();
            l.strip_prefix("ruleset")
                .is_some_and(|r| r.starts_with(char::is_whitespace))
        })
    })
}

/// The files a rule file includes, directly or through the files it includes (canonical paths;
/// read as text, so a file that does not load still shows what it includes).
fn includes(f: &Path) -> HashSet<PathBuf> {
    let mut found = HashSet::new();
    let mut todo = vec![f.to_path_buf()];
    while let Some(file) = todo.pop() {
        let Some(text) = rules_text(&file) else {
            continue;
        };
        let folder = file.parent().map(Path::to_path_buf).unwrap_or_default();
        for l in text.lines() {
            let Some(rest) = l.trim_start().strip_prefix("include") else {
                continue;
            };
            let Some(name) = rest.trim().strip_prefix('"').and_then(|r| r.split('"').next()) else {
                continue;
            };
            if let Ok(path) = std::fs::canonicalize(folder.join(name)) {
                if found.insert(path.clone()) && found.len() < 1024 {
                    todo.push(path);
                }
            }
        }
    }
    found
}
