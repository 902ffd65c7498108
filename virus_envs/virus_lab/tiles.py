"""Virus rules: Barriers, Doors, Breaches, Explosives, exchanges.

A mixin of `game.VirusLabState` (the state's fields are listed in `game._FIELDS`); split out of game.py
so that each rule family reads on its own.
"""
from __future__ import annotations

from . import creatures as CR
from . import walls
from .actions import A, GIFTS, TABLE
from .board import DOOR_CLOSED, DOOR_OPEN
from .components import TK_ADREN, TK_EXPL, TK_SHIELD

NK = CR.NK


class TileRules:
    """Barriers, Doors, Breaches, Explosives, exchanges."""

    def _leave(self, p, cell):
        """ "Explosives are activated as soon as the Hero that placed them leaves the room and will explode when
        any Creature or Hero is present in the room" """
        if self.expl[cell] and self.expl_by[cell] == p and not self.armed[cell]:
            self.armed[cell] = 1
            if CR.has_creatures(self, cell) or CR.heroes_in(self, cell):
                self.explode(cell)

    def explode(self, cell):
        """X Damage points (X = Explosive tokens): "first to Heroes and then any residual value to Creatures ...
        then ... Leaders and then ... Bosses". ASSUMPTION: a Hero absorbs points up to his remaining hit points
        (face-up wounds; Shields may negate them, `shields="damage_points"`, without changing the rest); Creatures
        die when the rest covers their HP, weakest first."""
        comp = self.g.comp
        x = self.expl[cell]
        self.tok_pool[TK_EXPL] += x
        self.expl[cell] = 0
        self.armed[cell] = 0
        self.expl_by[cell] = -1
        for p in range(self.n):
            if x and self.pos[p] == cell:
                k = min(x, self.hp_of(p) - len(self.wounds[p]))
                x -= k
                self._hurt(p, k, False, damage=True)
        b = cell * NK
        for k in sorted(range(4), key=lambda t: comp.cre_hp[t]) + list(range(4, 8)):
            while x >= comp.cre_hp[k] and self.cre[b + k]:
                self.cre[b + k] -= 1
                self.pool[k] += 1
                x -= comp.cre_hp[k]
        dead = []
        for i in [i for i, rec in enumerate(self.bosses) if rec[0] == cell]:
            hp = comp.boss_hp[self.bosses[i][2]]
            if x >= hp:
                x -= hp
                dead.append(i)
        for i in reversed(dead):
            self._remove_boss(i)
        if not CR.has_creatures(self, cell):
            self.flat[cell] = 0

    def _apply_tile(self, a, p, cell):
        geo = self.g.geo
        self._move_cubes(p, 1, cell)
        kind, d = TABLE.payloads[a][0], TABLE.payloads[a][1]
        e = geo.EDGE[cell][d] if kind != "explosives" else -1
        if kind == "barrier" and self.g.walls:
            walls.place(self, p, e, TABLE.payloads[a][2])   # a Barrier and its bars (Walls System)
        elif kind == "barrier":
            # "place multiple tiles in a doorway ... the bar numbers of each tiles must increase accordingly"
            h = self.barrier[e]
            for _ in range(TABLE.payloads[a][2]):
                self.t_bar[p][h] -= 1
                h += 1
            self.barrier[e] = h
        elif kind == "unbar":
            walls.return_barrier(self, e)       # "Return the Barrier to the game reserve"
        elif kind == "door":
            self.t_door[p] -= 1
            self.door[e] = TABLE.payloads[a][2]
        elif kind == "toggle":
            self.door[e] = DOOR_CLOSED if self.door[e] == DOOR_OPEN else DOOR_OPEN
        elif kind == "breach":
            self.t_breach[p] -= 1
            self.breach[e] = 1
        else:
            k = d
            self.tok[p][TK_EXPL] -= k
            self.expl[cell] += k
            self.expl_by[cell] = p

    def _give(self, p, h, i):
        if i == 0:
            self.bullets[p] -= 1
            self.bullets[h] += 1
        elif i <= 3:
            t = (TK_SHIELD, TK_ADREN, TK_EXPL)[i - 1]
            self.tok[p][t] -= 1
            self.tok[h][t] += 1
        elif i == 4:
            self.t_door[p] -= 1
            self.t_door[h] += 1
        elif i == 5:
            self.t_breach[p] -= 1
            self.t_breach[h] += 1
        else:
            self.t_bar[p][i - 6] -= 1
            self.t_bar[h][i - 6] += 1

    def _mask_tiles(self, m, p, cell):
        """Barrier, Door, Breach, Explosives: out of combat, 1 Action cube."""
        geo = self.g.geo
        for d in range(4):
            y = geo.NB[cell][d]
            if y < 0:
                continue
            e = geo.EDGE[cell][d]
            doorway = (self.doors[cell] >> d) & 1
            if self.barrier[e]:
                m[A.UNBAR + d] = True
            # "It is not possible to place a Barrier over a Breach, Door, or wall."
            if doorway and not self.breach[e] and not self.door[e]:
                h = self.barrier[e]
                if self.g.walls:
                    for j in walls.placeable(self, p, e):   # a Barrier and its bars (Walls System)
                        m[A.BARRIER + 4 * d + j - 1] = True
                else:
                    k = 0                       # tiles of the stock that fit in order on top of h
                    while h + k < 4 and self.t_bar[p][h + k] > 0:
                        k += 1
                    for j in range(1, k + 1):
                        m[A.BARRIER + 4 * d + j - 1] = True
                if not h and self.t_door[p] > 0:
                    m[A.DOOR_OPEN + d] = m[A.DOOR_CLOSED + d] = True
            if self.door[e]:
                m[A.TOGGLE + d] = True
            # "Breaches must be placed over a wall on the border of the room card"
            if not doorway and not self.breach[e] and self.t_breach[p] > 0:
                m[A.BREACH + d] = True
        room = 6 - self.expl[cell]
        for k in (1, 2, 3):
            m[A.EXPLOSIVES + k - 1] = k <= self.tok[p][TK_EXPL] and k <= room

    def _mask_give(self, m, p, cell):
        for h in range(self.n):
            if h == p or self.pos[h] != cell:
                continue
            have = self._gift_counts(p)
            for i in range(len(GIFTS)):
                if have[i] > 0:
                    m[A.GIVE + i * 4 + h] = True

    def _gift_counts(self, p):
        t = self.tok[p]
        return (self.bullets[p], t[TK_SHIELD], t[TK_ADREN], t[TK_EXPL], self.t_door[p], self.t_breach[p],
                *self.t_bar[p])
