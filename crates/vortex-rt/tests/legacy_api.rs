//! `libvortex.so`'s classic API driven as a Vortex host program drives it: upload a `.vxbin`
//! kernel image (`tests/vortex/kmu.s`, Vortex's KMU start-up shape), allocate buffers, name the
//! kernel through `KERNEL_ENTRY` or the image's symbol footer, `vx_start`, `vx_ready_wait`,
//! copy back. Expected values follow Vortex's classic `vx_start`: one CTA per core of one
//! warp's threads. Errors are -1, as Vortex's classic functions return.

use std::ffi::c_void;
use std::ptr::null_mut;
use vortex::api::device::*;
use vortex::api::legacy::*;
use vortex::config::config_from_env;
use vortex::device::Device;
use vortex::handles;
use weft_simt::vortex::kmu::dcr;

mod common;

use common::symbol as sym;

/// The test program as a `.vxbin` image (with the footer `entries`) and its symbols.
fn image(entries: &[(&str, &str)]) -> (Vec<u8>, weft_elf::ElfImage) {
    common::vxbin("kmu.s", entries)
}

unsafe fn alloc(d: *mut c_void, n: u64) -> *mut c_void {
    let mut b = null_mut();
    assert_eq!(vx_mem_alloc(d, n, 3, &mut b), 0);
    b
}

unsafe fn addr(b: *mut c_void) -> u32 {
    let mut a = 0u64;
    assert_eq!(vx_mem_address(b, &mut a), 0);
    a as u32
}

unsafe fn words(b: *mut c_void, n: usize) -> Vec<u32> {
    let mut out = vec![0u32; n];
    let r = vx_copy_from_dev(out.as_mut_ptr() as *mut c_void, b, 0, 4 * n as u64);
    assert_eq!(r, 0);
    out
}

/// Four zeroed 256-byte buffers and an argument buffer holding their addresses.
unsafe fn buffers(d: *mut c_void) -> ([*mut c_void; 4], *mut c_void) {
    let zero = [0u8; 256];
    let bufs = [alloc(d, 256), alloc(d, 256), alloc(d, 256), alloc(d, 256)];
    for b in bufs {
        assert_eq!(vx_copy_to_dev(b, zero.as_ptr() as *const c_void, 0, 256), 0);
    }
    let argv: Vec<u8> = bufs.iter().flat_map(|&b| addr(b).to_le_bytes()).collect();
    let mut args = null_mut();
    assert_eq!(
        vx_upload_bytes(d, argv.as_ptr() as *const c_void, 16, &mut args),
        0
    );
    (bufs, args)
}

unsafe fn upload(d: *mut c_void, vxbin: &[u8]) -> *mut c_void {
    let mut k = null_mut();
    let r = vx_upload_kernel_bytes(
        d,
        vxbin.as_ptr() as *const c_void,
        vxbin.len() as u64,
        &mut k,
    );
    assert_eq!(r, 0);
    k
}

