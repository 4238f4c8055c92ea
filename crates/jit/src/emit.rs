//! The emitter's shared context: [`Emit`], the state of one function being built (the
//! Cranelift builder, the region's plan, where the registers live, the float guards), and its
//! basic tools — reading and writing a register's vectors (in SSA values or in the register
//! files), lane masks, splatted constants, exits, bail-outs and loops over the vectors. The
//! instruction emitters (`int.rs`, `memory.rs`, `float.rs`) and the function's skeleton
//! (`translate.rs`) build on it; it depends on none of them.

use crate::abi::{exit_word, Helpers, Kind, CTX_LEFT};
use crate::plan::{is_large, registers_in_memory, Plan, Term};
use crate::shape::operands;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, Constant, ConstantData, InstBuilder, MemFlags, SigRef, Value};
use cranelift_frontend::{FunctionBuilder, Variable};
use std::collections::HashMap;
use weft_isa::Inst;

/// Bytes per lane register (32 lanes of 4 bytes).
const REG_BYTES: i32 = 128;

/// The emitter of one block.
pub(crate) struct Emit<'a, 'b> {
    pub(crate) b: &'a mut FunctionBuilder<'b>,
    pub(crate) plan: &'a Plan,
    pub(crate) nvec: usize,
    pub(crate) masked: bool,
    /// A scalar translation ([`Kind::Lane`]): a register's value is one `i32` (the one
    /// active lane's), not a vector; `x` and `f` point at that lane's word of register 0,
    /// and a register's home is one word.
    pub(crate) one_lane: bool,
    /// Registers by id: 0–31 the integer registers (`x0` is never stored), 32–63 the float
    /// registers ([`freg`]).
    pub(crate) written: [bool; 64],
    pub(crate) used: [bool; 64],
    pub(crate) masks: Vec<Value>,
    /// Registers live in the warp's register file, not in SSA values: each use loads, each
    /// result is stored (wide warps, whose registers would not fit the host's vector
    /// registers anyway: this keeps compile time low and exits free).
    pub(crate) in_memory: bool,
    /// The lane-mask and float-environment pointers (read at each use when `in_memory`).
    pub(crate) mask_ptr: Value,
    pub(crate) env: Value,
    pub(crate) x: Value,
    pub(crate) f: Value,
    /// Per vector: the flags missing from each lane's `fflags` (`!fflags`), for the float
    /// guards; empty in a block with no float operation.
    pub(crate) missing: Vec<Value>,
    /// Scalar (i8) conditions from the float environment: the float state is not Dirty;
    /// dynamic rounding is not RNE on some active lane.
    pub(crate) fs_off: Option<Value>,
    pub(crate) dyn_not_rne: Option<Value>,
    /// The memory context (the helpers' first argument; the address words at
    /// `abi::ADDRS_AT`, the data words at `abi::DATA_AT`, the counters, windows and CSRs).
    pub(crate) port: Value,
    pub(crate) left: Variable,
    /// The block being emitted (its index in the region).
    pub(crate) cur: usize,
    pub(crate) ptr: types::Type,
    pub(crate) helpers: Option<Helpers>,
    pub(crate) helper_sig: Option<SigRef>,
    pub(crate) sub_sig: Option<SigRef>,
    pub(crate) jump_sig: Option<SigRef>,
    /// Word accesses try the direct path before the helpers (`memory.rs`).
    pub(crate) direct: bool,
    /// Inside a vector loop ([`Emit::vector_loop`]): its vector's bases and register values.
    pub(crate) vl: Option<VectorLoop>,
    /// The constant-pool entries of the splats made so far (the pool's own lookup is slow).
    pub(crate) consts: HashMap<u32, Constant>,
}

