//! Compressed instructions for the random program generator (`GenConfig::compressed`):
//! single RV32C/RV32FC instructions mixed among the 32-bit ones (so instructions sit at every
//! halfword alignment), and blocks that need set-up or control flow: loads and stores through
//! a popular base register or `sp` pointed into the data region, forward `c.beqz`/`c.bnez`/
//! `c.j`/`c.jal` over a few instructions, `c.jr`/`c.jalr` to a label, and a loop closed by
//! `c.addi` on the loop counter. The register conventions of `gen.rs` hold: nothing writes
//! x29–x31 except as that module allows.

use crate::layout::DATA_SIZE;
use crate::rng::Rng;

/// A popular register x8–x15 (all writable here).
fn p_reg(r: &mut Rng) -> String {
    format!("x{}", 8 + r.below(8))
}

/// A writable integer register other than x0: x1–x28.
fn x_dst_nz(r: &mut Rng) -> String {
    format!("x{}", 1 + r.below(28))
}

/// A 6-bit signed immediate.
fn imm6(r: &mut Rng) -> i32 {
    r.range(-32, 31)
}

/// One straight-line compressed instruction (no memory access, no control flow).
pub(crate) fn simple(r: &mut Rng) -> String {
    match r.below(12) {
        0 => format!("c.li {}, {}", x_dst_nz(r), imm6(r)),
        1 => format!("c.addi {}, {}", x_dst_nz(r), imm6(r)),
        2 => {
            // rd ∉ {x0, x2}; a non-zero 6-bit immediate (as a 20-bit field).
            let rd = loop {
                let d = 1 + r.below(28);
                if d != 2 {
                    break d;
                }
            };
            let v = loop {
                let v = imm6(r);
                if v != 0 {
                    break v;
                }
            };
            format!("c.lui x{rd}, {:#x}", (v as u32) & 0xfffff)
        }
        3 => {
            let op = r.pick(&["c.srli", "c.srai"]);
            format!("{op} {}, {}", p_reg(r), r.range(1, 31))
        }
        4 => format!("c.slli {}, {}", x_dst_nz(r), r.range(1, 31)),
        5 => format!("c.andi {}, {}", p_reg(r), imm6(r)),
        6 => {
            let op = r.pick(&["c.sub", "c.xor", "c.or", "c.and"]);
            format!("{op} {}, {}", p_reg(r), p_reg(r))
        }
        7 => format!("c.mv {}, x{}", x_dst_nz(r), 1 + r.below(31)),
        8 => format!("c.add {}, x{}", x_dst_nz(r), 1 + r.below(31)),
        9 => {
            let v = loop {
                let v = r.range(-32, 31) * 16;
                if v != 0 {
                    break v;
                }
            };
            format!("c.addi16sp sp, {v}")
        }
        10 => format!("c.addi4spn {}, sp, {}", p_reg(r), 4 * r.range(1, 255)),
        _ => "c.nop".into(),
    }
}

/// A block of compressed code with set-up or control flow; `fill` makes filler
/// instructions (any mix of 16- and 32-bit ones).
pub(crate) fn block(
    r: &mut Rng,
    id: usize,
    float: bool,
    fill: &mut dyn FnMut(&mut Rng) -> String,
) -> Vec<String> {
    let mut lines = Vec::new();
    match r.below(7) {
        0 | 1 => {
            // Loads and stores through a popular base: words at 4-aligned offsets.
            let base = p_reg(r);
            let start = 4 * r.below((DATA_SIZE - 128) / 4);
            lines.push(format!("addi {base}, x31, {start}"));
            for _ in 0..r.range(1, 4) {
                let k = 4 * r.below(32);
                // A load never overwrites the base (the next access still uses it).
                let dst = loop {
                    let d = p_reg(r);
                    if d != base {
                        break d;
                    }
                };
                let line = match r.below(if float { 4 } else { 2 }) {
                    0 => format!("c.lw {dst}, {k}({base})"),
                    1 => format!("c.sw {}, {k}({base})", p_reg(r)),
                    2 => format!("c.flw f{}, {k}({base})", 8 + r.below(8)),
                    _ => format!("c.fsw f{}, {k}({base})", 8 + r.below(8)),
                };
                lines.push(line);
            }
        }
        2 => {
            // Through sp: words at 4-aligned offsets up to 252.
            let start = 4 * r.below((DATA_SIZE - 256) / 4);
            lines.push(format!("addi sp, x31, {start}"));
            for _ in 0..r.range(1, 4) {
                let k = 4 * r.below(64);
                let line = match r.below(if float { 4 } else { 2 }) {
                    0 => format!("c.lwsp {}, {k}(sp)", x_dst_nz(r)),
                    1 => format!("c.swsp x{}, {k}(sp)", r.below(32)),
                    2 => format!("c.flwsp f{}, {k}(sp)", r.below(32)),
                    _ => format!("c.fswsp f{}, {k}(sp)", r.below(32)),
                };
                lines.push(line.clone());
                if line.starts_with("c.lwsp x2,") {
                    lines.push(format!("addi sp, x31, {start}"));
                }
            }
        }
        3 => {
            // A forward conditional or unconditional jump over a few instructions.
            let br = match r.below(4) {
                0 => format!("c.beqz {}, .Lcskip{id}", p_reg(r)),
                1 => format!("c.bnez {}, .Lcskip{id}", p_reg(r)),
                2 => format!("c.j .Lcskip{id}"),
                _ => format!("c.jal .Lcskip{id}"),
            };
            lines.push(br);
            for _ in 0..r.range(1, 4) {
                lines.push(fill(r));
            }
            lines.push(format!(".Lcskip{id}:"));
        }
        4 => {
            // An indirect jump or call to a label.
            let t = p_reg(r);
            lines.push(format!("la {t}, .Lcjr{id}"));
            let op = r.pick(&["c.jr", "c.jalr"]);
            lines.push(format!("{op} {t}"));
            for _ in 0..r.range(1, 3) {
                lines.push(fill(r));
            }
            lines.push(format!(".Lcjr{id}:"));
        }
        _ => {
            // A small loop closed by compressed code.
            lines.push(format!("c.li x30, {}", r.range(1, 4)));
            lines.push(format!(".Lcloop{id}:"));
            for _ in 0..r.range(1, 4) {
                lines.push(fill(r));
            }
            lines.push("c.addi x30, -1".into());
            lines.push(format!("bnez x30, .Lcloop{id}"));
        }
    }
    lines
}
