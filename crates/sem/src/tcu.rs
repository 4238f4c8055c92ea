//! Vortex v3.0's tensor core unit (TCU): the warp-level matrix multiply-accumulate of `wmma`
//! and `wmma.sp`, the warp-group form `wgmma` ([`wgmma`]: operands from shared memory) and the
//! metadata cells of `tcu.ld`, bit-exact to SimX's `tcu_unit.cpp` (docs/isa.md §9).
//!
//! A `wmma` works on fragments held across the warp's lanes in fixed float registers: C/D in
//! `f0`–`f7`, A in `f10`–`f17`, B in `f24`–`f31` (or `f28`–`f31` when B has four registers).
//! The instruction runs as a sequence of *steps* (SimX's micro-ops); each step multiplies a
//! `tcM × tcK`-word block of A by a `tcK`-word × `tcN` block of B into a `tcM × tcN` block of C,
//! one lane per element:
//! * lane `i·tcK + z` of the step's A register holds row `i`, word `z` of the A block;
//! * lane `j·tcK + z` (plus the B sub-block offset) of the step's B register holds column `j`,
//!   word `z` of the B block;
//! * lane `i·tcN + j` of the step's C register holds element `(i, j)` and receives the result.
//!
//! A 32-bit word packs `32 / bits` consecutive K elements (element 0 in the low bits). Which
//! register each step reads and writes is [`Geometry::steps`]: SimX's bank-conflict-free
//! permutation, which `vx_tensor.h` undoes when it places fragments — so a kernel built with
//! Vortex's header sees a plain `D = A × B + C` over its logical fragments.
//!
//! Numbers ([`Kind::dot`], SimX's `FEDP`): with an fp32 accumulator each step forms, per
//! word, the chain `p = a·b + p` (each product and sum rounded to f32, `p` from +0), adds the
//! words' chains in order into `s` (from +0), and returns `c + s`. With a narrow float
//! accumulator (fp16→fp16, …) every element is one fused `f32` multiply-add of the widened
//! operands and accumulator, rounded to f32 and then to the accumulator's format. Integer
//! formats accumulate exactly in wrapping 32-bit arithmetic. All rounding is to nearest, ties
//! to even; conversions are in [`num`].
//!
//! Sparse (`wmma.sp`, 2:4 structured sparsity): A is compressed to half its K extent and a
//! per-warp metadata store (filled by `tcu.ld`, [`meta_load_cells`]) says, for every row of A
//! and every word of the compressed block, which elements of the two matching B words take
//! part ([`gather`]).

pub mod num;

use weft_isa::tcu::Format;

/// Vortex's format ids (`tensor_cfg.h`), as the instruction table defines them
/// (`weft_isa::tcu::Format`, with their names in assembly text).
pub const FP32: u8 = Format::Fp32 as u8;
/// IEEE binary16.
pub const FP16: u8 = Format::Fp16 as u8;
/// bfloat16.
pub const BF16: u8 = Format::Bf16 as u8;
/// FP8 E4M3.
pub const FP8: u8 = Format::Fp8 as u8;
/// FP8 E5M2.
pub const BF8: u8 = Format::Bf8 as u8;
/// TensorFloat-32 (19 bits in a word).
pub const TF32: u8 = Format::Tf32 as u8;
/// 32-bit integer accumulator.
pub const I32: u8 = Format::I32 as u8;
/// Signed 8-bit integer.
pub const I8: u8 = Format::I8 as u8;
/// Unsigned 8-bit integer.
pub const U8: u8 = Format::U8 as u8;
/// Signed 4-bit integer.
pub const I4: u8 = Format::I4 as u8;
/// Unsigned 4-bit integer.
pub const U4: u8 = Format::U4 as u8;

