"""Advanced Elements: Spy Mode (config `spy=True`).

"SPY MODE. Setup. Create a Spy deck with X Hero cards (card with the girl) plus 1 Spy card (with the evil guy),
where X is the number of Heroes. Shuffle the deck and give a single random card to each player. Each player keeps
this card secret until the end of the game. The remaining card is NOT revealed and should be returned face down to
the game box. If a player receives the Spy card, he will be the Spy against the other players and his victory
conditions will be different.
Clue cards. Each player must keep his Clue cards hidden, but have to tell other players which clues are
(obviously the Spy will lie). You can take a written note about it, to easily remember the player declaration. If
at any time during the Real Time phase what players have stated about their Clue cards points to a unique room on
the table, place the Antidote tile on that room. When the Antidote token is taken by a player, all players must
show their clue cards for a verification. If the current Antidote position is wrong or if clues are not sufficient
to determine a unique position, remove the Antidote tile and continue playing. Revealed cards remain face-up on the
table (as usual discard all incompatible cards).
Victory Conditions. The player taking the role of the Spy and wins if one of the following conditions occur: ...
The Spy variant is compatible with the Ranking players modality."

State (only with `spy=True`, `game.extra_fields`): `spy_seat` (the seat dealt the Spy card; -1: it went back to
the box), `spy_hand` (each seat's hidden Clue cards), `spy_decl` (each seat's declarations, one per card held, in
the order drawn: public), `spy_wait` (1: the Clue just drawn is kept and its drawer must declare it),
`spy_bottom` (who knows each Clue card known at the bottom of the deck: -1 everybody, q a card seat q returned
with the redraw Advantage, unseen by the others), `spy_log` (every verification: [seat who took the Antidote, its
room, 1 if it stood, the declarations and the cards shown per seat]).
Actions (appended, `ranged.action_table`): `declare clue <c>` for the 25 Clue cards (PH_CLUE, after keep/redraw):
any card may be declared, whatever the card held: a lie is a legal action for every seat (the mask cannot depend
on a role the other seats do not know, and nothing in the rulebook forbids it).
The rules decided where the text is silent are assumptions 39-43 of docs/rules/virus_lab.md.
"""
from __future__ import annotations

from .actions import A
from .boss_players import seat_slot
from .flow import PH_CLUE, RET_RT
from .research import clue_holds

FIELDS = ("spy_seat", "spy_hand", "spy_decl", "spy_wait", "spy_bottom", "spy_log")
NUM_CLUES = 25
SPY_F = 1 + 4 + 1 + 4 * NUM_CLUES + 4 + NUM_CLUES + 4      # the `spy` observation block (`encode`)


def configure(g) -> None:
    """`g.spy`, `g.pvp` and the per-instance `cooperative` (called by `VirusLabGame._validate_config`)."""
    c = g.config
    g.spy, g.pvp = bool(c["spy"]), bool(c["pvp"])
    if g.pvp and not g.spy:
        raise ValueError("config key 'pvp': Player vs Player combat is \"only for Spy mode variant\": needs spy=True")
    if not g.spy:
        return
    if g.num_heroes < 2:
        raise ValueError("config key 'spy': Spy Mode needs 2-4 Heroes (the Spy plays against the other players; "
                         "Boss players get no Spy deck card)")
    g.cooperative = False           # a game of sides: the Heroes against the Spy (core.Game.cooperative)


def setup(s) -> None:
    """ "Shuffle the deck and give a single random card to each player ... The remaining card is NOT revealed": the
    Spy card is in one of the X + 1 places (the X Hero seats, the box), each equally likely. "X Hero cards ... where
    X is the number of Heroes": with Boss players the cards go to the Heroes only (the last card always goes back to
    the box, which a card for every seat would not leave: assumption B14)."""
    n, x = s.n, s.g.num_heroes
    k = int(s.rng.integers(x + 1))
    s.spy_seat = k if k < x else -1
    s.spy_hand, s.spy_decl = [[] for _ in range(n)], [[] for _ in range(n)]
    s.spy_wait, s.spy_bottom, s.spy_log = 0, [], []


def stated(s):
    """The Clues "players have stated": the face-up cards on the table and every declaration of a card held."""
    return list(s.clues) + [c for d in s.spy_decl for c in d]


def candidates(s, clues):
    """Coloured rooms on the table meeting every clue of `clues` (`research.candidate_rooms` over a given list)."""
    comp = s.g.comp
    return [cell for cell in range(s.g.geo.ncells) if comp.is_room(s.card[cell])
            and all(clue_holds(s, q, cell) for q in clues)]


