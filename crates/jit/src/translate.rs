//! Translating a region of warp-private instructions into a Cranelift function.
//!
//! A block starts at a pc and runs straight-line private instructions (`weft_simt::is_private`),
//! word accesses (`weft_simt::is_block_memory`, through the memory port's helpers) and float
//! operations (`weft_simt::is_block_float`, `float.rs`) up to a terminator: a conditional
//! branch, a `jal x0`, the first instruction that is none of these, or [`MAX_BLOCK`]
//! instructions. A region ([`Plan`], `plan.rs`) is blocks linked by their jumps and branches;
//! an edge to one of them is a jump inside the function, any other edge an exit. Lane
//! registers (integer and float) are SIMD values of four lanes (`i32x4`): a register of an
//! `n`-lane warp is `ceil(n / 4)` vectors (in a scalar translation, one `i32`). In a region
//! of up to 3 vectors a register (12 lanes) and one block, or several of up to
//! [`crate::plan::SMALL_REGION`] instructions in all, they are loaded once at entry, kept
//! in SSA values and stored back at every exit; in larger regions, and from 4 vectors on
//! (which would not fit the host's 16 vector registers anyway), each use loads and each
//! result is stored, which keeps Cranelift's register allocation — most of the compile time
//! — cheap and the exits free; there, in large regions, runs of lane-wise instructions are
//! loops over the vectors ([`Emit::vector_loop`]). A *masked* translation blends each
//! result into the old value with the warp's lane mask (`bitselect`); an unmasked one
//! (every lane of every vector active) writes whole vectors. Operations with no lane-wise
//! vector form on the host (shifts by a register, high multiplies, division) are done lane
//! by lane on scalars.
//!
//! The function is `fn(x, f, masks, budget, ctx, env, entry)` ([`BlockFn`]): it starts at
//! block `entry`, runs whole block executions while the budget lasts, the active lanes agree
//! at each branch and the next block is in the region, counts the executions it began per
//! block (in the translation's counters, which the context points to), leaves the budget it
//! did not use in the context, and returns ([`exit_parts`]) the next pc, whether to hand over to the
//! interpreter, and the part of an incomplete execution that ran — the body when the lanes
//! disagreed at the closing branch (the interpreter executes it, splitting the warp), the
//! instructions before a memory access the port refused or a float guard failed.
//!
//! This module is the function's skeleton (signature, entry switch, blocks, terminators,
//! compilation). It builds on the emitter's context (`emit.rs`) and the instruction emitters
//! that extend it: `int.rs` (integer ops, branch conditions), `memory.rs` (loads and stores
//! through the port), `float.rs` (guarded float ops); `shape.rs` reads operand shapes from
//! the instruction table, `abi.rs` holds the compiled function's interface.

use crate::emit::Emit;
use crate::shape::is_float;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, AbiParam, InstBuilder, Signature};
use cranelift_codegen::isa::TargetIsa;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Switch};
use cranelift_jit::JITModule;
use cranelift_module::{Module, ModuleReloc};
use weft_isa::{Inst, Op};
use weft_simt::{
    call_effect, is_block_memory, is_scalar_csr_read, is_scalar_csr_set, is_scalar_memory,
    CallEffect, SCALAR_CSRS,
};

pub use crate::abi::{exit_parts, BlockFn, Helpers, Kind, MemCtx, ENV_DYN_RNE, ENV_FS_DIRTY};
use crate::abi::{CTX_COUNTS, CTX_CSRS, CTX_CSRS_OK, CTX_STOP_BLOCKS};
pub use crate::plan::{
    is_large, registers_in_memory, Block, Plan, Term, MAX_BLOCK, MAX_REGION, MAX_REGION_BLOCKS,
};
pub use crate::shape::is_branch;

/// The index of CSR `csr` among [`SCALAR_CSRS`] (the words of the memory context's `csrs`).
pub(crate) fn csr_slot(csr: u16) -> i32 {
    SCALAR_CSRS
        .iter()
        .position(|&c| c == csr)
        .expect("one of the scalar CSRs") as i32
}

/// Cranelift's reusable state for building and compiling functions.
pub struct Contexts {
    ctx: cranelift_codegen::Context,
    fctx: FunctionBuilderContext,
}

