//! The host runtime from a host program's side: kernels launched by name over grids larger
//! than the machine, results checked against references computed here; memory kept across
//! launches; faults, hangs and bad accesses as typed errors, with the device usable after.

use std::path::PathBuf;
use weft_runtime::{Args, Device, DeviceConfig, Dim3, RuntimeError};

fn device(cores: usize, warps: usize, lanes: usize) -> Device {
    device_on(cores, warps, lanes, false)
}

/// A device on the functional (`timing` false) or the timing backend.
fn device_on(cores: usize, warps: usize, lanes: usize, timing: bool) -> Device {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/kernels/kernels.c");
    let cfg = DeviceConfig {
        cores,
        warps,
        lanes,
        timing,
        ..DeviceConfig::default()
    };
    Device::from_c(cfg, &[src.as_path()]).expect("the kernels build and load")
}

#[test]
fn vecadd_over_a_grid_larger_than_the_machine() {
    for (cores, warps, lanes, timing) in [
        (1, 4, 8, false),
        (2, 2, 4, false),
        (1, 1, 32, false),
        (2, 2, 4, true),
    ] {
        let mut d = device_on(cores, warps, lanes, timing);
        let n = 5000u32;
        let a: Vec<u32> = (0..n).map(|i| i.wrapping_mul(2654435761)).collect();
        let b: Vec<u32> = (0..n).map(|i| i ^ 0xdead_beef).collect();
        let ba = d.alloc_from(&a).unwrap();
        let bb = d.alloc_from(&b).unwrap();
        let bc = d.alloc(4 * n).unwrap();
        let args = Args::new().buffer(&ba).buffer(&bb).buffer(&bc).push(n);
        d.launch("vecadd_u32", Dim3::x(n.div_ceil(64)), Dim3::x(64), &args)
            .unwrap();
        d.wait(None).unwrap();
        let c: Vec<u32> = d.read(&bc).unwrap();
        let want: Vec<u32> = a.iter().zip(&b).map(|(x, y)| x.wrapping_add(*y)).collect();
        assert_eq!(c, want, "{cores}x{warps}x{lanes}, timing {timing}");
    }
}

#[test]
fn launches_keep_device_memory() {
    let mut d = device(1, 4, 8);
    let n = 1000u32;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.25 - 100.0).collect();
    let mut y: Vec<f32> = (0..n).map(|i| (i % 17) as f32).collect();
    let bx = d.alloc_from(&x).unwrap();
    let by = d.alloc_from(&y).unwrap();
    for alpha in [2.0f32, -0.5, 3.0] {
        let args = Args::new().push(alpha).buffer(&bx).buffer(&by).push(n);
        d.launch("saxpy", Dim3::x(n.div_ceil(32)), Dim3::x(32), &args)
            .unwrap();
        d.wait(None).unwrap();
        for i in 0..n as usize {
            y[i] += alpha * x[i];
        }
    }
    let got: Vec<f32> = d.read(&by).unwrap();
    for i in 0..n as usize {
        assert!(
            (got[i] - y[i]).abs() <= 1e-4 * y[i].abs().max(1.0),
            "{i}: {} vs {}",
            got[i],
            y[i]
        );
    }
    // a reduction with shared memory and barriers over the result's bit patterns
    let bits: Vec<u32> = (0..n).map(|i| i * 3 + 1).collect();
    let bin = d.alloc_from(&bits).unwrap();
    let bout = d.alloc_from(&[0u32]).unwrap();
    let args = Args::new().buffer(&bin).push(n).buffer(&bout);
    d.launch_shared(
        "block_sum",
        Dim3::x(n.div_ceil(32)),
        Dim3::x(32),
        128,
        &args,
    )
    .unwrap();
    d.wait(None).unwrap();
    assert_eq!(
        d.read::<u32>(&bout).unwrap(),
        vec![bits.iter().sum::<u32>()]
    );
    let stats = d.stats();
    assert!(stats["warp_instructions"].as_u64().unwrap() > 0, "{stats}");
}

