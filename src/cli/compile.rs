//! `kibitzer compile`: a rule set's joins as Rust source (`engine::codegen`), for building into
//! the binary as a game's generated module.

use super::fail;
use crate::library::load_any;

#[derive(clap::Args, Debug)]
pub struct CompileArgs {
    /// The rule set: a shipped name or a path to a rule file.
    ruleset: String,
    /// Print only how many joins were written out and the digest, not the source.
    #[arg(long)]
    summary: bool,
}

pub fn run(a: CompileArgs) -> i32 {
    let program = match load_any(&a.ruleset) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let generated = crate::engine::codegen::generate(&program);
    match a.summary {
        true => println!(
            "{}: {} joins written out, digest {:#018x}, {} (generated code {})",
            program.name,
            generated.joins,
            generated.digest,
            format_args!("{} lines", generated.text.lines().count()),
            match program.compiled {
                Some(_) => "built in and in use",
                None => "not in this binary",
            }
        ),
        false => print!("{}", generated.text),
    }
    0
}
