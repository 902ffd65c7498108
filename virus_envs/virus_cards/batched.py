"""B games of VIRUS! stepped together: arrays in, arrays out (`VirusCardsBatch`).

    from virus_envs.virus_cards.batched import VirusCardsBatch
    b = VirusCardsBatch(1024, num_players=4)         # any VirusCardsGame config: colour_rule="card_or_organ", ...
    b.reset(seeds=range(1024))                       # game i deals what new_initial_state(seed=i) deals
    rng = np.random.default_rng(0)
    while True:
        out = b.step(b.random_actions(rng))          # one action per game, for its current player
        out.done, out.returns                        # games that just ended, their returns (then reset)

Same rules as the scalar engine (`game.py`), carried out by `kernels.py`; masks and observations
are `(B, num_actions)` / `(B, obs_size)` arrays equal, game by game, to `legal_action_mask()` and
`observation(p)` of the scalar state (tests/virus_cards/test_vc_batched.py plays both side by side).
The batch holds every hand and the deck's order, as the scalar state does; `observation(seats)` writes
seat p's vector only from what p may see (its own hand, the cards of other hands drawn from a
turned-over pile, the bodies, the discard pile, a public deck), as `encoding.encode` does.

Chance: each game has its own PCG64 generator, identical to numpy's (`core/pcg64.py`): a game
started with seed s shuffles and deals what `VirusCardsGame.new_initial_state(seed=s)` does (and
draws the first player with it under `first_player=-1`). With `autoreset` (the default) a finished
game starts the next one at once with seed `pcg64.next_seed(s)`; `step` reports the finished game's
seed, scores and returns, so any game of a run replays alone with the scalar engine. `to_dict(i)`
gives game i as the scalar engine's state dict (`game.state_from_dict` loads it, rng included).

Speed comes from numba (`pip install virus_envs[fast]`); without it the same kernels run as plain
Python: identical results, far slower (docs/scale.md has the figures).
"""
from __future__ import annotations

import numpy as np

from ..core import pcg64
from ..core.batch import BatchEngine, BatchStep, check_batch_size
from . import kernels as K
from .game import VirusCardsGame

__all__ = ["VirusCardsBatch", "BatchStep"]


