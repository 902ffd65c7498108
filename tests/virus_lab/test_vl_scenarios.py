"""Scenarios (config `scenario`): scenario tests quoting the rulebook's "Scenarios" section.

Positions are built by hand on `empty_state` (the Starting Room at row 0, column 5 of the 9 x 11 table; the Exit
Control Rooms moved by `_exits`). Directions of a count as a player at the Starting Room's edge sees them:
straight ahead = towards higher rows, left = higher columns, right = lower columns (positioning.py).
`slow option i` chooses direction i (0 straight ahead, 1 left, 2 right).
"""
from __future__ import annotations

import pytest

from virus_envs.virus_lab import creatures as CR
from virus_envs.virus_lab.actions import A
from virus_envs.virus_lab.components import TK_BOOK, TK_EXPL
from virus_envs.virus_lab.flow import (PH_ACT, PH_NONE, PH_SCENARIO, Q_DEEP, Q_EVENT, Q_EXTRA, Q_RT, SCEN_CARD)
from virus_envs.virus_lab.game import VirusLabGame
from virus_envs.virus_lab.scenarios import scenario_goal_met
from vl_helpers import EXIT, at, cell, corridor, creatures, empty_state, four, put

STRAIGHT, LEFT, RIGHT = (A.OPTION + d for d in range(3))


def _exits(s, a, b):
    """Move the two Exit Control Rooms to table spaces a and b (row, column)."""
    for c in s.exit_cells:
        s.card[c] = -1
        s.doors[c] = 0
    s.exit_cells = []
    for r, c in (a, b):
        put(s, r, c, EXIT)
        s.exit_cells.append(cell(s, r, c))


def _stack_events(s, *numbers_per_count):
    """Put on top of the Event deck, in drawing order, cards with the bottom-right numbers given (one tuple of 3
    per count)."""
    comp = s.g.comp
    s.event_deck.extend(s.sc_cards)
    s.sc_cards = []
    want = [x for count in numbers_per_count for x in count]
    top = []
    for x in want:
        e = next(e for e in s.event_deck if comp.event_number[e] == x and e not in top)
        top.append(e)
    s.event_deck = [e for e in s.event_deck if e not in top] + list(reversed(top))
    s.event_known = []


def _positioning(s, *numbers_per_count):
    _stack_events(s, *numbers_per_count)
    s._start_positioning()
    s._mask = None


def _captive(n=2):
    s = empty_state(n, scenario="captive")     # the Captive's count is pending from the start
    _exits(s, (2, 3), (4, 8))
    return s


# -- the Room Positioning Method ------------------------------------------------------------------------------
def test_worked_example_four_then_three():
    """ "Player draws 3 Event cards and the highest number is a 4. The player must count 4 spaces away from the
    Exit Control Room ... he chooses to move straight ahead ... He draws 3 more cards and the highest number is a
    3. This time the player chooses to count 3 spaces to the right ... and places the Scenario room."
    Exits at (2, 3) (2 + 2 = 4 spaces from the Starting Room at (0, 5)) and (4, 8) (4 + 3 = 7): the count starts
    at (4, 8), 4 straight ahead -> (8, 8), 3 to the right -> (8, 5)."""
    s = _captive()
    _positioning(s, (1, 4, 2), (3, 1, 2))
    assert s.ph == PH_SCENARIO and s.cur == s.lead
    assert s.view(1)["scenario"]["positioning"]["spaces"] == 4, "the 3 cards are shown to every player"
    s.apply_action(STRAIGHT)
    assert s.sc_move[1] == cell(s, 8, 8) and s.sc_move[3] == 3
    s.apply_action(RIGHT)
    assert s.sc_cell == cell(s, 8, 5) and s.card[s.sc_cell] == SCEN_CARD


def test_the_count_stops_at_the_end_of_the_table():
    """ "If you reach the end of the table, stop immediately": 6 straight ahead from (4, 8) stops on row 8 (the
    table has 9 rows), then 3 to the left stops on column 10 (11 columns)."""
    s = _captive()
    _positioning(s, (6, 1, 2), (3, 3, 1))
    s.apply_action(STRAIGHT)
    assert s.sc_move[1] == cell(s, 8, 8)
    s.apply_action(LEFT)
    assert s.sc_cell == cell(s, 8, 10)


