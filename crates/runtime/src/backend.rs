//! The machines the runtime drives, behind one [`Backend`] trait: the functional model, the
//! functional model under the cycle-level timing model (execute at issue, so both give the
//! same results), and the RTL (weft's SystemVerilog core under Verilator, `weft-rtl`: the
//! same results, in lockstep with the model as `weft-rtl-lockstep` checks). A backend is a
//! [`weft_device::Device`] that can also restart its cores while keeping memory.

use crate::{Result, RuntimeError};
use weft_device::Stop;
use weft_rtl::RtlDevice;
use weft_simt::Machine;
use weft_timing::{TimingConfig, TimingModel};

/// A machine the runtime can drive.
pub trait Backend: weft_device::Device {
    /// Reset every core to start at `entry`, keeping memory.
    fn restart(&mut self, entry: u32) -> Result<()>;
    /// Bytes of DRAM.
    fn dram_size(&self) -> u32;
    /// Load another program image over memory (a host runtime switching kernel programs):
    /// its segments written, its code decoded with its reconvergence table.
    fn load_module(&mut self, prog: &weft_simt::Program) -> Result<()>;
    /// Send console output to `w` as the kernels print it.
    fn set_console(&mut self, w: Box<dyn std::io::Write + Send>);
    /// The functional model's machine, if the backend runs one (observers attach to it).
    fn machine(&self) -> Option<&Machine>;
    /// [`Backend::machine`], mutable.
    fn machine_mut(&mut self) -> Option<&mut Machine>;
}

/// The functional model as a backend.
pub struct FunctionalBackend {
    m: Machine,
}

impl FunctionalBackend {
    /// The backend of a loaded machine.
    pub fn new(m: Machine) -> FunctionalBackend {
        FunctionalBackend { m }
    }
}

/// The timing model as a backend: the machine, and the model that schedules it. The model
/// lives as long as the device, so caches stay warm from one launch to the next and the
/// counters accumulate, as on hardware.
pub struct TimingBackend {
    m: Machine,
    t: TimingModel,
}

impl TimingBackend {
    /// The backend of a loaded machine, timed with the parameters `t`.
    pub fn new(m: Machine, t: &TimingConfig) -> TimingBackend {
        let t = TimingModel::new(&m.cfg, t);
        TimingBackend { m, t }
    }
}

/// The [`weft_device::Device`] methods both backends take from the machine as they are.
macro_rules! machine_face {
    () => {
        fn kind(&self) -> &'static str {
            weft_device::Device::kind(&self.m)
        }
        fn cycles(&self) -> u64 {
            weft_device::Device::cycles(&self.m)
        }
        fn take_console(&mut self) -> Vec<u8> {
            weft_device::Device::take_console(&mut self.m)
        }
        fn read_bytes(
            &self,
            addr: u32,
            buf: &mut [u8],
        ) -> std::result::Result<(), weft_device::MemError> {
            weft_device::Device::read_bytes(&self.m, addr, buf)
        }
        fn write_bytes(
            &mut self,
            addr: u32,
            data: &[u8],
        ) -> std::result::Result<(), weft_device::MemError> {
            weft_device::Device::write_bytes(&mut self.m, addr, data)
        }
    };
}

impl weft_device::Device for FunctionalBackend {
    machine_face!();
    fn run(&mut self, max_cycles: u64) -> Stop {
        weft_device::Device::run(&mut self.m, max_cycles)
    }
    fn stats_json(&self) -> serde_json::Value {
        weft_device::Device::stats_json(&self.m)
    }
}

impl weft_device::Device for TimingBackend {
    machine_face!();
    fn run(&mut self, max_cycles: u64) -> Stop {
        Stop::End(self.t.run(&mut self.m, max_cycles))
    }
    /// The functional statistics with the timing model's report under `timing`.
    fn stats_json(&self) -> serde_json::Value {
        let mut v = weft_device::Device::stats_json(&self.m);
        v["timing"] = serde_json::to_value(self.t.report(&self.m)).unwrap_or_default();
        v
    }
}

