"""The single-agent Gymnasium view of a multi-seat game, for self-play with sb3-contrib's MaskablePPO.

Why not the PettingZoo env plus a wrapper (as in PettingZoo's SB3 masking tutorial)? There the
transitions of all seats are fed to one learner: values mix viewpoints, and the loser's final
-1 is given to an agent that is no longer stepping, so it never reaches a transition. Here:

| | |
|---|---|
| episode | one game; at `reset` a learner seat is drawn uniformly (or `learner_seat`), and the other seats get opponents drawn from the pool |
| pool | agent specs (`random`, `heuristic`, `heuristic:<variant>`, ...) and `snapshot` (a frozen past copy of the learner, sampled among the last few), with weights |
| step | the learner's action, then every opponent decision inside `step()` until the learner must decide again or the game ends |
| observation | `observation(learner)` only: the learner's own seat-relative view (float32, `game.observation_shape`); with `obs="dict"`: `{"observation": that, "action_mask": the mask as int8}` (all zeros once the game is over: nothing is asked) |
| action mask | `action_masks()`: the engine's mask for the learner's decision (what MaskablePPO asks for) |
| illegal action | `illegal="raise"` (default): `IllegalActionError`, the game unchanged; `illegal="penalty"`: the episode ends at once with reward `illegal_reward` (default -1, as PettingZoo's classic games score an illegal move) and `info["illegal_action"] = True`, for learners without masks (plain PPO, DQN) and for `check_env` |
| reward | 0 until the game ends, then `returns()[learner]`, whoever made the last move: an opponent's winning move gives the learner its -1 on the learner's last transition |
| termination | `terminated=True` when the game ends, even by the game's own `max_turns` (its returns are defined, usually 0); `info["game_truncated"]` tells them apart |
| shaping (off by default) | `shaping=c > 0` adds potential-based shaping F = gamma * Phi(s') - Phi(s), Phi = c * (own score - best rival score) from `scores()`, Phi = 0 at the end: the shaping terms telescope, so the best policy for the return is unchanged (Ng, Harada & Russell 1999) while points gained now are credited now |
| potential (default: the score difference) | `potential="module:function"` replaces the score difference by `function(state, learner) -> float` (e.g. `virus_envs.agents.shaping:virus_lab_progress`, the team's progress towards the Antidote in the co-operative game, where there is no rival score); Phi = c * that, still 0 at the end |

Only the learner's decisions are transitions. A deal where the game ends before the learner
ever decides is re-dealt (it would have no transition to carry the return).
"""
from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium import spaces

import virus_envs
from virus_envs.agents.base import Decision, SearchHandle

__all__ = ["SelfPlayEnv", "SNAPSHOT", "pfsp_weights"]

#: the pool key meaning "a frozen past copy of the learner"
SNAPSHOT = "snapshot"


