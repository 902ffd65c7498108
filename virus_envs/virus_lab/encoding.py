"""Virus observation: one float32 vector in [0, 1], seat-relative (the observer is hero slot 0).

The map is the whole bounded table (`table_rows x table_cols` spaces, the Starting Room in the middle
of row 0), so it always covers the heroes and everything around and beyond them.

| field | shape | values |
|---|---|---|
| cells | (rows*cols, 71) | per table space: room present, Starting Room, Exit Control, colour (4), doorways N E S W (4), trap side, trap kind (6), lab symbol, First Aid/Ammo/Net (3), movement bonus/2, explored by me, explored this turn, searched this turn, Action cubes/10, Creatures per kind (9)/7, lying flat, Antidote here, Heroes here by relative seat (4), closed Door per side (4), open Door per side (4), Barrier value/6 per side (4), Breach per side (4), Exit Control activated, special uses/3, Explosive tokens/6, armed, Four-leaf reductions/3, Slow-phase options: group to move, option 1 room, 2A room, 2B group, lab symbol corner (4: NE SE SW NW, the order of `board.VERTEX`) |
| heroes | (4, 64) | per relative seat: see HERO_FEATURES |
| display | (24, 26) | the observer's Rooms display, per slot: card present, face up, shape (5), colour (4), lab symbol, First Aid/Ammo/Net (3); the observer's pending display choice: slot chosen for the group discard, slot open to the choice (flip, restore or discard), cards still to choose/6; the card as printed: doorways N E S W (4), lab symbol corner (4) |
| net | (6, 26) | the observer's Net cards, the display's columns (face up = 1, no choice columns) |
| deck_top | (26,) | the top card of the Room deck (it lies "normal room side face up"), the display's columns |
| globals | (G,) | turn/9, phase (20 slots), Lead (4), to act (4), heroes attacking together (4), their Successes/50, Slow-phase choice kind (7), side options (4), colour options (4), Creature-kind options (9), Creatures left to place/16, their room colour (4), colour ignored, kind being placed (8), event effect (8), event number/10, trap symbol (the Lead player's secret while he reads it), exit open, antidote placed/held/out, clues on the table (25), deck sizes, wound deck top back heart, creature reserve (8), the roll being built (8) and thrown (16), Successes, Damage pending, the trap card, the clue being drawn, living heroes, labs formed, Bosses seen (4 x 3 stats) |

Nothing hidden is encoded: deck orders, face-down wound faces, unrevealed Boss cards, the Room cards removed at
setup, and (for the other seats) the Event the Lead player is reading stay out (hidden.py says who knows what).
"""
from __future__ import annotations

import numpy as np

from ..core import ObsLayout
from . import walls
from .actions import MAX_DISPLAY, MAX_NET
from .components import NUM_SHAPES
from . import boss_players, clock, divided, drifting, morbo, pvp, scenarios, skills, spy, teleport
from .boss_players import seat_slot
from .flow import PH_DISCARD, PH_FLIP, PH_RESTORE

CF = 71
PHASE_SLOTS = 20
HERO_FEATURES = ("seat present", "on map", "alive", "exited", "stock/16", "reserve/16", "bullets/32",
                 "four_leaf", "heart", "adrenaline", "book", "shield", "explosive", "doors", "breaches",
                 "barrier 0", "barrier 1", "barrier 2", "barrier 3", "wounds/8", "deep/8", "face down/8",
                 "advantages/8", "display face down/8", "display/24", "net/6", "resources/30", "gained/60",
                 "antidote", "passed", "adrenaline used/2", "counter-attacked by this room's group", "free flee",
                 "major advantages/2",
                 "retired")
HF = len(HERO_FEATURES) + NUM_SHAPES * 4 + 9
DF = 26
NG = 1 + PHASE_SLOTS + 13 + 38 + 10 + 4 + 25 + 5 + 1 + 8 + 8 + 16 + 1 + 2 + 11 + 25 + 1 + 1 + 12


