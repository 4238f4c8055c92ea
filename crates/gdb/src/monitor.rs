//! The stub's `monitor` commands: choose the lane whose registers gdb shows, and print what
//! gdb has no words for — the current warp's thread mask, divergence stack and warp-core CSRs,
//! every warp's state, the fault.

use gdbstub::common::Tid;
use weft_simt::Machine;
use weft_view::state;

/// What `monitor` commands look at: the lane whose registers gdb sees and the current warp
/// (the one that last stopped or stepped, or the one chosen with `monitor thread N`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Focus {
    /// The lane whose registers gdb sees.
    pub lane: usize,
    /// The warp `monitor` commands describe, as (core, warp).
    pub current: (usize, usize),
}

/// The thread id gdb shows for a warp: `1 + core × warps + warp`.
pub fn thread_id(m: &Machine, c: usize, w: usize) -> Tid {
    Tid::new(1 + c * m.cfg.warps + w).expect("non-zero")
}

/// The warp of a thread id, if the machine has it.
pub fn warp_of(m: &Machine, tid: Tid) -> Option<(usize, usize)> {
    let k = tid.get().checked_sub(1)?;
    let (c, w) = (k / m.cfg.warps, k % m.cfg.warps);
    (c < m.cores.len()).then_some((c, w))
}

/// The help text of `monitor help`.
pub const HELP: &str = "\
weft monitor commands (the current warp is the one that last stopped or stepped, or the one
chosen with `thread N`; N is the thread id gdb shows as Thread 1.N):
  thread [N] show / choose the current warp
  lane [N]   show / choose the lane whose registers gdb sees (then: maintenance flush register-cache)
  warp       the current warp: state, pc, thread mask, divergence stack
  mask       the current warp's thread mask, lane by lane
  stack      the current warp's divergence stack, top entry first
  csr        the current warp's warp-core CSRs and its core's scheduler CSRs
  warps      every warp of every core
  fault      the fault that ended the run, if any
";

/// Run one monitor command; the text to show.
pub fn command(m: &Machine, t: &mut Focus, cmd: &str) -> String {
    let mut words = cmd.split_whitespace();
    let (c, w) = t.current;
    let lanes = m.cfg.lanes;
    match (words.next(), words.next(), words.next()) {
        (Some("lane"), None, _) => format!("lane {}\n", t.lane),
        (Some("thread"), None, _) => format!("thread {}: core {c} warp {w}\n", thread_id(m, c, w)),
        (Some("thread"), Some(n), None) => match n.parse::<usize>().ok().and_then(Tid::new) {
            Some(tid) if warp_of(m, tid).is_some() => {
                let (c, w) = warp_of(m, tid).unwrap_or_default();
                t.current = (c, w);
                format!("thread {tid}: core {c} warp {w}\n")
            }
            _ => format!("no thread {n}\n"),
        },
        (Some("lane"), Some(n), None) => match n.parse::<usize>() {
            Ok(l) if l < lanes => {
                t.lane = l;
                format!(
                    "lane {l}: gdb now sees lane {l}'s registers (run `maintenance flush \
                     register-cache` if it cached the old ones)\n"
                )
            }
            _ => format!("lane must be a number from 0 to {}\n", lanes - 1),
        },
        (Some("warp"), None, _) => {
            format!(
                "thread {}\n{}",
                thread_id(m, c, w),
                state::warp_report(m, c, w)
            )
        }
        (Some("mask"), None, _) => {
            let mask = m.cores[c].warps[w].mask;
            let cells = state::mask_cells(mask, lanes);
            format!(
                "core {c} warp {w} thread mask {mask:#x} lanes {}..0 [{cells}]\n",
                lanes - 1
            )
        }
        (Some("stack"), None, _) => format!(
            "core {c} warp {w} divergence stack (top first):\n{}",
            state::stack_lines(&m.cores[c].warps[w], "  ")
        ),
        (Some("csr"), None, _) => {
            format!("core {c} warp {w} CSRs:\n{}", state::csr_report(m, c, w))
        }
        (Some("warps"), None, _) => state::machine_report(m),
        (Some("fault"), None, _) => match m.fault() {
            Some(f) => format!("{f}\n"),
            None => "no fault\n".into(),
        },
        (Some("help") | None, _, _) => HELP.into(),
        _ => format!("unknown monitor command '{}'\n{HELP}", cmd.trim()),
    }
}
