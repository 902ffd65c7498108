"""Playing games between agents: the loop every experiment shares."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from virus_envs.agents.base import Decision, SearchHandle


def play_game(game, agents, seed: int, record: bool = False):
    """Play one game with agents[i] in seat i; returns (final state, list of actions if record)."""
    state = game.new_initial_state(seed=seed)
    for i, ag in enumerate(agents):
        ag.reset(seed=(seed * 7919 + i) % (2**63))
    actions = [] if record else None
    while not state.is_terminal():
        p = state.current_player()
        ag = agents[p]
        mask = state.legal_action_mask()
        if ag.mask_only:
            d = Decision(p, "", {}, None, mask, game)
        else:
            d = Decision(p, state.phase(), state.view(p), state.observation(p) if ag.reads_observation else None, mask,
                         game, SearchHandle(state, p) if ag.needs_handle else None)
        a = ag.act(d)
        state.apply_action(a)
        if record:
            actions.append(int(a))
    return state, actions


def wilson(k: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval of a proportion k/n (k may be fractional for shared wins)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class MatchResult:
    """Outcome of agent A against the field over many games."""

    games: int
    wins: float          # ties shared: a k-way shared win counts 1/k
    by_seat: dict        # seat -> (games, wins)

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self):
        return wilson(self.wins, self.games)


def win_shares(returns, truncated: bool) -> list[float]:
    """Each seat's share of the win: 1 for a sole winner, 1/k each for k seats sharing the best return.

    Nobody wins a truncated game, nor one where every seat has the same non-positive return (a draw,
    or a co-operative loss); every seat shares a co-operative win (all returns equal and positive)."""
    r = [float(x) for x in returns]
    n = len(r)
    if truncated or not r:
        return [0.0] * n
    best = max(r)
    if best <= 0 and min(r) == best:
        return [0.0] * n
    k = sum(1 for x in r if x == best)
    return [1.0 / k if x == best else 0.0 for x in r]


def win_share(state, seat: int) -> float:
    """The share of the win of `seat` in a finished game (see win_shares)."""
    truncated = bool(getattr(state, "is_truncated", lambda: False)())
    return win_shares(state.returns(), truncated)[seat]


def head_to_head(game, spec_a: str, spec_b: str, games: int, seed: int = 0, progress=None) -> MatchResult:
    """spec_a in one seat against spec_b in every other seat, rotated through every seat equally.

    In a co-operative game a team of spec_a (every seat) plays each deal and the result is the team's
    win rate (spec_b is not at the table: compare it with its own call on the same seed)."""
    from virus_envs import agents as agents_mod

    n = game.num_players
    if getattr(game, "cooperative", False):
        rng = np.random.default_rng(seed)
        wins = 0.0
        for g in range(games):
            st, _ = play_game(game, [agents_mod.make(spec_a, game) for _ in range(n)], int(rng.integers(0, 2**62)))
            wins += float(win_shares(st.returns(), bool(getattr(st, "is_truncated", lambda: False)()))[0] > 0)
            if progress:
                progress(g + 1)
        return MatchResult(games, wins, {s: (games, wins) for s in range(n)})
    by_seat = {s: [0, 0.0] for s in range(n)}
    rng = np.random.default_rng(seed)
    total = 0.0
    for g in range(games):
        seat = g % n
        if seat == 0:  # a new deal, then replayed with A in each seat
            deal_seed = int(rng.integers(0, 2**62))
        line = [agents_mod.make(spec_b, game) for _ in range(n)]
        line[seat] = agents_mod.make(spec_a, game)
        st, _ = play_game(game, line, deal_seed)
        w = win_share(st, seat)
        by_seat[seat][0] += 1
        by_seat[seat][1] += w
        total += w
        if progress:
            progress(g + 1)
    return MatchResult(games, total, {s: tuple(v) for s, v in by_seat.items()})
