"""experiments/search_figures.py: eval rows gathered into one file, budget curves drawn per game."""
import json

from virus_envs.experiments import search_figures


def _row(agent, iters_rate, players=2, opponent="heuristic", game="virus_cards_v0"):
    rate, lo, hi = iters_rate
    return {"game": game, "players": players, "agent": agent, "opponent": opponent, "cooperative": False,
            "games": 40, "wins": rate * 40, "win_rate": rate, "ci95": [lo, hi], "baseline": 1 / players}


def test_rows_are_gathered_with_their_times_and_curves_sorted_by_iterations(tmp_path):
    rows = {"b": _row("ismcts?iters=1000", (0.7, 0.55, 0.82)), "a": _row("ismcts?iters=50", (0.4, 0.26, 0.55)),
            "c": _row("ismcts?iters=200&tree=history", (0.6, 0.45, 0.73)),
            "d": _row("ismcts?iters=200", (0.5, 0.3, 0.7), players=4, opponent="ppo:builtin", game="virus_co_v0")}
    for name, r in rows.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(r))
    (tmp_path / "times.txt").write_text("a 12s 14:00\nb 340s 14:10\n")
    got = search_figures.gather(str(tmp_path))
    assert [r["name"] for r in got] == ["a", "b", "c", "d"]
    assert got[0]["seconds"] == 12 and got[1]["seconds"] == 340 and "seconds" not in got[2]
    cur = search_figures.curves(got)
    # the spec with another parameter (tree=history) is not a point of the curve
    assert cur["virus_cards_v0"] == {(2, "heuristic"): [(50, 0.4, 0.26, 0.55, 40), (1000, 0.7, 0.55, 0.82, 40)]}
    assert cur["virus_co_v0"] == {(4, "ppo:builtin"): [(200, 0.5, 0.3, 0.7, 40)]}
    out, img = tmp_path / "all.json", tmp_path / "img"
    img.mkdir()
    search_figures.main([str(tmp_path), str(out), str(img)])
    assert len(json.loads(out.read_text())) == 4
    for env_id in ("virus_cards_v0", "virus_co_v0"):
        assert (img / f"search_budget_{env_id}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_gathered_file_redraws_and_superseded_rows_are_kept_but_not_drawn(tmp_path):
    rows = [{"name": "a", **_row("ismcts?iters=200", (0.6, 0.4, 0.75))},
            {"name": "b", **_row("ismcts?iters=1000", (0.6, 0.42, 0.75)), "superseded_by": "c"},
            {"name": "c", **_row("ismcts?iters=1000", (0.58, 0.51, 0.65))},
            {"name": "d", **_row("expectimax?depth=1", (0.9, 0.8, 0.95), players=4, game="roll_write_v0")}]
    src = tmp_path / "rows.json"
    src.write_text(json.dumps(rows))
    got = search_figures.gather(str(src))
    assert got == rows
    assert search_figures.curves(got) == {"virus_cards_v0": {(2, "heuristic"): [(200, 0.6, 0.4, 0.75, 40),
                                                                                (1000, 0.58, 0.51, 0.65, 40)]}}
    img = tmp_path / "img"
    img.mkdir()
    search_figures.main([str(src), str(src), str(img)])
    assert json.loads(src.read_text()) == rows and (img / "search_budget_virus_cards_v0.png").exists()


def test_a_bench_row_turns_iterations_into_seconds_and_neither_it_nor_a_validation_row_is_a_curve_point(tmp_path):
    rows = [{"name": "a", **_row("ismcts?iters=200", (0.6, 0.4, 0.75))},
            {"name": "b", **_row("ismcts?iters=5000", (0.7, 0.5, 0.85))},
            {"name": "s1", **_row("ismcts?iters=200", (0.9, 0.7, 0.97)), "role": "validation"},
            {"name": "bench_vc2", "kind": "bench", "game": "virus_cards_v0", "players": 2,
             "iterations_per_cpu_second": 4000.0}]
    # 200 / 4000 = 0.05 s and 5000 / 4000 = 1.25 s of CPU a decision, by hand
    assert search_figures.seconds(rows) == {("virus_cards_v0", 2, 200): 0.05, ("virus_cards_v0", 2, 5000): 1.25}
    assert search_figures.curves(rows) == {"virus_cards_v0": {(2, "heuristic"): [(200, 0.6, 0.4, 0.75, 40),
                                                                                (5000, 0.7, 0.5, 0.85, 40)]}}
    src, img = tmp_path / "rows.json", tmp_path / "img"
    src.write_text(json.dumps(rows))
    img.mkdir()
    search_figures.main([str(src), str(src), str(img)])
    assert (img / "search_budget_virus_cards_v0.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
