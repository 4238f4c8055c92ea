"""weft — drive a weft soft GPU from Python.

    import numpy as np, weft
    d = weft.Device(cores=1, warps=4, lanes=8, sources=["kernels.c"])
    a = d.array(np.arange(1000, dtype=np.uint32))
    b = d.array(np.ones(1000, dtype=np.uint32))
    c = d.empty(1000, np.uint32)
    d.launch("vecadd", (16, 1, 1), (64, 1, 1), a, b, c, np.uint32(1000))
    d.wait()
    print(c.numpy()[:5], d.stats()["cycles"])

Kernels are C functions built by `weft cc` and marked WEFT_KERNEL; launch arguments are
packed as the C struct the kernel reads (a Buffer becomes its 32-bit device address; Python
ints become int32/uint32 and floats float32 unless given as numpy scalars). Errors are the
exception classes below, with the runtime's messages. See docs/runtime.md.
"""

import json

import numpy as np

from . import _weft

__all__ = [
    "Device", "Buffer", "WeftError", "OutOfMemory", "BadAddress", "NoSuchKernel",
    "KernelFault", "Timeout", "Deadlock", "KernelExit", "LoadError", "NothingLaunched",
]


class WeftError(Exception):
    """Any error of the weft runtime; `info` holds the details (a dict)."""

    def __init__(self, message, info=None):
        super().__init__(message)
        self.info = dict(info or {})


class OutOfMemory(WeftError):
    """No free device block is large enough."""


class BadAddress(WeftError):
    """A copy outside a buffer, or a freed buffer."""


class NoSuchKernel(WeftError):
    """The program has no kernel of that name (is it marked WEFT_KERNEL?)."""


class KernelFault(WeftError):
    """A warp faulted; `code`, `core`, `warp`, `lanes`, `pc`, `addr` say where."""

    def __getattr__(self, name):
        if name in self.info:
            return self.info[name]
        raise AttributeError(name)


class Timeout(WeftError):
    """The launch was still running at the cycle limit (`info["cycles"]`)."""


class Deadlock(WeftError):
    """No warp could make progress."""


class KernelExit(WeftError):
    """The device program stopped with a status (`info["status"]`, `info["output"]`)."""


class LoadError(WeftError):
    """The program or configuration could not be loaded or built."""


class NothingLaunched(WeftError):
    """wait() with no launch queued."""


_KINDS = {c.__name__: c for c in (OutOfMemory, BadAddress, NoSuchKernel, KernelFault, Timeout,
                                  Deadlock, KernelExit, LoadError, NothingLaunched)}


def _call(f, *args):
    try:
        return f(*args)
    except _weft.NativeError as e:
        kind, message, info = e.args
        raise _KINDS.get(kind, WeftError)(message, info) from None


