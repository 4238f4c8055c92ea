//! The memory side of a super-step over several warps (docs/engine.md § Memory in
//! super-steps over several warps): which warps read and wrote each DRAM word during the
//! step, checked at every access so that no warp ever writes a word another warp read or
//! wrote in the step, or reads a word another warp wrote (such an access is refused: the
//! warp's run stops before it); and, per warp, an undo log of the old contents of every word
//! it stored, to take its run back (a share run again for a lower T, or the whole step given
//! up).
//!
//! While that holds, the accesses of different warps touch different words except for
//! reads of words nobody writes, so the memory each warp sees and the memory left at the end
//! do not depend on the order in which the warps' instructions ran: running each warp's share
//! at once is the interpreter's interleaving. The records are kept at word granularity (a
//! grid-stride loop, whose warps' ranges interleave but whose words never meet, stays in
//! super-steps) and only grow during a step: what a share run again no longer does stays
//! recorded, which can only refuse more.

/// Words per shadow page (one entry per DRAM word of a 64 KiB page).
const PAGE_WORDS_BITS: u32 = 14;

/// No warp (in the writer or reader field of an entry).
const NONE: u32 = 0xff;

/// Several warps read the word.
const MANY: u32 = 0xfe;

/// Most words the undo logs of one step hold together (8 MiB): a store beyond it is refused
/// (the warp's run stops there, as at any refusal).
const UNDO_CAP: usize = 1 << 20;

/// Most warps a step may record (warp indices 0 … `MAX_WARPS − 1`; `NONE` and `MANY` are
/// the two values above).
pub(crate) const MAX_WARPS: usize = 0xfe;

/// What [`StepMem::write_span`] says of a store.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Write {
    /// Another warp of the step read or wrote one of the words (or the logs are full).
    Refused,
    /// Allowed: log the old words.
    Log,
    /// Allowed, and the warp's log holds these words already.
    Logged,
}

/// Spans a warp remembers having read ([`Recent::reads`]; a power of two).
const READ_SPANS: usize = 64;

/// A warp's spans in a step: the last it wrote, (first address, words; 0 words for none),
/// and a direct-mapped table of spans it read, each (first address, the step's epoch × 256
/// + words): an entry of another epoch is empty.
#[derive(Clone)]
struct Recent {
    reads: Box<[(u32, u32); READ_SPANS]>,
    write: (u32, usize),
}

impl Default for Recent {
    fn default() -> Recent {
        Recent {
            reads: Box::new([(0, 0); READ_SPANS]),
            write: (0, 0),
        }
    }
}

/// The slot of a read span starting at `a` in [`Recent::reads`]: the word index folded onto
/// itself, so that the spans of a strided walk (a matrix's rows, a grid-stride loop's
/// chunks: strides of 4 B to 2 KiB) land in different slots (a multiplicative hash put 32
/// rows 128 B apart in 17 of 64 slots, and a loop over them missed 4 times in 5).
#[inline(always)]
fn read_slot(a: u32) -> usize {
    let w = a >> 2;
    let w = w ^ w >> 6;
    (w ^ w >> 12) as usize & (READ_SPANS - 1)
}

/// Per-step access records and undo logs, kept by the machine across steps (the pages and
/// logs are reused).
pub(crate) struct StepMem {
    /// DRAM base and size (offsets index the shadow).
    base: u32,
    size: u32,
    /// Per DRAM page (64 KiB), one entry per word, allocated when first touched: the step's
    /// epoch (bits 16–31; an entry of another epoch is untouched in this step), the warp
    /// that wrote the word (bits 8–15, `NONE`), the warp that read it (bits 0–7, `NONE` or
    /// `MANY`).
    pages: Vec<Option<Box<[u32]>>>,
    epoch: u32,
    /// Per warp of the step: for each store of consecutive words, oldest first, their old
    /// contents, the first address and the number of words.
    undo: Vec<Vec<u32>>,
    /// Words in all undo logs.
    logged: usize,
    /// Per warp: the (address, words) of the span it last read and wrote in this step.
    recent: Vec<Recent>,
    /// Per warp: thread loads and stores done (booked when the step is).
    pub(crate) loads: Vec<u64>,
    pub(crate) stores: Vec<u64>,
}

impl StepMem {
    pub(crate) fn new(base: u32, size: u32) -> StepMem {
        let n = (size as usize).div_ceil(4 << PAGE_WORDS_BITS);
        StepMem {
            base,
            size,
            pages: vec![None; n],
            epoch: 0,
            undo: Vec::new(),
            recent: Vec::new(),
            logged: 0,
            loads: Vec::new(),
            stores: Vec::new(),
        }
    }

