//! Memory objects: buffers in the context's device memory, sub-buffers (a region of one),
//! and their mappings into host memory.
//!
//! A buffer made with `CL_MEM_USE_HOST_PTR` keeps the program's memory as its host copy: the
//! device copy is filled from it when the buffer is made, every command that writes the
//! buffer on the device (a write, a copy, a fill, a kernel that may write it) writes the
//! host memory too, and a map returns the program's pointer, so the program sees the
//! buffer's contents there as on a CPU device. Other buffers are mapped through a host
//! block of their own, written back at unmap when mapped for writing.

use crate::cl::mem as flags;
use crate::context::Context;
use crate::error::{ClError, ClResult};
use crate::object::{lock, ClObj};
use std::sync::{Arc, Mutex};

/// `void (CL_CALLBACK *)(cl_mem, void *)`.
pub type MemCallback = extern "C" fn(*mut std::ffi::c_void, *mut std::ffi::c_void);

/// A host block a map hands out (16-byte aligned).
pub struct HostBlock(Vec<u128>);

impl HostBlock {
    fn new(bytes: usize) -> HostBlock {
        HostBlock(vec![0u128; bytes.div_ceil(16).max(1)])
    }
    fn ptr(&mut self) -> *mut u8 {
        self.0.as_mut_ptr() as *mut u8
    }
}

/// One live mapping.
pub struct Mapping {
    /// The pointer the program was given.
    pub ptr: usize,
    pub offset: usize,
    pub size: usize,
    /// Mapped for writing: copied back to the device at unmap.
    pub write: bool,
    /// The host block it lives in (none for `USE_HOST_PTR` buffers).
    pub block: Option<HostBlock>,
}

/// A memory object.
pub struct Mem {
    pub context: Arc<ClObj<Context>>,
    pub flags: u64,
    pub size: usize,
    /// Device address of its first byte.
    pub addr: u32,
    /// The program's memory (`CL_MEM_USE_HOST_PTR`; of a sub-buffer, at its offset), or 0.
    pub host_ptr: usize,
    /// A sub-buffer's buffer and its offset in it.
    pub parent: Option<(Arc<ClObj<Mem>>, usize)>,
    pub maps: Mutex<Vec<Mapping>>,
    destructors: Mutex<Vec<(MemCallback, usize)>>,
    handle: Mutex<usize>,
}

impl Mem {
    /// A buffer of `size` bytes; its device memory is allocated here.
    pub fn buffer(
        context: Arc<ClObj<Context>>,
        fl: u64,
        size: usize,
        host_ptr: usize,
    ) -> ClResult<Mem> {
        let addr = context.alloc(size)?;
        Ok(Mem {
            context,
            flags: fl,
            size,
            addr,
            host_ptr: if fl & flags::USE_HOST_PTR != 0 {
                host_ptr
            } else {
                0
            },
            parent: None,
            maps: Mutex::new(Vec::new()),
            destructors: Mutex::new(Vec::new()),
            handle: Mutex::new(0),
        })
    }

    /// A region of `parent`.
    pub fn sub(parent: Arc<ClObj<Mem>>, fl: u64, offset: usize, size: usize) -> Mem {
        Mem {
            context: parent.context.clone(),
            flags: fl,
            size,
            addr: parent.addr + offset as u32,
            host_ptr: if parent.host_ptr != 0 {
                parent.host_ptr + offset
            } else {
                0
            },
            parent: Some((parent, offset)),
            maps: Mutex::new(Vec::new()),
            destructors: Mutex::new(Vec::new()),
            handle: Mutex::new(0),
        }
    }

    /// Remember the handle the program holds (destructor callbacks are given it).
    pub fn set_handle(&self, h: *mut std::ffi::c_void) {
        *lock(&self.handle) = h as usize;
    }

    /// `clSetMemObjectDestructorCallback`.
    pub fn on_destroy(&self, f: MemCallback, data: *mut std::ffi::c_void) {
        lock(&self.destructors).push((f, data as usize));
    }

    /// Check a region `[offset, offset + len)` of the buffer.
    pub fn check(&self, offset: usize, len: usize) -> ClResult<()> {
        if offset.checked_add(len).is_none_or(|end| end > self.size) {
            return Err(ClError::value(format!(
                "{len} bytes at offset {offset} do not fit in a buffer of {} bytes",
                self.size
            )));
        }
        Ok(())
    }

