//! The step record: what one warp-instruction did — who issued it, the lanes that executed it,
//! the registers it read and wrote with every executing lane's value, the memory each lane
//! touched, what the divergence unit did, and the fault if it faulted. It is the seam for
//! everything that watches the functional model: the text trace (`--trace`) is built from
//! it, and a timing model, trace export, a debugger or RTL lockstep attach as [`Observer`]s.
//!
//! Records are made only while an observer is attached (the plain run path stays as fast as
//! before): the machine notes the source registers and addresses before the instruction runs
//! and the destinations after, so no instruction handler knows about records.

pub use crate::divergence::DivEvents;
use crate::warp::Warp;
use weft_device::FaultInfo;
use weft_isa::{Inst, Op};

/// A register file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegFile {
    /// x0–x31.
    X,
    /// f0–f31.
    F,
}

/// One register and its value in every lane of the record's mask (`values[l]` for lane `l`;
/// lanes outside the mask are 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegValues {
    /// Which file.
    pub file: RegFile,
    /// Register number.
    pub index: u8,
    /// Per-lane values.
    pub values: Vec<u32>,
}

/// How a lane touched memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessKind {
    /// A load (`lb`…`lw`, `flw`, `lr.w`).
    Load,
    /// A store (`sb`…`sw`, `fsw`, `sc.w`).
    Store,
    /// An atomic read-modify-write.
    Amo,
}

/// One lane's memory access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneAccess {
    /// The lane.
    pub lane: u8,
    /// The byte address.
    pub addr: u32,
    /// Bytes.
    pub size: u8,
    /// Load, store or AMO.
    pub kind: AccessKind,
}

/// What one warp-instruction did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepRecord {
    /// The cycle it issued in.
    pub cycle: u64,
    /// Core.
    pub core: usize,
    /// Warp.
    pub warp: usize,
    /// Its pc.
    pub pc: u32,
    /// The instruction.
    pub inst: Inst,
    /// The lanes that executed it.
    pub mask: u32,
    /// The warp's pc after it.
    pub next_pc: u32,
    /// The warp's mask after it (another group's, after a divergence event).
    pub next_mask: u32,
    /// Source registers, with the values the executing lanes read.
    pub reads: Vec<RegValues>,
    /// Destination registers, with the values the executing lanes wrote.
    pub writes: Vec<RegValues>,
    /// Memory accesses, lane by lane.
    pub mem: Vec<LaneAccess>,
    /// Divergence events of the step.
    pub divergence: DivEvents,
    /// The fault, if the instruction faulted.
    pub fault: Option<FaultInfo>,
}

/// What one issued warp-instruction did, as much as a timing model needs and without the
/// register values (so it costs no allocation): made by [`Machine::issue`] into a buffer the
/// caller reuses.
#[derive(Clone, Debug)]
pub struct Issued {
    /// Its pc.
    pub pc: u32,
    /// The instruction.
    pub inst: Inst,
    /// The lanes that executed it.
    pub mask: u32,
    /// The warp's pc after it.
    pub next_pc: u32,
    /// The warp's mask after it.
    pub next_mask: u32,
    /// Divergence events of the step (including a reconvergence just before it issued).
    pub divergence: DivEvents,
    /// Bytes the step moved between the divergence stack and its spill area.
    pub stack_traffic: crate::divergence::StackTraffic,
    /// For a memory instruction, each executing lane's byte address (`addrs[l]` for lane
    /// `l` of `mask`; other entries are stale).
    pub addrs: [u32; 32],
}

impl Default for Issued {
    fn default() -> Self {
        Issued {
            pc: 0,
            inst: Inst::new(Op::Addi),
            mask: 0,
            next_pc: 0,
            next_mask: 0,
            divergence: DivEvents::default(),
            stack_traffic: Default::default(),
            addrs: [0; 32],
        }
    }
}

/// The registers an instruction reads and writes, from the instruction table's operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operands {
    /// Source registers (x0 left out), `srcs[..n_srcs]`.
    pub srcs: [(RegFile, u8); 3],
    /// How many of `srcs` are used.
    pub n_srcs: u8,
    /// The destination register, if it writes one (x0 left out).
    pub dst: Option<(RegFile, u8)>,
}

impl Operands {
    /// The source registers.
    pub fn sources(&self) -> &[(RegFile, u8)] {
        &self.srcs[..self.n_srcs as usize]
    }
}

/// Per op: its register operands as (file, field, written?), from the instruction table,
/// computed once.
fn operand_table() -> &'static [Vec<(RegFile, u8, bool)>] {
    static TABLE: std::sync::OnceLock<Vec<Vec<(RegFile, u8, bool)>>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        weft_isa::TABLE
            .iter()
            .map(|e| operands(e.op).collect())
            .collect()
    })
}

/// The registers `i` reads and writes.
#[inline]
pub fn operands_of(i: &Inst) -> Operands {
    let mut o = Operands {
        srcs: [(RegFile::X, 0); 3],
        n_srcs: 0,
        dst: None,
    };
    let Some(ops) = operand_table().get(i.op as usize) else {
        return o;
    };
    for &(file, f, written) in ops {
        let r = field(i, f);
        if file == RegFile::X && r == 0 {
            continue;
        }
        if written {
            o.dst = Some((file, r));
        } else if (o.n_srcs as usize) < o.srcs.len() {
            o.srcs[o.n_srcs as usize] = (file, r);
            o.n_srcs += 1;
        }
    }
    o
}

