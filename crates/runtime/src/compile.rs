//! Kernels built at run time: sources or source text compiled by `weft cc` with its flags,
//! through the compile cache (`weft_cc::cache`), for hosts that build kernels as they run
//! (the Python package's `source=`). Without a cache directory (no `$HOME`), a plain build.

use crate::{Result, RuntimeError};
use std::path::Path;

fn load(e: weft_cc::CcError) -> RuntimeError {
    RuntimeError::Load(e.to_string())
}

/// Build `sources` with `weft cc` flags (`-O3`, `-DN=4`, `-Idir`, `--reconv converge`, …):
/// the ELF's bytes, and whether the compile cache served them.
pub fn compile(sources: &[&Path], flags: &[&str]) -> Result<(Vec<u8>, bool)> {
    let dir = tempfile::Builder::new()
        .prefix("weft-runtime-")
        .tempdir()
        .map_err(|e| RuntimeError::Load(format!("temporary directory: {e}")))?;
    let mut o = weft_cc::Options {
        inputs: sources.iter().map(|p| p.to_path_buf()).collect(),
        output: dir.path().join("kernels.elf"),
        ..weft_cc::Options::default()
    };
    o.apply_flags(flags).map_err(load)?;
    match weft_cc::cache::default_dir() {
        Some(cache) => weft_cc::cache::build_cached(&o, &cache)
            .map(|(elf, how)| (elf, how == weft_cc::cache::Source::Hit))
            .map_err(load),
        None => {
            weft_cc::build(&o).map_err(load)?;
            let elf = std::fs::read(&o.output).map_err(|e| RuntimeError::Load(e.to_string()))?;
            Ok((elf, false))
        }
    }
}

/// Build a kernel given as text in the language of file extension `ext` (`c`, `cc`, `cpp`,
/// `s`, `S`), as [`compile`] does.
pub fn compile_source(text: &str, ext: &str, flags: &[&str]) -> Result<(Vec<u8>, bool)> {
    if !["c", "cc", "cpp", "s", "S"].contains(&ext) {
        return Err(RuntimeError::Load(format!(
            "unknown kernel language '{ext}' (expected c, cc, cpp, s or S)"
        )));
    }
    let tmp;
    let dir = match weft_cc::cache::default_dir() {
        Some(d) => d,
        None => {
            tmp = tempfile::tempdir()
                .map_err(|e| RuntimeError::Load(format!("temporary directory: {e}")))?;
            tmp.path().to_path_buf()
        }
    };
    let src = weft_cc::cache::source_file(&dir, text, ext).map_err(load)?;
    compile(&[&src], flags)
}
