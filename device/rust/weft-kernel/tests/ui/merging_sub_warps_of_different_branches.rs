// Inside a branch nested in the `big` lanes, merging the inner branch's taken half with the
// outer branch's other half: the two do not make up a warp.
use weft_kernel::warp::{merge, All, Warp};

fn kernel(mut w: Warp<All>, x: u32) -> u32 {
    w.diverge(x > 3, |mut big, small| {
        big.run(|big| big.diverge(x > 9, |huge, _medium| (merge(huge, small), 1)));
        todo!()
    })
}

fn main() {}
