"""Game-agnostic core: engine contract, the one AEC adapter, errors, seeding, encoding helpers."""
from .actions import ActionTable
from .errors import IllegalActionError
from .game import Game, State
from .layout import ObsLayout
from .seeding import clone_rng, derive_seed, make_rng, rng_from_dict, rng_to_dict

__all__ = ["ActionTable", "IllegalActionError", "Game", "State", "ObsLayout",
           "make_rng", "rng_to_dict", "rng_from_dict", "clone_rng", "derive_seed"]
