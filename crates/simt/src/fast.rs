//! The fast path: per-instruction handlers specialised at load time for the lane count (a
//! const generic), stored in the decoded-instruction cache. Common integer and branch
//! instructions run here with fixed-width lane loops the compiler unrolls and vectorises;
//! memory and float instructions go straight to their one executor (`exec_mem.rs`,
//! `exec_fp.rs`) with the operation fixed; everything else goes through the general executor.
//! The semantics are the same functions (`weft-sem`) either way.

use crate::machine::{Handler, Issue};
use crate::trap::Trap;
use weft_isa::{Inst, Op};
use weft_sem::alu;

fn general(x: &mut Issue<'_>) -> Result<(), Trap> {
    x.exec()
}

/// `out[l] = f(a[l], b[l])` for the active lanes among the first `N`.
#[inline(always)]
fn lanes2<const N: usize>(
    x: &mut [[u32; 32]; 32],
    mask: u32,
    rd: u8,
    a: &[u32; N],
    b: &[u32; N],
    f: impl Fn(u32, u32) -> u32,
) {
    let mut out: [u32; N] = [0; N];
    let dst = &mut x[rd as usize];
    out.copy_from_slice(&dst[..N]);
    let full = if N >= 32 { u32::MAX } else { (1u32 << N) - 1 };
    if mask & full == full {
        for l in 0..N {
            out[l] = f(a[l], b[l]);
        }
    } else {
        for l in 0..N {
            let v = f(a[l], b[l]);
            out[l] = if mask >> l & 1 != 0 { v } else { out[l] };
        }
    }
    dst[..N].copy_from_slice(&out);
}

/// An integer op on (rs1, rs2), or on (rs1, imm) when `IMM`, over the first `N` lanes, for
/// an instruction `L` bytes long (the length is a constant here: the fetch path is hot).
#[inline(always)]
fn alu<const N: usize, const IMM: bool, const L: u32>(
    x: &mut Issue<'_>,
    f: impl Fn(u32, u32) -> u32,
) -> Result<(), Trap> {
    let warp = &mut x.m.cores[x.c].warps[x.w];
    let (i, pc) = (&x.i, x.pc);
    if i.rd != 0 {
        let mut a = [0u32; N];
        a.copy_from_slice(&warp.x[i.rs1 as usize][..N]);
        let mut b = [i.imm as u32; N];
        if !IMM {
            b.copy_from_slice(&warp.x[i.rs2 as usize][..N]);
        }
        lanes2::<N>(&mut warp.x, warp.mask, i.rd, &a, &b, f);
    }
    warp.pc = pc.wrapping_add(L);
    Ok(())
}

#[inline(always)]
fn br<const N: usize, const L: u32>(
    x: &mut Issue<'_>,
    cond: fn(u32, u32) -> bool,
) -> Result<(), Trap> {
    let warp = &mut x.m.cores[x.c].warps[x.w];
    let (i, pc) = (&x.i, x.pc);
    let (a, b) = (&warp.x[i.rs1 as usize], &warp.x[i.rs2 as usize]);
    let mut taken = 0u32;
    for l in 0..N {
        taken |= (cond(a[l], b[l]) as u32) << l;
    }
    let active = warp.mask;
    taken &= active;
    if taken != 0 && i.imm & 1 != 0 {
        // A taken branch to an odd target (pc is even; with the C extension instructions
        // are 2-byte aligned).
        return Err(crate::trap::misaligned_target(
            pc.wrapping_add(i.imm as u32),
        ));
    }
    if taken == active {
        warp.pc = pc.wrapping_add(i.imm as u32);
        Ok(())
    } else if taken == 0 {
        warp.pc = pc.wrapping_add(L);
        Ok(())
    } else {
        x.branch(taken)
    }
}

/// `auipc`: every active lane gets pc + imm.
fn auipc<const N: usize>(x: &mut Issue<'_>) -> Result<(), Trap> {
    let warp = &mut x.m.cores[x.c].warps[x.w];
    let (i, pc) = (&x.i, x.pc);
    if i.rd != 0 {
        let v = pc.wrapping_add(i.imm as u32);
        lanes2::<N>(&mut warp.x, warp.mask, i.rd, &[0; N], &[0; N], |_, _| v);
    }
    warp.pc = pc.wrapping_add(i.len());
    Ok(())
}

/// The handler for instruction `i` on warps of `lanes` lanes.
pub(crate) fn handler_for(i: &Inst, lanes: usize) -> Handler {
    let op = i.op;
    match (lanes, i.len()) {
        (1, 4) => fast::<1, 4>(op),
        (2..=4, 4) => fast::<4, 4>(op),
        (5..=8, 4) => fast::<8, 4>(op),
        (9..=16, 4) => fast::<16, 4>(op),
        (_, 4) => fast::<32, 4>(op),
        (1, _) => fast::<1, 2>(op),
        (2..=4, _) => fast::<4, 2>(op),
        (5..=8, _) => fast::<8, 2>(op),
        (9..=16, _) => fast::<16, 2>(op),
        (_, _) => fast::<32, 2>(op),
    }
    .unwrap_or(general)
}

