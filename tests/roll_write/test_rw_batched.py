"""The batched engine (`virus_envs.roll_write.batched`) against the scalar reference engine.

The scalar engine (`game.py`) is the rules' reference, checked by the rulebook scenario tests. Here
both engines play the same games side by side: the same seeds, the same (random) actions, and after
every action the masks, observations, scores, returns and full states (to_dict, rng included) must
be identical. The dice agree because the batch carries numpy's PCG64 bit for bit (core/pcg64.py):
that emulation is checked against numpy's own Generator first.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from batch_side_by_side import play_side_by_side as side_by_side
from virus_envs.core import pcg64
from virus_envs.roll_write.batched import RollWriteBatch
from virus_envs.roll_write.game import RollWriteGame


# -- numpy's generator, emulated -------------------------------------------------------------------
SEEDS = [0, 1, 7, 2**32 - 1, 2**32, 2**32 + 1, 2**62 + 12345, 2**63 - 1]


def test_pcg64_rows_equal_numpy_seeding_draws_and_state():
    """Seeding (SeedSequence of one or two 32-bit words), bounded draws and the kept 32-bit half."""
    rng = np.random.default_rng(11)
    seeds = SEEDS + [int(x) for x in rng.integers(0, 2**63 - 1, 300)] + [int(x) for x in rng.integers(0, 2**32, 100)]
    RS = np.zeros((1, 6), dtype=np.uint64)
    for s in seeds:
        pcg64.seed_row(RS, 0, s)
        ref = np.random.Generator(np.random.PCG64(s))
        assert pcg64.to_state_dict(RS[0]) == ref.bit_generator.state, s
        for span in (6, 2, 3, 4, 5, 6, 1):
            assert pcg64.bounded(RS, 0, span) == ref.integers(0, span), (s, span)
        dice = ref.integers(1, 7, size=(4, 3))        # what RollWriteState._start_round draws
        mine = [[1 + pcg64.bounded(RS, 0, 6) for _ in range(3)] for _ in range(4)]
        assert dice.tolist() == mine, s
        assert pcg64.to_state_dict(RS[0]) == ref.bit_generator.state, s


def test_pcg64_state_dict_round_trip_and_next_seed_in_range():
    row = np.zeros(6, dtype=np.uint64)
    st = np.random.PCG64(99)
    st.random_raw(3)
    np.random.Generator(st).integers(0, 6)         # leaves a kept half
    pcg64.from_state_dict(st.state, row)
    assert pcg64.to_state_dict(row) == st.state
    with pytest.raises(ValueError, match="PCG64"):
        pcg64.from_state_dict(np.random.MT19937(1).state, row)
    seen = set()
    for s in SEEDS:
        t = int(pcg64.next_seed(s))
        assert 0 <= t < 2**63 and t != s
        seen.add(t)
    assert len(seen) == len(SEEDS)


# -- side by side -----------------------------------------------------------------------------------
def play_side_by_side(n, games, B, seed, check_every, **config):
    """Random play in both engines until `games` games have ended; everything compared as it goes
    (tests/batch_side_by_side.py). Returns (games ended, truncated games, decisions compared)."""
    return side_by_side(RollWriteBatch(B, num_players=n, **config), games, seed, check_every)


@pytest.mark.parametrize("n,games,B", [(2, 600, 256), (3, 400, 192), (4, 300, 128)])
def test_random_games_identical_to_the_scalar_engine(n, games, B):
    ended, _, decisions = play_side_by_side(n, games, B, seed=n, check_every=29)
    assert ended >= games and decisions > 40 * games


@pytest.mark.parametrize("n,config", [
    (2, {"lab_cards": "A2,D2", "wildcard_then_contaminate": False, "first_player": -1}),
    (4, {"lab_cards": "D2+A2", "first_player": 3}),
    (3, {"lab_cards": "C3,D3", "first_player": -1, "wildcard_then_contaminate": False}),
    (3, {"lab_cards": "D3,A3", "rounds": 3}),
    (2, {"lab_cards": "C2,B2", "rounds": 8}),
])
def test_other_configs_identical_to_the_scalar_engine(n, config):
    ended, _, _ = play_side_by_side(n, 100, 64, seed=10 + n, check_every=13, **config)
    assert ended >= 100


def test_truncation_by_max_turns_identical():
    ended, truncated, _ = play_side_by_side(2, 64, 64, seed=5, check_every=13, max_turns=40)
    assert truncated == ended >= 64        # a 2-player game needs more than 40 decisions


# -- bad construction (the contract every batch keeps: tests/core/test_batch_contract.py) ---------------------
@pytest.mark.parametrize("make,match", [
    (lambda: RollWriteBatch(0), "batch_size"),
    (lambda: RollWriteBatch(4, num_players=5), "num_players"),
    (lambda: RollWriteBatch(4, lab_cards="A3,B3"), "lab_cards"),
    (lambda: RollWriteBatch(4, game=RollWriteGame(2), rounds=2), "either game"),
])
def test_bad_construction_is_a_value_error(make, match):
    with pytest.raises(ValueError, match=match):
        make()


# -- the plain-Python fallback ---------------------------------------------------------------------------
FALLBACK = r"""
import json, sys
import numpy as np
from virus_envs.roll_write.batched import RollWriteBatch
from virus_envs.core.jit import HAVE_NUMBA
b = RollWriteBatch(6, num_players=int(sys.argv[1]))
b.reset(40)
rng = np.random.default_rng(2)
for _ in range(int(sys.argv[2])):
    b.step(b.random_actions(rng))
print(json.dumps({"numba": HAVE_NUMBA, "games": [b.to_dict(i) for i in range(6)],
                  "obs": b.observation().tolist()}))
"""


def test_without_numba_the_same_kernels_give_the_same_games():
    """VIRUS_ENVS_NO_NUMBA=1 runs the kernels as Python (what users without the [fast] extra get)."""
    env = {**os.environ, "VIRUS_ENVS_NO_NUMBA": "1"}
    out = subprocess.run([sys.executable, "-c", FALLBACK, "3", "150"], env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    plain = json.loads(out.stdout)
    assert plain["numba"] is False
    b = RollWriteBatch(6, num_players=3)
    b.reset(40)
    rng = np.random.default_rng(2)
    for _ in range(150):
        b.step(b.random_actions(rng))
    assert plain["games"] == [b.to_dict(i) for i in range(6)]
    assert plain["obs"] == b.observation().tolist()


def test_bench_has_batched_rows_beside_the_engine(tmp_path):
    from virus_envs.experiments.cli import main
    out = tmp_path / "b.json"
    main(["bench", "--game", "roll_write_v0", "--players", "2", "--seconds", "0.05", "--rounds", "1",
          "--search", "none", "--batch", "64", "--out", str(out)])
    rows = {r["target"]: r for r in json.loads(out.read_text())}
    for name in ("roll_write_v0 2p (engine)", "roll_write_v0 2p (batched B=64)", "roll_write_v0 2p (batched+obs B=64)",
                 "roll_write_v0 2p (engine, heuristic)", "roll_write_v0 2p (batched heuristic B=64)"):
        assert rows[name]["steps_per_s"] > 0
    with pytest.raises(SystemExit, match="--batch must be >= 0"):
        main(["bench", "--game", "roll_write_v0", "--batch", "-1"])
