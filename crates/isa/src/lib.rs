//! weft-isa: the weft instruction set — RV32IMAFC + Zicsr + Zifencei (the 16-bit RV32C forms
//! in [`compressed`], expanded to their 32-bit instructions), weft's divergence
//! instructions (`converge`, `diverge`) and the Vortex SIMT and tensor-core ([`tcu`]) extensions — as one table
//! ([`table`]) from which decoding, encoding, text and documentation are derived; plus the CSR
//! names ([`csr`]) and the fault codes ([`fault`]).
//!
//! ```
//! use weft_isa::{Inst, Op};
//! let i = Inst::decode(0x00a58533).unwrap(); // add a0, a1, a0
//! assert_eq!(i.op, Op::Add);
//! assert_eq!(i.to_string(), "add a0, a1, a0");
//! assert_eq!(i.encode().unwrap(), 0x00a58533);
//! ```

mod codec;
pub mod compressed;
pub mod csr;
pub mod ctable;
pub mod fault;
pub mod inst;
pub mod listing;
pub mod table;
pub mod tcu;
pub mod text;

pub use ctable::{CEntry, COp, CTABLE};
pub use fault::FaultCode;
pub use inst::{DecodeError, EncodeError, Inst};
pub use table::{Class, Entry, Op, TABLE};
pub use text::{freg, rounding_mode, xreg, FREG_ABI, XREG_ABI};