/// The state of one pass of a vector loop: the integer and float register files, the lane
/// mask, the float environment and the memory context (for its address words) at the
/// pass's vector (`+ 16 × vector`, the offset),
/// and, per register id, its value in this pass (loaded at the first use) and whether the
/// pass wrote it (stored at the end).
pub(crate) struct VectorLoop {
    pub(crate) x: Value,
    pub(crate) f: Value,
    pub(crate) m: Value,
    pub(crate) env: Value,
    pub(crate) ctx: Value,
    pub(crate) off: Value,
    pub(crate) vals: [Option<Value>; 64],
    pub(crate) written: [bool; 64],
}

impl<'a, 'b> Emit<'a, 'b> {
    pub(crate) fn new(
        b: &'a mut FunctionBuilder<'b>,
        plan: &'a Plan,
        nvec: usize,
        kind: Kind,
    ) -> Self {
        let one_lane = kind == Kind::Lane;
        let nvec = if one_lane { 1 } else { nvec };
        let mut used = [false; 64];
        let mut written = [false; 64];
        let mut insts: Vec<Inst> = Vec::new();
        for blk in &plan.blocks {
            insts.extend(blk.body.iter().map(|(_, i)| *i));
            if let Term::Branch(i, _) | Term::Call(i, _, _) = blk.term {
                insts.push(i);
            }
        }
        for i in &insts {
            let (dst, srcs) = operands(i);
            for s in srcs.into_iter().flatten() {
                used[s as usize] = true;
            }
            if let Some(d) = dst {
                // A partial write blends with the old value: it is an input too.
                used[d as usize] = true;
                written[d as usize] = true;
            }
        }
        used[0] = false;
        written[0] = false;
        Emit {
            b,
            plan,
            nvec,
            masked: kind == Kind::Masked,
            one_lane,
            written,
            used,
            masks: Vec::new(),
            in_memory: registers_in_memory(plan, nvec),
            mask_ptr: Value::from_u32(0),
            env: Value::from_u32(0),
            x: Value::from_u32(0),
            f: Value::from_u32(0),
            missing: Vec::new(),
            fs_off: None,
            dyn_not_rne: None,
            port: Value::from_u32(0),
            left: Variable::from_u32(0),
            cur: 0,
            ptr: types::I64,
            helpers: None,
            helper_sig: None,
            sub_sig: None,
            jump_sig: None,
            direct: false,
            vl: None,
            consts: HashMap::new(),
        }
    }

    /// Do lane-wise runs become loops over the vectors (registers in memory, several
    /// vectors, a large region: [`crate::plan::SMALL_REGION`])? (Float operations do whenever the
    /// registers are in memory: unrolled, their guards made a 5-instruction float loop at 32
    /// lanes take 2.7 ms to compile instead of 1.0, for 4 % more speed.)
    pub(crate) fn loops_over_vectors(&self) -> bool {
        self.in_memory && self.nvec > 1 && is_large(self.plan)
    }

    pub(crate) fn var(&self, r: u8, v: usize) -> Variable {
        Variable::from_u32(1 + (r as usize * self.nvec + v) as u32)
    }

    /// The register file holding register id `r`, and `r`'s offset in it.
    pub(crate) fn home(&self, r: u8) -> (Value, i32) {
        if let Some(vl) = &self.vl {
            return if r >= 32 {
                (vl.f, (r as i32 - 32) * REG_BYTES)
            } else {
                (vl.x, r as i32 * REG_BYTES)
            };
        }
        if r >= 32 {
            (self.f, (r as i32 - 32) * REG_BYTES)
        } else {
            (self.x, r as i32 * REG_BYTES)
        }
    }

    pub(crate) fn flags() -> MemFlags {
        MemFlags::new().with_notrap()
    }

    /// Store the written registers and return, the pc at `pc`: `done` instructions of an
    /// incomplete execution of the current block ran (`None`: the last execution counted was
    /// whole, or none began); `stop` tells the engine to hand over to the interpreter.
    pub(crate) fn exit(&mut self, pc: u32, done: Option<u32>, stop: bool) {
        for r in 1..64u8 {
            if self.written[r as usize] && !self.in_memory {
                self.store_home(r);
            }
        }
        self.store_left();
        let (part, k) = match done {
            Some(k) => (self.cur + 1, k),
            None => (0, 0),
        };
        let w = self
            .b
            .ins()
            .iconst(types::I64, exit_word(pc, stop, part, k) as i64);
        self.b.ins().return_(&[w]);
    }

