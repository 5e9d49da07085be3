//! The `kibitzer` command: all the work is in `kibitzer::cli`.

/// mimalloc keeps freed pages for reuse: the solvers and the engine allocate and free
/// their tables and working memory on every query, and with the system allocator each
/// fresh query paid page faults for memory the previous one had just returned (measured:
/// 8% of a dou dizhu endgame solve).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(kibitzer::cli::main());
}
