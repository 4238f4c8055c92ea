//! The machine's side of Vortex's DXA copy engine (`weft_devices::dxa`, on the bus): the
//! `dxa.issue` instruction hands the engine a request built from lanes 0–3 of rs1 and rs2
//! (as `vx_dxa.h` spreads them with `wgather`), and each finished copy completes one
//! announced transaction (`expect_tx`) of the barriers it names, which may release them. The
//! host programs the descriptors through DCRs
//! ([`crate::machine::Machine::dxa_dcr_write`]); those host calls and the completion of
//! finished copies are `Machine` methods in machine.rs (the machine is written in few files).

use crate::machine::Issue;
use crate::trap::{Trap, TrapInfo};
use weft_devices::{Dxa, DxaRequest};
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
