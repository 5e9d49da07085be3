//! Embedding the library: the README's "Embed" example, built by `cargo test` and checked to match
//! the README's block by `tests/docs.rs`. Run it with `cargo run --example embed`.

use kibitzer::{load_shipped, Session};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let stud = load_shipped("stud")?;
    let mut session = Session::new(stud);
    session.set_input_text("hand", "8S 10D 10S 8H 8C")?;
    session.set_input_text("opponent", "XX 3C 5D 4H 6H")?;
    session.set_param("bet_big_above", "0.8")?;
    let result = session.run()?;
    for conclusion in session.conclusions() {
        println!("{conclusion}"); // category(3, "full house"), odds(43, 0, 0, 1.0), …
    }
    println!("{} firings", result.stats.fired);
    Ok(())
}
