//! `libvortex.so`: Vortex v3.0's classic host API (`sw/runtime/include/vortex.h`) over weft's
//! functional model under the Vortex profile, so that a Vortex host program linked with this
//! library instead of Vortex's runs its kernels on weft (docs/vortex.md, "libvortex.so").
//! Handles are boxed Rust objects; every function checks its pointers and returns 0 on
//! success and a Vortex error code (`vx_result_t`, non-zero) otherwise — never panics across
//! the C boundary. The device itself is in [`device`].
//!
//! Implemented: `vx_dev_open/close/caps`, `vx_mem_alloc/reserve/free/access/address/info`,
//! `vx_copy_to_dev/from_dev/dev_to_dev`, `vx_start`, `vx_ready_wait`, `vx_dcr_write/read`,
//! `vx_mpm_query`, `vx_upload_kernel_bytes/kernel_file/bytes/file`, `vx_check_occupancy`,
//! `vx_dump_perf`. Not yet: `vx_max_occupancy_grid` and the asynchronous `vortex2.h` API.

pub mod device;

use device::{Region, VxDevice, VxError};
use std::ffi::{c_char, c_int, c_void, CStr};

/// `vx_result_t` codes.
pub mod code {
    pub const SUCCESS: i32 = 0;
    pub const INVALID_HANDLE: i32 = 1;
    pub const INVALID_VALUE: i32 = 3;
    pub const OUT_OF_DEVICE_MEMORY: i32 = 5;
    pub const DEVICE_LOST: i32 = 6;
    pub const TIMEOUT: i32 = 7;
    pub const NOT_SUPPORTED: i32 = 9;
    pub const INTERNAL: i32 = 10;
}

/// A buffer handle: its device and region.
struct Buffer {
    dev: *mut VxDevice,
    region: Region,
}

fn fail(e: VxError) -> c_int {
    eprintln!("libvortex (weft): {e}");
    match e {
        VxError::OutOfMemory(_) => code::OUT_OF_DEVICE_MEMORY,
        VxError::Invalid(_) | VxError::Memory(_) | VxError::Kmu(_) => code::INVALID_VALUE,
        VxError::Timeout => code::TIMEOUT,
        VxError::Run(_) => code::DEVICE_LOST,
        VxError::NotSupported(_) => code::NOT_SUPPORTED,
        VxError::Config(_) => code::INTERNAL,
    }
}

fn done(r: Result<(), VxError>) -> c_int {
    match r {
        Ok(()) => code::SUCCESS,
        Err(e) => fail(e),
    }
}

/// The device behind a handle.
///
/// # Safety
/// `h` is null or a handle from `vx_dev_open` not yet closed.
unsafe fn dev<'a>(h: *mut c_void) -> Option<&'a mut VxDevice> {
    (h as *mut VxDevice).as_mut()
}

/// # Safety
/// `h` is null or a handle from this library's buffer functions not yet freed.
unsafe fn buf<'a>(h: *mut c_void) -> Option<&'a mut Buffer> {
    (h as *mut Buffer).as_mut()
}

fn new_buffer(dev: *mut VxDevice, region: Region, out: *mut *mut c_void) -> c_int {
    let b = Box::into_raw(Box::new(Buffer { dev, region }));
    // SAFETY: callers checked `out` is non-null.
    unsafe { *out = b as *mut c_void };
    code::SUCCESS
}

/// Open a device configured from the environment (`device::config_from_env`).
///
/// # Safety
/// `hdevice` is null or points to writable storage for a handle.
#[no_mangle]
pub unsafe extern "C" fn vx_dev_open(hdevice: *mut *mut c_void) -> c_int {
    if hdevice.is_null() {
        return code::INVALID_VALUE;
    }
    let d = device::config_from_env(|k| std::env::var(k).ok()).and_then(VxDevice::new);
    match d {
        Ok(d) => {
            *hdevice = Box::into_raw(Box::new(d)) as *mut c_void;
            code::SUCCESS
        }
        Err(e) => fail(e),
    }
}

/// Close a device. A launch the host never waited for is dropped, not run (so a kernel
/// that never ends cannot hang the host at exit).
///
/// # Safety
/// `hdevice` is null or an open device handle; it is invalid afterwards.
#[no_mangle]
pub unsafe extern "C" fn vx_dev_close(hdevice: *mut c_void) -> c_int {
    if hdevice.is_null() {
        return code::INVALID_HANDLE;
    }
    drop(Box::from_raw(hdevice as *mut VxDevice));
    code::SUCCESS
}

/// # Safety
/// `hdevice` is an open device handle; `value` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_dev_caps(hdevice: *mut c_void, caps_id: u32, value: *mut u64) -> c_int {
    let (Some(d), false) = (dev(hdevice), value.is_null()) else {
        return code::INVALID_HANDLE;
    };
    match d.caps(caps_id) {
        Ok(v) => {
            *value = v;
            code::SUCCESS
        }
        Err(e) => fail(e),
    }
}

