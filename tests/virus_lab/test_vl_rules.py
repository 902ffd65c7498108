"""Virus (virus_lab_v0): one scenario per rule and the rulebook's worked examples in numbers.

Maps are drawn with rows going into the table (row 0 holds the Starting Room S at column 5).
"""
from __future__ import annotations

import numpy as np
import pytest

from vl_helpers import (BLUE, DOG, EXIT, GREEN, RED, START, ZOMBIE, at, cell, corridor, creatures, decide,
                        empty_state, event_card, find_card, four, keep_wounds, patched_data, put)
from virus_envs.virus_lab import creatures as CR
from virus_envs.virus_lab.actions import A, PRICES, cash_id, discard_id, explore_id, trap_id
from virus_envs.virus_lab.board import DOOR_CLOSED
from virus_envs.virus_lab.components import (SP_AMMO, SP_FIRST_AID, SP_NET, TK_ADREN, TK_BOOK, TK_FOUR, TK_HEART,
                                             TK_SHIELD, TR_GAS, TR_LASERS, TR_PROL2)
from virus_envs.virus_lab.flow import PH_FOUR, Q_REFILL
from virus_envs.virus_lab.game import (PH_ACT, PH_BUY, PH_CLUE, PH_EVENT, PH_GAIN, PH_NONE, PH_REFILL, PH_TRAP,
                                       PH_WOUND, Q_DEEP, Q_EVENT, Q_NEXT, Q_RESPAWN, Q_RT, VirusLabGame)
from virus_envs.virus_lab.research import candidate_rooms


# --------------------------------------------------------------------------------- setup
@pytest.mark.parametrize("n, deck", [(4, 144 - 3 - 32), (3, 144 - 20 - 3 - 24), (2, 144 - 52 - 3 - 16),
                                     (1, 144 - 80 - 3 - 8)])
def test_setup_removals_and_displays(n, deck):
    """3-player: 20 random; 2-player: 3 lab + 10 normal per colour; 1-player: 4 + 16 per colour; 8 cards each."""
    s = VirusLabGame(num_players=n).new_initial_state(seed=3)
    assert len(s.room_deck) == deck
    for p in range(n):
        assert len(s.disp[p]) == 8 and all(up for _, up in s.disp[p])
        assert all(s.g.comp.room_lab[c] < 0 for c, _ in s.disp[p])


def test_setup_map():
    """Starting Room on the table edge; 3 rooms connected by its doorways (no single doorway, no lab);
    two Exit Control Rooms where the exit card says."""
    g = VirusLabGame(num_players=2)
    for seed in range(20):
        s = g.new_initial_state(seed=seed)
        st = g.geo.start_cell
        assert g.geo.rc(st)[0] == 0 and s.card[st] == START
        firsts = [g.geo.NB[st][d] for d in (1, 2, 3)]
        for d, y in zip((1, 2, 3), firsts):
            c = s.card[y]
            assert 0 <= c < 144 and g.comp.room_shape[c] != 0 and g.comp.room_lab[c] < 0
            assert (s.doors[y] >> ((d + 2) % 4)) & 1, "connected via its doorway"
        assert [s.card[x] for x in s.exit_cells] == [EXIT, EXIT]
        placed = [x for x in range(g.geo.ncells) if s.card[x] >= 0]
        assert len(placed) == 6
        assert all(s.pos[p] == st for p in range(2))


@pytest.mark.parametrize("level, hp, bosses", [(1, 8, 0), (2, 7, 1), (3, 6, 2)])
def test_difficulty(level, hp, bosses):
    """Hit points 8-7-6 and 0-1-2 Bosses for difficulty 1-2-3."""
    g = VirusLabGame(num_players=1, difficulty=level)
    s = g.new_initial_state(seed=1)
    assert g.hp == hp and len(s.bosses) == bosses


# --------------------------------------------------------------------------------- real time
def test_no_real_time_turn_order_and_pass():
    """Players act in turn, one action at a time, starting with the Lead player; the phase ends when all pass."""
    s = empty_state(3)
    put(s, 1, 5, four(s.g))
    assert s.ph == PH_ACT and s.cur == 0
    s.apply_action(A.MOVE + 2)
    assert s.cur == 1
    s.apply_action(A.PASS)
    assert s.cur == 2
    s.apply_action(A.PASS)
    assert s.cur == 0
    s.apply_action(A.MOVE + 0)
    assert s.cur == 0, "the others have passed"
    s.apply_action(A.PASS)
    assert not s.in_rt and s.turn == 1 and s.ph == PH_GAIN, "all passed: the phase ended (turn end, resources)"


def test_move_needs_connected_accessible_room():
    s = empty_state(1)
    c = put(s, 1, 5, four(s.g))
    m = s.legal_action_mask()
    assert m[A.MOVE + 2] and not m[A.MOVE + 0], "the Starting Room has no doorway to the table edge"
    s.apply_action(A.MOVE + 2)
    assert s.pos[0] == c and s.stock[0] == 7 and s.cubes[c * 1 + 0] == 1
    # a closed Door or a Barrier blocks the Hero
    e = s.g.geo.EDGE[c][0]
    s.door[e] = DOOR_CLOSED
    s._mask = None
    assert not s.legal_action_mask()[A.MOVE + 0]
    s.door[e] = 0
    s.barrier[e] = 1
    s._mask = None
    assert not s.legal_action_mask()[A.MOVE + 0]


def test_explore_doorways_must_match():
    """ "New room cards must always be placed so that they match the cards they are adjacent to." """
    s = empty_state(1)
    g = s.g
    one = find_card(g, doors=1, lab=False)          # a single doorway (N as printed)
    s.disp[0] = [[four(g), True], [one, True]]
    s._mask = None
    m = s.legal_action_mask()
    # east of the Starting Room: the single-doorway card must show its doorway to the W (turned 3 times)
    assert m[explore_id(1, 1, 3)] and not any(m[explore_id(1, 1, r)] for r in (0, 1, 2))
    # a 4-doorway card: one placement (its rotations are identical)
    assert m[explore_id(1, 0, 0)] and not any(m[explore_id(1, 0, r)] for r in (1, 2, 3))
    # a wall facing the space forbids a doorway there: NS straight room south of (0,6), doorway N
    ns = find_card(g, doors=5, lab=False)
    put(s, 1, 6, ns, rot=0)
    s._mask = None
    m = s.legal_action_mask()
    assert not m[explore_id(1, 1, 3)], "(0,6) needs doorways W and S: a single doorway cannot fit"
    s.apply_action(explore_id(1, 0, 0))
    y = cell(s, 0, 6)
    assert s.card[y] == four(g) and s.explored[y] == 0 and s.pos[0] == y and s.cubes[y] == 1
    assert len(s.disp[0]) == 1


def test_search_once_per_room_per_turn():
    s = empty_state(2)
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    at(s, 1, c)
    assert s.legal_action_mask()[A.SEARCH]
    s.apply_action(A.SEARCH)
    assert s.stock[0] == 5 and s.cubes[c * 2 + 0] == 3 and s.searched[c] == 0
    assert s.cur == 1 and not s.legal_action_mask()[A.SEARCH], "once per turn between all players"


