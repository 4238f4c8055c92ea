//! The tiled array: N shader processors over one framebuffer, stepped deterministically.
//!
//! Each cycle, cores run in index order: core i executes one instruction (unless halted),
//! then core i's DMA engine ticks once. Cores learn who they are from the local-bus registers
//! CORE_INDEX and CORE_COUNT. The run ends when every core has halted and every DMA engine is
//! idle; a FRAME write pauses the run so the host can save a snapshot.

use crate::core::{BusCtx, Code, Core, CoreConfig, Fault, SetupError};
use crate::isa::{Instr, Op, Reg};
use crate::program::Program;
use serde_json::json;
use std::fmt;
use std::rc::Rc;
use weft_fb::{DmaStats, Framebuffer};

/// Framebuffer size used when neither the config nor the program (`.fb`) gives one.
pub const DEFAULT_FB_SIZE: (u32, u32) = (64, 64);

/// Array configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrayConfig {
    /// Number of cores (1..=256).
    pub cores: usize,
    /// Per-core sizes and timing.
    pub core: CoreConfig,
    /// Framebuffer size; `None` uses the program's `.fb` or [`DEFAULT_FB_SIZE`].
    pub fb_size: Option<(u32, u32)>,
}

impl Default for ArrayConfig {
    fn default() -> Self {
        ArrayConfig {
            cores: 1,
            core: CoreConfig::default(),
            fb_size: None,
        }
    }
}

/// Why [`Array::run`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Every core halted and every DMA engine is idle.
    Halted,
    /// A core wrote FRAME during the last cycle.
    Frame,
    /// The cycle limit was reached first.
    CycleLimit,
}

/// One retired instruction, for `--trace`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceRecord {
    /// Cycle number.
    pub cycle: u64,
    /// Core index.
    pub core: usize,
    /// PC of the instruction.
    pub pc: u16,
    /// The instruction.
    pub instr: Instr,
    /// Destination register and its new value, if the instruction writes one.
    pub result: Option<(Reg, u32)>,
}

impl fmt::Display for TraceRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:>8} c{:<3} {:04X}: {:08X}  {}",
            self.cycle,
            self.core,
            self.pc,
            self.instr.encode(),
            self.instr
        )?;
        if let Some((r, v)) = self.result {
            write!(f, "  ; {r}=0x{v:08X}")?;
        }
        Ok(())
    }
}

/// N cores, one framebuffer, one clock.
#[derive(Debug)]
pub struct Array {
    cores: Vec<Core>,
    fb: Framebuffer,
    cycle: u64,
    console: Vec<u8>,
}

impl Array {
    /// Load `program` into every core of a new array.
    pub fn new(program: &Program, config: &ArrayConfig) -> Result<Array, SetupError> {
        if config.cores == 0 || config.cores > 256 {
            return Err(SetupError::Config(format!(
                "{} cores (1..=256)",
                config.cores
            )));
        }
        let (w, h) = config
            .fb_size
            .or(program.fb_size)
            .unwrap_or(DEFAULT_FB_SIZE);
        let fb = Framebuffer::new(w, h).map_err(|e| SetupError::Config(e.to_string()))?;
        let code = Rc::new(Code::new(&program.text, config.core.imem_words)?);
        let cores = (0..config.cores)
            .map(|i| Core::new(i, code.clone(), program, &config.core))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Array {
            cores,
            fb,
            cycle: 0,
            console: Vec::new(),
        })
    }

    /// Cycles run so far.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// The cores.
    pub fn cores(&self) -> &[Core] {
        &self.cores
    }

    /// The cores, mutable (for tests and hosts that preload memory).
    pub fn cores_mut(&mut self) -> &mut [Core] {
        &mut self.cores
    }

    /// The framebuffer.
    pub fn framebuffer(&self) -> &Framebuffer {
        &self.fb
    }

    /// The framebuffer, mutable (hosts may preload a picture).
    pub fn framebuffer_mut(&mut self) -> &mut Framebuffer {
        &mut self.fb
    }

    /// Take the console output produced so far.
    pub fn take_console(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.console)
    }

    /// Every core halted and every DMA idle.
    pub fn done(&self) -> bool {
        self.cores
            .iter()
            .all(|c| c.halted().is_some() && !c.dma_busy())
    }

    /// The exit status: the first non-zero HALT value in core order, else 0.
    pub fn exit_code(&self) -> u32 {
        self.cores
            .iter()
            .filter_map(Core::halted)
            .find(|&v| v != 0)
            .unwrap_or(0)
    }

    /// Run one cycle; returns whether a frame was requested.
    fn cycle_once<T: FnMut(&TraceRecord)>(&mut self, trace: &mut Option<T>) -> Result<bool, Fault> {
        let mut frame = false;
        let count = self.cores.len();
        for core in self.cores.iter_mut() {
            if core.halted().is_none() {
                let mut ctx = BusCtx {
                    fb: &self.fb,
                    core_count: count,
                    cycle: self.cycle,
                    console: &mut self.console,
                    frame: &mut frame,
                };
                let (pc, instr) = core.step(&mut ctx)?;
                if let Some(t) = trace.as_mut() {
                    let writes = instr.op.format().fields().d;
                    t(&TraceRecord {
                        cycle: self.cycle,
                        core: core.index(),
                        pc,
                        instr,
                        result: writes.then(|| (instr.d, core.regs()[instr.d.idx()])),
                    });
                }
            }
            core.tick_dma(&mut self.fb);
        }
        self.cycle += 1;
        Ok(frame)
    }

    /// Run until done, a frame request, or `max_cycles` total cycles.
    pub fn run(&mut self, max_cycles: u64) -> Result<Stop, Fault> {
        self.run_inner(max_cycles, &mut None::<fn(&TraceRecord)>)
    }

    /// Like [`Array::run`], calling `trace` for every retired instruction.
    pub fn run_traced(
        &mut self,
        max_cycles: u64,
        trace: &mut dyn FnMut(&TraceRecord),
    ) -> Result<Stop, Fault> {
        self.run_inner(max_cycles, &mut Some(trace))
    }

    fn run_inner<T: FnMut(&TraceRecord)>(
        &mut self,
        max_cycles: u64,
        trace: &mut Option<T>,
    ) -> Result<Stop, Fault> {
        while !self.done() {
            if self.cycle >= max_cycles {
                return Ok(Stop::CycleLimit);
            }
            if self.cycle_once(trace)? {
                return Ok(Stop::Frame);
            }
        }
        Ok(Stop::Halted)
    }

    /// Statistics so far.
    pub fn stats(&self) -> Stats {
        let per_core: Vec<CoreSummary> = self
            .cores
            .iter()
            .map(|c| CoreSummary {
                instructions: c.stats().instructions,
                busy_polls: c.stats().busy_polls,
                busy_wait_cycles: c.stats().busy_wait_cycles,
                dma: c.dma_stats(),
                halted: c.halted(),
            })
            .collect();
        let mut per_opcode = Vec::new();
        for op in Op::ALL {
            let n: u64 = self
                .cores
                .iter()
                .map(|c| c.stats().per_opcode[usize::from(op.opcode())])
                .sum();
            per_opcode.push((*op, n));
        }
        Stats {
            cycles: self.cycle,
            per_core,
            per_opcode,
        }
    }
}

