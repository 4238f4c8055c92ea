// A diverge body must give back its two halves merged: returning without merging them does
// not rejoin the warp.
use weft_kernel::warp::{All, Warp};

fn kernel(mut w: Warp<All>, x: u32) -> u32 {
    w.diverge(x > 3, |_big, _small| ((), 0))
}

fn main() {}
