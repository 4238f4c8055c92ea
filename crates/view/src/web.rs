//! `weft view`: a run recorded step by step into one self-contained HTML page (inline script
//! and style, the run embedded as JSON, nothing fetched) that a student steps forward and back
//! through: every warp's pc and instruction (and source line, with DWARF), its lanes as cells
//! (active, waiting, parked at a reconvergence point, off), its divergence stack entries with
//! every field, and the registers of a chosen lane.
//!
//! [`Recorder`] is an [`Observer`]: it snapshots the machine before the run, then after each
//! warp-instruction keeps the step's record (pc, instruction, mask, divergence events, memory
//! accesses, fault), the registers that changed (any warp, any lane: compared against a shadow
//! copy, so nothing the record leaves out is missed) and the state of every warp whose state
//! changed. Position *k* of the page is the machine after *k* warp-instructions: a reconvergence
//! that happens as a group arrives at its point before issuing shows on the step that issues
//! next, as in `docs/isa.md`'s tables. Recording stops after a bounded number of steps
//! ([`Recorder::new`]'s `max_steps`), so the page stays small enough for a browser.
//!
//! [`page`] turns a recording into the HTML (the page itself is `web.html`).

use crate::dwarf::LineTable;
use crate::state;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use weft_simt::divergence::{Entry, Reconv};
use weft_simt::warp::{Warp, WarpState};
use weft_simt::{Machine, Observer, StepRecord};

/// The page's template: HTML, style and script, with `/*WEFT-DATA*/` where the run goes.
const TEMPLATE: &str = include_str!("web.html");

/// One warp's visible state.
#[derive(Clone, Debug, PartialEq)]
struct WarpView {
    state: String,
    pc: u32,
    mask: u32,
    calls: u32,
    stack: Vec<Entry>,
    /// Index of the entry whose point the running group is at (it parks before issuing).
    arrives: Option<usize>,
    /// Vortex IPDOM entries: (mask before the split, else pc, else group has run).
    ipdom: Vec<(u32, u32, bool)>,
}

impl WarpView {
    fn of(m: &Machine, c: usize, w: usize) -> WarpView {
        let warp = &m.cores[c].warps[w];
        let entries = warp.stack.entries();
        let arrives = entries
            .iter()
            .rposition(|e| e.reconv == Reconv::At(warp.pc) && e.frame() == warp.calls.current());
        let st = match warp.state {
            WarpState::Idle if warp.stats.warp_instructions > 0 => "halted".to_string(),
            WarpState::Idle => "idle (not started)".to_string(),
            _ => state::warp_state(m, c, w),
        };
        WarpView {
            state: st,
            pc: warp.pc,
            mask: warp.mask,
            calls: warp.calls.depth(),
            stack: entries.to_vec(),
            arrives: arrives.filter(|_| warp.is_running()),
            ipdom: warp
                .ipdom
                .iter()
                .map(|e| (e.orig_mask, e.else_pc, e.fallthrough))
                .collect(),
        }
    }

    fn pcs(&self, out: &mut BTreeSet<u32>) {
        out.insert(self.pc);
        for e in &self.stack {
            out.insert(e.source_pc);
            if e.parked_mask != 0 {
                out.insert(e.resume_pc);
            }
            out.extend(e.waiting.iter().map(|g| g.pc));
            if let Reconv::At(p) = e.reconv {
                out.insert(p);
            }
        }
        out.extend(self.ipdom.iter().map(|e| e.1));
    }

    fn json(&self) -> Value {
        let stack: Vec<Value> = self
            .stack
            .iter()
            .map(|e| {
                json!({
                    "src": e.source_pc,
                    "saved": e.saved_mask,
                    "wait": e.waiting.iter().map(|g| [g.mask, g.pc]).collect::<Vec<_>>(),
                    "parked": e.parked_mask,
                    "resume": e.resume_pc,
                    "point": match e.reconv {
                        Reconv::None => json!("converge"),
                        Reconv::At(p) => json!(p),
                        Reconv::AtExit => json!("return"),
                    },
                    "depth": e.depth(),
                })
            })
            .collect();
        let mut v = json!({
            "st": self.state,
            "pc": self.pc,
            "m": self.mask,
            "calls": self.calls,
            "stack": stack,
        });
        if let Some(k) = self.arrives {
            v["arr"] = json!(k);
        }
        if !self.ipdom.is_empty() {
            v["ipdom"] = json!(self.ipdom);
        }
        v
    }
}

