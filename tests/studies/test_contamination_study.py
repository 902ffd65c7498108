"""The contamination study (experiments/contamination_study.py) on tiny budgets: classification of every
contamination, the counterfactual machinery, the policies' windows, config/CLI mistakes, the whole
study end to end, and the notebook (executed with nbclient on the tiny study's results)."""
import json
import os
import shutil

import numpy as np
import pytest

from virus_envs import agents
import virus_envs
from virus_envs.experiments import contamination_study as cs
from virus_envs.experiments.arena import play_game
from virus_envs.experiments.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _game(n=2):
    return virus_envs.game("roll_write_v0", num_players=n)


def _contam_action(g, v):
    return next(a for a in range(g.num_actions) if g.act_kind[a] == 0 and g.act_a[a] == v and g.act_b[a] == g.T_CONTAM)


def _block_everything(s, keep_blue=False):
    """Every trial card full (but blue, if asked) and every laboratory slot taken, by seat 1's dice."""
    for c in range(4):
        if keep_blue and c == 0:
            continue
        s.trial[2 * c], s.trial[2 * c + 1] = 1, 1
        s.trial_own[2 * c], s.trial_own[2 * c + 1] = 1, 1
    for j in range(len(s.lab)):
        s.lab[j], s.lab_own[j] = 2, 1
    s._mask = None


def test_a_die_with_a_legal_placement_is_a_deliberate_contamination():
    g = _game()
    s = g.new_initial_state(seed=1)                   # seat 0 holds 1 1 3 4 5 6, empty table
    row = cs.classify(s, _contam_action(g, 1))
    assert row["kind"] == "deliberate" and row["value"] == 1 and row["round"] == 1 and row["wildcards"] == 1
    assert row["alternatives"] > 0 and row["other_dice_placeable"]
    assert cs.classify(s, next(a for a in s.legal_actions() if not cs._is_contam(g, a))) is None


def test_no_placement_and_no_rescue_is_forced():
    g = _game()
    s = g.new_initial_state(seed=1)
    _block_everything(s)
    row = cs.classify(s, _contam_action(g, 1))
    assert row["kind"] == "forced" and row["alternatives"] == 0 and not row["other_dice_placeable"]


def test_a_wildcard_that_would_have_placed_the_die_makes_it_wildcard_saved():
    g = _game()
    s = g.new_initial_state(seed=1)
    _block_everything(s, keep_blue=True)
    s.grid[0][0] |= 1 << 1                            # blue 1 already crossed: a 1 fits nowhere
    s._mask = None
    row = cs.classify(s, _contam_action(g, 1))
    assert row["kind"] == "wildcard_saved" and row["other_dice_placeable"]   # a 3 could go on blue
    s.wild[0] = 0                                     # no circled wildcard left: forced
    s._mask = None
    assert cs.classify(s, _contam_action(g, 1))["kind"] == "forced"


@pytest.mark.parametrize("n", [2, 3, 4])
def test_replay_accounts_for_every_penalty_point_and_reproduces_the_game(n):
    g = _game(n)
    specs = ["heuristic?contaminate_below=3", "random", "heuristic", "random?seed=1"][:n]
    line = [agents.make(x, g) for x in specs]
    for seed in range(3):
        st, actions = play_game(g, line, seed, record=True)
        rec = {"index": 0, "deal": 0, "seed": seed, "seats": specs, "actions": actions,
               "scores": [float(x) for x in st.scores()], "returns": [float(x) for x in st.returns()],
               "truncated": False}
        out = cs.instrument_game(g, rec, specs[0], True, {})
        for q in range(n):                            # every point of the virus tube is a classified die
            assert sum(r["value"] for r in out["rows"] if r["seat"] == q) == sum(st.virus[q])
        for r in out["rows"]:
            assert r["kind"] in cs.KINDS and 1 <= r["value"] <= 6 and 1 <= r["round"] <= g.rounds
            if r["kind"] == "round_end":
                assert g.slots == 2
            if "d_score" in r:
                assert r["focus"] and r["kind"] in ("deliberate", "wildcard_saved") and np.isfinite(r["d_score"])


def test_counterfactual_plays_the_same_future_dice_with_the_same_agents():
    """Branching with the action actually taken reproduces the recorded game exactly."""
    g = _game(2)
    specs = ["heuristic?contaminate_below=4", "random"]
    line = [agents.make(x, g) for x in specs]
    st, actions = play_game(g, line, 5, record=True)
    s = g.new_initial_state(seed=5)
    for ag, i in zip(line, range(2)):
        ag.reset(seed=(5 * 7919 + i) % (2**63))
    found = 0
    for a in actions:
        p = s.current_player()
        if line[p].mask_only:
            assert line[p].act(cs.Decision(p, "", {}, None, s.legal_action_mask(), g)) == a
        if cs._is_contam(g, a) and p == 0 and not found:
            c = s.clone()
            c.apply_action(a)
            saved = [ag.rng.bit_generator.state for ag in line]
            # play out as the counterfactual does, with the real action: same result as recorded
            row = {"kind": "deliberate", "value": g.act_a[a], "_alts": [a], "_rescues": []}
            scores, _ = cs.counterfactual(s, row, agents.make("heuristic", g), line)
            assert [ag.rng.bit_generator.state for ag in line] == saved        # agents' streams restored
            assert list(scores) == list(st.scores())
            found += 1
        s.apply_action(a)
    assert found == 1


