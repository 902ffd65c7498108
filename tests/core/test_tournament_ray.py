"""`virus-arena tournament --backend ray`: the same games and results as the process pool.

Starts a local Ray instance (2 CPUs). Ray is the optional `[ray]` extra and costs about 10-30 s
to start here, so these tests carry the `ray` marker: `make test` leaves them out and
`make test-ray` (run by .ci/run) installs the extra and runs them.
"""
import json
import os

import pytest

ray = pytest.importorskip("ray")

from virus_envs.experiments.cli import main  # noqa: E402
from virus_envs.experiments.tournament import TournamentConfig, run_tournament  # noqa: E402

pytestmark = pytest.mark.ray
QUIET = {"echo": lambda *_: None, "progress": False}


def _cfg(**kw):
    c = TournamentConfig(game=kw.pop("game", "roll_write_v0"), agents=kw.pop("agents", ["heuristic", "random"]),
                         **kw)
    c.validate()
    return c


def _games(path):
    """games.jsonl without each game's wall-clock `seconds` (the only field that timing may change)."""
    with open(os.path.join(path, "games.jsonl")) as f:
        return [{k: v for k, v in json.loads(ln).items() if k != "seconds"} for ln in f]


def _results(path):
    with open(os.path.join(path, "results.json")) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def test_ray_backend_gives_the_games_and_results_of_the_process_pool(tmp_path, local_ray):
    for game, players, agents in (("roll_write_v0", 2, ["heuristic", "random"]),
                                  ("virus_cards_v0", 3, ["heuristic", "random", "heuristic:defensive"])):
        kw = dict(game=game, players=players, agents=agents, games=18, seed=4)
        run_tournament(_cfg(**kw), str(tmp_path / f"{game}-pool"), workers=2, **QUIET)
        run_tournament(_cfg(**kw), str(tmp_path / f"{game}-ray"), backend="ray", **QUIET)
        assert _games(tmp_path / f"{game}-pool") == _games(tmp_path / f"{game}-ray")
        assert _results(tmp_path / f"{game}-pool") == _results(tmp_path / f"{game}-ray")


def test_resume_works_across_backends(tmp_path, local_ray):
    """Half the games on Ray, the rest with the pool (and the other way round): the uninterrupted results."""
    kw = dict(players=2, games=12, seed=9)
    run_tournament(_cfg(**kw), str(tmp_path / "full"), workers=1, **QUIET)
    res = run_tournament(_cfg(**kw), str(tmp_path / "a"), backend="ray", max_new_games=5, **QUIET)
    assert not res["complete"] and res["games"] == 5
    run_tournament(_cfg(**kw), str(tmp_path / "a"), workers=2, **QUIET)
    run_tournament(_cfg(**kw), str(tmp_path / "b"), workers=1, max_new_games=7, **QUIET)
    res = run_tournament(_cfg(**kw), str(tmp_path / "b"), backend="ray", **QUIET)
    assert res["complete"]
    for d in ("a", "b"):
        assert _games(tmp_path / "full") == _games(tmp_path / d)
        assert _results(tmp_path / "full") == _results(tmp_path / d)


def test_cli_backend_ray_and_its_mistakes(tmp_path, local_ray):
    out = tmp_path / "cli"
    assert main(["tournament", "--game", "roll_write_v0", "--agents", "heuristic", "random", "--games", "4",
                 "--backend", "ray", "--out", str(out)]) in (0, None)
    assert len(_games(out)) == 4
    with pytest.raises(SystemExit) as e:
        main(["tournament", "--game", "roll_write_v0", "--agents", "random", "--games", "2",
              "--address", "auto", "--out", str(tmp_path / "x")])
    assert "--address is for --backend ray" in str(e.value.code)