/// Bits per element of an input format (`None` for an id no multiply takes as input).
pub fn input_bits(fmt: u8) -> Option<u32> {
    match fmt {
        TF32 => Some(32),
        FP16 | BF16 => Some(16),
        FP8 | BF8 | I8 | U8 => Some(8),
        I4 | U4 => Some(4),
        _ => None,
    }
}

/// Why a TCU instruction cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TcuError {
    /// The (input, output) format pair is not one SimX multiplies.
    Formats {
        /// Input (A/B) format id.
        fmt_s: u8,
        /// Output (C/D) format id.
        fmt_d: u8,
    },
    /// `wmma.sp` with an input format that has no sparse form (fp32).
    SparseFormat(u8),
    /// The warp width has no TCU geometry (Vortex defines it for 2, 4, 8, 16 and 32 lanes).
    Lanes(u32),
    /// `wgmma` with a 4-bit input format (its operands come from shared memory, which SimX
    /// reads in whole bytes).
    WgmmaNibbles(u8),
}

impl std::fmt::Display for TcuError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TcuError::Formats { fmt_s, fmt_d } => write!(
                f,
                "the tensor core has no {fmt_s} -> {fmt_d} multiply (input and output format ids; \
                 it takes fp16/bf16/fp8/bf8/tf32 -> fp32 or the same format, i8/u8/i4/u4 -> i32)"
            ),
            TcuError::SparseFormat(s) => {
                write!(f, "the tensor core has no sparse form of input format {s}")
            }
            TcuError::WgmmaNibbles(s) => write!(
                f,
                "wgmma cannot take 4-bit input format {s} (its B operand comes from shared memory)"
            ),
            TcuError::Lanes(n) => write!(
                f,
                "the tensor core needs 2, 4, 8, 16 or 32 lanes per warp (this warp has {n})"
            ),
        }
    }
}

impl std::error::Error for TcuError {}

/// A supported multiply: how the dot product of one step accumulates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Float inputs into an fp32 accumulator.
    Wide {
        /// Input format.
        src: u8,
    },
    /// Float inputs into an accumulator of the same format.
    Narrow {
        /// Input and output format.
        fmt: u8,
    },
    /// Integer inputs into a wrapping i32 accumulator.
    Int {
        /// Input format.
        src: u8,
    },
}

impl Kind {
    /// The multiply of input format `fmt_s` into output format `fmt_d`, if SimX has one.
    pub fn new(fmt_s: u8, fmt_d: u8) -> Result<Kind, TcuError> {
        let float_in = matches!(fmt_s, FP16 | BF16 | FP8 | BF8 | TF32);
        match fmt_d {
            FP32 if float_in => Ok(Kind::Wide { src: fmt_s }),
            I32 if matches!(fmt_s, I8 | U8 | I4 | U4) => Ok(Kind::Int { src: fmt_s }),
            d if float_in && d == fmt_s => Ok(Kind::Narrow { fmt: fmt_s }),
            _ => Err(TcuError::Formats { fmt_s, fmt_d }),
        }
    }

    /// The input format.
    pub fn src(self) -> u8 {
        match self {
            Kind::Wide { src } | Kind::Int { src } => src,
            Kind::Narrow { fmt } => fmt,
        }
    }

