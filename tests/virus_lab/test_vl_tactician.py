"""The tactician team (`heuristic:tactician` = `heuristic?uses=all`, agents/virus_lab_uses.py): the rules the
plain heuristic leaves unused, each in a hand-built position where it is the right play, and whole games."""
from __future__ import annotations

import pytest

from vl_helpers import at, check_invariants, creatures, decide, empty_state, four, give_tiles, play_checked, put
from virus_envs import agents as registry
from virus_envs.agents.base import decision_for
from virus_envs.agents.virus_lab_heuristic import VirusLabHeuristic
from virus_envs.agents.virus_lab_plan import Table
from virus_envs.agents.virus_lab_uses import USES, parse_uses
from virus_envs.experiments.arena import play_game
from virus_envs.virus_lab.actions import A, IT_BREACH, TABLE
from virus_envs.virus_lab.game import PH_ACT, PH_BUY, VirusLabGame


def tactician(g):
    return VirusLabHeuristic(g, variant="tactician")


def test_spec_and_its_items():
    g = VirusLabGame(num_players=1)
    assert registry.make("heuristic:tactician", g)._use_set == set(USES)
    assert registry.make("heuristic?uses=all", g)._use_set == set(USES)
    assert registry.make("heuristic?uses=breach+shields", g)._use_set == {"breach", "shields"}
    assert registry.make("heuristic", g)._use_set == set()          # the plain team is unchanged
    assert parse_uses("") == frozenset()
    with pytest.raises(ValueError, match="'uses'.*'teleport'"):
        registry.make("heuristic?uses=breach+teleport", g)


def _buy_position(resources, bullets):
    s = empty_state(1, difficulty=1)
    s.res[0] = resources
    s.bullet_pool += s.bullets[0] - bullets
    s.bullets[0] = bullets
    decide(s, PH_BUY, 0, queue=[])
    return s


def test_buys_a_breach_with_bullets_in_hand():
    """Price list: "Breach: 9 resources". With 9 resources, no Breach and bullets enough for the fights, the
    tactician buys the Breach; the plain team buys bullets; with few bullets the tactician buys bullets first."""
    s = _buy_position(9, 8)
    d = decision_for(s)
    assert d.action_mask[A.BUY + IT_BREACH]
    assert tactician(s.g).act(d) == A.BUY + IT_BREACH
    assert VirusLabHeuristic(s.g).act(d) != A.BUY + IT_BREACH
    s = _buy_position(9, 2)
    assert tactician(s.g).act(decision_for(s)) != A.BUY + IT_BREACH


def _card_without(g, side):
    """(card, rotation) of a plain room whose only wall is on `side` (doorways on the three other sides)."""
    for c in range(144):
        if g.comp.room_lab[c] >= 0 or g.comp.room_special[c] or g.comp.room_bonus[c]:
            continue
        for r in range(4):
            if g.rot_doors[c][r] == 15 & ~(1 << side):
                return c, r
    raise LookupError


def test_breaches_a_wall_between_its_room_and_the_exit_control_room():
    """ "OPEN A BREACH. Spend 1 Action cube ... It can be used to connect existing rooms". The Hero stands in a
    room beside the Exit Control Room, wall against its doorway, with a Breach in stock and nothing else to do:
    the tactician opens the Breach on that wall (and then the room is reachable); the plain team does not."""
    for agent, breaches in ((tactician, True), (VirusLabHeuristic, False)):
        s = empty_state(1, difficulty=1)
        g = s.g
        ex = s.exit_cells[0]
        r, c = divmod(ex, g.geo.cols)
        card, rot = _card_without(g, 3)             # its West side (towards the Exit Control Room) a wall
        room = put(s, r, c + 1, card, rot)
        at(s, 0, room)
        s.disp[0] = []                              # no card to explore with: the Breach is the only way
        give_tiles(s, 0, breaches=1)
        d = decision_for(s)
        assert s.ph == PH_ACT
        a = agent(g).act(d)
        assert (a == A.BREACH + 3) == breaches, TABLE.name(a)
        if breaches:
            s.apply_action(a)
            assert Table(g, s.view(0)).step(room, 3) == ex
            check_invariants(s)


def test_explores_with_a_breach_to_join_the_exit_control_room():
    """ "It is possible to break this rule ONLY by simultaneously placing a Breach on a wall which is adjacent to a
    doorway." Beside the Exit Control Room only a straight corridor is in hand, and every way to lay it next to
    both rooms breaks the match once: the tactician lays it with a Breach and the new room joins the Exit
    Control Room; the plain team, holding the same Breach, explores elsewhere without it."""
    for agent, breaches in ((tactician, True), (VirusLabHeuristic, False)):
        s = empty_state(1, difficulty=1)
        g = s.g
        ex = s.exit_cells[0]
        r, c = divmod(ex, g.geo.cols)
        room = put(s, r - 1, c + 1, four(g))        # diagonal to the Exit Control Room
        at(s, 0, room)
        corridor = next(x for x in range(144) if g.comp.room_doors[x] == 0b0101 and g.comp.room_lab[x] < 0
                        and not g.comp.room_special[x] and not g.comp.room_bonus[x])
        s.room_deck.remove(corridor) if corridor in s.room_deck else None
        s.disp[0] = [(corridor, True)]
        give_tiles(s, 0, breaches=1)
        d = decision_for(s)
        a = agent(g).act(d)
        s.apply_action(a)
        check_invariants(s)
        if breaches:
            assert A.EXPLORE <= a < A.SEARCH, TABLE.name(a)
            assert s.t_breach[0] == 0 and sum(s.breach) == 1, "the corridor went down with the Breach"
            assert ex in Table(g, s.view(0)).paths(s.pos[0])[0], "and joins the Exit Control Room"
        else:
            assert s.t_breach[0] == 1 and sum(s.breach) == 0, TABLE.name(a)


