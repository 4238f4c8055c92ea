//! The C ABI (`weft_runtime.h`) against random sequences of hostile calls, checked against a
//! model of what each must do: buffers allocated, freed twice, forged inside a block and
//! outside memory; copies of lengths far past a buffer, at offsets past its end, from and to
//! NULL; launches of unknown, NULL and non-UTF-8 names, zero and huge extents, impossible
//! argument blocks, kernels that fault or never end, queued several deep; waits with limits;
//! output and statistics into buffers of every size. Every call must return the code the model
//! expects (never a panic, which aborts the process at the C boundary), every failure must
//! carry a message and every success none, and every byte read back must be the byte last
//! written there — a silent wrong result is a finding.

use crate::Report;
use std::ffi::{c_char, CStr, CString};
use weft_difftest::rng::Rng;
use weft_runtime_c::{self as c, WeftBuffer, WeftDevice};

const OK: i32 = 0;
const OUT_OF_MEMORY: i32 = 1;
const BAD_ADDRESS: i32 = 2;
const NO_SUCH_KERNEL: i32 = 3;
const KERNEL_FAULT: i32 = 4;
const TIMEOUT: i32 = 5;
const KERNEL_EXIT: i32 = 7;
const LOAD: i32 = 8;
const ARGUMENT: i32 = 9;
const NOTHING_LAUNCHED: i32 = 10;

/// Block alignment of the runtime's allocator (`weft_runtime::alloc::ALIGN`).
const ALIGN: u64 = 64;

/// A buffer the campaign allocated: its contents as far as known (`None`: unknown).
struct Buf {
    b: WeftBuffer,
    /// The allocator's block: `b.len` rounded up to the alignment (at least one unit).
    block: u64,
    bytes: Vec<Option<u8>>,
}

/// What a queued launch will do when it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// `record` appends this value to the log.
    Record(u32),
    /// Runs and ends well, touching no buffer of the model.
    Quiet,
    /// Ends with this code.
    Fails(i32),
    /// `record` appends this value, then the launch ends with this code.
    RecordThen(u32, i32),
}

/// The campaign's device and its model.
struct Campaign {
    d: *mut WeftDevice,
    r: Rng,
    bufs: Vec<Buf>,
    freed: Vec<WeftBuffer>,
    queue: Vec<Outcome>,
    log: WeftBuffer,
    model_log: Vec<u32>,
    flag: WeftBuffer,
    scratch: WeftBuffer,
    rep: Report,
    elf: CString,
}

/// The runtime tests' kernels (`record`, `hello`, `faulty`, `forever`, …) built by `weft cc`.
pub fn build_kernels(root: &std::path::Path, dir: &std::path::Path) -> Result<CString, String> {
    let out = dir.join("kernels.elf");
    let o = weft_cc::Options {
        inputs: vec![root.join("crates/runtime/tests/kernels/kernels.c")],
        output: out.clone(),
        ..weft_cc::Options::default()
    };
    weft_cc::build(&o).map_err(|e| format!("building the kernels: {e}"))?;
    CString::new(out.to_string_lossy().as_bytes()).map_err(|e| e.to_string())
}

fn last_error(d: *const WeftDevice) -> String {
    // SAFETY: a live handle or null; the message is a NUL-terminated string.
    unsafe { CStr::from_ptr(c::weft_last_error(d)) }
        .to_string_lossy()
        .into_owned()
}

impl Campaign {
    /// Check a call's code against the codes the model allows, and the message against it.
    fn check(&mut self, what: &str, rc: i32, allowed: &[i32]) {
        self.rep.ops += 1;
        let msg = last_error(self.d);
        if !allowed.contains(&rc) {
            self.rep.find(format!(
                "{what}: returned {rc}, expected one of {allowed:?} (\"{msg}\")"
            ));
        }
        if (rc == OK) != msg.is_empty() {
            self.rep
                .find(format!("{what}: returned {rc} with the message \"{msg}\""));
        }
    }

