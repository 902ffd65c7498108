"""`virus-arena replay FILE --html`: the page's data, checked without a browser (tests/web/test_browser.py
loads the pages in Chromium)."""
from __future__ import annotations

import base64
import gzip
import json
import re

import pytest

import virus_envs
from virus_envs.experiments.cli import main
from virus_envs.experiments.play import load_game_records, replay_states
from virus_envs.experiments.replay_html import frames, page

from .records import tournament


def _embedded(text):
    data = json.loads(re.search(r'<script id="data" type="application/json">(.*?)</script>', text, re.S).group(1))
    packed = re.search(r'<script id="svgs" type="application/octet-stream">(.*?)</script>', text, re.S).group(1)
    return data, json.loads(gzip.decompress(base64.b64decode(packed)))


@pytest.mark.parametrize("env_id", virus_envs.ENV_IDS)
def test_page_holds_every_position_of_a_tournament_game(env_id, tmp_path):
    path = tournament(env_id, tmp_path)
    out = tmp_path / "replay.html"
    main(["replay", path, "--game-index", "1", "--html", "-o", str(out)])
    text = out.read_text()
    [rec] = [r for r in load_game_records(path) if r.get("index") == 1]
    data, svgs = _embedded(text)
    assert len(data["steps"]) == len(rec["actions"]) + 1
    assert data["final_scores"] == rec["scores"]
    n = rec["num_players"]
    # every step: the full table and each seat's own picture, the decision in words
    for k, step in enumerate(data["steps"]):
        assert "full table" in svgs[step["full"]]
        assert [f"seen by player_{p}" in svgs[step["seats"][p]] for p in range(n)] == [True] * n
        assert ("move" in step) == (k > 0)
    # nothing is fetched: no external script, style, image or link
    assert not re.search(r'(src|href)="(https?:)?//', text)
    assert "DecompressionStream" in text


def test_moves_are_in_words_with_seats_named():
    """Relative seats of the action names become player_q (VIRUS! '+r', Virus & Co 'seat+k')."""
    g = virus_envs.game("virus_co_v0", num_players=4)
    s = g.new_initial_state(seed=0)
    rec = {"env_id": "virus_co_v0", "num_players": 4, "seed": 0, "seats": ["a", "b", "c", "d"],
           "actions": [2, g.string_to_action("seat+1")]}
    moves = [m for _, m in replay_states(rec) if m]
    assert moves[0] == (0, s.current_player(), "circulate A")
    assert moves[1][2] == f"player_{(moves[1][1] + 1) % 4}"


def test_a_record_that_does_not_replay_is_refused(tmp_path):
    rec = {"env_id": "virus_cards_v0", "num_players": 2, "seed": 0, "actions": [10_000]}
    with pytest.raises(ValueError, match="decision 0: action 10000 is not legal"):
        frames(rec)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(rec) + "\n")
    with pytest.raises(SystemExit, match="virus-arena replay: decision 0"):
        main(["replay", str(bad), "--html", "-o", str(tmp_path / "x.html")])
    with pytest.raises(SystemExit, match="--out is the file of --html"):
        main(["replay", str(bad), "-o", str(tmp_path / "x.html")])


def test_page_escapes_what_it_embeds():
    data = {"env_id": "x</script><script>alert(1)</script>", "seed": 1, "svgs": ["<svg/>"], "steps": []}
    text = page(data)
    assert "</script><script>alert(1)" not in text
