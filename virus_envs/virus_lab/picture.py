"""Virus (the co-operative board game) as a picture: the Lab map on the table grid (rooms with their
colour, doorways and walls, trap sides, Research Lab symbols, special rooms, movement bonuses; Doors,
Barriers and Breaches on the borders; Creatures, Heroes, Action cubes, Explosives, the Antidote,
the Exit Control Rooms) and beside it each Hero's board (cubes, bullets, tokens, tiles, wounds, Rooms
display, Net cards), the event, the Clues and the decks.

Everything on the table is public; `full_table(state)` adds what nobody sees: the faces of face-down
wound cards (infected or not) and the unrevealed Boss cards. A seat's picture is drawn from `state.view(p)`.
"""
from __future__ import annotations

from ..core.picture import INK, MUTED, PAPER, badge, badge_width, card_back, header, pill, seat_colour
from ..core.svg import Svg
from .board import DOOR_CLOSED, DOOR_OPEN, rotate
from .components import CLUE_KINDS, COLOURS, SPECIALS, TOKENS, TRAPS

S = 58                    # a room space, in pixels
MAP_X, MAP_Y = 14, 78
ROOM_FILL = {0: "#f4c7c3", 1: "#fbe7a1", 2: "#c6dbf7", 3: "#cdebc5", -1: "#d9d9d9"}
ROOM_EDGE = {0: "#b3261e", 1: "#b08500", 2: "#1c5fb8", 3: "#2e7d32", -1: "#616161"}
TRAP_LABEL = {1: "LASER", 2: "GAS", 3: "+3", 4: "+4", 5: "x2", 6: "x3"}
CREATURE = (("Z", "#6d7f4f"), ("D", "#8d5524"), ("B", "#8b0000"), ("T", "#6a1b9a"),
            ("De", "#37474f"), ("Mu", "#37474f"), ("Ve", "#37474f"), ("Ex", "#37474f"), ("BOSS", "#000000"))
TOKEN_FILL = ("#2e7d32", "#c62828", "#1565c0", "#f5f5f5", "#212121", "#f9a825")
PANEL_X = 0               # set from the map width in draw()


def full_table(s) -> dict:
    """The table (public) plus the faces of face-down wound cards, every Boss card's stats and the Event the Lead
    player may be reading."""
    t = s.view(max(s.current_player(), 0))
    comp = s.g.comp
    t["event"] = comp.event_name[s.event] if s.event >= 0 else None
    for q, h in enumerate(t["heroes"]):
        h["wound_faces"] = [bool(comp.wound_infection[w[0]]) for w in s.wounds[q]]
    t["bosses"] = [{"cell": b[0], "hp": comp.boss_hp[b[2]], "damage": comp.boss_damage[b[2]],
                    "dodge": comp.boss_dodge[b[2]]} for b in s.bosses]
    return t


def _room_tables(g):
    comp = g.comp
    idx = {name: i for i, name in enumerate(comp.room_name)}
    return idx


def _walls(svg, x, y, doors, edge):
    """Walls on the sides without a doorway; a doorway is a gap in the middle of its side."""
    gap = S * 0.36
    a, b = (S - gap) / 2, (S + gap) / 2
    sides = (((x, y), (x + S, y)), ((x + S, y), (x + S, y + S)), ((x + S, y + S), (x, y + S)), ((x, y + S), (x, y)))
    for d, ((x1, y1), (x2, y2)) in enumerate(sides):
        if doors >> d & 1:
            fx1, fy1 = x1 + (x2 - x1) * a / S, y1 + (y2 - y1) * a / S
            fx2, fy2 = x1 + (x2 - x1) * b / S, y1 + (y2 - y1) * b / S
            svg.line(x1, y1, fx1, fy1, stroke=edge, sw=3.5)
            svg.line(fx2, fy2, x2, y2, stroke=edge, sw=3.5)
        else:
            svg.line(x1, y1, x2, y2, stroke=edge, sw=3.5)


