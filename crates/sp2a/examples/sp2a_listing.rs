//! Prints the generated opcode table and bus map for `docs/sp2a.md`
//! (`cargo run -p weft-sp2a --example sp2a_listing`).

fn main() {
    println!("{}", weft_sp2a::isa::opcode_listing());
    println!("{}", weft_sp2a::bus::bus_listing());
}
