"""The search agents in every virus-arena command: tournament (any number of workers), eval, play as an opponent."""
import io
import json

import virus_envs
from virus_envs.experiments.cli import main
from virus_envs.experiments.play import play_session
from virus_envs.experiments.tournament import TournamentConfig, run_tournament

SPECS = ["ismcts?iters=12", "pimc?worlds=2&iters=6"]


def _games(path):
    return sorted((json.loads(line) for line in open(path)), key=lambda r: r["index"])


def test_tournament_results_do_not_depend_on_the_number_of_workers(tmp_path):
    runs = {}
    for workers in (1, 2):
        c = TournamentConfig(game="virus_cards_v0", players=3, agents=SPECS + ["heuristic"], games=6, seed=4)
        run_tournament(c, str(tmp_path / f"w{workers}"), workers=workers, echo=lambda *_: None, progress=False)
        runs[workers] = [(r["seats"], r["actions"], r["returns"]) for r in _games(tmp_path / f"w{workers}" / "games.jsonl")]
    assert runs[1] == runs[2] and len(runs[1]) == 6
    assert {a for seats, _, _ in runs[1] for a in seats} == set(SPECS + ["heuristic"])


def test_tournament_command_with_search_agents_in_a_cooperative_game(tmp_path, capsys):
    main(["tournament", "--game", "virus_lab_v0", "--players", "1", "--game-config", "difficulty=1",
          "--agents", "ismcts?iters=2&depth=2", "pimc?worlds=1&iters=2&depth=2", "--games", "2", "--workers", "1",
          "--out", str(tmp_path)])
    res = json.loads((tmp_path / "results.json").read_text())
    assert res["games"] == 2 and {a["agent"] for a in res["agents"]} == {"ismcts?iters=2&depth=2",
                                                                          "pimc?worlds=1&iters=2&depth=2"}


def test_eval_with_a_search_agent(tmp_path):
    out = tmp_path / "e.json"
    main(["eval", "--game", "roll_write_v0", "--agent", "ismcts?iters=10", "--opponent", "pimc?worlds=2&iters=4",
          "--games", "2", "--out", str(out)])
    row = json.loads(out.read_text())
    assert row["games"] == 2 and row["agent"] == "ismcts?iters=10"


def test_play_against_search_opponents():
    inp = io.StringIO("0\n" * 400)
    rec = play_session("virus_co_v0", 3, 2, SPECS, 5, {}, inp=inp, out=io.StringIO())
    assert rec["complete"] and rec["seats"] == SPECS + ["human"]
    g = virus_envs.game("virus_co_v0", num_players=3)
    s = g.new_initial_state(seed=5)
    for a in rec["actions"]:
        s.apply_action(a)
    assert s.is_terminal()


def test_the_main_job_includes_a_search_agent_at_a_modest_budget():
    """Issue 13: the default `make run` tournament has a search agent, at a budget that keeps the job a few minutes
    long (an iteration budget, so that its results replay; at most 200 iterations in at most 200 games)."""
    from virus_envs import agents, configs
    from virus_envs.experiments.tournament import load_config_file

    cfgs, _ = load_config_file(configs.path("tournaments", "default.yaml"))
    found = [(c, spec) for c in cfgs for spec in c.agents if agents.parse_spec(spec)[0] in ("ismcts", "pimc")]
    assert found
    for c, spec in found:
        params = agents.parse_spec(spec)[2]
        assert "time" not in params and 0 < params["iters"] <= 200 and c.games <= 200, (spec, c.games)
