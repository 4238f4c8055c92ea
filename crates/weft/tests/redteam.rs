//! The hostile-testing reproductions of `../shared/repro/redteam/` that weft now handles give
//! the behaviour their headers expect (the command and the expected status and message are
//! theirs). Each file's header says which sentence of the specification it checks.

use std::process::Command;

fn dir() -> String {
    format!(
        "{}/../../../shared/repro/redteam",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Run `weft` with `args` (`{}` stands for the reproduction directory).
fn weft(args: &[&str]) -> (i32, String) {
    let d = dir();
    assert!(
        std::path::Path::new(&d).is_dir(),
        "{d}: the shared/ folder must sit beside the repository"
    );
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
    let (s, e) = weft(&["run", "{}/lrsc_misaligned_store_keeps_reservation.s"]);
    assert_eq!(s, 1, "lane 0's sc.w must fail\n{e}");
}

#[test]
fn a_misaligned_store_from_below_the_code_is_fetched() {
    let (s, e) = weft(&["run", "{}/smc_misaligned_store_below_code_stale.s"]);
    assert_eq!(s, 2, "the rewritten first code word must run\n{e}");
}

#[test]
fn a_word_past_the_end_of_dram_faults() {
    let (s, e) = weft(&[
        "run",
        "{}/dram_size_not_multiple_of_4_word_past_end.s",
        "--config",
        "{}/dram_size_not_multiple_of_4.toml",
    ]);
    assert_eq!(s, 128 + 4, "{e}");
    assert!(
        e.contains("address 0x80001000") && e.contains("crosses the end of its region"),
        "{e}"
    );
}

#[test]
fn a_trapping_csr_write_leaves_rd_alone() {
    let (s, e) = weft(&["run", "{}/csr_fault_clobbers_rd.s"]);
    assert_eq!(s, 0x55, "{e}");
}

#[test]
fn mtval_of_an_illegal_instruction_is_zero_or_its_bits() {
    let (s, e) = weft(&["run", "{}/mtval_illegal_instruction_is_pc.s"]);
    assert_eq!(s, 0, "{e}");
}

#[test]
fn the_watchdog_message_states_the_real_interval() {
    let (s, e) = weft(&["run", "{}/watchdog_message_cycle_count.s"]);
    assert_eq!(s, 128 + 7, "{e}");
    assert!(
        e.contains("no watchdog write for 6 cycles (limit 5)"),
        "{e}"
    );
}

#[test]
fn shift_counts_out_of_range_are_errors() {
    let out = std::env::temp_dir().join(format!("weft-redteam-{}.elf", std::process::id()));
    let (s, e) = weft(&[
        "asm",
        "{}/asm_shift_count_wraps.s",
        "-o",
        out.to_str().unwrap(),
    ]);
    let _ = std::fs::remove_file(&out);
    assert_eq!(s, 2, "{e}");
    assert!(
        e.contains("error: shift count out of range (64 is not between 0 and 63)"),
        "{e}"
    );
}

#[test]
fn a_deeply_nested_expression_is_an_error_not_a_stack_overflow() {
    let (s, e) = weft(&["run", "{}/asm_deep_expression_stack_overflow.s"]);
    assert_eq!(s, 2, "{e}");
    assert!(
        e.contains("error: expression nested too deeply or too long"),
        "{e}"
    );
    assert_eq!(e.lines().filter(|l| l.contains("error:")).count(), 1, "{e}");
}

#[test]
fn fences_with_reserved_fields_are_fences() {
    let (s, e) = weft(&["run", "{}/fence_reserved_fields_illegal.s"]);
    assert_eq!(s, 0, "{e}");
}
