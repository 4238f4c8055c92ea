//! Decoding and encoding an instruction of either size: a word whose bits 1:0 are not 0b11
//! is a 16-bit instruction (`compressed.rs`), any other the 32-bit instruction of the main
//! table (`inst.rs`).

use crate::compressed::{decode16, encode16};
use crate::inst::{DecodeError, EncodeError, Inst};

impl Inst {
    /// Decode the instruction that starts `w` (exactly: every field the table fixes must
    /// match). If bits 1:0 are not 0b11 it is a 16-bit instruction in the low half and the
    /// high half is ignored (see [`Inst::len`]).
    pub fn decode(w: u32) -> Result<Inst, DecodeError> {
        if w & 3 != 3 {
            return decode16(w as u16).ok_or(DecodeError::Compressed(w as u16));
        }
        Inst::decode32(w)
    }

    /// Encode back into a word (a compressed instruction's halfword in the low 16 bits).
    /// Fails if an operand does not fit its field.
    pub fn encode(&self) -> Result<u32, EncodeError> {
        match self.compressed {
            Some(c) => encode16(self, c.entry()).map(u32::from),
            None => self.encode32(),
        }
    }

    /// Encode into the little-endian bytes of the instruction (2 or 4 of them).
    pub fn encode_bytes(&self) -> Result<Vec<u8>, EncodeError> {
        let w = self.encode()?;
        Ok(w.to_le_bytes()[..self.len() as usize].to_vec())
    }

    /// Decode `w` as a lane executes it: like [`Inst::decode`], but a FENCE or FENCE.I word
    /// whose reserved fields are not zero (rd, rs1, an unknown `fm`; FENCE.I's immediate)
    /// executes as the fence it extends, as RISC-V requires base implementations to do. The
    /// table itself stays exact, so the assembler and the disassembler (which shows such a
    /// word as `.word`) keep every word as it is.
    pub fn decode_exec(w: u32) -> Result<Inst, DecodeError> {
        const OP_MISC_MEM: u32 = 0x0f;
        match Inst::decode(w) {
            Err(e) if w & 0x7f == OP_MISC_MEM => match (w >> 12) & 7 {
                // FENCE: keep the predecessor and successor sets.
                0 => Inst::decode(w & 0x0ff0_007f),
                // FENCE.I
                1 => Inst::decode(0x0000_100f),
                _ => Err(e),
            },
            r => r,
        }
    }
}
