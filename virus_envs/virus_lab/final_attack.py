"""Additional Final Attack (an advanced element, config `final_attack=True`) and the Irreducible Boss.

"If at the beginning of Slow Phase a Hero is located in the same room with some creatures, all creatures will
attack the Hero. If there are more than an Hero damage points are divided between them (rounded up). Is not
possible to dodge this attack, but it's possible to use Shield tokens to absorb it.
Note: Irreducible Boss needs this additional element into the game. If you are not using it, discard the Boss."

The Irreducible Boss is a card of the Boss deck (`irreducible: true` in data/bosses.yaml). What it prints is not
public; its DESIGNED power: its own Damage in the Final Attack "cannot be reduced": it is neither divided between
the Heroes of its room nor absorbed by Shields (each Hero there takes all of it).
"""
from __future__ import annotations

from . import creatures as CR

NK = CR.NK


def discard_irreducible(s, deck):
    """Setup without the Final Attack: "If you are not using it, discard the Boss" (out of the game, in sight
    of all: `boss_gone` with its card known). Returns the Boss deck without it (its order otherwise kept)."""
    irr = s.g.comp.boss_irreducible
    if s.g.final_attack or not any(irr):
        return deck
    s.boss_gone.extend([c, 1] for c in deck if irr[c])
    return [c for c in deck if not irr[c]]


def final_attack_steps(s):
    """The queue items of the Final Attack: per Hero standing with Creatures, [Q_DAMAGE, seat, amount,
    irreducible part, face down]. "all creatures will attack the Hero": every Creature of the room, Dodged or
    not ("Is not possible to dodge this attack"); Damage as in a counter-attack (Blooders and Leaders 2, Bosses
    per card); several Heroes: each takes the total divided by their number, rounded up; Shields may absorb it
    (the `amount` part of a Damage step), not the Irreducible Boss's part."""
    from .flow import Q_DAMAGE
    comp = s.g.comp
    out = []
    for cell in sorted({s.pos[p] for p in range(s.n) if s.pos[p] >= 0 and s.alive[p]}):
        if not CR.has_creatures(s, cell) or cell in s.smoked:    # a Smoke bomb: "no combat ... during this turn"
            continue
        heroes = [p for p in range(s.n) if s.pos[p] == cell and s.alive[p]]
        s._reveal_bosses(cell)           # attacked by it: the Boss card is known (its Damage shows)
        b = cell * NK
        total = sum(s.cre[b + k] * comp.cre_damage[k] for k in range(8))
        hard = 0
        for rec in s.bosses:
            if rec[0] == cell:
                if comp.boss_irreducible and comp.boss_irreducible[rec[2]]:
                    hard += comp.boss_damage[rec[2]]
                else:
                    total += comp.boss_damage[rec[2]]
        share = -(-total // len(heroes))    # "divided between them (rounded up)"
        for p in heroes:
            out.append([Q_DAMAGE, p, share, hard, 1])
    return out
