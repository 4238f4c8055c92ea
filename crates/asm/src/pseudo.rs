//! Pseudo-instructions: the standard RISC-V assembler idioms (`li`, `la`, `call`, `beqz`,
//! `csrr`, `fmv.s` …) expanded into real instructions. Each expansion has the same length in
//! both passes: `li` of a value not yet known in the first pass always takes two words.

use crate::error::{err, expected, AsmErrorKind, PResult, Span};
use crate::expr::{hi20, lo12};
use crate::operands::{fit, freg_op, mem_parts, target, value, xreg_op, OpEnv, Operand};
use weft_isa::{csr, Inst, Op};

fn inst(op: Op, rd: u8, rs1: u8, rs2: u8, imm: i32) -> Inst {
    let mut i = Inst::new(op);
    i.rd = rd;
    i.rs1 = rs1;
    i.rs2 = rs2;
    i.imm = imm;
    i
}

fn count(name: &str, ops: &[Operand], want: &[usize], forms: &str, end: Span) -> PResult<()> {
    if want.contains(&ops.len()) {
        Ok(())
    } else {
        let span = ops
            .get(*want.iter().max().unwrap_or(&0))
            .map(|o| o.span())
            .unwrap_or(end);
        err(
            span,
            AsmErrorKind::OperandCount {
                mnemonic: name.to_string(),
                expected: forms.to_string(),
                found: ops.len(),
            },
        )
    }
}

/// The pseudo-instruction mnemonics (for documentation and tests).
pub const PSEUDOS: &[&str] = &[
    "nop",
    "li",
    "la",
    "lla",
    "mv",
    "not",
    "neg",
    "seqz",
    "snez",
    "sltz",
    "sgtz",
    "zext.b",
    "beqz",
    "bnez",
    "blez",
    "bgez",
    "bltz",
    "bgtz",
    "bgt",
    "ble",
    "bgtu",
    "bleu",
    "j",
    "jr",
    "ret",
    "call",
    "tail",
    "csrr",
    "csrw",
    "csrs",
    "csrc",
    "csrwi",
    "csrsi",
    "csrci",
    "rdcycle",
    "rdcycleh",
    "rdinstret",
    "rdinstreth",
    "rdtime",
    "rdtimeh",
    "frcsr",
    "fscsr",
    "frrm",
    "fsrm",
    "frflags",
    "fsflags",
    "fsrmi",
    "fsflagsi",
    "fmv.s",
    "fabs.s",
    "fneg.s",
    "unimp",
];

/// `li rd, value` as one or two instructions (`long` forces lui + addi).
pub fn li(rd: u8, v: i64, long: bool) -> Vec<Inst> {
    let v = v as i32 as i64;
    if !long && (-2048..=2047).contains(&v) {
        return vec![inst(Op::Addi, rd, 0, 0, v as i32)];
    }
    let hi = inst(Op::Lui, rd, 0, 0, (hi20(v) << 12) as i32);
    let lo = lo12(v);
    if lo == 0 && !long {
        vec![hi]
    } else {
        vec![hi, inst(Op::Addi, rd, rd, 0, lo as i32)]
    }
}

/// `auipc tmp, %pcrel_hi(target)` + a second instruction using `%pcrel_lo`.
fn pcrel_pair(env: &dyn OpEnv, op: &Operand, tmp: u8, second: Inst) -> PResult<Vec<Inst>> {
    let (v, _) = value(env, op.toks)?;
    let off = (v.wrapping_sub(env.pc() as i64)) as i32 as i64;
    let mut lo = second;
    lo.imm = lo12(off) as i32;
    Ok(vec![
        inst(Op::Auipc, tmp, 0, 0, (hi20(off) << 12) as i32),
        lo,
    ])
}

fn csr_named(name: &str) -> i32 {
    csr::csr_by_name(name).unwrap_or(0) as i32
}

/// Whether a load/store's address operand is a symbol (not `off(reg)` or a small constant).
fn symbolic(env: &dyn OpEnv, op: &Operand) -> PResult<bool> {
    let (off, base) = mem_parts(op);
    if base.is_some() {
        return Ok(false);
    }
    let Some(t) = off else { return Ok(false) };
    let e = env.parse_expr(t)?;
    Ok(e.uses_symbols())
}

