// A warp sum inside one side of a branch: only the lanes with x > 3 run there, so the sum
// would read lanes that are not running. The sub-warp has no collectives.
use weft_kernel::warp::{All, Warp};

fn kernel(mut w: Warp<All>, x: u32) -> u32 {
    w.branch(x > 3, |taken| taken.reduce_add(x), |_not_taken| 0)
}

fn main() {}