def test_policy_windows_and_equivalence_to_the_heuristic():
    g = _game(4)
    assert [cs.round_active(w, r, 8) for w in ("early", "late", "last") for r in (1, 4, 5, 8)] == \
        [True, True, False, False, False, False, True, True, False, False, False, True]
    late = cs.make_agent("contam?contaminate_below=4&when=late", g)
    nowild = cs.make_agent("contam?contaminate_below=4&wild_max=0", g)
    plain = agents.make("heuristic", g)
    k4 = agents.make("heuristic?contaminate_below=4", g)
    line = [agents.make("heuristic?contaminate_below=4", g) for _ in range(4)]
    s = g.new_initial_state(seed=3)
    checked = differ = 0
    while not s.is_terminal():
        d = cs._decision(s, s.legal_action_mask())
        for pol in (late, nowild):
            want = k4 if pol.active(d.view, d.seat) else plain
            assert pol.act(d) == want.act(d)
        differ += plain.act(d) != k4.act(d)
        checked += 1
        s.apply_action(line[d.seat].act(d))
    assert checked > 50 and differ > 0
    with pytest.raises(ValueError, match="'when'"):
        cs.make_agent("contam?when=sometimes", g)
    with pytest.raises(ValueError, match="unknown parameter 'zz'"):
        cs.make_agent("contam?zz=1", g)


def test_contam_spec_is_an_agent_family_of_roll_write_only():
    g = _game(2)
    assert isinstance(agents.make("contam?when=late", g), cs.ContaminationPolicy)
    with pytest.raises(ValueError, match="plays roll_write_v0 only"):
        agents.make("contam", virus_envs.game("virus_cards_v0"))


def test_lineup_uses_clones_of_the_baseline():
    assert cs.lineup("heuristic?deny=1", "heuristic", 4) == ["heuristic?deny=1", "heuristic", "heuristic:greedy",
                                                             "heuristic?low_gain=1.0"]
    assert cs.lineup("x", "random", 3) == ["x", "random", "random?seed=1"]
    with pytest.raises(ValueError, match="baseline"):
        cs.lineup("x", "ismcts", 2)
    with pytest.raises(ValueError, match="spelled like a clone"):
        cs.lineup("heuristic", "heuristic", 2)


def test_stats_helpers():
    m = cs.mean_ci([1, 2, 3, 4])
    assert m["mean"] == 2.5 and m["ci95"][0] < 2.5 < m["ci95"][1]
    c = cs.clustered_ci([(0, 1), (0, 3), (1, 2), (2, 2)])
    assert c["n"] == 3 and c["n_obs"] == 4 and c["mean"] == 2.0
    assert cs.gain_bucket(-0.1) == "<0" and cs.gain_bucket(0.7) == "0.5-1" and cs.gain_bucket(9) == ">=4"


def _write_cfg(tmp_path, extra=""):
    p = tmp_path / "c.yaml"
    p.write_text("players: [2, 3]\ngames: 4\ngames_random: 2\ncounterfactual_games: 4\n"
                 "policies:\n  - {id: v2, group: value, spec: 'heuristic?contaminate_below=3'}\n" + extra)
    return str(p)


@pytest.mark.parametrize("extra, fragment", [
    ("frob: 1\n", "field 'frob' unknown"),
    ("players: [5]\n", "field 'players'"),
    ("games: 0\n", "field 'games'"),
    ("baselines: [ismcts]\n", "field 'baselines'"),
    ("  - {id: v2, group: value, spec: heuristic}\n", "repeats 'v2'"),
    ("  - {id: Bad Id, group: value, spec: heuristic}\n", "policies[1].id"),
    ("  - {id: x, group: value}\n", "policies[1].spec"),
    ("learned: {players: 2}\n", "learned.spec"),
])
def test_config_mistakes_name_the_field(tmp_path, extra, fragment):
    p = tmp_path / "c.yaml"
    p.write_text("policies:\n  - {id: v2, group: value, spec: 'heuristic?contaminate_below=3'}\n" + extra)
    with pytest.raises(ValueError, match=fragment.replace("[", r"\[").replace("]", r"\]")):
        cs.load_study_config(str(p))


def test_the_shipped_config_loads_and_every_spec_builds():
    cfg = cs.load_study_config(cs.DEFAULT_CONFIG)
    assert cfg.players == [2, 3, 4] and len(cfg.policies) >= 10
    assert {p.group for p in cfg.policies} >= {"value", "round", "wildcard", "deny"}
    cs.validate_specs(cfg)


