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

/// Former names of shipped rule sets, still read so old command lines keep working, and listed
/// nowhere: (former name, name).
const FORMER_NAMES: &[(&str, &str)] = &[("mahjong_seed", "mahjong_reference")];

/// The shipped name a user means: `mahjong-reference` is the file `mahjong_reference.rules` (rule-set names
/// are identifiers, so the file uses `_`; people write it with `-`, and both work); a former name
/// is read as the name it became.
pub(crate) fn canonical_name(name: &str) -> String {
    let mut underscored = name.replace('-', "_");
    if let Some((_, now)) = FORMER_NAMES.iter().find(|(old, _)| *old == underscored) {
        underscored = (*now).to_string();
    }
    if shipped_text(&format!("{underscored}.rules")).is_some() {
        underscored
    } else {
        name.to_string()
    }
}

/// Rule files larger than this are refused before parsing (`include "/dev/zero"` must not hang).
pub const MAX_RULE_FILE_BYTES: u64 = 8 << 20;

/// The one loader of rule sets, with its options: which built-ins the rules may call and where a
/// rule file's includes may come from; then a rule set by shipped name, path or text.
/// [`load_shipped`], [`load_file`], [`load_text`] and [`load_any`] are a default loader's.
///
/// ```
/// use kibitzer::library::Loader;
///
/// let mut registry = kibitzer::library::standard_registry();
/// registry.func("twice", &[("n", kibitzer::value::ValueType::Int)], kibitzer::value::ValueType::Int,
///     "n doubled", |a| Ok(kibitzer::Value::Int(a[0].as_int().unwrap_or(0) * 2)));
/// let rules = "ruleset t\ninput n: int\noutput doubled\nrule R when n(?n) then assert doubled(twice(?n)) end\n";
/// let program = Loader::new().registry(&registry).text("t.rules", rules).unwrap();
/// assert_eq!(program.name(), "t");
/// ```
#[derive(Clone, Default)]
pub struct Loader<'r> {
    registry: Option<&'r Registry>,
    include_root: Option<PathBuf>,
}

impl<'r> Loader<'r> {
    /// A loader with the standard registry whose includes stay in the loaded file's folder tree.
    pub fn new() -> Loader<'r> {
        Loader::default()
    }

    /// Rules checked against `registry` instead of the standard one: rules that call an
    /// embedder's own built-ins (start from [`standard_registry`] to keep every game's).
    pub fn registry(mut self, registry: &'r Registry) -> Loader<'r> {
        self.registry = Some(registry);
        self
    }

    /// Includes confined to the folder tree of `root` instead of the loaded file's folder.
    pub fn include_root(mut self, root: impl Into<PathBuf>) -> Loader<'r> {
        self.include_root = Some(root.into());
        self
    }

    fn registry_or_standard(&self) -> &Registry {
        self.registry.unwrap_or_else(|| registry())
    }

    /// A shipped rule set by name (`stud`, `mahjong-reference`). With the standard registry it is
    /// compiled once per process and shared.
    pub fn shipped(&self, name: &str) -> Result<Arc<Program>, LoadError> {
        match self.registry {
            None => load_shipped(name),
            Some(r) => shipped_in(r, name),
        }
    }

    /// A rule file from disk (`.rules` files only), its includes read from its folder tree or
    /// the include root.
    pub fn file(&self, path: &Path) -> Result<Arc<Program>, LoadError> {
        file_in(self.registry_or_standard(), path, self.include_root.as_deref())
    }

    /// Rule text as if it were the file `name`: includes relative to `name`'s folder and confined
    /// to it (the current folder when `name` has none on disk), or to the include root.
    pub fn text(&self, name: &str, text: &str) -> Result<Arc<Program>, LoadError> {
        text_in(self.registry_or_standard(), name, text, self.include_root.as_deref())
    }

    /// Rule text whose includes are read by `read_include` (given the including file's name and
    /// the path written, it returns the included file's name and text): rule files kept anywhere
    /// but on disk, such as in an editor's buffers or a database.
    pub fn text_with_includes(
        &self,
        name: &str,
        text: &str,
        read_include: &IncludeReader<'_>,
    ) -> Result<Arc<Program>, LoadError> {
        build(self.registry_or_standard(), name, text, read_include)
            .map(Arc::new)
            .map_err(LoadError::Rules)
    }

    /// A shipped name, or else a path to a `.rules` file.
    pub fn any(&self, name_or_path: &str) -> Result<Arc<Program>, LoadError> {
        if shipped_text(&format!("{}.rules", canonical_name(name_or_path))).is_some() {
            return self.shipped(name_or_path);
        }
        let p = Path::new(name_or_path);
        if p.exists() {
            return self.file(p);
        }
        Err(LoadError::Unknown(name_or_path.to_string(), shipped_names().join(", ")))
    }

    /// The rule set `name` (a shipped name or a path), or, with `rules`, that file in its place:
    /// the file must then declare the rule set `name` names, so an edited copy never runs as
    /// another game.
    pub fn ruleset(&self, name: &str, rules: Option<&Path>) -> Result<Arc<Program>, LoadError> {
        let Some(path) = rules else {
            return self.any(name);
        };
        let program = self.file(path)?;
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
    let program = shipped_in(registry(), name)?;
    if let Ok(mut c) = cache.lock() {
        c.push((name.to_string(), program.clone()));
    }
    Ok(program)
}

