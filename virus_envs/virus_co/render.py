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
