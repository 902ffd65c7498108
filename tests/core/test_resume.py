"""`virus-arena run` resumes when the same command is run again, through the CLI entry point.

"interrupted: ... run the same command to resume" must be true: the second run keeps the saved
games and plays only the missing ones (with or without the old `--resume`), and gives what an
uninterrupted run gives. A changed config is refused with the way out (`--fresh`). Every record
read back is checked against the schedule and a replay: an edited seed, seats, returns or
actions, a duplicate line or a foreign index is named (file, line, field), the file is left as it
was, and no game counts twice.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from virus_envs.experiments import tournament
from virus_envs.experiments.cli import main

GAME = "roll_write_v0"
GAMES = 8                      # 4 deals x 2 seat rotations


def _argv(out, *extra, games=GAMES):
    return ["run", "--game", GAME, "--games", str(games), "--workers", "1", "--out", str(out), *extra]


def _dir(out):
    return out / f"{GAME}-2p"


def _results(out):
    with open(_dir(out) / "results.json") as f:
        return json.load(f)


def _lines(out):
    return (_dir(out) / "games.jsonl").read_text().splitlines()


def _write(out, lines):
    (_dir(out) / "games.jsonl").write_text("".join(ln + "\n" for ln in lines))


@pytest.fixture(scope="module")
def full(tmp_path_factory):
    """One uninterrupted run (what every resumed run must give)."""
    out = tmp_path_factory.mktemp("full")
    main(_argv(out))
    return out


@pytest.fixture
def done(full, tmp_path):
    """A copy of the finished run, to be run again or corrupted."""
    out = tmp_path / "run"
    shutil.copytree(full, out)
    return out


def _said(capsys):
    return capsys.readouterr().out


def test_the_same_command_twice_resumes_and_changes_nothing(done, full, capsys):
    before = _lines(done)
    main(_argv(done))
    assert f"resuming: {GAMES} of {GAMES} games already in" in _said(capsys)
    assert _lines(done) == before and _results(done) == _results(full)
    main(_argv(done, "--resume"))                        # the old flag: the same behaviour
    assert f"resuming: {GAMES} of {GAMES}" in _said(capsys)
    assert _lines(done) == before and _results(done) == _results(full)


def test_an_interrupted_run_resumes_with_the_same_command(full, tmp_path, monkeypatch, capsys):
    out = tmp_path / "run"
    real, played = tournament.play_job, []

    def interrupted_after_three(task):
        if len(played) == 3:
            raise KeyboardInterrupt
        played.append(task)
        return real(task)

    monkeypatch.setattr(tournament, "play_job", interrupted_after_three)
    with pytest.raises(SystemExit) as e:
        main(_argv(out))
    msg = str(e.value)
    assert f"interrupted: 3 of {GAMES} games saved in {_dir(out) / 'games.jsonl'}; run the same command to resume" in msg
    assert len(_lines(out)) == 3
    monkeypatch.setattr(tournament, "play_job", real)
    main(_argv(out))                                     # the same command, no flag
    assert f"resuming: 3 of {GAMES} games" in _said(capsys)
    assert _results(out) == _results(full)
    strip = lambda lines: sorted(json.dumps({k: v for k, v in json.loads(x).items() if k != "seconds"}, sort_keys=True)
                                 for x in lines)
    assert strip(_lines(out)) == strip(_lines(full))


def test_ctrl_c_in_a_real_process_then_the_same_command(full, tmp_path):
    """SIGINT to the whole process group (what Ctrl-C does), two workers: one line, no traceback; then resume."""
    out = tmp_path / "run"
    argv = [sys.executable, "-m", "virus_envs.experiments.cli"] + _argv(out, games=120)
    argv[argv.index("--workers") + 1] = "2"
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    games = _dir(out) / "games.jsonl"
    t0 = time.time()
    while not (games.exists() and len(games.read_text().splitlines()) >= 2):
        assert p.poll() is None and time.time() - t0 < 120, "the run ended before it could be interrupted"
        time.sleep(0.02)
    os.killpg(p.pid, signal.SIGINT)
    _, err = p.communicate(timeout=120)
    assert p.returncode != 0 and "Traceback" not in err and "Process " not in err
    assert "run the same command to resume" in err and len(err.strip().splitlines()) == 1
    saved = len(games.read_text().splitlines())
    assert 2 <= saved < 120
    # resume (in process, so that the test stays quick): only the missing games are played
    r = subprocess.run([sys.executable, "-c", "import sys; from virus_envs.experiments.cli import main; "
                        "main(sys.argv[1:])", *_argv(out, games=120)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert f"resuming: {saved} of 120 games" in r.stdout
    assert len(games.read_text().splitlines()) == 120 and _results(out)["complete"]


def test_a_changed_config_is_refused_with_the_way_to_start_afresh(done, capsys):
    before = _lines(done)
    with pytest.raises(SystemExit) as e:
        main(_argv(done, games=10))
    msg = str(e.value)
    assert "holds another tournament ('games' is 8 there, 10 now)" in msg and "--fresh" in msg and "\n" not in msg
    assert _lines(done) == before                        # nothing lost
    main(_argv(done, "--fresh", games=10))
    assert "resuming" not in _said(capsys)
    assert _results(done)["games"] == 10 and len(_lines(done)) == 10


def test_fresh_and_resume_together_are_refused(done):
    with pytest.raises(SystemExit, match="not allowed with argument"):
        main(_argv(done, "--fresh", "--resume"))


def _edit(line, **changes):
    rec = json.loads(line)
    rec.update(changes)
    return json.dumps(rec)


def _corrupt_cases():
    """(name, corruption of the list of lines, fragment of the message); line numbers are 1-based."""
    def seed(ls):
        ls[2] = _edit(ls[2], seed=json.loads(ls[2])["seed"] + 1)

    def seats(ls):
        ls[2] = _edit(ls[2], seats=json.loads(ls[2])["seats"][::-1])

    def returns(ls):
        ls[2] = _edit(ls[2], returns=json.loads(ls[2])["returns"][::-1])

    def scores(ls):
        ls[2] = _edit(ls[2], scores=[s + 1 for s in json.loads(ls[2])["scores"]])

    def duplicate(ls):
        ls.append(ls[1])

    def foreign(ls):
        ls.append(_edit(ls[1], index=GAMES))

    def action_text(ls):
        rec = json.loads(ls[2])
        ls[2] = _edit(ls[2], actions=[str(rec["actions"][0])] + rec["actions"][1:])

    def cut_short(ls):
        rec = json.loads(ls[2])
        ls[2] = _edit(ls[2], actions=rec["actions"][:10], length=10)

    def not_json(ls):
        ls[3] = ls[3][:40]

    def not_an_object(ls):
        ls[3] = "[1, 2, 3]"

    return [
        ("seed", seed, "line 3: field 'seed' is"),
        ("seats", seats, "line 3: field 'seats' is"),
        ("returns", returns, "line 3: field 'returns' is"),
        ("scores", scores, "line 3: field 'scores' is"),
        ("duplicate", duplicate, f"line {GAMES + 1}: game 1 again (first on line 2)"),
        ("foreign index", foreign, f"line {GAMES + 1}: field 'index' is {GAMES}, not a game of this tournament (0..{GAMES - 1})"),
        ("action as text", action_text, "line 3: key 'actions[0]' must be an integer, got '"),
        ("cut short", cut_short, "line 3: the record ends after 10 decisions, before the game is over"),
        ("not JSON", not_json, "line 4: not JSON"),
        ("not an object", not_an_object, "line 4: not a game record (a JSON object), got list"),
    ]


@pytest.mark.parametrize("name, corrupt, fragment", _corrupt_cases(), ids=[c[0] for c in _corrupt_cases()])
def test_a_corrupted_record_is_named_and_nothing_is_counted_twice(done, name, corrupt, fragment):
    lines = _lines(done)
    corrupt(lines)
    _write(done, lines)
    with pytest.raises(SystemExit) as e:
        main(_argv(done))
    msg = str(e.value)
    assert str(_dir(done) / "games.jsonl") in msg and fragment in msg, msg
    assert "--fresh" in msg and "\n" not in msg
    assert _lines(done) == lines                         # the file is left as it was


def test_the_replay_names_an_edited_result_against_the_replayed_one(done):
    lines = _lines(done)
    rec = json.loads(lines[0])
    lines[0] = _edit(lines[0], returns=rec["returns"][::-1])
    _write(done, lines)
    with pytest.raises(SystemExit) as e:
        main(_argv(done))
    assert f"field 'returns' is {rec['returns'][::-1]}, replaying its actions gives {rec['returns']}" in str(e.value)


def test_a_line_torn_by_an_interrupt_is_dropped_and_played_again(done, full, capsys):
    lines = _lines(done)
    (_dir(done) / "games.jsonl").write_text("".join(ln + "\n" for ln in lines[:5]) + lines[5][:30])
    main(_argv(done))
    assert f"resuming: 5 of {GAMES}" in _said(capsys)
    assert _results(done) == _results(full)


def test_a_config_json_that_is_not_json_is_named(done):
    (_dir(done) / "config.json").write_text("{not json")
    with pytest.raises(SystemExit) as e:
        main(_argv(done))
    assert f"{_dir(done) / 'config.json'}: not a tournament's config (not JSON" in str(e.value)
    assert "--fresh" in str(e.value)


def test_games_played_differently_now_are_not_mixed_with_new_ones(done, monkeypatch):
    """An agent (or the engine) that changed since the games were recorded: the first game is played again."""
    from virus_envs.agents.base import RandomAgent

    monkeypatch.setattr(RandomAgent, "act", lambda self, d: int(d.legal_actions[0]))
    with pytest.raises(SystemExit) as e:
        main(_argv(done))
    msg = str(e.value)
    assert "line 1: game 0 is played differently now" in msg and "--fresh" in msg
