//! Warp-level programming with the warp's convergence in the types (docs/warp.md).
//!
//! A kernel launched with [`launch_warps`](crate::launch_warps) gets a [`Warp<All>`]: a token
//! that says every lane of the warp is running. The collectives — shuffles, votes, reductions,
//! scans — are methods of a converged warp only. Branching on a per-lane predicate goes
//! through the warp: [`Warp::branch`] runs one closure on the lanes where the predicate holds
//! and another on the rest, each given a sub-warp ([`Taken`] or [`NotTaken`]) that has no
//! collectives, and the warp is whole again when `branch` returns — the convergence point.
//! [`Warp::diverge`] hands both sub-warps to one closure, which must [`merge`] them (and only
//! the two of this branch) to leave it.
//!
//! What does not compile, and why:
//! - a collective on a sub-warp: `Taken<'b, All>` does not implement [`Converged`];
//! - keeping a sub-warp past its branch: a sub-warp carries its branch's lifetime `'b`, which
//!   ends with the closure;
//! - merging sub-warps of different branches: [`merge`] wants two halves of the same `'b`;
//! - using the whole warp inside its own branch: `branch` holds it (`&mut self`).
//!
//! The types cost nothing: a warp is a zero-sized token, a sub-warp one `bool` the branch
//! already has, and the collectives are the same instructions written by hand (`vote`,
//! `shfl`; a test compares). What the types cannot see is an ordinary `if` on a per-lane
//! value around a collective: keep per-lane control flow that contains collectives inside
//! `branch`. (C kernels get a run-time check instead: weft.h's `_sync` masks, SYNC_MASK.)
//!
//! On targets other than weft's (the host, where the compile-fail tests run) a warp is one
//! lane wide.

use core::marker::PhantomData;

/// Which lanes of a warp run: the parameter of [`Warp`].
pub trait ActiveSet: sealed::Sealed {}

/// Every lane of the warp: the warp is converged.
pub struct All;

/// The lanes of a [`Warp::branch`] or [`Warp::diverge`] where the predicate holds, within the
/// lanes `S`; `'b` is that branch.
pub struct Taken<'b, S>(PhantomData<(Brand<'b>, S)>);

/// The other lanes of that branch.
pub struct NotTaken<'b, S>(PhantomData<(Brand<'b>, S)>);

/// An invariant lifetime: a sub-warp of one branch never passes for one of another.
type Brand<'b> = fn(&'b ()) -> &'b ();

impl ActiveSet for All {}
impl<S: ActiveSet> ActiveSet for Taken<'_, S> {}
impl<S: ActiveSet> ActiveSet for NotTaken<'_, S> {}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::All {}
    impl<S> Sealed for super::Taken<'_, S> {}
    impl<S> Sealed for super::NotTaken<'_, S> {}
}

/// The active sets on which collectives exist: only [`All`].
#[diagnostic::on_unimplemented(
    message = "`Warp<{Self}>` is a diverged sub-warp: warp collectives need the converged warp `Warp<All>`",
    label = "this collective would read lanes that are not running",
    note = "inside `branch` or `diverge` only some lanes run; shuffles, votes and reductions read every lane",
    note = "call it after the branch, on the `Warp<All>` it returns to"
)]
pub trait Converged: ActiveSet {}
impl Converged for All {}

/// A warp in the state `S`. `Warp<All>` has the collectives; sub-warps can only branch further.
pub struct Warp<S: ActiveSet> {
    /// For a sub-warp: is this lane one of its lanes? (Always true for `All`.)
    member: bool,
    _s: PhantomData<S>,
}

/// Proof that both halves of the branch `'b` were merged: what a [`Warp::diverge`] body
/// returns.
pub struct Merged<'b, S>(PhantomData<(Brand<'b>, S)>);

/// Rejoin the two halves of one branch at its convergence point.
pub fn merge<'b, S: ActiveSet>(
    taken: Warp<Taken<'b, S>>,
    not_taken: Warp<NotTaken<'b, S>>,
) -> Merged<'b, S> {
    let _ = (taken, not_taken);
    Merged(PhantomData)
}

