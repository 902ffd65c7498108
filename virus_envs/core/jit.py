"""Optional numba: `njit` compiles a kernel when numba is installed, else leaves it plain Python.

The batched engines (e.g. `virus_envs.roll_write.batched`) are written as per-game loops over
integer arrays: numba turns them into machine code (the `[fast]` extra); without numba the very
same functions run as Python, with the same results, far slower. `VIRUS_ENVS_NO_NUMBA=1` forces
the Python path (the tests use it to check that the fallback agrees).

Compiled kernels are cached beside their sources (`__pycache__/*.nbi, *.nbc`). numba checks only the
kernel's own file for changes: after editing a module whose kernels others call (`core/pcg64.py`),
delete the callers' caches (`find virus_envs -name "*.nb[ic]" -delete`).

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


def njit(fn=None, *, inline: bool = False):
    """numba.njit(cache=True) when numba is available, else fn itself. inline=True: inlined into its
    callers at numba's level (small helpers of a hot loop: a call between compiled functions passes
    every array as a dozen machine words)."""
    if fn is None:
        return lambda f: njit(f, inline=inline)
    if HAVE_NUMBA:
        return numba.njit(cache=True, nogil=True, inline="always" if inline else "never")(fn)
    return fn
