//! The shipped rule sets, embedded in the binary so `kibitzer ask stud ...` works from any folder,
//! and the loader that turns a name or a path into a compiled [`Program`].

use crate::builtins::Registry;
use crate::engine::program::Program;
use crate::engine::whatif::Library;
use crate::lang::diagnostics::Diagnostics;
pub use crate::lang::IncludeReader;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex, OnceLock};

/// Every shipped rule file: (file name, text), each game's in the order of [`crate::games::ALL`].
pub static SHIPPED: LazyLock<Vec<(&str, &str)>> = LazyLock::new(|| {
    crate::games::ALL
        .iter()
        .flat_map(|g| g.rule_files.iter().copied())
        .collect()
});

/// The shipped rule-set names (file names without `.rules`).
pub fn shipped_names() -> Vec<String> {
    SHIPPED
        .iter()
        .map(|(f, _)| f.trim_end_matches(".rules").to_string())
        .collect()
}

/// The text of a shipped rule file.
pub fn shipped_text(file: &str) -> Option<&'static str> {
    SHIPPED.iter().find(|(f, _)| *f == file).map(|(_, t)| *t)
}

/// A registry with every built-in kibitzer ships: the general ones and each game's.
pub fn standard_registry() -> Registry {
    let mut r = Registry::general();
    crate::games::register_all(&mut r);
    r
}

/// A shipped name or a path, its error as one line: the loader benchmarks and arenas are given.
pub fn load_named(name_or_path: &str) -> Result<Arc<Program>, String> {
    load_any(name_or_path).map_err(|e| e.to_string())
}

/// The process-wide standard registry.
pub fn registry() -> &'static Registry {
    static REG: OnceLock<Registry> = OnceLock::new();
    REG.get_or_init(standard_registry)
}

/// Why a rule set could not be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// Problems in the rule files (rendered with positions).
    #[error("{0}")]
    Rules(Diagnostics),
    /// A file that could not be read.
    #[error("cannot read {path}: {why}")]
    Io {
        /// The file as it was named.
        path: String,
        /// The system's reason.
        why: String,
    },
    /// A file given as a rule file whose name (or whose link's target) does not end in `.rules`.
    #[error("`{0}` is not a rule file (rule files end in .rules)")]
    NotRules(String),
    /// `--rules PATH` declares another rule set than the one asked for.
    #[error("`{path}` declares rule set `{declared}`, not `{asked}`")]
    WrongRuleset {
        /// The file given.
        path: String,
        /// The rule set it declares.
        declared: String,
        /// The rule set asked for.
        asked: String,
    },
    /// Neither a shipped rule set nor a file: the name asked for, and the shipped names.
    #[error("unknown rule set `{0}` (shipped: {1}; or give a path to a .rules file)")]
    Unknown(String, String),
}

/// The shipped name a user means: `mahjong-seed` is the file `mahjong_seed.rules` (rule-set names
/// are identifiers, so the file uses `_`; people write it with `-`, and both work).
fn canonical_name(name: &str) -> String {
    let underscored = name.replace('-', "_");
    if shipped_text(&format!("{underscored}.rules")).is_some() {
        underscored
    } else {
        name.to_string()
    }
}

/// Rule files larger than this are refused before parsing (`include "/dev/zero"` must not hang).
pub const MAX_RULE_FILE_BYTES: u64 = 8 << 20;

/// Where a rule file's includes may come from.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// The folder tree includes must stay in; `None`: the folder of the file given to load.
    pub include_root: Option<PathBuf>,
}

/// Reads a rule file, refusing anything but a regular file, one larger than
/// [`MAX_RULE_FILE_BYTES`] or not UTF-8. A leading byte-order mark is dropped.
fn read_rule_file(path: &Path) -> Result<String, String> {
    use std::io::Read;
    // Checked before opening: opening a FIFO for reading blocks until a writer comes.
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".to_string());
    }
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut text = String::new();
    file.take(MAX_RULE_FILE_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| e.to_string())?;
    if text.len() as u64 > MAX_RULE_FILE_BYTES {
        return Err(format!(
            "larger than {} MiB; not a rule file",
            MAX_RULE_FILE_BYTES >> 20
        ));
    }
    match text.strip_prefix('\u{feff}') {
        Some(rest) => Ok(rest.to_string()),
        None => Ok(text),
    }
}

/// True when the path's file name ends in `.rules`.
fn is_rules_name(path: &Path) -> bool {
    path.extension().is_some_and(|x| x == "rules")
}

/// Resolves includes inside one folder tree. Files are named by their canonical path shown
/// under the root as the user wrote it, so one file always has one name (a cycle is visible as
/// a name seen twice) and messages keep the user's spelling of the folder.
struct IncludeTree {
    /// Canonical root: no include may resolve outside it.
    root: PathBuf,
    /// The root as the user wrote it, for messages.
    shown_root: PathBuf,
    /// Display name → canonical path of every file read so far.
    files: RefCell<Vec<(String, PathBuf)>>,
}

impl IncludeTree {
    fn new(root: PathBuf, shown_root: PathBuf) -> IncludeTree {
        IncludeTree {
            root,
            shown_root,
            files: RefCell::new(Vec::new()),
        }
    }

