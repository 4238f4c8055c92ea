//! Translating a region of warp-private instructions into a Cranelift function.
//!
//! A block starts at a pc and runs straight-line private instructions (`weft_simt::is_private`),
//! word accesses (`weft_simt::is_block_memory`, through the memory port's helpers) and float
//! operations (`weft_simt::is_block_float`, `float.rs`) up to a terminator: a conditional
//! branch, a `jal x0`, the first instruction that is none of these, or [`MAX_BLOCK`]
//! instructions. A region ([`Plan`], `plan.rs`) is blocks linked by their jumps and branches;
//! an edge to one of them is a jump inside the function, any other edge an exit. Lane
//! registers (integer and float) are SIMD values of four lanes (`i32x4`): a register of an
//! `n`-lane warp is `ceil(n / 4)` vectors. In a region of up to 3 vectors a register (12
//! lanes) and one block, or several of up to [`crate::plan::SMALL_REGION`] instructions in
//! all, they are loaded once at entry, kept in SSA values and stored back at every exit; in
//! larger regions, and from 4 vectors on (which would not fit the host's 16 vector registers
//! anyway), each use loads and each result is stored, which keeps Cranelift's register
//! allocation — most of the compile time — cheap and the exits free; there, in large
//! regions, runs of lane-wise instructions are loops over the vectors
//! ([`Emit::vector_loop`]). A *masked* translation blends each result into the old value
//! with the warp's lane mask (`bitselect`); an unmasked one (every lane of every vector
//! active) writes whole vectors. Operations with no lane-wise vector form
//! on the host (shifts by a register, high multiplies, division) are done lane by lane on
//! scalars.
//!
//! The function is `fn(x, f, masks, budget, out, port, env, entry)` ([`BlockFn`]): it starts at
//! block `entry`, runs whole block executions while the budget lasts, the active lanes agree
//! at each branch and the next block is in the region, counts the executions it began per
//! block in `out`, and returns ([`exit_parts`]) the next pc, whether to hand over to the
//! interpreter, and the part of an incomplete execution that ran — the body when the lanes
//! disagreed at the closing branch (the interpreter executes it, splitting the warp), the
//! instructions before a memory access the port refused or a float guard failed.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    types, AbiParam, Constant, ConstantData, InstBuilder, MemFlags, SigRef, Signature, Value,
};
use cranelift_codegen::isa::TargetIsa;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Switch, Variable};
use cranelift_jit::JITModule;
use cranelift_module::{Module, ModuleReloc};
use std::collections::HashMap;
use weft_isa::{Class, Inst, Op};
use weft_simt::is_block_memory;

pub use crate::float::{ENV_DYN_RNE, ENV_FS_DIRTY};
pub use crate::plan::{
    is_large, registers_in_memory, Block, Plan, Term, MAX_BLOCK, MAX_REGION_BLOCKS,
};

/// What a translated function returns, packed in one word (one constant per exit): the
/// next pc (bits 0–31), whether to hand over to the interpreter (bit 32), the block an
/// incomplete execution was in, plus one (bits 33–39; 0: none), and the instructions of it
/// that ran (bits 40–47).
fn exit_word(pc: u32, stop: bool, part: usize, k: u32) -> u64 {
    u64::from(pc) | u64::from(stop) << 32 | (part as u64 & 0x7f) << 33 | u64::from(k & 0xff) << 40
}

/// The parts of an [`exit_word`]: (next pc, stop, block of an incomplete execution plus one
/// or 0, its instructions that ran).
pub fn exit_parts(w: u64) -> (u32, bool, usize, usize) {
    (
        w as u32,
        w >> 32 & 1 != 0,
        (w >> 33 & 0x7f) as usize,
        (w >> 40 & 0xff) as usize,
    )
}

/// The translated function's type: (integer registers, float registers, lane masks, budget,
/// out, memory port, float environment, entry block) → [`exit_word`]. The code starts at
/// the entry block (an index into the region's blocks: a region translated for one block
/// start serves every block start in it). `out` holds one counter per block (all zero on
/// entry), 64 bits each, then room for a memory access's addresses ([`ADDRS_AT`]). The
/// float environment is 33 words: each lane's `fflags`, then [`ENV_FS_DIRTY`] |
/// [`ENV_DYN_RNE`].
pub type BlockFn = unsafe extern "C" fn(
    *mut u32,
    *mut u32,
    *const u32,
    i64,
    *mut u64,
    *mut std::ffi::c_void,
    *const u32,
    i64,
) -> i64;