def test_special_rooms_three_uses_per_turn():
    s = empty_state(2)
    g = s.g
    ammo = find_card(g, special=SP_AMMO)
    c = put(s, 1, 5, ammo)
    at(s, 0, c)
    at(s, 1, c)
    for _ in range(3):
        assert s.legal_action_mask()[A.ACTIVATE]
        b = s.bullets[s.cur]
        p = s.cur
        s.apply_action(A.ACTIVATE)
        assert s.bullets[p] == b + 3
    assert not s.legal_action_mask()[A.ACTIVATE], "max 3 per turn among all players"


def test_first_aid_and_net():
    s = empty_state(1)
    g = s.g
    fa = put(s, 1, 5, find_card(g, special=SP_FIRST_AID))
    at(s, 0, fa)
    assert not s.legal_action_mask()[A.ACTIVATE], "no deep wound to move"
    s.wounds[0] = [[3, True, True]]
    s._mask = None
    s.apply_action(A.ACTIVATE)
    assert s.wounds[0] == [[3, True, False]]
    net = put(s, 0, 6, find_card(g, special=SP_NET))
    at(s, 0, net)
    top = s.room_deck[-2:][::-1]
    s.apply_action(A.ACTIVATE)
    # "draw 2 room cards": each may be redrawn with an Advantage, like any card just drawn
    assert s.ph == PH_REFILL and s.net[0] == top[:1]
    s.apply_action(A.KEEP)
    s.apply_action(A.KEEP)
    assert s.net[0] == top and len(s.disp[0]) == 8 and s.ph == PH_ACT


def test_adrenaline_and_recover_advantage():
    s = empty_state(1)
    s.tok[0][TK_ADREN] = 1
    s.tok_pool[TK_ADREN] -= 1
    s._mask = None
    s.apply_action(A.ADREN)
    assert s.stock[0] == 15 and s.reserve[0] == 1 and s.adren[0]
    s.disp[0][0][1] = False
    s._mask = None
    s.apply_action(A.RECOVER)        # No Real Time: 3 Action cubes to the reserve, a card face up
    assert s.stock[0] == 12 and s.reserve[0] == 4 and all(up for _, up in s.disp[0])
    s.apply_action(A.PASS)           # end of the countdown: stock discarded, 1 face-up wound
    assert s.wounds[0] and s.wounds[0][0][1] is False


# --------------------------------------------------------------------------------- wounds and death
def test_deep_wound_by_next_cards_back():
    s = empty_state(1)
    comp = s.g.comp
    heart = [w for w in range(25) if comp.wound_heart[w]]
    plain = [w for w in range(25) if not comp.wound_heart[w]]
    s.wound_deck = [plain[0], heart[0], plain[1]]      # top is plain[1]; the next card's back shows a heart
    s._wound(0, True)
    assert s.wounds[0][-1] == [plain[1], True, True]
    s._wound(0, True)
    assert s.wounds[0][-1] == [heart[0], True, False]


def test_turn_end_deep_wound():
    """ "Draw a Wound card and place it face down if at least one of the Hero's existing deep wounds is face down" """
    s = empty_state(2)
    s.wounds[0] = [[s.wound_deck.pop(0), False, True]]
    s.wounds[1] = [[s.wound_deck.pop(0), True, True]]
    s.queue = [[Q_DEEP], [Q_NEXT]]
    s.ph = PH_NONE
    s._advance()
    keep_wounds(s)
    assert len(s.wounds[0]) == 2 and s.wounds[0][1][1] is False
    assert len(s.wounds[1]) == 2 and s.wounds[1][1][1] is True


def test_death_drops_antidote_and_return_with_penalties():
    s = empty_state(2, auto_display_choices=True)
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    s.antidote_holder = 0
    s.tok[0][TK_HEART] = 2
    s.tok_pool[TK_HEART] -= 2
    for _ in range(s.g.hp):
        s._wound(0, True)
    assert not s.alive[0] and s.pos[0] == -1 and s.antidote_cell == c and s.antidote_holder == -1
    s.queue = [[Q_RESPAWN, 0]]
    s.ph = PH_NONE
    s._advance()
    assert s.alive[0] and s.pos[0] == s.pos[1] and s.wounds[0] == []
    assert s.stock[0] == 5 and s.bullets[0] == 5 and s.tok[0] == [0] * 6
    assert len(s.disp[0]) == 8 and sum(1 for _, up in s.disp[0] if not up) == 6


# --------------------------------------------------------------------------------- turn end
def build_resource_example(s):
    """Rulebook: blue group of 2 (1 explored) and green group of 5 (3 explored, 1 of them searched).

        row 2:  B  B                 (B at column 1 explored)
        row 4:  G  G  G  G  G        (columns 1, 2, 3 explored; column 3 also searched)
    """
    g = s.g
    for col in (1, 2):
        put(s, 2, col, four(g, BLUE, col - 1))
    for col in range(1, 6):
        put(s, 4, col, four(g, GREEN, col - 1))
    s.explored[cell(s, 2, 1)] = 0
    for col in (1, 2, 3):
        s.explored[cell(s, 4, col)] = 0
    s.searched[cell(s, 4, 3)] = 0


def test_resources_worked_example_27():
    """ "So 2 x 1 ... 5 x 5 = he gains 25 resources. Total resources gained: 2 + 25 = 27." """
    s = empty_state(1)
    build_resource_example(s)
    s._start_gain(0)
    assert s.res[0] == 27 and s.ph == PH_GAIN


def test_resources_cap_30_and_advantage():
    s = empty_state(1, auto_display_choices=True)
    build_resource_example(s)
    s.searched[cell(s, 4, 1)] = 0          # 5 x 7 = 35 + 2
    s._start_gain(0)
    assert s.gained[0] == 37 and s.res[0] == 30
    s2 = empty_state(1, auto_display_choices=True)
    decide(s2, PH_GAIN, 0)
    s2.apply_action(A.ADV_RES)
    assert s2.res[0] == 6 and sum(1 for _, up in s2.disp[0] if not up) == 1


def test_display_groups():
    """Pair 3, three of a kind 7, four 11; mixed colours give nothing (FAQ: 2 red + 2 green = 2 x 3)."""
    s = empty_state(1)
    g = s.g
    corner = [c for c in range(144) if g.comp.room_shape[c] == 2 and g.comp.room_lab[c] < 0]
    red = [c for c in corner if g.comp.room_colour[c] == RED][:4]
    green = [c for c in corner if g.comp.room_colour[c] == GREEN][:2]
    s.disp[0] = [[c, True] for c in red[:2] + green]
    decide(s, PH_GAIN, 0)
    m = s.legal_action_mask()
    assert m[cash_id(2, RED, 2)] and m[cash_id(2, GREEN, 2)] and not m[cash_id(2, RED, 3)]
    assert m[discard_id(2, 4)]
    s.apply_action(cash_id(2, RED, 2))
    s.apply_action(cash_id(2, GREEN, 2))
    assert s.res[0] == 6 and s.disp[0] == []
    s.disp[0] = [[c, True] for c in red]
    s.res[0] = 0
    s._mask = None
    s.apply_action(cash_id(2, RED, 4))
    assert s.res[0] == 11


