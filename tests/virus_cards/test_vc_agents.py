"""VIRUS! agents end to end on small budgets (figures live in docs/rules/virus_cards.md)."""
import numpy as np
import pytest

from virus_envs import agents
import virus_envs
from virus_envs.agents.base import decision_for
from virus_envs.experiments.arena import head_to_head, play_game


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_heuristic_plays_legal_games_for_every_player_count(n):
    g = virus_envs.game("virus_cards_v0", num_players=n)
    line = [agents.make("heuristic", g)] + [agents.make("random", g) for _ in range(n - 1)]
    for seed in range(3):
        s, acts = play_game(g, line, seed=seed, record=True)
        assert s.is_terminal() and acts


def test_heuristic_reads_only_its_view():
    """The same view gives the same action, whatever the hidden cards are."""
    g = virus_envs.game("virus_cards_v0", num_players=3)
    rng = np.random.default_rng(0)
    s = g.new_initial_state(seed=11)
    for _ in range(60):
        if s.is_terminal():
            break
        p = s.current_player()
        det = s.determinize(p, rng)
        a1 = agents.make("heuristic", g, seed=5).act(decision_for(s))
        a2 = agents.make("heuristic", g, seed=5).act(decision_for(det))
        assert a1 == a2
        s.apply_action(a1)


def test_heuristic_beats_random_on_a_small_budget():
    g = virus_envs.game("virus_cards_v0", num_players=2)
    res = head_to_head(g, "heuristic", "random", 40, seed=0)
    assert res.rate > 0.75 and res.by_seat[0][1] > 0 and res.by_seat[1][1] > 0


@pytest.mark.parametrize("spec", ["heuristic:aggressive", "heuristic:defensive", "heuristic?glove_bonus=0"])
def test_heuristic_variants(spec):
    g = virus_envs.game("virus_cards_v0", num_players=3)
    s, _ = play_game(g, [agents.make(spec, g), agents.make("random", g), agents.make("heuristic", g)], seed=1)
    assert s.is_terminal()
