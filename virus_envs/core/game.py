"""The engine contract shared by all four games (see docs/contract.md), written once.

A game subclasses `Game` (metadata, config, action table, layout) and `State` (the rules).
What is common lives here: config validation, the legality check of `apply_action` against
the mask (the only source of legality), the cached mask, `legal_actions`.
"""
from __future__ import annotations

import operator
from abc import ABC, abstractmethod
from typing import Any, ClassVar

import numpy as np

from .errors import IllegalActionError
from .seeding import clone_rng, derive_seed, lazy_rng
from .validate import check_envelope


class Game(ABC):
    """Static description of a game with a given player count and config."""

    env_id: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_players: ClassVar[int] = 2
    #: True for a co-operative game: every seat shares one result (all win or all lose). A game whose config
    #: splits the table into sides (the board game's Spy Mode or Boss players) sets `self.cooperative = False`
    #: on the instance; tournaments, arenas and the AEC env read the instance's value.
    cooperative: ClassVar[bool] = False
    #: config key -> default value; the default's type is the accepted type
    DEFAULTS: ClassVar[dict[str, Any]] = {}
    #: config key -> tuple of allowed values (for str choices)
    CHOICES: ClassVar[dict[str, tuple]] = {}
    #: config key -> (low, high) inclusive bounds of a number; None is unbounded, "seat" is num_players - 1
    BOUNDS: ClassVar[dict[str, tuple]] = {}

    def __init__(self, num_players: int | None = None, **config):
        n = self.default_players if num_players is None else num_players
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
            raise ValueError(f"num_players must be an int, got {n!r}")
        if not self.min_players <= n <= self.max_players:
            raise ValueError(
                f"num_players={n} out of range for {self.env_id}: {self.min_players}..{self.max_players}")
        self.num_players = int(n)
        cfg = dict(self.DEFAULTS)
        for key, value in config.items():
            if key not in self.DEFAULTS:
                raise ValueError(f"unknown config key {key!r} for {self.env_id}; known keys: {sorted(self.DEFAULTS)}")
            cfg[key] = _check_type(self.env_id, key, value, self.DEFAULTS[key])
            if key in self.CHOICES and cfg[key] not in self.CHOICES[key]:
                raise ValueError(f"config key {key!r} of {self.env_id} must be one of {self.CHOICES[key]}, got {value!r}")
        for key, (lo, hi) in self.BOUNDS.items():
            hi = self.num_players - 1 if hi == "seat" else hi
            v = cfg[key]
            if (lo is not None and v < lo) or (hi is not None and v > hi):
                span = f"{lo if lo is not None else '-inf'}..{hi if hi is not None else 'inf'}"
                raise ValueError(f"config key {key!r} of {self.env_id} must be in {span}, got {v!r}")
        self.config = cfg
        self._validate_config()
        self._build()

    # -- hooks for subclasses -------------------------------------------------------------
    def _validate_config(self) -> None:
        """Cross-key checks; raise ValueError naming the key."""

    @abstractmethod
    def _build(self) -> None:
        """Set num_actions, observation_shape and any tables."""
        ...

    # -- the public API -----------------------------------------------------------------
    num_actions: int
    observation_shape: tuple[int, ...]

    @abstractmethod
    def new_initial_state(self, seed: int | None = None) -> "State":
        """A fresh game, all chance drawn from a Generator seeded with `seed`."""
        ...

    def state_from_dict(self, d: dict) -> "State":
        """Inverse of State.to_dict(). What it loads is checked first: a ValueError names the field at fault
        (another game or player count, a missing or unknown field, a duplicated or vanished card, a
        negative count, a list of the wrong length)."""
        check_envelope(self, d, self._state_keys())
        self._validate_dict(d)
        try:
            return self._state_from_dict(d)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as e:
            raise ValueError(f"state dict for {self.env_id}: cannot be loaded ({type(e).__name__}: {e})") from None

    def _state_keys(self) -> frozenset:
        """The fields of this game's state dicts (those of a fresh state's to_dict())."""
        keys = self.__dict__.get("_state_keys_cache")
        if keys is None:
            keys = self._state_keys_cache = frozenset(self.new_initial_state(seed=0).to_dict())
        return keys

    def _validate_dict(self, d: dict) -> None:
        """Game-specific checks of a state dict (core.validate helpers); raise ValueError naming the field."""

    @abstractmethod
    def _state_from_dict(self, d: dict) -> "State":
        """Build the state from a dict that passed the checks."""
        ...

    def string_to_action(self, text: str) -> int:
        """Action id from its readable name (as given by action_to_string)."""
        return self.actions.parse(text)

    def action_to_string(self, a: int) -> str:
        """Readable name of an action id (context-free)."""
        return self.actions.name(a)

    def make(self, **overrides) -> "Game":
        """The same game with some config changed."""
        cfg = {**self.config, **overrides}
        n = cfg.pop("num_players", self.num_players)
        return type(self)(num_players=n, **cfg)

    def __repr__(self):
        diff = {k: v for k, v in self.config.items() if self.DEFAULTS.get(k) != v}
        return f"{type(self).__name__}(num_players={self.num_players}{''.join(f', {k}={v!r}' for k, v in diff.items())})"