class VirusCardsBatch(BatchEngine):
    """`batch_size` games of one VirusCardsGame config; see the module docstring (reset, step, masks,
    seeds, random actions, observation, returns, state(i): `core/batch.py`)."""

    K = K
    GAME = VirusCardsGame

    def __init__(self, batch_size: int = 1024, num_players: int | None = None, autoreset: bool = True,
                 game: VirusCardsGame | None = None, **config):
        batch_size = check_batch_size(batch_size)
        game = self._game(num_players, game, config)
        if game.deck.size > K.MAXD:
            raise ValueError(f"config key 'deck'/'deck_file': the batched engine holds decks of at most {K.MAXD} "
                             f"cards, this one has {game.deck.size}")
        self.game = g = game
        self.observation_shape = tuple(g.observation_shape)
        self._arrays(batch_size, g.num_players, g.num_actions, autoreset)
        self._tables(g)

    def _tables(self, g: VirusCardsGame) -> None:
        """The game's tables as arrays for the kernels (built once)."""
        n, A, T, c = g.num_players, g.A, g.enc, g.config
        TB = np.zeros(K.NUM_TB, dtype=np.int64)
        vals = {
            K.P_N: n, K.P_D: g.deck.size, K.P_MAXTURNS: c["max_turns"], K.P_FIRST: c["first_player"],
            K.P_MEDANY: int(c["medicine_on_any_body"]), K.P_VIROWN: int(c["virus_on_own_body"]),
            K.P_CRULE: ("card", "card_or_organ", "card_and_organ").index(c["colour_rule"]),
            K.P_A: g.num_actions, K.P_OBS: T.size, K.P_AUTORESET: int(self.autoreset),
            K.O_HAND: T.hand, K.O_HPUB: T.hand_public, K.O_KNOWN: T.known_hands, K.O_BODIES: T.bodies.start,
            K.O_HSIZES: T.hand_sizes, K.O_DISCARD: T.discard.start, K.O_DSIZE: T.deck_size,
            K.O_DPUB: T.deck_public, K.O_DCOUNTS: T.deck_counts.start, K.O_DTOP: T.deck_top, K.O_PHASE: T.phase,
            K.O_TFIRST: T.transplant_first, K.O_TOACT: T.to_act, K.O_TURN: T.turn,
        }
        for k, v in vals.items():
            TB[k] = v
        D = g.deck.size
        TB[K.T_KIND:K.T_KIND + D] = g.KIND
        TB[K.T_COL:K.T_COL + D] = g.COLOUR
        TB[K.T_TREAT:K.T_TREAT + D] = g.TREAT
        TB[K.T_CTYPE:K.T_CTYPE + D] = g.CTYPE
        for h in range(3):
            TB[K.T_PLAY + h] = A.play[h]
            for r in range(n):
                TB[K.T_PLAYER + K.MAXP * h + r] = A.player[h][r]
                for col in range(5):
                    TB[K.T_SLOT + 30 * h + 5 * r + col] = A.slot[h][r][col]
        TB[K.T_DISC:K.T_DISC + 8] = A.discard
        for r in range(n):
            for col in range(5):
                TB[K.T_PICK + 5 * r + col] = A.pick[r][col]
                for d in range(5):
                    TB[K.T_MOVE + 30 * col + 5 * r + d] = A.move[col][r][d]
        for a, pl in enumerate(A.payload):
            TB[K.T_AK + a] = pl[0]
            for j, x in enumerate(pl[1:]):
                TB[K.T_A1 + K.MAXA * j + a] = x
        self.TB = TB
        self.TF = np.concatenate([T.type_scale, T.slot_rows.ravel()]).astype(np.float32)
        self.FD = np.array([T.inv_deck, T.inv_turns], dtype=np.float64)

    # -- the batch API (and core/batch.py's) ---------------------------------------------------------
    def is_terminal(self) -> np.ndarray:
        S = self.S
        return (S[:, K.WIN] >= 0) | (S[:, K.TRUNC] != 0)

    def current_player(self) -> np.ndarray:
        """(B,) seat to decide in each game; -1 where the game is over."""
        return np.where(self.is_terminal(), -1, self.S[:, K.TP])

    def _observe(self, seats: np.ndarray, out: np.ndarray) -> None:
        K.observe_batch(self.S, seats, self.TB, self.TF, self.FD, out)

    def scores(self) -> np.ndarray:
        """(B, n) healthy organs in each body, as the games stand."""
        return self._outcome()[0]

    # -- one game out of the batch ------------------------------------------------------------------
    def to_dict(self, i: int) -> dict:
        """Game i as VirusCardsState.to_dict() gives it (load it with game.state_from_dict)."""
        g, n, s = self.game, self.num_players, self.S[i].tolist()
        hands = [s[K.HAND + 3 * p:K.HAND + 3 * p + s[K.HANDN + p]] for p in range(n)]
        att = [[s[K.ATT + 10 * p + 2 * c:K.ATT + 10 * p + 2 * c + s[K.ATTN + 5 * p + c]] for c in range(5)]
               for p in range(n)]
        return {
            "env_id": g.env_id, "num_players": n,
            "hands": hands, "organ": [s[K.ORG + 5 * p:K.ORG + 5 * p + 5] for p in range(n)], "att": att,
            "deck": s[K.DECK:K.DECK + s[K.DECKN]], "discard": s[K.DISC:K.DISC + s[K.DISCN]],
            "deck_public": bool(s[K.DPUB]),
            "hand_public": [[bool(s[K.PUB + c]) for c in h] for h in hands],
            "turn_player": s[K.TP], "stage": s[K.STAGE],
            "pending": [s[K.PA], s[K.PC]] if s[K.PA] >= 0 else None,
            "turns": s[K.TURNS], "winner": s[K.WIN], "truncated": bool(s[K.TRUNC]),
            "rng": pcg64.to_state_dict(self.RS[i]),
        }

    def load(self, i: int, state) -> None:
        """Put a scalar VirusCardsState (or its to_dict(), checked by state_from_dict) into slot i; the mask
        of slot i is recomputed, its seed becomes -1 (unknown: the game did not start from a seed here)."""
        i = self._check_slot(i)
        g, n = self.game, self.num_players
        d = state if isinstance(state, dict) else state.to_dict()
        g.state_from_dict(d)                       # the same checks as for any loaded state
        row = np.zeros(K.ROW, dtype=np.int64)
        row[K.HAND:K.CODE] = -1
        row[K.ATTN:K.ATT] = 0
        row[[K.TP, K.STAGE, K.TURNS, K.WIN, K.TRUNC, K.DPUB, K.DECKN, K.DISCN]] = [
            d["turn_player"], d["stage"], d["turns"], d["winner"], d["truncated"], d["deck_public"],
            len(d["deck"]), len(d["discard"])]
        row[[K.PA, K.PC]] = d["pending"] if d["pending"] is not None else [-1, -1]
        row[K.DECK:K.DECK + len(d["deck"])] = d["deck"]
        row[K.DISC:K.DISC + len(d["discard"])] = d["discard"]
        for p in range(n):
            h = d["hands"][p]
            row[K.HANDN + p] = len(h)
            row[K.HAND + 3 * p:K.HAND + 3 * p + len(h)] = h
            for c, known in zip(h, d["hand_public"][p]):
                row[K.PUB + c] = int(known)
            row[K.ORG + 5 * p:K.ORG + 5 * p + 5] = d["organ"][p]
            for c in range(5):
                a = d["att"][p][c]
                row[K.ATTN + 5 * p + c] = len(a)
                row[K.ATT + 10 * p + 2 * c:K.ATT + 10 * p + 2 * c + len(a)] = a
        self.S[i] = row
        K.recount(self.S, i, self.TB)
        pcg64.from_state_dict(d["rng"], self.RS[i])
        self.SEEDS[i] = -1
        K.legal_mask(self.S, i, self.M, self.TB)
        self._ready = True
