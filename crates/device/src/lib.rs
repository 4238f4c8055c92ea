//! weft-device: the one face every weft machine shows — the SIMT functional model
//! (`weft-simt`'s `Machine`) and the Shader Processor v2a array (`weft-sp2a`'s `Array`).
//!
//! A [`Device`] runs a loaded program and reports how the run ended as a [`RunEnd`] (with a
//! [`FaultInfo`] for a fault, named by the same [`FaultCode`]s), hands over its console
//! output, reads and writes its memory, and gives its statistics as JSON. The command line,
//! the tests and the host runtime's backends drive either machine through it; each machine
//! keeps its own richer API beside it.

use std::fmt;
pub use weft_isa::FaultCode;

/// A fault, as reported at the end of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultInfo {
    /// What went wrong.
    pub code: FaultCode,
    /// The core that faulted.
    pub core: usize,
    /// The warp that faulted (0 on a machine without warps).
    pub warp: usize,
    /// The warp's active lanes (1 on a machine without lanes).
    pub lanes: u32,
    /// The faulting instruction's address.
    pub pc: u32,
    /// The data address involved, if any.
    pub addr: Option<u32>,
    /// More about it (may be empty).
    pub detail: String,
}

impl fmt::Display for FaultInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "fault {} (code {}) at core {} warp {} lanes {:#x} pc {:#010x}",
            self.code.name(),
            self.code.code(),
            self.core,
            self.warp,
            self.lanes,
            self.pc
        )?;
        if let Some(a) = self.addr {
            write!(f, " address {a:#010x}")?;
        }
        if !self.detail.is_empty() {
            write!(f, ": {}", self.detail)?;
        }
        Ok(())
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// The program stored an exit code (exit word, HTIF, or a non-zero HALT value).
    Exit(u32),
    /// Every warp of every core halted.
    AllHalted,
    /// Every warp halted without the exit word, and the configuration requires it
    /// (`require_exit`): the program stopped early.
    NoExit,
    /// A warp faulted.
    Fault(FaultInfo),
    /// The cycle bound was reached.
    CycleLimit(u64),
    /// No warp can make progress; the text says who waits on what.
    Deadlock(String),
}

impl RunEnd {
    /// The process exit status for this end: the program's code, 0 when all halted,
    /// 3 when all halted without the required exit word, 128 + fault code for a fault, 124 at
    /// the cycle bound, 125 for a deadlock.
    pub fn exit_status(&self) -> i32 {
        match self {
            RunEnd::Exit(c) => {
                let s = (*c & 0xff) as i32;
                if s == 0 && *c != 0 {
                    1
                } else {
                    s
                }
            }
            RunEnd::AllHalted => 0,
            RunEnd::NoExit => 3,
            RunEnd::Fault(f) => 128 + f.code.code() as i32,
            RunEnd::CycleLimit(_) => 124,
            RunEnd::Deadlock(_) => 125,
        }
    }

    /// A short name for the end (`end` in the statistics JSON).
    pub fn name(&self) -> &'static str {
        match self {
            RunEnd::Exit(_) => "exit",
            RunEnd::AllHalted => "all-halted",
            RunEnd::NoExit => "no-exit",
            RunEnd::Fault(_) => "fault",
            RunEnd::CycleLimit(_) => "cycle-limit",
            RunEnd::Deadlock(_) => "deadlock",
        }
    }
}

/// Why [`Device::run`] returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The run is over.
    End(RunEnd),
    /// The program finished a frame (SP v2a's FRAME); `run` again goes on. The SIMT machine
    /// never stops here.
    Frame,
}

/// A host access outside the memory a machine lets the host see.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MemError {
    /// Some byte of the range is not mapped (or not writable).
    #[error("{len} bytes at {addr:#010x}: {why}")]
    Outside {
        /// Start of the range.
        addr: u32,
        /// Its length in bytes.
        len: usize,
        /// What is wrong with it.
        why: String,
    },
}

/// A weft machine with a program loaded.
pub trait Device {
    /// Which machine this is (`"simt"` or `"sp2a"`).
    fn kind(&self) -> &'static str;
    /// Run until the program ends, it finishes a frame, or the machine has run `max_cycles`
    /// cycles in all (the machine's own bound applies too).
    fn run(&mut self, max_cycles: u64) -> Stop;
    /// Cycles run so far.
    fn cycles(&self) -> u64;
    /// Console output produced since the last call (and not already sent to a sink).
    fn take_console(&mut self) -> Vec<u8>;
    /// Read `buf.len()` bytes at `addr` of the memory the host sees (the SIMT machine's
    /// address space as core 0 sees it; the SP v2a framebuffer, pixel *i* at bytes 4*i*..).
    fn read_bytes(&self, addr: u32, buf: &mut [u8]) -> Result<(), MemError>;
    /// Write `data` at `addr` of the memory the host sees.
    fn write_bytes(&mut self, addr: u32, data: &[u8]) -> Result<(), MemError>;
    /// The statistics so far, as the JSON object `weft run --stats-json` writes (without the
    /// `exit_status` and `end` keys, which belong to the run's end).
    fn stats_json(&self) -> serde_json::Value;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fault(code: FaultCode) -> RunEnd {
        RunEnd::Fault(FaultInfo {
            code,
            core: 0,
            warp: 1,
            lanes: 0xf,
            pc: 0x8000_0010,
            addr: Some(4),
            detail: "why".into(),
        })
    }

    #[test]
    fn exit_statuses_follow_the_documented_table() {
        assert_eq!(RunEnd::Exit(7).exit_status(), 7);
        assert_eq!(
            RunEnd::Exit(0x100).exit_status(),
            1,
            "a non-zero code never exits 0"
        );
        assert_eq!(RunEnd::AllHalted.exit_status(), 0);
        assert_eq!(RunEnd::NoExit.exit_status(), 3);
        assert_eq!(fault(FaultCode::LoadFault).exit_status(), 131);
        assert_eq!(RunEnd::CycleLimit(9).exit_status(), 124);
        assert_eq!(RunEnd::Deadlock(String::new()).exit_status(), 125);
    }

    #[test]
    fn a_fault_names_code_place_and_detail() {
        let RunEnd::Fault(f) = fault(FaultCode::LoadFault) else {
            unreachable!()
        };
        assert_eq!(
            f.to_string(),
            "fault LOAD_FAULT (code 3) at core 0 warp 1 lanes 0xf pc 0x80000010 address \
             0x00000004: why"
        );
    }
}
