"""Virus!: Roll & Write as a picture: the clinical trial cards, the laboratory cards and the
contaminated samples card with the dice on them, and every score sheet (four disease grids with
their line icons, laboratory row, wildcard and virus tubes, cures, reserve dice, score).

Everything in this game is public but the dice to come, so `full_table(state)` is the view.
"""
from __future__ import annotations

from ..core.picture import BLUE, GREEN, INK, MUTED, PAPER, RED, YELLOW, badge, die, header, seat_colour
from ..core.svg import Svg
from .sheet import COLOURS, EXTRA_CROSS_OFF, WILDCARD

PRINT = {"blue": BLUE, "red": RED, "green": GREEN, "yellow": YELLOW}
TINT = {"blue": "#dbe8fb", "red": "#fbdde1", "green": "#dcf2e1", "yellow": "#fdf1c7"}
WIDTH = 1140
SHEET_W, SHEET_H = 549, 312
TABLE_H = 178
BOX = 22


def full_table(s) -> dict:
    """All of this game is on the table."""
    return s.view(max(s.current_player(), 0))


def _slot(svg, x, y, v, own, size=30):
    if v:
        die(svg, x, y, v, seat_colour(own), size)
    else:
        svg.rect(x, y, size, size, fill="#ffffff", stroke="#b9b2a3", sw=1.2, rx=5, stroke_dasharray="3 2")


def _table(svg, g, t, y0):
    """The shared cards in the middle of the table."""
    x = 14
    for colour in COLOURS:
        slots = t["trial_cards"][colour]
        svg.rect(x, y0, 112, 124, fill=TINT[colour], stroke=PRINT[colour], sw=2, rx=8)
        svg.rect(x, y0, 112, 20, fill=PRINT[colour], rx=8)
        svg.ctext(x + 56, y0 + 10, f"{colour} trial", size=11, fill=INK if colour == "yellow" else "#ffffff",
                  weight="bold")
        for i, (v, own) in enumerate(slots):
            _slot(svg, x + 14 + i * 48, y0 + 44, v, own)
        svg.ctext(x + 56, y0 + 100, "die, or sum of two", size=8.5, fill=MUTED)
        x += 122
    for k, lab in enumerate(t["lab_cards"]):
        card = g.lab_cards[k]
        svg.rect(x, y0, 168, 124, fill="#f1ecff", stroke="#6a4c93", sw=2, rx=8)
        svg.rect(x, y0, 168, 20, fill="#6a4c93", rx=8)
        svg.ctext(x + 84, y0 + 10, f"laboratory {lab['card']}", size=11, fill="#ffffff", weight="bold")
        for i, (v, own) in enumerate(lab["slots"]):
            _slot(svg, x + 84 - 24 * len(lab["slots"]) + 6 + i * 48, y0 + 30, v, own)
        for j, line in enumerate(_wrap(card.text, 30)[:3]):
            svg.ctext(x + 84, y0 + 78 + j * 12, line, size=8.5, fill="#3d2a5c")
        x += 178
    # contaminated samples and the priority access card
    svg.rect(x, y0, WIDTH - x - 14, 124, fill="#fbe9e7", stroke="#8d2c1f", sw=2, rx=8)
    svg.rect(x, y0, WIDTH - x - 14, 20, fill="#8d2c1f", rx=8)
    svg.ctext(x + (WIDTH - x - 14) / 2, y0 + 10, "contaminated samples", size=11, fill="#ffffff", weight="bold")
    dx = x + 8
    dy = y0 + 28
    for q, sheet in enumerate(t["sheets"]):
        for v in sheet["contaminated"]:
            if dx > WIDTH - 40:
                dx, dy = x + 8, dy + 26
            die(svg, dx, dy, v, seat_colour(q), 22)
            dx += 25
    if not any(sh["contaminated"] for sh in t["sheets"]):
        svg.ctext(x + (WIDTH - x - 14) / 2, y0 + 60, "(no die this round)", size=10, fill=MUTED)
    svg.text(x + 8, y0 + 116, f"priority access: player_{t['priority']}"
             + (" (taken this round)" if t["priority_taken"] else ""), size=10, fill=INK)


