//! The tiled demo (examples/sp2a/tiles.s) on 1, 3 and 16 cores against a picture computed
//! here in Rust, and the DMA unit driven from programs.

mod common;
use common::*;
use weft_sp2a::{Array, Fault, Stop};

const TILES: &str = include_str!("../../../examples/sp2a/tiles.s");

fn initial(x: u32, y: u32) -> u32 {
    (x.wrapping_mul(2_654_435_761) ^ y.wrapping_mul(40_503)) & 0x00FF_FFFF
}

fn expected(x: u32, y: u32) -> u32 {
    let b = if (x ^ y) & 8 != 0 { 0xC0 } else { 0x40 };
    initial(x, y) ^ (((2 * x) & 0xFF) << 16 | ((2 * y) & 0xFF) << 8 | b)
}

fn run_tiles(n: usize) -> Array {
    let p = program(TILES);
    let mut a = Array::new(&p, &config(n)).unwrap();
    let fb = a.framebuffer_mut();
    let w = fb.width();
    for (i, px) in fb.pixels_mut().iter_mut().enumerate() {
        *px = initial(i as u32 % w, i as u32 / w);
    }
    assert_eq!(a.run(50_000_000).unwrap(), Stop::Halted);
    a
}

fn check_picture(a: &Array) {
    let fb = a.framebuffer();
    assert_eq!((fb.width(), fb.height()), (128, 96));
    for y in 0..fb.height() {
        for x in 0..fb.width() {
            assert_eq!(
                fb.pixel(x, y),
                Some(expected(x, y)),
                "pixel ({x}, {y}) with {} cores",
                a.cores().len()
            );
        }
    }
}

#[test]
fn tiled_demo_one_core() {
    let a = run_tiles(1);
    check_picture(&a);
    let s = a.stats();
    assert_eq!(s.per_core[0].dma.dwords_in, 128 * 96);
    assert_eq!(s.per_core[0].dma.dwords_out, 128 * 96);
    assert_eq!(
        s.per_core[0].dma.transfers,
        192 * 16,
        "16 row slots per tile"
    );
    assert!(s.per_core[0].busy_wait_cycles > 0);
}

#[test]
fn tiled_demo_sixteen_cores() {
    let a = run_tiles(16);
    check_picture(&a);
    let s = a.stats();
    // 192 tiles over 16 cores: 12 each, every core did its share.
    for c in &s.per_core {
        assert_eq!(c.dma.dwords_in, 12 * 64);
        assert_eq!(c.halted, Some(0));
    }
    let one = run_tiles(1);
    assert!(
        s.cycles * 10 < one.stats().cycles,
        "16 cores should be >10x faster: {} vs {}",
        s.cycles,
        one.stats().cycles
    );
}

#[test]
fn tiled_demo_uneven_split() {
    check_picture(&run_tiles(7));
}

#[test]
fn dma_out_in_multi_slot_and_busy_flag() {
    // Slot 0 writes 5 words local 0x10.. to fb 100..; slot 1 writes 3 words to fb 200..;
    // after waiting, slot 0 reads fb 101..104 back to 0x40, slot 1 reads fb 200..203 to 0x50.
    let src = "
        .fb 16 16
        .data
        .org 0x10
src:    .word 11, 22, 33, 44, 55
        .org 0x20
src2:   .word 66, 77, 88
        .text
        LI %A 0x00050010       ; 5 dwords from 0x10, local -> fb
        ST %A DMA_CMD0
        LI %A 100
        ST %A DMA_FB_ADDR0
        LI %A 0x00030020
        ST %A DMA_CMD1
        LI %A 200
        ST %A DMA_FB_ADDR1
        LI %A 2
        ST %A DMA_CTRL
        LD %B DMA_CTRL         ; busy right after the trigger
        ST %B 0x30
w1:     LD %B DMA_CTRL
        SKZ %B
        JMP w1
        LI %A 0x80040040       ; 4 dwords fb -> local 0x40
        ST %A DMA_CMD0
        LI %A 101
        ST %A DMA_FB_ADDR0
        LI %A 0x80040050
        ST %A DMA_CMD1
        LI %A 200
        ST %A DMA_FB_ADDR1
        LI %A 2
        ST %A DMA_CTRL
w2:     LD %B DMA_CTRL
        SKZ %B
        JMP w2
        LD %A DMA_CMD1         ; configuration registers read back
        ST %A 0x31
        ST %A HALT
    ";
    let a = run(src);
    let c = &a.cores()[0];
    let m = c.dmem();
    assert_eq!(m[0x30], 2, "two slots pending right after the trigger");
    assert_eq!(&m[0x40..0x44], &[22, 33, 44, 55]);
    assert_eq!(&m[0x50..0x54], &[66, 77, 88, 0]);
    assert_eq!(m[0x31], 0x8004_0050);
    assert_eq!(&a.framebuffer().pixels()[100..105], &[11, 22, 33, 44, 55]);
    let s = a.stats();
    let d = s.per_core[0].dma;
    assert_eq!(
        (d.triggers, d.transfers, d.dwords_out, d.dwords_in),
        (2, 4, 8, 8)
    );
    assert!(s.per_core[0].busy_polls > 5, "software had to poll");
    // 8 setup + 5 + 8 + 3 = 24 engine cycles for the first batch.
    assert!(s.per_core[0].busy_wait_cycles >= 20);
}