    /// Store the written registers and return, the pc at the run-time value `pc` (an i32)
    /// after a whole execution of the current block, for the engine to go on there.
    pub(crate) fn exit_to(&mut self, pc: Value) {
        for r in 1..64u8 {
            if self.written[r as usize] && !self.in_memory {
                self.store_home(r);
            }
        }
        self.store_left();
        let w = self.b.ins().uextend(types::I64, pc);
        debug_assert_eq!(exit_word(0, false, 0, 0), 0);
        self.b.ins().return_(&[w]);
    }

    /// Leave the budget not used in the memory context (before a return).
    fn store_left(&mut self) {
        let left = self.b.use_var(self.left);
        self.b.ins().store(Self::flags(), left, self.port, CTX_LEFT);
    }

    /// Store register `r`'s SSA values to its home in the register file.
    pub(crate) fn store_home(&mut self, r: u8) {
        for v in 0..self.nvec {
            let val = self.b.use_var(self.var(r, v));
            self.store_vector(r, v, val);
        }
    }

    /// The type of a register's value: `i32x4` (a vector of it), or `i32` in a scalar
    /// translation.
    pub(crate) fn reg_type(&self) -> types::Type {
        if self.one_lane {
            types::I32
        } else {
            types::I32X4
        }
    }

    /// The constant `k` as a register value (in every lane, or the one scalar).
    pub(crate) fn konst(&mut self, k: u32) -> Value {
        if self.one_lane {
            self.b.ins().iconst(types::I32, i64::from(k as i32))
        } else {
            self.splat(k)
        }
    }

    /// Lane 0's word of a register value (the value itself in a scalar translation).
    pub(crate) fn lane0(&mut self, val: Value) -> Value {
        if self.one_lane {
            val
        } else {
            self.b.ins().extractlane(val, 0)
        }
    }

    /// The register value holding the word `w` (an `i32`) in every lane.
    pub(crate) fn of_word(&mut self, w: Value) -> Value {
        if self.one_lane {
            w
        } else {
            self.b.ins().splat(types::I32X4, w)
        }
    }

    /// Vector `v` of register `r` from its home in the register file (in a scalar
    /// translation, the lane's word).
    pub(crate) fn load_vector(&mut self, r: u8, v: usize) -> Value {
        let (base, off) = self.home(r);
        if self.one_lane {
            self.b.ins().load(types::I32, Self::flags(), base, off)
        } else {
            self.b
                .ins()
                .load(types::I32X4, Self::flags(), base, off + v as i32 * 16)
        }
    }

    /// Store `val` as vector `v` of register `r` to its home (in a scalar translation, the
    /// lane's word).
    pub(crate) fn store_vector(&mut self, r: u8, v: usize, val: Value) {
        let (base, off) = self.home(r);
        let off = if self.one_lane {
            off
        } else {
            off + v as i32 * 16
        };
        self.b.ins().store(Self::flags(), val, base, off);
    }

    pub(crate) fn get(&mut self, r: u8, v: usize) -> Value {
        if r == 0 {
            self.konst(0)
        } else if let Some(val) = self.vl.as_ref().and_then(|vl| vl.vals[r as usize]) {
            val
        } else if self.vl.is_some() {
            // In a vector loop: loaded at the first use in the pass.
            let (base, off) = self.home(r);
            let val = self
                .b
                .ins()
                .load(types::I32X4, Self::flags(), base, off + v as i32 * 16);
            if let Some(vl) = &mut self.vl {
                vl.vals[r as usize] = Some(val);
            }
            val
        } else if self.in_memory {
            self.load_vector(r, v)
        } else {
            self.b.use_var(self.var(r, v))
        }
    }

