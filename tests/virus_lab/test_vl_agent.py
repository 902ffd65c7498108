"""The Virus team heuristic (baseline): legal play for 1-4 Heroes, reads the view only, opens the exit far
more often than random play, wins single-Hero games at difficulty 1 and 2 where random never does, and its
Clue planning agrees with the engine's rules."""
from __future__ import annotations

import numpy as np
import pytest

from vl_helpers import at, empty_state, four, put
from virus_envs.agents.base import RandomAgent, decision_for
from virus_envs.agents.virus_lab_heuristic import VirusLabHeuristic
from virus_envs.virus_lab.actions import A
from virus_envs.experiments.arena import play_game
from virus_envs.virus_lab.game import PH_ACT, VirusLabGame


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


@pytest.mark.parametrize("difficulty,at_least", [(1, 10), (2, 4)])
def test_heuristic_team_wins_where_random_does_not(difficulty, at_least):
    """Seeded, so deterministic: 1 Hero, 100 deals. The measured rates (docs/rules/virus_lab.md, "Figures") are
    about 23 % at difficulty 1 and 12 % at difficulty 2; random teams win none of these deals."""
    g = VirusLabGame(num_players=1, difficulty=difficulty)
    won = [seed for seed in range(1000, 1100) if play_game(g, [VirusLabHeuristic(g)], seed=seed)[0].won]
    assert len(won) >= at_least
    assert not any(play_game(g, [RandomAgent(g)], seed=seed)[0].won for seed in range(1000, 1100))
    st, _ = play_game(g, [VirusLabHeuristic(g)], seed=won[0])
    assert st.antidote_out == 0 and st.exited == [True] and list(st.returns()) == [1.0]


def test_clue_planning_reads_the_engine_rules_on_the_visible_table():
    """The heuristic's Clue planning (keep or redraw a Clue, build the room it describes) evaluates the engine's
    own clue rules on the table rebuilt from its view: the rebuilt table gives the engine's candidate rooms for
    every Clue, and every planned exploration really singles out the room it promises once placed."""
    from virus_envs.agents.virus_lab_plan import Table, engineer
    g = VirusLabGame(num_players=1, difficulty=1)
    st = g.new_initial_state(seed=5)
    v = st.view(0)
    t = Table(g, v)
    # the shadow table is the engine's table
    assert t.card == list(st.card) and t.doors == list(st.doors)
    from virus_envs.virus_lab.research import candidate_rooms
    for clue in range(25):
        st.clues = [clue]
        assert t.candidates([clue]) == candidate_rooms(st)
    # every plan the heuristic finds really singles out one room once explored
    dist, _ = t.paths(v["heroes"][0]["pos"])
    checked = 0
    for clue in range(25):
        if t.candidates([clue]):
            continue
        for _, room, d, k, r, target in engineer(g, t, [clue], v["heroes"][0], dist)[:3]:
            from virus_envs.agents.virus_lab_plan import display_cards
            c = dict(display_cards(g, v["heroes"][0]))[k]
            y = g.geo.NB[room][d]
            t2 = t.placed(y, c, g.rot_doors[c][r])
            assert t2.candidates([clue]) == [target]
            checked += 1
    assert checked >= 5


def test_heuristic_parameters_and_variants():
    g = VirusLabGame(num_players=2)
    assert VirusLabHeuristic(g, variant="brave").params["roll_cubes"] == 7
    with pytest.raises(ValueError, match="nonsense"):
        VirusLabHeuristic(g, nonsense=1)
    assert np.isfinite(VirusLabHeuristic(g).params["hearts"])


def test_heuristic_keeps_no_memory():
    """Every decision is read from the view alone: a fresh agent chooses what the agent that played the game so
    far chooses (so it can label states it never reached, as DAgger asks)."""
    from virus_envs.agents.base import decision_for
    for n, difficulty in ((1, 2), (2, 1)):
        g = VirusLabGame(num_players=n, difficulty=difficulty)
        st = g.new_initial_state(seed=3)
        played = [VirusLabHeuristic(g) for _ in range(n)]
        steps = 0
        while not st.is_terminal() and steps < 600:
            d = decision_for(st)
            a = played[d.seat].act(d)
            assert VirusLabHeuristic(g).act(d) == a, (steps, d.phase)
            st.apply_action(a)
            steps += 1
        assert steps > 50


# ------------------------------------------------------------------------------------------ team play (issue 13)
def _two_rooms_from_exits(s):
    """Two plain 4-doorway rooms in a line from each Exit Control Room (inside the table, on free spaces), Hero h
    in the far one of exit h: two moves and an activation away from his room."""
    geo = s.g.geo
    for h, ex in enumerate(s.exit_cells):
        for d in range(4):
            y = geo.NB[ex][d]
            z = geo.NB[y][d] if y >= 0 else -1
            if min(y, z) >= 0 and s.card[y] < 0 and s.card[z] < 0 and \
                    all(s.card[w] < 0 or w in (ex, y) for x in (y, z) for w in geo.NB[x] if w >= 0):
                for x in (y, z):
                    put(s, *divmod(x, geo.cols), four(s.g, k=h))
                at(s, h, z)
                break
        else:
            raise AssertionError("no free line beside the exit")


def test_team_meets_at_the_exit_control_rooms_in_one_phase():
    """ "Exit Control Rooms ... must be activated simultaneously by Heroes to open the exit"; "2-3 living Heroes:
    both Exit Control Room must be activated by 1 Hero each". Two Heroes, each two rooms away from an Exit Control
    Room with cubes to walk there and activate: the team heuristic sends each to his room at once (the stealth
    limit does not hold it back), the first to activate waits for the other (passes), and the exit opens within
    this one Real Time phase. Without team play (`team=false`) nobody goes there this phase."""
    for team, opens in ((True, True), (False, False)):
        s = empty_state(2, difficulty=1, auto_display_choices=True)
        _two_rooms_from_exits(s)
        s.turn = 3
        agents = [VirusLabHeuristic(s.g, team=team) for _ in range(2)]
        seen = []
        while s.ph == PH_ACT and not s.exit_open:
            d = decision_for(s)
            a = agents[d.seat].act(d)
            seen.append((d.seat, a))
            s.apply_action(a)
        assert s.exit_open == opens, (team, seen)
        if opens:
            assert sorted(p for p, a in seen if a == A.ACTIVATE) == [0, 1], "each Hero activated his room once"


def test_team_meeting_needs_every_hero_able_to_reach_his_room():
    """The meeting is read from the public table: with one Hero out of cubes (he cannot reach his room and pay
    the activation) there is no meeting, and no Hero walks there for nothing."""
    s = empty_state(2, difficulty=1, auto_display_choices=True)
    _two_rooms_from_exits(s)
    ag = VirusLabHeuristic(s.g)
    assert ag._meeting(s.view(0)) == {0: s.exit_cells[0], 1: s.exit_cells[1]}
    s.reserve[1] += s.stock[1]
    s.stock[1] = 2                                       # two cubes: the moves, not the activation
    assert ag._meeting(s.view(0)) is None
