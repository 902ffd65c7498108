"""Virus & Co as a picture: the pharmacy, the two stacks with their face-up cards, the circulating
card (or the face-down risk card) and its way round the table, and every player's pills, stake,
display (viruses with the syringes on them), risk cards and cards in front.

`full_table(state)` adds what no single seat sees: every hand of risk cards and the face-down
circulating risk card. A seat's picture is drawn from `state.view(p)`.
"""
from __future__ import annotations

from ..core.picture import BLUE, INK, MUTED, PAPER, RED, YELLOW, badge, card_back, header, pill, seat_colour
from ..core.svg import Svg

PILL = {"blue": BLUE, "yellow": YELLOW, "red": RED}
ORDER = ("blue", "yellow", "red")
WIDTH = 1120
PANEL_W, PANEL_H = 540, 178
TOP = 220


def full_table(s) -> dict:
    """The view of the seat to act, plus every risk hand and the face-down risk card."""
    t = s.view(max(s.current_player(), 0))
    cat = s.game.cat
    t["risk_hands"] = [sorted(cat.risk_names[cat.rtype[c]] for c in s.hand[q]) for q in range(s.game.num_players)]
    if t["risk_card"] is not None and s.rc >= 0:
        t["risk_card"] = dict(t["risk_card"], card=cat.risk_names[cat.rtype[s.rc]])
    return t


def _pills_shown(svg, x, y, pills: dict):
    k = 0
    for c in ORDER:
        for _ in range(pills.get(c, 0)):
            pill(svg, x + k * 13, y, PILL[c], r=5.5)
            k += 1


def virus_card(svg, x, y, value, cross=False, pills=None, syringes=0, w=52, h=72, syringe=False):
    """A virus card: its illness value, the cross symbol, the pills it shows; or a syringe card."""
    if syringe:
        svg.rect(x, y, w, h, fill="#e6f4fb", stroke="#2e86ab", sw=2, rx=6)
        _syringe(svg, x + w / 2, y + h / 2 - 4, w * 0.8)
        svg.ctext(x + w / 2, y + h - 10, "syringe", size=8.5, fill="#1d5c75", weight="bold")
        return
    svg.rect(x, y, w, h, fill=PAPER, stroke="#7a1f2b", sw=2, rx=6)
    svg.ctext(x + w / 2, y + h * 0.42, str(value), size=h * 0.36, fill="#7a1f2b", weight="bold")
    if cross:
        svg.ctext(x + w - 10, y + 10, "✕", size=11, fill="#b00020", weight="bold")
    if pills:
        n = sum(pills.values())
        _pills_shown(svg, x + w / 2 - (n - 1) * 6.5, y + h - 13, pills)
    for i in range(syringes):
        svg.line(x + 6 + i * 8, y + 6, x + w - 14 + i * 8, y + h - 6, stroke="#2e86ab", sw=4, stroke_opacity=0.75)
    if syringes == 2:
        svg.ctext(x + w / 2, y + h * 0.42, "0", size=11, fill="#ffffff", weight="bold")


def _syringe(svg, cx, cy, length):
    svg.rect(cx - length * 0.35, cy - 5, length * 0.55, 10, fill="#ffffff", stroke="#2e86ab", sw=1.5, rx=2)
    svg.rect(cx - length * 0.32, cy - 3, length * 0.25, 6, fill="#d7263d")
    svg.line(cx + length * 0.2, cy, cx + length * 0.45, cy, stroke="#555", sw=1.5)
    svg.line(cx - length * 0.45, cy, cx - length * 0.35, cy, stroke="#2e86ab", sw=3)


def _risk_face(svg, x, y, name, w=60, h=40):
    svg.rect(x, y, w, h, fill="#fff4d6", stroke="#b5651d", sw=1.5, rx=5)
    words = name.split()
    for i, wd in enumerate(words[:3]):
        svg.ctext(x + w / 2, y + h / 2 + (i - (len(words[:3]) - 1) / 2) * 10, wd, size=8.5, fill="#6b3a0a", weight="bold")


