"""Planning helpers for the Virus team heuristic: the table as the view shows it, in the engine's layout.

`Table(game, view)` rebuilds the public part of the map (cards, doorways, Door/Breach tokens, trap sides,
Creatures, Hero positions) with the attribute names the engine's rule functions read, so the heuristic asks
the rules themselves (`research.clue_holds`, `board.fits`) instead of re-implementing them. It holds nothing
a player cannot see. Hypothetical placements (`Table.placed`) answer "which rooms would the Clues point to if
I explored this card here?" — the Antidote is placed as soon as the Clues single out one room, so a Hero who
knows which clue cards are on the table can build the room they describe.
"""
from __future__ import annotations

from virus_envs.virus_lab.board import DOOR_CLOSED, OPP, fits, mismatches
from virus_envs.virus_lab.components import TR_GAS, TR_LASERS
from virus_envs.virus_lab.creatures import NK
from virus_envs.virus_lab.flow import EXIT_CARD, SCEN_CARD, START_CARD
from virus_envs.virus_lab.research import clue_holds

__all__ = ["Table", "clues_after", "display_cards", "placements", "antidote_after", "engineer"]


class Table:
    """The public table of a view, with the engine's field names (card, doors, breach, door, trapside, cre, pos)."""

    def __init__(self, game=None, view=None):
        if view is None:
            return
        self.g = game
        geo = game.geo
        comp = game.comp
        ids = {name: i for i, name in enumerate(comp.room_name)}
        ids["Starting Room"], ids["Exit Control"], ids["Scenario Room"] = START_CARD, EXIT_CARD, SCEN_CARD
        self.n = len(view["heroes"])
        self.card = [-1] * geo.ncells
        self.doors = [0] * geo.ncells
        self.trapside = [0] * geo.ncells
        self.cre = [0] * (geo.ncells * NK)
        for r in view["rooms"]:
            cell = r["cell"]
            self.card[cell] = ids[r["card"]]
            self.doors[cell] = r["doors"]
            self.trapside[cell] = 1 if r["trap"] else 0
            self.cre[cell * NK:(cell + 1) * NK] = r["creatures"]
        self.breach = [0] * geo.nedges
        for e in view["breaches"]:
            self.breach[int(e)] = 1
        self.door = [0] * geo.nedges
        for e, x in view["doors"].items():
            self.door[int(e)] = x
        self.barrier = [0] * geo.nedges
        for e, x in view["barriers"].items():
            self.barrier[int(e)] = x
        self.pos = [h["pos"] for h in view["heroes"]]

    def placed(self, cell, card, mask):
        """A copy with `card` (doorway mask `mask`) explored on empty `cell`."""
        t = Table()
        t.g, t.n, t.pos = self.g, self.n, self.pos
        t.card = list(self.card)
        t.doors = list(self.doors)
        t.card[cell] = card
        t.doors[cell] = mask
        t.trapside, t.cre, t.breach, t.door, t.barrier = self.trapside, self.cre, self.breach, self.door, self.barrier
        return t

    def candidates(self, clues):
        """Coloured rooms meeting every clue (the engine's `research.candidate_rooms` on this table)."""
        if not clues:
            return []
        nr = self.g.comp.num_rooms
        return [c for c in range(len(self.card)) if 0 <= self.card[c] < nr and all(clue_holds(self, q, c) for q in clues)]

    def fits(self, cell, mask):
        return fits(self.g.geo, self.card, self.doors, self.breach, cell, mask)

    def mismatches(self, cell, mask):
        return mismatches(self.g.geo, self.card, self.doors, self.breach, cell, mask)

    # -- moving around -------------------------------------------------------------------------
    def step(self, a, d):
        """The room next to `a` on side d if a Hero can walk there (connected, no closed Door, no Barrier), else -1."""
        geo = self.g.geo
        y = geo.NB[a][d]
        if y < 0 or self.card[y] < 0:
            return -1
        e = geo.EDGE[a][d]
        if self.door[e] == DOOR_CLOSED or self.barrier[e]:
            return -1
        if self.breach[e] or ((self.doors[a] >> d) & 1 and (self.doors[y] >> OPP[d]) & 1):
            return y
        return -1

    def hurts(self, cell, shielded=False):
        """A Lasers or Gas trap room: a Wound on entering (`shielded`: Gas only, a Shield negates the Lasers'
        Damage point)."""
        kinds = (TR_GAS,) if shielded else (TR_LASERS, TR_GAS)
        return bool(self.trapside[cell]) and self.g.comp.room_trap[self.card[cell]] in kinds

    def has_creatures(self, cell):
        return any(self.cre[cell * NK:(cell + 1) * NK])

    def paths(self, src, avoid=True, goal=-1, shielded=False):
        """BFS distances and first steps from `src` (rooms with Creatures or hurting traps avoided unless `goal`;
        `shielded`: a Lasers room is not avoided)."""
        dist, first = {src: 0}, {src: -1}
        frontier = [src]
        while frontier:
            nxt = []
            for a in frontier:
                for d in range(4):
                    y = self.step(a, d)
                    if y < 0 or y in dist:
                        continue
                    if avoid and y != goal and (self.has_creatures(y) or self.hurts(y, shielded)):
                        continue
                    dist[y] = dist[a] + 1
                    first[y] = d if first[a] < 0 else first[a]
                    nxt.append(y)
            frontier = nxt
        return dist, first

    def frontier(self, dist):
        """(room, side, empty cell) for every reachable room with a doorway (or Breach) onto an empty space."""
        geo = self.g.geo
        out = []
        for a in dist:
            for d in range(4):
                y = geo.NB[a][d]
                if y < 0 or self.card[y] >= 0:
                    continue
                if (self.doors[a] >> d) & 1 or self.breach[geo.EDGE[a][d]]:
                    out.append((a, d, y))
        return out


