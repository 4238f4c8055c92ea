//! `weft._weft`: the native half of the Python package — a `NativeDevice` over
//! `weft_runtime::Device`. Errors are raised as `NativeError(kind, message, info)`, which
//! `weft/__init__.py` turns into the package's exception classes; buffers move through the
//! buffer protocol (numpy arrays are read and filled in place, one copy to or from the device).

use pyo3::buffer::PyBuffer;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use weft_runtime::{
    Args, BackendKind, Buffer, Device, DeviceConfig, Dim3, LaunchId, LaunchOptions, ModuleId,
    RuntimeError,
};

create_exception!(_weft, NativeError, PyException);

/// The exception for a runtime error: (kind, message, details or None).
fn err(py: Python<'_>, e: RuntimeError) -> PyErr {
    let kind = match &e {
        RuntimeError::OutOfMemory { .. } => "OutOfMemory",
        RuntimeError::BadAddress { .. } => "BadAddress",
        RuntimeError::NoSuchKernel(_) => "NoSuchKernel",
        RuntimeError::KernelFault(_) => "KernelFault",
        RuntimeError::Timeout { .. } => "Timeout",
        RuntimeError::Deadlock(_) => "Deadlock",
        RuntimeError::KernelExit { .. } => "KernelExit",
        RuntimeError::NothingLaunched => "NothingLaunched",
        RuntimeError::Load(_) => "LoadError",
    };
    let info = PyDict::new(py);
    let _ = match &e {
        RuntimeError::KernelFault(f) => info
            .set_item("code", f.code.name())
            .and(info.set_item("core", f.core))
            .and(info.set_item("warp", f.warp))
            .and(info.set_item("lanes", f.lanes))
            .and(info.set_item("pc", f.pc))
            .and(info.set_item("addr", f.addr)),
        RuntimeError::Timeout { cycles } => info.set_item("cycles", cycles),
        RuntimeError::KernelExit { status, output } => info
            .set_item("status", status)
            .and(info.set_item("output", output)),
        RuntimeError::OutOfMemory { requested, largest } => info
            .set_item("requested", requested)
            .and(info.set_item("largest", largest)),
        RuntimeError::BadAddress { addr, len } => {
            info.set_item("addr", addr).and(info.set_item("len", len))
        }
        _ => Ok(()),
    };
    NativeError::new_err((kind, e.to_string(), info.unbind()))
}

fn dim3(t: (u32, u32, u32)) -> Dim3 {
    Dim3::new(t.0, t.1, t.2)
}

/// A device with a kernel program loaded.
#[pyclass(unsendable)]
struct NativeDevice {
    dev: Device,
}

