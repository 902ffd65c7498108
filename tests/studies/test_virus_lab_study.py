"""The board game's study (issue 18): the patches of the designed components, the paired contrasts by hand, a
tiny run through the command line."""
from __future__ import annotations

import json

import numpy as np
import pytest

from virus_envs.experiments.cli import main
from virus_envs.experiments.studies import virus_lab as vl


def test_apply_patch_sets_keys_and_changes_list_items_by_hand():
    data = {"hero_start": {"bullets": 8, "stock_actions": 8}, "removals": {1: {"lab_per_colour": 4}},
            "events": [{"id": "E1", "number": 2}, {"id": "E2", "number": 9}]}
    p = vl.apply_patch(data, {"set": {"hero_start.bullets": 12, "removals.1.lab_per_colour": 1}})
    assert p["hero_start"] == {"bullets": 12, "stock_actions": 8} and p["removals"][1] == {"lab_per_colour": 1}
    assert data["hero_start"]["bullets"] == 8                         # a copy: the original is untouched
    p = vl.apply_patch(data, {"items": {"list": "events", "add": {"number": 3}, "clip": [1, 10]}})
    assert [e["number"] for e in p["events"]] == [5, 10]              # 2+3; 9+3 clipped at 10
    p = vl.apply_patch(data, {"items": {"list": "events", "ids": ["E2"], "set": {"number": 1}}})
    assert [e["number"] for e in p["events"]] == [2, 1]
    with pytest.raises(ValueError, match="not found"):
        vl.apply_patch(data, {"set": {"hero_start.bulets": 1}})
    with pytest.raises(ValueError, match="E9"):
        vl.apply_patch(data, {"items": {"list": "events", "ids": ["E9"], "set": {"number": 1}}})


def test_paired_differences_use_the_deals_both_configurations_played():
    rows = [{"conf": "a", "seed": 1, "deal": 0, "win": 1, "progress": 3},
            {"conf": "a", "seed": 1, "deal": 1, "win": 0, "progress": 1},
            {"conf": "a", "seed": 2, "deal": 0, "win": 1, "progress": 3},
            {"conf": "b", "seed": 1, "deal": 0, "win": 0, "progress": 2},
            {"conf": "b", "seed": 1, "deal": 1, "win": 0, "progress": 0},
            {"conf": "b", "seed": 1, "deal": 2, "win": 1, "progress": 3}]      # deal 2 of seed 1 only in b
    assert list(vl.paired(rows, "a", "b", 1)) == [1.0, 0.0]
    assert list(vl.paired(rows, "a", "b", 1, "progress")) == [1.0, 1.0]
    assert list(vl.paired(rows, "a", "b", None)) == [1.0, 0.0]                 # seed 2 has no b
    assert vl.deal_seed(1, 0) == vl.deal_seed(1, 0) != vl.deal_seed(1, 1)


