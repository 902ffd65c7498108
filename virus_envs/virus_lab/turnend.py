"""Virus rules: Turn end: resources gained and spent, recovery and refill.

A mixin of `game.VirusLabState` (the state's fields are listed in `game._FIELDS`); split out of game.py
so that each rule family reads on its own.
"""
from __future__ import annotations

from . import creatures as CR
from . import resolution, smoke, walls
from .actions import NUM_ACTIONS
from .actions import (A, ITEMS, MAX_DISPLAY, PRICES, TABLE, IT_BAR, IT_BARRIER, IT_BOOK, IT_BREACH, IT_BULLET,
    IT_DOOR, IT_HEART, cash_id, discard_id)
from .board import colour_group
from .display import default_discard_slots, discard_candidates
from .components import NUM_SHAPES, TK_ADREN, TK_BOOK, TK_EXPL, TK_FOUR, TK_HEART, TK_SHIELD
from .flow import *  # noqa: F401,F403  (phase and queue codes, rule constants)

NK = CR.NK


class TurnEndRules:
    """Turn end: resources gained and spent, recovery and refill."""

    def _group_counts(self, p):
        """(shape, colour) -> face-up display cards."""
        comp = self.g.comp
        cnt = {}
        for c, up in self.disp[p]:
            if up:
                for col in ((comp.room_colour[c],) if comp.room_colour[c] >= 0 else range(4)):   # Multicolored: any
                    key = (comp.room_shape[c], col)
                    cnt[key] = cnt.get(key, 0) + 1
        return cnt

    def _mask_gain(self, m, p):
        m[A.GAIN_DONE] = True
        cnt = self._group_counts(p)
        shape_tot = [0] * NUM_SHAPES
        for (s_, c), v in cnt.items():
            shape_tot[s_] += v
            for k in (2, 3, 4):
                if v >= k:
                    m[cash_id(s_, c, k)] = True
        for s_ in range(NUM_SHAPES):
            for k in (2, 3, 4):
                if shape_tot[s_] >= k:
                    m[discard_id(s_, k)] = True
        m[A.ADV_RES] = self.num_adv(p) > 0 and self.gained[p] < RES_CAP
        m[A.MAJOR_RES] = self.gained[p] < RES_CAP and self._major_ok(p)

    def _can_buy_any(self, p):
        return any(self._can_buy(p, i) for i in range(len(ITEMS))) or smoke.can_buy(self, p) \
            or resolution.can_buy(self, p)
    def _price(self, p, i):
        """The price list ("SPEND RESOURCES"; a Skill may lower it: skills.py)."""
        return PRICES[i]

    def stamina(self, p):
        """ "initial value of 3 (as shown on player board) + 1 for each Heart token player has on hand" """
        return 3 + self.tok[p][TK_HEART]

    def _can_buy(self, p, i):
        if self.res[p] < self._price(p, i):
            return False
        if i == IT_BULLET:
            return self.bullet_pool > 0
        if i in (IT_HEART, 2, 3, IT_BOOK, 7, 8):
            t = {IT_HEART: TK_HEART, 2: TK_SHIELD, 3: TK_EXPL, IT_BOOK: TK_BOOK, 7: TK_FOUR, 8: TK_ADREN}[i]
            return self.tok_pool[t] > 0
        if i == IT_BREACH:
            return self.breach_pool > 0
        if i == IT_DOOR:
            return self.door_pool > 0
        if i == IT_BARRIER:
            return self.bar_pool[0] > 0
        if i == IT_BAR and self.g.walls:
            return walls.can_buy_bar(self, p)       # "buy an additional bar (3 resource/bar) when required"
        if i == IT_BAR:
            # "improve a Barrier on his stock with another available on the game reserve with 1 more bar"
            return any(self.t_bar[p][b] > self.t_bar[p][b + 1] and self.bar_pool[b + 1] > 0 for b in range(3))
        return False

    def _start_gain(self, p):
        if not self.alive[p] or self.exited[p] or self.retired[p]:
            return                              # ASSUMPTION: Heroes out of the map gain nothing
        g, comp = self.g, self.g.comp
        # FROM EXPLORATION AND SEARCHING: group size x points, per room group
        pts = {}
        groups = {}
        for cell in range(g.geo.ncells):
            e, s_ = self.explored[cell] == p, self.searched[cell] == p
            if not (e or s_) or not comp.is_room(self.card[cell]):
                continue
            grp = groups.get(cell)
            if grp is None:
                grp = tuple(colour_group(g.geo, self.card, self.doors, self.breach, g.colour_of, cell))
                for x in grp:
                    groups[x] = grp
            pts[grp] = pts.get(grp, 0) + (1 if e else 0) + (2 if s_ else 0)
        tot = sum(len(grp) * b for grp, b in pts.items())
        self.gained[p] = tot
        self.res[p] = min(RES_CAP, tot)
        self.ph, self.cur = PH_GAIN, p

    def _apply_gain(self, a, p):
        comp = self.g.comp
        if a == A.GAIN_DONE:
            self.ph = PH_BUY
            if not self._can_buy_any(p):
                self.res[p] = 0
                self.ph = PH_NONE
            return
        if a == A.ADV_RES:
            self._use_adv(p)
            self._gain(p, 6)
            return
        if a == A.MAJOR_RES:
            self._take_major(p)
            self._gain(p, 18)
            return
        s_, c, k = self._group_of(a)
        if not self.g.auto_disp and len(discard_candidates(self.disp[p], comp, s_, c)) > k:
            # more face-up cards match than the group takes: the player picks them (PH_DISCARD)
            self.dsel = [a, k]
            self.ph = PH_DISCARD
            return
        self._discard_slots(p, default_discard_slots(self.disp[p], comp, s_, c, k))
        if c >= 0:
            self._gain(p, CASH[k])

    @staticmethod
    def _group_of(a):
        """(shape, colour or -1, k) of a `cash k x shape colour` / `discard k x shape` action."""
        pl = TABLE.payloads[a]
        if pl[0] == "cash":
            return pl[1], pl[2], pl[3]
        return pl[1], -1, pl[2]

    def _discard_open(self, p):
        """Slots the pending group discard may still take."""
        s_, c, _ = self._group_of(self.dsel[0])
        return discard_candidates(self.disp[p], self.g.comp, s_, c, self.dsel[2:])

    def _apply_discard_slot(self, k, p):
        """One card of the group chosen; when the choice is over (k cards, or as many left as still needed),
        the cards go to the discard pile and a same-colour group is cashed."""
        d = self.dsel
        d.append(k)
        need = d[1] - (len(d) - 2)
        if need:
            rest = self._discard_open(p)
            if len(rest) > need:
                return
            d.extend(rest[:need])
        s_, c, k = self._group_of(d[0])
        self._discard_slots(p, d[2:])
        self.dsel = []
        self.ph = PH_GAIN
        if c >= 0:
            self._gain(p, CASH[k])

    def _gain(self, p, k):
        """ "A player is limited to gaining a maximum of 30 resources in a turn." """
        self.gained[p] += k
        self.res[p] = min(RES_CAP, self.res[p] + k)

    def _discard_slots(self, p, slots):
        """The display cards of `slots` go to the discard pile (from the highest slot down)."""
        for i in sorted(slots, reverse=True):
            c = self.disp[p].pop(i)[0]
            self.room_discard.append(c)

    def _apply_buy(self, a, p):
        if a == A.BUY_DONE:
            self.res[p] = 0       # "Any resources not spent are lost."
            self.ph = PH_NONE
            return
        i = a - A.BUY
        if a >= NUM_ACTIONS:                    # `buy smoke bomb` / `buy resolution token` (Special contents)
            (smoke.buy if self.g.actions.payloads[a][0] == "buy_smoke" else resolution.buy)(self, p)
        else:
            self.res[p] -= self._price(p, i)
        if i == IT_BULLET:
            self.bullets[p] += 1
            self.bullet_pool -= 1
        elif i == IT_BREACH:
            self.t_breach[p] += 1
            self.breach_pool -= 1
        elif i == IT_DOOR:
            self.t_door[p] += 1
            self.door_pool -= 1
        elif i == IT_BARRIER:
            self.t_bar[p][0] += 1
            self.bar_pool[0] -= 1
        elif i == IT_BAR and self.g.walls:
            walls.buy_bar(self, p)
        elif i == IT_BAR:
            for b in range(3):
                if self.t_bar[p][b] > self.t_bar[p][b + 1] and self.bar_pool[b + 1] > 0:
                    self.t_bar[p][b + 1] += 1
                    self.bar_pool[b + 1] -= 1
                    break
        elif a < NUM_ACTIONS:
            t = {IT_HEART: TK_HEART, 2: TK_SHIELD, 3: TK_EXPL, IT_BOOK: TK_BOOK, 7: TK_FOUR, 8: TK_ADREN}[i]
            self.tok[p][t] += 1
            self.tok_pool[t] -= 1
        if not self._can_buy_any(p):
            self.res[p] = 0
            self.ph = PH_NONE

    def _recover(self):
        n = self.n
        for p in range(n):
            # "add X Action cubes from their reserve to their stock, where X is their Stamina value"
            if self.alive[p]:
                k = min(self.stamina(p), self.reserve[p])
                self.reserve[p] -= k
                self.stock[p] += k
        for cell in range(self.g.geo.ncells):
            b = cell * n
            for p in range(n):
                if self.cubes[b + p]:
                    self.reserve[p] += self.cubes[b + p]
                    self.cubes[b + p] = 0
            self.explored[cell] = -1
            self.searched[cell] = -1
        self.queue[0:0] = [[Q_REFILL, p] for p in self._order_from_lead()]

    def _refill(self, p):
        """Draw up to the Knowledge value; "If a player doesn't like a card he may return it to the bottom of
        the deck and draw a new one by using 1 Advantage for each card changed in this way"."""
        if not self.alive[p] or self.exited[p] or self.retired[p]:
            return
        if len(self.disp[p]) < self.knowledge(p) and len(self.disp[p]) < MAX_DISPLAY:
            c = self._draw_room()
            if c < 0:
                return
            self.disp[p].append([c, True])
            if self._refill_adv(p) and self.room_deck:
                self.ph, self.cur = PH_REFILL, p
            else:
                self.queue.insert(0, [Q_REFILL, p])

    def _refill_adv(self, p):
        """An Advantage other than the card just drawn (the card returned cannot be the one flipped)."""
        d = self.disp[p]
        up = sum(1 for c in d[:-1] if c[1])
        return up > 0 and len(d) - 1 - up < MAX_FACE_DOWN

    def _apply_refill_choice(self, a, p):
        if a == A.REDRAW:
            c = self.disp[p].pop()[0]
            self._use_adv(p)
            self._room_to_bottom(c)
            c = self._draw_room()
            if c < 0:
                return
            self.disp[p].append([c, True])
            if self._refill_adv(p) and self.room_deck:
                return
        self.ph = PH_NONE
        self.queue.insert(0, [Q_REFILL, p])