def _room(svg, g, idx, room, t):
    comp = g.comp
    x, y = MAP_X + room["col"] * S, MAP_Y + room["row"] * S
    colour = room["colour"]
    name = room["card"]
    svg.rect(x + 1, y + 1, S - 2, S - 2, fill=ROOM_FILL.get(colour, "#d9d9d9"))
    if room["trap"]:
        for k in range(-S, S, 10):      # the trap side: hatched
            svg.line(x + max(k, 0), y + max(-k, 0), x + min(S, S + k), y + min(S, S - k), stroke="#000000", stroke_opacity=0.13, sw=3)
        svg.text(x + S - 3, y + S - 4, TRAP_LABEL[room["trap"]], size=8, fill="#b00020", anchor="end", weight="bold")
    _walls(svg, x, y, room["doors"], ROOM_EDGE.get(colour, "#616161"))
    c = idx.get(name, -1)
    if name == "Starting Room":
        svg.ctext(x + S / 2, y + 9, "START", size=8, fill=INK, weight="bold")
    elif name == "Exit Control":
        on = room["cell"] in {c for act in t["exit_activated"] for c in act}
        svg.ctext(x + S / 2, y + 9, "EXIT", size=8, fill="#1b5e20" if on else INK, weight="bold")
    elif name == "Scenario Room":         # scenarios.py: the Computer Room, the Child's room, the Captive's room
        sc = t["scenario"]
        label = {"reboot": "COMPUTER", "save_the_child": "CHILD RM", "captive": "CAPTIVE"}[sc["scenario"]]
        off = sc["computer_room_deactivated"]
        svg.ctext(x + S / 2, y + 9, label, size=7, fill="#1b5e20" if off else INK, weight="bold")
    elif c >= 0 and not room["trap"]:
        if comp.room_lab[c] >= 0:       # the Research Lab symbol in its corner, turned with the card
            k = (comp.room_lab[c] + room["rot"]) % 4
            lx = x + (S - 13 if k in (0, 1) else 3)
            ly = y + (3 if k in (0, 3) else S - 13)
            svg.rect(lx, ly, 10, 10, fill="#ffffff", stroke="#4a148c", sw=1.2)
            svg.ctext(lx + 5, ly + 5, "L", size=7.5, fill="#4a148c", weight="bold")
        special = comp.room_special[c]
        if special:
            label = ("", "+", "AMMO", "NET")[special]
            svg.text(x + 4, y + S - 4, label, size=9 if special == 1 else 6.5, fill="#b00020", weight="bold")
        if comp.room_bonus[c]:
            svg.text(x + S - 4, y + S - 4, f"+{comp.room_bonus[c]}", size=8, fill="#4a148c", anchor="end", weight="bold")
    ch = t.get("scenario", {}).get("child") if t.get("scenario") else None
    if ch and ch["state"] == "in the lab" and ch["follows"] < 0 and ch["cell"] == room["cell"]:
        svg.ctext(x + S / 2, y + S / 2, "child", size=8, fill="#b00020", weight="bold")
    # Creatures: one chip per kind with its count
    cx = x + 4
    cy = y + S - 24
    for k, cnt in enumerate(room["creatures"]):
        if cnt:
            label, fill = CREATURE[k]
            w = 7 + 5.5 * len(label) + (6 if cnt > 1 else 0)
            svg.rect(cx, cy, w, 11, fill="#9e9e9e" if room["flat"] else fill, rx=3)
            svg.text(cx + 3, cy + 8.5, label + (str(cnt) if cnt > 1 else ""), size=7.5, fill="#ffffff", weight="bold")
            cx += w + 2
            if cx > x + S - 14:
                cx, cy = x + 4, cy - 12
    # Action cubes, one small square per seat with its count
    for q, cnt in enumerate(room["cubes"]):
        if cnt:
            bx = x + 4 + q * 13
            svg.rect(bx, y + 13, 10, 10, fill=seat_colour(q), stroke="#666666", sw=0.8)
            svg.ctext(bx + 5, y + 18, str(cnt), size=7, fill="#ffffff", weight="bold")
    # Heroes
    here = [h for h in t["heroes"] if h["pos"] == room["cell"] and not h["exited"]]
    for i, h in enumerate(here):
        hx, hy = x + 12 + i * 12, y + 33
        svg.circle(hx, hy, 8, fill=seat_colour(h["seat"]) if h["alive"] else "#9e9e9e", stroke="#ffffff", sw=1.5)
        svg.ctext(hx, hy, str(h["seat"]), size=9, fill="#ffffff", weight="bold")
    if t["antidote_cell"] == room["cell"] and t["antidote_holder"] < 0:
        svg.polygon([(x + S - 12, y + 14), (x + S - 6, y + 26), (x + S - 18, y + 26)], fill="#00c853", stroke="#1b5e20")
        svg.ctext(x + S - 12, y + 22, "A", size=6, fill="#ffffff", weight="bold")
    expl = t["explosives"].get(str(room["cell"]))
    if expl:
        svg.circle(x + S - 10, y + 36, 7, fill="#f9a825", stroke="#b00020" if expl[1] else "#6d4c41", sw=2 if expl[1] else 1)
        svg.ctext(x + S - 10, y + 36, str(expl[0]), size=8, fill=INK, weight="bold")


