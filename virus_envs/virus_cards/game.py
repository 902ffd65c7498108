"""VIRUS! (Tranjis): build a body of 4 healthy organs before the others. Rules engine.

| | |
|---|---|
| players | 2-6, seats numbered in turn order (the rulebook passes the turn "to the player on your right": seat i+1 sits on seat i's right) |
| actions | see `actions.py`: play on a slot / on a player / without target, discard a subset, Transplant's second pick, Contagion's moves |
| decisions | always the turn player's; Transplant and Contagion are split into consecutive decisions |
| returns | +1 to the winner, -1 to every other seat; 0 to all on truncation (`max_turns`) |
| scores | healthy organs in each body (4 wins) |

Body layout: a body has one slot per organ colour (red, green, blue, yellow, multi), since "you
cannot have 2 organs of the same type on your body at any time". A slot holds the organ card and
0-2 cards on it: nothing (free), one virus (infected), one medicine (vaccinated), two medicines
(immunized). A second virus destroys the organ; a virus and a medicine cancel.
"""
from __future__ import annotations

import numpy as np

from ..core import Game, State, clone_rng, make_rng, rng_from_dict, rng_to_dict
from .actions import A_DISCARD, A_MOVE, A_PICK, A_PLAY, A_PLAYER, A_SLOT, HAND, card_actions
from .cards import (CONTAGION, LATEX_GLOVE, MEDICAL_ERROR, MEDICINE, MULTI, ORGAN, ORGAN_THIEF,
                    TRANSPLANT, VIRUS, load_deck)
from . import checks, encoding, render
from .encoding import HEALTHY, slot_code

PLAY, TRANSPLANT_PICK, CONTAGION_MOVE = 0, 1, 2
PHASES = ("play or discard", "transplant: second organ", "contagion: move a virus")

# COMPAT[a][b]: colour a acts on colour b ("multicolored cards ... can be applied to all of them")
COMPAT = [[a == b or a == MULTI or b == MULTI for b in range(5)] for a in range(5)]


