"""Kernels every batched engine shares (compiled by numba when installed, see core/jit.py)."""
from __future__ import annotations

from .jit import njit


@njit
def random_actions(M, u, out):
    """A uniformly drawn legal action per game (u[i] uniform in [0, 1)); -1 where nothing is legal."""
    B, A = M.shape
    for i in range(B):
        cnt = 0
        for a in range(A):
            if M[i, a]:
                cnt += 1
        if cnt == 0:
            out[i] = -1
            continue
        k = int(u[i] * cnt)
        if k >= cnt:
            k = cnt - 1
        for a in range(A):
            if M[i, a]:
                if k == 0:
                    out[i] = a
                    break
                k -= 1
