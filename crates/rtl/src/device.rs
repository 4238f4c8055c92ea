//! The RTL as a [`Device`]: the core's testbench in its serve mode (`rtl/tb/tb_core.cpp
//! --serve`, a child process spoken to over a pipe, one command a line) holding a DRAM of the
//! configured size, the console and exit devices and HTIF `tohost`, as the functional model's
//! memory does. A program is laid out as for the lockstep (its segments and its reconvergence
//! table, in the mode asked for) and started at its entry; [`RtlDevice::restart`] resets the
//! core and starts it again with memory kept, as the host runtime's launches need.
//!
//! Statistics come from what the RTL did, counted by the testbench: clock cycles, issue slots
//! (the cycles of the functional model: one pick of a warp each), every retired
//! warp-instruction with its lanes per warp and per pc (the instruction classes and mnemonics
//! are those of the words at those pcs), divergences, reconvergences, the deepest
//! divergence stack and barrier arrivals per warp, with the model's definitions. `cycles` is
//! the RTL's clock: IPC is warp-instructions per clock cycle.

use crate::{build, dram_image, reconv_table, Error, ReconvMode, Shape, RT_WORDS};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use weft_device::{Device, FaultInfo, MemError, RunEnd, Stop};
use weft_isa::{Class, FaultCode, Inst};
use weft_simt::launch::{kernel_name, Counts, LaunchLog, LaunchReport};
use weft_simt::stats::{Report, WarpReport};
use weft_simt::Program;

/// The pipe to the testbench.
struct Pipe {
    child: Child,
    to: BufWriter<ChildStdin>,
    from: BufReader<ChildStdout>,
}

impl Pipe {
    /// Send a command; the first line of its answer.
    fn ask(&mut self, cmd: &str) -> Result<String, Error> {
        self.send(cmd)?;
        self.line()
    }
    fn send(&mut self, cmd: &str) -> Result<(), Error> {
        writeln!(self.to, "{cmd}")
            .and_then(|_| self.to.flush())
            .map_err(|e| Error::Tool(format!("the RTL testbench stopped reading: {e}")))
    }
    fn line(&mut self) -> Result<String, Error> {
        let mut s = String::new();
        match self.from.read_line(&mut s) {
            Ok(0) | Err(_) => Err(Error::Tool(
                "the RTL testbench ended without an answer".into(),
            )),
            Ok(_) => Ok(s.trim_end().to_string()),
        }
    }
}

impl Drop for Pipe {
    fn drop(&mut self) {
        let _ = writeln!(self.to, "Q").and_then(|_| self.to.flush());
        let _ = self.child.wait();
    }
}

/// weft's SystemVerilog core under Verilator, as a device.
pub struct RtlDevice {
    io: RefCell<Pipe>,
    shape: Shape,
    mode: ReconvMode,
    dram_size: u32,
    tohost: (u32, u32),
    clocks: u64,
    console: Vec<u8>,
    end: Option<RunEnd>,
    unsupported: Option<String>,
    /// The program's symbols (a launch's kernel by name).
    symbols: Vec<(String, u32)>,
}

/// Per pc: retired, their lanes, the lanes of those that trapped.
type PcCounts = BTreeMap<u32, [u64; 3]>;

/// A retired write of the launch CSR: its value, the totals after it (clock cycles,
/// warp- and thread-instructions, divergences, reconvergences, barrier arrivals) and the
/// per-pc counts then.
type LaunchMark = (u32, [u64; 6], PcCounts);

/// What the instructions at some pcs were: classes, mnemonics, lane loads, stores and
/// atomics, executions per instruction-table row.
#[derive(Default)]
struct Tally {
    classes: BTreeMap<String, u64>,
    mnemonics: BTreeMap<String, u64>,
    loads: u64,
    stores: u64,
    atomics: u64,
    per_op: Vec<u64>,
}

/// Hex of bytes.
fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .filter_map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok())
        .collect()
}

