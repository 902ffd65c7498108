"""The batched engine (`virus_envs.virus_co.batched`) against the scalar reference engine.

The scalar engine (`game.py`) is the rules' reference, checked by the rulebook scenario tests. Here
both engines play the same games side by side: the same seeds, the same (random) actions, and after
every action the current players, masks, observations (the player to move's and a random seat's),
scores and, at each game's end, the returns must be identical; full states (to_dict, generator
included) are compared for a share of the games after every action and for every game at its start.
The deals agree because the batch carries numpy's PCG64 and its permutation draw for draw
(core/pcg64.py, tests/core/test_pcg64_shuffle.py). Rare branches that random play seldom reaches
are played from hand-built positions (scenario.build, as the rules tests build them) loaded into
the batch with `load`.

Default run: about 1,300 random games over 3-6 players and eight configs. `VIRUS_BATCHED_GAMES=K`
multiplies the game counts by K (docs/scale.md reports a run of K = 10).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from batch_side_by_side import assert_same, play_side_by_side as side_by_side
from virus_envs.virus_co import scenario as sc
from virus_envs.virus_co import kernels as K
from virus_envs.virus_co.batched import VirusCoBatch
from virus_envs.virus_co.game import VirusCoGame
from virus_envs.virus_co.tables import NUM_PHASES

SCALE = int(os.environ.get("VIRUS_BATCHED_GAMES", "1"))


def play_side_by_side(n, games, B, seed, check_every, phases=None, **config):
    """Random play in both engines until `games` games have ended; everything compared as it goes
    (tests/batch_side_by_side.py). Returns (games ended, truncated games, decisions compared)."""
    def count_phases(b, actions):
        np.add.at(phases, b.S[:, K.PH][~b.is_terminal()], 1)     # the phase each decision is taken in

    return side_by_side(VirusCoBatch(B, num_players=n, **config), games, seed, check_every,
                        before_step=None if phases is None else count_phases)


@pytest.mark.parametrize("n,games,B", [(3, 250, 96), (4, 250, 96), (5, 200, 64), (6, 200, 64)])
def test_random_games_identical_to_the_scalar_engine(n, games, B):
    ended, _, decisions = play_side_by_side(n, games * SCALE, B, seed=n, check_every=29)
    assert ended >= games * SCALE and decisions > 50 * games * SCALE


@pytest.mark.parametrize("n,config", [
    (4, {"mr_doctor": "fee_on_pass", "first_player": -1}),
    (3, {"injection_on_virus": False, "cross_to_giver": False}),
    (5, {"deck": "twelve_syringes", "first_player": 4}),
    (6, {"rounds": 5, "mr_doctor": "fee_on_pass", "first_player": -1}),
    (4, {"rounds": 1, "cross_to_giver": False, "injection_on_virus": False}),
])
def test_other_configs_identical_to_the_scalar_engine(n, config):
    ended, _, _ = play_side_by_side(n, 60 * SCALE, 48, seed=10 + n, check_every=13, **config)
    assert ended >= 60 * SCALE


def test_another_card_file_identical_to_the_scalar_engine(tmp_path):
    """A card file with other Diagnosis/Nurse points and Prescription/Guinea Pig pills: the batch reads the
    catalogue's tables, not the built-in numbers."""
    from virus_envs.virus_co.cards import DATA_FILE
    text = open(DATA_FILE).read()
    for old, new in (("right: 12, wrong: -4", "right: 7, wrong: -2"), ("healthy: 2, icu: -4", "healthy: 3, icu: -5"),
                     ("count: 2, pills: [b, y]", "count: 2, pills: [r]"),
                     ("count: 1, pills: [b, y, r]", "count: 1, pills: [r, r]")):
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "cards.yaml"
    path.write_text(text)
    ended, _, _ = play_side_by_side(4, 40 * SCALE, 32, seed=3, check_every=7, cards_file=str(path))
    assert ended >= 40 * SCALE


def test_truncation_by_max_turns_identical():
    ended, truncated, _ = play_side_by_side(3, 48, 48, seed=5, check_every=11, max_turns=30)
    assert ended >= 48 and ended // 4 < truncated < ended   # three rounds often, not always, take over 30 turns


