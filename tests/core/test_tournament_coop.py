"""Tournaments of a co-operative game: teams of one agent, compared on the same deals."""
import json

import numpy as np
import pytest

from virus_envs import agents
import virus_envs
from virus_envs.agents.base import ParamAgent
from virus_envs.experiments.tournament import TournamentConfig, run_tournament, schedule
from virus_envs.core import Game, State, make_rng


class CoinTeamGame(Game):
    """Each seat in turn says 0 or 1; the team wins if at least half say 1 and the deal's coin agrees."""

    env_id = "coin_team_v0"
    min_players, max_players, default_players = 2, 4, 3
    cooperative = True
    DEFAULTS = {}

    def _build(self):
        self.num_actions = 2
        self.observation_shape = (1,)
        from virus_envs.core import ActionTable
        self.actions = ActionTable()
        self.actions.add("say 0", (0,))
        self.actions.add("say 1", (1,))

    def new_initial_state(self, seed=None):
        s = CoinTeamState(self)
        s.coin = int(make_rng(seed).integers(4) > 0)      # 3 deals in 4 can be won
        return s

    def _state_from_dict(self, d):
        s = CoinTeamState(self)
        s.coin, s.said = d["coin"], list(d["said"])
        return s


class CoinTeamState(State):
    def __init__(self, game):
        self.game, self.coin, self.said, self._mask = game, 0, [], None

    def current_player(self):
        return -1 if self.is_terminal() else len(self.said)

    def phase(self):
        return "say"

    def _compute_mask(self):
        return np.ones(2, dtype=bool)

    def _apply(self, a):
        self.said.append(a)

    def is_terminal(self):
        return len(self.said) == self.game.num_players

    def returns(self):
        won = self.is_terminal() and self.coin and 2 * sum(self.said) >= len(self.said)
        return np.full(self.game.num_players, 1.0 if won else -1.0) if self.is_terminal() else np.zeros(self.game.num_players)

    def scores(self):
        return [float(sum(self.said))] * self.game.num_players

    def view(self, p):
        return {"said": list(self.said)}

    def observation(self, p):
        return np.zeros(1, dtype=np.float32)

    def to_dict(self):
        return {"env_id": self.game.env_id, "num_players": self.game.num_players, "coin": self.coin,
                "said": list(self.said)}

    def clone(self):
        return self.game.state_from_dict(self.to_dict())

    def _determinize(self, p, rng):
        return self.clone()      # the coin is hidden from nobody who matters here

    def render(self):
        return f"said {self.said}"


class SayOne(ParamAgent):
    def act(self, decision):
        return 1


@pytest.fixture
def coin_game(monkeypatch):
    monkeypatch.setitem(virus_envs._GAMES, "coin_team_v0", f"{__name__}:CoinTeamGame")
    monkeypatch.setitem(agents.HEURISTICS, "coin_team_v0", f"{__name__}:SayOne")
    yield


def test_cooperative_schedule_plays_each_deal_once_per_team(coin_game):
    c = TournamentConfig(game="coin_team_v0", agents=["heuristic", "random"], games=10)
    c.validate()
    jobs = schedule(c)
    assert len(jobs) == 10
    for d in range(5):
        js = [j for j in jobs if j.deal == d]
        assert len({j.seed for j in js}) == 1
        assert sorted(tuple(j.seats) for j in js) == [("heuristic",) * 3, ("random",) * 3]


def test_cooperative_results_are_team_win_rates(coin_game, tmp_path):
    c = TournamentConfig(game="coin_team_v0", agents=["heuristic", "random"], games=200, seed=1)
    res = run_tournament(c, str(tmp_path), workers=1, echo=lambda *_: None, progress=False)
    by = {a["agent"]: a for a in res["agents"]}
    assert res["cooperative"] and by["heuristic"]["baseline"] is None
    # the rules of the coin game, applied to each recorded game: the team wins when the deal's coin
    # allows it and at least half the seats said 1; the team that always says 1 wins every such deal
    wins = {"heuristic": 0, "random": 0}
    for rec in map(json.loads, open(tmp_path / "games.jsonl")):
        coin = CoinTeamGame(3).new_initial_state(seed=rec["seed"]).coin
        wins[rec["seats"][0]] += bool(coin and 2 * sum(rec["actions"]) >= len(rec["actions"]))
    for a in ("heuristic", "random"):
        assert by[a]["games"] == 100 and by[a]["wins"] == wins[a]
    assert 60 < wins["heuristic"] < 90 and wins["random"] < wins["heuristic"]      # 3 deals in 4, and fewer
    assert res["agents"][0]["agent"] == "heuristic"      # rated above random on the same deals
    assert res["head_to_head"]["heuristic"]["random"] > 0.5
    assert "Co-operative game" in (tmp_path / "report.md").read_text()