/// # Safety
/// `hdevice` is an open device handle; `hbuffer` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_mem_alloc(
    hdevice: *mut c_void,
    size: u64,
    _flags: c_int,
    hbuffer: *mut *mut c_void,
) -> c_int {
    let (Some(d), false) = (dev(hdevice), hbuffer.is_null()) else {
        return code::INVALID_HANDLE;
    };
    match d.alloc(size) {
        Ok(r) => new_buffer(d, r, hbuffer),
        Err(e) => fail(e),
    }
}

/// # Safety
/// `hdevice` is an open device handle; `hbuffer` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_mem_reserve(
    hdevice: *mut c_void,
    address: u64,
    size: u64,
    _flags: c_int,
    hbuffer: *mut *mut c_void,
) -> c_int {
    let (Some(d), false) = (dev(hdevice), hbuffer.is_null()) else {
        return code::INVALID_HANDLE;
    };
    match d.reserve(address, size) {
        Ok(r) => new_buffer(d, r, hbuffer),
        Err(e) => fail(e),
    }
}

/// # Safety
/// `hbuffer` is null or a live buffer handle; it is invalid afterwards.
#[no_mangle]
pub unsafe extern "C" fn vx_mem_free(hbuffer: *mut c_void) -> c_int {
    if hbuffer.is_null() {
        return code::SUCCESS;
    }
    let b = Box::from_raw(hbuffer as *mut Buffer);
    match dev(b.dev as *mut c_void) {
        Some(d) => done(d.free(b.region)),
        None => code::INVALID_HANDLE,
    }
}

/// Access flags are accepted and not enforced (weft has no memory protection).
///
/// # Safety
/// `hbuffer` is a live buffer handle.
#[no_mangle]
pub unsafe extern "C" fn vx_mem_access(
    hbuffer: *mut c_void,
    offset: u64,
    size: u64,
    _flags: c_int,
) -> c_int {
    let Some(b) = buf(hbuffer) else {
        return code::INVALID_HANDLE;
    };
    if offset
        .checked_add(size)
        .is_none_or(|e| e > b.region.size as u64)
    {
        return code::INVALID_VALUE;
    }
    code::SUCCESS
}

/// # Safety
/// `hbuffer` is a live buffer handle; `address` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_mem_address(hbuffer: *mut c_void, address: *mut u64) -> c_int {
    let (Some(b), false) = (buf(hbuffer), address.is_null()) else {
        return code::INVALID_HANDLE;
    };
    *address = b.region.addr as u64;
    code::SUCCESS
}

/// # Safety
/// `hdevice` is an open device handle; the outputs null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_mem_info(
    hdevice: *mut c_void,
    mem_free: *mut u64,
    mem_used: *mut u64,
) -> c_int {
    let Some(d) = dev(hdevice) else {
        return code::INVALID_HANDLE;
    };
    let (free, used) = d.mem_info();
    if !mem_free.is_null() {
        *mem_free = free;
    }
    if !mem_used.is_null() {
        *mem_used = used;
    }
    code::SUCCESS
}

/// # Safety
/// `hbuffer` is a live buffer handle; `host_ptr` points to `size` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn vx_copy_to_dev(
    hbuffer: *mut c_void,
    host_ptr: *const c_void,
    dst_offset: u64,
    size: u64,
) -> c_int {
    let Some(b) = buf(hbuffer) else {
        return code::INVALID_HANDLE;
    };
    let Some(d) = dev(b.dev as *mut c_void) else {
        return code::INVALID_HANDLE;
    };
    if host_ptr.is_null() && size > 0 {
        return code::INVALID_VALUE;
    }
    let data = if size == 0 {
        &[][..]
    } else {
        std::slice::from_raw_parts(host_ptr as *const u8, size as usize)
    };
    done(d.write(b.region, dst_offset, data))
}

/// # Safety
/// `hbuffer` is a live buffer handle; `host_ptr` points to `size` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn vx_copy_from_dev(
    host_ptr: *mut c_void,
    hbuffer: *mut c_void,
    src_offset: u64,
    size: u64,
) -> c_int {
    let Some(b) = buf(hbuffer) else {
        return code::INVALID_HANDLE;
    };
    let Some(d) = dev(b.dev as *mut c_void) else {
        return code::INVALID_HANDLE;
    };
    if host_ptr.is_null() && size > 0 {
        return code::INVALID_VALUE;
    }
    // A read sees the results of a launch still pending (Vortex orders copies after it).
    if let Err(e) = d.finish(None) {
        return fail(e);
    }
    let out = if size == 0 {
        &mut [][..]
    } else {
        std::slice::from_raw_parts_mut(host_ptr as *mut u8, size as usize)
    };
    done(d.read(b.region, src_offset, out))
}

