"""The action table of Virus (virus_lab_v0): the one place where action ids meet their meaning.

| name | phase | meaning |
|---|---|---|
| `pass` | real time | stop acting this turn ("When a player finishes his actions or chooses to stop, he passes") |
| `move N/E/S/W` | real time | move to the connected, accessible room on that side (1 cube; flees a combat) |
| `explore N slot k rot r` | real time | move to the unexplored space on side N placing display card k turned r quarter turns |
| `search` | real time | 3 cubes, once per room per turn |
| `activate room` | real time | Exit Control, First Aid, Ammo or Net room (1 cube, 2 in combat) |
| `pick up antidote`, `exit the lab` | real time | 1 cube each |
| `use adrenaline`, `recover advantage` | real time | +7 cubes; 3 cubes -> flip a display card face up ("No Real Time") |
| `attack` | real time, in combat | start a roll (1 Action cube in it) |
| `attack together` | real time, in combat | every Hero of the room who has not rolled this turn rolls in turn; Successes added, -1 |
| `roll: add action cube/bullet/<token>`, `roll` | combat roll | build the roll, then throw it |
| `advantage: action cube positive/bullet positive`, `re-roll (four-leaf)`, `accept roll` | roll result | |
| `kill <creature>`, `dodge <creature>`, `successes done` | spend Successes | |
| `shields k` | counter-attack | negate k Damage points with k Shield tokens |
| `keep`, `redraw (advantage)` | event / clue drawn | |
| `trap beside seat h N rot r` | trap check | place the drawn room, trap side up |
| `cash k x <shape> <colour>`, `discard k x <shape>` | gain resources | Rooms display groups |
| `advantage: 6 resources`, `resources done` | gain resources | |
| `buy <item>`, `buying done` | spend resources | the price list |
| `return beside seat h` | death | the dead Hero comes back in another Hero's room |
| `barrier N x k` (k tiles in bar order), `remove barrier N`, `door open/closed N`, `open/close door N`, `breach N`, `explosives k` | real time | tiles and explosives, out of combat, 1 cube each |
| `give <item> to seat h` | real time | exchange with a Hero in the same room, both out of combat (free) |
| `four-leaf on group i`, `no four-leaf` | slow phase | reduce the movement of the i-th Creature group (cell order) by 1 |
| `slow option i` | slow phase (`auto_slow_phase=False`) | the i-th option of the pending choice: the group to move next, a side on a tie, the Creature kind taken, where it goes (option 1 room / 2A room / 2B group) |
| `flip display slot k` | advantage taken / death (`auto_display_choices=False`) | the face-up display card the Advantage flips; after a death, each of the 6 cards flipped face down |
| `discard display slot k` | gain resources (`auto_display_choices=False`) | one card of the display group being discarded, when more cards match than the group takes |
| `major advantage: ...` | real time / roll result / gain resources | restore 3 display cards, 3 cubes positive, 18 resources |
"""
from __future__ import annotations

from ..core import ActionTable
from .components import COLOURS, CREATURE_NAMES, SHAPES, TOKENS

SIDE = "NESW"
MAX_DISPLAY = 24     # Knowledge 8 + the 16 Book tokens of the box
MAX_NET = 6          # Net room cards kept apart ("do not count towards the Rooms display limit")
NSLOT = MAX_DISPLAY + MAX_NET
MAX_SHIELD = 16
TARGETS = CREATURE_NAMES + ("boss",)     # 9 creature kinds in a room; kind 8 = a Boss
# the price list ("SPEND RESOURCES"), in the rulebook's order
ITEMS = ("bullet", "heart", "shield", "explosive", "breach", "barrier bar", "book", "four_leaf", "adrenaline",
         "door", "barrier")
PRICES = (2, 8, 5, 6, 9, 3, 7, 7, 9, 7, 3)
(IT_BULLET, IT_HEART, IT_SHIELD, IT_EXPL, IT_BREACH, IT_BAR, IT_BOOK, IT_FOUR, IT_ADREN, IT_DOOR,
 IT_BARRIER) = range(11)


GIFTS = ("bullet", "shield", "adrenaline", "explosive", "door", "breach", "barrier 0", "barrier 1", "barrier 2",
         "barrier 3")
MAX_GROUPS = 48      # Creature groups on the map, in cell order (48 miniatures at most)
MAX_OPTS = 256       # options of one Slow-phase choice (2 per table space at most: 2A room and 2B group)


class A:
    """Action id offsets (filled by build_actions)."""


