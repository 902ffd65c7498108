"""str(state): a readable text table of the cards on the table and every score sheet."""
from __future__ import annotations

from .sheet import COLOURS


def _die(v, own):
    """A slot: '.' or value(owner)."""
    return "  . " if not v else f"{v}(p{own})"


def render(s) -> str:
    """The table and every sheet, as text."""
    g = s.game
    sh = g.sheet
    out = []
    head = "GAME OVER" if s.terminal else f"round {s.rnd + 1}/{g.rounds}  to act: p{s.current_player()} ({s.phase()})"
    out.append(f"Virus!: Roll & Write, {s.n} players  {head}  priority: p{s.priority}"
               + (" (taken this round)" if s.prio_taken else ""))
    if s.wild_die:
        out.append(f"  changed die to place: {s.wild_die}")
    if s.pending:
        q, kind, col = s.pending[0]
        what = "circle a wildcard" if kind else f"extra cross-off in {'any colour' if col < 0 else COLOURS[col]}"
        out.append(f"  pending: p{q} {what}" + (f" (+{len(s.pending) - 1} more)" if len(s.pending) > 1 else ""))
    out.append("  trial cards: " + "  ".join(
        f"{COLOURS[c]}[{_die(s.trial[2 * c], s.trial_own[2 * c])} {_die(s.trial[2 * c + 1], s.trial_own[2 * c + 1])}]"
        for c in range(4)))
    labs = []
    for k, name in enumerate(g.lab_names):
        labs.append(f"{name}[" + " ".join(_die(s.lab[j], s.lab_own[j])
                                         for j in range(k * g.slots, (k + 1) * g.slots)) + "]")
    out.append("  laboratory:  " + "  ".join(labs))
    out.append("  contaminated samples: " + "  ".join(
        f"p{p}:" + ",".join(str(v) for v in range(1, 7) for _ in range(s.contam[p][v])) for p in range(s.n)))
    for p in range(s.n):
        res = " ".join(str(v) for v in range(1, 7) for _ in range(s.reserve[p][v])) or "-"
        out.append(f"p{p}: score {s.score_of(p)}  reserve [{res}]  wildcards {s.wild[p]} circled, {s.wused[p]} used  "
                   f"virus tube {s.virus[p]}")
        for c in range(4):
            rows = []
            for r in sh.boxes[c]:
                rows.append(" ".join(" X" if s.grid[p][c] >> v & 1 else f"{v:2d}" for v in r))
            cure = ("", " CURE +5", " cure lost")[s.cure[p][c]]
            out.append(f"    {COLOURS[c]:<6} | " + " | ".join(rows) + f"  ({(s.grid[p][c]).bit_count()} boxes){cure}")
        out.append("    lab    | " + " ".join(" X" if s.labrow[p] >> v & 1 else f"{v:2d}" for v in sh.lab_values))
    return "\n".join(out)


def seat_text(g, v: dict) -> str:
    """`render_for(p)`: the table and every sheet as seat p sees them (drawn from view(p); all of it is public)."""
    sh = g.sheet
    p = v["seat"]

    def slot(x):
        return "  .  " if not x[0] else f"{x[0]}(p{x[1]})"

    head = "GAME OVER" if v["terminal"] else (f"round {v['round']}/{v['rounds']}, player_{v['current_player']} to act "
                                            f"({v['phase']})")
    out = [f"Virus!: Roll & Write, {v['num_players']} players: {head}; priority access player_{v['priority']}"
           + (" (taken this round)" if v["priority_taken"] else ""), f"you are player_{p}"]
    if v["changed_die"]:
        out.append(f"  changed die to place: {v['changed_die']}")
    if v["pending"]:
        pend = v["pending"]
        out.append(f"  pending: player_{pend['seat']} {pend['kind']}" + (f" ({pend['colour']})" if pend["colour"] else ""))
    out.append("  trial cards:  " + "   ".join(f"{c} [{slot(a)} {slot(b)}]" for c, (a, b) in v["trial_cards"].items()))
    out.append("  laboratory:   " + "   ".join(f"{lab['card']} [" + " ".join(slot(x) for x in lab["slots"]) + "]"
                                             for lab in v["lab_cards"]))
    out.append("  contaminated samples: " + "  ".join(
        f"p{q}: {','.join(map(str, s['contaminated'])) or '-'}" for q, s in enumerate(v["sheets"])))
    for q, s in enumerate(v["sheets"]):
        out.append(f"player_{q}{' (you)' if q == p else ''}: score {s['score']}, reserve "
                   f"[{' '.join(map(str, s['reserve'])) or '-'}], wildcards {s['wildcards']} circled "
                   f"{s['wildcards_used']} used, virus tube {s['virus_tube'] or '-'}")
        for c, colour in enumerate(COLOURS):
            done = set(s["grids"][colour])
            rows = " | ".join(" ".join(" X" if x in done else f"{x:2d}" for x in r) for r in sh.boxes[c])
            cure = {"open": "", "speed bonus": "  CURE +5", "crossed out": "  cure taken"}[s["cures"][colour]]
            out.append(f"    {colour:<6} | {rows}  ({len(done)}/{len(sh.values[c])}){cure}")
        lab = set(s["lab_row"])
        out.append("    lab    | " + " ".join(" X" if x in lab else f"{x:2d}" for x in sh.lab_values))
    return "\n".join(out)
