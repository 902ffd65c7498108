"""Outside bots (`cmd:`, docs/bots.md): the JSON-lines protocol, time limits and forfeits (issue 22).

The bots are the protocol's own examples (examples/bots/) and a scripted bad bot (tests/core/bots/
bad_bot.py) that hangs, crashes, prints garbage or answers an illegal action in the games its seed
picks. Timing tolerances are generous: the tests run on a shared, loaded 2-core machine, where a
process may wait hundreds of milliseconds for a core; see TOLERANCE.
"""
import json
import os
import shutil
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import virus_envs
from virus_envs import agents
from virus_envs.agents.base import Forfeit, decision_for
from virus_envs.agents.botproc import BotLimits
from virus_envs.agents.cmd import decision_message
from virus_envs.experiments import records
from virus_envs.experiments.arena import forfeit_returns, play_match
from virus_envs.experiments.cli import main
from virus_envs.experiments.tournament import TournamentConfig, load_records, run_tournament, schedule

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
BAD = f"{PY} {ROOT / 'tests' / 'core' / 'bots' / 'bad_bot.py'}"
AWK_BOT = f"sh {ROOT / 'examples' / 'bots' / 'random_bot.sh'}"
AGENT_BOT = f"{PY} {ROOT / 'examples' / 'bots' / 'agent_bot.py'}"
#: how late a timeout may be noticed. The deadline is a poll() timeout, so on an idle machine the forfeit comes
#: within a few ms (docs/bots.md has the figures); a loaded 2-core machine can hold a process off a core for
#: a second, so the tests only require it within 2 s, and never before the limit.
TOLERANCE = 2.0


def _quiet(*_):
    pass


def _bot(spec, game, **limits):
    a = agents.make(spec, game)
    a.limits = BotLimits(**limits)
    return a


def _games(out):
    with open(os.path.join(out, "games.jsonl")) as f:
        return [json.loads(line) for line in f]


def _without_seconds(recs):
    return sorted(({k: v for k, v in r.items() if k != "seconds"} for r in recs), key=lambda r: r["index"])


# -- the protocol ------------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", virus_envs.ENV_IDS)
def test_a_subprocess_bot_plays_every_game_to_the_end(env_id, tmp_path):
    """The shell/awk example plays whole games of every env in a tournament; a resume accepts its records."""
    spec = f"cmd:{AWK_BOT}"
    cfg = TournamentConfig(game=env_id, agents=[spec, "random"], games=4, seed=1, limits={"decision_seconds": 30})
    res = run_tournament(cfg, str(tmp_path), workers=1, echo=_quiet, progress=False)
    recs = _games(tmp_path)
    assert res["complete"] and len(recs) == len(schedule(cfg)) and not res["forfeits"]
    assert sum(spec in r["seats"] for r in recs) >= 2
    game = virus_envs.game(env_id)
    for r in recs:                                      # each record replays to a finished game
        assert records.replay(r, "test", game).is_terminal() and "forfeit" not in r
    assert load_records(str(tmp_path / "games.jsonl"), cfg, schedule(cfg)).keys() == {r["index"] for r in recs}


@pytest.mark.parametrize("env_id", virus_envs.ENV_IDS)
def test_the_heuristic_behind_the_protocol_plays_the_same_games(env_id, tmp_path):
    """examples/bots/agent_bot.py wrapping `heuristic` plays, game for game, what the in-process heuristic plays
    on the same seeds: the protocol carries everything the heuristic reads (view, phase, legal ids, seed)."""
    wrapped = f"cmd:{AGENT_BOT} heuristic"
    runs = {}
    for name, spec in (("inside", "heuristic"), ("outside", wrapped)):
        cfg = TournamentConfig(game=env_id, agents=[spec, "random"], games=4, seed=3,
                               limits={"decision_seconds": 60, "hello_seconds": 120})
        res = run_tournament(cfg, str(tmp_path / name), workers=1, echo=_quiet, progress=False)
        runs[name] = (res, _games(tmp_path / name))
    (res_in, inside), (res_out, outside) = runs["inside"], runs["outside"]
    assert [r["actions"] for r in inside] == [r["actions"] for r in outside]
    assert [r["returns"] for r in inside] == [r["returns"] for r in outside]
    assert not res_out["forfeits"]
    rate = {a["agent"]: a["win_rate"] for a in res_in["agents"]}["heuristic"]
    assert {a["agent"]: a["win_rate"] for a in res_out["agents"]}[wrapped] == rate


