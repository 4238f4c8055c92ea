//! The Vortex console: per-hart ring buffers in RAM that a host drains to stdout.
//!
//! Layout from `base` (Vortex v3 puts it at 0x40): `wr[slots]` (u32 write counts, one per
//! slot, bumped by the kernel after it stores a byte), `rd[slots]` (u32 read counts, written
//! by the host), `data[slots][ring]` (the bytes, at `count mod ring`), `lost[slots]` (bytes a
//! kernel dropped on a full ring). Hart *h* uses slot `h mod slots`.
//!
//! The memory calls [`CoutRing::drain`] after every store that touches a `wr` word, so the
//! ring never fills. Like Vortex's standalone simulator, output is line-buffered per slot
//! and every line is printed as `#slot: text`.

use crate::Dram;

/// Ring console state (the host's side: read counts and partial lines).
#[derive(Clone, Debug)]
pub struct CoutRing {
    base: u32,
    slots: u32,
    ring: u32,
    rd: Vec<u32>,
    lost_seen: Vec<u32>,
    line: Vec<Vec<u8>>,
    out: Vec<u8>,
}

impl CoutRing {
    /// A ring console at `base` with `slots` slots of `ring` bytes (`ring` a power of two).
    pub fn new(base: u32, slots: u32, ring: u32) -> CoutRing {
        CoutRing {
            base,
            slots,
            ring,
            rd: vec![0; slots as usize],
            lost_seen: vec![0; slots as usize],
            line: vec![Vec::new(); slots as usize],
            out: Vec::new(),
        }
    }

    /// Address of the layout.
    pub fn base_addr(&self) -> u32 {
        self.base
    }

    /// Bytes the whole layout spans.
    pub fn span(&self) -> u32 {
        self.slots * (12 + self.ring)
    }

    /// The slots whose `wr` or `lost` word the access `[addr, addr + size)` touches.
    pub fn touched(&self, addr: u32, size: u32) -> Option<(u32, u32)> {
        let off = addr.wrapping_sub(self.base);
        let wr_end = self.slots * 4;
        let lost = self.slots * (8 + self.ring);
        let rel = if off < wr_end {
            off
        } else if off.wrapping_sub(lost) < wr_end {
            off - lost
        } else {
            return None;
        };
        let first = rel / 4;
        let last = ((rel + size.max(1) - 1) / 4).min(self.slots - 1);
        Some((first, last))
    }

    /// Drain slots `first..=last` of the ring held in `ram` (region offset `region_off` of
    /// `base`), advancing their `rd` words.
    pub fn drain(&mut self, ram: &mut Dram, region_off: u32, first: u32, last: u32) {
        let at = |i: u32| region_off + i;
        for s in first..=last {
            let lost = ram.read(at(self.slots * (8 + self.ring) + 4 * s), 4);
            let seen = &mut self.lost_seen[s as usize];
            if lost != *seen {
                let msg = format!("[#{s}: lost {} bytes]\n", lost.wrapping_sub(*seen));
                self.out.extend_from_slice(msg.as_bytes());
                *seen = lost;
            }
            let wr = ram.read(at(4 * s), 4);
            let rd = self.rd[s as usize];
            let n = wr.wrapping_sub(rd).min(self.ring);
            let data = self.slots * 8 + s * self.ring;
            for k in 0..n {
                let b = ram.read(at(data + (rd.wrapping_add(k) & (self.ring - 1))), 1) as u8;
                self.line[s as usize].push(b);
                if b == b'\n' {
                    self.emit(s);
                }
            }
            self.rd[s as usize] = wr;
            ram.write(at(self.slots * 4 + 4 * s), 4, wr);
        }
    }

    fn emit(&mut self, s: u32) {
        let line = std::mem::take(&mut self.line[s as usize]);
        self.out.extend_from_slice(format!("#{s}: ").as_bytes());
        self.out.extend_from_slice(&line);
    }

    /// Output ready to print.
    pub fn has_output(&self) -> bool {
        !self.out.is_empty()
    }

    /// Take the output ready to print.
    pub fn take_output(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.out)
    }

    /// End of the run: unterminated lines are printed too (with a newline added).
    pub fn flush_partial(&mut self) {
        for s in 0..self.slots {
            if !self.line[s as usize].is_empty() {
                self.line[s as usize].push(b'\n');
                self.emit(s);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drains_lines_with_slot_prefix() {
        let mut ram = Dram::new(0x10000);
        let mut c = CoutRing::new(0x40, 4, 16);
        // Region starts at 0x40: offsets are relative to it.
        for (i, b) in b"hi\nx".iter().enumerate() {
            ram.write(4 * 4 * 2 + 16 + i as u32, 1, *b as u32); // slot 1 data
        }
        ram.write(4, 4, 4); // wr[1] = 4
        assert_eq!(c.touched(0x44, 4), Some((1, 1)));
        assert_eq!(c.touched(0x40 + 16, 4), None);
        c.drain(&mut ram, 0, 1, 1);
        assert_eq!(c.take_output(), b"#1: hi\n");
        assert_eq!(ram.read(16 + 4, 4), 4, "rd[1] advanced");
        c.flush_partial();
        assert_eq!(c.take_output(), b"#1: x\n");
    }
}
