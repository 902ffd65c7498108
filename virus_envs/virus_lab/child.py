"""Virus, Save the Child: the Child's moves, his escort and his death (config `scenario="save_the_child"`).

"Child Movement: Each Event phase, before to draw the Event card, the Lead player must check if the Child can see
any Creatures or if a Creature in the Child's Alerted Area. If so, the Lead Player moves the Child up to 3 spaces
away from the Creature(s). The Child must be moved until he cannot see and/or hear any Creatures or until he has
moved 3 spaces. If not, the Lead Player moves the Child 1 space.
When the Child explores, draw the top room from the Room deck and place it. If the Room is not compatible with the
previous rooms, discard it and draw a new card until you find a compatible one. Reshuffle the discarded cards back
into the Room deck.
When moving Creatures the Child is considered a Hero, but they can only sniff and/or see, but not hear him.
If one or more Creatures enter the room with the Child without any Heroes present, the Child dies.
If a Hero meets the Child, the Child will follow him automatically and Child Movement procedure is not more
required. If that Hero dies, the Child will automatically follow another Hero in the same room. If there are no
more Heroes in the room, the Child dies."

Each space of the Child's move is the Lead player's choice (`auto_child=False`: phase PH_SCENARIO, `slow option d`
= side d) among the steps open (in a flight, those that do not bring him nearer the nearest Creature); with
`auto_child=True` (the default) the documented default (assumption 46, docs/rules/virus_lab.md): each space of a
flight goes where the nearest Creature is furthest (rows + columns), a calm space towards the nearest Hero on the
map (else the Starting Room); existing rooms before unexplored spaces, then the side order N E S W. An explored
room takes the first rotation that fits. The Child moves like a Hero (through connected
doorways or Breaches, not through closed Doors or Barriers, into rooms with space and no Creatures). The state
field `child` = [space, seat he follows or -1, state] (scenarios.CHILD_*); the Child following a Hero is where
that Hero is. "The Creatures ... can only sniff and/or see" him: `creatures.hero_cells` adds his space (hearing
counts Action cubes, which the Child has none of).
"""
from __future__ import annotations

from . import creatures as CR
from .board import ALERT, DOOR_CLOSED, bfs, connected, draw_fitting_room
from .positioning import manhattan

CHILD_IN, CHILD_DEAD, CHILD_SAFE = 1, 2, 3
MAX_FLIGHT = 3              # "up to 3 spaces"


def cell_of(s) -> int:
    """The Child's space: his own, or that of the Hero he follows (-1 off the map)."""
    c, f, _ = s.child
    return s.pos[f] if f >= 0 else c


def loose_cell(s) -> int:
    """The space of a Child alone in the lab (a target for the Creatures' sight and smell), else -1."""
    c, f, st = s.child
    return c if st == CHILD_IN and f < 0 else -1


def threatened(s, cell) -> bool:
    """ "the Child can see any Creatures or ... a Creature in the Child's Alerted Area" (sight as the Creatures'
    line of sight; the Alerted Area: 4 connected rooms, closed Doors stop it as they stop smell)."""
    for d in range(4):
        for y in CR.line_of_sight(s, cell, d):
            if CR.has_creatures(s, y):
                return True
    g = s.g
    dist, _ = bfs(g.geo, s.card, s.doors, s.breach, s.door, cell, ALERT, False)
    return any(CR.has_creatures(s, y) for y in dist)


def steps(s, cell):
    """[(side, space, explores)] the Child may take from `cell`."""
    geo = s.g.geo
    out = []
    for d in range(4):
        y = geo.NB[cell][d]
        if y < 0:
            continue
        e = geo.EDGE[cell][d]
        if s.door[e] == DOOR_CLOSED or s.barrier[e]:
            continue
        if s.card[y] >= 0:
            if connected(geo, s.doors, s.breach, cell, d) >= 0 and not CR.has_creatures(s, y) \
                    and CR.occupancy(s, y) < CR.CAPACITY:
                out.append((d, y, False))
        elif s.breach[e] or (s.doors[cell] >> d) & 1:
            out.append((d, y, True))
    return out


def _creature_cells(s):
    N = s.g.geo.ncells
    return [c for c in range(N) if CR.has_creatures(s, c)]


def _explore(s, y) -> bool:
    """ "draw the top room from the Room deck and place it. If the Room is not compatible with the previous rooms,
    discard it and draw a new card until you find a compatible one. Reshuffle the discarded cards back into the
    Room deck." False when no card of the deck fits (the Child stays)."""
    drawn = draw_fitting_room(s, y)
    if drawn is None:
        return False
    s._put(y, drawn[0], drawn[1], False)
    return True