def _centre(svg, g, t, y0):
    cat = g.cat
    # the pharmacy
    svg.rect(14, y0, 170, 150, fill="#eef7ee", stroke="#2f6b3b", sw=2, rx=8)
    svg.rect(14, y0, 170, 20, fill="#2f6b3b", rx=8)
    svg.ctext(99, y0 + 10, "pharmacy", size=11, fill="#ffffff", weight="bold")
    for i, c in enumerate(ORDER):
        pill(svg, 46 + i * 52, y0 + 56, PILL[c], r=16, text=str(t["pharmacy"][c]))
        svg.ctext(46 + i * 52, y0 + 86, f"{c} = {cat.pill_value[i]}", size=9, fill=MUTED)
    svg.text(24, y0 + 118, f"round {min(t['round'] + 1, t['rounds'])} of {t['rounds']}", size=11)
    svg.text(24, y0 + 136, f"referral slip: player_{t['referral_slip']}", size=11)
    # the two stacks
    for k, st in enumerate(t["stacks"]):
        x = 200 + k * 100
        svg.text(x + 4, y0 + 12, f"stack {'AB'[k]}", size=11, weight="bold")
        if st["size"] > 1:
            card_back(svg, x + 6, y0 + 24, 70, 96, "")
        up = st["face_up"]
        if up:
            virus_card(svg, x, y0 + 18, up["value"], up["cross"], up["pills"], syringe=up["syringe"], w=70, h=96)
        else:
            svg.rect(x, y0 + 18, 70, 96, fill="none", stroke="#c9c2b2", sw=1.2, rx=6, stroke_dasharray="4 3")
        svg.ctext(x + 35, y0 + 132, f"{st['size']} cards", size=10, fill=MUTED)
    # what goes round the table
    x = 420
    c = t["circulating"]
    r = t["risk_card"]
    if c is not None:
        svg.text(x, y0 + 12, "circulating card", size=11, weight="bold")
        virus_card(svg, x, y0 + 18, c["value"], c["cross"], None, syringe=c["syringe"], w=70, h=96)
        giver = "the stack" if c["giver"] < 0 else f"player_{c['giver']}"
        svg.text(x + 84, y0 + 40, f"held by player_{c['holder']}, from {giver}", size=12)
        svg.text(x + 84, y0 + 60, f"to pass it on: pills worth {c['requirement']}", size=12)
        svg.text(x + 84, y0 + 80, "passes to any player (cross)" if c["cross"] else "passes to a neighbour", size=11,
                 fill=MUTED)
    elif r is not None:
        svg.text(x, y0 + 12, "risk card, face down", size=11, weight="bold")
        if r["card"]:
            _risk_face(svg, x, y0 + 22, r["card"], w=80, h=56)
        else:
            card_back(svg, x, y0 + 22, 80, 56, "risk")
        svg.text(x + 96, y0 + 40, f"in front of player_{r['holder']}, issued by player_{r['issuer']}", size=12)
    else:
        svg.text(x, y0 + 40, "nothing circulating", size=12, fill=MUTED)
    y = y0 + 104
    if t["payment"]:
        pay = t["payment"]
        svg.text(x + 84, y, f"paying {pay['need']} ...", size=11, fill="#6a4c93")
    if t["mr_doctor"] >= 0:
        svg.text(x, y + 24, f"Mr. Doctor: player_{t['mr_doctor']} (address him as Sir/Madam)", size=11, fill="#6a4c93")
    if t.get("round_scores"):
        svg.text(x, y + 42, "rounds so far: " + "; ".join(" ".join(f"{v:+d}" for v in h) for h in t["round_scores"]),
                 size=11, fill=MUTED)


