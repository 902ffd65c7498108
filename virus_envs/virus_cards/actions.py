"""VIRUS! action table: built once per player count. Seats in actions are relative: +0 is the
player deciding, +1 the next in turn order, and so on.

| family | ids | meaning |
|---|---|---|
| play on slot | 3 x n x 5 | hand card h onto player +r's organ slot of colour c: organ (own empty slot), virus, medicine, Organ Thief (steal it), Transplant (first organ) |
| play on player | 3 x (n-1) | hand card h aimed at player +r (Medical Error) |
| play | 3 | hand card h with no target (Contagion, Latex Glove) |
| discard | 7 | discard a non-empty subset of hand positions {0,1,2} |
| transplant pick | n x 5 | the second organ of a Transplant: player +r, colour c |
| contagion move | 5 x (n-1) x 5 | move the virus on own organ of colour c to player +r's free organ of colour d |
"""
from __future__ import annotations

from functools import lru_cache

from ..core import ActionTable
from .cards import COLOURS

HAND = 3
# payload kinds
A_SLOT, A_PLAYER, A_PLAY, A_DISCARD, A_PICK, A_MOVE = range(6)


class CardActions:
    """Index tables for one player count (plain nested lists: fastest to read in Python)."""

    def __init__(self, n: int):
        t = ActionTable()
        self.slot = [[[t.add(f"play {h} -> +{r} {COLOURS[c]}", (A_SLOT, h, r, c)) for c in range(5)]
                      for r in range(n)] for h in range(HAND)]
        self.player = [[-1] + [t.add(f"play {h} -> +{r}", (A_PLAYER, h, r)) for r in range(1, n)]
                       for h in range(HAND)]
        self.play = [t.add(f"play {h}", (A_PLAY, h)) for h in range(HAND)]
        self.discard = [-1] * 8
        for bits in range(1, 8):
            pos = [i for i in range(HAND) if bits >> i & 1]
            self.discard[bits] = t.add("discard " + ",".join(map(str, pos)), (A_DISCARD, bits))
        # discard actions available with a hand of L cards: every non-empty subset of positions < L
        self.discard_ids = [[self.discard[b] for b in range(1, 8) if b >> L == 0] for L in range(HAND + 1)]
        self.pick = [[t.add(f"transplant with +{r} {COLOURS[c]}", (A_PICK, r, c)) for c in range(5)]
                     for r in range(n)]
        self.move = [[[-1] * 5] + [[t.add(f"contagion {COLOURS[c]} -> +{r} {COLOURS[d]}", (A_MOVE, c, r, d))
                                    for d in range(5)] for r in range(1, n)] for c in range(5)]
        self.table = t
        self.payload = t.payloads


@lru_cache(maxsize=None)
def card_actions(n: int) -> CardActions:
    """The action table for n players (built once)."""
    return CardActions(n)