def layout(game) -> ObsLayout:
    blocks = [("cells", (game.geo.ncells, CF)), ("heroes", (4, HF)), ("globals", NG),
              ("display", (MAX_DISPLAY, DF)), ("net", (MAX_NET, DF)), ("deck_top", DF)]
    extra = advanced_size(game)
    if extra:       # the advanced elements' own block, at the end (the base blocks keep their places)
        blocks.append(("advanced", extra))
    # the clock's and the Skills' blocks, only when switched on (the base game's observation is unchanged)
    if game.clock:
        blocks.append(("clock", clock.CLOCK_F))
    if game.skills:
        blocks.append(("skills", skills.SKILL_F))
    if game.spy:        # Spy Mode (spy.py) and its Player vs Player combat (pvp.py)
        blocks.append(("spy", spy.SPY_F))
        if game.pvp:
            blocks.append(("pvp", pvp.PVP_F))
    if game.scenario:
        blocks.append(("scenario", scenarios.block_size(game)))
    if game.boss_on:
        blocks.append(("boss", boss_players.block_size(game)))
    return ObsLayout(blocks)



def advanced_size(game):
    """The `advanced` block: with the ranged attack, the target room being shot at (one per table space) and its
    distance / longest line; with Smoke bombs, the smoked rooms (one per table space), each relative seat's Smoke
    bombs / 4 and the reserve's / 4; with Resolution tokens, each relative seat's / 4, the reserve's / 4 and the
    roll's (in it / 4, positive / 4, fixes left / 4)."""
    return sum(size for _, size in advanced_parts(game))


def advanced_parts(game) -> list:
    """The `advanced` block's parts in their order, as (name, size), only those the game has on (a whole
    campaign places each part of a game at that part's place in its largest game, by name)."""
    N = game.geo.ncells
    parts = (("ranged", game.ranged, N + 1), ("smoke", game.smoke, N + 5), ("resolution", game.resolution, 8),
             ("divided", game.divided, divided.OBS), ("morbo", game.morbo, morbo.OBS),
             ("teleport", game.teleport, teleport.obs_size(game) if game.teleport else 0),
             ("drifting", game.drifting, drifting.obs_size(game) if game.drifting else 0))
    return [(name, size) for name, on, size in parts if on]


def _encode_advanced(s, p, out):
    g = s.g
    N, n, i = g.geo.ncells, s.n, 0
    if g.ranged:
        if s.ranged:
            out[s.ranged[0]] = 1
            out[N] = s.ranged[1] / g.ranged_dmax
        i = N + 1
    if g.smoke:
        for c in s.smoked:
            out[i + c] = 1
        for q in range(n):
            if seat_slot(s, q, p) >= 0:
                out[i + N + seat_slot(s, q, p)] = s.smoke[q] / 4
        out[i + N + 4] = s.smoke_pool / 4
        i += N + 5
    if g.resolution:
        for q in range(n):
            if seat_slot(s, q, p) >= 0:
                out[i + seat_slot(s, q, p)] = s.resol[q] / 4
        out[i + 4] = s.resol_pool / 4
        for j in range(3):
            out[i + 5 + j] = s.resol_roll[j] / 4
        i += 8
    if g.divided:
        divided.encode(s, p, out[i:i + divided.OBS])
        i += divided.OBS
    if g.morbo:
        morbo.encode(s, p, out[i:i + morbo.OBS])
        i += morbo.OBS
    if g.teleport:
        teleport.encode(s, p, out[i:i + teleport.obs_size(g)])
        i += teleport.obs_size(g)
    if g.drifting:
        drifting.encode(s, p, out[i:i + drifting.obs_size(g)])


def _display_table(game):
    """Per room card id: the static display columns (present, shape, colour, lab symbol, special room)."""
    comp = game.comp
    t = np.zeros((len(comp.room_colour), DF), dtype=np.float32)
    for c in range(len(comp.room_colour)):
        if not comp.is_room(c):
            continue
        t[c, 0] = 1
        t[c, 2 + comp.room_shape[c]] = 1
        if comp.room_colour[c] >= 0:
            t[c, 7 + comp.room_colour[c]] = 1
        else:                       # a Multicolored room: "whatever color a player wants it to be"
            t[c, 7:11] = 1
        t[c, 11] = comp.room_lab[c] >= 0
        if comp.room_special[c]:
            t[c, 11 + comp.room_special[c]] = 1
        # as printed (rotation 0): the doorways N E S W and the lab symbol's corner, so that the rotation
        # of an `explore ... rot r` action can be read off
        for d in range(4):
            t[c, 18 + d] = (comp.room_doors[c] >> d) & 1
        if comp.room_lab[c] >= 0:
            t[c, 22 + comp.room_lab[c]] = 1
    return t


