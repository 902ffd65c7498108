"""experiments/seed_report.py: three training seeds reported on test deals, the median run chosen on validation.

Issue 17: "Train each shipped configuration with at least 3 training seeds and report the mean and
spread, not the best run. Ship the median run" and "Choose a model on validation seeds and report it on
test seeds." The runs below are written by hand (summary.json as `virus-arena train` writes it), so
every expected figure is computed here by hand, not by the code under test.
"""
import json

import pytest
from statsmodels.stats.proportion import proportion_confint

from virus_envs.experiments import seed_report


def _row(opponent, wins_by_seat, games_per_seat=10):
    seats = {str(s): {"games": games_per_seat, "wins": w, "win_rate": w / games_per_seat, "ci95": [0.0, 1.0]}
             for s, w in enumerate(wins_by_seat)}
    games = games_per_seat * len(wins_by_seat)
    return {"opponent": opponent, "games": games, "wins": sum(wins_by_seat), "win_rate": sum(wins_by_seat) / games,
            "ci95": [0.0, 1.0], "baseline": 0.5, "by_seat": seats}


def _run(tmp_path, seed, val_heuristic, test_heuristic):
    """A 2-player run: best checkpoint at step 200 with validation vs heuristic val_heuristic (wins of 20)."""
    d = tmp_path / f"s{seed}"
    d.mkdir()
    evals = [{"step": 100, "checkpoint": str(d / "checkpoints/step_100.zip"), "score": 0.0,
              "rows": [_row("random", [9, 9]), _row("heuristic", [0, 0])]},
             {"step": 200, "checkpoint": str(d / "checkpoints/step_200.zip"), "score": 0.0,
              "rows": [_row("random", [10, 10]), _row("heuristic", [val_heuristic, 0])]}]
    summary = {"env_id": "roll_write_v0", "num_players": 2, "steps": 200, "minutes": 1.5,
               "best_checkpoint": str(d / "checkpoints/step_200.zip"), "evals": evals,
               "split": {"train_seed": seed, "val_seed": 7, "test_seed": 9, "val_games": 20, "test_games": 20},
               "test": [_row("heuristic", test_heuristic), _row("ppo:builtin", [5, 5])]}
    (d / "summary.json").write_text(json.dumps(summary))
    return d


@pytest.fixture
def runs(tmp_path):
    # validation vs heuristic: 6/20, 10/20, 8/20 -> the median is seed 2 (8/20);
    # test vs heuristic: 12/20, 4/20, 8/20 (the test ranking would pick another run: it must not matter)
    return [_run(tmp_path, 0, 6, [6, 6]), _run(tmp_path, 1, 10, [2, 2]), _run(tmp_path, 2, 8, [4, 4])]


def test_the_median_by_validation_is_shipped_and_the_spread_is_over_test_figures(runs):
    text, data = seed_report.report([seed_report.load_run(r) for r in runs], "heuristic",
                                    {"ppo:builtin": "ppo:builtin_prev"})
    assert data["shipped_seed"] == 2
    h = data["spread"]["heuristic"]
    # test win rates 0.6, 0.2, 0.4: mean 0.4, sample standard deviation sqrt(((0.2)^2 + (0.2)^2 + 0) / 2) = 0.2
    assert h["mean"] == pytest.approx(0.4) and h["sd"] == pytest.approx(0.2)
    assert (h["min"], h["max"], h["shipped"]) == pytest.approx((0.2, 0.6, 0.4))
    assert data["spread"]["ppo:builtin_prev"]["sd"] == 0.0 and "ppo:builtin" not in data["spread"]
    assert "| `heuristic` | 2 (shipped) | 20 | 0.400 [0.000, 1.000] | 0.400 [0.000, 1.000] |" in text
    assert "| 2 | 200 | 1.5 | `step_200` | 1.000 [0.000, 1.000] | 0.400 [0.000, 1.000] | **yes** (median) |" in text


def test_an_extra_evaluation_on_the_test_deals_joins_and_one_on_other_deals_is_refused(runs):
    extra = runs[0] / "ismcts"
    extra.mkdir()
    e = {"env_id": "roll_write_v0", "num_players": 2, "model": str(runs[0] / "best.zip"), "seed": 9,
         "rows": [_row("ismcts?iters=20", [1, 3])]}
    (extra / "eval.json").write_text(json.dumps(e))
    assert seed_report.load_run(runs[0])["test"]["ismcts?iters=20"]["win_rate"] == 0.2
    (extra / "eval.json").write_text(json.dumps(dict(e, seed=2026)))
    with pytest.raises(ValueError, match=r"ismcts/eval.json: field 'seed' is 2026, not the run's test_seed 9"):
        seed_report.load_run(runs[0])
    (extra / "eval.json").write_text(json.dumps(dict(e, model=str(runs[1] / "best.zip"))))
    with pytest.raises(ValueError, match=r"field 'model'"):
        seed_report.load_run(runs[0])


