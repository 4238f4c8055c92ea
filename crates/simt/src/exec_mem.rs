//! Executing memory instructions: loads, stores, LR/SC and AMOs, each as one lane loop over
//! the active lanes. Aligned word accesses to plain DRAM take the memory's direct path inside
//! the same loop (the decoded cache points `lw`/`sw`/`flw`/`fsw` straight here); everything
//! else goes through `weft-mem`'s checked access with its side effects (console, exit word,
//! code invalidation, breaking LR reservations).

use crate::lane::lanes;
use crate::machine::Issue;
use crate::mem_port::direct_word_store;
use crate::trap::{mem_trap, Trap, TrapInfo};
use weft_isa::{FaultCode, Op};
use weft_mem::{Span, StoreEffect};
use weft_sem::alu;

impl Issue<'_> {
    /// One lane's store, with its side effects (console, exit, code invalidation, LR).
    pub(crate) fn store_word(
        &mut self,
        c: usize,
        addr: u32,
        size: u32,
        v: u32,
    ) -> Result<(), Trap> {
        if self.m.bus.claims(addr) {
            return self.m.io_store(c, addr, size, v);
        }
        match self
            .m
            .mem
            .store(c, addr, size, v)
            .map_err(|e| mem_trap(e, true))?
        {
            StoreEffect::None => {}
            StoreEffect::Console(b) => self.m.put_console(b),
            StoreEffect::Exit(code) => {
                if self.m.exit.is_none() {
                    self.m.exit = Some(code)
                }
            }
        }
        self.m.code.invalidate(addr, size);
        if !self.m.reservations.is_empty() {
            self.break_reservations(c, Span::new(addr, size));
        }
        Ok(())
    }

    /// A store by core `c` wrote the bytes `stored`: every reservation whose word shares a byte
    /// with them is broken (on the same core, or on any core outside the per-core local
    /// memory).
    fn break_reservations(&mut self, c: usize, stored: Span) {
        let cores = &mut self.m.cores;
        self.m.reservations.retain(|&(rc, rw, rl)| {
            let warp = &mut cores[rc as usize].warps[rw as usize];
            let word = Span::new(warp.resv[rl as usize] & !3, 4);
            let same = stored.overlaps(word) && (rc as usize == c || stored.start < 0xff00_0000);
            if same {
                warp.resv_mask &= !(1 << rl);
            }
            !same && warp.resv_mask >> rl & 1 != 0
        });
    }
}

