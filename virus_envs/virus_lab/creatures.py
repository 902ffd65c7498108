"""The Slow phase: Creature movement ("They see you! They sniff you! They hear you!") and new Creatures.

With `auto_slow_phase=True` the choices are resolved by this documented default (with False, the group
to move next, a side on a tie, the Creature kind and where it goes are the players' actions, see
`slow_run` / `place_run`; the rest keeps the default):
groups move in increasing cell order; ties between equally good sides go to the first side found
(N, E, S, W breadth-first); the Creatures that enter a partly full room are the biggest first;
a new Creature is the kind with most miniatures left in the reserve; option 1 takes the lowest
cell; option 2A is preferred to 2B. See docs/rules/virus_lab.md.

Creature kinds per room: `s.cre[cell * NK + k]`, k = 0 zombie, 1 dog, 2 blooder, 3 tricker,
4 desu, 5 mutant, 6 verduko, 7 executioner, 8 Boss (its card and Leader in `s.bosses`).
"""
from __future__ import annotations

from .board import ALERT, CAPACITY, DOOR_CLOSED, DOOR_OPEN, OPP, bfs
from . import boss_players as BP, legend, walls
from .components import TR_LASERS, TR_MOVE3, TR_MOVE4

NK = 9
BOSS = 8
DESU, MUTANT, VERDUKO, EXECUTIONER = 4, 5, 6, 7
SIZE = (1, 1, 1, 1, 2, 2, 2, 2, 2)
VALUE = (1, 1, 1, 1, 2, 2, 2, 2, 2)     # "+1 for each Creature and +2 for each Leader/Boss"


def creature_space(s, cell):
    b = cell * NK
    cre = s.cre
    return sum(cre[b + k] * SIZE[k] for k in range(NK) if cre[b + k])


def has_creatures(s, cell):
    b = cell * NK
    return any(s.cre[b:b + NK])


def heroes_in(s, cell):
    return sum(1 for p in range(s.n) if s.pos[p] == cell)


def occupancy(s, cell):
    return creature_space(s, cell) + heroes_in(s, cell)


def group_value(s, cell):
    b = cell * NK
    return sum(s.cre[b + k] * VALUE[k] for k in range(NK))


def has_kind(s, cell, k):
    """True when the group has kind k; a Boss "possess[es] all of the Leader powers"."""
    b = cell * NK
    return s.cre[b + k] > 0 or (k >= DESU and s.cre[b + BOSS] > 0)


def hero_cells(s):
    """The Heroes' rooms; with Save the Child the Child's too ("When moving Creatures the Child is considered a
    Hero, but they can only sniff and/or see, but not hear him": hearing counts Action cubes only)."""
    out = [s.pos[p] for p in range(s.n) if s.pos[p] >= 0]
    if s.g.child and s.child[1] < 0 and s.child[2] == 1:
        out.append(s.child[0])
    return out


def line_of_sight(s, cell, d):
    """Rooms seen from `cell` looking to side d, nearest first: the line stops at walls and closed
    Doors, and "full rooms" interrupt it (a full room itself is still seen)."""
    geo = s.g.geo
    out = []
    a = cell
    while True:
        y = geo.NB[a][d]
        if y < 0 or s.card[y] < 0:
            break
        e = geo.EDGE[a][d]
        if not s.breach[e] and not ((s.doors[a] >> d) & 1 and (s.doors[y] >> OPP[d]) & 1):
            break
        if s.door[e] == DOOR_CLOSED:
            break
        out.append(y)
        if occupancy(s, y) >= CAPACITY:
            break
        a = y
    return out