def test_the_previous_movement_may_not_be_inverted():
    """ "You may not invert the previous movement": after counting to the left, counting to the right is refused;
    straight ahead and left again are open. Every direction is open to the first count."""
    s = _captive()
    _positioning(s, (2, 1, 2), (3, 1, 3))
    m = s.legal_action_mask()
    assert m[STRAIGHT] and m[LEFT] and m[RIGHT]
    s.apply_action(LEFT)
    m = s.legal_action_mask()
    assert m[STRAIGHT] and m[LEFT] and not m[RIGHT]


def test_the_event_cards_go_back_into_the_event_deck():
    """Six Event cards drawn (3, then "3 other random Event cards"), shown, then back in the shuffled deck
    (assumption: the rulebook does not say)."""
    s = _captive()
    n0 = len(s.event_deck) + len(s.sc_cards)
    _positioning(s, (2, 1, 2), (3, 1, 3))
    assert len(s.sc_cards) == 3 and len(s.event_deck) == n0 - 3
    s.apply_action(STRAIGHT)
    assert len(s.sc_cards) == 6 and len(set(s.sc_cards)) == 6, "3 other cards"
    s.apply_action(STRAIGHT)
    assert s.sc_cards == [] and sorted(s.event_deck) == list(range(25))


# -- The Captive -------------------------------------------------------------------------------------------
def test_the_captive_starts_in_the_room_as_if_back_from_the_dead():
    """ "Place the Hero of the youngest player in this room. This Hero begins the game with penalties: he starts
    the game as if he had just come back from the dead" ("Take just 5 bullet cubes and 5 Action cubes in his
    stock. Flip 6 room cards face down") "as well as with a random face-down deep wound." Seat 1 of 2 (the last
    seat: assumption); the other Hero keeps the normal start (8 cubes, 8 bullets)."""
    s = VirusLabGame(num_players=2, scenario="captive", auto_display_choices=True).new_initial_state(seed=3)
    assert s.ph == PH_SCENARIO and s.captive == 1
    s.apply_action(STRAIGHT)
    s.apply_action(STRAIGHT)
    assert s.pos[1] == s.sc_cell >= 0 and s.pos[0] == s.g.geo.start_cell
    assert (s.stock[1], s.bullets[1]) == (5, 5) and (s.stock[0], s.bullets[0]) == (8, 8)
    assert s.stock[1] + s.reserve[1] == 16, "the other Action cubes wait in the reserve"
    assert sum(1 for _, up in s.disp[1] if not up) == 6
    assert len(s.wounds[1]) == 1 and s.wounds[1][0][1] and s.wounds[1][0][2], "one face-down deep wound"
    assert s.phase() == "real time phase"


def test_the_captive_chooses_his_six_flips():
    """With `auto_display_choices=False` (the default) the 6 face-down cards are the Captive player's choice,
    card by card, as after a death."""
    s = VirusLabGame(num_players=2, scenario="captive").new_initial_state(seed=3)
    s.apply_action(STRAIGHT)
    s.apply_action(STRAIGHT)
    for _ in range(6):
        assert s.cur == 1 and s.phase().startswith("death")
        s.apply_action(A.FLIP + min(k for k in range(24) if s.legal_action_mask()[A.FLIP + k]))
    assert sum(1 for _, up in s.disp[1] if not up) == 6 and s.phase() == "real time phase"


def test_the_captive_must_exit():
    """ "Scenario Goal: The Captive must exit the map and players must achieve the normal game victory
    conditions." Seat 0 exits with the Antidote: no victory while the Captive (seat 1) is inside."""
    s = _captive()
    s.sc_move, s.sc_cards = [], []
    s.antidote_out, s.exited[0] = 0, True
    s._finish()
    assert s.terminal and not s.won
    s.terminal, s.exited[1] = False, True
    s._finish()
    assert s.won


# -- Reboot ------------------------------------------------------------------------------------------------
def _reboot(n=1):
    s = empty_state(n, scenario="reboot")
    _exits(s, (2, 3), (4, 8))
    return s


