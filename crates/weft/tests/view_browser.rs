//! `weft view`: the page tested in a real headless browser (Debian's `chromium`; CI installs
//! it, and without it these tests fail with a message). Each test writes a page with the real
//! `weft view`, loads it in chromium with a URL fragment the page understands (a position,
//! a chosen warp and lane, button clicks, or `walk`: every position rendered in turn, each
//! warp's stack table read back from the DOM), and checks what the DOM shows (`--dump-dom`).
//!
//! References are independent of the page: the worked tables of `docs/isa.md` §5–6 (the stack
//! after each instruction, written by hand), the programs' meaning (`a0 = (tid & 1) ? 10 : 20`
//! …), and binutils' `addr2line` for source lines. A screenshot of the nested if/else is kept as a
//! test artifact under `target/tmp/` (its path is printed).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn chromium() -> &'static str {
    let ok = Command::new("chromium")
        .arg("--version")
        .stderr(Stdio::null())
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    assert!(
        ok,
        "chromium is not installed: the web view's tests need it (apt-get install chromium; \
         .ci/run installs it)"
    );
    "chromium"
}

/// A fresh directory under `target/tmp/` (kept, so a failing page can be opened).
fn workdir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("view")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `weft view ARGS… -o DIR/page.html`; returns the page and weft's stderr.
fn view(dir: &Path, args: &[&str]) -> (PathBuf, String) {
    let page = dir.join("page.html");
    let out = Command::new(env!("CARGO_BIN_EXE_weft"))
        .current_dir(root())
        .arg("view")
        .args(args)
        .arg("-o")
        .arg(&page)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "weft view {args:?} failed:\n{err}");
    (page, err)
}

/// Run chromium headless on `page#fragment` with `extra` flags; returns its stdout.
fn browse(page: &Path, fragment: &str, extra: &[String]) -> String {
    let profile = page.with_file_name(format!(
        "profile-{}",
        fragment
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .take(40)
            .collect::<String>()
    ));
    let mut child = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(format!("file://{}#{fragment}", page.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromium");
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut s).ok();
        s
    });
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish {} in 120 s", page.display());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = std::fs::remove_dir_all(&profile);
    reader.join().unwrap()
}

