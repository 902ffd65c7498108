"""VIRUS! as a picture: every body with its organs and the cards lying on them, the hands, the piles.

Drawn from a table dict: `full_table(state)` (every hand face up) or `state.view(p)` (p's own hand
face up, the others face down). See `virus_envs/core/picture.py`.
"""
from __future__ import annotations

import math

from ..core.picture import (BLUE, GREEN, INK, MULTI_STOPS, MUTED, PAPER, RED, YELLOW, badge, card_back, header,
                            seat_colour)
from ..core.svg import Svg
from .cards import MEDICINE, ORGAN, TREATMENTS, VIRUS

PRINT = (RED, GREEN, BLUE, YELLOW, None)          # None: multicolour (a gradient)
ORGANS = ("heart", "stomach", "brain", "bone", "any organ")
CW, CH = 64, 90           # a card
SLOT_W = 84
ROW_H = 128
LEFT = 186
WIDTH = LEFT + 3 * 68 + 24 + 5 * SLOT_W + 16


def full_table(s) -> dict:
    """Everything on the table, every hand face up."""
    t = s.view(s.turn_player)
    t["hands"] = [h[:] for h in s.hands]
    return t


def _fill(svg, colour):
    return svg.gradient("multi", MULTI_STOPS, x2=1, y2=1) if colour == 4 else PRINT[colour]


def _icon(svg, kind, colour, cx, cy, r):
    """The card's emblem: organ (a round body), virus (a spiky blob), medicine (a cross)."""
    fill = _fill(svg, colour)
    if kind == ORGAN:
        svg.circle(cx, cy, r, fill=fill, stroke="#555555", sw=1)
        svg.circle(cx - r * 0.35, cy - r * 0.35, r * 0.25, fill="#ffffff", fill_opacity=0.55)
    elif kind == VIRUS:
        pts = [(cx + (r if k % 2 == 0 else r * 0.6) * math.cos(k * math.pi / 8),
                cy + (r if k % 2 == 0 else r * 0.6) * math.sin(k * math.pi / 8)) for k in range(16)]
        svg.polygon(pts, fill=fill, stroke="#444444", sw=1)
        svg.circle(cx - r * 0.2, cy - r * 0.15, r * 0.13, fill="#ffffff")
        svg.circle(cx + r * 0.2, cy - r * 0.15, r * 0.13, fill="#ffffff")
    elif kind == MEDICINE:
        a, b = r * 0.36, r
        svg.polygon([(cx - a, cy - b), (cx + a, cy - b), (cx + a, cy - a), (cx + b, cy - a), (cx + b, cy + a),
                     (cx + a, cy + a), (cx + a, cy + b), (cx - a, cy + b), (cx - a, cy + a), (cx - b, cy + a),
                     (cx - b, cy - a), (cx - a, cy - a)], fill=fill, stroke="#444444", sw=1)


def card_face(svg, g, card, x, y, w=CW, h=CH):
    """One card face up: kind band, emblem, name."""
    kind, colour = g.KIND[card], g.COLOUR[card]
    if kind == 3:   # treatment
        svg.rect(x, y, w, h, fill="#efe6ff", stroke="#6a4c93", sw=1.5, rx=6)
        svg.rect(x, y, w, 16, fill="#6a4c93", rx=6)
        svg.ctext(x + w / 2, y + 8, "TREATMENT", size=7.5, fill="#ffffff", weight="bold")
        words = TREATMENTS[g.TREAT[card]].split("_")
        for i, wd in enumerate(words):
            svg.ctext(x + w / 2, y + h / 2 + (i - (len(words) - 1) / 2) * 13, wd, size=10.5, fill="#3d2a5c", weight="bold")
        return
    edge = _fill(svg, colour)
    svg.rect(x, y, w, h, fill=PAPER, stroke=edge, sw=2.2, rx=6)
    svg.rect(x + 1, y + 1, w - 2, 15, fill=edge, rx=5)
    svg.ctext(x + w / 2, y + 8.5, ("ORGAN", "VIRUS", "MEDICINE")[kind], size=7.5,
              fill=INK if colour == 3 else "#ffffff", weight="bold")
    _icon(svg, kind, colour, x + w / 2, y + h / 2 + 2, min(w, h) * 0.27)
    label = ORGANS[colour] if kind == ORGAN else ("red", "green", "blue", "yellow", "multi")[colour]
    svg.ctext(x + w / 2, y + h - 9, label, size=8.5, fill=INK)


def _mini(svg, g, card, x, y, w=26, h=30):
    """A virus or medicine lying on an organ: a small card with its emblem."""
    colour = g.COLOUR[card]
    svg.rect(x, y, w, h, fill=PAPER, stroke=_fill(svg, colour), sw=1.6, rx=3)
    _icon(svg, g.KIND[card], colour, x + w / 2, y + h / 2, w * 0.32)


