"""Virus rules: Combat: the roll, its results, Successes, counter-attacks, fleeing, attacking together.

A mixin of `game.VirusLabState` (the state's fields are listed in `game._FIELDS`); split out of game.py
so that each rule family reads on its own.
"""
from __future__ import annotations

from . import creatures as CR
from . import ranged, resolution
from .actions import NUM_ACTIONS, A
from .components import TK_ADREN, TK_BOOK, TK_EXPL, TK_FOUR, TK_HEART, TK_SHIELD
from .flow import *  # noqa: F401,F403  (phase and queue codes, rule constants)

NK = CR.NK


def major_cubes(pc, nc, pb, nb, k=3):
    """A Major Advantage turns up to k negative cubes (Action cubes or bullets) positive. A positive Action cube or
    bullet does nothing but enter the Successes = positive bullets x positive Action cubes (Books and Hearts
    multiply both factors alike), so the best choice always maximises that product: each cube goes to the
    smaller factor (a balanced split), which this greedy reaches. Returns (pc, nc, pb, nb) after the change."""
    for _ in range(k):
        if nc and (not nb or pc <= pb):
            pc, nc = pc + 1, nc - 1
        elif nb:
            pb, nb = pb + 1, nb - 1
    return pc, nc, pb, nb


class CombatRules:
    """Combat: the roll, its results, Successes, counter-attacks, fleeing, attacking together."""

    def _attack_value(self, p, cell, dodged):
        """Damage of every surviving, unDodged Creature of the room."""
        comp = self.g.comp
        b = cell * NK
        tot = 0
        for k in range(8):
            m = self.cre[b + k] - (dodged[k] if dodged else 0)
            if m > 0:
                tot += m * comp.cre_damage[k]
        bl = [rec for rec in self.bosses if rec[0] == cell]
        nd = dodged[CR.BOSS] if dodged else 0
        for rec in bl[nd:]:
            tot += comp.boss_damage[rec[2]]
        return tot

    def _leave_combat(self, p):
        """Fleeing: "all unDodged Creatures ... perform an immediate attack ... In addition, 1 Damage point"."""
        cell = self.pos[p]
        if not CR.has_creatures(self, cell):
            return (0, 0)
        if cell in self.smoked:
            self.dodged[p] = [0] * NK
            return (0, 0)           # Smoke bomb: "the player may flee without taking any penalties"
        self._reveal_bosses(cell)
        amt = self._attack_value(p, cell, self.dodged[p])
        pen = 0 if self.flee_free[p] else 1
        self.dodged[p] = [0] * NK
        return (amt, pen)

    def _partners(self, p):
        """Heroes of p's room who "still have to roll" against its group this turn (not counter-attacked by it yet;
        `counter_attack="per_turn"`: not at all this turn) and can (1 Action cube at least)."""
        cell = self.pos[p]
        return [h for h in ((p + i) % self.n for i in range(1, self.n))
                if self.pos[h] == cell and not self._countered_here(h) and self.stock[h] >= 1]

    def _mask_roll(self, m, p):
        m[A.ROLL] = True
        m[A.ADD_CUBE] = self.stock[p] > 0
        m[A.ADD_BULLET] = self.bullets[p] > 0
        for t in range(6):
            m[A.ADD_TOKEN + t] = self.tok[p][t] > 0
        if self.g.resolution:
            resolution.mask_roll(self, m, p)

    def _targets(self, p):
        """Per creature kind: (undodged count present, dodge cost, kill cost)."""
        comp = self.g.comp
        cell = self.ranged[0] if self.ranged else self.pos[p]
        b = cell * NK
        out = []
        for k in range(8):
            out.append((self.cre[b + k] - self.dodged[p][k], comp.cre_dodge[k], 3 * comp.cre_hp[k]))
        bl = [rec for rec in self.bosses if rec[0] == cell]
        nd = self.dodged[p][CR.BOSS]
        if nd < len(bl):
            rec = bl[nd]
            out.append((len(bl) - nd, comp.boss_dodge[rec[2]], 3 * self.boss_hp_left(rec)))
        else:
            out.append((0, 0, 0))
        return out

    def _mask_spend(self, m, p):
        m[A.SPEND_DONE] = True
        for k, (cnt, dc, kc) in enumerate(self._targets(p)):
            if cnt > 0:
                m[A.KILL + k] = self.succ >= kc
                m[A.DODGE + k] = self.succ >= dc and not self.ranged     # a shot has no counter-attack to Dodge

    def _apply_roll(self, a, p):
        r = self.roll
        if a == A.ADD_CUBE:
            self.stock[p] -= 1
            r[0] += 1
        elif a == A.ADD_BULLET:
            self.bullets[p] -= 1
            r[1] += 1
        elif A.ADD_TOKEN <= a < A.ADD_TOKEN + 6:
            t = a - A.ADD_TOKEN
            self.tok[p][t] -= 1
            r[2 + t] += 1
        elif a >= NUM_ACTIONS:
            resolution.add(self, p)             # `roll: add resolution token`
        else:
            self._throw()
            self.ph = PH_RESULT

    def _throw(self):
        """Each element lands positive with probability p_positive. rollres = [pos cubes, neg cubes,
        pos bullets, neg bullets, pos tokens x6, neg tokens x6]."""
        r = self.roll
        rng = self.rng
        pp = self.g.p_pos
        res = [0] * 16
        for i, (pi, ni) in enumerate(((0, 1), (2, 3))):
            k = int((rng.random(r[i]) < pp).sum()) if r[i] else 0
            res[pi], res[ni] = k, r[i] - k
        for t in range(6):
            k = int((rng.random(r[2 + t]) < pp).sum()) if r[2 + t] else 0
            res[4 + t], res[10 + t] = k, r[2 + t] - k
        if self.ranged:
            ranged.penalty(res, self.ranged[1])     # Advanced Combat: the distance penalty
        if self.g.resolution:
            resolution.throw(self, rng, pp)
        self.rollres = res

    def _apply_result(self, a, p):
        rr = self.rollres
        if a == A.ADV_CUBE:
            self._use_adv(p)
            rr[0] += 1
            rr[1] -= 1
        elif a == A.ADV_BULLET:
            self._use_adv(p)
            rr[2] += 1
            rr[3] -= 1
        elif a == A.MAJOR_CUBES:
            # "During combat, a player may change ... up to 3 cubes" positive: which ones is not a real choice,
            # see major_cubes
            self._take_major(p)
            rr[0], rr[1], rr[2], rr[3] = major_cubes(rr[0], rr[1], rr[2], rr[3])
        elif a >= NUM_ACTIONS:
            resolution.fix(self, a)                 # `resolution: <element> positive`
        elif a == A.REROLL:
            # "re-roll all elements (except that Four-leaf token, which is returned to the game reserve)"
            self.roll[2 + TK_FOUR] -= 1
            self.tok_pool[TK_FOUR] += 1
            self._throw()
        else:
            self._accept_roll(p)

    def _accept_roll(self, p):
        rr, r = self.rollres, self.roll
        # "Positive Bullet cubes x positive Action cubes", Books and Hearts multiplying
        self.succ = rr[2] * (1 + rr[4 + TK_BOOK]) * rr[0] * (1 + rr[4 + TK_HEART])
        if rr[4 + TK_EXPL] and not self.ranged:
            self.flee_free[p] = True
        keep_tok = rr[4 + TK_SHIELD] > 0
        if self.g.resolution:
            resolution.settle(self, p, keep_tok)
        keep_cubes = rr[4 + TK_ADREN] > 0
        for t in range(6):
            k = r[2 + t]
            back = k - 1 if (keep_tok and t == TK_SHIELD) else (k if keep_tok else 0)
            self.tok[p][t] += back
            self.tok_pool[t] += k - back
        if keep_cubes:
            self.stock[p] += r[0]
            self.bullets[p] += r[1]
        else:
            self.reserve[p] += r[0]
            self.bullet_pool += r[1]
        self.combat_cell[p] = self.pos[p]
        if not self.ranged:
            self.dodged[p] = [0] * NK
        self.roll, self.rollres = [], []
        if self.team:
            # "Each player simultaneously rolls ... these Successes are added together, then a 1 point penalty"
            self.team_succ += self.succ
            i = self.team.index(p) + 1
            if i < len(self.team):
                h = self.team[i]
                self.stock[h] -= 1
                self.roll = [1, 0, 0, 0, 0, 0, 0, 0]
                self.ph, self.cur = PH_ROLL, h
                return
            self.succ = max(0, self.team_succ - 1)
            p = self.cur = self.team[0]
        self.ph = PH_SPEND
        if not self._mask_spend_any(p):
            self._counter(p)

    def _mask_spend_any(self, p):
        for cnt, dc, kc in self._targets(p):
            if cnt > 0 and self.succ >= (kc if self.ranged else min(dc, kc)):
                return True
        return False

    def _apply_spend(self, a, p):
        comp = self.g.comp
        cell = self.ranged[0] if self.ranged else self.pos[p]
        tg = self._targets(p)
        if A.KILL <= a < A.KILL + 9:
            k = a - A.KILL
            self.succ -= tg[k][2]
            if k == CR.BOSS:
                bl = [i for i, rec in enumerate(self.bosses) if rec[0] == cell]
                i = bl[self.dodged[p][CR.BOSS]]
                self._remove_boss(i)
            else:
                self.cre[cell * NK + k] -= 1
                self.pool[k] += 1
            if not CR.has_creatures(self, cell):
                self.flat[cell] = False
        elif A.DODGE <= a < A.DODGE + 9:
            k = a - A.DODGE
            self.succ -= tg[k][1]
            self.dodged[p][k] += 1
        else:
            self.succ = 0
        del comp
        if a == A.SPEND_DONE or not self._mask_spend_any(p):
            self.succ = 0
            self._counter(p)

    def _counter(self, p):
        """ "each surviving and unDodged Creature performs 1 attack" after the roll; attacking together,
        "Dodges are made considering the Heroes as a group" and "Damage points taken are equally divided among
        players (rounded up)"."""
        if self.ranged:
            # "The player does not suffer any Creature counter-attack"
            self.ranged = []
            self.ph = PH_NONE
            self._rt_continue()
            return
        team = self.team or [p]
        amt = self._attack_value(p, self.pos[p], self.dodged[p])
        share = -(-amt // len(team))
        for h in team:
            if self.pos[p] not in self.countered[h]:
                self.countered[h].append(self.pos[p])
            self.dodged[h] = list(self.dodged[p])
            self.combat_cell[h] = self.pos[p]
        self.team = []
        self.ph = PH_NONE
        self.rt_dmg = [[h, share, 0, 1, 1] for h in team if share > 0]
        self._rt_continue()
