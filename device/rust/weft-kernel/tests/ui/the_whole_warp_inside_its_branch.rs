// Using the converged warp inside one of its own branches: `branch` holds the warp until the
// branch rejoins.
use weft_kernel::warp::{All, Warp};

fn kernel(mut w: Warp<All>, x: u32) -> u32 {
    w.branch(x > 3, |_taken| w.ballot(true), |_not_taken| 0)
}

fn main() {}
