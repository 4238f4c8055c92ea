//! Vortex's tensor core unit (TCU): the data-format ids its instructions carry in register
//! fields, and their names in assembly text.
//!
//! `wmma`, `wmma.sp` and `wgmma` name the output (C/D) format in the rd field and the input
//! (A/B) format in the rs1 field; `tcu.ld` names the input format in the rs2 field. The ids are
//! Vortex v3.0's (`tensor_cfg.h`); the semantics are in `weft_sem::tcu`.

/// A TCU data format, by Vortex's id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Format {
    /// IEEE binary32.
    Fp32 = 0,
    /// IEEE binary16.
    Fp16 = 1,
    /// bfloat16 (8-bit exponent, 7-bit mantissa).
    Bf16 = 2,
    /// OCP FP8 E4M3 (no infinities; S.1111.111 is NaN).
    Fp8 = 3,
    /// OCP FP8 E5M2.
    Bf8 = 4,
    /// TensorFloat-32: 19 bits (1 + 8 + 10) in the low bits of a 32-bit word.
    Tf32 = 5,
    /// Two's-complement 32-bit integer (the integer accumulator).
    I32 = 8,
    /// Signed 8-bit integer.
    I8 = 9,
    /// Unsigned 8-bit integer.
    U8 = 10,
    /// Signed 4-bit integer.
    I4 = 11,
    /// Unsigned 4-bit integer.
    U4 = 12,
}

/// Every format, in id order.
pub const FORMATS: [Format; 11] = [
    Format::Fp32,
    Format::Fp16,
    Format::Bf16,
    Format::Fp8,
    Format::Bf8,
    Format::Tf32,
    Format::I32,
    Format::I8,
    Format::U8,
    Format::I4,
    Format::U4,
];

impl Format {
    /// The format with Vortex id `id`, if there is one.
    pub fn from_id(id: u8) -> Option<Format> {
        FORMATS.iter().copied().find(|f| *f as u8 == id)
    }
    /// The format named `name` in assembly text (`fp32`, `fp16`, `bf16`, `fp8`, `bf8`,
    /// `tf32`, `i32`, `i8`, `u8`, `i4`, `u4`).
    pub fn from_name(name: &str) -> Option<Format> {
        FORMATS.iter().copied().find(|f| f.name() == name)
    }
    /// The name in assembly text (Vortex's `fmt_string`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Fp32 => "fp32",
            Format::Fp16 => "fp16",
            Format::Bf16 => "bf16",
            Format::Fp8 => "fp8",
            Format::Bf8 => "bf8",
            Format::Tf32 => "tf32",
            Format::I32 => "i32",
            Format::I8 => "i8",
            Format::U8 => "u8",
            Format::I4 => "i4",
            Format::U4 => "u4",
        }
    }
    /// Bits per element.
    pub fn bits(self) -> u32 {
        match self {
            Format::Fp32 | Format::Tf32 | Format::I32 => 32,
            Format::Fp16 | Format::Bf16 => 16,
            Format::Fp8 | Format::Bf8 | Format::I8 | Format::U8 => 8,
            Format::I4 | Format::U4 => 4,
        }
    }
    /// Elements packed in one 32-bit register (`32 / bits`; tf32 is one per register).
    pub fn per_word(self) -> u32 {
        32 / self.bits()
    }
}

/// A format field as text: its name, or the bare number for an id Vortex does not define.
pub fn format_text(id: u8) -> String {
    match Format::from_id(id) {
        Some(f) => f.name().to_string(),
        None => id.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_names_round_trip() {
        for f in FORMATS {
            assert_eq!(Format::from_id(f as u8), Some(f));
            assert_eq!(Format::from_name(f.name()), Some(f));
            assert_eq!(f.per_word() * f.bits(), 32);
        }
        assert_eq!(Format::from_id(6), None);
        assert_eq!(format_text(6), "6");
        assert_eq!(format_text(9), "i8");
    }
}
