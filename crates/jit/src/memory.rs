//! Memory instructions on the emitter: `lw`/`sw`/`flw`/`fsw`, each on a direct path in the
//! translated code when it can, else through the memory port's helpers, with an exit to the
//! interpreter when a helper refuses.
//!
//! The direct path (issue 40): when the active lanes address consecutive words from lane 0's
//! address `a` (lane `l` at `a + 4·l`, the common "each lane its element" access), all of
//! them aligned inside one DRAM page that a page window of the memory context holds
//! ([`MemCtx`](crate::abi::MemCtx)), the code reads or writes the words there itself: one
//! check per vector of addresses (a compare with the expected addresses, masked) and one per
//! instruction (alignment, the page, the window), then whole vectors of host memory; a load
//! whose active lanes all read lane 0's word (a broadcast) reads that one word. A
//! store writes back the old words of inactive lanes (a blend with the lane mask: one warp
//! runs alone, nothing else sees memory meanwhile). Windows are filled by the helpers, after
//! an access the port did, with pages the port allows
//! ([`weft_simt::MemPort::direct_page`]: a whole DRAM page, allocated; for stores no byte of
//! decoded code or the HTIF words in it and no LR reservation open; never in a super-step
//! over several warps). So everything the direct path does is what the port's own direct path
//! would have done, and anything else — misaligned or scattered addresses, other memory,
//! faults — still goes to the helper and from there to the interpreter. The code counts
//! nothing itself: the helpers count what they did, and the engine books the rest of the
//! memory instructions that ran as the direct path's, as the interpreter counts them.

use crate::abi::{
    ADDRS_AT, CTX_LANE, CTX_TAG, CTX_WINDOWS, DATA_AT, SUB_STORE, WINDOWS, WINDOW_BIAS,
    WINDOW_BYTES,
};
use crate::emit::Emit;
use crate::shape::operands;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, Block, ConstantData, InstBuilder, Value};
use weft_isa::{Inst, Op};
use weft_simt::DIRECT_PAGE_BYTES;

impl<'a, 'b> Emit<'a, 'b> {
    /// `lw`/`sw`/`flw`/`fsw`, the `k`-th instruction of the body: on the direct path when the
    /// access allows it ([`Emit::direct_access`]), else through the memory port's helper,
    /// which takes the registers from the register files (values kept in SSA are stored to
    /// their homes first, and a loaded register is read back); if the helper refuses (or, for
    /// `flw`/`fsw`, the float state is not Dirty), the block exits before the instruction
    /// with `k` instructions of this execution done.
    pub(crate) fn memory(&mut self, k: usize, pc: u32, i: &Inst) {
        if matches!(i.op, Op::Flw | Op::Fsw) {
            let off = self.fs_off.expect("float environment");
            self.bail_if(off, k, pc);
        }
        let (dst, srcs) = operands(i);
        let data = dst
            .or(srcs[1])
            .expect("a load's destination or a store's data");
        // The lanes' addresses, to the context's address words.
        let imm = i.imm as u32;
        if self.one_lane {
            let a = self.get(i.rs1, 0);
            let a = self.b.ins().iadd_imm(a, i64::from(imm as i32));
            let cont = self.b.create_block();
            if self.direct && cfg!(target_endian = "little") {
                self.direct_one(dst, data, a, cont);
            }
            // For the helper, the lane's address to its word and to lane 0's (the helpers
            // open the page window of lane 0's address).
            self.b.ins().store(Self::flags(), a, self.port, ADDRS_AT);
            let lane = self
                .b
                .ins()
                .load(types::I32, Self::flags(), self.port, CTX_LANE);
            let lane = self.b.ins().uextend(self.ptr, lane);
            let off = self.b.ins().ishl_imm(lane, 2);
            let at = self.b.ins().iadd(self.port, off);
            self.b.ins().store(Self::flags(), a, at, ADDRS_AT);
            self.through_helper(k, pc, dst, data);
            self.b.ins().jump(cont, &[]);
            self.b.switch_to_block(cont);
            return;
        }
        if self.loops_over_vectors() {
            self.vector_loop(&[], |e, _| {
                let a = e.get(i.rs1, 0);
                let a = e.offset(a, imm);
                let base = e.vl.as_ref().expect("in a vector loop").ctx;
                e.b.ins().store(Self::flags(), a, base, ADDRS_AT);
                Vec::new()
            });
        } else {
            for v in 0..self.nvec {
                let a = self.get(i.rs1, v);
                let a = self.offset(a, imm);
                self.b
                    .ins()
                    .store(Self::flags(), a, self.port, ADDRS_AT + v as i32 * 16);
            }
        }
        let cont = self.b.create_block();
        // The words are the host's in little-endian order only.
        if self.direct && cfg!(target_endian = "little") {
            self.direct_access(dst, data, cont);
        }
        self.through_helper(k, pc, dst, data);
        self.b.ins().jump(cont, &[]);
        self.b.switch_to_block(cont);
    }