class Buffer:
    """A block of device memory: `addr` (its device address), `nbytes`, and, when made from
    or for an array, the `dtype` and `shape` that numpy() returns."""

    def __init__(self, device, addr, nbytes, dtype=np.uint8, shape=None):
        self.device, self.addr, self.nbytes = device, addr, nbytes
        self.dtype = np.dtype(dtype)
        self.shape = shape if shape is not None else (nbytes // self.dtype.itemsize,)

    def numpy(self):
        """The buffer's contents as a new array of its dtype and shape (one copy)."""
        return self.device.read(self, self.dtype, self.shape)

    def write(self, array, offset=0):
        """Copy an array into the buffer at byte `offset`."""
        self.device.write(self, array, offset)

    def __repr__(self):
        return f"Buffer(addr={self.addr:#010x}, nbytes={self.nbytes}, dtype={self.dtype})"


def _pack(args):
    """The argument block: each field aligned to its size, as a C struct."""
    out = bytearray()
    for a in args:
        if isinstance(a, Buffer):
            v = np.uint32(a.addr)
        elif isinstance(a, np.generic):
            v = a
        elif isinstance(a, bool):
            v = np.uint32(a)
        elif isinstance(a, int):
            v = np.int32(a) if a < 0 else np.uint32(a)
        elif isinstance(a, float):
            v = np.float32(a)
        else:
            raise TypeError(f"cannot pass {type(a).__name__} to a kernel")
        size = v.dtype.itemsize
        out += b"\0" * (-len(out) % size)
        out += v.tobytes()
    return bytes(out)


def _dim3(t):
    if isinstance(t, int):
        return (t, 1, 1)
    t = tuple(t) + (1,) * (3 - len(t))
    return tuple(int(x) for x in t[:3])


class Device:
    """A weft device with a kernel program: the functional model, or with `timing=True` (or
    `backend="timing"`) the cycle-level timing model (the same results; `stats()["timing"]`
    then holds its issue slots, stall reasons, cache and DRAM counters), or with
    `backend="rtl"` weft's SystemVerilog core under Verilator (one core; the same results,
    `stats()` from the RTL's counters with its clock cycles; needs Verilator 5, and builds
    the core's model on first use).

    Give `program` (an ELF built by `weft cc`) or `sources` (C files, built now).
    """

    def __init__(self, cores=1, warps=4, lanes=8, timing=False, program=None, sources=None,
                 dram_size=None, backend=None):
        self._d = _call(_weft.NativeDevice, cores, warps, lanes, timing, dram_size,
                        None if program is None else str(program),
                        None if sources is None else [str(s) for s in sources], backend)

    def alloc(self, nbytes, dtype=np.uint8, shape=None):
        addr, n = _call(self._d.alloc, int(nbytes))
        return Buffer(self, addr, n, dtype, shape)

    def empty(self, shape, dtype=np.float32):
        """A buffer for an array of `shape` and `dtype` (contents unspecified)."""
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        dtype = np.dtype(dtype)
        return self.alloc(int(np.prod(shape)) * dtype.itemsize, dtype, shape)

    def array(self, array):
        """A buffer holding a copy of `array` (its dtype and shape remembered)."""
        a = np.ascontiguousarray(array)
        b = self.alloc(a.nbytes, a.dtype, a.shape)
        self.write(b, a)
        return b

    def write(self, buf, array, offset=0):
        a = np.ascontiguousarray(array)
        _call(self._d.write, buf.addr, buf.nbytes, int(offset), memoryview(a).cast("B"))

    def read(self, buf, dtype=None, shape=None, offset=0):
        """A new array filled from the buffer (by default its whole dtype and shape)."""
        dtype = np.dtype(buf.dtype if dtype is None else dtype)
        shape = buf.shape if shape is None else ((shape,) if isinstance(shape, int) else shape)
        out = np.empty(shape, dtype)
        _call(self._d.read_into, buf.addr, buf.nbytes, int(offset), memoryview(out).cast("B"))
        return out

    def free(self, buf):
        _call(self._d.free, buf.addr, buf.nbytes)

    def launch(self, kernel, grid, block, *args, shared=0):
        """Queue kernel `kernel` over `grid` blocks of `block` threads (ints or tuples)."""
        _call(self._d.launch, kernel, _dim3(grid), _dim3(block), _pack(args), int(shared))

    def wait(self, max_cycles=None, timeout=None):
        """Run the queued launch to its end: at most `max_cycles` simulated cycles and
        `timeout` seconds of host time (Timeout otherwise)."""
        _call(self._d.wait, max_cycles, timeout)

    def run(self, kernel, grid, block, *args, shared=0, max_cycles=None, timeout=None):
        """launch() then wait()."""
        self.launch(kernel, grid, block, *args, shared=shared)
        self.wait(max_cycles, timeout)

    def output(self):
        """Console output (kernel printf, in thread order) since the last call."""
        return self._d.output()

    @property
    def cycles(self):
        return self._d.cycles()

    def stats(self):
        """Statistics of all launches so far, as a dict (the keys of --stats-json)."""
        return json.loads(self._d.stats_json())
