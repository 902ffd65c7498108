"""Virus: "A little test" (the rulebook's tutorial) as scripted scenarios, 2 Heroes, difficulty 2.

The tutorial's diagram of rooms A-G is not reproduced in the rulebook text, so the map is ours:

    row 0:           .    .    S    .    .         S = Starting Room (column 5)
    row 1:      B    .    r    r    r              r = plain red rooms, B = 2 Dogs (column 3... see below)
    row 2:           .    A    .    X              A, X = the two Exit Control Rooms
    row 3:      L1   L2                            L1, L2: Research Lab cards around grid point (4, 4)
    row 4:      .    ?    h                        h = the room the Hero explores from; ? = the third lab card
    row 5:      1                                  1 = the only single-doorway room (the Antidote's room)

Each step is played with the actions of the engine, as the tutorial asks (the objective of each step),
and the last one ends the game with a victory.
"""
from __future__ import annotations

from vl_helpers import EXIT, empty_state, put
from virus_envs.virus_lab.actions import A
from virus_envs.virus_lab.game import PH_ACT, PH_CLUE, PH_WOUND

DOG = 1


def four(g, colour, lab=False, k=0):
    comp = g.comp
    got = [c for c in range(144) if comp.room_doors[c] == 15 and comp.room_colour[c] == colour
           and (comp.room_lab[c] >= 0) == lab and comp.room_special[c] == 0 and comp.room_bonus[c] == 0]
    return got[k % len(got)]


def play(s, *names):
    """Apply actions by name for whoever must decide (Wound cards are kept)."""
    for name in names:
        while s.ph == PH_WOUND:
            s.apply_action(A.KEEP)
        s.apply_action(s.g.string_to_action(name))


def tutorial_map():
    s = empty_state(2, p_positive=0.999999)
    g = s.g
    geo = g.geo
    # our Exit Control Rooms A (2,5) and X (2,7)
    for c in s.exit_cells:
        s.card[c] = -1
        s.doors[c] = 0
    s.exit_cells = [geo.cell(2, 5), geo.cell(2, 7)]
    for c in s.exit_cells:
        s._put(c, EXIT, 0, False)
    for col in (5, 6, 7):
        put(s, 1, col, four(g, 0, k=col))
    s.stock = [16, 16]
    s.reserve = [0, 0]
    s._mask = None
    return s


def test_step_1_reach_and_activate_the_exit_control_rooms():
    """Objective: reach the Exit Control Rooms and activate them (2 living Heroes: one Hero in each)."""
    s = tutorial_map()
    assert s.ph == PH_ACT and s.cur == 0
    play(s, "move S",            # seat 0 -> (1,5)
         "move S",               # seat 1 -> (1,5)
         "move S",               # seat 0 -> A
         "move E",               # seat 1 -> (1,6)
         "activate room",        # seat 0 activates A
         "move E",               # seat 1 -> (1,7)
         "pass",                 # seat 0 is done
         "move S")               # seat 1 -> X
    assert not s.exit_open
    play(s, "activate room")
    assert s.exit_open, "both Exit Control Rooms activated in the same Real Time phase"


def test_step_2_combat_with_the_creatures_of_a_room():
    """Objective: perform one Combat with the Creatures there (2 Dogs): 2 x 2 = 4 Successes."""
    s = tutorial_map()
    g = s.g
    b = put(s, 1, 4, four(g, 1))
    s.cre[b * 9 + DOG] = 2
    s.pool[DOG] -= 2
    s._mask = None
    play(s, "move S", "pass", "move W")      # seat 0 enters B (seat 1 waits)
    assert s.in_combat(0)
    play(s, "attack", "roll: add action cube", "roll: add bullet", "roll: add bullet", "roll")
    assert s.rollres[:4] == [2, 0, 2, 0]
    play(s, "accept roll")
    assert s.succ == 4
    play(s, "kill dog", "dodge dog")
    assert s.cre[b * 9 + DOG] == 1 and s.wounds[0] == [], "the dodged Dog does not counter-attack"
    play(s, "move E")                        # flee: the dodged Dog does not attack, the penalty does
    while s.ph == PH_WOUND:
        s.apply_action(A.KEEP)
    assert len(s.wounds[0]) == 1 and s.wounds[0][0][1] is True


def test_steps_3_and_4_research_lab_antidote_and_escape():
    """Step 3: complete a Research Lab, draw a Clue, place the Antidote. Step 4: take it and exit the map."""
    s = tutorial_map()
    g = s.g
    comp = g.comp
    geo = g.geo
    # an exit already opened (step 1)
    s.exit_open = True
    # the path from the Starting Room down to the lab: column 5 rows 1..4
    for r in (3, 4):
        put(s, r, 5, four(g, 0, k=r))
    put(s, 2, 4, four(g, 1))
    # two lab symbols on grid point (4, 4): cells (3,3) at SE and (3,4) at SW (4-doorway lab cards)
    la, lb, lc = (four(g, col, lab=True) for col in (0, 1, 2))
    c1 = put(s, 3, 3, la, rot=(1 - comp.room_lab[la]) % 4)
    c2 = put(s, 3, 4, lb, rot=(2 - comp.room_lab[lb]) % 4)
    s._check_lab(0, c1)
    s._check_lab(0, c2)
    assert not s.clue_pending, "2 Heroes need 3 lab cards"
    # the only single-doorway room, reachable from (4,4) through (5,4)
    one = [c for c in range(144) if comp.room_doors[c] == 1 and comp.room_lab[c] < 0][0]
    put(s, 5, 4, four(g, 3))
    ant = put(s, 5, 3, one, rot=1)            # its doorway faces E
    # the Hero's display: the third lab card; the Clue deck's top: "A room with 1 doorway"
    s.disp[0] = [[lc, True]] + [[c, True] for c in s.room_deck[:3]]
    s.room_deck = s.room_deck[3:]
    s.clue_deck.remove(3)
    s.clue_deck.append(3)
    s._mask = None
    play(s, "move S", "pass", "move S", "move S", "move S")        # seat 0 to (4,5); seat 1 passes
    assert s.pos[0] == geo.cell(4, 5)
    r3 = (3 - comp.room_lab[lc]) % 4                                  # its symbol at NW = grid point (4, 4)
    play(s, f"explore W slot 0 rot {r3}")
    assert s.ph == PH_CLUE and s.clue_pending[2] == 3, "the placer of the last lab card draws the Clue"
    play(s, "keep")
    assert s.clues == [3] and s.antidote_cell == ant, "the Clue singles out one room: the Antidote is placed"
    # Step 4: take the Antidote and exit
    play(s, "move S", "move W", "pick up antidote")
    assert s.antidote_holder == 0
    play(s, "move E", "move N", "move E", "move N", "move N", "move N", "move N")
    assert s.pos[0] == geo.start_cell
    play(s, "exit the lab")
    assert s.antidote_out == 0 and not s.is_terminal(), "the other Hero is still inside"
    # the second Hero (still in the Starting Room) walks out next turn: all Heroes out, the game ends
    while not s.is_terminal():
        m = s.legal_action_mask()
        if s.ph == PH_ACT:
            s.apply_action(A.EXIT if m[A.EXIT] else A.PASS)
            continue
        done = [a for a in (A.KEEP, A.GAIN_DONE, A.BUY_DONE, A.NO_FOUR) if m[a]]
        s.apply_action(done[0] if done else s.legal_actions()[0])
    assert s.exited == [True, True] and s.exit_order == [0, 1]
    assert s.won and list(s.returns()) == [1.0, 1.0] and s.ranking() == [0, 1]