def test_random_play_reaches_every_decision():
    """Side-by-side random games take decisions in every one of the 19 phases (Mr. Doctor's fee needs
    mr_doctor='fee_on_pass')."""
    phases = np.zeros(NUM_PHASES, dtype=np.int64)
    play_side_by_side(5, 80, 48, seed=21, check_every=17, phases=phases, mr_doctor="fee_on_pass")
    assert (phases > 0).all(), f"phases never reached: {np.flatnonzero(phases == 0).tolist()}"


# -- hand-built positions: rare branches ----------------------------------------------------------------
def replay_in_both(s, names, rng_steps=0, seed=0):
    """Load position s into a batch, apply the named actions (then rng_steps random ones) in both engines,
    comparing full states, masks and observations of every seat after each."""
    g = s.game
    b = VirusCoBatch(1, game=g, autoreset=False)
    b.load(0, s)
    s = s.clone()
    rng = np.random.default_rng(seed)
    acts = [g.string_to_action(nm) for nm in names]
    k = 0
    while k < len(acts) + rng_steps and not s.is_terminal():
        assert b.to_dict(0) == s.to_dict(), f"state after {k} actions"
        assert_same(b, [s], k, [k % g.num_players])
        for p in range(g.num_players):
            np.testing.assert_array_equal(b.observation([p])[0], s.observation(p))
        a = acts[k] if k < len(acts) else int(b.random_actions(rng)[0])
        b.step(np.array([a]))
        s.apply_action(a)
        k += 1
    assert b.to_dict(0) == s.to_dict()
    np.testing.assert_array_equal(b.returns()[0], s.returns())
    return s


def _g(n=4, **config):
    return VirusCoGame(n, **config)


def test_third_syringe_and_injection_as_third_send_to_intensive_care():
    """"A third syringe ... leads straight to the INTENSIVE CARE UNIT" (a syringe card, and an Injection)."""
    g = _g(4)
    s = sc.build(g, displays={0: [("V16", 1)]}, loose={0: 1}, up=("S", None), pills={0: (2, 1, 0)})
    out = replay_in_both(s, ["take A"], rng_steps=20)
    assert out.history[0][0] == -13
    s = sc.build(g, displays={0: [("V26", 1)], 1: ["V20", "V16"]}, loose={0: 1}, hands={1: ["Injection"]},
                 pills={0: (1, 0, 0), 1: (3, 2, 2)}, active=1)
    out = replay_in_both(s, ["risk Injection", "seat+3", "keep"], rng_steps=10)
    assert out.history[0][0] == -13


TABLE = {0: [("V11", 1)], 1: ["V20"], 2: ["V26", "V25"], 3: [("V13", 1)]}


@pytest.mark.parametrize("risk,pills,table,names", [
    ("Guinea Pig", {0: (0, 0, 0), 1: (1, 0, 0)}, TABLE, ["keep", "seat+1"]),   # yellow and red: nobody has them
    ("Prescription", {0: (0, 0, 0), 1: (2, 2, 2)}, TABLE, ["keep"]),            # the pharmacy has no yellow
    ("Recall", {1: (1, 0, 0), 3: (0, 1, 0)}, TABLE, ["keep", "blue", "yellow"]),  # seat 2 has nothing to return
    ("Use-by Date", {2: (1, 1, 0)}, TABLE, ["keep"]),                           # the neighbours have no pill
    ("Medicare Patient", {1: (2, 2, 2)}, TABLE, ["keep"]),                      # the keeper has no pill
    ("Pharmaceutical Trial", {1: (2, 2, 2)}, TABLE, ["keep"]),                  # nothing to give
    ("Infection", {0: (1, 0, 0), 1: (2, 2, 2)},                                 # only syringed viruses: nothing to take
     {0: ["V11"], 1: [("V26", 1), ("V15", 1)], 3: [("V13", 1)]}, ["keep"]),
    ("Infection", {0: (1, 0, 0), 1: (2, 2, 2)}, TABLE, ["keep", "card V25"]),    # seat 0 to 6 + 2 = 8
    ("Plague 3", {0: (1, 0, 0), 1: (2, 2, 2)}, TABLE, ["keep", "seat+2"]),      # onto seat 2: 15, intensive care
    ("Plague 2", {1: (2, 2, 2)}, TABLE, ["keep"]),
    ("Diagnosis", {0: (1, 0, 0), 1: (2, 2, 2)}, TABLE, ["keep", "seat+3"]),
    ("Nurse", {0: (1, 0, 0), 1: (2, 2, 2)}, TABLE, ["keep", "seat+1"]),
    ("Mr. Doctor", {1: (2, 2, 2)}, TABLE, ["keep"]),
])
def test_risk_cards_from_hand_built_positions(risk, pills, table, names):
    """Each risk card turned over by seat 0 from seat 1's hand, in positions where its effect runs into an
    edge (pills nobody holds, an empty pharmacy, nobody to take a virus from), then play goes on at random."""
    g = _g(4)
    s = sc.build(g, active=1, pills=pills, pharmacy=(2, 0, 1), displays=table, hands={1: [risk]})
    replay_in_both(s, ["risk " + risk, "seat+3"] + names, rng_steps=60, seed=len(risk))