def test_a_hero_may_move_into_the_tables_first_space():
    """Moving "to an adjacent room" through connected doorways is offered toward every neighbouring room, the one on
    the table's first space (row 0, column 0; cell 0) too. (Seed-9 mutation sample: `_mask_act` 20, `y < 1`, took
    cell 0 for off the table.)"""
    s = empty_state(1)
    rooms = corridor(s, 0, range(0, 3))
    at(s, 0, rooms[1])
    west = next(d for d in range(4) if s.g.geo.NB[rooms[1]][d] == rooms[0])
    east = next(d for d in range(4) if s.g.geo.NB[rooms[1]][d] == rooms[2])
    s._mask = None
    m = s.legal_action_mask()
    assert rooms[0] == 0 and m[A.MOVE + west] and m[A.MOVE + east]
    s.apply_action(A.MOVE + west)
    assert s.pos[0] == 0


def test_activating_a_room_in_combat_costs_two_cubes():
    """ "If combat is in progress, the player must spend 2 Action cubes to activate the room": a Hero facing a Zombie
    in an Ammo room may activate it with exactly 2 cubes, not with 1; out of combat 1 is enough. (Seed-9 mutation
    sample: `_mask_act` 111, a cost of 3 in combat, survived.)"""
    s = empty_state(1)
    c = put(s, 1, 5, find_card(s.g, special=SP_AMMO))
    at(s, 0, c)
    creatures(s, c, zombie=1)
    assert s.in_combat(0)
    for stock, offered in ((2, True), (1, False)):
        s.reserve[0] += s.stock[0] - stock
        s.stock[0] = stock
        s._mask = None
        assert bool(s.legal_action_mask()[A.ACTIVATE]) is offered, stock
    s.cre[c * 9 + ZOMBIE] = 0
    s._mask = None
    assert not s.in_combat(0) and s.legal_action_mask()[A.ACTIVATE], "out of combat: 1 cube"


def test_nothing_is_bought_from_an_empty_reserve():
    """Resources are spent "to purchase tokens/tiles from game reserve": with the reserve's last bullet cube bought,
    no bullet is offered, however many resources are left; the same for a token kind whose reserve is empty. (Seed-9
    mutation sample: `_can_buy` 8, `bullet_pool >= 0`, offered a bullet from an empty reserve.)"""
    s = empty_state(1)
    decide(s, PH_BUY, 0)
    s.res[0] = 30
    s.bullets[0] += s.bullet_pool - 1
    s.bullet_pool = 1
    assert s.legal_action_mask()[A.BUY + 0]
    s.apply_action(A.BUY + 0)        # the last bullet cube, 2
    assert s.bullet_pool == 0 and s.res[0] == 28
    m = s.legal_action_mask()
    assert not m[A.BUY + 0] and m[A.BUY + 1], "no bullet left; a heart still"
    s.tok[0][TK_HEART] += s.tok_pool[TK_HEART]
    s.tok_pool[TK_HEART] = 0
    s._mask = None
    assert not s.legal_action_mask()[A.BUY + 1]


def test_price_list_and_barrier_bars():
    s = empty_state(1)
    decide(s, PH_BUY, 0)
    s.res[0] = 30
    m = s.legal_action_mask()
    assert not m[A.BUY + 5], "a bar needs a Barrier in the stock"
    s.apply_action(A.BUY + 10)       # empty Barrier, 3
    s.apply_action(A.BUY + 5)        # + 1 bar, 3
    s.apply_action(A.BUY + 5)        # + 2 bars, 3
    assert s.t_bar[0] == [1, 1, 1, 0] and s.res[0] == 21
    s.apply_action(A.BUY + 1)        # heart 8
    s.apply_action(A.BUY + 0)        # bullet 2
    assert s.res[0] == 11 and s.tok[0][TK_HEART] == 1
    assert PRICES == (2, 8, 5, 6, 9, 3, 7, 7, 9, 7, 3)
    s.apply_action(A.BUY_DONE)
    assert s.res[0] == 0, "Any resources not spent are lost."


def test_recover_refill_and_new_lead():
    s = empty_state(3)
    c = put(s, 1, 5, four(s.g))
    s.stock[0], s.reserve[0] = 0, 10
    s.cubes[c * 3 + 0] = 6
    s.tok[0][TK_HEART] = 1
    s.tok[0][TK_BOOK] = 2
    s.tok_pool[TK_HEART] -= 1
    s.tok_pool[TK_BOOK] -= 2
    s.disp[0] = s.disp[0][:3]
    s.queue = []
    s._recover()
    assert s.stock[0] == 4 and s.reserve[0] == 12, "Stamina 3 + 1 Heart, then cubes back from the rooms"
    s.queue.append([Q_RT])
    s.ph = PH_NONE
    s._advance()
    while s.ph == PH_REFILL:
        s.apply_action(A.KEEP)
    assert len(s.disp[0]) == 10, "Knowledge 8 + 2 Books"
    s.queue = [[Q_NEXT]]
    s.ph = PH_NONE
    s._advance()
    assert s.lead == 2 and s.turn == 2, "the player to the right of the Lead player"


# --------------------------------------------------------------------------------- event phase
def test_event_keep_or_redraw():
    s = empty_state(1, auto_display_choices=True)
    e1, e2 = s.event_deck[-1], s.event_deck[-2]
    s.queue = [[Q_EVENT]]
    s.ph = PH_NONE
    s._advance()
    assert s.ph == PH_EVENT and s.event == e1
    s.apply_action(A.REDRAW)
    assert s.event == e2 and s.event_deck[0] == e1
    s.apply_action(A.KEEP)
    assert s.event_pile == [e2]


@pytest.mark.parametrize("left, offered", [(1, True), (0, False)])
def test_an_event_redraw_needs_only_one_card_left_in_the_deck(left, offered):
    """"The player may return to the bottom of the deck the card he just drew and draw a new one of the same type":
    with one Event card left under the one drawn the redraw is offered (it returns the drawn card and draws that
    one); with none there is no new card to draw. (The seed-5 mutation sample's `_compute_mask` 21, a redraw only
    with 2 cards left, survived.)"""
    s = empty_state(1, auto_display_choices=True)
    s.event_pile.extend(s.event_deck[:-(left + 1)])      # set aside: the deck keeps its top left + 1 cards
    s.event_deck = s.event_deck[-(left + 1):]
    top = s.event_deck[-1]
    s.queue = [[Q_EVENT]]
    s.ph = PH_NONE
    s._advance()
    assert s.ph == PH_EVENT and s.event == top and len(s.event_deck) == left
    assert bool(s.legal_action_mask()[A.REDRAW]) is offered
    if offered:
        other = s.event_deck[-1]
        s.apply_action(A.REDRAW)
        assert s.event == other and s.event_deck == [top]


def test_system_reboot():
    s = empty_state(1)
    s.exit_open = True
    s.door[0] = DOOR_CLOSED
    s.event = event_card(s, effect=1)
    s._apply_event()
    assert not s.exit_open and s.door[0] == 1