    /// The direct path: if the addresses in the context allow it, the access on host memory, then
    /// on to `cont`; the code emitted after this returns is the other case. Consecutive
    /// lanes (lane `l` at lane 0's address + 4·l) load or store whole vectors; a load whose
    /// active lanes all read lane 0's word (a broadcast: a uniform pointer, a loop bound, one
    /// lane of `main`) reads it once; other addresses (each lane's own stack, a gather) go
    /// lane by lane ([`Emit::lane_by_lane`]).
    fn direct_access(&mut self, dst: Option<u8>, data: u8, cont: cranelift_codegen::ir::Block) {
        let store = dst.is_none();
        let flags = Self::flags();
        // First the scalar checks, which fail at once where no window is ever open (a
        // super-step over several warps): lane 0's address aligned, its page in its window.
        let a = self.b.ins().load(types::I32, flags, self.port, ADDRS_AT);
        let other = self.b.create_block();
        let p = self.page_window(a, store, other, 4);
        let off = self.b.ins().band_imm(a, i64::from(DIRECT_PAGE_BYTES - 1));
        // Consecutive (one check per vector: each active lane's address is lane 0's + 4 ×
        // the lane), with every vector inside the page?
        let a_all = self.b.ins().splat(types::I32X4, a);
        let scattered = self.lanes_differ(a_all, true);
        let last = i64::from(DIRECT_PAGE_BYTES) - 16 * self.nvec as i64;
        let crosses = self.b.ins().icmp_imm(IntCC::UnsignedGreaterThan, off, last);
        let not_vectors = self.b.ins().bor(scattered, crosses);
        let vectors = self.b.create_block();
        let not_vec = self.b.create_block();
        self.b.ins().brif(not_vectors, not_vec, &[], vectors, &[]);
        self.b.switch_to_block(vectors);
        for v in 0..self.nvec {
            let o = v as i32 * 16;
            if store {
                let val = self.get(data, v);
                let old = self.b.ins().load(types::I32X4, flags, p, o);
                let m = self.b.ins().load(types::I32X4, flags, self.mask_ptr, o);
                let new = self.b.ins().bitselect(m, val, old);
                self.b.ins().store(flags, new, p, o);
            } else {
                let val = self.b.ins().load(types::I32X4, flags, p, o);
                self.set(data, v, val);
            }
        }
        self.b.ins().jump(cont, &[]);
        self.b.switch_to_block(not_vec);
        if store {
            self.b.ins().jump(other, &[]);
        } else {
            // A broadcast load (the word is inside the page: aligned).
            let spread = self.lanes_differ(a_all, false);
            let one = self.b.create_block();
            self.b.ins().brif(spread, other, &[], one, &[]);
            self.b.switch_to_block(one);
            let word = self.b.ins().load(types::I32, flags, p, 0);
            let val = self.b.ins().splat(types::I32X4, word);
            for v in 0..self.nvec {
                self.set(data, v, val);
            }
            self.b.ins().jump(cont, &[]);
        }
        self.b.switch_to_block(other);
        self.lane_by_lane(store, data, cont);
    }

