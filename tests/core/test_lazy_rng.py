"""Generators built when first drawn from (core.seeding.LazyGenerator): copies and reseeds give the very draws
an eager Generator would, and stay independent of the Generator they were copied from."""
import copy
import pickle

import numpy as np

from virus_envs.core.chance import ChanceTape
from virus_envs.core.seeding import LazyGenerator, chance_tape, clone_rng, lazy_rng, make_rng, rng_to_dict


def test_a_lazy_seed_draws_what_make_rng_draws():
    a, b = lazy_rng(2026), make_rng(2026)
    assert isinstance(a, LazyGenerator)
    assert a.integers(0, 1 << 40, size=6).tolist() == b.integers(0, 1 << 40, size=6).tolist()
    x, y = list(range(20)), list(range(20))
    a.shuffle(x)
    b.shuffle(y)
    assert x == y and a.random() == b.random()


def test_a_copy_is_frozen_at_the_moment_it_was_made():
    r = make_rng(5)
    r.integers(10, size=3)
    c = clone_rng(r)
    expected = make_rng(5)
    expected.integers(10, size=3)
    r.integers(10, size=50)                     # the original goes on: the copy must not follow it
    assert c.integers(1 << 30, size=5).tolist() == expected.integers(1 << 30, size=5).tolist()


def test_copies_of_copies_built_or_not():
    r = make_rng(9)
    c1 = clone_rng(r)                           # not built yet
    c2 = clone_rng(c1)                          # a copy of an unbuilt copy
    first = c1.integers(1 << 30, size=4).tolist()
    c3 = clone_rng(c1)                          # a copy of a built one, taken after its four draws
    assert c2.integers(1 << 30, size=4).tolist() == first
    assert c3.integers(1 << 30, size=4).tolist() == make_rng(9).integers(1 << 30, size=8).tolist()[4:]
    c1.integers(1 << 30, size=4)
    assert rng_to_dict(c3) == rng_to_dict(c1)


def test_pickle_and_deepcopy_keep_the_stream():
    r = lazy_rng(3)
    r.random()
    for c in (pickle.loads(pickle.dumps(r)), copy.deepcopy(r)):
        assert c.random() == copy.deepcopy(r).random()
    assert pickle.loads(pickle.dumps(lazy_rng(4))).random() == make_rng(4).random()


def test_inside_a_chance_tape_copies_and_seeds_are_the_tape():
    t = ChanceTape([1, 0])
    with chance_tape(t):
        assert clone_rng(make_rng(1)) is t and lazy_rng(7) is t
    assert isinstance(clone_rng(ChanceTape([2])), ChanceTape)
    assert isinstance(np.asarray(lazy_rng(1).integers(3, size=2)), np.ndarray)
