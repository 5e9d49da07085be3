//! Case files: golden tests of a rule set, written in TOML beside its rules by authors who have only
//! the binary. Parsing (every problem located), running a case, comparing its answers, rewriting
//! expectations (`--update`) and rule coverage. The library never prints or exits; `cli::test` does.

use crate::engine::explain::{render_derivation, Explainer};
use crate::engine::program::Program;
use crate::engine::session::{RunOptions, Session};
use crate::library::{load_file, load_shipped, shipped_text, LoadError, Loader};
use crate::query::Query;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock};

/// The shipped suites, embedded like the rules: (file name, text), each game's in the order of
/// [`crate::games::ALL`].
pub static SHIPPED_CASES: LazyLock<Vec<(&str, &str)>> = LazyLock::new(|| {
    crate::games::ALL
        .iter()
        .flat_map(|g| g.case_suites.iter().copied())
        .collect()
});

/// The golden explanations the shipped suites pin, embedded with them as the rules are: (path as
/// the suites name it, relative to `rules/`; text).
pub static SHIPPED_GOLDEN: LazyLock<Vec<(&str, &str)>> = LazyLock::new(|| {
    crate::games::ALL
        .iter()
        .flat_map(|g| g.golden.iter().copied())
        .collect()
});

/// Case files larger than this are refused: a case file is written by hand.
const MAX_CASE_FILE_BYTES: u64 = 8 << 20;

/// Why case files could not be read, checked or rewritten.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CaseError {
    /// A case file that is not valid TOML or not the case shape, located at the offending text.
    #[error("{file}:{line}:{col}: {message}")]
    Malformed {
        /// The case file's path.
        file: String,
        /// The 1-based line of the offending text.
        line: usize,
        /// The 1-based column of the offending text.
        col: usize,
        /// What is wrong there.
        message: String,
    },
    /// A file or folder that could not be read or written.
    #[error("{path}: {why}")]
    Io {
        /// The file or folder.
        path: String,
        /// Why it could not be read or written.
        why: String,
    },
    /// The rule set a case file names could not be loaded.
    #[error("{file}:{line}: rules `{rules}`: {error}")]
    Rules {
        /// The case file's path.
        file: String,
        /// The 1-based line of its `rules` key.
        line: usize,
        /// The rule set as named: a shipped name or a path.
        rules: String,
        /// Why loading it failed.
        error: Box<LoadError>,
    },
}

/// One case file, parsed.
#[derive(Debug, Clone)]
pub struct CaseFile {
    /// The path as given (shipped suites: `<shipped>/stud.cases.toml`).
    pub path: String,
    /// The folder relative paths are read from; `None` for an embedded suite.
    pub dir: Option<PathBuf>,
    /// The folder tree the paths it names must resolve into (canonical); `None` for an embedded
    /// suite.
    pub root: Option<PathBuf>,
    /// The file's text as read.
    pub text: String,
    /// The `rules` key: a shipped name or a path relative to this file.
    pub rules: String,
    /// 1-based line of the `rules` key.
    pub rules_line: usize,
    /// The rule file the `rules` key names, resolved inside `root`; `None` for a shipped name.
    pub rules_path: Option<PathBuf>,
    /// Its cases, in file order.
    pub cases: Vec<Case>,
}

/// One case of a case file.
#[derive(Debug, Clone)]
pub struct Case {
    /// The case's name.
    pub name: String,
    /// 1-based line of the case's `name = …`.
    pub line: usize,
    /// The query's inputs: (name, value as `ask` would take it), arrays joined with spaces.
    pub inputs: Vec<(String, String)>,
    /// The parameters set for the run: (name, value as text).
    pub params: Vec<(String, String)>,
    /// The conclusion lines expected, as `ask` prints them.
    pub expect: Vec<String>,
    /// Whether any conclusion not in `expect` is a failure too.
    pub exact: bool,
    /// Conclusions that must not be drawn: a line as `ask` prints it, or a relation's name alone
    /// for any conclusion of it.
    pub absent: Vec<String>,
    /// (rule, text): the rule must not fire and its why-not must contain the text.
    pub why_not: Vec<(String, String)>,
    /// The golden explanation file to compare with, relative to the case file.
    pub explanation: Option<String>,
    /// That file resolved inside the case file's `root` (links followed); `None` for an embedded
    /// suite.
    pub explanation_path: Option<PathBuf>,
    /// Text the run's error must contain, when the case expects an error.
    pub error: Option<String>,
    /// Which `[[case]]` table of the file it comes from (0-based).
    pub table: usize,
    /// Which row of that table's `rows`, for a table case (0-based).
    pub row: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    rules: toml::Spanned<String>,
    #[serde(default)]
    case: Vec<RawCase>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    name: toml::Spanned<String>,
    #[serde(default)]
    inputs: BTreeMap<String, toml::Spanned<toml::Value>>,
    #[serde(default)]
    params: BTreeMap<String, toml::Spanned<toml::Value>>,
    expect: Option<Vec<String>>,
    #[serde(default)]
    exact: bool,
    #[serde(default)]
    why_not: BTreeMap<String, String>,
    explanation: Option<toml::Spanned<String>>,
    error: Option<toml::Spanned<String>>,
    absent: Option<Vec<String>>,
    rows: Option<Vec<toml::Spanned<RawRow>>>,
}

/// One row of a table case: what it sets beside (or instead of) the case's own keys.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRow {
    name: Option<String>,
    #[serde(default)]
    inputs: BTreeMap<String, toml::Spanned<toml::Value>>,
    #[serde(default)]
    params: BTreeMap<String, toml::Spanned<toml::Value>>,
    expect: Option<Vec<String>>,
    exact: Option<bool>,
    why_not: Option<BTreeMap<String, String>>,
    error: Option<toml::Spanned<String>>,
    absent: Option<Vec<String>>,
}

/// 1-based line and column of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// An input or parameter value as the text `ask` would take: arrays are joined with spaces.
fn value_text(v: &toml::Value) -> Option<String> {
    Some(match v {
        toml::Value::String(s) => s.clone(),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(f) => f.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        toml::Value::Array(items) => items.iter().map(value_text).collect::<Option<Vec<_>>>()?.join(" "),
        toml::Value::Datetime(_) | toml::Value::Table(_) => return None,
    })
}