impl Warp<All> {
    /// The converged warp at the start of a kernel.
    ///
    /// # Safety
    /// Every lane of the warp must be running this code, together: the start of a kernel
    /// launched over whole warps (what [`launch_warps`](crate::launch_warps) gives).
    pub unsafe fn assume_converged() -> Warp<All> {
        Warp {
            member: true,
            _s: PhantomData,
        }
    }
}

impl<S: ActiveSet> Warp<S> {
    fn sub<T: ActiveSet>(member: bool) -> Warp<T> {
        Warp {
            member,
            _s: PhantomData,
        }
    }

    /// Lanes per warp (warpSize).
    #[inline(always)]
    pub fn size(&self) -> u32 {
        arch::lanes()
    }

    /// This lane's index in the warp.
    #[inline(always)]
    pub fn lane(&self) -> u32 {
        arch::lane()
    }

    /// if/else on a per-lane predicate: `taken` runs on the lanes where `pred` holds, with
    /// their sub-warp, `not_taken` on the others; each lane gets the value of the side it ran.
    /// The warp is whole again when `branch` returns.
    #[inline(always)]
    pub fn branch<R>(
        &mut self,
        pred: bool,
        taken: impl for<'b> FnOnce(Warp<Taken<'b, S>>) -> R,
        not_taken: impl for<'b> FnOnce(Warp<NotTaken<'b, S>>) -> R,
    ) -> R {
        if pred {
            taken(Self::sub(true))
        } else {
            not_taken(Self::sub(true))
        }
    }

    /// Split the warp on `pred` into its two sub-warps, for a body that works with both and
    /// must [`merge`] them to return. The body runs on every lane of this warp; each sub-warp's
    /// [`run`](Warp::run) runs code on its own lanes only.
    #[inline(always)]
    pub fn diverge<R>(
        &mut self,
        pred: bool,
        body: impl for<'b> FnOnce(Warp<Taken<'b, S>>, Warp<NotTaken<'b, S>>) -> (Merged<'b, S>, R),
    ) -> R {
        body(Self::sub(pred), Self::sub(!pred)).1
    }
}

/// The two sides of a branch: the sub-warps that can [`run`](Warp::run) code on their lanes.
pub trait Side: ActiveSet {}
impl<S: ActiveSet> Side for Taken<'_, S> {}
impl<S: ActiveSet> Side for NotTaken<'_, S> {}

impl<S: Side> Warp<S> {
    /// Run `f` on this sub-warp's lanes (the others wait); `None` on the others.
    #[inline(always)]
    pub fn run<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> Option<R> {
        if self.member {
            Some(f(self))
        } else {
            None
        }
    }
}

/// A 32- or 64-bit value a shuffle can move.
pub trait Shuffle: Copy {
    /// Move through `op`, one 32-bit half at a time.
    #[doc(hidden)]
    fn through(self, op: impl Fn(u32) -> u32) -> Self;
}

macro_rules! shuffle32 {
    ($($t:ty),*) => {$(
        impl Shuffle for $t {
            #[inline(always)]
            fn through(self, op: impl Fn(u32) -> u32) -> Self {
                <$t>::from_ne_bytes(op(u32::from_ne_bytes(self.to_ne_bytes())).to_ne_bytes())
            }
        }
    )*};
}
shuffle32!(u32, i32, f32);

macro_rules! shuffle64 {
    ($($t:ty),*) => {$(
        impl Shuffle for $t {
            #[inline(always)]
            fn through(self, op: impl Fn(u32) -> u32) -> Self {
                let x = u64::from_ne_bytes(self.to_ne_bytes());
                let lo = op(x as u32) as u64;
                let hi = op((x >> 32) as u32) as u64;
                <$t>::from_ne_bytes((hi << 32 | lo).to_ne_bytes())
            }
        }
    )*};
}
shuffle64!(u64, i64, f64);

