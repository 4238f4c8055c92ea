//! The assembler macros LI, PUSH, PULL, CALL, FNSETUP, RETURN — the seed's calling convention.
//!
//! Stack: grows down, `%H` (SP) points at the next free slot (write, then decrement).
//! With S = SP at the moment of CALL:
//! - `CALL f` puts the return address in `%G` (LUI/LLI, so `%G` holds exactly the address)
//!   and jumps; the stack is not touched.
//! - `FNSETUP` stores `%G` at S+0 and `%A..%F` at S-1..S-6, then SP = S-7 (one update).
//!   `FNSETUP n` also sets `%F` = SP (= S-7) and SP = S-7-n, making room for n frame slots.
//! - `RETURN` expects SP = S-7 (restore it from `%F` first if the function moved it), loads
//!   `%A..%F` from SP+6..SP+1 and `%G` from SP+7, sets SP = S and jumps to `%G`.
//!
//! So the caller's return-value slot is S-7 (= the callee's `%F`+0) and argument k is at
//! S-8-k (the callee's `%F`-1-k). See `docs/sp2a.md` for the worked picture.

use crate::isa::{Instr, Op, Reg};

/// An assembler macro.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Macro {
    /// `LI %R value`: LUI + LLI of a 32-bit constant.
    Li,
    /// `PUSH %R`: store at SP, SP -= 1.
    Push,
    /// `PULL %R`: SP += 1, load from SP.
    Pull,
    /// `CALL target` (label/address or register other than `%G`).
    Call,
    /// `FNSETUP [n]`: save `%G`, `%A..%F`; optionally set up a frame of n slots.
    FnSetup,
    /// `RETURN`: restore `%A..%F`, pop the return address, jump to it.
    Return,
}

/// Number of stack slots FNSETUP uses (`%G` plus `%A..%F`).
pub const SAVE_SLOTS: u16 = 7;

/// What a macro operand resolved to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MacroArg {
    /// A register.
    Reg(Reg),
    /// A value.
    Value(i64),
}

impl Macro {
    /// The macro for a (case-insensitive) name.
    pub fn from_name(name: &str) -> Option<Macro> {
        Some(match name.to_ascii_uppercase().as_str() {
            "LI" => Macro::Li,
            "PUSH" => Macro::Push,
            "PULL" | "POP" => Macro::Pull,
            "CALL" => Macro::Call,
            "FNSETUP" => Macro::FnSetup,
            "RETURN" | "RET" => Macro::Return,
            _ => return None,
        })
    }

    /// The accepted syntax, for error messages.
    pub fn syntax(self) -> &'static str {
        match self {
            Macro::Li => "LI %R value",
            Macro::Push => "PUSH %R",
            Macro::Pull => "PULL %R",
            Macro::Call => "CALL target  or  CALL %R",
            Macro::FnSetup => "FNSETUP  or  FNSETUP frame_slots",
            Macro::Return => "RETURN",
        }
    }

    /// Number of words the expansion takes, given the operand count (None: bad count).
    pub fn size(self, operands: usize) -> Option<u16> {
        match (self, operands) {
            (Macro::Li, 2) | (Macro::Push, 1) | (Macro::Pull, 1) => Some(2),
            (Macro::Call, 1) => Some(3),
            (Macro::FnSetup, 0) => Some(1 + 6 + 1),
            (Macro::FnSetup, 1) => Some(1 + 6 + 1 + 2),
            (Macro::Return, 0) => Some(6 + 1 + 1 + 1),
            _ => None,
        }
    }

    /// Expand at address `addr`. Errors are messages about the operands.
    pub fn expand(self, args: &[MacroArg], addr: u16) -> Result<Vec<Instr>, String> {
        let r0 = Reg::new(0);
        let i = |op, a, b, d, imm: u16| Instr::new(op, a, b, d, imm);
        let (sp, g) = (Reg::H, Reg::G);
        Ok(match (self, args) {
            (Macro::Li, [MacroArg::Reg(r), MacroArg::Value(v)]) => {
                if !(-(1i64 << 31)..=0xFFFF_FFFF).contains(v) {
                    return Err(format!("LI value {v} does not fit in 32 bits"));
                }
                let v = *v as u32;
                vec![
                    i(Op::Lui, *r, r0, *r, (v >> 16) as u16),
                    i(Op::Lli, *r, r0, *r, v as u16),
                ]
            }
            (Macro::Push, [MacroArg::Reg(r)]) => {
                vec![i(Op::Str, *r, sp, r0, 0), i(Op::Addi, sp, r0, sp, 0xFFFF)]
            }
            (Macro::Pull, [MacroArg::Reg(r)]) => {
                vec![i(Op::Addi, sp, r0, sp, 1), i(Op::Ldr, r0, sp, *r, 0)]
            }
            (Macro::Call, [target]) => {
                let ret = addr.wrapping_add(3);
                let jump =
                    match target {
                        MacroArg::Reg(r) if *r == g => return Err(
                            "CALL through %G is impossible: CALL writes the return address to %G"
                                .into(),
                        ),
                        MacroArg::Reg(r) => i(Op::Jmpr, *r, r0, r0, 0),
                        MacroArg::Value(v) if (0..=0xFFFF).contains(v) => {
                            i(Op::Jmp, r0, r0, r0, *v as u16)
                        }
                        MacroArg::Value(v) => {
                            return Err(format!("call target {v} is not a 16-bit address"))
                        }
                    };
                vec![i(Op::Lui, g, r0, g, 0), i(Op::Lli, g, r0, g, ret), jump]
            }
            (Macro::FnSetup, rest) => {
                let mut v = vec![i(Op::Str, g, sp, r0, 0)];
                for k in 0..6u8 {
                    v.push(i(Op::Str, Reg::new(k), sp, r0, (-1 - i16::from(k)) as u16));
                }
                v.push(i(Op::Addi, sp, r0, sp, (-(SAVE_SLOTS as i16)) as u16));
                match rest {
                    [] => {}
                    [MacroArg::Value(n)] if (0..=0x7FFF).contains(n) => {
                        v.push(i(Op::Addi, sp, r0, Reg::F, 0));
                        v.push(i(Op::Addi, sp, r0, sp, (-(*n as i16)) as u16));
                    }
                    _ => return Err("FNSETUP frame size must be a number 0..=32767".into()),
                }
                v
            }
            (Macro::Return, []) => {
                let mut v = Vec::new();
                for k in 0..6u8 {
                    v.push(i(Op::Ldr, r0, sp, Reg::new(k), 6 - u16::from(k)));
                }
                v.push(i(Op::Ldr, r0, sp, g, SAVE_SLOTS));
                v.push(i(Op::Addi, sp, r0, sp, SAVE_SLOTS));
                v.push(i(Op::Jmpr, g, r0, r0, 0));
                v
            }
            _ => return Err(format!("expected `{}`", self.syntax())),
        })
    }
}
