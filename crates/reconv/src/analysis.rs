//! From code and symbols to a [`ReconvTable`]: splitting code regions into functions, running
//! the CFG and post-dominator analysis on each, and collecting per-function statistics.
//!
//! Function extents: symbols are sorted by address (several at one address count once — the
//! first with a non-zero size, else the first given). A function ends at `addr + size`, or
//! for `size = 0` at the next symbol; in both cases at the latest at the next symbol and at
//! the end of its region, so functions never overlap. Code that no symbol covers (before the
//! first symbol, after a sized function, or a whole region when there are no symbols) becomes
//! an anonymous function named `<0x…>`, so every branch in the code gets an entry.

use crate::cfg::Cfg;
use crate::jumptable::{DataRegion, JumpTable, Memory};
use crate::table::{Reconv, ReconvTable};
use thiserror::Error;
use weft_isa::Inst;

/// A range of code: little-endian instructions (2 or 4 bytes each) starting at `base`.
#[derive(Clone, Copy, Debug)]
pub struct CodeRegion<'a> {
    /// Address of the first byte (2-byte aligned).
    pub base: u32,
    /// The bytes; a trailing partial word is ignored (with a [`Warning`]).
    pub bytes: &'a [u8],
}

/// A function symbol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// Name, for the dump and the statistics.
    pub name: String,
    /// Address of the function's first instruction.
    pub addr: u32,
    /// Size in bytes; 0 = unknown (the function extends to the next symbol or region end).
    pub size: u32,
}

impl Symbol {
    /// A symbol from its parts.
    pub fn new(name: impl Into<String>, addr: u32, size: u32) -> Symbol {
        Symbol {
            name: name.into(),
            addr,
            size,
        }
    }
}

/// Why the analysis cannot run on its input.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum AnalysisError {
    /// A region's base is not 2-byte aligned.
    #[error("code region at {base:#010x} is not 2-byte aligned")]
    MisalignedRegion {
        /// The base.
        base: u32,
    },
    /// A region extends past 0xFFFF_FFFF.
    #[error("code region at {base:#010x} ({len} bytes) extends past the 32-bit address space")]
    RegionOverflow {
        /// The base.
        base: u32,
        /// Its length in bytes.
        len: usize,
    },
    /// Two regions share addresses.
    #[error("code regions at {first:#010x} and {second:#010x} overlap")]
    OverlappingRegions {
        /// The lower base.
        first: u32,
        /// The base of the region that starts inside the first.
        second: u32,
    },
}

/// Something in the input that the analysis skipped.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Warning {
    /// A symbol outside every code region (a data symbol, say).
    #[error("symbol {name} at {addr:#010x} is outside the code regions; ignored")]
    SymbolOutsideCode {
        /// Name.
        name: String,
        /// Address.
        addr: u32,
    },
    /// A symbol that is not on an instruction word boundary.
    #[error("symbol {name} at {addr:#010x} is not 2-byte aligned; ignored")]
    MisalignedSymbol {
        /// Name.
        name: String,
        /// Address.
        addr: u32,
    },
    /// A region whose length is odd.
    #[error("code region at {base:#010x}: {count} trailing byte is not a whole halfword; ignored")]
    TrailingBytes {
        /// The region's base.
        base: u32,
        /// How many bytes were ignored.
        count: usize,
    },
}

/// One analysed branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BranchInfo {
    /// The branch's pc.
    pub pc: u32,
    /// The branch (a conditional branch or `diverge`).
    pub inst: Inst,
    /// Where its lanes reconverge.
    pub reconv: Reconv,
}

/// One resolved indirect jump (a `switch` compiled to a jump table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JumpInfo {
    /// The `jalr`'s pc.
    pub pc: u32,
    /// The `jalr`.
    pub inst: Inst,
    /// The table it reads, and its targets.
    pub table: JumpTable,
    /// Where lanes that took different targets reconverge.
    pub reconv: Reconv,
}

