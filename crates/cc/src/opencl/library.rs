//! The OpenCL device library's objects, compiled once and kept in a cache: the library has
//! about 8,000 functions (every built-in OpenCL C 1.2 declares, in every vector size and
//! address space), which take clang half a minute; a program links only what its kernels use
//! (`--gc-sections`). The cache is `$WEFT_CACHE_DIR`, else `$XDG_CACHE_HOME/weft`, else
//! `~/.cache/weft`, in a directory named by a hash of the runtime's sources and clang's
//! version, so a changed library or compiler gets new objects. Builds that run at once wait
//! for each other on a lock file; without a usable cache directory the objects are built in
//! the build's own scratch directory.

use crate::{io, run, CcError, DeviceBuild, Unit, RUNTIME_FILES};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The cache's root directory, if one can be made.
fn cache_root() -> Option<PathBuf> {
    let root = if let Some(d) = std::env::var_os("WEFT_CACHE_DIR") {
        PathBuf::from(d)
    } else if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
        PathBuf::from(d).join("weft")
    } else {
        PathBuf::from(std::env::var_os("HOME")?).join(".cache/weft")
    };
    std::fs::create_dir_all(&root).ok()?;
    Some(root)
}

/// A hash of what the objects depend on: the runtime's sources and clang's version.
fn key() -> &'static str {
    static KEY: OnceLock<String> = OnceLock::new();
    KEY.get_or_init(|| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        for (path, text) in RUNTIME_FILES {
            path.hash(&mut h);
            text.hash(&mut h);
        }
        super::frontend_flags("-cl-std=CL1.2").hash(&mut h);
        if let Ok(out) = Command::new("clang").arg("--version").output() {
            out.stdout.hash(&mut h);
        }
        format!("opencl-{:016x}", h.finish())
    })
}

/// The object of library unit `unit`: from the cache, or compiled into it.
pub(crate) fn object(b: &DeviceBuild<'_>, unit: &Unit) -> Result<PathBuf, CcError> {
    let name = unit
        .src
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let Some(root) = cache_root() else {
        let obj = b.work.join(format!("lib-{name}.o"));
        compile(b, unit, &obj)?;
        return Ok(obj);
    };
    let dir = root.join(key());
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let obj = dir.join(format!("{name}.o"));
    if obj.is_file() {
        return Ok(obj);
    }
    let lock_path = dir.join(format!("{name}.lock"));
    let lock = std::fs::File::create(&lock_path).map_err(io(&lock_path))?;
    lock.lock().map_err(io(&lock_path))?;
    if !obj.is_file() {
        let tmp = dir.join(format!("{name}.{}.tmp", std::process::id()));
        compile(b, unit, &tmp)?;
        std::fs::rename(&tmp, &obj).map_err(io(&obj))?;
    }
    drop(lock);
    Ok(obj)
}

/// Fill the cache for every library unit of `units` at once, as many at a time as the host
/// has cores (a cold cache costs one slow build, not ten).
pub(crate) fn prepare(b: &DeviceBuild<'_>, units: &[Unit]) -> Result<(), CcError> {
    let lib: Vec<&Unit> = units.iter().filter(|u| u.cl_lib).collect();
    if lib.is_empty() || cache_root().is_none() {
        return Ok(());
    }
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(lib.len());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                s.spawn(|| -> Result<(), CcError> {
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        let Some(u) = lib.get(i) else {
                            return Ok(());
                        };
                        object(b, u)?;
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Ok(())))
            .collect::<Result<Vec<()>, CcError>>()
    })?;
    Ok(())
}

fn compile(b: &DeviceBuild<'_>, unit: &Unit, obj: &Path) -> Result<(), CcError> {
    run(b.clang(unit).arg("-c").arg(&unit.src).arg("-o").arg(obj))
}
