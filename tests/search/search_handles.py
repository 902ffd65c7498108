"""Search handles for the tests of tests/search: one that replays recorded worlds with no state behind it, one that records."""


class ReplayHandle:
    """A search handle without any state behind it: it hands out copies of worlds recorded earlier."""

    def __init__(self, worlds):
        self._worlds = list(worlds)
        self._i = 0

    def determinize(self, rng):
        w = self._worlds[self._i]
        self._i += 1
        return w.clone()


class RecordingHandle:
    """The real handle, keeping a copy of every world it hands out."""

    def __init__(self, handle):
        self._handle = handle
        self.worlds = []

    def determinize(self, rng):
        w = self._handle.determinize(rng)
        self.worlds.append(w.clone())
        return w