@pytest.mark.parametrize("env_id", virus_envs.ENV_IDS)
def test_a_decision_tells_only_what_the_seat_may_know(env_id):
    """The decision message is the same for every full state the seat cannot tell apart (determinize keeps the
    seat's view and mask and resamples the rest), and its view survives JSON unchanged."""
    game = virus_envs.game(env_id)
    rng = np.random.default_rng(0)
    s, checked = game.new_initial_state(seed=2), 0
    while not s.is_terminal() and checked < 40:
        d = decision_for(s)
        msg = decision_message(d, 0, 1.0, observation=True)
        assert json.loads(json.dumps(msg))["view"] == d.view
        other = decision_for(s.determinize(d.seat, np.random.default_rng(checked)))
        assert json.dumps(decision_message(other, 0, 1.0, observation=True)) == json.dumps(msg)
        assert np.array_equal(np.asarray(json.loads(json.dumps(msg))["observation"], dtype=np.float32),
                              d.observation)
        legal = np.flatnonzero(d.action_mask)
        s.apply_action(int(legal[rng.integers(len(legal))]))
        checked += 1


def test_cmd_specs():
    game = virus_envs.game("virus_cards_v0")
    a = agents.make(f"cmd:{AWK_BOT}?seed=4", game)
    assert a.argv[-1].endswith("random_bot.sh") and a.seed == 4
    assert agents.make(f"cmd:{AWK_BOT} 'what?x=1'?", game).argv[-1] == "what?x=1"   # a '?' of the command
    for spec, fragment in (("cmd:", "command line is empty"), ("cmd:no-such-bot-here --x", "'no-such-bot-here' is "
                           "neither an executable file nor a command on PATH"), (f"cmd:{AWK_BOT}?time=3",
                           "unknown parameter 'time' of cmd"), ("cmd:sh 'open", "cannot split")):
        with pytest.raises(ValueError, match=fragment):
            agents.make(spec, game)


# -- faults ---------------------------------------------------------------------------------------------
FAULTS = {"hang": "timeout", "crash": "crash", "garbage": "garbage", "illegal": "illegal"}


@pytest.mark.parametrize("mode", sorted(FAULTS))
def test_a_fault_forfeits_the_game_and_the_tournament_goes_on(mode, tmp_path):
    """The bad bot misbehaves in the games whose seed is even, at its second decision: each is forfeited (the reason recorded, the
    seat -1 and the other +1), the bot is restarted and plays its other games to the end; the same command
    gives the same records, and a resume accepts them."""
    spec = f"cmd:{BAD} {mode} 2 1"
    # only the hang needs a short limit; 1 s leaves a loaded machine room for the bot's good answers
    n = 6 if mode == "hang" else 10                     # each hang costs a second
    cfg = dict(game="virus_cards_v0", agents=[spec, "random"], games=n, seed=5,
               limits={"decision_seconds": 1.0 if mode == "hang" else 30.0, "hello_seconds": 60})
    res = run_tournament(TournamentConfig(**cfg), str(tmp_path / "a"), workers=1, echo=_quiet, progress=False)
    recs = _games(tmp_path / "a")
    cut = [r for r in recs if "forfeit" in r]
    assert res["complete"] and len(recs) == n
    assert cut and len(cut) < len(recs)                 # some games forfeited, the others played to the end
    for r in cut:
        f = r["forfeit"]
        seat = r["seats"].index(spec)
        assert (f["seat"], f["kind"], f["agent"]) == (seat, FAULTS[mode], spec)
        assert r["returns"][seat] == -1.0 and r["returns"][1 - seat] == 1.0 and not r["truncated"]
        assert f["decision"] == r["length"] and f["reason"]
    for r in recs:
        if "forfeit" not in r:
            assert records.replay(r, "t", virus_envs.game("virus_cards_v0")).is_terminal()
    row = {a["agent"]: a for a in res["agents"]}
    assert row[spec]["forfeits"][FAULTS[mode]] == len(cut) and sum(row["random"]["forfeits"].values()) == 0
    assert [f["index"] for f in res["forfeits"]] == [r["index"] for r in cut]
    report = (tmp_path / "a" / "report.md").read_text()
    assert "## Forfeits" in report and FAULTS[mode] in report
    # reproducible: a second run plays the same games, forfeits included
    again = run_tournament(TournamentConfig(**cfg), str(tmp_path / "b"), workers=1, echo=_quiet, progress=False)
    assert _without_seconds(_games(tmp_path / "b")) == _without_seconds(recs)
    assert {k: v for k, v in again.items()} == res
    # a resume checks and keeps them: cut the file, run again, the same records come back
    with open(tmp_path / "b" / "games.jsonl") as f:
        lines = f.readlines()
    with open(tmp_path / "b" / "games.jsonl", "w") as f:
        f.writelines(lines[:4])
    run_tournament(TournamentConfig(**cfg), str(tmp_path / "b"), workers=1, echo=_quiet, progress=False)
    assert _without_seconds(_games(tmp_path / "b")) == _without_seconds(recs)


