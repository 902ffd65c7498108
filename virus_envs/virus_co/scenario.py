"""Build Virus & Co positions directly (for tests and worked examples of the rulebook).

    s = build(game, active=0, pills={0: (1, 0, 3)}, pharmacy=(1, 0, 0),
              displays={2: [("V04", 1), "V11"]}, loose={3: 2}, hands={1: ["Infection"]},
              up=("V25", "S01"), history=[[-3, 1, 2, -13]])

Every card not placed is kept so that all cards stay accounted for: virus cards go into the
stacks (face down, under the requested face-up cards), risk cards into the unseen box; pills not
placed go to the box. Seats not named in `pills` get none. `history` lists the scores of the rounds
already played (the position is then in round len(history), the totals their sums).
"""
from __future__ import annotations

from .cards import KIND_SYRINGE, KIND_VIRUS
from .game import PH_TURN


def card_id(game, name: str) -> int:
    """The id of the card with this name (e.g. 'V25', 'S03', 'Plague 3 #2', 'Nurse')."""
    return game.cat.name.index(name)


def risk_id(game, type_name: str, taken) -> int:
    """A risk card of that type (e.g. 'Infection') not in `taken`."""
    cat = game.cat
    for c in range(cat.num_virus_cards, cat.size):
        if cat.risk_names[cat.rtype[c]] == type_name and c not in taken:
            return c
    raise ValueError(f"no free risk card of type {type_name!r}")


def build(game, *, active=0, pills=None, pharmacy=(0, 0, 0), displays=None, loose=None, hands=None,
          up=(None, None), seed=0, history=()):
    """A position at the start of `active`'s turn with the given table."""
    s = game.new_initial_state(seed)
    n = game.num_players
    cat = game.cat
    s.history = [list(h) for h in history]
    s.round = len(s.history)
    s.totals = [sum(h[q] for h in s.history) for q in range(n)]
    s.active = s.cur = active
    s.ph = PH_TURN
    s.pills = [list(pills.get(q, (0, 0, 0))) if pills else [0, 0, 0] for q in range(n)]
    s.pharm = list(pharmacy)
    s.box = [cat.pill_total[c] - s.pharm[c] - sum(pl[c] for pl in s.pills) for c in range(3)]
    if min(s.box) < 0:
        raise ValueError("more pills placed than the game has")
    s.vir = [[] for _ in range(n)]
    s.syr = [[] for _ in range(n)]
    s.on = [-1] * cat.size
    s.nsyr = [0] * cat.size
    free_syr = [c for c in range(cat.num_virus_cards) if cat.kind[c] == KIND_SYRINGE]
    used = set()
    risk_taken = set()
    for q, items in (displays or {}).items():
        for it in items:
            name, k = (it, 0) if isinstance(it, str) else it
            if name in cat.name:
                v = card_id(game, name)
            else:
                v = risk_id(game, name, risk_taken)
                risk_taken.add(v)
            s.vir[q].append(v)
            used.add(v)
            for _ in range(k):
                x = free_syr.pop()
                s.on[x] = v
                s.nsyr[v] += 1
                s.syr[q].append(x)
                used.add(x)
    for q, k in (loose or {}).items():
        for _ in range(k):
            x = free_syr.pop()
            s.syr[q].append(x)
            used.add(x)
    s.hand = [[] for _ in range(n)]
    for q, names in (hands or {}).items():
        for nm in names:
            c = risk_id(game, nm, risk_taken)
            risk_taken.add(c)
            s.hand[q].append(c)
        s.hand[q].sort()
    s.rbox = [c for c in range(cat.num_virus_cards, cat.size) if c not in risk_taken]
    s.used = []
    s.front = [[] for _ in range(n)]
    tops = []
    for nm in up:
        if nm is None:
            tops.append(None)
            continue
        c = card_id(game, nm) if nm in cat.name else free_syr.pop()
        used.add(c)
        tops.append(c)
    rest = [c for c in range(cat.num_virus_cards) if c not in used and c not in tops]
    h = len(rest) // 2
    s.stacks = [rest[:h] + ([tops[0]] if tops[0] is not None else []),
                rest[h:] + ([tops[1]] if tops[1] is not None else [])]
    s.pub = [0] * len(s.pub)
    for q in range(n):
        for c in s.vir[q]:
            if cat.rtype[c] >= 0:
                s.pub[cat.rtype[c]] += 1
    s._mask = None
    return s


def do(s, *names):
    """Apply actions by name (as in the action table); returns s."""
    for nm in names:
        s.apply_action(s.game.string_to_action(nm))
    return s
