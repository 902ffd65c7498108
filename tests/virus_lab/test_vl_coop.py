"""The co-operative items of the heuristic (`heuristic?coop=...`, the variant `heuristic:coop`; agents/virus_lab_coop.py):
each in a hand-built position quoting the rule it answers, against the plain team; and whole games."""
from __future__ import annotations

import pytest

from vl_helpers import RED, at, check_invariants, empty_state, find_card, four, path_to, play_checked, put
from virus_envs import agents as registry
from virus_envs.agents.base import decision_for
from virus_envs.agents.virus_lab_coop import COOP, parse_coop
from virus_envs.agents.virus_lab_heuristic import VirusLabHeuristic
from virus_envs.agents.virus_lab_plan import Table
from virus_envs.experiments.arena import play_game
from virus_envs.virus_lab.actions import A, TABLE
from virus_envs.virus_lab.game import PH_ACT, VirusLabGame


def coop(g, items="all", **kw):
    return VirusLabHeuristic(g, coop=items, **kw)


def test_spec_and_its_items():
    g = VirusLabGame(num_players=2)
    assert registry.make("heuristic:coop", g)._coop_set == {"rush", "wait", "split"}
    assert registry.make("heuristic?coop=all", g)._coop_set == set(COOP)
    assert registry.make("heuristic?coop=colour+reach", g)._coop_set == {"colour", "reach"}
    assert registry.make("heuristic", g)._coop_set == set()           # the plain team is unchanged
    assert parse_coop("") == frozenset()
    with pytest.raises(ValueError, match="'coop'.*'teleport'"):
        registry.make("heuristic?coop=rush+teleport", g)


def test_wait_keeps_the_cube_when_the_partner_cannot_activate():
    """ "Exit Control Rooms ... must be activated simultaneously by Heroes"; "2-3 living Heroes: both Exit Control
    Room must be activated by 1 Hero each"; "A Hero must spend 1 Action cube to activate". Hero 0 stands in his
    Exit Control Room, Hero 1 cannot reach the other one this phase: the plain team activates alone (a cube spent,
    nothing opened); with `wait` the Hero does not. With Hero 1 in the other room (a meeting) both activate."""
    s = empty_state(2, difficulty=1)
    g = s.g
    ex0, ex1 = s.exit_cells
    path_to(s, ex0)
    at(s, 0, ex0)
    d = decision_for(s)
    assert s.ph == PH_ACT and s.cur == 0 and d.action_mask[A.ACTIVATE]
    assert VirusLabHeuristic(g).act(d) == A.ACTIVATE
    assert coop(g, "wait").act(d) != A.ACTIVATE
    at(s, 1, ex1)
    d = decision_for(s)
    assert coop(g, "wait").act(d) == A.ACTIVATE, "a meeting: both rooms held this phase"


def _antidote_position(n_alive=2):
    """Turn 3, the Antidote placed at the end of a corridor three rooms east of Hero 0, who has already moved
    once this turn (his cube lies in his room); Hero 1 in the Starting Room."""
    s = empty_state(2, difficulty=1)
    g = s.g
    row = [put(s, 3, c, four(g, RED, k)) for k, c in enumerate(range(2, 6))]
    at(s, 0, row[0])
    s.cubes[row[0] * 2 + 0] = 1
    s.antidote_cell = row[-1]
    s.turn = 3
    if n_alive == 1:
        s.alive[1] = False
        s.pos[1] = -1
    s._mask = None
    return s, row


def test_rush_ignores_the_stealth_limit_once_the_antidote_is_on_the_map():
    """Creatures are placed after the Real Time phase in each empty room holding the Hero's cubes, so the plain
    team makes one move a turn before turn 8. Once the Antidote is on the map the team still has to meet at both
    Exit Control Rooms ("activate them simultaneously") and carry it out: with `rush` the fetcher walks on towards
    it; the plain team stops. With one living Hero (the 1-Hero rules) `rush` changes nothing."""
    s, row = _antidote_position()
    g = s.g
    d = decision_for(s)
    assert VirusLabHeuristic(g).act(d) in (A.PASS, A.SEARCH)
    a = coop(g, "rush").act(d)
    assert a == A.MOVE + 1, TABLE.name(a)                     # east, towards the Antidote
    s, row = _antidote_position(n_alive=1)
    d = decision_for(s)
    assert coop(g, "rush").act(d) == VirusLabHeuristic(g).act(d)