fn num(s: Option<&str>) -> u64 {
    s.and_then(|x| u64::from_str_radix(x, 16).ok()).unwrap_or(0)
}

impl RtlDevice {
    /// Build (or reuse) the RTL of `shape`, start its testbench with `dram_size` bytes of
    /// DRAM, load `prog` (its segments, and its reconvergence table in table mode) and start
    /// it at its entry.
    pub fn new(
        shape: Shape,
        prog: &Program,
        mode: ReconvMode,
        dram_size: u32,
    ) -> Result<RtlDevice, Error> {
        if mode == ReconvMode::FollowLast {
            return Err(Error::Program(
                "the RTL reconverges in table or converge mode, not follow-last".into(),
            ));
        }
        let bin = build(shape, false)?;
        let mut child = Command::new(&bin)
            .arg("--serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| Error::Tool(format!("{}: {e}", bin.display())))?;
        let (Some(to), Some(from)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(Error::Tool("no pipe to the RTL testbench".into()));
        };
        let mut d = RtlDevice {
            io: RefCell::new(Pipe {
                child,
                to: BufWriter::new(to),
                from: BufReader::new(from),
            }),
            shape,
            mode,
            dram_size,
            tohost: (prog.tohost.unwrap_or(0), prog.fromhost.unwrap_or(0)),
            clocks: 0,
            console: Vec::new(),
            end: None,
            unsupported: None,
            symbols: prog.symbols.clone(),
        };
        d.io.borrow_mut().send(&format!("M {dram_size:x}"))?;
        // the image, in pieces of 64 KiB
        let img = dram_image(prog, dram_size)?;
        for (i, chunk) in img.chunks(1 << 16).enumerate() {
            if chunk.iter().any(|&b| b != 0) {
                d.write(crate::DRAM_BASE + (i << 16) as u32, chunk)?;
            }
        }
        let (base, words) = reconv_table(prog, mode, RT_WORDS)?;
        let t: Vec<String> = [(mode == ReconvMode::Table) as u32, base, words.len() as u32]
            .into_iter()
            .chain(words)
            .map(|w| format!("{w:x}"))
            .collect();
        let a = d.io.borrow_mut().ask(&format!("T {}", t.join(" ")))?;
        if a != "K" {
            return Err(Error::Program(a.trim_start_matches("X ").to_string()));
        }
        d.restart(prog.entry)?;
        Ok(d)
    }

    /// The shape the RTL was built for.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The reconvergence mode it runs in.
    pub fn mode(&self) -> ReconvMode {
        self.mode
    }

    /// Bytes of DRAM.
    pub fn dram_size(&self) -> u32 {
        self.dram_size
    }

    /// Reset the core (CSRs, stacks, warps: warp 0 starts with lane 0) and start it at
    /// `entry`, memory kept; the counters go on.
    pub fn restart(&mut self, entry: u32) -> Result<(), Error> {
        let (t, f) = self.tohost;
        self.io
            .borrow_mut()
            .ask(&format!("S {entry:x} {t:x} {f:x}"))?;
        self.end = None;
        self.unsupported = None;
        Ok(())
    }

    /// If the run stopped at an instruction the RTL does not build: what and where.
    pub fn unsupported(&self) -> Option<&str> {
        self.unsupported.as_deref()
    }

    fn write(&self, addr: u32, data: &[u8]) -> Result<(), Error> {
        let a = self
            .io
            .borrow_mut()
            .ask(&format!("W {addr:x} {}", hex(data)))?;
        if a == "K" {
            Ok(())
        } else {
            Err(Error::Program(format!(
                "{} bytes at {addr:#010x} are outside the RTL's DRAM",
                data.len()
            )))
        }
    }

    /// Run at most `budget` clock cycles; how the run stands (None: still running).
    fn go(&mut self, budget: u64) -> Result<Option<RunEnd>, Error> {
        let mut io = self.io.borrow_mut();
        io.send(&format!("G {budget:x}"))?;
        let c = io.line()?;
        self.console
            .extend(unhex(c.strip_prefix("C").unwrap_or("").trim()));
        let e = io.line()?;
        drop(io);
        let mut f = e.strip_prefix("E ").unwrap_or("").split_whitespace();
        let kind = f.next().unwrap_or("");
        let mut n = || num(f.next());
        let end = match kind {
            "running" => None,
            "exit" => Some(RunEnd::Exit(n() as u32)),
            "halt" => Some(RunEnd::AllHalted),
            "deadlock" => Some(RunEnd::Deadlock(format!(
                "no warp can issue: warps {:#x} wait at a barrier or their breakpoint (RTL)",
                n()
            ))),
            "fault" => {
                let code = n() as u32;
                let (warp, lanes, pc, addr) = (n() as usize, n() as u32, n() as u32, n() as u32);
                let code = FaultCode::from_code(code).unwrap_or(FaultCode::IllegalInstruction);
                let with_addr = matches!(
                    code,
                    FaultCode::LoadFault
                        | FaultCode::StoreFault
                        | FaultCode::AmoMisaligned
                        | FaultCode::FetchFault
                        | FaultCode::DivergentJump
                );
                Some(RunEnd::Fault(FaultInfo {
                    code,
                    core: 0,
                    warp,
                    lanes,
                    pc,
                    addr: with_addr.then_some(addr),
                    detail: "on the RTL".into(),
                }))
            }
            "unsupported" => {
                let (why, warp, pc) = (n(), n(), n());
                let what = match why {
                    1 => "more than WAITS waiting groups in one divergence-stack entry",
                    2 => "a split more than CDEPTH calls deep",
                    3 => "a reconvergence point the table marks unreachable",
                    _ => "an instruction this RTL does not build",
                };
                self.unsupported = Some(format!("{what}, warp {warp} at pc {pc:#010x}"));
                Some(RunEnd::Fault(FaultInfo {
                    code: FaultCode::IllegalInstruction,
                    core: 0,
                    warp: warp as usize,
                    lanes: 0,
                    pc: pc as u32,
                    addr: None,
                    detail: format!("not built in the RTL: {what}"),
                }))
            }
            _ => {
                return Err(Error::Tool(format!(
                    "the RTL testbench answered `{e}` to a run"
                )))
            }
        };
        self.clocks = self.counters()?.0;
        Ok(end)
    }

    /// The testbench's counters: (clock cycles, issue slots, per warp (warp-instructions,
    /// thread-instructions, divergences, reconvergences, deepest stack, barrier arrivals),
    /// per pc (retired, their lanes, the lanes of those that trapped)).
    #[allow(clippy::type_complexity)]
    fn counters(&self) -> Result<(u64, u64, Vec<[u64; 6]>, PcCounts), Error> {
        let mut io = self.io.borrow_mut();
        io.send("P")?;
        let (mut clocks, mut slots, mut warps, mut pcs) = (0, 0, Vec::new(), BTreeMap::new());
        loop {
            let l = io.line()?;
            let mut f = l.split_whitespace();
            match f.next() {
                Some(".") => break,
                Some("clocks") => clocks = num(f.next()),
                Some("slots") => slots = num(f.next()),
                Some("warp") => {
                    let _ = f.next();
                    let mut v = [0; 6];
                    for x in &mut v {
                        *x = num(f.next());
                    }
                    warps.push(v);
                }
                Some("pc") => {
                    let pc = num(f.next()) as u32;
                    pcs.insert(pc, [num(f.next()), num(f.next()), num(f.next())]);
                }
                _ => {
                    return Err(Error::Tool(format!(
                        "the RTL testbench's statistics: `{l}`"
                    )))
                }
            }
        }
        Ok((clocks, slots, warps, pcs))
    }

    /// The testbench's launch marks, in order.
    fn launch_marks(&self) -> Result<Vec<LaunchMark>, Error> {
        let mut io = self.io.borrow_mut();
        io.send("L")?;
        let mut marks: Vec<LaunchMark> = Vec::new();
        loop {
            let l = io.line()?;
            let mut f = l.split_whitespace();
            match (f.next(), marks.last_mut()) {
                (Some("."), _) => break,
                (Some("launch"), _) => {
                    let value = num(f.next()) as u32;
                    let mut v = [0; 6];
                    for x in &mut v {
                        *x = num(f.next());
                    }
                    marks.push((value, v, BTreeMap::new()));
                }
                (Some("lpc"), Some(m)) => {
                    let pc = num(f.next()) as u32;
                    m.2.insert(pc, [num(f.next()), num(f.next()), num(f.next())]);
                }
                _ => {
                    return Err(Error::Tool(format!(
                        "the RTL testbench's launch marks: `{l}`"
                    )))
                }
            }
        }
        Ok(marks)
    }

    /// The instructions at the pcs of `pcs`, read from memory, and what they did.
    fn tally(&self, pcs: &PcCounts) -> Tally {
        let mut t = Tally {
            per_op: vec![0; weft_isa::TABLE.len()],
            ..Tally::default()
        };
        for (&pc, &[n, threads, trapped]) in pcs {
            let mut w = [0u8; 4];
            let inst = self.read_bytes(pc, &mut w[..2]).ok().and_then(|_| {
                if Inst::len_of(u16::from_le_bytes([w[0], w[1]])) == 4 {
                    self.read_bytes(pc, &mut w).ok()?;
                }
                Inst::decode_exec(u32::from_le_bytes(w)).ok()
            });
            let Some(i) = inst else { continue };
            *t.classes
                .entry(format!("{:?}", i.op.class()).to_lowercase())
                .or_insert(0) += n;
            *t.mnemonics.entry(i.op.name().to_string()).or_insert(0) += n;
            t.per_op[i.op as usize] += n;
            let done = threads - trapped;
            match i.op.class() {
                Class::Load => t.loads += done,
                Class::Store => t.stores += done,
                Class::Atomic => t.atomics += done,
                _ => {}
            }
        }
        t
    }

    /// Each launch's figures, from the launch marks (`now`: the counters at the end).
    fn launches(&self, now: Counts) -> Result<Vec<LaunchReport>, Error> {
        let mut log = LaunchLog::default();
        for (value, v, pcs) in self.launch_marks()? {
            let t = self.tally(&pcs);
            let at = Counts {
                cycle: v[0],
                warp_instructions: v[1],
                thread_instructions: v[2],
                divergences: v[3],
                reconvergences: v[4],
                barrier_waits: v[5],
                loads: t.loads,
                stores: t.stores,
                atomics: t.atomics,
                per_op: t.per_op,
            };
            log.write(value, at);
        }
        let name = |pc| kernel_name(&self.symbols, pc);
        Ok(log.reports(&now, self.shape.lanes as u64, 1, name))
    }

    /// The statistics so far, in the functional model's report (`model`: "rtl"; `cycles`:
    /// clock cycles), and the issue slots.
    pub fn report(&self) -> Result<(Report, u64), Error> {
        let (clocks, slots, warps, pcs) = self.counters()?;
        let lanes = self.shape.lanes as u64;
        let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        let per_warp: Vec<WarpReport> = warps
            .iter()
            .enumerate()
            .map(|(w, v)| WarpReport {
                core: 0,
                warp: w,
                warp_instructions: v[0],
                thread_instructions: v[1],
                simd_efficiency: ratio(v[1], v[0] * lanes),
                divergences: v[2],
                reconvergences: v[3],
                max_divergence_depth: v[4],
                // the RTL's divergence stack does not spill (a deeper one is a fault)
                stack_spills: 0,
                stack_fills: 0,
                barrier_waits: v[5],
            })
            .collect();
        let t = self.tally(&pcs);
        let sum = |f: fn(&WarpReport) -> u64| per_warp.iter().map(f).sum::<u64>();
        let (wi, ti) = (sum(|w| w.warp_instructions), sum(|w| w.thread_instructions));
        let (divergences, reconvergences) = (sum(|w| w.divergences), sum(|w| w.reconvergences));
        let now = Counts {
            cycle: clocks,
            warp_instructions: wi,
            thread_instructions: ti,
            divergences,
            reconvergences,
            barrier_waits: sum(|w| w.barrier_waits),
            loads: t.loads,
            stores: t.stores,
            atomics: t.atomics,
            per_op: t.per_op,
        };
        let launches = self.launches(now)?;
        let r = Report {
            model: "rtl",
            cores: 1,
            warps: self.shape.warps,
            lanes: self.shape.lanes,
            reconvergence: self.mode.name(),
            cycles: clocks,
            warp_instructions: wi,
            thread_instructions: ti,
            simd_efficiency: ratio(ti, wi * lanes),
            ipc: ratio(wi, clocks),
            divergences,
            reconvergences,
            max_divergence_depth: per_warp
                .iter()
                .map(|w| w.max_divergence_depth)
                .max()
                .unwrap_or(0),
            loads: t.loads,
            stores: t.stores,
            atomics: t.atomics,
            classes: t.classes,
            mnemonics: t.mnemonics,
            per_warp,
            stack_spills: 0,
            stack_fills: 0,
            display: Default::default(),
            dma: Default::default(),
            dxa: Default::default(),
            launches,
        };
        Ok((r, slots))
    }
}

impl Device for RtlDevice {
    fn kind(&self) -> &'static str {
        "rtl"
    }

