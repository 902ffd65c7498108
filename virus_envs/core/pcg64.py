"""numpy's PCG64 Generator, bit for bit, inside compiled kernels: one generator per game of a batch.

Every scalar engine draws its chance from `make_rng(seed)` = `Generator(PCG64(seed))`. A batched
engine that must play game i exactly as the scalar engine plays seed `seeds[i]` needs the same
stream, drawn inside its kernel without a Python call per game. This module reproduces:

- `SeedSequence(seed)` (numpy/random/bit_generator.pyx: hashmix, mix, pool of 4 words) and
  `PCG64`'s seeding from it (`pcg64_set_seed`: state 0, inc = 2*seq + 1, step, add, step);
- `PCG64.random_raw` (128-bit LCG, XSL-RR output), the 32-bit halves numpy keeps (`has_uint32`);
- `Generator.integers(low, high)` for int64 ranges below 2**32 (Lemire's bounded method on 32-bit
  draws: `buffered_bounded_lemire_uint32` in numpy's distributions.c), the only draw the Roll &
  Write rules make (`rng.integers(1, 7, size=(n, d))` draws its elements in C order, one each);
- `Generator.shuffle` and `permutation(n)` (`interval` = numpy's `random_interval`, `shuffle`), the
  deals of VIRUS! and Virus & Co.

A generator is a row of 6 uint64 in an array (`RS[i]`): state high, state low, increment high,
increment low, has_uint32, the kept 32-bit half. `to_state_dict` / `from_state_dict` give numpy's
own `bit_generator.state`, so a game can move between the batch and a scalar state. The test
(tests/roll_write/test_rw_batched.py) compares the streams with numpy's for many seeds.
"""
from __future__ import annotations

import numpy as np

from .jit import U, njit

M32 = U(0xFFFFFFFF)
M64 = U(0xFFFFFFFFFFFFFFFF)
S16 = U(16)
S32 = U(32)
S58 = U(58)
S63 = U(63)
ONE = U(1)
ZERO = U(0)
MULT_HI = U(0x2360ED051FC65DA4)      # PCG_DEFAULT_MULTIPLIER_128
MULT_LO = U(0x4385DF649FCCF645)
INIT_A = U(0x43B0D7E5)               # SeedSequence's hash constants
MULT_A = U(0x931E8875)
INIT_B = U(0x8B51F9DD)
MULT_B = U(0x58F38DED)
MIX_L = U(0xCA01F9DD)
MIX_R = U(0x4973F715)


@njit
def _mul64(a, b):
    """Full 128-bit product of two 64-bit words: (high, low)."""
    a0, a1 = a & M32, a >> S32
    b0, b1 = b & M32, b >> S32
    p00, p01, p10, p11 = a0 * b0, a0 * b1, a1 * b0, a1 * b1
    mid = (p00 >> S32) + (p01 & M32) + (p10 & M32)
    lo = ((p00 & M32) | ((mid & M32) << S32)) & M64
    hi = (p11 + (p01 >> S32) + (p10 >> S32) + (mid >> S32)) & M64
    return hi, lo


@njit
def _step(sh, sl, ih, il):
    """One LCG step: state * MULT + inc (mod 2**128)."""
    h, lo = _mul64(sl, MULT_LO)
    hi = (h + ((sl * MULT_HI) & M64) + ((sh * MULT_LO) & M64)) & M64
    nl = (lo + il) & M64
    carry = ONE if nl < lo else ZERO
    return (hi + ih + carry) & M64, nl


@njit
def _hashmix(value, hc):
    value = (value ^ hc) & M32
    hc = (hc * MULT_A) & M32
    value = (value * hc) & M32
    return value ^ (value >> S16), hc


@njit
def _mix(x, y):
    r = ((MIX_L * x) - (MIX_R * y)) & M32
    return r ^ (r >> S16)


@njit
def seed_row(RS, i, seed):
    """RS[i] := the state of PCG64(seed) (numpy: SeedSequence(seed), then pcg64_set_seed); 0 <= seed < 2**63."""
    s = U(seed)
    w0 = s & M32
    w1 = s >> S32
    nent = 2 if w1 != ZERO else 1
    pool = np.zeros(4, dtype=np.uint64)
    hc = INIT_A
    for k in range(4):
        e = ZERO
        if k == 0:
            e = w0
        elif k == 1 and nent == 2:
            e = w1
        v, hc = _hashmix(e, hc)
        pool[k] = v
    for src in range(4):
        for dst in range(4):
            if src != dst:
                h, hc = _hashmix(U(pool[src]), hc)
                pool[dst] = _mix(U(pool[dst]), h)
    # generate_state(4, uint64): 8 words of 32 bits, then pairs read little-endian
    hb = INIT_B
    words = np.zeros(8, dtype=np.uint64)
    for k in range(8):
        d = (U(pool[k % 4]) ^ hb) & M32
        hb = (hb * MULT_B) & M32
        d = (d * hb) & M32
        words[k] = d ^ (d >> S16)
    v0 = U(words[0]) | (U(words[1]) << S32)
    v1 = U(words[2]) | (U(words[3]) << S32)
    v2 = U(words[4]) | (U(words[5]) << S32)
    v3 = U(words[6]) | (U(words[7]) << S32)
    # pcg_setseq_128_srandom_r(initstate = v0:v1, initseq = v2:v3)
    ih = ((v2 << ONE) | (v3 >> S63)) & M64
    il = ((v3 << ONE) | ONE) & M64
    sh, sl = _step(ZERO, ZERO, ih, il)
    nl = (sl + v1) & M64
    carry = ONE if nl < sl else ZERO
    sh = (sh + v0 + carry) & M64
    sh, sl = _step(sh, nl, ih, il)
    RS[i, 0] = sh
    RS[i, 1] = sl
    RS[i, 2] = ih
    RS[i, 3] = il
    RS[i, 4] = 0
    RS[i, 5] = 0


