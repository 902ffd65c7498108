"""B games of Virus & Co stepped together: arrays in, arrays out (`VirusCoBatch`).

    from virus_envs.virus_co.batched import VirusCoBatch
    b = VirusCoBatch(1024, num_players=4)            # any VirusCoGame config: rounds=5, mr_doctor="fee_on_pass", ...
    b.reset(seeds=range(1024))                       # game i plays what new_initial_state(seed=i) plays
    rng = np.random.default_rng(0)
    while True:
        out = b.step(b.random_actions(rng))          # one action per game, for its current player
        out.done, out.returns                        # games that just ended, their returns (then reset)

Same rules as the scalar engine (`game.py`), carried out by `kernels.py` (observation:
`kernels_obs.py`); masks and observations are `(B, num_actions)` / `(B, obs_size)` arrays equal,
game by game, to `legal_action_mask()` and `observation(p)` of the scalar state
(tests/virus_co/test_vco_batched.py plays both side by side).

Hidden information: the batch holds every game's full state (hands, stack order), as the scalar
state does; `observation(seats)` writes seat p's vector only from what p may see, as the scalar
encoder does. Chance: each game has its own PCG64 generator, identical to numpy's
(`core/pcg64.py`): a game started with seed s deals what `VirusCoGame.new_initial_state(seed=s)`
deals, whatever the batch around it. With `autoreset` (the default) a finished game starts the next
one at once with seed `pcg64.next_seed(s)`; `step` reports the finished game's seed, scores and
returns. `to_dict(i)` gives game i as the scalar engine's state dict, `load(i, state)` puts any
scalar state into slot i.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core import IllegalActionError
from ..core import pcg64
from ..core.jit import HAVE_NUMBA
from ..core.batch_kernels import random_actions
from . import kernels as K
from . import kernels_batch as KB
from .cards import R_GUINEA, R_PRESCRIPTION
from .game import VirusCoGame
from .kernels_obs import observe_batch


class BatchStep(NamedTuple):
    """What `step` returns; arrays are the batch's own buffers, overwritten by the next step (copy to keep)."""

    done: np.ndarray        # (B,) bool: game i ended with this action (and was reset, with autoreset)
    seeds: np.ndarray       # (B,) int64: the seed of each game that ended (valid where done)
    scores: np.ndarray      # (B, n) float: its final totals (valid where done)
    returns: np.ndarray     # (B, n) float: its returns (+1 / 1/k / -1; 0 if truncated) (valid where done)
    truncated: np.ndarray   # (B,) bool: it ended by max_turns (valid where done)