def verify(s, p) -> None:
    """ "When the Antidote token is taken by a player, all players must show their clue cards for a verification. If
    the current Antidote position is wrong or if clues are not sufficient to determine a unique position, remove
    the Antidote tile and continue playing. Revealed cards remain face-up on the table (as usual discard all
    incompatible cards)." FAQ: "All incompatible cards must be discarded." The cards are shown, the incompatible
    ones discarded, and the position checked against the face-up Clues left (assumption 41):
    `spy_verify="unique"` (the literal reading) they must single out the Antidote's room on the table as it is now;
    `"holds"`: the Antidote's room must meet them all (rooms explored since the statements placed it may meet them
    too, as a placed Antidote stays in the base game: assumption 14)."""
    cell = s.pos[p]
    shown = [list(h) for h in s.spy_hand]
    declared = [list(d) for d in s.spy_decl]
    table = list(s.clues) + [c for h in shown for c in h]
    inc = s.g.incompatible
    bad = [c for c in table if any(inc[c][x] for x in table)]
    s.clues = [c for c in table if c not in bad]
    for c in bad:
        s._clue_to_bottom(c)                # "placed on the bottom of the deck", in everybody's sight
    s.spy_hand = [[] for _ in range(s.n)]
    s.spy_decl = [[] for _ in range(s.n)]
    if s.g.config["spy_verify"] == "unique":
        ok = bool(s.clues) and candidates(s, s.clues) == [cell]
    else:           # "holds": the Antidote's room meets every card face up (the table may have grown since)
        ok = bool(s.clues) and all(clue_holds(s, q, cell) for q in s.clues)
    if not ok:
        s.antidote_holder = -1              # "remove the Antidote tile and continue playing"
    s.spy_log.append([p, cell, int(ok), declared, shown])


def spy_wins(s) -> bool:
    """ "The player taking the role of the Spy and wins if one of the following conditions occur:
    - He flees the map uninfected and the Antidote and all Heroes remain inside the map.
    - He leaves the map (infected or not) with the Antidote and the other players remain inside.
    - He leaves the map (infected or not) with the Antidote and all other players who exit are infected."
    The Spy must be alive at the end, as the Hero who exits with the Antidote (FAQ; assumption 42)."""
    q = s.spy_seat
    if q < 0 or q not in s.exit_order or not s.alive[q]:
        return False
    others = [h for h in s.exit_order if h != q]
    if s.antidote_out == q:
        return all(s._infected(h) for h in others)     # the second (nobody else out) and third conditions
    return s.antidote_out < 0 and not others and not s._infected(q)


def winner(s):
    """ "spy", "heroes" (the normal victory: "At least 1 Hero must exit the map with the Antidote"), or None."""
    if spy_wins(s):
        return "spy"
    return "heroes" if s.won else None


def sides(s):
    return ["spy" if q == s.spy_seat else "heroes" for q in range(s.n)]


def returns(s):
    import numpy as np
    if not s.terminal or s.truncated:
        return np.zeros(s.n)
    w = winner(s)
    return np.array([1.0 if side == w else -1.0 for side in sides(s)])


def scores(s):
    import numpy as np
    w = winner(s) if s.terminal else None
    return np.array([1.0 if side == w else 0.0 for side in sides(s)])


def ranking(s, base):
    """ "The Spy variant is compatible with the Ranking players modality": the winning side first (the Heroes in the
    rulebook's ranking order, `base`), then the other seats; [] when nobody won."""
    w = winner(s)
    if w is None:
        return []
    if w == "spy":
        return [s.spy_seat] + [q for q in range(s.n) if q != s.spy_seat]
    return [q for q in base if q != s.spy_seat] + ([s.spy_seat] if s.spy_seat >= 0 else [])


