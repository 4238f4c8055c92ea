//! Instruction text: register names, rounding-mode names and the canonical assembly syntax of
//! an [`Inst`]. The assembler parses exactly this syntax, so text round-trips.

use crate::csr::csr_name;
use crate::inst::Inst;
use crate::table::OP_AMO;
use std::fmt;

/// ABI names of the integer registers.
pub const XREG_ABI: [&str; 32] = [
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4",
    "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
    "t5", "t6",
];

/// ABI names of the floating-point registers.
pub const FREG_ABI: [&str; 32] = [
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0", "fa1", "fa2",
    "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9",
    "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
];

/// Rounding-mode names by `rm` value (5 and 6 are reserved).
pub const RM_NAMES: [&str; 8] = ["rne", "rtz", "rdn", "rup", "rmm", "", "", "dyn"];

fn numbered(s: &str, prefix: char) -> Option<u8> {
    let n = s.strip_prefix(prefix)?;
    if n.is_empty() || (n.len() > 1 && n.starts_with('0')) {
        return None;
    }
    n.parse::<u8>().ok().filter(|&r| r < 32)
}

/// An integer register by name: `x0`–`x31`, an ABI name, or `fp` (= s0).
pub fn xreg(s: &str) -> Option<u8> {
    if s == "fp" {
        return Some(8);
    }
    numbered(s, 'x').or_else(|| XREG_ABI.iter().position(|&n| n == s).map(|p| p as u8))
}

/// A floating-point register by name: `f0`–`f31` or an ABI name.
pub fn freg(s: &str) -> Option<u8> {
    numbered(s, 'f').or_else(|| FREG_ABI.iter().position(|&n| n == s).map(|p| p as u8))
}

/// A rounding mode by name.
pub fn rounding_mode(s: &str) -> Option<u8> {
    RM_NAMES
        .iter()
        .position(|&n| !n.is_empty() && n == s)
        .map(|p| p as u8)
}

/// Fence set letters (`iorw`) for a 4-bit set; `0` for the empty set.
pub fn fence_set(bits: u32) -> String {
    let s: String = [(8, 'i'), (4, 'o'), (2, 'r'), (1, 'w')]
        .iter()
        .filter(|(b, _)| bits & b != 0)
        .map(|&(_, c)| c)
        .collect();
    if s.is_empty() {
        "0".into()
    } else {
        s
    }
}

/// The mnemonic, with `.aq` / `.rl` / `.aqrl` for atomics that set those bits.
pub fn mnemonic(i: &Inst) -> String {
    if let Some(c) = i.compressed {
        return c.entry().name.to_string();
    }
    let e = i.op.entry();
    let suffix = if e.matches & 0x7f == OP_AMO {
        ["", ".rl", ".aq", ".aqrl"][(i.aqrl & 3) as usize]
    } else {
        ""
    };
    format!("{}{}", e.name, suffix)
}

impl Inst {
    /// The operands as text. With `pc`, branch and jump targets are absolute addresses
    /// (`0x80000010`), as GNU tools print them; without, they are relative to `.` (`.+16`).
    pub fn operands(&self, pc: Option<u32>) -> String {
        let args = match self.compressed {
            Some(c) => c.entry().args,
            None => self.op.entry().args,
        };
        let mut out = String::new();
        for c in args.chars() {
            match c {
                'd' => out.push_str(XREG_ABI[self.rd as usize & 31]),
                's' => out.push_str(XREG_ABI[self.rs1 as usize & 31]),
                't' => out.push_str(XREG_ABI[self.rs2 as usize & 31]),
                'D' => out.push_str(FREG_ABI[self.rd as usize & 31]),
                'S' => out.push_str(FREG_ABI[self.rs1 as usize & 31]),
                'T' => out.push_str(FREG_ABI[self.rs2 as usize & 31]),
                'R' => out.push_str(FREG_ABI[self.rs3 as usize & 31]),
                'r' => out.push_str(XREG_ABI[self.rs3 as usize & 31]),
                'j' | 'o' | 'q' | '>' | 'l' => out.push_str(&self.imm.to_string()),
                'Z' => out.push_str(&self.rs1.to_string()),
                'N' => out.push_str(&self.rd.to_string()),
                'W' => out.push_str(&self.rs2.to_string()),
                'F' => out.push_str(&crate::tcu::format_text(self.rd)),
                'G' => out.push_str(&crate::tcu::format_text(self.rs1)),
                'H' => out.push_str(&crate::tcu::format_text(self.rs2)),
                'u' => out.push_str(&format!("{:#x}", (self.imm as u32) >> 12)),
                'E' => match csr_name(self.imm as u16) {
                    Some(n) => out.push_str(n),
                    None => out.push_str(&format!("{:#x}", self.imm)),
                },
                'p' | 'a' => match pc {
                    Some(pc) => out.push_str(&format!("{:#x}", pc.wrapping_add(self.imm as u32))),
                    None if self.imm >= 0 => out.push_str(&format!(".+{}", self.imm)),
                    None => out.push_str(&format!(".{}", self.imm)),
                },
                'm' if self.rm != 7 => out.push_str(RM_NAMES[self.rm as usize & 7]),
                'm' => {}
                'P' => out.push_str(&fence_set((self.imm as u32 >> 4) & 0xf)),
                'Q' => out.push_str(&fence_set(self.imm as u32 & 0xf)),
                '0' => {}
                ',' => out.push_str(", "),
                other => out.push(other),
            }
        }
        // An omitted dynamic rounding mode leaves a dangling ", ".
        out.trim_end_matches([',', ' ']).to_string()
    }

    /// Full assembly text at an optional pc (see [`Inst::operands`]).
    pub fn text(&self, pc: Option<u32>) -> String {
        let ops = self.operands(pc);
        if ops.is_empty() {
            mnemonic(self)
        } else {
            format!("{} {}", mnemonic(self), ops)
        }
    }
}

impl fmt::Display for Inst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(None))
    }
}
