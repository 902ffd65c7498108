"""VIRUS! through PettingZoo: the official api/seed/render tests for 2 to 6 players, observation contents."""
import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import virus_envs
from virus_envs.virus_cards.scenario import from_text

ENV = "virus_cards_v0"


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_pettingzoo_api_seed_render(n):
    api_test(virus_envs.env(ENV, num_players=n), num_cycles=200)
    seed_test(lambda: virus_envs.env(ENV, num_players=n), num_cycles=100)
    render_test(lambda render_mode=None: virus_envs.env(ENV, num_players=n, render_mode=render_mode))


def test_raw_env_api():
    api_test(virus_envs.raw_env(ENV, num_players=3), num_cycles=100)


def test_rewards_reach_every_seat_at_the_end_and_infos_carry_scores_and_phase():
    env = virus_envs.env(ENV, num_players=3)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    final = {}
    for agent in env.agent_iter():
        obs, rew, term, trunc, info = env.last()
        assert set(info) >= {"scores", "phase"}
        if term or trunc:
            final[agent] = rew
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert set(final) == {"player_0", "player_1", "player_2"}
    assert sorted(final.values()) in ([-1.0, -1.0, 1.0], [0.0, 0.0, 0.0])


def test_observation_is_seat_relative_and_shows_own_hand_bodies_discard_deck():
    s = from_text("""
        players: 3
        turn: 1
        hand 1: red virus, transplant, multi medicine
        body 1: green+green medicine+green medicine
        body 2: blue+blue virus
        discard: yellow virus, yellow virus
    """)
    g = s.game
    lay = g.layout
    o = lay.unpack(s.observation(1))
    from virus_envs.virus_cards.cards import TYPE_NAMES
    assert [TYPE_NAMES[i] for i in np.flatnonzero(o["hand"].sum(0))] == ["red virus", "multi medicine", "transplant"]
    assert o["bodies"][0, 1, 4] == 1.0           # own (relative seat 0) green organ immunized
    assert o["bodies"][1, 2, 2] == 1.0           # next seat (player 2) blue organ infected
    assert o["bodies"][1, 2, 5 + 2] == 1.0       # ... by a blue virus
    assert o["discard"][TYPE_NAMES.index("yellow virus")] == pytest.approx(2 / 4)
    assert o["deck_size"][0] == pytest.approx(len(s.deck) / 68)
    assert o["to_act"].tolist() == [1.0, 0.0, 0.0]
    # player 0 sees the same table from its own seat: player 1 is its +1
    o0 = lay.unpack(s.observation(0))
    assert o0["bodies"][1, 1, 4] == 1.0 and o0["to_act"].tolist() == [0.0, 1.0, 0.0]
    assert o0["hand"].sum() == 3 and not np.array_equal(o0["hand"], o["hand"])


def test_observation_bounds_match_the_space():
    env = virus_envs.env(ENV, num_players=6)
    env.reset(seed=1)
    space = env.observation_space("player_0")["observation"]
    rng = np.random.default_rng(1)
    for _ in range(300):
        obs, rew, term, trunc, info = env.last()
        if term or trunc:
            break
        assert space.contains(obs["observation"])
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_render_shows_bodies_and_hand():
    s = from_text("players: 2\nhand 0: red virus, blue, green\nbody 1: red+red medicine")
    text = str(s)
    assert "player_1" in text and "red+red medicine" in text and "0:red virus" in text


def test_action_strings_round_trip():
    g = virus_envs.game(ENV, num_players=4)
    s = g.new_initial_state(seed=2)
    for a in range(g.num_actions):
        assert g.string_to_action(g.action_to_string(a)) == a
    for a in s.legal_actions():
        assert g.string_to_action(s.action_to_string(a)) == a