def target_side(s, cell, hear=True):
    """The side a group in `cell` moves to by "see, sniff, hear", or -1 (no target)."""
    heroes = set(hero_cells(s))
    if not heroes:
        return -1
    # 1. They see you!
    best, side = 99, -1
    for d in range(4):
        for k, y in enumerate(line_of_sight(s, cell, d)):
            if y in heroes:
                if k < best:
                    best, side = k, d
                break
    if side >= 0:
        return side
    g = s.g
    # 2. They sniff you! (Mutant: "Sniff the entire map. It sniffs behind doors and has unlimited range")
    mutant = has_kind(s, cell, MUTANT)
    dist, first = bfs(g.geo, s.card, s.doors, s.breach, s.door, cell, 999 if mutant else ALERT, mutant)
    best, side = 999, -1
    for y, k in dist.items():
        if k > 0 and y in heroes and k < best:
            best, side = k, first[y]
    if side >= 0:
        return side
    if not hear:
        return -1
    # 3. They hear you! (a closed Door on the way hides 1 cube, unless another way avoids it)
    open_d, open_f = bfs(g.geo, s.card, s.doors, s.breach, s.door, cell, ALERT, False)
    all_d, all_f = bfs(g.geo, s.card, s.doors, s.breach, s.door, cell, ALERT, True)
    best_key, side = None, -1
    for y, k in all_d.items():
        if k == 0:
            continue
        cubes = sum(s.cubes[y * s.n + p] for p in range(s.n))
        if y in open_d:
            noise, k2, f = cubes, open_d[y], open_f[y]
        else:
            noise, k2, f = cubes - 1, k, all_f[y]
        if noise <= 0:
            continue
        key = (-noise, k2)
        if best_key is None or key < best_key:
            best_key, side = key, f
    return side


def _kill_one_hp(s, cell):
    """Lasers: "Creatures cannot take partial damage", so 1 Damage point kills only 1-HP Creatures."""
    b = cell * NK
    hp = s.g.comp.cre_hp
    for k in range(8):
        if s.cre[b + k] and hp[k] <= 1:
            s.pool[k] += s.cre[b + k]
            s.cre[b + k] = 0


def move_step(s, cell, d):
    """Move the group of `cell` one room to side d. Returns the room entered (-1: it stands still)."""
    y = _open_way(s, cell, d)
    if y < 0:
        return -1
    free = CAPACITY - occupancy(s, y)
    b, by = cell * NK, y * NK
    desu = has_kind(s, cell, DESU)
    need = creature_space(s, cell)
    if need <= free:
        for k in range(NK):
            s.cre[by + k] += s.cre[b + k]
            s.cre[b + k] = 0
        _move_bosses(s, cell, y, None)
    elif desu and free + sum(s.cre[by + k] for k in range(4)) >= 2:
        # Trample: "When it moves into a full room, move two other normal Creatures (size 1) back to the
        # room Desu entered from". Desu (or a Boss, which has every Leader power) goes in alone.
        k = DESU if s.cre[b + DESU] else BOSS
        s.cre[b + k] -= 1
        s.cre[by + k] += 1
        if k == BOSS:
            _move_bosses(s, cell, y, 1)
        over = occupancy(s, y) - CAPACITY
        for j in range(4):
            while over > 0 and s.cre[by + j] > 0:
                s.cre[by + j] -= 1
                s.cre[b + j] += 1
                over -= 1
    else:
        if free <= 0:
            return -1                            # "a full room stops it"
        # "move Creatures of the player's choice into the room until the room is full": biggest first
        moved = 0
        for k in (BOSS, DESU, MUTANT, VERDUKO, EXECUTIONER, 0, 1, 2, 3):
            while s.cre[b + k] and SIZE[k] <= free:
                enter_one(s, cell, y, k)
                free -= SIZE[k]
                moved += 1
        if not moved:
            return -1
    arrive(s, cell, y)
    return y


def enter_one(s, cell, y, k):
    """One Creature of kind k goes from `cell` into `y`."""
    s.cre[cell * NK + k] -= 1
    s.cre[y * NK + k] += 1
    if k == BOSS:
        _move_bosses(s, cell, y, 1)


