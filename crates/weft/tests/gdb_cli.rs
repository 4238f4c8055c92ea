//! `weft run --gdb`: a real gdb-multiarch session, in batch mode, against a C kernel built with
//! `weft cc -g`: break in one side of a divergent branch, read the thread mask and divergence
//! stack, switch lanes and print a variable, step, watch a memory word, write memory, stop at
//! a fault, and run to the end. Expected values come from the kernel's meaning (thread *t*
//! computes `t * 3` or `t + 100`), not from an earlier run. gdb-multiarch is required: CI
//! installs it (.ci/run); without it these tests fail with a message.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

const KERNEL: &str = r#"#include <weft.h>
#include <stdint.h>

static uint32_t out[64];

static void kernel(void *p) {
    uint32_t *o = p;
    uint32_t t = weft_global_thread();
    uint32_t v;
    if (t & 1) {
        v = t * 3;          /* line 11: the odd lanes */
    } else {
        v = t + 100;
    }
    if (t == 45) {
        o = (uint32_t *)0x10;
    }
    o[t] = v;
}

int main(void) {
    weft_launch(weft_dim3(3, 1, 1), weft_dim3(16, 1, 1), kernel, out);
    uint32_t sum = 0;
    for (int i = 0; i < 32; i++) sum += out[i];
    weft_printf("sum %u\n", sum);
    return 0;
}
"#;

fn gdb_multiarch() -> &'static str {
    let ok = Command::new("gdb-multiarch")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    assert!(
        ok,
        "gdb-multiarch is not installed: these tests need it (apt-get install gdb-multiarch; \
         .ci/run installs it)"
    );
    "gdb-multiarch"
}

/// Build the kernel with `weft cc -g -O0`; with `grid` blocks (3 reach thread 45 and fault).
fn build(dir: &Path, grid: u32) -> String {
    let src = dir.join("k.c");
    std::fs::write(
        &src,
        KERNEL.replace("weft_dim3(3,", &format!("weft_dim3({grid},")),
    )
    .unwrap();
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
    elf.to_string_lossy().into_owned()
}

/// Start `weft run ELF --gdb 127.0.0.1:0` and read the port it listens on from stderr.
fn start(elf: &str) -> (Child, String, BufReader<std::process::ChildStderr>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(["run", elf, "--gdb", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    let addr = line
        .split_whitespace()
        .find(|w| w.starts_with("127.0.0.1:"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    (child, addr, err)
}

/// Run a gdb batch script against the stub; gdb's output, weft's status, stdout and stderr.
fn session(elf: &str, script: &str) -> (String, i32, String, String) {
    let gdb = gdb_multiarch();
    let (mut child, addr, mut err) = start(elf);
    let dir = Path::new(elf).parent().unwrap();
    let path = dir.join("s.gdb");
    let text = format!(
        "set pagination off\nset confirm off\nset architecture riscv:rv32\nfile {elf}\n\
         target remote {addr}\n{script}"
    );
    std::fs::write(&path, text).unwrap();
    let out = Command::new(gdb)
        .args(["-nx", "-batch", "-x"])
        .arg(&path)
        .output()
        .unwrap();
    let gdb_out =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let status = child.wait().unwrap();
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut stdout).unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut err, &mut stderr).unwrap();
    (gdb_out, status.code().unwrap_or(-1), stdout, stderr)
}

/// The value thread `t` stores.
fn value(t: u32) -> u32 {
    if t & 1 == 1 {
        t * 3
    } else {
        t + 100
    }
}

#[test]
fn break_in_a_divergent_branch_switch_lanes_print_step_and_run_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let elf = build(dir.path(), 2);
    let script = "\
break k.c:11
continue
monitor mask
monitor stack
monitor lane 3
maintenance flush register-cache
print t
next
print v
monitor lane 5
maintenance flush register-cache
print v
info threads
monitor csr
delete
continue
";
    let (g, status, stdout, stderr) = session(&elf, script);
    assert!(g.contains("hit Breakpoint 1, kernel"), "{g}");
    assert!(g.contains("k.c:11"), "{g}");
    // The first warp to reach the odd side: lanes 1, 3, 5, 7 of warp 0.
    assert!(g.contains("thread mask 0xaa"), "{g}");
    assert!(
        g.contains("saved 0xff"),
        "the if/else entry saves every lane: {g}"
    );
    assert!(g.contains("$1 = 3\n"), "lane 3 is thread 3: {g}");
    assert!(g.contains(&format!("$2 = {}\n", value(3))), "{g}");
    assert!(g.contains(&format!("$3 = {}\n", value(5))), "{g}");
    assert!(g.contains("core 0 warp 1"), "warps are threads: {g}");
    assert!(g.contains("tmask           0x000000aa"), "{g}");
    assert!(g.contains("exited normally"), "{g}");
    let sum: u32 = (0..32).map(value).sum();
    assert_eq!(status, 0, "{stderr}");
    assert!(stdout.contains(&format!("sum {sum}")), "{stdout}");
}

#[test]
fn a_watchpoint_memory_write_and_a_fault_stop_the_run_where_they_happen() {
    let dir = tempfile::tempdir().unwrap();
    let elf = build(dir.path(), 3);
    let script = "\
watch out[20]
continue
print out[20]
delete
set var out[2] = 1234
print out[2]
continue
monitor fault
monitor warp
continue
";
    let (g, status, _, stderr) = session(&elf, script);
    assert!(g.contains("Hardware watchpoint 1: out[20]"), "{g}");
    assert!(g.contains(&format!("New value = {}", value(20))), "{g}");
    assert!(g.contains(&format!("$1 = {}", value(20))), "{g}");
    assert!(g.contains("$2 = 1234"), "{g}");
    // Thread 45 stores to 0x10 + 45 * 4.
    assert!(g.contains("received signal SIGSEGV"), "{g}");
    assert!(g.contains("STORE_FAULT"), "{g}");
    assert!(
        g.contains(&format!("address {:#010x}", 0x10 + 45 * 4)),
        "{g}"
    );
    assert!(g.contains("faulted"), "{g}");
    assert!(g.contains("terminated with signal SIGSEGV"), "{g}");
    assert_eq!(
        status,
        128 + 4,
        "the run ends with the fault's status: {stderr}"
    );
    assert!(stderr.contains("STORE_FAULT"), "{stderr}");
}

#[test]
fn a_bad_gdb_address_is_one_clear_error() {
    for bad in ["nonsense", "127.0.0.1", "127.0.0.1:99999"] {
        let out = Command::new(env!("CARGO_BIN_EXE_weft"))
            .args(["run", "../../examples/matmul.s", "--gdb", bad])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(
            err.contains(&format!("--gdb {bad}: expected ADDR:PORT")),
            "{err}"
        );
    }
    // A port already taken.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(["run", "../../examples/matmul.s", "--gdb", &addr])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot listen"), "{err}");
}
