//! The platform, its one device, and contexts (OpenCL 1.2, chapter 4).

use super::{answer, guard, guard_obj, put, slice, unknown_param, val};
use crate::cl::{self, context as cq, device as dq, device_type, err, fp, platform as pq};
use crate::context::Context;
use crate::error::{ClError, ClResult};
use crate::handle::{self, ClObj};
use crate::object::{device_handle, platform_handle};
use std::ffi::{c_char, c_void};
use std::sync::OnceLock;
use weft_timing::MachineConfig;

/// The platform's strings.
pub const PLATFORM_NAME: &str = "weft";
pub const VENDOR: &str = "weft";
pub const VERSION: &str = "OpenCL 1.2 weft";
pub const ICD_SUFFIX: &str = "weft";
/// The device's nominal clock: profiling times count one nanosecond per cycle.
pub const CLOCK_MHZ: u32 = 1000;

/// The device's configuration (from the environment, once).
pub fn device_config() -> ClResult<MachineConfig> {
    static CFG: OnceLock<ClResult<MachineConfig>> = OnceLock::new();
    CFG.get_or_init(|| crate::config::config_from_env(|k| std::env::var(k).ok()))
        .clone()
}

fn check_platform(p: *mut c_void) -> ClResult<()> {
    if p.is_null() || p == platform_handle() {
        Ok(())
    } else {
        Err(ClError::new(err::INVALID_PLATFORM, "not the weft platform"))
    }
}

pub(crate) fn check_device(d: *mut c_void) -> ClResult<()> {
    if d == device_handle() {
        Ok(())
    } else {
        Err(ClError::new(err::INVALID_DEVICE, "not the weft device"))
    }
}

/// `clGetPlatformIDs` (also the ICD's `clIcdGetPlatformIDsKHR`).
pub(crate) unsafe fn platform_ids(n: u32, out: *mut *mut c_void, num: *mut u32) -> ClResult<()> {
    if (n == 0 && !out.is_null()) || (out.is_null() && num.is_null()) {
        return Err(ClError::value(
            "num_entries is 0 with platforms, or both outputs are NULL",
        ));
    }
    put(out, platform_handle());
    put(num, 1);
    Ok(())
}

/// `clGetPlatformIDs` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clGetPlatformIDs(n: u32, out: *mut *mut c_void, num: *mut u32) -> i32 {
    guard("clGetPlatformIDs", || platform_ids(n, out, num))
}

/// `clGetPlatformInfo` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clGetPlatformInfo(
    p: *mut c_void,
    param: u32,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> i32 {
    guard("clGetPlatformInfo", || {
        check_platform(p)?;
        let s = match param {
            pq::PROFILE => "FULL_PROFILE",
            pq::VERSION => VERSION,
            pq::NAME => PLATFORM_NAME,
            pq::VENDOR => VENDOR,
            pq::EXTENSIONS => "cl_khr_icd",
            pq::ICD_SUFFIX_KHR => ICD_SUFFIX,
            _ => return Err(unknown_param(param)),
        };
        answer(&val::str(s), size, value, size_ret)
    })
}

/// `clGetDeviceIDs` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clGetDeviceIDs(
    p: *mut c_void,
    ty: u64,
    n: u32,
    out: *mut *mut c_void,
    num: *mut u32,
) -> i32 {
    guard("clGetDeviceIDs", || {
        check_platform(p)?;
        if (n == 0 && !out.is_null()) || (out.is_null() && num.is_null()) {
            return Err(ClError::value(
                "num_entries is 0 with devices, or both outputs are NULL",
            ));
        }
        let known = device_type::DEFAULT
            | device_type::CPU
            | device_type::GPU
            | device_type::ACCELERATOR
            | device_type::CUSTOM;
        if ty != device_type::ALL && (ty & !known != 0 || ty == 0) {
            return Err(ClError::new(
                err::INVALID_DEVICE_TYPE,
                format!("device type {ty:#x}"),
            ));
        }
        let ours = ty == device_type::ALL || ty & (device_type::DEFAULT | device_type::GPU) != 0;
        if !ours || device_config().is_err() {
            if let Err(e) = device_config() {
                return Err(ClError::new(err::DEVICE_NOT_FOUND, e.msg));
            }
            put(num, 0);
            return Err(ClError::new(
                err::DEVICE_NOT_FOUND,
                format!("the weft device is a GPU; no device of type {ty:#x}"),
            ));
        }
        put(out, device_handle());
        put(num, 1);
        Ok(())
    })
}