def test_forfeits_in_a_four_seat_game_and_in_the_team_game():
    """Four seats: the seat at fault -1, the three others share the win (1/3 each). The co-operative game: the
    team loses, every seat -1."""
    game = virus_envs.game("virus_co_v0", 4)
    line = [agents.make("random", game) for _ in range(4)]
    line[2] = _bot(f"cmd:{BAD} illegal 1 0", game)
    o = play_match(game, line, seed=3, record=True)
    assert o.forfeit["seat"] == 2 and o.returns == pytest.approx([1 / 3, 1 / 3, -1.0, 1 / 3])
    assert forfeit_returns(game, 0) == pytest.approx([-1.0, 1 / 3, 1 / 3, 1 / 3])
    lab = virus_envs.game("virus_lab_v0", 2)
    o = play_match(lab, [agents.make("random", lab), _bot(f"cmd:{BAD} crash 1 0", lab)], seed=1, record=True)
    assert o.forfeit["kind"] == "crash" and o.returns == [-1.0, -1.0]
    line[2].close()


def test_forfeit_records_are_checked_on_replay():
    game = virus_envs.game("virus_cards_v0")
    bad = _bot(f"cmd:{BAD} illegal 1 2", game)
    o = play_match(game, [agents.make("random", game), bad], seed=7, record=True)
    rec = {"env_id": "virus_cards_v0", "num_players": 2, "config": {}, "seed": 7, "actions": o.actions,
           "scores": o.scores, "returns": o.returns, "truncated": False, "length": len(o.actions), "forfeit": o.forfeit}
    assert o.forfeit["seat"] == 1 and o.returns == [1.0, -1.0]
    records.check_outcome(rec, records.replay(rec, "t", game), "t")           # as recorded: accepted
    for change, fragment in ((dict(forfeit=dict(o.forfeit, seat=0)), "field 'forfeit.seat' is 0, but seat 1"),
                             (dict(returns=[-1.0, 1.0]), "field 'returns' is [-1.0, 1.0], a forfeit by seat 1"),
                             (dict(actions=o.actions[:-1], length=len(o.actions) - 1), "forfeit.decision"),
                             (dict(forfeit=dict(o.forfeit, kind="bored")), "forfeit.kind")):
        bad_rec = dict(rec, **change)
        with pytest.raises(ValueError, match=fragment.replace("[", r"\[").replace("]", r"\]")):
            records.check_types(bad_rec, "t")
            records.check_outcome(bad_rec, records.replay(bad_rec, "t", game), "t")
    bad.close()


def test_a_bot_is_restarted_after_a_fault_and_stops_with_its_agent():
    game = virus_envs.game("virus_cards_v0")
    bot = _bot(f"cmd:{BAD} crash 2 0", game)
    kinds, pids = [], []
    for seed in range(6):
        o = play_match(game, [bot, agents.make("random", game)], seed=seed)
        kinds.append(o.forfeit and o.forfeit["kind"])
        if bot._proc is not None:
            pids.append(bot._proc.pid)
    assert "crash" in kinds and None in kinds
    assert bot.starts == 1 + sum(k == "crash" for k in kinds[:-1])     # a new process after each crash
    pid = bot._proc.pid if bot._proc else pids[-1]
    bot.close()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


