//! CUDA's warp-level functions in weft.h (weft_warp.h): on converged, diverged and partial
//! warps they give what CUDA's definitions give — computed here, from PTX's `shfl.sync` and
//! the vote and reduction rules, for the machine's warpSize — at -O0 and -O2, 8 and 32 lanes,
//! on the device (under the reconvergence table and with `converge`) and in the host build; a
//! `_sync` mask that does not match the calling lanes
//! faults with SYNC_MASK (code 18) at the vote that checks it, on both.

mod common;
use common::*;
use std::path::Path;
use std::process::Command;
use weft_cc::{Options, Reconv, Target};
use weft_simt::{Config, Machine, RunEnd};

/// A value moved by a shuffle: a 64-bit pattern (ints, floats and doubles alike).
type Val = u64;

/// PTX `shfl.sync` for lane `l` of a warp whose calling lanes are `group`: mode 0 idx, 1 up,
/// 2 down, 3 bfly; `b` the lane / delta / lane mask, `width` CUDA's width. A source lane
/// outside the segment, or not calling, gives the lane's own value; a width that is not a
/// power of two means the whole warp.
fn shfl(mode: u32, vals: &[Val], group: u32, l: u32, b: u32, width: u32) -> Val {
    let seg = if width.is_power_of_two() {
        (32 - width as i32) & 31
    } else {
        0
    };
    let c = if mode == 1 { 0 } else { 31 };
    let (lane, bv) = (l as i32, (b & 31) as i32);
    let min = lane & seg;
    let max = min | (c & !seg);
    let (j, ok) = match mode {
        0 => (min | (bv & !seg), (min | (bv & !seg)) <= max),
        1 => (lane - bv, lane - bv >= max),
        2 => (lane + bv, lane + bv <= max),
        _ => (lane ^ bv, (lane ^ bv) <= max),
    };
    if ok && (0..32).contains(&j) && group >> j & 1 == 1 {
        vals[j as usize]
    } else {
        vals[l as usize]
    }
}

fn lanes_of(m: u32) -> impl Iterator<Item = usize> {
    (0..32).filter(move |j| m >> j & 1 == 1)
}

fn ballot(pred: &[bool], group: u32) -> u32 {
    lanes_of(group)
        .filter(|&j| pred[j])
        .fold(0, |a, j| a | 1 << j)
}

/// `%g` of the simple values the kernel prints (a few significant digits, no exponent).
fn g(x: f64) -> String {
    let s = format!("{x}");
    assert!(s.len() < 8 && !s.contains('e'), "{s}");
    s
}

fn full(w: u32) -> u32 {
    if w >= 32 {
        u32::MAX
    } else {
        (1 << w) - 1
    }
}

