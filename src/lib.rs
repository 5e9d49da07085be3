//! The `kibitzer` command over the facade crate `kibitzer`: argument parsing and printing, and the
//! commands that drive the games' benchmarks (`bench`) and arenas (`play`). The binary (`main.rs`)
//! is one call into [`run`].

#![deny(unsafe_op_in_unsafe_fn)]

mod cli;

/// Runs the command line this process was started with and gives its exit code.
pub fn run() -> i32 {
    cli::main()
}