#[test]
fn kernel_output_comes_back_in_thread_order() {
    let mut d = device(2, 2, 4);
    d.launch("hello", Dim3::x(3), Dim3::x(4), &Args::new())
        .unwrap();
    d.wait(None).unwrap();
    let want: String = (0..12)
        .map(|i| format!("hello from thread {i}\n"))
        .collect();
    assert_eq!(d.take_output(), want);
}

#[test]
fn faults_hangs_and_bad_accesses_are_typed_errors() {
    for timing in [false, true] {
        faults_hangs_and_bad_accesses_on(device_on(1, 4, 8, timing));
    }
}

fn faults_hangs_and_bad_accesses_on(mut d: Device) {
    let buf = d.alloc_from(&[0u32; 64]).unwrap();
    // a fault names the place
    d.launch("faulty", Dim3::x(1), Dim3::x(8), &Args::new().buffer(&buf))
        .unwrap();
    match d.wait(None) {
        Err(RuntimeError::KernelFault(f)) => {
            assert_eq!(f.code.name(), "STORE_FAULT", "{f}");
            assert_ne!(
                f.lanes & 1 << 5,
                0,
                "the warp's active lanes include lane 5: {f}"
            );
            assert_eq!(f.addr, Some(0), "{f}");
        }
        other => panic!("expected a fault: {other:?}"),
    }
    // a kernel that never ends
    let flag = d.alloc_from(&[0u32]).unwrap();
    d.launch(
        "forever",
        Dim3::x(1),
        Dim3::x(4),
        &Args::new().buffer(&flag),
    )
    .unwrap();
    match d.wait(Some(200_000)) {
        Err(RuntimeError::Timeout { cycles }) => assert!(cycles >= 200_000),
        other => panic!("expected a timeout: {other:?}"),
    }
    // … and with a host-time limit
    d.launch(
        "forever",
        Dim3::x(1),
        Dim3::x(4),
        &Args::new().buffer(&flag),
    )
    .unwrap();
    let t = std::time::Instant::now();
    match d.wait_for(None, Some(std::time::Duration::from_millis(300))) {
        Err(RuntimeError::Timeout { cycles }) => assert!(cycles > 0),
        other => panic!("expected a timeout: {other:?}"),
    }
    assert!(t.elapsed() < std::time::Duration::from_secs(20));
    // host accesses outside a buffer
    let mut big = [0u8; 8];
    assert!(matches!(
        d.read_bytes(&buf, 252, &mut big),
        Err(RuntimeError::BadAddress { .. })
    ));
    let gone = d.alloc(16).unwrap();
    d.free(gone).unwrap();
    assert!(matches!(
        d.read::<u32>(&gone),
        Err(RuntimeError::BadAddress { .. })
    ));
    assert!(matches!(d.free(gone), Err(RuntimeError::BadAddress { .. })));
    assert!(matches!(
        d.alloc(u32::MAX - 64),
        Err(RuntimeError::OutOfMemory { .. })
    ));
    assert!(matches!(
        d.launch("nope", Dim3::x(1), Dim3::x(1), &Args::new()),
        Err(RuntimeError::NoSuchKernel(_))
    ));
    // … and the device still works, memory intact
    let a = d.alloc_from(&[1u32, 2, 3]).unwrap();
    let b = d.alloc_from(&[10u32, 20, 30]).unwrap();
    let c = d.alloc(12).unwrap();
    let args = Args::new().buffer(&a).buffer(&b).buffer(&c).push(3u32);
    d.launch("vecadd_u32", Dim3::x(1), Dim3::x(32), &args)
        .unwrap();
    d.wait(None).unwrap();
    assert_eq!(d.read::<u32>(&c).unwrap(), vec![11, 22, 33]);
    assert_eq!(
        d.read::<u32>(&buf).unwrap()[0],
        1,
        "the faulting launch's stores stay"
    );
}

