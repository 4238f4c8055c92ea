//! The machine's side of Vortex's DXA copy engine (`weft_devices::dxa`, on the bus): the
//! `dxa.issue` instruction hands the engine a request built from lanes 0–3 of rs1 and rs2
//! (as `vx_dxa.h` spreads them with `wgather`), and each finished copy completes one
//! announced transaction (`expect_tx`) of the barriers it names, which may release them. The
//! host programs the descriptors through DCRs ([`Machine::dxa_dcr_write`]).

use crate::machine::{Issue, Machine};
use crate::trap::{Trap, TrapInfo};
use weft_devices::{Dxa, DxaRequest, DxaStats};
use weft_isa::FaultCode;

impl Issue<'_> {
    /// `dxa.issue rs1, rs2`: queue a copy on the engine; the warp goes on.
    pub(crate) fn dxa_issue(&mut self) -> Result<(), Trap> {
        let Issue { c, w, i, pc, .. } = *self;
        let illegal = |why: &str| {
            Trap::from(TrapInfo {
                code: FaultCode::IllegalInstruction,
                addr: None,
                detail: format!("dxa.issue: {why}"),
            })
        };
        if self.m.cfg.profile != crate::config::Profile::Vortex {
            return Err(illegal("the DXA engine exists only in the Vortex profile"));
        }
        if self.m.cfg.lanes < 4 {
            return Err(illegal("needs 4 lanes (its operands are in lanes 0-3)"));
        }
        let warp = &mut self.m.cores[c].warps[w];
        let a = warp.x[i.rs1 as usize];
        let b = warp.x[i.rs2 as usize];
        let meta = a[1];
        let req = DxaRequest {
            core: c,
            warp: w,
            slot: meta & 0xf,
            bar: meta >> 4 & 0x07ff_ffff,
            smem: a[0],
            coords: [a[2], a[3], b[0], b[1], b[2]],
            cta_mask: b[3],
        };
        warp.pc = pc.wrapping_add(i.len());
        let now = self.m.cycle;
        let dxa = self
            .m
            .bus
            .get_mut::<Dxa>()
            .expect("the bus has a DXA engine");
        dxa.issue(now, req);
        let next = weft_devices::BusDevice::next_event(dxa);
        self.m.bus.wake(next);
        Ok(())
    }
}

impl Machine {
    /// A host write of DXA descriptor DCR `addr` (`0x100..0x280`).
    pub fn dxa_dcr_write(&mut self, addr: u32, v: u32) -> Result<(), String> {
        self.dxa_mut().dcr_write(addr, v)
    }

    /// A host read of DXA descriptor DCR `addr`.
    pub fn dxa_dcr_read(&self, addr: u32) -> Result<u32, String> {
        self.bus
            .get::<Dxa>()
            .expect("the bus has a DXA engine")
            .dcr_read(addr)
    }

    /// The DXA engine's counters.
    pub fn dxa_stats(&self) -> DxaStats {
        self.bus.get::<Dxa>().map(Dxa::stats).unwrap_or_default()
    }

    /// Copies issued and not yet complete.
    pub fn dxa_pending(&self) -> usize {
        self.bus.get::<Dxa>().map(Dxa::pending).unwrap_or(0)
    }

    /// The cycle at which the next DXA copy lands (`u64::MAX`: none): a driver that skips
    /// cycles in which no warp can issue skips no further.
    pub fn dxa_next_event(&self) -> u64 {
        self.bus
            .get::<Dxa>()
            .map_or(u64::MAX, weft_devices::BusDevice::next_event)
    }

    fn dxa_mut(&mut self) -> &mut Dxa {
        self.bus.get_mut::<Dxa>().expect("the bus has a DXA engine")
    }

    /// Complete the transactions of the copies the engine finished (after the bus advanced).
    /// True if there were any.
    pub(crate) fn dxa_collect(&mut self) -> bool {
        let Some(dxa) = self.bus.get_mut::<Dxa>() else {
            return false;
        };
        let done = dxa.take_done();
        let any = !done.is_empty();
        for d in done {
            if let Some(f) = d.error {
                let code = if f.write {
                    FaultCode::StoreFault
                } else {
                    FaultCode::LoadFault
                };
                self.raise(d.core, d.warp, code, Some(f.addr), f.detail);
                continue;
            }
            for raw in d.bars {
                let index = crate::vortex::barrier_index(raw, self.cfg.barriers);
                let id = u32::try_from(index).unwrap_or(u32::MAX);
                if self.complete_tx(d.core, id).is_err() {
                    let slots = self.cores[d.core].barriers.len();
                    self.raise(
                        d.core,
                        d.warp,
                        FaultCode::BarrierFault,
                        None,
                        format!(
                            "dxa.issue: barrier id {raw:#x} (barrier {index} of {slots}) to complete"
                        ),
                    );
                }
            }
        }
        any
    }
}