/// Registers an operand string (the instruction table's `args`) names, as (file, field,
/// written?) with field 0 = rd, 1 = rs1, 2 = rs2, 3 = rs3.
fn operands(op: Op) -> impl Iterator<Item = (RegFile, u8, bool)> {
    op.entry().args.chars().filter_map(|c| match c {
        'd' => Some((RegFile::X, 0, true)),
        's' => Some((RegFile::X, 1, false)),
        't' => Some((RegFile::X, 2, false)),
        'D' => Some((RegFile::F, 0, true)),
        'S' => Some((RegFile::F, 1, false)),
        'T' => Some((RegFile::F, 2, false)),
        'R' => Some((RegFile::F, 3, false)),
        'r' => Some((RegFile::X, 3, false)),
        _ => None,
    })
}

fn field(i: &Inst, f: u8) -> u8 {
    match f {
        0 => i.rd,
        1 => i.rs1,
        2 => i.rs2,
        _ => i.rs3,
    }
}

fn lane_values(warp: &Warp, lanes: usize, file: RegFile, r: u8, mask: u32) -> Vec<u32> {
    (0..lanes)
        .map(|l| {
            if mask >> l & 1 == 0 {
                0
            } else {
                match file {
                    RegFile::X => warp.x[r as usize][l],
                    RegFile::F => warp.f[r as usize][l],
                }
            }
        })
        .collect()
}

/// Bytes and kind of a memory instruction's per-lane access (`None` for any other).
pub fn memory_access(op: Op) -> Option<(u8, AccessKind)> {
    use Op::*;
    Some(match op {
        Lb | Lbu => (1, AccessKind::Load),
        Lh | Lhu => (2, AccessKind::Load),
        Lw | Flw | LrW => (4, AccessKind::Load),
        // Vortex's packed loads: the first element (the stride is not in the record).
        VxPacklbF => (1, AccessKind::Load),
        VxPacklhF => (2, AccessKind::Load),
        Sb => (1, AccessKind::Store),
        Sh => (2, AccessKind::Store),
        Sw | Fsw | ScW => (4, AccessKind::Store),
        AmoswapW | AmoaddW | AmoxorW | AmoandW | AmoorW | AmominW | AmomaxW | AmominuW
        | AmomaxuW => (4, AccessKind::Amo),
        _ => return None,
    })
}

/// The part of a record known before the instruction runs.
pub(crate) struct Before {
    pub pc: u32,
    pub mask: u32,
    pub inst: Inst,
    pub cycle: u64,
    pub reads: Vec<RegValues>,
    pub mem: Vec<LaneAccess>,
    pub had_fault: bool,
}

/// Note what an instruction of `warp` (of `lanes` lanes) will read and touch, before it runs
/// in `cycle`; `had_fault`: the machine had faulted already.
pub(crate) fn before(
    warp: &Warp,
    lanes: usize,
    cycle: u64,
    had_fault: bool,
    (pc, mask): (u32, u32),
    inst: &Inst,
) -> Before {
    let mut reads = Vec::new();
    for (file, f, written) in operands(inst.op) {
        let r = field(inst, f);
        let zero = file == RegFile::X && r == 0;
        if !written && !zero {
            reads.push(RegValues {
                file,
                index: r,
                values: lane_values(warp, lanes, file, r, mask),
            });
        }
    }
    let mut mem = Vec::new();
    if let Some((size, kind)) = memory_access(inst.op) {
        for l in crate::lane::lanes(mask) {
            mem.push(LaneAccess {
                lane: l as u8,
                addr: warp.x[inst.rs1 as usize][l].wrapping_add(inst.imm as u32),
                size,
                kind,
            });
        }
    }
    Before {
        pc,
        mask,
        inst: *inst,
        cycle,
        reads,
        mem,
        had_fault,
    }
}

/// Complete the record of warp `at` = (core, warp) after the instruction ran; `fault`: the
/// machine's fault now.
pub(crate) fn after(
    warp: &Warp,
    lanes: usize,
    at: (usize, usize),
    b: Before,
    fault: Option<&FaultInfo>,
) -> StepRecord {
    let mut writes = Vec::new();
    for (file, f, written) in operands(b.inst.op) {
        let r = field(&b.inst, f);
        let zero = file == RegFile::X && r == 0;
        if written && !zero {
            writes.push(RegValues {
                file,
                index: r,
                values: lane_values(warp, lanes, file, r, b.mask),
            });
        }
    }
    StepRecord {
        cycle: b.cycle,
        core: at.0,
        warp: at.1,
        pc: b.pc,
        inst: b.inst,
        mask: b.mask,
        next_pc: warp.pc,
        next_mask: warp.mask,
        reads: b.reads,
        writes,
        mem: b.mem,
        divergence: DivEvents(warp.stack.events),
        fault: if b.had_fault { None } else { fault.cloned() },
    }
}
