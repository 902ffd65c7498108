"""Virus: the Real Time phase against a simulated countdown (config `real_time=True`; the default is the official
"No Real Time" variant).

The time model (docs/rules/virus_lab.md, Assumptions "Real Time clock"):
- The phase "lasts some seconds depending on Hero numbers and difficulty level used": `countdown` seconds from
  `data/realtime.yaml` (per difficulty and number of Heroes; designed, the rulebook prints no number) or the
  config key `rt_countdown`.
- "Actions are performed simultaneously by all players": each player has his own clock (seconds used this
  phase). Each Real Time action costs its documented seconds (`data/realtime.yaml` `seconds`, config `rt_costs`);
  the next action is taken by the player whose clock is earliest (ties: from the Lead player clockwise), so the
  actions happen in the order they would start at the table. Reproducible: no wall clock is read.
- "When the countdown ends ... any actions not fully completed must be canceled": an action is legal only when it
  ends within the countdown; a player with less time left than the cheapest action is done for the phase.
- Combat: the roll costs its seconds; the rest of a combat (Advantages on the result, Successes, Shields, the
  counter-attack) is free ("All rolls completed before the Real Time countdown ends are valid").
- "RECOVERING. A player may recover 1 spent Advantage by starting his Real Time phase 15 seconds later (or 2
  Advantages by starting 30 seconds later). The player must declare this intention to the other players before
  players start the Real Time phase": before the phase, each player with a face-down display card declares (from
  the Lead, PH_LATE: `keep` = start now, `recover advantage` = 15 s later and one card face up, twice for 30 s).
- The "No Real Time" variant's own rules are off: no `recover advantage` for 3 Action cubes in the phase, no
  Additional Creatures after the Event phase.

A mixin of `game.VirusLabState` (before `RealTimeRules`, whose phase loop it times); its fields (`clock`, `late`,
`countdown`) exist only with `real_time=True` (`game.extra_fields`).
"""
from __future__ import annotations

import os

import numpy as np

from ..core.data import load_yaml
from ..core.validate import check_int, check_ints
from .actions import A, TABLE
from .boss_players import seat_slot
from .components import DATA_DIR
from .flow import *  # noqa: F401,F403  (phase and queue codes)

# "starting his Real Time phase 15 seconds later (or 2 Advantages by starting 30 seconds later)"
LATE_STEP, LATE_MAX = 15, 30
COST_KEYS = ("move", "explore", "search", "activate", "pickup", "exit", "adrenaline", "major", "tile", "give",
             "attack")
# action-table payload name -> cost key
_KIND = {"move": "move", "explore": "explore", "search": "search", "activate": "activate", "pickup": "pickup",
         "exit": "exit", "adrenaline": "adrenaline", "major_cards": "major", "barrier": "tile", "unbar": "tile",
         "door": "tile", "toggle": "tile", "breach": "tile", "explosives": "tile", "give": "give",
         "attack": "attack", "together": "attack", "ranged": "attack", "smoke": "activate",
         "pvp_attack": "attack"}
FIELDS = ("clock", "late", "countdown")
CLOCK_F = 2 + 4 * 3


def load_clock(data_dir: str | None):
    """(countdown {difficulty: [seconds for 1..4 Heroes]}, seconds {cost key: int}) from `realtime.yaml` of
    data_dir when it holds one, else the built-in file. ValueError names the file and the field."""
    path = os.path.join(data_dir or DATA_DIR, "realtime.yaml")
    if not os.path.exists(path):
        path = os.path.join(DATA_DIR, "realtime.yaml")
    d = load_yaml(path)
    name = os.path.basename(path)

    def bad(field, msg):
        return ValueError(f"{name}: field {field!r}: {msg}")

    cd = d.get("countdown")
    if not isinstance(cd, dict) or sorted(cd) != [1, 2, 3]:
        raise bad("countdown", "must map difficulty 1, 2, 3 to seconds")
    table = {}
    for lv, row in cd.items():
        if not isinstance(row, list) or len(row) != 4 or any(
                isinstance(x, bool) or not isinstance(x, int) or not 10 <= x <= 3600 for x in row):
            raise bad(f"countdown.{lv}", "must list 4 ints (1-4 Heroes), 10..3600 seconds")
        table[lv] = list(row)
    sec = d.get("seconds")
    if not isinstance(sec, dict) or sorted(sec) != sorted(COST_KEYS):
        raise bad("seconds", f"must give exactly {COST_KEYS}")
    for k, x in sec.items():
        if isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= 600:
            raise bad(f"seconds.{k}", f"must be an int 1..600, got {x!r}")
    return table, dict(sec)