/// The device's answer to `param`.
fn device_info(param: u32) -> ClResult<Vec<u8>> {
    let all = device_config()?;
    let c = &all.machine;
    let global = crate::engine::Layout::of(c, crate::context::STACK_SIZE)
        .map(|l| l.dram_end - l.device_end as u64)
        .unwrap_or(0);
    Ok(match param {
        dq::TYPE => val::u64(device_type::GPU),
        dq::VENDOR_ID => val::u32(0),
        dq::MAX_COMPUTE_UNITS => val::u32(c.cores as u32),
        dq::MAX_WORK_ITEM_DIMENSIONS => val::u32(3),
        dq::MAX_WORK_GROUP_SIZE => val::size(crate::enqueue::MAX_WORK_GROUP),
        dq::MAX_WORK_ITEM_SIZES => val::sizes(&[crate::enqueue::MAX_WORK_GROUP; 3]),
        dq::PREFERRED_VECTOR_WIDTH_CHAR
        | dq::PREFERRED_VECTOR_WIDTH_SHORT
        | dq::PREFERRED_VECTOR_WIDTH_INT
        | dq::PREFERRED_VECTOR_WIDTH_LONG
        | dq::PREFERRED_VECTOR_WIDTH_FLOAT
        | dq::NATIVE_VECTOR_WIDTH_CHAR
        | dq::NATIVE_VECTOR_WIDTH_SHORT
        | dq::NATIVE_VECTOR_WIDTH_INT
        | dq::NATIVE_VECTOR_WIDTH_LONG
        | dq::NATIVE_VECTOR_WIDTH_FLOAT => val::u32(1),
        dq::PREFERRED_VECTOR_WIDTH_DOUBLE
        | dq::PREFERRED_VECTOR_WIDTH_HALF
        | dq::NATIVE_VECTOR_WIDTH_DOUBLE
        | dq::NATIVE_VECTOR_WIDTH_HALF => val::u32(0),
        dq::MAX_CLOCK_FREQUENCY => val::u32(CLOCK_MHZ),
        dq::ADDRESS_BITS => val::u32(32),
        dq::MAX_READ_IMAGE_ARGS | dq::MAX_WRITE_IMAGE_ARGS | dq::MAX_SAMPLERS => val::u32(0),
        dq::MAX_MEM_ALLOC_SIZE => val::u64((global / 4).max(1 << 20)),
        dq::IMAGE2D_MAX_WIDTH
        | dq::IMAGE2D_MAX_HEIGHT
        | dq::IMAGE3D_MAX_WIDTH
        | dq::IMAGE3D_MAX_HEIGHT
        | dq::IMAGE3D_MAX_DEPTH
        | dq::IMAGE_MAX_BUFFER_SIZE
        | dq::IMAGE_MAX_ARRAY_SIZE => val::size(0),
        dq::IMAGE_SUPPORT => val::bool(false),
        dq::MAX_PARAMETER_SIZE => val::size(1024),
        dq::MEM_BASE_ADDR_ALIGN => val::u32(64 * 8),
        dq::MIN_DATA_TYPE_ALIGN_SIZE => val::u32(128),
        dq::SINGLE_FP_CONFIG => val::u64(
            fp::DENORM
                | fp::INF_NAN
                | fp::ROUND_TO_NEAREST
                | fp::ROUND_TO_ZERO
                | fp::ROUND_TO_INF
                | fp::FMA
                | fp::CORRECTLY_ROUNDED_DIVIDE_SQRT,
        ),
        dq::DOUBLE_FP_CONFIG | dq::HALF_FP_CONFIG => val::u64(0),
        dq::GLOBAL_MEM_CACHE_TYPE => val::u32(if c.timing { 2 } else { 0 }),
        dq::GLOBAL_MEM_CACHELINE_SIZE => val::u32(all.timing.l1.line),
        dq::GLOBAL_MEM_CACHE_SIZE => val::u64(all.timing.l1.size as u64),
        dq::GLOBAL_MEM_SIZE => val::u64(global),
        dq::MAX_CONSTANT_BUFFER_SIZE => val::u64(64 << 10),
        dq::MAX_CONSTANT_ARGS => val::u32(8),
        dq::LOCAL_MEM_TYPE => val::u32(1),
        dq::LOCAL_MEM_SIZE => val::u64(c.local_mem_size as u64),
        dq::ERROR_CORRECTION_SUPPORT | dq::HOST_UNIFIED_MEMORY => val::bool(false),
        dq::PROFILING_TIMER_RESOLUTION => val::size(1000 / CLOCK_MHZ as usize),
        dq::ENDIAN_LITTLE | dq::AVAILABLE | dq::COMPILER_AVAILABLE | dq::LINKER_AVAILABLE => {
            val::bool(true)
        }
        dq::PREFERRED_INTEROP_USER_SYNC => val::bool(true),
        dq::EXECUTION_CAPABILITIES => val::u64(1),
        dq::QUEUE_PROPERTIES => val::u64(cl::queue::PROFILING_ENABLE),
        dq::NAME => val::str(&format!(
            "weft {} x {} x {}{}",
            c.cores,
            c.warps,
            c.lanes,
            if c.timing { " (timing model)" } else { "" }
        )),
        dq::VENDOR => val::str(VENDOR),
        dq::DRIVER_VERSION => val::str(env!("CARGO_PKG_VERSION")),
        dq::PROFILE => val::str("FULL_PROFILE"),
        dq::VERSION => val::str("OpenCL 1.2 weft"),
        dq::OPENCL_C_VERSION => val::str("OpenCL C 1.2 "),
        dq::EXTENSIONS => val::str(&weft_cc::opencl::EXTENSIONS.join(" ")),
        dq::PLATFORM => val::ptr(platform_handle()),
        dq::BUILT_IN_KERNELS => val::str(""),
        dq::PARENT_DEVICE => val::ptr(std::ptr::null_mut()),
        dq::PARTITION_MAX_SUB_DEVICES => val::u32(0),
        dq::PARTITION_PROPERTIES | dq::PARTITION_TYPE => val::size(0),
        dq::PARTITION_AFFINITY_DOMAIN => val::u64(0),
        dq::REFERENCE_COUNT => val::u32(1),
        dq::PRINTF_BUFFER_SIZE => val::size(1 << 20),
        _ => return Err(unknown_param(param)),
    })
}