fn fast<const N: usize, const L: u32>(op: Op) -> Option<Handler> {
    macro_rules! rr {
        ($f:path) => {
            Some(|x| alu::<N, false, L>(x, $f))
        };
    }
    macro_rules! ri {
        ($f:expr) => {
            Some(|x| alu::<N, true, L>(x, $f))
        };
    }
    macro_rules! br {
        ($f:path) => {
            Some(|x| br::<N, L>(x, $f))
        };
    }
    match op {
        Op::Lui => ri!(|_, imm| imm),
        Op::Addi => ri!(alu::add),
        Op::Slti => ri!(alu::slt),
        Op::Sltiu => ri!(alu::sltu),
        Op::Xori => ri!(alu::xor),
        Op::Ori => ri!(alu::or),
        Op::Andi => ri!(alu::and),
        Op::Slli => ri!(alu::sll),
        Op::Srli => ri!(alu::srl),
        Op::Srai => ri!(alu::sra),
        Op::Add => rr!(alu::add),
        Op::Sub => rr!(alu::sub),
        Op::Sll => rr!(alu::sll),
        Op::Slt => rr!(alu::slt),
        Op::Sltu => rr!(alu::sltu),
        Op::Xor => rr!(alu::xor),
        Op::Srl => rr!(alu::srl),
        Op::Sra => rr!(alu::sra),
        Op::Or => rr!(alu::or),
        Op::And => rr!(alu::and),
        Op::Mul => rr!(alu::mul),
        Op::Mulh => rr!(alu::mulh),
        Op::Mulhu => rr!(alu::mulhu),
        Op::Mulhsu => rr!(alu::mulhsu),
        Op::Div => rr!(alu::div),
        Op::Divu => rr!(alu::divu),
        Op::Rem => rr!(alu::rem),
        Op::Remu => rr!(alu::remu),
        Op::Auipc => Some(auipc::<N>),
        Op::Beq => br!(alu::beq),
        Op::Bne => br!(alu::bne),
        Op::Blt => br!(alu::blt),
        Op::Bge => br!(alu::bge),
        Op::Bltu => br!(alu::bltu),
        Op::Bgeu => br!(alu::bgeu),
        _ => fast_mem_fp::<N>(op),
    }
}

/// Handlers for jumps, memory and float instructions (the second half of [`fast`]): the one
/// executor of each (`control.rs`, `exec_mem.rs`, `exec_fp.rs`), called directly, float ops
/// with the operation as a constant.
fn fast_mem_fp<const N: usize>(op: Op) -> Option<Handler> {
    macro_rules! fp {
        ($op:expr) => {
            Some(|x| x.exec_fp($op))
        };
    }
    match op {
        Op::Jal => Some(|x| x.jal()),
        Op::Jalr => Some(|x| x.jalr()),
        Op::Lw | Op::Flw => Some(|x| x.load()),
        Op::Sw | Op::Fsw => Some(|x| x.store()),
        Op::FaddS => fp!(Op::FaddS),
        Op::FsubS => fp!(Op::FsubS),
        Op::FmulS => fp!(Op::FmulS),
        Op::FmaddS => fp!(Op::FmaddS),
        Op::FmsubS => fp!(Op::FmsubS),
        Op::FnmaddS => fp!(Op::FnmaddS),
        Op::FnmsubS => fp!(Op::FnmsubS),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::fast;
    use weft_isa::{Class, TABLE};

    /// Every op of the integer classes and every conditional branch (what `is_private`
    /// admits by class) has a fast handler at every lane count and length: without one it
    /// would fall to the general executor, which hands integer ops back to the fast path.
    #[test]
    fn every_integer_op_of_the_table_has_a_fast_handler() {
        let integer = |c| matches!(c, Class::Alu | Class::Mul | Class::Div | Class::Branch);
        let ops: Vec<_> = TABLE.iter().filter(|e| integer(e.class)).collect();
        assert!(ops.len() >= 35, "the table's integer rows: {}", ops.len());
        let missing: Vec<&str> = ops
            .iter()
            .filter(|e| {
                let op = e.op;
                [
                    fast::<1, 4>(op),
                    fast::<4, 4>(op),
                    fast::<8, 4>(op),
                    fast::<16, 4>(op),
                    fast::<32, 4>(op),
                    fast::<1, 2>(op),
                    fast::<4, 2>(op),
                    fast::<8, 2>(op),
                    fast::<16, 2>(op),
                    fast::<32, 2>(op),
                ]
                .iter()
                .any(Option::is_none)
            })
            .map(|e| e.name)
            .collect();
        assert!(
            missing.is_empty(),
            "integer ops with no fast handler (crates/simt/src/fast.rs): {missing:?}"
        );
    }
}
