//! No import circles: inside every crate of the workspace, the modules (one per source file)
//! form a graph without cycles — a module never uses, directly or through others, a module
//! that uses it. With `layering.rs` (the crates in levels) this keeps every part of weft
//! readable from the bottom up. The graph is read from the sources: every `crate::a::…`,
//! `super::…` and `use crate::{…}` path names the module it goes through; a name the crate
//! root re-exports (`pub use machine::Machine`) counts as its module. The crate root
//! (`lib.rs`, `main.rs`, a binary) only assembles its modules, so its own uses are not
//! edges.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Source text without comments and string/char literals (their contents are not code).
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
        } else if b[i] == b'r'
            && matches!(b.get(i + 1), Some(b'"') | Some(b'#'))
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            // A raw string r"…" or r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push('r');
                i += 1;
                continue;
            }
            j += 1;
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            while j < b.len() && !b[j..].starts_with(&close) {
                j += 1;
            }
            i = j + close.len();
            out.push_str("\"\"");
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && b.get(i + 2) == Some(&b'\'') {
            i += 3;
        } else if b[i] == b'\'' && b.get(i + 1) == Some(&b'\\') {
            i += 2;
            while i < b.len() && b[i] != b'\'' {
                i += 1;
            }
            i += 1;
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// A crate's source files: module path (`a::b`; "" for the root) → file.
fn modules(src: &Path) -> BTreeMap<String, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n == "bin") {
                    continue;
                }
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let rel = p.strip_prefix(src).unwrap().with_extension("");
            let mut parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(
                parts.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                parts.pop();
            }
            out.insert(parts.join("::"), p);
        }
    }
    out
}

/// The longest module of `mods` that `path` (segments after `crate::`) goes through.
fn module_of(path: &[&str], mods: &BTreeMap<String, PathBuf>) -> Option<String> {
    (1..=path.len())
        .rev()
        .map(|n| path[..n].join("::"))
        .find(|m| mods.contains_key(m))
}

/// Paths `crate::…` in `code`, as segment lists (groups `crate::{a, b::c}` expanded).
fn crate_paths(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(k) = rest.find(prefix) {
        let before = rest[..k].chars().last();
        rest = &rest[k + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        expand(rest, Vec::new(), &mut out);
    }
    out
}

/// Expand the path (or group) at the start of `s` after the segments `head`.
fn expand(s: &str, head: Vec<String>, out: &mut Vec<Vec<String>>) {
    let s = s.trim_start();
    if let Some(inner) = s.strip_prefix('{') {
        // Split the group at its top-level commas.
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    expand(&inner[start..i], head.clone(), out);
                    return;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&inner[start..i], head.clone(), out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        return;
    }
    let ident: String = s
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if ident.is_empty() {
        if !head.is_empty() {
            out.push(head);
        }
        return;
    }
    let mut path = head;
    path.push(ident.clone());
    let after = &s[ident.len()..];
    match after.trim_start().strip_prefix("::") {
        Some(more) => expand(more, path, out),
        None => out.push(path),
    }
}

/// The root's re-exports: name → module (`pub use machine::{Machine, Program}`).
fn reexports(root: &str, mods: &BTreeMap<String, PathBuf>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in root.split(';') {
        let l = line.trim();
        let Some(rest) = l.strip_prefix("pub use ") else {
            continue;
        };
        let rest = rest.strip_prefix("crate::").unwrap_or(rest);
        let mut paths = Vec::new();
        expand(rest, Vec::new(), &mut paths);
        for p in paths {
            let segs: Vec<&str> = p.iter().map(String::as_str).collect();
            if let (Some(m), Some(name)) = (module_of(&segs, mods), segs.last()) {
                out.insert(name.to_string(), m);
            }
        }
    }
    out
}

/// Each non-root module's dependencies on other modules of its crate.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mods = modules(src);
    let root = mods
        .get("")
        .map(|p| code_only(&std::fs::read_to_string(p).unwrap()))
        .unwrap_or_default();
    let re = reexports(&root, &mods);
    let mut g = BTreeMap::new();
    for (m, file) in &mods {
        if m.is_empty() {
            continue;
        }
        let code = code_only(&std::fs::read_to_string(file).unwrap());
        let mut deps = BTreeSet::new();
        let here: Vec<&str> = m.split("::").collect();
        let mut paths = crate_paths(&code, "crate::");
        // super:: from a::b is a::…; from a (a file directly under src/), the root.
        for p in crate_paths(&code, "super::") {
            let mut full: Vec<String> = here[..here.len().saturating_sub(1)]
                .iter()
                .map(|s| s.to_string())
                .collect();
            full.extend(p);
            paths.push(full);
        }
        for p in paths {
            let segs: Vec<&str> = p.iter().map(String::as_str).collect();
            let target = module_of(&segs, &mods)
                .filter(|t| !t.is_empty())
                .or_else(|| segs.first().and_then(|n| re.get(*n).cloned()));
            if let Some(t) = target {
                if &t != m && !m.starts_with(&format!("{t}::")) {
                    deps.insert(t);
                }
            }
        }
        g.insert(m.clone(), deps);
    }
    g
}

