//! Rust kernels for weft, the soft SIMT GPU.
//!
//! A kernel program is a `#![no_std]` static library for `riscv32imafc-unknown-none-elf` that
//! exports `main`; `weft cc` links it with weft's device runtime (crt0, the launch, barriers,
//! printf — the same code C kernels use) and stores the reconvergence table, so Rust kernels go
//! through the same reconvergence analysis as C. This crate is the safe face of that runtime:
//!
//! ```ignore
//! #![no_std]
//! use weft_kernel::{launch, println, Dim3, Thread};
//!
//! #[no_mangle]
//! pub extern "C" fn main() -> i32 {
//!     let data = [1u32, 2, 3, 4];
//!     launch(Dim3::x(1), Dim3::x(4), &|t: &Thread| {
//!         let i = t.global_id() as usize;
//!         println!("thread {} sees {}", i, data[i]);
//!     });
//!     0
//! }
//! ```
//!
//! Inside a kernel, [`println!`] output is kept per thread and printed in thread order when
//! the launch ends (as the C runtime does). A panic prints its message and ends the run with
//! exit status 101.
//!
//! Warp-level programming — shuffles, votes, reductions and scans on a warp whose convergence
//! the compiler checks — is in [`warp`], with kernels launched by [`launch_warps`].

#![no_std]

use core::ffi::c_void;
use core::fmt::{self, Write};

pub mod sync;
pub mod warp;

use warp::{All, Warp};

/// Grid and block extents, as CUDA's `dim3`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dim3 {
    /// Extent (or index) in x.
    pub x: u32,
    /// Extent (or index) in y.
    pub y: u32,
    /// Extent (or index) in z.
    pub z: u32,
}

impl Dim3 {
    /// Three extents.
    pub const fn new(x: u32, y: u32, z: u32) -> Dim3 {
        Dim3 { x, y, z }
    }
    /// A one-dimensional extent.
    pub const fn x(x: u32) -> Dim3 {
        Dim3 { x, y: 1, z: 1 }
    }
    /// x · y · z.
    pub const fn count(self) -> u32 {
        self.x * self.y * self.z
    }
}

/// The runtime's per-thread record (`weft_thread` in weft.h).
#[repr(C)]
struct Record {
    thread_idx: Dim3,
    block_idx: Dim3,
    block_dim: Dim3,
    grid_dim: Dim3,
    shared_base: u32,
    shared_top: u32,
    shared_end: u32,
    slot: u32,
    slot_warps: u32,
    in_kernel: u32,
    stack_lo: u32,
}

mod ffi {
    use super::{c_void, Dim3, Record};
    extern "C" {
        pub fn weft_self() -> *mut Record;
        pub fn weft_launch(
            grid: Dim3,
            block: Dim3,
            kernel: extern "C" fn(*mut c_void),
            args: *mut c_void,
        ) -> i32;
        pub fn weft_launch_shared(
            grid: Dim3,
            block: Dim3,
            shared: u32,
            kernel: extern "C" fn(*mut c_void),
            args: *mut c_void,
        ) -> i32;
        pub fn weft_syncthreads();
        pub fn weft_shared_alloc(bytes: u32) -> *mut c_void;
        pub fn weft_global_thread() -> u32;
        pub fn weft_block_thread() -> u32;
        pub fn weft_block_linear() -> u32;
        pub fn weft_lane_id() -> u32;
        pub fn weft_warp_id() -> u32;
        pub fn weft_core_id() -> u32;
        pub fn weft_num_lanes() -> u32;
        pub fn weft_num_warps() -> u32;
        pub fn weft_num_cores() -> u32;
        pub fn weft_cycles() -> u64;
        pub fn weft_printf(fmt: *const core::ffi::c_char, ...) -> i32;
        pub fn weft_exit(code: i32) -> !;
    }
}

/// The calling thread, inside a kernel.
pub struct Thread {
    _private: (),
}

