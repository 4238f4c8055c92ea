//! Comparing two machines' whole state, for the differential engine mode (`weft run --engine
//! diff`) and the tests that hold the engines to each other: the run's end, the cycle, every
//! warp's pc, mask, state, registers, fcsr and counters, the statistics report, the console
//! and DRAM. The first difference is described with both sides' values.

use crate::machine::Machine;

impl Machine {
    /// The first difference between `self` (named `a`) and `other` (`b`), or `None` if their
    /// state is the same.
    pub fn first_difference(&self, other: &Machine, a: &str, b: &str) -> Option<String> {
        macro_rules! same {
            ($what:expr, $x:expr, $y:expr) => {
                if $x != $y {
                    return Some(format!("{}: {a} has {:x?}, {b} has {:x?}", $what, $x, $y));
                }
            };
        }
        same!("cycle", self.cycle, other.cycle);
        same!("exit", self.exit, other.exit);
        same!("fault", self.fault, other.fault);
        for (c, (p, q)) in self.cores.iter().zip(&other.cores).enumerate() {
            same!(format!("core {c} next warp"), p.next, q.next);
            for (w, (x, y)) in p.warps.iter().zip(&q.warps).enumerate() {
                let at = |f: &str| format!("core {c} warp {w} {f}");
                same!(at("pc"), x.pc, y.pc);
                same!(at("mask"), x.mask, y.mask);
                same!(at("state"), x.state, y.state);
                for r in 0..32 {
                    same!(at(&format!("x{r}")), x.x[r], y.x[r]);
                    same!(at(&format!("f{r}")), x.f[r], y.f[r]);
                }
                same!(at("fflags"), x.fflags, y.fflags);
                same!(at("frm"), x.frm, y.frm);
                same!(at("counters"), x.stats, y.stats);
                same!(at("divergence stack depth"), x.stack.len(), y.stack.len());
            }
        }
        same!("console", self.console, other.console);
        if let Some(addr) = self.mem.first_dram_difference(&other.mem) {
            let word = |m: &Machine| m.mem.load(0, addr & !3, 4).ok();
            return Some(format!(
                "memory at {addr:#010x}: {a} has {:x?}, {b} has {:x?}",
                word(self),
                word(other)
            ));
        }
        same!("statistics", self.report(), other.report());
        None
    }
}
