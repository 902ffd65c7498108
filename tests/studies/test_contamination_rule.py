"""The decision rule of the contamination study (issue 18): the tree fit by hand, the rule agent's
reading of the table, a tiny fit through the command line."""
from __future__ import annotations

import json

import numpy as np
import pytest

import virus_envs
from virus_envs import agents
from virus_envs.experiments.arena import play_from
from virus_envs.experiments.cli import main
from virus_envs.experiments.contamination_study import _wildcard_rescues
from virus_envs.experiments.studies import contamination_rule as cr


def test_the_tree_finds_the_split_by_hand():
    # effect +1 for a 1, -1 for anything else: the one split that empties the error is value <= 1.5
    X = np.array([[v, 2, 0, 1, 0] for v in (1, 1, 1, 2, 3, 4, 5, 6)], dtype=float)
    y = np.array([1, 1, 1, -1, -1, -1, -1, -1], dtype=float)
    t = cr.fit_tree(X, y, depth=3, min_leaf=2)
    assert t["feature"] == "value" and t["threshold"] == 1.5
    assert t["left"] == {"leaf": True, "n": 3, "effect": 1.0, "ci95": [1.0, 1.0], "contaminate": True}
    assert t["right"]["leaf"] and t["right"]["effect"] == -1.0 and not t["right"]["contaminate"]
    assert cr.predict(t, {"value": 1})["contaminate"] and not cr.predict(t, {"value": 4})["contaminate"]
    # min_leaf 4: the split 3 | 5 is not allowed; the best one left is value <= 2.5 (4 | 4)
    t4 = cr.fit_tree(X, y, depth=1, min_leaf=4)
    assert t4["threshold"] == 2.5 and t4["left"]["effect"] == 0.5 and t4["right"]["effect"] == -1.0
    assert cr.fit_tree(X, y, depth=0)["leaf"]


def _row(v, placeable, win_c, win_o, rnd=1):
    arms = {"contaminate": {"win": win_c, "margin": 10 * win_c},
            ("place" if placeable else "wildcard"): {"win": win_o, "margin": -win_o}}
    return {"sheet": "shipped", "seed": 1, "players": 2, "game": 0, "value": v, "round": rnd, "rounds": 5,
            "wildcards": 1, "arms": arms}


def test_features_and_effects_of_a_line():
    r = _row(3, True, 0.0, 1.0, rnd=2)
    assert cr.features(r) == [3.0, 2.0, 3.0, 1.0, 1.0]     # rounds left after round 2 of 5: 3
    assert cr.effect(r) == -1.0 and cr.effect(_row(1, False, 1.0, 0.5)) == 0.5
    assert cr.effect(r, "margin") == 1.0                      # 10 * 0 - (-1)
    assert cr.effect({"arms": {"contaminate": {"win": 1.0}}}) is None


def _rule_file(tmp_path, contaminate: bool):
    f = tmp_path / f"rule_{contaminate}.json"
    f.write_text(json.dumps({"tree": {"leaf": True, "n": 1, "effect": 1.0 if contaminate else -1.0,
                                      "contaminate": contaminate}}))
    return str(f)


def test_the_rule_agent_sees_the_wildcard_rescues_the_engine_allows(tmp_path):
    g = virus_envs.game("roll_write_v0", 2)
    ag = agents.make("heuristic", g)
    rule = agents.make(f"rule:contamination?file={_rule_file(tmp_path, False)}", g)
    checked = 0
    for seed in range(4):
        s = g.new_initial_state(seed=seed)

        def probe(st):
            nonlocal checked
            if st.pending or st.wild_die:
                return
            p = st.current_player()
            legal = {int(a) for a in np.flatnonzero(st.legal_action_mask())}
            for v in set(int(x) for x in st.view(p)["sheets"][p]["reserve"]):
                assert rule._rescuable(st.view(p), p, v, legal) == bool(_wildcard_rescues(st, v))
                checked += 1
        play_from(s, [ag, agents.make("heuristic", g)], before_each=probe)
    assert checked > 50


