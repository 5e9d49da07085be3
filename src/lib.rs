//! The `kibitzer` command over the facade crate `kibitzer`: argument parsing and printing (`cli`),
//! and the benchmarks of `kibitzer bench` and the arenas of `kibitzer play` (`harness`), which drive
//! the games' native API and their rule sets. The binary (`main.rs`) is one call into [`run`].

pub mod harness;

mod cli;

/// Runs the command line this process was started with and gives its exit code.
pub fn run() -> i32 {
    cli::main()
}
