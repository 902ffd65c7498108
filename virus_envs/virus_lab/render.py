"""Text rendering of a Virus position: the table grid, then the heroes.

Each placed room is drawn in a 3-character cell:  `[x]` where the brackets mark the colour
(r y b g, S = Starting Room, X = Exit Control, lower case = trap side) and the middle shows
a hero seat digit, `*` for creatures, `A` for the Antidote, `.` otherwise.
"""
from __future__ import annotations

from .components import COLOURS
from .encoding import _display_choice


def render(s) -> str:
    g = s.g
    geo, comp = g.geo, g.comp
    nr = comp.num_rooms
    lines = [f"Virus  turn {s.turn}/9  lead seat {s.lead}  phase: {s.phase()}  to act: {s.current_player()}"]
    for r in range(geo.rows):
        row = []
        for c in range(geo.cols):
            cell = r * geo.cols + c
            k = s.card[cell]
            if k < 0:
                row.append(" . ")
                continue
            tag = "S" if k == nr else "X" if k == nr + 1 else COLOURS[comp.room_colour[k]][0]
            tag = tag.lower() if s.trapside[cell] else tag.upper()
            mid = "."
            heroes = [str(p) for p in range(s.n) if s.pos[p] == cell]
            if heroes:
                mid = heroes[0]
            elif any(s.cre[cell * 9:(cell + 1) * 9]):
                mid = "*"
            elif s.antidote_cell == cell:
                mid = "A"
            row.append(f"{tag}{mid}{tag}")
        lines.append(" ".join(row))
    for p in range(s.n):
        w = s.wounds[p]
        state = "exited" if s.exited[p] else ("dead" if not s.alive[p] else f"room {s.pos[p]}")
        lines.append(f"seat {p}: {state}  stock {s.stock[p]} reserve {s.reserve[p]} bullets {s.bullets[p]} "
                     f"tokens {s.tok[p]} wounds {len(w)} (deep {sum(1 for x in w if x[2])}) "
                     f"display {sum(1 for c in s.disp[p] if c[1])}/{len(s.disp[p])} up"
                     f"{' ANTIDOTE' if s.antidote_holder == p else ''}")
    dc = _display_choice(s)
    if dc:
        lines.append(f"display choice ({dc['kind']}, for '{dc['for']}'): seat {dc['seat']} picks {dc['left']} "
                     f"of slots {dc['slots']}" + (f", chosen {dc['chosen']}" if dc["chosen"] else ""))
    lines.append(f"clues {list(s.clues)}  antidote {s.antidote_cell}  exit open {s.exit_open}  "
                 f"room deck {len(s.room_deck)}")
    if s.terminal:
        lines.append("GAME OVER: " + ("the Heroes win" if s.won else "the Heroes lose")
                     + (" (truncated)" if s.truncated else ""))
    return "\n".join(lines)
