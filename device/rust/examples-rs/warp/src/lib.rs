//! Warp-level kernels in Rust on typed warps (`weft_kernel::warp`): a warp reduction, a warp
//! scan, stream compaction with ballot and popcount, a histogram with warp-aggregated atomics,
//! and a kernel that branches (and branches again) before its collectives. `main` checks each
//! against plain sequential Rust and prints what `crates/cc/tests/rust.rs` compares with
//! values it computes on the host. `zc_checked` and `zc_hand` are the zero-cost pair: the
//! same computation through the checked API and written by hand with the raw instructions;
//! the test finds them in the linked program and compares their bytes.
//!
//! Build and run:
//! ```sh
//! cargo build --release --manifest-path device/rust/Cargo.toml
//! weft cc device/rust/target/riscv32imafc-unknown-none-elf/release/libwarp_kernels.a -o wk.elf
//! weft run wk.elf --lanes 32 --timing --stats
//! ```

#![no_std]

use core::cell::UnsafeCell;
use weft_kernel::sync::{self, AtomicU32, Ordering};
use weft_kernel::warp::{merge, All, Warp};
use weft_kernel::{launch, launch_warps, println, Dim3, Thread};

const N: usize = 3000;

/// A buffer the threads of a launch write at distinct indices.
struct Out<const K: usize>(UnsafeCell<[u32; K]>);
// SAFETY: each thread writes only its own elements (the kernels below say which).
unsafe impl<const K: usize> Sync for Out<K> {}
impl<const K: usize> Out<K> {
    const fn new() -> Self {
        Out(UnsafeCell::new([0; K]))
    }
    /// Write element `i`.
    ///
    /// # Safety
    /// No other thread touches element `i` during the launch.
    unsafe fn set(&self, i: usize, v: u32) {
        (*self.0.get())[i] = v;
    }
    fn get(&self, i: usize) -> u32 {
        // SAFETY: read between launches, or of an element no thread is writing.
        unsafe { (*self.0.get())[i] }
    }
    /// The whole buffer, for a launch that only reads it.
    fn all(&self) -> &[u32; K] {
        // SAFETY: as for `get`: nothing writes it while this borrow lives.
        unsafe { &*self.0.get() }
    }
    /// Fill it in place (no launch running; no copy on the stack).
    fn fill(&self, mut f: impl FnMut(usize) -> u32) {
        for i in 0..K {
            // SAFETY: called from main between launches.
            unsafe { self.set(i, f(i)) };
        }
    }
}

fn lcg(s: &mut u32) -> u32 {
    *s = s.wrapping_mul(1664525).wrapping_add(1013904223);
    *s >> 8
}

/// The whole warps of a grid of `blocks` blocks of `block` threads.
fn grid_warps(blocks: u32, block: u32) -> usize {
    (blocks * block / weft_kernel::hw::lanes()) as usize
}

/// A block of at least `min` threads and whole warps.
fn whole_block(min: u32) -> u32 {
    let w = weft_kernel::hw::lanes();
    min.div_ceil(w) * w
}

/// Sum of `data` with a warp reduction and one atomic per warp.
fn reduce(data: &[u32; N]) -> u32 {
    let total = AtomicU32::new(0);
    let block = whole_block(64);
    let blocks = 8;
    launch_warps(
        Dim3::x(blocks),
        Dim3::x(block),
        &|t: &Thread, w: Warp<All>| {
            let stride = (blocks * block) as usize;
            let mut v = 0u32;
            let mut i = t.global_id() as usize;
            while i < N {
                v = v.wrapping_add(data[i]);
                i += stride;
            }
            let s = w.reduce_add(v);
            if w.lane() == 0 {
                sync::add(&total, s);
            }
        },
    );
    total.load(Ordering::SeqCst)
}

/// Inclusive prefix sums of `data`: each warp scans its values, one warp scans the warps'
/// totals (a warp-sized chunk at a time, carrying the sum), every thread adds its warp's
/// offset.
fn scan(data: &[u32; N], out: &Out<N>) {
    static TOTALS: Out<{ N + 64 }> = Out::new();
    let block = whole_block(64);
    let blocks = (N as u32).div_ceil(block);
    let warps = grid_warps(blocks, block);
    launch_warps(
        Dim3::x(blocks),
        Dim3::x(block),
        &|t: &Thread, w: Warp<All>| {
            let i = t.global_id() as usize;
            let v = w.inclusive_scan(if i < N { data[i] } else { 0 });
            // SAFETY: thread i writes out[i]; the warp's last lane writes its warp's total.
            unsafe {
                if i < N {
                    out.set(i, v);
                }
                if w.lane() == w.size() - 1 {
                    TOTALS.set(i / w.size() as usize, v);
                }
            }
        },
    );
    launch_warps(
        Dim3::x(1),
        Dim3::x(weft_kernel::hw::lanes()),
        &|_t: &Thread, w: Warp<All>| {
            let n = w.size() as usize;
            let mut carry = 0u32;
            let mut base = 0;
            while base < warps {
                let j = base + w.lane() as usize;
                let x = if j < warps { TOTALS.get(j) } else { 0 };
                let incl = w.inclusive_scan(x);
                if j < warps {
                    // SAFETY: lane j of this one warp writes TOTALS[j] only.
                    unsafe { TOTALS.set(j, carry.wrapping_add(incl).wrapping_sub(x)) };
                }
                carry = carry.wrapping_add(w.shuffle_idx(incl, w.size() - 1));
                base += n;
            }
        },
    );
    launch(Dim3::x(blocks), Dim3::x(block), &|t: &Thread| {
        let i = t.global_id() as usize;
        if i < N {
            let lanes = weft_kernel::hw::lanes() as usize;
            // SAFETY: thread i updates out[i] only.
            unsafe { out.set(i, out.get(i).wrapping_add(TOTALS.get(i / lanes))) };
        }
    });
}

