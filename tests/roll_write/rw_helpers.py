"""Helpers to build Roll & Write positions directly (scenario tests)."""
from __future__ import annotations

from virus_envs.roll_write import encoding
from virus_envs.roll_write.game import RollWriteGame
from virus_envs.roll_write.sheet import COLOURS


def new(n=2, seed=0, **cfg):
    """(game, fresh state)."""
    g = RollWriteGame(num_players=n, **cfg)
    return g, g.new_initial_state(seed=seed)


def sync(s):
    """After editing fields by hand: rebuild the encoded board and drop the cached mask."""
    s.board = encoding.encode_full(s)
    s._mask = None
    s._scores = None


def dice(s, p, values):
    """Give seat p exactly these dice in reserve."""
    r = [0] * 7
    for v in values:
        r[v] += 1
    s.reserve[p] = r
    sync(s)


def cross(s, p, colour, values):
    """Mark boxes of a grid as already crossed off."""
    c = COLOURS.index(colour)
    for v in values:
        s.grid[p][c] |= 1 << v
    sync(s)


def crossed(s, p, colour):
    """Sorted values crossed off in seat p's grid of colour."""
    c = COLOURS.index(colour)
    return [v for v in range(1, 13) if s.grid[p][c] >> v & 1]


def lab_crossed(s, p):
    return [v for v in range(1, 13) if s.labrow[p] >> v & 1]


def act(s, name):
    """Apply the action named `name` (as action_to_string prints it)."""
    s.apply_action(s.game.string_to_action(name))


def legal_names(s):
    return {s.action_to_string(a) for a in s.legal_actions()}


def turn_to(s, p):
    """Make it seat p's turn to place (this round's starter moved, no dice placed yet)."""
    s.starter = p
    s.placed = 0
    sync(s)
