"""Virus (co-operative board game): components loaded from validated data files.

Every file lives in `data/`; a bad file raises ValueError naming the file and the field.
Ids used by the rules:

    room card ids   0 .. 143     the playable room deck, data order
                    START_CARD   the Starting Room (grey)
                    EXIT_CARD    an Exit Control Room (grey; the two are identical)
                    SCEN_CARD    the Scenario room (grey; Scenarios, `scenarios.py`)
                    147 ..       the special room cards of the Heroes Expansion (`special_rooms`: Teleport,
                                 Multicolored, Drifting), dealt only when their option is on (`rooms.py`)
    event ids       0 .. 24      wound ids 0 .. 24     clue ids 0 .. 24     boss ids 0 .. 14

Doorways are 4-bit masks over the sides N=1, E=2, S=4, W=8 (as printed, before rotation).
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from ..core.data import load_yaml

DATA_DIR = os.path.join(os.path.dirname(__file__), "data")

COLOURS = ("red", "yellow", "blue", "green")
NO_COLOUR = -1
SIDES = "NESW"
CORNERS = ("NE", "SE", "SW", "NW")      # corner k sits between side k and side k+1
SPECIALS = ("first_aid", "ammo", "net")
SP_NONE, SP_FIRST_AID, SP_AMMO, SP_NET = 0, 1, 2, 3
TRAPS = ("lasers", "gas", "move_3", "move_4", "proliferation_2", "proliferation_3")
TR_NONE, TR_LASERS, TR_GAS, TR_MOVE3, TR_MOVE4, TR_PROL2, TR_PROL3 = range(7)
EFFECTS = ("quiet", "system_reboot", "blackout", "lockdown", "fatigue", "supplies", "frenzy", "calm")
(EF_QUIET, EF_REBOOT, EF_BLACKOUT, EF_LOCKDOWN, EF_FATIGUE, EF_SUPPLIES, EF_FRENZY, EF_CALM) = range(8)
CLUE_KINDS = ("doorways", "colour_group", "single_door", "single_breach", "next_to_trap",
              "full_of_creatures", "zone", "next_to_colour", "no_creatures")
(CK_DOORS, CK_GROUP, CK_DOOR1, CK_BREACH1, CK_TRAP, CK_FULL, CK_ZONE, CK_NEXT, CK_EMPTY) = range(9)
SCEN_DOORS = 15          # ASSUMPTION: the Scenario room has four doorways (like the Exit Control Rooms)
ROOM_KINDS = ("normal", "teleport", "multicolored", "drifting")
RK_NORMAL, RK_TELEPORT, RK_MULTI, RK_DRIFT = range(4)
ANY_COLOUR = 4          # `colour_of` a Multicolored room: "whatever color a player wants it to be"
SPECIAL_COUNTS = {"teleport": 4, "multicolored": 2, "drifting": 2}   # "(4 cards)", "(2 cards)", "(2 cards)"
TOKENS = ("four_leaf", "heart", "adrenaline", "book", "shield", "explosive")
TK_FOUR, TK_HEART, TK_ADREN, TK_BOOK, TK_SHIELD, TK_EXPL = range(6)

# shape classes of the Rooms display ("same number of doorways and, for 2-doorways cards, the same orientation")
SHAPES = ("1 doorway", "2 straight", "2 at 90 degrees", "3 doorways", "4 doorways")
NUM_SHAPES = 5


def shape_of(doors: int) -> int:
    """Shape class 0..4 of a doorway mask (rotation-free)."""
    n = bin(doors).count("1")
    if n == 1:
        return 0
    if n == 2:
        return 1 if doors in (0b0101, 0b1010) else 2
    return 3 if n == 3 else 4


@dataclass(frozen=True)
class Components:
    """All decks and supplies, as plain tuples indexed by card id."""

    # rooms (playable deck)
    room_name: tuple
    room_colour: tuple      # 0..3
    room_doors: tuple       # unrotated mask
    room_lab: tuple         # corner 0..3 or -1
    room_special: tuple     # SP_*
    room_bonus: tuple       # 0, 1, 2
    room_trap: tuple        # TR_* (the trap side)
    room_shape: tuple       # 0..4
    start_doors: int
    exit_doors: int
    # events
    event_name: tuple
    event_number: tuple
    event_trap: tuple
    event_effect: tuple
    event_exit: tuple       # ((dr, dc), (dr, dc))
    # wounds
    wound_infection: tuple  # the 25 Wound cards, then the Morbo card (Special contents, id 25: `morbo.py`)
    wound_heart: tuple
    # clues
    clue_kind: tuple
    clue_arg: tuple         # n / colour / ((r0, r1), (c0, c1)) / 0
    # bosses
    boss_name: tuple
    boss_hp: tuple
    boss_damage: tuple
    boss_dodge: tuple
    # creatures (8 types: 4 minions then 4 leaders)
    cre_name: tuple
    cre_leader: tuple
    cre_count: tuple
    cre_hp: tuple
    cre_size: tuple
    cre_dodge: tuple
    cre_damage: tuple
    cre_move: tuple
    # supplies
    tokens: tuple           # per TOKENS
    doors_supply: int
    breach_supply: int
    barrier_supply: tuple   # per bars 0..3
    action_cubes: int
    bullets: int
    major_cards: int
    start_actions: int
    start_bullets: int
    removals: dict          # heroes -> dict
    smoke_bombs: int = 4            # Special contents: "Smoke bombs (4 tokens)" (smoke.py)
    resolution_tokens: int = 4      # Special contents: "Resolution Tokens (4 tokens)" (resolution.py)
    boss_irreducible: tuple = ()    # per Boss card: the "Irreducible Boss" (Additional Final Attack, final_attack.py)
    num_wounds: int = 25            # the base Wound deck; the Morbo card's id is num_wounds (morbo=True only)
    num_rooms: int = 144            # the base Room deck, ids 0..143; the room_* tuples go on past the grey cards
    room_kind: tuple = ()           # per card id: ROOM_KINDS (the special rooms from id 147)

    def is_room(self, c) -> bool:
        """A playable room card (the base deck's or a special room), not a grey card nor an empty space."""
        return 0 <= c < self.num_rooms or self.num_rooms + 3 <= c < len(self.room_colour)

    def colour_matches(self, c, colour) -> bool:
        """Room card c counts as `colour`: its own, or any for a Multicolored room ("This card may be whatever
        color a player wants it to be any time he must take a room's color into account")."""
        return self.room_colour[c] == colour or (colour >= 0 and self.room_kind[c] == RK_MULTI)

    def special_ids(self, kind) -> list:
        return [c for c, k in enumerate(self.room_kind) if k == kind]


def _fail(path, field, msg):
    raise ValueError(f"{os.path.basename(path)}: field {field!r}: {msg}")


def _load(path):
    return load_yaml(path)


def _get(path, d, key, field, kind=None, choices=None, lo=None, hi=None):
    if not isinstance(d, dict) or key not in d:
        _fail(path, field, "missing")
    v = d[key]
    if kind is int and (isinstance(v, bool) or not isinstance(v, int)):
        _fail(path, field, f"must be an int, got {v!r}")
    if kind is bool and not isinstance(v, bool):
        _fail(path, field, f"must be true/false, got {v!r}")
    if kind is str and not isinstance(v, str):
        _fail(path, field, f"must be a string, got {v!r}")
    if choices is not None and v not in choices:
        _fail(path, field, f"must be one of {list(choices)}, got {v!r}")
    if lo is not None and v < lo:
        _fail(path, field, f"must be >= {lo}, got {v}")
    if hi is not None and v > hi:
        _fail(path, field, f"must be <= {hi}, got {v}")
    return v


def _doors(path, field, v):
    if not isinstance(v, str) or not v or any(ch not in SIDES for ch in v) or len(set(v)) != len(v):
        _fail(path, field, f"must be a string of distinct sides from 'NESW', got {v!r}")
    m = 0
    for ch in v:
        m |= 1 << SIDES.index(ch)
    return m


def _list(path, d, key):
    v = d.get(key)
    if not isinstance(v, list) or not v:
        _fail(path, key, "must be a non-empty list")
    return v


def _new_id(path, c, f, seen):
    """The card's `id`, unique in the file."""
    cid = _get(path, c, "id", f + ".id", str)
    if cid in seen:
        _fail(path, f + ".id", f"duplicate id {cid!r}")
    seen.add(cid)
    return cid


def load_rooms(path):
    d = _load(path)
    grey = d.get("grey")
    if not isinstance(grey, dict):
        _fail(path, "grey", "must be a mapping with start and exit_control")
    start = _doors(path, "grey.start.doors", _get(path, grey.get("start"), "doors", "grey.start.doors"))
    if start & 1:
        _fail(path, "grey.start.doors", "the Starting Room's N side is the table edge: no N doorway")
    exitd = _doors(path, "grey.exit_control.doors",
                   _get(path, grey.get("exit_control"), "doors", "grey.exit_control.doors"))
    cols, doors, labs, sps, bons, traps, names = [], [], [], [], [], [], []
    seen = set()
    for i, c in enumerate(_list(path, d, "rooms")):
        f = f"rooms[{i}]"
        names.append(_new_id(path, c, f, seen))
        cols.append(COLOURS.index(_get(path, c, "colour", f + ".colour", str, COLOURS)))
        doors.append(_doors(path, f + ".doors", _get(path, c, "doors", f + ".doors")))
        lab = c.get("lab") if isinstance(c, dict) else None
        if lab is not None and lab not in CORNERS:
            _fail(path, f + ".lab", f"must be null or one of {list(CORNERS)}, got {lab!r}")
        labs.append(-1 if lab is None else CORNERS.index(lab))
        sp = c.get("special")
        if sp is not None and sp not in SPECIALS:
            _fail(path, f + ".special", f"must be null or one of {list(SPECIALS)}, got {sp!r}")
        sps.append(0 if sp is None else SPECIALS.index(sp) + 1)
        bons.append(_get(path, c, "bonus", f + ".bonus", int, lo=0, hi=2))
        traps.append(TRAPS.index(_get(path, c, "trap", f + ".trap", str, TRAPS)) + 1)
    # constraints from the rulebook (shared/COMPONENTS.md)
    n = len(cols)
    if n != 144:
        _fail(path, "rooms", f"the room deck has 144 playable cards, got {n}")
    for col in range(4):
        lab_n = sum(1 for i in range(n) if cols[i] == col and labs[i] >= 0)
        norm_n = sum(1 for i in range(n) if cols[i] == col and labs[i] < 0)
        if lab_n != 7:
            _fail(path, "rooms", f"{COLOURS[col]}: 7 Research Lab cards per colour (28 in all), got {lab_n}")
        if norm_n < 16:
            _fail(path, "rooms", f"{COLOURS[col]}: at least 16 normal rooms (1-player removal), got {norm_n}")
    # the grey cards' places (START_CARD, EXIT_CARD, SCEN_CARD), then the special rooms (Special contents)
    names += ["Starting Room", "Exit Control", "Scenario Room"]
    cols += [-1, -1, -1]
    doors += [start, exitd, SCEN_DOORS]
    labs += [-1, -1, -1]
    sps += [0, 0, 0]
    bons += [0, 0, 0]
    traps += [0, 0, 0]
    kinds = [RK_NORMAL] * len(names)
    sp_list = d.get("special_rooms", [])
    if not isinstance(sp_list, list):
        _fail(path, "special_rooms", "must be a list")
    for i, c in enumerate(sp_list):
        f = f"special_rooms[{i}]"
        names.append(_new_id(path, c, f, seen))
        kind = _get(path, c, "kind", f + ".kind", str, ROOM_KINDS[1:])
        kinds.append(ROOM_KINDS.index(kind))
        colour = _get(path, c, "colour", f + ".colour", str, COLOURS + ("any",))
        if (colour == "any") != (kind == "multicolored"):
            _fail(path, f + ".colour", "'any' exactly for the multicolored rooms")
        cols.append(-1 if colour == "any" else COLOURS.index(colour))
        doors.append(_doors(path, f + ".doors", _get(path, c, "doors", f + ".doors")))
        labs.append(-1)
        sps.append(0)
        bons.append(0)
        traps.append(TRAPS.index(_get(path, c, "trap", f + ".trap", str, TRAPS)) + 1)
    for kind, k in SPECIAL_COUNTS.items():
        got = kinds.count(ROOM_KINDS.index(kind))
        if sp_list and got != k:
            _fail(path, "special_rooms", f"{k} {kind} room cards, got {got}")
    return dict(room_name=tuple(names), room_colour=tuple(cols), room_doors=tuple(doors), room_lab=tuple(labs),
                room_special=tuple(sps), room_bonus=tuple(bons), room_trap=tuple(traps),
                room_shape=tuple(shape_of(m) for m in doors), start_doors=start, exit_doors=exitd,
                room_kind=tuple(kinds))


def load_events(path):
    d = _load(path)
    nm, num, tr, ef, ex = [], [], [], [], []
    for i, c in enumerate(_list(path, d, "events")):
        f = f"events[{i}]"
        nm.append(_get(path, c, "id", f + ".id", str))
        num.append(_get(path, c, "number", f + ".number", int, lo=1, hi=10))
        tr.append(_get(path, c, "trap", f + ".trap", bool))
        ef.append(EFFECTS.index(_get(path, c, "effect", f + ".effect", str, EFFECTS)))
        e = _get(path, c, "exit", f + ".exit")
        ok = (isinstance(e, list) and len(e) == 2 and all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in p)
            for p in e))
        if not ok:
            _fail(path, f + ".exit", f"must be two [row, column] offsets, got {e!r}")
        if any(p[0] < 2 for p in e) or e[0] == e[1]:
            _fail(path, f + ".exit", f"rows must be >= 2 (into the table, clear of the first rooms), distinct: {e!r}")
        ex.append((tuple(e[0]), tuple(e[1])))
    if len(nm) != 25:
        _fail(path, "events", f"25 Exit/Event cards, got {len(nm)}")
    return dict(event_name=tuple(nm), event_number=tuple(num), event_trap=tuple(tr), event_effect=tuple(ef),
                event_exit=tuple(ex))


