"""core.chance: the tape that makes an engine's chance explicit gives every outcome its true probability."""
import itertools
from collections import Counter

import numpy as np
import pytest

from virus_envs.core.chance import ChanceTape, ContinuousChance, NeedChance
from virus_envs.core.seeding import chance_tape, clone_rng, make_rng


def _all_tapes(sizes):
    return itertools.product(*(range(k) for k in sizes))


def test_shuffle_gives_every_order_exactly_once_over_all_tapes():
    # Fisher-Yates from the end: the draw for position i has i + 1 outcomes (4 * 3 * 2 = 24 tapes)
    orders = Counter()
    for tape in _all_tapes([4, 3, 2]):
        x = list("abcd")
        t = ChanceTape(list(tape))
        t.shuffle(x)
        assert t.pos == 3
        orders["".join(x)] += 1
    assert len(orders) == 24 and set(orders.values()) == {1}


def test_permutation_of_an_int_and_an_array():
    perms = {tuple(ChanceTape(list(tp)).permutation(3).tolist()) for tp in _all_tapes([3, 2])}
    assert perms == set(itertools.permutations(range(3)))
    a = np.array([7, 8])
    assert sorted(ChanceTape([1]).permutation(a).tolist()) == [7, 8] and a.tolist() == [7, 8]


def test_integers_read_outcomes_in_order_and_ask_for_more():
    t = ChanceTape([0, 5, 2])
    assert t.integers(1, 7) == 1 and t.integers(1, 7) == 6
    assert t.integers(3) == 2                       # integers(high): 0..2
    with pytest.raises(NeedChance) as e:
        t.integers(1, 7, size=(2, 2))
    assert (e.value.outcomes, e.value.low) == (6, 1)
    dice = ChanceTape([0, 1, 2, 3]).integers(1, 7, size=(2, 2))
    assert dice.tolist() == [[1, 2], [3, 4]]


def test_a_seed_draw_is_not_a_chance_event():
    t = ChanceTape([])
    assert t.integers(0, 2**63 - 1) == 0 and t.pos == 0


def test_out_of_range_outcome_and_continuous_draws_are_refused():
    with pytest.raises(ValueError, match="out of range"):
        ChanceTape([6]).integers(1, 7)
    with pytest.raises(ContinuousChance):
        ChanceTape([]).random(3)


def test_inside_chance_tape_every_generator_is_the_tape():
    t = ChanceTape([4])
    with chance_tape(t):
        assert make_rng(123) is t and clone_rng(np.random.default_rng(1)) is t
        assert make_rng(5).integers(10) == 4
    assert make_rng(1) is not t
    assert isinstance(clone_rng(ChanceTape([1])), ChanceTape) and clone_rng(ChanceTape([1])).tape == []
