"""Advanced Combat: Player vs Player (config `pvp=True`, "only for Spy mode variant": needs `spy=True`).

"A player not involved in combat may attack another player. The attacking player must declare the attack, the
target, and the distance (if any). He then rolls for the attack. The target player may act as he wishes. If he roll
a counter-attack, he must declare his intention and the distance (if any), provided he is not involved in another
combat and the countdown is not expired.
- PvP Combat allows player to do multiple attacks in the same turn.
- If a player flee a not-ranged combat, he takes 1 wound as penalty.
- Players must declare their roll results (Dodges/Damage points dealt) and register them. PvP Damage points and
  Dodges are applied at the beginning of the Slow phase. ...
Important! Any Wound card taken from player vs player combat is face up if the player who caused it has no wounds
or only face-up wounds; conversely they are face down if the attacking player has 1 or more face-down wounds."

Actions (appended, `ranged.action_table`): `attack player <h>` (Real Time, out of combat: Hero h in the same room,
distance 0, or in a sight line at distance k, the ranged attack's line and penalty: `ranged.sight_line`,
`ranged.penalty`), then the roll as any attack, then `pvp: damage point` (3 Successes) and `pvp: dodge` (1 Success)
registered against the target, `successes done`. A counter-attack is the target's own `attack player` when his turn
comes ("The target player may act as he wishes").
State (only with `pvp=True`): `pvp` ([target, distance] of the attack being rolled), `pvp_dmg[a][t]` and
`pvp_dodge[a][t]` (registered this turn by a against t), `pvp_melee` ([a, t] attacks at distance 0 whose combat is
on), `pvp_flee` ([seat, opponent] flight penalties this turn). At the beginning of the Slow phase (`Q_PVP`) each
target takes the Damage points registered against him less his own Dodges against that attacker.
The rules decided where the text is silent are assumptions 43-45 of docs/rules/virus_lab.md.
"""
from __future__ import annotations

from . import ranged
from .boss_players import seat_slot
from .actions import A
from .flow import PH_NONE, PH_ROLL, Q_DAMAGE, Q_PVP, Q_WOUNDS, RET_RT

FIELDS = ("pvp", "pvp_dmg", "pvp_dodge", "pvp_melee", "pvp_flee")
PVP_F = 32 + 16 + 5 + 4             # the `pvp` observation block (`encode`)
DAMAGE_COST, DODGE_COST = 3, 1      # "Deal damage (3 Successes)", "Dodge (1 Success)": a Hero's base stats


def names():
    return [f"attack player {h}" for h in range(4)] + ["pvp: damage point", "pvp: dodge"]


def setup(s) -> None:
    n = s.n
    s.pvp, s.pvp_melee, s.pvp_flee = [], [], []
    s.pvp_dmg, s.pvp_dodge = [[0] * n for _ in range(n)], [[0] * n for _ in range(n)]


def distance(s, p, h):
    """The distance of an attack by p on h: 0 in the same room, k along a sight line (`ranged.sight_line`: walls,
    closed Doors, Barriers, full rooms), None when h cannot be shot at."""
    a, y = s.pos[p], s.pos[h]
    if a == y:
        return 0
    for d in range(4):
        for room, k in ranged.sight_line(s, a, d):
            if room == y:
                return k
    return None


def _down(s, q):
    """ "face down if the attacking player has 1 or more face-down wounds", else face up."""
    return 1 if any(w[1] for w in s.wounds[q]) else 0


