"""weft — drive a weft soft GPU from Python.

    import numpy as np, weft
    d = weft.Device(cores=1, warps=4, lanes=8, source=r'''
        #include <weft.h>
        struct args { const unsigned *a, *b; unsigned *c; unsigned n; };
        WEFT_KERNEL void vecadd(void *p) {
            struct args *g = p;
            unsigned i = weft_global_thread();
            if (i < g->n) g->c[i] = g->a[i] + g->b[i];
        }
    ''')
    a = d.array(np.arange(1000, dtype=np.uint32))
    b = d.array(np.ones(1000, dtype=np.uint32))
    c = d.empty(1000, np.uint32)
    l = d.launch("vecadd", 16, 64, a, b, c, 1000)
    l.wait()
    print(np.asarray(c)[:5], l.cycles, l.stats()["simd_efficiency"])

Kernels come from `source=` (text), `sources=` (files) or `program=` (an ELF); text and files
are built by `weft cc` through its compile cache (a second build of the same source and
options is a file read). `config=` takes machine-configuration TOML (text or a path).

Kernels are C functions built by `weft cc` and marked WEFT_KERNEL; launch arguments are
packed as the C struct the kernel reads (a Buffer becomes its 32-bit device address; Python
ints become int32/uint32 and floats float32 unless given as numpy scalars). Errors are the
exception classes below, with the runtime's messages. Every number and dtype given is checked
before anything is allocated or sent: a wrong type is a TypeError, a value out of range a
ValueError (OverflowError for a launch argument that does not fit its type), each naming the
parameter. See docs/python.md and docs/runtime.md.
"""

import json
import math
import numbers
import os

import numpy as np

from . import _weft

__version__ = _weft.__version__

