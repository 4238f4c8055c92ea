//! `weft-rtl-wave PROGRAM OUT.svg [--shape WxLxD] [--reconv converge|table] [--vcd FILE]
//! [--warp N] [--from CYCLE] [--cycles N]`: run PROGRAM on the RTL core under Verilator, in
//! converge mode unless told (the picture in docs/rtl.md is), with signal tracing (a
//! testbench built with `--trace`), keep the VCD (default `target/rtl/wave.vcd`), and draw
//! the signals that show a branch diverging in hardware as an SVG timing diagram: the clock,
//! the controller state, the warp being issued, its pc, thread mask and divergence-stack
//! depth, and the lanes whose branch condition holds. docs/rtl.md shows the picture made by
//! `weft-rtl-wave examples/divergence/if_else.s docs/img/if_else_wave.svg`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use weft_rtl_lockstep::{build_with, load, parse_reconv, repo_root, rtl_vcd, ReconvMode, Shape};

/// How the controller states are drawn (two letters at most: a cycle is narrow); a state
/// not listed is drawn with its name's first two letters.
const ABBREV: &[(&str, &str)] = &[
    ("PICK", "PK"),
    ("CHECK", "CK"),
    ("CHKD", "CD"),
    ("TRAPPED", "TV"),
    ("FETCH", "F"),
    ("DECODE", "D"),
    ("OPND", "OP"),
    ("EXEC", "EX"),
    ("JUMP", "J"),
    ("MEM", "M"),
    ("DIV", "DV"),
    ("FPU", "FP"),
    ("SHFL", "SH"),
    ("WB", "WB"),
    ("SPAWN", "SP"),
    ("SCHED", "SC"),
    ("LOST", "LL"),
    ("RETQ", "RQ"),
    ("TRD", "TR"),
    ("TRR", "TQ"),
    ("TRW", "TW"),
    ("RETIRE", "RT"),
    ("HALT", "H"),
    ("FAULT", "FL"),
];

/// The controller states in the order of `state_t` in `src` (rtl/weft_core.sv, read so
/// the picture follows the RTL), each as (drawn, name).
fn rtl_states(src: &str) -> Result<Vec<(String, String)>, String> {
    let body = src
        .split_once("typedef enum")
        .and_then(|(_, r)| r.split_once('{'))
        .and_then(|(_, r)| r.split_once('}'))
        .map(|(b, _)| b)
        .ok_or("rtl/weft_core.sv: no `typedef enum { ... } state_t`")?;
    let states: Vec<(String, String)> = body
        .split(',')
        .map(|t| t.trim().trim_start_matches("S_").to_string())
        .filter(|t| !t.is_empty())
        .map(|name| {
            let drawn = ABBREV
                .iter()
                .find(|(n, _)| *n == name)
                .map_or_else(|| name.chars().take(2).collect(), |(_, a)| a.to_string());
            (drawn, name)
        })
        .collect();
    if states.is_empty() {
        return Err("rtl/weft_core.sv: state_t lists no states".into());
    }
    Ok(states)
}

struct Args {
    prog: PathBuf,
    out: PathBuf,
    shape: Shape,
    mode: ReconvMode,
    vcd: PathBuf,
    from: u64,
    cycles: Option<u64>,
}

fn args() -> Result<Args, String> {
    let mut a = std::env::args().skip(1);
    let mut pos = Vec::new();
    let mut shape = Shape::DEFAULT;
    let mut mode = ReconvMode::Converge;
    let mut vcd = repo_root().join("target/rtl/wave.vcd");
    let (mut from, mut cycles) = (0, None);
    let num = |v: Option<String>, what: &str| -> Result<u64, String> {
        v.and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("{what} wants a number"))
    };
    while let Some(x) = a.next() {
        match x.as_str() {
            "--shape" => shape = Shape::parse(a.next().as_deref())?,
            "--reconv" => mode = parse_reconv(a.next().as_deref())?,
            "--vcd" => vcd = PathBuf::from(a.next().ok_or("--vcd wants a file")?),
            "--from" => from = num(a.next(), "--from")?,
            "--cycles" => cycles = Some(num(a.next(), "--cycles")?),
            _ => pos.push(PathBuf::from(x)),
        }
    }
    if pos.len() != 2 {
        return Err(
            "usage: weft-rtl-wave PROGRAM OUT.svg [--shape WxLxD] [--reconv converge|table] \
                    [--vcd FILE] [--from CYCLE] [--cycles N]"
                .into(),
        );
    }
    Ok(Args {
        out: pos.pop().unwrap_or_default(),
        prog: pos.pop().unwrap_or_default(),
        shape,
        mode,
        vcd,
        from,
        cycles,
    })
}

