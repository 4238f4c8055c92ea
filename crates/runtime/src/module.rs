//! Several kernel programs on one device. Every program `weft cc` builds is linked at the
//! start of DRAM and followed by its lanes' stacks and its heap (`device/lib/link.ld`), so the
//! programs of a device share those addresses and take turns: one is *resident*, and a launch
//! of another kernel's program first swaps its image in. A swap keeps the outgoing program's
//! initialised data (`.data`, read back from the device), writes the incoming program's
//! segments, and decodes its code afresh with its own reconvergence table (entries of the
//! outgoing table it does not have are cleared, so no branch of one program reconverges by
//! the other's table). The host's buffers lie above the device region of every loaded
//! program, so a swap never touches them: buffers are shared by all of a device's programs.

use crate::{device_heap_bytes, Result, RuntimeError};
use weft_simt::{Program, Reconv};

/// A program loaded on a device, named by [`crate::Device::load`]'s answer. [`ModuleId::MAIN`]
/// is the program the device was opened with (the default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ModuleId(pub(crate) usize);

impl ModuleId {
    /// The program the device was opened with.
    pub const MAIN: ModuleId = ModuleId(0);

    /// The program at `index` in load order (a launch naming one the device does not have
    /// is refused).
    pub fn new(index: usize) -> ModuleId {
        ModuleId(index)
    }

    /// Its place among the device's programs, in load order (0: the one it was opened with).
    pub fn index(self) -> usize {
        self.0
    }
}

/// One program of a device: its image (with its initialised data as it last stood on the
/// device), the symbols the runtime needs, and where its device region ends.
pub(crate) struct Module {
    pub(crate) prog: Program,
    pub(crate) entry: u32,
    pub(crate) mailbox: u32,
    pub(crate) kernels: Vec<(String, u32)>,
    /// The end of its program, stacks and heap: host memory begins at or above it.
    pub(crate) end: u64,
    /// Its executable address ranges `[start, end)`.
    pub(crate) exec: Vec<(u32, u32)>,
    /// Its DWARF line table (`weft cc -g`), for the step-through page.
    pub(crate) lines: Option<weft_view::dwarf::LineTable>,
}

impl Module {
    /// A program built by `weft cc` for a machine of `harts` lanes on `cores` cores.
    pub(crate) fn from_elf(elf: &[u8], harts: u64, cores: usize) -> Result<Module> {
        let img = weft_elf::read_elf(elf).map_err(|e| RuntimeError::Load(e.to_string()))?;
        let sym = |name: &str| img.symbols.iter().find(|s| s.name == name).map(|s| s.value);
        let (Some(mailbox), Some(stacks), Some(stack_size)) = (
            sym("__weft_mailbox"),
            sym("__weft_stacks"),
            sym("__weft_stack_size"),
        ) else {
            return Err(RuntimeError::Load(
                "the program was not built by weft cc (no __weft_mailbox or stack symbols)".into(),
            ));
        };
        let kernels = img
            .symbols
            .iter()
            .filter(|s| s.kind == weft_elf::SymbolKind::Func && !s.name.is_empty())
            .map(|s| (s.name.clone(), s.value))
            .collect();
        let (prog, _) = weft_simt::load::program_from_elf(elf)
            .map_err(|e| RuntimeError::Load(e.to_string()))?;
        let end = stacks as u64 + harts * stack_size as u64 + device_heap_bytes(cores, stack_size);
        let exec = prog
            .segments
            .iter()
            .filter(|s| s.exec)
            .map(|s| (s.addr, s.addr.saturating_add(s.mem_size)))
            .collect();
        // A line table that does not parse only costs the page its source lines.
        let lines = weft_view::dwarf::LineTable::from_elf(elf).ok().flatten();
        Ok(Module {
            entry: prog.entry,
            prog,
            mailbox,
            kernels,
            end,
            exec,
            lines,
        })
    }

    /// The device address of kernel `name`.
    pub(crate) fn kernel(&self, name: &str) -> Result<u32> {
        self.kernels
            .iter()
            .find(|(n, _)| n == name)
            .map(|&(_, a)| a)
            .ok_or_else(|| RuntimeError::NoSuchKernel(name.into()))
    }

    /// Keep this (outgoing) program's initialised data as it stands on the device: the file
    /// bytes of its writable segments (its `.bss` is cleared at every launch anyway).
    pub(crate) fn save_data(&mut self, read: impl Fn(u32, &mut [u8]) -> Result<()>) -> Result<()> {
        for s in self.prog.segments.iter_mut().filter(|s| !s.exec) {
            read(s.addr, &mut s.data)?;
        }
        Ok(())
    }

    /// This program's image to load over `outgoing`'s: its own reconvergence table, with
    /// every branch of `outgoing`'s table it has no entry for cleared.
    pub(crate) fn image_over(&self, outgoing: &Module) -> Program {
        let mut p = self.prog.clone();
        for &pc in outgoing.prog.reconv.keys() {
            p.reconv.entry(pc).or_insert(Reconv::None);
        }
        p
    }
}
