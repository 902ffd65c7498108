"""Virus & Co (Zoch, 2002): end each round with few viruses and many pills. Rules engine.

| | |
|---|---|
| players | 3-6; seats in turn order: seat i+1 is seat i's LEFT neighbour ("The next player takes the referral slip from his or her right neighbour") |
| rounds | 3 (config `rounds`); a round ends when a player lands in the INTENSIVE CARE UNIT, or (assumption) when both stacks are empty at the end of a turn |
| actions | `actions.py`: take / circulate a face-up card, play a risk card, seat+k, keep, pass, one pill of a colour, a virus card |
| decisions | whoever must decide: the turn player, the receiver of a circulating card or risk card, a payer (one pill per decision), a player returning a pill or paying Mr. Doctor, the keeper of a risk card choosing its target |
| returns | at the end: +1 to the sole best total, k tied best totals get 1/k each, every other seat -1; 0 to all on truncation (`max_turns`) |
| scores | totals of the rounds played, as the rulebook counts them |

Every card is an int id (cards.py). A display is a list of virus ids (virus cards and Plague risk
cards) and a list of syringe ids (syringe cards and Injection risk cards); `on[s]` is the virus a
syringe lies on (-1: alone) and `nsyr[v]` the syringes on virus v. Illness is always recomputed
from the display: a virus counts its value, halved rounding up under one syringe, zero under two.
"""
from __future__ import annotations

import numpy as np

from ..core import Game, State, clone_rng, make_rng, rng_from_dict, rng_to_dict
from . import encoding, hidden, render, validate
from .actions import (A_CIRC, A_KEEP, A_PASS, A_PILL0, A_RISK0, A_SEAT0, A_TAKE, build_actions)
from .cards import (KIND_SYRINGE, KIND_VIRUS, R_DIAGNOSIS, R_DOCTOR, R_GUINEA, R_INFECTION, R_INJECTION,
                    R_MEDICARE, R_NURSE, R_PLAGUE2, R_PLAGUE3, R_PRESCRIPTION, R_RECALL, R_TRIAL, R_USEBY,
                    NUM_RISK_TYPES, load_catalogue)
from .payment import legal_ways, next_pills

from .tables import (EFF, ICU_ILLNESS, ICU_POINTS, ICU_SYRINGES, NUM_PHASES, PH_DIAG, PH_FEE,  # noqa: F401
                     PH_GIVE_PILL, PH_GIVE_TO, PH_GUINEA, PH_INFECTION, PH_NURSE, PH_PASS, PH_PAY, PH_PAY_PHARM,
                     PH_PLAGUE, PH_RETURN_PILL, PH_RISK_BACK, PH_RISK_OFFER, PH_RISK_PASS, PH_RISK_TARGET,
                     PH_SYRINGE, PH_TURN, PH_WARD, PHASES, RISK_MIN_ILLNESS)

_FIELDS = ("round", "turns", "truncated", "terminal", "active", "cur", "ph", "pills", "stake", "pharm", "box",
           "stacks", "vir", "syr", "on", "nsyr", "hand", "rbox", "used", "pub", "front", "nurse", "diag", "doctor",
           "circ", "giver", "req", "rc", "issuer", "keeper", "pend", "pay_need", "pay_start", "pay_add",
           "queue", "qcol", "give_col", "fee_to", "fee_ph", "icu", "totals", "history")


