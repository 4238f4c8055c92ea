//! Jump tables in real compiler output: `tests/data/switches.c` built by clang 14 and
//! riscv64-unknown-elf-gcc 12 at every optimisation level, plus ELF fixtures committed from
//! those builds (so one test runs without the compilers).
//!
//! Two oracles, neither using the library's pattern matcher:
//! - **tables from relocations**: linked with `--emit-relocs`, an ELF keeps the linker's
//!   relocations. The `R_RISCV_32` relocations in `.rodata` (or, for gcc's `-mcmodel=medany`
//!   tables of offsets, the `R_RISCV_ADD32` half of each pair) name every jump-table word; the
//!   `R_RISCV_HI20`/`R_RISCV_PCREL_HI20` relocations in `.text` that point into `.rodata` name
//!   every table's start. Every table must be the table of a resolved `jalr`, with exactly
//!   the relocations' words in order, and every resolved `jalr` must read one of them;
//! - **post-dominators by the definition**: on an instruction-level graph built here (the
//!   library's per-instruction `flow` rule, plus edges to the relocation oracle's targets for
//!   each table jump, plus the library's infinite-loop edges), every table entry — branches
//!   and jumps — must be the immediate post-dominator computed by deleting nodes.

use object::{Object, ObjectSection, ObjectSegment, ObjectSymbol, RelocationTarget};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use weft_isa::Inst;
use weft_reconv::cfg::{flow, Cfg, Flow};
use weft_reconv::jumptable::{is_candidate, Memory};
use weft_reconv::{analyze_with_data, Analysis, CodeRegion, DataRegion, Reconv, Symbol};

const R_RISCV_32: u32 = 1;
const R_RISCV_PCREL_HI20: u32 = 23;
const R_RISCV_HI20: u32 = 26;
const R_RISCV_ADD32: u32 = 35;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// An ELF, parsed once: the analysis input and the relocation oracle.
struct Elf {
    name: String,
    code: Vec<(u32, Vec<u8>)>,
    data: Vec<(u32, Vec<u8>)>,
    funcs: Vec<Symbol>,
    /// Table start → the words the relocations name, in address order.
    tables: BTreeMap<u32, Vec<u32>>,
}

