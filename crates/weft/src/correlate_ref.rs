//! The reference counts `weft correlate` compares against, read from a file: a CSV table
//! (`kernel,instrs,cycles`, the form the repository commits its measured tables in), or a
//! log of `NAME RESULT … | PERF: instrs=N, cycles=M` lines (SimX's regression results as
//! tools/vortex's prepare.sh writes them; only PASS lines count). Another reference — the
//! RTL's lockstep counts — is one more reader here returning the same map.

use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// One kernel's counts on both sides.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// Kernel name.
    pub kernel: String,
    /// weft's warp-instructions.
    pub weft_instrs: u64,
    /// The reference's.
    pub ref_instrs: u64,
    /// weft's cycles.
    pub weft_cycles: u64,
    /// The reference's.
    pub ref_cycles: u64,
    /// (weft − reference) / reference, in percent.
    pub error_percent: f64,
}

/// Instructions and cycles of one kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Warp-instructions retired (all cores).
    pub instrs: u64,
    /// Cycles.
    pub cycles: u64,
}

/// The counts in a `PERF: instrs=N, cycles=M` line (anything after is ignored), if it is one.
pub fn perf_line(line: &str) -> Option<Counts> {
    let rest = line.trim_start().strip_prefix("PERF:")?.trim_start();
    let rest = rest.strip_prefix("instrs=")?;
    let (instrs, rest) = rest.split_once(',')?;
    let rest = rest.trim_start().strip_prefix("cycles=")?;
    let cycles: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some(Counts {
        instrs: instrs.trim().parse().ok()?,
        cycles: cycles.parse().ok()?,
    })
}

/// Read a reference file (either form), by kernel name.
pub fn read(path: &Path) -> Result<BTreeMap<String, Counts>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let first = text
        .lines()
        .find(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .unwrap_or("");
    let r = if first.starts_with("kernel,") {
        from_csv(&text)
    } else {
        from_perf_log(&text)
    };
    let map = r.map_err(|e| format!("{}: {e}", path.display()))?;
    if map.is_empty() {
        return Err(format!("{}: no counts", path.display()));
    }
    Ok(map)
}

/// A CSV table with the columns `kernel`, `instrs` and `cycles` (others are ignored; `#`
/// lines are comments).
pub fn from_csv(text: &str) -> Result<BTreeMap<String, Counts>, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
    let (_, header) = lines.next().ok_or("empty table")?;
    let cols: Vec<&str> = header.split(',').map(str::trim).collect();
    let col = |name: &str| {
        cols.iter()
            .position(|c| *c == name)
            .ok_or_else(|| format!("the header has no `{name}` column"))
    };
    let (k, i, c) = (col("kernel")?, col("instrs")?, col("cycles")?);
    let mut out = BTreeMap::new();
    for (n, line) in lines {
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        let field = |j: usize| {
            f.get(j).ok_or_else(|| {
                format!(
                    "line {}: {} fields, expected {}",
                    n + 1,
                    f.len(),
                    cols.len()
                )
            })
        };
        let num = |j: usize| -> Result<u64, String> {
            let v = field(j)?;
            v.parse()
                .map_err(|_| format!("line {}: `{v}` is not a count", n + 1))
        };
        let name = field(k)?.to_string();
        let counts = Counts {
            instrs: num(i)?,
            cycles: num(c)?,
        };
        if out.insert(name.clone(), counts).is_some() {
            return Err(format!("line {}: kernel {name} appears twice", n + 1));
        }
    }
    Ok(out)
}

/// Lines `NAME RESULT … | PERF: instrs=N, cycles=M`: the PASS ones, by NAME.
pub fn from_perf_log(text: &str) -> Result<BTreeMap<String, Counts>, String> {
    let mut out = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let Some((head, perf)) = line.split_once('|') else {
            continue;
        };
        let mut f = head.split_whitespace();
        let (Some(name), Some(result)) = (f.next(), f.next()) else {
            continue;
        };
        if result != "PASS" {
            continue;
        }
        if let Some(c) = perf_line(perf) {
            out.insert(name.to_string(), c);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perf_lines_and_both_file_forms_read() {
        assert_eq!(
            perf_line("PERF: instrs=416, cycles=1234, IPC=0.337"),
            Some(Counts {
                instrs: 416,
                cycles: 1234
            })
        );
        assert_eq!(perf_line("PERF: core0: instrs=1"), None);
        let log = "# header\nvecadd PASS 1.2 -n16 | PERF: instrs=416, cycles=1234, IPC=0.3\n\
                   bfs FAIL(rc=1) 0.3 | PERF: instrs=21, cycles=99\namo NOBUILD 0\n";
        let m = from_perf_log(log).unwrap();
        assert_eq!(m.len(), 1);
        assert_eq!(m["vecadd"].cycles, 1234);
        let csv = "# measured\nkernel,instrs,cycles,note\na,10,20,x\nb,30,40,\n";
        let m = from_csv(csv).unwrap();
        assert_eq!(
            m["b"],
            Counts {
                instrs: 30,
                cycles: 40
            }
        );
        assert!(from_csv("kernel,instrs\n").unwrap_err().contains("cycles"));
        assert!(from_csv("kernel,instrs,cycles\na,1,x\n")
            .unwrap_err()
            .contains("line 2"));
        assert!(from_csv("kernel,instrs,cycles\na,1,2\na,1,2\n")
            .unwrap_err()
            .contains("twice"));
    }
}