    /// A size: mostly small, sometimes zero, large, or far past any buffer.
    fn size(&mut self) -> u64 {
        match self.r.below(10) {
            0 => 0,
            1 => self.r.below(1 << 20) as u64,
            2 => *self
                .r
                .pick(&[u32::MAX as u64, 1 << 40, u64::MAX >> 1, 1 << 32]),
            _ => self.r.below(300) as u64,
        }
    }

    /// A buffer to copy to or from: live, freed, forged inside a live block, or outside
    /// memory.
    fn pick_buffer(&mut self) -> WeftBuffer {
        let k = self.r.below(10);
        if k < 6 && !self.bufs.is_empty() {
            let i = self.r.below(self.bufs.len() as u32) as usize;
            return self.bufs[i].b;
        }
        if k < 8 && !self.bufs.is_empty() {
            // Forged: inside a live block (the runtime checks blocks, not handles).
            let i = self.r.below(self.bufs.len() as u32) as usize;
            let block = self.bufs[i].block as u32;
            let off = self.r.below(block);
            let len = self.r.below(block - off + 1);
            let b = WeftBuffer {
                addr: self.bufs[i].b.addr + off,
                len,
            };
            return b;
        }
        if k < 9 && !self.freed.is_empty() {
            return *self.r.pick(&self.freed);
        }
        let addr = *self
            .r
            .pick(&[0, 4, 0x1000, 0x7fff_fff0, 0xffff_ff00, 0xffff_fffc]);
        WeftBuffer {
            addr,
            len: self.r.u32(),
        }
    }

    /// The live block holding the `n` bytes at `off` of `b` (inside `b` too), as the runtime
    /// finds it; `Err(true)` when the model cannot tell (a zero-length copy at a block's end,
    /// where a block of the runtime's own may start).
    fn copy_block(&self, b: WeftBuffer, off: u64, n: u64) -> Result<usize, bool> {
        if off + n > b.len as u64 {
            return Err(false);
        }
        let start = b.addr as u64 + off;
        for (k, x) in self.bufs.iter().enumerate() {
            let (lo, hi) = (x.b.addr as u64, x.b.addr as u64 + x.block);
            if start >= lo && start + n <= hi {
                return if n == 0 && start == hi {
                    Err(true)
                } else {
                    Ok(k)
                };
            }
        }
        Err(false)
    }

    fn offset(&mut self, b: WeftBuffer) -> u32 {
        match self.r.below(6) {
            0 => 0,
            1 => b.len,
            2 => u32::MAX,
            3 => self.r.u32(),
            _ => self.r.below(b.len.saturating_add(1)),
        }
    }

    fn alloc(&mut self) {
        let bytes = match self.r.below(8) {
            0 => *self.r.pick(&[0, u32::MAX, u32::MAX - 63, 1 << 31]),
            1 => self.r.below(1 << 16),
            _ => self.r.below(256),
        };
        if self.r.chance(1, 20) {
            // SAFETY: a live handle; a NULL out is the hostile part.
            let rc = unsafe { c::weft_alloc(self.d, bytes, std::ptr::null_mut()) };
            return self.check("weft_alloc(out NULL)", rc, &[ARGUMENT]);
        }
        let mut b = WeftBuffer { addr: 0, len: 0 };
        // SAFETY: a live handle and a writable buffer record.
        let rc = unsafe { c::weft_alloc(self.d, bytes, &mut b) };
        let small = bytes <= 1 << 16 && self.bufs.len() < 200;
        self.check(
            &format!("weft_alloc({bytes})"),
            rc,
            if small { &[OK] } else { &[OK, OUT_OF_MEMORY] },
        );
        if rc == OK {
            if b.len != bytes || !(b.addr as u64).is_multiple_of(ALIGN) {
                self.rep
                    .find(format!("weft_alloc({bytes}) gave {:#x}+{}", b.addr, b.len));
            }
            let block = (bytes.max(1) as u64).div_ceil(ALIGN) * ALIGN;
            self.bufs.push(Buf {
                b,
                block,
                bytes: vec![None; block as usize],
            });
        }
    }

