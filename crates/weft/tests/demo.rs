//! `weft demo` and the display's command-line face: the prebuilt demo ELF is what `weft cc`
//! builds from `examples/demo/demo.c` today (clang must be installed: CI installs it); the
//! demo runs, writes its PNGs and GIF, and its pictures are right (a zoom that changes from
//! frame to frame, a lake that mirrors the picture above it with a ripple); `--frames`,
//! `--gif`, `--frames-every`, `--max-frames` and `--check-races` through `weft run`, and
//! their errors.

use std::path::{Path, PathBuf};
use std::process::Command;

fn weft_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("weft runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !stderr.contains("panicked"),
        "weft {args:?} panicked:\n{stderr}"
    );
    (out.status.code().unwrap_or(-1), stdout, stderr)
}

fn repo(p: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(p)
}

#[test]
fn the_prebuilt_demo_elf_is_built_from_the_current_source() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("demo.elf");
    let src = repo("examples/demo/demo.c");
    let (code, _, err) = weft_in(
        dir.path(),
        &["cc", &src.to_string_lossy(), "-o", &out.to_string_lossy()],
    );
    assert_eq!(
        code, 0,
        "weft cc of the demo failed (it needs clang and lld):\n{err}"
    );
    let built = std::fs::read(&out).unwrap();
    let shipped = std::fs::read(repo("crates/weft/demo/demo.elf")).unwrap();
    assert!(
        built == shipped,
        "crates/weft/demo/demo.elf is stale: rebuild it with\n  \
         target/release/weft cc examples/demo/demo.c -o crates/weft/demo/demo.elf"
    );
}

fn rgb(img: &image::RgbImage, x: u32, y: u32) -> [u8; 3] {
    img.get_pixel(x, y).0
}

/// Does lake row `r` show sky row `2*180-1-r`, shifted by some ripple dx (|dx| ≤ 10)?
fn mirrored(img: &image::RgbImage, r: u32) -> bool {
    let s = 2 * 180 - 1 - r;
    (-10i32..=10)
        .any(|dx| (12..308u32).all(|x| rgb(img, x, r) == rgb(img, (x as i32 + dx) as u32, s)))
}

