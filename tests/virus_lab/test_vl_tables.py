"""Virus (virus_lab_v0): every numeric table of the rulebook, at its boundaries (issue 23).

The expected values are typed in from the rulebook text (quoted above each table), never read from the engine's
own tables; each row puts the engine on both sides of a boundary where there is one (just enough / one short).
"""
from __future__ import annotations

import pytest

from vl_helpers import (BLOODER, DESU, DOG, RED, TRICKER, ZOMBIE, at, corridor, creatures, decide, empty_state,
                        event_card, find_card, four, give_tiles, put)
from virus_envs.virus_lab import creatures as CR
from virus_envs.virus_lab.actions import A, cash_id
from virus_envs.virus_lab.board import DOOR_CLOSED
from virus_envs.virus_lab.components import SP_AMMO, TK_BOOK, TK_HEART, TK_SHIELD
from virus_envs.virus_lab.game import (PH_ACT, PH_BUY, PH_GAIN, PH_NONE, PH_SHIELD, PH_SPEND, Q_EXTRA, Q_RT, Q_SLOW,
                                       VirusLabGame)

KINDS = ("zombie", "dog", "blooder", "tricker", "desu", "mutant", "verduko", "executioner")


# --------------------------------------------------------------------------------- additional Creatures
# "Check the number at the bottom-right corner of the Event card drawn this turn. If the number is 1-5, X is equal
# to 0; if it is 6-7, X is equal to the current number of Heroes (H); if it is 8-9, X equals Hx2; if it is 10, X
# equals Hx3" - "For every 4 Creatures that must be placed by a single player, 1 must be a Leader"
TIMES_H = {1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 1, 7: 1, 8: 2, 9: 2, 10: 3}


@pytest.mark.parametrize("heroes", [1, 2, 3, 4])
@pytest.mark.parametrize("number", range(1, 11))
def test_additional_creatures_event_number_by_heroes(number, heroes):
    s = empty_state(heroes, auto_slow_phase=False)
    s.event = event_card(s, number=number)
    s._step([Q_EXTRA])
    x = TIMES_H[number] * heroes
    queue = s.view(0)["placing"]["queue"]
    assert len(queue) == x, f"event {number}, {heroes} Heroes: X = {x}"
    assert sum(q[1] for q in queue) == x // 4, "a Leader for every 4"


def test_additional_creatures_count_the_living_heroes():
    """ "if the card number is 9 with 3 living Heroes, X will be equal to 6 ... (1 Leader and 5 Creatures)"; with
    one of 4 Heroes dead, H = 3."""
    s = empty_state(4, auto_slow_phase=False)
    s.alive[3], s.pos[3] = False, -1
    s.event = event_card(s, number=9)
    s._step([Q_EXTRA])
    queue = s.view(0)["placing"]["queue"]
    assert len(queue) == 6 and sum(q[1] for q in queue) == 1


# --------------------------------------------------------------------------------- difficulty
# "movement of Creatures (1-2-3), Heroes Hit points (8-7-6), number of Boss Creatures in the game (0-1-2)";
# "Dog Creatures have a +1 bonus on Movement"
@pytest.mark.parametrize("level, hp, bosses", [(1, 8, 0), (2, 7, 1), (3, 6, 2)])
def test_difficulty_hit_points_and_bosses(level, hp, bosses):
    g = VirusLabGame(num_players=1, difficulty=level)
    s = g.new_initial_state(seed=5)
    assert len(s.bosses) == bosses
    for k in range(hp - 1):
        s._wound(0, True)
    assert s.alive[0], f"{hp - 1} wounds: alive"
    s._wound(0, True)
    assert not s.alive[0], f"{hp} wounds: dead"


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("kind, bonus", [("zombie", 0), ("dog", 1)])
def test_difficulty_movement(level, kind, bonus):
    s = empty_state(1, difficulty=level)
    rooms = corridor(s, 3, range(1, 10))
    at(s, 0, rooms[8])
    creatures(s, rooms[0], **{kind: 1})
    s.queue = [[Q_SLOW], [Q_RT]]
    s.ph = PH_NONE
    s._step(s.queue.pop(0))
    k = KINDS.index(kind)
    assert [s.cre[c * 9 + k] for c in rooms].index(1) == level + bonus, "rooms moved"


