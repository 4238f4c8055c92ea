//! The worked traces in `docs/isa.md` are the simulator's real output.
//!
//! Every fenced block whose info string is `trace PROGRAM FLAGS…` (for example
//! ```` ```trace examples/divergence/if_else.s --lanes 4 --reconv converge ````) must hold
//! exactly what `weft run PROGRAM FLAGS… --trace` prints on stderr: one line per
//! warp-instruction, then the end-of-run message when the run faults, hits the cycle bound
//! or deadlocks. PROGRAM is relative to the repository root; the flags understood are
//! `--lanes`, `--warps`, `--cores`, `--stack-depth` and `--reconv`.
//!
//! `WEFT_BLESS=1 cargo test -p weft-simt --test doc_traces` rewrites the blocks from the
//! simulator.

use std::cell::RefCell;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use weft_simt::load::program_from_elf;
use weft_simt::{Config, Machine, ReconvMode, RunEnd};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A trace block found in the document.
struct Block {
    /// The words after "trace" in the info string.
    args: Vec<String>,
    /// Byte range of the block's body (the lines between the fences).
    body: std::ops::Range<usize>,
}

fn find_blocks(doc: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut pos = 0;
    let mut open: Option<(Vec<String>, usize)> = None;
    for line in doc.split_inclusive('\n') {
        let start = pos;
        pos += line.len();
        let t = line.trim_end();
        match &open {
            None => {
                if let Some(rest) = t.strip_prefix("```trace ") {
                    open = Some((rest.split_whitespace().map(String::from).collect(), pos));
                }
            }
            Some((args, body_start)) => {
                if t == "```" {
                    blocks.push(Block {
                        args: args.clone(),
                        body: *body_start..start,
                    });
                    open = None;
                }
            }
        }
    }
    assert!(open.is_none(), "docs/isa.md: a trace block is not closed");
    blocks
}

/// A `Write` that appends to a shared buffer.
#[derive(Clone, Default)]
struct Shared(Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Run `args` (program, flags) as `weft run … --trace` would and return its stderr.
fn trace_of(args: &[String]) -> String {
    let (prog_path, flags) = args.split_first().expect("trace block names no program");
    let mut cfg = Config {
        max_cycles: 1_000_000,
        ..Config::default()
    };
    let mut it = flags.iter();
    while let Some(flag) = it.next() {
        let val = it
            .next()
            .unwrap_or_else(|| panic!("{flag} in a trace block needs a value"));
        let num = || {
            val.parse::<usize>()
                .unwrap_or_else(|_| panic!("{flag} {val}: not a number"))
        };
        match flag.as_str() {
            "--lanes" => cfg.lanes = num(),
            "--warps" => cfg.warps = num(),
            "--cores" => cfg.cores = num(),
            "--stack-depth" => cfg.stack_depth = num(),
            "--reconv" => {
                cfg.reconv =
                    ReconvMode::parse(val).unwrap_or_else(|| panic!("--reconv {val}: unknown mode"))
            }
            _ => panic!("trace block flag {flag} is not understood by this test"),
        }
    }
    let path = root().join(prog_path);
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{prog_path}: {e}"));
    let elf = weft_asm::assemble(&src, prog_path)
        .unwrap_or_else(|e| panic!("{prog_path} does not assemble:\n{e}"));
    let (prog, _) = program_from_elf(&elf).unwrap_or_else(|e| panic!("{prog_path}: {e}"));
    let mut m = Machine::new(cfg, &prog).unwrap_or_else(|e| panic!("{prog_path}: {e}"));
    let buf = Shared::default();
    m.add_observer(Box::new(weft_simt::TextTrace::new(Box::new(buf.clone()))));
    let end = m.run();
    let mut out = String::from_utf8(buf.0.borrow().clone()).expect("trace is UTF-8");
    // The end-of-run line, worded as the CLI prints it.
    match &end {
        RunEnd::Fault(f) => out += &format!("weft: {f}\n"),
        RunEnd::CycleLimit(c) => {
            panic!("{prog_path} ran into the test's cycle bound ({c} cycles)")
        }
        RunEnd::Deadlock(why) => out += &format!("weft: deadlock: {why}\n"),
        RunEnd::Exit(_) | RunEnd::AllHalted | RunEnd::NoExit => {}
    }
    out
}

fn bless() -> bool {
    std::env::var_os("WEFT_BLESS").is_some_and(|v| v == "1")
}

#[test]
fn isa_doc_traces_match_the_simulator() {
    let path = root().join("docs/isa.md");
    let doc = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let blocks = find_blocks(&doc);
    assert!(!blocks.is_empty(), "docs/isa.md has no trace blocks");
    let mut new_doc = String::new();
    let mut last = 0;
    let mut stale = Vec::new();
    for b in &blocks {
        let want = trace_of(&b.args);
        let have = &doc[b.body.clone()];
        if have != want {
            stale.push(format!(
                "trace {}:\n--- doc\n{have}--- simulator\n{want}",
                b.args.join(" ")
            ));
        }
        new_doc.push_str(&doc[last..b.body.start]);
        new_doc.push_str(&want);
        last = b.body.end;
    }
    new_doc.push_str(&doc[last..]);
    if stale.is_empty() {
        return;
    }
    if bless() {
        std::fs::write(&path, new_doc).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    panic!(
        "{} trace block(s) in docs/isa.md differ from the simulator \
         (WEFT_BLESS=1 cargo test -p weft-simt --test doc_traces regenerates them):\n\n{}",
        stale.len(),
        stale.join("\n")
    );
}

#[test]
fn every_divergence_example_is_traced_in_the_doc() {
    let doc = std::fs::read_to_string(root().join("docs/isa.md")).expect("docs/isa.md");
    let traced: Vec<String> = find_blocks(&doc)
        .into_iter()
        .filter_map(|b| b.args.first().cloned())
        .collect();
    let dir = root().join("examples/divergence");
    let mut examples: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "s"))
        .collect();
    examples.sort();
    assert!(!examples.is_empty());
    for p in examples {
        let rel = Path::new("examples/divergence").join(p.file_name().unwrap());
        let rel = rel.to_string_lossy().into_owned();
        assert!(
            traced.contains(&rel),
            "{rel} has no trace block in docs/isa.md"
        );
    }
}

#[test]
fn block_finder_reads_info_strings_and_bodies() {
    let doc = "x\n```trace a.s --lanes 4\nl1\nl2\n```\n```text\nno\n```\n";
    let b = find_blocks(doc);
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].args, ["a.s", "--lanes", "4"]);
    assert_eq!(&doc[b[0].body.clone()], "l1\nl2\n");
}
