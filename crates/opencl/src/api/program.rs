//! Programs and kernels (OpenCL 1.2, 5.6, 5.7).

use super::platform::check_device;
use super::{answer, guard, guard_obj, put, slice, unknown_param, val};
use crate::cl::{err, kernel as kq, program as pq};
use crate::context::Context;
use crate::error::{ClError, ClResult};
use crate::handle::{self, lock, ClObj};
use crate::kernel::Kernel;
use crate::object::device_handle;
use crate::program::Program;
use std::ffi::{c_char, c_void, CStr};
use weft_cc::opencl::meta::ArgKind;

/// `clCreateProgramWithSource` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clCreateProgramWithSource(
    c: *mut c_void,
    n: u32,
    strings: *const *const c_char,
    lengths: *const usize,
    errcode_ret: *mut i32,
) -> *mut c_void {
    guard_obj("clCreateProgramWithSource", errcode_ret, || {
        let ctx = handle::get::<Context>(c)?;
        if n == 0 {
            return Err(ClError::value("count is 0"));
        }
        let strs = slice(strings, n as usize, "strings")?;
        let mut source = String::new();
        for (i, &s) in strs.iter().enumerate() {
            if s.is_null() {
                return Err(ClError::value(format!("strings[{i}] is NULL")));
            }
            let len = if lengths.is_null() {
                0
            } else {
                *lengths.add(i)
            };
            let bytes = if len == 0 {
                CStr::from_ptr(s).to_bytes()
            } else {
                std::slice::from_raw_parts(s as *const u8, len)
            };
            source.push_str(&String::from_utf8_lossy(bytes));
        }
        Ok(handle::publish(ClObj::new(Program::from_source(
            ctx, source,
        ))))
    })
}

/// `clCreateProgramWithBinary` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clCreateProgramWithBinary(
    c: *mut c_void,
    n: u32,
    devices: *const *mut c_void,
    lengths: *const usize,
    binaries: *const *const u8,
    status: *mut i32,
    errcode_ret: *mut i32,
) -> *mut c_void {
    guard_obj("clCreateProgramWithBinary", errcode_ret, || {
        let ctx = handle::get::<Context>(c)?;
        if n != 1 {
            return Err(ClError::value("one device, one binary"));
        }
        check_device(
            *slice(devices, 1, "device_list")?
                .first()
                .unwrap_or(&std::ptr::null_mut()),
        )?;
        let len = *slice(lengths, 1, "lengths")?.first().unwrap_or(&0);
        let bin = *slice(binaries, 1, "binaries")?
            .first()
            .unwrap_or(&std::ptr::null());
        if len == 0 || bin.is_null() {
            put(status, err::INVALID_VALUE);
            return Err(ClError::value("an empty binary"));
        }
        let bytes = std::slice::from_raw_parts(bin, len);
        match Program::from_binary(ctx, bytes) {
            Ok(p) => {
                put(status, err::SUCCESS);
                Ok(handle::publish(ClObj::new(p)))
            }
            Err(e) => {
                put(status, err::INVALID_BINARY);
                Err(e)
            }
        }
    })
}

/// `clCreateProgramWithBuiltInKernels` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clCreateProgramWithBuiltInKernels(
    c: *mut c_void,
    _n: u32,
    _devices: *const *mut c_void,
    _names: *const c_char,
    errcode_ret: *mut i32,
) -> *mut c_void {
    guard_obj("clCreateProgramWithBuiltInKernels", errcode_ret, || {
        handle::get::<Context>(c)?;
        Err::<*mut c_void, _>(ClError::value("the weft device has no built-in kernels"))
    })
}

/// `clRetainProgram` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clRetainProgram(p: *mut c_void) -> i32 {
    guard("clRetainProgram", || handle::retain::<Program>(p))
}

/// `clReleaseProgram` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clReleaseProgram(p: *mut c_void) -> i32 {
    guard("clReleaseProgram", || handle::release::<Program>(p))
}

type BuildNotify = Option<extern "C" fn(*mut c_void, *mut c_void)>;