impl Issue<'_> {
    /// `lb`/`lh`/`lw`/`lbu`/`lhu`/`flw`: each active lane reads `rs1 + imm`.
    #[inline]
    pub(crate) fn load(&mut self) -> Result<(), Trap> {
        let Issue { c, w, i, pc, .. } = *self;
        let (size, fp) = match i.op {
            Op::Lb | Op::Lbu => (1, false),
            Op::Lh | Op::Lhu => (2, false),
            Op::Flw => (4, true),
            _ => (4, false),
        };
        let warp = &mut self.m.cores[c].warps[w];
        if fp {
            crate::exec_fp::use_fp(warp)?;
        }
        let (mem, bus, cycle) = (&self.m.mem, &self.m.bus, self.m.cycle);
        let base = warp.x[i.rs1 as usize];
        // The lanes' values gather in a copy of rd, written back once all have loaded: a load
        // in which some lane faults writes no register (the trap is precise).
        let mut out = if fp {
            warp.f[i.rd as usize]
        } else {
            warp.x[i.rd as usize]
        };
        for l in lanes(warp.mask) {
            let addr = base[l].wrapping_add(i.imm as u32);
            if size == 4 {
                if let Some(v) = mem.load_word_fast(addr) {
                    out[l] = v;
                    continue;
                }
            }
            if bus.claims(addr) {
                out[l] = bus
                    .load(cycle, c, addr, size)
                    .map_err(|e| crate::bus::bus_fault(false, e))?;
                continue;
            }
            match mem.load(c, addr, size) {
                Ok(v) => {
                    out[l] = match i.op {
                        Op::Lb => alu::sext8(v),
                        Op::Lh => alu::sext16(v),
                        _ => v,
                    }
                }
                Err(e) => return Err(mem_trap(e, false)),
            }
        }
        if fp {
            warp.f[i.rd as usize] = out;
        } else if i.rd != 0 {
            warp.x[i.rd as usize] = out;
        }
        self.m.stats.loads += warp.mask.count_ones() as u64;
        warp.pc = pc.wrapping_add(i.len());
        Ok(())
    }

    /// Vortex's packed loads into a float register's bits: `packlb.f fd, rs1, rs2` gathers
    /// the bytes at `rs1 + k·rs2` (k = 0…3) as bytes 0…3, `packlh.f` the halfwords at
    /// `rs1 + k·rs2` (k = 0, 1) as halves 0 and 1 (zero-extended loads, little-endian).
    pub(crate) fn packed_load(&mut self) -> Result<(), Trap> {
        let Issue { c, w, i, pc, .. } = *self;
        let (size, n) = if i.op == Op::VxPacklbF {
            (1, 4)
        } else {
            (2, 2)
        };
        let warp = &mut self.m.cores[c].warps[w];
        crate::exec_fp::use_fp(warp)?;
        let mut out = warp.f[i.rd as usize];
        for l in lanes(warp.mask) {
            let (base, stride) = (warp.x[i.rs1 as usize][l], warp.x[i.rs2 as usize][l]);
            let mut v = 0u32;
            for k in 0..n {
                let addr = base.wrapping_add(stride.wrapping_mul(k));
                let e = self
                    .m
                    .mem
                    .load(c, addr, size)
                    .map_err(|e| mem_trap(e, false))?;
                v |= e << (8 * size * k);
            }
            out[l] = v;
        }
        warp.f[i.rd as usize] = out;
        self.m.stats.loads += (warp.mask.count_ones() * n) as u64;
        warp.pc = pc.wrapping_add(i.len());
        Ok(())
    }

    /// `sb`/`sh`/`sw`/`fsw`: each active lane writes `rs2` to `rs1 + imm`. When every lane
    /// stores an aligned word to plain DRAM outside decoded code and no LR reservation is
    /// open (checked before any write), the words go straight to DRAM; otherwise each lane's
    /// store goes through [`Machine::store_word`] with its side effects.
    #[inline]
    pub(crate) fn store(&mut self) -> Result<(), Trap> {
        let Issue { c, w, i, pc, .. } = *self;
        let size = match i.op {
            Op::Sb => 1,
            Op::Sh => 2,
            _ => 4,
        };
        if i.op == Op::Fsw {
            crate::exec_fp::use_fp(&mut self.m.cores[c].warps[w])?;
        }
        let warp = &self.m.cores[c].warps[w];
        let mask = warp.mask;
        let base = warp.x[i.rs1 as usize];
        let vals = if i.op == Op::Fsw {
            warp.f[i.rs2 as usize]
        } else {
            warp.x[i.rs2 as usize]
        };
        let addr = |l: usize| base[l].wrapping_add(i.imm as u32);
        let direct = size == 4
            && self.m.reservations.is_empty()
            && lanes(mask).all(|l| direct_word_store(&self.m.mem, self.m.code.span(), addr(l)));
        for l in lanes(mask) {
            if direct {
                self.m.mem.store_word_fast(addr(l), vals[l]);
            } else {
                self.store_word(c, addr(l), size, vals[l])?;
            }
        }
        self.m.stats.stores += mask.count_ones() as u64;
        self.m.cores[c].warps[w].pc = pc.wrapping_add(i.len());
        Ok(())
    }

    /// `lr.w`/`sc.w`: per lane, a reservation on the word (kept in the warp and listed in
    /// `reservations` so that any store to it breaks it) and the conditional store.
    pub(crate) fn lr_sc(&mut self) -> Result<(), Trap> {
        let Issue { c, w, i, pc, .. } = *self;
        let mask = self.m.cores[c].warps[w].mask;
        for l in lanes(mask) {
            let addr = self.m.cores[c].warps[w].x[i.rs1 as usize][l];
            if addr & 3 != 0 {
                return Err(Trap::from(TrapInfo {
                    code: FaultCode::AmoMisaligned,
                    addr: Some(addr),
                    detail: String::new(),
                }));
            }
            if i.op == Op::LrW {
                let v = self
                    .m
                    .mem
                    .load(c, addr, 4)
                    .map_err(|e| mem_trap(e, false))?;
                let warp = &mut self.m.cores[c].warps[w];
                if i.rd != 0 {
                    warp.x[i.rd as usize][l] = v;
                }
                warp.resv[l] = addr;
                warp.resv_mask |= 1 << l;
                self.m.reservations.push((c as u16, w as u16, l as u8));
            } else {
                let warp = &mut self.m.cores[c].warps[w];
                let ok = warp.resv_mask >> l & 1 != 0 && warp.resv[l] == addr;
                warp.resv_mask &= !(1 << l);
                let v = warp.x[i.rs2 as usize][l];
                if ok {
                    self.store_word(c, addr, 4, v)?;
                }
                let warp = &mut self.m.cores[c].warps[w];
                if i.rd != 0 {
                    warp.x[i.rd as usize][l] = (!ok) as u32;
                }
            }
        }
        self.m.cores[c].warps[w].pc = pc.wrapping_add(i.len());
        Ok(())
    }

    /// The AMOs: per lane, read the word, store `f(old, rs2)`, return the old value.
    pub(crate) fn amo(&mut self) -> Result<(), Trap> {
        let Issue { c, w, i, pc, .. } = *self;
        let f: fn(u32, u32) -> u32 = match i.op {
            Op::AmoswapW => alu::amo_swap,
            Op::AmoaddW => alu::amo_add,
            Op::AmoxorW => alu::amo_xor,
            Op::AmoandW => alu::amo_and,
            Op::AmoorW => alu::amo_or,
            Op::AmominW => alu::amo_min,
            Op::AmomaxW => alu::amo_max,
            Op::AmominuW => alu::amo_minu,
            _ => alu::amo_maxu,
        };
        let mask = self.m.cores[c].warps[w].mask;
        for l in lanes(mask) {
            let warp = &self.m.cores[c].warps[w];
            let addr = warp.x[i.rs1 as usize][l];
            let operand = warp.x[i.rs2 as usize][l];
            if addr & 3 != 0 {
                return Err(Trap::from(TrapInfo {
                    code: FaultCode::AmoMisaligned,
                    addr: Some(addr),
                    detail: String::new(),
                }));
            }
            let old = self.m.mem.load(c, addr, 4).map_err(|e| mem_trap(e, true))?;
            self.store_word(c, addr, 4, f(old, operand))?;
            if i.rd != 0 {
                self.m.cores[c].warps[w].x[i.rd as usize][l] = old;
            }
        }
        self.m.stats.atomics += mask.count_ones() as u64;
        self.m.cores[c].warps[w].pc = pc.wrapping_add(i.len());
        Ok(())
    }
}
