//! The board's HDMI output: the simulated board (rtl/board/weft_board.sv under Verilator) runs
//! a program, its TMDS symbols are decoded back into frames (every symbol checked against a
//! reference encoder, every frame's timing against the video mode), and each frame is compared
//! pixel for pixel with the functional model's frame of the same program — in model time (the
//! beam steps once per issue slot, as the model's does: the frames are the model's frame for
//! frame) and as on the board (the beam at the pixel clock: a program that races the beam
//! line by line shows the model's pictures in the same order). The raster-chase program's
//! pictures are also worked out on the host.

use std::path::PathBuf;
use weft_rtl_lockstep::board::BoardEnd;
use weft_rtl_lockstep::hdmi::{
    build, compare, model_config_for, model_run, run, Picture, Time, VideoMode,
};
use weft_rtl_lockstep::{load, repo_root, Shape};
use weft_simt::Frame;

/// The tests' video mode.
const SMALL: VideoMode = VideoMode::SMALL;

fn raster() -> PathBuf {
    repo_root().join("crates/rtl-lockstep/tests/programs/hdmi_raster.s")
}

/// hdmi_raster.s's pictures, worked out from its description: six RGBA8888 frames in which row
/// r shows picture row (r + f) mod 16 with column f white, then two RGB565 frames.
fn expected_raster() -> Vec<(u32, u32, Vec<u32>)> {
    let mut v = Vec::new();
    for f in 0..6u32 {
        let mut px = Vec::new();
        for r in 0..16u32 {
            let s = (r + f) % 16;
            for x in 0..32u32 {
                px.push(if x == f {
                    0xff_ffff
                } else {
                    (x * 8) << 16 | (s * 16) << 8 | 0x40
                });
            }
        }
        v.push((32, 16, px));
    }
    let wide = |c: u32, bits: u32| match bits {
        5 => c << 3 | c >> 2,
        _ => c << 2 | c >> 4,
    };
    let mut px = Vec::new();
    for y in 0..22u32 {
        for x in 0..37u32 {
            let (r, g, b) = ((x * 7) % 32, (y * 5) % 64, (x + y) % 32);
            px.push(wide(r, 5) << 16 | wide(g, 6) << 8 | wide(b, 5));
        }
    }
    v.push((37, 22, px.clone()));
    v.push((37, 22, px));
    v
}

fn check_host(frames: &[Frame]) {
    let want = expected_raster();
    assert_eq!(frames.len(), want.len(), "the model's frames");
    for (f, (w, h, px)) in frames.iter().zip(&want) {
        assert_eq!((f.picture.width(), f.picture.height()), (*w, *h));
        assert!(
            f.picture.pixels() == &px[..],
            "model frame {} is not the one worked out",
            f.index
        );
    }
}

fn on_frames(v: &[Picture]) -> Vec<&Picture> {
    v.iter().filter(|p| p.on).collect()
}

/// Every HDMI frame of a run in model time is the model's frame of the same index; a frame the
/// model did not capture (the display off at its line 0) was off and black at the board.
fn frame_for_frame(p: &str, max_cycles: u64) -> usize {
    let shape = Shape::DEFAULT;
    let bin = build(shape, &SMALL, Time::Model).unwrap_or_else(|e| panic!("{e}"));
    let prog = load(&repo_root().join(p)).unwrap();
    let m = model_run(&prog, model_config_for(shape, &SMALL, max_cycles)).unwrap();
    let r = run(&bin, &prog, &SMALL, 20 * max_cycles, false).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.board.end, Some(m.end.clone()), "{p}");
    assert_eq!(r.board.console, m.console, "{p}");
    let mut seen = 0;
    for (k, pic) in r.frames.iter().enumerate() {
        match m.frames.iter().find(|f| f.index == k as u64) {
            Some(f) => {
                compare(pic, f).unwrap_or_else(|e| panic!("{p}: {e}"));
                seen += 1;
            }
            None => {
                assert!(
                    !pic.on,
                    "{p}: frame {k} on at the board, not captured by the model"
                );
                assert!(
                    pic.pixels.iter().all(|&x| x == 0),
                    "{p}: frame {k} off but not black"
                );
            }
        }
    }
    assert_eq!(
        seen,
        m.frames.len(),
        "{p}: every frame of the model came out of the HDMI port"
    );
    eprintln!(
        "{p}: {seen} frames equal; {} model cycles, {} clock cycles of the board",
        m.cycles, r.clocks
    );
    seen
}

