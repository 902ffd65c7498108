"""A rule-of-thumb player for Virus & Co (`heuristic` for virus_co_v0).

Reads only `decision.view` and `decision.action_mask` (never hidden state). Its ideas:
- keep a face-up card when it is cheap (pills received pay for the illness, or a syringe that
  cures much and is not the third); otherwise put the worst card into circulation, towards the
  neighbour least able to pay;
- ward off a circulating card when keeping it costs more than the pills still to put up plus
  the stake already at risk; never keep what sends you to intensive care; when the stake already
  meets the requirement (`pass`), keep only if keeping costs clearly less than that stake;
  never hand a card to a player whose stake lets them pass it on for free, if another can take it;
- pay with the largest pill that does not overshoot; decline an unknown risk card with a blue
  pill, or a yellow one when close to intensive care;
- play harmful risk cards (Plague 2, Injection, Medicare Patient, Use-by Date) at the player with
  the fewest pills when the face-up cards are bad to keep; aim Plague 3, Diagnosis and Nurse
  at the player nearest to / farthest from intensive care.
Parameters (`heuristic?keep_margin=1`): `keep_margin` biases keeping a circulating card,
`danger` is the illness from which more illness counts double, `take_at` the lowest value of a
face-up card still worth keeping, `risk_play` 0 (never play risk cards), 1 (the harmful four),
2 (also Infection, Pharmaceutical Trial, Recall).
"""
from __future__ import annotations

import numpy as np

from virus_envs.agents.base import ParamAgent
from virus_envs.virus_co.actions import A_CIRC, A_KEEP, A_PASS, A_PILL0, A_RISK0, A_SEAT0, A_TAKE
from virus_envs.virus_co.cards import RISK_KEYS
from virus_envs.virus_co.game import (PH_DIAG, PH_FEE, PH_GIVE_PILL, PH_GIVE_TO, PH_GUINEA, PH_INFECTION, PH_NURSE,
                                      PH_PASS, PH_PAY, PH_PAY_PHARM, PH_PLAGUE, PH_RETURN_PILL, PH_RISK_BACK,
                                      PH_RISK_OFFER, PH_RISK_PASS, PH_RISK_TARGET, PH_SYRINGE, PH_TURN, PH_WARD)

ICU_COST = 25.0
HARMFUL = ("plague_2", "injection", "medicare_patient", "use_by_date")
HARMFUL_WIDE = HARMFUL + ("infection", "pharmaceutical_trial", "recall")
BAD_TO_KEEP_BACK = ("plague_2", "injection", "medicare_patient", "pharmaceutical_trial", "infection")