def partial_kinds(s, cell, y):
    """Kinds of `cell` that still fit into the partly full room `y` (the Lead player's choice)."""
    free = CAPACITY - occupancy(s, y)
    return [k for k in range(NK) if s.cre[cell * NK + k] and SIZE[k] <= free]


def arrive(s, cell, y):
    """After Creatures entered `y`: they stand up; Lasers; armed Explosives."""
    s.flat[y] = 0
    if not has_creatures(s, cell):
        s.flat[cell] = 0
    if s.trapside[y] and s.g.comp.room_trap[s.card[y]] == TR_LASERS:
        _kill_one_hp(s, y)
    if s.armed[y]:
        s.explode(y)


def _open_way(s, cell, d):
    """The room on side d if the group can pass the border (a weaker Barrier is destroyed, a weaker closed
    Door forced open), else -1."""
    g = s.g
    geo = g.geo
    y = geo.NB[cell][d]
    if y < 0 or s.card[y] < 0:
        return -1
    e = geo.EDGE[cell][d]
    if border_holds(s, cell, e, y):
        return -1
    if s.barrier[e]:
        walls.return_barrier(s, e)              # destroyed: "Return the Barrier to the game reserve"
    if s.door[e] == DOOR_CLOSED:
        s.door[e] = DOOR_OPEN                   # ASSUMPTION: a door forced by Creatures is left open
    return y


def border_holds(s, cell, e, y):
    """Does the Barrier or closed Door on border e stop the group of `cell` going to `y`? "As long as the barrier
    value is equal to or higher than an adjacent Creature group value, the group cannot move through the Barrier"
    (value: "0 (empty) with +2 for each bar"); "A closed Door works like a Barrier of value 1 + X, where X is the
    number of Heroes behind the Door"."""
    val = group_value(s, cell)
    if s.barrier[e] and 2 * (s.barrier[e] - 1) >= val:
        return True
    return s.door[e] == DOOR_CLOSED and 1 + heroes_in(s, y) >= val


def _move_bosses(s, src, dst, count):
    k = 0
    for rec in s.bosses:
        if rec[0] == src and (count is None or k < count):
            rec[0] = dst
            k += 1


def _bonus(s, cell):
    comp = s.g.comp
    c = s.card[cell]
    if not comp.is_room(c):
        return 0
    if s.trapside[cell]:
        t = comp.room_trap[c]
        return 3 if t == TR_MOVE3 else 4 if t == TR_MOVE4 else 0
    return comp.room_bonus[c]


# -- CREATURE MOVEMENT as a resumable machine ------------------------------------------------------------
# State fields: sl_rem (movement left per cell), sl_moved (moved this phase), sl_bonus (bonus rooms used),
# sl_done (groups that ended their movement), sl_pick / sl_side (a choice of the Lead player being carried out),
# opts / opt_kind (the pending choice: OPT_GROUP, OPT_SIDE, OPT_KIND, OPT_PLACE).
OPT_NONE, OPT_GROUP, OPT_SIDE, OPT_KIND, OPT_PLACE, OPT_ENTER, OPT_COLOUR, OPT_MOVE_SIDE, OPT_ENTER_2B = range(9)
OPT_BOSS = 9            # a Boss player's side for a group he moves (boss_players.ask_side)
PL_ROOM, PL_ADD, PL_MOVE = 0, 1, 2          # option 1 / 2A / 2B
MAX_OPTS = 128


def slow_begin(s, base_move, reduce=None):
    """Movement allowance of every group: difficulty, "Dogs have a +1 bonus", Four-leaf tokens."""
    ncells = s.g.geo.ncells
    s.sl_rem = [0] * ncells
    s.sl_moved = [0] * ncells
    s.sl_bonus, s.sl_done = [], []
    s.sl_pick = s.sl_side = -1
    s.sl_enter = []
    for c in range(ncells):
        if has_creatures(s, c):
            r = base_move + (1 if has_kind(s, c, 1) else 0)
            if reduce:
                r = max(0, r - reduce[c])
            s.sl_rem[c] = r


