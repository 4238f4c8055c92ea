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


def test_the_rtl_backend_computes_what_numpy_does():
    """backend="rtl": weft's SystemVerilog core under Verilator (one core), against numpy and
    bit for bit against the functional model: integer vecadd over a grid larger than the
    machine, float saxpy twice on the same buffers, printf in thread order, a store fault as
    KernelFault, and the RTL's own statistics (the functional model's instruction counts,
    its own clock cycles)."""
    n = 600
    a = np.arange(n, dtype=np.uint32) * np.uint32(2654435761)
    b = np.arange(n, dtype=np.uint32) ^ np.uint32(0xDEADBEEF)
    x = np.linspace(-3, 3, 200, dtype=np.float32)
    y = np.sin(np.arange(200, dtype=np.float32))
    got = {}
    for backend in ("functional", "rtl"):
        d = weft.Device(cores=1, warps=4, lanes=8, backend=backend, sources=[KERNELS])
        ba, bb, bc = d.array(a), d.array(b), d.empty(n, np.uint32)
        d.run("vecadd_u32", (n + 63) // 64, 64, ba, bb, bc, n)
        assert np.array_equal(bc.numpy(), a + b)
        bx, by = d.array(x), d.array(y)
        want = y.copy()
        for alpha in (2.5, -0.75):
            d.run("saxpy", 200 // 32 + 1, 32, np.float32(alpha), bx, by, 200)
            want = np.float32(alpha) * x + want
        np.testing.assert_allclose(by.numpy(), want, rtol=1e-5, atol=1e-5)
        d.output()
        d.run("hello", 2, 4)
        assert d.output() == "".join(f"hello from thread {i}\n" for i in range(8))
        buf = d.array(np.zeros(64, np.uint32))
        with pytest.raises(weft.KernelFault) as e:
            d.run("faulty", 1, 8, buf)
        assert e.value.code == "STORE_FAULT"
        got[backend] = (by.numpy(), d.stats())
    assert np.array_equal(got["rtl"][0].view(np.uint32), got["functional"][0].view(np.uint32))
    s, f = got["rtl"][1], got["functional"][1]
    assert s["model"] == "rtl" and f["model"] == "functional"
    assert s["warp_instructions"] == f["warp_instructions"]
    assert s["thread_instructions"] == f["thread_instructions"]
    assert s["cycles"] > s["issue_slots"] > 0   # clock cycles: several per issue slot
    with pytest.raises(weft.LoadError):
        weft.Device(backend="verilog", sources=[KERNELS])
