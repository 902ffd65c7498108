"""Virus!: Roll & Write agents: the heuristic family builds from specs, plays legally, beats random."""
from __future__ import annotations

import numpy as np
import pytest

from virus_envs import agents
import virus_envs
from virus_envs.agents.base import decision_for
from virus_envs.experiments.arena import head_to_head, play_game
from rw_helpers import cross, dice, new, sync
from virus_envs.roll_write.sheet import load_sheet


@pytest.mark.parametrize("spec", ["heuristic", "heuristic?contaminate_below=3&low_gain=1.5",
                                  "heuristic?save_wildcard=2", "heuristic?deny=1", "heuristic:cautious",
                                  "heuristic:spoiler"])
def test_specs_build_and_play_legal_games(spec):
    g = virus_envs.game("roll_write_v0", num_players=3)
    line = [agents.make(spec, g), agents.make("random", g), agents.make(spec, g)]
    st, actions = play_game(g, line, seed=4, record=True)
    assert st.is_terminal() and not st.is_truncated() and actions


@pytest.mark.parametrize("n", [2, 3])
def test_heuristic_plays_under_the_other_wildcard_reading(n):
    """wildcard_then_contaminate=False: a changed die must go on a trial or laboratory card; the
    heuristic values a wildcard by those placements only and finishes its games."""
    g = virus_envs.game("roll_write_v0", num_players=n, wildcard_then_contaminate=False)
    line = [agents.make("heuristic", g) for _ in range(n)]
    for seed in range(3):
        st, actions = play_game(g, line, seed=seed, record=True)
        assert st.is_terminal() and not st.is_truncated()
        names = [g.action_to_string(a) for a in actions]
        assert not any(a.startswith("wildcard") and b.endswith("contaminated samples") for a, b in zip(names, names[1:]))


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


# -- each parameter changes the decision it is meant to change -------------------------------------
def _choice(spec, s):
    """The action the agent `spec` picks in state s."""
    h = agents.make(spec, s.game, seed=0)
    return s.action_to_string(h.act(decision_for(s)))


def test_deny_refuses_to_complete_a_rivals_lone_die():
    g, s = new(2)
    dice(s, 0, [3, 3, 3, 3, 3, 3])
    s.lab[0], s.lab_own[0] = 2, 1              # seat 1's 2 alone on B2: 2 + 3 = 5 (a wildcard box for both)
    s.prio_taken = True
    sync(s)
    assert _choice("heuristic", s) == "place 3 on B2 right"
    assert _choice("heuristic?deny=1", s) != "place 3 on B2 right"


def test_contaminate_below_puts_a_low_die_on_the_contaminated_samples_card():
    g, s = new(2)
    dice(s, 0, [1, 1, 1, 1, 1, 1])
    assert _choice("heuristic", s) != "place 1 on contaminated samples"
    assert _choice("heuristic?contaminate_below=2&low_gain=2", s) == "place 1 on contaminated samples"


def test_save_wildcard_keeps_the_wildcard():
    g, s = new(2)
    cross(s, 0, "yellow", [v for v in load_sheet().values[3] if v != 5])
    dice(s, 0, [1, 1, 1, 1, 1, 1])
    assert _choice("heuristic", s) == "wildcard 1->5"          # completes yellow: the cure
    assert not _choice("heuristic?save_wildcard=5", s).startswith("wildcard")


def test_wildcard_targets_are_scored_once_per_new_value():
    """Hot path: a die changed to y is worth the same whatever it showed, so the heuristic scores
    each (y, target) once, not once per wildcard action x->y (30 actions with six different dice)."""
    g, s = new(2)
    dice(s, 0, [1, 2, 3, 4, 5, 6])
    h = agents.make("heuristic", g, seed=0)
    calls = []
    inner = h.place_gain
    h.place_gain = lambda *a, **k: calls.append(a[-2:]) or inner(*a, **k)
    d = decision_for(s)
    n_wild = sum(1 for a in d.legal_actions if g.act_kind[a] == 1)
    n_place = sum(1 for a in d.legal_actions if g.act_kind[a] == 0)
    assert n_wild == 30
    h.act(d)
    assert len(calls) <= n_place + 6 * g.T