__all__ = [
    "Device", "Buffer", "Launch", "Module", "DeviceModule", "ViewPage", "asarray", "WeftError", "OutOfMemory", "BadAddress", "NoSuchKernel",
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
        raise OutOfMemory(f"an array of shape {shape} and dtype {dtype} is {n} bytes; "
                          f"device memory holds at most {_U32}", {"requested": n})
    return n


def _call(f, *args):
    try:
        return f(*args)
    except _weft.NativeError as e:
        kind, message, info = e.args
        raise _KINDS.get(kind, WeftError)(message, info) from None


class Buffer:
    """A block of device memory: `addr` (its device address), `nbytes`, and, when made from
    or for an array, the `dtype` and `shape` it holds. Array-like: `np.asarray(buf)`,
    `len(buf)`, `buf[i]` and `buf[a:b]` copy from the device (`get()` is the whole array),
    `buf[...] = x` and `set(x)` copy to it."""

    def __init__(self, device, addr, nbytes, dtype=np.uint8, shape=None):
        self.device, self.addr, self.nbytes = device, addr, nbytes
        self.dtype = _dtype(dtype)
        self.shape = _shape(shape) if shape is not None else (nbytes // self.dtype.itemsize,)

    @property
    def size(self):
        """Elements in the array the buffer holds."""
        return math.prod(self.shape)

    @property
    def ndim(self):
        return len(self.shape)

    def numpy(self):
        """The buffer's contents as a new array of its dtype and shape (one copy)."""
        return self.device.read(self, self.dtype, self.shape)

    def get(self):
        """The buffer's contents as a new numpy array (as CuPy's get())."""
        return self.numpy()

    def set(self, array):
        """Copy `array` into the buffer: its shape must be the buffer's (it is cast to the
        buffer's dtype)."""
        a = np.asarray(array)
        if a.shape != self.shape:
            raise ValueError(f"set: an array of shape {a.shape} into a buffer of shape "
                             f"{self.shape}")
        self.device.write(self, a.astype(self.dtype, copy=False))

    def write(self, array, offset=0):
        """Copy an array into the buffer at byte `offset`."""
        self.device.write(self, array, offset)

    def __array__(self, dtype=None, copy=None):
        a = self.numpy()
        return a if dtype is None else a.astype(dtype, copy=False)

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d buffer")
        return self.shape[0]

    def __getitem__(self, key):
        return self.numpy()[key]

    def __setitem__(self, key, value):
        a = self.numpy()
        a[key] = value
        self.device.write(self, a)

    def __repr__(self):
        return (f"Buffer(addr={self.addr:#010x}, nbytes={self.nbytes}, dtype={self.dtype}, "
                f"shape={self.shape})")


def _host_op(op):
    """A binary operator of Buffer: both sides copied to the host, numpy computes."""
    def f(self, other):
        return op(self.numpy(), np.asarray(other) if isinstance(other, Buffer) else other)
    return f


def _host_rop(op):
    def f(self, other):
        return op(other, self.numpy())
    return f


# Arithmetic on buffers is numpy's on copies: `a + b`, `2 * a`, `-a` give numpy arrays
# (the device computes nothing; write a kernel for that).
for _name, _op in (("add", np.add), ("sub", np.subtract), ("mul", np.multiply),
                   ("truediv", np.true_divide), ("floordiv", np.floor_divide),
                   ("mod", np.remainder), ("pow", np.power)):
    setattr(Buffer, f"__{_name}__", _host_op(_op))
    setattr(Buffer, f"__r{_name}__", _host_rop(_op))
Buffer.__neg__ = lambda self: -self.numpy()
Buffer.__abs__ = lambda self: abs(self.numpy())
del _name, _op


def asarray(array, device):
    """`array` on `device`: a Buffer of that device is itself, anything numpy can read becomes
    a new buffer holding a copy (as cupy.asarray)."""
    if isinstance(array, Buffer):
        return _buffer(array, device)
    return device.array(np.asarray(array))


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
        elif isinstance(a, np.ndarray):
            raise TypeError(f"launch argument {i} is a numpy array; kernels read device "
                            "memory: copy it there with d.array(a) (or weft.asarray(a, d)) "
                            "and pass the buffer")
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


def _paths(name, v):
    if isinstance(v, (str, os.PathLike)):
        raise TypeError(f"{name} must be a list of paths (got one path: use [path])")
    v = list(v)
    for x in v:
        if not isinstance(x, (str, os.PathLike)):
            raise TypeError(f"{name} must be paths, not {type(x).__name__}")
    return [os.fspath(x) for x in v]


class Module:
    """A kernel program built by `weft cc`: from `source` (text in language `lang`: "c",
    "cc"/"cpp" for C++, "s"/"S" for assembly) or `sources` (files), with weft cc `options`
    such as ["-O3", "-DN=64", "-Iinclude", "--reconv", "converge"]; or `program`, an ELF
    already built. Builds go through weft cc's compile cache ($WEFT_CACHE_DIR, else
    ~/.cache/weft/cc): `cached` says whether this one was served from it. `elf` holds the
    program's bytes; open devices on it with `Device(module=m)`."""

    def __init__(self, source=None, sources=None, program=None, options=(), lang="c"):
        given = [n for n, v in (("source", source), ("sources", sources),
                                ("program", program)) if v is not None]
        if len(given) != 1:
            raise TypeError("give one of source (kernel text), sources (files) or program "
                            f"(an ELF), not {' and '.join(given) or 'none'}")
        if isinstance(options, str):
            raise TypeError("options must be a list of weft cc flags (got one string: use "
                            "[flag])")
        options = list(options)
        for o in options:
            if not isinstance(o, str):
                raise TypeError(f"options must be strings, not {type(o).__name__}")
        self.cached = False
        if source is not None:
            if not isinstance(source, str):
                raise TypeError(f"source must be kernel text (str), not "
                                f"{type(source).__name__}")
            if not isinstance(lang, str):
                raise TypeError(f"lang must be a str, not {type(lang).__name__}")
            self.elf, self.cached = _call(_weft.compile_source, source, lang, options)
        elif sources is not None:
            self.elf, self.cached = _call(_weft.compile, _paths("sources", sources), options)
        else:
            if not isinstance(program, (str, os.PathLike)):
                raise TypeError(f"program must be a path, not {type(program).__name__}")
            if options:
                raise TypeError("options apply to source or sources, not to a built program")
            try:
                with open(program, "rb") as f:
                    self.elf = f.read()
            except OSError as e:
                raise LoadError(f"{os.fspath(program)}: {e.strerror}") from None

    def __repr__(self):
        return f"Module({len(self.elf)} bytes of ELF{', from the cache' if self.cached else ''})"


def _config(config):
    """Machine-configuration TOML from `config`: a path (os.PathLike, or a str with neither
    '=' nor a newline) is read; any other str is the TOML text itself."""
    if config is None:
        return None
    if isinstance(config, os.PathLike) or (isinstance(config, str) and "=" not in config
                                           and "\n" not in config):
        try:
            with open(config, encoding="utf-8") as f:
                return f.read()
        except OSError as e:
            raise LoadError(f"configuration {os.fspath(config)}: {e.strerror}") from None
    if not isinstance(config, str):
        raise TypeError(f"config must be TOML text or a path, not {type(config).__name__}")
    return config


class Launch:
    """One kernel launch, returned by Device.launch: `wait()` runs it (and the launches
    queued before it), then `stats()` and `cycles` are this launch's own counters (the
    device's stats() still totals every launch). A launch made with `trace=True` (or a
    bound) is recorded: `trace()` lists its warp-instructions and `view()` shows it in the
    `weft view` step-through page."""

    def __init__(self, device, kernel, grid, block, id=None, traced=False, module=0):
        self.device, self.kernel, self.grid, self.block = device, kernel, grid, block
        self.id, self.traced, self.module = id, traced, module
        self.index = None  # its place in device.launch_stats(), once it has run
        self.dropped = False  # a failure before it dropped it from the queue
        self._recording = None

    @property
    def done(self):
        return self.index is not None

    def wait(self, max_cycles=None, timeout=None):
        """Run the queue up to and including this launch (see Device.wait); returns self."""
        if not self.done and not self.dropped:
            self.device.wait(max_cycles, timeout)
        return self

    def stats(self):
        """This launch's counters as a dict (see Device.launch_stats); waits for it first."""
        self.wait()
        if self.index is None:
            raise NothingLaunched(f"launch of {self.kernel} was dropped: a launch queued "
                                  "before it failed")
        return self.device.launch_stats(self.index)

    @property
    def cycles(self):
        """Cycles this launch took."""
        return self.stats()["cycles"]

    def _recorded(self):
        if not self.traced:
            raise WeftError(f"launch of {self.kernel} was not recorded: launch it with "
                            "trace=True (or trace=N warp-instructions)")
        if not self.done and not self.dropped:
            self.device.wait()
        if self._recording is None:
            r = self.device._d.take_recording(self.id)
            if r is None:
                raise NothingLaunched(f"launch of {self.kernel} was dropped: a launch queued "
                                      "before it failed")
            steps, dropped, page = r
            self._recording = (json.loads(steps), dropped, page)
        return self._recording

    def trace(self):
        """This launch's warp-instructions in issue order, as dicts with the columns of a
        `weft run --trace` line: cycle, core, warp, mask, pc, symbol (None if no symbol lies
        at or below pc), inst (the disassembly) and line (the whole --trace line). From the
        device's start-up code through the kernel to the launch's end, at most the bound
        given to launch(trace=...): `trace_dropped` counts the steps past it. Runs the
        launch first if it is still queued (a fault ends the trace where it happened)."""
        return list(self._recorded()[0])

    @property
    def trace_dropped(self):
        """Warp-instructions this recorded launch issued past its trace bound."""
        return self._recorded()[1]

    def view(self, height=600):
        """The `weft view` step-through page of this recorded launch (the page `weft view`
        writes: warps, lanes, divergence stacks, registers, step forward and back), inline in
        a notebook: an IPython HTML object when IPython is there, else a ViewPage (which
        has _repr_html_, the page's `html` and save())."""
        page = ViewPage(self._recorded()[2], height)
        try:
            from IPython.display import HTML
        except ImportError:
            return page
        return HTML(page._repr_html_())

    def _repr_html_(self):
        rows = [("kernel", self.kernel), ("grid", self.grid), ("block", self.block)]
        if self.done:
            rows += [(k, v) for k, v in self.device.launch_stats(self.index).items()
                     if not isinstance(v, (dict, list))]
        else:
            rows.append(("state", "dropped" if self.dropped else "queued"))
        return _html_table(f"weft launch {self.kernel}", rows)

    def __repr__(self):
        state = ("dropped" if self.dropped else "queued") if not self.done else \
            f"launch {self.index}"
        return f"Launch({self.kernel!r}, grid={self.grid}, block={self.block}, {state})"


class ViewPage:
    """A `weft view` page: `html` (one self-contained document), shown inline by
    `_repr_html_` (in an iframe `height` pixels high, so its script and style stay its own),
    written out by save(path)."""

    def __init__(self, html, height=600):
        self.html, self.height = html, _int("height", height, 1, _U32)

    def _repr_html_(self):
        import html
        return (f'<iframe srcdoc="{html.escape(self.html, quote=True)}" '
                f'style="width:100%;height:{self.height}px;border:1px solid #ccc"></iframe>')

    def save(self, path):
        """Write the page to `path` (open it in a browser)."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.html)

    def __repr__(self):
        return f"ViewPage({len(self.html)} bytes of HTML)"


class DeviceModule:
    """A kernel program loaded on a device (Device.load; `device.modules[0]` is the one the
    device was opened with): `launch()` and `run()` take the kernels of this program, on
    any buffer of the device. `module` is the weft.Module, `index` its place on the
    device."""

    def __init__(self, device, module, index):
        self.device, self.module, self.index = device, module, index

    def launch(self, kernel, grid, block, *args, shared=0, trace=False):
        """Queue kernel `kernel` of this program (see Device.launch)."""
        return self.device._launch(self.index, kernel, grid, block, args, shared, trace)

    def run(self, kernel, grid, block, *args, shared=0, trace=False, max_cycles=None,
            timeout=None):
        """launch() then the device's wait()."""
        launch = self.launch(kernel, grid, block, *args, shared=shared, trace=trace)
        self.device.wait(max_cycles, timeout)
        return launch

    def __repr__(self):
        return f"DeviceModule({self.index}, {self.module!r})"


# Warp-instructions a launch with trace=True records (weft view's default).
TRACE_STEPS = 20_000


def _trace_bound(trace):
    """The recording bound of launch(trace=...): None for False, TRACE_STEPS for True, or
    a count of warp-instructions (1..=1,000,000, as weft view takes)."""
    if trace is False or trace is None:
        return None
    if trace is True:
        return TRACE_STEPS
    return _int("trace", trace, 1, 1_000_000)


def _html_table(title, rows):
    import html
    body = "".join(f"<tr><th style='text-align:left'>{html.escape(str(k))}</th>"
                   f"<td style='text-align:right'>{html.escape(str(v))}</td></tr>"
                   for k, v in rows)
    return f"<table><caption>{html.escape(title)}</caption>{body}</table>"


class Device:
    """A weft device with a kernel program: the functional model, or with `timing=True` (or
    `backend="timing"`) the cycle-level timing model (the same results; `stats()["timing"]`
    then holds its issue slots, stall reasons, cache and DRAM counters), or with
    `backend="rtl"` weft's SystemVerilog core under Verilator (one core; the same results,
    `stats()` from the RTL's counters with its clock cycles; needs Verilator 5, and builds
    the core's model on first use).

    The program: `source` (kernel text), `sources` (files) — both built by weft cc with
    `options` through its compile cache — `program` (an ELF built by `weft cc`), or a
    `module` (a weft.Module). `config` is machine-configuration TOML, as text or a path (the
    keys `weft run --config` reads: caches, units, scheduler, DRAM, …); cores, warps, lanes,
    timing and dram_size given here override it (defaults without it: 1 core, 4 warps,
    8 lanes, functional model).
    """

    def __init__(self, cores=None, warps=None, lanes=None, timing=None, program=None,
                 sources=None, dram_size=None, *, source=None, options=(), lang="c",
                 module=None, config=None, backend=None):
        if timing is not None and not isinstance(timing, (bool, np.bool_)):
            raise TypeError(f"timing must be True or False, not {type(timing).__name__}")
        if module is not None:
            if not isinstance(module, Module):
                raise TypeError(f"module must be a weft.Module, not {type(module).__name__}")
            if (source, sources, program) != (None, None, None) or options:
                raise TypeError("give a module or a program/source/sources, not both")
        if backend is not None and not isinstance(backend, str):
            raise TypeError(f"backend must be a string, not {type(backend).__name__}")
        config = _config(config)
        dims = [None if v is None else _int(n, v, 1, _U32)
                for n, v in (("cores", cores), ("warps", warps), ("lanes", lanes))]
        if config is None:
            dims = [d if v is None else v for d, v in zip((1, 4, 8), dims)]
        dram = None if dram_size is None else _int("dram_size", dram_size, 1, _U32)
        if module is None:
            module = Module(source=source, sources=sources, program=program, options=options,
                            lang=lang)
        self.module = module
        self._d = _call(_weft.NativeDevice, module.elf, *dims,
                        None if timing is None else bool(timing), dram, config, backend)
        self.modules = [DeviceModule(self, module, 0)]
        self._pending = []  # Launch objects queued, oldest first
        self._done = 0  # launches with stats so far

    def load(self, source=None, sources=None, program=None, *, module=None, options=(),
             lang="c"):
        """Load another kernel program onto the device — `source` text, `sources` files or a
        `program` ELF (built as weft.Module builds them, through the compile cache), or a
        weft.Module — and return it as a DeviceModule whose launch()/run() take its kernels.
        All of a device's programs share its buffers; a launch swaps its program in when
        another one is resident (its code decoded afresh; each program keeps its own
        globals). A program's code, stacks and heap lie below the buffers: load programs
        before allocating buffers (a program larger than those loaded so far raises
        LoadError once buffers lie where it needs room)."""
        if module is not None:
            if not isinstance(module, Module):
                raise TypeError(f"module must be a weft.Module, not {type(module).__name__}")
            if (source, sources, program) != (None, None, None) or options:
                raise TypeError("give a module or a program/source/sources, not both")
        else:
            module = Module(source=source, sources=sources, program=program, options=options,
                            lang=lang)
        index = _call(self._d.load, module.elf)
        m = DeviceModule(self, module, index)
        self.modules.append(m)
        return m

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

    def launch(self, kernel, grid, block, *args, shared=0, trace=False):
        """Queue kernel `kernel` of the device's program over `grid` blocks of `block`
        threads (ints or tuples). Nothing runs yet: the launch waits behind those already
        queued, and wait() runs them all. Returns the Launch (its own wait(), stats(),
        cycles). `trace=True` records the launch, at most TRACE_STEPS warp-instructions
        (`trace=N`: at most N) for Launch.trace() and Launch.view(); once a device has
        recorded a launch it runs on the interpreter (the same results and cycles, slower).
        Kernels of another program: Device.load(...).launch(...)."""
        return self._launch(0, kernel, grid, block, args, shared, trace)

    def _launch(self, module, kernel, grid, block, args, shared, trace):
        if not isinstance(kernel, str):
            raise TypeError(f"kernel must be a name (str), not {type(kernel).__name__}")
        grid, block = _dim3("grid", grid), _dim3("block", block)
        bound = _trace_bound(trace)
        id = _call(self._d.launch, kernel, grid, block, _pack(args, self),
                   _int("shared", shared, 0, _U32), module, bound)
        launch = Launch(self, kernel, grid, block, id, bound is not None, module)
        self._pending.append(launch)
        return launch

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
        try:
            _call(self._d.wait, max_cycles, timeout)
        finally:
            # The launches that ran have stats in order; any left were dropped by a failure.
            done = len(json.loads(self._d.launch_stats_json()))
            for launch in self._pending:
                if self._done < done:
                    launch.index, self._done = self._done, self._done + 1
                else:
                    launch.dropped = True
            self._pending = [] if self._d.queued() == 0 else \
                [x for x in self._pending if not x.dropped]

    def run(self, kernel, grid, block, *args, shared=0, trace=False, max_cycles=None,
            timeout=None):
        """launch() then wait() (which runs any launch queued before this one too)."""
        launch = self.launch(kernel, grid, block, *args, shared=shared, trace=trace)
        self.wait(max_cycles, timeout)
        return launch

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

    def _repr_html_(self):
        launches = self.launch_stats()
        rows = [("cycles", self.cycles), ("launches", len(launches)), ("queued", self.queued)]
        rows += [(f"launch {i}", f"cycles {x.get('cycles')}, SIMD efficiency "
                  f"{x.get('simd_efficiency')}") for i, x in enumerate(launches)]
        return _html_table("weft device", rows)