    fn free(&mut self) {
        let b = self.pick_buffer();
        // Only the address names the block: a forged buffer at a live block's start frees it.
        let at = self.bufs.iter().position(|x| x.b.addr == b.addr);
        // SAFETY: a live handle.
        let rc = unsafe { c::weft_free(self.d, b) };
        self.check(
            &format!("weft_free({:#x})", b.addr),
            rc,
            if at.is_some() { &[OK] } else { &[BAD_ADDRESS] },
        );
        if let (OK, Some(k)) = (rc, at) {
            let gone = self.bufs.remove(k);
            self.freed.push(gone.b);
        }
    }

    fn write(&mut self) {
        let b = self.pick_buffer();
        let off = self.offset(b) as u64;
        let n = self.size();
        let null = self.r.chance(1, 20);
        let blk = self.copy_block(b, off, n);
        if blk.is_ok() && n > 1 << 20 {
            return;
        }
        // The host memory behind `src`: real bytes whenever the copy could be allowed.
        let data: Vec<u8> = if n <= 1 << 20 {
            (0..n).map(|_| self.r.u32() as u8).collect()
        } else {
            vec![0; 16]
        };
        let src = if null {
            std::ptr::null()
        } else {
            data.as_ptr()
        };
        // SAFETY: a live handle; `src` has `n` bytes whenever the copy may happen (a longer
        // `n` is refused before `src` is read, which is what is under test).
        let rc = unsafe { c::weft_write(self.d, b, off as u32, src, n as usize) };
        let what = format!("weft_write({:#x}+{}, off {off}, n {n})", b.addr, b.len);
        let expect: &[i32] = match blk {
            _ if null && n > 0 => &[ARGUMENT],
            Ok(_) => &[OK],
            Err(true) => &[OK, BAD_ADDRESS],
            Err(false) => &[BAD_ADDRESS],
        };
        self.check(&what, rc, expect);
        if let (OK, Ok(k)) = (rc, blk) {
            let base = (b.addr as u64 + off - self.bufs[k].b.addr as u64) as usize;
            for (j, &v) in data.iter().enumerate().take(n as usize) {
                self.bufs[k].bytes[base + j] = Some(v);
            }
        }
    }

    fn read(&mut self) {
        let b = self.pick_buffer();
        let off = self.offset(b) as u64;
        let n = self.size();
        let null = self.r.chance(1, 20);
        let blk = self.copy_block(b, off, n);
        if blk.is_ok() && n > 1 << 20 {
            return;
        }
        let mut out = vec![0u8; if n <= 1 << 20 { n as usize } else { 16 }];
        let dst = if null {
            std::ptr::null_mut()
        } else {
            out.as_mut_ptr()
        };
        // SAFETY: as in `write`: `dst` has `n` writable bytes whenever the copy may happen.
        let rc = unsafe { c::weft_read(self.d, b, off as u32, dst, n as usize) };
        let what = format!("weft_read({:#x}+{}, off {off}, n {n})", b.addr, b.len);
        let expect: &[i32] = match blk {
            _ if null && n > 0 => &[ARGUMENT],
            Ok(_) => &[OK],
            Err(true) => &[OK, BAD_ADDRESS],
            Err(false) => &[BAD_ADDRESS],
        };
        self.check(&what, rc, expect);
        if let (OK, Ok(k)) = (rc, blk) {
            let base = (b.addr as u64 + off - self.bufs[k].b.addr as u64) as usize;
            for (j, &got) in out.iter().enumerate().take(n as usize) {
                if let Some(want) = self.bufs[k].bytes[base + j] {
                    if got != want {
                        self.rep.find(format!(
                            "{what}: byte {j} is {got:#04x}, {want:#04x} was written there"
                        ));
                        return;
                    }
                }
            }
        }
    }

