"""Special contents: the Morbo wound (config `morbo=True`).

"Morbo wounds* (1 card). If the back of this card appears when a player draws a Wound card, the player must place
the drawn card over his player board. This player is now infected by the "Morbo". During the Wounds sub-phase of the
Turn-End phase, all players in the same room as a Morbo infected player must draw a face down Wound card."

The card (`data/wounds.yaml`, `special_contents.morbo`; id `comp.num_wounds`, 25) is shuffled into the Wound deck.
Its back is its own (a third kind beside the plain and the red-heart backs): like the heart, it is public on the top
of the deck and on every card drawn since (hidden.py keeps backs when it resamples faces). Drawn, it lies over the
player board in everybody's sight (a face-up wound, assumption 48: it is the Wound card drawn for that Damage point
or wound and counts towards the Hit points); its holder is infected by the Morbo while he holds it (it leaves with
his wounds when he dies). At the Wounds sub-phase (Turn End, with the deep wounds), each other living Hero on the map
in the room of a Morbo-infected Hero draws one face-down Wound card (a Wound card, not a Damage point: no Shield).
"""
from __future__ import annotations

from .flow import Q_WOUNDS

OBS = 1 + 4


def card(g):
    return g.comp.num_wounds


def back(g, c):
    """The back of Wound card c: 0 plain, 1 the red heart, 2 the Morbo."""
    return 2 if c == g.comp.num_wounds else 1 if g.comp.wound_heart[c] else 0


def infected(s, p):
    c = s.g.comp.num_wounds
    return s.alive[p] and any(w[0] == c for w in s.wounds[p])


def wounds_step(s):
    """ "all players in the same room as a Morbo infected player must draw a face down Wound card" """
    out = []
    for p in range(s.n):
        cell = s.pos[p]
        if cell < 0 or not s.alive[p]:
            continue
        if any(q != p and s.pos[q] == cell and infected(s, q) for q in range(s.n)):
            out.append([Q_WOUNDS, p, 1, 1])
    return out


def view(s):
    g = s.g
    return {"morbo_infected": [infected(s, q) for q in range(s.n)],
            "wound_top_morbo": bool(s.wound_deck) and s.wound_deck[-1] == card(g)}


def encode(s, p, out):
    """The top Wound card shows the Morbo back; each relative seat infected by the Morbo."""
    out[0] = 1 if s.wound_deck and s.wound_deck[-1] == card(s.g) else 0
    from .boss_players import seat_slot     # the Hero slot (0-3) of a seat, Boss players' seats (5-6) left out
    for q in range(s.n):
        if seat_slot(s, q, p) >= 0:
            out[1 + seat_slot(s, q, p)] = 1 if infected(s, q) else 0
