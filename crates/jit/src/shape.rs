//! Operand shapes: which register ids (integer 0–31, float 32–63) an instruction reads and
//! writes, and which operations are branches or float operations.

use weft_isa::{Class, Inst, Op};

/// Is `op` a float operation (other than `flw`/`fsw`)? Within a plan these are exactly the
/// operations `weft_simt::is_block_float` admits (its list, with the rounding-mode and
/// `fclass` exclusions, decides what reaches the translator).
pub(crate) fn is_float(op: Op) -> bool {
    matches!(op.class(), Class::Fpu | Class::FpuDiv)
}

/// The register id of float register `r`.
pub(crate) fn freg(r: u8) -> u8 {
    r + 32
}

/// An instruction's destination and sources as register ids (integer 0–31, float 32–63).
pub(crate) fn operands(i: &Inst) -> (Option<u8>, [Option<u8>; 3]) {
    use Op::*;
    let (d, a, b, c) = (i.rd, i.rs1, i.rs2, i.rs3);
    let f = freg;
    match i.op {
        Beq | Bne | Blt | Bge | Bltu | Bgeu | Sw => (None, [Some(a), Some(b), None]),
        Fsw => (None, [Some(a), Some(f(b)), None]),
        Flw => (Some(f(d)), [Some(a), None, None]),
        Lui | Auipc | Jal => (Some(d), [None; 3]),
        Lw | Addi | Slti | Sltiu | Xori | Ori | Andi | Slli | Srli | Srai => {
            (Some(d), [Some(a), None, None])
        }
        FaddS | FsubS | FmulS | FdivS | FsgnjS | FsgnjnS | FsgnjxS | FminS | FmaxS => {
            (Some(f(d)), [Some(f(a)), Some(f(b)), None])
        }
        FsqrtS => (Some(f(d)), [Some(f(a)), None, None]),
        FmaddS | FmsubS | FnmsubS | FnmaddS => (Some(f(d)), [Some(f(a)), Some(f(b)), Some(f(c))]),
        FeqS | FltS | FleS => (Some(d), [Some(f(a)), Some(f(b)), None]),
        FmvXW | FcvtWS | FcvtWuS => (Some(d), [Some(f(a)), None, None]),
        FmvWX | FcvtSW | FcvtSWu => (Some(f(d)), [Some(a), None, None]),
        _ => (Some(d), [Some(a), Some(b), None]),
    }
}

/// Is `op` a conditional branch?
pub fn is_branch(op: Op) -> bool {
    matches!(
        op,
        Op::Beq | Op::Bne | Op::Blt | Op::Bge | Op::Bltu | Op::Bgeu
    )
}