def load_wounds(path):
    d = _load(path)
    inf, hb = [], []
    for i, c in enumerate(_list(path, d, "wounds")):
        f = f"wounds[{i}]"
        _get(path, c, "id", f + ".id", str)
        inf.append(_get(path, c, "infection", f + ".infection", bool))
        hb.append(_get(path, c, "heart_back", f + ".heart_back", bool))
    if len(inf) != 25:
        _fail(path, "wounds", f"25 Wound cards, got {len(inf)}")
    # Special contents: "Morbo wounds* (1 card)", a Wound card with its own back (dealt only with morbo=True)
    sp = d.get("special_contents", {})
    if not isinstance(sp, dict) or not isinstance(sp.get("morbo", {}), dict):
        _fail(path, "special_contents", "must be a mapping; its `morbo` a mapping (the Morbo card)")
    mo = sp.get("morbo", {"id": "MORBO", "infection": False})
    _get(path, mo, "id", "special_contents.morbo.id", str)
    inf.append(_get(path, mo, "infection", "special_contents.morbo.infection", bool))
    hb.append(False)                # its back is the Morbo back, not a red heart
    return dict(wound_infection=tuple(inf), wound_heart=tuple(hb))


def load_clues(path):
    d = _load(path)
    kinds, args = [], []
    for i, c in enumerate(_list(path, d, "clues")):
        f = f"clues[{i}]"
        _get(path, c, "id", f + ".id", str)
        k = CLUE_KINDS.index(_get(path, c, "kind", f + ".kind", str, CLUE_KINDS))
        if k == CK_DOORS:
            a = _get(path, c, "n", f + ".n", int, lo=1, hi=4)
        elif k in (CK_GROUP, CK_NEXT):
            a = COLOURS.index(_get(path, c, "colour", f + ".colour", str, COLOURS))
        elif k == CK_ZONE:
            rr, cc = c.get("rows"), c.get("cols")
            for nmf, v in (("rows", rr), ("cols", cc)):
                if not (isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) for x in v) and v[0] <= v[1]):
                    _fail(path, f"{f}.{nmf}", f"must be [first, last] with first <= last, got {v!r}")
            if rr[0] < 0:
                _fail(path, f + ".rows", "rows start at 0 (the Starting Room's row)")
            a = (tuple(rr), tuple(cc))
        else:
            a = 0
        kinds.append(k)
        args.append(a)
    if len(kinds) != 25:
        _fail(path, "clues", f"25 Clue cards, got {len(kinds)}")
    return dict(clue_kind=tuple(kinds), clue_arg=tuple(args))