def _card_table(game):
    """Per card id + 1 (0 = empty): the static columns 0..22 except doorways (rotation-dependent)."""
    comp = game.comp
    nr = comp.num_rooms
    rooms = [c for c in range(len(comp.room_colour)) if comp.is_room(c)]
    t = np.zeros((len(comp.room_colour) + 1, CF), dtype=np.float32)
    for c in rooms:
        row = t[c + 1]
        row[0] = 1
        if comp.room_colour[c] >= 0:
            row[3 + comp.room_colour[c]] = 1
        else:                       # a Multicolored room: every colour
            row[3:7] = 1
        row[18] = 1 if comp.room_lab[c] >= 0 else 0
        if comp.room_special[c]:
            row[18 + comp.room_special[c]] = 1
        row[22] = comp.room_bonus[c] / 2
    t[nr + 1, [0, 1]] = 1       # START_CARD = nr
    t[nr + 2, [0, 2]] = 1       # EXIT_CARD = nr + 1
    t[nr + 3, 0] = 1            # SCEN_CARD = nr + 2 (grey; the `scenario` block says which room it is)
    trap = np.zeros((len(comp.room_colour) + 1, CF), dtype=np.float32)
    for c in rooms:
        trap[c + 1, 11] = 1
        trap[c + 1, 11 + comp.room_trap[c]] = 1
    bits = np.array([[(m >> d) & 1 for d in range(4)] for m in range(16)], dtype=np.float32)
    return t, trap, bits