    /// One element of a step: the dot product of A row words `a` and B column words `b` (same
    /// length, `tcK`), accumulated onto `c`. Returns the result's bit pattern.
    pub fn dot(self, a: &[u32], b: &[u32], c: u32) -> u32 {
        use crate::fpu::{fadd, fmadd, fmul};
        use crate::Rm::Rne;
        let src = self.src();
        let bits = input_bits(src).unwrap_or(32);
        let per = 32 / bits;
        let elem = |w: u32, i: u32| {
            if bits == 32 {
                w
            } else {
                (w >> (i * bits)) & ((1 << bits) - 1)
            }
        };
        match self {
            Kind::Wide { src } => {
                let mut s = 0u32;
                for (&wa, &wb) in a.iter().zip(b) {
                    let mut p = 0u32;
                    for i in 0..per {
                        let x = num::to_f32(src, elem(wa, i));
                        let y = num::to_f32(src, elem(wb, i));
                        p = fadd(fmul(x, y, Rne).0, p, Rne).0;
                    }
                    s = fadd(p, s, Rne).0;
                }
                fadd(c, s, Rne).0
            }
            Kind::Narrow { fmt } => {
                let mut acc = c;
                for (&wa, &wb) in a.iter().zip(b) {
                    for i in 0..per {
                        let x = num::to_f32(fmt, elem(wa, i));
                        let y = num::to_f32(fmt, elem(wb, i));
                        let z = num::to_f32(fmt, acc);
                        acc = num::from_f32(fmt, fmadd(x, y, z, Rne).0);
                    }
                }
                acc
            }
            Kind::Int { src } => {
                let signed = matches!(src, I8 | I4);
                let int = |v: u32| -> i32 {
                    if signed {
                        ((v << (32 - bits)) as i32) >> (32 - bits)
                    } else {
                        v as i32
                    }
                };
                let mut acc = c as i32;
                for (&wa, &wb) in a.iter().zip(b) {
                    for i in 0..per {
                        acc = acc.wrapping_add(int(elem(wa, i)).wrapping_mul(int(elem(wb, i))));
                    }
                }
                acc as u32
            }
        }
    }
}

/// The fragment and block shapes for a warp of `nt` lanes (Vortex's `wmma_config_t` with
/// eight C registers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Lanes per warp.
    pub nt: u32,
    /// Block rows (M) per step.
    pub tcm: u32,
    /// Block columns (N) per step.
    pub tcn: u32,
    /// Block depth per step, in 32-bit words.
    pub tck: u32,
    /// Steps along M, N and K (dense).
    pub m_steps: u32,
    /// Steps along N.
    pub n_steps: u32,
    /// Steps along K (dense; sparse has half).
    pub k_steps: u32,
    /// B blocks per B register (dense).
    pub b_sub_blocks: u32,
    /// Registers in the B fragment (4 or 8).
    pub nrb: u32,
}

fn log2(x: u32) -> u32 {
    31 - x.leading_zeros()
}

impl Geometry {
    /// The geometry of an `nt`-lane warp.
    pub fn new(nt: u32) -> Result<Geometry, TcuError> {
        if !matches!(nt, 2 | 4 | 8 | 16 | 32) {
            return Err(TcuError::Lanes(nt));
        }
        let tile = nt * 8;
        let (tile_en, block_en) = (log2(tile) / 2, log2(nt) / 2);
        let (tile_em, block_em) = (log2(tile) - tile_en, log2(nt) - block_en);
        let (xm, xn) = (1 << tile_em, 1 << tile_en);
        let xk = tile / xm.max(xn);
        let (tcm, tcn) = (1 << block_em, 1 << block_en);
        let tck = nt / tcm.max(tcn);
        Ok(Geometry {
            nt,
            tcm,
            tcn,
            tck,
            m_steps: xm / tcm,
            n_steps: xn / tcn,
            k_steps: xk / tck,
            b_sub_blocks: nt / (tck * tcn),
            nrb: xn * xk / nt,
        })
    }

    /// Whether the sparse form uses the symmetric layout (square blocks: 4 and 16 lanes).
    pub fn sym_sparse(&self) -> bool {
        self.tcm == self.tcn
    }

    /// Lanes per sparse B block.
    fn b_block_sp(&self) -> u32 {
        if self.sym_sparse() {
            self.nt
        } else {
            self.tck * self.tcn * 2
        }
    }

    /// Metadata banks per warp (one per (M step, sparse K step)).
    pub fn meta_banks(&self) -> u32 {
        self.m_steps * (self.k_steps / 2)
    }

    /// Metadata words per bank.
    pub fn meta_cols(&self) -> u32 {
        self.nt / 2
    }