/// The device list of a build call: empty, or the weft device.
unsafe fn check_devices(n: u32, devices: *const *mut c_void) -> ClResult<()> {
    if (n == 0) != devices.is_null() {
        return Err(ClError::value("num_devices and device_list disagree"));
    }
    for d in slice(devices, n as usize, "device_list")? {
        check_device(*d)?;
    }
    Ok(())
}

unsafe fn options(o: *const c_char) -> String {
    if o.is_null() {
        String::new()
    } else {
        CStr::from_ptr(o).to_string_lossy().into_owned()
    }
}

/// `clBuildProgram` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clBuildProgram(
    p: *mut c_void,
    n: u32,
    devices: *const *mut c_void,
    opts: *const c_char,
    notify: BuildNotify,
    user: *mut c_void,
) -> i32 {
    guard("clBuildProgram", || {
        let prog = handle::get::<Program>(p)?;
        check_devices(n, devices)?;
        if notify.is_none() && !user.is_null() {
            return Err(ClError::value("user_data without pfn_notify"));
        }
        let r = prog.build(&options(opts));
        if let Some(f) = notify {
            f(p, user);
        }
        r
    })
}

/// `clCompileProgram` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clCompileProgram(
    p: *mut c_void,
    n: u32,
    devices: *const *mut c_void,
    opts: *const c_char,
    num_headers: u32,
    _headers: *const *mut c_void,
    _names: *const *const c_char,
    notify: BuildNotify,
    user: *mut c_void,
) -> i32 {
    guard("clCompileProgram", || {
        let prog = handle::get::<Program>(p)?;
        check_devices(n, devices)?;
        if num_headers != 0 {
            return Err(ClError::new(
                err::INVALID_OPERATION,
                "embedded headers (input_headers) are not supported: put them in a directory and \
                 give it with -I",
            ));
        }
        // A compiled program is built: its object is the executable (a link takes one).
        let r = prog.build(&options(opts)).map_err(|e| {
            let code = if e.code == err::BUILD_PROGRAM_FAILURE {
                err::COMPILE_PROGRAM_FAILURE
            } else {
                e.code
            };
            ClError::new(code, e.msg)
        });
        if let Some(f) = notify {
            f(p, user);
        }
        r
    })
}

/// `clLinkProgram` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clLinkProgram(
    c: *mut c_void,
    n: u32,
    devices: *const *mut c_void,
    opts: *const c_char,
    num_inputs: u32,
    inputs: *const *mut c_void,
    notify: BuildNotify,
    user: *mut c_void,
    errcode_ret: *mut i32,
) -> *mut c_void {
    guard_obj("clLinkProgram", errcode_ret, || {
        let ctx = handle::get::<Context>(c)?;
        check_devices(n, devices)?;
        let ins = slice(inputs, num_inputs as usize, "input_programs")?;
        if ins.len() != 1 {
            return Err(ClError::new(
                err::LINK_PROGRAM_FAILURE,
                "weft links one compiled program at a time",
            ));
        }
        let prog = handle::get::<Program>(ins[0])?;
        let built = prog.built()?;
        let linked = Program::from_binary(ctx, &built.binary)?;
        lock(&linked.build).options = options(opts);
        let h = handle::publish(ClObj::new(linked));
        if let Some(f) = notify {
            f(h, user);
        }
        Ok(h)
    })
}

/// `clGetProgramInfo` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clGetProgramInfo(
    p: *mut c_void,
    param: u32,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> i32 {
    guard("clGetProgramInfo", || {
        let prog = handle::get::<Program>(p)?;
        let built = lock(&prog.build).built.clone();
        let need_built = || {
            built.clone().ok_or_else(|| {
                ClError::new(err::INVALID_PROGRAM_EXECUTABLE, "the program is not built")
            })
        };
        let v = match param {
            pq::REFERENCE_COUNT => val::u32(prog.ref_count()),
            pq::CONTEXT => val::ptr(handle::handle(&prog.context)),
            pq::NUM_DEVICES => val::u32(1),
            pq::DEVICES => val::ptr(device_handle()),
            pq::SOURCE => val::str(prog.source.as_deref().unwrap_or("")),
            pq::BINARY_SIZES => val::size(built.as_ref().map_or(0, |b| b.binary.len())),
            pq::BINARIES => {
                // an array of one pointer, into which the binary is copied
                if !value.is_null() {
                    if size < std::mem::size_of::<usize>() {
                        return Err(ClError::value("param_value_size is too small"));
                    }
                    let dst = *(value as *const *mut u8);
                    if let (Some(b), false) = (&built, dst.is_null()) {
                        std::ptr::copy_nonoverlapping(b.binary.as_ptr(), dst, b.binary.len());
                    }
                }
                put(size_ret, std::mem::size_of::<usize>());
                return Ok(());
            }
            pq::NUM_KERNELS => val::size(need_built()?.info.kernels.len()),
            pq::KERNEL_NAMES => {
                let names: Vec<String> = need_built()?
                    .info
                    .kernels
                    .iter()
                    .map(|k| k.name.clone())
                    .collect();
                val::str(&names.join(";"))
            }
            _ => return Err(unknown_param(param)),
        };
        answer(&v, size, value, size_ret)
    })
}

