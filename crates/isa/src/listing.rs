//! Generated reference listings for `docs/isa.md`: the encoding table, the CSR map and the
//! fault codes, produced from the same tables the tools use. A test in this crate checks that
//! the committed `docs/isa.md` contains the current listing.

use crate::csr::{Access, CSRS};
use crate::ctable::{Imm, Src, CTABLE};
use crate::fault::FaultCode;
use crate::table::TABLE;
use std::fmt::Write;

/// Marker lines that delimit the generated part of `docs/isa.md`.
pub const BEGIN: &str = "<!-- BEGIN GENERATED: weft-isa listing (cargo test -p weft-isa regenerates with WEFT_BLESS=1) -->";
/// End marker.
pub const END: &str = "<!-- END GENERATED -->";

fn bitstring(matches: u32, mask: u32) -> String {
    let mut s = String::new();
    for b in (0..32).rev() {
        s.push(if mask >> b & 1 == 1 {
            if matches >> b & 1 == 1 {
                '1'
            } else {
                '0'
            }
        } else {
            '.'
        });
        if b == 25 || b == 20 || b == 15 || b == 12 || b == 7 {
            s.push(' ');
        }
    }
    s
}

/// The generated markdown: encodings per extension, CSR map, fault codes.
pub fn markdown() -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{BEGIN}\n");
    let _ = writeln!(s, "### Encodings\n");
    let _ = writeln!(
        s,
        "Bits are shown as `funct7 rs2 rs1 funct3 rd opcode` (31–25, 24–20, 19–15, 14–12, 11–7, \
         6–0); `.` marks an operand bit. Operand letters: d/s/t integer rd/rs1/rs2, D/S/T/R float \
         rd/rs1/rs2/rs3, j/o 12-bit immediate, q store offset, p branch target, a jump target, \
         u upper immediate, > shift amount, E CSR, Z 5-bit CSR immediate, m rounding mode, P/Q \
         fence sets, F/G/H TCU data format in rd/rs1/rs2, N/W 5-bit immediate in rd/rs2.\n"
    );
    let mut ext = "";
    for e in TABLE {
        if e.ext != ext {
            ext = e.ext;
            let _ = writeln!(s, "\n#### {ext}\n");
            let _ = writeln!(s, "| mnemonic | operands | encoding | class |");
            let _ = writeln!(s, "|---|---|---|---|");
        }
        let _ = writeln!(
            s,
            "| `{}` | `{}` | `{}` | {:?} |",
            e.name,
            e.args,
            bitstring(e.matches, e.mask),
            e.class
        );
    }
    compressed(&mut s);
    let _ = writeln!(s, "\n### CSR map\n");
    let _ = writeln!(s, "| number | name | access | meaning |");
    let _ = writeln!(s, "|---|---|---|---|");
    let mut csrs: Vec<_> = CSRS.iter().collect();
    csrs.sort_by_key(|c| c.num);
    for c in csrs {
        let acc = match c.access {
            Access::ReadWrite => "RW",
            Access::ReadOnly => "RO",
        };
        let _ = writeln!(
            s,
            "| `{:#05x}` | `{}` | {} | {} |",
            c.num, c.name, acc, c.doc
        );
    }
    let _ = writeln!(s, "\n### Fault codes\n");
    let _ = writeln!(s, "| code | name | meaning |");
    let _ = writeln!(s, "|---|---|---|");
    for f in FaultCode::ALL {
        let _ = writeln!(s, "| {} | `{}` | {} |", f.code(), f.name(), f.doc());
    }
    let _ = writeln!(s, "\n{END}");
    s
}

fn bitstring16(matches: u16, mask: u16) -> String {
    let mut s = String::new();
    for b in (0..16).rev() {
        s.push(match (mask >> b & 1, matches >> b & 1) {
            (1, 1) => '1',
            (1, _) => '0',
            _ => '.',
        });
        if b == 13 || b == 12 || b == 7 || b == 2 {
            s.push(' ');
        }
    }
    s
}

/// The compressed table: encoding, conditions, and the 32-bit instruction it expands to.
fn compressed(s: &mut String) {
    let _ = writeln!(s, "\n#### RV32C and RV32FC (16-bit)\n");
    let _ = writeln!(
        s,
        "Bits are shown as `funct3 12 11–7 6–2 op`. Operands use the letters above and name \
         the expanded instruction's operands; `x8+` is a register x8–x15 (f8–f15) held in \
         three bits. Every encoding not listed, and every listed one that breaks its \
         condition, is reserved and does not decode.\n"
    );
    let _ = writeln!(
        s,
        "| mnemonic | operands | encoding | condition | expands to |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|");
    for e in CTABLE {
        let mut need = Vec::new();
        let n = crate::ctable::need::HI_NZ;
        if e.need & n != 0 {
            need.push("bits 11–7 ≠ 0");
        }
        if e.need & crate::ctable::need::HI_NOT_SP != 0 {
            need.push("bits 11–7 ≠ 2");
        }
        if e.need & crate::ctable::need::LO_NZ != 0 {
            need.push("bits 6–2 ≠ 0");
        }
        if e.need & crate::ctable::need::IMM_NZ != 0 {
            need.push("imm ≠ 0");
        }
        if e.need & crate::ctable::need::ANY != 0 {
            need.push("not `c.nop`");
        }
        let reg = |r: Src, float: bool| -> String {
            let f = if float { "f" } else { "x" };
            match r {
                Src::Zero => "x0".into(),
                Src::Ra => "x1".into(),
                Src::Sp => "x2".into(),
                Src::Hi => format!("{f}[11:7]"),
                Src::Lo => format!("{f}[6:2]"),
                Src::P97 => format!("{f}8+[9:7]"),
                Src::P42 => format!("{f}8+[4:2]"),
            }
        };
        let a = e.op.entry().args;
        let [rd, rs1, rs2] = e.regs;
        let mut ops = Vec::new();
        if a.contains('d') || a.contains('D') {
            ops.push(format!("rd={}", reg(rd, a.contains('D'))));
        }
        if a.contains('s') || a.contains('S') {
            ops.push(format!("rs1={}", reg(rs1, a.contains('S'))));
        }
        if a.contains('t') || a.contains('T') {
            ops.push(format!("rs2={}", reg(rs2, a.contains('T'))));
        }
        if e.imm != Imm::None {
            ops.push(format!("imm={}", format!("{:?}", e.imm).to_lowercase()));
        } else if a.contains(['j', 'o', 'q']) {
            ops.push("imm=0".into());
        }
        let _ = writeln!(
            s,
            "| `{}` | `{}` | `{}` | {} | `{}` {} |",
            e.name,
            e.args,
            bitstring16(e.matches, e.mask),
            if need.is_empty() {
                "—".into()
            } else {
                need.join(", ")
            },
            e.op.name(),
            ops.join(", ")
        );
    }
}
