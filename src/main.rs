//! The `kibitzer` binary: the allocator, then the command line (`kibitzer_cli`).

/// mimalloc keeps freed pages for reuse: the solvers and the engine allocate and free
/// their tables and working memory on every query, and with the system allocator each
/// fresh query paid page faults for memory the previous one had just returned (measured:
/// 8% of a dou dizhu endgame solve). Version 2 of mimalloc (the crate's `v2` feature): Rust
/// asks for every allocation with its alignment, and mimalloc 3 answered even an 8-byte-aligned
/// request through its generic aligned path (~150 instructions for the `Arc` of each stud hand);
/// mimalloc 2 takes its small-object fast path (classification 7% faster).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(kibitzer_cli::run());
}