/// `clGetProgramBuildInfo` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clGetProgramBuildInfo(
    p: *mut c_void,
    d: *mut c_void,
    param: u32,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> i32 {
    guard("clGetProgramBuildInfo", || {
        let prog = handle::get::<Program>(p)?;
        check_device(d)?;
        let b = lock(&prog.build);
        let v = match param {
            pq::BUILD_STATUS => val::i32(b.status),
            pq::BUILD_OPTIONS => val::str(&b.options),
            pq::BUILD_LOG => val::str(&b.log),
            pq::BINARY_TYPE => val::u32(if b.built.is_some() {
                pq::BINARY_TYPE_EXECUTABLE
            } else {
                pq::BINARY_TYPE_NONE
            }),
            _ => return Err(unknown_param(param)),
        };
        answer(&v, size, value, size_ret)
    })
}

/// `clCreateKernel` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clCreateKernel(
    p: *mut c_void,
    name: *const c_char,
    errcode_ret: *mut i32,
) -> *mut c_void {
    guard_obj("clCreateKernel", errcode_ret, || {
        let prog = handle::get::<Program>(p)?;
        if name.is_null() {
            return Err(ClError::value("kernel_name is NULL"));
        }
        let name = CStr::from_ptr(name).to_string_lossy();
        Ok(handle::publish(ClObj::new(Kernel::new(prog, &name)?)))
    })
}

/// `clCreateKernelsInProgram` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clCreateKernelsInProgram(
    p: *mut c_void,
    n: u32,
    out: *mut *mut c_void,
    num: *mut u32,
) -> i32 {
    guard("clCreateKernelsInProgram", || {
        let prog = handle::get::<Program>(p)?;
        let built = prog.built()?;
        let count = built.info.kernels.len();
        if !out.is_null() {
            if (n as usize) < count {
                return Err(ClError::value(format!(
                    "num_kernels {n} is less than {count}"
                )));
            }
            for (i, k) in built.info.kernels.iter().enumerate() {
                out.add(i).write(handle::publish(ClObj::new(Kernel::new(
                    prog.clone(),
                    &k.name,
                )?)));
            }
        }
        put(num, count as u32);
        Ok(())
    })
}

/// `clRetainKernel` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clRetainKernel(k: *mut c_void) -> i32 {
    guard("clRetainKernel", || handle::retain::<Kernel>(k))
}

/// `clReleaseKernel` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clReleaseKernel(k: *mut c_void) -> i32 {
    guard("clReleaseKernel", || handle::release::<Kernel>(k))
}

/// `clSetKernelArg` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clSetKernelArg(
    k: *mut c_void,
    index: u32,
    size: usize,
    value: *const c_void,
) -> i32 {
    guard("clSetKernelArg", || {
        let kernel = handle::get::<Kernel>(k)?;
        let bytes = if value.is_null() {
            None
        } else {
            Some(std::slice::from_raw_parts(value as *const u8, size))
        };
        kernel.set_arg(index, size, bytes, super::mem::mem_of)
    })
}

