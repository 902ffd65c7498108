"""Team play of the Virus heuristic (`agents/virus_lab_heuristic.py`, parameters `team`, `meet_turn`, `pathfinders`,
`path_turn`, `path_free`, `trip`): what 2-4 Heroes do together.

Everything is read from the public table of the deciding seat's view, so every seat computes the same plan and
no message is needed; the agent keeps no memory. A mixin of `VirusLabHeuristic` (it uses its `params`, `geo`,
`_paths`, `_toward`, `_manhattan` and `_exit_room`).
"""
from __future__ import annotations

from virus_envs.virus_lab.actions import A


class TeamPlay:
    """The meeting at the Exit Control Rooms, the pathfinders, the Antidote's fetcher."""

    def _fetcher(self, v):
        """The living Hero nearest the Antidote (rooms as the crow flies, ties by seat): the same for every seat."""
        heroes = [h for h in v["heroes"] if h["alive"] and not h["exited"] and not h.get("retired") and h["pos"] >= 0]
        return min(heroes, key=lambda h: (self._manhattan(h["pos"], v["antidote_cell"]), h["seat"]))["seat"]

    @staticmethod
    def _living(v):
        return sum(1 for h in v["heroes"] if h["alive"] and not h["exited"] and not h.get("retired") and h["pos"] >= 0)

    def _pathfind(self, v, p, m):
        """Team play: the Exit Control Rooms are placed at setup 2-7 rows into the table, unconnected; the Heroes
        can meet there only once the map reaches both. The `pathfinders` highest living seats explore a way to
        their own room, then to the other, while the others build the Research Lab."""
        if not self.params["team"] or v["exit_open"] or (v["turn"] < self.params["path_turn"] and not v["labs_used"]):
            return None
        seats = [h["seat"] for h in v["heroes"] if h["alive"] and not h["exited"] and not h.get("retired")
                 and h["pos"] >= 0]
        if len(seats) < 2 or p not in seats[len(seats) - self.params["pathfinders"]:]:
            return None
        own = self._exit_room(v, p, len(seats))
        pos = v["heroes"][p]["pos"]
        dist, _ = self._paths(v, pos, avoid=False)
        for room in (own,) + tuple(c for c in v["exit_cells"] if c != own):
            if room not in dist:
                return self._toward(v, p, m, room)
        return None

    def _meet(self, v, p, m):
        """Team play: the Exit Control Rooms open only when activated "simultaneously" (in one Real Time phase),
        by 1 + 1 Heroes (2-3 living) or 1 + 2 (4 living). When the Heroes can all reach their rooms this phase
        with the cubes they hold, they go there at once and activate; one who has activated waits (passes).
        Rooms and Heroes are read from the public table, so every seat finds the same assignment."""
        if v["exit_open"] or v["turn"] < self.params["meet_turn"]:
            return None
        plan = self._meeting(v)
        if plan is None or p not in plan:
            return None
        room = plan[p]
        me = v["heroes"][p]
        if me["pos"] == room:
            if p in v["exit_activated"][v["exit_cells"].index(room)]:
                return A.PASS
            return A.ACTIVATE if m[A.ACTIVATE] else None
        _, first = self._paths(v, me["pos"], goal=room)
        d = first.get(room, -1)
        return A.MOVE + d if d >= 0 and m[A.MOVE + d] else None

    def _meeting(self, v):
        """{seat: Exit Control Room} for a meeting this phase, or None: every Hero needed can walk to his room
        (rooms with Creatures avoided) and still pay the activation; fewest rooms walked, ties by seat order."""
        heroes = [h for h in v["heroes"] if h["alive"] and not h["exited"] and not h.get("retired") and h["pos"] >= 0]
        live = len(heroes)
        if live < 2:
            return None
        ex = v["exit_cells"]
        rooms = {r["cell"]: r for r in v["rooms"]}
        cost = {}
        for h in heroes:
            q = h["seat"]
            if any(rooms[h["pos"]]["creatures"]):
                continue                       # in combat: activating costs 2 and the fight comes first
            for i, room in enumerate(ex):
                if q in v["exit_activated"][i]:
                    cost[q, i] = 0
                    continue
                dist, _ = self._paths(v, h["pos"], goal=room)
                if room in dist and h["stock"] >= dist[room] + 1:
                    cost[q, i] = dist[room]
        need = (1, 2) if live >= 4 else (1, 1)
        best, best_k = None, None
        seats = [h["seat"] for h in heroes]
        for first in (0, 1):
            want = {first: need[0], 1 - first: need[1]}
            choice = {}
            for i in (first, 1 - first):
                options = sorted((cost[q, i], q) for q in seats if (q, i) in cost and q not in choice)
                if len(options) < want[i]:
                    choice = None
                    break
                for _, q in options[:want[i]]:
                    choice[q] = i
            if choice is None:
                continue
            k = (sum(cost[q, i] for q, i in choice.items()), first)
            if best_k is None or k < best_k:
                best, best_k = choice, k
        return None if best is None else {q: ex[i] for q, i in best.items()}
