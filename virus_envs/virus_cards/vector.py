"""Self-play on the batched VIRUS!: a Gymnasium `VectorEnv` and an SB3 `VecEnv` over `VirusCardsBatch`.

The faces are `core/batched_selfplay.py`'s (its docstring has the contract: one learner seat per
game, drawn at each game's start; the opponents' decisions inside `step`; reward 0 until the game
ends, then the learner's return). Opponents: `"random"` (drawn in the compiled kernel) or a callable
`f(obs, mask) -> actions` on `(B, obs)` / `(B, A)` arrays, e.g. `policy_opponent(model)`; VIRUS! has
no batched heuristic yet, so heuristic specs are refused (ValueError).

    env = VirusCardsVectorEnv(256, num_players=4, seed=0)       # any VirusCardsGame config as keywords
    obs, info = env.reset()                                     # info["action_mask"]: (256, num_actions)

Every game's deal comes from its own seed (`VirusCardsBatch`): `seed` fixes the whole run.
"""
from __future__ import annotations

from ..core.batched_selfplay import BatchedSelfPlay, BatchVecEnv, BatchVectorEnv, policy_opponent
from .batched import VirusCardsBatch

__all__ = ["VirusCardsSelfPlay", "VirusCardsVectorEnv", "VirusCardsVecEnv", "policy_opponent"]


class VirusCardsSelfPlay(BatchedSelfPlay):
    """Self-play over VirusCardsBatch: random or callable opponents."""

    BATCH = VirusCardsBatch


class VirusCardsVectorEnv(BatchVectorEnv):
    """Gymnasium VectorEnv over VirusCardsSelfPlay."""

    SELFPLAY = VirusCardsSelfPlay


class VirusCardsVecEnv(BatchVecEnv):
    """stable-baselines3 VecEnv over VirusCardsSelfPlay; MaskablePPO-ready."""

    SELFPLAY = VirusCardsSelfPlay
