//! The SDRAM controller (rtl/board/weft_sdram.sv) under random traffic against a reference
//! memory, on the behavioural SDRAM model that checks the datasheet's timing
//! (rtl/board/sdram_model.h): every word read must be the one last written (with its byte
//! enables), no command may break a timing rule, and refreshes must keep coming, during
//! traffic and in long pauses, at most 7.8 µs apart.

use weft_rtl_lockstep::sdram::{build, random_traffic};

#[test]
fn sdram_random_traffic_reads_back_what_was_written_within_the_datasheet_timing() {
    let bin = build().unwrap_or_else(|e| panic!("{e}"));
    for seed in 1..=4u64 {
        let t = random_traffic(&bin, seed, 3000).unwrap_or_else(|e| panic!("{e}"));
        eprintln!("seed {seed}: {t:?}");
        assert_eq!(t.requests, 3000);
        // both kinds of request happened, in quantity
        assert!(t.words_read > 10_000 && t.words_written > 10_000, "{t:?}");
        // at 50 MHz a refresh is due every 6 µs: one per 300 clocks at least
        assert!(t.refreshes >= t.clocks / 400, "{t:?}");
        assert!(t.max_refresh_gap_ns <= 7_800, "{t:?}");
    }
}