#[test]
fn weft_demo_writes_a_zoom_over_a_mirrored_rippling_lake() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = weft_in(dir.path(), &["demo", "-o", "frames"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("24 frames rendered"), "{out}");
    assert!(out.contains("frames/demo.gif"), "{out}");
    let words: u64 = out
        .split("DMA: ")
        .nth(1)
        .and_then(|s| s.split(" slots, ").nth(1))
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(
        words,
        24 * 320 * 180,
        "every rendered pixel went through the DMA engine"
    );
    let mut pngs: Vec<PathBuf> = std::fs::read_dir(dir.path().join("frames"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .collect();
    pngs.sort();
    assert!(pngs.len() >= 30, "{} frames", pngs.len());
    let imgs: Vec<image::RgbImage> = pngs
        .iter()
        .map(|p| image::open(p).unwrap().to_rgb8())
        .collect();
    for (i, img) in imgs.iter().enumerate() {
        assert_eq!(img.dimensions(), (320, 240));
        for r in 180..240 {
            assert!(
                mirrored(img, r),
                "frame {i}: lake row {r} does not mirror the sky"
            );
        }
        let colours: std::collections::BTreeSet<[u8; 3]> = (0..180)
            .flat_map(|y| (0..320).map(move |x| (x, y)))
            .map(|(x, y)| rgb(img, x, y))
            .collect();
        assert!(colours.len() >= 12, "frame {i}: {} colours", colours.len());
    }
    // The ripple moves: consecutive written frames of the same zoom step differ in the lake.
    let lake = |img: &image::RgbImage| (180..240).map(|y| rgb(img, 160, y)).collect::<Vec<_>>();
    assert!(imgs.windows(2).any(|w| lake(&w[0]) != lake(&w[1])));
    // The zoom moves: the first and last skies differ.
    let sky = |img: &image::RgbImage| (0..180).map(|y| rgb(img, 160, y)).collect::<Vec<_>>();
    assert_ne!(sky(&imgs[0]), sky(&imgs[imgs.len() - 1]));
    // The GIF holds the same frames.
    let f = std::fs::File::open(dir.path().join("frames/demo.gif")).unwrap();
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::RGBA);
    let mut d = opts.read_info(f).unwrap();
    assert_eq!((d.width(), d.height()), (320, 240));
    let mut n = 0;
    while let Some(fr) = d.read_next_frame().unwrap() {
        assert_eq!(fr.delay, 5, "every third frame of 59.94 Hz is 5 cs");
        n += 1;
    }
    assert_eq!(n, pngs.len());
}

#[test]
fn weft_demo_refuses_an_unwritable_directory() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("file"), "x").unwrap();
    let (code, _, err) = weft_in(dir.path(), &["demo", "-o", "file/sub"]);
    assert_ne!(code, 0);
    assert!(err.contains("cannot create the frames directory"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// Lane 0 turns a 4×2 display on and spins for `frames` vblanks.
fn spin_program(dir: &Path, frames: u32) -> String {
    let src = format!(
        "
    .text
    .globl _start
_start:
    li t1, 0xffffff40
    la t2, pic
    sw t2, 0(t1)
    li t2, 4
    sw t2, 4(t1)
    li t2, 2
    sw t2, 8(t1)
    li t2, 1
    sw t2, 12(t1)
    li a1, {frames}
1:  csrr t2, display_frames
    blt t2, a1, 1b
    li t0, 0xffffff04
    sw zero, 0(t0)
    .data
    .align 2
pic: .word 0xff0000ff, 0xff00ff00, 0xffff0000, 0xffffffff
     .word 0, 0x80808080, 0x40404040, 0x20202020
"
    );
    let p = dir.join("spin.s");
    std::fs::write(&p, src).unwrap();
    p.to_string_lossy().into_owned()
}

const SMALL: [&str; 6] = [
    "--set",
    "display.cycles_per_line=100",
    "--set",
    "display.lines_per_frame=10",
    "--set",
    "display.visible_lines=8",
];

#[test]
fn run_writes_frames_every_nth_and_stops_at_max_frames() {
    let dir = tempfile::tempdir().unwrap();
    let prog = spin_program(dir.path(), 20);
    let mut args = vec!["run", &prog, "--frames", "f", "--frames-every", "3"];
    args.extend(SMALL);
    let (code, _, err) = weft_in(dir.path(), &args);
    assert_eq!(code, 0, "{err}");
    // Frames 1..=19 are captured (frame 0 began before the display was on): 19, of which
    // the 1st, 4th, … 19th are written.
    assert!(
        err.contains("weft: wrote f/frame*.png (7 of 19 scanned frames)"),
        "{err}"
    );
    let img = image::open(dir.path().join("f/frame00006.png"))
        .unwrap()
        .to_rgb8();
    assert_eq!(img.dimensions(), (4, 2));
    assert_eq!(img.get_pixel(0, 0).0, [0xff, 0, 0]);
    assert_eq!(img.get_pixel(2, 0).0, [0, 0, 0xff]);
    assert_eq!(img.get_pixel(1, 1).0, [0x80; 3]);

    let mut args = vec!["run", &prog, "--gif", "a.gif", "--max-frames", "2"];
    args.extend(SMALL);
    let (code, _, err) = weft_in(dir.path(), &args);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("stopped after 2 frames (--max-frames)"),
        "{err}"
    );
    let mut d = gif::DecodeOptions::new()
        .read_info(std::fs::File::open(dir.path().join("a.gif")).unwrap())
        .unwrap();
    let mut n = 0;
    while d.read_next_frame().unwrap().is_some() {
        n += 1;
    }
    assert_eq!(n, 2);
}

#[test]
fn frame_flags_refuse_bad_values_with_one_message() {
    let dir = tempfile::tempdir().unwrap();
    let prog = spin_program(dir.path(), 1);
    std::fs::write(dir.path().join("file"), "x").unwrap();
    for (args, why) in [
        (vec!["--frames", "f", "--frames-every", "0"], "at least 1"),
        (vec!["--gif", "a.gif", "--max-frames", "0"], "at least 1"),
        (vec!["--max-frames", "3"], "need --frames or --gif"),
        (
            vec!["--frames", "file/x"],
            "cannot create the frames directory",
        ),
        (vec!["--gif", "file/x.gif"], "cannot create file/x.gif"),
    ] {
        let mut a = vec!["run", prog.as_str()];
        a.extend(args.iter().copied());
        let (code, _, err) = weft_in(dir.path(), &a);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(why), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn check_races_reports_a_planted_overlap_through_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let prog = |poke_first: bool| {
        let wait = "1:  lw t1, 32(s2)\n    bnez t1, 1b\n";
        format!(
            "
    .text
    .globl _start
_start:
    csrr s0, local_mem_base
    li s2, 0xffffff80
    li t0, (16 << 16) | 2
    sw t0, 24(s2)
    la t0, dst
    sw t0, 28(s2)
    li t0, 4
    sw t0, 32(s2)
{}    sw t0, 20(s0)
{}    li t0, 0xffffff04
    sw zero, 0(t0)
    .data
dst: .zero 64
",
            if poke_first { "" } else { wait },
            if poke_first { wait } else { "" }
        )
    };
    for racy in [true, false] {
        let p = dir.path().join("r.s");
        std::fs::write(&p, prog(racy)).unwrap();
        let (code, _, err) = weft_in(dir.path(), &["run", &p.to_string_lossy(), "--check-races"]);
        assert_eq!(code, 0, "{err}");
        if racy {
            assert!(err.contains("race: core 0 warp 0"), "{err}");
            assert!(err.contains("`sw t0, 20(s0)`"), "{err}");
            assert!(err.contains("DMA slot 3 of core 0"), "{err}");
            assert!(err.contains("1 overlap of"), "{err}");
        } else {
            assert!(err.contains("0 overlaps"), "{err}");
            assert!(!err.contains("race:"), "{err}");
        }
    }
}
