//! Every command the documentation shows runs as written and prints what the documentation
//! shows. Each ```sh block of README.md and docs/*.md runs in bash, in a scratch folder that
//! holds the repository's files (linked, so relative paths work as in a checkout) and the
//! built `target/`, one folder per document so a block can use the files an earlier block
//! of the same document wrote (and its exported variables: the tutorial's `PATH`). A
//! ```text block right after a ```sh block (nothing but blank lines between) is that block's
//! expected output (stdout and stderr), line for line; a line `...` in it stands for any
//! number of lines.
//!
//! Markers, as HTML comments the reader does not see:
//! - `<!-- doc-test: file NAME -->` before a code block writes the block to NAME in the
//!   scratch folder (the tutorial's `square.c`);
//! - `<!-- doc-test: skip REASON -->` before a ```sh block leaves it out, with the reason
//!   (needs a board, takes hours, regenerates a committed file, …): each is listed here in
//!   [`SKIPS`] so that nothing is left out unnoticed.
//!
//! `weft` is on the `PATH` (the documents assume it is, after `export
//! PATH=$PWD/target/release:$PATH`). `cargo` inside a block is a shell function: `cargo build` of this workspace does nothing
//! (the test built it), `cargo run -p P [--bin B] -- ARGS` runs the built binary, and anything
//! else fails the block. `sudo` and `apt-get install` only check that the named packages are
//! installed.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// The reasons blocks may be left out for, by document (each must be used).
const SKIPS: &[(&str, &str)] = &[
    ("README.md", "run by .ci/run"),
    (
        "docs/correlation.md",
        "needs SimX built from Vortex's sources",
    ),
    ("docs/debugging.md", "a waveform viewer with a window"),
    ("docs/display.md", "regenerates a committed file"),
    ("docs/experiments.md", "needs a Slurm cluster"),
    ("docs/reliability.md", "takes hours"),
    ("docs/reliability.md", "a slice of the test suite"),
    ("docs/rtl.md", "a slice of the test suite"),
    ("docs/rtl.md", "regenerates a committed file"),
    ("docs/rtl.md", "synthesis takes 20 to 80 minutes"),
    ("docs/rtl.md", "needs the board"),
    // Benchmarks take minutes and print this machine's figures; the README's block runs
    // `weft bench` and `weft bench --timing`.
    ("docs/performance.md", "a benchmark"),
    // scripts/test builds the package into its own environment and python/tests runs
    // examples/python/examples.py.
    ("docs/runtime.md", "builds the Python package"),
    // python/tests/test_docs.py runs docs/python.md's walkthrough in the package's venv.
    ("docs/python.md", "builds the Python package"),
    // ocl-icd reads its vendors from /etc; crates/opencl/tests runs a program through it.
    ("docs/opencl.md", "writes the system's OpenCL vendors file"),
    // Vortex's sources are fetched, never part of the repository or CI.
    ("docs/opencl.md", "needs a Vortex checkout"),
];

#[derive(Debug)]
struct Block {
    line: usize,
    /// The line index of its closing fence.
    end: usize,
    script: String,
    expected: Option<String>,
    skip: Option<String>,
    /// A file to write instead of running (`doc-test: file NAME`).
    file: Option<String>,
}