/// Statistics and results for one function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionInfo {
    /// Symbol name, or `<0x…>` for code no symbol covers.
    pub name: String,
    /// First address.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
    /// Number of basic blocks.
    pub blocks: usize,
    /// Number of virtual edges added to the exit for infinite loops.
    pub virtual_exits: usize,
    /// The branches, in pc order.
    pub branches: Vec<BranchInfo>,
    /// The resolved indirect jumps, in pc order.
    pub jumps: Vec<JumpInfo>,
    /// The indirect jumps (not returns) that were not resolved, with their pcs: edges to the
    /// exit, without table entries.
    pub unresolved_jumps: Vec<(u32, Inst)>,
    /// Of those, the ones whose target is a constant — `auipc rX` then `jalr x0, off(rX)`, a
    /// tail call or a far jump: (pc, target). Every lane goes to the same place, so such a
    /// jump never diverges.
    pub constant_jumps: Vec<(u32, u32)>,
}

/// The result of [`analyze`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Analysis {
    /// Every branch's reconvergence point.
    pub table: ReconvTable,
    /// Per-function results, in address order.
    pub functions: Vec<FunctionInfo>,
    /// What was skipped.
    pub warnings: Vec<Warning>,
}

impl Analysis {
    /// The function containing `pc`, if any.
    pub fn function_at(&self, pc: u32) -> Option<&FunctionInfo> {
        let i = self.functions.partition_point(|f| f.start <= pc);
        let f = self.functions.get(i.checked_sub(1)?)?;
        (pc < f.end).then_some(f)
    }
}

/// A function extent before analysis.
struct Extent {
    name: String,
    start: u32,
    end: u64,
}

