"""Hostile-input campaign for the Python package (`import weft`): random, seeded calls with
hostile numbers (negative, huge, NaN, infinite, floats for counts, bools, strings, None),
dtypes (object, structured with objects, empty, strings), shapes, offsets, buffers (freed,
forged, from another device) and launch arguments, mixed with ordinary ones. Every call must
return normally or raise TypeError, ValueError, OverflowError or weft.WeftError — a Rust
panic (pyo3's PanicException is not an Exception), a crash or a hang is a finding — and every
array read back must hold what was last written there.

    python fuzz/hostile.py [--seconds N] [--seed S]      (from the repository root; run by
                                                          fuzz/run-ci.sh with target/test-venv)
Exit status 1 if anything was found. See docs/reliability.md.
"""

import argparse
import pathlib
import random
import sys
import time

import numpy as np

import weft

ROOT = pathlib.Path(__file__).resolve().parents[1]
KERNELS = ROOT / "crates/runtime/tests/kernels/kernels.c"
ALLOWED = (TypeError, ValueError, OverflowError, weft.WeftError)

NUMBERS = [0, 1, -1, 3, 64, 255, 2**31, 2**32 - 1, 2**32, 2**63, 2**64, -(2**70), 1.5,
           float("nan"), float("inf"), -float("inf"), 1e300, True, None, "8", b"8",
           np.int64(-3), np.uint64(2**64 - 1), np.float32(2.5), np.bool_(True)]
DTYPES = [np.uint8, np.uint32, np.int16, np.float32, np.float64, np.complex64, object,
          np.dtype([("a", "O")]), np.dtype([("a", "<u4"), ("b", "<f4")]), "U4", "S3", "V0",
          "not-a-dtype", None, np.dtype("M8[s]"), bool]


