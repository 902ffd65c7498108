"""VIRUS! cards: kinds, colours, treatments, and the deck loaded from a validated data file.

A card is an int id into the deck's tables `KIND`, `COLOUR`, `TREAT` (built once per deck).
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from ..core.data import load_yaml

ORGAN, VIRUS, MEDICINE, TREATMENT = 0, 1, 2, 3
KINDS = ("organ", "virus", "medicine", "treatment")

# One organ of each colour at most in a body: the slot of an organ is its colour.
RED, GREEN, BLUE, YELLOW, MULTI = 0, 1, 2, 3, 4
COLOURS = ("red", "green", "blue", "yellow", "multi")
NUM_COLOURS = 5

TRANSPLANT, ORGAN_THIEF, CONTAGION, LATEX_GLOVE, MEDICAL_ERROR = 0, 1, 2, 3, 4
TREATMENTS = ("transplant", "organ_thief", "contagion", "latex_glove", "medical_error")

#: card type = what a player can tell apart: 5 organ colours, 5 virus, 5 medicine, 5 treatments
NUM_TYPES = 20
TYPE_NAMES = tuple([f"{c} organ" for c in COLOURS] + [f"{c} virus" for c in COLOURS]
                   + [f"{c} medicine" for c in COLOURS] + [t.replace("_", " ") for t in TREATMENTS])

DATA_FILE = os.path.join(os.path.dirname(__file__), "data", "decks.yaml")


def compatible(a: int, b: int) -> bool:
    """Colours match, or either is multicolour ("can affect cards of any color ... affected by any card")."""
    return a == b or a == MULTI or b == MULTI


@dataclass(frozen=True)
class Deck:
    """The cards of one deck preset: per card id its kind, colour (or -1) and treatment (or -1)."""

    name: str
    kind: tuple
    colour: tuple
    treat: tuple
    ctype: tuple      # card type 0..19
    type_counts: tuple  # how many cards of each type

    @property
    def size(self) -> int:
        return len(self.kind)

    def card_name(self, card: int) -> str:
        return TYPE_NAMES[self.ctype[card]]


def load_deck(preset: str, path: str | None = None) -> Deck:
    """Load and validate a preset from a deck data file; errors name the file and the field."""
    path = path or DATA_FILE
    data = load_yaml(path, mapping=False)
    if not isinstance(data, dict) or not isinstance(data.get("presets"), dict):
        raise ValueError(f"{path}: field 'presets' missing or not a mapping")
    presets = data["presets"]
    if preset not in presets:
        raise ValueError(f"{path}: field 'presets.{preset}' not found; presets: {sorted(presets)}")
    spec = presets[preset]
    where = f"presets.{preset}"
    if not isinstance(spec, dict):
        raise ValueError(f"{path}: field '{where}' must be a mapping")
    for k in spec:
        if k not in KINDS:
            raise ValueError(f"{path}: field '{where}.{k}' is not a card kind {KINDS}")
    kind, colour, treat, ctype = [], [], [], []
    for k_i, k in enumerate(KINDS):
        names = TREATMENTS if k_i == TREATMENT else COLOURS
        counts = spec.get(k, {})
        if not isinstance(counts, dict):
            raise ValueError(f"{path}: field '{where}.{k}' must be a mapping of counts")
        for name in counts:
            if name not in names:
                raise ValueError(f"{path}: field '{where}.{k}.{name}' unknown; expected one of {names}")
        for i, name in enumerate(names):
            n = counts.get(name, 0)
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise ValueError(f"{path}: field '{where}.{k}.{name}' must be a non-negative int, got {n!r}")
            for _ in range(n):
                kind.append(k_i)
                colour.append(-1 if k_i == TREATMENT else i)
                treat.append(i if k_i == TREATMENT else -1)
                ctype.append(k_i * 5 + i)
    organ_types = {colour[i] for i in range(len(kind)) if kind[i] == ORGAN}
    if len(organ_types) < 4:
        raise ValueError(f"{path}: field '{where}.organ' must give organs of at least 4 colours "
                         f"(multicolour counts as one): a body of 4 different organs wins")
    counts = [0] * NUM_TYPES
    for t in ctype:
        counts[t] += 1
    return Deck(preset, tuple(kind), tuple(colour), tuple(treat), tuple(ctype), tuple(counts))
