//! The C ABI of weft's host runtime (`include/weft_runtime.h`): opaque device handles, error
//! codes and a per-device last-error message over [`weft_runtime::Device`]. No call panics
//! across the boundary: null pointers and bad UTF-8 are `WEFT_E_ARGUMENT`.

use std::ffi::{c_char, CStr, CString};
use std::path::PathBuf;
use weft_runtime::{
    Args, Buffer, Device, DeviceConfig, Dim3, LaunchOptions, ModuleId, RuntimeError,
};

/// A device handle as C sees it.
pub struct WeftDevice {
    dev: Device,
    error: CString,
    output: Vec<u8>,
}

/// `weft_buffer`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct WeftBuffer {
    /// Device address.
    pub addr: u32,
    /// Bytes.
    pub len: u32,
}

const OK: i32 = 0;
const E_ARGUMENT: i32 = 9;

fn code(e: &RuntimeError) -> i32 {
    match e {
        RuntimeError::OutOfMemory { .. } => 1,
        RuntimeError::BadAddress { .. } => 2,
        RuntimeError::NoSuchKernel(_) => 3,
        RuntimeError::KernelFault(_) => 4,
        RuntimeError::Timeout { .. } => 5,
        RuntimeError::Deadlock(_) => 6,
        RuntimeError::KernelExit { .. } => 7,
        RuntimeError::Load(_) => 8,
        RuntimeError::NothingLaunched => 10,
    }
}

impl WeftDevice {
    /// A call refused for a bad argument: `WEFT_E_ARGUMENT`, with `why` (naming the call and
    /// the argument) as the last error, as every failure has its message.
    fn refuse(&mut self, why: &str) -> i32 {
        self.error = CString::new(why.replace('\0', " ")).unwrap_or_default();
        E_ARGUMENT
    }

    fn done(&mut self, r: Result<(), RuntimeError>) -> i32 {
        match r {
            Ok(()) => {
                self.error = CString::default();
                OK
            }
            Err(e) => {
                self.error = CString::new(e.to_string().replace('\0', " ")).unwrap_or_default();
                code(&e)
            }
        }
    }
}

fn copy_text(msg: &str, err: *mut c_char, err_len: usize) {
    if err.is_null() || err_len == 0 {
        return;
    }
    let n = msg.len().min(err_len - 1);
    // SAFETY: the caller gives err_len writable bytes at err.
    unsafe {
        std::ptr::copy_nonoverlapping(msg.as_ptr(), err as *mut u8, n);
        *err.add(n) = 0;
    }
}

fn config(cores: u32, warps: u32, lanes: u32) -> DeviceConfig {
    DeviceConfig {
        cores: cores as usize,
        warps: warps as usize,
        lanes: lanes as usize,
        ..DeviceConfig::default()
    }
}

fn open(
    r: Result<Device, RuntimeError>,
    out: *mut *mut WeftDevice,
    err: *mut c_char,
    err_len: usize,
) -> i32 {
    if out.is_null() {
        copy_text("weft_device_open: out is NULL", err, err_len);
        return E_ARGUMENT;
    }
    match r {
        Ok(dev) => {
            let h = Box::new(WeftDevice {
                dev,
                error: CString::default(),
                output: Vec::new(),
            });
            // SAFETY: out is non-null and writable (the caller's pointer variable).
            unsafe { *out = Box::into_raw(h) };
            OK
        }
        Err(e) => {
            copy_text(&e.to_string(), err, err_len);
            // SAFETY: as above.
            unsafe { *out = std::ptr::null_mut() };
            code(&e)
        }
    }
}

fn str_arg<'a>(p: *const c_char) -> Option<&'a str> {
    if p.is_null() {
        return None;
    }
    // SAFETY: a NUL-terminated string from the caller.
    unsafe { CStr::from_ptr(p) }.to_str().ok()
}

/// See weft_runtime.h.
///
/// # Safety
/// Pointers as weft_runtime.h describes: a live handle (or null), and buffers of the
/// lengths given.
#[no_mangle]
pub unsafe extern "C" fn weft_device_open(
    elf_path: *const c_char,
    cores: u32,
    warps: u32,
    lanes: u32,
    out: *mut *mut WeftDevice,
    err: *mut c_char,
    err_len: usize,
) -> i32 {
    let Some(path) = str_arg(elf_path) else {
        copy_text("weft_device_open: no path", err, err_len);
        return E_ARGUMENT;
    };
    open(
        device_from_elf(path, config(cores, warps, lanes)),
        out,
        err,
        err_len,
    )
}