def test_system_reboot_exit_rooms_may_not_be_activated():
    """ "System reboot! Exit rooms may not be activated." A Hero standing in an Exit Control Room may activate it
    (1 Action cube) under a quiet Event, not under a System reboot; nor, under any Event, once he has activated it
    this phase, nor once the exit is open. (Seed-7 mutation sample: `_mask_act` 120, `... and not self.exit_open or
    p not in self.act_exit[i]`, offered the activation under a System reboot and after the exit opened.)"""
    s = empty_state(2)
    at(s, 0, s.exit_cells[0])

    def may_activate():
        s._mask = None
        return bool(s.legal_action_mask()[A.ACTIVATE])

    s.event = event_card(s, effect=0)               # quiet
    assert may_activate()
    s.event = event_card(s, effect=1)               # System reboot
    assert not may_activate()
    s.event = event_card(s, effect=0)
    s.act_exit = [[0], []]
    assert not may_activate(), "activated already by this Hero"
    s.act_exit = [[], []]
    s.exit_open = True
    assert not may_activate(), "the exit is open: nothing to activate"


@pytest.mark.parametrize("number, heroes, expected", [(5, 3, 0), (6, 3, 3), (9, 3, 6), (10, 2, 6)])
def test_additional_creatures_from_event_number(number, heroes, expected):
    """ "if the card number is 9 with 3 living Heroes, X will be equal to 6" (1 Leader and 5 Creatures)."""
    s = empty_state(heroes)
    g = s.g
    row = [put(s, 1, col, four(g, RED, col - 3)) for col in (3, 4)] + [put(s, 1, 5, four(g, RED, 2))]
    for c in row[:2]:
        creatures(s, c, zombie=1)
    s.event = event_card(s, number=number)
    before = sum(s.pool)
    from virus_envs.virus_lab.game import Q_EXTRA
    s._step([Q_EXTRA])
    placed = before - sum(s.pool)
    assert placed == expected
    if expected >= 4:
        assert sum(s.pool[4:8]) == 7, "one Leader among them"


def test_trap_check_placement_and_proliferation():
    s = empty_state(1)
    g = s.g
    prol = find_card(g, doors=15, trap=TR_PROL2)
    s.room_deck.remove(prol)
    s.room_deck.append(prol)
    s._trap_check(0)
    assert s.ph == PH_TRAP
    m = s.legal_action_mask()
    assert m[trap_id(0, 1, 0)] and not m[trap_id(0, 0, 0)], "next to the Hero's room, on the table"
    s.queue = [[Q_RT]]
    s.apply_action(trap_id(0, 1, 0))
    y = cell(s, 0, 6)
    assert s.trapside[y] and s.card[y] == prol and CR.creature_space(s, y) == 2


def test_trap_card_redrawn_with_an_advantage():
    """ "GENERAL EFFECTS: The player may return to the bottom of the deck the card he just drew and draw a new one of
    the same type (Event, Wound, or Room card ...)": the Room card a player draws for the trap check too."""
    s = empty_state(1, auto_display_choices=True)
    first, second = s.room_deck[-1], s.room_deck[-2]
    s._trap_check(0)
    assert s.ph == PH_TRAP and s.trap_card == first
    m = s.legal_action_mask()
    assert m[A.REDRAW] and not m[A.KEEP], "a place exists: place it or redraw"
    s.queue = [[Q_RT]]
    s.apply_action(A.REDRAW)
    assert s.trap_card == second and s.room_deck[0] == first and s.room_known == 1
    assert s.view(0)["room_deck_bottom"] == [s.g.comp.room_name[first]], "everybody saw where it went"
    assert sum(1 for _, up in s.disp[0] if not up) == 1, "1 Advantage"


def test_trap_card_with_no_place_discarded_or_redrawn():
    """ "If no suitable space is available, the player discards the card and does not place a trap card this
    turn" - unless he redraws it. Without an Advantage left, nothing to decide: discarded."""
    s = empty_state(1, auto_display_choices=True)
    g = s.g
    st = g.geo.start_cell
    for d in (1, 2, 3):                     # the Hero's room is surrounded (the table edge to the north)
        put(s, *g.geo.rc(g.geo.NB[st][d]), four(g, k=d))
    s._mask = None
    first, second = s.room_deck[-1], s.room_deck[-2]
    s._trap_check(0)
    assert s.ph == PH_TRAP and s.trap_card == first
    m = s.legal_action_mask()
    assert m[A.KEEP] and m[A.REDRAW] and m.sum() == 2, "discard it, or redraw"
    s.queue = [[Q_RT]]
    s.apply_action(A.KEEP)
    assert s.room_discard == [first] and s.trap_card == -1
    for k in range(8):
        s.disp[0][k][1] = False             # 8 face-down cards: no Advantage left
    s._trap_check(0)
    assert s.ph != PH_TRAP and s.room_discard == [first, second], "no Advantage left: discarded without asking"


def test_net_cards_redrawn_with_an_advantage():
    """Net Room: "draw 2 room cards"; each "card he just drew" may go back to the bottom for 1 Advantage."""
    s = empty_state(1, auto_display_choices=True)
    net = put(s, 1, 5, find_card(s.g, special=SP_NET))
    at(s, 0, net)
    a, b, c = s.room_deck[-1], s.room_deck[-2], s.room_deck[-3]
    s.apply_action(A.ACTIVATE)
    assert s.ph == PH_REFILL and s.net[0] == [a]
    s.apply_action(A.REDRAW)
    assert s.net[0] == [b] and s.room_deck[0] == a and s.ph == PH_REFILL
    s.apply_action(A.KEEP)
    assert s.net[0] == [b, c] and s.ph == PH_REFILL, "the second card"
    s.apply_action(A.KEEP)
    assert s.ph == PH_ACT and s.cur == 0 and sum(1 for _, up in s.disp[0] if not up) == 1


def test_net_room_with_exactly_two_room_cards_left():
    """Net Room: "A player may spend 1 Action cube in this room to draw 2 room cards": with the Room deck down to
    its last 2 cards the action is still open, and draws both."""
    s = empty_state(1)
    net = put(s, 1, 5, find_card(s.g, special=SP_NET))
    at(s, 0, net)
    s.disp[0] = [[c, False] for c, _ in s.disp[0]]          # no Advantage: no redraw to decide
    s.room_deck = s.room_deck[-2:]
    a, b = s.room_deck[-1], s.room_deck[-2]
    s._mask = None
    assert s.legal_action_mask()[A.ACTIVATE], "2 room cards left: the Net Room draws them"
    s.apply_action(A.ACTIVATE)
    assert sorted(s.net[0]) == sorted([a, b])


def test_lasers_and_gas():
    s = empty_state(2)
    g = s.g
    las = put(s, 1, 5, find_card(g, doors=15, trap=TR_LASERS), trap=True)
    gas = put(s, 0, 6, find_card(g, doors=15, trap=TR_GAS), trap=True)
    creatures(s, las, dog=1, zombie=1)
    at(s, 0, las)
    at(s, 1, gas)
    s.queue = [[Q_RT]]
    s.ph = PH_NONE
    s._advance()
    keep_wounds(s)
    assert s.ph == PH_ACT, "the Real Time phase starts after the trap wounds"
    assert s.wounds[0][0][1] is False and s.wounds[1][0][1] is True
    assert s.cre[las * 9 + DOG] == 0 and s.cre[las * 9 + ZOMBIE] == 1, "a Laser cannot kill a Zombie"


