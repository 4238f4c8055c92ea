//! `weft run --sp2a`, `weft sp2a-asm` and `weft sp2a-disasm` through the real binary: frames
//! and JSON statistics are written, an assembled image runs like its source, and errors are
//! one clear message with a non-zero exit.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn weft(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(args)
        .output()
        .expect("weft runs")
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("weft-sp2a-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/sp2a")
        .join(name)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
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
    let out = weft(&[
        "run",
        "--sp2a",
        "2",
        s(&src),
        "--frames",
        s(&frames),
        "--stats-json",
        s(&json),
    ]);
    assert_eq!(
        out.status.code(),
        Some(7),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Both cores write FRAME in the same cycle (lock step): one snapshot, then the final one.
    let mut names: Vec<String> = std::fs::read_dir(&frames)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["frame00000.png", "frame00001.png"]);
    let png = std::fs::read(frames.join("frame00001.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    assert_eq!(
        u32::from_be_bytes(png[16..20].try_into().unwrap()),
        4,
        "width"
    );
    assert_eq!(
        u32::from_be_bytes(png[20..24].try_into().unwrap()),
        2,
        "height"
    );
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
    let fib = example("fib.s");
    assert!(weft(&["sp2a-asm", s(&fib), "-o", s(&img)]).status.success());
    let dis = weft(&["sp2a-disasm", s(&img)]);
    assert!(dis.status.success());
    // The disassembly re-assembles to the same loaded memories (the image up to the end of
    // its data section; `.equ` constants are not part of the disassembly's symbol table).
    let dis_src = d.join("fib.dis.s");
    std::fs::write(&dis_src, &dis.stdout).unwrap();
    let img2 = d.join("fib2.sp2a");
    let again = weft(&["sp2a-asm", s(&dis_src), "-o", s(&img2)]);
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let memories = |b: Vec<u8>| {
        let word = |o: usize| u32::from_le_bytes(b[o..o + 4].try_into().unwrap()) as usize;
        let text_words = word(16);
        let data_at = 20 + 4 * text_words;
        let end = data_at + 4 + 4 * word(data_at);
        b[..end].to_vec()
    };
    assert_eq!(
        memories(std::fs::read(&img).unwrap()),
        memories(std::fs::read(&img2).unwrap())
    );
    let from_src = weft(&[
        "run",
        "--sp2a",
        "1",
        s(&fib),
        "--stats-json",
        s(&d.join("a.json")),
    ]);
    let from_img = weft(&[
        "run",
        "--sp2a",
        "1",
        s(&img),
        "--stats-json",
        s(&d.join("b.json")),
    ]);
    assert_eq!(from_src.status.code(), Some(0));
    assert_eq!(from_img.status.code(), Some(0));
    assert_eq!(from_src.stdout, from_img.stdout);
    let a: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("a.json")).unwrap()).unwrap();
    let b: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("b.json")).unwrap()).unwrap();
    assert_eq!(
        a["instructions"], b["instructions"],
        "the image runs exactly like its source"
    );
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn errors_are_one_clear_message() {
    let d = tmp("err");
    let bad = d.join("bad.s");
    let err = |args: &[&str]| {
        let o = weft(args);
        assert!(!o.status.success(), "{args:?} should fail");
        let e = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(!e.contains("panicked"), "{e}");
        e
    };
    std::fs::write(&bad, "ADD %A\nLD %A 0x9000\n").unwrap();
    let e = err(&["sp2a-asm", s(&bad), "-o", s(&d.join("o"))]);
    assert!(
        e.contains("bad.s:1:5: error: expected `ADD %A %B %D`"),
        "{e}"
    );
    // Ends are reported as a SIMT run's are, with the same exit statuses.
    std::fs::write(&bad, "LD %A 0x9000\n").unwrap();
    let o = weft(&["run", "--sp2a", "1", s(&bad)]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("fault LOAD_FAULT (code 3) at core 0")
            && e.contains("load from address 0x9000")
            && e.contains("PC 0x0000"),
        "{e}"
    );
    assert_eq!(o.status.code(), Some(128 + 3), "{e}");
    std::fs::write(&bad, "l: JMP l\n").unwrap();
    let o = weft(&["run", "--sp2a", "1", s(&bad), "--max-cycles", "50"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("stopped at the cycle bound (50 cycles)"), "{e}");
    assert_eq!(o.status.code(), Some(124), "{e}");
    let e = err(&["run", "--sp2a", "0", s(&bad)]);
    assert!(e.contains("0 cores"), "{e}");
    let e = err(&["run", "--sp2a", "1", s(&d.join("missing.s"))]);
    assert!(e.contains("missing.s"), "{e}");
    std::fs::remove_dir_all(&d).ok();
}
