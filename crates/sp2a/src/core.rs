//! One Shader Processor v2a core: registers, PC, Harvard memories, local bus, DMA unit.
//!
//! Timing model: one instruction retires per cycle (the seed's 4-stage pipeline has no
//! hazards visible to software: no delay slot, no flags), and the core's DMA engine ticks
//! once per cycle beside it. Reset: all registers 0 except `%H` = top of data RAM
//! (`dmem_words - 1`), PC = 0.
//!
//! Memory map (data side): 0x0000..dmem_words is RAM; 0xFF00–0xFFFF is the local bus
//! ([`crate::bus`]); anything else faults. The instruction side holds `imem_words` words;
//! fetching beyond faults. Effective addresses are 16 bits (`B + sext(IMM)` wraps).

use crate::bus::{self, Access, BusReg, BUS_BASE};
use crate::isa::{Instr, Op, Reg};
use crate::program::Program;
use std::rc::Rc;
use thiserror::Error;
use weft_device::FaultCode;
use weft_fb::{DmaEngine, DmaError, DmaStats, DmaTiming, Framebuffer, DMA_REGS};

/// Sizes and timing of one core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoreConfig {
    /// Implemented data RAM in dwords (at most 0xFF00, below the bus window).
    pub dmem_words: usize,
    /// Implemented instruction RAM in words (at most 65536).
    pub imem_words: usize,
    /// DMA engine timing.
    pub dma: DmaTiming,
}

impl Default for CoreConfig {
    fn default() -> Self {
        CoreConfig {
            dmem_words: 16384,
            imem_words: 16384,
            dma: DmaTiming::default(),
        }
    }
}

/// An architectural fault: the run stops, naming the core and PC.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fault {
    /// PC points outside instruction RAM.
    #[error("core {core}: PC 0x{pc:04X} is outside the {size}-word instruction memory")]
    BadPc {
        /// Core index.
        core: usize,
        /// The PC.
        pc: u16,
        /// Instruction RAM size.
        size: usize,
    },
    /// The word at PC has an unassigned opcode.
    #[error("core {core}: illegal instruction 0x{word:08X} at PC 0x{pc:04X}")]
    Illegal {
        /// Core index.
        core: usize,
        /// The PC.
        pc: u16,
        /// The word.
        word: u32,
    },
    /// A load or store outside data RAM and the bus window.
    #[error("core {core}: {} address 0x{addr:04X} is outside the {size}-dword data memory (PC 0x{pc:04X})", if *.write { "store to" } else { "load from" })]
    DataRange {
        /// Core index.
        core: usize,
        /// The PC.
        pc: u16,
        /// Effective address.
        addr: u16,
        /// Data RAM size.
        size: usize,
        /// Store (true) or load.
        write: bool,
    },
    /// An access to a bus address with no register.
    #[error("core {core}: no local-bus register at 0x{addr:04X} (PC 0x{pc:04X})")]
    UnmappedBus {
        /// Core index.
        core: usize,
        /// The PC.
        pc: u16,
        /// Effective address.
        addr: u16,
        /// Store (true) or load.
        write: bool,
    },
    /// A store to a read-only bus register.
    #[error("core {core}: store to read-only bus register {name} (PC 0x{pc:04X})")]
    ReadOnlyBus {
        /// Core index.
        core: usize,
        /// The PC.
        pc: u16,
        /// Register name.
        name: &'static str,
    },
    /// A DMA trigger was refused.
    #[error("core {core}: {source} (PC 0x{pc:04X})")]
    Dma {
        /// Core index.
        core: usize,
        /// The PC.
        pc: u16,
        /// Why.
        source: DmaError,
    },
}

impl Fault {
    /// The fault in the form every weft machine reports ([`weft_device::FaultInfo`]), named by
    /// the nearest [`FaultCode`]: a bad PC is a fetch fault, an access outside data RAM or the
    /// bus a load or store fault, a refused DMA trigger a store fault. The message is the
    /// detail.
    pub fn info(&self) -> weft_device::FaultInfo {
        let (core, addr, code) = match *self {
            Fault::BadPc { core, .. } => (core, None, FaultCode::FetchFault),
            Fault::Illegal { core, .. } => (core, None, FaultCode::IllegalInstruction),
            Fault::DataRange {
                core, addr, write, ..
            }
            | Fault::UnmappedBus {
                core, addr, write, ..
            } => (
                core,
                Some(u32::from(addr)),
                if write {
                    FaultCode::StoreFault
                } else {
                    FaultCode::LoadFault
                },
            ),
            Fault::ReadOnlyBus { core, .. } | Fault::Dma { core, .. } => {
                (core, None, FaultCode::StoreFault)
            }
        };
        weft_device::FaultInfo {
            code,
            core,
            warp: 0,
            lanes: 1,
            pc: u32::from(self.pc()),
            addr,
            detail: self.to_string(),
        }
    }