/// Registers of one lane: x0–x31 then f0–f31.
type LaneFile = [u32; 64];

fn lane_file(warp: &Warp, lane: usize) -> LaneFile {
    let mut r = [0; 64];
    for k in 0..32 {
        r[k] = warp.x[k][lane];
        r[32 + k] = warp.f[k][lane];
    }
    r
}

/// The recorded run: an [`Observer`] of the machine.
#[derive(Default)]
pub struct Recorder {
    max_steps: usize,
    lanes: usize,
    warps: usize,
    init_warps: Vec<WarpView>,
    init_regs: Vec<[u32; 4]>,
    last: Vec<WarpView>,
    shadow: Vec<Vec<LaneFile>>,
    steps: Vec<Value>,
    pcs: BTreeSet<u32>,
    /// Warp-instructions seen past `max_steps` (not recorded).
    dropped: u64,
}

impl Recorder {
    /// A recorder of machine `m` as it is now (before the run), keeping at most `max_steps`
    /// warp-instructions.
    pub fn new(m: &Machine, max_steps: usize) -> Recorder {
        let (lanes, warps) = (m.cfg.lanes, m.cfg.warps);
        let mut r = Recorder {
            max_steps,
            lanes,
            warps,
            init_warps: Vec::new(),
            init_regs: Vec::new(),
            last: Vec::new(),
            shadow: Vec::new(),
            steps: Vec::new(),
            pcs: BTreeSet::new(),
            dropped: 0,
        };
        for (c, core) in m.cores.iter().enumerate() {
            for (w, warp) in core.warps.iter().enumerate() {
                let v = WarpView::of(m, c, w);
                v.pcs(&mut r.pcs);
                r.init_warps.push(v);
                let files: Vec<LaneFile> = (0..lanes).map(|l| lane_file(warp, l)).collect();
                for (l, f) in files.iter().enumerate() {
                    for (k, &v) in f.iter().enumerate() {
                        if v != 0 {
                            r.init_regs
                                .push([(c * warps + w) as u32, l as u32, k as u32, v]);
                        }
                    }
                }
                r.shadow.push(files);
            }
        }
        r.last = r.init_warps.clone();
        r
    }

    /// Warp-instructions recorded.
    pub fn steps(&self) -> usize {
        self.steps.len()
    }

    /// Warp-instructions the run issued past the bound (not recorded).
    pub fn dropped(&self) -> u64 {
        self.dropped
    }
}

impl Observer for Recorder {
    fn step(&mut self, m: &Machine, r: &StepRecord) {
        if self.steps.len() >= self.max_steps {
            self.dropped += 1;
            return;
        }
        self.pcs.insert(r.pc);
        let mut regs = Vec::new();
        let mut warps = Vec::new();
        for (c, core) in m.cores.iter().enumerate() {
            for (w, warp) in core.warps.iter().enumerate() {
                let g = c * self.warps + w;
                for l in 0..self.lanes {
                    let now = lane_file(warp, l);
                    let old = &mut self.shadow[g][l];
                    if now != *old {
                        for k in 0..64 {
                            if now[k] != old[k] {
                                regs.push([g as u32, l as u32, k as u32, now[k]]);
                            }
                        }
                        *old = now;
                    }
                }
                let v = WarpView::of(m, c, w);
                if v != self.last[g] {
                    v.pcs(&mut self.pcs);
                    warps.push(json!([g, v.json()]));
                    self.last[g] = v;
                }
            }
        }
        let mut s = json!({
            "cy": r.cycle,
            "g": r.core * self.warps + r.warp,
            "pc": r.pc,
            "m": r.mask,
            "ev": r.divergence.names(),
            "regs": regs,
            "ws": warps,
        });
        if !r.mem.is_empty() {
            s["mem"] = r
                .mem
                .iter()
                .map(|a| {
                    let kind = match a.kind {
                        weft_simt::record::AccessKind::Load => "load",
                        weft_simt::record::AccessKind::Store => "store",
                        weft_simt::record::AccessKind::Amo => "amo",
                    };
                    json!([a.lane, a.addr, a.size, kind])
                })
                .collect();
        }
        if let Some(f) = &r.fault {
            s["fault"] = json!(f.to_string());
        }
        self.steps.push(s);
    }
}