impl Thread {
    fn rec(&self) -> &Record {
        // SAFETY: tp points at this lane's record for the whole run (crt0 sets it).
        unsafe { &*ffi::weft_self() }
    }
    /// CUDA's threadIdx.
    pub fn thread_idx(&self) -> Dim3 {
        self.rec().thread_idx
    }
    /// CUDA's blockIdx.
    pub fn block_idx(&self) -> Dim3 {
        self.rec().block_idx
    }
    /// CUDA's blockDim.
    pub fn block_dim(&self) -> Dim3 {
        self.rec().block_dim
    }
    /// CUDA's gridDim.
    pub fn grid_dim(&self) -> Dim3 {
        self.rec().grid_dim
    }
    /// The thread's index within its block (x fastest).
    pub fn block_thread(&self) -> u32 {
        // SAFETY: a pure read of the thread record.
        unsafe { ffi::weft_block_thread() }
    }
    /// The block's index within the grid (x fastest).
    pub fn block_linear(&self) -> u32 {
        // SAFETY: as above.
        unsafe { ffi::weft_block_linear() }
    }
    /// The thread's index in the whole grid.
    pub fn global_id(&self) -> u32 {
        // SAFETY: as above.
        unsafe { ffi::weft_global_thread() }
    }
    /// Wait until every thread of the block arrives (the block must fit in one core).
    pub fn sync(&self) {
        // SAFETY: a barrier; the runtime reports a block too large for it.
        unsafe { ffi::weft_syncthreads() }
    }
    /// `n` elements of the block's shared memory, zero-initialised by nobody: every thread
    /// of the block must make the same calls in the same order and gets the same memory.
    ///
    /// # Safety
    /// The slice aliases between the threads of the block: access it with a discipline that
    /// avoids races (each thread its own elements between barriers), as in CUDA.
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn shared<T: Copy>(&self, n: usize) -> &mut [T] {
        let p = ffi::weft_shared_alloc((n * core::mem::size_of::<T>()) as u32) as *mut T;
        core::slice::from_raw_parts_mut(p, n)
    }
}

/// Machine ids: the lane, warp and core the caller runs on, and the machine's shape.
pub mod hw {
    use super::ffi;
    /// Lane within the warp.
    pub fn lane() -> u32 {
        unsafe { ffi::weft_lane_id() }
    }
    /// Warp within the core.
    pub fn warp() -> u32 {
        unsafe { ffi::weft_warp_id() }
    }
    /// Core.
    pub fn core() -> u32 {
        unsafe { ffi::weft_core_id() }
    }
    /// Lanes per warp.
    pub fn lanes() -> u32 {
        unsafe { ffi::weft_num_lanes() }
    }
    /// Warps per core.
    pub fn warps() -> u32 {
        unsafe { ffi::weft_num_warps() }
    }
    /// Cores.
    pub fn cores() -> u32 {
        unsafe { ffi::weft_num_cores() }
    }
    /// The core's cycle counter.
    pub fn cycles() -> u64 {
        unsafe { ffi::weft_cycles() }
    }
}

extern "C" fn trampoline<F: Fn(&Thread) + Sync>(p: *mut c_void) {
    // SAFETY: `p` is the `&F` that `launch` passed and keeps alive until every thread is done.
    let f = unsafe { &*(p as *const F) };
    f(&Thread { _private: () })
}

/// Run `kernel` once per thread of `grid` blocks of `block` threads, and return when all are
/// done. Call it from `main` (one thread). The closure is shared by all threads (`Sync`).
pub fn launch<F: Fn(&Thread) + Sync>(grid: Dim3, block: Dim3, kernel: &F) {
    // SAFETY: the runtime calls `trampoline::<F>` with the pointer we give, only during this
    // call; `kernel` outlives it.
    unsafe {
        ffi::weft_launch(
            grid,
            block,
            trampoline::<F>,
            kernel as *const F as *mut c_void,
        );
    }
}

/// [`launch`] with `shared_bytes` of shared memory reserved per block.
pub fn launch_shared<F: Fn(&Thread) + Sync>(
    grid: Dim3,
    block: Dim3,
    shared_bytes: u32,
    kernel: &F,
) {
    // SAFETY: as for `launch`.
    unsafe {
        ffi::weft_launch_shared(
            grid,
            block,
            shared_bytes,
            trampoline::<F>,
            kernel as *const F as *mut c_void,
        );
    }
}