def test_attacks_together_when_only_the_pair_can_kill():
    """ "If they all still have to roll, players can attack the same target together ... Successes are added
    together, then a 1 point penalty is subtracted". Two Heroes against a Zombie that neither is expected to kill
    alone, both together are: the tactician attacks together, the plain team alone."""
    s = empty_state(2, difficulty=1)
    g = s.g
    room = put(s, 3, 5, four(g))
    at(s, 0, room)
    at(s, 1, room)
    creatures(s, room, zombie=1)
    for p in (0, 1):
        s.disp[p] = []                              # no Advantages
        s.bullet_pool += s.bullets[p] - 8
        s.bullets[p] = 8
        s.reserve[p] += s.stock[p] - 3
        s.stock[p] = 3
    s._mask = None
    d = decision_for(s)
    ag = tactician(g)
    here = {x["cell"]: x for x in d.view["rooms"]}[room]
    alone, both, kill = ag._expect_of(d.view, d.view["heroes"][0]), ag._together_expect(d.view, 0), ag._kill_cost(d.view, here)
    assert alone < kill <= both, (alone, kill, both)
    assert d.action_mask[A.TOGETHER]
    assert ag.act(d) == A.TOGETHER
    assert VirusLabHeuristic(g).act(d) != A.TOGETHER


def test_walks_through_a_lasers_room_with_a_shield():
    """ "For each Shield token spent from the player's stock, a player may negate 1 Damage point" (the
    `shields="damage_points"` reading: Lasers too). With a Shield in stock the tactician's way may cross a Lasers
    room; without one (or the plain team) it is avoided."""
    from virus_envs.virus_lab.components import TK_SHIELD, TR_LASERS
    s = empty_state(1, difficulty=1)
    g = s.g
    found = [x for x in range(144) if g.comp.room_trap[x] == TR_LASERS and g.comp.room_doors[x] == 15]
    assert found, "the built-in Room deck has a 4-doorway Lasers card (data/rooms.yaml): the scenario needs one"
    lasers = found[0]
    a, b = put(s, 3, 4, four(g)), put(s, 3, 5, lasers, trap=True)
    at(s, 0, a)
    t = Table(g, s.view(0))
    assert b not in t.paths(a)[0] and b in t.paths(a, shielded=True)[0]
    ag = tactician(g)
    assert not ag._shielded(s.view(0), 0)
    s.tok[0][TK_SHIELD] += 1
    s.tok_pool[TK_SHIELD] -= 1
    assert ag._shielded(s.view(0), 0) and not VirusLabHeuristic(g)._shielded(s.view(0), 0)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_complete_legal_games_reproducible_by_seed(n):
    """1-4 Heroes, two deals each: every action the tactician takes is in the mask, the game ends untruncated,
    and the same deal replays action for action."""
    g = VirusLabGame(num_players=n, difficulty=1)
    for seed in (11, 12):
        st, acts = play_checked(g, tactician, seed)
        assert st.is_terminal() and not st.is_truncated()
        again = play_game(g, [tactician(g) for _ in range(n)], seed=seed, record=True)[1]
        assert again == acts


def test_adrenaline_for_the_last_dash_with_the_antidote():
    """ "Use an Adrenaline token": +7 Action cubes. Turn 8, the exit open, the Hero carrying the Antidote four
    rooms from the Starting Room with 2 cubes in stock: the tactician uses its Adrenaline token (4 moves and the
    exit need 5 cubes); the plain team does not; with the cubes for the way in stock, the tactician does not either."""
    from virus_envs.virus_lab.components import TK_ADREN
    for agent, stock, uses in ((tactician, 2, True), (VirusLabHeuristic, 2, False), (tactician, 6, False)):
        s = empty_state(1, difficulty=1)
        g = s.g
        r0, c0 = divmod(g.geo.start_cell, g.geo.cols)
        rooms = [put(s, r0 + k, c0, four(g, k=k)) for k in range(1, 5)]
        at(s, 0, rooms[-1])
        s.disp[0] = []
        s.antidote_holder, s.exit_open, s.turn = 0, True, 8
        s.reserve[0] += s.stock[0] - stock
        s.stock[0] = stock
        s.tok[0][TK_ADREN] += 1
        s.tok_pool[TK_ADREN] -= 1
        s._mask = None
        d = decision_for(s)
        assert d.action_mask[A.ADREN]
        assert (agent(g).act(d) == A.ADREN) == uses, (agent, stock)