@njit
def next64(RS, i):
    """PCG64.random_raw(): step, then the XSL-RR output of the new state."""
    sh, sl = _step(U(RS[i, 0]), U(RS[i, 1]), U(RS[i, 2]), U(RS[i, 3]))
    RS[i, 0] = sh
    RS[i, 1] = sl
    v = sh ^ sl
    rot = sh >> S58
    return ((v >> rot) | (v << ((U(64) - rot) & S63))) & M64


@njit
def next32(RS, i):
    """numpy's next_uint32: the low half of a 64-bit draw, the high half kept for the next call."""
    if RS[i, 4] != 0:
        RS[i, 4] = 0
        return U(RS[i, 5])
    x = next64(RS, i)
    RS[i, 4] = 1
    RS[i, 5] = x >> S32
    return x & M32


@njit
def bounded(RS, i, span):
    """Generator.integers(0, span) for 1 <= span < 2**32 (Lemire's method as numpy does it), as an int."""
    if span <= 1:
        return 0
    excl = U(span)
    m = next32(RS, i) * excl
    left = m & M32
    if left < excl:
        threshold = ((M32 - (excl - ONE)) % excl) & M32
        while left < threshold:
            m = next32(RS, i) * excl
            left = m & M32
    return np.int64(m >> S32)


@njit
def interval(RS, i, mx):
    """numpy's `random_interval(max)` for max < 2**32: a uniform int in [0, mx], drawn as numpy does it
    (the next 32-bit half masked to the smallest 2**k - 1 >= mx, drawn again while above mx)."""
    if mx <= 0:
        return 0
    mask = U(mx)
    mask |= mask >> ONE
    mask |= mask >> U(2)
    mask |= mask >> U(4)
    mask |= mask >> U(8)
    mask |= mask >> S16
    v = next32(RS, i) & mask
    while v > U(mx):
        v = next32(RS, i) & mask
    return np.int64(v)


@njit
def shuffle(RS, i, arr, n):
    """`Generator.shuffle` of the first n items of the 1-d array arr, in place, as numpy does it (for a list,
    an array, and so `permutation(n)`: Fisher-Yates from the top down, swap index `random_interval(k)`)."""
    for k in range(n - 1, 0, -1):
        j = interval(RS, i, k)
        t = arr[k]
        arr[k] = arr[j]
        arr[j] = t


def to_state_dict(row) -> dict:
    """numpy's `PCG64().state` dict of a generator row."""
    r = [int(x) for x in row]
    return {"bit_generator": "PCG64", "state": {"state": (r[0] << 64) | r[1], "inc": (r[2] << 64) | r[3]},
            "has_uint32": r[4], "uinteger": r[5]}


def from_state_dict(d: dict, row) -> None:
    """Write numpy's PCG64 state dict `d` into a generator row."""
    if d.get("bit_generator") != "PCG64":
        raise ValueError(f"only PCG64 generators can be batched, got {d.get('bit_generator')!r}")
    s, inc = int(d["state"]["state"]), int(d["state"]["inc"])
    m = (1 << 64) - 1
    row[:] = np.array([s >> 64, s & m, inc >> 64, inc & m, int(d["has_uint32"]), int(d["uinteger"])],
                      dtype=np.uint64)


MASK63 = U(0x7FFFFFFFFFFFFFFF)
GOLDEN = U(0x9E3779B97F4A7C15)
SM1 = U(0xBF58476D1CE4E5B9)
SM2 = U(0x94D049BB133111EB)


@njit
def next_seed(seed):
    """The seed of a batch slot's next game: splitmix64 of the previous seed, kept to 63 bits."""
    z = (U(seed) + GOLDEN) & M64
    z = ((z ^ (z >> U(30))) * SM1) & M64
    z = ((z ^ (z >> U(27))) * SM2) & M64
    return np.int64((z ^ (z >> U(31))) & MASK63)
