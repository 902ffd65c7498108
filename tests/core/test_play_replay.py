"""virus-arena play driven through stdin, and replay reproducing recorded games."""
import io
import json
import subprocess
import sys

import pytest

import virus_envs
from virus_envs.experiments.play import load_game_records, play_session, replay_record
from virus_envs.experiments.tournament import TournamentConfig, run_tournament


def test_play_explains_a_wrong_entry_and_asks_again(tmp_path):
    inp = io.StringIO("hello\n999\nplay 2 -> +1 red\n0\nq\n")
    out = io.StringIO()
    rec = play_session("virus_cards_v0", 2, 0, ["random"], 3, {}, inp=inp, out=out,
                       record=str(tmp_path / "g.jsonl"))
    text = out.getvalue()
    assert "is neither a number from the list nor an action name" in text
    assert "999 is not in the list" in text
    assert "is not allowed now" in text
    assert "game abandoned" in text and not rec["complete"] and len(rec["actions"]) >= 1


def test_play_hides_the_other_hands():
    g = virus_envs.game("virus_cards_v0", num_players=2)
    s = g.new_initial_state(seed=3)
    other = ", ".join(f"{i}:{g.deck.card_name(c)}" for i, c in enumerate(s.hands[1]))
    mine = ", ".join(f"{i}:{g.deck.card_name(c)}" for i, c in enumerate(s.hands[0]))
    text = s.render_for(0)
    assert mine in text and other not in text


def test_a_played_game_replays_to_the_same_scores(tmp_path):
    path = tmp_path / "g.jsonl"
    inp = io.StringIO("0\n" * 2000)
    rec = play_session("virus_cards_v0", 3, 1, ["heuristic", "random"], 5, {}, inp=inp, out=io.StringIO(),
                       record=str(path))
    assert rec["complete"]
    [loaded] = load_game_records(str(path))
    out = io.StringIO()
    s = replay_record(loaded, out=out)
    assert [float(x) for x in s.scores()] == rec["scores"]
    assert "match the record" in out.getvalue()


def test_replay_of_tournament_games_for_every_game(tmp_path):
    from virus_envs import agents
    for env_id in virus_envs.ENV_IDS:
        if env_id not in agents.HEURISTICS:
            continue
        c = TournamentConfig(game=env_id, agents=["heuristic", "random"], games=2)
        c.validate()
        d = tmp_path / env_id
        run_tournament(c, str(d), workers=1, echo=lambda *_: None, progress=False)
        for rec in load_game_records(str(d / "games.jsonl")):
            s = replay_record(rec, out=io.StringIO(), tables=False)
            assert [float(x) for x in s.scores()] == rec["scores"]


def test_replay_detects_a_diverging_record(tmp_path):
    path = tmp_path / "g.jsonl"
    play_session("virus_cards_v0", 2, 0, ["random"], 1, {}, inp=io.StringIO("0\n" * 2000), out=io.StringIO(),
                 record=str(path))
    rec = json.loads(path.read_text())
    rec["scores"] = [99.0, 99.0]
    with pytest.raises(ValueError, match=r"field .scores. is \[99.0, 99.0\], replaying its actions gives"):
        replay_record(rec, out=io.StringIO(), tables=False)
    rec["actions"] = [10**4]
    with pytest.raises(ValueError, match="not legal"):
        replay_record(rec, out=io.StringIO(), tables=False)


def test_cli_play_through_stdin_and_bad_input():
    r = subprocess.run([sys.executable, "-m", "virus_envs.experiments.cli", "play", "--game", "virus_cards_v0", "--seed", "2"],
                       input="oops\n0\n0\nq\n", capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "legal actions:" in r.stdout and "game abandoned" in r.stdout
    r = subprocess.run([sys.executable, "-m", "virus_envs.experiments.cli", "replay", "/nonexistent.jsonl"],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "cannot read" in r.stderr and "Traceback" not in r.stderr
