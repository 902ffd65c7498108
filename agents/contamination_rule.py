"""`rule:contamination`: the Roll & Write heuristic, with "contaminate or not" decided by the rule fitted
on the designed contamination study (issue 18; `experiments/studies/contamination_rule.py`,
docs/studies/contamination_v2.md).

    rule:contamination                      # the default rule (agents/data/contamination_rule.json)
    rule:contamination?file=agents/data/contamination_rule_v3_all.json   # refitted on the main run's 3 seeds
    rule:contamination?file=my_rule.json    # another fitted rule

The default is the tree fitted on the earlier run (`configs/studies/contamination_v2.yaml`). The refits on
the main run (`contamination_v3.yaml`; two seeds: `contamination_rule_v3.json`, three seeds:
`contamination_rule_v3_all.json`) did not generalise: fitted on two seeds, none beats "always save" on the
third (leave one seed out, docs/studies/contamination_rule_loso.json), while the default, scored on every
point of the main run (which it never saw), is not below it. Neither is shown to beat "always save".

At each of its placement decisions, for every die value v in the player's reserve that may go to the
contaminated samples card and could also be saved (placed as it is, or changed by a circled wildcard to a
value some card takes), the rule's tree is read with that die's features (value, players, rounds left,
placeable as it is, wildcards held):

- if some die's leaf says "contaminate", that die goes to the contaminated samples card (the largest
  predicted effect; ties: the lowest value);
- otherwise those dice may not go there this turn: the heuristic chooses among the other actions (it
  places a die, or spends a wildcard), unless nothing else is legal.

Everything else (where a die goes, extra cross-offs, which wildcard) is the heuristic's. It reads only
the view and the mask, like the heuristic.
"""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np

from virus_envs.agents.roll_write_heuristic import RollWriteHeuristic
from virus_envs.roll_write.sheet import COLOURS

DEFAULT_RULE = Path(__file__).resolve().parent / "data" / "contamination_rule.json"
_FEATURES = ("value", "players", "rounds_left", "placeable", "wildcards")


def load_rule(path) -> dict:
    """A fitted rule file, checked: a tree over the five features whose leaves say contaminate or not."""
    path = Path(path)
    try:
        rule = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise ValueError(f"contamination rule {path}: cannot read it ({e})") from None
    if not isinstance(rule, dict) or not isinstance(rule.get("tree"), dict):
        raise ValueError(f"contamination rule {path}: field 'tree' is missing")

    def check(node, where):
        if node.get("leaf"):
            if not isinstance(node.get("contaminate"), bool) or not isinstance(node.get("effect"), (int, float)):
                raise ValueError(f"contamination rule {path}: leaf at {where} needs 'contaminate' and 'effect'")
            return
        if node.get("feature") not in _FEATURES or not isinstance(node.get("threshold"), (int, float)):
            raise ValueError(f"contamination rule {path}: node at {where} needs 'feature' (one of {list(_FEATURES)}) "
                             f"and 'threshold'")
        for side in ("left", "right"):
            if not isinstance(node.get(side), dict):
                raise ValueError(f"contamination rule {path}: node at {where} has no {side!r} branch")
            check(node[side], f"{where}.{side}")

    check(rule["tree"], "tree")
    return rule


class ContaminationRule(RollWriteHeuristic):
    """The heuristic, with the fitted tree deciding whether a saveable die is contaminated."""

    GAMES = ("roll_write_v0",)
    PARAMS = {**RollWriteHeuristic.PARAMS, "file": ""}
    VARIANTS = {"contamination": {}}

    def __init__(self, game, seed=None, variant=None, **params):
        super().__init__(game, seed=seed, variant=variant, **params)
        self.rule = load_rule(self.params["file"] or DEFAULT_RULE)
        self.tree = self.rule["tree"]

    def leaf(self, x: dict) -> dict:
        node = self.tree
        while not node.get("leaf"):
            node = node["left"] if x[node["feature"]] <= node["threshold"] else node["right"]
        return node

    def _rescuable(self, view, me, v, legal) -> bool:
        """Can a circled wildcard change v to a value some card takes? (the heuristic's own placement check)"""
        g = self.game
        if view["changed_die"] or view["sheets"][me]["wildcards"] <= 0:
            return False
        grids, labs = self._read(view)
        open_cure = [view["sheets"][me]["cures"][c] == "open" for c in COLOURS]
        for y in range(1, 7):
            if y == v or int(g.wild_id[v][y]) not in legal:
                continue
            for t in range(g.T_CONTAM):
                if self.place_gain(view, me, grids, labs, open_cure, y, t, check=True) is not None:
                    return True
        return False

    def act(self, decision) -> int:
        view, g = decision.view, self.game
        legal = {int(a) for a in decision.legal_actions}
        if len(legal) == 1 or view["pending"] is not None:
            return super().act(decision)
        me = decision.seat
        contam = {int(g.act_a[a]): a for a in legal if g.act_kind[a] == 0 and g.act_b[a] == g.T_CONTAM}
        best, forbid = None, []
        for v, a in sorted(contam.items()):
            placeable = any(g.act_kind[b] == 0 and g.act_a[b] == v and g.act_b[b] != g.T_CONTAM for b in legal)
            if not placeable and not self._rescuable(view, me, v, legal):
                continue                    # nothing can save it: not a choice
            x = {"value": v, "players": g.num_players, "rounds_left": view["rounds"] - view["round"],
                 "placeable": 1 if placeable else 0, "wildcards": view["sheets"][me]["wildcards"]}
            node = self.leaf(x)
            if node["contaminate"]:
                if best is None or node["effect"] > best[0]:
                    best = (node["effect"], a)
            else:
                forbid.append(a)
        if best is not None:
            return int(best[1])
        if forbid and len(forbid) < len(legal):
            mask = np.array(decision.action_mask, dtype=bool)
            mask[forbid] = False
            return super().act(dataclasses.replace(decision, action_mask=mask))
        return super().act(decision)
