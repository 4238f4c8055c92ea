//! Machine mode as the RISC-V privileged specification defines it, for the CSRs weft
//! implements (the official rv32mi suite passes too; see docs/reliability.md): WARL fields
//! legalised, float state gated by `mstatus.FS`, writable counters, and jumps to
//! halfword-aligned targets (with the C extension no target is misaligned). Expected values come from
//! the specification, written out here.

mod common;

use common::run_src;
use weft_simt::{Config, RunEnd};

/// Run `body` after a prologue that installs a handler recording mcause, mepc − the body's
/// start (`base`), mtval and the trap count at `trap` and skipping the trapping instruction.
fn run(body: &str) -> common::Run {
    let src = format!(
        "
    .text
    .globl _start
_start:
    la t0, handler
    csrw mtvec, t0
    la s11, trap
base:
{body}
    li t0, 0xffffff04
    sw zero, 0(t0)
handler:
    csrr t0, mcause
    sw t0, 0(s11)
    csrr t0, mepc
    la t1, base
    sub t1, t0, t1
    sw t1, 4(s11)
    csrr t1, mtval
    sw t1, 8(s11)
    lw t1, 12(s11)
    addi t1, t1, 1
    sw t1, 12(s11)
    addi t0, t0, 4
    csrw mepc, t0
    mret
    .data
    .align 2
trap: .word 0, 0, 0, 0
out:  .word 0, 0, 0, 0, 0, 0, 0, 0
fdata: .word 1
"
    );
    let r = run_src(&src, Config::default());
    assert_eq!(r.end, RunEnd::Exit(0), "{src}");
    r
}

const MPP: u32 = 3 << 11;
const FS: u32 = 3 << 13;
const SD: u32 = 1 << 31;

