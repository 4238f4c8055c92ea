//! Integer per-lane semantics for RV32IM and the A extension's AMO combine step.
//!
//! Every function is a total, allocation-free, branch-light operation on `u32` register
//! values (two's complement where the instruction is signed), bit-exact to the RISC-V
//! unprivileged spec (20191213): shift amounts are masked to 5 bits, division by zero gives a
//! quotient of all ones and a remainder equal to the dividend, and signed overflow
//! (`i32::MIN / -1`) gives `i32::MIN` with remainder 0. The simulator calls these inside its
//! lane loop, so each is `#[inline]` and none dispatches on an opcode.

// ---- RV32I register-register / register-immediate ----

/// `add`/`addi`: wrapping sum.
#[inline]
pub fn add(a: u32, b: u32) -> u32 {
    a.wrapping_add(b)
}

/// `sub`: wrapping difference `a - b`.
#[inline]
pub fn sub(a: u32, b: u32) -> u32 {
    a.wrapping_sub(b)
}

/// `sll`/`slli`: logical left shift by `b & 31`.
#[inline]
pub fn sll(a: u32, b: u32) -> u32 {
    a << (b & 31)
}

/// `srl`/`srli`: logical right shift by `b & 31`.
#[inline]
pub fn srl(a: u32, b: u32) -> u32 {
    a >> (b & 31)
}

/// `sra`/`srai`: arithmetic right shift by `b & 31`.
#[inline]
pub fn sra(a: u32, b: u32) -> u32 {
    ((a as i32) >> (b & 31)) as u32
}

/// `slt`/`slti`: 1 if `a < b` as signed, else 0.
#[inline]
pub fn slt(a: u32, b: u32) -> u32 {
    ((a as i32) < (b as i32)) as u32
}

/// `sltu`/`sltiu`: 1 if `a < b` as unsigned, else 0.
#[inline]
pub fn sltu(a: u32, b: u32) -> u32 {
    (a < b) as u32
}

/// `xor`/`xori`.
#[inline]
pub fn xor(a: u32, b: u32) -> u32 {
    a ^ b
}

/// `or`/`ori`.
#[inline]
pub fn or(a: u32, b: u32) -> u32 {
    a | b
}

/// `and`/`andi`.
#[inline]
pub fn and(a: u32, b: u32) -> u32 {
    a & b
}

// ---- branch conditions ----

/// `beq` condition.
#[inline]
pub fn beq(a: u32, b: u32) -> bool {
    a == b
}

/// `bne` condition.
#[inline]
pub fn bne(a: u32, b: u32) -> bool {
    a != b
}

/// `blt` condition (signed).
#[inline]
pub fn blt(a: u32, b: u32) -> bool {
    (a as i32) < (b as i32)
}

/// `bge` condition (signed).
#[inline]
pub fn bge(a: u32, b: u32) -> bool {
    (a as i32) >= (b as i32)
}

/// `bltu` condition (unsigned).
#[inline]
pub fn bltu(a: u32, b: u32) -> bool {
    a < b
}

/// `bgeu` condition (unsigned).
#[inline]
pub fn bgeu(a: u32, b: u32) -> bool {
    a >= b
}

// ---- M extension ----

/// `mul`: low 32 bits of the product (same for signed and unsigned).
#[inline]
pub fn mul(a: u32, b: u32) -> u32 {
    a.wrapping_mul(b)
}

/// `mulh`: high 32 bits of signed × signed.
#[inline]
pub fn mulh(a: u32, b: u32) -> u32 {
    (((a as i32 as i64) * (b as i32 as i64)) >> 32) as u32
}

/// `mulhsu`: high 32 bits of signed `a` × unsigned `b`.
#[inline]
pub fn mulhsu(a: u32, b: u32) -> u32 {
    (((a as i32 as i64) * (b as i64)) >> 32) as u32
}

/// `mulhu`: high 32 bits of unsigned × unsigned.
#[inline]
pub fn mulhu(a: u32, b: u32) -> u32 {
    (((a as u64) * (b as u64)) >> 32) as u32
}