#[test]
fn hdmi_raster_chase_in_model_time_is_the_model_frame_for_frame() {
    let prog = load(&raster()).unwrap();
    let m = model_run(&prog, model_config_for(Shape::DEFAULT, &SMALL, 10_000_000)).unwrap();
    check_host(&m.frames);
    assert_eq!(m.end, BoardEnd::Exit(0));
    assert_eq!(
        frame_for_frame(
            "crates/rtl-lockstep/tests/programs/hdmi_raster.s",
            10_000_000
        ),
        8
    );
}

#[test]
fn hdmi_in_model_time_a_picture_made_of_every_cycle_is_the_model_frame_for_frame() {
    assert_eq!(
        frame_for_frame("crates/rtl-lockstep/tests/programs/hdmi_chaos.s", 1_000_000),
        3
    );
}

#[test]
fn hdmi_raster_chase_in_real_time_shows_the_models_frames_in_order() {
    let shape = Shape::DEFAULT;
    let bin = build(shape, &SMALL, Time::Real).unwrap_or_else(|e| panic!("{e}"));
    let prog = load(&raster()).unwrap();
    let m = model_run(&prog, model_config_for(shape, &SMALL, 10_000_000)).unwrap();
    check_host(&m.frames);
    let r = run(&bin, &prog, &SMALL, 20_000_000, false).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.board.end, Some(BoardEnd::Exit(0)));
    let on = on_frames(&r.frames);
    assert_eq!(on.len(), m.frames.len(), "frames shown with the display on");
    for (p, f) in on.iter().zip(&m.frames) {
        compare(p, f).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// `weft demo`'s kernel, small: a 16 × 16 framebuffer (a 16 × 8 sky of two 16 × 4 tiles, the
/// lake below it) on the 64 × 32 display, two frames of the zoom, the last held for two
/// display frames; 1 KiB of stack per lane, so that the stacks are in the board's block-RAM
/// window (the floats are in software: the RTL has no F yet).
const DEMO: &[(&str, &str)] = &[
    ("W", "16"),
    ("H", "16"),
    ("SKY", "8"),
    ("TW", "16"),
    ("TH", "4"),
    ("FRAMES", "2"),
    ("HOLD", "2"),
    ("VISIBLE", "32"),
];

#[test]
fn hdmi_demo_in_model_time_is_the_model_frame_for_frame() {
    let dir = repo_root().join(format!("target/rtl/demo-{}", std::process::id()));
    let elf = weft_rtl_lockstep::hdmi::build_demo_rv32ima(&dir, DEMO, 1024)
        .unwrap_or_else(|e| panic!("{e}"));
    let p = elf.strip_prefix(repo_root()).unwrap().to_path_buf();
    let n = frame_for_frame(p.to_str().unwrap(), 20_000_000);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(n > 0);
}

/// `weft board --demo` ships the demo built for the RTL (crates/weft/demo/demo-rv32ima.elf):
/// it must be what the demo's source builds to now. Rebuild it with
/// `WEFT_UPDATE_BOARD_DEMO=1 cargo nextest run --release -p weft-rtl-lockstep --test hdmi board_demo`.
#[test]
fn hdmi_board_demo_elf_is_the_demo_source_built_for_the_rtl() {
    let dir = repo_root().join(format!("target/rtl/board-demo-{}", std::process::id()));
    let elf = weft_rtl_lockstep::hdmi::build_demo_rv32ima(&dir, &[], 8192)
        .unwrap_or_else(|e| panic!("{e}"));
    let built = std::fs::read(&elf).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let shipped = repo_root().join("crates/weft/demo/demo-rv32ima.elf");
    if std::env::var_os("WEFT_UPDATE_BOARD_DEMO").is_some() {
        std::fs::write(&shipped, &built).unwrap();
    }
    assert!(
        std::fs::read(&shipped).ok() == Some(built),
        "{} is not examples/demo/demo.c built for the RTL: rebuild it (see this test)",
        shipped.display()
    );
}