class SpyRules:
    """Spy Mode: the Clue cards kept hidden and declared, the Antidote from the declarations, what each seat knows.
    A mixin of `game.VirusLabState`, before `HiddenInfo` and `LabRules` (whose methods it extends when `spy`)."""

    # -- Clue cards: drawn in secret, declared --------------------------------------------------------
    def _pop_clue(self):
        c = super()._pop_clue()
        if self.g.spy:
            del self.spy_bottom[self.clue_known:]
        return c

    def _clue_to_bottom(self, c, seat=-1):
        super()._clue_to_bottom(c)
        if self.g.spy:
            self.spy_bottom.insert(0, seat)

    def _draw_clue(self):
        """ "Each player must keep his Clue cards hidden": the drawer sees the card alone, keeps it or redraws it (2
        Advantages, as in the base game), then declares it."""
        if not self.g.spy:
            return super()._draw_clue()
        cp = self.clue_pending
        if cp and cp[1] > 0 and self.clue_deck:
            cp[1] -= 1
            cp.append(self._pop_clue())
            self.spy_wait = 0 if (self.num_adv(cp[0]) >= 2 and self.clue_deck) else 1
            self.ph, self.cur, self.ret = PH_CLUE, cp[0], RET_RT
            return True
        self.clue_pending = []
        return False

    def _mask_clue(self, m, p):
        if not self.g.spy:
            return super()._mask_clue(m, p)
        if self.spy_wait:
            b = self.g.spy_base
            m[b:b + NUM_CLUES] = True       # "have to tell other players which clues are": any card, a lie too
        else:
            m[A.KEEP] = True
            m[A.REDRAW] = self.num_adv(p) >= 2 and len(self.clue_deck) > 0

    def _apply_clue(self, a, p):
        if not self.g.spy:
            return super()._apply_clue(a, p)
        cp = self.clue_pending
        if a == A.REDRAW:
            self._use_adv(p)
            self._use_adv(p)
            self._clue_to_bottom(cp.pop(), p)     # to the bottom, seen by its drawer alone
            cp.append(self._pop_clue())
            if not (self.num_adv(p) >= 2 and self.clue_deck):
                self.spy_wait = 1
            return
        if a == A.KEEP:
            self.spy_wait = 1
            return
        self.spy_hand[p].append(cp.pop())
        self.spy_decl[p].append(a - self.g.spy_base)
        self.spy_wait = 0
        if cp[1] <= 0 or not self.clue_deck:
            self.clue_pending = []
        self._resume()

    def _check_antidote(self):
        """ "If at any time during the Real Time phase what players have stated about their Clue cards points to a
        unique room on the table, place the Antidote tile on that room" (assumption 40)."""
        if not self.g.spy:
            return super()._check_antidote()
        if self.antidote_cell >= 0 or self.antidote_holder >= 0 or self.antidote_out >= 0:
            return
        clues = stated(self)
        if clues:
            cand = candidates(self, clues)
            if len(cand) == 1:
                self.antidote_cell = cand[0]

    def sides(self):
        """The side of every seat (core `State.sides`): "spy" for the seat dealt the Spy card, "heroes" for the
        others (all of them when the Spy card went back to the box); None without Spy Mode."""
        return sides(self) if self.g.spy else None

    # -- information: who knows which role and which Clue card --------------------------------------------
    def _held_slots(self, p):
        """Places of Clue cards seat p cannot see although others can: the other seats' hands, a card another seat is
        drawing, the cards another seat returned to the bottom of the deck."""
        out = [("deck", i) for i in range(self.clue_known) if self.spy_bottom[i] not in (-1, p)]
        out += [("hand", q, j) for q in range(self.n) if q != p for j in range(len(self.spy_hand[q]))]
        cp = self.clue_pending
        if len(cp) > 2 and cp[0] != p:
            out += [("pend", j) for j in range(2, len(cp))]
        return out

    def _slot_card(self, w, c=None):
        """The card at place w (or put c there)."""
        if w[0] == "deck":
            box, i = self.clue_deck, w[1]
        elif w[0] == "hand":
            box, i = self.spy_hand[w[1]], w[2]
        else:
            box, i = self.clue_pending, w[1]
        if c is None:
            return box[i]
        box[i] = c

    def _determinize(self, p, rng):
        s = super()._determinize(p, rng)
        if not self.g.spy:
            return s
        if not s.terminal and s.spy_seat != p:
            # p holds a Hero card: the Spy card is with another seat or in the box, each place alike
            places = [q for q in range(s.g.num_heroes) if q != p] + [-1]
            s.spy_seat = places[int(rng.integers(len(places)))]
        slots = s._held_slots(p) + [("deck", i) for i in range(s.clue_known, len(s.clue_deck))]
        pool = [s._slot_card(w) for w in slots]
        rng.shuffle(pool)
        for w, c in zip(slots, pool):
            s._slot_card(w, c)
        return s

    def hidden_facts(self, p):
        facts = super().hidden_facts(p)
        if not self.g.spy:
            return facts
        if not self.terminal and self.spy_seat != p:
            facts["Spy card"] = self.spy_seat
        held = self._held_slots(p)
        if held and len(held) + len(self.clue_deck) - self.clue_known >= 2:
            facts["held Clue cards"] = [self._slot_card(w) for w in held]
        return facts