    /// The display name of a canonical path (recorded for later includes from it); a file read
    /// before keeps the name it was first given.
    fn name(&self, canonical: &Path) -> String {
        if let Some((n, _)) = self.files.borrow().iter().find(|(_, p)| p == canonical) {
            return n.clone();
        }
        let shown = match canonical.strip_prefix(&self.root) {
            Ok(rel) => self.shown_root.join(rel),
            Err(_) => canonical.to_path_buf(),
        };
        let shown = shown.display().to_string();
        self.files.borrow_mut().push((shown.clone(), canonical.to_path_buf()));
        shown
    }

    /// Reads `written` as included from the file shown as `from`.
    fn read(&self, from: &str, written: &str) -> Result<(String, String), String> {
        let w = Path::new(written);
        if w.is_absolute() || w.has_root() {
            return Err("an include must be a path relative to the including file, not an absolute path".into());
        }
        if !is_rules_name(w) {
            return Err("only .rules files may be included".into());
        }
        let base = self
            .files
            .borrow()
            .iter()
            .find(|(n, _)| n == from)
            .and_then(|(_, p)| p.parent().map(Path::to_path_buf))
            .unwrap_or_else(|| self.root.clone());
        let canonical = std::fs::canonicalize(base.join(w)).map_err(|e| e.to_string())?;
        if !canonical.starts_with(&self.root) {
            return Err(format!(
                "it resolves outside `{}`, the folder includes may come from (`include_root` allows another)",
                match self.shown_root.as_os_str().is_empty() {
                    true => ".".to_string(),
                    false => self.shown_root.display().to_string(),
                }
            ));
        }
        if !is_rules_name(&canonical) {
            return Err("it resolves to a file that is not a .rules file".into());
        }
        let text = read_rule_file(&canonical)?;
        Ok((self.name(&canonical), text))
    }
}

/// Loads a shipped rule set by name (cached: each is compiled once per process).
pub fn load_shipped(name: &str) -> Result<Arc<Program>, LoadError> {
    let name = canonical_name(name);
    let name = name.as_str();
    type Compiled = Vec<(String, Arc<Program>)>;
    static CACHE: OnceLock<Mutex<Compiled>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
    if let Ok(c) = cache.lock() {
        if let Some((_, p)) = c.iter().find(|(n, _)| n == name) {
            return Ok(p.clone());
        }
    }
    let file = format!("{name}.rules");
    let Some(text) = shipped_text(&file) else {
        return Err(LoadError::Unknown(name.to_string(), shipped_names().join(", ")));
    };
    let reader = |_: &str, path: &str| -> Result<(String, String), String> {
        let base = Path::new(path).file_name().and_then(|f| f.to_str()).unwrap_or(path);
        shipped_text(base)
            .map(|t| (format!("<shipped>/{base}"), t.to_string()))
            .ok_or_else(|| "no such shipped file".to_string())
    };
    let lifted = crate::budget::lifted();
    let built = build(registry(), &format!("<shipped>/{file}"), text, &reader);
    drop(lifted);
    let program = Arc::new(built.map_err(LoadError::Rules)?);
    if let Ok(mut c) = cache.lock() {
        c.push((name.to_string(), program.clone()));
    }
    Ok(program)
}

/// Loads a rule file from disk; its includes are read relative to it, from its folder tree.
pub fn load_file(path: &Path) -> Result<Arc<Program>, LoadError> {
    load_file_with(path, &LoadOptions::default())
}

/// Loads a rule file from disk, its includes confined to `opts.include_root` (default: the
/// file's folder). Only `.rules` files are read, so no message can quote another file's line.
pub fn load_file_with(path: &Path, opts: &LoadOptions) -> Result<Arc<Program>, LoadError> {
    let shown = path.display().to_string();
    if !is_rules_name(path) {
        return Err(LoadError::NotRules(shown));
    }
    let canonical = std::fs::canonicalize(path).map_err(|e| LoadError::Io {
        // A dangling link: where it leads is what is missing.
        path: match std::fs::read_link(path) {
            Ok(target) => format!("{shown} (→ {})", target.display()),
            Err(_) => shown.clone(),
        },
        why: e.to_string(),
    })?;
    // A link is named as given, with where it leads, so that a message names a file that exists.
    let shown_both = as_given_and_target(path, &canonical);
    if !is_rules_name(&canonical) {
        return Err(LoadError::NotRules(shown_both));
    }
    let text = read_rule_file(&canonical).map_err(|why| LoadError::Io {
        path: shown_both.clone(),
        why,
    })?;
    let tree = match &opts.include_root {
        Some(root) => {
            let canonical_root = std::fs::canonicalize(root).map_err(|e| LoadError::Io {
                path: root.display().to_string(),
                why: e.to_string(),
            })?;
            IncludeTree::new(canonical_root, root.clone())
        }
        None => {
            let root = canonical.parent().map(Path::to_path_buf).unwrap_or_default();
            // Included files are named under the folder as the user wrote it, unless the file
            // given is a link into another folder: then under the folder they really are in.
            let given = path.parent().map(Path::to_path_buf).unwrap_or_default();
            let given_dir = if given.as_os_str().is_empty() {
                Path::new(".")
            } else {
                given.as_path()
            };
            let shown_root = match std::fs::canonicalize(given_dir) {
                Ok(d) if d == root => given,
                _ => root.clone(),
            };
            IncludeTree::new(root, shown_root)
        }
    };
    // The main file keeps the name it was given: that is the file the user knows.
    tree.files.borrow_mut().push((shown.clone(), canonical));
    load_in_tree(registry(), &shown, &text, &tree)
}

