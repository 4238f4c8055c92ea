"""weft from Python, notebook style: vecadd and a tiled sgemm on the simulated GPU, each
checked against numpy.

    pip install ./python            # builds the package (maturin) into the current environment
    python examples/python/vecadd_sgemm.py
"""
import pathlib

import numpy as np

import weft

here = pathlib.Path(__file__).parent
d = weft.Device(cores=1, warps=4, lanes=8, sources=[here / "kernels.c"])

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