def _wrap(text, width):
    words, lines, cur = text.split(), [], ""
    for w in words:
        if len(cur) + len(w) + 1 > width and cur:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}".strip()
    return lines + [cur] if cur else lines


def _cross(svg, x, y, size, colour):
    m = size * 0.18
    svg.line(x + m, y + m, x + size - m, y + size - m, stroke=colour, sw=2.2)
    svg.line(x + size - m, y + m, x + m, y + size - m, stroke=colour, sw=2.2)


def _grid(svg, g, c, crossed, cure, x, y, ink):
    sh = g.sheet
    colour = COLOURS[c]
    rows = sh.boxes[c]
    done = set(crossed)
    svg.text(x, y - 6, f"{colour}", size=11, fill=PRINT[colour], weight="bold")
    svg.text(x + 4 * BOX + 14, y - 6, f"{len(done)}/{len(sh.values[c])}", size=10, fill=MUTED, anchor="end")
    lines = sh.lines[c]
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            bx, by = x + j * BOX, y + i * BOX
            svg.rect(bx, by, BOX, BOX, fill=TINT[colour], stroke=PRINT[colour], sw=1)
            svg.ctext(bx + BOX / 2, by + BOX / 2, str(v), size=10, fill=INK)
            if v in done:
                _cross(svg, bx, by, BOX, ink)
        # the icon at the row's end
        svg.circle(x + len(row) * BOX + 7, y + i * BOX + BOX / 2, 5, fill=PRINT[COLOURS[lines[i][1]]], stroke="#666666")
        if all(v in done for v in row):
            svg.line(x - 2, y + i * BOX + BOX / 2, x + len(row) * BOX + 2, y + i * BOX + BOX / 2, stroke=ink, sw=1.5)
    for j in range(len(rows[0])):
        svg.circle(x + j * BOX + BOX / 2, y + len(rows) * BOX + 7, 5, fill=PRINT[COLOURS[lines[len(rows) + j][1]]],
                   stroke="#666666")
        if all(r[j] in done for r in rows):
            svg.line(x + j * BOX + BOX / 2, y - 2, x + j * BOX + BOX / 2, y + len(rows) * BOX + 2, stroke=ink, sw=1.5)
    cy = y + len(rows) * BOX + 26
    if cure == "speed bonus":
        badge(svg, x, cy - 12, "CURE +5", fill="#c9a227", size=9)
    elif cure == "crossed out":
        badge(svg, x, cy - 12, "cure taken", fill="#9e9e9e", size=9)
    else:
        svg.text(x, cy, "cure: open", size=9, fill=MUTED)