/// Parses a case file's text; `dir` is where its relative paths are read from, and they must
/// resolve inside `dir`'s folder tree.
pub fn parse(path: &str, text: &str, dir: Option<PathBuf>) -> Result<CaseFile, CaseError> {
    parse_in(path, text, dir, None)
}

/// Parses a case file's text as [`parse`] does, its paths confined to `root`'s folder tree
/// instead of `dir`'s when `root` is given.
pub fn parse_in(path: &str, text: &str, dir: Option<PathBuf>, root: Option<&Path>) -> Result<CaseFile, CaseError> {
    let malformed = |offset: usize, message: String| {
        let (line, col) = line_col(text, offset);
        CaseError::Malformed {
            file: path.to_string(),
            line,
            col,
            message,
        }
    };
    let raw: RawFile = toml::from_str(text).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        // toml's message spans several lines (source excerpt, caret): its first line is the point.
        let message = e.message().lines().next().unwrap_or("invalid TOML").to_string();
        malformed(offset, message)
    })?;
    let tree = match &dir {
        Some(d) => Some(PathTree::new(d, root).map_err(|why| malformed(0, why))?),
        None => None,
    };
    let rules_path = match (&tree, shipped_file(raw.rules.get_ref())) {
        (Some(t), None) => Some(t.resolve(raw.rules.get_ref()).map_err(|why| {
            malformed(
                raw.rules.span().start,
                format!("rules {:?}: {why}", raw.rules.get_ref()),
            )
        })?),
        _ => None,
    };
    let mut cases = Vec::new();
    let values = |table: BTreeMap<String, toml::Spanned<toml::Value>>, what: &str| {
        table
            .into_iter()
            .map(|(k, v)| match value_text(v.get_ref()) {
                Some(t) => Ok((k, t)),
                None => Err(malformed(
                    v.span().start,
                    format!("{what} `{k}`: expected a string, number, boolean or array"),
                )),
            })
            .collect::<Result<Vec<_>, _>>()
    };
    // A row's inputs and parameters are laid over its case's, name by name.
    let merged = |base: &[(String, String)], over: Vec<(String, String)>| {
        let mut out: Vec<(String, String)> = base
            .iter()
            .filter(|(k, _)| !over.iter().any(|(o, _)| o == k))
            .cloned()
            .collect();
        out.extend(over);
        out.sort();
        out
    };
    for (table, c) in raw.case.into_iter().enumerate() {
        let at = c.name.span().start;
        let inputs = values(c.inputs, "input")?;
        let params = values(c.params, "parameter")?;
        if c.name.get_ref().trim().is_empty() {
            return Err(malformed(at, "a case needs a non-empty name".into()));
        }
        let explanation_path = match (&tree, &c.explanation) {
            (Some(t), Some(e)) => Some(
                t.resolve(e.get_ref())
                    .map_err(|why| malformed(e.span().start, format!("explanation {:?}: {why}", e.get_ref())))?,
            ),
            _ => None,
        };
        let base = Case {
            name: c.name.get_ref().clone(),
            line: line_col(text, at).0,
            inputs,
            params,
            expect: c.expect.clone().unwrap_or_default(),
            exact: c.exact,
            absent: c.absent.unwrap_or_default(),
            why_not: c.why_not.into_iter().collect(),
            explanation: c.explanation.map(|e| e.into_inner()),
            explanation_path,
            error: c.error.as_ref().map(|e| e.get_ref().clone()),
            table,
            row: None,
        };
        if let (Some(e), Some(_)) = (&c.error, &c.expect) {
            return Err(malformed(
                e.span().start,
                "a case expects either an error or conclusions, not both".into(),
            ));
        }
        let Some(rows) = c.rows else {
            cases.push(base);
            continue;
        };
        if rows.is_empty() {
            return Err(malformed(at, "a table case needs at least one row in `rows`".into()));
        }
        if base.explanation.is_some() {
            return Err(malformed(at, "a table case cannot pin a golden explanation".into()));
        }
        for (r, row) in rows.into_iter().enumerate() {
            let row_at = row.span().start;
            let row = row.into_inner();
            let (expect, error) = match (row.expect, row.error) {
                (Some(_), Some(e)) => {
                    return Err(malformed(
                        e.span().start,
                        "a case expects either an error or conclusions, not both".into(),
                    ))
                }
                (Some(x), None) => (x, None),
                (None, Some(e)) => (Vec::new(), Some(e.into_inner())),
                (None, None) => (base.expect.clone(), base.error.clone()),
            };
            let label = row.name.clone().unwrap_or_else(|| (r + 1).to_string());
            let mut case = Case {
                name: format!("{} [{label}]", base.name),
                line: line_col(text, row_at).0,
                inputs: merged(&base.inputs, values(row.inputs, "input")?),
                params: merged(&base.params, values(row.params, "parameter")?),
                expect,
                error,
                row: Some(r),
                ..base.clone()
            };
            case.exact = row.exact.unwrap_or(case.exact);
            if let Some(a) = row.absent {
                case.absent = a;
            }
            if let Some(w) = row.why_not {
                case.why_not = w.into_iter().collect();
            }
            cases.push(case);
        }
    }
    Ok(CaseFile {
        path: path.to_string(),
        dir,
        root: tree.map(|t| t.root),
        text: text.to_string(),
        rules_path,
        rules_line: line_col(text, raw.rules.span().start).0,
        rules: raw.rules.into_inner(),
        cases,
    })
}

/// The folder tree a case file's paths must resolve into, as rule-file includes are confined: the
/// case file's folder, or the `--include-root` given.
struct PathTree {
    /// Canonical root: no path may resolve outside it.
    root: PathBuf,
    /// The root as the user wrote it, for messages.
    shown: String,
    /// The case file's folder (canonical), where relative paths start.
    base: PathBuf,
}

