"""One pyspiel Game/State pair over any engine of this package (the adapter translates; the engine rules).

Chance, two ways (per game, see the table in `virus_envs.openspiel`):
- explicit: the engine's Generator is replaced by a `core.chance.ChanceTape` while it applies an
  action. When the engine asks for a draw the tape does not hold, the adapter becomes a chance
  node with that draw's equally likely outcomes (`chance_outcomes()`); once the outcome is chosen
  the same action is applied again, on a fresh copy of the engine state, with the longer tape.
  The engine's own code decides what is drawn and when: the adapter only records the outcomes.
- sampled: the engine draws from its own seeded Generator inside `apply_action`
  (SAMPLED_STOCHASTIC: no chance nodes). Game parameter `rng_seed` seeds the sequence of games;
  a pickled game keeps the position in that sequence (OpenSpiel's test of sampled games asks it).

Observations are the engine's `view(p)` (as canonical JSON) and `observation(p)`. These describe
what the seat knows now, not its whole history, so imperfect-information games provide
observations but no (perfect-recall) information states; a perfect-information game (every
component public except future chance) gives the action history as its information state.
"""
from __future__ import annotations

import json

import numpy as np
import pyspiel

from ..core.chance import ChanceTape, NeedChance
from ..core.seeding import chance_tape, derive_seed, make_rng, rng_to_dict


class _Engine:
    """Holds an engine state; pyspiel deep-copies a Python state's attributes on clone(), so this copy is ours."""

    __slots__ = ("s",)

    def __init__(self, s):
        self.s = s

    def __deepcopy__(self, memo):
        return _Engine(None if self.s is None else self.s.clone())

    def __reduce__(self):        # pickled as the engine's own to_dict()
        if self.s is None:
            return (_Engine, (None,))
        s = self.s
        if isinstance(s.rng, ChanceTape):    # explicit chance: the state's Generator is never drawn from
            s = s.clone()
            s._set_rng(make_rng(0))
        return (_engine_from_dict, (s.game.env_id, s.game.num_players, s.game.config, s.to_dict()))


def _engine_from_dict(env_id, num_players, config, d):
    from .. import game
    s = game(env_id, num_players, **config).state_from_dict(d)
    return _Engine(s)


class _Shared:
    """What every state of one game shares (engine game, spec, seed sequence): never copied by clone()."""

    __slots__ = ("engine", "spec", "seeds", "params")

    def __init__(self, engine, spec, seeds, params):
        self.engine, self.spec, self.seeds, self.params = engine, spec, seeds, params

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):        # pickled as the game's name and parameters
        return (_shared_of, (self.spec.short_name, self.params))


def _shared_of(name, params):
    return pyspiel.load_game(name, params).shared


