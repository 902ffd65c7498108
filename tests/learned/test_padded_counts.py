"""One VIRUS! model for several player counts (issue 17): the n-player encoding inside the 6-player one.

The expectations are stated from the observation's field table (docs: virus_envs/virus_cards/encoding.py,
"seat-relative (index 0 is the observer, 1 the next in turn order)") and the action names, not from the
padding's own index arrays: a field of n seats must read the same in the first n rows of the 6-seat field,
with zeros after it; an action must keep its name ("play 1 -> +2 red") in the 6-player table.
"""
from __future__ import annotations

import pickle

import numpy as np
import pytest
import torch

from virus_envs import agents
import virus_envs
from virus_envs.core import IllegalActionError
from virus_envs.experiments.arena import head_to_head
from virus_envs.experiments.train import config_from_dict, train
from virus_envs.virus_cards import encoding
from virus_envs.virus_cards.padding import padding

torch.set_num_threads(1)

#: the fields with one row per seat (relative): known_hands has n-1 rows (the others), the rest n
SEAT_FIELDS = {"known_hands": -1, "bodies": 0, "hand_sizes": 0, "transplant_first": 0, "to_act": 0}


def _positions(n, count=12, seed=0):
    """Reachable states of an n-player game (random play; the deck turned over in some of them)."""
    game = virus_envs.game("virus_cards_v0", n)
    rng = np.random.default_rng(seed)
    out = []
    for g in range(count):
        s = game.new_initial_state(seed=seed * 100 + g)
        for _ in range(int(rng.integers(0, 120))):
            if s.is_terminal():
                break
            s.apply_action(int(rng.choice(np.flatnonzero(s.legal_action_mask()))))
        out.append(s)
    return game, out


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_padded_observation_is_the_n_player_one_field_by_field(n):
    small, big = encoding.layout(n), encoding.layout(6)
    pad = padding(n)
    assert pad.obs_size == big.size + 6
    _, states = _positions(n)
    for s in states:
        for p in range(n):
            obs = s.observation(p)
            padded = pad.observation(obs)
            assert padded.shape == (big.size + 6,) and padded.dtype == np.float32
            for name, _ in small.fields:
                mine, six = small.view(obs, name), big.view(padded[:big.size], name)
                if name in SEAT_FIELDS:
                    rows = n + SEAT_FIELDS[name]
                    assert np.array_equal(six[:rows], mine), name
                    assert not six[rows:].any(), f"{name}: absent seats must stay 0"
                else:
                    assert np.array_equal(six, mine), name
            assert padded[big.size:].tolist() == [1.0] * n + [0.0] * (6 - n)       # `present`


def test_a_batch_pads_as_its_rows():
    pad = padding(3)
    _, states = _positions(3, count=4, seed=1)
    batch = np.stack([s.observation(0) for s in states])
    assert np.array_equal(pad.observation(batch), np.stack([pad.observation(o) for o in batch]))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_every_action_keeps_its_name_and_the_mask_maps_exactly(n):
    pad = padding(n)
    six = virus_envs.game("virus_cards_v0", 6)
    game, states = _positions(n, seed=n)
    assert pad.num_actions == six.num_actions == 270
    for a in range(game.num_actions):           # the same move in both tables, by name (+r, colour, hand card)
        assert six.actions.name(int(pad.action_index[a])) == game.actions.name(a)
        assert pad.action(int(pad.action_index[a])) == a
    for s in states:
        if s.is_terminal():
            continue
        mask = s.legal_action_mask()
        pmask = pad.mask(mask)
        assert pmask.dtype == bool and pmask.sum() == mask.sum()
        back = sorted(pad.action(int(i)) for i in np.flatnonzero(pmask))
        assert back == np.flatnonzero(mask).tolist()
        for a in np.flatnonzero(mask):
            assert pmask[pad.action_index[a]]


def test_a_padded_id_with_no_move_at_this_count_is_illegal():
    pad = padding(2)
    six = virus_envs.game("virus_cards_v0", 6).actions
    far = six.parse("play 0 -> +4 red")                       # player +4 does not exist at 2 players
    with pytest.raises(IllegalActionError, match=r"in phase .play. for player 1: padded action \d+ names no move of the 2-player"):
        pad.action(far, "play", 1)
    with pytest.raises(ValueError, match="no padded encoding for 7 players"):
        padding(7)


def test_padded_policy_plays_the_argmax_of_the_padded_network():
    from virus_envs.agents.padded import PaddedPolicy
    from virus_envs.agents.ppo import NumpyPolicy

    rng = np.random.default_rng(3)
    inner = NumpyPolicy([(rng.normal(size=(1027, 8)), rng.normal(size=8)),
                         (rng.normal(size=(8, 270)), rng.normal(size=270))], "Tanh")
    pad = padding(3)
    pol = PaddedPolicy(inner, pad)
    assert (pol.obs_size, pol.num_actions) == (595, 126)
    _, states = _positions(3, seed=9)
    for s in states:
        if s.is_terminal():
            continue
        obs, mask = s.observation(s.current_player()), s.legal_action_mask()
        # by hand: the padded network's masked argmax over the padded mask, then its 3-player name
        z = inner.logits(pad.observation(obs)).astype(float)
        z[~pad.mask(mask)] = -np.inf
        assert pol.act(obs, mask) == pad.action(int(np.argmax(z)))
    again = pickle.loads(pickle.dumps(pol))
    assert np.array_equal(again.logits(obs), pol.logits(obs))


