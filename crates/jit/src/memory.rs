//! Memory instructions on the emitter: `lw`/`sw`/`flw`/`fsw` through the memory port's
//! helpers, with an exit to the interpreter when a helper refuses.

use crate::abi::ADDRS_AT;
use crate::emit::Emit;
use crate::shape::operands;
use cranelift_codegen::ir::{types, InstBuilder};
use weft_isa::{Inst, Op};

impl<'a, 'b> Emit<'a, 'b> {
    /// `lw`/`sw`/`flw`/`fsw`, the `k`-th instruction of the body, through the memory port's
    /// helper, which takes the registers from the register files (values kept in SSA are
    /// stored to their homes first, and a loaded register is read back); if the helper
    /// refuses (or, for `flw`/`fsw`, the float state is not Dirty), the block exits before
    /// the instruction with `k` instructions of this execution done.
    pub(crate) fn memory(&mut self, k: usize, pc: u32, i: &Inst) {
        if matches!(i.op, Op::Flw | Op::Fsw) {
            let off = self.fs_off.expect("float environment");
            self.bail_if(off, k, pc);
        }
        let (dst, srcs) = operands(i);
        let data = dst
            .or(srcs[1])
            .expect("a load's destination or a store's data");
        // The lanes' addresses, to the address words of `out`.
        let imm = i.imm as u32;
        if self.loops_over_vectors() {
            self.vector_loop(&[], |e, _| {
                let a = e.get(i.rs1, 0);
                let a = e.offset(a, imm);
                let base = e.vl.as_ref().expect("in a vector loop").out;
                e.b.ins().store(Self::flags(), a, base, ADDRS_AT);
                Vec::new()
            });
        } else {
            for v in 0..self.nvec {
                let a = self.get(i.rs1, v);
                let a = self.offset(a, imm);
                self.b
                    .ins()
                    .store(Self::flags(), a, self.out, ADDRS_AT + v as i32 * 16);
            }
        }
        if !self.in_memory {
            // The register the helper reads whose home may be stale: a store's data, or a
            // masked load's destination (its inactive lanes stay).
            let read = dst.is_none() || self.masked;
            if data != 0 && self.written[data as usize] && read {
                self.store_home(data);
            }
        }
        let helpers = self.helpers.expect("helpers");
        let f = if dst.is_some() {
            helpers.load
        } else {
            helpers.store
        };
        let callee = self.b.ins().iconst(self.ptr, f as usize as i64);
        let reg = self.b.ins().iconst(types::I64, i64::from(data));
        let addrs = self.b.ins().iadd_imm(self.out, i64::from(ADDRS_AT));
        let sig = self.helper_sig.expect("helper signature");
        let call =
            self.b
                .ins()
                .call_indirect(sig, callee, &[self.port, addrs, self.x, self.f, reg]);
        let ok = self.b.inst_results(call)[0];
        let cont = self.b.create_block();
        let bail = self.b.create_block();
        self.b.ins().brif(ok, cont, &[], bail, &[]);
        self.b.switch_to_block(bail);
        self.exit(pc, Some(k as u32), true);
        self.b.switch_to_block(cont);
        if let (Some(d), false) = (dst, self.in_memory) {
            if d != 0 {
                for v in 0..self.nvec {
                    let (base, off) = self.home(d);
                    let val =
                        self.b
                            .ins()
                            .load(types::I32X4, Self::flags(), base, off + v as i32 * 16);
                    self.b.def_var(self.var(d, v), val);
                }
            }
        }
    }
}
