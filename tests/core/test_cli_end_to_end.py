"""virus-arena through its console script, as a user runs it: tournament with engine config, replay of
one game and step by step, train --evaluate, and eval on the co-operative game. Tiny budgets."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from interval_oracle import score_interval

ROOT = Path(__file__).resolve().parents[2]
# the entry point `pip install` writes from pyproject's [project.scripts], beside this interpreter
ARENA = [str(Path(sys.executable).parent / "virus-arena")]


def arena(*argv, stdin=None, cwd=None):
    return subprocess.run([*ARENA, *map(str, argv)], input=stdin, capture_output=True, text=True, cwd=cwd,
                          timeout=300)


def ok(r):
    assert r.returncode == 0, r.stderr
    return r.stdout


def one_line_error(r, fragment):
    assert r.returncode != 0
    err = r.stderr.strip()
    assert fragment in err and "Traceback" not in err and len(err.splitlines()) == 1, err


@pytest.fixture(scope="module")
def tournament_dir(tmp_path_factory):
    """4 games of VIRUS! 2p in which, by engine config, seat 1 always moves first."""
    out = tmp_path_factory.mktemp("tour") / "t"
    r = arena("tournament", "--game", "virus_cards_v0", "--players", 2, "--agents", "heuristic", "random",
              "--games", 4, "--workers", 1, "--seed", 3, "--game-config", "first_player=1", "--out", out)
    text = ok(r)
    assert "virus_cards_v0 2p (4 games)" in text and f"report: {out / 'report.md'}" in text
    return out


def _records(d):
    return [json.loads(line) for line in open(d / "games.jsonl")]


def test_tournament_game_config_reaches_the_engine(tournament_dir):
    assert json.loads((tournament_dir / "config.json").read_text())["config"] == {"first_player": 1}
    recs = _records(tournament_dir)
    assert [r["index"] for r in recs] == [0, 1, 2, 3]
    assert all(r["config"] == {"first_player": 1} for r in recs)
    # by default seat 0 moves first; in every replayed game (the record carries the config) seat 1 does
    for r in recs:
        first = ok(arena("replay", tournament_dir / "games.jsonl", "--game-index", r["index"], "--quiet"))
        assert first.splitlines()[0].startswith(f"[0] player_1 ({r['seats'][1]})")


def test_tournament_bad_game_config_is_one_line(tmp_path):
    one_line_error(arena("tournament", "--game", "virus_cards_v0", "--agents", "heuristic", "random", "--games", 2,
                         "--game-config", "nope=1", "--out", tmp_path / "t"), "nope")
    one_line_error(arena("tournament", "--game", "virus_cards_v0", "--agents", "heuristic", "random", "--games", 2,
                         "--game-config", "first_player", "--out", tmp_path / "t"), "key=value")


def test_replay_picks_the_game_by_index_and_reaches_its_recorded_scores(tournament_dir):
    recs = _records(tournament_dir)
    for k in (1, 3):
        lines = ok(arena("replay", tournament_dir / "games.jsonl", "--game-index", k, "--quiet")).splitlines()
        decisions = [ln for ln in lines if ln.startswith("[")]
        assert len(decisions) == len(recs[k]["actions"]) and decisions[-1].startswith(f"[{len(decisions) - 1}] ")
        assert lines[-1] == f"final scores {recs[k]['scores']} match the record"
    one_line_error(arena("replay", tournament_dir / "games.jsonl", "--game-index", 99), "no game with index 99")


def test_replay_step_waits_for_enter_after_each_decision(tournament_dir):
    """Three Enters, then the end of input: four decisions are shown (the fourth waits), then it stops."""
    r = arena("replay", tournament_dir / "games.jsonl", "--game-index", 2, "--step", "--quiet", stdin="\n\n\n")
    lines = ok(r).splitlines()
    assert [ln.split("]")[0] for ln in lines if ln.startswith("[")] == ["[0", "[1", "[2", "[3"]
    assert lines[-1] == "replay stopped" and "final scores" not in r.stdout


def test_train_evaluate_reports_every_seat_of_a_shipped_model(tmp_path):
    model = ROOT / "models" / "virus_cards_v0" / "ppo.zip"
    text = ok(arena("train", "--game", "virus_cards_v0", "--evaluate", model, "--opponent", "random",
                    "--games", 4, "--seed", 1, "--out", tmp_path))
    assert "| opponent | seat | games | win rate | 95% CI |" in text and "| random | all | 4 |" in text
    res = json.loads((tmp_path / "eval.json").read_text())
    assert res["env_id"] == "virus_cards_v0" and res["num_players"] == 2 and res["model"] == str(model)
    [row] = res["rows"]
    assert row["opponent"] == "random" and row["games"] == 4 and row["baseline"] == 0.5
    assert [(s, v["games"]) for s, v in row["by_seat"].items()] == [("0", 2), ("1", 2)]   # seats rotated
    assert row["wins"] == pytest.approx(sum(v["wins"] for v in row["by_seat"].values()))
    for v in [row, *row["by_seat"].values()]:
        assert v["ci95"] == pytest.approx(score_interval(v["wins"], v["games"]), abs=1e-9)
        assert f"| {v['win_rate']:.3f} | [{v['ci95'][0]:.3f}, {v['ci95'][1]:.3f}] |" in text
    one_line_error(arena("train", "--game", "virus_cards_v0", "--evaluate", tmp_path / "missing.zip",
                         "--games", 4), "missing.zip")


def test_eval_on_the_cooperative_game_is_a_team_result(tmp_path):
    out = tmp_path / "lab.json"
    text = ok(arena("eval", "--game", "virus_lab_v0", "--players", 1, "--game-config", "difficulty=1",
                    "--agent", "heuristic", "--games", 8, "--seed", 0, "--out", out))
    assert "virus_lab_v0 1p: team of heuristic: team win rate" in text and "no 1/N baseline" in text
    row = json.loads(out.read_text())
    assert row["cooperative"] and row["baseline"] is None and row["opponent"] is None
    assert row["partners"] == "heuristic" and row["config"] == {"difficulty": 1} and row["games"] == 8
    assert row["wins"] == int(row["wins"])            # a team wins or loses a whole game: no shared wins
    assert row["ci95"] == pytest.approx(score_interval(row["wins"], 8), abs=1e-4)
    # the engine config is the game's: a difficulty the rules do not have is refused, naming the key
    one_line_error(arena("eval", "--game", "virus_lab_v0", "--players", 1, "--game-config", "difficulty=9",
                         "--games", 2), "difficulty")


def test_snapshot_draws_the_position_after_the_steps(tmp_path):
    """`virus-arena snapshot` (the README's pictures): an SVG of the deal after 5 decisions of the default agents, the
    same file for the same seed, a seat's own view differing from the full table, and a wrong file type refused in one
    line."""
    a, b, seat = tmp_path / "a.svg", tmp_path / "b.svg", tmp_path / "seat.svg"
    base = ["snapshot", "--game", "virus_cards_v0", "--players", 3, "--seed", 4, "--steps", 5]
    assert "after 5 decisions" in ok(arena(*base, "-o", a))
    ok(arena(*base, "-o", b))
    ok(arena(*base, "--seat", 1, "-o", seat))
    svg = a.read_text(encoding="utf-8")
    assert svg.lstrip().startswith("<svg") and svg == b.read_text(encoding="utf-8")
    assert seat.read_text(encoding="utf-8") != svg, "a seat's view hides the other hands"
    one_line_error(arena(*base, "-o", tmp_path / "a.jpg"), "must end in .png or .svg")