class VirusCoBatch:
    """`batch_size` games of one VirusCoGame config; see the module docstring."""

    def __init__(self, batch_size: int = 1024, num_players: int | None = None, autoreset: bool = True,
                 game: VirusCoGame | None = None, **config):
        if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
            raise ValueError(f"batch_size must be an int >= 1, got {batch_size!r}")
        if game is None:
            game = VirusCoGame(num_players, **config)
        elif num_players is not None or config:
            raise ValueError("give either game= or num_players/config, not both")
        if not isinstance(game, VirusCoGame):
            raise ValueError(f"game must be a VirusCoGame, got {type(game).__name__}")
        if game.config["rounds"] > K.MAXR:
            raise ValueError(f"config key 'rounds': the batched engine holds at most {K.MAXR} rounds, "
                             f"the game has {game.config['rounds']}")
        self.game = g = game
        self.B = int(batch_size)
        self.num_players = n = g.num_players
        self.num_actions = g.num_actions
        self.observation_shape = tuple(g.observation_shape)
        self.autoreset = bool(autoreset)
        self.compiled = HAVE_NUMBA
        self.TB = self._tables(g)
        B = self.B
        self.S = np.zeros((B, K.ROW), dtype=np.int32)
        self.RS = np.zeros((B, 6), dtype=np.uint64)
        self.SEEDS = np.zeros(B, dtype=np.int64)
        self.M = np.zeros((B, g.num_actions), dtype=np.bool_)
        self._done = np.zeros(B, dtype=np.bool_)
        self._fseed = np.zeros(B, dtype=np.int64)
        self._fscores = np.zeros((B, n), dtype=np.float64)
        self._freturns = np.zeros((B, n), dtype=np.float64)
        self._ftrunc = np.zeros(B, dtype=np.bool_)
        self._ready = False

    def _tables(self, g: VirusCoGame) -> np.ndarray:
        """The game's tables as one int64 vector for the kernels (built once)."""
        cat = g.cat
        if cat.size > K.CCAP or g.NV > 2 * K.SCAP or g.num_actions > K.MAXA:
            raise ValueError(f"config key 'cards_file': {cat.size} cards or {g.num_actions} actions are more "
                             "than the batched engine holds")
        TB = np.zeros(K.NUM_TB, dtype=np.int64)
        presc, guinea = cat.risk_pills[R_PRESCRIPTION], cat.risk_pills[R_GUINEA]
        vals = {
            K.P_N: g.num_players, K.P_NV: g.NV, K.P_SIZE: cat.size, K.P_ROUNDS: g.config["rounds"],
            K.P_MAXTURNS: g.config["max_turns"], K.P_FIRST: g.config["first_player"], K.P_FEE: int(g.fee),
            K.P_INJON: int(bool(g.injection_on_virus)), K.P_CROSSG: int(bool(g.cross_to_giver)),
            K.P_A: g.num_actions, K.P_OBS: g.layout.size, K.P_AUTORESET: int(self.autoreset),
            K.P_DR: cat.diagnosis_right, K.P_DW: cat.diagnosis_wrong, K.P_NH: cat.nurse_healthy,
            K.P_NI: cat.nurse_icu, K.P_NPRESC: len(presc), K.P_NGUINEA: len(guinea),
        }
        for k, v in vals.items():
            TB[k] = v
        assert len(g._offs) == K.NUM_O
        TB[K.O_BASE:K.O_BASE + K.NUM_O] = g._offs
        m = cat.size
        TB[K.T_KIND:K.T_KIND + m] = cat.kind
        TB[K.T_VAL:K.T_VAL + m] = cat.value
        TB[K.T_CROSS:K.T_CROSS + m] = [int(x) for x in cat.cross]
        TB[K.T_RT:K.T_RT + m] = cat.rtype
        TB[K.T_SHOWN:K.T_SHOWN + 3 * m] = np.array(cat.pills).ravel()
        TB[K.T_CA:K.T_CA + m] = g.card_action
        TB[K.T_VIDX:K.T_VIDX + m] = g._vidx
        TB[K.T_AC:K.T_AC + g.num_actions] = g.action_card
        TB[K.T_PRESC:K.T_PRESC + len(presc)] = presc
        TB[K.T_GUINEA:K.T_GUINEA + len(guinea)] = guinea
        TB[K.T_START:K.T_START + 3] = cat.start
        TB[K.T_TOTAL:K.T_TOTAL + 3] = cat.pill_total
        return TB

    # -- the batch API ------------------------------------------------------------------------------
    def reset(self, seeds) -> None:
        """Start every game afresh: seeds is one non-negative int (game i gets seeds + i) or B of them."""
        if isinstance(seeds, (int, np.integer)) and not isinstance(seeds, bool):
            seeds = np.arange(self.B, dtype=np.int64) + int(seeds)
        arr = np.asarray(list(seeds) if not isinstance(seeds, np.ndarray) else seeds)
        if arr.shape != (self.B,) or arr.dtype.kind not in "iu":
            raise ValueError(f"seeds must be one int or {self.B} ints, got shape {arr.shape} of {arr.dtype}")
        if (arr < 0).any() or (arr >= 1 << 63).any():
            raise ValueError("seeds must be non-negative ints below 2**63")
        KB.reset_batch(self.S, self.RS, self.SEEDS, arr.astype(np.int64), self.M, self.TB)
        self._done[:] = False
        self._ready = True

    def step(self, actions, partial: bool = False) -> BatchStep:
        """One action per game for its current player (-1 for a finished game without autoreset).
        partial=True: -1 means "this game waits" (self-play: only the games where an opponent is to move).

        An illegal action raises IllegalActionError naming the game, and no game moves."""
        if not self._ready:
            raise ValueError("call reset(seeds) before step")
        a = np.ascontiguousarray(actions, dtype=np.int64)
        if a.shape != (self.B,):
            raise ValueError(f"actions must have shape ({self.B},), got {a.shape}")
        bad = KB.step_batch(self.S, self.RS, self.SEEDS, a, self.M, self.TB, self._done, self._fseed, self._fscores,
                           self._freturns, self._ftrunc, bool(partial))
        if bad >= 0:
            term = bool(self.S[bad, K.TERM])
            raise IllegalActionError(int(a[bad]), "game over" if term else "batched game",
                                     int(self.current_player()[bad]),
                                     f"game {bad} of the batch: " + ("finished, expects -1" if term
                                                                     else "not allowed by the rules here"))
        return BatchStep(self._done, self._fseed, self._fscores, self._freturns, self._ftrunc)

    def legal_action_mask(self) -> np.ndarray:
        """(B, num_actions) bool, read-only: each game's legal actions (all False in a finished game)."""
        m = self.M.view()
        m.flags.writeable = False
        return m

    def current_player(self) -> np.ndarray:
        """(B,) seat to decide in each game; -1 where the game is over."""
        return np.where(self.S[:, K.TERM] != 0, -1, self.S[:, K.CUR]).astype(np.int64)

    def is_terminal(self) -> np.ndarray:
        return self.S[:, K.TERM] != 0

    @property
    def seeds(self) -> np.ndarray:
        """(B,) the seed each game in the batch was started with (-1: loaded with `load`)."""
        return self.SEEDS.copy()

    def observation(self, seats=None, out: np.ndarray | None = None) -> np.ndarray:
        """(B, obs_size) float32: observation(seats[i]) of each game (default: its current player, or seat 0
        in a finished game)."""
        if seats is None:
            seats = np.maximum(self.current_player(), 0)
        seats = np.broadcast_to(np.asarray(seats, dtype=np.int64), (self.B,))
        if ((seats < 0) | (seats >= self.num_players)).any():
            raise ValueError(f"seats must be in 0..{self.num_players - 1}")
        if out is None:
            out = np.empty((self.B,) + self.observation_shape, dtype=np.float32)
        observe_batch(self.S, np.ascontiguousarray(seats), self.TB, out)
        return out

    def scores(self) -> np.ndarray:
        """(B, n) the totals of the rounds scored so far in every game."""
        sc = np.zeros((self.B, self.num_players))
        KB.outcome_batch(self.S, self.TB, sc, np.zeros_like(sc))
        return sc

    def returns(self) -> np.ndarray:
        """(B, n) returns (0 until a game ends; without autoreset a finished game keeps them)."""
        sc = np.zeros((self.B, self.num_players))
        r = np.zeros_like(sc)
        KB.outcome_batch(self.S, self.TB, sc, r)
        return r

    def random_actions(self, rng: np.random.Generator, out: np.ndarray | None = None) -> np.ndarray:
        """(B,) a uniformly drawn legal action per game (-1 in a finished game)."""
        if out is None:
            out = np.empty(self.B, dtype=np.int64)
        random_actions(self.M, rng.random(self.B), out)
        return out

    # -- one game out of the batch ------------------------------------------------------------------
    def to_dict(self, i: int) -> dict:
        """Game i as VirusCoState.to_dict() gives it (load it with game.state_from_dict)."""
        g, n, s = self.game, self.num_players, self.S[i].tolist()

        def seats(base, width=3):
            return [s[base + width * q:base + width * q + width] for q in range(n)]

        def lists(base, cnt, cap):
            return [s[base + cap * q:base + cap * q + s[cnt + q]] for q in range(n)]

        size = g.cat.size
        d = {"env_id": g.env_id, "num_players": n}
        d.update(round=s[K.RND], turns=s[K.TURNS], truncated=bool(s[K.TRUNC]), terminal=bool(s[K.TERM]),
                 active=s[K.ACTIVE], cur=s[K.CUR], ph=s[K.PH], doctor=s[K.DOCTOR], circ=s[K.CIRC],
                 giver=s[K.GIVER], req=s[K.REQ], rc=s[K.RC], issuer=s[K.ISSUER], keeper=s[K.KEEPER],
                 pend=s[K.PEND], pay_need=s[K.PAYNEED], give_col=s[K.GIVECOL], fee_to=s[K.FEETO],
                 fee_ph=s[K.FEEPH], icu=s[K.ICU])
        d["pills"] = seats(K.PILLS)
        d["stake"] = seats(K.STAKE)
        d["pharm"] = s[K.PHARM:K.PHARM + 3]
        d["box"] = s[K.BOX:K.BOX + 3]
        d["pay_start"] = s[K.PAYSTART:K.PAYSTART + 3]
        d["pay_add"] = s[K.PAYADD:K.PAYADD + 3]
        d["stacks"] = [s[K.STACK + K.SCAP * k:K.STACK + K.SCAP * k + s[K.NSTACK + k]] for k in (0, 1)]
        d["vir"] = lists(K.VIR, K.NVIR, K.VCAP)
        d["syr"] = lists(K.SYR, K.NSYRS, K.SYCAP)
        d["on"] = s[K.ON:K.ON + size]
        d["nsyr"] = s[K.NSYR:K.NSYR + size]
        d["hand"] = lists(K.HAND, K.NHAND, K.HCAP)
        d["rbox"] = s[K.RBOX:K.RBOX + s[K.NRBOX]]
        d["used"] = s[K.USED:K.USED + s[K.NUSED]]
        d["pub"] = s[K.PUB:K.PUB + K.NT]
        d["front"] = lists(K.FRONT, K.NFRONT, K.HCAP)
        d["nurse"] = s[K.NURSE:K.NURSE + n]
        d["diag"] = s[K.DIAG:K.DIAG + n]
        d["queue"] = s[K.QUEUE:K.QUEUE + s[K.NQ]]
        d["qcol"] = s[K.QCOL:K.QCOL + s[K.NQC]]
        d["totals"] = s[K.TOTALS:K.TOTALS + n]
        d["history"] = [s[K.HIST + K.MAXN * r:K.HIST + K.MAXN * r + n] for r in range(s[K.RND])]
        d["rng"] = pcg64.to_state_dict(self.RS[i])
        return d

    def load(self, i: int, state) -> None:
        """Put a scalar VirusCoState (or its to_dict(), checked by state_from_dict) into slot i; the mask of
        slot i is recomputed, its seed becomes -1 (unknown: the game did not start from a seed here)."""
        g, n = self.game, self.num_players
        d = state if isinstance(state, dict) else state.to_dict()
        g.state_from_dict(d)                       # the same checks as for any loaded state
        for field, cap in (("vir", K.VCAP), ("syr", K.SYCAP), ("hand", K.HCAP), ("front", K.HCAP)):
            if any(len(x) > cap for x in d[field]):
                raise ValueError(f"state dict: field {field!r} holds more cards in one place than slot {i} holds ({cap})")
        for field, cap in (("rbox", K.HCAP), ("used", K.HCAP), ("queue", K.MAXN), ("qcol", 3)):
            if len(d[field]) > cap:
                raise ValueError(f"state dict: field {field!r} holds more entries than slot {i} holds ({cap})")
        if any(len(x) > K.SCAP for x in d["stacks"]):
            raise ValueError(f"state dict: field 'stacks' holds more cards than slot {i} holds ({K.SCAP})")
        row = np.zeros(K.ROW, dtype=np.int64)
        for field, col in (("round", K.RND), ("turns", K.TURNS), ("truncated", K.TRUNC), ("terminal", K.TERM),
                           ("active", K.ACTIVE), ("cur", K.CUR), ("ph", K.PH), ("doctor", K.DOCTOR),
                           ("circ", K.CIRC), ("giver", K.GIVER), ("req", K.REQ), ("rc", K.RC),
                           ("issuer", K.ISSUER), ("keeper", K.KEEPER), ("pend", K.PEND),
                           ("pay_need", K.PAYNEED), ("give_col", K.GIVECOL), ("fee_to", K.FEETO),
                           ("fee_ph", K.FEEPH), ("icu", K.ICU)):
            row[col] = int(d[field])

        def put(base, values):
            row[base:base + len(values)] = values

        for q in range(n):
            put(K.PILLS + 3 * q, d["pills"][q])
            put(K.STAKE + 3 * q, d["stake"][q])
            for field, base, cnt, cap in (("vir", K.VIR, K.NVIR, K.VCAP), ("syr", K.SYR, K.NSYRS, K.SYCAP),
                                          ("hand", K.HAND, K.NHAND, K.HCAP), ("front", K.FRONT, K.NFRONT, K.HCAP)):
                put(base + cap * q, d[field][q])
                row[cnt + q] = len(d[field][q])
        for k in (0, 1):
            put(K.STACK + K.SCAP * k, d["stacks"][k])
            row[K.NSTACK + k] = len(d["stacks"][k])
        for field, base in (("pharm", K.PHARM), ("box", K.BOX), ("pay_start", K.PAYSTART), ("pay_add", K.PAYADD),
                            ("pub", K.PUB), ("nurse", K.NURSE), ("diag", K.DIAG), ("totals", K.TOTALS),
                            ("on", K.ON), ("nsyr", K.NSYR)):
            put(base, d[field])
        for field, base, cnt in (("rbox", K.RBOX, K.NRBOX), ("used", K.USED, K.NUSED), ("queue", K.QUEUE, K.NQ),
                                 ("qcol", K.QCOL, K.NQC)):
            put(base, d[field])
            row[cnt] = len(d[field])
        for r, h in enumerate(d["history"]):
            put(K.HIST + K.MAXN * r, h)
        pcg64.from_state_dict(d["rng"], self.RS[i])
        self.S[i] = row
        self.SEEDS[i] = -1
        K.legal_mask(self.S, i, self.M, self.TB)
        self._ready = True

    def state(self, i: int):
        """Game i as a scalar VirusCoState (a copy: the batch goes on without it)."""
        return self.game.state_from_dict(self.to_dict(i))
