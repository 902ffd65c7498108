"""Strata of rare decisions in the Virus & Co / VIRUS! designs (experiments/studies/design.py): the config names
its mistakes, a stratum's points are exactly of its kind and from other games than the uniform draw's, its
hypotheses read only its points, and a stopped run resumes to the same results."""
from __future__ import annotations

import json

import numpy as np
import pytest

import virus_envs
from virus_envs import agents
from virus_envs.experiments.cli import main
from virus_envs.experiments.studies import design, virus_cards, virus_co

HYP = "hypotheses:\n  - {id: T1, statement: any, family: treat, contrast: play-hold}\n"


def _load(tmp_path, text, families=virus_cards.FAMILIES, keys=virus_cards.STRATA_KEYS):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(text)
    return design.load_config(str(cfg), families, keys)


@pytest.mark.parametrize("text, match", [
    ("strata: [{id: c, family: treat, where: {card: [contagion]}}]\n" + HYP, "'where' has card"),
    ("strata: [{id: c, family: treat, where: {treatment: [contagious]}}]\n" + HYP, "not 'contagious'"),
    ("strata: [{id: c, family: build, where: {arm: []}}]\n" + HYP, r"'where.arm' must list"),
    ("strata: [{id: c, family: heal}]\n" + HYP, "unknown family 'heal'"),
    ("strata: [{id: c, family: treat}, {id: c, family: build}]\n" + HYP, "repeats an id"),
    ("players: [2]\nstrata: [{id: c, family: treat, players: [4]}]\n" + HYP, "'players' names a count"),
    ("strata: [{id: c, family: build}]\nhypotheses:\n"
     "  - {id: T1, statement: s, family: treat, contrast: play-hold, stratum: c}\n", "not a stratum of family treat"),
    ("strata: [{id: c, family: treat, games: 0}]\n" + HYP, "games"),
    ("name: ../x\n" + HYP, "key 'name'"),
])
def test_stratum_mistakes_are_named(tmp_path, text, match):
    with pytest.raises(ValueError, match=match):
        _load(tmp_path, text)


def test_a_study_without_strata_refuses_them(tmp_path):
    """A study module that gives no stratum keys cannot be handed strata."""
    text = ("strata: [{id: w, family: ward}]\n"
            "hypotheses:\n  - {id: W1, statement: s, family: ward, contrast: keep-pay}\n")
    with pytest.raises(ValueError, match="samples no strata"):
        _load(tmp_path, text, virus_co.FAMILIES, None)


def test_stratum_eligibility_is_exactly_its_kind():
    """Along real games: a `treat` decision is in the stratum {treatment: [contagion]} exactly when a Contagion
    in hand has a legal play; a `build` decision is in {arm: [immunise]} exactly when a medicine can go on a
    vaccinated organ of one's own."""
    from virus_envs.experiments.arena import play_from
    from virus_envs.virus_cards.cards import TREATMENT, TREATMENTS

    seen = {"contagion": [0, 0], "immunise": [0, 0]}
    for seed in range(6):
        g = virus_envs.game("virus_cards_v0", 2 + 2 * (seed % 2))
        line = [agents.make("heuristic", g) for _ in range(g.num_players)]
        for i, a in enumerate(line):
            a.reset(seed=i)

        def probe(st):
            if not virus_cards.eligible(st, "treat"):
                assert not virus_cards.eligible(st, "treat", {"treatment": ["contagion"]})
            else:
                g_, me = st.game, st.turn_player
                held = [h for h, c in enumerate(st.hands[me])
                        if g_.KIND[c] == TREATMENT and TREATMENTS[g_.TREAT[c]] == "contagion"
                        and virus_cards._plays_of(st, h)]
                inside = virus_cards.eligible(st, "treat", {"treatment": ["contagion"]})
                assert inside == bool(held)
                seen["contagion"][inside] += 1
                if inside:
                    fns, extra = virus_cards.arms(st, "treat", line[0], np.random.default_rng(0),
                                                  {"treatment": ["contagion"]})
                    assert extra["treatment"] == "contagion"
            if virus_cards.eligible(st, "build"):
                inside = virus_cards.eligible(st, "build", {"arm": ["immunise"]})
                codes = st.code[st.turn_player]
                assert inside == bool(virus_cards._own_medicine(st, lambda c: 7 <= c <= 11))
                assert not inside or any(7 <= c <= 11 for c in codes)         # a vaccinated organ of one's own
                seen["immunise"][inside] += 1
            else:
                assert not virus_cards.eligible(st, "build", {"arm": ["immunise"]})

        play_from(g.new_initial_state(seed=seed), line, before_each=probe)
    assert all(v[0] and v[1] for v in seen.values()), seen       # both sides of each stratum met


