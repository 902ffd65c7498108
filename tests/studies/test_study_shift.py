"""`virus-arena study shift` (experiments/studies/shift.py): two runs of a study on the same seeds and streams
share their uniform draw's intervention points, the shift is paired per point, and mistakes are named."""
from __future__ import annotations

import json

import numpy as np
import pytest

from virus_envs.experiments.cli import main
from virus_envs.experiments.studies import design, shift

HYPS = """hypotheses:
  - {id: T1, statement: any treatment, family: treat, contrast: play-hold}
  - {id: B1, statement: vaccinate or build, family: build, contrast: vaccinate-build}
  - {id: S1, statement: a stratum one, family: treat, contrast: play-hold, stratum: c}
"""


def _run(tmp_path, name, games, extra=""):
    cfg = tmp_path / f"{name}.yaml"
    cfg.write_text(f"players: [2]\nseeds: [101]\ngames: {games}\nrollouts: 1\nout: {tmp_path / name}\n"
                   f"strata: [{{id: c, family: treat, games: 1}}]\n{extra}" + HYPS)
    assert main(["study", "virus-cards", "--config", str(cfg), "--docs", ""]) == 0
    return cfg, tmp_path / name / "interventions.jsonl"


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    """A first run of 3 games continued by the heuristic; a second of 4 games whose acting seat searches."""
    tmp = tmp_path_factory.mktemp("shift")
    c1, first = _run(tmp, "first", 3)
    c2, second = _run(tmp, "second", 4, "acting: \"ismcts?iters=8\"\n")
    return tmp, c1, first, c2, second


def test_the_same_seeds_give_the_same_decisions(two_runs):
    """The first run's games are the second run's first games: the same seat and cell at every point; the
    second run's extra game and the strata are not paired."""
    _, _, first, _, second = two_runs
    a, b = design.read_rows(first)[0], design.read_rows(second)[0]
    pairs = shift.pair_points(a, b)
    assert len(pairs) == sum(1 for r in a if not r["stratum"]) > 0
    assert all(ra["game"] < 3 and ra["cell"] == rb["cell"] and ra["seat"] == rb["seat"] for ra, rb in pairs)
    assert any(r["stratum"] for r in b) and any(r["game"] == 3 for r in b)


def test_the_shift_is_paired_per_point(two_runs):
    """Each hypothesis's shift is the t-test of (second effect - first effect) over the points of its cell;
    stratum hypotheses have no first-run twin and are left out."""
    tmp, c1, first, c2, second = two_runs
    res = shift.run("virus-cards", str(first), str(second), str(c1), str(c2))
    assert [r["id"] for r in res["table"]] == ["T1", "B1"]
    pairs = shift.pair_points(design.read_rows(first)[0], design.read_rows(second)[0])
    treat = [(ra, rb) for ra, rb in pairs if ra["family"] == "treat"]
    d = [(rb["arms"]["play"]["win"] - rb["arms"]["hold"]["win"]) - (ra["arms"]["play"]["win"] -
                                                                     ra["arms"]["hold"]["win"]) for ra, rb in treat]
    t1 = res["table"][0]["win"]["shift"]
    assert t1["n"] == len(d) and t1["mean"] == pytest.approx(float(np.mean(d)))
    assert "ismcts?iters=8" in res["second_continuation"] and "heuristic x 1" in res["first_continuation"]


def test_the_command_writes_the_page_and_json(two_runs, capsys):
    tmp, c1, first, c2, second = two_runs
    page = tmp / "page.md"
    page.write_text(f"# p\n\n{shift.TABLES_START}\nSTALE-TABLE\n{shift.TABLES_END}\ntail\n")
    out = tmp / "shift.json"
    assert main(["study", "shift", "--study", "virus-cards", "--first", str(first), "--second", str(second),
                 "--config", str(c1), "--json", str(out), "--page", str(page), "--figure", str(tmp / "s.png")]) == 0
    assert (tmp / "s.png").read_bytes()[:4] == b"\x89PNG"
    text = page.read_text()
    assert "STALE-TABLE" not in text and "| T1: any treatment |" in text and text.endswith("tail\n")
    assert json.loads(out.read_text())["pairs"] == len(shift.pair_points(design.read_rows(first)[0],
                                                                         design.read_rows(second)[0]))


def test_runs_of_other_streams_are_refused(two_runs):
    """A point whose two rows are not the same decision is named: the runs are not comparable."""
    _, _, first, _, second = two_runs
    a, b = design.read_rows(first)[0], design.read_rows(second)[0]
    b = [dict(r, seat=1 - r["seat"]) if not r["stratum"] else r for r in b]
    with pytest.raises(ValueError, match="drew different decisions"):
        shift.pair_points(a, b)


def test_mistakes_are_named(two_runs, tmp_path):
    _, c1, first, _, _ = two_runs
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    with pytest.raises(ValueError, match="--second: no file"):
        shift.run("virus-cards", str(first), str(tmp_path / "nope.jsonl"), str(c1))
    with pytest.raises(ValueError, match="bad.jsonl: not a study's stored lines"):
        shift.run("virus-cards", str(first), str(bad), str(c1))
    with pytest.raises(ValueError, match="--study must be one of"):
        shift.run("virus-lab", str(first), str(first), str(c1))
    with pytest.raises(SystemExit, match=r"^virus-arena study: --second: no file \S*nope.jsonl$"):
        main(["study", "shift", "--study", "virus-cards", "--first", str(first), "--second",
              str(tmp_path / "nope.jsonl")])


def test_the_shipped_first_generation_configs_load():
    """The default --config of each study is its first generation's: it loads, and it has hypotheses without a
    stratum (those are what the shift compares)."""
    import importlib

    from virus_envs import configs

    for study, (mod_name, cfg_file) in shift.STUDY_MODULES.items():
        mod = importlib.import_module(f"virus_envs.experiments.studies.{mod_name}")
        cfg = design.load_config(configs.path("studies", cfg_file), mod.FAMILIES, getattr(mod, "STRATA_KEYS", None))
        assert cfg.hypotheses and not cfg.strata and not any(h.stratum for h in cfg.hypotheses)
