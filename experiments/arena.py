"""Playing games between agents: the loop every experiment shares."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from virus_envs.agents.base import Decision, Forfeit, SearchHandle


def play_game(game, agents, seed: int, record: bool = False):
    """Play one game with agents[i] in seat i; returns (final state, list of actions if record).

    An agent that forfeits (`Forfeit`, an outside bot's fault) ends the game: the exception goes on up with
    `seat`, `decision` (actions played so far), `state` and `actions` filled in; `play_match` scores it."""
    state = game.new_initial_state(seed=seed)
    for i, ag in enumerate(agents):
        ag.reset(seed=(seed * 7919 + i) % (2**63))
    return play_from(state, agents, record)


def play_from(state, agents, record: bool = False, before_each=None):
    """Play `state` to its end in place with agents[i] in seat i (agents already reset); returns
    (state, actions if record). `before_each(state)` is called before every decision (a study's probe)."""
    game = state.game
    actions = [] if record else None
    k = 0
    while not state.is_terminal():
        if before_each is not None:
            before_each(state)
        p = state.current_player()
        ag = agents[p]
        mask = state.legal_action_mask()
        if ag.mask_only:
            d = Decision(p, "", {}, None, mask, game)
        else:
            d = Decision(p, state.phase(), state.view(p), state.observation(p) if ag.reads_observation else None, mask,
                         game,
                         SearchHandle(state, p) if ag.needs_handle else None)
        try:
            a = ag.act(d)
        except Forfeit as f:
            f.seat, f.decision, f.state, f.actions = p, k, state, actions
            raise
        state.apply_action(a)
        k += 1
        if record:
            actions.append(int(a))
    return state, actions


def forfeit_returns(game, seat: int, sides=None) -> list[float]:
    """The returns of a game that `seat` forfeited, in the games' own convention (a loss is -1, k seats sharing
    a win get 1/k each): the forfeiting seat -1 and every other seat 1/(n-1), the other seats sharing the win;
    in a co-operative game the team loses, -1 for every seat. In a game of sides (`sides`, from
    `State.sides()`), the forfeiting seat's side loses (-1 for each of its seats) and every other seat wins (+1)."""
    n = game.num_players
    if sides is not None:
        return [-1.0 if sides[i] == sides[seat] else 1.0 for i in range(n)]
    if getattr(game, "cooperative", False) or n == 1:
        return [-1.0] * n
    out = [1.0 / (n - 1)] * n
    out[seat] = -1.0
    return out


@dataclass
class Outcome:
    """A game played by `play_match`: the final state (where a forfeit cut it), the actions (if recorded), the
    returns, scores and truncation that count, and the forfeit (None, or seat, kind, reason, decision)."""

    state: object
    actions: list | None
    returns: list
    scores: list
    truncated: bool
    forfeit: dict | None = None
    sides: list | None = None       # State.sides() at the end: a game of sides credits each seat's side


def play_match(game, agents, seed: int, record: bool = False) -> Outcome:
    """`play_game`, where a forfeit ends the game as a loss of the seat at fault (`forfeit_returns`); every
    agent is then told the end (`Agent.game_over`), so an outside bot hears the result and a faulty one
    starts afresh next game. The scores of a forfeited game are the points at the cut."""
    try:
        state, actions = play_game(game, agents, seed, record=record)
        out = Outcome(state, actions, [float(x) for x in state.returns()], [float(x) for x in state.scores()],
                      bool(getattr(state, "is_truncated", lambda: False)()), sides=state.sides())
    except Forfeit as f:
        ff = {"seat": int(f.seat), "kind": f.kind, "reason": f.reason, "decision": int(f.decision)}
        sides = f.state.sides()
        out = Outcome(f.state, f.actions, forfeit_returns(game, f.seat, sides), [float(x) for x in f.state.scores()],
                      False, ff, sides)
    for i, ag in enumerate(agents):
        ag.game_over(i, out.returns, out.scores, out.truncated, out.forfeit)
    return out


def wilson(k: float, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """95% Wilson score interval of a proportion k/n (statsmodels' `proportion_confint`); k may be
    fractional (shared wins count 1/k each); (0, 1) when there is no game."""
    if n <= 0:
        return (0.0, 1.0)
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(k, n, alpha=alpha, method="wilson")
    return (max(0.0, float(lo)), min(1.0, float(hi)))


@dataclass
class MatchResult:
    """Outcome of agent A against the field over many games."""

    games: int
    wins: float          # ties shared: a k-way shared win counts 1/k
    by_seat: dict        # seat -> (games, wins)
    rest_by_seat: dict = field(default_factory=dict)   # seat of A -> (games, the other seats' wins together)

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self):
        return wilson(self.wins, self.games)


def win_shares(returns, truncated: bool, sides=None) -> list[float]:
    """Each seat's share of the win: 1 for a sole winner, 1/k each for k seats sharing the best return.

    Nobody wins a truncated game, nor one where every seat has the same non-positive return (a draw,
    or a co-operative loss); every seat shares a co-operative win (all returns equal and positive).
    A game of sides (`sides` is `State.sides()`, not None): every seat with a positive return won with its
    side and counts a whole win (a side's win is not split among its seats)."""
    r = [float(x) for x in returns]
    n = len(r)
    if truncated or not r:
        return [0.0] * n
    if sides is not None:
        return [1.0 if x > 0 else 0.0 for x in r]
    best = max(r)
    if best <= 0 and min(r) == best:
        return [0.0] * n
    k = sum(1 for x in r if x == best)
    return [1.0 / k if x == best else 0.0 for x in r]


def win_share(state, seat: int) -> float:
    """The share of the win of `seat` in a finished game (see win_shares)."""
    truncated = bool(getattr(state, "is_truncated", lambda: False)())
    return win_shares(state.returns(), truncated, state.sides())[seat]


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
            o = play_match(game, [agents_mod.make(spec_a, game) for _ in range(n)], int(rng.integers(0, 2**62)))
            wins += float(win_shares(o.returns, o.truncated)[0] > 0)
            if progress:
                progress(g + 1)
        return MatchResult(games, wins, {s: (games, wins) for s in range(n)})
    by_seat = {s: [0, 0.0] for s in range(n)}
    rest = {s: [0, 0.0] for s in range(n)}
    rng = np.random.default_rng(seed)
    total = 0.0
    for g in range(games):
        seat = g % n
        if seat == 0:  # a new deal, then replayed with A in each seat
            deal_seed = int(rng.integers(0, 2**62))
        line = [agents_mod.make(spec_b, game) for _ in range(n)]
        line[seat] = agents_mod.make(spec_a, game)
        o = play_match(game, line, deal_seed)
        shares = win_shares(o.returns, o.truncated, o.sides)
        w = shares[seat]
        by_seat[seat][0] += 1
        by_seat[seat][1] += w
        rest[seat][0] += 1
        rest[seat][1] += sum(shares) - w
        total += w
        if progress:
            progress(g + 1)
    return MatchResult(games, total, {s: tuple(v) for s, v in by_seat.items()}, {s: tuple(v) for s, v in rest.items()})


def mixed_team(game, spec_a: str, spec_b: str, games: int, seed: int = 0, progress=None):
    """A co-operative game: spec_a in one seat, spec_b partners in the others, seats rotated on each deal;
    a MatchResult of the team's wins (by the seat spec_a sat in)."""
    from virus_envs import agents as agents_mod

    n = game.num_players
    rng = np.random.default_rng(seed)
    by_seat, total = {s: [0, 0.0] for s in range(n)}, 0.0
    for g in range(games):
        seat = g % n
        if seat == 0:
            deal = int(rng.integers(0, 2**62))
        line = [agents_mod.make(spec_b, game) for _ in range(n)]
        line[seat] = agents_mod.make(spec_a, game)
        o = play_match(game, line, deal)
        won = float(max(win_shares(o.returns, o.truncated)) > 0)
        by_seat[seat][0] += 1
        by_seat[seat][1] += won
        total += won
        if progress:
            progress(g + 1)
    return MatchResult(games, total, {s: tuple(v) for s, v in by_seat.items()})