def load_bosses(path):
    d = _load(path)
    nm, hp, dm, dg, irr = [], [], [], [], []
    for i, c in enumerate(_list(path, d, "bosses")):
        f = f"bosses[{i}]"
        nm.append(_get(path, c, "name", f + ".name", str))
        # optional: the card the Additional Final Attack needs ("If you are not using it, discard the Boss")
        irr.append(_get(path, c, "irreducible", f + ".irreducible", bool) if isinstance(c, dict)
                   and "irreducible" in c else False)
        hp.append(_get(path, c, "hp", f + ".hp", int, lo=1, hi=9))
        dm.append(_get(path, c, "damage", f + ".damage", int, lo=1, hi=9))
        dg.append(_get(path, c, "dodge", f + ".dodge", int, lo=1, hi=9))
    if len(nm) != 15:
        _fail(path, "bosses", f"15 Leader/Boss cards, got {len(nm)}")
    return dict(boss_name=tuple(nm), boss_hp=tuple(hp), boss_damage=tuple(dm), boss_dodge=tuple(dg),
                boss_irreducible=tuple(irr))


CREATURE_NAMES = ("zombie", "dog", "blooder", "tricker", "desu", "mutant", "verduko", "executioner")


def load_supply(path):
    d = _load(path)
    cr = _list(path, d, "creatures")
    if [c.get("name") if isinstance(c, dict) else None for c in cr] != list(CREATURE_NAMES):
        _fail(path, "creatures", f"must list exactly {list(CREATURE_NAMES)} in this order")
    out = {k: [] for k in ("cre_name", "cre_leader", "cre_count", "cre_hp", "cre_size", "cre_dodge", "cre_damage",
                           "cre_move")}
    for i, c in enumerate(cr):
        f = f"creatures[{i}]"
        out["cre_name"].append(c["name"])
        lead = _get(path, c, "leader", f + ".leader", bool)
        if lead != (i >= 4):
            _fail(path, f + ".leader", "the first four are minions, the last four Leaders")
        out["cre_leader"].append(lead)
        for k in ("count", "hp", "size", "dodge", "damage", "move"):
            out["cre_" + k].append(_get(path, c, k, f"{f}.{k}", int, lo=0 if k == "move" else 1, hi=20))
    tok = d.get("tokens")
    if not isinstance(tok, dict):
        _fail(path, "tokens", "must be a mapping")
    tokens = tuple(_get(path, tok, t, f"tokens.{t}", int, lo=0, hi=99) for t in TOKENS)
    tl = d.get("tiles")
    if not isinstance(tl, dict):
        _fail(path, "tiles", "must be a mapping")
    bar = _get(path, tl, "barrier", "tiles.barrier")
    if not (isinstance(bar, list) and len(bar) == 4 and all(isinstance(x, int) and x >= 0 for x in bar)):
        _fail(path, "tiles.barrier", f"must be 4 counts (0..3 bars), got {bar!r}")
    cu = d.get("cubes")
    if not isinstance(cu, dict):
        _fail(path, "cubes", "must be a mapping")
    hs = d.get("hero_start")
    if not isinstance(hs, dict):
        _fail(path, "hero_start", "must be a mapping")
    per = _get(path, cu, "action_per_hero", "cubes.action_per_hero", int, lo=5, hi=40)
    rem = d.get("removals")
    if not isinstance(rem, dict) or set(rem) != {1, 2, 3}:
        _fail(path, "removals", "must give the removals for 1, 2 and 3 heroes")
    return dict(**{k: tuple(v) for k, v in out.items()}, tokens=tokens,
                doors_supply=_get(path, tl, "door", "tiles.door", int, lo=0, hi=20),
                breach_supply=_get(path, tl, "breach", "tiles.breach", int, lo=0, hi=20),
                barrier_supply=tuple(bar), action_cubes=per,
                bullets=_get(path, cu, "bullets", "cubes.bullets", int, lo=0, hi=200),
                major_cards=_get(path, d, "major_advantage_cards", "major_advantage_cards", int, lo=0, hi=20),
                start_actions=_get(path, hs, "stock_actions", "hero_start.stock_actions", int, lo=5, hi=per),
                start_bullets=_get(path, hs, "bullets", "hero_start.bullets", int, lo=5, hi=64),
                removals=rem, **_special(path, d))


def _special(path, d):
    """The optional `special_contents` (the crowd-funding add-ons): counts of the extra tokens."""
    sp = d.get("special_contents", {})
    if not isinstance(sp, dict):
        _fail(path, "special_contents", "must be a mapping")
    return {k: _get(path, sp, k, f"special_contents.{k}", int, lo=0, hi=20) if k in sp else 4
            for k in ("smoke_bombs", "resolution_tokens")}


_CACHE: dict = {}


def load_components(data_dir: str | None = None) -> Components:
    """All components from data_dir (default: the package's data/); cached per directory."""
    dd = data_dir or DATA_DIR
    if dd in _CACHE:
        return _CACHE[dd]
    parts = {}
    for fn, loader in (("rooms.yaml", load_rooms), ("events.yaml", load_events), ("wounds.yaml", load_wounds),
                       ("clues.yaml", load_clues), ("bosses.yaml", load_bosses), ("supply.yaml", load_supply)):
        parts.update(loader(os.path.join(dd, fn)))
    comp = Components(**parts)
    _CACHE[dd] = comp
    return comp
