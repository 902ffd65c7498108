"""agents.make specs, the decision object, and the arena's interval arithmetic."""
import numpy as np
import pytest

from virus_envs import agents
import virus_envs
from virus_envs.experiments.arena import head_to_head, play_game, wilson


def test_parse_spec():
    assert agents.parse_spec("random") == ("random", None, {})
    assert agents.parse_spec("heuristic:aggressive?leader_weight=1.5&x=true&name=a") == (
        "heuristic", "aggressive", {"leader_weight": 1.5, "x": True, "name": "a"})
    for bad in ("", "heuristic?k", None):
        with pytest.raises(ValueError):
            agents.parse_spec(bad)


def test_make_errors_name_the_problem():
    g = virus_envs.game("virus_cards_v0")
    with pytest.raises(ValueError, match="unknown agent"):
        agents.make("genius", g)
    with pytest.raises(ValueError, match="unknown parameter 'nope'"):
        agents.make("heuristic?nope=1", g)
    with pytest.raises(ValueError, match="unknown variant"):
        agents.make("heuristic:zen", g)
    with pytest.raises(ValueError, match="ppo:<path.zip>"):
        agents.make("ppo", g)


def test_decision_and_random_agent_are_reproducible():
    g = virus_envs.game("virus_cards_v0", num_players=3)
    s = g.new_initial_state(seed=1)
    d = agents.decision_for(s)
    assert d.seat == 0 and d.view["seat"] == 0 and d.observation.shape == g.observation_shape
    assert d.handle is None and agents.decision_for(s, with_handle=True).handle is not None
    a1 = agents.make("random?seed=3", g)
    a2 = agents.make("random", g, seed=3)
    assert [a1.act(d) for _ in range(20)] == [a2.act(d) for _ in range(20)]


def test_wilson_known_values():
    # reference values (Wilson score interval, z = 1.96)
    lo, hi = wilson(50, 100)
    assert abs(lo - 0.4038) < 1e-3 and abs(hi - 0.5962) < 1e-3
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and abs(hi - 0.2775) < 1e-3
    lo, hi = wilson(95, 100)
    assert abs(lo - 0.8882) < 1e-3 and abs(hi - 0.9785) < 1e-3


def test_play_game_and_head_to_head_are_seeded():
    g = virus_envs.game("virus_cards_v0", num_players=2)
    s1, acts1 = play_game(g, [agents.make("random", g), agents.make("random", g)], seed=4, record=True)
    s2, acts2 = play_game(g, [agents.make("random", g), agents.make("random", g)], seed=4, record=True)
    assert acts1 == acts2 and s1.returns().tolist() == s2.returns().tolist()
    r1 = head_to_head(g, "random", "random", 8, seed=2)
    r2 = head_to_head(g, "random", "random", 8, seed=2)
    assert r1 == r2 and r1.by_seat[0][0] == r1.by_seat[1][0] == 4
