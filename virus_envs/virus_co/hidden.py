"""What one seat of Virus & Co cannot see: `determinize` resamples it, `hidden_facts` names it.

Hidden from seat p (docs/rules/virus_co.md, "Hidden information"):
- the other players' risk hands ("deal them out completely"; only their sizes lie open);
- the face-down circulating risk card, unless p issued it ("places it face-down ... That player
  may not look at it either");
- the two risk cards returned unseen with 3 or 6 players ("return these to the box without
  looking at them");
- the face-down parts of both stacks ("form two face-down stacks. Turn over the top card of each
  stack"): which cards they hold is known by elimination, not their order or which stack holds which.

The unknown risk cards are one pool dealt uniformly into those places (sizes kept), the face-down
stack cards another; the face-up cards stay. Future chance is reseeded by core `State.determinize`.
"""
from __future__ import annotations


def determinize(s, p: int, rng):
    """A copy of s with everything p cannot see resampled (s is not changed)."""
    t = s.clone()
    n = t.game.num_players
    pool = []
    for q in range(n):
        if q != p:
            pool += t.hand[q]
    hide_rc = t.rc >= 0 and t.issuer != p
    if hide_rc:
        pool.append(t.rc)
    pool += t.rbox
    pool = [pool[i] for i in rng.permutation(len(pool))]
    i = 0
    for q in range(n):
        if q != p:
            k = len(t.hand[q])
            t.hand[q] = sorted(pool[i:i + k])
            i += k
    if hide_rc:
        t.rc = pool[i]
        i += 1
    t.rbox = sorted(pool[i:])
    down = t.stacks[0][:-1] + t.stacks[1][:-1]
    down = [down[j] for j in rng.permutation(len(down))]
    for st in t.stacks:
        if st:
            k = len(st) - 1
            top = st[-1]
            st[:] = down[:k] + [top]
            down = down[k:]
    return t


def hidden_facts(s, p: int) -> dict:
    """The components p cannot see that can take more than one value, by their docs names.

    Risk cards are named by type (copies of a type are alike); virus cards by their card names."""
    g = s.game
    cat = g.cat
    n = g.num_players
    RT, RN = g.RTYPE, cat.risk_names
    others = [q for q in range(n) if q != p]
    hide_rc = s.rc >= 0 and s.issuer != p
    places = [s.hand[q] for q in others] + [[s.rc] if hide_rc else [], s.rbox]
    pool = [c for place in places for c in place]
    # a place's content can change only by a swap with another non-empty place holding another type
    open_risk = len({RT[c] for c in pool}) > 1 and sum(1 for place in places if place) >= 2
    facts = {}
    if open_risk and any(s.hand[q] for q in others):
        facts["other risk hands"] = [[q, sorted(RN[RT[c]] for c in s.hand[q])] for q in others]
    if open_risk and hide_rc:
        facts["face-down circulating risk card"] = RN[RT[s.rc]]
    if open_risk and s.rbox:
        facts["risk cards returned unseen"] = sorted(RN[RT[c]] for c in s.rbox)
    if len(s.stacks[0][:-1]) + len(s.stacks[1][:-1]) >= 2:
        facts["face-down stack cards"] = [[cat.name[c] for c in st[:-1]] for st in s.stacks]
    return facts