#[test]
fn a_host_program_runs_a_kernel_through_vx_start() {
    unsafe {
        let mut d = null_mut();
        assert_eq!(vx_dev_open(&mut d), 0);
        let cap = |id| {
            let mut v = 0u64;
            assert_eq!(vx_dev_caps(d, id, &mut v), 0);
            v
        };
        // Vortex's default machine unless the environment says otherwise.
        let (threads, warps, cores) = (cap(1), cap(2), cap(3));
        assert_eq!((threads, warps, cores), (4, 4, 1));
        assert_eq!(cap(6), 16 << 10);
        let mut v = 0u64;
        assert_eq!(vx_dev_caps(d, 0x99, &mut v), -1);

        let (vxbin, img) = image(&[]);
        let k = upload(d, &vxbin);
        assert_eq!(addr(k), sym(&img, "_start"));
        let ([out, hits, _, inits], args) = buffers(d);
        assert_eq!(vx_dcr_write(d, dcr::KERNEL_ENTRY0, sym(&img, "ids")), 0);
        assert_eq!(vx_start(d, k, args), 0);
        assert_eq!(vx_ready_wait(d, u64::MAX), 0);

        // One CTA of `threads` threads: thread t writes its id t at out[t], once.
        let n = threads as usize;
        let o = words(out, 16);
        let h = words(hits, 16);
        for t in 0..16 {
            let want = if t < n { (t as u32, 1) } else { (0, 0) };
            assert_eq!((o[t], h[t]), want, "thread {t}");
        }
        assert_eq!(words(inits, 1), vec![1], "one warp started");
        let mut got = 0u32;
        assert_eq!(vx_dcr_read(d, dcr::BLOCK_SIZE, 0, &mut got), 0);
        assert_eq!(got, threads as u32);
        let mut instret = 0u64;
        assert_eq!(vx_mpm_query(d, 0, 0xB02, 0, &mut instret), 0);
        assert!(
            instret > 40,
            "the kernel's instructions are counted: {instret}"
        );
        let mut all = 0u64;
        assert_eq!(vx_mpm_query(d, 0, 0xB02, u32::MAX, &mut all), 0);
        assert_eq!(all, instret, "one core: the sum is core 0's count");
        // The same launch again counts as many instructions again (SimX counts per launch;
        // vx_mpm_query gives the total since the device opened).
        assert_eq!(vx_start(d, k, args), 0);
        assert_eq!(vx_ready_wait(d, u64::MAX), 0);
        let mut twice = 0u64;
        assert_eq!(vx_mpm_query(d, 0, 0xB02, 0, &mut twice), 0);
        assert_eq!(twice, 2 * instret, "two identical launches");

        // Errors come back as -1.
        let zero = [0u8; 16];
        assert_eq!(vx_dcr_write(d, 0x500, 1), -1);
        assert_eq!(vx_mpm_query(d, 0, 0xC00, 0, &mut all), -1);
        assert_eq!(
            vx_copy_to_dev(inits, zero.as_ptr() as *const c_void, 250, 16),
            -1
        );
        let mut b = null_mut();
        assert_eq!(vx_mem_alloc(null_mut(), 4, 0, &mut b), -1);
        assert_eq!(
            vx_mem_alloc(out, 4, 0, &mut b),
            -1,
            "a buffer is not a device"
        );
        assert_eq!(vx_check_occupancy(d, 16, 0), 0);
        assert_eq!(vx_check_occupancy(d, 17, 0), -1);
        assert_eq!(
            vx_check_occupancy(d, 4, 4 << 10),
            0,
            "4 blocks share 16 KiB"
        );
        assert_eq!(vx_check_occupancy(d, 4, (4 << 10) + 1), -1);

        let (mut free0, mut used0) = (0, 0);
        vx_mem_info(d, &mut free0, &mut used0);
        assert!(used0 >= 256 * 4 + 64);
        assert_eq!(vx_mem_free(out), 0);
        assert_eq!(vx_mem_free(out), -1, "freed twice");
        let (mut free1, mut used1) = (0, 0);
        vx_mem_info(d, &mut free1, &mut used1);
        assert_eq!((free1 - free0, used0 - used1), (256, 256));
        let (mut grid, mut block) = ([0u32; 2], [0u32; 2]);
        let global = [10u32, 9];
        assert_eq!(
            vx_max_occupancy_grid(d, 2, global.as_ptr(), grid.as_mut_ptr(), block.as_mut_ptr()),
            0
        );
        assert_eq!((grid, block), ([3, 3], [4, 4]));
        assert_eq!(vx_dev_close(d), 0);
        assert_eq!(vx_dev_close(d), -1, "closed twice");
    }
}

