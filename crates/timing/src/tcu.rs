//! The tensor core unit's micro-ops: a `wmma`, `wmma.sp` or `wgmma` leaves the instruction
//! buffer as a sequence of micro-ops, one per issue slot, each with its own registers on the
//! scoreboard, its own pass through the operand collector and its own place in the TCU
//! (`units.tcu`), as SimX's per-warp sequencer expands them (`sim/simx/sequencer.cpp`,
//! `TcuUopGen` in `sim/simx/tcu/tcu_unit.cpp`). Which registers each micro-op reads and writes
//! is the functional model's step list ([`weft_sem::tcu::Geometry::steps`]), so the timing
//! and the arithmetic follow one order. `tcu.ld` is a single operation of the unit.
//!
//! The counts, for a warp of `nt` lanes with the geometry of `weft_sem::tcu`:
//! * `wmma`: `m_steps · n_steps · k_steps`;
//! * `wmma.sp`: `m_steps · n_steps · k_steps / 2`, except with square blocks (4 and 16
//!   lanes, the symmetric sparse layout), where each of the `m · n · k` micro-ops writes half
//!   the lanes of a C register;
//! * `wgmma`: `k_count · nrc` (2 K steps, 1 when sparse; `nrc` C registers from its flags).

use weft_isa::{Inst, Op};
use weft_sem::tcu::{Geometry, WgFlags};
use weft_simt::record::{Operands, RegFile};

/// The micro-ops of `inst` on a warp of `lanes` lanes, in issue order, as the registers each
/// reads and writes; empty for an instruction that is not a tensor-core macro-op (or a warp
/// width the unit has no geometry for: the functional model faults on it).
pub(crate) fn micro_ops(inst: &Inst, lanes: u32) -> Vec<Operands> {
    if !matches!(inst.op, Op::VxWmma | Op::VxWmmaSp | Op::VxWgmma) {
        return Vec::new();
    }
    let Ok(g) = Geometry::new(lanes) else {
        return Vec::new();
    };
    match inst.op {
        Op::VxWgmma => wgmma(WgFlags::new(inst.rs2)),
        op => g
            .steps(op == Op::VxWmmaSp)
            .iter()
            .map(|s| {
                uop(
                    &[(RegFile::F, s.a), (RegFile::F, s.b), (RegFile::F, s.c)],
                    s.c,
                )
            })
            .collect(),
    }
}

/// A micro-op reading `srcs` and writing float register `dst`.
fn uop(srcs: &[(RegFile, u8)], dst: u8) -> Operands {
    let mut o = Operands {
        srcs: [(RegFile::X, 0); 3],
        n_srcs: srcs.len() as u8,
        dst: Some((RegFile::F, dst)),
    };
    o.srcs[..srcs.len()].copy_from_slice(srcs);
    o
}

/// A `wgmma`'s micro-ops (SimX's `TcuUopGen::get`): K outermost, then N, then M (2 M steps);
/// micro-op `(m, n, k)` accumulates into `f[n·2 + m]`, reads A from `f[24 + m·k_count + k]`
/// when A is in registers, and the first also reads the descriptors (`a0` when A is in
/// shared memory, and `a1`).
fn wgmma(flags: WgFlags) -> Vec<Operands> {
    const M_STEPS: u32 = 2;
    let k_count = if flags.sparse { 1 } else { 2 };
    let total = k_count * flags.nrc;
    let mn = total / k_count;
    (0..total)
        .map(|i| {
            let (k, m, n) = (i / mn, i % mn % M_STEPS, i % mn / M_STEPS);
            let r = (n * M_STEPS + m) as u8;
            let a = (RegFile::F, (24 + m * k_count + k) as u8);
            let mut srcs = Vec::with_capacity(3);
            if i == 0 {
                srcs.push(if flags.a_smem { (RegFile::X, 10) } else { a });
                srcs.push((RegFile::X, 11));
            } else if !flags.a_smem {
                srcs.push(a);
            }
            srcs.push((RegFile::F, r));
            uop(&srcs, r)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inst(op: Op, rs2: u8) -> Inst {
        let mut i = Inst::new(op);
        i.rd = 0;
        i.rs1 = 1;
        i.rs2 = rs2;
        i
    }

    /// SimX's `TcuUopGen::uop_count` for each warp width (tensor_cfg.h's wmma_config_t).
    #[test]
    fn micro_op_counts_are_simx_s() {
        // (lanes, dense, sparse): m·n·k, and m·n·k/2 unless the blocks are square.
        let want = [(4, 16, 16), (8, 32, 16), (16, 16, 16), (32, 32, 16)];
        for (lanes, dense, sparse) in want {
            assert_eq!(
                micro_ops(&inst(Op::VxWmma, 0), lanes).len(),
                dense,
                "{lanes}"
            );
            assert_eq!(
                micro_ops(&inst(Op::VxWmmaSp, 1), lanes).len(),
                sparse,
                "{lanes}"
            );
        }
        // wgmma: 2 K steps (1 sparse) × 8/16/32 C registers.
        assert_eq!(micro_ops(&inst(Op::VxWgmma, 0), 4).len(), 16);
        assert_eq!(micro_ops(&inst(Op::VxWgmma, 0b0010), 4).len(), 32);
        assert_eq!(micro_ops(&inst(Op::VxWgmma, 0b0101), 4).len(), 32);
        assert!(micro_ops(&inst(Op::VxTcuLd, 0), 4).is_empty());
        assert!(micro_ops(&inst(Op::Add, 0), 4).is_empty());
        assert!(micro_ops(&inst(Op::VxWmma, 0), 3).is_empty());
    }

    #[test]
    fn a_wmma_reads_a_b_and_c_and_writes_c() {
        // 4 lanes, dense, first micro-op (m = n = k = 0): A f12, B f29, C f3 (SimX's
        // pattern A: a = ~m_hi << 1 | k, b = (n ^ k) << 1 | ~k, c = ~m_hi << 1 | ~(m_hi ^ n),
        // from f10, f28 (four B registers) and f0).
        let u = micro_ops(&inst(Op::VxWmma, 0), 4);
        let o = u[0];
        assert_eq!(
            o.sources(),
            &[(RegFile::F, 12), (RegFile::F, 29), (RegFile::F, 3)]
        );
        assert_eq!(o.dst, Some((RegFile::F, 3)));
        // Every C register is written twice (two K steps), the second time 8 micro-ops on.
        for (i, o) in u.iter().enumerate().take(8) {
            assert_eq!(u[i + 8].dst, o.dst);
        }
        // wgmma with A in shared memory: the first reads a0 and a1, the others only C.
        let w = micro_ops(&inst(Op::VxWgmma, 0b1000), 4);
        assert_eq!(
            w[0].sources(),
            &[(RegFile::X, 10), (RegFile::X, 11), (RegFile::F, 0)]
        );
        assert_eq!(w[1].sources(), &[(RegFile::F, 1)]);
        assert_eq!(w[2].dst, Some((RegFile::F, 2)));
    }
}