fn read_elf(name: &str, bytes: &[u8]) -> Elf {
    let file = object::File::parse(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut code = Vec::new();
    let mut data = Vec::new();
    for seg in file.segments() {
        let object::SegmentFlags::Elf { p_flags } = seg.flags() else {
            panic!("{name}: not ELF segment flags");
        };
        let bytes = seg.data().expect("segment data").to_vec();
        let addr = seg.address() as u32;
        if p_flags & object::elf::PF_X != 0 {
            code.push((addr, bytes.clone()));
        }
        data.push((addr, bytes));
    }
    let funcs = file
        .symbols()
        .filter(|s| s.kind() == object::SymbolKind::Text && s.size() > 0)
        .map(|s| Symbol::new(s.name().unwrap_or("?"), s.address() as u32, s.size() as u32))
        .collect();
    let target = |r: &object::Relocation| -> u32 {
        let RelocationTarget::Symbol(i) = r.target() else {
            panic!("{name}: {:?} relocation without a symbol", r.flags());
        };
        let sym = file.symbol_by_index(i).expect("relocation symbol");
        (sym.address() as i64 + r.addend()) as u32
    };
    let r_type = |r: &object::Relocation| match r.flags() {
        object::RelocationFlags::Elf { r_type } => r_type,
        _ => 0,
    };
    let rodata = file
        .section_by_name(".rodata")
        .unwrap_or_else(|| panic!("{name}: no .rodata"));
    let ro = rodata.address() as u32..(rodata.address() + rodata.size()) as u32;
    let mut words: BTreeMap<u32, u32> = BTreeMap::new();
    for (off, r) in rodata.relocations() {
        // Absolute words (R_RISCV_32), or gcc's medany offsets `case − table`
        // (R_RISCV_ADD32 of the case with an R_RISCV_SUB32 of the table).
        if matches!(r_type(&r), R_RISCV_32 | R_RISCV_ADD32) {
            words.insert(off as u32, target(&r));
        }
    }
    let mut starts: Vec<u32> = Vec::new();
    let text = file.section_by_name(".text").expect(".text");
    for (_, r) in text.relocations() {
        if !matches!(r_type(&r), R_RISCV_HI20 | R_RISCV_PCREL_HI20) {
            continue;
        }
        let t = target(&r);
        if ro.contains(&t) && words.contains_key(&t) {
            starts.push(t);
        }
    }
    starts.sort_unstable();
    starts.dedup();
    let mut tables = BTreeMap::new();
    for (k, &s) in starts.iter().enumerate() {
        let stop = starts.get(k + 1).copied().unwrap_or(u32::MAX);
        let mut at = s;
        let mut t = Vec::new();
        while at < stop {
            match words.get(&at) {
                Some(&w) => t.push(w),
                None => break,
            }
            at += 4;
        }
        tables.insert(s, t);
    }
    Elf {
        name: name.to_string(),
        code,
        data,
        funcs,
        tables,
    }
}

fn analyse(e: &Elf) -> Analysis {
    let code: Vec<CodeRegion> = e
        .code
        .iter()
        .map(|(base, bytes)| CodeRegion { base: *base, bytes })
        .collect();
    let data: Vec<DataRegion> = e
        .data
        .iter()
        .map(|(base, bytes)| DataRegion { base: *base, bytes })
        .collect();
    analyze_with_data(&code, &data, &e.funcs).expect("analysis")
}

/// Post-dominator sets by the definition: `pd[v][d]` when every path from `v` to the exit
/// passes `d` (`v` itself included).
fn postdom_sets(g: &[Vec<usize>], exit: usize) -> Vec<Vec<bool>> {
    let n = g.len();
    let mut preds = vec![Vec::new(); n];
    for (u, ss) in g.iter().enumerate() {
        for &s in ss {
            preds[s].push(u);
        }
    }
    // avoid[d][v]: v reaches the exit without passing d.
    let avoid: Vec<Vec<bool>> = (0..n)
        .map(|d| {
            let mut reach = vec![false; n];
            if d != exit {
                reach[exit] = true;
                let mut stack = vec![exit];
                while let Some(x) = stack.pop() {
                    for &p in &preds[x] {
                        if p != d && !reach[p] {
                            reach[p] = true;
                            stack.push(p);
                        }
                    }
                }
            }
            reach
        })
        .collect();
    (0..n)
        .map(|v| (0..n).map(|d| !avoid[d][v]).collect())
        .collect()
}

/// What one ELF showed.
#[derive(Debug, Default)]
struct Report {
    tables: usize,
    jumps: usize,
    unresolved: Vec<String>,
    tail_calls: usize,
    /// Resolved jumps whose table length came from a bounds check.
    bounded: usize,
    /// Resolved jumps with a table of offsets.
    relative: usize,
    entries: usize,
}

fn check(e: &Elf) -> Report {
    let a = analyse(e);
    let mut rep = Report::default();
    let name = &e.name;
    // Oracle 1: the tables.
    let mut used = BTreeMap::new();
    for f in &a.functions {
        for j in &f.jumps {
            let want = e.tables.get(&j.table.table).unwrap_or_else(|| {
                panic!(
                    "{name}: jalr at {:#x} ({}) resolved to {:#x}, which no relocation names as a table\n{}",
                    j.pc,
                    f.name,
                    j.table.table,
                    a.dump()
                )
            });
            assert_eq!(
                &j.table.entries, want,
                "{name}: jalr at {:#x} ({}): table {:#x} entries differ from the relocations",
                j.pc, f.name, j.table.table
            );
            used.insert(j.table.table, j.pc);
            rep.jumps += 1;
            rep.bounded += usize::from(j.table.bound.is_some());
            rep.relative += usize::from(j.table.relative_to.is_some());
        }
        for &(pc, jalr) in &f.unresolved_jumps {
            // `tail g` = `auipc t1, …; jalr x0, …(t1)`: a tail call to a known function,
            // which stays an exit edge. Anything else is reported.
            let prev = e
                .code
                .iter()
                .find_map(|(b, d)| {
                    let off = pc.checked_sub(4)?.checked_sub(*b)? as usize;
                    d.get(off..off + 4)
                })
                .and_then(|w| Inst::decode(u32::from_le_bytes([w[0], w[1], w[2], w[3]])).ok());
            let tail_to = prev
                .filter(|p| p.op == weft_isa::Op::Auipc && p.rd == jalr.rs1)
                .map(|p| {
                    (pc - 4)
                        .wrapping_add(p.imm as u32)
                        .wrapping_add(jalr.imm as u32)
                });
            if tail_to.is_some_and(|t| e.funcs.iter().any(|s| s.addr == t)) {
                rep.tail_calls += 1;
            } else {
                rep.unresolved.push(format!("{}@{pc:#x}", f.name));
            }
        }
    }
    for t in e.tables.keys() {
        assert!(
            used.contains_key(t),
            "{name}: the table at {t:#x} (from relocations) is read by no resolved jalr; \
             unresolved: {:?}\n{}",
            rep.unresolved,
            a.dump()
        );
    }
    rep.tables = e.tables.len();
    // Oracle 2: every entry is the instruction-level ipdom.
    for f in &a.functions {
        let Some((base, bytes)) = e
            .code
            .iter()
            .find(|(b, d)| f.start >= *b && (f.end - b) as usize <= d.len())
        else {
            continue;
        };
        let lo = (f.start - base) as usize;
        let hi = (f.end - base) as usize;
        // The instructions, walked here by length (2 bytes unless bits 1:0 are 0b11).
        let code = &bytes[lo..hi];
        let mut insts: Vec<(u32, u32, Option<Inst>)> = Vec::new(); // (pc, length, inst)
        let mut off = 0;
        while off + 2 <= code.len() {
            let h = u16::from_le_bytes([code[off], code[off + 1]]) as u32;
            let (len, w) = if h & 3 != 3 {
                (2, h)
            } else if off + 4 <= code.len() {
                let w =
                    u32::from_le_bytes([code[off], code[off + 1], code[off + 2], code[off + 3]]);
                (4, w)
            } else {
                break;
            };
            insts.push((f.start + off as u32, len, Inst::decode(w).ok()));
            off += len as usize;
        }
        let n = insts.len();
        let node = |pc: u32| insts.binary_search_by_key(&pc, |x| x.0).unwrap_or(n);
        // The table each resolved jump reads, as the relocations give it.
        let oracle_targets: BTreeMap<u32, &Vec<u32>> = f
            .jumps
            .iter()
            .map(|j| (j.pc, &e.tables[&j.table.table]))
            .collect();
        let mut g: Vec<Vec<usize>> = insts
            .iter()
            .map(|&(pc, len, inst)| {
                if let Some(t) = oracle_targets.get(&pc) {
                    return t.iter().map(|&w| node(w)).collect();
                }
                match flow(inst.as_ref(), pc) {
                    Flow::Next => vec![node(pc + len)],
                    Flow::Cond { target } => vec![node(pc + len), node(target)],
                    Flow::Jump { target } => vec![node(target)],
                    Flow::Exit(_) => vec![n],
                }
            })
            .collect();
        g.push(Vec::new());
        let data: Vec<DataRegion> = e
            .data
            .iter()
            .map(|(base, bytes)| DataRegion { base: *base, bytes })
            .collect();
        let cfg = Cfg::build_from_bytes(f.start, code, &Memory::new(data));
        for &b in &cfg.virtual_exits {
            let last = node(cfg.last_pc(b));
            g[last].push(n);
        }
        let pd = postdom_sets(&g, n);
        let ipdom = |v: usize| -> Reconv {
            let strict: Vec<usize> = (0..=n).filter(|&d| d != v && pd[v][d]).collect();
            let c = strict
                .iter()
                .copied()
                .find(|&c| strict.iter().all(|&o| o == c || pd[c][o]))
                .expect("an immediate post-dominator");
            if c == n {
                Reconv::AtExit
            } else {
                Reconv::At(insts[c].0)
            }
        };
        for (i, &(pc, _, inst)) in insts.iter().enumerate() {
            let is_branch = matches!(flow(inst.as_ref(), pc), Flow::Cond { .. });
            let is_jump = oracle_targets.contains_key(&pc);
            let got = a.table.get(pc);
            if is_branch || is_jump {
                assert_eq!(
                    got,
                    Some(ipdom(i)),
                    "{name}: {} at {pc:#x} in {}\n{}",
                    if is_jump { "jump" } else { "branch" },
                    f.name,
                    a.dump()
                );
                rep.entries += 1;
            } else {
                assert_eq!(got, None, "{name}: entry for a non-branch at {pc:#x}");
                if inst.as_ref().is_some_and(is_candidate) {
                    assert!(f.unresolved_jumps.iter().any(|u| u.0 == pc));
                }
            }
        }
    }
    rep
}

/// The only indirect jump in `switches.c` that is neither a `switch` nor a `tail` call to a
/// named function: `indirect`'s tail call through a function pointer (at -O1 and above).
fn check_unresolved(name: &str, rep: &Report) {
    for u in &rep.unresolved {
        assert!(
            u.starts_with("indirect@"),
            "{name}: unexpected unresolved jump {u}"
        );
    }
}

/// Every `switches.c` build has the five switches' tables (`two` has two).
const TABLES: usize = 5;

#[test]
fn committed_fixtures() {
    let mut names: Vec<PathBuf> = std::fs::read_dir(data_dir())
        .expect("tests/data")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "elf"))
        .collect();
    names.sort();
    assert!(
        names.len() >= 4,
        "expected the committed ELF fixtures in tests/data"
    );
    for p in names {
        let bytes = std::fs::read(&p).expect("fixture");
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let e = read_elf(&name, &bytes);
        let rep = check(&e);
        assert_eq!(rep.tables, TABLES, "{name}: {rep:?}");
        assert!(rep.jumps >= TABLES, "{name}: {rep:?}");
        check_unresolved(&name, &rep);
    }
}

