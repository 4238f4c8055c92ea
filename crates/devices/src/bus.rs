//! The bus: address ranges mapped to devices, each access decoded through the device's
//! register table, and the devices advanced in time order at the start of each cycle
//! ([`Bus::advance`]), catching up over cycles a driver skipped. Devices take aligned word
//! loads and stores only; any lane's store writes the register.

use crate::{Access, BusDevice, Ctx, Reg};
use std::any::Any;
use weft_mem::Memory;

/// Why an access to a device register failed (the machine turns it into a load or store
/// fault at `addr`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BusError {
    /// The address accessed.
    pub addr: u32,
    /// Why.
    pub detail: String,
}

struct Slot {
    base: u32,
    end: u32,
    dev: Box<dyn BusDevice>,
}

/// The devices and their progress.
#[derive(Default)]
pub struct Bus {
    slots: Vec<Slot>,
    /// The lowest device address (a quick test before decoding).
    lo: u32,
    /// [`Bus::advance`] has work at this cycle or later.
    next_event: u64,
    /// Cycles before this one have been processed.
    upto: u64,
    /// A device asked to end the run.
    stop: bool,
}

impl Bus {
    /// An empty bus.
    pub fn new() -> Bus {
        Bus {
            lo: u32::MAX,
            ..Bus::default()
        }
    }

    /// Map `dev` at `base` (its registers' offsets are from there).
    ///
    /// # Panics
    /// If its block overlaps a device already attached (a wiring mistake, not input).
    pub fn attach(&mut self, base: u32, dev: Box<dyn BusDevice>) {
        let end = base + dev.regs().iter().map(|r| r.offset + 4).max().unwrap_or(0);
        assert!(
            self.slots.iter().all(|s| end <= s.base || s.end <= base),
            "device {} at {base:#010x} overlaps another",
            dev.name()
        );
        self.lo = self.lo.min(base);
        self.slots.push(Slot { base, end, dev });
    }

    /// Is `addr` a device register's address?
    #[inline]
    pub fn claims(&self, addr: u32) -> bool {
        addr >= self.lo && self.slots.iter().any(|s| (s.base..s.end).contains(&addr))
    }

    /// The cycle at which [`Bus::advance`] has work next.
    #[inline]
    pub fn next_event(&self) -> u64 {
        self.next_event
    }

    /// Has a device asked to end the run?
    #[inline]
    pub fn stop(&self) -> bool {
        self.stop
    }

