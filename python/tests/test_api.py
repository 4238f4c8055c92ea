"""The Python API as CuPy/PyCUDA users reach for it: kernels from strings through the compile
cache, config=, array-like buffers, launch objects with their own counters, typed errors,
__version__ and the stubs. Results are checked against numpy on the host."""
import pathlib
import re
import tomllib

import numpy as np
import pytest

import weft

ROOT = pathlib.Path(__file__).resolve().parents[2]

SCALE = r"""
#include <weft.h>
struct args { unsigned *x; unsigned k; unsigned n; };
WEFT_KERNEL void scale(void *p) {
    struct args *g = p;
    unsigned i = weft_global_thread();
    if (i < g->n) g->x[i] = g->x[i] * g->k + OFFSET;
}
"""


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """A compile cache of this test run's own."""
    d = tmp_path_factory.mktemp("cache")
    mp = pytest.MonkeyPatch()
    mp.setenv("WEFT_CACHE_DIR", str(d))
    yield d
    mp.undo()


def test_source_string_and_the_compile_cache(cache):
    first = weft.Module(source=SCALE, options=["-DOFFSET=7", "-O2"])
    assert not first.cached
    again = weft.Module(source=SCALE, options=["-DOFFSET=7", "-O2"])
    assert again.cached and again.elf == first.elf
    other = weft.Module(source=SCALE, options=["-DOFFSET=9", "-O2"])
    assert not other.cached and other.elf != first.elf
    for m, off in ((again, 7), (other, 9)):
        d = weft.Device(cores=1, warps=2, lanes=8, module=m)
        x = np.arange(300, dtype=np.uint32)
        b = d.array(x)
        d.launch("scale", 10, 32, b, 3, 300).wait()
        assert np.array_equal(b.get(), x * 3 + off)
    d = weft.Device(source=SCALE, options=["-DOFFSET=7", "-O2"])
    assert d.module.cached
    with pytest.raises(weft.LoadError, match="OFFSET"):
        weft.Module(source=SCALE)  # OFFSET undefined: clang's message
    with pytest.raises(weft.LoadError, match="--fast"):
        weft.Module(source=SCALE, options=["--fast"])
    with pytest.raises(TypeError, match="one of source"):
        weft.Device(source=SCALE, sources=["k.c"])


def test_config_text_and_path(cache, tmp_path):
    toml = "cores = 2\nwarps = 2\nlanes = 4\ntiming = true\n[l1]\nsize = 8192\n"
    path = tmp_path / "machine.toml"
    path.write_text(toml)
    x = np.arange(500, dtype=np.uint32)
    cycles = []
    for config, lanes in ((toml, None), (path, None), (str(path), 8)):
        d = weft.Device(source=SCALE, options=["-DOFFSET=1"], config=config, lanes=lanes)
        b = d.array(x)
        d.run("scale", 16, 32, b, 2, 500)
        assert np.array_equal(b.get(), x * 2 + 1)
        s = d.stats()
        assert "timing" in s, "timing = true from the configuration"
        cycles.append(d.cycles)
    assert cycles[0] == cycles[1], "text and path give the same machine"
    assert cycles[2] != cycles[0], "lanes= overrides the configuration"
    with pytest.raises(weft.LoadError, match="configuration"):
        weft.Device(source=SCALE, options=["-DOFFSET=1"], config="cores = 0\n")
    with pytest.raises(weft.LoadError, match="nowhere.toml"):
        weft.Device(source=SCALE, options=["-DOFFSET=1"], config="nowhere.toml")


def test_buffers_are_array_like(cache):
    d = weft.Device(source=SCALE, options=["-DOFFSET=0"])
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    b = weft.asarray(a, d)
    assert weft.asarray(b, d) is b
    assert (len(b), b.shape, b.dtype, b.size, b.ndim) == (4, (4, 6), np.float32, 24, 2)
    assert np.array_equal(np.asarray(b), a)
    assert np.asarray(b, dtype=np.float64).dtype == np.float64
    assert np.array_equal(b[1:3, ::2], a[1:3, ::2])
    assert b[2, 3] == a[2, 3]
    b[0] = -1
    a[0] = -1
    assert np.array_equal(b.get(), a)
    b.set(a * 2)
    assert np.array_equal(np.asarray(b) + np.asarray(b), a * 4)
    with pytest.raises(ValueError, match="shape"):
        b.set(np.zeros(5))
    with pytest.raises(TypeError, match=r"d\.array"):
        d.launch("scale", 1, 8, a, 1, 1)