impl PathTree {
    fn new(dir: &Path, root: Option<&Path>) -> Result<PathTree, String> {
        let or_dot = |d: &Path| match d.as_os_str().is_empty() {
            true => PathBuf::from("."),
            false => d.to_path_buf(),
        };
        let canonical =
            |d: &Path| std::fs::canonicalize(or_dot(d)).map_err(|e| format!("{}: {e}", or_dot(d).display()));
        let base = canonical(dir)?;
        Ok(match root {
            Some(r) => PathTree {
                root: canonical(r)?,
                shown: or_dot(r).display().to_string(),
                base,
            },
            None => PathTree {
                root: base.clone(),
                shown: or_dot(dir).display().to_string(),
                base,
            },
        })
    }

    /// `written` resolved from the case file's folder with links followed: a regular file inside
    /// the tree, or a path inside it where no file is yet (a golden file `--update` may write).
    fn resolve(&self, written: &str) -> Result<PathBuf, String> {
        let w = Path::new(written);
        if w.is_absolute() || w.has_root() {
            return Err("a path in a case file must be relative to the case file, not absolute".into());
        }
        let joined = self.base.join(w);
        let target = if std::fs::symlink_metadata(&joined).is_ok() {
            std::fs::canonicalize(&joined).map_err(|e| format!("it cannot be resolved: {e}"))?
        } else {
            // Not there yet: the deepest folder that exists, resolved, then plain names only.
            let mut missing = Vec::new();
            let mut at = joined.as_path();
            let found = loop {
                match (at.parent(), at.file_name()) {
                    (Some(parent), Some(name)) => {
                        missing.push(name.to_owned());
                        if std::fs::symlink_metadata(parent).is_ok() {
                            break parent;
                        }
                        at = parent;
                    }
                    _ => return Err("it names no file".into()),
                }
            };
            let mut t = std::fs::canonicalize(found).map_err(|e| format!("it cannot be resolved: {e}"))?;
            if missing.iter().any(|n| n == "." || n == "..") {
                return Err("it climbs out of a folder that does not exist".into());
            }
            t.extend(missing.iter().rev());
            t
        };
        if !target.starts_with(&self.root) {
            return Err(format!(
                "it resolves to `{}`, outside `{}`, the folder tree a case file's paths must stay in (`include_root` allows another)",
                target.display(),
                self.shown
            ));
        }
        if target.exists() && !target.is_file() {
            return Err(match self.base.join(w) == target {
                true => "not a regular file".into(),
                false => format!("it resolves to `{}`, not a regular file", target.display()),
            });
        }
        Ok(target)
    }
}

fn io(path: &Path, e: impl std::fmt::Display) -> CaseError {
    CaseError::Io {
        path: path.display().to_string(),
        why: e.to_string(),
    }
}

fn read_case_file(path: &Path, root: Option<&Path>) -> Result<CaseFile, CaseError> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| io(path, e))?;
    let mut text = String::new();
    file.take(MAX_CASE_FILE_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| io(path, e))?;
    if text.len() as u64 > MAX_CASE_FILE_BYTES {
        return Err(io(path, "too large for a case file"));
    }
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    parse_in(&path.display().to_string(), &text, Some(dir), root)
}

/// The case files a list of paths means: a folder is every `*.cases.toml` in it (sorted by name);
/// no path at all is the shipped suites. The paths each names stay in its folder's tree.
pub fn load(paths: &[PathBuf]) -> Result<Vec<CaseFile>, CaseError> {
    load_in(paths, None)
}

/// The case files as [`load`] reads them, the paths they name confined to `root`'s folder tree
/// when it is given (`kibitzer test --include-root DIR`). A path where no file or folder is that
/// names a shipped rule set (`stud`) is that rule set's shipped suite.
pub fn load_in(paths: &[PathBuf], root: Option<&Path>) -> Result<Vec<CaseFile>, CaseError> {
    if paths.is_empty() {
        return SHIPPED_CASES
            .iter()
            .map(|(f, t)| parse(&format!("<shipped>/{f}"), t, None))
            .collect();
    }
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found = Vec::new();
            case_files_under(p, &mut found, 0)?;
            if found.is_empty() {
                return Err(io(p, "no *.cases.toml file under this folder"));
            }
            for f in found {
                files.push(read_case_file(&f, root)?);
            }
        } else if let Some(suite) = shipped_suite(p) {
            files.push(suite?);
        } else {
            files.push(read_case_file(p, root)?);
        }
    }
    Ok(files)
}

/// The shipped suite a path names when no file or folder is there: a shipped rule set's name
/// (`stud`, `mahjong-reference`), as `kibitzer test stud` runs it.
fn shipped_suite(p: &Path) -> Option<Result<CaseFile, CaseError>> {
    if p.exists() {
        return None;
    }
    let name = format!("{}.cases.toml", crate::library::canonical_name(p.to_str()?));
    let (file, text) = SHIPPED_CASES.iter().find(|(f, _)| *f == name)?;
    Some(parse(&format!("<shipped>/{file}"), text, None))
}

/// The names of the shipped suites (each its rule set's name).
pub fn shipped_suite_names() -> Vec<&'static str> {
    SHIPPED_CASES
        .iter()
        .filter_map(|(f, _)| f.strip_suffix(".cases.toml"))
        .collect()
}

/// Folders nested deeper than this under a path given to `kibitzer test` are not searched.
const MAX_FOLDER_DEPTH: usize = 32;

/// The `*.cases.toml` files under `dir` and its subfolders, sorted by path within each folder.
/// Symlinked folders are not followed (a link to `/` or to an ancestor would walk out or loop).
fn case_files_under(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) -> Result<(), CaseError> {
    if depth > MAX_FOLDER_DEPTH {
        return Ok(());
    }
    let mut entries: Vec<(PathBuf, std::fs::FileType)> = std::fs::read_dir(dir)
        .map_err(|e| io(dir, e))?
        .filter_map(|e| e.ok().and_then(|e| Some((e.path(), e.file_type().ok()?))))
        .collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (path, kind) in entries {
        if kind.is_dir() {
            case_files_under(&path, out, depth + 1)?;
        } else if path.to_str().is_some_and(|s| s.ends_with(".cases.toml")) && path.is_file() {
            out.push(path);
        }
    }
    Ok(())
}

