//! The CLI handlers in crates/weft/src/sp2a_cmd.rs, exercised through the library (the same
//! file the `weft` binary compiles).

#[path = "../../weft/src/sp2a_cmd.rs"]
#[allow(dead_code)]
mod sp2a_cmd;

use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sp2a-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/sp2a")
        .join(name)
}

#[test]
fn run_writes_frames_and_stats_json() {
    let d = tmp("run");
    let src = d.join("frames.s");
    std::fs::write(
        &src,
        ".fb 4 2\nLI %A 0x00FF0000\nST %A 0\nLI %A 0x00010000\nST %A DMA_CMD0\nLI %A 1\nST %A DMA_CTRL\n\
         w: LD %B DMA_CTRL\nSKZ %B\nJMP w\nST %A FRAME\nLI %A 7\nST %A HALT\n",
    )
    .unwrap();
    let frames = d.join("frames");
    let json = d.join("stats.json");
    let code = sp2a_cmd::run_sp2a(2, &src, Some(&frames), None, false, Some(&json), false).unwrap();
    assert_eq!(code, 7);
    // Both cores write FRAME in the same cycle (lock step): one snapshot, then the final one.
    let mut names: Vec<String> = std::fs::read_dir(&frames)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["frame0000.png", "frame0001.png"]);
    let img = image::open(frames.join("frame0001.png")).unwrap().to_rgb8();
    assert_eq!(img.dimensions(), (4, 2));
    assert_eq!(img.get_pixel(0, 0).0, [255, 0, 0]);
    let stats: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(stats["cores"], 2);
    assert_eq!(stats["dma_dwords_out"], 2);
    assert!(stats["per_opcode"]["LUI"].as_u64().unwrap() >= 6);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn asm_then_disasm_then_run_the_image() {
    let d = tmp("asm");
    let img = d.join("fib.sp2a");
    assert_eq!(sp2a_cmd::sp2a_asm(&example("fib.s"), &img).unwrap(), 0);
    assert_eq!(sp2a_cmd::sp2a_disasm(&img).unwrap(), 0);
    let p = sp2a_cmd::load_program(&img).unwrap();
    assert_eq!(p, weft_sp2a::assemble_file(&example("fib.s")).unwrap());
    assert_eq!(
        sp2a_cmd::run_sp2a(1, &img, None, None, false, None, false).unwrap(),
        0
    );
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn errors_are_one_clear_message() {
    let d = tmp("err");
    let bad = d.join("bad.s");
    std::fs::write(&bad, "ADD %A\nLD %A 0x9000\n").unwrap();
    let e = sp2a_cmd::sp2a_asm(&bad, &d.join("o")).unwrap_err();
    assert!(e.contains("bad.s:1:5: expected `ADD %A %B %D`"), "{e}");
    std::fs::write(&bad, "LD %A 0x9000\n").unwrap();
    let e = sp2a_cmd::run_sp2a(1, &bad, None, None, false, None, false).unwrap_err();
    assert!(
        e.contains("load from address 0x9000") && e.contains("PC 0x0000"),
        "{e}"
    );
    std::fs::write(&bad, "l: JMP l\n").unwrap();
    let e = sp2a_cmd::run_sp2a(1, &bad, None, Some(50), false, None, false).unwrap_err();
    assert!(e.contains("cycle limit of 50"), "{e}");
    let e = sp2a_cmd::run_sp2a(0, &bad, None, None, false, None, false).unwrap_err();
    assert!(e.contains("0 cores"), "{e}");
    let e =
        sp2a_cmd::run_sp2a(1, &d.join("missing.s"), None, None, false, None, false).unwrap_err();
    assert!(e.contains("missing.s"), "{e}");
    std::fs::remove_dir_all(&d).ok();
}
