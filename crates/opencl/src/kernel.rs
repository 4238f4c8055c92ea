//! Kernels: a built program's kernel, its argument values (checked against what the program
//! says each argument is), and the argument block a launch writes for it.

use crate::cl::err;
use crate::error::{ClError, ClResult};
use crate::memory::Mem;
use crate::object::{lock, ClObj};
use crate::program::{Built, Program};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use weft_cc::opencl::ir::HEADER_BYTES;
use weft_cc::opencl::meta::{ArgKind, KernelInfo};

/// An argument's value.
#[derive(Clone)]
pub enum ArgValue {
    /// A buffer (`__global` or `__constant`), or NULL.
    Mem(Option<Arc<ClObj<Mem>>>),
    /// `__local` bytes.
    Local(u32),
    /// A value's bytes.
    Bytes(Vec<u8>),
}

/// A kernel.
pub struct Kernel {
    pub program: Arc<ClObj<Program>>,
    pub built: Arc<Built>,
    pub info: KernelInfo,
    /// Its wrapper's address.
    pub entry: u32,
    pub args: Mutex<Vec<Option<ArgValue>>>,
}

/// A kernel's arguments as a launch takes them.
pub struct Snapshot {
    /// The argument block (its header left for the launch to fill in).
    pub block: Vec<u8>,
    /// The buffers it names.
    pub mems: Vec<Arc<ClObj<Mem>>>,
    /// Shared-memory bytes per block.
    pub shared: u64,
}

/// The host's `sizeof(cl_mem)`.
pub const MEM_HANDLE_SIZE: usize = std::mem::size_of::<*mut std::ffi::c_void>();

impl Kernel {
    /// Kernel `name` of a built program.
    pub fn new(program: Arc<ClObj<Program>>, name: &str) -> ClResult<Kernel> {
        let built = program.built()?;
        let info = built.info.kernel(name).cloned().ok_or_else(|| {
            ClError::new(
                err::INVALID_KERNEL_NAME,
                format!("the program has no kernel named '{name}'"),
            )
        })?;
        let entry = built.symbols[&info.symbol];
        program.kernels.fetch_add(1, Ordering::SeqCst);
        Ok(Kernel {
            args: Mutex::new(vec![None; info.args.len()]),
            program,
            built,
            info,
            entry,
        })
    }

    /// `clSetKernelArg`. `mem` looks a handle up (only called for buffer arguments).
    pub fn set_arg(
        &self,
        index: u32,
        size: usize,
        value: Option<&[u8]>,
        mem: impl FnOnce(usize) -> ClResult<Option<Arc<ClObj<Mem>>>>,
    ) -> ClResult<()> {
        let a = self.info.args.get(index as usize).ok_or_else(|| {
            ClError::new(
                err::INVALID_ARG_INDEX,
                format!(
                    "kernel {} has {} arguments; there is no argument {index}",
                    self.info.name,
                    self.info.args.len()
                ),
            )
        })?;
        let what = format!("argument {index} ({} {})", a.type_name, a.name);
        let v = match a.kind {
            ArgKind::Global | ArgKind::Constant => {
                if size != MEM_HANDLE_SIZE {
                    return Err(ClError::new(
                        err::INVALID_ARG_SIZE,
                        format!("{what} is a buffer: its size is sizeof(cl_mem), not {size}"),
                    ));
                }
                let h = match value {
                    None => 0,
                    Some(b) => usize::from_ne_bytes(b.try_into().unwrap_or([0; MEM_HANDLE_SIZE])),
                };
                ArgValue::Mem(if h == 0 { None } else { mem(h)? })
            }
            ArgKind::Local => {
                if value.is_some() {
                    return Err(ClError::new(
                        err::INVALID_ARG_VALUE,
                        format!("{what} is __local: its value must be NULL"),
                    ));
                }
                if size == 0 || size > u32::MAX as usize {
                    return Err(ClError::new(
                        err::INVALID_ARG_SIZE,
                        format!("{what} is __local: give it a size of at least one byte"),
                    ));
                }
                ArgValue::Local(size as u32)
            }
            ArgKind::Value => {
                if size != a.size as usize {
                    return Err(ClError::new(
                        err::INVALID_ARG_SIZE,
                        format!("{what} takes {} bytes, not {size}", a.size),
                    ));
                }
                let Some(b) = value else {
                    return Err(ClError::new(
                        err::INVALID_ARG_VALUE,
                        format!("{what}: a NULL value for an argument passed by value"),
                    ));
                };
                ArgValue::Bytes(b.to_vec())
            }
        };
        lock(&self.args)[index as usize] = Some(v);
        Ok(())
    }

    /// The arguments as a launch takes them (all must be set).
    pub fn snapshot(&self) -> ClResult<Snapshot> {
        let args = lock(&self.args);
        let mut block = vec![0u8; self.info.arg_bytes.max(HEADER_BYTES) as usize];
        let mut mems = Vec::new();
        let mut locals = Vec::new();
        for (i, (a, v)) in self.info.args.iter().zip(args.iter()).enumerate() {
            let Some(v) = v else {
                return Err(ClError::new(
                    err::INVALID_KERNEL_ARGS,
                    format!(
                        "argument {i} ({} {}) of kernel {} is not set",
                        a.type_name, a.name, self.info.name
                    ),
                ));
            };
            let at = a.offset as usize;
            match v {
                ArgValue::Mem(m) => {
                    let addr = m.as_ref().map_or(0, |m| m.addr);
                    block[at..at + 4].copy_from_slice(&addr.to_le_bytes());
                    if let Some(m) = m {
                        if !Arc::ptr_eq(&m.context, &self.program.context) {
                            return Err(ClError::new(
                                err::INVALID_MEM_OBJECT,
                                format!("argument {i}: a buffer of another context"),
                            ));
                        }
                        mems.push(m.clone());
                    }
                }
                ArgValue::Local(n) => {
                    block[at..at + 4].copy_from_slice(&n.to_le_bytes());
                    locals.push(*n);
                }
                ArgValue::Bytes(b) => block[at..at + b.len()].copy_from_slice(b),
            }
        }
        let shared = self.built.info.shared_bytes(&locals);
        Ok(Snapshot {
            block,
            mems,
            shared,
        })
    }

    /// Shared-memory bytes a block uses with the `__local` arguments set now.
    pub fn local_mem(&self) -> u64 {
        let locals: Vec<u32> = lock(&self.args)
            .iter()
            .filter_map(|v| match v {
                Some(ArgValue::Local(n)) => Some(*n),
                _ => None,
            })
            .collect();
        self.built.info.shared_bytes(&locals)
    }
}

impl Drop for Kernel {
    fn drop(&mut self) {
        self.program.kernels.fetch_sub(1, Ordering::SeqCst);
    }
}