/// The shipped file name of a rule-set name (`mahjong-reference` is `mahjong_reference.rules`).
fn shipped_file(name: &str) -> Option<String> {
    let file = format!("{}.rules", crate::library::canonical_name(name));
    shipped_text(&file).map(|_| file)
}

/// The rule set a case file runs against: `rules_override` when given, else what it names.
pub fn resolve_rules(file: &CaseFile, rules_override: Option<&Path>) -> Result<(String, Arc<Program>), CaseError> {
    let err = |rules: String, error: LoadError| CaseError::Rules {
        file: file.path.clone(),
        line: file.rules_line,
        rules,
        error: Box::new(error),
    };
    if let Some(p) = rules_override {
        let label = p.display().to_string();
        return load_file(p)
            .map(|prog| (label.clone(), prog))
            .map_err(|e| err(label, e));
    }
    if shipped_file(&file.rules).is_some() {
        return load_shipped(&file.rules)
            .map(|p| (file.rules.clone(), p))
            .map_err(|e| err(file.rules.clone(), e));
    }
    let (Some(dir), Some(_)) = (&file.dir, &file.rules_path) else {
        let known = crate::library::shipped_names().join(", ");
        return Err(err(file.rules.clone(), LoadError::Unknown(file.rules.clone(), known)));
    };
    // Checked inside the case file's tree when parsed; its includes stay in that tree too.
    let path = dir.join(&file.rules);
    let mut loader = Loader::new();
    if let Some(root) = &file.root {
        loader = loader.include_root(root);
    }
    loader
        .file(&path)
        .map(|p| (path.display().to_string(), p))
        .map_err(|e| err(file.rules.clone(), e))
}

/// A rule set's text for editing: a shipped name or a path, each `include "…"` line replaced by
/// the included file's text so that the result loads on its own.
pub fn rule_source(name: &str) -> Result<String, LoadError> {
    if let Some(file) = shipped_file(name) {
        let read = |_: &Path, inc: &str| {
            let base = Path::new(inc).file_name().and_then(|f| f.to_str()).unwrap_or(inc);
            shipped_text(base).map(|t| (t.to_string(), PathBuf::new()))
        };
        return Ok(inline(shipped_text(&file).unwrap_or_default(), Path::new(""), &read, 0));
    }
    let path = Path::new(name);
    // Loaded first, as `ask` loads it: a file that is not a rule file (a `.txt`, a FIFO, a link to
    // one) or an include that leaves the folder tree is refused before any text is printed.
    load_file(path)?;
    let io = |e: std::io::Error| LoadError::Io {
        path: name.to_string(),
        why: e.to_string(),
    };
    let canonical = std::fs::canonicalize(path).map_err(io)?;
    let text = std::fs::read_to_string(&canonical).map_err(io)?;
    let root = canonical.parent().map(Path::to_path_buf).unwrap_or_default();
    // Each include relative to the file that includes it, and only the rule files the load read.
    let read = |from: &Path, inc: &str| {
        let target = std::fs::canonicalize(from.join(inc)).ok()?;
        let allowed = target.starts_with(&root) && target.extension().is_some_and(|x| x == "rules") && target.is_file();
        if !allowed {
            return None;
        }
        Some((std::fs::read_to_string(&target).ok()?, target.parent()?.to_path_buf()))
    };
    Ok(inline(&text, &root, &read, 0))
}

/// Reads an include for [`inline`]: given the including file's folder and the path written, the
/// included text and its own folder.
type InlineReader<'a> = dyn Fn(&Path, &str) -> Option<(String, PathBuf)> + 'a;

/// Include depth past which lines are left as written (an include cycle stops here).
const MAX_INCLUDE_DEPTH: usize = 16;

fn inline(text: &str, dir: &Path, read: &InlineReader<'_>, depth: usize) -> String {
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        let target = t
            .strip_prefix("include")
            .map(str::trim)
            .and_then(|r| r.strip_prefix('"'))
            .and_then(|r| r.strip_suffix('"'));
        match target
            .filter(|_| depth < MAX_INCLUDE_DEPTH)
            .and_then(|f| Some((f, read(dir, f)?)))
        {
            Some((f, (included, folder))) => {
                out.push_str(&format!("# ---- included from {f} ----\n"));
                out.push_str(&inline(&included, &folder, read, depth + 1));
                if !out.ends_with('\n') {
                    out.push('\n');
                }
                out.push_str(&format!("# ---- end of {f} ----\n"));
            }
            None => out.push_str(line),
        }
    }
    out
}

/// What did not match in a case.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Failure {
    /// The conclusions differ: expected lines missing (or, when exact, extra lines present).
    Conclusions {
        /// The conclusion lines the case expects.
        expected: Vec<String>,
        /// The conclusion lines the run gave.
        got: Vec<String>,
        /// Whether the case is exact (extra lines count as failures).
        exact: bool,
    },
    /// An error was expected and did not come (or another came), or one came unexpected.
    Error {
        /// The error text the case expects, if any.
        expected: Option<String>,
        /// The error the run gave, if any.
        got: Option<String>,
    },
    /// A rule fired that should not have, or its why-not does not mention the text.
    WhyNot {
        /// The rule's name.
        rule: String,
        /// The text its why-not should contain.
        text: String,
        /// The why-not the run gave (or how often the rule fired).
        got: String,
    },
    /// Conclusions the case says must not be drawn were drawn.
    Absent {
        /// The conclusion lines drawn that an `absent` entry names.
        present: Vec<String>,
    },
    /// The golden explanation differs (or its file is missing: `expected` is `None`).
    Golden {
        /// The golden file, as the case names it.
        file: String,
        /// The golden file's text; `None` when it could not be read.
        expected: Option<String>,
        /// The explanation the run gave.
        got: String,
    },
}

/// A case's run: what it answered and what failed.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Index of the case file in the list that was run.
    pub file: usize,
    /// Index of the case in its file.
    pub case: usize,
    /// The conclusion lines, as `ask` prints them.
    pub got: Vec<String>,
    /// The run's (or an input's) error.
    pub error: Option<String>,
    /// The explanation as `ask` prints it, when the case pins one.
    pub explanation: Option<String>,
    /// What did not match; empty when the case passed.
    pub failures: Vec<Failure>,
    /// Per rule of the program: fired at least once in this case.
    pub fired: Vec<bool>,
    /// (rule, condition) pairs that stopped a rule that did not fire (filled with coverage only).
    pub decided: Vec<(usize, usize)>,
}

