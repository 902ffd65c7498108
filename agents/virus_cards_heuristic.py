"""A VIRUS! bot: protect and complete its own body, attack the leader.

It reads only its own view. For each legal action it rebuilds a table consistent with that view
(unseen cards dealt at random: they do not affect the bodies this turn), plays the action on the
engine and scores the bodies that result; Transplant and Contagion are followed to the end of the
turn. Discards keep the cards that have a use.
"""
from __future__ import annotations

from virus_envs.agents.base import ParamAgent
from virus_envs.virus_cards.actions import A_DISCARD
from virus_envs.virus_cards.cards import LATEX_GLOVE, MEDICINE, VIRUS
from virus_envs.virus_cards.encoding import HEALTHY

# value of a slot code: 0 empty, 1 free, 2-6 infected, 7-11 vaccinated, 12+ immunized
_SLOT_VALUE = [0.0, 3.0] + [1.0] * 5 + [4.0] * 5 + [6.0] * 25


class VirusCardsHeuristic(ParamAgent):
    """Greedy one-turn lookahead on a body evaluation. Parameters: leader_weight (how much the best
    rival's body counts against its own), others_weight (the other rivals'), glove_bonus (value of a
    Latex Glove per healthy organ of the best rival), progress_weight (reward for healthy organs)."""

    reads_observation = False      # it reads the view and the mask only

    PARAMS = {"leader_weight": 0.9, "others_weight": 0.15, "glove_bonus": 1.0, "progress_weight": 2.5}
    VARIANTS = {
        "defensive": {"leader_weight": 0.5, "others_weight": 0.05},
        "aggressive": {"leader_weight": 1.3, "others_weight": 0.3},
    }

    def body_value(self, s, q) -> float:
        codes = s.code[q]
        v = sum(_SLOT_VALUE[c] for c in codes)
        healthy = sum(HEALTHY[c] for c in codes)
        return v + self.params["progress_weight"] * min(healthy, 4) ** 1.5

    def value(self, s, me) -> float:
        if s.winner >= 0:
            return 1e4 if s.winner == me else -1e4
        n = s.n
        mine = self.body_value(s, me)
        others = sorted((self.body_value(s, q) for q in range(n) if q != me), reverse=True)
        leader = others[0] if others else 0.0
        rest = sum(others[1:])
        return mine - self.params["leader_weight"] * leader - self.params["others_weight"] * rest

    def _best(self, s, me, depth=0):
        """Value of a state in which `me` may still have sub-decisions this turn (max over them)."""
        if s.is_terminal() or s.current_player() != me or s.stage == 0 or depth > 6:
            return self.value(s, me)
        best = -1e9
        for a in s.legal_actions():
            c = s.clone()
            c.apply_action(a)
            best = max(best, self._best(c, me, depth + 1))
        return best

    def act(self, decision) -> int:
        g = decision.game
        view = decision.view
        me = decision.seat
        base = g.state_from_view(view, self.rng)
        legal = [int(a) for a in decision.legal_actions]
        if base.stage != 0:       # mid Transplant / Contagion: finish it as well as possible
            return max(legal, key=lambda a: self._after(base, a, me))
        A = g.A
        hand = view["hand"]
        base_value = self.value(base, me)
        best_gain = [0.0] * len(hand)   # what each hand card can do at best now
        scored = []
        for a in legal:
            pl = A.payload[a]
            if pl[0] == A_DISCARD:              # discard: judged below, once each card's use is known
                continue
            v = self._after(base, a, me)
            card = hand[pl[1]]
            if g.TREAT[card] == LATEX_GLOVE:      # Latex Glove: the bodies do not change, the hands do
                v += self.params["glove_bonus"] * (1 + max(base.hcount[q] for q in range(base.n) if q != me))
            gain = v - base_value
            best_gain[pl[1]] = max(best_gain[pl[1]], gain)
            scored.append((v, a))
        for a in legal:
            pl = A.payload[a]
            if pl[0] != A_DISCARD:
                continue
            bits = pl[1]
            kept_use = sum(best_gain[i] for i in range(len(hand)) if not bits >> i & 1)
            lost_use = sum(best_gain[i] + self._promise(g, hand[i], base, me)
                           for i in range(len(hand)) if bits >> i & 1)
            # a discard changes no body: it is worth the base minus what the thrown cards could do
            scored.append((base_value - 0.5 - lost_use + 0.01 * kept_use, a))
        best = max(v for v, _ in scored)
        ties = [a for v, a in scored if v >= best - 1e-9]
        return int(ties[self.rng.integers(len(ties))])

    def _after(self, base, a, me) -> float:
        s = base.clone()
        s.apply_action(a)
        return self._best(s, me)

    @staticmethod
    def _promise(g, card, s, me) -> float:
        """Future use of a card that has none now: an organ colour still missing, a medicine or virus."""
        k = g.KIND[card]
        if k == 0:
            return 1.5 if s.organ[me][g.COLOUR[card]] < 0 else 0.0
        if k == MEDICINE:
            return 0.6
        if k == VIRUS:
            return 0.4
        return 0.8