#[test]
fn vx_start_takes_the_kernel_from_the_image_footer() {
    unsafe {
        let mut d = null_mut();
        assert_eq!(vx_dev_open(&mut d), 0);
        // The footer names `ids` as `main`: no KERNEL_ENTRY write is needed.
        let (vxbin, _) = image(&[("main", "ids"), ("order", "order")]);
        let k = upload(d, &vxbin);
        let ([out, hits, _, _], args) = buffers(d);
        assert_eq!(vx_start(d, k, args), 0);
        assert_eq!(vx_ready_wait(d, u64::MAX), 0);
        assert_eq!(words(out, 4), vec![0, 1, 2, 3]);
        assert_eq!(words(hits, 5), vec![1, 1, 1, 1, 0]);
        assert_eq!(vx_dev_close(d), 0);
    }
}

#[test]
fn vx_ready_wait_gives_up_after_its_time_limit() {
    unsafe {
        let mut d = null_mut();
        assert_eq!(vx_dev_open(&mut d), 0);
        let (vxbin, img) = image(&[]);
        let k = upload(d, &vxbin);
        let (_, args) = buffers(d);
        assert_eq!(vx_dcr_write(d, dcr::KERNEL_ENTRY0, sym(&img, "forever")), 0);
        assert_eq!(vx_start(d, k, args), 0);
        let t0 = std::time::Instant::now();
        assert_eq!(vx_ready_wait(d, 50), -1);
        assert_eq!(vx_ready_wait(d, 20), -1, "still pending, still running");
        assert!(t0.elapsed() < std::time::Duration::from_secs(10));
        // Closing stops the kernel.
        assert_eq!(vx_dev_close(d), 0);
        assert!(t0.elapsed() < std::time::Duration::from_secs(10));
    }
}

