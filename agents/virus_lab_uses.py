"""The rules the plain Virus heuristic leaves unused, as an option of it (`heuristic?uses=all`, or the variant
`heuristic:tactician`; `uses` may also name a subset joined by "+", e.g. `uses=breach+shields`).

A count of the action kinds the plain team takes against those its masks offered (50 deals each at 1, 2 and 4
Heroes, difficulty 1; docs/agents/lab_teams.md) shows what it never does: it never buys or places a Breach (so never
explores with one), never attacks together, almost never stands against a second group in one turn, never buys
Adrenaline, never takes
"6 resources" for an Advantage, and its Shields only ever meet Creature counter-attacks (its paths avoid every
trap room). Each `uses` item is one rule the team then plays:

| item | what the team does | the rulebook |
|---|---|---|
| `breach` | buys a Breach tile (9 resources; an Advantage for "6 resources" tops the pot up when it is short by 6 or less) while it holds none and at least `breach_bullets` bullets; places it to connect the room it stands in to a known room behind a wall when that opens a way to its target (or a shorter one by `breach_gain` rooms), or to open a wall onto an empty space when no doorway leads on; explores "by simultaneously placing a Breach" (a card that matches all but one border) when that builds the room the Clues describe or heads towards the target | "OPEN A BREACH. Spend 1 Action cube ... It can be used to connect existing rooms (a single Breach works on a double wall) or to create an opening to add a new room"; "It is possible to break this rule ONLY by simultaneously placing a Breach on a wall which is adjacent to a doorway" |
| `shields` | walks through Lasers rooms (a Wound's Damage on entering) while it holds a Shield, and negates it; keeps `shields` Shields (the plain cap) | "For each Shield token spent from the player's stock, a player may negate 1 Damage point" |
| `together` | in a room with other Heroes in combat, attacks together when the Heroes' summed expected Successes (-1) kill the group and one alone would not; every Hero then rolls towards the kill | "If they all still have to roll, players can attack the same target together ... these Successes are added together, then a 1 point penalty is subtracted" |
| `adrenaline` | once the Antidote is on the map (or from turn `burst_turn` - 1 on), buys an Adrenaline token (9 resources) while it holds none; uses it in the last turns (from `burst_turn`) when the cubes in stock cannot carry the Antidote to its room (an Exit Control Room, then the Starting Room) and the +7 can, with a Wound to spare | "USE AN ADRENALINE TOKEN. If used during Real Time Phase allows the Hero to immediately gains 7 Action cubes ... draw 1 Wound card and place it face-up"; "Adrenaline token: 9 resources"; a won game needs the carrier alive after that Wound (FAQ) |
| `clear` | a group in the room next door on the way to its target, that a roll with Advantages is expected to kill, is attacked rather than walked around (several groups a turn when they line up) | the combat rules; "at least 1 Creature counter-attack must be done for each turn" (per group or per turn: `counter_attack`) |

A mixin of `VirusLabHeuristic`: every method reads only the view, the mask and the static tables.
"""
from __future__ import annotations

from virus_envs.virus_lab.actions import A, IT_ADREN, IT_BREACH, explore_id
from virus_envs.virus_lab.board import OPP
from virus_envs.virus_lab.components import TK_ADREN, TK_SHIELD
from virus_envs.virus_lab.flow import LAST_TURN

from virus_envs.agents.virus_lab_plan import Table, display_cards, placements

USES = ("breach", "shields", "together", "clear", "adrenaline")


def parse_items(text, known, param) -> frozenset:
    """A parameter naming items (`uses`, `coop`) -> the set of items: '' none, 'all' every one, else names joined by
    '+' or ','; an unknown name is a ValueError naming the parameter."""
    if text in ("", None, False):
        return frozenset()
    words = [w.strip() for w in str(text).replace(",", "+").split("+") if w.strip()]
    if words == ["all"]:
        return frozenset(known)
    bad = [w for w in words if w not in known]
    if bad:
        raise ValueError(f"parameter {param!r}: unknown item {bad[0]!r}; known: all, {', '.join(known)}")
    return frozenset(words)


def parse_uses(text) -> frozenset:
    """`uses` -> the set of items (`parse_items`)."""
    return parse_items(text, USES, "uses")


