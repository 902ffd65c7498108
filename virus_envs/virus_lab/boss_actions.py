"""Virus, PLAY AS BOSS: the Boss players' additional actions (the decision PH_BOSS).

"Additional actions. At any moment during the Slow phase, Boss players may perform the following actions:
- Activate a Boss: A Boss player may transform a Leader in the game who is not involved in combat into a Boss. The
  player must take one of his Boss cards and place it face-up on the table ... Each Boss player may only have 1 Boss
  in the game at a time.
- Deactivate a Boss: A Boss player may deactivate his Boss, but only if his Boss is not wounded. The player takes
  the corresponding Boss card back into his hand. The deactivated Boss returns to its original Leader status.
- Additional movement: Any player owning an active Boss in the game may give 1 additional movement to the Boss or
  any Creature group within the Boss's Alerted Area by taking 1 Damage with the Boss. ...
- Healing: A Boss can recover 1 Damage point if skips 1 entire turn (without doing any actions, movements, or
  combats).
- Minion transformation: A Boss player may discard one of his Boss cards to transform a Creature not involved in
  combat into an available Leader of his choice. The player's last Boss card cannot be discarded in this way.
- Adding minions: A Boss player with an active Boss may add 2 Creatures of his choice within his Boss's Alerted Area
  by taking 1 Damage with the Boss."

The window: at the start of the Slow phase (queue step Q_BOSS, before the Creature movement), each Boss player in
turn order from the Lead player acts until `boss: done` (ASSUMPTION: "at any moment" is this one window; the
movement choices of "CREATURE MOVEMENT" come during the movement itself, boss_players.ask_side). The menu actions
are appended at the end of the action table (`NAMES`); the follow-up choices (which Leader, which card, which side,
which room and Creature) are `slow option i` = the i-th entry of `bp_opts`.
"""
from __future__ import annotations

import numpy as np

from . import creatures as CR
from .actions import A
from .boss_players import (INFECT_CARDS, LEADERS, MINIONS, NK, alert_area, boss_cell, boss_index, sides, step_side)
from .flow import *  # noqa: F401,F403  (phase and queue codes)

NAMES = ("boss: done", "boss: activate a Boss", "boss: deactivate the Boss", "boss: additional movement",
         "boss: heal", "boss: minion transformation", "boss: add minions", "wound boss (1 Damage point)")
(B_DONE, B_ACTIVATE, B_DEACTIVATE, B_MOVE, B_HEAL, B_TRANSFORM, B_ADD, B_WOUND) = range(len(NAMES))
(M_NONE, M_MAIN, M_ACT, M_ACT_CARD, M_MOVE, M_MOVE_SIDE, M_TR, M_TR_LEADER, M_TR_CARD, M_ADD,
 M_INFECT) = range(11)
# what one option of each mode is (observation, boss_players.encode)
OPT_SHAPE = (None, None, "cell_kind", "card", "cell", "side", "cell_kind", "kind", "card", "cell_kind", "card")


