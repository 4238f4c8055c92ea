//! weft-mem: the memory map every core sees — sparse DRAM, each core's banked shared
//! (local) memory window, extra RAM regions a profile may add, and the I/O page (console,
//! exit, HTIF `tohost`).
//!
//! HTIF has two modes. With only `tohost` known, a store that makes the `tohost` word odd
//! exits with `value >> 1` (riscv-tests' pass/fail). With `fromhost` known too (as QEMU's
//! and Spike's loaders require), `tohost` is the 64-bit HTIF register written low word then
//! high word on RV32: the store to the high word hands the command to the host — device 0
//! command 0 with an odd payload exits, device 1 command 1 writes the payload's low byte
//! to the console, clears `tohost` and answers in `fromhost` like QEMU does.
//!
//! Accesses are byte-addressed and little-endian; misaligned accesses work (they are split
//! into bytes when they cross a page). An access to an address nothing maps is a
//! [`MemFault`] carrying the address, never a host crash.

mod cout;
mod dram;
pub mod span;

pub use cout::CoutRing;

pub use dram::{Dram, PAGE_BYTES as DRAM_PAGE_BYTES};
pub use span::Span;
use thiserror::Error;

/// Default DRAM base (programs are linked here).
pub const DRAM_BASE: u32 = 0x8000_0000;
/// Default shared-memory base (the `local_mem_base` CSR).
pub const LOCAL_BASE: u32 = 0xff00_0000;
/// Console: a byte stored here is written to stdout.
pub const IO_CONSOLE: u32 = 0xffff_ff00;
/// Exit: a word stored here ends the run with that exit code.
pub const IO_EXIT: u32 = 0xffff_ff04;
/// First address of the I/O page.
pub const IO_BASE: u32 = 0xffff_ff00;

/// A memory access that nothing maps, or that the target refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum MemFault {
    /// No region maps this address.
    #[error("unmapped address {0:#010x}")]
    Unmapped(u32),
    /// The access runs off the end of a region.
    #[error("access at {0:#010x} crosses the end of its region")]
    Crosses(u32),
    /// A store to a read-only device register.
    #[error("store to read-only address {0:#010x}")]
    ReadOnly(u32),
}

/// How the memory is laid out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemConfig {
    /// DRAM base address.
    pub dram_base: u32,
    /// DRAM size in bytes.
    pub dram_size: u32,
    /// Shared-memory window base (same address on every core; each core has its own).
    pub local_base: u32,
    /// Shared-memory size per core, bytes.
    pub local_size: u32,
    /// Number of cores (one shared memory each).
    pub cores: usize,
    /// Extra plain RAM regions (base, size), e.g. a profile's low memory.
    pub extra: Vec<(u32, u32)>,
    /// Map weft's I/O page (console and exit registers) at [`IO_BASE`]; a profile that
    /// uses the top of the address space as RAM (Vortex) leaves it out.
    pub io_page: bool,
}

impl Default for MemConfig {
    fn default() -> Self {
        MemConfig {
            dram_base: DRAM_BASE,
            dram_size: 256 << 20,
            local_base: LOCAL_BASE,
            local_size: 16 << 10,
            cores: 1,
            extra: Vec::new(),
            io_page: true,
        }
    }
}