/// Reset the machine's cores to start at `entry`, keeping memory.
fn restart(m: &mut Machine, entry: u32) -> Result<()> {
    m.restart(entry)
        .map_err(|e| RuntimeError::Load(e.to_string()))
}

/// The [`Backend`] methods both model backends take from their machine as they are.
macro_rules! machine_backend {
    () => {
        fn dram_size(&self) -> u32 {
            self.m.cfg.dram_size
        }
        fn load_module(&mut self, prog: &weft_simt::Program) -> Result<()> {
            self.m
                .load_module(prog)
                .map_err(|e| RuntimeError::Load(e.to_string()))
        }
        fn set_console(&mut self, w: Box<dyn std::io::Write + Send>) {
            self.m.set_console(w);
        }
        fn machine(&self) -> Option<&Machine> {
            Some(&self.m)
        }
        fn machine_mut(&mut self) -> Option<&mut Machine> {
            Some(&mut self.m)
        }
    };
}

impl Backend for FunctionalBackend {
    fn restart(&mut self, entry: u32) -> Result<()> {
        restart(&mut self.m, entry)
    }
    machine_backend!();
}

impl Backend for TimingBackend {
    fn restart(&mut self, entry: u32) -> Result<()> {
        restart(&mut self.m, entry)?;
        // A new launch: the timing model resets what the configuration says a launch resets.
        self.t.new_launch();
        Ok(())
    }
    machine_backend!();
}

/// The RTL as a backend: one core of the configured warps, lanes and stack depth, built
/// with Verilator on first use (cached in `target/rtl/`).
pub struct RtlBackend {
    d: RtlDevice,
    /// Where console output goes as runs produce it, if set.
    console: Option<Box<dyn std::io::Write + Send>>,
}

impl RtlBackend {
    /// The backend of a started RTL device.
    pub fn new(d: RtlDevice) -> RtlBackend {
        RtlBackend { d, console: None }
    }
}

impl weft_device::Device for RtlBackend {
    fn kind(&self) -> &'static str {
        self.d.kind()
    }
    fn run(&mut self, max_cycles: u64) -> Stop {
        let stop = self.d.run(max_cycles);
        if let Some(w) = &mut self.console {
            let _ = w.write_all(&self.d.take_console());
            let _ = w.flush();
        }
        stop
    }
    fn cycles(&self) -> u64 {
        self.d.cycles()
    }
    fn take_console(&mut self) -> Vec<u8> {
        self.d.take_console()
    }
    fn read_bytes(
        &self,
        addr: u32,
        buf: &mut [u8],
    ) -> std::result::Result<(), weft_device::MemError> {
        self.d.read_bytes(addr, buf)
    }
    fn write_bytes(
        &mut self,
        addr: u32,
        data: &[u8],
    ) -> std::result::Result<(), weft_device::MemError> {
        self.d.write_bytes(addr, data)
    }
    fn stats_json(&self) -> serde_json::Value {
        self.d.stats_json()
    }
}

impl Backend for RtlBackend {
    fn restart(&mut self, entry: u32) -> Result<()> {
        self.d
            .restart(entry)
            .map_err(|e| RuntimeError::Load(e.to_string()))
    }
    fn dram_size(&self) -> u32 {
        self.d.dram_size()
    }
    fn load_module(&mut self, _prog: &weft_simt::Program) -> Result<()> {
        Err(RuntimeError::Load(
            "the RTL backend runs the one program it was opened with (no second module)".into(),
        ))
    }
    fn set_console(&mut self, w: Box<dyn std::io::Write + Send>) {
        self.console = Some(w);
    }
    fn machine(&self) -> Option<&Machine> {
        None
    }
    fn machine_mut(&mut self) -> Option<&mut Machine> {
        None
    }
}
