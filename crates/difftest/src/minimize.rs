//! Delta debugging of a failing program: delete chunks of body blocks (halves, quarters, …,
//! single blocks) while the failure persists. The prologue and the dump epilogue are kept,
//! so every candidate is a complete program.

use crate::gen::TestProgram;

/// The smallest body found (1-minimal in blocks) for which `fails` still holds.
pub fn minimize(prog: &TestProgram, mut fails: impl FnMut(&TestProgram) -> bool) -> TestProgram {
    let mut cur = prog.clone();
    let mut chunk = cur.body.len().div_ceil(2).max(1);
    loop {
        let mut removed = false;
        let mut start = 0;
        while start < cur.body.len() {
            let end = (start + chunk).min(cur.body.len());
            let mut body = cur.body.clone();
            body.drain(start..end);
            let cand = cur.with_body(body);
            if fails(&cand) {
                cur = cand;
                removed = true;
            } else {
                start = end;
            }
        }
        if chunk == 1 && !removed {
            return cur;
        }
        if !removed {
            chunk = chunk.div_ceil(2);
        }
    }
}