def _ask(s, kind, opts):
    s.opt_kind = kind
    # placements are (how, room) pairs: kept as lists, as a JSON round trip of the state gives them back
    s.opts = [list(o) if isinstance(o, tuple) else o for o in opts][:MAX_OPTS]
    return True


def slow_run(s, manual):
    """Move groups until done (returns False; Verduko Damage events in s.sl_events) or until the Lead player
    must choose (returns True: s.opts holds the choice)."""
    ncells = s.g.geo.ncells
    rem = s.sl_rem
    guard = 0
    while True:
        guard += 1
        todo = [c for c in range(ncells) if rem[c] > 0 and has_creatures(s, c)]
        if not todo or guard > 10 * ncells:
            break
        if s.sl_enter:
            # a partial move in progress: "move Creatures of the player's choice into the room until full"
            cell, y = s.sl_enter
            ks = partial_kinds(s, cell, y)
            if len(ks) > 1:
                return _ask(s, OPT_ENTER, ks)
            while ks:
                enter_one(s, cell, y, ks[0])
                ks = partial_kinds(s, cell, y)
            s.sl_enter = []
            arrive(s, cell, y)
            _after_move(s, cell, y, set(hero_cells(s)))
            _teleport(s, y)
            continue
        if s.sl_pick >= 0:
            cell = s.sl_pick
        elif manual and len(todo) > 1:
            # "The Lead player freely chooses the order in which the Creatures move."
            return _ask(s, OPT_GROUP, todo)
        else:
            cell = todo[0]
        heroes = set(hero_cells(s))
        if cell in heroes:                      # "If Creatures reach a Hero, they stop."
            rem[cell] = 0
            s.sl_done.append(cell)
            s.sl_pick = -1
            continue
        ctl = BP.controller(s, cell) if s.g.boss_on else -1      # a Boss player moves this group
        if s.sl_side >= 0:
            d = s.sl_side
        elif ctl >= 0:
            d = BP.ask_side(s, cell, ctl)
            if d == BP.ASKED:
                return True
        elif manual:
            sides = target_sides(s, cell)
            if len(sides) > 1:
                s.sl_pick = cell                # "In case of a tie, the Lead player chooses"
                return _ask(s, OPT_SIDE, sides)
            d = sides[0] if sides else -1
        else:
            d = target_side(s, cell)
        s.sl_pick = s.sl_side = -1
        if manual and ctl < 0 and d >= 0 and can_step(s, cell, d):
            y = s.g.geo.NB[cell][d]
            free = CAPACITY - occupancy(s, y)
            if 0 < free < creature_space(s, cell) and len(partial_kinds(s, cell, y)) > 1:
                _open_way(s, cell, d)
                s.sl_enter = [cell, y]
                return _ask(s, OPT_ENTER, partial_kinds(s, cell, y))
        if d < 0:
            if ctl >= 0:
                s.sl_done.append(cell)          # "Boss miniature are never laid down during Slow phase"
            elif not s.sl_moved[cell]:
                # "Lay the Creatures flat ... If the Creature group is already lying flat, return them to the game
                # reserve" (Bosses too; `flat_bosses="stay"`: a group with a Boss stays, lying flat)
                if s.flat[cell] and (s.g.flat_bosses_removed or not s.cre[cell * NK + BOSS]):
                    for k in range(8):
                        s.pool[k] += s.cre[cell * NK + k]
                        s.cre[cell * NK + k] = 0
                    for i in reversed([i for i, rec in enumerate(s.bosses) if rec[0] == cell]):
                        s._remove_boss(i)
                    s.flat[cell] = 0
                else:
                    s.flat[cell] = 1
            rem[cell] = 0
            continue
        y = move_step(s, cell, d)
        if y < 0:
            rem[cell] = 0                       # "cannot move and stands still"
            s.sl_done.append(cell)
            continue
        _after_move(s, cell, y, heroes)
        _teleport(s, y)
    events = []
    for cell in sorted(set(s.sl_done)):
        if has_creatures(s, cell) and not s.flat[cell]:
            events.extend(end_of_move_powers(s, cell))
    s.sl_events = [list(e) for e in events]
    s.sl_rem, s.sl_moved, s.sl_bonus, s.sl_done = [], [], [], []
    s.opt_kind, s.opts = OPT_NONE, []
    return False


