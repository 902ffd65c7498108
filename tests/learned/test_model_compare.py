"""experiments/model_compare.py: two models' eval.json on the same deals, per opponent, Newcombe interval, Holm."""
import json

import pytest

from virus_envs.experiments import model_compare


def _eval(model, rows, seed=9000011, env_id="roll_write_v0", players=2):
    return {"env_id": env_id, "num_players": players, "model": model, "seed": seed,
            "rows": [{"opponent": o, "games": n, "wins": w, "win_rate": w / n} for o, n, w in rows]}


def test_difference_interval_and_holm():
    a = _eval("league.zip", [("heuristic:spoiler", 400, 300), ("heuristic:cautious", 400, 210), ("expectimax", 100, 40)])
    b = _eval("ppo.zip", [("heuristic:spoiler", 400, 200), ("heuristic:cautious", 400, 200), ("expectimax", 100, 40),
                          ("random", 400, 399)])
    res = model_compare.compare(a, b)
    rows = {r["opponent"]: r for r in res["rows"]}
    assert list(rows) == ["heuristic:spoiler", "heuristic:cautious", "expectimax"]     # shared opponents only
    s = rows["heuristic:spoiler"]
    assert s["diff"] == pytest.approx(0.25)
    lo, hi = s["diff_ci95"]
    assert 0.15 < lo < 0.25 < hi < 0.33                # Newcombe's interval around +0.25 at n = 400
    assert s["a"]["ci95"][0] < 0.75 < s["a"]["ci95"][1]
    assert s["holm_significant"] and s["verdict"] == "a stronger"
    c = rows["heuristic:cautious"]
    assert c["diff_ci95"][0] < 0 < c["diff_ci95"][1] and not c["holm_significant"]
    e = rows["expectimax"]
    assert e["p"] == 1.0 and e["verdict"] == "no difference shown"
    assert res["a_not_weaker"]
    assert model_compare.compare(b, a)["a_not_weaker"] is False                     # the other way round
    assert "| heuristic:spoiler | 400 |" in model_compare.markdown(res)


def test_holm_is_stricter_than_each_test_alone():
    # two opponents, each p just under 0.05 alone: Holm keeps at most the smaller one
    a = _eval("a.zip", [("x", 400, 229), ("y", 400, 230)])
    b = _eval("b.zip", [("x", 400, 200), ("y", 400, 200)])
    res = model_compare.compare(a, b)
    assert all(0.025 < r["p"] < 0.05 for r in res["rows"])
    assert not any(r["holm_significant"] for r in res["rows"])


@pytest.mark.parametrize("change, msg", [({"seed": 1}, "field 'seed' differs"), ({"num_players": 3}, "field 'num_players'"),
                                         ({"rows": [{"opponent": "z", "games": 10, "wins": 1}]}, "share no opponent"),
                                         ({"rows": [{"opponent": "x", "games": 10, "wins": 1}]}, "400 games vs 10")])
def test_other_deals_are_refused(change, msg):
    a = _eval("a.zip", [("x", 400, 220)])
    b = dict(_eval("b.zip", [("x", 400, 200)]), **change)
    with pytest.raises(ValueError, match=msg):
        model_compare.compare(a, b)


def test_command_line_merges_eval_files_and_a_run_summary(tmp_path, capsys):
    summary = {"command": "virus-arena train ...", "env_id": "roll_write_v0", "num_players": 2, "best": "run/best.zip",
               "split": {"test_seed": 9000011, "val_seed": 7000003},
               "test": [{"opponent": "x", "games": 400, "wins": 300.0, "win_rate": 0.75}]}
    (tmp_path / "summary.json").write_text(json.dumps(summary))
    (tmp_path / "a_search.json").write_text(json.dumps(_eval("run/best.zip", [("search", 40, 10)])))
    (tmp_path / "b.json").write_text(json.dumps(_eval("b.zip", [("x", 400, 200), ("search", 40, 10)])))
    out = tmp_path / "cmp.json"
    assert model_compare.main(["--a", str(tmp_path / "summary.json"), str(tmp_path / "a_search.json"),
                               "--b", str(tmp_path / "b.json"), "--json", str(out)]) == 0
    res = json.loads(out.read_text())
    assert res["a"] == "run/best.zip" and res["seed"] == 9000011
    assert [(r["opponent"], r["verdict"]) for r in res["rows"]] == [("x", "a stronger"), ("search", "no difference shown")]
    capsys.readouterr()
    (tmp_path / "bad.json").write_text("{}")
    assert model_compare.main(["--a", str(tmp_path / "b.json"), "--b", str(tmp_path / "bad.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "field 'env_id' missing" in err
    assert model_compare.main(["--a", str(tmp_path / "b.json"), "--b", str(tmp_path / "none.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_one_side_must_be_one_model_on_one_seed():
    with pytest.raises(ValueError, match="field 'model' differs within one side"):
        model_compare.merge([_eval("a.zip", [("x", 10, 1)]), _eval("b.zip", [("y", 10, 1)])])
    with pytest.raises(ValueError, match="field 'seed' differs within one side"):
        model_compare.merge([_eval("a.zip", [("x", 10, 1)]), _eval("a.zip", [("y", 10, 1)], seed=5)])
    with pytest.raises(ValueError, match="opponent 'x' appears in two files"):
        model_compare.merge([_eval("a.zip", [("x", 10, 1)]), _eval("a.zip", [("x", 10, 1)])])