    /// The steps of a `wmma` (dense) or `wmma.sp` (sparse), in SimX's order.
    pub fn steps(&self, sparse: bool) -> Vec<Step> {
        let g = *self;
        let all = if g.nt == 32 {
            u32::MAX
        } else {
            (1 << g.nt) - 1
        };
        let mut out = Vec::new();
        if sparse && g.sym_sparse() {
            let lg_n = log2(g.n_steps);
            let lg_k = log2(g.k_steps);
            let bits = lg_n + lg_k;
            let lo: u32 = (0..g.nt)
                .filter(|l| l % g.tcn < g.tcn / 2)
                .fold(0, |m, l| m | 1 << l);
            for idx in 0..g.m_steps * g.n_steps * g.k_steps {
                let n_sp = idx & ((1 << bits) - 1);
                let m = idx >> bits;
                out.push(Step {
                    m,
                    n: n_sp >> lg_k,
                    k: 0,
                    a: 10 + m as u8,
                    b: g.b_base() + n_sp as u8,
                    c: (idx >> 1) as u8,
                    lanes: if idx & 1 == 1 { all & !lo } else { lo },
                });
            }
            return out;
        }
        let k_count = if sparse { g.k_steps / 2 } else { g.k_steps };
        let mn = g.m_steps * g.n_steps;
        for idx in 0..mn * k_count {
            let (k, m, n) = (idx / mn, idx % mn / g.n_steps, idx % mn % g.n_steps);
            let (a, b, c) = if sparse {
                let (n_hi, n_lo) = (n >> 1, n & 1);
                (
                    m * k_count + k,
                    n_hi << 2 | (1 - (n_lo ^ k)) << 1 | (1 - k),
                    n_hi << 2 | m << 1 | (1 - (m ^ n_lo)),
                )
            } else if g.b_sub_blocks == 1 {
                let (m_hi, m_lo) = (m >> 1, m & 1);
                (
                    m_lo << 2 | (1 - m_hi) << 1 | k,
                    (n ^ k) << 1 | (1 - k),
                    m_lo << 2 | (1 - m_hi) << 1 | (1 - (m_hi ^ n)),
                )
            } else {
                let (k_hi, k_lo, n_pair, n_lo) = (k >> 1, k & 1, n >> 1, n & 1);
                (
                    k_lo << 2 | (1 - m) << 1 | (m ^ k_hi),
                    k_lo << 2 | (k_hi ^ n_pair) << 1 | (1 - n_pair),
                    n_lo << 2 | (1 - m) << 1 | n_pair,
                )
            };
            out.push(Step {
                m,
                n,
                k,
                a: 10 + a as u8,
                b: g.b_base() + b as u8,
                c: c as u8,
                lanes: all,
            });
        }
        out
    }

    /// The first B register: `f24` for an eight-register B fragment, `f28` for four.
    fn b_base(&self) -> u8 {
        if self.nrb == 4 {
            28
        } else {
            24
        }
    }
}

/// One step of a `wmma`: its block coordinates, the float registers it reads (A, B, C) and
/// writes (C), and the lanes it writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// M step.
    pub m: u32,
    /// N step.
    pub n: u32,
    /// K step.
    pub k: u32,
    /// A register.
    pub a: u8,
    /// B register.
    pub b: u8,
    /// C register (read and written).
    pub c: u8,
    /// Lanes the step writes (all but in the symmetric sparse layout, which writes half).
    pub lanes: u32,
}

/// Pack the elements of `w0` selected by `lo` and then those of `w1` selected by `hi` (bit
/// `e` = element `e`), in order, from element 0 of the result; elements past the word's
/// capacity are dropped (well-formed 2:4 metadata selects exactly one word's worth).
pub fn gather(w0: u32, w1: u32, lo: u32, hi: u32, bits: u32) -> u32 {
    let count = 32 / bits;
    let mask = if bits == 32 {
        u32::MAX
    } else {
        (1 << bits) - 1
    };
    let mut out = 0u64;
    let mut k = 0;
    for (w, sel) in [(w0, lo), (w1, hi)] {
        for e in 0..count {
            if sel >> e & 1 == 1 {
                out |= (((w >> (e * bits)) & mask) as u64) << (k * bits);
                k += 1;
            }
        }
    }
    out as u32
}

