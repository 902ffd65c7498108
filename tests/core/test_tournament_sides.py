"""Games of sides (teams): `State.sides()`, win shares, forfeits, records and the tournament's by-side report.

The board game's Spy Mode and Boss players split the table into sides: every seat of the winning side
wins. The expectations below are worked out by hand from the returns, never with the code under test.
"""
from __future__ import annotations

import json

import pytest

import virus_envs
from virus_envs.experiments import tournament as T
from virus_envs.experiments.arena import forfeit_returns, win_shares
from virus_envs.experiments.records import check_outcome, replay
from virus_envs.virus_cards.game import VirusCardsState


def test_core_default_is_no_sides():
    s = virus_envs.game("virus_cards_v0", num_players=3).new_initial_state(0)
    assert s.sides() is None


def test_a_winning_side_counts_a_whole_win_for_each_of_its_seats():
    # heroes (seats 0 and 2) beat the spy (seat 1): each hero won, not half a win each
    assert win_shares([1, -1, 1], False, ["heroes", "spy", "heroes"]) == [1.0, 0.0, 1.0]
    assert win_shares([-1, 1, -1], False, ["heroes", "spy", "heroes"]) == [0.0, 1.0, 0.0]
    assert win_shares([1, -1, 1], True, ["heroes", "spy", "heroes"]) == [0.0, 0.0, 0.0]
    # without sides the same returns are a shared win: half each
    assert win_shares([1, -1, 1], False) == [0.5, 0.0, 0.5]


def test_a_forfeit_loses_for_the_whole_side():
    g = virus_envs.game("virus_cards_v0", num_players=4)
    sides = ["heroes", "boss", "heroes", "boss"]
    assert forfeit_returns(g, 2, sides) == [-1.0, 1.0, -1.0, 1.0]
    assert forfeit_returns(g, 1, sides) == [1.0, -1.0, 1.0, -1.0]
    assert forfeit_returns(g, 1) == pytest.approx([1 / 3, -1.0, 1 / 3, 1 / 3])


def _rec(index, seats, sides, returns):
    return {"index": index, "deal": index, "rotation": 0, "seed": index, "seats": seats, "sides": sides,
            "returns": returns, "scores": [0.0] * len(seats), "truncated": False, "length": 10, "actions": []}


def test_aggregate_reports_each_agent_on_each_side():
    cfg = T.TournamentConfig(game="virus_cards_v0", agents=["A", "B"], players=3, games=4)
    recs = [
        _rec(0, ["A", "B", "B"], ["spy", "heroes", "heroes"], [1, -1, -1]),    # A wins as the spy
        _rec(1, ["B", "A", "B"], ["spy", "heroes", "heroes"], [-1, 1, 1]),     # A and B win as heroes
        _rec(2, ["B", "B", "A"], ["heroes", "spy", "heroes"], [1, -1, 1]),     # A and B win as heroes
        _rec(3, ["A", "B", "B"], ["heroes", "heroes", "spy"], [-1, -1, 1]),    # B wins as the spy
    ]
    res = T.aggregate(cfg, recs)
    a = {x["agent"]: x for x in res["agents"]}
    assert a["A"]["by_side"]["spy"]["games"] == 1 and a["A"]["by_side"]["spy"]["wins"] == 1
    assert a["A"]["by_side"]["heroes"]["games"] == 3 and a["A"]["by_side"]["heroes"]["wins"] == 2
    assert a["B"]["by_side"]["spy"]["games"] == 3 and a["B"]["by_side"]["spy"]["wins"] == 1
    assert a["B"]["by_side"]["heroes"]["games"] == 5 and a["B"]["by_side"]["heroes"]["wins"] == 2
    # every seat-game of a side, whoever sat there: heroes 4 wins in 8, the spy 2 in 4
    assert res["sides"]["heroes"]["games"] == 8 and res["sides"]["heroes"]["wins"] == 4
    assert res["sides"]["spy"]["win_rate"] == 0.5
    # A: 3 wins in 4 seat-games; the baseline 1/N means nothing in a game of sides
    assert a["A"]["wins"] == 3 and a["A"]["baseline"] is None
    lo, hi = a["A"]["by_side"]["spy"]["ci95"]
    assert 0 < lo < 1 and hi == 1.0
    md = T.report_markdown(res)
    assert "By side" in md and "| A | spy | 1 | 1.000 |" in md
    assert "as spy" in T.results_table(res)


def test_aggregate_without_sides_has_no_side_report():
    cfg = T.TournamentConfig(game="virus_cards_v0", agents=["A", "B"], players=2, games=2)
    recs = [{**_rec(0, ["A", "B"], None, [1, -1])}, {**_rec(1, ["B", "A"], None, [1, -1])}]
    for r in recs:
        del r["sides"]
    res = T.aggregate(cfg, recs)
    assert "sides" not in res and all("by_side" not in x for x in res["agents"])
    assert res["agents"][0]["baseline"] == 0.5


def test_a_config_that_makes_sides_seats_the_game_as_competitive(monkeypatch):
    """`is_cooperative` reads the game instance built from the config: an instance may turn it off."""
    assert T.is_cooperative("virus_lab_v0", 2, {}) is True
    g = virus_envs.game("virus_lab_v0", num_players=2, difficulty=1)
    g.cooperative = False                      # what a side-making option does (Spy Mode, Boss players)
    monkeypatch.setitem(T._CACHE, ("game", "virus_lab_v0", 2, json.dumps({"difficulty": 1}, sort_keys=True)), g)
    assert T.is_cooperative("virus_lab_v0", 2, {"difficulty": 1}) is False
    cfg = T.TournamentConfig(game="virus_lab_v0", agents=["random"], players=2, games=4, config={"difficulty": 1})
    jobs = T.schedule(cfg)
    assert [j.rotation for j in jobs] == [0, 1, 0, 1]        # every seat rotation, not one team per agent


def test_tournament_end_to_end_records_and_reports_sides(monkeypatch, tmp_path):
    """A game whose state names sides: each record carries them, a replay checks them, results split by side."""
    monkeypatch.setattr(VirusCardsState, "sides", lambda self: ["odd" if i % 2 else "even" for i in range(self.n)])
    cfg = T.TournamentConfig(game="virus_cards_v0", agents=["random", "heuristic"], players=2, games=8, seed=5)
    res = T.run_tournament(cfg, str(tmp_path), workers=1, echo=lambda *_: None, progress=False)
    recs = [json.loads(x) for x in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert all(r["sides"] == ["even", "odd"] for r in recs)
    for r in recs:
        check_outcome(r, replay(r, where="rec"), "rec")
        bad = {**r, "sides": ["odd", "even"]}
        with pytest.raises(ValueError, match="field 'sides'"):
            check_outcome(bad, replay(bad, where="rec"), "rec")
    a = {x["agent"]: x for x in res["agents"]}
    assert set(a["random"]["by_side"]) == {"even", "odd"}
    assert sum(x["by_side"]["even"]["games"] for x in a.values()) == 8
    assert "By side" in (tmp_path / "report.md").read_text()
