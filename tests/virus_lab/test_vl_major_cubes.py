"""The Major Advantage's "up to 3 cubes" positive: the engine's choice is the best one for every roll."""
from __future__ import annotations

import itertools

from virus_envs.virus_lab.combat import major_cubes


def test_major_cubes_maximise_the_successes_for_every_roll():
    for pc, nc, pb, nb in itertools.product(range(6), repeat=4):
        best = max((pc + x) * (pb + y) for x in range(min(3, nc) + 1) for y in range(min(3 - x, nb) + 1))
        qc, rc, qb, rb = major_cubes(pc, nc, pb, nb)
        assert qc * qb == best, (pc, nc, pb, nb)
        assert qc - pc == nc - rc >= 0 and qb - pb == nb - rb >= 0
        assert (qc - pc) + (qb - pb) == min(3, nc + nb)     # "up to 3": every cube that can turn, turns


def test_major_cubes_example():
    # 1 positive Action cube, 4 positive bullets: the three go to the Action cubes (4 x 4 = 16 Successes)
    assert major_cubes(1, 4, 4, 4) == (4, 1, 4, 4)
