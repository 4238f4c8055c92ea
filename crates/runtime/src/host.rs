//! What the host libraries built on weft-runtime share (`libvortex.so`, `libOpenCL.so`): the
//! device's shape from the environment, and kernel output on the process's stdout.

use std::io::Write;
use weft_simt::Config;

/// Apply `WEFT_CORES`, `WEFT_WARPS`, `WEFT_THREADS` (lanes per warp) and `WEFT_TIMING` (1: the
/// timing model, 0: the functional model), read through `get`, over `cfg`. The error names
/// the variable that is wrong.
pub fn shape_from_env(
    cfg: &mut Config,
    get: impl Fn(&str) -> Option<String>,
) -> Result<(), String> {
    let num = |key: &str| -> Result<Option<usize>, String> {
        get(key)
            .map(|v| {
                v.trim()
                    .parse::<usize>()
                    .map_err(|_| format!("{key}={v} is not a number"))
            })
            .transpose()
    };
    if let Some(n) = num("WEFT_CORES")? {
        cfg.cores = n;
    }
    if let Some(n) = num("WEFT_WARPS")? {
        cfg.warps = n;
    }
    if let Some(n) = num("WEFT_THREADS")? {
        cfg.lanes = n;
    }
    if let Some(v) = get("WEFT_TIMING") {
        cfg.timing = match v.trim() {
            "1" | "on" | "true" | "yes" => true,
            "0" | "off" | "false" | "no" | "" => false,
            _ => {
                return Err(format!(
                    "WEFT_TIMING={v}: use 1 (timing model) or 0 (functional model)"
                ))
            }
        };
    }
    Ok(())
}

/// Kernel output on the process's stdout, after what the host program has buffered in C's
/// stdio (so the two keep their order).
pub struct StdoutAfterC;

extern "C" {
    fn fflush(stream: *mut std::ffi::c_void) -> std::ffi::c_int;
}

impl Write for StdoutAfterC {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // SAFETY: fflush(NULL) flushes every open C output stream; it takes no pointer of ours.
        unsafe { fflush(std::ptr::null_mut()) };
        let mut out = std::io::stdout().lock();
        out.write_all(buf)?;
        out.flush()?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stdout().flush()
    }
}