    /// Whether kernels may write it.
    pub fn device_writable(&self) -> bool {
        self.flags & flags::READ_ONLY == 0
    }

    /// After the device wrote `[offset, offset + len)`: the program's memory of a
    /// `USE_HOST_PTR` buffer gets the new bytes. Runs on a queue's worker.
    pub fn sync_to_host(&self, offset: usize, len: usize) -> ClResult<()> {
        if self.host_ptr == 0 || len == 0 {
            return Ok(());
        }
        let addr = self.addr + offset as u32;
        let data = self.context.engine.call(move |e| {
            let mut v = vec![0u8; len];
            e.read(addr, &mut v)?;
            Ok(v)
        })?;
        // SAFETY: the program gave this memory for the buffer's whole life (USE_HOST_PTR),
        // at least `size` bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(data.as_ptr(), (self.host_ptr + offset) as *mut u8, len)
        };
        Ok(())
    }

    /// Map `[offset, offset + size)`: the pointer the program gets (its contents are filled
    /// in by [`Mem::fill_map`] when the command runs).
    pub fn begin_map(&self, offset: usize, size: usize, fl: u64) -> *mut u8 {
        let write = fl & (flags::MAP_WRITE | flags::MAP_WRITE_INVALIDATE_REGION) != 0;
        let (ptr, block) = if self.host_ptr != 0 {
            ((self.host_ptr + offset) as *mut u8, None)
        } else {
            let mut b = HostBlock::new(size);
            (b.ptr(), Some(b))
        };
        lock(&self.maps).push(Mapping {
            ptr: ptr as usize,
            offset,
            size,
            write,
            block,
        });
        ptr
    }

    /// The mapping at `ptr` gets the device's bytes (unless it was mapped only to be
    /// overwritten). Runs on a queue's worker.
    pub fn fill_map(&self, ptr: usize, fl: u64) -> ClResult<()> {
        if fl & flags::MAP_WRITE_INVALIDATE_REGION != 0 {
            return Ok(());
        }
        let (offset, size) = {
            let m = lock(&self.maps);
            let Some(x) = m.iter().find(|x| x.ptr == ptr) else {
                return Ok(());
            };
            (x.offset, x.size)
        };
        if size == 0 {
            return Ok(());
        }
        let addr = self.addr + offset as u32;
        let data = self.context.engine.call(move |e| {
            let mut v = vec![0u8; size];
            e.read(addr, &mut v)?;
            Ok(v)
        })?;
        // SAFETY: ptr is a live mapping of `size` bytes (our block, kept in the list, or the
        // program's USE_HOST_PTR memory at the offset).
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), ptr as *mut u8, size) };
        Ok(())
    }

    /// The mapping a program's pointer names, taken out of the list.
    pub fn take_mapping(&self, ptr: usize) -> ClResult<Mapping> {
        let mut m = lock(&self.maps);
        let i = m.iter().position(|x| x.ptr == ptr).ok_or_else(|| {
            ClError::value("this pointer is not a live mapping of the memory object")
        })?;
        Ok(m.remove(i))
    }

    /// Unmap: a mapping for writing goes back to the device.
    pub fn unmap(&self, m: Mapping) -> ClResult<()> {
        if !m.write || m.size == 0 {
            return Ok(());
        }
        // SAFETY: the mapping's pointer is valid for `size` bytes until now (our block, kept
        // in `m`, or the program's USE_HOST_PTR memory).
        let data = unsafe { std::slice::from_raw_parts(m.ptr as *const u8, m.size) }.to_vec();
        let addr = self.addr + m.offset as u32;
        self.context.engine.call(move |e| e.write(addr, &data))
    }
}

impl Drop for Mem {
    fn drop(&mut self) {
        let h = *lock(&self.handle) as *mut std::ffi::c_void;
        // Destructor callbacks run in the reverse order they were set.
        for (f, data) in lock(&self.destructors).drain(..).rev() {
            f(h, data as *mut std::ffi::c_void);
        }
        if self.parent.is_none() {
            self.context.free(self.addr);
        }
    }
}