/// A path as given, followed by the file it resolves to when that is another file (a link).
fn as_given_and_target(path: &Path, canonical: &Path) -> String {
    let shown = path.display().to_string();
    let plain = std::fs::canonicalize(
        path.parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new(".")),
    )
    .ok()
    .zip(path.file_name())
    .map(|(dir, file)| dir.join(file));
    match plain.as_deref() == Some(canonical) {
        true => shown,
        false => format!("{shown} (→ {})", canonical.display()),
    }
}

/// Loads rule text as if it were the file `name`: includes relative to `name`'s folder and
/// confined to it (the current folder when `name` has none on disk).
pub fn load_text(name: &str, text: &str) -> Result<Arc<Program>, LoadError> {
    load_text_in(registry(), name, text)
}

/// Loads rule text as [`load_text`] does, checked against `registry` instead of the standard one:
/// rules that call an embedder's own built-ins (start from [`standard_registry`] to keep every
/// game's).
pub fn load_text_in(registry: &Registry, name: &str, text: &str) -> Result<Arc<Program>, LoadError> {
    let shown_root = Path::new(name).parent().map(Path::to_path_buf).unwrap_or_default();
    let dir = if shown_root.as_os_str().is_empty() {
        Path::new(".")
    } else {
        shown_root.as_path()
    };
    let root = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let tree = IncludeTree::new(root.clone(), shown_root);
    if let Some(file) = Path::new(name).file_name() {
        tree.files.borrow_mut().push((name.to_string(), root.join(file)));
    }
    load_in_tree(registry, name, text, &tree)
}

/// Loads rule text whose includes are read by `read_include` (given the including file's name and
/// the path written, it returns the included file's name and text): rule files kept anywhere but
/// on disk, such as in an editor's buffers or a database.
pub fn load_text_with_includes(
    name: &str,
    text: &str,
    read_include: &IncludeReader<'_>,
) -> Result<Arc<Program>, LoadError> {
    build(registry(), name, text, read_include)
        .map(Arc::new)
        .map_err(LoadError::Rules)
}

fn load_in_tree(registry: &Registry, name: &str, text: &str, tree: &IncludeTree) -> Result<Arc<Program>, LoadError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let reader = |from: &str, path: &str| tree.read(from, path);
    build(registry, name, text, &reader)
        .map(Arc::new)
        .map_err(LoadError::Rules)
}

/// The load pipeline: parse the file and its includes, check them against the registry, lower the
/// checked rule set into the program the engine runs.
fn build(
    registry: &Registry,
    name: &str,
    text: &str,
    read_include: &IncludeReader<'_>,
) -> Result<Program, Diagnostics> {
    kibitzer_core::build(registry, name, text, read_include, &shipped_names())
}

/// A shipped name, or else a path to a `.rules` file.
pub fn load_any(name_or_path: &str) -> Result<Arc<Program>, LoadError> {
    load_any_with(name_or_path, &LoadOptions::default())
}

/// A shipped name, or else a path to a `.rules` file loaded with `opts`.
pub fn load_any_with(name_or_path: &str, opts: &LoadOptions) -> Result<Arc<Program>, LoadError> {
    if shipped_text(&format!("{}.rules", canonical_name(name_or_path))).is_some() {
        return load_shipped(name_or_path);
    }
    let p = Path::new(name_or_path);
    if p.exists() {
        return load_file_with(p, opts);
    }
    Err(LoadError::Unknown(name_or_path.to_string(), shipped_names().join(", ")))
}

/// The rule set `name` (a shipped name or a path), or, with `rules`, that file in its place: the
/// file must then declare the rule set `name` names, so an edited copy never runs as another game.
pub fn load_ruleset(name: &str, rules: Option<&Path>, opts: &LoadOptions) -> Result<Arc<Program>, LoadError> {
    let Some(path) = rules else {
        return load_any_with(name, opts);
    };
    let program = load_file_with(path, opts)?;
    let wanted = canonical_name(name);
    if program.name() != wanted {
        return Err(LoadError::WrongRuleset {
            path: path.display().to_string(),
            declared: program.name().to_string(),
            asked: name.to_string(),
        });
    }
    Ok(program)
}

/// The library `whatif` uses: the shipped rule sets.
pub struct ShippedLibrary;

impl Library for ShippedLibrary {
    fn get(&self, name: &str) -> Option<Arc<Program>> {
        load_shipped(name).ok()
    }
}

/// A shared handle on the shipped library.
pub fn shipped_library() -> Arc<dyn Library> {
    Arc::new(ShippedLibrary)
}