#[test]
fn dma_runs_beside_the_core_and_collides_silently() {
    // Read the destination while the DMA is still filling it: early words are there,
    // later ones not yet (the seed's "inadvertent memory collisions").
    let src = "
        .fb 64 1
        LI %A 0x80400000       ; 64 dwords fb 0.. -> local 0
        ST %A DMA_CMD0
        LI %A 0
        ST %A DMA_FB_ADDR0
        LI %A 1
        ST %A DMA_CTRL
        NOP
        NOP
        NOP
        NOP
        NOP
        NOP
        NOP
        NOP
        NOP
        NOP
        NOP
        NOP
        LD %C 2
        LD %D 60
        ST %A HALT
    ";
    let p = program(src);
    let mut a = Array::new(&p, &config(1)).unwrap();
    for (i, px) in a.framebuffer_mut().pixels_mut().iter_mut().enumerate() {
        *px = 1000 + i as u32;
    }
    assert_eq!(a.run(10_000).unwrap(), Stop::Halted);
    let c = &a.cores()[0];
    assert_eq!(c.regs()[2], 1002, "word 2 already arrived");
    assert_eq!(c.regs()[3], 0, "word 60 not yet");
    // The run waits for the DMA to finish even after HALT.
    assert_eq!(c.dmem()[60], 1060);
}

#[test]
fn dma_faults() {
    let busy = fault("LI %A 0x00100000\nST %A DMA_CMD0\nLI %A 1\nST %A DMA_CTRL\nST %A DMA_CTRL\n");
    assert!(
        matches!(
            busy,
            Fault::Dma {
                pc: 6,
                source: weft_fb::DmaError::Busy,
                ..
            }
        ),
        "{busy:?}"
    );
    let range = fault(".fb 8 8\nLI %A 0x00100000\nST %A DMA_CMD0\nLI %A 60\nST %A DMA_FB_ADDR0\nLI %A 1\nST %A DMA_CTRL\n");
    assert!(
        matches!(
            range,
            Fault::Dma {
                pc: 8,
                source: weft_fb::DmaError::FbRange { .. },
                ..
            }
        ),
        "{range:?}"
    );
    let local = fault("LI %A 0x80020FFF\nST %A DMA_CMD0\nLI %A 1\nST %A DMA_CTRL\n");
    assert!(matches!(
        local,
        Fault::Dma {
            source: weft_fb::DmaError::LocalRange { .. },
            ..
        }
    ));
    let count = fault("LI %A 5\nST %A DMA_CTRL\n");
    assert!(matches!(
        count,
        Fault::Dma {
            source: weft_fb::DmaError::BadCount(5),
            ..
        }
    ));
}

#[test]
fn frame_requests_pause_the_run() {
    let p = program("ST %A FRAME\nNOP\nST %A FRAME\nST %A HALT\n");
    let mut a = Array::new(&p, &config(2)).unwrap();
    // Both cores write FRAME in cycle 0: one pause for that cycle.
    assert_eq!(a.run(100).unwrap(), Stop::Frame);
    assert_eq!(a.cycle(), 1);
    assert_eq!(a.run(100).unwrap(), Stop::Frame);
    assert_eq!(a.cycle(), 3);
    assert_eq!(a.run(100).unwrap(), Stop::Halted);
}

#[test]
fn cores_know_their_index() {
    let p = program("LD %A CORE_INDEX\nLD %B CORE_COUNT\nST %A HALT\n");
    let mut a = Array::new(&p, &config(5)).unwrap();
    a.run(100).unwrap();
    for (i, c) in a.cores().iter().enumerate() {
        assert_eq!(c.regs()[0], i as u32);
        assert_eq!(c.regs()[1], 5);
    }
    assert_eq!(a.exit_code(), 1, "first non-zero HALT value in core order");
}