/// An integer a warp can reduce and scan (wrapping sums, as CUDA's `__reduce_add_sync`).
pub trait Reduce: Shuffle {
    /// `self + o`, wrapping.
    #[doc(hidden)]
    fn add(self, o: Self) -> Self;
    /// The smaller.
    #[doc(hidden)]
    fn min_of(self, o: Self) -> Self;
    /// The larger.
    #[doc(hidden)]
    fn max_of(self, o: Self) -> Self;
}

macro_rules! reduce {
    ($($t:ty),*) => {$(
        impl Reduce for $t {
            #[inline(always)]
            fn add(self, o: Self) -> Self { self.wrapping_add(o) }
            #[inline(always)]
            fn min_of(self, o: Self) -> Self { if o < self { o } else { self } }
            #[inline(always)]
            fn max_of(self, o: Self) -> Self { if o > self { o } else { self } }
        }
    )*};
}
reduce!(u32, i32, u64, i64);

/// The collectives: methods of every warp, callable only when it is converged (`S: Converged`,
/// that is `Warp<All>`), so that a call on a sub-warp names the reason.
impl<S: ActiveSet> Warp<S> {
    /// The value of `v` in lane `src` (CUDA's `__shfl_sync` over the whole warp; `src` is
    /// taken modulo 32, and a lane that does not exist gives the caller's own value).
    #[inline(always)]
    pub fn shuffle_idx<T: Shuffle>(&self, v: T, src: u32) -> T
    where
        S: Converged,
    {
        v.through(|x| arch::shfl::<7>(x, arch::WHOLE | (src & 31)))
    }

    /// The value of `v` in lane `lane − delta`, or the caller's own below lane 0
    /// (`__shfl_up_sync`).
    #[inline(always)]
    pub fn shuffle_up<T: Shuffle>(&self, v: T, delta: u32) -> T
    where
        S: Converged,
    {
        v.through(|x| arch::shfl::<4>(x, delta & 31))
    }

    /// The value of `v` in lane `lane + delta`, or the caller's own past the last lane
    /// (`__shfl_down_sync`).
    #[inline(always)]
    pub fn shuffle_down<T: Shuffle>(&self, v: T, delta: u32) -> T
    where
        S: Converged,
    {
        v.through(|x| arch::shfl::<5>(x, arch::WHOLE | (delta & 31)))
    }

    /// The value of `v` in lane `lane ^ mask` (`__shfl_xor_sync`).
    #[inline(always)]
    pub fn shuffle_xor<T: Shuffle>(&self, v: T, mask: u32) -> T
    where
        S: Converged,
    {
        v.through(|x| arch::shfl::<6>(x, arch::WHOLE | (mask & 31)))
    }

    /// A mask with bit `l` set where lane `l`'s `pred` holds (`__ballot_sync`).
    #[inline(always)]
    pub fn ballot(&self, pred: bool) -> u32 {
        arch::vote::<3>(pred)
    }

    /// Does `pred` hold in every lane?
    #[inline(always)]
    pub fn all(&self, pred: bool) -> bool
    where
        S: Converged,
    {
        arch::vote::<0>(pred) != 0
    }

    /// Does `pred` hold in some lane?
    #[inline(always)]
    pub fn any(&self, pred: bool) -> bool
    where
        S: Converged,
    {
        arch::vote::<1>(pred) != 0
    }

    /// Is `pred` the same in every lane?
    #[inline(always)]
    pub fn uniform(&self, pred: bool) -> bool
    where
        S: Converged,
    {
        arch::vote::<2>(pred) != 0
    }

    #[inline(always)]
    fn reduce<T: Reduce>(&self, v: T, op: impl Fn(T, T) -> T) -> T
    where
        S: Converged,
    {
        let n = self.size();
        if n.is_power_of_two() {
            let mut v = v;
            let mut k = 1;
            while k < n {
                v = op(v, self.shuffle_xor(v, k));
                k <<= 1;
            }
            v
        } else {
            let mut acc = self.shuffle_idx(v, 0);
            for j in 1..n {
                acc = op(acc, self.shuffle_idx(v, j));
            }
            acc
        }
    }