/// See weft_runtime.h.
///
/// # Safety
/// Pointers as weft_runtime.h describes: a live handle (or null), and buffers of the
/// lengths given.
#[no_mangle]
pub unsafe extern "C" fn weft_device_open_config(
    elf_path: *const c_char,
    config_toml: *const c_char,
    out: *mut *mut WeftDevice,
    err: *mut c_char,
    err_len: usize,
) -> i32 {
    let (Some(path), Some(text)) = (str_arg(elf_path), str_arg(config_toml)) else {
        copy_text(
            "weft_device_open_config: no path or no configuration",
            err,
            err_len,
        );
        return E_ARGUMENT;
    };
    let r = DeviceConfig::from_toml(text).and_then(|cfg| device_from_elf(path, cfg));
    open(r, out, err, err_len)
}

/// See weft_runtime.h.
///
/// # Safety
/// Pointers as weft_runtime.h describes: a live handle (or null), and buffers of the
/// lengths given.
#[no_mangle]
pub unsafe extern "C" fn weft_device_open_c(
    sources: *const *const c_char,
    n: usize,
    cores: u32,
    warps: u32,
    lanes: u32,
    out: *mut *mut WeftDevice,
    err: *mut c_char,
    err_len: usize,
) -> i32 {
    // SAFETY: the caller gives n string pointers.
    let Some(paths) = (unsafe { source_paths(sources, n, "weft_device_open_c", err, err_len) })
    else {
        return E_ARGUMENT;
    };
    let refs: Vec<&std::path::Path> = paths.iter().map(|p| p.as_path()).collect();
    open(
        Device::from_c(config(cores, warps, lanes), &refs),
        out,
        err,
        err_len,
    )
}

/// A device of shape `cfg` running the ELF at `path`.
fn device_from_elf(path: &str, cfg: DeviceConfig) -> Result<Device, RuntimeError> {
    std::fs::read(path)
        .map_err(|e| RuntimeError::Load(format!("{path}: {e}")))
        .and_then(|elf| Device::new(cfg, &elf))
}

/// The `n` source paths at `sources`, or `None` (with the message copied out) if the array
/// or one of them is null, or one is not UTF-8.
///
/// # Safety
/// `sources` points to `n` string pointers.
unsafe fn source_paths(
    sources: *const *const c_char,
    n: usize,
    who: &str,
    err: *mut c_char,
    err_len: usize,
) -> Option<Vec<PathBuf>> {
    if sources.is_null() {
        copy_text(&format!("{who}: no sources"), err, err_len);
        return None;
    }
    let mut paths = Vec::new();
    for i in 0..n {
        // SAFETY: the caller gives n string pointers.
        match str_arg(unsafe { *sources.add(i) }) {
            Some(s) => paths.push(PathBuf::from(s)),
            None => {
                copy_text(&format!("{who}: a null or non-UTF-8 source"), err, err_len);
                return None;
            }
        }
    }
    Some(paths)
}

/// See weft_runtime.h.
///
/// # Safety
/// Pointers as weft_runtime.h describes: a live handle (or null), and buffers of the
/// lengths given.
#[no_mangle]
pub unsafe extern "C" fn weft_device_open_c_config(
    sources: *const *const c_char,
    n: usize,
    config_toml: *const c_char,
    out: *mut *mut WeftDevice,
    err: *mut c_char,
    err_len: usize,
) -> i32 {
    let Some(text) = str_arg(config_toml) else {
        copy_text("weft_device_open_c_config: no configuration", err, err_len);
        return E_ARGUMENT;
    };
    // SAFETY: the caller gives n string pointers.
    let Some(paths) =
        (unsafe { source_paths(sources, n, "weft_device_open_c_config", err, err_len) })
    else {
        return E_ARGUMENT;
    };
    let refs: Vec<&std::path::Path> = paths.iter().map(|p| p.as_path()).collect();
    let r = DeviceConfig::from_toml(text).and_then(|cfg| Device::from_c(cfg, &refs));
    open(r, out, err, err_len)
}

/// See weft_runtime.h.
///
/// # Safety
/// `d` is a live handle; `buf` has `len` bytes (or is null with `len` 0).
#[no_mangle]
pub unsafe extern "C" fn weft_stats_json(
    d: *const WeftDevice,
    buf: *mut c_char,
    len: usize,
) -> usize {
    if d.is_null() {
        return 0;
    }
    // SAFETY: a live handle.
    let text = unsafe { &*d }.dev.stats().to_string();
    copy_text(&text, buf, len);
    text.len() + 1
}

