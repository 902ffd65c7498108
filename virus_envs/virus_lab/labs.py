"""Virus rules: Research Labs, Clue cards, the Antidote and the Exit Control Rooms.

A mixin of `game.VirusLabState` (the state's fields are listed in `game._FIELDS`); split out of game.py
so that each rule family reads on its own.
"""
from __future__ import annotations

from . import creatures as CR
from .actions import A
from .research import LAB_NEEDED, candidate_rooms
from .flow import *  # noqa: F401,F403  (phase and queue codes, rule constants)

NK = CR.NK


class LabRules:
    """Research Labs, Clue cards, the Antidote and the Exit Control Rooms."""

    def _base_ranking(self):
        """ "Ranking players": "If a single Hero, infected or not, leaves the map with the Antidote, that player is the
        best player. If more than 1 Hero exits the map, non-infected Heroes are ranked in reverse order of exit, then
        infected Heroes without the Antidote are ranked in reverse order of exit." [] when the game is lost."""
        if not self.won:
            return []
        if len(self.exit_order) == 1:
            return list(self.exit_order)
        inf = [p for p in self.exit_order if self._infected(p)]
        clean = [p for p in self.exit_order if not self._infected(p)]
        top = [self.antidote_out] if self.antidote_out >= 0 else []
        rest = [p for p in reversed(clean) if p not in top] + [p for p in reversed(inf) if p not in top]
        return top + rest + [p for p in range(self.n) if p not in top and p not in rest]

    def _infected(self, p):
        """Face-down wounds with the infection symbol (checked at death or at the end)."""
        comp = self.g.comp
        return self.infected_dead[p] or any(w[1] and w[0] >= 0 and comp.wound_infection[w[0]] for w in self.wounds[p])

    def _check_exit_open(self):
        """Exit Control Rooms "activated simultaneously" (ASSUMPTION: within the same Real Time phase)."""
        a0, a1 = set(self.act_exit[0]), set(self.act_exit[1])
        live = self.living_heroes()
        if live >= 4:
            ok = (len(a0) >= 1 and len(a1 - a0) >= 2) or (len(a1) >= 1 and len(a0 - a1) >= 2)
        elif live >= 2:
            ok = len(a0) >= 1 and len(a1) >= 1 and (len(a0 | a1) >= 2)
        else:
            ok = len(a0) + len(a1) >= 1
        if ok:
            self.exit_open = True

    def _check_lab(self, p, cell):
        """A Research Lab: the lab symbols of 4-4-3-2 cards (4-3-2-1 living Heroes) meet at one grid point."""
        comp = self.g.comp
        c = self.card[cell]
        corner = (comp.room_lab[c] + self.rot[cell]) % 4
        v = self.g.geo.VERTEX[cell][corner]
        self.labcells.append(cell)
        self.labvert[cell] = v
        cells = [x for x in self.labcells if self.labvert[x] == v]
        need = LAB_NEEDED[max(1, self.living_heroes())]
        used = [u for u in self.labs_used if u[0] == v]
        same = len({comp.room_colour[self.card[x]] for x in cells}) == 1
        draws = 0
        if used:
            # single player: "connect a third Research Lab card to a group of 2 ... all of the same color"
            if self.n == 1 and len(cells) == 3 and used[0][1] == 2 and same:
                draws = 1
                used[0][1] = 3
        elif len(cells) >= need:
            self.labs_used.append([v, len(cells)])
            draws = 2 if (same and self.n >= 2) else 1
        if draws:
            self.clue_pending = [p, draws]

    def _draw_clue(self):
        """Draw the next pending Clue card; a decision when the player could redraw it (2 Advantages)."""
        while self.clue_pending and self.clue_pending[1] > 0:
            p = self.clue_pending[0]
            if not self.clue_deck:
                self.clue_pending = []
                return False
            self.clue_pending[1] -= 1
            self.clue_pending.append(self._pop_clue())
            if self.num_adv(p) >= 2:
                self.ph, self.cur = PH_CLUE, p
                self.ret = RET_RT
                return True
            self._place_clue(self.clue_pending.pop())
        self.clue_pending = []
        return False

    def _mask_clue(self, m, p):
        m[A.KEEP] = True
        m[A.REDRAW] = self.num_adv(p) >= 2 and len(self.clue_deck) > 0     # "use 2 Advantages"

    def _apply_clue(self, a, p):
        c = self.clue_pending.pop()
        if a == A.REDRAW:
            # "he may use 2 Advantages to return it to the bottom of the deck and draw a new Clue card"
            self._use_adv(p)
            self._use_adv(p)
            self._clue_to_bottom(c)
            self.clue_pending.append(self._pop_clue())
            if self.num_adv(p) >= 2:
                return
            c = self.clue_pending.pop()
        self._place_clue(c)
        if self.clue_pending[1] <= 0:
            self.clue_pending = []
        self._resume()

    def _place_clue(self, c):
        """The clue goes on the table; "All incompatible Clue cards ... must be immediately discarded"."""
        inc = self.g.incompatible
        bad = [q for q in self.clues if inc[c][q]]
        if bad:
            for q in bad:
                self.clues.remove(q)
                self._clue_to_bottom(q)
            self._clue_to_bottom(c)
        else:
            self.clues.append(c)

    def _pop_clue(self):
        c = self.clue_deck.pop()
        if self.clue_known > len(self.clue_deck):
            self.clue_known = len(self.clue_deck)
        return c

    def _clue_to_bottom(self, c):
        """A Clue card everybody saw goes "on the bottom of the deck" (its place stays known)."""
        self.clue_deck.insert(0, c)
        self.clue_known += 1

    def _check_antidote(self):
        """ "If at any time ... the Clue cards points to a unique room on the table, place the Antidote tile"."""
        if not self.clues or self.antidote_cell >= 0 or self.antidote_holder >= 0 or self.antidote_out >= 0:
            return
        cand = candidate_rooms(self)
        if len(cand) == 1:
            self.antidote_cell = cand[0]
