"""The batched engine (`virus_envs.virus_cards.batched`) against the scalar reference engine.

The scalar engine (`game.py`) is the rules' reference, checked by the rulebook scenario tests. Here
both engines play the same games side by side: the same seeds, the same (random) actions, and after
every action the current player, masks, observations (the player to move's and a random seat's),
scores must be identical, the full states (to_dict, rng included) of a share of the games too, and
at every game's end the returns. The shuffle agrees because the batch carries numpy's PCG64 and its
`Generator.shuffle` draw for draw (core/pcg64.py, tests/core/test_pcg64_shuffle.py).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

from batch_side_by_side import play_side_by_side as side_by_side
from virus_envs.virus_cards import kernels as K
from virus_envs.virus_cards.batched import VirusCardsBatch
from virus_envs.virus_cards.game import VirusCardsGame


#: VIRUS_BATCH_SCALE=k plays k times as many games in the side-by-side tests (default 1: about 1,250
#: games in all, about 2 minutes of CPU; docs/scale.md gives the larger runs and their counts)
SCALE = int(os.environ.get("VIRUS_BATCH_SCALE", "1"))


def play_side_by_side(n, games, B, seed, check_every, **config):
    """Random play in both engines until `games` (times SCALE) games have ended; everything compared as it goes
    (tests/batch_side_by_side.py).

    Returns (games ended, truncated games, decisions compared, Counter of action kinds played, deck flips)."""
    b = VirusCardsBatch(B, num_players=n, **config)
    kinds, flips = Counter(), [0]

    def apply(s, action):
        kinds[b.game.A.payload[action][0]] += 1
        public = s.deck_public
        s.apply_action(action)
        flips[0] += s.deck_public and not public

    ended, truncated, decisions = side_by_side(b, games * SCALE, seed, check_every, apply=apply)
    return ended, truncated, decisions, kinds, flips[0]


@pytest.mark.parametrize("n,games,B", [(2, 300, 128), (3, 200, 96), (4, 150, 64), (5, 100, 48), (6, 100, 48)])
def test_random_games_identical_to_the_scalar_engine(n, games, B):
    ended, _, decisions, kinds, flips = play_side_by_side(n, games, B, seed=n, check_every=17)
    assert ended >= games * SCALE and decisions > 20 * games * SCALE
    # every kind of decision was compared, and decks turned over from the discard pile (public decks)
    assert all(kinds[k] > 0 for k in range(6)), kinds
    assert flips > 0


@pytest.mark.parametrize("n,config", [
    (2, {"first_player": -1, "colour_rule": "card_or_organ"}),
    (3, {"colour_rule": "card_and_organ", "medicine_on_any_body": True, "first_player": 2}),
    (4, {"virus_on_own_body": True, "deck": "seed_text", "first_player": -1}),
    (5, {"medicine_on_any_body": True, "virus_on_own_body": True, "colour_rule": "card_or_organ"}),
    (6, {"deck": "seed_text", "first_player": -1}),
])
def test_other_configs_identical_to_the_scalar_engine(n, config):
    ended, _, _, _, _ = play_side_by_side(n, 60, 32, seed=10 + n, check_every=7, **config)
    assert ended >= 60


def test_truncation_by_max_turns_identical():
    ended, truncated, _, _, _ = play_side_by_side(3, 64, 32, seed=5, check_every=5, max_turns=12)
    assert truncated > 0 and ended >= 64


def test_a_deck_file_is_batched_and_too_large_a_deck_refused(tmp_path):
    small = tmp_path / "small.yaml"
    small.write_text("presets:\n  tiny:\n    organ: {red: 3, green: 3, blue: 3, yellow: 3, multi: 1}\n"
                     "    virus: {red: 2, green: 2, multi: 1}\n    medicine: {red: 2, blue: 2, multi: 1}\n"
                     "    treatment: {transplant: 1, organ_thief: 1, contagion: 1, latex_glove: 1, medical_error: 1}\n")
    ended, _, _, _, _ = play_side_by_side(3, 40, 16, seed=3, check_every=3, deck="tiny", deck_file=str(small))
    assert ended >= 40
    big = tmp_path / "big.yaml"
    big.write_text("presets:\n  big:\n    organ: {red: 40, green: 40, blue: 40, yellow: 40}\n")
    with pytest.raises(ValueError, match="config key 'deck'/'deck_file'"):
        VirusCardsBatch(2, num_players=2, deck="big", deck_file=str(big))


def test_an_observation_is_written_only_from_what_the_seat_may_see():
    """Seat p's batched observation (and the acting seat's mask) stays the same when everything p cannot
    see is dealt again (`determinize(p)`: other hands' unknown cards, a face-down deck), in positions with
    and without a turned-over (public) deck."""
    g = VirusCardsGame(4)
    rng = np.random.default_rng(8)
    b = VirusCardsBatch(2, game=g, autoreset=False)
    public = private = compared = 0
    for k in range(40):
        s = g.new_initial_state(seed=500 + k)
        for _ in range(int(rng.integers(0, 250))):
            if s.is_terminal():
                break
            s.apply_action(int(rng.choice(s.legal_actions())))
        public += s.deck_public
        private += not s.deck_public
        for p in range(4):
            t = s.determinize(p, rng)
            b.load(0, s)
            b.load(1, t)
            obs = b.observation(np.array([p, p]))
            np.testing.assert_array_equal(obs[0], obs[1], err_msg=f"position {k}, seat {p}")
            if s.current_player() == p:
                np.testing.assert_array_equal(b.legal_action_mask()[0], b.legal_action_mask()[1])
            if b.to_dict(0)["hands"] != b.to_dict(1)["hands"]:
                compared += 1
    assert public > 5 and private > 5 and compared > 20     # both kinds of deck; hidden cards that really moved


def test_the_state_of_a_slot_is_a_scalar_state():
    b = VirusCardsBatch(3, num_players=3)
    b.reset(9)
    rng = np.random.default_rng(1)
    for _ in range(40):
        b.step(b.random_actions(rng))
    s = b.state(1)
    assert s.to_dict() == b.to_dict(1)
    np.testing.assert_array_equal(s.legal_action_mask(), b.legal_action_mask()[1])


# -- hand-built positions: the rarest branches ---------------------------------------------------------------
def _cards(g, kind, colour=-1, treat=-1):
    return [c for c in range(g.deck.size) if g.KIND[c] == kind and (colour < 0 or g.COLOUR[c] == colour)
            and (treat < 0 or g.TREAT[c] == treat)]


def test_contagion_keeps_the_maximum_matching_in_a_hand_built_position():
    """"Transfer as many viruses as you can": with red and multicolour viruses on my organs and only
    one free red organ and one free green organ around, the red virus must take the red organ so that
    the multicolour virus can still move (the matching of size 2), as in the scalar engine."""
    from virus_envs.virus_cards.cards import CONTAGION, MEDICINE, ORGAN, TREATMENT, VIRUS
    g = VirusCardsGame(2)
    s = g.new_initial_state(seed=0)
    d = s.to_dict()
    organs = {c: _cards(g, ORGAN, c) for c in range(5)}
    vir = {c: _cards(g, VIRUS, c) for c in range(5)}
    used = [organs[0][0], organs[4][0], vir[0][0], vir[4][0], organs[0][1], organs[1][0]]
    contagion = _cards(g, TREATMENT, treat=CONTAGION)[0]
    med = _cards(g, MEDICINE, 2)[:2]
    used += [contagion] + med
    rest = [c for c in range(g.deck.size) if c not in used]
    d["organ"] = [[organs[0][0], -1, -1, -1, organs[4][0]], [organs[0][1], organs[1][0], -1, -1, -1]]
    d["att"] = [[[vir[0][0]], [], [], [], [vir[4][0]]], [[], [], [], [], []]]
    d["hands"] = [[contagion] + med, rest[:3]]
    d["hand_public"] = [[False] * 3, [False] * 3]
    d["deck"], d["discard"] = rest[3:], []
    d.update(turn_player=0, stage=0, pending=None, turns=0, winner=-1, truncated=False, deck_public=False)
    s = g.state_from_dict(d)
    b = VirusCardsBatch(1, game=g, autoreset=False)
    b.load(0, s)
    a = g.A.play[0]
    assert b.legal_action_mask()[0, a]
    b.step(np.array([a]))
    s.apply_action(a)
    assert b.to_dict(0) == s.to_dict() and s.stage == 2
    legal = set(np.flatnonzero(b.legal_action_mask()[0]).tolist())
    assert legal == set(s.legal_actions())
    # red virus (own colour 0) -> +1's red (0) keeps the multicolour one movable; red -> green does not exist
    # (a red virus fits red and multicolour organs only); multicolour -> red would strand the red virus
    assert legal == {g.A.move[0][1][0], g.A.move[4][1][1]}


# -- bad construction (the contract every batch keeps: tests/core/test_batch_contract.py) ---------------------
@pytest.mark.parametrize("make,match", [
    (lambda: VirusCardsBatch(0), "batch_size"),
    (lambda: VirusCardsBatch(4, num_players=7), "num_players"),
    (lambda: VirusCardsBatch(4, colour_rule="organ"), "colour_rule"),
    (lambda: VirusCardsBatch(4, game=VirusCardsGame(2), max_turns=9), "either game"),
])
def test_bad_construction_is_a_value_error(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_row_layout_fits_the_largest_table():
    """Six seats' hands, bodies and a full deck fit the row; the action table of 6 players fits MAXA."""
    assert VirusCardsGame(6).num_actions <= K.MAXA
    assert K.PUB + K.MAXD == K.ROW


# -- the plain-Python fallback ---------------------------------------------------------------------------
FALLBACK = r"""
import json, sys
import numpy as np
from virus_envs.virus_cards.batched import VirusCardsBatch
from virus_envs.core.jit import HAVE_NUMBA
b = VirusCardsBatch(6, num_players=int(sys.argv[1]))
b.reset(40)
rng = np.random.default_rng(2)
for _ in range(int(sys.argv[2])):
    b.step(b.random_actions(rng))
print(json.dumps({"numba": HAVE_NUMBA, "games": [b.to_dict(i) for i in range(6)],
                  "obs": b.observation().tolist(), "mask": b.legal_action_mask().tolist()}))
"""


def test_without_numba_the_same_kernels_give_the_same_games():
    """VIRUS_ENVS_NO_NUMBA=1 runs the kernels as Python (what users without the [fast] extra get)."""
    env = {**os.environ, "VIRUS_ENVS_NO_NUMBA": "1"}
    out = subprocess.run([sys.executable, "-c", FALLBACK, "4", "300"], env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    plain = json.loads(out.stdout)
    assert plain["numba"] is False
    b = VirusCardsBatch(6, num_players=4)
    b.reset(40)
    rng = np.random.default_rng(2)
    for _ in range(300):
        b.step(b.random_actions(rng))
    assert plain["games"] == [b.to_dict(i) for i in range(6)]
    assert plain["obs"] == b.observation().tolist()
    assert plain["mask"] == b.legal_action_mask().tolist()