/// Launching while launches are queued: nothing runs at the launch (it returns at once even
/// behind a kernel that never ends), `wait` runs the queue in order within its limits, and
/// the first failure drops the launches behind it.
#[test]
fn launches_queue_behind_pending_ones_and_wait_runs_them_in_order() {
    let mut d = device(1, 4, 8);
    let log = d.alloc_from(&[0u32; 8]).unwrap();
    let flag = d.alloc_from(&[0u32]).unwrap();
    let record = |d: &mut Device, v: u32| {
        d.launch(
            "record",
            Dim3::x(1),
            Dim3::x(8),
            &Args::new().buffer(&log).push(v),
        )
        .unwrap()
    };
    // Behind a kernel that never ends: the launches return, nothing has run.
    let forever = Args::new().buffer(&flag);
    d.launch("forever", Dim3::x(1), Dim3::x(4), &forever)
        .unwrap();
    record(&mut d, 9);
    assert_eq!((d.queued(), d.cycles()), (2, 0));
    match d.wait(Some(100_000)) {
        Err(RuntimeError::Timeout { cycles }) => assert!(cycles >= 100_000),
        other => panic!("expected a timeout: {other:?}"),
    }
    assert_eq!(d.queued(), 0, "the launch behind the timeout is dropped");
    assert_eq!(d.read::<u32>(&log).unwrap()[0], 0);
    assert!(matches!(d.wait(None), Err(RuntimeError::NothingLaunched)));
    // In order, all within one wait.
    for v in [1, 2, 3] {
        record(&mut d, v);
    }
    d.wait(Some(50_000_000)).unwrap();
    assert_eq!(d.read::<u32>(&log).unwrap()[..4], [3, 1, 2, 3]);
    // A fault in the middle: the launch before it ran, the one behind it is dropped.
    record(&mut d, 4);
    let bad = d.alloc_from(&[0u32; 64]).unwrap();
    d.launch("faulty", Dim3::x(1), Dim3::x(8), &Args::new().buffer(&bad))
        .unwrap();
    record(&mut d, 5);
    assert!(matches!(d.wait(None), Err(RuntimeError::KernelFault(_))));
    assert_eq!(d.read::<u32>(&log).unwrap()[..5], [4, 1, 2, 3, 4]);
    assert_eq!(d.queued(), 0);
    // The device goes on.
    record(&mut d, 6);
    d.wait(None).unwrap();
    assert_eq!(d.read::<u32>(&log).unwrap()[..6], [5, 1, 2, 3, 4, 6]);
    // A queued launch's argument block is the runtime's: a stale buffer whose address it
    // reused can neither free it nor write into it, and the launch reads its own arguments.
    let stale = d.alloc(8).unwrap();
    d.free(stale).unwrap();
    record(&mut d, 7);
    assert!(matches!(
        d.free(stale),
        Err(RuntimeError::BadAddress { .. })
    ));
    assert!(matches!(
        d.write_bytes(&stale, 0, &[0xff; 8]),
        Err(RuntimeError::BadAddress { .. })
    ));
    d.wait(None).unwrap();
    assert_eq!(d.read::<u32>(&log).unwrap()[..7], [6, 1, 2, 3, 4, 6, 7]);
}

