//! The shipped rule sets, embedded in the binary so `kibitzer ask stud ...` works from any folder,
//! and the loader that turns a name or a path into a compiled [`Program`].

use crate::builtins::Registry;
use crate::engine::program::Program;
use crate::engine::whatif::Library;
use crate::lang::diagnostics::Diagnostics;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// Every shipped rule file: (file name, text). The first of each rule set is its main file.
pub const SHIPPED: &[(&str, &str)] = &[
    ("stud.rules", include_str!("../rules/stud.rules")),
    ("durak.rules", include_str!("../rules/durak.rules")),
    ("mahjong.rules", include_str!("../rules/mahjong.rules")),
    ("mahjong_seed.rules", include_str!("../rules/mahjong_seed.rules")),
    ("rummy.rules", include_str!("../rules/rummy.rules")),
    ("doudizhu.rules", include_str!("../rules/doudizhu.rules")),
];

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

/// The process-wide standard registry.
pub fn registry() -> &'static Registry {
    static REG: OnceLock<Registry> = OnceLock::new();
    REG.get_or_init(Registry::standard)
}

/// Why a rule set could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Problems in the rule files (rendered with positions).
    #[error("{0}")]
    Rules(Diagnostics),
    /// A file that could not be read.
    #[error("cannot read {path}: {why}")]
    Io { path: String, why: String },
    /// Neither a shipped rule set nor a file.
    #[error("unknown rule set `{0}` (shipped: {1}; or give a path to a .rules file)")]
    Unknown(String, String),
}

/// The shipped name a user means: `mahjong-seed` is the file `mahjong_seed.rules` (rule-set names
/// are identifiers, so the file uses `_`; the issue and SPEC spell it with `-`, and both work).
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

/// Reads a rule file, refusing one larger than [`MAX_RULE_FILE_BYTES`] or not UTF-8.
fn read_rule_file(path: &Path) -> Result<String, String> {
    use std::io::Read;
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
    Ok(text)
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
    let program = crate::lang::load(
        &format!("<shipped>/{file}"),
        text,
        &reader,
        registry(),
        &shipped_names(),
    )
    .map_err(LoadError::Rules)?;
    let program = Arc::new(program);
    if let Ok(mut c) = cache.lock() {
        c.push((name.to_string(), program.clone()));
    }
    Ok(program)
}

/// Loads a rule file from disk; its includes are read relative to it.
pub fn load_file(path: &Path) -> Result<Arc<Program>, LoadError> {
    let text = read_rule_file(path).map_err(|why| LoadError::Io {
        path: path.display().to_string(),
        why,
    })?;
    load_text(&path.display().to_string(), &text)
}

/// Loads rule text as if it were the file `name` (includes relative to `name`).
pub fn load_text(name: &str, text: &str) -> Result<Arc<Program>, LoadError> {
    let reader = |from: &str, path: &str| -> Result<(String, String), String> {
        let base: PathBuf = Path::new(from)
            .parent()
            .map(|p| p.join(path))
            .unwrap_or_else(|| PathBuf::from(path));
        read_rule_file(&base).map(|t| (base.display().to_string(), t))
    };
    crate::lang::load(name, text, &reader, registry(), &shipped_names())
        .map(Arc::new)
        .map_err(LoadError::Rules)
}

/// A shipped name, or else a path to a `.rules` file.
pub fn load_any(name_or_path: &str) -> Result<Arc<Program>, LoadError> {
    if shipped_text(&format!("{}.rules", canonical_name(name_or_path))).is_some() {
        return load_shipped(name_or_path);
    }
    let p = Path::new(name_or_path);
    if p.exists() {
        return load_file(p);
    }
    Err(LoadError::Unknown(name_or_path.to_string(), shipped_names().join(", ")))
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