/// What warp_intrinsics.c prints at `w` lanes, from CUDA's definitions.
fn expected(w: u32) -> String {
    let n = 2 * w;
    let v = |t: u32| ((t * 7 + 3) % 23) as i32 - 5;
    let u = |t: u32| t.wrapping_mul(2654435761) >> 7;
    let p = |t: u32| (t * 5 + 1).is_multiple_of(3);
    let mut out = format!("warpSize {w}\n");
    for warp in 0..2 {
        let t0 = warp * w;
        let ts: Vec<u32> = (t0..t0 + w).collect();
        let vi: Vec<Val> = ts.iter().map(|&t| v(t) as i64 as u64).collect();
        let vu: Vec<Val> = ts.iter().map(|&t| u(t) as u64).collect();
        let vf: Vec<Val> = ts
            .iter()
            .map(|&t| (v(t) as f32 * 0.5).to_bits() as u64)
            .collect();
        let vl: Vec<Val> = ts
            .iter()
            .map(|&t| ((v(t) as i64) << 33 | t as i64) as u64)
            .collect();
        let vd: Vec<Val> = ts.iter().map(|&t| (v(t) as f64 * 0.25).to_bits()).collect();
        let pr: Vec<bool> = ts.iter().map(|&t| p(t)).collect();
        let fw = full(w);
        let half = w / 2;
        for l in 0..w {
            let t = t0 + l;
            let si = |mode, b, width| shfl(mode, &vi, fw, l, b, width) as i32;
            out += &format!(
                "t{t} am {fw:x} shfl {} {} {} up {} {} down {} {} xor {} {} {} {:x} {:x} {:x} {:x}\n",
                si(0, 3, w),
                si(0, l + 1, w),
                si(0, 2, 4),
                si(1, 1, w),
                si(1, 3, 4),
                si(2, 2, w),
                si(2, 1, 4),
                si(3, 1, w),
                si(3, 5, w),
                si(3, 4, 4),
                shfl(3, &vu, fw, l, 2, w) as u32,
                shfl(3, &vf, fw, l, 2, w) as u32,
                shfl(2, &vl, fw, l, 1, w),
                shfl(0, &vd, fw, l, 0, w),
            );
            let bal = ballot(&pr, fw);
            let us = || ts.iter().map(|&t| u(t));
            let vs = || ts.iter().map(|&t| v(t));
            out += &format!(
                "t{t} vote {bal:x} 1 {} {} 0 {} 1 reduce {:x} {} {} {:x} {:x} {:x} {:x} {:x}\n",
                (bal == fw) as u32,
                (bal != 0) as u32,
                (bal == 0 || bal == fw) as u32,
                us().fold(0u32, |a, x| a.wrapping_add(x)),
                vs().min().unwrap(),
                vs().max().unwrap(),
                us().min().unwrap(),
                us().max().unwrap(),
                us().fold(u32::MAX, |a, x| a & (x | 0x8000_0001)),
                us().fold(0, |a, x| a | x),
                us().fold(0, |a, x| a ^ x),
            );
            let tile = (0xfu32 << (l & !3)) & fw;
            let in_tile = || lanes_of(tile).map(|j| t0 + j as u32);
            let (dm, dr, db, ds) = if l < half {
                let dm = full(half);
                let dr = lanes_of(dm).fold(0u32, |a, j| a.wrapping_add(u(t0 + j as u32)));
                (dm, dr, ballot(&pr, dm), v(t0))
            } else {
                let dm = fw & !full(half);
                let dr = lanes_of(dm).map(|j| u(t0 + j as u32)).max().unwrap();
                (dm, dr, 0, 0)
            };
            out += &format!(
                "t{t} tile {tile:x} {:x} {:x} {} diverged {dm:x} {dr:x} {db:x} {ds}\n",
                ballot(&pr, tile),
                in_tile().fold(0u32, |a, t| a.wrapping_add(u(t))),
                in_tile().map(v).min().unwrap(),
            );
        }
    }
    let all = || (0..n).map(u);
    let bits = (0..n).fold(0u32, |a, t| a | 1 << (t % 32));
    out += &format!(
        "atomics {n} {n} {} {} {} {:x} {bits:x} {:x} {} {} {} 1 {}\n",
        n * (n - 1) / 2,
        (0..n).map(v).min().unwrap(),
        (0..n).map(v).max().unwrap(),
        !bits,
        all().fold(0, |a, x| a ^ x),
        g(0.5 * n as f64),
        n % 5,
        (5 + 8 * n - n) % 8,
        n - 1 + 1000,
    );
    let h = w.div_ceil(2);
    for t in 0..w + h {
        let (t0, cnt) = if t < w { (0, w) } else { (w, h) };
        let m = full(cnt);
        let l = t - t0;
        let ids: Vec<Val> = (0..w).map(|j| (t0 + j) as u64).collect();
        let r: u32 = (t0..t0 + cnt).map(|x| x + 1).sum();
        let b = (t0..t0 + cnt).fold(0, |a, x| a | (x & 1) << (x - t0));
        out += &format!(
            "p{t} {m:x} {r} {b:x} {}\n",
            shfl(2, &ids, m, l, 1, w) as i32
        );
    }
    out
}

