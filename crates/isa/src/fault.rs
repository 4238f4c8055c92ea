//! Fault codes: what a warp records in `fault_code` when it faults, and what the run reports.
//!
//! Code 9 (DIVERGE_EMPTY) is fixed by warp-core's divergence design; the others are weft's.

macro_rules! faults {
    ($( $variant:ident = $code:literal, $name:literal, $doc:literal; )*) => {
        /// An architectural fault code.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u32)]
        pub enum FaultCode { $( #[doc = $doc] $variant = $code, )* }

        impl FaultCode {
            /// Every fault code, in numeric order.
            pub const ALL: &'static [FaultCode] = &[ $( FaultCode::$variant, )* ];
            /// The upper-case name used in messages and docs.
            pub fn name(self) -> &'static str {
                match self { $( FaultCode::$variant => $name, )* }
            }
            /// One-line meaning.
            pub fn doc(self) -> &'static str {
                match self { $( FaultCode::$variant => $doc, )* }
            }
            /// The numeric code.
            pub fn code(self) -> u32 {
                self as u32
            }
            /// The fault with this numeric code.
            pub fn from_code(c: u32) -> Option<FaultCode> {
                Self::ALL.iter().copied().find(|f| f.code() == c)
            }
        }
    };
}

faults! {
    IllegalInstruction = 1, "ILLEGAL_INSTRUCTION", "the word at pc does not decode, or an instruction is used illegally (e.g. a write to a read-only CSR)";
    FetchFault = 2, "FETCH_FAULT", "pc is outside executable memory or odd, or a 4-byte instruction runs past the end of memory";
    LoadFault = 3, "LOAD_FAULT", "a load touched an unmapped address";
    StoreFault = 4, "STORE_FAULT", "a store or AMO touched an unmapped or read-only address";
    DivergeOverflow = 5, "DIVERGE_OVERFLOW", "a divergent branch or diverge found the divergence stack full";
    DivergentJump = 6, "DIVERGENT_JUMP", "the active lanes of a return disagree on its target: no reconvergence point can be known";
    Watchdog = 7, "WATCHDOG", "the warp's watchdog expired in HARD mode";
    Breakpoint = 8, "BREAKPOINT", "the warp reached its break_pc, or executed ebreak with no debugger attached";
    DivergeEmpty = 9, "DIVERGE_EMPTY", "diverge with no active lane whose predicate is non-zero";
    Ecall = 10, "ECALL", "ecall with no trap vector (mtvec = 0)";
    AmoMisaligned = 11, "AMO_MISALIGNED", "an LR/SC/AMO address is not 4-byte aligned";
    IpdomOverflow = 12, "IPDOM_OVERFLOW", "Vortex split found the IPDOM stack full";
    IpdomUnderflow = 13, "IPDOM_UNDERFLOW", "Vortex join with an empty IPDOM stack";
    SpawnFault = 14, "SPAWN_FAULT", "wspawn asked for more warps than the core has";
    BarrierFault = 15, "BARRIER_FAULT", "a barrier id out of range or a count larger than the warps that exist";
    LanesLost = 16, "LANES_LOST", "a warp halted while some of its lanes still waited to run (a split's else path)";
    MisalignedTarget = 17, "MISALIGNED_TARGET", "a taken branch or jump to an odd target (RISC-V's instruction-address-misaligned exception, mcause 0; with the C extension no encoding can produce one: offsets are even and jalr clears bit 0)";
    SyncMask = 18, "SYNC_MASK", "a vote's member mask (a CUDA `_sync` mask, rs2) names a lane that is not active, or an active lane's mask leaves that lane out";
}
