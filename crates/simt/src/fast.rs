//! The fast path: per-instruction handlers specialised at load time for the lane count (a
//! const generic), stored in the decoded-instruction cache. Common integer and branch
//! instructions run here with fixed-width lane loops the compiler unrolls and vectorises;
//! everything else goes through the general executor. The semantics are the same functions
//! (`weft-sem`) either way.

use crate::code::Slot;
use crate::lane::lanes;
use crate::machine::Machine;
use crate::trap::Trap;
use weft_isa::Op;
use weft_sem::alu;
use weft_sem::fpu::{self, Flags, Rm};

/// Executes one slot for warp `w` of core `c` at `pc`.
pub(crate) type Handler = fn(&mut Machine, usize, usize, &Slot, u32) -> Result<(), Trap>;

fn general(m: &mut Machine, c: usize, w: usize, s: &Slot, pc: u32) -> Result<(), Trap> {
    m.exec(c, w, &s.inst, pc, s.reconv)
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

/// An integer op on (rs1, rs2), or on (rs1, imm) when `IMM`, over the first `N` lanes.
#[inline(always)]
fn alu<const N: usize, const IMM: bool>(
    m: &mut Machine,
    c: usize,
    w: usize,
    s: &Slot,
    pc: u32,
    f: impl Fn(u32, u32) -> u32,
) -> Result<(), Trap> {
    let warp = &mut m.cores[c].warps[w];
    let i = &s.inst;
    if i.rd != 0 {
        let mut a = [0u32; N];
        a.copy_from_slice(&warp.x[i.rs1 as usize][..N]);
        let mut b = [i.imm as u32; N];
        if !IMM {
            b.copy_from_slice(&warp.x[i.rs2 as usize][..N]);
        }
        lanes2::<N>(&mut warp.x, warp.mask, i.rd, &a, &b, f);
    }
    warp.pc = pc.wrapping_add(4);
    Ok(())
}

#[inline(always)]
fn br<const N: usize>(
    m: &mut Machine,
    c: usize,
    w: usize,
    s: &Slot,
    pc: u32,
    cond: fn(u32, u32) -> bool,
) -> Result<(), Trap> {
    let warp = &mut m.cores[c].warps[w];
    let i = &s.inst;
    let (a, b) = (&warp.x[i.rs1 as usize], &warp.x[i.rs2 as usize]);
    let mut taken = 0u32;
    for l in 0..N {
        taken |= (cond(a[l], b[l]) as u32) << l;
    }
    let active = warp.mask;
    taken &= active;
    if taken == active {
        warp.pc = pc.wrapping_add(i.imm as u32);
        Ok(())
    } else if taken == 0 {
        warp.pc = pc.wrapping_add(4);
        Ok(())
    } else {
        m.branch(c, w, i, pc, s.reconv, taken)
    }
}

/// `auipc`: every active lane gets pc + imm.
fn auipc<const N: usize>(
    m: &mut Machine,
    c: usize,
    w: usize,
    s: &Slot,
    pc: u32,
) -> Result<(), Trap> {
    let warp = &mut m.cores[c].warps[w];
    let i = &s.inst;
    if i.rd != 0 {
        let v = pc.wrapping_add(i.imm as u32);
        lanes2::<N>(&mut warp.x, warp.mask, i.rd, &[0; N], &[0; N], |_, _| v);
    }
    warp.pc = pc.wrapping_add(4);
    Ok(())
}

/// The handler for `op` on warps of `lanes` lanes.
pub(crate) fn handler_for(op: Op, lanes: usize) -> Handler {
    match lanes {
        1 => fast::<1>(op),
        2..=4 => fast::<4>(op),
        5..=8 => fast::<8>(op),
        9..=16 => fast::<16>(op),
        _ => fast::<32>(op),
    }
    .unwrap_or(general)
}

fn fast<const N: usize>(op: Op) -> Option<Handler> {
    macro_rules! rr {
        ($f:path) => {
            Some(|m, c, w, s, pc| alu::<N, false>(m, c, w, s, pc, $f))
        };
    }
    macro_rules! ri {
        ($f:expr) => {
            Some(|m, c, w, s, pc| alu::<N, true>(m, c, w, s, pc, $f))
        };
    }
    macro_rules! br {
        ($f:path) => {
            Some(|m, c, w, s, pc| br::<N>(m, c, w, s, pc, $f))
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

/// `lw`/`flw`: every active lane's address an aligned DRAM word → direct reads; otherwise
/// the general path (a load has no side effects, so it can simply start over).
#[inline(always)]
fn load_word<const N: usize, const FP: bool>(
    m: &mut Machine,
    c: usize,
    w: usize,
    s: &Slot,
    pc: u32,
) -> Result<(), Trap> {
    let i = &s.inst;
    let warp = &mut m.cores[c].warps[w];
    let mask = warp.mask;
    let base = warp.x[i.rs1 as usize];
    let mut out = if FP {
        warp.f[i.rd as usize]
    } else {
        warp.x[i.rd as usize]
    };
    for l in lanes(mask) {
        match m.mem.load_word_fast(base[l].wrapping_add(i.imm as u32)) {
            Some(v) => out[l] = v,
            None => return m.exec(c, w, i, pc, s.reconv),
        }
    }
    if FP {
        warp.f[i.rd as usize] = out;
    } else if i.rd != 0 {
        warp.x[i.rd as usize] = out;
    }
    warp.pc = pc.wrapping_add(4);
    m.stats.loads += mask.count_ones() as u64;
    Ok(())
}

/// `sw`/`fsw`: the fast path applies only if every active lane stores an aligned word to
/// plain DRAM outside decoded code (checked before any write), with no LR reservation open.
#[inline(always)]
fn store_word<const N: usize, const FP: bool>(
    m: &mut Machine,
    c: usize,
    w: usize,
    s: &Slot,
    pc: u32,
) -> Result<(), Trap> {
    let i = &s.inst;
    let warp = &m.cores[c].warps[w];
    let mask = warp.mask;
    let base = &warp.x[i.rs1 as usize];
    let fast = m.reservations.is_empty()
        && lanes(mask).all(|l| {
            let a = base[l].wrapping_add(i.imm as u32);
            m.mem.store_word_is_fast(a) && !m.code.covers(a)
        });
    if !fast {
        return m.exec(c, w, i, pc, s.reconv);
    }
    let vals = if FP {
        warp.f[i.rs2 as usize]
    } else {
        warp.x[i.rs2 as usize]
    };
    let base = *base;
    for l in lanes(mask) {
        m.mem
            .store_word_fast(base[l].wrapping_add(i.imm as u32), vals[l]);
    }
    m.cores[c].warps[w].pc = pc.wrapping_add(4);
    m.stats.stores += mask.count_ones() as u64;
    Ok(())
}

/// A float op computed per active lane by `f(registers, lane, rounding mode)`, with the
/// lane's rounding mode; a reserved dynamic mode takes the general path (which raises the
/// illegal-instruction fault).
#[inline(always)]
fn fp_op<const N: usize>(
    m: &mut Machine,
    c: usize,
    w: usize,
    s: &Slot,
    pc: u32,
    f: impl Fn(&[[u32; 32]; 32], usize, Rm) -> (u32, Flags),
) -> Result<(), Trap> {
    let i = &s.inst;
    let warp = &mut m.cores[c].warps[w];
    let mut out = warp.f[i.rd as usize];
    for l in lanes(warp.mask) {
        let bits = if i.rm == 7 {
            warp.frm[l] as u32
        } else {
            i.rm as u32
        };
        let Some(rm) = Rm::from_bits(bits) else {
            return m.exec(c, w, i, pc, s.reconv);
        };
        let (v, fl) = f(&warp.f, l, rm);
        out[l] = v;
        warp.fflags[l] |= fl.bits();
    }
    warp.f[i.rd as usize] = out;
    warp.pc = pc.wrapping_add(4);
    Ok(())
}

/// Handlers for memory and float instructions (the second half of [`fast`]).
fn fast_mem_fp<const N: usize>(op: Op) -> Option<Handler> {
    macro_rules! fp2 {
        ($f:path) => {
            Some(|m, c, w, s: &Slot, pc| {
                let (a, b) = (s.inst.rs1 as usize, s.inst.rs2 as usize);
                fp_op::<N>(m, c, w, s, pc, |f, l, rm| $f(f[a][l], f[b][l], rm))
            })
        };
    }
    macro_rules! fp3 {
        ($f:path) => {
            Some(|m, c, w, s: &Slot, pc| {
                let (a, b, d) = (
                    s.inst.rs1 as usize,
                    s.inst.rs2 as usize,
                    s.inst.rs3 as usize,
                );
                fp_op::<N>(m, c, w, s, pc, |f, l, rm| $f(f[a][l], f[b][l], f[d][l], rm))
            })
        };
    }
    match op {
        Op::Lw => Some(load_word::<N, false>),
        Op::Flw => Some(load_word::<N, true>),
        Op::Sw => Some(store_word::<N, false>),
        Op::Fsw => Some(store_word::<N, true>),
        Op::FaddS => fp2!(fpu::fadd),
        Op::FsubS => fp2!(fpu::fsub),
        Op::FmulS => fp2!(fpu::fmul),
        Op::FmaddS => fp3!(fpu::fmadd),
        Op::FmsubS => fp3!(fpu::fmsub),
        Op::FnmaddS => fp3!(fpu::fnmadd),
        Op::FnmsubS => fp3!(fpu::fnmsub),
        _ => None,
    }
}
