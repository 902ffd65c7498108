"""Small game records for the page tests: a tournament's games.jsonl per game (heuristic against random)."""
from __future__ import annotations

from virus_envs.experiments.tournament import TournamentConfig, run_tournament

#: short games: VIRUS! and Roll & Write for 2, Virus & Co for 3, the board game with 1 Hero
PLAYERS = {"virus_cards_v0": 2, "roll_write_v0": 2, "virus_co_v0": 3, "virus_lab_v0": 1}


def tournament(env_id: str, folder) -> str:
    """Play a 2-game tournament into `folder`; returns the path of its games.jsonl."""
    agents = ["heuristic", "random"] if PLAYERS[env_id] > 1 else ["heuristic"]
    c = TournamentConfig(game=env_id, agents=agents, players=PLAYERS[env_id], games=2, seed=3)
    run_tournament(c, str(folder), workers=1, echo=lambda *_: None, progress=False)
    return str(folder / "games.jsonl")