def test_risk_card_back_at_its_issuer_paid_to_the_pharmacy():
    """"If the card comes back to the player who put it into circulation, that player pays pills of value 2
    to the pharmacy" (here a red: no exact way), then passes it on."""
    g = _g(3)
    s = sc.build(g, active=0, pills={0: (0, 0, 2), 1: (0, 0, 1), 2: (1, 0, 0)}, displays={0: ["V20"]},
                 hands={0: ["Nurse"]})
    out = replay_in_both(s, ["risk Nurse", "seat+1", "red", "seat+2", "red", "seat+2"], rng_steps=30)
    assert out.game is g


def test_mr_doctor_fee_and_pass_without_top_up():
    """mr_doctor='fee_on_pass': a pill to Mr. Doctor for each card handed to him; a cross-marked virus back at
    a holder whose stake covers the requirement: `pass` without a pill."""
    g = _g(4, mr_doctor="fee_on_pass")
    s = sc.build(g, active=0, pills={0: (0, 2, 2), 1: (0, 0, 2), 2: (3, 2, 2), 3: (3, 2, 2)}, up=("V25", "V01"))
    doc = sc.risk_id(g, "Mr. Doctor", [])
    s.rbox.remove(doc)
    s.front[1].append(doc)
    s.doctor = 1
    s.pub[g.cat.rtype[doc]] = 1
    out = replay_in_both(s, ["circulate A", "seat+1", "yellow", "red", "seat+1", "yellow", "seat+3", "blue", "pass"],
                         rng_steps=30, seed=1)
    assert out.game is g


def test_scalar_positions_loaded_into_the_batch_play_on_identically():
    """`load` takes any scalar state (random mid-game positions, every kind of pending decision)."""
    g = _g(6, mr_doctor="fee_on_pass")
    rng = np.random.default_rng(4)
    B = 32
    b = VirusCoBatch(B, game=g, autoreset=False)
    states = []
    for i in range(B):
        s = g.new_initial_state(seed=100 + i)
        for _ in range(int(rng.integers(0, 400))):
            if s.is_terminal():
                break
            s.apply_action(int(rng.choice(s.legal_actions())))
        b.load(i, s)
        assert b.to_dict(i) == s.to_dict()
        states.append(s)
    while not b.is_terminal().all():
        assert_same(b, states, 0, rng.integers(0, 6, B))
        a = b.random_actions(rng)
        b.step(a)
        for i, s in enumerate(states):
            if a[i] >= 0:
                s.apply_action(int(a[i]))
            assert b.to_dict(i) == s.to_dict()
    np.testing.assert_array_equal(b.returns(), [s.returns() for s in states])
    with pytest.raises(ValueError, match="round"):
        b.load(0, {**states[0].to_dict(), "round": 99})


def test_the_batched_observation_of_a_seat_ignores_what_it_cannot_see():
    """Information sets: a position and its determinization for seat p (other risk hands, the face-down risk
    card, the box, the stacks' hidden order resampled) load into two slots whose observations of p are
    equal, and so are their masks when p decides; the observations of other seats may differ."""
    g = _g(4)
    rng = np.random.default_rng(8)
    B = 24
    b = VirusCoBatch(2 * B, game=g, autoreset=False)
    seats = np.zeros(2 * B, dtype=np.int64)
    differ = 0
    for i in range(B):
        s = g.new_initial_state(seed=300 + i)
        for _ in range(int(rng.integers(0, 150))):
            if s.is_terminal():
                break
            s.apply_action(int(rng.choice(s.legal_actions())))
        p = int(rng.integers(0, 4)) if s.is_terminal() else s.current_player()
        t = s.determinize(p, np.random.default_rng(i))
        b.load(2 * i, s)
        b.load(2 * i + 1, t)
        seats[2 * i:2 * i + 2] = p
        differ += b.to_dict(2 * i) != b.to_dict(2 * i + 1)
    obs = b.observation(seats)
    np.testing.assert_array_equal(obs[0::2], obs[1::2])
    M = b.legal_action_mask()
    np.testing.assert_array_equal(M[0::2], M[1::2])
    assert differ >= B // 2            # the hidden parts did change


