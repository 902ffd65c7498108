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
