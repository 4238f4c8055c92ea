//! The textual dump behind `weft reconv FILE.elf`: one line per branch,
//!
//! ```text
//! 0x80000010  bne a0, zero, 0x80000020    -> 0x80000024  (main+0x10)
//! 0x80000030  blt t0, a1, 0x80000028      -> exit        (main+0x30)
//! ```
//!
//! the branch pc, its text, its reconvergence pc (or `exit`), and the branch's function and
//! offset. A resolved indirect jump (a `switch`'s jump table) has the same columns followed by
//! `jump` and its table; an indirect jump left unresolved has no table entry, so it shows
//! `none` and `unresolved jump` (it is an edge to the function's exit), or `tail jump to g`
//! when its target is a constant (`auipc` + `jalr`: every lane goes there, nothing diverges):
//!
//! ```text
//! 0x800001d8  jalr zero, 0(a0)              -> 0x800002ec  (dense+0x6c)  jump: table 0x800018a4, 8 entries, 8 targets
//! 0x80000460  jalr zero, 0(a1)              -> none        (indirect+0x8)  unresolved jump
//! 0x80000024  jalr zero, 16(t1)             -> none        (f+0xc)  tail jump to g
//! ```

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

    /// `name` or `name+0x…` for an address inside an analysed function, else the address.
    fn place(&self, addr: u32) -> String {
        match self
            .functions
            .iter()
            .find(|f| (f.start..f.end).contains(&addr))
        {
            Some(f) if addr == f.start => f.name.clone(),
            Some(f) => format!("{}+{:#x}", f.name, addr - f.start),
            None => format!("{addr:#010x}"),
        }
    }

    /// Write the dump.
    pub fn write_dump(&self, out: &mut impl Write) -> fmt::Result {
        for f in &self.functions {
            // (pc, instruction, reconvergence column, trailing note), merged in pc order.
            let mut lines: Vec<(u32, String, String, String)> = Vec::new();
            for b in &f.branches {
                let text = b.inst.text(Some(b.pc));
                lines.push((b.pc, text, b.reconv.to_string(), String::new()));
            }
            for j in &f.jumps {
                let note = format!(
                    "  jump: table {:#010x}{}, {} entries{}, {} targets",
                    j.table.table,
                    if j.table.relative_to.is_some() {
                        " (offsets)"
                    } else {
                        ""
                    },
                    j.table.entries.len(),
                    if j.table.bound.is_some() {
                        ""
                    } else {
                        " (no bounds check found)"
                    },
                    j.table.targets().len()
                );
                lines.push((j.pc, j.inst.text(Some(j.pc)), j.reconv.to_string(), note));
            }
            for &(pc, inst) in &f.unresolved_jumps {
                let text = inst.text(Some(pc));
                let note = match f.constant_jumps.iter().find(|j| j.0 == pc) {
                    Some(&(_, target)) => format!("  tail jump to {}", self.place(target)),
                    None => "  unresolved jump".into(),
                };
                lines.push((pc, text, "none".into(), note));
            }
            lines.sort_by_key(|l| l.0);
            for (pc, text, reconv, note) in lines {
                writeln!(
                    out,
                    "{:#010x}  {:<28}  -> {:<10}  ({}+{:#x}){}",
                    pc,
                    text,
                    reconv,
                    f.name,
                    pc.wrapping_sub(f.start),
                    note
                )?;
            }
        }
        Ok(())
    }
}