/// The same launches on the functional and the timing backend: identical results and
/// console, and the timing device reports its model's counters.
#[test]
fn the_timing_backend_gives_the_functional_results_with_cycle_counts() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/kernels/kernels.c");
    let mut outs = Vec::new();
    for timing in [false, true] {
        let cfg = DeviceConfig {
            timing,
            ..DeviceConfig::default()
        };
        let mut d = Device::from_c(cfg, &[src.as_path()]).expect("the kernels build and load");
        let n = 3000u32;
        let x: Vec<f32> = (0..n).map(|i| (i % 113) as f32 * 0.5).collect();
        let y: Vec<f32> = (0..n).map(|i| (i % 7) as f32).collect();
        let (bx, by) = (d.alloc_from(&x).unwrap(), d.alloc_from(&y).unwrap());
        for alpha in [2.0f32, -1.0] {
            let args = Args::new().push(alpha).buffer(&bx).buffer(&by).push(n);
            d.launch("saxpy", Dim3::x(n.div_ceil(64)), Dim3::x(64), &args)
                .unwrap();
            d.wait(None).unwrap();
        }
        let got: Vec<f32> = d.read(&by).unwrap();
        let want: Vec<f32> = (0..n as usize).map(|i| y[i] + 2.0 * x[i] - x[i]).collect();
        assert_eq!(got, want, "timing = {timing}");
        let stats = d.stats();
        if timing {
            let t = &stats["timing"];
            let issued = t["issued"].as_u64().unwrap();
            let stalls: u64 = t["stalls"]
                .as_object()
                .unwrap()
                .values()
                .map(|v| v.as_u64().unwrap())
                .sum();
            assert_eq!(issued, stats["warp_instructions"].as_u64().unwrap());
            assert_eq!(issued + stalls, t["cycles"].as_u64().unwrap());
            assert!(t["l1"]["accesses"].as_u64().unwrap() > 0);
            assert_eq!(stats["model"], "timing");
        } else {
            assert!(stats.get("timing").is_none());
        }
        outs.push((got, stats["warp_instructions"].clone(), d.cycles()));
    }
    assert_eq!(outs[0].0, outs[1].0);
    assert_eq!(outs[0].1, outs[1].1, "the same instructions ran");
    assert!(
        outs[1].2 > outs[0].2,
        "timing cycles exceed one per warp-instruction"
    );
}

#[test]
fn a_device_from_configuration_text_and_bad_text() {
    let cfg = DeviceConfig::from_toml("warps = 2\nlanes = 4\ntiming = true\n[l1]\nsize = 4096\n")
        .unwrap();
    assert_eq!((cfg.warps, cfg.lanes, cfg.timing), (2, 4, true));
    let e = DeviceConfig::from_toml("[l1]\nsize = 1000\n").unwrap_err();
    assert!(e.to_string().contains("l1.size"), "{e}");
    let e = DeviceConfig::from_toml("[l1]\nsizee = 1\n").unwrap_err();
    assert!(e.to_string().contains("sizee"), "{e}");
}

/// Each launch's own counters: one entry per launch, in order, named by its kernel, inside the
/// device's totals; on the timing backend with the timing model's share of the launch.
#[test]
fn each_launch_has_its_own_counters() {
    for timing in [false, true] {
        let mut d = device_on(1, 4, 8, timing);
        let n = 2000u32;
        let a: Vec<u32> = (0..n).collect();
        let ba = d.alloc_from(&a).unwrap();
        let bc = d.alloc(4 * n).unwrap();
        for m in [n / 2, n] {
            let args = Args::new().buffer(&ba).buffer(&ba).buffer(&bc).push(m);
            d.launch("vecadd_u32", Dim3::x(m.div_ceil(64)), Dim3::x(64), &args)
                .unwrap();
            d.wait(None).unwrap();
        }
        let ls = d.launch_stats();
        let total = d.stats();
        assert_eq!(ls.len(), 2, "timing {timing}: {ls:?}");
        for l in &ls {
            assert_eq!(l["kernel"], "vecadd_u32");
            assert_eq!(l["complete"], true);
            assert!(l["loads"].as_u64().unwrap() >= 2 * 1000, "{l:#}");
            if timing {
                assert_eq!(l["timing"]["cycles"], l["cycles"], "{l:#}");
            } else {
                assert!(l.get("timing").is_none());
            }
        }
        let ti = |l: &serde_json::Value| l["thread_instructions"].as_u64().unwrap();
        assert!(ti(&ls[1]) > ti(&ls[0]), "twice the elements, more work");
        assert!(ti(&ls[0]) + ti(&ls[1]) < ti(&total));
    }
}
