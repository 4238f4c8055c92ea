//! The trace files of a real multi-warp run, read back by independent readers: the Chrome
//! trace-event JSON parsed with serde_json and checked against the format's rules (fields per
//! phase, a track named per warp, slices nesting on each track), the VCD parsed with the `vcd`
//! crate and replayed to the machine's final state. Expected masks come from the kernel's
//! meaning (odd lanes fall through first), not from a previous run.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use weft_simt::load::program_from_elf;
use weft_simt::{Config, Machine, RunEnd};
use weft_view::{attach, TraceOptions, Window};

/// Four warps, eight lanes: each warp splits odd and even lanes on an if/else, then all four
/// meet at barrier 0 (so three of them wait there) and halt.
const KERNEL: &str = "
    .text
    .globl _start
_start:
    la t0, worker
    csrw spawn_pc, t0
    li t0, 0xe
    csrw warp_active, t0
    li t1, -1
    csrw tmask, t1
worker:
    csrr s0, thread_id
    andi t1, s0, 1
split:
    beqz t1, even
    li a0, 1
    j join
even:
    li a0, 2
    nop
join:
    li t0, (4 << 16) | 0
    csrw barrier, t0
    csrw tmask, zero
";

fn machine(src: &str, warps: usize) -> Machine {
    let elf = weft_asm::assemble(src, "t.s").unwrap_or_else(|e| panic!("{e}"));
    let (prog, _) = program_from_elf(&elf).unwrap();
    let cfg = Config {
        lanes: 8,
        warps,
        max_cycles: 100_000_000,
        ..Config::default()
    };
    Machine::new(cfg, &prog).unwrap()
}

/// Run `src` with both traces over `window`; the end, the machine, the JSON and the VCD text.
fn traced(src: &str, warps: usize, window: Window) -> (RunEnd, Machine, Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let (json, vcd) = (dir.path().join("t.json"), dir.path().join("t.vcd"));
    let mut m = machine(src, warps);
    let o = TraceOptions {
        json: Some(json.clone()),
        vcd: Some(vcd.clone()),
        window,
    };
    let t = attach(&mut m, &o).unwrap();
    let end = m.run();
    t.close(&m).unwrap();
    let text = std::fs::read_to_string(&json).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    (end, m, v, std::fs::read_to_string(&vcd).unwrap())
}

fn num(e: &Value, k: &str) -> u64 {
    e[k].as_u64()
        .unwrap_or_else(|| panic!("{k} is not a number: {e}"))
}

/// The trace-event format's rules for the phases weft writes (the Trace Event Format
/// document): every event has a name, a phase, a pid and a tid; X has ts and dur, i has ts
/// and a scope, C has ts and numeric args, M names a process or thread.
fn check_format(v: &Value) -> Vec<Value> {
    let events = v["traceEvents"]
        .as_array()
        .expect("traceEvents array")
        .clone();
    for e in &events {
        assert!(e["name"].is_string(), "name: {e}");
        assert!(e["pid"].is_u64() && e["tid"].is_u64(), "pid/tid: {e}");
        match e["ph"].as_str().expect("ph") {
            "X" => {
                num(e, "ts");
                num(e, "dur");
            }
            "i" => {
                num(e, "ts");
                assert!(
                    matches!(e["s"].as_str(), Some("g" | "p" | "t")),
                    "scope: {e}"
                );
            }
            "C" => {
                num(e, "ts");
                let args = e["args"].as_object().expect("counter args");
                assert!(
                    !args.is_empty() && args.values().all(Value::is_number),
                    "{e}"
                );
            }
            "M" => {
                let n = e["name"].as_str().unwrap();
                assert!(n.ends_with("_name") || n.ends_with("_sort_index"), "{e}");
            }
            p => panic!("phase {p} is not one weft writes: {e}"),
        }
    }
    events
}

/// Slices on one track must nest: any two are disjoint or one contains the other.
fn check_nesting(events: &[Value]) {
    let mut tracks: BTreeMap<(u64, u64), Vec<(u64, u64)>> = BTreeMap::new();
    for e in events.iter().filter(|e| e["ph"] == "X") {
        let (ts, dur) = (num(e, "ts"), num(e, "dur"));
        tracks
            .entry((num(e, "pid"), num(e, "tid")))
            .or_default()
            .push((ts, ts + dur));
    }
    for (track, s) in tracks {
        for a in &s {
            for b in &s {
                let disjoint = a.1 <= b.0 || b.1 <= a.0;
                let nested = (a.0 <= b.0 && b.1 <= a.1) || (b.0 <= a.0 && a.1 <= b.1);
                assert!(
                    disjoint || nested,
                    "track {track:?}: {a:?} and {b:?} overlap"
                );
            }
        }
    }
}