#[pymethods]
impl NativeDevice {
    /// Open a device running `elf` (a program built by weft cc). `config` is machine
    /// configuration TOML (as `weft run --config` reads); the shape, DRAM size and timing
    /// given (not None) override it, and without it each default applies.
    #[new]
    #[pyo3(signature = (elf, cores=None, warps=None, lanes=None, timing=None, dram_size=None, config=None, backend=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        elf: &[u8],
        cores: Option<usize>,
        warps: Option<usize>,
        lanes: Option<usize>,
        timing: Option<bool>,
        dram_size: Option<u32>,
        config: Option<String>,
        backend: Option<String>,
    ) -> PyResult<NativeDevice> {
        let mut cfg = match config {
            Some(text) => DeviceConfig::from_toml(&text).map_err(|e| err(py, e))?,
            None => DeviceConfig::default(),
        };
        if let Some(b) = backend.as_deref() {
            cfg.backend = BackendKind::parse(b).ok_or_else(|| {
                err(
                    py,
                    RuntimeError::Load(format!(
                        "backend '{b}': expected 'functional', 'timing' or 'rtl'"
                    )),
                )
            })?;
        }
        cfg.cores = cores.unwrap_or(cfg.cores);
        cfg.warps = warps.unwrap_or(cfg.warps);
        cfg.lanes = lanes.unwrap_or(cfg.lanes);
        cfg.timing = timing.unwrap_or(cfg.timing);
        cfg.dram_size = dram_size.unwrap_or(cfg.dram_size);
        Device::new(cfg, elf)
            .map(|dev| NativeDevice { dev })
            .map_err(|e| err(py, e))
    }

    /// A buffer of `nbytes`: its (address, length).
    fn alloc(&mut self, py: Python<'_>, nbytes: u32) -> PyResult<(u32, u32)> {
        let b = self.dev.alloc(nbytes).map_err(|e| err(py, e))?;
        Ok((b.addr, b.len))
    }

    fn free(&mut self, py: Python<'_>, addr: u32, len: u32) -> PyResult<()> {
        self.dev.free(Buffer { addr, len }).map_err(|e| err(py, e))
    }

    /// `BadAddress` unless `n` bytes at `offset` lie inside the buffer (checked before
    /// anything is allocated for them).
    fn check_range(
        &self,
        py: Python<'_>,
        addr: u32,
        len: u32,
        offset: u32,
        n: usize,
    ) -> PyResult<()> {
        self.dev
            .check_range(&Buffer { addr, len }, offset, n)
            .map(|_| ())
            .map_err(|e| err(py, e))
    }

    /// Copy the bytes of `data` (any buffer-protocol object) into the buffer at `offset`.
    fn write(
        &mut self,
        py: Python<'_>,
        addr: u32,
        len: u32,
        offset: u32,
        data: PyBuffer<u8>,
    ) -> PyResult<()> {
        self.check_range(py, addr, len, offset, data.item_count())?;
        let mut v = vec![0u8; data.item_count()];
        data.copy_to_slice(py, &mut v)?;
        self.dev
            .write_bytes(&Buffer { addr, len }, offset, &v)
            .map_err(|e| err(py, e))
    }

    /// Fill `out` (a writable buffer-protocol object) from the buffer at `offset`.
    fn read_into(
        &self,
        py: Python<'_>,
        addr: u32,
        len: u32,
        offset: u32,
        out: PyBuffer<u8>,
    ) -> PyResult<()> {
        self.check_range(py, addr, len, offset, out.item_count())?;
        let mut v = vec![0u8; out.item_count()];
        self.dev
            .read_bytes(&Buffer { addr, len }, offset, &mut v)
            .map_err(|e| err(py, e))?;
        out.copy_from_slice(py, &v)
    }

    /// Load another program (ELF bytes): its module index.
    fn load(&mut self, py: Python<'_>, elf: &[u8]) -> PyResult<usize> {
        self.dev
            .load(elf)
            .map(ModuleId::index)
            .map_err(|e| err(py, e))
    }

    /// Queue a launch of kernel `name` of program `module`; `args` is the argument block's
    /// bytes; `record`, if not None, records the launch (at most that many
    /// warp-instructions). Returns the launch's id.
    #[pyo3(signature = (name, grid, block, args, shared=0, module=0, record=None))]
    #[allow(clippy::too_many_arguments)]
    fn launch(
        &mut self,
        py: Python<'_>,
        name: &str,
        grid: (u32, u32, u32),
        block: (u32, u32, u32),
        args: &[u8],
        shared: u32,
        module: usize,
        record: Option<usize>,
    ) -> PyResult<u64> {
        let o = LaunchOptions {
            module: ModuleId::new(module),
            shared_bytes: shared,
            record,
        };
        self.dev
            .launch_with(name, dim3(grid), dim3(block), &Args::raw(args), &o)
            .map(|id| id.0)
            .map_err(|e| err(py, e))
    }

    /// The recording of launch `id` (taken): (its trace as a JSON list, the warp-instructions
    /// past the bound, the page), or None.
    fn take_recording(&mut self, id: u64) -> Option<(String, u64, String)> {
        self.dev.take_recording(LaunchId(id)).map(|r| {
            let steps: Vec<serde_json::Value> = r
                .trace
                .iter()
                .map(|s| {
                    serde_json::json!({
                        "cycle": s.cycle, "core": s.core, "warp": s.warp, "mask": s.mask,
                        "pc": s.pc, "symbol": s.symbol, "inst": s.inst, "line": s.line,
                    })
                })
                .collect();
            (
                serde_json::Value::from(steps).to_string(),
                r.dropped,
                r.page,
            )
        })
    }

    /// Launches queued and not yet run.
    fn queued(&self) -> usize {
        self.dev.queued()
    }

    /// Run the queued launches; `max_cycles` / `timeout` (seconds) None = no limit. A
    /// timeout too long for the host's clock (inf, 1e300) is no limit; NaN or a negative
    /// one is a ValueError.
    #[pyo3(signature = (max_cycles=None, timeout=None))]
    fn wait(
        &mut self,
        py: Python<'_>,
        max_cycles: Option<u64>,
        timeout: Option<f64>,
    ) -> PyResult<()> {
        let time = match timeout {
            None => None,
            Some(t) if t.is_nan() || t < 0.0 => {
                return Err(PyValueError::new_err(format!(
                    "timeout = {t} must be seconds >= 0 (None or inf for no limit)"
                )))
            }
            Some(t) => std::time::Duration::try_from_secs_f64(t).ok(),
        };
        self.dev.wait_for(max_cycles, time).map_err(|e| err(py, e))
    }

    /// Console output so far (taken).
    fn output(&mut self) -> String {
        self.dev.take_output()
    }

    fn cycles(&self) -> u64 {
        self.dev.cycles()
    }

    /// Statistics as JSON text.
    fn stats_json(&self) -> String {
        self.dev.stats().to_string()
    }

    /// Each launch's own counters, as a JSON list.
    fn launch_stats_json(&self) -> String {
        serde_json::Value::from(self.dev.launch_stats()).to_string()
    }
}

/// Build C sources (paths) with weft cc `flags` through the compile cache: (ELF bytes,
/// served from the cache).
#[pyfunction]
fn compile(py: Python<'_>, sources: Vec<String>, flags: Vec<String>) -> PyResult<(Vec<u8>, bool)> {
    let paths: Vec<&std::path::Path> = sources.iter().map(std::path::Path::new).collect();
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    py.allow_threads(|| weft_runtime::compile::compile(&paths, &flags))
        .map_err(|e| err(py, e))
}

/// Build kernel source text of language `ext` with weft cc `flags` through the compile
/// cache: (ELF bytes, served from the cache).
#[pyfunction]
fn compile_source(
    py: Python<'_>,
    text: &str,
    ext: &str,
    flags: Vec<String>,
) -> PyResult<(Vec<u8>, bool)> {
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    py.allow_threads(|| weft_runtime::compile::compile_source(text, ext, &flags))
        .map_err(|e| err(py, e))
}

#[pymodule]
fn _weft(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<NativeDevice>()?;
    m.add_function(wrap_pyfunction!(compile, m)?)?;
    m.add_function(wrap_pyfunction!(compile_source, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("NativeError", m.py().get_type::<NativeError>())?;
    Ok(())
}
