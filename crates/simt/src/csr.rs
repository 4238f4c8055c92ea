//! CSR behaviour: what every named CSR reads and what a write does — the per-lane float CSRs,
//! identity and counter CSRs, and warp-core's bank (scheduler, cross-warp window, watchdog,
//! breakpoints, display counters), and under the Vortex profile Vortex's extra counter numbers.
//! Names and numbers live in `weft_isa::csr`.
//!
//! Warp-level CSRs are read once per instruction (so read side effects such as `warp_done`'s
//! clear happen once) and written once, with the operand of the last active lane.

use crate::lane::lanes;
use crate::machine::Issue;
use crate::trap::{mstatus, Trap, TrapInfo};
use crate::warp::WarpState;
use weft_isa::csr::{self as n, Access};
use weft_isa::{FaultCode, Op};

/// CSRs of units weft does not have (address translation, debug triggers): they read 0 and
/// ignore writes, as the specification allows for an absent unit.
fn reads_zero(csr: u16) -> bool {
    matches!(
        csr,
        n::SATP | n::TSELECT | n::TDATA1 | n::TDATA2 | n::TDATA3
    )
}

/// The PMP CSRs: `pmpcfg0`–`pmpcfg3` (index 0–3) or `pmpaddr0`–`pmpaddr15` (16 + index).
fn pmp_index(csr: u16) -> Option<usize> {
    match csr {
        n::PMPCFG0..=n::PMPCFG3 => Some((csr - n::PMPCFG0) as usize),
        n::PMPADDR0..=n::PMPADDR15 => Some(16 + (csr - n::PMPADDR0) as usize),
        _ => None,
    }
}

/// A `pmpcfg` write as the WARL fields keep it: 16 entries with every field WARL, as the
/// privileged specification allows (§3.7.1, "all PMP CSR fields are WARL and may be read-only
/// zero"). Per entry byte R, W, X and A (OFF, TOR, NA4, NAPOT: the granularity is 4 bytes, so
/// NA4 is selectable) are kept; L and the reserved bits 6:5 read 0 — no entry can be locked,
/// so PMP never restricts machine mode, weft's only mode, and has no effect on any access;
/// and the reserved R = 0, W = 1 reads W = 0. `pmpaddr` keeps all 32 bits (G = 0).
fn pmp_cfg(v: u32) -> u32 {
    let kept = v & 0x1f1f_1f1f;
    let r = kept & 0x0101_0101;
    kept & !(0x0202_0202 & !(r << 1))
}

/// A 64-bit counter `now` with its high (or low) half replaced by `v`.
fn with_half(now: u64, high: bool, v: u32) -> u64 {
    if high {
        now & 0xffff_ffff | (v as u64) << 32
    } else {
        now & !0xffff_ffff | v as u64
    }
}

fn illegal(detail: String) -> Trap {
    Trap::from(TrapInfo {
        code: FaultCode::IllegalInstruction,
        addr: None,
        detail,
    })
}