class SelfPlayEnv(gym.Env):
    """One learner seat against a pool of opponents; see the module docstring."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, env_id: str, num_players: int | None = None, game_config: dict | None = None,
                 opponents: dict | None = None, same_opponent: bool = True, snapshot_deterministic: bool = False,
                 shaping: float = 0.0, gamma: float = 1.0, render_mode: str | None = None, potential: str = "",
                 learner_seat: int | None = None, obs: str = "box", illegal: str = "raise",
                 illegal_reward: float = -1.0):
        """opponents: spec -> weight, or a list of specs (equal weights); default random only; 'snapshot'
        draws a frozen learner copy.

        same_opponent: one spec drawn per episode for all opponent seats (True) or one per seat.
        learner_seat: the learner's seat in every episode (None: drawn uniformly per episode).
        obs: "box" (the observation array) or "dict" (observation and action mask together).
        illegal: "raise" or "penalty" (see the module docstring).
        """
        from virus_envs import agents as agents_mod

        self.game = virus_envs.game(env_id, num_players, **(game_config or {}))
        self.env_id = env_id
        self.num_players = self.game.num_players
        high = float(getattr(self.game, "observation_high", 1.0))
        box = spaces.Box(0.0, high, shape=tuple(self.game.observation_shape), dtype=np.float32)
        if obs not in ("box", "dict"):
            raise ValueError(f"obs must be 'box' or 'dict', got {obs!r}")
        if illegal not in ("raise", "penalty"):
            raise ValueError(f"illegal must be 'raise' or 'penalty', got {illegal!r}")
        if learner_seat is not None and (isinstance(learner_seat, bool) or not isinstance(learner_seat, (int, np.integer))
                                         or not 0 <= learner_seat < self.num_players):
            raise ValueError(f"learner_seat must be None or a seat 0..{self.num_players - 1}, got {learner_seat!r}")
        self.obs_kind, self.illegal, self.illegal_reward = obs, illegal, float(illegal_reward)
        self.fixed_seat = None if learner_seat is None else int(learner_seat)
        self.observation_space = box if obs == "box" else spaces.Dict(
            {"observation": box, "action_mask": spaces.Box(0, 1, shape=(self.game.num_actions,), dtype=np.int8)})
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.render_mode = render_mode
        if isinstance(opponents, (list, tuple)):
            if not opponents or not all(isinstance(o, str) for o in opponents):
                raise ValueError(f"opponents must be a non-empty list of agent specs, got {opponents!r}")
            opponents = {o: 1.0 for o in opponents}
        pool = dict(opponents or {"random": 1.0})
        if not pool or any((not isinstance(w, (int, float))) or w < 0 for w in pool.values()) \
                or sum(pool.values()) <= 0:
            raise ValueError(f"opponents must map agent specs to non-negative weights with a positive sum, got {pool}")
        self._specs = [k for k, w in pool.items() if w > 0]
        self._weights = np.array([float(pool[k]) for k in self._specs])
        self.same_opponent = bool(same_opponent)
        self.snapshot_deterministic = bool(snapshot_deterministic)
        if not shaping >= 0.0 or not 0.0 < gamma <= 1.0:
            raise ValueError(f"shaping must be >= 0 and gamma in (0, 1], got shaping={shaping!r}, gamma={gamma!r}")
        self._potential_fn = _load_potential(potential) if potential else None
        if shaping and getattr(self.game, "cooperative", False) and self._potential_fn is None:
            raise ValueError(f"shaping compares the learner's score with its rivals': {env_id} is co-operative "
                             f"(give a potential function instead)")
        self.shaping = float(shaping)
        self.gamma = float(gamma)
        self._phi = 0.0
        # one agent per (spec, seat), built once (fails early on a bad spec), reset every episode
        self._agents = {}
        for spec in self._specs:
            if spec == SNAPSHOT:
                continue
            for seat in range(self.num_players):
                self._agents[(spec, seat)] = agents_mod.make(spec, self.game)
        self._snapshots: list = []
        self.state = None
        self.learner = 0
        self._line: list = []
        self._kinds: list = []
        self._last_mover = -1
        self._ret = 0.0
        self._over = False

    # -- the snapshot pool ----------------------------------------------------------------
    def set_snapshots(self, policies: list) -> int:
        """Replace the frozen learner copies (NumpyPolicy objects); returns how many are held."""
        self._snapshots = list(policies)
        return len(self._snapshots)

    def set_weights(self, weights: dict) -> dict:
        """New draw weights for opponent specs of the pool (a league's prioritised sampling); returns them all.

        Only specs already in the pool may be given (ValueError naming the first other one); the weights of
        specs not given stay as they were; at least one weight must stay positive.
        """
        for spec, w in weights.items():
            if spec not in self._specs:
                raise ValueError(f"set_weights: {spec!r} is not in the opponent pool {self._specs}")
            if not isinstance(w, (int, float)) or not w >= 0:
                raise ValueError(f"set_weights: weight of {spec!r} must be a non-negative number, got {w!r}")
        new = np.array([float(weights.get(k, self._weights[i])) for i, k in enumerate(self._specs)])
        if new.sum() <= 0:
            raise ValueError("set_weights: every weight would be 0")
        self._weights = new
        return dict(zip(self._specs, new.tolist()))

    def _draw_spec(self) -> str:
        w = self._weights.copy()
        if not self._snapshots:  # no snapshot yet: the other kinds share its weight
            for i, s in enumerate(self._specs):
                if s == SNAPSHOT:
                    w[i] = 0.0
            if w.sum() <= 0:
                return "random"
        return self._specs[int(self.np_random.choice(len(w), p=w / w.sum()))]

    def _opponent(self, spec: str, seat: int):
        from virus_envs.agents.ppo import SnapshotAgent

        if spec == SNAPSHOT:
            pol = self._snapshots[int(self.np_random.integers(len(self._snapshots)))]
            return SnapshotAgent(self.game, pol, deterministic=self.snapshot_deterministic)
        if spec == "random" and (spec, seat) not in self._agents:
            from virus_envs import agents as agents_mod
            self._agents[(spec, seat)] = agents_mod.make("random", self.game)
        return self._agents[(spec, seat)]

    # -- gymnasium API ----------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        for _ in range(100):
            drawn = int(self.np_random.integers(self.num_players))      # drawn either way: one stream of chance
            self.learner = drawn if self.fixed_seat is None else self.fixed_seat
            shared = self._draw_spec() if self.same_opponent else None
            self._line, self._kinds = [None] * self.num_players, [None] * self.num_players
            for seat in range(self.num_players):
                if seat == self.learner:
                    continue
                spec = shared if shared is not None else self._draw_spec()
                ag = self._opponent(spec, seat)
                ag.reset(seed=int(self.np_random.integers(2**62)))
                self._line[seat], self._kinds[seat] = ag, spec
            self.state = self.game.new_initial_state(seed=int(self.np_random.integers(2**62)))
            self._last_mover, self._over = -1, False
            self._play_opponents()
            if not self.state.is_terminal():
                self._phi = self._potential()
                return self._obs(), {"learner_seat": self.learner, "opponents": self._kind_label()}
        raise RuntimeError(f"{self.env_id}: 100 deals in a row ended before the learner's first decision")

    def step(self, action):
        st = self.state
        if st is None or st.is_terminal() or self._over:
            raise RuntimeError("step() called on a finished episode; call reset()")
        a = int(action)
        if self.illegal == "penalty" and not (0 <= a < self.game.num_actions and st.legal_action_mask()[a]):
            self._ret = self.illegal_reward
            self._over = True            # the game is abandoned as it stood; reset() starts the next
            return self._obs(), self.illegal_reward, True, False, {
                "learner_seat": self.learner, "opponents": self._kind_label(), "illegal_action": True,
                "learner_return": self.illegal_reward, "win_share": 0.0}
        st.apply_action(a)   # an illegal action raises IllegalActionError (the mask is in use)
        self._last_mover = self.learner
        self._play_opponents()
        if st.is_terminal():
            r = st.returns()
            self._ret = float(r[self.learner])
            info = {
                "learner_seat": self.learner,
                "opponents": self._kind_label(),
                "learner_return": self._ret,
                "ended_by_opponent": self._last_mover != self.learner,
                "game_truncated": bool(getattr(st, "is_truncated", lambda: False)()),
                "win_share": _win_share(r, self.learner, getattr(st, "is_truncated", lambda: False)()),
            }
            shaped = -self._phi if self.shaping else 0.0      # Phi(end) = 0
            return self._obs(), self._ret + shaped, True, False, info
        if not self.shaping:
            return self._obs(), 0.0, False, False, {}
        phi, self._phi = self._phi, self._potential()
        return self._obs(), self.gamma * self._phi - phi, False, False, {}

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (all True on a finished game, where nothing is asked)."""
        st = self.state
        if st is None or st.is_terminal() or self._over:
            return np.ones(self.game.num_actions, dtype=bool)
        return st.legal_action_mask().copy()   # writable: torch refuses read-only arrays

    def render(self):
        return None if self.state is None else self.state.render()

    # -- internals --------------------------------------------------------------------------
    def _obs(self):
        o = np.asarray(self.state.observation(self.learner), dtype=np.float32)
        if self.obs_kind == "box":
            return o
        st = self.state
        asked = not (st.is_terminal() or self._over) and st.current_player() == self.learner
        mask = st.legal_action_mask().astype(np.int8) if asked else np.zeros(self.game.num_actions, np.int8)
        return {"observation": o, "action_mask": mask}

    def _potential(self) -> float:
        """Phi(s) = shaping * (own score - best rival score); 0 when shaping is off."""
        if not self.shaping:
            return 0.0
        if self._potential_fn is not None:
            return self.shaping * float(self._potential_fn(self.state, self.learner))
        sc = np.asarray(self.state.scores(), dtype=float)
        rivals = np.delete(sc, self.learner)
        return self.shaping * float(sc[self.learner] - (rivals.max() if rivals.size else 0.0))

    def _kind_label(self) -> str:
        kinds = sorted({k for i, k in enumerate(self._kinds) if i != self.learner})
        return "+".join(kinds) or "alone"          # one seat: nobody else at the table

    def _play_opponents(self) -> None:
        """Opponents decide until the learner must, or the game ends."""
        st, game, learner = self.state, self.game, self.learner
        while not st.is_terminal():
            p = st.current_player()
            if p == learner:
                return
            ag = self._line[p]
            mask = st.legal_action_mask()
            if ag.mask_only:
                d = Decision(p, "", {}, None, mask, game)
            else:
                d = Decision(p, st.phase(), st.view(p), st.observation(p), mask, game,
                             SearchHandle(st, p) if ag.needs_handle else None)
            st.apply_action(ag.act(d))
            self._last_mover = p


def pfsp_weights(base: dict, win_rates: dict, exponent: float, floor: float = 0.05) -> dict:
    """Prioritised fictitious self-play (Vinyals et al. 2019): each opponent's weight times (1 - x)^exponent,
    x the learner's recent win share against it, so the opponents that still beat the learner are met more.

    An opponent without a measured rate keeps its base weight; `floor` keeps every factor at least that,
    so an opponent the learner now beats is still met now and then (forgetting shows up in the rates).
    """
    out = {}
    for spec, w in base.items():
        x = win_rates.get(spec)
        out[spec] = float(w) if x is None else float(w) * max(floor, (1.0 - float(x)) ** exponent)
    return out


def _load_potential(spec: str):
    """'module:function' -> the function; ValueError naming the spec when it cannot be found."""
    import importlib

    mod, _, name = str(spec).partition(":")
    try:
        fn = getattr(importlib.import_module(mod), name, None) if mod and name else None
    except ImportError:
        fn = None
    if not callable(fn):
        raise ValueError(f"potential {spec!r} is not a 'module:function' that can be imported")
    return fn


def _win_share(returns, seat: int, truncated: bool) -> float:
    """As virus_envs.experiments.arena.win_shares: 1 for a sole win, 1/k for a k-way shared one; 0 otherwise, when
    truncated, or when every seat has the same non-positive return (a draw, a co-operative loss)."""
    r = np.asarray(returns, dtype=float)
    best = r.max()
    if truncated or r[seat] != best or (best <= 0 and r.min() == best):
        return 0.0
    return 1.0 / int(np.sum(r == best))