/// Run one step: read the A, B and C registers of every lane (`f[reg][lane]`), compute the
/// `tcM × tcN` block and write it into the C register of the step's lanes that are in
/// `active`. `meta` is the warp's metadata store (`banks × cols` words) for `wmma.sp`.
pub fn step<const L: usize>(
    g: &Geometry,
    kind: Kind,
    s: &Step,
    meta: Option<&[u32]>,
    f: &mut [[u32; L]; 32],
    active: u32,
) {
    let (tcm, tcn, tck) = (g.tcm as usize, g.tcn as usize, g.tck as usize);
    let (ra, rb) = (&f[s.a as usize], &f[s.b as usize]);
    let mut a = [0u32; 32];
    let mut b = [0u32; 32 * 32];
    for i in 0..tcm {
        for z in 0..tck {
            a[i * tck + z] = ra[i * tck + z];
        }
    }
    match meta {
        None => {
            let b_off = ((s.n % g.b_sub_blocks) * g.tck * g.tcn) as usize;
            for i in 0..tcm {
                for j in 0..tcn {
                    for z in 0..tck {
                        b[(i * tcn + j) * tck + z] = rb[b_off + j * tck + z];
                    }
                }
            }
        }
        Some(meta) => {
            let bits = input_bits(kind.src()).unwrap_or(32);
            let per = 32 / bits;
            let b_off = ((s.n % (g.nt / g.b_block_sp())) * g.b_block_sp()) as usize;
            let bank = (s.m * (g.k_steps / 2) + s.k) as usize;
            let cols = g.meta_cols() as usize;
            let bit = |idx: u32| (meta[bank * cols + idx as usize / 32] >> (idx % 32)) & 1;
            let row_w = g.tck * 2 * per;
            for i in 0..tcm {
                let base = i as u32 * row_w;
                for j in 0..tcn {
                    let j_sp = if g.sym_sparse() { j % (tcn / 2) } else { j };
                    for z in 0..tck {
                        let idx = b_off + j_sp * tck * 2 + z * 2;
                        let (mut lo, mut hi) = (0, 0);
                        for e in 0..per {
                            lo |= bit(base + per * z as u32 + e) << e;
                            hi |= bit(base + per * (g.tck + z as u32) + e) << e;
                        }
                        b[(i * tcn + j) * tck + z] = gather(rb[idx], rb[idx + 1], lo, hi, bits);
                    }
                }
            }
        }
    }
    let rc = f[s.c as usize];
    let mut out = rc;
    for i in 0..tcm {
        for j in 0..tcn {
            let t = i * tcn + j;
            if (s.lanes & active) >> t & 1 == 1 {
                let bw = &b[(i * tcn + j) * tck..][..tck];
                out[t] = kind.dot(&a[i * tck..][..tck], bw, rc[t]);
            }
        }
    }
    f[s.c as usize] = out;
}

/// The metadata cells `tcu.ld` fills: for slot `slot`, lane `T` loads the word at
/// `base + 4·T` into cell `(bank, col)` of the warp's store (flat index `bank · cols + col`).
/// Returns `(lane, flat index)` for every lane that has a cell.
pub fn meta_load_cells(g: &Geometry, slot: u32) -> Vec<(u32, usize)> {
    let pwd = g.meta_banks();
    let bps = g.nt.min(pwd);
    let spc = pwd.div_ceil(g.nt);
    let cpl = if g.nt >= pwd { g.nt / pwd } else { 1 };
    let cols = g.meta_cols();
    (0..g.nt)
        .filter_map(|t| {
            let flat = slot * cpl + t / bps;
            let (col, bank) = (flat / spc, (flat % spc) * bps + t % bps);
            (bank < pwd && col < cols).then_some((t, (bank * cols + col) as usize))
        })
        .collect()
}

