"""weft from Python, notebook style: vecadd, a tiled sgemm, a block reduction and a
two-launch pipeline on the simulated GPU, each checked against numpy, then the sgemm again
on the cycle-level timing model.

    pip install ./python            # builds the package (maturin) into the current environment
    python examples/python/examples.py
"""
import pathlib

import numpy as np

import weft

here = pathlib.Path(__file__).parent
d = weft.Device(cores=1, warps=4, lanes=8, sources=[here.parent / "host" / "kernels.c"])

# vecadd: 10,000 threads on a 32-lane machine
n = 10_000
rng = np.random.default_rng(1)
a = rng.standard_normal(n, dtype=np.float32)
b = rng.standard_normal(n, dtype=np.float32)
ba, bb, bc = d.array(a), d.array(b), d.empty(n, np.float32)
d.run("vecadd", (n + 63) // 64, 64, ba, bb, bc, np.uint32(n))
assert np.array_equal(bc.numpy(), a + b)
print(f"vecadd: {n} elements match numpy ({d.cycles} cycles so far)")

# sgemm: 32 x 32, 4 x 4 tiles (16-thread blocks fit the core for their barriers)
m, tile = 32, 4
A = rng.integers(-8, 8, (m, m)).astype(np.float32)
B = rng.integers(-8, 8, (m, m)).astype(np.float32)
bA, bB, bC = d.array(A), d.array(B), d.empty((m, m), np.float32)
d.run("sgemm", (m // tile, m // tile), (tile, tile), bA, bB, bC, np.uint32(m),
      shared=2 * tile * tile * 4)
assert np.array_equal(bC.numpy(), A @ B)
s = d.stats()
print(f"sgemm: matches numpy; {s['warp_instructions']} warp-instructions, "
      f"SIMD efficiency {s['simd_efficiency']:.1%}")

# reduction: 5,000 words, one atomic add per 32-thread block
v = (np.arange(5000, dtype=np.uint32) * 31) % 1000
bv, bs = d.array(v), d.array(np.zeros(1, np.uint32))
d.run("block_sum", (5000 + 31) // 32, 32, bv, np.uint32(5000), bs, shared=32 * 4)
assert bs.numpy()[0] == v.sum()
print(f"reduction: {v.sum()} matches numpy")

# pipeline: scale twice in place; the buffer stays on the device between launches
x = np.linspace(0, 1, 4096, dtype=np.float32)
bx = d.array(x)
for s_ in (4.0, 0.125):
    d.run("scale", 4096 // 64, 64, bx, np.float32(s_), np.uint32(4096))
assert np.array_equal(bx.numpy(), x * np.float32(4.0) * np.float32(0.125))
print("pipeline: matches numpy")

# the same sgemm on the cycle-level timing model: the same answer, and where the cycles went
t = weft.Device(cores=1, warps=4, lanes=8, timing=True, sources=[here.parent / "host" / "kernels.c"])
tA, tB, tC = t.array(A), t.array(B), t.empty((m, m), np.float32)
t.run("sgemm", (m // tile, m // tile), (tile, tile), tA, tB, tC, np.uint32(m),
      shared=2 * tile * tile * 4)
assert np.array_equal(tC.numpy(), A @ B)
tm = t.stats()["timing"]
lost = max(tm["stalls"], key=tm["stalls"].get)
print(f"sgemm on the timing model: matches numpy; {tm['cycles']} cycles, "
      f"{tm['issued'] / tm['cycles']:.2f} IPC, most lost slots: {lost}, "
      f"L1 hit rate {tm['l1_hit_rate']:.1%}")
