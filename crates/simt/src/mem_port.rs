//! The memory port of a block engine ([`MemPort`]): word loads and stores of a warp's
//! active lanes on the interpreter's direct path, recorded in a super-step over several
//! warps (`step_mem.rs`).

use crate::counters::Stats;
use crate::step_mem::{StepMem, Write};
use weft_mem::{Memory, Span};

/// May a word store to `addr` skip the full store path (an aligned word of plain DRAM, not
/// the HTIF words, no byte of it inside decoded code)? The one test of both engines' direct
/// store paths (`Issue::store`, `MemPort`): the whole word is checked against the code range,
/// since an aligned word can begin below code that starts at 2 mod 4.
#[inline(always)]
pub(crate) fn direct_word_store(mem: &weft_mem::Memory, code: Span, addr: u32) -> bool {
    mem.store_word_is_fast(addr) && !code.overlaps(Span::new(addr, 4))
}

/// The memory side of a [`PrivateRun`](crate::engine::PrivateRun): word loads and stores of the warp's active lanes,
/// done only when every lane takes the direct path the interpreter would take (an aligned
/// word of plain DRAM; for stores also outside decoded code, not the HTIF words, with no LR
/// reservation open), counted as the interpreter counts them. Anything else is refused
/// before any lane is touched, and the interpreter executes the instruction. In a super-step
/// over several warps every access is also recorded for the warp (`step_mem.rs`), and refused
/// if another warp of the step wrote a word it reads, or read or wrote a word it writes.
pub struct MemPort<'a> {
    pub(crate) mem: &'a mut Memory,
    /// The decoded-code range (a store there is the interpreter's).
    pub(crate) code: Span,
    pub(crate) stats: &'a mut Stats,
    pub(crate) reservations: bool,
    pub(crate) mask: u32,
    /// In a super-step over several warps: the step's records and the warp's index in them.
    pub(crate) step: Option<(&'a mut StepMem, usize)>,
}

