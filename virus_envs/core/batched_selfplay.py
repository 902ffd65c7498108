"""Self-play on a batched engine: a Gymnasium `VectorEnv` and an SB3 `VecEnv` over B games in arrays.

The same contract as `agents/sb3_env.py`'s `SelfPlayEnv` (one learner seat per game, drawn
uniformly at each game's start; the opponents' decisions happen inside `step`; reward 0 until the
game ends, then the learner's return, whoever moved last), for B games at once, over any batched
engine with the interface of `RollWriteBatch` / `VirusCardsBatch` (`reset(seeds)`, `step(actions,
partial=True)`, `current_player()`, `legal_action_mask()`, `observation(seats)`, `random_actions(rng)`).
A game's package pins the engine (`BATCH`) and, where it has one, its batched heuristic
(`_heuristic`): `roll_write/vector.py`, `virus_cards/vector.py`.

| | |
|---|---|
| `BatchVectorEnv` | `gymnasium.vector.VectorEnv`, autoreset mode SAME_STEP: a finished game's slot already shows the next game's first learner observation |
| `BatchVecEnv` | `stable_baselines3` `VecEnv` with `action_masks()` (what MaskablePPO asks for) |
| observation | `(B, obs_size)` float32: each learner's own seat-relative view, as `observation(learner)` |
| masks | `action_masks()` (B, num_actions); Gymnasium also puts them in `infos["action_mask"]` |
| opponent | `"random"` (a uniformly drawn legal action, drawn in the compiled kernel), a heuristic spec where the game has a batched heuristic, or a callable `f(obs, mask) -> actions` on `(B, obs)` / `(B, A)` arrays, e.g. `policy_opponent(model)` for a frozen copy of the learner |
| termination | terminated when the game ends, also by the game's `max_turns` (`game_truncated` in the infos), as in `SelfPlayEnv`; there is no `final_obs` (a finished game's value is its return, nothing to bootstrap) |

Every game's chance comes from its own seed: `seed` fixes the whole run.
"""
from __future__ import annotations

import importlib.util

import gymnasium as gym
import numpy as np
from gymnasium import spaces


class BatchedSelfPlay:
    """The self-play loop both faces share: B games, a learner seat in each, batched opponents.

    Subclasses set `BATCH` (the batched engine's class) and, for a game with a batched heuristic,
    `HEURISTIC` (the opponent specs it takes, e.g. "'heuristic', 'heuristic:cautious', ...") and
    `_heuristic(batch, spec)` (a callable `(active) -> actions`)."""

    BATCH = None
    HEURISTIC = ""

    def __init__(self, num_envs: int = 256, num_players: int | None = None, opponent="random", seed: int = 0,
                 **game_config):
        heuristic = (bool(self.HEURISTIC) and isinstance(opponent, str)
                     and opponent.partition("?")[0].partition(":")[0] == "heuristic")
        if opponent != "random" and not heuristic and not callable(opponent):
            specs = f", a heuristic spec ({self.HEURISTIC})" if self.HEURISTIC else ""
            none = "" if self.HEURISTIC else " (this game has no batched heuristic)"
            raise ValueError(f"opponent must be 'random'{specs} or a callable f(obs, mask) -> actions{none}, "
                             f"got {opponent!r}")
        self.batch = self.BATCH(num_envs, num_players=num_players, autoreset=True, **game_config)
        self.B = self.batch.B
        self.n = self.batch.num_players
        self.opponent = opponent
        # the scalar heuristic's decisions, taken for the whole batch in a compiled loop
        self._heur = self._heuristic(self.batch, opponent) if heuristic else None
        self.rng = np.random.default_rng(seed)
        self.learner = np.zeros(self.B, dtype=np.int64)
        self._acts = np.empty(self.B, dtype=np.int64)

    def seed(self, seed) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self) -> np.ndarray:
        self.batch.reset(self.rng.integers(0, 2**62, self.B))
        self.learner[:] = self.rng.integers(0, self.n, self.B)
        r, d, t = np.zeros(self.B), np.zeros(self.B, dtype=bool), np.zeros(self.B, dtype=bool)
        self._advance(r, d, t)
        return self.batch.observation(self.learner)

    def step(self, actions):
        """The learners' actions, then the opponents' until every learner must decide again."""
        out = self.batch.step(actions)
        done = out.done.copy()
        trunc = out.truncated & done
        reward = np.zeros(self.B)
        if done.any():
            reward[done] = out.returns[done, self.learner[done]]
            self.learner[done] = self.rng.integers(0, self.n, int(done.sum()))
        self._advance(reward, done, trunc)
        return self.batch.observation(self.learner), reward, done, trunc

    def _advance(self, reward, done, trunc) -> None:
        b = self.batch
        while True:
            cp = b.current_player()
            wait = cp == self.learner
            if wait.all():
                return
            if self._heur is not None:
                acts = self._heur(~wait)
            elif self.opponent == "random":
                acts = b.random_actions(self.rng, self._acts)
            else:
                acts = np.asarray(self.opponent(b.observation(cp), b.legal_action_mask()), dtype=np.int64).copy()
            acts[wait] = -1
            out = b.step(acts, partial=True)
            d = out.done
            if d.any():                  # an opponent's move ended the game: the learner's last transition gets it
                reward[d] = out.returns[d, self.learner[d]]
                done |= d
                trunc |= out.truncated & d
                self.learner[d] = self.rng.integers(0, self.n, int(d.sum()))

    def action_masks(self) -> np.ndarray:
        return self.batch.legal_action_mask()

    def _heuristic(self, batch, spec):
        """The batched heuristic for an opponent spec (games with one override this; see HEURISTIC)."""
        raise NotImplementedError


