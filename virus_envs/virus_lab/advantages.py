"""Virus rules: Advantages ("he flips a face-up card of his Rooms display") and the display choices they ask.

A mixin of `game.VirusLabState` (the state's fields are listed in `game._FIELDS`); split out of game.py
so that each rule family reads on its own.
"""
from __future__ import annotations

from .actions import A
from .display import default_flip_slot, default_restore_slot, flip_candidates
from .flow import *  # noqa: F401,F403  (phase and queue codes, rule constants)


class AdvantageRules:
    """Advantages: which display card pays for one, and the cards a recovered Advantage restores."""

    def _major_ok(self, p):
        """ "A player can declare a Major Advantage only if he has an additional game turn available to play";
        the Major Advantage cards (value 1, or 2 for a second one) must last."""
        if self.turn >= LAST_TURN - self.majors[p]:
            return False
        used = sum((m + 1) // 2 for m in self.majors)
        extra = 1 if self.majors[p] % 2 == 0 else 0
        return used + extra <= self.g.comp.major_cards

    def _take_major(self, p):
        self.majors[p] += 1

    def adv_available(self, p):
        """An Advantage: flip a face-up card of the Rooms display ("not more than 8 face down cards")."""
        d = self.disp[p]
        up = sum(1 for c in d if c[1])
        return up > 0 and len(d) - up < MAX_FACE_DOWN

    def num_adv(self, p):
        d = self.disp[p]
        up = sum(1 for c in d if c[1])
        return max(0, min(up, MAX_FACE_DOWN - (len(d) - up)))

    adv_paid = 0        # flips already chosen for the Advantage being applied (PH_FLIP; 0 between actions)

    def _use_adv(self, p):
        """Take an Advantage: flip a face-up display card. The card was chosen by the player beforehand
        (PH_FLIP, `adv_paid`), or, with `auto_display_choices` or no choice (as many candidates as flips), the
        documented default `display.default_flip_slot`."""
        if self.adv_paid:
            self.adv_paid -= 1
            return
        self.disp[p][default_flip_slot(self.disp[p], self.g.comp)][1] = False

    def _ask_flip(self, a, ph, p):
        """Before an action that takes Advantages: when the player has a choice of card
        (`auto_display_choices=False`, more face-up candidates than flips), ask for it (PH_FLIP) and apply the
        action after the last flip. True when asked."""
        need = 2 if ph == PH_CLUE else 1                # "Clue cards cost 2 Advantages"
        d = self.disp[p]
        # a refill redraw cannot flip the card it returns (a Net card, drawn in Real Time, is not in the display)
        limit = len(d) - 1 if ph == PH_REFILL and not self.net_left else len(d)
        if len(flip_candidates(d, limit)) <= need:
            return False
        self.flip = [ph, a, need, limit, need]
        self.ph = PH_FLIP
        return True

    def _restore(self, p, k):
        """Flip k used (face-down) display cards face up: the player's choice (PH_RESTORE) when he has one,
        else the documented default (`display.default_restore_slot`: the lowest face-down slots). True when
        asked (the Real Time action resumes after the last card)."""
        d = self.disp[p]
        down = [i for i in range(len(d)) if not d[i][1]]
        if self.g.auto_disp or len(down) <= k:
            for _ in range(min(k, len(down))):
                d[default_restore_slot(d)][1] = True
            return False
        self.flip = [PH_NONE, A.RECOVER if k == 1 else A.MAJOR_CARDS, k, len(d), k]   # (the action: for the view)
        self.ph = PH_RESTORE
        return True

    def _apply_restore(self, k, p):
        d, f = self.disp[p], self.flip
        d[k][1] = True
        f[2] -= 1
        down = [i for i in range(len(d)) if not d[i][1]]
        if f[2] and len(down) <= f[2]:
            for i in down:
                d[i][1] = True
            f[2] = 0
        if f[2] == 0:
            self.flip = []
            self._resume()

    def _display_open(self, p):
        """Slots open to the pending display choice (PH_FLIP, PH_DEATH_FLIP, PH_RESTORE, PH_DISCARD)."""
        ph, d = self.ph, self.disp[p]
        if ph == PH_DISCARD:
            return self._discard_open(p)
        if ph == PH_RESTORE:
            return [i for i in range(len(d)) if not d[i][1]]
        return flip_candidates(d, self.flip[3])

    def _apply_flip(self, k, p):
        """The chosen card goes face down; after the last flip the Advantage's action is applied (PH_FLIP), or
        the return resumes (PH_DEATH_FLIP). Flips left without a choice (every candidate must go) are made."""
        d, f = self.disp[p], self.flip
        d[k][1] = False
        f[2] -= 1
        cand = flip_candidates(d, f[3])
        if f[2] and len(cand) <= f[2]:
            for i in cand:
                d[i][1] = False
            f[2] = 0
        if f[2]:
            return
        self.flip = []
        self.ph = f[0]
        if f[1] >= 0:
            self.adv_paid = f[4]
            self._dispatch(f[1], f[0], p)
            self.adv_paid = 0