/// Why a memory configuration is unusable.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MemConfigError {
    /// A region has zero size.
    #[error("{0} has size 0")]
    Empty(&'static str),
    /// A region runs past 4 GiB.
    #[error("{0} runs past the end of the 32-bit address space")]
    Wraps(&'static str),
    /// Two regions overlap.
    #[error("{0} overlaps {1}")]
    Overlap(String, String),
}

/// What a store did besides writing memory (the simulator acts on it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoreEffect {
    /// Plain memory.
    None,
    /// A byte for the console.
    Console(u8),
    /// The program asked to exit with this code.
    Exit(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Region {
    Dram,
    Local,
    Extra(usize),
    Io,
}

/// The memory system of one machine.
#[derive(Clone, Debug)]
pub struct Memory {
    cfg: MemConfig,
    dram: Dram,
    locals: Vec<Vec<u8>>,
    extra: Vec<Dram>,
    tohost: Option<u32>,
    /// The Vortex ring console, with the extra region it lives in.
    cout: Option<(usize, CoutRing)>,
    fromhost: Option<u32>,
}

fn end(base: u32, size: u32) -> u64 {
    base as u64 + size as u64
}

impl Memory {
    /// Build the memory system, checking that the regions are sane and disjoint.
    pub fn new(cfg: MemConfig) -> Result<Memory, MemConfigError> {
        let mut regions: Vec<(String, u32, u32)> = vec![
            ("DRAM".into(), cfg.dram_base, cfg.dram_size),
            ("shared memory".into(), cfg.local_base, cfg.local_size),
        ];
        if cfg.io_page {
            regions.push(("the I/O page".into(), IO_BASE, 0x100));
        }
        for (i, &(b, s)) in cfg.extra.iter().enumerate() {
            regions.push((format!("RAM region {i}"), b, s));
        }
        for (name, b, s) in &regions {
            let n: &'static str = if name == "DRAM" {
                "DRAM"
            } else {
                "a memory region"
            };
            if *s == 0 {
                return Err(MemConfigError::Empty(n));
            }
            if end(*b, *s) > 1 << 32 {
                return Err(MemConfigError::Wraps(n));
            }
        }
        for (i, a) in regions.iter().enumerate() {
            for b in &regions[i + 1..] {
                if (a.1 as u64) < end(b.1, b.2) && (b.1 as u64) < end(a.1, a.2) {
                    return Err(MemConfigError::Overlap(a.0.clone(), b.0.clone()));
                }
            }
        }
        Ok(Memory {
            dram: Dram::new(cfg.dram_size),
            locals: vec![vec![0; cfg.local_size as usize]; cfg.cores.max(1)],
            extra: cfg.extra.iter().map(|&(_, s)| Dram::new(s)).collect(),
            tohost: None,
            cout: None,
            fromhost: None,
            cfg,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &MemConfig {
        &self.cfg
    }

    /// Watch a DRAM word as the HTIF `tohost` register.
    pub fn set_tohost(&mut self, addr: Option<u32>) {
        self.tohost = addr;
    }

    /// Watch a DRAM doubleword as the HTIF `fromhost` register: this switches `tohost` to
    /// the 64-bit HTIF protocol (console output, exit on the high-word store).
    pub fn set_fromhost(&mut self, addr: Option<u32>) {
        self.fromhost = addr;
    }

    /// Drain Vortex's console ring buffers at `base` (`slots` × `ring` bytes) to the console
    /// output ([`Memory::take_cout`]). The layout must lie inside one extra RAM region.
    pub fn set_cout_ring(&mut self, base: u32, slots: u32, ring: u32) -> Result<(), MemFault> {
        let c = CoutRing::new(base, slots, ring);
        let last = base.wrapping_add(c.span() - 1);
        match (self.region(base), self.region(last)) {
            (Some((Region::Extra(i), _)), Some((Region::Extra(j), _))) if i == j => {
                self.cout = Some((i, c));
                Ok(())
            }
            _ => Err(MemFault::Unmapped(base)),
        }
    }

    /// True when the ring console has output to print.
    #[inline]
    pub fn has_cout(&self) -> bool {
        self.cout.as_ref().is_some_and(|(_, c)| c.has_output())
    }

    /// Take the ring console's output; with `end`, unterminated lines are included.
    pub fn take_cout(&mut self, end: bool) -> Vec<u8> {
        match &mut self.cout {
            Some((_, c)) => {
                if end {
                    c.flush_partial();
                }
                c.take_output()
            }
            None => Vec::new(),
        }
    }

    /// HTIF 64-bit protocol: act on a store that touched the high word of `tohost`.
    fn htif_command(&mut self, t: u32, f: u32) -> StoreEffect {
        let base = self.cfg.dram_base;
        let word = |m: &Memory, a: u32| -> u64 {
            if m.is_dram(a) && m.is_dram(a.wrapping_add(3)) {
                m.dram.read(a - base, 4) as u64
            } else {
                0
            }
        };
        let v = word(self, t) | word(self, t.wrapping_add(4)) << 32;
        if v == 0 {
            return StoreEffect::None;
        }
        let (dev, cmd, payload) = (v >> 56, (v >> 48) & 0xff, v & 0xffff_ffff_ffff);
        if dev == 0 && cmd == 0 {
            return if payload & 1 == 1 {
                StoreEffect::Exit((payload >> 1) as u32)
            } else {
                StoreEffect::None // a syscall-proxy request: not supported, left pending
            };
        }
        let put = |m: &mut Memory, a: u32, val: u32| {
            if m.is_dram(a) && m.is_dram(a.wrapping_add(3)) {
                m.dram.write(a - base, 4, val);
            }
        };
        // Acknowledge: clear tohost, answer in fromhost (QEMU's response word).
        put(self, t, 0);
        put(self, t.wrapping_add(4), 0);
        let resp = if dev == 1 && cmd == 1 {
            0x100 | (payload & 0xff)
        } else {
            0
        };
        let answer = (v >> 48 << 48) | resp;
        put(self, f, answer as u32);
        put(self, f.wrapping_add(4), (answer >> 32) as u32);
        if dev == 1 && cmd == 1 {
            StoreEffect::Console(payload as u8)
        } else {
            StoreEffect::None
        }
    }

    fn region(&self, addr: u32) -> Option<(Region, u32)> {
        let d = addr.wrapping_sub(self.cfg.dram_base);
        if d < self.cfg.dram_size {
            return Some((Region::Dram, d));
        }
        let l = addr.wrapping_sub(self.cfg.local_base);
        if l < self.cfg.local_size {
            return Some((Region::Local, l));
        }
        if addr >= IO_BASE && self.cfg.io_page {
            return Some((Region::Io, addr - IO_BASE));
        }
        for (i, &(b, s)) in self.cfg.extra.iter().enumerate() {
            let o = addr.wrapping_sub(b);
            if o < s {
                return Some((Region::Extra(i), o));
            }
        }
        None
    }

    fn region_len(&self, r: Region) -> u32 {
        match r {
            Region::Dram => self.cfg.dram_size,
            Region::Local => self.cfg.local_size,
            Region::Extra(i) => self.cfg.extra[i].1,
            Region::Io => 0x100,
        }
    }

    /// The address of the first DRAM byte at which `self` and `other` differ, if any (both
    /// configured alike).
    pub fn first_dram_difference(&self, other: &Memory) -> Option<u32> {
        self.dram
            .first_difference(&other.dram)
            .map(|o| o.wrapping_add(self.cfg.dram_base))
    }

    /// True if `addr` is in DRAM (executable memory).
    pub fn is_dram(&self, addr: u32) -> bool {
        addr.wrapping_sub(self.cfg.dram_base) < self.cfg.dram_size
    }

    /// Load `size` (1, 2 or 4) bytes, zero-extended, as seen by `core`.
    #[inline]
    pub fn load(&self, core: usize, addr: u32, size: u32) -> Result<u32, MemFault> {
        let (r, off) = self.region(addr).ok_or(MemFault::Unmapped(addr))?;
        if off as u64 + size as u64 > self.region_len(r) as u64 {
            return Err(MemFault::Crosses(addr));
        }
        Ok(match r {
            Region::Dram => self.dram.read(off, size),
            Region::Local => read_slice(&self.locals[core.min(self.locals.len() - 1)], off, size),
            Region::Extra(i) => self.extra[i].read(off, size),
            Region::Io => 0,
        })
    }

    /// Store the low `size` bytes of `val`, as seen by `core`.
    #[inline]
    pub fn store(
        &mut self,
        core: usize,
        addr: u32,
        size: u32,
        val: u32,
    ) -> Result<StoreEffect, MemFault> {
        let (r, off) = self.region(addr).ok_or(MemFault::Unmapped(addr))?;
        if off as u64 + size as u64 > self.region_len(r) as u64 {
            return Err(MemFault::Crosses(addr));
        }
        match r {
            Region::Dram => {
                self.dram.write(off, size, val);
                if let (Some(t), Some(f)) = (self.tohost, self.fromhost) {
                    let hi = t.wrapping_add(4);
                    if (addr as u64) < hi as u64 + 4 && (hi as u64) < addr as u64 + size as u64 {
                        return Ok(self.htif_command(t, f));
                    }
                } else if let Some(t) = self.tohost {
                    if addr <= t && t < addr + size && val != 0 {
                        let v = self.dram.read(t - self.cfg.dram_base, 4);
                        if v & 1 == 1 {
                            return Ok(StoreEffect::Exit(v >> 1));
                        }
                    }
                }
            }
            Region::Local => {
                let i = core.min(self.locals.len() - 1);
                write_slice(&mut self.locals[i], off, size, val)
            }
            Region::Extra(i) => {
                self.extra[i].write(off, size, val);
                if let Some((ri, ring)) = &mut self.cout {
                    if *ri == i {
                        if let Some((a, b)) = ring.touched(addr, size) {
                            let region_off = ring.base_addr() - self.cfg.extra[i].0;
                            ring.drain(&mut self.extra[i], region_off, a, b);
                        }
                    }
                }
            }
            Region::Io => {
                return match addr {
                    IO_CONSOLE => Ok(StoreEffect::Console(val as u8)),
                    IO_EXIT => Ok(StoreEffect::Exit(val)),
                    _ => Err(MemFault::Unmapped(addr)),
                }
            }
        }
        Ok(StoreEffect::None)
    }

    /// Fast path: an aligned word load from DRAM, or `None` for anything else (the caller
    /// then uses [`Memory::load`]).
    #[inline(always)]
    pub fn load_word_fast(&self, addr: u32) -> Option<u32> {
        let d = addr.wrapping_sub(self.cfg.dram_base);
        (d & 3 == 0 && self.dram_holds_word(d)).then(|| self.dram.read_word_aligned(d))
    }

    /// Is the whole word at DRAM offset `d` inside DRAM (its size need not be a multiple
    /// of 4)?
    #[inline(always)]
    fn dram_holds_word(&self, d: u32) -> bool {
        Span::new(0, self.cfg.dram_size).contains(Span::new(d, 4))
    }

    /// Can an aligned word store to `addr` take the fast path (plain DRAM, not `tohost`)?
    #[inline(always)]
    pub fn store_word_is_fast(&self, addr: u32) -> bool {
        let d = addr.wrapping_sub(self.cfg.dram_base);
        // The HTIF words (tohost and its high half) need the full store path.
        let htif = self
            .tohost
            .is_some_and(|t| Span::new(addr, 4).overlaps(Span::new(t, 8)));
        d & 3 == 0 && self.dram_holds_word(d) && !htif
    }

    /// Does `span` share a byte with the HTIF words (`tohost` and its high half), which
    /// stores must take the full path for?
    #[inline(always)]
    pub fn overlaps_htif(&self, span: Span) -> bool {
        self.tohost.is_some_and(|t| span.overlaps(Span::new(t, 8)))
    }

    /// Fast path for consecutive aligned words of DRAM at `addr` (one range check, one page):
    /// fills `out` and returns true, or returns false (nothing read).
    pub fn load_words_fast(&self, addr: u32, out: &mut [u32]) -> bool {
        let d = addr.wrapping_sub(self.cfg.dram_base);
        Span::new(0, self.cfg.dram_size).contains(Span::new(d, 4 * out.len() as u32))
            && self.dram.read_words(d, out)
    }

    /// Fast path for a store of consecutive aligned words of plain DRAM at `addr` (not the
    /// HTIF words; one range check, one page): writes and returns true, or returns false
    /// (nothing written).
    pub fn store_words_fast(&mut self, addr: u32, vals: &[u32]) -> bool {
        let d = addr.wrapping_sub(self.cfg.dram_base);
        let span = Span::new(addr, 4 * vals.len() as u32);
        let htif = self.tohost.is_some_and(|t| span.overlaps(Span::new(t, 8)));
        !htif
            && Span::new(0, self.cfg.dram_size).contains(Span::new(d, span.len))
            && self.dram.write_words(d, vals)
    }

    /// The host address of the whole DRAM page ([`DRAM_PAGE_BYTES`], from a multiple of it
    /// above the DRAM base) that holds `addr`, if that page lies entirely inside DRAM and is
    /// allocated; its aligned words are the ones [`Memory::load_word_fast`] reads and
    /// [`Memory::store_word_fast`] writes, little-endian. For a block engine's translated
    /// code, which reads and writes them directly while it holds the memory borrowed: the
    /// address stays valid as long as this `Memory` does (pages are never freed or moved).
    pub fn dram_page_ptr(&mut self, addr: u32) -> Option<*mut u8> {
        let d = addr.wrapping_sub(self.cfg.dram_base) & !(DRAM_PAGE_BYTES - 1);
        if !Span::new(0, self.cfg.dram_size).contains(Span::new(d, DRAM_PAGE_BYTES)) {
            return None;
        }
        self.dram.page_ptr(d)
    }

    /// Fast path store; only valid where [`Memory::store_word_is_fast`] said so.
    #[inline(always)]
    pub fn store_word_fast(&mut self, addr: u32, val: u32) {
        self.dram
            .write_word_aligned(addr.wrapping_sub(self.cfg.dram_base), val);
    }

    /// Copy bytes into memory (program loading). Fails on the first unmapped byte.
    pub fn write_bytes(&mut self, core: usize, addr: u32, bytes: &[u8]) -> Result<(), MemFault> {
        for (i, &b) in bytes.iter().enumerate() {
            let a = addr
                .checked_add(i as u32)
                .ok_or(MemFault::Unmapped(u32::MAX))?;
            if let Some((Region::Io, _)) = self.region(a) {
                return Err(MemFault::ReadOnly(a));
            }
            self.store(core, a, 1, b as u32)?;
        }
        Ok(())
    }

    /// Read bytes (for dumps and tests). Fails on the first unmapped byte.
    pub fn read_bytes(&self, core: usize, addr: u32, len: usize) -> Result<Vec<u8>, MemFault> {
        (0..len)
            .map(|i| {
                self.load(core, addr.wrapping_add(i as u32), 1)
                    .map(|v| v as u8)
            })
            .collect()
    }

    /// Bytes of host memory the DRAM currently uses (sparse pages).
    pub fn resident_bytes(&self) -> usize {
        self.dram.resident_bytes()
    }
}

#[inline]
fn read_slice(s: &[u8], off: u32, size: u32) -> u32 {
    let o = off as usize;
    match size {
        1 => s[o] as u32,
        2 => u16::from_le_bytes(dram::word(&s[o..o + 2])) as u32,
        _ => u32::from_le_bytes(dram::word(&s[o..o + 4])),
    }
}

#[inline]
fn write_slice(s: &mut [u8], off: u32, size: u32, val: u32) {
    let o = off as usize;
    let b = val.to_le_bytes();
    s[o..o + size as usize].copy_from_slice(&b[..size as usize]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mem() -> Memory {
        Memory::new(MemConfig {
            cores: 2,
            ..MemConfig::default()
        })
        .unwrap()
    }

    #[test]
    fn the_word_fast_paths_agree_with_the_checked_access_at_the_end_of_dram() {
        // Every DRAM size around a word boundary, every offset near the end: the fast paths
        // take a word exactly when the checked access can, i.e. when all four bytes exist.
        for size in 4096..4100u32 {
            let mut m = Memory::new(MemConfig {
                dram_size: size,
                ..MemConfig::default()
            })
            .unwrap();
            for d in size - 12..size + 4 {
                let a = DRAM_BASE + d;
                let whole = d % 4 == 0 && d + 4 <= size;
                assert_eq!(m.load_word_fast(a).is_some(), whole, "load {size} {d}");
                assert_eq!(m.store_word_is_fast(a), whole, "store {size} {d}");
                if d % 4 == 0 {
                    assert_eq!(m.load(0, a, 4).is_ok(), whole, "checked load {size} {d}");
                    assert_eq!(
                        m.store(0, a, 4, 1).is_ok(),
                        whole,
                        "checked store {size} {d}"
                    );
                }
            }
        }
    }

    #[test]
    fn dram_round_trip_and_misaligned() {
        let mut m = mem();
        m.store(0, DRAM_BASE + 0xfffe, 4, 0xdead_beef).unwrap(); // crosses a 64 KiB page
        assert_eq!(m.load(0, DRAM_BASE + 0xfffe, 4).unwrap(), 0xdead_beef);
        assert_eq!(m.load(0, DRAM_BASE + 0xffff, 2).unwrap(), 0xadbe);
        assert_eq!(
            m.load(0, DRAM_BASE + 0x0234_0000, 4).unwrap(),
            0,
            "untouched DRAM reads 0"
        );
    }

    #[test]
    fn shared_memory_is_per_core() {
        let mut m = mem();
        m.store(0, LOCAL_BASE + 8, 4, 7).unwrap();
        m.store(1, LOCAL_BASE + 8, 4, 9).unwrap();
        assert_eq!(m.load(0, LOCAL_BASE + 8, 4).unwrap(), 7);
        assert_eq!(m.load(1, LOCAL_BASE + 8, 4).unwrap(), 9);
    }

    #[test]
    fn unmapped_and_edges_fault() {
        let mut m = mem();
        assert_eq!(m.load(0, 0x1000, 4), Err(MemFault::Unmapped(0x1000)));
        assert_eq!(m.store(0, 0x10, 1, 0), Err(MemFault::Unmapped(0x10)));
        let last = LOCAL_BASE + (16 << 10) - 2;
        assert_eq!(m.load(0, last, 4), Err(MemFault::Crosses(last)));
        assert_eq!(
            m.store(0, IO_BASE + 0x40, 4, 1),
            Err(MemFault::Unmapped(IO_BASE + 0x40))
        );
    }

    #[test]
    fn io_and_tohost() {
        let mut m = mem();
        assert_eq!(
            m.store(0, IO_CONSOLE, 1, b'A' as u32),
            Ok(StoreEffect::Console(b'A'))
        );
        assert_eq!(m.store(0, IO_EXIT, 4, 3), Ok(StoreEffect::Exit(3)));
        m.set_tohost(Some(DRAM_BASE + 0x1000));
        assert_eq!(
            m.store(0, DRAM_BASE + 0x1000, 4, 1),
            Ok(StoreEffect::Exit(0))
        );
        assert_eq!(
            m.store(0, DRAM_BASE + 0x1000, 4, (5 << 1) | 1),
            Ok(StoreEffect::Exit(5))
        );
        assert_eq!(m.store(0, DRAM_BASE + 0x1000, 4, 0), Ok(StoreEffect::None));
    }

    fn htif_mem() -> Memory {
        let mut m = mem();
        m.set_tohost(Some(DRAM_BASE + 0x1000));
        m.set_fromhost(Some(DRAM_BASE + 0x1008));
        m
    }

    #[test]
    fn htif_console_low_then_high() {
        let mut m = htif_mem();
        let t = DRAM_BASE + 0x1000;
        // 'a' is odd: the low-word store alone must not exit in 64-bit mode.
        assert_eq!(m.store(0, t, 4, b'a' as u32), Ok(StoreEffect::None));
        assert_eq!(
            m.store(0, t + 4, 4, 0x0101_0000),
            Ok(StoreEffect::Console(b'a'))
        );
        assert_eq!(m.load(0, t, 4), Ok(0), "tohost cleared");
        assert_eq!(m.load(0, t + 4, 4), Ok(0));
        assert_eq!(
            m.load(0, t + 8, 4),
            Ok(0x100 | b'a' as u32),
            "fromhost answer"
        );
        assert_eq!(m.load(0, t + 12, 4), Ok(0x0101_0000));
    }

    #[test]
    fn htif_exit_in_64_bit_mode() {
        let mut m = htif_mem();
        let t = DRAM_BASE + 0x1000;
        assert_eq!(m.store(0, t, 4, (9 << 1) | 1), Ok(StoreEffect::None));
        assert_eq!(m.store(0, t + 4, 4, 0), Ok(StoreEffect::Exit(9)));
        let mut m = htif_mem();
        assert_eq!(m.store(0, t, 4, 1), Ok(StoreEffect::None));
        assert_eq!(m.store(0, t + 4, 4, 0), Ok(StoreEffect::Exit(0)));
        // A byte store into the high word also hands the command over.
        let mut m = htif_mem();
        assert_eq!(m.store(0, t, 1, b'Z' as u32), Ok(StoreEffect::None));
        assert_eq!(m.store(0, t + 6, 2, 0x0101), Ok(StoreEffect::Console(b'Z')));
        // An unknown device is acknowledged and ignored; an even device-0 payload too.
        assert_eq!(m.store(0, t + 4, 4, 0x0300_0000), Ok(StoreEffect::None));
        assert_eq!(m.load(0, t + 4, 4), Ok(0));
        assert_eq!(m.store(0, t, 4, 4), Ok(StoreEffect::None));
        assert_eq!(m.store(0, t + 4, 4, 0), Ok(StoreEffect::None));
    }

    #[test]
    fn htif_legacy_mode_unchanged_without_fromhost() {
        let mut m = mem();
        let t = DRAM_BASE + 0x1000;
        m.set_tohost(Some(t));
        assert_eq!(m.store(0, t, 4, b'a' as u32), Ok(StoreEffect::Exit(48)));
        assert_eq!(m.store(0, t + 4, 4, 0x0101_0000), Ok(StoreEffect::None));
    }

    #[test]
    fn bad_configs_are_errors() {
        let bad = |c: MemConfig| Memory::new(c).is_err();
        assert!(bad(MemConfig {
            dram_size: 0,
            ..MemConfig::default()
        }));
        assert!(bad(MemConfig {
            dram_base: 0xf000_0000,
            dram_size: 0x2000_0000,
            ..MemConfig::default()
        }));
        assert!(bad(MemConfig {
            local_base: 0x8000_1000,
            ..MemConfig::default()
        }));
        assert!(bad(MemConfig {
            extra: vec![(0xffff_fe00, 0x1000)],
            ..MemConfig::default()
        }));
        // Without the I/O page the top of the address space can be RAM.
        let top = vec![(0xffff_f000, 0x1000)];
        assert!(!bad(MemConfig {
            extra: top.clone(),
            io_page: false,
            ..MemConfig::default()
        }));
    }

    #[test]
    fn without_the_io_page_its_addresses_are_plain_ram() {
        let mut m = Memory::new(MemConfig {
            extra: vec![(0xffff_f000, 0x1000)],
            io_page: false,
            ..MemConfig::default()
        })
        .unwrap();
        assert_eq!(m.store(0, IO_CONSOLE, 4, 65), Ok(StoreEffect::None));
        assert_eq!(m.load(0, IO_CONSOLE, 4), Ok(65));
        assert_eq!(m.store(0, 0xffff_fffc, 4, 7), Ok(StoreEffect::None));
        assert_eq!(m.load(0, 0xffff_fffc, 4), Ok(7));
    }
}