/// Run `m` to its end, to its configured cycle bound, or until `max_steps` warp-instructions
/// have been recorded (the run is then cut: at most one more cycle runs). Returns how the run
/// ended, the recording, and whether it was cut before the program's own end.
pub fn record_run(m: &mut Machine, max_steps: usize) -> (weft_simt::RunEnd, Recorder, bool) {
    let rec = Rc::new(RefCell::new(Recorder::new(m, max_steps)));
    m.add_observer(Box::new(crate::Shared(rec.clone())));
    // Every cycle before the end issues at least one warp-instruction, so `max_steps + 1`
    // cycles record `max_steps` steps unless the run ends first.
    let mine = (max_steps as u64).saturating_add(1);
    let end = m.run_until(mine);
    let ours = mine < m.cfg.cycle_bound();
    let cut = matches!(end, weft_simt::RunEnd::CycleLimit(_)) && ours;
    let rec = std::mem::take(&mut *rec.borrow_mut());
    let cut = cut || rec.dropped > 0;
    (end, rec, cut)
}

/// What the page says about the run besides the recording.
#[derive(Clone, Debug, Default)]
pub struct PageInfo {
    /// The program's name, as given.
    pub program: String,
    /// How the run ended (one line), or why it was cut.
    pub end: String,
    /// True if the recording stopped before the run's end.
    pub truncated: bool,
}

/// Most instructions listed in full; a larger program lists the functions that ran.
const FULL_LISTING: usize = 4096;

/// The instruction at `pc` as text, and its length (2 or 4); `.word`/`.half` if it does not
/// decode, `None` if unmapped.
fn disasm(m: &Machine, pc: u32) -> Option<(String, u32)> {
    let lo = m.mem.load(0, pc, 2).ok()?;
    let len = weft_isa::Inst::len_of(lo as u16);
    let word = if len == 2 {
        lo
    } else {
        m.mem.load(0, pc, 4).ok()?
    };
    Some(match weft_isa::Inst::decode(word) {
        Ok(i) => (i.text(Some(pc)), len),
        Err(_) if len == 2 => (format!(".half {word:#06x}"), 2),
        Err(_) => (format!(".word {word:#010x}"), 4),
    })
}

/// The listing: every instruction of the executable segments (walked from each segment's
/// start), or, past [`FULL_LISTING`], those of the symbol ranges holding a recorded pc (at
/// most four times as many, so a huge function cannot make a huge page).
fn listing(m: &Machine, segs: &[(u32, u32)], pcs: &BTreeSet<u32>) -> Vec<u32> {
    let mut all = Vec::new();
    for &(start, end) in segs {
        let mut pc = start;
        while pc < end {
            let len = disasm(m, pc).map(|(_, l)| l).unwrap_or(4);
            all.push(pc);
            pc = pc.wrapping_add(len);
            if pc < start {
                break;
            }
        }
    }
    if all.len() <= FULL_LISTING {
        return all;
    }
    let mut starts: Vec<u32> = m.symbols.iter().map(|s| s.1).collect();
    starts.sort_unstable();
    let range_of = |pc: u32| {
        let k = starts.partition_point(|&a| a <= pc);
        let lo = if k == 0 { 0 } else { starts[k - 1] };
        let hi = starts.get(k).copied().unwrap_or(u32::MAX);
        (lo, hi)
    };
    let ranges: BTreeSet<(u32, u32)> = pcs.iter().map(|&p| range_of(p)).collect();
    all.into_iter()
        .filter(|&p| {
            let r = range_of(p);
            ranges.contains(&r)
        })
        .take(FULL_LISTING * 4)
        .collect()
}

/// Source files larger than this are not embedded (their lines still show as `file:line`).
const MAX_SOURCE: u64 = 512 * 1024;

