//! `weft._weft`: the native half of the Python package — a `NativeDevice` over
//! `weft_runtime::Device`. Errors are raised as `NativeError(kind, message, info)`, which
//! `weft/__init__.py` turns into the package's exception classes; buffers move through the
//! buffer protocol (numpy arrays are read and filled in place, one copy to or from the device).

use pyo3::buffer::PyBuffer;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use weft_runtime::{Args, Buffer, Device, DeviceConfig, Dim3, RuntimeError};

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
    /// Open a device: `program` is an ELF path, or `sources` C files built with weft cc.
    #[new]
    #[pyo3(signature = (cores, warps, lanes, timing, dram_size, program=None, sources=None))]
    fn new(
        py: Python<'_>,
        cores: usize,
        warps: usize,
        lanes: usize,
        timing: bool,
        dram_size: Option<u32>,
        program: Option<String>,
        sources: Option<Vec<String>>,
    ) -> PyResult<NativeDevice> {
        let mut cfg = DeviceConfig {
            cores,
            warps,
            lanes,
            timing,
            ..DeviceConfig::default()
        };
        if let Some(d) = dram_size {
            cfg.dram_size = d;
        }
        let dev = match (program, sources) {
            (Some(p), None) => std::fs::read(&p)
                .map_err(|e| RuntimeError::Load(format!("{p}: {e}")))
                .and_then(|elf| Device::new(cfg, &elf)),
            (None, Some(s)) => {
                let paths: Vec<&std::path::Path> = s.iter().map(std::path::Path::new).collect();
                Device::from_c(cfg, &paths)
            }
            _ => Err(RuntimeError::Load(
                "give either program (an ELF) or sources (C files)".into(),
            )),
        };
        dev.map(|dev| NativeDevice { dev }).map_err(|e| err(py, e))
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

    /// Queue a launch of kernel `name`; `args` is the argument block's bytes.
    #[pyo3(signature = (name, grid, block, args, shared=0))]
    fn launch(
        &mut self,
        py: Python<'_>,
        name: &str,
        grid: (u32, u32, u32),
        block: (u32, u32, u32),
        args: &[u8],
        shared: u32,
    ) -> PyResult<()> {
        self.dev
            .launch_shared(name, dim3(grid), dim3(block), shared, &Args::raw(args))
            .map_err(|e| err(py, e))
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

#[pymodule]
fn _weft(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<NativeDevice>()?;
    m.add("NativeError", m.py().get_type::<NativeError>())?;
    Ok(())
}