def parse_costs(text: str) -> dict:
    """`"move=2,explore=6"` -> {"move": 2, "explore": 6}; ValueError naming the config key `rt_costs`."""
    out = {}
    for part in filter(None, (x.strip() for x in text.split(","))):
        k, eq, v = part.partition("=")
        k = k.strip()
        if not eq or k not in COST_KEYS:
            raise ValueError(f"config key 'rt_costs': {part!r} is not <action>=<seconds> with <action> in {COST_KEYS}")
        try:
            out[k] = int(v)
        except ValueError:
            raise ValueError(f"config key 'rt_costs': {part!r}: seconds must be an int") from None
        if not 1 <= out[k] <= 600:
            raise ValueError(f"config key 'rt_costs': {part!r}: seconds must be 1..600")
    return out


def configure(g) -> None:
    """Game set-up of the clock (called by `VirusLabGame._validate_config`): `g.clock`, the countdown table, the
    cost of every action id (`g.rt_cost`, 0 for the ids outside the Real Time phase) and the cheapest action."""
    c = g.config
    g.clock = bool(c["real_time"])
    if not g.clock:
        return
    try:
        table, sec = load_clock(c["data_dir"] or None)
    except ValueError as e:
        raise ValueError(f"config key 'data_dir': {e}") from None
    sec.update(parse_costs(c["rt_costs"]))
    g.rt_table, g.rt_seconds = table, sec
    g.rt_cost = action_costs(TABLE, sec)
    g.rt_min_cost = min(sec.values())


def action_costs(table, sec: dict) -> np.ndarray:
    """Seconds of every action id of `table` (the base table, or one the advanced elements of issue 15
    extended: a ranged attack costs an attack's seconds, throwing a Smoke bomb an activation's; the
    Resolution tokens are combat sub-decisions and free; buying happens at turn end)."""
    cost = np.zeros(len(table), dtype=np.int32)
    for a in range(len(table)):
        k = _KIND.get(table.payloads[a][0])
        if k:
            cost[a] = sec[k]
    return cost


def countdown_for(g, heroes: int) -> int:
    """Seconds of a Real Time phase: `rt_countdown`, else the table by difficulty and number of Heroes."""
    if g.config["rt_countdown"]:
        return g.config["rt_countdown"]
    return g.rt_table[g.level][min(max(heroes, 1), 4) - 1]