/// One signal's value at every clock cycle (sampled on the low phase, after the rising
/// edge's updates), as an unsigned number; `None` where it has X or Z bits.
type Samples = Vec<Option<u64>>;

/// Read the VCD: the listed signals of scope TOP.weft_core, one sample per cycle.
fn read_vcd(path: &Path, names: &[&str]) -> Result<BTreeMap<String, Samples>, String> {
    let f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut p = vcd::Parser::new(std::io::BufReader::new(f));
    let h = p
        .parse_header()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut codes = BTreeMap::new();
    for n in names {
        let v = h
            .find_var(&["TOP", "weft_core", n])
            .ok_or_else(|| format!("{}: no signal weft_core.{n}", path.display()))?;
        codes.insert(v.code, n.to_string());
    }
    let mut cur: BTreeMap<String, Option<u64>> =
        names.iter().map(|n| (n.to_string(), None)).collect();
    let mut out: BTreeMap<String, Samples> =
        names.iter().map(|n| (n.to_string(), vec![])).collect();
    let sample = |cur: &BTreeMap<String, Option<u64>>, out: &mut BTreeMap<String, Samples>| {
        for (n, v) in cur {
            if let Some(s) = out.get_mut(n) {
                s.push(*v);
            }
        }
    };
    let mut time: Option<u64> = None;
    for cmd in p {
        let cmd = cmd.map_err(|e| format!("{}: {e}", path.display()))?;
        match cmd {
            vcd::Command::Timestamp(t) => {
                // Times 10k (clock low) close the previous cycle's values: sample them.
                if let Some(prev) = time {
                    if prev.is_multiple_of(10) {
                        sample(&cur, &mut out);
                    }
                }
                time = Some(t);
            }
            vcd::Command::ChangeScalar(c, v) => {
                if let Some(n) = codes.get(&c) {
                    cur.insert(n.clone(), bit(v).map(u64::from));
                }
            }
            vcd::Command::ChangeVector(c, v) => {
                if let Some(n) = codes.get(&c) {
                    let mut x = Some(0u64);
                    for b in v.iter() {
                        x = x.and_then(|x| bit(b).map(|b| x << 1 | u64::from(b)));
                    }
                    cur.insert(n.clone(), x);
                }
            }
            _ => {}
        }
    }
    if time.is_some_and(|t| t.is_multiple_of(10)) {
        sample(&cur, &mut out);
    }
    Ok(out)
}

fn bit(v: vcd::Value) -> Option<u8> {
    match v {
        vcd::Value::V0 => Some(0),
        vcd::Value::V1 => Some(1),
        _ => None,
    }
}

