//! The `kibitzer` command: all the work is in `kibitzer::cli`.

fn main() {
    std::process::exit(kibitzer::cli::main());
}
