//! The board's SDRAM controller (`rtl/board/weft_sdram.sv`) on its own, under random traffic:
//! the Verilator testbench `rtl/board/tb_sdram.cpp` drives it with random reads and writes
//! (1..32 words, random byte enables, random pauses) against a reference memory, on the
//! behavioural SDRAM model `rtl/board/sdram_model.h`, which checks every command against the
//! datasheet's timing (power-up sequence, tRCD, tRP, tRC, tRAS, tWR, tRFC, tMRD, the 7.8 µs
//! refresh interval, DQ contention).

use crate::{repo_root, verilate, Error, Verilate};
use std::path::PathBuf;
use std::process::Command;

/// What a random-traffic run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Traffic {
    /// Requests made.
    pub requests: u64,
    /// Words read and compared.
    pub words_read: u64,
    /// Words written.
    pub words_written: u64,
    /// AUTO REFRESH commands after initialisation.
    pub refreshes: u64,
    /// The longest time between two refreshes, in ns.
    pub max_refresh_gap_ns: u64,
    /// Clock cycles simulated.
    pub clocks: u64,
}

/// Build (or reuse) the SDRAM controller's testbench.
pub fn build() -> Result<PathBuf, Error> {
    let b = repo_root().join("rtl/board");
    let sources = [
        b.join("weft_sdram.sv"),
        b.join("sdram_model.h"),
        b.join("tb_sdram.cpp"),
    ];
    verilate(&Verilate {
        top: "weft_sdram",
        dir: "sdram",
        bin: "tb_sdram",
        params: &[],
        defines: &[],
        sources: &sources,
        trace: false,
    })
}

/// Run `requests` random requests from `seed` on the testbench `bin`; an error names the
/// first wrong word or timing violation.
pub fn random_traffic(bin: &std::path::Path, seed: u64, requests: u64) -> Result<Traffic, Error> {
    let out = Command::new(bin)
        .arg(seed.to_string())
        .arg(requests.to_string())
        .output()
        .map_err(|e| Error::Tool(format!("{}: {e}", bin.display())))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(Error::Tool(format!(
            "SDRAM random traffic, seed {seed}: {}{}",
            String::from_utf8_lossy(&out.stderr).trim(),
            text.trim()
        )));
    }
    let field = |name: &str| -> Result<u64, Error> {
        let mut it = text.split_whitespace();
        while let Some(w) = it.next() {
            if w == name {
                return it
                    .next()
                    .and_then(|v| v.parse().ok())
                    .ok_or_else(|| Error::Tool(format!("tb_sdram: bad `{name}` in {text:?}")));
            }
        }
        Err(Error::Tool(format!("tb_sdram: no `{name}` in {text:?}")))
    };
    Ok(Traffic {
        requests: field("requests")?,
        words_read: field("words_read")?,
        words_written: field("words_written")?,
        refreshes: field("refreshes")?,
        max_refresh_gap_ns: field("max_refresh_gap_ns")?,
        clocks: field("clocks")?,
    })
}
