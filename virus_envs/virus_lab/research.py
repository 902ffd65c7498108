"""Research Labs, Clue cards and the Antidote.

A Research Lab card carries its symbol in one corner (turned with the card); a Research Lab forms at
a grid point where the symbols of 4-4-3-2 lab cards meet (4-3-2-1 living Heroes). Clue meanings are
the rulebook's numbered list (data/clues.yaml); two clues are incompatible when no room can meet
both (different doorway counts, different colour groups, disjoint zones, "full of Creatures" vs
"without any Creatures").
"""
from __future__ import annotations

from .board import connected, colour_group
from .components import (CK_BREACH1, CK_DOOR1, CK_DOORS, CK_EMPTY, CK_FULL, CK_GROUP, CK_NEXT, CK_TRAP,
                         CK_ZONE)
from .creatures import CAPACITY, creature_space, has_creatures

LAB_NEEDED = {4: 4, 3: 4, 2: 3, 1: 2}     # living Heroes -> lab cards to connect


def incompatible_table(comp):
    """n x n bool table: clue i and clue j cannot both hold for one room."""
    n = len(comp.clue_kind)
    K, A = comp.clue_kind, comp.clue_arg
    out = [[False] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            ki, kj = K[i], K[j]
            bad = False
            if ki == kj and ki in (CK_DOORS, CK_GROUP) and A[i] != A[j]:
                bad = True
            elif ki == kj == CK_ZONE:
                (r0, r1), (c0, c1) = A[i]
                (s0, s1), (d0, d1) = A[j]
                bad = r1 < s0 or s1 < r0 or c1 < d0 or d1 < c0
            elif {ki, kj} == {CK_FULL, CK_EMPTY}:
                bad = True
            out[i][j] = bad
    return out


def lab_vertex_cards(s, vertex):
    """Cells whose Research Lab symbol touches `vertex`."""
    return [c for c in s.labcells if s.labvert[c] == vertex]


def clue_holds(s, clue, cell):
    """Does room `cell` satisfy clue card `clue`?"""
    g = s.g
    comp = g.comp
    geo = g.geo
    k, a = comp.clue_kind[clue], comp.clue_arg[clue]
    card = s.card[cell]
    if k == CK_DOORS:
        return bin(s.doors[cell]).count("1") == a
    if k == CK_GROUP:
        if not comp.colour_matches(card, a):
            return False
        return len(colour_group(geo, s.card, s.doors, s.breach, g.colour_of, cell, a)) >= 3
    if k == CK_DOOR1:
        # "A room with a single Door token, if there are at least X Door tokens placed on rooms"
        if sum(1 for x in s.door if x) < s.n:
            return False
        return sum(1 for d in range(4) if geo.EDGE[cell][d] >= 0 and s.door[geo.EDGE[cell][d]]) == 1
    if k == CK_BREACH1:
        if sum(s.breach) < s.n + 1:
            return False
        return sum(1 for d in range(4) if geo.EDGE[cell][d] >= 0 and s.breach[geo.EDGE[cell][d]]) == 1
    if k == CK_TRAP:
        return any(y >= 0 and s.card[y] >= 0 and s.trapside[y] for y in geo.NB[cell])
    if k == CK_FULL:
        return creature_space(s, cell) >= CAPACITY
    if k == CK_ZONE:
        (r0, r1), (c0, c1) = a
        r, c = geo.rc(cell)
        sr, sc = geo.rc(geo.start_cell)
        return r0 <= r - sr <= r1 and c0 <= c - sc <= c1
    if k == CK_NEXT:
        return any(y >= 0 and comp.is_room(s.card[y]) and comp.colour_matches(s.card[y], a)
                   for y in geo.NB[cell])
    if k == CK_EMPTY:
        return not has_creatures(s, cell)
    return False


def candidate_rooms(s):
    """Coloured rooms on the table meeting every clue on the table."""
    comp = s.g.comp
    out = []
    for cell in range(s.g.geo.ncells):
        c = s.card[cell]
        if comp.is_room(c) and all(clue_holds(s, q, cell) for q in s.clues):
            out.append(cell)
    return out


def is_connected(s, a, d):
    return connected(s.g.geo, s.doors, s.breach, a, d)