/// See weft_runtime.h.
///
/// # Safety
/// `d` is a live handle; `buf` has `len` bytes (or is null with `len` 0).
#[no_mangle]
pub unsafe extern "C" fn weft_launch_stats_json(
    d: *const WeftDevice,
    index: i64,
    buf: *mut c_char,
    len: usize,
) -> usize {
    if d.is_null() {
        return 0;
    }
    // SAFETY: a live handle.
    let launches = unsafe { &*d }.dev.launch_stats();
    let k = if index < 0 {
        launches.len() as i64 + index
    } else {
        index
    };
    let Some(l) = usize::try_from(k).ok().and_then(|k| launches.get(k)) else {
        copy_text("", buf, len);
        return 0;
    };
    let text = l.to_string();
    copy_text(&text, buf, len);
    text.len() + 1
}

/// See weft_runtime.h.
///
/// # Safety
/// Pointers as weft_runtime.h describes: a live handle (or null), and buffers of the
/// lengths given.
#[no_mangle]
pub unsafe extern "C" fn weft_device_close(d: *mut WeftDevice) {
    if !d.is_null() {
        // SAFETY: a handle from weft_device_open*, closed once.
        drop(unsafe { Box::from_raw(d) });
    }
}

fn dev<'a>(d: *mut WeftDevice) -> Option<&'a mut WeftDevice> {
    // SAFETY: a live handle from weft_device_open* (or null).
    unsafe { d.as_mut() }
}

/// See weft_runtime.h.
///
/// # Safety
/// Pointers as weft_runtime.h describes: a live handle (or null), and buffers of the
/// lengths given.
#[no_mangle]
pub unsafe extern "C" fn weft_last_error(d: *const WeftDevice) -> *const c_char {
    // SAFETY: a live handle or null.
    match unsafe { d.as_ref() } {
        Some(h) => h.error.as_ptr(),
        None => c"no device".as_ptr(),
    }
}

/// See weft_runtime.h.
///
/// # Safety
/// Pointers as weft_runtime.h describes: a live handle (or null), and buffers of the
/// lengths given.
#[no_mangle]
pub unsafe extern "C" fn weft_alloc(d: *mut WeftDevice, bytes: u32, out: *mut WeftBuffer) -> i32 {
    let Some(h) = dev(d) else { return E_ARGUMENT };
    if out.is_null() {
        return h.refuse("weft_alloc: out is NULL");
    }
    let r = h.dev.alloc(bytes).map(|b| {
        // SAFETY: out is non-null.
        unsafe {
            *out = WeftBuffer {
                addr: b.addr,
                len: b.len,
            }
        }
    });
    h.done(r)
}

fn buffer(b: WeftBuffer) -> Buffer {
    Buffer {
        addr: b.addr,
        len: b.len,
    }
}

/// See weft_runtime.h.
///
/// # Safety
/// Pointers as weft_runtime.h describes: a live handle (or null), and buffers of the
/// lengths given.
#[no_mangle]
pub unsafe extern "C" fn weft_free(d: *mut WeftDevice, b: WeftBuffer) -> i32 {
    let Some(h) = dev(d) else { return E_ARGUMENT };
    let r = h.dev.free(buffer(b));
    h.done(r)
}

/// See weft_runtime.h.
///
/// # Safety
/// Pointers as weft_runtime.h describes: a live handle (or null), and buffers of the
/// lengths given.
#[no_mangle]
pub unsafe extern "C" fn weft_write(
    d: *mut WeftDevice,
    b: WeftBuffer,
    offset: u32,
    src: *const u8,
    n: usize,
) -> i32 {
    let Some(h) = dev(d) else { return E_ARGUMENT };
    if src.is_null() && n > 0 {
        return h.refuse("weft_write: src is NULL");
    }
    // The length is checked against the buffer before the caller's memory is touched.
    if let Err(e) = h.dev.check_range(&buffer(b), offset, n) {
        return h.done(Err(e));
    }
    // SAFETY: the caller gives n readable bytes at src (n fits in the buffer).
    let data = if n == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(src, n) }
    };
    let r = h.dev.write_bytes(&buffer(b), offset, data);
    h.done(r)
}

