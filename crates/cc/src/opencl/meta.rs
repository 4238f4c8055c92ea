//! What the host needs to know about an OpenCL program built by `weft cc`: its kernels, each
//! kernel's launch wrapper and arguments (kind, type, size and place in the argument block),
//! its work-group size attributes, and the bytes of `__local` variables the program declares.
//! Stored in the ELF's `.weft.opencl` section as JSON, so a program binary carries it
//! (`clCreateProgramWithBinary`).

use serde::{Deserialize, Serialize};

/// The ELF section holding a [`ProgramInfo`].
pub const SECTION_NAME: &str = ".weft.opencl";

/// What an argument is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ArgKind {
    /// A `__global` buffer: the block holds its device address.
    Global,
    /// A `__constant` buffer: the block holds its device address.
    Constant,
    /// A `__local` pointer: the block holds the bytes to give it in shared memory.
    Local,
    /// A value (scalar, vector or struct): the block holds its bytes.
    Value,
}

/// One kernel argument.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArgInfo {
    /// Its name in the source.
    pub name: String,
    /// Its type as written (`float*`, `float4`, `uint`).
    pub type_name: String,
    /// Its kind.
    pub kind: ArgKind,
    /// `none`, `read_only`, `write_only` or `read_write`.
    pub access: String,
    /// Type qualifiers (`const`, `volatile`, `restrict`), space-separated.
    pub type_qual: String,
    /// Bytes in the argument block (a value's size; 4 for the other kinds).
    pub size: u32,
    /// Alignment in the block.
    pub align: u32,
    /// Offset in the argument block (after its 16-byte header).
    pub offset: u32,
}

/// One kernel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelInfo {
    /// Its name.
    pub name: String,
    /// The launch wrapper's symbol (weft's `void f(void *args)` convention).
    pub symbol: String,
    /// Its arguments.
    pub args: Vec<ArgInfo>,
    /// Bytes of the argument block, header included.
    pub arg_bytes: u32,
    /// `__attribute__((reqd_work_group_size(x, y, z)))`.
    pub reqd_work_group_size: Option<[u32; 3]>,
    /// `__attribute__((work_group_size_hint(x, y, z)))`.
    pub work_group_size_hint: Option<[u32; 3]>,
}

/// An OpenCL program.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramInfo {
    /// Its kernels, in source order.
    pub kernels: Vec<KernelInfo>,
    /// Bytes of `__local` variables declared in kernels (every block gets them in shared
    /// memory, before its `__local` arguments).
    pub local_bytes: u32,
    /// Their alignment.
    pub local_align: u32,
}

impl ProgramInfo {
    /// The section's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// Read the section of a built program; `None` if the ELF has none (not an OpenCL program).
    pub fn from_elf(elf: &[u8]) -> Result<Option<ProgramInfo>, String> {
        let img = weft_elf::read_elf(elf).map_err(|e| e.to_string())?;
        let Some(s) = img.section(SECTION_NAME) else {
            return Ok(None);
        };
        serde_json::from_slice(&s.data)
            .map(Some)
            .map_err(|e| format!("{SECTION_NAME}: {e}"))
    }

    /// A kernel by name.
    pub fn kernel(&self, name: &str) -> Option<&KernelInfo> {
        self.kernels.iter().find(|k| k.name == name)
    }

    /// Shared-memory bytes a block of kernel `k` uses with `__local` arguments of `locals`
    /// bytes each, as the device hands them out (each rounded up to 16 bytes, the program's
    /// `__local` variables first).
    pub fn shared_bytes(&self, locals: &[u32]) -> u64 {
        let mut n = 0u64;
        if self.local_bytes > 0 {
            n += (self.local_bytes as u64 + self.local_align.saturating_sub(16) as u64)
                .next_multiple_of(16);
        }
        for &b in locals {
            n += (b as u64).next_multiple_of(16);
        }
        n
    }
}