@pytest.mark.parametrize("contaminate", [True, False])
def test_the_rule_decides_contaminate_or_not_for_every_saveable_die(tmp_path, contaminate):
    g = virus_envs.game("roll_write_v0", 4)
    spec = f"rule:contamination?file={_rule_file(tmp_path, contaminate)}"
    saveable_seen, contaminated_saveable, contaminated = 0, 0, 0
    for seed in range(3):
        s = g.new_initial_state(seed=seed)
        line = [agents.make(spec, g)] + [agents.make("heuristic", g) for _ in range(3)]
        while not s.is_terminal():
            p = s.current_player()
            d = agents.decision_for(s)
            a = int(line[p].act(d))
            if p == 0 and not s.pending and not s.wild_die:
                legal = [int(x) for x in d.legal_actions]
                names = [g.actions.name(x) for x in legal]
                saveable = [v for v in range(1, 7) if f"place {v} on contaminated samples" in names
                            and (any(n.startswith(f"place {v} on ") and "contaminated" not in n for n in names)
                                 or _wildcard_rescues(s, v))]
                saveable_seen += bool(saveable)
                if "contaminated" in g.actions.name(a):
                    contaminated += 1
                    contaminated_saveable += int(g.act_a[a]) in saveable
                if contaminate and saveable:
                    assert "contaminated" in g.actions.name(a)      # the rule says contaminate: it does
            s.apply_action(a)
    assert saveable_seen > 10
    if not contaminate:
        assert contaminated_saveable == 0                            # never a die it could have saved


def test_a_bad_rule_file_is_named(tmp_path):
    g = virus_envs.game("roll_write_v0", 2)
    f = tmp_path / "bad.json"
    f.write_text(json.dumps({"tree": {"feature": "colour", "threshold": 1, "left": {}, "right": {}}}))
    with pytest.raises(ValueError, match="bad.json.*feature"):
        agents.make(f"rule:contamination?file={f}", g)
    with pytest.raises(ValueError, match="nope.json"):
        agents.make(f"rule:contamination?file={tmp_path / 'nope.json'}", g)


def test_the_shipped_rule_loads_and_plays_a_game():
    g = virus_envs.game("roll_write_v0", 2)
    rule = agents.make("rule:contamination", g)
    assert rule.rule["points"] > 0 and rule.rule["depth"] == 3
    s, _ = play_from(g.new_initial_state(seed=3), [rule, agents.make("heuristic", g)])
    assert s.is_terminal()


def test_a_tiny_fit_through_the_command_line(tmp_path, capsys):
    rows = [_row(1, False, 1.0, 0.0)] * 3 + [_row(4, True, 0.0, 1.0)] * 3
    src = tmp_path / "i.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "rule.json"
    assert main(["study", "contamination-rule", "--from", str(src), "--out", str(out), "--min-leaf", "2"]) in (0, None)
    rule = json.loads(out.read_text())
    assert rule["points"] == 6 and cr.predict(rule["tree"], {"value": 1, "placeable": 0})["contaminate"]
    assert "contaminate" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="none.jsonl"):
        main(["study", "contamination-rule", "--from", str(tmp_path / "none.jsonl"), "--out", str(out)])


def test_the_fit_can_keep_the_whole_seeds_of_a_stopped_run(tmp_path):
    # seed 1 says contaminate a 1 that fits nowhere; seed 2 (say, a seed the run did not finish) says the opposite
    rows = [_row(1, False, 1.0, 0.0)] * 3 + [dict(_row(1, False, 0.0, 1.0), seed=2)] * 5
    assert cr.fit_from_rows(rows, min_leaf=2, seeds=[1])["points"] == 3
    assert cr.fit_from_rows(rows, min_leaf=2, seeds=[1])["tree"]["contaminate"]
    assert not cr.fit_from_rows(rows, min_leaf=2)["tree"]["contaminate"]          # every seed: 3 x +1, 5 x -1
    src = tmp_path / "i.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "rule.json"
    assert main(["study", "contamination-rule", "--from", str(src), "--out", str(out), "--min-leaf", "2",
                 "--seeds", "1"]) in (0, None)
    assert json.loads(out.read_text())["seeds"] == [1]
    with pytest.raises(ValueError, match="seeds \\[3\\]"):
        cr.fit_from_rows(rows, seeds=[3])