    pub(crate) fn set(&mut self, r: u8, v: usize, val: Value) {
        if r == 0 {
            return;
        }
        let val = if self.masked {
            let old = self.get(r, v);
            let m = self.mask(v);
            self.b.ins().bitselect(m, val, old)
        } else {
            val
        };
        if let Some(vl) = &mut self.vl {
            vl.vals[r as usize] = Some(val);
            vl.written[r as usize] = true;
        } else if self.in_memory {
            self.store_vector(r, v, val);
        } else {
            self.b.def_var(self.var(r, v), val);
        }
    }

    /// Vector `v` of the lane mask (all-ones lanes active).
    pub(crate) fn mask(&mut self, v: usize) -> Value {
        if let Some(m) = self.vl.as_ref().map(|vl| vl.m) {
            self.b.ins().load(types::I32X4, Self::flags(), m, 0)
        } else if self.in_memory {
            self.b
                .ins()
                .load(types::I32X4, Self::flags(), self.mask_ptr, v as i32 * 16)
        } else {
            self.masks[v]
        }
    }

    /// Vector `v` of the flags missing from each lane's `fflags`.
    pub(crate) fn missing(&mut self, v: usize) -> Value {
        if let Some(env) = self.vl.as_ref().map(|vl| vl.env) {
            let have = self.b.ins().load(types::I32X4, Self::flags(), env, 0);
            self.b.ins().bnot(have)
        } else if self.in_memory {
            let have = self
                .b
                .ins()
                .load(types::I32X4, Self::flags(), self.env, v as i32 * 16);
            self.b.ins().bnot(have)
        } else {
            self.missing[v]
        }
    }

    pub(crate) fn float_env_missing(&mut self, env: Value) {
        if self.in_memory {
            return;
        }
        for v in 0..self.nvec {
            let have = self
                .b
                .ins()
                .load(types::I32X4, Self::flags(), env, v as i32 * 16);
            let missing = self.b.ins().bnot(have);
            self.missing.push(missing);
        }
    }

    /// `k` in every lane: a constant-pool vector, which the host instruction using it can
    /// read from memory (no register, no code to build it).
    pub(crate) fn splat(&mut self, k: u32) -> Value {
        let c = match self.consts.get(&k) {
            Some(&c) => c,
            None => {
                let bytes: Vec<u8> = (0..4).flat_map(|_| k.to_le_bytes()).collect();
                let c = self.b.func.dfg.constants.insert(ConstantData::from(bytes));
                self.consts.insert(k, c);
                c
            }
        };
        self.b.ins().vconst(types::I32X4, c)
    }

    /// A loop over the vectors of the registers: each pass runs `body` on one vector (as
    /// vector 0, with the register files, mask and float environment based at it), with the
    /// registers it uses loaded once and those it writes stored at its end, and carries
    /// the values `carried` (their initial values) from pass to pass; returns their final
    /// values. Every operation the body emits must work lane by lane: then running
    /// instructions vector after vector computes what running each on every vector does, in
    /// code whose size does not grow with the warp.
    pub(crate) fn vector_loop(
        &mut self,
        carried: &[Value],
        mut body: impl FnMut(&mut Self, &[Value]) -> Vec<Value>,
    ) -> Vec<Value> {
        let head = self.b.create_block();
        let after = self.b.create_block();
        self.b.append_block_param(head, types::I64);
        for &c in carried {
            let t = self.b.func.dfg.value_type(c);
            self.b.append_block_param(head, t);
            self.b.append_block_param(after, t);
        }
        let zero = self.b.ins().iconst(types::I64, 0);
        let args: Vec<_> = std::iter::once(zero)
            .chain(carried.iter().copied())
            .map(Into::into)
            .collect();
        self.b.ins().jump(head, &args);
        self.b.switch_to_block(head);
        let params = self.b.block_params(head).to_vec();
        let n = params[0];
        let off = self.b.ins().ishl_imm(n, 4);
        self.begin_pass(off);
        let out = body(self, &params[1..]);
        self.end_pass();
        let next = self.b.ins().iadd_imm(n, 1);
        let more = self
            .b
            .ins()
            .icmp_imm(IntCC::UnsignedLessThan, next, self.nvec as i64);
        let again: Vec<_> = std::iter::once(next)
            .chain(out.iter().copied())
            .map(Into::into)
            .collect();
        let done: Vec<_> = out.iter().copied().map(Into::into).collect();
        self.b.ins().brif(more, head, &again, after, &done);
        self.b.switch_to_block(after);
        self.b.block_params(after).to_vec()
    }

