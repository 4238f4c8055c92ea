//! Several programs on one device, and recorded launches: kernels of two programs launched
//! in turn on the same buffers (results checked against the host), each program's globals
//! kept across swaps, a larger program refused while buffers lie where it needs room; a
//! recorded launch's trace and page, and the same cycles as the launch unrecorded.

use std::path::PathBuf;
use weft_runtime::{Args, Device, DeviceConfig, Dim3, LaunchOptions, ModuleId, RuntimeError};

fn kernel(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/kernels")
        .join(name)
}

fn config(timing: bool) -> DeviceConfig {
    DeviceConfig {
        cores: 2,
        warps: 2,
        lanes: 4,
        timing,
        ..DeviceConfig::default()
    }
}

fn collatz_step(v: u32) -> u32 {
    if v & 1 == 1 {
        v.wrapping_mul(3).wrapping_add(13)
    } else {
        v / 2 + 11
    }
}

#[test]
fn kernels_of_two_programs_work_on_the_same_buffers() {
    for timing in [false, true] {
        let mut d = Device::from_c(config(timing), &[kernel("kernels.c").as_path()]).unwrap();
        let second = d.load_c(&[kernel("second.c").as_path()]).unwrap();
        assert_eq!((d.modules(), second.index()), (2, 1));
        let n = 300u32;
        let a: Vec<u32> = (0..n).map(|i| i.wrapping_mul(2654435761)).collect();
        let b: Vec<u32> = (0..n).map(|i| i * 7 + 1).collect();
        let (ba, bb, bc) = (
            d.alloc_from(&a).unwrap(),
            d.alloc_from(&b).unwrap(),
            d.alloc(4 * n).unwrap(),
        );
        let add = Args::new().buffer(&ba).buffer(&bb).buffer(&bc).push(n);
        let step = Args::new().buffer(&bc).push(n);
        let in_second = LaunchOptions {
            module: second,
            ..LaunchOptions::default()
        };
        let grid = Dim3::x(n.div_ceil(32));
        // add, step (second program), step, add again: the queue swaps programs three times.
        d.launch("vecadd_u32", grid, Dim3::x(32), &add).unwrap();
        d.launch_with("collatz", grid, Dim3::x(32), &step, &in_second)
            .unwrap();
        d.launch_with("collatz", grid, Dim3::x(32), &step, &in_second)
            .unwrap();
        d.wait(None).unwrap();
        let mut want: Vec<u32> = a.iter().zip(&b).map(|(x, y)| x.wrapping_add(*y)).collect();
        for v in &mut want {
            *v = collatz_step(collatz_step(*v));
        }
        assert_eq!(d.read::<u32>(&bc).unwrap(), want, "timing {timing}");
        d.launch("vecadd_u32", grid, Dim3::x(32), &add).unwrap();
        d.wait(None).unwrap();
        let sum: Vec<u32> = a.iter().zip(&b).map(|(x, y)| x.wrapping_add(*y)).collect();
        assert_eq!(d.read::<u32>(&bc).unwrap(), sum, "timing {timing}");
        // Each launch's counters name its kernel, whichever program is resident now.
        let names: Vec<String> = d
            .launch_stats()
            .iter()
            .map(|l| l["kernel"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(names, ["vecadd_u32", "collatz", "collatz", "vecadd_u32"]);
        // A kernel name is looked up in the launch's own program.
        assert!(matches!(
            d.launch_with("vecadd_u32", grid, Dim3::x(32), &add, &in_second),
            Err(RuntimeError::NoSuchKernel(_))
        ));
        assert!(matches!(
            d.launch("collatz", grid, Dim3::x(32), &step),
            Err(RuntimeError::NoSuchKernel(_))
        ));
    }
}

#[test]
fn each_program_keeps_its_globals_across_swaps() {
    let mut d = Device::from_c(config(false), &[kernel("kernels.c").as_path()]).unwrap();
    let second = d.load_c(&[kernel("second.c").as_path()]).unwrap();
    let out = d.alloc_from(&[0u32]).unwrap();
    let log = d.alloc_from(&[0u32; 8]).unwrap();
    let mut counts = Vec::new();
    for k in 0..3u32 {
        let o = LaunchOptions {
            module: second,
            ..LaunchOptions::default()
        };
        d.launch_with(
            "count",
            Dim3::x(1),
            Dim3::x(4),
            &Args::new().buffer(&out),
            &o,
        )
        .unwrap();
        d.wait(None).unwrap();
        counts.push(d.read::<u32>(&out).unwrap()[0]);
        // the first program between them
        let args = Args::new().buffer(&log).push(40 + k);
        d.launch("record", Dim3::x(1), Dim3::x(4), &args).unwrap();
        d.wait(None).unwrap();
    }
    assert_eq!(counts, [100, 101, 102]);
    assert_eq!(d.read::<u32>(&log).unwrap()[..4], [3, 40, 41, 42]);
}

#[test]
fn a_larger_program_needs_its_room_before_buffers_take_it() {
    let mut d = Device::from_c(config(false), &[kernel("kernels.c").as_path()]).unwrap();
    let buf = d.alloc_from(&[1u32, 2, 3]).unwrap();
    let elf = {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("second.elf");
        let o = weft_cc::Options {
            inputs: vec![kernel("second.c")],
            output: out.clone(),
            ..weft_cc::Options::default()
        };
        weft_cc::build(&o).unwrap();
        std::fs::read(&out).unwrap()
    };
    match d.load(&elf) {
        Err(RuntimeError::Load(m)) => {
            assert!(m.contains("buffers lie in the way"), "{m}");
        }
        other => panic!("expected a Load error: {other:?}"),
    }
    assert_eq!(d.modules(), 1);
    d.free(buf).unwrap();
    let second = d.load(&elf).unwrap();
    // Buffers now begin above the larger program's memory.
    let b = d.alloc_from(&[5u32, 6, 7, 8]).unwrap();
    assert!(b.addr > buf.addr, "{:#x} vs {:#x}", b.addr, buf.addr);
    let o = LaunchOptions {
        module: second,
        ..LaunchOptions::default()
    };
    d.launch_with(
        "collatz",
        Dim3::x(1),
        Dim3::x(4),
        &Args::new().buffer(&b).push(4u32),
        &o,
    )
    .unwrap();
    d.wait(None).unwrap();
    let want: Vec<u32> = [5u32, 6, 7, 8].iter().map(|&v| collatz_step(v)).collect();
    assert_eq!(d.read::<u32>(&b).unwrap(), want);
    // A smaller program fits whatever the buffers.
    d.load_c(&[kernel("kernels.c").as_path()]).unwrap();
    assert!(matches!(
        d.launch_with(
            "x",
            Dim3::x(1),
            Dim3::x(1),
            &Args::new(),
            &LaunchOptions {
                module: ModuleId::MAIN,
                ..LaunchOptions::default()
            }
        ),
        Err(RuntimeError::NoSuchKernel(_))
    ));
}

#[test]
fn a_recorded_launch_has_its_trace_and_page_and_the_same_cycles() {
    let run = |record: Option<usize>| {
        let mut d = Device::from_c(config(true), &[kernel("kernels.c").as_path()]).unwrap();
        let second = d.load_c(&[kernel("second.c").as_path()]).unwrap();
        let x = d.alloc_from(&[1u32, 2, 3, 4, 5]).unwrap();
        let o = LaunchOptions {
            module: second,
            record,
            ..LaunchOptions::default()
        };
        let id = d
            .launch_with(
                "collatz",
                Dim3::x(1),
                Dim3::x(8),
                &Args::new().buffer(&x).push(5u32),
                &o,
            )
            .unwrap();
        d.wait(None).unwrap();
        let r = d.take_recording(id);
        (d.stats(), r, d.read::<u32>(&x).unwrap())
    };
    let (plain, none, xs) = run(None);
    assert!(none.is_none(), "an unrecorded launch has no recording");
    let (stats, rec, ys) = run(Some(100_000));
    assert_eq!(xs, ys);
    assert_eq!(
        stats["cycles"], plain["cycles"],
        "recording changes no cycle"
    );
    let rec = rec.unwrap();
    // One trace step per warp-instruction (the device ran this launch alone), as the
    // counters count them.
    assert_eq!(rec.dropped, 0);
    assert_eq!(
        rec.trace.len() as u64,
        stats["warp_instructions"].as_u64().unwrap()
    );
    assert_eq!(rec.trace[0].symbol.as_deref(), Some("_start"));
    assert!(rec.trace.iter().any(|s| s
        .symbol
        .as_deref()
        .is_some_and(|n| n.starts_with("collatz"))));
    let s = &rec.trace[0];
    assert_eq!(
        s.line,
        format!(
            "{:>10} c{} w{} {:08x} {:08x} <_start>  {}\n",
            s.cycle, s.core, s.warp, s.mask, s.pc, s.inst
        )
    );
    assert!(rec.page.starts_with("<!DOCTYPE html>"));
    assert!(rec.page.contains("\"program\":\"collatz\""));
    // A bound cuts the recording, not the launch.
    let (_, cut, zs) = run(Some(10));
    let cut = cut.unwrap();
    assert_eq!(zs, xs);
    assert_eq!(cut.trace.len(), 10);
    assert!(cut.dropped > 0);
    assert!(cut.page.contains("\"truncated\":true"));
}