/// The strongly connected components of more than one module (Tarjan).
fn cycles(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct T<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        let n = t.index.len();
        t.index.insert(v, n);
        t.low.insert(v, n);
        t.stack.push(v);
        t.on.insert(v);
        for w in t.g.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !t.g.contains_key(w) {
                continue;
            }
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if t.on.contains(w) {
                let iw = t.index[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                comp.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in g.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out
}

/// The crates' source folders (the workspace members, and the Python extension's).
fn crate_sources() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(repo().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path().join("src"))
        .filter(|p| p.is_dir())
        .collect();
    out.push(repo().join("python/src"));
    out.sort();
    out
}

/// The circles still open, per crate, exactly as found (modules in name order): none now.
/// This list may only shrink: a new circle, or a module joining one, fails the test; so does a
/// circle that is gone and still listed here (remove it, so the list stays the truth).
const STILL_OPEN: &[&str] = &[];

#[test]
fn no_crate_has_an_import_circle() {
    let mut found = Vec::new();
    for src in crate_sources() {
        for c in cycles(&graph(&src)) {
            found.push(format!(
                "{}: {}",
                src.parent().unwrap().file_name().unwrap().to_string_lossy(),
                c.join(" ↔ ")
            ));
        }
    }
    found.sort();
    let new: Vec<&String> = found
        .iter()
        .filter(|f| !STILL_OPEN.contains(&f.as_str()))
        .collect();
    let gone: Vec<&&str> = STILL_OPEN
        .iter()
        .filter(|k| !found.iter().any(|f| f == *k))
        .collect();
    assert!(
        new.is_empty() && gone.is_empty(),
        "import circles (each line: modules that use one another):\n{}\n\nnot in STILL_OPEN \
         (a new circle or a grown one: open it): {new:#?}\nin STILL_OPEN but not found (closed \
         or changed: update the list): {gone:#?}",
        found.join("\n")
    );
}

#[test]
fn the_reader_finds_paths_groups_and_cycles() {
    let code = code_only(
        "use crate::{a::X, b, c::{d::Y, e}};\n// crate::z\nlet s = \"crate::q\"; crate::f::g();",
    );
    let paths = crate_paths(&code, "crate::");
    let joined: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(joined, ["a::X", "b", "c::d::Y", "c::e", "f::g"]);
    let mut g = BTreeMap::new();
    g.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    g.insert("b".to_string(), BTreeSet::from(["c".to_string()]));
    g.insert("c".to_string(), BTreeSet::from(["a".to_string()]));
    g.insert("d".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(
        cycles(&g),
        vec![vec!["a".to_string(), "b".into(), "c".into()]]
    );
}

/// Nothing in the repository reads or points at files outside it: no test, script or doc
/// names the `shared` folder beside a checkout or the design document kept there (a fresh
/// clone has neither).
#[test]
fn nothing_names_files_outside_the_repository() {
    let needles = [concat!("../", "shared"), concat!("DESIGN", ".md")];
    let mut found = Vec::new();
    let mut stack: Vec<PathBuf> = [
        "crates",
        "docs",
        "scripts",
        "device",
        "python",
        "examples",
        "tests",
        "fuzz",
        "rtl",
        ".ci",
        "README.md",
    ]
    .iter()
    .map(|p| repo().join(p))
    .collect();
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            let name = p
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            if name == "target" || name.starts_with('.') && name != ".ci" {
                continue;
            }
            for e in std::fs::read_dir(&p).unwrap() {
                stack.push(e.unwrap().path());
            }
        } else if let Ok(text) = std::fs::read_to_string(&p) {
            for n in needles {
                if text.contains(n) {
                    found.push(format!("{} names {n}", p.display()));
                }
            }
        }
    }
    found.sort();
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// Every `.rs` file under `dir`, recursively (build output folders left out).
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "target") {
                rust_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The machine is written in few places: at most six files of weft-simt add `impl Machine`
/// blocks (docs/architecture.md names them); a new part of the machine gets its own type.
#[test]
fn at_most_six_files_of_weft_simt_write_impl_machine() {
    let mut files = Vec::new();
    rust_files(&repo().join("crates/simt/src"), &mut files);
    let mut writers: Vec<String> = files
        .iter()
        .filter(|p| {
            code_only(&std::fs::read_to_string(p).unwrap())
                .lines()
                .any(|l| l.trim_start().starts_with("impl Machine"))
        })
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    writers.sort();
    assert!(
        writers.len() <= 6,
        "{} files of crates/simt/src write `impl Machine` (at most 6): {writers:?}",
        writers.len()
    );
}

/// No Rust source of the repository is over 1,000 lines.
#[test]
fn no_rust_source_is_over_a_thousand_lines() {
    let mut files = Vec::new();
    for dir in ["crates", "python/src", "examples"] {
        let d = repo().join(dir);
        if d.is_dir() {
            rust_files(&d, &mut files);
        }
    }
    assert!(files.len() > 100, "found only {} sources", files.len());
    let long: Vec<String> = files
        .iter()
        .filter_map(|p| {
            let n = std::fs::read_to_string(p).unwrap().lines().count();
            (n > 1000).then(|| format!("{} ({n} lines)", p.display()))
        })
        .collect();
    assert!(long.is_empty(), "sources over 1,000 lines: {long:#?}");
}