#[test]
fn the_configuration_comes_from_the_environment() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |k: &str| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    };
    let c = config_from_env(env(&[
        ("WEFT_CORES", "2"),
        ("WEFT_WARPS", "8"),
        ("WEFT_THREADS", "8"),
    ]))
    .unwrap();
    let m = &c.machine;
    assert_eq!((m.cores, m.warps, m.lanes, m.timing), (2, 8, 8, false));
    assert!(config_from_env(env(&[("WEFT_WARPS", "many")])).is_err());
    assert!(config_from_env(env(&[("WEFT_TIMING", "maybe")])).is_err());
    use vortex::config::{perf_scope_from_env, PerfScope};
    assert_eq!(perf_scope_from_env(env(&[])).unwrap(), PerfScope::Device);
    assert_eq!(
        perf_scope_from_env(env(&[("WEFT_PERF_SCOPE", "launch")])).unwrap(),
        PerfScope::Launch
    );
    assert!(perf_scope_from_env(env(&[("WEFT_PERF_SCOPE", "last")])).is_err());
    assert!(
        config_from_env(env(&[("WEFT_TIMING", "1")]))
            .unwrap()
            .machine
            .timing
    );

    // vx_start's geometry on 2 cores of 8 × 8: one CTA of 8 threads per core.
    unsafe {
        let d = handles::handle(Device::with_config(c).unwrap());
        let (vxbin, img) = image(&[]);
        let k = upload(d, &vxbin);
        let ([out, _, _, inits], args) = buffers(d);
        assert_eq!(vx_dcr_write(d, dcr::KERNEL_ENTRY0, sym(&img, "ids")), 0);
        assert_eq!(vx_start(d, k, args), 0);
        assert_eq!(vx_ready_wait(d, u64::MAX), 0);
        let want: Vec<u32> = (0..16).map(|g| (g % 8) | (g / 8) << 16).collect();
        assert_eq!(words(out, 16), want, "block x in bits 16+, thread x below");
        assert_eq!(words(inits, 1), vec![2], "one warp on each core");
        let mut v = 0u64;
        assert_eq!(vx_dev_caps(d, 3, &mut v), 0);
        assert_eq!(v, 2);
        assert_eq!(vx_device_release(d), 0);
    }

    // Counting the last launch only (WEFT_PERF_SCOPE=launch, as SimX): two identical
    // launches count what one does.
    unsafe {
        let cfg = config_from_env(env(&[])).unwrap();
        let d = handles::handle(Device::with_config_scope(cfg, PerfScope::Launch).unwrap());
        let (vxbin, img) = image(&[]);
        let k = upload(d, &vxbin);
        let (_, args) = buffers(d);
        assert_eq!(vx_dcr_write(d, dcr::KERNEL_ENTRY0, sym(&img, "ids")), 0);
        let mut counts = Vec::new();
        for _ in 0..2 {
            assert_eq!(vx_start(d, k, args), 0);
            assert_eq!(vx_ready_wait(d, u64::MAX), 0);
            let (mut i, mut c) = (0u64, 0u64);
            assert_eq!(vx_mpm_query(d, 0, 0xB02, 0, &mut i), 0);
            assert_eq!(vx_mpm_query(d, 0, 0xB00, 0, &mut c), 0);
            counts.push((i, c));
        }
        assert!(counts[0].0 > 40, "{counts:?}");
        assert_eq!(counts[0], counts[1], "each launch counted alone");
        assert_eq!(vx_device_release(d), 0);
    }

    // Under the timing model, caches stay warm from one launch to the next unless
    // pipeline.launch_resets_memory (SimX's reset at every launch): then a repeated launch
    // takes the cycles of the first.
    for reset in [false, true] {
        unsafe {
            let mut cfg = config_from_env(env(&[("WEFT_TIMING", "1")])).unwrap();
            cfg.timing.pipeline.launch_resets_memory = reset;
            let d = handles::handle(Device::with_config_scope(cfg, PerfScope::Launch).unwrap());
            let (vxbin, img) = image(&[]);
            let k = upload(d, &vxbin);
            let (_, args) = buffers(d);
            assert_eq!(vx_dcr_write(d, dcr::KERNEL_ENTRY0, sym(&img, "ids")), 0);
            let mut cycles = Vec::new();
            for _ in 0..2 {
                assert_eq!(vx_start(d, k, args), 0);
                assert_eq!(vx_ready_wait(d, u64::MAX), 0);
                let mut c = 0u64;
                assert_eq!(vx_mpm_query(d, 0, 0xB00, 0, &mut c), 0);
                cycles.push(c);
            }
            if reset {
                assert_eq!(cycles[0], cycles[1], "cold caches at each launch");
            } else {
                assert!(
                    cycles[1] < cycles[0],
                    "warm caches the second time: {cycles:?}"
                );
            }
            assert_eq!(vx_device_release(d), 0);
        }
    }
}

#[test]
fn dxa_descriptors_and_counters_go_through_the_dcr_ports() {
    unsafe {
        let mut d = null_mut();
        assert_eq!(vx_dev_open(&mut d), 0);
        let mut isa = 0u64;
        assert_eq!(vx_dev_caps(d, 0x7, &mut isa), 0);
        assert_ne!(isa & 1 << (32 + 10), 0, "VX_ISA_EXT_DXA");
        // Slot 2's multicast stride (word 21), rounded to 64 bytes as SimX does, and its
        // META (word 11), as written.
        assert_eq!(vx_dcr_write(d, 0x100 + 2 * 24 + 21, 65), 0);
        assert_eq!(vx_dcr_write(d, 0x100 + 2 * 24 + 11, 0x2a), 0);
        let mut v = 0u32;
        assert_eq!(vx_dcr_read(d, 0x100 + 2 * 24 + 21, 0, &mut v), 0);
        assert_eq!(v, 128);
        assert_eq!(vx_dcr_read(d, 0x100 + 2 * 24 + 11, 0, &mut v), 0);
        assert_eq!(v, 0x2a);
        // Past the descriptor table: refused.
        assert_eq!(vx_dcr_write(d, 0x280, 1), -1);
        // The DXA counter class (6): no copy yet.
        let mut n = 1u64;
        assert_eq!(vx_mpm_query(d, 6, 0xB03, 0, &mut n), 0);
        assert_eq!(n, 0);
        assert_eq!(vx_dev_close(d), 0);
    }
}

