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

/// An instruction's destination and sources as register ids (integer 0–31, float 32–63),
/// read from its operand syntax in the instruction table (`weft_isa::table`): `d`/`D` the
/// integer/float destination, `s`/`S`, `t`/`T`, `r`/`R` the integer/float sources 1–3.
pub(crate) fn operands(i: &Inst) -> (Option<u8>, [Option<u8>; 3]) {
    let mut dst = None;
    let mut srcs = [None; 3];
    for c in i.op.entry().args.bytes() {
        match c {
            b'd' => dst = Some(i.rd),
            b'D' => dst = Some(freg(i.rd)),
            b's' => srcs[0] = Some(i.rs1),
            b'S' => srcs[0] = Some(freg(i.rs1)),
            b't' => srcs[1] = Some(i.rs2),
            b'T' => srcs[1] = Some(freg(i.rs2)),
            b'r' => srcs[2] = Some(i.rs3),
            b'R' => srcs[2] = Some(freg(i.rs3)),
            _ => {}
        }
    }
    (dst, srcs)
}

/// Is `op` a conditional branch?
pub fn is_branch(op: Op) -> bool {
    op.class() == Class::Branch
}
