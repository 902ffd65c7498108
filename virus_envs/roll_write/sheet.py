"""The score sheet and the laboratory cards: loaded from data files, validated, turned into tables.

Everything the rules need about components is a precomputed table here, so that the rules
code works on plain ints: a disease grid is a bitmask over box VALUES (bit v = the box showing
v, values are unique within a grid), a laboratory row is a bitmask over its values too.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from ..core.data import load_yaml

COLOURS = ("blue", "red", "green", "yellow")
BLUE, RED, GREEN, YELLOW = 0, 1, 2, 3
NONE, EXTRA_CROSS_OFF, WILDCARD = 0, 1, 2
ADVANTAGES = ("none", "extra_cross_off", "wildcard")
CONDITIONS_2 = ("same", "odd_even", "left_ge_right", "different")
CONDITIONS_1 = ("even", "odd")
OPERATIONS = ("add", "multiply")

DATA_DIR = os.path.join(os.path.dirname(__file__), "data")
SHEET_FILE = os.path.join(DATA_DIR, "sheet.yaml")
LAB_FILE = os.path.join(DATA_DIR, "lab_cards.yaml")

_cache: dict = {}


def _load_yaml(path: str):
    """Parsed YAML of path; ValueError naming the file if unreadable."""
    return load_yaml(path, mapping=False)


def _need(cond: bool, path: str, field: str, msg: str):
    """Raise ValueError naming the file and the field unless cond."""
    if not cond:
        raise ValueError(f"{path}: field {field!r}: {msg}")


def _int(x) -> bool:
    """A real int (not a bool)."""
    return isinstance(x, int) and not isinstance(x, bool)


@dataclass(frozen=True)
class Sheet:
    """Tables of one score sheet design (see data/sheet.yaml)."""

    path: str
    boxes: tuple            # per colour: tuple of rows, each a tuple of values
    values: tuple           # per colour: sorted values present in the grid
    full: tuple             # per colour: bitmask of all its boxes
    lines: tuple            # per colour: tuple of (mask, icon colour, 'row i' / 'column j')
    box_lines: tuple        # per colour: tuple indexed by value -> tuple of (mask, icon colour)
    lab_values: tuple       # laboratory row values, in sheet order
    lab_full: int           # bitmask of laboratory row values
    lab_advantage: tuple    # indexed by value 0..12 -> NONE / EXTRA_CROSS_OFF / WILDCARD
    wildcard_boxes: int
    wildcards_at_start: int
    virus_boxes: int
    round_tracker: dict     # players -> rounds
    dice_per_player: dict   # players -> dice
    points: tuple           # boxes crossed (0..max) -> research points
    speed_bonus: int
    wildcard_points: int


def load_sheet(path: str | None = None) -> Sheet:
    """The sheet of data/sheet.yaml (or `path`), validated; cached per path."""
    path = os.path.abspath(path or SHEET_FILE)
    key = ("sheet", path)
    if key not in _cache:
        _cache[key] = _parse_sheet(_load_yaml(path), path)
    return _cache[key]


def _colour(x, path, field):
    """Index of a colour name."""
    _need(x in COLOURS, path, field, f"must be one of {COLOURS}, got {x!r}")
    return COLOURS.index(x)


def _parse_sheet(d, path) -> Sheet:
    """Validate a sheet document and build its tables."""
    _need(isinstance(d, dict), path, "(top)", "must be a mapping")
    _need(d.get("colours") == list(COLOURS), path, "colours", f"must be {list(COLOURS)}")
    grids = d.get("grids")
    _need(isinstance(grids, dict) and set(grids) == set(COLOURS), path, "grids",
          f"must map each of {COLOURS} to a grid")
    boxes, values, full, lines, box_lines = [], [], [], [], []
    for c, name in enumerate(COLOURS):
        g = grids[name]
        f = f"grids.{name}"
        _need(isinstance(g, dict), path, f, "must be a mapping with boxes, row_icons, column_icons")
        rows = g.get("boxes")
        _need(isinstance(rows, list) and rows and all(isinstance(r, list) and r for r in rows), path,
              f + ".boxes", "must be a non-empty list of non-empty rows")
        ncol = len(rows[0])
        _need(all(len(r) == ncol for r in rows), path, f + ".boxes", "rows must have equal length")
        flat = [v for r in rows for v in r]
        _need(all(_int(v) and 1 <= v <= 12 for v in flat), path, f + ".boxes",
              "box values must be ints 1..12 (a die 1-6 or a sum 2-12)")
        _need(len(set(flat)) == len(flat), path, f + ".boxes", "a value may appear only once in a grid")
        ri, ci = g.get("row_icons"), g.get("column_icons")
        _need(isinstance(ri, list) and len(ri) == len(rows), path, f + ".row_icons", "one icon colour per row")
        _need(isinstance(ci, list) and len(ci) == ncol, path, f + ".column_icons", "one icon colour per column")
        ln = []
        for i, r in enumerate(rows):
            m = 0
            for v in r:
                m |= 1 << v
            ln.append((m, _colour(ri[i], path, f"{f}.row_icons[{i}]"), f"row {i + 1}"))
        for j in range(ncol):
            m = 0
            for r in rows:
                m |= 1 << r[j]
            ln.append((m, _colour(ci[j], path, f"{f}.column_icons[{j}]"), f"column {j + 1}"))
        bl = [tuple((m, ic) for m, ic, _ in ln if m >> v & 1) for v in range(13)]
        boxes.append(tuple(tuple(r) for r in rows))
        values.append(tuple(sorted(flat)))
        fm = 0
        for v in flat:
            fm |= 1 << v
        full.append(fm)
        lines.append(tuple(ln))
        box_lines.append(tuple(bl))
    lab = d.get("laboratory_row")
    _need(isinstance(lab, list) and lab, path, "laboratory_row", "must be a non-empty list of boxes")
    lab_values, adv = [], [NONE] * 13
    for i, b in enumerate(lab):
        f = f"laboratory_row[{i}]"
        _need(isinstance(b, dict) and _int(b.get("value")) and 1 <= b["value"] <= 12, path, f + ".value",
              "must be an int 1..12")
        _need(b["value"] not in lab_values, path, f + ".value", "values must be distinct")
        _need(b.get("advantage", "none") in ADVANTAGES, path, f + ".advantage", f"must be one of {ADVANTAGES}")
        lab_values.append(b["value"])
        adv[b["value"]] = ADVANTAGES.index(b.get("advantage", "none"))
    lab_full = 0
    for v in lab_values:
        lab_full |= 1 << v
    wt = d.get("wildcard_tube")
    _need(isinstance(wt, dict) and _int(wt.get("boxes")) and wt["boxes"] >= 0, path, "wildcard_tube.boxes",
          "must be an int >= 0")
    _need(_int(wt.get("circled_at_start")) and 0 <= wt["circled_at_start"] <= wt["boxes"], path,
          "wildcard_tube.circled_at_start", "must be an int 0..boxes")
    _need(wt["boxes"] >= wt["circled_at_start"] + adv.count(WILDCARD), path, "wildcard_tube.boxes",
          "needs room for the start wildcards plus one per wildcard box of the laboratory row")
    rt = d.get("round_tracker")
    _need(isinstance(rt, dict) and set(rt) == {2, 3, 4} and all(_int(r) and r >= 1 for r in rt.values()),
          path, "round_tracker", "must map 2, 3 and 4 players to a number of rounds >= 1")
    dp = d.get("dice_per_player")
    _need(isinstance(dp, dict) and set(dp) == {2, 3, 4} and all(_int(r) and r >= 1 for r in dp.values()),
          path, "dice_per_player", "must map 2, 3 and 4 players to a number of dice >= 1")
    vt = d.get("virus_tube")
    _need(isinstance(vt, dict) and _int(vt.get("boxes")) and vt["boxes"] >= max(rt.values()), path,
          "virus_tube.boxes", "must be an int >= the longest game's rounds")
    maxbox = max(len(v) for v in values)
    rp = d.get("research_points")
    _need(isinstance(rp, list) and rp, path, "research_points", "must be a list of {min, max, points}")
    pts = [None] * (maxbox + 1)
    for i, r in enumerate(rp):
        f = f"research_points[{i}]"
        _need(isinstance(r, dict) and all(_int(r.get(k)) for k in ("min", "max", "points"))
              and 0 <= r["min"] <= r["max"], path, f, "needs ints min <= max and points")
        for k in range(r["min"], min(r["max"], maxbox) + 1):
            _need(pts[k] is None, path, f, f"overlaps another range at {k} boxes")
            pts[k] = r["points"]
    _need(all(p is not None for p in pts), path, "research_points", f"must cover 0..{maxbox} boxes")
    for k in ("speed_bonus", "wildcard_points"):
        _need(_int(d.get(k)), path, k, "must be an int")
    return Sheet(path, tuple(boxes), tuple(values), tuple(full), tuple(lines), tuple(box_lines),
                 tuple(lab_values), lab_full, tuple(adv), wt["boxes"], wt["circled_at_start"], vt["boxes"],
                 dict(rt), dict(dp), tuple(pts), d["speed_bonus"], d["wildcard_points"])


@dataclass(frozen=True)
class LabCard:
    """One laboratory card face: `result[l][r]` (2 slots) or `result[v]` (1 slot); 0 = not allowed."""

    name: str
    players: tuple
    slots: int
    condition: str
    text: str
    result: tuple


def _cond2(cond, l, r):
    """Condition of a two-slot card on (left, right)."""
    if cond == "same":
        return l == r
    if cond == "odd_even":
        return (l + r) % 2 == 1
    if cond == "left_ge_right":
        return l >= r
    return l != r  # different


def load_lab_cards(path: str | None = None) -> tuple[dict, dict]:
    """(name -> LabCard, players -> default pair of names) from data/lab_cards.yaml (or `path`)."""
    path = os.path.abspath(path or LAB_FILE)
    key = ("lab", path)
    if key not in _cache:
        _cache[key] = _parse_lab(_load_yaml(path), path)
    return _cache[key]


def _parse_lab(d, path):
    """Validate a laboratory card document and build the result tables."""
    _need(isinstance(d, dict) and isinstance(d.get("cards"), dict) and d["cards"], path, "cards",
          "must map card names to faces")
    cards = {}
    for name, c in d["cards"].items():
        f = f"cards.{name}"
        _need(isinstance(c, dict), path, f, "must be a mapping")
        pl = c.get("players")
        _need(pl in ([2, 4], [3]), path, f + ".players", "must be [2, 4] or [3]")
        slots = c.get("slots")
        _need(slots == (1 if pl == [3] else 2), path, f + ".slots",
              "must be 2 for the 2/4-player side and 1 for the 3-player side")
        cond = c.get("condition")
        if slots == 2:
            _need(cond in CONDITIONS_2, path, f + ".condition", f"must be one of {CONDITIONS_2}")
            res = tuple(tuple((l + r) if l and r and _cond2(cond, l, r) else 0 for r in range(7))
                        for l in range(7))
        else:
            _need(cond in CONDITIONS_1, path, f + ".condition", f"must be one of {CONDITIONS_1}")
            op, k = c.get("operation"), c.get("operand")
            _need(op in OPERATIONS, path, f + ".operation", f"must be one of {OPERATIONS}")
            _need(_int(k), path, f + ".operand", "must be an int")
            par = 0 if cond == "even" else 1
            res = tuple(((v + k) if op == "add" else (v * k)) if v and v % 2 == par else 0 for v in range(7))
            _need(all(0 <= x <= 12 for x in res), path, f + ".operand", "results must stay within 1..12")
        cards[str(name)] = LabCard(str(name), tuple(pl), slots, cond, str(c.get("text", "")), res)
    df = d.get("defaults")
    _need(isinstance(df, dict) and set(df) == {2, 3, 4}, path, "defaults", "must map 2, 3 and 4 players to two cards")
    defaults = {}
    for n, pair in df.items():
        _need(isinstance(pair, list) and len(pair) == 2 and len(set(pair)) == 2
              and all(p in cards and n in cards[p].players for p in pair), path, f"defaults.{n}",
              f"must be two different cards for {n} players")
        defaults[n] = tuple(pair)
    return cards, defaults
