//! The instruction table: the single source of truth for weft's instruction set.
//!
//! Every instruction weft knows is one row here: its typed name ([`Op`]), its mnemonic, the
//! fixed bits (`match`) and which bits are fixed (`mask`), its operand syntax, and its
//! functional class. Decoding, encoding, disassembly, the assembler's mnemonic lookup and
//! the encoding listing in `docs/isa.md` are all derived from this table.
//!
//! Operand syntax letters (modelled on GNU binutils' `riscv-opc.c`):
//!
//! | letter | meaning |
//! |---|---|
//! | `d` `s` `t` | integer rd, rs1, rs2 |
//! | `D` `S` `T` `R` | float rd, rs1, rs2, rs3 |
//! | `r` | integer rs3 (R4-type bits 31:27) |
//! | `l` | 2-bit immediate in R4-type bits 26:25 (Vortex `wgather`'s source lane) |
//! | `j` | I-type 12-bit signed immediate |
//! | `o` | I-type 12-bit signed offset (as in `o(s)`) |
//! | `q` | S-type 12-bit signed offset (as in `q(s)`) |
//! | `p` | B-type branch target (pc-relative, ±4 KiB) |
//! | `a` | J-type jump target (pc-relative, ±1 MiB) |
//! | `u` | U-type 20-bit upper immediate |
//! | `>` | 5-bit shift amount |
//! | `E` | 12-bit CSR number |
//! | `Z` | 5-bit CSR immediate (in the rs1 field) |
//! | `m` | optional rounding mode (omitted in text when dynamic) |
//! | `P` `Q` | fence predecessor / successor sets |
//! | `F` `G` `H` | Vortex TCU data-format id in the rd / rs1 / rs2 field (name or number, see [`crate::tcu`]) |
//! | `N` `W` | 5-bit unsigned immediate in the rd / rs2 field (TCU slot, WGMMA flags) |
//! | `0` | an optional zero offset before `(s)` (AMO addressing) |
//!
//! Other characters (`,` `(` `)`) are literal syntax.

/// Functional class of an instruction: which unit executes it. Used by the simulator's
/// statistics and by the timing model's latency table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// Integer ALU operation (including lui/auipc).
    Alu,
    /// Integer multiply.
    Mul,
    /// Integer divide/remainder.
    Div,
    /// Memory load (integer or float).
    Load,
    /// Memory store (integer or float).
    Store,
    /// Atomic memory operation (LR/SC/AMO).
    Atomic,
    /// Conditional branch.
    Branch,
    /// Unconditional jump (jal/jalr).
    Jump,
    /// CSR access.
    Csr,
    /// Floating-point add/mul/fma/convert/compare/move.
    Fpu,
    /// Floating-point divide/square root.
    FpuDiv,
    /// Fences.
    Fence,
    /// ecall/ebreak/mret/wfi.
    System,
    /// SIMT control: weft divergence instructions and the Vortex extension (including its
    /// tensor core unit's warp-wide instructions, until the timing model gives them a unit).
    Simt,
}

/// One row of the instruction table.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The typed instruction name.
    pub op: Op,
    /// Assembly mnemonic.
    pub name: &'static str,
    /// Value of the fixed bits.
    pub matches: u32,
    /// Which bits are fixed.
    pub mask: u32,
    /// Operand syntax (see the module documentation).
    pub args: &'static str,
    /// Functional class.
    pub class: Class,
    /// Which extension the instruction belongs to (for the listing).
    pub ext: &'static str,
}

// Field constructors for the fixed bits.
const fn opc(o: u32) -> u32 {
    o
}
const fn f3(o: u32, f3: u32) -> u32 {
    o | (f3 << 12)
}
const fn f7(o: u32, f3v: u32, f7: u32) -> u32 {
    f3(o, f3v) | (f7 << 25)
}
const fn fp(f7: u32) -> u32 {
    OP_FP | (f7 << 25)
}
const fn fp_rs2(f7: u32, rs2: u32) -> u32 {
    fp(f7) | (rs2 << 20)
}
const fn amo(f5: u32) -> u32 {
    OP_AMO | (2 << 12) | (f5 << 27)
}
const fn vx(f3v: u32, f7v: u32) -> u32 {
    f7(OP_CUSTOM0, f3v, f7v)
}

