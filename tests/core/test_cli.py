"""virus-arena on tiny budgets: commands work, mistakes give one line, not a traceback."""
import importlib.util
import json
import subprocess
import sys

import pytest

from virus_envs.experiments.cli import main


def test_eval_writes_json(tmp_path, capsys):
    out = tmp_path / "r.json"
    main(["eval", "--game", "virus_cards_v0", "--games", "6", "--out", str(out)])
    row = json.loads(out.read_text())
    assert row["games"] == 6 and 0 <= row["ci95"][0] <= row["win_rate"] <= row["ci95"][1] <= 1
    assert "win rate" in capsys.readouterr().out


def test_run_plays_the_default_tournament_and_prints_the_table(tmp_path, capsys):
    main(["run", "--games", "4", "--game", "virus_cards_v0", "--out", str(tmp_path), "--workers", "1"])
    out = capsys.readouterr().out
    assert "| virus_cards_v0 | 4 | heuristic | 4 |" in out
    assert f"report: {tmp_path}" in out and (tmp_path / "virus_cards_v0-4p" / "report.md").exists()


def test_bench_runs_and_compares_to_connect_four(tmp_path, capsys):
    out = tmp_path / "b.json"
    main(["bench", "--game", "virus_cards_v0", "--players", "2", "--seconds", "0.05", "--rounds", "1",
          "--batch", "64", "--out", str(out)])
    rows = json.loads(out.read_text())
    names = [r["target"] for r in rows]
    openspiel = (["hearts (OpenSpiel C++)", "gin_rummy (OpenSpiel C++)", "virus_cards_v0 2p (OpenSpiel adapter)"]
                 if importlib.util.find_spec("pyspiel") else [])        # the rows through OpenSpiel need pyspiel
    assert names == ["connect_four_v3 (AEC)", "texas_holdem_v4 (AEC)", "virus_cards_v0 2p (AEC)",
                     "virus_cards_v0 2p (engine)", "virus_cards_v0 2p (batched B=64)",
                     "virus_cards_v0 2p (batched+obs B=64)", "virus_cards_v0 2p (ismcts)"] + openspiel
    assert rows[0]["ratio_to_connect_four"] == 1.0 and all(r["steps_per_s"] > 0 for r in rows)
    assert all(r["cpu_steps_per_s"] > 0 for r in rows[:7])
    assert rows[6]["mean_length"] is None and rows[6]["games_per_s"] > 0   # decisions searched per second
    main(["bench", "--game", "virus_cards_v0", "--players", "2", "--seconds", "0.02", "--rounds", "1",
          "--search", "none", "--no-openspiel", "--batch", "0", "--out", str(out)])
    assert [r["target"] for r in json.loads(out.read_text())] == names[:4]


@pytest.mark.parametrize("argv, fragment", [
    (["eval", "--game", "nope"], "unknown env id"),
    (["eval", "--game", "virus_cards_v0", "--agent", "heuristic?zz=1"], "unknown parameter 'zz'"),
    (["eval", "--game", "virus_cards_v0", "--players", "9"], "num_players=9"),
    (["eval", "--game", "virus_cards_v0", "--games", "0"], "--games must be at least 1"),
    (["frobnicate"], "invalid choice"),
])
def test_cli_mistakes_are_one_line(argv, fragment):
    r = subprocess.run([sys.executable, "-m", "virus_envs.experiments.cli", *argv], capture_output=True, text=True)
    assert r.returncode != 0
    err = r.stderr.strip()
    assert fragment in err and "Traceback" not in err and len(err.splitlines()) == 1
