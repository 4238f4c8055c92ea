//! The SIMT machine as a [`weft_device::Device`]: the face it shares with the SP v2a array
//! (run, console, host memory access, statistics as JSON).

use crate::machine::Machine;
use weft_device::{Device, MemError, Stop};

impl Device for Machine {
    fn kind(&self) -> &'static str {
        "simt"
    }

    fn run(&mut self, max_cycles: u64) -> Stop {
        Stop::End(self.run_until(max_cycles))
    }

    fn cycles(&self) -> u64 {
        self.cycle
    }

    fn take_console(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.console)
    }

    fn read_bytes(&self, addr: u32, buf: &mut [u8]) -> Result<(), MemError> {
        let len = buf.len();
        for (i, b) in buf.iter_mut().enumerate() {
            let a = addr.wrapping_add(i as u32);
            *b = self.mem.load(0, a, 1).map_err(|e| MemError::Outside {
                addr,
                len,
                why: e.to_string(),
            })? as u8;
        }
        Ok(())
    }

    fn write_bytes(&mut self, addr: u32, data: &[u8]) -> Result<(), MemError> {
        let done = self.mem.write_bytes(0, addr, data);
        // Forget decoded words the write may have touched (it may start below the decoded
        // range, and a write that fails part way has written the bytes before the failure).
        self.code
            .invalidate(addr, u32::try_from(data.len()).unwrap_or(u32::MAX));
        done.map_err(|e| MemError::Outside {
            addr,
            len: data.len(),
            why: e.to_string(),
        })
    }

    fn stats_json(&self) -> serde_json::Value {
        serde_json::to_value(self.report()).unwrap_or_default()
    }
}
