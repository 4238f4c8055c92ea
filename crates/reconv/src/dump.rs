//! The textual dump behind `weft reconv FILE.elf`: one line per branch,
//!
//! ```text
//! 0x80000010  bne a0, zero, 0x80000020    -> 0x80000024  (main+0x10)
//! 0x80000030  blt t0, a1, 0x80000028      -> exit        (main+0x30)
//! ```
//!
//! the branch pc, its text, its reconvergence pc (or `exit`), and the branch's function and
//! offset.

use crate::analysis::Analysis;
use std::fmt::{self, Write};

impl Analysis {
    /// The dump as a string (see the module documentation).
    pub fn dump(&self) -> String {
        let mut s = String::new();
        // Writing into a String cannot fail.
        let _ = self.write_dump(&mut s);
        s
    }

    /// Write the dump.
    pub fn write_dump(&self, out: &mut impl Write) -> fmt::Result {
        for f in &self.functions {
            for b in &f.branches {
                writeln!(
                    out,
                    "{:#010x}  {:<28}  -> {:<10}  ({}+{:#x})",
                    b.pc,
                    b.inst.text(Some(b.pc)),
                    b.reconv.to_string(),
                    f.name,
                    b.pc.wrapping_sub(f.start)
                )?;
            }
        }
        Ok(())
    }
}
