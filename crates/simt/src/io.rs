//! The local bus: device registers in the I/O page at the top of the data space, as the
//! Shader Processor v2a has its local bus at 0xFF00–0xFFFF. They take aligned word loads and
//! stores only; any lane's store writes the register (so write them from one lane).
//!
//! | address | register | access |
//! |---|---|---|
//! | `0xFFFF_FF40` | `DISP_BASE` — byte address of row 0 (read at every row fetch) | rw |
//! | `0xFFFF_FF44` | `DISP_WIDTH` — pixels per row, 1..=visible_pixels | rw |
//! | `0xFFFF_FF48` | `DISP_HEIGHT` — rows, 1..=visible_lines | rw |
//! | `0xFFFF_FF4C` | `DISP_FORMAT` — 0 off, 1 RGBA8888, 2 RGB565 | rw |
//! | `0xFFFF_FF50` | `DISP_STATUS` — bit 0 vblank, bit 1 hblank, bits 16–31 line | ro |
//! | `0xFFFF_FF54` | `DISP_BEAM_X` — the beam's pixel within its line | ro |
//! | `0xFFFF_FF80 + 8i` | `DMA_CMD` of slot i (this core's engine) | rw |
//! | `0xFFFF_FF84 + 8i` | `DMA_ADDR` of slot i | rw |
//! | `0xFFFF_FFA0` | `DMA_STATUS` — write n: run slots 0..n; read: slots left | rw |
//!
//! The display is one per machine; each core reaches its own DMA engine at the same
//! addresses. This module also advances both at the start of each cycle
//! ([`Machine::io_advance`]), catching up over cycles a driver skipped, in time order.

use crate::display::{self, Display, FrameSink};
use crate::dma::Dmas;
use crate::machine::Machine;
use crate::trap::{Trap, TrapInfo};
use weft_isa::FaultCode;

/// The display's first register.
pub const IO_DISPLAY: u32 = 0xffff_ff40;
/// One past the display's registers.
pub const IO_DISPLAY_END: u32 = 0xffff_ff58;
/// The DMA engine's first register (`DMA_CMD` of slot 0).
pub const IO_DMA: u32 = 0xffff_ff80;
/// `DMA_STATUS`.
pub const IO_DMA_STATUS: u32 = 0xffff_ffa0;
/// One past the DMA registers.
pub const IO_DMA_END: u32 = 0xffff_ffa4;

/// Is `addr` one of the device registers?
#[inline]
pub fn is_device(addr: u32) -> bool {
    (IO_DISPLAY..IO_DISPLAY_END).contains(&addr) || (IO_DMA..IO_DMA_END).contains(&addr)
}

/// The devices on the bus and their progress.
pub struct Io {
    /// The display controller.
    pub display: Display,
    /// The DMA engines.
    pub dma: Dmas,
    /// `begin_cycle` has work at this cycle or later.
    pub(crate) next_event: u64,
    /// Cycles before this one have been processed.
    pub(crate) upto: u64,
}

impl Io {
    /// Devices for a machine of configuration `cfg`.
    pub fn new(cfg: &crate::Config) -> Io {
        Io {
            display: Display::new(cfg.display, cfg.cores),
            dma: Dmas::new(cfg.cores, cfg.dma.setup_cycles, cfg.dma.cycles_per_dword),
            next_event: 0,
            upto: 0,
        }
    }
}

fn bus_fault(store: bool, addr: u32, detail: String) -> Trap {
    Trap::from(TrapInfo {
        code: if store {
            FaultCode::StoreFault
        } else {
            FaultCode::LoadFault
        },
        addr: Some(addr),
        detail,
    })
}

fn check_access(store: bool, addr: u32, size: u32) -> Result<(), Trap> {
    if size != 4 || !addr.is_multiple_of(4) {
        return Err(bus_fault(
            store,
            addr,
            "device registers take aligned word accesses".into(),
        ));
    }
    Ok(())
}

/// A load of device register `addr` by core `c` at `cycle`.
pub(crate) fn load(io: &Io, cycle: u64, c: usize, addr: u32, size: u32) -> Result<u32, Trap> {
    check_access(false, addr, size)?;
    let d = &io.display;
    Ok(match addr {
        a if a < IO_DISPLAY_END => match a - IO_DISPLAY {
            display::REG_BASE => d.regs.base,
            display::REG_WIDTH => d.regs.width,
            display::REG_HEIGHT => d.regs.height,
            display::REG_FORMAT => d.regs.format,
            display::REG_STATUS => d.status(cycle),
            _ => d.beam_x(cycle),
        },
        a => io.dma.engines[c]
            .read_reg(((a - IO_DMA) / 4) as usize)
            .unwrap_or(0),
    })
}

impl Machine {
    /// A store to device register `addr` by core `c`.
    pub(crate) fn io_store(&mut self, c: usize, addr: u32, size: u32, v: u32) -> Result<(), Trap> {
        check_access(true, addr, size)?;
        if addr < IO_DISPLAY_END {
            let reg = addr - IO_DISPLAY;
            if reg >= display::REG_STATUS {
                return Err(bus_fault(true, addr, "display status is read-only".into()));
            }
            let d = &mut self.io.display;
            d.check_write(reg, v)
                .map_err(|why| bus_fault(true, addr, why))?;
            match reg {
                display::REG_BASE => d.regs.base = v,
                display::REG_WIDTH => d.regs.width = v,
                display::REG_HEIGHT => d.regs.height = v,
                _ => d.regs.format = v,
            }
            return Ok(());
        }
        let reg = ((addr - IO_DMA) / 4) as usize;
        self.dma_write(c, reg, v)
            .map_err(|e| bus_fault(true, addr, e.to_string()))?;
        if addr == IO_DMA_STATUS {
            // The engine works from the next cycle on. Every cycle up to this one has been
            // processed (begin_cycle runs io_advance whenever an event is due).
            self.io.upto = self.cycle + 1;
            self.io.next_event = self.io.next_event.min(self.cycle + 1);
        }
        Ok(())
    }

    /// Process the devices' work for every cycle up to and including the current one: the
    /// display's line starts and vblanks, and one cycle of every busy (self-paced) DMA
    /// engine per cycle, in time order.
    #[cold]
    pub(crate) fn io_advance(&mut self) {
        let now = self.cycle;
        let mut dma = !self.io.dma.paced && self.io.dma.any_busy();
        while self.io.upto <= now {
            let t = self.io.upto;
            if t >= self.io.display.next_event() {
                let cores = &self.cores;
                self.io
                    .display
                    .event(t, &self.mem, |c| cores[c].active_mask() != 0);
            }
            if dma {
                self.dma_tick();
                dma = self.io.dma.any_busy();
            }
            self.io.upto = if dma {
                t + 1
            } else {
                self.io.display.next_event().min(now + 1)
            };
        }
        self.io.next_event = if dma {
            now + 1
        } else {
            self.io.display.next_event()
        };
    }

    /// Send every scanned frame to `sink` from now on (`weft run --frames`, `--gif`).
    pub fn set_frame_sink(&mut self, sink: Box<dyn FrameSink>) {
        self.io.display.sink = Some(sink);
    }

    /// The display controller (registers, counters).
    pub fn display(&self) -> &Display {
        &self.io.display
    }

    /// Did a frame sink end the run (a frame limit)?
    pub fn stopped_by_frames(&self) -> bool {
        self.io.display.stop
    }
}
