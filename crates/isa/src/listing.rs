//! Generated reference listings for `docs/isa.md`: the encoding table, the CSR map and the
//! fault codes, produced from the same tables the tools use. A test in this crate checks that
//! the committed `docs/isa.md` contains the current listing.

use crate::csr::{Access, CSRS};
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
         fence sets.\n"
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