/// The exit status of an impossible launch (weft.h's WEFT_ERR_LAUNCH).
pub const ERR_LAUNCH: i32 = 251;

/// A block of whole warps, or the run ends with a message.
fn check_whole_warps(block: Dim3) {
    let lanes = hw::lanes();
    if !block.count().is_multiple_of(lanes) {
        println!(
            "weft: launch_warps: a block of {} threads is not a whole number of warps of {} \
             lanes, so its last warp would not be converged",
            block.count(),
            lanes
        );
        exit(ERR_LAUNCH);
    }
}

/// [`launch`] for a warp-level kernel: each thread also gets its warp, converged
/// ([`Warp<All>`]), for shuffles, votes and reductions. The block must be a whole number of
/// warps (warpSize = [`hw::lanes`]); otherwise the run ends with a message and status 251.
pub fn launch_warps<F: Fn(&Thread, Warp<All>) + Sync>(grid: Dim3, block: Dim3, kernel: &F) {
    check_whole_warps(block);
    // SAFETY: a kernel starts with every lane of its (whole) software warp running together.
    launch(grid, block, &|t: &Thread| {
        kernel(t, unsafe { Warp::assume_converged() })
    });
}

/// [`launch_warps`] with `shared_bytes` of shared memory reserved per block.
pub fn launch_warps_shared<F: Fn(&Thread, Warp<All>) + Sync>(
    grid: Dim3,
    block: Dim3,
    shared_bytes: u32,
    kernel: &F,
) {
    check_whole_warps(block);
    // SAFETY: as for `launch_warps`.
    launch_shared(grid, block, shared_bytes, &|t: &Thread| {
        kernel(t, unsafe { Warp::assume_converged() })
    });
}

/// End the run with `code` (pending kernel output is printed first).
pub fn exit(code: i32) -> ! {
    // SAFETY: ends the run; never returns.
    unsafe { ffi::weft_exit(code) }
}

/// A fixed buffer that `core::fmt` writes into; longer output is cut.
pub struct Line {
    buf: [u8; 256],
    len: usize,
}

impl Default for Line {
    fn default() -> Self {
        Line {
            buf: [0; 256],
            len: 0,
        }
    }
}

impl Write for Line {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for &b in s.as_bytes() {
            if self.len + 1 < self.buf.len() && b != 0 {
                self.buf[self.len] = b;
                self.len += 1;
            }
        }
        Ok(())
    }
}

impl Line {
    /// Print through the runtime's printf (kept per thread inside a kernel).
    pub fn emit(&mut self) {
        self.buf[self.len] = 0;
        // SAFETY: "%s" with a NUL-terminated buffer.
        unsafe {
            ffi::weft_printf(c"%s".as_ptr(), self.buf.as_ptr());
        }
    }
}

/// Formatted output, like `std::print!`.
#[macro_export]
macro_rules! print {
    ($($arg:tt)*) => {{
        let mut l = $crate::Line::default();
        let _ = core::fmt::Write::write_fmt(&mut l, format_args!($($arg)*));
        l.emit();
    }};
}

/// Formatted output with a newline, like `std::println!`.
#[macro_export]
macro_rules! println {
    () => { $crate::print!("\n") };
    ($($arg:tt)*) => {{
        let mut l = $crate::Line::default();
        let _ = core::fmt::Write::write_fmt(&mut l, format_args!($($arg)*));
        let _ = core::fmt::Write::write_str(&mut l, "\n");
        l.emit();
    }};
}

// The device's panic handler; a host build (the compile-fail tests) has std's.
#[cfg(all(target_arch = "riscv32", target_os = "none"))]
#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    let mut l = Line::default();
    let _ = writeln!(l, "panic: {}", info.message());
    if let Some(loc) = info.location() {
        let _ = writeln!(l, "  at {}:{}", loc.file(), loc.line());
    }
    l.emit();
    exit(101)
}