def _border_xy(g, e):
    """Midpoint of border e on the map and whether it is horizontal."""
    geo = g.geo
    off = (geo.rows - 1) * geo.cols
    if e < off:
        r, c = divmod(e, geo.cols)
        return MAP_X + c * S + S / 2, MAP_Y + (r + 1) * S, True
    r, c = divmod(e - off, geo.cols - 1)
    return MAP_X + (c + 1) * S, MAP_Y + r * S + S / 2, False


def _borders(svg, g, t):
    for e, kind in t["doors"].items():
        x, y, horiz = _border_xy(g, int(e))
        w, h = (S * 0.42, 7) if horiz else (7, S * 0.42)
        svg.rect(x - w / 2, y - h / 2, w, h, fill="#6d4c41" if kind == DOOR_CLOSED else "#ffffff",
                 stroke="#6d4c41", sw=1.5)
        if kind == DOOR_OPEN:
            svg.ctext(x, y, "o", size=6, fill="#6d4c41")
    for e, value in t["barriers"].items():
        x, y, _ = _border_xy(g, int(e))
        svg.rect(x - 8, y - 7, 16, 14, fill="#455a64", stroke="#ffffff", sw=1, rx=2)
        svg.ctext(x, y, str(value), size=8.5, fill="#ffffff", weight="bold")
    for e in t["breaches"]:
        x, y, horiz = _border_xy(g, int(e))
        svg.circle(x, y, 6, fill="#ff7043", stroke="#bf360c", sw=1.5)


def _clue_text(g, k):
    comp = g.comp
    kind = CLUE_KINDS[comp.clue_kind[k]]
    arg = comp.clue_arg[k]
    if kind == "doorways":
        return f"a room with {arg} doorway{'s' if arg != 1 else ''}"
    if kind in ("colour_group", "next_to_colour"):
        return kind.replace("_", " ") + f": {COLOURS[arg]}"
    if kind == "zone":
        (r0, r1), (c0, c1) = arg
        return f"zone rows {r0}-{r1}, columns {c0}-{c1}"
    return kind.replace("_", " ")


def _mini_room(svg, g, idx, name, up, x, y, size=22):
    """A Rooms display card: its colour and doorways as printed, a face-down card as a back."""
    if not up:
        card_back(svg, x, y, size, size, "")
        return
    c = idx[name]
    colour = g.comp.room_colour[c]
    svg.rect(x, y, size, size, fill=ROOM_FILL[colour], stroke=ROOM_EDGE[colour], sw=1)
    doors = g.comp.room_doors[c]
    m = size / 2
    for d, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
        if doors >> d & 1:
            svg.line(x + m, y + m, x + m + dx * m, y + m + dy * m, stroke=ROOM_EDGE[colour], sw=2.5)
    if g.comp.room_lab[c] >= 0:
        svg.rect(x + size - 8, y + 1, 7, 7, fill="#ffffff", stroke="#4a148c", sw=0.8)


