//! weft-hostile: hostile-input campaigns for the host-facing interfaces the fuzz targets of
//! `weft-difftest` do not reach — the C ABI of the host runtime ([`capi`]) and the GDB stub
//! ([`gdb`]) — each a random, seeded sequence of hostile calls or packets checked against
//! what must happen. The `weft-hostile` binary runs them with a time bound (the brief fuzz
//! runs of CI: `fuzz/run-ci.sh`); the Python package's campaign is `fuzz/hostile.py`.
//! See docs/reliability.md.

pub mod capi;
pub mod gdb;

/// What a campaign did.
#[derive(Debug, Default)]
pub struct Report {
    /// Calls or inputs made and checked.
    pub ops: u64,
    /// What went wrong (each distinct message once).
    pub findings: Vec<String>,
}

impl Report {
    /// Note a finding (once).
    pub fn find(&mut self, what: String) {
        if !self.findings.contains(&what) {
            self.findings.push(what);
        }
    }
}