def _spaces(batch):
    return (spaces.Box(0.0, 1.0, shape=batch.observation_shape, dtype=np.float32),
            spaces.Discrete(batch.num_actions))


class BatchVectorEnv(gym.vector.VectorEnv):
    """Gymnasium VectorEnv over a BatchedSelfPlay subclass `SELFPLAY` (see the module docstring)."""

    metadata = {"autoreset_mode": gym.vector.AutoresetMode.SAME_STEP}
    SELFPLAY = BatchedSelfPlay

    def __init__(self, num_envs: int = 256, num_players: int | None = None, opponent="random", seed: int = 0,
                 **game_config):
        self.core = self.SELFPLAY(num_envs, num_players, opponent, seed, **game_config)
        self.num_envs = self.core.B
        self.single_observation_space, self.single_action_space = _spaces(self.core.batch)
        self.observation_space = gym.vector.utils.batch_space(self.single_observation_space, self.num_envs)
        self.action_space = gym.vector.utils.batch_space(self.single_action_space, self.num_envs)

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self.core.seed(seed)
        obs = self.core.reset()
        return obs, {"action_mask": self.core.action_masks().copy()}

    def step(self, actions):
        obs, reward, done, trunc = self.core.step(np.asarray(actions, dtype=np.int64))
        infos = {"action_mask": self.core.action_masks().copy(), "game_truncated": trunc}
        return obs, reward, done, np.zeros(self.num_envs, dtype=bool), infos

    def action_masks(self) -> np.ndarray:
        return self.core.action_masks()


def _sb3_vecenv_base():
    from stable_baselines3.common.vec_env import VecEnv
    return VecEnv


class BatchVecEnv(_sb3_vecenv_base() if importlib.util.find_spec("stable_baselines3") else object):
    """stable-baselines3 VecEnv over a BatchedSelfPlay subclass `SELFPLAY` (see the module docstring);
    MaskablePPO-ready."""

    render_mode = None
    SELFPLAY = BatchedSelfPlay

    def __init__(self, num_envs: int = 256, num_players: int | None = None, opponent="random", seed: int = 0,
                 **game_config):
        self.core = self.SELFPLAY(num_envs, num_players, opponent, seed, **game_config)
        obs_space, act_space = _spaces(self.core.batch)
        super().__init__(self.core.B, obs_space, act_space)
        self._actions = None

    def reset(self):
        return self.core.reset()

    def step_async(self, actions) -> None:
        self._actions = np.asarray(actions, dtype=np.int64)

    def step_wait(self):
        obs, reward, done, trunc = self.core.step(self._actions)
        infos = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(done):
            infos[i]["game_truncated"] = bool(trunc[i])
        return obs, reward.astype(np.float32), done, infos

    def action_masks(self) -> np.ndarray:
        return self.core.action_masks()

    def seed(self, seed=None):
        self.core.seed(seed)
        return [seed] * self.num_envs

    def close(self) -> None:
        pass

    def _idx(self, indices):
        if indices is None:
            return range(self.num_envs)
        return [indices] if isinstance(indices, int) else list(indices)

    def get_attr(self, attr_name, indices=None):
        value = getattr(self, attr_name)
        return [value for _ in self._idx(indices)]

    def set_attr(self, attr_name, value, indices=None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name, *args, indices=None, **kwargs):
        if method_name == "action_masks":          # sb3_contrib.common.maskable.utils.get_action_masks
            m = self.core.action_masks()
            return [m[i] for i in self._idx(indices)]
        result = getattr(self, method_name)(*args, **kwargs)
        return [result for _ in self._idx(indices)]

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False for _ in self._idx(indices)]


def policy_opponent(model, deterministic: bool = False):
    """A batched opponent from a MaskablePPO model (e.g. a frozen copy of the learner)."""
    def act(obs, mask):
        return model.predict(obs, action_masks=mask, deterministic=deterministic)[0]
    return act