impl Default for Contexts {
    fn default() -> Contexts {
        Contexts {
            ctx: cranelift_codegen::Context::new(),
            fctx: FunctionBuilderContext::new(),
        }
    }
}

/// Emit and finalise the function for `plan` on `nvec` vectors per register, of `kind`
/// (a scalar translation, [`Kind::Lane`], has one vector whatever `nvec`), its word accesses with the direct path (`memory.rs`) if `direct` (made during a run of
/// one warp alone, where it can be taken; without it, the helpers only, which is less code
/// to compile where no page window ever opens).
#[allow(clippy::too_many_arguments)]
pub fn compile(
    module: &mut JITModule,
    quick: Option<&dyn TargetIsa>,
    cx: &mut Contexts,
    plan: &Plan,
    nvec: usize,
    kind: Kind,
    helpers: Helpers,
    direct: bool,
) -> Result<BlockFn, String> {
    let ptr = module.target_config().pointer_type();
    let call_conv = module.target_config().default_call_conv;
    let Contexts { ctx, fctx } = cx;
    module.clear_context(ctx);
    let sig = &mut ctx.func.signature;
    for _ in 0..3 {
        sig.params.push(AbiParam::new(ptr));
    }
    sig.params.push(AbiParam::new(types::I64));
    for _ in 0..2 {
        sig.params.push(AbiParam::new(ptr));
    }
    sig.params.push(AbiParam::new(types::I64));
    sig.returns.push(AbiParam::new(types::I64));
    let mut helper_sig = Signature::new(call_conv);
    for _ in 0..2 {
        helper_sig.params.push(AbiParam::new(ptr));
    }
    helper_sig.params.push(AbiParam::new(types::I64));
    helper_sig.returns.push(AbiParam::new(types::I32));
    let mut sub_sig = Signature::new(call_conv);
    sub_sig.params.push(AbiParam::new(ptr));
    for _ in 0..3 {
        sub_sig.params.push(AbiParam::new(types::I64));
    }
    sub_sig.returns.push(AbiParam::new(types::I64));
    let mut jump_sig = Signature::new(call_conv);
    jump_sig.params.push(AbiParam::new(ptr));
    jump_sig.params.push(AbiParam::new(types::I64));
    jump_sig.returns.push(AbiParam::new(types::I32));
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, fctx);
        let mut e = Emit::new(&mut b, plan, nvec, kind);
        e.ptr = ptr;
        e.helpers = Some(helpers);
        e.direct = direct;
        e.helper_sig = Some(e.b.import_signature(helper_sig));
        e.sub_sig = Some(e.b.import_signature(sub_sig));
        e.jump_sig = Some(e.b.import_signature(jump_sig));
        e.function();
        b.seal_all_blocks();
        b.finalize();
    }
    let id = module
        .declare_anonymous_function(&ctx.func.signature)
        .map_err(|e| e.to_string())?;
    match quick {
        // Compiled for the other target, handed to the module as bytes.
        Some(isa) => {
            let align = ctx
                .compile(isa, &mut Default::default())
                .map_err(|e| format!("{:?}", e.inner))?
                .buffer
                .alignment;
            let code = ctx.compiled_code().expect("just compiled");
            let bytes = code.code_buffer();
            let relocs: Vec<ModuleReloc> = code
                .buffer
                .relocs()
                .iter()
                .map(|r| ModuleReloc::from_mach_reloc(r, &ctx.func, id))
                .collect();
            module
                .define_function_bytes(id, u64::from(align), bytes, &relocs)
                .map_err(|e| format!("{e:?}"))?;
        }
        None => module
            .define_function(id, ctx)
            .map_err(|e| format!("{e:?}"))?,
    }
    module.clear_context(ctx);
    module.finalize_definitions().map_err(|e| e.to_string())?;
    let code = module.get_finalized_function(id);
    // SAFETY: the function was just defined with exactly this signature.
    Ok(unsafe { std::mem::transmute::<*const u8, BlockFn>(code) })
}