    /// The passes of [`Emit::vector_loop`] unrolled: `body` once per vector, straight-line
    /// (each pass with the registers it uses loaded once and those it writes stored at its
    /// end). For small regions with registers in memory: a register's values live only
    /// within a pass, a few host registers, where running each instruction on every vector
    /// loads and stores each operand once per instruction.
    pub(crate) fn vector_passes(&mut self, mut body: impl FnMut(&mut Self)) {
        for v in 0..self.nvec {
            let off = self.b.ins().iconst(self.ptr, v as i64 * 16);
            self.begin_pass(off);
            body(self);
            self.end_pass();
        }
    }

    /// Start a pass over the vector at byte offset `off`: the register files, mask, float
    /// environment and the address words based at it, no register loaded yet.
    fn begin_pass(&mut self, off: Value) {
        let [x, f, m, env, ctx] =
            [self.x, self.f, self.mask_ptr, self.env, self.port].map(|p| self.b.ins().iadd(p, off));
        self.vl = Some(VectorLoop {
            x,
            f,
            m,
            env,
            ctx,
            off,
            vals: [None; 64],
            written: [false; 64],
        });
    }

    /// End the current pass: store the registers it wrote.
    fn end_pass(&mut self) {
        let vl = self.vl.take().expect("in a vector pass");
        for r in 1..64u8 {
            if let (true, Some(val)) = (vl.written[r as usize], vl.vals[r as usize]) {
                let (base, off) = if r >= 32 {
                    (vl.f, (r as i32 - 32) * REG_BYTES)
                } else {
                    (vl.x, r as i32 * REG_BYTES)
                };
                self.b.ins().store(Self::flags(), val, base, off);
            }
        }
    }

    /// Do lane-wise runs become unrolled passes over the vectors ([`Emit::vector_passes`]:
    /// registers in memory, several vectors, a small region)?
    pub(crate) fn passes_over_vectors(&self) -> bool {
        self.in_memory && self.nvec > 1 && !is_large(self.plan)
    }

    /// In a [`Emit::vector_loop`] pass: its vector's byte offset (16 × the vector).
    pub(crate) fn vector_offset(&self) -> Option<Value> {
        self.vl.as_ref().map(|vl| vl.off)
    }

    /// `a + k` on every lane (`a` itself for 0).
    pub(crate) fn offset(&mut self, a: Value, k: u32) -> Value {
        if k == 0 {
            return a;
        }
        let k = self.splat(k);
        self.b.ins().iadd(a, k)
    }

    /// If the scalar (i8) `cond` holds, exit before the `k`-th instruction of the body (at
    /// `pc`) for the interpreter to execute it.
    pub(crate) fn bail_if(&mut self, cond: Value, k: usize, pc: u32) {
        self.exit_if(cond, pc, Some(k as u32), true);
    }

    /// If the scalar `cond` holds, [`Emit::exit`] with `pc`, `done` and `stop`; go on in a
    /// new block otherwise.
    pub(crate) fn exit_if(&mut self, cond: Value, pc: u32, done: Option<u32>, stop: bool) {
        let cont = self.b.create_block();
        let out = self.b.create_block();
        self.b.ins().brif(cond, out, &[], cont, &[]);
        self.b.switch_to_block(out);
        self.exit(pc, done, stop);
        self.b.switch_to_block(cont);
    }
}
