//! Device buffers (`vx_buffer_h`): a region of device memory, freed when the last holder
//! (the host's handle, or a queued command using it) lets go, and at most one host mapping
//! at a time — a host block the device range is read into when mapped for reading and
//! written back from when a mapping for writing ends.

use crate::device::Device;
use crate::error::{VxError, VxResult};
use crate::memory::Region;
use crate::sync::lock;
use std::alloc::Layout;
use std::sync::{Arc, Mutex};

/// `VX_MEM_*` access flags.
pub mod flags {
    pub const READ: u32 = 0x1;
    pub const WRITE: u32 = 0x2;
}

/// Host memory given to the C program (a mapping's mirror): 64-byte aligned, freed on drop.
struct HostBlock {
    ptr: usize,
    layout: Layout,
}

impl HostBlock {
    fn new(len: usize) -> VxResult<HostBlock> {
        let layout = Layout::from_size_align(len.max(1), 64)
            .map_err(|_| VxError::OutOfHostMemory(len as u64))?;
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
        if ptr.is_null() {
            return Err(VxError::OutOfHostMemory(len as u64));
        }
        Ok(HostBlock {
            ptr: ptr as usize,
            layout,
        })
    }
}

impl Drop for HostBlock {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout, freed once.
        unsafe { std::alloc::dealloc(self.ptr as *mut u8, self.layout) };
    }
}

/// A mapping of `[offset, offset + size)`.
struct Mapping {
    host: HostBlock,
    offset: u64,
    size: u64,
    flags: u32,
}

/// A device buffer.
pub struct Buffer {
    pub dev: Arc<Device>,
    pub region: Region,
    /// Kernel entries named in the `.vxbin` footer of an image uploaded with the classic
    /// helpers (`vx_start` launches the one called `main`, or the only one).
    pub entries: Vec<(String, u32)>,
    map: Mutex<Option<Mapping>>,
}

impl Buffer {
    /// A buffer over `region` of `dev` (which it frees when dropped).
    pub fn new(dev: Arc<Device>, region: Region) -> Buffer {
        Buffer {
            dev,
            region,
            entries: Vec::new(),
            map: Mutex::new(None),
        }
    }

    /// `vx_buffer_access`: the range must lie in the buffer; weft enforces no protection.
    pub fn access(&self, offset: u64, size: u64) -> VxResult<()> {
        self.region.at(offset, size).map(|_| ())
    }

    /// Start a mapping: the host block it will use (not yet filled).
    pub fn map_reserve(&self, offset: u64, size: u64, flags: u32) -> VxResult<*mut u8> {
        self.region.at(offset, size)?;
        let mut m = lock(&self.map);
        if m.is_some() {
            return Err(VxError::NotSupported(
                "a buffer has one mapping at a time".into(),
            ));
        }
        let len = usize::try_from(size).map_err(|_| VxError::OutOfHostMemory(size))?;
        let host = HostBlock::new(len)?;
        let ptr = host.ptr as *mut u8;
        *m = Some(Mapping {
            host,
            offset,
            size,
            flags,
        });
        Ok(ptr)
    }

    /// Fill a mapping for reading with the device's bytes.
    pub fn map_commit(&self) -> VxResult<()> {
        let (ptr, at, len) = {
            let m = lock(&self.map);
            let m = m
                .as_ref()
                .ok_or_else(|| VxError::Invalid("the buffer is not mapped".into()))?;
            if m.flags & flags::READ == 0 || m.size == 0 {
                return Ok(());
            }
            (
                m.host.ptr,
                self.region.at(m.offset, m.size)?,
                m.size as usize,
            )
        };
        let bytes = self.dev.read(at, len)?;
        // SAFETY: the mapping's block holds `len` bytes and stays until unmap, which the
        // host may call only after this command's event.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr as *mut u8, len) };
        Ok(())
    }

    /// Drop a mapping that never started.
    pub fn map_cancel(&self) {
        lock(&self.map).take();
    }

    /// `vx_buffer_map`: a mapping, filled now.
    pub fn map(&self, offset: u64, size: u64, flags: u32) -> VxResult<*mut u8> {
        let p = self.map_reserve(offset, size, flags)?;
        self.map_commit().inspect_err(|_| self.map_cancel())?;
        Ok(p)
    }

    /// End the mapping at `host`: written back if it was for writing, then freed.
    pub fn unmap(&self, host: usize) -> VxResult<()> {
        let m = {
            let mut m = lock(&self.map);
            match m.as_ref() {
                Some(x) if x.host.ptr == host => m.take(),
                _ => None,
            }
        }
        .ok_or_else(|| VxError::Invalid("not this buffer's mapping".into()))?;
        if m.flags & flags::WRITE != 0 && m.size != 0 {
            let at = self.region.at(m.offset, m.size)?;
            // SAFETY: the block holds `size` bytes, written by the host while mapped.
            let data =
                unsafe { std::slice::from_raw_parts(m.host.ptr as *const u8, m.size as usize) }
                    .to_vec();
            self.dev.write(at, data)?;
        }
        Ok(())
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        let _ = self.dev.free(self.region);
    }
}
