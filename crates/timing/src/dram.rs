//! DRAM: one channel moving `bytes_per_cycle`, reads and writes in the order they come (a
//! write-through cache's writes queue ahead of later reads), whole bursts of `burst` bytes
//! at least, with a bound on requests in flight, and,
//! when `row_size` is set, a row buffer per bank (open-row policy, as SimX's Ramulator
//! HBM2): an access to the row its bank has open takes `row_hit_latency`, to a bank with no
//! row open `latency`, and to a bank with another row open `row_conflict_latency`. Rows
//! interleave over the banks (`bank = (address / row_size) mod banks`), a row stays open
//! until another row of its bank is used, and a bank opens at most one row per `row_cycle`
//! cycles (accesses to other rows of a busy bank wait). Banks belong to `pseudo_channels`
//! (HBM2; bank mod `pseudo_channels`), each of which opens at most four rows in any
//! `activate_window` cycles (tFAW: a stream of accesses that each open a row, such as stores
//! to per-thread stacks kilobytes apart, is held to four per window) and, with
//! `pseudo_channel_bytes_per_cycle`, moves its requests over a data bus of its own as well as
//! the channel's (a stream within one pseudo-channel gets its bus's rate, streams over
//! several the channel's).
//!
//! With `port_bytes_per_cycle` set, each core reaches the channel through a port (its own,
//! or with `ports` set port `core mod ports`; SimX: one per socket, `L3_MEM_PORTS =
//! min(sockets, memory banks)`), which moves that many bytes per cycle: the requests of a
//! port pass it in turn, and the ports share the channel's `bytes_per_cycle`.

use crate::config::DramConfig;

/// The DRAM of the memory system.
pub(crate) struct Dram {
    cfg: DramConfig,
    bus_free: u64,
    in_flight: Vec<u64>,
    /// Per bank: the row it has open (`u32::MAX`: none), and when it can open another.
    open: Vec<(u32, u64)>,
    /// Per pseudo-channel, its last four row openings (oldest first), and when its data
    /// bus is free.
    pcs: Vec<([Option<u64>; 4], u64)>,
    /// Per core port: when it is free again (empty: no ports).
    ports: Vec<u64>,
}

impl Dram {
    /// The DRAM of a machine of `cores` cores.
    pub(crate) fn new(cfg: DramConfig, cores: usize) -> Dram {
        let banks = if cfg.row_size == 0 { 0 } else { cfg.banks };
        let ports = match (cfg.port_bytes_per_cycle > 0.0, cfg.ports) {
            (false, _) => 0,
            (true, 0) => cores,
            (true, n) => cores.min(n as usize),
        };
        Dram {
            cfg,
            bus_free: 0,
            in_flight: Vec::new(),
            open: vec![(u32::MAX, 0); banks as usize],
            pcs: vec![([None; 4], 0); cfg.pseudo_channels.max(1) as usize],
            ports: vec![0; ports],
        }
    }

    /// Close every row and forget the requests in flight (a reset between launches).
    pub(crate) fn empty(&mut self) {
        self.in_flight.clear();
        self.ports.fill(0);
        for b in &mut self.open {
            *b = (u32::MAX, 0);
        }
        self.pcs.fill(([None; 4], 0));
    }

    /// The bank holding `addr` (`None`: no row buffers).
    fn bank_of(&self, addr: u32) -> Option<usize> {
        (!self.open.is_empty()).then(|| (addr / self.cfg.row_size % self.cfg.banks) as usize)
    }

    /// An access to `addr` that may start at `t`: when it starts (a bank opening another
    /// row waits for the bank) and its latency; its row is then open.
    fn row_access(&mut self, addr: u32, t: u64) -> (u64, u64) {
        let Some(b) = self.bank_of(addr) else {
            return (t, self.cfg.latency as u64);
        };
        let bank = &mut self.open[b];
        let row = addr / self.cfg.row_size / self.cfg.banks;
        if bank.0 == row {
            return (t, self.cfg.row_hit_latency as u64);
        }
        let latency = if bank.0 == u32::MAX {
            self.cfg.latency
        } else {
            self.cfg.row_conflict_latency
        };
        let mut start = t.max(bank.1);
        if self.cfg.activate_window > 0 {
            // the fifth opening in a pseudo-channel waits for the window since the first
            let g = b % self.pcs.len();
            let acts = &mut self.pcs[g].0;
            if let Some(first) = acts[0] {
                start = start.max(first + self.cfg.activate_window as u64);
            }
            *acts = [acts[1], acts[2], acts[3], Some(start)];
        }
        *bank = (row, start + self.cfg.row_cycle as u64);
        (start, latency as u64)
    }