/// See weft_runtime.h.
///
/// # Safety
/// Pointers as weft_runtime.h describes: a live handle (or null), and buffers of the
/// lengths given.
#[no_mangle]
pub unsafe extern "C" fn weft_read(
    d: *mut WeftDevice,
    b: WeftBuffer,
    offset: u32,
    dst: *mut u8,
    n: usize,
) -> i32 {
    let Some(h) = dev(d) else { return E_ARGUMENT };
    if dst.is_null() && n > 0 {
        return h.refuse("weft_read: dst is NULL");
    }
    // The length is checked against the buffer before anything is allocated or written.
    if let Err(e) = h.dev.check_range(&buffer(b), offset, n) {
        return h.done(Err(e));
    }
    let mut tmp = vec![0u8; n];
    let r = h.dev.read_bytes(&buffer(b), offset, &mut tmp).map(|()| {
        // SAFETY: the caller gives n writable bytes at dst.
        unsafe { std::ptr::copy_nonoverlapping(tmp.as_ptr(), dst, n) }
    });
    h.done(r)
}

/// See weft_runtime.h.
///
/// # Safety
/// Pointers as weft_runtime.h describes: a live handle (or null), and buffers of the
/// lengths given.
#[no_mangle]
pub unsafe extern "C" fn weft_launch_kernel(
    d: *mut WeftDevice,
    name: *const c_char,
    grid: *const u32,
    block: *const u32,
    shared_bytes: u32,
    args: *const u8,
    args_len: usize,
) -> i32 {
    // SAFETY: the caller's pointers, passed on as they are.
    unsafe {
        launch_in(
            "weft_launch_kernel",
            d,
            0,
            name,
            grid,
            block,
            shared_bytes,
            args,
            args_len,
        )
    }
}

/// See weft_runtime.h.
///
/// # Safety
/// Pointers as weft_runtime.h describes: a live handle (or null), and buffers of the
/// lengths given.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn weft_launch_module_kernel(
    d: *mut WeftDevice,
    module: u32,
    name: *const c_char,
    grid: *const u32,
    block: *const u32,
    shared_bytes: u32,
    args: *const u8,
    args_len: usize,
) -> i32 {
    // SAFETY: the caller's pointers, passed on as they are.
    unsafe {
        launch_in(
            "weft_launch_module_kernel",
            d,
            module,
            name,
            grid,
            block,
            shared_bytes,
            args,
            args_len,
        )
    }
}

/// Queue a launch of kernel `name` of program `module` (`who` names the C call).
///
/// # Safety
/// As [`weft_launch_kernel`].
#[allow(clippy::too_many_arguments)]
unsafe fn launch_in(
    who: &str,
    d: *mut WeftDevice,
    module: u32,
    name: *const c_char,
    grid: *const u32,
    block: *const u32,
    shared_bytes: u32,
    args: *const u8,
    args_len: usize,
) -> i32 {
    let Some(h) = dev(d) else { return E_ARGUMENT };
    let Some(name) = str_arg(name) else {
        return h.refuse(&format!("{who}: name is NULL or not UTF-8"));
    };
    if grid.is_null() || block.is_null() {
        return h.refuse(&format!("{who}: grid or block is NULL"));
    }
    if args.is_null() && args_len > 0 {
        return h.refuse(&format!("{who}: args is NULL with args_len > 0"));
    }
    // The argument block is copied to a device buffer: a length no buffer can hold is
    // refused before the caller's memory is read.
    if let Err(e) = h.dev.check_alloc(args_len) {
        return h.done(Err(e));
    }
    // SAFETY: three u32 each, and args_len bytes of arguments.
    let (g, b, a) = unsafe {
        (
            std::slice::from_raw_parts(grid, 3),
            std::slice::from_raw_parts(block, 3),
            if args_len == 0 {
                &[][..]
            } else {
                std::slice::from_raw_parts(args, args_len)
            },
        )
    };
    let block_args = Args::raw(a);
    let o = LaunchOptions {
        module: ModuleId::new(module as usize),
        shared_bytes,
        record: None,
    };
    let r = h.dev.launch_with(
        name,
        Dim3::new(g[0], g[1], g[2]),
        Dim3::new(b[0], b[1], b[2]),
        &block_args,
        &o,
    );
    h.done(r.map(|_| ()))
}

