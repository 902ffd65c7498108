"""agents.make specs, the decision object, and the arena's interval arithmetic."""
import numpy as np
import pytest

from virus_envs import agents
import virus_envs
from virus_envs.experiments.arena import head_to_head, play_game, wilson

from interval_oracle import score_interval


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


# Newcombe (1998), "Two-sided confidence intervals for the single proportion: comparison of seven
# methods", Statistics in Medicine 17:857-872, Table II, method 3 (score interval without continuity
# correction), to the 4 decimals printed there.
NEWCOMBE_1998 = [((81, 263), (0.2553, 0.3662)), ((15, 148), (0.0624, 0.1605)), ((0, 20), (0.0, 0.1611)),
                 ((1, 29), (0.0061, 0.1718)), ((29, 29), (0.8830, 1.0))]


@pytest.mark.parametrize("kn, expected", NEWCOMBE_1998)
def test_wilson_matches_the_published_score_intervals(kn, expected):
    lo, hi = wilson(*kn)
    assert abs(lo - expected[0]) < 5e-5 and abs(hi - expected[1]) < 5e-5


@pytest.mark.parametrize("k, n", [(0, 1), (1, 2), (3.5, 7), (2.5, 40), (199.5, 200), (613, 1000)])
def test_wilson_is_the_set_the_score_test_accepts(k, n):
    """Shared wins make k fractional: the interval still inverts the score test (found by bisection)."""
    lo, hi = wilson(k, n)
    ref_lo, ref_hi = score_interval(k, n)
    assert lo == pytest.approx(ref_lo, abs=1e-9) and hi == pytest.approx(ref_hi, abs=1e-9)
    assert wilson(0, 0) == (0.0, 1.0)          # no games: nothing is known


def test_every_game_has_a_heuristic():
    """Tests of the tournament, replay and training loop every env id with its heuristic."""
    assert set(agents.HEURISTICS) == set(virus_envs.ENV_IDS)


def test_play_game_and_head_to_head_are_seeded():
    g = virus_envs.game("virus_cards_v0", num_players=2)
    s1, acts1 = play_game(g, [agents.make("random", g), agents.make("random", g)], seed=4, record=True)
    s2, acts2 = play_game(g, [agents.make("random", g), agents.make("random", g)], seed=4, record=True)
    assert acts1 == acts2 and s1.returns().tolist() == s2.returns().tolist()
    r1 = head_to_head(g, "random", "random", 8, seed=2)
    r2 = head_to_head(g, "random", "random", 8, seed=2)
    assert r1 == r2 and r1.by_seat[0][0] == r1.by_seat[1][0] == 4