def _after_move(s, cell, y, heroes):
    """Movement bookkeeping after a group (or part of it) entered `y`: bonus rooms, a part left behind stops,
    reaching a Hero stops, a joined group moves on with the larger allowance."""
    rem = s.sl_rem
    r = rem[cell] - 1
    if y not in s.sl_bonus:
        b = _bonus(s, y)
        if b:
            s.sl_bonus.append(y)
            r += b
    if not has_creatures(s, cell):
        s.sl_moved[cell] = 0
    rem[cell] = 0                           # a part left behind stays
    if y in heroes:
        r = 0
    rem[y] = max(rem[y], r)
    s.sl_moved[y] = 1
    if r == 0:
        s.sl_done.append(y)


def _teleport(s, y):
    """Teleport rooms (teleport.py): "Creatures will automatically teleport to another Teleport room when they enter
    a Teleport room"; they end their movement there."""
    if s.g.teleport:
        from .teleport import creatures_arrive
        z = creatures_arrive(s, y)
        if z >= 0:
            s.sl_rem[y] = s.sl_rem[z] = 0
            s.sl_moved[z] = 1
            s.sl_done.append(z)


def slow_movement(s, base_move, reduce=None):
    """Move every Creature group by the default choices. Returns the Verduko Damage events [(seat, 1)]."""
    slow_begin(s, base_move, reduce)
    slow_run(s, False)
    return [tuple(e) for e in s.sl_events]


def target_sides(s, cell):
    """Every side that is equally good by "see, sniff, hear" (the Lead player chooses among them)."""
    heroes = set(hero_cells(s))
    if not heroes:
        return []
    g = s.g
    geo = g.geo
    best, sides = 99, []
    for d in range(4):
        for k, y in enumerate(line_of_sight(s, cell, d)):
            if y in heroes:
                if k < best:
                    best, sides = k, [d]
                elif k == best:
                    sides.append(d)
                break
    if sides:
        return sides
    mutant = has_kind(s, cell, MUTANT)
    lim = 999 if mutant else ALERT

    def via(d, through, targets, limit):
        y = geo.NB[cell][d]
        if y < 0 or s.card[y] < 0:
            return None
        e = geo.EDGE[cell][d]
        if not s.breach[e] and not ((s.doors[cell] >> d) & 1 and (s.doors[y] >> OPP[d]) & 1):
            return None
        if not through and s.door[e] == DOOR_CLOSED:
            return None
        dist, _ = bfs(g.geo, s.card, s.doors, s.breach, s.door, y, limit - 1, through)
        ks = [dist[t] + 1 for t in targets if t in dist]
        return min(ks) if ks else None

    # sniff
    best, sides = 999, []
    for d in range(4):
        k = via(d, mutant, heroes, lim)
        if k is not None and k <= lim:
            if k < best:
                best, sides = k, [d]
            elif k == best:
                sides.append(d)
    if sides:
        return sides
    # hear: the loudest rooms (then the nearest); sides on a shortest way to one of them
    open_d, _ = bfs(g.geo, s.card, s.doors, s.breach, s.door, cell, ALERT, False)
    all_d, _ = bfs(g.geo, s.card, s.doors, s.breach, s.door, cell, ALERT, True)
    scored = []
    for y, k in all_d.items():
        if k == 0:
            continue
        cubes = sum(s.cubes[y * s.n + p] for p in range(s.n))
        noise, k2, thr = (cubes, open_d[y], False) if y in open_d else (cubes - 1, k, True)
        if noise > 0:
            scored.append((-noise, k2, y, thr))
    if not scored:
        return []
    top = min(scored)[:2]
    sides = []
    for key0, key1, y, thr in scored:
        if (key0, key1) != top:
            continue
        for d in range(4):
            k = via(d, thr, [y], key1)
            if k is not None and k == key1 and d not in sides:
                sides.append(d)
    return sorted(sides)


