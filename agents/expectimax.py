"""`expectimax`: depth-limited expectimax for Roll & Write, where only the dice to come are hidden.

    expectimax?depth=1|2|3&leaf=heuristic|value&opp=heuristic|greedy|cautious|spoiler|robust|mix&goal=win|points&seed=K

Recommended at 4 players: `expectimax?opp=robust` (docs/agents/strength.md: the default `opp=heuristic` trusts one model
of its rivals, and three `heuristic:spoiler` rivals exploit it).

Everything on a Roll & Write table is public; within a round nothing random happens, and a round
ends with everyone rolling all their dice. So the search is a tree of three kinds of node, over a
world drawn from `decision.handle.determinize` (the agent never sees the true state):

- **max**: a decision of the deciding seat (the observer), `depth` of them on every line: each legal
  action is tried, the best expected value is kept;
- **the others' replies**: the decision of another seat is one move of the opponent model
  (`opp=heuristic`: the game's heuristic, given that seat's own Decision in the world; `opp=greedy`:
  the search's own evaluation, the move that maximises that seat's leaf value after it; `opp=cautious` or
  `opp=spoiler`: that variant of the heuristic, for an opponent known to play it: the default model is
  exploited by opponents it does not predict, docs/agents/strength.md); `opp=robust`: the agent cannot know which
  variant its rivals play, so each move is searched under each of the three (plain, cautious, spoiler;
  the same world and dice) and is worth the worst of its three values; `opp=mix`: their mean;
- **chance**: the roll at a round's end, when another of the observer's decisions follows it: every
  outcome of the observer's own dice (as a multiset: 56 for 3 dice, 462 for 6) weighted by its
  probability; the other seats' dice are one draw per decision from the agent's generator, the same
  for every action compared (common random numbers). Their full enumeration (6^9 outcomes for the
  other three seats at 4 players) is out of reach, and they only reach the observer's value through
  the others' replies.

After the observer's last decision on a line, the others reply until the observer would decide
again or the round ends, and the position is scored (`leaf`):
- `value`: the leaf evaluation of the search agents (`agents/leaf_values.py`: smoothed points, a
  softmax over seats turned into the expected winner-takes-all return, 2 P - 1);
- `heuristic`: every seat plays the heuristic to the end of the round in play (the observer the plain
  heuristic, the others the model's variant with `opp=cautious|spoiler`; no chance until then), then the
  same evaluation. The game's last round ends the game:
  `returns()`.
`goal=win` (the default) scores a leaf as above, the observer's winner-takes-all return; `goal=points`
scores it by the observer's own points alone (smoothed, `leaf_values.roll_write_points`; at the game's end
its final score), which never trades its own points for a rival's loss.

The move with the highest value is played (ties: the lowest action id). Deterministic under its seed:
every random choice (the world's generator, the others' dice) comes from the agent's Generator, which
the runners reseed per game. Cost per decision (CPU, 4 players; docs/agents/search.md): depth 1 with the
heuristic leaf 0.05 s on average, at most 0.2 s; depth 2, at a round's last die (56 rolls, each followed
by a whole decision), 3-13 s; `opp=robust|mix` three times depth 1's (0.12-0.16 s, at most 0.7 s).
"""
from __future__ import annotations

from itertools import combinations_with_replacement
from math import factorial

from virus_envs.agents.base import ParamAgent
from virus_envs.agents.leaf_values import leaf_values, roll_write_points
from virus_envs.agents.playouts import seat_decision
from virus_envs.core.chance import ChanceTape
from virus_envs.core.seeding import lazy_rng

__all__ = ["ExpectimaxAgent", "roll_outcomes"]

#: the models of the other seats' replies (opp=): the heuristic, the search's greedy move, a heuristic variant,
#: or every variant of the heuristic at once (robust: the worst of them for each move; mix: their mean)
_OPP = ("heuristic", "greedy", "cautious", "spoiler", "robust", "mix")
#: the heuristic's variants that `robust` and `mix` take (`heuristic:greedy` is the plain heuristic)
_VARIANTS = ("heuristic", "cautious", "spoiler")
#: what a leaf is worth to the observer (goal=): win (the winner-takes-all return), points (its own points)
_GOALS = ("win", "points")


def roll_outcomes(dice: int) -> list:
    """Every multiset of `dice` six-sided dice with its probability (multinomial), in lexicographic order."""
    out = []
    for combo in combinations_with_replacement(range(1, 7), dice):
        ways = factorial(dice)
        for v in set(combo):
            ways //= factorial(combo.count(v))
        out.append((combo, ways / 6 ** dice))
    return out


