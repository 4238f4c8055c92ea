//! CSR names and numbers: the standard RISC-V CSRs weft implements, Vortex's identity CSRs
//! (with Vortex's numbers, so Vortex code reads the right value), and weft's warp-core bank
//! at 0x800–0x8FF (warp scheduler, cross-warp window, watchdog, breakpoints, display).
//!
//! The simulator gives each CSR its behaviour; this table is the naming contract shared by the
//! assembler, the disassembler, the simulator and `docs/isa.md`.

/// Who may access a CSR and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Read and write.
    ReadWrite,
    /// Read only: writes are an illegal-instruction fault.
    ReadOnly,
}

/// One named CSR.
#[derive(Clone, Copy, Debug)]
pub struct CsrInfo {
    /// Number (12 bits).
    pub num: u16,
    /// Assembly name.
    pub name: &'static str,
    /// Access rights.
    pub access: Access,
    /// Scope and meaning, one line (used by `docs/isa.md`).
    pub doc: &'static str,
}

macro_rules! csrs {
    ($( $konst:ident = $num:literal, $name:literal, $acc:ident, $doc:literal; )*) => {
        $( #[doc = $doc] pub const $konst: u16 = $num; )*
        /// Every named CSR, in listing order.
        pub static CSRS: &[CsrInfo] = &[
            $( CsrInfo { num: $num, name: $name, access: Access::$acc, doc: $doc }, )*
        ];
    };
}

/// First CSR of the cross-warp window: `XW_BASE + k` reads CSR `0x800 + k` of the warp selected
/// by `xwarp`, without side effects.
pub const XW_BASE: u16 = 0x840;
/// Number of warp-core CSRs mirrored by the cross-warp window.
pub const XW_SPAN: u16 = 0x20;

csrs! {
    FFLAGS = 0x001, "fflags", ReadWrite, "per lane: accrued floating-point exception flags (NV DZ OF UF NX)";
    FRM = 0x002, "frm", ReadWrite, "per lane: dynamic rounding mode";
    FCSR = 0x003, "fcsr", ReadWrite, "per lane: frm << 5 | fflags";
    MSTATUS = 0x300, "mstatus", ReadWrite, "per warp: machine status: MIE, MPIE and FS writable (FS = Off makes float instructions illegal; any float instruction makes it Dirty), MPP reads M, SD = FS is Dirty";
    MISA = 0x301, "misa", ReadWrite, "machine ISA: RV32IMAFC (WARL: writes are ignored)";
    MEDELEG = 0x302, "medeleg", ReadWrite, "per warp: read as written, no effect (no S-mode)";
    MIDELEG = 0x303, "mideleg", ReadWrite, "per warp: read as written, no effect (no S-mode)";
    MIE = 0x304, "mie", ReadWrite, "per warp: interrupt enables (the watchdog SOFT interrupt is bit 16)";
    MTVEC = 0x305, "mtvec", ReadWrite, "per warp: trap vector (direct mode only: the mode bits read 0); 0 = traps are faults";
    MSCRATCH = 0x340, "mscratch", ReadWrite, "per warp: scratch (Vortex: kernel-argument pointer)";
    MEPC = 0x341, "mepc", ReadWrite, "per warp: pc of the trapping instruction";
    MCAUSE = 0x342, "mcause", ReadWrite, "per warp: trap cause";
    MTVAL = 0x343, "mtval", ReadWrite, "per warp: trap value (address or instruction)";
    MIP = 0x344, "mip", ReadWrite, "per warp: pending interrupts";
    SATP = 0x180, "satp", ReadWrite, "reads 0, writes ignored (no virtual memory)";
    PMPCFG0 = 0x3a0, "pmpcfg0", ReadWrite, "reads 0, writes ignored (no PMP)";
    PMPADDR0 = 0x3b0, "pmpaddr0", ReadWrite, "reads 0, writes ignored (no PMP)";
    TSELECT = 0x7a0, "tselect", ReadWrite, "reads 0, writes ignored (no debug triggers)";
    TDATA1 = 0x7a1, "tdata1", ReadWrite, "reads 0 (no trigger), writes ignored";
    TDATA2 = 0x7a2, "tdata2", ReadWrite, "reads 0, writes ignored (no debug triggers)";
    TDATA3 = 0x7a3, "tdata3", ReadWrite, "reads 0, writes ignored (no debug triggers)";
    MCYCLE = 0xb00, "mcycle", ReadWrite, "per core: cycles (low half); writable";
    MINSTRET = 0xb02, "minstret", ReadWrite, "per core: warp-instructions retired before this one (low half); writable (the writing instruction does not count)";
    MCYCLEH = 0xb80, "mcycleh", ReadWrite, "per core: cycles (high half); writable";
    MINSTRETH = 0xb82, "minstreth", ReadWrite, "per core: warp-instructions retired before this one (high half); writable";
    CYCLE = 0xc00, "cycle", ReadOnly, "per core: cycles (low half)";
    TIME = 0xc01, "time", ReadOnly, "per core: same as cycle";
    INSTRET = 0xc02, "instret", ReadOnly, "per core: warp-instructions retired (low half)";
    CYCLEH = 0xc80, "cycleh", ReadOnly, "per core: cycles (high half)";
    TIMEH = 0xc81, "timeh", ReadOnly, "per core: same as cycleh";
    INSTRETH = 0xc82, "instreth", ReadOnly, "per core: warp-instructions retired (high half)";
    THREAD_ID = 0xcc0, "thread_id", ReadOnly, "per lane: lane index within the warp (Vortex number)";
    WARP_ID = 0xcc1, "warp_id", ReadOnly, "per warp: warp index within the core (Vortex number)";
    CORE_ID = 0xcc2, "core_id", ReadOnly, "per core: core index (Vortex number)";
    ACTIVE_WARPS = 0xcc3, "active_warps", ReadOnly, "per core: bitmask of running warps (Vortex number)";
    THREAD_MASK = 0xcc4, "thread_mask", ReadOnly, "per warp: the current thread mask (Vortex number)";
    MVENDORID = 0xf11, "mvendorid", ReadOnly, "0";
    MARCHID = 0xf12, "marchid", ReadOnly, "0x77656674 ('weft')";
    MIMPID = 0xf13, "mimpid", ReadOnly, "implementation version";
    MHARTID = 0xf14, "mhartid", ReadOnly, "per lane: (core * warps + warp) * lanes + lane";
    NUM_THREADS = 0xfc0, "num_threads", ReadOnly, "lanes per warp (Vortex number)";
    NUM_WARPS = 0xfc1, "num_warps", ReadOnly, "warps per core (Vortex number)";
    NUM_CORES = 0xfc2, "num_cores", ReadOnly, "cores (Vortex number)";
    LOCAL_MEM_BASE = 0xfc3, "local_mem_base", ReadOnly, "base address of this core's shared memory (Vortex number)";
    NUM_BARRIERS = 0xfc4, "num_barriers", ReadOnly, "barriers per core (Vortex number)";
    WARP_ACTIVE = 0x800, "warp_active", ReadWrite, "per core: bitmask of running warps; a write activates the set bits only (activate-only); a warp writing its own bit restarts at spawn_pc after an implicit fence";
    WARP_DONE = 0x801, "warp_done", ReadWrite, "per core: bitmask of warps that halted since last read; a local read clears it (read-clear); writes clear the written bits";
    SPAWN_PC = 0x802, "spawn_pc", ReadWrite, "per core: entry point for warps activated through warp_active";
    SPAWN_ARGS = 0x803, "spawn_args", ReadWrite, "per core: value placed in a0 of every lane of an activated warp";
    TMASK = 0x804, "tmask", ReadWrite, "per warp: thread mask; writing 0 halts the warp and sets its warp_done bit";
    BARRIER = 0x805, "barrier", ReadWrite, "per core: write (count << 16 | id) to wait at barrier id until count warps arrive; read gives the number of barriers";
    WATCHDOG = 0x806, "watchdog", ReadWrite, "per warp: bits 1:0 mode (0 DISABLED, 1 HARD, 2 SOFT); bit 31 expired (sticky, write 0 to clear)";
    WATCHDOG_LIMIT = 0x807, "watchdog_limit", ReadWrite, "per warp: cycles allowed since the last write to watchdog (a kick) before it fires";
    BREAK_PC = 0x808, "break_pc", ReadWrite, "per warp: breakpoint address (0 = off); the one CSR writable across warps";
    FAULT_CODE = 0x809, "fault_code", ReadOnly, "per warp: code of the last fault (0 = none)";
    FAULT_PC = 0x80a, "fault_pc", ReadOnly, "per warp: pc of the last fault";
    FAULT_ADDR = 0x80b, "fault_addr", ReadOnly, "per warp: memory address of the last memory fault";
    SCANLINE = 0x80c, "scanline", ReadOnly, "per core: current line of the display timing model";
    DISPLAY_FRAMES = 0x80d, "display_frames", ReadOnly, "per core: vblanks counted while at least one warp was active (hardware-only, monotonic)";
    CYCLE_LO = 0x80e, "cycle_lo", ReadOnly, "per warp: low half of the 64-bit cycle counter; a local read latches the high half into cycle_hi";
    CYCLE_HI = 0x80f, "cycle_hi", ReadOnly, "per warp: the high half latched by the last local read of cycle_lo";
    XWARP = 0x810, "xwarp", ReadWrite, "per warp: which warp the cross-warp window (xw_*) observes";
    WARP_PC = 0x811, "warp_pc", ReadOnly, "per warp: the pc of this instruction (meaningful through xw_warp_pc)";
    DSTACK_DEPTH = 0x812, "dstack_depth", ReadOnly, "per warp: divergence stack depth";
    XW_WARP_ACTIVE = 0x840, "xw_warp_active", ReadOnly, "cross-warp window: warp_active seen from the selected warp";
    XW_WARP_DONE = 0x841, "xw_warp_done", ReadOnly, "cross-warp window: warp_done, read without clearing";
    XW_TMASK = 0x844, "xw_tmask", ReadOnly, "cross-warp window: the selected warp's thread mask";
    XW_WATCHDOG = 0x846, "xw_watchdog", ReadOnly, "cross-warp window: the selected warp's watchdog";
    XW_BREAK_PC = 0x848, "xw_break_pc", ReadWrite, "cross-warp window: the selected warp's break_pc (writable: the one cross-warp write)";
    XW_FAULT_CODE = 0x849, "xw_fault_code", ReadOnly, "cross-warp window: the selected warp's fault_code";
    XW_FAULT_PC = 0x84a, "xw_fault_pc", ReadOnly, "cross-warp window: the selected warp's fault_pc";
    XW_FAULT_ADDR = 0x84b, "xw_fault_addr", ReadOnly, "cross-warp window: the selected warp's fault_addr";
    XW_CYCLE_LO = 0x84e, "xw_cycle_lo", ReadOnly, "cross-warp window: cycle_lo without latching";
    XW_CYCLE_HI = 0x84f, "xw_cycle_hi", ReadOnly, "cross-warp window: the selected warp's latched cycle_hi";
    XW_WARP_PC = 0x851, "xw_warp_pc", ReadOnly, "cross-warp window: the selected warp's pc";
    XW_DSTACK_DEPTH = 0x852, "xw_dstack_depth", ReadOnly, "cross-warp window: the selected warp's divergence stack depth";
}

/// Look a CSR up by name.
pub fn csr_by_name(name: &str) -> Option<u16> {
    CSRS.iter().find(|c| c.name == name).map(|c| c.num)
}

/// The name of a CSR number, if it has one.
pub fn csr_name(num: u16) -> Option<&'static str> {
    CSRS.iter().find(|c| c.num == num).map(|c| c.name)
}

/// Information about a CSR number, if it is named.
pub fn csr_info(num: u16) -> Option<&'static CsrInfo> {
    CSRS.iter().find(|c| c.num == num)
}
