"""Text rendering of a Virus position: the table grid, then the heroes.

Each placed room is drawn in a 3-character cell:  `[x]` where the brackets mark the colour
(r y b g, S = Starting Room, X = Exit Control, lower case = trap side) and the middle shows
a hero seat digit, `*` for creatures, `A` for the Antidote, `.` otherwise.
"""
from __future__ import annotations

from .components import COLOURS, TOKENS
from .encoding import _display_choice
from . import scenarios


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
            tag = "S" if k == nr else "X" if k == nr + 1 else "R" if k == nr + 2 else COLOURS[comp.room_colour[k]][0]
            tag = tag.lower() if s.trapside[cell] else tag.upper()
            mid = "."
            heroes = [str(p) for p in range(s.n) if s.pos[p] == cell]
            if heroes:
                mid = heroes[0]
            elif any(s.cre[cell * 9:(cell + 1) * 9]):
                mid = "*"
            elif s.antidote_cell == cell:
                mid = "A"
            elif s.g.child and s.child[1] < 0 and s.child[2] == 1 and s.child[0] == cell:
                mid = "c"                   # the Child, alone (Save the Child; R = the Scenario room)
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
    if s.g.scenario:
        sc = scenarios.view(s)
        lines.append(f"scenario {sc['scenario']}: room {sc['room']}, goal met {sc['goal_met']}"
                     + (f", child {sc['child']['state']} (follows {sc['child']['follows']})" if s.g.child else "")
                     + (f", computer room deactivated {sc['computer_room_deactivated']}" if s.g.scenario == scenarios.REBOOT else ""))
    lines.append(f"clues {list(s.clues)}  antidote {s.antidote_cell}  exit open {s.exit_open}  "
                 f"room deck {len(s.room_deck)}")
    if s.terminal:
        lines.append("GAME OVER: " + ("the Heroes win" if s.won else "the Heroes lose")
                     + (" (truncated)" if s.truncated else ""))
    return "\n".join(lines)


def seat_text(g, v: dict) -> str:
    """`render_for(p)`: the map and the Heroes as seat p sees them (drawn from view(p): face-down wounds stay
    face down). Each room is `[x]`: the brackets give the colour as in str(state), the middle a Hero's seat,
    `*` Creatures, `A` the Antidote."""
    geo = g.geo
    p = v["seat"]
    rooms = {r["cell"]: r for r in v["rooms"]}
    at = {}
    for h in v["heroes"]:
        if not h["exited"] and h["alive"]:
            at.setdefault(h["pos"], str(h["seat"]))
    out = [f"Virus, turn {v['turn']}/9, {v['phase']}" + (f", player_{v['to_act']} to act" if v["to_act"] >= 0 else "")
           + f"; lead player_{v['lead']}; you are player_{p}",
           f"event: {v['event'] or '-'}; exit {'OPEN' if v['exit_open'] else 'closed'}; room deck {v['room_deck']}, "
           f"wound deck {v['wound_deck']}"]
    out.append("    " + " ".join(f"{c:>3}" for c in range(geo.cols)))
    for r in range(geo.rows):
        row = []
        for c in range(geo.cols):
            cell = r * geo.cols + c
            room = rooms.get(cell)
            if room is None:
                row.append(" . ")
                continue
            tag = ("S" if room["card"] == "Starting Room" else "X" if room["card"] == "Exit Control"
                   else COLOURS[room["colour"]][0])
            tag = tag.lower() if room["trap"] else tag.upper()
            mid = at.get(cell) or ("*" if any(room["creatures"]) else "A" if v["antidote_cell"] == cell else ".")
            row.append(f"{tag}{mid}{tag}")
        out.append(f"{r:>3} " + " ".join(row))
    out.append("rooms: R/Y/B/G colour (lower case: trap side), S Starting Room, X Exit Control; cell = row * "
               f"{geo.cols} + column")
    boss_seats = v["boss_players"]["seats"] if v.get("boss_players") else ()
    for h in v["heroes"]:
        q = h["seat"]
        if q in boss_seats:             # listed below as a Boss player
            continue
        where = "exited" if h["exited"] else ("dead" if not h["alive"] else f"room {h['pos']}")
        wounds = " ".join(("?" if w["face_down"] else "w") + ("!" if w["deep"] else "") for w in h["wounds"]) or "none"
        toks = ", ".join(f"{TOKENS[k].replace('_', '-')} {n}" for k, n in enumerate(h["tokens"]) if n) or "no tokens"
        out.append(f"player_{q}{' (you)' if q == p else ''}: {where}; cubes {h['stock']} (reserve {h['reserve']}), "
                   f"bullets {h['bullets']}, {toks}; wounds {wounds}"
                   + (" ANTIDOTE" if v["antidote_holder"] == q else ""))
        disp = " ".join(name if up else "(down)" for name, up in h["display"])
        out.append(f"    display: {disp or '-'}" + (f"; net: {' '.join(h['net'])}" if h["net"] else ""))
    out.append(f"clues: {len(v['clues'])}; antidote: "
               + ("not found" if v["antidote_cell"] < 0 else f"room {v['antidote_cell']}"
                  if v["antidote_holder"] < 0 else f"held by player_{v['antidote_holder']}"))
    dc = v["display_choice"]
    if dc:
        out.append(f"display choice ({dc['kind']}, for '{dc['for']}'): player_{dc['seat']} picks {dc['left']} "
                   f"of slots {dc['slots']}")
    bp = v.get("boss_players")
    if bp:                  # Play as Boss: the Boss players, their Bosses, the reader's own hand and choice
        for q in bp["seats"]:
            boss = (f"Boss {bp['active'][q]} in room {bp['active_cell'][q]}, damage {bp['damage'][q]}"
                    if bp["active"][q] else "no Boss")
            out.append(f"player_{q}{' (you)' if q == p else ''} plays as Boss: {bp['hand_sizes'][q]} cards; {boss}")
        if bp["hand"]:
            out.append(f"    your Boss cards: {', '.join(bp['hand'])}")
        if bp["choice"] and bp["choice"]["options"]:
            out.append(f"    your choice: slow option i = {bp['choice']['options']}")
    return "\n".join(out)

