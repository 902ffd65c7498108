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

import numpy as np

from ..core import pcg64
from ..core.batch import BatchEngine, BatchStep, check_batch_size
from . import kernels as K
from . import kernels_batch as KB
from .cards import R_GUINEA, R_PRESCRIPTION
from .game import VirusCoGame
from .kernels_obs import observe_batch

__all__ = ["VirusCoBatch", "BatchStep"]


class VirusCoBatch(BatchEngine):
    """`batch_size` games of one VirusCoGame config; see the module docstring (reset, step, masks,
    seeds, random actions, observation, returns, state(i): `core/batch.py`)."""

    K = KB          # BatchEngine's kernels: reset_batch, step_batch, outcome_batch, ROW (the rules: kernels.py)
    GAME = VirusCoGame

    def __init__(self, batch_size: int = 1024, num_players: int | None = None, autoreset: bool = True,
                 game: VirusCoGame | None = None, **config):
        batch_size = check_batch_size(batch_size)
        game = self._game(num_players, game, config)
        if game.config["rounds"] > K.MAXR:
            raise ValueError(f"config key 'rounds': the batched engine holds at most {K.MAXR} rounds, "
                             f"the game has {game.config['rounds']}")
        self.game = g = game
        self.observation_shape = tuple(g.observation_shape)
        self._arrays(batch_size, g.num_players, g.num_actions, autoreset)
        self.TB = self._tables(g)

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

    # -- the batch API (reset, step, legal_action_mask, seeds, random_actions: BatchEngine) ---------------
    def current_player(self) -> np.ndarray:
        """(B,) seat to decide in each game; -1 where the game is over."""
        return np.where(self.S[:, K.TERM] != 0, -1, self.S[:, K.CUR]).astype(np.int64)

    def is_terminal(self) -> np.ndarray:
        return self.S[:, K.TERM] != 0

    def _observe(self, seats: np.ndarray, out: np.ndarray) -> None:
        observe_batch(self.S, seats, self.TB, out)

    def scores(self) -> np.ndarray:
        """(B, n) the totals of the rounds scored so far in every game."""
        return self._outcome()[0]

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
        i = self._check_slot(i)
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
        self._put(i, row, d["rng"])