def _slot(svg, g, organ, att, x, y):
    """An organ with the cards lying on it: free, infected, vaccinated, immunized."""
    if organ < 0:
        svg.rect(x, y, CW, CH, fill="none", stroke="#c9c2b2", sw=1.2, rx=6, stroke_dasharray="4 3")
        return
    if not att:
        card_face(svg, g, organ, x, y)
        return
    colour = g.COLOUR[organ]
    edge = _fill(svg, colour)
    svg.rect(x, y, CW, CH, fill=PAPER, stroke=edge, sw=2.2, rx=6)
    svg.rect(x + 1, y + 1, CW - 2, 15, fill=edge, rx=5)
    svg.ctext(x + CW / 2, y + 8.5, "ORGAN", size=7.5, fill=INK if colour == 3 else "#ffffff", weight="bold")
    _icon(svg, ORGAN, colour, x + CW / 2, y + 32, 12)
    svg.ctext(x + CW / 2, y + 52, ORGANS[colour], size=8.5, fill=INK)
    for i, a in enumerate(att):
        _mini(svg, g, a, x + 5 + 28 * i, y + 57)
    if len(att) == 2:
        svg.rect(x - 3, y - 3, CW + 6, CH + 6, fill="none", stroke="#c9a227", sw=3, rx=8)
        badge(svg, x + 2, y - 11, "IMMUNE", fill="#c9a227", size=8)
    elif g.KIND[att[0]] == VIRUS:
        badge(svg, x + 2, y - 11, "infected", fill="#b00020", size=8)
    else:
        badge(svg, x + 2, y - 11, "vaccinated", fill="#1b7f5b", size=8)


def draw(g, t: dict, seat: int | None) -> Svg:
    n = t["num_players"]
    height = 164 + n * ROW_H
    over = t["winner"] >= 0 or t["truncated"]
    moment = ("game over: " + (f"player_{t['winner']} wins" if t["winner"] >= 0 else "truncated")) if over else \
        f"turn {t['turn'] + 1}: player_{t['current_player']} - {t['phase']}"
    svg = Svg(WIDTH, height, title=f"VIRUS! {moment}")
    header(svg, "VIRUS!", moment, seat, WIDTH)
    # the piles
    y0 = 46
    card_back(svg, 16, y0, CW, CH, "deck")
    svg.ctext(16 + CW / 2, y0 + CH + 10, f"{t['deck_size']} cards", size=10, fill=MUTED)
    if t["discard"]:
        card_face(svg, g, t["discard"][-1], 96, y0)
    else:
        svg.rect(96, y0, CW, CH, fill="none", stroke="#c9c2b2", sw=1.2, rx=6, stroke_dasharray="4 3")
    svg.ctext(96 + CW / 2, y0 + CH + 10, f"discard {len(t['discard'])}", size=10, fill=MUTED)
    if t.get("transplant_first"):
        q, c = t["transplant_first"]
        svg.text(186, y0 + 20, f"Transplant: first organ chosen is player_{q}'s {ORGANS[c]}", size=13, fill="#6a4c93",
                 weight="bold")
    svg.text(186, y0 + 44, "a body wins with 4 healthy organs (free, vaccinated or immunized)", size=11, fill=MUTED)
    hands = t.get("hands")
    for q in range(n):
        y = 164 + q * ROW_H
        acting = q == t["current_player"]
        svg.rect(8, y - 6, WIDTH - 16, ROW_H - 8, fill="#fff8e7" if acting else "#faf7f0",
                 stroke=seat_colour(q) if acting else "#e0d8c6", sw=2.5 if acting else 1, rx=10)
        svg.circle(26, y + 14, 9, fill=seat_colour(q))
        svg.text(42, y + 19, f"player_{q}" + (" (you)" if q == seat else ""), size=14, weight="bold")
        healthy = sum(1 for c in range(5) if t["organ"][q][c] >= 0 and not _infected(g, t["att"][q][c]))
        svg.text(20, y + 42, f"healthy organs {healthy}/4", size=11, fill=MUTED)
        if acting:
            badge(svg, 20, y + 54, "to act", fill=seat_colour(q))
        if t["winner"] == q:
            badge(svg, 20, y + 78, "WINNER", fill="#c9a227")
        # the hand
        hx = LEFT - 20
        cards = hands[q] if hands is not None else (t["hand"] if q == seat else None)
        k = len(cards) if cards is not None else t["hand_sizes"][q]
        for i in range(k):
            if cards is not None:
                card_face(svg, g, cards[i], hx + i * 68, y + 14)
            else:
                card_back(svg, hx + i * 68, y + 14, CW, CH)
        if k == 0:
            svg.text(hx, y + 60, "no cards in hand", size=11, fill=MUTED)
        svg.text(hx, y + 118, "hand", size=9, fill=MUTED)
        # the body: one slot per colour
        bx = LEFT - 20 + 3 * 68 + 24
        for c in range(5):
            _slot(svg, g, t["organ"][q][c], t["att"][q][c], bx + c * SLOT_W, y + 16)
        svg.text(bx, y + 118, "body", size=9, fill=MUTED)
    return svg


def _infected(g, att) -> bool:
    return len(att) == 1 and g.KIND[att[0]] == VIRUS

