"""Several programs on one device (Device.load: kernels of two programs on the same buffers,
results checked against numpy), recorded launches (Launch.trace(), Launch.view() with the
`weft view` page) and arithmetic on buffers (numpy's, on copies)."""
import sys

import numpy as np
import pytest

import weft

HEAD = r"""
#include <weft.h>
struct args { unsigned *x; unsigned n; };
"""
INC = HEAD + r"""
WEFT_KERNEL void inc(void *p) {
    struct args *g = p;
    unsigned i = weft_global_thread();
    if (i < g->n) g->x[i] += 1;
}
"""
# Lanes diverge (odd and even elements), and a global counts the program's launches.
STEP = HEAD + r"""
static unsigned calls = 100;
WEFT_KERNEL void step(void *p) {
    struct args *g = p;
    unsigned i = weft_global_thread();
    if (i < g->n) {
        unsigned v = g->x[i];
        g->x[i] = (v & 1) ? 3 * v + 1 : v / 2;
    }
}
WEFT_KERNEL void count(void *p) {
    struct args *g = p;
    if (weft_global_thread() == 0) g->x[0] = calls++;
}
"""


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("WEFT_CACHE_DIR", str(tmp_path))


def step(v):
    return np.where(v & 1, 3 * v + 1, v // 2)


@pytest.mark.parametrize("timing", [False, True])
def test_two_programs_on_the_same_buffers(timing):
    d = weft.Device(cores=2, warps=2, lanes=4, timing=timing, source=INC)
    m = d.load(source=STEP)
    assert isinstance(m, weft.DeviceModule) and m.index == 1 and d.modules[1] is m
    assert d.modules[0].module is d.module
    x0 = np.arange(1, 301, dtype=np.uint32)
    x = d.array(x0)
    launches = [d.launch("inc", 10, 32, x, 300), m.launch("step", 10, 32, x, 300),
                m.launch("step", 10, 32, x, 300), d.modules[0].launch("inc", 10, 32, x, 300)]
    d.wait()
    assert np.array_equal(x.get(), step(step(x0 + 1)) + 1)
    assert [l.stats()["kernel"] for l in launches] == ["inc", "step", "step", "inc"]
    # Each program's globals survive the other's launches.
    out = d.empty(1, np.uint32)
    seen = []
    for _ in range(3):
        m.run("count", 1, 4, out, 1)
        seen.append(int(out[0]))
        d.run("inc", 1, 4, x, 300)
    assert seen == [100, 101, 102]
    # A kernel is looked up in its own program.
    with pytest.raises(weft.NoSuchKernel):
        m.launch("inc", 1, 4, x, 1)
    with pytest.raises(weft.NoSuchKernel):
        d.launch("step", 1, 4, x, 1)


def test_load_takes_every_kind_of_program_and_refuses_what_does_not_fit(tmp_path):
    src = tmp_path / "step.c"
    src.write_text(STEP)
    d = weft.Device(source=INC)
    built = weft.Module(sources=[src])
    elf = tmp_path / "step.elf"
    elf.write_bytes(built.elf)
    for m in (d.load(sources=[src]), d.load(program=elf), d.load(module=built)):
        x = d.array(np.array([5, 6], np.uint32))
        m.run("step", 1, 2, x, 2)
        assert list(x.get()) == [16, 3]
    assert len(d.modules) == 4
    with pytest.raises(TypeError, match="not both"):
        d.load(source=STEP, module=built)
    with pytest.raises(weft.LoadError):
        d.load(source="this is not C")
    # A larger program than any loaded needs room where buffers now lie.
    big = STEP + "unsigned table[65536] = {1};\n" \
                 "WEFT_KERNEL void big(void *p) { ((struct args *)p)->x[0] = table[0]; }\n"
    with pytest.raises(weft.LoadError, match="before allocating"):
        d.load(source=big)
    e = weft.Device(source=INC)
    mb = e.load(source=big)
    x = e.array(np.zeros(1, np.uint32))
    mb.run("big", 1, 1, x, 1)
    assert x[0] == 1


def test_a_recorded_launch_has_its_trace_and_page():
    d = weft.Device(cores=1, warps=2, lanes=4, timing=True, source=INC)
    plain = weft.Device(cores=1, warps=2, lanes=4, timing=True, source=INC)
    x0 = np.arange(6, dtype=np.uint32)
    x, y = d.array(x0), plain.array(x0)
    l = d.launch("inc", 1, 8, x, 6, trace=True)
    p = plain.launch("inc", 1, 8, y, 6)
    t = l.trace()  # runs the launch
    plain.wait()
    assert np.array_equal(x.get(), x0 + 1) and np.array_equal(y.get(), x0 + 1)
    assert l.cycles == p.cycles, "recording changes no cycle"
    # One step per warp-instruction of the run (the device ran this launch alone).
    assert len(t) == d.stats()["warp_instructions"] and l.trace_dropped == 0
    first = t[0]
    assert set(first) == {"cycle", "core", "warp", "mask", "pc", "symbol", "inst", "line"}
    assert first["symbol"] == "_start" and first["mask"] == 1
    assert first["line"] == (f"{first['cycle']:>10} c0 w0 {first['mask']:08x} "
                             f"{first['pc']:08x} <_start>  {first['inst']}\n")
    assert any(s["symbol"] == "inc" for s in t)
    assert [s["cycle"] for s in t] == sorted(s["cycle"] for s in t)
    # The page: weft view's, inline.
    page = l.view()
    html = page._repr_html_() if hasattr(page, "_repr_html_") else page.data
    assert html.startswith("<iframe srcdoc=") and "&lt;!DOCTYPE html&gt;" in html
    assert "&quot;program&quot;:&quot;inc&quot;" in html
    # A bound cuts the recording, not the launch.
    short = d.launch("inc", 1, 8, x, 6, trace=50)
    assert len(short.trace()) == 50 and short.trace_dropped > 0
    assert np.array_equal(x.get(), x0 + 2)
    with pytest.raises(weft.WeftError, match="trace=True"):
        d.run("inc", 1, 8, x, 6).trace()
    with pytest.raises(ValueError):
        d.launch("inc", 1, 8, x, 6, trace=0)


def test_view_without_ipython_is_a_page_object(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "IPython", None)
    monkeypatch.setitem(sys.modules, "IPython.display", None)
    d = weft.Device(cores=1, warps=1, lanes=4, source=INC)
    x = d.array(np.zeros(4, np.uint32))
    page = d.run("inc", 1, 4, x, 4, trace=True).view(height=300)
    assert isinstance(page, weft.ViewPage) and page.html.startswith("<!DOCTYPE html>")
    assert "height:300px" in page._repr_html_()
    page.save(tmp_path / "v.html")
    assert (tmp_path / "v.html").read_text() == page.html


def test_arithmetic_on_buffers_is_numpys_on_copies():
    d = weft.Device(source=INC)
    a0 = np.array([1.5, 2.0, -3.0], np.float32)
    b0 = np.array([4.0, 0.5, 2.0], np.float32)
    a, b = d.array(a0), d.array(b0)
    for got, want in ((a + b, a0 + b0), (a - b, a0 - b0), (a * 2, a0 * 2), (2 * a, 2 * a0),
                      (a / b, a0 / b0), (1 - a, 1 - a0), (a ** 2, a0 ** 2), (-a, -a0),
                      (abs(a), abs(a0)), (b0 + a, b0 + a0), (a // b, a0 // b0),
                      (a % b, a0 % b0)):
        assert isinstance(got, np.ndarray) and got.dtype == want.dtype
        assert np.array_equal(got, want)
    assert np.array_equal(a.get(), a0), "the buffer is unchanged"