    fn run(&mut self, max_cycles: u64) -> Stop {
        if let Some(e) = &self.end {
            return Stop::End(e.clone());
        }
        let budget = max_cycles.saturating_sub(self.clocks);
        let end = match self.go(budget) {
            Ok(Some(e)) => e,
            Ok(None) => return Stop::End(RunEnd::CycleLimit(self.clocks)),
            Err(e) => RunEnd::Fault(FaultInfo {
                code: FaultCode::IllegalInstruction,
                core: 0,
                warp: 0,
                lanes: 0,
                pc: 0,
                addr: None,
                detail: e.to_string(),
            }),
        };
        self.end = Some(end.clone());
        Stop::End(end)
    }

    fn cycles(&self) -> u64 {
        self.clocks
    }

    fn take_console(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.console)
    }

    fn read_bytes(&self, addr: u32, buf: &mut [u8]) -> Result<(), MemError> {
        let outside = |why: &str| MemError::Outside {
            addr,
            len: buf.len(),
            why: why.into(),
        };
        let a = self
            .io
            .borrow_mut()
            .ask(&format!("R {addr:x} {:x}", buf.len()))
            .map_err(|e| outside(&e.to_string()))?;
        match a.strip_prefix("D ") {
            Some(h) if h.len() == 2 * buf.len() => {
                buf.copy_from_slice(&unhex(h));
                Ok(())
            }
            _ if buf.is_empty() => Ok(()),
            _ => Err(outside("not in the RTL's DRAM")),
        }
    }

    fn write_bytes(&mut self, addr: u32, data: &[u8]) -> Result<(), MemError> {
        self.write(addr, data).map_err(|e| MemError::Outside {
            addr,
            len: data.len(),
            why: e.to_string(),
        })
    }

    /// The report (as the functional model's JSON, `model` "rtl", `cycles` the RTL's clock
    /// cycles) with `issue_slots`.
    fn stats_json(&self) -> serde_json::Value {
        match self.report() {
            Ok((r, slots)) => {
                let mut v = serde_json::to_value(r).unwrap_or_default();
                v["issue_slots"] = slots.into();
                v
            }
            Err(e) => serde_json::json!({ "model": "rtl", "error": e.to_string() }),
        }
    }
}