class VirusCardsGame(Game):
    """VIRUS! for 2-6 players. Config keys are documented in docs/rules/virus_cards.md."""

    env_id = "virus_cards_v0"
    min_players, max_players, default_players = 2, 6, 2
    DEFAULTS = {
        "deck": "published",            # preset in the deck file: 'published' (68) or 'seed_text' (64)
        "deck_file": "",                # another deck data file with the same structure ('' = built in)
        "max_turns": 4000,              # truncation: total turns taken by all players (random 6-player play: 0 of 5,000 games)
        "first_player": 0,              # seat that takes the first turn; -1 = drawn with the game's seed
        "medicine_on_any_body": False,  # medicines also on other players' organs (default: own body only)
        "virus_on_own_body": False,     # viruses also on one's own organs (default: other players only)
        # Cure and Neutralize destroy the card lying on the organ: whose colour must the played card match?
        # 'card' (that card's own: "destroy a virus of the same color", and "a multicolored card does not
        # affect the color of a card it's played on"; the publisher's FAQ), 'card_or_organ' (that card's or
        # the organ's: a multicolour organ "affected by any card"), 'card_and_organ' (both: strict)
        "colour_rule": "card",
    }
    CHOICES = {"colour_rule": ("card", "card_or_organ", "card_and_organ")}

    BOUNDS = {"max_turns": (1, None), "first_player": (-1, "seat")}

    def _validate_config(self):
        c = self.config
        try:
            self.deck = load_deck(c["deck"], c["deck_file"] or None)
        except ValueError as e:
            raise ValueError(f"config key 'deck'/'deck_file': {e}") from None
        need = HAND * self.num_players + 1
        if self.deck.size < need:
            raise ValueError(f"config key 'deck'/'deck_file': the deck has {self.deck.size} cards; "
                             f"{self.num_players} players need at least {need}")

    def _build(self):
        n = self.num_players
        self.A = card_actions(n)
        self.actions = self.A.table
        self.num_actions = len(self.actions)
        self.layout = encoding.layout(n)
        self.observation_shape = self.layout.shape
        self.observation_high = 1.0
        d = self.deck
        self.KIND, self.COLOUR, self.TREAT, self.CTYPE = d.kind, d.colour, d.treat, d.ctype
        self.enc = encoding.Tables(self)
        # body (tuple of 5 slot codes) -> colours a virus / medicine of a given colour may target
        self.virus_memo = [{} for _ in range(5)]
        self.medicine_memo = [{} for _ in range(5)]

    def slot_targets(self, kind: int, colour: int, codes: tuple) -> tuple:
        """Slots of a body (given by its slot codes) that a virus or medicine of `colour` may be played on.

        Virus: Infect a free organ, Remove an infected one (the organ's colour), Neutralize a medicine.
        Medicine: Vaccinate a free organ, Immunize a vaccinated one (the organ's colour), Cure a virus.
        Cure and Neutralize destroy the card lying on the organ ("destroy a virus of the same color",
        "eliminate a medicine of the same color"): by default (`colour_rule="card"`) the played card
        must match that card, whatever the organ ("a multicolored card does not affect the color of a
        card it's played on"), so a red virus on the multicolour organ falls only to a red or a
        multicolour medicine. Immunized organs take nothing."""
        x = COMPAT[colour]
        rule = self.config["colour_rule"]
        out = []
        for c, k in enumerate(codes):
            if k == 0 or k >= 12:                 # no organ, or immunized
                continue
            if k == 1:                            # free: Infect / Vaccinate
                ok = x[c]
            elif (k < 7) == (kind == VIRUS):      # a second virus (Remove) or a second medicine (Immunize)
                ok = x[c]
            else:                                 # Cure the virus (k-2) or Neutralize the medicine (k-7) on it
                on = x[k - 2] if k < 7 else x[k - 7]
                ok = on if rule == "card" else (on or x[c]) if rule == "card_or_organ" else (on and x[c])
            if ok:
                out.append(c)
        return tuple(out)

    def new_initial_state(self, seed: int | None = None) -> "VirusCardsState":
        """Shuffle the deck and deal 3 cards to each player."""
        rng = make_rng(seed)
        s = VirusCardsState(self)
        s.rng = rng
        deck = list(range(self.deck.size))
        rng.shuffle(deck)
        s.deck = deck
        for _ in range(HAND):
            for p in range(self.num_players):
                s.hands[p].append(s.deck.pop())
        first = self.config["first_player"]
        s.turn_player = int(rng.integers(self.num_players)) if first < 0 else first
        return s

    def state_from_view(self, view: dict, rng: np.random.Generator) -> "VirusCardsState":
        """A full state consistent with a seat's view: the cards it cannot tell (other hands' unknown
        cards, the deck unless it came from a turned-over pile) dealt at random.

        For agents that read only their view but want to try actions on the engine."""
        s = VirusCardsState(self)
        s.rng = make_rng(int(rng.integers(0, 2**63 - 1)))
        p = view["seat"]
        s.organ = [list(o) for o in view["organ"]]
        s.att = [[list(a) for a in body] for body in view["att"]]
        s.discard = list(view["discard"])
        known = view["known_hands"]
        s.deck_public = view["deck"] is not None
        seen = set(s.discard) | {c for h in known for c in h if c >= 0}
        if s.deck_public:
            seen.update(view["deck"])
        for q in range(self.num_players):
            for c in range(5):
                if s.organ[q][c] >= 0:
                    seen.add(s.organ[q][c])
                    seen.update(s.att[q][c])
        unseen = [c for c in range(self.deck.size) if c not in seen]
        rng.shuffle(unseen)
        for q in range(self.num_players):
            s.hands[q] = [c if c >= 0 else unseen.pop() for c in known[q]]
            public = view["hand_public"] if q == p else [c >= 0 for c in known[q]]
            s.pub |= sum(1 << c for c, k in zip(s.hands[q], public) if k)
        s.deck = list(view["deck"]) if s.deck_public else unseen
        s.turn_player = view["current_player"] if view["current_player"] >= 0 else p
        s.stage = PHASES.index(view["phase"]) if view["phase"] in PHASES else PLAY
        s.pending = tuple(view["transplant_first"]) if view["transplant_first"] is not None else None
        s.turns, s.winner, s.truncated = view["turn"], view["winner"], view["truncated"]
        s._recount()
        return s

    def _validate_dict(self, d: dict) -> None:
        """Card conservation, lengths per seat, slots, ranges, a decision that can be taken (checks.py)."""
        checks.validate(self, d)
        checks.validate_position(self._state_from_dict(d))

    def _state_from_dict(self, d: dict) -> "VirusCardsState":
        """Inverse of VirusCardsState.to_dict()."""
        s = VirusCardsState(self)
        s.rng = rng_from_dict(d["rng"])
        s.hands = [list(h) for h in d["hands"]]
        s.organ = [list(o) for o in d["organ"]]
        s.att = [[list(a) for a in body] for body in d["att"]]
        s.deck, s.discard = list(d["deck"]), list(d["discard"])
        s.deck_public = bool(d["deck_public"])
        s.pub = sum(1 << c for h, known in zip(d["hands"], d["hand_public"]) for c, k in zip(h, known) if k)
        s.turn_player, s.stage, s.turns = d["turn_player"], d["stage"], d["turns"]
        s.pending = tuple(d["pending"]) if d["pending"] is not None else None
        s.winner, s.truncated = d["winner"], d["truncated"]
        s._recount()
        return s