    /// Start a step over `warps` warps: nothing recorded, empty logs.
    pub(crate) fn begin(&mut self, warps: usize) {
        self.epoch += 1;
        if self.epoch > 0xffff {
            // The epoch field wrapped: forget every entry.
            for p in self.pages.iter_mut().flatten() {
                p.fill(0);
            }
            for r in &mut self.recent {
                r.reads.fill((0, 0));
            }
            self.epoch = 1;
        }
        for u in &mut self.undo {
            u.clear();
        }
        self.undo.resize_with(warps, Vec::new);
        self.logged = 0;
        // The read tables' entries carry the epoch: only the last writes need forgetting.
        self.recent.resize_with(warps, Recent::default);
        for r in &mut self.recent {
            r.write = (0, 0);
        }
        self.loads.clear();
        self.loads.resize(warps, 0);
        self.stores.clear();
        self.stores.resize(warps, 0);
    }

    /// The entry of the word at DRAM address `addr` (which must be a DRAM word).
    #[inline(always)]
    fn entry(&mut self, addr: u32) -> &mut u32 {
        let w = (addr.wrapping_sub(self.base) >> 2) as usize;
        let page = self.pages[w >> PAGE_WORDS_BITS]
            .get_or_insert_with(|| vec![0u32; 1 << PAGE_WORDS_BITS].into_boxed_slice());
        &mut page[w & ((1 << PAGE_WORDS_BITS) - 1)]
    }

    /// (writer, reader) of an entry in this step.
    #[inline(always)]
    fn fields(&self, e: u32) -> (u32, u32) {
        if e >> 16 == self.epoch {
            (e >> 8 & 0xff, e & 0xff)
        } else {
            (NONE, NONE)
        }
    }

    /// May warp `who` write the word of entry `e`? (No other warp read or wrote it.)
    #[inline(always)]
    fn may_write(&self, e: u32, who: u32) -> bool {
        let (w, r) = self.fields(e);
        (w == NONE || w == who) && (r == NONE || r == who)
    }

    #[inline(always)]
    fn with_writer(&self, e: u32, who: u32) -> u32 {
        let (_, r) = self.fields(e);
        self.epoch << 16 | who << 8 | r
    }

    /// Is every address a DRAM word this shadow covers? (The callers checked the memory's
    /// direct path already; this keeps the indexing in bounds whatever they pass.)
    #[inline(always)]
    fn covers(&self, addr: u32) -> bool {
        let d = addr.wrapping_sub(self.base);
        d & 3 == 0 && (d as u64) + 4 <= self.size as u64
    }

    /// The entries of the `n` words from DRAM address `a`, if they lie in one shadow page.
    #[inline(always)]
    fn span(&mut self, a: u32, n: usize) -> Option<&mut [u32]> {
        let d = a.wrapping_sub(self.base);
        if d & 3 != 0 || d as u64 + 4 * n as u64 > self.size as u64 {
            return None;
        }
        let w = (d >> 2) as usize;
        let o = w & ((1 << PAGE_WORDS_BITS) - 1);
        if o + n > 1 << PAGE_WORDS_BITS {
            return None;
        }
        let page = self.pages[w >> PAGE_WORDS_BITS]
            .get_or_insert_with(|| vec![0u32; 1 << PAGE_WORDS_BITS].into_boxed_slice());
        Some(&mut page[o..o + n])
    }

    /// Record that warp `who` reads the `n` words from DRAM address `a`: false if another
    /// warp wrote one of them in this step (what was recorded before it stays; records only
    /// ever refuse more).
    #[inline]
    pub(crate) fn read_span(&mut self, who: usize, a: u32, n: usize) -> bool {
        if n == 1 && self.covers(a) {
            return self.read_word(who as u32, a);
        }
        // A span the warp read in this step already, or the one it last wrote (a loop's
        // access, again): nobody else wrote it since (that write would have been refused),
        // so nothing changes.
        let recent = &self.recent[who];
        let (slot, tag) = (read_slot(a), self.epoch << 8 | n as u32);
        if recent.reads[slot] == (a, tag) || (a, n) == recent.write {
            return true;
        }
        let (epoch, w_who) = (self.epoch, who as u32);
        let Some(es) = self.span(a, n) else {
            return self.read(who, || (0..n as u32).map(|l| a.wrapping_add(4 * l)));
        };
        // Without branches, so that the loop is done on vectors. Marking as it checks is
        // safe: a reader added to a word changes no writer, and only refuses more.
        let mut bad = 0u32;
        for e in es.iter_mut() {
            let v = *e;
            let cur = v >> 16 == epoch;
            let w = if cur { v >> 8 & 0xff } else { NONE };
            let r = if cur { v & 0xff } else { NONE };
            bad |= ((w != NONE) & (w != w_who)) as u32;
            let r = if (r == NONE) | (r == w_who) {
                w_who
            } else {
                MANY
            };
            *e = epoch << 16 | w << 8 | r;
        }
        if bad != 0 {
            return false;
        }
        if n <= 0xff {
            self.recent[who].reads[slot] = (a, tag);
        }
        true
    }

