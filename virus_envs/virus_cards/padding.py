"""VIRUS! at 2-6 players in the 6-player encoding (one network for several counts: docs/agents/ppo.md).

Every per-player block of the observation (`known_hands`, `bodies`, `hand_sizes`, `transplant_first`,
`to_act`) is indexed by the relative seat first, so the n-player block is the prefix of the 6-player
block: relative seats 0..n-1 keep their place and seats n..5 stay 0. A `present` block of 6 flags (1 for
relative seats 0..n-1) follows, so the network can tell an absent seat from an empty one. Actions match
by payload ((kind, hand card, +r, colour) and so on): the 6-player table holds every move of a smaller
count, with the same relative seat.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..core.padding import Padding
from . import encoding
from .actions import card_actions

MAX_PLAYERS = 6


@lru_cache(maxsize=None)
def padding(num_players: int) -> Padding:
    """The maps of the n-player encoding into the 6-player one plus `present` (built once per count)."""
    n = int(num_players)
    if not 2 <= n <= MAX_PLAYERS:
        raise ValueError(f"virus_cards_v0 has no padded encoding for {n} players (2-{MAX_PLAYERS})")
    small, big = encoding.layout(n), encoding.layout(MAX_PLAYERS)
    obs_index = np.empty(small.size, dtype=np.intp)
    for (name, shape), (name6, shape6) in zip(small.fields, big.fields):
        if name != name6 or shape[1:] != shape6[1:] or shape[0] > shape6[0]:
            raise ValueError(f"virus_cards_v0 field {name!r}: shape {shape} is not a prefix of {shape6}")
        s, b = small.slices[name], big.slices[name]
        obs_index[s] = np.arange(b.start, b.start + s.stop - s.start)
    present = np.arange(big.size, big.size + n)
    six = {p: i for i, p in enumerate(card_actions(MAX_PLAYERS).payload)}
    action_index = [six[p] for p in card_actions(n).payload]
    return Padding("virus_cards_v0", n, MAX_PLAYERS, obs_index, big.size + MAX_PLAYERS, present, action_index,
                   len(six))