def resolve(s) -> None:
    """ "PvP Damage points and Dodges are applied at the beginning of the Slow phase": each target takes the
    Damage points registered against him less the Dodges he registered against that attacker (the worked
    example: Blue 6/1, Yellow 1/2: Yellow takes 6 - 2 = 4, Blue 1 - 1 = 0), then each flight its wound. The face of
    every card is read from the wounds of whoever caused it when the step begins (assumption 45)."""
    n, items = s.n, []
    down = [_down(s, q) for q in range(n)]
    for a in s._order_from_lead():
        for t in range(n):
            net = s.pvp_dmg[a][t] - s.pvp_dodge[t][a]
            if t != a and net > 0 and s.alive[t]:
                # Damage points: Shields may negate them (`shields="damage_points"`, the default)
                items.append([Q_DAMAGE, t, net, 0, down[a]] if s.g.shield_all else [Q_WOUNDS, t, net, down[a]])
    for q, opp in s.pvp_flee:
        if s.alive[q]:
            items.append([Q_WOUNDS, q, 1, down[opp]])   # "he takes 1 wound as penalty" (no Shield against it)
    s.queue[0:0] = items
    setup(s)


class PvpRules:
    """Player vs Player combat: the attack, its registered results, the flight penalty, the Slow-phase step.
    A mixin of `game.VirusLabState`, after `ClockRules` (which times the attack) and before the Real Time and combat
    rules it extends when `pvp`."""

    def _mask_act(self, m, p):
        super()._mask_act(m, p)
        if not self.g.pvp:
            return
        cell = self.pos[p]
        # "A player not involved in combat may attack another player"; "Smoke bombs also prevent player vs player
        # combat"; the roll needs 1 Action cube. With the divided combat a Hero left "with zero opponents, will be
        # considered out of combat" (divided.py, `in_combat`): he is not involved in combat either
        if self.stock[p] < 1 or self.in_combat(p) or cell in self.smoked:
            return
        b = self.g.pvp_base
        for h in range(self.n):
            if h != p and self.active(h) and self.pos[h] not in self.smoked and distance(self, p, h) is not None:
                m[b + h] = True

    def _apply_act(self, a, p):
        if not self.g.pvp or not self.g.pvp_base <= a < self.g.pvp_base + 4:
            return super()._apply_act(a, p)
        # "The attacking player must declare the attack, the target, and the distance (if any). He then rolls"
        h = a - self.g.pvp_base
        k = distance(self, p, h)
        self.rt_actor, self.ret = p, RET_RT
        self.pvp = [h, k]
        if k == 0 and [p, h] not in self.pvp_melee:
            self.pvp_melee.append([p, h])
        self.team = []
        self.stock[p] -= 1
        self.roll = [1, 0, 0, 0, 0, 0, 0, 0]
        self.ph = PH_ROLL

    def _throw(self):
        super()._throw()
        if self.g.pvp and self.pvp and self.pvp[1] > 0:
            ranged.penalty(self.rollres, self.pvp[1])    # the ranged attack's distance penalty: k + 1 cubes

    def _mask_spend_any(self, p):
        if self.g.pvp and self.pvp:
            return self.succ >= DODGE_COST
        return super()._mask_spend_any(p)

    def _mask_spend(self, m, p):
        if not (self.g.pvp and self.pvp):
            return super()._mask_spend(m, p)
        b = self.g.pvp_base
        m[A.SPEND_DONE] = True
        m[b + 4] = self.succ >= DAMAGE_COST
        m[b + 5] = self.succ >= DODGE_COST

    def _apply_spend(self, a, p):
        if not (self.g.pvp and self.pvp):
            return super()._apply_spend(a, p)
        # "Players must declare their roll results (Dodges/Damage points dealt) and register them"
        t, b = self.pvp[0], self.g.pvp_base
        if a == b + 4:
            self.succ -= DAMAGE_COST
            self.pvp_dmg[p][t] += 1
        elif a == b + 5:
            self.succ -= DODGE_COST
            self.pvp_dodge[p][t] += 1
        else:
            self.succ = 0
        if self.succ < DODGE_COST:
            self.succ = 0
            self._counter(p)

    def _counter(self, p):
        if not (self.g.pvp and self.pvp):
            return super()._counter(p)
        # the Creatures do not counter-attack a PvP attack; the target answers with his own attack if he wishes
        self.pvp = []
        self.ph = PH_NONE
        self._rt_continue()

    def _leave(self, p, cell):
        """ "If a player flee a not-ranged combat, he takes 1 wound as penalty": leaving a room where a PvP attack at
        distance 0 joined him to another living Hero this turn (either side), once per flight; not from a smoked
        room ("the player may flee without taking any penalties") nor with a positive Explosive (assumption 44)."""
        super()._leave(p, cell)
        if not self.g.pvp or not self.pvp_melee:
            return
        opp = [x[1] if x[0] == p else x[0] for x in self.pvp_melee if p in x]
        opp = [q for q in opp if self.pos[q] == cell and self.alive[q]]
        if not opp:
            return
        self.pvp_melee = [x for x in self.pvp_melee if not (p in x and (x[1] if x[0] == p else x[0]) in opp)]
        if cell not in self.smoked and not self.flee_free[p]:
            self.pvp_flee.append([p, opp[0]])

    def _end_rt(self):
        super()._end_rt()
        if self.g.pvp:
            # "applied at the beginning of the Slow phase": after the counter-attacks owed at the end of the phase
            i = 0
            while i < len(self.queue) and self.queue[i][0] in (Q_DAMAGE, Q_WOUNDS):
                i += 1
            self.queue.insert(i, [Q_PVP])