def build_actions():
    t = ActionTable()
    A.PASS = t.add("pass", ("pass",))
    A.MOVE = len(t)
    for d in range(4):
        t.add(f"move {SIDE[d]}", ("move", d))
    A.EXPLORE = len(t)
    for d in range(4):
        for k in range(NSLOT):
            for r in range(4):
                t.add(f"explore {SIDE[d]} slot {k} rot {r}", ("explore", d, k, r))
    A.SEARCH = t.add("search", ("search",))
    A.ACTIVATE = t.add("activate room", ("activate",))
    A.PICKUP = t.add("pick up antidote", ("pickup",))
    A.EXIT = t.add("exit the lab", ("exit",))
    A.ADREN = t.add("use adrenaline", ("adrenaline",))
    A.RECOVER = t.add("recover advantage", ("recover",))
    A.ATTACK = t.add("attack", ("attack",))
    A.ADD_CUBE = t.add("roll: add action cube", ("add_cube",))
    A.ADD_BULLET = t.add("roll: add bullet", ("add_bullet",))
    A.ADD_TOKEN = len(t)
    for k, name in enumerate(TOKENS):
        t.add(f"roll: add {name}", ("add_token", k))
    A.ROLL = t.add("roll", ("roll",))
    A.ADV_CUBE = t.add("advantage: action cube positive", ("adv_cube",))
    A.ADV_BULLET = t.add("advantage: bullet positive", ("adv_bullet",))
    A.REROLL = t.add("re-roll (four-leaf)", ("reroll",))
    A.ACCEPT = t.add("accept roll", ("accept",))
    A.KILL = len(t)
    for k, name in enumerate(TARGETS):
        t.add(f"kill {name}", ("kill", k))
    A.DODGE = len(t)
    for k, name in enumerate(TARGETS):
        t.add(f"dodge {name}", ("dodge", k))
    A.SPEND_DONE = t.add("successes done", ("spend_done",))
    A.SHIELD = len(t)
    for k in range(MAX_SHIELD + 1):
        t.add(f"shields {k}", ("shields", k))
    A.KEEP = t.add("keep", ("keep",))
    A.REDRAW = t.add("redraw (advantage)", ("redraw",))
    A.TRAP = len(t)
    for h in range(4):
        for d in range(4):
            for r in range(4):
                t.add(f"trap beside seat {h} {SIDE[d]} rot {r}", ("trap", h, d, r))
    A.CASH = len(t)
    for s in range(len(SHAPES)):
        for c in range(4):
            for k in (2, 3, 4):
                t.add(f"cash {k} x {SHAPES[s]} {COLOURS[c]}", ("cash", s, c, k))
    A.DISCARD = len(t)
    for s in range(len(SHAPES)):
        for k in (2, 3, 4):
            t.add(f"discard {k} x {SHAPES[s]}", ("discard", s, k))
    A.ADV_RES = t.add("advantage: 6 resources", ("adv_res",))
    A.GAIN_DONE = t.add("resources done", ("gain_done",))
    A.BUY = len(t)
    for i, name in enumerate(ITEMS):
        t.add(f"buy {name}", ("buy", i))
    A.BUY_DONE = t.add("buying done", ("buy_done",))
    A.RESPAWN = len(t)
    for h in range(4):
        t.add(f"return beside seat {h}", ("respawn", h))
    # tiles and explosives (real time, out of combat)
    A.BARRIER = len(t)
    for d in range(4):
        for k in (1, 2, 3, 4):
            t.add(f"barrier {SIDE[d]} x {k}", ("barrier", d, k))
    A.UNBAR = len(t)
    for d in range(4):
        t.add(f"remove barrier {SIDE[d]}", ("unbar", d))
    A.DOOR_OPEN = len(t)
    for d in range(4):
        t.add(f"door open {SIDE[d]}", ("door", d, 1))
    A.DOOR_CLOSED = len(t)
    for d in range(4):
        t.add(f"door closed {SIDE[d]}", ("door", d, 2))
    A.TOGGLE = len(t)
    for d in range(4):
        t.add(f"open/close door {SIDE[d]}", ("toggle", d))
    A.BREACH = len(t)
    for d in range(4):
        t.add(f"breach {SIDE[d]}", ("breach", d))
    A.EXPLOSIVES = len(t)
    for k in (1, 2, 3):
        t.add(f"explosives {k}", ("explosives", k))
    # exchange: "Heroes not involved in a combat and in the same room may freely exchange"
    A.GIVE = len(t)
    for i, name in enumerate(GIFTS):
        for h in range(4):
            t.add(f"give {name} to seat {h}", ("give", i, h))
    # Four-leaf: "Immediately reduce the movement of any Creature group by 1" (Slow phase)
    A.FOUR = len(t)
    for i in range(MAX_GROUPS):
        t.add(f"four-leaf on group {i}", ("four", i))
    A.NO_FOUR = t.add("no four-leaf", ("no_four",))
    # Major Advantages
    A.MAJOR_CARDS = t.add("major advantage: restore 3 room cards", ("major_cards",))
    A.MAJOR_CUBES = t.add("major advantage: 3 cubes positive", ("major_cubes",))
    A.MAJOR_RES = t.add("major advantage: 18 resources", ("major_res",))
    A.TOGETHER = t.add("attack together", ("together",))
    # the Slow phase's choices (config auto_slow_phase=False): option i of the pending choice
    A.OPTION = len(t)
    for i in range(MAX_OPTS):
        t.add(f"slow option {i}", ("option", i))
    # the Rooms display choices (config auto_display_choices=False): appended, the ids above are unchanged
    A.FLIP = len(t)
    for k in range(MAX_DISPLAY):
        t.add(f"flip display slot {k}", ("flip", k))
    A.DISCARD_SLOT = len(t)
    for k in range(MAX_DISPLAY):
        t.add(f"discard display slot {k}", ("discard_slot", k))
    return t


def explore_id(d, k, r):
    return A.EXPLORE + (d * NSLOT + k) * 4 + r


def trap_id(h, d, r):
    return A.TRAP + (h * 4 + d) * 4 + r


def cash_id(s, c, k):
    return A.CASH + (s * 4 + c) * 3 + (k - 2)


def discard_id(s, k):
    return A.DISCARD + s * 3 + (k - 2)


TABLE = build_actions()
NUM_ACTIONS = len(TABLE)