def test_bad_policy_spec_fails_before_any_game(tmp_path):
    p = _write_cfg(tmp_path, "  - {id: bad, group: value, spec: 'heuristic?nope=1'}\n")
    with pytest.raises(SystemExit, match="policy 'bad'.*unknown parameter 'nope'"):
        main(["study", "contamination", "--config", p, "--out", str(tmp_path / "o"), "--docs", ""])
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("argv, fragment", [
    (["study"], "name a study"),
    (["study", "contamination", "--players", "5"], "--players"),
    (["study", "contamination", "--policy", "nope"], "unknown policy id"),
    (["study", "contamination", "--games", "0"], "--games must be at least 1"),
    (["study", "contamination", "--config", "/nonexistent.yaml"], "cannot read"),
])
def test_cli_mistakes(argv, fragment):
    with pytest.raises(SystemExit, match=fragment):
        main(argv)


@pytest.fixture(scope="module")
def tiny_study(tmp_path_factory):
    """The whole study on a tiny budget: 2 and 3 players, two policies, a stand-in learned agent."""
    tmp = tmp_path_factory.mktemp("study")
    cfg = tmp / "c.yaml"
    cfg.write_text(
        "players: [2, 3]\ngames: 6\ngames_random: 3\ncounterfactual_games: 6\n"
        "policies:\n"
        "  - {id: v3_late, group: round, label: 'v<=3 late', spec: 'contam?contaminate_below=4&when=late'}\n"
        "  - {id: same, group: value, label: 'same as reference', spec: 'heuristic?deny=0.0'}\n"
        "learned: {spec: 'heuristic:cautious', players: 2, games: 4, games_random: 2}\n")
    docs = tmp / "docs"
    docs.mkdir()
    shutil.copy(os.path.join(ROOT, "docs", "studies", "contamination.md"), docs / "contamination.md")
    main(["study", "contamination", "--config", str(cfg), "--out", str(tmp / "run"), "--docs", str(docs)])
    return tmp, docs


def test_tiny_study_writes_results_plots_and_tables(tiny_study):
    tmp, docs = tiny_study
    res = json.loads((docs / "contamination.json").read_text())
    T = res["tournaments"]
    assert {(t["players"], t["baseline"]) for t in T} == {(n, b) for n in (2, 3) for b in ("heuristic", "random")}
    assert all(0 <= t["ci95"][0] <= t["win_rate"] <= t["ci95"][1] <= 1 for t in T)
    same = [t for t in T if t["policy"] == "same"]
    assert all(t["paired_vs_reference"]["d_score"] == 0 and t["paired_vs_reference"]["identical_games"] == t["games"]
               for t in same)                                   # identical play, identical deals: zero difference
    ref = [t for t in T if t["policy"] == "reference" and t["baseline"] == "heuristic"]
    assert all(t["win_rate"] == pytest.approx(1 / t["players"]) for t in ref)   # clones of itself
    assert set(res["answer"]) <= {"2", "3"}
    assert res["learned"]["status"] == "measured" and len(res["learned"]["tournaments"]) == 2
    for name in ("policies", "counterfactuals", "kinds", "learned"):
        assert (docs / f"contamination_{name}.png").stat().st_size > 1000
    md = (docs / "contamination.md").read_text()
    assert cs.TABLES_START in md and "| v<=3 late |" in md and "### The learned agent" in md
    # running again resumes every tournament and the instrumentation cache: same results
    again = cs.run_study(_reload(tmp), echo=lambda *_: None)
    assert [t["win_rate"] for t in again["tournaments"]] == [t["win_rate"] for t in T]


def _reload(tmp):
    cfg = cs.load_study_config(str(tmp / "c.yaml"))
    cfg.out, cfg.docs = str(tmp / "run"), ""
    return cfg


def test_learned_part_awaits_a_missing_model(tmp_path):
    cfg = cs.load_study_config(_write_cfg(tmp_path, "learned: {spec: 'ppo:/nonexistent/ppo.zip'}\n"))
    assert cs.run_learned(cfg, echo=lambda *_: None) == {"status": "awaiting model", "spec": "ppo:/nonexistent/ppo.zip"}


def _run_notebook_from_a_copy(tmp_path, name):
    """Execute notebooks/<name> copied into an empty folder (no path may lead back to the repository)."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    copy = tmp_path / "elsewhere"
    copy.mkdir()
    shutil.copy(os.path.join(ROOT, "notebooks", name), copy / name)
    nb = nbformat.read(str(copy / name), as_version=4)
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(copy)}}).execute()
    assert not any(o.get("output_type") == "error" for c in nb.cells if c.cell_type == "code"
                   for o in c.get("outputs", []))
    return "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))


def test_notebook_runs_on_the_tiny_results(tiny_study, monkeypatch, tmp_path):
    _, docs = tiny_study
    monkeypatch.setenv("CONTAMINATION_RESULTS", str(docs / "contamination.json"))
    text = _run_notebook_from_a_copy(tmp_path, "contamination.ipynb")
    assert "tournaments" in text and "learned agent: measured" in text


def test_notebook_without_results_runs_a_small_study_of_its_own(monkeypatch, tmp_path):
    monkeypatch.delenv("CONTAMINATION_RESULTS", raising=False)
    text = _run_notebook_from_a_copy(tmp_path, "contamination.ipynb")
    assert "a small study of our own: 6 tournaments" in text and "learned agent: not configured" in text
