//! What can go wrong inside libvortex, typed, and the `vx_result_t` code each error becomes
//! at the C boundary (Vortex's `vortex2.h` numbers them; the classic `vortex.h` functions
//! return 0 or -1 as Vortex's own do).

use weft_simt::vortex::kmu::KmuError;
use weft_simt::ConfigError;

/// `vx_result_t`: Vortex's result codes.
pub mod code {
    pub const SUCCESS: i32 = 0;
    pub const INVALID_HANDLE: i32 = 1;
    pub const INVALID_INFO: i32 = 2;
    pub const INVALID_VALUE: i32 = 3;
    pub const OUT_OF_HOST_MEMORY: i32 = 4;
    pub const OUT_OF_DEVICE_MEMORY: i32 = 5;
    pub const DEVICE_LOST: i32 = 6;
    pub const TIMEOUT: i32 = 7;
    pub const EVENT_FAILED: i32 = 8;
    pub const NOT_SUPPORTED: i32 = 9;
    pub const INTERNAL: i32 = 10;

    /// Vortex's names of the codes, by code.
    pub const NAMES: [&std::ffi::CStr; 11] = [
        c"VX_SUCCESS",
        c"VX_ERR_INVALID_HANDLE",
        c"VX_ERR_INVALID_INFO",
        c"VX_ERR_INVALID_VALUE",
        c"VX_ERR_OUT_OF_HOST_MEMORY",
        c"VX_ERR_OUT_OF_DEVICE_MEMORY",
        c"VX_ERR_DEVICE_LOST",
        c"VX_ERR_TIMEOUT",
        c"VX_ERR_EVENT_FAILED",
        c"VX_ERR_NOT_SUPPORTED",
        c"VX_ERR_INTERNAL",
    ];

    /// Vortex's name for a code (`vx_result_string`).
    pub fn cname(c: i32) -> &'static std::ffi::CStr {
        usize::try_from(c)
            .ok()
            .and_then(|i| NAMES.get(i))
            .copied()
            .unwrap_or(c"VX_ERR_UNKNOWN")
    }

    /// The same as text.
    pub fn name(c: i32) -> &'static str {
        cname(c).to_str().unwrap_or("VX_ERR_UNKNOWN")
    }
}

/// An error of the library.
#[derive(Debug, thiserror::Error)]
pub enum VxError {
    #[error("configuration: {0}")]
    Config(String),
    #[error("not a live handle of the right kind")]
    Handle,
    #[error("invalid value: {0}")]
    Invalid(String),
    #[error("invalid info struct: {0}")]
    InvalidInfo(String),
    #[error("out of device memory ({0} bytes requested)")]
    OutOfMemory(u64),
    #[error("out of host memory ({0} bytes requested)")]
    OutOfHostMemory(u64),
    #[error("device memory: {0}")]
    Memory(String),
    #[error("{0}")]
    Kmu(#[from] KmuError),
    #[error("the kernel did not finish: {0}")]
    Run(String),
    #[error("the device was closed while a kernel ran")]
    Closed,
    #[error("timed out")]
    Timeout,
    #[error("not supported by weft: {0}")]
    NotSupported(String),
    /// A command did not run because an event it waited for failed with this code.
    #[error("an event it waited for failed ({})", code::name(*.0))]
    Dependency(i32),
    #[error("internal error: {0}")]
    Internal(String),
}

impl From<ConfigError> for VxError {
    fn from(e: ConfigError) -> VxError {
        VxError::Config(e.to_string())
    }
}

impl VxError {
    /// The `vx_result_t` code Vortex's runtime returns for this kind of failure.
    pub fn code(&self) -> i32 {
        match self {
            VxError::Handle => code::INVALID_HANDLE,
            VxError::InvalidInfo(_) => code::INVALID_INFO,
            VxError::Invalid(_) | VxError::Memory(_) | VxError::Kmu(_) => code::INVALID_VALUE,
            VxError::OutOfMemory(_) => code::OUT_OF_DEVICE_MEMORY,
            VxError::OutOfHostMemory(_) => code::OUT_OF_HOST_MEMORY,
            // Vortex's vx_device_open answers DEVICE_LOST when its backend cannot open.
            VxError::Run(_) | VxError::Closed | VxError::Config(_) => code::DEVICE_LOST,
            VxError::Timeout => code::TIMEOUT,
            VxError::NotSupported(_) => code::NOT_SUPPORTED,
            VxError::Dependency(c) => *c,
            VxError::Internal(_) => code::INTERNAL,
        }
    }
}

/// Result of the library's operations.
pub type VxResult<T> = Result<T, VxError>;
