//! `weft run --rtl`: a program on weft's SystemVerilog core under Verilator gives the same
//! console and exit status as `weft run` on the functional model — a C kernel of the kernel
//! library built by weft cc (floats, divergence, atomics, barriers, printf), at 4 × 8 and at
//! 2 × 4, and a fault — with the same instruction counts in --stats-json (the whole run's and
//! the launch's) and the RTL's own clock cycles; an instruction the RTL does not build exits 2 with its pc; options that are
//! not for the RTL are refused; Verilator missing is an error saying what to install.
//! (Verilator missing here is a failure, never a skip: CI installs it.)

use std::process::{Command, Output};

fn weft(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(args)
        .output()
        .expect("weft runs")
}

fn root() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../..").to_string()
}

const MIX: &str = r#"
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <weft.h>
#define N 512
static float in[N], out[N];
static uint32_t count[4];
struct args { float *in, *out; uint32_t *count; };
static void mix(void *p) {
    struct args *g = p;
    uint32_t t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    float *s = weft_shared_alloc(blockDim.x * sizeof(float));
    float x = g->in[i], y;
    if (i % 3 == 0) y = x * 1.5f + 0.25f;
    else if (i % 3 == 1) y = 1.0f / (x + 3.0f);
    else { y = x; for (uint32_t k = 0; k < (i & 7); k++) y = y * 0.5f - 0.125f; }
    s[t] = y;
    __syncthreads();
    float z = s[(t + 1) % blockDim.x] + y;
    g->out[i] = z;
    weft_atomic_add(&g->count[(uint32_t)(int32_t)(z * 4.0f) & 3], 1);
    if (t == 0 && blockIdx.x == 0) printf("hello from block 0, z %d\n", (int)(z * 1000.0f));
}
int main(void) {
    for (int i = 0; i < N; i++) in[i] = (float)(i * 37 % 101) / 13.0f - 3.0f;
    uint32_t block = weft_num_warps() * weft_num_lanes();
    if (block > 64) block = 64;
    struct args g = {in, out, count};
    weft_launch(weft_dim3(N / block, 1, 1), weft_dim3(block, 1, 1), mix, &g);
    uint32_t h = 2166136261u;
    for (int i = 0; i < N; i++) { uint32_t b; memcpy(&b, &out[i], 4); h = (h ^ b) * 16777619u; }
    printf("out %08x counts %u %u %u %u\nmix: done\n", h, count[0], count[1], count[2], count[3]);
    return (int)(h & 0x7f);
}
"#;

