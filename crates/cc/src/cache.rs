//! The compile cache: device builds kept on disk, so building the same sources with the same
//! flags and toolchain again costs a file read instead of clang (hosts that compile kernels
//! from strings at run time, such as the Python package, open the same source many times).
//!
//! An entry is keyed by the SHA-256 of everything a device build reads: weft cc's version and
//! embedded runtime sources, the toolchain (clang, ld.lld and the RISC-V gcc that provides
//! libgcc, each by resolved path, size and modification time — an upgrade is a new key),
//! every option but the output, and each input's absolute path and bytes. Headers the sources include are
//! found by the build itself (clang's dependency files) and stored in the entry with their
//! own hashes; an entry whose headers changed is a miss. Entries are written to a temporary
//! file and renamed into place, so concurrent builds never read half an entry.
//!
//! The directory is `$WEFT_CACHE_DIR`, else `$XDG_CACHE_HOME/weft/cc`, else
//! `$HOME/.cache/weft/cc`.

use crate::{find_toolchain, finish_device, io, link_device, CcError, Options, Target};
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The cache directory (see the module comment); None when no home is known.
pub fn default_dir() -> Option<PathBuf> {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    env("WEFT_CACHE_DIR")
        .or_else(|| env("XDG_CACHE_HOME").map(|d| d.join("weft").join("cc")))
        .or_else(|| env("HOME").map(|d| d.join(".cache").join("weft").join("cc")))
}

/// Whether [`build_cached`] served the ELF from the cache or built it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Read from a cache entry.
    Hit,
    /// Built (and stored).
    Built,
}

/// Build a device ELF as [`crate::build`] does, through the cache in `dir`: the ELF's bytes
/// (also written to `o.output`) and whether it came from the cache.
pub fn build_cached(o: &Options, dir: &Path) -> Result<(Vec<u8>, Source), CcError> {
    if o.target != Target::Device {
        return Err(CcError::Usage(
            "weft cc: the compile cache holds device builds only".into(),
        ));
    }
    crate::check_options(o)?;
    let key = key(o)?;
    let entry = dir.join(format!("{key}.elf"));
    let deps = dir.join(format!("{key}.deps"));
    if let (Ok(elf), Ok(list)) = (std::fs::read(&entry), std::fs::read_to_string(&deps)) {
        if deps_unchanged(&list) {
            std::fs::write(&o.output, &elf).map_err(io(&o.output))?;
            return Ok((elf, Source::Hit));
        }
    }
    let (elf, files) = link_device(o)?;
    finish_device(o, &elf)?;
    let elf = std::fs::read(&o.output).map_err(io(&o.output))?;
    let mut list = String::new();
    for f in &files {
        // A header that cannot be read now is not recorded; the entry then never hits.
        let Ok(bytes) = std::fs::read(f) else {
            return Ok((elf, Source::Built));
        };
        list += &format!("{} {}\n", hex(&Sha256::digest(&bytes)), f.display());
    }
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    store(dir, &deps, list.as_bytes())?;
    store(dir, &entry, &elf)?;
    Ok((elf, Source::Built))
}

/// A kernel given as text, as a file the cache can key: `dir/src/SHA256.EXT` (written once;
/// the same text is the same path, so its entry is found again). `ext` is the language's
/// file extension (`c`, `cc`, `S`, …).
pub fn source_file(dir: &Path, text: &str, ext: &str) -> Result<PathBuf, CcError> {
    let src = dir.join("src");
    let path = src.join(format!("{}.{ext}", hex(&Sha256::digest(text.as_bytes()))));
    if std::fs::read(&path).ok().as_deref() != Some(text.as_bytes()) {
        std::fs::create_dir_all(&src).map_err(io(&src))?;
        store(&src, &path, text.as_bytes())?;
    }
    Ok(path)
}

/// Write `bytes` to `path` by a rename from a temporary file in `dir`.
fn store(dir: &Path, path: &Path, bytes: &[u8]) -> Result<(), CcError> {
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io(dir))?;
    tmp.write_all(bytes).map_err(io(tmp.path()))?;
    tmp.persist(path).map_err(|e| CcError::Io {
        path: path.display().to_string(),
        source: e.error,
    })?;
    Ok(())
}

/// Every `HASH PATH` line of a dependency list still names a file with that content.
fn deps_unchanged(list: &str) -> bool {
    list.lines().all(|line| {
        let Some((hash, path)) = line.split_once(' ') else {
            return false;
        };
        std::fs::read(path).is_ok_and(|b| hex(&Sha256::digest(&b)) == hash)
    })
}

