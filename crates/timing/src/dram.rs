//! DRAM: one channel moving `bytes_per_cycle`, reads and writes in the order they come (a
//! write-through cache's writes queue ahead of later reads), whole bursts of `burst` bytes
//! at least, with a bound on requests in flight, and,
//! when `row_size` is set, a row buffer per bank (open-row policy, as SimX's Ramulator
//! HBM2): an access to the row its bank has open takes `row_hit_latency`, to a bank with no
//! row open `latency`, and to a bank with another row open `row_conflict_latency`. Rows
//! interleave over the banks (`bank = (address / row_size) mod banks`), a row stays open
//! until another row of its bank is used, and a bank opens at most one row per `row_cycle`
//! cycles (accesses to other rows of a busy bank wait).

use crate::config::DramConfig;

/// The DRAM of the memory system.
pub(crate) struct Dram {
    cfg: DramConfig,
    bus_free: u64,
    in_flight: Vec<u64>,
    /// Per bank: the row it has open (`u32::MAX`: none), and when it can open another.
    open: Vec<(u32, u64)>,
}

impl Dram {
    pub(crate) fn new(cfg: DramConfig) -> Dram {
        let banks = if cfg.row_size == 0 { 0 } else { cfg.banks };
        Dram {
            cfg,
            bus_free: 0,
            in_flight: Vec::new(),
            open: vec![(u32::MAX, 0); banks as usize],
        }
    }

    /// Close every row and forget the requests in flight (a reset between launches).
    pub(crate) fn empty(&mut self) {
        self.in_flight.clear();
        for b in &mut self.open {
            *b = (u32::MAX, 0);
        }
    }

    /// An access to `addr` that may start at `t`: when it starts (a bank opening another
    /// row waits for the bank) and its latency; its row is then open.
    fn row_access(&mut self, addr: u32, t: u64) -> (u64, u64) {
        if self.open.is_empty() {
            return (t, self.cfg.latency as u64);
        }
        let chunk = addr / self.cfg.row_size;
        let bank = &mut self.open[(chunk % self.cfg.banks) as usize];
        let row = chunk / self.cfg.banks;
        if bank.0 == row {
            return (t, self.cfg.row_hit_latency as u64);
        }
        let latency = if bank.0 == u32::MAX {
            self.cfg.latency
        } else {
            self.cfg.row_conflict_latency
        };
        let start = t.max(bank.1);
        *bank = (row, start + self.cfg.row_cycle as u64);
        (start, latency as u64)
    }

    /// A transfer of `bytes` at `addr` requested at `t`: when it completes.
    pub(crate) fn request(&mut self, addr: u32, bytes: u32, t: u64) -> u64 {
        let cap = self.cfg.max_outstanding as usize;
        let start = crate::cache::wait_for_slot(&mut self.in_flight, cap, t);
        let bytes = match self.cfg.burst {
            0 => bytes,
            b => bytes.div_ceil(b) * b,
        };
        let xfer = (bytes as f64 / self.cfg.bytes_per_cycle).ceil() as u64;
        let (start, latency) = self.row_access(addr, start);
        let bus = start.max(self.bus_free);
        self.bus_free = bus + xfer;
        let done = bus + xfer + latency;
        self.in_flight.push(done);
        done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_open_row_is_faster_and_another_row_of_its_bank_slower() {
        let mut d = Dram::new(DramConfig {
            latency: 20,
            bytes_per_cycle: 64.0,
            max_outstanding: 64,
            row_size: 4096,
            banks: 2,
            row_hit_latency: 10,
            row_conflict_latency: 30,
            row_cycle: 1,
            burst: 0,
        });
        // bank 0 closed, then its open row, then another row of bank 0; bank 1 closed.
        let t = [0u32, 64, 2 * 4096, 4096].map(|a| d.request(a, 64, 1000) - 1000);
        // One cycle of transfer each, served in turn.
        assert_eq!(t, [1 + 20, 2 + 10, 3 + 30, 4 + 20]);
        // One bank opening a row every 40 cycles: the second conflict waits.
        let mut d = Dram::new(DramConfig {
            row_size: 4096,
            banks: 1,
            row_cycle: 40,
            ..DramConfig::default()
        });
        let a = d.request(0, 16, 0);
        let b = d.request(4096, 16, 0);
        assert_eq!(b - a, 40);
        let mut flat = Dram::new(DramConfig::default());
        assert_eq!(flat.request(0, 16, 0), 1 + 100);
        assert_eq!(flat.request(0, 16, 0), 2 + 100, "no row buffers by default");
        // Bursts of 64 bytes: a 4-byte write moves 64, and a read behind it waits.
        let mut d = Dram::new(DramConfig {
            bytes_per_cycle: 8.0,
            burst: 64,
            ..DramConfig::default()
        });
        d.request(0, 4, 0);
        assert_eq!(d.request(64, 64, 0), 16 + 100);
    }
}