/// A memory helper the translated code calls: (memory port, the 32 lanes' addresses,
/// integer registers, float registers, the data register's id: integer 0–31, float 32–63)
/// → nonzero if done, 0 if the interpreter must execute the instruction (then no register
/// has changed). The helper reads a store's data from the register file and writes a load's
/// words to the destination's active lanes itself.
pub type MemHelper =
    unsafe extern "C" fn(*mut std::ffi::c_void, *const u32, *mut u32, *mut u32, u64) -> u32;

/// Where in `out` a memory access's 32 lane addresses go (bytes): after the block counters.
pub const ADDRS_AT: i32 = 8 * MAX_REGION_BLOCKS as i32;

/// Words (64-bit) of a translated function's `out`: the block counters, the addresses of a
/// memory access.
pub const OUT_WORDS: usize = MAX_REGION_BLOCKS + 16;

/// The helpers for `lw` and `sw`.
#[derive(Clone, Copy)]
pub struct Helpers {
    pub load: MemHelper,
    pub store: MemHelper,
}

/// Bytes per lane register (32 lanes of 4 bytes).
const REG_BYTES: i32 = 128;

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

/// Emit and finalise the function for `plan` on `nvec` vectors per register, `masked` or not.
pub fn compile(
    module: &mut JITModule,
    quick: Option<&dyn TargetIsa>,
    cx: &mut Contexts,
    plan: &Plan,
    nvec: usize,
    masked: bool,
    helpers: Helpers,
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
    for _ in 0..3 {
        sig.params.push(AbiParam::new(ptr));
    }
    sig.params.push(AbiParam::new(types::I64));
    sig.returns.push(AbiParam::new(types::I64));
    let mut helper_sig = Signature::new(call_conv);
    for _ in 0..4 {
        helper_sig.params.push(AbiParam::new(ptr));
    }
    helper_sig.params.push(AbiParam::new(types::I64));
    helper_sig.returns.push(AbiParam::new(types::I32));
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, fctx);
        let mut e = Emit::new(&mut b, plan, nvec, masked);
        e.ptr = ptr;
        e.helpers = Some(helpers);
        e.helper_sig = Some(e.b.import_signature(helper_sig));
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

/// The emitter of one block.
pub(crate) struct Emit<'a, 'b> {
    pub(crate) b: &'a mut FunctionBuilder<'b>,
    plan: &'a Plan,
    pub(crate) nvec: usize,
    pub(crate) masked: bool,
    /// Registers by id: 0–31 the integer registers (`x0` is never stored), 32–63 the float
    /// registers ([`freg`]).
    written: [bool; 64],
    used: [bool; 64],
    masks: Vec<Value>,
    /// Registers live in the warp's register file, not in SSA values: each use loads, each
    /// result is stored (wide warps, whose registers would not fit the host's vector
    /// registers anyway: this keeps compile time low and exits free).
    pub(crate) in_memory: bool,
    /// The lane-mask and float-environment pointers (read at each use when `in_memory`).
    mask_ptr: Value,
    env: Value,
    x: Value,
    f: Value,
    /// Per vector: the flags missing from each lane's `fflags` (`!fflags`), for the float
    /// guards; empty in a block with no float operation.
    missing: Vec<Value>,
    /// Scalar (i8) conditions from the float environment: the float state is not Dirty;
    /// dynamic rounding is not RNE on some active lane.
    pub(crate) fs_off: Option<Value>,
    pub(crate) dyn_not_rne: Option<Value>,
    out: Value,
    port: Value,
    left: Variable,
    /// The block being emitted (its index in the region).
    cur: usize,
    pub(crate) ptr: types::Type,
    helpers: Option<Helpers>,
    helper_sig: Option<SigRef>,
    /// Inside a vector loop ([`Emit::vector_loop`]): its vector's bases and register values.
    vl: Option<VectorLoop>,
    /// The constant-pool entries of the splats made so far (the pool's own lookup is slow).
    consts: HashMap<u32, Constant>,
}

/// The state of one pass of a vector loop: the integer and float register files, the lane
/// mask, the float environment and `out` at the pass's vector (`+ 16 × vector`, the offset),
/// and, per register id, its value in this pass (loaded at the first use) and whether the
/// pass wrote it (stored at the end).
struct VectorLoop {
    x: Value,
    f: Value,
    m: Value,
    env: Value,
    out: Value,
    off: Value,
    vals: [Option<Value>; 64],
    written: [bool; 64],
}