def test_the_computer_room_is_placed_when_the_entrance_door_opens():
    """ "When players open the entrance door, use the "Room Positioning Method" above to place the Scenario room.
    This room is the Computer Room." 1 Hero: activating one Exit Control Room opens the exit; the Lead player
    counts (4 straight ahead, 3 to the right: (8, 5)) and the Real Time phase goes on."""
    s = _reboot()
    at(s, 0, cell(s, 2, 3))
    _stack_events(s, (4, 1, 2), (3, 2, 2))
    s.apply_action(A.ACTIVATE)
    assert s.exit_open and s.ph == PH_SCENARIO and s.cur == s.lead
    s.apply_action(STRAIGHT)
    s.apply_action(RIGHT)
    assert s.sc_cell == cell(s, 8, 5) and s.ph == PH_ACT and s.cur == 0


def _computer_room(s):
    c = put(s, 3, 5, SCEN_CARD)
    s.sc_cell = c
    return c


def _give(s, p, t, k=1):
    s.tok[p][t] += k
    s.tok_pool[t] -= k
    s._mask = None


def test_deactivate_with_one_action_cube_one_book_and_one_explosive():
    """ "To deactivate the Computer Room, 1 or more players must reach the Room and simultaneously pay 1 Action
    cube, 1 Book and 1 Explosive token." The cube lies in the room, the tokens go back to the reserve."""
    s = _reboot()
    c = _computer_room(s)
    at(s, 0, c)
    _give(s, 0, TK_BOOK)
    assert not s.legal_action_mask()[A.ACTIVATE], "no Explosive token"
    _give(s, 0, TK_EXPL)
    pool = list(s.tok_pool)
    assert s.legal_action_mask()[A.ACTIVATE]
    s.apply_action(A.ACTIVATE)
    assert s.sc_off and s.cubes[c * s.n + 0] == 1 and s.stock[0] == 7
    assert s.tok[0][TK_BOOK] == s.tok[0][TK_EXPL] == 0
    assert s.tok_pool[TK_BOOK] == pool[TK_BOOK] + 1 and s.tok_pool[TK_EXPL] == pool[TK_EXPL] + 1
    assert not s.legal_action_mask()[A.ACTIVATE], "deactivated once"


def test_two_players_pay_together():
    """ "1 or more players ... simultaneously pay": seat 0 holds the Book, seat 1 the Explosive token."""
    s = empty_state(2, scenario="reboot")
    c = _computer_room(s)
    at(s, 0, c)
    at(s, 1, c)
    _give(s, 0, TK_BOOK)
    _give(s, 1, TK_EXPL)
    s.apply_action(A.ACTIVATE)
    assert s.sc_off and s.tok[0][TK_BOOK] == 0 and s.tok[1][TK_EXPL] == 0


def test_reboot_victory_needs_the_computer_room_deactivated():
    """ "Scenario Goal: Deactivate the Computer Room and achieve the normal game victory conditions." """
    s = _reboot()
    s.antidote_out, s.exited[0] = 0, True
    s._finish()
    assert not s.won
    s.terminal, s.sc_off = False, True
    s._finish()
    assert s.won


# -- Save the Child ----------------------------------------------------------------------------------------
def _child_game(n=2, **cfg):
    s = empty_state(n, scenario="save_the_child", **cfg)
    _exits(s, (4, 5), (4, 9))
    return s


def _trap_event(s, trap=True):
    comp = s.g.comp
    return next(e for e in range(25) if comp.event_trap[e] == trap and comp.event_number[e] <= 5)


def _event_applied(s, e):
    """The Event e applied; the steps after it (the trap checks done) run up to the Real Time phase."""
    s.event = e
    s.event_pile.append(e)
    s.event_deck.remove(e)
    s.queue = [[Q_EXTRA], [Q_RT]]
    s.ph = PH_NONE
    s._advance()


def test_the_child_room_comes_with_the_second_trap_symbol():
    """ "The second time a Trap symbol appears on the selected Event card, after applied the Event, the Lead
    player must place the Scenario Room with the Child tile placed on it. The Scenario room must be placed halfway
    between the Starting Room and the nearest Exit Control Room and must be placed in an isolated area (without any
    adjacent rooms)." Starting Room (0, 5), nearest Exit (4, 5): halfway (2, 5), isolated."""
    s = _child_game()
    _event_applied(s, _trap_event(s, trap=False))
    _event_applied(s, _trap_event(s))
    assert s.sc_cell == -1, "the first Trap symbol"
    comp = s.g.comp
    second = next(e for e in s.event_deck if comp.event_trap[e] and comp.event_number[e] <= 5)
    _event_applied(s, second)
    assert s.sc_cell == cell(s, 2, 5) and s.child == [cell(s, 2, 5), -1, 1]