    fn launch(&mut self) {
        let mut grid = [1u32, 1, 1];
        let mut block = [8u32, 1, 1];
        let mut outcome = Outcome::Quiet;
        let v = self.r.u32();
        let rec = [self.log.addr, v];
        let mut args: Vec<u8> = rec.iter().flat_map(|w| w.to_le_bytes()).collect();
        let mut args_len = args.len();
        let name: Option<CString> = match self.r.below(12) {
            0..=4 => {
                outcome = Outcome::Record(v);
                Some(c"record".into())
            }
            5 => {
                args = (0..self.r.below(64)).map(|_| self.r.u32() as u8).collect();
                args_len = args.len();
                Some(c"hello".into())
            }
            6 => {
                outcome = Outcome::Fails(TIMEOUT);
                args = self.flag.addr.to_le_bytes().to_vec();
                args_len = 4;
                Some(c"forever".into())
            }
            7 => {
                outcome = Outcome::Fails(KERNEL_FAULT);
                args = self.scratch.addr.to_le_bytes().to_vec();
                args_len = 4;
                Some(c"faulty".into())
            }
            8 => Some(c"no_such_kernel".into()),
            9 => Some(CString::new(vec![0xff, 0xfe, b'k']).unwrap_or_default()),
            10 => None,
            _ => Some(c"".into()),
        };
        // Hostile extents and argument lengths, now and then: a zero extent is the device
        // runtime's launch error (exit status 251) whatever the kernel.
        match self.r.below(16) {
            0 => {
                grid[self.r.below(3) as usize] = 0;
                outcome = Outcome::Fails(KERNEL_EXIT);
            }
            1 => {
                block[0] = 0;
                outcome = Outcome::Fails(KERNEL_EXIT);
            }
            // 2^28 blocks: far more than the wait's limit allows (block 0 runs first).
            2 => {
                grid[0] = 1 << 28;
                outcome = match outcome {
                    Outcome::Record(v) => Outcome::RecordThen(v, TIMEOUT),
                    Outcome::Quiet => Outcome::Fails(TIMEOUT),
                    o => o,
                };
            }
            3 => args_len = 1 << 40,
            _ => {}
        }
        let null_grid = self.r.chance(1, 30);
        let null_args = self.r.chance(1, 30);
        let known = name.as_ref().is_some_and(|n| {
            ["record", "hello", "forever", "faulty"].contains(&n.to_str().unwrap_or(""))
        });
        let name_ptr = name.as_ref().map_or(std::ptr::null(), |n| n.as_ptr());
        // SAFETY: a live handle; grid and block have three words, `args` has `args_len` bytes
        // whenever the block could be copied (a longer one is refused before it is read).
        let rc = unsafe {
            c::weft_launch_kernel(
                self.d,
                name_ptr,
                if null_grid {
                    std::ptr::null()
                } else {
                    grid.as_ptr()
                },
                block.as_ptr(),
                0,
                if null_args && args_len > 0 {
                    std::ptr::null()
                } else {
                    args.as_ptr()
                },
                args_len,
            )
        };
        let what = format!("weft_launch_kernel({name:?}, {grid:?}, {block:?}, {args_len} bytes)");
        let utf8 = name.as_ref().is_some_and(|n| n.to_str().is_ok());
        // The order weft_launch_kernel checks in: the arguments, the argument block's length,
        // the name.
        let expect = if !utf8 || null_grid || (null_args && args_len > 0) {
            ARGUMENT
        } else if args_len > 1 << 32 {
            OUT_OF_MEMORY
        } else if !known {
            NO_SUCH_KERNEL
        } else {
            OK
        };
        self.check(&what, rc, &[expect]);
        if rc == OK {
            self.queue.push(outcome);
        }
    }