def _eff(value, k):
    return value if k == 0 else ((value + 1) // 2 if k == 1 else 0)


def _pv(pills):
    return pills["blue"] + 2 * pills["yellow"] + 3 * pills["red"]


class VirusCoHeuristic(ParamAgent):
    """Greedy card valuation with a few table-reading rules (see module docstring)."""

    reads_observation = False      # it reads the view and the mask only

    PARAMS = {"keep_margin": -1.0, "danger": 7, "take_at": -0.5, "risk_play": 1}
    VARIANTS = {"cautious": {"keep_margin": -2.0, "danger": 6}, "bold": {"keep_margin": 1.0, "danger": 10}}

    def __init__(self, game, seed=None, variant=None, **params):
        super().__init__(game, seed=seed, variant=variant, **params)
        self.n = game.num_players
        self.card_action = {game.cat.name[c]: a for c, a in enumerate(game.card_action) if a >= 0}
        self.risk_action = {RISK_KEYS[t]: A_RISK0 + t for t in range(len(RISK_KEYS))}
        self.name_key = {game.cat.risk_names[t]: RISK_KEYS[t] for t in range(len(RISK_KEYS))}

    # -- valuations -------------------------------------------------------------------------
    def _keep_cost(self, me, card, from_stack, pharmacy):
        """Cost (in points) for me of laying this card in my display."""
        ill = me["illness"]
        nsyr = len(me["syringes"])
        if card["syringe"]:
            if nsyr >= 2:
                return ICU_COST
            best = 0
            for v in me["viruses"]:
                best = max(best, _eff(v["value"], v["syringes"]) - _eff(v["value"], v["syringes"] + 1))
            return -best + (2.0 if nsyr == 1 else 0.8)
        val = card["value"]
        if ill + val > 12:
            return ICU_COST
        cost = float(val)
        if ill + val >= self.params["danger"]:
            cost += val
        if from_stack:
            sh = card["pills"]
            cost -= sum(min(sh[c], pharmacy[c]) * w for c, w in (("blue", 1), ("yellow", 2), ("red", 3)))
        return cost

    def _pay_pill(self, mask, need):
        for c, v in ((2, 3), (1, 2), (0, 1)):
            if mask[A_PILL0 + c] and v <= need:
                return A_PILL0 + c
        for c in (0, 1, 2):
            if mask[A_PILL0 + c]:
                return A_PILL0 + c
        return None

    def _seat_choice(self, mask, score):
        """The legal seat+k maximising score(seat)."""
        best, ba = None, None
        for k in range(1, self.n):
            a = A_SEAT0 + k - 1
            if mask[a]:
                sc = score((self.seat + k) % self.n) + 1e-3 * self.rng.random()
                if best is None or sc > best:
                    best, ba = sc, a
        return ba

    def _danger(self, p):
        return p["illness"] + 4 * len(p["syringes"])

    # -- the policy -----------------------------------------------------------------------------
    def act(self, decision) -> int:
        v = decision.view
        mask = decision.action_mask
        self.seat = seat = v["seat"]
        pl = v["players"]
        me = pl[seat]
        ph = v["phase_id"]
        a = None
        if ph == PH_TURN:
            a = self._turn(v, mask, me)
        elif ph == PH_PASS:
            card = v["circulating"]
            req = card["requirement"]
            # a receiver whose stake already meets the requirement passes it on for free (`pass`):
            # with a cross-marked card that can be the giver, handed it straight back
            a = self._seat_choice(mask, lambda q: -_pv(pl[q]["pills"]) - _pv(pl[q]["stake"])
                                  + (10 if pl[q]["illness"] + card["value"] > 12 else 0)
                                  - (10 if _pv(pl[q]["stake"]) >= req else 0))
        elif ph == PH_WARD:
            card = v["circulating"]
            cost = self._keep_cost(me, card, False, v["pharmacy"])
            stake = _pv(me["stake"])
            need = card["requirement"] - stake
            if mask[A_PASS]:
                a = A_KEEP if cost < stake - 0.5 + self.params["keep_margin"] else A_PASS
            elif cost >= ICU_COST or cost > need + stake + self.params["keep_margin"]:
                a = self._pay_pill(mask, need)
            if a is None:
                a = A_KEEP
        elif ph in (PH_PAY, PH_PAY_PHARM):
            p = v["payment"]
            done = p["added"]["blue"] + 2 * p["added"]["yellow"] + 3 * p["added"]["red"]
            a = self._pay_pill(mask, p["need"] - done)
        elif ph == PH_SYRINGE:
            best = -1
            for vv in me["viruses"]:
                gain = _eff(vv["value"], vv["syringes"]) - _eff(vv["value"], vv["syringes"] + 1)
                act = self.card_action[vv["card"]]
                if mask[act] and gain > best:
                    best, a = gain, act
        elif ph == PH_RISK_TARGET or ph == PH_RISK_PASS:
            issuer = v["risk_card"]["issuer"]
            a = self._seat_choice(mask, lambda q: -_pv(pl[q]["pills"]) + (3 if q == issuer else 0)
                                  + 2 * len(pl[q]["syringes"]))
        elif ph == PH_RISK_OFFER:
            pills = me["pills"]
            if mask[A_PILL0] and (pills["blue"] >= 1):
                a = A_PILL0
            elif mask[A_PILL0 + 1] and (len(me["syringes"]) >= 2 or me["illness"] >= self.params["danger"]):
                a = A_PILL0 + 1
            else:
                a = A_KEEP
        elif ph == PH_RISK_BACK:
            key = self.name_key.get(v["risk_card"]["card"] or "", "")
            if key in BAD_TO_KEEP_BACK and (mask[A_PILL0] or mask[A_PILL0 + 1]):
                a = A_PILL0 + 1 if mask[A_PILL0 + 1] and me["pills"]["blue"] < 2 else A_PILL0
                if not mask[a]:
                    a = A_PILL0 + 1
            else:
                a = A_KEEP
        elif ph == PH_INFECTION:
            best = None
            for q, p in enumerate(pl):
                if q == seat:
                    continue
                for vv in p["viruses"]:
                    act = self.card_action[vv["card"]]
                    if mask[act]:
                        sc = -vv["value"] + 0.01 * p["total"]
                        if best is None or sc > best:
                            best, a = sc, act
        elif ph == PH_NURSE:
            a = self._seat_choice(mask, lambda q: -self._danger(pl[q]))
        elif ph == PH_DIAG:
            a = self._seat_choice(mask, lambda q: self._danger(pl[q]))
        elif ph == PH_PLAGUE:
            a = self._seat_choice(mask, lambda q: (20 if pl[q]["illness"] + 3 > 12 else 0) + pl[q]["total"]
                                  + _pv(pl[q]["pills"]) - pl[q]["illness"])
        elif ph in (PH_GIVE_PILL, PH_RETURN_PILL, PH_FEE):
            a = self._pay_pill(mask, 1)
        elif ph == PH_GIVE_TO:
            a = self._seat_choice(mask, lambda q: -pl[q]["total"] - _pv(pl[q]["pills"]))
        elif ph == PH_GUINEA:
            a = self._seat_choice(mask, lambda q: pl[q]["total"] + _pv(pl[q]["pills"]))
        if a is None or not mask[a]:
            legal = np.flatnonzero(mask)
            a = int(legal[self.rng.integers(len(legal))])
        return int(a)

    def _turn(self, v, mask, me):
        best_take, best_a = None, None
        worst_circ, circ_a = None, None
        for s in (0, 1):
            card = v["stacks"][s]["face_up"]
            if card is None or not mask[A_TAKE + s]:
                continue
            cost = self._keep_cost(me, card, True, v["pharmacy"])
            if best_take is None or -cost > best_take:
                best_take, best_a = -cost, A_TAKE + s
            harm = 6 if card["syringe"] else card["value"] + (1 if card["cross"] else 0)
            if worst_circ is None or harm > worst_circ:
                worst_circ, circ_a = harm, A_CIRC + s
        if best_take is not None and best_take >= self.params["take_at"]:
            return best_a
        if self.params["risk_play"]:
            for key in (HARMFUL_WIDE if self.params["risk_play"] > 1 else HARMFUL):
                a = self.risk_action[key]
                if mask[a]:
                    return a
        if circ_a is not None and me["pills"] and _pv(me["pills"]) >= 3:
            return circ_a
        return best_a if best_a is not None else circ_a