impl Outcome {
    /// Whether the case passed (nothing failed).
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// The full derivation `ask --explain full` prints for the last run's conclusions, without the
/// inputs (the case gives them) and the run's figures: what a case's golden explanation pins.
pub fn explanation_text(s: &Session) -> String {
    let facts: Vec<_> = s.conclusions().iter().map(|c| c.fact).collect();
    if facts.is_empty() {
        return "(no conclusion: no rule produced an output)\n".to_string();
    }
    render_derivation(&Explainer::new(s).explain_all(&facts, Default::default()))
}

/// A case's golden explanation: beside its case file (a regular file, resolved inside its tree when
/// parsed), or embedded with a shipped suite.
fn golden_text(file: &CaseFile, case: &Case, name: &str) -> Option<String> {
    use std::io::Read;
    match (&file.dir, &case.explanation_path) {
        (Some(_), Some(path)) => {
            // Checked before opening: opening a FIFO for reading blocks until a writer comes.
            if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
                return None;
            }
            let mut text = String::new();
            std::fs::File::open(path)
                .ok()?
                .take(MAX_CASE_FILE_BYTES)
                .read_to_string(&mut text)
                .ok()?;
            Some(text)
        }
        (Some(_), None) => None,
        (None, _) => SHIPPED_GOLDEN
            .iter()
            .find(|(p, _)| *p == name)
            .map(|(_, t)| t.to_string()),
    }
}

/// Runs one case against `program`.
pub fn run_case(program: &Arc<Program>, file: &CaseFile, index: usize, coverage: bool) -> Outcome {
    let case = &file.cases[index];
    let mut out = Outcome {
        file: 0,
        case: index,
        got: Vec::new(),
        error: None,
        explanation: None,
        failures: Vec::new(),
        fired: vec![false; program.rule_names().count()],
        decided: Vec::new(),
    };
    let query = Query {
        inputs: case.inputs.clone(),
        params: case.params.clone(),
        options: RunOptions {
            why_not: !case.why_not.is_empty(),
            ..RunOptions::default()
        },
    };
    let (s, ran) = crate::query::ask(program, &query);
    let ran = ran.map(|_| ()).map_err(|e| e.to_string());
    if let Err(e) = ran {
        let ok = case.error.as_ref().is_some_and(|want| e.contains(want.as_str()));
        if !ok {
            out.failures.push(Failure::Error {
                expected: case.error.clone(),
                got: Some(e.clone()),
            });
        }
        out.error = Some(e);
        return out;
    }
    if case.error.is_some() {
        out.failures.push(Failure::Error {
            expected: case.error.clone(),
            got: None,
        });
    }
    let mut explainer = Explainer::new(&s);
    out.got = s.conclusions().iter().map(|c| explainer.fact_line(c.fact)).collect();
    let missing = case.expect.iter().any(|e| !out.got.contains(e));
    let extra = case.exact && out.got.iter().any(|g| !case.expect.contains(g));
    if case.error.is_none() && (missing || extra) {
        out.failures.push(Failure::Conclusions {
            expected: case.expect.clone(),
            got: out.got.clone(),
            exact: case.exact,
        });
    }
    let present: Vec<String> = out
        .got
        .iter()
        .filter(|g| case.absent.iter().any(|a| names(a, g)))
        .cloned()
        .collect();
    if !present.is_empty() {
        out.failures.push(Failure::Absent { present });
    }
    for (rule, text) in &case.why_not {
        // A rule's name, or else a move (or title) as `ask --why-not` takes it.
        let got = match program.rule_index(rule) {
            Some(_) => match explainer.why_not(rule) {
                Ok(w) if w.fired > 0 => format!("{rule} fired {} time(s)", w.fired),
                Ok(w) => w.to_text(),
                Err(e) => e.to_string(),
            },
            // Compared as one line: the text wraps where the words fall.
            None => match explainer.why_not_query(rule) {
                Ok(ws) => ws
                    .iter()
                    .flat_map(|w| w.to_text().split_whitespace().map(str::to_string).collect::<Vec<_>>())
                    .collect::<Vec<_>>()
                    .join(" "),
                Err(e) => e.to_string(),
            },
        };
        let fired = program.rule_index(rule).is_some_and(|i| s.fired_count(i) > 0);
        if fired || !got.contains(text.as_str()) {
            out.failures.push(Failure::WhyNot {
                rule: rule.clone(),
                text: text.clone(),
                got,
            });
        }
    }
    if let Some(name) = &case.explanation {
        let text = explanation_text(&s);
        let expected = golden_text(file, case, name);
        if expected.as_deref().map(normalise) != Some(normalise(&text)) {
            out.failures.push(Failure::Golden {
                file: name.clone(),
                expected,
                got: text.clone(),
            });
        }
        out.explanation = Some(text);
    }
    for (i, f) in out.fired.iter_mut().enumerate() {
        *f = s.fired_count(i) > 0;
    }
    if coverage {
        for (i, rule) in program.rule_names().enumerate() {
            if out.fired[i] {
                continue;
            }
            if let Ok(w) = explainer.why_not(rule) {
                if let Some(f) = w.failed {
                    out.decided.push((i, f.index - 1));
                }
            }
        }
    }
    out
}

/// Whether an `absent` entry names a conclusion line: the same line, or its relation's name.
fn names(entry: &str, line: &str) -> bool {
    let entry = entry.trim();
    match entry.contains('(') {
        true => entry == line,
        false => relation_of(line) == entry,
    }
}

/// The relation of a conclusion line as `ask` prints it: `category(3, "full house")` → `category`.
fn relation_of(line: &str) -> &str {
    line.split('(').next().unwrap_or(line).trim()
}

fn normalise(t: &str) -> String {
    t.replace("\r\n", "\n").trim_end().to_string()
}

/// The runs of every case of some case files, in file then case order.
pub struct Report {
    /// Per case file: the label of the rule set it ran against and the program.
    pub programs: Vec<(String, Arc<Program>)>,
    /// One per case, in file then case order.
    pub outcomes: Vec<Outcome>,
}