/// The code blocks of a Markdown text that the harness acts on.
fn blocks(text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<Block> = Vec::new();
    let mut marker: Option<(String, String)> = None;
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i].trim_end();
        if let Some(m) = l
            .strip_prefix("<!-- doc-test: ")
            .and_then(|m| m.strip_suffix(" -->"))
        {
            let (kind, arg) = m.split_once(' ').unwrap_or((m, ""));
            marker = Some((kind.to_string(), arg.to_string()));
            i += 1;
            continue;
        }
        let Some(lang) = l.strip_prefix("```") else {
            if !l.is_empty() {
                marker = None;
            }
            i += 1;
            continue;
        };
        let start = i;
        let mut body = String::new();
        i += 1;
        while i < lines.len() && !lines[i].starts_with("```") {
            body.push_str(lines[i]);
            body.push('\n');
            i += 1;
        }
        i += 1;
        let m = marker.take();
        match (lang, m) {
            (_, Some((k, name))) if k == "file" => out.push(Block {
                line: start + 1,
                end: i - 1,
                script: body,
                expected: None,
                skip: None,
                file: Some(name),
            }),
            ("sh", m) => out.push(Block {
                line: start + 1,
                end: i - 1,
                script: body,
                expected: None,
                skip: m.filter(|(k, _)| k == "skip").map(|(_, r)| r),
                file: None,
            }),
            ("text", _) => {
                // Output of the ```sh block just before, if only blank lines are between.
                if let Some(prev) = out.last_mut().filter(|b| b.file.is_none()) {
                    let between = &lines[(prev.end + 1).min(start)..start];
                    if prev.expected.is_none() && between.iter().all(|l| l.trim().is_empty()) {
                        prev.expected = Some(body);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The shell functions every block runs with.
const PRELUDE: &str = r#"
set -eo pipefail
[ -f .doc-test-env ] && . ./.doc-test-env
trap 'export -p > "$DOC_DIR/.doc-test-env"' EXIT
cargo() {
    local cmd=$1; shift
    case "$cmd" in
    build)
        if [ -f Cargo.toml ] && grep -q '^members = \["weft-kernel"' Cargo.toml; then
            command cargo build "$@"   # device/rust: its own workspace, built for riscv32
        fi
        return 0 ;;
    run)
        local pkg="" bin="" args=()
        while [ $# -gt 0 ]; do
            case "$1" in
            -p) pkg=$2; shift 2 ;;
            --bin) bin=$2; shift 2 ;;
            --release|-q) shift ;;
            --) shift; args=("$@"); break ;;
            *) echo "doc-test: cargo run $1 is not understood here" >&2; return 97 ;;
            esac
        done
        "$DOC_TARGET/release/${bin:-$pkg}" "${args[@]}" ;;
    *)
        echo "doc-test: cargo $cmd is not run by the documentation test" >&2
        return 97 ;;
    esac
}
sudo() { "$@"; }
apt-get() {
    [ "$1" = install ] || { echo "doc-test: apt-get $1" >&2; return 97; }
    shift
    for p in "$@"; do
        case "$p" in -*) continue ;; esac
        dpkg -s "$p" >/dev/null 2>&1 || { echo "doc-test: package $p is not installed" >&2; return 1; }
    done
}
"#;

/// Lines of `got` match `want`: equal, with `...` lines matching any run of lines.
fn matches(want: &[&str], got: &[&str]) -> bool {
    match want.split_first() {
        None => got.is_empty(),
        Some((&"...", rest)) => (0..=got.len()).any(|k| matches(rest, &got[k..])),
        Some((w, rest)) => got
            .split_first()
            .is_some_and(|(g, grest)| g.trim_end() == w.trim_end() && matches(rest, grest)),
    }
}

/// A scratch folder with every top-level entry of the repository linked in, and `target`
/// linked to the build's target folder.
fn scratch(doc: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "weft-doc-{}-{}",
        doc.replace(['/', '.'], "-"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for e in std::fs::read_dir(repo()).unwrap() {
        let e = e.unwrap();
        let name = e.file_name();
        if name == "target" || name == ".git" {
            continue;
        }
        std::os::unix::fs::symlink(e.path(), dir.join(&name)).unwrap();
    }
    std::os::unix::fs::symlink(target(), dir.join("target")).unwrap();
    dir
}

/// The target folder of this build (`…/target`, above `release/weft`).
fn target() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_weft"))
        .parent()
        .and_then(Path::parent)
        .unwrap()
        .to_path_buf()
}

