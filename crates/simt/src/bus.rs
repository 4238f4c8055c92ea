//! The machine's I/O page: which devices sit on its bus ([`weft_devices::Bus`]) and where,
//! at the top of the data space, as the Shader Processor v2a has its local bus at
//! 0xFF00–0xFFFF. Each device's registers are its own table (`weft_devices::display::REGS`,
//! `weft_devices::dma::REGS`); the map:
//!
//! | address | device |
//! |---|---|
//! | `0xFFFF_FF40`–`0xFFFF_FF57` | the display controller (one per machine) |
//! | `0xFFFF_FF80`–`0xFFFF_FFA3` | the DMA engine (each core reaches its own) |
//!
//! A new device is a file of weft-devices and one `attach` line in [`io_page`]. This module
//! also gives the machine's public face of its devices (display, DMA pacing, frame sink).

use crate::machine::Machine;
use crate::trap::{Trap, TrapInfo};
use weft_devices::bus::BusError;
use weft_devices::{Bus, Ctx, Display, DmaSlot, Dmas, FrameSink};
use weft_isa::FaultCode;

/// The display's first register.
pub const IO_DISPLAY: u32 = 0xffff_ff40;
/// The DMA engine's first register (`DMA_CMD0`).
pub const IO_DMA: u32 = 0xffff_ff80;

/// The bus of a machine of configuration `cfg`: its devices, one line each.
pub fn io_page(cfg: &crate::Config) -> Bus {
    let mut bus = Bus::new();
    bus.attach(IO_DISPLAY, Box::new(Display::new(cfg.display, cfg.cores)));
    bus.attach(
        IO_DMA,
        Box::new(Dmas::new(
            cfg.cores,
            cfg.dma,
            cfg.local_mem_base,
            cfg.local_mem_size,
        )),
    );
    bus
}

/// A bus error as the fault it raises.
pub(crate) fn bus_fault(store: bool, e: BusError) -> Trap {
    Trap::from(TrapInfo {
        code: if store {
            FaultCode::StoreFault
        } else {
            FaultCode::LoadFault
        },
        addr: Some(e.addr),
        detail: e.detail,
    })
}

impl Machine {
    /// A store to device register `addr` by core `c`.
    pub(crate) fn io_store(&mut self, c: usize, addr: u32, size: u32, v: u32) -> Result<(), Trap> {
        self.bus
            .store(self.cycle, c, addr, size, v, &self.mem)
            .map_err(|e| bus_fault(true, e))
    }

    /// Process the devices' work for every cycle up to and including the current one, in
    /// time order.
    #[cold]
    pub(crate) fn io_advance(&mut self) {
        let cores = &self.cores;
        let active = |c: usize| cores[c].active_mask() != 0;
        let mut ctx = Ctx {
            mem: &mut self.mem,
            code: &mut self.code,
            active: &active,
        };
        self.bus.advance(self.cycle, &mut ctx);
    }

    /// Send every scanned frame to `sink` from now on (`weft run --frames`, `--gif`).
    pub fn set_frame_sink(&mut self, sink: Box<dyn FrameSink>) {
        self.display_mut().sink = Some(sink);
    }

    /// The display controller (registers, counters).
    pub fn display(&self) -> &Display {
        self.bus
            .get::<Display>()
            .expect("the I/O page has a display")
    }

    fn display_mut(&mut self) -> &mut Display {
        self.bus
            .get_mut::<Display>()
            .expect("the I/O page has a display")
    }

    /// The DMA engines.
    pub fn dmas(&self) -> &Dmas {
        self.bus
            .get::<Dmas>()
            .expect("the I/O page has DMA engines")
    }

    /// Did a frame sink end the run (a frame limit)?
    pub fn stopped_by_frames(&self) -> bool {
        self.bus.stop()
    }

    /// The slots core `c`'s engine has not finished, in the order they run.
    pub fn dma_pending(&self, c: usize) -> Vec<DmaSlot> {
        self.dmas().pending(c)
    }

    /// Is core `c`'s DMA engine busy (cheap, unlike [`Machine::dma_pending`])?
    pub fn dma_busy(&self, c: usize) -> bool {
        self.dmas().busy(c)
    }

    /// DMA counters of core `c`.
    pub fn dma_stats(&self, c: usize) -> weft_fb::DmaStats {
        self.dmas().stats(c)
    }

    /// Hand the DMA engines' pacing to the caller (true) or back to their own timing.
    /// While paced, nothing moves except through [`Machine::dma_advance`].
    pub fn set_dma_paced(&mut self, paced: bool) {
        // Everything up to now happens under the old pacing.
        self.io_advance();
        let from = self.cycle + 1;
        if let Some(d) = self.bus.get_mut::<Dmas>() {
            d.set_paced(paced, from);
        }
        self.bus.wake(from);
    }

    /// Move up to `max_words` words of core `c`'s current DMA work now (for a paced
    /// engine); returns how many moved.
    pub fn dma_advance(&mut self, c: usize, max_words: u32) -> u32 {
        let (mem, code) = (&mut self.mem, &mut self.code);
        match self.bus.get_mut::<Dmas>() {
            Some(d) => d.advance_paced(c, max_words, mem, code),
            None => 0,
        }
    }
}
