"""Leaf evaluation of the search agents: the value of an unfinished position for every seat, in [-1, 1].

A playout cut off after `depth` decisions is scored here instead of by `returns()`. Competitive
games: a material score per seat is turned into win chances with a softmax, P_i = exp(x_i / T) /
sum_j exp(x_j / T), and the value is the expected return of a winner-takes-all game, 2 P_i - 1
(two seats: tanh((x_i - x_j) / 2T)). T is about half the usual winning margin of heuristic games
(measured over 20 heuristic self-play games per game). Co-operative game: one value for every seat.
Each function reads the sampled world it is given (never the true state).
"""
from __future__ import annotations

import math

__all__ = ["leaf_values", "roll_write_points", "softmax_values"]


def softmax_values(x, temp: float) -> list:
    """2 P_i - 1 with P = softmax(x / temp): the expected winner-takes-all return of each seat."""
    m = max(x)
    e = [math.exp((v - m) / temp) for v in x]
    z = sum(e)
    return [2.0 * v / z - 1.0 for v in e]


def _virus_cards(game):
    """VIRUS!: the heuristic's body value of each seat (organ states; healthy organs counted progressively)."""
    from virus_envs.agents.virus_cards_heuristic import VirusCardsHeuristic
    body = VirusCardsHeuristic(game).body_value
    return lambda state: softmax_values([body(state, q) for q in range(state.n)], 4.0)


def _roll_write(game):
    """Roll & Write: smoothed points, since the final evaluation is a step table (0 / 5 / 10 / 12 points at
    0 / 4 / 8 / 11 boxes) that a few placements rarely change: research points interpolated between the
    steps (the heuristic's table), speed bonuses, circled wildcards, minus the virus tube and the dice on
    the contaminated samples card this round (written into the tube at the round's end). Winning
    margins of heuristic games are about 8 points (2 players) and 4 (4 players). Everything here is
    public (the sheets of `view`); it is read from the world's fields, which is 8 times faster than
    building the view (the same numbers: a test compares them)."""
    points = roll_write_points(game)
    return lambda state: softmax_values(points(state), 3.0)


def roll_write_points(game):
    """Roll & Write: the smoothed points of every seat (`_roll_write`'s material score, before the softmax)."""
    from virus_envs.agents.roll_write_heuristic import _SMOOTH
    sh = game.sheet
    bonus, wild = sh.speed_bonus, sh.wildcard_points

    def points(state):
        x = []
        for g, cu, w, vt, con in zip(state.grid, state.cure, state.wild, state.virus, state.contam):
            x.append(_SMOOTH[g[0].bit_count()] + _SMOOTH[g[1].bit_count()] + _SMOOTH[g[2].bit_count()]
                     + _SMOOTH[g[3].bit_count()] + bonus * cu.count(1) + wild * w - sum(vt)
                     - (con[1] + 2 * con[2] + 3 * con[3] + 4 * con[4] + 5 * con[5] + 6 * con[6]))
        return x
    return points


def _virus_co(game):
    """Virus & Co: the totals of the rounds played plus the round as it stands (`round_scores`, nobody in
    intensive care); winning margins of heuristic games are about 14."""
    return lambda state: softmax_values([t + r for t, r in zip(state.totals, state.round_scores(-1))], 6.0)


def _virus_lab(game):
    """Virus (co-operative): the team's progress (`agents.shaping.virus_lab_progress`: exit open, labs used,
    Clues, Antidote placed and carried; 0 to 4.5) mapped to -0.8 .. +0.8, below a real win (+1)."""
    from virus_envs.agents.shaping import virus_lab_progress

    def value(state):
        v = -0.8 + 1.6 * min(virus_lab_progress(state, 0), 4.5) / 4.5
        return [v] * state.n
    return value


def _scores(game):
    """Any other game: a softmax of `scores()` (co-operative: the scores clipped to [-1, 1])."""
    if getattr(game, "cooperative", False):
        return lambda state: [float(max(min(x, 1.0), -1.0)) for x in state.scores()]
    return lambda state: softmax_values([float(x) for x in state.scores()], 1.0)


_BY_GAME = {"virus_cards_v0": _virus_cards, "roll_write_v0": _roll_write, "virus_co_v0": _virus_co,
            "virus_lab_v0": _virus_lab}


def leaf_values(game):
    """The leaf evaluation of `game`: state -> list of per-seat values in [-1, 1]."""
    return _BY_GAME.get(game.env_id, _scores)(game)