# --------------------------------------------------------------------------------- labs, clues, exit
def _lab_pair(s, colour_a, colour_b):
    """Two lab cards at (2,4) and (2,5) with their symbols on the shared grid point (3,5)."""
    g = s.g
    comp = g.comp
    la = [c for c in range(144) if comp.room_lab[c] >= 0 and comp.room_colour[c] == colour_a]
    lb = [c for c in range(144) if comp.room_lab[c] >= 0 and comp.room_colour[c] == colour_b and c not in la[:1]]
    a, b = la[0], lb[0]
    ca = put(s, 2, 4, a, rot=(1 - comp.room_lab[a]) % 4)     # symbol at SE
    cb = put(s, 2, 5, b, rot=(2 - comp.room_lab[b]) % 4)     # symbol at SW
    return ca, cb


@pytest.mark.parametrize("n, same, clues", [(1, False, 1), (1, True, 1), (2, True, 0)])
def test_research_lab_two_cards_for_one_hero(n, same, clues):
    s = empty_state(n)
    ca, cb = _lab_pair(s, RED, RED if same else BLUE)
    s._check_lab(0, ca)
    assert not s.clue_pending
    s._check_lab(0, cb)
    if clues:
        assert s.clue_pending[:2] == [0, clues]
    else:
        assert not s.clue_pending, "2 heroes need 3 lab cards"


def test_a_same_colour_lab_with_two_heroes_draws_both_clue_cards():
    """ "In a 2 to 4 Hero game, if a Research Lab is formed by cards that are all of the same color, players may draw
    2 Clue cards instead of 1." Two Heroes need 3 lab cards; three red ones meet at one grid point, and the placer,
    without an Advantage to redraw with, takes the deck's top two: C01 "A room with 4 doorways", then C05 "A room in
    a group of 3 or more adjacent red rooms" (compatible: both stay on the table)."""
    s = empty_state(2)
    comp = s.g.comp
    reds = [c for c in range(144) if comp.room_lab[c] >= 0 and comp.room_colour[c] == RED][:3]
    corners = [((2, 4), 1), ((2, 5), 2), ((3, 5), 3)]       # symbols at SE, SW, NW: the grid point (3,5)
    for ((r, c), corner), card in zip(corners, reds):
        s._check_lab(0, put(s, r, c, card, rot=(corner - comp.room_lab[card]) % 4))
    s.disp[0] = [[c, False] for c, _ in s.disp[0]]          # every display card used: no Advantage
    s.clue_deck = [c for c in s.clue_deck if c not in (0, 4)] + [4, 0]       # C01 on top, C05 under it
    assert not s._draw_clue(), "no redraw to decide without 2 Advantages"
    assert s.clues == [0, 4], "both Clue cards drawn and placed"
    assert len(s.clue_deck) == 23 and not s.clue_pending


def test_clue_incompatibility():
    """ "A room with 4 doorways" is not compatible with "A room with 3 doorways": both are discarded."""
    s = empty_state(1)
    s._place_clue(0)
    s._place_clue(1)
    assert s.clues == [] and s.clue_deck[:2] == [1, 0]


def test_antidote_placed_when_unique_then_exit_wins():
    s = empty_state(1)
    g = s.g
    c = put(s, 1, 5, four(g, RED, 0))
    put(s, 0, 6, find_card(g, doors=7, lab=False))        # 3 doorways
    s.clues = [0]                                         # a room with 4 doorways
    s._check_antidote()
    assert candidate_rooms(s) == [c] and s.antidote_cell == c
    at(s, 0, c)
    s.apply_action(A.PICKUP)
    assert s.antidote_holder == 0
    # one living Hero: one Exit Control Room is enough
    at(s, 0, s.exit_cells[0])
    s.apply_action(A.ACTIVATE)
    assert s.exit_open
    at(s, 0, g.geo.start_cell)
    s.apply_action(A.EXIT)
    assert s.is_terminal() and s.won and list(s.returns()) == [1.0]


def test_no_second_antidote_while_the_first_seat_holds_it():
    """ "If at any time ... the Clue cards points to a unique room on the table, place the Antidote tile": there is one
    Antidote tile. Once the first seat's Hero has picked it up, the Clues still pointing to one room place nothing
    more. (Seed-7 mutation sample: `_check_antidote` 7, `antidote_holder > 0`, placed it again for seat 0.)"""
    s = empty_state(2)
    g = s.g
    c = put(s, 1, 5, four(g, RED, 0))
    put(s, 0, 6, find_card(g, doors=7, lab=False))        # 3 doorways
    s.clues = [0]                                         # a room with 4 doorways: c is the only one
    s._check_antidote()
    at(s, 0, c)
    s.apply_action(A.PICKUP)
    assert s.antidote_holder == 0 and s.antidote_cell == -1
    s._check_antidote()
    assert s.antidote_cell == -1 and s.antidote_holder == 0


def test_the_first_event_card_of_the_file_has_its_effect(tmp_path):
    """Every Event card's effect applies, the first card's (id 0) too: with a card file whose E01 is a blackout
    ("no Search"), drawing E01 takes Search out of the mask. (Seed-7 mutation sample: `_mask_act` 12, `self.event >= 1`,
    read card 0 as no event; the built-in E01 is quiet, so nothing noticed.)"""
    s = empty_state(1, data_dir=patched_data(tmp_path, "events.yaml", "{id: E01, number: 1, trap: false, effect: quiet",
                                           "{id: E01, number: 1, trap: false, effect: blackout"))
    c = put(s, 1, 5, find_card(s.g, special=SP_AMMO))
    at(s, 0, c)
    s._mask = None
    assert s.legal_action_mask()[A.SEARCH], "no event yet: Search is offered"
    s.event = 0
    s._mask = None
    assert not s.legal_action_mask()[A.SEARCH]


def test_exit_control_by_living_heroes():
    s = empty_state(4)
    x0, x1 = s.exit_cells
    s.act_exit = [[0], [1]]
    s._check_exit_open()
    assert not s.exit_open, "4 living Heroes: 1 in one room, 2 others in the other"
    s.act_exit = [[0], [1, 2]]
    s._check_exit_open()
    assert s.exit_open
    s2 = empty_state(3)
    s2.act_exit = [[0], [1]]
    s2._check_exit_open()
    assert s2.exit_open


def test_game_ends_after_turn_nine_and_on_deck_out():
    s = empty_state(1)
    s.turn = 9
    s.queue = [[Q_DEEP]]
    s.ph = PH_NONE
    s._advance()
    assert s.is_terminal() and not s.won and list(s.returns()) == [-1.0]
    s2 = empty_state(1)
    s2.room_deck = []
    s2._draw_room()
    assert s2.is_terminal()


def _slow_phase_with_a_four_leaf(s):
    """Hero 0 holds a Four-leaf token (from the reserve); the Slow phase begins with his choice (PH_FOUR)."""
    from virus_envs.virus_lab.game import Q_FOUR, Q_SLOW
    s.tok[0][TK_FOUR] = 1
    s.tok_pool[TK_FOUR] -= 1
    s.queue = [[Q_FOUR, 0], [Q_SLOW], [Q_RT]]
    s.ph = PH_NONE
    s._advance()