# -- view, observation, loader ------------------------------------------------------------------------------
def view(s, p) -> dict:
    """Seat p's view in Spy Mode: its own card (every card at the end: "keeps this card secret until the end of the
    game"), its own Clue cards, everybody's declarations and counts, the verifications; the Clue card being drawn
    and the cards returned to the bottom only for the seat who saw them."""
    cp = s.clue_pending
    out = {"spy": {
        "my_card": "spy" if s.spy_seat == p else "hero" if p < s.g.num_heroes else None,   # Boss players: none
        "cards": (sides(s) if s.terminal else None), "spy_in_box": (s.spy_seat < 0 if s.terminal else None),
        "my_clues": list(s.spy_hand[p]), "declared": [list(d) for d in s.spy_decl],
        "held": [len(h) for h in s.spy_hand], "to_declare": bool(s.spy_wait) and cp[:1] == [p],
        "verifications": [[x[0], x[1], bool(x[2]), [list(d) for d in x[3]], [list(h) for h in x[4]]]
                          for x in s.spy_log]},
        "clue_drawn": cp[2] if len(cp) > 2 and cp[0] == p else None,
        "clue_deck_bottom": [c if s.spy_bottom[i] in (-1, p) else None for i, c in enumerate(s.clue_deck[:s.clue_known])]}
    return out


def encode(s, p, out) -> None:
    """The `spy` block: my card is the Spy (1); at the end, the Spy card per relative seat (4) and in the box (1);
    the declarations per relative seat (4 x 25, each clue declared / 2); Clue cards held per relative seat / 4 (4);
    my own Clue cards (25); declarations found false at a verification per relative seat / 4 (4)."""
    n = s.n
    slot = [seat_slot(s, q, p) for q in range(n)]      # relative Hero slots; a Boss player's seat has none
    out[0] = s.spy_seat == p
    if s.terminal:
        if s.spy_seat >= 0:
            out[1 + slot[s.spy_seat]] = 1
        else:
            out[5] = 1
    for q in range(n):
        r = slot[q]
        if r < 0:
            continue
        b = 6 + r * NUM_CLUES
        for c in s.spy_decl[q]:
            out[b + c] += 0.5
        out[6 + 4 * NUM_CLUES + r] = len(s.spy_hand[q]) / 4
    b = 6 + 4 * NUM_CLUES + 4
    for c in s.spy_hand[p]:
        out[b + c] = 1
    b += NUM_CLUES
    for x in s.spy_log:
        declared, shown = x[3], x[4]
        for h in range(n):
            if slot[h] >= 0:
                out[b + slot[h]] += len(set(declared[h]) - set(shown[h])) / 4


def validate(g, d) -> None:
    """The Spy Mode fields of a state dict; the Clue cards held count in the clue-card conservation (checks.py)."""
    from ..core.validate import check_int, check_ints, check_list, fail
    env, n = g.env_id, g.num_players
    check_int(env, "spy_seat", d["spy_seat"], -1, n - 1)
    check_int(env, "spy_wait", d["spy_wait"], 0, 1)
    hand = check_list(env, "spy_hand", d["spy_hand"], n)
    decl = check_list(env, "spy_decl", d["spy_decl"], n)
    for q in range(n):
        h = check_ints(env, f"spy_hand[{q}]", hand[q], None, 0, NUM_CLUES - 1)
        if len(check_ints(env, f"spy_decl[{q}]", decl[q], None, 0, NUM_CLUES - 1)) != len(h):
            raise fail(env, f"spy_decl[{q}]", "must hold one declaration per Clue card held")
    check_ints(env, "spy_bottom", d["spy_bottom"], d["clue_known"], -1, n - 1)
    if d["spy_wait"] and len(d["clue_pending"]) < 3:
        raise fail(env, "spy_wait", "a declaration is awaited but no Clue card is being drawn")
    for k, x in enumerate(check_list(env, "spy_log", d["spy_log"])):
        if not isinstance(x, list) or len(x) != 5:
            raise fail(env, f"spy_log[{k}]", "must be [seat, room, stood, declared per seat, shown per seat]")
        check_int(env, f"spy_log[{k}]", x[0], 0, n - 1)
        check_int(env, f"spy_log[{k}]", x[2], 0, 1)
        for j in (3, 4):
            for q, cards in enumerate(check_list(env, f"spy_log[{k}]", x[j], n)):
                check_ints(env, f"spy_log[{k}][{j}][{q}]", cards, None, 0, NUM_CLUES - 1)


def held_cards(d) -> list:
    """The Clue cards in the players' hands (checks.py counts them with the deck, the table and the card drawn)."""
    return [c for h in d["spy_hand"] for c in h]
