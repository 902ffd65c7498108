"""A Virus!: Roll & Write bot: greedy on (smoothed) points, with deliberate contamination as parameters.

It reads only `decision.view` (everything on the table is public), the mask, and the static
component tables of the game (the score sheet design: box values, row/column icons, laboratory
row advantages). Every die must end somewhere, and the contaminated samples card costs its value,
so a placement is scored by what it gains over contaminating that die: gain + value.

Smoothed points: research points interpolated between the scoring table's steps (0 / 5 / 10 / 12 at
0 / 4 / 8 / 11 boxes), a completed row or column = one extra cross-off, an open cure = its speed bonus,
a laboratory box = its advantage. A die alone on a double laboratory card counts the chance that
someone completes it against the chance that it ends contaminated.

Parameters (spec `heuristic?contaminate_below=3&save_wildcard=2&deny=1`):
- contaminate_below (int, 0 = never): a die showing less than this goes to the contaminated samples
  card rather than to a placement worth less than `low_gain` points ("the penalty is low");
- low_gain (float): see contaminate_below;
- save_wildcard (float): extra points a wildcard must win, on top of its 3 end-game points, before it is spent;
- deny (float): weight of a rival's gain when I would complete the laboratory card holding the rival's
  lone die (its laboratory box and the contamination it escapes): deny > 0 refuses cheap completions.
"""
from __future__ import annotations

from virus_envs.agents.base import ParamAgent
from virus_envs.roll_write.sheet import COLOURS, EXTRA_CROSS_OFF, WILDCARD

# research points, smoothed: the step table interpolated (0..12 boxes)
_SMOOTH = [0.0, 1.25, 2.5, 3.75, 5.0, 6.25, 7.5, 8.75, 10.0, 10.67, 11.33, 12.0, 12.0]
# chance of making a box value with one die (1-6) or a sum of two (2-12): rarer boxes suit extra cross-offs
_MAKE = [0, 1 / 6, 1 / 6 + 1 / 36, 1 / 6 + 2 / 36, 1 / 6 + 3 / 36, 1 / 6 + 4 / 36, 1 / 6 + 5 / 36,
         6 / 36, 5 / 36, 4 / 36, 3 / 36, 2 / 36, 1 / 36]
_EXTRA_VALUE = 1.6      # one extra cross-off (a box of one's choice)


