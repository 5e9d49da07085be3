//! `kibitzer fmt`: rule files rewritten in the canonical layout (`lang::format_rules`), or checked
//! against it with a diff.

use super::say;
use kibitzer::lang::format_rules;
use std::collections::HashSet;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct FmtArgs {
    /// Rule files or folders of them; none: standard input to standard output.
    paths: Vec<PathBuf>,
    /// Change nothing: print the difference for each file not in the layout, and exit 1 if any.
    #[arg(long)]
    check: bool,
}

/// Files larger than this are not formatted: a rule file is written by hand.
const MAX_BYTES: u64 = 64 << 20;

pub fn run(a: FmtArgs) -> i32 {
    if a.paths.is_empty() {
        return stdin(a.check);
    }
    let mut files = Vec::new();
    let mut seen = HashSet::new();
    for p in &a.paths {
        super::check::collect(p, &mut files, &mut seen);
    }
    if files.is_empty() {
        say("kibitzer: no .rules files found");
        return super::EXIT_BAD_INPUT;
    }
    let (mut bad, mut unformatted) = (false, 0usize);
    for f in &files {
        match one(f, a.check) {
            Ok(true) => {}
            Ok(false) => unformatted += 1,
            Err(()) => bad = true,
        }
    }
    if bad {
        super::EXIT_BAD_INPUT
    } else if a.check && unformatted > 0 {
        say(format_args!(
            "{unformatted} file(s) not formatted (`kibitzer fmt PATH` rewrites them)"
        ));
        1
    } else {
        0
    }
}

/// Formats one file in place (or, with `check`, prints its diff). `Ok(true)`: it was formatted
/// already.
fn one(path: &Path, check: bool) -> Result<bool, ()> {
    let shown = path.display().to_string();
    let text = read(path).map_err(|why| say(format_args!("kibitzer: {shown}: {why}")))?;
    let formatted = format_rules(&shown, &text).map_err(|d| say(d.render()))?;
    if formatted == text {
        return Ok(true);
    }
    if check {
        print!("{}", diff(&shown, &text, &formatted));
        return Ok(false);
    }
    std::fs::write(path, &formatted).map_err(|e| say(format_args!("kibitzer: {shown}: {e}")))?;
    println!("formatted {shown}");
    Ok(false)
}

fn read(path: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_BYTES + 1).read_to_string(&mut text))
        .map_err(|e| e.to_string())?;
    if text.len() as u64 > MAX_BYTES {
        return Err("too large for a rule file".into());
    }
    Ok(text)
}

/// Standard input formatted to standard output; with `check`, the diff and exit 1 instead.
fn stdin(check: bool) -> i32 {
    let mut text = String::new();
    if let Err(e) = std::io::stdin().take(MAX_BYTES + 1).read_to_string(&mut text) {
        say(format_args!("kibitzer: standard input: {e}"));
        return super::EXIT_BAD_INPUT;
    }
    let formatted = match format_rules("<stdin>", &text) {
        Ok(f) => f,
        Err(d) => {
            say(d.render());
            return super::EXIT_BAD_INPUT;
        }
    };
    let out = match check {
        true if formatted != text => diff("<stdin>", &text, &formatted),
        true => String::new(),
        false => formatted.clone(),
    };
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_all(out.as_bytes()).and_then(|()| stdout.flush()) {
        return super::write_failed(&e);
    }
    i32::from(check && formatted != text)
}

/// A unified diff from the file as it is to the file formatted.
fn diff(name: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(2)
        .header(name, &format!("{name} (formatted)"))
        .to_string()
}