/// Runs every case of `files` on all cores; the outcomes come back in file then case order.
pub fn run_all(files: &[CaseFile], rules_override: Option<&Path>, coverage: bool) -> Result<Report, CaseError> {
    run_all_watched(files, rules_override, coverage, &|| {})
}

/// [`run_all`], calling `on_case` as each case finishes (from the thread that ran it), so a
/// caller can show progress.
pub fn run_all_watched(
    files: &[CaseFile],
    rules_override: Option<&Path>,
    coverage: bool,
    on_case: &(dyn Fn() + Sync),
) -> Result<Report, CaseError> {
    let programs = files
        .iter()
        .map(|f| resolve_rules(f, rules_override))
        .collect::<Result<Vec<_>, _>>()?;
    let jobs: Vec<(usize, usize)> = files
        .iter()
        .enumerate()
        .flat_map(|(fi, f)| (0..f.cases.len()).map(move |ci| (fi, ci)))
        .collect();
    let run = |&(fi, ci): &(usize, usize)| {
        let mut o = run_case(&programs[fi].1, &files[fi], ci, coverage);
        o.file = fi;
        on_case();
        o
    };
    Ok(Report {
        outcomes: on_all_cores(&jobs, run),
        programs,
    })
}

/// `f` of every job, in job order, on all cores (a job at a time from a shared counter).
fn on_all_cores<J: Sync, T: Send>(jobs: &[J], f: impl Fn(&J) -> T + Sync) -> Vec<T> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(jobs.len())
        .max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let j = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(job) = jobs.get(j) else { return done };
            done.push((j, f(job)));
        }
    };
    let mut all: Vec<(usize, T)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads).map(|_| s.spawn(work)).collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    });
    all.sort_by_key(|(j, _)| *j);
    all.into_iter().map(|(_, t)| t).collect()
}

/// The conclusions compared as lines: `  ` both, `- ` expected only, `+ ` got only.
pub fn conclusion_diff(expected: &[String], got: &[String]) -> String {
    let mut out = String::new();
    for g in got {
        // Without `exact`, an extra line is no failure: it is marked `+` as information.
        let mark = if expected.contains(g) { "  " } else { "+ " };
        out.push_str(&format!("{mark}{g}\n"));
    }
    for e in expected.iter().filter(|e| !got.contains(e)) {
        out.push_str(&format!("- {e}\n"));
    }
    out
}

/// A unified diff of two texts (`-` expected, `+` got).
pub fn text_diff(expected: &str, got: &str) -> String {
    similar::TextDiff::from_lines(expected, got)
        .unified_diff()
        .context_radius(2)
        .header("expected", "got")
        .to_string()
}

/// Coverage of one rule set by the cases that ran against it.
#[derive(Debug, Clone)]
pub struct RuleSetCoverage {
    /// The rule set's label: its shipped name or path.
    pub label: String,
    /// How many cases ran against it.
    pub cases: usize,
    /// Per rule, in program order.
    pub rules: Vec<RuleCoverage>,
}

/// Coverage of one rule by the cases of its rule set.
#[derive(Debug, Clone)]
pub struct RuleCoverage {
    /// The rule's name.
    pub name: String,
    /// How many cases fired it.
    pub cases_fired: usize,
    /// Its conditions that could stop it (see [`Program::could_decide`]) but never did in any case where it
    /// did not fire: 1-based index and text.
    pub never_decided: Vec<(usize, String)>,
}

impl RuleSetCoverage {
    /// Share of rules fired by at least one case, in percent.
    pub fn percent(&self) -> f64 {
        if self.rules.is_empty() {
            return 100.0;
        }
        let fired = self.rules.iter().filter(|r| r.cases_fired > 0).count();
        100.0 * fired as f64 / self.rules.len() as f64
    }
}

/// Coverage per rule set (grouped by the label of the rules the files ran against).
pub fn coverage(report: &Report) -> Vec<RuleSetCoverage> {
    let mut labels: Vec<&str> = report.programs.iter().map(|(l, _)| l.as_str()).collect();
    labels.dedup();
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for label in labels {
        if seen.contains(&label) {
            continue;
        }
        seen.push(label);
        let Some(prog) = report.programs.iter().find(|(l, _)| l == label).map(|(_, p)| p.clone()) else {
            continue;
        };
        let outcomes: Vec<&Outcome> = report
            .outcomes
            .iter()
            .filter(|o| report.programs[o.file].0 == label)
            .collect();
        let rules = prog
            .rules()
            .into_iter()
            .enumerate()
            .map(|(ri, r)| RuleCoverage {
                name: r.name.to_string(),
                cases_fired: outcomes.iter().filter(|o| o.fired.get(ri) == Some(&true)).count(),
                never_decided: prog
                    .condition_texts(ri)
                    .into_iter()
                    .enumerate()
                    .zip(prog.could_decide(ri))
                    .filter(|((ci, _), could)| *could && !outcomes.iter().any(|o| o.decided.contains(&(ri, *ci))))
                    .map(|(c, _)| c)
                    .map(|(ci, c)| {
                        let text = c.split_whitespace().collect::<Vec<_>>().join(" ");
                        (ci + 1, text)
                    })
                    .collect(),
            })
            .collect();
        out.push(RuleSetCoverage {
            label: label.to_string(),
            cases: outcomes.len(),
            rules,
        });
    }
    out
}

