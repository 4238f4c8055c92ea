//! Every instruction executed on the core, checked against Rust computations.

mod common;
use common::*;
use weft_sp2a::{Fault, Op};

const VALUES: &[u32] = &[
    0,
    1,
    2,
    0x7FFF_FFFF,
    0x8000_0000,
    0xFFFF_FFFF,
    0x0001_0000,
    0x1234_5678,
    0xFFFF,
    0xDEAD_BEEF,
    5,
    0xFFFF_FFFB,
];

fn cmp_ref(a: u32, b: u32) -> u32 {
    let mut r = 0;
    if a == b {
        r |= 1;
    }
    if a > b {
        r |= 2;
    }
    if (a as i32) > (b as i32) {
        r |= 4;
    }
    if a < b {
        r |= 8;
    }
    if (a as i32) < (b as i32) {
        r |= 16;
    }
    r
}

#[test]
fn three_register_alu_ops() {
    type F = fn(u32, u32) -> u32;
    let ops: &[(&str, F)] = &[
        ("ADD", |a, b| a.wrapping_add(b)),
        ("SUB", |a, b| a.wrapping_sub(b)),
        ("AND", |a, b| a & b),
        ("OR", |a, b| a | b),
        ("XOR", |a, b| a ^ b),
        ("MUL", |a, b| (a & 0xFFFF) * (b & 0xFFFF)),
        ("CMP", cmp_ref),
    ];
    for (name, f) in ops {
        let mut src = String::new();
        let mut expect = Vec::new();
        for (k, &a) in VALUES.iter().enumerate() {
            for &b in VALUES.iter().skip(k % 3) {
                src += &li('A', a);
                src += &li('B', b);
                src += &format!("{name} %A %B %C\nST %C %H 0\nADDI %H %H -1\n");
                expect.push(f(a, b));
            }
        }
        src += "ST %A HALT\n";
        let arr = run(&src);
        let mem = arr.cores()[0].dmem();
        let top = mem.len() - 1;
        for (k, e) in expect.iter().enumerate() {
            assert_eq!(mem[top - k], *e, "{name} case {k}");
        }
    }
}

#[test]
fn cmp_bits_by_example() {
    let r = regs(&format!(
        "{}{}CMP %A %B %C\nCMP %B %A %D\nCMP %A %A %E\nST %A HALT\n",
        li('A', 0xFFFF_FFFF),
        li('B', 1)
    ));
    // -1 vs 1: unsigned greater, signed less.
    assert_eq!(r[2], 0b1_0010);
    assert_eq!(r[3], 0b0_1100);
    assert_eq!(r[4], 0b1);
}

#[test]
fn immediate_alu_ops() {
    for &a in VALUES {
        let mut src = li('A', a);
        src += "ADDI %A %B -3\nADDI %A %C 32767\nADDI %A %D 0x8000\nNOT %A %E\n";
        src += "ST %A HALT\n";
        let r = regs(&src);
        assert_eq!(r[1], a.wrapping_sub(3));
        assert_eq!(r[2], a.wrapping_add(32767));
        assert_eq!(r[3], a.wrapping_sub(32768), "0x8000 is sign-extended");
        assert_eq!(r[4], !a);
    }
}

#[test]
fn bit_and_shift_ops_every_position() {
    for &a in &[0u32, 0xFFFF_FFFF, 0x8765_4321] {
        for bit in 0..32u32 {
            let mut src = li('A', a);
            src += &format!(
                "BSET %A %B {bit}\nBCLR %A %C {bit}\nSHL %A %D {bit}\nSHR %A %E {bit}\nST %A HALT\n"
            );
            let r = regs(&src);
            assert_eq!(r[1], a | 1 << bit);
            assert_eq!(r[2], a & !(1 << bit));
            assert_eq!(r[3], a << bit);
            assert_eq!(r[4], a >> bit, "logical shift right");
        }
    }
}

#[test]
fn out_of_range_bit_field_is_masked_at_run_time() {
    // SHL %A %B with IMM field 33 (hand-encoded): the hardware uses 33 & 31 = 1.
    let word = (u32::from(Op::Shl.opcode()) << 25) | (1 << 16) | 33;
    let r = regs(&format!("LI %A 5\n.word 0x{word:08X}\nST %A HALT\n"));
    assert_eq!(r[1], 10);
}

#[test]
fn lui_lli_keep_the_other_half() {
    let r = regs(
        "LI %A 0x11112222\nLUI %A 0xAAAA\nLI %B 0x33334444\nLLI %B 0xBBBB\n\
         LI %C 0x55556666\nLUI %C %D 0x7777\nST %A HALT\n",
    );
    assert_eq!(r[0], 0xAAAA_2222);
    assert_eq!(r[1], 0x3333_BBBB);
    assert_eq!(r[3], 0x7777_6666, "LUI %C %D reads C, writes D");
    assert_eq!(r[2], 0x5555_6666);
}