/// Compute the reconvergence table of the code in `regions`, split into functions by
/// `symbols` (which may be empty: then each region is one function). Jump tables are read
/// from the code regions only; see [`analyze_with_data`].
pub fn analyze(regions: &[CodeRegion<'_>], symbols: &[Symbol]) -> Result<Analysis, AnalysisError> {
    analyze_with_data(regions, &[], symbols)
}

/// [`analyze`], reading jump tables from `data` (an ELF's loaded segments, say: `.rodata`)
/// as well as from the code regions.
pub fn analyze_with_data(
    regions: &[CodeRegion<'_>],
    data: &[DataRegion<'_>],
    symbols: &[Symbol],
) -> Result<Analysis, AnalysisError> {
    let mem = Memory::new(
        data.iter()
            .copied()
            .chain(regions.iter().map(|r| DataRegion {
                base: r.base,
                bytes: r.bytes,
            }))
            .collect(),
    );
    let mut warnings = Vec::new();
    // Validate regions and sort them by base.
    let mut regs: Vec<(u32, u64, &[u8])> = Vec::with_capacity(regions.len());
    for r in regions {
        if r.base % 2 != 0 {
            return Err(AnalysisError::MisalignedRegion { base: r.base });
        }
        let end = r.base as u64 + r.bytes.len() as u64;
        if end > 1u64 << 32 {
            return Err(AnalysisError::RegionOverflow {
                base: r.base,
                len: r.bytes.len(),
            });
        }
        let tail = r.bytes.len() % 2;
        if tail != 0 {
            warnings.push(Warning::TrailingBytes {
                base: r.base,
                count: tail,
            });
        }
        regs.push((r.base, end - tail as u64, r.bytes));
    }
    regs.sort_by_key(|r| r.0);
    for w in regs.windows(2) {
        if (w[1].0 as u64) < w[0].1 {
            return Err(AnalysisError::OverlappingRegions {
                first: w[0].0,
                second: w[1].0,
            });
        }
    }

    // Usable symbols, sorted by address, one per address.
    let mut syms: Vec<&Symbol> = Vec::new();
    for s in symbols {
        if !regs
            .iter()
            .any(|r| (r.0 as u64..r.1).contains(&(s.addr as u64)))
        {
            warnings.push(Warning::SymbolOutsideCode {
                name: s.name.clone(),
                addr: s.addr,
            });
        } else if s.addr % 2 != 0 {
            warnings.push(Warning::MisalignedSymbol {
                name: s.name.clone(),
                addr: s.addr,
            });
        } else {
            syms.push(s);
        }
    }
    // Stable sort: among equal addresses the input order decides.
    syms.sort_by_key(|s| s.addr);
    let mut chosen: Vec<&Symbol> = Vec::new();
    for s in syms {
        match chosen.last_mut() {
            Some(last) if last.addr == s.addr => {
                if last.size == 0 && s.size != 0 {
                    *last = s;
                }
            }
            _ => chosen.push(s),
        }
    }

    // Extents, region by region, covering gaps with anonymous functions.
    let mut extents = Vec::new();
    for &(base, end, _) in &regs {
        let inside: Vec<&Symbol> = chosen
            .iter()
            .copied()
            .filter(|s| (base as u64..end).contains(&(s.addr as u64)))
            .collect();
        let mut cursor = base as u64;
        for (k, s) in inside.iter().enumerate() {
            let next = inside.get(k + 1).map_or(end, |n| n.addr as u64);
            let start = s.addr as u64;
            if cursor < start {
                extents.push(anon(cursor, start));
            }
            // A sized function ends at an instruction boundary: an odd size is rounded up,
            // so the code after it (another function) starts 2-byte aligned.
            let stop = if s.size == 0 {
                next
            } else {
                ((start + s.size as u64 + 1) & !1).min(next)
            };
            extents.push(Extent {
                name: s.name.clone(),
                start: s.addr,
                end: stop,
            });
            cursor = stop;
        }
        if cursor < end {
            extents.push(anon(cursor, end));
        }
    }

    // Analyse each function.
    let mut analysis = Analysis {
        warnings,
        ..Analysis::default()
    };
    for x in extents {
        let Some(&(base, _, bytes)) = regs
            .iter()
            .find(|r| (r.0 as u64..r.1).contains(&(x.start as u64)))
        else {
            continue;
        };
        let lo = (x.start - base) as usize;
        let hi = (x.end - base as u64) as usize;
        let cfg = Cfg::build_from_bytes(x.start, bytes.get(lo..hi).unwrap_or(&[]), &mem);
        let mut branches = Vec::new();
        let mut jumps = Vec::new();
        for (pc, inst, reconv) in cfg.reconvergence() {
            analysis.table.insert(pc, reconv);
            match cfg.jump_at(pc) {
                Some(t) => jumps.push(JumpInfo {
                    pc,
                    inst,
                    table: t.clone(),
                    reconv,
                }),
                None => branches.push(BranchInfo { pc, inst, reconv }),
            }
        }
        analysis.functions.push(FunctionInfo {
            name: x.name,
            start: x.start,
            end: x.end.min(u32::MAX as u64) as u32,
            blocks: cfg.blocks.len(),
            virtual_exits: cfg.virtual_exits.len(),
            branches,
            jumps,
            unresolved_jumps: cfg
                .unresolved
                .iter()
                .filter_map(|&pc| Some((pc, *cfg.inst_at(pc)?)))
                .collect(),
            constant_jumps: cfg
                .unresolved
                .iter()
                .filter_map(|&pc| Some((pc, constant_target(&cfg, pc)?)))
                .collect(),
        });
    }
    Ok(analysis)
}

/// The target of the `jalr` at `pc` when the instruction before it is the `auipc` that sets
/// its base register.
fn constant_target(cfg: &Cfg, pc: u32) -> Option<u32> {
    let jalr = cfg.inst_at(pc)?;
    let auipc = cfg.inst_at(pc.checked_sub(4)?)?;
    (auipc.op == weft_isa::Op::Auipc && auipc.rd == jalr.rs1 && auipc.rd != 0).then(|| {
        (pc - 4)
            .wrapping_add(auipc.imm as u32)
            .wrapping_add(jalr.imm as u32)
            & !1
    })
}

fn anon(start: u64, end: u64) -> Extent {
    Extent {
        name: format!("<{start:#010x}>"),
        start: start as u32,
        end,
    }
}