/// `clGetKernelInfo` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clGetKernelInfo(
    k: *mut c_void,
    param: u32,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> i32 {
    guard("clGetKernelInfo", || {
        let kernel = handle::get::<Kernel>(k)?;
        let v = match param {
            kq::FUNCTION_NAME => val::str(&kernel.info.name),
            kq::NUM_ARGS => val::u32(kernel.info.args.len() as u32),
            kq::REFERENCE_COUNT => val::u32(kernel.ref_count()),
            kq::CONTEXT => val::ptr(handle::handle(&kernel.program.context)),
            kq::PROGRAM => val::ptr(handle::handle(&kernel.program)),
            kq::ATTRIBUTES => val::str(&match kernel.info.reqd_work_group_size {
                Some([x, y, z]) => format!("reqd_work_group_size({x},{y},{z})"),
                None => String::new(),
            }),
            _ => return Err(unknown_param(param)),
        };
        answer(&v, size, value, size_ret)
    })
}

/// `clGetKernelWorkGroupInfo` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clGetKernelWorkGroupInfo(
    k: *mut c_void,
    d: *mut c_void,
    param: u32,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> i32 {
    guard("clGetKernelWorkGroupInfo", || {
        let kernel = handle::get::<Kernel>(k)?;
        if !d.is_null() {
            check_device(d)?;
        }
        let cfg = &kernel.program.context.cfg;
        let v = match param {
            kq::WORK_GROUP_SIZE => val::size(crate::enqueue::MAX_WORK_GROUP),
            kq::COMPILE_WORK_GROUP_SIZE => val::sizes(
                &kernel
                    .info
                    .reqd_work_group_size
                    .map_or([0; 3], |r| r.map(|x| x as usize)),
            ),
            kq::LOCAL_MEM_SIZE => val::u64(kernel.local_mem()),
            kq::PREFERRED_WORK_GROUP_SIZE_MULTIPLE => val::size(cfg.lanes),
            kq::PRIVATE_MEM_SIZE => val::u64(crate::context::STACK_SIZE as u64),
            kq::GLOBAL_WORK_SIZE => {
                return Err(ClError::value(
                    "CL_KERNEL_GLOBAL_WORK_SIZE is for custom devices",
                ))
            }
            _ => return Err(unknown_param(param)),
        };
        answer(&v, size, value, size_ret)
    })
}

/// `clGetKernelArgInfo` (OpenCL 1.2).
///
/// # Safety
/// Pointers null or valid as OpenCL 1.2 specifies for the call; handles are checked.
#[no_mangle]
pub unsafe extern "C" fn clGetKernelArgInfo(
    k: *mut c_void,
    index: u32,
    param: u32,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> i32 {
    guard("clGetKernelArgInfo", || {
        let kernel = handle::get::<Kernel>(k)?;
        let a =
            kernel.info.args.get(index as usize).ok_or_else(|| {
                ClError::new(err::INVALID_ARG_INDEX, format!("no argument {index}"))
            })?;
        let v = match param {
            kq::ARG_ADDRESS_QUALIFIER => val::u32(match a.kind {
                ArgKind::Global => kq::ARG_ADDRESS_GLOBAL,
                ArgKind::Constant => kq::ARG_ADDRESS_CONSTANT,
                ArgKind::Local => kq::ARG_ADDRESS_LOCAL,
                ArgKind::Value => kq::ARG_ADDRESS_PRIVATE,
            }),
            kq::ARG_ACCESS_QUALIFIER => val::u32(match a.access.as_str() {
                "read_only" => kq::ARG_ACCESS_READ_ONLY,
                "write_only" => kq::ARG_ACCESS_WRITE_ONLY,
                "read_write" => kq::ARG_ACCESS_READ_WRITE,
                _ => kq::ARG_ACCESS_NONE,
            }),
            kq::ARG_TYPE_NAME => val::str(&a.type_name),
            kq::ARG_TYPE_QUALIFIER => {
                let mut q = kq::ARG_TYPE_NONE;
                for w in a.type_qual.split_whitespace() {
                    q |= match w {
                        "const" => kq::ARG_TYPE_CONST,
                        "restrict" => kq::ARG_TYPE_RESTRICT,
                        "volatile" => kq::ARG_TYPE_VOLATILE,
                        _ => 0,
                    };
                }
                val::u64(q)
            }
            kq::ARG_NAME => val::str(&a.name),
            _ => return Err(unknown_param(param)),
        };
        answer(&v, size, value, size_ret)
    })
}