/// Build `src` for the host with `defines`; its stdout, stderr and exit status.
fn host_run(src: &Path, defines: &[String], dir: &Path) -> (String, String, i32) {
    let exe = dir.join(format!("host{}", defines.join("_").replace('=', "")));
    let o = Options {
        inputs: vec![src.to_path_buf()],
        output: exe.clone(),
        target: Target::Host,
        defines: defines.to_vec(),
        ..Options::default()
    };
    weft_cc::build(&o).unwrap_or_else(|e| panic!("weft cc --host {}: {e}", src.display()));
    let out = Command::new(&exe).output().expect("run the host build");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// Build `src` for weft at `opt` with `defines`; the ELF.
fn device_build(src: &Path, opt: &str, defines: &[String], dir: &Path) -> Vec<u8> {
    let out = dir.join(format!(
        "dev{opt}{}.elf",
        defines.join("_").replace('=', "")
    ));
    let o = Options {
        inputs: vec![src.to_path_buf()],
        output: out.clone(),
        opt: opt.into(),
        defines: defines.to_vec(),
        ..Options::default()
    };
    weft_cc::build(&o).unwrap_or_else(|e| panic!("weft cc {}: {e}", src.display()));
    std::fs::read(out).unwrap()
}

#[test]
fn intrinsics_give_cudas_results_on_the_device_and_the_host() {
    let dir = tempfile::tempdir().unwrap();
    let src = test_kernel("warp_intrinsics.c");
    for opt in ["-O0", "-O2"] {
        let elf = device_build(&src, opt, &[], dir.path());
        // and a warpSize that is not a power of two
        let widths: &[u32] = if opt == "-O2" { &[8, 32, 5] } else { &[8, 32] };
        for &w in widths {
            let (got, code) = run(&elf, 1, 4, w as usize, mode_of(Reconv::Table));
            let want = expected(w);
            assert_eq!(code, 0, "{opt} {w} lanes:\n{got}");
            for (i, (a, b)) in got.lines().zip(want.lines()).enumerate() {
                assert_eq!(a, b, "{opt}, {w} lanes, line {}", i + 1);
            }
            assert_eq!(got, want, "{opt}, {w} lanes");
        }
    }
    // with `converge` instructions instead of the table (the votes and shuffles are `.insn`
    // lines in clang's assembly; their pcs must get labels like any instruction)
    let conv = dir.path().join("conv.elf");
    let o = Options {
        inputs: vec![src.clone()],
        output: conv.clone(),
        reconv: Reconv::Converge,
        ..Options::default()
    };
    weft_cc::build(&o).unwrap();
    let conv = std::fs::read(conv).unwrap();
    for w in [8u32, 32] {
        let got = run(&conv, 1, 4, w as usize, mode_of(Reconv::Converge));
        assert_eq!(got, (expected(w), 0), "converge, {w} lanes");
    }
    for w in [8u32, 32] {
        let (got, err, code) = host_run(&src, &[format!("WEFT_HOST_LANES={w}")], dir.path());
        assert_eq!((got, code), (expected(w), 0), "host, {w} lanes: {err}");
    }
}

/// The device run of a bad-mask kernel: its fault.
fn fault_of(elf: &[u8], lanes: usize) -> weft_simt::FaultInfo {
    let (prog, _) = weft_simt::load::program_from_elf(elf).expect("load");
    let cfg = Config {
        lanes,
        ..Config::default()
    };
    let mut m = Machine::new(cfg, &prog).expect("machine");
    match m.run() {
        RunEnd::Fault(f) => f,
        end => panic!(
            "no fault: {end:?}\n{}",
            String::from_utf8_lossy(m.console())
        ),
    }
}

#[test]
fn a_mask_that_names_inactive_lanes_faults() {
    let dir = tempfile::tempdir().unwrap();
    let src = test_kernel("warp_bad_mask.c");
    // (case, the lanes that reach the call at w lanes, the first lane the check rejects, why,
    // the lanes the host build finds at the call at 8 lanes: in case 2 lane 0, whose mask names
    // only itself, has done its call alone before lane 1 comes)
    type Case = (u32, fn(u32) -> u32, u32, &'static str, u32);
    let cases: [Case; 5] = [
        (1, |_| 0xf, 0, "names lanes 0xf0 that are not active", 0xf),
        (2, full, 1, "leaves out the lane itself", 0xfe),
        (
            3,
            |w| full(w) & 0xaaaa_aaaa,
            1,
            "names lanes 0x55 that are not active",
            0xaa,
        ),
        (
            4,
            |w| full(w) & !8,
            0,
            "names lanes 0x8 that are not active",
            0xf7,
        ),
        (
            5,
            |w| full(w) & !1,
            1,
            "names lanes 0x1 that are not active",
            0xfe,
        ),
    ];
    for (case, lanes, first, why, host_lanes) in cases {
        let def = [format!("CASE={case}")];
        for opt in ["-O0", "-O2"] {
            let elf = device_build(&src, opt, &def, dir.path());
            for w in [8u32, 32] {
                let f = fault_of(&elf, w as usize);
                let at = format!("case {case} {opt} {w} lanes: {f}");
                assert_eq!((f.code.code(), f.code.name()), (18, "SYNC_MASK"), "{at}");
                assert_eq!((f.core, f.warp, f.lanes), (0, 0, lanes(w)), "{at}");
                let why = match w {
                    32 => why
                        .replace("0xf0", "0xfffffff0")
                        .replace("0x55", "0x55555555"),
                    _ => why.to_string(),
                };
                assert!(
                    f.detail.contains(&format!("lane {first}'s member mask"))
                        && f.detail.contains(&why),
                    "{at}"
                );
                // the pc is a vote instruction (custom-0, funct7 1, funct3 0-3)
                let (prog, _) = weft_simt::load::program_from_elf(&elf).unwrap();
                let word = prog
                    .segments
                    .iter()
                    .find_map(|s| {
                        let off = f.pc.checked_sub(s.addr)? as usize;
                        Some(u32::from_le_bytes(
                            s.data.get(off..off + 4)?.try_into().ok()?,
                        ))
                    })
                    .expect("the pc is in the program");
                assert_eq!(
                    (word & 0x7f, word >> 25, word >> 12 & 7 < 4),
                    (0x0b, 1, true),
                    "{at}: {word:#010x}"
                );
            }
        }
        let (out, err, code) = host_run(
            &src,
            &[def[0].clone(), "WEFT_HOST_LANES=8".into()],
            dir.path(),
        );
        assert_eq!(code, 128 + 18, "host case {case}: {out}{err}");
        assert!(
            err.contains(&format!(
                "fault SYNC_MASK (code 18) at block 0 warp 0 lanes {host_lanes:#x}"
            )) && err.contains(&format!("lane {first}'s member mask"))
                && err.contains(why),
            "host case {case}: {err}"
        );
    }
}