def _hero(svg, g, idx, t, h, x, y, w, hh, seat):
    q = h["seat"]
    ink = seat_colour(q)
    acting = q == t["to_act"]
    svg.rect(x, y, w, hh - 6, fill="#fff8e7" if acting else PAPER, stroke=ink if acting else "#d6cfbf",
             sw=2.5 if acting else 1.2, rx=8)
    svg.circle(x + 14, y + 14, 8, fill=ink)
    svg.ctext(x + 14, y + 14, str(q), size=9, fill="#ffffff", weight="bold")
    state = "exited" if h["exited"] else ("dead" if not h["alive"] else f"room {h['pos']}")
    svg.text(x + 28, y + 19, f"player_{q}" + (" (you)" if q == seat else "") + f"  {state}", size=12, weight="bold")
    bx = x + w - 8
    for label, fill, on in (("ANTIDOTE", "#00a152", t["antidote_holder"] == q), ("to act", ink, acting)):
        if on:
            bx -= badge_width(label, 9) + 4
            badge(svg, bx, y + 6, label, fill=fill, size=9)
    svg.text(x + 10, y + 38, f"cubes {h['stock']} (reserve {h['reserve']})  bullets {h['bullets']}  "
             f"resources {h['resources']}  knowledge {h['knowledge']}", size=9.5, fill=INK)
    # tokens and tiles
    tx = x + 10
    for k, cnt in enumerate(h["tokens"]):
        if cnt:
            pill(svg, tx + 7, y + 52, TOKEN_FILL[k], r=7, text=str(cnt))
            svg.text(tx + 16, y + 55, TOKENS[k].replace("_", "-"), size=7.5, fill=MUTED)
            tx += 22 + 4.2 * len(TOKENS[k])
    tiles = []
    if h["doors"]:
        tiles.append(f"doors {h['doors']}")
    if h["breaches"]:
        tiles.append(f"breaches {h['breaches']}")
    if any(h["barriers"]):
        tiles.append("barriers " + "/".join(str(b) for b in h["barriers"]))
    if tiles:
        svg.text(tx + 4, y + 55, "  ".join(tiles), size=8, fill=MUTED)
    # wounds: face up (infected or not), face down (unknown unless the full table)
    faces = h.get("wound_faces")
    wx = x + 10
    svg.text(wx, y + 76, "wounds", size=8, fill=MUTED)
    for i, wd in enumerate(h["wounds"]):
        fx = wx + 38 + i * 15
        if wd["face_down"] and faces is None:
            card_back(svg, fx, y + 66, 13, 16, "")
        else:
            infected = faces[i] if faces is not None else bool(g.comp.wound_infection[wd["card"]])
            svg.rect(fx, y + 66, 13, 16, fill="#ffebee" if not infected else "#b71c1c", stroke="#b71c1c", sw=1, rx=2,
                     stroke_dasharray="2 1" if wd["face_down"] else None)
            if infected:
                svg.ctext(fx + 6.5, y + 74, "!", size=9, fill="#ffffff", weight="bold")
        if wd["deep"]:
            svg.circle(fx + 6.5, y + 86, 2.5, fill="#b71c1c")
    # the Rooms display and the Net cards
    dy = y + 92
    for i, (name, up) in enumerate(h["display"][:16]):
        _mini_room(svg, g, idx, name, up, x + 10 + i * 24, dy)
    for i, name in enumerate(h["net"]):
        _mini_room(svg, g, idx, name, True, x + w - 30 - i * 24, dy - 26)