class Campaign:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.d = weft.Device(cores=1, warps=4, lanes=8, sources=[KERNELS])
        self.other = weft.Device(cores=1, warps=2, lanes=4, sources=[KERNELS])
        self.bufs = []          # (Buffer, the bytes last written, or None where unknown)
        self.freed = []
        self.targets = []       # the `known` lists of buffers queued launches write to
        self.calls = 0
        self.findings = []

    def find(self, what):
        if what not in self.findings:
            self.findings.append(what)

    def call(self, what, f, *args, **kw):
        """Run f; an allowed exception is fine, anything else is a finding."""
        self.calls += 1
        try:
            return True, f(*args, **kw)
        except ALLOWED:
            return False, None
        except BaseException as e:  # noqa: B036 - a panic is what is looked for
            self.find(f"{what}: {type(e).__module__}.{type(e).__name__}: {e}")
            return False, None

    def number(self):
        return self.r.choice(NUMBERS) if self.r.random() < 0.3 else self.r.randrange(0, 300)

    def buffer(self):
        k = self.r.random()
        if self.bufs and k < 0.7:
            return self.r.choice(self.bufs)[0]
        if self.freed and k < 0.8:
            return self.r.choice(self.freed)
        if k < 0.9:
            return weft.Buffer(self.d, self.r.choice([0, 0x80000000, 0xffffffc0]),
                               self.r.choice([0, 4, 2**20]))
        return self.r.choice([None, 3, "buf", np.zeros(4)])

    def alloc(self):
        n = self.number()
        ok, b = self.call(f"alloc({n!r})", self.d.alloc, n)
        if ok:
            self.bufs.append((b, bytearray(b.nbytes), [False] * b.nbytes))

    def empty(self):
        shape = self.r.choice([self.number(), (self.number(), 2), (-1,), (), [3, 4], "x", (2**40,)])
        dt = self.r.choice(DTYPES)
        ok, b = self.call(f"empty({shape!r}, {dt!r})", self.d.empty, shape, dt)
        if ok:
            self.bufs.append((b, bytearray(b.nbytes), [False] * b.nbytes))

    def write(self):
        if not self.bufs:
            return
        i = self.r.randrange(len(self.bufs))
        b, shadow, known = self.bufs[i]
        n = self.r.choice([0, 1, 4, 17, b.nbytes, b.nbytes + 1, 300])
        dt = self.r.choice([np.uint8, np.uint32, np.float32, object, np.float64])
        try:
            a = np.frombuffer(bytes(self.r.randrange(256) for _ in range(n * 8)),
                              np.uint8)[: n].view(np.uint8)
            if dt is object:
                a = np.array([object()] * max(1, n // 8), dtype=object)
            elif dt != np.uint8 and n % np.dtype(dt).itemsize == 0:
                a = a.view(dt)
        except ValueError:
            return
        off = self.r.choice([0, 0, 1, 4, b.nbytes, -1, 2**32, 2.0, self.r.randrange(0, 64)])
        if self.r.random() < 0.2:
            a = a[::2]                                   # not contiguous
        ok, _ = self.call(f"write({b}, off {off!r}, {a.dtype} x {a.size})", self.d.write, b, a, off)
        if ok:
            raw = np.ascontiguousarray(a).tobytes()
            if off + len(raw) > b.nbytes:
                self.find(f"write({b}) of {len(raw)} bytes at {off} past the end succeeded")
                return
            for j, v in enumerate(raw):
                shadow[off + j] = v
                known[off + j] = True

    def read(self):
        if not self.bufs or self.r.random() < 0.1:
            b = self.buffer()
            self.call("read(hostile buffer)", self.d.read, b, self.r.choice(DTYPES),
                      self.r.choice([None, 1, -1, (2, 2), 2**33]), self.r.choice([0, -1, 2**32]))
            return
        b, shadow, known = self.r.choice(self.bufs)
        off = self.r.choice([0, 1, 4, self.r.randrange(0, b.nbytes + 2)])
        n = self.r.choice([0, 1, 8, max(0, b.nbytes - off), b.nbytes + 1])
        ok, out = self.call(f"read({b}, u8, {n}, off {off})", self.d.read, b, np.uint8, n, off)
        if ok:
            if off + n > b.nbytes:
                self.find(f"read({b}, {n} bytes at {off}) past the end succeeded")
                return
            for j, v in enumerate(out.tobytes()):
                if known[off + j] and shadow[off + j] != v:
                    self.find(f"read({b}) byte {off + j} is {v:#04x}, {shadow[off + j]:#04x} was written")
                    return

    def free(self):
        if self.bufs and self.r.random() < 0.6:
            b, _, _ = self.bufs.pop(self.r.randrange(len(self.bufs)))
            ok, _ = self.call(f"free({b})", self.d.free, b)
            if not ok:
                self.find(f"free of a live buffer {b} failed")
            self.freed.append(b)
        else:
            b = self.buffer()
            ok, _ = self.call(f"free(hostile {b!r})", self.d.free, b)
            if ok:
                # A stale handle whose address a live buffer reused frees that buffer.
                gone = [t for t in self.bufs if t[0].addr == b.addr]
                if not gone:
                    self.find(f"free({b!r}) of no live buffer succeeded")
                self.bufs = [t for t in self.bufs if t[0].addr != b.addr]
                self.freed.extend(t[0] for t in gone)

    def launch(self):
        name = self.r.choice(["record", "hello", "nope", "", 3, None, "record\0x"])
        grid = self.r.choice([1, (1,), (1, 1, 1), 0, -1, 2**32, (1, 2, 3, 4), "1", 1.0, (0,)])
        block = self.r.choice([8, (8, 1), 0, 2**33, [4]])
        if name == "record":
            # record writes through its first argument: a buffer of the model, whose contents
            # the model then no longer knows (or the other device's, refused).
            if self.bufs and self.r.random() < 0.8:
                b, _, known = self.r.choice(self.bufs)
                self.targets.append(known)
            else:
                ok, b = self.call("alloc", self.other.alloc, 64)
            args = [b, self.number()]
        else:
            args = [self.r.choice([self.buffer(), self.number(), np.float16(1), np.str_("a"),
                                   np.uint64(5), object()])
                    for _ in range(self.r.randrange(0, 4))]
        shared = self.r.choice([0, 0, 16, -4, 2**32])
        self.call(f"launch({name!r}, {grid!r}, {block!r}, {len(args)} args)", self.d.launch,
                  name, grid, block, *args, shared=shared)

    def wait(self):
        mc = self.r.choice([None, 2_000_000, 0, -1, 1.5, 2**64, True])
        to = self.r.choice([None, 20.0, float("inf"), float("nan"), -1, 1e300, "1", 5])
        if mc is None and to in (None, float("inf"), 1e300):
            to = 20.0                                   # never wait without any limit
        self.run_queue(mc, to)
        self.call("output()", self.d.output)
        self.call("stats()", self.d.stats)

    def run_queue(self, mc, to):
        """wait(): the buffers queued record launches write to are unknown afterwards."""
        self.call(f"wait({mc!r}, {to!r})", self.d.wait, mc, to)
        if self.d.queued == 0:
            for known in self.targets:
                known[:] = [False] * len(known)
            self.targets.clear()

    def foreign(self):
        # A buffer of another device: refused or harmless, never a crash.
        ok, b = self.call("alloc on the other device", self.other.alloc, 64)
        if ok:
            self.call("read of another device's buffer", self.d.read, b, np.uint8, 4)

    def device(self):
        # Hostile values only (a valid shape would build the kernels again, seconds each).
        bad = [0, -1, 2**32, 2**64, 1.5, float("nan"), True, "8", b"8", np.int64(-3), [1]]
        kw = {k: self.r.choice(bad) for k in self.r.sample(["cores", "warps", "lanes", "dram_size"], 2)}
        if self.r.random() < 0.5:
            kw["timing"] = self.r.choice([True, 1, "yes", None])
        kw["sources"] = self.r.choice([[KERNELS], str(KERNELS), [3], None])
        self.call(f"Device({kw})", weft.Device, **kw)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=5)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    c = Campaign(a.seed)
    ops = [c.alloc, c.alloc, c.empty, c.write, c.write, c.read, c.read, c.free, c.launch,
           c.launch, c.wait, c.foreign, c.device]
    start = time.time()
    while time.time() - start < a.seconds or c.calls < 300:
        c.r.choice(ops)()
        if c.d.queued > 4:
            c.run_queue(2_000_000, 20.0)
        if len(c.findings) > 20:
            break
    print(f"    python: {c.calls} checked calls in {time.time() - start:.1f} s "
          f"(seed {a.seed}), {len(c.findings)} findings")
    for f in c.findings:
        print(f"    finding: {f}")
    sys.exit(1 if c.findings else 0)


if __name__ == "__main__":
    main()