# --------------------------------------------------------------------------------- prices
# "Bullet (1 gray cube): 2 resources, Heart token: 8, Shield token: 5, Explosive token: 6, Breach: 9, Barrier Bar:
# 3*, Book token: 7, Four-leaf token: 7, Adrenaline token: 9, Door: 7, Barrier (empty): 3*"
PRICE_LIST = [("bullet", 2), ("heart", 8), ("shield", 5), ("explosive", 6), ("breach", 9), ("barrier bar", 3),
              ("book", 7), ("four_leaf", 7), ("adrenaline", 9), ("door", 7), ("barrier", 3)]


@pytest.mark.parametrize("item, price", PRICE_LIST)
def test_price_list(item, price):
    s = empty_state(1)
    give_tiles(s, 0, bars=(1, 0, 0, 0))              # a Barrier in the stock, for "improve a Barrier"
    a = s.g.string_to_action(f"buy {item}")
    decide(s, PH_BUY, 0)
    s.res[0] = price - 1
    assert not s.legal_action_mask()[a], f"{item}: {price - 1} resources are not enough"
    s.res[0] = price + 1
    s._mask = None
    assert s.legal_action_mask()[a]
    s.apply_action(a)
    assert s.res[0] in (1, 0), f"{item} costs {price}"      # 1 left (0 when nothing else can be bought)


# --------------------------------------------------------------------------------- Successes and Creatures
# "Dodge (1 Success) ... Some Creatures, like Trickers, Leaders, or Bosses, require a higher number"; "Deal damage (3
# Successes)"; "inflict Damage points equal to a Creature's HP in a single roll"; "For Creatures, the base value is
# 1 for all stats ... Zombies: +1 HP, Tricker: +1 Success required to Dodge, Blooder: +1 Damage. The standard
# value for Leaders is 2 for all stats."
STATS = {"zombie": (2, 1, 1), "dog": (1, 1, 1), "blooder": (1, 1, 2), "tricker": (1, 2, 1),
         "desu": (2, 2, 2), "mutant": (2, 2, 2), "verduko": (2, 2, 2), "executioner": (2, 2, 2)}   # HP, Dodge, Damage


@pytest.mark.parametrize("kind", KINDS)
def test_kill_and_dodge_costs(kind):
    hp, dodge, _ = STATS[kind]
    k = KINDS.index(kind)
    s = empty_state(1)
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    creatures(s, c, **{kind: 1})
    decide(s, PH_SPEND, 0)
    for succ in (3 * hp - 1, 3 * hp):
        s.succ = succ
        s._mask = None
        assert s.legal_action_mask()[A.KILL + k] == (succ >= 3 * hp), f"{succ} Successes to kill a {kind}"
    for succ in (dodge - 1, dodge):
        s.succ = succ
        s._mask = None
        if succ:
            assert s.legal_action_mask()[A.DODGE + k] == (succ >= dodge), f"{succ} Successes to Dodge a {kind}"


@pytest.mark.parametrize("kind", KINDS)
def test_counter_attack_damage(kind):
    """ "Each Creature's attack causes 1 Damage point, except Blooders and Leaders which cause 2" """
    s = empty_state(1)
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    creatures(s, c, **{kind: 1})
    s.tok[0][TK_SHIELD], s.tok_pool[TK_SHIELD] = 1, s.tok_pool[TK_SHIELD] - 1
    decide(s, PH_SPEND, 0)
    s.succ = 0
    s.apply_action(A.SPEND_DONE)
    assert s.ph == PH_SHIELD and s.dmg[1] == STATS[kind][2]


