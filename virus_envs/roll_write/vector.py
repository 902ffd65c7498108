"""Self-play on the batched Roll & Write: a Gymnasium `VectorEnv` and an SB3 `VecEnv` over `RollWriteBatch`.

The faces are `core/batched_selfplay.py`'s (its docstring has the contract: one learner seat per
game, the opponents' decisions inside `step`, reward at the game's end); this module pins the engine
and adds the batched heuristic as an opponent:

| | |
|---|---|
| `RollWriteVectorEnv(num_envs, num_players, opponent, seed, **game_config)` | `gymnasium.vector.VectorEnv`, autoreset mode SAME_STEP |
| `RollWriteVecEnv(...)` | `stable_baselines3` `VecEnv` with `action_masks()` (what MaskablePPO asks for) |
| opponent | `"random"`, a heuristic spec (`"heuristic"`, `"heuristic:cautious"`, `"heuristic?deny=1"`: the scalar agent's decisions, taken by `batched_heuristic.py`'s kernel) or a callable `f(obs, mask) -> actions`, e.g. `policy_opponent(model)` |

Every game's dice come from its own seed (`RollWriteBatch`): `seed` fixes the whole run.
"""
from __future__ import annotations

from ..core.batched_selfplay import BatchedSelfPlay as _SelfPlay
from ..core.batched_selfplay import BatchVecEnv, BatchVectorEnv, policy_opponent
from .batched import RollWriteBatch
from .batched_heuristic import BatchedHeuristic

__all__ = ["BatchedSelfPlay", "RollWriteVectorEnv", "RollWriteVecEnv", "policy_opponent"]


class BatchedSelfPlay(_SelfPlay):
    """Self-play over RollWriteBatch, with the batched heuristic as an opponent."""

    BATCH = RollWriteBatch
    HEURISTIC = "'heuristic', 'heuristic:cautious', ..."

    def _heuristic(self, batch, spec):
        return BatchedHeuristic(batch, spec)


class RollWriteVectorEnv(BatchVectorEnv):
    """Gymnasium VectorEnv over Roll & Write's BatchedSelfPlay."""

    SELFPLAY = BatchedSelfPlay


class RollWriteVecEnv(BatchVecEnv):
    """stable-baselines3 VecEnv over Roll & Write's BatchedSelfPlay; MaskablePPO-ready."""

    SELFPLAY = BatchedSelfPlay
