//! Vortex's IPDOM stack for `split`/`join` (vortex-compat.md): pure bookkeeping on masks and
//! pcs, separate from weft's own divergence stack (`divergence.rs`).

use weft_isa::FaultCode;

/// One Vortex IPDOM stack entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IpdomEntry {
    /// The mask before the split.
    pub orig_mask: u32,
    /// The pc after the split (where the else group re-executes the branch).
    pub else_pc: u32,
    /// True once the else group has run.
    pub fallthrough: bool,
}

/// Vortex's `split`: returns the new mask and pushes an entry if the predicate diverges;
/// `token` receives the depth before any push. The warp continues with the smaller group
/// (the then group on a tie).
pub fn vx_split(
    stack: &mut Vec<IpdomEntry>,
    limit: usize,
    mask: u32,
    pred: u32,
    pc: u32,
) -> Result<(u32, u32), FaultCode> {
    let token = stack.len() as u32;
    let then = mask & pred;
    let els = mask & !pred;
    if then == 0 || els == 0 {
        return Ok((mask, token));
    }
    if stack.len() >= limit {
        return Err(FaultCode::IpdomOverflow);
    }
    stack.push(IpdomEntry {
        orig_mask: mask,
        else_pc: pc.wrapping_add(4),
        fallthrough: false,
    });
    let next = if els.count_ones() < then.count_ones() {
        els
    } else {
        then
    };
    Ok((next, token))
}

/// What a Vortex `join` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinOutcome {
    /// The matching split was uniform: nothing happens.
    Uniform,
    /// Run the else group: set the mask and jump back to the branch after the split.
    Else {
        /// The else lanes.
        mask: u32,
        /// Where they re-execute the branch.
        pc: u32,
    },
    /// Both groups ran: restore the mask and fall through.
    Pop {
        /// The mask before the split.
        mask: u32,
    },
}

/// Vortex's `join` with `token` (the depth `split` returned).
pub fn vx_join(
    stack: &mut Vec<IpdomEntry>,
    mask: u32,
    token: u32,
) -> Result<JoinOutcome, FaultCode> {
    if token as usize == stack.len() {
        return Ok(JoinOutcome::Uniform);
    }
    let top = stack.last_mut().ok_or(FaultCode::IpdomUnderflow)?;
    if !top.fallthrough {
        top.fallthrough = true;
        Ok(JoinOutcome::Else {
            mask: top.orig_mask & !mask,
            pc: top.else_pc,
        })
    } else {
        let e = stack.pop().ok_or(FaultCode::IpdomUnderflow)?;
        Ok(JoinOutcome::Pop { mask: e.orig_mask })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vortex_split_join() {
        let mut st = Vec::new();
        let (m, tok) = vx_split(&mut st, 4, 0xf, 0x1, 0x100).unwrap();
        assert_eq!((m, tok), (0x1, 0)); // smaller group first
        assert_eq!(
            vx_join(&mut st, m, tok),
            Ok(JoinOutcome::Else {
                mask: 0xe,
                pc: 0x104
            })
        );
        assert_eq!(
            vx_join(&mut st, 0xe, tok),
            Ok(JoinOutcome::Pop { mask: 0xf })
        );
        assert!(st.is_empty());
        let (m, tok) = vx_split(&mut st, 4, 0xf, 0xf, 0x100).unwrap();
        assert_eq!((m, tok), (0xf, 0));
        assert_eq!(vx_join(&mut st, m, tok), Ok(JoinOutcome::Uniform));
    }
}
