"""Spy Mode play of the Virus heuristic (`agents/virus_lab_heuristic.py`; config `spy=True`, docs/rules/virus_lab.md
"Advanced elements: Spy Mode").

- A Hero declares every Clue card he keeps truthfully ("Each player ... have to tell other players which clues
  are") and plans with the Clues stated (the face-up ones and every declaration), as the rules place the Antidote.
- The Spy ("obviously the Spy will lie") declares a plausible false Clue: the lowest card that is not his own, not
  face up, not declared yet, compatible with every Clue stated and leaving at least one room on the table meeting
  them all (a lie nobody can catch before the verification); with none, the truth. He then heads for the Antidote
  whenever it lies on the table (instead of leaving it to the nearest Hero) and, holding it, for the exit (the
  base plan), which is the Spy's second and third victory conditions.
- Player vs Player combat (`pvp=True`): never started (the team plan has no use for it); legal throughout.
A mixin of `VirusLabHeuristic`: it reads only the view.
"""
from __future__ import annotations


class SpyPlay:
    """Declarations, the Clues stated, the Spy's fetching."""

    @staticmethod
    def _is_spy(v):
        return "spy" in v and v["spy"]["my_card"] == "spy"

    @staticmethod
    def _stated(v):
        """The Clues the Antidote is placed by: the face-up ones and, in Spy Mode, every declaration."""
        if "spy" not in v:
            return v["clues"]
        return list(v["clues"]) + [c for d in v["spy"]["declared"] for c in d]

    def _declare(self, v, p, m):
        card = v["clue_drawn"]
        base = self.g.spy_base
        if not self._is_spy(v):
            return base + card
        from virus_envs.agents.virus_lab_plan import Table
        stated = self._stated(v)
        inc = self.g.incompatible
        t = Table(self.g, v)
        for c in range(25):
            if c == card or c in stated or c in v["spy"]["my_clues"] or not m[base + c]:
                continue
            if any(inc[c][x] for x in stated) or not t.candidates(stated + [c]):
                continue
            return base + c
        return base + card