/// RISC-V's division rules where no quotient exists (M extension, "Division by zero and
/// division overflow"): the one definition, read by [`div`], [`divu`], [`rem`], [`remu`] and by
/// the engines that generate code for them (weft-jit).
pub mod division {
    /// `div` and `divu` by zero: all ones (−1 signed, `0xffff_ffff` unsigned).
    pub const QUOTIENT_BY_ZERO: u32 = u32::MAX;
    /// `rem` and `remu` by zero: the dividend.
    pub const fn remainder_by_zero(dividend: u32) -> u32 {
        dividend
    }
    /// The one signed overflow: this dividend over [`OVERFLOW_DIVISOR`]…
    pub const OVERFLOW_DIVIDEND: u32 = i32::MIN as u32;
    /// …(−1) gives the dividend as quotient and 0 as remainder — what dividing by 1 gives.
    pub const OVERFLOW_DIVISOR: u32 = u32::MAX;
    /// The divisor that gives the overflow's results (`MIN / 1 = MIN`, `MIN % 1 = 0`).
    pub const OVERFLOW_AS_DIVISOR: u32 = 1;
}

/// `div`: signed quotient rounded toward zero; `x / 0 = -1`, `i32::MIN / -1 = i32::MIN`.
#[inline]
pub fn div(a: u32, b: u32) -> u32 {
    if b == 0 {
        division::QUOTIENT_BY_ZERO
    } else if a == division::OVERFLOW_DIVIDEND && b == division::OVERFLOW_DIVISOR {
        ((a as i32) / (division::OVERFLOW_AS_DIVISOR as i32)) as u32
    } else {
        ((a as i32) / (b as i32)) as u32
    }
}

/// `divu`: unsigned quotient; `x / 0 = 0xffff_ffff`.
#[inline]
pub fn divu(a: u32, b: u32) -> u32 {
    a.checked_div(b).unwrap_or(division::QUOTIENT_BY_ZERO)
}

/// `rem`: signed remainder (sign of the dividend); `x % 0 = x`, `i32::MIN % -1 = 0`.
#[inline]
pub fn rem(a: u32, b: u32) -> u32 {
    if b == 0 {
        division::remainder_by_zero(a)
    } else if a == division::OVERFLOW_DIVIDEND && b == division::OVERFLOW_DIVISOR {
        ((a as i32) % (division::OVERFLOW_AS_DIVISOR as i32)) as u32
    } else {
        ((a as i32) % (b as i32)) as u32
    }
}

/// `remu`: unsigned remainder; `x % 0 = x`.
#[inline]
pub fn remu(a: u32, b: u32) -> u32 {
    a.checked_rem(b).unwrap_or(division::remainder_by_zero(a))
}

// ---- A extension: the combine step of an AMO (`new = f(old memory value, rs2)`) ----

/// `amoadd.w`: `old + operand` (wrapping).
#[inline]
pub fn amo_add(old: u32, operand: u32) -> u32 {
    old.wrapping_add(operand)
}

/// `amoswap.w`: the operand replaces the old value.
#[inline]
pub fn amo_swap(_old: u32, operand: u32) -> u32 {
    operand
}

/// `amoxor.w`.
#[inline]
pub fn amo_xor(old: u32, operand: u32) -> u32 {
    old ^ operand
}

/// `amoand.w`.
#[inline]
pub fn amo_and(old: u32, operand: u32) -> u32 {
    old & operand
}

/// `amoor.w`.
#[inline]
pub fn amo_or(old: u32, operand: u32) -> u32 {
    old | operand
}

/// `amomin.w`: signed minimum.
#[inline]
pub fn amo_min(old: u32, operand: u32) -> u32 {
    (old as i32).min(operand as i32) as u32
}

/// `amomax.w`: signed maximum.
#[inline]
pub fn amo_max(old: u32, operand: u32) -> u32 {
    (old as i32).max(operand as i32) as u32
}

/// `amominu.w`: unsigned minimum.
#[inline]
pub fn amo_minu(old: u32, operand: u32) -> u32 {
    old.min(operand)
}

/// `amomaxu.w`: unsigned maximum.
#[inline]
pub fn amo_maxu(old: u32, operand: u32) -> u32 {
    old.max(operand)
}

// ---- load extension (the loaded bytes are in the low bits of `v`) ----

/// `lb`: sign-extend the low byte.
#[inline]
pub fn sext8(v: u32) -> u32 {
    v as u8 as i8 as i32 as u32
}

/// `lh`: sign-extend the low halfword.
#[inline]
pub fn sext16(v: u32) -> u32 {
    v as u16 as i16 as i32 as u32
}

/// `lbu`: zero-extend the low byte.
#[inline]
pub fn zext8(v: u32) -> u32 {
    v & 0xff
}

/// `lhu`: zero-extend the low halfword.
#[inline]
pub fn zext16(v: u32) -> u32 {
    v & 0xffff
}
