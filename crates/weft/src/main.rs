//! The `weft` command-line tool: parses flags and calls the library crates.
fn main() {
    println!("weft");
}
