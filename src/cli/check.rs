//! `kibitzer check`: load rule files and report every problem with `file:line:col`.

use crate::library::{load_file, load_shipped, shipped_names, LoadError};
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Rule files or folders of them (default: the shipped rule sets).
    paths: Vec<PathBuf>,
}

pub fn run(a: CheckArgs) -> i32 {
    let mut failed = false;
    let mut report = |label: String, r: Result<std::sync::Arc<crate::Program>, LoadError>| match r {
        Ok(p) => {
            for w in &p.warnings {
                super::say(w.render(&p.sources));
            }
            println!("ok: {label}: rule set `{}`, {} rules", p.name, p.rules.len());
        }
        Err(e) => {
            failed = true;
            super::say(&e);
            let n = match &e {
                LoadError::Rules(d) => d.errors().count(),
                _ => 1,
            };
            super::say(format_args!("{label}: {n} error(s)"));
        }
    };
    if a.paths.is_empty() {
        for name in shipped_names() {
            report(format!("<shipped>/{name}.rules"), load_shipped(&name));
        }
    } else {
        let mut files = Vec::new();
        for p in &a.paths {
            collect(p, &mut files);
        }
        if files.is_empty() {
            super::say("kibitzer: no .rules files found");
            return super::EXIT_BAD_INPUT;
        }
        for f in files {
            report(f.display().to_string(), load_file(&f));
        }
    }
    if failed {
        super::EXIT_BAD_INPUT
    } else {
        0
    }
}

fn collect(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        entries.sort();
        for e in entries {
            if e.is_dir() || e.extension().is_some_and(|x| x == "rules") {
                collect(&e, out);
            }
        }
    } else {
        out.push(p.to_path_buf());
    }
}