/// # Safety
/// Both are live buffer handles of the same device.
#[no_mangle]
pub unsafe extern "C" fn vx_copy_dev_to_dev(
    hdest_buffer: *mut c_void,
    dest_offset: u64,
    hsrc_buffer: *mut c_void,
    src_offset: u64,
    size: u64,
) -> c_int {
    let (Some(dst), Some(src)) = (buf(hdest_buffer), buf(hsrc_buffer)) else {
        return code::INVALID_HANDLE;
    };
    let (dr, sr, dp) = (dst.region, src.region, dst.dev);
    if dp != src.dev {
        return code::INVALID_VALUE;
    }
    let Some(d) = dev(dp as *mut c_void) else {
        return code::INVALID_HANDLE;
    };
    let mut tmp = vec![0u8; size.min(u32::MAX as u64) as usize];
    done(
        d.finish(None)
            .and_then(|()| d.read(sr, src_offset, &mut tmp))
            .and_then(|()| d.write(dr, dest_offset, &tmp)),
    )
}

/// Launch the kernel image in `hkernel` with the argument buffer `harguments` (see
/// [`VxDevice::start`]); it runs when the host waits or reads.
///
/// # Safety
/// All three are live handles of one device.
#[no_mangle]
pub unsafe extern "C" fn vx_start(
    hdevice: *mut c_void,
    hkernel: *mut c_void,
    harguments: *mut c_void,
) -> c_int {
    let (Some(d), Some(k), Some(a)) = (dev(hdevice), buf(hkernel), buf(harguments)) else {
        return code::INVALID_HANDLE;
    };
    let (image, args) = (k.region.addr, a.region.addr);
    done(d.start(image, args))
}

/// Wait for the launch, at most `timeout` milliseconds (`u64::MAX`: no limit).
///
/// # Safety
/// `hdevice` is an open device handle.
#[no_mangle]
pub unsafe extern "C" fn vx_ready_wait(hdevice: *mut c_void, timeout: u64) -> c_int {
    let Some(d) = dev(hdevice) else {
        return code::INVALID_HANDLE;
    };
    let t = (timeout != u64::MAX).then(|| std::time::Duration::from_millis(timeout));
    done(d.finish(t))
}

/// # Safety
/// `hdevice` is an open device handle.
#[no_mangle]
pub unsafe extern "C" fn vx_dcr_write(hdevice: *mut c_void, addr: u32, value: u32) -> c_int {
    let Some(d) = dev(hdevice) else {
        return code::INVALID_HANDLE;
    };
    done(d.finish(None).and_then(|()| d.dcr_write(addr, value)))
}

/// # Safety
/// `hdevice` is an open device handle; `value` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_dcr_read(
    hdevice: *mut c_void,
    addr: u32,
    _tag: u32,
    value: *mut u32,
) -> c_int {
    let (Some(d), false) = (dev(hdevice), value.is_null()) else {
        return code::INVALID_HANDLE;
    };
    match d.finish(None).and_then(|()| d.dcr_read(addr)) {
        Ok(v) => {
            *value = v;
            code::SUCCESS
        }
        Err(e) => fail(e),
    }
}

/// # Safety
/// `hdevice` is an open device handle; `value` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_mpm_query(
    hdevice: *mut c_void,
    _mpm_class: u32,
    addr: u32,
    core_id: u32,
    value: *mut u64,
) -> c_int {
    let (Some(d), false) = (dev(hdevice), value.is_null()) else {
        return code::INVALID_HANDLE;
    };
    match d.finish(None).and_then(|()| d.mpm(addr, core_id)) {
        Ok(v) => {
            *value = v;
            code::SUCCESS
        }
        Err(e) => fail(e),
    }
}

/// Upload a `.vxbin` kernel image at its own addresses (BSS zeroed), as Vortex's
/// `vx_upload_kernel_bytes` does.
///
/// # Safety
/// `hdevice` is an open device handle; `content` points to `size` readable bytes;
/// `hbuffer` null or writable.
#[no_mangle]
pub unsafe extern "C" fn vx_upload_kernel_bytes(
    hdevice: *mut c_void,
    content: *const c_void,
    size: u64,
    hbuffer: *mut *mut c_void,
) -> c_int {
    let (Some(d), false, false) = (dev(hdevice), content.is_null(), hbuffer.is_null()) else {
        return code::INVALID_HANDLE;
    };
    let bytes = std::slice::from_raw_parts(content as *const u8, size as usize);
    upload_kernel(d, bytes, hbuffer)
}