/// The entry key of a device build (see the module comment).
fn key(o: &Options) -> Result<String, CcError> {
    let mut h = Sha256::new();
    let mut field = |name: &str, bytes: &[u8]| {
        h.update(name.as_bytes());
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    field("weft-cc", env!("CARGO_PKG_VERSION").as_bytes());
    for (rel, text) in crate::RUNTIME_FILES {
        field(rel, text.as_bytes());
    }
    field("toolchain", toolchain()?.as_bytes());
    field("opt", o.opt.as_bytes());
    field("debug", &[o.debug as u8]);
    for i in &o.includes {
        let abs = std::path::absolute(i).map_err(io(i))?;
        field("include", abs.as_os_str().as_encoded_bytes());
    }
    for d in &o.defines {
        field("define", d.as_bytes());
    }
    field("reconv", format!("{:?}", o.reconv).as_bytes());
    field("stack", &o.stack_size.to_le_bytes());
    field("stack_check", &[o.stack_check as u8]);
    for p in &o.inputs {
        let abs = std::path::absolute(p).map_err(io(p))?;
        field("input", abs.as_os_str().as_encoded_bytes());
        field("bytes", &std::fs::read(p).map_err(io(p))?);
    }
    Ok(hex(&h.finalize()))
}

/// The toolchain's identity without running it (a cached build must cost far less than a
/// compile): each tool weft cc runs, found on `PATH` with links resolved, by path, size and
/// modification time. Worked out once per process.
fn toolchain() -> Result<String, CcError> {
    static ID: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    let id = ID.get_or_init(|| {
        let path = std::env::var_os("PATH")?;
        let mut id = String::new();
        for tool in ["clang", "ld.lld", "riscv64-unknown-elf-gcc"] {
            let exe = std::env::split_paths(&path)
                .map(|d| d.join(tool))
                .find(|p| p.is_file())?
                .canonicalize()
                .ok()?;
            let meta = exe.metadata().ok()?;
            let mtime = meta
                .modified()
                .ok()?
                .duration_since(std::time::UNIX_EPOCH)
                .ok()?;
            id += &format!("{} {} {}\n", exe.display(), meta.len(), mtime.as_nanos());
        }
        Some(id)
    });
    match id {
        Some(id) => Ok(id.clone()),
        // A tool is missing: find_toolchain says which, and what to install.
        None => find_toolchain().map(|_| String::new()),
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The files a make-style dependency file (clang's `-MD -MF`) lists, those under `skip` (the
/// runtime's own directory) left out.
pub fn read_depfile(path: &Path, skip: &Path) -> Result<BTreeSet<PathBuf>, CcError> {
    let text = std::fs::read_to_string(path).map_err(io(path))?;
    let text = text.replace("\\\r\n", " ").replace("\\\n", " ");
    let mut files = BTreeSet::new();
    for line in text.lines() {
        // Targets end at the first ": " (a Windows drive's colon has no space after it).
        let Some((_, deps)) = line.split_once(": ") else {
            continue;
        };
        // Names are separated by spaces; an escaped space ("\ ") belongs to the name.
        let mut name = String::new();
        let mut chars = deps.chars().peekable();
        let mut push = |name: &mut String| {
            if !name.is_empty() {
                let p = PathBuf::from(std::mem::take(name));
                let p = std::path::absolute(&p).unwrap_or(p);
                if !p.starts_with(skip) {
                    files.insert(p);
                }
            }
        };
        while let Some(c) = chars.next() {
            match c {
                '\\' if chars.peek() == Some(&' ') => name.push(chars.next().unwrap_or(' ')),
                ' ' | '\t' => push(&mut name),
                c => name.push(c),
            }
        }
        push(&mut name);
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depfile_names_with_continuations_and_escaped_spaces() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("u0.d");
        std::fs::write(
            &d,
            "/w/u0.o: /src/k.c /src/my\\ dir/a.h \\\n  /rt/include/weft.h /src/b.h\n",
        )
        .unwrap();
        let got = read_depfile(&d, Path::new("/rt")).unwrap();
        let want: BTreeSet<PathBuf> = ["/src/k.c", "/src/my dir/a.h", "/src/b.h"]
            .iter()
            .map(PathBuf::from)
            .collect();
        assert_eq!(got, want);
    }
}