    /// [`StepMem::read_span`] of one DRAM word (`covers(a)`): a broadcast's, which walks
    /// through arrays (so the span table would only lose entries to it).
    #[inline(always)]
    fn read_word(&mut self, who: u32, a: u32) -> bool {
        let epoch = self.epoch;
        let e = self.entry(a);
        let v = *e;
        let (w, r) = if v >> 16 == epoch {
            (v >> 8 & 0xff, v & 0xff)
        } else {
            (NONE, NONE)
        };
        if w != NONE && w != who {
            return false;
        }
        let r = if r == NONE || r == who { who } else { MANY };
        *e = epoch << 16 | w << 8 | r;
        true
    }

    /// Record that warp `who` writes the `n` words from DRAM address `a` (the caller writes
    /// them if allowed): whether it may (not if another warp read or wrote one of them in this
    /// step, or the undo logs are full), and if so whether their old contents must go to its
    /// undo log (not when the warp wrote every one of them already in this step: its log
    /// holds them, and undoing restores the oldest). `None` (nothing recorded) if the words
    /// do not lie in one page: the caller records them one by one ([`StepMem::write`]).
    #[inline]
    pub(crate) fn write_span(&mut self, who: usize, a: u32, n: usize) -> Option<Write> {
        if (a, n) == self.recent[who].write {
            return Some(Write::Logged);
        }
        if self.logged + n > UNDO_CAP {
            return Some(Write::Refused);
        }
        let (epoch, w_who) = (self.epoch, who as u32);
        let es = self.span(a, n)?;
        // Check all, then mark (a refused write must not take another warp's place as the
        // writer of a word); without branches, so that the loops are done on vectors.
        let (mut bad, mut mine) = (0u32, 1u32);
        for &v in es.iter() {
            let cur = v >> 16 == epoch;
            let w = if cur { v >> 8 & 0xff } else { NONE };
            let r = if cur { v & 0xff } else { NONE };
            bad |= (((w != NONE) & (w != w_who)) | ((r != NONE) & (r != w_who))) as u32;
            mine &= (w == w_who) as u32;
        }
        if bad != 0 {
            return Some(Write::Refused);
        }
        if mine != 0 {
            return Some(Write::Logged);
        }
        for e in es.iter_mut() {
            let v = *e;
            let r = if v >> 16 == epoch { v & 0xff } else { NONE };
            *e = epoch << 16 | w_who << 8 | r;
        }
        Some(Write::Log)
    }

    /// Record that warp `who` reads the words at `addrs` (DRAM words): false if another warp
    /// wrote one of them in this step.
    pub(crate) fn read<I: Iterator<Item = u32>>(
        &mut self,
        who: usize,
        addrs: impl Fn() -> I,
    ) -> bool {
        let who = who as u32;
        // Lanes reading the word the lane before read (a broadcast) need no second look.
        let mut last = None;
        for a in addrs() {
            if last == Some(a) {
                continue;
            }
            last = Some(a);
            if !self.covers(a) || !self.read_word(who, a) {
                return false;
            }
        }
        true
    }

    /// Record that warp `who` writes the words at `addrs` (`n` of them; DRAM words the
    /// caller writes if allowed, logging each): false, and nothing recorded, if another warp
    /// read or wrote one of them in this step, or the undo logs are full.
    pub(crate) fn write<I: Iterator<Item = u32>>(
        &mut self,
        who: usize,
        n: usize,
        addrs: impl Fn() -> I,
    ) -> bool {
        if self.logged + n > UNDO_CAP {
            return false;
        }
        let who = who as u32;
        for a in addrs() {
            if !self.covers(a) {
                return false;
            }
            let e = *self.entry(a);
            if !self.may_write(e, who) {
                return false;
            }
        }
        for a in addrs() {
            let e = *self.entry(a);
            *self.entry(a) = self.with_writer(e, who);
        }
        true
    }

    /// Warp `who` overwrote the words from `addr` (consecutive), which held `old`.
    #[inline(always)]
    pub(crate) fn log(&mut self, who: usize, addr: u32, old: &[u32]) {
        let u = &mut self.undo[who];
        u.extend_from_slice(old);
        u.push(addr);
        u.push(old.len() as u32);
        self.logged += old.len();
        self.recent[who].write = (addr, old.len());
    }

