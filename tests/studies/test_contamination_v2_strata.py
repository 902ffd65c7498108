"""The designed contamination study's pre-registered stratum (H3: a 1 that fits nowhere), its per-seat
continuation, its stored lines and resumption (issue 18)."""
from __future__ import annotations

import json

import numpy as np
import pytest

import virus_envs
from virus_envs.experiments.arena import play_from
from virus_envs.experiments.cli import main
from virus_envs.experiments.studies import contamination_v2 as cv
from virus_envs import agents

ONE = cv.Stratum(id="one", statement="a 1 that fits nowhere", values=[1], placeable="no")


def _fits_as_it_is(state, v) -> bool:
    """Read off the mask: some 'place v on <card>' other than the contaminated samples card is legal."""
    g = state.game
    names = [g.actions.name(int(a)) for a in np.flatnonzero(state.legal_action_mask())]
    return any(n.startswith(f"place {v} on ") and "contaminated" not in n for n in names)


def test_the_stratum_holds_exactly_the_decisions_of_its_kind():
    # "A 1 that fits nowhere": the player to act holds a 1 that may go to the contaminated samples card,
    # no card takes it as it is, and a circled wildcard can change it to a value some card takes.
    g = virus_envs.game("roll_write_v0", 2)
    seen = 0
    for seed in range(6):
        s = g.new_initial_state(seed=seed)
        line = [agents.make("heuristic", g) for _ in range(2)]

        def probe(st):
            nonlocal seen
            vals = cv._eligible_values(st, ONE)
            assert set(vals) <= {1} and set(vals) <= set(cv._eligible_values(st))
            if vals:
                seen += 1
                assert not _fits_as_it_is(st, 1) and st.wild[st.current_player()] > 0
            elif 1 in cv._eligible_values(st):
                assert _fits_as_it_is(st, 1)        # a saveable 1 outside the stratum fits as it is
        play_from(s, line, before_each=probe)
    assert seen > 0


def test_a_stratum_point_plays_contaminate_against_the_wildcard():
    cfg = cv.StudyConfig(hypotheses=[cv.Hypothesis(id="h", statement="s")], rollouts=1, continuation="random",
                         strata=[ONE])
    rows = [cv.one_intervention({"cfg": cfg, "players": 2, "seed": 3, "game": gi, "sheet": cv.Sheet(id="shipped"),
                                 "root": ".", "stratum": ONE}) for gi in range(6)]
    rows = [r for r in rows if r is not None]
    assert rows
    for r in rows:
        assert r["stratum"] == "one" and r["value"] == 1 and set(r["arms"]) == {"contaminate", "wildcard"}
    assert len({(r["round"], r["eligible_decisions"]) for r in rows}) > 1     # not one fixed decision
    h3 = cv.Hypothesis(id="H3", statement="s", contrast="contaminate-wildcard", values=[1], placeable="no",
                       stratum="one")
    uniform = dict(rows[0], stratum="")
    assert cv.in_cell(rows[0], h3) and not cv.in_cell(uniform, h3)            # H3 reads the stratum only
    assert not cv.in_cell(rows[0], cv.Hypothesis(id="H1", statement="s"))    # and the others the uniform draw


def test_the_acting_seat_and_the_others_get_their_own_continuation(monkeypatch):
    seen = []
    real = cv._play_out

    def spy(state, specs, seed):
        seen.append(list(specs))
        return real(state, ["random"] * len(specs), seed)

    monkeypatch.setattr(cv, "_play_out", spy)
    cfg = cv.StudyConfig(hypotheses=[cv.Hypothesis(id="h", statement="s")], rollouts=1,
                         continuation="heuristic:greedy", continuation_others="random")
    r = cv.one_intervention({"cfg": cfg, "players": 4, "seed": 1, "game": 0, "sheet": cv.Sheet(id="shipped"),
                             "root": "."})
    assert seen and all(sp[r["seat"]] == "heuristic:greedy" and sp.count("random") == 3 for sp in seen)


def test_wildcard_then_contaminate_is_counted_from_the_actions():
    g = virus_envs.game("roll_write_v0", 2)
    p = g.actions.parse
    wild, contam, place = p("wildcard 6->1"), p("place 1 on contaminated samples"), p("place 1 on red trial")
    assert cv.wildcard_then_contaminate(g, [wild, contam, place, contam]) == 1
    assert cv.wildcard_then_contaminate(g, [wild, place, contam]) == 0
    assert cv.wildcard_then_contaminate(g, []) == 0


def test_a_stopped_run_resumes_where_it_stopped(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("players: [2]\nseeds: [1]\ngames: 3\nrollouts: 1\ncontinuation: random\nworkers: 1\n"
                   "strata:\n  - {id: one, statement: a 1 that fits nowhere, values: [1], placeable: 'no', games: 2}\n"
                   "hypotheses:\n  - {id: H1, statement: all values}\n"
                   "  - {id: H3, statement: a one, contrast: contaminate-wildcard, values: [1], placeable: 'no', "
                   "stratum: one}\n")
    out = tmp_path / "o"
    args = ["study", "contamination-v2", "--config", str(cfg), "--out", str(out), "--docs", ""]
    assert main(args) in (0, None)
    full = (out / "interventions.jsonl").read_text().splitlines()
    assert len(full) == 3 + 2                                   # a line per game, points or none
    res = json.loads((out / "results.json").read_text())
    assert res["games_played"] == {"": 3, "one": 2}
    assert res["by_seed"]["1"][1]["stratum"] == "one"
    (out / "interventions.jsonl").write_text("\n".join(full[:2]) + "\n")   # stopped after two games
    assert main(args + ["--resume"]) in (0, None)
    assert sorted((out / "interventions.jsonl").read_text().splitlines()) == sorted(full)
    assert json.loads((out / "results.json").read_text())["by_seed"] == res["by_seed"]


def test_a_hypothesis_naming_an_unknown_stratum_is_refused(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("players: [2]\nhypotheses: [{id: a, statement: b, stratum: nope}]\n")
    with pytest.raises(ValueError, match="stratum"):
        cv.load_config(str(cfg))