impl<'a, 'b> Emit<'a, 'b> {
    fn function(mut self) {
        let b = &mut *self.b;
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let params = b.block_params(entry).to_vec();
        let (x, mp, budget) = (params[0], params[2], params[3]);
        self.x = x;
        self.f = params[1];
        self.port = params[4];
        let env = params[5];
        self.env = env;
        self.mask_ptr = mp;
        let insts = || self.plan.blocks.iter().flat_map(|blk| blk.body.iter());
        let float = insts().any(|(_, i)| is_float(i.op) || matches!(i.op, Op::Flw | Op::Fsw));
        b.declare_var(self.left, types::I64);
        b.def_var(self.left, budget);
        for r in 1..64u8 {
            for v in 0..self.nvec {
                let var = self.var(r, v);
                let ty = self.reg_type();
                self.b.declare_var(var, ty);
                if self.used[r as usize] && !self.in_memory {
                    let val = self.load_vector(r, v);
                    self.b.def_var(var, val);
                }
            }
        }
        if float {
            self.float_env(env);
        }
        if self.masked && !self.in_memory {
            for v in 0..self.nvec {
                let m = self
                    .b
                    .ins()
                    .load(types::I32X4, Self::flags(), mp, v as i32 * 16);
                self.masks.push(m);
            }
        }
        // Each block: a header that checks the budget for a whole execution and that the
        // block is not one to stop before, then the body, which counts the execution, runs
        // the instructions and goes to the next block. (The stop bits and the counters are
        // read where they are used, from the context: values kept from the entry would hold
        // host registers through the whole function.)
        let n = self.plan.blocks.len();
        let headers: Vec<_> = (0..n).map(|_| self.b.create_block()).collect();
        if n == 1 {
            self.b.ins().jump(headers[0], &[]);
        } else {
            let mut switch = Switch::new();
            for (k, &h) in headers.iter().enumerate() {
                switch.set_entry(k as u128, h);
            }
            switch.emit(self.b, params[6], headers[0]);
        }
        for k in 0..n {
            self.cur = k;
            let blk = &self.plan.blocks[k];
            let (len, start) = (blk.len() as i64, blk.pc);
            self.b.switch_to_block(headers[k]);
            let left = self.b.use_var(self.left);
            let short = self.b.ins().icmp_imm(IntCC::SignedLessThan, left, len);
            self.exit_if(short, start, None, false);
            let stop_blocks =
                self.b
                    .ins()
                    .load(types::I32, Self::flags(), self.port, CTX_STOP_BLOCKS);
            let stop = self
                .b
                .ins()
                .band_imm(stop_blocks, i64::from((1u32 << k) as i32));
            self.exit_if(stop, start, None, true);
            let left = self.b.ins().iadd_imm(left, -len);
            self.b.def_var(self.left, left);
            let counts = self
                .b
                .ins()
                .load(self.ptr, Self::flags(), self.port, CTX_COUNTS);
            let at = k as i32 * 8;
            let c = self.b.ins().load(types::I64, Self::flags(), counts, at);
            let c = self.b.ins().iadd_imm(c, 1);
            self.b.ins().store(Self::flags(), c, counts, at);
            let body = &self.plan.blocks[k].body;
            let mut j = 0;
            while j < body.len() {
                let (pc, i) = body[j];
                if is_block_memory(&i) {
                    self.memory(j, pc, &i);
                    j += 1;
                } else if is_scalar_memory(&i) {
                    self.sub_word(j, pc, &i);
                    j += 1;
                } else if is_scalar_csr_read(&i) {
                    self.csr_read(j, pc, &i);
                    j += 1;
                } else if is_scalar_csr_set(&i) {
                    self.fflags_set(j, pc, &i);
                    j += 1;
                } else if is_float(i.op) {
                    self.float(j, pc, &i);
                    j += 1;
                } else if self.loops_over_vectors() || self.passes_over_vectors() {
                    // The lane-wise run up to the next memory or float instruction.
                    let end = (j..body.len())
                        .find(|&e| is_block_memory(&body[e].1) || is_float(body[e].1.op))
                        .unwrap_or(body.len());
                    if self.loops_over_vectors() {
                        self.lanewise_run(&body[j..end]);
                    } else {
                        let run = &body[j..end];
                        self.vector_passes(|e| {
                            for (pc, i) in run {
                                e.inst_on(*pc, i, 0);
                            }
                        });
                    }
                    j = end;
                } else {
                    self.inst(pc, &i);
                    j += 1;
                }
            }
            let blk = &self.plan.blocks[k];
            let done = blk.body.len() as u32;
            match blk.term {
                Term::Fall(pc) => self.exit(pc, None, false),
                Term::Jump(t) => self.go(t, &headers),
                Term::Branch(i, pc) if self.one_lane => {
                    let (taken, _) = self.condition(&i);
                    let yes = self.b.create_block();
                    let no = self.b.create_block();
                    self.b.ins().brif(taken, yes, &[], no, &[]);
                    self.b.switch_to_block(yes);
                    self.go(pc.wrapping_add(i.imm as u32), &headers);
                    self.b.switch_to_block(no);
                    self.go(pc.wrapping_add(i.len()), &headers);
                }
                Term::Call(i, pc, target) => self.jump(&i, pc, target, done, &headers),
                Term::Branch(i, pc) => {
                    let (all, any) = self.condition(&i);
                    let taken = self.b.create_block();
                    let not_all = self.b.create_block();
                    let none = self.b.create_block();
                    let mixed = self.b.create_block();
                    self.b.ins().brif(all, taken, &[], not_all, &[]);
                    self.b.switch_to_block(taken);
                    self.go(pc.wrapping_add(i.imm as u32), &headers);
                    self.b.switch_to_block(not_all);
                    self.b.ins().brif(any, mixed, &[], none, &[]);
                    self.b.switch_to_block(none);
                    self.go(pc.wrapping_add(i.len()), &headers);
                    self.b.switch_to_block(mixed);
                    self.exit(pc, Some(done), true);
                }
            }
        }
    }

