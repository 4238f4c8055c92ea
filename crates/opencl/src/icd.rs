//! The installable client driver (cl_khr_icd): the dispatch table every object starts with,
//! in the order of Khronos' `cl_icd.h` (OpenCL 1.2's entries; the rest null), installed in
//! [`crate::object`] when a loader first comes in, and the entry points a loader (ocl-icd) asks for by name:
//! `clIcdGetPlatformIDsKHR` through `clGetExtensionFunctionAddress`.

use crate::api::{enqueue as e, mem as m, platform as p, program as g, queue as q};
use crate::object::{install_dispatch, platform_handle};
use std::ffi::{c_char, c_void, CStr};

/// Entries of the table (OpenCL 3.0's `cl_icd.h` has more; a loader only reads the ones of
/// the versions the platform reports).
const ENTRIES: usize = 128;

#[repr(C)]
pub struct Table([*const c_void; ENTRIES]);
// SAFETY: the table is built once from function addresses and never written.
unsafe impl Sync for Table {}

macro_rules! table {
    ($($i:literal => $f:path,)*) => {{
        let mut t = [std::ptr::null::<c_void>(); ENTRIES];
        $(t[$i] = $f as *const c_void;)*
        Table(t)
    }};
}

static DISPATCH: Table = table! {
    0 => p::clGetPlatformIDs,
    1 => p::clGetPlatformInfo,
    2 => p::clGetDeviceIDs,
    3 => p::clGetDeviceInfo,
    4 => p::clCreateContext,
    5 => p::clCreateContextFromType,
    6 => p::clRetainContext,
    7 => p::clReleaseContext,
    8 => p::clGetContextInfo,
    9 => q::clCreateCommandQueue,
    10 => q::clRetainCommandQueue,
    11 => q::clReleaseCommandQueue,
    12 => q::clGetCommandQueueInfo,
    13 => q::clSetCommandQueueProperty,
    14 => m::clCreateBuffer,
    15 => m::clCreateImage2D,
    16 => m::clCreateImage3D,
    17 => m::clRetainMemObject,
    18 => m::clReleaseMemObject,
    19 => m::clGetSupportedImageFormats,
    20 => m::clGetMemObjectInfo,
    21 => m::clGetImageInfo,
    22 => m::clCreateSampler,
    23 => m::clRetainSampler,
    24 => m::clReleaseSampler,
    25 => m::clGetSamplerInfo,
    26 => g::clCreateProgramWithSource,
    27 => g::clCreateProgramWithBinary,
    28 => g::clRetainProgram,
    29 => g::clReleaseProgram,
    30 => g::clBuildProgram,
    31 => p::clUnloadCompiler,
    32 => g::clGetProgramInfo,
    33 => g::clGetProgramBuildInfo,
    34 => g::clCreateKernel,
    35 => g::clCreateKernelsInProgram,
    36 => g::clRetainKernel,
    37 => g::clReleaseKernel,
    38 => g::clSetKernelArg,
    39 => g::clGetKernelInfo,
    40 => g::clGetKernelWorkGroupInfo,
    41 => q::clWaitForEvents,
    42 => q::clGetEventInfo,
    43 => q::clRetainEvent,
    44 => q::clReleaseEvent,
    45 => q::clGetEventProfilingInfo,
    46 => q::clFlush,
    47 => q::clFinish,
    48 => e::clEnqueueReadBuffer,
    49 => e::clEnqueueWriteBuffer,
    50 => e::clEnqueueCopyBuffer,
    51 => e::clEnqueueReadImage,
    52 => e::clEnqueueWriteImage,
    53 => e::clEnqueueCopyImage,
    54 => e::clEnqueueCopyImageToBuffer,
    55 => e::clEnqueueCopyBufferToImage,
    56 => e::clEnqueueMapBuffer,
    57 => e::clEnqueueMapImage,
    58 => e::clEnqueueUnmapMemObject,
    59 => e::clEnqueueNDRangeKernel,
    60 => e::clEnqueueTask,
    61 => e::clEnqueueNativeKernel,
    62 => q::clEnqueueMarker,
    63 => q::clEnqueueWaitForEvents,
    64 => q::clEnqueueBarrier,
    65 => clGetExtensionFunctionAddress,
    81 => q::clSetEventCallback,
    82 => m::clCreateSubBuffer,
    83 => m::clSetMemObjectDestructorCallback,
    84 => q::clCreateUserEvent,
    85 => q::clSetUserEventStatus,
    86 => e::clEnqueueReadBufferRect,
    87 => e::clEnqueueWriteBufferRect,
    88 => e::clEnqueueCopyBufferRect,
    93 => p::clCreateSubDevices,
    94 => p::clRetainDevice,
    95 => p::clReleaseDevice,
    96 => m::clCreateImage,
    97 => g::clCreateProgramWithBuiltInKernels,
    98 => g::clCompileProgram,
    99 => g::clLinkProgram,
    100 => p::clUnloadPlatformCompiler,
    101 => g::clGetKernelArgInfo,
    102 => e::clEnqueueFillBuffer,
    103 => e::clEnqueueFillImage,
    104 => e::clEnqueueMigrateMemObjects,
    105 => q::clEnqueueMarkerWithWaitList,
    106 => q::clEnqueueBarrierWithWaitList,
    107 => clGetExtensionFunctionAddressForPlatform,
};

/// The table's address (every object's first word).
fn dispatch() -> *const c_void {
    &DISPATCH as *const Table as *const c_void
}

/// The loader's way in: the platforms of this driver.
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clIcdGetPlatformIDsKHR(
    n: u32,
    out: *mut *mut c_void,
    num: *mut u32,
) -> i32 {
    install_dispatch(dispatch());
    crate::api::guard("clIcdGetPlatformIDsKHR", || p::platform_ids(n, out, num))
}

fn by_name(name: &[u8]) -> *mut c_void {
    match name {
        b"clIcdGetPlatformIDsKHR" => clIcdGetPlatformIDsKHR as *mut c_void,
        b"clGetPlatformInfo" => p::clGetPlatformInfo as *mut c_void,
        b"clGetDeviceInfo" => p::clGetDeviceInfo as *mut c_void,
        _ => std::ptr::null_mut(),
    }
}

/// `clGetExtensionFunctionAddress` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clGetExtensionFunctionAddress(name: *const c_char) -> *mut c_void {
    install_dispatch(dispatch());
    if name.is_null() {
        return std::ptr::null_mut();
    }
    by_name(CStr::from_ptr(name).to_bytes())
}

/// `clGetExtensionFunctionAddressForPlatform` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clGetExtensionFunctionAddressForPlatform(
    platform: *mut c_void,
    name: *const c_char,
) -> *mut c_void {
    if platform != platform_handle() {
        return std::ptr::null_mut();
    }
    clGetExtensionFunctionAddress(name)
}
