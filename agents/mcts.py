"""The search loop shared by the search agents: UCT over sampled worlds, availability counts, cut-off playouts.

One call of `search` runs iterations until its budget is spent. Each iteration takes a fresh world
from `sample_world()` (a determinization for IS-MCTS, a copy of one fixed world for PIMC), walks
down the tree with UCT, adds one edge, plays out (see `agents/playouts.py`) and backs the result
up. Values are per seat (`returns()` at the end of the game, `agents/leaf_values.py` at a
playout's cut-off): each edge is scored with the return of the seat that chose it, so every seat
maximises its own return, and in a co-operative game (equal returns) the team's.

Tree keys (`tree=`):
- `infoset`: a node is an information set of the *observer* (the deciding seat at the root):
  the observer's observation, the seat to act and the number of decisions since the root. All the
  worlds of an iteration agree on it, so statistics are shared exactly where the observer could
  not tell the worlds apart (Cowling, Powley & Whitehouse's single-observer IS-MCTS). A chance
  outcome or an opponent's action the observer sees leads to another node.
- `history`: a node is the sequence of actions since the root (open loop). It merges chance
  outcomes and hidden draws into one node; it equals `infoset` only while every action is public
  and nothing random happens (within a round of Roll & Write). Cheaper: no observation per step.

Availability (Cowling et al., section 5.2): an action of an opponent's node is legal in some worlds
only; its UCB term uses the number of visits in which it was legal, not the parent's visits.
"""
from __future__ import annotations

import math
import time

__all__ = ["Node", "SearchResult", "search"]


class Node:
    """One tree node: per action [visits, value sum, availability], and children (history mode)."""

    __slots__ = ("stats", "children", "hint")

    def __init__(self):
        self.stats = {}
        self.children = None
        self.hint = None            # the prior's action here (-1: none), asked once per node


class SearchResult:
    """What a search leaves behind: the root's statistics, the iterations run and the seconds spent."""

    def __init__(self, root: Node, iterations: int, seconds: float, nodes: int):
        self.root = root
        self.iterations = iterations
        self.seconds = seconds
        self.nodes = nodes

    def visits(self) -> dict:
        """Root action -> visits."""
        return {a: st[0] for a, st in self.root.stats.items()}

    def values(self) -> dict:
        """Root action -> mean value for the observer."""
        return {a: (st[1] / st[0] if st[0] else 0.0) for a, st in self.root.stats.items()}

    def visit_shares(self, legal) -> dict:
        """Legal root action -> its share of the root's visits (sums to 1; uniform if nothing was visited):
        the search's policy, AlphaZero's training target. Actions outside `legal` are left out."""
        stats = self.root.stats
        counts = {int(a): (stats[a][0] if a in stats else 0) for a in legal}
        total = sum(counts.values())
        if total == 0:
            return {a: 1.0 / len(counts) for a in counts}
        return {a: n / total for a, n in counts.items()}

    def best(self, legal) -> int:
        """Most visits among the legal root actions; ties by mean value, then the lowest id."""
        stats = self.root.stats
        best, key = None, None
        for a in legal:
            st = stats.get(a)
            k = (st[0], st[1] / st[0]) if st and st[0] else (0, -math.inf)
            if key is None or k > key:
                best, key = a, k
        return int(best)


def _legal(state) -> list:
    m = state.legal_action_mask()
    return m.nonzero()[0].tolist()


def search(sample_world, observer: int, playout, c: float, rnd, iters: int | None = None,
           seconds: float | None = None, tree: str = "infoset", hint=None, bias: float = 0.0) -> SearchResult:
    """Run UCT iterations over worlds from `sample_world()` until `iters` iterations or `seconds` are spent.

    `playout(state, rnd) -> per-seat values` finishes an iteration from the new leaf; `rnd` is a
    `random.Random` (every random choice of the search comes from it: same seed, same result).
    `hint(state, rnd) -> action or -1` (optional) names a preferred action at a node, asked the first
    time the node is reached: it is tried first and gets the progressive bias `bias / (visits + 1)`
    in its UCB value (Chaslot et al. 2008)."""
    if iters is None and seconds is None:
        raise ValueError("search needs a budget: iters or seconds")
    root = Node()
    table = {}                  # infoset key -> Node (infoset mode)
    by_key = tree == "infoset"
    log, sqrt = math.log, math.sqrt
    t0 = time.perf_counter()
    deadline = t0 + seconds if seconds is not None else math.inf
    limit = iters if iters is not None else 1 << 62
    it = 0
    while it < limit and (it == 0 or time.perf_counter() < deadline):
        it += 1
        s = sample_world()
        node = root
        path = []
        depth = 0
        if s.is_terminal():
            return SearchResult(root, 0, time.perf_counter() - t0, 1)
        legal = _legal(s)
        while True:
            p = s.current_player()
            stats = node.stats
            if len(legal) == 1:                 # history mode: a forced move is still a step of the path
                a = legal[0]
                st = stats.get(a)
                if st is None:
                    st = stats[a] = [0, 0.0, 0]
                st[2] += 1
                new = False
            else:
                h = -1
                if hint is not None:
                    h = node.hint
                    if h is None:
                        h = node.hint = hint(s, rnd)
                untried = []
                for a in legal:
                    st = stats.get(a)
                    if st is None:
                        untried.append(a)
                    else:
                        st[2] += 1
                if untried:
                    if h in untried:
                        a = h
                    else:
                        a = untried[rnd.randrange(len(untried))] if len(untried) > 1 else untried[0]
                    st = stats[a] = [0, 0.0, 1]
                    new = True
                else:
                    best = -math.inf
                    for b in legal:
                        sb = stats[b]
                        u = sb[1] / sb[0] + c * sqrt(log(sb[2]) / sb[0])
                        if b == h:
                            u += bias / (sb[0] + 1)
                        if u > best:
                            best, a, st = u, b, sb
                    new = False
            s.apply_action(a)
            depth += 1
            path.append((st, p))
            if s.is_terminal():
                values = s.returns().tolist()
                break
            if new:
                values = playout(s, rnd)
                break
            legal = _legal(s)
            if by_key:
                while len(legal) == 1:          # forced moves: nothing to learn, no node (and no observation)
                    s.apply_action(legal[0])
                    depth += 1
                    if s.is_terminal():
                        break
                    legal = _legal(s)
                if s.is_terminal():
                    values = s.returns().tolist()
                    break
                key = (depth, s.current_player(), s.observation(observer).tobytes())
                nxt = table.get(key)
                if nxt is None:
                    nxt = table[key] = Node()
            else:
                ch = node.children
                if ch is None:
                    ch = node.children = {}
                nxt = ch.get(a)
                if nxt is None:
                    nxt = ch[a] = Node()
            node = nxt
        for st, p in path:
            st[0] += 1
            st[1] += values[p]
    return SearchResult(root, it, time.perf_counter() - t0, len(table) + 1 if by_key else None)