/// The memory counter class (2) under the timing model, against what `kmu.s` does: each
/// core's one warp loads 4 words that lanes share (`_start`'s `inits` pointer, lane 0 only;
/// `ids`' three pointers), stores 2 runs of consecutive words (`out`, `info`) and adds
/// atomically twice (`inits`, `hits`), all within one L1 line each: 4 D-cache reads, 2
/// writes, and 4 DRAM writes (write-through stores and atomics go to memory). `vx_dump_perf`'s
/// lines (`VORTEX_PROFILING=2`) print the same numbers. Without the timing model there are
/// no caches: every counter reads 0.
#[test]
fn the_memory_counter_class_counts_the_timing_model_s_caches_and_dram() {
    // counter `addr` summed over the cores (the memory's are machine-wide: core 0's)
    let q = |d: *mut c_void, addr: u32| {
        let mut cores = 0u64;
        assert_eq!(unsafe { vx_dev_caps(d, 3, &mut cores) }, 0);
        let cores = if addr >= 0xB18 { 1 } else { cores as u32 };
        (0..cores)
            .map(|c| {
                let mut v = u64::MAX;
                assert_eq!(unsafe { vx_mpm_query(d, 2, addr, c, &mut v) }, 0);
                v
            })
            .sum::<u64>()
    };
    for timing in ["1", "0"] {
        unsafe {
            let cfg =
                config_from_env(|k: &str| (k == "WEFT_TIMING").then(|| timing.into())).unwrap();
            let cores = cfg.machine.cores as u64;
            let dev = Device::with_config_scope(cfg, vortex::config::PerfScope::Launch).unwrap();
            let d = handles::handle(dev.clone());
            let (vxbin, img) = image(&[]);
            let k = upload(d, &vxbin);
            let (_, args) = buffers(d);
            assert_eq!(vx_dcr_write(d, dcr::KERNEL_ENTRY0, sym(&img, "ids")), 0);
            assert_eq!(vx_start(d, k, args), 0);
            assert_eq!(vx_ready_wait(d, u64::MAX), 0);
            let (reads, writes) = (q(d, 0xB06), q(d, 0xB07));
            let (miss_r, miss_w) = (q(d, 0xB08), q(d, 0xB09));
            let (ic_reads, ic_miss) = (q(d, 0xB03), q(d, 0xB04));
            let (mem_r, mem_w, mem_lt) = (q(d, 0xB18), q(d, 0xB19), q(d, 0xB1A));
            if timing == "0" {
                let all = [reads, writes, miss_r, ic_reads, mem_r, mem_w, mem_lt];
                assert_eq!(all, [0; 7], "no caches without the timing model");
            } else {
                assert_eq!((reads, writes), (4 * cores, 2 * cores));
                assert_eq!(mem_w, 4 * cores, "stores and atomics");
                assert!(miss_r <= reads && miss_w <= writes && ic_miss <= ic_reads);
                assert!(
                    ic_reads > 0 && mem_r > 0 && mem_lt >= mem_r,
                    "{mem_r} {mem_lt}"
                );
                let text = dev.perf_text_for(2).unwrap();
                let want = format!(
                    "PERF: core0: dcache: reqs={}, miss_r={miss_r} ",
                    reads + writes
                );
                assert!(text.contains(&want), "{want}\n{text}");
                assert!(
                    text.contains(&format!(
                        "PERF: memory: reqs={} (r={mem_r}, w={mem_w})",
                        mem_r + mem_w
                    )),
                    "{text}"
                );
            }
            let mut v = 0u64;
            assert_eq!(vx_mpm_query(d, 2, 0xB06, 99, &mut v), -1, "no core 99");
            assert_eq!(vx_device_release(d), 0);
        }
    }
}
