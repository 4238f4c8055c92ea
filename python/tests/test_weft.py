"""The Python package against numpy references: launches over grids larger than the
machine, memory kept across launches, stats, and every error as its exception class with
the device usable afterwards."""
import pathlib
import runpy

import numpy as np
import pytest

import weft

ROOT = pathlib.Path(__file__).resolve().parents[2]
KERNELS = ROOT / "crates/runtime/tests/kernels/kernels.c"


@pytest.fixture(scope="module")
def dev():
    return weft.Device(cores=2, warps=4, lanes=8, sources=[KERNELS])


def test_vecadd_on_a_grid_larger_than_the_machine(dev):
    n = 7000
    a = np.arange(n, dtype=np.uint32) * np.uint32(2654435761)
    b = np.arange(n, dtype=np.uint32) ^ np.uint32(0xDEADBEEF)
    ba, bb, bc = dev.array(a), dev.array(b), dev.empty(n, np.uint32)
    dev.run("vecadd_u32", (n + 63) // 64, 64, ba, bb, bc, n)
    assert np.array_equal(bc.numpy(), a + b)


def test_saxpy_three_times_on_the_same_buffers(dev):
    n = 1000
    x = np.linspace(-3, 3, n, dtype=np.float32)
    y = np.cos(np.arange(n, dtype=np.float32))
    bx, by = dev.array(x), dev.array(y)
    want = y.copy()
    for alpha in (2.0, -0.5, 3.0):
        dev.run("saxpy", (n + 31) // 32, 32, np.float32(alpha), bx, by, n)
        want = np.float32(alpha) * x + want
    np.testing.assert_allclose(by.numpy(), want, rtol=1e-5, atol=1e-5)
    stats = dev.stats()
    assert stats["warp_instructions"] > 0 and 0 < stats["simd_efficiency"] <= 1


def test_printf_output_in_thread_order(dev):
    dev.output()
    dev.run("hello", 3, 4)
    assert dev.output() == "".join(f"hello from thread {i}\n" for i in range(12))


def test_errors_are_exceptions_and_the_device_survives(dev):
    buf = dev.array(np.zeros(64, np.uint32))
    with pytest.raises(weft.KernelFault) as e:
        dev.run("faulty", 1, 8, buf)
    assert e.value.code == "STORE_FAULT" and e.value.lanes & (1 << 5) and e.value.addr == 0
    assert "STORE_FAULT" in str(e.value)
    flag = dev.array(np.zeros(1, np.uint32))
    with pytest.raises(weft.Timeout):
        dev.run("forever", 1, 4, flag, max_cycles=100_000)
    with pytest.raises(weft.Timeout) as t:
        dev.run("forever", 1, 4, flag, timeout=0.2)
    assert t.value.info["cycles"] > 0
    with pytest.raises(weft.BadAddress):
        dev.read(buf, np.uint32, 1, offset=256)
    with pytest.raises(weft.NoSuchKernel):
        dev.launch("nope", 1, 1)
    with pytest.raises(weft.OutOfMemory):
        dev.alloc(2**32 - 64)
    with pytest.raises(weft.LoadError):
        weft.Device(program="/no/such.elf")
    with pytest.raises(TypeError):
        dev.launch("vecadd_u32", 1, 1, "a string")
    a = dev.array(np.array([1, 2, 3], np.uint32))
    b = dev.array(np.array([10, 20, 30], np.uint32))
    c = dev.empty(3, np.uint32)
    dev.run("vecadd_u32", 1, 32, a, b, c, 3)
    assert c.numpy().tolist() == [11, 22, 33]


def test_the_example_runs():
    runpy.run_path(str(ROOT / "examples/python/examples.py"), run_name="__main__")


def test_the_timing_model_gives_the_same_results_and_counts_cycles():
    n = 2000
    a = np.arange(n, dtype=np.uint32) * np.uint32(40503)
    b = np.arange(n, dtype=np.uint32) ^ np.uint32(0x1234567)
    results = []
    for timing in (False, True):
        d = weft.Device(cores=1, warps=4, lanes=8, timing=timing, sources=[KERNELS])
        ba, bb, bc = d.array(a), d.array(b), d.empty(n, np.uint32)
        d.run("vecadd_u32", (n + 63) // 64, 64, ba, bb, bc, n)
        assert np.array_equal(bc.numpy(), a + b)
        results.append(d.stats())
    functional, timed = results
    assert "timing" not in functional
    t = timed["timing"]
    assert timed["warp_instructions"] == functional["warp_instructions"]
    assert t["issued"] + sum(t["stalls"].values()) == t["cycles"]
    assert t["cycles"] > functional["cycles"]


def test_each_launch_has_its_own_counters():
    d = weft.Device(cores=1, warps=4, lanes=8, sources=[KERNELS])
    n = 2000
    a = np.arange(n, dtype=np.uint32)
    ba, bc = d.array(a), d.empty(n, np.uint32)
    for m in (n // 2, n):
        d.run("vecadd_u32", (m + 63) // 64, 64, ba, ba, bc, m)
    launches = d.launch_stats()
    assert [l["kernel"] for l in launches] == ["vecadd_u32", "vecadd_u32"]
    assert all(l["complete"] for l in launches)
    assert launches[1]["thread_instructions"] > launches[0]["thread_instructions"]
    assert d.launch_stats(-1) == launches[1]
    total = d.stats()
    assert sum(l["thread_instructions"] for l in launches) < total["thread_instructions"]
    assert len(total["launches"]) == 2


def test_launches_queue_and_wait_runs_them_in_order(dev):
    log = dev.array(np.zeros(8, np.uint32))
    flag = dev.array(np.zeros(1, np.uint32))
    assert dev.queued == 0
    cycles = dev.cycles
    # Behind a kernel that never ends, a launch returns at once; the wait's limit bounds both
    # and the one behind the timeout is dropped.
    dev.launch("forever", 1, 4, flag)
    dev.launch("record", 1, 8, log, 9)
    assert dev.queued == 2 and dev.cycles == cycles
    with pytest.raises(weft.Timeout):
        dev.wait(max_cycles=100_000)
    assert dev.queued == 0 and log.numpy()[0] == 0
    with pytest.raises(weft.NothingLaunched):
        dev.wait()
    for v in (1, 2, 3):
        dev.launch("record", 1, 8, log, v)
    dev.wait(timeout=float("inf"))
    assert log.numpy()[:4].tolist() == [3, 1, 2, 3]


def test_every_number_and_dtype_is_checked_before_anything_happens(dev):
    buf = dev.array(np.arange(16, dtype=np.uint32))
    bad = [
        # (call, exception)
        (lambda: dev.read(buf, object, 4), TypeError),
        (lambda: dev.read(buf, np.dtype([("a", "O")]), 1), TypeError),
        (lambda: buf.write(np.array([object(), 1], dtype=object)), TypeError),
        (lambda: dev.array(np.array(["a", 1], dtype=object)), TypeError),
        (lambda: dev.empty(4, object), TypeError),
        (lambda: dev.read(buf, "not a dtype"), TypeError),
        (lambda: dev.read(buf, np.uint32, -1), ValueError),
        (lambda: dev.read(buf, np.uint32, 2**40), ValueError),
        (lambda: dev.read(buf, np.uint32, 17), weft.BadAddress),
        (lambda: dev.read(buf, np.uint32, 1, offset=-4), ValueError),
        (lambda: dev.read(buf, np.uint32, 1, offset=1.5), TypeError),
        (lambda: dev.write(buf, np.zeros(4, np.uint32), offset=2**32), ValueError),
        (lambda: dev.alloc(-1), ValueError),
        (lambda: dev.alloc(2**32), ValueError),
        (lambda: dev.alloc(3.0), TypeError),
        (lambda: dev.empty((-1, 4)), ValueError),
        (lambda: dev.empty((2**20, 2**20)), ValueError),
        (lambda: dev.wait(timeout=float("nan")), ValueError),
        (lambda: dev.wait(timeout=-1), ValueError),
        (lambda: dev.wait(timeout="1"), TypeError),
        (lambda: dev.wait(max_cycles=-5), ValueError),
        (lambda: dev.wait(max_cycles=0), ValueError),
        (lambda: dev.wait(max_cycles=2**64), ValueError),
        (lambda: dev.wait(max_cycles=1e6), TypeError),
        (lambda: dev.launch("record", 0, 8, buf, 1), ValueError),
        (lambda: dev.launch("record", (1, 1, 1, 1), 8, buf, 1), TypeError),
        (lambda: dev.launch("record", 1, 2**32, buf, 1), ValueError),
        (lambda: dev.launch("record", 1, 8, buf, 1, shared=-1), ValueError),
        (lambda: dev.launch("record", 1, 8, buf, 2**32), OverflowError),
        (lambda: dev.launch("record", 1, 8, buf, -(2**31) - 1), OverflowError),
        (lambda: dev.launch("record", 1, 8, buf, 1e300), OverflowError),
        (lambda: dev.launch("record", 1, 8, buf, np.str_("x")), TypeError),
        (lambda: dev.launch("record", 1, 8, buf, np.complex64(1)), TypeError),
        (lambda: dev.launch(3, 1, 8), TypeError),
        (lambda: dev.free(3), TypeError),
        (lambda: weft.Device(cores=-1, sources=[KERNELS]), ValueError),
        (lambda: weft.Device(lanes=2.5, sources=[KERNELS]), TypeError),
        (lambda: weft.Device(timing=1, sources=[KERNELS]), TypeError),
        (lambda: weft.Device(dram_size=2**40, sources=[KERNELS]), ValueError),
        (lambda: weft.Device(sources=str(KERNELS)), TypeError),
        # A buffer of another device (here a forged one): its address means nothing here.
        (lambda: dev.read(weft.Buffer(object(), buf.addr, 64)), ValueError),
        (lambda: dev.launch("record", 1, 8, weft.Buffer(object(), buf.addr, 64), 1), ValueError),
    ]
    for i, (call, exc) in enumerate(bad):
        with pytest.raises(exc):
            call()
        assert dev.queued == 0, f"case {i} queued a launch"
    # Numbers the API takes as they are: no limit, a float timeout, an int timeout.
    dev.launch("record", 1, 8, buf, np.uint32(7))
    dev.wait(timeout=1e300)
    dev.run("record", (1,), [8], buf, 7, timeout=60)
    assert buf.numpy()[0] == 2