def test_the_multi_count_env_draws_every_count_and_maps_actions():
    from virus_envs.agents.multicount_env import MultiCountSelfPlayEnv

    env = MultiCountSelfPlayEnv("virus_cards_v0", [2, 3, 4], opponents={"random": 1.0})
    assert env.observation_space.shape == (1027,) and env.action_space.n == 270
    rng = np.random.default_rng(0)
    seen = set()
    obs, info = env.reset(seed=4)
    for _ in range(30):
        n = info["num_players"]
        seen.add(n)
        assert obs.shape == (1027,) and obs[-6:].tolist() == [1.0] * n + [0.0] * (6 - n)
        assert np.array_equal(obs, padding(n).observation(env.current.state.observation(env.current.learner)))
        done = False
        while not done:
            mask = env.action_masks()
            assert mask.shape == (270,) and mask.sum() == env.current.action_masks().sum()
            before = env.current.state.to_dict()
            with pytest.raises(IllegalActionError):
                env.step(int(np.flatnonzero(~mask)[0]))              # refused, the game unchanged
            assert env.current.state.to_dict() == before
            obs, _, done, _, step_info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert step_info["num_players"] == n
        obs, info = env.reset()
    assert seen == {2, 3, 4}


def test_config_errors_name_the_key():
    with pytest.raises(ValueError, match=r"'player_counts': roll_write_v0 has no padded multi-count encoding"):
        train(config_from_dict(dict(game="roll_write_v0", player_counts=[2, 4])), "/nonexistent")
    with pytest.raises(ValueError, match=r"'players': 5 is not among player_counts \[2, 3\]"):
        train(config_from_dict(dict(game="virus_cards_v0", players=5, player_counts=[2, 3])), "/nonexistent")
    with pytest.raises(ValueError, match=r"'player_counts': virus_cards_v0 has no padded encoding for 7 players"):
        train(config_from_dict(dict(game="virus_cards_v0", player_counts=[2, 7])), "/nonexistent")


@pytest.fixture(scope="module")
def multi_model(tmp_path_factory):
    out = tmp_path_factory.mktemp("multi")
    cfg = config_from_dict(dict(game="virus_cards_v0", player_counts=[2, 3, 4], total_steps=1024, n_envs=2,
                                n_steps=256, batch_size=256, n_epochs=1, net_arch=[16],
                                opponents={"random": 1.0, "snapshot": 1.0}, snapshot_every=512, eval_every=1024,
                                eval_games=3, eval_opponents=["random"], test_games=3,
                                test_opponents=["heuristic"], progress_every=1024, seed=2))
    summary = train(cfg, out, echo=lambda *_: None, command="test")
    return out, summary


def test_a_tiny_multi_count_run_loads_and_plays_two_three_and_four_players(multi_model):
    out, summary = multi_model
    path = str(out / "final.zip")
    assert summary["player_counts"] == [2, 3, 4]
    assert [r["players"] for r in summary["test"]] == [2, 3, 4]
    assert [r["opponent"] for r in summary["test"]] == ["heuristic (2p)", "heuristic (3p)", "heuristic (4p)"]
    for n in (2, 3, 4):
        game = virus_envs.game("virus_cards_v0", n)
        agent = agents.make(f"ppo:{path}", game)
        assert agent.meta["player_counts"] == [2, 3, 4] and agent.meta["padding"] == {"max_players": 6}
        res = head_to_head(game, f"ppo:{path}", "random", n, seed=1)       # whole games, each legal
        assert res.games == n


def test_check_fits_refuses_an_unlisted_count_in_one_line(multi_model):
    out, _ = multi_model
    path = str(out / "final.zip")
    for n in (5, 6):
        with pytest.raises(ValueError) as e:
            agents.make(f"ppo:{path}", virus_envs.game("virus_cards_v0", n))
        assert "\n" not in str(e.value)
        assert f"was trained for virus_cards_v0 with 2, 3 or 4 players, not {n}" in str(e.value)
    with pytest.raises(ValueError, match="was trained on virus_cards_v0, not virus_co_v0"):
        agents.make(f"ppo:{path}", virus_envs.game("virus_co_v0", 4))


def test_a_shipped_multi_count_model_is_found_at_each_of_its_counts(multi_model, tmp_path, monkeypatch):
    import shutil

    from virus_envs import models

    out, _ = multi_model
    (tmp_path / "virus_cards_v0").mkdir()
    shutil.copyfile(out / "final.zip", tmp_path / "virus_cards_v0" / "ppo_multi.zip")
    monkeypatch.setattr(models, "ROOT", str(tmp_path))
    assert [(m.env_id, m.num_players) for m in models.available()] == [("virus_cards_v0", n) for n in (2, 3, 4)]
    game = virus_envs.game("virus_cards_v0", 3)
    assert agents.make("ppo:builtin", game).path.endswith("ppo_multi.zip")
    with pytest.raises(ValueError, match="no shipped model for virus_cards_v0 with 5 players; shipped for 2, 3 or 4 "
                                         "players"):
        agents.make("ppo:builtin", virus_envs.game("virus_cards_v0", 5))