class RulePlay:
    """Breaches, Shields against Lasers, attacking together, clearing a group on the way, Adrenaline (module
    docstring)."""

    def _uses(self, item):
        return item in self._use_set

    # -- Shields: a Lasers room is no obstacle to a Hero who holds a Shield ----------------------------
    def _shielded(self, v, p):
        return self._uses("shields") and v["heroes"][p]["tokens"][TK_SHIELD] > 0

    # -- buying ---------------------------------------------------------------------------------------
    def _buy_uses(self, v, p, m):
        """An Adrenaline token for the last dash, then a Breach, while none is held (bullets kept for the fights
        first)."""
        if self._wants_adrenaline(v, p) and m[A.BUY + IT_ADREN]:
            return A.BUY + IT_ADREN
        if self._wants_breach(v, p) and m[A.BUY + IT_BREACH]:
            return A.BUY + IT_BREACH
        return None

    def _wants_adrenaline(self, v, p):
        found = v["antidote_cell"] >= 0 or v["antidote_holder"] >= 0
        return self._uses("adrenaline") and v["heroes"][p]["tokens"][TK_ADREN] == 0 and v["turn"] < LAST_TURN \
            and (found or v["turn"] >= self.params["burst_turn"] - 1)

    def _wants_breach(self, v, p):
        me = v["heroes"][p]
        return self._uses("breach") and me["breaches"] == 0 and me["bullets"] >= self.params["breach_bullets"]

    def _gain_uses(self, v, p, m):
        """An Advantage for 6 resources when it makes the Adrenaline or Breach wanted affordable (9 resources; a
        face-up card to spare)."""
        me = v["heroes"][p]
        if not m[A.ADV_RES] or not (self._wants_adrenaline(v, p) or self._wants_breach(v, p)):
            return None
        if not 3 <= me["resources"] < 9:
            return None
        up = sum(1 for _, u in me["display"] if u)
        return A.ADV_RES if up > self.params["adv_keep"] + 2 else None

    def _dash(self, v, p, m, target):
        """Adrenaline in the last turns: the Antidote's carrier (or its fetcher) short of cubes for the way."""
        me = v["heroes"][p]
        if not self._uses("adrenaline") or not m[A.ADREN] or target < 0 or v["turn"] < self.params["burst_turn"]:
            return None
        if v["antidote_holder"] != p and v["antidote_cell"] != target:
            return None
        hp_left = me.get("hit_points", self.g.hp) - len(me["wounds"]) - me["adrenaline_used"]
        if hp_left < 2:
            return None
        dist, _ = self._paths(v, me["pos"], goal=target)
        need = dist.get(target, self._manhattan(me["pos"], target)) + 1     # the walk and the action there
        if me["stock"] < need <= me["stock"] + min(7, me["reserve"]):
            return A.ADREN
        return None

    # -- Breaches ---------------------------------------------------------------------------------------
    def _breach_toward(self, v, p, m, target):
        """A Breach from the room the Hero stands in (or a step towards the room where one pays): through a wall
        onto a known room from which the target is reachable, when the target cannot be reached otherwise or
        `breach_gain` rooms sooner. None when no Breach pays."""
        me = v["heroes"][p]
        if not self._uses("breach") or me["breaches"] < 1 or me["stock"] < 2 or target < 0:
            return None
        t = Table(self.g, v)
        shielded = self._shielded(v, p)
        dist, first = t.paths(me["pos"], goal=target, shielded=shielded)
        now = dist.get(target)
        back, _ = t.paths(target, goal=me["pos"], shielded=shielded)
        geo = self.geo
        best, best_k = None, None
        for a, da in dist.items():
            for d in range(4):
                y = geo.NB[a][d]
                if y < 0 or t.card[y] < 0 or y not in back or t.step(a, d) >= 0:
                    continue
                e = geo.EDGE[a][d]
                if (t.doors[a] >> d) & 1 or t.door[e] or t.barrier[e]:
                    continue            # a Breach goes on a wall of the Hero's own room
                k = da + 2 + back[y]
                if now is not None and k + self.params["breach_gain"] > now:
                    continue
                if best_k is None or (k, a, d) < best_k:
                    best, best_k = (a, d), (k, a, d)
        if best is None:
            return None
        a, d = best
        if a == me["pos"]:
            return A.BREACH + d if m[A.BREACH + d] else None
        s_ = first[a]
        return A.MOVE + s_ if m[A.MOVE + s_] else None

    def _breach_open(self, v, p, m, target):
        """No doorway leads on towards the target: a Breach on a wall of the Hero's room onto an empty space
        nearer to it (the next step explores through it)."""
        me = v["heroes"][p]
        if not self._uses("breach") or me["breaches"] < 1 or me["stock"] < 3 or target < 0:
            return None
        if not display_cards(self.g, me):
            return None
        t = Table(self.g, v)
        pos = me["pos"]
        geo = self.geo
        best, best_k = None, None
        for d in range(4):
            y = geo.NB[pos][d]
            if y < 0 or t.card[y] >= 0 or (t.doors[pos] >> d) & 1 or not m[A.BREACH + d]:
                continue
            k = (self._manhattan(y, target), d)
            if k[0] < self._manhattan(pos, target) and (best_k is None or k < best_k):
                best, best_k = A.BREACH + d, k
        return best

    def _breach_placements(self, v, p):
        """Explorations may break the match on one border with a Breach (tile held, 2 cubes: its own and the
        move's)."""
        me = v["heroes"][p]
        return self._uses("breach") and me["breaches"] > 0 and me["stock"] >= 2

    def _toward_explore(self, v, p, m, t, y, d, want, target):
        """The placement on empty `y` (entered from side d) opening most sides in `want`: matching placements
        first, then (with a Breach) one-mismatch placements."""
        me = v["heroes"][p]
        cards = display_cards(self.g, me)
        lab = self.g.comp.room_lab
        geo = self.geo
        # the target next to the new room: a placement that joins it (doorway to doorway, or the one Breach there)
        join = [s_ for s_ in range(4) if geo.NB[y][s_] >= 0 and geo.NB[y][s_] == target] if self._use_set else []
        choice, ck = None, None
        for k, r, c, mk in placements(self.g, t, cards, y, breach=self._breach_placements(v, p)):
            a = explore_id(d, k, r)
            if not m[a]:
                continue
            toward = sum(1 for w in want if (mk >> w) & 1)
            bad = t.mismatches(y, mk)
            joins = any(((mk >> s_) & 1 and (t.doors[target] >> OPP[s_]) & 1) or s_ in bad for s_ in join)
            kk = (not joins, bool(bad), -toward, lab[c] >= 0, -bin(mk).count("1"))
            if ck is None or kk < ck:
                choice, ck = a, kk
        return choice

    # -- attacking together ------------------------------------------------------------------------------
    def _team_here(self, v, p):
        """The Heroes (seats) of p's room in combat who still have to roll against its group this turn."""
        me = v["heroes"][p]
        return [h for h in v["heroes"] if h["seat"] != p and h["alive"] and not h["exited"] and h["pos"] == me["pos"]
                and not h["countered"] and h["stock"] >= 1]

    def _expect_of(self, v, h):
        adv = self._advantages(v, h["seat"])
        return self._expect(max(0, min(h["stock"] - 1, self.params["roll_cubes"])),
                            min(h["bullets"], self.params["roll_bullets"]), adv)

    def _together_expect(self, v, p):
        others = self._team_here(v, p)
        if not others:
            return None
        return sum(self._expect_of(v, h) for h in [v["heroes"][p]] + others) - 1

    def _together(self, v, p, m, here):
        """Attack together when the Heroes here are expected to kill the group together and this Hero alone is
        not."""
        if not self._uses("together") or not m[A.TOGETHER]:
            return None
        both = self._together_expect(v, p)
        kill = self._kill_cost(v, here)
        alone = self._expect_of(v, v["heroes"][p])
        if both is not None and alone < self.params["fight_margin"] * kill <= both:
            return A.TOGETHER
        return None

    def _together_goal(self, v, p, here):
        """In a room with partners able to roll: the kill, when the summed expectation reaches it."""
        if not self._uses("together"):
            return None
        both = self._together_expect(v, p)
        kill = self._kill_cost(v, here)
        return kill if both is not None and both >= self.params["fight_margin"] * kill else None

    # -- clearing a group on the way ---------------------------------------------------------------------
    def _clear(self, v, p, m, target):
        """The first step towards the target, through the rooms with Creatures, enters a group that a roll (with
        Advantages, 2 cubes kept: the move and a flight) is expected to kill: go in and fight it."""
        if not self._uses("clear") or target < 0:
            return None
        me = v["heroes"][p]
        t = Table(self.g, v)
        dist, first = t.paths(me["pos"], avoid=False, goal=target)
        if target not in dist or target == me["pos"]:
            return None
        d = first[target]
        y = self.geo.NB[me["pos"]][d]
        rooms = {r["cell"]: r for r in v["rooms"]}
        if y not in rooms or not any(rooms[y]["creatures"]) or not m[A.MOVE + d]:
            return None
        c = min(me["stock"] - 2, self.params["roll_cubes"])
        b = min(me["bullets"], self.params["roll_bullets"])
        hp_left = me.get("hit_points", self.g.hp) - len(me["wounds"])
        if c < 1 or b < 1 or hp_left < 3:
            return None
        if self._expect(c, b, self._advantages(v, p)) >= self.params["fight_margin"] * self._kill_cost(v, rooms[y]):
            return A.MOVE + d
        return None
