"""Self-play on the batched Virus & Co engine: a Gymnasium `VectorEnv` and an SB3 `VecEnv` over `VirusCoBatch`.

The contract (`SelfPlayEnv`'s, for B games at once) and the two faces are `core/batched_vector.py`'s:

| | |
|---|---|
| `VirusCoVectorEnv(num_envs, num_players, opponent, seed, **game_config)` | `gymnasium.vector.VectorEnv`, autoreset mode SAME_STEP |
| `VirusCoVecEnv(...)` | `stable_baselines3` `VecEnv` with `action_masks()` (MaskablePPO) |
| opponent | `"random"` (drawn in the compiled kernel) or a callable `f(obs, mask) -> actions` on `(B, obs)` / `(B, A)` arrays, e.g. `policy_opponent(model)`; Virus & Co's heuristic has no batched version yet |

Every game's deals come from its own seed (`VirusCoBatch`): `seed` fixes the whole run.
"""
from __future__ import annotations

from ..core.batched_vector import BatchedSelfPlay, BatchedVecEnv, BatchedVectorEnv, policy_opponent  # noqa: F401
from .batched import VirusCoBatch


def self_play(num_envs: int = 256, num_players: int | None = None, opponent="random", seed: int = 0,
              **game_config) -> BatchedSelfPlay:
    """The self-play loop of both faces on a VirusCoBatch of `num_envs` games."""
    if opponent != "random" and not callable(opponent):
        raise ValueError("opponent must be 'random' or a callable f(obs, mask) -> actions (Virus & Co has no "
                         f"batched heuristic), got {opponent!r}")
    return BatchedSelfPlay(VirusCoBatch(num_envs, num_players=num_players, autoreset=True, **game_config),
                           opponent, seed)


class VirusCoVectorEnv(BatchedVectorEnv):
    """Gymnasium VectorEnv over Virus & Co self-play (see the module docstring)."""

    def __init__(self, num_envs: int = 256, num_players: int | None = None, opponent="random", seed: int = 0,
                 **game_config):
        super().__init__(self_play(num_envs, num_players, opponent, seed, **game_config))


class VirusCoVecEnv(BatchedVecEnv):
    """stable-baselines3 VecEnv over Virus & Co self-play (see the module docstring); MaskablePPO-ready."""

    def __init__(self, num_envs: int = 256, num_players: int | None = None, opponent="random", seed: int = 0,
                 **game_config):
        super().__init__(self_play(num_envs, num_players, opponent, seed, **game_config))