    /// The sum of `v` over the warp, in every lane (`__reduce_add_sync`; wrapping).
    #[inline(always)]
    pub fn reduce_add<T: Reduce>(&self, v: T) -> T
    where
        S: Converged,
    {
        self.reduce(v, T::add)
    }

    /// The minimum of `v` over the warp, in every lane.
    #[inline(always)]
    pub fn reduce_min<T: Reduce>(&self, v: T) -> T
    where
        S: Converged,
    {
        self.reduce(v, T::min_of)
    }

    /// The maximum of `v` over the warp, in every lane.
    #[inline(always)]
    pub fn reduce_max<T: Reduce>(&self, v: T) -> T
    where
        S: Converged,
    {
        self.reduce(v, T::max_of)
    }

    /// The sum of `v` over lanes 0 ..= this one (wrapping): log2(warpSize) shuffles up.
    #[inline(always)]
    pub fn inclusive_scan<T: Reduce>(&self, v: T) -> T
    where
        S: Converged,
    {
        let (n, lane) = (self.size(), self.lane());
        let mut v = v;
        let mut d = 1;
        while d < n {
            let o = self.shuffle_up(v, d);
            // (a per-lane choice with no collective in it: the lanes are together again
            // before the next shuffle)
            v = if lane >= d { v.add(o) } else { v };
            d <<= 1;
        }
        v
    }
}

/// weft's vote and shfl instructions (Vortex's encodings: custom-0, funct7 = 1).
#[cfg(target_arch = "riscv32")]
#[doc(hidden)]
pub mod arch {
    use core::arch::asm;

    /// A shuffle control word's segment fields for the whole warp: segmask 0, c = 31.
    pub const WHOLE: u32 = 31 << 6;

    /// The num_threads CSR.
    #[inline(always)]
    pub fn lanes() -> u32 {
        let n: u32;
        // SAFETY: reads a read-only CSR.
        unsafe { asm!("csrr {0}, 0xfc0", out(reg) n, options(pure, nomem, nostack)) };
        n
    }

    /// The thread_id CSR.
    #[inline(always)]
    pub fn lane() -> u32 {
        let n: u32;
        // SAFETY: reads a read-only CSR.
        unsafe { asm!("csrr {0}, 0xcc0", out(reg) n, options(pure, nomem, nostack)) };
        n
    }

    /// `vote.{all,any,uni,ballot} rd, pred, x0` (funct3 0-3) over the active lanes. Not
    /// `pure`: the compiler must not move it across control flow.
    #[inline(always)]
    pub fn vote<const F3: u32>(pred: bool) -> u32 {
        let r: u32;
        // SAFETY: a warp vote reads and writes registers only.
        unsafe {
            asm!(".insn r 0x0B, {f3}, 1, {rd}, {p}, x0", f3 = const F3, rd = out(reg) r,
                 p = in(reg) pred as u32, options(nomem, nostack))
        };
        r
    }

    /// `shfl.{up,down,bfly,idx} rd, v, ctl` (funct3 4-7).
    #[inline(always)]
    pub fn shfl<const F3: u32>(v: u32, ctl: u32) -> u32 {
        let r: u32;
        // SAFETY: a warp shuffle reads and writes registers only.
        unsafe {
            asm!(".insn r 0x0B, {f3}, 1, {rd}, {v}, {c}", f3 = const F3, rd = out(reg) r,
                 v = in(reg) v, c = in(reg) ctl, options(nomem, nostack))
        };
        r
    }
}

/// A warp of one lane, on targets other than weft's.
#[cfg(not(target_arch = "riscv32"))]
#[doc(hidden)]
pub mod arch {
    pub const WHOLE: u32 = 31 << 6;
    pub fn lanes() -> u32 {
        1
    }
    pub fn lane() -> u32 {
        0
    }
    pub fn vote<const F3: u32>(pred: bool) -> u32 {
        match F3 {
            2 => 1,
            _ => pred as u32,
        }
    }
    pub fn shfl<const F3: u32>(v: u32, _ctl: u32) -> u32 {
        v
    }
}
