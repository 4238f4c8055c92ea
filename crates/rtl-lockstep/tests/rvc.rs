//! The RTL's decompressor (`rtl/weft_rvc.sv`) alone under Verilator, on every one of the 49 152
//! halfwords that are compressed instructions (low bits not 0b11), against weft-isa's table
//! (`crates/isa/src/compressed.rs`): a halfword the table expands must give exactly the 32-bit
//! word of that expansion, and a halfword the table rejects (reserved, RV64, D) must be marked
//! illegal. Verilator missing is a failure with a message, never a skip.

use std::process::Command;
use weft_isa::compressed::decode16;
use weft_rtl_lockstep::build_unit;

#[test]
fn decompressor_matches_the_compressed_table_on_every_halfword() {
    let bin = build_unit("weft_rvc", &["weft_rvc"], "tb_rvc").unwrap_or_else(|e| panic!("{e}"));
    let out = Command::new(&bin).output().expect("run tb_rvc");
    assert!(
        out.status.success(),
        "tb_rvc: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let (mut legal, mut wrong) = (0, Vec::new());
    let mut n = 0;
    for l in text.lines() {
        let f: Vec<u32> = l
            .split_whitespace()
            .map(|x| u32::from_str_radix(x, 16).expect("hex"))
            .collect();
        let (h, w, ill) = (f[0] as u16, f[1], f[2] != 0);
        n += 1;
        let want = decode16(h).map(|mut i| {
            i.compressed = None;
            i.encode().expect("the expansion encodes")
        });
        match (want, ill) {
            (Some(x), false) if x == w => legal += 1,
            (None, true) => {}
            _ => wrong.push(format!(
                "{h:04x}: rtl {} , weft-isa {}",
                if ill {
                    "illegal".to_string()
                } else {
                    format!("{w:08x}")
                },
                want.map_or("illegal".to_string(), |x| format!("{x:08x}"))
            )),
        }
    }
    assert_eq!(n, 49_152, "every compressed halfword");
    assert!(
        wrong.is_empty(),
        "{} halfwords differ, the first:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(20)].join("\n")
    );
    eprintln!("{n} halfwords: {legal} expand as weft-isa's table, the rest illegal in both");
}
