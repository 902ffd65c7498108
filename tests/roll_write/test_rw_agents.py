"""Virus!: Roll & Write agents: the heuristic family builds from specs, plays legally, beats random."""
from __future__ import annotations

import numpy as np
import pytest

import agents
import virus_envs
from experiments.arena import head_to_head, play_game


@pytest.mark.parametrize("spec", ["heuristic", "heuristic?contaminate_below=3&low_gain=1.5",
                                  "heuristic?save_wildcard=2", "heuristic?deny=1", "heuristic:cautious",
                                  "heuristic:spoiler"])
def test_specs_build_and_play_legal_games(spec):
    g = virus_envs.game("roll_write_v0", num_players=3)
    line = [agents.make(spec, g), agents.make("random", g), agents.make(spec, g)]
    st, actions = play_game(g, line, seed=4, record=True)
    assert st.is_terminal() and not st.is_truncated() and actions


def test_unknown_parameter_or_variant_is_refused():
    g = virus_envs.game("roll_write_v0", num_players=2)
    with pytest.raises(ValueError, match="contaminate_above"):
        agents.make("heuristic?contaminate_above=3", g)
    with pytest.raises(ValueError, match="reckless"):
        agents.make("heuristic:reckless", g)


def test_heuristic_reads_only_the_view():
    """Same view and mask -> same action, whatever the hidden future rolls."""
    g = virus_envs.game("roll_write_v0", num_players=2)
    s = g.new_initial_state(seed=9)
    from agents.base import decision_for
    h = agents.make("heuristic", g, seed=0)
    d = decision_for(s)
    det = s.determinize(d.seat, np.random.default_rng(1))
    assert h.act(d) == h.act(decision_for(det))


@pytest.mark.parametrize("n,spec", [(2, "heuristic"), (3, "heuristic"), (4, "heuristic"),
                                    (2, "heuristic?contaminate_below=2&deny=1")])
def test_heuristic_beats_random(n, spec):
    g = virus_envs.game("roll_write_v0", num_players=n)
    r = head_to_head(g, spec, "random", games=12 * n, seed=1)
    assert r.rate > 0.8
