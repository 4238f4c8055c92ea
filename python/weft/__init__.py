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
exception classes below, with the runtime's messages. Every number and dtype given is checked
before anything is allocated or sent: a wrong type is a TypeError, a value out of range a
ValueError (OverflowError for a launch argument that does not fit its type), each naming the
parameter. See docs/runtime.md.
"""

import json
import math
import numbers
import os

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


_U32 = (1 << 32) - 1
_U64 = (1 << 64) - 1


def _int(name, v, lo, hi):
    """`v` as an int in lo..=hi: TypeError if it is not an integer (bool is not), ValueError
    if out of range."""
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise TypeError(f"{name} must be an int, not {type(v).__name__}")
    v = int(v)
    if not lo <= v <= hi:
        raise ValueError(f"{name} = {v} is out of range ({lo}..={hi})")
    return v


def _dtype(d):
    """A dtype device memory can hold: plain numbers (no Python objects, not empty)."""
    try:
        d = np.dtype(d)
    except TypeError as e:
        raise TypeError(f"dtype {d!r} is not a numpy dtype: {e}") from None
    if d.hasobject:
        raise TypeError(f"dtype {d} holds Python objects; device memory holds plain numbers "
                        "(use a numeric dtype such as np.float32)")
    if d.itemsize == 0:
        raise TypeError(f"dtype {d} has no size")
    return d


def _shape(shape):
    """A shape of non-negative ints (an int is one dimension)."""
    if isinstance(shape, (bool, np.bool_)) or not isinstance(shape, (numbers.Integral, tuple,
                                                                     list)):
        raise TypeError(f"shape must be an int or a tuple of ints, not {type(shape).__name__}")
    dims = (shape,) if isinstance(shape, numbers.Integral) else tuple(shape)
    return tuple(_int("shape dimension", n, 0, _U32) for n in dims)


def _nbytes(shape, dtype):
    n = math.prod(shape) * dtype.itemsize
    if n > _U32:
        raise ValueError(f"an array of shape {shape} and dtype {dtype} is {n} bytes; "
                         f"device buffers hold at most {_U32}")
    return n


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
        self.dtype = _dtype(dtype)
        self.shape = _shape(shape) if shape is not None else (nbytes // self.dtype.itemsize,)

    def numpy(self):
        """The buffer's contents as a new array of its dtype and shape (one copy)."""
        return self.device.read(self, self.dtype, self.shape)

    def write(self, array, offset=0):
        """Copy an array into the buffer at byte `offset`."""
        self.device.write(self, array, offset)

    def __repr__(self):
        return f"Buffer(addr={self.addr:#010x}, nbytes={self.nbytes}, dtype={self.dtype})"


def _pack(args, device=None):
    """The argument block: each field aligned to its size, as a C struct. A numpy scalar
    keeps its type (bool, integer or floating); a Python int must fit int32 or uint32 and a
    finite float must fit float32 (OverflowError otherwise: pass a numpy scalar such as
    np.int64(x) or np.float64(x) for a wider field)."""
    out = bytearray()
    for i, a in enumerate(args):
        if isinstance(a, Buffer):
            if device is not None and a.device is not device:
                raise ValueError(f"launch argument {i} is a buffer of another device")
            v = np.uint32(a.addr)
        elif isinstance(a, np.generic):
            if a.dtype.kind not in "biuf":
                raise TypeError(f"launch argument {i}: a numpy {a.dtype} cannot be passed to "
                                "a kernel (bool, integer and floating scalars can)")
            v = a
        elif isinstance(a, bool):
            v = np.uint32(a)
        elif isinstance(a, int):
            if not -(1 << 31) <= a <= _U32:
                raise OverflowError(f"launch argument {i} = {a} fits neither int32 nor uint32 "
                                    "(pass np.int64 or np.uint64 for a 64-bit field)")
            v = np.int32(a) if a < 0 else np.uint32(a)
        elif isinstance(a, float):
            if math.isfinite(a) and abs(a) > float(np.finfo(np.float32).max):
                raise OverflowError(f"launch argument {i} = {a} does not fit float32 "
                                    "(pass np.float64 for a double field)")
            v = np.float32(a)
        else:
            raise TypeError(f"launch argument {i}: cannot pass {type(a).__name__} to a kernel")
        size = v.dtype.itemsize
        out += b"\0" * (-len(out) % size)
        out += v.tobytes()
    return bytes(out)


def _dim3(name, t):
    """A grid or block extent: an int or a tuple of one to three ints, each 1..=2^32-1."""
    if isinstance(t, numbers.Integral) and not isinstance(t, bool):
        t = (t,)
    if not isinstance(t, (tuple, list)) or not 1 <= len(t) <= 3:
        raise TypeError(f"{name} must be an int or a tuple of one to three ints, not {t!r}")
    t = tuple(_int(f"{name} extent", x, 1, _U32) for x in t)
    return t + (1,) * (3 - len(t))


def _buffer(b, device):
    if not isinstance(b, Buffer):
        raise TypeError(f"expected a weft.Buffer, not {type(b).__name__}")
    if b.device is not device:
        raise ValueError(f"{b} belongs to another device")
    return b


