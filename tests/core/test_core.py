"""The game-agnostic core: layout, action table, config checks, seeding, errors, registry."""
import json

import numpy as np
import pytest

import virus_envs
from virus_envs.core import ActionTable, IllegalActionError, ObsLayout, make_rng, rng_from_dict, rng_to_dict
from virus_envs.core.seeding import clone_rng


def test_layout_named_slices_share_memory():
    lay = ObsLayout([("hand", (3, 4)), ("deck", 1), ("bodies", (2, 5))])
    assert lay.size == 12 + 1 + 10 and lay.shape == (23,)
    v = lay.zeros()
    lay.view(v, "hand")[1, 2] = 1.0
    lay.view(v, "bodies")[1, 4] = 0.5
    assert v[1 * 4 + 2] == 1.0 and v[13 + 9] == 0.5
    assert lay.unpack(v)["deck"].shape == (1,)
    assert "| bodies | (2, 5) | 13..22 |" in lay.describe()
    with pytest.raises(ValueError, match="duplicate"):
        ObsLayout([("a", 1), ("a", 2)])


def test_action_table_round_trip_and_context_suffix():
    t = ActionTable()
    a = t.add("play 0 -> +1 red", ("x",))
    b = t.add("discard 0,1", ("y",))
    assert t.parse("play 0 -> +1 red [red virus]") == a
    assert t.parse(" discard 0,1 ") == b and t.parse("1") == b
    with pytest.raises(ValueError, match="unknown action"):
        t.parse("fly away")
    with pytest.raises(ValueError, match="duplicate"):
        t.add("discard 0,1", ())


def test_rng_round_trips_through_json():
    r = make_rng(123)
    r.integers(100, size=5)
    d = json.loads(json.dumps(rng_to_dict(r)))
    r2 = rng_from_dict(d)
    assert r.integers(1 << 40, size=8).tolist() == r2.integers(1 << 40, size=8).tolist()
    c = clone_rng(r)
    assert c.random() == r.random()
    with pytest.raises(ValueError):
        make_rng(-1)


@pytest.mark.parametrize("kw, key", [
    ({"max_turns": 0}, "max_turns"), ({"max_turns": "many"}, "max_turns"), ({"colour": 1}, "colour"),
    ({"first_player": 7}, "first_player"), ({"deck": "pirate"}, "deck"), ({"virus_on_own_body": 1}, "virus_on_own_body"),
])
def test_bad_config_names_the_key(kw, key):
    with pytest.raises(ValueError, match=key):
        virus_envs.game("virus_cards_v0", num_players=2, **kw)


@pytest.mark.parametrize("n", [1, 7, 2.5, "3"])
def test_bad_player_count(n):
    with pytest.raises(ValueError, match="num_players"):
        virus_envs.game("virus_cards_v0", num_players=n)


def test_registry_and_unknown_id():
    assert "virus_cards_v0" in virus_envs.ENV_IDS
    with pytest.raises(ValueError, match="unknown env id"):
        virus_envs.game("chess_v0")
    import pettingzoo
    e = pettingzoo.make("aec", "virus/virus_cards-v0", num_players=3)
    e.reset(seed=0)
    assert e.possible_agents == ["player_0", "player_1", "player_2"]


def test_illegal_action_error_names_action_phase_and_seat():
    s = virus_envs.game("virus_cards_v0").new_initial_state(seed=0)
    bad = int(np.flatnonzero(~s.legal_action_mask())[0])
    with pytest.raises(IllegalActionError) as ei:
        s.apply_action(bad)
    msg = str(ei.value)
    assert str(bad) in msg and "play or discard" in msg and "player 0" in msg
    for junk in (-1, 10**6, "x", None, 1.5):
        with pytest.raises(IllegalActionError):
            s.apply_action(junk)


def test_mask_is_read_only_and_cached():
    s = virus_envs.game("virus_cards_v0").new_initial_state(seed=0)
    m = s.legal_action_mask()
    with pytest.raises(ValueError):
        m[0] = True
    assert s.legal_actions() == np.flatnonzero(m).tolist()


def test_raw_env_raises_and_wrapped_env_penalises():
    raw = virus_envs.raw_env("virus_cards_v0", num_players=2)
    raw.reset(seed=0)
    obs = raw.observe(raw.agent_selection)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = json.dumps(raw.state.to_dict(), sort_keys=True)
    with pytest.raises(IllegalActionError):
        raw.step(bad)
    assert json.dumps(raw.state.to_dict(), sort_keys=True) == before
    env = virus_envs.env("virus_cards_v0", num_players=2)
    env.reset(seed=0)
    offender = env.agent_selection
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert env.rewards[offender] == -1
    assert all(env.terminations.values()) or all(env.truncations.values())


def test_unseeded_resets_follow_the_last_seed():
    e1 = virus_envs.env("virus_cards_v0")
    e2 = virus_envs.env("virus_cards_v0")
    e1.reset(seed=5)
    e2.reset(seed=5)
    e1.reset()
    e2.reset()
    a1 = e1.observe(e1.agent_selection)["observation"]
    a2 = e2.observe(e2.agent_selection)["observation"]
    assert np.array_equal(a1, a2)