fn slices<'a>(events: &'a [Value], tid: u64, prefix: &str) -> Vec<&'a Value> {
    let mut v: Vec<&Value> = events
        .iter()
        .filter(|e| e["ph"] == "X" && e["tid"] == tid)
        .filter(|e| e["name"].as_str().unwrap().starts_with(prefix))
        .collect();
    v.sort_by_key(|e| num(e, "ts"));
    v
}

/// Validate against the JSON schema of the trace-event format kept beside this test.
fn check_schema(v: &Value) {
    let schema: Value =
        serde_json::from_str(include_str!("trace_event.schema.json")).expect("schema JSON");
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    let errors: Vec<String> = validator.iter_errors(v).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "schema errors: {errors:?}");
}

#[test]
fn the_schema_rejects_what_the_format_forbids() {
    // The schema check can fail: events missing what their phase requires are refused.
    let schema: Value = serde_json::from_str(include_str!("trace_event.schema.json")).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let bad = [
        r#"{"traceEvents":[{"name":"a","ph":"X","pid":0,"tid":0,"ts":1}]}"#,
        r#"{"traceEvents":[{"name":"a","ph":"i","pid":0,"tid":0,"ts":1}]}"#,
        r#"{"traceEvents":[{"name":"a","ph":"C","pid":0,"tid":0,"ts":1,"args":{"x":"y"}}]}"#,
        r#"{"traceEvents":[{"name":"a","ph":"X","pid":0,"ts":1,"dur":1}]}"#,
        r#"{"traceEvents":[{"name":"a","ph":"Q","pid":0,"tid":0,"ts":1}]}"#,
    ];
    for b in bad {
        let v: Value = serde_json::from_str(b).unwrap();
        assert!(!validator.is_valid(&v), "accepted {b}");
    }
}

