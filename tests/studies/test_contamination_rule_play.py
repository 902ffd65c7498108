"""The rule agent's paired games (issue 18): the shortcut (a rule that never chose otherwise played the
control's game) checked against games played in full, the paired analysis by hand, a stopped run resumed,
bad configs named."""
from __future__ import annotations

import json

import numpy as np
import pytest

import virus_envs
from virus_envs import agents
from virus_envs.experiments.arena import play_match, win_shares
from virus_envs.experiments.cli import main
from virus_envs.experiments.studies import contamination_rule_play as rp

RULES = {"v2": "rule:contamination", "v3all": "rule:contamination?file=agents/data/contamination_rule_v3_all.json"}


def _cfg(tmp_path, **kw):
    cfg = {"name": "t", "players": [2], "opponents": ["heuristic"], "control": "heuristic", "rules": RULES,
           "seed": 3, "deals": {"heuristic": {2: 3}}, "rounds": 2, "out": str(tmp_path / "out")}
    cfg.update(kw)
    p = tmp_path / "cfg.yaml"
    import yaml
    p.write_text(yaml.safe_dump(cfg))
    return str(p)


def test_a_rule_that_never_chose_otherwise_played_the_controls_game():
    # every seating of a few deals: each rule's stored outcome is that of its game played in full
    g = virus_envs.game("roll_write_v0", 2)
    same = differ = 0
    for deal in rp.deals(2, 11, 4):
        for seat in range(2):
            rec = rp.play_paired(g, "heuristic", RULES, "heuristic", deal, seat)
            for k, spec in RULES.items():
                line = [agents.make("heuristic", g) for _ in range(2)]
                line[seat] = agents.make(spec, g)
                o = play_match(g, line, deal)
                assert rec["rules"][k]["win"] == win_shares(o.returns, o.truncated, o.sides)[seat]
                assert rec["rules"][k]["margin"] == o.scores[seat] - o.scores[1 - seat]
                if rec["rules"][k]["differs_at"] is None:
                    same += 1
                else:
                    differ += 1
    assert same and differ          # both ways of scoring a rule were exercised


def _game(deal, seat, c, r, players=2, opp="heuristic"):
    return {"players": players, "opponent": opp, "deal_index": deal, "seat": seat, "cpu": 0.1,
            "control": {"win": c, "margin": 0.0}, "rules": {"v2": {"win": r, "margin": 2.0, "differs_at": 3},
                                                              "v3all": {"win": c, "margin": 0.0, "differs_at": None}}}


def test_the_paired_analysis_by_hand(tmp_path):
    cfg = rp.load_config(_cfg(tmp_path))
    rows = [_game(0, 0, 0.0, 1.0), _game(0, 1, 1.0, 1.0),     # deal 0: (1 + 0) / 2 = +0.5
            _game(1, 0, 1.0, 0.0), _game(1, 1, 0.0, 0.0),     # deal 1: -0.5
            _game(2, 0, 0.0, 1.0), _game(2, 1, 0.0, 0.5),     # deal 2: +0.75
            _game(3, 0, 0.0, 1.0)]                            # deal 3 lacks a seating: left out
    res = rp.analyse(rows, cfg)
    v2, v3 = res["cells"]
    assert v2["deals"] == 3 and v2["games"] == 6 and v2["games_differ"] == 6 and v3["games_differ"] == 0
    d = np.array([0.5, -0.5, 0.75])
    assert v2["effect"]["mean"] == pytest.approx(d.mean())
    from scipy import stats
    h = stats.t.ppf(0.975, 2) * d.std(ddof=1) / np.sqrt(3)
    assert v2["effect"]["ci95"] == pytest.approx([d.mean() - h, d.mean() + h])
    assert v2["rule_win"] == pytest.approx(3.5 / 6) and v2["control_win"] == pytest.approx(2 / 6)
    assert v2["points"]["mean"] == 2.0 and v3["effect"]["mean"] == 0.0 and not v2["rejected"]
    assert v2["deals_better"] == 2 and v2["deals_worse"] == 1 and v2["sign_p"] == pytest.approx(1.0)
    assert v3["sign_p"] is None                                # no deal differs
    assert rp._sign_p(7, 0) == pytest.approx(2 / 2**7)         # the exact sign test by hand
    assert "| v2 | 2 | `heuristic` | 3 (6) | 6 |" in rp.table(res) and "| 2 / 1 (1) |" in rp.table(res)


def test_a_stopped_run_resumes_and_keeps_its_games(tmp_path):
    path = _cfg(tmp_path)
    main(["study", "contamination-rule-play", "--config", path])
    lines = (tmp_path / "out" / "games.jsonl").read_text().splitlines()
    assert len(lines) == 6
    with pytest.raises(SystemExit):        # a second run without --resume is refused (one-line error)
        main(["study", "contamination-rule-play", "--config", path])
    (tmp_path / "out" / "games.jsonl").write_text("\n".join(lines[:3]) + "\n")   # stopped after 3 games
    main(["study", "contamination-rule-play", "--config", path, "--resume"])
    again = (tmp_path / "out" / "games.jsonl").read_text().splitlines()

    def games(ls):                         # every field but the CPU seconds
        return sorted(json.dumps({k: v for k, v in json.loads(x).items() if k != "cpu"}) for x in ls)
    assert games(again) == games(lines)    # the same games: deals and seeds do not depend on what was done
    res = json.loads((tmp_path / "out" / "results.json").read_text())
    assert [c["deals"] for c in res["cells"]] == [3, 3]


def test_a_past_deadline_plays_nothing(tmp_path):
    cfg = rp.load_config(_cfg(tmp_path))
    assert rp.run(cfg, echo=lambda *a: None, deadline=0.0) == []


@pytest.mark.parametrize("bad, word", [({"colour": 1}, "colour"), ({"deals": {"heuristic": {4: 2}}}, "deals"),
                                       ({"rules": []}, "rules")])
def test_bad_configs_are_named(tmp_path, bad, word):
    with pytest.raises(ValueError, match=word):
        rp.load_config(_cfg(tmp_path, **bad))


def test_the_table_goes_between_the_markers_and_the_figure_is_drawn(tmp_path):
    cfg = rp.load_config(_cfg(tmp_path))
    rows = [_game(d, s, float(s == d % 2), 1.0) for d in range(3) for s in range(2)]
    res = rp.analyse(rows, cfg)
    page = tmp_path / "contamination_v2.md"
    page.write_text(f"intro\n{rp.START} -->\nold\n{rp.END}\nend\n")
    rp.write_docs(res, page)
    text = page.read_text()
    assert "old" not in text and "| v2 | 2 | `heuristic` | 3 (6) |" in text and text.endswith(f"{rp.END}\nend\n")
    fig = rp.plot(res, str(tmp_path / "f.png"))
    assert fig.endswith("f.png") and (tmp_path / "f.png").stat().st_size > 0
    page.write_text("no markers\n")
    with pytest.raises(ValueError, match="markers"):
        rp.write_docs(res, page)
