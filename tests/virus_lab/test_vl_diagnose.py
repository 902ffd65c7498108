"""tools/vl_diagnose.py: the per-deal record of where a board-game team's games end replays the study's deal (the same
outcome as `one_deal`), and its Exit Control Room count reads the map as a Hero walks it."""
from __future__ import annotations

import sys
from pathlib import Path

from vl_helpers import empty_state, path_to

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import vl_diagnose  # noqa: E402

from virus_envs.experiments.studies.virus_lab import one_deal  # noqa: E402


def test_a_deal_is_the_study_deal_and_its_record_is_consistent():
    rows = []
    for k in range(3):
        r = vl_diagnose.diagnose_deal("heuristic", 2, 1, 9101, k)
        study = one_deal({"id": "x", "conf": {"heroes": 2, "difficulty": 1, "config": {}}, "data_dir": "",
                          "seed": 9101, "deal": k, "agent": "heuristic"})
        assert (r["win"], r["progress"]) == (study["win"], study["progress"])
        assert r["end"] in ("won", "turn limit", "no Hero left on the map", "Room deck ran out", "Event deck ran out",
                            "exited, carrier dead", "other")
        assert (r["end"] == "won") == bool(r["win"])
        assert r["lab_cards"] >= r["max_at_point"]
        assert r["held_turn"] < 0 or r["antidote_turn"] < 0 or r["antidote_turn"] <= r["held_turn"]
        rows.append(r)
    s = vl_diagnose.summarise(rows)
    assert s["deals"] == 3 and sum(s["end"].values()) == 3 and sum(s["progress"].values()) == 3
    assert s["antidote_held"] <= s["antidote_placed"] + sum(1 for r in rows if r["held_turn"] >= 0
                                                            and r["antidote_turn"] < 0)


def test_exits_reached_counts_the_rooms_a_hero_can_walk_to():
    """No room between the Starting Room and the Exit Control Rooms: none reached; a line of 4-doorway rooms down to
    the first one: one reached."""
    s = empty_state(2, difficulty=1)
    assert vl_diagnose.exits_reached(s) == 0
    path_to(s, s.exit_cells[0])
    assert vl_diagnose.exits_reached(s) == 1