    /// Every device with its base address and register table (for documentation and
    /// debuggers).
    pub fn map(&self) -> impl Iterator<Item = (u32, &'static str, &'static [Reg])> + '_ {
        self.slots
            .iter()
            .map(|s| (s.base, s.dev.name(), s.dev.regs()))
    }

    /// The attached device of type `T`, if any.
    pub fn get<T: BusDevice>(&self) -> Option<&T> {
        self.slots
            .iter()
            .find_map(|s| (s.dev.as_ref() as &dyn Any).downcast_ref::<T>())
    }

    /// The attached device of type `T`, if any.
    pub fn get_mut<T: BusDevice>(&mut self) -> Option<&mut T> {
        self.slots
            .iter_mut()
            .find_map(|s| (s.dev.as_mut() as &mut dyn Any).downcast_mut::<T>())
    }

    /// Decode `addr` for an access of `size` bytes: the slot and the register index.
    fn decode(&self, addr: u32, size: u32) -> Result<(usize, usize), BusError> {
        let err = |detail: &str| BusError {
            addr,
            detail: detail.into(),
        };
        if size != 4 || !addr.is_multiple_of(4) {
            return Err(err("device registers take aligned word accesses"));
        }
        let (i, s) = self
            .slots
            .iter()
            .enumerate()
            .find(|(_, s)| (s.base..s.end).contains(&addr))
            .ok_or_else(|| err("no device register here"))?;
        let off = addr - s.base;
        let r = s
            .dev
            .regs()
            .iter()
            .position(|r| r.offset == off)
            .ok_or_else(|| err("no device register here"))?;
        Ok((i, r))
    }

    /// A load of `size` bytes at device address `addr` by core `core` at cycle `now`.
    pub fn load(&self, now: u64, core: usize, addr: u32, size: u32) -> Result<u32, BusError> {
        let (i, r) = self.decode(addr, size)?;
        Ok(self.slots[i].dev.load(now, core, r))
    }

    /// A store of `v` (`size` bytes) at device address `addr` by core `core` at cycle `now`.
    pub fn store(
        &mut self,
        now: u64,
        core: usize,
        addr: u32,
        size: u32,
        v: u32,
        mem: &Memory,
    ) -> Result<(), BusError> {
        let (i, r) = self.decode(addr, size)?;
        let dev = &mut self.slots[i].dev;
        if let Access::ReadOnly { what } = dev.regs()[r].access {
            return Err(BusError {
                addr,
                detail: format!("{what} is read-only"),
            });
        }
        let started = dev
            .store(now, core, r, v, mem)
            .map_err(|detail| BusError { addr, detail })?;
        if started {
            // Every cycle up to this one has been processed (the machine advances the bus
            // whenever an event is due); the device works from the next cycle on.
            self.upto = now + 1;
            self.wake(now + 1);
        }
        Ok(())
    }

    /// Look at the devices again at cycle `at` (a device's timing changed from outside,
    /// e.g. its pacing).
    pub fn wake(&mut self, at: u64) {
        self.next_event = self.next_event.min(at);
    }

    fn earliest(&self) -> u64 {
        self.slots
            .iter()
            .map(|s| s.dev.next_event())
            .min()
            .unwrap_or(u64::MAX)
    }

    /// Process every device's work for every cycle up to and including `now`, in time order
    /// (at each cycle, the devices in the order they were attached).
    #[cold]
    pub fn advance(&mut self, now: u64, ctx: &mut Ctx) {
        while self.upto <= now {
            let t = self.upto;
            for s in &mut self.slots {
                if t >= s.dev.next_event() {
                    s.dev.advance(t, ctx);
                    self.stop |= s.dev.stop();
                }
            }
            self.upto = self.earliest().min(now + 1).max(t + 1);
        }
        self.next_event = self.earliest();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Display, DisplayConfig, DmaConfig, Dmas};

    fn page() -> (Bus, Memory) {
        let mut bus = Bus::new();
        bus.attach(0x100, Box::new(Display::new(DisplayConfig::default(), 2)));
        bus.attach(
            0x200,
            Box::new(Dmas::new(2, DmaConfig::default(), 0x1000, 64)),
        );
        let mem = Memory::new(weft_mem::MemConfig::default()).unwrap();
        (bus, mem)
    }

    #[test]
    fn the_tables_decide_the_map() {
        let (mut bus, mem) = page();
        assert!(bus.claims(0x100) && bus.claims(0x114) && !bus.claims(0x118));
        assert!(bus.claims(0x220) && !bus.claims(0x224) && !bus.claims(0xfc));
        bus.store(0, 0, 0x104, 4, 320, &mem).unwrap();
        assert_eq!(bus.load(0, 1, 0x104, 4).unwrap(), 320);
        let names: Vec<_> = bus.map().map(|(b, n, r)| (b, n, r.len())).collect();
        assert_eq!(names, [(0x100, "display", 6), (0x200, "dma", 9)]);
    }

    #[test]
    fn bad_accesses_are_refused_with_the_reason() {
        let (mut bus, mem) = page();
        let e = bus.store(0, 0, 0x110, 4, 1, &mem).unwrap_err();
        assert_eq!(e.detail, "display status is read-only");
        let e = bus.load(0, 0, 0x102, 2).unwrap_err();
        assert_eq!(e.detail, "device registers take aligned word accesses");
        let e = bus.store(0, 0, 0x108, 4, 0, &mem).unwrap_err();
        assert!(e.detail.contains("display height 0"), "{}", e.detail);
        assert_eq!(e.addr, 0x108);
    }

    #[test]
    #[should_panic(expected = "overlaps")]
    fn overlapping_devices_are_a_wiring_mistake() {
        let (mut bus, _) = page();
        bus.attach(0x110, Box::new(Display::new(DisplayConfig::default(), 1)));
    }
}
