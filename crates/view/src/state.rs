//! Whole-machine state as text: for every warp of every core its state (running, waiting at a
//! barrier with the arrivals, halted, faulted…), pc with symbol and instruction, thread mask,
//! divergence stack entries with their fields, and call depth. `weft run` prints it after a
//! fault or deadlock line, and the GDB stub's `monitor` commands print parts of it.

use std::fmt::Write;
use weft_simt::divergence::{Entry, Reconv};
use weft_simt::warp::{Warp, WarpState};
use weft_simt::Machine;

/// A warp's state in a word or two (`running`, `barrier 0 (1 of 2 arrived)`, `idle`…).
pub fn warp_state(m: &Machine, c: usize, w: usize) -> String {
    let warp = &m.cores[c].warps[w];
    match warp.state {
        WarpState::Idle => "idle".into(),
        WarpState::Running => "running".into(),
        WarpState::Barrier { id, global } => {
            let b = if global {
                m.global_barriers().get(id as usize)
            } else {
                m.cores[c].barriers.get(id as usize)
            };
            let (got, need) = b.map(|b| (b.arrivals(), b.count)).unwrap_or((0, 0));
            format!(
                "waits at {}barrier {id} ({got} of {need} arrived)",
                if global { "global " } else { "" }
            )
        }
        WarpState::Breakpoint => "stopped at break_pc".into(),
        WarpState::SpawnWait { .. } => "waits in wspawn".into(),
        WarpState::Faulted => "faulted".into(),
    }
}

/// `0x80000010 <main+0x10>  addi a0, a0, 1` for the warp's pc (the instruction when it
/// decodes).
pub fn pc_line(m: &Machine, pc: u32) -> String {
    let mut s = format!("{pc:#010x}");
    if let Some(sym) = m.symbolize(pc) {
        let _ = write!(s, " <{sym}>");
    }
    if let Some(i) = decode_at(m, pc) {
        let _ = write!(s, "  {}", i.text(Some(pc)));
    }
    s
}

/// The instruction at `pc` as memory holds it, if it decodes.
pub fn decode_at(m: &Machine, pc: u32) -> Option<weft_isa::Inst> {
    let lo = m.mem.load(0, pc, 2).ok()?;
    let word = if weft_isa::Inst::len_of(lo as u16) == 2 {
        lo
    } else {
        m.mem.load(0, pc, 4).ok()?
    };
    weft_isa::Inst::decode(word).ok()
}

/// A mask as lanes, most significant first, `lanes` wide (`1100 0011`): `x` active, `.` not.
pub fn mask_cells(mask: u32, lanes: usize) -> String {
    (0..lanes)
        .rev()
        .map(|l| if mask >> l & 1 != 0 { 'x' } else { '.' })
        .collect()
}

/// One divergence stack entry, one line.
pub fn entry_line(e: &Entry) -> String {
    let mut s = format!(
        "source {:#010x} saved {:#x} parked {:#x}",
        e.source_pc, e.saved_mask, e.parked_mask
    );
    if e.parked_mask != 0 {
        let _ = write!(s, " (resume {:#010x})", e.resume_pc);
    }
    s.push_str(" waiting [");
    for (k, g) in e.waiting.iter().enumerate() {
        if k > 0 {
            s.push_str(", ");
        }
        let _ = write!(s, "{:#x} @ {:#010x}", g.mask, g.pc);
    }
    s.push(']');
    match e.reconv {
        Reconv::None => s.push_str(" reconverge at converge"),
        Reconv::At(p) => {
            let _ = write!(s, " reconverge at {p:#010x}");
        }
        Reconv::AtExit => s.push_str(" reconverge at return"),
    }
    let _ = write!(s, " depth {}", e.depth());
    s
}

/// The divergence stack of a warp, top entry first, each line indented by `indent`.
pub fn stack_lines(warp: &Warp, indent: &str) -> String {
    let mut s = String::new();
    let entries = warp.stack.entries();
    if entries.is_empty() {
        let _ = writeln!(s, "{indent}divergence stack empty");
    }
    for (k, e) in entries.iter().enumerate().rev() {
        // The bottom entries past the on-chip ones are in the warp's spill area.
        let spilled = if k < warp.stack.spilled() {
            "  (spilled)"
        } else {
            ""
        };
        let _ = writeln!(s, "{indent}#{k} {}{spilled}", entry_line(e));
    }
    s
}

/// One warp: a header line and its stack entries.
pub fn warp_report(m: &Machine, c: usize, w: usize) -> String {
    let warp = &m.cores[c].warps[w];
    let mut s = format!("  core {c} warp {w}: {}", warp_state(m, c, w));
    if warp.state == WarpState::Idle && warp.stats.warp_instructions == 0 {
        s.push_str(" (never started)\n");
        return s;
    }
    let _ = writeln!(
        s,
        "\n    pc {}\n    mask {:#x} [{}] (lanes {}..0)  call depth {}  instructions {}",
        pc_line(m, warp.pc),
        warp.mask,
        mask_cells(warp.mask, m.cfg.lanes),
        m.cfg.lanes - 1,
        warp.calls.depth(),
        warp.stats.warp_instructions
    );
    if warp.state == WarpState::Faulted {
        let code = weft_isa::FaultCode::from_code(warp.csr.fault_code)
            .map(|f| f.name())
            .unwrap_or("?");
        let _ = writeln!(
            s,
            "    fault {code} at {:#010x} address {:#010x}",
            warp.csr.fault_pc, warp.csr.fault_addr
        );
    }
    s.push_str(&stack_lines(warp, "    "));
    s
}

/// Every warp of every core, after a header naming the cycle.
pub fn machine_report(m: &Machine) -> String {
    let mut s = format!("machine state at cycle {}:\n", m.cycle);
    for c in 0..m.cores.len() {
        for w in 0..m.cores[c].warps.len() {
            s.push_str(&warp_report(m, c, w));
        }
    }
    s
}

/// The warp's CSRs (warp-core bank and trap state) and its core's scheduler CSRs, one per
/// line.
pub fn csr_report(m: &Machine, c: usize, w: usize) -> String {
    let core = &m.cores[c];
    let k = &core.warps[w].csr;
    let rows: [(&str, u32); 17] = [
        ("warp_active", core.active_mask()),
        ("warp_done", core.warp_done),
        ("spawn_pc", core.spawn_pc),
        ("spawn_args", core.spawn_args),
        ("tmask", core.warps[w].mask),
        ("watchdog", k.watchdog),
        ("watchdog_limit", k.watchdog_limit),
        ("break_pc", k.break_pc),
        ("fault_code", k.fault_code),
        ("fault_pc", k.fault_pc),
        ("fault_addr", k.fault_addr),
        ("xwarp", k.xwarp),
        ("dstack_depth", core.warps[w].stack.len() as u32),
        ("mstatus", k.mstatus),
        ("mtvec", k.mtvec),
        ("mepc", k.mepc),
        ("mcause", k.mcause),
    ];
    let mut s = String::new();
    for (name, v) in rows {
        let _ = writeln!(s, "  {name:<15} {v:#010x}");
    }
    s
}
