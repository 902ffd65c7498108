"""The batched heuristic (`virus_envs.roll_write.batched_heuristic`) against the scalar `heuristic` agent.

The scalar agent (`agents/roll_write_heuristic.py`) is the reference. Both play the same games side by side,
from the same seeds: at every decision of every game the batched heuristic's action must be the scalar
agent's, exactly. The move then played is the heuristic's most of the time and a random legal move otherwise
(the same in both engines), so that the positions compared are not only those heuristic self-play reaches.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from virus_envs import agents
from virus_envs.agents.base import decision_for
from virus_envs.roll_write.batched import RollWriteBatch
from virus_envs.roll_write.batched_heuristic import BatchedHeuristic, _box_gain, _place_gain
from virus_envs.roll_write.sheet import COLOURS


def compare(n, spec, B, seed, explore=0.3, **config):
    """Play B games to their end in both engines; returns (decisions compared, decisions by phase)."""
    b = RollWriteBatch(B, num_players=n, autoreset=False, **config)
    g = b.game
    b.reset(np.random.default_rng(seed).integers(0, 2**63 - 1, B))
    states = [g.new_initial_state(seed=int(s)) for s in b.seeds]
    h = BatchedHeuristic(b, spec)
    ref = agents.make(spec, g)
    rng = np.random.default_rng(seed + 1)
    compared, phases = 0, {}
    while not b.is_terminal().all():
        mine = h().copy()
        play = np.full(B, -1, dtype=np.int64)
        for i, s in enumerate(states):
            if s.is_terminal():
                assert mine[i] == -1
                continue
            d = decision_for(s)
            want = ref.act(d)
            assert mine[i] == want, (spec, config, i, s.phase(), s.to_dict())
            compared += 1
            phases[d.phase] = phases.get(d.phase, 0) + 1
            play[i] = want if rng.random() >= explore else int(rng.choice(d.legal_actions))
            s.apply_action(int(play[i]))
        b.step(play)
    return compared, phases


@pytest.mark.parametrize("n,spec,B", [
    (2, "heuristic", 96),
    (3, "heuristic", 64),
    (4, "heuristic", 48),
    (2, "heuristic:cautious", 48),
    (4, "heuristic:spoiler", 32),
    (3, "heuristic?contaminate_below=4&low_gain=2.5&save_wildcard=1&deny=0.5", 32),
])
def test_the_batched_heuristic_takes_the_scalar_heuristics_action_at_every_decision(n, spec, B):
    compared, phases = compare(n, spec, B, seed=100 + n)
    assert compared > 60 * B
    # every kind of decision the heuristic takes was compared, not only die placements
    assert {"place a die", "place the changed die", "extra cross-off"} <= set(phases)


@pytest.mark.parametrize("n,config", [
    (2, {"lab_cards": "A2,D2", "wildcard_then_contaminate": False, "first_player": -1}),
    (3, {"lab_cards": "C3,D3", "wildcard_then_contaminate": False}),
    (4, {"lab_cards": "D2+A2", "rounds": 3}),
    (2, {"lab_cards": "C2,B2", "rounds": 8}),
])
def test_other_configs_same_actions(n, config):
    compared, _ = compare(n, "heuristic:spoiler", 24, seed=7, **config)
    assert compared > 20 * 24


def test_pure_heuristic_self_play_same_actions():
    """explore=0: the positions the heuristic reaches playing itself (what a heuristic opponent meets)."""
    compared, _ = compare(2, "heuristic", 64, seed=3, explore=0.0)
    assert compared > 60 * 64


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_values_behind_the_actions_are_the_scalar_heuristics_to_the_last_bit(n):
    """Sharper than the actions: a value may move without changing any argmax in the games played. The value of
    every die on every target (place_gain, with and without check) and of every free box (box_gain) in the
    positions of games played mostly by the heuristic, equal as floats."""
    b = RollWriteBatch(1, num_players=n, autoreset=False)
    g = b.game
    ref = agents.make("heuristic?deny=0.7", g)
    h = BatchedHeuristic(b, "heuristic?deny=0.7")
    rng = np.random.default_rng(n)
    compared = 0
    for game in range(6):
        s = g.new_initial_state(seed=game)
        while not s.is_terminal():
            b.load(0, s)
            me = s.current_player()
            view = s.view(me)
            grids, labs = ref._read(view)
            open_cure = [view["sheets"][me]["cures"][c] == "open" for c in COLOURS]
            for v in range(1, 7):
                for t in range(g.T):
                    want = ref.place_gain(view, me, grids, labs, open_cure, v, t, check=True)
                    ok, got = _place_gain(b.S, 0, me, v, t, b.TB, h.HT, True)
                    assert (ok, got if ok else None) == (want is not None, want), (v, t, s.to_dict())
                    if s.legal_action_mask()[(v - 1) * g.T + t]:
                        want = ref.place_gain(view, me, grids, labs, open_cure, v, t)
                        assert _place_gain(b.S, 0, me, v, t, b.TB, h.HT, False) == (True, want)
                    compared += 1
            for c in range(4):
                for box in g.sheet.values[c]:
                    if not grids[me][c] >> box & 1:
                        assert _box_gain(b.S, 0, me, c, box, b.TB, h.HT) == ref.box_gain(grids[me], c, box, open_cure)
            d = decision_for(s)         # mostly the heuristic's move: deep grids, claimed cures, full cards
            s.apply_action(ref.act(d) if rng.random() < 0.7 else int(rng.choice(d.legal_actions)))
    assert compared > 1000


def test_inactive_and_finished_games_get_no_action():
    b = RollWriteBatch(8, num_players=2, autoreset=False)
    b.reset(0)
    h = BatchedHeuristic(b)
    active = np.array([True, False] * 4)
    out = h(active)
    assert (out[~active] == -1).all()
    assert all(b.legal_action_mask()[i, out[i]] for i in np.flatnonzero(active))
    while not b.is_terminal().all():
        b.step(h())
    assert (h() == -1).all()


@pytest.mark.parametrize("spec,match", [
    ("random", "'heuristic' agent spec"),
    ("contam?contaminate_below=3", "'heuristic' agent spec"),
    ("heuristic?deny=much", "'deny' must be a number"),
    ("heuristic?bold=1", "unknown parameter 'bold'"),
    ("heuristic:reckless", "unknown variant 'reckless'"),
])
def test_bad_specs_are_value_errors(spec, match):
    b = RollWriteBatch(4, num_players=2)
    with pytest.raises(ValueError, match=match):
        BatchedHeuristic(b, spec)
    h = BatchedHeuristic(b)
    b.reset(0)
    with pytest.raises(ValueError, match="active"):
        h(np.ones(3, dtype=bool))


FALLBACK = r"""
import json
import numpy as np
from virus_envs.core.jit import HAVE_NUMBA
from virus_envs.roll_write.batched import RollWriteBatch
from virus_envs.roll_write.batched_heuristic import BatchedHeuristic, _box_gain, _place_gain
from virus_envs.roll_write.sheet import COLOURS
b = RollWriteBatch(4, num_players=3, autoreset=False)
b.reset(21)
h = BatchedHeuristic(b, "heuristic:spoiler")
acts = []
while not b.is_terminal().all():
    acts.append(h().tolist())
    b.step(h())
print(json.dumps({"numba": HAVE_NUMBA, "actions": acts}))
"""


def test_without_numba_the_same_kernels_give_the_same_actions():
    """VIRUS_ENVS_NO_NUMBA=1 runs the kernels as Python (what users without the [fast] extra get)."""
    env = {**os.environ, "VIRUS_ENVS_NO_NUMBA": "1"}
    out = subprocess.run([sys.executable, "-c", FALLBACK], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    plain = json.loads(out.stdout)
    assert plain["numba"] is False
    b = RollWriteBatch(4, num_players=3, autoreset=False)
    b.reset(21)
    h = BatchedHeuristic(b, "heuristic:spoiler")
    acts = []
    while not b.is_terminal().all():
        acts.append(h().tolist())
        b.step(h())
    assert plain["actions"] == acts and len(acts) > 60
