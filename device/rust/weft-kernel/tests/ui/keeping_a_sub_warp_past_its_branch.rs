// Keeping the taken lanes' sub-warp after the branch has rejoined: it would claim lanes that
// are no longer apart. A sub-warp lives only as long as its branch.
use weft_kernel::warp::{All, Warp};

fn kernel(mut w: Warp<All>, x: u32) {
    let mut kept = None;
    w.branch(x > 3, |taken| kept = Some(taken), |_not_taken| ());
    drop(kept);
}

fn main() {}
