//! weft-devices: the device bus of the weft machine and the devices on it.
//!
//! A device is a [`BusDevice`]: a block of word registers described by a register table
//! ([`Reg`]: name, offset, access — data, not a hand-written match), loads and stores of those
//! registers, and work of its own in time (its next event, and advancing to it) over the
//! machine's memory and the decoded-code cache ([`Ctx`]) — never over the machine itself.
//! The [`Bus`] maps address ranges to devices, checks every access against the tables, and
//! advances all devices in time order. A new device is one file here and one
//! [`Bus::attach`] line where the machine builds its bus (weft-simt's `bus.rs`).
//!
//! The devices: [`display`] (the display controller), [`dma`] (each core's DMA engine) and
//! [`dxa`] (Vortex's DXA tile-copy engine).

pub mod bus;
pub mod display;
pub mod dma;
pub mod dxa;
pub mod dxa_pipe;

pub use bus::Bus;
pub use display::{Display, DisplayConfig, DisplayStats, Frame, FrameSink};
pub use dma::{DmaConfig, DmaSlot, Dmas};
pub use dxa::{Dxa, DxaConfig, DxaDone, DxaFault, DxaRequest, DxaStats};

use std::any::Any;
use weft_mem::Memory;

/// Who may do what to a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Loads and stores.
    ReadWrite,
    /// Loads only; a store faults with "`what` is read-only".
    ReadOnly {
        /// How the fault message names the register.
        what: &'static str,
    },
}

/// One register of a device's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reg {
    /// The register's name (as docs and programs' headers spell it).
    pub name: &'static str,
    /// Byte offset within the device's block.
    pub offset: u32,
    /// Who may do what.
    pub access: Access,
    /// What it holds.
    pub doc: &'static str,
}

/// What a device may be told to invalidate when it writes memory (the decoded-code cache).
pub trait Invalidate {
    /// Bytes `[addr, addr + size)` changed.
    fn invalidate(&mut self, addr: u32, size: u32);
}

/// What a device works on when it advances: memory, the code cache, and which cores have a
/// started warp.
pub struct Ctx<'a> {
    /// The machine's memory.
    pub mem: &'a mut Memory,
    /// The decoded-code cache (told of every store a device makes).
    pub code: &'a mut dyn Invalidate,
    /// Does core `c` have a started warp?
    pub active: &'a dyn Fn(usize) -> bool,
}

/// A device on the bus.
pub trait BusDevice: Any {
    /// Its name (in messages).
    fn name(&self) -> &'static str;
    /// Its registers; register `i` of the table is the `reg` of [`BusDevice::load`] and
    /// [`BusDevice::store`].
    fn regs(&self) -> &'static [Reg];
    /// A load of register `reg` by core `core` at cycle `now`.
    fn load(&self, now: u64, core: usize, reg: usize) -> u32;
    /// A store of `v` to register `reg` (writable by the table) by core `core` at cycle
    /// `now`; `Err` says why the value is refused. `Ok(true)`: the device's timing changed
    /// (it was started): the bus advances it from the next cycle on.
    fn store(
        &mut self,
        now: u64,
        core: usize,
        reg: usize,
        v: u32,
        mem: &Memory,
    ) -> Result<bool, String>;
    /// The cycle of the next work it has to do (`u64::MAX`: none).
    fn next_event(&self) -> u64 {
        u64::MAX
    }
    /// Do the work due at cycle `t` (called once per cycle at which
    /// [`BusDevice::next_event`] is due, in time order).
    fn advance(&mut self, _t: u64, _ctx: &mut Ctx) {}
    /// Has the device asked to end the run (a frame limit)?
    fn stop(&self) -> bool {
        false
    }
}