def _arrive(s, y):
    s.child[0] = y
    here = [p for p in range(s.n) if s.pos[p] == y]
    if here:
        s.child[1] = here[0]        # "If a Hero meets the Child, the Child will follow him" (lowest seat first)
        return True
    return False


def _nearest_creature(geo, cre, c):
    return min(manhattan(geo, c, x) for x in cre) if cre else 99


def options(s):
    """The sides the Lead player may move the Child to now: in a flight, the steps that do not bring him nearer
    the nearest Creature (rows + columns; all steps when none); a calm move, every step. With the default choice
    (`auto_child`) first."""
    geo = s.g.geo
    cell = s.child[0]
    opts = steps(s, cell)
    if not opts:
        return []
    if s.ch_move[1]:
        cre = _creature_cells(s)
        here = _nearest_creature(geo, cre, cell)
        away = [o for o in opts if _nearest_creature(geo, cre, o[1]) >= here]
        opts = away or opts
        key = (lambda c: -_nearest_creature(geo, cre, c))
    else:
        heroes = [s.pos[p] for p in range(s.n) if s.pos[p] >= 0] or [geo.start_cell]
        key = (lambda c: min(manhattan(geo, c, h) for h in heroes))
    best = min(opts, key=lambda o: (key(o[1]), o[2], o[0]))
    return [best[0]] + sorted(o[0] for o in opts if o is not best)


def event_phase(s) -> bool:
    """The Child's move at the start of an Event phase (before the Event card is drawn); True while the Lead
    player chooses a space (`auto_child=False`: phase PH_SCENARIO, `s.ch_move` = [spaces left, flight])."""
    if s.ch_turn == s.turn:
        return False                # moved already this Event phase (the step resumed after a choice)
    s.ch_turn = s.turn
    if s.child[2] != CHILD_IN or s.child[1] >= 0:
        return False
    check_death(s)
    if s.child[2] != CHILD_IN:
        return False
    # "If so, the Lead Player moves the Child up to 3 spaces away from the Creature(s) ... If not, the Lead Player
    # moves the Child 1 space."
    flee = threatened(s, s.child[0])
    s.ch_move = [MAX_FLIGHT if flee else 1, 1 if flee else 0]
    return run(s)


def run(s) -> bool:
    """Move space by space until done; True when the Lead player must choose the next space."""
    while s.ch_move:
        opts = options(s)
        if not opts:
            s.ch_move = []
            break
        if not s.g.auto_child and len(opts) > 1:
            return True
        step(s, opts[0])
    return False


def step(s, side) -> None:
    """The Child moves one space to `side` (exploring an unexplored space); the move ends when he meets a Hero,
    cannot explore, has moved its spaces or, in a flight, "cannot see and/or hear any Creatures"."""
    y = s.g.geo.NB[s.child[0]][side]
    if s.card[y] < 0 and not _explore(s, y):
        s.ch_move = []
        return
    s.ch_move[0] -= 1
    if _arrive(s, y) or s.ch_move[0] <= 0 or (s.ch_move[1] and not threatened(s, y)):
        s.ch_move = []


def check_death(s) -> None:
    """ "If one or more Creatures enter the room with the Child without any Heroes present, the Child dies"
    (checked after the Slow phase's moves and placements and before the Child's own move)."""
    c = loose_cell(s)
    if c >= 0 and CR.has_creatures(s, c) and CR.heroes_in(s, c) == 0:
        s.child[2] = CHILD_DEAD


def hero_enters(s, p, y) -> None:
    """A Hero entering the Child's room meets him."""
    if loose_cell(s) == y and s.alive[p] and s.pos[p] == y:
        s.child[1] = p


def hero_gone(s, p, cell, dies) -> None:
    """The Hero the Child follows leaves the map without exiting: "If that Hero dies, the Child will automatically
    follow another Hero in the same room. If there are no more Heroes in the room, the Child dies." A Hero whose
    game ends early (Major Advantages) leaves him in that room, alone (ASSUMPTION: the rulebook speaks of death
    only)."""
    if s.child[1] != p or s.child[2] != CHILD_IN:
        return
    others = [(p + i) % s.n for i in range(1, s.n) if s.pos[(p + i) % s.n] == cell]
    if others:
        s.child[1] = others[0]
        return
    s.child[0], s.child[1] = cell, -1
    if dies:
        s.child[2] = CHILD_DEAD


def state_of(s) -> int:
    """The Child's state; a Child following a Hero who left the map by the exit is safe with him."""
    c, f, st = s.child
    if st == CHILD_IN and f >= 0 and s.exited[f]:
        return CHILD_SAFE
    return st
