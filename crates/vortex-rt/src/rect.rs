//! Strided 3-D transfers (`vx_rect_info_t`, OpenCL's `*BufferRect` parameter block): a
//! region of `region[0]` bytes × `region[1]` rows × `region[2]` slices at an origin (bytes,
//! rows, slices) in a buffer and in the host memory (or the source buffer, for a copy), each
//! side with its own row and slice pitch (0: packed). Resolved here into the list of
//! contiguous runs the transfer moves — one run when both sides are packed.

use crate::error::{VxError, VxResult};

/// `vx_rect_info_t`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RectInfo {
    pub struct_size: usize,
    pub next: *const std::ffi::c_void,
    pub buffer_origin: [usize; 3],
    pub host_origin: [usize; 3],
    pub region: [usize; 3],
    pub buffer_row_pitch: usize,
    pub buffer_slice_pitch: usize,
    pub host_row_pitch: usize,
    pub host_slice_pitch: usize,
}

/// One contiguous run: offset in the buffer, offset on the host (or source) side, length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    pub buffer: u64,
    pub host: u64,
    pub len: u64,
}

/// A resolved rectangle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rect {
    pub runs: Vec<Run>,
    /// Bytes from the buffer's start the rectangle reaches.
    pub buffer_end: u64,
    /// Bytes from the host side's start the rectangle reaches.
    pub host_end: u64,
}

fn pitches(region: &[usize; 3], row: usize, slice: usize) -> VxResult<(u64, u64)> {
    let bad = || VxError::Invalid("rect pitches smaller than the region".into());
    let row = if row == 0 { region[0] } else { row } as u64;
    let slice = if slice == 0 {
        row.checked_mul(region[1] as u64).ok_or_else(bad)?
    } else {
        slice as u64
    };
    if row < region[0] as u64 || slice < row.saturating_mul(region[1] as u64) {
        return Err(bad());
    }
    Ok((row, slice))
}

fn offset(origin: &[usize; 3], row: u64, slice: u64, r: u64, s: u64) -> Option<u64> {
    (origin[2] as u64 + s)
        .checked_mul(slice)?
        .checked_add((origin[1] as u64 + r).checked_mul(row)?)?
        .checked_add(origin[0] as u64)
}

/// Resolve a rectangle.
pub fn resolve(info: &RectInfo) -> VxResult<Rect> {
    if info.struct_size < std::mem::size_of::<RectInfo>() {
        return Err(VxError::InvalidInfo("vx_rect_info_t".into()));
    }
    let reg = &info.region;
    if reg.contains(&0) {
        return Err(VxError::Invalid("an empty rect region".into()));
    }
    let (brow, bslice) = pitches(reg, info.buffer_row_pitch, info.buffer_slice_pitch)?;
    let (hrow, hslice) = pitches(reg, info.host_row_pitch, info.host_slice_pitch)?;
    let overflow = || VxError::Invalid("rect offsets overflow".into());
    let len = reg[0] as u64;
    let packed = |row: u64, slice: u64| row == len && slice == len * reg[1] as u64;
    let mut runs = Vec::new();
    if packed(brow, bslice) && packed(hrow, hslice) {
        runs.push(Run {
            buffer: offset(&info.buffer_origin, brow, bslice, 0, 0).ok_or_else(overflow)?,
            host: offset(&info.host_origin, hrow, hslice, 0, 0).ok_or_else(overflow)?,
            len: len * reg[1] as u64 * reg[2] as u64,
        });
    } else {
        for s in 0..reg[2] as u64 {
            for r in 0..reg[1] as u64 {
                runs.push(Run {
                    buffer: offset(&info.buffer_origin, brow, bslice, r, s).ok_or_else(overflow)?,
                    host: offset(&info.host_origin, hrow, hslice, r, s).ok_or_else(overflow)?,
                    len,
                });
            }
        }
    }
    let end = |f: fn(&Run) -> u64| runs.iter().map(|x| f(x) + x.len).max().unwrap_or(0);
    Ok(Rect {
        buffer_end: end(|x| x.buffer),
        host_end: end(|x| x.host),
        runs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(region: [usize; 3]) -> RectInfo {
        RectInfo {
            struct_size: std::mem::size_of::<RectInfo>(),
            next: std::ptr::null(),
            buffer_origin: [0; 3],
            host_origin: [0; 3],
            region,
            buffer_row_pitch: 0,
            buffer_slice_pitch: 0,
            host_row_pitch: 0,
            host_slice_pitch: 0,
        }
    }

    #[test]
    fn a_packed_rect_is_one_run() {
        let r = resolve(&info([16, 4, 2])).unwrap();
        assert_eq!(
            r.runs,
            vec![Run {
                buffer: 0,
                host: 0,
                len: 128
            }]
        );
        assert_eq!((r.buffer_end, r.host_end), (128, 128));
    }

    #[test]
    fn a_strided_rect_is_one_run_per_row() {
        // A 3 × 2 block of 4-byte elements at (column 1, row 2) of a 10-wide matrix of
        // 4-byte elements, read into a packed host array.
        let mut i = info([12, 2, 1]);
        i.buffer_origin = [4, 2, 0];
        i.buffer_row_pitch = 40;
        let r = resolve(&i).unwrap();
        let runs: Vec<_> = r.runs.iter().map(|x| (x.buffer, x.host, x.len)).collect();
        assert_eq!(runs, vec![(84, 0, 12), (124, 12, 12)]);
        assert_eq!((r.buffer_end, r.host_end), (136, 24));
    }

    #[test]
    fn bad_rects_are_refused() {
        assert!(resolve(&info([0, 1, 1])).is_err());
        let mut i = info([16, 2, 1]);
        i.host_row_pitch = 8;
        assert!(resolve(&i).is_err(), "pitch below the row");
        let mut i = info([16, 2, 1]);
        i.struct_size = 8;
        assert!(matches!(resolve(&i), Err(VxError::InvalidInfo(_))));
    }
}
