//! weft-reconv: where diverged lanes reconverge, for code without `converge` instructions.
//!
//! For every conditional branch (and `diverge`, and every indirect jump whose jump table it
//! resolves) of a program, this crate computes the branch's **immediate post-dominator** — the first instruction that every path from the
//! branch to the function's exit passes — and records its pc in a [`ReconvTable`]. The
//! divergence unit reconverges a diverged group when it reaches that pc in the branch's
//! activation (`docs/isa.md` §5–6); see `docs/reconvergence.md`.
//!
//! The pipeline: [`analyze`] splits code regions into functions by symbols
//! ([`analysis`]); [`cfg::Cfg::build`] makes each function's control-flow graph, with the
//! targets of `switch` jump tables that [`jumptable`] recovers;
//! [`postdom`] computes post-dominators (Cooper–Harvey–Kennedy on the reversed graph);
//! [`section`] stores the table as the `.weft.reconv` ELF section; [`dump`] prints it.
//!
//! ```
//! use weft_isa::{Inst, Op};
//! use weft_reconv::{analyze, CodeRegion, Reconv, ReconvTable};
//!
//! let enc = |op, rd, rs1, imm| Inst { rd, rs1, imm, ..Inst::new(op) }.encode().unwrap();
//! let code: Vec<u8> = [
//!     enc(Op::Beq, 0, 10, 8),    // 0x00: beq a0, zero, 0x08
//!     enc(Op::Addi, 11, 11, 1),  // 0x04: addi a1, a1, 1
//!     enc(Op::Jalr, 0, 1, 0),    // 0x08: ret
//! ]
//! .iter()
//! .flat_map(|w: &u32| w.to_le_bytes())
//! .collect();
//! let a = analyze(&[CodeRegion { base: 0, bytes: &code }], &[]).unwrap();
//! assert_eq!(a.table.get(0), Some(Reconv::At(8)));
//! let bytes = a.table.to_section_bytes();
//! assert_eq!(ReconvTable::from_section_bytes(&bytes).unwrap(), a.table);
//! ```

pub mod analysis;
pub mod cfg;
pub mod dump;
pub mod jumptable;
pub mod postdom;
pub mod section;
pub mod table;

pub use analysis::{
    analyze, analyze_with_data, Analysis, AnalysisError, BranchInfo, CodeRegion, FunctionInfo,
    JumpInfo, Symbol, Warning,
};
pub use jumptable::{DataRegion, JumpTable};
pub use section::{SectionError, SECTION_MAGIC, SECTION_NAME, SECTION_VERSION};
pub use table::{Reconv, ReconvTable, AT_EXIT};
