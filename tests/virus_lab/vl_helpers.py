"""Shared helpers of the virus_lab tests: invariants and hand-built positions."""
from __future__ import annotations

import numpy as np

from virus_envs.virus_lab import creatures as CR
from virus_envs.virus_lab.game import VirusLabGame

START, EXIT = 144, 145


def check_invariants(s):
    """Room capacity 7, creature/token/cube/tile supplies conserved, resources within the cap."""
    g = s.g
    comp = g.comp
    N = g.geo.ncells
    n = s.n
    for cell in range(N):
        assert CR.occupancy(s, cell) <= 7, f"room {cell} over capacity"
        if s.card[cell] < 0:
            assert not any(s.cre[cell * 9:(cell + 1) * 9]), "creatures on an empty space"
    # creatures: reserve + on the map (a Boss uses a Leader miniature)
    on = [sum(s.cre[c * 9 + k] for c in range(N)) for k in range(9)]
    assert on[8] == len(s.bosses)
    for k in range(8):
        used = on[k] + sum(1 for b in s.bosses if b[1] == k)
        assert s.pool[k] >= 0 and s.pool[k] + used == comp.cre_count[k], f"creature kind {k} not conserved"
    roll = s.roll or [0] * 8
    for t in range(6):
        tot = s.tok_pool[t] + sum(s.tok[p][t] for p in range(n)) + roll[2 + t] + (sum(s.expl) if t == 5 else 0)
        assert tot == comp.tokens[t], f"token {t} not conserved"
    assert s.bullet_pool + sum(s.bullets) + roll[1] == comp.bullets
    for p in range(n):
        cubes = s.stock[p] + s.reserve[p] + sum(s.cubes[c * n + p] for c in range(N))
        if p == s.cur and s.roll:
            cubes += roll[0]
        assert cubes == comp.action_cubes, f"seat {p} action cubes {cubes}"
        assert min(s.stock[p], s.reserve[p], s.bullets[p]) >= 0
        assert 0 <= s.res[p] <= 30
        assert len(s.disp[p]) <= 24 and len(s.net[p]) <= 6
        assert sum(1 for c in s.disp[p] if not c[1]) <= 8
    assert all(x <= 6 for x in s.expl), "Limit of 6 Explosive tokens in a room"
    assert sum((m + 1) // 2 for m in s.majors) <= comp.major_cards
    assert s.door_pool + sum(s.t_door) + sum(1 for x in s.door if x) == comp.doors_supply
    assert s.breach_pool + sum(s.t_breach) + sum(s.breach) == comp.breach_supply
    for b in range(4):
        placed = sum(1 for x in s.barrier if x > b)
        assert s.bar_pool[b] + sum(s.t_bar[p][b] for p in range(n)) + placed == comp.barrier_supply[b]
    if n == 4:   # no removal: every room card is somewhere
        cards = [c for c in s.card if 0 <= c < 144] + s.room_deck + s.room_discard
        cards += [c for p in range(n) for c, _ in s.disp[p]] + [c for p in range(n) for c in s.net[p]]
        if s.trap_card >= 0:
            cards.append(s.trap_card)
        assert sorted(cards) == list(range(144)), "room cards not conserved"
    wounds = s.wound_deck + s.wound_discard + [w[0] for p in range(n) for w in s.wounds[p] if w[0] >= 0]
    assert len(wounds) == len(set(wounds)) and len(wounds) == 25


def play_random(g, seed, check=False, max_steps=100000):
    s = g.new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while not s.is_terminal():
        a = int(rng.choice(s.legal_actions()))
        s.apply_action(a)
        steps += 1
        if check:
            check_invariants(s)
        assert steps < max_steps
    return s, steps


def empty_state(n=1, difficulty=2, **cfg):
    """A fresh game whose map holds only the Starting Room and the two Exit Control Rooms (no creatures),
    heroes in the Starting Room, in the Real Time phase with seat 0 to act."""
    g = VirusLabGame(num_players=n, difficulty=difficulty, **cfg)
    s = g.new_initial_state(seed=0)
    for cell in range(g.geo.ncells):
        if s.card[cell] not in (-1, START, EXIT):
            s.room_deck.append(s.card[cell])
            s.card[cell] = -1
            s.doors[cell] = 0
    for b in list(s.bosses):
        s.pool[b[1]] += 1
        s.boss_deck.append(b[2])
    s.bosses = []
    s.cre = bytearray(len(s.cre))
    s._mask = None
    return s


def put(s, r, c, card, rot=0, trap=False):
    """Place room `card` at table row r, column c (absolute); returns the cell."""
    cell = s.g.geo.cell(r, c)
    if card in s.room_deck:
        s.room_deck.remove(card)
    s._put(cell, card, rot, trap)
    s._mask = None
    return cell


def find_card(g, doors=None, colour=None, lab=None, special=None, bonus=None, trap=None, exclude=()):
    """First room card id matching the given fields (doors as unrotated mask)."""
    comp = g.comp
    for c in range(comp.num_rooms):
        if c in exclude:
            continue
        if doors is not None and comp.room_doors[c] != doors:
            continue
        if colour is not None and comp.room_colour[c] != colour:
            continue
        if lab is not None and (comp.room_lab[c] >= 0) != lab:
            continue
        if special is not None and comp.room_special[c] != special:
            continue
        if bonus is not None and comp.room_bonus[c] != bonus:
            continue
        if trap is not None and comp.room_trap[c] != trap:
            continue
        return c
    raise LookupError("no such card")