# -- view, observation, loader ------------------------------------------------------------------------------
def view(s) -> dict:
    """Everything of a PvP combat is public ("Players must declare their roll results ... and register them")."""
    return {"attack": list(s.pvp), "damage_points": [list(r) for r in s.pvp_dmg],
            "dodges": [list(r) for r in s.pvp_dodge], "melee": [list(x) for x in s.pvp_melee],
            "flee_penalties": [list(x) for x in s.pvp_flee]}


def encode(s, p, out) -> None:
    """The `pvp` block: per relative attacker x relative target, Damage points / 8 and Dodges / 8 (32); the attacks
    at distance 0 on (16); the attack being rolled: its target's relative seat (4), its distance / longest line;
    flight penalties per relative seat / 2."""
    n = s.n
    slot = [seat_slot(s, q, p) for q in range(n)]      # relative Hero slots; a Boss player's seat has none
    for a in range(n):
        for t in range(n):
            if slot[a] >= 0 and slot[t] >= 0:
                i = 4 * slot[a] + slot[t]
                out[i] = s.pvp_dmg[a][t] / 8
                out[16 + i] = s.pvp_dodge[a][t] / 8
    for a, t in s.pvp_melee:
        if slot[a] >= 0 and slot[t] >= 0:
            out[32 + 4 * slot[a] + slot[t]] = 1
    if s.pvp and slot[s.pvp[0]] >= 0:
        out[48 + slot[s.pvp[0]]] = 1
        out[52] = s.pvp[1] / max(s.g.geo.rows, s.g.geo.cols)
    for q, _ in s.pvp_flee:
        if slot[q] >= 0:
            out[53 + slot[q]] += 0.5


def validate(g, d) -> None:
    from ..core.validate import check_ints, check_list, fail
    env, n = g.env_id, g.num_players
    att = check_ints(env, "pvp", d["pvp"], None, 0)
    if att and (len(att) != 2 or att[0] >= n or att[1] >= max(g.geo.rows, g.geo.cols)):
        raise fail(env, "pvp", "must be empty or [target seat, distance] of the attack being rolled")
    for f in ("pvp_dmg", "pvp_dodge"):
        for q, row in enumerate(check_list(env, f, d[f], n)):
            check_ints(env, f"{f}[{q}]", row, n, 0)
    for f in ("pvp_melee", "pvp_flee"):
        for k, x in enumerate(check_list(env, f, d[f])):
            check_ints(env, f"{f}[{k}]", x, 2, 0, n - 1)
            if x[0] == x[1]:
                raise fail(env, f"{f}[{k}]", "names one seat twice")
