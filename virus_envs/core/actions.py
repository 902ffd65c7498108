"""Action tables: the one place per game where action ids meet their meaning."""
from __future__ import annotations


class ActionTable:
    """An ordered list of (name, payload) built once; ids are positions.

    Names are unique, human-readable and round-trip through `parse`.
    """

    def __init__(self):
        self.names: list[str] = []
        self.payloads: list[tuple] = []
        self._index: dict[str, int] = {}

    def add(self, name: str, payload: tuple) -> int:
        """Append an action; returns its id."""
        if name in self._index:
            raise ValueError(f"duplicate action name {name!r}")
        self._index[name] = len(self.names)
        self.names.append(name)
        self.payloads.append(payload)
        return len(self.names) - 1

    def __len__(self):
        return len(self.names)

    def name(self, a: int) -> str:
        """Readable name of action id a."""
        return self.names[a]

    def parse(self, text: str) -> int:
        """The id named by text: the exact name (a " [...]" context suffix is ignored) or a decimal id."""
        t = text.split(" [", 1)[0].strip()
        if t in self._index:
            return self._index[t]
        if t.isdigit() and int(t) < len(self.names):
            return int(t)
        raise ValueError(f"unknown action {text!r}")
