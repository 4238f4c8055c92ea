//! The macros (LI, PUSH, PULL, CALL, FNSETUP, RETURN) and the calling convention, including
//! nested and recursive calls checked against Rust.

mod common;
use common::*;
use weft_sp2a::{Instr, Op, Reg};

fn expand(src: &str) -> Vec<String> {
    program(src)
        .text
        .iter()
        .map(|w| Instr::decode(*w).unwrap().to_string())
        .collect()
}

#[test]
fn macro_expansions_are_exact() {
    assert_eq!(
        expand("LI %C 0x12345678"),
        ["LUI %C 0x1234", "LLI %C 0x5678"]
    );
    assert_eq!(expand("LI %A -2"), ["LUI %A 0xFFFF", "LLI %A 0xFFFE"]);
    assert_eq!(expand("PUSH %B"), ["ST %B %H 0", "ADDI %H %H -1"]);
    assert_eq!(expand("PULL %B"), ["ADDI %H %H 1", "LD %H %B 0"]);
    assert_eq!(
        expand("NOP\nCALL f\nf: NOP"),
        ["NOP", "LUI %G 0x0000", "LLI %G 0x0004", "JMP 0x0004", "NOP"]
    );
    assert_eq!(
        expand("CALL %C"),
        ["LUI %G 0x0000", "LLI %G 0x0003", "JMP %C"]
    );
    assert_eq!(
        expand("FNSETUP"),
        [
            "ST %G %H 0",
            "ST %A %H -1",
            "ST %B %H -2",
            "ST %C %H -3",
            "ST %D %H -4",
            "ST %E %H -5",
            "ST %F %H -6",
            "ADDI %H %H -7"
        ]
    );
    assert_eq!(expand("FNSETUP 3")[8..], ["ADDI %H %F 0", "ADDI %H %H -3"]);
    assert_eq!(
        expand("RETURN"),
        [
            "LD %H %A 6",
            "LD %H %B 5",
            "LD %H %C 4",
            "LD %H %D 3",
            "LD %H %E 2",
            "LD %H %F 1",
            "LD %H %G 7",
            "ADDI %H %H 7",
            "JMP %G"
        ]
    );
}

