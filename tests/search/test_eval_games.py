"""tools/eval_games.py: the games of one `virus-arena eval` command, one by one, resumable."""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import eval_games  # noqa: E402

from virus_envs.experiments.cli import main as cli  # noqa: E402

# two heuristics close in strength, so that the games' results depend on the deals
ARGS = ["--game", "roll_write_v0", "--players", "2", "--agent", "heuristic", "--opponent", "heuristic:spoiler",
        "--games", "8", "--seed", "3"]


def test_the_games_and_the_row_are_the_eval_commands_and_a_second_run_replays_nothing(tmp_path, capsys):
    ref = tmp_path / "eval.json"
    cli(["eval", *ARGS, "--out", str(ref)])
    want = json.loads(ref.read_text())
    eval_games.main(["--name", "x", "--out", str(tmp_path), "--first", "5", *ARGS])      # games 5-7 first
    eval_games.main(["--name", "x", "--out", str(tmp_path), *ARGS])                      # then the rest: 0-4
    got = json.loads((tmp_path / "x.json").read_text())
    for k in ("games", "wins", "win_rate", "ci95", "by_seat", "baseline"):
        assert got[k] == want[k], k
    assert got["command"].startswith("virus-arena eval --game roll_write_v0 --players 2 --agent \"heuristic\"")
    lines = (tmp_path / "x.games.jsonl").read_text().splitlines()
    assert [json.loads(x)["index"] for x in lines] == [5, 6, 7, 0, 1, 2, 3, 4]
    assert 0 < want["wins"] < 8         # not one-sided: the comparison above can tell other games apart
    capsys.readouterr()
    eval_games.main(["--name", "x", "--out", str(tmp_path), *ARGS])                      # all done: nothing played
    assert capsys.readouterr().out == "" and len((tmp_path / "x.games.jsonl").read_text().splitlines()) == 8
