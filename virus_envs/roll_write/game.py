"""Virus!: Roll & Write (Tranjis): roll dice, place them on shared cards, cross off boxes. Rules engine.

| | |
|---|---|
| players | 2-4; seats in clockwise turn order; seat `first_player` (the youngest) holds priority access at the start |
| dice | 6 per player with 2 players, else 3 (`dice_per_player` in data/sheet.yaml); rolled once per round |
| rounds | 5 / 7 / 8 for 2 / 3 / 4 players (round tracker), or config `rounds` |
| actions | see `actions.py`: place a die (by value) on a target; wildcard x->y; extra cross-off (colour, value); circle a wildcard |
| decisions | "place a die" / "place the changed die" (turn player); "extra cross-off" / "circle a wildcard" (the player who earned it, turn or not) |
| returns | sole winner +1; k tied winners 1/k each; every other seat -1; 0 to all on truncation (`max_turns`) |
| scores | the final evaluation so far: research points + speed bonuses + 3 per circled wildcard - virus tube |

State in plain ints: a disease grid is a bitmask over box values (bit v = the box showing v), the
laboratory row too; reserves are counts per die value (dice of one player are interchangeable:
their colour matters only for whose they are). Cards on the table hold (value, owner) per slot.
"""
from __future__ import annotations

import numpy as np

from ..core import Game, ObsLayout, State, clone_rng, derive_seed, make_rng, rng_from_dict, rng_to_dict
from . import encoding, render, validate
from .actions import CIRCLE, CROSS, PLACE, WILD, build_actions
from .sheet import COLOURS, EXTRA_CROSS_OFF, WILDCARD, load_lab_cards, load_sheet

D_PLACE, D_CHANGED, D_EXTRA, D_CIRCLE = 0, 1, 2, 3
PHASES = ("place a die", "place the changed die", "extra cross-off", "circle a wildcard")
# pending decisions: (seat, kind, colour); colour -1 = any disease (laboratory-row extra cross-off)
P_EXTRA, P_CIRCLE = 0, 1