/// `clGetDeviceInfo` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clGetDeviceInfo(
    d: *mut c_void,
    param: u32,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> i32 {
    guard("clGetDeviceInfo", || {
        check_device(d)?;
        answer(&device_info(param)?, size, value, size_ret)
    })
}

/// `clRetainDevice` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clRetainDevice(d: *mut c_void) -> i32 {
    guard("clRetainDevice", || check_device(d))
}

/// `clReleaseDevice` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clReleaseDevice(d: *mut c_void) -> i32 {
    guard("clReleaseDevice", || check_device(d))
}

/// `clCreateSubDevices` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clCreateSubDevices(
    d: *mut c_void,
    _props: *const isize,
    _n: u32,
    _out: *mut *mut c_void,
    _num: *mut u32,
) -> i32 {
    guard("clCreateSubDevices", || {
        check_device(d)?;
        Err(ClError::new(
            err::INVALID_VALUE,
            "the weft device cannot be partitioned",
        ))
    })
}

/// The context properties, checked (0-terminated copy).
unsafe fn properties(props: *const isize) -> ClResult<Vec<isize>> {
    let mut v = Vec::new();
    if props.is_null() {
        return Ok(v);
    }
    let mut i = 0;
    loop {
        let k = *props.add(i);
        if k == 0 {
            break;
        }
        let x = *props.add(i + 1);
        match k {
            cq::PLATFORM => check_platform(x as *mut c_void)?,
            cq::INTEROP_USER_SYNC => {}
            _ => {
                return Err(ClError::new(
                    err::INVALID_PROPERTY,
                    format!("context property {k:#x}"),
                ))
            }
        }
        if v.iter().step_by(2).any(|&y| y == k) {
            return Err(ClError::new(
                err::INVALID_PROPERTY,
                format!("property {k:#x} given twice"),
            ));
        }
        v.push(k);
        v.push(x);
        i += 2;
    }
    v.push(0);
    Ok(v)
}