def test_agreement_counts_where_the_rule_and_the_heuristic_part(tmp_path):
    never = f"rule:contamination?file={_rule_file(tmp_path, False)}"
    a = cr.agreement(2, 2, seed=5, spec=never)
    assert a["decisions"] > 20 and 0 <= a["differ"] <= a["decisions"]
    # the rule that never contaminates a saveable die contaminates no more often than the heuristic would
    assert a["contaminate_rule"] <= a["contaminate_heuristic"]
    always = cr.agreement(2, 2, seed=5, spec=f"rule:contamination?file={_rule_file(tmp_path, True)}")
    assert always["contaminate_rule"] > a["contaminate_rule"]


def test_leave_one_seed_out_scores_each_seed_with_the_tree_of_the_others(tmp_path):
    # seeds 1 and 2: a 1 that fits nowhere is worth contaminating (+1); seed 3: it is not (-1); a placeable 4: -1
    rows = []
    for seed, w in ((1, 1.0), (2, 1.0), (3, 0.0)):
        rows += [dict(_row(1, False, w, 1.0 - w), seed=seed)] * 3 + [dict(_row(4, True, 0.0, 1.0), seed=seed)] * 3
    folds = {f["held_out"]: f for f in cr.leave_one_seed_out(rows, min_leaf=2)}
    assert folds[3]["fitted_on"] == [1, 2] and folds[3]["points"] == 6 and folds[3]["contaminate"] == 3
    # the trees of seeds {1, 2} say contaminate the 1: on seed 3 that costs 1 on each of 3 points of 6
    assert folds[3]["gain"]["mean"] == pytest.approx(-0.5) and folds[3]["effect_where_contaminate"] == -1.0
    # held out seed 1: the tree of {2, 3} has the 1s' leaf at 0 (+1, -1): "save it", no gain, no loss
    assert folds[1]["contaminate"] == 0 and folds[1]["gain"]["mean"] == 0.0
    # out-of-sample R2 by hand, seed 3: leaves +1 (the 1s) and -1 (the 4s), root mean 0 of the tree of {1, 2}
    # truth -1 everywhere: SSE(tree) = 3 x 4 + 0, SSE(root) = 6 x 1
    assert folds[3]["r2"] == pytest.approx(1 - 12 / 6)
    s = cr.score(cr.fit_from_rows(rows[:6], min_leaf=2), rows)
    assert s["gain_by_seed"]["3"]["mean"] == pytest.approx(-0.5) and s["gain_by_seed"]["1"]["mean"] == 0.5
    assert s["points"] == 18 and s["gain"]["mean"] == pytest.approx((0.5 + 0.5 - 0.5) / 3)


def test_the_command_writes_the_folds_and_scores_other_rules_on_unseen_points(tmp_path):
    rows = []
    for seed, w in ((1, 1.0), (2, 1.0), (3, 0.0)):
        rows += [dict(_row(1, False, w, 1.0 - w), seed=seed)] * 3 + [dict(_row(4, True, 0.0, 1.0), seed=seed)] * 3
    src = tmp_path / "i.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    two = tmp_path / "two.json"
    main(["study", "contamination-rule", "--from", str(src), "--out", str(two), "--min-leaf", "2", "--seeds", "1", "2"])
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"tree": {"leaf": True, "n": 1, "effect": 1.0, "contaminate": True}}))
    loso = tmp_path / "loso.json"
    main(["study", "contamination-rule", "--from", str(src), "--out", str(tmp_path / "all.json"), "--min-leaf", "2",
          "--loso", str(loso), "--compare", str(two), str(other)])
    d = json.loads(loso.read_text())
    assert [f["held_out"] for f in d["leave_one_seed_out"]] == [1, 2, 3]
    assert d["compare"][str(two)]["seeds"] == [3]                       # fitted on 1 and 2: scored on 3 only
    assert d["compare"][str(two)]["gain"]["mean"] == pytest.approx(-0.5)
    assert d["compare"][str(other)]["points"] == 18                     # fitted elsewhere: every point
    assert d["fitted_in_sample"]["points"] == 18