def encode(s, p) -> np.ndarray:
    g = s.g
    tabs = getattr(g, "_enc_tabs", None)
    if tabs is None:
        tabs = g._enc_tabs = _card_table(g)
    ctab, ttab, bits = tabs
    geo, comp, n = g.geo, g.comp, s.n
    N = geo.ncells
    L = g.layout
    v = L.zeros()
    cells = v[L.slices["cells"]].reshape(N, CF)
    i16 = np.int16
    card = np.array(s.card, dtype=i16) + 1
    cells[:] = ctab[card]
    if any(s.trapside):
        trap = _arr(s.trapside).astype(bool)
        cells[trap] += ttab[card[trap]]
        cells[trap, 18:23] = 0            # the trap side shows no lab symbol, special room or bonus
    if s.labcells:
        # the corner of each lab symbol on the table (where Research Labs can form)
        for x in s.labcells:
            if not s.trapside[x]:
                cells[x, 67 + (comp.room_lab[s.card[x]] + s.rot[x]) % 4] = 1
    cells[:, 7:11] = bits[_arr(s.doors)]
    ex = np.array(s.explored, dtype=i16)
    cells[:, 23] = ex == p
    cells[:, 24] = ex >= 0
    cells[:, 25] = np.array(s.searched, dtype=i16) >= 0
    if any(s.cubes):
        cub = _arr(s.cubes).reshape(N, n).sum(axis=1)
        cells[:, 26] = np.minimum(cub * 0.1, 1.0)
    cells[:, 27:36] = _arr(s.cre).reshape(N, 9) * (1 / 7.0)
    if any(s.flat):
        cells[:, 36] = _arr(s.flat)
    if s.antidote_cell >= 0:
        cells[s.antidote_cell, 37] = 1
    slot = [seat_slot(s, q, p) for q in range(n)]       # the Hero slot of each seat (-1: a Boss seat)
    for q in range(n):
        if s.pos[q] >= 0:
            cells[s.pos[q], 38 + slot[q]] = 1
    E = g._edge_idx if hasattr(g, "_edge_idx") else _edges(g)
    valid = E >= 0
    Ei = np.where(valid, E, 0)
    if any(s.door):
        door = _arr(s.door)
        cells[:, 42:46] = (door[Ei] == 2) & valid
        cells[:, 46:50] = (door[Ei] == 1) & valid
    if any(s.barrier):
        bar = _arr(s.barrier).astype(i16)
        cells[:, 50:54] = np.where(valid, np.maximum(bar[Ei] - 1, 0) * 2 / 6.0, 0)
    if any(s.breach):
        br = _arr(s.breach).astype(bool)
        cells[:, 54:58] = br[Ei] & valid
    for i, c in enumerate(s.exit_cells):
        if s.act_exit[i]:
            cells[c, 58] = 1
    if any(s.expl):
        cells[:, 60] = _arr(s.expl) * (1 / 6.0)
        cells[:, 61] = _arr(s.armed)
    if any(s.slow_red):
        cells[:, 62] = np.array(s.slow_red, dtype=np.float32) * (1 / 3.0)
    if s.opt_kind == 1:                     # groups the Lead player may move next
        for c in s.opts:
            cells[c, 63] = 1
    elif s.opt_kind == 4:                   # option 1 rooms, 2A rooms, 2B groups
        for how, c in s.opts:
            cells[c, 64 + how] = 1
    if any(s.sp_uses):
        cells[:, 59] = _arr(s.sp_uses) * (1 / 3.0)
    # heroes
    H = v[L.slices["heroes"]].reshape(4, HF)
    for q in range(n):
        j = slot[q]
        if j < 0:
            continue
        h = H[j]
        disp = s.disp[q]
        down = sum(1 for c in disp if not c[1])
        w = s.wounds[q]
        row = [1, s.pos[q] >= 0, s.alive[q], s.exited[q], s.stock[q] / 16, s.reserve[q] / 16, s.bullets[q] / 32,
               *[x / 8 for x in s.tok[q]], s.t_door[q] / 4, s.t_breach[q] / 8, *walls.stock_features(s, q),
               len(w) / 8, sum(1 for x in w if x[2]) / 8, sum(1 for x in w if x[1]) / 8, s.num_adv(q) / 8,
               down / 8, len(disp) / 24, len(s.net[q]) / 6, s.res[q] / 30, s.gained[q] / 60,
               s.antidote_holder == q, s.passed[q], s.adren[q] / 2, s._countered_here(q), s.flee_free[q],
               s.majors[q] / 2,
               s.retired[q]]
        h[:len(row)] = row
        k0 = len(HERO_FEATURES)
        for c, up in disp:
            if up:
                if comp.room_colour[c] >= 0:
                    h[k0 + comp.room_shape[c] * 4 + comp.room_colour[c]] += 0.25
                else:               # a Multicolored card counts in every colour of its shape
                    h[k0 + comp.room_shape[c] * 4:k0 + comp.room_shape[c] * 4 + 4] += 0.25
        h[k0 + 20:k0 + 29] = [x / 7 for x in s.dodged[q]]
    G = v[L.slices["globals"]]
    G[0] = s.turn / 9
    if s.ph < PHASE_SLOTS:                  # the base game's phases; an element's phase is in its own block
        G[1 + s.ph] = 1
    o = 1 + PHASE_SLOTS
    if slot[s.lead] >= 0:
        G[o + slot[s.lead]] = 1
    if not s.terminal and slot[s.cur] >= 0:     # a Boss seat to act: its `boss` block
        G[o + 4 + slot[s.cur]] = 1
    for h in s.team:                        # heroes attacking together
        G[o + 8 + slot[h]] = 1
    G[o + 12] = s.team_succ / 50 if s.team else 0.0    # the team's Successes so far, while a team attacks
    # the pending Slow-phase choice: its kind, side / kind options, the Creature being placed
    o += 13
    if s.opt_kind:
        # o .. o+6: group, side, kind, place, enter (also a 2B move's entry), colour, 2B side
        G[o + (0, 0, 1, 2, 3, 4, 5, 6, 4, 1)[s.opt_kind]] = 1     # a Boss player's side: as a side
        if s.opt_kind in (2, 7, 9):
            for d in s.opts:
                G[o + 7 + d] = 1
        elif s.opt_kind == 6:
            for c in s.opts:
                if c >= 0:
                    G[o + 11 + c] = 1
        elif s.opt_kind in (3, 5, 8):       # Creature kinds to take, or to send into a partly full room
            for k in s.opts:
                G[o + 15 + k] = 1
    if s.pl_queue:
        G[o + 24] = len(s.pl_queue) / 16
        col = s.pl_queue[0][0]
        if col >= 0:
            G[o + 25 + col] = 1
        G[o + 29] = s.pl_queue[0][2]
        if s.pl_kind >= 0:
            G[o + 30 + s.pl_kind] = 1       # 8 kinds
    i = o + 38
    if s.event >= 0 and not s.event_secret(p):
        G[i + comp.event_effect[s.event]] = 1
        G[i + 8] = comp.event_number[s.event] / 10
        G[i + 9] = comp.event_trap[s.event]
    i += 10
    G[i] = s.exit_open
    G[i + 1] = s.antidote_cell >= 0
    G[i + 2] = s.antidote_holder >= 0
    G[i + 3] = s.antidote_out >= 0
    i += 4
    for c in s.clues:
        G[i + c] = 1
    i += 25
    G[i:i + 5] = [len(s.room_deck) / 144, len(s.wound_deck) / 25, len(s.clue_deck) / 25, len(s.event_deck) / 25,
                  len(s.event_pile) / 8]
    i += 5
    G[i] = bool(s.wound_deck) and comp.wound_heart[s.wound_deck[-1]]
    i += 1
    G[i:i + 8] = [s.pool[k] / max(1, comp.cre_count[k]) for k in range(8)]
    i += 8
    if s.roll:
        G[i:i + 8] = [x / 16 for x in s.roll]
    i += 8
    if s.rollres:
        G[i:i + 16] = [x / 16 for x in s.rollres]
    i += 16
    G[i] = s.succ / 50
    i += 1
    if s.dmg:
        G[i], G[i + 1] = s.dmg[1] / 20, s.dmg[2]
    i += 2
    if s.trap_card >= 0:
        G[i + comp.room_shape[s.trap_card]] = 1
        G[i + 5 + comp.room_trap[s.trap_card] - 1] = 1
    i += 11
    if len(s.clue_pending) > 2 and not (g.spy and s.clue_pending[0] != p):   # Spy Mode: the drawer's secret
        G[i + s.clue_pending[2]] = 1
    i += 25
    G[i] = s.living_heroes() / 4
    G[i + 1] = len(s.labs_used) / 8
    i += 2
    for j, b in enumerate(s.boss_seen[:4]):
        rec = s.bosses[b]
        G[i + 3 * j:i + 3 * j + 3] = [comp.boss_hp[rec[2]] / 9, comp.boss_damage[rec[2]] / 9,
                                      comp.boss_dodge[rec[2]] / 9]
    assert i + 12 == NG
    dtab = getattr(g, "_disp_tab", None)
    if dtab is None:
        dtab = g._disp_tab = _display_table(g)
    if s.room_deck:                         # the Room deck's top card is face up
        v[L.slices["deck_top"]] = dtab[s.room_deck[-1]]
        v[L.slices["deck_top"].start + 1] = 1
    # the observer's Net cards (explored like display cards, kept apart)
    if s.net[p]:
        Nt = v[L.slices["net"]].reshape(MAX_NET, DF)
        nn = min(len(s.net[p]), MAX_NET)
        Nt[:nn] = dtab[list(s.net[p][:nn])]
        Nt[:nn, 1] = 1
    # the observer's Rooms display and his pending display choice
    disp = s.disp[p]
    if disp:
        D = v[L.slices["display"]].reshape(MAX_DISPLAY, DF)
        nd = len(disp)
        D[:nd] = dtab[[c for c, _ in disp]]
        D[:nd, 1] = [up for _, up in disp]
        if s.cur == p and PH_FLIP <= s.ph <= PH_RESTORE and not s.terminal:
            if s.ph == PH_DISCARD:
                for k in s.dsel[2:]:
                    D[k, 15] = 1
                left = s.dsel[1] - len(s.dsel) + 2
            else:
                left = s.flip[2]
            for k in s._display_open(p):
                D[k, 16] = 1
            D[:, 17] = left / 6
    if "advanced" in L.slices:
        _encode_advanced(s, p, v[L.slices["advanced"]])
    if g.clock:
        clock.encode(s, p, v[L.slices["clock"]])
    if g.skills:
        skills.encode(s, p, v[L.slices["skills"]])
    if g.spy:
        spy.encode(s, p, v[L.slices["spy"]])
        if g.pvp:
            pvp.encode(s, p, v[L.slices["pvp"]])
    if g.scenario:
        scenarios.encode(s, p, v[L.slices["scenario"]])
    if g.boss_on:
        boss_players.encode(s, p, v[L.slices["boss"]])
    np.clip(v, 0.0, 1.0, out=v)
    return v


