//! Why an instruction did not complete: the trap a handler returns, and the machine-mode
//! cause numbers a fault becomes when a trap vector takes it (docs/isa.md §8.5).

use weft_isa::FaultCode;
use weft_mem::MemFault;

/// Why an instruction did not complete (boxed, so a handler's `Result` fits a register).
pub(crate) struct Trap(pub Box<TrapInfo>);

impl From<TrapInfo> for Trap {
    #[cold]
    fn from(t: TrapInfo) -> Trap {
        Trap(Box::new(t))
    }
}

/// What went wrong.
pub(crate) struct TrapInfo {
    pub code: FaultCode,
    pub addr: Option<u32>,
    pub detail: String,
}

/// A trap with only a code.
pub(crate) fn fault(code: FaultCode) -> Trap {
    Trap::from(TrapInfo {
        code,
        addr: None,
        detail: String::new(),
    })
}

/// A memory fault as a load or store trap, with its address.
pub(crate) fn mem_trap(e: MemFault, store: bool) -> Trap {
    let (code, addr) = match e {
        MemFault::Unmapped(a) | MemFault::Crosses(a) | MemFault::ReadOnly(a) => (
            if store {
                FaultCode::StoreFault
            } else {
                FaultCode::LoadFault
            },
            a,
        ),
    };
    Trap::from(TrapInfo {
        code,
        addr: Some(addr),
        detail: e.to_string(),
    })
}

/// `mcause` values (the privileged spec's exception codes) for the faults that a trap vector
/// takes, and for the watchdog's SOFT interrupt.
pub(crate) mod cause {
    pub const MISALIGNED_FETCH: u32 = 0;
    pub const ILLEGAL_INSTRUCTION: u32 = 2;
    pub const BREAKPOINT: u32 = 3;
    pub const LOAD_FAULT: u32 = 5;
    pub const STORE_FAULT: u32 = 7;
    pub const ECALL_M: u32 = 11;
    /// Interrupt bit | 16: the watchdog's SOFT-mode interrupt (platform-defined number).
    pub const WATCHDOG_INTERRUPT: u32 = 0x8000_0010;
}

/// The `mcause` a fault gets when a trap vector takes it; `None` for faults that always end
/// the run.
pub(crate) fn cause_of(code: FaultCode) -> Option<u32> {
    match code {
        FaultCode::MisalignedTarget => Some(cause::MISALIGNED_FETCH),
        FaultCode::IllegalInstruction => Some(cause::ILLEGAL_INSTRUCTION),
        FaultCode::Breakpoint => Some(cause::BREAKPOINT),
        FaultCode::LoadFault => Some(cause::LOAD_FAULT),
        FaultCode::StoreFault | FaultCode::AmoMisaligned => Some(cause::STORE_FAULT),
        FaultCode::Ecall => Some(cause::ECALL_M),
        _ => None,
    }
}

/// A float instruction while `mstatus.FS` is Off.
#[cold]
pub(crate) fn illegal_fp() -> Trap {
    Trap::from(TrapInfo {
        code: FaultCode::IllegalInstruction,
        addr: None,
        detail: "a float instruction with mstatus.FS = Off".into(),
    })
}

/// A taken branch or jump to `target`, which is odd (not 2-byte aligned).
#[cold]
pub(crate) fn misaligned_target(target: u32) -> Trap {
    Trap::from(TrapInfo {
        code: FaultCode::MisalignedTarget,
        addr: Some(target),
        detail: String::new(),
    })
}

/// `mstatus` fields weft implements (machine mode only, with the F extension).
pub(crate) mod mstatus {
    /// Machine interrupt enable.
    pub const MIE: u32 = 1 << 3;
    /// Previous MIE.
    pub const MPIE: u32 = 1 << 7;
    /// Previous privilege: always M (there is no other mode).
    pub const MPP: u32 = 3 << 11;
    /// Float state: Off (0), Initial (1), Clean (2), Dirty (3).
    pub const FS: u32 = 3 << 13;
    /// FS = Initial, the reset value: float instructions work from reset.
    pub const FS_INITIAL: u32 = 1 << 13;
    /// State dirty (read-only summary: FS is Dirty).
    pub const SD: u32 = 1 << 31;
    /// The bits software can write.
    pub const WRITABLE: u32 = MIE | MPIE | FS;

    /// The value software reads, from the stored writable bits.
    pub fn read(stored: u32) -> u32 {
        let sd = if stored & FS == FS { SD } else { 0 };
        stored & WRITABLE | MPP | sd
    }
}
