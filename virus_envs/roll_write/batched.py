"""B games of Virus!: Roll & Write stepped together: arrays in, arrays out (`RollWriteBatch`).

    from virus_envs.roll_write.batched import RollWriteBatch
    b = RollWriteBatch(1024, num_players=2)          # any RollWriteGame config: lab_cards="A2,D2", ...
    b.reset(seeds=range(1024))                       # game i plays what new_initial_state(seed=i) plays
    rng = np.random.default_rng(0)
    while True:
        out = b.step(b.random_actions(rng))          # one action per game, for its current player
        out.done, out.returns                        # games that just ended, their returns (then reset)

Same rules as the scalar engine (`game.py`), carried out by `kernels.py`; masks and observations
are `(B, num_actions)` / `(B, obs_size)` arrays equal, game by game, to `legal_action_mask()` and
`observation(p)` of the scalar state (tests/roll_write/test_rw_batched.py plays both side by side).

Chance: each game has its own PCG64 generator, identical to numpy's (`core/pcg64.py`): a game
started with seed s rolls the dice `RollWriteGame.new_initial_state(seed=s)` rolls, whatever the
batch around it. With `autoreset` (the default) a finished game starts the next one at once with
seed `pcg64.next_seed(s)` (splitmix64); `step` reports the finished game's seed, scores and
returns, so any game of a run can be replayed alone with the scalar engine. `to_dict(i)` gives
game i as the scalar engine's state dict (`game.state_from_dict` loads it, rng included).

Speed comes from numba (`pip install virus_envs[fast]`); without it the same kernels run as
plain Python: identical results, about a hundred times slower (docs/scale.md has the figures).
"""
from __future__ import annotations

import numpy as np

from ..core import pcg64
from ..core.batch import BatchEngine, BatchStep, check_batch_size
from . import kernels as K
from .game import RollWriteGame

__all__ = ["RollWriteBatch", "BatchStep"]


