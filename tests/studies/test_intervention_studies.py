"""The randomised-intervention studies of issue 18 (Virus & Co, VIRUS!): the statistics by hand, the arms on
common random numbers, the eligibility and arms on built positions, a tiny run of each command."""
from __future__ import annotations

import json

import numpy as np
import pytest

import virus_envs
from virus_envs.experiments.cli import main
from virus_envs.experiments.studies import design, virus_cards, virus_co


def _row(family, cell, arms, seed=1):
    return {"seed": seed, "players": 4, "game": 0, "family": family, "cell": cell,
            "arms": {a: {"win": w, "margin": m} for a, (w, m) in arms.items()}}


# -- the statistics ------------------------------------------------------------------------------------
def test_cells_offsets_and_holm_by_hand():
    rows = [_row("pill", {"round": 1}, {"control": (0.0, -10.0), "red": (0.5, -6.0)}),
            _row("pill", {"round": 1}, {"control": (0.25, -4.0), "red": (0.25, -2.0)}),
            _row("pill", {"round": 2}, {"control": (0.0, 0.0), "red": (1.0, 5.0)}),
            _row("ward", {"round": 1}, {"keep": (0.0, 0.0), "pay": (1.0, 1.0)})]
    h_all = design.Hypothesis(id="a", statement="s", family="pill", contrast="red-control")
    h_r1 = design.Hypothesis(id="b", statement="s", family="pill", contrast="red-control", where={"round": [1]},
                             outcome="margin", offset=3.0)
    assert [design.in_cell(r, h_r1) for r in rows] == [True, True, False, False]     # family and cell both
    # red - control margins in round 1: +4, +2 (mean 3); against the face value 3: a difference of exactly 0
    res = design.test_hypotheses(rows, [h_all, h_r1], 0.05)
    assert list(design.effects(rows[:3], "red-control")) == [0.5, 0.0, 1.0]
    assert res[0]["test"]["mean"] == pytest.approx(0.5)
    assert res[1]["test"]["mean"] == pytest.approx(3.0)                              # reported on the points scale
    assert res[1]["test"]["ci95"][0] < 3.0 < res[1]["test"]["ci95"][1]
    # x = (4-3, 2-3) = (1, -1): mean 0, t = 0, p = 1
    assert res[1]["test"]["p"] == pytest.approx(1.0)
    assert res[0]["win"]["n"] == 3 and res[1]["points"]["mean"] == pytest.approx(3.0)
    assert [r["rejected"] for r in res] == [False, False]


def test_exploratory_table_is_holm_corrected_over_every_cell():
    rng = np.random.default_rng(0)
    rows = [_row("ward", {"need": "1" if i % 2 else "4+"}, {"keep": (0.0, 0.0), "pay": (0.6 + 0.1 * rng.random(), 1.0)})
            for i in range(20)]
    cells = design.exploratory(rows, {"ward": (["keep-pay"], ["need"])}, 0.05)
    assert [(c["field"], c["value"], c["win"]["n"]) for c in cells] == [("all", "", 20), ("need", "1", 10),
                                                                      ("need", "4+", 10)]
    assert all(c["rejected"] for c in cells)           # effects near -0.65 with a spread of 0.1: every cell