class Device:
    """A weft device with a kernel program: the functional model, or with `timing=True` the
    cycle-level timing model (the same results; `stats()["timing"]` then holds its issue
    slots, stall reasons, cache and DRAM counters).

    Give `program` (an ELF built by `weft cc`) or `sources` (C files, built now).
    """

    def __init__(self, cores=1, warps=4, lanes=8, timing=False, program=None, sources=None,
                 dram_size=None):
        if not isinstance(timing, (bool, np.bool_)):
            raise TypeError(f"timing must be True or False, not {type(timing).__name__}")
        if program is not None and not isinstance(program, (str, os.PathLike)):
            raise TypeError(f"program must be a path, not {type(program).__name__}")
        if sources is not None:
            if isinstance(sources, (str, os.PathLike)):
                raise TypeError("sources must be a list of paths (got one path: use [path])")
            sources = list(sources)
            for s in sources:
                if not isinstance(s, (str, os.PathLike)):
                    raise TypeError(f"sources must be paths, not {type(s).__name__}")
        self._d = _call(_weft.NativeDevice, _int("cores", cores, 1, _U32),
                        _int("warps", warps, 1, _U32), _int("lanes", lanes, 1, _U32),
                        bool(timing),
                        None if dram_size is None else _int("dram_size", dram_size, 1, _U32),
                        None if program is None else os.fspath(program),
                        None if sources is None else [os.fspath(s) for s in sources])

    def alloc(self, nbytes, dtype=np.uint8, shape=None):
        dtype = _dtype(dtype)
        shape = None if shape is None else _shape(shape)
        addr, n = _call(self._d.alloc, _int("nbytes", nbytes, 0, _U32))
        return Buffer(self, addr, n, dtype, shape)

    def empty(self, shape, dtype=np.float32):
        """A buffer for an array of `shape` and `dtype` (contents unspecified)."""
        shape, dtype = _shape(shape), _dtype(dtype)
        return self.alloc(_nbytes(shape, dtype), dtype, shape)

    def array(self, array):
        """A buffer holding a copy of `array` (its dtype and shape remembered)."""
        a = np.ascontiguousarray(array)
        _dtype(a.dtype)
        b = self.alloc(a.nbytes, a.dtype, a.shape)
        self.write(b, a)
        return b

    def write(self, buf, array, offset=0):
        """Copy an array's bytes into the buffer at byte `offset`."""
        a = np.ascontiguousarray(array)
        _dtype(a.dtype)
        b = _buffer(buf, self)
        _call(self._d.write, b.addr, b.nbytes, _int("offset", offset, 0, _U32),
              memoryview(a).cast("B"))

    def read(self, buf, dtype=None, shape=None, offset=0):
        """A new array filled from the buffer (by default its whole dtype and shape). The
        range is checked against the buffer before the array is allocated."""
        b = _buffer(buf, self)
        dtype = _dtype(b.dtype if dtype is None else dtype)
        shape = _shape(b.shape if shape is None else shape)
        offset = _int("offset", offset, 0, _U32)
        _call(self._d.check_range, b.addr, b.nbytes, offset, _nbytes(shape, dtype))
        out = np.empty(shape, dtype)
        _call(self._d.read_into, b.addr, b.nbytes, offset, memoryview(out).cast("B"))
        return out

    def free(self, buf):
        b = _buffer(buf, self)
        _call(self._d.free, b.addr, b.nbytes)

    def launch(self, kernel, grid, block, *args, shared=0):
        """Queue kernel `kernel` over `grid` blocks of `block` threads (ints or tuples). Nothing
        runs yet: the launch waits behind those already queued, and wait() runs them all."""
        if not isinstance(kernel, str):
            raise TypeError(f"kernel must be a name (str), not {type(kernel).__name__}")
        _call(self._d.launch, kernel, _dim3("grid", grid), _dim3("block", block),
              _pack(args, self),
              _int("shared", shared, 0, _U32))

    @property
    def queued(self):
        """Launches queued and not yet run."""
        return self._d.queued()

    def wait(self, max_cycles=None, timeout=None):
        """Run the queued launches in order to their end: at most `max_cycles` simulated
        cycles and `timeout` seconds of host time in all (Timeout otherwise; None or
        float("inf") = no limit). The first failure drops the launches behind it."""
        if max_cycles is not None:
            max_cycles = _int("max_cycles", max_cycles, 1, _U64)
        if timeout is not None:
            if isinstance(timeout, bool) or not isinstance(timeout, numbers.Real):
                raise TypeError(f"timeout must be seconds (a number), not "
                                f"{type(timeout).__name__}")
            timeout = float(timeout)
            if math.isnan(timeout) or timeout < 0:
                raise ValueError(f"timeout = {timeout} must be seconds >= 0 "
                                 "(None or inf for no limit)")
        _call(self._d.wait, max_cycles, timeout)

    def run(self, kernel, grid, block, *args, shared=0, max_cycles=None, timeout=None):
        """launch() then wait() (which runs any launch queued before this one too)."""
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

    def launch_stats(self, index=None):
        """Each launch's own counters (cycles, warp/thread instructions, SIMD efficiency,
        divergences, memory; under the timing model its issue slots and stalls in "timing"),
        as a list of dicts in launch order; with `index`, that one launch (-1: the last)."""
        launches = json.loads(self._d.launch_stats_json())
        return launches if index is None else launches[index]
