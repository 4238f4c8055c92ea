//! The SP v2a array as a [`weft_device::Device`]: the face it shares with the SIMT machine.
//! A run that ends with every core halted reports the first non-zero HALT value as its exit
//! code (all zero: every warp halted); the host sees the framebuffer, pixel *i* at bytes
//! 4*i*..4*i*+3 (little-endian).

use crate::array::{Array, Stop};
use weft_device::{Device, MemError, RunEnd};

impl Device for Array {
    fn kind(&self) -> &'static str {
        "sp2a"
    }

    fn run(&mut self, max_cycles: u64) -> weft_device::Stop {
        let r = Array::run(self, max_cycles);
        self.device_stop(r)
    }

    fn cycles(&self) -> u64 {
        self.cycle()
    }

    fn take_console(&mut self) -> Vec<u8> {
        Array::take_console(self)
    }

    fn read_bytes(&self, addr: u32, buf: &mut [u8]) -> Result<(), MemError> {
        let len = buf.len();
        for (i, b) in buf.iter_mut().enumerate() {
            let a = addr as u64 + i as u64;
            let px = self
                .framebuffer()
                .read(a / 4)
                .map_err(|e| outside(addr, len, e))?;
            *b = (px >> (8 * (a % 4))) as u8;
        }
        Ok(())
    }

    fn write_bytes(&mut self, addr: u32, data: &[u8]) -> Result<(), MemError> {
        let fb = self.framebuffer_mut();
        let (first, end) = (
            addr as u64 / 4,
            (addr as u64 + data.len() as u64).div_ceil(4),
        );
        if !fb.contains_range(first, end.saturating_sub(first)) {
            return Err(MemError::Outside {
                addr,
                len: data.len(),
                why: format!("the framebuffer has {} bytes", 4 * fb.len()),
            });
        }
        for (i, &b) in data.iter().enumerate() {
            let a = addr as u64 + i as u64;
            let shift = 8 * (a % 4);
            let px = fb.read(a / 4).map_err(|e| outside(addr, data.len(), e))?;
            let px = px & !(0xff << shift) | (b as u32) << shift;
            fb.write(a / 4, px)
                .map_err(|e| outside(addr, data.len(), e))?;
        }
        Ok(())
    }

    fn stats_json(&self) -> serde_json::Value {
        self.stats().to_value()
    }
}

impl Array {
    /// What [`Array::run`] or [`Array::run_traced`] returned, as the device face says it: a
    /// halt ends with the first non-zero HALT value as the exit code (every core halted with
    /// 0: all halted), a fault with its [`Fault::info`](crate::Fault::info).
    pub fn device_stop(&self, r: Result<Stop, crate::Fault>) -> weft_device::Stop {
        weft_device::Stop::End(match r {
            Ok(Stop::Frame) => return weft_device::Stop::Frame,
            Ok(Stop::Halted) => match self.exit_code() {
                0 => RunEnd::AllHalted,
                code => RunEnd::Exit(code),
            },
            Ok(Stop::CycleLimit) => RunEnd::CycleLimit(self.cycle()),
            Err(f) => RunEnd::Fault(f.info()),
        })
    }
}

fn outside(addr: u32, len: usize, e: impl std::fmt::Display) -> MemError {
    MemError::Outside {
        addr,
        len,
        why: e.to_string(),
    }
}