def game_type(spec, num_players: int | None = None, cooperative: bool | None = None) -> pyspiel.GameType:
    """The pyspiel GameType of a `Spec` (see virus_envs.openspiel).

    Registered (num_players None): the type over every player count. A loaded game's type is that of
    its player count: zero-sum where the spec says the returns always sum to 0 (VIRUS! with 2), and of
    its config (`cooperative`: the engine instance's, False where an option splits the table into sides)."""
    GT = pyspiel.GameType
    params = {"players": spec.game_class.default_players, **spec.parameters()}
    if spec.game_class.cooperative if cooperative is None else cooperative:
        utility = GT.Utility.IDENTICAL
    elif num_players is not None and num_players in spec.zero_sum_players:
        utility = GT.Utility.ZERO_SUM
    else:
        utility = GT.Utility.GENERAL_SUM
    return GT(
        short_name=spec.short_name,
        long_name=spec.long_name,
        dynamics=GT.Dynamics.SEQUENTIAL,
        chance_mode=GT.ChanceMode.EXPLICIT_STOCHASTIC if spec.explicit_chance else GT.ChanceMode.SAMPLED_STOCHASTIC,
        information=GT.Information.PERFECT_INFORMATION if spec.perfect_information
        else GT.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=GT.RewardModel.TERMINAL,
        max_num_players=spec.game_class.max_players,
        min_num_players=spec.game_class.min_players,
        provides_information_state_string=spec.perfect_information,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class VirusGame(pyspiel.Game):
    """A pyspiel Game over one of our engines; game parameters are the engine's config keys plus `players`."""

    spec = None   # set by the subclass made in virus_envs.openspiel

    def __init__(self, params=None):
        spec = self.spec
        params = dict(params or {})
        full = {"players": spec.game_class.default_players, **spec.parameters(), **params}
        config = {k: v for k, v in full.items() if k not in ("players", "rng_seed")}
        self.engine = spec.game_class(num_players=full["players"], **config)
        eng = self.engine
        gtype = game_type(spec, eng.num_players, bool(getattr(eng, "cooperative", False)))
        info = pyspiel.GameInfo(
            num_distinct_actions=eng.num_actions,
            max_chance_outcomes=spec.max_chance_outcomes(eng) if spec.explicit_chance else 0,
            num_players=eng.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if gtype.utility == pyspiel.GameType.Utility.ZERO_SUM else None,
            max_game_length=spec.max_game_length(eng),
        )
        super().__init__(gtype, info, params)
        seed = full.get("rng_seed", -1)
        self.shared = _Shared(eng, spec, make_rng(None if seed is None or seed < 0 else seed), params)

    def __reduce__(self):
        """Pickled as its name, parameters and (sampled chance) the position in its sequence of game seeds."""
        seeds = None if self.spec.explicit_chance else rng_to_dict(self.shared.seeds)
        return (_game_of, (self.spec.short_name, self.get_parameters(), seeds))

    def new_initial_state(self):
        """A new game: explicit chance starts at the set-up's chance nodes; sampled chance draws a seed."""
        return VirusState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """Observer: the engine's observation(p) and view(p) (public and the seat's private information).

        Other observation types: a perfect-recall observer raises ValueError in an imperfect-information
        game (the engine's view is what a seat knows now, not its history). The engine does not split
        a view into public and private parts, so in an imperfect-information game a type without
        public information or with another seat's private information is unsupported: None, as
        `open_spiel.python.observation.make_observation` documents. In the perfect-information game
        everything is public: without public information the observer is empty."""
        if params:
            raise ValueError(f"observer parameters are not supported; got {params}")
        t = iig_obs_type
        perfect = self.spec.perfect_information
        if t is not None and t.perfect_recall and not perfect:
            raise ValueError(f"{self.spec.short_name}: no perfect-recall observer: the engine's view is what a seat "
                             "knows now, not its history (use IIGObservationType(perfect_recall=False))")
        if t is None or (t.public_info and (perfect or t.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER)):
            return VirusObserver(self.engine)
        if perfect:                      # no public information asked for, and nothing is private
            return VirusObserver(self.engine, empty=True)
        return None


class VirusObserver:
    """PyObserver: `tensor` is the engine's observation(p); strings are view(p) as canonical JSON (empty: nothing)."""

    def __init__(self, engine, empty: bool = False):
        self.empty = empty
        shape = (0,) if empty else engine.observation_shape
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state, player):
        s = state.engine_state()
        if self.empty:
            return
        if s is None:                    # the set-up's chance nodes: nothing on the table yet
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = s.observation(player).reshape(-1)

    def string_from(self, state, player):
        return "" if self.empty else view_string(state.engine_state(), player)


def _game_of(name, params, seeds):
    g = pyspiel.load_game(name, params)
    if seeds is not None:
        g.shared.seeds.bit_generator.state = seeds
    return g


def view_string(s, p: int) -> str:
    """The seat's view as canonical JSON ("" during the set-up's chance nodes)."""
    return "" if s is None else json.dumps(s.view(p), sort_keys=True, separators=(",", ":"))


class _Start:
    """Where a state's history starts: the set-up (explicit chance), a seed (sampled) or an engine state.

    Shared, never copied, by clone(): it does not change once made."""

    __slots__ = ("kind", "value")

    def __init__(self, kind, value=None):
        self.kind, self.value = kind, value

    def __deepcopy__(self, memo):
        return self


def _state_of(game, kind, value, history):
    """Unpickle a state: its start, then its history replayed (the same engine, so the same state)."""
    if kind == "engine":
        value = value.s
        if game.spec.explicit_chance:
            value._set_rng(ChanceTape())
    s = VirusState(game, value if kind == "engine" else None, seed=value if kind == "seed" else None)
    for a in history:
        s.apply_action(a)
    return s