fn keep(x: u32) -> bool {
    x % 7 < 3
}

/// Stream compaction: the elements of `data` that `keep`, in order, into `out`; their count.
fn compact(data: &[u32; N], out: &Out<N>) -> usize {
    static OFFSETS: Out<{ N + 64 }> = Out::new();
    let block = whole_block(64);
    let blocks = (N as u32).div_ceil(block);
    let warps = grid_warps(blocks, block);
    launch_warps(
        Dim3::x(blocks),
        Dim3::x(block),
        &|t: &Thread, w: Warp<All>| {
            let i = t.global_id() as usize;
            let b = w.ballot(i < N && keep(data[i]));
            if w.lane() == 0 {
                // SAFETY: lane 0 of each warp writes its warp's count.
                unsafe { OFFSETS.set(i / w.size() as usize, b.count_ones()) };
            }
        },
    );
    let mut total = 0;
    for k in 0..warps {
        let c = OFFSETS.get(k);
        // SAFETY: no launch is running.
        unsafe { OFFSETS.set(k, total) };
        total += c;
    }
    launch_warps(
        Dim3::x(blocks),
        Dim3::x(block),
        &|t: &Thread, w: Warp<All>| {
            let i = t.global_id() as usize;
            let k = i < N && keep(data[i]);
            let b = w.ballot(k);
            if k {
                let below = b & ((1u32 << w.lane()) - 1);
                let at = OFFSETS.get(i / w.size() as usize) + below.count_ones();
                // SAFETY: each kept element has its own place.
                unsafe { out.set(at as usize, data[i]) };
            }
        },
    );
    total as usize
}

const BINS: usize = 64;

/// A 64-bin histogram of `data` with warp-aggregated atomics; also the number of atomics.
fn histogram(data: &[u8; 4096], hist: &[AtomicU32; BINS]) -> u32 {
    let atomics = AtomicU32::new(0);
    let block = whole_block(128);
    let blocks = 4;
    launch_warps(
        Dim3::x(blocks),
        Dim3::x(block),
        &|t: &Thread, mut w: Warp<All>| {
            let stride = (blocks * block) as usize;
            let mut base = t.block_linear() as usize * block as usize;
            while base < data.len() {
                let i = base + t.thread_idx().x as usize;
                let bin = if i < data.len() {
                    data[i] as u32 % BINS as u32
                } else {
                    BINS as u32
                };
                let mut todo = w.ballot(bin < BINS as u32);
                while todo != 0 {
                    let leader = todo.trailing_zeros();
                    let b = w.shuffle_idx(bin, leader);
                    let peers = w.ballot(bin == b) & todo;
                    w.branch(
                        w.lane() == leader,
                        |_leader| {
                            sync::add(&hist[b as usize], peers.count_ones());
                            sync::add(&atomics, 1);
                        },
                        |_others| {},
                    );
                    todo &= !peers;
                }
                base += stride;
            }
        },
    );
    atomics.load(Ordering::SeqCst)
}

/// Branches inside branches, then collectives on the warp they return to: each lane's value
/// depends on its path; the warp's sum and ballot of them come after.
fn branches(out: &Out<256>) {
    let lanes = weft_kernel::hw::lanes();
    launch_warps(
        Dim3::x(2),
        Dim3::x(4 * lanes),
        &|t: &Thread, mut w: Warp<All>| {
            let g = t.global_id();
            let v = w.branch(
                g.is_multiple_of(3),
                |mut by3| by3.branch(g.is_multiple_of(2), |_by6| g * 10, |_odd| g + 1000),
                |_rest| g,
            );
            // the same split through diverge, the halves merged by hand
            let u = w.diverge(g % 4 == 1, |mut ones, mut others| {
                let a = ones.run(|_| 7).unwrap_or(0);
                let b = others.run(|_| 1).unwrap_or(0);
                (merge(ones, others), a + b)
            });
            let sum = w.reduce_add(v + u);
            let odd = w.ballot(v % 2 == 1);
            // SAFETY: thread g writes out[g] only.
            unsafe { out.set(g as usize, sum ^ odd.rotate_left(g % 32)) };
        },
    );
}