def end_of_move_powers(s, cell):
    """Verduko: 1 Damage point to the nearest visible Hero in its Alerted Area; Executioner: each Hero in
    its Alerted Area loses 1 Action cube."""
    out = []
    g = s.g
    if has_kind(s, cell, VERDUKO):
        best = None
        for d in range(4):
            for k, y in enumerate(line_of_sight(s, cell, d)[:ALERT]):
                ps = [p for p in range(s.n) if s.pos[p] == y]
                if ps:
                    if best is None or k < best[0]:
                        best = (k, ps[0])
                    break
        here = [p for p in range(s.n) if s.pos[p] == cell]
        if here:
            best = (0, here[0])
        if best is not None:
            out.append((best[1], 1))
    if has_kind(s, cell, EXECUTIONER):
        dist, _ = bfs(g.geo, s.card, s.doors, s.breach, s.door, cell, ALERT, True)
        for p in range(s.n):
            if s.pos[p] >= 0 and s.pos[p] in dist and s.stock[p] > 0:
                s.stock[p] -= 1
                s.reserve[p] += 1
    return out


def in_hero_alert(s, cell):
    g = s.g
    dist, _ = bfs(g.geo, s.card, s.doors, s.breach, s.door, cell, ALERT, True)
    return any(s.pos[p] >= 0 and s.pos[p] in dist for p in range(s.n))


def pick_kind(s, leader, colour=-1):
    """The Creature taken from the reserve: the kind with most miniatures left (ties: first); with Legend
    tiles, of the colour's group (`legend.group_kinds`)."""
    if s.g.legend and colour >= 0:
        ks = legend.group_kinds(s, colour, leader)
        return max(ks, key=lambda k: (s.pool[k], -k)) if ks else -1
    ks = range(4, 8) if leader else range(4)
    best = max(ks, key=lambda k: (s.pool[k], -k))
    if s.pool[best] > 0:
        return best
    if leader:
        return pick_kind(s, False)
    best = max(range(4, 8), key=lambda k: (s.pool[k], -k))
    return best if s.pool[best] > 0 else -1


def _kinds(s, leader, colour=-1):
    """Kinds the placing player may take from the reserve (a Leader first when one is due and left)."""
    if s.g.legend and colour >= 0:
        return legend.group_kinds(s, colour, leader)
    if leader:
        ks = [k for k in range(4, 8) if s.pool[k] > 0]
        if ks:
            return ks
    ks = [k for k in range(4) if s.pool[k] > 0]
    return ks or [k for k in range(4, 8) if s.pool[k] > 0]


def _col_ok(s, cell, colour, ignore_colour):
    c = s.card[cell]
    comp = s.g.comp
    if not comp.is_room(c):
        return False
    return ignore_colour or colour < 0 or comp.colour_matches(c, colour)


def can_step(s, cell, d):
    """Would the group of `cell` enter the room on side d (Barrier/Door values, a full room, Trample)?"""
    geo = s.g.geo
    y = geo.NB[cell][d]
    if y < 0 or s.card[y] < 0:
        return False
    if border_holds(s, cell, geo.EDGE[cell][d], y):
        return False
    free = CAPACITY - occupancy(s, y)
    if free > 0:
        return True
    return has_kind(s, cell, DESU) and free + sum(s.cre[y * NK + k] for k in range(4)) >= 2