impl Issue<'_> {
    /// Read a warp-level CSR of warp `w`. `local` is false for cross-warp reads, which have
    /// no side effects on the target.
    pub(crate) fn read_csr(
        &mut self,
        c: usize,
        w: usize,
        csr: u16,
        pc: u32,
        local: bool,
    ) -> Result<u32, Trap> {
        let cycle = self.m.cycle;
        let frames = self.m.display().frames[c];
        let cfg = &self.m.cfg;
        let core = &mut self.m.cores[c];
        let active = core.active_mask();
        let warp = &mut core.warps[w];
        Ok(match csr {
            n::CYCLE | n::TIME | n::MCYCLE => cycle.wrapping_add(core.cycle_offset) as u32,
            n::CYCLEH | n::TIMEH | n::MCYCLEH => {
                (cycle.wrapping_add(core.cycle_offset) >> 32) as u32
            }
            n::INSTRET | n::MINSTRET => core.minstret() as u32,
            n::INSTRETH | n::MINSTRETH => (core.minstret() >> 32) as u32,
            n::THREAD_ID => 0,
            n::MHARTID => ((c * cfg.warps + w) * cfg.lanes) as u32,
            n::WARP_ID => w as u32,
            n::CORE_ID => c as u32,
            n::ACTIVE_WARPS | n::WARP_ACTIVE => {
                // A warp polling which warps run (the runtime's waits for other warps) gives
                // up the rest of its scheduling quantum: spinning on it would only burn it.
                core.quantum_left = 0;
                active
            }
            n::THREAD_MASK | n::TMASK => warp.mask,
            n::NUM_THREADS => cfg.lanes as u32,
            n::NUM_WARPS => cfg.warps as u32,
            n::NUM_CORES => cfg.cores as u32,
            n::LOCAL_MEM_BASE => cfg.local_mem_base,
            n::NUM_BARRIERS | n::BARRIER => cfg.barriers as u32,
            n::MISA => (1 << 30) | (1 << 0) | (1 << 2) | (1 << 5) | (1 << 8) | (1 << 12),
            n::MVENDORID => 0,
            x if reads_zero(x) => 0,
            x if pmp_index(x).is_some() => match pmp_index(x).unwrap_or_default() {
                k @ 0..=3 => warp.csr.pmpcfg[k],
                k => warp.csr.pmpaddr[k - 16],
            },
            x if n::hpm_counter(x).is_some() => {
                let (k, high) = n::hpm_counter(x).unwrap_or_default();
                let v = if k == n::HPM_FIRST {
                    // Thread-instructions retired before this one.
                    let all: u64 = core.warps.iter().map(|w| w.stats.thread_instructions).sum();
                    all - core.warps[w].mask.count_ones() as u64
                } else {
                    core.hpm[k]
                };
                if high {
                    (v >> 32) as u32
                } else {
                    v as u32
                }
            }
            n::MARCHID => 0x7765_6674,
            n::MIMPID => 1,
            n::MSTATUS => mstatus::read(warp.csr.mstatus),
            n::MIE => warp.csr.mie,
            n::MIP => warp.csr.mip,
            n::MTVEC => warp.csr.mtvec,
            n::MSCRATCH => warp.csr.mscratch,
            n::MEPC => warp.csr.mepc,
            n::MCAUSE => warp.csr.mcause,
            n::MTVAL => warp.csr.mtval,
            n::MEDELEG => warp.csr.medeleg,
            n::MIDELEG => warp.csr.mideleg,
            n::WARP_DONE => {
                let v = core.warp_done;
                if local {
                    core.warp_done = 0;
                }
                v
            }
            n::SPAWN_PC => core.spawn_pc,
            n::SPAWN_ARGS => core.spawn_args,
            n::WATCHDOG => warp.csr.watchdog,
            n::WATCHDOG_LIMIT => warp.csr.watchdog_limit,
            n::BREAK_PC => warp.csr.break_pc,
            n::FAULT_CODE => warp.csr.fault_code,
            n::FAULT_PC => warp.csr.fault_pc,
            n::FAULT_ADDR => warp.csr.fault_addr,
            n::SCANLINE => {
                let d = cfg.display;
                ((cycle / d.cycles_per_line as u64) % d.lines_per_frame as u64) as u32
            }
            // Counted by the display controller at each vblank while a warp of the core was
            // started (display.rs).
            n::DISPLAY_FRAMES => frames as u32,
            n::CYCLE_LO => {
                if local {
                    warp.csr.cycle_hi_latch = (cycle >> 32) as u32;
                }
                cycle as u32
            }
            n::CYCLE_HI => warp.csr.cycle_hi_latch,
            n::XWARP => warp.csr.xwarp,
            n::WARP_PC => {
                if local {
                    pc
                } else {
                    warp.pc
                }
            }
            n::DSTACK_DEPTH => warp.stack.len() as u32,
            n::CALL_DEPTH => warp.calls.depth() & 0xffff,
            n::LAUNCH => self.m.launches.begun(),
            x if (n::XW_BASE..n::XW_BASE + n::XW_SPAN).contains(&x) && local => {
                let target = warp.csr.xwarp as usize;
                if target >= cfg.warps {
                    return Err(illegal(format!("xwarp = {target} names no warp")));
                }
                return self.read_csr(c, target, x - n::XW_BASE + n::WARP_ACTIVE, pc, false);
            }
            _ => return Err(illegal(format!("CSR {csr:#05x} cannot be read here"))),
        })
    }
}

