"""Virus: the turn's flow as a queue of steps, a mixin of `game.VirusLabState`.

"There are 4 different phases: Event phase (beginning with the second turn) ... Real Time phase ... Slow phase ...
Turn end phase". The turn is a queue of steps (`flow.Q_*`); `_advance` resolves them until a decision is pending
(a phase `flow.PH_*` and its player) or the game ends; `_resume` returns from a sub-decision to the Real Time loop or
the queue; `_step` runs one step; `_finish` ends the game ("The game ends immediately when ...") and reads the
victory.
"""
from __future__ import annotations

from . import creatures as CR, drifting, morbo, pvp, scenarios, smoke, special_rooms
from .components import EF_CALM, EF_FRENZY, TK_FOUR
from .events import additional_creatures
from .final_attack import final_attack_steps
from .flow import (LAST_TURN, PH_EVENT, PH_FOUR, PH_NONE, PH_RESPAWN, Q_BOSS, Q_DAMAGE, Q_DEEP, Q_DEEP_END,
                   Q_END_RT, Q_EVENT, Q_EXTRA, Q_FINAL, Q_FOUR, Q_GAIN, Q_LATE, Q_NEXT, Q_PLACE, Q_PLACE_P, Q_PVP,
                   Q_RECOVER, Q_REFILL, Q_RESPAWN, Q_RT, Q_RT_GO, Q_SKILLS, Q_SLOW, Q_TRAP, Q_WOUNDS, RET_QUEUE,
                   RET_RT)


class StepRules:
    """The queue of steps of a turn."""

    def _advance(self):
        """Resolve automatic steps until a decision is pending or the game ends."""
        while not self.terminal and self.ph == PH_NONE:
            if not self.queue:
                self._finish()
                return
            item = self.queue.pop(0)
            self._step(item)

    def _resume(self):
        """A sub-decision finished: back to the Real Time loop or the queue."""
        self.ph = PH_NONE
        if self.ret == RET_RT and not self.terminal:
            if not self._rt_continue():
                return
        self.ret = RET_QUEUE
        self._advance()

    def _step(self, item):
        k = item[0]
        comp = self.g.comp
        if self.g.scenario and self._scenario_step(item):   # Save the Child: the Child's move (child.py) ...
            return
        if k == Q_EVENT:
            if not self.event_deck:
                self._finish()
                return
            self.event = self.event_deck.pop()
            del self.event_known[len(self.event_deck):]
            # "The Lead player draws an Event card and secretly reads it" (encoding.event_secret)
            if self.num_adv(self.lead) > 0:
                self.ph, self.cur = PH_EVENT, self.lead
            else:
                self._apply_event()
        elif k == Q_TRAP:
            self._trap_check(item[1])
        elif k == Q_EXTRA:
            x = additional_creatures(comp.event_number[self.event], self.living_heroes())
            if x and not self.g.clock:      # a rule of the "No Real Time" variant only
                # "the Lead player must place/move X additional Creatures ... ignore the room color restrictions"
                CR.place_begin(self, self.lead, [-1] * x, ignore_colour=True)
                self._place_continue()
        elif k == Q_RT:
            self._start_rt()
        elif k == Q_END_RT:
            self._end_rt()
        elif k == Q_SLOW:
            base = self.g.level
            eff = comp.event_effect[self.event] if self.event >= 0 else 0
            base += 1 if eff == EF_FRENZY else -1 if eff == EF_CALM else 0
            red, self.slow_red = self.slow_red, [0] * self.g.geo.ncells
            CR.slow_begin(self, max(0, base), red)
            self._slow_continue()
        elif k == Q_PLACE:
            # "Starting with the Lead player and proceeding in clockwise order"
            self.queue[0:0] = [[Q_PLACE_P, p] for p in self._order_from_lead()]
        elif k == Q_PLACE_P:
            p = item[1]
            cols = []
            for cell in range(self.g.geo.ncells):
                c = self.card[cell]
                if self.cubes[cell * self.n + p] and comp.is_room(c):
                    cols.append(comp.room_colour[c] if comp.room_colour[c] >= 0 else special_rooms.placing_colour(self))
            CR.place_begin(self, self._placer(p), cols)     # a Boss player may place them (boss_players.py)
            self._place_continue()
        elif k == Q_DAMAGE:
            self.ret = RET_QUEUE
            self._damage(item[1], item[2], item[3], bool(item[4]))
        elif k == Q_DEEP:
            if self.smoked:
                smoke.turn_end(self)
            # "All Heroes with 1 or more deep wounds suffer 1 additional wound"
            q = []
            for p in range(self.n):
                if self.alive[p] and (not self.exited[p] or self.exit_turn[p] == self.turn):
                    deep = [w for w in self.wounds[p] if w[2]]
                    if deep:
                        q.append([Q_WOUNDS, p, 1, 1 if any(w[1] for w in deep) else 0])
            q += morbo.wounds_step(self) if self.g.morbo else []
            self.queue[0:0] = q + [[Q_DEEP_END]]
        elif k == Q_WOUNDS:
            self.ret = RET_QUEUE
            self._take_wounds(item[1], item[2], bool(item[3]))
        elif k == Q_RT_GO:
            self._go_rt()
        elif k == Q_LATE:
            self._late_step(item[1])
        elif k == Q_SKILLS:
            self._skills_step()
        elif k == Q_BOSS:
            self._boss_step()
        elif k == Q_DEEP_END:
            if self.final or self.turn >= LAST_TURN or not any(self.active(p) for p in range(self.n)):
                self._finish()
        elif k == Q_GAIN:
            self._start_gain(item[1])
        elif k == Q_RECOVER:
            self._recover()
        elif k == Q_REFILL:
            self._refill(item[1])
        elif k == Q_RESPAWN:
            p = item[1]
            hosts = self._hosts(p)
            if not self.alive[p] and not self.exited[p] and not self.retired[p] and hosts and self.may_respawn(p):
                if len(hosts) == 1:
                    self._respawn(p, hosts[0])
                else:
                    self.ph, self.cur = PH_RESPAWN, p
        elif k == Q_FOUR:
            p = item[1]
            if self.alive[p] and self.tok[p][TK_FOUR] > 0 and self._groups():
                self.ph, self.cur = PH_FOUR, p
        elif k == Q_FINAL:
            self.queue[0:0] = final_attack_steps(self)
        elif k == Q_PVP:
            pvp.resolve(self)
        elif k == Q_NEXT:
            for p in range(self.n):
                # "For each Major Advantage spent, the player must end his game 1 turn earlier."
                if self.majors[p] and self.turn >= LAST_TURN - self.majors[p] and self.active(p):
                    self._retire(p)
            if not any(self.active(p) for p in range(self.n)):
                self._finish()
                return
            # "The player to the right of the current Lead player becomes the new Lead player"
            self.lead = (self.lead - 1) % self.n
            if self.g.boss_on:
                self._bp_turn_end()
            self.turn += 1
            self.queue = [[Q_EVENT]]
            if self.g.drifting:         # "During the Lead player sub-phase ... the new Lead player must move"
                drifting.begin(self)

    def _finish(self):
        if self.terminal:
            return
        self.terminal = True
        self.ph = PH_NONE
        q = self.antidote_out
        self.won = q >= 0 and self.alive[q] and scenarios.scenario_goal_met(self)
        self.queue = []