# --------------------------------------------------------------------------------- Barriers and Doors
# "Barrier value is 0 (empty) with +2 for each bar. As long as the barrier value is equal to or higher than an
# adjacent Creature group value, the group cannot move through the Barrier. The Creature group value is +1 for each
# Creature and +2 for each Leader/Boss"; "A closed Door works like a Barrier of value 1 + X, where X is the number
# of Heroes behind the Door"
@pytest.mark.parametrize("bars, minions, leaders, passes", [
    (0, 1, 0, True), (1, 2, 0, False), (1, 3, 0, True), (2, 2, 1, False), (2, 3, 1, True),
    (3, 4, 1, False), (3, 5, 1, True), (3, 1, 3, True)])
def test_barrier_value_against_group_value(bars, minions, leaders, passes):
    s = empty_state(1)
    a, b = corridor(s, 3, (4, 5))
    creatures(s, a, zombie=minions, desu=min(leaders, 2), mutant=max(0, leaders - 2))
    e = s.g.geo.EDGE[a][1]
    s.barrier[e] = bars + 1                          # bars + 1 tiles: 0 bar, 1 bar ...
    for t in range(bars + 1):
        s.bar_pool[t] -= 1
    assert CR.can_step(s, a, 1) == passes
    assert (CR.move_step(s, a, 1) == b) == passes
    assert (s.barrier[e] == 0) == passes, "a Barrier the group passes is destroyed"


@pytest.mark.parametrize("behind, group, passes", [(0, 1, False), (0, 2, True), (1, 2, False), (1, 3, True),
                                                   (2, 3, False), (2, 4, True)])
def test_closed_door_value_one_plus_heroes_behind(behind, group, passes):
    s = empty_state(2)
    a, b = corridor(s, 3, (4, 5))
    creatures(s, a, zombie=group)
    s.door[s.g.geo.EDGE[a][1]] = DOOR_CLOSED
    s.door_pool -= 1
    for p in range(behind):
        at(s, p, b)
    for p in range(behind, 2):
        at(s, p, s.g.geo.start_cell)
    assert CR.can_step(s, a, 1) == passes
    assert (CR.move_step(s, a, 1) == b) == passes


# --------------------------------------------------------------------------------- capacities
# "Rooms have a maximum capacity of 7 ... Leaders/Bosses take up 2 spaces in a room. All other Creatures and Heroes
# take up 1 space each."
@pytest.mark.parametrize("minions, leaders, enters", [(6, 0, True), (7, 0, False), (4, 1, True), (3, 2, False),
                                                      (0, 3, True), (1, 3, False)])
def test_room_capacity_seven(minions, leaders, enters):
    s = empty_state(1)
    c = put(s, 1, 5, four(s.g))
    creatures(s, c, zombie=minions, desu=min(leaders, 2), mutant=max(0, leaders - 2))
    assert s.legal_action_mask()[A.MOVE + 2] == enters


# "Spend 1 Action cube ... to place up to 3 Explosive tokens"; "Limit of 6 Explosive tokens in a room."
@pytest.mark.parametrize("there, held, legal", [(0, 3, [1, 2, 3]), (0, 2, [1, 2]), (3, 3, [1, 2, 3]),
                                                (4, 3, [1, 2]), (5, 3, [1]), (6, 3, [])])
def test_explosives_three_at_a_time_six_in_a_room(there, held, legal):
    s = empty_state(1)
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    give_tiles(s, 0, expl=held + there)
    s.tok[0][5] -= there
    s.expl[c], s.expl_by[c] = there, 0
    m = s.legal_action_mask()
    assert [k for k in (1, 2, 3) if m[A.EXPLOSIVES + k - 1]] == legal


