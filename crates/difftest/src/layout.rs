//! The memory a generated test program uses: its data region, and the register dump and data
//! words its epilogue prints (`gen.rs` writes the programs, `gen_c.rs` their C-shaped blocks,
//! `runner.rs` reads the dumps back).

/// Bytes of the data region the program loads from and stores to.
pub const DATA_SIZE: u32 = 512;
/// Words of the register dump: x0–x31, f0–f31, fcsr.
pub const DUMP_WORDS: usize = 65;
/// Words the program prints.
pub const TOTAL_WORDS: usize = DUMP_WORDS + DATA_SIZE as usize / 4;
const _: () = assert!(TOTAL_WORDS == 193, "the epilogue prints 193 words");
