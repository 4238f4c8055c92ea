//! The library's own references to its entry points (the ICD dispatch table, the addresses
//! `clGetExtensionFunctionAddress` hands out) must stay its own: an ICD loader exports the
//! same names, and without -Bsymbolic-functions the dynamic linker would bind the table to the
//! loader's functions, which call back through the table for ever.
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-Bsymbolic-functions");
}