/// The DOM after the page ran with `fragment`.
fn dom(page: &Path, fragment: &str) -> String {
    let d = browse(page, fragment, &["--dump-dom".into()]);
    assert!(
        d.contains("data-ready=\"1\""),
        "the page did not finish its script (a script error?) for #{fragment}:\n{}",
        &d[..d.len().min(3000)]
    );
    d
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// The text of the first element whose opening tag contains `marker`, tags removed.
fn text_of(dom: &str, marker: &str) -> String {
    let at = dom
        .find(marker)
        .unwrap_or_else(|| panic!("{marker} not in the DOM"));
    let open_end = at + dom[at..].find('>').unwrap() + 1;
    let tag = dom[..at].rfind('<').unwrap();
    let name: String = dom[tag + 1..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    // The matching close tag: count nested elements of the same name.
    let (open_tag, close_tag) = (format!("<{name}"), format!("</{name}>"));
    let (mut depth, mut i) = (1, open_end);
    let close = loop {
        let c = i + dom[i..].find(&close_tag).expect("close tag");
        match dom[i..c].find(&open_tag) {
            Some(o) => {
                depth += 1;
                i += o + open_tag.len();
            }
            None => {
                depth -= 1;
                if depth == 0 {
                    break c;
                }
                i = c + close_tag.len();
            }
        }
    };
    let mut out = String::new();
    let mut in_tag = false;
    for ch in dom[open_end..close].chars() {
        match ch {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    unescape(&out)
}

// ---- docs/isa.md's worked tables ----------------------------------------------------------

/// One stack entry as the docs write it: saved mask; waiting groups (mask, pc's last two hex
/// digits); parked mask and resume pc.
#[derive(Clone, Debug, PartialEq, Eq)]
struct DocEntry {
    saved: String,
    wait: Vec<(String, String)>,
    parked: Option<(String, String)>,
}

/// A table row: the cycles it covers, their mask, pcs, and the stack after (bottom first).
#[derive(Debug)]
struct DocRow {
    cycles: Vec<u64>,
    mask: String,
    pcs: Vec<String>,
    stack: Vec<DocEntry>,
    text: String,
}

/// A worked table and the trace block (program and flags) it explains.
struct DocTable {
    args: Vec<String>,
    rows: Vec<DocRow>,
}

fn group(s: &str) -> (String, String) {
    let (m, pc) = s
        .trim()
        .split_once('@')
        .unwrap_or_else(|| panic!("group {s}"));
    (m.trim().to_string(), pc.trim().to_string())
}

fn doc_entry(body: &str) -> DocEntry {
    let mut parts = body.split(';');
    let mut e = DocEntry {
        saved: parts.next().unwrap().trim().to_string(),
        wait: Vec::new(),
        parked: None,
    };
    for p in parts {
        let p = p.trim();
        if let Some(w) = p.strip_prefix("wait ") {
            e.wait = w.split(',').map(group).collect();
        } else if let Some(k) = p.strip_prefix("parked ") {
            e.parked = Some(group(k));
        } else {
            panic!("stack entry part {p:?} in {{{body}}}");
        }
    }
    e
}

/// The "stack after" cell: `—`, `same`, or entries bottom first (`{…}`, `NAME {…}`, or a
/// `NAME` given earlier, standing for its last contents).
fn doc_stack(
    cell: &str,
    prev: &[DocEntry],
    names: &mut HashMap<String, DocEntry>,
) -> Vec<DocEntry> {
    let cell = cell.replace("**", "");
    let cell = cell.trim();
    if cell == "—" {
        return Vec::new();
    }
    if cell == "same" {
        return prev.to_vec();
    }
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, ch) in cell.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&cell[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&cell[start..]);
    items
        .into_iter()
        .map(|item| {
            let item = item.trim();
            match item.find('{') {
                Some(b) => {
                    let e = doc_entry(item[b + 1..].trim_end_matches('}'));
                    let name = item[..b].trim();
                    if !name.is_empty() {
                        names.insert(name.to_string(), e.clone());
                    }
                    e
                }
                None => names
                    .get(item)
                    .unwrap_or_else(|| panic!("entry {item} is not described before"))
                    .clone(),
            }
        })
        .collect()
}

fn cycles(cell: &str) -> Vec<u64> {
    let cell = cell.trim();
    match cell.split_once('–') {
        Some((a, b)) => (a.trim().parse().unwrap()..=b.trim().parse().unwrap()).collect(),
        None => vec![cell
            .parse()
            .unwrap_or_else(|_| panic!("cycle cell {cell:?}"))],
    }
}

fn doc_tables() -> Vec<DocTable> {
    let doc = std::fs::read_to_string(root().join("docs/isa.md")).unwrap();
    let mut tables = Vec::new();
    let mut args: Option<Vec<String>> = None;
    let mut lines = doc.lines().peekable();
    while let Some(line) = lines.next() {
        if let Some(rest) = line.strip_prefix("```trace ") {
            args = Some(rest.split_whitespace().map(String::from).collect());
            continue;
        }
        if !(line.starts_with("| cycle |") && line.contains("stack after")) {
            continue;
        }
        let args = args.clone().expect("a table before any trace block");
        let mut rows = Vec::new();
        let mut names = HashMap::new();
        let mut prev: Vec<DocEntry> = Vec::new();
        while let Some(l) = lines.next_if(|l| l.starts_with('|')) {
            if l.starts_with("|---") {
                continue;
            }
            let cells: Vec<&str> = l.split('|').collect();
            let stack = doc_stack(cells[5], &prev, &mut names);
            prev = stack.clone();
            rows.push(DocRow {
                cycles: cycles(cells[1]),
                mask: cells[2].trim().to_string(),
                pcs: cells[3]
                    .split(',')
                    .map(|p| p.trim().to_string())
                    .filter(|p| !p.is_empty())
                    .collect(),
                stack,
                text: l.to_string(),
            });
        }
        tables.push(DocTable { args, rows });
    }
    tables
}

// ---- what the page shows -------------------------------------------------------------------

/// One position of the walk: the cycle of its last step, the mask and pc the page shows for
/// that step, and warp 0's stack (bottom first) as the page shows it.
struct Shown {
    mask: String,
    pc: String,
    stack: Vec<DocEntry>,
    raw: String,
}

/// `0x8000001c <else>` → `1c` (the docs write pcs as their last two hex digits).
fn short_pc(s: &str) -> String {
    let hex = s.split_whitespace().next().unwrap();
    let v = u32::from_str_radix(hex.trim_start_matches("0x"), 16)
        .unwrap_or_else(|_| panic!("pc {s:?}"));
    format!("{:02x}", v & 0xff)
}

fn short_mask(s: &str) -> String {
    s.trim().trim_start_matches("0x").to_string()
}

/// A stack entry as the walk writes it: `saved | group, group | parked → resume | point`.
fn shown_entry(s: &str) -> DocEntry {
    let f: Vec<&str> = s.split(" | ").collect();
    assert_eq!(f.len(), 4, "walk entry {s:?}");
    let wait = if f[1].trim().is_empty() {
        Vec::new()
    } else {
        f[1].split(", ")
            .map(|g| {
                let (m, pc) = g.split_once(" @ ").unwrap();
                (short_mask(m), short_pc(pc))
            })
            .collect()
    };
    let parked = (f[2].trim() != "—").then(|| {
        let (m, pc) = f[2].split_once(" → ").unwrap();
        (short_mask(m), short_pc(pc))
    });
    DocEntry {
        saved: short_mask(f[0]),
        wait,
        parked,
    }
}

/// Parse the walk: cycle → what the page showed after the step of that cycle (warp 0).
fn walk(dom: &str) -> HashMap<u64, Shown> {
    let text = text_of(dom, "id=\"walk\"");
    let mut out = HashMap::new();
    for line in text.lines() {
        let parts: Vec<&str> = line.split(" || ").collect();
        let head: Vec<&str> = parts[0].split_whitespace().collect();
        let Ok(cycle) = head[3].parse::<u64>() else {
            continue; // position 0: nothing issued yet
        };
        let (mask, pc) = (head[5].to_string(), head[7].to_string());
        let w0 = parts[1].strip_prefix("g0 ").expect("warp 0 first");
        let w0 = w0.split(" ## ").next().unwrap();
        let stack = w0
            .split('{')
            .skip(1)
            .map(|e| shown_entry(e.trim().trim_end_matches('}')))
            .collect();
        out.entry(cycle).or_insert(Shown {
            mask: short_mask(&mask),
            pc: short_pc(&pc),
            stack,
            raw: line.to_string(),
        });
    }
    out
}

#[test]
fn the_web_view_shows_the_stacks_of_the_worked_traces_in_isa_md() {
    let tables = doc_tables();
    assert!(
        tables.len() >= 10,
        "only {} worked tables found",
        tables.len()
    );
    let mut programs = Vec::new();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (k, t) in tables.iter().enumerate() {
        let dir = workdir(&format!("doc{k}"));
        let args: Vec<&str> = t.args.iter().map(String::as_str).collect();
        let (page, _) = view(&dir, &args);
        let shown = walk(&dom(&page, "walk"));
        programs.push(t.args[0].clone());
        for row in &t.rows {
            for (i, c) in row.cycles.iter().enumerate() {
                let s = shown
                    .get(c)
                    .unwrap_or_else(|| panic!("{}: no step at cycle {c}", t.args.join(" ")));
                let pc_ok = match row.pcs.len() {
                    0 => true,
                    n if n == row.cycles.len() => row.pcs[i] == s.pc,
                    _ => panic!("row {} has pcs that do not match its cycles", row.text),
                };
                checked += 1;
                if s.stack != row.stack || s.mask != row.mask || !pc_ok {
                    wrong.push(format!(
                        "{} cycle {c}:\n  doc:  {}\n  page: {}\n  doc stack {:?}\n  page stack {:?}",
                        t.args.join(" "),
                        row.text,
                        s.raw,
                        row.stack,
                        s.stack
                    ));
                }
            }
        }
    }
    // Every divergence example with a worked table: the ones the issue names among them.
    for p in ["if_else.s", "loop_leave.s", "nested.s", "and_chain.s"] {
        assert!(
            programs.iter().any(|x| x.ends_with(p)),
            "no worked table for {p}"
        );
    }
    assert!(
        wrong.is_empty(),
        "{} of {checked} rows differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    eprintln!(
        "checked {checked} table rows of {} worked traces in the browser",
        tables.len()
    );
}

/// Registers of the chosen lane as the page shows them: `x10` → value.
fn shown_regs(dom: &str) -> HashMap<String, u32> {
    let mut out = HashMap::new();
    let table = &dom[dom.find("id=\"xregs\"").expect("register table")..];
    let mut rest = &table[..table.find("</table>").unwrap()];
    while let Some(at) = rest.find("rv\" data-reg=\"") {
        rest = &rest[at + 14..];
        let name = &rest[..rest.find('"').unwrap()];
        let v = &rest[rest.find('>').unwrap() + 1..rest.find('<').unwrap()];
        out.insert(
            name.to_string(),
            u32::from_str_radix(v.trim_start_matches("0x"), 16).unwrap(),
        );
    }
    assert_eq!(out.len(), 32, "32 x registers shown");
    out
}

/// Lane cell classes of warp `g`'s card, lane 0 first.
fn lane_cells(dom: &str, g: usize) -> Vec<String> {
    let card = dom
        .find(&format!("data-g=\"{g}\"><h3>"))
        .expect("warp card");
    let mut rest = &dom[card..];
    let mut out = Vec::new();
    for _ in 0..4 {
        let at = rest.find("class=\"lane ").unwrap();
        rest = &rest[at + 12..];
        let cls = &rest[..rest.find('"').unwrap()];
        out.push(cls.split_whitespace().next().unwrap().to_string());
    }
    out
}

#[test]
fn steps_forward_and_back_showing_lanes_and_a_chosen_lanes_registers() {
    let dir = workdir("if_else");
    let (page, _) = view(
        &dir,
        &[
            "examples/divergence/if_else.s",
            "--lanes",
            "4",
            "--reconv",
            "converge",
        ],
    );
    // Six steps forward, one back: after the then-part's `li a0, 10` (cycle 5), lanes 1 and 3
    // run, lanes 0 and 2 wait at `else`. Lane 3 has a0 = 10 and s0 = its thread id.
    let d = dom(&page, "do=next,next,next,next,next,next,next,prev,lane:3");
    assert!(
        d.contains("data-pos=\"6\""),
        "position 6 after 7 forward, 1 back"
    );
    assert!(text_of(&d, "id=\"pos\"").contains("cycle 5"));
    assert_eq!(lane_cells(&d, 0), ["wait", "on", "wait", "on"]);
    let r = shown_regs(&d);
    assert_eq!((r["x10"], r["x8"], r["x6"]), (10, 3, 1));
    // To the end and back: stepping back undoes register writes. At the end a0 = 10 + tid
    // (odd) or 20 + tid (even); six steps back from the end (12 steps) lane 0 has not yet
    // run the else-part, so its a0 is still 0.
    let end = dom(&page, "do=last,lane:2");
    assert!(end.contains("data-pos=\"12\""));
    assert_eq!(shown_regs(&end)["x10"], 22);
    assert_eq!(lane_cells(&end, 0), ["off", "off", "off", "off"]);
    let back = dom(&page, "do=last,prev,prev,prev,prev,prev,prev,lane:0");
    assert!(back.contains("data-pos=\"6\""));
    assert_eq!(shown_regs(&back)["x10"], 0);
    let back_l3 = dom(&page, "pos=12&do=prev,prev,prev,prev,prev,prev&lane=3");
    assert_eq!(shown_regs(&back_l3)["x10"], 10);
    // The event buttons stop at divergence events: the branch's push (cycle 4), the first
    // converge's park (cycle 7), the pop (cycle 9).
    let ev = dom(&page, "do=nextev");
    assert!(text_of(&ev, "id=\"pos\"").contains("cycle 4"));
    assert!(text_of(&ev, "id=\"step\"").contains("push"));
    let ev = dom(&page, "do=nextev,nextev,nextev,prevev");
    assert!(text_of(&ev, "id=\"pos\"").contains("cycle 7"));
    assert!(text_of(&ev, "id=\"step\"").contains("park"));
}

#[test]
fn a_screenshot_of_the_nested_if_else_is_kept() {
    let dir = workdir("screenshot");
    let (page, _) = view(
        &dir,
        &[
            "examples/divergence/nested.s",
            "--lanes",
            "4",
            "--warps",
            "1",
            "--reconv",
            "converge",
        ],
    );
    let png = dir.join("nested-cycle7.png");
    browse(
        &page,
        "pos=8&lane=3",
        &[
            format!("--screenshot={}", png.display()),
            "--window-size=1400,1000".into(),
        ],
    );
    let img = image::open(&png)
        .unwrap_or_else(|e| panic!("{}: {e}", png.display()))
        .to_rgb8();
    assert_eq!(img.dimensions(), (1400, 1000));
    // The page is drawn: the active lane's green and the waiting lanes' amber are there.
    let has = |c: [u8; 3]| img.pixels().any(|p| p.0 == c);
    assert!(
        has([0x3f, 0xa3, 0x4d]),
        "no active-lane cell in the screenshot"
    );
    assert!(
        has([0xf0, 0xb4, 0x29]),
        "no waiting-lane cell in the screenshot"
    );
    println!("screenshot: {}", png.display());
    eprintln!("screenshot: {}", png.display());
}

#[test]
fn a_long_run_is_cut_at_max_steps_and_the_page_says_so() {
    let dir = workdir("cut");
    let (page, err) = view(
        &dir,
        &[
            "examples/divergence/loop_leave.s",
            "--lanes",
            "4",
            "--max-steps",
            "5",
        ],
    );
    assert!(err.contains("cut short"), "{err}");
    let d = dom(&page, "do=last");
    assert!(d.contains("data-pos=\"5\""), "5 steps recorded");
    assert!(text_of(&d, "id=\"banner\"").starts_with("Cut short: the page holds the first 5"));
    let out = Command::new(env!("CARGO_BIN_EXE_weft"))
        .current_dir(root())
        .args([
            "view",
            "examples/divergence/if_else.s",
            "--max-steps",
            "0",
            "-o",
        ])
        .arg(dir.join("x.html"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--max-steps 0: between 1 and"));
}

const KERNEL: &str = r#"#include <weft.h>
#include <stdint.h>

static uint32_t out[8];

static void kernel(void *p) {
    uint32_t *o = p;
    uint32_t t = weft_global_thread();
    uint32_t v;
    if (t & 1) {
        v = t * 3;
    } else {
        v = t + 100;
    }
    o[t] = v;
}

int main(void) {
    weft_launch(weft_dim3(1, 1, 1), weft_dim3(4, 1, 1), kernel, out);
    return 0;
}
"#;

/// binutils' answer for each pc: `Some((file name, line))`, or `None` (no line).
fn addr2line(elf: &Path, pcs: &[u32]) -> Vec<Option<(String, u32)>> {
    let tool = "riscv64-unknown-elf-addr2line";
    let out = Command::new(tool)
        .arg("-e")
        .arg(elf)
        .args(pcs.iter().map(|p| format!("{p:#x}")))
        .output()
        .unwrap_or_else(|e| {
            panic!("{tool} is needed (apt-get install binutils-riscv64-unknown-elf): {e}")
        });
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let v: Vec<_> = text
        .lines()
        .map(|l| {
            let (file, line) = l.rsplit_once(':').unwrap();
            let line = line.split_whitespace().next().unwrap_or("");
            let name = file.rsplit('/').next().unwrap().to_string();
            line.parse::<u32>()
                .ok()
                .filter(|&n| n > 0 && name != "??")
                .map(|n| (name, n))
        })
        .collect();
    assert_eq!(v.len(), pcs.len());
    v
}

#[test]
fn source_lines_of_a_kernel_built_with_debug_info_match_addr2line() {
    let dir = workdir("dwarf");
    let src = dir.join("k.c");
    std::fs::write(&src, KERNEL).unwrap();
    let elf = dir.join("k.elf");
    let out = Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(["cc", "-g", "-O0"])
        .arg(&src)
        .arg("-o")
        .arg(&elf)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (page, err) = view(
        &dir,
        &[elf.to_str().unwrap(), "--warps", "1", "--lanes", "4"],
    );
    assert!(err.contains("source lines from DWARF"), "{err}");
    let d = dom(&page, "walk");
    // Warp 0's next pc and the source line the page shows for it, at every position.
    let mut shown: Vec<(u32, Option<String>)> = Vec::new();
    for line in text_of(&d, "id=\"walk\"").lines() {
        let w0 = line.split(" || ").nth(1).unwrap();
        let parts: Vec<&str> = w0.split(" ## ").collect();
        let Some(next) = parts.get(1).and_then(|p| p.strip_prefix("next: ")) else {
            continue; // halted
        };
        let pc = u32::from_str_radix(&next[2..10], 16).unwrap();
        shown.push((pc, parts.get(2).map(|s| s.to_string())));
    }
    shown.sort();
    shown.dedup();
    let pcs: Vec<u32> = shown.iter().map(|s| s.0).collect();
    let want = addr2line(&elf, &pcs);
    let lines: Vec<&str> = KERNEL.lines().collect();
    let mut seen = Vec::new();
    for ((pc, got), want) in shown.iter().zip(&want) {
        let expect = want.as_ref().map(|(file, n)| {
            let text = if file == "k.c" {
                format!("  {}", lines[*n as usize - 1].trim())
            } else {
                String::new() // weft.h: the page has no copy of the runtime's header
            };
            format!("{file}:{n}{text}").trim().to_string()
        });
        match (got, &expect) {
            // Another file (the runtime's weft.h, inlined): the page may add its text.
            (Some(g), Some(e)) if !e.starts_with("k.c:") => {
                assert!(g.starts_with(e.as_str()), "pc {pc:#010x}: {g} for {e}")
            }
            _ => assert_eq!(got, &expect, "pc {pc:#010x}"),
        }
        if let Some((f, n)) = want {
            if f == "k.c" {
                seen.push(*n);
            }
        }
    }
    // Both sides of the divergent if/else were shown with their lines.
    assert!(
        seen.contains(&11) && seen.contains(&13),
        "lines seen: {seen:?}"
    );
}

#[test]
fn a_multi_core_run_has_every_warp_and_every_step_of_the_text_trace() {
    let dir = workdir("spawn");
    let args = ["tests/kernels/spawn.s", "--cores", "2", "--warps", "4"];
    let (page, _) = view(&dir, &args);
    // The reference: `weft run --trace`, one line per warp-instruction.
    let out = Command::new(env!("CARGO_BIN_EXE_weft"))
        .current_dir(root())
        .arg("run")
        .args(args)
        .arg("--trace")
        .output()
        .unwrap();
    let trace = String::from_utf8_lossy(&out.stderr).into_owned();
    let lines: Vec<&str> = trace.lines().filter(|l| l.contains(" c")).collect();
    let last: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
    let d = dom(&page, "do=last");
    let pos = text_of(&d, "id=\"pos\"");
    assert_eq!(
        pos,
        format!("step {n} / {n} · cycle {}", last[0], n = lines.len()),
        "the page's last position is the trace's last line"
    );
    // The last step's core, warp and pc as the page shows them.
    let step = text_of(&d, "id=\"step\"");
    let core_warp = format!("core {} warp {}", &last[1][1..], &last[2][1..]);
    assert!(step.contains(&core_warp), "{step} vs {core_warp}");
    assert!(step.contains(&format!("0x{}", last[4])), "{step}");
    for c in 0..2 {
        for w in 0..4 {
            assert!(
                d.contains(&format!("<h3>core {c} warp {w} ")),
                "core {c} warp {w}"
            );
        }
    }
    assert!(text_of(&d, "id=\"banner\"").contains("the program exited with code 0"));
}
