"""Special contents: Smoke bombs (config `smoke_bombs=True`).

"Smoke bombs (4 tokens). These special tokens may be purchased like any other token, for 10 resources each. A
player may use them when his Hero is in the same room as any Creatures. If used, no combat may take place in that
room during this turn and the player may flee without taking any penalties. Smoke bombs also prevent player vs
player combat and ranged combat. At turn end the Smoke bomb must removed and placed on game reserve."

State: `smoke` (the tokens in each Hero's stock), `smoke_pool` (the game reserve), `smoked` (the rooms holding a
used Smoke bomb this turn; the token lies there until the turn end). Actions (appended, `ranged.action_table`):
`buy smoke bomb` (turn end, 10 resources) and `use smoke bomb` (Real Time phase, free: the rulebook gives no
cost, like the Advantages; in a room with Creatures not smoked yet).
While a room is smoked: no attack and no attack together there, no counter-attack (after a roll, at the end of
the phase) and no Additional Final Attack on its Heroes, a Hero leaving it takes neither the Creatures' attacks
nor the 1 Damage point penalty, and nobody shoots into it.
"""
from __future__ import annotations

from . import creatures as CR

PRICE = 10


def buy_id(g):
    return g.smoke_base


def use_id(g):
    return g.smoke_base + 1


def can_buy(s, p):
    return s.g.smoke and s.res[p] >= PRICE and s.smoke_pool > 0


def buy(s, p):
    s.res[p] -= PRICE
    s.smoke[p] += 1
    s.smoke_pool -= 1


def can_use(s, p):
    cell = s.pos[p]
    return s.smoke[p] > 0 and cell not in s.smoked and CR.has_creatures(s, cell)


def use(s, p):
    s.smoke[p] -= 1
    s.smoked.append(s.pos[p])


def turn_end(s):
    """ "At turn end the Smoke bomb must removed and placed on game reserve." """
    s.smoke_pool += len(s.smoked)
    s.smoked = []