def test_four_leaf_reduces_group_movement():
    s = empty_state(1)
    rooms = corridor(s, 3, range(1, 10))
    at(s, 0, rooms[8])
    creatures(s, rooms[0], zombie=1)
    _slow_phase_with_a_four_leaf(s)
    assert s.ph == PH_FOUR
    s.apply_action(A.FOUR + 0)
    assert s.cre[rooms[1] * 9 + ZOMBIE] == 1, "difficulty 2 minus the Four-leaf: 1 room"



def test_four_leaf_offers_every_creature_group():
    """ "USE A FOUR-LEAF TOKEN. Immediately reduce the movement of any Creature group by 1": with two groups on the
    map, the choice is either group (in cell order) or none, and nothing else; choosing the second slows the second.
    (Seed-7 mutation sample: `_compute_mask` 139, `A.FOUR - i`, offered another action instead of the second group.)"""
    s = empty_state(1)
    rooms = corridor(s, 3, range(1, 10))
    at(s, 0, rooms[8])
    creatures(s, rooms[0], zombie=1)
    creatures(s, rooms[3], zombie=1)
    _slow_phase_with_a_four_leaf(s)
    assert s.ph == PH_FOUR
    m = s.legal_action_mask()
    assert sorted(np.flatnonzero(m)) == sorted([A.FOUR + 0, A.FOUR + 1, A.NO_FOUR])
    s.apply_action(A.FOUR + 1)
    assert s.cre[rooms[5] * 9 + ZOMBIE] == 0 and s.cre[rooms[4] * 9 + ZOMBIE] == 1, "the second group: 1 room"
    assert s.cre[rooms[2] * 9 + ZOMBIE] == 1, "the first group: its full 2 rooms (difficulty 2)"


def test_recover_advantage_with_exactly_three_cubes():
    """ "Players may pay 3 Action cubes at any time during the Real Time phase to recover 1 Advantage": with exactly
    3 cubes in stock and a face-down display card it is offered, with 2 it is not. (Seed-7 mutation sample:
    `_mask_act` 173, `st > 3`, survived: the only test paid it from 15 cubes.)"""
    s = empty_state(1)
    s.disp[0][0][1] = False
    for stock, offered in ((3, True), (2, False)):
        s.reserve[0] += s.stock[0] - stock
        s.stock[0] = stock
        s._mask = None
        assert bool(s.legal_action_mask()[A.RECOVER]) is offered, stock
    s.reserve[0] -= 1
    s.stock[0] = 3
    s._mask = None
    s.apply_action(A.RECOVER)
    assert s.stock[0] == 0 and all(up for _, up in s.disp[0])


def test_four_leaf_may_be_kept():
    """ "USE A FOUR-LEAF TOKEN. Immediately reduce the movement of any Creature group by 1": a token the player may
    spend, not must; declining keeps it, and the Zombie moves its full 2 rooms (difficulty 2)."""
    s = empty_state(1)
    rooms = corridor(s, 3, range(1, 10))
    at(s, 0, rooms[8])
    creatures(s, rooms[0], zombie=1)
    _slow_phase_with_a_four_leaf(s)
    assert s.ph == PH_FOUR and s.legal_action_mask()[A.NO_FOUR]
    s.apply_action(A.NO_FOUR)
    assert s.tok[0][TK_FOUR] == 1
    assert s.cre[rooms[2] * 9 + ZOMBIE] == 1, "difficulty 2: 2 rooms"

def test_major_advantage_effects_and_earlier_end():
    s = empty_state(1, auto_display_choices=True)
    for c in s.disp[0][:4]:
        c[1] = False
    s._mask = None
    s.apply_action(A.MAJOR_CARDS)
    assert sum(1 for _, up in s.disp[0] if not up) == 1 and s.majors[0] == 1
    decide(s, PH_GAIN, 0)
    s.apply_action(A.MAJOR_RES)
    assert s.res[0] == 18 and s.majors[0] == 2
    s.turn = 6
    s._mask = None
    assert s.legal_action_mask()[A.MAJOR_RES], "turn 7 is still to play: a third would end the game after 6"
    s.turn = 7
    s._mask = None
    assert not s.legal_action_mask()[A.MAJOR_RES], "no additional game turn left (FAQ: not in round 9)"
    s.queue = [[Q_NEXT]]
    s.ph = PH_NONE
    s._advance()
    assert s.retired[0] and s.pos[0] == -1 and s.is_terminal(), "2 Major Advantages: the game ends after turn 7"


def test_a_second_major_advantage_needs_no_new_card():
    """"he must draw a Major Advantage card (value 1) and place it under his player board ... Value 2 can be used
    for 2 Major Advantages spent": a player's second Major Advantage turns his card to value 2, so it needs no card
    from the supply; his first (and third) does. The supply's 8 cards (data/supply.yaml) all taken: seat 0, with 1
    Major Advantage (one card, value 1), may still take a second; seat 1, with 2 (one card, value 2), may not take
    a third. (The seed-5 mutation sample's `_major_ok` 12, a new card always needed, survived.)"""
    s = empty_state(4, auto_display_choices=True)
    assert s.g.comp.major_cards == 8
    s.majors = [1, 2, 6, 6]                       # cards held: 1 + 1 + 3 + 3 = 8, the whole supply
    s.turn = 1
    assert s._major_ok(0) and not s._major_ok(1)
    s.disp[0][0][1] = False                       # a face-down card to restore: the Real Time Major Advantage
    s._mask = None
    assert s.current_player() == 0 and s.legal_action_mask()[A.MAJOR_CARDS]
    s.majors = [2, 2, 6, 6]                       # 1 + 1 + 3 + 3 = 8 again, seat 0 now at value 2
    s._mask = None
    assert not s.legal_action_mask()[A.MAJOR_CARDS]


# --------------------------------------------------------------------------------- more rules
@pytest.mark.parametrize("effect", [2, 3, 4, 5])
def test_event_effects(effect):
    """blackout: no Search; lockdown: no special room; fatigue: -1 Action cube; supplies: +2 bullets."""
    s = empty_state(1)
    c = put(s, 1, 5, find_card(s.g, special=SP_AMMO))
    at(s, 0, c)
    st, bu = s.stock[0], s.bullets[0]
    s.event = event_card(s, effect=effect)
    s._apply_event()
    s._mask = None
    m = s.legal_action_mask()
    if effect == 2:
        assert not m[A.SEARCH] and m[A.ACTIVATE]
    elif effect == 3:
        assert m[A.SEARCH] and not m[A.ACTIVATE]
    elif effect == 4:
        assert s.stock[0] == st - 1
    else:
        assert s.bullets[0] == bu + 2


def test_frenzy_and_calm_change_creature_movement():
    s = empty_state(1)
    rooms = corridor(s, 3, range(1, 10))
    at(s, 0, rooms[8])
    creatures(s, rooms[0], zombie=1)
    s.event = event_card(s, effect=6)                 # frenzy: +1
    from virus_envs.virus_lab.game import Q_SLOW
    s._step([Q_SLOW])
    assert s.cre[rooms[3] * 9 + ZOMBIE] == 1


