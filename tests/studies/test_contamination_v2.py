"""The designed contamination study (issue 18): its statistics by hand, its randomisation, a tiny run."""
from __future__ import annotations

import json

import numpy as np
import pytest

from virus_envs.experiments.cli import main
from virus_envs.experiments.studies import contamination_v2 as cv


def test_holm_by_hand():
    # m = 4: the smallest p is compared with 0.05/4, the next with 0.05/3, ...; the first failure stops
    assert cv.holm([0.010, 0.04, 0.012, 0.5], 0.05) == [True, False, True, False]   # 0.010<.0125, .012<.0167, .04>.025
    assert cv.holm([0.013, 0.001], 0.05) == [True, True]                           # .001<.025, .013<.05
    assert cv.holm([0.03, None, 0.2], 0.05) == [False, False, False]               # None is not tested; .03>.025
    assert cv.holm([], 0.05) == []


def test_t_test_by_hand():
    x = np.array([1.0, 2.0, 3.0, 4.0])               # mean 2.5, sd 1.2910, se 0.6455, t(3) 0.975 = 3.1824
    t = cv.t_test(x)
    assert t["mean"] == pytest.approx(2.5)
    assert t["ci95"] == pytest.approx([2.5 - 3.1824 * 0.6455, 2.5 + 3.1824 * 0.6455], abs=2e-3)
    assert t["p"] == pytest.approx(0.0300, abs=1e-3)    # t = 3.873 on 3 df, two-sided
    assert cv.t_test(np.array([0.5]))["p"] is None


def _row(seed, players, value, phase, arms):
    return {"seed": seed, "players": players, "value": value, "phase": phase, "sheet": "shipped",
            "arms": {a: {"win": w, "margin": 10 * w} for a, w in arms.items()}}


def test_cells_contrasts_and_replication():
    h = cv.Hypothesis(id="h", statement="s", values=[1, 2], players=[2], phase="late")
    rows = [_row(1, 2, 1, "late", {"contaminate": 0.0, "place": 1.0}),
            _row(1, 2, 2, "early", {"contaminate": 1.0, "place": 0.0}),      # wrong phase
            _row(1, 4, 1, "late", {"contaminate": 1.0, "place": 0.0}),       # wrong player count
            _row(1, 2, 2, "late", {"contaminate": 0.5, "place": 0.25, "wildcard": 1.0})]
    cell = [r for r in rows if cv.in_cell(r, h)]
    assert len(cell) == 2
    assert [cv.in_cell(r, cv.Hypothesis(id="n", statement="s", placeable="no")) for r in rows] == [False] * 4
    assert list(cv.effects(cell, "contaminate-place")) == [-1.0, 0.25]
    assert list(cv.effects(cell, "contaminate-wildcard")) == [-0.5]          # only where the arm was played
    sign = lambda s: [{"id": "h", "sign": s}]                                # noqa: E731
    assert cv.replicated({1: sign(-1), 2: sign(-1), 3: sign(-1)}) == ["h"]
    assert cv.replicated({1: sign(-1), 2: sign(0), 3: sign(-1)}) == []
    assert cv.replicated({1: sign(-1), 2: sign(1), 3: sign(-1)}) == []


def test_one_intervention_is_random_among_eligible_decisions_and_reproducible():
    cfg = cv.StudyConfig(hypotheses=[cv.Hypothesis(id="h", statement="s")], rollouts=2, continuation="random")
    task = {"cfg": cfg, "players": 2, "seed": 5, "game": 0, "sheet": cv.Sheet(id="shipped"), "root": "."}
    a, b = cv.one_intervention(task), cv.one_intervention(dict(task))
    assert a == b
    assert "contaminate" in a["arms"] and ({"place", "wildcard"} & set(a["arms"]))
    assert 1 <= a["value"] <= 6 and a["eligible_decisions"] >= 1
    points = {cv.one_intervention(dict(task, game=g))["round"] for g in range(8)}
    assert len(points) > 1                                  # not always the first eligible decision


def test_a_tiny_run_through_the_command_line(tmp_path, capsys):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("players: [2]\nseeds: [1, 2]\ngames: 3\nrollouts: 1\ncontinuation: random\nworkers: 1\n"
                   "hypotheses:\n  - {id: H1, statement: all values}\n  - {id: H2, statement: a one, values: [1]}\n"
                   "sheets:\n  - {id: shipped}\n  - {id: wildcard_1pt, wildcard_points: 1}\n"
                   "sensitivity_seeds: [1]\n")
    assert main(["study", "contamination-v2", "--config", str(cfg), "--out", str(tmp_path / "o"), "--docs", ""]) in (0, None)
    res = json.loads((tmp_path / "o" / "results.json").read_text())
    assert set(res["by_seed"]) == {"1", "2"} and set(res["sensitivity"]) == {"wildcard_1pt"}
    lines = (tmp_path / "o" / "interventions.jsonl").read_text().splitlines()
    assert len(lines) == 2 * 3 + 3                         # two seeds on the shipped sheet, one on the other
    assert "| H1: all values |" in cv.tables_markdown(res)


