"""core/pcg64's shuffle is numpy's `Generator.shuffle` / `permutation`, draw for draw.

The batched card engines deal as the scalar engines do only if a slot's generator shuffles exactly as
`numpy.random.Generator(PCG64(seed))` does; the expected decks here come from numpy itself, not from the
module under test."""
import numpy as np
import pytest

from virus_envs.core import pcg64


@pytest.mark.parametrize("n", [0, 1, 2, 3, 40, 68, 255, 256, 1000])
def test_shuffle_of_a_list_and_permutation_equal_numpy(n):
    RS = np.zeros((1, 6), dtype=np.uint64)
    for seed in range(60):
        ref = np.random.Generator(np.random.PCG64(seed))
        expect = list(range(n))
        ref.shuffle(expect)                      # the list path (VIRUS!'s deck)
        expect_perm = ref.permutation(n).tolist()  # the array path (Virus & Co's deals)
        after = int(ref.integers(4))               # a bounded draw that follows must agree too
        pcg64.seed_row(RS, 0, seed)
        mine = np.arange(n, dtype=np.int64)
        pcg64.shuffle(RS, 0, mine, n)
        perm = np.arange(n, dtype=np.int64)
        pcg64.shuffle(RS, 0, perm, n)
        assert mine.tolist() == expect, (seed, n)
        assert perm.tolist() == expect_perm, (seed, n)
        assert pcg64.bounded(RS, 0, 4) == after, (seed, n)
        assert pcg64.to_state_dict(RS[0]) == ref.bit_generator.state, (seed, n)


def test_shuffle_of_a_prefix_leaves_the_rest():
    RS = np.zeros((1, 6), dtype=np.uint64)
    pcg64.seed_row(RS, 0, 7)
    arr = np.arange(10, dtype=np.int64)
    pcg64.shuffle(RS, 0, arr, 6)
    assert sorted(arr[:6].tolist()) == list(range(6)) and arr[6:].tolist() == [6, 7, 8, 9]
    ref = np.random.Generator(np.random.PCG64(7))
    assert arr[:6].tolist() == ref.permutation(6).tolist()


def test_interval_stays_in_range_and_zero_draws_nothing():
    RS = np.zeros((1, 6), dtype=np.uint64)
    pcg64.seed_row(RS, 0, 3)
    before = RS.copy()
    assert pcg64.interval(RS, 0, 0) == 0 and (RS == before).all()
    for mx in (1, 2, 5, 67, 2**20, 2**32 - 1):
        assert all(0 <= pcg64.interval(RS, 0, mx) <= mx for _ in range(50))