fn upload_kernel(d: &mut VxDevice, bytes: &[u8], out: *mut *mut c_void) -> c_int {
    let r = device::vxbin_parts(bytes).and_then(|(lo, span, body)| {
        let r = d.reserve(lo as u64, span as u64)?;
        let mut image = body.to_vec();
        image.resize(span as usize, 0);
        d.write(r, 0, &image).inspect_err(|_| {
            let _ = d.free(r);
        })?;
        Ok(r)
    });
    match r {
        Ok(r) => new_buffer(d, r, out),
        Err(e) => fail(e),
    }
}

/// # Safety
/// As [`vx_upload_kernel_bytes`]; `filename` a NUL-terminated path.
#[no_mangle]
pub unsafe extern "C" fn vx_upload_kernel_file(
    hdevice: *mut c_void,
    filename: *const c_char,
    hbuffer: *mut *mut c_void,
) -> c_int {
    let (Some(d), false, false) = (dev(hdevice), filename.is_null(), hbuffer.is_null()) else {
        return code::INVALID_HANDLE;
    };
    match read_file(filename) {
        Ok(bytes) => upload_kernel(d, &bytes, hbuffer),
        Err(e) => fail(e),
    }
}

unsafe fn read_file(filename: *const c_char) -> Result<Vec<u8>, VxError> {
    let path = CStr::from_ptr(filename).to_string_lossy().into_owned();
    std::fs::read(&path).map_err(|e| VxError::Invalid(format!("{path}: {e}")))
}

/// Allocate a buffer and copy `size` bytes into it.
///
/// # Safety
/// As [`vx_upload_kernel_bytes`].
#[no_mangle]
pub unsafe extern "C" fn vx_upload_bytes(
    hdevice: *mut c_void,
    content: *const c_void,
    size: u64,
    hbuffer: *mut *mut c_void,
) -> c_int {
    let (Some(d), false, false) = (dev(hdevice), content.is_null(), hbuffer.is_null()) else {
        return code::INVALID_HANDLE;
    };
    let bytes = std::slice::from_raw_parts(content as *const u8, size as usize);
    upload(d, bytes, hbuffer)
}

fn upload(d: &mut VxDevice, bytes: &[u8], out: *mut *mut c_void) -> c_int {
    let r = d.alloc(bytes.len() as u64).and_then(|r| {
        d.write(r, 0, bytes).inspect_err(|_| {
            let _ = d.free(r);
        })?;
        Ok(r)
    });
    match r {
        Ok(r) => new_buffer(d, r, out),
        Err(e) => fail(e),
    }
}

/// # Safety
/// As [`vx_upload_kernel_file`].
#[no_mangle]
pub unsafe extern "C" fn vx_upload_file(
    hdevice: *mut c_void,
    filename: *const c_char,
    hbuffer: *mut *mut c_void,
) -> c_int {
    let (Some(d), false, false) = (dev(hdevice), filename.is_null(), hbuffer.is_null()) else {
        return code::INVALID_HANDLE;
    };
    match read_file(filename) {
        Ok(bytes) => upload(d, &bytes, hbuffer),
        Err(e) => fail(e),
    }
}

/// 0 when a CTA of `block_size` threads fits a core's warps and `max_localmem` bytes (if
/// not 0) fit its local memory; `VX_ERR_INVALID_VALUE` otherwise.
///
/// # Safety
/// `hdevice` is an open device handle.
#[no_mangle]
pub unsafe extern "C" fn vx_check_occupancy(
    hdevice: *mut c_void,
    block_size: u32,
    max_localmem: u32,
) -> c_int {
    let Some(d) = dev(hdevice) else {
        return code::INVALID_HANDLE;
    };
    let c = &d.m.cfg;
    let fits = block_size > 0
        && block_size as u64 <= (c.warps * c.lanes) as u64
        && max_localmem <= c.local_mem_size;
    if fits {
        code::SUCCESS
    } else {
        code::INVALID_VALUE
    }
}

extern "C" {
    fn fputs(s: *const c_char, stream: *mut c_void) -> c_int;
}

/// Print instructions, cycles and IPC to `stream` (a C `FILE *`).
///
/// # Safety
/// `hdevice` is an open device handle; `stream` null or an open `FILE *`.
#[no_mangle]
pub unsafe extern "C" fn vx_dump_perf(hdevice: *mut c_void, stream: *mut c_void) -> c_int {
    let Some(d) = dev(hdevice) else {
        return code::INVALID_HANDLE;
    };
    if let Err(e) = d.finish(None) {
        return fail(e);
    }
    let text = d.perf_text();
    if stream.is_null() {
        print!("{text}");
        return code::SUCCESS;
    }
    let Ok(c) = std::ffi::CString::new(text) else {
        return code::INTERNAL;
    };
    if fputs(c.as_ptr(), stream) < 0 {
        code::INTERNAL
    } else {
        code::SUCCESS
    }
}
