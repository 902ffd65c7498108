"""The cross-play matrix of a tournament's records (experiments/crossplay.py), against counts by hand."""
from __future__ import annotations

import json

import pytest

from virus_envs.experiments.crossplay import crossplay, main, markdown


def _rec(seats, returns, truncated=False):
    return {"seats": seats, "returns": returns, "truncated": truncated}


def test_cells_by_hand(tmp_path, capsys):
    recs = [_rec(["a", "b"], [1, -1]), _rec(["b", "a"], [1, -1]),          # one deal, both seatings: 1 each
            _rec(["a", "b"], [1, -1]), _rec(["b", "a"], [-1, 1]),          # a wins both
            _rec(["a", "c"], [0, 0], truncated=True), _rec(["c", "a"], [1, 1])]   # nobody wins; a shared win
    cells = crossplay(recs)
    assert cells[("a", "b")] == [3.0, 4] and cells[("b", "a")] == [1.0, 4]
    assert cells[("a", "c")] == [0.5, 2] and cells[("c", "a")] == [0.5, 2]
    assert ("b", "c") not in cells
    table = markdown(cells, ["a", "b", "c"])
    # Wilson, z = 1.96: 3 of 4 -> centre (0.75 + z^2/8) / (1 + z^2/4) = 0.6275, half-width 0.3269 -> [0.30, 0.95];
    # 0.5 of 2 -> centre 0.4144, half-width 0.3877 -> [0.03, 0.80]; 1 of 4 -> [0.05, 0.70]
    assert "| `a` | — | 0.75 [0.30, 0.95] 4 | 0.25 [0.03, 0.80] 2 |" in table
    assert "| `b` | 0.25 [0.05, 0.70] 4 | — | n/a |" in table
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    assert main([str(path), "--order", "a,b,c"]) == 0
    assert capsys.readouterr().out == table
    with pytest.raises(SystemExit, match="crossplay: .*none.jsonl"):
        main([str(tmp_path / "none.jsonl")])