#[test]
fn the_json_has_a_named_track_per_warp_with_regions_groups_and_barriers() {
    let (end, _m, v, _) = traced(KERNEL, 4, Window::default());
    assert_eq!(end, RunEnd::AllHalted);
    check_schema(&v);
    let events = check_format(&v);
    check_nesting(&events);
    let names: BTreeSet<(u64, String)> = events
        .iter()
        .filter(|e| e["ph"] == "M" && e["name"] == "thread_name")
        .map(|e| {
            (
                num(e, "tid"),
                e["args"]["name"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want: BTreeSet<(u64, String)> = (0..4).map(|w| (w, format!("warp {w}"))).collect();
    assert_eq!(names, want, "one named track per warp");
    let mut barrier_ends = BTreeSet::new();
    let mut waited = 0;
    for w in 0..4 {
        assert_eq!(slices(&events, w, "warp ").len(), 1, "warp {w} runs once");
        let region = slices(&events, w, "diverged at split");
        assert_eq!(region.len(), 1, "warp {w}: one if/else region");
        assert_eq!(region[0]["args"]["saved_mask"], "0x000000ff");
        // A forward branch: the fall-through (odd) lanes run first, then the even ones.
        let groups: Vec<&str> = slices(&events, w, "lanes ")
            .iter()
            .map(|e| e["name"].as_str().unwrap())
            .collect();
        assert_eq!(groups, ["lanes 0xaa", "lanes 0x55"], "warp {w}");
        let b = slices(&events, w, "barrier 0");
        if let Some(b) = b.first() {
            waited += 1;
            barrier_ends.insert(num(b, "ts") + num(b, "dur"));
        }
    }
    assert_eq!(waited, 3, "the last of four to arrive does not wait");
    assert_eq!(barrier_ends.len(), 1, "one release ends every wait");
}

#[test]
fn the_window_keeps_only_its_cycles_and_cuts_slices_at_its_edges() {
    let (_, _, all, _) = traced(KERNEL, 4, Window::default());
    let run_end = slices(all["traceEvents"].as_array().unwrap(), 0, "warp ")[0]["dur"]
        .as_u64()
        .unwrap();
    let w = Window { from: 10, to: 20 };
    assert!(run_end > 20, "the run is longer than the window");
    let (_, _, v, vcd) = traced(KERNEL, 4, w);
    check_schema(&v);
    let events = check_format(&v);
    check_nesting(&events);
    for e in events.iter().filter(|e| e["ph"] != "M") {
        let ts = num(e, "ts");
        let end = ts + e["dur"].as_u64().unwrap_or(0);
        assert!(ts >= 10 && end <= 20, "outside the window: {e}");
    }
    let run = slices(&events, 0, "warp ");
    assert_eq!(
        (num(run[0], "ts"), num(run[0], "dur")),
        (10, 10),
        "cut at both edges"
    );
    let times: Vec<u64> = vcd
        .lines()
        .filter_map(|l| l.strip_prefix('#'))
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(times.first(), Some(&10));
    assert!(times.iter().all(|t| (10..=20).contains(t)), "{times:?}");
}

#[test]
fn a_fault_is_an_instant_event_on_its_warp() {
    let src = "
    .text
    .globl _start
_start:
    li t1, -1
    csrw tmask, t1
    csrr s0, thread_id
    andi t1, s0, 1
    beqz t1, 1f
    lw a0, 0(zero)
1:  csrw tmask, zero
";
    let (end, _, v, _) = traced(src, 2, Window::default());
    assert!(matches!(end, RunEnd::Fault(_)));
    let events = check_format(&v);
    let f: Vec<&Value> = events.iter().filter(|e| e["ph"] == "i").collect();
    assert_eq!(f.len(), 1);
    assert_eq!(f[0]["name"], "fault LOAD_FAULT");
    assert_eq!(f[0]["args"]["lanes"], "0x000000aa", "the odd lanes load");
    assert_eq!(f[0]["tid"], 0);
}

/// Replay a VCD with the `vcd` crate: the last value of every signal, by scope path.
fn replay(text: &str) -> (BTreeMap<String, u64>, Vec<u64>) {
    let mut p = vcd::Parser::new(text.as_bytes());
    let header = p.parse_header().expect("VCD header");
    let mut names = BTreeMap::new();
    let mut width = BTreeMap::new();
    let weft = header.find_scope(&["weft"]).expect("scope weft");
    for core in &weft.items {
        let vcd::ScopeItem::Scope(core) = core else {
            continue;
        };
        for warp in &core.items {
            let vcd::ScopeItem::Scope(warp) = warp else {
                continue;
            };
            for var in &warp.items {
                if let vcd::ScopeItem::Var(var) = var {
                    let path = format!("{}.{}.{}", core.identifier, warp.identifier, var.reference);
                    names.insert(var.code, path);
                    width.insert(var.code, var.size);
                }
            }
        }
    }
    let mut last = BTreeMap::new();
    let mut times = Vec::new();
    for cmd in p {
        match cmd.expect("VCD command") {
            vcd::Command::Timestamp(t) => times.push(t),
            vcd::Command::ChangeVector(code, bits) => {
                assert_eq!(bits.len() as u32, width[&code], "width of {}", names[&code]);
                let v = bits
                    .iter()
                    .fold(0u64, |a, b| a << 1 | (b == vcd::Value::V1) as u64);
                last.insert(names[&code].clone(), v);
            }
            _ => {}
        }
    }
    (last, times)
}

#[test]
fn the_vcd_parses_and_replays_to_the_machines_final_state() {
    let (_, m, _, text) = traced(KERNEL, 4, Window::default());
    let (last, times) = replay(&text);
    assert!(
        times.windows(2).all(|t| t[0] < t[1]),
        "time only goes forward"
    );
    assert_eq!(last.len(), 16, "four signals for each of four warps");
    for (w, warp) in m.cores[0].warps.iter().enumerate() {
        let get = |s: &str| last[&format!("core0.warp{w}.{s}")];
        assert_eq!(get("pc"), warp.pc as u64, "warp {w} pc");
        assert_eq!(get("mask"), warp.mask as u64, "warp {w} mask");
        assert_eq!(get("depth"), 0, "warp {w} reconverged");
        assert_eq!(get("state"), 0, "warp {w} halted (idle)");
    }
}

#[test]
fn the_vcd_shows_each_group_of_the_if_else_in_turn() {
    let (_, _, _, text) = traced(KERNEL, 1, Window::default());
    let mut p = vcd::Parser::new(text.as_bytes());
    let header = p.parse_header().unwrap();
    let mask = match header.find_var(&["weft", "core0", "warp0", "mask"]) {
        Some(v) => v.code,
        None => panic!("no mask signal"),
    };
    let depth = header
        .find_var(&["weft", "core0", "warp0", "depth"])
        .unwrap()
        .code;
    let mut masks = Vec::new();
    let mut depths = Vec::new();
    for cmd in p {
        if let vcd::Command::ChangeVector(code, bits) = cmd.unwrap() {
            let v = bits
                .iter()
                .fold(0u32, |a, b| a << 1 | (b == vcd::Value::V1) as u32);
            if code == mask {
                masks.push(v);
            } else if code == depth {
                depths.push(v);
            }
        }
    }
    // Reset: lane 0; all lanes; odd; even; all again; halted keeps the mask.
    assert_eq!(masks, [1, 0xff, 0xaa, 0x55, 0xff]);
    assert_eq!(depths, [0, 1, 0]);
}

#[test]
fn an_unwritable_trace_file_is_an_error_naming_it() {
    let mut m = machine(KERNEL, 4);
    let o = TraceOptions {
        json: Some(Path::new("/nonexistent-dir/t.json").to_path_buf()),
        ..TraceOptions::default()
    };
    let e = attach(&mut m, &o).err().expect("an error");
    assert!(e.starts_with("/nonexistent-dir/t.json: "), "{e}");
    let o = TraceOptions {
        vcd: Some(std::env::temp_dir().join("x.vcd")),
        window: Window { from: 5, to: 5 },
        ..TraceOptions::default()
    };
    assert!(attach(&mut m, &o).is_err(), "an empty window");
}
