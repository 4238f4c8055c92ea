//! Both machines through their one face (`weft_device::Device`): the same host code writes a
//! kernel's input into the machine's memory, runs it, reads the output back and checks it
//! against values computed here; runs that fault or hit the cycle bound end the same way on
//! both, and host accesses outside memory are errors.

use weft_simt::{Config, Device, FaultInfo, Machine, RunEnd, Stop};
use weft_sp2a::{Array, ArrayConfig};

/// The SIMT kernel: lane t reads in[t] at 0x8010_0000, writes out[t] = in[t]·in[t] + 1 at
/// 0x8010_1000, prints `'a' + t`, and the lowest lane's exit store ends the run with 5.
const SIMT_KERNEL: &str = "
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    csrr s0, thread_id
    slli t1, s0, 2
    li t2, 0x80100000
    add t3, t2, t1
    lw a0, 0(t3)
    mul a1, a0, a0
    addi a1, a1, 1
    li t2, 0x80101000
    add t3, t2, t1
    sw a1, 0(t3)
    addi t4, s0, 'a'
    li t5, 0xffffff00
    sb t4, 0(t5)
    li t6, 5
    sw t6, 4(t5)
    csrw tmask, zero
";

/// The SP v2a kernel: DMA 16 pixels from the framebuffer, v → 2v + 1 each, DMA them back
/// 16 pixels further on, print 42, halt with 7.
const SP2A_KERNEL: &str = "
        .text
main:   LI %A 0x80100100
        ST %A DMA_CMD0
        LI %A 0
        ST %A DMA_FB_ADDR0
        LI %A 1
        ST %A DMA_CTRL
wait1:  LD %A DMA_CTRL
        SKZ %A
        JMP wait1
        LI %C 0x100
        LI %D 16
loop:   LD %C %A 0
        ADD %A %A %B
        ADDI %B %B 1
        ST %B %C 0
        ADDI %C %C 1
        ADDI %D %D -1
        SKZ %D
        JMP loop
        LI %A 0x00100100
        ST %A DMA_CMD0
        LI %A 16
        ST %A DMA_FB_ADDR0
        LI %A 1
        ST %A DMA_CTRL
wait2:  LD %A DMA_CTRL
        SKZ %A
        JMP wait2
        LI %A 42
        ST %A PUTDEC
        LI %A 7
        ST %A HALT
";

fn simt(src: &str, lanes: usize) -> Machine {
    let elf = weft_asm::assemble(src, "device.s").unwrap_or_else(|e| panic!("{e}"));
    let (prog, _) = weft_simt::load::program_from_elf(&elf).unwrap();
    let cfg = Config {
        lanes,
        ..Config::default()
    };
    Machine::new(cfg, &prog).unwrap()
}

fn sp2a(src: &str) -> Array {
    let p = weft_sp2a::assemble(src, "device.s").unwrap_or_else(|e| panic!("{e}"));
    Array::new(&p, &ArrayConfig::default()).unwrap()
}

/// Input words chosen here (a fixed LCG), written as little-endian bytes.
fn inputs(n: usize, seed: u32) -> Vec<u32> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            x >> 8
        })
        .collect()
}

/// The same host code for either machine: write the input, run to the end, read the output.
fn drive(dev: &mut dyn Device, input: u32, output: u32, words: &[u32]) -> (RunEnd, Vec<u32>) {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    dev.write_bytes(input, &bytes).unwrap();
    let end = match dev.run(10_000_000) {
        Stop::End(e) => e,
        Stop::Frame => panic!("{}: no FRAME in this kernel", dev.kind()),
    };
    let mut out = vec![0u8; bytes.len()];
    dev.read_bytes(output, &mut out).unwrap();
    let out = out
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    (end, out)
}

#[test]
fn simt_kernel_through_the_device_face() {
    let mut m = simt(SIMT_KERNEL, 8);
    let words = inputs(8, 1);
    let (end, out) = drive(&mut m, 0x8010_0000, 0x8010_1000, &words);
    assert_eq!(end, RunEnd::Exit(5));
    let want: Vec<u32> = words
        .iter()
        .map(|&x| x.wrapping_mul(x).wrapping_add(1))
        .collect();
    assert_eq!(out, want);
    assert_eq!(m.take_console(), b"abcdefgh");
    assert!(m.take_console().is_empty(), "taken once");
    assert_eq!(m.kind(), "simt");
    let s = m.stats_json();
    assert_eq!(s["cycles"], m.cycles());
    assert_eq!(s["lanes"], 8);
}

