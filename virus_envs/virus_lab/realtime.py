"""Virus rules: the Real Time phase ("No Real Time": in turn from the Lead, one action at a time): its start
(traps), its actions and their mask, its end (counter-attacks, Adrenaline), a Hero entering a room.

A mixin of `game.VirusLabState` (the state's fields are listed in `game._FIELDS`); split out of game.py
so that each rule family reads on its own.
"""
from __future__ import annotations

from . import creatures as CR
from . import ranged, smoke, spy
from .actions import A, GIFTS, MAX_DISPLAY, MAX_NET, NSLOT, NUM_ACTIONS, TABLE, explore_id
from .board import DOOR_CLOSED, connected, fits, mismatches
from .components import (EF_BLACKOUT, EF_LOCKDOWN, EF_REBOOT, SP_AMMO, SP_FIRST_AID, SP_NET, TK_ADREN,
                         TR_GAS, TR_LASERS)
from .flow import *  # noqa: F401,F403  (phase and queue codes, rule constants)

NK = CR.NK


class RealTimeRules:
    """The Real Time phase: start, actions, mask, end."""

    def _rt_continue(self):
        """After a Real Time action: pending Damage (shield decisions), Clue draws, the Antidote, then the next
        player. False when a decision interrupts (the Real Time loop resumes after it)."""
        while self.rt_dmg:
            if self._hurt_now(self.rt_dmg.pop(0)):
                self.ret = RET_RT
                return False
        if self.terminal:
            return True
        if self.clue_pending and self._draw_clue():
            self.ret = RET_RT
            return False
        self._check_antidote()
        self.ph = PH_NONE
        self.cur = self.rt_actor
        self.ret = RET_QUEUE
        self._rt_next()
        return True

    def _start_rt(self):
        comp = self.g.comp
        self.in_rt = False
        self.sp_uses = bytearray(self.g.geo.ncells)
        self.act_exit = [[], []]
        for p in range(self.n):
            self.countered[p] = []
            self.combat_cell[p] = -1
            self.flee_free[p] = False
            self.dodged[p] = [0] * NK
            self.adren[p] = 0
            self.passed[p] = not self.active(p)
        # traps: "Every Creature or Hero in the room at the beginning of the Real Time phase"
        for cell in range(self.g.geo.ncells):
            if self.trapside[cell]:
                t = comp.room_trap[self.card[cell]]
                if t == TR_LASERS:
                    CR._kill_one_hp(self, cell)
                for p in range(self.n):
                    if self.pos[p] == cell:
                        self._trap_hurts(p, t)
        # the trap wounds (queued at the front by _hurt) are drawn first, then the phase starts
        i = 0
        while i < len(self.queue) and self.queue[i][0] in (Q_WOUNDS, Q_DAMAGE):
            i += 1
        self.queue.insert(i, [Q_RT_GO])

    def _go_rt(self):
        for p in range(self.n):
            self.passed[p] = not self.active(p)
        self.queue.insert(0, [Q_END_RT])
        self.in_rt = True
        self.cur = (self.lead - 1) % self.n
        self._rt_next()

    def _rt_next(self):
        """Next player who has not passed, after the current one; the phase ends when all have passed."""
        for i in range(1, self.n + 1):
            p = (self.cur + i) % self.n
            if not self.passed[p] and self.active(p):
                self.cur = p
                self.ph = PH_ACT
                return
        self.in_rt = False
        self.ph = PH_NONE

    def search_cubes(self, p):
        """ "SEARCH. Spend 3 Action cubes" (a Skill may lower it: skills.py)."""
        return 3

    def _countered_here(self, p):
        """Has the Creature group p stands against counter-attacked him this turn? "at least 1 Creature
        counter-attack must be done for each turn also if the player doesn't attack", for each group the Hero
        stands against (`counter_attack="per_group"`); `"per_turn"`: any counter-attack this turn counts."""
        if self.g.per_turn_counter:
            return bool(self.countered[p])
        return self.pos[p] in self.countered[p]

    def _end_rt(self):
        dq = []
        for p in range(self.n):
            # "at least 1 Creature counter-attack must be done for each turn also if the player doesn't attack.
            # In this case the counter-attack is done as soon the countdown expires."
            if self.active(p) and self.in_combat(p) and not self._countered_here(p) and self.pos[p] not in self.smoked:
                self._reveal_bosses(self.pos[p])
                dq.append([Q_DAMAGE, p, self._attack_value(p, self.pos[p], None), 0, 1])
            if self.combat_cell[p] >= 0 and self.reserve[p] > 0:
                # "place 1 Action cube used in combat, if any, on the room"
                self.reserve[p] -= 1
                self.cubes[self.combat_cell[p] * self.n + p] += 1
            if self.adren[p]:
                # "At the end of countdown, the player must discard all Action cubes from his stock and return them
                # to his reserve and draw 1 Wound card and place it face-up": 1 Wound card for each token used
                self.reserve[p] += self.stock[p]
                self.stock[p] = 0
                dq.append([Q_WOUNDS, p, self.adren[p], 0])
        if not any(self.active(p) for p in range(self.n)):
            self.final = True
            self.queue = dq + [[Q_DEEP]]
            return
        # Additional Final Attack: "at the beginning of Slow Phase" (before the Four-leaf tokens and the movement)
        dq += [[Q_FINAL]] if self.g.final_attack else []
        dq += [[Q_BOSS]] if self.g.boss_on else []     # the Boss players' actions (boss_actions.py)
        self.queue = dq + [[Q_FOUR, p] for p in self._order_from_lead()] + [[Q_SLOW], [Q_PLACE], [Q_DEEP]] + [
            [Q_GAIN, p] for p in self._order_from_lead()] + [[Q_RECOVER]] + [
            [Q_RESPAWN, p] for p in self._order_from_lead()] + [[Q_NEXT]]

    def _reveal_bosses(self, cell):
        """ "Keep the Boss card hidden until a Hero interacts with the Boss (moves up its room or performs a ranged
        attack)": a Hero entering its room, attacking its group, or attacked by it (its Damage is then known)."""
        for i, rec in enumerate(self.bosses):
            if rec[0] == cell and i not in self.boss_seen:
                self.boss_seen.append(i)

    def _trap_hurts(self, p, t):
        """Lasers: "immediately suffers 1 Damage point. Affected players draw a face-up Wound card" (Damage points:
        Shields may negate them); Gas: "immediately draws 1 face-down Wound card" (a Wound card, no Damage point)."""
        if t == TR_LASERS:
            self._hurt(p, 1, False, damage=True)
        elif t == TR_GAS:
            self._hurt(p, 1, True)

    def _enter(self, p, y):
        """Hero p enters room y: traps, Bosses revealed."""
        self.pos[p] = y
        self._reveal_bosses(y)
        if self.trapside[y]:
            self._trap_hurts(p, self.g.comp.room_trap[self.card[y]])
        if self.armed[y] and self.alive[p]:
            self.explode(y)

    def _mask_act(self, m, p):
        g, geo, comp = self.g, self.g.geo, self.g.comp
        m[A.PASS] = True
        cell = self.pos[p]
        st = self.stock[p]
        combat = CR.has_creatures(self, cell)
        eff = comp.event_effect[self.event] if self.event >= 0 else 0
        if st >= 1:
            for d in range(4):
                y = geo.NB[cell][d]
                if y < 0:
                    continue
                e = geo.EDGE[cell][d]
                if self.door[e] == DOOR_CLOSED or self.barrier[e]:
                    continue
                if self.card[y] >= 0:
                    if connected(geo, self.doors, self.breach, cell, d) >= 0 and CR.occupancy(self, y) < CR.CAPACITY:
                        m[A.MOVE + d] = True
                elif self.breach[e] or (self.doors[cell] >> d) & 1:
                    self._mask_explore(m, p, d, y, combat)
        if combat and cell not in self.smoked:      # "no combat may take place in that room during this turn"
            m[A.ATTACK] = st >= 1
            m[A.TOGETHER] = st >= 1 and not self._countered_here(p) and bool(self._partners(p))
        if g.smoke:
            m[smoke.use_id(g)] = smoke.can_use(self, p)
        if not combat and st >= self.search_cubes(p) and self.searched[cell] < 0 and eff != EF_BLACKOUT:
            m[A.SEARCH] = True
        cost = 2 if combat else 1
        if st >= cost:
            c = self.card[cell]
            if c == EXIT_CARD:
                i = self.exit_cells.index(cell)
                m[A.ACTIVATE] = eff != EF_REBOOT and not self.exit_open and p not in self.act_exit[i]
            elif c == SCEN_CARD:            # Reboot: deactivate the Computer Room (scenarios.py)
                m[A.ACTIVATE] = self._may_deactivate(p, cell)
            elif 0 <= c < comp.num_rooms and not self.trapside[cell] and eff != EF_LOCKDOWN \
                    and self.sp_uses[cell] < 3:
                sp = comp.room_special[c]
                if sp == SP_FIRST_AID:
                    m[A.ACTIVATE] = any(w[2] for w in self.wounds[p])
                elif sp == SP_AMMO:
                    m[A.ACTIVATE] = self.bullet_pool > 0
                elif sp == SP_NET:
                    m[A.ACTIVATE] = len(self.net[p]) + 2 <= MAX_NET and len(self.room_deck) >= 2
        if st >= 1 and not combat:
            m[A.PICKUP] = self.antidote_cell == cell
            m[A.EXIT] = self.card[cell] == START_CARD and self.exit_open
        # "Use an Adrenaline token": no limit per turn
        m[A.ADREN] = self.tok[p][TK_ADREN] > 0 and self.reserve[p] > 0
        m[A.RECOVER] = st >= 3 and any(not c[1] for c in self.disp[p])
        m[A.MAJOR_CARDS] = any(not c[1] for c in self.disp[p]) and self._major_ok(p)
        if not combat:
            if g.ranged:
                ranged.mask(self, m, p)     # Advanced Combat: "if he is not directly involved in combat"
            if st >= 1:
                self._mask_tiles(m, p, cell)
            self._mask_give(m, p, cell)

    def _mask_explore(self, m, p, d, y, combat):
        g, geo, comp = self.g, self.g.geo, self.g.comp
        slots = [(k, c) for k, (c, up) in enumerate(self.disp[p]) if up] + \
                [(MAX_DISPLAY + k, c) for k, c in enumerate(self.net[p])]
        # the Breach placed with the card is the "Open a Breach" action: a tile from the stock, "only available
        # outside of combat", and (`breach_explore_cube`) its own Action cube
        breach_ok = self.t_breach[p] > 0 and not combat and self.stock[p] >= 1 + self.g.breach_cube
        for k, c in slots:
            seen = set()
            lab = comp.room_lab[c] if c < comp.num_rooms else -1
            for r in range(4):
                mk = g.rot_doors[c][r]
                # rotations giving the same doorways are one placement, unless the lab symbol moves
                key = (mk, (lab + r) % 4) if lab >= 0 else mk
                if key in seen:
                    continue
                seen.add(key)
                if fits(geo, self.card, self.doors, self.breach, y, mk):
                    m[explore_id(d, k, r)] = True
                elif breach_ok and len(mismatches(geo, self.card, self.doors, self.breach, y, mk)) == 1:
                    # "It is possible to break this rule ONLY by simultaneously placing a Breach on a wall which
                    # is adjacent to a doorway."
                    m[explore_id(d, k, r)] = True

    def _apply_act(self, a, p):
        g, geo, comp = self.g, self.g.geo, self.g.comp
        cell = self.pos[p]
        self.rt_actor = p
        self.ret = RET_RT
        pending = False
        if a == A.PASS:
            self.passed[p] = True
        elif A.MOVE <= a < A.MOVE + 4 or A.EXPLORE <= a < A.EXPLORE + 4 * NSLOT * 4:
            if a < A.EXPLORE:
                d = a - A.MOVE
                y = geo.NB[cell][d]
            else:
                _, d, k, r = TABLE.payloads[a]
                y = geo.NB[cell][d]
                if k < MAX_DISPLAY:
                    c = self.disp[p].pop(k)[0]
                else:
                    c = self.net[p].pop(k - MAX_DISPLAY)
                bad = mismatches(geo, self.card, self.doors, self.breach, y, g.rot_doors[c][r])
                if bad:
                    # "simultaneously placing a Breach": "OPEN A BREACH. Spend 1 Action cube (placing it in the
                    # room) to place a Breach tile from your stock" (the cube goes to the new room, where the
                    # Breach is and the Hero ends; `breach_explore_cube=False`: no cube for it)
                    self.t_breach[p] -= 1
                    self.breach[geo.EDGE[y][bad[0]]] = 1
                    if g.breach_cube:
                        self._move_cubes(p, 1, y)
                self._put(y, c, r, False)
                self.explored[y] = p
            amt, pen = self._leave_combat(p)
            self._move_cubes(p, 1, y)
            self.pos[p] = y
            self._leave(p, cell)
            self._enter(p, y)
            if a >= A.EXPLORE and comp.room_lab[self.card[y]] >= 0:
                self._check_lab(p, y)
            if amt or pen:
                pending = self._damage(p, amt, pen, True)
        elif a == A.SEARCH:
            self._move_cubes(p, self.search_cubes(p), cell)
            self.searched[cell] = p
        elif a == A.ACTIVATE:
            combat = CR.has_creatures(self, cell)
            self._move_cubes(p, 2 if combat else 1, cell)
            c = self.card[cell]
            if c == EXIT_CARD:
                self.act_exit[self.exit_cells.index(cell)].append(p)
                self._check_exit_open()
                pending = self.ph == PH_SCENARIO    # Reboot: the Computer Room is placed now (scenarios.py)
            elif c == SCEN_CARD:
                self._deactivate(p, cell)
            else:
                self.sp_uses[cell] += 1
                sp = comp.room_special[c]
                if sp == SP_FIRST_AID:
                    # "transfer 1 wound from his deep wounds space to his normal wounds space"
                    for w in self.wounds[p]:
                        if w[2]:
                            w[2] = False
                            break
                elif sp == SP_AMMO:
                    k = min(3, self.bullet_pool)
                    self.bullets[p] += k
                    self.bullet_pool -= k
                elif sp == SP_NET:
                    # "draw 2 room cards", one at a time (each may be redrawn with an Advantage)
                    self.net_left = 2
                    pending = self._net_draw(p)
        elif a == A.PICKUP:
            self._move_cubes(p, 1, cell)
            self.antidote_cell = -1
            self.antidote_holder = p
            if g.spy:
                spy.verify(self, p)         # Spy Mode: "all players must show their clue cards for a verification"
        elif a == A.EXIT:
            self._move_cubes(p, 1, cell)
            self.pos[p] = -1
            self._leave(p, cell)
            self.exited[p] = True
            self.exit_turn[p] = self.turn
            self.exit_order.append(p)
            self.passed[p] = True
            if self.antidote_holder == p:
                self.antidote_out = p
        elif a == A.ADREN:
            self.tok[p][TK_ADREN] -= 1
            self.tok_pool[TK_ADREN] += 1
            k = min(7, self.reserve[p])
            self.reserve[p] -= k
            self.stock[p] += k
            self.adren[p] += 1
        elif a == A.RECOVER:
            # No Real Time: "pay 3 Action cubes ... to recover 1 Advantage. Place the cubes in the player reserve."
            # "The player then flips 1 ... room card(s) from his display face up"
            self.stock[p] -= 3
            self.reserve[p] += 3
            pending = self._restore(p, 1)
        elif a == A.MAJOR_CARDS:
            # "For a Major Advantage, restore 3 used room cards on the Rooms display by flipping them face up."
            self._take_major(p)
            pending = self._restore(p, 3)
        elif A.BARRIER <= a < A.EXPLOSIVES + 3:   # barrier, unbar, doors, breach, explosives
            self._apply_tile(a, p, cell)
        elif A.GIVE <= a < A.GIVE + 4 * len(GIFTS):
            i, h = divmod(a - A.GIVE, 4)
            self._give(p, h, i)
        elif a == A.ATTACK:
            self._reveal_bosses(cell)
            self.stock[p] -= 1
            self.roll = [1, 0, 0, 0, 0, 0, 0, 0]
            self.ph = PH_ROLL
            self.team = []
            pending = True
        elif a >= NUM_ACTIONS:              # the advanced elements' actions, appended to the table
            if g.actions.payloads[a][0] == "ranged":
                ranged.start(self, a, p)    # `ranged attack <side> distance <k>` (ranged.py)
                pending = True
            else:
                smoke.use(self, p)          # `use smoke bomb` (smoke.py)
        elif a == A.TOGETHER:
            # "If they all still have to roll, players can attack the same target together."
            self._reveal_bosses(cell)
            self.team = [p] + self._partners(p)
            self.team_succ = 0
            for h in self.team:
                self.dodged[h] = [0] * NK
            self.stock[p] -= 1
            self.roll = [1, 0, 0, 0, 0, 0, 0, 0]
            self.ph = PH_ROLL
            pending = True
        if self.terminal:
            return
        if pending:
            self.ret = RET_RT
            return
        self._rt_continue()


    def _net_draw(self, p):
        """The Net's cards, one at a time; True while the player decides to keep the card just drawn or "return to
        the bottom of the deck the card he just drew and draw a new one" (1 Advantage; Net cards are no
        Advantages themselves). `net_left` counts the cards not kept yet (the one being decided included)."""
        while self.net_left > 0:
            c = self._draw_room()
            if c < 0:
                self.net_left = 0
                return False
            self.net[p].append(c)
            if self.num_adv(p) > 0 and self.room_deck:
                self.ph, self.cur = PH_REFILL, p
                return True
            self.net_left -= 1
        return False

    def _apply_net_choice(self, a, p):
        if a == A.REDRAW:
            self._use_adv(p)
            self._room_to_bottom(self.net[p].pop())
            self.net[p].append(self._draw_room())
            if self.num_adv(p) > 0 and self.room_deck:
                return
        self.net_left -= 1
        self.ph = PH_NONE
        if not self._net_draw(p):
            self._resume()
