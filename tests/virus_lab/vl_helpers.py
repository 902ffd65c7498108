"""Shared helpers of the virus_lab tests: invariants and hand-built positions."""
from __future__ import annotations

import numpy as np

from virus_envs.virus_lab import creatures as CR
from virus_envs.virus_lab.actions import A, TABLE
from virus_envs.virus_lab.components import TK_EXPL
from virus_envs.virus_lab.game import PH_WOUND, Q_RT, VirusLabGame

START, EXIT = 144, 145
RED, YELLOW, BLUE, GREEN = range(4)
ZOMBIE, DOG, BLOODER, TRICKER, DESU, MUTANT, VERDUKO, EXECUTIONER, BOSS = range(9)


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
        if k >= 4 and hasattr(s, "bp_box"):     # Play as Boss: "Use 4 Leaders ..." (the others stay in the box)
            used += s.bp_box[k - 4]
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
        cubes += sum(b[1] for b in getattr(s, "sk_bids", ()) if b[0] == p)    # the Skill auction
        assert cubes == comp.action_cubes, f"seat {p} action cubes {cubes}"
        assert min(s.stock[p], s.reserve[p], s.bullets[p]) >= 0
        assert 0 <= s.res[p] <= 30
        assert len(s.disp[p]) <= 24 and len(s.net[p]) <= 6
        assert sum(1 for c in s.disp[p] if not c[1]) <= 8
    assert all(x <= 6 for x in s.expl), "Limit of 6 Explosive tokens in a room"
    assert sum((m + 1) // 2 for m in s.majors) <= comp.major_cards
    assert s.door_pool + sum(s.t_door) + sum(1 for x in s.door if x) == comp.doors_supply
    assert s.breach_pool + sum(s.t_breach) + sum(s.breach) == comp.breach_supply
    if g.config["walls"]:
        # Walls System: "1 Barrier and 3 bars ... for each Hero"; a Barrier on the map holds 1 + its bars
        h = g.num_heroes
        assert s.bar_pool[0] + sum(t[0] for t in s.t_bar) + sum(1 for x in s.barrier if x) == h
        assert s.bar_pool[1] + sum(t[1] for t in s.t_bar) + sum(x - 1 for x in s.barrier if x) == 3 * h
        assert all(x <= 4 for x in s.barrier), "at most 3 bars on a Barrier"
    else:
        for b in range(4):
            placed = sum(1 for x in s.barrier if x > b)
            assert s.bar_pool[b] + sum(s.t_bar[p][b] for p in range(n)) + placed == comp.barrier_supply[b]
    # Smoke bombs: "Smoke bombs (4 tokens)": stocks + rooms smoked this turn + reserve
    assert sum(s.smoke) + len(s.smoked) + s.smoke_pool == (4 if g.config["smoke_bombs"] else 0)
    # Resolution tokens: "Resolution Tokens (4 tokens)": stocks + the roll + reserve
    assert sum(s.resol) + s.resol_roll[0] + s.resol_pool == (4 if g.config["resolution_tokens"] else 0)
    if g.num_heroes == 4:   # no removal: every room card is somewhere
        cards = [c for c in s.card if comp.is_room(c)] + s.room_deck + s.room_discard
        cards += [c for p in range(n) for c, _ in s.disp[p]] + [c for p in range(n) for c in s.net[p]]
        if s.trap_card >= 0:
            cards.append(s.trap_card)
        assert sorted(cards) == list(g.room_cards), "room cards not conserved"
    wounds = s.wound_deck + s.wound_discard + [w[0] for p in range(n) for w in s.wounds[p] if w[0] >= 0]
    assert len(wounds) == len(set(wounds)) and len(wounds) == g.num_wound_cards


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
    for i, x in enumerate(s.cre):           # the plain Leaders of a setup with Boss players (boss_players.py)
        if x and i % 9 < 8:
            s.pool[i % 9] += x
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


def four(g, colour=RED, k=0):
    """A plain 4-doorway room card of a colour (the k-th such card)."""
    got = [c for c in range(144) if g.comp.room_doors[c] == 15 and g.comp.room_colour[c] == colour
           and g.comp.room_lab[c] < 0 and g.comp.room_special[c] == 0 and g.comp.room_bonus[c] == 0]
    return got[k % len(got)]


def cell(s, r, c):
    return s.g.geo.cell(r, c)


def creatures(s, c, **kinds):
    names = ("zombie", "dog", "blooder", "tricker", "desu", "mutant", "verduko", "executioner")
    for name, k in kinds.items():
        t = names.index(name)
        s.cre[c * 9 + t] += k
        s.pool[t] -= k
    s._mask = None


def at(s, p, c):
    s.pos[p] = c
    s._mask = None


def keep_wounds(s):
    """Keep every Wound card drawn (the redraw-with-an-Advantage decision)."""
    while s.ph == PH_WOUND:
        s.apply_action(A.KEEP)


def decide(s, ph, p, queue=None):
    """A decision of phase `ph` pending for seat p (the Real Time phase follows unless `queue` says otherwise)."""
    s.ph, s.cur = ph, p
    s.queue = [[Q_RT]] if queue is None else queue
    s._mask = None


def event_card(s, effect=None, number=None, trap=None):
    """The first Event card with the given effect, number and trap symbol."""
    comp = s.g.comp
    for e in range(25):
        if (effect is None or comp.event_effect[e] == effect) and (number is None or comp.event_number[e] == number) \
                and (trap is None or comp.event_trap[e] == trap):
            return e
    raise LookupError


def corridor(s, row, cols, colour=RED):
    """4-doorway rooms of one colour along a row (absolute columns); their cells."""
    return [put(s, row, c, four(s.g, colour, 0)) for c in cols]


def give_tiles(s, p, bars=(0, 0, 0, 0), doors=0, breaches=0, expl=0):
    """Barrier tiles (per bars 0-3), Doors, Breaches and Explosive tokens from the reserve to p's stock."""
    for b in range(4):
        s.t_bar[p][b] += bars[b]
        s.bar_pool[b] -= bars[b]
    s.t_door[p] += doors
    s.door_pool -= doors
    s.t_breach[p] += breaches
    s.breach_pool -= breaches
    s.tok[p][TK_EXPL] += expl
    s.tok_pool[TK_EXPL] -= expl
    s._mask = None


def random_playout_checked(g, seed, every=0.05):
    """A seeded random game; at random steps (rate `every`) the invariants and the `to_dict` round trip."""
    rng = np.random.default_rng(seed)
    s = g.new_initial_state(seed=seed)
    while not s.is_terminal():
        s.apply_action(int(rng.choice(np.flatnonzero(s.legal_action_mask()))))
        if rng.random() < every:
            check_invariants(s)
            assert g.state_from_dict(s.to_dict()).to_dict() == s.to_dict()
    return s


def play_checked(g, make, seed):
    """One seeded game with `make(g)` in every seat, each action checked against its mask; (final state, actions)."""
    from virus_envs.experiments.arena import play_game

    line = [make(g) for _ in range(g.num_players)]
    for ag in line:
        inner = ag.act

        def checked(d, inner=inner):
            a = inner(d)
            assert d.action_mask[a], TABLE.name(a)
            return a
        ag.act = checked
    return play_game(g, line, seed=seed, record=True)


def path_to(s, goal):
    """4-doorway red rooms from the Starting Room down its column, then along the goal's row up to `goal`; their cells."""
    g = s.g
    r0, c0 = g.geo.rc(g.geo.start_cell)
    r1, c1 = g.geo.rc(goal)
    cells = [(r, c0) for r in range(r0 + 1, r1 + 1)]
    step = 1 if c1 > c0 else -1
    cells += [(r1, c) for c in range(c0 + step, c1, step)]
    return [put(s, r, c, four(g, RED, k)) for k, (r, c) in enumerate(cells)]


def patched_data(tmp_path, name, old, new):
    """A copy of the built-in component files in tmp_path with `old` replaced by `new` in `name` (wounds.yaml,
    events.yaml, supply.yaml...): a user's card file. Returns the directory, for `data_dir`."""
    import os
    import shutil
    from virus_envs.virus_lab.components import DATA_DIR
    for fn in os.listdir(DATA_DIR):
        shutil.copy(os.path.join(DATA_DIR, fn), tmp_path / fn)
    text = (tmp_path / name).read_text()
    assert old in text, (name, old)
    (tmp_path / name).write_text(text.replace(old, new))
    return str(tmp_path)