/// Rewrites a case file so that its failing cases expect what they now answer, keeping every
/// other line and comment; writes their golden files. A case's `expect` is edited in place: the
/// lines no longer concluded are removed and the new ones added, of the relations it already
/// names (every relation when it is `exact`), so a focused case stays focused and the lines left
/// alone keep their quoting. `absent` and `why_not` are the author's assertions, not answers: they
/// are left as written. Returns the indexes (in `file.cases`) of the cases rewritten.
pub fn update(file: &CaseFile, outcomes: &[&Outcome]) -> Result<Vec<usize>, CaseError> {
    let Some(dir) = &file.dir else {
        return Err(CaseError::Io {
            path: file.path.clone(),
            why: "a shipped suite is embedded in the binary: copy it to a file to update it".into(),
        });
    };
    let mut doc: toml_edit::DocumentMut = file.text.parse().map_err(|e: toml_edit::TomlError| {
        let (line, col) = line_col(&file.text, e.span().map_or(0, |s| s.start));
        CaseError::Malformed {
            file: file.path.clone(),
            line,
            col,
            message: e.message().to_string(),
        }
    })?;
    let mut changed = Vec::new();
    for o in outcomes.iter().filter(|o| !o.passed()) {
        let Some(case) = file.cases.get(o.case) else {
            continue;
        };
        let Some(table) = doc
            .get_mut("case")
            .and_then(|c| c.as_array_of_tables_mut())
            .and_then(|a| a.get_mut(case.table))
        else {
            continue;
        };
        let table: &mut dyn toml_edit::TableLike = match case.row {
            None => table,
            Some(r) => match table
                .get_mut("rows")
                .and_then(|v| v.as_array_mut())
                .and_then(|a| a.get_mut(r))
                .and_then(|v| v.as_inline_table_mut())
            {
                Some(row) => row,
                None => continue,
            },
        };
        let (mut touched, mut inserted) = (false, false);
        for f in &o.failures {
            match f {
                Failure::Conclusions { .. } | Failure::Error { .. } => {
                    touched = true;
                    match &o.error {
                        Some(e) => {
                            table.remove("expect");
                            table.remove("exact");
                            table.insert("error", toml_edit::value(e.as_str()));
                            inserted = true;
                        }
                        None if case.error.is_some() => {
                            table.remove("error");
                            table.insert("expect", toml_edit::value(expect_array(&o.got)));
                            inserted = true;
                        }
                        None => match table.get_mut("expect").and_then(|v| v.as_array_mut()) {
                            Some(a) => edit_array(a, &o.got, case.exact),
                            None => {
                                let want = refocused(&case.expect, &o.got, case.exact);
                                table.insert("expect", toml_edit::value(expect_array(&want)));
                                inserted = true;
                            }
                        },
                    }
                }
                Failure::Golden { file: name, got, .. } => {
                    touched = true;
                    write_golden(dir, name, case.explanation_path.as_deref(), got)?;
                }
                // What must not be concluded, and what a rule's why-not should mention, are the
                // author's assertions, not answers.
                Failure::Absent { .. } | Failure::WhyNot { .. } => {}
            }
        }
        // A key added to a row (an inline table) is spaced like the others.
        if inserted && case.row.is_some() {
            table.fmt();
        }
        if touched {
            changed.push(o.case);
        }
    }
    if !changed.is_empty() {
        let path = PathBuf::from(&file.path);
        std::fs::write(&path, doc.to_string()).map_err(|e| io(&path, e))?;
    }
    Ok(changed)
}

/// What a case's `expect` becomes: its lines still concluded, in their order, and the conclusions
/// it lacks of the relations it names (of every relation when `exact`), each after the last line
/// of its relation.
fn refocused(expect: &[String], got: &[String], exact: bool) -> Vec<String> {
    let focus: Vec<&str> = expect.iter().map(|e| relation_of(e)).collect();
    let mut out: Vec<String> = expect.iter().filter(|e| got.contains(e)).cloned().collect();
    for g in got {
        if out.contains(g) || (!exact && !focus.contains(&relation_of(g))) {
            continue;
        }
        let at = out
            .iter()
            .rposition(|e| relation_of(e) == relation_of(g))
            .map_or(out.len(), |i| i + 1);
        out.insert(at, g.clone());
    }
    out
}

/// Edits the array of strings `a` (a case's `expect`) to what [`refocused`] makes of it, changing
/// only the lines that changed: a line whose relation now concludes another value is replaced in
/// place (its comment and position kept), lines no longer concluded are removed, and new ones are
/// added after the last line of their relation, laid out like their neighbour. Lines left alone
/// keep their text and quoting, and comments stay at the end of the line they were on.
fn edit_array(a: &mut toml_edit::Array, got: &[String], exact: bool) {
    // In an item's prefix, what comes before its last line break ends the line above.
    fn split(prefix: &str) -> (&str, &str) {
        match prefix.rfind('\n') {
            Some(at) => prefix.split_at(at),
            None => ("", prefix),
        }
    }
    let prefix_of = |v: &toml_edit::Value| v.decor().prefix().and_then(|p| p.as_str()).unwrap_or("").to_string();
    let text_of = |a: &toml_edit::Array, i: usize| a.get(i).and_then(|v| v.as_str()).map(str::to_string);
    let expect: Vec<String> = (0..a.len()).filter_map(|i| text_of(a, i)).collect();
    let mut new: Vec<&String> = refocused(&expect, got, exact)
        .iter()
        .filter(|w| !expect.contains(w))
        .filter_map(|w| got.iter().find(|g| *g == w))
        .collect();
    // Replaced in place, removed, in that order.
    let mut i = 0;
    while i < a.len() {
        let Some(old) = text_of(a, i).filter(|t| !got.contains(t)) else {
            i += 1;
            continue;
        };
        if let Some(k) = new.iter().position(|n| relation_of(n) == relation_of(&old)) {
            let line = new.remove(k);
            if let Some(item) = a.get_mut(i) {
                let decor = item.decor().clone();
                *item = toml_edit::Value::from(line.as_str());
                *item.decor_mut() = decor;
            }
            i += 1;
            continue;
        }
        let gone = a.get(i).map(prefix_of).unwrap_or_default();
        a.remove(i);
        let (head, _) = split(&gone);
        match a.get_mut(i) {
            // The first item's layout (a line break after `[`) passes to the one taking its place.
            Some(next) if i == 0 && !gone.contains('\n') => next.decor_mut().set_prefix(gone.clone()),
            Some(next) if i == 0 => {
                let p = format!("{head}{}", split(&prefix_of(next)).1);
                next.decor_mut().set_prefix(p);
            }
            Some(next) => {
                let p = format!("{head}{}", prefix_of(next));
                next.decor_mut().set_prefix(p);
            }
            None => {
                let trailing = format!("{head}{}", a.trailing().as_str().unwrap_or(""));
                a.set_trailing(trailing);
            }
        }
    }
    for line in new {
        let k = (0..a.len())
            .rev()
            .find(|&j| text_of(a, j).is_some_and(|t| relation_of(&t) == relation_of(line)))
            .map_or(a.len(), |j| j + 1);
        let neighbour = a.get(k).or_else(|| a.get(k.max(1) - 1)).map(prefix_of);
        let mut v = toml_edit::Value::from(line.as_str());
        match neighbour.as_deref().map(split) {
            // One item per line: the new one on a line of its own, at the same indentation; a
            // comment ending the line above stays there.
            Some((_, tail)) if tail.starts_with('\n') => {
                let tail = tail.to_string();
                if let Some(at) = a.get_mut(k) {
                    let old = prefix_of(at);
                    let head = split(&old).0.to_string();
                    at.decor_mut().set_prefix(tail.clone());
                    v.decor_mut().set_prefix(format!("{head}{tail}"));
                } else {
                    v.decor_mut().set_prefix(tail);
                }
            }
            _ => {
                v.decor_mut().set_prefix(if k == 0 { "" } else { " " });
                if let Some(at) = a.get_mut(k) {
                    at.decor_mut().set_prefix(" ");
                }
            }
        }
        a.insert_formatted(k, v);
    }
}