def test_clue_redraw_costs_two_advantages():
    s = empty_state(1, auto_display_choices=True)
    top, nxt = s.clue_deck[-1], s.clue_deck[-2]
    s.clue_pending = [0, 1]
    s.rt_actor = 0
    assert s._draw_clue() and s.ph == PH_CLUE
    s.apply_action(A.REDRAW)
    assert sum(1 for _, up in s.disp[0] if not up) == 2 and s.clue_deck[0] == top
    s.apply_action(A.KEEP)
    assert s.clues == [nxt] and s.ph == PH_ACT


@pytest.mark.parametrize("advantages, asked", [(2, True), (1, False)])
def test_a_clue_redraw_is_offered_from_exactly_two_advantages(advantages, asked):
    """"If a player is unsatisfied with the card, he may use 2 Advantages to return it to the bottom of the deck
    and draw a new Clue card": with exactly 2 Advantages left the player is asked (keep or redraw); with 1 he
    cannot pay, so the Clue card goes on the table at once (the seed-5 mutation sample's `>= 3` survived)."""
    s = empty_state(1)
    d = s.disp[0]
    for k in range(len(d)):                       # the face-up cards of the Rooms display are the Advantages
        d[k][1] = k < advantages
    assert s.num_adv(0) == advantages
    top = s.clue_deck[-1]
    s.clue_pending = [0, 1]
    s.rt_actor = 0
    assert s._draw_clue() is asked
    if asked:
        assert s.ph == PH_CLUE and s.current_player() == 0
        m = s.legal_action_mask()
        assert m[A.KEEP] and m[A.REDRAW]
    else:
        assert s.clues == [top] and s.clue_pending == []


def test_single_player_third_lab_card_same_colour():
    s = empty_state(1)
    g = s.g
    comp = g.comp
    ca, cb = _lab_pair(s, RED, RED)
    s._check_lab(0, ca)
    s._check_lab(0, cb)
    assert s.clue_pending[:2] == [0, 1]
    s.clue_pending = []
    third = [c for c in range(144) if comp.room_lab[c] >= 0 and comp.room_colour[c] == RED][2]
    cc = put(s, 3, 4, third, rot=(0 - comp.room_lab[third]) % 4)      # symbol at NE = grid point (3,5)
    s._check_lab(0, cc)
    assert s.clue_pending[:2] == [0, 1], "1 additional Clue card"


def test_a_blank_wound_carries_no_infection_symbol(tmp_path):
    """Assumption 17: with the Wound deck and its discards exhausted a Hero draws a blank wound (no card). A Hero
    who dies holding only blank wounds face down is not infected ("infected Heroes" are those with an infection
    symbol among their wounds), whatever the card file says of the other cards: here the Morbo card, the last
    entry of the Wound table, carries the infection symbol (`special_contents.morbo.infection`, a user's file).
    The seed-5 mutation sample's `_die` 19 (`w[1] >= 0` for `w[0] >= 0`) read the blank wound as that last card."""
    s = empty_state(2, data_dir=patched_data(tmp_path, "wounds.yaml", "morbo: {id: MORBO, infection: false}",
                                             "morbo: {id: MORBO, infection: true}"))
    assert s.g.comp.wound_infection[-1], "the patched file: the Wound table's last entry is infected"
    s.wound_deck, s.wound_discard, s.wound_known = [], [], []
    for _ in range(s.hp_of(0)):
        s._wound(0, True)
    assert not s.alive[0] and all(w[0] == -1 and w[1] for w in s.wounds[0])
    assert not s.infected_dead[0]
    s.wounds[1] = [[-1, True, False]]             # a living Hero holding a blank wound, read at the end
    assert not s._infected(0) and not s._infected(1)


def test_the_first_wound_card_of_the_file_infects_like_any_other(tmp_path):
    """"Wound cards are checked at game end or when the player dies: If a card shows the infection symbol, the player
    is infected." Every card of the Wound table counts, the first (id 0) too: with a card file whose first card
    (W01) shows the symbol, a Hero who dies holding it face down is infected. The seed-5 mutation sample's `_die` 21
    (`w[0] >= 1`: card 0 skipped) survived, since the built-in W01 has no symbol."""
    s = empty_state(2, data_dir=patched_data(tmp_path, "wounds.yaml", "{id: W01, infection: false, heart_back: false}",
                                             "{id: W01, infection: true, heart_back: false}"))
    plain = [c for c in range(1, 25) if not s.g.comp.wound_infection[c]]
    s.wound_deck = [c for c in s.wound_deck if c != 0 and c not in plain[:s.hp_of(0) - 1]] + plain[:s.hp_of(0) - 1] + [0]
    for _ in range(s.hp_of(0)):
        s._wound(0, True)
    assert not s.alive[0] and sorted(w[0] for w in s.wounds[0]) == sorted([0] + plain[:s.hp_of(0) - 1])
    assert s.infected_dead[0] and s._infected(0)


def test_a_hero_dying_with_plain_wounds_face_down_is_not_infected():
    """"Wound cards are checked at game end or when the player dies: If a card shows the infection symbol, the player
    is infected." Each card is read for its own symbol: a Hero who dies holding only cards without the symbol is not
    infected, even though the built-in W02 (id 1) carries it. (Seed-7 mutation sample: `_die` 22 read the symbol of
    card `w[1]`, the face-down flag, that is of W02, for every face-down wound, and survived.)"""
    s = empty_state(2)
    comp = s.g.comp
    assert comp.wound_infection[1], "the built-in W02 shows the infection symbol"
    plain = [c for c in range(25) if not comp.wound_infection[c]][:s.hp_of(0)]
    s.wound_deck = [c for c in s.wound_deck if c not in plain] + plain
    for _ in range(s.hp_of(0)):
        s._wound(0, True)
    assert not s.alive[0] and sorted(w[0] for w in s.wounds[0]) == sorted(plain) and all(w[1] for w in s.wounds[0])
    assert not s.infected_dead[0] and not s._infected(0)


def test_a_dead_hero_takes_no_more_damage():
    """ "As soon as a player has a number of Wound cards equal to his Hit points, his Hero dies": Damage still due
    to him after that (a second counter-attack of the same Real Time action, an explosion queued before) is lost. He
    is not asked about the Shield token he still holds, and draws no Wound card. (Seed-9 mutation sample: `_damage` 3,
    `not alive and (...)`, asked a dead Hero to spend Shields.)"""
    s = empty_state(2)
    s.tok[0][TK_SHIELD] = 1
    s.tok_pool[TK_SHIELD] -= 1
    for _ in range(s.hp_of(0)):
        s._wound(0, True)
    assert not s.alive[0]
    ph, wounds, deck = s.ph, [list(w) for w in s.wounds[0]], list(s.wound_deck)
    assert s._damage(0, 2, 1, True) is False
    assert s.ph == ph and s.wounds[0] == wounds and s.wound_deck == deck and s.tok[0][TK_SHIELD] == 1
    assert s._damage(1, 0, 0, True) is False and not s.wounds[1], "no Damage: nothing drawn"