def test_launch_objects_have_their_own_counters(cache):
    d = weft.Device(cores=1, warps=4, lanes=8, source=SCALE, options=["-DOFFSET=0"])
    x = np.arange(2000, dtype=np.uint32)
    b = d.array(x)
    small = d.launch("scale", 1, 32, b, 2, 32)
    big = d.launch("scale", 63, 32, b, 3, 2000)
    assert d.queued == 2 and not small.done
    big.wait()  # runs the queue, small first
    assert small.done and big.done and d.queued == 0
    want = x * 3
    want[:32] = x[:32] * 6
    assert np.array_equal(b.get(), want)
    assert small.stats()["kernel"] == "scale" and small.index == 0 and big.index == 1
    assert 0 < small.cycles < big.cycles
    assert big.stats()["thread_instructions"] > 10 * small.stats()["thread_instructions"]
    total = d.stats()["thread_instructions"]
    assert small.stats()["thread_instructions"] + big.stats()["thread_instructions"] <= total
    assert d.run("scale", 1, 8, b, 1, 8).index == 2
    html = big._repr_html_()
    assert "<table>" in html and str(big.cycles) in html
    assert "launch 2" in d._repr_html_()


def test_a_failure_drops_the_launches_behind_it(cache):
    src = SCALE + "WEFT_KERNEL void crash(void *p) { *(volatile unsigned *)0 = 1; }\n"
    d = weft.Device(source=src, options=["-DOFFSET=0"])
    b = d.array(np.ones(8, np.uint32))
    ok, bad, after = (d.launch("scale", 1, 8, b, 2, 8), d.launch("crash", 1, 8),
                      d.launch("scale", 1, 8, b, 5, 8))
    with pytest.raises(weft.KernelFault):
        after.wait()
    assert ok.done and ok.cycles > 0
    assert after.dropped and not after.done
    with pytest.raises(weft.NothingLaunched, match="dropped"):
        after.stats()
    assert np.array_equal(b.get(), np.full(8, 2, np.uint32))
    assert d.run("scale", 1, 8, b, 5, 8).cycles > 0, "the device runs on"
    assert bad is not None


def test_typed_errors_version_and_stubs(cache):
    d = weft.Device(source=SCALE, options=["-DOFFSET=0"])
    with pytest.raises(weft.OutOfMemory) as e:
        d.empty(1 << 30, np.float32)
    assert e.value.info["requested"] == 4 << 30
    with pytest.raises(weft.OutOfMemory):
        d.empty(1 << 28, np.float32)  # 1 GiB: fits 32 bits, not the device's DRAM
    pyproject = tomllib.loads((ROOT / "python/pyproject.toml").read_text())
    cargo = tomllib.loads((ROOT / "python/Cargo.toml").read_text())
    assert re.fullmatch(r"\d+\.\d+\.\d+", weft.__version__)
    assert weft.__version__ == cargo["package"]["version"]
    assert pyproject["project"]["version"] == weft.__version__
    # The stubs name every public name of the package, and each class's public methods.
    stub = (ROOT / "python/weft/__init__.pyi").read_text()
    assert (ROOT / "python/weft/py.typed").exists()
    for name in weft.__all__:
        assert re.search(rf"^(class|def) {name}\b", stub, re.M), f"{name} missing in the stub"
    for cls in (weft.Device, weft.Buffer, weft.Launch, weft.Module):
        for attr in vars(cls):
            if not attr.startswith("_") or attr in ("__array__", "__len__", "__getitem__"):
                assert re.search(rf"\b{attr}\b", stub), f"{cls.__name__}.{attr} not in the stub"