class ClockRules:
    """The countdown: late starts, the earliest clock acts next, actions cost seconds."""

    def num_heroes(self):
        """Heroes in the game (the countdown depends on "Hero numbers"; Boss players are not Heroes)."""
        return self.g.num_heroes

    def time_left(self, p):
        return self.countdown - self.clock[p]

    # -- before the phase: late starts -------------------------------------------------------------
    def _start_rt(self):
        super()._start_rt()
        if not self.g.clock:
            return
        self.countdown = countdown_for(self.g, self.num_heroes())
        self.clock = [0] * self.n
        self.late = [0] * self.n
        # "The player must declare this intention to the other players before players start the Real Time phase"
        i = next(k for k, item in enumerate(self.queue) if item[0] == Q_RT_GO)
        self.queue[i:i] = [[Q_LATE, p] for p in self._order_from_lead()]

    def _may_start_late(self, p):
        return self.active(p) and self.late[p] < LATE_MAX and any(not c[1] for c in self.disp[p])

    def _late_step(self, p):
        if self._may_start_late(p):
            self.ph, self.cur = PH_LATE, p

    def _mask_late(self, m, p):
        m[A.KEEP] = True                    # start with the others
        m[A.RECOVER] = self._may_start_late(p)

    def _apply_late(self, a, p):
        self.ph = PH_NONE
        if a == A.RECOVER:
            # "recover 1 spent Advantage by starting his Real Time phase 15 seconds later ... The player then flips
            # 1 (or 2) room card(s) from his display face up"
            self.late[p] += LATE_STEP
            self.clock[p] = self.late[p]
            self.queue.insert(0, [Q_LATE, p])       # he may declare 15 s more (30 s: 2 Advantages)
            self.ret = RET_QUEUE
            self._restore(p, 1)

    # -- the phase --------------------------------------------------------------------------------
    def _rt_next(self):
        """The player whose clock is earliest acts next (ties: from the Lead player clockwise); a player whose
        countdown has no room for the cheapest action is done; the phase ends when every player is."""
        if not self.g.clock:
            return super()._rt_next()
        best, need = -1, self.g.rt_min_cost
        for i in range(self.n):
            p = (self.lead + i) % self.n
            if self.passed[p] or not self.active(p):
                continue
            if self.countdown - self.clock[p] < need:
                self.passed[p] = True       # "until the countdown ends"
                continue
            if best < 0 or self.clock[p] < self.clock[best]:
                best = p
        if best < 0:
            self.in_rt = False
            self.ph = PH_NONE
            return
        self.cur = best
        self.ph = PH_ACT

    def _mask_act(self, m, p):
        super()._mask_act(m, p)
        if not self.g.clock:
            return
        # "any actions not fully completed must be canceled": only actions that end within the countdown
        m &= self.g.rt_cost <= self.countdown - self.clock[p]
        m[A.PASS] = True
        m[A.RECOVER] = False                # "pay 3 Action cubes ... to recover 1 Advantage" is No Real Time's

    def _partners(self, p):
        ps = super()._partners(p)
        if not self.g.clock:
            return ps
        # each Hero rolling together rolls at the table: his own roll's seconds
        need = self.g.rt_cost[A.ATTACK]
        return [h for h in ps if not self.passed[h] and self.countdown - self.clock[h] >= need]

    def _apply_act(self, a, p):
        if self.g.clock and a != A.PASS:
            cost = int(self.g.rt_cost[a])
            team = self._partners(p) if a == A.TOGETHER else []
            for h in [p] + team:
                self.clock[h] += cost
        super()._apply_act(a, p)


# -- observation, view, loader ---------------------------------------------------------------------------
def encode(s, p, out) -> None:
    """The `clock` block: countdown/300, declaring a late start; per relative seat: clock, time left (both /
    countdown), late start/30."""
    cd = max(1, s.countdown)
    out[0] = s.countdown / 300
    out[1] = s.ph == PH_LATE and not s.terminal
    for q in range(s.n):
        if seat_slot(s, q, p) < 0:      # a Boss player has no clock (he acts in the Slow phase only)
            continue
        j = 2 + 3 * seat_slot(s, q, p)
        out[j:j + 3] = (s.clock[q] / cd, max(0, s.countdown - s.clock[q]) / cd, s.late[q] / LATE_MAX)


def view(s) -> dict:
    return {"countdown": s.countdown, "used": list(s.clock), "left": [max(0, s.countdown - x) for x in s.clock],
            "late_start": list(s.late)}


def validate(g, d) -> None:
    env, n = g.env_id, g.num_players
    cd = check_int(env, "countdown", d["countdown"], 0, 3600)
    check_ints(env, "clock", d["clock"], n, 0, cd + 600)
    late = check_ints(env, "late", d["late"], n, 0, LATE_MAX)
    if any(x % LATE_STEP for x in late):
        raise ValueError(f"{env}: field 'late': a late start is 0, 15 or 30 seconds, got {late!r}")