def test_the_child_room_is_isolated():
    """A room at (2, 4) makes (2, 5) not isolated; (1, 5) touches the Starting Room and (3, 5) the Exit Control
    Room, so the isolated space nearest halfway is (2, 6)."""
    s = _child_game()
    put(s, 2, 4, four(s.g))
    s.sc_traps = 1
    _event_applied(s, _trap_event(s))
    assert s.sc_cell == cell(s, 2, 6)


def _loose_child(s, c):
    s.sc_cell = -1
    s.child = [c, -1, 1]
    s._mask = None


def _child_moves(s):
    """The Event phase's first step: the Child moves before the Event card is drawn."""
    s.queue = [[Q_EVENT]]
    s.ph = PH_NONE
    deck = len(s.event_deck)
    s._advance()
    return deck


def test_the_child_flees_up_to_three_spaces():
    """ "If so, the Lead Player moves the Child up to 3 spaces away from the Creature(s). The Child must be moved
    until he cannot see and/or hear any Creatures or until he has moved 3 spaces." A corridor along row 6; a Dog
    at column 3 sees the Child at column 4: he runs 3 spaces east (still seen down the corridor)."""
    s = _child_game()
    rooms = corridor(s, 6, range(1, 10))
    creatures(s, rooms[2], dog=1)
    _loose_child(s, rooms[3])
    _child_moves(s)
    assert s.child[0] == rooms[6] and s.child[2] == 1


def test_the_child_stops_once_the_creatures_are_out_of_sight_and_hearing():
    """ "The Child must be moved until he cannot see and/or hear any Creatures or until he has moved 3 spaces." A
    corridor along row 6, columns 6-10; a Dog at column 6 sees the Child at column 9. Space 1: east to column 10
    (an existing room before unexplored spaces, 4 spaces from the Dog); space 2: north, exploring (5, 10), where
    the Dog is 5 connected rooms away (outside the Alerted Area of 4) and out of sight: he stops there."""
    s = _child_game()
    rooms = corridor(s, 6, range(6, 11))
    creatures(s, rooms[0], dog=1)
    _loose_child(s, rooms[3])
    _child_moves(s)
    assert s.child[0] == cell(s, 5, 10) and 0 <= s.card[cell(s, 5, 10)] < 144


def test_the_lead_player_moves_the_child_with_auto_child_off():
    """ "the Lead Player moves the Child up to 3 spaces away from the Creature(s)" (`auto_child=False`: each space
    is the Lead player's choice). The corridor of the flight test, the Child at column 4, the Dog at column 3:
    the first space may go east (column 5) or to the unexplored spaces north and south (all 2 from the Dog), not
    west; he chooses east, then the Child is still seen: a second choice; then the Event card is drawn."""
    s = _child_game(auto_child=False)
    rooms = corridor(s, 6, range(1, 10))
    creatures(s, rooms[2], dog=1)
    _loose_child(s, rooms[3])
    s.lead = 1
    _child_moves(s)
    assert s.ph == PH_SCENARIO and s.cur == 1
    m = s.legal_action_mask()
    assert [d for d in range(4) if m[A.OPTION + d]] == [0, 1, 2], "N, E, S: not back west towards the Dog"
    assert s.view(0)["scenario"]["child_move"] == {"flight": True, "spaces_left": 3, "sides": ["E", "N", "S"]}
    s.apply_action(A.OPTION + 1)
    assert s.child[0] == rooms[4] and s.ph == PH_SCENARIO
    s.apply_action(A.OPTION + 1)
    s.apply_action(A.OPTION + 1)
    assert s.child[0] == rooms[6] and s.ch_move == [] and s.ph != PH_SCENARIO
    assert len(s.event_pile) == 1 or s.event >= 0, "the Event phase goes on"


