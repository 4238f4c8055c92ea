//! Executing the F extension: the lane loop over `weft-sem`'s IEEE single-precision functions,
//! with per-lane rounding mode (static or from the lane's `frm`) and accrued flags.

use crate::lane::lanes;
use crate::machine::Issue;
use crate::trap::{fault, mstatus, Trap};
use crate::warp::Warp;
use weft_isa::{FaultCode, Inst, Op};
use weft_sem::fpu::{self, Flags, Rm};

/// The rounding mode lane `l` uses for `i`, or an illegal-instruction fault.
#[inline]
fn rm_for(w: &Warp, i: &Inst, l: usize) -> Result<Rm, Trap> {
    let bits = if i.rm == 7 {
        w.frm[l] as u32
    } else {
        i.rm as u32
    };
    Rm::from_bits(bits).ok_or_else(|| fault(FaultCode::IllegalInstruction))
}

#[inline(always)]
fn with((v, f): (u32, Flags)) -> (u32, Flags, bool) {
    (v, f, false)
}

#[inline(always)]
fn to_int((v, f): (u32, Flags)) -> (u32, Flags, bool) {
    (v, f, true)
}

/// A float instruction may run only while `mstatus.FS` is not Off (an illegal instruction
/// otherwise); running one makes the float state Dirty. `flw`/`fsw` and the float CSRs
/// check through here too.
#[inline(always)]
pub(crate) fn use_fp(w: &mut Warp) -> Result<(), Trap> {
    if w.csr.mstatus & mstatus::FS == 0 {
        return Err(crate::trap::illegal_fp());
    }
    w.csr.mstatus |= mstatus::FS;
    Ok(())
}

impl Issue<'_> {
    /// Execute the F-extension instruction `i`, given as `op` too: the decoded cache's
    /// handlers pass a constant `op`, so the match below folds away in each of them, and this
    /// one function is the only home of every float operation.
    #[inline(always)]
    pub(crate) fn exec_fp(&mut self, op: Op) -> Result<(), Trap> {
        let Issue { c, w, i, pc, .. } = *self;
        let warp = &mut self.m.cores[c].warps[w];
        use_fp(warp)?;
        let (rd, s1, s2, s3) = (
            i.rd as usize,
            i.rs1 as usize,
            i.rs2 as usize,
            i.rs3 as usize,
        );
        for l in lanes(warp.mask) {
            let (a, b, cc) = (warp.f[s1][l], warp.f[s2][l], warp.f[s3][l]);
            let xa = warp.x[s1][l];
            // (value, flags, destination is an integer register)
            let (v, fl, to_x): (u32, Flags, bool) = match op {
                Op::FaddS => with(fpu::fadd(a, b, rm_for(warp, &i, l)?)),
                Op::FsubS => with(fpu::fsub(a, b, rm_for(warp, &i, l)?)),
                Op::FmulS => with(fpu::fmul(a, b, rm_for(warp, &i, l)?)),
                Op::FdivS => with(fpu::fdiv(a, b, rm_for(warp, &i, l)?)),
                Op::FsqrtS => with(fpu::fsqrt(a, rm_for(warp, &i, l)?)),
                Op::FmaddS => with(fpu::fmadd(a, b, cc, rm_for(warp, &i, l)?)),
                Op::FmsubS => with(fpu::fmsub(a, b, cc, rm_for(warp, &i, l)?)),
                Op::FnmsubS => with(fpu::fnmsub(a, b, cc, rm_for(warp, &i, l)?)),
                Op::FnmaddS => with(fpu::fnmadd(a, b, cc, rm_for(warp, &i, l)?)),
                Op::FsgnjS => (fpu::fsgnj(a, b), Flags::NONE, false),
                Op::FsgnjnS => (fpu::fsgnjn(a, b), Flags::NONE, false),
                Op::FsgnjxS => (fpu::fsgnjx(a, b), Flags::NONE, false),
                Op::FminS => with(fpu::fmin(a, b)),
                Op::FmaxS => with(fpu::fmax(a, b)),
                Op::FeqS => to_int(fpu::feq(a, b)),
                Op::FltS => to_int(fpu::flt(a, b)),
                Op::FleS => to_int(fpu::fle(a, b)),
                Op::FclassS => (fpu::fclass(a), Flags::NONE, true),
                Op::FmvXW => (a, Flags::NONE, true),
                Op::FmvWX => (xa, Flags::NONE, false),
                Op::FcvtWS => to_int(fpu::fcvt_w_s(a, rm_for(warp, &i, l)?)),
                Op::FcvtWuS => to_int(fpu::fcvt_wu_s(a, rm_for(warp, &i, l)?)),
                Op::FcvtSW => with(fpu::fcvt_s_w(xa, rm_for(warp, &i, l)?)),
                Op::FcvtSWu => with(fpu::fcvt_s_wu(xa, rm_for(warp, &i, l)?)),
                _ => return Err(fault(FaultCode::IllegalInstruction)),
            };
            warp.fflags[l] |= fl.bits();
            if to_x {
                if rd != 0 {
                    warp.x[rd][l] = v;
                }
            } else {
                warp.f[rd][l] = v;
            }
        }
        warp.pc = pc.wrapping_add(i.len());
        Ok(())
    }
}
