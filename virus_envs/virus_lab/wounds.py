"""Virus rules: Wounds, Damage points, death and return.

A mixin of `game.VirusLabState` (the state's fields are listed in `game._FIELDS`); split out of game.py
so that each rule family reads on its own.
"""
from __future__ import annotations

from . import creatures as CR
from .components import TK_SHIELD
from .actions import A
from .display import default_death_flip_slot
from .flow import *  # noqa: F401,F403  (phase and queue codes, rule constants)

NK = CR.NK


class WoundRules:
    """Wounds, Damage points, death and return."""

    def _wound(self, p, face_down):
        """Draw 1 Wound card: deep when the back of the next card shows the red heart."""
        comp = self.g.comp
        if not self.alive[p]:
            return
        if not self.wound_deck and self.wound_discard:
            self.wound_deck = self.wound_discard
            self.wound_discard = []
            self.rng.shuffle(self.wound_deck)
            self.wound_known = []
        c = self.wound_deck.pop() if self.wound_deck else -1
        del self.wound_known[len(self.wound_deck):]
        deep = bool(self.wound_deck) and comp.wound_heart[self.wound_deck[-1]]
        self.wounds[p].append([c, bool(face_down), bool(deep)])
        if len(self.wounds[p]) >= self.hp_of(p):
            self._die(p)

    def _die(self, p):
        """ "As soon as a player has a number of Wound cards equal to his Hit points, his Hero dies." """
        cell = self.pos[p]
        self.alive[p] = False
        if self.antidote_holder == p:
            self.antidote_holder = -1
            self.antidote_cell = cell
        self.pos[p] = -1
        comp = self.g.comp
        self.infected_dead[p] = self.infected_dead[p] or any(
            w[1] and w[0] >= 0 and comp.wound_infection[w[0]] for w in self.wounds[p])
        self.dodged[p] = [0] * NK

    def _damage(self, p, amount, penalty=0, face_down=True):
        """Damage points: "For each Shield token spent from the player's stock, a player may negate 1 Damage
        point" (the `amount` part); the flee penalty "cannot be avoided by using Shield tokens". Creatures' Damage
        gives face-down wounds, explosions and Lasers face-up ones."""
        if not self.alive[p] or (amount <= 0 and penalty <= 0):
            return False
        if amount > 0 and self.tok[p][TK_SHIELD] > 0:
            self.dmg = [p, amount, penalty, 1 if face_down else 0]
            self.ph = PH_SHIELD
            self.cur = p
            return True
        return self._take_wounds(p, amount + penalty, face_down)

    def _take_wounds(self, p, k, face_down=True):
        """Draw k Wound cards one by one; True while the player decides on one ("he may use 1 Advantage to
        return it to the bottom of the Wound deck and draw a new Wound card")."""
        self.wpend = [p, k, 1 if face_down else 0]
        return self._draw_pending()

    def _hurt(self, p, k, face_down, damage=False):
        """k wounds from traps or explosions, taken when the current step or Real Time action ends (so that each
        Wound card may be redrawn). `damage`: they are Damage points (explosions, Lasers), which Shields may
        negate (`shields="damage_points"`); else Wound cards drawn as such (Gas)."""
        if k <= 0 or not self.alive[p]:
            return
        shield = 1 if damage and self.g.shield_all else 0
        if self.in_rt:
            self.rt_dmg.append([p, k, 0, 1 if face_down else 0, shield])
        elif shield:
            self.queue.insert(0, [Q_DAMAGE, p, k, 0, 1 if face_down else 0])
        else:
            self.queue.insert(0, [Q_WOUNDS, p, k, 1 if face_down else 0])

    def _hurt_now(self, item):
        """A pending hurt [seat, amount, penalty, face down, shieldable]; True while a decision is asked."""
        p, amount, penalty, down, shield = item
        if shield:
            return self._damage(p, amount, penalty, bool(down))
        return self._take_wounds(p, amount + penalty, bool(down))

    def _draw_pending(self):
        while self.wpend and self.wpend[1] > 0:
            p = self.wpend[0]
            if not self.alive[p]:
                break
            self.wpend[1] -= 1
            self._wound(p, bool(self.wpend[2]))
            if self._may_redraw_wound(p):
                self.ph, self.cur = PH_WOUND, p
                return True
        self.wpend = []
        return False

    def _may_redraw_wound(self, p):
        return self.alive[p] and self.num_adv(p) > 0 and bool(self.wound_deck)

    def _apply_wound_choice(self, a, p):
        """Keep the Wound card just drawn, or return it to the bottom for 1 Advantage and draw another."""
        if a == A.REDRAW:
            self._use_adv(p)
            c, down, _ = self.wounds[p].pop()
            if c >= 0:
                # at the bottom; everybody saw its back on top of the deck, and its face if it was face up
                self.wound_deck.insert(0, c)
                self.wound_known.insert(0, 0 if down else 1)
            self._wound(p, down)
            if self._may_redraw_wound(p):
                return True
        return self._draw_pending()

    def _hosts(self, p):
        """Heroes whose room can take the returning Hero (ASSUMPTION: a full room cannot; with no such room
        the dead Hero waits for the next turn end)."""
        return [h for h in range(self.n) if h != p and self.active(h) and self.alive[h]
                and CR.occupancy(self, self.pos[h]) < CR.CAPACITY]

    def _respawn(self, p, h):
        """Death: back in Hero h's room, reset as at setup but with 5 bullets, 5 Action cubes, 6 cards face down."""
        comp = self.g.comp
        self.alive[p] = True
        self.pos[p] = self.pos[h]
        self.wound_discard.extend(w[0] for w in self.wounds[p] if w[0] >= 0)
        self.wounds[p] = []
        for t in range(6):
            self.tok_pool[t] += self.tok[p][t]
            self.tok[p][t] = 0
        self.smoke_pool += self.smoke[p]        # Smoke bombs and Resolution tokens are tokens too (special contents)
        self.resol_pool += self.resol[p]
        self.smoke[p] = self.resol[p] = 0
        self.door_pool += self.t_door[p]
        self.breach_pool += self.t_breach[p]
        self.t_door[p] = self.t_breach[p] = 0
        for b in range(4):
            self.bar_pool[b] += self.t_bar[p][b]
            self.t_bar[p][b] = 0
        self._penalty_cubes(p)
        # ASSUMPTION: the dead Hero's Rooms display and Net cards (seen by all) go to the bottom of the deck
        for c, _ in self.disp[p]:
            self._room_to_bottom(c)
        for c in reversed(self.net[p]):
            self._room_to_bottom(c)
        self.disp[p], self.net[p] = [], []
        while len(self.disp[p]) < 8 and self.room_deck:
            self.disp[p].append([self._pop_room(), True])
        self._death_flips(p)
        del comp

    def _penalty_cubes(self, p):
        """ "Take just 5 bullet cubes and 5 Action cubes in his stock" (the others to the reserves)."""
        self.bullet_pool += self.bullets[p]
        self.bullets[p] = min(5, self.bullet_pool)
        self.bullet_pool -= self.bullets[p]
        tot = self.stock[p] + self.reserve[p]
        self.stock[p] = min(5, tot)
        self.reserve[p] = tot - self.stock[p]

    def _death_flips(self, p):
        """ "Flip 6 room cards face down on the player's Rooms display": his choice, card by card (PH_DEATH_FLIP);
        the documented default (the first six cards) with `auto_display_choices` or 6 cards or fewer."""
        d = self.disp[p]
        if self.g.auto_disp or len(d) <= 6:
            for _ in range(min(6, len(d))):
                d[default_death_flip_slot(d)][1] = False
        else:
            self.flip = [PH_NONE, -1, 6, len(d), 6]
            self.ph, self.cur = PH_DEATH_FLIP, p

    def _retire(self, p):
        """The Hero's game ends (Major Advantages): ASSUMPTION: he leaves the map without exiting."""
        cell = self.pos[p]
        if self.antidote_holder == p:
            self.antidote_holder = -1
            self.antidote_cell = cell
        self.pos[p] = -1
        self.retired[p] = True