def test_a_calm_child_moves_one_space_towards_the_nearest_hero():
    """ "If not, the Lead Player moves the Child 1 space." (The Lead player's choice by the documented default:
    towards the nearest Hero.) A Hero at column 1, the Child at column 5: he moves to column 4."""
    s = _child_game()
    rooms = corridor(s, 6, range(1, 8))
    at(s, 0, rooms[0])
    at(s, 1, rooms[0])
    _loose_child(s, rooms[4])
    deck = _child_moves(s)
    assert s.child[0] == rooms[3]
    assert len(s.event_deck) == deck - 1 or s.event >= 0, "then the Event card is drawn"


def test_the_child_explores_from_the_room_deck():
    """ "When the Child explores, draw the top room from the Room deck and place it. If the Room is not compatible
    with the previous rooms, discard it and draw a new card until you find a compatible one. Reshuffle the
    discarded cards back into the Room deck." The Child alone in the isolated Scenario room (four doorways)
    explores one space; the card placed matches its neighbours; no card is lost."""
    s = _child_game()
    c = put(s, 6, 5, SCEN_CARD)
    s.sc_cell = c
    s.child = [c, -1, 1]
    at(s, 0, cell(s, 0, 5))
    before = len(s.room_deck)
    _child_moves(s)
    y = s.child[0]
    assert y == cell(s, 5, 5), "towards the Heroes in the Starting Room"
    assert 0 <= s.card[y] < 144 and len(s.room_deck) == before - 1, "the misfits went back into the deck"
    assert (s.doors[y] >> 2) & 1, "a doorway towards the Scenario room's doorway"


def test_creatures_see_and_sniff_the_child():
    """ "When moving Creatures the Child is considered a Hero, but they can only sniff and/or see, but not hear
    him." A Dog two rooms west of the Child in a corridor moves east towards him and stops in his room."""
    s = _child_game()
    rooms = corridor(s, 6, range(1, 8))
    creatures(s, rooms[1], zombie=1)
    _loose_child(s, rooms[3])
    assert CR.target_side(s, rooms[1]) == 1, "east, towards the Child"
    s.child[2] = 3                                  # no Child in the lab: nothing to see, sniff or hear
    assert CR.target_side(s, rooms[1]) == -1


@pytest.mark.parametrize("row, col", [(6, 2), (0, 0)], ids=["mid-table", "cell 0"])
def test_the_child_dies_when_creatures_enter_his_room_without_a_hero(row, col):
    """ "If one or more Creatures enter the room with the Child without any Heroes present, the Child dies."
    (Checked at the end of the Slow phase.) Wherever his room is: the table's first space, cell 0 (row 0, column 0),
    too (seed-7 mutation sample: `check_death` 6, `c >= 1`, spared a Child on cell 0)."""
    s = _child_game()
    room = corridor(s, row, range(col, col + 3))[0]
    assert room == s.g.geo.cell(row, col)
    _loose_child(s, room)
    creatures(s, room, zombie=1)
    s.queue = [[Q_DEEP]]
    s.ph = PH_NONE
    s._advance()
    assert s.child[2] == 2


def test_the_child_follows_the_hero_who_meets_him_then_another_then_dies():
    """ "If a Hero meets the Child, the Child will follow him automatically ... If that Hero dies, the Child will
    automatically follow another Hero in the same room. If there are no more Heroes in the room, the Child dies." """
    s = _child_game(3)
    rooms = corridor(s, 6, range(1, 4))
    _loose_child(s, rooms[1])
    at(s, 0, rooms[0])
    at(s, 1, rooms[0])
    s.cur, s.ph = 0, PH_ACT
    s._mask = None
    s.apply_action(A.MOVE + 1)                     # seat 0 moves east into the Child's room
    assert s.child[1] == 0
    at(s, 1, rooms[1])
    s._die(0)
    assert s.child[1] == 1 and s.child[2] == 1, "he follows the other Hero of the room"
    s._die(1)
    assert s.child[2] == 2


def test_the_child_is_safe_when_his_hero_exits():
    """Assumption: "Keep the Child safe" = the Child leaves the map with the Hero he follows. Seat 0 exits with the
    Antidote; the Child follows seat 1, still inside: no victory; seat 1 exits too: victory."""
    s = _child_game()
    s.child = [-1, 1, 1]
    s.antidote_out, s.exited[0] = 0, True
    s._finish()
    assert not s.won
    s.terminal, s.exited[1] = False, True
    s._finish()
    assert s.won and s.view(0)["scenario"]["child"]["state"] == "safe"


