"""Every user mistake of issue 20 is one line naming the file and the field (or the option), and loses nothing.

Each case was found by a new user trying every command and gave a traceback or silent nonsense:
agent specs, tournament and training YAML, replay inputs, options that were silently accepted,
`train --evaluate` with another game's model, the raw env's `step`, and the co-operative game's
illegal move through the wrapped env.
"""
import json
import subprocess
import sys

import numpy as np
import pytest

from virus_envs import IllegalActionError, agents, models
import virus_envs
from virus_envs.experiments.cli import main


def _one_line(argv) -> str:
    """The message of a CLI mistake (SystemExit), checked to be one line."""
    with pytest.raises(SystemExit) as e:
        main(argv)
    msg = str(e.value)
    assert msg.startswith("virus-arena") and "\n" not in msg, msg
    return msg


# -- agent specs ------------------------------------------------------------------------------
@pytest.mark.parametrize("spec, fragment", [
    ("ppo:models/virus_cards_v0/ppo.zip?foo=1", "agent spec 'ppo:models/virus_cards_v0/ppo.zip?foo=1': unknown "
                                                "parameter 'foo' of ppo; known: ['deterministic', 'seed', 'trusted']"),
    ("heuristic?seed=abc", "agent spec 'heuristic?seed=abc': parameter 'seed' must be a non-negative integer, "
                           "got 'abc'"),
    ("random?seed=-3", "parameter 'seed' must be a non-negative integer, got -3"),
    ("ppo:builtin", "no shipped model for virus_cards_v0 with 3 players; shipped for 2 or 4 players"),
])
def test_bad_agent_specs(spec, fragment):
    with pytest.raises(ValueError) as e:
        agents.make(spec, virus_envs.game("virus_cards_v0", num_players=3))
    assert fragment in str(e.value)
    assert fragment in _one_line(["eval", "--game", "virus_cards_v0", "--players", "3", "--agent", spec])


def test_no_shipped_model_for_a_game_or_player_count():
    with pytest.raises(ValueError, match=r"no shipped model for virus_co_v0 with 3 players; shipped for 4 players"):
        models.load("virus_co_v0", num_players=3)
    with pytest.raises(ValueError, match="unknown env id 'nope'"):
        models.path("nope")


# -- tournament YAML --------------------------------------------------------------------------
TOURNAMENT = "tournaments:\n  - {game: roll_write_v0, agents: [heuristic, random]}\n"


@pytest.mark.parametrize("text, fragment", [
    ("seed: abc\n" + TOURNAMENT, "key 'seed' must be an integer, got 'abc'"),
    ("workers: two\n" + TOURNAMENT, "key 'workers' must be an integer, got 'two'"),
    ("games: 2.5\n" + TOURNAMENT, "key 'games' must be an integer, got 2.5"),
    ("tournaments:\n  - {game: roll_write_v0, agents: [heuristic], config: [1, 2]}\n",
     "key 'tournaments[0].config' must be a mapping, got [1, 2]"),
    ("tournaments:\n  - {game: roll_write_v0, agents: heuristic}\n",
     "key 'tournaments[0].agents' must be a list, got 'heuristic'"),
    ("wrokers: 2\n" + TOURNAMENT, "unknown key 'wrokers'; known: games, limits, seed, tournaments, workers"),
    ("tournaments:\n  - {game: roll_write_v0, agents: [heuristic], colour: red}\n",
     "unknown key 'tournaments[0].colour'; known: agents, config, game, games, limits, players, seed"),
    ("tournaments:\n  - {game: nope, agents: [heuristic]}\n", "key 'tournaments[0].game' must be one of"),
    ("tournaments:\n  - {game: virus_lab_v0, agents: [heuristic], config: {difficulty: 9}}\n",
     "tournaments[0]: config key 'difficulty'"),
    ("tournaments:\n  - {game: roll_write_v0, agents: [heuristic, 'ppo:x.zip?foo=1']}\n",
     "tournaments[0]: agent spec 'ppo:x.zip?foo=1': unknown parameter 'foo'"),
    ("tournaments: []\n", "key 'tournaments' must have at least 1 item(s), got []"),
    ("- a list\n", "key '<top>' must be a mapping of keys, got list"),
])
@pytest.mark.parametrize("command", ["tournament", "run"])
def test_bad_tournament_yaml_names_the_file_and_key_before_any_output(tmp_path, text, fragment, command):
    path = tmp_path / "t.yaml"
    path.write_text(text)
    msg = _one_line([command, "--config", str(path), "--out", str(tmp_path / "out")])
    assert f"{path}: " in msg and fragment in msg, msg
    assert not (tmp_path / "out").exists()