/// Expand a pseudo-instruction. `None` if `name` with these operands is not a pseudo (the
/// caller then looks the mnemonic up in the instruction table). `long_li` is the first
/// pass's decision for `li` (see [`li`]).
pub fn expand(
    env: &dyn OpEnv,
    name: &str,
    ops: &[Operand],
    end: Span,
    long_li: Option<bool>,
) -> Option<PResult<(Vec<Inst>, bool)>> {
    let r = expand_inner(env, name, ops, end, long_li)?;
    Some(r)
}

type Expansion = PResult<(Vec<Inst>, bool)>;

fn one(i: Inst) -> Expansion {
    Ok((vec![i], false))
}

fn expand_inner(
    env: &dyn OpEnv,
    name: &str,
    ops: &[Operand],
    end: Span,
    long_li: Option<bool>,
) -> Option<Expansion> {
    let x = |k: usize| xreg_op(&ops[k]);
    let f = |k: usize| freg_op(&ops[k]);
    let two_regs = |op: Op, swap: bool, imm: i32| -> Expansion {
        count(name, ops, &[2], "rd, rs", end)?;
        let (a, b) = (x(0)?, x(1)?);
        Ok((
            vec![if swap {
                inst(op, a, 0, b, imm)
            } else {
                inst(op, a, b, 0, imm)
            }],
            false,
        ))
    };
    // Branch against zero: (op, rs is rs1?) ; swapped branches: op with operands exchanged.
    let bz = |op: Op, rs_first: bool| -> Expansion {
        count(name, ops, &[2], "rs, label", end)?;
        let r = x(0)?;
        let off = target(env, &ops[1], "branch", 13)?;
        one(if rs_first {
            inst(op, 0, r, 0, off)
        } else {
            inst(op, 0, 0, r, off)
        })
    };
    let bswap = |op: Op| -> Expansion {
        count(name, ops, &[3], "rs, rt, label", end)?;
        let (a, b) = (x(0)?, x(1)?);
        let off = target(env, &ops[2], "branch", 13)?;
        one(inst(op, 0, b, a, off))
    };
    let csr_read = |csr_name: &str| -> Expansion {
        count(name, ops, &[1], "rd", end)?;
        one(inst(Op::Csrrs, x(0)?, 0, 0, csr_named(csr_name)))
    };
    // fscsr-like: `op rs` or `op rd, rs`.
    let csr_swap = |csr_name: &str, imm_form: bool| -> Expansion {
        count(name, ops, &[1, 2], "[rd,] rs", end)?;
        let (rd, src) = if ops.len() == 2 { (x(0)?, 1) } else { (0, 0) };
        let c = csr_named(csr_name);
        if imm_form {
            let (v, _) = value(env, ops[src].toks)?;
            let v = fit(env, ops[src].span(), "CSR immediate", v, 0, 31)?;
            one(inst(Op::Csrrwi, rd, v as u8, 0, c))
        } else {
            one(inst(Op::Csrrw, rd, x(src)?, 0, c))
        }
    };
    let csr_write = |op: Op, imm_form: bool| -> Expansion {
        count(name, ops, &[2], "csr, rs", end)?;
        let c = crate::operands::csr_op(env, &ops[0])? as i32;
        if imm_form {
            let (v, _) = value(env, ops[1].toks)?;
            let v = fit(env, ops[1].span(), "CSR immediate", v, 0, 31)?;
            one(inst(op, 0, v as u8, 0, c))
        } else {
            one(inst(op, 0, x(1)?, 0, c))
        }
    };
    let fsgn = |op: Op| -> Expansion {
        count(name, ops, &[2], "fd, fs", end)?;
        let (d, s) = (f(0)?, f(1)?);
        one(inst(op, d, s, s, 0))
    };
    Some(match name {
        "nop" => {
            count(name, ops, &[0], "no operands", end).and_then(|_| one(inst(Op::Addi, 0, 0, 0, 0)))
        }
        "li" => (|| {
            count(name, ops, &[2], "rd, value", end)?;
            let rd = x(0)?;
            let (v, known) = value(env, ops[1].toks)?;
            let long = long_li.unwrap_or(!known);
            if env.final_pass() && !(-(1i64 << 31)..(1i64 << 32)).contains(&v) {
                return err(
                    ops[1].span(),
                    AsmErrorKind::Range(format!("li value {v} does not fit in 32 bits")),
                );
            }
            Ok((li(rd, v, long), long))
        })(),
        "la" | "lla" => (|| {
            count(name, ops, &[2], "rd, symbol", end)?;
            let rd = x(0)?;
            Ok((
                pcrel_pair(env, &ops[1], rd, inst(Op::Addi, rd, rd, 0, 0))?,
                false,
            ))
        })(),
        "mv" => two_regs(Op::Addi, false, 0),
        "not" => two_regs(Op::Xori, false, -1),
        "neg" => two_regs(Op::Sub, true, 0),
        "seqz" => two_regs(Op::Sltiu, false, 1),
        "snez" => two_regs(Op::Sltu, true, 0),
        "sltz" => (|| {
            count(name, ops, &[2], "rd, rs", end)?;
            one(inst(Op::Slt, x(0)?, x(1)?, 0, 0))
        })(),
        "sgtz" => two_regs(Op::Slt, true, 0),
        "zext.b" => two_regs(Op::Andi, false, 255),
        "beqz" => bz(Op::Beq, true),
        "bnez" => bz(Op::Bne, true),
        "blez" => bz(Op::Bge, false),
        "bgez" => bz(Op::Bge, true),
        "bltz" => bz(Op::Blt, true),
        "bgtz" => bz(Op::Blt, false),
        "bgt" => bswap(Op::Blt),
        "ble" => bswap(Op::Bge),
        "bgtu" => bswap(Op::Bltu),
        "bleu" => bswap(Op::Bgeu),
        "j" => (|| {
            count(name, ops, &[1], "label", end)?;
            one(inst(Op::Jal, 0, 0, 0, target(env, &ops[0], "jump", 21)?))
        })(),
        "jal" if ops.len() == 1 => {
            target(env, &ops[0], "jump", 21).and_then(|t| one(inst(Op::Jal, 1, 0, 0, t)))
        }
        "jr" => (|| {
            count(name, ops, &[1], "rs", end)?;
            one(inst(Op::Jalr, 0, x(0)?, 0, 0))
        })(),
        "jalr" if ops.len() == 1 && mem_parts(&ops[0]).1.is_none() => {
            x(0).and_then(|r| one(inst(Op::Jalr, 1, r, 0, 0)))
        }
        "jalr" if ops.len() == 1 => (|| {
            // jalr off(rs): link in ra.
            let (off, base) = mem_parts(&ops[0]);
            let v = match off {
                Some(t) => value(env, t)?.0,
                None => 0,
            };
            let v = fit(env, ops[0].span(), "offset", v, -2048, 2047)?;
            one(inst(Op::Jalr, 1, base.unwrap_or(0), 0, v as i32))
        })(),
        "jalr" if ops.len() == 2 && mem_parts(&ops[1]).1.is_none() && ops[1].ident().is_some() => {
            (|| one(inst(Op::Jalr, x(0)?, x(1)?, 0, 0)))()
        }
        "jalr" if ops.len() == 3 => (|| {
            let (v, _) = value(env, ops[2].toks)?;
            let v = fit(env, ops[2].span(), "offset", v, -2048, 2047)?;
            one(inst(Op::Jalr, x(0)?, x(1)?, 0, v as i32))
        })(),
        "ret" => {
            count(name, ops, &[0], "no operands", end).and_then(|_| one(inst(Op::Jalr, 0, 1, 0, 0)))
        }
        "call" => (|| {
            count(name, ops, &[1, 2], "[rd,] label", end)?;
            let (rd, t) = if ops.len() == 2 { (x(0)?, 1) } else { (1, 0) };
            Ok((
                pcrel_pair(env, &ops[t], rd, inst(Op::Jalr, rd, rd, 0, 0))?,
                false,
            ))
        })(),
        "tail" => (|| {
            count(name, ops, &[1], "label", end)?;
            Ok((
                pcrel_pair(env, &ops[0], 6, inst(Op::Jalr, 0, 6, 0, 0))?,
                false,
            ))
        })(),
        "csrr" => (|| {
            count(name, ops, &[2], "rd, csr", end)?;
            let c = crate::operands::csr_op(env, &ops[1])? as i32;
            one(inst(Op::Csrrs, x(0)?, 0, 0, c))
        })(),
        "csrw" => csr_write(Op::Csrrw, false),
        "csrs" => csr_write(Op::Csrrs, false),
        "csrc" => csr_write(Op::Csrrc, false),
        "csrwi" => csr_write(Op::Csrrwi, true),
        "csrsi" => csr_write(Op::Csrrsi, true),
        "csrci" => csr_write(Op::Csrrci, true),
        "rdcycle" => csr_read("cycle"),
        "rdcycleh" => csr_read("cycleh"),
        "rdinstret" => csr_read("instret"),
        "rdinstreth" => csr_read("instreth"),
        "rdtime" => csr_read("time"),
        "rdtimeh" => csr_read("timeh"),
        "frcsr" => csr_read("fcsr"),
        "frrm" => csr_read("frm"),
        "frflags" => csr_read("fflags"),
        "fscsr" => csr_swap("fcsr", false),
        "fsrm" => csr_swap("frm", false),
        "fsflags" => csr_swap("fflags", false),
        "fsrmi" => csr_swap("frm", true),
        "fsflagsi" => csr_swap("fflags", true),
        "fmv.s" => fsgn(Op::FsgnjS),
        "fabs.s" => fsgn(Op::FsgnjxS),
        "fneg.s" => fsgn(Op::FsgnjnS),
        "unimp" => count(name, ops, &[0], "no operands", end)
            .and_then(|_| one(inst(Op::Csrrw, 0, 0, 0, csr_named("cycle")))),
        "lb" | "lh" | "lw" | "lbu" | "lhu" | "flw" | "sb" | "sh" | "sw" | "fsw"
            if ops.len() >= 2 =>
        {
            match symbolic(env, &ops[1]) {
                Err(e) => Err(e),
                Ok(false) if ops.len() == 2 => return None,
                Ok(_) => load_store_symbol(env, name, ops, end),
            }
        }
        _ => return None,
    })
}