    fn wait(&mut self) {
        // SAFETY: a live handle.
        let rc = unsafe { c::weft_wait_for(self.d, 2_000_000, 20_000) };
        let mut expect = if self.queue.is_empty() {
            NOTHING_LAUNCHED
        } else {
            OK
        };
        for o in std::mem::take(&mut self.queue) {
            match o {
                Outcome::Record(v) => self.model_log.push(v),
                Outcome::Quiet => {}
                Outcome::Fails(code) => {
                    expect = code;
                    break;
                }
                Outcome::RecordThen(v, code) => {
                    self.model_log.push(v);
                    expect = code;
                    break;
                }
            }
        }
        self.check("weft_wait_for", rc, &[expect]);
        // The log: its count and every value, in launch order.
        let mut log = vec![0u32; 64];
        // SAFETY: a live handle and 256 writable bytes.
        let rc =
            unsafe { c::weft_read(self.d, self.log, 0, log.as_mut_ptr().cast(), 4 * log.len()) };
        self.check("weft_read(log)", rc, &[OK]);
        let n = self.model_log.len();
        if log[0] as usize != n || log[1..=n] != self.model_log[..] {
            self.rep.find(format!(
                "the record log holds {:?}, the launches that ran wrote {:?}",
                &log[..=(log[0] as usize).min(63)],
                self.model_log
            ));
            self.model_log = log[1..=(log[0] as usize).min(63)].to_vec();
        }
        if self.model_log.len() > 50 {
            // Start the log afresh.
            let zero = [0u8; 256];
            // SAFETY: as above.
            let rc = unsafe { c::weft_write(self.d, self.log, 0, zero.as_ptr(), 256) };
            self.check("weft_write(log)", rc, &[OK]);
            self.model_log.clear();
        }
    }

    fn output_and_stats(&mut self) {
        let cap = *self.r.pick(&[0usize, 1, 2, 7, 64, 4096]);
        let mut buf = vec![0x55u8; cap.max(1)];
        let null = self.r.chance(1, 4);
        let p = if null {
            std::ptr::null_mut()
        } else {
            buf.as_mut_ptr().cast::<c_char>()
        };
        // SAFETY: a live handle and `cap` writable bytes (or NULL).
        let total = unsafe { c::weft_take_output(self.d, p, cap) };
        if !null && cap > 0 {
            let n = total.min(cap - 1);
            if buf[n] != 0 {
                self.rep.find(format!(
                    "weft_take_output(cap {cap}): no NUL after {n} bytes"
                ));
            }
        }
        let len = *self.r.pick(&[0usize, 1, 5, 100, 1 << 16]);
        let mut s = vec![0x55u8; len.max(1)];
        // SAFETY: `len` writable bytes.
        let need = unsafe { c::weft_stats_json(self.d, s.as_mut_ptr().cast(), len) };
        if len > 0 {
            let n = (need - 1).min(len - 1);
            if s[n] != 0 {
                self.rep.find(format!(
                    "weft_stats_json(len {len}): no NUL after {n} bytes"
                ));
            }
            if need <= len && std::str::from_utf8(&s[..n]).is_err() {
                self.rep.find("weft_stats_json: not UTF-8".into());
            }
        }
        self.rep.ops += 2;
    }

