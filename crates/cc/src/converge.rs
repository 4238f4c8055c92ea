//! `weft cc --reconv converge`: a `converge` at each conditional branch's immediate
//! post-dominator, placed through clang's assembly output.
//!
//! 1. Every C/C++ unit is compiled to assembly (`clang -S`) and a label `__wi_U_N` is put
//!    before its N-th instruction; the build is linked, so each label's address is known.
//! 2. The post-dominator analysis of that ELF (the same one the loader runs) gives each
//!    branch's (and each resolved jump table's `jalr`'s) reconvergence pc; labels map both pcs back to (unit, instruction).
//! 3. The units are compiled again (clang is deterministic), and before instruction M of a
//!    unit go `converge` instructions naming each branch whose post-dominator is M, the branch
//!    that appears later in the code first (the inner of two nested branches closes first).
//!    They are emitted as `.insn b 0x5B, 0, x0, x0, .Lwc_U_K` (clang's assembler does not
//!    know the mnemonic), which the linker resolves like a branch offset.
//!
//! Every jump into the post-dominator block lands on its labels, which come before the
//! inserted `converge`s, so every path runs them.
//!
//! A `converge` needs a pc to stand at, so every function is first given a single exit: the
//! units are compiled without tail calls (`-fno-optimize-sibling-calls`) and each `ret` becomes
//! a jump to one `ret` at the function's end ([`single_exit`]). A branch whose region only ends
//! at that return then reconverges at it. Branches whose point lies in hand-written assembly
//! (crt0), or that can only meet at a call that never returns (an error exit), get none; a
//! `converge` more than ±3 KiB from its branch (the B-type range is ±4 KiB) is left out too.

use crate::{CcError, DeviceBuild};
use std::collections::BTreeMap;
use weft_reconv::Reconv;

/// Where an instruction is: (unit index, instruction index in the unit's assembly).
type At = (usize, usize);

/// Is this assembly line (comment removed, trimmed) an instruction? `.insn` (inline assembly
/// of weft's own instructions, weft_warp.h's votes and shuffles) is one.
fn is_instruction(line: &str) -> bool {
    !line.is_empty() && (!line.starts_with('.') || is_insn(line)) && !line.ends_with(':')
}

/// Is this line an `.insn` directive (an instruction given by its encoding)?
fn is_insn(line: &str) -> bool {
    line.starts_with(".insn ") || line.starts_with(".insn\t")
}

/// Strip a `#` comment (instruction lines have no strings).
fn code_of(line: &str) -> &str {
    line.split('#').next().unwrap_or("").trim()
}

/// Track whether a directive line switches to an executable section.
fn section_exec(line: &str, cur: bool) -> bool {
    let l = line.trim_start();
    if l.starts_with(".text") {
        return true;
    }
    if l.starts_with(".data") || l.starts_with(".bss") || l.starts_with(".rodata") {
        return false;
    }
    if let Some(rest) = l.strip_prefix(".section") {
        let mut parts = rest.split(',');
        let name = parts.next().unwrap_or("").trim();
        let flags = parts.next().unwrap_or("").trim().trim_matches('"');
        return name.starts_with(".text") || flags.contains('x');
    }
    cur
}

