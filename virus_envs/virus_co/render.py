"""Text rendering of a Virus & Co position (str(state))."""
from __future__ import annotations

from .cards import KIND_SYRINGE


def _card(cat, c):
    if cat.kind[c] == KIND_SYRINGE:
        return f"{cat.name[c]}(syringe)"
    x = "+" if cat.cross[c] else ""
    return f"{cat.name[c]}({cat.value[c]}{x})"


def render(s) -> str:
    """A readable table: stacks, pharmacy, then one line per seat."""
    g = s.game
    cat = g.cat
    lines = []
    head = f"Virus & Co  round {min(s.round + 1, g.config['rounds'])}/{g.config['rounds']}  turn {s.turns}"
    if s.terminal:
        head += "  GAME OVER" + ("  (truncated)" if s.truncated else "")
    else:
        head += f"  seat {s.cur} to decide: {s.phase()}"
    lines.append(head)
    ups = []
    for k, nm in enumerate("AB"):
        st = s.stacks[k]
        ups.append(f"stack {nm}: {_card(cat, st[-1]) if st else '-'} [{len(st)}]")
    lines.append("  ".join(ups) + f"   pharmacy b/y/r {s.pharm[0]}/{s.pharm[1]}/{s.pharm[2]}")
    if s.circ >= 0:
        lines.append(f"circulating: {_card(cat, s.circ)} held by seat {s.cur}, from seat {s.giver}, "
                     f"requirement {s.req}")
    if s.rc >= 0:
        lines.append(f"risk card face down before seat {s.cur}, issued by seat {s.issuer}")
    lines.append("seat | pills b/y/r | stake | ill | syr | risk | display | in front | total")
    for q in range(g.num_players):
        disp = []
        for v in s.vir[q]:
            k = s.nsyr[v]
            disp.append(_card(cat, v) + ("*" * k))
        loose = sum(1 for x in s.syr[q] if s.on[x] < 0)
        if loose:
            disp.append(f"{loose} loose syringe(s)")
        fr = []
        for c in s.front[q]:
            t = cat.risk_names[cat.rtype[c]]
            if q == s.doctor and c in s.front[q] and t.startswith("Mr"):
                fr.append(t)
            elif t == "Nurse":
                fr.append(f"Nurse->{s.nurse[q]}")
            elif t == "Diagnosis":
                fr.append(f"Diagnosis->{s.diag[q]}")
            else:
                fr.append(t)
        mark = ">" if q == s.active else " "
        pl, st = s.pills[q], s.stake[q]
        lines.append(f"{mark}{q:3d} | {pl[0]}/{pl[1]}/{pl[2]}       | {st[0]}/{st[1]}/{st[2]} | {s.illness(q):3d} | "
                     f"{len(s.syr[q])}   | {len(s.hand[q])}    | {' '.join(disp) or '-'} | {', '.join(fr) or '-'} | "
                     f"{s.totals[q]}")
    if s.history:
        lines.append("rounds: " + "; ".join(" ".join(f"{x:+d}" for x in h) for h in s.history))
    return "\n".join(lines)


def seat_text(g, v: dict) -> str:
    """`render_for(p)`: the table as seat p sees it (drawn from view(p): p's own risk cards only)."""
    p = v["seat"]
    ph = v["pharmacy"]
    head = "GAME OVER" if v["terminal"] else f"player_{v['current_player']} to decide: {v['phase']}"
    out = [f"Virus & Co, round {min(v['round'] + 1, v['rounds'])}/{v['rounds']}: {head}", f"you are player_{p}; "
           f"referral slip: player_{v['referral_slip']}" + (f"; Mr. Doctor: player_{v['mr_doctor']}" if v["mr_doctor"] >= 0 else "")]

    def up(st):
        c = st["face_up"]
        if c is None:
            return "empty"
        if c["syringe"]:
            return f"syringe [{st['size']}]"
        pills = "".join(k[0] * n for k, n in c["pills"].items())
        return f"virus {c['value']}{' cross' if c['cross'] else ''} shows {pills or '-'} [{st['size']}]"

    out.append(f"stack A: {up(v['stacks'][0])}   stack B: {up(v['stacks'][1])}   "
               f"pharmacy blue/yellow/red {ph['blue']}/{ph['yellow']}/{ph['red']}")
    c = v["circulating"]
    if c is not None:
        what = "syringe" if c["syringe"] else f"virus {c['value']}{' (cross)' if c['cross'] else ''}"
        out.append(f"circulating: {what}, held by player_{c['holder']}"
                   + (f" from player_{c['giver']}" if c["giver"] >= 0 else "") + f", passing costs {c['requirement']}")
    r = v["risk_card"]
    if r is not None:
        out.append(f"risk card face down before player_{r['holder']}, issued by player_{r['issuer']}"
                   + (f": {r['card']}" if r["card"] else ""))
    if v["payment"]:
        out.append(f"paying pills worth {v['payment']['need']}")
    out.append("player     | pills b/y/r | stake | illness | syringes | risk cards | display | in front | total")
    for q, pl in enumerate(v["players"]):
        disp = [f"{x['value']}{'x' if x['cross'] else ''}" + "*" * x["syringes"] for x in pl["viruses"]]
        loose = sum(1 for s in pl["syringes"] if s["on"] is None)
        if loose:
            disp.append(f"{loose} loose syringe(s)")
        mark = ">" if q == v["current_player"] else " "
        pi, st = pl["pills"], pl["stake"]
        out.append(f"{mark}player_{q}{'*' if q == p else ' '} | {pi['blue']}/{pi['yellow']}/{pi['red']}       | "
                   f"{st['blue']}/{st['yellow']}/{st['red']} | {pl['illness']:>7} | {len(pl['syringes']):>8} | "
                   f"{pl['risk_hand_size']:>10} | {' '.join(disp) or '-'} | {', '.join(pl['in_front']) or '-'} | "
                   f"{pl['total']:+d}")
    out.append("(* you; a virus shows its value, x = cross symbol, one * per syringe on it)")
    out.append(f"your risk cards: {', '.join(v['my_risk_cards']) or 'none'}")
    if v["round_scores"]:
        out.append("rounds: " + "; ".join(" ".join(f"{x:+d}" for x in h) for h in v["round_scores"]))
    return "\n".join(out)