def place_options(s, colour, k, ignore_colour, option1, first_only=False):
    """[(how, cell)] for one new Creature of kind k (-1: none left): option 1 rooms when any, else 2A rooms
    and 2B groups ("If Option 1 is not possible, you have to do Option 2 (A or B)"). `first_only`: stop at
    the default choice (the lowest room of the first possible option)."""
    ncells = s.g.geo.ncells
    n = s.n
    rooms = []
    if k >= 0 and option1:
        # 1. "an empty room of the correct color containing 1 or more Action cubes (any color)"
        for c in range(ncells):
            if _col_ok(s, c, colour, ignore_colour) and not has_creatures(s, c) and heroes_in(s, c) == 0 \
                    and any(s.cubes[c * n:(c + 1) * n]):
                rooms.append((PL_ROOM, c))
                if first_only:
                    return rooms
        if rooms:
            return rooms
    out = []
    if k >= 0:
        # 2A. "Add the Creature to a room where are 1 or more non-lying down Creatures ... in a Hero Alerted Area"
        for c in range(ncells):
            if _col_ok(s, c, colour, ignore_colour) and has_creatures(s, c) and not s.flat[c] \
                    and occupancy(s, c) + SIZE[k] <= CAPACITY and in_hero_alert(s, c):
                out.append((PL_ADD, c))
                if first_only:
                    return out
    # 2B. "Move all Creatures which are in a single room by 1 movement" (see, sniff, hear)
    heroes = hero_cells(s)
    by_legend = s.g.legend and not ignore_colour
    for c in range(ncells):
        if _col_ok(s, c, colour, ignore_colour) and has_creatures(s, c) and c not in heroes and in_hero_alert(s, c):
            if by_legend and not legend.holds_group(s, c, colour):
                continue                # Legend tiles: "move Creatures of corresponding Legend group"
            d = target_side(s, c)
            if d >= 0 and can_step(s, c, d):
                out.append((PL_MOVE, c))
                if first_only:
                    return out
    return out


def place_one(s, how, cell, k):
    if how == PL_MOVE:
        move_step(s, cell, target_side(s, cell))
        return
    s.cre[cell * NK + k] += 1
    s.pool[k] -= 1
    if how == PL_ROOM:
        s.flat[cell] = 0
    if s.armed[cell]:
        s.explode(cell)


def place_begin(s, player, colours, ignore_colour=False):
    """Queue one Creature per entry of `colours`: "For every 4 Creatures ... 1 must be a Leader and is placed
    first" (when a Leader is left in the reserve)."""
    nlead = len(colours) // 4
    s.pl_player = player
    s.pl_queue = [[col, 1 if i < nlead else 0, 1 if ignore_colour else 0] for i, col in enumerate(colours)]
    s.pl_kind = -2
    s.pl_ord = 0
    s.pl_move = -1
    s.pl_enter = []


def place_run(s, manual):
    """Place the queued Creatures; True when the placing player must choose (kind, then where)."""
    while s.pl_queue:
        if manual and s.pl_kind == -2 and not s.pl_ord:
            # "Players may freely choose ... which order follow to place them": the colour placed next
            cols = sorted({q[0] for q in s.pl_queue})
            s.pl_ord = 1
            if len(cols) > 1:
                return _ask(s, OPT_COLOUR, cols)
        col, leader, ign = s.pl_queue[0]
        leader = leader and any(s.pool[k] for k in range(4, 8))
        if s.pl_kind == -2:
            ks = _kinds(s, leader, -1 if ign else col)
            if manual and len(ks) > 1:
                # "Players may freely choose which Creatures to take from the game reserve"
                return _ask(s, OPT_KIND, ks)
            s.pl_kind = pick_kind(s, leader, -1 if ign else col) if ks else -1
        k = s.pl_kind
        opts = place_options(s, col, k, ign, not ign, first_only=not manual)
        if opts:
            if manual and len(opts) > 1:
                return _ask(s, OPT_PLACE, opts)
            if manual and _ask_move_side(s, opts[0]):
                return True
            place_one(s, opts[0][0], opts[0][1], k)
        _next_item(s)
    s.opt_kind, s.opts = OPT_NONE, []
    return False