#[test]
fn push_pull_is_a_stack() {
    let arr = run("
        LI %A 11
        LI %B 22
        LI %C 33
        PUSH %A
        PUSH %B
        PUSH %C
        PULL %D
        PULL %E
        PULL %F
        ST %A HALT
    ");
    let c = &arr.cores()[0];
    let r = c.regs();
    assert_eq!((r[3], r[4], r[5]), (33, 22, 11));
    assert_eq!(r[7], 4095, "SP back where it started");
    // Write then decrement: the first push landed at the initial SP.
    assert_eq!(&c.dmem()[4093..4096], &[33, 22, 11]);
}

#[test]
fn call_puts_the_return_address_in_g() {
    let p = program("CALL f\nST %A HALT\nf: ST %A HALT\n");
    let mut a = weft_sp2a::Array::new(&p, &config(1)).unwrap();
    a.run(100).unwrap();
    assert_eq!(a.cores()[0].regs()[Reg::G.idx()], 3);
    assert_eq!(a.cores()[0].pc(), 5);
}

#[test]
fn callee_preserves_a_to_f_and_sp() {
    let r = regs(
        "
        LI %A 1
        LI %B 2
        LI %C 3
        LI %D 4
        LI %E 5
        LI %F 6
        CALL clobber
        ST %A HALT
clobber:
        FNSETUP
        LI %A 100
        LI %B 100
        LI %C 100
        LI %D 100
        LI %E 100
        LI %F 100
        RETURN
    ",
    );
    assert_eq!(r[..6], [1, 2, 3, 4, 5, 6]);
    assert_eq!(r[7], 4095);
}

#[test]
fn arguments_and_return_value_follow_the_frame_layout() {
    // sub3(a, b, c) = a - b - c, arguments at F-1.., result at F+0; caller reads S-7.
    let arr = run("
        LI %A 100
        ST %A %H -8        ; arg0 at S-8
        LI %A 30
        ST %A %H -9        ; arg1 at S-9
        LI %A 7
        ST %A %H -10       ; arg2 at S-10
        CALL sub3
        LD %H %B -7        ; return value at S-7
        ST %B result
        ST %A HALT
sub3:   FNSETUP 4          ; F = S-7: ret F+0, args F-1..F-3; SP = F-4
        LD %F %A -1
        LD %F %B -2
        LD %F %C -3
        SUB %A %B %A
        SUB %A %C %A
        ST %A %F 0
        ST %H frame_sp     ; record SP inside the function
        ST %F frame_fp
        ADDI %F %H 0       ; SP = F, then RETURN
        RETURN
        .data
result: .word 0
frame_sp: .word 0
frame_fp: .word 0
    ");
    let c = &arr.cores()[0];
    let s = 4095u32;
    assert_eq!(c.dmem()[0], 63);
    assert_eq!(c.dmem()[2], s - 7, "FP = S - 7");
    assert_eq!(c.dmem()[1], s - 11, "SP = FP - 4");
    assert_eq!(c.dmem()[s as usize], 9 + 3, "return address saved at S+0");
    assert_eq!(c.regs()[0], 7, "caller's %A restored");
}

fn fib_ref(n: u32) -> u32 {
    if n < 2 {
        n
    } else {
        fib_ref(n - 1) + fib_ref(n - 2)
    }
}

const FIB: &str = "
        LD %A input
        ST %A %H -8
        CALL fib
        LD %H %B -7
        ST %B result
        ST %H final_sp
        ST %A HALT
; fib(n): frame F+0 result, F-1 n, F-2 fib(n-1)
fib:    FNSETUP 3
        LD %F %A -1
        LI %B 2
        CMP %A %B %C
        SKBS %C 3          ; n < 2 (unsigned)?
        JMP recurse
        ST %A %F 0
        JMP done
recurse:
        ADDI %A %B -1
        ST %B %H -8
        CALL fib
        LD %H %C -7
        ST %C %F -2
        ADDI %A %B -2
        ST %B %H -8
        CALL fib
        LD %H %C -7
        LD %F %D -2
        ADD %C %D %C
        ST %C %F 0
done:   ADDI %F %H 0
        RETURN
        .data
input:  .word 0
result: .word 0
final_sp: .word 0
";

#[test]
fn recursive_fibonacci() {
    for n in [0u32, 1, 2, 5, 10, 15] {
        let p = program(FIB);
        let mut a = weft_sp2a::Array::new(&p, &config(1)).unwrap();
        a.cores_mut()[0].dmem_mut()[0] = n;
        assert_eq!(a.run(10_000_000).unwrap(), weft_sp2a::Stop::Halted);
        let c = &a.cores()[0];
        assert_eq!(c.dmem()[1], fib_ref(n), "fib({n})");
        assert_eq!(c.dmem()[2], 4095, "stack balanced after fib({n})");
    }
}

#[test]
fn recursive_factorial_and_nested_calls() {
    // fact(n) = n <= 1 ? 1 : n * fact(n - 1); square(x) calls mul(x, x): nested calls.
    let src = "
        LI %E 0              ; i
        LI %D 10             ; results at 0x10..
loop:   ST %E %H -8
        CALL fact
        LD %H %A -7
        ST %A %D 0
        ADDI %D %D 1
        ADDI %E %E 1
        LI %B 9
        CMP %E %B %C
        SKBS %C 1            ; i > 9 ?
        JMP loop
        LI %A 123
        ST %A %H -8
        CALL square
        LD %H %A -7
        ST %A 0x20
        ST %A HALT
fact:   FNSETUP 2            ; F+0 ret, F-1 n
        LD %F %A -1
        LI %B 1
        CMP %A %B %C
        SKBS %C 1            ; n > 1 ?
        JMP base
        ADDI %A %B -1
        ST %B %H -8
        CALL fact
        LD %H %B -7
        MUL %A %B %A
        ST %A %F 0
        JMP fact_out
base:   LI %A 1
        ST %A %F 0
fact_out:
        ADDI %F %H 0
        RETURN
square: FNSETUP 2
        LD %F %A -1
        ST %A %H -8
        ST %A %H -9
        CALL mul
        LD %H %A -7
        ST %A %F 0
        ADDI %F %H 0
        RETURN
mul:    FNSETUP 3
        LD %F %A -1
        LD %F %B -2
        MUL %A %B %C
        ST %C %F 0
        ADDI %F %H 0
        RETURN
    ";
    let arr = run(src);
    let m = arr.cores()[0].dmem();
    let mut f = 1u32;
    for i in 0..10u32 {
        if i > 1 {
            f *= i;
        }
        assert_eq!(m[10 + i as usize], f, "fact({i})");
    }
    assert_eq!(m[0x20], 123 * 123);
    assert_eq!(arr.cores()[0].regs()[7], 4095);
    assert_eq!(
        arr.stats()
            .per_opcode
            .iter()
            .find(|(o, _)| *o == Op::Mul)
            .unwrap()
            .1,
        (1..=8).sum::<u64>() + 1
    );
}