    /// Forget the writer of the `n` words from DRAM address `a` (a write recorded, then not
    /// done; or undone).
    fn unmark(pages: &mut [Option<Box<[u32]>>], base: u32, epoch: u32, a: u32, n: usize) {
        let ws = (a.wrapping_sub(base) >> 2) as usize;
        for w in ws..ws + n {
            if let Some(Some(p)) = pages.get_mut(w >> PAGE_WORDS_BITS) {
                let e = &mut p[w & ((1 << PAGE_WORDS_BITS) - 1)];
                if *e >> 16 == epoch {
                    *e |= NONE << 8;
                }
            }
        }
    }

    /// A write [`StepMem::write_span`] allowed (`Write::Log`) could not be done after all:
    /// forget it.
    pub(crate) fn forget_write(&mut self, a: u32, n: usize) {
        Self::unmark(&mut self.pages, self.base, self.epoch, a, n);
    }

    /// Take back every store of warp `who` in this step (newest first), and its counts. Its
    /// records stay (a run again does a part of the same accesses).
    pub(crate) fn undo(&mut self, who: usize, mem: &mut weft_mem::Memory) {
        let log = &mut self.undo[who];
        let mut end = log.len();
        let epoch = self.epoch;
        while end >= 2 {
            let (a, n) = (log[end - 2], log[end - 1] as usize);
            let old = &log[end - 2 - n..end - 2];
            if !mem.store_words_fast(a, old) {
                for (l, &o) in old.iter().enumerate() {
                    mem.store_word_fast(a.wrapping_add(4 * l as u32), o);
                }
            }
            end -= 2 + n;
            self.logged -= n;
            // The words are back: nobody wrote them (a word the warp wrote is in its log, so
            // its writer mark goes with it).
            Self::unmark(&mut self.pages, self.base, epoch, a, n);
        }
        log.clear();
        self.recent[who].write = (0, 0);
        self.loads[who] = 0;
        self.stores[who] = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_mem::{MemConfig, Memory};

    fn store(s: &mut StepMem, m: &mut Memory, who: usize, a: u32, vals: &[u32]) -> Write {
        let w = s.write_span(who, a, vals.len()).unwrap();
        if w == Write::Log {
            let mut old = vec![0; vals.len()];
            assert!(m.load_words_fast(a, &mut old));
            s.log(who, a, &old);
        }
        if w != Write::Refused {
            assert!(m.store_words_fast(a, vals));
        }
        w
    }

    #[test]
    fn conflicts_refuse_and_undo_restores_the_oldest_contents() {
        let cfg = MemConfig::default();
        let mut m = Memory::new(cfg.clone()).unwrap();
        let a = cfg.dram_base + 0x100;
        m.store_words_fast(a, &[1, 2, 3, 4]);
        let mut s = StepMem::new(cfg.dram_base, cfg.dram_size);
        s.begin(3);
        assert!(s.read_span(1, a + 12, 1));
        assert_eq!(store(&mut s, &mut m, 0, a + 0x40, &[5]), Write::Log);
        assert_eq!(store(&mut s, &mut m, 0, a, &[5, 6]), Write::Log);
        assert_eq!(store(&mut s, &mut m, 0, a, &[7, 8]), Write::Logged);
        // Warp 1 may not read what warp 0 wrote, nor warp 2 write it or what warp 1 read.
        assert!(!s.read_span(1, a + 0x40, 1));
        assert_eq!(store(&mut s, &mut m, 2, a, &[9]), Write::Refused);
        assert_eq!(store(&mut s, &mut m, 2, a + 12, &[9]), Write::Refused);
        // Two warps reading one word is no conflict; a write to it then is.
        assert!(s.read_span(2, a + 12, 1));
        assert_eq!(store(&mut s, &mut m, 1, a + 12, &[9]), Write::Refused);
        // Undone, run again and undone again: the first contents come back.
        s.undo(0, &mut m);
        assert_eq!(m.load_word_fast(a), Some(1));
        assert_eq!(store(&mut s, &mut m, 0, a, &[7, 8]), Write::Log);
        s.undo(0, &mut m);
        let mut back = [0; 4];
        assert!(m.load_words_fast(a, &mut back));
        assert_eq!(back, [1, 2, 3, 4]);
        assert_eq!(m.load_word_fast(a + 0x40), Some(0));
        // Undone words have no writer any more: another warp may take them.
        assert_eq!(store(&mut s, &mut m, 2, a, &[3]), Write::Log);
        assert!(!s.read_span(1, a, 1));
        // A new step forgets the records; a refused write leaves the word's writer alone.
        s.begin(3);
        assert_eq!(store(&mut s, &mut m, 2, a + 12, &[9]), Write::Log);
        assert_eq!(store(&mut s, &mut m, 0, a + 8, &[9, 9]), Write::Refused);
        assert!(!s.read_span(0, a + 12, 1));
    }
}