# "Special effect rooms (Net, Ammo, and First Aid) may be activated no more than 3 times in a turn"
@pytest.mark.parametrize("used, legal", [(2, True), (3, False)])
def test_special_room_three_times_a_turn(used, legal):
    s = empty_state(1)
    c = put(s, 1, 5, find_card(s.g, special=SP_AMMO))
    at(s, 0, c)
    s.sp_uses[c] = used
    assert s.legal_action_mask()[A.ACTIVATE] == legal


# "Players may not have more than 8 face down cards in their Rooms display."
@pytest.mark.parametrize("down, advantage", [(7, True), (8, False)])
def test_at_most_eight_face_down_cards(down, advantage):
    s = empty_state(1)
    s.disp[0] = s.disp[0] + [[s.room_deck.pop(), True] for _ in range(2)]      # 10 cards
    for k in range(down):
        s.disp[0][k][1] = False
    decide(s, PH_GAIN, 0)
    assert s.legal_action_mask()[A.ADV_RES] == advantage


# "Stamina ... initial value of 3 ... + 1 for each Heart token"; "Knowledge ... initial value of 8 ... + 1 for each
# Book token"
@pytest.mark.parametrize("tokens", [0, 1, 2])
def test_stamina_and_knowledge(tokens):
    s = empty_state(1, auto_display_choices=True)
    s.stock[0], s.reserve[0] = 0, 16
    for t in (TK_HEART, TK_BOOK):
        s.tok[0][t] += tokens
        s.tok_pool[t] -= tokens
    s.disp[0] = s.disp[0][:2]
    s.queue = []
    s._recover()
    assert s.stock[0] == 3 + tokens
    s.ph = PH_NONE
    s.queue.append([Q_RT])
    s._advance()
    while s.ph != PH_ACT:
        s.apply_action(A.KEEP)                      # keep each Room card drawn
    assert len(s.disp[0]) == 8 + tokens


# "A player is limited to gaining a maximum of 30 resources in a turn"; "Players may use Advantages to gain 6
# resources for each Advantage used"
@pytest.mark.parametrize("gained, after", [(23, 29), (24, 30), (25, 30), (29, 30)])
def test_thirty_resources_a_turn(gained, after):
    s = empty_state(1, auto_display_choices=True)
    decide(s, PH_GAIN, 0)
    s.gained[0] = s.res[0] = gained
    s.apply_action(A.ADV_RES)
    assert s.res[0] == after
    assert s.legal_action_mask()[A.ADV_RES] == (gained + 6 < 30), "nothing more to gain once 30 are reached"


# "If all the discarded cards have also the same color, the player gains 3 resources (for a pair) or 7 resources
# (for three of a kind) or 11 resources (for four of a kind)."
@pytest.mark.parametrize("k, gain", [(2, 3), (3, 7), (4, 11)])
def test_display_group_resources(k, gain):
    s = empty_state(1, auto_display_choices=True)
    comp = s.g.comp
    cards = [c for c in range(144) if comp.room_shape[c] == 2 and comp.room_lab[c] < 0
             and comp.room_colour[c] == RED][:k]
    s.disp[0] = [[c, True] for c in cards]
    decide(s, PH_GAIN, 0)
    m = s.legal_action_mask()
    assert m[cash_id(2, RED, k)] and not m[cash_id(2, RED, k + 1)] if k < 4 else m[cash_id(2, RED, k)]
    s.apply_action(cash_id(2, RED, k))
    assert s.res[0] == gain


# --------------------------------------------------------------------------------- Research Labs, Exit Control Rooms
# "In there are 4-3-2-1 living Hero, players have to connect at least 4-4-3-2 Research Lab cards."
@pytest.mark.parametrize("heroes, needed", [(1, 2), (2, 3), (3, 4), (4, 4)])
def test_research_lab_cards_needed(heroes, needed):
    s = empty_state(heroes)
    comp = s.g.comp
    labs = [c for c in range(144) if comp.room_lab[c] >= 0]
    colours = [comp.room_colour[c] for c in labs]
    # four lab cards of four different colours around the grid point between rows 2-3, columns 4-5
    picks = [labs[colours.index(col)] for col in range(4)]
    corners = [((2, 4), 1), ((2, 5), 2), ((3, 5), 3), ((3, 4), 0)]      # SE, SW, NW, NE of each card
    cells = [put(s, r, c, card, rot=(corner - comp.room_lab[card]) % 4)
             for ((r, c), corner), card in zip(corners, picks)]
    for i, c in enumerate(cells[:needed]):
        s._check_lab(0, c)
        assert bool(s.clue_pending) == (i + 1 == needed), f"{i + 1} of {needed} lab cards"


