//! The counters kept while simulating (per operation, memory accesses); `stats.rs` builds
//! the report from them and the warps' own counters.

use crate::config::Config;
use weft_isa::{Op, TABLE};

/// Counters updated during the run.
#[derive(Clone, Debug)]
pub struct Stats {
    pub(crate) per_op: Vec<u64>,
    pub loads: u64,
    pub stores: u64,
    pub atomics: u64,
}

impl Stats {
    pub(crate) fn new(_cfg: &Config) -> Stats {
        Stats {
            per_op: vec![0; TABLE.len()],
            loads: 0,
            stores: 0,
            atomics: 0,
        }
    }

    /// Count `n` executions of `op`.
    pub(crate) fn count_n(&mut self, op: Op, n: u64) {
        if let Some(c) = self.per_op.get_mut(op as usize) {
            *c += n;
        }
    }

    #[inline(always)]
    pub(crate) fn count(&mut self, op: Op) {
        if let Some(c) = self.per_op.get_mut(op as usize) {
            *c += 1;
        }
    }
}
