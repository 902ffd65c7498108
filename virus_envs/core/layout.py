"""Observation layout: named slices over one flat float32 vector (one memory for net and debugger)."""
from __future__ import annotations

from math import prod

import numpy as np


class ObsLayout:
    """Declares fields (name, shape) in order; gives offsets, views and a readable description.

    >>> lay = ObsLayout([("hand", (3, 20)), ("deck_size", 1)])
    >>> v = lay.zeros(); lay.view(v, "hand")[0, 4] = 1; lay.size
    61
    """

    def __init__(self, fields, high: float = 1.0):
        self.fields: list[tuple[str, tuple[int, ...]]] = []
        self.slices: dict[str, slice] = {}
        off = 0
        for name, shape in fields:
            shape = (shape,) if isinstance(shape, int) else tuple(shape)
            if name in self.slices:
                raise ValueError(f"duplicate observation field {name!r}")
            n = prod(shape)
            self.fields.append((name, shape))
            self.slices[name] = slice(off, off + n)
            off += n
        self.size = off
        self.shape = (off,)
        self.high = high

    def zeros(self) -> np.ndarray:
        """A new all-zero observation vector."""
        return np.zeros(self.size, dtype=np.float32)

    def view(self, vec: np.ndarray, name: str) -> np.ndarray:
        """The named field of vec as a writable view with the field's shape."""
        return vec[self.slices[name]].reshape(self._shape(name))

    def unpack(self, vec: np.ndarray) -> dict[str, np.ndarray]:
        """Every field of vec by name (for debugging and tests)."""
        return {name: vec[self.slices[name]].reshape(shape) for name, shape in self.fields}

    def _shape(self, name):
        for n, s in self.fields:
            if n == name:
                return s
        raise KeyError(name)

    def describe(self) -> str:
        """A Markdown table of the layout: field, shape, offsets."""
        rows = ["| field | shape | offsets |", "|---|---|---|"]
        for name, shape in self.fields:
            sl = self.slices[name]
            rows.append(f"| {name} | {shape} | {sl.start}..{sl.stop - 1} |")
        return "\n".join(rows)
