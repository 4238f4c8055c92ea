//! `weft-rtl-lockstep PROGRAM... [--shape WxLxD] [--reconv table|converge] [--planted-bug]
//! [--print] [--cycles]`: run each program on the RTL core (Verilator) and the functional
//! model and compare them warp-instruction by warp-instruction; exit status 1 at the first
//! difference, with both sides shown. Each program's clock cycles are also compared with the
//! timing model's RTL core (`configs/weft-rtl.toml`) and the first instruction where they part
//! is printed; `--cycles` makes such a difference an error too (exit status 1). `--reconv`
//! picks the reconvergence mode of both (table, the model's default, unless told). `--print`
//! prints the RTL's trace instead of comparing.

use std::path::Path;
use weft_rtl_lockstep::{build, load, lockstep, parse_reconv, rtl_trace, ReconvMode, Shape};

fn main() {
    let mut shape = Shape::DEFAULT;
    let mut bug = false;
    let mut print = false;
    let mut strict_cycles = false;
    let mut mode = ReconvMode::Table;
    let mut progs = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--planted-bug" => bug = true,
            "--print" => print = true,
            "--cycles" => strict_cycles = true,
            "--reconv" => {
                mode = parse_reconv(args.next().as_deref()).unwrap_or_else(|e| {
                    eprintln!("weft-rtl-lockstep: {e}");
                    std::process::exit(2);
                })
            }
            "--shape" => {
                shape = Shape::parse(args.next().as_deref()).unwrap_or_else(|e| {
                    eprintln!("weft-rtl-lockstep: {e}");
                    std::process::exit(2);
                })
            }
            _ => progs.push(a),
        }
    }
    let mut bad = 0;
    for p in &progs {
        if print {
            let t = build(shape, bug).and_then(|bin| {
                load(Path::new(p)).and_then(|prog| rtl_trace(&bin, &prog, mode, 10_000_000))
            });
            match t {
                Ok(t) => print!("{t}"),
                Err(e) => {
                    println!("{e}");
                    bad += 1;
                }
            }
            continue;
        }
        match lockstep(Path::new(p), shape, mode, bug) {
            Ok(a) => {
                println!("{p}: {} warp-instructions agree, end `{}`", a.steps, a.end);
                match a.cycles {
                    Ok(c) => println!("{p}: the timing model's cycles agree ({} cycles)", c + 1),
                    Err(e) => {
                        println!("{p}: {e}");
                        if strict_cycles {
                            bad += 1;
                        }
                    }
                }
            }
            Err(e) => {
                println!("{e}");
                bad += 1;
            }
        }
    }
    std::process::exit(if bad > 0 { 1 } else { 0 });
}
