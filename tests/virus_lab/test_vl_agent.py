"""The Virus team heuristic (baseline): legal play for 1-4 Heroes, reads the view only, and reaches a
sub-goal (the exit opened) far more often than random play."""
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


def test_heuristic_parameters_and_variants():
    g = VirusLabGame(num_players=2)
    assert VirusLabHeuristic(g, variant="brave").params["roll_cubes"] == 4
    with pytest.raises(ValueError, match="nonsense"):
        VirusLabHeuristic(g, nonsense=1)
    assert np.isfinite(VirusLabHeuristic(g).params["hearts"])