def test_one_vs_rest_cells_are_the_eval_games_and_a_cut_run_resumes(tmp_path, capsys):
    """More than two players: each cell is `virus-arena eval --agent ROW --opponent COL` (head_to_head), the row
    agent in every seat of each deal; --games-with gives a slow agent's cells fewer games; the JSON resumes."""
    import virus_envs
    from virus_envs.experiments.arena import head_to_head
    from virus_envs.experiments.crossplay import one_vs_rest, one_vs_rest_markdown

    game = virus_envs.game("virus_co_v0", 4)
    specs = ["random", "heuristic", "heuristic:bold"]
    out = tmp_path / "m.json"
    said = []
    data = one_vs_rest(game, specs, 8, 11, {"heuristic:bold": 4}, out=str(out), echo=said.append)
    cells = {(c["row"], c["col"]): c for c in data["cells"]}
    assert len(cells) == 6 and len(said) == 6
    assert cells[("random", "heuristic")]["games"] == 8 and cells[("heuristic:bold", "random")]["games"] == 4
    for (a, b), c in cells.items():
        res = head_to_head(game, a, b, c["games"], seed=11)
        assert (c["wins"], c["games"]) == (res.wins, res.games)
        assert {int(s): (v["games"], v["wins"]) for s, v in c["by_seat"].items()} == res.by_seat
        assert all(v["games"] == c["games"] // 4 for v in c["by_seat"].values())     # every seat, every deal
    again = []
    assert one_vs_rest(game, specs, 8, 11, {"heuristic:bold": 4}, out=str(out), echo=again.append) == data
    assert again == []                                                               # nothing replayed
    table = one_vs_rest_markdown(data)
    c = cells[("heuristic", "random")]
    assert f"| `heuristic` | {c['wins']:g}/8 = {c['win_rate']:.2f} [" in table and "| `random` | — |" in table


@pytest.mark.parametrize("args, message", [
    (["--games", "6"], "--games: 6 games is not a positive multiple of 4 players"),
    (["--games", "8", "--games-with", "ismcts=4"], "--games-with: 'ismcts' is not one of --agents"),
    (["--games", "8", "--games-with", "random"], "--games-with: 'random' is not SPEC=N"),
    (["--games", "8", "--agents", "random,nobody"], "nobody"),
])
def test_one_vs_rest_errors_are_one_line(args, message):
    base = ["one-vs-rest", "--game", "virus_co_v0", "--players", "4", "--seed", "1", "--agents", "random,heuristic"]
    with pytest.raises(SystemExit, match="crossplay one-vs-rest: .*" + message.replace("?", r"\?")):
        main(base + args)


def test_against_parity_is_a_binomial_test_per_cell_with_holm():
    from scipy.stats import binomtest

    from virus_envs.experiments.crossplay import against_parity

    cells = [{"row": "a", "col": c, "wins": w, "games": 100, "win_rate": w / 100, "baseline": 0.25}
             for c, w in (("b", 40), ("c", 33), ("d", 25.5))] + [{"row": "b", "col": "a", "wins": 0, "games": 100,
                                                                   "win_rate": 0.0, "baseline": 0.25}]
    res = against_parity({"cells": cells}, "a")
    assert [r["col"] for r in res] == ["b", "c", "d"]
    p = [binomtest(k, 100, 0.25).pvalue for k in (40, 33, 26)]
    assert [r["p"] for r in res] == p
    # Holm at 0.05 over three: the smallest p (40/100, p ~ 0.001) against 0.05/3, then 33/100 (p ~ 0.07) against 0.025
    assert p[0] < 0.05 / 3 and p[1] > 0.025
    assert [r["holm_reject"] for r in res] == [True, False, False] and all(r["above"] for r in res)
    # Holm's adjusted p: 3 p0, then max(3 p0, 2 p1), then max(that, p2), at most 1; rejected exactly when <= 0.05
    assert [r["p_holm"] for r in res] == pytest.approx([3 * p[0], max(3 * p[0], 2 * p[1]), min(1.0, max(2 * p[1], p[2]))])
    assert [r["p_holm"] <= 0.05 for r in res] == [r["holm_reject"] for r in res]


def test_holm_adjusted_by_hand_and_the_tests_table_with_it():
    from virus_envs.experiments.crossplay import against_parity_markdown, holm_adjusted

    assert holm_adjusted([0.04, 0.01, 0.03]) == pytest.approx([0.06, 0.03, 0.06])      # 3*0.01, 2*0.03, max(0.06, 0.04)
    assert holm_adjusted([0.5, 0.6]) == pytest.approx([1.0, 1.0])
    from virus_envs.experiments.studies.design import holm       # the studies' step-down: the same decisions
    for ps in ([0.04, 0.01, 0.03], [0.001, 0.2, 0.012, 0.013, 0.04], [0.026, 0.024], [0.05, 0.05, 0.05]):
        assert [q <= 0.05 for q in holm_adjusted(ps)] == holm(ps, 0.05), ps
    cells = [{"row": "a", "col": c, "wins": w, "games": 100, "win_rate": w / 100, "baseline": 0.5}
             for c, w in (("b", 70), ("c", 52))]
    plain = against_parity_markdown({"games": 100, "cells": cells}, "a", {"b": "H1", "c": "H2"})
    table = against_parity_markdown({"games": 100, "cells": cells}, "a", {"b": "H1", "c": "H2"}, adjusted=True)
    assert plain.splitlines()[0] == "| column | win rate | p | Holm | hypothesis |"
    assert table.splitlines()[0] == "| column | win rate | p | Holm-adjusted p | Holm | hypothesis |"
    assert table.splitlines()[3] == "| `c` | 0.520 | 0.76 | 0.76 | does not reject | H2 |"


def test_by_seat_markdown_counts_each_seat_with_its_interval():
    from virus_envs.experiments.arena import wilson
    from virus_envs.experiments.crossplay import by_seat_markdown

    cells = [{"row": "a", "col": "b", "by_seat": {"0": {"games": 10, "wins": 7}, "1": {"games": 10, "wins": 4.5}}},
             {"row": "b", "col": "a", "by_seat": {"0": {"games": 10, "wins": 5}, "1": {"games": 10, "wins": 3}}}]
    table = by_seat_markdown({"cells": cells}, "a")
    lo, hi = wilson(7, 10)
    lo2, hi2 = wilson(4.5, 10)
    assert table.splitlines() == ["| column | seat 0 (first player) | seat 1 (second player) |", "|---|---|---|",
                                  f"| `b` | 7/10 = 0.70 [{lo:.2f}, {hi:.2f}] | 4.5/10 = 0.45 [{lo2:.2f}, {hi2:.2f}] |"]


def test_two_player_pairs_are_played_once_and_the_transposed_cell_is_the_same_games(tmp_path):
    """Two players: (b, a) is (a, b)'s games from the other seat (same deals, agents seeded by seat), so it is read,
    not replayed; it equals the cell played on its own, seat by seat."""
    import virus_envs
    from virus_envs.experiments.arena import head_to_head
    from virus_envs.experiments.crossplay import one_vs_rest

    game = virus_envs.game("virus_cards_v0", 2)
    specs = ["heuristic", "heuristic:aggressive", "ismcts?iters=5"]
    said = []
    data = one_vs_rest(game, specs, 8, 5, {"ismcts?iters=5": 4}, out=str(tmp_path / "m.json"), echo=said.append)
    assert len(data["cells"]) == 6 and len(said) == 3                                 # three pairs played
    for c in data["cells"]:
        res = head_to_head(game, c["row"], c["col"], c["games"], seed=5)
        assert (c["wins"], c["games"]) == (res.wins, res.games) and c["baseline"] == 0.5
        assert {int(s): (v["games"], v["wins"]) for s, v in c["by_seat"].items()} == res.by_seat
        assert ("mirror_of" in c) == (specs.index(c["row"]) > specs.index(c["col"]))
        if "mirror_of" in c:
            assert c["cpu_seconds"] == 0.0 and c["mirror_of"] == f"{c['col']} vs {c['row']}"


@pytest.mark.parametrize("cut_after", [1, 2])
def test_a_two_player_run_cut_between_a_pairs_cells_resumes_without_replaying_and_ends_as_an_uncut_run(tmp_path,
                                                                                                       cut_after):
    """Two players: a cut run keeps the transposed cells of the pairs it played (`pending_mirrors`) until their turn,
    so the same command plays only the pairs not yet played, and its file is the uncut run's: the same cells, each
    transposed cell read from its pair's games (`mirror_of`, no CPU of its own), none pending. (Before, a pair cut
    between its two cells was played again from the other seat: the same wins, twice the CPU, no `mirror_of`.)"""
    import virus_envs
    from virus_envs.experiments.crossplay import one_vs_rest

    game = virus_envs.game("roll_write_v0", 2)
    specs, games, seed = ["random", "heuristic", "heuristic:spoiler"], 4, 3
    full = one_vs_rest(game, specs, games, seed, out=str(tmp_path / "full.json"), echo=lambda m: None)

    class Cut(Exception):
        pass

    played = []

    def echo(m):            # said once a pair's games are played, before its cell is listed: a cut there loses it
        played.append(m)
        if len(played) > cut_after:
            raise Cut

    out = tmp_path / "cut.json"
    with pytest.raises(Cut):
        one_vs_rest(game, specs, games, seed, out=str(out), echo=echo)
    part = json.loads(out.read_text())
    listed = {(c["row"], c["col"]) for c in part["cells"]}
    pending = {(c["row"], c["col"]) for c in part["pending_mirrors"]}
    assert pending and not pending & listed
    assert all(f"{b} vs {a}" in {c["mirror_of"] for c in part["pending_mirrors"]} for a, b in pending)
    again = []
    data = one_vs_rest(game, specs, games, seed, out=str(out), echo=again.append)
    assert len(again) == 3 - cut_after                          # only the pairs not played before the cut

    def games_of(d):        # everything but the timings, which differ from run to run
        return [{k: v for k, v in c.items() if k not in ("seconds", "cpu_seconds")} for c in d["cells"]]
    assert games_of(data) == games_of(full)
    assert json.loads(out.read_text()) == data and "pending_mirrors" not in data
    assert all(c["cpu_seconds"] == 0.0 for c in data["cells"] if "mirror_of" in c)
    assert one_vs_rest(game, specs, games, seed, out=str(out), echo=again.append) == data and len(again) == 3 - cut_after


@pytest.mark.parametrize("path", sorted(__import__("glob").glob(
    str(__import__("pathlib").Path(__file__).resolve().parents[2] / "docs" / "results" / "crossplay_*.json"))))
def test_stored_crossplay_cells_follow_from_their_counts(path):
    """Every stored matrix: each cell's rate and 95% Wilson interval are those of its wins and games, its seats add
    up to them, every ordered pair of its agents is there once, and a two-player pair's cells share their games."""
    from virus_envs.experiments.arena import wilson

    with open(path) as f:
        data = json.load(f)
    # one-vs-rest's shape ("cells"), or the first 4-player matrix's rows of tools/eval_games.py (rounded to 4 places)
    listed = data.get("cells") or [dict(r, row=r["agent"], col=r["opponent"]) for r in data["rows"]]
    agents = data.get("agents") or sorted({c["row"] for c in listed})
    n = data.get("players") or listed[0]["players"]
    cells = {(c["row"], c["col"]): c for c in listed}
    assert len(cells) == len(listed) == len(agents) * (len(agents) - 1)
    for (a, b), c in cells.items():
        assert a in agents and b in agents and a != b and c["seed"] == data.get("seed", listed[0]["seed"])
        assert 0 <= c["wins"] <= c["games"] and c["win_rate"] == pytest.approx(c["wins"] / c["games"], abs=1e-4)
        assert c["ci95"] == pytest.approx(list(wilson(c["wins"], c["games"])), abs=1e-4)
        assert c["baseline"] == pytest.approx(1 / n)
        assert sum(v["games"] for v in c["by_seat"].values()) == c["games"]
        assert sum(v["wins"] for v in c["by_seat"].values()) == pytest.approx(c["wins"])
        assert all(v["games"] == c["games"] // n for v in c["by_seat"].values()) and len(c["by_seat"]) == n
        if n == 2:
            back = cells[(b, a)]
            assert back["games"] == c["games"] and c["wins"] + back["wins"] <= c["games"] + 1e-9


def test_transitivity_names_the_separated_cells_against_the_order_and_the_cycles():
    from virus_envs.experiments.crossplay import transitivity

    def cell(a, b, rate, lo):
        return {"row": a, "col": b, "win_rate": rate, "ci95": [lo, 1.0], "baseline": 0.5}

    # a beats b, b beats c, c beats a (all separated): a cycle, and whatever the order one beat goes against it
    data = {"agents": ["a", "b", "c"], "cells": [cell("a", "b", 0.7, 0.6), cell("b", "a", 0.3, 0.2),
                                                  cell("b", "c", 0.8, 0.7), cell("c", "b", 0.2, 0.1),
                                                  cell("c", "a", 0.6, 0.55), cell("a", "c", 0.4, 0.3)]}
    res = transitivity(data)
    assert res["mean"] == pytest.approx({"a": 0.55, "b": 0.55, "c": 0.4})
    assert res["order"] == ["a", "b", "c"] and res["against"] == [("c", "a")]
    assert res["cycles"] == [("a", "b", "c")]
    data["cells"][4] = cell("c", "a", 0.55, 0.45)                                 # c no longer separates from a
    res = transitivity(data)
    assert res["against"] == [] and res["cycles"] == [] and res["beats"] == [("a", "b"), ("b", "c")]