class RollWriteBatch(BatchEngine):
    """`batch_size` games of one RollWriteGame config; see the module docstring (reset, step, masks,
    seeds, random actions, observation, returns, state(i): `core/batch.py`)."""

    K = K
    GAME = RollWriteGame

    def __init__(self, batch_size: int = 1024, num_players: int | None = None, autoreset: bool = True,
                 game: RollWriteGame | None = None, **config):
        batch_size = check_batch_size(batch_size)
        game = self._game(num_players, game, config)
        if game.rounds > K.MAXR:
            raise ValueError(f"config key 'rounds': the batched engine holds at most {K.MAXR} rounds, "
                             f"the game has {game.rounds}")
        self.game = g = game
        self.observation_shape = tuple(g.observation_shape)
        self._arrays(batch_size, g.num_players, g.num_actions, autoreset)
        self._tables(g)

    def _tables(self, g: RollWriteGame) -> None:
        """The game's tables as arrays for the kernels (built once)."""
        sh = g.sheet
        P = np.zeros(K.NUM_P, dtype=np.int64)
        vals = {
            K.P_N: g.num_players, K.P_DICE: g.dice, K.P_PERROUND: g.per_round, K.P_SLOTS: g.slots,
            K.P_L: g.num_lab_slots, K.P_T: g.T, K.P_TCONTAM: g.T_CONTAM, K.P_CROSS0: g.cross0,
            K.P_CIRCLE: g.circle_id, K.P_ROUNDS: g.rounds, K.P_MAXTURNS: g.config["max_turns"],
            K.P_WTC: int(g.wild_then_contaminate), K.P_WBOXES: sh.wildcard_boxes, K.P_WSTART: sh.wildcards_at_start,
            K.P_SPEED: sh.speed_bonus, K.P_WPTS: sh.wildcard_points, K.P_FIRST: g.config["first_player"],
            K.P_A: g.num_actions, K.P_OBS: g.layout.size, K.P_LR: len(sh.lab_values), K.P_K: len(g.all_lab_cards),
            K.P_CARD0: g.card_index[0], K.P_CARD1: g.card_index[1], K.P_AUTORESET: int(self.autoreset),
            K.O_GRID: g.o_grid, K.O_LAB: g.o_lab, K.O_WILD: g.o_wild, K.O_VIRUS: g.o_virus, K.O_CURE: g.o_cure,
            K.O_RES: g.o_res, K.O_CON: g.o_con, K.O_TRIAL: g.o_trial, K.O_TRIALOWN: g.o_trialown,
            K.O_LABSLOT: g.o_labslot, K.O_LABOWN: g.o_labown, K.O_LABCARDS: g.o_labcards, K.O_ROUND: g.o_round,
            K.O_PRIO: g.o_prio, K.O_PTAKEN: g.o_ptaken, K.O_DEC: g.o_dec, K.O_XCOL: g.o_xcol, K.O_CHG: g.o_chg,
        }
        for k, v in vals.items():
            P[k] = v
        TB = np.zeros(K.NUM_TB, dtype=np.int64)
        TB[:K.NUM_P] = P
        TB[K.T_FULL:K.T_FULL + 5] = list(sh.full) + [sh.lab_full]
        for c in range(4):
            for v in range(13):
                lines = sh.box_lines[c][v]
                if len(lines) > 2:
                    raise ValueError(f"{sh.path}: a box in more than one row and one column cannot be batched")
                TB[K.T_BLN + 13 * c + v] = len(lines)
                for t, (m, icon) in enumerate(lines):
                    TB[K.T_BLM + 26 * c + 2 * v + t] = m
                    TB[K.T_BLI + 26 * c + 2 * v + t] = icon
        TB[K.T_LABADV:K.T_LABADV + 13] = sh.lab_advantage
        for j in range(g.num_lab_slots):
            tab = g.slot_result[j]
            for v in range(1, 7):
                if g.slots == 1:
                    TB[K.T_SLOTRES + 49 * j + 7 * v] = tab[v]
                else:
                    for o in range(1, 7):
                        TB[K.T_SLOTRES + 49 * j + 7 * v + o] = tab[v][o] if j % 2 == 0 else tab[o][v]
        TB[K.T_WILDID:K.T_WILDID + 49] = np.array(g.wild_id).ravel()
        if len(sh.points) > 13 or g.num_actions > K.MAXA:
            raise ValueError(f"{sh.path}: grids of more than 12 boxes cannot be batched")
        TB[K.T_PTS:K.T_PTS + len(sh.points)] = sh.points
        TB[K.T_LABPOS:K.T_LABPOS + 13] = g.lab_pos
        A = g.num_actions
        TB[K.T_KIND:K.T_KIND + A] = g.act_kind
        TB[K.T_A1:K.T_A1 + A] = g.act_a
        TB[K.T_A2:K.T_A2 + A] = g.act_b
        self.TB = TB
        self.FS = np.array([g._wild_scale, g._dice_scale, g._contam_scale], dtype=np.float64)

    # -- the batch API ------------------------------------------------------------------------------
    def current_player(self) -> np.ndarray:
        """(B,) seat to decide in each game; -1 where the game is over."""
        S = self.S
        cp = np.where(S[:, K.PLEN] > 0, S[:, K.PEND] // 16, (S[:, K.STARTER] + S[:, K.PLACED]) % self.num_players)
        return np.where(S[:, K.TERM] != 0, -1, cp)

    def is_terminal(self) -> np.ndarray:
        return self.S[:, K.TERM] != 0

    def _observe(self, seats: np.ndarray, out: np.ndarray) -> None:
        K.observe_batch(self.S, seats, self.TB, self.FS, out)

    def scores(self) -> np.ndarray:
        """(B, n) the final evaluation of every game as it stands."""
        return self._outcome()[0]

    # -- one game out of the batch ------------------------------------------------------------------
    def to_dict(self, i: int) -> dict:
        """Game i as RollWriteState.to_dict() gives it (load it with game.state_from_dict)."""
        g, n, s = self.game, self.num_players, self.S[i].tolist()
        L = g.num_lab_slots
        d = {"env_id": g.env_id, "num_players": n}
        d["reserve"] = [s[K.RES + 7 * p:K.RES + 7 * p + 7] for p in range(n)]
        d["trial"] = s[K.TRIAL:K.TRIAL + 8]
        d["trial_own"] = s[K.TOWN:K.TOWN + 8]
        d["lab"] = s[K.LAB:K.LAB + L]
        d["lab_own"] = s[K.LOWN:K.LOWN + L]
        d["contam"] = [s[K.CONTAM + 7 * p:K.CONTAM + 7 * p + 7] for p in range(n)]
        d["grid"] = [s[K.GRID + 4 * p:K.GRID + 4 * p + 4] for p in range(n)]
        d["labrow"] = s[K.LABROW:K.LABROW + n]
        d["wild"] = s[K.WILD:K.WILD + n]
        d["wused"] = s[K.WUSED:K.WUSED + n]
        d["virus"] = [s[K.VIRUS + K.MAXR * p:K.VIRUS + K.MAXR * p + s[K.RND]] for p in range(n)]
        d["cure"] = [s[K.CURE + 4 * p:K.CURE + 4 * p + 4] for p in range(n)]
        d.update(rnd=s[K.RND], priority=s[K.PRIO], starter=s[K.STARTER], placed=s[K.PLACED],
                 wild_die=s[K.WDIE], turns=s[K.TURNS])
        d["pending"] = [[e // 16, (e // 8) % 2, e % 8 - 1] for e in s[K.PEND:K.PEND + s[K.PLEN]]]
        d["found"] = [[e // 4, e % 4] for e in s[K.FOUND:K.FOUND + s[K.FOUNDN]]]
        d["prio_taken"] = bool(s[K.PTAKEN])
        d["terminal"] = bool(s[K.TERM])
        d["truncated"] = bool(s[K.TRUNC])
        d["rng"] = pcg64.to_state_dict(self.RS[i])
        return d

    def load(self, i: int, state) -> None:
        """Put a scalar RollWriteState (or its to_dict(), checked by state_from_dict) into slot i; the mask of
        slot i is recomputed, its seed becomes -1 (unknown: the game did not start from a seed here)."""
        i = self._check_slot(i)
        g, n = self.game, self.num_players
        d = state if isinstance(state, dict) else state.to_dict()
        g.state_from_dict(d)                       # the same checks as for any loaded state
        pend, found = d["pending"], d["found"]
        if len(pend) > K.QCAP or d["rnd"] > K.MAXR:
            raise ValueError(f"state dict: more pending decisions or rounds than slot {i} holds")
        row = np.zeros(K.ROW, dtype=np.int64)
        row[[K.RND, K.PRIO, K.STARTER, K.PTAKEN, K.PLACED, K.WDIE, K.TURNS, K.TERM, K.TRUNC, K.PLEN, K.FOUNDN]] = [
            d["rnd"], d["priority"], d["starter"], d["prio_taken"], d["placed"], d["wild_die"], d["turns"],
            d["terminal"], d["truncated"], len(pend), len(found)]
        L = g.num_lab_slots
        row[K.TRIAL:K.TRIAL + 8], row[K.TOWN:K.TOWN + 8] = d["trial"], d["trial_own"]
        row[K.LAB:K.LAB + 4], row[K.LOWN:K.LOWN + 4] = -1, -1
        row[K.LAB:K.LAB + L], row[K.LOWN:K.LOWN + L] = d["lab"], d["lab_own"]
        row[K.LAB + L:K.LAB + 4] = 0
        for p in range(n):
            row[K.RES + 7 * p:K.RES + 7 * p + 7] = d["reserve"][p]
            row[K.CONTAM + 7 * p:K.CONTAM + 7 * p + 7] = d["contam"][p]
            row[K.GRID + 4 * p:K.GRID + 4 * p + 4] = d["grid"][p]
            row[K.CURE + 4 * p:K.CURE + 4 * p + 4] = d["cure"][p]
            row[K.VIRUS + K.MAXR * p:K.VIRUS + K.MAXR * p + len(d["virus"][p])] = d["virus"][p]
            row[K.VSUM + p] = sum(d["virus"][p])
        row[K.LABROW:K.LABROW + n], row[K.WILD:K.WILD + n], row[K.WUSED:K.WUSED + n] = d["labrow"], d["wild"], d["wused"]
        for k, (q, kind, col) in enumerate(pend):
            row[K.PEND + k] = 16 * q + 8 * kind + col + 1
        for k, (q, c) in enumerate(found):
            row[K.FOUND + k] = 4 * q + c
        self._put(i, row, d["rng"])
