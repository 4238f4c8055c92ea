//! Modules and kernels: a `.vxbin` image loaded at its own addresses (`vx_module_h`), and the
//! named entry points its symbol footer lists (`vx_kernel_h`).
//!
//! The image format is weft's (`weft_simt::vortex::vxbin`, docs/vortex.md): a header with the address
//! range, the image, and an optional symbol footer, where Vortex's `vxbin.py` writes one entry
//! per `__vx_kentry_<name>` symbol, `kernel_main` as `main`. Without a
//! footer the image's one kernel is `main` at its lowest address; a footer with a single
//! entry not called `main` also answers to `main` at that address.

use crate::buffer::Buffer;
use crate::device::Device;
use crate::error::{VxError, VxResult};
use std::sync::Arc;
use weft_simt::vortex::vxbin;

/// A `.vxbin` loaded on a device: the buffer holding its range, its footer's entries (name,
/// pc) and its lowest address.
pub struct Image {
    pub buffer: Buffer,
    pub entries: Vec<(String, u32)>,
    pub base: u32,
}

/// Reserve an image's range on `dev` and load it there as weft loads a program: code and
/// data copied, BSS zeroed, the code decoded with the reconvergence table weft computes from
/// the image (so divergent branches of stock-compiler code reconverge; docs/vortex.md).
pub fn load_image(dev: &Arc<Device>, bytes: &[u8]) -> VxResult<Image> {
    let bad = |e: vxbin::VxbinError| VxError::Invalid(format!("not a kernel image: {e}"));
    let v = vxbin::parse(bytes).map_err(bad)?;
    let prog = vxbin::program_from_vxbin(bytes).map_err(bad)?;
    let region = dev.reserve(v.min_vma as u64, (v.max_vma - v.min_vma) as u64)?;
    let buffer = Buffer::new(dev.clone(), region);
    dev.call(move |e| {
        e.m.load_module(&prog)
            .map_err(|err| VxError::Invalid(format!("kernel image: {err}")))
    })?;
    Ok(Image {
        buffer,
        entries: v.symbols,
        base: v.min_vma,
    })
}

/// The kernel `vx_start` runs in an image with a footer: `main`, or the only entry.
pub fn default_entry(entries: &[(String, u32)]) -> Option<u32> {
    entries
        .iter()
        .find(|(n, _)| n == "main")
        .or(if entries.len() == 1 {
            entries.first()
        } else {
            None
        })
        .map(|&(_, pc)| pc)
}

/// A loaded module.
pub struct Module {
    pub image: Arc<Buffer>,
    /// Where every launch of its kernels starts (the start-up code at the image's base).
    pub base: u32,
    pub symbols: Vec<(String, u32)>,
}

/// A kernel: an entry point of a module (which it keeps loaded).
pub struct Kernel {
    pub module: Arc<Module>,
    pub pc: u32,
}

impl Module {
    /// `vx_module_load_bytes`.
    pub fn load(dev: &Arc<Device>, bytes: &[u8]) -> VxResult<Module> {
        let img = load_image(dev, bytes)?;
        let mut symbols = img.entries;
        match symbols.len() {
            0 => symbols.push(("main".into(), img.base)),
            1 if symbols[0].0 != "main" => symbols.push(("main".into(), img.base)),
            _ => {}
        }
        Ok(Module {
            image: Arc::new(img.buffer),
            base: img.base,
            symbols,
        })
    }

    /// The entry point called `name`.
    pub fn kernel(self: &Arc<Self>, name: &str) -> VxResult<Kernel> {
        let pc = self
            .symbols
            .iter()
            .find(|(n, _)| n == name)
            .map(|&(_, pc)| pc)
            .ok_or_else(|| VxError::Invalid(format!("no kernel named '{name}' in the module")))?;
        Ok(Kernel {
            module: self.clone(),
            pc,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vx_start_runs_main_or_the_only_entry() {
        let two = vec![("saxpy".to_string(), 8), ("main".to_string(), 4)];
        assert_eq!(default_entry(&two), Some(4));
        let one = vec![("k".to_string(), 4)];
        assert_eq!(default_entry(&one), Some(4));
        let other = vec![("a".to_string(), 4), ("b".to_string(), 8)];
        assert_eq!(default_entry(&other), None);
        assert_eq!(default_entry(&[]), None);
    }
}