#[test]
fn mstatus_legalises_mpp_and_tracks_the_float_state() {
    let r = run("
    la s0, out
    csrr t0, mstatus
    sw t0, 0(s0)            # reset: MPP = M, FS = Initial
    li t1, 0x1800
    csrc mstatus, t1
    li t1, 0x0800           # MPP = S: no S-mode, so it stays M
    csrs mstatus, t1
    csrr t0, mstatus
    sw t0, 4(s0)
    fadd.s f1, f2, f3       # any float instruction makes FS Dirty (and SD)
    csrr t0, mstatus
    sw t0, 8(s0)
    li t1, 0x6000
    csrc mstatus, t1        # FS = Off
    csrr t0, mstatus
    sw t0, 12(s0)
");
    assert_eq!(
        r.words("out", 4),
        vec![MPP | 1 << 13, MPP | 1 << 13, MPP | FS | SD, MPP]
    );
    assert_eq!(r.words("trap", 4)[3], 0, "no trap");
}

#[test]
fn float_instructions_with_fs_off_are_illegal_and_change_nothing() {
    let r = run("
    la s0, out
    la s1, fdata
    li t1, 0x6000
    csrc mstatus, t1        # FS = Off
    fsw f0, 0(s1)           # traps: fdata keeps 1
    flw f5, 0(s1)           # traps
    fadd.s f1, f2, f3       # traps
    li t2, 7
    csrr t2, fflags         # traps: t2 stays 7
    lw t0, 12(s11)
    sw t0, 0(s0)            # the trap count
    lw t0, 0(s1)
    sw t0, 4(s0)
    sw t2, 8(s0)
");
    let out = r.words("out", 3);
    assert_eq!(out[0], 4, "four traps");
    assert_eq!(out[1], 1, "the fsw stored nothing");
    assert_eq!(out[2], 7, "the trapping csrr left rd alone");
    assert_eq!(r.word("trap"), 2, "mcause: illegal instruction");
}

#[test]
fn mtvec_misa_and_trigger_csrs_are_warl() {
    let r = run("
    la s0, out
    la t0, handler
    addi t0, t0, 1          # vectored mode: not implemented, reads as direct
    csrw mtvec, t0
    csrr t1, mtvec
    sub t1, t1, t0
    sw t1, 0(s0)            # -1: the mode bit was dropped
    csrr t1, misa
    li t2, 0xffffffff
    csrw misa, t2           # WARL: ignored, no trap
    csrr t2, misa
    sub t2, t2, t1
    sw t2, 4(s0)
    li t2, 3
    csrw tselect, t2        # no debug triggers: reads 0, writes ignored
    csrr t2, tselect
    sw t2, 8(s0)
    li t2, -1
    csrw tdata1, t2
    csrr t2, tdata1
    sw t2, 12(s0)
    lw t0, 12(s11)
    sw t0, 16(s0)
");
    assert_eq!(r.words("out", 5), vec![u32::MAX, 0, 0, 0, 0]);
}

/// PMP: 16 entries whose fields are all WARL (privileged spec §3.7.1): `pmpaddr` keeps every
/// bit (4-byte granularity, G = 0), `pmpcfg` keeps R, W, X and A per entry, reads L and the
/// reserved bits 6:5 as 0 and the reserved R = 0, W = 1 as W = 0; csrs/csrc modify what reads
/// back. Without L no entry binds machine mode: an entry over all memory with no permission
/// changes no access. (rv32mi `pmpaddr` finds G from an all-ones write.)
#[test]
fn pmp_csrs_are_warl_and_never_bind_machine_mode() {
    let r = run("
    la s0, out
    li t0, -1
    csrw pmpaddr0, t0
    csrr t1, pmpaddr0
    sw t1, 0(s0)
    csrw pmpaddr15, t0
    csrr t1, pmpaddr15
    sw t1, 4(s0)
    csrw pmpcfg0, t0
    csrr t1, pmpcfg0
    sw t1, 8(s0)
    li t2, 0x9b1a0302       # L|NAPOT|RW, NAPOT|W, RW, W
    csrw pmpcfg3, t2
    csrr t1, pmpcfg3
    sw t1, 12(s0)
    csrsi pmpcfg3, 1        # entry 12: R
    csrr t1, pmpcfg3
    sw t1, 16(s0)
    csrr t1, pmpcfg1
    sw t1, 20(s0)
    li t2, 0x18             # entry 0: NAPOT over all memory, no R, W or X
    csrw pmpcfg0, t2
    lw t1, 0(s0)
    sw t1, 24(s0)
    lw t0, 12(s11)
    sw t0, 28(s0)
");
    assert_eq!(
        r.words("out", 8),
        vec![
            u32::MAX,
            u32::MAX,
            0x1f1f_1f1f,
            0x1b18_0300,
            0x1b18_0301,
            0,
            u32::MAX,
            0
        ]
    );
}

#[test]
fn minstret_and_mcycle_are_writable() {
    let r = run("
    la s0, out
    csrwi minstret, 0
    csrr t0, minstret       # the writing instruction does not count: 0
    sw t0, 0(s0)
    li t0, 0xffffffff
    csrw minstret, t0
    csrw minstreth, t0
    nop                     # the counter wraps to 0 here
    csrr t1, minstret
    csrr t2, minstreth
    sw t1, 4(s0)
    sw t2, 8(s0)
    li t0, 100000
    csrw mcycle, t0
    csrr t1, mcycle
    sub t1, t1, t0
    sw t1, 12(s0)           # a few cycles later
");
    let v = r.words("out", 4);
    assert_eq!(&v[..3], &[0, 0, 0]);
    assert!(
        (1..=4).contains(&v[3]),
        "mcycle advanced by {} from the written value",
        v[3]
    );
}

#[test]
fn a_jump_to_a_halfword_aligned_target_runs_the_instruction_there() {
    // With the C extension instructions are 2-byte aligned (IALIGN = 16): no branch or jump
    // target is misaligned (offsets are even, jalr clears bit 0). Each jump goes to the
    // second halfword at 1, a `c.li a0, 7`, skipping the `c.li a0, 4` before it. (the jump,
    // the link register after it: its own address + 4 from `base`, or untouched.)
    for (jump, link) in [
        ("la t5, 1f\n    jalr ra, t5, 2", Some(12u32)),
        ("la t5, 1f\n    jalr ra, t5, 3", Some(12)), // bit 0 is cleared, bit 1 stays
        ("beqz zero, 1f + 2", None),
        ("jal ra, 1f + 2", Some(4)),
    ] {
        let r = run(&format!(
            "
    li ra, 0x55
    li a0, 0
    {jump}
    j 2f
    nop
1:  .half 0x4511        # c.li a0, 4
    .half 0x451d        # c.li a0, 7
2:  la s0, out
    sw a0, 0(s0)
    la t0, base
    sub ra, ra, t0
    sw ra, 4(s0)
"
        ));
        let base = r.elf.symbol("base").unwrap().value;
        assert_eq!(r.words("trap", 4)[3], 0, "{jump}: no trap");
        let out = r.words("out", 2);
        assert_eq!(out[0], 7, "{jump}: the instruction at the target ran");
        let want = link.map_or(0x55u32.wrapping_sub(base), |l| l + 8);
        assert_eq!(out[1], want, "{jump}: the link register");
    }
}

#[test]
fn a_reserved_halfword_at_a_jump_target_is_an_illegal_compressed_instruction() {
    let src = "
    .text
    .globl _start
_start:
    la t0, 1f
    jalr zero, t0, 2
1:  nop
";
    let r = run_src(src, Config::default());
    match &r.end {
        RunEnd::Fault(f) => {
            assert_eq!(f.code, weft_isa::FaultCode::IllegalInstruction);
            assert_eq!(f.pc, 0x8000_000e, "the upper half of the nop, 0x0000");
            let text = f.to_string();
            assert!(
                text.contains("compressed (16-bit) instruction 0x0000"),
                "{text}"
            );
        }
        e => panic!("{e:?}"),
    }
}

#[test]
fn a_segment_without_access_bits_loads_as_code() {
    // The riscv-tests linker script gives its one segment no access bits; Spike and QEMU run
    // it, and so does weft. Zero every program header's p_flags of an assembled program.
    let src = ".text\n.globl _start\n_start: li a0, 5\n li t0, 0xffffff04\n sw a0, 0(t0)\n";
    let mut elf = weft_asm::assemble(src, "flags.s").unwrap();
    let phoff = u32::from_le_bytes(elf[28..32].try_into().unwrap()) as usize;
    let phnum = u16::from_le_bytes(elf[44..46].try_into().unwrap()) as usize;
    for k in 0..phnum {
        let flags = phoff + 32 * k + 24;
        elf[flags..flags + 4].copy_from_slice(&0u32.to_le_bytes());
    }
    let (prog, _) = weft_simt::load::program_from_elf(&elf).unwrap();
    assert!(prog.segments.iter().any(|s| s.exec));
    let mut m = weft_simt::Machine::new(Config::default(), &prog).unwrap();
    assert_eq!(m.run(), RunEnd::Exit(5));
}

#[test]
fn a_load_in_which_one_lane_faults_writes_no_register() {
    // Lane 0 loads a valid word, lane 1 an unmapped one: the load traps, and lane 0's rd
    // keeps its old value.
    let src = "
    .text
    .globl _start
_start:
    la t0, handler
    csrw mtvec, t0
    li t0, 3
    csrw tmask, t0
    csrr s0, thread_id
    li a0, 0x55
    la a1, word
    beqz s0, 1f
    li a1, 0x10
1:  lw a0, 0(a1)
    la t1, out
    slli t2, s0, 2
    add t1, t1, t2
    sw a0, 0(t1)
    li t0, 0xffffff04
    sw zero, 0(t0)
handler:
    csrr t0, mepc
    addi t0, t0, 4
    csrw mepc, t0
    mret
    .data
    .align 2
word: .word 0x1234
out:  .word 0, 0
";
    let r = run_src(src, Config::default());
    assert_eq!(r.end, RunEnd::Exit(0));
    assert_eq!(r.words("out", 2), vec![0x55, 0x55]);
}