def test_config_mistakes_are_named(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("players: [2]\n")
    with pytest.raises(SystemExit):
        main(["study", "contamination-v2", "--config", str(cfg), "--out", str(tmp_path / "o"), "--docs", ""])
    with pytest.raises(ValueError, match="hypotheses"):
        cv.load_config(str(cfg))
    cfg.write_text("players: [2]\nrolouts: 3\nhypotheses: [{id: a, statement: b}]\n")
    with pytest.raises(ValueError, match="rolouts"):
        cv.load_config(str(cfg))


def test_the_notebook_redraws_the_stored_results(tmp_path):
    import shutil
    from pathlib import Path

    import nbclient
    import nbformat

    root = Path(__file__).resolve().parents[2]
    work = tmp_path / "notebooks"
    work.mkdir()
    (tmp_path / "docs" / "studies").mkdir(parents=True)
    for name in ("contamination_v3.json", "contamination_v2.json", "contamination_v2_pilot.json",
                 "contamination_rule_loso.json", "contamination_rule_play.json", "contamination_v3_sheets.json",
                 "contamination_v3_sheets3.json"):
        assert (root / "docs" / "studies" / name).is_file()
        shutil.copy(root / "docs" / "studies" / name, tmp_path / "docs" / "studies")
    (tmp_path / "agents" / "data").mkdir(parents=True)
    for name in ("contamination_rule.json", "contamination_rule_v3.json", "contamination_rule_v3_all.json"):
        shutil.copy(root / "agents" / "data" / name, tmp_path / "agents" / "data")
    nb = nbformat.read(str(root / "notebooks" / "contamination_v2.ipynb"), as_version=4)
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(work)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    # the main run, the earlier run, the pilot, the cells, the rule agents' games, the sheets (seed 101; three seeds)
    assert sum("image/png" in o.get("data", {}) for o in outputs) == 7
    for name in ("contamination_v3_redrawn.png", "contamination_v2_redrawn.png", "contamination_v2_pilot_redrawn.png",
                 "contamination_rule_play_redrawn.png", "contamination_v3_sheets_redrawn.png",
                 "contamination_v3_sheets3_redrawn.png"):
        assert (work / name).is_file()
    text = "".join(o.get("text", "") for o in outputs)
    assert "main run:" in text and "earlier run:" in text
    assert text.count("the rule: a depth-3 tree") == 3
    assert text.count("scored on seed") == 3 and "rule agents' paired games" in text
    assert "alternative sheets" in text and text.count("  H") >= 14         # one verdict per hypothesis and run
    assert "sheets on three seeds (101, 202, 303)" in text


def test_each_run_writes_its_own_results_figure_and_tables(tmp_path):
    # the earlier run (name contamination_v2) keeps its tables when a later run (contamination_v3) writes its own
    start2, end2 = cv.markers("contamination_v2")
    start3, end3 = cv.markers("contamination_v3")
    assert (start2, end2) == (cv.TABLES_START, cv.TABLES_END)       # the page's existing markers are unchanged
    assert "contamination v3 tables: start" in start3 and "contamination v3 tables: end" in end3
    page = tmp_path / cv.PAGE
    page.write_text(f"intro\n{start3}\nold v3\n{end3}\nmiddle\n{start2}\nthe earlier run\n{end2}\nend\n")
    res = json.loads((cv.Path(__file__).resolve().parents[2] / "docs" / "studies" / "contamination_v2.json").read_text())
    cv.write_docs(res, str(tmp_path), "contamination_v3")
    text = page.read_text()
    assert "old v3" not in text and "the earlier run" in text and text.startswith("intro\n") and text.endswith("end\n")
    assert text.count("### Pre-registered hypotheses") == 1
    with pytest.raises(ValueError, match="contamination_v4"):
        cv.write_docs(res, str(tmp_path), "contamination_v4")


def test_the_run_name_is_a_file_stem(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("name: ../x\nhypotheses: [{id: a, statement: b}]\n")
    with pytest.raises(ValueError, match="'name'"):
        cv.load_config(str(cfg))


def test_the_shipped_configs_differ_only_where_the_v3_preregistration_says():
    from virus_envs import configs

    v2 = cv.load_config(configs.path("studies", "contamination_v2.yaml"))
    v3 = cv.load_config(configs.path("studies", "contamination_v3.yaml"))
    assert v2.hypotheses == v3.hypotheses and v2.seeds == v3.seeds == [101, 202, 303] and v2.alpha == v3.alpha
    assert v3.name == "contamination_v3" and v2.name == "contamination_v2"
    assert v3.continuation == "expectimax?depth=1" and v3.continuation_others == ""   # the same agent in every seat
    assert v3.rollouts >= 2