fn json(p: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

#[test]
fn a_c_kernel_on_the_rtl_prints_and_ends_as_on_the_model() {
    let dir = std::env::temp_dir().join(format!("weft-rtl-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // floats (fmadd, fdiv, a loop of fmul), divergence (three paths, a lane-dependent loop),
    // atomics, a barrier around shared memory, printf from a kernel
    let src = dir.join("mix.c");
    std::fs::write(&src, MIX).unwrap();
    let src = src.to_string_lossy().into_owned();
    for shape in [
        ["--warps", "4", "--lanes", "8"],
        ["--warps", "2", "--lanes", "4"],
    ] {
        let (mj, rj) = (dir.join("model.json"), dir.join("rtl.json"));
        let mut args = vec!["run", "--stats-json", mj.to_str().unwrap()];
        args.extend(shape);
        args.push(&src);
        let model = weft(&args);
        args[2] = rj.to_str().unwrap();
        args.insert(1, "--rtl");
        let rtl = weft(&args);
        let out = String::from_utf8_lossy(&rtl.stdout);
        assert!(
            out.contains("mix: done") && out.contains("hello from block 0"),
            "{shape:?}: {out}\n{}",
            String::from_utf8_lossy(&rtl.stderr)
        );
        assert_eq!(rtl.stdout, model.stdout, "{shape:?}");
        assert_eq!(rtl.status.code(), model.status.code(), "{shape:?}");
        let (m, r) = (json(&mj), json(&rj));
        assert_eq!(r["model"], "rtl");
        for k in [
            "warp_instructions",
            "thread_instructions",
            "loads",
            "stores",
            "atomics",
        ] {
            assert_eq!(r[k], m[k], "{shape:?} {k}");
        }
        assert_eq!(
            r["issue_slots"], m["cycles"],
            "{shape:?}: the model's cycles"
        );
        assert!(r["cycles"].as_u64() > m["cycles"].as_u64(), "{shape:?}");
        // the timing model configured as the RTL core counts the same clock cycles
        let tj = dir.join("timed.json");
        let config = format!("{}/configs/weft-rtl.toml", root());
        let mut timed = vec!["run", "--timing", "--config", &config, "--stats-json"];
        timed.push(tj.to_str().unwrap());
        timed.extend(shape);
        timed.push(&src);
        let t = weft(&timed);
        assert_eq!(t.stdout, model.stdout, "{shape:?}");
        assert_eq!(
            json(&tj)["cycles"],
            r["cycles"],
            "{shape:?}: the RTL core's clock"
        );
        // the launch's own counters, kept by the testbench at the launch CSR's writes
        let (rl, ml) = (
            r["launches"].as_array().unwrap(),
            m["launches"].as_array().unwrap(),
        );
        assert_eq!(ml.len(), 1, "{shape:?}: one launch");
        assert_eq!(rl.len(), ml.len(), "{shape:?}: {rl:?}");
        let (a, b) = (&rl[0], &ml[0]);
        assert_eq!(a["kernel"], "mix", "{shape:?}");
        for k in [
            "kernel_pc",
            "complete",
            "warp_instructions",
            "thread_instructions",
            "simd_efficiency",
            "divergences",
            "reconvergences",
            "barrier_waits",
            "loads",
            "stores",
            "atomics",
            "classes",
        ] {
            assert_eq!(a[k], b[k], "{shape:?} launch {k}");
        }
        let (start, end) = (
            a["start_cycle"].as_u64().unwrap(),
            a["end_cycle"].as_u64().unwrap(),
        );
        assert!(start > 0 && end > start, "{shape:?} {a}");
        assert!(end <= r["cycles"].as_u64().unwrap(), "{shape:?} {a}");
        assert_eq!(a["cycles"].as_u64(), Some(end - start), "{shape:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);

    // a fault: the same status and report
    let p = format!("{}/tests/kernels/diverge_empty.s", root());
    let (rtl, model) = (weft(&["run", "--rtl", &p]), weft(&["run", &p]));
    assert_eq!(rtl.status.code(), Some(128 + 9));
    assert_eq!(rtl.status.code(), model.status.code());
    assert!(String::from_utf8_lossy(&rtl.stderr).contains("DIVERGE_EMPTY"));
}

#[test]
fn what_the_rtl_does_not_build_or_run_is_said() {
    let p = format!("{}/crates/rtl-lockstep/tests/programs/unbuilt.s", root());
    let u = weft(&["run", "--rtl", &p]);
    assert_eq!(u.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&u.stderr).contains("does not build"),
        "{}",
        String::from_utf8_lossy(&u.stderr)
    );
    let t = weft(&["run", "--rtl", "--timing", &p]);
    assert_ne!(t.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&t.stderr).contains("--timing"));
    let c = weft(&["run", "--rtl", "--cores", "2", &p]);
    assert!(String::from_utf8_lossy(&c.stderr).contains("one core"));
    // no verilator on PATH: an error naming it
    let v = Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(["run", "--rtl", "--warps", "3", &p])
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    assert_ne!(v.status.code(), Some(0));
    let err = String::from_utf8_lossy(&v.stderr);
    assert!(err.contains("verilator is not installed"), "{err}");
}

/// `weft run --timing --config configs/weft-rtl.toml` counts the RTL's clock cycles: the same
/// count `weft run --rtl` reads from the RTL under Verilator, for programs that end by an
/// exit, by halting, in a deadlock, in a fault (one of the HARD watchdog, before issue) and
/// at the cycle bound, at 4 × 8 and 2 × 4 (and the C kernel above).
#[test]
fn the_rtl_core_timing_counts_the_rtls_clock_cycles() {
    let dir = std::env::temp_dir().join(format!("weft-rtl-clock-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = format!("{}/configs/weft-rtl.toml", root());
    let (mj, rj) = (dir.join("model.json"), dir.join("rtl.json"));
    for (program, shape) in [
        ("examples/matmul.s", ["--warps", "2", "--lanes", "4"]),
        ("tests/kernels/spawn.s", ["--warps", "4", "--lanes", "8"]),
        (
            "examples/divergence/if_else.s",
            ["--warps", "4", "--lanes", "8"],
        ),
        (
            "crates/rtl-lockstep/tests/programs/shared.s",
            ["--warps", "2", "--lanes", "4"],
        ),
        (
            "tests/bad_input/deadlock.s",
            ["--warps", "4", "--lanes", "8"],
        ),
        ("tests/bad_input/fault.s", ["--warps", "2", "--lanes", "4"]),
        (
            "crates/rtl-lockstep/tests/programs/watchdog.s",
            ["--warps", "4", "--lanes", "8"],
        ),
        (
            "tests/bad_input/forever.s",
            ["--warps", "4", "--lanes", "8"],
        ),
    ] {
        let p = format!("{}/{program}", root());
        let mut args = vec!["run", "--max-cycles", "20000", "--stats-json"];
        args.push(mj.to_str().unwrap());
        args.extend(shape);
        args.push(&p);
        if program.ends_with("matmul.s") {
            args[2] = "2000000";
        }
        let mut timed = args.clone();
        timed.splice(1..1, ["--timing", "--config", &config]);
        let model = weft(&timed);
        args[4] = rj.to_str().unwrap();
        args.insert(1, "--rtl");
        let rtl = weft(&args);
        let what = format!(
            "{program} {shape:?}: {}{}",
            String::from_utf8_lossy(&model.stderr),
            String::from_utf8_lossy(&rtl.stderr)
        );
        assert_eq!(model.status.code(), rtl.status.code(), "{what}");
        let (m, r) = (json(&mj), json(&rj));
        assert_eq!(m["end"], r["end"], "{what}");
        assert_eq!(m["timing"]["model"], "rtl-core", "{what}");
        assert!(r["cycles"].as_u64().unwrap() > 0, "{what}");
        assert_eq!(m["cycles"], r["cycles"], "{what}");
        assert_eq!(m["timing"]["cycles"], r["cycles"], "{what}");
        assert_eq!(
            m["timing"]["warp_instructions"], r["warp_instructions"],
            "{what}"
        );
    }
    // the RTL has one core
    let p = format!("{}/examples/matmul.s", root());
    let c = weft(&["run", "--timing", "--config", &config, "--cores", "2", &p]);
    assert_eq!(c.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&c.stderr).contains("one core"));
    let _ = std::fs::remove_dir_all(&dir);
}
