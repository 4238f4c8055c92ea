//! `weft reconv --embed`: the reconvergence table stored in a `.weft.reconv` section is what
//! `weft run` uses (an empty stored table stops table reconvergence), and a stored full table
//! gives the same run as computing it on load.

use std::path::{Path, PathBuf};
use std::process::Command;

fn weft(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(args)
        .output()
        .expect("weft runs")
}

fn tmp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("weft-reconv-{}-{name}", std::process::id()))
}

fn stats(prog: &Path, json: &Path) -> serde_json::Value {
    let o = weft(&[
        "run",
        prog.to_str().unwrap(),
        "--lanes",
        "8",
        "--stats-json",
        json.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap()
}

#[test]
fn embedded_table_is_the_one_the_loader_uses() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/kernels/nested_if_noconv.s");
    let elf = tmp("plain.elf");
    assert!(
        weft(&["asm", src.to_str().unwrap(), "-o", elf.to_str().unwrap()])
            .status
            .success()
    );
    let embedded = tmp("embedded.elf");
    let dump = weft(&[
        "reconv",
        elf.to_str().unwrap(),
        "--embed",
        embedded.to_str().unwrap(),
    ]);
    assert!(dump.status.success());
    assert!(
        String::from_utf8_lossy(&dump.stdout).contains("->"),
        "the table is printed too"
    );

    let computed = stats(&elf, &tmp("a.json"));
    let stored = stats(&embedded, &tmp("b.json"));
    assert!(computed["reconvergences"].as_u64().unwrap() > 0);
    assert_eq!(computed["reconvergences"], stored["reconvergences"]);
    assert_eq!(computed["warp_instructions"], stored["warp_instructions"]);

    // An empty stored table: nothing reconverges from the table any more.
    let bytes = std::fs::read(&elf).unwrap();
    let empty = weft_reconv::ReconvTable::new().to_section_bytes();
    let no_table = tmp("empty.elf");
    std::fs::write(
        &no_table,
        weft_elf::append_section(&bytes, weft_reconv::SECTION_NAME, &empty).unwrap(),
    )
    .unwrap();
    let none = stats(&no_table, &tmp("c.json"));
    assert_eq!(none["reconvergences"], 0);
    for f in [
        "plain.elf",
        "embedded.elf",
        "empty.elf",
        "a.json",
        "b.json",
        "c.json",
    ] {
        std::fs::remove_file(tmp(f)).ok();
    }
}
