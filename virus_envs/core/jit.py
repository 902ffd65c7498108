"""Optional numba: `njit` compiles a kernel when numba is installed, else leaves it plain Python.

The batched engines (e.g. `virus_envs.roll_write.batched`) are written as per-game loops over
integer arrays: numba turns them into machine code (the `[fast]` extra); without numba the very
same functions run as Python, with the same results, far slower. `VIRUS_ENVS_NO_NUMBA=1` forces
the Python path (the tests use it to check that the fallback agrees).

Integer arithmetic that must wrap at 64 bits (the PCG64 emulation in `core/pcg64.py`) is written
with explicit masks and with constants of type `U`: numba's uint64 under numba, Python's int
without it (numpy uint64 scalars would warn on every wrap).
"""
from __future__ import annotations

import os

import numpy as np

HAVE_NUMBA = False
if os.environ.get("VIRUS_ENVS_NO_NUMBA", "") in ("", "0"):
    try:
        import numba
        HAVE_NUMBA = True
    except ImportError:       # the [fast] extra is not installed: plain Python
        numba = None

#: the unsigned 64-bit integer type of the kernels' wrapping arithmetic
U = np.uint64 if HAVE_NUMBA else int


def njit(fn):
    """numba.njit(cache=True) when numba is available, else fn itself."""
    if HAVE_NUMBA:
        return numba.njit(cache=True, nogil=True)(fn)
    return fn