impl<'a, 'b> Emit<'a, 'b> {
    fn new(b: &'a mut FunctionBuilder<'b>, plan: &'a Plan, nvec: usize, masked: bool) -> Self {
        let mut used = [false; 64];
        let mut written = [false; 64];
        let mut insts: Vec<Inst> = Vec::new();
        for blk in &plan.blocks {
            insts.extend(blk.body.iter().map(|(_, i)| *i));
            if let Term::Branch(i, _) = blk.term {
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
            masked,
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
            out: Value::from_u32(0),
            port: Value::from_u32(0),
            left: Variable::from_u32(0),
            cur: 0,
            ptr: types::I64,
            helpers: None,
            helper_sig: None,
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

    fn var(&self, r: u8, v: usize) -> Variable {
        Variable::from_u32(1 + (r as usize * self.nvec + v) as u32)
    }

    /// The register file holding register id `r`, and `r`'s offset in it.
    fn home(&self, r: u8) -> (Value, i32) {
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

    fn flags() -> MemFlags {
        MemFlags::new().with_notrap()
    }

    fn function(mut self) {
        let b = &mut *self.b;
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let params = b.block_params(entry).to_vec();
        let (x, mp, budget, out) = (params[0], params[2], params[3], params[4]);
        self.x = x;
        self.f = params[1];
        self.out = out;
        self.port = params[5];
        let env = params[6];
        self.env = env;
        self.mask_ptr = mp;
        let insts = || self.plan.blocks.iter().flat_map(|blk| blk.body.iter());
        let float = insts().any(|(_, i)| is_float(i.op) || matches!(i.op, Op::Flw | Op::Fsw));
        b.declare_var(self.left, types::I64);
        b.def_var(self.left, budget);
        for r in 1..64u8 {
            for v in 0..self.nvec {
                let var = self.var(r, v);
                self.b.declare_var(var, types::I32X4);
                if self.used[r as usize] && !self.in_memory {
                    let (base, off) = self.home(r);
                    let off = off + v as i32 * 16;
                    let val = self.b.ins().load(types::I32X4, Self::flags(), base, off);
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
        // Each block: a header that checks the budget for a whole execution, then the body,
        // which counts the execution, runs the instructions and goes to the next block.
        let n = self.plan.blocks.len();
        let headers: Vec<_> = (0..n).map(|_| self.b.create_block()).collect();
        if n == 1 {
            self.b.ins().jump(headers[0], &[]);
        } else {
            let mut switch = Switch::new();
            for (k, &h) in headers.iter().enumerate() {
                switch.set_entry(k as u128, h);
            }
            switch.emit(self.b, params[7], headers[0]);
        }
        for k in 0..n {
            self.cur = k;
            let blk = &self.plan.blocks[k];
            let (len, start) = (blk.len() as i64, blk.pc);
            self.b.switch_to_block(headers[k]);
            let left = self.b.use_var(self.left);
            let short = self.b.ins().icmp_imm(IntCC::SignedLessThan, left, len);
            let body = self.b.create_block();
            let budget_exit = self.b.create_block();
            self.b.ins().brif(short, budget_exit, &[], body, &[]);
            self.b.switch_to_block(budget_exit);
            self.exit(start, None, false);
            self.b.switch_to_block(body);
            let left = self.b.ins().iadd_imm(left, -len);
            self.b.def_var(self.left, left);
            let at = k as i32 * 8;
            let c = self.b.ins().load(types::I64, Self::flags(), self.out, at);
            let c = self.b.ins().iadd_imm(c, 1);
            self.b.ins().store(Self::flags(), c, self.out, at);
            let body = &self.plan.blocks[k].body;
            let mut j = 0;
            while j < body.len() {
                let (pc, i) = body[j];
                if is_block_memory(&i) {
                    self.memory(j, pc, &i);
                    j += 1;
                } else if is_float(i.op) {
                    self.float(j, pc, &i);
                    j += 1;
                } else if self.loops_over_vectors() {
                    // The lane-wise run up to the next memory or float instruction.
                    let end = (j..body.len())
                        .find(|&e| is_block_memory(&body[e].1) || is_float(body[e].1.op))
                        .unwrap_or(body.len());
                    self.lanewise_run(&body[j..end]);
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

    /// Store the written registers and return, the pc at `pc`: `done` instructions of an
    /// incomplete execution of the current block ran (`None`: the last execution counted was
    /// whole, or none began); `stop` tells the engine to hand over to the interpreter.
    pub(crate) fn exit(&mut self, pc: u32, done: Option<u32>, stop: bool) {
        for r in 1..64u8 {
            if self.written[r as usize] && !self.in_memory {
                self.store_home(r);
            }
        }
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

    /// Store register `r`'s SSA values to its home in the register file.
    fn store_home(&mut self, r: u8) {
        for v in 0..self.nvec {
            let val = self.b.use_var(self.var(r, v));
            let (base, off) = self.home(r);
            self.b
                .ins()
                .store(Self::flags(), val, base, off + v as i32 * 16);
        }
    }

    pub(crate) fn get(&mut self, r: u8, v: usize) -> Value {
        if r == 0 {
            self.splat(0)
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
            let (base, off) = self.home(r);
            self.b
                .ins()
                .load(types::I32X4, Self::flags(), base, off + v as i32 * 16)
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
            let (base, off) = self.home(r);
            self.b
                .ins()
                .store(Self::flags(), val, base, off + v as i32 * 16);
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
        let [x, f, m, env, out] =
            [self.x, self.f, self.mask_ptr, self.env, self.out].map(|p| self.b.ins().iadd(p, off));
        self.vl = Some(VectorLoop {
            x,
            f,
            m,
            env,
            out,
            off,
            vals: [None; 64],
            written: [false; 64],
        });
        let out = body(self, &params[1..]);
        let vl = self.vl.take().expect("in a vector loop");
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

    /// In a [`Emit::vector_loop`] pass: its vector's byte offset (16 × the vector).
    pub(crate) fn vector_offset(&self) -> Option<Value> {
        self.vl.as_ref().map(|vl| vl.off)
    }

    /// One private instruction at `pc`, on every vector.
    fn inst(&mut self, pc: u32, i: &Inst) {
        for v in 0..self.nvec {
            self.inst_on(pc, i, v);
        }
    }

    /// One private instruction at `pc`, on vector `v`.
    fn inst_on(&mut self, pc: u32, i: &Inst, v: usize) {
        use Op::*;
        let imm = i.imm as u32;
        {
            let a = if matches!(i.op, Lui | Auipc) {
                self.splat(0)
            } else {
                self.get(i.rs1, v)
            };
            let bv = match i.op {
                Addi | Slti | Sltiu | Xori | Ori | Andi | Lui => self.splat(imm),
                Slli | Srli | Srai | Auipc => a,
                _ => self.get(i.rs2, v),
            };
            let ins = self.b.ins();
            let r = match i.op {
                Lui => bv,
                Auipc => self.splat(pc.wrapping_add(imm)),
                Add | Addi => ins.iadd(a, bv),
                Sub => ins.isub(a, bv),
                Xor | Xori => ins.bxor(a, bv),
                Or | Ori => ins.bor(a, bv),
                And | Andi => ins.band(a, bv),
                Mul => ins.imul(a, bv),
                Slt | Slti | Sltu | Sltiu => {
                    let cc = if matches!(i.op, Slt | Slti) {
                        IntCC::SignedLessThan
                    } else {
                        IntCC::UnsignedLessThan
                    };
                    let m = ins.icmp(cc, a, bv);
                    let one = self.splat(1);
                    self.b.ins().band(m, one)
                }
                Slli | Srli | Srai => {
                    let sh = ins.iconst(types::I32, (imm & 31) as i64);
                    match i.op {
                        Slli => self.b.ins().ishl(a, sh),
                        Srli => self.b.ins().ushr(a, sh),
                        _ => self.b.ins().sshr(a, sh),
                    }
                }
                _ => self.lanewise(i.op, a, bv),
            };
            self.set(i.rd, v, r);
        }
    }

    /// `lw`/`sw`/`flw`/`fsw`, the `k`-th instruction of the body, through the memory port's
    /// helper, which takes the registers from the register files (values kept in SSA are
    /// stored to their homes first, and a loaded register is read back); if the helper
    /// refuses (or, for `flw`/`fsw`, the float state is not Dirty), the block exits before
    /// the instruction with `k` instructions of this execution done.
    fn memory(&mut self, k: usize, pc: u32, i: &Inst) {
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

    /// `a + k` on every lane (`a` itself for 0).
    fn offset(&mut self, a: Value, k: u32) -> Value {
        if k == 0 {
            return a;
        }
        let k = self.splat(k);
        self.b.ins().iadd(a, k)
    }

    /// If the scalar (i8) `cond` holds, exit before the `k`-th instruction of the body (at
    /// `pc`) for the interpreter to execute it.
    pub(crate) fn bail_if(&mut self, cond: Value, k: usize, pc: u32) {
        let cont = self.b.create_block();
        let bail = self.b.create_block();
        self.b.ins().brif(cond, bail, &[], cont, &[]);
        self.b.switch_to_block(bail);
        self.exit(pc, Some(k as u32), true);
        self.b.switch_to_block(cont);
    }

    /// An operation with no vector form, lane by lane on scalars.
    fn lanewise(&mut self, op: Op, a: Value, bv: Value) -> Value {
        let mut out = a;
        for l in 0..4u8 {
            let x = self.b.ins().extractlane(a, l);
            let y = self.b.ins().extractlane(bv, l);
            let r = self.scalar(op, x, y);
            out = self.b.ins().insertlane(out, r, l);
        }
        out
    }

    /// `op` on two i32 scalars, with RISC-V's rules (shift amounts mod 32, division by zero
    /// and overflow without traps).
    fn scalar(&mut self, op: Op, a: Value, b: Value) -> Value {
        use Op::*;
        let ins = self.b.ins();
        match op {
            Sll => ins.ishl(a, b),
            Srl => ins.ushr(a, b),
            Sra => ins.sshr(a, b),
            Mulh => ins.smulhi(a, b),
            Mulhu => ins.umulhi(a, b),
            Mulhsu => {
                let a64 = ins.sextend(types::I64, a);
                let b64 = self.b.ins().uextend(types::I64, b);
                let p = self.b.ins().imul(a64, b64);
                let h = self.b.ins().sshr_imm(p, 32);
                self.b.ins().ireduce(types::I32, h)
            }
            Div | Rem | Divu | Remu => {
                let zero = ins.icmp_imm(IntCC::Equal, b, 0);
                let signed = matches!(op, Div | Rem);
                // A safe divisor: 1 where RISC-V defines the result without dividing (by zero;
                // and MIN / -1, whose quotient MIN = MIN / 1 and remainder 0 = MIN % 1).
                let bad = if signed {
                    let min = self.b.ins().icmp_imm(IntCC::Equal, a, i32::MIN as i64);
                    let m1 = self.b.ins().icmp_imm(IntCC::Equal, b, -1);
                    let ov = self.b.ins().band(min, m1);
                    self.b.ins().bor(zero, ov)
                } else {
                    zero
                };
                let one = self.b.ins().iconst(types::I32, 1);
                let d = self.b.ins().select(bad, one, b);
                let ins = self.b.ins();
                let (q, on_zero) = match op {
                    Div => (ins.sdiv(a, d), None),
                    Divu => (ins.udiv(a, d), None),
                    Rem => (ins.srem(a, d), Some(a)),
                    _ => (ins.urem(a, d), Some(a)),
                };
                let z = match on_zero {
                    Some(v) => v,
                    None => self.b.ins().iconst(types::I32, -1),
                };
                self.b.ins().select(zero, z, q)
            }
            _ => unreachable!("{op:?} is not a lane-wise private operation"),
        }
    }

    /// A conditional branch's (all active lanes take it, some active lane takes it).
    fn condition(&mut self, i: &Inst) -> (Value, Value) {
        use Op::*;
        let cc = match i.op {
            Beq => IntCC::Equal,
            Bne => IntCC::NotEqual,
            Blt => IntCC::SignedLessThan,
            Bge => IntCC::SignedGreaterThanOrEqual,
            Bltu => IntCC::UnsignedLessThan,
            _ => IntCC::UnsignedGreaterThanOrEqual,
        };
        // The vectors' lane conditions and-ed (for "all") and or-ed (for "any"), then one
        // reduction each.
        let mut all: Option<Value> = None;
        let mut any: Option<Value> = None;
        for v in 0..self.nvec {
            let a = self.get(i.rs1, v);
            let b = self.get(i.rs2, v);
            let t = self.b.ins().icmp(cc, a, b);
            let (t_all, t_any) = if self.masked {
                let m = self.mask(v);
                let or = self.b.ins().bor_not(t, m);
                let and = self.b.ins().band(t, m);
                (or, and)
            } else {
                (t, t)
            };
            all = Some(match all {
                Some(p) => self.b.ins().band(p, t_all),
                None => t_all,
            });
            any = Some(match any {
                Some(p) => self.b.ins().bor(p, t_any),
                None => t_any,
            });
        }
        let all = self.b.ins().vall_true(all.expect("at least one vector"));
        let any = self.b.ins().vany_true(any.expect("at least one vector"));
        (all, any)
    }
}

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
