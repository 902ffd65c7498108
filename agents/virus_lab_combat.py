"""The heuristic board-game team's combat (`heuristic` for virus_lab_v0, agents/virus_lab_heuristic.py): when to
roll, flee or stay; how big a roll to build; which Advantages to take on a result; how to spend the Successes.

"Successes = positive Action cubes x positive Bullet cubes" (Books and Hearts multiply): so rolls are sized to the
group (up to `roll_cubes` cubes, `roll_bullets` bullets) to kill it all when expected (Advantages counted: each
turns a negative cube positive, up to `adv_combat`), else to Dodge it all and flee paying only the penalty;
Successes are spent by comparing kill-first and Dodge-first plans. A mixin of `VirusLabHeuristic`, first in its
bases (these were its own methods), reading `self.g`, `self.geo`, `self.params` and the rules-play hooks
(`_together`, `_together_goal`: agents/virus_lab_uses.py).
"""
from __future__ import annotations

from virus_envs.agents import virus_lab_scenario as SCN
from virus_envs.virus_lab.actions import A
from virus_envs.virus_lab.components import TK_BOOK, TK_HEART


class CombatPlay:
    """Combat decisions: PH_ACT in a room with Creatures (`_combat`), PH_ROLL (`_build_roll`), PH_RESULT
    (`_result`), PH_SPEND (`_spend`)."""

    def _stats(self, v, here):
        """[(kind, count, hp, dodge, damage)] of the group in `here` (a Boss's card once seen, else a guess)."""
        comp = self.g.comp
        cre = here["creatures"]
        out = [(k, cre[k], comp.cre_hp[k], comp.cre_dodge[k], comp.cre_damage[k]) for k in range(8) if cre[k]]
        if cre[8]:
            seen = [b for b in v["bosses"] if b["cell"] == here["cell"]]
            b = seen[0] if seen else {"hp": 5, "dodge": 3, "damage": 3}
            out.append((8, cre[8], b["hp"], b["dodge"], b["damage"]))
        return out

    def _advantages(self, v, p):
        """Advantages this Hero may still take in a fight (face-up display cards, at most 8 face down, and the
        `adv_combat` budget)."""
        disp = v["heroes"][p]["display"]
        up = sum(1 for _, u in disp if u)
        return max(0, min(up, 8 - (len(disp) - up), self.params["adv_combat"]))

    def _expect(self, cubes, bullets, adv):
        """Expected Successes of a roll with Advantages turning negative cubes positive."""
        q = self.g.config["p_positive"]
        return min(cubes, cubes * q + adv) * bullets * q

    def _kill_cost(self, v, here):
        return sum(n * 3 * hp for _, n, hp, _, _ in self._stats(v, here))

    def _combat(self, v, p, m, here, target):
        """In combat. Before this turn's counter-attack: roll when the cubes and bullets at hand are expected to
        kill the group, or at least to Dodge it all (then flee paying only the penalty); after it (staying costs
        nothing more this turn): flee when the undodged Creatures are few, roll again when the rest can be killed,
        else stay."""
        me = v["heroes"][p]
        stats = self._stats(v, here)
        dodged = me["dodged"]
        undodged = sum(max(0, n - dodged[k]) * dmg for k, n, _, _, dmg in stats)
        hp_left = me.get("hit_points", self.g.hp) - len(me["wounds"])
        shields = me["tokens"][4]
        c = min(me["stock"] - 1, self.params["roll_cubes"])
        b = min(me["bullets"], self.params["roll_bullets"])
        expect = self._expect(max(0, c), b, self._advantages(v, p))
        kill = self._kill_cost(v, here)
        dodge_all = sum(max(0, n - dodged[k]) * dg for k, n, _, dg, _ in stats)
        can_roll = m[A.ATTACK] and b >= 1 and c >= 1
        rooms = {r["cell"]: r for r in v["rooms"]}
        safe = [d for d in range(4) if m[A.MOVE + d] and not any(rooms[self.geo.NB[here["cell"]][d]]["creatures"])]
        tgt = target if target >= 0 else self.geo.start_cell

        def flee():
            return A.MOVE + min(safe, key=lambda d: self._manhattan(self.geo.NB[here["cell"]][d], tgt))
        a = self._together(v, p, m, here)
        if a is not None:
            return a
        if can_roll and expect >= self.params["fight_margin"] * kill:
            return A.ATTACK
        flight = (0 if me["flee_free"] else 1) + max(0, undodged - shields)
        if me["countered"]:
            if safe and (undodged == 0 or me["flee_free"]) and me["stock"] >= 1:
                return flee()
            if can_roll and expect >= self.params["dodge_margin"] * dodge_all:
                return A.ATTACK             # Dodge the rest, then run paying the penalty only
            if safe and flight < hp_left - 1 and me["stock"] >= 1:
                return flee()
            return A.PASS
        if can_roll and expect >= self.params["dodge_margin"] * dodge_all:
            return A.ATTACK
        if safe and flight < hp_left - 1:
            return flee()
        if m[A.ATTACK] and me["bullets"] >= 1:
            return A.ATTACK
        if safe:
            return flee()       # no roll possible: standing takes the same attack and keeps the Hero there
        return A.PASS

    def _goal(self, v, p, here, cubes, bullets):
        """The Successes this roll aims at: every kill when expected (with Advantages), else Dodging the group."""
        kill = self._kill_cost(v, here)
        if self._together_goal(v, p, here) is not None:
            return kill
        if self._expect(cubes, min(bullets, self.params["roll_bullets"]), self._advantages(v, p)) \
                >= self.params["fight_margin"] * kill:
            return kill
        me = v["heroes"][p]
        return sum(max(0, n - me["dodged"][k]) * dg for k, n, _, dg, _ in self._stats(v, here))

    def _build_roll(self, v, p, m):
        """Roll enough cubes and bullets to expect the goal's Successes with `dodge_margin` to spare, keeping a
        cube to run and the other bullets for later fights; Books and Hearts go in."""
        roll = v["roll"]
        me = v["heroes"][p]
        here = {r["cell"]: r for r in v["rooms"]}[me["pos"]]
        c_max = max(1, min(roll[0] + me["stock"] - 1, self.params["roll_cubes"]))
        b_have = roll[1] + me["bullets"]
        goal = self._goal(v, p, here, c_max, b_have) * self.params["dodge_margin"]
        adv = self._advantages(v, p)
        b_want = 1
        while b_want < min(b_have, self.params["roll_bullets"]) and self._expect(c_max, b_want, adv) < goal:
            b_want += 1
        if roll[0] < c_max and m[A.ADD_CUBE]:
            return A.ADD_CUBE
        if roll[1] < b_want and m[A.ADD_BULLET]:
            return A.ADD_BULLET
        for t in (TK_BOOK, TK_HEART):
            if roll[2 + t] == 0 and m[A.ADD_TOKEN + t] and not SCN.keep_token(v, p, t):
                return A.ADD_TOKEN + t
        return A.ROLL

    def _result(self, v, m):
        """Re-roll an empty result with a Four-leaf; take Advantages (each turns a negative cube positive) while
        the Successes fall short of the goal and the budget can reach it."""
        rr = v["roll_result"]
        if (rr[0] == 0 or rr[2] == 0) and m[A.REROLL]:
            return A.REROLL
        p = v["seat"]
        me = v["heroes"][p]
        here = {r["cell"]: r for r in v["rooms"]}[me["pos"]]
        pos_c, pos_b, neg_c, neg_b = rr[0], rr[2], rr[1], rr[3]
        mult_b, mult_c = 1 + rr[4 + TK_BOOK], 1 + rr[4 + TK_HEART]
        budget = self._advantages(v, p)
        dodge = sum(max(0, n - me["dodged"][k]) * dg for k, n, _, dg, _ in self._stats(v, here))
        best = None
        for goal in (self._kill_cost(v, here), dodge):      # every kill if the Advantages can reach it, else Dodges
            for extra_c in range(0, min(neg_c, budget) + 1):
                for extra_b in range(0, min(neg_b, budget - extra_c) + 1):
                    if (pos_c + extra_c) * mult_c * (pos_b + extra_b) * mult_b >= goal:
                        if best is None or extra_c + extra_b < sum(best):
                            best = (extra_c, extra_b)
            if best is not None:
                break
        if best and sum(best) > 0:
            return A.ADV_CUBE if best[0] > 0 and m[A.ADV_CUBE] else A.ADV_BULLET if m[A.ADV_BULLET] else A.ACCEPT
        return A.ACCEPT

    def _spend(self, v, p, m):
        """Spend the Successes: compare "kill first (most Damage first), then Dodge" with "Dodge first, then kill"
        by the Damage still coming this turn, a kill counting `kill_bonus` x its Damage in its favour (it is for
        good); take the first step of the better plan."""
        me = v["heroes"][p]
        here = {r["cell"]: r for r in v["rooms"]}[me["pos"]]
        succ = v["successes"]
        left = [(k, n - me["dodged"][k] if k < 9 else n, hp, dg, dmg) for k, n, hp, dg, dmg in self._stats(v, here)]
        left = [(k, max(0, n), hp, dg, dmg) for k, n, hp, dg, dmg in left]

        def run(order):
            pool, cost, first = succ, 0.0, None
            alive = {k: n for k, n, *_ in left}
            for kind, k, hp, dg, dmg in order:
                price = 3 * hp if kind == "kill" else dg
                while alive[k] > 0 and pool >= price:
                    pool -= price
                    alive[k] -= 1
                    cost -= self.params["kill_bonus"] * dmg if kind == "kill" else 0
                    if first is None:
                        first = (A.KILL if kind == "kill" else A.DODGE) + k
            cost += sum(alive[k] * dmg for k, _, _, _, dmg in left)
            return cost, first
        by_dmg = sorted(left, key=lambda x: -x[4])
        kills = [("kill", k, hp, dg, dmg) for k, n, hp, dg, dmg in by_dmg]
        dodges = [("dodge", k, hp, dg, dmg) for k, n, hp, dg, dmg in by_dmg]
        best = min((run(kills + dodges), run(dodges + kills)), key=lambda x: x[0])
        if best[1] is not None and m[best[1]]:
            return best[1]
        for a in range(A.KILL, A.SPEND_DONE):
            if m[a]:
                return a
        return A.SPEND_DONE