impl Issue<'_> {
    pub(crate) fn csr_op(&mut self) -> Result<(), Trap> {
        let Issue { c, w, i, pc, .. } = *self;
        let csr = i.imm as u16;
        if self.m.cfg.profile.cta_csrs() {
            // The CTA CSRs (read-only, per lane for the thread ids) and Vortex's counters
            // weft does not keep (they read 0; writes are ignored).
            let cta = self.m.cta_csrs(c, w);
            let is_cta = cta.read(csr, 0).is_some();
            if is_cta || crate::profile::extra_csr(self.m.cfg.profile, csr).is_some() {
                let swap = matches!(i.op, Op::Csrrw | Op::Csrrwi);
                if is_cta && (swap || i.rs1 != 0) {
                    return Err(illegal(format!("CTA CSR {csr:#05x} is read-only")));
                }
                let warp = &mut self.m.cores[c].warps[w];
                if i.rd != 0 {
                    for l in lanes(warp.mask) {
                        warp.x[i.rd as usize][l] = cta
                            .read(csr, l as u32)
                            .or(crate::profile::extra_csr(self.m.cfg.profile, csr))
                            .unwrap_or(0);
                    }
                }
                warp.pc = pc.wrapping_add(i.len());
                return Ok(());
            }
        }
        let info = n::csr_info(csr).ok_or_else(|| illegal(format!("no CSR {csr:#05x}")))?;
        let imm_form = matches!(i.op, Op::Csrrwi | Op::Csrrsi | Op::Csrrci);
        let swap = matches!(i.op, Op::Csrrw | Op::Csrrwi);
        let writes = swap || i.rs1 != 0;
        let reads = !(swap && i.rd == 0);
        if writes && info.access == Access::ReadOnly {
            return Err(illegal(format!("{} is read-only", info.name)));
        }
        let combine = |old: u32, v: u32| match i.op {
            Op::Csrrw | Op::Csrrwi => v,
            Op::Csrrs | Op::Csrrsi => old | v,
            _ => old & !v,
        };
        let mask = self.m.cores[c].warps[w].mask;
        if matches!(csr, n::FFLAGS | n::FRM | n::FCSR) {
            let warp = &mut self.m.cores[c].warps[w];
            crate::exec_fp::use_fp(warp)?;
            for l in lanes(mask) {
                let old = warp.float_csr(l, csr);
                let operand = if imm_form {
                    i.rs1 as u32
                } else {
                    warp.x[i.rs1 as usize][l]
                };
                if writes {
                    let v = combine(old, operand);
                    match csr {
                        n::FFLAGS => warp.fflags[l] = (v & 0x1f) as u8,
                        n::FRM => warp.frm[l] = (v & 7) as u8,
                        _ => {
                            warp.fflags[l] = (v & 0x1f) as u8;
                            warp.frm[l] = (v >> 5 & 7) as u8;
                        }
                    }
                }
                if i.rd != 0 {
                    warp.x[i.rd as usize][l] = old;
                }
            }
            warp.pc = pc.wrapping_add(i.len());
            return Ok(());
        }
        // Warp-level CSR: the operand is taken before rd is written (rd may equal rs1).
        let operand = if imm_form {
            i.rs1 as u32
        } else {
            self.m.cores[c].warps[w].uniform(i.rs1)
        };
        let old = if reads {
            self.read_csr(c, w, csr, pc, true)?
        } else {
            0
        };
        // rd is written before the CSR (a write may halt the group) and put back if the write
        // traps: a trapping instruction changes no register.
        let saved_rd = self.m.cores[c].warps[w].x[i.rd as usize];
        if i.rd != 0 {
            let lanes_n = self.m.cfg.lanes as u32;
            let (warps_n, core_id) = (self.m.cfg.warps as u32, c as u32);
            let warp = &mut self.m.cores[c].warps[w];
            for l in lanes(mask) {
                warp.x[i.rd as usize][l] = match csr {
                    n::THREAD_ID => l as u32,
                    n::MHARTID => (core_id * warps_n + w as u32) * lanes_n + l as u32,
                    _ => old,
                };
            }
        }
        self.m.cores[c].warps[w].pc = pc.wrapping_add(i.len());
        if writes {
            if let Err(t) = self.write_csr(csr, combine(old, operand)) {
                self.m.cores[c].warps[w].x[i.rd as usize] = saved_rd;
                return Err(t);
            }
        }
        Ok(())
    }

    fn write_csr(&mut self, csr: u16, v: u32) -> Result<(), Trap> {
        let Issue { c, w, .. } = *self;
        let full = self.m.cfg.full_mask();
        let cycle = self.m.cycle;
        let warps_n = self.m.cfg.warps;
        let core = &mut self.m.cores[c];
        let warp = &mut core.warps[w];
        match csr {
            n::MSTATUS => warp.csr.mstatus = v & mstatus::WRITABLE,
            n::MIE => warp.csr.mie = v,
            n::MIP => warp.csr.mip = v,
            // Direct mode only: the mode field is WARL and reads 0.
            n::MTVEC => warp.csr.mtvec = v & !3,
            // Vortex keeps one `mscratch` per core: `vx_spawn_threads` writes its scheduler
            // arguments there from warp 0 and the warps it spawns read them.
            n::MSCRATCH if self.m.cfg.profile.mscratch_per_core() => {
                for wp in &mut core.warps {
                    wp.csr.mscratch = v;
                }
            }
            n::MSCRATCH => warp.csr.mscratch = v,
            n::MEPC => warp.csr.mepc = v & !1,
            n::MCAUSE => warp.csr.mcause = v,
            n::MTVAL => warp.csr.mtval = v,
            n::MEDELEG => warp.csr.medeleg = v,
            n::MIDELEG => warp.csr.mideleg = v,
            n::MISA => {}
            x if reads_zero(x) => {}
            x if pmp_index(x).is_some() => match pmp_index(x).unwrap_or_default() {
                k @ 0..=3 => warp.csr.pmpcfg[k] = pmp_cfg(v),
                k => warp.csr.pmpaddr[k - 16] = v,
            },
            // The next instruction sees the value written: the writing one does not count.
            n::MINSTRET | n::MINSTRETH => {
                let now = core.minstret();
                let want = with_half(now, csr == n::MINSTRETH, v);
                core.instret_offset = core
                    .instret_offset
                    .wrapping_add(want.wrapping_sub(now).wrapping_sub(1));
            }
            n::MCYCLE | n::MCYCLEH => {
                let now = cycle.wrapping_add(core.cycle_offset);
                let want = with_half(now, csr == n::MCYCLEH, v);
                core.cycle_offset = core.cycle_offset.wrapping_add(want.wrapping_sub(now));
            }
            n::WARP_ACTIVE => self.m.activate(c, w, v),
            n::LAUNCH => {
                let now = self.m.counts();
                self.m.launches.write(v, now);
            }
            n::WARP_DONE => core.warp_done &= !v,
            n::SPAWN_PC => core.spawn_pc = v,
            n::SPAWN_ARGS => core.spawn_args = v,
            n::TMASK => {
                if v & full == 0 {
                    self.retire_group()?;
                } else {
                    warp.mask = v & full;
                }
            }
            n::BARRIER => {
                self.barrier(c, w, v & 0xffff, v >> 16, false)
                    .map_err(|code| {
                        Trap::from(TrapInfo {
                            code,
                            addr: None,
                            detail: format!(
                                "barrier write {v:#x} (id {}, count {})",
                                v & 0xffff,
                                v >> 16
                            ),
                        })
                    })?;
            }
            n::WATCHDOG => {
                warp.csr.watchdog = v & crate::warp::watchdog::WRITABLE;
                warp.csr.watchdog_kick = cycle;
            }
            n::WATCHDOG_LIMIT => warp.csr.watchdog_limit = v,
            n::BREAK_PC => warp.csr.break_pc = v,
            n::CALL_DEPTH => warp.calls.set_depth(v & 0xffff),
            n::XWARP => {
                if v as usize >= warps_n {
                    return Err(illegal(format!("xwarp = {v} names no warp")));
                }
                warp.csr.xwarp = v;
            }
            n::XW_BREAK_PC => {
                let t = warp.csr.xwarp as usize;
                let target = &mut core.warps[t];
                target.csr.break_pc = v;
                if target.state == WarpState::Breakpoint && target.pc != v {
                    target.state = WarpState::Running;
                }
            }
            _ => return Err(illegal(format!("CSR {csr:#05x} is not writable"))),
        }
        Ok(())
    }
}