    /// Open devices of hostile shapes beside the campaign's (closed at once).
    fn open_other(&mut self) {
        let dims = [0u32, 1, 2, 4, 8, 32, 33, 64, 256, 257, 1 << 16, u32::MAX];
        let (cores, warps, lanes) = (
            *self.r.pick(&dims[..9]),
            *self.r.pick(&dims),
            *self.r.pick(&dims),
        );
        let mut d: *mut WeftDevice = std::ptr::null_mut();
        let mut err = [0 as c_char; 128];
        // SAFETY: a NUL-terminated path, an out pointer and a 128-byte message buffer.
        let rc = unsafe {
            c::weft_device_open(
                self.elf.as_ptr(),
                cores,
                warps,
                lanes,
                &mut d,
                err.as_mut_ptr(),
                err.len(),
            )
        };
        self.rep.ops += 1;
        // SAFETY: NUL-terminated by the call (or still zero).
        let msg = unsafe { CStr::from_ptr(err.as_ptr()) }
            .to_string_lossy()
            .into_owned();
        let fits =
            (1..=256).contains(&cores) && (1..=32).contains(&warps) && (1..=32).contains(&lanes);
        match rc {
            OK if d.is_null() => self.rep.find("weft_device_open: OK and no device".into()),
            OK if !fits => self.rep.find(format!(
                "weft_device_open({cores}, {warps}, {lanes}): OK for a shape out of range"
            )),
            OK => {}
            LOAD if !msg.is_empty() && d.is_null() => {}
            _ => self.rep.find(format!(
                "weft_device_open({cores}, {warps}, {lanes}): {rc} \"{msg}\""
            )),
        }
        // SAFETY: a handle from weft_device_open, or null.
        unsafe { c::weft_device_close(d) };
    }
}

/// Run the campaign for about `seconds` (at least a few hundred calls).
pub fn run(elf: CString, seed: u64, seconds: f64) -> Report {
    let mut rep = Report::default();
    let mut d: *mut WeftDevice = std::ptr::null_mut();
    let mut err = [0 as c_char; 256];
    // SAFETY: a NUL-terminated path, an out pointer and a message buffer.
    let rc =
        unsafe { c::weft_device_open(elf.as_ptr(), 1, 4, 8, &mut d, err.as_mut_ptr(), err.len()) };
    if rc != OK {
        // SAFETY: NUL-terminated by the call.
        let msg = unsafe { CStr::from_ptr(err.as_ptr()) }.to_string_lossy();
        rep.find(format!("opening the campaign's device: {rc} {msg}"));
        return rep;
    }
    let special = |d, bytes: u32| {
        let mut b = WeftBuffer { addr: 0, len: 0 };
        // SAFETY: a live handle and a writable record.
        let rc = unsafe { c::weft_alloc(d, bytes, &mut b) };
        let zero = vec![0u8; bytes as usize];
        // SAFETY: `bytes` readable bytes.
        let rc2 = unsafe { c::weft_write(d, b, 0, zero.as_ptr(), zero.len()) };
        (b, rc | rc2)
    };
    let (log, a) = special(d, 256);
    let (flag, b) = special(d, 4);
    let (scratch, c2) = special(d, 256);
    if a | b | c2 != OK {
        rep.find("allocating the campaign's buffers".into());
        return rep;
    }
    let mut s = Campaign {
        d,
        r: Rng::new(seed),
        bufs: Vec::new(),
        freed: Vec::new(),
        queue: Vec::new(),
        log,
        model_log: Vec::new(),
        flag,
        scratch,
        rep,
        elf,
    };
    let start = std::time::Instant::now();
    while start.elapsed().as_secs_f64() < seconds || s.rep.ops < 300 {
        match s.r.below(40) {
            0..=5 => s.alloc(),
            6..=8 => s.free(),
            9..=17 => s.write(),
            18..=26 => s.read(),
            27..=32 => s.launch(),
            33..=35 => s.wait(),
            36..=38 => s.output_and_stats(),
            _ if s.r.chance(1, 4) => s.open_other(),
            _ => {
                // SAFETY: NULL handles are the hostile part.
                let rc = unsafe { c::weft_alloc(std::ptr::null_mut(), 4, std::ptr::null_mut()) };
                s.rep.ops += 1;
                if rc != ARGUMENT || last_error(std::ptr::null()) != "no device" {
                    s.rep.find(format!("weft_alloc(NULL device): {rc}"));
                }
            }
        }
        if s.queue.len() > 6 {
            s.wait();
        }
        if s.rep.findings.len() > 20 {
            break;
        }
    }
    // SAFETY: the campaign's handle, closed once.
    unsafe { c::weft_device_close(s.d) };
    s.rep
}
