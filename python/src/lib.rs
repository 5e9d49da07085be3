//! kibitzer for Python: the rule engine (`ask`, `Session`, `batch`, `check_file`), the games'
//! native searches, and durak and two-player mahjong stepped one decision at a time for
//! self-play. The Python package `kibitzer` (in `python/kibitzer/`) wraps this module,
//! `kibitzer._native`.

use pyo3::prelude::*;

// The allocator the `kibitzer` binary uses: answers and explanations allocate a great deal from
// several threads at once (`batch`), and the system allocator is markedly slower at that. Only
// Rust's own allocations go through it; Python's objects keep Python's allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod convert;
mod durak_env;
mod engine;
mod errors;
mod guard;
mod interrupt;
mod mahjong_env;
mod native;

#[pymodule]
#[pyo3(name = "_native")]
fn native_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    engine::register(m)?;
    native::register(m)?;
    durak_env::register(m)?;
    mahjong_env::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