/// A shipped rule set compiled against `registry`, whatever the run's deadline.
fn shipped_in(registry: &Registry, name: &str) -> Result<Arc<Program>, LoadError> {
    let name = canonical_name(name);
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
    let built = build(registry, &format!("<shipped>/{file}"), text, &reader);
    drop(lifted);
    Ok(Arc::new(built.map_err(LoadError::Rules)?))
}

/// Loads a rule file from disk; its includes are read relative to it, from its folder tree.
pub fn load_file(path: &Path) -> Result<Arc<Program>, LoadError> {
    Loader::new().file(path)
}

/// Loads a rule file from disk against `registry`, its includes confined to `include_root`
/// (default: the file's folder). Only `.rules` files are read, so no message can quote another
/// file's line.
fn file_in(registry: &Registry, path: &Path, include_root: Option<&Path>) -> Result<Arc<Program>, LoadError> {
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
    let tree = match include_root {
        Some(root) => {
            let canonical_root = std::fs::canonicalize(root).map_err(|e| LoadError::Io {
                path: root.display().to_string(),
                why: e.to_string(),
            })?;
            IncludeTree::new(canonical_root, root.to_path_buf())
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
    load_in_tree(registry, &shown, &text, &tree)
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
    Loader::new().text(name, text)
}

/// Rule text as the file `name` against `registry`; includes from `include_root`'s folder tree,
/// or else from `name`'s folder (the current folder when `name` has none).
fn text_in(
    registry: &Registry,
    name: &str,
    text: &str,
    include_root: Option<&Path>,
) -> Result<Arc<Program>, LoadError> {
    let shown_root = match include_root {
        Some(root) => root.to_path_buf(),
        None => Path::new(name).parent().map(Path::to_path_buf).unwrap_or_default(),
    };
    let dir = if shown_root.as_os_str().is_empty() {
        Path::new(".")
    } else {
        shown_root.as_path()
    };
    let root = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let tree = IncludeTree::new(root.clone(), shown_root.clone());
    if let Some(file) = Path::new(name).file_name() {
        let folder = std::fs::canonicalize(
            Path::new(name)
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new(".")),
        )
        .unwrap_or_else(|_| root.clone());
        tree.files.borrow_mut().push((name.to_string(), folder.join(file)));
    }
    load_in_tree(registry, name, text, &tree)
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
    Loader::new().any(name_or_path)
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