def clues_after(clues, new, incompatible):
    """The clues on the table after `new` is placed: "All incompatible Clue cards ... must be immediately
    discarded" (the new card with them)."""
    bad = [q for q in clues if incompatible[new][q]]
    if bad:
        return [q for q in clues if q not in bad]
    return list(clues) + [new]


def display_cards(game, hero):
    """(slot, card id) of every card a Hero can explore with: face-up display cards, then Net cards."""
    from virus_envs.virus_lab.actions import MAX_DISPLAY
    ids = {name: i for i, name in enumerate(game.comp.room_name)}
    out = [(k, ids[name]) for k, (name, up) in enumerate(hero["display"]) if up]
    out += [(MAX_DISPLAY + k, ids[name]) for k, name in enumerate(hero["net"])]
    return out


def placements(game, table, cards, cell, breach=False):
    """(slot, rotation, card, mask) of every distinct placement of `cards` on empty `cell` that fits (`breach`:
    or breaks the match on one border, "by simultaneously placing a Breach")."""
    out = []
    for k, c in cards:
        seen = set()
        for r in range(4):
            mk = game.rot_doors[c][r]
            if mk in seen:
                continue
            seen.add(mk)
            if table.fits(cell, mk) or (breach and len(table.mismatches(cell, mk)) == 1):
                out.append((k, r, c, mk))
    return out


def antidote_after(game, table, clues, cell, card, mask):
    """The rooms the clues would single out after exploring `card` on `cell`, given that no room meets them now:
    only the new room, its neighbours and rooms joined to its colour group can start to meet them."""
    from virus_envs.virus_lab.components import CK_GROUP
    geo = game.geo
    t2 = table.placed(cell, card, mask)
    check = {cell} | {y for y in geo.NB[cell] if y >= 0 and t2.card[y] >= 0}
    if any(game.comp.clue_kind[q] == CK_GROUP for q in clues):
        from virus_envs.virus_lab.board import colour_group
        check |= set(colour_group(geo, t2.card, t2.doors, t2.breach, game.colour_of, cell))
    nr = game.comp.num_rooms
    return [c for c in sorted(check) if 0 <= t2.card[c] < nr and all(clue_holds(t2, q, c) for q in clues)]


def engineer(game, table, clues, hero, dist, breach=False):
    """Placements that would make the clues single out exactly one room: [(path length, room, side, slot, rot, target)]
    (`breach`: a placement may break the match on one border with a Breach, the side it is entered from too)."""
    cards = display_cards(game, hero)
    out = []
    for a, d, y in table.frontier(dist):
        for k, r, c, mk in placements(game, table, cards, y, breach=breach):
            if not (mk >> OPP[d]) & 1 and not table.breach[game.geo.EDGE[a][d]] and not breach:
                continue
            hit = antidote_after(game, table, clues, y, c, mk)
            if len(hit) == 1:
                out.append((dist[a], a, d, k, r, hit[0]))
    out.sort()
    return out