# -- time limits ------------------------------------------------------------------------------------------
def _time_forfeit(bot, game, seed=0):
    t0 = time.monotonic()
    o = play_match(game, [bot, agents.make("random", game)], seed=seed)
    return o, time.monotonic() - t0


def test_the_decision_time_limit_is_enforced():
    game = virus_envs.game("virus_cards_v0")
    bot = _bot(f"cmd:{BAD} hang 1 0", game, decision_seconds=0.4, hello_seconds=60)
    bot.reset(0)
    bot._hello(0)                                        # start the process outside the measured time
    d = decision_for(game.new_initial_state(seed=0))
    t0 = time.monotonic()
    with pytest.raises(Forfeit) as e:
        bot.act(d)
    late = time.monotonic() - t0 - 0.4
    assert e.value.kind == "timeout" and "0.4 s (the decision time limit)" in e.value.reason
    assert 0 <= late < TOLERANCE
    assert bot._proc is None                             # killed


def test_the_game_time_limit_is_a_clock_over_the_game():
    """A bot taking 0.15 s a decision, each allowed 5 s, runs out of a 1 s game clock after about 7 decisions."""
    game = virus_envs.game("virus_cards_v0")
    bot = _bot(f"cmd:{BAD} slow 1 0.15", game, decision_seconds=5, game_seconds=1.0, hello_seconds=60)
    o, _ = _time_forfeit(bot, game)
    assert o.forfeit["kind"] == "timeout" and "(the game time limit)" in o.forfeit["reason"]
    assert bot._proc is None
    assert bot._k <= 6                                  # answers before the cut: 7 x 0.15 s would pass 1 s


def test_the_hello_time_limit():
    game = virus_envs.game("virus_cards_v0")
    bot = _bot(f"cmd:{BAD} silent-hello", game, hello_seconds=0.5)
    o, took = _time_forfeit(bot, game)
    assert o.forfeit["kind"] == "timeout" and "the hello" in o.forfeit["reason"] and o.forfeit["decision"] == 0
    assert took < 0.5 + TOLERANCE


def test_a_bot_within_its_limits_is_never_cut():
    game = virus_envs.game("virus_cards_v0")
    bot = _bot(f"cmd:{BAD} slow 1 0.05", game, decision_seconds=5.0, hello_seconds=60)
    o = play_match(game, [bot, agents.make("random", game)], seed=2)
    assert o.forfeit is None and o.state.is_terminal()
    bot.close()


def test_resource_limits_stop_a_greedy_bot():
    """memory_mb caps the address space (the 2 GiB allocation fails); cpu_seconds sends SIGXCPU to a busy loop."""
    game = virus_envs.game("virus_cards_v0")
    mem = _bot(f"cmd:{BAD} memory 1 0", game, memory_mb=400, hello_seconds=60)
    o = play_match(game, [mem, agents.make("random", game)], seed=0)
    assert o.forfeit["kind"] == "crash" and "MemoryError" in o.forfeit["reason"]
    cpu = _bot(f"cmd:{BAD} spin 1 0", game, cpu_seconds=1, decision_seconds=60, hello_seconds=60)
    o = play_match(game, [cpu, agents.make("random", game)], seed=0)
    assert o.forfeit["kind"] == "crash" and "SIGXCPU" in o.forfeit["reason"]