/// Run a whole `wmma` (`meta` = `None`) or `wmma.sp` (`meta` = the warp's metadata store) on
/// the float registers `f[reg][lane]`, writing only the `active` lanes.
pub fn wmma<const L: usize>(
    g: &Geometry,
    kind: Kind,
    meta: Option<&[u32]>,
    f: &mut [[u32; L]; 32],
    active: u32,
) -> Result<(), TcuError> {
    if meta.is_some() && kind.src() == FP32 {
        return Err(TcuError::SparseFormat(kind.src()));
    }
    for s in g.steps(meta.is_some()) {
        step(g, kind, &s, meta, f, active);
    }
    Ok(())
}

/// The flags of a `wgmma` (its rs2 field).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WgFlags {
    /// Bit 0: 2:4 sparse A.
    pub sparse: bool,
    /// Bits 2:1: C/D registers — 0 → 8, 1 → 16, 2 or 3 → 32 (`f0`…).
    pub nrc: u32,
    /// Bit 3: A from shared memory (descriptor in `a0`) rather than registers `f24`–`f27`.
    pub a_smem: bool,
}

impl WgFlags {
    /// Decode the rs2 field (bits 4 and up are ignored, as SimX does).
    pub fn new(bits: u8) -> WgFlags {
        WgFlags {
            sparse: bits & 1 != 0,
            nrc: [8, 16, 32, 32][(bits as usize >> 1) & 3],
            a_smem: bits & 8 != 0,
        }
    }
}

/// A shared-memory matrix descriptor (`a0`/`a1` of a `wgmma`): byte offset from the shared
/// memory base in bits 15:0, row stride in bytes in bits 31:16 (0: block-major layout).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Desc {
    base: u32,
    /// Stride in elements; 0 = block-major.
    ldm: u32,
}

impl Desc {
    fn new(d: u32, lmem_base: u32, bytes: u32) -> Desc {
        Desc {
            base: lmem_base.wrapping_add(d & 0xffff),
            ldm: (d >> 16) / bytes,
        }
    }
}

/// The geometry of a warp-group multiply: the block shapes of [`Geometry`] with two M and two
/// K steps per warp and `nrc · nt / (2 tcM)` columns.
fn wg_n_steps(g: &Geometry, nrc: u32) -> u32 {
    nrc * g.nt / (2 * g.tcm) / g.tcn
}

/// Check that a `wgmma` of `kind` can run (4-bit inputs cannot).
pub fn wgmma_check(kind: Kind) -> Result<(), TcuError> {
    match kind.src() {
        I4 | U4 => Err(TcuError::WgmmaNibbles(kind.src())),
        _ => Ok(()),
    }
}

