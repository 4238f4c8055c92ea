//! What a debugger or a whole-machine report needs beyond [`Machine::run`]: issue one
//! warp-instruction of a chosen warp (a debugger's single step), and read the run's pending
//! end (fault, exit code) and the cross-core barriers. Nothing here changes how a run behaves.

use crate::machine::{Barrier, FaultInfo, Machine};

impl Machine {
    /// Issue one warp-instruction of warp `w` of core `c` alone, outside the round-robin
    /// scheduler, and count one cycle: a debugger's single step of one warp while the others
    /// stay where they are. Returns false (and does nothing) if the warp is not running. The
    /// step is observed like any other; a fault or exit it causes is reported by the next
    /// [`Machine::run_until`].
    pub fn step_warp(&mut self, c: usize, w: usize) -> bool {
        let Some(warp) = self.cores.get(c).and_then(|core| core.warps.get(w)) else {
            return false;
        };
        if !warp.is_running() || self.exit.is_some() || self.fault.is_some() {
            return false;
        }
        // The display and the DMA engines catch up first, as at the start of any cycle.
        if self.cycle >= self.bus.next_event() {
            self.io_advance();
        }
        self.step(c, w);
        self.cycle += 1;
        true
    }

    /// The fault that ends the run, once a warp has faulted.
    pub fn fault(&self) -> Option<&FaultInfo> {
        self.fault.as_ref()
    }

    /// The exit code, once the program has written one.
    pub fn exit_code(&self) -> Option<u32> {
        self.exit
    }

    /// The cross-core barriers (`bar` with the global bit), by id.
    pub fn global_barriers(&self) -> &[Barrier] {
        &self.global_barriers
    }
}