# -- training YAML ----------------------------------------------------------------------------
@pytest.mark.parametrize("text, fragment", [
    ("learning_rate: -0.1\n", "key 'learning_rate' must be positive, got -0.1"),
    ("clip_range: -1\n", "key 'clip_range' must be positive, got -1"),
    ("init_from: /nonexistent.zip\n", "key 'init_from' names no file (a saved model .zip, relative to the current "
                                      "directory), got '/nonexistent.zip'"),
    ("gamma: 1.5\n", "key 'gamma' must be at most 1, got 1.5"),
    ("n_envs: 2.0\n", "key 'n_envs' must be an integer, got 2.0"),
    ("same_opponent: 1\n", "key 'same_opponent' must be true or false, got 1"),
    ("activation: sigmoid\n", "key 'activation' must be one of 'tanh' or 'relu', got 'sigmoid'"),
])
def test_bad_training_yaml_names_the_file_and_key_before_any_output(tmp_path, text, fragment):
    path = tmp_path / "c.yaml"
    path.write_text("game: virus_cards_v0\n" + text)
    msg = _one_line(["train", "--game", "virus_cards_v0", "--config", str(path), "--out", str(tmp_path / "out")])
    assert f"{path}: {fragment}" in msg and ".zip.zip" not in msg, msg
    assert not (tmp_path / "out").exists()


def test_training_yaml_reads_3e_4_as_a_number(tmp_path):
    from virus_envs.experiments.train import load_config

    path = tmp_path / "c.yaml"
    path.write_text("learning_rate: 3e-4\n")        # YAML 1.1 reads this as a string
    assert load_config(path).learning_rate == 3e-4


def test_train_evaluate_with_another_games_model_says_so():
    path = models.path("virus_cards_v0")
    msg = _one_line(["train", "--game", "virus_lab_v0", "--evaluate", path, "--games", "1"])
    assert f"{path} is a model for virus_cards_v0 (2 players), not for --game virus_lab_v0" in msg


# -- replay inputs ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def record():
    """A finished 2-player game as a record (what `play --record` and tournaments write)."""
    g = virus_envs.game("virus_cards_v0", num_players=2)
    s = g.new_initial_state(seed=3)
    actions = []
    while not s.is_terminal():
        a = s.legal_actions()[0]
        actions.append(a)
        s.apply_action(a)
    return {"env_id": "virus_cards_v0", "num_players": 2, "config": {}, "seed": 3, "seats": ["first", "first"],
            "actions": actions, "scores": [float(x) for x in s.scores()], "returns": [float(x) for x in s.returns()],
            "truncated": False}


def _replay_mistake(tmp_path, rec, *extra):
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    msg = _one_line(["replay", str(path), "--quiet", *extra])
    assert f"{path}: line 1: " in msg, msg
    return msg


@pytest.mark.parametrize("first, shown", [("5", "'5'"), (None, "None"), (5.0, "5.0"), (True, "True")])
def test_replay_actions_of_the_wrong_type(tmp_path, record, first, shown):
    rec = dict(record, actions=[first] + record["actions"][1:])
    assert f"key 'actions[0]' must be an integer, got {shown}" in _replay_mistake(tmp_path, rec)


@pytest.mark.parametrize("change, fragment", [
    ({"seats": ["first"]}, "field 'seats' has 1 entries for 2 players"),
    ({"config": [1, 2]}, "key 'config' must be a mapping, got [1, 2]"),
    ({"config": {"colour": "red"}}, "field 'config': unknown config key 'colour'"),
    ({"env_id": "nope"}, "field 'env_id': unknown env id 'nope'"),
    ({"num_players": 9}, "field 'num_players': num_players=9 out of range"),
    ({"seed": "x"}, "key 'seed' must be an integer, got 'x'"),
    ({"returns": [1.0]}, "field 'returns' has 1 entries for 2 players"),
    ({"scores": [99.0, 99.0]}, "field 'scores' is [99.0, 99.0], replaying its actions gives"),
])
def test_replay_fields_that_are_wrong(tmp_path, record, change, fragment):
    assert fragment in _replay_mistake(tmp_path, dict(record, **change))