    /// The direct path lane by lane, for addresses neither consecutive nor one word: if every
    /// active lane's word is aligned on a page of a window of the run (a first pass checks
    /// them all, so that nothing is done unless everything can be), each lane's word is
    /// read or written on its own, in lane order (for stores to one word, the last lane's
    /// stays, as in the interpreter), the words going through the context's `data`; then on
    /// to `cont`. The code emitted after this returns is the other case (the helper). The
    /// helpers open the window of every active lane's page after an access (`lib.rs`), so
    /// per-thread stacks (8 KiB apart: one or two pages for 8 lanes) soon have theirs.
    fn lane_by_lane(&mut self, store: bool, data: u8, cont: Block) {
        let flags = Self::flags();
        let helper = self.b.create_block();
        if store {
            for v in 0..self.nvec {
                let val = self.get(data, v);
                self.b
                    .ins()
                    .store(flags, val, self.port, DATA_AT + 16 * v as i32);
            }
        }
        let end = 16 * self.nvec as i64;
        for access in [false, true] {
            // A loop over the lanes' byte offsets (4·l) in the address, mask and data words.
            let head = self.b.create_block();
            let o = self.b.append_block_param(head, self.ptr);
            let body = self.b.create_block();
            let active = self.b.create_block();
            let after = self.b.create_block();
            let zero = self.b.ins().iconst(self.ptr, 0);
            self.b.ins().jump(head, &[zero.into()]);
            self.b.switch_to_block(head);
            let done = self
                .b
                .ins()
                .icmp_imm(IntCC::UnsignedGreaterThanOrEqual, o, end);
            self.b.ins().brif(done, after, &[], body, &[]);
            self.b.switch_to_block(body);
            let next = self.b.ins().iadd_imm(o, 4);
            if self.masked {
                let m_at = self.b.ins().iadd(self.mask_ptr, o);
                let m = self.b.ins().load(types::I32, flags, m_at, 0);
                self.b.ins().brif(m, active, &[], head, &[next.into()]);
            } else {
                // Every lane is active.
                self.b.ins().jump(active, &[]);
            }
            self.b.switch_to_block(active);
            let lane = self.b.ins().iadd(self.port, o);
            let a = self.b.ins().load(types::I32, flags, lane, ADDRS_AT);
            let p = self.page_window(a, store, helper, 4);
            if access {
                if store {
                    let w = self.b.ins().load(types::I32, flags, lane, DATA_AT);
                    self.b.ins().store(flags, w, p, 0);
                } else {
                    let w = self.b.ins().load(types::I32, flags, p, 0);
                    self.b.ins().store(flags, w, lane, DATA_AT);
                }
            }
            self.b.ins().jump(head, &[next.into()]);
            self.b.switch_to_block(after);
        }
        if !store {
            for v in 0..self.nvec {
                let val =
                    self.b
                        .ins()
                        .load(types::I32X4, flags, self.port, DATA_AT + 16 * v as i32);
                self.set(data, v, val);
            }
        }
        self.b.ins().jump(cont, &[]);
        self.b.switch_to_block(helper);
    }

    /// A scalar translation's direct path: the one lane's word at address `a` (a scalar),
    /// if its page is in its window, then on to `cont`; the code emitted after this returns
    /// is the other case.
    fn direct_one(&mut self, dst: Option<u8>, data: u8, a: Value, cont: Block) {
        let store = dst.is_none();
        let flags = Self::flags();
        let other = self.b.create_block();
        let p = self.page_window(a, store, other, 4);
        if store {
            let val = self.get(data, 0);
            self.b.ins().store(flags, val, p, 0);
        } else {
            let w = self.b.ins().load(types::I32, flags, p, 0);
            self.set(data, 0, w);
        }
        self.b.ins().jump(cont, &[]);
        self.b.switch_to_block(other);
    }

