"""The four games as OpenSpiel games: `import virus_envs.openspiel` registers them with pyspiel.

    import pyspiel, virus_envs.openspiel
    game = pyspiel.load_game("python_virus_cards(players=3)")
    state = game.new_initial_state()

Our engines stay the only source of the rules: `adapter.py` translates (players, actions,
chance, observations, returns) and implements no rule. Game parameters are `players` plus the
engine's config keys (`virus_envs.game_class(env_id).DEFAULTS`), e.g.
`python_virus_cards(players=4,colour_rule=card)`.

| pyspiel name | env id | players | chance | information | utility | observation |
|---|---|---|---|---|---|---|
| `python_virus_cards` | `virus_cards_v0` | 2-6 | explicit: the deal's shuffle as one chance node per card position, the first player | imperfect | zero-sum with 2 players, general-sum with more (+1 winner, -1 others, 0 on truncation) | view / observation |
| `python_roll_write` | `roll_write_v0` | 2-4 | explicit: each die of each roll (6 outcomes), the first player | perfect (all but future dice is public) | general-sum (ties share 1/k) | view / observation; information state = the history |
| `python_virus_co` | `virus_co_v0` | 3-6 | explicit: each round's shuffles of the virus and risk cards, one chance node per card position | imperfect | general-sum (ties share 1/k) | view / observation |
| `python_virus_lab` | `virus_lab_v0` | 1-4 | sampled (SAMPLED_STOCHASTIC): combat rolls draw continuous uniforms (`p_positive`), which have no finite outcome list; parameter `rng_seed` (-1: fresh entropy) seeds the sequence of games | imperfect | identical (co-operative: one team result) | view / observation |

Explicit chance needs no engine support: the engine draws from a `core.chance.ChanceTape`
instead of its Generator, and a draw the tape does not hold becomes a chance node (see
`adapter.py`). A shuffle is a sequence of uniform picks (Fisher-Yates), which gives every
order the same probability, as the engine's own shuffle does.

Imperfect-information games provide observations (what a seat knows now), not perfect-recall
information states: OpenSpiel's `ISMCTSBot` runs on them with `use_observation_string=True`, and
`resample_from_infostate` is the engine's `determinize`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import pyspiel

from .. import game_class
from .adapter import VirusGame, VirusState, game_type
from .bots import AgentBot

__all__ = ["SPECS", "VirusGame", "VirusState", "AgentBot", "register"]


@dataclass(frozen=True)
class Spec:
    """How one env id is presented to OpenSpiel."""

    env_id: str
    short_name: str
    long_name: str
    explicit_chance: bool
    perfect_information: bool
    #: largest number of outcomes of one chance draw, from the engine's game (explicit chance only)
    max_chance_outcomes: Callable
    #: a bound on the number of actions in a game (decisions + chance), from the engine's game and config
    max_game_length: Callable
    #: player counts at which the engine's returns always sum to 0 (GameType ZERO_SUM there)
    zero_sum_players: tuple = ()

    @property
    def game_class(self):
        return game_class(self.env_id)

    def parameters(self) -> dict:
        """pyspiel parameter specification: the engine's config keys with their defaults (+ rng_seed if sampled)."""
        p = dict(self.game_class.DEFAULTS)
        if not self.explicit_chance:
            p["rng_seed"] = -1          # OpenSpiel's name for a sampled-stochastic game's seed
        return p


SPECS = {
    "virus_cards_v0": Spec(
        "virus_cards_v0", "python_virus_cards", "Python VIRUS! (virus_envs)", True, False,
        max_chance_outcomes=lambda g: max(int(g.deck.size), g.num_players),
        # a turn is at most a play (Transplant: 2 decisions; Contagion: one per virus moved) or up to 3 discards
        max_game_length=lambda g: 16 * g.config["max_turns"] + int(g.deck.size) + 1,
        # +1 the winner, -1 the others, 0 each on truncation: with two players they always sum to 0
        zero_sum_players=(2,)),
    "roll_write_v0": Spec(
        "roll_write_v0", "python_roll_write", "Python Virus!: Roll & Write (virus_envs)", True, True,
        max_chance_outcomes=lambda g: max(6, g.num_players),
        # max_turns counts decisions; each round (at least one decision) rolls per_round dice
        max_game_length=lambda g: g.config["max_turns"] * (1 + g.per_round) + g.per_round + 1),
    "virus_co_v0": Spec(
        "virus_co_v0", "python_virus_co", "Python Virus & Co (virus_envs)", True, False,
        max_chance_outcomes=lambda g: max(g.NV, len(g.RISK_IDS), g.num_players),
        # max_turns counts referral-slip passes; a pass involves at most a few decisions of each seat
        max_game_length=lambda g: g.config["max_turns"] * 8 * g.num_players
        + (g.config["rounds"] + 1) * (g.NV + len(g.RISK_IDS)) + 1),
    "virus_lab_v0": Spec(
        "virus_lab_v0", "python_virus_lab", "Python Virus, the co-operative board game (virus_envs)", False, False,
        max_chance_outcomes=lambda g: 0,
        max_game_length=lambda g: g.config["max_steps"] + 1),
}


def register() -> None:
    """Register every game with pyspiel (idempotent; importing this module does it)."""
    have = set(pyspiel.registered_names())
    for spec in SPECS.values():
        if spec.short_name in have:
            continue
        cls = type(f"Game_{spec.short_name}", (VirusGame,), {"spec": spec})
        pyspiel.register_game(game_type(spec), cls)


register()