fn run_doc(doc: &str) {
    let text = std::fs::read_to_string(repo().join(doc)).unwrap();
    let dir = scratch(doc);
    let mut failures = Vec::new();
    let mut ran = 0;
    for b in blocks(&text) {
        let at = format!("{doc}:{}", b.line);
        if let Some(name) = &b.file {
            std::fs::write(dir.join(name), &b.script).unwrap();
            continue;
        }
        if let Some(reason) = &b.skip {
            assert!(
                SKIPS.contains(&(doc, reason.as_str())),
                "{at}: skipped for a reason SKIPS does not list: {reason:?}"
            );
            continue;
        }
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!("{PRELUDE}\n{}", b.script))
            .current_dir(&dir)
            .env("DOC_TARGET", target())
            .env("DOC_DIR", &dir)
            .env(
                "PATH",
                format!(
                    "{}:{}",
                    target().join("release").display(),
                    std::env::var("PATH").unwrap_or_default()
                ),
            )
            .output()
            .expect("bash runs");
        ran += 1;
        let mut got = String::from_utf8_lossy(&out.stdout).into_owned();
        got.push_str(&String::from_utf8_lossy(&out.stderr));
        if !out.status.success() {
            failures.push(format!(
                "{at}: the block failed ({}):\n{}\n--- output:\n{got}",
                out.status, b.script
            ));
            continue;
        }
        if let Some(want) = &b.expected {
            let w: Vec<&str> = want.lines().collect();
            let g: Vec<&str> = got.lines().collect();
            if !matches(&w, &g) {
                failures.push(format!(
                    "{at}: the output differs from the document's\n--- block:\n{}--- document:\n{want}--- output:\n{got}",
                    b.script
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // Every listed skip reason of this document is still used.
    for (d, reason) in SKIPS.iter().filter(|(d, _)| *d == doc) {
        assert!(
            text.contains(&format!("<!-- doc-test: skip {reason} -->")),
            "{d}: SKIPS lists {reason:?}, which the document no longer uses"
        );
    }
    let _ = ran;
}

macro_rules! docs {
    ($($name:ident => $path:expr),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                run_doc($path);
            }
        )*
        /// Every document is covered by a test above.
        #[test]
        fn every_document_is_checked() {
            let listed = [$($path),*];
            let mut docs = vec!["README.md".to_string()];
            for e in std::fs::read_dir(repo().join("docs")).unwrap() {
                let n = e.unwrap().file_name().to_string_lossy().into_owned();
                if n.ends_with(".md") {
                    docs.push(format!("docs/{n}"));
                }
            }
            for d in docs {
                assert!(listed.contains(&d.as_str()), "{d} has no test in doc_commands.rs");
            }
        }
    };
}

docs! {
    readme => "README.md",
    architecture => "docs/architecture.md",
    cli => "docs/cli.md",
    configuration => "docs/configuration.md",
    correlation => "docs/correlation.md",
    debugging => "docs/debugging.md",
    display => "docs/display.md",
    engine => "docs/engine.md",
    experiments => "docs/experiments.md",
    isa => "docs/isa.md",
    opencl => "docs/opencl.md",
    performance => "docs/performance.md",
    python => "docs/python.md",
    reconvergence => "docs/reconvergence.md",
    reliability => "docs/reliability.md",
    rtl => "docs/rtl.md",
    runtime => "docs/runtime.md",
    sp2a => "docs/sp2a.md",
    timing => "docs/timing.md",
    toolchain => "docs/toolchain.md",
    tutorial => "docs/tutorial.md",
    vortex => "docs/vortex.md",
    warp => "docs/warp.md",
}

#[test]
fn the_harness_reads_blocks_markers_and_outputs() {
    let doc = "intro\n<!-- doc-test: file a.c -->\n```c\nint x;\n```\n\n```sh\necho hi\n```\n\n```text\nhi\n```\n<!-- doc-test: skip needs the board -->\n```sh\nflash\n```\nprose\n```text\nnot output\n```\n```sh\nls\n```\n```c\nx\n```\n```text\nnot ls\n```\n";
    let b = blocks(doc);
    assert_eq!(b.len(), 4, "{b:?}");
    assert_eq!(
        b[3].expected, None,
        "a ```text after a ```c block is not ls's output"
    );
    assert_eq!(b[0].file.as_deref(), Some("a.c"));
    assert_eq!(b[1].expected.as_deref(), Some("hi\n"));
    assert_eq!(b[2].skip.as_deref(), Some("needs the board"));
    assert_eq!(b[2].expected, None);
    assert!(matches(&["a", "...", "z"], &["a", "b", "c", "z"]));
    assert!(matches(&["a", "...", "z"], &["a", "z"]));
    assert!(!matches(&["a", "z"], &["a", "b", "z"]));
}