def _sheet(svg, g, t, q, x, y, seat):
    sh = g.sheet
    sheet = t["sheets"][q]
    acting = q == t["current_player"]
    ink = seat_colour(q)
    svg.rect(x, y, SHEET_W, SHEET_H, fill=PAPER, stroke=ink if acting else "#d6cfbf", sw=2.5 if acting else 1.2, rx=10)
    svg.circle(x + 18, y + 18, 8, fill=ink)
    svg.text(x + 32, y + 23, f"player_{q}" + (" (you)" if q == seat else ""), size=14, weight="bold")
    svg.text(x + SHEET_W - 12, y + 23, f"score {sheet['score']}", size=14, weight="bold", anchor="end")
    bx = x + 170
    if acting:
        bx += badge(svg, bx, y + 10, "to act", fill=ink) + 6
    if t["priority"] == q:
        badge(svg, bx, y + 10, "priority access", fill="#6a4c93")
    # reserve dice
    svg.text(x + 14, y + 50, "reserve", size=10, fill=MUTED)
    for i, v in enumerate(sheet["reserve"]):
        die(svg, x + 62 + i * 28, y + 36, v, ink, 24)
    if not sheet["reserve"]:
        svg.text(x + 62, y + 50, "(all placed)", size=10, fill=MUTED)
    # the four disease grids
    for c in range(4):
        _grid(svg, g, c, sheet["grids"][COLOURS[c]], sheet["cures"][COLOURS[c]], x + 14 + c * 135, y + 88, ink)
    # laboratory row
    ly = y + 218
    svg.text(x + 14, ly - 6, "laboratory row", size=10, fill="#6a4c93", weight="bold")
    crossed = set(sheet["lab_row"])
    for i, v in enumerate(sh.lab_values):
        lx = x + 14 + i * 26
        svg.rect(lx, ly, 24, 24, fill="#f1ecff", stroke="#6a4c93", sw=1)
        svg.ctext(lx + 12, ly + 10, str(v), size=10)
        adv = sh.lab_advantage[v]
        if adv:
            svg.ctext(lx + 12, ly + 19, "+X" if adv == EXTRA_CROSS_OFF else "W", size=7,
                      fill="#b00020" if adv == EXTRA_CROSS_OFF else "#1b7f5b", weight="bold")
        if v in crossed:
            _cross(svg, lx, ly, 24, ink)
    # wildcard tube: used (crossed), circled (available), empty
    wy = ly + 44
    svg.text(x + 14, wy + 4, "wildcards", size=10, fill="#1b7f5b", weight="bold")
    used, circled = sheet["wildcards_used"], sheet["wildcards"]
    for i in range(sh.wildcard_boxes):
        cx = x + 90 + i * 20
        svg.circle(cx, wy, 7, fill="#ffffff", stroke="#1b7f5b" if i < used + circled else "#c9c2b2", sw=1.5)
        if i < used:
            _cross(svg, cx - 7, wy - 7, 14, ink)
        elif i < used + circled:
            svg.circle(cx, wy, 4, fill="#1b7f5b")
    # virus tube
    vx = x + 300
    svg.text(vx, wy + 4, "virus tube", size=10, fill="#8d2c1f", weight="bold")
    for i in range(sh.virus_boxes):
        bx = vx + 64 + i * 22
        svg.rect(bx, wy - 9, 20, 18, fill="#fbe9e7", stroke="#8d2c1f", sw=1, rx=3)
        if i < len(sheet["virus_tube"]):
            svg.ctext(bx + 10, wy, str(sheet["virus_tube"][i]), size=9, weight="bold")
    svg.text(vx + 64, wy + 22, f"penalty {sum(sheet['virus_tube'])}", size=9, fill=MUTED)


def draw(g, t: dict, seat: int | None) -> Svg:
    n = t["num_players"]
    rows = (n + 1) // 2
    height = 44 + TABLE_H + rows * (SHEET_H + 12) + 4
    if t["terminal"]:
        moment = "game over: " + ", ".join(f"player_{q} {sh['score']}" for q, sh in enumerate(t["sheets"]))
    else:
        moment = f"round {t['round']}/{t['rounds']}: player_{t['current_player']} - {t['phase']}"
    svg = Svg(WIDTH, height, title=f"Virus!: Roll & Write {moment}")
    header(svg, "Virus!: Roll & Write", moment, seat, WIDTH)
    _table(svg, g, t, 46)
    info = []
    if t.get("changed_die"):
        info.append(f"die changed by a wildcard, to place now: {t['changed_die']}")
    if t.get("pending"):
        p = t["pending"]
        what = p["kind"] + (f" ({p['colour']})" if p.get("colour") else "")
        info.append(f"pending: player_{p['seat']} {what}")
    svg.text(14, 46 + 124 + 22, "   ".join(info) or f"dice placed this round: {t['dice_placed_this_round']}",
             size=12, fill="#6a4c93" if info else MUTED, weight="bold" if info else None)
    for q in range(n):
        x = 14 + (q % 2) * (SHEET_W + 14)
        y = 44 + TABLE_H + (q // 2) * (SHEET_H + 12)
        _sheet(svg, g, t, q, x, y, seat)
    return svg
