"""The ONE adapter from an engine (core.game.Game) to a PettingZoo AECEnv.

No game has its own env class: `GameEnv(game)` serves all four.

| | |
|---|---|
| agents | `player_0 ... player_{n-1}` (seat i = `player_i`) |
| action space | `Discrete(game.num_actions)` |
| observation space | `Dict(observation=Box(0, high, game.observation_shape, float32), action_mask=Box(0, 1, (num_actions,), int8))` |
| rewards | the engine's `returns()` when the game ends (0 before); see each game's docstring |
| infos | `scores` (game points per seat), `phase` (the decision being taken) and the game's `State.info()` (e.g. `ranking` of a finished co-operative game) |
| render modes | `ansi` (the text table), `human` (printed after every step), `rgb_array` (the picture of the full table, uint8 HxWx3; `State.picture(p)` is one seat's SVG) |

The agent to act is always the engine's `current_player()`, which may change mid-turn (a
decision the rules give to another player). `raw_env` raises `IllegalActionError` on an illegal
action and leaves the game as it was; the wrapped `env` follows PettingZoo's convention: the
offender gets -1 and the game ends for everyone. In a co-operative game (`game.cooperative`) the
team shares one result, so an illegal move gives every seat -1. `step`, `observe` and `last`
before the first `reset` raise gymnasium's `ResetNeeded`.
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .seeding import make_rng


class GameEnv(AECEnv):
    """PettingZoo AECEnv over any engine of this package."""

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "name": "virus_env", "is_parallelizable": False,
                "render_fps": 2}

    def __init__(self, game, render_mode: str | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.metadata = dict(self.metadata, name=game.env_id)
        self.game = game
        self.render_mode = render_mode
        n = game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._agent_index = {a: i for i, a in enumerate(self.possible_agents)}
        high = float(getattr(game, "observation_high", 1.0))
        obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, high, shape=tuple(game.observation_shape), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(game.num_actions,), dtype=np.int8),
        })
        act_space = spaces.Discrete(game.num_actions)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._zero_mask = np.zeros(game.num_actions, dtype=np.int8)
        self._seed_rng = None
        self.state = None
        self.agents = []

    def _need_reset(self, what: str) -> None:
        if self.state is None:
            raise ResetNeeded(f"{self.game.env_id}: call reset() before {what}()")

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # -- episode ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None):
        """Start a new game. A seed fixes this game and the seeds of the following unseeded resets."""
        if seed is not None:
            self._seed_rng = make_rng(seed)
        elif self._seed_rng is None:
            self._seed_rng = make_rng(None)
        game_seed = int(self._seed_rng.integers(0, 2**63 - 1))
        self.state = self.game.new_initial_state(seed=game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._update_infos()
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def observe(self, agent):
        self._need_reset("observe")
        p = self._agent_index[agent]
        s = self.state
        if not s.is_terminal() and s.current_player() == p:
            mask = s.legal_action_mask().astype(np.int8)
        else:
            mask = self._zero_mask.copy()
        return {"observation": s.observation(p), "action_mask": mask}

    def last(self, observe: bool = True):
        self._need_reset("last")
        return super().last(observe)

    def step(self, action):
        self._need_reset("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        s = self.state
        s.apply_action(action)  # IllegalActionError leaves everything as it was
        self._cumulative_rewards[agent] = 0.0
        if s.is_terminal():
            ret = s.returns()
            truncated = bool(getattr(s, "is_truncated", lambda: False)())
            for i, a in enumerate(self.agents):
                self.rewards[a] = float(ret[i])
                if truncated:
                    self.truncations[a] = True
                else:
                    self.terminations[a] = True
            self._update_infos()
            self._accumulate_rewards()
            # the dead are visited in seat order from the one who just acted
            self.agent_selection = agent
        else:
            self._update_infos()
            self.agent_selection = self.possible_agents[s.current_player()]
        if self.render_mode == "human":
            self.render()

    def _update_infos(self):
        s = self.state
        scores = [float(x) for x in s.scores()]
        phase = "game over" if s.is_terminal() else s.phase()
        extra = s.info()
        for a in self.agents:
            self.infos[a] = {"scores": scores, "phase": phase, **extra}

    def render(self):
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self.render_mode == "rgb_array":
            # the full table as pixels (virus_envs/<game>/picture.py); a seat's own: state.picture(p). Through the
            # state's method: a state may draw itself otherwise (the board game's whole campaign: its game's table)
            from .picture import rasterize
            if self.state is None:
                raise RuntimeError("render: call reset() first")
            return rasterize(self.state.picture())
        text = str(self.state) if self.state is not None else "(not reset)"
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self):
        pass


def raw_env(game, render_mode: str | None = None) -> GameEnv:
    """The unwrapped env: raises IllegalActionError on an illegal action."""
    return GameEnv(game, render_mode=render_mode)


class TeamTerminateIllegalWrapper(wrappers.TerminateIllegalWrapper):
    """A co-operative game's TerminateIllegalWrapper: the team shares one result, so an illegal move ends
    the game with the illegal reward for every seat (not the offender's alone, the partners' 0)."""

    def step(self, action):
        was, offender = self._terminated, self.agent_selection
        super().step(action)
        if self._terminated and not was:
            u = self.env.unwrapped
            for a in u.agents:
                if a != offender:
                    u.rewards[a] = float(self._illegal_value)
                    u._cumulative_rewards[a] += float(self._illegal_value)


def wrapped_env(game, render_mode: str | None = None):
    """PettingZoo's standard wrappers: an illegal action gives the offender -1 and ends the game (every seat
    -1 in a co-operative game)."""
    e = GameEnv(game, render_mode=render_mode)
    illegal = TeamTerminateIllegalWrapper if getattr(game, "cooperative", False) else wrappers.TerminateIllegalWrapper
    e = illegal(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