/// The SVG timing diagram of `rows` over `n` cycles.
fn svg(
    rows: &[(String, Vec<String>)],
    states: &[(String, String)],
    n: usize,
    first: u64,
) -> String {
    const CW: f64 = 24.0; // px per cycle
    const RH: f64 = 26.0; // px per row
    const LW: f64 = 120.0; // label column
    let w = LW + CW * n as f64 + 10.0;
    let h = RH * (rows.len() as f64 + 2.0) + 10.0;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         font-family=\"monospace\" font-size=\"10\">\n<rect width=\"100%\" height=\"100%\" \
         fill=\"white\"/>\n"
    );
    // Cycle numbers every 5 cycles, with faint grid lines.
    for c in 0..n {
        let x = LW + CW * c as f64;
        if (first + c as u64).is_multiple_of(5) {
            s += &format!(
                "<line x1=\"{x}\" y1=\"14\" x2=\"{x}\" y2=\"{}\" stroke=\"#ddd\"/>\
                 <text x=\"{}\" y=\"11\" fill=\"#888\">{}</text>\n",
                h - 5.0,
                x + 2.0,
                first + c as u64
            );
        }
    }
    for (i, (name, vals)) in rows.iter().enumerate() {
        let y = RH * (i as f64 + 1.0);
        s += &format!(
            "<text x=\"4\" y=\"{}\" font-weight=\"bold\">{name}</text>\n",
            y + RH / 2.0 + 3.0
        );
        if name == "clk" {
            let mut d = String::new();
            for c in 0..n {
                let x = LW + CW * c as f64;
                d += &format!(
                    "{}{x},{} L{},{} L{},{} L{},{} ",
                    if c == 0 { "M" } else { "L" },
                    y + RH - 6.0,
                    x + CW / 2.0,
                    y + RH - 6.0,
                    x + CW / 2.0,
                    y + 6.0,
                    x + CW,
                    y + 6.0
                );
            }
            s += &format!("<path d=\"{d}\" fill=\"none\" stroke=\"#246\"/>\n");
            continue;
        }
        // Runs of equal values as bus segments with the value written in them.
        let mut c = 0;
        while c < n {
            let mut e = c + 1;
            while e < n && vals[e] == vals[c] {
                e += 1;
            }
            let (x0, x1) = (LW + CW * c as f64, LW + CW * e as f64);
            let fill = if name == "state" {
                state_colour(&vals[c])
            } else {
                "#eef3fb"
            };
            s += &format!(
                "<polygon points=\"{},{m} {},{t} {},{t} {},{m} {},{b} {},{b}\" fill=\"{fill}\" \
                 stroke=\"#246\"/>\n",
                x0,
                x0 + 3.0,
                x1 - 3.0,
                x1,
                x1 - 3.0,
                x0 + 3.0,
                m = y + RH / 2.0,
                t = y + 4.0,
                b = y + RH - 4.0
            );
            // The value, if it fits (about 6 px per character).
            let room = ((x1 - x0 - 6.0) / 6.0) as usize;
            let v = &vals[c];
            let text = if v.len() <= room {
                v.clone()
            } else if room >= 2 {
                format!("{}…", &v[..room.saturating_sub(1).min(v.len())])
            } else {
                String::new()
            };
            s += &format!(
                "<text x=\"{}\" y=\"{}\">{text}</text>\n",
                x0 + 4.0,
                y + RH / 2.0 + 3.5
            );
            c = e;
        }
    }
    let legend: Vec<String> = states.iter().map(|(a, b)| format!("{a} {b}")).collect();
    s += &format!(
        "<text x=\"4\" y=\"{}\" fill=\"#444\">state: {}</text>\n",
        RH * (rows.len() as f64 + 1.0) + 16.0,
        legend.join(", ")
    );
    s += "</svg>\n";
    s
}

fn state_colour(s: &str) -> &'static str {
    match s {
        "F" => "#fde8c8",
        "EX" => "#d7f0d2",
        "WB" => "#cfe3f7",
        "SC" => "#f7d0d0",
        "RT" => "#e6dcf5",
        _ => "#f2f2f2",
    }
}

