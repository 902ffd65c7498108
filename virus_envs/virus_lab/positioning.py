"""Virus, Scenarios: the Room Positioning Method (pure functions over the table grid).

"Draw 3 random cards from the Event deck. Check the number on the bottom-right corner and take the highest value
on these cards. Count an equal number of room spaces from the Exit Control Room located furthest from the Starting
room. You can count moving straight ahead (away from the Starting room), left or right, as you prefer. If you reach
the end of the table, stop immediately. Repeat the procedure once with 3 other random Event cards. You may not
invert the previous movement. Place the Scenario room there."

Directions, as a player seated at the Starting Room's table edge sees them (the grid's row 0 is that edge, rows
grow into the table; `board.py` sides N=0 E=1 S=2 W=3): straight ahead = S (away from the Starting Room), left = E,
right = W. "Invert the previous movement" = the opposite side: left after right and right after left are refused;
straight after straight is allowed (its inverse, back towards the Starting Room, is never offered).
The state's part (drawing the cards, the Lead player's choices) is `scenarios.ScenarioRules`.
"""
from __future__ import annotations

STRAIGHT, LEFT, RIGHT = 0, 1, 2
DIRECTIONS = ("straight ahead", "left", "right")
SIDE = (2, 1, 3)                 # the board side each direction counts along: S, E, W
_INVERSE = {LEFT: RIGHT, RIGHT: LEFT, STRAIGHT: -1}


def manhattan(geo, a: int, b: int) -> int:
    ra, ca = geo.rc(a)
    rb, cb = geo.rc(b)
    return abs(ra - rb) + abs(ca - cb)


def furthest_exit(geo, exit_cells) -> int:
    """ "the Exit Control Room located furthest from the Starting room": by room spaces counted along the grid
    (rows + columns); a tie goes to the first Exit Control Room of the exit card (ASSUMPTION)."""
    st = geo.start_cell
    return max(exit_cells, key=lambda c: (manhattan(geo, st, c), -exit_cells.index(c)))


def nearest_exit(geo, exit_cells) -> int:
    """ "the nearest Exit Control Room" to the Starting Room (Save the Child); ties as `furthest_exit`."""
    st = geo.start_cell
    return min(exit_cells, key=lambda c: (manhattan(geo, st, c), exit_cells.index(c)))


def allowed(previous: int) -> list:
    """The directions open to a count: all three first, then any but the inverse of the previous movement."""
    return [d for d in (STRAIGHT, LEFT, RIGHT) if previous < 0 or d != _INVERSE[previous]]


def count_spaces(geo, cell: int, direction: int, k: int) -> int:
    """The space reached counting k room spaces from `cell` in `direction`: "If you reach the end of the table,
    stop immediately" (the last space on the table)."""
    side = SIDE[direction]
    for _ in range(k):
        y = geo.NB[cell][side]
        if y < 0:
            break
        cell = y
    return cell


def highest(numbers) -> int:
    """ "take the highest value on these cards" """
    return max(numbers) if numbers else 0


def free_space(geo, card, cell: int) -> int:
    """Where the Scenario room goes when the counted space already holds a room (the rulebook does not say;
    ASSUMPTION): the nearest empty table space by rows + columns, ties by the lower space number; -1 if none."""
    if card[cell] < 0:
        return cell
    empty = [c for c in range(geo.ncells) if card[c] < 0]
    return min(empty, key=lambda c: (manhattan(geo, cell, c), c)) if empty else -1


def isolated(geo, card, cell: int) -> bool:
    """An empty space with no room on any side ("an isolated area (without any adjacent rooms)")."""
    return card[cell] < 0 and all(y < 0 or card[y] < 0 for y in geo.NB[cell])


def halfway(geo, a: int, b: int) -> int:
    """The space halfway between spaces a and b (half a space rounded towards a)."""
    ra, ca = geo.rc(a)
    rb, cb = geo.rc(b)
    return geo.cell(ra + int((rb - ra) / 2), ca + int((cb - ca) / 2))


def child_room_space(geo, card, exit_cells) -> int:
    """Save the Child: "placed halfway between the Starting Room and the nearest Exit Control Room and ... in an
    isolated area (without any adjacent rooms)". The Lead player's placement made by a documented default
    (ASSUMPTION): the isolated empty space nearest that halfway space (rows + columns), ties by the lower space
    number; -1 when the table has none."""
    mid = halfway(geo, geo.start_cell, nearest_exit(geo, exit_cells))
    spots = [c for c in range(geo.ncells) if isolated(geo, card, c)]
    return min(spots, key=lambda c: (manhattan(geo, mid, c), c)) if spots else -1