def draw(g, t: dict, seat: int | None) -> Svg:
    geo = g.geo
    idx = _room_tables(g)
    map_w = geo.cols * S
    panel_x = MAP_X + map_w + 16
    panel_w = 420
    width = panel_x + panel_w + 14
    n = len(t["heroes"])
    hero_h = 128
    height = max(MAP_Y + geo.rows * S + 70, MAP_Y + n * hero_h + 150)
    over = t["phase"] == "game over" or t["to_act"] < 0
    moment = f"turn {t['turn']}/9, {t['phase']}" + ("" if over else f", player_{t['to_act']} to act")
    svg = Svg(width, height, title=f"Virus {moment}")
    header(svg, "Virus (the board game)", moment, seat, width)
    info = [f"event: {t['event'] or '-'} ({t['events_played']} played)", f"lead player_{t['lead']}",
            f"exit {'OPEN' if t['exit_open'] else 'closed'}", f"room deck {t['room_deck']}", f"wound deck {t['wound_deck']}"]
    svg.text(MAP_X, 56, "   ".join(info), size=11.5, fill=INK)
    # the table grid and the rooms
    svg.rect(MAP_X, MAP_Y, map_w, geo.rows * S, fill="#ebe5d6", stroke="#c9c2b2", sw=1)
    for r in range(1, geo.rows):
        svg.line(MAP_X, MAP_Y + r * S, MAP_X + map_w, MAP_Y + r * S, stroke="#ddd5c3", sw=0.6)
    for c in range(1, geo.cols):
        svg.line(MAP_X + c * S, MAP_Y, MAP_X + c * S, MAP_Y + geo.rows * S, stroke="#ddd5c3", sw=0.6)
    svg.text(MAP_X + map_w / 2, MAP_Y - 4, "table edge", size=8, fill=MUTED, anchor="middle")
    for room in t["rooms"]:
        _room(svg, g, idx, room, t)
    _borders(svg, g, t)
    for b in t["bosses"]:
        if b["cell"] >= 0:
            r, c = divmod(b["cell"], geo.cols)
            svg.text(MAP_X + c * S + 3, MAP_Y + r * S + S + 10, f"boss hp{b['hp']} dmg{b['damage']} dodge{b['dodge']}",
                     size=7, fill="#000000")
    ly = MAP_Y + geo.rows * S + 20
    svg.text(MAP_X, ly, "Creatures: Z zombie, D dog, B blooder, T tricker, De/Mu/Ve/Ex leaders (desu, mutant, verduko, "
             "executioner), BOSS; grey = lying flat.  L Research Lab symbol, + First Aid, AMMO, NET, +1/+2 movement "
             "bonus;", size=8.5, fill=MUTED)
    svg.text(MAP_X, ly + 13, "hatched = trap side (LASER, GAS, +3/+4, x2/x3);  borders: door (white open, brown closed), "
             "barrier (bars), breach (orange);  coloured squares: Action cubes by seat; A: the Antidote.",
             size=8.5, fill=MUTED)
    # the Heroes' boards
    for i, h in enumerate(t["heroes"]):
        _hero(svg, g, idx, t, h, panel_x, MAP_Y + i * hero_h, panel_w, hero_h, seat)
    cy = MAP_Y + n * hero_h + 8
    svg.text(panel_x, cy + 4, "Clues", size=11, weight="bold")
    for i, k in enumerate(t["clues"][:6]):
        svg.text(panel_x + 8, cy + 20 + i * 14, _clue_text(g, k), size=10)
    if not t["clues"]:
        svg.text(panel_x + 8, cy + 20, "none yet", size=10, fill=MUTED)
    if t["antidote_cell"] >= 0:
        where = f"room {t['antidote_cell']}" if t["antidote_holder"] < 0 else f"held by player_{t['antidote_holder']}"
        svg.text(panel_x + 200, cy + 4, f"Antidote: {where}", size=11, fill="#00a152", weight="bold")
    if t["display_choice"]:
        dc = t["display_choice"]
        svg.text(panel_x + 200, cy + 20, f"display choice: player_{dc['seat']} {dc['kind']} ({dc['left']} left)",
                 size=10, fill="#6a4c93")
    return svg