class VirusCardsState(State):
    """A position of VIRUS!. Cards are ids into game.deck; hands, bodies, deck and discard are plain lists."""

    _discard_cache = None   # encoding's running count of the discard pile (derived; never copied)
    _deck_cache = None      # encoding's counts of a turned-over deck (derived; never copied)

    def __init__(self, game: VirusCardsGame):
        n = game.num_players
        self.game = game
        self.n = n
        self.rng = None
        self.hands = [[] for _ in range(n)]
        self.organ = [[-1] * 5 for _ in range(n)]            # organ card id per colour slot, -1 if empty
        self.att = [[[] for _ in range(5)] for _ in range(n)]  # cards on each organ (viruses / medicines)
        self.deck = []      # face down; the top is the last element
        self.discard = []   # face up; the top is the last element
        # "Simply flip over the discard pile. It's not necessary to shuffle again": everyone saw the
        # face-up pile, so once it has been turned over the deck's order is public, and so is every
        # card drawn from it until it leaves the hand (the pile is turned only when the deck is empty,
        # so a deck is either all from the first shuffle, unknown, or all from turned-over piles)
        self.deck_public = False
        self.pub = 0        # bit c set: card c was drawn from a public deck (what a hand holds there is public)
        self.turn_player = 0
        self.stage = PLAY
        self.pending = None  # Transplant: (seat, colour) of the first organ
        self.turns = 0
        self.winner = -1
        self.truncated = False
        self._mask = None
        # derived from organ/att (never serialized): slot code per (seat, colour), healthy organs per seat
        self.code = [[0] * 5 for _ in range(n)]
        self.hcount = [0] * n

    def _recount(self):
        """Recompute the derived codes and healthy counts from organ/att."""
        for p in range(self.n):
            for c in range(5):
                self._set(p, c, self.organ[p][c], self.att[p][c])

    # -- contract ---------------------------------------------------------------------------
    def current_player(self) -> int:
        return -1 if self.winner >= 0 or self.truncated else self.turn_player

    def phase(self) -> str:
        return PHASES[self.stage]

    def is_terminal(self) -> bool:
        return self.winner >= 0 or self.truncated

    def is_truncated(self) -> bool:
        """Ended by max_turns (or a table where nobody can do anything), not by a win."""
        return self.truncated

    def returns(self) -> np.ndarray:
        r = np.zeros(self.n)
        if self.winner >= 0:
            r[:] = -1.0
            r[self.winner] = 1.0
        return r

    def scores(self) -> list[int]:
        """Healthy organs in each body (a body with 4 wins)."""
        return self.hcount[:]

    def healthy(self, p: int) -> int:
        """Organs of p that are free, vaccinated or immunized ("organs are considered healthy if they are free of viruses")."""
        return self.hcount[p]

    def _set(self, p, c, organ_card, att):
        """The one way a slot changes: keeps the slot code and the healthy count in step."""
        self.organ[p][c] = organ_card
        self.att[p][c] = att
        old = self.code[p][c]
        new = slot_code(self.game.KIND, self.game.COLOUR, organ_card, att)
        self.code[p][c] = new
        self.hcount[p] += HEALTHY[new] - HEALTHY[old]

    def clone(self) -> "VirusCardsState":
        s = VirusCardsState.__new__(VirusCardsState)
        s.game, s.n = self.game, self.n
        s.rng = clone_rng(self.rng)
        s.hands = [h[:] for h in self.hands]
        s.organ = [o[:] for o in self.organ]
        s.att = [[a[:] for a in body] for body in self.att]
        s.deck, s.discard = self.deck[:], self.discard[:]
        s.deck_public, s.pub = self.deck_public, self.pub
        s.turn_player, s.stage, s.pending, s.turns = self.turn_player, self.stage, self.pending, self.turns
        s.winner, s.truncated = self.winner, self.truncated
        s.code = [c[:] for c in self.code]
        s.hcount = self.hcount[:]
        s._mask = self._mask
        return s

    def to_dict(self) -> dict:
        return {
            "env_id": self.game.env_id, "num_players": self.n,
            "hands": [h[:] for h in self.hands], "organ": [o[:] for o in self.organ],
            "att": [[a[:] for a in body] for body in self.att],
            "deck": self.deck[:], "discard": self.discard[:], "deck_public": self.deck_public,
            "hand_public": [[bool(self.pub >> c & 1) for c in h] for h in self.hands],
            "turn_player": self.turn_player, "stage": self.stage,
            "pending": list(self.pending) if self.pending is not None else None,
            "turns": self.turns, "winner": self.winner, "truncated": self.truncated,
            "rng": rng_to_dict(self.rng),
        }

    def known_hand(self, q: int, p: int) -> list:
        """Seat q's hand as seat p knows it, position by position: the card, or -1 where p cannot tell."""
        if q == p:
            return self.hands[q][:]
        pub = self.pub
        return [c if pub >> c & 1 else -1 for c in self.hands[q]]

    def view(self, p: int) -> dict:
        """What seat p knows: own hand, every body, the face-up discard pile in order, sizes of hidden
        piles, and what everyone saw of a turned-over pile: the deck's order, and the cards drawn from it
        into hands (`known_hands`, -1 where unknown; own hand in full; `hand_public`: which of its own
        cards the others know)."""
        return {
            "seat": p, "num_players": self.n, "current_player": self.current_player(),
            "phase": "game over" if self.is_terminal() else self.phase(), "turn": self.turns,
            "hand": self.hands[p][:], "hand_sizes": [len(h) for h in self.hands],
            "known_hands": [self.known_hand(q, p) for q in range(self.n)],
            "hand_public": [bool(self.pub >> c & 1) for c in self.hands[p]],
            "organ": [o[:] for o in self.organ], "att": [[a[:] for a in body] for body in self.att],
            "deck_size": len(self.deck), "deck": self.deck[:] if self.deck_public else None,
            "discard": self.discard[:],
            "transplant_first": list(self.pending) if self.pending is not None else None,
            "winner": self.winner, "truncated": self.truncated,
        }

    def observation(self, p: int) -> np.ndarray:
        return encoding.encode(self, p)

    def _unknown(self, p: int):
        """What p cannot tell: the (seat, position) of every card of another hand that was not drawn
        from a public deck, and the cards that may fill them (those, plus the deck unless it is public)."""
        pub = self.pub
        where = [(q, i) for q in range(self.n) if q != p for i, c in enumerate(self.hands[q]) if not pub >> c & 1]
        pool = [self.hands[q][i] for q, i in where]
        if not self.deck_public:
            pool += self.deck
        return where, pool

    def _determinize(self, p: int, rng: np.random.Generator) -> "VirusCardsState":
        """The cards p cannot tell (other hands' unknown cards, the deck unless it came from a turned-over
        pile) are dealt again from their union; public cards stay where everyone knows they are."""
        s = self.clone()
        where, pool = self._unknown(p)
        rng.shuffle(pool)
        for (q, i), c in zip(where, pool):
            s.hands[q][i] = c
        if not s.deck_public:
            s.deck = pool[len(where):]
        s._mask = None
        return s

    def hidden_facts(self, p: int) -> dict:
        """Besides future chance: the unknown cards of other hands (by seat and position) and, until the
        pile has been turned over, the deck; each only when more than one card could be there."""
        facts = super().hidden_facts(p)
        where, pool = self._unknown(p)
        if len(pool) > 1:
            if where:
                facts["other hands"] = [[c for i, c in enumerate(self.hands[q]) if (q, i) in where]
                                        for q in range(self.n)]
            if self.deck and not self.deck_public:
                facts["deck"] = self.deck[:]
        return facts

    def action_to_string(self, a: int) -> str:
        base = self.game.actions.name(a)
        pl = self.game.A.payload[a]
        if pl[0] in (A_SLOT, A_PLAYER, A_PLAY) and not self.is_terminal():
            hand = self.hands[self.turn_player]
            if pl[1] < len(hand):
                return f"{base} [{self.game.deck.card_name(hand[pl[1]])}]"
        return base

    def render(self) -> str:
        return render.table(self)

    def render_for(self, p: int) -> str:
        return render.table(self, seat=p)

    # -- legality: the single source -----------------------------------------------------------
    def _compute_mask(self) -> np.ndarray:
        g = self.game
        m = np.zeros(g.num_actions, dtype=bool)
        idx = self._legal_ids()
        if idx:
            m[idx] = True
        return m

    def _legal_ids(self) -> list[int]:
        g, A, n, me = self.game, self.game.A, self.n, self.turn_player
        if self.stage == TRANSPLANT_PICK:
            return [A.pick[(t - me) % n][c] for t, c in self._transplant_seconds(*self.pending)]
        if self.stage == CONTAGION_MOVE:
            return [A.move[c][(t - me) % n][d] for c, t, d in self._contagion_moves()]
        KIND, COLOUR, TREAT, cfg = g.KIND, g.COLOUR, g.TREAT, g.config
        organ, att, code = self.organ, self.att, self.code
        hand = self.hands[me]
        ids = []
        for h, card in enumerate(hand):
            k = KIND[card]
            slot_ids = A.slot[h]
            if k == ORGAN:
                c = COLOUR[card]
                if organ[me][c] < 0:
                    ids.append(slot_ids[0][c])
            elif k == VIRUS:
                # which slots of a body a virus may target depends only on the body's slot codes
                memo = g.virus_memo[COLOUR[card]]
                for r in range(0 if cfg["virus_on_own_body"] else 1, n):
                    key = tuple(code[(me + r) % n])
                    slots = memo.get(key)
                    if slots is None:
                        slots = memo[key] = g.slot_targets(VIRUS, COLOUR[card], key)
                    for c in slots:
                        ids.append(slot_ids[r][c])
            elif k == MEDICINE:
                memo = g.medicine_memo[COLOUR[card]]
                for r in (range(n) if cfg["medicine_on_any_body"] else (0,)):
                    key = tuple(code[(me + r) % n])
                    slots = memo.get(key)
                    if slots is None:
                        slots = memo[key] = g.slot_targets(MEDICINE, COLOUR[card], key)
                    for c in slots:
                        ids.append(slot_ids[r][c])
            else:
                tr = TREAT[card]
                if tr == ORGAN_THIEF:
                    mine = organ[me]
                    for r in range(1, n):
                        t = (me + r) % n
                        for c in range(5):
                            if organ[t][c] >= 0 and len(att[t][c]) < 2 and mine[c] < 0:
                                ids.append(slot_ids[r][c])
                elif tr == TRANSPLANT:
                    for t, c in self._transplant_firsts():
                        ids.append(slot_ids[(t - me) % n][c])
                elif tr == CONTAGION:
                    if self._contagion_edges():
                        ids.append(A.play[h])
                elif tr == LATEX_GLOVE:
                    ids.append(A.play[h])
                else:  # MEDICAL_ERROR
                    ids.extend(A.player[h][1:])
        ids.extend(A.discard_ids[len(hand)])
        return ids

    def _movable(self):
        """(seat, colour) of every organ a treatment may move: present and not immunized."""
        return [(t, c) for t in range(self.n) for c in range(5)
                if self.organ[t][c] >= 0 and len(self.att[t][c]) < 2]

    def _transplant_ok(self, a, c, b, d) -> bool:
        """Swap a's organ c with b's organ d: two players, and neither ends with two organs of one colour."""
        if a == b:
            return False
        return c == d or (self.organ[a][d] < 0 and self.organ[b][c] < 0)

    def _transplant_firsts(self):
        """First organs that have at least one legal partner (same colour elsewhere, or a colour-safe swap)."""
        mv = self._movable()
        organ = self.organ
        seats_by_colour = [set() for _ in range(5)]
        for b, d in mv:
            seats_by_colour[d].add(b)
        out = []
        for a, c in mv:
            same = seats_by_colour[c]
            if len(same) > 1 or (same and a not in same):
                out.append((a, c))
                continue
            oa = organ[a]
            for b, d in mv:
                if b != a and d != c and oa[d] < 0 and organ[b][c] < 0:
                    out.append((a, c))
                    break
        return out

    def _transplant_seconds(self, a, c):
        return [(b, d) for b, d in self._movable() if self._transplant_ok(a, c, b, d)]

    def _contagion_edges(self):
        """(own colour c, seat t, colour d): the virus on my organ c may go onto t's free organ d."""
        KIND, COLOUR = self.game.KIND, self.game.COLOUR
        me, n = self.turn_player, self.n
        edges = []
        for c in range(5):
            a = self.att[me][c]
            if len(a) == 1 and KIND[a[0]] == VIRUS:
                v = COMPAT[COLOUR[a[0]]]
                for r in range(1, n):
                    t = (me + r) % n
                    for d in range(5):
                        if self.organ[t][d] >= 0 and not self.att[t][d] and v[d]:
                            edges.append((c, t, d))
        return edges

    def _contagion_moves(self):
        """Moves that keep "as many viruses as you can" transferable: each keeps the maximum matching."""
        edges = self._contagion_edges()
        best = _max_matching(edges)
        return [e for e in edges
                if 1 + _max_matching([f for f in edges if f[0] != e[0] and f[1:] != e[1:]]) == best]

    # -- the rules --------------------------------------------------------------------------
    def _apply(self, a: int) -> None:
        pl = self.game.A.payload[a]
        kind = pl[0]
        me, n = self.turn_player, self.n
        if kind == A_SLOT:
            _, h, r, c = pl
            t = (me + r) % n
            card = self.hands[me].pop(h)
            k = self.game.KIND[card]
            if k == ORGAN:
                self._set(me, c, card, [])
            elif k == VIRUS:
                self._virus(card, t, c)
            elif k == MEDICINE:
                self._medicine(card, t, c)
            elif self.game.TREAT[card] == ORGAN_THIEF:
                self.discard.append(card)
                self._move_slot(t, c, me, c)
            else:  # TRANSPLANT: the second organ is the next decision
                self.discard.append(card)
                self.stage, self.pending = TRANSPLANT_PICK, (t, c)
                return
        elif kind == A_PLAYER:       # Medical Error: "swap your entire body with another player"
            _, h, r = pl
            t = (me + r) % n
            self.discard.append(self.hands[me].pop(h))
            for x in (self.organ, self.att, self.code, self.hcount):
                x[me], x[t] = x[t], x[me]
        elif kind == A_PLAY:
            h = pl[1]
            card = self.hands[me].pop(h)
            self.discard.append(card)
            if self.game.TREAT[card] == LATEX_GLOVE:
                # "All players, except the one playing the latex glove card, discard their hand."
                for r in range(1, n):
                    t = (me + r) % n
                    self.discard.extend(self.hands[t])
                    self.hands[t] = []
            else:  # CONTAGION: the moves are the next decisions
                self.stage = CONTAGION_MOVE
                return
        elif kind == A_DISCARD:
            bits = pl[1]
            hand = self.hands[me]
            self.discard.extend(hand[i] for i in range(len(hand)) if bits >> i & 1)
            self.hands[me] = [hand[i] for i in range(len(hand)) if not bits >> i & 1]
        elif kind == A_PICK:
            _, r, d = pl
            ta, c = self.pending
            tb = (me + r) % n
            self._swap_slots(ta, c, tb, d)
            self.stage, self.pending = PLAY, None
        else:  # A_MOVE: one virus of the Contagion
            _, c, r, d = pl
            t = (me + r) % n
            self._set(t, d, self.organ[t][d], self.att[me][c])
            self._set(me, c, self.organ[me][c], [])
            if self._check_win():
                return
            if self._contagion_edges():
                return
            self.stage = PLAY
        self._end_action()

    def _virus(self, card, t, c):
        a = self.att[t][c]
        if not a:
            self._set(t, c, self.organ[t][c], [card])        # infect
        elif self.game.KIND[a[0]] == VIRUS:
            # remove: "that organ is now destroyed and all three cards must be placed on the discard pile"
            self.discard.extend((card, self.organ[t][c], a[0]))
            self._set(t, c, -1, [])
        else:
            self.discard.extend((card, a[0]))                # neutralize: "both ... on the discard pile"
            self._set(t, c, self.organ[t][c], [])

    def _medicine(self, card, t, c):
        a = self.att[t][c]
        if a and self.game.KIND[a[0]] == VIRUS:
            self.discard.extend((card, a[0]))                # cure: "both cards are then placed on the discard pile"
            self._set(t, c, self.organ[t][c], [])
        else:
            self._set(t, c, self.organ[t][c], a + [card])    # vaccinate, or immunize with a second medicine

    def _move_slot(self, src, c, dst, d):
        self._set(dst, d, self.organ[src][c], self.att[src][c])
        self._set(src, c, -1, [])

    def _swap_slots(self, a, c, b, d):
        oa, aa = self.organ[a][c], self.att[a][c]
        ob, ab = self.organ[b][d], self.att[b][d]
        self._set(a, c, -1, [])
        self._set(b, d, -1, [])
        self._set(a, d, ob, ab)
        self._set(b, c, oa, aa)

    def _check_win(self) -> bool:
        """ "If you place 4 different healthy organs on the table in front of you, you win!" — checked
        after every action, the acting player first, then in turn order."""
        hc = self.hcount
        for k in range(self.n):
            p = (self.turn_player + k) % self.n
            if hc[p] >= 4:
                self.winner = p
                return True
        return False

    def _end_action(self):
        if self._check_win():
            return
        me = self.turn_player
        self._draw(me)                                       # Phase 2: draw up to 3
        self.turns += 1
        self._start_turn((me + 1) % self.n)                  # Phase 3: pass the turn on

    def _draw(self, p):
        hand = self.hands[p]
        while len(hand) < HAND:
            if not self.deck:
                if not self.discard:
                    return
                # "When the deck runs out, simply flip over the discard pile. It's not necessary to shuffle."
                self.discard.reverse()
                self.deck, self.discard = self.discard, []
                self.deck_public = True
            card = self.deck.pop()
            if self.deck_public:
                self.pub |= 1 << card
            hand.append(card)

    def _start_turn(self, p):
        """A player without cards (Latex Glove) spends the turn drawing a new hand: no decision to take."""
        idle = 0
        limit = self.game.config["max_turns"]
        while True:
            if self.turns >= limit:
                self.truncated = True
                return
            if self.hands[p]:
                # "Each player must have 3 cards in their hand at the beginning of each turn": a hand
                # left short by an exhausted deck is made up now if cards have come back since
                if len(self.hands[p]) < HAND:
                    self._draw(p)
                self.turn_player = p
                return
            self._draw(p)
            self.turns += 1
            idle = idle + 1 if not self.hands[p] else 0
            if idle >= self.n:   # no card anywhere to draw and no hand: nobody can ever act again
                self.truncated = True
                return
            p = (p + 1) % self.n


def _max_matching(edges) -> int:
    """Size of a maximum matching of own infected organs to free organs (Kuhn's algorithm; tiny graphs)."""
    adj = {}
    for c, t, d in edges:
        adj.setdefault(c, []).append((t, d))
    match = {}

    def augment(c, seen):
        for dst in adj[c]:
            if dst in seen:
                continue
            seen.add(dst)
            if dst not in match or augment(match[dst], seen):
                match[dst] = c
                return True
        return False

    return sum(1 for c in adj if augment(c, set()))
