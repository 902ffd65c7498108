"""Legal ways to pay a pill value: "If a player cannot put up the pill value required ... exactly,
he or she must use more valuable pills."

A way is a triple (blue, yellow, red) of pills taken from the payer's supply. When some way pays
the value exactly, only exact ways are legal; otherwise the legal ways are the minimal overpays:
they reach the value and drop below it when any one of their pills is left out (no pill is
thrown in for nothing). A payment is made as consecutive one-pill decisions of the payer; the
mask allows a pill only when some legal way contains the pills given so far plus that one, so
every legal way (and nothing else) can be reached. Pure functions, cached by argument.
"""
from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=65536)
def legal_ways(need: int, b: int, y: int, r: int) -> tuple:
    """All legal (blue, yellow, red) ways to pay `need` from a supply of (b, y, r); () if impossible."""
    if need <= 0:
        return ((0, 0, 0),)
    exact, over = [], []
    for nr in range(min(r, (need + 2) // 3) + 1):
        for ny in range(min(y, (need + 1) // 2) + 1):
            for nb in range(min(b, need) + 1):
                tot = nb + 2 * ny + 3 * nr
                if tot == need:
                    exact.append((nb, ny, nr))
                elif tot > need:
                    low = 1 if nb else (2 if ny else 3)
                    if tot - low < need:
                        over.append((nb, ny, nr))
    return tuple(exact) if exact else tuple(over)


@lru_cache(maxsize=65536)
def next_pills(need: int, b: int, y: int, r: int, ab: int, ay: int, ar: int) -> tuple:
    """Which colours (bools for blue, yellow, red) may be added next, given pills (ab, ay, ar) already added.

    (b, y, r) is the supply when the payment began.
    """
    out = [False, False, False]
    for w in legal_ways(need, b, y, r):
        if w[0] >= ab and w[1] >= ay and w[2] >= ar:
            if w[0] > ab:
                out[0] = True
            if w[1] > ay:
                out[1] = True
            if w[2] > ar:
                out[2] = True
    return tuple(out)