    /// After a whole execution, go on at `target`: in the translated code if a block of the
    /// region starts there, else back to the engine.
    fn go(&mut self, target: u32, headers: &[cranelift_codegen::ir::Block]) {
        match self.plan.index_of(target) {
            Some(k) => {
                self.b.ins().jump(headers[k], &[]);
            }
            None => self.exit(target, None, false),
        }
    }

    /// A scalar or full translation's `jal` that links or `jalr` at `pc` ([`Term::Call`])
    /// closing a body of `done` instructions, as the interpreter's handlers run it when no
    /// lane splits (`weft_simt::is_scalar_jump`): the target (`(rs1 + imm) & !1` for a
    /// `jalr`, lane 0's, read before the link is written; in a full translation every
    /// lane's must be the same, or the code exits before the jump for the interpreter to
    /// split the warp), the call stack's [`weft_simt::call_effect`] through the jump helper
    /// (which refuses where the context holds no call stack: exit before the jump, nothing
    /// changed), the link `pc` + length to `rd` on every lane; then on at the target: a
    /// block of the region (a return compares its target with the region's return sites)
    /// or back to the engine.
    fn jump(
        &mut self,
        i: &Inst,
        pc: u32,
        target: Option<u32>,
        done: u32,
        headers: &[cranelift_codegen::ir::Block],
    ) {
        let dynamic = match target {
            Some(_) => None,
            None => {
                let base = self.get(i.rs1, 0);
                let base = self.lane0(base);
                let t = self.b.ins().iadd_imm(base, i64::from(i.imm));
                let t = self.b.ins().band_imm(t, -2);
                if !self.one_lane {
                    // Every lane of a full warp must go where lane 0 goes (`rs1 + imm` equal
                    // up to bit 0); otherwise the interpreter splits the warp at the jump.
                    let want = self.b.ins().splat(types::I32X4, t);
                    let imm = self.splat(i.imm as u32);
                    let even = self.splat(!1);
                    let mut same = None;
                    for v in 0..self.nvec {
                        let r = self.get(i.rs1, v);
                        let lane = self.b.ins().iadd(r, imm);
                        let lane = self.b.ins().band(lane, even);
                        let eq = self.b.ins().icmp(IntCC::Equal, lane, want);
                        same = Some(match same {
                            None => eq,
                            Some(s) => self.b.ins().band(s, eq),
                        });
                    }
                    let all = self.b.ins().vall_true(same.expect("at least one vector"));
                    let split = self.b.ins().icmp_imm(IntCC::Equal, all, 0);
                    self.bail_if(split, done as usize, pc);
                }
                Some(t)
            }
        };
        let effect = call_effect(i);
        if effect != CallEffect::None {
            let helpers = self.helpers.expect("helpers set");
            let sig = self.jump_sig.expect("signature set");
            let f = self.b.ins().iconst(self.ptr, helpers.jump as usize as i64);
            let code = self.b.ins().iconst(types::I64, effect as i64);
            let call = self.b.ins().call_indirect(sig, f, &[self.port, code]);
            let ok = self.b.inst_results(call)[0];
            let refused = self.b.ins().icmp_imm(IntCC::Equal, ok, 0);
            self.bail_if(refused, done as usize, pc);
        }
        if i.rd != 0 {
            let link = self.konst(pc.wrapping_add(i.len()));
            for v in 0..self.nvec {
                self.set(i.rd, v, link);
            }
        }
        match (target, dynamic) {
            (Some(t), _) => self.go(t, headers),
            (None, Some(t)) => {
                // A return: to a block of the region at one of its calls' return sites.
                let sites: Vec<u32> = if effect == CallEffect::Return {
                    let mut v = self.plan.return_sites();
                    v.retain(|&s| self.plan.index_of(s).is_some());
                    v.sort_unstable();
                    v.dedup();
                    v
                } else {
                    Vec::new()
                };
                for s in sites {
                    let k = self.plan.index_of(s).expect("kept above");
                    let hit = self.b.ins().icmp_imm(IntCC::Equal, t, i64::from(s));
                    let miss = self.b.create_block();
                    self.b.ins().brif(hit, headers[k], &[], miss, &[]);
                    self.b.switch_to_block(miss);
                }
                self.exit_to(t);
            }
            (None, None) => unreachable!("a jump without a target"),
        }
    }