def test_config_mistakes_are_named(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("hypotheses: [{id: a, statement: s, contrast: h1d1-h9d1}]\n")
    with pytest.raises(ValueError, match="contrast 'h1d1-h9d1'"):
        vl.load_config(str(cfg))
    cfg.write_text("sweep: {variants: [{id: base}]}\nhypotheses: [{id: a, statement: s, contrast: h1d1-base}]\n")
    with pytest.raises(ValueError, match="sweep.variants"):
        vl.load_config(str(cfg))
    cfg.write_text("sweep: {variants: [{id: x, patch: {set: {a: 1}}}]}\n"
                   "hypotheses: [{id: a, statement: s, contrast: x-base}]\n")
    with pytest.raises(ValueError, match="'file'"):
        vl.load_config(str(cfg))


def test_a_tiny_run_through_the_command_line(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("seeds: [1, 2]\ngrid: {heroes: [1], difficulty: [1, 3], games: 2}\n"
                   "sweep: {heroes: 1, difficulty: 1, games: 2, variants: ["
                   "{id: rich, statement: more, patch: {file: supply.yaml, set: {hero_start.bullets: 12}}},"
                   "{id: p07, statement: p, config: {p_positive: 0.7}}]}\n"
                   "hypotheses:\n  - {id: D, statement: d, contrast: h1d1-h1d3}\n"
                   "  - {id: S, statement: s, contrast: rich-base}\n")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "virus_lab.md").write_text(f"# x\n{vl.TABLES_START}\n{vl.TABLES_END}\n")
    assert main(["study", "virus-lab", "--config", str(cfg), "--out", str(tmp_path / "o"), "--docs", str(docs)]) in (0, None)
    res = json.loads((tmp_path / "o" / "results.json").read_text())
    # 2 grid cells + base + 2 variants, 2 seeds x 2 deals; base = h1d1 (same config): played once
    rows = [json.loads(x) for x in (tmp_path / "o" / "deals.jsonl").read_text().splitlines()]
    assert len(rows) == 5 * 4
    base = {(r["seed"], r["deal"]): r for r in rows if r["conf"] == "base"}
    assert all(dict(r, conf="base") == base[(r["seed"], r["deal"])] for r in rows if r["conf"] == "h1d1")
    assert res["rates"]["h1d1"]["games"] == 4 and set(res["by_seed"]) == {"1", "2"}
    assert (tmp_path / "o" / "data" / "rich" / "supply.yaml").read_text().count("bullets: 12") == 1
    page = (docs / "virus_lab.md").read_text()
    assert "| D: d | h1d1-h1d3 (win) |" in page and (docs / "virus_lab.png").is_file()
    assert np.isfinite(res["rates"]["h1d3"]["progress"])
    assert all(0 <= e["changed"] <= e["deals"] == 4 for e in res["sweep"])   # 2 seeds x 2 deals paired with base


def test_a_tagged_second_run_keeps_the_first_runs_tables(tmp_path):
    """`tables: <tag>` (a second run, e.g. with another team): its tables go between its own markers and its
    results to virus_lab_<tag>.json / .png; the first run's tables and files are left as they were."""
    cfg = tmp_path / "c.yaml"
    cfg.write_text("seeds: [1]\nagent: 'heuristic:tactician'\ntables: two\ngrid: {heroes: [1], difficulty: [1], games: 2}\n"
                   "sweep: {heroes: 1, difficulty: 1, games: 2, variants: ["
                   "{id: bf, statement: b, config: {breach_explore_cube: false}}]}\n"
                   "hypotheses:\n  - {id: S10, statement: s, contrast: bf-base}\n")
    docs = tmp_path / "docs"
    docs.mkdir()
    start, end = vl.markers("two")
    assert start != vl.TABLES_START and "two" in start and vl.markers("") == (vl.TABLES_START, vl.TABLES_END)
    (docs / "virus_lab.md").write_text(f"# x\n{vl.TABLES_START}\nOLD\n{vl.TABLES_END}\n{start}\n{end}\n")
    assert main(["study", "virus-lab", "--config", str(cfg), "--out", str(tmp_path / "o"), "--docs", str(docs)]) in (0, None)
    page = (docs / "virus_lab.md").read_text()
    assert f"{vl.TABLES_START}\nOLD\n{vl.TABLES_END}" in page
    assert "Team `heuristic:tactician`" in page.split(start)[1] and "| S10: s | bf-base (win) |" in page
    assert (docs / "virus_lab_two.json").is_file() and (docs / "virus_lab_two.png").is_file()
    assert not (docs / "virus_lab.json").exists()


def test_the_shipped_configs_load_and_have_their_page_markers():
    """Every shipped board-game study config loads, and a tagged run's markers are on the page it writes."""
    from pathlib import Path

    from virus_envs.experiments.studies import virus_lab

    root = Path(__file__).resolve().parents[2]
    page = (root / "docs" / "studies" / "virus_lab.md").read_text()
    for name in ("virus_lab.yaml", "virus_lab_tactician.yaml", "virus_lab_tactician_2h.yaml", "virus_lab_grid.yaml"):
        cfg = virus_lab.load_config(str(root / "configs" / "studies" / name))
        assert cfg.hypotheses, name
        start, end = virus_lab.markers(cfg.tables)
        assert start in page and end in page, name