impl MemPort<'_> {
    /// The warp's lane mask.
    pub fn mask(&self) -> u32 {
        self.mask
    }

    /// The DRAM base address (pages of [`MemPort::direct_page`] are counted from it).
    pub fn dram_base(&self) -> u32 {
        self.mem.config().dram_base
    }

    /// For a block engine's own direct path: the host address of the DRAM page
    /// ([`weft_mem::DRAM_PAGE_BYTES`] from a multiple of it above the DRAM base) holding
    /// `addr`, if every aligned word of it takes the interpreter's direct path for a load
    /// (`store` false) or for a store too (`store`: no byte of the page in decoded code or in
    /// the HTIF words, no LR reservation open) — and only on a run of one warp alone (a
    /// super-step over several records every access). The engine may then read (and for
    /// `store` write) the page's words there itself, little-endian, while it holds this port,
    /// provided it counts them with [`MemPort::count_direct`]; the page stays where it is.
    pub fn direct_page(&mut self, addr: u32, store: bool) -> Option<*mut u8> {
        if self.step.is_some() || (store && self.reservations) {
            return None;
        }
        let size = weft_mem::DRAM_PAGE_BYTES;
        let base = self.dram_base();
        let page = addr.wrapping_sub(base) & !(size - 1);
        let span = Span::new(base.wrapping_add(page), size);
        if store && (self.code.overlaps(span) || self.mem.overlaps_htif(span)) {
            return None;
        }
        self.mem.dram_page_ptr(addr)
    }

    /// Count word loads and stores the engine did itself on [`MemPort::direct_page`]s, each
    /// one instruction of the warp (every active lane's word), as the interpreter counts them.
    pub fn count_direct(&mut self, loads: u64, stores: u64) {
        let n = u64::from(self.mask.count_ones());
        self.stats.loads += loads * n;
        self.stats.stores += stores * n;
    }

    /// `lw`: each active lane reads the word at `addrs[l]` into `out[l]` (the inactive lanes
    /// of `out` stay as they were). False if some lane needs the interpreter: then nothing
    /// was read and `out` is unchanged (so `out` may be the destination register itself).
    pub fn load_words(&mut self, addrs: &[u32; 32], out: &mut [u32; 32]) -> bool {
        if self.step.is_some() {
            return self.load_words_step(addrs, out);
        }
        let m = self.mask;
        if let Some(n) = consecutive(m, addrs) {
            if self.mem.load_words_fast(addrs[0], &mut out[..n]) {
                self.stats.loads += n as u64;
                return true;
            }
        }
        // Every active lane reading one word (a broadcast): one read.
        let first = addrs[m.trailing_zeros() as usize & 31];
        let done = if broadcast(m, addrs, first) {
            self.mem
                .load_word_fast(first)
                .map(|v| fill(m, out, v))
                .is_some()
        } else {
            self.load_lanes(addrs, out)
        };
        if done {
            self.stats.loads += m.count_ones() as u64;
        }
        done
    }

    /// Each active lane's word, lane by lane, into `out`; false (`out` unchanged) if one is
    /// off the direct path.
    fn load_lanes(&self, addrs: &[u32; 32], out: &mut [u32; 32]) -> bool {
        let mut words = *out;
        for l in crate::lane::lanes(self.mask) {
            match self.mem.load_word_fast(addrs[l]) {
                Some(v) => words[l] = v,
                None => return false,
            }
        }
        *out = words;
        true
    }

    /// `sw`: each active lane writes `vals[l]` to `addrs[l]`. False (nothing written) if some
    /// lane needs the interpreter.
    pub fn store_words(&mut self, addrs: &[u32; 32], vals: &[u32; 32]) -> bool {
        let m = self.mask;
        if self.reservations {
            return false;
        }
        if self.step.is_some() {
            return self.store_words_step(addrs, vals);
        }
        if let Some(n) = consecutive(m, addrs) {
            let outside = !self
                .code
                .overlaps(weft_mem::Span::new(addrs[0], 4 * n as u32));
            if outside && self.mem.store_words_fast(addrs[0], &vals[..n]) {
                self.stats.stores += n as u64;
                return true;
            }
        }
        if !self.stores_direct(addrs) {
            return false;
        }
        for l in crate::lane::lanes(m) {
            self.mem.store_word_fast(addrs[l], vals[l]);
        }
        self.stats.stores += m.count_ones() as u64;
        true
    }

    /// `lb`/`lbu`/`lh`/`lhu` of a warp with one active lane (a block engine's scalar
    /// translation, [`crate::engine::is_scalar_memory`]): the `size` (1 or 2) bytes at
    /// `addr`, zero-extended, if they are an aligned part of DRAM (where the interpreter's
    /// load is a plain read), counted as the interpreter counts the load; `None` (nothing
    /// read) for anything else, and in a super-step over several warps (which records words).
    pub fn load_sub(&mut self, addr: u32, size: u32) -> Option<u32> {
        if self.step.is_some() || self.mask.count_ones() != 1 || !self.plain_sub(addr, size) {
            return None;
        }
        let v = self.mem.load(0, addr, size).ok()?;
        self.stats.loads += 1;
        Some(v)
    }

    /// `sb`/`sh` of a warp with one active lane: the low `size` (1 or 2) bytes of `v` to
    /// `addr`, if they are an aligned part of DRAM outside the decoded code and the HTIF
    /// words and no LR reservation is open (where the interpreter's store is a plain write),
    /// counted as the interpreter counts it; false (nothing written) for anything else, and
    /// in a super-step over several warps.
    pub fn store_sub(&mut self, addr: u32, size: u32, v: u32) -> bool {
        let span = Span::new(addr, size);
        if self.step.is_some()
            || self.reservations
            || self.mask.count_ones() != 1
            || !self.plain_sub(addr, size)
            || self.code.overlaps(span)
            || self.mem.overlaps_htif(span)
        {
            return false;
        }
        if self.mem.store(0, addr, size, v).is_err() {
            return false;
        }
        self.stats.stores += 1;
        true
    }

    /// Are the `size` bytes at `addr` aligned and inside DRAM?
    fn plain_sub(&self, addr: u32, size: u32) -> bool {
        addr & (size - 1) == 0 && self.mem.is_dram(addr) && self.mem.is_dram(addr + (size - 1))
    }

    /// Does a store of every active lane take the interpreter's direct path?
    fn stores_direct(&self, addrs: &[u32; 32]) -> bool {
        crate::lane::lanes(self.mask).all(|l| direct_word_store(self.mem, self.code, addrs[l]))
    }

    /// [`MemPort::load_words`] in a super-step over several warps.
    fn load_words_step(&mut self, addrs: &[u32; 32], out: &mut [u32; 32]) -> bool {
        let m = self.mask;
        let Some((step, who)) = self.step.as_mut() else {
            return false;
        };
        let who = *who;
        if let Some(n) = consecutive(m, addrs) {
            // Recorded before the words are read, so that a refusal leaves `out` alone (a
            // record only ever refuses more, should the words then not be read here).
            let a = addrs[0];
            if !step.read_span(who, a, n) {
                return false;
            }
            if self.mem.load_words_fast(a, &mut out[..n]) {
                step.loads[who] += n as u64;
                return true;
            }
        }
        // Every active lane reading one word (a broadcast): one read, one record.
        let first = addrs[m.trailing_zeros() as usize & 31];
        if broadcast(m, addrs, first) {
            let Some(v) = self.mem.load_word_fast(first) else {
                return false;
            };
            if !step.read_span(who, first, 1) {
                return false;
            }
            fill(m, out, v);
            step.loads[who] += m.count_ones() as u64;
            return true;
        }
        let mut words = *out;
        if !self.load_lanes(addrs, &mut words) {
            return false;
        }
        let Some((step, who)) = self.step.as_mut() else {
            return false;
        };
        if !step.read(*who, || crate::lane::lanes(m).map(|l| addrs[l])) {
            return false;
        }
        *out = words;
        step.loads[*who] += m.count_ones() as u64;
        true
    }

    /// [`MemPort::store_words`] in a super-step over several warps (no reservation open):
    /// each word's old contents go to the warp's undo log before it is written.
    fn store_words_step(&mut self, addrs: &[u32; 32], vals: &[u32; 32]) -> bool {
        let m = self.mask;
        if let Some(n) = consecutive(m, addrs) {
            let a = addrs[0];
            let span = weft_mem::Span::new(a, 4 * n as u32);
            let Some((step, who)) = self.step.as_mut() else {
                return false;
            };
            let who = *who;
            if !self.code.overlaps(span) && !self.mem.overlaps_htif(span) {
                // Recorded as one span when the words lie in one page of DRAM (then the
                // memory's direct path takes them as one too); else lane by lane below.
                match step.write_span(who, a, n) {
                    None => {}
                    Some(Write::Refused) => return false,
                    Some(Write::Logged) => {
                        if self.mem.store_words_fast(a, &vals[..n]) {
                            step.stores[who] += n as u64;
                            return true;
                        }
                        return false;
                    }
                    Some(Write::Log) => {
                        let mut old = [0u32; 32];
                        if self.mem.load_words_fast(a, &mut old[..n])
                            && self.mem.store_words_fast(a, &vals[..n])
                        {
                            step.log(who, a, &old[..n]);
                            step.stores[who] += n as u64;
                            return true;
                        }
                        step.forget_write(a, n);
                        return false;
                    }
                }
            }
        }
        if !self.stores_direct(addrs) {
            return false;
        }
        let Some((step, who)) = self.step.as_mut() else {
            return false;
        };
        let who = *who;
        let n = m.count_ones() as usize;
        if !step.write(who, n, || crate::lane::lanes(m).map(|l| addrs[l])) {
            return false;
        }
        for l in crate::lane::lanes(m) {
            let old = self.mem.load_word_fast(addrs[l]).unwrap_or(0);
            step.log(who, addrs[l], &[old]);
            self.mem.store_word_fast(addrs[l], vals[l]);
        }
        step.stores[who] += n as u64;
        true
    }
}