class VirusState(pyspiel.State):
    """A pyspiel State over an engine state; chance explicit or sampled as the game's spec says."""

    def __init__(self, game: VirusGame, engine_state=None, seed: int | None = None):
        super().__init__(game)
        self._g = game.shared            # never the pyspiel game itself: clone() deep-copies attributes
        self._eng = _Engine(engine_state)
        self._explicit = game.spec.explicit_chance
        self._tape: list[int] = []
        self._pending = None            # the player action waiting for chance outcomes, or "setup"
        self._need = None               # NeedChance of the next chance node
        if engine_state is not None:
            self._start = _Start("engine", _Engine(engine_state.clone()))
        elif self._explicit:
            self._start = _Start("setup")
            self._pending = "setup"
            self._advance()
        else:
            seed = derive_seed(self._g.seeds) if seed is None else seed
            self._start = _Start("seed", seed)
            self._eng.s = game.engine.new_initial_state(seed=seed)

    def __reduce__(self):
        """Pickled as its start and its history. pyspiel's own state serialization replays the history
        from a new initial state: right for explicit chance, not for a sampled game (whose draws the
        history does not hold) nor for a state made by resample_from_infostate (which starts mid-game)."""
        return (_state_of, (self.get_game(), self._start.kind, self._start.value, self.history()))

    # -- chance ---------------------------------------------------------------------------------
    def _advance(self):
        """Run the pending step with the tape; stop at the next draw it lacks (a chance node)."""
        tape = ChanceTape(self._tape)
        s = None if self._pending == "setup" else self._eng.s.clone()
        try:
            with chance_tape(tape):
                if s is None:
                    s = self._g.engine.new_initial_state(seed=0)
                else:
                    s._set_rng(tape)
                    s.apply_action(self._pending)
        except NeedChance as need:
            self._need = need
            return
        s._set_rng(ChanceTape())     # an empty tape: every later step runs on a tape of its own again
        self._eng.s = s
        self._pending, self._need, self._tape = None, None, []

    def is_chance_node(self):
        return self._need is not None

    def chance_outcomes(self):
        """The next draw's outcomes, equally likely (outcome j: the j-th value or shuffle pick)."""
        k = self._need.outcomes
        return [(j, 1.0 / k) for j in range(k)]

    # -- pyspiel API ----------------------------------------------------------------------------
    def engine_state(self):
        """Our engine's state (before a pending action while at a chance node)."""
        return self._eng.s

    def current_player(self):
        if self._need is not None:
            return pyspiel.PlayerId.CHANCE
        s = self._eng.s
        return pyspiel.PlayerId.TERMINAL if s.is_terminal() else s.current_player()

    def _legal_actions(self, player):
        return self._eng.s.legal_actions()

    def _apply_action(self, action):
        if self._need is not None:
            self._tape.append(int(action))
            self._advance()
        elif self._explicit:
            s = self._eng.s
            if not s.legal_action_mask()[action]:
                s.apply_action(action)         # raises IllegalActionError, state unchanged
            self._pending = int(action)
            self._advance()
        else:
            self._eng.s.apply_action(action)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            need = self._need
            if need is not None and need.kind == "integer":
                return f"chance: {need.low + action} (of {need.low}..{need.low + need.outcomes - 1})"
            return f"chance: {action}"
        return self._eng.s.action_to_string(action)

    def is_terminal(self):
        return self._need is None and self._eng.s.is_terminal()

    def returns(self):
        s = self._eng.s
        if self._need is not None or s is None:
            return [0.0] * self._g.engine.num_players
        return [float(x) for x in s.returns()]

    def observation_string(self, player=None):
        return view_string(self._eng.s, self._player(player))

    def observation_tensor(self, player=None):
        p, s = self._player(player), self._eng.s
        if s is None:
            return [0.0] * int(np.prod(self._g.engine.observation_shape))
        return s.observation(p).reshape(-1).tolist()

    def information_state_string(self, player=None):
        if not self._g.spec.perfect_information:
            raise RuntimeError(f"{self._g.spec.short_name} provides observations, not information states")
        self._player(player)
        return " ".join(map(str, self.history()))

    def _player(self, player):
        """A seat; otherwise RuntimeError, with OpenSpiel's wording ("player >= 0", "player < n")."""
        n = self._g.engine.num_players
        p = self.current_player() if player is None else int(player)
        if not 0 <= p < n:
            raise RuntimeError(f"player >= 0 and player < {n} required (a seat 0..{n - 1}), got {p}")
        return p

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state consistent with what `player_id` knows: the engine's determinize(player_id)."""
        seed = 0
        for _ in range(4):
            seed = (seed << 16) | int(probability_sampler() * 65536)
        t = self._eng.s.determinize(player_id, np.random.default_rng(seed))
        if self._explicit:
            t._set_rng(ChanceTape())
        return VirusState(self.get_game(), t)

    def __str__(self):
        text = str(self._eng.s) if self._eng.s is not None else "(setting up)"
        if self._need is not None:
            text += f"\n(chance node: {self._need.kind}, {self._need.outcomes} outcomes)"
        return text