def test_config_mistakes_are_named(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("hypotheses: [{id: a, statement: s, family: ward, contrast: keep-paid}]\n")
    with pytest.raises(ValueError, match="contrast 'keep-paid'"):
        design.load_config(str(cfg), virus_co.FAMILIES)
    cfg.write_text("hypotheses: [{id: a, statement: s, family: wards, contrast: keep-pay}]\n")
    with pytest.raises(ValueError, match="unknown family 'wards'"):
        design.load_config(str(cfg), virus_co.FAMILIES)
    cfg.write_text("check: {games: 3}\nhypotheses: [{id: a, statement: s, family: ward, contrast: keep-pay}]\n")
    with pytest.raises(ValueError, match="'acting'"):
        design.load_config(str(cfg), virus_co.FAMILIES)
    cfg.write_text("hypotheses: []\n")
    with pytest.raises(ValueError, match="hypotheses"):
        design.load_config(str(cfg), virus_co.FAMILIES)


# -- the arms ------------------------------------------------------------------------------------------
def test_two_identical_arms_give_identical_outcomes_common_random_numbers():
    g = virus_envs.game("virus_co_v0", 4)
    s = g.new_initial_state(seed=3)
    out = design.play_arms(s, 0, {"a": lambda st: None, "b": lambda st: None}, "heuristic", 3,
                           np.random.default_rng(1))
    assert out["a"] == out["b"]
    unavailable = design.play_arms(s, 0, {"a": lambda st: None, "x": lambda st: False}, "heuristic", 1,
                                   np.random.default_rng(1))
    assert set(unavailable) == {"a"}


def test_virus_co_pill_gift_comes_from_the_box():
    # "Each player receives 3 blue, 2 yellow and 2 red pills. The same pills are placed next to the pharmacy
    # card ... Surplus pills are ... returned to the box": with 4 players the box keeps 21-15=6 blue,
    # 14-10=4 yellow, 14-10=4 red
    g = virus_envs.game("virus_co_v0", 4)
    s = g.new_initial_state(seed=1)
    assert virus_co.eligible(s, "pill")
    p = s.current_player()
    fns = virus_co.arms(s, "pill", None)
    for colour, arm in enumerate(("blue", "yellow", "red")):
        c = s.clone()
        fns[arm](c)
        want = [3, 2, 2]
        want[colour] += 1
        box = [6, 4, 4]
        box[colour] -= 1
        assert c.pills[p] == want and c.box == box and c.pharm == [3, 2, 2]
    c = s.clone()
    fns["control"](c)
    assert c.pills[p] == [3, 2, 2] and c.box == [6, 4, 4]


def _first(game, seed, pred, spec="heuristic"):
    from virus_envs import agents

    s = game.new_initial_state(seed=seed)
    line = [agents.make(spec, game) for _ in range(game.num_players)]
    for i, a in enumerate(line):
        a.reset(seed=i)
    from virus_envs.agents.base import Decision

    while not s.is_terminal():
        if pred(s):
            return s
        p = s.current_player()
        s.apply_action(line[p].act(Decision(p, s.phase(), s.view(p), None, s.legal_action_mask(), game)))
    raise AssertionError("no such position in the game")


def test_virus_co_ward_arms_keep_the_card_or_put_up_a_stake():
    from virus_envs import agents

    g = virus_envs.game("virus_co_v0", 4)
    s = _first(g, 5, lambda st: virus_co.eligible(st, "ward") and not st.legal_action_mask()[18])
    p, card = s.current_player(), s.circ
    fns = virus_co.arms(s, "ward", agents.make("heuristic", g))
    k = s.clone()
    fns["keep"](k)
    assert card in k.vir[p] + k.syr[p]                       # "places it in his or her display"
    pay = s.clone()
    fns["pay"](pay)
    assert sum(pay.stake[p]) == 1 and sum(pay.pills[p]) == sum(s.pills[p]) - 1   # one pill put up
    c = virus_co.cell(s, "ward")
    assert c["card"] in ("virus", "syringe") and c["need"] in ("1", "2", "3", "4+") and c["round"] == s.round + 1


def test_virus_co_risk_arms_play_each_type_held():
    from virus_envs import agents
    from virus_envs.virus_co.cards import RISK_KEYS

    g = virus_envs.game("virus_co_v0", 4)
    s = _first(g, 2, lambda st: virus_co.eligible(st, "risk"))
    p = s.current_player()
    held = {RISK_KEYS[g.RTYPE[c]] for c in s.hand[p]}
    fns = virus_co.arms(s, "risk", agents.make("heuristic", g))
    played = set()
    for key in RISK_KEYS:
        c = s.clone()
        if fns[key](c) is not False:
            played.add(key)
            assert c.current_player() == p and len(c.hand[p]) == len(s.hand[p]) - 1   # now choosing its target
    assert played == held
    c = s.clone()
    fns["none"](c)
    assert len(c.hand[p]) == len(s.hand[p])                  # took or circulated a face-up card instead


def test_virus_cards_treat_and_build_arms():
    from virus_envs import agents
    from virus_envs.virus_cards.cards import TREATMENT

    g = virus_envs.game("virus_cards_v0", 2)
    s = _first(g, 4, lambda st: virus_cards.eligible(st, "treat"))
    me = s.turn_player
    fns, extra = virus_cards.arms(s, "treat", agents.make("heuristic", g), np.random.default_rng(0))
    assert extra["treatment"] in ("transplant", "organ_thief", "contagion", "latex_glove", "medical_error")
    n_treat = sum(g.KIND[c] == TREATMENT for c in s.hands[me])
    play, hold = s.clone(), s.clone()
    fns["play"](play)
    fns["hold"](hold)
    assert len(s.discard) + 1 <= len(play.discard) or play.stage != 0     # the treatment left the hand
    kept = hold.hands[me] if hold.turn_player == me else None
    assert kept is None or sum(g.KIND[c] == TREATMENT for c in kept) >= n_treat
    b = _first(g, 11, lambda st: virus_cards.eligible(st, "build"))
    fns, _ = virus_cards.arms(b, "build", agents.make("heuristic", g), np.random.default_rng(0))
    c = b.clone()
    fns["build"](c)
    assert c.hcount[b.turn_player] == b.hcount[b.turn_player] + 1          # a new healthy organ


# -- tiny runs -------------------------------------------------------------------------------------------
def test_tiny_virus_co_run_through_the_command_line(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("players: [4]\nseeds: [1, 2]\ngames: 2\nrollouts: 1\nworkers: 1\n"
                   "check: {acting: random, games: 1, rollouts: 1, families: [ward], seeds: [1]}\n"
                   "hypotheses:\n  - {id: W1, statement: all, family: ward, contrast: keep-pay}\n"
                   "  - {id: P1, statement: blue, family: pill, contrast: blue-control}\n")
    assert main(["study", "virus-co", "--config", str(cfg), "--out", str(tmp_path / "o"), "--docs", ""]) in (0, None)
    res = json.loads((tmp_path / "o" / "results.json").read_text())
    assert set(res["by_seed"]) == {"1", "2"} and res["check"]["acting"] == "random"
    rows = [json.loads(x) for x in (tmp_path / "o" / "interventions.jsonl").read_text().splitlines()]
    main_rows = [r for r in rows if not r.get("check")]
    assert {r["family"] for r in main_rows} <= set(virus_co.FAMILIES) and len({(r["seed"], r["game"]) for r in main_rows}) == 4
    assert "| W1: all |" in design.tables_markdown(res)
    again = virus_co.one_game({"cfg": design.load_config(str(cfg), virus_co.FAMILIES), "players": 4, "seed": 1,
                               "game": 0, "families": list(virus_co.FAMILIES), "rollouts": 1})
    assert again == [{k: v for k, v in r.items()} for r in main_rows if r["seed"] == 1 and r["game"] == 0]


def test_tiny_virus_cards_run_writes_the_page(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("players: [2]\nseeds: [1]\ngames: 2\nrollouts: 1\n"
                   "hypotheses:\n  - {id: T1, statement: any, family: treat, contrast: play-hold}\n")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "virus_cards.md").write_text(f"# x\n\n{virus_cards.TABLES_START}\nOLD TABLE\n{virus_cards.TABLES_END}\nafter\n")
    assert main(["study", "virus-cards", "--config", str(cfg), "--out", str(tmp_path / "o"), "--docs", str(docs),
                 "--no-check"]) in (0, None)
    page = (docs / "virus_cards.md").read_text()
    assert "OLD TABLE" not in page and "| T1: any |" in page and page.endswith("after\n")
    assert (docs / "virus_cards.png").is_file() and (docs / "virus_cards.json").is_file()


def test_a_cli_mistake_is_a_message():
    with pytest.raises(SystemExit) as e:
        main(["study", "virus-co", "--games", "0"])
    assert e.value.code not in (0, None)
