"""The rulebook's final evaluation and winners, written out from its text (not the engine's tables).

Reads the public sheets of `view()`; used by the scenario and playout tests as an independent oracle.
"""
from __future__ import annotations

from virus_envs.roll_write.sheet import COLOURS


def research(boxes: int) -> int:
    """'Boxes crossed off Points 0-3 boxes 0 points 4-7 boxes 5 points 8-10 boxes 10 points 11-12 boxes 12 points'"""
    return 0 if boxes <= 3 else 5 if boxes <= 7 else 10 if boxes <= 10 else 12


def evaluation(sheet: dict) -> int:
    """The final evaluation row, from one sheet of view(): research per disease, 'Speed bonus' 5 per
    cure marked first, 'add 3 points for each' circled wildcard ('Crossed-off wildcards score no
    points'), minus 'the values written in your virus tube'."""
    return (sum(research(len(sheet["grids"][c])) for c in COLOURS)
            + 5 * sum(1 for c in COLOURS if sheet["cures"][c] == "speed bonus")
            + 3 * sheet["wildcards"] - sum(sheet["virus_tube"]))


def rulebook_winners(totals, lab_boxes, contamination) -> list[int]:
    """'Whoever has scored the most points has won the game. In the event of a tie, the player who has
    crossed off the most boxes in the laboratory row wins. If the tie persists, whoever has the
    lowest contaminated samples value wins. If there is still a tie, ... all tied players ... share
    the victory.'"""
    seats = list(range(len(totals)))
    for key in (lambda p: totals[p], lambda p: lab_boxes[p], lambda p: -contamination[p]):
        best = max(key(p) for p in seats)
        seats = [p for p in seats if key(p) == best]
    return seats


def rulebook_returns(view: dict) -> list[float]:
    """The env's returns convention (docs: sole winner +1, k sharing 1/k, others -1) on the oracle's winners."""
    sheets = view["sheets"]
    w = rulebook_winners([evaluation(sh) for sh in sheets], [len(sh["lab_row"]) for sh in sheets],
                         [sum(sh["virus_tube"]) for sh in sheets])
    return [1 / len(w) if p in w else -1.0 for p in range(len(sheets))]