/// Run a whole `wgmma` on the float registers `f[reg][lane]` (writing the `active` lanes):
/// B (and A with [`WgFlags::a_smem`]) from shared memory through `load(address, bytes)`
/// (little-endian), described by `a_desc` (`a0`) and `b_desc` (`a1`) relative to `lmem_base`.
/// Steps run K-outer, then N, then M; step `(m, n, k)` accumulates into `f[n·2 + m]`, takes A
/// from `f[24 + m·k_count + k]` when A is in registers, and for `wgmma` with the sparse flag
/// reads the warp's metadata store `meta` (bank `m · k_steps/2 + k` of the [`Geometry`];
/// `None` reads as all zeros).
/// Call [`wgmma_check`] first.
#[allow(clippy::too_many_arguments)]
pub fn wgmma<const L: usize, E>(
    g: &Geometry,
    kind: Kind,
    flags: WgFlags,
    (a_desc, b_desc, lmem_base): (u32, u32, u32),
    meta: Option<&[u32]>,
    f: &mut [[u32; L]; 32],
    active: u32,
    load: &mut dyn FnMut(u32, u32) -> Result<u32, E>,
) -> Result<(), E> {
    let bits = input_bits(kind.src()).unwrap_or(32);
    let (bytes, ratio) = (bits / 8, 32 / bits);
    let (tcm, tcn, tck) = (g.tcm, g.tcn, g.tck);
    let n_steps = wg_n_steps(g, flags.nrc);
    let sd_a = Desc::new(a_desc, lmem_base, bytes);
    let sd_b = Desc::new(b_desc, lmem_base, bytes);
    let kb = tck * ratio; // K elements per block
                          // One 32-bit operand word: `ratio` elements along K from (row, col) of A or (K, N) of B.
    let mut word = |d: &Desc, is_b: bool, row: u32, col: u32| -> Result<u32, E> {
        let mut out = 0u32;
        for r in 0..ratio {
            let (row, col) = if is_b { (row + r, col) } else { (row, col + r) };
            let off = match (d.ldm, is_b) {
                (0, true) => {
                    ((row / kb) * n_steps + col / tcn) * kb * tcn + (col % tcn) * kb + row % kb
                }
                (0, false) => ((col / kb) * 2 + row / tcm) * tcm * kb + (row % tcm) * kb + col % kb,
                (ldm, true) => col * ldm + row,
                (ldm, false) => row * ldm + col,
            };
            let v = load(d.base.wrapping_add(off.wrapping_mul(bytes)), bytes)?;
            out |= if bits == 32 { v } else { v << (r * bits) };
        }
        Ok(out)
    };
    let k_count = if flags.sparse { 1 } else { 2 };
    let per = ratio;
    let zeros;
    let meta = match meta {
        Some(m) => m,
        None => {
            zeros = vec![0u32; (g.meta_banks() * g.meta_cols()) as usize];
            &zeros
        }
    };
    for idx in 0..k_count * flags.nrc {
        let (k, m, n) = (idx / flags.nrc, idx % flags.nrc % 2, idx % flags.nrc / 2);
        let r = (n * 2 + m) as usize;
        let mut a = [0u32; 32];
        for i in 0..tcm {
            for z in 0..tck {
                a[(i * tck + z) as usize] = if flags.a_smem {
                    word(&sd_a, false, m * tcm + i, (k * tck + z) * ratio)?
                } else {
                    f[(24 + m * k_count + k) as usize][(i * tck + z) as usize]
                };
            }
        }
        let bank = (m * (g.k_steps / 2) + k) as usize;
        let rc = f[r];
        let mut out = rc;
        for i in 0..tcm {
            for j in 0..tcn {
                let col = n * tcn + j;
                let mut b = [0u32; 32];
                for z in 0..tck {
                    b[z as usize] = match flags.sparse {
                        true => {
                            let cols = g.meta_cols() as usize;
                            let bit =
                                |x: u32| (meta[bank * cols + x as usize / 32] >> (x % 32)) & 1;
                            let base = i * tck * 2 * per;
                            let (mut lo, mut hi) = (0, 0);
                            for e in 0..per {
                                lo |= bit(base + per * z + e) << e;
                                hi |= bit(base + per * (tck + z) + e) << e;
                            }
                            let k0 = (k * tck + z) * ratio * 2;
                            let w0 = word(&sd_b, true, k0, col)?;
                            let w1 = word(&sd_b, true, k0 + ratio, col)?;
                            gather(w0, w1, lo, hi, bits)
                        }
                        false => word(&sd_b, true, (k * tck + z) * ratio, col)?,
                    };
                }
                let t = (i * tcn + j) as usize;
                if active >> t & 1 == 1 {
                    out[t] = kind.dot(
                        &a[(i * tck) as usize..][..tck as usize],
                        &b[..tck as usize],
                        rc[t],
                    );
                }
            }
        }
        f[r] = out;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
