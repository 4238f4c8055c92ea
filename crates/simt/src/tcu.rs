//! Vortex's tensor core unit in the functional model: `wmma`, `wmma.sp`, `wgmma` and `tcu.ld`.
//! Each is one warp-instruction that reads and writes several lanes' float registers at once
//! (as Vortex's warp-level ops do); SimX's micro-op sequence runs whole, in its order, within
//! the instruction. The arithmetic, the register permutation and the layouts are
//! `weft_sem::tcu`'s; this file connects them to the warp's registers, shared memory (`wgmma`'s
//! descriptors, relative to `local_mem_base`) and the warp's sparse-metadata store
//! (`Warp::tcu_meta`, filled by `tcu.ld`). The unit exists only in the Vortex profile (as in
//! SimX built with `VX_CFG_EXT_TCU_ENABLE`, `TCU_WGMMA_ENABLE` and `TCU_SPARSE_ENABLE`);
//! elsewhere the instructions are illegal.

use crate::machine::Issue;
use crate::trap::{mem_trap, Trap, TrapInfo};
use weft_isa::{FaultCode, Op};
use weft_sem::tcu::{self, Geometry, Kind, TcuError, WgFlags};

fn illegal(op: Op, why: String) -> Trap {
    Trap::from(TrapInfo {
        code: FaultCode::IllegalInstruction,
        addr: None,
        detail: format!("{}: {why}", op.name()),
    })
}

impl Issue<'_> {
    /// Execute a tensor-core instruction.
    pub(crate) fn tcu(&mut self) -> Result<(), Trap> {
        let Issue { c, w, i, pc, .. } = *self;
        let bad = |e: TcuError| illegal(i.op, e.to_string());
        if !self.m.cfg.profile.has_tcu() {
            return Err(illegal(
                i.op,
                "the tensor core unit exists only in the Vortex profile".into(),
            ));
        }
        let g = Geometry::new(self.m.cfg.lanes as u32).map_err(bad)?;
        let lmem_base = self.m.cfg.local_mem_base;
        let m = &mut *self.m;
        let warp = &mut m.cores[c].warps[w];
        let cells = (g.meta_banks() * g.meta_cols()) as usize;
        if warp.tcu_meta.len() != cells {
            warp.tcu_meta = vec![0; cells];
        }
        match i.op {
            Op::VxTcuLd => {
                let base = warp.uniform(i.rs1);
                let slot = (i.rd & 0xf) as u32;
                for (t, cell) in tcu::meta_load_cells(&g, slot) {
                    let addr = base.wrapping_add(4 * t);
                    warp.tcu_meta[cell] = m.mem.load(c, addr, 4).map_err(|e| mem_trap(e, false))?;
                    m.stats.loads += 1;
                }
            }
            Op::VxWmma | Op::VxWmmaSp => {
                crate::exec_fp::use_fp(warp)?;
                let kind = Kind::new(i.rs1, i.rd).map_err(bad)?;
                let meta = (i.op == Op::VxWmmaSp).then_some(&warp.tcu_meta[..]);
                tcu::wmma(&g, kind, meta, &mut warp.f, warp.mask).map_err(bad)?;
            }
            _ => {
                crate::exec_fp::use_fp(warp)?;
                let kind = Kind::new(i.rs1, i.rd).map_err(bad)?;
                tcu::wgmma_check(kind).map_err(bad)?;
                let flags = WgFlags::new(i.rs2);
                // Descriptors in a0 (A, when it comes from shared memory) and a1 (B).
                let descs = (warp.uniform(10), warp.uniform(11), lmem_base);
                let meta = flags.sparse.then_some(&warp.tcu_meta[..]);
                let mem = &m.mem;
                let mut load = |addr: u32, n: u32| mem.load(c, addr, n);
                tcu::wgmma(
                    &g,
                    kind,
                    flags,
                    descs,
                    meta,
                    &mut warp.f,
                    warp.mask,
                    &mut load,
                )
                .map_err(|e| mem_trap(e, false))?;
            }
        }
        warp.pc = pc.wrapping_add(i.len());
        Ok(())
    }
}