def test_all_heroes_dead_ends_the_game():
    s = empty_state(2)
    for p in (0, 1):
        for _ in range(s.g.hp):
            s._wound(p, True)
    s.queue = [[Q_DEEP], [Q_RESPAWN, 0], [Q_NEXT]]
    s.ph = PH_NONE
    s._advance()
    assert s.is_terminal() and not s.won


def test_ranking_of_a_won_game():
    """A single Hero leaving with the Antidote is the best; then non-infected in reverse order of exit."""
    s = empty_state(3)
    s.exit_order = [1, 0, 2]
    s.antidote_out = 0
    s.won = True
    assert s.ranking() == [0, 2, 1]
    comp = s.g.comp
    inf = [w for w in range(25) if comp.wound_infection[w]][0]
    s.wounds[2] = [[inf, True, False]]
    assert s.ranking() == [0, 1, 2], "infected Heroes after the others"



def test_infected_heroes_ranked_in_reverse_order_of_exit():
    """ "If more than 1 Hero exits the map, non-infected Heroes are ranked in reverse order of exit, then infected
    Heroes without the Antidote are ranked in reverse order of exit." Hero 0 left with the Antidote (the best); the
    infected Heroes 1 and 2 left in that order after him: 2 (exited last) before 1."""
    s = empty_state(3)
    comp = s.g.comp
    inf = [w for w in range(25) if comp.wound_infection[w]][:2]
    s.wounds[1], s.wounds[2] = [[inf[0], True, False]], [[inf[1], True, False]]
    s.exit_order = [0, 1, 2]
    s.antidote_out = 0
    s.won = True
    assert s.ranking() == [0, 2, 1]


def test_a_won_game_scores_one_for_every_seat():
    """ "At least 1 Hero must exit the map with the Antidote ... This gives all players the win (regardless of whether
    the Heroes are dead, alive, or infected). If this does not occur, all players lose." Scores: 1 per seat for the
    win, 0 otherwise (docs/rules/virus_lab.md). Hero 0 left with the Antidote, Hero 1 is dead, Hero 2 still inside."""
    s = empty_state(3)
    cell0 = s.pos[0]
    s.pos[0], s.exited[0], s.exit_order, s.antidote_out = -1, True, [0], 0
    s._leave(0, cell0)
    s.alive[1] = False
    assert s.scores().tolist() == [0, 0, 0], "not over yet"
    s._finish()
    assert s.is_terminal() and s.won and s.scores().tolist() == [1, 1, 1]
    lost = empty_state(3)
    lost._finish()
    assert lost.is_terminal() and lost.scores().tolist() == [0, 0, 0]

# --------------------------------------------------------------------------------- slow phase choices
def test_wound_redraw_with_an_advantage():
    """ "he may use 1 Advantage to return it to the bottom of the deck and draw a new Wound card" """
    s = empty_state(1, auto_display_choices=True)
    comp = s.g.comp
    heart = [w for w in range(25) if comp.wound_heart[w]]
    plain = [w for w in range(25) if not comp.wound_heart[w]]
    s.wound_deck = plain[2:5] + [heart[0], plain[1], plain[0]]     # plain[0] on top; plain[1]'s back: plain
    s.wound_deck = [w for w in range(25) if w not in s.wound_deck] + s.wound_deck
    s.rt_actor, s.ret = 0, 1                 # inside a Real Time action (RET_RT)
    assert s._take_wounds(0, 1) and s.ph == PH_WOUND
    assert s.wounds[0] == [[plain[0], True, False]]
    s.apply_action(A.REDRAW)
    assert s.wound_deck[0] == plain[0] and s.wounds[0] == [[plain[1], True, True]], "the next back shows a heart"
    assert sum(1 for _, up in s.disp[0] if not up) == 1
    s.apply_action(A.KEEP)
    assert s.ph == PH_ACT and len(s.wounds[0]) == 1


def test_refill_redraw_with_an_advantage():
    """ "If a player doesn't like a card he may return it to the bottom of the deck and draw a new one by using
    1 Advantage for each card" """
    s = empty_state(1, auto_display_choices=True)
    s.disp[0] = s.disp[0][:7]
    top, nxt = s.room_deck[-1], s.room_deck[-2]
    s.queue = [[Q_REFILL, 0], [Q_RT]]
    s.ph = PH_NONE
    s._advance()
    assert s.ph == PH_REFILL and s.disp[0][-1] == [top, True]
    s.apply_action(A.REDRAW)
    assert s.room_deck[0] == top and s.disp[0][-1] == [nxt, True] and len(s.disp[0]) == 8
    s.apply_action(A.KEEP)
    assert s.ph == PH_ACT and len(s.disp[0]) == 8


@pytest.mark.parametrize("corner", [0, 2])
def test_a_lab_symbol_in_any_corner_makes_same_doorway_rotations_distinct(corner):
    """A 2-doorway Research Lab card (doorways on opposite sides) has the same doorways turned half a turn, but its lab
    symbol changes corner: both placements are offered, whichever corner the symbol starts in (corner 0 included)."""
    s = empty_state(1)
    g = s.g
    card = [c for c in range(144) if g.comp.room_lab[c] == corner and g.rot_doors[c][0] == g.rot_doors[c][2]][0]
    s.disp[0] = [[card, True]]
    s._mask = None
    m = s.legal_action_mask()
    legal = [r for r in range(4) if m[explore_id(1, 0, r)]]
    assert legal and all((r + 2) % 4 in legal for r in legal), legal


def test_lab_card_rotations_are_distinct_placements():
    """A 4-doorway Research Lab card looks the same in every rotation but its lab symbol does not."""
    s = empty_state(1)
    g = s.g
    lab4 = [c for c in range(144) if g.comp.room_doors[c] == 15 and g.comp.room_lab[c] >= 0][0]
    s.disp[0] = [[lab4, True], [four(g), True]]
    s._mask = None
    m = s.legal_action_mask()
    assert all(m[explore_id(1, 0, r)] for r in range(4))
    assert m[explore_id(1, 1, 0)] and not any(m[explore_id(1, 1, r)] for r in (1, 2, 3))



def test_adrenaline_is_not_offered_with_no_action_cube_left_to_gain():
    """ "USE AN ADRENALINE TOKEN. If used during Real Time Phase allows the Hero to immediately gains 7 Action cubes.
    ... At the end of countdown, the player must ... draw 1 Wound". With every Action cube already in the stock, the
    token would gain nothing and still cost a wound at the end: not offered (assumption 52). One cube left in the
    reserve: offered, and it gains that one cube."""
    s = empty_state(1)
    s.tok[0][TK_ADREN] = 1
    s.tok_pool[TK_ADREN] -= 1
    s.stock[0], s.reserve[0] = s.stock[0] + s.reserve[0], 0
    s._mask = None
    assert not s.legal_action_mask()[A.ADREN]
    s.stock[0], s.reserve[0] = s.stock[0] - 1, 1
    s._mask = None
    assert s.legal_action_mask()[A.ADREN]
    before = s.stock[0]
    s.apply_action(A.ADREN)
    assert s.stock[0] == before + 1 and s.reserve[0] == 0