    /// The PC of the faulting instruction.
    pub fn pc(&self) -> u16 {
        match self {
            Fault::BadPc { pc, .. }
            | Fault::Illegal { pc, .. }
            | Fault::DataRange { pc, .. }
            | Fault::UnmappedBus { pc, .. }
            | Fault::ReadOnlyBus { pc, .. }
            | Fault::Dma { pc, .. } => *pc,
        }
    }
}

/// A program that does not fit the configured core.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SetupError {
    /// Text larger than instruction RAM.
    #[error("program text is {len} words; the instruction memory holds {size}")]
    TextTooBig {
        /// Program words.
        len: usize,
        /// RAM size.
        size: usize,
    },
    /// Data image larger than data RAM.
    #[error("program data is {len} dwords; the data memory holds {size}")]
    DataTooBig {
        /// Program dwords.
        len: usize,
        /// RAM size.
        size: usize,
    },
    /// A configuration value out of range.
    #[error("bad configuration: {0}")]
    Config(String),
}

/// What the core's environment provides during one step.
pub struct BusCtx<'a> {
    /// The framebuffer (width, height and length are visible on the bus).
    pub fb: &'a Framebuffer,
    /// Number of cores in the array.
    pub core_count: usize,
    /// Current array cycle.
    pub cycle: u64,
    /// Console output.
    pub console: &'a mut Vec<u8>,
    /// Set when the program asks for a frame snapshot.
    pub frame: &'a mut bool,
}

/// Per-core counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoreStats {
    /// Instructions retired.
    pub instructions: u64,
    /// Retired count per opcode.
    pub per_opcode: [u64; 128],
    /// Reads of DMA_CTRL that returned busy.
    pub busy_polls: u64,
    /// Cycles from the first busy poll to the idle poll that ended each wait.
    pub busy_wait_cycles: u64,
    wait_start: Option<u64>,
}

impl Default for CoreStats {
    fn default() -> Self {
        CoreStats {
            instructions: 0,
            per_opcode: [0; 128],
            busy_polls: 0,
            busy_wait_cycles: 0,
            wait_start: None,
        }
    }
}

/// Shared, pre-decoded instruction memory.
#[derive(Debug)]
pub struct Code {
    words: Vec<u32>,
    decoded: Vec<Option<Instr>>,
}

impl Code {
    /// Load `text` into an instruction memory of `size` words.
    pub fn new(text: &[u32], size: usize) -> Result<Code, SetupError> {
        if size == 0 || size > 65536 {
            return Err(SetupError::Config(format!(
                "instruction memory of {size} words (1..=65536)"
            )));
        }
        if text.len() > size {
            return Err(SetupError::TextTooBig {
                len: text.len(),
                size,
            });
        }
        let mut words = text.to_vec();
        words.resize(size, 0);
        let decoded = words.iter().map(|&w| Instr::decode(w).ok()).collect();
        Ok(Code { words, decoded })
    }
}

/// One shader processor.
#[derive(Debug)]
pub struct Core {
    index: usize,
    regs: [u32; 8],
    pc: u16,
    code: Rc<Code>,
    dmem: Vec<u32>,
    dma: DmaEngine,
    halted: Option<u32>,
    stats: CoreStats,
}

impl Core {
    /// A core at reset with `program` loaded (its text is shared through `code`).
    pub fn new(
        index: usize,
        code: Rc<Code>,
        program: &Program,
        config: &CoreConfig,
    ) -> Result<Core, SetupError> {
        let size = config.dmem_words;
        if size == 0 || size > usize::from(BUS_BASE) {
            return Err(SetupError::Config(format!(
                "data memory of {size} dwords (1..=0xFF00)"
            )));
        }
        if program.data.len() > size {
            return Err(SetupError::DataTooBig {
                len: program.data.len(),
                size,
            });
        }
        let mut dmem = program.data.clone();
        dmem.resize(size, 0);
        let mut regs = [0; 8];
        regs[Reg::H.idx()] = size as u32 - 1;
        Ok(Core {
            index,
            regs,
            pc: 0,
            code,
            dmem,
            dma: DmaEngine::new(config.dma),
            halted: None,
            stats: CoreStats::default(),
        })
    }