def _next_item(s):
    s.pl_queue.pop(0)
    s.pl_kind = -2
    s.pl_ord = 0


def _ask_move_side(s, opt):
    """A 2B move on a tie: "In case of a tie, the Lead player chooses"; into a partly full room, which
    Creatures go. True when the placing player must choose."""
    if opt[0] != PL_MOVE:
        return False
    sides = [d for d in target_sides(s, opt[1]) if can_step(s, opt[1], d)]
    if len(sides) > 1:
        s.pl_move = opt[1]
        return _ask(s, OPT_MOVE_SIDE, sides)
    return _ask_enter_2b(s, opt[1], sides[0] if sides else target_side(s, opt[1]))


def _ask_enter_2b(s, cell, d):
    """A 2B move into a partly full room: the placing player picks the Creatures that go in."""
    y = s.g.geo.NB[cell][d]
    free = CAPACITY - occupancy(s, y)
    if 0 < free < creature_space(s, cell) and len(partial_kinds(s, cell, y)) > 1:
        _open_way(s, cell, d)
        s.pl_enter = [cell, y]
        return _ask(s, OPT_ENTER_2B, partial_kinds(s, cell, y))
    return False


def apply_option(s, i):
    """Carry out choice i of the pending Slow-phase choice."""
    kind, opt = s.opt_kind, s.opts[i]
    s.opt_kind, s.opts = OPT_NONE, []
    if kind == OPT_GROUP:
        s.sl_pick = opt
    elif kind == OPT_SIDE:
        s.sl_side = opt
    elif kind == OPT_BOSS:
        BP.chosen_side(s, opt)
    elif kind == OPT_KIND:
        s.pl_kind = opt
    elif kind == OPT_ENTER:
        enter_one(s, s.sl_enter[0], s.sl_enter[1], opt)
    elif kind == OPT_COLOUR:
        q = s.pl_queue
        j = next(i for i, item in enumerate(q) if item[0] == opt)
        q[0][0], q[j][0] = q[j][0], q[0][0]          # the Leader-first order of the queue stays
    elif kind == OPT_MOVE_SIDE:
        cell, s.pl_move = s.pl_move, -1
        if _ask_enter_2b(s, cell, opt):
            return
        move_step(s, cell, opt)
        _next_item(s)
    elif kind == OPT_ENTER_2B:
        cell, y = s.pl_enter
        enter_one(s, cell, y, opt)
        ks = partial_kinds(s, cell, y)
        if len(ks) > 1:
            _ask(s, OPT_ENTER_2B, ks)
            return
        while ks:
            enter_one(s, cell, y, ks[0])
            ks = partial_kinds(s, cell, y)
        s.pl_enter = []
        arrive(s, cell, y)
        _next_item(s)
    else:
        if _ask_move_side(s, opt):
            return
        place_one(s, opt[0], opt[1], s.pl_kind)
        _next_item(s)


def place_creature(s, colour, leader, ignore_colour=False, option1=True):
    """Place one new Creature by the default choices; the option used: 1, 2 (2A), 3 (2B) or 0 (none)."""
    k = pick_kind(s, leader, -1 if ignore_colour else colour)
    opts = place_options(s, colour, k, ignore_colour, option1, first_only=True)
    if not opts:
        return 0
    place_one(s, opts[0][0], opts[0][1], k)
    return opts[0][0] + 1


def place_for_rooms(s, colours, ignore_colour=False):
    """Place one Creature per entry of `colours` by the default choices."""
    place_begin(s, -1, colours, ignore_colour)
    place_run(s, False)
