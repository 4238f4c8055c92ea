//! The device behind `libvortex.so`: a weft machine under the Vortex profile, its device
//! memory (the heap from Vortex's `USER_BASE_ADDR` up, allocated with weft-runtime's
//! allocator, and reservations at fixed addresses such as a kernel image's), the KMU
//! registers, and a launch that runs when the host waits for it. Everything here returns
//! typed errors; `lib.rs` turns them into Vortex's C return codes.

use weft_device::{Device as _, RunEnd};
use weft_runtime::alloc::Allocator;
use weft_simt::kmu::{self, KmuDcrs, KmuError};
use weft_simt::{Config, ConfigError, Machine, Profile, Program};

/// Vortex's `VX_MEM_USER_BASE_ADDR`: the device heap starts here.
pub const USER_BASE: u32 = 0x0001_0000;
/// The heap ends below DRAM (where kernel images are linked).
pub const HEAP_END: u32 = 0x8000_0000;
/// Where DRAM (and so a kernel image) starts.
const DRAM_BASE: u32 = 0x8000_0000;
/// Cycles run between looks at the clock when a wait has a time limit.
const SLICE: u64 = 1 << 22;

/// What went wrong.
#[derive(Debug, thiserror::Error)]
pub enum VxError {
    #[error("configuration: {0}")]
    Config(String),
    #[error("out of device memory ({0} bytes requested)")]
    OutOfMemory(u64),
    #[error("invalid value: {0}")]
    Invalid(String),
    #[error("device memory: {0}")]
    Memory(String),
    #[error("{0}")]
    Kmu(#[from] KmuError),
    #[error("the kernel did not finish: {0}")]
    Run(String),
    #[error("timed out")]
    Timeout,
    #[error("not supported by weft: {0}")]
    NotSupported(String),
}

impl From<ConfigError> for VxError {
    fn from(e: ConfigError) -> VxError {
        VxError::Config(e.to_string())
    }
}

/// Read the configuration: `WEFT_CONFIG` (a weft TOML file, under the Vortex profile), then
/// `WEFT_CORES`, `WEFT_WARPS`, `WEFT_THREADS` over it; Vortex's defaults otherwise.
/// `WEFT_TIMING=1` asks for the timing model, which this library does not offer yet.
pub fn config_from_env(get: impl Fn(&str) -> Option<String>) -> Result<Config, VxError> {
    let mut cfg = match get("WEFT_CONFIG") {
        Some(path) => {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| VxError::Config(format!("{path}: {e}")))?;
            Config::from_toml_for(&text, Some(Profile::Vortex))?
        }
        None => Config::for_profile(Profile::Vortex),
    };
    if cfg.profile != Profile::Vortex {
        return Err(VxError::Config(
            "the configuration must use the vortex profile".into(),
        ));
    }
    let num = |key: &str| -> Result<Option<usize>, VxError> {
        get(key)
            .map(|v| {
                v.trim()
                    .parse::<usize>()
                    .map_err(|_| VxError::Config(format!("{key}={v} is not a number")))
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
    if get("WEFT_TIMING").is_some_and(|v| v != "0") {
        return Err(VxError::NotSupported(
            "WEFT_TIMING: the timing model is not available here yet".into(),
        ));
    }
    cfg.validate()?;
    Ok(cfg)
}

/// A block of device memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    pub addr: u32,
    pub size: u32,
    /// Reserved at a fixed address (not from the heap).
    pub reserved: bool,
}

/// One open device.
pub struct VxDevice {
    pub m: Machine,
    heap: Allocator,
    reserved: Vec<(u32, u32)>,
    pub dcrs: KmuDcrs,
    /// A launch waits to run.
    pending: bool,
}

impl VxDevice {
    /// A device of shape `cfg` with empty memory. Kernel output goes to `stdout` as Vortex's
    /// simulator prints it (`#slot: text`).
    pub fn new(cfg: Config) -> Result<VxDevice, VxError> {
        let prog = Program {
            entry: DRAM_BASE,
            ..Program::default()
        };
        let mut m = Machine::new(cfg, &prog).map_err(|e| VxError::Config(e.to_string()))?;
        m.set_console(Box::new(std::io::stdout()));
        Ok(VxDevice {
            m,
            heap: Allocator::new(USER_BASE, HEAP_END),
            reserved: Vec::new(),
            dcrs: KmuDcrs::default(),
            pending: false,
        })
    }

    /// Allocate `size` bytes from the heap.
    pub fn alloc(&mut self, size: u64) -> Result<Region, VxError> {
        let s = u32::try_from(size).map_err(|_| VxError::OutOfMemory(size))?;
        if s == 0 {
            return Err(VxError::Invalid("a buffer of 0 bytes".into()));
        }
        let addr = self.heap.alloc(s).ok_or(VxError::OutOfMemory(size))?;
        Ok(Region {
            addr,
            size: s,
            reserved: false,
        })
    }

    /// Reserve `[addr, addr + size)` (outside the heap, e.g. a kernel image in DRAM).
    pub fn reserve(&mut self, addr: u64, size: u64) -> Result<Region, VxError> {
        let bad = || VxError::Invalid(format!("reserve {size} bytes at {addr:#x}"));
        let a = u32::try_from(addr).map_err(|_| bad())?;
        let s = u32::try_from(size).map_err(|_| bad())?;
        let end = a.checked_add(s).ok_or_else(bad)?;
        if s == 0 || (a < HEAP_END && end > USER_BASE) {
            return Err(bad());
        }
        if self.reserved.iter().any(|&(b, n)| a < b + n && b < end) {
            return Err(VxError::Invalid(format!(
                "{a:#x}+{s} overlaps a reservation"
            )));
        }
        self.reserved.push((a, s));
        Ok(Region {
            addr: a,
            size: s,
            reserved: true,
        })
    }

    /// Give a region back.
    pub fn free(&mut self, r: Region) -> Result<(), VxError> {
        let ok = if r.reserved {
            let n = self.reserved.len();
            self.reserved.retain(|&(a, _)| a != r.addr);
            self.reserved.len() < n
        } else {
            self.heap.free(r.addr)
        };
        ok.then_some(())
            .ok_or_else(|| VxError::Invalid(format!("no buffer at {:#x}", r.addr)))
    }

    /// Heap bytes free and in use.
    pub fn mem_info(&self) -> (u64, u64) {
        let free = self.heap.free_bytes();
        (free, (HEAP_END - USER_BASE) as u64 - free)
    }

    /// Copy host bytes into a region at `offset`.
    pub fn write(&mut self, r: Region, offset: u64, data: &[u8]) -> Result<(), VxError> {
        let at = check(r, offset, data.len() as u64)?;
        self.m
            .write_bytes(at, data)
            .map_err(|e| VxError::Memory(e.to_string()))
    }

    /// Copy a region's bytes at `offset` to the host.
    pub fn read(&self, r: Region, offset: u64, out: &mut [u8]) -> Result<(), VxError> {
        let at = check(r, offset, out.len() as u64)?;
        self.m
            .read_bytes(at, out)
            .map_err(|e| VxError::Memory(e.to_string()))
    }

    /// Write a device configuration register: the KMU's, or the base ones (cache flush,
    /// performance-counter class), which have nothing to do in the functional model.
    pub fn dcr_write(&mut self, addr: u32, value: u32) -> Result<(), VxError> {
        match addr {
            0x000 | 0x001 => Ok(()),
            a if (kmu::dcr::BEGIN..kmu::dcr::END).contains(&a) => {
                Ok(self.dcrs.write(addr, value)?)
            }
            _ => Err(VxError::NotSupported(format!("DCR {addr:#05x}"))),
        }
    }

    /// Read a device configuration register back (the cache flush reads 0).
    pub fn dcr_read(&self, addr: u32) -> Result<u32, VxError> {
        match addr {
            0x000 | 0x001 => Ok(0),
            _ => Ok(self.dcrs.read(addr)?),
        }
    }

    /// `vx_start`: program the KMU as Vortex's classic runtime does — start-up code at the
    /// kernel image, the argument buffer, a grid of one CTA per core of one warp's threads —
    /// and launch. The kernel entry is what the host last wrote to `KERNEL_ENTRY`.
    pub fn start(&mut self, image: u32, args: u32) -> Result<(), VxError> {
        self.finish(None)?;
        let lanes = self.m.cfg.lanes as u32;
        let d = KmuDcrs {
            kernel_entry: self.dcrs.kernel_entry,
            ..KmuDcrs::launch(
                image,
                0,
                args,
                [self.m.cfg.cores as u32, 1, 1],
                [lanes, 1, 1],
                0,
                lanes,
            )
        };
        self.dcrs = d;
        self.launch()
    }

    /// Launch what the KMU registers hold.
    pub fn launch(&mut self) -> Result<(), VxError> {
        self.finish(None)?;
        self.m.launch(&self.dcrs)?;
        self.pending = true;
        Ok(())
    }

    /// Run the pending launch to its end, or until `timeout` has passed (then it stays
    /// pending and a later wait goes on with it).
    pub fn finish(&mut self, timeout: Option<std::time::Duration>) -> Result<(), VxError> {
        if !self.pending {
            return Ok(());
        }
        let t0 = std::time::Instant::now();
        let end = loop {
            let bound = match timeout {
                Some(_) => self.m.cycle.saturating_add(SLICE),
                None => u64::MAX,
            };
            match self.m.run_until(bound) {
                RunEnd::CycleLimit(_) if timeout.is_some_and(|t| t0.elapsed() < t) => {}
                RunEnd::CycleLimit(_) if timeout.is_some() => return Err(VxError::Timeout),
                e => break e,
            }
        };
        self.pending = false;
        match end {
            RunEnd::Exit(_) => Ok(()),
            e => Err(VxError::Run(format!("{e:?}"))),
        }
    }

    /// `vx_dev_caps`.
    pub fn caps(&self, id: u32) -> Result<u64, VxError> {
        let c = &self.m.cfg;
        Ok(match id {
            0x0 => 3,
            0x1 => c.lanes as u64,
            0x2 => c.warps as u64,
            0x3 => c.cores as u64,
            0x4 => kmu::LMEM_BLOCK as u64,
            0x5 => (HEAP_END - USER_BASE) as u64,
            0x6 => c.local_mem_size as u64,
            // RV32 I, M, A, F (misa layout), local memory.
            0x7 => (1 << 30) | (1 << 8) | (1 << 12) | (1 << 0) | (1 << 5) | (1u64 << (32 + 4)),
            0x8 => 1,
            0x9 => (HEAP_END - USER_BASE) as u64,
            0xA => 1,
            0xB => c.cores as u64,
            0xC => 1,
            0xF => 0,
            0x10 | 0x11 => 0,
            _ => return Err(VxError::NotSupported(format!("capability {id:#x}"))),
        })
    }

    /// `vx_mpm_query`: `mcycle` (0xB00) and `minstret` (0xB02) of a core; Vortex's other
    /// counters read 0 in the functional model.
    pub fn mpm(&self, addr: u32, core: u32) -> Result<u64, VxError> {
        let k = self
            .m
            .cores
            .get(core as usize)
            .ok_or_else(|| VxError::Invalid(format!("core {core}")))?;
        Ok(match addr {
            0xB00 => self.m.cycle,
            0xB02 => k.instret(),
            0xB01 | 0xB03..=0xB1F => 0,
            _ => return Err(VxError::Invalid(format!("counter {addr:#x}"))),
        })
    }

    /// The performance summary `vx_dump_perf` prints.
    pub fn perf_text(&self) -> String {
        let instrs: u64 = self.m.cores.iter().map(|c| c.instret()).sum();
        let cycles = self.m.cycle;
        let ipc = if cycles == 0 {
            0.0
        } else {
            instrs as f64 / cycles as f64
        };
        format!("PERF: instrs={instrs}, cycles={cycles}, IPC={ipc:.3}\n")
    }
}

/// The device address of `[offset, offset + len)` within `r`.
fn check(r: Region, offset: u64, len: u64) -> Result<u32, VxError> {
    if offset.checked_add(len).is_none_or(|e| e > r.size as u64) {
        return Err(VxError::Invalid(format!(
            "{len} bytes at offset {offset} of a {}-byte buffer",
            r.size
        )));
    }
    Ok(r.addr + offset as u32)
}

/// The parts of a `.vxbin` image `vx_upload_kernel_bytes` needs: its address range and the
/// bytes to copy (the image after the 16-byte header, without a symbol footer).
pub fn vxbin_parts(bytes: &[u8]) -> Result<(u32, u32, &[u8]), VxError> {
    let bad = |why: &str| VxError::Invalid(format!("not a kernel image: {why}"));
    if bytes.len() <= 16 {
        return Err(bad("shorter than its header"));
    }
    let word = |k: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&bytes[8 * k..8 * k + 8]);
        u64::from_le_bytes(b)
    };
    let (lo, hi) = (word(0), word(1));
    if hi < lo || hi > u32::MAX as u64 + 1 {
        return Err(bad("its address range"));
    }
    let span = (hi - lo) as usize;
    let body = &bytes[16..];
    Ok((lo as u32, (hi - lo) as u32, &body[..body.len().min(span)]))
}