fn run() -> Result<(), String> {
    let a = args()?;
    let core = repo_root().join("rtl/weft_core.sv");
    let states = rtl_states(
        &std::fs::read_to_string(&core).map_err(|e| format!("{}: {e}", core.display()))?,
    )?;
    let bin = build_with(a.shape, false, true).map_err(|e| e.to_string())?;
    let prog = load(&a.prog).map_err(|e| e.to_string())?;
    if let Some(d) = a.vcd.parent() {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let trace = rtl_vcd(&bin, &prog, a.mode, 100_000, &a.vcd).map_err(|e| e.to_string())?;
    let names = [
        "clk", "st", "cw", "pc", "amask", "taken", "is_br", "cur_len",
    ];
    let sig = read_vcd(&a.vcd, &names)?;
    let total = sig["st"].len() as u64;
    let from = a.from.min(total);
    let n = a.cycles.unwrap_or(total - from).min(total - from) as usize;
    let lanes = a.shape.lanes;
    let at = |name: &str, c: usize| sig[name].get(from as usize + c).copied().flatten();
    let text = |name: &str, f: &dyn Fn(u64) -> String| -> Vec<String> {
        (0..n)
            .map(|c| at(name, c).map(f).unwrap_or_else(|| "x".into()))
            .collect()
    };
    let bits = move |v: u64| format!("{:0w$b}", v, w = lanes);
    let st = text("st", &|v| {
        states
            .get(v as usize)
            .map_or("?", |s| s.0.as_str())
            .to_string()
    });
    // The lanes whose branch condition holds (evaluated in EXEC, registered for WB), in WB
    // and RETIRE of a branch only.
    let taken: Vec<String> = (0..n)
        .map(|c| match (st[c].as_str(), at("is_br", c), at("taken", c)) {
            ("WB" | "RT", Some(1), Some(v)) => bits(v),
            _ => String::new(),
        })
        .collect();
    let rows = vec![
        ("clk".to_string(), vec![String::new(); n]),
        ("state".into(), st.clone()),
        ("warp".into(), text("cw", &|v| v.to_string())),
        ("pc".into(), text("pc", &|v| format!("{v:08x}"))),
        ("mask (lane 0 right)".into(), text("amask", &bits)),
        ("stack depth".into(), text("cur_len", &|v| v.to_string())),
        ("taken lanes".into(), taken),
    ];
    std::fs::write(&a.out, svg(&rows, &states, n, from))
        .map_err(|e| format!("{}: {e}", a.out.display()))?;
    println!(
        "{}: {n} cycles from cycle {from} ({} in the run; VCD {}); the run's trace:",
        a.out.display(),
        total,
        a.vcd.display()
    );
    print!("{trace}");
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("weft-rtl-wave: {e}");
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A VCD in the testbench's shape (clock low at multiples of 10, high at +5): `st` and
    /// `pc` change on rising edges; each cycle's sample is the value during its low phase.
    const VCD: &str = "$timescale 1ps $end
$scope module TOP $end
$scope module weft_core $end
$var wire 1 ! clk $end
$var wire 4 \" st [3:0] $end
$var wire 32 # pc [31:0] $end
$var wire 8 $ amask [7:0] $end
$upscope $end
$upscope $end
$enddefinitions $end
#0
0!
b0000 \"
b10000000000000000000000000000000 #
bx $
#5
1!
b0001 \"
#10
0!
#15
1!
b0011 \"
b00000011 $
#20
0!
#25
1!
b10000000000000000000000000000100 #
#30
0!
";

    #[test]
    fn vcd_is_sampled_once_per_cycle_in_the_low_phase() {
        let dir = repo_root().join("target/rtl");
        std::fs::create_dir_all(&dir).expect("target/rtl");
        let f = dir.join(format!("wave-test-{}.vcd", std::process::id()));
        std::fs::write(&f, VCD).expect("write VCD");
        let s = read_vcd(&f, &["st", "pc", "amask"]);
        let _ = std::fs::remove_file(&f);
        let s = s.expect("reads");
        assert_eq!(s["st"], vec![Some(0), Some(1), Some(3), Some(3)]);
        assert_eq!(
            s["pc"],
            vec![
                Some(0x8000_0000),
                Some(0x8000_0000),
                Some(0x8000_0000),
                Some(0x8000_0004)
            ]
        );
        assert_eq!(s["amask"], vec![None, None, Some(3), Some(3)]);
        let missing = read_vcd(Path::new("/nonexistent.vcd"), &["st"]);
        assert!(missing.is_err());
    }

    #[test]
    fn every_rtl_state_has_its_letters() {
        let src = std::fs::read_to_string(repo_root().join("rtl/weft_core.sv")).expect("rtl");
        let states = rtl_states(&src).expect("state_t");
        assert_eq!(states[0].1, "PICK", "state 0 is the reset state");
        for (_, name) in &states {
            assert!(
                ABBREV.iter().any(|(n, _)| n == name),
                "state S_{name} of rtl/weft_core.sv has no entry in ABBREV"
            );
        }
    }

    #[test]
    fn svg_draws_each_run_of_equal_values_once() {
        let rows = vec![
            ("clk".to_string(), vec![String::new(); 3]),
            (
                "pc".to_string(),
                vec!["80000000".into(), "80000000".into(), "80000004".into()],
            ),
        ];
        let states = rtl_states("typedef enum logic [1:0] {\n S_PICK, S_OPND,\n S_NEW } state_t;")
            .expect("parses");
        assert_eq!(states[1], ("OP".to_string(), "OPND".to_string()));
        assert_eq!(states[2], ("NE".to_string(), "NEW".to_string()));
        assert!(rtl_states("module m; endmodule").is_err());
        let s = svg(&rows, &states, 3, 10);
        assert!(s.starts_with("<svg"));
        assert_eq!(s.matches("<polygon").count(), 2, "two runs of pc");
        assert!(s.contains(">10</text>"), "cycle 10 is labelled");
        assert!(s.contains("state: PK PICK"), "legend");
    }
}