#[test]
fn sp2a_kernel_through_the_device_face() {
    let mut a = sp2a(SP2A_KERNEL);
    let words = inputs(16, 2);
    let (end, out) = drive(&mut a, 0, 16 * 4, &words);
    assert_eq!(end, RunEnd::Exit(7));
    let want: Vec<u32> = words
        .iter()
        .map(|&x| x.wrapping_mul(2).wrapping_add(1))
        .collect();
    assert_eq!(out, want);
    assert_eq!(
        &a.framebuffer().pixels()[16..32],
        &want[..],
        "the native view agrees"
    );
    assert_eq!(a.take_console(), b"42");
    assert_eq!(a.kind(), "sp2a");
    let s = a.stats_json();
    assert_eq!(s["cycles"], a.cycles());
    assert_eq!(s["cores"], 1);
}

fn fault_of(end: RunEnd) -> FaultInfo {
    match end {
        RunEnd::Fault(f) => f,
        e => panic!("expected a fault, got {e:?}"),
    }
}

#[test]
fn faults_and_bounds_end_alike() {
    let mut m = simt(
        ".text\n.globl _start\n_start: li t0, 0x10\n lw a0, 0(t0)\n",
        4,
    );
    let f = fault_of(match Device::run(&mut m, 1_000) {
        Stop::End(e) => e,
        s => panic!("{s:?}"),
    });
    assert_eq!(
        (f.code, f.addr),
        (weft_isa::FaultCode::LoadFault, Some(0x10))
    );
    let mut a = sp2a("LD %A 0x9000\n");
    let Stop::End(end) = Device::run(&mut a, 1_000) else {
        panic!("no frame")
    };
    let f = fault_of(end.clone());
    assert_eq!(
        (f.code, f.addr),
        (weft_isa::FaultCode::LoadFault, Some(0x9000))
    );
    assert_eq!(end.exit_status(), 128 + 3);
    assert!(f.to_string().contains("load from address 0x9000"), "{f}");

    let mut m = simt(".text\n.globl _start\n_start: j _start\n", 1);
    assert_eq!(Device::run(&mut m, 50), Stop::End(RunEnd::CycleLimit(50)));
    let mut a = sp2a("l: JMP l\n");
    assert_eq!(Device::run(&mut a, 50), Stop::End(RunEnd::CycleLimit(50)));
}

#[test]
fn host_accesses_outside_memory_are_errors() {
    let mut m = simt(SIMT_KERNEL, 1);
    assert!(m.write_bytes(0x10, &[1, 2, 3]).is_err());
    assert!(m.read_bytes(0x7fff_fffe, &mut [0; 4]).is_err());
    let mut a = sp2a(SP2A_KERNEL);
    let end = 4 * a.framebuffer().len() as u32;
    assert!(a.write_bytes(end - 2, &[1, 2, 3]).is_err());
    assert!(a.read_bytes(end, &mut [0; 1]).is_err());
    // Unaligned bytes inside the framebuffer go to the right pixel lanes.
    a.write_bytes(5, &[0xaa, 0xbb]).unwrap();
    assert_eq!(a.framebuffer().pixels()[1], 0x00bb_aa00);
    let mut b = [0u8; 3];
    a.read_bytes(4, &mut b).unwrap();
    assert_eq!(b, [0, 0xaa, 0xbb]);
}

#[test]
fn a_host_write_over_code_is_what_runs() {
    // The decoded cache must forget a word the host overwrites: patch `li a0, 1` into
    // `li a0, 9` before the run; the exit code says which one ran.
    let src = ".text\n.globl _start\n_start: li a0, 1\n li t0, 0xffffff00\n sw a0, 4(t0)\n";
    let mut m = simt(src, 1);
    let li9 = weft_isa::Inst::decode(0x0090_0513).unwrap(); // addi a0, x0, 9
    let word = li9.encode().unwrap();
    m.write_bytes(0x8000_0000, &word.to_le_bytes()).unwrap();
    assert_eq!(Device::run(&mut m, 1_000), Stop::End(RunEnd::Exit(9)));
}