class RollWriteHeuristic(ParamAgent):
    """Greedy one-decision lookahead on smoothed points; deliberate contamination by parameters."""

    reads_observation = False      # it reads the view and the mask only

    PARAMS = {"contaminate_below": 0, "low_gain": 1.0, "save_wildcard": 0.0, "deny": 0.0}
    VARIANTS = {
        "greedy": {},
        "cautious": {"contaminate_below": 3, "save_wildcard": 2.0},
        "spoiler": {"deny": 1.0},
    }

    def __init__(self, game, seed=None, variant=None, **params):
        """Parameters as in the module docstring; static values of the sheet's laboratory boxes."""
        super().__init__(game, seed=seed, variant=variant, **params)
        sh = game.sheet
        self.sheet = sh
        self.wild_value = sh.wildcard_points + 1.0          # its points plus its flexibility
        self.adv_value = [0.0] * 13
        for v in sh.lab_values:
            a = sh.lab_advantage[v]
            self.adv_value[v] = 0.4 + (_EXTRA_VALUE if a == EXTRA_CROSS_OFF else self.wild_value if a == WILDCARD else 0.0)

    # -- reading the view -------------------------------------------------------------------------
    def _read(self, view):
        """Grids and laboratory rows of every sheet of the view, as bitmasks."""
        sheets = view["sheets"]
        grids = []
        for sh in sheets:
            gs = []
            for c in COLOURS:
                m = 0
                for v in sh["grids"][c]:
                    m |= 1 << v
                gs.append(m)
            grids.append(gs)
        labs = []
        for sh in sheets:
            m = 0
            for v in sh["lab_row"]:
                m |= 1 << v
            labs.append(m)
        return grids, labs

    # -- values -------------------------------------------------------------------------------------
    def box_gain(self, grid, c, b, open_cure):
        """Smoothed points of crossing box b of colour c (with the extra cross-offs it triggers)."""
        sh = self.sheet
        g = grid[c]
        ng = g | (1 << b)
        k = g.bit_count()
        gain = _SMOOTH[k + 1] - _SMOOTH[k]
        for m, icon in sh.box_lines[c][b]:
            if ng & m == m and sh.full[icon] & ~grid[icon]:
                gain += _EXTRA_VALUE
            elif (ng & m).bit_count() == m.bit_count() - 1:
                gain += 0.25                                   # one box from a line
        if ng == sh.full[c] and open_cure[c]:
            gain += sh.speed_bonus
        elif open_cure[c] and k >= 8:
            gain += 0.4
        return gain

    def lab_gain(self, labrow, r):
        """Smoothed points of crossing laboratory box r (0 if not possible)."""
        return self.adv_value[r] if r and not labrow >> r & 1 and self.sheet.lab_full >> r & 1 else 0.0

    def extra_choice(self, grid, c, b, open_cure):
        """Value of an extra cross-off on box b: its gain, favouring boxes the dice rarely make."""
        return self.box_gain(grid, c, b, open_cure) + 1.5 * (0.2 - _MAKE[b])

    # -- the decision -------------------------------------------------------------------------------
    def act(self, decision) -> int:
        """The best legal action by smoothed points (see the module docstring)."""
        view = decision.view
        g = self.game
        me = decision.seat
        legal = [int(a) for a in decision.legal_actions]
        if len(legal) == 1:
            return legal[0]
        grids, labs = self._read(view)
        grid = grids[me]
        open_cure = [view["sheets"][me]["cures"][c] == "open" for c in COLOURS]
        if view["pending"] is not None:            # extra cross-off (a circle has one action)
            best, best_a = -1e9, legal[0]
            for a in legal:
                c, b = g.act_a[a], g.act_b[a]
                v = self.extra_choice(grid, c, b, open_cure)
                if v > best:
                    best, best_a = v, a
            return best_a
        P = self.params
        wild_cost = self.wild_value + P["save_wildcard"]
        best, best_a = -1e9, legal[0]
        for a in legal:
            if g.act_kind[a] != 0:
                continue
            v, t = g.act_a[a], g.act_b[a]
            gain = self.place_gain(view, me, grids, labs, open_cure, v, t)
            rel = gain + v                                       # over the baseline: contaminate it
            if t != g.T_CONTAM and P["contaminate_below"] and v < P["contaminate_below"] and gain < P["low_gain"]:
                rel = -1e6                                       # deliberate contamination instead
            if rel > best:
                best, best_a = rel, a
        if view["changed_die"] == 0 and view["sheets"][me]["wildcards"] > 0:
            top_of = {}          # best placement of a die changed to y: the same for every x
            for a in legal:
                if g.act_kind[a] != 1:
                    continue
                x, y = g.act_a[a], g.act_b[a]
                top = top_of.get(y)
                if top is None:
                    top = -1e9
                    # a changed die may go to the contaminated samples card unless the config says not
                    for t in range(g.T if g.wild_then_contaminate else g.T_CONTAM):
                        gain = self.place_gain(view, me, grids, labs, open_cure, y, t, check=True)
                        if gain is not None and gain > top:
                            top = gain
                    top_of[y] = top
                rel = top + x - wild_cost
                if rel > best + 1e-9:
                    best, best_a = rel, a
        return best_a

    def place_gain(self, view, me, grids, labs, open_cure, v, t, check=False):
        """Smoothed points of placing my die v on target t (None if illegal, when check)."""
        g = self.game
        grid, labrow = grids[me], labs[me]
        sh = self.sheet
        if t == g.T_CONTAM:
            return -float(v)
        if t < 4:
            c = COLOURS[t]
            (a, _), (b, _) = view["trial_cards"][c]
            if b:
                return None if check else 0.0
            box = v if a == 0 else a + v
            if check and (box > 12 or not (sh.full[t] & ~grid[t]) >> box & 1):
                return None
            return self.box_gain(grid, t, box, open_cure)
        j = t - 4
        k, side = divmod(j, g.slots)
        card = g.lab_cards[k]
        slots = view["lab_cards"][k]["slots"]
        if slots[side][0]:
            return None if check else 0.0
        prio = 0.3 if not view["priority_taken"] else 0.0
        if g.slots == 1:
            r = card.result[v]
            if check and (not r or labrow >> r & 1):
                return None
            return self.lab_gain(labrow, r) + prio
        ov, owner = slots[1 - side]
        if ov:
            r = card.result[v][ov] if side == 0 else card.result[ov][v]
            if check and (not r or labrow >> r & 1):
                return None
            gain = self.lab_gain(labrow, r) + prio
            if owner != me and self.params["deny"]:
                rival = (self.lab_gain(labs[owner], r) if not labs[owner] >> r & 1 else 0.0) + ov
                gain -= self.params["deny"] * rival
            return gain
        # first die: will anyone (still to play this round) complete it?
        results = []
        for q, shq in enumerate(view["sheets"]):
            for w in sorted(set(shq["reserve"])):
                if q == me and w == v and shq["reserve"].count(v) < 2:
                    continue
                r = card.result[v][w] if side == 0 else card.result[w][v]
                if r and not labs[q] >> r & 1:
                    results.append(r)
        if not results:
            return -0.8 * v + prio
        # added left to right on purpose: sum() of floats is compensated from Python 3.12 on, and the batched
        # heuristic (roll_write/batched_heuristic.py) must take the very same decisions on any Python
        tot = 0.0
        for r in results:
            tot += self.lab_gain(labrow, r)
        exp = tot / len(results)
        return 0.6 * exp - 0.4 * v + prio