/// If the active lanes are lanes 0 … n − 1 (every lane of a warp that has not diverged),
/// `Some(n)`.
#[inline]
fn prefix(mask: u32) -> Option<usize> {
    let n = mask.trailing_ones() as usize;
    (n > 0 && (n == 32 || mask >> n == 0)).then_some(n)
}

/// `v` into every active lane of `out`.
#[inline]
fn fill(mask: u32, out: &mut [u32; 32], v: u32) {
    match prefix(mask) {
        Some(n) => out[..n].fill(v),
        None => crate::lane::lanes(mask).for_each(|l| out[l] = v),
    }
}

/// Does every active lane address `first`? (For lanes 0 … n − 1 without an early exit, so
/// that the comparison is done on vectors: from lane 0, whole vectors as the translated code
/// stored them, which the host forwards from its stores.)
#[inline]
fn broadcast(mask: u32, addrs: &[u32; 32], first: u32) -> bool {
    match prefix(mask) {
        Some(n) => addrs[..n].iter().fold(0, |d, &a| d | (a ^ first)) == 0,
        None => crate::lane::lanes(mask).all(|l| addrs[l] == first),
    }
}

/// If the active lanes are lanes 0 … n − 1 and lane `l` addresses `addrs[0] + 4·l` (the
/// common case: each lane its own word of an array), `Some(n)`.
#[inline]
fn consecutive(mask: u32, addrs: &[u32; 32]) -> Option<usize> {
    let n = prefix(mask)?;
    // Without an early exit, so that the comparison is done on vectors.
    let a = addrs[0];
    let mut off = 0u32;
    for (l, &x) in addrs.iter().enumerate().take(n) {
        off |= x ^ a.wrapping_add(4 * l as u32);
    }
    (off == 0).then_some(n)
}