/// Give every function of clang's assembly one `ret`: each `ret` becomes `j .Lwr_U_F`, and
/// that label with the one `ret` goes just before the function's `.Lfunc_endF` label.
pub fn single_exit(unit: usize, text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 256);
    let mut f = 0;
    let mut replaced = false;
    for line in text.lines() {
        let code = code_of(line);
        if code.starts_with(".Lfunc_end") && code.ends_with(':') {
            if replaced {
                out.push_str(&format!(".Lwr_{unit}_{f}:\n\tret\n"));
            }
            replaced = false;
            f += 1;
        }
        let words: Vec<&str> = code
            .split([' ', '\t', ','])
            .filter(|w| !w.is_empty())
            .collect();
        let is_ret = matches!(
            words.as_slice(),
            ["ret"] | ["jr", "ra"] | ["jalr", "zero", "0(ra)"]
        );
        if is_ret {
            out.push_str(&format!("\tj\t.Lwr_{unit}_{f}\n"));
            replaced = true;
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Call `f(index, line)` for each instruction line of executable sections; other lines are
/// copied. `f` returns the text to put before the instruction.
fn rewrite(text: &str, mut before: impl FnMut(usize) -> String) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    let mut exec = false;
    let mut n = 0;
    for line in text.lines() {
        let code = code_of(line);
        if code.starts_with('.') && !is_insn(code) {
            exec = section_exec(code, exec);
        } else if exec && is_instruction(code) {
            out.push_str(&before(n));
            n += 1;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Build with converges: see the module header.
pub fn build(b: &DeviceBuild<'_>) -> Result<Vec<u8>, CcError> {
    // 1. The labelled build.
    let objs = b.compile_all(Some(&mut |u, text: &str| {
        Ok(rewrite(&single_exit(u, text), |n| {
            format!("__wi_{u}_{n}:\n")
        }))
    }))?;
    let elf = b.link(&objs)?;
    let img = weft_elf::read_elf(&elf).map_err(|e| CcError::Analysis(e.to_string()))?;
    let mut at: BTreeMap<u32, At> = BTreeMap::new();
    for s in &img.symbols {
        if let Some(rest) = s.name.strip_prefix("__wi_") {
            let mut it = rest.split('_').map(|x| x.parse::<usize>());
            if let (Some(Ok(u)), Some(Ok(n))) = (it.next(), it.next()) {
                at.insert(s.value, (u, n));
            }
        }
    }
    // 2. Each conditional branch's point.
    let a = weft_simt::load::analyze_image(&img).map_err(|e| CcError::Analysis(e.to_string()))?;
    let word = |pc: u32| {
        img.segments.iter().find(|s| s.contains(pc)).and_then(|s| {
            let o = (pc - s.vaddr) as usize;
            s.data
                .get(o..o + 4)
                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        })
    };
    // (unit, instruction of the point) → branches' instruction indices
    let mut joins: BTreeMap<At, Vec<usize>> = BTreeMap::new();
    let mut branches: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (pc, r) in a.table.iter() {
        let Reconv::At(point) = r else { continue };
        // Conditional branches, and jump-table `jalr`s the analysis resolved (their lanes
        // split by target and meet at the jump's post-dominator).
        if word(pc).is_none_or(|w| w & 0x7F != 0x63 && w & 0x7F != 0x67) {
            continue;
        }
        let (Some(&(u, k)), Some(&(u2, m))) = (at.get(&pc), at.get(&point)) else {
            continue;
        };
        if u != u2 || point.abs_diff(pc) > 3 << 10 {
            continue;
        }
        joins.entry((u, m)).or_default().push(k);
        branches.entry(u).or_default().push(k);
    }
    for ks in joins.values_mut() {
        ks.sort_unstable_by(|x, y| y.cmp(x));
    }
    // 3. The final build.
    let objs = b.compile_all(Some(&mut |u, text: &str| {
        let named = branches.get(&u);
        Ok(rewrite(&single_exit(u, text), |n| {
            let mut s = String::new();
            if let Some(ks) = joins.get(&(u, n)) {
                for k in ks {
                    s.push_str(&format!("\t.insn b 0x5B, 0, x0, x0, .Lwc_{u}_{k}\n"));
                }
            }
            if named.is_some_and(|v| v.contains(&n)) {
                s.push_str(&format!(".Lwc_{u}_{n}:\n"));
            }
            s
        }))
    }))?;
    b.link(&objs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_only_instructions_of_code_sections() {
        let text = "\t.text\nf:\n\taddi a0, a0, 1 # x\n.LBB0_1:  # loop\n\tbnez a0, .LBB0_1\n\
                    \t.insn r 0x0B, 0, 1, x0, x0, a1 # a vote\n\
                    \t.section .rodata,\"a\",@progbits\n\t.word 3\n\
                    \t.section .text.g,\"ax\",@progbits\n\tret\n";
        let out = rewrite(text, |n| format!("L{n}:\n"));
        assert_eq!(
            out,
            "\t.text\nf:\nL0:\n\taddi a0, a0, 1 # x\n.LBB0_1:  # loop\nL1:\n\tbnez a0, .LBB0_1\n\
             L2:\n\t.insn r 0x0B, 0, 1, x0, x0, a1 # a vote\n\
             \t.section .rodata,\"a\",@progbits\n\t.word 3\n\
             \t.section .text.g,\"ax\",@progbits\nL3:\n\tret\n"
        );
    }

    #[test]
    fn one_ret_per_function() {
        let text = "f:\n\tbeqz a0, .LBB0_2\n\tret\n.LBB0_2:\n\tjr ra\n.Lfunc_end0:\n\
                    g:\n\tret\n.Lfunc_end1:\n";
        assert_eq!(
            single_exit(3, text),
            "f:\n\tbeqz a0, .LBB0_2\n\tj\t.Lwr_3_0\n.LBB0_2:\n\tj\t.Lwr_3_0\n\
             .Lwr_3_0:\n\tret\n.Lfunc_end0:\ng:\n\tj\t.Lwr_3_1\n.Lwr_3_1:\n\tret\n.Lfunc_end1:\n"
        );
    }
}