class BossActionRules:
    """The Boss players' window of the Slow phase; the Heroes' Damage on a Boss player's Boss."""

    # -- a Hero's Successes on a Boss player's Boss ---------------------------------------------------------
    def _boss_to_wound(self, p):
        """The Boss player whose Boss p's Successes may wound by 1 Damage point (the room's next unDodged Boss is
        his and survives 1 point), or -1. "Wounded Boss: Bosses must take wounds into account, registering them
        with Bullet cubes on the Boss card": unlike the Creatures ("Creatures don't take wounds"), a Boss player's
        Boss keeps the Damage points of every roll (ASSUMPTION: Heroes' Damage too, "Deal damage (3 Successes)")."""
        if not self.g.boss_on or self.succ < 3:
            return -1
        cell = self.ranged[0] if self.ranged else self.pos[p]
        bl = [rec for rec in self.bosses if rec[0] == cell]
        nd = self.dodged[p][CR.BOSS]
        if nd >= len(bl) or self.boss_hp_left(bl[nd]) <= 1:
            return -1
        return next((q for q in range(self.n) if self.bp_boss[q] == bl[nd][2]), -1)

    def _mask_spend(self, m, p):
        super()._mask_spend(m, p)
        if self.g.boss_on:
            m[self.g.boss_base + B_WOUND] = self._boss_to_wound(p) >= 0

    def _mask_spend_any(self, p):
        return super()._mask_spend_any(p) or self._boss_to_wound(p) >= 0

    def _apply_spend(self, a, p):
        if not (self.g.boss_on and a == self.g.boss_base + B_WOUND):
            return super()._apply_spend(a, p)
        q = self._boss_to_wound(p)
        self.succ -= 3                      # "Deal damage (3 Successes)"
        self.bp_dmg[q] += 1
        if not self._mask_spend_any(p):
            self.succ = 0
            self._counter(p)

    # -- the window ----------------------------------------------------------------------------------
    def _boss_step(self):
        """Q_BOSS: the infected dead Heroes become Boss players, then each Boss player acts in turn order from the
        Lead player. The healing of last turn is over."""
        self.bp_heal = [0] * self.n
        new = self._bp_infected()
        self.bp_todo = [[q, 1 if q in new else 0] for q in self._order_from_lead() if self.bp_seat[q]]
        self._bp_next()

    def _bp_next(self):
        while self.bp_todo:
            q, infect = self.bp_todo[0]
            if infect:
                # "Player draws 2 Boss cards and immediately places one of them on his character"
                self.bp_todo[0][1] = 0
                h = len(self.bp_hand[q])
                idx = list(range(max(0, h - INFECT_CARDS), h))       # the cards just drawn (places in his hand)
                if self._infect_spot(q)[0] >= 0 and idx:
                    if len(idx) > 1:
                        return self._bp_ask(q, M_INFECT, idx)
                    self._infect_place(q, idx[0])
                continue
            self.ph, self.cur, self.bp_mode, self.bp_opts, self.bp_pick = PH_BOSS, q, M_MAIN, [], []
            m = np.zeros(self.g.num_actions, dtype=bool)
            self._mask_boss(m, q)
            if m.sum() > 1:
                return
            self.bp_todo.pop(0)             # nothing but `boss: done`: he passes without being asked
        self.ph, self.bp_mode, self.bp_opts, self.bp_pick = PH_NONE, M_NONE, [], []

    def _bp_ask(self, q, mode, opts, pick=None):
        self.ph, self.cur, self.bp_mode, self.bp_opts = PH_BOSS, q, mode, list(opts)
        if pick is not None:
            self.bp_pick = pick

    def _bp_menu(self, q):
        self._bp_ask(q, M_MAIN, [], [])

    # -- what is possible ------------------------------------------------------------------------------
    def _infect_spot(self, q):
        """(room, Leader kind) for the dead Hero's Boss: the room where he died, a Leader miniature of the reserve
        (the FAQ: "Use normal Leader Miniature over the Boss tile"); (-1, -1) when none is left or the room has no
        space for it (ASSUMPTION: the cards stay in his hand)."""
        cell = self.bp_cell[q]
        ks = [k for k in LEADERS if self.pool[k] > 0]
        if cell < 0 or not ks or CR.occupancy(self, cell) + CR.SIZE[CR.BOSS] > CR.CAPACITY:
            return -1, -1
        return cell, max(ks, key=lambda k: (self.pool[k], -k))

    def _free_leaders(self):
        """[room, Leader kind] of the Leaders "not involved in combat" (no Hero in the room)."""
        out = []
        for c in range(self.g.geo.ncells):
            if CR.heroes_in(self, c) == 0:
                out.extend([c, k] for k in LEADERS if self.cre[c * NK + k])
        return out

    def _free_minions(self):
        """[room, kind] of the Creatures (minions) not involved in combat that a Leader may replace."""
        out = []
        for c in range(self.g.geo.ncells):
            if CR.heroes_in(self, c) == 0 and CR.occupancy(self, c) + 1 <= CR.CAPACITY:
                out.extend([c, k] for k in MINIONS if self.cre[c * NK + k])
        return out

    def _area_groups(self, q):
        """Rooms of the Boss's Alerted Area holding a group that may move one room (none beside a Hero)."""
        area = alert_area(self, boss_cell(self, q))
        return [c for c in sorted(area) if CR.has_creatures(self, c) and CR.heroes_in(self, c) == 0 and sides(self, c)]

    def _add_spots(self, q):
        area = alert_area(self, boss_cell(self, q))
        ks = [k for k in MINIONS if self.pool[k] > 0]
        return [[c, k] for c in sorted(area) if CR.occupancy(self, c) + 1 <= CR.CAPACITY for k in ks]

    def _may_hurt_boss(self, q):
        """Taking 1 Damage with the Boss: ASSUMPTION: only while the Boss survives it."""
        i = boss_index(self, q)
        return i >= 0 and self.boss_hp_left(self.bosses[i]) > 1

    def _mask_boss(self, m, p):
        if self.bp_mode != M_MAIN:
            m[A.OPTION:A.OPTION + len(self.bp_opts)] = True
            return
        b = self.g.boss_base
        active = self.bp_boss[p] >= 0
        hand = self.bp_hand[p]
        m[b + B_DONE] = True
        m[b + B_ACTIVATE] = not active and bool(hand) and bool(self._free_leaders())
        m[b + B_DEACTIVATE] = active and self.bp_dmg[p] == 0
        hurt = active and self._may_hurt_boss(p)
        m[b + B_MOVE] = hurt and bool(self._area_groups(p))
        m[b + B_HEAL] = active and self.bp_dmg[p] > 0 and CR.heroes_in(self, boss_cell(self, p)) == 0
        m[b + B_TRANSFORM] = (len(hand) + active >= 2 and bool(hand) and any(self.pool[k] for k in LEADERS)
                              and bool(self._free_minions()))
        m[b + B_ADD] = hurt and bool(self._add_spots(p))

    # -- doing it -------------------------------------------------------------------------------------
    def _apply_boss(self, a, p):
        if self.bp_mode == M_MAIN:
            self._boss_menu(a - self.g.boss_base, p)
        else:
            self._boss_option(self.bp_opts[a - A.OPTION], p)

    def _boss_menu(self, k, p):
        if k == B_DONE:
            self.bp_todo.pop(0)
            self._bp_next()
        elif k == B_ACTIVATE:
            self._bp_ask(p, M_ACT, self._free_leaders())
        elif k == B_DEACTIVATE:
            self._boss_deactivate(p)
            self._bp_menu(p)
        elif k == B_MOVE:
            self._bp_ask(p, M_MOVE, self._area_groups(p))
        elif k == B_HEAL:
            # "recover 1 Damage point if skips 1 entire turn": the Boss stays this Slow phase and its player takes no
            # other action (ASSUMPTION: declared now, the turn skipped is this Slow phase's)
            self.bp_dmg[p] -= 1
            self.bp_heal[p] = 1
            self.bp_todo.pop(0)
            self._bp_next()
        elif k == B_TRANSFORM:
            self._bp_ask(p, M_TR, self._free_minions())
        else:
            self.bp_dmg[p] += 1             # "by taking 1 Damage with the Boss"
            self._bp_ask(p, M_ADD, self._add_spots(p), [2])

    def _boss_option(self, o, p):
        """One `slow option i`: a card is named by its place in his hand (so that `determinize`, resampling the
        secret cards of a hand, leaves the options as they are)."""
        mode = self.bp_mode
        hand = list(range(len(self.bp_hand[p])))
        if mode == M_ACT:
            if len(hand) > 1:
                return self._bp_ask(p, M_ACT_CARD, hand, list(o))
            self._activate(p, o[0], o[1], hand[0])
        elif mode == M_ACT_CARD:
            self._activate(p, self.bp_pick[0], self.bp_pick[1], o)
        elif mode == M_MOVE:
            return self._bp_ask(p, M_MOVE_SIDE, sides(self, o), [o])
        elif mode == M_MOVE_SIDE:
            cell = self.bp_pick[0]
            if step_side(self, cell, o) and CR.move_step(self, cell, o) >= 0:
                self.bp_dmg[p] += 1         # "by taking 1 Damage with the Boss"
        elif mode == M_TR:
            ks = [k for k in LEADERS if self.pool[k] > 0]
            if len(ks) > 1:
                return self._bp_ask(p, M_TR_LEADER, ks, list(o))
            self.bp_pick = list(o) + [ks[0]]
            if len(hand) > 1:
                return self._bp_ask(p, M_TR_CARD, hand)
            self._transform(p, hand[0])
        elif mode == M_TR_LEADER:
            self.bp_pick = self.bp_pick[:2] + [o]
            if len(hand) > 1:
                return self._bp_ask(p, M_TR_CARD, hand)
            self._transform(p, hand[0])
        elif mode == M_TR_CARD:
            self._transform(p, o)
        elif mode == M_ADD:
            c, k = o
            self.cre[c * NK + k] += 1
            self.pool[k] -= 1
            self.flat[c] = 0
            if self.armed[c]:
                self.explode(c)
            left = self.bp_pick[0] - 1
            spots = self._add_spots(p) if left and boss_index(self, p) >= 0 else []
            if spots:
                return self._bp_ask(p, M_ADD, spots, [left])
        elif mode == M_INFECT:
            self._infect_place(p, o)
            return self._bp_next()
        self._bp_menu(p)

    def _put_boss(self, p, cell, k, j):
        """A Boss of player p on the map with the j-th card of his hand, face up ("so it is visible to the other
        players")."""
        card = self.bp_hand[p].pop(j)[0]
        self.bosses.append([cell, k, card])
        self.boss_seen.append(len(self.bosses) - 1)
        self.cre[cell * NK + CR.BOSS] += 1
        self.bp_boss[p], self.bp_dmg[p] = card, 0

    def _activate(self, p, cell, k, j):
        """ "transform a Leader in the game who is not involved in combat into a Boss" """
        self.cre[cell * NK + k] -= 1
        self._put_boss(p, cell, k, j)

    def _infect_place(self, p, j):
        cell, k = self._infect_spot(p)
        self.pool[k] -= 1
        self._put_boss(p, cell, k, j)
        if self.armed[cell]:
            self.explode(cell)

    def _boss_deactivate(self, p):
        """ "The player takes the corresponding Boss card back into his hand. The deactivated Boss returns to its
        original Leader status." (The card was face up: everybody knows it is in his hand.)"""
        i = boss_index(self, p)
        rec = self.bosses.pop(i)
        self.boss_seen = [j - (1 if j > i else 0) for j in self.boss_seen if j != i]
        self.cre[rec[0] * NK + CR.BOSS] -= 1
        self.cre[rec[0] * NK + rec[1]] += 1
        self.bp_hand[p].append([rec[2], 1])
        self.bp_boss[p] = -1

    def _transform(self, p, j):
        """ "discard one of his Boss cards to transform a Creature not involved in combat into an available Leader
        of his choice" (his j-th card; it goes to the discards face down unless everybody knew it)."""
        cell, k, lead = self.bp_pick[:3]
        c, pub = self.bp_hand[p].pop(j)
        self.boss_gone.append([c, pub])
        self.cre[cell * NK + k] -= 1
        self.pool[k] += 1
        self.cre[cell * NK + lead] += 1
        self.pool[lead] -= 1
