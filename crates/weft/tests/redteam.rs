//! Hostile-testing findings that weft now handles, as the project's own regression programs
//! (`tests/redteam/`; each file's header says the rule it checks and what is expected).

use std::process::Command;

fn dir() -> String {
    format!("{}/../../tests/redteam", env!("CARGO_MANIFEST_DIR"))
}

/// Run `weft` with `args` (`{}` stands for `tests/redteam`): its exit status and stderr.
fn weft(args: &[&str]) -> (i32, String) {
    let d = dir();
    let args: Vec<String> = args.iter().map(|a| a.replace("{}", &d)).collect();
    let out = Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(&args)
        .output()
        .expect("run weft");
    (
        out.status.code().expect("an exit status, not a signal"),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_misaligned_store_into_a_reserved_word_breaks_the_reservation() {
    let (s, e) = weft(&["run", "{}/lrsc_store_from_below.s"]);
    assert_eq!(s, 1, "lane 0's sc.w must fail\n{e}");
}

#[test]
fn a_misaligned_store_from_below_the_code_is_fetched() {
    let (s, e) = weft(&["run", "{}/smc_store_below_code.s"]);
    assert_eq!(s, 5, "the rewritten first code word must run\n{e}");
}

#[test]
fn a_word_past_the_end_of_dram_faults() {
    let (s, e) = weft(&[
        "run",
        "{}/dram_tail_word.s",
        "--config",
        "{}/dram_tail.toml",
    ]);
    assert_eq!(s, 128 + 4, "{e}");
    assert!(
        e.contains("address 0x80001000") && e.contains("crosses the end of its region"),
        "{e}"
    );
}

#[test]
fn a_trapping_csr_write_leaves_rd_alone() {
    let (s, e) = weft(&["run", "{}/csr_trap_keeps_rd.s"]);
    assert_eq!(s, 0x2a, "{e}");
}

#[test]
fn mtval_of_an_illegal_instruction_is_zero_or_its_bits() {
    let (s, e) = weft(&["run", "{}/mtval_illegal.s"]);
    assert_eq!(s, 0, "{e}");
}

#[test]
fn the_watchdog_message_states_the_real_interval() {
    let (s, e) = weft(&["run", "{}/watchdog_interval.s"]);
    assert_eq!(s, 128 + 7, "{e}");
    assert!(
        e.contains("no watchdog write for 5 cycles (limit 4)"),
        "{e}"
    );
}

#[test]
fn shift_counts_out_of_range_are_errors() {
    let out = std::env::temp_dir().join(format!("weft-redteam-{}.elf", std::process::id()));
    let (s, e) = weft(&["asm", "{}/shift_count_range.s", "-o", out.to_str().unwrap()]);
    let _ = std::fs::remove_file(&out);
    assert_eq!(s, 2, "{e}");
    assert!(
        e.contains("error: shift count out of range (64 is not between 0 and 63)"),
        "{e}"
    );
}

/// 100,000 nested unary minus signs (and as many parentheses) once overflowed the assembler's
/// stack (an abort, no diagnostic); now each is one located error.
#[test]
fn a_deeply_nested_expression_is_an_error_not_a_stack_overflow() {
    for (name, expr) in [
        ("minus", format!("{}1", "-".repeat(100_000))),
        (
            "parens",
            format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000)),
        ),
    ] {
        let src =
            std::env::temp_dir().join(format!("weft-redteam-deep-{name}-{}.s", std::process::id()));
        std::fs::write(&src, format!("    .text\n_start:\n    li t0, {expr}\n")).unwrap();
        let (s, e) = weft(&["run", src.to_str().unwrap()]);
        let _ = std::fs::remove_file(&src);
        assert_eq!(s, 2, "{name}: {e}");
        assert!(
            e.contains("error: expression nested too deeply or too long"),
            "{name}: {e}"
        );
        assert_eq!(
            e.lines().filter(|l| l.contains("error:")).count(),
            1,
            "{name}: {e}"
        );
    }
}

#[test]
fn fences_with_reserved_fields_are_fences() {
    let (s, e) = weft(&["run", "{}/fence_reserved_fields.s"]);
    assert_eq!(s, 0, "{e}");
}