    /// This core's index.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The register file.
    pub fn regs(&self) -> &[u32; 8] {
        &self.regs
    }

    /// Set a register (for tests and hosts).
    pub fn set_reg(&mut self, r: Reg, v: u32) {
        self.regs[r.idx()] = v;
    }

    /// The program counter.
    pub fn pc(&self) -> u16 {
        self.pc
    }

    /// Data memory.
    pub fn dmem(&self) -> &[u32] {
        &self.dmem
    }

    /// Data memory, mutable.
    pub fn dmem_mut(&mut self) -> &mut [u32] {
        &mut self.dmem
    }

    /// The exit code written to HALT, once halted.
    pub fn halted(&self) -> Option<u32> {
        self.halted
    }

    /// Whether the DMA engine has work.
    pub fn dma_busy(&self) -> bool {
        self.dma.busy()
    }

    /// Counters.
    pub fn stats(&self) -> &CoreStats {
        &self.stats
    }

    /// DMA counters.
    pub fn dma_stats(&self) -> DmaStats {
        self.dma.stats()
    }

    /// Advance the DMA engine one cycle.
    pub fn tick_dma(&mut self, fb: &mut Framebuffer) {
        self.dma.tick(&mut self.dmem, fb);
    }

    /// Execute one instruction; returns its PC and the instruction.
    pub fn step(&mut self, ctx: &mut BusCtx<'_>) -> Result<(u16, Instr), Fault> {
        let pc = self.pc;
        let core = self.index;
        let Some(slot) = self.code.decoded.get(usize::from(pc)) else {
            return Err(Fault::BadPc {
                core,
                pc,
                size: self.code.words.len(),
            });
        };
        let Some(i) = *slot else {
            let word = self.code.words.get(usize::from(pc)).copied().unwrap_or(0);
            return Err(Fault::Illegal { core, pc, word });
        };
        let a = self.regs[i.a.idx()];
        let b = self.regs[i.b.idx()];
        let mut next = pc.wrapping_add(1);
        let write = |regs: &mut [u32; 8], v: u32| regs[i.d.idx()] = v;
        let bit = u32::from(i.imm) & 31;
        match i.op {
            Op::Nop => {}
            Op::Lui => write(&mut self.regs, (a & 0xFFFF) | (u32::from(i.imm) << 16)),
            Op::Lli => write(&mut self.regs, (a & 0xFFFF_0000) | u32::from(i.imm)),
            Op::Add => write(&mut self.regs, a.wrapping_add(b)),
            Op::Sub => write(&mut self.regs, a.wrapping_sub(b)),
            Op::Addi => write(&mut self.regs, a.wrapping_add(i.simm())),
            Op::Mul => write(&mut self.regs, (a & 0xFFFF) * (b & 0xFFFF)),
            Op::Cmp => write(&mut self.regs, compare(a, b)),
            Op::And => write(&mut self.regs, a & b),
            Op::Or => write(&mut self.regs, a | b),
            Op::Xor => write(&mut self.regs, a ^ b),
            Op::Not => write(&mut self.regs, !a),
            Op::Bset => write(&mut self.regs, a | (1 << bit)),
            Op::Bclr => write(&mut self.regs, a & !(1 << bit)),
            Op::Shl => write(&mut self.regs, a << bit),
            Op::Shr => write(&mut self.regs, a >> bit),
            Op::St => self.store(pc, i.imm, a, ctx)?,
            Op::Str => self.store(pc, b.wrapping_add(i.simm()) as u16, a, ctx)?,
            Op::Ld => {
                let v = self.load(pc, i.imm, ctx)?;
                self.regs[i.d.idx()] = v;
            }
            Op::Ldr => {
                let v = self.load(pc, b.wrapping_add(i.simm()) as u16, ctx)?;
                self.regs[i.d.idx()] = v;
            }
            Op::Skz if a == 0 => next = pc.wrapping_add(2),
            Op::Sknz if a != 0 => next = pc.wrapping_add(2),
            Op::Skbs if a & (1 << bit) != 0 => next = pc.wrapping_add(2),
            Op::Skbc if a & (1 << bit) == 0 => next = pc.wrapping_add(2),
            Op::Skz | Op::Sknz | Op::Skbs | Op::Skbc => {}
            Op::Jmp => next = i.imm,
            Op::Jmpr => next = a as u16,
        }
        self.pc = next;
        self.stats.instructions += 1;
        self.stats.per_opcode[usize::from(i.op.opcode())] += 1;
        Ok((pc, i))
    }