def test_replay_of_a_record_cut_short_says_it_is_unfinished(tmp_path, record):
    rec = dict(record, actions=record["actions"][:7])
    assert "the record ends after 7 decisions, before the game is over" in _replay_mistake(tmp_path, rec)
    # an abandoned game said so (play's `complete: false`) replays, and says it is unfinished
    path = tmp_path / "abandoned.jsonl"
    path.write_text(json.dumps(dict(rec, complete=False)) + "\n")
    from virus_envs.experiments.play import replay_record
    import io
    out = io.StringIO()
    replay_record(dict(rec, complete=False), out=out, tables=False)
    assert "an unfinished game (abandoned after 7 decisions)" in out.getvalue()


def test_replay_of_a_line_that_is_not_json_names_it(tmp_path, record):
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps(record) + "\n{oops\n")
    assert f"{path}: line 2: not JSON" in _one_line(["replay", str(path), "--game-index", "1"])


def test_replay_into_head_stops_quietly(tmp_path, record):
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps(record) + "\n")
    p = subprocess.Popen([sys.executable, "-m", "virus_envs.experiments.cli", "replay", str(path)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.readline()                      # what `head -1` does: read a line, then go away
    p.stdout.close()
    err = p.stderr.read().decode()
    p.wait(timeout=120)
    assert "Broken pipe" not in err and "Traceback" not in err and "Exception ignored" not in err, err


# -- options that were silently accepted --------------------------------------------------------
@pytest.mark.parametrize("argv, fragment", [
    (["run", "--game", "foo"], "unknown env id 'foo'"),
    (["bench", "--players", "9"], "--players 9: no game benchmarked takes 9 players"),
    (["bench", "--seconds", "-1"], "--seconds must be a positive number, got -1"),
    (["bench", "--seconds", "nan"], "--seconds must be a positive number, got nan"),
    (["eval", "--game", "virus_lab_v0", "--players", "1", "--opponent", "random"],
     "virus_lab_v0 with 1 player is a team of one: --opponent has no seat to play"),
])
def test_options_that_make_no_sense_are_refused(argv, fragment):
    assert fragment in _one_line(argv)


def test_eval_in_the_cooperative_game_seats_the_opponent_as_partners(capsys, tmp_path):
    main(["eval", "--game", "virus_lab_v0", "--players", "2", "--agent", "heuristic", "--opponent", "random",
          "--games", "2", "--out", str(tmp_path / "r.json")])
    said = capsys.readouterr().out
    assert "heuristic with partners random: team win rate" in said and "no 1/N baseline" in said
    assert "baseline 1.000" not in said
    row = json.loads((tmp_path / "r.json").read_text())
    assert row["partners"] == "random" and row["baseline"] is None and row["cooperative"]
    main(["eval", "--game", "virus_lab_v0", "--players", "1", "--games", "2"])
    assert "team of heuristic: team win rate" in capsys.readouterr().out


# -- the raw env ------------------------------------------------------------------------------------
def test_raw_env_step_with_a_bool_or_a_string_is_refused_and_changes_nothing():
    env = virus_envs.raw_env("virus_cards_v0")
    env.reset(seed=0)
    before = env.state.to_dict()
    with pytest.raises(IllegalActionError, match=r"illegal action True in phase .*: a bool, not an integer action id"):
        env.step(True)
    with pytest.raises(IllegalActionError, match=r"illegal action '1' in phase .*: not an integer action id"):
        env.step("1")
    assert env.state.to_dict() == before


def test_raw_env_step_before_reset_says_so():
    from gymnasium.error import ResetNeeded

    env = virus_envs.raw_env("virus_cards_v0")
    with pytest.raises(ResetNeeded, match=r"virus_cards_v0: call reset\(\) before step\(\)"):
        env.step(0)
    with pytest.raises(ResetNeeded, match=r"call reset\(\) before last\(\)"):
        env.last()
    assert list(env.agent_iter()) == []


@pytest.mark.parametrize("n", [2, 4])
def test_an_illegal_move_in_the_cooperative_game_gives_the_whole_team_the_same_result(n):
    """virus_lab_v0 is co-operative: all Heroes win or lose together, so all get the offender's -1."""
    env = virus_envs.env("virus_lab_v0", num_players=n)
    env.reset(seed=1)
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    seen = {}
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last()
        assert term or trunc
        seen[agent] = reward
        env.step(None)
    assert seen == {f"player_{i}": -1.0 for i in range(n)}


def test_an_illegal_move_in_a_competitive_game_still_costs_the_offender_alone():
    env = virus_envs.env("virus_cards_v0", num_players=3)
    env.reset(seed=1)
    offender = env.agent_selection
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert env.rewards[offender] == -1 and all(r == 0 for a, r in env.rewards.items() if a != offender)