class ExpectimaxAgent(ParamAgent):
    """Max over the observer's decisions, the opponent model's replies, the observer's next roll enumerated."""

    GAMES = ("roll_write_v0",)
    needs_handle = True
    reads_observation = False
    PARAMS = {"depth": 1, "leaf": "heuristic", "opp": "heuristic", "goal": "win"}

    def __init__(self, game, seed: int | None = None, variant: str | None = None, **params):
        if variant is not None:
            raise ValueError(f"expectimax has no variants (got {variant!r}); use parameters, e.g. expectimax?depth=2")
        super().__init__(game, seed=seed, **params)
        p = self.params
        if isinstance(p["depth"], bool) or not isinstance(p["depth"], int) or not 1 <= p["depth"] <= 3:
            raise ValueError(f"expectimax: parameter 'depth' must be 1, 2 or 3, got {p['depth']!r}")
        if p["leaf"] not in ("heuristic", "value"):
            raise ValueError(f"expectimax: parameter 'leaf' must be 'heuristic' or 'value', got {p['leaf']!r}")
        if p["opp"] not in _OPP:
            raise ValueError(f"expectimax: parameter 'opp' must be one of {', '.join(_OPP)}, got {p['opp']!r}")
        if p["goal"] not in _GOALS:
            raise ValueError(f"expectimax: parameter 'goal' must be one of {', '.join(_GOALS)}, got {p['goal']!r}")
        from virus_envs import agents
        self.policy = agents.make("heuristic", game)
        # the others' models: the plain heuristic (the same agent), the variant named by opp, or all of them
        names = _VARIANTS if p["opp"] in ("robust", "mix") else ("heuristic",) if p["opp"] == "greedy" else (p["opp"],)
        self.models = [self.policy if x == "heuristic" else agents.make(f"heuristic:{x}", game) for x in names]
        self.opp_policy = self.models[0]
        self.value = leaf_values(game)
        self.points = roll_write_points(game)
        self.outcomes = roll_outcomes(game.dice)
        self.last = None            # the last decision: {action: value}, for tests and studies

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.policy.reset(seed=None if seed is None else int(seed) + 1)
        for i, m in enumerate(self.models):
            if m is not self.policy:
                m.reset(seed=None if seed is None else int(seed) + 2 + i)

    # -- the moves of the model ----------------------------------------------------------------------
    def _heuristic(self, s) -> int:
        """The heuristic's move at s: the observer's own (plain), another seat's the model's variant."""
        policy = self.policy if s.current_player() == self.observer else self.opp_policy
        return int(policy.act(seat_decision(s, self.game, False)))

    def _greedy(self, s) -> int:
        """The move that maximises the acting seat's own leaf value one decision ahead (ties: lowest id)."""
        q = s.current_player()
        best, best_a = None, None
        for a in s.legal_action_mask().nonzero()[0].tolist():
            c = s.clone()
            c._set_rng(lazy_rng(self._seed))
            c.apply_action(a)
            v = c.returns()[q] if c.is_terminal() else self.value(c)[q]
            if best is None or v > best:
                best, best_a = v, a
        return best_a

    def _step(self, s, a):
        """A copy of s after action a; a roll it triggers draws from a generator seeded from this decision."""
        c = s.clone()
        c._set_rng(lazy_rng(self._seed))
        c.apply_action(a)
        return c

    # -- the tree ----------------------------------------------------------------------------------------
    def _leaf(self, s, r0: int) -> float:
        """The observer's value of s; `leaf=heuristic` first plays round r0 out if it is still on."""
        o = self.observer
        if not s.is_terminal() and s.rnd == r0 and self.params["leaf"] == "heuristic":
            s = s.clone()
            s._set_rng(lazy_rng(self._seed))
            while not s.is_terminal() and s.rnd == r0:
                s.apply_action(self._heuristic(s))
        if self.params["goal"] == "points":
            return float(s.scores()[o]) if s.is_terminal() else self.points(s)[o]
        if s.is_terminal():
            return float(s.returns()[o])
        return self.value(s)[o]

    def _rolled(self, before, after) -> bool:
        return after.rnd != before.rnd and not after.is_terminal()

    def _after(self, s, d: int, r0: int) -> float:
        """Value of s, reached by an observer's move made in round r0, with d more observer decisions:
        the others reply (the model) until the observer decides again; with d = 0, or once the round ends."""
        o = self.observer
        while not s.is_terminal() and s.current_player() != o and (d > 0 or s.rnd == r0):
            a = self._model(s)
            c = self._step(s, a)
            if d > 0 and self._rolled(s, c):
                return self._chance(s, a, d)
            s = c
        if s.is_terminal() or d == 0:
            return self._leaf(s, r0)
        return self._max(s, d)[0]

    def _max(self, s, d: int):
        """(best value, {action: value}) of the observer's decision at s, d >= 1 decisions to go."""
        vals = {}
        for a in s.legal_action_mask().nonzero()[0].tolist():
            c = self._step(s, a)
            if d > 1 and self._rolled(s, c):
                vals[a] = self._chance(s, a, d - 1)
            else:
                vals[a] = self._after(c, d - 1, s.rnd)
        return max(vals.values()), vals

    def _chance(self, s, a, d: int) -> float:
        """Action a ends the round: the expectation over the observer's next roll of the rest (d decisions)."""
        o, n = self.observer, self.game.num_players
        total = 0.0
        for combo, prob in self.outcomes:
            tape = []
            for q in range(n):
                tape.extend(v - 1 for v in (combo if q == o else self.others[q]))
            c = s.clone()
            c._set_rng(ChanceTape(tape))
            c.apply_action(a)
            c._set_rng(lazy_rng(self._seed))
            total += prob * self._after(c, d, c.rnd)
        return total

    # -- the decision --------------------------------------------------------------------------------------
    def act(self, decision) -> int:
        legal = decision.legal_actions.tolist()
        if len(legal) == 1:
            return int(legal[0])
        if decision.handle is None:
            raise ValueError("expectimax needs the decision's search handle (runners give it to agents with needs_handle)")
        rng = self.rng
        world = decision.handle.determinize(rng)
        self.observer = decision.seat
        self._seed = int(rng.integers(0, 2**62))
        self.others = rng.integers(1, 7, size=(self.game.num_players, self.game.dice)).tolist()
        self._model = self._greedy if self.params["opp"] == "greedy" else self._heuristic
        vals = None
        for m in self.models:              # one tree per model of the others, on the same world and dice
            self.opp_policy = m
            _, v = self._max(world, self.params["depth"])
            vals = [v] if vals is None else vals + [v]
        combine = min if self.params["opp"] == "robust" else lambda xs: sum(xs) / len(xs)
        vals = {a: combine([v[a] for v in vals]) for a in vals[0]}
        self.last = vals
        best = max(vals.values())
        return int(min(a for a, v in vals.items() if v == best))