def test_command_line_errors_are_one_line(runs, tmp_path, capsys):
    with pytest.raises(SystemExit, match=r"seed_report: .*nowhere/summary.json: not found"):
        seed_report.main([str(runs[0]), str(tmp_path / "nowhere")])
    with pytest.raises(SystemExit, match=r"no validation figure against 'heuristic:spoiler'"):
        seed_report.main([str(r) for r in runs] + ["--choose-by", "heuristic:spoiler"])
    seed_report.main([str(r) for r in runs] + ["--json", str(tmp_path / "s.json")])
    assert json.loads((tmp_path / "s.json").read_text())["shipped_seed"] == 2
    assert "shipped: seed 2" in capsys.readouterr().out


def test_fewer_than_three_runs_are_reported_but_none_is_chosen(runs, tmp_path, capsys):
    """Issue 17: "at least 3 training seeds". Two finished runs (a session that ran out of time) still give
    their test figures and spread, but no run is marked shipped."""
    text, data = seed_report.report([seed_report.load_run(r) for r in runs[:2]], "heuristic")
    assert data["shipped_seed"] is None and data["shipped_dir"] is None
    assert "shipped: none (2 runs; a run is chosen from at least 3)" in text
    assert "(shipped)" not in text and "**yes**" not in text
    # test win rates 0.6 and 0.2: mean 0.4, sample standard deviation sqrt(2 * 0.2^2) = 0.283, no shipped figure
    h = data["spread"]["heuristic"]
    assert (h["runs"], h["mean"], h["sd"], h["shipped"]) == pytest.approx((2, 0.4, 0.2 * 2 ** 0.5, None))
    assert "| `heuristic` | 2 | 0.400 | 0.283 | 0.200 | 0.600 | — |" in text


def test_the_json_prints_the_same_tables_again(runs, tmp_path):
    """The docs' tables are printed from the stored JSON (agents_tables): `runs_from_json` gives `report` what
    `load_run` gave it, the opponents already renamed and each validation interval from its win rate and games."""
    seed_report.main([str(r) for r in runs] + ["--rename", "ppo:builtin=ppo:builtin_prev", "--json",
                                               str(tmp_path / "s.json")])
    stored = json.loads((tmp_path / "s.json").read_text())
    assert [r["val_games"] for r in stored["runs"]] == [20, 20, 20]
    text, _ = seed_report.report([seed_report.load_run(r) for r in runs], "heuristic",
                                 {"ppo:builtin": "ppo:builtin_prev"})
    again, data = seed_report.report(seed_report.runs_from_json(stored), stored["choose_by"])
    assert data["shipped_seed"] == 2
    # the run and spread tables are the same text; the validation intervals are Wilson's of wins/20 (the hand-made
    # runs above carry [0, 1] placeholders in their summary.json)
    cut = text.index("| training seed |")
    assert again[:cut] == text[:cut]
    lo, hi = proportion_confint(8, 20, method="wilson")
    assert f"| 2 | 200 | 1.5 | `step_200` | 1.000 [0.839, 1.000] | 0.400 [{lo:.3f}, {hi:.3f}] | **yes** (median) |" in again


def test_a_median_run_that_was_not_shipped_is_labelled_a_candidate(runs):
    text, _ = seed_report.report([seed_report.load_run(r) for r in runs], "heuristic", label="candidate")
    assert "| `heuristic` | 2 (candidate) | 20 |" in text and "| candidate run |" in text
    assert text.splitlines()[0].endswith("candidate: seed 2 (the median by validation against `heuristic`).")
    assert "| **yes** (median; not shipped) |" in text and "shipped)" not in text.replace("not shipped)", "")


def test_a_cooperative_games_runs_are_chosen_by_the_team_row_with_no_one_over_n(tmp_path):
    """The lab's runs (1 Hero) have one row, `team`: the median by validation team win rate ships, and the header
    says there is no 1/N (a team of one has nothing to share a win with)."""
    dirs = []
    for seed, val, test in ((0, 2, 1), (1, 5, 3), (2, 3, 9)):      # validation team wins of 10: median is seed 2
        d = tmp_path / f"lab{seed}"
        d.mkdir()
        ck = str(d / "checkpoints/step_0.zip")
        (d / "summary.json").write_text(json.dumps({
            "env_id": "virus_lab_v0", "num_players": 1, "steps": 0, "minutes": 1.0, "best_checkpoint": ck,
            "evals": [{"step": 0, "checkpoint": ck, "score": 0.0, "rows": [_row("team", [val])]}],
            "split": {"train_seed": seed, "val_seed": 7, "test_seed": 9, "val_games": 10, "test_games": 10},
            "test": [_row("team", [test])]}))
        dirs.append(d)
    text, data = seed_report.report([seed_report.load_run(d) for d in dirs], "team")
    assert data["shipped_seed"] == 2
    assert data["spread"]["team"]["mean"] == pytest.approx((0.1 + 0.3 + 0.9) / 3)
    assert text.startswith("Test deals, best.zip of each run, seed 0, seed 1, seed 2; a co-operative game: the "
                           "team's win rate, no 1/N; shipped: seed 2")
    assert "1/N =" not in text.splitlines()[0]