    /// The page-window check of the direct path for an access of `size` bytes at address `a`
    /// (a scalar): to `other` if `a` is not a multiple of `size` or its DRAM page is not in
    /// its window for loads (or `store`s) in this run; else on, the builder left in the block
    /// that has the page, with the host pointer to `a`'s byte. One compare does it all: the
    /// window's key (the page's address | the run's tag) with `a`'s page and low bits | the
    /// tag (`abi::Window`). The tag is read from the context here, not kept from the entry
    /// (it would hold a host register through the whole function).
    fn page_window(&mut self, a: Value, store: bool, other: Block, size: u32) -> Value {
        let flags = Self::flags();
        let page_bits = DIRECT_PAGE_BYTES.trailing_zeros() as i64;
        let bits = !(DIRECT_PAGE_BYTES - 1) | (size - 1);
        let bits = self.b.ins().band_imm(a, i64::from(bits as i32));
        let bits = self.b.ins().uextend(types::I64, bits);
        let tag = self.b.ins().load(types::I64, flags, self.port, CTX_TAG);
        let want = self.b.ins().bor(bits, tag);
        let page = self.b.ins().ushr_imm(a, page_bits);
        let slot = self.b.ins().band_imm(page, WINDOWS as i64 - 1);
        let slot = self.b.ins().uextend(self.ptr, slot);
        let slot = self
            .b
            .ins()
            .ishl_imm(slot, i64::from(WINDOW_BYTES.trailing_zeros()));
        let window = self.b.ins().iadd(self.port, slot);
        let at = CTX_WINDOWS + i32::from(store) * WINDOWS as i32 * WINDOW_BYTES;
        let held = self.b.ins().load(types::I64, flags, window, at);
        let miss = self.b.ins().icmp(IntCC::NotEqual, held, want);
        let paged = self.b.create_block();
        self.b.ins().brif(miss, other, &[], paged, &[]);
        self.b.switch_to_block(paged);
        let bias = self.b.ins().load(self.ptr, flags, window, at + WINDOW_BIAS);
        let a = self.b.ins().uextend(self.ptr, a);
        self.b.ins().iadd(bias, a)
    }

    /// A byte or halfword load or store (`weft_simt::is_scalar_memory`) of a scalar
    /// translation, the `k`-th instruction of the body: on the page of its window if one
    /// holds it, else through the port's helper (which opens the window for the next
    /// access where the port allows); if the port refuses (a misaligned halfword, not plain
    /// DRAM, the code or the HTIF words, an LR reservation open for a store, a super-step over
    /// several warps), the block exits before the instruction for the interpreter.
    pub(crate) fn sub_word(&mut self, k: usize, pc: u32, i: &Inst) {
        let (dst, srcs) = operands(i);
        let store = dst.is_none();
        let size: u32 = if matches!(i.op, Op::Lb | Op::Lbu | Op::Sb) {
            1
        } else {
            2
        };
        let flags = Self::flags();
        let a = self.get(i.rs1, 0);
        let a = self.b.ins().iadd_imm(a, i64::from(i.imm));
        let val = match srcs[1] {
            Some(r) if store => Some(self.get(r, 0)),
            _ => None,
        };
        let cont = self.b.create_block();
        self.b.append_block_param(cont, types::I32);
        let slow = self.b.create_block();
        if cfg!(target_endian = "little") {
            let p = self.page_window(a, store, slow, size);
            let v = match (val, size, i.op) {
                (Some(v), 1, _) => {
                    self.b.ins().istore8(flags, v, p, 0);
                    v
                }
                (Some(v), _, _) => {
                    self.b.ins().istore16(flags, v, p, 0);
                    v
                }
                (None, 1, _) => self.b.ins().uload8(types::I32, flags, p, 0),
                _ => self.b.ins().uload16(types::I32, flags, p, 0),
            };
            self.b.ins().jump(cont, &[v.into()]);
        } else {
            self.b.ins().jump(slow, &[]);
        }
        // No window: the port's helper (which counts the access itself).
        self.b.switch_to_block(slow);
        let helper = self.helpers.expect("helpers").sub;
        let callee = self.b.ins().iconst(self.ptr, helper as usize as i64);
        let a64 = self.b.ins().uextend(types::I64, a);
        let what = self.b.ins().iconst(
            types::I64,
            ((u64::from(store) * SUB_STORE) | u64::from(size)) as i64,
        );
        let v64 = match val {
            Some(v) => self.b.ins().uextend(types::I64, v),
            None => self.b.ins().iconst(types::I64, 0),
        };
        let sig = self.sub_sig.expect("byte access signature");
        let call = self
            .b
            .ins()
            .call_indirect(sig, callee, &[self.port, a64, what, v64]);
        let r = self.b.inst_results(call)[0];
        let done = self.b.ins().ushr_imm(r, 32);
        let got = self.b.ins().ireduce(types::I32, r);
        let bail = self.b.create_block();
        self.b.ins().brif(done, cont, &[got.into()], bail, &[]);
        self.b.switch_to_block(bail);
        self.exit(pc, Some(k as u32), true);
        self.b.switch_to_block(cont);
        if let Some(d) = dst {
            // The loaded bytes, sign-extended for `lb` and `lh`.
            let v = self.b.block_params(cont)[0];
            let v = match i.op {
                Op::Lb => {
                    let s = self.b.ins().ishl_imm(v, 24);
                    self.b.ins().sshr_imm(s, 24)
                }
                Op::Lh => {
                    let s = self.b.ins().ishl_imm(v, 16);
                    self.b.ins().sshr_imm(s, 16)
                }
                _ => v,
            };
            self.set(d, 0, v);
        }
    }