# -- the command line -----------------------------------------------------------------------------------
def test_limits_on_the_command_line_and_in_files(tmp_path, capsys):
    out = tmp_path / "t"
    assert main(["tournament", "--game", "virus_cards_v0", "--agents", "random", f"cmd:{BAD} garbage 3 2",
                 "--games", "6", "--decision-seconds", "5", "--hello-seconds", "60", "--out", str(out),
                 "--workers", "1"]) == 0
    assert "forfeited" in capsys.readouterr().out
    assert json.loads((out / "config.json").read_text())["limits"] == {"decision_seconds": 5.0, "hello_seconds": 60.0}
    with pytest.raises(SystemExit, match="--decision-seconds: limit 'decision_seconds' must be a positive number"):
        main(["tournament", "--game", "virus_cards_v0", "--agents", "random", "--decision-seconds", "0"])
    cfg = tmp_path / "t.yaml"
    cfg.write_text("limits: {decision_seconds: 2}\ntournaments:\n  - {game: virus_cards_v0, agents: [random], "
                   "limits: {game_seconds: -1}}\n")
    with pytest.raises(SystemExit, match=r"key 'tournaments\[0\].limits.game_seconds' must be positive"):
        main(["tournament", "--config", str(cfg)])
    cfg.write_text("limits: {decision_seconds: 2, wall: 3}\ntournaments:\n  - {game: virus_cards_v0, agents: [random]}\n")
    with pytest.raises(SystemExit, match="unknown key 'limits.wall'"):
        main(["tournament", "--config", str(cfg)])


def test_workers_do_not_change_a_tournament_with_bots(tmp_path, capsys):
    """Bots started in worker processes (forked after the parent made its agents) play the same games, faults
    included; `virus-arena replay` shows a forfeited game as such."""
    spec = f"cmd:{BAD} illegal 2 1"
    cfg = dict(game="virus_cards_v0", agents=[spec, "random"], games=8, seed=9,
               limits={"decision_seconds": 30, "hello_seconds": 60})
    one = run_tournament(TournamentConfig(**cfg), str(tmp_path / "one"), workers=1, echo=_quiet, progress=False)
    two = run_tournament(TournamentConfig(**cfg), str(tmp_path / "two"), workers=2, echo=_quiet, progress=False)
    assert _without_seconds(_games(tmp_path / "one")) == _without_seconds(_games(tmp_path / "two")) and one == two
    k = one["forfeits"][0]["index"]
    assert main(["replay", str(tmp_path / "two" / "games.jsonl"), "--game-index", str(k)]) == 0
    assert "forfeited by player_" in capsys.readouterr().out


def test_play_and_serve_stop_on_a_bot_fault():
    """Where a person plays, a bot's fault ends the session with one line naming the bot and the reason."""
    from virus_envs.experiments.serve import Table

    bad = f"cmd:{BAD} illegal 1 0"
    with pytest.raises(ValueError, match=r"player_0 \(cmd:.*\) forfeits the game \(illegal: answered decision 0"):
        Table("virus_cards_v0", 2, 1, [bad], {}, None, seed=1)
    with pytest.raises(SystemExit, match=r"virus-arena play: illegal: answered decision 0") as e:
        main(["play", "--game", "virus_cards_v0", "--seat", "1", "--opponents", bad, "--seed", "1"])
    assert "\n" not in str(e.value)


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed")
def test_the_node_bot_of_the_docs_plays(tmp_path):
    """The minimal Node bot printed in docs/bots.md plays a whole game (the docs stay true)."""
    text = (ROOT / "docs" / "bots.md").read_text()
    (tmp_path / "bot.js").write_text(text.split("```js\n", 1)[1].split("```", 1)[0])
    game = virus_envs.game("roll_write_v0")
    bot = _bot(f"cmd:node {tmp_path / 'bot.js'}", game, hello_seconds=60)
    o = play_match(game, [agents.make("random", game), bot], seed=4, record=True)
    assert o.forfeit is None and o.state.is_terminal() and bot.name == "first-legal.js"
    bot.close()


def test_a_bot_that_does_not_read_its_input_times_out():
    """The runner's write waits for the bot too: a message larger than the pipe (64 KiB) to a bot that never
    reads is cut at the deadline, not a hang of the runner."""
    from virus_envs.agents.botproc import BotProcess

    proc = BotProcess(["sleep", "3600"], BotLimits())
    t0 = time.monotonic()
    with pytest.raises(Forfeit, match=r"timeout: did not read the decision within 0.3 s") as e:
        proc.send({"type": "decision", "view": "x" * 300_000}, t0 + 0.3, "the decision", "0.3 s")
    assert e.value.kind == "timeout" and 0.3 <= time.monotonic() - t0 < 0.3 + TOLERANCE
    proc.kill()
    assert not proc.alive()