# "4 living Heroes: one of the Exit Control Room must be activated by 1 Hero, the other Exit Control Room by 2
# other Heroes. 2-3 living Heroes: both ... by 1 Hero each. 1 living Hero: it is enough to activate just 1"
@pytest.mark.parametrize("heroes, first, second, opens", [
    (1, [0], [], True), (1, [], [0], True), (2, [0], [], False), (2, [0], [1], True), (2, [0, 1], [], False),
    (3, [0], [1], True), (3, [0, 1, 2], [], False), (4, [0], [1], False), (4, [0], [1, 2], True),
    (4, [0, 1], [2, 3], True), (4, [0, 1, 2], [], False),
    # either room may be the one with 1 Hero; the other needs 2 Heroes besides him
    (4, [1, 2], [0], True), (4, [0, 1], [1], False), (4, [1], [0, 1], False)])
def test_exit_control_rooms_by_living_heroes(heroes, first, second, opens):
    s = empty_state(heroes)
    s.act_exit = [list(first), list(second)]
    s._check_exit_open()
    assert s.exit_open == opens


def test_leader_miniatures_and_tables_need_no_more_rows():
    """The tables above cover the kinds of the box: 4 minion kinds of 10 and 4 Leaders of 2 ("2 Leaders each ...
    10 Minions each")."""
    comp = VirusLabGame(num_players=1).comp
    assert comp.cre_name == KINDS and comp.cre_count == (10, 10, 10, 10, 2, 2, 2, 2)
    assert (BLOODER, DESU, DOG, TRICKER, ZOMBIE) == (2, 4, 1, 3, 0)


@pytest.mark.parametrize("held, reserve, can", [
    ((0, 1, 0, 0), (4, 0, 4, 4), True),     # a 1-bar Barrier held, a 2-bar one in the reserve (no 1-bar tile left)
    ((0, 1, 0, 0), (4, 4, 0, 4), False),    # ... but no 2-bar Barrier left in the reserve
    ((0, 1, 0, 0), (4, 4, 1, 4), True),     # the last 2-bar Barrier of the reserve is still "another available"
    ((0, 0, 0, 1), (4, 4, 4, 0), False),    # a 3-bar Barrier is as strong as a Barrier gets
    ((0, 0, 0, 0), (4, 4, 4, 4), False),    # no Barrier to improve
    # whole Barriers in the stock ("a 2 bar barrier requires 3 tiles: empty, 1 bar and 2 bars"):
    ((1, 1, 1, 0), (3, 0, 3, 4), True),     # a 2-bar Barrier takes the 3-bar tile (no 1-bar tile left: no matter)
    ((1, 1, 0, 0), (3, 3, 0, 4), False),    # a 1-bar Barrier, no 2-bar tile left (a 1-bar one would add no bar)
])
def test_a_barrier_bar_improves_a_held_barrier_by_one(held, reserve, can):
    """Base game: "Barrier Bar" lets a player "improve a Barrier on his stock with another available on the game
    reserve with 1 more bar" (not the Walls System's loose bars)."""
    s = empty_state(1)
    give_tiles(s, 0, bars=held)
    s.bar_pool = list(reserve)
    decide(s, PH_BUY, 0)
    s.res[0] = 20
    s._mask = None
    assert bool(s.legal_action_mask()[s.g.string_to_action("buy barrier bar")]) == can