class RollWriteGame(Game):
    """Virus!: Roll & Write for 2-4 players. Config keys are documented in docs/rules/roll_write.md."""

    env_id = "roll_write_v0"
    min_players, max_players, default_players = 2, 4, 2
    DEFAULTS = {
        "lab_cards": "",          # two laboratory cards, e.g. "A2,D2" ('' = the rulebook's first-game pair)
        "rounds": 0,              # 0 = the round tracker (5 / 7 / 8 rounds for 2 / 3 / 4 players)
        "first_player": 0,        # seat holding priority access at the start; -1 = drawn with the seed
        "max_turns": 2000,        # truncation: total decisions taken by all players
        "sheet_file": "",         # another score sheet data file ('' = data/sheet.yaml)
        "lab_cards_file": "",     # another laboratory card file ('' = data/lab_cards.yaml)
        # "before placing a die" a wildcard may change it, also a die then placed on the contaminated
        # samples card (True, the literal reading); False: only for a trial or laboratory card
        "wildcard_then_contaminate": True,
    }

    def _validate_config(self):
        """Load the data files and check the cross-key config (ValueError naming the key)."""
        c, n = self.config, self.num_players
        try:
            self.sheet = load_sheet(c["sheet_file"] or None)
        except ValueError as e:
            raise ValueError(f"config key 'sheet_file': {e}") from None
        try:
            self.all_lab_cards, defaults = load_lab_cards(c["lab_cards_file"] or None)
        except ValueError as e:
            raise ValueError(f"config key 'lab_cards_file': {e}") from None
        if c["lab_cards"]:
            names = tuple(x.strip() for x in c["lab_cards"].replace("+", ",").split(","))
        else:
            names = defaults[n]
        if len(names) != 2 or len(set(names)) != 2:
            raise ValueError(f"config key 'lab_cards' must name two different laboratory cards, got {c['lab_cards']!r}")
        for x in names:
            if x not in self.all_lab_cards:
                raise ValueError(f"config key 'lab_cards': unknown card {x!r}; known: {sorted(self.all_lab_cards)}")
            if n not in self.all_lab_cards[x].players:
                raise ValueError(f"config key 'lab_cards': card {x!r} is not for {n} players "
                                 f"(its side is for {self.all_lab_cards[x].players})")
        self.lab_names = names
        if c["rounds"] < 0 or c["rounds"] > self.sheet.virus_boxes:
            raise ValueError(f"config key 'rounds' must be 0 (round tracker) or 1..{self.sheet.virus_boxes} "
                             f"(boxes of the virus tube), got {c['rounds']}")
        if not -1 <= c["first_player"] < n:
            raise ValueError(f"config key 'first_player' must be -1 or a seat 0..{n - 1}, got {c['first_player']}")
        if c["max_turns"] < 1:
            raise ValueError(f"config key 'max_turns' must be >= 1, got {c['max_turns']}")

    def _build(self):
        """Action table, laboratory tables and the observation layout."""
        sh, n = self.sheet, self.num_players
        self.rounds = self.config["rounds"] or sh.round_tracker[n]
        self.dice = sh.dice_per_player[n]
        self.per_round = n * self.dice
        self.lab_cards = tuple(self.all_lab_cards[x] for x in self.lab_names)
        self.slots = self.lab_cards[0].slots
        self.num_lab_slots = 2 * self.slots
        (self.actions, self.act_kind, self.act_a, self.act_b, bases) = build_actions(self.lab_names, self.slots)
        self.num_actions = len(self.actions)
        self.T = bases["targets"]
        self.T_CONTAM = self.T - 1
        self.wild0, self.wild_id, self.cross0, self.circle_id = (bases["wild0"], bases["wild_id"],
                                                                  bases["cross0"], bases["circle"])
        self.target_names = bases["target_names"]
        # per laboratory slot j: its card's result table, and whether it is the left slot
        self.slot_card = tuple(j // self.slots for j in range(self.num_lab_slots))
        self.slot_result = tuple(self.lab_cards[j // self.slots].result for j in range(self.num_lab_slots))
        # slot_pairs[j][o]: (v, result) for each die v that may go in slot j when the other slot shows o
        # (o = 0: one-slot card); target_ids[t][vm]: place-action ids of the values in bitmask vm on t
        pairs = []
        for j in range(self.num_lab_slots):
            tab = self.slot_result[j]
            if self.slots == 1:
                pairs.append((tuple((v, tab[v]) for v in range(1, 7) if tab[v]),))
            else:
                pairs.append(tuple(tuple((v, tab[v][o] if j % 2 == 0 else tab[o][v]) for v in range(1, 7)
                                         if (tab[v][o] if j % 2 == 0 else tab[o][v])) for o in range(7)))
        self.slot_pairs = tuple(pairs)
        self.target_ids = tuple(tuple(tuple((v - 1) * self.T + t for v in range(1, 7) if vm >> v & 1)
                                      for vm in range(128)) for t in range(self.T))
        self.wild_ids = tuple(tuple(self.wild_id[x][y] for x in range(1, 7) if vm >> x & 1
                                    for y in range(1, 7) if y != x) for vm in range(128))
        self.card_index = tuple(sorted(self.all_lab_cards).index(x) for x in self.lab_names)
        self.max_contam = self.rounds * self.dice * 6
        self.wild_then_contaminate = self.config["wildcard_then_contaminate"]
        encoding.build_tables(self)

    def new_initial_state(self, seed=None):
        """A fresh game: the first round's dice are rolled."""
        s = RollWriteState.__new__(RollWriteState)
        s._init(self, make_rng(seed))
        return s

    def _validate_dict(self, d):
        """Refuse a dict no game can reach (validate.py): ValueError naming the field."""
        validate.check_state(self, d)

    def _state_from_dict(self, d):
        """Inverse of RollWriteState.to_dict()."""
        s = RollWriteState.__new__(RollWriteState)
        s.game = self
        s._mask = None
        s.n = self.num_players
        for k in RollWriteState._LIST_FIELDS:
            setattr(s, k, _deep(d[k]))
        for k in RollWriteState._INT_FIELDS:
            setattr(s, k, int(d[k]))
        s.pending = [tuple(x) for x in d["pending"]]
        s.found = [tuple(x) for x in d["found"]]
        s.prio_taken = bool(d["prio_taken"])
        s.terminal = bool(d["terminal"])
        s.truncated = bool(d["truncated"])
        s.rng = rng_from_dict(d["rng"])
        s.board = encoding.encode_full(s)
        s._scores = None
        return s


def _deep(x):
    """Nested lists of ints, copied (JSON-safe)."""
    return [_deep(y) for y in x] if isinstance(x, list) else int(x)


class RollWriteState(State):
    """One position of Virus!: Roll & Write."""

    _LIST_FIELDS = ("reserve", "trial", "trial_own", "lab", "lab_own", "contam", "grid", "labrow",
                    "wild", "wused", "virus", "cure")
    _INT_FIELDS = ("rnd", "priority", "starter", "placed", "wild_die", "turns")

    def _init(self, game: RollWriteGame, rng):
        """Setup: empty sheets, one wildcard circled each, priority with `first_player`, first roll."""
        self.game = game
        self._mask = None
        self.rng = rng
        n = self.n = game.num_players
        sh = game.sheet
        fp = game.config["first_player"]
        if fp < 0:
            fp = int(rng.integers(n))
        self.rnd = 0
        self.priority = fp          # holder of the priority access card
        self.starter = fp           # who started this round
        self.prio_taken = False     # someone placed on a laboratory card this round
        self.placed = 0             # dice placed this round
        self.wild_die = 0           # value of the die changed by a wildcard, to be placed now
        self.turns = 0
        self.terminal = False
        self.truncated = False
        self.pending = []
        self.found = []             # (seat, colour) grids completed during the placement being resolved
        self.grid = [[0, 0, 0, 0] for _ in range(n)]
        self.labrow = [0] * n
        self.wild = [sh.wildcards_at_start] * n     # circled, unused
        self.wused = [0] * n                        # crossed off (used)
        self.virus = [[] for _ in range(n)]         # virus tube: one total per round played
        self.cure = [[0, 0, 0, 0] for _ in range(n)]  # 0 open, 1 speed bonus marked, 2 crossed out
        self._scores = None
        self.board = encoding.fresh_board(self)
        self._start_round()
        encoding.sync_turn(self, self.board)

    # -- round structure ------------------------------------------------------------------
    def _start_round(self):
        """'Roll the dice!': everyone rolls all their dice; the priority holder starts."""
        g, n = self.game, self.n
        # "Starting with the player who has the priority access card"
        self.starter = self.priority
        self.prio_taken = False
        self.placed = 0
        self.trial = [0] * 8
        self.trial_own = [-1] * 8
        self.lab = [0] * g.num_lab_slots
        self.lab_own = [-1] * g.num_lab_slots
        self.contam = [[0] * 7 for _ in range(n)]
        rolls = self.rng.integers(1, 7, size=(n, g.dice)).tolist()
        self.reserve = []
        for p in range(n):
            r = [0] * 7
            for v in rolls[p]:
                r[v] += 1
            self.reserve.append(r)
        b, ds = self.board, g._dice_scale
        b[g.o_res:g.o_res + 6 * n] = [r[v] * ds for r in self.reserve for v in range(1, 7)]
        b[g.o_con:g.o_con + 6 * n] = 0.0
        b[g.o_trial:g.o_trial + 48 + 8 * n] = 0.0          # trial_cards, trial_owners
        b[g.o_labslot:g.o_labown + g.num_lab_slots * n] = 0.0

    def _end_round(self):
        """Lone laboratory dice to the contaminated samples card, virus tubes written, next round or the end."""
        g = self.game
        if g.slots == 2:
            # "Do the same with dice that were left alone in a double laboratory slot"
            lab, own = self.lab, self.lab_own
            for j in range(0, g.num_lab_slots, 2):
                for a, b in ((j, j + 1), (j + 1, j)):
                    if lab[a] and not lab[b]:
                        self._contaminate(own[a], lab[a])
                        bd = self.board
                        bd[g.o_labslot + 6 * a + lab[a] - 1] = 0.0
                        bd[g.o_labown + self.n * a + own[a]] = 0.0
                        lab[a] = 0
                        own[a] = -1
        for p in range(self.n):
            c = self.contam[p]
            self.virus[p].append(c[1] + 2 * c[2] + 3 * c[3] + 4 * c[4] + 5 * c[5] + 6 * c[6])
            self.board[g.o_virus + p] = sum(self.virus[p]) * g._contam_scale
        self._scores = None
        self.rnd += 1
        if self.rnd >= g.rounds:
            self.terminal = True
        else:
            self._start_round()

    # -- contract -------------------------------------------------------------------------
    def current_player(self) -> int:
        """Seat that must decide now; -1 when terminal."""
        if self.terminal:
            return -1
        if self.pending:
            return self.pending[0][0]
        return (self.starter + self.placed) % self.n

    def decision(self) -> int:
        """Kind of the current decision (D_PLACE, D_CHANGED, D_EXTRA, D_CIRCLE)."""
        if self.pending:
            return D_EXTRA if self.pending[0][1] == P_EXTRA else D_CIRCLE
        return D_CHANGED if self.wild_die else D_PLACE

    def phase(self) -> str:
        """The decision being taken, in the rulebook's words."""
        return "game over" if self.terminal else PHASES[self.decision()]

    def is_terminal(self) -> bool:
        """True once the last round is played (or max_turns reached)."""
        return self.terminal

    def is_truncated(self) -> bool:
        """True when the game was ended by max_turns."""
        return self.truncated

    def _compute_mask(self) -> np.ndarray:
        """Exact legal actions of current_player() (the one source of legality)."""
        g = self.game
        m = np.zeros(g.num_actions, dtype=bool)
        p = self.current_player()
        if self.pending:
            _, kind, col = self.pending[0]
            if kind == P_CIRCLE:
                m[g.circle_id] = True
                return m
            full, grid = g.sheet.full, self.grid[p]
            idx = []
            for c in (range(4) if col < 0 else (col,)):
                free = full[c] & ~grid[c]
                base = g.cross0 + 12 * c - 1
                for v in g.sheet.values[c]:
                    if free >> v & 1:
                        idx.append(base + v)
            m.put(idx, True)
            return m
        # dice are sets of values: bit v of `vm` = a die showing v is in reserve (or the changed die)
        res = self.reserve[p]
        if self.wild_die:
            vm = 1 << self.wild_die
        else:
            vm = 0
            for v in range(1, 7):
                if res[v]:
                    vm |= 1 << v
        ids = g.target_ids
        full, grid = g.sheet.full, self.grid[p]
        trial, lab = self.trial, self.lab
        idx = []
        cards = 0                                  # die values some trial or laboratory slot takes now
        for c in range(4):
            a = trial[2 * c]
            if a == 0:
                ok = full[c] & ~grid[c]
            elif trial[2 * c + 1] == 0:
                # "cross off ... the value of the sum of both dice": bit v of free >> a is the box a + v
                ok = (full[c] & ~grid[c]) >> a
            else:
                continue
            cards |= ok
            ok &= vm
            if ok:
                idx.extend(ids[c][ok])
        labfree = g.sheet.lab_full & ~self.labrow[p]
        two = g.slots == 2
        for j in range(g.num_lab_slots):
            if lab[j]:
                continue
            if two:
                o = lab[j ^ 1]
                if o == 0:
                    cards |= 126
                    idx.extend(ids[4 + j][vm])     # first die: nothing to cross yet
                    continue
            else:
                o = 0
            # "You must be able to cross off the resulting box and meet the condition"
            ok = 0
            for v, r in g.slot_pairs[j][o]:
                if labfree >> r & 1:
                    ok |= 1 << v
            cards |= ok
            ok &= vm
            if ok:
                idx.extend(ids[4 + j][ok])
        if g.wild_then_contaminate or not self.wild_die:
            idx.extend(ids[g.T_CONTAM][vm])        # contaminated samples: always possible
        if not self.wild_die and self.wild[p] > 0:
            if g.wild_then_contaminate:
                idx.extend(g.wild_ids[vm])
            else:
                # a changed die must then go on a trial or laboratory card: only values one takes
                idx.extend(a for a in g.wild_ids[vm] if cards >> g.act_b[a] & 1)
        m.put(idx, True)
        return m

    def _apply(self, a: int) -> None:
        """Carry out a legal action, then resolve what follows until a decision is needed."""
        g = self.game
        kind = g.act_kind[a]
        p = self.current_player()
        if kind == PLACE:
            self.wild_die = 0
            self._place(p, g.act_b[a], g.act_a[a])
        elif kind == WILD:
            # "cross off a wildcard you previously circled to change the value of one of your dice"
            x, y = g.act_a[a], g.act_b[a]
            r = self.reserve[p]
            r[x] -= 1
            r[y] += 1
            self.wild[p] -= 1
            self.wused[p] += 1
            self.wild_die = y
            b, ds = self.board, g._dice_scale
            b[g.o_res + 6 * p + x - 1] = r[x] * ds
            b[g.o_res + 6 * p + y - 1] = r[y] * ds
            self._sync_wild(p)
        elif kind == CROSS:
            self.pending.pop(0)
            self._cross(p, g.act_a[a], g.act_b[a])
        else:  # CIRCLE: "circle an empty box in your wildcard tube"
            self.pending.pop(0)
            self.wild[p] += 1
            self._sync_wild(p)
        self._settle()
        self.turns += 1
        if not self.terminal and self.turns >= g.config["max_turns"]:
            self.terminal = self.truncated = True
        encoding.sync_turn(self, self.board)

    def _sync_wild(self, p):
        """Wildcard tube of p changed: encoding and score cache."""
        g = self.game
        self._scores = None
        self.board[g.o_wild + 2 * p] = self.wild[p] * g._wild_scale
        self.board[g.o_wild + 2 * p + 1] = self.wused[p] * g._wild_scale

    def _contaminate(self, p, v):
        """A die of p showing v goes on the contaminated samples card."""
        g = self.game
        c = self.contam[p]
        c[v] += 1
        self.board[g.o_con + 6 * p + v - 1] = c[v] * g._dice_scale

    # -- rules ----------------------------------------------------------------------------
    def _place(self, p, t, v):
        """Put p's die showing v on target t and cross off what it gives."""
        g = self.game
        b = self.board
        r = self.reserve[p]
        r[v] -= 1
        b[g.o_res + 6 * p + v - 1] = r[v] * g._dice_scale
        if t < 4:
            tr = self.trial
            if tr[2 * t] == 0:
                tr[2 * t], self.trial_own[2 * t] = v, p
                b[g.o_trial + 12 * t + v - 1] = 1.0
                b[g.o_trialown + self.n * 2 * t + p] = 1.0
                self._cross(p, t, v)
            else:
                tr[2 * t + 1], self.trial_own[2 * t + 1] = v, p
                b[g.o_trial + 12 * t + 5 + v] = 1.0
                b[g.o_trialown + self.n * (2 * t + 1) + p] = 1.0
                self._cross(p, t, tr[2 * t] + v)
            return
        if t == g.T_CONTAM:
            self._contaminate(p, v)
            return
        j = t - 4
        if not self.prio_taken:
            # "the first player to place a die on one of the laboratory cards takes the priority access card"
            self.prio_taken = True
            self.priority = p
        lab, own = self.lab, self.lab_own
        lab[j], own[j] = v, p
        b[g.o_labslot + 6 * j + v - 1] = 1.0
        b[g.o_labown + self.n * j + p] = 1.0
        if g.slots == 1:
            self._cross_lab(p, g.slot_result[j][v])
            return
        o = j ^ 1
        if lab[o] == 0:
            return  # "you do not cross off any box. You must wait until someone completes the card"
        res = lab[j & ~1] + lab[j | 1]
        self._cross_lab(p, res)
        q = own[o]
        # "If you placed first and ... you cannot cross off the resulting box, you cross off nothing."
        if q != p and not self.labrow[q] >> res & 1:
            self._cross_lab(q, res)

    def _cross(self, p, c, v):
        """Cross off box v of colour c; completed rows/columns queue extra cross-offs (first)."""
        grid = self.grid[p]
        gm = grid[c] | (1 << v)
        grid[c] = gm
        self._scores = None
        self.board[self.game.o_grid + 48 * p + 12 * c + v - 1] = 1.0
        if gm == self.game.sheet.full[c]:
            self.found.append((p, c))   # a cure, claimed once every extra cross-off is done
        new = [(p, P_EXTRA, icon) for m, icon in self.game.sheet.box_lines[c][v] if gm & m == m]
        if new:
            self.pending[0:0] = new

    def _cross_lab(self, p, res):
        """Cross off box res of p's laboratory row and queue its advantage."""
        self.labrow[p] |= 1 << res
        self.board[self.game.o_lab + len(self.game.sheet.lab_values) * p + self.game.lab_pos[res]] = 1.0
        adv = self.game.sheet.lab_advantage[res]
        if adv == EXTRA_CROSS_OFF:
            self.pending.append((p, P_EXTRA, -1))
        elif adv == WILDCARD:
            self.pending.append((p, P_CIRCLE, 0))

    def _settle(self):
        """Drop decisions that cannot be carried out; when a placement is fully resolved, cures and next turn."""
        pend = self.pending
        sh = self.game.sheet
        while pend:
            q, kind, col = pend[0]
            if kind == P_EXTRA:
                gq = self.grid[q]
                if col < 0:
                    ok = any(sh.full[c] & ~gq[c] for c in range(4))
                else:
                    ok = sh.full[col] & ~gq[col]
            else:
                ok = self.wild[q] + self.wused[q] < sh.wildcard_boxes
            if ok:
                return
            pend.pop(0)
        if self.wild_die:
            return
        if self.found:
            self._check_cures()
        self.placed += 1
        if self.placed >= self.game.per_round:
            self._end_round()

    def _check_cures(self):
        """Cures found now (after all extra cross-offs): every finder of an unclaimed colour gets the speed bonus."""
        found, self.found = self.found, []
        for c in range(4):
            finders = [p for p, fc in found if fc == c and self.cure[p][c] == 0]
            if finders:
                o = self.game.o_cure + 2 * c
                for q in range(self.n):
                    # "All other players must immediately cross off that same box"
                    self.cure[q][c] = st = 1 if q in finders else 2
                    self._scores = None
                    self.board[o + 8 * q + st - 1] = 1.0

    # -- scoring --------------------------------------------------------------------------
    def score_of(self, p) -> int:
        """Final evaluation of seat p as it stands (the virus tube holds finished rounds only)."""
        sh = self.game.sheet
        pts = sh.points
        g = self.grid[p]
        return (pts[g[0].bit_count()] + pts[g[1].bit_count()] + pts[g[2].bit_count()] + pts[g[3].bit_count()]
                + sh.speed_bonus * self.cure[p].count(1) + sh.wildcard_points * self.wild[p] - sum(self.virus[p]))

    def scores(self) -> np.ndarray:
        """Game points per seat, as the final evaluation counts them."""
        # cached: the adapter asks after every step; every change to a sheet sets _scores to None
        sc = self._scores
        if sc is None:
            sh = self.game.sheet
            pts, sb, wp = sh.points, sh.speed_bonus, sh.wildcard_points
            sc = self._scores = np.array(
                [pts[g[0].bit_count()] + pts[g[1].bit_count()] + pts[g[2].bit_count()] + pts[g[3].bit_count()]
                 + sb * cu.count(1) + wp * w - sum(vt)
                 for g, cu, w, vt in zip(self.grid, self.cure, self.wild, self.virus)], dtype=float)
        return sc.copy()

    def ranking_key(self, p) -> tuple:
        """(points, laboratory boxes, -contamination): the rulebook's order of tie-breaks."""
        return (self.score_of(p), self.labrow[p].bit_count(), -sum(self.virus[p]))

    def winners(self) -> list[int]:
        """Seats sharing the victory (by points, then laboratory boxes, then lowest contamination)."""
        keys = [self.ranking_key(p) for p in range(self.n)]
        best = max(keys)
        return [p for p in range(self.n) if keys[p] == best]

    def returns(self) -> np.ndarray:
        """+1 sole winner, 1/k to each of k tied winners, -1 others; zeros if not finished or truncated."""
        r = np.zeros(self.n)
        if not self.terminal or self.truncated:
            return r
        w = self.winners()
        r[:] = -1.0
        r[w] = 1.0 / len(w)
        return r

    # -- views ----------------------------------------------------------------------------
    def view(self, p: int) -> dict:
        """Everything is public in this game except future rolls: the whole table, every sheet."""
        return encoding.view(self, p)

    def observation(self, p: int) -> np.ndarray:
        """Seat-relative float32 encoding of view(p) (layout: encoding.py)."""
        return encoding.observation(self, p)

    def render(self) -> str:
        """Readable text table (render.py)."""
        return render.render(self)

    def action_to_string(self, a: int) -> str:
        """Readable name of action a."""
        return self.game.actions.name(a)

    # -- copies ---------------------------------------------------------------------------
    def clone(self) -> "RollWriteState":
        """Independent copy (the rng too)."""
        s = RollWriteState.__new__(RollWriteState)
        s.game = self.game
        s._mask = self._mask
        s.n = self.n
        s.rng = clone_rng(self.rng)
        for k in self._INT_FIELDS:
            setattr(s, k, getattr(self, k))
        s.prio_taken, s.terminal, s.truncated = self.prio_taken, self.terminal, self.truncated
        s.pending = list(self.pending)
        s.found = list(self.found)
        s.reserve = [r[:] for r in self.reserve]
        s.trial, s.trial_own, s.lab, s.lab_own = self.trial[:], self.trial_own[:], self.lab[:], self.lab_own[:]
        s.contam = [r[:] for r in self.contam]
        s.grid = [r[:] for r in self.grid]
        s.labrow, s.wild, s.wused = self.labrow[:], self.wild[:], self.wused[:]
        s.virus = [r[:] for r in self.virus]
        s.cure = [r[:] for r in self.cure]
        s.board = self.board.copy()
        s._scores = self._scores       # never written in place: shared safely
        return s

    def to_dict(self) -> dict:
        """Full state, JSON-safe."""
        d = {"env_id": self.game.env_id, "num_players": self.n}
        for k in self._LIST_FIELDS:
            d[k] = _deep(getattr(self, k))
        for k in self._INT_FIELDS:
            d[k] = int(getattr(self, k))
        d["pending"] = [list(x) for x in self.pending]
        d["found"] = [list(x) for x in self.found]
        d["prio_taken"] = self.prio_taken
        d["terminal"] = self.terminal
        d["truncated"] = self.truncated
        d["rng"] = rng_to_dict(self.rng)
        return d

    def _determinize(self, p: int, rng) -> "RollWriteState":
        """Only future rolls are hidden, and core.State.determinize resamples those (a fresh Generator)."""
        return self.clone()