def _panel(svg, g, t, q, x, y, seat):
    pl = t["players"][q]
    acting = q == t["current_player"]
    ink = seat_colour(q)
    svg.rect(x, y, PANEL_W, PANEL_H, fill="#fff8e7" if acting else PAPER, stroke=ink if acting else "#d6cfbf",
             sw=2.5 if acting else 1.2, rx=10)
    svg.circle(x + 18, y + 18, 8, fill=ink)
    svg.text(x + 32, y + 23, f"player_{q}" + (" (you)" if q == seat else ""), size=14, weight="bold")
    bx = x + 160
    if acting:
        bx += badge(svg, bx, y + 10, "to act", fill=ink) + 6
    if t["referral_slip"] == q:
        bx += badge(svg, bx, y + 10, "referral slip", fill="#2f6b3b") + 6
    if t["mr_doctor"] == q:
        badge(svg, bx, y + 10, "Mr. Doctor", fill="#6a4c93")
    ill = pl["illness"]
    svg.text(x + PANEL_W - 12, y + 22, f"illness {ill}/12   total {pl['total']:+d}", size=13, anchor="end",
             fill="#b00020" if ill > 8 else INK, weight="bold")
    # pills and stake
    svg.text(x + 14, y + 50, "pills", size=10, fill=MUTED)
    for i, c in enumerate(ORDER):
        pill(svg, x + 60 + i * 30, y + 46, PILL[c], r=11, text=str(pl["pills"][c]))
    if any(pl["stake"].values()):
        svg.text(x + 160, y + 50, "stake", size=10, fill=MUTED)
        for i, c in enumerate(ORDER):
            if pl["stake"][c]:
                pill(svg, x + 200 + i * 30, y + 46, PILL[c], r=11, text=str(pl["stake"][c]))
    # risk cards in hand
    hand = t.get("risk_hands", [None] * len(t["players"]))[q]
    if hand is None and q == seat:
        hand = t["my_risk_cards"]
    rx = x + 300
    svg.text(rx, y + 80, f"risk cards in hand: {pl['risk_hand_size']}", size=10, fill=MUTED)
    for i in range(pl["risk_hand_size"]):
        cx, cy = rx + (i % 3) * 78, y + 88 + (i // 3) * 36
        if i >= 9:
            break
        if hand is not None:
            _risk_face(svg, cx, cy, hand[i], w=74, h=32)
        else:
            card_back(svg, cx, cy, 74, 32, "risk")
    # the display: viruses with their syringes, loose syringes
    dx = x + 14
    svg.text(dx, y + 80, "display", size=10, fill=MUTED)
    for v in pl["viruses"]:
        pid = g.cat.name.index(v["card"]) if v["card"] in g.cat.name else -1
        shown = dict(zip(ORDER, g.cat.pills[pid])) if pid >= 0 else None
        virus_card(svg, dx, y + 86, v["value"], v["cross"], shown, v["syringes"], w=44, h=62)
        dx += 48
        if dx > x + 250:
            break
    loose = sum(1 for s in pl["syringes"] if s["on"] is None)
    for _ in range(loose):
        virus_card(svg, dx, y + 86, 0, syringe=True, w=44, h=62)
        dx += 48
    if not pl["viruses"] and not loose:
        svg.text(dx, y + 120, "(no virus)", size=10, fill=MUTED)
    # cards in front (Nurse, Diagnosis, Mr. Doctor, ...)
    fx = x + 14
    for name in pl["in_front"]:
        label = name
        if name == "Nurse" and pl["nurse_patient"] >= 0:
            label = f"Nurse -> player_{pl['nurse_patient']}"
        elif name == "Diagnosis" and pl["diagnosis_candidate"] >= 0:
            label = f"Diagnosis: player_{pl['diagnosis_candidate']}"
        if name.startswith("Plague") or name == "Injection":
            continue
        fx += badge(svg, fx, y + PANEL_H - 24, label, fill="#b5651d", size=9) + 4


def draw(g, t: dict, seat: int | None) -> Svg:
    n = t["num_players"]
    rows = (n + 1) // 2
    height = TOP + rows * (PANEL_H + 10) + 6
    if t["terminal"]:
        totals = ", ".join(f"player_{q} {pl['total']:+d}" for q, pl in enumerate(t["players"]))
        moment = f"game over: {totals}"
    else:
        moment = f"player_{t['current_player']} - {t['phase']}"
    svg = Svg(WIDTH, height, title=f"Virus & Co {moment}")
    header(svg, "Virus & Co", moment, seat, WIDTH)
    _centre(svg, g, t, 48)
    for q in range(n):
        _panel(svg, g, t, q, 14 + (q % 2) * (PANEL_W + 12), TOP + (q // 2) * (PANEL_H + 10), seat)
    return svg