def test_a_stratum_hypothesis_reads_only_its_stratum():
    h = design.Hypothesis(id="T3", statement="s", family="treat", contrast="play-hold", stratum="contagion")
    u = design.Hypothesis(id="T1", statement="s", family="treat", contrast="play-hold")
    row = {"family": "treat", "stratum": "contagion", "cell": {"treatment": "contagion"}}
    old = {"family": "treat", "cell": {"treatment": "contagion"}}                 # a row stored before strata
    assert design.in_cell(row, h) and not design.in_cell(row, u)
    assert design.in_cell(old, u) and not design.in_cell(old, h)


CFG = ("players: [2]\nseeds: [1]\ngames: 2\nrollouts: 1\n"
       "strata:\n  - {id: contagion, family: treat, where: {treatment: [contagion]}, games: 3}\n"
       "hypotheses:\n  - {id: T1, statement: any, family: treat, contrast: play-hold}\n"
       "  - {id: T3, statement: contagion, family: treat, contrast: play-hold, stratum: contagion}\n")


def _rows(out):
    return [json.loads(x) for x in (out / "interventions.jsonl").read_text().splitlines()]


def test_tiny_run_with_a_stratum_and_its_resume(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(CFG)
    a = tmp_path / "a"
    assert main(["study", "virus-cards", "--config", str(cfg), "--out", str(a), "--docs", "", "--no-check"]) in (0, None)
    res = json.loads((a / "results.json").read_text())
    rows = _rows(a)
    strat = [r for r in rows if r.get("stratum") == "contagion" and not r.get("none")]
    assert len({r["game"] for r in rows if r.get("stratum") == "contagion"}) == 3      # 3 games, each stored
    assert strat and all(r["family"] == "treat" and r["cell"]["treatment"] == "contagion" for r in strat)
    assert res["points_per_stratum"] == {"contagion": len(strat)}
    t3 = res["by_seed"]["1"][1]
    assert t3["id"] == "T3" and t3["stratum"] == "contagion" and t3["test"]["n"] == len(strat)
    uniform = [r for r in rows if not r.get("stratum") and r["family"] == "treat" and not r.get("none")]
    assert res["by_seed"]["1"][0]["test"]["n"] == len(uniform)
    assert "stratum contagion" in design.tables_markdown(res)
    # a stopped run (its last two games lost) resumes to the same results
    b = tmp_path / "b"
    b.mkdir()
    lines = (a / "interventions.jsonl").read_text().splitlines()
    keep = [x for x in lines if json.loads(x)["game"] < 1 or not json.loads(x).get("stratum")]
    (b / "interventions.jsonl").write_text("\n".join(keep) + "\n")
    assert main(["study", "virus-cards", "--config", str(cfg), "--out", str(b), "--docs", "", "--no-check",
                 "--resume"]) in (0, None)
    again = json.loads((b / "results.json").read_text())
    assert again["by_seed"] == res["by_seed"] and again["points_per_stratum"] == res["points_per_stratum"]
    assert sorted(map(json.dumps, _rows(b))) == sorted(map(json.dumps, rows))


def test_uniform_draw_is_unchanged_by_strata(tmp_path):
    """Adding a stratum leaves the uniform draw's points as they were (its streams do not move)."""
    cfg = design.StudyConfig(players=[2], seeds=[1], games=1, rollouts=1,
                             hypotheses=[design.Hypothesis(id="T1", statement="s", family="treat",
                                                           contrast="play-hold")])
    task = {"cfg": cfg, "players": 2, "seed": 1, "game": 0, "families": list(virus_cards.FAMILIES), "rollouts": 1}
    plain = virus_cards.one_game(task)
    with_none = virus_cards.one_game(dict(task, stratum=None))
    assert plain == with_none and all(r["stratum"] == "" for r in plain)
    # a stratum that admits every treatment plays other games: the numbers of eligible decisions differ
    every = design.Stratum(id="all", family="treat", where={"treatment": list(virus_cards.STRATA_KEYS["treat"]["treatment"])})
    counts = [[r["eligible"] for r in virus_cards.one_game(dict(task, game=i, families=["treat"], stratum=st))]
              for st in (None, every) for i in range(4)]
    assert counts[:4] != counts[4:]


def test_a_named_run_writes_its_own_page(tmp_path):
    """`name` sends a run's tables, JSON and figures to <docs>/<name>.*, leaving the study's page alone."""
    cfg = tmp_path / "c.yaml"
    cfg.write_text("name: virus_cards_v2\nplayers: [2]\nseeds: [1]\ngames: 2\nrollouts: 1\n" + HYP)
    docs = tmp_path / "docs"
    docs.mkdir()
    marked = f"# x\n{virus_cards.TABLES_START}\nOLD\n{virus_cards.TABLES_END}\n"
    (docs / "virus_cards.md").write_text(marked)
    (docs / "virus_cards_v2.md").write_text(marked)
    assert main(["study", "virus-cards", "--config", str(cfg), "--out", str(tmp_path / "o"), "--docs", str(docs),
                 "--no-check"]) in (0, None)
    assert (docs / "virus_cards.md").read_text() == marked
    assert "| T1: any |" in (docs / "virus_cards_v2.md").read_text()
    assert (docs / "virus_cards_v2.json").is_file() and (docs / "virus_cards_v2.png").is_file()
    assert not (docs / "virus_cards.json").exists()


def test_the_second_generation_config_is_the_pre_registered_one():
    """configs/studies/virus_cards_v2.yaml: the search agent continues the acting seat; the rare cells have
    their strata; twelve hypotheses, those on rare cards read from their stratum only."""
    from virus_envs import configs

    cfg = design.load_config(configs.path("studies", "virus_cards_v2.yaml"), virus_cards.FAMILIES,
                             virus_cards.STRATA_KEYS)
    assert cfg.acting == "ismcts?iters=200" and cfg.continuation == "heuristic" and cfg.name == "virus_cards_v2"
    assert cfg.seeds == [101, 202, 303] and cfg.players == [2, 4]
    assert {h.id: h.stratum for h in cfg.hypotheses if h.stratum} == {
        "T3": "contagion", "T4": "latex_glove", "T5": "medical_error", "B1": "immunise", "B4": "immunise"}
    assert len(cfg.hypotheses) == 12
    agents.make(cfg.acting, virus_envs.game("virus_cards_v0", 4))


def test_virus_co_stratum_reads_the_cell():
    """Virus & Co's strata select by the point's cell: along real games, a ward-off decision is in
    {icu_if_kept: [yes]} exactly when keeping the card would send its keeper to intensive care (a third syringe,
    or an illness past 12)."""
    from virus_envs.experiments.arena import play_from
    from virus_envs.virus_co.cards import KIND_SYRINGE

    where = {"icu_if_kept": ["yes"]}
    seen = [0, 0]
    for seed in range(4):
        g = virus_envs.game("virus_co_v0", 4)
        line = [agents.make("heuristic", g) for _ in range(4)]
        for i, a in enumerate(line):
            a.reset(seed=i)

        def probe(st):
            if not virus_co.eligible(st, "ward"):
                assert not virus_co.eligible(st, "ward", where)
                return
            p, gm = st.current_player(), st.game
            syringe = gm.KIND[st.circ] == KIND_SYRINGE
            icu = len(st.syr[p]) >= 2 if syringe else st.illness(p) + gm.VALUE[st.circ] > 12
            assert virus_co.eligible(st, "ward", where) == bool(icu)
            seen[bool(icu)] += 1

        play_from(g.new_initial_state(seed=seed), line, before_each=probe)
    assert seen[0] > 0 and seen[1] > 0, seen


def test_tiny_virus_co_run_with_a_stratum(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("players: [4]\nseeds: [1]\ngames: 1\nrollouts: 1\n"
                   "strata: [{id: late, family: pill, where: {round: [3]}, games: 2}]\n"
                   "hypotheses:\n  - {id: P1, statement: s, family: pill, contrast: red-control, stratum: late}\n")
    assert main(["study", "virus-co", "--config", str(cfg), "--out", str(tmp_path / "o"), "--docs", "",
                 "--no-check"]) in (0, None)
    rows = [r for r in _rows(tmp_path / "o") if r.get("stratum") == "late" and not r.get("none")]
    assert rows and all(r["family"] == "pill" and r["cell"]["round"] == 3 for r in rows)


def test_the_virus_co_second_generation_config_is_the_pre_registered_one():
    from virus_envs import configs

    cfg = design.load_config(configs.path("studies", "virus_co_v2.yaml"), virus_co.FAMILIES, virus_co.STRATA_KEYS)
    assert cfg.acting == "ismcts?iters=50" and cfg.name == "virus_co_v2" and cfg.games == 150
    assert {h.id: h.stratum for h in cfg.hypotheses if h.stratum} == {
        "W2": "need_one", "W5": "icu", "W7": "first_syringe", "O2": "two_syringes"}
    assert len(cfg.hypotheses) == 19
    agents.make(cfg.acting, virus_envs.game("virus_co_v0", 4))