fn require(tool: &str, hint: &str) {
    match Command::new(tool).arg("--version").output() {
        Ok(o) if o.status.success() => {}
        _ => {
            panic!("this test needs `{tool}` ({hint}) on PATH; it is not optional (CI installs it)")
        }
    }
}

/// A scratch directory per test and process (tests may run as threads of one process).
fn out_dir(tool: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("weft-reconv-jt-{tool}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn build(tool: &str, args: &[&str], out: &Path) -> Vec<u8> {
    let src = data_dir().join("switches.c");
    let o = Command::new(tool)
        .args(args)
        .arg(&src)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap_or_else(|e| panic!("running {tool}: {e}"));
    assert!(
        o.status.success(),
        "{tool} {args:?} failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::read(out).expect("compiler output")
}

const OPTS: [&str; 5] = ["-O0", "-O1", "-O2", "-O3", "-Os"];

fn compiled(tool: &str, hint: &str, common: &[&str]) {
    require(tool, hint);
    let tag = if common.contains(&"-march=rv32imafc") {
        "-rvc"
    } else {
        ""
    };
    let dir = out_dir(&format!("{tool}{tag}"));
    let mut summary = Vec::new();
    for model in ["medlow", "medany"] {
        for opt in OPTS {
            let cm = format!("-mcmodel={model}");
            let mut args: Vec<&str> = common.to_vec();
            args.push(opt);
            args.push(&cm);
            let name = format!("{tool}{opt}-{model}{tag}");
            let bytes = build(tool, &args, &dir.join(format!("{name}.elf")));
            let e = read_elf(&name, &bytes);
            let rep = check(&e);
            assert_eq!(rep.tables, TABLES, "{name}: {rep:?}");
            assert_eq!(
                rep.bounded, rep.jumps,
                "{name}: a bounds check was missed: {rep:?}"
            );
            check_unresolved(&name, &rep);
            summary.push(format!("{name}: {rep:?}"));
        }
    }
    println!("{}", summary.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn clang_14_all_levels() {
    compiled(
        "clang",
        "Debian clang 14 with lld",
        &[
            "--target=riscv32-unknown-elf",
            "-march=rv32imaf",
            "-mabi=ilp32f",
            "-nostdlib",
            "-ffreestanding",
            "-fuse-ld=lld",
            "-Wl,-Ttext=0x80000000",
            "-Wl,--emit-relocs",
        ],
    );
}

#[test]
fn clang_14_all_levels_compressed() {
    compiled(
        "clang",
        "Debian clang 14 with lld",
        &[
            "--target=riscv32-unknown-elf",
            "-march=rv32imafc",
            "-mabi=ilp32f",
            "-nostdlib",
            "-ffreestanding",
            "-fuse-ld=lld",
            "-Wl,-Ttext=0x80000000",
            "-Wl,--emit-relocs",
        ],
    );
}

#[test]
fn riscv_gcc_12_all_levels_compressed() {
    compiled(
        "riscv64-unknown-elf-gcc",
        "Debian's gcc-riscv64-unknown-elf 12",
        &[
            "-march=rv32imafc",
            "-mabi=ilp32f",
            "-nostdlib",
            "-ffreestanding",
            "-Wl,-Ttext=0x80000000",
            "-Wl,--emit-relocs",
        ],
    );
}

#[test]
fn riscv_gcc_12_all_levels() {
    compiled(
        "riscv64-unknown-elf-gcc",
        "Debian's gcc-riscv64-unknown-elf 12",
        &[
            "-march=rv32imaf",
            "-mabi=ilp32f",
            "-nostdlib",
            "-ffreestanding",
            "-Wl,-Ttext=0x80000000",
            "-Wl,--emit-relocs",
        ],
    );
}