    /// A scalar translation's read of `fflags`, `frm` or `fcsr` (`weft_simt::is_scalar_csr_read`),
    /// the `k`-th instruction of the body, at `pc`: the value the engine put in the memory
    /// context for the lane, or, where it put none (the float state is not Dirty), an exit
    /// before it for the interpreter.
    fn csr_read(&mut self, k: usize, pc: u32, i: &Inst) {
        let ok = self
            .b
            .ins()
            .load(types::I32, Self::flags(), self.port, CTX_CSRS_OK);
        let off = csr_slot(i.imm as u16);
        let none = self.b.ins().icmp_imm(IntCC::Equal, ok, 0);
        self.bail_if(none, k, pc);
        let v = self
            .b
            .ins()
            .load(types::I32, Self::flags(), self.port, CTX_CSRS + 4 * off);
        let v = self.of_word(v);
        self.set(i.rd, 0, v);
    }

    /// A scalar translation's `csrrs`/`csrrsi` setting bits of `fflags`
    /// (`weft_simt::is_scalar_csr_set`), the `k`-th instruction of the body, at `pc`: the
    /// flags (and `fcsr`'s) the engine put in the memory context gain the operand's low five
    /// bits, and `rd` gets the old flags; the engine writes the flags back to the warp. Where
    /// the context has no values (the float state is not Dirty), an exit before it for the
    /// interpreter.
    fn fflags_set(&mut self, k: usize, pc: u32, i: &Inst) {
        let flags = Self::flags();
        let ok = self.b.ins().load(types::I32, flags, self.port, CTX_CSRS_OK);
        let none = self.b.ins().icmp_imm(IntCC::Equal, ok, 0);
        self.bail_if(none, k, pc);
        let operand = if i.op == Op::Csrrsi {
            self.konst(u32::from(i.rs1))
        } else {
            self.get(i.rs1, 0)
        };
        let bits = self.b.ins().band_imm(operand, 0x1f);
        let mut old = None;
        for csr in [weft_isa::csr::FFLAGS, weft_isa::csr::FCSR] {
            let at = CTX_CSRS + 4 * csr_slot(csr);
            let v = self.b.ins().load(types::I32, flags, self.port, at);
            old.get_or_insert(v);
            let new = self.b.ins().bor(v, bits);
            self.b.ins().store(flags, new, self.port, at);
        }
        if i.rd != 0 {
            let v = self.of_word(old.expect("fflags read"));
            self.set(i.rd, 0, v);
        }
    }

    /// Lane-wise private instructions (no memory access, no float operation) on every
    /// vector, as a loop over the vectors ([`Emit::vector_loop`]).
    fn lanewise_run(&mut self, insts: &[(u32, Inst)]) {
        self.vector_loop(&[], |e, _| {
            for (pc, i) in insts {
                e.inst_on(*pc, i, 0);
            }
            Vec::new()
        });
    }
}