/// Writes a golden file where its case's path resolved (inside the case file's tree), only into a
/// folder that exists and never over anything but a regular file. Errors name the path as written,
/// and where it leads when that differs.
fn write_golden(dir: &Path, written: &str, target: Option<&Path>, text: &str) -> Result<(), CaseError> {
    let as_written = dir.join(written);
    let named = |target: &Path| match as_written == target {
        true => as_written.display().to_string(),
        false => format!("{} (→ {})", as_written.display(), target.display()),
    };
    let Some(target) = target else {
        return Err(io(&as_written, "not resolved inside the case file's folder tree"));
    };
    let fail = |why: &str| CaseError::Io {
        path: named(target),
        why: why.to_string(),
    };
    if !target.parent().is_some_and(Path::is_dir) {
        return Err(fail("its folder does not exist (an update creates no folder)"));
    }
    // A link is followed only to a regular file: the path resolved when the case file was read.
    match std::fs::symlink_metadata(target) {
        Ok(m) if !m.is_file() => return Err(fail("not a regular file")),
        _ => {}
    }
    std::fs::write(target, text).map_err(|e| fail(&e.to_string()))
}

/// Conclusions as a TOML array, one per line when there are several.
fn expect_array(lines: &[String]) -> toml_edit::Array {
    let mut a: toml_edit::Array = lines.iter().map(String::as_str).collect();
    if lines.len() > 1 {
        for v in a.iter_mut() {
            v.decor_mut().set_prefix("\n    ");
        }
        a.set_trailing("\n");
        a.set_trailing_comma(true);
    }
    a
}

/// One query's answer, for comparing two rule sets on the same position.
#[derive(Debug, Clone, Default)]
pub struct Answer {
    /// Conclusion lines as `ask` prints them, or the error as the single line `error: …`.
    pub lines: Vec<String>,
    /// How many times each rule fired, by name.
    pub fired: Vec<(String, u64)>,
}

/// Runs one position (inputs and parameter overrides as text) against a program.
pub fn answer(program: &Arc<Program>, inputs: &[(String, String)], params: &[(String, String)]) -> Answer {
    let query = Query {
        inputs: inputs.to_vec(),
        params: params.to_vec(),
        options: RunOptions::default(),
    };
    let (s, ran) = crate::query::ask(program, &query);
    let ran = ran.map(|_| ()).map_err(|e| e.to_string());
    let lines = match ran {
        Ok(()) => s
            .conclusions()
            .iter()
            .map(|c| Explainer::new(&s).fact_line(c.fact))
            .collect(),
        Err(e) => vec![format!("error: {e}")],
    };
    let fired = program
        .rule_names()
        .enumerate()
        .map(|(i, r)| (r.to_string(), s.fired_count(i)))
        .collect();
    Answer { lines, fired }
}

/// A position as inputs and parameters.
pub type Position = (Vec<(String, String)>, Vec<(String, String)>);

/// A JSON line in the `batch` input format: inputs, and parameter overrides under `params`.
pub fn position_of_json(line: &str) -> Result<Position, String> {
    let v: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let map = v.as_object().ok_or("expected a JSON object of inputs")?;
    let text = |v: &serde_json::Value| match v {
        serde_json::Value::String(t) => t.clone(),
        serde_json::Value::Array(items) => items
            .iter()
            .map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_string))
            .collect::<Vec<_>>()
            .join(" "),
        other => other.to_string(),
    };
    let (mut inputs, mut params) = (Vec::new(), Vec::new());
    for (k, v) in map {
        if k == "params" {
            let ps = v.as_object().ok_or("`params` must be an object")?;
            params.extend(ps.iter().map(|(pk, pv)| (pk.clone(), text(pv))));
        } else {
            inputs.push((k.clone(), text(v)));
        }
    }
    Ok((inputs, params))
}

/// The shipped rule sets with a random position generator for `diff`: each game's rule sets.
pub fn generated_games() -> Vec<&'static str> {
    crate::games::ALL
        .iter()
        .filter(|g| g.random_inputs.is_some())
        .flat_map(|g| g.rule_files.iter().map(|(f, _)| f.trim_end_matches(".rules")))
        .collect()
}

/// Seeded random positions for a shipped rule set (see [`generated_games`]); `None` for another.
/// Every position is a valid input of the rule set (and of the game's others with the same
/// inputs), so that a changed answer is the edit's doing.
pub fn random_positions(rule_set: &str, seed: u64, n: usize) -> Option<Vec<Position>> {
    use rand::SeedableRng;
    let file = format!("{rule_set}.rules");
    let game = crate::games::ALL
        .iter()
        .find(|g| g.rule_files.iter().any(|(f, _)| *f == file))?;
    let generate = game.random_inputs?;
    let mut rng = crate::games::positions::Rng::seed_from_u64(seed);
    Some((0..n).map(|_| (generate(&mut rng, rule_set), Vec::new())).collect())
}
