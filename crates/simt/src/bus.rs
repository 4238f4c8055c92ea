//! The machine's I/O page: which devices sit on its bus ([`weft_devices::Bus`]) and where,
//! at the top of the data space, as the Shader Processor v2a has its local bus at
//! 0xFF00–0xFFFF. Each device's registers are its own table (`weft_devices::display::REGS`,
//! `weft_devices::dma::REGS`); the map:
//!
//! | address | device |
//! |---|---|
//! | `0xFFFF_FF40`–`0xFFFF_FF57` | the display controller (one per machine) |
//! | `0xFFFF_FF60`–`0xFFFF_FF77` | Vortex's DXA copy engine (one per machine; counters) |
//! | `0xFFFF_FF80`–`0xFFFF_FFA3` | the DMA engine (each core reaches its own) |
//!
//! A new device is a file of weft-devices and one `attach` line in [`io_page`]. The machine's
//! public face of its devices (display, DMA pacing, frame sink) is in `machine.rs`.

use crate::trap::{Trap, TrapInfo};
use weft_devices::bus::BusError;
use weft_devices::{Bus, Display, Dmas, Dxa};
use weft_isa::FaultCode;

/// The display's first register.
pub const IO_DISPLAY: u32 = 0xffff_ff40;
/// The DXA engine's first register (`DXA_PENDING`).
pub const IO_DXA: u32 = 0xffff_ff60;
/// The DMA engine's first register (`DMA_CMD0`).
pub const IO_DMA: u32 = 0xffff_ff80;

/// The bus of a machine of configuration `cfg`: its devices, one line each.
pub fn io_page(cfg: &crate::Config) -> Bus {
    let mut bus = Bus::new();
    bus.attach(IO_DISPLAY, Box::new(Display::new(cfg.display, cfg.cores)));
    bus.attach(IO_DXA, Box::new(Dxa::new(cfg.dxa, cfg.cores)));
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