def _check_type(env_id, key, value, default):
    if isinstance(default, bool):
        if not isinstance(value, (bool, np.bool_)):
            raise ValueError(f"config key {key!r} of {env_id} must be a bool, got {value!r}")
        return bool(value)
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"config key {key!r} of {env_id} must be an int, got {value!r}")
        return int(value)
    if isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise ValueError(f"config key {key!r} of {env_id} must be a number, got {value!r}")
        return float(value)
    if isinstance(default, str):
        if not isinstance(value, str):
            raise ValueError(f"config key {key!r} of {env_id} must be a string, got {value!r}")
        return value
    return value


class State(ABC):
    """One position of a game. Subclasses implement the rules hooks marked below."""

    game: Game
    _mask: np.ndarray | None = None

    # -- hooks for subclasses -------------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """Seat that must decide now; -1 when terminal."""
        ...

    @abstractmethod
    def phase(self) -> str:
        """Name of the decision being taken (rulebook words)."""
        ...

    @abstractmethod
    def _compute_mask(self) -> np.ndarray:
        """Boolean mask of legal actions for current_player()."""
        ...

    @abstractmethod
    def _apply(self, a: int) -> None:
        """Carry out a legal action; never raises for an action the mask allows."""
        ...

    # -- common behaviour -----------------------------------------------------------------
    def legal_action_mask(self) -> np.ndarray:
        """Read-only bool array of length num_actions; the single source of legality."""
        m = self._mask
        if m is None:
            if self.is_terminal():
                m = np.zeros(self.game.num_actions, dtype=bool)
            else:
                m = self._compute_mask()
            m.flags.writeable = False
            self._mask = m
        return m

    def legal_actions(self) -> list[int]:
        """Sorted legal action ids, derived from the mask."""
        return np.flatnonzero(self.legal_action_mask()).tolist()

    def apply_action(self, a) -> None:
        """Play action a for current_player(); IllegalActionError (state unchanged) if the mask refuses it."""
        try:
            ai = operator.index(a)
        except TypeError:
            raise IllegalActionError(a, self._phase_or_end(), self.current_player(), "not an integer action id") from None
        if a.__class__ is bool:           # operator.index(True) is 1: a bool is a mistake, not action 1
            raise IllegalActionError(a, self._phase_or_end(), self.current_player(),
                                     "a bool, not an integer action id")
        if self.is_terminal():
            raise IllegalActionError(ai, "game over", -1, "the game has ended")
        mask = self.legal_action_mask()
        if not 0 <= ai < mask.shape[0]:
            raise IllegalActionError(ai, self.phase(), self.current_player(),
                                     f"out of range 0..{mask.shape[0] - 1}")
        if not mask[ai]:
            raise IllegalActionError(ai, self.phase(), self.current_player(), "not allowed by the rules here",
                                     name=self.game.action_to_string(ai))
        self._mask = None
        self._apply(ai)

    def _phase_or_end(self):
        return "game over" if self.is_terminal() else self.phase()

    def action_to_string(self, a: int) -> str:
        """Readable name of action a (in this state's context where it matters)."""
        return self.game.action_to_string(a)

    # -- information sets -------------------------------------------------------------------
    def determinize(self, p: int, rng: np.random.Generator) -> "State":
        """A full state consistent with view(p): what seat p cannot see is resampled from rng.

        The game's `_determinize` resamples its hidden components; future chance is always
        resampled here (a fresh Generator), since no seat knows the dice or shuffles to come.
        """
        if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or not 0 <= p < self.game.num_players:
            raise ValueError(f"determinize: seat must be in 0..{self.game.num_players - 1}, got {p!r}")
        s = self._determinize(int(p), rng)
        s._reseed(derive_seed(rng))
        s._mask = None
        return s

    @abstractmethod
    def _determinize(self, p: int, rng: np.random.Generator) -> "State":
        """A copy with every component hidden from p resampled consistently with view(p)."""
        ...

    def _reseed(self, seed: int) -> None:
        """Replace the state's Generator (future chance) by a fresh one (built when first drawn from)."""
        self._set_rng(lazy_rng(seed))

    def _set_rng(self, rng) -> None:
        """Give the state this Generator (or a core.chance.ChanceTape) for its future chance draws."""
        self.rng = rng

    def hidden_facts(self, p: int) -> dict:
        """What seat p cannot see, component by component: name (as in the game's rules doc) -> value.

        Only components that view(p) leaves open (more than one value possible). The generic
        information-set test checks that determinize(p) keeps view(p), observation(p) and p's mask,
        and that each of these facts takes more than one value over repeated determinizations.
        By default: the next draws of the state's Generator (future chance). Games add their own.
        """
        return {"future chance": clone_rng(self.rng).integers(0, 2**31, size=4).tolist()}

    def sides(self) -> list[str] | None:
        """A game of sides (teams): the side of every seat, e.g. `["heroes", "heroes", "spy"]`; None when every
        seat plays for itself, or all seats as one team. Every seat of the winning side gets a positive return.

        Read by tournaments and arenas on the final state (or where a forfeit cut the game), to credit each
        seat's side: a secret role may be read there. Agents never call it: it is not part of a view."""
        return None

    def info(self) -> dict:
        """Public facts a game adds to every agent's `infos` besides `scores` and `phase` (JSON-safe; e.g. the
        ranking of a finished co-operative game). Called after every step: keep it cheap."""
        return {}

    def __str__(self):
        return self.render()

    def render_for(self, p: int) -> str:
        """Text of what seat p may see, never hidden information (for a person playing that seat).
        By default `seat_text(game, view(p))` of the game's render module; a game may draw it otherwise."""
        import importlib
        render = importlib.import_module(type(self.game).__module__.rsplit(".", 1)[0] + ".render")
        if hasattr(render, "seat_text"):
            return render.seat_text(self.game, self.view(p))
        lines = [f"{type(self.game).__name__} — seat {p}"]
        for k, v in self.view(p).items():
            lines.append(f"  {k}: {v}")
        return "\n".join(lines)

    def picture(self, p: int | None = None) -> str:
        """SVG picture of the table (drawn by virus_envs/<game>/picture.py). With seat p: only what p may
        see, drawn from view(p) alone; None: the full table, hidden cards face up."""
        from .picture import picture
        return picture(self, p)

    @abstractmethod
    def render(self) -> str:
        """Human-readable table."""
        ...