/// One core's counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoreSummary {
    /// Instructions retired.
    pub instructions: u64,
    /// DMA_CTRL reads that returned busy.
    pub busy_polls: u64,
    /// Cycles spent between a busy poll and the idle poll ending the wait.
    pub busy_wait_cycles: u64,
    /// DMA engine counters.
    pub dma: DmaStats,
    /// HALT value, if halted.
    pub halted: Option<u32>,
}

/// Statistics for a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stats {
    /// Cycles run.
    pub cycles: u64,
    /// Per-core counters.
    pub per_core: Vec<CoreSummary>,
    /// Retired count per operation (all cores; `ST`/`LD`/`JMP` forms counted apart).
    pub per_opcode: Vec<(Op, u64)>,
}

impl Stats {
    fn sum(&self, f: impl Fn(&CoreSummary) -> u64) -> u64 {
        self.per_core.iter().map(f).sum()
    }

    /// Instructions retired by all cores.
    pub fn instructions(&self) -> u64 {
        self.sum(|c| c.instructions)
    }

    /// The statistics as JSON text (stable key names, documented in `docs/sp2a.md`).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.to_value()).unwrap_or_default()
    }

    /// The statistics as a JSON value (see [`Stats::to_json`]).
    pub fn to_value(&self) -> serde_json::Value {
        let ops: serde_json::Map<String, serde_json::Value> = self
            .per_opcode
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(op, n)| (format!("{op:?}").to_uppercase(), json!(n)))
            .collect();
        let cores: Vec<serde_json::Value> = self
            .per_core
            .iter()
            .map(|c| {
                json!({
                    "instructions": c.instructions,
                    "busy_polls": c.busy_polls,
                    "busy_wait_cycles": c.busy_wait_cycles,
                    "dma_triggers": c.dma.triggers,
                    "dma_transfers": c.dma.transfers,
                    "dma_dwords_in": c.dma.dwords_in,
                    "dma_dwords_out": c.dma.dwords_out,
                    "dma_busy_cycles": c.dma.busy_cycles,
                    "halt_code": c.halted,
                })
            })
            .collect();
        json!({
            "cores": self.per_core.len(),
            "cycles": self.cycles,
            "instructions": self.instructions(),
            "ipc": if self.cycles == 0 { 0.0 } else { self.instructions() as f64 / self.cycles as f64 },
            "busy_polls": self.sum(|c| c.busy_polls),
            "busy_wait_cycles": self.sum(|c| c.busy_wait_cycles),
            "dma_triggers": self.sum(|c| c.dma.triggers),
            "dma_transfers": self.sum(|c| c.dma.transfers),
            "dma_dwords_in": self.sum(|c| c.dma.dwords_in),
            "dma_dwords_out": self.sum(|c| c.dma.dwords_out),
            "per_opcode": ops,
            "per_core": cores,
        })
    }
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let instr = self.instructions();
        writeln!(f, "cores             {}", self.per_core.len())?;
        writeln!(f, "cycles            {}", self.cycles)?;
        writeln!(f, "instructions      {instr}")?;
        writeln!(f, "dma triggers      {}", self.sum(|c| c.dma.triggers))?;
        writeln!(f, "dma transfers     {}", self.sum(|c| c.dma.transfers))?;
        writeln!(
            f,
            "dma dwords        {} in, {} out",
            self.sum(|c| c.dma.dwords_in),
            self.sum(|c| c.dma.dwords_out)
        )?;
        writeln!(
            f,
            "busy-wait cycles  {} ({} busy polls)",
            self.sum(|c| c.busy_wait_cycles),
            self.sum(|c| c.busy_polls)
        )?;
        write!(f, "per opcode       ")?;
        for (op, n) in self.per_opcode.iter().filter(|(_, n)| *n > 0) {
            write!(f, " {}={n}", format!("{op:?}").to_uppercase())?;
        }
        writeln!(f)
    }
}