/// Major opcodes (bits 6:0).
pub const OP_LOAD: u32 = 0x03;
pub const OP_LOAD_FP: u32 = 0x07;
pub const OP_CUSTOM0: u32 = 0x0b;
pub const OP_CUSTOM1: u32 = 0x2b;
pub const OP_MISC_MEM: u32 = 0x0f;
pub const OP_IMM: u32 = 0x13;
pub const OP_AUIPC: u32 = 0x17;
pub const OP_STORE: u32 = 0x23;
pub const OP_STORE_FP: u32 = 0x27;
pub const OP_AMO: u32 = 0x2f;
pub const OP_OP: u32 = 0x33;
pub const OP_LUI: u32 = 0x37;
pub const OP_MADD: u32 = 0x43;
pub const OP_MSUB: u32 = 0x47;
pub const OP_NMSUB: u32 = 0x4b;
pub const OP_NMADD: u32 = 0x4f;
pub const OP_FP: u32 = 0x53;
pub const OP_CUSTOM2: u32 = 0x5b;
pub const OP_BRANCH: u32 = 0x63;
pub const OP_JALR: u32 = 0x67;
pub const OP_JAL: u32 = 0x6f;
pub const OP_SYSTEM: u32 = 0x73;

// Masks.
const M_OP: u32 = 0x0000_007f;
const M_F3: u32 = 0x0000_707f;
const M_F7: u32 = 0xfe00_707f;
const M_ALL: u32 = 0xffff_ffff;
/// funct7 + opcode: the rounding mode (bits 14:12) is an operand.
const M_FP_RM: u32 = 0xfe00_007f;
/// funct7 + rs2 + opcode: unary operations with a rounding mode.
const M_FP_RS2_RM: u32 = 0xfff0_007f;
/// funct7 + rs2 + funct3 + opcode.
const M_FP_RS2: u32 = 0xfff0_707f;
/// fmt (bits 26:25) + opcode: fused multiply-add with a rounding mode.
const M_FMA: u32 = 0x0600_007f;
/// funct5 + funct3 + opcode: AMOs (aq/rl are operands).
const M_AMO: u32 = 0xf800_707f;
/// funct5 + rs2 + funct3 + opcode: LR.
const M_LR: u32 = 0xf9f0_707f;
/// Vortex: funct7 + funct3 + opcode with rd fixed to zero.
const M_VX_NORD: u32 = M_F7 | 0x0000_0f80;
/// Vortex: only rs1 is an operand.
const M_VX_RS1: u32 = M_VX_NORD | 0x01f0_0000;
/// Vortex: no operands.
const M_VX_NONE: u32 = M_VX_RS1 | 0x000f_8000;
/// Vortex TCU: funct7 + funct3 + opcode with the rs2 field fixed (the sparse flag).
const M_VX_RS2: u32 = M_F7 | 0x01f0_0000;
/// weft converge: B-type with rs1 = rs2 = 0.
const M_CONVERGE: u32 = M_F3 | 0x01ff_8000;
/// weft diverge: B-type with rs2 = 0.
const M_DIVERGE: u32 = M_F3 | 0x01f0_0000;
/// Fence: fm, rs1 and rd fixed to zero.
const M_FENCE: u32 = 0xf00f_ffff;

macro_rules! isa_table {
    ($( $variant:ident, $name:literal, $ext:literal, $class:ident, $matches:expr, $mask:expr, $args:literal; )*) => {
        /// A typed instruction name, one per row of the instruction table.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        #[allow(missing_docs)]
        pub enum Op { $( $variant, )* }

        /// The instruction table, in the order of [`Op`].
        pub static TABLE: &[Entry] = &[
            $( Entry { op: Op::$variant, name: $name, matches: $matches, mask: $mask,
                       args: $args, class: Class::$class, ext: $ext }, )*
        ];
    };
}

