"""The Boss side of the Virus heuristic (`heuristic` for virus_lab_v0 with `boss_players` or `infected_boss`).

A documented simple policy, read from the Boss player's view (`view["boss_players"]`) and the mask only:
- activate a Boss whenever he can: the Leader nearest to a Hero, with the card of most Damage, then Hit points;
  with no Boss and no Leader on the map, make one (minion transformation: the minion nearest to a Hero, a Verduko
  if one is left, else an Executioner, Mutant, Desu; the card of least Damage, then Hit points, discarded);
- add minions (1 Damage to his Boss) when a Hero stands within `boss_near` (4) rooms (as the crow flies) of his
  Boss and the Boss keeps `boss_add_hp` (2) Hit points after it, each in the open room nearest to a Hero, the kind
  with most miniatures left;
- move every group he moves (CREATURE MOVEMENT) towards the nearest Hero (the side whose room is nearest to a
  Hero as the crow flies; ties: the first side N, E, S, W); `boss_keep` > 0 makes the Boss's own group stop that
  many rooms short of the Heroes (default 0: tuned on seeds 10000-10059, 1 Hero and 1 Boss player at difficulty
  1, the Boss side won 30 of 60 games with 0, 19 with 1, 15 with 2);
- place the new Creatures he places for a Hero (PLACE NEW CREATURES) in the room nearest to a Hero;
- nothing else (no extra movement, healing, transformation or deactivation): then `boss: done`.
Any other decision falls back to the team agent's default. A mixin of `VirusLabHeuristic` (it uses `geo`,
`_manhattan`, `_default`).
"""
from __future__ import annotations

from virus_envs.virus_lab.actions import A
from virus_envs.virus_lab.boss_actions import (B_ACTIVATE, B_ADD, B_DONE, B_TRANSFORM, M_ACT, M_ACT_CARD, M_ADD,
                                               M_INFECT, M_MAIN, M_TR, M_TR_CARD, M_TR_LEADER)

LEADER_RANK = (6, 7, 5, 4)      # Verduko (Distance Attack), Executioner, Mutant, Desu



class BossPlay:
    """The Boss player's decisions."""

    def _is_boss_seat(self, v, p):
        bp = v.get("boss_players")
        return bool(bp) and p in bp["seats"]

    def _hero_cells(self, v):
        return [h["pos"] for h in v["heroes"] if h["alive"] and not h["exited"] and h["pos"] >= 0]

    def _to_hero(self, v, cell):
        heroes = self._hero_cells(v)
        return min((self._manhattan(cell, h) for h in heroes), default=99)

    def _boss_act(self, v, p, m):
        bp = v["boss_players"]
        base = self.g.boss_base
        ch = v["slow_choice"]
        if ch["kind"] == "boss side":
            cell = bp["moving_group"]
            nb = self.geo.NB[cell]
            keep = self.params["boss_keep"] if cell == bp["active_cell"][p] else 0
            return A.OPTION + min(range(len(ch["options"])),
                                  key=lambda i: (abs(self._to_hero(v, nb[ch["options"][i]]) - keep), i))
        if ch["kind"] == "place":
            return A.OPTION + min(range(len(ch["options"])), key=lambda i: (self._to_hero(v, ch["options"][i][1]), i))
        c = bp["choice"]
        if c is None:
            return self._default(m)
        mode, opts = c["mode"], c["options"]
        comp = self.g.comp
        if mode == M_MAIN:
            if m[base + B_ACTIVATE]:
                return base + B_ACTIVATE
            if bp["active"][p] is None and m[base + B_TRANSFORM]:
                return base + B_TRANSFORM
            bc = bp["active_cell"][p]
            if m[base + B_ADD] and bc >= 0 and self._to_hero(v, bc) <= self.params["boss_near"]:
                card = comp.boss_name.index(bp["active"][p])
                if comp.boss_hp[card] - bp["damage"][p] - 1 >= self.params["boss_add_hp"]:
                    return base + B_ADD
            return base + B_DONE
        if mode == M_TR_LEADER:
            return A.OPTION + min(range(len(opts)), key=lambda i: LEADER_RANK.index(opts[i]))
        if mode in (M_ACT, M_ADD, M_TR):
            pool = v["reserve_creatures"]
            return A.OPTION + min(range(len(opts)), key=lambda i: (self._to_hero(v, opts[i][0]), -pool[opts[i][1]], i))
        if mode in (M_ACT_CARD, M_INFECT, M_TR_CARD):    # the options are places in his hand
            sign = -1 if mode == M_TR_CARD else 1       # keep the strongest, discard the weakest
            card = [bp["hand_ids"][j] for j in opts]
            return A.OPTION + max(range(len(opts)), key=lambda i: (sign * comp.boss_damage[card[i]],
                                                                     sign * comp.boss_hp[card[i]], -i))
        return self._default(m)