fn new_context(props: Vec<isize>) -> ClResult<*mut c_void> {
    let cfg = device_config().map_err(|e| ClError::new(err::DEVICE_NOT_AVAILABLE, e.msg))?;
    let ctx = ClObj::new(Context::new(cfg, props)?);
    crate::context::follow(&ctx);
    Ok(handle::publish(ctx))
}

type ContextNotify = Option<extern "C" fn(*const c_char, *const c_void, usize, *mut c_void)>;

/// `clCreateContext` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clCreateContext(
    props: *const isize,
    n: u32,
    devices: *const *mut c_void,
    notify: ContextNotify,
    user: *mut c_void,
    errcode_ret: *mut i32,
) -> *mut c_void {
    guard_obj("clCreateContext", errcode_ret, || {
        if notify.is_none() && !user.is_null() {
            return Err(ClError::value("user_data without pfn_notify"));
        }
        if n == 0 {
            return Err(ClError::value("no devices"));
        }
        for d in slice(devices, n as usize, "devices")? {
            check_device(*d)?;
        }
        new_context(properties(props)?)
    })
}

/// `clCreateContextFromType` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clCreateContextFromType(
    props: *const isize,
    ty: u64,
    notify: ContextNotify,
    user: *mut c_void,
    errcode_ret: *mut i32,
) -> *mut c_void {
    guard_obj("clCreateContextFromType", errcode_ret, || {
        if notify.is_none() && !user.is_null() {
            return Err(ClError::value("user_data without pfn_notify"));
        }
        let props = properties(props)?;
        if ty != device_type::ALL && ty & (device_type::DEFAULT | device_type::GPU) == 0 {
            return Err(ClError::new(
                err::DEVICE_NOT_FOUND,
                format!("the weft device is a GPU; no device of type {ty:#x}"),
            ));
        }
        new_context(props)
    })
}

/// `clRetainContext` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clRetainContext(c: *mut c_void) -> i32 {
    guard("clRetainContext", || handle::retain::<Context>(c))
}

/// `clReleaseContext` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clReleaseContext(c: *mut c_void) -> i32 {
    guard("clReleaseContext", || handle::release::<Context>(c))
}

/// `clGetContextInfo` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clGetContextInfo(
    c: *mut c_void,
    param: u32,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> i32 {
    guard("clGetContextInfo", || {
        let ctx = handle::get::<Context>(c)?;
        let v = match param {
            cq::REFERENCE_COUNT => val::u32(ctx.ref_count()),
            cq::DEVICES => val::ptr(device_handle()),
            cq::NUM_DEVICES => val::u32(1),
            cq::PROPERTIES => ctx.props.iter().flat_map(|x| x.to_ne_bytes()).collect(),
            _ => return Err(unknown_param(param)),
        };
        answer(&v, size, value, size_ret)
    })
}

#[no_mangle]
pub extern "C" fn clUnloadCompiler() -> i32 {
    err::SUCCESS
}

/// `clUnloadPlatformCompiler` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clUnloadPlatformCompiler(p: *mut c_void) -> i32 {
    guard("clUnloadPlatformCompiler", || check_platform(p))
}