def test_split_gives_the_fetcher_the_exit_control_room_nearer_the_antidote():
    """ "2-3 living Heroes: both Exit Control Room must be activated by 1 Hero each". The plain team splits the
    rooms by seat (seat 0 the first); with `split` the Hero who fetches the Antidote takes the room nearer to it
    and the other Hero the other room."""
    s = empty_state(2, difficulty=1)
    g = s.g
    ex0, ex1 = s.exit_cells
    r, c = g.geo.rc(ex1)
    near = put(s, r - 1, c, four(g))
    s.antidote_cell = near
    at(s, 0, put(s, r - 2, c, four(g, k=1)))                # Hero 0 next to the Antidote: its fetcher
    at(s, 1, g.geo.start_cell)
    v = s.view(0)
    plain, split = VirusLabHeuristic(g), coop(g, "split")
    assert plain._fetcher(v) == 0
    assert (plain._exit_room(v, 0, 2), plain._exit_room(v, 1, 2)) == (ex0, ex1)
    assert (split._exit_room(v, 0, 2), split._exit_room(v, 1, 2)) == (ex1, ex0)


def test_reach_sends_the_heroes_to_the_exit_control_room_not_reached():
    """ "Players must go to those rooms and activate them simultaneously": a room the map does not reach cannot
    be activated. The map reaches the first Exit Control Room only: with `reach` both Heroes head for the second;
    with neither reached (or both) each keeps his own."""
    s = empty_state(2, difficulty=1)
    g = s.g
    ex0, ex1 = s.exit_cells
    ag = coop(g, "reach")
    assert ag._unreached_exit(s.view(0), 2) is None                   # neither reached
    path_to(s, ex0)
    v = s.view(0)
    assert ex0 in Table(g, v).paths(g.geo.start_cell, avoid=False)[0]
    assert ag._unreached_exit(v, 2) == ex1
    assert ag._exit_room(v, 0, 2) == ag._exit_room(v, 1, 2) == ex1
    assert VirusLabHeuristic(g)._exit_room(v, 0, 2) == ex0


def test_colour_keeps_a_research_lab_of_one_colour():
    """ "In a 2 to 4 Hero game, if a Research Lab is formed by cards that are all of the same color, players may draw
    2 Clue cards instead of 1." A red lab card's symbol is on a grid point: with `colour` another red lab card may
    join it, a lab card of another colour may not, unless it completes the lab from turn `colour_turn` on; the plain
    team takes any colour."""
    s = empty_state(2, difficulty=1)
    g = s.g
    comp = g.comp
    red = find_card(g, colour=RED, lab=True)
    other = next(c for c in range(comp.num_rooms) if comp.room_lab[c] >= 0 and comp.room_colour[c] not in (RED, -1))
    red2 = find_card(g, colour=RED, lab=True, exclude=(red,))
    cell = put(s, 3, 5, red)
    v = s.view(0)
    ag = coop(g, "colour")
    vx = ag._lab_vertex(red, 0, cell)
    assert ag._point_colours(v, vx) == {RED}
    assert ag._colour_fits(v, red2, vx, completes=False)
    assert not ag._colour_fits(v, other, vx, completes=False)
    assert not ag._colour_fits(v, other, vx, completes=True)           # turn 1 < colour_turn 7
    s.turn = 7
    assert ag._colour_fits(s.view(0), other, vx, completes=True)
    assert VirusLabHeuristic(g)._colour_fits(v, other, vx, completes=False)


def test_one_hero_plays_exactly_as_the_plain_team():
    """Every item needs 2+ living Heroes (the 1-Hero rules: 2 lab cards, one Exit Control Room): 1-Hero games of
    `coop=all` are the plain team's, action for action."""
    g = VirusLabGame(num_players=1, difficulty=1)
    for seed in (21, 22, 23):
        plain = play_game(g, [VirusLabHeuristic(g)], seed=seed, record=True)[1]
        assert play_game(g, [coop(g)], seed=seed, record=True)[1] == plain


@pytest.mark.parametrize("n", [2, 3, 4])
def test_complete_legal_games_reproducible_by_seed(n):
    """2-4 Heroes, two deals each, every item on: every action is in the mask, the game ends untruncated, and the
    same deal replays action for action."""
    g = VirusLabGame(num_players=n, difficulty=1)
    for seed in (11, 12):
        st, acts = play_checked(g, coop, seed)
        assert st.is_terminal() and not st.is_truncated()
        check_invariants(st)
        assert play_game(g, [coop(g) for _ in range(n)], seed=seed, record=True)[1] == acts
