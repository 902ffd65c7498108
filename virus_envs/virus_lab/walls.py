"""Walls System expansion (config `walls=True`): Barriers and their bars as separate pieces.

"It contains 8 Breaches, 4 Doors, 12 Walls, and 4 Barriers+12 bars. The first two components are used as normal
tiles, while walls are placed during the Slow phase wherever two adjacent room cards show 2 walls on the same
side. Walls help players to quickly understand the room situation. The Barrier are used like the respective
tiles, but players simply add Bars to their Barrier to improve their strength. Bars are separated elements, so
simply players can buy an additional bar (3 resource/bar) when required. On the Setup place 1 Barrier and 3 bars
in the game reserve for each Hero in the game."

- The 3D Walls only show what the room cards already show (two walls side by side): no rules effect, nothing
  to implement. The 3D Breaches and Doors are "used as normal tiles": the base rules.
- The state keeps the base game's fields with this meaning: in `bar_pool` and each `t_bar[p]`, slot 0 counts
  Barriers (the base, "empty": value 0) and slot 1 counts loose bars (slots 2 and 3 stay 0); on the map
  `barrier[e]` is still 1 + the number of bars (the value is 2 per bar, `creatures.border_holds`).
- Placing (`barrier <side> x <k>`, 1 Action cube, "used like the respective tiles"): on an empty doorway a
  Barrier and k - 1 bars; on a Barrier already there, k more bars; at most 3 bars on a Barrier (4 Barriers
  + 12 bars). Removing or destroying one returns the Barrier and its bars to the reserve.
- Buying: "Barrier (empty)" takes a Barrier from the reserve (3 resources); "Barrier Bar" takes one bar (3
  resources) "when required": ASSUMPTION, for a Barrier of the player's stock with room for it (his loose
  bars fewer than 3 per Barrier he holds).
- Exchanges: `give barrier 0` gives a Barrier, `give barrier 1` a bar.
"""
from __future__ import annotations

BASE, BAR = 0, 1
MAX_BARS = 3


def supply(n):
    """ "On the Setup place 1 Barrier and 3 bars in the game reserve for each Hero in the game." """
    return [n, MAX_BARS * n, 0, 0]


def return_barrier(s, e):
    """The Barrier on border e goes back to the game reserve (removed by a Hero or destroyed by Creatures)."""
    h = s.barrier[e]
    if s.g.walls:
        s.bar_pool[BASE] += 1
        s.bar_pool[BAR] += h - 1
    else:
        for t in range(h):                  # the stacked tiles, 0 bar .. h - 1 bars
            s.bar_pool[t] += 1
    s.barrier[e] = 0


def placeable(s, p, e):
    """The k of `barrier <side> x <k>` legal on border e (a doorway without Breach or Door)."""
    h = s.barrier[e]
    st = s.t_bar[p]
    if h == 0:
        return range(1, min(st[BAR], MAX_BARS) + 2) if st[BASE] > 0 else range(0)
    return range(1, min(st[BAR], MAX_BARS + 1 - h) + 1)


def place(s, p, e, k):
    h = s.barrier[e]
    if h == 0:
        s.t_bar[p][BASE] -= 1
        s.t_bar[p][BAR] -= k - 1
    else:
        s.t_bar[p][BAR] -= k
    s.barrier[e] = h + k


def can_buy_bar(s, p):
    st = s.t_bar[p]
    return s.bar_pool[BAR] > 0 and st[BAR] < MAX_BARS * st[BASE]


def buy_bar(s, p):
    s.t_bar[p][BAR] += 1
    s.bar_pool[BAR] -= 1


def stock_features(s, q):
    """Observation columns of a Hero's Barrier stock (4, in [0, 1])."""
    st = s.t_bar[q]
    if s.g.walls:
        return (st[BASE] / 4, st[BAR] / 12, 0.0, 0.0)
    return tuple(x / 4 for x in st)


def check(env, n, bar_pool, t_bar, barrier, fail):
    """Loader check: Barriers and bars conserved (reserve + stocks + map)."""
    bases = bar_pool[BASE] + sum(t[BASE] for t in t_bar) + sum(1 for x in barrier if x)
    bars = bar_pool[BAR] + sum(t[BAR] for t in t_bar) + sum(x - 1 for x in barrier if x)
    want = supply(n)
    if bases != want[BASE] or bars != want[BAR] or any(bar_pool[2:]) or any(t[2] or t[3] for t in t_bar):
        raise fail(env, "bar_pool", f"Walls System: {want[BASE]} Barriers and {want[BAR]} bars over reserve + "
                                    f"stocks + map, got {bases} and {bars}")
