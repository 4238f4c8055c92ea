//! `libvortex.so`'s classic API driven as a Vortex host program drives it: upload a `.vxbin`
//! kernel image (`tests/vortex/kmu.s`, Vortex's KMU start-up shape), allocate buffers, name the
//! kernel through `KERNEL_ENTRY`, `vx_start`, `vx_ready_wait`, copy back. Expected values
//! follow Vortex's classic `vx_start`: one CTA per core of one warp's threads.

use std::ffi::c_void;
use std::ptr::null_mut;
use vortex::code;
use vortex::device::{config_from_env, VxDevice};
use vortex::*;
use weft_simt::kmu::dcr;

/// The test program as a `.vxbin` image and its symbols.
fn image() -> (Vec<u8>, weft_elf::ElfImage) {
    let src = std::fs::read_to_string(format!(
        "{}/../../tests/vortex/kmu.s",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let bytes = weft_asm::assemble(&src, "kmu.s").unwrap();
    let img = weft_elf::read_elf(&bytes).unwrap();
    let lo = img.segments.iter().map(|s| s.vaddr).min().unwrap();
    let hi = img
        .segments
        .iter()
        .map(|s| s.vaddr + s.memsz.max(s.data.len() as u32))
        .max()
        .unwrap();
    let end = img
        .segments
        .iter()
        .map(|s| s.vaddr + s.data.len() as u32)
        .max()
        .unwrap();
    let mut flat = vec![0u8; (end - lo) as usize];
    for s in &img.segments {
        let at = (s.vaddr - lo) as usize;
        flat[at..at + s.data.len()].copy_from_slice(&s.data);
    }
    (weft_simt::vxbin::write(lo, hi, &flat, &[]), img)
}

fn sym(img: &weft_elf::ElfImage, s: &str) -> u32 {
    img.symbol(s).unwrap().value
}

unsafe fn alloc(d: *mut c_void, n: u64) -> *mut c_void {
    let mut b = null_mut();
    assert_eq!(vx_mem_alloc(d, n, 3, &mut b), code::SUCCESS);
    b
}

unsafe fn addr(b: *mut c_void) -> u32 {
    let mut a = 0u64;
    assert_eq!(vx_mem_address(b, &mut a), code::SUCCESS);
    a as u32
}

unsafe fn words(b: *mut c_void, n: usize) -> Vec<u32> {
    let mut out = vec![0u32; n];
    let r = vx_copy_from_dev(out.as_mut_ptr() as *mut c_void, b, 0, 4 * n as u64);
    assert_eq!(r, code::SUCCESS);
    out
}

#[test]
fn a_host_program_runs_a_kernel_through_vx_start() {
    unsafe {
        let mut d = null_mut();
        assert_eq!(vx_dev_open(&mut d), code::SUCCESS);
        let cap = |id| {
            let mut v = 0u64;
            assert_eq!(vx_dev_caps(d, id, &mut v), code::SUCCESS);
            v
        };
        // Vortex's default machine unless the environment says otherwise.
        let (threads, warps, cores) = (cap(1), cap(2), cap(3));
        assert_eq!((threads, warps, cores), (4, 4, 1));
        assert_eq!(cap(6), 16 << 10);
        let mut v = 0u64;
        assert_eq!(vx_dev_caps(d, 0x99, &mut v), code::NOT_SUPPORTED);

        let (vxbin, img) = image();
        let mut k = null_mut();
        let r = vx_upload_kernel_bytes(
            d,
            vxbin.as_ptr() as *const c_void,
            vxbin.len() as u64,
            &mut k,
        );
        assert_eq!(r, code::SUCCESS);
        assert_eq!(addr(k), sym(&img, "_start"));

        let (out, hits, info, inits) = (alloc(d, 256), alloc(d, 256), alloc(d, 256), alloc(d, 16));
        let zero = [0u8; 256];
        for b in [out, hits, info] {
            assert_eq!(vx_copy_to_dev(b, zero.as_ptr() as *const c_void, 0, 256), 0);
        }
        assert_eq!(
            vx_copy_to_dev(inits, zero.as_ptr() as *const c_void, 0, 16),
            0
        );
        let argv: Vec<u8> = [addr(out), addr(hits), addr(info), addr(inits)]
            .iter()
            .flat_map(|a| a.to_le_bytes())
            .collect();
        let mut args = null_mut();
        assert_eq!(
            vx_upload_bytes(d, argv.as_ptr() as *const c_void, 16, &mut args),
            code::SUCCESS
        );
        assert_eq!(vx_dcr_write(d, dcr::KERNEL_ENTRY0, sym(&img, "ids")), 0);
        assert_eq!(vx_start(d, k, args), code::SUCCESS);
        assert_eq!(vx_ready_wait(d, u64::MAX), code::SUCCESS);

        // One CTA of `threads` threads: thread t writes its id t at out[t], once.
        let n = threads as usize;
        let o = words(out, 16);
        let h = words(hits, 16);
        for t in 0..16 {
            let want = if t < n { (t as u32, 1) } else { (0, 0) };
            assert_eq!((o[t], h[t]), want, "thread {t}");
        }
        let mut got = 0u32;
        assert_eq!(vx_dcr_read(d, dcr::BLOCK_SIZE, 0, &mut got), 0);
        assert_eq!(got, threads as u32);
        let mut instret = 0u64;
        assert_eq!(vx_mpm_query(d, 0, 0xB02, 0, &mut instret), 0);
        assert!(
            instret > 40,
            "the kernel's instructions are counted: {instret}"
        );

        // Errors come back as Vortex's codes.
        assert_eq!(vx_dcr_write(d, 0x500, 1), code::NOT_SUPPORTED);
        assert_eq!(
            vx_copy_to_dev(inits, zero.as_ptr() as *const c_void, 8, 16),
            code::INVALID_VALUE
        );
        assert_eq!(vx_mem_alloc(null_mut(), 4, 0, &mut k), code::INVALID_HANDLE);
        assert_eq!(vx_check_occupancy(d, 16, 0), code::SUCCESS);
        assert_eq!(vx_check_occupancy(d, 17, 0), code::INVALID_VALUE);

        let (mut free0, mut used0) = (0, 0);
        vx_mem_info(d, &mut free0, &mut used0);
        assert!(used0 >= 256 * 3 + 16 + 16);
        assert_eq!(vx_mem_free(out), code::SUCCESS);
        let (mut free1, mut used1) = (0, 0);
        vx_mem_info(d, &mut free1, &mut used1);
        assert_eq!((free1 - free0, used0 - used1), (256, 256));
        assert_eq!(vx_dev_close(d), code::SUCCESS);
    }
}

#[test]
fn vx_ready_wait_gives_up_after_its_time_limit() {
    unsafe {
        let mut d = null_mut();
        assert_eq!(vx_dev_open(&mut d), code::SUCCESS);
        let (vxbin, img) = image();
        let mut k = null_mut();
        vx_upload_kernel_bytes(
            d,
            vxbin.as_ptr() as *const c_void,
            vxbin.len() as u64,
            &mut k,
        );
        // The start-up code counts itself in the fourth argument's word.
        let scratch = alloc(d, 16);
        let argv: Vec<u8> = [addr(scratch); 4]
            .iter()
            .flat_map(|a| a.to_le_bytes())
            .collect();
        let mut args = null_mut();
        vx_upload_bytes(d, argv.as_ptr() as *const c_void, 16, &mut args);
        assert_eq!(vx_dcr_write(d, dcr::KERNEL_ENTRY0, sym(&img, "forever")), 0);
        assert_eq!(vx_start(d, k, args), code::SUCCESS);
        let t0 = std::time::Instant::now();
        assert_eq!(vx_ready_wait(d, 50), code::TIMEOUT);
        assert!(t0.elapsed() < std::time::Duration::from_secs(10));
        assert_eq!(vx_dev_close(d), code::SUCCESS);
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
    assert_eq!((c.cores, c.warps, c.lanes), (2, 8, 8));
    assert!(config_from_env(env(&[("WEFT_WARPS", "many")])).is_err());
    assert!(config_from_env(env(&[("WEFT_TIMING", "1")])).is_err());

    // vx_start's geometry on 2 cores of 8 × 8: one CTA of 8 threads per core.
    let mut d = VxDevice::new(c).unwrap();
    let (vxbin, img) = image();
    let (lo, span, body) = vortex::device::vxbin_parts(&vxbin).unwrap();
    let k = d.reserve(lo as u64, span as u64).unwrap();
    d.write(k, 0, body).unwrap();
    let bufs: Vec<_> = (0..4).map(|_| d.alloc(256).unwrap()).collect();
    for b in &bufs {
        d.write(*b, 0, &[0; 256]).unwrap();
    }
    let argv: Vec<u8> = bufs.iter().flat_map(|b| b.addr.to_le_bytes()).collect();
    let args = d.alloc(16).unwrap();
    d.write(args, 0, &argv).unwrap();
    d.dcr_write(dcr::KERNEL_ENTRY0, sym(&img, "ids")).unwrap();
    d.start(k.addr, args.addr).unwrap();
    d.finish(None).unwrap();
    let mut raw = [0u8; 64];
    d.read(bufs[0], 0, &mut raw).unwrap();
    let out: Vec<u32> = raw
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let want: Vec<u32> = (0..16).map(|g| (g % 8) | (g / 8) << 16).collect();
    assert_eq!(out, want, "block x in bits 16+, thread x below");
}
