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
    PMPCFG0 = 0x3a0, "pmpcfg0", ReadWrite, "per warp: PMP entries 0–3 (WARL: R, W, X and A per byte; L and bits 6:5 read 0; W reads 0 without R)";
    PMPCFG1 = 0x3a1, "pmpcfg1", ReadWrite, "per warp: PMP entries 4–7 (WARL: R, W, X and A per byte; L and bits 6:5 read 0; W reads 0 without R)";
    PMPCFG2 = 0x3a2, "pmpcfg2", ReadWrite, "per warp: PMP entries 8–11 (WARL: R, W, X and A per byte; L and bits 6:5 read 0; W reads 0 without R)";
    PMPCFG3 = 0x3a3, "pmpcfg3", ReadWrite, "per warp: PMP entries 12–15 (WARL: R, W, X and A per byte; L and bits 6:5 read 0; W reads 0 without R)";
    PMPADDR0 = 0x3b0, "pmpaddr0", ReadWrite, "per warp: PMP address 0 (WARL: all bits, 4-byte granularity)";
    PMPADDR1 = 0x3b1, "pmpaddr1", ReadWrite, "per warp: PMP address 1 (WARL: all bits, 4-byte granularity)";
    PMPADDR2 = 0x3b2, "pmpaddr2", ReadWrite, "per warp: PMP address 2 (WARL: all bits, 4-byte granularity)";
    PMPADDR3 = 0x3b3, "pmpaddr3", ReadWrite, "per warp: PMP address 3 (WARL: all bits, 4-byte granularity)";
    PMPADDR4 = 0x3b4, "pmpaddr4", ReadWrite, "per warp: PMP address 4 (WARL: all bits, 4-byte granularity)";
    PMPADDR5 = 0x3b5, "pmpaddr5", ReadWrite, "per warp: PMP address 5 (WARL: all bits, 4-byte granularity)";
    PMPADDR6 = 0x3b6, "pmpaddr6", ReadWrite, "per warp: PMP address 6 (WARL: all bits, 4-byte granularity)";
    PMPADDR7 = 0x3b7, "pmpaddr7", ReadWrite, "per warp: PMP address 7 (WARL: all bits, 4-byte granularity)";
    PMPADDR8 = 0x3b8, "pmpaddr8", ReadWrite, "per warp: PMP address 8 (WARL: all bits, 4-byte granularity)";
    PMPADDR9 = 0x3b9, "pmpaddr9", ReadWrite, "per warp: PMP address 9 (WARL: all bits, 4-byte granularity)";
    PMPADDR10 = 0x3ba, "pmpaddr10", ReadWrite, "per warp: PMP address 10 (WARL: all bits, 4-byte granularity)";
    PMPADDR11 = 0x3bb, "pmpaddr11", ReadWrite, "per warp: PMP address 11 (WARL: all bits, 4-byte granularity)";
    PMPADDR12 = 0x3bc, "pmpaddr12", ReadWrite, "per warp: PMP address 12 (WARL: all bits, 4-byte granularity)";
    PMPADDR13 = 0x3bd, "pmpaddr13", ReadWrite, "per warp: PMP address 13 (WARL: all bits, 4-byte granularity)";
    PMPADDR14 = 0x3be, "pmpaddr14", ReadWrite, "per warp: PMP address 14 (WARL: all bits, 4-byte granularity)";
    PMPADDR15 = 0x3bf, "pmpaddr15", ReadWrite, "per warp: PMP address 15 (WARL: all bits, 4-byte granularity)";
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
    MHPMCOUNTER3 = 0xb03, "mhpmcounter3", ReadOnly, "per core: thread-instructions retired before this one (low half)";
    MHPMCOUNTER3H = 0xb83, "mhpmcounter3h", ReadOnly, "per core: mhpmcounter3, high half";
    MHPMCOUNTER4 = 0xb04, "mhpmcounter4", ReadOnly, "per core: issue slots in which no warp issued (timing model) (low half)";
    MHPMCOUNTER4H = 0xb84, "mhpmcounter4h", ReadOnly, "per core: mhpmcounter4, high half";
    MHPMCOUNTER5 = 0xb05, "mhpmcounter5", ReadOnly, "per core: issue slots lost to fetch: I-cache miss, refill after a redirect, warp start (timing model) (low half)";
    MHPMCOUNTER5H = 0xb85, "mhpmcounter5h", ReadOnly, "per core: mhpmcounter5, high half";
    MHPMCOUNTER6 = 0xb06, "mhpmcounter6", ReadOnly, "per core: issue slots lost to the scoreboard: waiting on an ALU, MUL/DIV, FPU or CSR result (timing model) (low half)";
    MHPMCOUNTER6H = 0xb86, "mhpmcounter6h", ReadOnly, "per core: mhpmcounter6, high half";
    MHPMCOUNTER7 = 0xb07, "mhpmcounter7", ReadOnly, "per core: issue slots lost to a busy functional unit (timing model) (low half)";
    MHPMCOUNTER7H = 0xb87, "mhpmcounter7h", ReadOnly, "per core: mhpmcounter7, high half";
    MHPMCOUNTER8 = 0xb08, "mhpmcounter8", ReadOnly, "per core: issue slots lost to memory: a load's data, LSU or MSHRs full, a fence (timing model) (low half)";
    MHPMCOUNTER8H = 0xb88, "mhpmcounter8h", ReadOnly, "per core: mhpmcounter8, high half";
    MHPMCOUNTER9 = 0xb09, "mhpmcounter9", ReadOnly, "per core: issue slots lost to barriers and wspawn waits (timing model) (low half)";
    MHPMCOUNTER9H = 0xb89, "mhpmcounter9h", ReadOnly, "per core: mhpmcounter9, high half";
    MHPMCOUNTER10 = 0xb0a, "mhpmcounter10", ReadOnly, "per core: issue slots lost to divergence-stack push and pop (timing model) (low half)";
    MHPMCOUNTER10H = 0xb8a, "mhpmcounter10h", ReadOnly, "per core: mhpmcounter10, high half";
    MHPMCOUNTER11 = 0xb0b, "mhpmcounter11", ReadOnly, "per core: issue slots with no warp started on the core (timing model) (low half)";
    MHPMCOUNTER11H = 0xb8b, "mhpmcounter11h", ReadOnly, "per core: mhpmcounter11, high half";
    MHPMCOUNTER12 = 0xb0c, "mhpmcounter12", ReadOnly, "per core: L1 data cache accesses: line requests after coalescing (timing model) (low half)";
    MHPMCOUNTER12H = 0xb8c, "mhpmcounter12h", ReadOnly, "per core: mhpmcounter12, high half";
    MHPMCOUNTER13 = 0xb0d, "mhpmcounter13", ReadOnly, "per core: L1 data cache hits (timing model) (low half)";
    MHPMCOUNTER13H = 0xb8d, "mhpmcounter13h", ReadOnly, "per core: mhpmcounter13, high half";
    MHPMCOUNTER14 = 0xb0e, "mhpmcounter14", ReadOnly, "per core: L1 data cache misses (timing model) (low half)";
    MHPMCOUNTER14H = 0xb8e, "mhpmcounter14h", ReadOnly, "per core: mhpmcounter14, high half";
    MHPMCOUNTER15 = 0xb0f, "mhpmcounter15", ReadOnly, "per core: L1 misses merged into an outstanding MSHR (timing model) (low half)";
    MHPMCOUNTER15H = 0xb8f, "mhpmcounter15h", ReadOnly, "per core: mhpmcounter15, high half";
    MHPMCOUNTER16 = 0xb10, "mhpmcounter16", ReadOnly, "per core: shared-memory bank conflicts: extra cycles serialized (timing model) (low half)";
    MHPMCOUNTER16H = 0xb90, "mhpmcounter16h", ReadOnly, "per core: mhpmcounter16, high half";
    MHPMCOUNTER17 = 0xb11, "mhpmcounter17", ReadOnly, "per core: DRAM bytes read for this core (timing model) (low half)";
    MHPMCOUNTER17H = 0xb91, "mhpmcounter17h", ReadOnly, "per core: mhpmcounter17, high half";
    MHPMCOUNTER18 = 0xb12, "mhpmcounter18", ReadOnly, "per core: DRAM bytes written for this core (timing model) (low half)";
    MHPMCOUNTER18H = 0xb92, "mhpmcounter18h", ReadOnly, "per core: mhpmcounter18, high half";
    MHPMCOUNTER19 = 0xb13, "mhpmcounter19", ReadOnly, "per core: instruction cache misses (timing model) (low half)";
    MHPMCOUNTER19H = 0xb93, "mhpmcounter19h", ReadOnly, "per core: mhpmcounter19, high half";
    MHPMCOUNTER20 = 0xb14, "mhpmcounter20", ReadOnly, "per core: L1 data cache evictions (timing model) (low half)";
    MHPMCOUNTER20H = 0xb94, "mhpmcounter20h", ReadOnly, "per core: mhpmcounter20, high half";
    HPMCOUNTER3 = 0xc03, "hpmcounter3", ReadOnly, "per core: same as mhpmcounter3";
    HPMCOUNTER3H = 0xc83, "hpmcounter3h", ReadOnly, "per core: same as mhpmcounter3h";
    HPMCOUNTER4 = 0xc04, "hpmcounter4", ReadOnly, "per core: same as mhpmcounter4";
    HPMCOUNTER4H = 0xc84, "hpmcounter4h", ReadOnly, "per core: same as mhpmcounter4h";
    HPMCOUNTER5 = 0xc05, "hpmcounter5", ReadOnly, "per core: same as mhpmcounter5";
    HPMCOUNTER5H = 0xc85, "hpmcounter5h", ReadOnly, "per core: same as mhpmcounter5h";
    HPMCOUNTER6 = 0xc06, "hpmcounter6", ReadOnly, "per core: same as mhpmcounter6";
    HPMCOUNTER6H = 0xc86, "hpmcounter6h", ReadOnly, "per core: same as mhpmcounter6h";
    HPMCOUNTER7 = 0xc07, "hpmcounter7", ReadOnly, "per core: same as mhpmcounter7";
    HPMCOUNTER7H = 0xc87, "hpmcounter7h", ReadOnly, "per core: same as mhpmcounter7h";
    HPMCOUNTER8 = 0xc08, "hpmcounter8", ReadOnly, "per core: same as mhpmcounter8";
    HPMCOUNTER8H = 0xc88, "hpmcounter8h", ReadOnly, "per core: same as mhpmcounter8h";
    HPMCOUNTER9 = 0xc09, "hpmcounter9", ReadOnly, "per core: same as mhpmcounter9";
    HPMCOUNTER9H = 0xc89, "hpmcounter9h", ReadOnly, "per core: same as mhpmcounter9h";
    HPMCOUNTER10 = 0xc0a, "hpmcounter10", ReadOnly, "per core: same as mhpmcounter10";
    HPMCOUNTER10H = 0xc8a, "hpmcounter10h", ReadOnly, "per core: same as mhpmcounter10h";
    HPMCOUNTER11 = 0xc0b, "hpmcounter11", ReadOnly, "per core: same as mhpmcounter11";
    HPMCOUNTER11H = 0xc8b, "hpmcounter11h", ReadOnly, "per core: same as mhpmcounter11h";
    HPMCOUNTER12 = 0xc0c, "hpmcounter12", ReadOnly, "per core: same as mhpmcounter12";
    HPMCOUNTER12H = 0xc8c, "hpmcounter12h", ReadOnly, "per core: same as mhpmcounter12h";
    HPMCOUNTER13 = 0xc0d, "hpmcounter13", ReadOnly, "per core: same as mhpmcounter13";
    HPMCOUNTER13H = 0xc8d, "hpmcounter13h", ReadOnly, "per core: same as mhpmcounter13h";
    HPMCOUNTER14 = 0xc0e, "hpmcounter14", ReadOnly, "per core: same as mhpmcounter14";
    HPMCOUNTER14H = 0xc8e, "hpmcounter14h", ReadOnly, "per core: same as mhpmcounter14h";
    HPMCOUNTER15 = 0xc0f, "hpmcounter15", ReadOnly, "per core: same as mhpmcounter15";
    HPMCOUNTER15H = 0xc8f, "hpmcounter15h", ReadOnly, "per core: same as mhpmcounter15h";
    HPMCOUNTER16 = 0xc10, "hpmcounter16", ReadOnly, "per core: same as mhpmcounter16";
    HPMCOUNTER16H = 0xc90, "hpmcounter16h", ReadOnly, "per core: same as mhpmcounter16h";
    HPMCOUNTER17 = 0xc11, "hpmcounter17", ReadOnly, "per core: same as mhpmcounter17";
    HPMCOUNTER17H = 0xc91, "hpmcounter17h", ReadOnly, "per core: same as mhpmcounter17h";
    HPMCOUNTER18 = 0xc12, "hpmcounter18", ReadOnly, "per core: same as mhpmcounter18";
    HPMCOUNTER18H = 0xc92, "hpmcounter18h", ReadOnly, "per core: same as mhpmcounter18h";
    HPMCOUNTER19 = 0xc13, "hpmcounter19", ReadOnly, "per core: same as mhpmcounter19";
    HPMCOUNTER19H = 0xc93, "hpmcounter19h", ReadOnly, "per core: same as mhpmcounter19h";
    HPMCOUNTER20 = 0xc14, "hpmcounter20", ReadOnly, "per core: same as mhpmcounter20";
    HPMCOUNTER20H = 0xc94, "hpmcounter20h", ReadOnly, "per core: same as mhpmcounter20h";
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
    LAUNCH = 0x813, "launch", ReadWrite, "per machine: a write of a kernel's address marks the start of a kernel launch, a write of 0 its end (the device runtime does both); the statistics keep each launch's counters apart; a read gives the number of launches begun";
    CALL_DEPTH = 0x814, "call_depth", ReadWrite, "per warp: the call depth (open calls, docs/isa.md §6.1), low 16 bits; a write of d makes it d: deeper activations close, new ones are fresh (a context switch saves and restores it)";
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

/// The hardware performance counters weft defines (`mhpmcounter3`…`mhpmcounter20` and their
/// aliases): counter `k` of a number, and whether it is the high half. `None` for other CSRs.
pub fn hpm_counter(num: u16) -> Option<(usize, bool)> {
    let k = (num & 0x1f) as usize;
    let high = num & 0x80 != 0;
    match num & !0x9f {
        0xb00 | 0xc00 if (HPM_FIRST..=HPM_LAST).contains(&k) => Some((k, high)),
        _ => None,
    }
}

/// First and last defined hardware performance counter.
pub const HPM_FIRST: usize = 3;
/// See [`HPM_FIRST`].
pub const HPM_LAST: usize = 20;

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