def _arr(x):
    """A numpy view of a bytearray field (a list when a test built the field by hand)."""
    if isinstance(x, bytearray):
        return np.frombuffer(x, dtype=np.uint8)
    return np.array(x, dtype=np.int16)


def _edges(g):
    g._edge_idx = np.array(g.geo.EDGE, dtype=np.int64)
    return g._edge_idx


def view(s, p) -> dict:
    """What seat p may know: everything on the table and what is known of the decks (hidden.py); deck orders,
    face-down wound faces, unrevealed Boss cards, the Room cards removed at setup and the Event the Lead is
    secretly reading (for the other seats) excepted."""
    g = s.g
    comp, geo = g.comp, g.geo
    nr = comp.num_rooms

    def name(c):
        return "Starting Room" if c == nr else "Exit Control" if c == nr + 1 else "Scenario Room" if c == nr + 2 \
            else comp.room_name[c]

    rooms = []
    for cell in range(geo.ncells):
        c = s.card[cell]
        if c < 0:
            continue
        r, col = geo.rc(cell)
        rooms.append({
            "cell": cell, "row": r, "col": col, "card": name(c), "rot": s.rot[cell], "doors": s.doors[cell],
            "colour": g.colour_of(c), "trap": comp.room_trap[c] if s.trapside[cell] else 0,
            "cubes": list(s.cubes[cell * s.n:(cell + 1) * s.n]), "creatures": list(s.cre[cell * 9:(cell + 1) * 9]),
            "flat": bool(s.flat[cell]), "explored_by": s.explored[cell], "searched_by": s.searched[cell]})
    heroes = []
    for q in range(s.n):
        heroes.append({
            "seat": q, "pos": s.pos[q], "alive": s.alive[q], "exited": s.exited[q], "stock": s.stock[q],
            "reserve": s.reserve[q], "bullets": s.bullets[q], "tokens": list(s.tok[q]), "doors": s.t_door[q],
            "breaches": s.t_breach[q], "barriers": list(s.t_bar[q]),
            "wounds": [{"card": (w[0] if not w[1] or s.wounds_revealed(q) else None), "face_down": w[1], "deep": w[2],
                        "heart_back": w[0] >= 0 and comp.wound_heart[w[0]]} for w in s.wounds[q]],
            "display": [[comp.room_name[c], up] for c, up in s.disp[q]],
            "net": [comp.room_name[c] for c in s.net[q]], "resources": s.res[q], "passed": s.passed[q],
            "knowledge": s.knowledge(q), "hit_points": s.hp_of(q), "stamina": s.stamina(q), "major_advantages": s.majors[q], "retired": s.retired[q],
            # this turn's combat: Creatures Dodged (per kind), counter-attacked already, a free flight earned
            "dodged": list(s.dodged[q]), "countered": s._countered_here(q), "countered_in": list(s.countered[q]),
            "flee_free": bool(s.flee_free[q]), "adrenaline_used": s.adren[q]})
    out = {
        "seat": p, "turn": s.turn, "lead": s.lead, "phase": s.phase(), "to_act": s.current_player(),
        "event": comp.event_name[s.event] if s.event >= 0 and not s.event_secret(p) else None,
        "events_played": len(s.event_pile),
        "rooms": rooms, "heroes": heroes,
        "doors": {str(e): x for e, x in enumerate(s.door) if x}, "barriers": {str(e): x for e, x in enumerate(s.barrier) if x},
        "breaches": [e for e, x in enumerate(s.breach) if x],
        "explosives": {str(c): [x, bool(s.armed[c])] for c, x in enumerate(s.expl) if x},
        "four_leaf": {str(c): x for c, x in enumerate(s.slow_red) if x},
        "clues": list(s.clues), "labs_used": [u[0] for u in s.labs_used], "antidote_cell": s.antidote_cell, "antidote_holder": s.antidote_holder,
        "antidote_out": s.antidote_out, "exit_cells": list(s.exit_cells), "exit_open": s.exit_open,
        "exit_activated": [list(x) for x in s.act_exit],
        "bosses": [{"cell": s.bosses[i][0], "hp": comp.boss_hp[s.bosses[i][2]], "damage": comp.boss_damage[s.bosses[i][2]],
                    "dodge": comp.boss_dodge[s.bosses[i][2]]} for i in s.boss_seen],
        "bosses_gone": [comp.boss_name[c] if seen else None for c, seen in s.boss_gone],
        # the decks: sizes, the Room deck's face-up top card, the cards known at the bottom (bottom first)
        "room_deck": len(s.room_deck), "wound_deck": len(s.wound_deck), "clue_deck": len(s.clue_deck),
        "event_deck": len(s.event_deck),
        "room_deck_top": comp.room_name[s.room_deck[-1]] if s.room_deck else None,
        "room_deck_bottom": [comp.room_name[c] for c in s.room_deck[:s.room_known]],
        "clue_deck_bottom": list(s.clue_deck[:s.clue_known]),
        "event_deck_bottom": [(comp.event_name[s.event_deck[i]] if q == p else None)
                              for i, q in enumerate(s.event_known)],
        "wound_deck_bottom": [{"card": s.wound_deck[i] if f else None, "heart_back": comp.wound_heart[s.wound_deck[i]]}
                              for i, f in enumerate(s.wound_known)],
        "wound_discard": list(s.wound_discard), "room_discard": [comp.room_name[c] for c in s.room_discard],
        "net_cards_to_draw": s.net_left,
        "wound_top_heart": bool(s.wound_deck) and comp.wound_heart[s.wound_deck[-1]],
        "reserve_creatures": list(s.pool), "roll": list(s.roll), "roll_result": list(s.rollres),
        "successes": s.succ, "damage": list(s.dmg), "ranged_attack": list(s.ranged),
        "smoke_bombs": list(s.smoke), "smoke_bombs_reserve": s.smoke_pool, "smoked_rooms": list(s.smoked),
        "resolution_tokens": list(s.resol), "resolution_reserve": s.resol_pool, "resolution_roll": list(s.resol_roll),
        "trap_card": comp.room_name[s.trap_card] if s.trap_card >= 0 else None,
        "clue_drawn": s.clue_pending[2] if len(s.clue_pending) > 2 else None,
        "slow_choice": {"kind": ("", "group", "side", "kind", "place", "enter", "colour", "2B side",
                                 "2B enter", "boss side")[s.opt_kind],
                        "options": [list(o) if isinstance(o, (list, tuple)) else o for o in s.opts]},
        "placing": {"seat": s.pl_player, "queue": [list(q) for q in s.pl_queue], "kind": s.pl_kind},
        "display_choice": _display_choice(s),
    }
    if g.clock:
        out["clock"] = clock.view(s)
    if g.skills:
        out["skills"] = skills.view(s)
    if g.divided:
        out.update(divided.view(s))
    if g.drifting:
        out["drifting_room"] = list(s.drift)
    if g.morbo:
        out.update(morbo.view(s))
        for i, w in enumerate(out["wound_deck_bottom"]):      # the backs seen on the top of the deck
            w["morbo_back"] = s.wound_deck[i] == morbo.card(g)
    if g.spy:
        out.update(spy.view(s, p))          # the Spy block; the Clue drawn and the deck's bottom, masked
        if g.pvp:
            out["pvp"] = pvp.view(s)
    if g.scenario:
        out["scenario"] = scenarios.view(s)
    if g.boss_on:
        out["boss_players"] = boss_players.view(s, p)
    return out


def _display_choice(s):
    """The pending Rooms display choice (public: the display lies on the table), or None: kind "flip" (an
    Advantage; `for` names the action it pays for), "death flip", "restore" (a face-down card face up:
    `recover advantage`, `major advantage: restore 3 room cards`) or "discard" (`for` names the group
    action, with its `shape` and `colour`, -1 for any); the seat, the slots open to it, the slots already
    chosen (discard) and how many are left."""
    if s.terminal or not PH_FLIP <= s.ph <= PH_RESTORE:
        return None
    from .actions import TABLE
    p = s.cur
    if s.ph == PH_DISCARD:
        shape, colour, _ = s._group_of(s.dsel[0])
        return {"kind": "discard", "seat": p, "for": TABLE.name(s.dsel[0]), "slots": s._discard_open(p),
                "chosen": list(s.dsel[2:]), "left": s.dsel[1] - len(s.dsel) + 2, "shape": shape, "colour": colour}
    f = s.flip
    kind = "flip" if s.ph == PH_FLIP else "restore" if s.ph == PH_RESTORE else "death flip"
    return {"kind": kind, "seat": p, "for": TABLE.name(f[1]) if f[1] >= 0 else "return after death",
            "slots": s._display_open(p), "chosen": [], "left": f[2]}