isa_table! {
    // ---- RV32I ----
    Lui,     "lui",     "RV32I", Alu,    opc(OP_LUI), M_OP, "d,u";
    Auipc,   "auipc",   "RV32I", Alu,    opc(OP_AUIPC), M_OP, "d,u";
    Jal,     "jal",     "RV32I", Jump,   opc(OP_JAL), M_OP, "d,a";
    Jalr,    "jalr",    "RV32I", Jump,   f3(OP_JALR, 0), M_F3, "d,o(s)";
    Beq,     "beq",     "RV32I", Branch, f3(OP_BRANCH, 0), M_F3, "s,t,p";
    Bne,     "bne",     "RV32I", Branch, f3(OP_BRANCH, 1), M_F3, "s,t,p";
    Blt,     "blt",     "RV32I", Branch, f3(OP_BRANCH, 4), M_F3, "s,t,p";
    Bge,     "bge",     "RV32I", Branch, f3(OP_BRANCH, 5), M_F3, "s,t,p";
    Bltu,    "bltu",    "RV32I", Branch, f3(OP_BRANCH, 6), M_F3, "s,t,p";
    Bgeu,    "bgeu",    "RV32I", Branch, f3(OP_BRANCH, 7), M_F3, "s,t,p";
    Lb,      "lb",      "RV32I", Load,   f3(OP_LOAD, 0), M_F3, "d,o(s)";
    Lh,      "lh",      "RV32I", Load,   f3(OP_LOAD, 1), M_F3, "d,o(s)";
    Lw,      "lw",      "RV32I", Load,   f3(OP_LOAD, 2), M_F3, "d,o(s)";
    Lbu,     "lbu",     "RV32I", Load,   f3(OP_LOAD, 4), M_F3, "d,o(s)";
    Lhu,     "lhu",     "RV32I", Load,   f3(OP_LOAD, 5), M_F3, "d,o(s)";
    Sb,      "sb",      "RV32I", Store,  f3(OP_STORE, 0), M_F3, "t,q(s)";
    Sh,      "sh",      "RV32I", Store,  f3(OP_STORE, 1), M_F3, "t,q(s)";
    Sw,      "sw",      "RV32I", Store,  f3(OP_STORE, 2), M_F3, "t,q(s)";
    Addi,    "addi",    "RV32I", Alu,    f3(OP_IMM, 0), M_F3, "d,s,j";
    Slti,    "slti",    "RV32I", Alu,    f3(OP_IMM, 2), M_F3, "d,s,j";
    Sltiu,   "sltiu",   "RV32I", Alu,    f3(OP_IMM, 3), M_F3, "d,s,j";
    Xori,    "xori",    "RV32I", Alu,    f3(OP_IMM, 4), M_F3, "d,s,j";
    Ori,     "ori",     "RV32I", Alu,    f3(OP_IMM, 6), M_F3, "d,s,j";
    Andi,    "andi",    "RV32I", Alu,    f3(OP_IMM, 7), M_F3, "d,s,j";
    Slli,    "slli",    "RV32I", Alu,    f7(OP_IMM, 1, 0x00), M_F7, "d,s,>";
    Srli,    "srli",    "RV32I", Alu,    f7(OP_IMM, 5, 0x00), M_F7, "d,s,>";
    Srai,    "srai",    "RV32I", Alu,    f7(OP_IMM, 5, 0x20), M_F7, "d,s,>";
    Add,     "add",     "RV32I", Alu,    f7(OP_OP, 0, 0x00), M_F7, "d,s,t";
    Sub,     "sub",     "RV32I", Alu,    f7(OP_OP, 0, 0x20), M_F7, "d,s,t";
    Sll,     "sll",     "RV32I", Alu,    f7(OP_OP, 1, 0x00), M_F7, "d,s,t";
    Slt,     "slt",     "RV32I", Alu,    f7(OP_OP, 2, 0x00), M_F7, "d,s,t";
    Sltu,    "sltu",    "RV32I", Alu,    f7(OP_OP, 3, 0x00), M_F7, "d,s,t";
    Xor,     "xor",     "RV32I", Alu,    f7(OP_OP, 4, 0x00), M_F7, "d,s,t";
    Srl,     "srl",     "RV32I", Alu,    f7(OP_OP, 5, 0x00), M_F7, "d,s,t";
    Sra,     "sra",     "RV32I", Alu,    f7(OP_OP, 5, 0x20), M_F7, "d,s,t";
    Or,      "or",      "RV32I", Alu,    f7(OP_OP, 6, 0x00), M_F7, "d,s,t";
    And,     "and",     "RV32I", Alu,    f7(OP_OP, 7, 0x00), M_F7, "d,s,t";
    Fence,   "fence",   "RV32I", Fence,  f3(OP_MISC_MEM, 0), M_FENCE, "P,Q";
    FenceTso,"fence.tso","RV32I", Fence, 0x8330_000f, M_ALL, "";
    Ecall,   "ecall",   "RV32I", System, 0x0000_0073, M_ALL, "";
    Ebreak,  "ebreak",  "RV32I", System, 0x0010_0073, M_ALL, "";
    // ---- privileged (machine mode, the subset weft runs) ----
    Mret,    "mret",    "Priv",  System, 0x3020_0073, M_ALL, "";
    Wfi,     "wfi",     "Priv",  System, 0x1050_0073, M_ALL, "";
    // ---- Zifencei ----
    FenceI,  "fence.i", "Zifencei", Fence, 0x0000_100f, M_ALL, "";
    // ---- Zicsr ----
    Csrrw,   "csrrw",   "Zicsr", Csr,    f3(OP_SYSTEM, 1), M_F3, "d,E,s";
    Csrrs,   "csrrs",   "Zicsr", Csr,    f3(OP_SYSTEM, 2), M_F3, "d,E,s";
    Csrrc,   "csrrc",   "Zicsr", Csr,    f3(OP_SYSTEM, 3), M_F3, "d,E,s";
    Csrrwi,  "csrrwi",  "Zicsr", Csr,    f3(OP_SYSTEM, 5), M_F3, "d,E,Z";
    Csrrsi,  "csrrsi",  "Zicsr", Csr,    f3(OP_SYSTEM, 6), M_F3, "d,E,Z";
    Csrrci,  "csrrci",  "Zicsr", Csr,    f3(OP_SYSTEM, 7), M_F3, "d,E,Z";
    // ---- RV32M ----
    Mul,     "mul",     "RV32M", Mul,    f7(OP_OP, 0, 1), M_F7, "d,s,t";
    Mulh,    "mulh",    "RV32M", Mul,    f7(OP_OP, 1, 1), M_F7, "d,s,t";
    Mulhsu,  "mulhsu",  "RV32M", Mul,    f7(OP_OP, 2, 1), M_F7, "d,s,t";
    Mulhu,   "mulhu",   "RV32M", Mul,    f7(OP_OP, 3, 1), M_F7, "d,s,t";
    Div,     "div",     "RV32M", Div,    f7(OP_OP, 4, 1), M_F7, "d,s,t";
    Divu,    "divu",    "RV32M", Div,    f7(OP_OP, 5, 1), M_F7, "d,s,t";
    Rem,     "rem",     "RV32M", Div,    f7(OP_OP, 6, 1), M_F7, "d,s,t";
    Remu,    "remu",    "RV32M", Div,    f7(OP_OP, 7, 1), M_F7, "d,s,t";
    // ---- RV32A ----
    LrW,     "lr.w",    "RV32A", Atomic, amo(0x02), M_LR, "d,0(s)";
    ScW,     "sc.w",    "RV32A", Atomic, amo(0x03), M_AMO, "d,t,0(s)";
    AmoswapW,"amoswap.w","RV32A", Atomic, amo(0x01), M_AMO, "d,t,0(s)";
    AmoaddW, "amoadd.w", "RV32A", Atomic, amo(0x00), M_AMO, "d,t,0(s)";
    AmoxorW, "amoxor.w", "RV32A", Atomic, amo(0x04), M_AMO, "d,t,0(s)";
    AmoandW, "amoand.w", "RV32A", Atomic, amo(0x0c), M_AMO, "d,t,0(s)";
    AmoorW,  "amoor.w",  "RV32A", Atomic, amo(0x08), M_AMO, "d,t,0(s)";
    AmominW, "amomin.w", "RV32A", Atomic, amo(0x10), M_AMO, "d,t,0(s)";
    AmomaxW, "amomax.w", "RV32A", Atomic, amo(0x14), M_AMO, "d,t,0(s)";
    AmominuW,"amominu.w","RV32A", Atomic, amo(0x18), M_AMO, "d,t,0(s)";
    AmomaxuW,"amomaxu.w","RV32A", Atomic, amo(0x1c), M_AMO, "d,t,0(s)";
    // ---- RV32F ----
    Flw,     "flw",     "RV32F", Load,   f3(OP_LOAD_FP, 2), M_F3, "D,o(s)";
    Fsw,     "fsw",     "RV32F", Store,  f3(OP_STORE_FP, 2), M_F3, "T,q(s)";
    FmaddS,  "fmadd.s", "RV32F", Fpu,    opc(OP_MADD), M_FMA, "D,S,T,R,m";
    FmsubS,  "fmsub.s", "RV32F", Fpu,    opc(OP_MSUB), M_FMA, "D,S,T,R,m";
    FnmsubS, "fnmsub.s","RV32F", Fpu,    opc(OP_NMSUB), M_FMA, "D,S,T,R,m";
    FnmaddS, "fnmadd.s","RV32F", Fpu,    opc(OP_NMADD), M_FMA, "D,S,T,R,m";
    FaddS,   "fadd.s",  "RV32F", Fpu,    fp(0x00), M_FP_RM, "D,S,T,m";
    FsubS,   "fsub.s",  "RV32F", Fpu,    fp(0x04), M_FP_RM, "D,S,T,m";
    FmulS,   "fmul.s",  "RV32F", Fpu,    fp(0x08), M_FP_RM, "D,S,T,m";
    FdivS,   "fdiv.s",  "RV32F", FpuDiv, fp(0x0c), M_FP_RM, "D,S,T,m";
    FsqrtS,  "fsqrt.s", "RV32F", FpuDiv, fp_rs2(0x2c, 0), M_FP_RS2_RM, "D,S,m";
    FsgnjS,  "fsgnj.s", "RV32F", Fpu,    fp(0x10), M_F7, "D,S,T";
    FsgnjnS, "fsgnjn.s","RV32F", Fpu,    fp(0x10) | (1 << 12), M_F7, "D,S,T";
    FsgnjxS, "fsgnjx.s","RV32F", Fpu,    fp(0x10) | (2 << 12), M_F7, "D,S,T";
    FminS,   "fmin.s",  "RV32F", Fpu,    fp(0x14), M_F7, "D,S,T";
    FmaxS,   "fmax.s",  "RV32F", Fpu,    fp(0x14) | (1 << 12), M_F7, "D,S,T";
    FcvtWS,  "fcvt.w.s","RV32F", Fpu,    fp_rs2(0x60, 0), M_FP_RS2_RM, "d,S,m";
    FcvtWuS, "fcvt.wu.s","RV32F", Fpu,   fp_rs2(0x60, 1), M_FP_RS2_RM, "d,S,m";
    FmvXW,   "fmv.x.w", "RV32F", Fpu,    fp_rs2(0x70, 0), M_FP_RS2, "d,S";
    FeqS,    "feq.s",   "RV32F", Fpu,    fp(0x50) | (2 << 12), M_F7, "d,S,T";
    FltS,    "flt.s",   "RV32F", Fpu,    fp(0x50) | (1 << 12), M_F7, "d,S,T";
    FleS,    "fle.s",   "RV32F", Fpu,    fp(0x50), M_F7, "d,S,T";
    FclassS, "fclass.s","RV32F", Fpu,    fp_rs2(0x70, 0) | (1 << 12), M_FP_RS2, "d,S";
    FcvtSW,  "fcvt.s.w","RV32F", Fpu,    fp_rs2(0x68, 0), M_FP_RS2_RM, "D,s,m";
    FcvtSWu, "fcvt.s.wu","RV32F", Fpu,   fp_rs2(0x68, 1), M_FP_RS2_RM, "D,s,m";
    FmvWX,   "fmv.w.x", "RV32F", Fpu,    fp_rs2(0x78, 0), M_FP_RS2, "D,s";
    // ---- weft divergence (custom-2, B-type) ----
    Converge,"converge","weft",  Simt,   f3(OP_CUSTOM2, 0), M_CONVERGE, "p";
    Diverge, "diverge", "weft",  Simt,   f3(OP_CUSTOM2, 1), M_DIVERGE, "s,p";
    // ---- Vortex SIMT extension (custom-0, R-type) ----
    VxTmc,   "tmc",     "Vortex", Simt,  vx(0, 0), M_VX_RS1, "s";
    VxWspawn,"wspawn",  "Vortex", Simt,  vx(1, 0), M_VX_NORD, "s,t";
    VxSplit, "split",   "Vortex", Simt,  vx(2, 0), M_F7, "d,s,t";
    VxJoin,  "join",    "Vortex", Simt,  vx(3, 0), M_VX_RS1, "s";
    VxBar,   "bar",     "Vortex", Simt,  vx(4, 0), M_VX_NORD, "s,t";
    VxPred,  "pred",    "Vortex", Simt,  vx(5, 0), M_F7, "d,s,t";
    // bar.arrive with rd = x0 is Vortex's bar.wait (SimX tells them apart by rd).
    VxBarArrive,"bar.arrive","Vortex", Simt, vx(6, 0), M_F7, "d,s,t";
    VxWsync, "wsync",   "Vortex", Simt,  vx(7, 0), M_VX_NONE, "";
    VxPacklbF,"packlb.f","Vortex", Load, vx(1, 4), M_F7, "D,s,t";
    VxPacklhF,"packlh.f","Vortex", Load, vx(2, 4), M_F7, "D,s,t";
    VxWgather,"wgather", "Vortex", Simt, f3(OP_CUSTOM1, 0), M_F3, "d,s,t,r,l";
    VxVoteAll,"vote.all","Vortex", Simt, vx(0, 1), M_F7, "d,s,t";
    VxVoteAny,"vote.any","Vortex", Simt, vx(1, 1), M_F7, "d,s,t";
    VxVoteUni,"vote.uni","Vortex", Simt, vx(2, 1), M_F7, "d,s,t";
    VxVoteBallot,"vote.ballot","Vortex", Simt, vx(3, 1), M_F7, "d,s,t";
    VxShflUp, "shfl.up", "Vortex", Simt, vx(4, 1), M_F7, "d,s,t";
    VxShflDown,"shfl.down","Vortex", Simt, vx(5, 1), M_F7, "d,s,t";
    VxShflBfly,"shfl.bfly","Vortex", Simt, vx(6, 1), M_F7, "d,s,t";
    VxShflIdx, "shfl.idx", "Vortex", Simt, vx(7, 1), M_F7, "d,s,t";
    // ---- Vortex tensor core unit (custom-0, funct7 = 2; see crate::tcu) ----
    VxWmma,  "wmma",    "Vortex", Simt,  vx(0, 2), M_VX_RS2, "F,G";
    VxWmmaSp,"wmma.sp", "Vortex", Simt,  vx(0, 2) | (1 << 20), M_VX_RS2, "F,G";
    VxWgmma, "wgmma",   "Vortex", Simt,  vx(1, 2), M_F7, "F,G,W";
    VxTcuLd, "tcu.ld",  "Vortex", Simt,  vx(2, 2), M_F7, "N,s,H";
    // ---- Vortex DXA copy engine (custom-0, funct7 = 3; weft-devices' dxa) ----
    VxDxa,   "dxa.issue","Vortex", Simt,  vx(0, 3), M_VX_NORD, "s,t";
}

impl Op {
    /// This instruction's table row.
    pub fn entry(self) -> &'static Entry {
        &TABLE[self as usize]
    }
    /// The assembly mnemonic.
    pub fn name(self) -> &'static str {
        self.entry().name
    }
    /// The functional class.
    pub fn class(self) -> Class {
        self.entry().class
    }
    /// Look an instruction up by mnemonic (exact, lower case).
    pub fn from_name(name: &str) -> Option<Op> {
        TABLE.iter().find(|e| e.name == name).map(|e| e.op)
    }
}