class VirusCoGame(Game):
    """Virus & Co for 3-6 players. Config keys are documented in docs/rules/virus_co.md."""

    env_id = "virus_co_v0"
    min_players, max_players, default_players = 3, 6, 4
    DEFAULTS = {
        "deck": "seed",             # preset of the card file: 'seed' (10 syringes) or 'twelve_syringes'
        "cards_file": "",           # another card data file with the same structure ('' = built in)
        "rounds": 3,                # "The player with the best total after three rounds wins"
        "first_player": 0,          # who "most recently had a cold"; -1 = drawn with the game's seed
        "max_turns": 400,           # truncation: turns (referral-slip passes) over the whole game
        "mr_doctor": "off",         # the seed gives the card no pill effect; 'fee_on_pass': a pill to him for every card handed to him
        "injection_on_virus": True,  # an Injection is laid like a syringe (on a virus); False: it lies alone
        "cross_to_giver": True,     # a cross-marked virus may go straight back to its giver; False: never straight back
    }
    CHOICES = {"deck": ("seed", "twelve_syringes"), "mr_doctor": ("off", "fee_on_pass")}

    BOUNDS = {"rounds": (1, None), "max_turns": (1, None), "first_player": (-1, "seat")}

    def _validate_config(self):
        c = self.config
        try:
            self.cat = load_catalogue(c["deck"], c["cards_file"] or None)
        except ValueError as e:
            raise ValueError(f"config key 'deck'/'cards_file': {e}") from None

    def _build(self):
        n = self.num_players
        cat = self.cat
        self.actions, self.card_action, self.action_card = build_actions(n, cat)
        self.num_actions = len(self.actions)
        self.layout = encoding.layout(self)
        self.observation_shape = self.layout.shape
        self.observation_high = 1.0
        self.VALUE, self.KIND, self.CROSS, self.RTYPE, self.SHOWN = cat.value, cat.kind, cat.cross, cat.rtype, cat.pills
        self.NV = cat.num_virus_cards
        self.RISK_IDS = tuple(range(self.NV, cat.size))
        self.fee = self.config["mr_doctor"] == "fee_on_pass"
        self.injection_on_virus = self.config["injection_on_virus"]
        self.cross_to_giver = self.config["cross_to_giver"]
        self.neigh = [((p - 1) % n, (p + 1) % n) for p in range(n)]

    def new_initial_state(self, seed: int | None = None) -> "VirusCoState":
        """Round 1 dealt: two stacks, risk cards, pills to players and pharmacy."""
        s = VirusCoState(self)
        s.rng = make_rng(seed)
        fp = self.config["first_player"]
        if fp < 0:
            fp = int(s.rng.integers(self.num_players))
        s.round = 0
        s.turns = 0
        s.truncated = False
        s.terminal = False
        s.icu = -1
        s.totals = [0] * self.num_players
        s.history = []
        s._deal(fp)
        return s

    def _validate_dict(self, d: dict) -> None:
        """Conservation of the 49 pills and of every card, lengths, ranges, cross-references (validate.py)."""
        validate.validate_state_dict(self, d)

    def _state_from_dict(self, d: dict) -> "VirusCoState":
        """Inverse of VirusCoState.to_dict()."""
        s = VirusCoState(self)
        for k in _FIELDS:
            v = d[k]
            setattr(s, k, _copy(v))
        s.rng = rng_from_dict(d["rng"])
        return s


def _copy(v):
    if isinstance(v, list):
        return [_copy(x) for x in v]
    return v


