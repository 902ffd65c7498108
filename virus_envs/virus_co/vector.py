"""Self-play on the batched Virus & Co: a Gymnasium `VectorEnv` and an SB3 `VecEnv` over `VirusCoBatch`.

The faces are `core/batched_selfplay.py`'s (its docstring has the contract: one learner seat per
game, drawn at each game's start; the opponents' decisions inside `step`; reward 0 until the game
ends, then the learner's return). This module pins the engine:

| | |
|---|---|
| `VirusCoVectorEnv(num_envs, num_players, opponent, seed, **game_config)` | `gymnasium.vector.VectorEnv`, autoreset mode SAME_STEP |
| `VirusCoVecEnv(...)` | `stable_baselines3` `VecEnv` with `action_masks()` (MaskablePPO) |
| `self_play(num_envs, num_players, opponent, seed, **game_config)` | the self-play loop both faces run (`VirusCoSelfPlay`) |
| opponent | `"random"` (drawn in the compiled kernel) or a callable `f(obs, mask) -> actions` on `(B, obs)` / `(B, A)` arrays, e.g. `policy_opponent(model)`; Virus & Co's heuristic has no batched version yet, so heuristic specs are refused (ValueError) |

Every game's deals come from its own seed (`VirusCoBatch`): `seed` fixes the whole run.
"""
from __future__ import annotations

from ..core.batched_selfplay import BatchedSelfPlay, BatchVecEnv, BatchVectorEnv, policy_opponent
from .batched import VirusCoBatch

__all__ = ["VirusCoSelfPlay", "VirusCoVectorEnv", "VirusCoVecEnv", "self_play", "policy_opponent"]


class VirusCoSelfPlay(BatchedSelfPlay):
    """Self-play over VirusCoBatch: random or callable opponents."""

    BATCH = VirusCoBatch


def self_play(num_envs: int = 256, num_players: int | None = None, opponent="random", seed: int = 0,
              **game_config) -> VirusCoSelfPlay:
    """The self-play loop of both faces on a VirusCoBatch of `num_envs` games."""
    return VirusCoSelfPlay(num_envs, num_players, opponent, seed, **game_config)


class VirusCoVectorEnv(BatchVectorEnv):
    """Gymnasium VectorEnv over VirusCoSelfPlay."""

    SELFPLAY = VirusCoSelfPlay


class VirusCoVecEnv(BatchVecEnv):
    """stable-baselines3 VecEnv over VirusCoSelfPlay; MaskablePPO-ready."""

    SELFPLAY = VirusCoSelfPlay
