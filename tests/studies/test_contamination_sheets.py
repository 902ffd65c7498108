"""Sensitivity of the contamination study to the designed sheet (issue 18): the pre-registered verdicts by hand,
the average over sheets, Holm over the table, the shipped config, a tiny run re-using a first sheet's rows."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from virus_envs.experiments.cli import main
from virus_envs.experiments.studies import contamination_sheets as cs
from virus_envs.experiments.studies import contamination_v2 as cv

ROOT = Path(__file__).resolve().parents[2]


def _cfg(**kw):
    hyps = [cv.Hypothesis(id="H1", statement="placeable, 2 players", players=[2], placeable="yes"),
            cv.Hypothesis(id="H2", statement="a 3", values=[3])]
    base = dict(hypotheses=hyps, seeds=[1, 2, 3], sensitivity_seeds=[1], alpha=0.05, report="sensitivity",
                sensitivity_directions=["H1"],
                sheets=[cv.Sheet(id="shipped"), cv.Sheet(id="alt_a"), cv.Sheet(id="alt_b")])
    base.update(kw)
    return cv.StudyConfig(**base)


def _rows(sheet, seed, effects, value=1, players=2):
    """One row per effect (contaminate - place on win share; points = 10 x that), game index = position."""
    return [{"seed": seed, "players": players, "value": value, "phase": "early", "sheet": sheet, "stratum": "",
             "game": g, "arms": {"contaminate": {"win": 0.5 + e / 2, "margin": 5 * e},
                                 "place": {"win": 0.5 - e / 2, "margin": -5 * e}}}
            for g, e in enumerate(effects)]


STRONG = [-1.0] * 8 + [-0.5] * 4          # rejected on any sheet: mean -0.83, tiny spread
WEAK = [-1.0, 1.0, -0.5, 0.5, -0.25, 0.0]  # mean -0.042, far from rejected


def test_a_direction_is_kept_only_where_every_alternative_sheet_has_its_sign():
    cfg = _cfg()
    rows = (_rows("shipped", 1, STRONG) + _rows("shipped", 2, WEAK) + _rows("shipped", 3, WEAK)
            + _rows("alt_a", 1, WEAK) + _rows("alt_b", 1, STRONG))
    res = cv.analyse(rows, cfg)
    assert res["replicated"] == []                           # rejected on seed 1 only: no finding
    sh = cs.analyse_sheets(rows, res, cfg)
    h1 = sh["survival"][0]
    assert h1["reference_sign"] == -1 and h1["signs"] == {"alt_a/1": -1, "alt_b/1": -1}
    assert h1["rejected_on"] == {"alt_b/1": -1}              # a one-seed lead on alt_b, named
    assert h1["direction_kept_on_every_sheet"] is True
    assert h1["verdict"] == "no finding; rejected on alt_b/1 (one seed: a lead); direction kept on every sheet"
    assert sh["survival"][1]["verdict"] == "no finding; no sheet rejects it"        # H2: no row, not checked
    assert sh["survival"][1]["direction_checked"] is False

    zero = rows[:-len(STRONG)] + _rows("alt_b", 1, [0.0] * 6)                          # a zero does not keep it
    res0 = cv.analyse(zero, cfg)
    v = cs.analyse_sheets(zero, res0, cfg)["survival"][0]
    assert v["direction_kept_on_every_sheet"] is False and v["not_kept_on"] == ["alt_b/1"]
    assert v["verdict"].endswith("direction not kept on alt_b/1")


def test_a_finding_survives_unless_a_sheet_turns_its_sign():
    cfg = _cfg()
    shipped = _rows("shipped", 1, STRONG) + _rows("shipped", 2, STRONG) + _rows("shipped", 3, STRONG)
    rows = shipped + _rows("alt_a", 1, WEAK) + _rows("alt_b", 1, STRONG)
    res = cv.analyse(rows, cfg)
    assert res["replicated"] == ["H1"]
    assert cs.analyse_sheets(rows, res, cfg)["survival"][0]["verdict"] == "finding survives every sheet"
    turned = shipped + _rows("alt_a", 1, WEAK) + _rows("alt_b", 1, [-x for x in STRONG])
    res = cv.analyse(turned, cfg)
    v = cs.analyse_sheets(turned, res, cfg)["survival"][0]
    assert v["verdict"] == "finding does not survive every sheet" and v["rejected_on"] == {"alt_b/1": 1}


def test_the_average_over_sheets_takes_one_mean_per_game():
    cfg = _cfg()
    # game 0: -1 on shipped and 0 on alt_a -> -0.5; game 1: only on alt_b (+0.5); game 2: -1 on alt_a and shipped -> -1
    rows = (_rows("shipped", 1, [-1.0]) + _rows("alt_a", 1, [0.0, 0.0, -1.0])[::2]
            + [dict(r, game=1) for r in _rows("alt_b", 1, [0.5])] + [dict(r, game=2) for r in _rows("shipped", 1, [-1.0])])
    t = cs.averaged_over_sheets(rows, cfg, ["H1"])[0]
    assert t["win"]["n"] == 3 and t["win"]["mean"] == pytest.approx((-0.5 + 0.5 - 1.0) / 3)
    assert t["sheets_per_game"] == pytest.approx(5 / 3, abs=0.005)
    assert t["points"]["mean"] == pytest.approx(10 * (-0.5 + 0.5 - 1.0) / 3)


def test_holm_over_the_whole_table_is_stricter_than_per_sheet():
    p = lambda x: {"win": {"p": x}}                          # noqa: E731
    res = {"sensitivity": {"a": {"1": [p(0.004), p(0.03)]}, "b": {"1": [p(0.011), p(None)]}}}
    # three tests: 0.004 < 0.05/3, 0.011 < 0.05/2, 0.03 < 0.05: all rejected; per sheet 0.03 > 0.025 would not be
    assert cs.holm_over_table(res, 0.05) == {"a": {"1": [True, True]}, "b": {"1": [True, False]}}
    res["sensitivity"]["b"]["1"][0] = p(0.03)                # 0.03 > 0.05/2 stops the steps
    assert cs.holm_over_table(res, 0.05) == {"a": {"1": [True, False]}, "b": {"1": [False, False]}}


def test_config_mistakes_of_a_sensitivity_run_are_named(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("hypotheses: [{id: H1, statement: s}]\nsensitivity_directions: [H9]\n")
    with pytest.raises(ValueError, match="'sensitivity_directions' names 'H9'"):
        cv.load_config(str(cfg))
    cfg.write_text("hypotheses: [{id: H1, statement: s}]\nreport: sensitivity\n")
    with pytest.raises(ValueError, match="'report'"):
        cv.load_config(str(cfg))


def test_the_shipped_sheets_config_is_the_main_run_on_other_sheets():
    from virus_envs import configs

    v3 = cv.load_config(configs.path("studies", "contamination_v3.yaml"))
    s = cv.load_config(configs.path("studies", "contamination_v3_sheets.yaml"))
    for key in ("hypotheses", "seeds", "games", "base", "continuation", "continuation_others", "rollouts", "arms",
                "alpha", "players"):
        assert getattr(s, key) == getattr(v3, key), key
    assert [(st.id, st.values, st.placeable, st.games) for st in s.strata] == \
        [(st.id, st.values, st.placeable, st.games) for st in v3.strata]
    assert s.sheets[0] == v3.sheets[0] and len(s.sheets) == 6 and s.sensitivity_seeds == [101]
    assert s.report == "sensitivity" and s.sensitivity_directions == ["H1", "H2", "H3"]
    # the first sheet's games are exactly the main run's, so its stored lines are re-used by --resume
    first = {cv.task_key(t) for t in cv._tasks(s, ROOT, s.games) if t["sheet"].id == "shipped"}
    assert first == {cv.task_key(t) for t in cv._tasks(v3, ROOT, v3.games)}
    stored = {cv.row_key(json.loads(x)) for x in
              (ROOT / "docs" / "studies" / "contamination_v3_interventions.jsonl").read_text().splitlines()}
    assert first == stored
    for sheet in s.sheets[1:]:
        assert sheet.file == "" or (ROOT / sheet.file).is_file()


def test_a_tiny_sensitivity_run_reuses_the_first_sheets_rows(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("name: tiny_sheets\nreport: sensitivity\nsensitivity_directions: [H1]\nplayers: [2]\n"
                   "seeds: [1, 2]\ngames: 2\nrollouts: 1\ncontinuation: random\nworkers: 1\n"
                   "hypotheses:\n  - {id: H1, statement: all values}\n  - {id: H2, statement: a one, values: [1]}\n"
                   "sheets:\n  - {id: shipped}\n  - {id: wildcard_1pt, wildcard_points: 1}\n"
                   "  - {id: literal_legend, file: configs/studies/sheets/literal_legend.yaml}\n"
                   "sensitivity_seeds: [1]\nsensitivity_games: 3\n")
    out, docs = tmp_path / "o", tmp_path / "docs"
    first = tmp_path / "first"
    docs.mkdir()
    start, end = cv.markers("tiny_sheets")
    (docs / cv.PAGE).write_text(f"intro\n{start}\nold\n{end}\nend\n")
    # a "main run" of the first sheet only, then the sensitivity run going on from its lines
    only_first = tmp_path / "f.yaml"
    only_first.write_text(cfg.read_text().split("sheets:")[0].replace("report: sensitivity\n", "")
                          + "sheets:\n  - {id: shipped}\n")
    assert main(["study", "contamination-v2", "--config", str(only_first), "--out", str(first), "--docs", ""]) in (0, None)
    out.mkdir()
    shutil.copy(first / "interventions.jsonl", out / "interventions.jsonl")
    assert main(["study", "contamination-v2", "--config", str(cfg), "--out", str(out), "--docs", str(docs),
                 "--resume"]) in (0, None)
    lines = (out / "interventions.jsonl").read_text().splitlines()
    assert lines[:4] == (first / "interventions.jsonl").read_text().splitlines()     # not played again
    assert len(lines) == 4 + 2 * 3                                                    # 3 games on each other sheet
    res = json.loads((docs / "tiny_sheets.json").read_text())
    assert set(res["sensitivity"]) == {"wildcard_1pt", "literal_legend"}
    assert [v["id"] for v in res["sheets"]["survival"]] == ["H1", "H2"]
    text = (docs / cv.PAGE).read_text()
    assert "old" not in text and "| H1 (contaminate-place) |" in text and "shipped (seed 1)" in text
    assert "#### Which conclusions survive every sheet" in text and text.endswith("end\n")
    assert (docs / "tiny_sheets.png").is_file()


# -- three sensitivity seeds (configs/studies/contamination_v3_sheets3.yaml): the replication rule ----------------
def _cfg3(**kw):
    return _cfg(sensitivity_seeds=[1, 2, 3], **kw)


def _shipped_weak():
    return _rows("shipped", 1, WEAK) + _rows("shipped", 2, WEAK) + _rows("shipped", 3, WEAK)   # direction -, no finding


def test_a_sheet_finding_needs_a_rejection_on_all_three_seeds_with_one_sign():
    cfg = _cfg3()
    rows = (_shipped_weak() + [r for s in (1, 2, 3) for r in _rows("alt_a", s, STRONG)]
            + _rows("alt_b", 1, STRONG) + _rows("alt_b", 2, STRONG) + _rows("alt_b", 3, WEAK))
    res = cv.analyse(rows, cfg)
    sh = cs.analyse_sheets(rows, res, cfg)
    assert sh["sheet_findings"] == {"alt_a": {"H1": -1}, "alt_b": {}}     # alt_b: two seeds of three, a lead
    v = sh["survival"][0]
    assert v["sheet_findings"] == {"alt_a": -1}
    assert v["verdict"] == ("no finding; a sheet finding on alt_a (-, rejected on its 3 seeds); rejected on "
                            "alt_b/1, alt_b/2 (not on every seed of its sheet: a lead); direction kept on every sheet")
    # one sign: a seed rejecting the other way is no sheet finding, and turns the direction
    flipped = rows[:-len(WEAK)] + _rows("alt_b", 3, [-x for x in STRONG])
    sh = cs.analyse_sheets(flipped, cv.analyse(flipped, cfg), cfg)
    assert sh["sheet_findings"]["alt_b"] == {} and sh["survival"][0]["opposite_rejections"] == ["alt_b/3"]
    assert sh["survival"][0]["direction_kept_on_every_sheet"] is False
    # with one seed there is never a sheet finding (the one-seed run's leads)
    one = _cfg()
    r1 = _shipped_weak() + _rows("alt_a", 1, STRONG) + _rows("alt_b", 1, STRONG)
    assert cs.analyse_sheets(r1, cv.analyse(r1, one), one)["sheet_findings"] == {"alt_a": {}, "alt_b": {}}


def test_a_direction_is_judged_on_the_estimate_pooled_over_the_sheets_three_seeds():
    cfg = _cfg3()
    up = [0.25, -0.25, 0.5, 0.0, 0.25, 0.0]                  # +0.125, not rejected
    rows = (_shipped_weak() + [r for s in (1, 2, 3) for r in _rows("alt_a", s, WEAK)]
            + _rows("alt_b", 1, up) + _rows("alt_b", 2, STRONG) + _rows("alt_b", 3, WEAK))
    res = cv.analyse(rows, cfg)
    v = cs.analyse_sheets(rows, res, cfg)["survival"][0]
    assert v["signs"]["alt_b/1"] == 1                          # one seed the other way, not rejected ...
    assert v["pooled_signs"] == {"alt_a/1+2+3": -1, "alt_b/1+2+3": -1}     # ... the pooled estimate keeps it
    assert v["pooled_on_sheet"]["alt_b/1+2+3"]["n"] == 24
    assert v["pooled_on_sheet"]["alt_b/1+2+3"]["mean"] == pytest.approx((sum(up) + sum(STRONG) + sum(WEAK)) / 24)
    assert v["direction_kept_on_every_sheet"] is True
    # a sheet whose pooled estimate has the other sign does not keep it
    turned = (_shipped_weak() + [r for s in (1, 2, 3) for r in _rows("alt_a", s, WEAK)]
              + [r for s in (1, 2, 3) for r in _rows("alt_b", s, up)])
    v = cs.analyse_sheets(turned, cv.analyse(turned, cfg), cfg)["survival"][0]
    assert v["direction_kept_on_every_sheet"] is False and v["not_kept_on"] == ["alt_b/1+2+3"]
    assert v["verdict"].endswith("direction not kept on alt_b/1+2+3")


def test_a_stopped_run_names_its_unfinished_sheets_and_keeps_no_direction_on_every_sheet(tmp_path):
    cfg = _cfg3()
    rows = (_shipped_weak() + [r for s in (1, 2, 3) for r in _rows("alt_a", s, STRONG)]
            + _rows("alt_b", 1, STRONG))
    keys = [cv.row_key(r) for r in rows]
    tasks = keys + ["alt_b//2/2/0", "alt_b//3/2/0"]
    sh = cs.analyse_sheets(rows, cv.analyse(rows, cfg), cfg, finished=set(keys), tasks=tasks)
    assert sh["finished_seeds"] == {"alt_a": [1, 2, 3], "alt_b": [1]}
    v = sh["survival"][0]
    assert v["sheets_cut_short"] == ["alt_b"] and v["pooled_signs"] == {"alt_a/1+2+3": -1, "alt_b/1": -1}
    assert v["direction_kept_on_every_sheet"] is False and v["direction_kept_on_every_sheet_run"] is True
    assert v["verdict"] == ("no finding; a sheet finding on alt_a (-, rejected on its 3 seeds); rejected on alt_b/1 "
                            "(not on every seed of its sheet: a lead); direction kept on every sheet run, not on every "
                            "sheet; cut short: alt_b")
    assert sh["sheet_findings"]["alt_b"] == {}                 # one finished seed of three
    none = [r for r in rows if r["sheet"] != "alt_b"]
    v = cs.analyse_sheets(none, cv.analyse(none, cfg), cfg, finished={cv.row_key(r) for r in none},
                          tasks=tasks)["survival"][0]
    assert v["sheets_not_run"] == ["alt_b"] and v["verdict"].endswith("not run: alt_b")


def test_the_average_over_sheets_replicates_only_on_all_three_seeds():
    cfg = _cfg3()
    rows = [r for s in (1, 2, 3) for sheet in ("shipped", "alt_a", "alt_b") for r in _rows(sheet, s, STRONG)]
    tests = cs.averaged_over_sheets(rows, cfg, ["H1"])
    assert [t["sign"] for t in tests] == [-1, -1, -1] and cs.averaged_replicated(tests, cfg) == {"H1": -1}
    rows = [r for r in rows if not (r["seed"] == 3 and r["sheet"] != "shipped")] + [
        r for sheet in ("alt_a", "alt_b") for r in _rows(sheet, 3, WEAK)]
    rows = [r for r in rows if not (r["seed"] == 3 and r["sheet"] == "shipped")] + _rows("shipped", 3, WEAK)
    tests = cs.averaged_over_sheets(rows, cfg, ["H1"])
    assert tests[2]["rejected"] is False and cs.averaged_replicated(tests, cfg) == {}


def test_the_three_seed_config_is_the_one_seed_run_on_seeds_101_202_303():
    from virus_envs import configs

    one = cv.load_config(configs.path("studies", "contamination_v3_sheets.yaml"))
    three = cv.load_config(configs.path("studies", "contamination_v3_sheets3.yaml"))
    for key in ("hypotheses", "seeds", "games", "base", "continuation", "continuation_others", "rollouts", "arms",
                "alpha", "players", "strata", "sheets", "sensitivity_games", "report", "sensitivity_directions",
                "workers", "docs"):
        assert getattr(three, key) == getattr(one, key), key
    assert three.sensitivity_seeds == [101, 202, 303] and one.sensitivity_seeds == [101]
    assert three.name == "contamination_v3_sheets3" and three.page == "contamination_v3_sheets3.md"
    assert three.out != one.out
    # the stored lines of the main run and of the seed-101 sheets run are exactly this run's tasks of seed 101 and
    # of the shipped sheet, so a copy of them makes --resume play only seeds 202 and 303 of the alternative sheets
    keys = [cv.task_key(t) for t in cv._tasks(three, ROOT, three.games)]
    assert len(keys) == len(set(keys)) == 276 + 5 * 3 * 80
    stored = {cv.row_key(json.loads(x)) for name in ("contamination_v3_interventions.jsonl",
                                                     "contamination_v3_sheets_interventions.jsonl")
              for x in (ROOT / "docs" / "studies" / name).read_text().splitlines()}
    assert stored == {k for k in keys if k.startswith("shipped/") or k.split("/")[2] == "101"}
    # sheet by sheet, each sheet's seeds in order: a stopped run keeps whole sheets
    todo = [k for k in keys if k not in stored]
    order = [(k.split("/")[0], k.split("/")[2]) for k in todo]
    assert list(dict.fromkeys(order)) == [(sh.id, s) for sh in three.sheets[1:] for s in ("202", "303")]


def test_a_page_key_must_name_a_markdown_file(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("hypotheses: [{id: H1, statement: s}]\npage: ../x.md\n")
    with pytest.raises(ValueError, match="'page'"):
        cv.load_config(str(cfg))


def test_the_three_seed_tables_show_every_seed_the_pooled_estimate_and_a_stopped_runs_gaps(tmp_path):
    cfg = _cfg3()
    rows = (_shipped_weak() + [r for s in (1, 2, 3) for r in _rows("alt_a", s, STRONG)] + _rows("alt_b", 1, WEAK))
    keys = [cv.row_key(r) for r in rows]
    res = cv.analyse(rows, cfg)
    res["sheets"] = cs.analyse_sheets(rows, res, cfg, finished=set(keys), tasks=keys + ["alt_b//2/2/0", "alt_b//3/2/0"])
    res["games"] = 6
    text = cs.sheets_markdown(res)
    assert "| seed 1 | seed 2 | seed 3 | pooled over the seeds | sheet finding |" in text
    assert text.count("| alt_a | H1 (contaminate-place) |") == 1 and "**yes (-)** |" in text
    assert "| alt_b | H1 (contaminate-place) | " in text and "| not run | not run |" in text
    assert "Not finished: alt_b (seeds done: 1)." in text and "no (not every seed run)" in text
    assert "(the pre-registered three-seed rule)" in text and "alt_a -, alt_b -" in text
    assert "Replicated (rejected on all three seeds with one sign): " in text
    assert cs.plot_sheets(res, str(tmp_path / "f.png")) and (tmp_path / "f.png").is_file()


def test_a_tiny_three_seed_run_writes_its_own_sub_page(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("name: tiny_sheets3\nreport: sensitivity\nsensitivity_directions: [H1]\nplayers: [2]\n"
                   "seeds: [1, 2, 3]\ngames: 1\nrollouts: 1\ncontinuation: random\nworkers: 1\npage: sub.md\n"
                   "hypotheses:\n  - {id: H1, statement: all values}\n  - {id: H2, statement: a one, values: [1]}\n"
                   "sheets:\n  - {id: shipped}\n  - {id: wildcard_1pt, wildcard_points: 1}\n"
                   "sensitivity_seeds: [1, 2, 3]\nsensitivity_games: 1\n")
    docs = tmp_path / "docs"
    docs.mkdir()
    start, end = cv.markers("tiny_sheets3")
    (docs / "sub.md").write_text(f"intro\n{start}\nold\n{end}\nend\n")
    (docs / cv.PAGE).write_text("the main page, untouched\n")
    assert main(["study", "contamination-v2", "--config", str(cfg), "--out", str(tmp_path / "o"), "--docs",
                 str(docs)]) in (0, None)
    text = (docs / "sub.md").read_text()
    assert "old" not in text and "| wildcard_1pt | H1 (contaminate-place) |" in text and text.endswith("end\n")
    assert (docs / cv.PAGE).read_text() == "the main page, untouched\n"
    res = json.loads((docs / "tiny_sheets3.json").read_text())
    assert res["sheets"]["finished_seeds"] == {"wildcard_1pt": [1, 2, 3]}
    assert (docs / "tiny_sheets3.png").is_file()


def test_analyse_only_plays_nothing_and_names_a_stopped_runs_unfinished_seeds(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("name: tiny_stop\nreport: sensitivity\nsensitivity_directions: [H1]\nplayers: [2]\n"
                   "seeds: [1, 2, 3]\ngames: 1\nrollouts: 1\ncontinuation: random\nworkers: 1\npage: sub.md\n"
                   "hypotheses:\n  - {id: H1, statement: all values}\n"
                   "sheets:\n  - {id: shipped}\n  - {id: wildcard_1pt, wildcard_points: 1}\n"
                   "  - {id: wildcard_2pt, wildcard_points: 2}\n"
                   "sensitivity_seeds: [1, 2, 3]\nsensitivity_games: 1\n")
    out, docs = tmp_path / "o", tmp_path / "docs"
    docs.mkdir()
    start, end = cv.markers("tiny_stop")
    (docs / "sub.md").write_text(f"{start}\n{end}\n")
    with pytest.raises(SystemExit, match="no stored lines"):
        main(["study", "contamination-v2", "--config", str(cfg), "--out", str(out), "--docs", "", "--analyse-only"])
    assert main(["study", "contamination-v2", "--config", str(cfg), "--out", str(out), "--docs", ""]) in (0, None)
    store = out / "interventions.jsonl"
    lines = store.read_text().splitlines()
    assert len(lines) == 3 + 2 * 3
    stopped = "\n".join(lines[:3 + 3 + 1]) + "\n"            # stopped after wildcard_2pt's seed 1
    store.write_text(stopped)
    assert main(["study", "contamination-v2", "--config", str(cfg), "--out", str(out), "--docs", str(docs),
                 "--analyse-only"]) in (0, None)
    assert store.read_text() == stopped                       # nothing played, nothing written
    res = json.loads((docs / "tiny_stop.json").read_text())
    assert res["sheets"]["finished_seeds"] == {"wildcard_1pt": [1, 2, 3], "wildcard_2pt": [1]}
    assert res["sheets"]["survival"][0]["sheets_cut_short"] == ["wildcard_2pt"]
    assert "Not finished: wildcard_2pt (seeds done: 1)." in (docs / "sub.md").read_text()
