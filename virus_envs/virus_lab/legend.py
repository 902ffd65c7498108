"""Legend tiles (an advanced element, config `legend=True`): each Creature type linked to a room colour.

"To increase game difficulty, place one of the 4 Legend tiles in front of each of the four Creature types
(Blooders, Dogs, Zombies, Trickers), so each Creature type is now linked to a color. Split Leader miniatures
between each group, as you prefer. When in Slow phase, you must check the activated rooms when adding/moving
Creatures: for each room of a given color, you must add Creatures according to the corresponding color's
Creature group. ... If there are no more Creatures available in the corresponding group, you must move
Creatures of corresponding Legend group instead."

Which tile goes in front of which type, and how the Leaders are split, is the players' choice ("as you
prefer"): the config key `legend_tiles` records it, one group per colour in the order red, yellow, blue,
green, each group a minion kind and the Leader kinds joined to it with `+`
(default `zombie+desu,dog+mutant,blooder+verduko,tricker+executioner`: both miniatures of one Leader kind
per group). A choice made before the game is part of the configuration, so the assignment is public and
fixed for the whole game (no state field).
"""
from __future__ import annotations

from .components import COLOURS

KINDS = ("zombie", "dog", "blooder", "tricker", "desu", "mutant", "verduko", "executioner")
DEFAULT_TILES = "zombie+desu,dog+mutant,blooder+verduko,tricker+executioner"


def parse_tiles(text):
    """`legend_tiles` -> per colour (red, yellow, blue, green) the tuple of Creature kinds of its group.
    ValueError naming the key when a group is not one minion kind plus Leader kinds, or a kind repeats."""
    def bad(why):
        return ValueError(f"config key 'legend_tiles': {why}, got {text!r} (format: 4 groups for "
                          f"{', '.join(COLOURS)}, each 'minion+leader+...', e.g. {DEFAULT_TILES!r})")
    groups = [g.strip() for g in str(text).split(",")]
    if len(groups) != 4:
        raise bad("needs 4 groups, one per colour")
    out, seen = [], set()
    for grp in groups:
        names = [x.strip() for x in grp.split("+") if x.strip()]
        if not names or any(x not in KINDS for x in names):
            raise bad(f"unknown Creature kind in {grp!r}")
        kinds = tuple(KINDS.index(x) for x in names)
        if kinds[0] >= 4 or any(k < 4 for k in kinds[1:]):
            raise bad(f"group {grp!r} must start with its one minion kind (a Legend tile per type)")
        if seen & set(kinds):
            raise bad(f"kind repeated in {grp!r}")
        seen.update(kinds)
        out.append(kinds)
    if len(seen & {4, 5, 6, 7}) != 4:
        raise bad("every Leader kind must join a group ('Split Leader miniatures between each group')")
    return tuple(out)


def group_kinds(s, colour, leader):
    """The kinds the placing player may take for a room of `colour`: "you must add Creatures according to the
    corresponding color's Creature group" (a Leader of the group first when one is due and left, else a minion
    of the group, else a Leader of the group); [] when the group has none left in the reserve."""
    grp = s.g.legend[colour]
    pool = s.pool
    minions = [k for k in grp if k < 4 and pool[k] > 0]
    leaders = [k for k in grp if k >= 4 and pool[k] > 0]
    if leader and leaders:
        return leaders
    return minions or leaders


def holds_group(s, cell, colour):
    """Does the Creature group of `cell` hold a Creature of `colour`'s Legend group (Bosses by their Leader)?
    "you must move Creatures of corresponding Legend group instead" (option 2B)."""
    from .creatures import NK, BOSS
    grp = s.g.legend[colour]
    b = cell * NK
    if any(s.cre[b + k] for k in grp):
        return True
    return s.cre[b + BOSS] > 0 and any(rec[0] == cell and rec[1] in grp for rec in s.bosses)