/// `lw rd, sym` (rd is the temporary) and `sw rs, sym, rt` / `flw fd, sym, rt`.
fn load_store_symbol(env: &dyn OpEnv, name: &str, ops: &[Operand], end: Span) -> Expansion {
    let op = match Op::from_name(name) {
        Some(op) => op,
        None => {
            return err(
                end,
                AsmErrorKind::UnknownMnemonic {
                    name: name.into(),
                    hint: "",
                },
            )
        }
    };
    let is_int_load = matches!(name, "lb" | "lh" | "lw" | "lbu" | "lhu");
    let is_float = name.starts_with('f');
    if is_int_load && ops.len() == 2 {
        let rd = xreg_op(&ops[0])?;
        return Ok((pcrel_pair(env, &ops[1], rd, inst(op, rd, rd, 0, 0))?, false));
    }
    if ops.len() != 3 {
        return err(
            ops.get(3).map(|o| o.span()).unwrap_or(end),
            AsmErrorKind::OperandCount {
                mnemonic: name.into(),
                expected: format!(
                    "{}, symbol, rt (a temporary register for the address)",
                    if is_float { "freg" } else { "rs" }
                ),
                found: ops.len(),
            },
        );
    }
    let tmp = xreg_op(&ops[2])?;
    let data = if is_float {
        freg_op(&ops[0])?
    } else {
        xreg_op(&ops[0])?
    };
    let second = if op.entry().args.starts_with('D') || op.entry().args.starts_with('d') {
        inst(op, data, tmp, 0, 0)
    } else {
        inst(op, 0, tmp, data, 0)
    };
    if symbolic(env, &ops[1])? || mem_parts(&ops[1]).1.is_none() {
        Ok((pcrel_pair(env, &ops[1], tmp, second)?, false))
    } else {
        expected(ops[1].span(), "a symbol", "a memory operand")
    }
}
