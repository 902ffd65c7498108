"""virus-arena tournament end to end on small budgets, for every implemented game."""
import json
import os
from collections import Counter

import pytest

import virus_envs
from virus_envs.experiments.tournament import TournamentConfig, load_config_file, run_tournament, schedule

from interval_oracle import score_interval


def _cfg(game="virus_cards_v0", **kw):
    c = TournamentConfig(game=game, agents=kw.pop("agents", ["heuristic", "random"]), **kw)
    c.validate()
    return c


def test_duplicate_seating_every_agent_in_every_seat_on_the_same_deals():
    c = _cfg(players=3, agents=["heuristic", "random", "heuristic:aggressive"], games=30)
    jobs = schedule(c)
    assert len(jobs) == 30
    by_deal = {}
    for j in jobs:
        by_deal.setdefault(j.deal, []).append(j)
    for deal, js in by_deal.items():
        assert len({j.seed for j in js}) == 1 and sorted(j.rotation for j in js) == [0, 1, 2]
        for agent in c.agents:   # in one deal, each agent takes each seat exactly once
            assert sorted(j.seats.index(agent) for j in js) == [0, 1, 2]
    seat_counts = Counter((j.seats[s], s) for j in jobs for s in range(3))
    assert set(seat_counts.values()) == {10}


@pytest.mark.parametrize("agents_, n", [(["heuristic", "random"], 4), (["heuristic", "random", "heuristic:aggressive",
                                                                          "heuristic:defensive"], 3)])
def test_mixed_lineups_are_sampled_and_rotated(agents_, n):
    c = _cfg(players=n, agents=agents_, games=8 * n)
    jobs = schedule(c)
    assert len(jobs) == 8 * n
    for d in range(8):
        js = [j for j in jobs if j.deal == d]
        lineups = {tuple(j.seats[(i + j.rotation) % n] for i in range(n)) for j in js}
        assert len(lineups) == 1
    assert set(a for j in jobs for a in j.seats) == set(agents_)


def test_games_round_up_to_whole_deals():
    assert len(schedule(_cfg(players=4, games=10))) == 12


@pytest.mark.parametrize("env_id", virus_envs.ENV_IDS)
def test_tournament_end_to_end(env_id, tmp_path):
    cls = virus_envs.game_class(env_id)
    n = cls.default_players
    c = _cfg(env_id, players=n, games=2 * n)
    res = run_tournament(c, str(tmp_path), workers=1, echo=lambda *_: None, progress=False)
    for f in ("config.json", "games.jsonl", "results.json", "report.md", "winrates.png"):
        assert os.path.getsize(tmp_path / f) > 0
    assert res["games"] == 2 * n and res["complete"]
    total_wins = sum(a["wins"] for a in res["agents"])
    if not cls.cooperative:
        # competitive: exactly one share of a win per finished game; co-operative: teams may all lose
        assert abs(total_wins - (res["games"] - res["truncated"])) < 1e-6
    for a in res["agents"]:
        assert a["win_rate"] == pytest.approx(a["wins"] / a["games"], abs=1e-6)
        assert a["ci95"] == pytest.approx(score_interval(a["wins"], a["games"]), abs=1e-6)
        assert a["baseline"] == (None if cls.cooperative else round(1 / n, 6))
        if cls.cooperative:
            assert a["by_seat"] == []       # a team holds every seat
        else:
            assert sum(s["games"] for s in a["by_seat"]) == a["games"]
    report = (tmp_path / "report.md").read_text()
    assert "| heuristic |" in report and "OpenSkill" in report


def _results(path):
    with open(os.path.join(path, "results.json")) as f:
        return json.load(f)


def test_same_results_with_one_or_two_workers(tmp_path):
    c = _cfg(players=3, agents=["heuristic", "random", "heuristic:defensive"], games=18, seed=4)
    run_tournament(c, str(tmp_path / "w1"), workers=1, echo=lambda *_: None, progress=False)
    c = _cfg(players=3, agents=["heuristic", "random", "heuristic:defensive"], games=18, seed=4)
    run_tournament(c, str(tmp_path / "w2"), workers=2, echo=lambda *_: None, progress=False)
    assert _results(tmp_path / "w1") == _results(tmp_path / "w2")
    strip = lambda p: [{k: v for k, v in json.loads(ln).items() if k != "seconds"} for ln in open(p)]
    assert strip(tmp_path / "w1" / "games.jsonl") == strip(tmp_path / "w2" / "games.jsonl")


def test_resume_after_an_interrupt_gives_the_uninterrupted_results(tmp_path):
    c = _cfg(players=2, games=12, seed=9)
    run_tournament(c, str(tmp_path / "full"), workers=1, echo=lambda *_: None, progress=False)
    part = tmp_path / "part"
    res = run_tournament(_cfg(players=2, games=12, seed=9), str(part), workers=1, echo=lambda *_: None,
                         progress=False, max_new_games=5)
    assert not res["complete"] and res["games"] == 5
    with open(part / "games.jsonl", "a") as f:
        f.write('{"index": 5, "deal": 2, "rot')          # a line torn by the interrupt
    said = []
    res = run_tournament(_cfg(players=2, games=12, seed=9), str(part), workers=2, echo=said.append, progress=False)
    assert res["complete"] and any("resuming: 5 of 12" in s for s in said)
    assert _results(tmp_path / "full") == _results(part)


def test_another_tournament_in_the_same_directory_is_refused(tmp_path):
    run_tournament(_cfg(games=2), str(tmp_path), workers=1, echo=lambda *_: None, progress=False)
    with pytest.raises(ValueError, match="holds another tournament"):
        run_tournament(_cfg(games=4), str(tmp_path), workers=1, echo=lambda *_: None, progress=False)


@pytest.mark.parametrize("text, field", [
    ("tournaments: 3", "tournaments"),
    ("tournaments:\n  - {game: virus_cards_v0}", "tournaments[0].agents"),
    ("tournaments:\n  - {game: virus_cards_v0, agents: [random], colour: red}", "tournaments[0].colour"),
])
def test_bad_tournament_config_names_the_field(tmp_path, text, field):
    p = tmp_path / "t.yaml"
    p.write_text(text)
    with pytest.raises(ValueError) as ei:
        load_config_file(str(p))
    assert str(p) in str(ei.value) and field in str(ei.value)


def test_bad_agent_or_budget_fails_before_any_game():
    with pytest.raises(ValueError, match="unknown agent"):
        _cfg(agents=["heuristic", "oracle"])
    with pytest.raises(ValueError, match="games"):
        _cfg(games=0)


def test_default_config_lists_known_games():
    here = os.path.dirname(__file__)
    cfgs, _ = load_config_file(os.path.join(here, "..", "..", "configs", "tournaments", "default.yaml"))
    assert {c.game for c in cfgs} >= {"virus_cards_v0"}


def test_a_changed_model_file_is_another_tournament(tmp_path):
    import shutil
    import zipfile
    src = os.path.join(os.path.dirname(__file__), "..", "..", "models", "roll_write_v0", "ppo.zip")
    model = tmp_path / "m.zip"
    shutil.copy(src, model)
    cfg = lambda: TournamentConfig(game="roll_write_v0", agents=[f"ppo:{model}", "heuristic"], players=2, games=2)
    out = str(tmp_path / "t")
    run_tournament(cfg(), out, workers=1, echo=lambda *_: None, progress=False)
    with zipfile.ZipFile(model, "a") as z:          # the same path, another file
        z.writestr("note.txt", "retrained")
    with pytest.raises(ValueError, match="model file changed"):
        run_tournament(cfg(), out, workers=1, echo=lambda *_: None, progress=False)
