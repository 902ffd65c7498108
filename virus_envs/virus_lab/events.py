"""Virus rules: The Event phase: effects, trap checks.

A mixin of `game.VirusLabState` (the state's fields are listed in `game._FIELDS`); split out of game.py
so that each rule family reads on its own.
"""
from __future__ import annotations

from . import creatures as CR
from .actions import A, TABLE
from .board import DOOR_OPEN, fits
from .components import EF_FATIGUE, EF_REBOOT, EF_SUPPLIES, TR_PROL2, TR_PROL3
from .flow import *  # noqa: F401,F403  (phase and queue codes, rule constants)

NK = CR.NK


def additional_creatures(number: int, heroes: int) -> int:
    """No Real Time variant, "Additional Creatures": "Check the number at the bottom-right corner of the Event card
    drawn this turn. If the number is 1-5, X is equal to 0; if it is 6-7, X is equal to the current number of Heroes
    (H); if it is 8-9, X equals Hx2; if it is 10, X equals Hx3"."""
    return 0 if number <= 5 else heroes if number <= 7 else 2 * heroes if number <= 9 else 3 * heroes


class EventRules:
    """The Event phase: effects, trap checks."""

    def _apply_event_choice(self, a, p):
        """The Lead player keeps the Event he reads, or "If the Lead player does not like the Event card, he may
        spend 1 Advantage ... to return it to the bottom of the Event deck and draw the next Event card"."""
        if a == A.REDRAW:
            self._use_adv(p)
            self.event_deck.insert(0, self.event)
            self.event_known.insert(0, p)       # only the Lead saw it
            self.event = self.event_deck.pop()
            del self.event_known[len(self.event_deck):]
            if self.num_adv(p) == 0:
                self.ph = PH_NONE
                self._apply_event()
        else:
            self.ph = PH_NONE
            self._apply_event()

    def _apply_event(self):
        comp = self.g.comp
        e = self.event
        self.event_pile.append(e)
        eff = comp.event_effect[e]
        if eff == EF_REBOOT:
            # "Exit rooms may not be activated. If the exit door has already been opened, the exit is closed ...
            # All door tiles are reset to the 'open' side."
            self.exit_open = False
            self.act_exit = [[], []]
            self.door = bytearray(DOOR_OPEN if x else 0 for x in self.door)
        elif eff == EF_FATIGUE:
            for p in range(self.n):
                if self.active(p) and self.stock[p]:
                    self.stock[p] -= 1
                    self.reserve[p] += 1
        elif eff == EF_SUPPLIES:
            for p in range(self.n):
                if self.active(p):
                    k = min(2, self.bullet_pool)
                    self.bullets[p] += k
                    self.bullet_pool -= k
        q = []
        if comp.event_trap[e]:
            q += [[Q_TRAP, p] for p in self._order_from_lead() if self.active(p)]
        q += [[Q_EXTRA], [Q_RT]]
        self.queue = q + self.queue

    def _trap_options(self, c):
        geo, g = self.g.geo, self.g
        out = []
        for h in range(self.n):
            cell = self.pos[h]
            if cell < 0:
                continue
            for d in range(4):
                y = geo.NB[cell][d]
                if y < 0 or self.card[y] >= 0:
                    continue
                seen = set()
                for r in range(4):
                    m = g.rot_doors[c][r]
                    if m in seen:
                        continue
                    seen.add(m)
                    if fits(geo, self.card, self.doors, self.breach, y, m):
                        out.append((h, d, r))
        return out

    def _trap_check(self, p):
        """ "each player draws a room card from the Room deck and places it with the trap side face up": where is
        his decision, and so is a redraw ("return to the bottom of the deck the card he just drew and draw a new
        one of the same type", 1 Advantage). No place and no redraw: the card is discarded without asking."""
        c = self._draw_room()
        if c < 0:
            return
        self.trap_card = c
        if self._trap_options(c) or self._may_redraw_trap(p):
            self.ph, self.cur = PH_TRAP, p
        else:
            self._discard_trap()

    def _may_redraw_trap(self, p):
        return self.num_adv(p) > 0 and bool(self.room_deck)

    def _discard_trap(self):
        """ "If no suitable space is available, the player discards the card and does not place a trap card" """
        self.room_discard.append(self.trap_card)
        self.trap_card = -1

    def _apply_trap(self, a, p):
        if a == A.REDRAW:
            self._use_adv(p)
            self._room_to_bottom(self.trap_card)
            self.trap_card = self._draw_room()
            if self._trap_options(self.trap_card) or self._may_redraw_trap(p):
                return
            self._discard_trap()
        elif a == A.KEEP:
            self._discard_trap()
        else:
            _, h, d, r = TABLE.payloads[a]
            self._place_trap(h, d, r)
        self.ph = PH_NONE

    def _place_trap(self, h, d, r):
        comp = self.g.comp
        c = self.trap_card
        y = self.g.geo.NB[self.pos[h]][d]
        self._put(y, c, r, True)
        self.trap_card = -1
        t = comp.room_trap[c]
        if t in (TR_PROL2, TR_PROL3):
            # "place 2 or 3 Creatures ... in this room immediately after it is placed"
            for _ in range(2 if t == TR_PROL2 else 3):
                k = CR.pick_kind(self, False)
                if k >= 0 and CR.occupancy(self, y) + CR.SIZE[k] <= CR.CAPACITY:
                    self.cre[y * NK + k] += 1
                    self.pool[k] -= 1
