"""Self-play on the batched Roll & Write engine: a Gymnasium `VectorEnv` and an SB3 `VecEnv` over `RollWriteBatch`.

The contract (`SelfPlayEnv`'s, for B games at once) and the two faces are `core/batched_vector.py`'s;
here they are built on `RollWriteBatch` with Roll & Write's opponents:

| | |
|---|---|
| `RollWriteVectorEnv(num_envs, num_players, opponent, seed, **game_config)` | `gymnasium.vector.VectorEnv`, autoreset mode SAME_STEP |
| `RollWriteVecEnv(...)` | `stable_baselines3` `VecEnv` with `action_masks()` (MaskablePPO) |
| opponent | `"random"`, a heuristic spec (`"heuristic"`, `"heuristic:cautious"`, `"heuristic?deny=1"`: the scalar agent's decisions, taken by `batched_heuristic.py`'s kernel) or a callable `f(obs, mask) -> actions`, e.g. `policy_opponent(model)` |

Every game's dice come from its own seed (`RollWriteBatch`): `seed` fixes the whole run.
"""
from __future__ import annotations

from ..core.batched_vector import BatchedSelfPlay as _SelfPlay
from ..core.batched_vector import BatchedVecEnv, BatchedVectorEnv, is_heuristic_spec, policy_opponent  # noqa: F401
from .batched import RollWriteBatch
from .batched_heuristic import BatchedHeuristic


class BatchedSelfPlay(_SelfPlay):
    """The self-play loop of both faces on a RollWriteBatch of `num_envs` games."""

    def __init__(self, num_envs: int = 256, num_players: int | None = None, opponent="random", seed: int = 0,
                 **game_config):
        heuristic = is_heuristic_spec(opponent)
        if opponent != "random" and not heuristic and not callable(opponent):
            raise ValueError(f"opponent must be 'random'{self._heuristic_hint()} or a callable f(obs, mask) -> "
                             f"actions, got {opponent!r}")
        batch = RollWriteBatch(num_envs, num_players=num_players, autoreset=True, **game_config)
        # the scalar heuristic's decisions, taken for the whole batch in a compiled loop
        super().__init__(batch, opponent, seed, BatchedHeuristic(batch, opponent) if heuristic else None)

    @staticmethod
    def _heuristic_hint() -> str:
        return ", a heuristic spec ('heuristic', 'heuristic:cautious', ...)"


class RollWriteVectorEnv(BatchedVectorEnv):
    """Gymnasium VectorEnv over Roll & Write self-play (see the module docstring)."""

    def __init__(self, num_envs: int = 256, num_players: int | None = None, opponent="random", seed: int = 0,
                 **game_config):
        super().__init__(BatchedSelfPlay(num_envs, num_players, opponent, seed, **game_config))


class RollWriteVecEnv(BatchedVecEnv):
    """stable-baselines3 VecEnv over Roll & Write self-play (see the module docstring); MaskablePPO-ready."""

    def __init__(self, num_envs: int = 256, num_players: int | None = None, opponent="random", seed: int = 0,
                 **game_config):
        super().__init__(BatchedSelfPlay(num_envs, num_players, opponent, seed, **game_config))
