"""Team play aimed at the rulebook's 2-4 Hero requirements, as an option of the Virus heuristic (`heuristic?coop=all`;
`coop` may also name a subset joined by "+", e.g. `coop=colour`). The variant `heuristic:coop` is `coop=rush+wait+split`:
`colour` and `reach` lowered the 2-Hero validation funnel (fewer Research Labs, fewer exits opened) and are kept as
options only (docs/studies/virus_lab.md, "The 2-Hero requirements").

The diagnosis (tools/vl_diagnose.py, 200 validation deals at 2 Heroes, difficulty 1; docs/studies/virus_lab.md,
"The 2-Hero requirements") found where the plain team's 2-Hero games fail: a Research Lab forms in 58% of deals but
only 7 of its 116 Research Labs are of one colour, so nearly every lab gives a single Clue and the Antidote is placed
in a third of them; and when a Hero first holds the Antidote both Exit Control Rooms are reached by the map in 3 of
31 deals. Each `coop` item is one answer:

| item | what the team does | the rulebook |
|---|---|---|
| `colour` | a lab card joins a grid point only when it has the colour of the lab cards already there (a one-colour Research Lab), except the card that completes the lab from turn `colour_turn` on; a lab trip goes only where a card of that colour fits | "In a 2 to 4 Hero game, if a Research Lab is formed by cards that are all of the same color, players may draw 2 Clue cards instead of 1." |
| `rush` | once the Antidote is on the map (or carried), with 2+ living Heroes, the steps towards the Hero's target (the Antidote, his Exit Control Room, the Starting Room) ignore the stealth limit (`steps`); other moves keep it | "Exit Control Rooms ... must be activated simultaneously by Heroes to open the exit on the Starting room"; Creatures are placed after the Real Time phase |
| `wait` | with 2+ living Heroes, a Hero in his Exit Control Room activates it only in a meeting (every Hero needed reaches his room this phase, `_meet`), never alone: the cube is kept for the meeting | "must be activated simultaneously by Heroes"; "A Hero must spend 1 Action cube to activate a Exit Control Room" |
| `reach` | with 2-3 living Heroes, while the map reaches one Exit Control Room and not the other, every Hero heading for an Exit Control Room (the Antidote's carrier too) heads for the one not reached, so two explore towards it; once both are reached each goes to his own (`split` or by seat) | "Players must go to those rooms and activate them simultaneously" (a room the map does not reach cannot be activated) |
| `split` | with 2-3 living Heroes, the Hero who fetches (or carries) the Antidote takes the Exit Control Room nearer to it, the other Hero(es) the other room (the plain team splits them by seat) | "2-3 living Heroes: both Exit Control Room must be activated by 1 Hero each" |

With 1 living Hero (the 1-Hero rules: 2 lab cards, one Exit Control Room) no item changes anything. A mixin of
`VirusLabHeuristic`: every method reads only the view and the static tables, so every seat computes the same plan.
"""
from __future__ import annotations

from virus_envs.agents.virus_lab_plan import Table
from virus_envs.agents.virus_lab_uses import parse_items
from virus_envs.virus_lab.actions import A

COOP = ("colour", "rush", "split", "wait", "reach")


def parse_coop(text) -> frozenset:
    """`coop` -> the set of items: '' none, 'all' every one, else names joined by '+' or ','."""
    return parse_items(text, COOP, "coop")


class CoopPlay:
    """One-colour Research Labs, the rush to the exit, the Exit Control Rooms split by the Antidote (module
    docstring)."""

    def _coop(self, item):
        return item in self._coop_set

    # -- colour: "a Research Lab formed by cards that are all of the same color ... 2 Clue cards" --------------
    def _point_colours(self, v, vx):
        """The colours of the lab cards whose symbol is on grid point vx."""
        comp = self.g.comp
        out = set()
        for r in v["rooms"]:
            c = self.card_id.get(r["card"], -1)
            if c >= 0 and not r["trap"] and self._lab_vertex(c, r["rot"], r["cell"]) == vx:
                out.add(comp.room_colour[c])
        return out

    def _colour_fits(self, v, card, vx, completes):
        """May lab card `card` put its symbol on grid point vx? Always without `colour`; with it, when the point's
        cards are all of the card's colour, or the card completes the lab from turn `colour_turn` on."""
        if not self._coop("colour") or self._living(v) < 2:
            return True
        if completes and v["turn"] >= self.params["colour_turn"]:
            return True
        return self._point_colours(v, vx) <= {self.g.comp.room_colour[card]}

    # -- rush: no stealth limit once the Antidote is on the map ----------------------------------------------
    def _rushing(self, v, p, m, a):
        """Action `a` is this Hero's step towards his target (the Antidote, his Exit Control Room, the Starting
        Room), the Antidote is on the map or carried and 2+ Heroes live: the step ignores the stealth limit.
        Other moves (keeping away, idle exploring) keep it."""
        if not self._coop("rush") or self._living(v) < 2 or a is None or not A.MOVE <= a < A.SEARCH:
            return False
        if v["antidote_cell"] < 0 and v["antidote_holder"] < 0:
            return False
        target, _ = self._target(v, p)
        return 0 <= target != v["heroes"][p]["pos"] and a == self._toward(v, p, m, target)

    # -- wait: no Exit Control Room activated alone ------------------------------------------------------
    def _waits(self, v):
        """With 2+ living Heroes an Exit Control Room activated alone opens nothing ("activated simultaneously"):
        the Hero keeps his cube and activates only in a meeting (`_meet`)."""
        return self._coop("wait") and self._living(v) >= 2

    # -- reach: every Hero explores towards the Exit Control Room the map does not reach yet -------------------
    def _unreached_exit(self, v, living):
        """The one Exit Control Room no Hero can walk to from the Starting Room (through any room) while the other
        can, with 2-3 living Heroes and the exit closed; else None."""
        if not self._coop("reach") or not 2 <= living <= 3 or v["exit_open"]:
            return None
        dist, _ = Table(self.g, v).paths(self.geo.start_cell, avoid=False)
        out = [c for c in v["exit_cells"] if c not in dist]
        return out[0] if len(out) == 1 else None

    # -- split: the Exit Control Room nearer to the Antidote for its fetcher -----------------------------------
    def _split_room(self, v, p, living):
        """With 2-3 living Heroes: the fetcher (or carrier) the Exit Control Room nearer to the Antidote, the
        others the other one; None when the item is off or the Antidote is not on the table."""
        if not self._coop("split") or not 2 <= living <= 3:
            return None
        holder = v["antidote_holder"]
        if holder >= 0:
            carrier, spot = holder, v["heroes"][holder]["pos"]
        elif v["antidote_cell"] >= 0:
            carrier, spot = self._fetcher(v), v["antidote_cell"]
        else:
            return None
        ex = v["exit_cells"]
        near = min(range(2), key=lambda i: (self._manhattan(spot, ex[i]), i))
        return ex[near] if p == carrier else ex[1 - near]

    def _coop_room(self, v, p, living):
        """The Exit Control Room this Hero heads for under `reach` and `split`, or None (the plain choice)."""
        room = self._unreached_exit(v, living)
        return room if room is not None else self._split_room(v, p, living)
