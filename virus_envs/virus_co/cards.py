"""Virus & Co components: virus cards, syringes, risk cards and pills, loaded from a validated data file.

Every card of a game has an int id (its index in the `Catalogue` tables):

    0 .. V-1      virus cards of the preset: viruses first (data order), then the syringes
    V .. V+19     the 20 risk cards, grouped by risk type in data order

A bad file raises ValueError naming the file and the field.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from ..core.data import load_yaml

DATA_FILE = os.path.join(os.path.dirname(__file__), "data", "cards.yaml")

BLUE, YELLOW, RED = 0, 1, 2
COLOURS = ("blue", "yellow", "red")
_PILL_CODE = {"b": BLUE, "y": YELLOW, "r": RED}

KIND_VIRUS, KIND_SYRINGE, KIND_RISK = 0, 1, 2

#: the effect keys the rules know, in the order of the data file's risk types
RISK_KEYS = ("infection", "diagnosis", "mr_doctor", "injection", "medicare_patient", "nurse",
             "pharmaceutical_trial", "plague_2", "plague_3", "recall", "prescription", "guinea_pig",
             "use_by_date")
NUM_RISK_TYPES = len(RISK_KEYS)
(R_INFECTION, R_DIAGNOSIS, R_DOCTOR, R_INJECTION, R_MEDICARE, R_NURSE, R_TRIAL, R_PLAGUE2, R_PLAGUE3,
 R_RECALL, R_PRESCRIPTION, R_GUINEA, R_USEBY) = range(NUM_RISK_TYPES)

NUM_RISK_CARDS = 20
VIRUS_CARDS = 38


@dataclass(frozen=True)
class Catalogue:
    """Per card id: kind, name, illness value, pills shown (b, y, r), cross mark, risk type (or -1)."""

    preset: str
    kind: tuple
    name: tuple
    value: tuple
    pills: tuple          # per card: (blue, yellow, red) shown
    cross: tuple
    rtype: tuple          # risk type 0..12 or -1
    num_virus_cards: int  # V: ids 0..V-1 are virus cards (viruses + syringes)
    pill_value: tuple     # value of blue, yellow, red
    pill_total: tuple     # pills of each colour in the box
    start: tuple          # pills of each colour per player and for the pharmacy
    risk_names: tuple     # per risk type
    risk_german: tuple
    risk_count: tuple
    risk_pills: tuple     # per risk type: colour codes shown (Prescription, Guinea Pig)
    diagnosis_right: int
    diagnosis_wrong: int
    nurse_healthy: int
    nurse_icu: int

    @property
    def size(self) -> int:
        return len(self.kind)

    def is_virus(self, c: int) -> bool:
        """A card that lies in a display as a virus (virus cards and Plague risk cards)."""
        return self.value[c] > 0


def _fail(path, field, msg):
    raise ValueError(f"{path}: field {field!r}: {msg}")


def _pills(path, field, seq):
    if not isinstance(seq, list):
        _fail(path, field, f"must be a list of pill letters b/y/r, got {seq!r}")
    out = [0, 0, 0]
    for x in seq:
        if x not in _PILL_CODE:
            _fail(path, field, f"unknown pill {x!r} (use b, y, r)")
        out[_PILL_CODE[x]] += 1
    return tuple(out)


def _int(path, field, v, lo, hi):
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        _fail(path, field, f"must be an int in {lo}..{hi}, got {v!r}")
    return v


def load_catalogue(preset: str = "seed", path: str | None = None) -> Catalogue:
    """Load and validate the components of a preset; errors name the file and the field."""
    path = path or DATA_FILE
    data = load_yaml(path)
    for key in ("pills", "start", "viruses", "presets", "risk_cards"):
        if key not in data:
            _fail(path, key, "missing")

    pv, pt, st = [], [], []
    for i, col in enumerate(COLOURS):
        entry = data["pills"].get(col) if isinstance(data["pills"], dict) else None
        if not isinstance(entry, dict):
            _fail(path, f"pills.{col}", "missing or not a mapping")
        pv.append(_int(path, f"pills.{col}.value", entry.get("value"), 1, 9))
        pt.append(_int(path, f"pills.{col}.total", entry.get("total"), 0, 999))
        st.append(_int(path, f"start.{col}", (data["start"] or {}).get(col), 0, 99))
    if pv != [1, 2, 3]:
        _fail(path, "pills", f"values must be blue 1, yellow 2, red 3 (the payment rules assume it), got {pv}")
    for i, col in enumerate(COLOURS):
        if 7 * st[i] > pt[i]:  # six players and the pharmacy
            _fail(path, f"start.{col}", f"7 x {st[i]} exceeds the {pt[i]} {col} pills")

    presets = data["presets"]
    if not isinstance(presets, dict) or preset not in presets:
        _fail(path, "presets", f"unknown preset {preset!r}; known: {sorted(presets) if isinstance(presets, dict) else []}")
    pre = presets[preset]
    if not isinstance(pre, dict):
        _fail(path, f"presets.{preset}", "must be a mapping")
    n_syr = _int(path, f"presets.{preset}.syringes", pre.get("syringes"), 0, 38)
    remove = pre.get("remove", [])
    if not isinstance(remove, list):
        _fail(path, f"presets.{preset}.remove", "must be a list of virus ids")

    viruses = data["viruses"]
    if not isinstance(viruses, list):
        _fail(path, "viruses", "must be a list")
    seen = set()
    kind, name, value, pills, cross, rtype = [], [], [], [], [], []
    for i, v in enumerate(viruses):
        f = f"viruses[{i}]"
        if not isinstance(v, dict):
            _fail(path, f, "must be a mapping")
        vid = v.get("id")
        if not isinstance(vid, str) or not vid:
            _fail(path, f + ".id", f"must be a non-empty string, got {vid!r}")
        if vid in seen:
            _fail(path, f + ".id", f"duplicate id {vid!r}")
        seen.add(vid)
        val = _int(path, f + ".value", v.get("value"), 1, 6)
        pl = _pills(path, f + ".pills", v.get("pills"))
        if not 1 <= sum(pl) <= 3:
            _fail(path, f + ".pills", f"a virus shows 1 to 3 pills, got {sum(pl)}")
        cr = v.get("cross", False)
        if not isinstance(cr, bool):
            _fail(path, f + ".cross", f"must be true or false, got {cr!r}")
        if vid in remove:
            continue
        kind.append(KIND_VIRUS); name.append(vid); value.append(val); pills.append(pl); cross.append(cr)
        rtype.append(-1)
    for r in remove:
        if r not in seen:
            _fail(path, f"presets.{preset}.remove", f"unknown virus id {r!r}")
    for k in range(n_syr):
        kind.append(KIND_SYRINGE); name.append(f"S{k + 1:02d}"); value.append(0); pills.append((0, 0, 0))
        cross.append(False); rtype.append(-1)
    if len(kind) != VIRUS_CARDS:
        _fail(path, f"presets.{preset}", f"gives {len(kind)} virus cards; the game has {VIRUS_CARDS}")
    if sum(cross) != 8:
        _fail(path, "viruses", f"{sum(cross)} viruses carry the cross mark; the game has 8")
    nv = len(kind)

    risks = data["risk_cards"]
    if not isinstance(risks, list) or len(risks) != NUM_RISK_TYPES:
        _fail(path, "risk_cards", f"must list the {NUM_RISK_TYPES} risk types")
    rnames, rger, rcount, rpills = [], [], [], []
    extra = {}
    for t, r in enumerate(risks):
        f = f"risk_cards[{t}]"
        if not isinstance(r, dict):
            _fail(path, f, "must be a mapping")
        if r.get("key") != RISK_KEYS[t]:
            _fail(path, f + ".key", f"expected {RISK_KEYS[t]!r} (types in the documented order), got {r.get('key')!r}")
        nm = r.get("name")
        if not isinstance(nm, str) or not nm:
            _fail(path, f + ".name", "must be a non-empty string")
        cnt = _int(path, f + ".count", r.get("count"), 1, 20)
        rp = ()
        if RISK_KEYS[t] in ("prescription", "guinea_pig"):
            shown = _pills(path, f + ".pills", r.get("pills"))
            seq = []
            for c in range(3):
                seq += [c] * shown[c]
            if not 1 <= len(seq) <= 3:
                _fail(path, f + ".pills", "must show 1 to 3 pills")
            rp = tuple(seq)
        if RISK_KEYS[t] == "diagnosis":
            extra["dr"] = _int(path, f + ".right", r.get("right"), -99, 99)
            extra["dw"] = _int(path, f + ".wrong", r.get("wrong"), -99, 99)
        if RISK_KEYS[t] == "nurse":
            extra["nh"] = _int(path, f + ".healthy", r.get("healthy"), -99, 99)
            extra["ni"] = _int(path, f + ".icu", r.get("icu"), -99, 99)
        val = 0
        if RISK_KEYS[t] in ("plague_2", "plague_3"):
            val = _int(path, f + ".value", r.get("value"), 1, 6)
        rnames.append(nm); rger.append(str(r.get("german", ""))); rcount.append(cnt); rpills.append(rp)
        for k in range(cnt):
            kind.append(KIND_RISK)
            name.append(f"{nm} #{k + 1}" if cnt > 1 else nm)
            value.append(val); pills.append((0, 0, 0)); cross.append(False); rtype.append(t)
    if sum(rcount) != NUM_RISK_CARDS:
        _fail(path, "risk_cards", f"counts add up to {sum(rcount)}; the game has {NUM_RISK_CARDS}")
    return Catalogue(preset, tuple(kind), tuple(name), tuple(value), tuple(pills), tuple(cross), tuple(rtype),
                     nv, tuple(pv), tuple(pt), tuple(st), tuple(rnames), tuple(rger), tuple(rcount),
                     tuple(rpills), extra["dr"], extra["dw"], extra["nh"], extra["ni"])
