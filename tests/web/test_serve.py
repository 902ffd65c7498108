"""`virus-arena serve`: the app's API through Flask's test client (tests/web/test_browser.py plays it by clicking)."""
from __future__ import annotations

import json

import pytest

import virus_envs
from virus_envs.experiments.cli import main
from virus_envs.experiments.play import load_game_records, replay_record

flask = pytest.importorskip("flask", reason="serve needs the [web] extra")

from virus_envs.experiments.serve import Table, create_app  # noqa: E402

PLAYERS = {"virus_cards_v0": 2, "roll_write_v0": 2, "virus_co_v0": 3, "virus_lab_v0": 1}


@pytest.mark.parametrize("env_id", virus_envs.ENV_IDS)
def test_a_whole_game_through_the_api_is_recorded_and_replays(env_id, tmp_path):
    record = tmp_path / "games.jsonl"
    table = Table(env_id, PLAYERS[env_id], 0, ["random"], {"max_steps": 300} if env_id == "virus_lab_v0" else {},
                  str(record), seed=7)
    client = create_app(table).test_client()
    st = client.get("/api/state").get_json()
    assert st["seat"] == 0 and "seen by player_0" in st["svg"] and st["seats"][0] == "human"
    clicks = 0
    while not st["over"]:
        assert st["your_turn"] and st["legal"]
        st = client.post("/api/act", json={"action": st["legal"][-1]["id"]}).get_json()
        clicks += 1
    assert st["returns"] is not None and clicks > 0
    [rec] = load_game_records(str(record))
    assert rec["complete"] and rec["seats"][0] == "human" and rec["seed"] == 7
    s = replay_record(rec, out=open("/dev/null", "w"), tables=False)
    assert [float(x) for x in s.scores()] == st["scores"]


def test_wrong_requests_get_a_reason_and_change_nothing(tmp_path):
    table = Table("virus_cards_v0", 2, 1, ["heuristic"], {}, str(tmp_path / "g.jsonl"), seed=3)
    client = create_app(table).test_client()
    before = client.get("/api/state").get_json()
    legal = {a["id"] for a in before["legal"]}
    illegal = next(a for a in range(table.game.num_actions) if a not in legal)
    for body, reason in (({"action": illegal}, "is not legal now"), ({"action": "x"}, "is not legal now"),
                         ({}, "is not legal now")):
        r = client.post("/api/act", json=body)
        assert r.status_code == 400 and reason in r.get_json()["error"]
    assert client.get("/api/state").get_json()["decisions"] == before["decisions"]
    r = client.post("/api/new", json={"seed": -4})
    assert r.status_code == 400 and "seed" in r.get_json()["error"]
    assert "<title>" in client.get("/").get_data(as_text=True)


def test_a_new_game_records_the_abandoned_one(tmp_path):
    path = tmp_path / "g.jsonl"
    table = Table("roll_write_v0", 2, 0, ["heuristic"], {}, str(path), seed=1)
    client = create_app(table).test_client()
    st = client.get("/api/state").get_json()
    client.post("/api/act", json={"action": st["legal"][0]["id"]})
    st = client.post("/api/new", json={"seed": 9}).get_json()
    assert st["seed"] == 9
    [rec] = [json.loads(x) for x in path.read_text().splitlines()]
    assert rec["complete"] is False and rec["seed"] == 1 and len(rec["actions"]) >= 1


def test_serve_command_mistakes_are_one_line_errors():
    with pytest.raises(SystemExit, match="--seat must be 0..1"):
        main(["serve", "--game", "virus_cards_v0", "--players", "2", "--seat", "5"])
    with pytest.raises(SystemExit, match="unknown env id"):
        main(["serve", "--game", "nope_v0"])
    with pytest.raises(SystemExit, match="virus-arena serve: .*nosuchagent"):
        main(["serve", "--game", "virus_cards_v0", "--opponents", "nosuchagent"])
    with pytest.raises(SystemExit, match="--port must be"):
        main(["serve", "--game", "virus_cards_v0", "--port", "0"])
