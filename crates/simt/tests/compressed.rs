//! SIMT execution of compressed code: divergent `c.beqz`/`c.bnez` (an if/else and a loop
//! whose lanes leave at different trips) reconverge at the right pc — the post-dominator the
//! analysis finds by walking 2- and 4-byte instructions, and a `converge` in converge mode —
//! at 1, 4, 8 and 32 lanes, with every lane's result checked against a reference computed
//! here; calls through `c.jal`/`c.jalr` link pc + 2.

mod common;
use common::*;
use weft_simt::{ReconvMode, RunEnd};

fn source(mode: ReconvMode) -> String {
    let src = common::source("compressed.s");
    match mode {
        ReconvMode::Converge => src
            .replace("# converge br ", "converge br # ")
            .replace("# converge lbr ", "converge lbr # "),
        _ => src,
    }
}

#[test]
fn divergent_compressed_branches_reconverge_at_every_lane_count() {
    for mode in [ReconvMode::Table, ReconvMode::Converge] {
        for lanes in [1, 4, 8, 32] {
            let r = run_src(&source(mode), cfg(lanes, mode));
            let at = format!("lanes {lanes} {mode:?}");
            assert_eq!(r.end, RunEnd::AllHalted, "{at}");
            let out = r.words("out", 160);
            for t in 0..lanes {
                let tid = t as u32;
                let branch = if tid & 1 != 0 { 10 + tid } else { 40 - tid };
                assert_eq!(out[t], branch, "{at}: lane {t} if/else");
                assert_eq!(out[32 + t], full(lanes), "{at}: lane {t} mask at the join");
                assert_eq!(out[64 + t], 3 * ((tid & 3) + 1), "{at}: lane {t} loop");
                assert_eq!(
                    out[96 + t],
                    full(lanes),
                    "{at}: lane {t} mask after the loop"
                );
                assert_eq!(out[128 + t], 4 * tid, "{at}: lane {t} c.jal/c.jalr");
            }
            if lanes > 1 {
                assert!(r.m.report().divergences >= 2, "{at}: the branches diverged");
            }
        }
    }
}

#[test]
fn the_table_names_the_join_of_each_compressed_branch() {
    let bytes = weft_asm::assemble(&source(ReconvMode::Table), "c.s").unwrap();
    let img = weft_elf::read_elf(&bytes).unwrap();
    let a = weft_simt::load::analyze_image(&img).unwrap();
    let sym = |s: &str| img.symbol(s).unwrap().value;
    // The join and `after` are 2-byte aligned but not 4-byte aligned here, or right after
    // 2-byte instructions: the walk must step by each instruction's length.
    assert_eq!(
        sym("join") - sym("br"),
        14,
        "c.beqz, c.li, c.add, c.j, c.li, c.slli, c.sub"
    );
    for (branch, join) in [("br", "join"), ("lbr", "after")] {
        assert_eq!(
            a.table.get(sym(branch)),
            Some(weft_reconv::Reconv::At(sym(join))),
            "{branch}"
        );
    }
}

/// Code at the very end of DRAM: a compressed instruction in the last halfword runs; a
/// 4-byte instruction whose second half would lie past the end is a FETCH_FAULT that says so.
#[test]
fn an_instruction_at_the_end_of_memory() {
    let dram: u32 = 1 << 20;
    let end = 0x8000_0000u32 + dram;
    for (last, want_fault) in [("c.li a0, 7", false), (".half 0x0013", true)] {
        let src = format!(
            "
    .text
    .globl _start
_start:
    li a0, 0
    la t0, tail
    jalr ra, t0, 0
    li t0, 0xffffff04
    sw a0, 0(t0)
    .section .tail, \"ax\"
    .base {:#x}
tail:
    c.nop
    {last}
",
            end - 4
        );
        let cfg = weft_simt::Config {
            dram_size: dram,
            ..cfg(1, ReconvMode::Table)
        };
        let r = run_src(&src, cfg);
        match (&r.end, want_fault) {
            (RunEnd::Fault(f), true) => {
                assert_eq!(f.code, weft_isa::FaultCode::FetchFault, "{f}");
                assert_eq!(f.pc, end - 2);
                assert!(f.to_string().contains("past the end of memory"), "{f}");
            }
            // The c.li ran, then the pc left memory: a fetch fault at the end.
            (RunEnd::Fault(f), false) => {
                assert_eq!(f.code, weft_isa::FaultCode::FetchFault, "{f}");
                assert_eq!(f.pc, end, "{f}");
                assert_eq!(
                    r.m.cores[0].warps[0].x[10][0], 7,
                    "the c.li in the last halfword ran"
                );
            }
            (e, _) => panic!("{last}: {e:?}"),
        }
    }
}