    /// Does some active lane's address in the context differ from `a_all` (lane 0's in every lane)
    /// plus, if `steps`, 4 × the lane? (A scalar i8.)
    fn lanes_differ(&mut self, a_all: Value, steps: bool) -> Value {
        let flags = Self::flags();
        let mut off_by: Option<Value> = None;
        for v in 0..self.nvec {
            let at = self
                .b
                .ins()
                .load(types::I32X4, flags, self.port, ADDRS_AT + v as i32 * 16);
            let m = self
                .b
                .ins()
                .load(types::I32X4, flags, self.mask_ptr, v as i32 * 16);
            let expected = if steps {
                let k = self.lane_offsets(v as u32 * 16);
                self.b.ins().iadd(a_all, k)
            } else {
                a_all
            };
            let diff = self.b.ins().bxor(at, expected);
            let diff = self.b.ins().band(diff, m);
            off_by = Some(match off_by {
                Some(p) => self.b.ins().bor(p, diff),
                None => diff,
            });
        }
        self.b.ins().vany_true(off_by.expect("at least one vector"))
    }

    /// The lanes' byte offsets in vector `v` from lane 0 (`first` = 16·v): `first + 4·lane`.
    fn lane_offsets(&mut self, first: u32) -> Value {
        let bytes: Vec<u8> = (0..4).flat_map(|l| (first + 4 * l).to_le_bytes()).collect();
        let c = self.b.func.dfg.constants.insert(ConstantData::from(bytes));
        self.b.ins().vconst(types::I32X4, c)
    }

    /// The access through the memory port's helper (the addresses are in the context), exiting
    /// before the instruction if the helper refuses.
    fn through_helper(&mut self, k: usize, pc: u32, dst: Option<u8>, data: u8) {
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
        let addrs = self.b.ins().iadd_imm(self.port, i64::from(ADDRS_AT));
        let sig = self.helper_sig.expect("helper signature");
        let call = self
            .b
            .ins()
            .call_indirect(sig, callee, &[self.port, addrs, reg]);
        let ok = self.b.inst_results(call)[0];
        let done = self.b.create_block();
        let bail = self.b.create_block();
        self.b.ins().brif(ok, done, &[], bail, &[]);
        self.b.switch_to_block(bail);
        self.exit(pc, Some(k as u32), true);
        self.b.switch_to_block(done);
        if let (Some(d), false) = (dst, self.in_memory) {
            if d != 0 {
                for v in 0..self.nvec {
                    let val = self.load_vector(d, v);
                    self.b.def_var(self.var(d, v), val);
                }
            }
        }
    }
}