class VirusCoState(State):
    """One position of Virus & Co."""

    _rng_shared = False

    def __init__(self, game: VirusCoGame):
        self.game = game
        self._mask = None

    # -- set-up -------------------------------------------------------------------------------
    def _deal(self, start: int):
        """Setup of a round: shuffle the virus cards into two stacks, deal the risk cards, give the pills."""
        g = self.game
        n = g.num_players
        cat = g.cat
        if self._rng_shared:   # copy-on-write after clone(): never advance a Generator another state holds
            self.rng = clone_rng(self.rng)
            self._rng_shared = False
        rng = self.rng
        self.pills = [list(cat.start) for _ in range(n)]
        self.stake = [[0, 0, 0] for _ in range(n)]
        self.pharm = list(cat.start)
        self.box = [cat.pill_total[c] - (n + 1) * cat.start[c] for c in range(3)]
        deck = rng.permutation(g.NV).tolist()
        half = g.NV // 2
        self.stacks = [deck[:half], deck[half:]]   # the face-up card is the LAST of each list
        risks = (rng.permutation(len(g.RISK_IDS)) + g.NV).tolist()
        k = len(risks) // n
        self.hand = [sorted(risks[q * k:(q + 1) * k]) for q in range(n)]
        self.rbox = sorted(risks[n * k:])          # "return these to the box without looking at them"
        self.used = []
        self.pub = [0] * NUM_RISK_TYPES   # risk cards turned over this round, per type (public)
        self.vir = [[] for _ in range(n)]
        self.syr = [[] for _ in range(n)]
        self.on = [-1] * cat.size
        self.nsyr = [0] * cat.size
        self.front = [[] for _ in range(n)]
        self.nurse = [-1] * n
        self.diag = [-1] * n
        self.doctor = -1
        self.circ = -1
        self.giver = -1
        self.req = 0
        self.rc = -1
        self.issuer = -1
        self.keeper = -1
        self.pend = -1
        self.pay_need = 0
        self.pay_start = [0, 0, 0]
        self.pay_add = [0, 0, 0]
        self.queue = []
        self.qcol = []
        self.give_col = -1
        self.fee_to = -1
        self.fee_ph = -1
        self.active = start
        self.cur = start
        self.ph = PH_TURN

    # -- queries ------------------------------------------------------------------------------
    def illness(self, p: int) -> int:
        """Illness value of seat p, recomputed from the display (syringes halve, two kill)."""
        V = self.game.VALUE
        ns = self.nsyr
        return sum([EFF[V[v]][ns[v]] for v in self.vir[p]])

    def pill_value(self, p: int) -> int:
        """Value of seat p's supply (blue 1, yellow 2, red 3)."""
        b, y, r = self.pills[p]
        return b + 2 * y + 3 * r

    def current_player(self) -> int:
        return -1 if self.terminal else self.cur

    def phase(self) -> str:
        return "game over" if self.terminal else PHASES[self.ph]

    def is_terminal(self) -> bool:
        return self.terminal

    def is_truncated(self) -> bool:
        return self.truncated

    def scores(self) -> np.ndarray:
        """Totals of the rounds scored so far (the rulebook's points)."""
        return np.array(self.totals, dtype=float)

    def returns(self) -> np.ndarray:
        """+1 sole best total; k tied best share: 1/k each; others -1; all 0 on truncation or before the end."""
        n = self.game.num_players
        if not self.terminal or self.truncated:
            return np.zeros(n)
        best = max(self.totals)
        win = [q for q in range(n) if self.totals[q] == best]
        r = np.full(n, -1.0)
        r[win] = 1.0 / len(win)
        return r

    def _targets(self, p: int):
        """Seats a circulating virus card may be passed to by p."""
        g = self.game
        n = g.num_players
        if g.CROSS[self.circ]:
            # "Viruses with the cross symbol may be passed across the table to any fellow player."
            # The giver is a fellow player: "never straight back" is written only for the plain
            # viruses and syringes (config cross_to_giver=False extends it to cross-marked ones).
            ts = [q for q in range(n) if q != p]
            if g.cross_to_giver:
                return ts
        else:
            # "Viruses without the cross symbol and syringes may only ever be passed to your left or
            # right neighbour, but never straight back to the player from whom you received them."
            ts = list(g.neigh[p])
        return [q for q in ts if q != self.giver]

    def infection_choices(self, p: int):
        """Viruses p may take with Infection: in another player's display, no syringe on it."""
        ns = self.nsyr
        return [v for q in range(self.game.num_players) if q != p for v in self.vir[q] if ns[v] == 0]

    # -- the mask -----------------------------------------------------------------------------
    def _compute_mask(self) -> np.ndarray:
        g = self.game
        n = g.num_players
        m = np.zeros(g.num_actions, dtype=bool)
        ph = self.ph
        p = self.cur
        if ph == PH_TURN:
            for s in (0, 1):
                if self.stacks[s]:
                    m[A_TAKE + s] = True
                    m[A_CIRC + s] = True
            if self.hand[p] and self.illness(p) >= RISK_MIN_ILLNESS:
                RT = g.RTYPE
                for c in self.hand[p]:
                    m[A_RISK0 + RT[c]] = True
        elif ph == PH_PASS:
            for q in self._targets(p):
                m[A_SEAT0 + (q - p) % n - 1] = True
        elif ph == PH_WARD:
            m[A_KEEP] = True
            st = self.stake[p]
            need = self.req - (st[0] + 2 * st[1] + 3 * st[2])
            if need <= 0:
                m[A_PASS] = True
            else:
                b, y, r = self.pills[p]
                nx = next_pills(need, b, y, r, 0, 0, 0)
                for c in (0, 1, 2):
                    if nx[c]:
                        m[A_PILL0 + c] = True
        elif ph == PH_PAY or ph == PH_PAY_PHARM:
            ps, pa = self.pay_start, self.pay_add
            nx = next_pills(self.pay_need, ps[0], ps[1], ps[2], pa[0], pa[1], pa[2])
            for c in (0, 1, 2):
                if nx[c]:
                    m[A_PILL0 + c] = True
        elif ph == PH_SYRINGE:
            ca = g.card_action
            for v in self.vir[p]:
                m[ca[v]] = True
        elif ph == PH_RISK_OFFER:
            m[A_KEEP] = True
            pl = self.pills[p]
            for c in (0, 1, 2):
                if pl[c]:
                    m[A_PILL0 + c] = True
        elif ph == PH_RISK_BACK:
            m[A_KEEP] = True
            b, y, r = self.pills[p]
            nx = next_pills(2, b, y, r, 0, 0, 0)
            for c in (0, 1, 2):
                if nx[c]:
                    m[A_PILL0 + c] = True
        elif ph in (PH_RISK_TARGET, PH_RISK_PASS, PH_NURSE, PH_DIAG, PH_PLAGUE, PH_GIVE_TO):
            m[A_SEAT0:A_SEAT0 + n - 1] = True
        elif ph == PH_INFECTION:
            ca = g.card_action
            for v in self.infection_choices(p):
                m[ca[v]] = True
        elif ph == PH_GIVE_PILL or ph == PH_RETURN_PILL or ph == PH_FEE:
            pl = self.pills[p]
            for c in (0, 1, 2):
                if pl[c]:
                    m[A_PILL0 + c] = True
        elif ph == PH_GUINEA:
            col = self.qcol[0]
            for k in range(1, n):
                if self.pills[(p + k) % n][col]:
                    m[A_SEAT0 + k - 1] = True
        return m

    # -- transitions --------------------------------------------------------------------------
    def _apply(self, a: int) -> None:
        g = self.game
        n = g.num_players
        ph = self.ph
        p = self.cur
        if ph == PH_TURN:
            if a < A_CIRC:                      # 1. take a virus card and keep it
                c = self.stacks[a - A_TAKE].pop()  # "... and then turns over the next card of that stack"
                self._keep_card(p, c, True)
            elif a < A_RISK0:                   # 2. put a virus card into circulation
                self.circ = self.stacks[a - A_CIRC].pop()
                self.giver = -1
                self.req = 1                    # "The first player who takes the card and passes it on must use a pill of value 1"
                self.ph = PH_PASS
            else:                               # 3. put a risk card into circulation
                t = a - A_RISK0
                RT = g.RTYPE
                h = self.hand[p]
                for i, c in enumerate(h):
                    if RT[c] == t:
                        break
                del h[i]
                self.rc = c
                self.issuer = p
                self.ph = PH_RISK_TARGET
            return
        if ph == PH_PASS:
            t = (p + a - A_SEAT0 + 1) % n
            self.giver = p
            self._hand_over(p, t, PH_WARD)
            return
        if ph == PH_WARD:
            if a == A_KEEP:
                self._circ_keep(p)
            elif a == A_PASS:
                # "only needs to top up his or her existing stake by the difference": an earlier
                # overpaid stake already covers the requirement, the difference is nothing
                self.req += 1
                self.ph = PH_PASS
            else:
                st = self.stake[p]
                self.pay_need = self.req - (st[0] + 2 * st[1] + 3 * st[2])
                self.pay_start = list(self.pills[p])
                self.pay_add = [0, 0, 0]
                self.ph = PH_PAY
                self._pay_pill(p, a - A_PILL0)
            return
        if ph == PH_PAY or ph == PH_PAY_PHARM:
            self._pay_pill(p, a - A_PILL0)
            return
        if ph == PH_SYRINGE:
            v = g.action_card[a]
            s = self.pend
            self.pend = -1
            self.on[s] = v
            self.nsyr[v] += 1
            self.syr[p].append(s)
            self._end_turn()
            return
        if ph == PH_RISK_TARGET or ph == PH_RISK_PASS:
            t = (p + a - A_SEAT0 + 1) % n
            self._hand_over(p, t, PH_RISK_BACK if t == self.issuer else PH_RISK_OFFER)
            return
        if ph == PH_FEE:
            c = a - A_PILL0
            self.pills[p][c] -= 1
            self.pills[self.doctor][c] += 1
            self.cur = self.fee_to
            self.ph = self.fee_ph
            self.fee_to = self.fee_ph = -1
            return
        if ph == PH_RISK_OFFER:
            if a == A_KEEP:
                self._reveal(p)
            else:                               # "one always pays exactly one pill to the player who put it into circulation"
                c = a - A_PILL0
                self.pills[p][c] -= 1
                self.pills[self.issuer][c] += 1
                self.ph = PH_RISK_PASS
            return
        if ph == PH_RISK_BACK:
            if a == A_KEEP:
                self._reveal(p)
            else:                               # "pays pills of value 2 to the pharmacy"
                self.pay_need = 2
                self.pay_start = list(self.pills[p])
                self.pay_add = [0, 0, 0]
                self.ph = PH_PAY_PHARM
                self._pay_pill(p, a - A_PILL0)
            return
        if ph == PH_INFECTION:
            v = g.action_card[a]
            for q in range(n):
                if v in self.vir[q]:
                    self.vir[q].remove(v)
                    break
            self.vir[p].append(v)
            if not self._icu_check(p):
                self._end_turn()
            return
        if ph == PH_NURSE:
            self.nurse[p] = (p + a - A_SEAT0 + 1) % n   # "The NURSE may not nurse herself"
            self._end_turn()
            return
        if ph == PH_DIAG:
            self.diag[p] = (p + a - A_SEAT0 + 1) % n    # "one may not nominate oneself"
            self._end_turn()
            return
        if ph == PH_PLAGUE:
            t = (p + a - A_SEAT0 + 1) % n
            self.vir[t].append(self.pend)
            self.pend = -1
            if not self._icu_check(t):
                self._end_turn()
            return
        if ph == PH_GIVE_PILL:
            self.give_col = a - A_PILL0
            self.ph = PH_GIVE_TO
            return
        if ph == PH_GIVE_TO:
            t = (p + a - A_SEAT0 + 1) % n
            c = self.give_col
            self.give_col = -1
            self.pills[p][c] -= 1
            self.pills[t][c] += 1
            self._end_turn()
            return
        if ph == PH_RETURN_PILL:
            c = a - A_PILL0
            self.pills[p][c] -= 1
            self.pharm[c] += 1
            self.queue.pop(0)
            self._next_return()
            return
        if ph == PH_GUINEA:
            t = (p + a - A_SEAT0 + 1) % n
            c = self.qcol.pop(0)
            self.pills[t][c] -= 1
            self.pills[p][c] += 1
            self._next_guinea()
            return
        raise AssertionError(f"unknown phase {ph}")  # pragma: no cover

    # -- rule pieces ----------------------------------------------------------------------------
    def _pay_pill(self, p: int, c: int):
        """One pill of a payment: into p's stake (circulation) or to the pharmacy (risk card back at the issuer)."""
        self.pills[p][c] -= 1
        if self.ph == PH_PAY:
            self.stake[p][c] += 1
        else:
            self.pharm[c] += 1
        pa = self.pay_add
        pa[c] += 1
        if pa[0] + 2 * pa[1] + 3 * pa[2] >= self.pay_need:
            if self.ph == PH_PAY:
                # "For subsequent players, the required stake does not increase by the surplus value"
                self.req += 1
                self.ph = PH_PASS
            else:
                self.ph = PH_RISK_PASS
            self.pay_need = 0
            self.pay_start = [0, 0, 0]
            self.pay_add = [0, 0, 0]

    def _hand_over(self, giver: int, receiver: int, then: int):
        """A card handed to `receiver`, who decides next (phase `then`).

        Only with mr_doctor="fee_on_pass" (a stand-in for the table talk, not the seed's rule):
        whoever hands a card to Mr. Doctor first pays him one pill of their choice (if they hold
        any), the giver's decision, before the receiver's."""
        if self.game.fee and receiver == self.doctor and (self.pills[giver][0] or self.pills[giver][1]
                                                          or self.pills[giver][2]):
            self.fee_to = receiver
            self.fee_ph = then
            self.cur = giver
            self.ph = PH_FEE
            return
        self.cur = receiver
        self.ph = then

    def _circ_keep(self, p: int):
        """"takes back the pills he or she put in ... All other players must hand their put-up stakes over to the pharmacy." """
        ph = self.pharm
        for q in range(self.game.num_players):
            st = self.stake[q]
            if q == p:
                pl = self.pills[q]
                pl[0] += st[0]; pl[1] += st[1]; pl[2] += st[2]
            else:
                ph[0] += st[0]; ph[1] += st[1]; ph[2] += st[2]
            st[0] = st[1] = st[2] = 0
        c = self.circ
        self.circ = -1
        self.giver = -1
        self.req = 0
        self._keep_card(p, c, False)   # "A player who takes a circulating virus does not receive pills from the pharmacy."

    def _keep_card(self, p: int, c: int, from_stack: bool):
        """Place a virus card in p's display; the turn ends unless a syringe needs placing."""
        g = self.game
        if g.KIND[c] == KIND_SYRINGE:
            self._syringe(p, c)
            return
        self.vir[p].append(c)
        if from_stack:  # "receives from the pharmacy the pills depicted on the card, as far as they are in stock"
            sh = g.SHOWN[c]
            ph = self.pharm
            pl = self.pills[p]
            for col in (0, 1, 2):
                k = sh[col] if sh[col] < ph[col] else ph[col]
                ph[col] -= k
                pl[col] += k
        if not self._icu_check(p):
            self._end_turn()

    def _syringe(self, p: int, s: int, on_virus: bool = True):
        """A syringe (card or Injection) in p's display: on one of p's viruses, or alone if p has none."""
        if len(self.syr[p]) + 1 >= ICU_SYRINGES:   # "A third syringe ... leads straight to the INTENSIVE CARE UNIT"
            self.syr[p].append(s)
            self._round_end(p)
            return
        if on_virus and self.vir[p]:
            self.pend = s
            self.cur = p
            self.ph = PH_SYRINGE
            return
        self.syr[p].append(s)   # "must still place the syringe card in front of him or her"
        self._end_turn()

    def _reveal(self, p: int):
        """Keep the risk card: "turns it over, reads it aloud, and carries out its effect immediately"."""
        g = self.game
        c = self.rc
        self.rc = -1
        self.issuer = -1
        self.keeper = p
        self.cur = p
        t = g.RTYPE[c]
        self.pub[t] += 1
        n = g.num_players
        if t == R_INFECTION:
            self.used.append(c)
            if self.infection_choices(p):
                self.ph = PH_INFECTION
            else:
                self._end_turn()
        elif t == R_DIAGNOSIS:
            self.front[p].append(c)
            self.ph = PH_DIAG
        elif t == R_DOCTOR:
            # "Whoever turns over this card places it in front of himself or herself. The card remains
            # in effect until a player lands in the INTENSIVE CARE UNIT." No pill effect in the seed
            # (the fee is the mr_doctor="fee_on_pass" stand-in, see _hand_over).
            self.front[p].append(c)
            self.doctor = p
            self._end_turn()
        elif t == R_INJECTION:
            self._syringe(p, c, g.injection_on_virus)
        elif t == R_MEDICARE:
            self.used.append(c)
            self.queue = [p]
            self._next_return()
        elif t == R_NURSE:
            self.front[p].append(c)
            self.ph = PH_NURSE
        elif t == R_TRIAL:
            self.used.append(c)
            if sum(self.pills[p]):
                self.ph = PH_GIVE_PILL
            else:
                self._end_turn()
        elif t == R_PLAGUE2:
            self.vir[p].append(c)
            if not self._icu_check(p):
                self._end_turn()
        elif t == R_PLAGUE3:
            self.pend = c
            self.ph = PH_PLAGUE
        elif t == R_RECALL:
            self.used.append(c)
            self.queue = [(p + k) % n for k in range(1, n)]
            self._next_return()
        elif t == R_PRESCRIPTION:
            self.used.append(c)
            ph = self.pharm
            pl = self.pills[p]
            for col in g.cat.risk_pills[t]:   # "take the two pills shown from the pharmacy, if available"
                if ph[col]:
                    ph[col] -= 1
                    pl[col] += 1
            self._end_turn()
        elif t == R_GUINEA:
            self.used.append(c)
            self.qcol = list(g.cat.risk_pills[t])
            self._next_guinea()
        elif t == R_USEBY:
            self.used.append(c)
            self.queue = [(p + 1) % n, (p - 1) % n]   # "your left and right neighbours"
            self._next_return()
        else:  # pragma: no cover
            raise AssertionError(f"unknown risk type {t}")

    def _next_return(self):
        """Next player who must return a pill to the pharmacy ("if they have one")."""
        q = self.queue
        while q and not sum(self.pills[q[0]]):
            q.pop(0)
        if q:
            self.cur = q[0]
            self.ph = PH_RETURN_PILL
        else:
            self._end_turn()

    def _next_guinea(self):
        """Next pill shown on Guinea Pig that some fellow player can give; pills nobody holds are forgone."""
        n = self.game.num_players
        k = self.keeper
        while self.qcol:
            col = self.qcol[0]
            if any(self.pills[(k + j) % n][col] for j in range(1, n)):
                self.cur = k
                self.ph = PH_GUINEA
                return
            self.qcol.pop(0)
        self._end_turn()

    def _icu_check(self, p: int) -> bool:
        """"more than 12 illness points ... lands immediately in the INTENSIVE CARE UNIT", after a virus
        reached p's display (the "3 syringes" are checked where every syringe is laid: _syringe)."""
        if self.illness(p) > ICU_ILLNESS:
            self._round_end(p)
            return True
        return False

    def _end_turn(self):
        """"The next player takes the referral slip ... and is then on turn"."""
        g = self.game
        self.keeper = -1
        self.turns += 1
        self.active = (self.active + 1) % g.num_players
        if self.turns >= g.config["max_turns"]:
            self.truncated = True
            self.terminal = True
            self.cur = -1
            return
        if not self.stacks[0] and not self.stacks[1]:
            self._round_end(-1)   # assumption: the round also ends when both stacks are used up
            return
        self.cur = self.active
        self.ph = PH_TURN

    def round_scores(self, icu: int) -> list:
        """Scoring of the round as it stands, with `icu` the seat in intensive care (-1: none)."""
        cat = self.game.cat
        out = []
        for q in range(self.game.num_players):
            if q == icu:  # "always receives 13 minus points" (Nurse and Diagnosis points are lost)
                out.append(ICU_POINTS)
                continue
            s = self.pill_value(q) - self.illness(q)
            if self.nurse[q] >= 0:
                s += cat.nurse_icu if self.nurse[q] == icu else cat.nurse_healthy
            if self.diag[q] >= 0:
                s += cat.diagnosis_right if self.diag[q] == icu else cat.diagnosis_wrong
            out.append(s)
        return out

    def _round_end(self, icu: int):
        """Score the round; deal the next one, started by the holder of the referral slip, or end the game."""
        self.doctor = -1   # "The card remains in effect until a player lands in the INTENSIVE CARE UNIT"
        sc = self.round_scores(icu)
        self.totals = [a + b for a, b in zip(self.totals, sc)]
        self.history.append(sc)
        self.icu = icu
        self.round += 1
        if self.round >= self.game.config["rounds"]:
            self.terminal = True
            self.cur = -1
            self.keeper = -1
            self.pend = -1
            return
        self._deal(self.active)

    # -- bookkeeping ----------------------------------------------------------------------------
    def clone(self) -> "VirusCoState":
        s = VirusCoState.__new__(VirusCoState)
        s.game = self.game
        s._mask = self._mask
        d = self.__dict__
        sd = s.__dict__
        for k in _FIELDS:
            v = d[k]
            if type(v) is list:
                v = [x[:] if type(x) is list else x for x in v]
            sd[k] = v
        # the Generator is shared until one of the two states draws from it (see _deal)
        s.rng = self.rng
        s._rng_shared = True
        self._rng_shared = True
        return s

    def to_dict(self) -> dict:
        d = {"env_id": self.game.env_id, "num_players": self.game.num_players}
        d.update((k, _copy(getattr(self, k))) for k in _FIELDS)
        d["rng"] = rng_to_dict(self.rng)
        return d

    def _determinize(self, p: int, rng) -> "VirusCoState":
        """Resample what p cannot see: other risk hands, the face-down circulating risk card (unless p
        issued it), the two risk cards returned unseen, the face-down parts of both stacks (hidden.py)."""
        return hidden.determinize(self, p, rng)

    def hidden_facts(self, p: int) -> dict:
        """What p cannot see, as named under "Hidden information" in docs/rules/virus_co.md (hidden.py)."""
        return {**super().hidden_facts(p), **hidden.hidden_facts(self, p)}

    def _set_rng(self, rng) -> None:
        self.rng = rng
        self._rng_shared = False

    def view(self, p: int) -> dict:
        """What seat p may know: the table, own risk hand, the circulating risk card only for its issuer."""
        return encoding.view(self, p)

    def observation(self, p: int) -> np.ndarray:
        """Seat-relative float32 encoding of view(p) (layout in encoding.py)."""
        return encoding.observe(self, p)

    def action_to_string(self, a: int) -> str:
        return self.game.action_to_string(a)

    def render(self) -> str:
        return render.render(self)
