//! Example weft kernels in Rust. `main` runs four launches and checks each result with plain
//! sequential Rust; the output (per-thread lines in thread order, then the checks) is what
//! `crates/cc/tests/rust.rs` compares with values it computes on the host.
//!
//! Build and run:
//! ```sh
//! cargo build --release --manifest-path device/rust/Cargo.toml
//! weft cc device/rust/target/riscv32imafc-unknown-none-elf/release/librust_kernels.a -o rk.elf
//! weft run rk.elf --stats
//! ```

#![no_std]

use weft_kernel::sync::{self, AtomicU32};
use weft_kernel::{launch, launch_shared, println, Dim3, Thread};

const N: usize = 300;

fn collatz(mut x: u32) -> u32 {
    let mut n = 0;
    while x != 1 {
        x = if x % 2 == 1 { 3 * x + 1 } else { x / 2 };
        n += 1;
    }
    n
}

/// A `match` on a per-lane value: rustc makes a jump table of it.
fn classify(t: u32) -> u32 {
    match t % 7 {
        0 => t * 3,
        1 => t ^ 0x5a5a,
        2 => collatz(t + 2),
        3 => t.rotate_left(5),
        4 => t / 3 + 1,
        5 => !t & 0xffff,
        _ => 42,
    }
}

struct Shared<T>(T);
// SAFETY: each thread writes only its own elements (disjoint indices).
unsafe impl<T> Sync for Shared<T> {}

#[no_mangle]
pub extern "C" fn main() -> i32 {
    let mut bad = 0;

    // vecadd over a grid larger than the machine
    let a: [u32; N] = core::array::from_fn(|i| (i * 7) as u32);
    let b: [u32; N] = core::array::from_fn(|i| (1000 - i) as u32);
    let c = Shared(core::cell::UnsafeCell::new([0u32; N]));
    let out = &c;
    launch(
        Dim3::x(N.div_ceil(32) as u32),
        Dim3::x(32),
        &|t: &Thread| {
            let i = t.global_id() as usize;
            if i < N {
                // SAFETY: thread i writes element i only.
                unsafe { (*out.0.get())[i] = a[i] + b[i] };
            }
        },
    );
    let c = c.0.into_inner();
    let ok = (0..N).all(|i| c[i] == a[i] + b[i]);
    println!("vecadd: {}", if ok { "PASS" } else { "FAIL" });
    bad += !ok as i32;

    // per-lane Collatz lengths and a per-lane match; some threads print
    let total = AtomicU32::new(0);
    launch(Dim3::x(4), Dim3::x(25), &|t: &Thread| {
        let i = t.global_id();
        let v = collatz(i + 1) + classify(i);
        sync::add(&total, v);
        if i % 10 == 3 {
            println!(
                "thread {} block {}: collatz {} class {}",
                i,
                t.block_idx().x,
                collatz(i + 1),
                classify(i)
            );
        }
    });
    println!(
        "collatz+match total: {}",
        total.load(sync::Ordering::SeqCst)
    );
    let want: u32 = (0..100).map(|i| collatz(i + 1) + classify(i)).sum();
    bad += (total.load(sync::Ordering::SeqCst) != want) as i32;

    // a block reduction through shared memory with barriers
    let block = (weft_kernel::hw::warps() * weft_kernel::hw::lanes()).clamp(1, 32);
    let block = 1 << (31 - block.leading_zeros()); // a power of two
    let sums = AtomicU32::new(0);
    launch_shared(Dim3::x(8), Dim3::x(block), block * 4, &|t: &Thread| {
        // SAFETY: each thread touches part[tid] and part[tid + s] between barriers.
        let part: &mut [u32] = unsafe { t.shared(block as usize) };
        let tid = t.thread_idx().x as usize;
        part[tid] = t.global_id() * 3 + 1;
        t.sync();
        let mut s = block as usize / 2;
        while s > 0 {
            if tid < s {
                part[tid] += part[tid + s];
            }
            t.sync();
            s /= 2;
        }
        if tid == 0 {
            sync::add(&sums, part[0]);
        }
    });
    let n = 8 * block;
    let want = 3 * (n * (n - 1) / 2) + n;
    let ok = sums.load(sync::Ordering::SeqCst) == want;
    println!(
        "reduce over {} threads: {}",
        n,
        if ok { "PASS" } else { "FAIL" }
    );
    bad += !ok as i32;
    bad
}