/// See weft_runtime.h.
///
/// # Safety
/// Pointers as weft_runtime.h describes: a live handle (or null), and buffers of the
/// lengths given.
#[no_mangle]
pub unsafe extern "C" fn weft_module_load(
    d: *mut WeftDevice,
    elf_path: *const c_char,
    module: *mut u32,
) -> i32 {
    let Some(h) = dev(d) else { return E_ARGUMENT };
    if module.is_null() {
        return h.refuse("weft_module_load: module is NULL");
    }
    let Some(path) = str_arg(elf_path) else {
        return h.refuse("weft_module_load: elf_path is NULL or not UTF-8");
    };
    let r = std::fs::read(path)
        .map_err(|e| RuntimeError::Load(format!("{path}: {e}")))
        .and_then(|elf| h.dev.load(&elf));
    // SAFETY: module is the caller's writable u32 (checked non-null).
    unsafe { loaded(h, r, module) }
}

/// See weft_runtime.h.
///
/// # Safety
/// Pointers as weft_runtime.h describes: a live handle (or null), and buffers of the
/// lengths given.
#[no_mangle]
pub unsafe extern "C" fn weft_module_load_c(
    d: *mut WeftDevice,
    sources: *const *const c_char,
    n: usize,
    module: *mut u32,
) -> i32 {
    let Some(h) = dev(d) else { return E_ARGUMENT };
    if module.is_null() {
        return h.refuse("weft_module_load_c: module is NULL");
    }
    let mut why = [0 as c_char; 128];
    // SAFETY: the caller gives n string pointers; `why` holds 128 bytes.
    let paths = unsafe { source_paths(sources, n, "weft_module_load_c", why.as_mut_ptr(), 128) };
    let Some(paths) = paths else {
        // SAFETY: source_paths wrote a NUL-terminated message into `why`.
        let why = unsafe { CStr::from_ptr(why.as_ptr()) };
        return h.refuse(&why.to_string_lossy());
    };
    let refs: Vec<&std::path::Path> = paths.iter().map(|p| p.as_path()).collect();
    let r = h.dev.load_c(&refs);
    // SAFETY: module is the caller's writable u32 (checked non-null).
    unsafe { loaded(h, r, module) }
}

/// Finish a load: the program's number into `*module`.
///
/// # Safety
/// `module` is a writable u32.
unsafe fn loaded(h: &mut WeftDevice, r: Result<ModuleId, RuntimeError>, module: *mut u32) -> i32 {
    let r = r.map(|m| {
        // SAFETY: the caller's u32.
        unsafe { *module = m.index() as u32 }
    });
    h.done(r)
}

/// See weft_runtime.h.
///
/// # Safety
/// Pointers as weft_runtime.h describes: a live handle (or null), and buffers of the
/// lengths given.
#[no_mangle]
pub unsafe extern "C" fn weft_wait(d: *mut WeftDevice, max_cycles: u64) -> i32 {
    weft_wait_for(d, max_cycles, 0)
}

/// See weft_runtime.h.
///
/// # Safety
/// Pointers as weft_runtime.h describes: a live handle (or null), and buffers of the
/// lengths given.
#[no_mangle]
pub unsafe extern "C" fn weft_wait_for(d: *mut WeftDevice, max_cycles: u64, max_ms: u64) -> i32 {
    let Some(h) = dev(d) else { return E_ARGUMENT };
    let time = (max_ms != 0).then(|| std::time::Duration::from_millis(max_ms));
    let r = h
        .dev
        .wait_for((max_cycles != 0).then_some(max_cycles), time);
    h.output.extend_from_slice(h.dev.take_output().as_bytes());
    h.done(r)
}

/// See weft_runtime.h.
///
/// # Safety
/// Pointers as weft_runtime.h describes: a live handle (or null), and buffers of the
/// lengths given.
#[no_mangle]
pub unsafe extern "C" fn weft_device_cycles(d: *const WeftDevice) -> u64 {
    // SAFETY: a live handle or null.
    unsafe { d.as_ref() }.map_or(0, |h| h.dev.cycles())
}

/// See weft_runtime.h.
///
/// # Safety
/// Pointers as weft_runtime.h describes: a live handle (or null), and buffers of the
/// lengths given.
#[no_mangle]
pub unsafe extern "C" fn weft_take_output(
    d: *mut WeftDevice,
    buf: *mut c_char,
    cap: usize,
) -> usize {
    let Some(h) = dev(d) else { return 0 };
    let total = h.output.len();
    if buf.is_null() || cap == 0 {
        return total;
    }
    let n = total.min(cap - 1);
    // SAFETY: the caller gives cap writable bytes at buf.
    unsafe {
        std::ptr::copy_nonoverlapping(h.output.as_ptr(), buf as *mut u8, n);
        *buf.add(n) = 0;
    }
    h.output.drain(..n);
    total
}