#[test]
fn loads_and_stores_all_forms() {
    let arr = run("
        .data
        .org 0x100
table:  .word 10, 20, 30, -1
        .text
        LD %A table          ; immediate address
        LI %B table
        LD %B %C 2           ; %B + 2
        LI %D table+3
        LD %D %E -2          ; %D - 2
        ST %A 0x200          ; immediate address
        LI %F 0x205
        ST %C %F -4          ; 0x201
        ST %E %F 1           ; 0x206
        LD %G table+3
        ST %A HALT
    ");
    let c = &arr.cores()[0];
    let r = c.regs();
    assert_eq!((r[0], r[2], r[4], r[6]), (10, 30, 20, 0xFFFF_FFFF));
    assert_eq!(&c.dmem()[0x200..0x207], &[10, 30, 0, 0, 0, 0, 20]);
}

#[test]
fn register_address_wraps_to_16_bits() {
    // 0x0001_0005 + 0 addresses 0x0005; 3 + (-4) addresses 0xFFFF (bus, unmapped).
    let arr = run("LI %A 77\nLI %B 0x00010005\nST %A %B 0\nST %A HALT\n");
    assert_eq!(arr.cores()[0].dmem()[5], 77);
    let f = fault("LI %B 3\nLD %B %A -4\n");
    assert!(
        matches!(
            f,
            Fault::UnmappedBus {
                addr: 0xFFFF,
                pc: 2,
                write: false,
                ..
            }
        ),
        "{f:?}"
    );
}

#[test]
fn skips_taken_and_not_taken() {
    // Each skip guards an ADDI that counts when the skip is NOT taken.
    let r = regs(&format!(
        "{}{}\
         SKZ %A\nADDI %C %C 1\n\
         SKZ %B\nADDI %C %C 2\n\
         SKNZ %A\nADDI %C %C 4\n\
         SKNZ %B\nADDI %C %C 8\n\
         SKBS %B 3\nADDI %C %C 16\n\
         SKBS %B 2\nADDI %C %C 32\n\
         SKBC %B 2\nADDI %C %C 64\n\
         SKBC %B 3\nADDI %C %C 128\n\
         SKBS %B 31\nADDI %C %C 256\n\
         ST %A HALT\n",
        li('A', 0),
        li('B', 0x8000_0008)
    ));
    // Taken: SKZ A, SKNZ B, SKBS B 3, SKBC B 2, SKBS B 31.
    assert_eq!(r[2], 2 + 4 + 32 + 128);
}

#[test]
fn jumps_immediate_and_register() {
    let r = regs(
        "
        LI %A 0
        JMP over
        ADDI %A %A 1        ; skipped
over:   LI %B there
        JMP %B
        ADDI %A %A 2        ; skipped
there:  ADDI %A %A 4
        LI %C 5             ; loop 5 times
loop:   ADDI %D %D 3
        ADDI %C %C -1
        SKZ %C
        JMP loop
        ST %A HALT
    ",
    );
    assert_eq!(r[0], 4);
    assert_eq!(r[3], 15);
}

#[test]
fn nop_changes_nothing_and_takes_a_cycle() {
    let arr = run("NOP\nNOP\nNOP\nST %A HALT\n");
    assert_eq!(arr.cycle(), 4);
    assert_eq!(arr.stats().instructions(), 4);
    assert_eq!(arr.cores()[0].regs()[..7], [0; 7]);
    assert_eq!(
        arr.cores()[0].regs()[7],
        4095,
        "SP starts at the top of data RAM"
    );
}

#[test]
fn halt_code_and_console() {
    let mut arr = run("LI %A -42\nST %A PUTDEC\nLI %B 'x'\nST %B PUTC\nLI %C 0xAB\nST %C PUTHEX\nLI %D 3\nST %D HALT\n");
    assert_eq!(arr.exit_code(), 3);
    assert_eq!(
        String::from_utf8(arr.take_console()).unwrap(),
        "-42x000000AB"
    );
}

#[test]
fn bus_identity_registers() {
    let r = regs(".fb 40 30\nLD %A CORE_INDEX\nLD %B CORE_COUNT\nLD %C FB_WIDTH\nLD %D FB_HEIGHT\nLD %E CYCLE_LO\nST %A HALT\n");
    assert_eq!(r[..5], [0, 1, 40, 30, 4]);
}

#[test]
fn faults_are_typed_with_pc() {
    assert_eq!(
        fault("NOP\nJMP 0x2000\n"),
        Fault::BadPc {
            core: 0,
            pc: 0x2000,
            size: 4096
        }
    );
    assert_eq!(
        fault("NOP\n.word 0xFE000000\n"),
        Fault::Illegal {
            core: 0,
            pc: 1,
            word: 0xFE00_0000
        }
    );
    assert!(matches!(
        fault("LD %A 4096\n"),
        Fault::DataRange {
            pc: 0,
            addr: 4096,
            write: false,
            ..
        }
    ));
    assert!(matches!(
        fault("NOP\nST %A 0x8000\n"),
        Fault::DataRange {
            pc: 1,
            addr: 0x8000,
            write: true,
            ..
        }
    ));
    let f = fault("ST %A 0xFF30\n");
    assert!(
        matches!(
            f,
            Fault::UnmappedBus {
                addr: 0xFF30,
                write: true,
                ..
            }
        ),
        "{f:?}"
    );
    // The device face names each by the nearest fault code.
    assert_eq!(f.info().code, weft_device::FaultCode::StoreFault);
    assert_eq!(f.info().addr, Some(0xFF30));
    let f = fault("LD %A 0xFF30\n");
    assert_eq!(f.info().code, weft_device::FaultCode::LoadFault);
    assert_eq!(
        fault("ST %A CORE_INDEX\n").info().code,
        weft_device::FaultCode::StoreFault
    );
    assert!(matches!(
        fault("ST %A CORE_INDEX\n"),
        Fault::ReadOnlyBus {
            name: "CORE_INDEX",
            ..
        }
    ));
    // Running off the end of instruction memory.
    assert!(matches!(fault("NOP\n"), Fault::BadPc { pc: 4096, .. }));
}

#[test]
fn cycle_limit_stops_a_loop() {
    let p = program("loop: JMP loop\n");
    let mut a = weft_sp2a::Array::new(&p, &config(2)).unwrap();
    assert_eq!(a.run(1000).unwrap(), weft_sp2a::Stop::CycleLimit);
    assert_eq!(a.cycle(), 1000);
    assert_eq!(a.stats().instructions(), 2000);
}