/// The page for recording `r` of machine `m` (after the run). `exec` are the program's
/// executable address ranges `[start, end)`; `lines` its DWARF line table, if it has one.
pub fn page(
    m: &Machine,
    r: &Recorder,
    info: &PageInfo,
    exec: &[(u32, u32)],
    lines: Option<&LineTable>,
) -> String {
    let list = listing(m, exec, &r.pcs);
    let mut pcs: BTreeSet<u32> = r.pcs.clone();
    pcs.extend(list.iter().copied());
    let mut dis = serde_json::Map::new();
    let mut src = serde_json::Map::new();
    // Table file index -> index in the page's `files`, in order of first use.
    let mut used_files: BTreeMap<usize, usize> = BTreeMap::new();
    let mut order: Vec<&std::path::Path> = Vec::new();
    for &pc in &pcs {
        let Some((text, _)) = disasm(m, pc) else {
            continue;
        };
        let sym = m.symbolize(pc).unwrap_or_default();
        dis.insert(pc.to_string(), json!([text, sym]));
        if let Some(t) = lines {
            if let Some((f, line)) = t.lookup(pc) {
                let k = *used_files.entry(f).or_insert_with(|| {
                    order.push(&t.files()[f]);
                    order.len() - 1
                });
                src.insert(pc.to_string(), json!([k, line]));
            }
        }
    }
    let files: Vec<Value> = order
        .iter()
        .map(|path| {
            let text = std::fs::metadata(path)
                .ok()
                .filter(|md| md.len() <= MAX_SOURCE)
                .and_then(|_| std::fs::read_to_string(path).ok());
            json!({
                "name": path.display().to_string(),
                "lines": text.map(|t| t.lines().map(String::from).collect::<Vec<_>>()),
            })
        })
        .collect();
    let cfg = &m.cfg;
    let data = json!({
        "program": info.program,
        "cores": cfg.cores,
        "warps": cfg.warps,
        "lanes": cfg.lanes,
        "reconv": cfg.reconv.name(),
        "profile": cfg.profile.name(),
        "stack_depth": cfg.stack_depth,
        "end": info.end,
        "truncated": info.truncated,
        "init": {
            "warps": r.init_warps.iter().map(WarpView::json).collect::<Vec<_>>(),
            "regs": r.init_regs,
        },
        "steps": r.steps,
        "dis": dis,
        "listing": list,
        "src": src,
        "files": files,
    });
    // `</` cannot end the script element from inside a JSON string once escaped.
    let text = data.to_string().replace("</", "<\\/");
    TEMPLATE.replace("/*WEFT-DATA*/", &text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_simt::load::program_from_elf;
    use weft_simt::Config;

    fn machine(src: &str, lanes: usize) -> Machine {
        let elf = weft_asm::assemble(src, "t.s").unwrap();
        let (p, _) = program_from_elf(&elf).unwrap();
        let cfg = Config {
            lanes,
            warps: 1,
            ..Config::default()
        };
        Machine::new(cfg, &p).unwrap()
    }

    #[test]
    fn records_every_step_with_register_changes_and_bounds_the_count() {
        let src = "_start: li t0, -1\n csrw tmask, t0\n csrr s0, thread_id\n \
                   addi a0, s0, 5\n addi a1, a0, 1\n csrw tmask, zero\n";
        let mut m = machine(src, 4);
        let r = std::rc::Rc::new(std::cell::RefCell::new(Recorder::new(&m, 4)));
        m.add_observer(Box::new(crate::Shared(r.clone())));
        m.run();
        let r = r.borrow();
        assert_eq!(r.steps(), 4);
        assert_eq!(r.dropped(), 2);
        // Step 3 (addi a0, s0, 5) wrote x10 of every lane: 5 + lane.
        let regs = r.steps[3]["regs"].as_array().unwrap();
        let a0: Vec<(u64, u64)> = regs
            .iter()
            .filter(|v| v[2] == 10)
            .map(|v| (v[1].as_u64().unwrap(), v[3].as_u64().unwrap()))
            .collect();
        assert_eq!(a0, [(0, 5), (1, 6), (2, 7), (3, 8)]);
        // csrw tmask widened the warp: its new state is recorded with mask 0xf.
        assert_eq!(r.steps[1]["ws"][0][1]["m"], 0xf);
    }

    #[test]
    fn the_page_embeds_the_run_and_escapes_script_ends() {
        let mut m = machine("_start: csrw tmask, zero\n", 1);
        let r = Recorder::new(&m, 10);
        m.run();
        let info = PageInfo {
            program: "</script><b>x".into(),
            ..PageInfo::default()
        };
        let html = page(&m, &r, &info, &[(0x8000_0000, 0x8000_0004)], None);
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(!html.contains("/*WEFT-DATA*/"));
        assert!(html.contains("<\\/script><b>x"));
        assert_eq!(
            html.matches("</script>").count(),
            2,
            "two script elements only"
        );
        assert!(!html.contains("http://") && !html.contains("https://"));
    }
}