/// The zero-cost pair: a branch and a warp sum, through the checked API…
#[no_mangle]
#[inline(never)]
pub fn zc_checked(x: u32, w: &mut Warp<All>) -> u32 {
    let y = w.branch(
        x & 1 == 1,
        |_odd| x.wrapping_mul(3),
        |_even| x.wrapping_add(7),
    );
    w.reduce_add(y)
}

/// …and written by hand with the raw instructions.
#[no_mangle]
#[inline(never)]
pub fn zc_hand(x: u32) -> u32 {
    use weft_kernel::warp::arch::{lanes, shfl, WHOLE};
    let y = if x & 1 == 1 {
        x.wrapping_mul(3)
    } else {
        x.wrapping_add(7)
    };
    let n = lanes();
    if n.is_power_of_two() {
        let mut v = y;
        let mut k = 1;
        while k < n {
            v = v.wrapping_add(shfl::<6>(v, WHOLE | (k & 31)));
            k <<= 1;
        }
        v
    } else {
        let mut acc = shfl::<7>(y, WHOLE);
        for j in 1..n {
            acc = acc.wrapping_add(shfl::<7>(y, WHOLE | (j & 31)));
        }
        acc
    }
}

#[no_mangle]
pub extern "C" fn main() -> i32 {
    let mut bad = 0;
    // inputs in static memory (a lane's stack is 8 KiB)
    static DATA: Out<N> = Out::new();
    let mut s = 12345u32;
    DATA.fill(|_| lcg(&mut s) % 100000);
    let data = DATA.all();

    let sum = reduce(data);
    let want = data.iter().fold(0u32, |a, &x| a.wrapping_add(x));
    println!(
        "warp reduce: {} {}",
        sum,
        if sum == want { "PASS" } else { "FAIL" }
    );
    bad += (sum != want) as i32;

    static SMALL: Out<N> = Out::new();
    SMALL.fill(|i| data[i] % 1000);
    let small = SMALL.all();
    static SCAN: Out<N> = Out::new();
    scan(small, &SCAN);
    let mut run = 0u32;
    let ok = (0..N).all(|i| {
        run += small[i];
        SCAN.get(i) == run
    });
    println!(
        "warp scan: last {} {}",
        SCAN.get(N - 1),
        if ok { "PASS" } else { "FAIL" }
    );
    bad += !ok as i32;

    static KEPT: Out<N> = Out::new();
    let k = compact(data, &KEPT);
    let mut j = 0;
    let mut ok = true;
    for &x in data.iter().filter(|&&x| keep(x)) {
        ok &= KEPT.get(j) == x;
        j += 1;
    }
    ok &= j == k;
    println!("compact: kept {} {}", k, if ok { "PASS" } else { "FAIL" });
    bad += !ok as i32;

    static BYTES: Out<1024> = Out::new();
    let mut s = 777u32;
    BYTES.fill(|w| {
        (0..4).fold(0, |a, k| {
            let i = 4 * w + k;
            a | ((((i / 37) % 13 * 5) as u32 + lcg(&mut s) % 3) << (8 * k))
        })
    });
    // SAFETY: 1024 words are 4096 bytes, read-only from here on.
    let bytes: &[u8; 4096] = unsafe { &*(BYTES.all() as *const [u32; 1024] as *const [u8; 4096]) };
    let hist: [AtomicU32; BINS] = core::array::from_fn(|_| AtomicU32::new(0));
    let atomics = histogram(bytes, &hist);
    let mut want = [0u32; BINS];
    for &b in bytes.iter() {
        want[b as usize % BINS] += 1;
    }
    let ok = (0..BINS).all(|b| hist[b].load(Ordering::SeqCst) == want[b]);
    // fewer atomics than elements: lanes of a warp that share a bin add once
    let fewer = weft_kernel::hw::lanes() == 1 || atomics < bytes.len() as u32;
    println!(
        "histogram: bins[0..4] {} {} {} {} {}",
        want[0],
        want[1],
        want[2],
        want[3],
        if ok && fewer { "PASS" } else { "FAIL" }
    );
    bad += !(ok && fewer) as i32;

    static BR: Out<256> = Out::new();
    branches(&BR);
    let lanes = weft_kernel::hw::lanes();
    let mut h = 2166136261u32;
    for g in 0..8 * lanes {
        h = (h ^ BR.get(g as usize)).wrapping_mul(16777619);
    }
    println!("branches: {:08x}", h);

    // the zero-cost pair, run: both give the warp's sum
    let zc = AtomicU32::new(0);
    launch_warps(
        Dim3::x(1),
        Dim3::x(lanes),
        &|_t: &Thread, mut w: Warp<All>| {
            let x = w.lane() * 5 + 1;
            let (a, b) = (zc_checked(x, &mut w), zc_hand(x));
            if a != b {
                sync::add(&zc, 1);
            }
        },
    );
    let ok = zc.load(Ordering::SeqCst) == 0;
    println!("zero-cost pair agree: {}", if ok { "PASS" } else { "FAIL" });
    bad += !ok as i32;
    bad
}