def test_the_spy_ignores_the_scenario_requirement():
    """ "The Spy ignores this Scenario's requirement" (the hook Spy Mode calls with the Spy's seat)."""
    s = _reboot()
    assert not scenario_goal_met(s) and scenario_goal_met(s, 0, spy=True)


# -- configuration, sizes, the loader ----------------------------------------------------------------------------
def test_bad_scenario_names_the_key():
    with pytest.raises(ValueError, match="scenario"):
        VirusLabGame(num_players=2, scenario="rescue")


@pytest.mark.parametrize("name", ["reboot", "save_the_child", "captive"])
def test_sizes(name):
    """The actions are the base table's (`slow option i` for the counts, `activate room` deactivates); the
    observation gains the `scenario` block: 3 x 99 table spaces + 29."""
    base = VirusLabGame(num_players=2)
    g = VirusLabGame(num_players=2, scenario=name)
    assert g.num_actions == base.num_actions == 1136
    assert g.observation_shape == (8293 + 3 * 99 + 29,)


def test_the_loader_refuses_a_scenario_room_out_of_place():
    s = _reboot()
    _computer_room(s)
    d = s.to_dict()
    d["sc_cell"] = -1
    with pytest.raises(ValueError, match="sc_cell"):
        s.g.state_from_dict(d)
    d = s.to_dict()
    d["child"] = [3, -1, 1]
    with pytest.raises(ValueError, match="child"):
        s.g.state_from_dict(d)


# -- the heuristic team's Scenario goals (agents/virus_lab_scenario.py) --------------------------------------------
def _heuristic_choice(s):
    from virus_envs.agents.base import decision_for
    from virus_envs.agents.virus_lab_heuristic import VirusLabHeuristic
    return VirusLabHeuristic(s.g).act(decision_for(s))


def test_heuristic_counts_towards_the_starting_room():
    """From (4, 8), 4 spaces: straight ahead lands 11 spaces from the Starting Room (0, 5), left (4, 10) 9, right
    (4, 4) 5: the heuristic counts to the right."""
    s = _captive()
    _positioning(s, (1, 4, 2), (3, 1, 2))
    assert _heuristic_choice(s) == RIGHT


def test_heuristic_deactivates_the_computer_room():
    """A Hero holding a Book and an Explosive token in the Computer Room deactivates it."""
    s = _reboot()
    c = _computer_room(s)
    at(s, 0, c)
    _give(s, 0, TK_BOOK)
    _give(s, 0, TK_EXPL)
    assert _heuristic_choice(s) == A.ACTIVATE


def test_heuristic_fetches_the_child():
    """The Hero nearest the Child walks to him: a corridor, the Hero at column 1, the Child at column 4."""
    s = _child_game(1)
    rooms = corridor(s, 6, range(1, 6))
    at(s, 0, rooms[0])
    _loose_child(s, rooms[3])
    s.stock[0], s.reserve[0] = 16, 0
    assert _heuristic_choice(s) == A.MOVE + 1


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_every_seat_encodes_the_scenario_block(n):
    """The block holds the Captive and the Child's Hero by relative seat for 1-4 Heroes, and the sides open to a
    Child's move (the last entries)."""
    s = _child_game(n, auto_child=False)
    rooms = corridor(s, 6, range(1, 10))
    creatures(s, rooms[2], dog=1)
    _loose_child(s, rooms[3])
    _child_moves(s)
    for p in range(n):
        o = s.observation(p)
        assert o.shape == s.g.observation_shape and o[-4:].tolist() == [1, 1, 1, 0], "sides N, E, S open"
    g = VirusLabGame(num_players=n, scenario="captive")
    st = g.new_initial_state(seed=0)
    for p in range(n):
        assert st.observation(p).shape == g.observation_shape


def test_the_loader_refuses_a_child_following_a_hero_off_the_map():
    s = _child_game()
    s.child = [-1, 1, 1]
    s.pos[1] = -1
    s.alive[1] = False
    with pytest.raises(ValueError, match="child"):
        s.g.state_from_dict(s.to_dict())