# -- the contamination study's policy family (spec `contam?...`) ---------------------------------
WHEN = ("all", "early", "late", "last")


def round_active(when: str, rnd: int, rounds: int) -> bool:
    """Is round `rnd` (1-based) of `rounds` inside the window `when`?

    early = the first half (rounds 1..R//2), late = the rest, last = the final round only."""
    if when == "all":
        return True
    if when == "early":
        return rnd <= rounds // 2
    if when == "late":
        return rnd > rounds // 2
    if when == "last":
        return rnd == rounds
    raise ValueError(f"contamination policy parameter 'when' must be one of {list(WHEN)}, got {when!r}")


class ContaminationPolicy(RollWriteHeuristic):
    """The roll_write heuristic whose deliberate contamination (`contaminate_below`, `low_gain`)
    applies only inside a round window and a wildcard-stock window.

    Extra parameters (spec `contam?contaminate_below=3&when=late&wild_max=0`):
    - when: all | early | late | last (see `round_active`);
    - wild_min: contaminate on purpose only while holding at least this many circled wildcards;
    - wild_max: ... and at most this many (-1 = no upper bound).
    Outside the windows it plays exactly as the heuristic with contaminate_below=0.
    """

    GAMES = ("roll_write_v0",)
    PARAMS = {**RollWriteHeuristic.PARAMS, "when": "all", "wild_min": 0, "wild_max": -1}
    VARIANTS = {}

    def __init__(self, game, seed=None, variant=None, **params):
        super().__init__(game, seed=seed, variant=variant, **params)
        P = self.params
        if P["when"] not in WHEN:
            raise ValueError(f"contamination policy parameter 'when' must be one of {list(WHEN)}, got {P['when']!r}")
        for k in ("wild_min", "wild_max", "contaminate_below"):
            if isinstance(P[k], bool) or not isinstance(P[k], int):
                raise ValueError(f"contamination policy parameter {k!r} must be an int, got {P[k]!r}")

    def active(self, view, seat) -> bool:
        """Does the deliberate-contamination rule apply in this position?"""
        P = self.params
        if not round_active(P["when"], view["round"], view["rounds"]):
            return False
        w = view["sheets"][seat]["wildcards"]
        return w >= P["wild_min"] and (P["wild_max"] < 0 or w <= P["wild_max"])

    def act(self, decision) -> int:
        P = self.params
        if P["contaminate_below"] and not self.active(decision.view, decision.seat):
            saved = P["contaminate_below"]
            P["contaminate_below"] = 0
            try:
                return super().act(decision)
            finally:
                P["contaminate_below"] = saved
        return super().act(decision)