    fn load(&mut self, pc: u16, addr: u16, ctx: &mut BusCtx<'_>) -> Result<u32, Fault> {
        if addr >= BUS_BASE {
            return self.bus_read(pc, addr, ctx);
        }
        self.dmem
            .get(usize::from(addr))
            .copied()
            .ok_or(Fault::DataRange {
                core: self.index,
                pc,
                addr,
                size: self.dmem.len(),
                write: false,
            })
    }

    fn store(&mut self, pc: u16, addr: u16, v: u32, ctx: &mut BusCtx<'_>) -> Result<(), Fault> {
        if addr >= BUS_BASE {
            return self.bus_write(pc, addr, v, ctx);
        }
        let size = self.dmem.len();
        match self.dmem.get_mut(usize::from(addr)) {
            Some(slot) => {
                *slot = v;
                Ok(())
            }
            None => Err(Fault::DataRange {
                core: self.index,
                pc,
                addr,
                size,
                write: true,
            }),
        }
    }

    /// The bus register at data address `addr`, or the fault of an access to none.
    fn bus_reg(&self, pc: u16, addr: u16, write: bool) -> Result<(u8, &'static BusReg), Fault> {
        let off = (addr - BUS_BASE) as u8;
        let reg = bus::bus_reg(off).ok_or(Fault::UnmappedBus {
            core: self.index,
            pc,
            addr,
            write,
        })?;
        Ok((off, reg))
    }

    fn bus_read(&mut self, pc: u16, addr: u16, ctx: &mut BusCtx<'_>) -> Result<u32, Fault> {
        let (off, reg) = self.bus_reg(pc, addr, false)?;
        let core = self.index;
        if reg.access == Access::WriteOnly {
            return Ok(0);
        }
        Ok(match off {
            o if usize::from(o) <= DMA_REGS => {
                let v = self
                    .dma
                    .read_reg(usize::from(o))
                    .map_err(|source| Fault::Dma { core, pc, source })?;
                if usize::from(o) == DMA_REGS {
                    if v != 0 {
                        self.stats.busy_polls += 1;
                        self.stats.wait_start.get_or_insert(ctx.cycle);
                    } else if let Some(start) = self.stats.wait_start.take() {
                        self.stats.busy_wait_cycles += ctx.cycle - start;
                    }
                }
                v
            }
            bus::CORE_INDEX => core as u32,
            bus::CORE_COUNT => ctx.core_count as u32,
            bus::FB_WIDTH => ctx.fb.width(),
            bus::FB_HEIGHT => ctx.fb.height(),
            bus::CYCLE_LO => ctx.cycle as u32,
            bus::CYCLE_HI => (ctx.cycle >> 32) as u32,
            _ => 0,
        })
    }

    fn bus_write(&mut self, pc: u16, addr: u16, v: u32, ctx: &mut BusCtx<'_>) -> Result<(), Fault> {
        let (off, reg) = self.bus_reg(pc, addr, true)?;
        let core = self.index;
        if reg.access == Access::ReadOnly {
            return Err(Fault::ReadOnlyBus {
                core,
                pc,
                name: reg.name,
            });
        }
        match off {
            o if usize::from(o) <= DMA_REGS => self
                .dma
                .write_reg(usize::from(o), v, self.dmem.len(), ctx.fb.len())
                .map_err(|source| Fault::Dma { core, pc, source })?,
            bus::HALT => self.halted = Some(v),
            bus::FRAME => *ctx.frame = true,
            bus::PUTC => ctx.console.push(v as u8),
            bus::PUTDEC => ctx
                .console
                .extend_from_slice((v as i32).to_string().as_bytes()),
            bus::PUTHEX => ctx.console.extend_from_slice(format!("{v:08X}").as_bytes()),
            _ => {}
        }
        Ok(())
    }
}

/// The CMP result bits.
pub fn compare(a: u32, b: u32) -> u32 {
    let (sa, sb) = (a as i32, b as i32);
    u32::from(a == b)
        | u32::from(a > b) << 1
        | u32::from(sa > sb) << 2
        | u32::from(a < b) << 3
        | u32::from(sa < sb) << 4
}
