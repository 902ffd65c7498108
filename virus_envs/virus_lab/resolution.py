"""Special contents: Resolution tokens (config `resolution_tokens=True`).

"Resolution Tokens (4 tokens). These special tokens may be purchased like any other token for 10 resources each.
A player may roll them in combat. A successful result allows the player to fix the result of one other rolled cube
or token, making it successful as well."

State: `resol` (the tokens in each Hero's stock), `resol_pool` (the game reserve) and `resol_roll` = [in the roll
being built or thrown, positive, fixes left]. Actions (appended, `ranged.action_table`): `buy resolution token`
(turn end, 10 resources), `roll: add resolution token` (building a roll), `resolution: <element> positive` (after
the throw, one per positive Resolution token: a negative Action cube, bullet or one of the six tokens turned
positive). A Resolution token lands positive like any element (`p_positive`); a Four-leaf re-roll throws it again.
After the roll it goes back like the other tokens: to the stock with a positive Shield ("recover all tokens (not
cubes) rolled"), else to the reserve. ASSUMPTION: fixing another Resolution token is not offered (a positive one
only fixes: turning one positive spends the fix it would give back); fixes not used when the roll is accepted
are lost ("All Successes must be spent immediately" by analogy).
"""
from __future__ import annotations

PRICE = 10
ELEMENTS = ("action cube", "bullet", "four_leaf", "heart", "adrenaline", "book", "shield", "explosive")
# where each element's negative / positive count sits in `rollres` (pos cubes, neg cubes, pos bullets, neg
# bullets, pos tokens x6, neg tokens x6)
_NEG = (1, 3) + tuple(10 + t for t in range(6))
_POS = (0, 2) + tuple(4 + t for t in range(6))


def names():
    return (["buy resolution token", "roll: add resolution token"]
            + [f"resolution: {e} positive" for e in ELEMENTS])


def can_buy(s, p):
    return s.g.resolution and s.res[p] >= PRICE and s.resol_pool > 0


def buy(s, p):
    s.res[p] -= PRICE
    s.resol[p] += 1
    s.resol_pool -= 1


def mask_roll(s, m, p):
    m[s.g.resol_base + 1] = s.resol[p] > 0


def add(s, p):
    s.resol[p] -= 1
    s.resol_roll[0] += 1


def throw(s, rng, pp):
    """The Resolution tokens of the roll land positive with `p_positive` each; each positive one gives a fix."""
    k = s.resol_roll[0]
    pos = int((rng.random(k) < pp).sum()) if k else 0
    s.resol_roll[1] = s.resol_roll[2] = pos


def mask_fix(s, m):
    if s.resol_roll and s.resol_roll[2] > 0:
        for i, j in enumerate(_NEG):
            m[s.g.resol_base + 2 + i] = s.rollres[j] > 0


def fix(s, a):
    """ "fix the result of one other rolled cube or token, making it successful as well" """
    i = a - s.g.resol_base - 2
    s.rollres[_NEG[i]] -= 1
    s.rollres[_POS[i]] += 1
    s.resol_roll[2] -= 1


def settle(s, p, keep_tokens):
    """The roll accepted: its Resolution tokens back to the stock (a positive Shield) or to the reserve."""
    k = s.resol_roll[0]
    if keep_tokens:
        s.resol[p] += k
    else:
        s.resol_pool += k
    s.resol_roll[:] = [0, 0, 0]