# -- bad construction (the contract every batch keeps: tests/core/test_batch_contract.py) ---------------------
@pytest.mark.parametrize("make,match", [
    (lambda: VirusCoBatch(0), "batch_size"),
    (lambda: VirusCoBatch(4, num_players=2), "num_players"),
    (lambda: VirusCoBatch(4, mr_doctor="sir"), "mr_doctor"),
    (lambda: VirusCoBatch(4, rounds=17), "rounds"),
    (lambda: VirusCoBatch(4, game=VirusCoGame(4), rounds=2), "either game"),
])
def test_bad_construction_is_a_value_error(make, match):
    with pytest.raises(ValueError, match=match):
        make()


# -- the plain-Python fallback ---------------------------------------------------------------------------------
FALLBACK = r"""
import json, sys
import numpy as np
from virus_envs.virus_co.batched import VirusCoBatch
from virus_envs.core.jit import HAVE_NUMBA
b = VirusCoBatch(6, num_players=int(sys.argv[1]), mr_doctor="fee_on_pass")
b.reset(40)
states = [b.game.new_initial_state(seed=40 + i) for i in range(6)]
rng = np.random.default_rng(2)
agree = 0
for t in range(int(sys.argv[2])):
    a = b.random_actions(rng)
    out = b.step(a)
    for i, s in enumerate(states):
        s.apply_action(int(a[i]))
        if out.done[i]:
            assert (out.returns[i] == s.returns()).all(), (t, i)
            s = states[i] = b.game.new_initial_state(seed=int(b.seeds[i]))
        assert b.to_dict(i) == s.to_dict(), (t, i)
        assert (b.legal_action_mask()[i] == s.legal_action_mask()).all(), (t, i)
        assert (b.observation()[i] == s.observation(max(s.current_player(), 0))).all(), (t, i)
        agree += 1
print(json.dumps({"numba": HAVE_NUMBA, "agree": agree, "games": [b.to_dict(i) for i in range(6)],
                  "obs": b.observation().tolist(), "mask": b.legal_action_mask().tolist()}))
"""


def test_without_numba_the_same_kernels_give_the_same_games():
    """VIRUS_ENVS_NO_NUMBA=1 runs the kernels as Python (what users without the [fast] extra get): side by side
    with the scalar engine there (2,400 decisions, about 9 games), then equal to the compiled run."""
    env = {**os.environ, "VIRUS_ENVS_NO_NUMBA": "1"}
    out = subprocess.run([sys.executable, "-c", FALLBACK, "5", "400"], env=env, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    plain = json.loads(out.stdout)
    assert plain["numba"] is False and plain["agree"] == 6 * 400
    b = VirusCoBatch(6, num_players=5, mr_doctor="fee_on_pass")
    b.reset(40)
    rng = np.random.default_rng(2)
    for _ in range(400):
        b.step(b.random_actions(rng))
    assert plain["games"] == [b.to_dict(i) for i in range(6)]
    assert plain["obs"] == b.observation().tolist()
    assert plain["mask"] == b.legal_action_mask().tolist()


def test_bench_has_batched_rows_beside_the_engine(tmp_path):
    from virus_envs.experiments.cli import main
    out = tmp_path / "b.json"
    main(["bench", "--game", "virus_co_v0", "--players", "4", "--seconds", "0.05", "--rounds", "1",
          "--search", "none", "--batch", "32", "--no-openspiel", "--out", str(out)])
    rows = {r["target"]: r for r in json.loads(out.read_text())}
    for name in ("connect_four_v3 (AEC)", "virus_co_v0 4p (engine)", "virus_co_v0 4p (batched B=32)",
                 "virus_co_v0 4p (batched+obs B=32)"):
        assert rows[name]["steps_per_s"] > 0