    /// A transfer of `bytes` at `addr` for core `core` requested at `t`: when it
    /// completes.
    pub(crate) fn request(&mut self, core: usize, addr: u32, bytes: u32, t: u64) -> u64 {
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
        let mut end = bus + xfer;
        let q = self.cfg.pseudo_channel_bytes_per_cycle;
        if let Some(b) = self.bank_of(addr).filter(|_| q > 0.0) {
            let g = b % self.pcs.len();
            let pc = &mut self.pcs[g].1;
            let p = start.max(*pc);
            *pc = p + (bytes as f64 / q).ceil() as u64;
            end = end.max(*pc);
        }
        let n = self.ports.len().max(1);
        if let Some(port) = self.ports.get_mut(core % n) {
            // The core's port moves the request too, one request after another; it is
            // done when both have moved it. (The port does not hold the channel: requests
            // reach the model out of time order across cores, so a port's wait must not
            // delay another core's earlier request.)
            let p = start.max(*port);
            *port = p + (bytes as f64 / self.cfg.port_bytes_per_cycle).ceil() as u64;
            end = end.max(*port);
        }
        let done = end + latency;
        self.in_flight.push(done);
        done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_open_row_is_faster_and_another_row_of_its_bank_slower() {
        let mut d = Dram::new(
            DramConfig {
                latency: 20,
                bytes_per_cycle: 64.0,
                max_outstanding: 64,
                row_size: 4096,
                banks: 2,
                row_hit_latency: 10,
                row_conflict_latency: 30,
                row_cycle: 1,
                pseudo_channels: 1,
                activate_window: 0,
                pseudo_channel_bytes_per_cycle: 0.0,
                burst: 0,
                port_bytes_per_cycle: 0.0,
                ports: 0,
                uncached: [0, 0],
            },
            1,
        );
        // bank 0 closed, then its open row, then another row of bank 0; bank 1 closed.
        let t = [0u32, 64, 2 * 4096, 4096].map(|a| d.request(0, a, 64, 1000) - 1000);
        // One cycle of transfer each, served in turn.
        assert_eq!(t, [1 + 20, 2 + 10, 3 + 30, 4 + 20]);
        // One bank opening a row every 40 cycles: the second conflict waits.
        let mut d = Dram::new(
            DramConfig {
                row_size: 4096,
                banks: 1,
                row_cycle: 40,
                ..DramConfig::default()
            },
            1,
        );
        let a = d.request(0, 0, 16, 0);
        let b = d.request(0, 4096, 16, 0);
        assert_eq!(b - a, 40);
        let mut flat = Dram::new(DramConfig::default(), 1);
        assert_eq!(flat.request(0, 0, 16, 0), 1 + 100);
        assert_eq!(
            flat.request(0, 0, 16, 0),
            2 + 100,
            "no row buffers by default"
        );
        // Bursts of 64 bytes: a 4-byte write moves 64, and a read behind it waits.
        let mut d = Dram::new(
            DramConfig {
                bytes_per_cycle: 8.0,
                burst: 64,
                ..DramConfig::default()
            },
            1,
        );
        d.request(0, 0, 4, 0);
        assert_eq!(d.request(0, 64, 64, 0), 16 + 100);
    }

    /// A stream of `n` 64-byte lines from each of `cores` cores, all requested at 0: when
    /// the last is done.
    fn streams(cfg: DramConfig, cores: usize, n: u32) -> u64 {
        let mut d = Dram::new(cfg, cores);
        let mut end = 0;
        for i in 0..n {
            for c in 0..cores {
                end = end.max(d.request(c, ((c as u32) << 20) | (i * 64), 64, 0));
            }
        }
        end
    }

    #[test]
    fn each_core_port_moves_its_bytes_and_cores_share_the_channel() {
        let cfg = DramConfig {
            latency: 10,
            bytes_per_cycle: 16.0,
            max_outstanding: 1024,
            port_bytes_per_cycle: 8.0,
            ..DramConfig::default()
        };
        // One core: its port (8 bytes/cycle) limits 100 lines to 800 cycles.
        assert_eq!(streams(cfg, 1, 100), 800 + 10);
        // Two cores, each through its own port: the same time for twice the bytes.
        assert_eq!(streams(cfg, 2, 100), 800 + 10);
        // Four cores: the channel's 16 bytes/cycle limits 400 lines to 1600 cycles.
        assert_eq!(streams(cfg, 4, 100), 1600 + 10);
        // One core's port being busy does not hold another core's request: core 1's line
        // waits only for the channel (two lines of 4 cycles before it), not for core 0's
        // port (busy until 16).
        let mut d = Dram::new(cfg, 2);
        d.request(0, 0, 64, 0);
        d.request(0, 64, 64, 0);
        assert_eq!(d.request(1, 4096, 64, 0), 12 + 10);
        // Four cores over two ports: two cores share each port, 1600 cycles.
        let two = DramConfig { ports: 2, ..cfg };
        assert_eq!(streams(two, 4, 100), 1600 + 10);
        assert_eq!(streams(two, 2, 100), 800 + 10);
        // Without ports two cores share an 8-byte channel: twice the time.
        let flat = DramConfig {
            bytes_per_cycle: 8.0,
            port_bytes_per_cycle: 0.0,
            ..cfg
        };
        assert_eq!(streams(flat, 1, 100), 800 + 10);
        assert_eq!(streams(flat, 2, 100), 1600 + 10);
    }

    #[test]
    fn a_pseudo_channel_opens_four_rows_per_window_and_has_its_own_bus() {
        // 8 banks of 4 KiB rows over 2 pseudo-channels (bank mod 2); a 15-cycle window.
        let cfg = DramConfig {
            latency: 10,
            row_hit_latency: 5,
            row_conflict_latency: 10,
            bytes_per_cycle: 64.0,
            max_outstanding: 1024,
            row_size: 4096,
            banks: 8,
            pseudo_channels: 2,
            activate_window: 15,
            ..DramConfig::default()
        };
        // Six lines in six banks of pseudo-channel 0 (banks 0, 2, 4, 6, then rows of 0 and
        // 2 again): the first four open at once, the fifth waits for the first's window.
        let mut d = Dram::new(cfg, 1);
        let t: Vec<u64> = [0u32, 2, 4, 6, 8, 10]
            .iter()
            .map(|&b| d.request(0, b * 4096, 64, 0))
            .collect();
        assert_eq!(
            &t[..4],
            &[11, 12, 13, 14],
            "one cycle of transfer each, in turn"
        );
        assert_eq!(t[4], 15 + 1 + 10, "the fifth opening at 15");
        assert_eq!(
            t[5],
            15 + 1 + 10 + 1,
            "the sixth at 15 too (the second's window)"
        );
        // The other pseudo-channel's openings do not count: banks 1, 3, 5, 7, 9 alternate
        // with 0, 2, 4, 6 and none waits.
        let mut d = Dram::new(cfg, 1);
        let last = (0..8u32)
            .map(|b| d.request(0, b * 4096, 64, 0))
            .max()
            .unwrap();
        assert_eq!(last, 8 + 10);
        // A row already open needs no opening: ten lines of one row never wait.
        let mut d = Dram::new(cfg, 1);
        let last = (0..10u32)
            .map(|i| d.request(0, i * 64, 64, 0))
            .max()
            .unwrap();
        assert_eq!(last, 10 + 5);
        // Each pseudo-channel's bus at 8 bytes/cycle: a stream within one takes 8 cycles
        // a line, a stream alternating between the two 4 (the channel's 16 bytes/cycle).
        let bus = DramConfig {
            bytes_per_cycle: 16.0,
            pseudo_channel_bytes_per_cycle: 8.0,
            activate_window: 0,
            ..cfg
        };
        let mut d = Dram::new(bus, 1);
        let one = (0..20u32)
            .map(|i| d.request(0, i * 64, 64, 0))
            .max()
            .unwrap();
        let mut d = Dram::new(bus, 1);
        let two = (0..20u32)
            .map(|i| d.request(0, (i % 2) * 4096 + (i / 2) * 64, 64, 0))
            .max()
            .unwrap();
        assert_eq!(one, 20 * 8 + 5);
        assert_eq!(two, 20 * 4 + 5);
    }
}
